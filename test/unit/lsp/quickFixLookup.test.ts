// A diagnostic carries no quick fixes (convert.ts): the code action request finds them in the problems the server kept for the
// text, so a check never works out a fix's edits nobody asks for, and a report is the size of its diagnostics. Over LSP: the
// report's items have no data, and the fixes, lazy ones included (the operator limit's merges), come back for the diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

const cmp = (key: string, operator: string, value: unknown) => ({ key, operator, value });
const WHERE = { or: [...['us', 'ca', 'de'].map((c) => cmp('ClientCountry', 'eq', c)), cmp('ClientCountyr', 'eq', 'fr'), ...Array.from({ length: 30 }, (_, i) => cmp('BotScore', 'lt', i))] };
const JOB = `${JSON.stringify({ name: 'example.com', dataset: 'http_requests', destination_conf: 's3://b/logs?region=us-east-1', filter: JSON.stringify({ where: WHERE }) }, null, 2)}\n`;

test('a report carries no fixes; the code action finds them for its diagnostic, the merge fix\'s edits made when asked', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/over.logpush.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-job', version: 1, text: JOB } });
    const report = await server.conn.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } });
    const codes = report.items.map((d) => d.code).sort();
    assert.deepEqual(codes, ['logpush/operator-limit', 'logpush/size-limit', 'logpush/unknown-field'], JSON.stringify(report.items));
    assert.deepEqual(report.items.filter((d) => d.data !== undefined), [], 'no diagnostic carries data');
    const doc = TextDocument.create(uri, 'logpush-job', 1, JOB);
    const fixesOf = async (code: string) => {
      const d = report.items.find((x) => x.code === code)!;
      const actions = await server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
      return actions.filter((a) => a.diagnostics?.length);
    };
    const [merge] = await fixesOf('logpush/operator-limit');
    assert.equal(merge?.title, 'Merge the 3 "eq" comparisons of ClientCountry into one "in"');
    const edits = (merge.edit!.documentChanges?.[0] as { edits: TextEdit[] } | undefined)?.edits ?? merge.edit!.changes![uri];
    const filter = JSON.parse(JSON.parse(TextDocument.applyEdits(doc, edits)).filter);
    assert.deepEqual(filter.where.or.slice(0, 2), [cmp('ClientCountry', 'in', ['us', 'ca', 'de']), cmp('ClientCountyr', 'eq', 'fr')]);
    // Each diagnostic gets its own problem's fixes: the misspelt field's, not the limit's
    const field = await fixesOf('logpush/unknown-field');
    assert.ok(field.some((a) => a.title === 'Change to "ClientCountry"'), JSON.stringify(field.map((a) => a.title)));
    assert.ok(field.every((a) => !a.title.startsWith('Merge')));
  } finally {
    await server.stop();
  }
});

// Neovim 0.7-0.9 keep a diagnostic as vim.diagnostic's item, its columns in bytes of the line (runtime/lua/vim/lsp/diagnostic.lua,
// diagnostic_lsp_to_vim: line_byte_from_position), and send it back for code actions with those columns as LSP characters
// (diagnostic_vim_to_lsp: `character = diagnostic.col`), the rest from user_data.lsp. With the fixes in `data`, a line with letters
// outside ASCII before the diagnostic did not matter; with the fixes found by place, it did: no fix.
const utf8Col = (line: string, character: number) => Buffer.byteLength(line.slice(0, character), 'utf8');
const asNeovim07 = (text: string, d: Diagnostic): Diagnostic => {
  const lines = text.split('\n');
  const byteCol = (p: { line: number; character: number }) => ({ line: p.line, character: utf8Col(lines[p.line] ?? '', p.character) });
  return { range: { start: byteCol(d.range.start), end: byteCol(d.range.end) }, severity: d.severity, message: d.message, source: d.source, code: d.code,
    ...(d.codeDescription ? { codeDescription: d.codeDescription } : {}) };
};

test('a diagnostic sent back with byte columns (Neovim 0.7-0.9) after letters outside ASCII on its line finds its fixes, and only its own', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/utf8.filter.json';
    const text = `{"where": {"and": [{"key": "ClientRequestHost", "operator": "eq", "value": "日本.example"}, {"key": "ClientCountyr", "operator": "eq", "value": "jp"}]}}\n`;
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text } });
    const report = await server.conn.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } });
    const d = report.items.find((x) => x.code === 'logpush/unknown-field');
    assert.ok(d, JSON.stringify(report.items));
    const quickFixes = (sent: Diagnostic) => server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: sent.range, context: { diagnostics: [sent], only: ['quickfix'] } });
    const sent = asNeovim07(text, d);
    assert.notDeepEqual(sent.range, d.range, 'the byte columns differ from the UTF-16 ones');
    const actions = await quickFixes(sent);
    const fix = actions.find((a) => a.title === 'Change to "ClientCountry"');
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    const edits = (fix.edit!.documentChanges?.[0] as { edits: TextEdit[] } | undefined)?.edits ?? fix.edit!.changes![uri];
    assert.equal(TextDocument.applyEdits(TextDocument.create(uri, 'logpush-filter', 1, text), edits), text.replace('ClientCountyr', 'ClientCountry'));
    // A diagnostic of an older text (VS Code moves its markers with an edit) whose characters, read as bytes, land on another
    // problem of its code: that problem is not the one it reports, and its fixes are not offered
    const stale = await quickFixes({ ...sent, message: 'Unknown field "ClientRegion".' });
    assert.deepEqual(stale.filter((a) => a.diagnostics?.length).map((a) => a.title), []);
  } finally {
    await server.stop();
  }
});
