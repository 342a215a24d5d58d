// Value checks of a gateway request's params: arity, the shape of every param of every supported method, and the gateway's
// numeric limits. Pure and position-free (the mock gateway calls it too); the editor rule locates each issue with doc.locate.
import { remembered } from '../../memo';
import {
  BLOCK_TAGS, LIMITS, METHOD_BY_NAME, OBJECT_KEYS, SUPPORTED_METHODS, UNSUPPORTED_METHODS,
  type KeySpec, type MethodSpec, type ObjectType, type ValueType,
} from './catalogue';
import { scoredSuggestions, suggest } from '../../suggest';
import { isObj, type Obj } from '../../json';
import { callDataFault, knownCall } from './selectors';
import { checksumAddress } from '../../keccak';
import { headOf } from '../../text';

export { LIMITS, SUPPORTED_METHODS, UNSUPPORTED_METHODS };

export interface ParamIssue {
  /** Path relative to `params`, e.g. [0, 'fromBlock']; [] is params itself. */
  path: (string | number)[];
  message: string;
  /** The diagnostic code the editor reports it under (all registered in codes.ts); defaults to jsonrpc/invalid-param. */
  code?: ParamIssueCode;
  /** Locate the key at path rather than its value (unknown and conflicting keys). */
  part?: 'key';
  /** A value (or, with part 'key', a key name) that fixes the issue; offered as a quick fix. */
  replacement?: unknown;
  /** The characters of a string value the issue is about ([start, end) in the string's value): the editor narrows its range to
   * them when the JSON string holds no escape (else its characters are not where they seem), and keeps the whole string if not. */
  within?: [number, number];
  /** The replacement is one way out among others (a limit's maximum): offered as a quick fix, never applied by Fix all. */
  choice?: true;
  /** Values that complete the params when appended after the last one (a missing trailing boolean or percentiles): a quick fix,
   * never applied by Fix all (false and [] are a choice). */
  append?: unknown[];
  /** The value is what belongs inside an array (params given as the one object param itself): the fix wraps its text in [ ]. */
  wrapInArray?: true;
}

export type ParamIssueCode =
  | 'jsonrpc/params-not-array' | 'jsonrpc/missing-param' | 'jsonrpc/extra-param' | 'jsonrpc/invalid-param'
  | 'jsonrpc/invalid-quantity' | 'jsonrpc/invalid-address' | 'jsonrpc/invalid-hash' | 'jsonrpc/invalid-data'
  | 'jsonrpc/invalid-block' | 'jsonrpc/unknown-key' | 'jsonrpc/conflicting-keys'
  | 'jsonrpc/block-range-reversed' | 'jsonrpc/block-range-too-large' | 'jsonrpc/block-count-too-large' | 'jsonrpc/trace-count-too-large'
  | 'jsonrpc/range-checked-at-runtime' | 'jsonrpc/range-from-genesis' | 'jsonrpc/address-checksum' | 'jsonrpc/call-data-short' | 'jsonrpc/call-data-bad-offset';

type Path = (string | number)[];

/** `params[0].fromAddress[1]` */
export function formatPath(path: Path): string {
  let s = 'params';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : /^[A-Za-z_$][\w$]*$/.test(seg) ? `.${seg}` : `[${JSON.stringify(seg)}]`;
  return s;
}

/** How a value is quoted in a message. */
export function show(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return JSON.stringify(v.length > 70 ? headOf(v, 70) + '…' : v);
  if (typeof v === 'number') return `the number ${v}`;
  return String(v);
}


// The valid path of a 5000-request batch runs these for nearly every value: plain loops, no regex call, no substring.
// One entry per UTF-16 code unit (64 KB): the loop needs no range check before the lookup.
const HEX_DIGIT = new Uint8Array(0x10000);
for (const c of '0123456789abcdefABCDEF') HEX_DIGIT[c.charCodeAt(0)] = 1;
/** Hex digits with their letter case: 1 for a digit, 1 | 2 for a-f, 1 | 4 for A-F (the address check reads both in one pass). */
const HEX_CASE = new Uint8Array(0x10000);
for (const c of '0123456789') HEX_CASE[c.charCodeAt(0)] = 1;
for (const c of 'abcdef') { HEX_CASE[c.charCodeAt(0)] = 3; HEX_CASE[c.toUpperCase().charCodeAt(0)] = 5; }

/** Whether every character of s from `from` on is a hex digit (true when there are none). */
function hexFrom(s: string, from: number): boolean {
  // No early exit: the valid path reads every character anyway, and a branch-free loop runs faster.
  let all = 1;
  for (let i = from; i < s.length; i++) all &= HEX_DIGIT[s.charCodeAt(i)];
  return all === 1;
}

/** Whether s is "0x" followed by exactly `digits` hex digits (the address and hash checks). */
function isPrefixedHex(s: string, digits: number): boolean {
  return s.length === digits + 2 && s.charCodeAt(0) === 0x30 && s.charCodeAt(1) === 0x78 && hexFrom(s, 2);
}

/** For "0x" and 40 hex digits: 1, or'ed with 2 when a letter is lower-case and 4 when one is upper-case; 0 for anything else. */
function addressLetters(s: string): number {
  if (s.length !== 42 || s.charCodeAt(0) !== 0x30 || s.charCodeAt(1) !== 0x78) return 0;
  let all = 1;
  let any = 0;
  for (let i = 2; i < 42; i++) {
    const t = HEX_CASE[s.charCodeAt(i)];
    all &= t;
    any |= t;
  }
  return (all & 1) === 0 ? 0 : any;
}

/** /^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,maxDigits-1})$/: a QUANTITY without leading zeros, of at most maxDigits digits. */
function isQuantity(s: string, maxDigits: number): boolean {
  const n = s.length;
  if (n < 3 || n > maxDigits + 2 || s.charCodeAt(0) !== 0x30 || s.charCodeAt(1) !== 0x78) return false;
  if (s.charCodeAt(2) === 0x30) return n === 3;
  return hexFrom(s, 2);
}

/** The members each param object takes, as Maps: own keys only ("__proto__", "constructor"... are unknown), one lookup per member. */
const KEY_NAMES: Record<ObjectType, readonly string[]> = {
  callObject: Object.keys(OBJECT_KEYS.callObject),
  logFilter: Object.keys(OBJECT_KEYS.logFilter),
  traceFilter: Object.keys(OBJECT_KEYS.traceFilter),
};
const KEY_MAPS: Record<ObjectType, ReadonlyMap<string, KeySpec>> = {
  callObject: new Map(Object.entries(OBJECT_KEYS.callObject)),
  logFilter: new Map(Object.entries(OBJECT_KEYS.logFilter)),
  traceFilter: new Map(Object.entries(OBJECT_KEYS.traceFilter)),
};

/** The items of a list param, checked by Checker.item. */
type ItemType = 'address' | 'hash32' | 'bytes' | 'bytesMax32' | 'accessEntry' | 'authorization';

const BLOCK_RANGE_TAGS: readonly string[] = BLOCK_TAGS.filter((t) => t !== 'pending');
const blockExpectation = (type: 'block' | 'blockForRange' | 'blockOrHash'): string =>
  `a block number (hex quantity)${type === 'blockOrHash' ? ', a block hash' : ''} or one of the tags ${(type === 'blockForRange' ? BLOCK_RANGE_TAGS : BLOCK_TAGS).map((t) => `"${t}"`).join(', ')}`;
const BLOCK_EXPECTATIONS = { block: blockExpectation('block'), blockForRange: blockExpectation('blockForRange'), blockOrHash: blockExpectation('blockOrHash') };

/** The shared empty result of the checks (never pushed to: callers must copy before adding). */
export const NO_ISSUES: ParamIssue[] = Object.freeze([]) as unknown as ParamIssue[];

/**
 * The checks. Allocation-light on valid params: `path` is ONE array shared by the whole walk (pushed on the way down, popped on the
 * way up) and copied only into a reported issue, so every method must report before it returns.
 */
class Checker {
  /** NO_ISSUES until the first issue: valid params allocate no array. */
  issues: ParamIssue[] = NO_ISSUES;
  /** The address-checksum notes of the same walk (see checksumNote), apart: they are no param error. */
  notes: ParamIssue[] = NO_ISSUES;

  add(path: Path, message: string, code: ParamIssueCode = 'jsonrpc/invalid-param', extra: Partial<ParamIssue> = {}): void {
    if (this.issues === NO_ISSUES) this.issues = [];
    this.issues.push({ path: path.slice(), message, code, ...extra });
  }

  expect(path: Path, expectation: string, v: unknown, code: ParamIssueCode = 'jsonrpc/invalid-param', replacement?: unknown): void {
    this.add(path, `${formatPath(path)} must be ${expectation}, not ${show(v)}.`, code, replacement === undefined ? {} : { replacement });
  }

  /** A QUANTITY: "0x" + hex digits without leading zeros. */
  quantity(path: Path, v: unknown, expectation = 'a hex quantity such as "0x1a"'): void {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v) || v < 0) return this.expect(path, expectation, v, 'jsonrpc/invalid-quantity');
      const fix = '0x' + v.toString(16);
      this.add(path, `${formatPath(path)} must be a hex string such as "${fix}", not ${show(v)}.`, 'jsonrpc/invalid-quantity', { replacement: fix });
      return;
    }
    if (typeof v !== 'string') return this.expect(path, expectation, v, 'jsonrpc/invalid-quantity');
    if (isQuantity(v, 64)) return;
    if (/^0[xX]0*[1-9a-fA-F][0-9a-fA-F]{64,}$/.test(v)) return this.add(path, `${formatPath(path)} is ${show(v)}, larger than 256 bits.`, 'jsonrpc/invalid-quantity');
    const m = /^0[xX]([0-9a-fA-F]+)$/.exec(v);
    if (m) {
      const fix = '0x' + BigInt('0x' + m[1]).toString(16);
      const why = /^0x/.test(v) ? 'without leading zeros' : 'with a lower-case "0x" prefix';
      this.add(path, `${formatPath(path)} must be a hex quantity ${why} ("${fix}"), not ${show(v)}.`, 'jsonrpc/invalid-quantity', { replacement: fix });
      return;
    }
    if (/^(0|[1-9][0-9]*)$/.test(v)) {
      const fix = '0x' + BigInt(v).toString(16);
      this.add(path, `${formatPath(path)} must be hex ("${fix}"), not the decimal string ${show(v)}.`, 'jsonrpc/invalid-quantity', { replacement: fix });
      return;
    }
    this.expect(path, expectation, v, 'jsonrpc/invalid-quantity');
  }

  /** execution-apis "byte": "0x" and one or two hex digits (a leading zero is allowed: "0x02"). */
  byte(path: Path, v: unknown): void {
    if (typeof v === 'string' && (v.length === 3 || v.length === 4) && v.charCodeAt(0) === 0x30 && v.charCodeAt(1) === 0x78 && hexFrom(v, 2)) return;
    const fix = typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 255 ? '0x' + v.toString(16)
      : typeof v === 'string' && /^0[xX]0*[0-9a-fA-F]{1,2}$/.test(v) ? '0x' + Number.parseInt(v.slice(2), 16).toString(16) : undefined;
    this.expect(path, 'a byte: "0x" and 1 or 2 hex digits, such as "0x2"', v, 'jsonrpc/invalid-param', fix);
  }

  integerOrQuantity(path: Path, v: unknown): void {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return;
    if (typeof v === 'string') return this.quantity(path, v, 'a non-negative integer or a hex quantity');
    this.expect(path, 'a non-negative integer or a hex quantity', v);
  }

  address(path: Path, v: unknown): void {
    const letters = typeof v === 'string' ? addressLetters(v) : 0;
    if (letters !== 0) {
      if (letters === 7) this.checksumNote(path, v as string);
      return;
    }
    this.fixedHexProblem(path, v, 40, 'a 20-byte address (0x + 40 hex digits)', 'jsonrpc/invalid-address');
  }

  /**
   * A warning for a mixed-case address whose EIP-55 checksum does not match: the case of an address's letters encodes a checksum,
   * so a mixed-case address that fails it most likely has a mistyped character (ethers refuses it: "bad address checksum"). The
   * gateway reads addresses in any case and takes it, so it is a note, not a param error (the mock answers it). All lower- or all
   * upper-case addresses carry no checksum and are not judged. Noted while the address is checked (issue 18: a second walk of the
   * params for it cost a batch as much as the whole value check).
   */
  checksumNote(path: Path, v: string): void {
    const sum = checksumOf(v.slice(2));
    if (sum.slice(2) === v.slice(2)) return;
    if (this.notes === NO_ISSUES) this.notes = [];
    this.notes.push({ path: path.slice(), message: `${formatPath(path)} ${v} is mixed-case but not EIP-55 checksummed: a character may be mistyped (checksummed, these digits read ${sum}); check it, or write it all lower-case.`, code: 'jsonrpc/address-checksum' });
  }

  hash32(path: Path, v: unknown): void {
    if (typeof v === 'string' && isPrefixedHex(v, 64)) return;
    this.fixedHexProblem(path, v, 64, 'a 32-byte hash (0x + 64 hex digits)', 'jsonrpc/invalid-hash');
  }

  /** The issue of a value that is not "0x" + `digits` hex digits, fixed when only the prefix is upper-case or missing. */
  private fixedHexProblem(path: Path, v: unknown, digits: number, expectation: string, code: ParamIssueCode): void {
    let fix: string | undefined;
    if (typeof v === 'string' && v.length === digits + 2 && v.startsWith('0X') && hexFrom(v, 2)) fix = v.toLowerCase();
    else if (typeof v === 'string' && v.length === digits && hexFrom(v, 0)) fix = '0x' + v.toLowerCase();
    this.expect(path, expectation, v, code, fix);
  }

  bytes(path: Path, v: unknown, maxBytes?: number): void {
    const what = maxBytes ? `hex data of at most ${maxBytes} bytes (0x + up to ${maxBytes * 2} hex digits)` : 'hex data (0x + an even number of hex digits)';
    if (typeof v !== 'string' || v.charCodeAt(0) !== 0x30 || (v.charCodeAt(1) | 0x20) !== 0x78 || !hexFrom(v, 2)) return this.expect(path, what, v, 'jsonrpc/invalid-data');
    const digits = v.length - 2;
    if (maxBytes !== undefined) {
      if (digits > maxBytes * 2) this.expect(path, what, v, 'jsonrpc/invalid-data');
      else if (v.startsWith('0X')) this.expect(path, `${what} with a lower-case "0x" prefix`, v, 'jsonrpc/invalid-data', '0x' + v.slice(2));
      return;
    }
    if (digits % 2 === 1) this.expect(path, what, v, 'jsonrpc/invalid-data');
    else if (v.startsWith('0X')) this.expect(path, `${what} with a lower-case "0x" prefix`, v, 'jsonrpc/invalid-data', '0x' + v.slice(2));
  }

  boolean(path: Path, v: unknown): void {
    if (typeof v === 'boolean') return;
    const fix = v === 'true' ? true : v === 'false' ? false : undefined;
    this.expect(path, 'true or false', v, 'jsonrpc/invalid-param', fix);
  }

  block(path: Path, v: unknown, type: 'block' | 'blockForRange' | 'blockOrHash'): void {
    const tags: readonly string[] = type === 'blockForRange' ? BLOCK_RANGE_TAGS : BLOCK_TAGS;
    const expectation = BLOCK_EXPECTATIONS[type];
    if (typeof v === 'string') {
      // A block number of at most 64 bits, the common case: valid for every block type (what follows would reach the same verdict).
      if (isQuantity(v, 16) || tags.includes(v)) return;
      if (v === 'pending') return this.add(path, `${formatPath(path)} cannot be "pending" here; a log range takes a block number or "latest", "safe", "finalized" or "earliest".`, 'jsonrpc/invalid-block',
        { replacement: 'latest', choice: true });
      if (tags.includes(v.toLowerCase())) return this.expect(path, 'a lower-case block tag', v, 'jsonrpc/invalid-block', v.toLowerCase());
      if (type === 'blockOrHash' && /^0[xX][0-9a-fA-F]{64}$/.test(v)) return this.hash32(path, v);
      // Over 64 bits once leading zeros are dropped (a block hash pasted here, of which one in 16 starts with "0"): no number to fix to.
      if (/^0[xX]0*[1-9a-fA-F][0-9a-fA-F]{16,}$/.test(v)) {
        const hashHint = type !== 'blockOrHash' && v.length === 66 ? '; this method takes no block hash here' : '';
        return this.add(path, `${formatPath(path)} is not a block number: ${show(v)} has more than 64 bits${hashHint}.`, 'jsonrpc/invalid-block');
      }
      if (/^0[xX]/.test(v) || /^\d+$/.test(v)) return this.quantity(path, v, expectation);
      const near = suggest(v, tags, { max: 1 })[0];
      if (near) return this.add(path, `${formatPath(path)} is not a block tag: ${show(v)}; did you mean "${near}"?`, 'jsonrpc/invalid-block', { replacement: near });
      return this.expect(path, expectation, v, 'jsonrpc/invalid-block');
    }
    if (typeof v === 'number') return this.quantity(path, v, expectation);
    this.expect(path, expectation, v, 'jsonrpc/invalid-block');
  }

  list(path: Path, v: unknown, what: string, item: ItemType): void {
    if (!Array.isArray(v)) return this.expect(path, what, v);
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      this.item(path, v[i], item);
      path.pop();
    }
  }

  item(path: Path, x: unknown, type: ItemType): void {
    switch (type) {
      case 'address': return this.address(path, x);
      case 'hash32': return this.hash32(path, x);
      case 'bytes': return this.bytes(path, x);
      case 'bytesMax32': return this.bytes(path, x, 32);
      case 'accessEntry': return this.accessEntry(path, x);
      case 'authorization': return this.authorization(path, x);
    }
  }

  object(path: Path, v: unknown, type: ObjectType, label: string): void {
    if (!isObj(v)) return this.expect(path, `${label} (a JSON object)`, v);
    const keys = OBJECT_KEYS[type];
    const known = KEY_MAPS[type];
    // for-in, not Object.entries: no pair arrays on the valid path. JSON values have no inherited enumerable members.
    for (const k in v) {
      const x = v[k];
      const spec = known.get(k);
      if (!spec) {
        const near = suggest(k, KEY_NAMES[type], { max: 1 })[0];
        const msg = `${formatPath(path)} has no member "${k}"${near ? `; did you mean "${near}"?` : ` (a ${label} takes ${Object.keys(keys).join(', ')}).`}`;
        this.add([...path, k], msg, 'jsonrpc/unknown-key', { part: 'key', ...(near ? { replacement: near } : {}) });
        continue;
      }
      // A null member means "absent" for the optional filter members; `to: null` is a contract creation.
      if (x === null && (type !== 'callObject' || k === 'to')) continue;
      path.push(k);
      this.value(path, x, spec.type);
      path.pop();
    }
    if ((type === 'logFilter' || type === 'traceFilter') && v.blockHash !== undefined && v.blockHash !== null) {
      const clash = ['fromBlock', 'toBlock'].filter((k) => v[k] !== undefined && v[k] !== null);
      if (clash.length) {
        this.add([...path, 'blockHash'], `${formatPath(path)} has "blockHash" together with ${clash.map((k) => `"${k}"`).join(' and ')}; give either a block hash or a block range.`,
          'jsonrpc/conflicting-keys', { part: 'key' });
      }
    }
    if (type === 'callObject' && typeof v.data === 'string' && typeof v.input === 'string' && v.data !== v.input
      // The same bytes in other letter case are no conflict: go-ethereum compares the decoded bytes (TransactionArgs.setDefaults).
      && v.data.toLowerCase() !== v.input.toLowerCase()) {
      this.add([...path, 'data'], `${formatPath(path)} has both "data" and "input" with different values; keep only "input".`, 'jsonrpc/conflicting-keys', { part: 'key' });
    }
  }

  value(path: Path, v: unknown, type: ValueType): void {
    // The most frequent types first: a switch on strings compares case by case.
    switch (type) {
      case 'address': return this.address(path, v);
      case 'block': case 'blockForRange': case 'blockOrHash': return this.block(path, v, type);
      case 'quantity': return this.quantity(path, v);
      case 'byte': return this.byte(path, v);
      case 'hash32': return this.hash32(path, v);
      case 'bytes': return this.bytes(path, v);
      case 'signedTransaction': {
        const before = this.issues.length;
        this.bytes(path, v);
        if (this.issues.length === before) rawTransaction(path, v, this);
        return;
      }
      case 'callObject': return this.object(path, v, 'callObject', 'transaction call object');
      case 'logFilter': return this.object(path, v, 'logFilter', 'log filter');
      case 'topics': return this.topics(path, v);
      case 'integerOrQuantity': return this.integerOrQuantity(path, v);
      case 'addressOrNull': return v === null ? undefined : this.address(path, v);
      case 'addressList':
        if (typeof v === 'string') {
          // The fix puts the one address in the array as it is: a checksum it fails is noted now, not after the fix.
          this.expect(path, 'an array of addresses', v, 'jsonrpc/invalid-param', [v]);
          if (addressLetters(v) === 7) this.checksumNote(path, v);
          return;
        }
        return this.list(path, v, 'an array of addresses', 'address');
      case 'addressOrList':
        if (v === null || typeof v === 'string') return v === null ? undefined : this.address(path, v);
        return this.list(path, v, 'an address, an array of addresses or null', 'address');
      case 'hash32List': return this.list(path, v, 'an array of 32-byte hashes', 'hash32');
      case 'bytesList': return this.list(path, v, 'an array of hex data', 'bytes');
      case 'bytesMax32': return this.bytes(path, v, 32);
      case 'bytesMax32List': return this.list(path, v, 'an array of storage keys (hex data up to 32 bytes)', 'bytesMax32');
      case 'boolean': return this.boolean(path, v);
      case 'traceFilter': return this.object(path, v, 'traceFilter', 'trace filter');
      case 'percentiles': return this.percentiles(path, v);
      case 'accessList': return this.list(path, v, 'an access list (an array of { address, storageKeys })', 'accessEntry');
      case 'authorizationList': return this.list(path, v, 'an array of authorizations', 'authorization');
      case 'traceMode':
        if (v !== 'union' && v !== 'intersection') this.expect(path, '"union" or "intersection"', v);
        return;
      default: {
        const never: never = type;
        throw new Error(`unhandled value type ${String(never)}`);
      }
    }
  }

  percentiles(path: Path, v: unknown): void {
    if (!Array.isArray(v)) return this.expect(path, 'an array of increasing percentiles between 0 and 100', v);
    let prev = -Infinity;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x !== 'number' || x < 0 || x > 100) { this.expect([...path, i], 'a number between 0 and 100', x); continue; }
      // Strictly: geth refuses an equal neighbour too ("invalid reward percentile: #0:10.000000 >= #1:10.000000", since #28954,
      // eth/gasprice/feehistory.go); execution-apis says "monotonically increasing".
      if (x <= prev) {
        const rel = x === prev ? 'the same as' : 'below';
        this.add([...path, i], `${formatPath([...path, i])} is ${x}, ${rel} the previous percentile ${prev}; percentiles must increase, each above the one before.`);
      }
      prev = x;
    }
  }

  topics(path: Path, v: unknown): void {
    // One topic string is the first position's filter: the fix puts it in the array (as toAddress's address gets its array).
    if (!Array.isArray(v)) return this.expect(path, 'an array of topic filters', v, 'jsonrpc/invalid-param', typeof v === 'string' ? [v] : undefined);
    if (v.length > 4) this.add([...path, 4], `${formatPath(path)} has ${v.length} positions; a log has at most 4 topics.`);
    for (let i = 0; i < v.length; i++) {
      const t: unknown = v[i];
      if (t === null) continue;
      path.push(i);
      if (Array.isArray(t)) {
        for (let j = 0; j < t.length; j++) {
          if (t[j] === null) continue;
          path.push(j);
          this.hash32(path, t[j]);
          path.pop();
        }
      } else {
        this.hash32(path, t);
      }
      path.pop();
    }
  }

  accessEntry(path: Path, v: unknown): void {
    if (!isObj(v)) return this.expect(path, 'an access-list entry { address, storageKeys }', v);
    for (const k of Object.keys(v)) {
      if (k !== 'address' && k !== 'storageKeys') this.add([...path, k], `${formatPath(path)} has no member "${k}" (an access-list entry takes address and storageKeys).`, 'jsonrpc/unknown-key', { part: 'key' });
    }
    if (v.address === undefined) this.add(path, `${formatPath(path)} is missing "address".`, 'jsonrpc/missing-param');
    else { path.push('address'); this.address(path, v.address); path.pop(); }
    if (v.storageKeys === undefined) this.add(path, `${formatPath(path)} is missing "storageKeys".`, 'jsonrpc/missing-param');
    else { path.push('storageKeys'); this.list(path, v.storageKeys, 'an array of 32-byte storage keys', 'hash32'); path.pop(); }
  }

  authorization(path: Path, v: unknown): void {
    if (!isObj(v)) return this.expect(path, 'an authorization { chainId, nonce, address, yParity, r, s }', v);
    for (const k of AUTHORIZATION_KEYS) {
      if (v[k] === undefined) { this.add(path, `${formatPath(path)} is missing "${k}".`, 'jsonrpc/missing-param'); continue; }
      path.push(k);
      if (k === 'address') this.address(path, v[k]);
      else if (k === 'yParity') this.byte(path, v[k]);
      else this.quantity(path, v[k]);
      path.pop();
    }
  }
}

const AUTHORIZATION_KEYS = ['chainId', 'nonce', 'address', 'yParity', 'r', 's'] as const;

const HEX_VALUE = new Int8Array(128).fill(-1);
for (const c of '0123456789') HEX_VALUE[c.charCodeAt(0)] = c.charCodeAt(0) - 0x30;
for (const c of 'abcdef') { HEX_VALUE[c.charCodeAt(0)] = c.charCodeAt(0) - 0x57; HEX_VALUE[c.toUpperCase().charCodeAt(0)] = c.charCodeAt(0) - 0x57; }

/** A block bound as a number when it is a valid quantity (or JSON integer), else undefined. */
export function blockNumberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const n = v.length;
  if (n > 2 && v.charCodeAt(0) === 0x30 && (v.charCodeAt(1) | 0x20) === 0x78) {
    // Up to 13 hex digits (52 bits) add up exactly in a double: one pass checks and converts. Longer ones go through parseInt.
    let x = 0;
    for (let i = 2; i < n; i++) {
      const c = v.charCodeAt(i);
      const d = c < 0x80 ? HEX_VALUE[c] : -1;
      if (d < 0) return undefined;
      x = x * 16 + d;
    }
    return n <= 15 ? x : Number.parseInt(v, 16);
  }
  if (/^\d+$/.test(v)) return Number(v);
  return undefined;
}

function countOf(v: unknown): number | undefined {
  return blockNumberOf(v);
}

/**
 * The exact value of a number-like v for a message: blockNumberOf's double rounds beyond 2^53 ("0xffffffffffffffff" would read
 * 18446744073709552000, a count of 2^80 1.2e+24). Only called on values blockNumberOf accepted.
 */
function exact(v: unknown): bigint {
  return typeof v === 'number' ? BigInt(v) : BigInt(v as string);
}

/**
 * A range bound of eth_getLogs or trace_filter that is the same block whatever the chain head: a number, "earliest" (block 0, the
 * genesis block, as the mock gateway resolves it), or trace_filter's missing fromBlock (genesis: Erigon's default, which the mock
 * and rangeNotes read too; eth_getLogs starts at "latest"). `note` says where a block that was not written as a number comes from.
 */
function fixedBound(method: string, f: Obj, key: 'fromBlock' | 'toBlock'): { value: unknown; note?: string } | undefined {
  const v = f[key];
  if (v === undefined || v === null) return method === 'trace_filter' && key === 'fromBlock' ? { value: 0, note: 'fromBlock\'s default' } : undefined;
  if (v === 'earliest') return { value: 0, note: '"earliest"' };
  return blockNumberOf(v) === undefined ? undefined : { value: v };
}

/** n written as v is: a JSON number for a number, else a hex quantity. */
function sameForm(v: unknown, n: bigint): number | string {
  return typeof v === 'number' ? Number(n) : `0x${n.toString(16)}`;
}

function limits(spec: MethodSpec, params: unknown[], c: Checker): void {
  if (spec.name === 'eth_feeHistory') {
    const n = countOf(params[0]);
    if (n !== undefined && n > LIMITS.feeHistoryMaxBlockCount) {
      c.add([0], `${formatPath([0])} (blockCount) asks for ${exact(params[0])} blocks; the gateway allows at most ${LIMITS.feeHistoryMaxBlockCount}.`, 'jsonrpc/block-count-too-large',
        { replacement: sameForm(params[0], BigInt(LIMITS.feeHistoryMaxBlockCount)), choice: true });
    }
    return;
  }
  if (spec.name !== 'eth_getLogs' && spec.name !== 'trace_filter') return;
  const f = params[0];
  if (!isObj(f)) return;
  const max = spec.name === 'eth_getLogs' ? LIMITS.getLogsMaxBlockRange : LIMITS.traceFilterMaxBlockRange;
  const fromB = fixedBound(spec.name, f, 'fromBlock');
  const toB = fixedBound(spec.name, f, 'toBlock');
  const from = fromB && blockNumberOf(fromB.value);
  const to = toB && blockNumberOf(toB.value);
  if (from !== undefined && to !== undefined) {
    // Doubles are exact up to 2^53, the common case; beyond, the comparison and the range are made on the exact values.
    const [a, b] = [exact(fromB!.value), exact(toB!.value)];
    const big = from > Number.MAX_SAFE_INTEGER || to > Number.MAX_SAFE_INTEGER;
    const reversed = big ? a > b : from > to;
    // "Max block range of 800 blocks" counts the blocks, both bounds included: 0 to 799 is 800 blocks, 0 to 800 is 801
    // (docs/architecture.md, rpc review 2; the mock measures the same).
    const over = big ? b - a >= BigInt(max) : to - from >= max;
    if (reversed) {
      c.add([0, 'fromBlock'], `${formatPath([0, 'fromBlock'])} (${a}${fromB!.note ? `, ${fromB!.note}` : ''}) is after toBlock (${b}${toB!.note ? `, ${toB!.note}` : ''}).`, 'jsonrpc/block-range-reversed');
    } else if (over) {
      // The fix: toBlock at the last block the limit allows from fromBlock.
      c.add([0, 'toBlock'], `${formatPath([0])} covers blocks ${a}${fromB!.note ? ` (${fromB!.note})` : ''} to ${b}${toB!.note ? ` (${toB!.note})` : ''}, ${b - a + 1n} blocks (both bounds included); the gateway allows at most ${max}.`, 'jsonrpc/block-range-too-large',
        { replacement: `0x${(a + BigInt(max) - 1n).toString(16)}`, choice: true });
    }
  }
  if (spec.name === 'trace_filter') {
    const n = countOf(f.count);
    if (n !== undefined && n > LIMITS.traceFilterMaxCount) {
      c.add([0, 'count'], `${formatPath([0, 'count'])} is ${exact(f.count)}; the gateway returns at most ${LIMITS.traceFilterMaxCount} traces.`, 'jsonrpc/trace-count-too-large',
        { replacement: sameForm(f.count, BigInt(LIMITS.traceFilterMaxCount)), choice: true });
    }
  }
}

/**
 * Every problem with the params of a supported method, values only: [] when they are fine (or the method is not supported; the
 * method rule reports that). Limits are checked when the bounds are numbers; see rangeNotes for ranges given by tags.
 */
export function checkParamValues(method: string, params: unknown): ParamIssue[] {
  const spec = METHOD_BY_NAME.get(method);
  return spec ? checkSpecParams(spec, params) : NO_ISSUES;
}

/** checkParamValues for a method already looked up. */
export function checkSpecParams(spec: MethodSpec, params: unknown): ParamIssue[] {
  return checkSpecParamsAndAddresses(spec, params).issues;
}

/** checkSpecParams, and the warnings for mixed-case addresses whose EIP-55 checksum does not match (Checker.checksumNote). */
export function checkSpecParamsAndAddresses(spec: MethodSpec, params: unknown): { issues: ParamIssue[]; addresses: ParamIssue[] } {
  // One Checker and one path for every call (nothing here re-enters): a valid request allocates nothing but the result.
  const c = CHECKER;
  c.issues = NO_ISSUES;
  c.notes = NO_ISSUES;
  try {
    checkInto(c, spec, params);
    return { issues: c.issues, addresses: c.notes };
  } catch (err) {
    // A throw between a push and its pop would leave segments on the shared path for every later call.
    PATH.length = 1;
    throw err;
  } finally {
    c.issues = NO_ISSUES;
    c.notes = NO_ISSUES;
  }
}

const CHECKER = new Checker();
const PATH: Path = [0];

function checkInto(c: Checker, spec: MethodSpec, params: unknown): void {
  const method = spec.name;
  if (params === undefined || params === null) {
    const { required, names } = arityOf(spec);
    if (required.length) c.add([], `${method} needs params [${names}], but there are none.`, 'jsonrpc/missing-param');
    return;
  }
  if (!Array.isArray(params)) {
    const { names } = arityOf(spec);
    // The one object param written without its array ("params": {"fromBlock": …}): wrapping it is the fix.
    const first = spec.params[0]?.type;
    const wrap = isObj(params) && (first === 'logFilter' || first === 'traceFilter' || first === 'callObject');
    c.add([], `params must be an array of positional params${spec.params.length ? ` [${names}]` : ' (empty for this method)'}, not ${show(params)}.`, 'jsonrpc/params-not-array', wrap ? { wrapInArray: true } : {});
    return;
  }
  // Only fewer params than the method takes can miss a required one: the arity is looked up for those alone.
  if (params.length < spec.params.length && params.length < arityOf(spec).required.length) {
    const { required, names } = arityOf(spec);
    const missing = spec.params.slice(params.length).filter((x) => x.required).map((x) => x.name);
    // Up to the last required param, the ones with a neutral value (false: hashes only; []: no reward percentiles) can be appended.
    const fill = spec.params.slice(params.length, spec.params.indexOf(required[required.length - 1]) + 1);
    const append = params.length > 0 && fill.every((x) => x.type === 'boolean' || x.type === 'percentiles') ? fill.map((x) => (x.type === 'boolean' ? false : [])) : undefined;
    c.add([], `${method} needs ${required.length} param${required.length === 1 ? '' : 's'} [${names}]; ${missing.map((x) => `"${x}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`, 'jsonrpc/missing-param', append ? { append } : {});
  }
  if (params.length > spec.params.length) {
    const { names } = arityOf(spec);
    c.add([spec.params.length], `${formatPath([spec.params.length])} is one param too many; ${method} takes ${spec.params.length ? `at most ${spec.params.length} [${names}]` : 'no params'}.`, 'jsonrpc/extra-param');
  }
  const path = PATH; // [i]: the checks push and pop in pairs
  for (let i = 0; i < spec.params.length && i < params.length; i++) {
    const ps = spec.params[i];
    const v: unknown = params[i];
    if (v === null && !ps.required) continue;
    path[0] = i;
    c.value(path, v, ps.type);
  }
  limits(spec, params, c);
}

/**
 * A signed transaction's envelope (EIP-2718): a type byte 0x01 to 0x04 followed by an RLP list, or a legacy transaction, which is
 * an RLP list itself (first byte 0xc0 or above). Anything else the node refuses to decode ("typed transaction too short", "rlp:
 * expected input list"); a transaction hash pasted in its place is the usual case. Only called on valid hex data.
 */
function rawTransaction(path: Path, v: unknown, c: Checker): void {
  if (typeof v !== 'string') return;
  if (v.length === 2) return c.add(path, `${formatPath(path)} is empty; eth_sendRawTransaction takes a signed transaction (its RLP-encoded bytes).`, 'jsonrpc/invalid-data');
  const first = parseInt(v.slice(2, 4), 16);
  const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;
  if (first >= 0xc0) return;
  if (first >= 0x01 && first <= 0x04) {
    if (v.length < 6) return c.add(path, `${formatPath(path)} is the transaction type ${hex(first)} alone; a typed transaction goes on with its RLP-encoded fields.`, 'jsonrpc/invalid-data');
    const second = parseInt(v.slice(4, 6), 16);
    if (second < 0xc0) return c.add(path, `${formatPath(path)} has the transaction type ${hex(first)}, then ${hex(second)}, not an RLP list (0xc0 to 0xff) of the transaction's fields.`, 'jsonrpc/invalid-data');
    return;
  }
  const hash = v.length === 66 ? '; a transaction hash has 32 bytes: this method takes the signed transaction itself' : '';
  c.add(path, `${formatPath(path)} is not a signed transaction: it starts with ${hex(first)}, neither a transaction type (0x01 to 0x04) nor an RLP list (0xc0 to 0xff)${hash}.`, 'jsonrpc/invalid-data');
}

const ARITY = new Map<MethodSpec, { required: MethodSpec['params']; names: string }>();

/** The required params of a method and its param list as messages show it, computed once per method. */
function arityOf(spec: MethodSpec): { required: MethodSpec['params']; names: string } {
  let a = ARITY.get(spec);
  if (!a) {
    a = { required: spec.params.filter((x) => x.required), names: spec.params.map((x) => (x.required ? x.name : `${x.name}?`)).join(', ') };
    ARITY.set(spec, a);
  }
  return a;
}

const isNum = (v: unknown): boolean => blockNumberOf(v) !== undefined;
const isRangeTag = (method: string, v: unknown): boolean =>
  typeof v === 'string' && (BLOCK_TAGS as readonly string[]).includes(v) && !(method === 'eth_getLogs' && v === 'pending');

/**
 * Warnings for a call whose data starts with a known function's selector (selectors.ts) but is too short for its arguments, or
 * whose dynamic argument has an offset or a length the data cannot hold (or that no encoder writes): the gateway passes it on and
 * the contract reverts decoding them. Not a param error (the mock gateway, like the platform's, takes the call), so not in
 * checkParamValues. The call object is the first param of eth_call and eth_estimateGas (eth_createAccessList is not in the
 * catalogue: an unknown method to the checker). The offsets are followed only for the three known functions with a dynamic
 * argument, and only as arithmetic on the offset and length words (callDataFault): no value is decoded here.
 */
export function callDataNotes(spec: MethodSpec, params: unknown): ParamIssue[] {
  if (spec.params[0]?.type !== 'callObject' || !Array.isArray(params) || !isObj(params[0])) return NO_ISSUES;
  const v = params[0];
  for (const k of ['input', 'data'] as const) {
    const d = v[k];
    const call = typeof d === 'string' ? knownCall(d, false) : undefined;
    if (!call) continue;
    if (call.shortBy === 0) {
      const fault = call.fn.dynamic ? callDataFault(call.fn, d as string) : undefined;
      if (!fault) continue;
      return [{
        path: [0, k],
        message: `${formatPath([0, k])} calls ${call.fn.signature} (${call.fn.standard}): ${fault.message}${fault.reverts ? '; the contract reverts when it decodes it.' : '.'}`,
        code: 'jsonrpc/call-data-bad-offset',
        within: [10 + fault.at * 2, 10 + fault.at * 2 + 64],
      }];
    }
    // The arguments whose head word the data does not hold whole (the shortfall counts from the end).
    const whole = call.fn.args.length - Math.ceil(call.shortBy / 32);
    const missing = call.fn.args.slice(whole).map((a) => `"${a.name}"`);
    // One note: "data" equal to "input" would say it twice; differing, the conflict is its own error.
    return [{
      path: [0, k],
      message: `${formatPath([0, k])} calls ${call.fn.signature} (${call.fn.standard}) but is ${call.shortBy} bytes short of its arguments (${missing.join(', ')} missing or cut); the contract reverts when it decodes them.`,
      code: 'jsonrpc/call-data-short',
    }];
  }
  return NO_ISSUES;
}

/** checksumAddress, remembered per address (a batch repeats its addresses, and an edit checks them all again). */
const checksumLower = remembered(4096, checksumAddress);
const checksumOf = (hex40: string): string => checksumLower(hex40.toLowerCase());

/**
 * Notes for block ranges the editor cannot measure (a bound given by a tag, or left to its default): the gateway checks
 * them at run time (information), or, from the genesis block to a head tag, a warning that the range is the whole chain. Only for
 * eth_getLogs and trace_filter; [] when the range is numeric, fixed by a block hash, or a single tag.
 */
export function rangeNotes(method: string, params: unknown): ParamIssue[] {
  if (method !== 'eth_getLogs' && method !== 'trace_filter') return NO_ISSUES;
  if (!Array.isArray(params) || !isObj(params[0])) return NO_ISSUES;
  const f = params[0];
  if (f.blockHash !== undefined && f.blockHash !== null) return NO_ISSUES;
  const max = method === 'eth_getLogs' ? LIMITS.getLogsMaxBlockRange : LIMITS.traceFilterMaxBlockRange;
  // Defaults: eth_getLogs takes "latest" for both; trace_filter from genesis (0) to the head.
  const from = f.fromBlock === undefined || f.fromBlock === null ? (method === 'eth_getLogs' ? 'latest' : 0) : f.fromBlock;
  const to = f.toBlock === undefined || f.toBlock === null ? 'latest' : f.toBlock;
  // A number or "earliest" (block 0; fixedBound) is the same block whatever the head.
  const fixed = (v: unknown): boolean => v === 'earliest' || isNum(v);
  const fromNum = fixed(from);
  const toNum = fixed(to);
  if (fromNum && toNum) return NO_ISSUES;
  if (!(fromNum || isRangeTag(method, from)) || !(toNum || isRangeTag(method, to))) return NO_ISSUES; // invalid bounds are reported by checkParamValues
  if (isRangeTag(method, from) && from === to) return NO_ISSUES;
  const at: Path = !fixed(f.fromBlock) && f.fromBlock !== undefined && f.fromBlock !== null ? [0, 'fromBlock']
    : !fixed(f.toBlock) && f.toBlock !== undefined && f.toBlock !== null ? [0, 'toBlock'] : [0];
  const shown = (k: 'fromBlock' | 'toBlock', v: unknown) => `${k} ${f[k] === undefined || f[k] === null ? `(default ${JSON.stringify(v)})` : JSON.stringify(v)}`;
  const range = `The block range ${shown('fromBlock', from)} to ${shown('toBlock', to)}`;
  // From genesis to a head tag is the whole chain: over the limit on every network the gateway serves (mainnet is past block 20
  // million), so the gateway's refusal is all but certain. trace_filter's default fromBlock makes it the easy mistake: a filter
  // of addresses alone.
  if (fromNum && blockNumberOf(from === 'earliest' ? 0 : from) === 0) {
    return [{
      path: at,
      message: `${range} starts at the genesis block and covers the whole chain, over the gateway's ${max}-block limit on any chain past block ${max - 1}; start it near the head.`,
      code: 'jsonrpc/range-from-genesis',
    }];
  }
  return [{
    path: at,
    message: `${range} depends on the chain head; the gateway checks the ${max}-block limit at run time.`,
    code: 'jsonrpc/range-checked-at-runtime',
  }];
}

/** The supported methods near an unknown one, remembered per name (a batch repeats its typos, and an edit checks them all again):
 * the editor's did-you-mean and its fixes, and the mock gateway's 403. */
export const nearMethods: (method: string) => string[] = remembered(1000, (method) => nearestMethods(method), (method) => method.length <= 100);

/** suggest()'s names; a method that differs from one in case only ("eth_blocknumber") means that one, alone (one fix for Fix all). */
function nearestMethods(method: string): string[] {
  const near = scoredSuggestions(method, SUPPORTED_METHODS);
  return near.length && near[0].distance === 0 ? [near[0].name] : near.map((s) => s.name);
}
