// The reports ("Test Filter on Logs…", "Test Rules on Requests…") open as markdown source in an editor, so a message placed in them
// is read as typed: the text of a skipped line's JSON error read "line 1 is not JSON \(Unexpected token \'o\'\, \"not json at all\"
// is not valid JSON\)" in the report of a file that was not NDJSON.
import './vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mdSourceText, mdText } from '../../../client/src/markdown';

test('mdSourceText leaves prose as it is: quotes, parentheses, commas, colons, periods and snake_case names are not escaped', () => {
  const e = 'line 1 is not JSON (Unexpected token \'o\', "not json at all" is not valid JSON)';
  assert.equal(mdSourceText(e), e);
  const r = 'line 2: "http.hots" is not a rules-language field (did you mean "http.host"?); rules never read it';
  assert.equal(mdSourceText(r), r);
  assert.equal(mdSourceText('reading /l/a.ndjson.gz stopped after line 40: EdgeResponse_Status, 50% = 1/2; a-b #3'), 'reading /l/a.ndjson.gz stopped after line 40: EdgeResponse_Status, 50% = 1/2; a-b #3');
});

test('mdSourceText escapes what would start markdown: links, code, emphasis, HTML, entities, table pipes, and a block marker at the start', () => {
  assert.equal(mdSourceText('[Open](command:x) `code` *em* <img src=x> &amp; a|b \\n'), '\\[Open](command:x) \\`code\\` \\*em\\* \\<img src=x> \\&amp; a\\|b \\\\n');
  assert.equal(mdSourceText('_em_ and __strong__ but not snake_case'), '\\_em\\_ and \\_\\_strong\\_\\_ but not snake_case');
  assert.equal(mdSourceText('~~gone~~'), '\\~\\~gone\\~\\~');
  for (const [text, escaped] of [['# heading', '\\# heading'], ['> quote', '\\> quote'], ['- item', '\\- item'], ['+ item', '\\+ item'],
    ['12. item', '12\\. item'], ['3) item', '3\\) item'], ['--- rule', '\\--- rule'], ['  # indented', '  \\# indented']]) {
    assert.equal(mdSourceText(text), escaped, text);
  }
  assert.equal(mdSourceText('one\ntwo\r\nthree'), 'one two three');
});

test('mdText (for rendered markdown: tooltips) still escapes every ASCII punctuation character', () => {
  assert.equal(mdText('a (b), "c".'), 'a \\(b\\)\\, \\"c\\"\\.');
});

test('Test Filter report: a skipped line\'s message reads in the report as the server wrote it', async () => {
  const { testReport } = await import('../../../client/src/commands/logpush');
  const e = 'line 1 is not JSON (Unexpected token \'o\', "not json at all" is not valid JSON)';
  const md = testReport('a.filter.json', { matched: 0, total: 0, dataset: 'http_requests', source: '/tmp/bad.ndjson',
    branches: { label: 'and', matched: 0, children: [] }, firstMatches: [], badLines: 1, badLineErrors: [e] } as never);
  assert.ok(md.split('\n').includes(`- ${e}`), md);
});
