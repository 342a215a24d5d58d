// Over (or near) the 30-operator limit, the "eq" comparisons of one field inside one "or" (the "!eq" inside an "and") are offered
// merged into one "in" ("!in"): the fix's filter selects the same log lines, held here by the filter evaluator (Test Filter's) on
// generated filters and lines, in a filter document and in a job's filter string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../server/src/core/prng';
import { compileFilter, type LogRecord } from '../../../server/src/core/eval/filter';
import { parseExact } from '../../../server/src/core/json';
import { fixAll } from '../../../server/src/core/fixAll';
import { filterUsage } from '../../../server/src/core/rules/logpush';
import type { Problem } from '../../../server/src/core/types';
import { applyEdits, check, cmp, filterText, jobText } from './helpers';

const LIMITS = ['logpush/operator-limit', 'logpush/operator-limit-near'];
const limitOf = (problems: Problem[]): Problem | undefined => problems.find((p) => LIMITS.includes(p.code));
const titles = (p: Problem | undefined): string[] => (p?.fixes ?? []).map((f) => f.title);
const paths = (n: number) => Array.from({ length: n }, (_, i) => cmp('ClientRequestPath', '!eq', `/p${i}`));

test('over the limit: one fix per group, the largest saving first, values as written and Int values as numbers', () => {
  const where = { and: [
    { or: [cmp('ClientCountry', 'eq', 'us'), cmp('EdgeResponseStatus', 'eq', '404'), cmp('ClientCountry', 'eq', 'ca'), cmp('ClientRequestHost', 'eq', 'a.example'),
      cmp('EdgeResponseStatus', 'eq', 500), cmp('ClientCountry', 'eq', 'de')] },
    ...paths(25),
  ] };
  const text = filterText(where);
  const p = limitOf(check(text));
  assert.equal(p?.code, 'logpush/operator-limit');
  assert.deepEqual(titles(p), [
    'Merge the 25 "!eq" comparisons of ClientRequestPath into one "!in"',
    'Merge the 3 "eq" comparisons of ClientCountry into one "in"',
    'Merge the 2 "eq" comparisons of EdgeResponseStatus into one "in"',
  ]);
  assert.ok(p!.fixes!.every((f) => !f.preferred));
  const merged = (i: number): unknown => JSON.parse(applyEdits(text, p!.fixes![i].edits));
  assert.deepEqual(merged(1), { where: { and: [
    { or: [cmp('ClientCountry', 'in', ['us', 'ca', 'de']), cmp('EdgeResponseStatus', 'eq', '404'), cmp('ClientRequestHost', 'eq', 'a.example'), cmp('EdgeResponseStatus', 'eq', 500)] },
    ...paths(25),
  ] } });
  // "404" of an Int field is a number in the set, as the spec writes in / !in arrays; the comparison keeps its place (the first's)
  assert.deepEqual(merged(2), { where: { and: [
    { or: [cmp('ClientCountry', 'eq', 'us'), cmp('EdgeResponseStatus', 'in', [404, 500]), cmp('ClientCountry', 'eq', 'ca'), cmp('ClientRequestHost', 'eq', 'a.example'), cmp('ClientCountry', 'eq', 'de')] },
    ...paths(25),
  ] } });
  const fixed = applyEdits(text, p!.fixes![0].edits);
  assert.deepEqual(JSON.parse(fixed).where.and.slice(1), [cmp('ClientRequestPath', '!in', paths(25).map((c) => c.value))]);
  assert.deepEqual(check(fixed), []); // 7 operators
  // The written set is laid out as the first comparison was: inline in a pretty document
  assert.match(fixed, /"value": \["\/p0", "\/p1", /);
});

test('in a job\'s filter string the merge is written inside the string, escaped, compact like the string', () => {
  const where = { or: [...['us', 'ca'].map((c) => cmp('ClientCountry', 'eq', c)), cmp('ClientRequestHost', 'eq', 'say "hi"'), cmp('ClientRequestHost', 'eq', 'x\\y'),
    ...Array.from({ length: 23 }, (_, i) => cmp('BotScore', 'lt', i))] };
  const text = jobText({ filter: JSON.stringify({ where }) });
  const p = limitOf(check(text, 'logpush-job'));
  assert.equal(p?.code, 'logpush/operator-limit-near'); // 27 of 30
  assert.deepEqual(titles(p), ['Merge the 2 "eq" comparisons of ClientCountry into one "in"', 'Merge the 2 "eq" comparisons of ClientRequestHost into one "in"']);
  const fixed = applyEdits(text, p!.fixes![1].edits);
  const filter = JSON.parse(fixed).filter as string;
  assert.ok(filter.includes('{"key":"ClientRequestHost","operator":"in","value":["say \\"hi\\"","x\\\\y"]}'), filter);
  assert.deepEqual(JSON.parse(filter).where.or.slice(0, 3), [...['us', 'ca'].map((c) => cmp('ClientCountry', 'eq', c)), cmp('ClientRequestHost', 'in', ['say "hi"', 'x\\y'])]);
  // 26 operators: under the warning; the string is still over its 1000 bytes
  assert.deepEqual(check(fixed, 'logpush-job').map((x) => x.code), ['logpush/size-limit']);
});

/** A number as the text writes it ("§404.0§" in a value becomes 404.0 in the text, which JSON.stringify would write 404). */
const N = (written: string): string => `§${written}§`;
const raw = (text: string): string => text.replace(/"§([^§"]*)§"/g, '$1');

test('an "in" of the same field in the group is folded into the merge, its values joined once each, and counted in the saving', () => {
  // The "in" stayed beside the new set: two operators where one does.
  const where = { and: [
    { or: [cmp('ClientCountry', 'eq', 'us'), cmp('ClientCountry', 'in', ['ca', 'us']), cmp('EdgeResponseStatus', 'in', [500, 404]), cmp('ClientCountry', 'eq', 'de'),
      cmp('EdgeResponseStatus', 'eq', '404'), cmp('ClientCountry', 'in', ['fr'])] },
    { and: [cmp('ClientRequestPath', '!in', ['/a', '/b']), cmp('ClientRequestPath', '!eq', '/c'), cmp('ClientRequestPath', '!in', ['/b'])] },
    ...Array.from({ length: 22 }, (_, i) => cmp('BotScore', 'gt', i)),
  ] };
  const text = filterText(where);
  const p = limitOf(check(text));
  assert.equal(p?.code, 'logpush/operator-limit'); // 31 comparisons (the and/or groups are not counted)
  assert.deepEqual(titles(p), [
    'Merge the 2 "eq" comparisons and the 2 "in" comparisons of ClientCountry into one "in"',
    'Merge the "!eq" comparison and the 2 "!in" comparisons of ClientRequestPath into one "!in"',
    'Merge the "eq" comparison and the "in" of EdgeResponseStatus into one "in"',
  ]);
  const merged = (i: number) => JSON.parse(applyEdits(text, p!.fixes![i].edits)).where.and;
  assert.deepEqual(merged(0)[0].or, [cmp('ClientCountry', 'in', ['us', 'ca', 'de', 'fr']), cmp('EdgeResponseStatus', 'in', [500, 404]), cmp('EdgeResponseStatus', 'eq', '404')]);
  assert.deepEqual(merged(1)[1].and, [cmp('ClientRequestPath', '!in', ['/a', '/b', '/c'])]);
  assert.deepEqual(merged(2)[0].or.filter((c: { key: string }) => c.key === 'EdgeResponseStatus'), [cmp('EdgeResponseStatus', 'in', [500, 404])]);
  for (const [i, saving] of [[0, 3], [1, 2], [2, 1]]) {
    assert.equal(filterUsage(JSON.parse(applyEdits(text, p!.fixes![i].edits))).operators, filterUsage({ where }).operators - saving);
  }
});

test('an Int field\'s number with a fraction or an exponent is written in the set as the integer it is, when it is one exactly; else it stays out', () => {
  // "eq 404.0" went into the set as 404.0.
  const where = { and: [
    { or: [cmp('EdgeResponseStatus', 'eq', N('404.0')), cmp('EdgeResponseStatus', 'eq', N('5e2')), cmp('EdgeResponseStatus', 'eq', N('1.0000000000000001')),
      cmp('EdgeResponseStatus', 'in', [N('40.4e1'), 200]), cmp('EdgeResponseStatus', 'eq', N('2e16')), cmp('EdgeResponseStatus', 'in', [N('3.00000000000000001e0')]),
      cmp('EdgeResponseCompressionRatio', 'eq', N('1.50')), cmp('EdgeResponseCompressionRatio', 'eq', N('15e-1')), cmp('EdgeResponseCompressionRatio', 'eq', '2')] },
    ...Array.from({ length: 20 }, (_, i) => cmp('BotScore', 'gt', i)),
  ] };
  const text = raw(filterText(where));
  assert.match(text, /"value": 404\.0/);
  const p = limitOf(check(text));
  assert.deepEqual(titles(p), [
    'Merge the 2 "eq" comparisons and the "in" of EdgeResponseStatus into one "in"',
    'Merge the 3 "eq" comparisons of EdgeResponseCompressionRatio into one "in"',
  ]);
  const fixed = applyEdits(text, p!.fixes![0].edits);
  // 1.0000000000000001 is no integer (its double is), 2e16 is past 2^53, the set's 3.00000000000000001e0 no integer: as they were
  assert.match(fixed, /"value": \[404, 500, 200\]/);
  assert.match(fixed, /"value": 1\.0000000000000001\b/);
  assert.match(fixed, /"value": 2e16\b/);
  assert.match(fixed, /"value": \[\s*3\.00000000000000001e0\s*\]/);
  // A Float field's numbers as written, once each (1.50 and 15e-1 are one number)
  assert.match(applyEdits(text, p!.fixes![1].edits), /"value": \[1\.50, 2\]/);
});

test('no merge under the warning, for a comparison the checker flags, a field without "in", or a group of one', () => {
  // 26 operators: no limit problem, so no fix (an optional rewrite would be a refactor code action, which the server has none of)
  assert.equal(limitOf(check(filterText({ and: paths(26) }))), undefined);
  const where = { and: [
    { or: [cmp('CacheReserveUsed', 'eq', true), cmp('CacheReserveUsed', 'eq', false)] }, // bool: no "in"
    { or: [cmp('EdgeResponseStatus', 'eq', 'abc'), cmp('EdgeResponseStatus', 'eq', 1.5)] }, // values the checker refuses
    { or: [{ ...cmp('ClientCountry', 'eq', 'us'), extra: 1 }, cmp('ClientCountry', 'eq', 'ca')] }, // a member beside the three
    { or: [cmp('ClientCountry', 'eq', 'us'), cmp('ClientCountry', '!eq', 'ca')] }, // "!eq" in an "or": no set says it
    { and: [cmp('ClientCountry', 'eq', 'us'), cmp('ClientCountry', 'eq', 'ca')] }, // "eq" in an "and": neither
    { or: [cmp('ClientCountry', 'eq', 'us')] },
    ...paths(1), cmp('ClientDeviceType', '!eq', 'x'), ...Array.from({ length: 18 }, (_, i) => cmp('BotScore', 'gt', i)),
  ] };
  const p = limitOf(check(filterText(where)));
  assert.equal(p?.code, 'logpush/operator-limit');
  assert.deepEqual(titles(p), []);
});

test('Fix all leaves the comparisons as written (no merge is preferred)', () => {
  const text = filterText({ or: Array.from({ length: 31 }, (_, i) => cmp('ClientCountry', 'eq', `c${i}`)) });
  const r = fixAll(text, 'logpush-filter');
  assert.equal(r.fixed, 0);
  assert.equal(r.text, text);
});

// ---- the merged filter selects the same lines (the filter evaluator, generated filters and lines) ----

/** Values each field's comparisons and lines take: as numbers and as strings for the numeric fields, past 2^53 as digits, and
 * numbers written with a fraction or an exponent (N), an integer's exactly or not. */
const POOLS: Record<string, unknown[]> = {
  ClientCountry: ['us', 'ca', 'de', 'say "hi"', 'x\\y', 'zürich', ''],
  EdgeResponseStatus: [200, '404', ' 500 ', 503, '1700000000000000001', 1e3, N('404.0'), N('5e2'), N('1.0000000000000001'), N('2e16')],
  EdgeResponseCompressionRatio: [0.5, '1.25', 2, '2.0', N('1.50'), N('15e-1')],
  EdgeStartTimestamp: [1700000000, '1700000001', '2026-11-28T00:00:00Z', 'later'],
};
/** The values of their "in" / "!in" sets (a set holds numbers for a numeric field). */
const SET_POOLS: Record<string, unknown[]> = {
  ClientCountry: ['us', 'ca', 'fr', 'say "hi"', ''],
  EdgeResponseStatus: [200, 404, 500, N('40.4e1'), N('3.00000000000000001e0'), N('1700000000000000001')],
  EdgeResponseCompressionRatio: [0.5, 2, N('1.50'), 1.25],
  EdgeStartTimestamp: [1700000000, 'later', '1700000001'],
};
const LINE_EXTRA: Record<string, unknown[]> = {
  ClientCountry: ['fr', 5, null],
  EdgeResponseStatus: [404, '200', 500, '1700000000000000000', 'abc', null, 1000, 1, 3, 20000000000000000],
  EdgeResponseCompressionRatio: [1.25, '0.5', 'x', null],
  EdgeStartTimestamp: ['1700000000', 1700000001, null],
};

function generator(seed: number) {
  const rnd = mulberry32(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  const fields = Object.keys(POOLS);
  const comparison = (group: 'and' | 'or'): unknown => {
    const r = rnd();
    if (r < 0.15) return cmp('BotScore', pick(['lt', 'geq']), int(100));
    if (r < 0.25) return cmp('ClientRequestHost', pick(['endsWith', '!startsWith']), pick(['a', '.example']));
    const key = pick(fields);
    if (r < 0.4) return cmp(key, rnd() < 0.8 ? (group === 'or' ? 'in' : '!in') : (group === 'or' ? '!in' : 'in'), Array.from({ length: 1 + int(3) }, () => pick(SET_POOLS[key])));
    return cmp(key, rnd() < 0.8 ? (group === 'or' ? 'eq' : '!eq') : (group === 'or' ? '!eq' : 'eq'), pick(POOLS[key]));
  };
  const node = (group: 'and' | 'or', depth: number, size: number): unknown => ({
    [group]: Array.from({ length: size }, () => (depth < 2 && rnd() < 0.2 ? node(group === 'and' ? 'or' : 'and', depth + 1, 2 + int(6)) : comparison(group))),
  });
  const filter = (): { where: unknown } => {
    for (;;) {
      const f = { where: node(pick(['and', 'or'] as const), 0, 12 + int(18)) };
      if (filterUsage(f).operators >= 27) return f;
    }
  };
  const line = (): LogRecord => {
    const r: LogRecord = { BotScore: int(100), ClientRequestHost: pick(['a.example', 'b.a', 'x']) };
    for (const k of fields) if (rnd() < 0.9) r[k] = pick([...POOLS[k], ...LINE_EXTRA[k]]);
    return r;
  };
  return { filter, line };
}

test('every merge of generated filters selects the same generated lines, in a filter document and in a job\'s filter string', () => {
  const g = generator(15);
  const lines = Array.from({ length: 400 }, g.line);
  const selected = (filterJson: string): boolean[] => {
    const c = compileFilter(parseExact(filterJson), 'http_requests');
    assert.ok(c.ok, c.ok ? '' : c.error);
    return lines.map((l) => c.filter.test(l));
  };
  let merges = 0, folded = 0, exact = 0;
  for (let n = 0; n < 40; n++) {
    const f = g.filter();
    const want = selected(raw(JSON.stringify(f)));
    const doc = raw(filterText(f.where));
    const job = jobText({ filter: raw(JSON.stringify(f)) });
    const docFixes = limitOf(check(doc))?.fixes ?? [];
    const jobFixes = limitOf(check(job, 'logpush-job'))?.fixes ?? [];
    assert.deepEqual(jobFixes.map((x) => x.title), docFixes.map((x) => x.title));
    for (const [i, fix] of docFixes.entries()) {
      // "Merge the 2 "eq" comparisons and the "in" of …": the comparisons merged, less the one left
      const saving = [...fix.title.matchAll(/the (?:(\d+) )?"/g)].reduce((n, m) => n + Number(m[1] ?? 1), 0) - 1;
      const fixedDoc = applyEdits(doc, fix.edits);
      const fixedJobFilter = JSON.parse(applyEdits(job, jobFixes[i].edits)).filter as string;
      for (const text of [fixedDoc, fixedJobFilter]) {
        assert.deepEqual(selected(text), want, `${fix.title} in ${text}`);
        assert.equal(filterUsage(JSON.parse(text)).operators, filterUsage(f).operators - saving);
      }
      if (/ and the /.test(fix.title)) folded++;
      // An Int field's 404.0, 5e2 and 40.4e1 merged are written as integers; 1.0000000000000001, 2e16 and 3.00000000000000001e0 never
      const times = (s: string, w: string) => s.split(w).length - 1;
      if (['404.0', '5e2', '40.4e1'].some((w) => times(fixedDoc, w) < times(doc, w))) exact++;
      for (const w of ['1.0000000000000001', '2e16', '3.00000000000000001e0']) assert.equal(times(fixedDoc, w), times(doc, w), `${w}: ${fix.title}`);
      // The merge brings no problem of its own: what is left is the limits' (or nothing)
      assert.deepEqual(check(fixedDoc).filter((p) => !p.code.startsWith('logpush/operator-limit') && !p.code.startsWith('logpush/size-limit')), []);
      merges++;
    }
  }
  assert.ok(merges >= 40 && folded >= 10, `${merges} merges, ${folded} with an "in" folded in`);
  assert.ok(exact >= 10, `${exact} merges wrote a number with a fraction or an exponent as its integer`);
});

test('the generated lines are both kept and dropped by the generated filters (the proof is not vacuous)', () => {
  const g = generator(15);
  const lines = Array.from({ length: 400 }, g.line);
  let kept = 0, dropped = 0;
  for (let n = 0; n < 40; n++) {
    const c = compileFilter(parseExact(raw(JSON.stringify(g.filter()))), 'http_requests');
    assert.ok(c.ok);
    for (const l of lines) if (c.filter.test(l)) kept++; else dropped++;
  }
  assert.ok(kept > 1000 && dropped > 1000, `${kept} kept, ${dropped} dropped`);
});
