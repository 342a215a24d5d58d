// The per-method params of schemas/jsonrpc-request.schema.json against the jsonrpc rules (params.ts): generated from the catalogue,
// left out of EdgeKit's own ajv run, and on generated requests the full schema and the rules agree: whatever the schema refuses, the
// rules report as an error; whatever the schema accepts, the rules refuse only for what no schema can say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { quantityUpTo, render, SCHEMA_FILE, withGeneratedParams } from '../../../scripts/gen-jsonrpc-schema';
import { validatorFor } from '../../../server/src/core/schema/registry';
import { validateText } from '../../../server/src/core/validate';
import { getLanguageService, TextDocument, type JSONSchema } from 'vscode-json-languageservice';
import { METHODS } from '../../../server/src/core/rules/jsonrpc/catalogue';
import { A, compareOnGenerated, fullValidator, H, request } from './schemaDiff';

const schemaText = fs.readFileSync(SCHEMA_FILE, 'utf8');
const schema = JSON.parse(schemaText) as Record<string, unknown>;

const full = fullValidator(schema);

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

test('quantityUpTo: exactly the quantities 0..n, either case, no leading zeros', () => {
  for (const n of [1, 9, 10, 15, 16, 17, 200, 255, 256, 800, 4095]) {
    const re = new RegExp(quantityUpTo(n));
    for (let v = 0; v <= 5000; v++) {
      const h = v.toString(16);
      assert.equal(re.test('0x' + h), v <= n, `${n}: 0x${h}`);
      assert.equal(re.test('0x' + h.toUpperCase()), v <= n, `${n}: 0x${h.toUpperCase()}`);
      assert.equal(re.test('0x0' + h), false, `${n}: 0x0${h} has a leading zero`);
    }
    for (const bad of ['0x', '0X1', '1', '0x-1', '0xg']) assert.equal(re.test(bad), false, `${n}: ${bad}`);
  }
});

test('on generated requests, the full schema refuses exactly what the rules report as schema-expressible errors', () => {
  // Methods that take an object (up to 19 members) get more runs. About 17 000 requests here, 53 000 under EDGEKIT_STRESS=1
  // (test/stress/generated.stress.ts).
  const stress = process.env.EDGEKIT_STRESS === '1';
  const seen = compareOnGenerated(full, { seed: 20261123, runs: stress ? 1000 : 300, objectRuns: stress ? 6000 : 2000 });
  // Both sides of the comparison are exercised (a generator drifting to all-valid or all-invalid would prove nothing).
  const floor = stress ? 10000 : 3000;
  assert.ok(seen.refused > floor && seen.accepted > floor, JSON.stringify(seen));
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
    ['trace_filter', [{ count: 201 }], false], // the gateway's limits on a single value are in the schema too
    ['trace_filter', [{ count: '0xC8' }], true],
    ['trace_filter', [{ count: '0xc9' }], false],
    ['eth_feeHistory', ['0xA', 'latest', []], true],
    ['eth_feeHistory', [11, 'latest', []], false],
    ['eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1000' }], true], // a range spans two values: only the rules say it
    ['eth_blockNumber', undefined, true],
    ['eth_blockNumber', [], true],
    ['eth_getBalance', undefined, false],
    ['eth_getBalance', { address: A }, false],
  ];
  for (const [method, params, ok] of cases) assert.equal(full(request(method, params)), ok, `${method} ${JSON.stringify(params)}`);
});

test('VS Code\'s JSON service with the shipped schema: the rules\' wording, and the tags and modes offered as completions', async () => {
  const ls = getLanguageService({});
  ls.configure({ validate: true, schemas: [{ uri: 'file:///schemas/jsonrpc-request.schema.json', fileMatch: ['*.rpc.json'], schema: schema as JSONSchema }] });
  const doc = (text: string) => TextDocument.create('file:///plain.rpc.json', 'json', 1, text);
  const problems = async (params: unknown) => {
    const td = doc(JSON.stringify(request('eth_getLogs', params)));
    return (await ls.doValidation(td, ls.parseJSONDocument(td))).map((d) => d.message);
  };
  assert.deepEqual(await problems([{ fromBlock: 'lastest' }]), ['Expected a block number (a hex quantity such as "0x1b4") or one of the tags "latest", "earliest", "safe", "finalized".']);
  assert.deepEqual(await problems([{ address: '0x12' }]), ['Expected an address ("0x" and 40 hex digits), an array of addresses, or null.']);
  const offered = async (method: string, text: string) => {
    const t = `{"jsonrpc": "2.0", "id": 1, "method": "${method}", "params": [${text}]}`;
    const td = doc(t);
    const list = await ls.doComplete(td, td.positionAt(t.indexOf('""') + 1), ls.parseJSONDocument(td));
    return (list?.items ?? []).map((i) => i.label);
  };
  const modes = await offered('trace_filter', '{"mode": ""}');
  for (const m of ['"union"', '"intersection"']) assert.ok(modes.includes(m), `${m} offered: ${modes.join(' ')}`);
  const bounds = await offered('eth_getLogs', '{"fromBlock": ""}');
  for (const t of ['"latest"', '"safe"']) assert.ok(bounds.includes(t), `${t} offered: ${bounds.join(' ')}`);
});
