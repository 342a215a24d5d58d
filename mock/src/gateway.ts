// The mock gateway: JSON-RPC 2.0 (single and batch) over POST /v1/<network>, answered from the synthetic chain.
// Params are checked by the same core the editor uses (core/rules/jsonrpc/params.ts); the gateway's range limits need the chain
// (tags resolve to numbers), so they are checked here. No vscode, no I/O: handleGateway maps request text to status + body.
import { catalogue, headOf, keccakHex, wordList } from '../../server/src/core';

const { limits: LIMITS, supported: SUPPORTED_METHODS, unsupported: UNSUPPORTED_METHODS, checkParamValues, nearMethods } = catalogue.gateway;
import type { BlockData, Chain, TraceRecord, TxData } from './chain';
import { EMPTY_CODE_HASH, NETWORKS, chainFor, qty } from './chain';

export interface RpcErrorObject { code: number; message: string; data?: unknown }
export interface RpcResponse { jsonrpc: '2.0'; id: string | number | null; result?: unknown; error?: RpcErrorObject }
export interface GatewayReply { status: number; body?: RpcResponse | RpcResponse[] }

export const CLIENT_VERSION = 'EdgeKit-Mock/v0.1.0';

const SUPPORTED = new Set(SUPPORTED_METHODS);
/** Param issues that are the gateway's limits rather than malformed params: answered with -32005 like the run-time checks. */
const LIMIT_ISSUES = new Set(['jsonrpc/block-range-too-large', 'jsonrpc/block-count-too-large', 'jsonrpc/trace-count-too-large']);

export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

type Id = string | number | null;

/** Answer one gateway request body for a network. Unknown networks are the caller's 404. */
export function handleGateway(network: string, text: string): GatewayReply {
  const chain = chainFor(network);
  if (!chain) {
    const served = NETWORKS.map((n) => `/v1/${n.name}`);
    return { status: 404, body: errorResponse(null, -32001, `Unknown network "${network}"; the gateway serves ${wordList(served)}.`) };
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (err) {
    return { status: 200, body: errorResponse(null, -32700, `Parse error: ${(err as Error).message}.`) };
  }
  if (Array.isArray(payload)) {
    if (payload.length === 0) return { status: 200, body: errorResponse(null, -32600, 'Invalid request: the batch is empty.') };
    const out: RpcResponse[] = [];
    for (const item of payload) {
      const r = handleOne(chain, item, true);
      if (r.response) out.push(r.response);
    }
    return out.length ? { status: 200, body: out } : { status: 204 };
  }
  const r = handleOne(chain, payload);
  if (!r.response) return { status: 204 };
  return { status: r.unsupported ? 403 : 200, body: r.response };
}

function errorResponse(id: Id, code: number, message: string, data?: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** A value a request sent, as a message quotes it: its JSON, cut at 40 characters (a method sent as a long array), never between
 * the two halves of an emoji (a lone surrogate reached the client as U+FFFD). */
function quoted(v: unknown): string {
  const json = JSON.stringify(v) ?? String(v);
  return json.length > 40 ? `${headOf(json, 40)}…` : json;
}

function isValidId(v: unknown): v is Id {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

function handleOne(chain: Chain, req: unknown, inBatch = false): { response?: RpcResponse; unsupported?: boolean } {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) {
    return { response: errorResponse(null, -32600, 'Invalid request: a request must be a JSON object.') };
  }
  const r = req as Record<string, unknown>;
  const hasId = 'id' in r;
  const id: Id = hasId && isValidId(r.id) ? r.id : null;
  if (hasId && !isValidId(r.id)) return { response: errorResponse(null, -32600, `Invalid request: "id" must be a number, a string or null, not ${quoted(r.id)}.`) };
  if (r.jsonrpc !== '2.0') {
    return { response: errorResponse(id, -32600, r.jsonrpc === undefined ? 'Invalid request: "jsonrpc" is missing; it must be "2.0".' : `Invalid request: "jsonrpc" must be "2.0", not ${quoted(r.jsonrpc)}.`) };
  }
  if (typeof r.method !== 'string') {
    return { response: errorResponse(id, -32600, r.method === undefined ? 'Invalid request: "method" is missing.' : `Invalid request: "method" must be a string, not ${quoted(r.method)}.`) };
  }
  const extra = Object.keys(r).filter((k) => !['jsonrpc', 'method', 'params', 'id'].includes(k));
  if (extra.length) return { response: errorResponse(id, -32600, `Invalid request: unexpected member ${quoted(extra[0])}.`) };
  const method = r.method;
  // The gateway forwards its supported subset and refuses any other method with HTTP 403: the spec ("What the service does" 1) and
  // Cloudflare's supported-methods page ("The gateway returns a 403 if a method is specified that is not supported") draw no line
  // between the methods its table marks unsupported and the ones it does not name.
  if (!SUPPORTED.has(method)) {
    // data says what the libraries cannot tell from the code alone: which method, and (alone, not in a batch, which answers 200 as
    // a whole) that the gateway refused it with HTTP 403.
    // A name the spec does not list, near a supported one, gets the editor's did-you-mean (one name: the nearest).
    const near = UNSUPPORTED_METHODS.includes(method) ? undefined : nearMethods(method)[0];
    const guess = near ? `; did you mean "${near}"?` : '.';
    return { unsupported: true, response: errorResponse(id, -32004, `Method "${method}" is not supported by the gateway${guess}`, inBatch ? { method } : { method, httpStatus: 403 }) };
  }
  // From here on the request is valid, and a notification (no id) gets no response, not even an error (JSON-RPC 2.0, section 4.1:
  // "The Server MUST NOT reply to a Notification, including those that are within a batch request").
  const response = call(chain, method, r.params, id);
  return { response: hasId ? response : undefined };
}

/** The response to a valid request of a supported method: bad params, a gateway limit, the method's own error, or its result. */
function call(chain: Chain, method: string, rawParams: unknown, id: Id): RpcResponse {
  if (rawParams !== undefined && !Array.isArray(rawParams)) {
    return errorResponse(id, -32602, `Invalid params: "params" of ${method} must be an array of positional parameters.`);
  }
  const params = (rawParams ?? []) as unknown[];
  const problems = checkParamValues(method, params);
  if (problems.length) {
    const first = problems.find((p) => !LIMIT_ISSUES.has(p.code ?? '')) ?? problems[0];
    const limit = LIMIT_ISSUES.has(first.code ?? '');
    const data = problems.map((p) => ({ path: p.path, message: p.message }));
    return errorResponse(id, limit ? -32005 : -32602, `${limit ? 'Limit exceeded' : 'Invalid params'}: ${first.message}`, data);
  }
  try {
    return { jsonrpc: '2.0', id, result: METHODS[method](chain, params) };
  } catch (err) {
    if (err instanceof RpcError) return errorResponse(id, err.code, err.message, err.data);
    return errorResponse(id, -32603, `Internal error: ${(err as Error).message}`);
  }
}

// ---- helpers over params ----

/** A block number from a number, quantity or tag; integers are accepted where the gateway takes "numbers". */
export function blockNumberOf(chain: Chain, ref: unknown, fallback = 'latest'): number {
  const v = ref === undefined || ref === null ? fallback : ref;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string') {
    switch (v) {
      case 'latest': case 'pending': return chain.head;
      case 'earliest': return 0;
      case 'safe': return Math.max(0, chain.head - 32);
      case 'finalized': return Math.max(0, chain.head - 64);
      default:
        if (/^0x[0-9a-fA-F]{1,16}$/.test(v)) return parseInt(v, 16);
        if (/^0x[0-9a-fA-F]{64}$/.test(v)) {
          const n = chain.blockNumberByHash(v);
          if (n === undefined) throw new RpcError(-32001, `Block ${v} not found.`);
          return n;
        }
    }
  }
  throw new RpcError(-32602, `Invalid params: ${JSON.stringify(v)} is not a block number, tag or hash.`);
}

/** The block at a state reference; beyond the head is an error (there is no state there). */
function stateBlock(chain: Chain, ref: unknown): number {
  const n = blockNumberOf(chain, ref);
  if (n > chain.head) throw new RpcError(-32001, `Block ${qty(n)} not found; the head is ${qty(chain.head)}.`);
  return n;
}

function intOf(v: unknown, name: string): number {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  // Any QUANTITY the params check let through (a uint64 "after" of 0xffffffffffffffff too): beyond 2^53 the double is only
  // approximate, which no count or offset of this chain can tell apart.
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)) return parseInt(v, 16);
  throw new RpcError(-32602, `Invalid params: "${name}" must be a non-negative integer or quantity, not ${JSON.stringify(v)}.`);
}

function hexIndex(v: unknown): number {
  return typeof v === 'string' ? parseInt(v, 16) : Number(v);
}

function txAt(chain: Chain, b: BlockData | undefined, index: number): Record<string, unknown> | null {
  const t = b?.txs[index];
  return b && t ? chain.txJson(b, t) : null;
}

function findTx(chain: Chain, hash: unknown): { b: BlockData; t: TxData } | undefined {
  const at = typeof hash === 'string' ? chain.locateTx(hash) : undefined;
  if (!at) return undefined;
  const b = chain.block(at[0])!;
  return { b, t: b.txs[at[1]] };
}

function rangeOf(chain: Chain, filter: Record<string, unknown>, limit: number, method: string): [number, number] {
  // Defaults as the editor explains them (params.ts rangeNotes): eth_getLogs "latest".."latest"; trace_filter genesis..head.
  const fromDefault = method === 'trace_filter' ? 'earliest' : 'latest';
  const fromBig = exactBlock(chain, filter.fromBlock, fromDefault);
  const toBig = exactBlock(chain, filter.toBlock, 'latest');
  const hex = (n: bigint) => '0x' + n.toString(16);
  // Where a bound's block came from, when it was not written as a number: the range is measured here because of it.
  const given = (k: 'fromBlock' | 'toBlock') => filter[k] !== undefined && filter[k] !== null;
  const origin = (k: 'fromBlock' | 'toBlock', dflt: string): string => {
    if (!given(k)) return dflt === 'earliest' ? ` (${k}'s default)` : ` (${k}'s default, ${JSON.stringify(dflt)})`;
    return typeof filter[k] === 'string' && !/^0x/i.test(filter[k] as string) ? ` (${JSON.stringify(filter[k])})` : '';
  };
  const from = `${hex(fromBig)}${origin('fromBlock', fromDefault)}`;
  const to = `${hex(toBig)}${origin('toBlock', 'latest')}`;
  if (fromBig > toBig) {
    const message = `params[0].fromBlock ${from} is greater than toBlock ${to}.`;
    throw new RpcError(-32602, `Invalid params: ${message}`, [{ path: [0, 'fromBlock'], message }]);
  }
  // The blocks of the range, both bounds included, as the editor counts them (params.ts limits): 0x0 to 0x31f is 800 blocks.
  const blocks = toBig - fromBig + 1n;
  if (blocks > BigInt(limit)) {
    // On the bound that depends on the head, as the editor's run-time note (fromBlock first); the filter when both are defaults.
    const headBound = (k: 'fromBlock' | 'toBlock') => given(k) && filter[k] !== 'earliest' && typeof filter[k] === 'string' && !/^0x/i.test(filter[k] as string);
    const path = headBound('fromBlock') ? [0, 'fromBlock'] : headBound('toBlock') ? [0, 'toBlock'] : [0];
    const message = `params[0] covers blocks ${from} to ${to}, ${blocks} blocks (both bounds included); the gateway allows at most ${limit}.`;
    throw new RpcError(-32005, `Limit exceeded: ${message}`, [{ path, message }]);
  }
  // Past the head there are no blocks: a range there is empty.
  return fromBig > BigInt(chain.head) ? [chain.head + 1, chain.head] : [Number(fromBig), Math.min(Number(toBig), chain.head)];
}

/** A block bound as an exact integer: numbers past 2^53 (up to 64 bits) would round as doubles and miscount a range. */
function exactBlock(chain: Chain, ref: unknown, fallback: string): bigint {
  if (typeof ref === 'string' && /^0x[0-9a-fA-F]{14,16}$/.test(ref)) return BigInt(ref);
  return BigInt(blockNumberOf(chain, ref, fallback));
}

function lowerSet(v: unknown): Set<string> | undefined {
  if (v === undefined || v === null) return undefined;
  const list = Array.isArray(v) ? v : [v];
  return new Set(list.filter((x): x is string => typeof x === 'string').map((x) => x.toLowerCase()));
}

function getLogs(chain: Chain, filter: Record<string, unknown>): Record<string, unknown>[] {
  let blocks: number[];
  if (typeof filter.blockHash === 'string') {
    const n = chain.blockNumberByHash(filter.blockHash);
    if (n === undefined) throw new RpcError(-32001, `Block ${filter.blockHash} not found.`);
    blocks = [n];
  } else {
    const [from, to] = rangeOf(chain, filter, LIMITS.getLogsMaxBlockRange, 'eth_getLogs');
    blocks = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }
  const addresses = lowerSet(filter.address);
  const topics = Array.isArray(filter.topics) ? (filter.topics as unknown[]) : [];
  const out: Record<string, unknown>[] = [];
  for (const n of blocks) {
    const b = chain.block(n)!;
    for (const t of b.txs) {
      for (const l of t.logs) {
        if (addresses && addresses.size && !addresses.has(l.address)) continue;
        const ok = topics.every((want, i) => {
          if (want === null || want === undefined) return true;
          const set = lowerSet(want)!;
          return set.size === 0 || (l.topics[i] !== undefined && set.has(l.topics[i]));
        });
        if (ok) out.push(chain.logJson(b, t, l));
      }
    }
  }
  return out;
}

/** trace_filter: matching records of [fromBlock, toBlock] in one stable order, then after/count. */
export function traceFilter(chain: Chain, filter: Record<string, unknown>): TraceRecord[] {
  let from: number;
  let to: number;
  if (typeof filter.blockHash === 'string') {
    const n = chain.blockNumberByHash(filter.blockHash);
    if (n === undefined) throw new RpcError(-32001, `Block ${filter.blockHash} not found.`);
    from = to = n;
  } else {
    [from, to] = rangeOf(chain, filter, LIMITS.traceFilterMaxBlockRange, 'trace_filter');
  }
  // null is absent, as for every optional member of the filter (the params check skips it too).
  const after = filter.after === undefined || filter.after === null ? 0 : intOf(filter.after, 'after');
  const count = filter.count === undefined || filter.count === null ? LIMITS.traceFilterMaxCount : intOf(filter.count, 'count');
  if (count > LIMITS.traceFilterMaxCount) {
    throw new RpcError(-32005, `Limit exceeded: trace_filter count ${count} is over the gateway's maximum of ${LIMITS.traceFilterMaxCount}.`);
  }
  const froms = lowerSet(filter.fromAddress);
  const tos = lowerSet(filter.toAddress);
  const intersection = filter.mode === 'intersection';
  const matches = (r: TraceRecord): boolean => {
    const f = froms && froms.size ? froms.has(r.action.from) : undefined;
    const t = tos && tos.size ? tos.has(r.action.to) : undefined;
    if (f === undefined && t === undefined) return true;
    if (intersection) return (f ?? true) && (t ?? true);
    return (f ?? false) || (t ?? false);
  };
  const out: TraceRecord[] = [];
  let skipped = 0;
  for (let n = from; n <= to && out.length < count; n++) {
    for (const r of chain.traces(chain.block(n)!)) {
      if (!matches(r)) continue;
      if (skipped < after) {
        skipped++;
        continue;
      }
      out.push(r);
      if (out.length >= count) break;
    }
  }
  return out;
}

function feeHistory(chain: Chain, p: unknown[]): Record<string, unknown> {
  const count = intOf(p[0], 'blockCount');
  if (count > LIMITS.feeHistoryMaxBlockCount) {
    throw new RpcError(-32005, `Limit exceeded: eth_feeHistory blockCount ${count} is over the gateway's maximum of ${LIMITS.feeHistoryMaxBlockCount}.`);
  }
  // geth refuses a newest block past the head ("request beyond head block: requested N, head H"), it does not clamp it.
  const newest = blockNumberOf(chain, p[1]);
  if (newest > chain.head) throw new RpcError(-32001, `Request beyond head block: requested ${qty(newest)}, the head is ${qty(chain.head)}.`);
  // No blocks asked for: geth answers oldestBlock 0 and no blocks (feehistory.go, "blocks < 1"); the empty lists keep the libraries'
  // formatters (viem maps baseFeePerGas) working.
  if (count === 0) return { oldestBlock: qty(0), baseFeePerGas: [], gasUsedRatio: [], reward: [] };
  const oldest = Math.max(0, newest - count + 1);
  const percentiles = Array.isArray(p[2]) ? (p[2] as number[]) : [];
  const blocks: BlockData[] = [];
  for (let n = oldest; n <= newest; n++) blocks.push(chain.block(n)!);
  const next = chain.block(Math.min(newest + 1, chain.head))!;
  return {
    oldestBlock: qty(oldest),
    baseFeePerGas: [...blocks.map((b) => qty(b.baseFeePerGas)), qty(next.baseFeePerGas)],
    gasUsedRatio: blocks.map((b) => Number(b.gasUsed) / Number(b.gasLimit)),
    reward: blocks.map((b) => {
      const tips = b.txs.map((t) => t.maxPriorityFeePerGas).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      return percentiles.map((pc) => qty(tips.length ? tips[Math.min(tips.length - 1, Math.floor((pc / 100) * tips.length))] : 0n));
    }),
  };
}

function callResult(chain: Chain, call: Record<string, unknown>, block: number): string {
  const to = typeof call.to === 'string' ? call.to.toLowerCase() : '';
  const data = typeof call.input === 'string' ? call.input : typeof call.data === 'string' ? call.data : '0x';
  if (!chain.contracts.includes(to)) return '0x';
  if (data.startsWith('0x70a08231') && data.length >= 74) {
    // balanceOf(address): a stable balance for the queried holder.
    return '0x' + chain.h('token-balance', to, data.slice(34, 74).toLowerCase(), Math.floor(block / 100)).slice(0, 24).padStart(64, '0');
  }
  return '0x' + chain.h('call', to, data.toLowerCase(), block);
}

type Handler = (chain: Chain, p: unknown[]) => unknown;
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});

const METHODS: Record<string, Handler> = {
  web3_clientVersion: () => CLIENT_VERSION,
  web3_sha3: (_c, p) => keccakHex(Buffer.from(String(p[0]).slice(2), 'hex')),
  net_version: (c) => String(c.info.chainId),
  net_listening: () => true,
  eth_syncing: () => false,
  eth_mining: () => false,
  eth_gasPrice: (c) => qty(c.block(c.head)!.baseFeePerGas + 1_000_000_000n),
  eth_feeHistory: feeHistory,
  eth_blockNumber: (c) => qty(c.head),
  eth_chainId: (c) => qty(c.info.chainId),
  eth_getBalance: (c, p) => qty(c.balance(String(p[0]), stateBlock(c, p[1]))),
  eth_getStorageAt: (c, p) => c.storage(String(p[0]), String(p[1]), stateBlock(c, p[2])),
  eth_getTransactionCount: (c, p) => qty(c.nonce(String(p[0]), stateBlock(c, p[1]))),
  eth_getBlockTransactionCountByHash: (c, p) => {
    const n = c.blockNumberByHash(String(p[0]));
    return n === undefined ? null : qty(c.txCount(n));
  },
  eth_getBlockTransactionCountByNumber: (c, p) => {
    const n = blockNumberOf(c, p[0]);
    return n > c.head ? null : qty(c.txCount(n));
  },
  eth_getUncleCountByBlockHash: (c, p) => {
    const n = c.blockNumberByHash(String(p[0]));
    return n === undefined ? null : qty(c.uncleCount(n));
  },
  eth_getUncleCountByBlockNumber: (c, p) => {
    const n = blockNumberOf(c, p[0]);
    return n > c.head ? null : qty(c.uncleCount(n));
  },
  eth_getCode: (c, p) => {
    stateBlock(c, p[1]);
    return c.code(String(p[0]));
  },
  // An empty or undecodable envelope is refused by the params check (params.ts rawTransaction).
  eth_sendRawTransaction: (_c, p) => keccakHex(Buffer.from(String(p[0]).slice(2), 'hex')),
  eth_call: (c, p) => callResult(c, obj(p[0]), stateBlock(c, p[1])),
  eth_estimateGas: (c, p) => {
    stateBlock(c, p[1]);
    const call = obj(p[0]);
    const to = typeof call.to === 'string' ? call.to.toLowerCase() : '';
    if (!to) return qty(120_000);
    return qty(c.contracts.includes(to) ? 52_000 : 21_000);
  },
  eth_getBlockByHash: (c, p) => {
    const n = c.blockNumberByHash(String(p[0]));
    return n === undefined ? null : c.blockJson(c.block(n)!, p[1] === true);
  },
  eth_getBlockByNumber: (c, p) => {
    const b = c.block(blockNumberOf(c, p[0]));
    return b ? c.blockJson(b, p[1] === true) : null;
  },
  eth_getTransactionByHash: (c, p) => {
    const f = findTx(c, p[0]);
    return f ? c.txJson(f.b, f.t) : null;
  },
  eth_getTransactionByBlockHashAndIndex: (c, p) => {
    const n = c.blockNumberByHash(String(p[0]));
    return n === undefined ? null : txAt(c, c.block(n), hexIndex(p[1]));
  },
  eth_getTransactionByBlockNumberAndIndex: (c, p) => txAt(c, c.block(blockNumberOf(c, p[0])), hexIndex(p[1])),
  eth_getTransactionReceipt: (c, p) => {
    const f = findTx(c, p[0]);
    return f ? c.receiptJson(f.b, f.t) : null;
  },
  eth_getUncleByBlockHashAndIndex: (c, p) => {
    const n = c.blockNumberByHash(String(p[0]));
    return n === undefined ? null : c.uncleJson(c.block(n)!, hexIndex(p[1]));
  },
  eth_getUncleByBlockNumberAndIndex: (c, p) => {
    const b = c.block(blockNumberOf(c, p[0]));
    return b ? c.uncleJson(b, hexIndex(p[1])) : null;
  },
  eth_getLogs: (c, p) => getLogs(c, obj(p[0])),
  eth_getWork: (c) => ['0x' + c.h('work', c.head), '0x' + c.h('seed', Math.floor(c.head / 30000)), '0x' + '0'.repeat(8) + c.h('boundary').slice(8)],
  eth_getProof: (c, p) => {
    const address = String(p[0]).toLowerCase();
    const block = stateBlock(c, p[2]);
    const code = c.code(address);
    const keys = Array.isArray(p[1]) ? (p[1] as string[]) : [];
    return {
      address,
      accountProof: [0, 1, 2].map((i) => '0x' + c.h('proof', address, block, i)),
      balance: qty(c.balance(address, block)),
      codeHash: code === '0x' ? EMPTY_CODE_HASH : keccakHex(Buffer.from(code.slice(2), 'hex')),
      nonce: qty(c.nonce(address, block)),
      storageHash: '0x' + c.h('storage-root', address, block),
      storageProof: keys.map((key) => ({
        key, value: qty(BigInt(c.storage(address, key, block))), proof: ['0x' + c.h('sproof', address, key, block)],
      })),
    };
  },
  trace_filter: (c, p) => traceFilter(c, obj(p[0])),
};
