// A deterministic synthetic chain for the mock gateway. Every block is a pure function of (network seed, block number), generated on
// first use and cached, so startup costs nothing and every method sees the same data: the hash eth_getBlockByNumber shows is the one
// eth_getBlockByHash accepts, a receipt's logs are the ones eth_getLogs finds, a trace names a real transaction.
// No vscode, no I/O.
import { createHash } from 'node:crypto';
import { keccak256 } from '../../server/src/core';
import { mulberry32 } from './prng';

export interface NetworkInfo {
  name: string;
  chainId: number;
  /** Number of the newest block; blocks 0..head exist. */
  head: number;
  /** The token contracts that transactions call (and whose Transfer/Approval logs eth_getLogs finds); synthetic when absent. */
  contracts?: readonly string[];
}

export const NETWORKS: readonly NetworkInfo[] = [
  // Mainnet's token contracts are the real ones (USDC, USDT, WETH, DAI, LINK, UNI), so a filter copied from a block explorer or a
  // library's docs finds logs on the mock as it would on the gateway.
  { name: 'mainnet', chainId: 1, head: 4095, contracts: [
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '0xdac17f958d2ee523a2206206994597c13d831ec7', '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    '0x6b175474e89094c44da98b954eedeac495271d0f', '0x514910771af9ca656af840dff83e8264ecf986ca', '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984',
  ] },
  { name: 'sepolia', chainId: 11155111, head: 2999 },
];

export interface LogData {
  address: string;
  topics: string[];
  data: string;
  /** Index of the log in its block. */
  logIndex: number;
}

export interface TraceNode {
  callType: 'call' | 'staticcall' | 'delegatecall';
  from: string;
  to: string;
  gas: bigint;
  gasUsed: bigint;
  input: string;
  output: string;
  value: bigint;
  children: TraceNode[];
}

export interface TxData {
  index: number;
  hash: string;
  from: string;
  to: string;
  nonce: number;
  value: bigint;
  gas: bigint;
  gasUsed: bigint;
  cumulativeGasUsed: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  effectiveGasPrice: bigint;
  input: string;
  status: 0 | 1;
  logs: LogData[];
  trace: TraceNode;
  r: string;
  s: string;
  yParity: 0 | 1;
}

export interface BlockData {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  miner: string;
  baseFeePerGas: bigint;
  gasLimit: bigint;
  gasUsed: bigint;
  txs: TxData[];
  uncleHashes: string[];
}

/** A flattened trace record, exactly the spec's trace record table. */
export interface TraceRecord {
  action: { from: string; callType: string; gas: string; input: string; to: string; value: string };
  blockHash: string;
  blockNumber: number;
  result: { gasUsed: string; output: string };
  subtraces: number;
  traceAddress: number[];
  transactionHash: string;
  transactionPosition: number;
  type: 'call';
}

export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
export const APPROVAL_TOPIC = '0x8c5be1e5ebec7d5bd14b71def19a3c0a4ca8ab7a33e1a4a9ba8fdf7e7ff33d37';
export const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';
const ZERO_HASH = '0x' + '0'.repeat(64);
const GENESIS_TIME = 1_700_000_000;
const GWEI = 1_000_000_000n;

export function qty(n: number | bigint): string {
  return '0x' + n.toString(16);
}

function pad32(hexNo0x: string): string {
  return hexNo0x.padStart(64, '0');
}

/** Seeded from a hash so each block has its own stream. */
const prng = mulberry32;

/** Addresses with a balance besides the chain's own accounts, none of them in its transactions: the one the examples ask about
 * (examples/balance.rpc.json, the example request; the Ethereum Foundation's on mainnet), so that a newcomer's first send shows one. */
const FUNDED = new Set(['0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae']);

export class Chain {
  readonly info: NetworkInfo;
  readonly eoas: string[];
  readonly contracts: string[];
  private readonly blocks = new Map<number, BlockData>();
  private readonly blooms = new Map<number, string>();
  private blockIndex?: Map<string, number>;
  private txIndex?: Map<string, [number, number]>;
  private uncleIndex?: Map<string, number>;

  constructor(info: NetworkInfo) {
    this.info = info;
    this.eoas = Array.from({ length: 24 }, (_, i) => '0x' + this.h('eoa', i).slice(0, 40));
    this.contracts = info.contracts ? [...info.contracts] : Array.from({ length: 6 }, (_, i) => '0x' + this.h('contract', i).slice(0, 40));
  }

  get head(): number {
    return this.info.head;
  }

  /** Hex sha256 of the network name and the parts (64 hex chars, no 0x). */
  h(...parts: (string | number)[]): string {
    return createHash('sha256').update(`${this.info.name}|${parts.join('|')}`).digest('hex');
  }

  private seed(...parts: (string | number)[]): number {
    return parseInt(this.h(...parts).slice(0, 8), 16);
  }

  blockHash(n: number): string {
    return '0x' + this.h('block', n);
  }

  txCount(n: number): number {
    return n === 0 ? 0 : this.seed('txcount', n) % 7;
  }

  txHash(n: number, i: number): string {
    return '0x' + this.h('tx', n, i);
  }

  uncleCount(n: number): number {
    return n > 0 && n % 50 === 7 ? 1 : 0;
  }

  uncleHash(n: number, i: number): string {
    return '0x' + this.h('uncle', n, i);
  }

  code(address: string): string {
    const a = address.toLowerCase();
    if (!this.contracts.includes(a)) return '0x';
    return '0x6080604052348015600f57600080fd5b50' + this.h('code', a) + this.h('code2', a) + '00';
  }

  balance(address: string, block: number): bigint {
    const a = address.toLowerCase();
    if (!this.eoas.includes(a) && !this.contracts.includes(a) && !FUNDED.has(a)) return 0n;
    return BigInt('0x' + this.h('balance', a).slice(0, 16)) * 1000n + BigInt(block) * 1_000_000_007n;
  }

  nonce(address: string, block: number): number {
    const a = address.toLowerCase();
    if (!this.eoas.includes(a)) return this.contracts.includes(a) ? 1 : 0;
    return (this.seed('nonce', a) % 500) + Math.floor(block / 8);
  }

  storage(address: string, slot: string, block: number): string {
    const a = address.toLowerCase();
    if (!this.contracts.includes(a)) return '0x' + pad32('0');
    const s = BigInt(slot);
    if (s > 15n) return '0x' + pad32('0');
    return '0x' + this.h('storage', a, s.toString(), Math.floor(block / 100));
  }

  block(n: number): BlockData | undefined {
    if (!Number.isInteger(n) || n < 0 || n > this.head) return undefined;
    let b = this.blocks.get(n);
    if (!b) {
      b = this.generate(n);
      this.blocks.set(n, b);
    }
    return b;
  }

  blockNumberByHash(hash: string): number | undefined {
    if (!this.blockIndex) {
      this.blockIndex = new Map();
      for (let n = 0; n <= this.head; n++) this.blockIndex.set(this.blockHash(n), n);
    }
    return this.blockIndex.get(hash.toLowerCase());
  }

  /** [block number, index] of a transaction hash. */
  locateTx(hash: string): [number, number] | undefined {
    if (!this.txIndex) {
      this.txIndex = new Map();
      for (let n = 0; n <= this.head; n++) for (let i = 0; i < this.txCount(n); i++) this.txIndex.set(this.txHash(n, i), [n, i]);
    }
    return this.txIndex.get(hash.toLowerCase());
  }

  /** Block number holding the uncle with this hash. */
  uncleHolder(hash: string): number | undefined {
    if (!this.uncleIndex) {
      this.uncleIndex = new Map();
      for (let n = 0; n <= this.head; n++) for (let i = 0; i < this.uncleCount(n); i++) this.uncleIndex.set(this.uncleHash(n, i), n);
    }
    return this.uncleIndex.get(hash.toLowerCase());
  }

  /** The 2048-bit logs bloom of a block (or of one transaction's logs). */
  bloom(logs: LogData[]): string {
    const bits = Buffer.alloc(256);
    for (const log of logs) {
      for (const item of [log.address, ...log.topics]) {
        const d = keccak256(Buffer.from(item.slice(2), 'hex'));
        for (let k = 0; k < 6; k += 2) {
          const bit = ((d[k] << 8) | d[k + 1]) & 2047;
          bits[255 - (bit >> 3)] |= 1 << (bit & 7);
        }
      }
    }
    return '0x' + bits.toString('hex');
  }

  blockBloom(b: BlockData): string {
    let s = this.blooms.get(b.number);
    if (s === undefined) {
      s = this.bloom(b.txs.flatMap((t) => t.logs));
      this.blooms.set(b.number, s);
    }
    return s;
  }

  /** Every trace record of a block, depth-first per transaction: the one stable order trace_filter pages through. */
  traces(b: BlockData): TraceRecord[] {
    const out: TraceRecord[] = [];
    for (const tx of b.txs) {
      const walk = (node: TraceNode, path: number[]): void => {
        out.push({
          action: { from: node.from, callType: node.callType, gas: qty(node.gas), input: node.input, to: node.to, value: qty(node.value) },
          blockHash: b.hash,
          blockNumber: b.number,
          result: { gasUsed: qty(node.gasUsed), output: node.output },
          subtraces: node.children.length,
          traceAddress: path,
          transactionHash: tx.hash,
          transactionPosition: tx.index,
          type: 'call',
        });
        node.children.forEach((c, i) => walk(c, [...path, i]));
      };
      walk(tx.trace, []);
    }
    return out;
  }

  private generate(n: number): BlockData {
    const rnd = prng(this.seed('block-rng', n));
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
    const baseFeePerGas = (8n + BigInt(this.seed('basefee', n) % 40)) * GWEI;
    const txs: TxData[] = [];
    let cumulative = 0n;
    let logIndex = 0;
    for (let i = 0; i < this.txCount(n); i++) {
      const from = pick(this.eoas);
      const toContract = rnd() < 0.6;
      const to = toContract ? pick(this.contracts) : pick(this.eoas.filter((a) => a !== from));
      const recipient = pick(this.eoas);
      const amount = BigInt(Math.floor(rnd() * 1e9)) * 1_000_000_000n;
      const input = toContract ? '0xa9059cbb' + pad32(recipient.slice(2)) + pad32(amount.toString(16)) : '0x';
      const value = toContract ? 0n : BigInt(Math.floor(rnd() * 1e12)) * 1_000_000n;
      const gas = toContract ? BigInt(60_000 + Math.floor(rnd() * 140_000)) : 21_000n;
      const status: 0 | 1 = toContract && rnd() < 0.05 ? 0 : 1;
      const gasUsed = toContract ? gas - BigInt(Math.floor(rnd() * 20_000)) : 21_000n;
      cumulative += gasUsed;
      const prio = BigInt(1 + Math.floor(rnd() * 3)) * GWEI;
      const maxFee = baseFeePerGas * 2n + prio;
      const hash = this.txHash(n, i);
      const logs: LogData[] = [];
      if (toContract && status === 1) {
        logs.push({ address: to, topics: [TRANSFER_TOPIC, '0x' + pad32(from.slice(2)), '0x' + pad32(recipient.slice(2))], data: '0x' + pad32(amount.toString(16)), logIndex: logIndex++ });
        if (rnd() < 0.3) {
          logs.push({ address: to, topics: [APPROVAL_TOPIC, '0x' + pad32(from.slice(2)), '0x' + pad32(to.slice(2))], data: '0x' + pad32('0'), logIndex: logIndex++ });
        }
      }
      const children: TraceNode[] = [];
      if (toContract) {
        const k = Math.floor(rnd() * 3);
        for (let c = 0; c < k; c++) {
          const callee = pick(this.contracts.filter((a) => a !== to));
          const childGas = gas / BigInt(3 + c);
          const grand: TraceNode[] = rnd() < 0.4
            ? [{ callType: 'staticcall', from: callee, to: pick(this.contracts), gas: childGas / 3n, gasUsed: 2_600n, input: '0x70a08231' + pad32(from.slice(2)), output: '0x' + pad32(amount.toString(16)), value: 0n, children: [] }]
            : [];
          children.push({
            callType: c % 2 === 0 ? 'call' : 'delegatecall', from: to, to: callee, gas: childGas, gasUsed: childGas / 4n,
            input: '0x' + this.h('input', n, i, c).slice(0, 8), output: '0x' + pad32('1'), value: 0n, children: grand,
          });
        }
      }
      const trace: TraceNode = {
        callType: 'call', from, to, gas, gasUsed, input, value,
        output: toContract && status === 1 ? '0x' + pad32('1') : '0x', children,
      };
      const sig = this.h('sig', n, i);
      txs.push({
        index: i, hash, from, to, nonce: this.nonce(from, n), value, gas, gasUsed, cumulativeGasUsed: cumulative,
        maxFeePerGas: maxFee, maxPriorityFeePerGas: prio, effectiveGasPrice: baseFeePerGas + prio, input, status, logs, trace,
        r: '0x' + sig.slice(0, 64), s: '0x' + this.h('sig-s', n, i), yParity: (parseInt(sig[0], 16) & 1) as 0 | 1,
      });
    }
    return {
      number: n,
      hash: this.blockHash(n),
      parentHash: n === 0 ? ZERO_HASH : this.blockHash(n - 1),
      timestamp: GENESIS_TIME + n * 12,
      miner: this.eoas[n % this.eoas.length],
      baseFeePerGas,
      gasLimit: 30_000_000n,
      gasUsed: cumulative,
      txs,
      uncleHashes: Array.from({ length: this.uncleCount(n) }, (_, i) => this.uncleHash(n, i)),
    };
  }

  // ---- JSON shapes (execution-apis) ----

  txJson(b: BlockData, t: TxData): Record<string, unknown> {
    return {
      blockHash: b.hash, blockNumber: qty(b.number), from: t.from, to: t.to, hash: t.hash, transactionIndex: qty(t.index),
      type: '0x2', chainId: qty(this.info.chainId), nonce: qty(t.nonce), input: t.input, value: qty(t.value), gas: qty(t.gas),
      gasPrice: qty(t.effectiveGasPrice), maxFeePerGas: qty(t.maxFeePerGas), maxPriorityFeePerGas: qty(t.maxPriorityFeePerGas),
      accessList: [], v: qty(t.yParity), yParity: qty(t.yParity), r: t.r, s: t.s,
    };
  }

  logJson(b: BlockData, t: TxData, l: LogData): Record<string, unknown> {
    return {
      address: l.address, topics: l.topics, data: l.data, blockNumber: qty(b.number), blockHash: b.hash,
      blockTimestamp: qty(b.timestamp), transactionHash: t.hash, transactionIndex: qty(t.index), logIndex: qty(l.logIndex), removed: false,
    };
  }

  receiptJson(b: BlockData, t: TxData): Record<string, unknown> {
    return {
      transactionHash: t.hash, transactionIndex: qty(t.index), blockHash: b.hash, blockNumber: qty(b.number), from: t.from, to: t.to,
      cumulativeGasUsed: qty(t.cumulativeGasUsed), gasUsed: qty(t.gasUsed), effectiveGasPrice: qty(t.effectiveGasPrice),
      contractAddress: null, logs: t.logs.map((l) => this.logJson(b, t, l)), logsBloom: this.bloom(t.logs), type: '0x2',
      status: qty(t.status),
    };
  }

  blockJson(b: BlockData, hydrated: boolean): Record<string, unknown> {
    return {
      number: qty(b.number), hash: b.hash, parentHash: b.parentHash, nonce: '0x0000000000000000',
      sha3Uncles: '0x' + this.h('uncles', b.number), logsBloom: this.blockBloom(b),
      transactionsRoot: '0x' + this.h('txroot', b.number), stateRoot: '0x' + this.h('stateroot', b.number),
      receiptsRoot: '0x' + this.h('receiptsroot', b.number), miner: b.miner, difficulty: '0x0', totalDifficulty: '0x0',
      extraData: '0x656467656b6974', size: qty(600 + b.txs.length * 180), gasLimit: qty(b.gasLimit), gasUsed: qty(b.gasUsed),
      timestamp: qty(b.timestamp), mixHash: '0x' + this.h('mix', b.number), baseFeePerGas: qty(b.baseFeePerGas),
      withdrawals: [], withdrawalsRoot: '0x' + this.h('wroot', b.number),
      transactions: b.txs.map((t) => (hydrated ? this.txJson(b, t) : t.hash)),
      uncles: b.uncleHashes,
    };
  }

  uncleJson(holder: BlockData, index: number): Record<string, unknown> | null {
    const hash = holder.uncleHashes[index];
    if (!hash) return null;
    const n = holder.number - 1;
    return {
      number: qty(n), hash, parentHash: this.blockHash(n - 1), nonce: '0x0000000000000000', sha3Uncles: '0x' + this.h('uncles-u', n),
      logsBloom: '0x' + '0'.repeat(512), transactionsRoot: '0x' + this.h('u-txroot', n), stateRoot: '0x' + this.h('u-stateroot', n),
      receiptsRoot: '0x' + this.h('u-receiptsroot', n), miner: this.eoas[(n + 5) % this.eoas.length], difficulty: '0x0',
      extraData: '0x', size: '0x220', gasLimit: qty(30_000_000), gasUsed: '0x0', timestamp: qty(GENESIS_TIME + n * 12 + 1),
      mixHash: '0x' + this.h('u-mix', n), baseFeePerGas: qty(holder.baseFeePerGas), transactions: [], uncles: [],
    };
  }
}

const chains = new Map<string, Chain>();

/** The chain of a network (created on first use, shared by every server in the process: it is immutable). */
export function chainFor(network: string): Chain | undefined {
  const info = NETWORKS.find((n) => n.name === network);
  if (!info) return undefined;
  let c = chains.get(network);
  if (!c) {
    c = new Chain(info);
    chains.set(network, c);
  }
  return c;
}
