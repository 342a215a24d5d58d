// Mutation sample, third pass (mt3; docs/architecture.md): the code action request's lookup of a diagnostic's fixes (lsp/handlers.ts
// codeActions, currentFixes) and its "Fix all" quick fix, over LSP with the server in this process. Each test failed on a mutant the
// LSP tests let through, and passes on the code as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { autoFixes } from '../../../server/src/core/fixAll';
import { validateText } from '../../../server/src/core/validate';
import { inProcessServer, type InProcessServer } from '../lsp/inProcess';

const FIX_ALL = 'Fix all auto-fixable problems (EdgeKit)';
const CAPS = { workspace: { configuration: true }, textDocument: { diagnostic: {}, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } };
const pull = async (s: InProcessServer, uri: string): Promise<Diagnostic[]> =>
  (await s.client.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
const actionsFor = (s: InProcessServer, uri: string, diagnostics: Diagnostic[]): Promise<CodeAction[]> =>
  s.client.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diagnostics[0].range, context: { diagnostics } });

// Two misspelt fields: two problems of one code, each with its own typo fix
const TWO = '{"where": {"and": [\n  {"key": "ClientCountyr", "operator": "eq", "value": "ca"},\n  {"key": "EdgeResponseStatsu", "operator": "eq", "value": 403}\n]}}\n';

test('a diagnostic reworded by the client gets the fixes of the problem at its own start, not of another with its code', { timeout: 60_000 }, async () => {
  const s = await inProcessServer({ capabilities: CAPS });
  try {
    const uri = 'file:///w/two.filter.json';
    await s.open(uri, 'logpush-filter', 1, TWO);
    const diagnostics = await pull(s, uri);
    assert.deepEqual(diagnostics.map((d) => d.code), ['logpush/unknown-field', 'logpush/unknown-field']);
    const second = { ...diagnostics[1], message: 'Unknown field (as the client shows it).' };
    const titles = (await actionsFor(s, uri, [second])).map((a) => a.title);
    assert.ok(titles.includes('Change to "EdgeResponseStatus"'), titles.join());
    assert.ok(!titles.some((t) => t.includes('ClientCountry')), titles.join());
    // A diagnostic where no problem of its code starts (made for another text) finds no fixes
    const elsewhere = { ...diagnostics[1], range: { start: { line: 0, character: 1 }, end: { line: 0, character: 8 } } };
    assert.deepEqual((await actionsFor(s, uri, [elsewhere])).map((a) => a.title), []);
  } finally {
    s.close();
  }
});

// An operator in the wrong case has one fix, applied by Fix all; a misspelt field with two near names has none Fix all applies
const ONE_FIXABLE = '{"where": {"key": "EdgeResponseStatus", "operator": "In", "value": [403]}}\n';
const TWO_FIXABLE = '{"where": {"and": [\n  {"key": "EdgeResponseStatus", "operator": "In", "value": [403]},\n  {"key": "ClientRequestPath", "operator": "startswith", "value": "/api"}\n]}}\n';

test('the "Fix all" quick fix comes with two or more auto-fixable problems, not with one', { timeout: 60_000 }, async () => {
  const s = await inProcessServer({ capabilities: CAPS });
  try {
    assert.equal(autoFixes(validateText(ONE_FIXABLE, 'logpush-filter'), ONE_FIXABLE).count, 1);
    assert.equal(autoFixes(validateText(TWO_FIXABLE, 'logpush-filter'), TWO_FIXABLE).count, 2);
    for (const [name, text, offered] of [['one', ONE_FIXABLE, false], ['two', TWO_FIXABLE, true]] as const) {
      const uri = `file:///w/${name}.filter.json`;
      await s.open(uri, 'logpush-filter', 1, text);
      const diagnostics = await pull(s, uri);
      const titles = (await actionsFor(s, uri, [diagnostics[0]])).map((a) => a.title);
      assert.ok(titles.includes('Change to "in"'), `${name}: ${titles.join()}`);
      assert.equal(titles.includes(FIX_ALL), offered, `${name}: ${titles.join()}`);
    }
  } finally {
    s.close();
  }
});

// mt4: the lookup's last fallback (lf17, a diagnostic clamped by Neovim 0.7 to the line before a final line break) reaches only the
// empty line after that line break, and only when the text ends with one.
test('a diagnostic at a start where no problem of its code is finds no fixes by the clamped fallback: not in a text without a final line break, not from its own line', { timeout: 60_000 }, async () => {
  const s = await inProcessServer({ capabilities: CAPS });
  try {
    // No final line break: the object left open is reported at the end of the last line, not on an empty line after it
    const open = '{\n  "name": "example.com",\n  "dataset": "http_requests"';
    const openUri = 'file:///w/open.logpush.json';
    await s.open(openUri, 'logpush-job', 1, open);
    const unclosed = (await pull(s, openUri)).find((d) => d.code === 'syntax/unclosed-bracket');
    assert.ok(unclosed);
    assert.equal(unclosed.range.start.line, 2);
    const fixTitles = (await actionsFor(s, openUri, [unclosed])).map((a) => a.title);
    assert.ok(fixTitles.includes('Insert "}" to close the object'), fixTitles.join());
    const above = { ...unclosed, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } } };
    assert.deepEqual((await actionsFor(s, openUri, [above])).map((a) => a.title), []);
    // A final line break, the problem on the line before it: the diagnostic elsewhere on that line is not clamped there
    const one = '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}\n';
    const oneUri = 'file:///w/one.filter.json';
    await s.open(oneUri, 'logpush-filter', 1, one);
    const [typo] = await pull(s, oneUri);
    assert.equal(typo.code, 'logpush/unknown-field');
    assert.ok((await actionsFor(s, oneUri, [typo])).some((a) => a.title === 'Change to "ClientCountry"'));
    const moved = { ...typo, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
    assert.deepEqual((await actionsFor(s, oneUri, [moved])).map((a) => a.title), []);
  } finally {
    s.close();
  }
});
