// Mutation run of the differential schema check (test/unit/jsonrpc/schemaDiff.ts): each change below makes
// schemas/jsonrpc-request.schema.json disagree with the jsonrpc rules somewhere (looser or stricter), and the generated requests of
// the unit test must find every one. A mutation that survives means the generators miss a kind of value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { SCHEMA_FILE } from '../../scripts/gen-jsonrpc-schema';
import { compareOnGenerated, fullValidator } from '../unit/jsonrpc/schemaDiff';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- mutations reach into arbitrary schema nodes

const base = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as Json;

/** Deletes `required: [params]` from the first method branch that has one. */
function dropRequiredParams(x: unknown): boolean {
  if (!x || typeof x !== 'object') return false;
  const o = x as Json;
  if (Array.isArray(o.then?.required) && o.then.required.includes('params')) { delete o.then.required; return true; }
  return Object.values(o).some(dropRequiredParams);
}

const replacePattern = (d: Json, from: string, to: string) => {
  assert.ok(String(d.pattern).includes(from), `pattern ${d.pattern} has ${from}`);
  d.pattern = String(d.pattern).replace(from, to);
};

const MUTATIONS: Record<string, (d: Json) => void> = {
  'hash of 63 digits': (d) => { d.hash32.pattern = '^0x[0-9a-fA-F]{63,64}$'; },
  'address of 41 digits': (d) => { d.address.pattern = '^0x[0-9a-fA-F]{40,41}$'; },
  'bytes of odd length': (d) => { d.bytes.pattern = '^0x[0-9a-fA-F]*$'; },
  'quantity with leading zeros': (d) => { d.quantity.pattern = '^0x[0-9a-fA-F]{1,64}$'; },
  'quantity of 65 digits': (d) => replacePattern(d.quantity, '{0,63}', '{0,64}'),
  'block number of 17 digits': (d) => { for (const k of ['block', 'blockForRange', 'blockOrHash']) replacePattern(d[k], '{0,15}', '{0,16}'); },
  'block tag "Latest"': (d) => replacePattern(d.block, '|latest', '|latest|Latest'),
  'range bound "pending"': (d) => replacePattern(d.blockForRange, '|latest', '|latest|pending'),
  'block hash of 63 digits': (d) => replacePattern(d.blockOrHash, '{64}', '{63,64}'),
  'more than 4 topics': (d) => { delete d.topics.maxItems; },
  'anything inside a topic list': (d) => { delete d.topics.items.items; },
  'negative percentile': (d) => { delete d.percentiles.items.minimum; },
  'percentile over 100': (d) => { delete d.percentiles.items.maximum; },
  'integer percentiles only': (d) => { d.percentiles.items.type = 'integer'; },
  'negative integer count': (d) => { d.integerOrQuantity.minimum = -5; },
  'integer count over 2^53': (d) => { delete d.integerOrQuantity.maximum; },
  'fee history block count 11': (d) => { d.feeHistoryBlockCount.maximum = 11; },
  'trace count 0xc9': (d) => replacePattern(d.traceCount, '[cC][0-7]|[cC]8', '[cC][0-9]'),
  'trace count 201': (d) => { d.traceCount.maximum = 201; },
  'eth_getBalance without params': (d) => { delete d['params-eth_getBalance'].minItems; },
  'eth_getBalance with 3 params': (d) => { delete d['params-eth_getBalance'].maxItems; },
  'eth_call with 3 params': (d) => { d['params-eth_call'].maxItems = 3; },
  'eth_getStorageAt with 1 param': (d) => { d['params-eth_getStorageAt'].minItems = 1; },
  'a method\'s params not required': (d) => assert.ok(dropRequiredParams(d.methodParams)),
  'an optional param not null': (d) => { d['params-eth_getBalance'].prefixItems[1] = { $ref: '#/$defs/blockOrHash' }; },
  'unknown call object members': (d) => { d.callObject.additionalProperties = true; },
  'a filter bound not null': (d) => { d.logFilter.properties.fromBlock = { title: 'x', description: 'x', $ref: '#/$defs/blockForRange' }; },
  'blockHash with a log range': (d) => { delete d.logFilter.if; delete d.logFilter.then; },
  'blockHash with a trace range': (d) => { delete d.traceFilter.if; delete d.traceFilter.then; },
  'null blockHash excludes a range': (d) => { d.logFilter.if = { required: ['blockHash'], properties: { blockHash: true } }; },
  'authorization without s': (d) => { d.authorizationList.items.required.pop(); },
  'authorization r, s, nonce, yParity anything': (d) => { for (const k of ['r', 's', 'nonce', 'yParity']) d.authorizationList.items.properties[k] = true; },
  'authorization without other members (stricter)': (d) => { d.authorizationList.items.additionalProperties = false; },
  'access entry with other members': (d) => { d.accessList.items.additionalProperties = true; },
  'access entry without storageKeys': (d) => { d.accessList.items.required = ['address']; },
  'anything in an address list': (d) => { delete d.addressOrList.items; },
  'address or list not null (stricter)': (d) => { d.addressOrList.type = ['string', 'array']; },
  'anything in a data list': (d) => { d.bytesList.items = true; },
  'anything in a hash list': (d) => { d.hash32List.items = true; },
  'anything in a storage key list': (d) => { d.bytesMax32List.items = true; },
  'trace mode "Union"': (d) => { d.traceMode.enum.push('Union'); },
  // Found by a review: boundary values the generators did not make at first.
  'storage key of 65 digits': (d) => replacePattern(d.bytesMax32, '{0,64}', '{0,65}'),
  'count quantity of 65 digits': (d) => replacePattern(d.integerOrQuantity, '{0,63}', '{0,64}'),
  'count quantity of at most 63 digits': (d) => replacePattern(d.integerOrQuantity, '{0,63}', '{0,62}'),
  'integer count below 2^53 - 1': (d) => { d.integerOrQuantity.maximum = Number.MAX_SAFE_INTEGER - 1; },
  'percentile 0 excluded': (d) => { delete d.percentiles.items.minimum; d.percentiles.items.exclusiveMinimum = 0; },
  'percentile 100 excluded': (d) => { delete d.percentiles.items.maximum; d.percentiles.items.exclusiveMaximum = 100; },
  'eth_getBlockByNumber takes a block hash': (d) => { d['params-eth_getBlockByNumber'].prefixItems[0] = { $ref: '#/$defs/blockOrHash' }; },
};

const seed = Number(process.env.FUZZ_SEED ?? 20261123);

for (const [name, mutate] of Object.entries(MUTATIONS)) {
  test(`schema mutation is caught: ${name}`, () => {
    const schema = structuredClone(base);
    mutate(schema.$defs);
    const validate = fullValidator(schema);
    assert.throws(() => compareOnGenerated(validate, { seed, runs: 2000, objectRuns: 10000 }), /the rules miss|the schema accepts/,
      `"${name}" survived: the generated requests never tell the mutated schema from the rules`);
  });
}
