// After `shutdown` the server answers every request with InvalidRequest and accepts only `exit` (LSP 3.17, "Shutdown Request":
// "If a server receives requests after a shutdown request those requests should error with InvalidRequest"). vscode-languageserver
// answers them as before (its shutdown handler only records the request for the exit code), so the gate is ours (lsp/shutdown.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCodes, ResponseError } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

test('after shutdown, requests get InvalidRequest naming the method; exit ends the process with code 0', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
  try {
    const uri = 'file:///w/a.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}' } });
    const symbols = await server.conn.sendRequest<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(symbols.length > 0, 'answered before shutdown');

    assert.equal(await server.conn.sendRequest('shutdown'), null);
    for (const [method, params] of [
      ['textDocument/documentSymbol', { textDocument: { uri } }],
      ['textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 20 } }],
      ['edgekit/documentInfo', { uri }],
      ['shutdown', undefined],
    ] as const) {
      const err = await server.conn.sendRequest(method, params).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ResponseError, `${method} after shutdown is an error, not an answer`);
      assert.equal(err.code, ErrorCodes.InvalidRequest, method);
      assert.ok(err.message.includes(`"${method}"`) && /shut down/.test(err.message), err.message);
    }

    await server.conn.sendNotification('exit');
    assert.equal(await exited, 0, 'exit after shutdown ends with code 0');
  } finally {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    server.conn.dispose();
  }
});
