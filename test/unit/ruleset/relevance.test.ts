// ux14: completion in an empty expression opened on ~200 fields and functions in label order (all, any, cf.api_gateway.*...), the
// http.* fields a newcomer looks for far down (ui13's walk). The order is now how often Cloudflare's own rule examples use each name
// (data/rules-language/docs_expressions.tsv, counted by scripts/genExpressionCounts.ts); after and/or, how often each comes there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS, type CompletionEntry } from '../../../server/src/core/types';
import { rulesetPlugin } from '../../../server/src/core/rules/ruleset';
import { COUNTS_MODULE, COUNTS_TSV, EXPRESSIONS_TSV, countExpressions, countsModule, countsTsv, readExpressions } from '../../../scripts/genExpressionCounts';

const body = (expression: string, phase = 'http_request_firewall_custom') =>
  JSON.stringify({ name: 'x', kind: 'zone', phase, rules: [{ action: 'block', expression }] });
/** The entries at the end of the expression, in the order an editor shows them (sortText, then label). */
function ordered(expression: string, phase?: string): CompletionEntry[] {
  const text = body(expression, phase);
  const items = rulesetPlugin.complete!(parseDocument(text), text.indexOf('"}]}'), DEFAULT_OPTIONS);
  const key = (e: CompletionEntry) => e.sortText ?? e.label;
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.label < b.label ? -1 : 1));
}

test('the counts and their module are what the script makes of the transcribed expressions', () => {
  const expressions = readExpressions(fs.readFileSync(EXPRESSIONS_TSV, 'utf8'));
  assert.ok(expressions.length >= 100, `${expressions.length} expressions`);
  const counts = countExpressions(expressions);
  assert.equal(fs.readFileSync(COUNTS_TSV, 'utf8'), countsTsv(counts));
  assert.equal(fs.readFileSync(COUNTS_MODULE, 'utf8'), countsModule(counts, expressions.length));
  // Counted with the checker's lexer: a function by its call, `not` and `!` as one, a field by its name
  assert.deepEqual(countExpressions(['not starts_with(http.host, "a") and !ssl or lower(http.host) eq "b"']).map((c) => [c.name, c.uses, c.afterAndOr]),
    [['http.host', 2, 0], ['not', 2, 1], ['lower', 1, 1], ['ssl', 1, 0], ['starts_with', 1, 0]]);
  assert.throws(() => readExpressions('name\tx\n'), /header/);
});

test('an empty expression offers the examples\' most used names first, every entry kept, the unused ones alphabetical', () => {
  const items = ordered('');
  const labels = items.map((e) => e.label);
  assert.deepEqual(labels.slice(0, 6), ['http.request.uri.path', 'http.host', 'not', 'cf.bot_management.score', 'http.request.method', 'ip.src.country'],
    labels.slice(0, 10).join());
  // ip.src.country takes the uses of its deprecated alias ip.geoip.country (8 + 5), which completion does not offer
  assert.ok(!labels.includes('ip.geoip.country'));
  assert.ok(items.every((e) => e.sortText !== undefined), 'each entry ordered');
  // The same entries as before, in another order: the fields the phase offers, the functions it takes, "not"
  const plain = rulesetPlugin.complete!(parseDocument(body('')), body('').indexOf('"}]}'), DEFAULT_OPTIONS);
  assert.equal(items.length, plain.length);
  assert.ok(items.length > 150);
  const unused = labels.slice(labels.indexOf('all'));
  assert.deepEqual(unused, [...unused].sort(), 'names no example uses come last, alphabetical');
  assert.ok(labels.indexOf('all') > labels.indexOf('url_decode'), 'used ones before');
});

test('after and/or, the names the examples write there come first; after "(" or "not" the overall order', () => {
  const afterAnd = ordered('http.host eq "a" and ').map((e) => e.label);
  assert.deepEqual(afterAnd.slice(0, 3), ['http.request.method', 'not', 'http.request.uri.path'], afterAnd.slice(0, 8).join());
  assert.deepEqual(ordered('ssl or ').map((e) => e.label).slice(0, 3), afterAnd.slice(0, 3));
  assert.deepEqual(ordered('(').map((e) => e.label).slice(0, 3), ['http.request.uri.path', 'http.host', 'not']);
  // A rate limit characteristic's own names stay first (cf.colo.id is no field), then the order of use
  const text = JSON.stringify({ name: 'r', kind: 'zone', phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', ''], period: 60, requests_per_period: 10 } }] });
  const at = text.indexOf('""') + 1;
  const items = rulesetPlugin.complete!(parseDocument(text), at, DEFAULT_OPTIONS);
  const key = (e: CompletionEntry) => e.sortText ?? e.label;
  const first = [...items].sort((a, b) => (key(a) < key(b) ? -1 : 1))[0];
  assert.equal(first.kind, 'constant', `${first.label}`);
});

// rv24: inside a function call the overall order put `not` third and cf.bot_management.score (an Integer) fourth as the argument of
// starts_with(String, String), where neither fits: the names whose type the parameter takes come first, each part in the order of
// use; every entry stays.
test('inside a function call, the names the parameter\'s type takes come first, in the order of use', () => {
  const all = ordered('').map((e) => e.label);
  for (const expression of ['starts_with(', 'starts_with(http.host, ', 'not starts_with(lower(', 'http.host eq "a" and ends_with(']) {
    const items = ordered(expression);
    const labels = items.map((e) => e.label);
    assert.deepEqual([...labels].sort(), [...all].sort(), `${expression}: every entry kept`);
    assert.deepEqual(labels.slice(0, 3), ['http.request.uri.path', 'http.host', 'http.request.method'], `${expression}: ${labels.slice(0, 6).join()}`);
    const firstMisfit = items.findIndex((e) => e.label === 'not' || (e.kind === 'field' && !/^(String|Bytes)$/.test(e.detail ?? '')));
    const lastFit = items.map((e) => e.kind === 'field' && /^(String|Bytes)$/.test(e.detail ?? '')).lastIndexOf(true);
    assert.ok(lastFit < firstMisfit, `${expression}: ${labels[firstMisfit]} at ${firstMisfit} before a string field at ${lastFit}`);
  }
  // A parameter that takes a boolean (to_string's integer, boolean or IP): `not` among the fitting ones
  const toString = ordered('to_string(').map((e) => e.label);
  assert.ok(toString.indexOf('not') < toString.indexOf('http.request.uri.path'), toString.slice(0, 6).join());
  // Outside a call (after its closing parenthesis and an operator) the overall order again
  assert.deepEqual(ordered('starts_with(http.host, "a") or (').map((e) => e.label).slice(0, 3), ['http.request.uri.path', 'http.host', 'not']);
});

// rl10 left: on a comparison's right side the names that fit the left side's type came in label order (cf.bot_management.ja3_hash,
// cf.bot_management.ja4, ... for a header's value), and at the top of a header value the overall order put an Integer
// (cf.bot_management.score) third and a Boolean function (starts_with) sixth. Both now rank by the type the place takes, as inside a call.
test('a comparison\'s right side and a header value rank the names by the type the place takes, then by use', () => {
  for (const expression of ['http.request.headers["x"][0] == ', 'http.host eq ', 'lower(http.user_agent) ne ']) {
    const labels = ordered(expression).map((e) => e.label);
    assert.deepEqual(labels.slice(0, 3), ['http.request.uri.path', 'http.host', 'http.request.method'], `${expression}: ${labels.slice(0, 6).join()}`);
  }
  assert.equal(ordered('ip.src.asnum eq ')[0].label, 'cf.bot_management.score');
  // A function whose result is its first argument's type, where that argument cannot be of the left side's: concat gives no Integer
  assert.ok(!ordered('ip.src.asnum eq ').some((e) => e.label === 'concat'));
  assert.ok(ordered('http.host eq ').some((e) => e.label === 'concat'));
  const at = (rule: Record<string, unknown>, phase: string) => {
    const text = JSON.stringify({ name: 'r', kind: 'zone', phase, rules: [{ action: 'block', expression: 'true', ...rule }] });
    const items = rulesetPlugin.complete!(parseDocument(text), text.indexOf('MARK'), DEFAULT_OPTIONS);
    const key = (e: CompletionEntry) => e.sortText ?? e.label;
    return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.label < b.label ? -1 : 1));
  };
  const header = (value: string) => at({ action: 'rewrite', action_parameters: { headers: { 'x-a': { operation: 'set', expression: `${value}MARK` } } } }, 'http_request_late_transform');
  const top = header('');
  const labels = top.map((e) => e.label);
  assert.deepEqual(labels.slice(0, 3), ['http.request.uri.path', 'http.host', 'http.request.method'], labels.slice(0, 6).join());
  // Every String field and the IP (a header takes it as it is) before any Integer or Boolean name; every entry stays
  const fitting = (e: CompletionEntry) => e.kind === 'field' ? /^(String|Bytes|IP)$/.test(e.detail ?? '') : !/\): Boolean$|\): Integer$/.test(e.detail ?? '');
  const firstMisfit = top.findIndex((e) => !fitting(e));
  assert.ok(top.slice(firstMisfit).every((e) => !(e.kind === 'field' && /^(String|IP)$/.test(e.detail ?? ''))), `${labels[firstMisfit]} at ${firstMisfit}`);
  assert.ok(labels.indexOf('ip.src') < labels.indexOf('cf.bot_management.score') && labels.indexOf('ip.src') < labels.indexOf('starts_with'));
  assert.deepEqual([...labels].sort(), [...header('').map((e) => e.label)].sort());
  // Inside a call there, the call's parameter decides, as before
  assert.ok(header('to_string(').map((e) => e.label).indexOf('cf.bot_management.score') < header('to_string(').map((e) => e.label).indexOf('http.host'));
});

// rv24 left: after `not ` completion still offered `not` (third), and a rate limit characteristic offered `not` as its fields. The
// grammar: `not not x` is valid but x (idle); a value expression (a characteristic, a header value) is one value, a field or a call
// with its index (wirefilter's SingleValueExprAst), where `not` would begin a condition; a call's argument may be a condition.
test('`not` is offered where a condition starts and it does something: not after `not` or `!`, not at the top of a value expression', () => {
  const all = ordered('').map((e) => e.label);
  for (const expression of ['not ', '!', 'http.host eq "a" and not ', 'not not ', '(not ']) {
    const labels = ordered(expression).map((e) => e.label);
    assert.ok(!labels.includes('not'), `${expression}: ${labels.slice(0, 5).join()}`);
    assert.deepEqual([...labels].sort(), all.filter((l) => l !== 'not').sort(), `${expression}: the other entries kept`);
    assert.deepEqual(labels.slice(0, 3), ['http.request.uri.path', 'http.host', 'cf.bot_management.score'], expression);
  }
  // A new condition after `not (` or `not a and `
  for (const expression of ['not (', 'not ssl and ']) assert.ok(ordered(expression).some((e) => e.label === 'not'), expression);
  const at = (rule: Record<string, unknown>, phase: string) => {
    const text = JSON.stringify({ name: 'r', kind: 'zone', phase, rules: [{ action: 'block', expression: 'true', ...rule }] });
    return rulesetPlugin.complete!(parseDocument(text), text.indexOf('MARK'), DEFAULT_OPTIONS).map((e) => e.label);
  };
  // A rate limit characteristic: its names, the fields and the functions the page names (lower, substring, lookup_json_string)
  const characteristic = at({ ratelimit: { characteristics: ['cf.colo.id', 'MARK'], period: 60, requests_per_period: 10 } }, 'http_ratelimit');
  assert.ok(!characteristic.includes('not'), characteristic.slice(0, 5).join());
  for (const name of ['cf.colo.id', 'ip.src', 'lower', 'substring', 'lookup_json_string']) assert.ok(characteristic.includes(name), name);
  // A header value likewise; inside a call there an argument may be a condition (to_string takes a Boolean)
  const header = (value: string) => at({ action: 'rewrite', action_parameters: { headers: { 'x-a': { operation: 'set', expression: `${value}MARK` } } } }, 'http_request_late_transform');
  assert.ok(!header('').includes('not'));
  assert.ok(header('to_string(').includes('not'));
});
