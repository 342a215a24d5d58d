// The rules evaluator on integers past 2^53: a request line's integer there is a bigint of its digits (readNdjson, parseExact) and an
// expression's literal there is exact (IntNode.big), so every comparison of two integers goes by value, whichever of the two is a
// bigint (docs/architecture.md, "Log lines past 2^53"). has_value() compared with ===, so a bigint element never equalled a literal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression, type RequestRecord } from '../../../server/src/core/eval/rules';
import { parseExact } from '../../../server/src/core/json';

const matches = (expr: string, record: RequestRecord): boolean => {
  const c = compileExpression(expr);
  assert.ok(c.ok, c.ok ? expr : c.error);
  return c.expression.test(record);
};

test('has_value() on an Array<Integer> finds an element by its value, a bigint or a number, against an exact literal', () => {
  // As readNdjson gives a line: 2^53 + 1 is a bigint of its digits, 5 a number
  const line = parseExact('{"cf.bot_management.detection_ids":[5,9007199254740993,1234567890123456789]}') as RequestRecord;
  assert.equal(typeof (line['cf.bot_management.detection_ids'] as unknown[])[1], 'bigint');
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 9007199254740993)', line), true);
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 1234567890123456789)', line), true);
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 5)', line), true);
  // 2^53 is not in the line: its double is 2^53 + 1's too, so only an exact needle tells them apart
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 9007199254740992)', line), false);
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 1234567890123456788)', line), false);
  // A bigint element of a value a double holds exactly, and a number element against a literal past 2^53 of another value
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 7)', { 'cf.bot_management.detection_ids': [7n] }), true);
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 9007199254740993)', { 'cf.bot_management.detection_ids': [2 ** 53] }), false);
  assert.equal(matches('has_value(cf.bot_management.detection_ids, 9007199254740992)', { 'cf.bot_management.detection_ids': [2 ** 53] }), true);
});

test('two integer fields compare by value whichever of them is a bigint (a comparison of two fields)', () => {
  const r: RequestRecord = { 'cf.waf.score': 9007199254740993n, 'cf.bot_management.score': 9007199254740993n, 'cf.waf.score.sqli': 2 ** 53, 'cf.waf.score.xss': 3 };
  assert.equal(matches('cf.waf.score eq cf.bot_management.score', r), true);
  assert.equal(matches('cf.waf.score ne cf.bot_management.score', r), false);
  assert.equal(matches('cf.waf.score gt cf.waf.score.sqli', r), true, 'a bigint past a number');
  assert.equal(matches('cf.waf.score.sqli lt cf.waf.score', r), true);
  assert.equal(matches('cf.waf.score.sqli ge cf.waf.score', r), false);
  assert.equal(matches('cf.waf.score.xss lt cf.waf.score', r), true);
  assert.equal(matches('cf.waf.score eq cf.waf.score.sqli', r), false);
});

test('lookup_json_integer() reads an integer past 2^53 exactly, as the platform\'s 64-bit integers hold it', () => {
  const r: RequestRecord = { 'http.request.body.raw': '{"id":1234567890123456789,"n":[1,9007199254740993]}' };
  assert.equal(matches('lookup_json_integer(http.request.body.raw, "id") eq 1234567890123456789', r), true);
  assert.equal(matches('lookup_json_integer(http.request.body.raw, "id") eq 1234567890123456788', r), false);
  assert.equal(matches('lookup_json_integer(http.request.body.raw, "n", 1) eq 9007199254740993', r), true);
  assert.equal(matches('lookup_json_integer(http.request.body.raw, "n", 1) eq 9007199254740992', r), false);
});
