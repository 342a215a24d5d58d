// Signature help over LSP: announced with its trigger characters; parameters by label offsets and markdown documentation for a
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
