// The functions of common contract interfaces by their selector (the first 4 bytes of a call's data: keccak256 of the signature),
// so that an eth_call's or eth_estimateGas's "data" is read back in words: a hover with the decoded arguments, an inlay hint with the
// signature, and a warning when the data is too short for the function's arguments (a Solidity contract reverts on it, having
// nothing to decode). The selectors are written out (the server carries no keccak); test/unit/jsonrpc/selectors.test.ts recomputes
// every one with ethers.

/** The ABI types these functions take. One 32-byte head word each: a static value, or the offset of a dynamic one. */
export type AbiType = 'address' | 'uint256' | 'bool' | 'bytes4' | 'bytes32' | 'bytes' | '(address,bool,bytes)[]';

export interface KnownFunction {
  selector: string;
  /** The canonical signature, as the selector is computed from it. */
  signature: string;
  args: { name: string; type: AbiType }[];
  /** The interface it belongs to, for the hover. */
  standard: string;
}

function f(selector: string, standard: string, name: string, args: [string, AbiType][] = []): KnownFunction {
  return { selector, standard, signature: `${name}(${args.map(([, t]) => t).join(',')})`, args: args.map(([n, type]) => ({ name: n, type })) };
}

export const KNOWN_FUNCTIONS: readonly KnownFunction[] = [
  f('0xa9059cbb', 'ERC-20', 'transfer', [['to', 'address'], ['amount', 'uint256']]),
  f('0x23b872dd', 'ERC-20 / ERC-721', 'transferFrom', [['from', 'address'], ['to', 'address'], ['amount or tokenId', 'uint256']]),
  f('0x095ea7b3', 'ERC-20 / ERC-721', 'approve', [['spender', 'address'], ['amount or tokenId', 'uint256']]),
  f('0x70a08231', 'ERC-20 / ERC-721', 'balanceOf', [['owner', 'address']]),
  f('0xdd62ed3e', 'ERC-20', 'allowance', [['owner', 'address'], ['spender', 'address']]),
  f('0x18160ddd', 'ERC-20', 'totalSupply'),
  f('0x313ce567', 'ERC-20', 'decimals'),
  f('0x95d89b41', 'ERC-20', 'symbol'),
  f('0x06fdde03', 'ERC-20', 'name'),
  f('0x7ecebe00', 'ERC-2612', 'nonces', [['owner', 'address']]),
  f('0x6352211e', 'ERC-721', 'ownerOf', [['tokenId', 'uint256']]),
  f('0xc87b56dd', 'ERC-721', 'tokenURI', [['tokenId', 'uint256']]),
  f('0x081812fc', 'ERC-721', 'getApproved', [['tokenId', 'uint256']]),
  f('0xe985e9c5', 'ERC-721 / ERC-1155', 'isApprovedForAll', [['owner', 'address'], ['operator', 'address']]),
  f('0xa22cb465', 'ERC-721 / ERC-1155', 'setApprovalForAll', [['operator', 'address'], ['approved', 'bool']]),
  f('0x42842e0e', 'ERC-721', 'safeTransferFrom', [['from', 'address'], ['to', 'address'], ['tokenId', 'uint256']]),
  f('0xb88d4fde', 'ERC-721', 'safeTransferFrom', [['from', 'address'], ['to', 'address'], ['tokenId', 'uint256'], ['data', 'bytes']]),
  f('0x00fdd58e', 'ERC-1155', 'balanceOf', [['account', 'address'], ['id', 'uint256']]),
  f('0x0e89341c', 'ERC-1155', 'uri', [['id', 'uint256']]),
  f('0x01ffc9a7', 'ERC-165', 'supportsInterface', [['interfaceId', 'bytes4']]),
  f('0x1626ba7e', 'ERC-1271', 'isValidSignature', [['hash', 'bytes32'], ['signature', 'bytes']]),
  f('0x38d52e0f', 'ERC-4626', 'asset'),
  f('0x01e1d114', 'ERC-4626', 'totalAssets'),
  f('0xc6e6f592', 'ERC-4626', 'convertToShares', [['assets', 'uint256']]),
  f('0x07a2d13a', 'ERC-4626', 'convertToAssets', [['shares', 'uint256']]),
  f('0x8da5cb5b', 'Ownable', 'owner'),
  f('0xd0e30db0', 'WETH', 'deposit'),
  f('0x2e1a7d4d', 'WETH', 'withdraw', [['amount', 'uint256']]),
  f('0x82ad56cb', 'Multicall3', 'aggregate3', [['calls', '(address,bool,bytes)[]']]),
  f('0x4d2301cc', 'Multicall3', 'getEthBalance', [['addr', 'address']]),
  f('0x42cbb15c', 'Multicall3', 'getBlockNumber'),
  f('0x3b3b57de', 'ENS resolver', 'addr', [['node', 'bytes32']]),
  f('0x0178b8bf', 'ENS registry', 'resolver', [['node', 'bytes32']]),
  f('0x0902f1ac', 'Uniswap V2 pair', 'getReserves'),
  f('0x0dfe1681', 'Uniswap V2 pair', 'token0'),
  f('0xd21220a7', 'Uniswap V2 pair', 'token1'),
  f('0xfeaf968c', 'Chainlink feed', 'latestRoundData'),
];

const BY_SELECTOR = new Map(KNOWN_FUNCTIONS.map((k) => [k.selector, k]));

export interface DecodedArg {
  name: string; type: AbiType;
  /** The value in words; undefined when the data ends before it or inside it. */ value?: string;
  /** Bytes of its head word the data holds when it ends inside it. */ cutAt?: number;
}
export interface DecodedCall {
  fn: KnownFunction;
  args: DecodedArg[];
  /** Bytes missing from the arguments' head words (0 when the data holds them all). */
  shortBy: number;
}

const DATA = /^0x[0-9a-fA-F]*$/;
const groups = (n: bigint) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** One head word (64 hex digits) read as its type. */
function word(type: AbiType, hex: string): string {
  const n = BigInt(`0x${hex}`);
  switch (type) {
    case 'address': return /^0{24}/.test(hex) ? `0x${hex.slice(24).toLowerCase()}` : `0x${hex.slice(24).toLowerCase()} (not a clean address: its high 12 bytes are not zero)`;
    case 'uint256': return n >= 1_000_000n ? `${groups(n)} (0x${n.toString(16)})` : groups(n);
    case 'bool': return n === 0n ? 'false' : n === 1n ? 'true' : `not a bool (0x${n.toString(16)})`;
    // A bytesN is left-aligned: the ABI decoder (Solidity's v2, the default since 0.8) reverts on non-zero bytes after it.
    case 'bytes4': return /^0{56}$/.test(hex.slice(8)) ? `0x${hex.slice(0, 8).toLowerCase()}` : `0x${hex.slice(0, 8).toLowerCase()} (not a clean bytes4: its low 28 bytes are not zero)`;
    case 'bytes32': return `0x${hex.toLowerCase()}`;
    default: return `at byte ${groups(n)} of the arguments (dynamic)`;
  }
}

/** The known function a call's data calls and how many bytes its head words lack, without reading the values (the check of every
 * eth_call of a batch needs no more); undefined as for decodeCall. */
export function knownCall(data: string, readHead = true): { fn: KnownFunction; shortBy: number } | undefined {
  if (data.length < 10 || data.length % 2 !== 0) return undefined;
  const head = data.slice(0, 10);
  const fn = BY_SELECTOR.get(head) ?? BY_SELECTOR.get(head.toLowerCase());
  if (!fn) return undefined;
  const shortBy = Math.max(0, (fn.args.length * 64 - (data.length - 10)) / 2);
  // Only the head words are read (call data can be long; the checker reads every digit of it already); data the check finds whole
  // is not read at all (readHead false: it reports only short data, and bad digits are invalid-data's).
  if ((readHead || shortBy > 0) && !DATA.test(data.slice(0, 10 + fn.args.length * 64))) return undefined;
  return { fn, shortBy };
}

/** The call's function and arguments when its selector is a known one; undefined for other data (or not hex data of whole bytes). */
export function decodeCall(data: string): DecodedCall | undefined {
  const known = knownCall(data);
  if (!known) return undefined;
  const args = known.fn.args.map((a, i) => {
    const hex = data.slice(10 + i * 64, 10 + i * 64 + 64);
    return hex.length === 64 ? { ...a, value: word(a.type, hex) } : hex.length > 0 ? { ...a, cutAt: hex.length / 2 } : { ...a };
  });
  return { ...known, args };
}

/** The hover's text for a decoded call. */
export function callMarkdown(c: DecodedCall): string {
  const lines = [`**${c.fn.signature}** (${c.fn.standard}), selector \`${c.fn.selector}\``];
  for (const a of c.args) {
    const missing = a.cutAt === undefined ? '_missing: the data ends before it_' : `_cut: the data ends ${a.cutAt} of its 32 bytes in_`;
    lines.push(`- \`${a.name}\` (${a.type}): ${a.value ?? missing}`);
  }
  return lines.join('\n');
}
