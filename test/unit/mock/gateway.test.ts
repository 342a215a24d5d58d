import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { MockBackend } from '../../../mock/src/backend';
import { SUPPORTED_METHODS, UNSUPPORTED_METHODS } from '../../../server/src/core/rules/jsonrpc/params';
import { chainFor } from '../../../mock/src/chain';
import { post, result, rpc, start } from './helpers';
import type { Json } from './helpers';

let mock: MockBackend;
let gw: string;
before(async () => {
  mock = await start();
  gw = mock.gatewayUrl;
});
after(() => mock.close());

const chain = chainFor('mainnet')!;
const EOA = chain.eoas[0];
const CONTRACT = chain.contracts[0];

/** A block with transactions, contract calls, logs and nested traces, found by scanning the chain. */
function richBlock(): number {
  for (let n = 100; n < chain.head; n++) {
    const b = chain.block(n)!;
    if (b.txs.some((t) => t.logs.length) && b.txs.some((t) => t.trace.children.some((c) => c.children.length))) return n;
  }
  throw new Error('no rich block');
}

test('every supported method answers with a result', async () => {
  const n = richBlock();
  const b = chain.block(n)!;
  const hash = b.hash;
  const tx = b.txs[0].hash;
  const sample: Record<string, unknown[]> = {
    web3_clientVersion: [], web3_sha3: ['0x68656c6c6f20776f726c64'], net_version: [], net_listening: [], eth_syncing: [], eth_mining: [],
    eth_gasPrice: [], eth_feeHistory: ['0x4', 'latest', [25, 75]], eth_blockNumber: [], eth_chainId: [], eth_getBalance: [EOA, 'latest'],
    eth_getStorageAt: [CONTRACT, '0x0', 'latest'], eth_getTransactionCount: [EOA, 'latest'], eth_getBlockTransactionCountByHash: [hash],
    eth_getBlockTransactionCountByNumber: ['0x' + n.toString(16)], eth_getUncleCountByBlockHash: [hash], eth_getUncleCountByBlockNumber: ['latest'],
    eth_getCode: [CONTRACT, 'latest'], eth_sendRawTransaction: ['0x02f86b0180'], eth_call: [{ to: CONTRACT, input: '0x70a08231' + EOA.slice(2).padStart(64, '0') }, 'latest'],
    eth_estimateGas: [{ from: EOA, to: EOA, value: '0x1' }], eth_getBlockByHash: [hash, false], eth_getBlockByNumber: ['latest', true],
    eth_getTransactionByHash: [tx], eth_getTransactionByBlockHashAndIndex: [hash, '0x0'], eth_getTransactionByBlockNumberAndIndex: ['0x' + n.toString(16), '0x0'],
    eth_getTransactionReceipt: [tx], eth_getUncleByBlockHashAndIndex: [chain.blockHash(57), '0x0'], eth_getUncleByBlockNumberAndIndex: ['0x39', '0x0'],
    eth_getLogs: [{ fromBlock: '0x' + n.toString(16), toBlock: '0x' + n.toString(16) }], eth_getWork: [], eth_getProof: [CONTRACT, ['0x0'], 'latest'],
    trace_filter: [{ fromBlock: '0x' + n.toString(16), toBlock: '0x' + n.toString(16) }],
  };
  for (const m of SUPPORTED_METHODS) {
    assert.ok(m in sample, `no sample for ${m}`);
    const r = await rpc(gw, m, sample[m]);
    assert.equal(r.status, 200, m);
    assert.equal(r.json.error, undefined, `${m}: ${JSON.stringify(r.json.error)}`);
    assert.notEqual(r.json.result, undefined, m);
    assert.notEqual(r.json.result, null, m);
  }
});

test('simple methods: chain id, client, sha3 (real Keccak-256)', async () => {
  assert.equal(await result(gw, 'eth_chainId'), '0x1');
  assert.equal(await result(gw, 'net_version'), '1');
  assert.equal(await result(mock.url + '/v1/sepolia', 'eth_chainId'), '0xaa36a7');
  assert.equal(await result(gw, 'web3_sha3', ['0x']), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  assert.equal(await result(gw, 'web3_sha3', ['0x68656c6c6f20776f726c64']), '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
  assert.equal(await result(gw, 'eth_blockNumber'), '0x' + chain.head.toString(16));
});

test('blocks, transactions, receipts, logs and traces agree with each other', async () => {
  const n = richBlock();
  const byNumber = await result(gw, 'eth_getBlockByNumber', ['0x' + n.toString(16), true]);
  const byHash = await result(gw, 'eth_getBlockByHash', [byNumber.hash, true]);
  assert.deepEqual(byHash, byNumber);
  const parent = await result(gw, 'eth_getBlockByNumber', ['0x' + (n - 1).toString(16), false]);
  assert.equal(byNumber.parentHash, parent.hash);
  assert.equal(await result(gw, 'eth_getBlockTransactionCountByHash', [byNumber.hash]), '0x' + byNumber.transactions.length.toString(16));
  const receiptLogs: Json[] = [];
  for (const tx of byNumber.transactions) {
    assert.deepEqual(await result(gw, 'eth_getTransactionByHash', [tx.hash]), tx);
    const receipt = await result(gw, 'eth_getTransactionReceipt', [tx.hash]);
    assert.equal(receipt.blockHash, byNumber.hash);
    assert.equal(receipt.blockNumber, byNumber.number);
    assert.equal(receipt.transactionIndex, tx.transactionIndex);
    assert.equal(receipt.from, tx.from);
    assert.equal(receipt.to, tx.to);
    for (const l of receipt.logs) assert.equal(l.transactionHash, tx.hash);
    receiptLogs.push(...receipt.logs);
  }
  assert.ok(receiptLogs.length > 0);
  const logs = await result(gw, 'eth_getLogs', [{ blockHash: byNumber.hash }]);
  assert.deepEqual(logs, receiptLogs);
  const byRange = await result(gw, 'eth_getLogs', [{ fromBlock: byNumber.number, toBlock: byNumber.number, address: receiptLogs[0].address, topics: [receiptLogs[0].topics[0]] }]);
  assert.ok(byRange.length >= 1 && byRange.every((l: Json) => l.address === receiptLogs[0].address));
  const traces = await result(gw, 'trace_filter', [{ fromBlock: byNumber.number, toBlock: byNumber.number }]);
  const txHashes = new Set(byNumber.transactions.map((t: Json) => t.hash));
  assert.ok(traces.length > byNumber.transactions.length, 'nested traces expected');
  for (const t of traces) {
    assert.ok(txHashes.has(t.transactionHash));
    assert.equal(t.blockHash, byNumber.hash);
    assert.equal(t.blockNumber, n);
    assert.equal(typeof t.transactionPosition, 'number');
    assert.ok(Array.isArray(t.traceAddress));
    for (const k of ['from', 'callType', 'gas', 'input', 'to', 'value']) assert.equal(typeof t.action[k], 'string', k);
    assert.match(t.action.from, /^0x[0-9a-f]{40}$/);
    assert.match(t.action.to, /^0x[0-9a-f]{40}$/);
    assert.match(t.result.gasUsed, /^0x[0-9a-f]+$/);
    assert.equal(typeof t.subtraces, 'number');
    assert.equal(t.type, 'call');
  }
  assert.ok(traces.some((t: Json) => t.traceAddress.length === 2), 'a grandchild trace');
  const top = traces.filter((t: Json) => t.traceAddress.length === 0);
  assert.equal(top.length, byNumber.transactions.length);
});

test('trace_filter pages through one stable order with after/count, and filters by address', async () => {
  const range = { fromBlock: '0x100', toBlock: '0x180' };
  const all = await result(gw, 'trace_filter', [{ ...range, count: 200 }]);
  assert.equal(all.length, 200);
  const page1 = await result(gw, 'trace_filter', [{ ...range, count: 50 }]);
  const page2 = await result(gw, 'trace_filter', [{ ...range, after: 50, count: 50 }]);
  assert.deepEqual([...page1, ...page2], all.slice(0, 100));
  // "after" as a quantity, as the editor accepts it (any uint64): past the last trace the page is empty, not -32602.
  assert.deepEqual(await result(gw, 'trace_filter', [{ ...range, after: '0x32', count: 50 }]), page2);
  assert.deepEqual(await result(gw, 'trace_filter', [{ ...range, after: '0xffffffffffffffff', count: 1 }]), []);
  assert.deepEqual(await result(gw, 'trace_filter', [{ ...range, after: '0x20000000000000', count: 1 }]), []);
  // A null member means absent, as the editor (and its schema) read every optional filter member.
  assert.deepEqual(await result(gw, 'trace_filter', [{ ...range, after: null, count: null, mode: null, fromAddress: null, toAddress: null, blockHash: null }]), all);
  const from = all[0].action.from;
  const mine = await result(gw, 'trace_filter', [{ ...range, fromAddress: [from] }]);
  assert.ok(mine.length > 0 && mine.every((t: Json) => t.action.from === from));
  const tagged = await result(gw, 'trace_filter', [{ fromBlock: 'latest', toBlock: 'latest' }]);
  assert.ok(tagged.every((t: Json) => t.blockNumber === chain.head));
});

test('gateway limits: trace_filter range and count, eth_getLogs range, eth_feeHistory count', async () => {
  const cases: [string, unknown[], RegExp][] = [
    ['trace_filter', [{ fromBlock: '0x0', toBlock: '0x400' }], /800/],
    ['trace_filter', [{ fromBlock: 'earliest', toBlock: 'latest' }], /800/],
    ['trace_filter', [{ fromBlock: '0x0', toBlock: '0x1', count: 201 }], /200/],
    ['eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }], /800/],
    ['eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x320' }], /801 blocks.*800/],
    ['trace_filter', [{ fromBlock: '0x10', toBlock: '0x330' }], /801 blocks.*800/],
    ['eth_feeHistory', ['0xb', 'latest', []], /10/],
  ];
  for (const [m, params, re] of cases) {
    const r = await rpc(gw, m, params);
    assert.equal(r.status, 200);
    assert.equal(r.json.error?.code, -32005, `${m} ${JSON.stringify(params)}: ${JSON.stringify(r.json)}`);
    assert.match(r.json.error.message, re);
  }
  // At the edge: 800 blocks, both bounds included, pass (the editor's check measures the same).
  assert.equal((await rpc(gw, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x31f' }])).json.error, undefined);
  assert.equal((await rpc(gw, 'trace_filter', [{ fromBlock: '0x10', toBlock: '0x32f', count: 1 }])).json.error, undefined);
  // A range given by tags is measured once they resolve, the same way.
  const head = chain.head;
  const q = (n: number) => '0x' + n.toString(16);
  assert.equal((await rpc(gw, 'eth_getLogs', [{ fromBlock: q(head - 799), toBlock: 'latest' }])).json.error, undefined);
  assert.equal((await rpc(gw, 'eth_getLogs', [{ fromBlock: q(head - 800), toBlock: 'latest' }])).json.error?.code, -32005);
  // Beyond 2^53 a double cannot count the blocks: measured exactly, as the editor does (limit-large-numbers.json).
  assert.deepEqual(await result(gw, 'eth_getLogs', [{ fromBlock: '0x100000000000007f', toBlock: '0x100000000000039e' }]), []);
  const big = await rpc(gw, 'eth_getLogs', [{ fromBlock: '0x100000000000007f', toBlock: '0x100000000000039f' }]);
  assert.equal(big.json.error?.code, -32005);
  assert.match(big.json.error.message, /801 blocks/);
});

test('every unsupported method is HTTP 403 with a JSON-RPC error body', async () => {
  for (const m of UNSUPPORTED_METHODS) {
    const r = await rpc(gw, m, [], 7);
    assert.equal(r.status, 403, m);
    assert.equal(r.json.jsonrpc, '2.0');
    assert.equal(r.json.id, 7);
    assert.match(r.json.error.message, new RegExp(m));
  }
});

test('protocol errors: -32700, -32600, -32602; a method outside the supported list is refused with 403', async () => {
  const bad = await post(gw, '{"jsonrpc": "2.0", "method": ', true);
  assert.equal(bad.json.error.code, -32700);
  assert.equal(bad.json.id, null);
  assert.equal((await post(gw, { jsonrpc: '1.0', id: 1, method: 'eth_chainId' })).json.error.code, -32600);
  assert.equal((await post(gw, { jsonrpc: '2.0', id: 1 })).json.error.code, -32600);
  assert.equal((await post(gw, 42)).json.error.code, -32600);
  assert.equal((await post(gw, [])).json.error.code, -32600);
  assert.equal((await post(gw, { jsonrpc: '2.0', id: {}, method: 'eth_chainId' })).json.error.code, -32600);
  // Spec, "What the service does" 1: the gateway forwards the supported subset; "A method that is not supported is refused with
  // HTTP 403" (Cloudflare: "The gateway returns a 403 if a method is specified that is not supported"), listed as unsupported or not.
  const unknown = await rpc(gw, 'eth_doesNotExist');
  assert.equal(unknown.status, 403);
  assert.equal(unknown.json.error.code, -32004);
  assert.deepEqual(unknown.json.error.data, { method: 'eth_doesNotExist', httpStatus: 403 });
  assert.equal((await post(gw, { jsonrpc: '2.0', method: 'eth_subscribe', params: ['newHeads'] })).status, 403);
  const p = await rpc(gw, 'eth_getBalance', ['0x123', 'latest']);
  assert.equal(p.json.error.code, -32602);
  assert.match(p.json.error.message, /params\[0\]/);
  const missing = await rpc(gw, 'eth_getBlockByNumber', []);
  assert.equal(missing.json.error.code, -32602);
  const notArray = await post(gw, { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: { a: 1 } });
  assert.equal(notArray.json.error.code, -32602);
});

test('batches answer each member in order; notifications get no answer', async () => {
  const r = await post(gw, [
    { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
    { jsonrpc: '2.0', method: 'eth_blockNumber' },
    { jsonrpc: '2.0', id: 'b', method: 'nope' },
    5,
    { jsonrpc: '2.0', id: 3, method: 'eth_accounts' },
  ]);
  assert.equal(r.status, 200);
  assert.equal(r.json.length, 4);
  assert.deepEqual(r.json[0], { jsonrpc: '2.0', id: 1, result: '0x1' });
  assert.equal(r.json[1].id, 'b');
  assert.equal(r.json[1].error.code, -32004);
  assert.equal(r.json[2].error.code, -32600);
  assert.equal(r.json[3].error.code, -32004);
  const note = await post(gw, { jsonrpc: '2.0', method: 'eth_chainId' });
  assert.equal(note.status, 204);
});

test('a notification gets no answer even when it fails (JSON-RPC 2.0 section 4.1); a request that is not valid still does', async () => {
  // Bad params, and an error of the method itself (no state beyond the head).
  assert.equal((await post(gw, { jsonrpc: '2.0', method: 'eth_getBalance', params: ['0x12'] })).status, 204);
  assert.equal((await post(gw, { jsonrpc: '2.0', method: 'eth_getBalance', params: [EOA, '0xffffff'] })).status, 204);
  assert.equal((await post(gw, { jsonrpc: '2.0', method: 'eth_getLogs', params: [{ fromBlock: 'earliest', toBlock: 'latest' }] })).status, 204);
  const batch = await post(gw, [
    { jsonrpc: '2.0', method: 'eth_getBalance', params: ['0x12'] },
    { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['0x12'] },
  ]);
  assert.equal(batch.json.length, 1);
  assert.equal(batch.json[0].id, 2);
  assert.equal(batch.json[0].error.code, -32602);
  // Not a valid request object: answered, with id null (section 5).
  const invalid = await post(gw, { jsonrpc: '1.0', method: 'eth_chainId' });
  assert.equal(invalid.json.error.code, -32600);
  assert.equal(invalid.json.id, null);
});

test('"id": null is answered (JSON-RPC 2.0 section 4 allows it), alone and in a batch, with "id": null', async () => {
  // The editor's jsonrpc/null-id warning says the response carries null, like an error about a request whose id was unreadable.
  const one = await post(gw, { jsonrpc: '2.0', id: null, method: 'eth_chainId' });
  assert.equal(one.status, 200);
  assert.deepEqual(one.json, { jsonrpc: '2.0', id: null, result: '0x1' });
  const batch = await post(gw, [{ jsonrpc: '2.0', id: null, method: 'eth_chainId' }, { jsonrpc: '2.0', method: 'eth_chainId' }]);
  assert.deepEqual(batch.json, [{ jsonrpc: '2.0', id: null, result: '0x1' }]);
});

test('unknown block and transaction lookups return null; unknown networks are 404', async () => {
  assert.equal(await result(gw, 'eth_getBlockByNumber', ['0xffffff', false]), null);
  assert.equal(await result(gw, 'eth_getBlockByHash', ['0x' + '1'.repeat(64), false]), null);
  assert.equal(await result(gw, 'eth_getTransactionReceipt', ['0x' + '2'.repeat(64)]), null);
  const r = await rpc(mock.url + '/v1/nosuchnet', 'eth_chainId');
  assert.equal(r.status, 404);
  const get = await fetch(gw);
  assert.equal(get.status, 405);
});

test('a body over 1 MB is refused with 413', async () => {
  const r = await fetch(gw, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1024 * 1024 + 1) });
  assert.equal(r.status, 413);
});

test('fee history has one more base fee than blocks', async () => {
  const fh = await result(gw, 'eth_feeHistory', [4, '0x100', [10, 90]]);
  assert.equal(fh.oldestBlock, '0xfd');
  assert.equal(fh.baseFeePerGas.length, 5);
  assert.equal(fh.gasUsedRatio.length, 4);
  assert.equal(fh.reward.length, 4);
  assert.equal(fh.reward[0].length, 2);
  // Percentiles must increase strictly, as geth checks them (eth/gasprice/feehistory.go: "invalid reward percentile").
  const equal = await rpc(gw, 'eth_feeHistory', [4, '0x100', [10, 10, 90]]);
  assert.equal(equal.json.error?.code, -32602, JSON.stringify(equal.json));
  assert.match(equal.json.error.message, /params\[2\]\[1\]/);
  // A newest block past the head is an error, as in geth ("request beyond head block"), not the head's history.
  const beyond = await rpc(gw, 'eth_feeHistory', [4, '0x' + (chain.head + 1).toString(16), []]);
  assert.equal(beyond.json.error?.code, -32001, JSON.stringify(beyond.json));
  assert.match(beyond.json.error.message, /head/);
  assert.equal((await result(gw, 'eth_feeHistory', [4, '0x' + chain.head.toString(16), []])).oldestBlock, '0x' + (chain.head - 3).toString(16));
});
