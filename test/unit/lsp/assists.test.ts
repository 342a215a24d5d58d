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
      assert.match(sig.label, /^starts_with\(source: String, substring: String\): Boolean/);
      assert.equal(help.activeParameter, 1);
      const second = sig.parameters![1].label;
      if (offsets) assert.deepEqual(second, [sig.label.indexOf(', ') + 2, sig.label.indexOf(')')]);
      else assert.equal(second, 'substring: String');
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

test('selection ranges over LSP: announced; one chain per position, innermost first, inside a rule\'s expression then the JSON', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    assert.ok(server.serverCapabilities.selectionRangeProvider, 'announced');
    const uri = 'file:///w/sel.ruleset.json';
    const text = '{\n  "rules": [\n    {"action": "block", "expression": "http.host eq \\"a\\" and lower(http.request.uri.path) contains \\"/x\\""}\n  ]\n}\n';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text } });
    type Sel = { range: { start: { line: number; character: number }; end: { line: number; character: number } }; parent?: Sel };
    const lines = text.split('\n');
    const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
    const chars = (r: Sel['range']) => text.slice(offset(r.start), offset(r.end));
    const positions = [{ line: 2, character: lines[2].indexOf('uri.path') }, { line: 1, character: 4 }];
    const got = await server.conn.sendRequest<Sel[]>('textDocument/selectionRange', { textDocument: { uri }, positions });
    assert.equal(got.length, 2, 'one chain per position');
    const chain = (s: Sel | undefined): string[] => (s ? [chars(s.range), ...chain(s.parent)] : []);
    const first = chain(got[0]);
    assert.deepEqual(first.slice(0, 4), ['http.request.uri.path', 'lower(http.request.uri.path)', 'lower(http.request.uri.path) contains \\"/x\\"',
      'http.host eq \\"a\\" and lower(http.request.uri.path) contains \\"/x\\"']);
    assert.equal(first[first.length - 1], text);
    assert.deepEqual(chain(got[1]).slice(0, 2), ['rules', '"rules"']);
  } finally {
    await server.stop();
  }
});
