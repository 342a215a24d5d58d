// The gateway's range defaults, range checks that only resolve at run time (tags, numbers past 2^53), block hashes, the
// eth_getLogs topic and trace_filter address filters, and protocol errors, called through handleGateway without a server. The cases come from a mutation sample of
// mock/src/gateway.ts (docs/architecture.md, "Mutation sample"): each holds a branch no other test held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RpcError, blockNumberOf, handleGateway, traceFilter, type RpcResponse } from '../../../mock/src/gateway';
import { chainFor } from '../../../mock/src/chain';

const chain = chainFor('mainnet')!;
const q = (n: number | bigint) => '0x' + n.toString(16);
type Log = { address: string; topics: string[]; blockNumber: string };
type Trace = { blockNumber: number; blockHash: string; action: { from: string; to: string } };

function call(method: string, params: unknown[]): RpcResponse {
  const r = handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  assert.equal(r.status, 200);
  return r.body as RpcResponse;
}

function result<T>(method: string, params: unknown[]): T {
  const r = call(method, params);
  assert.equal(r.error, undefined, `${method} ${JSON.stringify(params)}: ${JSON.stringify(r.error)}`);
  return r.result as T;
}

function error(method: string, params: unknown[]): { code: number; message: string } {
  const r = call(method, params);
  assert.ok(r.error, `${method} ${JSON.stringify(params)} should fail, got ${String(JSON.stringify(r.result)).slice(0, 200)}`);
  return r.error;
}

test('range defaults: eth_getLogs is the latest block, trace_filter runs from genesis', () => {
  const latest = result<Log[]>('eth_getLogs', [{}]);
  assert.ok(latest.every((l) => l.blockNumber === q(chain.head)), 'eth_getLogs without a range is the latest block only');
  assert.deepEqual(latest, result<Log[]>('eth_getLogs', [{ fromBlock: q(chain.head), toBlock: q(chain.head) }]));
  // trace_filter without fromBlock starts at block 0 (a range of toBlock + 1 blocks, under the 800 limit).
  const early = result<Trace[]>('trace_filter', [{ toBlock: '0x40' }]);
  assert.ok(early.length > 0);
  assert.deepEqual(early, result<Trace[]>('trace_filter', [{ fromBlock: '0x0', toBlock: '0x40' }]));
});

test('a range reversed once its tags resolve is -32602; a bound past 2^53 is counted exactly', () => {
  for (const m of ['eth_getLogs', 'trace_filter']) {
    const e = error(m, [{ fromBlock: 'latest', toBlock: '0x10' }]);
    assert.equal(e.code, -32602, m);
    assert.match(e.message, new RegExp(`params\\[0\\]\\.fromBlock ${q(chain.head)} \\("latest"\\) is greater than toBlock 0x10\\.`), m);
  }
  // 0x20000000000001 is 2^53 + 1, which a double reads as 2^53: a range from it to 2^53 + 800 is 800 blocks, not 801.
  const from = 2n ** 53n + 1n;
  assert.deepEqual(result('eth_getLogs', [{ fromBlock: q(from), toBlock: q(from + 799n) }]), []);
  const over = error('eth_getLogs', [{ fromBlock: q(from), toBlock: q(from + 800n) }]);
  assert.equal(over.code, -32005);
  assert.match(over.message, /801 blocks/);
});

test('an unknown block hash is -32001 for eth_getLogs and trace_filter; a known one is that block only', () => {
  const unknown = '0x' + 'ab'.repeat(32);
  for (const m of ['eth_getLogs', 'trace_filter']) {
    const e = error(m, [{ blockHash: unknown }]);
    assert.equal(e.code, -32001, m);
    assert.match(e.message, new RegExp(`Block ${unknown} not found`), m);
  }
  const n = Array.from({ length: 200 }, (_, i) => 300 + i).find((k) => chain.traces(chain.block(k)!).length > 0)!;
  const b = chain.block(n)!;
  const traces = result<Trace[]>('trace_filter', [{ blockHash: b.hash }]);
  assert.ok(traces.length > 0 && traces.every((t) => t.blockNumber === n && t.blockHash === b.hash));
  assert.deepEqual(traces, result<Trace[]>('trace_filter', [{ fromBlock: q(n), toBlock: q(n) }]));
});

test('eth_getLogs topics: a position matches any of its values, null or [] is a wildcard, and a log must have that position', () => {
  const range = { fromBlock: '0x100', toBlock: '0x1ff' };
  const all = result<Log[]>('eth_getLogs', [range]);
  const topic0s = [...new Set(all.map((l) => l.topics[0]))];
  assert.ok(topic0s.length >= 2, 'the range has logs of two events');
  const [a, b] = topic0s;
  const only = (t: string) => all.filter((l) => l.topics[0] === t);
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: [a] }]), only(a));
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: [[a, b]] }]), all.filter((l) => l.topics[0] === a || l.topics[0] === b));
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: [null] }]), all);
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: [[]] }]), all);
  // The second position alone: the logs whose topics[1] is one value, whatever their first topic.
  const t1 = all[0].topics[1];
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: [null, t1] }]), all.filter((l) => l.topics[1] === t1));
  // Logs here have three topics; a value at a fourth position matches none of them.
  assert.ok(all.every((l) => l.topics.length < 4));
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: [null, null, null, a] }]), []);
  // A topic that is no log's matches nothing.
  assert.deepEqual(result('eth_getLogs', [{ ...range, topics: ['0x' + '00'.repeat(32)] }]), []);
});

test('trace_filter addresses: a union by default, both with mode "intersection"', () => {
  const range = { fromBlock: '0x100', toBlock: '0x108' };
  const all = result<Trace[]>('trace_filter', [range]);
  assert.ok(all.length < 200, 'the range is under the default count');
  const from = all[0].action.from;
  const to = all.find((t) => t.action.from !== from && t.action.to !== all[0].action.to)!.action.to;
  const union = all.filter((t) => t.action.from === from || t.action.to === to);
  const both = all.filter((t) => t.action.from === from && t.action.to === to);
  assert.ok(union.length > both.length);
  assert.deepEqual(result('trace_filter', [{ ...range, fromAddress: [from], toAddress: [to] }]), union);
  assert.deepEqual(result('trace_filter', [{ ...range, fromAddress: [from], toAddress: [to], mode: 'union' }]), union);
  assert.deepEqual(result('trace_filter', [{ ...range, fromAddress: [from], toAddress: [to], mode: 'intersection' }]), both);
  // One side alone filters by that side, in either mode.
  for (const mode of [undefined, 'union', 'intersection']) {
    assert.deepEqual(result('trace_filter', [{ ...range, fromAddress: [from], mode }]), all.filter((t) => t.action.from === from), `fromAddress, mode ${mode}`);
    assert.deepEqual(result('trace_filter', [{ ...range, toAddress: [to], mode }]), all.filter((t) => t.action.to === to), `toAddress, mode ${mode}`);
  }
});

test('traceFilter refuses a count over 200 itself, not only behind the params check', () => {
  assert.equal(traceFilter(chain, { fromBlock: '0x100', toBlock: '0x140', count: 200 }).length, 200);
  assert.throws(() => traceFilter(chain, { fromBlock: '0x100', toBlock: '0x140', count: 201 }),
    (e: unknown) => e instanceof RpcError && e.code === -32005 && /count 201 is over the gateway's maximum of 200/.test(e.message));
});

test('protocol errors name what was wrong: an empty batch is 200 with -32600, an unexpected member is named', () => {
  const empty = handleGateway('mainnet', '[]');
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: the batch is empty.' } });
  const extra = handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [], foo: 1 }));
  assert.equal(extra.status, 200);
  assert.deepEqual(extra.body, { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid request: unexpected member "foo".' } });
  // A name is quoted as a value is: JSON-escaped and cut (a name of 100 000 characters with a quote came back whole, unescaped)
  const long = handleGateway('mainnet', `{"jsonrpc": "2.0", "id": 7, "method": "eth_chainId", "a\\"${'b'.repeat(100_000)}": 1}`);
  assert.equal((long.body as RpcResponse).error?.message, `Invalid request: unexpected member "a\\"${'b'.repeat(36)}….`);
});

test('a request without "jsonrpc" or "method" says the member is missing (it said "must be \"2.0\", not undefined")', () => {
  const noVersion = handleGateway('mainnet', JSON.stringify({ id: 1, method: 'eth_chainId', params: [] }));
  assert.deepEqual(noVersion.body, { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Invalid request: "jsonrpc" is missing; it must be "2.0".' } });
  const wrong = handleGateway('mainnet', JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'eth_chainId', params: [] }));
  assert.equal((wrong.body as RpcResponse).error?.message, 'Invalid request: "jsonrpc" must be "2.0", not "1.0".');
  const noMethod = handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 1, params: [] }));
  assert.equal((noMethod.body as RpcResponse).error?.message, 'Invalid request: "method" is missing.');
  const numberMethod = handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 5, params: [] }));
  assert.equal((numberMethod.body as RpcResponse).error?.message, 'Invalid request: "method" must be a string, not 5.');
  const longMethod = handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 1, method: Array(5000).fill(1), params: [] }));
  assert.equal((longMethod.body as RpcResponse).error?.message, `Invalid request: "method" must be a string, not [${'1,'.repeat(19)}1….`, 'cut at 40 characters');
  // Cut after a whole character: the 40th unit of the JSON is an emoji's first half, which was kept alone
  const emoji = handleGateway('mainnet', JSON.stringify({ jsonrpc: '😀'.repeat(30), id: 1, method: 'eth_chainId', params: [] }));
  assert.equal((emoji.body as RpcResponse).error?.message, `Invalid request: "jsonrpc" must be "2.0", not "${'😀'.repeat(19)}….`);
});

test('blockNumberOf: tags, quantities, hashes and its refusals', () => {
  assert.equal(blockNumberOf(chain, undefined), chain.head);
  assert.equal(blockNumberOf(chain, null, 'earliest'), 0);
  assert.equal(blockNumberOf(chain, 'pending'), chain.head);
  assert.equal(blockNumberOf(chain, 'safe'), chain.head - 32);
  assert.equal(blockNumberOf(chain, 'finalized'), chain.head - 64);
  assert.equal(blockNumberOf(chain, 17), 17);
  assert.equal(blockNumberOf(chain, '0x11'), 17);
  assert.equal(blockNumberOf(chain, chain.block(17)!.hash), 17);
  const refused = (ref: unknown, code: number) => assert.throws(() => blockNumberOf(chain, ref), (e: unknown) => e instanceof RpcError && e.code === code, JSON.stringify(ref));
  for (const ref of [-1, 1.5, 'newest', '0x', {}]) refused(ref, -32602);
  refused('0x' + 'cd'.repeat(32), -32001);
});

test('state past the head is -32001; a transaction by block and index is the one at that index', () => {
  const e = error('eth_getBalance', [chain.eoas[0], q(chain.head + 1)]);
  assert.equal(e.code, -32001);
  assert.match(e.message, new RegExp(`Block ${q(chain.head + 1)} not found; the head is ${q(chain.head)}`));
  const n = Array.from({ length: 100 }, (_, i) => 100 + i).find((k) => chain.block(k)!.txs.length >= 3)!;
  const block = result<{ transactions: { hash: string }[] }>('eth_getBlockByNumber', [q(n), true]);
  for (const i of [0, 1, 2]) {
    assert.equal(result<{ hash: string }>('eth_getTransactionByBlockNumberAndIndex', [q(n), q(i)]).hash, block.transactions[i].hash, `index ${i}`);
  }
});

test('traceFilter reads after and count as non-negative integers or quantities and refuses anything else', () => {
  const range = { fromBlock: '0x100', toBlock: '0x108' };
  assert.deepEqual(traceFilter(chain, { ...range, after: '0x2', count: '0x3' }), traceFilter(chain, { ...range, after: 2, count: 3 }));
  for (const bad of [{ count: 1.5 }, { count: -1 }, { after: {} }, { after: '2' }]) {
    assert.throws(() => traceFilter(chain, { ...range, ...bad }), (e: unknown) => e instanceof RpcError && e.code === -32602, JSON.stringify(bad));
  }
});

test('an unknown network is refused with the networks the gateway serves (a trailing slash names no network either)', () => {
  for (const network of ['goerli', 'mainnet/', '']) {
    const r = handleGateway(network, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }));
    assert.equal(r.status, 404);
    const message = (r.body as { error: { message: string } }).error.message;
    assert.match(message, new RegExp(`^Unknown network "${network.replace('/', '\\/')}"; the gateway serves /v1/mainnet and /v1/sepolia\\.$`), network);
  }
});

test('a range measured once its tags resolve names params[0], and where each bound came from (a tag, a default), in the message and in data', () => {
  const full = (method: string, params: unknown[]) => handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })).body as RpcResponse;
  const head = q(chain.head);
  const over = full('trace_filter', [{}]).error!;
  assert.equal(over.code, -32005);
  assert.equal(over.message, `Limit exceeded: params[0] covers blocks 0x0 (fromBlock's default) to ${head} (toBlock's default, "latest"), ${chain.head + 1} blocks (both bounds included); the gateway allows at most 800.`);
  assert.deepEqual(over.data, [{ path: [0], message: over.message.replace(/^Limit exceeded: /, '') }]);
  const tagged = full('eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'safe' }]).error!;
  assert.match(tagged.message, /^Limit exceeded: params\[0\] covers blocks 0x0 \("earliest"\) to 0x[0-9a-f]+ \("safe"\), /);
  assert.deepEqual((tagged.data as { path: unknown[] }[])[0].path, [0, 'toBlock']);
  const reversed = full('eth_getLogs', [{ fromBlock: 'latest', toBlock: '0x10' }]).error!;
  assert.equal(reversed.message, `Invalid params: params[0].fromBlock ${head} ("latest") is greater than toBlock 0x10.`);
  assert.deepEqual((reversed.data as { path: unknown[] }[])[0].path, [0, 'fromBlock']);
});

test('eth_feeHistory of 0 blocks is empty, from oldestBlock 0x0 (geth returns no blocks then), not a block past the head', () => {
  for (const newest of ['latest', '0x10']) {
    assert.deepEqual(result('eth_feeHistory', ['0x0', newest, [50]]), { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [], reward: [] }, newest);
  }
});

test('a refused method near a supported one (a case or a letter off) is refused with the name it likely meant; the 403 stays', () => {
  const refuse = (method: string) => handleGateway('mainnet', JSON.stringify({ jsonrpc: '2.0', id: 1, method }));
  const r = refuse('eth_blocknumber');
  assert.equal(r.status, 403);
  assert.equal((r.body as RpcResponse).error!.message, 'Method "eth_blocknumber" is not supported by the gateway; did you mean "eth_blockNumber"?');
  // A method of the unsupported list is refused as such, with no guess.
  assert.equal((refuse('eth_accounts').body as RpcResponse).error!.message, 'Method "eth_accounts" is not supported by the gateway.');
});
