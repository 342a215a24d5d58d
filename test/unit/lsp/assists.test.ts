// Signature help and inlay hints over LSP. Signature help: announced with its trigger characters; parameters by label offsets and markdown documentation for a
// client that takes them (VS Code), by their text and in plain text for one that does not (LSP 3.14 clients, many editors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SignatureHelp } from 'vscode-languageserver-protocol';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

const RULESET = '{"rules": [{"action": "block", "expression": "starts_with(lower(http.host), \\"a\\")"}]}';
const CARET = { line: 0, character: RULESET.indexOf(', \\"a') + 2 };

const caps = (labelOffsetSupport: boolean, formats: string[]) => ({
  textDocument: {
    synchronization: { dynamicRegistration: false },
    signatureHelp: { signatureInformation: { documentationFormat: formats, parameterInformation: { labelOffsetSupport } } },
  },
});

for (const [name, offsets, formats] of [['VS Code-like client', true, ['markdown', 'plaintext']], ['plain client', false, ['plaintext']]] as const) {
  test(`signature help over LSP, ${name}`, { timeout: 60_000 }, async () => {
    const server = await startServer(serverJs(), { capabilities: caps(offsets, [...formats]) });
    try {
      const provider = server.serverCapabilities.signatureHelpProvider as { triggerCharacters: string[] };
      assert.ok(provider?.triggerCharacters.includes('(') && provider.triggerCharacters.includes(','), JSON.stringify(provider));
      const uri = 'file:///w/sig.ruleset.json';
      await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: RULESET } });
      const help = await server.conn.sendRequest<SignatureHelp | null>('textDocument/signatureHelp', { textDocument: { uri }, position: CARET });
      assert.ok(help, 'signature help');
      const sig = help.signatures[0];
      assert.match(sig.label, /^starts_with\(String, String\): Boolean/);
      assert.equal(help.activeParameter, 1);
      const second = sig.parameters![1].label;
      if (offsets) assert.deepEqual(second, [sig.label.indexOf(', ') + 2, sig.label.indexOf(')')]);
      else assert.equal(second, 'String');
      const doc = sig.documentation as { kind: string; value: string };
      assert.equal(doc.kind, offsets ? 'markdown' : 'plaintext');
      if (!offsets) assert.doesNotMatch(doc.value, /`/, 'no markdown marks in plain text');
      // Outside any call: null.
      assert.equal(await server.conn.sendRequest('textDocument/signatureHelp', { textDocument: { uri }, position: { line: 0, character: 3 } }), null);
    } finally {
      await server.stop();
    }
  });
}

test('inlay hints over LSP: announced; param names and decimals in the range asked for, at the right positions', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    assert.ok(server.serverCapabilities.inlayHintProvider, 'announced');
    const uri = 'file:///w/hints.rpc.json';
    const text = '[\n  {"jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["0x1312d00", false], "id": 1},\n  {"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "latest"], "id": 2}\n]\n';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'jsonrpc-request', version: 1, text } });
    type Hint = { position: { line: number; character: number }; label: string; kind: number; paddingLeft?: boolean; paddingRight?: boolean };
    const ask = (startLine: number, endLine: number) => server.conn.sendRequest<Hint[]>('textDocument/inlayHint',
      { textDocument: { uri }, range: { start: { line: startLine, character: 0 }, end: { line: endLine, character: 0 } } });
    const line1 = await ask(1, 2);
    assert.deepEqual(line1.map((h) => [h.label, h.kind]), [['Block:', 2], ['= 20,000,000', 1], ['Hydrated transactions:', 2]]);
    const lines = text.split('\n');
    assert.equal(line1[0].position.line, 1);
    assert.equal(lines[1].slice(line1[0].position.character).slice(0, 11), '"0x1312d00"', 'before the value');
    assert.equal(lines[1].slice(line1[1].position.character).slice(0, 2), ', ', 'after the value');
    assert.ok(line1[0].paddingRight && line1[1].paddingLeft);
    assert.deepEqual((await ask(2, 3)).map((h) => h.label), ['Address:', 'Block:']);
  } finally {
    await server.stop();
  }
});
