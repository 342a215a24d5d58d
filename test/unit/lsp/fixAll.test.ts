// Fix all over LSP, as editor.codeActionsOnSave ({"source.fixAll.edgekit": "explicit"}) and the Source Action menu ask for it: the
// server announces the kind, answers a request for it (or for source.fixAll, or source) with one edit that leaves the document
// without its auto-fixable problems, offers nothing when nothing is auto-fixable, and adds "Fix all auto-fixable problems" to the
// quick fixes when two or more are. A request for quick fixes only does not get the source action.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, DocumentDiagnosticReport, TextEdit } from 'vscode-languageserver-protocol';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';
import { validateText } from '../../../server/src/core/validate';

const TEXT = '{"where": {"and": [\n  {"key": "EdgeResponseStatus", "operator": "In", "value": 403},\n  {"key": "ClientRequestPath", "operator": "startswith", "value": "/api"},\n  {"key": "ClientCountyr", "operator": "eq", "value": "ca"}\n]}}\n';

test('source.fixAll.edgekit over LSP: announced, one edit, quick-fix list entry, nothing when nothing is auto-fixable', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const kinds = (server.serverCapabilities.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds;
    assert.ok(kinds.includes('source.fixAll.edgekit'), kinds.join());
    const uri = 'file:///w/fixall.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: TEXT } });
    const report = await server.conn.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } });
    const diags = (report as { items: Diagnostic[] }).items;
    const whole = { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } };
    const ask = (only: string[] | undefined, diagnostics: Diagnostic[] = []) =>
      server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: whole, context: { diagnostics, ...(only ? { only } : {}) } });

    for (const only of [['source.fixAll.edgekit'], ['source.fixAll'], ['source']]) {
      const actions = await ask(only);
      assert.equal(actions.length, 1, `${only}: ${JSON.stringify(actions.map((a) => a.title))}`);
      assert.equal(actions[0].kind, 'source.fixAll.edgekit');
      const edits = (actions[0].edit!.documentChanges?.[0] as { edits: TextEdit[] } | undefined)?.edits ?? actions[0].edit!.changes![uri];
      assert.equal(edits.length, 1, 'one edit');
      const fixed = TextDocument.applyEdits(TextDocument.create(uri, 'logpush-filter', 1, TEXT), edits);
      // "In" → "in", then (revealed) 403 → [403]; "startswith" → "startsWith"; the misspelt field has two candidates and stays.
      assert.deepEqual(validateText(fixed, 'logpush-filter').map((p) => p.code), ['logpush/unknown-field'], fixed);
      assert.match(fixed, /"operator": "in", "value": \[403\]/);
      assert.match(fixed, /"startsWith"/);
      assert.ok(edits[0].range.start.line >= 1, 'the edit starts where the text changes, not at the top');
    }
    assert.deepEqual(await ask(['quickfix']).then((a) => a.filter((x) => x.kind?.startsWith('source'))), [], 'quick fixes only');
    assert.deepEqual(await ask(['refactor']), []);

    const lightbulb = await ask(undefined, diags);
    const all = lightbulb.filter((a) => a.title.startsWith('Fix all auto-fixable problems'));
    assert.equal(all.length, 1, JSON.stringify(lightbulb.map((a) => a.title)));
    assert.equal(all[0].kind, 'quickfix');

    // A document with nothing auto-fixable: no source action, no "fix all" entry.
    const clean = 'file:///w/clean.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: clean, languageId: 'logpush-filter', version: 1,
      text: '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}' } });
    const cleanDiags = ((await server.conn.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: clean } })) as { items: Diagnostic[] }).items;
    const none = await server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: clean }, range: whole, context: { diagnostics: [], only: ['source.fixAll'] } });
    assert.deepEqual(none, []);
    const fixes = await server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: clean }, range: cleanDiags[0].range, context: { diagnostics: cleanDiags } });
    assert.ok(fixes.length >= 2 && fixes.every((a) => !a.title.startsWith('Fix all')), JSON.stringify(fixes.map((a) => a.title)));
  } finally {
    await server.stop();
  }
});

test('a code action request whose diagnostics lack a range (Neovim 0.7 keeps only code and data in user_data.lsp) gets the fixes of those that have one, not an internal error', { timeout: 60_000 }, async () => {
  // It answered -32603 "Cannot read properties of undefined (reading 'start')" when a diagnostic without data fixes had no range.
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/norange.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: TEXT } });
    const report = await server.conn.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } });
    const diags = (report as { items: Diagnostic[] }).items;
    const bare = diags.map((d) => ({ code: d.code }) as unknown as Diagnostic);
    const whole = { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } };
    const withBare = await server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: whole, context: { diagnostics: [...bare, ...diags] } });
    const full = await server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: whole, context: { diagnostics: diags } });
    assert.deepEqual(withBare.map((a) => a.title), full.map((a) => a.title));
    assert.ok(full.length > 0);
  } finally {
    await server.stop();
  }
});
