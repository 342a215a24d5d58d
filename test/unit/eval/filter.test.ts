// The Logpush filter evaluator: a golden table of every operator on every field type of the spec's matrix (with numbers written as
// strings, missing fields and null), nested and/or with per-branch counts, and 100 000 generated records and filters on which the
// compiled evaluator gives the verdict of a naive interpreter written here, independently of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../server/src/core/prng';
import { compileFilter, TextFieldValues, type LogRecord } from '../../../server/src/core/eval/filter';
import { withExactIntegers } from '../../../server/src/core/json';

// One http_requests field of each class of the matrix (string, int, bool, array), their types checked against the catalogue below.
import { datasetFields } from '../../../server/src/core/rules/logpush/catalogue';

const fields = new Map((datasetFields('http_requests') ?? []).map((f) => [f.name, f.type]));
const STRING = 'ClientCountry';
const INT = 'EdgeResponseStatus';
const BOOL = [...fields].find(([, t]) => t === 'bool')![0];
// An array of strings: the table's values are text (on an array[int] field the checker refuses them, and they compare as numbers).
const ARRAY = [...fields].find(([, t]) => t === 'array[string]')![0];

test('the fields the table uses have the types it assumes', () => {
  assert.equal(fields.get(STRING), 'string');
  assert.equal(fields.get(INT), 'int');
  assert.equal(fields.get(BOOL), 'bool');
  assert.match(String(fields.get(ARRAY)), /^array\[/);
});

const run = (key: string, operator: string, value: unknown, record: LogRecord): boolean => {
  const c = compileFilter({ where: { key, operator, value } }, 'http_requests');
  if (!c.ok) throw new Error(c.error);
  return c.filter.test(record);
};

// [key, operator, value, record value, expected]; `undefined` as the record value: the field is missing.
const TABLE: [string, string, unknown, unknown, boolean][] = [
  [STRING, 'eq', 'ca', 'ca', true], [STRING, 'eq', 'ca', 'CA', false], [STRING, 'eq', 'ca', undefined, false], [STRING, 'eq', 'ca', null, false],
  [STRING, '!eq', 'ca', 'us', true], [STRING, '!eq', 'ca', 'ca', false], [STRING, '!eq', 'ca', undefined, true], [STRING, '!eq', 'ca', null, true],
  [INT, 'eq', '403', 403, true], [INT, 'eq', '403', '403', true], [INT, 'eq', 403, 403, true], [INT, 'eq', '403', 404, false], [INT, 'eq', '403', 'x', false],
  [INT, '!eq', '403', 200, true], [INT, '!eq', '403', 403, false],
  [BOOL, 'eq', 'true', true, true], [BOOL, 'eq', true, true, true], [BOOL, 'eq', 'true', false, false], [BOOL, '!eq', 'true', false, true],
  [INT, 'lt', '400', 399, true], [INT, 'lt', '400', 400, false], [INT, 'leq', '400', 400, true], [INT, 'gt', '400', 401, true],
  [INT, 'gt', '400', 400, false], [INT, 'geq', '400', 400, true], [INT, 'geq', '400', '500', true], [INT, 'lt', '400', undefined, false],
  [INT, 'lt', '400', 'abc', false],
  [STRING, 'startsWith', 'c', 'ca', true], [STRING, 'startsWith', 'a', 'ca', false], [STRING, 'startsWith', 'C', 'ca', false],
  [STRING, 'endsWith', 'a', 'ca', true], [STRING, 'endsWith', 'c', 'ca', false],
  [STRING, '!startsWith', 'c', 'ca', false], [STRING, '!startsWith', 'c', 'us', true], [STRING, '!startsWith', 'c', undefined, true],
  [STRING, '!endsWith', 'a', 'ca', false], [STRING, '!endsWith', 'a', 'us', true],
  [STRING, 'contains', 'a', 'ca', true], [STRING, 'contains', 'x', 'ca', false], [STRING, '!contains', 'x', 'ca', true], [STRING, '!contains', 'a', 'ca', false],
  [ARRAY, 'contains', 'b', ['a', 'b'], true], [ARRAY, 'contains', 'c', ['a', 'b'], false], [ARRAY, '!contains', 'c', ['a', 'b'], true],
  [ARRAY, 'contains', 'b', 'b', false],
  [STRING, 'in', ['ca', 'us'], 'us', true], [STRING, 'in', ['ca', 'us'], 'fr', false], [STRING, '!in', ['ca', 'us'], 'fr', true],
  [STRING, '!in', ['ca', 'us'], undefined, true],
  [INT, 'in', [403, 404], 404, true], [INT, 'in', [403, 404], '404', true], [INT, 'in', [403, 404], 200, false], [INT, '!in', [403, 404], 200, true],
  [ARRAY, 'in', ['x', 'b'], ['a', 'b'], true], [ARRAY, 'in', ['x'], ['a', 'b'], false], [ARRAY, '!in', ['x'], ['a', 'b'], true],
];

test('every operator on every field type of the matrix, numbers as strings, missing and null fields', () => {
  for (const [key, op, value, v, expected] of TABLE) {
    const record: LogRecord = v === undefined ? {} : { [key]: v };
    assert.equal(run(key, op, value, record), expected, `${key} ${op} ${JSON.stringify(value)} on ${JSON.stringify(v)}`);
  }
});

// "int or string" fields (the timestamps: a number for unix/unixnano, RFC 3339 text otherwise): a numeric value compares as a number,
// any other as text. A set of text values used to become a set of NaN, which matched every non-numeric record value.
test('an "int or string" field (EdgeStartTimestamp): numbers compare as numbers, RFC 3339 text as text', () => {
  const TS = 'EdgeStartTimestamp';
  assert.equal(fields.get(TS), 'int or string');
  const cases: [string, unknown, unknown, boolean][] = [
    ['eq', '2026-11-24T00:00:05Z', '2026-11-24T00:00:05Z', true], ['eq', '2026-11-24T00:00:05Z', '2026-11-24T00:00:06Z', false],
    ['!eq', '2026-11-24T00:00:05Z', '2026-11-24T00:00:05Z', false], ['!eq', '2026-11-24T00:00:05Z', '2026-11-24T00:00:06Z', true],
    ['eq', '1764000000', 1764000000, true], ['eq', 1764000000, '1764000000', true], ['eq', '1764000000', 1764000001, false],
    ['in', ['2026-11-24T00:00:05Z'], '2026-11-24T00:00:05Z', true], ['in', ['2026-11-24T00:00:05Z'], '2026-11-24T00:00:06Z', false],
    ['in', ['2026-11-24T00:00:05Z', 1764000000], 1764000000, true], ['in', ['2026-11-24T00:00:05Z', 1764000000], 'x', false],
    ['!in', ['2026-11-24T00:00:05Z'], '2026-11-24T00:00:06Z', true], ['gt', '1764000000', 1764000001, true],
  ];
  for (const [op, value, v, expected] of cases) {
    assert.equal(run(TS, op, value, { [TS]: v }), expected, `${TS} ${op} ${JSON.stringify(value)} on ${JSON.stringify(v)}`);
  }
});

// The checker takes a number written as a string with spaces around it (" 5 ") as the number; on an array[int] field the evaluator
// compared it with the elements as text, so a filter the checker accepts matched nothing.
test('contains / in on an array of numbers compare numbers, as the checker reads the value', () => {
  const IDS = 'BotDetectionIDs';
  assert.equal(fields.get(IDS), 'array[int]');
  assert.equal(run(IDS, 'contains', ' 5 ', { [IDS]: [5, 6] }), true);
  assert.equal(run(IDS, 'contains', '5', { [IDS]: ['5'] }), true);
  assert.equal(run(IDS, 'contains', 5, { [IDS]: [50] }), false);
  assert.equal(run(IDS, '!contains', ' 5 ', { [IDS]: [5] }), false);
  assert.equal(run(IDS, 'in', [7, 5], { [IDS]: ['5'] }), true);
  assert.equal(run(IDS, 'in', [7], { [IDS]: [5, 'x'] }), false);
});

test('nested and/or, with per-branch counts', () => {
  const c = compileFilter({ where: { and: [
    { key: INT, operator: 'geq', value: '400' },
    { or: [{ key: STRING, operator: 'eq', value: 'ca' }, { key: STRING, operator: 'eq', value: 'us' }] },
  ] } }, 'http_requests');
  if (!c.ok) throw new Error(c.error);
  const records: LogRecord[] = [
    { [INT]: 403, [STRING]: 'ca' }, { [INT]: 200, [STRING]: 'ca' }, { [INT]: 500, [STRING]: 'us' }, { [INT]: 404, [STRING]: 'fr' },
  ];
  assert.deepEqual(records.map((r) => c.filter.test(r)), [true, false, true, false]);
  for (const r of records) c.filter.testCounting(r);
  const root = c.filter.root;
  assert.equal(root.matched, 2);
  assert.deepEqual(root.children.map((n) => n.matched), [3, 3]);
  assert.deepEqual(root.children[1].children.map((n) => n.matched), [2, 1]);
  assert.deepEqual(root.children[1].children[0].path, ['where', 'and', 1, 'or', 0]);
});

test('what cannot be evaluated is an error naming where, never a throw', () => {
  assert.match((compileFilter({}, 'http_requests') as { error: string }).error, /no "where"/);
  assert.match((compileFilter({ where: { key: INT, operator: 'lt', value: 'x' } }, 'http_requests') as { error: string }).error, /where: the string "x" is not an integer/);
  assert.match((compileFilter({ where: { and: [{ key: 1 }] } }, 'http_requests') as { error: string }).error, /where\.and\.0 has no "key"/);
  assert.match((compileFilter({ where: { key: STRING, operator: 'in', value: 'ca' } }, 'http_requests') as { error: string }).error, /"in" needs an array/);
});

// ---- a naive reference, written from the spec's table, independently of the evaluator ----

function naive(node: unknown, r: LogRecord): boolean {
  const n = node as Record<string, unknown>;
  if (Array.isArray(n.and)) return (n.and as unknown[]).every((x) => naive(x, r));
  if (Array.isArray(n.or)) return (n.or as unknown[]).some((x) => naive(x, r));
  const key = n.key as string, op = n.operator as string, value = n.value;
  const neg = op.startsWith('!');
  const base = neg ? op.slice(1) : op;
  const v = r[key];
  let hit = false;
  if (v !== undefined && v !== null) {
    const t = fields.get(key) ?? 'string';
    const asNum = (x: unknown) => (typeof x === 'number' ? x : typeof x === 'string' && /^-?\d+(\.\d+)?$/.test(x) ? parseFloat(x) : NaN);
    if (base === 'eq') hit = t === 'int' ? asNum(v) === asNum(value) : String(v) === String(value);
    else if (base === 'lt') hit = asNum(v) < asNum(value);
    else if (base === 'leq') hit = asNum(v) <= asNum(value);
    else if (base === 'gt') hit = asNum(v) > asNum(value);
    else if (base === 'geq') hit = asNum(v) >= asNum(value);
    else if (base === 'startsWith') hit = typeof v === 'string' && v.indexOf(String(value)) === 0;
    else if (base === 'endsWith') hit = typeof v === 'string' && v.length >= String(value).length && v.slice(v.length - String(value).length) === String(value);
    else if (base === 'contains') hit = Array.isArray(v) ? v.map(String).includes(String(value)) : typeof v === 'string' && v.indexOf(String(value)) >= 0;
    else if (base === 'in') {
      const set = (value as unknown[]);
      hit = Array.isArray(v) ? v.some((x) => set.map(String).includes(String(x)))
        : t === 'int' ? set.some((x) => asNum(x) === asNum(v)) : set.map(String).includes(String(v));
    }
  }
  return neg ? !hit : hit;
}


test('100 000 generated records and filters: the compiled evaluator agrees with the naive reference', () => {
  const rand = mulberry32(20261124);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const countries = ['ca', 'us', 'fr', 'CA', 'c', ''];
  const statuses = [200, 301, 403, 404, 500, '403', '200'];
  const paths = ['/', '/admin', '/api/v1', '/static/a.js', 'admin'];
  const arrays = [['a', 'b'], ['b'], [], ['x', 'a']];
  const comparison = (): Record<string, unknown> => {
    switch (Math.floor(rand() * 4)) {
      case 0: return { key: STRING, operator: pick(['eq', '!eq', 'startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains', 'in', '!in']), value: undefined };
      case 1: return { key: INT, operator: pick(['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'in', '!in']), value: undefined };
      case 2: return { key: 'ClientRequestPath', operator: pick(['eq', 'startsWith', 'contains', '!contains']), value: undefined };
      default: return { key: ARRAY, operator: pick(['contains', '!contains', 'in', '!in']), value: undefined };
    }
  };
  const valueFor = (c: Record<string, unknown>): unknown => {
    const set = c.operator === 'in' || c.operator === '!in';
    const one = () => (c.key === INT ? String(pick(statuses)) : c.key === STRING ? pick(countries) : c.key === ARRAY ? pick(['a', 'b', 'x']) : pick(paths));
    return set ? [one(), one()].map((x) => (c.key === INT ? Number(x) : x)) : one();
  };
  const tree = (depth: number): unknown => {
    if (depth > 2 || rand() < 0.5) { const c = comparison(); c.value = valueFor(c); return c; }
    return { [rand() < 0.5 ? 'and' : 'or']: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => tree(depth + 1)) };
  };
  let checked = 0, matched = 0;
  for (let f = 0; f < 1000; f++) {
    const where = tree(0);
    const c = compileFilter({ where }, 'http_requests');
    if (!c.ok) throw new Error(`${c.error}: ${JSON.stringify(where)}`);
    for (let i = 0; i < 100; i++) {
      const r: LogRecord = {};
      if (rand() < 0.9) r[STRING] = pick([...countries, null]);
      if (rand() < 0.9) r[INT] = pick(statuses);
      if (rand() < 0.9) r.ClientRequestPath = pick(paths);
      if (rand() < 0.9) r[ARRAY] = pick(arrays);
      const got: boolean = c.filter.test(r);
      assert.equal(got, naive(where, r), `${JSON.stringify(where)} on ${JSON.stringify(r)}`);
      checked++;
      if (got) matched++;
    }
  }
  assert.equal(checked, 100_000);
  assert.ok(matched > 10_000 && matched < 90_000, `both verdicts are exercised (${matched} of ${checked} matched)`);
});

test('the sample generator: deterministic, every field in the http_requests catalogue with its type, a share of hostile requests', async () => {
  const { sampleHttpRequests } = await import('../../../server/src/core/eval/sample');
  const a = sampleHttpRequests(1000, 7);
  assert.deepEqual(a, sampleHttpRequests(1000, 7), 'same seed, same records');
  assert.notDeepEqual(a, sampleHttpRequests(1000, 8));
  // Every record's members (a verified bot's category is on some only); an array field holds elements of its type
  const typed = (t: string, v: unknown): boolean => (t === 'int' ? typeof v === 'number' : t === 'bool' ? typeof v === 'boolean'
    : t.startsWith('array[') ? Array.isArray(v) && v.every((x) => typed(t.slice(6, -1), x)) : t.startsWith('int or string') || typeof v === 'string');
  for (const r of a) {
    for (const [k, v] of Object.entries(r)) {
      const t = fields.get(k);
      assert.ok(t, `${k} is an http_requests field`);
      assert.ok(typed(t, v), `${k} (${t}): ${JSON.stringify(v)}`);
    }
  }
  const hostile = a.filter((r) => /sqlmap|Nikto|zgrab|python-requests|curl|script|\.\.|UNION/.test(`${r.ClientRequestUserAgent} ${r.ClientRequestURI}`));
  assert.ok(hostile.length > 50 && hostile.length < 200, `about a tenth hostile: ${hostile.length}`);
});

test('integers past 2^53 compare exactly from their texts (a unixnano timestamp): the filter\'s string and the record\'s string or number', () => {
  // 1700000000000000001 and 1700000000000000000 are one double: compared as doubles they were equal. A filter value written as a
  // string and a record value written as a string keep their digits; a record's JSON number is the double JSON gives (exact here).
  const T = 'EdgeStartTimestamp', B = 'EdgeResponseBytes';
  const cases: [string, string, unknown, unknown, boolean][] = [
    [T, 'eq', '1700000000000000001', 1700000000000000000, false], [T, 'eq', '1700000000000000001', '1700000000000000001', true],
    [T, 'eq', '1700000000000000001', '1700000000000000000', false], [T, '!eq', '1700000000000000001', '1700000000000000000', true],
    [T, 'gt', '1700000000000000000', '1700000000000000001', true], [T, 'geq', '1700000000000000001', 1700000000000000000, false],
    [T, 'lt', '1700000000000000001', 1700000000000000000, true], [T, 'leq', '1700000000000000000', '1700000000000000001', false],
    [T, 'in', ['1700000000000000001', '5'], '1700000000000000001', true], [T, 'in', ['1700000000000000001'], 1700000000000000000, false],
    [T, 'eq', '2026-11-26T10:00:00Z', '2026-11-26T10:00:00Z', true],
    [B, 'eq', '9007199254740993', 9007199254740992, false], [B, 'eq', '9007199254740993', '9007199254740993', true],
    [B, 'gt', '9007199254740992', '9007199254740993', true], [B, 'geq', '9007199254740993', 9007199254740992, false],
    [B, 'in', [9007199254740992, 2], '9007199254740993', false], [B, 'eq', '30', 30, true], [B, 'lt', '30', '29', true],
  ];
  for (const [key, op, value, v, want] of cases) assert.equal(run(key, op, value, { [key]: v }), want, `${key} ${op} ${JSON.stringify(value)} on ${JSON.stringify(v)}`);
});

test('a filter\'s JSON numbers past 2^53 are compared by the digits the document writes (withExactIntegers), in eq, the orderings and in', () => {
  const text = `{"where": {"or": [
    {"key": "EdgeStartTimestamp", "operator": "eq", "value": 1700000000000000001},
    {"key": "ClientRequestBytes", "operator": "in", "value": [12345678901234567891, 5]},
    {"and": [{"key": "EdgeEndTimestamp", "operator": "gt", "value": 1700000000000000001},
             {"key": "EdgeEndTimestamp", "operator": "lt", "value": 1700000000000000003}]}
  ]}}`;
  const value = withExactIntegers(text, JSON.parse(text));
  const c = compileFilter(value, 'http_requests');
  assert.ok(c.ok, JSON.stringify(c));
  const f = (c as { filter: { test(r: LogRecord): boolean; root: { children: { label: string }[] } } }).filter;
  // JSON.parse reads 1700000000000000001 as 1700000000000000000: without the digits this record would match.
  assert.equal(f.test({ EdgeStartTimestamp: '1700000000000000000' }), false);
  assert.equal(f.test({ EdgeStartTimestamp: '1700000000000000001' }), true);
  assert.equal(f.test({ ClientRequestBytes: '12345678901234567890' }), false);
  assert.equal(f.test({ ClientRequestBytes: '12345678901234567891' }), true);
  assert.equal(f.test({ ClientRequestBytes: 5 }), true);
  assert.equal(f.test({ EdgeEndTimestamp: '1700000000000000002' }), true);
  assert.equal(f.test({ EdgeEndTimestamp: '1700000000000000001' }), false);
  // The labels write the numbers as the filter does.
  assert.deepEqual(f.root.children.map((n) => n.label).slice(0, 2),
    ['EdgeStartTimestamp eq 1700000000000000001', 'ClientRequestBytes in [12345678901234567891,5]']);
  // A filter with no such number is the value itself (no copy); the parsed value is never changed.
  const plain = JSON.parse('{"where": {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}}');
  assert.equal(withExactIntegers('{"where": {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}}', plain), plain);
  assert.equal(JSON.parse(text).where.or[0].value, 1700000000000000000);
});

// Cases from a mutation sample of the evaluator (docs/architecture.md, "Mutation sample"): record values of another type than the
// field's, and the fallbacks of the exact integer comparison, which the table and the generated filters did not reach.
test('record values of an unexpected type: no throw, and a number or boolean compares as its text on a String field', () => {
  const cases: [string, string, unknown, unknown, boolean][] = [
    // Not a number: an empty string, hex, a boolean, an array (the record's, not the filter's).
    [INT, 'eq', 0, '', false], [INT, 'eq', 500, '0x1F4', false], [INT, 'lt', '400', true, false], [INT, '!eq', '400', true, true],
    [INT, 'lt', '400', ['1'], false],
    // Against a filter integer past 2^53, a record value that is no integer text is no match either.
    [INT, 'eq', '17000000000000000001', true, false], [INT, 'eq', '17000000000000000001', {}, false], [INT, '!eq', '17000000000000000001', false, true],
    // A bool field reads the strings "true" and "false" as booleans.
    [BOOL, 'eq', true, 'false', false], [BOOL, 'eq', false, 'false', true], [BOOL, 'eq', true, 'true', true], [BOOL, 'eq', true, 'yes', false],
    // A String field compares a number or boolean in the record as its text.
    [STRING, 'eq', '403', 403, true], [STRING, 'in', ['403', 'x'], 403, true], [STRING, 'eq', 'true', true, true], [STRING, 'eq', '403', 404, false],
  ];
  for (const [key, op, value, v, expected] of cases) {
    assert.equal(run(key, op, value, { [key]: v }), expected, `${key} ${op} ${JSON.stringify(value)} on ${JSON.stringify(v)}`);
  }
});

test('a Float field against a record integer past 2^53 compares as numbers when the filter value is no integer', () => {
  const FLOAT = 'EdgeResponseCompressionRatio';
  assert.equal(fields.get(FLOAT), 'float');
  assert.equal(run(FLOAT, 'gt', 1.5, { [FLOAT]: '17000000000000000001' }), true);
  assert.equal(run(FLOAT, 'lt', 1.5, { [FLOAT]: '17000000000000000001' }), false);
  assert.equal(run(FLOAT, 'gt', 1.5, { [FLOAT]: '-17000000000000000001' }), false);
});

test('an ordering on a field the catalogue does not know needs a number', () => {
  const c = compileFilter({ where: { key: 'NotAField', operator: 'lt', value: 'abc' } }, 'http_requests');
  assert.ok(!c.ok);
  assert.match(c.error, /where: "lt" needs a number, not "abc"/);
  const like = compileFilter({ where: { key: 'NotAField', operator: 'like', value: 'a' } }, 'http_requests');
  assert.ok(!like.ok);
  assert.match(like.error, /where: unknown operator "like"/);
  const one = compileFilter({ where: { key: 'NotAField', operator: 'in', value: 'a' } }, 'http_requests');
  assert.ok(!one.ok);
  assert.match(one.error, /where: "in" needs an array of values, not "a"/);
  const n = compileFilter({ where: { key: 'NotAField', operator: 'lt', value: '10' } }, 'http_requests');
  assert.ok(n.ok && n.filter.test({ NotAField: 9 }) && !n.filter.test({ NotAField: 10 }));
});

test('"in" on an array of numbers compares the record\'s elements as numbers, however the record writes them', () => {
  const IDS = 'BotDetectionIDs';
  assert.equal(run(IDS, 'in', [5], { [IDS]: ['5.0'] }), true);
  assert.equal(run(IDS, 'in', [5], { [IDS]: ['05', 7] }), true);
  assert.equal(run(IDS, '!in', [5], { [IDS]: [5.0] }), false);
  assert.equal(run(IDS, 'in', [5], { [IDS]: ['5x'] }), false);
});

test('nesting: 100 levels of groups evaluate, 101 are refused; a node that is no object is named', () => {
  const nest = (levels: number): unknown => {
    let node: unknown = { key: STRING, operator: 'eq', value: 'ca' };
    for (let i = 0; i < levels; i++) node = { and: [node] };
    return node;
  };
  const deep = compileFilter({ where: nest(100) }, 'http_requests');
  assert.ok(deep.ok, deep.ok ? '' : deep.error);
  assert.equal(deep.filter.test({ [STRING]: 'ca' }), true);
  const deeper = compileFilter({ where: nest(101) }, 'http_requests');
  assert.ok(!deeper.ok);
  assert.match(deeper.error, /nests deeper than 100 levels at where(\.and\.0){101}\.$/);
  for (const [where, at] of [[5, 'where'], [null, 'where'], [{ or: [{ key: STRING, operator: 'eq', value: 'ca' }, 'x'] }, 'where.or.1']] as const) {
    const c = compileFilter({ where }, 'http_requests');
    assert.ok(!c.ok);
    assert.equal(c.error, `The filter cannot be evaluated: ${at} is not an object.`);
  }
});

test('a record\'s integer past 2^53 read from its line\'s digits (a bigint: readNdjson) compares exactly, in an Int field and an array[int]', () => {
  const T = 'EdgeStartTimestamp', A = 'BotDetectionIDs';
  const cases: [string, string, unknown, unknown, boolean][] = [
    [T, 'eq', '1700000000000000001', 1700000000000000001n, true], [T, 'eq', '1700000000000000001', 1700000000000000000n, false],
    [T, 'gt', '1700000000000000000', 1700000000000000001n, true], [T, 'lt', '1700000000000000001', 1700000000000000000n, true],
    [T, 'in', ['1700000000000000001', '5'], 1700000000000000001n, true], [T, 'in', ['1700000000000000001'], 1700000000000000002n, false],
    [T, 'in', ['5', '6'], 1700000000000000002n, false], [T, 'geq', '100', 1700000000000000002n, true],
    // A filter's JSON number past 2^53 is a bigint too (withExactIntegers); 1700000000000000000n is the double 1.7e18 exactly
    [A, 'contains', 1700000000000000001n, [3, 1700000000000000001n], true], [A, 'contains', 1700000000000000001n, [3, 1700000000000000000n], false],
    [A, 'contains', 1700000000000000000, [3, 1700000000000000001n], false], [A, 'contains', 3, [3, 1700000000000000001n], true],
    [A, 'in', [1700000000000000001n, 4], [1700000000000000001n], true], [A, 'in', [1700000000000000001n, 4], [1700000000000000000n], false],
    [A, 'in', [1700000000000000000, 5], [1700000000000000001n], false], [A, 'in', [4, 5], [1700000000000000001n, 5], true],
  ];
  for (const [key, operator, value, recordValue, expected] of cases) {
    assert.equal(run(key, operator, value, { [key]: recordValue }), expected, `${key} ${operator} ${String(value)} on ${String(recordValue)}`);
  }
});

// tf16: Test Filter on the generated sample names the sample's values of a text comparison's field that matched none of it.
test('TextFieldValues: the values of the fields positive text comparisons read, most common first, at most five, or that no line has the field', () => {
  const c = compileFilter({ where: { and: [
    { key: STRING, operator: 'in', value: ['kp'] }, { key: 'ClientRequestHost', operator: '!eq', value: 'a' },
    { key: INT, operator: 'eq', value: 999 }, { key: 'ClientRequestPath', operator: 'startsWith', value: '/x' },
  ] } }, 'http_requests');
  assert.ok(c.ok);
  assert.deepEqual(c.filter.root.children.map((n) => n.textField), [STRING, undefined, undefined, 'ClientRequestPath']);
  const values = new TextFieldValues(c.filter.root);
  for (const country of ['us', 'ca', 'ca', 'fr', 'de', 'de', 'de', 'gb', 'jp', null]) values.take({ [STRING]: country, [INT]: 200, ClientRequestHost: 'h' });
  assert.equal(values.line(STRING), `The sample's ${STRING} values: "de", "ca", "us", "fr", "gb", … (6 in all)`);
  assert.equal(values.line('ClientRequestPath'), "The sample's lines have no ClientRequestPath.");
  assert.equal(values.line('ClientRequestHost'), undefined, 'a negated comparison: not counted');
  assert.equal(values.line(INT), undefined, 'a comparison of numbers: not counted');
});
