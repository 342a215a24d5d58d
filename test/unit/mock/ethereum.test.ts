// The mock gateway as Ethereum libraries use it: ethers (v6) and viem (v2) call every supported method (through the library's own
// API where it has one, its raw request otherwise: one table per library, which must cover the gateway's supported list), detect
// the chain (eth_chainId and net_version agree, mainnet and sepolia), batch several calls in one POST, and turn the gateway's
// errors into their own error classes: the refused methods (HTTP 403 with a JSON-RPC body, alone; a -32004 item in a batch), an
// unknown method, bad params, a gateway limit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ethers } from 'ethers';
import {
  createPublicClient, http, InvalidParamsRpcError, keccak256, LimitExceededRpcError, MethodNotSupportedRpcError,
  type PublicClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mainnet, sepolia } from 'viem/chains';
import { catalogue } from '../../../server/src/core';
import type { MockBackend } from '../../../mock/src/backend';
import { chainFor } from '../../../mock/src/chain';
import { start } from './helpers';

const SUPPORTED = catalogue.gateway.supported;
const UNSUPPORTED = catalogue.gateway.unsupported;

let m: MockBackend;
let provider: ethers.JsonRpcProvider;
let client: PublicClient;
let batched: PublicClient;
let posts = 0;
const chain = chainFor('mainnet')!;
const EOA = chain.eoas[0] as `0x${string}`;
const CONTRACT = chain.contracts[0] as `0x${string}`;
const q = (n: number) => ethers.toQuantity(n);

before(async () => {
  m = await start({ log: (line) => { if (/^POST \/v1\/mainnet /.test(line)) posts++; } });
  provider = new ethers.JsonRpcProvider(m.gatewayUrl, 1, { staticNetwork: ethers.Network.from(1), batchMaxCount: 10 });
  // Alone, a refused method is the gateway's HTTP 403; viem batches only when asked to, as the second client does.
  client = createPublicClient({ chain: mainnet, transport: http(m.gatewayUrl, { retryCount: 0 }) }) as PublicClient;
  batched = createPublicClient({ chain: mainnet, transport: http(m.gatewayUrl, { batch: true, retryCount: 0 }) }) as PublicClient;
});
after(async () => {
  provider.destroy();
  await m.close();
});

/** A block of the synthetic chain near the head with transactions (so receipts, logs and traces), and one with an uncle. */
function busyBlock(): number {
  for (let n = chain.head; n > chain.head - 50; n--) if (chain.txCount(n) > 0) return n;
  throw new Error('no block with transactions near the head');
}
const UNCLE_BLOCK = 57;

/** Calls of one library, by the gateway method each makes; each checks what comes back. */
type Calls<P> = Record<string, (p: P) => Promise<void>>;

const ethersCalls: Calls<ethers.JsonRpcProvider> = {
  web3_clientVersion: async (p) => assert.match(await p.send('web3_clientVersion', []), /^EdgeKit-Mock\//),
  web3_sha3: async (p) => assert.equal(await p.send('web3_sha3', ['0x68656c6c6f']), ethers.keccak256('0x68656c6c6f')),
  net_version: async (p) => assert.equal(await p.send('net_version', []), String((await p.getNetwork()).chainId)),
  net_listening: async (p) => assert.equal(await p.send('net_listening', []), true),
  eth_syncing: async (p) => assert.equal(await p.send('eth_syncing', []), false),
  eth_mining: async (p) => assert.equal(await p.send('eth_mining', []), false),
  eth_gasPrice: async (p) => assert.equal(typeof (await p.getFeeData()).gasPrice, 'bigint'),
  eth_feeHistory: async (p) => assert.equal((await p.send('eth_feeHistory', ['0x2', 'latest', [50]])).baseFeePerGas.length, 3),
  eth_blockNumber: async (p) => assert.equal(await p.getBlockNumber(), chain.head),
  eth_chainId: async () => {
    // Without a static network, ethers asks eth_chainId.
    const detecting = new ethers.JsonRpcProvider(m.gatewayUrl);
    try { assert.equal((await detecting.getNetwork()).chainId, 1n); } finally { detecting.destroy(); }
  },
  eth_getBalance: async (p) => assert.equal(await p.getBalance(EOA), chain.balance(EOA, chain.head)),
  eth_getStorageAt: async (p) => assert.match(await p.getStorage(CONTRACT, 0), /^0x[0-9a-f]{64}$/),
  eth_getTransactionCount: async (p) => assert.equal(await p.getTransactionCount(EOA), chain.nonce(EOA, chain.head)),
  eth_getBlockTransactionCountByHash: async (p) => assert.equal(await p.send('eth_getBlockTransactionCountByHash', [chain.blockHash(busyBlock())]), q(chain.txCount(busyBlock()))),
  eth_getBlockTransactionCountByNumber: async (p) => assert.equal(await p.send('eth_getBlockTransactionCountByNumber', [q(busyBlock())]), q(chain.txCount(busyBlock()))),
  eth_getUncleCountByBlockHash: async (p) => assert.equal(await p.send('eth_getUncleCountByBlockHash', [chain.blockHash(UNCLE_BLOCK)]), '0x1'),
  eth_getUncleCountByBlockNumber: async (p) => assert.equal(await p.send('eth_getUncleCountByBlockNumber', [q(UNCLE_BLOCK)]), '0x1'),
  eth_getCode: async (p) => assert.notEqual(await p.getCode(CONTRACT), '0x'),
  eth_sendRawTransaction: async (p) => {
    // ethers checks that the hash the gateway answers is the signed transaction's own.
    const signed = await ethers.Wallet.createRandom().signTransaction({ to: EOA, value: 1n, gasLimit: 21000n, gasPrice: 1_000_000_000n, nonce: 0, chainId: 1n });
    assert.equal((await p.broadcastTransaction(signed)).hash, ethers.keccak256(signed));
  },
  eth_call: async (p) => assert.match(await p.call({ to: CONTRACT, data: '0x70a08231' + EOA.slice(2).padStart(64, '0') }), /^0x[0-9a-f]{64}$/),
  eth_estimateGas: async (p) => assert.equal(await p.estimateGas({ from: EOA, to: EOA, value: 1 }), 21000n),
  eth_getBlockByHash: async (p) => assert.equal((await p.getBlock(chain.blockHash(busyBlock())))?.number, busyBlock()),
  eth_getBlockByNumber: async (p) => {
    const block = await p.getBlock(busyBlock(), true);
    assert.equal(block?.prefetchedTransactions.length, chain.txCount(busyBlock()));
    assert.equal((await p.getBlock('finalized'))?.number, chain.head - 64);
  },
  eth_getTransactionByHash: async (p) => assert.equal((await p.getTransaction(chain.txHash(busyBlock(), 0)))?.blockNumber, busyBlock()),
  eth_getTransactionByBlockHashAndIndex: async (p) => assert.equal((await p.send('eth_getTransactionByBlockHashAndIndex', [chain.blockHash(busyBlock()), '0x0'])).hash, chain.txHash(busyBlock(), 0)),
  eth_getTransactionByBlockNumberAndIndex: async (p) => assert.equal((await p.send('eth_getTransactionByBlockNumberAndIndex', [q(busyBlock()), '0x0'])).hash, chain.txHash(busyBlock(), 0)),
  eth_getTransactionReceipt: async (p) => assert.equal((await p.getTransactionReceipt(chain.txHash(busyBlock(), 0)))?.blockNumber, busyBlock()),
  eth_getUncleByBlockHashAndIndex: async (p) => assert.equal((await p.send('eth_getUncleByBlockHashAndIndex', [chain.blockHash(UNCLE_BLOCK), '0x0'])).hash, chain.uncleHash(UNCLE_BLOCK, 0)),
  eth_getUncleByBlockNumberAndIndex: async (p) => assert.equal((await p.send('eth_getUncleByBlockNumberAndIndex', [q(UNCLE_BLOCK), '0x0'])).hash, chain.uncleHash(UNCLE_BLOCK, 0)),
  eth_getLogs: async (p) => {
    const logs = await p.getLogs({ fromBlock: busyBlock() - 20, toBlock: busyBlock() });
    assert.ok(logs.length > 0 && logs.every((l) => l.blockNumber >= busyBlock() - 20));
  },
  eth_getWork: async (p) => assert.equal((await p.send('eth_getWork', [])).length, 3),
  eth_getProof: async (p) => assert.equal((await p.send('eth_getProof', [CONTRACT, ['0x0'], 'latest'])).address, CONTRACT),
  trace_filter: async (p) => assert.equal((await p.send('trace_filter', [{ fromBlock: q(busyBlock()), toBlock: q(busyBlock()), count: 2 }])).length, 2),
};

const viemCalls: Calls<PublicClient> = {
  web3_clientVersion: async (c) => assert.match(await c.request({ method: 'web3_clientVersion' }), /^EdgeKit-Mock\//),
  web3_sha3: async (c) => assert.equal(await c.request({ method: 'web3_sha3', params: ['0x68656c6c6f'] }), keccak256('0x68656c6c6f')),
  net_version: async (c) => assert.equal(await c.request({ method: 'net_version' } as never), String(await c.getChainId())),
  net_listening: async (c) => assert.equal(await c.request({ method: 'net_listening' }), true),
  eth_syncing: async (c) => assert.equal(await c.request({ method: 'eth_syncing' } as never), false),
  eth_mining: async (c) => assert.equal(await c.request({ method: 'eth_mining' } as never), false),
  eth_gasPrice: async (c) => assert.equal(typeof (await c.getGasPrice()), 'bigint'),
  eth_feeHistory: async (c) => assert.equal((await c.getFeeHistory({ blockCount: 2, rewardPercentiles: [50] })).baseFeePerGas.length, 3),
  eth_blockNumber: async (c) => assert.equal(await c.getBlockNumber(), BigInt(chain.head)),
  eth_chainId: async (c) => assert.equal(await c.getChainId(), 1),
  eth_getBalance: async (c) => assert.equal(await c.getBalance({ address: EOA }), chain.balance(EOA, chain.head)),
  eth_getStorageAt: async (c) => assert.match(String(await c.getStorageAt({ address: CONTRACT, slot: '0x0' })), /^0x[0-9a-f]{64}$/),
  eth_getTransactionCount: async (c) => assert.equal(await c.getTransactionCount({ address: EOA }), chain.nonce(EOA, chain.head)),
  eth_getBlockTransactionCountByHash: async (c) => assert.equal(await c.getBlockTransactionCount({ blockHash: chain.blockHash(busyBlock()) as `0x${string}` }), chain.txCount(busyBlock())),
  eth_getBlockTransactionCountByNumber: async (c) => assert.equal(await c.getBlockTransactionCount({ blockNumber: BigInt(busyBlock()) }), chain.txCount(busyBlock())),
  eth_getUncleCountByBlockHash: async (c) => assert.equal(await c.request({ method: 'eth_getUncleCountByBlockHash', params: [chain.blockHash(UNCLE_BLOCK)] } as never), '0x1'),
  eth_getUncleCountByBlockNumber: async (c) => assert.equal(await c.request({ method: 'eth_getUncleCountByBlockNumber', params: [q(UNCLE_BLOCK)] } as never), '0x1'),
  eth_getCode: async (c) => assert.ok(await c.getCode({ address: CONTRACT })),
  eth_sendRawTransaction: async (c) => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await account.signTransaction({ to: EOA, value: 1n, gas: 21000n, gasPrice: 1_000_000_000n, nonce: 0, chainId: 1, type: 'legacy' });
    assert.equal(await c.sendRawTransaction({ serializedTransaction: signed }), keccak256(signed));
  },
  eth_call: async (c) => assert.match(String((await c.call({ to: CONTRACT, data: `0x70a08231${EOA.slice(2).padStart(64, '0')}` })).data), /^0x[0-9a-f]{64}$/),
  eth_estimateGas: async (c) => assert.equal(await c.estimateGas({ account: EOA, to: EOA, value: 1n }), 21000n),
  eth_getBlockByHash: async (c) => assert.equal((await c.getBlock({ blockHash: chain.blockHash(busyBlock()) as `0x${string}` })).number, BigInt(busyBlock())),
  eth_getBlockByNumber: async (c) => {
    const block = await c.getBlock({ blockNumber: BigInt(busyBlock()), includeTransactions: true });
    assert.equal(block.transactions.length, chain.txCount(busyBlock()));
    assert.equal((await c.getBlock({ blockTag: 'safe' })).number, BigInt(chain.head - 32));
  },
  eth_getTransactionByHash: async (c) => assert.equal((await c.getTransaction({ hash: chain.txHash(busyBlock(), 0) as `0x${string}` })).blockNumber, BigInt(busyBlock())),
  eth_getTransactionByBlockHashAndIndex: async (c) => assert.equal((await c.getTransaction({ blockHash: chain.blockHash(busyBlock()) as `0x${string}`, index: 0 })).hash, chain.txHash(busyBlock(), 0)),
  eth_getTransactionByBlockNumberAndIndex: async (c) => assert.equal((await c.getTransaction({ blockNumber: BigInt(busyBlock()), index: 0 })).hash, chain.txHash(busyBlock(), 0)),
  eth_getTransactionReceipt: async (c) => assert.equal((await c.getTransactionReceipt({ hash: chain.txHash(busyBlock(), 0) as `0x${string}` })).blockNumber, BigInt(busyBlock())),
  eth_getUncleByBlockHashAndIndex: async (c) => assert.equal((await c.request({ method: 'eth_getUncleByBlockHashAndIndex', params: [chain.blockHash(UNCLE_BLOCK), '0x0'] } as never) as { hash: string }).hash, chain.uncleHash(UNCLE_BLOCK, 0)),
  eth_getUncleByBlockNumberAndIndex: async (c) => assert.equal((await c.request({ method: 'eth_getUncleByBlockNumberAndIndex', params: [q(UNCLE_BLOCK), '0x0'] } as never) as { hash: string }).hash, chain.uncleHash(UNCLE_BLOCK, 0)),
  eth_getLogs: async (c) => assert.ok((await c.getLogs({ fromBlock: BigInt(busyBlock() - 20), toBlock: BigInt(busyBlock()) })).length > 0),
  eth_getWork: async (c) => assert.equal((await c.request({ method: 'eth_getWork' } as never) as unknown[]).length, 3),
  eth_getProof: async (c) => assert.equal((await c.getProof({ address: CONTRACT, storageKeys: [`0x${'0'.repeat(64)}`] })).address.toLowerCase(), CONTRACT),
  trace_filter: async (c) => assert.equal((await c.request({ method: 'trace_filter', params: [{ fromBlock: q(busyBlock()), toBlock: q(busyBlock()), count: 2 }] } as never) as unknown[]).length, 2),
};

test('the call tables cover every method the gateway supports', () => {
  assert.deepEqual(Object.keys(ethersCalls).sort(), [...SUPPORTED].sort());
  assert.deepEqual(Object.keys(viemCalls).sort(), [...SUPPORTED].sort());
});

for (const method of SUPPORTED) {
  test(`ethers: ${method}`, () => ethersCalls[method](provider));
}
for (const method of SUPPORTED) {
  test(`viem: ${method}`, () => viemCalls[method](client));
}

test('the chain as both libraries detect it: eth_chainId and net_version agree on mainnet and sepolia', async () => {
  const sepoliaUrl = m.gatewayUrl.replace(/mainnet$/, 'sepolia');
  const p = new ethers.JsonRpcProvider(sepoliaUrl);
  try {
    assert.equal((await p.getNetwork()).chainId, 11155111n);
    assert.equal(await p.send('net_version', []), '11155111');
  } finally {
    p.destroy();
  }
  const c = createPublicClient({ chain: sepolia, transport: http(sepoliaUrl, { retryCount: 0 }) });
  assert.equal(await c.getChainId(), sepolia.id);
});

test('batches: ethers and viem send several calls in one POST and match the answers to their calls, a refused one included', async () => {
  let before = posts;
  const [a, b, c] = await Promise.all([provider.getBlockNumber(), provider.getBalance(EOA), provider.getCode(CONTRACT)]);
  assert.deepEqual([a, typeof b, c === '0x'], [chain.head, 'bigint', false]);
  assert.equal(posts - before, 1, 'ethers: one HTTP request for the three calls');

  before = posts;
  const settled = await Promise.allSettled([
    batched.getBlockNumber(), batched.getChainId(), batched.request({ method: 'eth_accounts' } as never), batched.getBalance({ address: EOA }),
  ]);
  assert.equal(posts - before, 1, 'viem: one HTTP request for the four calls');
  assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.equal((settled[0] as PromiseFulfilledResult<bigint>).value, BigInt(chain.head));
  const refused = (settled[2] as PromiseRejectedResult).reason as Error;
  assert.ok(refused instanceof MethodNotSupportedRpcError, `${refused.name}: ${refused.message}`);
});

test('ethers: every refused method is its SERVER_ERROR for the HTTP 403, with the JSON-RPC error of the body; listAccounts too', async () => {
  const refusal = (method: string) => (e: { code?: string; info?: { responseStatus?: string; responseBody?: string } }) => {
    assert.equal(e.code, 'SERVER_ERROR', method);
    assert.match(String(e.info?.responseStatus), /^403/);
    const body = JSON.parse(String(e.info?.responseBody)) as { jsonrpc: string; error: { code: number; message: string; data?: unknown } };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.code, -32004, 'EIP-1474: method not supported');
    assert.equal(body.error.message, `Method "${method}" is not supported by the gateway.`);
    assert.deepEqual(body.error.data, { method, httpStatus: 403 });
    return true;
  };
  for (const method of UNSUPPORTED) await assert.rejects(provider.send(method, []), refusal(method));
  await assert.rejects(provider.listAccounts(), refusal('eth_accounts'));
  // A method outside the supported list, listed as unsupported or not: the spec refuses every method it does not support with 403.
  for (const method of ['eth_maxPriorityFeePerGas', 'eth_getBlockReceipts']) await assert.rejects(provider.send(method, []), refusal(method));
});

test('viem: every refused method is its MethodNotSupportedRpcError (-32004) with the gateway\'s message; the filter actions too', async () => {
  const refusal = (method: string) => (e: Error) => {
    assert.ok(e instanceof MethodNotSupportedRpcError, `${method}: ${e.name}: ${e.message}`);
    assert.equal(e.code, -32004);
    assert.match(e.message, new RegExp(`"${method}" is not supported by the gateway`));
    return true;
  };
  for (const method of [...UNSUPPORTED, 'eth_maxPriorityFeePerGas', 'eth_getBlockReceipts']) await assert.rejects(client.request({ method, params: [] } as never), refusal(method));
  await assert.rejects(client.createBlockFilter(), refusal('eth_newBlockFilter'));
  await assert.rejects(client.createPendingTransactionFilter(), refusal('eth_newPendingTransactionFilter'));
  await assert.rejects(client.createEventFilter({ address: CONTRACT }), refusal('eth_newFilter'));
});

test('the gateway\'s other errors, {code, message, data}, as each library\'s own: bad params, a gateway limit', async () => {
  // ethers keeps the JSON-RPC error object.
  await assert.rejects(provider.send('eth_getBalance', ['0x123', 'latest']), (e: { error?: { code: number; message: string; data?: unknown } }) =>
    e.error?.code === -32602 && /params\[0\]/.test(e.error.message) && Array.isArray(e.error.data));
  await assert.rejects(provider.getLogs({ fromBlock: 0, toBlock: 900 }), (e: { error?: { code: number; message: string } }) =>
    e.error?.code === -32005 && /800/.test(e.error.message));
  // viem: one class per EIP-1474 code.
  await assert.rejects(client.request({ method: 'eth_getBalance', params: ['0x123' as `0x${string}`, 'latest'] }), (e: Error) => e instanceof InvalidParamsRpcError && /params\[0\]/.test(e.message));
  await assert.rejects(client.getLogs({ fromBlock: 0n, toBlock: 900n }), (e: Error) => e instanceof LimitExceededRpcError && /800/.test(e.message));
  // The 800-block limit at its edge, both bounds counted: 0..799 passes and 0..800 (801 blocks) does not, in both libraries.
  assert.ok(Array.isArray(await provider.getLogs({ fromBlock: 0, toBlock: 799 })));
  await assert.rejects(provider.getLogs({ fromBlock: 0, toBlock: 800 }), (e: { error?: { code: number; message: string } }) =>
    e.error?.code === -32005 && /801 blocks/.test(e.error.message));
  assert.ok(Array.isArray(await client.getLogs({ fromBlock: 0n, toBlock: 799n })));
  await assert.rejects(client.getLogs({ fromBlock: 0n, toBlock: 800n }), (e: Error) => e instanceof LimitExceededRpcError && /801 blocks/.test(e.message));
  // Reward percentiles must increase strictly, as geth checks them.
  await assert.rejects(client.getFeeHistory({ blockCount: 2, rewardPercentiles: [50, 50] }), (e: Error) => e instanceof InvalidParamsRpcError && /percentiles must increase/.test(e.message));
});
