// Writes the per-method params part of schemas/jsonrpc-request.schema.json from the method catalogue (core/rules/jsonrpc/catalogue.ts),
// so that the schema and the jsonrpc rules can never drift apart. `npm run schemas`.
//
// The envelope (jsonrpc, method, id, batch) stays hand-written in the file; this rewrites its "allOf" (top level and batch items) and
// "$defs". Each supported method gets one `if method is X then params must be ...` branch (in a decision tree), and every value type
// of the catalogue one definition, whose patterns accept exactly what the rules (params.ts) accept without an error, the gateway's
// count limits included: VS Code's own JSON service (a plain file with "$schema", `contributes.jsonValidation`) and any other schema
// user then report what the editor reports, minus what no schema can say (a block range spans two values, percentiles must increase,
// "data" and "input" must be equal).
//
// In EdgeKit itself the rules own these checks (they name the param, and most carry a fix): schema/registry.ts compiles the schema for
// ajv with the branches marked "x-edgekit": "checked-by-rules" left out, and test/unit/jsonrpc/schema.test.ts checks, on generated
// requests, that the rules report an error wherever the full schema does.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  BLOCK_TAGS, LIMITS, METHODS, OBJECT_KEYS, TYPE_LABELS, type MethodSpec, type ObjectType, type ValueType,
} from '../server/src/core/rules/jsonrpc/catalogue';
import { CHECKED_BY_RULES } from '../server/src/core/schema/registry';

type Schema = Record<string, unknown>;


const hex = '[0-9a-fA-F]';
const QUANTITY = `^0x(0|[1-9a-fA-F]${hex}{0,63})$`;
const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });
const RANGE_TAGS = BLOCK_TAGS.filter((t) => t !== 'pending');
/** The values a type offers as completions (its tags or modes). */
const OFFERED: Record<string, readonly string[]> = { block: BLOCK_TAGS, blockForRange: RANGE_TAGS, blockOrHash: BLOCK_TAGS, traceMode: ['union', 'intersection'] };

const HEX = '0123456789abcdef';

/** The hex digits lo..hi (0..15) as a character class of both cases, e.g. [3-9a-cA-C]. */
function hexClass(lo: number, hi: number): string {
  let c = '';
  if (lo <= Math.min(hi, 9)) c += lo === Math.min(hi, 9) ? String(lo) : `${lo}-${Math.min(hi, 9)}`;
  const a = Math.max(lo, 10);
  if (a <= hi) c += a === hi ? HEX[a] + HEX[a].toUpperCase() : `${HEX[a]}-${HEX[hi]}${HEX[a].toUpperCase()}-${HEX[hi].toUpperCase()}`;
  return `[${c}]`;
}

/** A pattern of the QUANTITYs from 0 to n (no leading zeros, hex digits of either case), e.g. n = 10: ^0x(0|[1-9]|[aA])$. */
export function quantityUpTo(n: number): string {
  const d = n.toString(16);
  const alts = ['0'];
  for (let k = 1; k < d.length; k++) alts.push(hexClass(1, 15) + (k > 1 ? `${hexClass(0, 15)}{${k - 1}}` : ''));
  // As many digits as n: a smaller digit at some position after an equal prefix, then anything; or n itself.
  const same = (i: number) => [...d.slice(0, i)].map((c) => (/[a-f]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');
  for (let i = 0; i < d.length; i++) {
    const lo = i === 0 ? 1 : 0;
    const digit = HEX.indexOf(d[i]);
    const rest = d.length - i - 1;
    if (digit > lo) alts.push(same(i) + hexClass(lo, digit - 1) + (rest ? `${hexClass(0, 15)}{${rest}}` : ''));
  }
  alts.push(same(d.length));
  return `^0x(${alts.join('|')})$`;
}

/** A count the gateway caps: a JSON integer or a QUANTITY, at most max. */
function countDef(title: string, description: string, max: number): Schema {
  return {
    title, description, errorMessage: `Expected at most ${max}: a non-negative integer or a hex quantity such as "0x${max.toString(16)}".`,
    type: ['integer', 'string'], minimum: 0, maximum: max, pattern: quantityUpTo(max),
  };
}

/** Where a value is one of those counts instead of its catalogue type. */
const COUNTS: Record<string, [string, Schema]> = {
  'eth_feeHistory/0': ['feeHistoryBlockCount', countDef('block count', `Number of blocks, at most ${LIMITS.feeHistoryMaxBlockCount} on the gateway.`, LIMITS.feeHistoryMaxBlockCount)],
  'traceFilter/count': ['traceCount', countDef('trace count', `Number of traces to return, at most ${LIMITS.traceFilterMaxCount} on the gateway.`, LIMITS.traceFilterMaxCount)],
};
const countRef = (where: string): string | undefined => COUNTS[where]?.[0];

const tags = (ts: readonly string[]): string => ts.map((t) => `"${t}"`).join(', ');
const BLOCK_ALTERNATIVES = (ts: readonly string[], hash = false): string =>
  `^(0x(0|[1-9a-fA-F]${hex}{0,15})${hash ? `|0x${hex}{64}` : ''}|${ts.join('|')})$`;

/**
 * A definition per value type: title from TYPE_LABELS, a description, and an errorMessage with the rules' wording (VS Code's JSON
 * service shows it instead of "String does not match the pattern of ..."). Each is ONE schema, with a type union where a value may
 * take several forms, rather than an anyOf: on an anyOf the JSON service reports the branch it guesses is closest, often a wrong one.
 */
function typeDefs(): Record<string, Schema> {
  const d = (type: ValueType, description: string, errorMessage: string | undefined, body: Schema): [string, Schema] =>
    [type, { title: TYPE_LABELS[type], description, ...(errorMessage ? { errorMessage } : {}), ...body }];
  const list = (type: ValueType, item: ValueType, what: string): [string, Schema] =>
    d(type, `An array of ${what}.`, `Expected an array of ${what}.`, { type: 'array', items: ref(item) });
  const ADDRESS = `^0x${hex}{40}$`;
  const HASH = `^0x${hex}{64}$`;
  const blockMessage = (ts: readonly string[], hash = false) =>
    `Expected a block number (a hex quantity such as "0x1b4")${hash ? ', a 32-byte block hash' : ''} or one of the tags ${tags(ts)}.`;
  return Object.fromEntries([
    d('quantity', 'A QUANTITY: "0x" and up to 64 hex digits, without leading zeros ("0x0", "0x1a").',
      'Expected a hex quantity such as "0x1a": "0x" and hex digits, without leading zeros.', { type: 'string', pattern: QUANTITY }),
    d('byte', 'A byte: "0x" and one or two hex digits ("0x2", "0x02"; execution-apis "byte").', 'Expected a byte: "0x" and 1 or 2 hex digits, such as "0x2".', {
      type: 'string', pattern: `^0x${hex}{1,2}$`,
    }),
    d('integerOrQuantity', 'A non-negative JSON integer, or a QUANTITY.', 'Expected a non-negative integer or a hex quantity such as "0x1a".', {
      type: ['integer', 'string'], minimum: 0, maximum: Number.MAX_SAFE_INTEGER, pattern: QUANTITY,
    }),
    d('address', 'A 20-byte address: "0x" and 40 hex digits.', 'Expected a 20-byte address: "0x" and 40 hex digits.', { type: 'string', pattern: ADDRESS }),
    d('addressOrNull', 'A 20-byte address, or null.', 'Expected a 20-byte address ("0x" and 40 hex digits) or null.', { type: ['string', 'null'], pattern: ADDRESS }),
    list('addressList', 'address', 'addresses'),
    d('addressOrList', 'An address, an array of addresses, or null.', 'Expected an address ("0x" and 40 hex digits), an array of addresses, or null.', {
      type: ['string', 'array', 'null'], pattern: ADDRESS, items: ref('address'),
    }),
    d('hash32', 'A 32-byte hash: "0x" and 64 hex digits.', 'Expected a 32-byte hash: "0x" and 64 hex digits.', { type: 'string', pattern: HASH }),
    list('hash32List', 'hash32', '32-byte hashes'),
    d('bytes', 'Hex data: "0x" and an even number of hex digits.', 'Expected hex data: "0x" and an even number of hex digits.', { type: 'string', pattern: `^0x(${hex}{2})*$` }),
    list('bytesList', 'bytes', 'hex data'),
    d('signedTransaction', 'A signed transaction, RLP-encoded: a type byte 0x01 to 0x04 then an RLP list (EIP-2718), or a legacy RLP list (first byte 0xc0 or above).',
      'Expected a signed transaction: "0x", then a type byte 0x01 to 0x04 and an RLP list (0xc0 or above), or an RLP list alone.', {
        type: 'string', pattern: `^0x(0[1-4][c-fC-F]${hex}|[c-fC-F]${hex})(${hex}{2})*$`,
      }),
    d('bytesMax32', 'Hex data of at most 32 bytes: "0x" and up to 64 hex digits.', 'Expected hex data of at most 32 bytes: "0x" and up to 64 hex digits.', {
      type: 'string', pattern: `^0x${hex}{0,64}$`,
    }),
    list('bytesMax32List', 'bytesMax32', 'storage keys (hex data of at most 32 bytes)'),
    d('boolean', 'true or false.', 'Expected true or false.', { type: 'boolean' }),
    d('block', `A block number (a QUANTITY of at most 64 bits) or one of the tags ${tags(BLOCK_TAGS)}.`, blockMessage(BLOCK_TAGS), {
      type: 'string', pattern: BLOCK_ALTERNATIVES(BLOCK_TAGS), examples: [...OFFERED.block],
    }),
    d('blockForRange', `A block number or one of the tags ${tags(RANGE_TAGS)} ("pending" is no bound of a range).`, blockMessage(RANGE_TAGS), {
      type: 'string', pattern: BLOCK_ALTERNATIVES(RANGE_TAGS), examples: [...OFFERED.blockForRange],
    }),
    d('blockOrHash', 'A block number, a block tag, or a 32-byte block hash.', blockMessage(BLOCK_TAGS, true), {
      type: 'string', pattern: BLOCK_ALTERNATIVES(BLOCK_TAGS, true), examples: [...OFFERED.blockOrHash],
    }),
    d('callObject', 'The transaction of eth_call and eth_estimateGas (execution-apis GenericTransaction).', undefined, objectDef('callObject')),
    d('logFilter', 'The filter of eth_getLogs: a block range or a block hash, addresses and topics.', undefined, {
      ...objectDef('logFilter'), ...excludesRange(),
    }),
    d('traceFilter', 'The filter of trace_filter: a block range (or a block hash), addresses, offset and count.', undefined, {
      ...objectDef('traceFilter'), ...excludesRange(),
    }),
    d('percentiles', 'Percentiles between 0 and 100, in strictly increasing order (each above the one before).', undefined, {
      type: 'array', items: { type: 'number', minimum: 0, maximum: 100, errorMessage: 'Expected a percentile: a number between 0 and 100.' },
    }),
    d('topics', 'At most 4 topic filters by position: null matches anything, a hash matches it, an array matches any of its hashes.', undefined, {
      type: 'array', maxItems: 4,
      items: {
        type: ['null', 'string', 'array'], pattern: HASH, items: { type: ['null', 'string'], pattern: HASH, errorMessage: 'Expected a 32-byte hash or null.' },
        errorMessage: 'Expected a topic filter: null, a 32-byte hash, or an array of hashes.',
      },
    }),
    d('accessList', 'An EIP-2930 access list: the addresses and storage keys the transaction touches.', undefined, {
      type: 'array',
      items: {
        type: 'object', required: ['address', 'storageKeys'], additionalProperties: false,
        properties: {
          address: { title: 'Address', description: 'An address the transaction touches.', $ref: '#/$defs/address' },
          storageKeys: { title: 'Storage keys', description: 'Storage slots of that address the transaction touches.', $ref: '#/$defs/hash32List' },
        },
      },
    }),
    d('authorizationList', 'EIP-7702 authorizations of a set-code transaction.', undefined, {
      type: 'array',
      items: {
        type: 'object', required: ['chainId', 'nonce', 'address', 'yParity', 'r', 's'],
        properties: Object.fromEntries([
          ['chainId', 'Chain id', 'Chain id the authorization is valid on.', 'quantity'],
          ['nonce', 'Nonce', 'Nonce of the authorizing account.', 'quantity'],
          ['address', 'Address', 'Address whose code the account delegates to.', 'address'],
          ['yParity', 'y parity', 'Signature y parity (execution-apis "byte").', 'byte'],
          ['r', 'r', 'Signature r.', 'quantity'],
          ['s', 's', 'Signature s.', 'quantity'],
        ].map(([k, title, description, type]) => [k, { title, description, $ref: `#/$defs/${type}` }])),
      },
    }),
    d('traceMode', 'How fromAddress and toAddress combine.', 'Expected "union" or "intersection".', { enum: [...OFFERED.traceMode] }),
  ]);
}

/**
 * null, or a value of the type: an if/else, so that a wrong value gets the type's own message (an anyOf would guess a branch).
 * VS Code's JSON service does not look inside if/else for completions, so the values it should offer (block tags, trace modes) are
 * lifted beside it as `examples`, which no validator checks.
 */
const orNull = (type: string): Schema => ({ if: { type: 'null' }, else: ref(type), ...(OFFERED[type] ? { examples: [...OFFERED[type]] } : {}) });

/** A param object: its members (any may be null, except in a call object where only "to" may), no others. */
function objectDef(type: ObjectType): Schema {
  const nullable = type !== 'callObject';
  const properties: Record<string, Schema> = {};
  for (const [k, spec] of Object.entries(OBJECT_KEYS[type])) {
    const typeName = countRef(`${type}/${k}`) ?? spec.type;
    const value = nullable && spec.type !== 'addressOrNull' && spec.type !== 'addressOrList' ? orNull(typeName) : ref(typeName);
    properties[k] = { title: k, description: spec.description, ...value };
  }
  return { type: 'object', properties, additionalProperties: false };
}

/** blockHash (not null) excludes fromBlock and toBlock (unless null). */
function excludesRange(): Schema {
  return {
    if: { required: ['blockHash'], properties: { blockHash: { not: { type: 'null' } } } },
    then: {
      properties: Object.fromEntries(['fromBlock', 'toBlock'].map((k) => [k, {
        title: k, description: 'Absent (or null) when "blockHash" is given: a block hash excludes a block range.', type: 'null',
        errorMessage: `"${k}" cannot be given with "blockHash": give either a block hash or a block range.`,
      }])),
    },
  };
}

/** The params of one method: positional, the required ones first; an optional one may be null. */
function paramsDef(m: MethodSpec): Schema {
  const required = m.params.filter((p) => p.required).length;
  const names = m.params.map((p) => (p.required ? p.name : `${p.name}?`)).join(', ');
  const s: Schema = {
    title: `${m.name} params`,
    description: m.params.length ? `[${names}]` : `${m.name} takes no params.`,
    type: 'array',
    errorMessage: `Expected an array of positional params${m.params.length ? ` [${names}]` : ' (empty for this method)'}.`,
  };
  if (m.params.length) {
    s.prefixItems = m.params.map((p, i) => {
      const type = countRef(`${m.name}/${i}`) ?? p.type;
      return { title: p.name, description: p.description, ...(p.required ? ref(type) : orNull(type)) };
    });
  }
  if (required) s.minItems = required;
  s.maxItems = m.params.length;
  return s;
}

/** When "method" is m: "params" must be m's params (and be there when one is required). */
function branch(m: MethodSpec): Schema {
  return {
    if: { type: 'object', required: ['method'], properties: { method: { const: m.name } } },
    then: {
      type: 'object',
      ...(m.params.some((p) => p.required) ? { required: ['params'] } : {}),
      properties: { params: ref(`params-${m.name}`) },
    },
  };
}

/**
 * The methods' branches as a decision tree: "is the method one of the first half?" then that half, else the other. A validator
 * evaluates about log2(33) = 6 conditions per request instead of 33 (vscode-json-languageservice spent 90 % of its time on the flat
 * list). Each leaf holds one or two methods.
 */
function dispatch(methods: readonly MethodSpec[]): Schema {
  if (methods.length <= 2) return methods.length === 1 ? branch(methods[0]) : { allOf: methods.map(branch) };
  const half = Math.ceil(methods.length / 2);
  return {
    if: { type: 'object', required: ['method'], properties: { method: { enum: methods.slice(0, half).map((m) => m.name) } } },
    then: dispatch(methods.slice(0, half)),
    else: dispatch(methods.slice(half)),
  };
}

function methodBranches(): Schema {
  return {
    title: 'Params of each supported method',
    description: 'When "method" is a supported method, "params" must match that method\'s positional params.',
    'x-edgekit': CHECKED_BY_RULES,
    ...dispatch(METHODS),
  };
}

/** The schema file with its generated parts replaced. */
export function withGeneratedParams(schema: Schema): Schema {
  const items = schema.items as Schema;
  const $defs: Record<string, Schema> = { methodParams: methodBranches() };
  for (const m of METHODS) $defs[`params-${m.name}`] = paramsDef(m);
  Object.assign($defs, typeDefs());
  for (const [name, def] of Object.values(COUNTS)) $defs[name] = def;
  const out: Schema = {};
  // Key order of the file: envelope first, generated parts last.
  for (const [k, v] of Object.entries(schema)) if (k !== 'allOf' && k !== '$defs') out[k] = k === 'items' ? { ...items, allOf: [ref('methodParams')] } : v;
  out.allOf = [ref('methodParams')];
  out.$defs = $defs;
  return out;
}

export const SCHEMA_FILE = path.resolve(__dirname, '..', 'schemas', 'jsonrpc-request.schema.json');

export function render(schema: Schema): string {
  return JSON.stringify(schema, null, 2) + '\n';
}

if (require.main === module) {
  const current = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as Schema;
  fs.writeFileSync(SCHEMA_FILE, render(withGeneratedParams(current)));
  console.log(`${path.relative(process.cwd(), SCHEMA_FILE)}: params of ${METHODS.length} methods`);
}
