import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import { filterToJobString } from '../../../server/src/core/rules/logpush';

function syntax(text: string) {
  return parseDocument(text).syntax.map((p) => ({ code: p.code, offset: p.offset, length: p.length }));
}

test('valid JSON takes the fast path and has no syntax problems', () => {
  const doc = parseDocument('{"where": {"key": "a"}}');
  assert.deepEqual(doc.syntax, []);
  assert.deepEqual(doc.value, { where: { key: 'a' } });
});

test('a missing comma is one problem at the next token', () => {
  assert.deepEqual(syntax('{"a":1 "b":2}'), [{ code: 'syntax/invalid-json', offset: 7, length: 3 }]);
});

test('a trailing comma is reported on the comma itself', () => {
  assert.deepEqual(syntax('{"a":1,}'), [{ code: 'syntax/trailing-comma', offset: 6, length: 1 }]);
  assert.deepEqual(syntax('[1,\n]'), [{ code: 'syntax/trailing-comma', offset: 2, length: 1 }]);
});

test('comments are syntax errors', () => {
  assert.deepEqual(syntax('// x\n{}'), [{ code: 'syntax/comment', offset: 0, length: 4 }]);
});

test('a lost quote gives one problem, not a cascade', () => {
  assert.equal(syntax('{"a":"abc, "b": 1, "c": [}').length, 1);
});

test('an empty document is reported once', () => {
  assert.deepEqual(syntax('  \n'), [{ code: 'syntax/empty-document', offset: 0, length: 0 }]);
});

test('locate: value, key, and a missing property points at the parent key', () => {
  const text = '{"where": {"and": [{"key": "x"}]}}';
  const doc = parseDocument(text);
  const v = doc.locate(['where', 'and', 0, 'key']);
  assert.equal(text.substr(v.offset, v.length), '"x"');
  const k = doc.locate(['where', 'and', 0, 'key'], 'key');
  assert.equal(text.substr(k.offset, k.length), '"key"');
  const missing = doc.locate(['where', 'and', 0, 'operator']);
  assert.equal(text.substr(missing.offset, missing.length), '{');
  const missing2 = doc.locate(['where', 'nope']);
  assert.equal(text.substr(missing2.offset, missing2.length), '"where"');
});

test('locationAt: an array item after an empty object is not a property key (jsonc-parser leaves the flag set), windowed or not', () => {
  for (const text of ['[{}, "x"]', '[{}, 1]', '{"a": [{}, "x"]}']) {
    const offset = text.lastIndexOf('x') >= 0 ? text.lastIndexOf('x') : text.lastIndexOf('1');
    for (const windowFrom of [0, Infinity]) {
      const loc = parseDocument(text, { windowFrom }).locationAt(offset);
      assert.equal(loc.isAtPropertyKey, false, `${text} (windowFrom ${windowFrom})`);
    }
  }
  // A key is still a key, after an empty object too.
  const text = '[{}, {"ab": 1}]';
  assert.equal(parseDocument(text).locationAt(text.indexOf('ab') + 1).isAtPropertyKey, true);
});

test('a leading byte order mark is not a syntax error: it reads as whitespace and offsets stay those of the text', () => {
  // The CLI strips a UTF-8 BOM before checking; an LSP client that sends one (VS Code does not) got "Unexpected character".
  const text = '\uFEFF{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}';
  const doc = parseDocument(text);
  assert.deepEqual(doc.syntax, []);
  assert.deepEqual(doc.value, { where: { key: 'ClientCountyr', operator: 'eq', value: 'ca' } });
  const problems = validateText(text, 'logpush-filter');
  assert.deepEqual(problems.map((p) => p.code), ['logpush/unknown-field']);
  assert.equal(text.slice(problems[0].offset, problems[0].offset + problems[0].length), '"ClientCountyr"');
  assert.equal(doc.locationAt(text.indexOf('ClientCountyr')).path.join('.'), 'where.key');
  // "Copy as job filter string" reads the same text.
  assert.equal(filterToJobString(text), '{"where":{"key":"ClientCountyr","operator":"eq","value":"ca"}}');
});

test('a trailing comma comes with a quick fix that removes it, in a file and inside a job\'s filter string', () => {
  const text = '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca",\n}}';
  const p = validateText(text, 'logpush-filter').find((x) => x.code === 'syntax/trailing-comma')!;
  assert.equal(p.fixes?.length, 1);
  const fixed = applyEdit(text, p.fixes![0].edits[0]);
  assert.deepEqual(JSON.parse(fixed), { where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } });
  assert.deepEqual(validateText(fixed, 'logpush-filter'), []);
  const job = JSON.stringify({ name: 'x', dataset: 'http_requests', destination_conf: 's3://b/l?region=us-east-1', filter: '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca",}}' });
  const q = validateText(job, 'logpush-job').find((x) => x.code === 'syntax/trailing-comma')!;
  const jobFixed = applyEdit(job, q.fixes![0].edits[0]);
  assert.deepEqual(validateText(jobFixed, 'logpush-job'), []);
});

function applyEdit(text: string, e: { offset: number; length: number; newText: string }): string {
  return text.slice(0, e.offset) + e.newText + text.slice(e.offset + e.length);
}
