// The differential check of schemas/jsonrpc-request.schema.json against the jsonrpc rules (params.ts), shared by the unit test
// (test/unit/jsonrpc/schema.test.ts) and the mutation run (test/stress/schemaMutations.stress.ts): on generated params of every
// supported method, whatever the full schema refuses the rules report as an error, and whatever it accepts the rules refuse only for
// what no schema can say.
import fc from 'fast-check';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { BLOCK_TAGS, METHODS, OBJECT_KEYS, type ObjectType, type ValueType } from '../../../server/src/core/rules/jsonrpc/catalogue';
import { checkParamValues, type ParamIssue } from '../../../server/src/core/rules/jsonrpc/params';
import { validatorFor } from '../../../server/src/core/schema/registry';

const ENVELOPE = validatorFor('jsonrpc-request');

/** The full schema compiled as a schema user would (strict, with VS Code's annotation keywords declared). */
export function fullValidator(schema: object): ValidateFunction {
  // strictTuples off: optional trailing params make a tuple that may be shorter than its prefixItems, on purpose.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false, allowUnionTypes: true });
  ajv.addVocabulary(['x-edgekit', 'markdownDescription', 'enumDescriptions', 'errorMessage']);
  return ajv.compile(schema);
}

export const request = (method: string, params?: unknown): Record<string, unknown> => ({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) });


export const A = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
export const H = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';
const hexDigits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789abcdefABCDEF'), { minLength: min, maxLength: max }).map((a) => a.join(''));
const lowerHex = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: min, maxLength: max }).map((a) => a.join(''));
/** QUANTITYs up to maxDigits digits, the longest allowed among them (one more digit, by an edit, must then be refused). */
const quantity = (maxDigits: number) => fc.oneof(fc.constant('0x0'),
  fc.tuple(fc.constantFrom(...'123456789abcdefABCDEF'), hexDigits(0, maxDigits - 1)).map(([a, b]) => `0x${a}${b}`),
  fc.tuple(fc.constantFrom(...'123456789abcdefABCDEF'), hexDigits(maxDigits - 1, maxDigits - 1)).map(([a, b]) => `0x${a}${b}`));

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
    case 'byte': return odd<unknown>(hexDigits(1, 2).map((d) => '0x' + d), '0x', '0x002', 2);
    // With the gateway's limits on either side (blockCount 10, count 200).
    case 'integerOrQuantity': return fc.oneof(fc.nat({ max: 400 }), quantity(4), quantity(64),
      { weight: 2, arbitrary: fc.constantFrom(0, 10, 11, 200, 201, '0xa', '0xB', '0xc8', '0xC9', Number.MAX_SAFE_INTEGER) });
    case 'address': return hexDigits(40, 40).map((d) => '0x' + d);
    case 'addressOrNull': return fc.oneof(fc.constant(null), values('address', wrap));
    case 'addressList': return fc.array(values('address', wrap), { maxLength: 3 });
    case 'addressOrList': return fc.oneof(fc.constant(null), values('address', wrap), values('addressList', wrap));
    case 'hash32': return hexDigits(64, 64).map((d) => '0x' + d);
    case 'hash32List': return fc.array(values('hash32', wrap), { maxLength: 3 });
    case 'bytes': return lowerHex(0, 8).map((d) => '0x' + (d.length % 2 ? d + '0' : d));
    case 'bytesList': return fc.array(values('bytes', wrap), { maxLength: 3 });
    // Typed (0x01-0x04, then an RLP list) and legacy envelopes; and what is none: empty, a hash, a type byte alone or before no list.
    case 'signedTransaction': return odd<unknown>(fc.tuple(fc.constantFrom('01', '02', '03', '04', ''), fc.constantFrom('c0', 'f8', 'f9', 'ff'), lowerHex(0, 6))
      .map(([t, l, d]) => '0x' + t + l + (d.length % 2 ? d + '0' : d)), '0x', H, '0x02', '0x0280', '0x05f8', '0x1234');
    case 'bytesMax32': return fc.oneof(hexDigits(0, 64), hexDigits(64, 64)).map((d) => '0x' + d);
    case 'bytesMax32List': return fc.array(values('bytesMax32', wrap), { maxLength: 3 });
    case 'boolean': return fc.boolean();
    case 'block': return odd<unknown>(fc.oneof(quantity(16), fc.constantFrom(...BLOCK_TAGS)), 'Latest', 'lastest', '0x' + 'f'.repeat(17), H);
    case 'blockForRange': return odd<unknown>(fc.oneof(quantity(16), fc.constantFrom(...BLOCK_TAGS.filter((t) => t !== 'pending'))), 'pending', 'Safe', 'earlyest');
    case 'blockOrHash': return fc.oneof(values('block', wrap), values('hash32', wrap));
    case 'callObject': case 'logFilter': case 'traceFilter': return objectOf(type, wrap);
    case 'percentiles': return fc.array(odd<unknown>(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true }), fc.constantFrom(0, 100)), -1, -0.5, 100.5, 101, '50', null), { maxLength: 4 });
    case 'topics': return fc.array(fc.oneof(fc.constant(null), values('hash32', wrap), fc.array(fc.oneof(fc.constant(null), values('hash32', wrap)), { maxLength: 2 })), { maxLength: wrap === PURE ? 4 : 5 });
    case 'accessList': return fc.array(withStrayKey(fc.record({ address: wrap(values('address', wrap)), storageKeys: wrap(values('hash32List', wrap)) }, { requiredKeys: wrap === PURE ? ['address', 'storageKeys'] : [] }), wrap), { maxLength: 2 });
    case 'authorizationList': {
      const entry = fc.record({ chainId: wrap(quantity(2)), nonce: quantity(2), address: wrap(values('address', wrap)), yParity: hexDigits(1, 2).map((d) => '0x' + d), r: quantity(64), s: quantity(64) });
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

/** v with ONE fault at its `at`-th node (pre-order, the params array is node 0): an edit, a noise value, the member dropped, or an
 * unknown member added to an object. */
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
  return fc.tuple(valid, fc.nat({ max: 40 }), fc.nat({ max: 1000 }), noise, fc.nat({ max: 3 })).map(([params, at, i, other, how]) => {
    const stray = (x: unknown): unknown => (x && typeof x === 'object' && !Array.isArray(x) ? { ...x, extra: '0x1' } : edit(x, i));
    const fault = (x: unknown): unknown => (how === 0 ? edit(x, i) : how === 1 ? other : how === 2 ? DROP : stray(x));
    const out = faultAt(params, { n: at % countNodes(params) }, fault);
    return out === DROP ? undefined : out; // params dropped: the request has none
  });
}

function countNodes(v: unknown): number {
  if (Array.isArray(v)) return 1 + v.reduce((n: number, x) => n + countNodes(x), 0);
  if (v && typeof v === 'object') return 1 + Object.values(v).reduce((n: number, x) => n + countNodes(x), 0);
  return 1;
}

export const requestsOf = (m: (typeof METHODS)[number]): fc.Arbitrary<unknown> => fc.oneof(mixedParams(m), singleFaultParams(m));

/** The rules' errors that no JSON Schema can express: a block range (two values), an order, two members that must be equal. */
function beyondSchema(i: ParamIssue): boolean {
  switch (i.code) {
    case 'jsonrpc/block-range-reversed': case 'jsonrpc/block-range-too-large':
      return true;
    case 'jsonrpc/conflicting-keys': return /"data" and "input"/.test(i.message);
    case 'jsonrpc/invalid-param': return /percentiles must increase/.test(i.message);
    default: return false;
  }
}

/** Where the full schema and the rules part, or undefined when they agree on these params. */
export function disagreement(validate: ValidateFunction, method: string, params: unknown): string | undefined {
  const ok = validate(request(method, params));
  const issues = checkParamValues(method, params);
  // EdgeKit's side is the rules plus the envelope that its ajv still checks ("params": null is a schema/type problem there).
  if (!ok && !ENVELOPE(request(method, params))) return undefined;
  const why = () => `${method} ${JSON.stringify(params)}: schema ${ok ? 'accepts' : `refuses (${JSON.stringify(validate.errors?.slice(0, 3).map((e) => `${e.instancePath} ${e.message}`))})`}, rules say ${JSON.stringify(issues.map((i) => i.message))}`;
  if (!ok && issues.length === 0) return `the rules miss what the schema refuses: ${why()}`;
  if (ok && issues.some((i) => !beyondSchema(i))) return `the schema accepts what the rules refuse: ${why()}`;
  return undefined;
}

export interface Tally { refused: number; accepted: number }

/** Runs the comparison over every method; throws (fast-check's report) at the first disagreement. */
/** `objectRuns` for the methods that take an object (a call object, a log or trace filter: many members), `runs` for the others. */
export function compareOnGenerated(validate: ValidateFunction, opts: { seed: number; runs: number; objectRuns: number }, tally: Tally = { refused: 0, accepted: 0 }): Tally {
  for (const m of METHODS) {
    fc.assert(fc.property(requestsOf(m), (params) => {
      if (validate(request(m.name, params))) tally.accepted++; else tally.refused++;
      const d = disagreement(validate, m.name, params);
      if (d) throw new Error(d);
    }), { numRuns: m.params.some((p) => p.type in OBJECT_KEYS) ? opts.objectRuns : opts.runs, seed: opts.seed, endOnFailure: true, includeErrorInReport: true });
  }
  return tally;
}
