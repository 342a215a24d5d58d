// Mutation sample, third pass (mt3; docs/architecture.md): what the Logpush checks of the last two days did that no test held. Each
// test here failed on a mutant of filter.ts or job.ts that the module's own tests let through, and passes on the code as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixAll } from '../../../server/src/core/fixAll';
import type { Problem } from '../../../server/src/core/types';
import { applyEdits, check, cmp, filterText, jobText, only } from '../logpush/helpers';

const LIMITS = ['logpush/operator-limit', 'logpush/operator-limit-near'];
const limitOf = (problems: Problem[]): Problem | undefined => problems.find((p) => LIMITS.includes(p.code));
const titles = (p: Problem | undefined): string[] => (p?.fixes ?? []).map((f) => f.title);
/** Comparisons of another field that bring a filter near the 30-operator limit. */
const padding = (n: number) => Array.from({ length: n }, (_, i) => cmp('BotScore', 'lt', i));

test('a filter string that writing compactly would not shorten gets no compact fix (a "\\u0000" escape is written back as it is)', () => {
  // Compact already, with a "\u" escape (which makes the fix look again): the rewrite is the same length, so no fix that changes nothing
  const sent = JSON.stringify({ where: { or: Array.from({ length: 14 }, (_, i) => cmp('ClientRequestHost', 'eq', `host-${i}-\u0000-example.com.padding`)) } });
  assert.ok(sent.includes('\\u0000'), sent.slice(0, 80));
  const size = only(check(jobText({ filter: sent }), 'logpush-job'), 'logpush/size-limit');
  assert.deepEqual(titles(size), []);
});

test('no merge fix while the filter has a syntax error: the merges need the places of a clean document', () => {
  const over = { or: [...['us', 'ca', 'de'].map((c) => cmp('ClientCountry', 'eq', c)), ...padding(30)] };
  const clean = filterText(over);
  assert.deepEqual(titles(limitOf(check(clean))), ['Merge the 3 "eq" comparisons of ClientCountry into one "in"']);
  const broken = clean.replace(/\n\s*\]\n\s*\}\n\}$/, ',\n]}}'); // a trailing comma after the last comparison
  const problems = check(broken);
  assert.ok(problems.some((p) => p.code === 'syntax/trailing-comma'), JSON.stringify(problems.map((p) => p.code)));
  assert.equal(limitOf(problems)?.code, 'logpush/operator-limit');
  assert.deepEqual(titles(limitOf(problems)), []);
});

test('a comparison whose value the field does not take stays out of the merge (5 on a String field has its own problem)', () => {
  const where = { or: [cmp('ClientRequestHost', 'eq', 'a'), cmp('ClientRequestHost', 'eq', 5), cmp('ClientRequestHost', 'eq', 'b'), ...padding(27)] };
  const text = filterText(where);
  const p = limitOf(check(text));
  assert.deepEqual(titles(p), ['Merge the 2 "eq" comparisons of ClientRequestHost into one "in"']);
  const merged = JSON.parse(applyEdits(text, p!.fixes![0].edits));
  assert.deepEqual(merged.where.or.slice(0, 2), [cmp('ClientRequestHost', 'in', ['a', 'b']), cmp('ClientRequestHost', 'eq', 5)]);
});

/** A filter document with Int comparisons whose values are written as `raw` (numbers JSON.stringify would not write so). */
function rawInts(raw: string[]): string {
  const where = { or: [...raw.map((_, i) => cmp('ClientRequestBytes', 'eq', `@${i}@`)), ...padding(27)] };
  return raw.reduce((t, r, i) => t.replace(`"@${i}@"`, r), filterText(where));
}

test('an Int value with a fraction or an exponent is merged as its integer up to 2^53 - 1: sixteen digits, and 2^53 - 1 itself', () => {
  for (const [written, integer] of [['1000000000000000.0', '1000000000000000'], ['4.5e15', '4500000000000000'], ['9007199254740991e0', '9007199254740991'], ['9007199254740991.0', '9007199254740991']]) {
    const text = rawInts([written, '2']);
    const p = limitOf(check(text));
    assert.deepEqual(titles(p), ['Merge the 2 "eq" comparisons of ClientRequestBytes into one "in"'], written);
    assert.match(applyEdits(text, p!.fixes![0].edits), new RegExp(`"value": \\[${integer}, 2\\]`), written);
  }
  // 2^53 is past it (the double the comparison read and the integer may differ): that comparison stays out
  assert.deepEqual(titles(limitOf(check(rawInts(['9007199254740992e0', '2', '3'])))), ['Merge the 2 "eq" comparisons of ClientRequestBytes into one "in"']);
});

test('a near name of an unknown field that another dataset has is not preferred, so Fix all leaves it (the dataset may be the mistake)', () => {
  // ClientIPCountry is no http_requests field, and another dataset's; ClientCountry is near
  const text = filterText(cmp('ClientIPCountry', 'eq', 'us'));
  const p = only(check(text), 'logpush/unknown-field');
  assert.match(p.message, /it is a field of /);
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [['Change to "ClientCountry"', undefined]]);
  assert.equal(fixAll(text, 'logpush-filter').text, text);
});

test('a field list\'s removal fix comes after the near names, and names the scope only where the dataset\'s fields differ by scope', () => {
  const text = jobText({ output_options: { field_names: ['ClientIPCountry', 'RayID', 'QueryName'] } });
  const problems = check(text, 'logpush-job');
  const country = problems.find((p) => p.code === 'logpush/unknown-field' && p.message.includes('ClientIPCountry'));
  assert.deepEqual(titles(country), ['Change to "ClientCountry"', 'Remove the 2 fields that http_requests jobs do not have']);
  // http_requests is a zone dataset: a zone's check says "http_requests jobs", as without a scope
  const zone = check(text, 'logpush-job', { logpushScope: 'zone' }).find((p) => p.code === 'logpush/unknown-field' && p.message.includes('QueryName'));
  assert.deepEqual(titles(zone), ['Remove the 2 fields that http_requests jobs do not have']);
});
