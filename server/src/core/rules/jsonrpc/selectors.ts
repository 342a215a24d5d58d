// The functions of common contract interfaces by their selector (the first 4 bytes of a call's data: keccak256 of the signature),
// so that an eth_call's or eth_estimateGas's "data" is read back in words: a hover with the decoded arguments, an inlay hint with the
// signature, and a warning when the data is too short for the function's arguments (a Solidity contract reverts on it, having
// nothing to decode) or when a dynamic argument's offset or length is wrong (callDataFault). The selectors are written out (not hashed
// at load: core/keccak.ts is slow BigInt lanes); test/unit/jsonrpc/selectors.test.ts recomputes every one with ethers, and callDataTail.test.ts
// holds the decoding of dynamic arguments to ethers' encoder.

/**
 * An ABI type (the Solidity ABI spec's types: address, bool, uint<M>, int<M>, bytes<M>, bytes, string, T[k], T[] and tuples), parsed
 * from its text. `text` is the canonical form (no member names), as a selector's signature spells it. A static type's value takes
 * `words` head words in place; a dynamic one (bytes, string, T[], and T[k] or tuples holding one) one head word, the offset of its
 * value in the tail.
 */
export type AbiNode = { text: string; dynamic: boolean; words: number } & (
  | { kind: 'address' | 'bool' | 'bytes' | 'string' }
  | { kind: 'uint' | 'int'; bits: number }
  | { kind: 'fixedBytes'; size: number }
  | { kind: 'array'; item: AbiNode; length: number | undefined }
  | { kind: 'tuple'; members: { name: string | undefined; type: AbiNode }[]; /** Bytes of its members' head words. */ head: number });

/** An ABI type's text ("uint256", "(address target,bool allowFailure,bytes callData)[]") parsed; member names are kept for the hover. */
export function parseAbiType(text: string): AbiNode {
  let i = 0;
  const fail = (what: string): never => { throw new Error(`ABI type "${text}": ${what} at character ${i}`); };
  const type = (): AbiNode => {
    let t: AbiNode;
    if (text[i] === '(') {
      i++;
      const members: { name: string | undefined; type: AbiNode }[] = [];
      while (text[i] !== ')') {
        if (members.length > 0) { if (text[i] !== ',') fail('"," or ")" expected'); i++; }
        const m = type();
        const name = /^ ([A-Za-z_$][\w$]*)/.exec(text.slice(i));
        if (name) i += name[0].length;
        members.push({ name: name?.[1], type: m });
      }
      i++;
      const dynamic = members.some((m) => m.type.dynamic);
      const head = members.reduce((n, m) => n + m.type.words * 32, 0);
      t = { kind: 'tuple', members, head, text: `(${members.map((m) => m.type.text).join(',')})`, dynamic, words: dynamic ? 1 : head / 32 };
    } else {
      const m = /^([a-z]+)(\d*)/.exec(text.slice(i)) ?? fail('a type expected');
      i += m[0].length;
      const [, base, digits] = m;
      const n = Number(digits);
      if ((base === 'address' || base === 'bool' || base === 'bytes' || base === 'string') && digits === '') {
        t = { kind: base, text: base, dynamic: base === 'bytes' || base === 'string', words: 1 };
      } else if ((base === 'uint' || base === 'int') && n >= 8 && n <= 256 && n % 8 === 0 && digits === String(n)) {
        t = { kind: base, bits: n, text: m[0], dynamic: false, words: 1 };
      } else if (base === 'bytes' && n >= 1 && n <= 32 && digits === String(n)) {
        t = { kind: 'fixedBytes', size: n, text: m[0], dynamic: false, words: 1 };
      } else return fail(`unknown type "${m[0]}"`);
    }
    for (let a = /^\[(\d*)\]/.exec(text.slice(i)); a; a = /^\[(\d*)\]/.exec(text.slice(i))) {
      i += a[0].length;
      const length = a[1] === '' ? undefined : Number(a[1]);
      const dynamic: boolean = length === undefined || t.dynamic;
      t = { kind: 'array', item: t, length, text: `${t.text}[${a[1]}]`, dynamic, words: dynamic ? 1 : t.words * length! };
    }
    return t;
  };
  const t = type();
  if (i !== text.length) fail('unexpected text');
  return t;
}

export interface KnownFunction {
  selector: string;
  /** The canonical signature, as the selector is computed from it. */
  signature: string;
  /** Each argument's name, canonical type and parsed type. */
  args: { name: string; type: string; abi: AbiNode }[];
  /** The interface it belongs to, for the hover. */
  standard: string;
  /** Bytes of the arguments' head words. */
  head: number;
  /** Whether an argument is dynamic (the only functions whose offsets the check follows). */
  dynamic: boolean;
}

function f(selector: string, standard: string, name: string, params: [string, string][] = []): KnownFunction {
  const args = params.map(([n, type]) => { const abi = parseAbiType(type); return { name: n, type: abi.text, abi }; });
  return {
    selector, standard, signature: `${name}(${args.map((a) => a.type).join(',')})`, args,
    head: args.reduce((n, a) => n + a.abi.words * 32, 0), dynamic: args.some((a) => a.abi.dynamic),
  };
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
  f('0x82ad56cb', 'Multicall3', 'aggregate3', [['calls', '(address target,bool allowFailure,bytes callData)[]']]),
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

/**
 * A decoded value: a static elementary value's head word (64 hex digits), the content of bytes or a string (hex digits), or the
 * items of an array or a tuple. In the hover an array's items past SHOWN are only checked, not decoded: `count` is all of them.
 */
export type AbiValue =
  | { node: AbiNode; word: string }
  | { node: AbiNode; content: string }
  | { node: AbiNode; items: AbiValue[]; count: number };

/** A dynamic argument whose offset or length the data cannot hold, or that no ABI encoder writes. */
export interface CallDataFault {
  /** The argument, with the path of the item or member at fault: "data", "calls[1].callData". */
  arg: string;
  /** Byte of the arguments at which the word at fault (the offset or the length) starts. */
  at: number;
  /** What is wrong, naming the argument: 'the offset of "data", 224, points past the end of the arguments (224 bytes)'. */
  message: string;
  /** Whether a contract's decoder reverts on it (past the end); an offset no encoder writes (not a multiple of 32, into the head
   * words) Solidity's decoder reads as it is. */
  reverts: boolean;
}

export interface DecodedArg {
  name: string; type: string;
  /** The value in words; undefined when the data ends before its head word or inside it, or when its offset or length is wrong. */
  value?: string;
  /** Bytes of its head word the data holds when it ends inside it. */ cutAt?: number;
  /** The value as read (for an array, its first SHOWN items). */ decoded?: AbiValue;
  /** What is wrong with its offset or length (CallDataFault's message). */ fault?: string;
  /** An array's first SHOWN items in words, and how many more there are. */ items?: string[]; more?: number;
}
export interface DecodedCall {
  fn: KnownFunction;
  args: DecodedArg[];
  /** Bytes missing from the arguments' head words (0 when the data holds them all). */
  shortBy: number;
}

const DATA = /^0x[0-9a-fA-F]*$/;
const HEX = /^[0-9a-fA-F]*$/;
const WORD = /^[0-9a-fA-F]{64}$/;
const groups = (n: bigint) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
/** Array items the hover shows (the rest are counted). */
const SHOWN = 10;
/** Bytes of a bytes value and characters of a string the hover shows. */
const BYTES_SHOWN = 64;
const CHARS_SHOWN = 200;

/** One head word (64 hex digits) read as its static elementary type. */
function word(type: AbiNode, hex: string): string {
  const n = BigInt(`0x${hex}`);
  switch (type.kind) {
    case 'address': return /^0{24}/.test(hex) ? `0x${hex.slice(24).toLowerCase()}` : `0x${hex.slice(24).toLowerCase()} (not a clean address: its high 12 bytes are not zero)`;
    case 'uint': {
      if (n >> BigInt(type.bits) !== 0n) return `not a clean ${type.text} (0x${n.toString(16)}): it is over ${type.bits} bits`;
      return n >= 1_000_000n ? `${groups(n)} (0x${n.toString(16)})` : groups(n);
    }
    case 'int': {
      const v = BigInt.asIntN(type.bits, n);
      if (BigInt.asIntN(256, n) !== v) return `not a clean ${type.text} (0x${n.toString(16)}): it is over ${type.bits} bits`;
      return v < 0n ? `-${groups(-v)}` : v >= 1_000_000n ? `${groups(v)} (0x${v.toString(16)})` : groups(v);
    }
    case 'bool': return n === 0n ? 'false' : n === 1n ? 'true' : `not a bool (0x${n.toString(16)})`;
    // A bytesN is left-aligned: the ABI decoder (Solidity's v2, the default since 0.8) reverts on non-zero bytes after it.
    case 'fixedBytes': {
      const v = `0x${hex.slice(0, type.size * 2).toLowerCase()}`;
      return /^0*$/.test(hex.slice(type.size * 2)) ? v : `${v} (not a clean ${type.text}: its low ${32 - type.size} bytes are not zero)`;
    }
    default: return `0x${hex.toLowerCase()}`;
  }
}

/** A stop in the walk: the fault found, or none when the data holds digits that are not hex (the checker's invalid-data says so). */
class Stop { constructor(readonly fault?: CallDataFault) {} }

/** Hex digits' values by character code; 255 for the other characters. */
const HEX_VALUE = new Uint8Array(128).fill(255);
for (let i = 0; i < 16; i++) { HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i; HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i; }

const ZEROS = '0'.repeat(52);
const NOT_WRITTEN = 'an ABI encoder never writes one, so what is read from there is likely not what was meant';

/**
 * The arguments' reader: `start` is the index in `data` of their first hex digit, `end` their length in bytes. Without `values`
 * it only follows offsets and lengths (the check: arithmetic on the size words, no value read, no text made); with it, it also
 * reads the values (the hover). Without `paths` the arguments' paths are not spelt (they are only needed for a fault's message).
 */
class Reader {
  values: boolean;
  constructor(readonly data: string, readonly start: number, readonly end: number, values: boolean, readonly paths: boolean) { this.values = values; }
  /** The 64 hex digits of the word at byte p (the caller has made sure that the data holds it). */
  hex(p: number): string { return this.data.slice(this.start + p * 2, this.start + p * 2 + 64); }
  /** A size word (an offset or a length) at byte p: its value; Infinity from 2^48 on (past any data); NaN when not hex. The 52
   * zeros of any size the data can hold are compared natively (startsWith); a loop over every digit was 5 times slower. */
  size(p: number): number {
    const d = this.data;
    const c = this.start + p * 2;
    if (!d.startsWith(ZEROS, c)) return WORD.test(this.hex(p)) ? Infinity : NaN;
    let n = 0;
    for (let i = c + 52; i < c + 64; i++) {
      const x = d.charCodeAt(i);
      const v = x < 128 ? HEX_VALUE[x] : 255;
      if (v === 255) return NaN;
      n = n * 16 + v;
    }
    return n;
  }
  /** A size word as a message shows it. */
  shown(p: number, n: number): string { return Number.isFinite(n) ? String(n) : `0x${this.hex(p).replace(/^0+/, '').toLowerCase()}`; }
  fault(arg: string, at: number, message: string, reverts = true): never { throw new Stop({ arg, at, message, reverts }); }
}

/**
 * The value of a dynamic type whose offset is the word at byte `pos`: the offset counts from `base` (the start of the enclosing
 * tuple's or array's head words, which end at headEnd), and `owner` is what those head words belong to ('' for the arguments).
 */
function tail(r: Reader, t: AbiNode, pos: number, base: number, headEnd: number, owner: string, path: string): AbiValue | undefined {
  const off = r.size(pos);
  if (Number.isNaN(off)) throw new Stop();
  const at = base + off;
  if (at + 32 > r.end || off % 32 !== 0 || at < headEnd) {
    const what = `the offset of "${path}", ${r.shown(pos, off)},`;
    if (at + 32 > r.end) {
      r.fault(path, pos, `${what} points past the end of the arguments (${r.end} bytes)${at < r.end ? `: its value's first word would end at byte ${at + 32}` : ''}`);
    }
    if (off % 32 !== 0) r.fault(path, pos, `${what} is not a multiple of 32: ${NOT_WRITTEN}`, false);
    r.fault(path, pos, `${what} points into the head words of ${owner ? `"${owner}"` : 'the arguments'} (bytes ${base} to ${headEnd}): ${NOT_WRITTEN}`, false);
  }
  return inPlace(r, t, at, path);
}

/** The value of type t laid out from byte p (a static one in its head words, a dynamic one at its tail). */
function inPlace(r: Reader, t: AbiNode, p: number, path: string): AbiValue | undefined {
  switch (t.kind) {
    case 'bytes': case 'string': {
      const n = r.size(p);
      if (Number.isNaN(n)) throw new Stop();
      if (p + 32 + n > r.end) {
        r.fault(path, p, `the length of "${path}", ${r.shown(p, n)}${Number.isFinite(n) ? ` bytes, runs past the end of the arguments: its content would end at byte ${p + 32 + n} of ${r.end}` : `, runs past the end of the arguments (${r.end} bytes)`}`);
      }
      if (!r.values) return undefined;
      const content = r.data.slice(r.start + (p + 32) * 2, r.start + (p + 32 + n) * 2);
      if (!HEX.test(content)) throw new Stop();
      return { node: t, content };
    }
    case 'array': {
      let n = t.length;
      let q = p;
      if (n === undefined) {
        n = r.size(p);
        if (Number.isNaN(n)) throw new Stop();
        q = p + 32;
        const end = q + n * t.item.words * 32;
        if (end > r.end) {
          r.fault(path, p, `the length of "${path}", ${r.shown(p, n)}${Number.isFinite(n) ? ` item${n === 1 ? '' : 's'}, runs past the end of the arguments: their head words would end at byte ${end} of ${r.end}` : `, runs past the end of the arguments (${r.end} bytes)`}`);
        }
      }
      return list(r, t, n, q, path);
    }
    case 'tuple': return list(r, t, t.members.length, p, path);
    default: {
      if (!r.values) return undefined;
      const hex = r.hex(p);
      if (!WORD.test(hex)) throw new Stop();
      return { node: t, word: hex };
    }
  }
}

/**
 * The n items of an array or a tuple whose head words start at byte q. Only checking, only the dynamic items are visited (a static
 * one's words are inside the length checked); in the hover, the items past SHOWN of an array are only checked.
 */
function list(r: Reader, t: AbiNode & { kind: 'array' | 'tuple' }, n: number, q: number, path: string): AbiValue | undefined {
  const item = t.kind === 'array' ? t.item : undefined;
  if (!r.values && item && !item.dynamic) return undefined;
  const headEnd = q + (item ? n * item.words * 32 : (t as AbiNode & { kind: 'tuple' }).head);
  const values = r.values;
  const items: AbiValue[] | undefined = values ? [] : undefined;
  try {
    for (let i = 0, p = q; i < n; i++) {
      const type = item ?? (t as AbiNode & { kind: 'tuple' }).members[i].type;
      if (values && item && i === SHOWN) {
        if (!item.dynamic) break;
        r.values = false;
      }
      if (type.dynamic || r.values) {
        const name = r.paths ? (item ? `${path}[${i}]` : `${path}.${(t as AbiNode & { kind: 'tuple' }).members[i].name ?? i}`) : '';
        const v = type.dynamic ? tail(r, type, p, q, headEnd, path, name) : inPlace(r, type, p, name);
        if (v && items) items.push(v);
      }
      p += type.words * 32;
    }
  } finally {
    r.values = values;
  }
  return items ? { node: t, items, count: n } : undefined;
}

interface Walked { value?: AbiValue; fault?: CallDataFault; cut?: number; unread?: boolean }

/** An argument at byte p of the arguments (whose head words end at byte head): its value, its fault, or where the data ends in it. */
function walkArg(r: Reader, arg: { name: string; abi: AbiNode }, p: number, head: number): Walked {
  const t = arg.abi;
  if (p + t.words * 32 > r.end) return { cut: Math.max(0, r.end - p) };
  try {
    return { value: t.dynamic ? tail(r, t, p, 0, head, '', arg.name) : inPlace(r, t, p, arg.name) };
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    return e.fault ? { fault: e.fault } : { unread: true };
  }
}

/** The arguments of data from its index start, each one's value read (the hover). */
function walkArgs(args: readonly { name: string; abi: AbiNode }[], data: string, start: number): Walked[] {
  const r = new Reader(data, start, (data.length - start) / 2, true, true);
  const head = args.reduce((s, a) => s + a.abi.words * 32, 0);
  const out: Walked[] = [];
  for (let i = 0, p = 0; i < args.length; p += args[i].abi.words * 32, i++) out.push(walkArg(r, args[i], p, head));
  return out;
}

/** The known function a call's data calls and how many bytes its head words lack, without reading the values (the check of every
 * eth_call of a batch needs no more); undefined as for decodeCall. */
export function knownCall(data: string, readHead = true): { fn: KnownFunction; shortBy: number } | undefined {
  if (data.length < 10 || data.length % 2 !== 0) return undefined;
  const head = data.slice(0, 10);
  const fn = BY_SELECTOR.get(head) ?? BY_SELECTOR.get(head.toLowerCase());
  if (!fn) return undefined;
  const shortBy = Math.max(0, (fn.head * 2 - (data.length - 10)) / 2);
  // Only the head words are read (call data can be long; the checker reads every digit of it already); data the check finds whole
  // is not read at all (readHead false: it reports only short data, and bad digits are invalid-data's).
  if ((readHead || shortBy > 0) && !DATA.test(data.slice(0, 10 + fn.head * 2))) return undefined;
  return { fn, shortBy };
}

/**
 * The first dynamic argument of a known function's call whose offset or length is wrong (see tail and inPlace), following only the
 * offsets and lengths: no value is read, and a function without dynamic arguments costs nothing. Undefined when there is none,
 * when the data is short of the head words (call-data-short's), or when a word followed holds digits that are not hex.
 */
export function callDataFault(fn: KnownFunction, data: string): CallDataFault | undefined {
  if (!fn.dynamic || data.length < 10 + fn.head * 2) return undefined;
  // The arguments' paths are spelt only on a second walk, once the first has found a fault.
  return firstFault(fn, data, false) && firstFault(fn, data, true);
}

function firstFault(fn: KnownFunction, data: string, paths: boolean): CallDataFault | undefined {
  const r = new Reader(data, 10, (data.length - 10) / 2, false, paths);
  for (let i = 0, p = 0; i < fn.args.length; p += fn.args[i].abi.words * 32, i++) {
    if (!fn.args[i].abi.dynamic) continue;
    const w = walkArg(r, fn.args[i], p, fn.head);
    if (w.unread) return undefined;
    if (w.fault) return w.fault;
  }
  return undefined;
}

/** The call's function and arguments when its selector is a known one; undefined for other data (or not hex data of whole bytes). */
export function decodeCall(data: string): DecodedCall | undefined {
  const known = knownCall(data);
  if (!known) return undefined;
  const walked = walkArgs(known.fn.args, data, 10);
  const args = known.fn.args.map((a, i): DecodedArg => {
    const { name, type } = a;
    const w = walked[i];
    if (w.cut !== undefined) return w.cut > 0 ? { name, type, cutAt: w.cut } : { name, type };
    if (w.fault) return { name, type, fault: `${w.fault.message}${w.fault.reverts ? '; the contract reverts when it decodes it' : ''}` };
    if (!w.value) return { name, type, value: 'not readable: the data holds digits that are not hex' };
    if ('items' in w.value && w.value.node.kind === 'array') {
      const items = w.value.items.slice(0, SHOWN).map(text);
      const more = w.value.count - items.length;
      return { name, type, decoded: w.value, value: `${w.value.count} item${w.value.count === 1 ? '' : 's'}`, items, ...(more > 0 ? { more } : {}) };
    }
    return { name, type, decoded: w.value, value: text(w.value) };
  });
  return { ...known, args };
}

/**
 * Arguments of the given types decoded from data ("0x" and their encoding, as ethers' AbiCoder writes it): each value (undefined
 * when it cannot be read) and its text as the hover shows it, and the faults of their offsets and lengths.
 */
export function decodeArgs(types: readonly string[], data: string): { values: (AbiValue | undefined)[]; text: (string | undefined)[]; faults: CallDataFault[] } {
  const walked = walkArgs(types.map((t, i) => ({ name: `argument ${i}`, abi: parseAbiType(t) })), data, 2);
  return {
    values: walked.map((w) => w.value),
    text: walked.map((w) => w.value && text(w.value)),
    faults: walked.flatMap((w) => (w.fault ? [w.fault] : [])),
  };
}

/** A decoded value as ethers gives it back (bigints, booleans, lower-case hex addresses and bytes, strings, arrays). */
export function plainValue(v: AbiValue): unknown {
  const t = v.node;
  if ('items' in v) return v.items.map(plainValue);
  if ('content' in v) return t.kind === 'string' ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytesOf(v.content)) : `0x${v.content.toLowerCase()}`;
  const n = BigInt(`0x${v.word}`);
  switch (t.kind) {
    case 'address': return `0x${v.word.slice(24).toLowerCase()}`;
    case 'bool': return n !== 0n;
    case 'uint': return BigInt.asUintN(t.bits, n);
    case 'int': return BigInt.asIntN(t.bits, n);
    case 'fixedBytes': return `0x${v.word.slice(0, t.size * 2).toLowerCase()}`;
    default: return `0x${v.word.toLowerCase()}`;
  }
}

function bytesOf(hex: string): Uint8Array {
  const b = new Uint8Array(hex.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return b;
}

/** A decoded value in words, on one line: arrays past SHOWN items and long bytes and strings shortened, with their count. */
function text(v: AbiValue): string {
  const t = v.node;
  if ('word' in v) return word(t, v.word);
  if ('content' in v) {
    const n = v.content.length / 2;
    if (t.kind === 'string') return stringText(v.content);
    const fn = n >= 4 ? BY_SELECTOR.get(`0x${v.content.slice(0, 8).toLowerCase()}`) : undefined;
    return `0x${v.content.slice(0, BYTES_SHOWN * 2).toLowerCase()}${n > BYTES_SHOWN ? '…' : ''} (${n} byte${n === 1 ? '' : 's'}${fn ? `: ${fn.signature}` : ''})`;
  }
  if (t.kind === 'tuple') return `(${v.items.map((x, i) => `${t.members[i].name ? `${t.members[i].name}: ` : ''}${text(x)}`).join(', ')})`;
  const items = v.items.slice(0, SHOWN).map(text);
  if (v.count > items.length) items.push(`… and ${v.count - items.length} more`);
  return `[${items.join(', ')}]`;
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/**
 * A string's UTF-8 content as a quoted text: quotes and backslashes escaped, control characters (C0, DEL, C1, the bidirectional
 * and line separator ones) as \n, \t, \r or \uXXXX, and bytes that are not UTF-8 (stray or missing continuation bytes, overlong
 * forms, surrogates, past U+10FFFF) as \xNN; past CHARS_SHOWN characters shortened, with the byte count.
 */
function stringText(hex: string): string {
  const b = bytesOf(hex.slice(0, CHARS_SHOWN * 8));
  let out = '"';
  let i = 0;
  for (let shown = 0; i < b.length && shown < CHARS_SHOWN; shown++) {
    const c = b[i];
    const len = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    let cp = len === 1 ? c : len === 0 ? -1 : c & (0xff >> (len + 1));
    for (let k = 1; k < len && cp >= 0; k++) cp = i + k < b.length && (b[i + k] & 0xc0) === 0x80 ? (cp << 6) | (b[i + k] & 0x3f) : -1;
    if (len > 1 && (cp < [0, 0, 0x80, 0x800, 0x10000][len] || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)) cp = -1;
    if (cp < 0) { out += `\\x${hex2(c)}`; i++; continue; }
    i += len;
    out += cp === 0x22 ? '\\"' : cp === 0x5c ? '\\\\' : cp === 0x0a ? '\\n' : cp === 0x0d ? '\\r' : cp === 0x09 ? '\\t'
      : cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp === 0x200e || cp === 0x200f || (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)
        ? `\\u${cp.toString(16).padStart(4, '0')}` : String.fromCodePoint(cp);
  }
  const n = hex.length / 2;
  return i < n ? `${out}"… (${n} bytes)` : `${out}"`;
}

/** Text in markdown as it reads: what markdown takes for inline syntax is escaped (a decoded string can hold anything). */
const md = (s: string) => s.replace(/[\\`*_[\]<>|~&]/g, '\\$&');

/** The hover's text for a decoded call. */
export function callMarkdown(c: DecodedCall): string {
  const lines = [`**${c.fn.signature}** (${c.fn.standard}), selector \`${c.fn.selector}\``];
  for (const a of c.args) {
    const missing = a.fault !== undefined ? `_${md(a.fault)}_` : a.cutAt === undefined ? '_missing: the data ends before it_' : `_cut: the data ends ${a.cutAt} of its 32 bytes in_`;
    lines.push(`- \`${a.name}\` (${a.type}): ${a.value === undefined ? missing : md(a.value)}`);
    for (const [i, item] of (a.items ?? []).entries()) lines.push(`  - [${i}] ${md(item)}`);
    if (a.more) lines.push(`  - … and ${a.more} more`);
  }
  return lines.join('\n');
}
