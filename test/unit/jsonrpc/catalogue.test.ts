// The catalogue against the spec's lists, the schema's annotations, and the shipped examples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { METHODS, OBJECT_KEYS, SUPPORTED_METHODS, UNSUPPORTED_INSTEAD, UNSUPPORTED_METHODS, UNSUPPORTED_WHAT, UNSUPPORTED_WHY, signature } from '../../../server/src/core/rules/jsonrpc/catalogue';
import { validateText } from '../../../server/src/core/validate';
import schema from '../../../schemas/jsonrpc-request.schema.json';
import { QUANTITY_RESULT_METHODS } from '../../../server/src/protocol';

// Copied verbatim from the spec (Endpoints > Gateway).
const SPEC_SUPPORTED = 'web3_clientVersion, web3_sha3, net_version, net_listening, eth_syncing, eth_mining, eth_gasPrice, eth_feeHistory, eth_blockNumber, eth_chainId, eth_getBalance, eth_getStorageAt, eth_getTransactionCount, eth_getBlockTransactionCountByHash, eth_getBlockTransactionCountByNumber, eth_getUncleCountByBlockHash, eth_getUncleCountByBlockNumber, eth_getCode, eth_sendRawTransaction, eth_call, eth_estimateGas, eth_getBlockByHash, eth_getBlockByNumber, eth_getTransactionByHash, eth_getTransactionByBlockHashAndIndex, eth_getTransactionByBlockNumberAndIndex, eth_getTransactionReceipt, eth_getUncleByBlockHashAndIndex, eth_getUncleByBlockNumberAndIndex, eth_getLogs, eth_getWork, eth_getProof, trace_filter';
const SPEC_UNSUPPORTED = 'net_peerCount, eth_protocolVersion, eth_coinbase, eth_hashrate, eth_accounts, eth_sign, eth_sendTransaction, eth_getCompilers, eth_compileLLL, eth_compileSolidity, eth_compileSerpent, eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, eth_uninstallFilter, eth_getFilterChanges, eth_getFilterLogs, eth_submitWork, eth_submitHashrate';

test('supported and unsupported lists match the spec', () => {
  assert.deepEqual([...SUPPORTED_METHODS], SPEC_SUPPORTED.split(', '));
  assert.deepEqual([...UNSUPPORTED_METHODS], SPEC_UNSUPPORTED.split(', '));
});

test('every unsupported method says why the gateway refuses it, and what to ask instead names a supported method', () => {
  assert.deepEqual(Object.keys(UNSUPPORTED_WHY).sort(), [...UNSUPPORTED_METHODS].sort());
  assert.deepEqual(Object.keys(UNSUPPORTED_WHAT).sort(), [...UNSUPPORTED_METHODS].sort());
  for (const [name, why] of Object.entries(UNSUPPORTED_WHY)) {
    assert.match(why, /^[A-Z].*\.$/, name);
    for (const named of why.matchAll(/"(\w+)"/g)) assert.ok(SUPPORTED_METHODS.includes(named[1]), `${name}: ${named[1]}`);
  }
  for (const instead of Object.values(UNSUPPORTED_INSTEAD)) assert.ok(SUPPORTED_METHODS.includes(instead), instead);
});

test('the client\'s list of the methods that answer a quantity is the catalogue\'s (the client imports protocol.ts only)', () => {
  assert.deepEqual([...QUANTITY_RESULT_METHODS], METHODS.filter((m) => m.result.startsWith('QUANTITY')).map((m) => m.name));
});

test('every method and param object member is documented', () => {
  for (const m of METHODS) {
    assert.ok(m.description.endsWith('.'), m.name);
    assert.ok(m.result.length > 0, m.name);
    for (const p of m.params) assert.ok(p.description.endsWith('.'), `${m.name} ${p.name}`);
    // Optional params only after required ones (positional).
    const firstOptional = m.params.findIndex((p) => !p.required);
    assert.ok(firstOptional < 0 || m.params.slice(firstOptional).every((p) => !p.required), m.name);
  }
  for (const keys of Object.values(OBJECT_KEYS)) for (const [k, spec] of Object.entries(keys)) assert.ok(spec.description.endsWith('.'), k);
  assert.equal(signature(METHODS.find((m) => m.name === 'eth_getBalance')!), 'eth_getBalance(Address: address (20 bytes), Block?: block number, tag or block hash)');
});

test('the trace_filter members are the spec\'s, plus mode and blockHash from Erigon/Nethermind', () => {
  assert.deepEqual(Object.keys(OBJECT_KEYS.traceFilter), ['fromBlock', 'toBlock', 'fromAddress', 'toAddress', 'after', 'count', 'mode', 'blockHash']);
});

test('schema: $id, draft 2020-12, title and description on every property', () => {
  assert.equal(schema.$id, 'https://edgekit.dev/schemas/jsonrpc-request.schema.json');
  assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  const props = schema.properties as Record<string, { title?: string; description?: string }>;
  assert.deepEqual(Object.keys(props), ['$schema', 'jsonrpc', 'method', 'params', 'id']);
  for (const [k, p] of Object.entries(props)) assert.ok(p.title && p.description, k);
  assert.ok(schema.items.title && schema.items.description);
});

test('the shipped examples have no problems', () => {
  const dir = path.resolve(__dirname, '../../../examples');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.rpc.json'));
  assert.ok(files.length >= 3);
  for (const f of files) assert.deepEqual(validateText(fs.readFileSync(path.join(dir, f), 'utf8'), 'jsonrpc-request'), [], f);
});
