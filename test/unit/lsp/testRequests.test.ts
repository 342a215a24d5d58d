// The Node server's "Test Filter on Logs" request over LSP: answered on a file, and stopped when the client cancels it (a long log
// file is not read to its end after the user pressed Cancel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

test('edgekit/testFilter answers on a log file, and a cancelled one stops reading it', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-'));
  const logs = path.join(dir, 'big.ndjson');
  const line = JSON.stringify({ EdgeResponseStatus: 403, ClientCountry: 'ca', ClientRequestPath: '/a'.repeat(20) }) + '\n';
  fs.writeFileSync(logs, line.repeat(300_000)); // about 20 MB
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/a.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": "400"}}' } });
    const small = path.join(dir, 'small.ndjson');
    fs.writeFileSync(small, line.repeat(3));
    const r = await server.conn.sendRequest<{ total: number; matched: number }>('edgekit/testFilter', { uri, logs: small });
    assert.deepEqual([r.total, r.matched], [3, 3]);
    const source = new CancellationTokenSource();
    const pending = server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testFilter', { uri, logs }, source.token);
    source.cancel();
    const outcome = await pending.then((x) => x, (e: { code?: number }) => ({ error: `rejected ${e.code}` }));
    assert.ok(outcome.error === 'Cancelled.' || /rejected -32800/.test(String(outcome.error)), `the request stopped: ${JSON.stringify(outcome)}`);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
