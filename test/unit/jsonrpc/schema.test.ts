// The per-method params of schemas/jsonrpc-request.schema.json against the jsonrpc rules (params.ts): generated from the catalogue,
// left out of EdgeKit's own ajv run, and on generated requests the full schema and the rules agree: whatever the schema refuses, the
// rules report as an error; whatever the schema accepts, the rules refuse only for what no schema can say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { render, SCHEMA_FILE, withGeneratedParams } from '../../../scripts/gen-jsonrpc-schema';
import { validatorFor } from '../../../server/src/core/schema/registry';
import { validateText } from '../../../server/src/core/validate';
import { BLOCK_TAGS, METHODS, OBJECT_KEYS, type ObjectType, type ValueType } from '../../../server/src/core/rules/jsonrpc/catalogue';
import { checkParamValues, type ParamIssue } from '../../../server/src/core/rules/jsonrpc/params';

const schemaText = fs.readFileSync(SCHEMA_FILE, 'utf8');
const schema = JSON.parse(schemaText) as Record<string, unknown>;

function fullValidator(): ValidateFunction {
  // strictTuples off: optional trailing params make a tuple that may be shorter than its prefixItems, on purpose.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false, allowUnionTypes: true });
  ajv.addVocabulary(['x-edgekit', 'markdownDescription', 'enumDescriptions', 'errorMessage']);
  return ajv.compile(schema);
}
const full = fullValidator();
const request = (method: string, params?: unknown) => ({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });

test('the schema\'s params part is what the catalogue generates (run `npm run schemas` after changing the catalogue)', () => {
  assert.equal(schemaText, render(withGeneratedParams(schema)));
  const defs = schema.$defs as Record<string, unknown>;
  for (const m of METHODS) assert.ok(defs[`params-${m.name}`], `a params definition for ${m.name}`);
});

test('the full schema checks params; the one EdgeKit compiles leaves them to the rules', () => {
  const bad = request('eth_getBalance', ['0x12', 'lastest', 3]);
  assert.equal(full(bad), false);
  const paths = new Set((full.errors ?? []).map((e) => e.instancePath));
  for (const p of ['/params/0', '/params/1', '/params']) assert.ok(paths.has(p), `the full schema reports ${p}: ${[...paths].join(', ')}`);
  assert.equal(validatorFor('jsonrpc-request')(bad), true, 'EdgeKit\'s ajv run does not check params');
  // ...and the editor reports each of them once, from the rules.
  const problems = validateText(JSON.stringify(bad, null, 1), 'jsonrpc-request').filter((p) => p.severity === 'error');
  assert.deepEqual(problems.map((p) => p.code), ['jsonrpc/invalid-address', 'jsonrpc/invalid-block', 'jsonrpc/extra-param']);
  // The envelope stays with ajv.
  assert.equal(validatorFor('jsonrpc-request')({ ...bad, extra: 1 }), false);
  assert.equal(full(request('eth_getBalance', ['0x' + 'a'.repeat(40), 'latest'])), true);
  assert.equal(full(request('no_suchMethod', { any: 'thing' })), true, 'an unknown method: the method rule reports it, the schema does not guess');
  assert.equal(full([request('eth_blockNumber'), request('eth_getBalance', [])]), false, 'batch items are checked too');
});

// ---------------------------------------------------------------- generated requests

const A = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
const H = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';
const hexDigits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: min, maxLength: max }).map((a) => a.join(''));
const lowerHex = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: min, maxLength: max }).map((a) => a.join(''));
const quantity = (maxDigits: number) => fc.oneof(fc.constant('0x0'), fc.tuple(fc.constantFrom(...'123456789abcdefABCDEF'), hexDigits(0, maxDigits - 1)).map(([a, b]) => `0x${a}${b}`));

/** Near misses and odd values: every type's wrong neighbours (prefix case, leading zeros, lengths, decimals, tags, JSON types). */
const noise: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, 1, -1, 1.5, 2 ** 60, 201, '', '0x', '0X', '0x0', '0x00', '0x01', '0X1', '0xg', '12', 'true',
    'latest', 'Latest', 'pending', 'lastest', 'union', 'all', [], {}, [null], [A], [H], A, H, A.slice(2), H.slice(0, 64), '0X' + A.slice(2), '0xc8', '0xc9'),
  fc.tuple(fc.constantFrom('0x', '0X', '', '0x0'), hexDigits(0, 70)).map(([p, d]) => p + d),
  fc.array(fc.constantFrom<unknown>(null, A, H, '0x1', 5, 'x'), { maxLength: 5 }),
);

/** A valid value one edit away from valid: a digit dropped or added, the prefix upper-cased, a leading zero, a stray letter; a
 * negative, fractional or too large number; one such item in an array. */
const EDITS: ((s: string) => string)[] = [
  (s) => s.slice(0, -1), (s) => s + '0', (s) => s + 'a', (s) => s.replace(/^0x/, '0X'), (s) => s.replace(/^0x/, '0x0'), (s) => s.replace(/^0x/, ''),
  (s) => s.slice(0, 3) + 'g' + s.slice(4), (s) => s.toUpperCase(), (s) => s.slice(0, 1).toUpperCase() + s.slice(1),
];
const NUMBER_EDITS: ((n: number) => number)[] = [(n) => -1 - n, (n) => n + 0.5, (n) => n + 2 ** 53];
function edit(v: unknown, i: number): unknown {
  if (typeof v === 'string') return EDITS[i % EDITS.length](v);
  if (typeof v === 'number') return NUMBER_EDITS[i % NUMBER_EDITS.length](v);
  // An array: one of its items edited (a list of addresses with one bad address, a topic list with one bad hash...).
  if (Array.isArray(v) && v.length) return v.map((x, j) => (j === i % v.length ? edit(x, i) : x));
  return v;
}
const nearMiss = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.tuple(valid, fc.nat({ max: 1000 })).map(([v, i]) => edit(v, i));

const mixed = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 8, arbitrary: valid }, { weight: 2, arbitrary: nearMiss(valid) }, { weight: 1, arbitrary: noise });

/** How the values inside a value are made: `mixed` (sometimes a near miss or noise) or `PURE` (always valid). */
type Wrap = (a: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>;
const PURE: Wrap = (a) => a;

/** An unknown member now and then (not when PURE): each object of the catalogue takes its own members only. */
const withStrayKey = (o: fc.Arbitrary<Record<string, unknown>>, wrap: Wrap): fc.Arbitrary<unknown> => wrap === PURE ? o :
  fc.oneof({ weight: 5, arbitrary: o }, { weight: 1, arbitrary: fc.tuple(o, fc.constantFrom('dataa', 'limit', 'fromblock', 'extra')).map(([x, k]) => ({ ...x, [k]: '0x1' })) });

function objectOf(type: ObjectType, wrap: Wrap): fc.Arbitrary<unknown> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  // A filter's members may be null (absent); in a call object only "to" may.
  for (const [k, spec] of Object.entries(OBJECT_KEYS[type])) {
    const v = wrap(values(spec.type, wrap));
    model[k] = type === 'callObject' ? v : fc.oneof({ weight: 6, arbitrary: v }, { weight: 1, arbitrary: fc.constant(null) });
  }
  // A few members each, as users write them (with all 19 of a call object, nearly every object would hold some invalid member).
  const few = fc.shuffledSubarray(Object.keys(model), { minLength: 0, maxLength: 3 })
    .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, model[k]]))));
  return withStrayKey(few, wrap);
}

/** Values of a type: valid ones, and when not PURE, some wrong ones inside (odd tags, bad percentiles, members missing...). */
function values(type: ValueType, wrap: Wrap): fc.Arbitrary<unknown> {
  const odd = <T>(good: fc.Arbitrary<T>, ...bad: T[]): fc.Arbitrary<T> => (wrap === PURE || !bad.length ? good : fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: fc.constantFrom(...bad) }));
  switch (type) {
    case 'quantity': return quantity(64);
    case 'integerOrQuantity': return fc.oneof(fc.nat({ max: 400 }), quantity(4));
    case 'address': return hexDigits(40, 40).map((d) => '0x' + d);
    case 'addressOrNull': return fc.oneof(fc.constant(null), values('address', wrap));
    case 'addressList': return fc.array(values('address', wrap), { maxLength: 3 });
    case 'addressOrList': return fc.oneof(fc.constant(null), values('address', wrap), values('addressList', wrap));
    case 'hash32': return hexDigits(64, 64).map((d) => '0x' + d);
    case 'hash32List': return fc.array(values('hash32', wrap), { maxLength: 3 });
    case 'bytes': return lowerHex(0, 8).map((d) => '0x' + (d.length % 2 ? d + '0' : d));
    case 'bytesList': return fc.array(values('bytes', wrap), { maxLength: 3 });
    case 'bytesMax32': return hexDigits(0, 64).map((d) => '0x' + d);
    case 'bytesMax32List': return fc.array(values('bytesMax32', wrap), { maxLength: 3 });
    case 'boolean': return fc.boolean();
    case 'block': return odd<unknown>(fc.oneof(quantity(16), fc.constantFrom(...BLOCK_TAGS)), 'Latest', 'lastest', '0x' + 'f'.repeat(17));
    case 'blockForRange': return odd<unknown>(fc.oneof(quantity(16), fc.constantFrom(...BLOCK_TAGS.filter((t) => t !== 'pending'))), 'pending', 'Safe', 'earlyest');
    case 'blockOrHash': return fc.oneof(values('block', wrap), values('hash32', wrap));
    case 'callObject': case 'logFilter': case 'traceFilter': return objectOf(type, wrap);
    case 'percentiles': return fc.array(odd<unknown>(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true })), -1, -0.5, 100.5, 101, '50', null), { maxLength: 4 });
    case 'topics': return fc.array(fc.oneof(fc.constant(null), values('hash32', wrap), fc.array(fc.oneof(fc.constant(null), values('hash32', wrap)), { maxLength: 2 })), { maxLength: wrap === PURE ? 4 : 5 });
    case 'accessList': return fc.array(withStrayKey(fc.record({ address: wrap(values('address', wrap)), storageKeys: wrap(values('hash32List', wrap)) }, { requiredKeys: wrap === PURE ? ['address', 'storageKeys'] : [] }), wrap), { maxLength: 2 });
    case 'authorizationList': {
      const entry = fc.record({ chainId: wrap(quantity(2)), nonce: quantity(2), address: wrap(values('address', wrap)), yParity: quantity(1), r: quantity(64), s: quantity(64) });
      const lacking = fc.tuple(entry, fc.constantFrom('chainId', 'nonce', 'address', 'yParity', 'r', 's')).map(([e, k]) => { const o: Record<string, unknown> = { ...e }; delete o[k]; return o; });
      return fc.array(wrap === PURE ? entry : fc.oneof({ weight: 3, arbitrary: entry }, { weight: 1, arbitrary: lacking }), { maxLength: 2 });
    }
    case 'traceMode': return fc.constantFrom('union', 'intersection');
  }
}

/** Requests of one method: params of about the right length (sometimes fewer than required, or one too many), each param valid for
 * its type or a near miss, an optional one sometimes null; now and then params that are no array at all. */
function mixedParams(m: (typeof METHODS)[number]): fc.Arbitrary<unknown> {
  const required = m.params.filter((p) => p.required).length;
  const items = m.params.map((p) => (p.required ? mixed(values(p.type, mixed)) : fc.oneof({ weight: 4, arbitrary: mixed(values(p.type, mixed)) }, { weight: 1, arbitrary: fc.constant(null) })));
  const length = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: required, max: m.params.length }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: m.params.length + 1 }) });
  const positional = fc.tuple(fc.tuple(...items, noise), length).map(([vals, n]) => vals.slice(0, n));
  return fc.oneof({ weight: 12, arbitrary: positional }, { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, {}, { a: 1 }, '0x1') });
}

const DROP = Symbol('drop');

/** v with ONE fault at its `at`-th node (pre-order, the params array is node 0): an edit, a noise value, or the member dropped. */
function faultAt(v: unknown, at: { n: number }, fault: (x: unknown) => unknown): unknown {
  if (at.n-- === 0) return fault(v);
  if (Array.isArray(v)) return v.map((x) => faultAt(x, at, fault)).filter((x) => x !== DROP);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) { const y = faultAt(x, at, fault); if (y !== DROP) out[k] = y; }
    return out;
  }
  return v;
}

/** Valid params of a method with exactly one fault somewhere inside: where the schema and the rules are most likely to part. */
function singleFaultParams(m: (typeof METHODS)[number]): fc.Arbitrary<unknown> {
  const required = m.params.filter((p) => p.required).length;
  const valid = fc.tuple(...m.params.map((p) => (p.required ? values(p.type, PURE) : fc.oneof(values(p.type, PURE), fc.constant(null)))))
    .chain((vals) => fc.integer({ min: required, max: m.params.length }).map((n) => vals.slice(0, n)));
  return fc.tuple(valid, fc.nat({ max: 40 }), fc.nat({ max: 1000 }), noise, fc.nat({ max: 2 })).map(([params, at, i, other, how]) => {
    const fault = (x: unknown): unknown => (how === 0 ? edit(x, i) : how === 1 ? other : DROP);
    const out = faultAt(params, { n: at % countNodes(params) }, fault);
    return out === DROP ? undefined : out; // params dropped: the request has none
  });
}

function countNodes(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + countNodes(x), 0);
  if (v && typeof v === 'object') return 1 + Object.values(v).reduce((n: number, x) => n + countNodes(x), 0);
  return 1;
}

const requestsOf = (m: (typeof METHODS)[number]): fc.Arbitrary<unknown> => fc.oneof(mixedParams(m), singleFaultParams(m));

/** The rules' errors that no JSON Schema can express: numeric limits, orders, and two members that must be equal. */
function beyondSchema(i: ParamIssue): boolean {
  switch (i.code) {
    case 'jsonrpc/block-range-reversed': case 'jsonrpc/block-range-too-large': case 'jsonrpc/block-count-too-large': case 'jsonrpc/trace-count-too-large':
      return true;
    case 'jsonrpc/conflicting-keys': return /"data" and "input"/.test(i.message);
    case 'jsonrpc/invalid-param': return /percentiles must increase/.test(i.message);
    default: return false;
  }
}

test('on generated requests, the full schema refuses exactly what the rules report as schema-expressible errors', () => {
  const seen = { refused: 0, accepted: 0, beyond: 0 };
  for (const m of METHODS) fc.assert(fc.property(requestsOf(m), (params) => {
    const method = m.name;
    const ok = full(request(method, params));
    const issues = checkParamValues(method, params);
    const why = `${method} ${JSON.stringify(params)}: schema ${ok ? 'accepts' : `refuses (${JSON.stringify(full.errors?.slice(0, 3).map((e) => `${e.instancePath} ${e.message}`))})`}, rules say ${JSON.stringify(issues.map((i) => i.message))}`;
    if (!ok) {
      seen.refused++;
      assert.ok(issues.length > 0, `the rules miss what the schema refuses: ${why}`);
    } else {
      seen.accepted++;
      const within = issues.filter((i) => !beyondSchema(i));
      assert.deepEqual(within.map((i) => i.message), [], `the schema accepts what the rules refuse: ${why}`);
      if (issues.length) seen.beyond++;
    }
  }), { numRuns: m.params.some((p) => p.type === 'callObject') ? 3000 : 300, seed: 20261123, endOnFailure: true }); // call objects: 19 members
  // Both sides of the comparison are exercised (a generator drifting to all-valid or all-invalid would prove nothing).
  assert.ok(seen.refused > 1500 && seen.accepted > 1500, JSON.stringify(seen));
});

test('hand-picked calls: what the full schema accepts and refuses', () => {
  const cases: [string, unknown, boolean][] = [
    ['eth_getLogs', [{ blockHash: H, fromBlock: '0x1' }], false],
    ['eth_getLogs', [{ blockHash: H, fromBlock: null }], true],
    ['eth_getLogs', [{ topics: [null, null, null, null, null] }], false],
    ['eth_getLogs', [{ fromBlock: 'pending' }], false],
    ['eth_call', [{ to: null, data: '0x', input: '0x' }], true],
    ['eth_call', [{ from: null }], false],
    ['eth_feeHistory', ['0x4', 'latest', [75, 25]], true], // order: beyond the schema, the rules say it
    ['eth_getBalance', [A, null], true],
    ['eth_getBalance', [null], false],
    ['eth_getBalance', [A, H], true],
    ['eth_getBlockByNumber', [H, true], false],
    ['eth_getStorageAt', [A, '0x' + 'f'.repeat(64)], true],
    ['eth_getStorageAt', [A, '0x' + 'f'.repeat(65)], false],
    ['web3_sha3', ['0x123'], false],
    ['trace_filter', [{ after: 2 ** 53 }], false],
    ['trace_filter', [{ count: 201 }], true], // the limit: the rules say it
    ['eth_blockNumber', undefined, true],
    ['eth_blockNumber', [], true],
    ['eth_getBalance', undefined, false],
    ['eth_getBalance', { address: A }, false],
  ];
  for (const [method, params, ok] of cases) assert.equal(full(request(method, params)), ok, `${method} ${JSON.stringify(params)}`);
});
