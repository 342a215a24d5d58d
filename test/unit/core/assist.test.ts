import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { complete } from '../../../server/src/core/assist';

test('operator completion offers only what the field type allows (schema enum values do not leak back in)', () => {
  const text = '{"where":{"and":[{"key":"BotScore","operator":"lt","value":30},{"key":"ClientCountry","operator":"eq","value":"ca"}]}}';
  const labels = (at: number) => complete('logpush-filter', parseDocument(text), at).map((e) => e.label.replace(/^"(.*)"$/, '$1'));
  const intOps = labels(text.indexOf('"lt"') + 2);
  assert.ok(intOps.includes('gt') && !intOps.includes('startsWith') && !intOps.includes('contains'), intOps.join());
  assert.equal(new Set(intOps).size, intOps.length, 'no duplicates');
  const strOps = labels(text.indexOf('"eq"') + 2);
  assert.ok(strOps.includes('startsWith') && !strOps.includes('lt'), strOps.join());
});

test('schema-driven property completion still works next to a kind\'s own entries', () => {
  const text = '{\n  \n}';
  const labels = complete('jsonrpc-request', parseDocument(text), 4).map((e) => e.label);
  for (const k of ['jsonrpc', 'method', 'params', 'id']) assert.ok(labels.includes(k), labels.join());
});
