// The gateway's method catalogue, hand-transcribed from /work/shared/reference/jsonrpc_methods.md (Cloudflare supported-methods
// page for the lists and limits; ethereum/execution-apis for param and result shapes; ethereum.org for the [ethorg] methods;
// Erigon/Nethermind for trace_filter). Pure data: params.ts checks values against it, the plugin turns it into completion and hover.
import { signatureLabel, type SignatureLabel } from '../../text';

/** The value shapes a param (or a key of a param object) can take. */
export type ValueType =
  | 'quantity' // uint: "0x" + hex digits, no leading zeros
  | 'byte' // execution-apis byte: "0x" + one or two hex digits ("0x2" and "0x02" alike)
  | 'integerOrQuantity' // JSON integer or quantity (trace_filter after/count, eth_feeHistory blockCount)
  | 'address' | 'addressOrNull' | 'addressList' | 'addressOrList'
  | 'hash32' | 'hash32List'
  | 'bytes' | 'bytesList' | 'bytesMax32' | 'bytesMax32List'
  | 'signedTransaction' // DATA of an EIP-2718 envelope: a type byte 0x01-0x04 then an RLP list, or a legacy RLP list
  | 'boolean'
  | 'block' // BlockNumberOrTag
  | 'blockForRange' // BlockNumberOrTagForRange (no "pending")
  | 'blockOrHash' // BlockNumberOrTagOrHash
  | 'callObject' | 'logFilter' | 'traceFilter'
  | 'percentiles' | 'topics' | 'accessList' | 'authorizationList' | 'traceMode';

export interface ParamSpec {
  name: string;
  type: ValueType;
  required: boolean;
  description: string;
}

export interface MethodSpec {
  name: string;
  description: string;
  params: ParamSpec[];
  /** What the result holds. */
  result: string;
  /** Gateway limits, one sentence each. */
  limits: string[];
  /** Where the shapes come from. */
  source: 'execution-apis' | 'ethereum.org' | 'gateway';
}

export interface KeySpec {
  type: ValueType;
  description: string;
  /** A placeholder for snippets and completions. */
  example: string;
}

export type ObjectType = 'callObject' | 'logFilter' | 'traceFilter';

export const LIMITS = { getLogsMaxBlockRange: 800, feeHistoryMaxBlockCount: 10, traceFilterMaxBlockRange: 800, traceFilterMaxCount: 200 };

export const BLOCK_TAGS = ['latest', 'earliest', 'pending', 'safe', 'finalized'] as const;
export const BLOCK_TAG_DESCRIPTIONS: Record<(typeof BLOCK_TAGS)[number], string> = {
  latest: 'The most recent block the node has seen.',
  earliest: 'The genesis block (or the lowest block the node still has).',
  pending: 'The block being built from the pending state; not allowed as an eth_getLogs bound.',
  safe: 'The most recent block that is safe from re-orgs under honest-majority assumptions.',
  finalized: 'The most recent block accepted as final by the beacon chain.',
};

/** Human names of the value types, used in hovers, completion details and messages. */
export const TYPE_LABELS: Record<ValueType, string> = {
  quantity: 'QUANTITY (hex, no leading zeros)',
  byte: 'byte (0x + 1 or 2 hex digits)',
  integerOrQuantity: 'integer or QUANTITY',
  address: 'address (20 bytes)',
  addressOrNull: 'address or null',
  addressList: 'address[]',
  addressOrList: 'address | address[] | null',
  hash32: 'hash (32 bytes)',
  hash32List: 'hash[]',
  bytes: 'DATA (hex bytes)',
  bytesList: 'DATA[]',
  bytesMax32: 'DATA (up to 32 bytes)',
  bytesMax32List: 'DATA (up to 32 bytes)[]',
  signedTransaction: 'signed transaction (RLP-encoded DATA)',
  boolean: 'boolean',
  block: 'block number or tag',
  blockForRange: 'block number or tag (no "pending")',
  blockOrHash: 'block number, tag or block hash',
  callObject: 'transaction call object',
  logFilter: 'log filter object',
  traceFilter: 'trace filter object',
  percentiles: 'number[] (0..100, strictly increasing)',
  topics: '(null | hash | hash[])[]',
  accessList: '{ address, storageKeys }[]',
  authorizationList: '{ chainId, nonce, address, yParity, r, s }[]',
  traceMode: '"union" | "intersection"',
};

const q = (description: string, example = '0x0'): KeySpec => ({ type: 'quantity', description, example });

export const OBJECT_KEYS: Record<ObjectType, Record<string, KeySpec>> = {
  // execution-apis GenericTransaction (additionalProperties: false); "data" is the legacy name of "input" that nodes still accept.
  callObject: {
    // execution-apis types it "byte" (^0x([0-9a-fA-F]?){1,2}$), so "0x02" is as valid as "0x2".
    type: { type: 'byte', description: 'Transaction type (0x0 legacy, 0x1 access list, 0x2 EIP-1559, 0x3 blob, 0x4 set-code).', example: '0x2' },
    nonce: q('Sender nonce.'),
    to: { type: 'addressOrNull', description: 'Recipient address; null for contract creation.', example: '0x0000000000000000000000000000000000000000' },
    from: { type: 'address', description: 'Sender address.', example: '0x0000000000000000000000000000000000000000' },
    gas: q('Gas limit.', '0x5208'),
    value: q('Value transferred, in wei.'),
    input: { type: 'bytes', description: 'Call data (function selector and encoded arguments).', example: '0x' },
    data: { type: 'bytes', description: 'Legacy name of "input", still accepted by nodes.', example: '0x' },
    gasPrice: q('Gas price, in wei (legacy and access-list transactions).'),
    maxPriorityFeePerGas: q('Maximum tip per gas, in wei (EIP-1559).'),
    maxFeePerGas: q('Maximum total fee per gas, in wei (EIP-1559).'),
    maxFeePerBlobGas: q('Maximum fee per blob gas, in wei (EIP-4844).'),
    accessList: { type: 'accessList', description: 'EIP-2930 access list: addresses and storage keys the transaction touches.', example: '[]' },
    blobVersionedHashes: { type: 'hash32List', description: 'Versioned hashes of the blobs (EIP-4844).', example: '[]' },
    blobs: { type: 'bytesList', description: 'Raw blob data (EIP-4844).', example: '[]' },
    chainId: q('Chain id the transaction is valid on.', '0x1'),
    authorizationList: { type: 'authorizationList', description: 'EIP-7702 authorizations (set-code transactions).', example: '[]' },
    commitments: { type: 'bytesList', description: 'KZG commitments of the blobs.', example: '[]' },
    proofs: { type: 'bytesList', description: 'KZG proofs of the blobs.', example: '[]' },
  },
  // execution-apis Filter; blockHash excludes fromBlock/toBlock.
  logFilter: {
    fromBlock: { type: 'blockForRange', description: 'First block of the range (number or tag; default "latest").', example: 'latest' },
    toBlock: { type: 'blockForRange', description: 'Last block of the range (number or tag; default "latest").', example: 'latest' },
    blockHash: { type: 'hash32', description: 'Only logs of this block; excludes fromBlock and toBlock.', example: '0x' + '0'.repeat(64) },
    address: { type: 'addressOrList', description: 'Contract address, or list of addresses, the logs must come from.', example: '0x0000000000000000000000000000000000000000' },
    topics: { type: 'topics', description: 'Topic filters by position; null matches anything, a list matches any of its entries.', example: '[]' },
  },
  // Cloudflare doc + Erigon TraceFilterRequest + Nethermind TraceFilterForRpc.
  traceFilter: {
    fromBlock: { type: 'block', description: 'First block to take traces from (quantity or tag; default 0, the genesis block, so a filter without it spans the whole chain).', example: 'latest' },
    toBlock: { type: 'block', description: 'Last block to take traces from (quantity or tag; default "latest").', example: 'latest' },
    fromAddress: { type: 'addressList', description: 'Sender addresses to match.', example: '[]' },
    toAddress: { type: 'addressList', description: 'Receiver addresses to match (an array, though the gateway doc types it as one address).', example: '[]' },
    after: { type: 'integerOrQuantity', description: 'Offset: the number of matching traces to skip.', example: '0' },
    count: { type: 'integerOrQuantity', description: 'Number of traces to return (the gateway allows at most 200).', example: '100' },
    mode: { type: 'traceMode', description: 'How fromAddress and toAddress combine: "union" (default) or "intersection" (Erigon, Nethermind).', example: 'union' },
    blockHash: { type: 'hash32', description: 'Only traces of this block (newer Nethermind); excludes fromBlock and toBlock.', example: '0x' + '0'.repeat(64) },
  },
};

const p = (name: string, type: ValueType, required: boolean, description: string): ParamSpec => ({ name, type, required, description });
const ADDRESS = p('Address', 'address', true, 'The account address.');
const BLOCK_OR_HASH = p('Block', 'blockOrHash', false, 'Block number, tag or block hash to read the state at (default "latest").');
const BLOCK_HASH = p('Block hash', 'hash32', true, 'Hash of the block.');
const BLOCK = p('Block', 'block', true, 'Block number or tag.');
const TX_HASH = p('Transaction hash', 'hash32', true, 'Hash of the transaction.');
const HYDRATED = p('Hydrated transactions', 'boolean', true, 'true for full transaction objects, false for transaction hashes only.');

function m(name: string, description: string, params: ParamSpec[], result: string, source: MethodSpec['source'], limits: string[] = []): MethodSpec {
  return { name, description, params, result, source, limits };
}

export const METHODS: readonly MethodSpec[] = [
  m('web3_clientVersion', 'Returns the current client version.', [], 'string: the client version.', 'ethereum.org'),
  m('web3_sha3', 'Returns the Keccak-256 hash of the given data.', [p('data', 'bytes', true, 'The data to hash.')], 'bytes32: the Keccak-256 hash.', 'ethereum.org'),
  m('net_version', 'Returns the current network id.', [], 'string: the network id in decimal (e.g. "1").', 'execution-apis'),
  m('net_listening', 'Returns true while the client is listening for network connections.', [], 'boolean.', 'ethereum.org'),
  m('eth_syncing', 'Returns the sync status of the node.', [], 'false when not syncing, else { startingBlock, currentBlock, highestBlock } (quantities).', 'execution-apis'),
  m('eth_mining', 'Returns whether the client is mining new blocks.', [], 'boolean.', 'ethereum.org'),
  m('eth_gasPrice', 'Returns the current price per gas in wei.', [], 'QUANTITY: gas price in wei.', 'execution-apis'),
  m('eth_feeHistory', 'Returns base fees, gas-used ratios and reward percentiles for a range of recent blocks.', [
    p('blockCount', 'integerOrQuantity', true, 'Number of blocks in the requested range (the gateway allows at most 10).'),
    p('newestBlock', 'block', true, 'Highest block of the requested range (number or tag).'),
    p('rewardPercentiles', 'percentiles', true, 'Strictly increasing percentiles (0 to 100) of effective priority fees to sample per block.'),
  ], '{ oldestBlock, baseFeePerGas[], gasUsedRatio[], baseFeePerBlobGas[]?, blobGasUsedRatio[]?, reward[][]? }.', 'execution-apis',
  [`blockCount is at most ${LIMITS.feeHistoryMaxBlockCount}.`]),
  m('eth_blockNumber', 'Returns the number of the most recent block.', [], 'QUANTITY: the block number.', 'execution-apis'),
  m('eth_chainId', 'Returns the chain id.', [], 'QUANTITY: the chain id (0x1 on mainnet).', 'execution-apis'),
  m('eth_getBalance', 'Returns the balance of an account.', [ADDRESS, BLOCK_OR_HASH], 'QUANTITY: the balance in wei.', 'execution-apis'),
  m('eth_getStorageAt', 'Returns the value of a storage slot of a contract.', [ADDRESS,
    p('Storage slot', 'bytesMax32', true, 'Position of the slot (up to 32 bytes).'), BLOCK_OR_HASH], 'DATA: the slot value.', 'execution-apis'),
  m('eth_getTransactionCount', 'Returns the number of transactions sent from an address (its nonce).', [ADDRESS, BLOCK_OR_HASH],
    'QUANTITY: the transaction count.', 'execution-apis'),
  m('eth_getBlockTransactionCountByHash', 'Returns the number of transactions in a block, by block hash.', [BLOCK_HASH],
    'QUANTITY, or null when the block is unknown.', 'execution-apis'),
  m('eth_getBlockTransactionCountByNumber', 'Returns the number of transactions in a block, by number or tag.', [BLOCK],
    'QUANTITY, or null when the block is unknown.', 'execution-apis'),
  m('eth_getUncleCountByBlockHash', 'Returns the number of uncles of a block, by block hash.', [p('blockHash', 'hash32', true, 'Hash of the block.')],
    'QUANTITY: the uncle count.', 'ethereum.org'),
  m('eth_getUncleCountByBlockNumber', 'Returns the number of uncles of a block, by number or tag.', [p('block', 'block', true, 'Block number or tag.')],
    'QUANTITY: the uncle count.', 'ethereum.org'),
  m('eth_getCode', 'Returns the code deployed at an address.', [ADDRESS, BLOCK_OR_HASH], 'DATA: the code ("0x" for an account without code).', 'execution-apis'),
  m('eth_sendRawTransaction', 'Submits a signed transaction to the network.', [p('Transaction', 'signedTransaction', true, 'The signed transaction (RLP-encoded; typed ones start with their type byte 0x01 to 0x04).')],
    'hash: the transaction hash.', 'execution-apis'),
  m('eth_call', 'Executes a message call without creating a transaction.', [p('Transaction', 'callObject', true, 'The call to execute.'), BLOCK_OR_HASH],
    'DATA: the return value of the call.', 'execution-apis'),
  m('eth_estimateGas', 'Estimates the gas a transaction needs.', [p('Transaction', 'callObject', true, 'The transaction to estimate.'),
    p('Block', 'block', false, 'Block number or tag to estimate against (default "latest").')], 'QUANTITY: the gas estimate.', 'execution-apis'),
  m('eth_getBlockByHash', 'Returns a block by hash.', [BLOCK_HASH, HYDRATED], 'Block object, or null when the block is unknown.', 'execution-apis'),
  m('eth_getBlockByNumber', 'Returns a block by number or tag.', [BLOCK, HYDRATED], 'Block object, or null when the block is unknown.', 'execution-apis'),
  m('eth_getTransactionByHash', 'Returns a transaction by hash.', [TX_HASH], 'Transaction object, or null when unknown.', 'execution-apis'),
  m('eth_getTransactionByBlockHashAndIndex', 'Returns a transaction by block hash and position in the block.',
    [BLOCK_HASH, p('Transaction index', 'quantity', true, 'Position of the transaction in the block.')], 'Transaction object, or null.', 'execution-apis'),
  m('eth_getTransactionByBlockNumberAndIndex', 'Returns a transaction by block number and position in the block.',
    [BLOCK, p('Transaction index', 'quantity', true, 'Position of the transaction in the block.')], 'Transaction object, or null.', 'execution-apis'),
  m('eth_getTransactionReceipt', 'Returns the receipt of a transaction by transaction hash.', [TX_HASH], 'Receipt object, or null when unknown or pending.', 'execution-apis'),
  m('eth_getUncleByBlockHashAndIndex', 'Returns an uncle of a block, by block hash and uncle index.',
    [p('blockHash', 'hash32', true, 'Hash of the block.'), p('uncleIndex', 'quantity', true, 'Position of the uncle.')], 'Block object (without transactions), or null.', 'ethereum.org'),
  m('eth_getUncleByBlockNumberAndIndex', 'Returns an uncle of a block, by block number and uncle index.',
    [p('block', 'block', true, 'Block number or tag.'), p('uncleIndex', 'quantity', true, 'Position of the uncle.')], 'Block object (without transactions), or null.', 'ethereum.org'),
  m('eth_getLogs', 'Returns the logs matching a filter.', [p('Filter', 'logFilter', true, 'Block range (or block hash), addresses and topics to match.')],
    'Log[]: the matching logs.', 'execution-apis', [`A range covers at most ${LIMITS.getLogsMaxBlockRange} blocks, fromBlock and toBlock included (toBlock − fromBlock ≤ ${LIMITS.getLogsMaxBlockRange - 1}).`]),
  m('eth_getWork', 'Returns the hash of the current block, the seed hash and the boundary condition (proof-of-work only).', [],
    '[powHash, seedHash, boundary] (bytes32 each).', 'ethereum.org'),
  m('eth_getProof', 'Returns the account and storage values of an account, with Merkle proofs.', [ADDRESS,
    p('StorageKeys', 'bytesMax32List', true, 'Storage slots to prove.'), BLOCK_OR_HASH],
  '{ address, accountProof[], balance, codeHash, nonce, storageHash, storageProof[] }.', 'execution-apis'),
  m('trace_filter', 'Returns the execution traces matching a filter (block range, sender and receiver addresses).',
    [p('filter', 'traceFilter', true, 'Block range, addresses, offset and count of the traces to return.')],
    'Trace record[]: { action, blockHash, blockNumber, result, subtraces, traceAddress, transactionHash, transactionPosition, type }.', 'gateway',
    [`A range covers at most ${LIMITS.traceFilterMaxBlockRange} blocks, fromBlock and toBlock included (toBlock − fromBlock ≤ ${LIMITS.traceFilterMaxBlockRange - 1}).`, `count is at most ${LIMITS.traceFilterMaxCount}.`]),
];

export const METHOD_BY_NAME: ReadonlyMap<string, MethodSpec> = new Map(METHODS.map((x) => [x.name, x]));

export const SUPPORTED_METHODS: readonly string[] = METHODS.map((x) => x.name);

export const UNSUPPORTED_METHODS: readonly string[] = [
  'net_peerCount', 'eth_protocolVersion', 'eth_coinbase', 'eth_hashrate', 'eth_accounts', 'eth_sign', 'eth_sendTransaction',
  'eth_getCompilers', 'eth_compileLLL', 'eth_compileSolidity', 'eth_compileSerpent', 'eth_newFilter', 'eth_newBlockFilter',
  'eth_newPendingTransactionFilter', 'eth_uninstallFilter', 'eth_getFilterChanges', 'eth_getFilterLogs', 'eth_submitWork',
  'eth_submitHashrate',
];

const NO_FILTERS = 'It keeps no filter between requests';
const NO_KEYS = 'It holds no private keys';
const MINING = 'The nodes behind it do not mine.';
const COMPILERS = 'Ethereum clients no longer compile contracts: compile with solc or your build tool.';

/**
 * Why the gateway refuses each of UNSUPPORTED_METHODS and what to ask instead, one sentence whose "it" is the gateway: the diagnostic
 * and the hover say it after the 403 (ui7's walk: "does not support eth_sign" left a newcomer with nothing to do next).
 */
export const UNSUPPORTED_WHY: Readonly<Record<string, string>> = {
  net_peerCount: 'It does not expose the nodes behind it.',
  eth_protocolVersion: 'It does not expose the nodes behind it.',
  eth_coinbase: MINING,
  eth_hashrate: MINING,
  eth_accounts: 'It holds no accounts: your wallet or client knows its own addresses.',
  eth_sign: `${NO_KEYS}: sign in your wallet or client (ethers' signMessage, viem's signMessage).`,
  eth_sendTransaction: `${NO_KEYS}: sign the transaction in your wallet or client and send it with "eth_sendRawTransaction".`,
  eth_getCompilers: COMPILERS,
  eth_compileLLL: COMPILERS,
  eth_compileSolidity: COMPILERS,
  eth_compileSerpent: COMPILERS,
  eth_newFilter: `${NO_FILTERS}: ask "eth_getLogs" with the same filter object for the logs it matches.`,
  eth_newBlockFilter: `${NO_FILTERS}: ask "eth_blockNumber" again for new blocks.`,
  eth_newPendingTransactionFilter: `${NO_FILTERS}.`,
  eth_uninstallFilter: `${NO_FILTERS}, so there is none to remove.`,
  eth_getFilterChanges: `${NO_FILTERS}: ask "eth_getLogs" with the filter object itself.`,
  eth_getFilterLogs: `${NO_FILTERS}: ask "eth_getLogs" with the filter object itself.`,
  eth_submitWork: MINING,
  eth_submitHashrate: MINING,
};

/** What each of UNSUPPORTED_METHODS does on a node that serves it (Ethereum's JSON-RPC API), for the hover: the why and what to ask
 * instead are UNSUPPORTED_WHY's, in the diagnostic that VS Code shows in the same hover. */
export const UNSUPPORTED_WHAT: Readonly<Record<string, string>> = {
  net_peerCount: 'the number of peers a node is connected to',
  eth_protocolVersion: "a node's Ethereum protocol version",
  eth_coinbase: 'the address a mining node is paid its rewards at',
  eth_hashrate: "a mining node's hash rate",
  eth_accounts: 'the addresses a node holds private keys for',
  eth_sign: "signs data with the private key of one of a node's accounts",
  eth_sendTransaction: "signs a transaction with one of a node's accounts and sends it",
  eth_getCompilers: 'the contract compilers a node offers (removed from the clients)',
  eth_compileLLL: 'compiles LLL source on a node (removed from the clients)',
  eth_compileSolidity: 'compiles Solidity source on a node (removed from the clients)',
  eth_compileSerpent: 'compiles Serpent source on a node (removed from the clients)',
  eth_newFilter: 'creates a log filter kept on a node, read later with "eth_getFilterChanges" or "eth_getFilterLogs"',
  eth_newBlockFilter: 'creates a filter kept on a node that notes each new block',
  eth_newPendingTransactionFilter: 'creates a filter kept on a node that notes each new pending transaction',
  eth_uninstallFilter: 'removes a filter kept on a node',
  eth_getFilterChanges: 'what a filter kept on a node matched since it was last read',
  eth_getFilterLogs: 'every log a log filter kept on a node matches',
  eth_submitWork: "submits a miner's proof-of-work solution",
  eth_submitHashrate: "reports a miner's hash rate",
};

/** The supported method that takes the same params as a refused one and answers what it would have (a quick fix offers it). */
export const UNSUPPORTED_INSTEAD: Readonly<Record<string, string>> = { eth_newFilter: 'eth_getLogs' };

/** The one-line signature of a method, e.g. `eth_getBalance(Address: address, Block?: block number, tag or block hash)`. */
export function signature(spec: MethodSpec): string {
  return signatureParts(spec).label;
}

/** signature()'s label with each param's place in it, the one builder of it: hover and completion show the label, signature help
 * marks the params in it. */
export function signatureParts(spec: MethodSpec): SignatureLabel {
  return signatureLabel(`${spec.name}(`, spec.params.map((x) => `${x.name}${x.required ? '' : '?'}: ${TYPE_LABELS[x.type]}`), ')');
}
