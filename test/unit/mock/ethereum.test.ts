// The mock gateway as Ethereum libraries use it: ethers (v6) and viem (v2) for every supported method they expose, a batch in one
// POST, chain id and net_version that agree, and the refused methods: HTTP 403 with a JSON-RPC error body that each library turns
// into its own error with the code and the message.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ethers } from 'ethers';
import { createPublicClient, http, MethodNotSupportedRpcError, type PublicClient } from 'viem';
import { mainnet } from 'viem/chains';
import type { MockBackend } from '../../../mock/src/backend';
import { chainFor } from '../../../mock/src/chain';
import { start } from './helpers';

let m: MockBackend;
let provider: ethers.JsonRpcProvider;
let client: PublicClient;
const chain = chainFor('mainnet')!;
const ADDRESS = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';

before(async () => {
  m = await start();
  provider = new ethers.JsonRpcProvider(m.gatewayUrl, 1, { staticNetwork: ethers.Network.from(1), batchMaxCount: 10 });
  client = createPublicClient({ chain: mainnet, transport: http(m.gatewayUrl, { batch: true, retryCount: 0 }) }) as PublicClient;
});
after(async () => {
  provider.destroy();
  await m.close();
});

/** A block of the synthetic chain that has transactions (and so receipts and logs). */
function busyBlock(): number {
  for (let n = chain.head; n > chain.head - 50; n--) if (chain.txCount(n) > 0) return n;
  throw new Error('no block with transactions near the head');
}

test('ethers: chain, blocks, transactions, receipts, logs, state and calls', async () => {
  assert.equal((await provider.getNetwork()).chainId, 1n);
  assert.equal(await provider.send('net_version', []), '1', 'net_version agrees with eth_chainId');
  const head = await provider.getBlockNumber();
  assert.equal(head, chain.head);
  const n = busyBlock();
  const block = await provider.getBlock(n, true);
  assert.ok(block && block.number === n && block.transactions.length > 0);
  assert.equal((await provider.getBlock(block.hash!))?.number, n, 'by hash');
  const txHash = block.transactions[0];
  const tx = await provider.getTransaction(txHash);
  assert.equal(tx?.blockNumber, n);
  const receipt = await provider.getTransactionReceipt(txHash);
  assert.equal(receipt?.blockNumber, n);
  const logs = await provider.getLogs({ fromBlock: n, toBlock: n });
  assert.ok(Array.isArray(logs));
  assert.equal(typeof (await provider.getBalance(ADDRESS)), 'bigint');
  assert.equal(typeof (await provider.getTransactionCount(ADDRESS)), 'number');
  assert.match(await provider.getCode(ADDRESS), /^0x/);
  assert.match(await provider.getStorage(ADDRESS, 0), /^0x[0-9a-f]{64}$/);
  assert.match(await provider.call({ to: ADDRESS, data: '0x70a08231' }), /^0x/);
  assert.equal(typeof (await provider.estimateGas({ from: ADDRESS, to: ADDRESS, value: 1 })), 'bigint');
  const fees = await provider.getFeeData();
  assert.equal(typeof fees.gasPrice, 'bigint');
  assert.ok(await provider.send('web3_clientVersion', []));
  assert.ok(Array.isArray((await provider.send('eth_feeHistory', ['0x2', 'latest', [50]])).baseFeePerGas));
  assert.ok(Array.isArray(await provider.send('trace_filter', [{ fromBlock: ethers.toQuantity(n), toBlock: ethers.toQuantity(n), count: 5 }])));
  // eth_sendRawTransaction: ethers checks that the hash the gateway answers is the signed transaction's own.
  const wallet = ethers.Wallet.createRandom();
  const signed = await wallet.signTransaction({ to: ADDRESS, value: 1n, gasLimit: 21000n, gasPrice: 1_000_000_000n, nonce: 0, chainId: 1n });
  const sent = await provider.broadcastTransaction(signed);
  assert.equal(sent.hash, ethers.keccak256(signed));
});

test('ethers: several calls at once go as one batch POST, and come back matched to their calls', async () => {
  // A mock and a provider of their own, so that no other request can be counted.
  let count = 0;
  const own = await start({ log: (line) => { if (/^POST \/v1\/mainnet /.test(line)) count++; } });
  const p = new ethers.JsonRpcProvider(own.gatewayUrl, 1, { staticNetwork: ethers.Network.from(1), batchMaxCount: 10 });
  try {
    const [a, b, c] = await Promise.all([p.getBlockNumber(), p.getBalance(ADDRESS), p.getCode(ADDRESS)]);
    assert.equal(a, chain.head);
    assert.equal(typeof b, 'bigint');
    assert.match(c, /^0x/);
    assert.equal(count, 1, 'one HTTP request for the three calls');
  } finally {
    p.destroy();
    await own.close();
  }
});

test('ethers: a refused method is its SERVER_ERROR for the HTTP 403, with the JSON-RPC error of the body', async () => {
  await assert.rejects(provider.send('eth_accounts', []), (e: { code?: string; info?: { responseStatus?: string; responseBody?: string } }) => {
    assert.equal(e.code, 'SERVER_ERROR');
    assert.match(String(e.info?.responseStatus), /^403/);
    const body = JSON.parse(String(e.info?.responseBody)) as { jsonrpc: string; error: { code: number; message: string } };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.code, -32004, 'EIP-1474: method not supported');
    assert.match(body.error.message, /"eth_accounts" is not supported by the gateway/);
    assert.deepEqual((body.error as { data?: unknown }).data, { method: 'eth_accounts', httpStatus: 403 });
    return true;
  });
});

test('viem: chain, blocks, transactions, receipts, logs, state, fees and proofs', async () => {
  assert.equal(await client.getChainId(), 1);
  assert.equal(await client.getBlockNumber(), BigInt(chain.head));
  const n = BigInt(busyBlock());
  const block = await client.getBlock({ blockNumber: n, includeTransactions: false });
  assert.equal(block.number, n);
  assert.equal((await client.getBlock({ blockHash: block.hash! })).number, n);
  assert.equal(await client.getBlockTransactionCount({ blockNumber: n }), block.transactions.length);
  const txHash = block.transactions[0] as `0x${string}`;
  assert.equal((await client.getTransaction({ hash: txHash })).blockNumber, n);
  assert.equal((await client.getTransactionReceipt({ hash: txHash })).blockNumber, n);
  assert.ok(Array.isArray(await client.getLogs({ fromBlock: n, toBlock: n })));
  assert.equal(typeof (await client.getBalance({ address: ADDRESS })), 'bigint');
  assert.equal(typeof (await client.getTransactionCount({ address: ADDRESS })), 'number');
  await client.getCode({ address: ADDRESS });
  assert.match(String(await client.getStorageAt({ address: ADDRESS, slot: '0x0' })), /^0x/);
  assert.equal(typeof (await client.getGasPrice()), 'bigint');
  assert.ok((await client.getFeeHistory({ blockCount: 2, rewardPercentiles: [50] })).baseFeePerGas.length > 0);
  const proof = await client.getProof({ address: ADDRESS, storageKeys: ['0x0000000000000000000000000000000000000000000000000000000000000000'] });
  assert.equal(proof.address.toLowerCase(), ADDRESS);
  await client.call({ to: ADDRESS, data: '0x70a08231' });
  assert.equal(typeof (await client.estimateGas({ account: ADDRESS, to: ADDRESS, value: 1n })), 'bigint');
});

test('viem: a refused method is its MethodNotSupportedRpcError (code -32004), with the gateway\'s message', async () => {
  await assert.rejects(client.request({ method: 'eth_accounts' } as never), (e: Error) => {
    assert.ok(e instanceof MethodNotSupportedRpcError, `${e.name}: ${e.message}`);
    assert.equal((e as MethodNotSupportedRpcError).code, -32004);
    assert.match(e.message, /"eth_accounts" is not supported by the gateway/);
    return true;
  });
});
