// What a rules-language expression matches: the parsed expression (the checker's own AST) compiled into closures over a request
// record. Pure. Regular expressions run on RE2 (re2js): linear time, so a hostile pattern cannot blow up, and RE2's syntax is the
// one Rust's regex crate (the platform's) descends from. IPs and CIDRs through ipaddr.js. Decisions in docs/evaluators.md.
import { remembered } from '../memo';
import { RE2JS } from 're2js';
import ipaddr from 'ipaddr.js';
import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import { analyzeExpression } from '../rules/ruleset/expression';
import { leftKindOf } from '../rules/ruleset/exprCheck';
import { atChar, compileRustRegex, re2LacksBoundary, untabledClass, untabledWhat } from '../rules/ruleset/rustRegex';
import { FIELDS, FUNCTIONS, RATE_LIMIT_PHASE, TERMINATING_ACTIONS } from '../rules/ruleset/catalog';
import { EXPRESSION_SITES, valuesAt, type ExpressionSite } from '../rules/ruleset/valueExpressions';
import { codeInfo, type Code } from '../codes';
import { bytesText, headOf } from '../text';
import { isObj, parseExact } from '../json';
import { phaseOf, rulesOf } from '../rules/ruleset/body';
import { rateLimiter, type Compilers, type RateLimiter, type RateLimitTally } from './rateLimit';
import type { CallNode, CompareNode, CompareOp, Expr, ExprProblem, FieldNode, IndexStep, IntNode, IpNode, LeftKind, Literal, RangeNode, SetNode } from '../rules/ruleset/exprParser';
import { parseIp, validIp } from '../rules/ruleset/exprLexer';

/** A request as the rules language sees it: field name -> value ("http.host": "example.com", "ip.src": "203.0.113.7",
 * "http.request.headers": { "user-agent": ["curl/8"] }). A field that is not there has its type's empty value. */
export type RequestRecord = Record<string, unknown>;

export interface CompiledExpression { test(record: RequestRecord): boolean }

/** Values of one element per "[*]" element: a comparison on them gives one boolean per element. */
class Each { constructor(readonly values: unknown[]) {} }

type Fn = (r: RequestRecord) => unknown;

class EvalError extends Error {}

function zero(type: string): unknown {
  if (type.startsWith('Array')) return [];
  if (type.startsWith('Map')) return {};
  return type === 'Integer' ? 0 : type === 'Boolean' ? false : type === 'IP' ? '0.0.0.0' : '';
}

function fieldValue(e: FieldNode): Fn {
  const info = FIELDS.get(e.name);
  const empty = zero(info ? typeName(info.type) : 'String');
  // A deprecated alias (ip.geoip.asnum) has its field's value (ip.src.asnum) in a record that gives only that one
  const name = e.name, alias = info?.deprecatedFor;
  const read: Fn = alias ? (r) => r[name] ?? r[alias] : (r) => r[name];
  return indexed((r) => { const v = read(r); return v === undefined || v === null ? empty : v; }, e.index, !!info?.lowerKeys);
}

/**
 * f's value taken through the steps of an index: [*] gives one value per element. lowerKeys: a map whose keys the platform
 * lower-cases (http.request.headers): a key with capitals finds nothing there, a lower-case one also finds a record's "User-Agent".
 */
function indexed(f: Fn, steps: IndexStep[], lowerKeys = false): Fn {
  const own = (v: object, k: string): unknown => (Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined);
  steps.forEach((step, i) => {
    const prev = f;
    if (step.kind === 'star') {
      // A map's values as they are (the arrays of a Map<Array<String>>, as the checker types them), not flattened
      // A second "[*]" takes the elements of each element, one flat list of them (as wirefilter's map-each of a map-each does)
      const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : []);
      f = (r) => { const v = prev(r); return new Each(v instanceof Each ? v.values.flatMap(items) : items(v)); };
    } else if (step.kind === 'key') {
      const key = step.key;
      // Only the field's own map has its keys lower-cased; what its values hold keeps theirs
      const lower = lowerKeys && i === 0;
      const caseless = lower && key === key.toLowerCase();
      const find = (v: object): unknown => {
        if (lower && !caseless) return undefined;
        const hit = own(v, key);
        if (hit !== undefined || !caseless) return hit;
        const k = Object.keys(v).find((x) => x.toLowerCase() === key);
        return k === undefined ? undefined : own(v, k);
      };
      f = (r) => { const v = prev(r); return v && typeof v === 'object' && !Array.isArray(v) ? find(v) ?? [] : []; };
    } else {
      f = (r) => { const v = prev(r); return v instanceof Each ? new Each(v.values.map((x) => (Array.isArray(x) ? x[step.pos] : undefined))) : Array.isArray(v) ? v[step.pos] : undefined; };
    }
  });
  return f;
}

function typeName(t: { t: string; of?: unknown }): string {
  return t.t === 'Array' || t.t === 'Map' ? `${t.t}<${typeName(t.of as { t: string })}>` : t.t;
}

/** A request value as an address: IPv4 or IPv6 as they are (an IPv4-mapped IPv6 address stays IPv6, as wirefilter's IpAddr keeps
 * V4 and V6 apart). Only what Rust's IpAddr reads (exprLexer validIp): a zone id ("fe80::1%eth0") or an inet_aton form ("1.2.3",
 * "010.1.1.1"), which ipaddr.js takes, is no address, as the record checks (records.ts) say with the same test. */
function ip(v: unknown): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return typeof v === 'string' ? readIp(v)?.addr : undefined;
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;
/** An address read once, with the key two equal addresses share (its kind and normalized text). */
interface ReadIp { addr: Addr; key: string }

/** Request values read as addresses, by text: a rule set tests the same ip.src in every rule and every set item, and a sample
 * repeats its clients; ipaddr.js's isValid + parse was most of an IP comparison. Bounded: cleared past READ_IPS_MAX texts of at most
 * READ_IP_MAX_CHARS characters (about 3 MB of keys at worst). */
const readIps = new Map<string, ReadIp | null>();
const READ_IPS_MAX = 50_000;
/** Texts longer than this are no address and are not kept: the count alone bounds no memory when the texts are long (has_value
 * reads every value of a header map; a record's ip.src may be any string). The longest address text is 45 characters (IPv6 with an
 * IPv4 tail, every group of four digits). */
const READ_IP_MAX_CHARS = 45;

function readIp(v: string): ReadIp | undefined {
  if (v.length > READ_IP_MAX_CHARS) return undefined;
  let hit = readIps.get(v);
  if (hit === undefined) {
    hit = validIp(v) ? keyed(parseIp(v)) : null;
    if (readIps.size >= READ_IPS_MAX) readIps.clear();
    readIps.set(v, hit);
  }
  return hit ?? undefined;
}

function keyed(addr: Addr): ReadIp {
  return { addr, key: `${addr.kind()}:${addr.toNormalizedString()}` };
}

/** An address literal of the expression, which the checker has read as Rust does; one it refuses never gets here (compileExpression
 * stops on its error), and one that ipaddr.js would read otherwise is refused rather than read. */
function literalIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 {
  if (!validIp(text)) throw new EvalError(`The address ${text} cannot be evaluated: it is no address the platform reads.`);
  return parseIp(text);
}

/** A test of a request value against one address literal. */
function sameIpTest(text: string): (v: unknown) => boolean {
  const { key } = keyed(literalIp(text));
  return (v) => typeof v === 'string' && readIp(v)?.key === key;
}

/** A CIDR literal (text "addr/bits") as a test of a request value. */
function cidrTest(text: string): (v: unknown) => boolean {
  const slash = text.indexOf('/');
  const net = literalIp(text.slice(0, slash));
  const bits = Number(text.slice(slash + 1));
  return (v) => { const x = ip(v); return !!x && x.kind() === net.kind() && x.match(net, bits); };
}

/** An integer literal exactly: past 2^53 a double is not the platform's 64-bit integer. */
const exactInt = (n: IntNode): bigint | number => n.big ?? n.value;

/**
 * The order of two integers, each a double (JSON's) or a bigint (the digits a line writes past 2^53: readNdjson; an exact literal
 * past 2^53: exactInt), by value: JavaScript's < and > compare a number with a bigint by their mathematical values, where === calls
 * them different. Undefined when either is no number (a missing key or element, a text) or NaN.
 */
function intOrder(a: unknown, b: unknown): number | undefined {
  if ((typeof a !== 'number' && typeof a !== 'bigint') || (typeof b !== 'number' && typeof b !== 'bigint')) return undefined;
  if (Number.isNaN(a) || Number.isNaN(b)) return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Whether a request's integer compares as `op` with an exact literal (intOrder: by value, a bigint or not). */
function intCompare(v: unknown, lit: bigint | number, op: 'eq' | 'lt' | 'le' | 'gt' | 'ge'): boolean {
  const o = intOrder(v, lit);
  if (o === undefined) return false;
  switch (op) {
    case 'eq': return o === 0;
    case 'lt': return o < 0;
    case 'le': return o <= 0;
    case 'gt': return o > 0;
    default: return o >= 0;
  }
}

const utf8 = new TextEncoder();

/** A glob of "wildcard" (case-insensitive) or "strict wildcard": "*" any run of characters, "\*" a star. */
function wildcard(pattern: string, caseSensitive: boolean, capture = false): RE2JS {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) re += RE2JS.quote(pattern[++i]);
    else if (c === '*') re += capture ? '(.*?)' : '.*';
    else re += RE2JS.quote(c);
  }
  return RE2JS.compile(`^(?s:${re})$`, caseSensitive ? 0 : RE2JS.CASE_INSENSITIVE);
}

function regex(pattern: string, where: string): RE2JS {
  // A word boundary of Rust's that RE2 has no spelling for: RE2 would read \b{start} as \b and a literal, \< as "<" (never a match)
  const lacking = re2LacksBoundary(pattern);
  if (lacking) throw new EvalError(`${where}: the regex ${JSON.stringify(pattern)} is valid Rust regex, but RE2 (EdgeKit's engine) cannot run it ("${lacking.text}" ${atChar(pattern, lacking.at)} is a word boundary RE2 does not have); test the rule without it.`);
  // A Unicode class EdgeKit has no table for (\p{Hyphen}, \p{Age=3.0}): the RE2 text holds a stand-in, which must not be run
  const untabled = untabledClass(pattern);
  if (untabled) throw new EvalError(`${where}: the regex ${JSON.stringify(pattern)} is valid Rust regex, but EdgeKit has no table for "${untabled.text}" ${atChar(pattern, untabled.at)} (${untabledWhat(untabled)}), so it cannot run it; test the rule without it.`);
  try {
    return compileRustRegex(pattern);
  } catch (err) {
    const m = (err as Error).message;
    // What Rust takes and RE2 lacks (compileRustRegex splits such a count; should one still fail): said so, not as an error in the regex
    if (/invalid repeat count/.test(m)) {
      throw new EvalError(`${where}: the regex ${JSON.stringify(pattern)} is valid Rust regex, but RE2 (EdgeKit's engine) cannot run it (${m}); test the rule without it.`);
    }
    throw new EvalError(`${where}: the regex ${JSON.stringify(pattern)} cannot be evaluated (${m}).`);
  }
}

/** regex_replace()'s patterns compiled once each (a literal one is the same on every request); undefined for one RE2 refuses. */
const replacePattern = remembered(256, (pattern): RE2JS | undefined => { try { return regex(pattern, 'regex_replace()'); } catch { return undefined; } });

function literal(l: Literal | IpNode): unknown {
  return l.type === 'ip' ? l.text : l.value;
}

/** One comparison of a single value with the right-hand side. */
function comparer(e: CompareNode): (v: unknown) => boolean {
  const rhs = e.right;
  const where = `"${e.op}" at ${e.opSpan.offset}`;
  switch (e.op) {
    case 'matches': {
      const re = regex(rhs.type === 'string' ? rhs.value : '', where);
      return (v) => typeof v === 'string' && re.matcher(v).find();
    }
    case 'wildcard': case 'strict wildcard': {
      const re = wildcard(rhs.type === 'string' ? rhs.value : '', e.op === 'strict wildcard');
      return (v) => typeof v === 'string' && re.matcher(v).matches();
    }
    case 'contains': {
      if (rhs.type === 'string' && rhs.exact) { const x = rhs.exact; return (v) => typeof v === 'string' && bytesIndexOf(utf8.encode(v), x) >= 0; }
      const s = String(literal(rhs as Literal));
      return (v) => typeof v === 'string' && v.includes(s);
    }
    case 'in': {
      if (rhs.type === 'list') return () => false; // managed lists ($name) are account data the evaluator does not have
      const items = (rhs as SetNode).items;
      const tests = items.map((it): ((v: unknown) => boolean) => {
        if (it.type === 'range') {
          const r = it as RangeNode;
          if (r.from.type === 'int') { const lo = exactInt(r.from), hi = exactInt(r.to as IntNode); return (v) => intCompare(v, lo, 'ge') && intCompare(v, hi, 'le'); }
          const lo = literalIp((r.from as IpNode).text), hi = literalIp((r.to as IpNode).text);
          return (v) => { const x = ip(v); return !!x && x.kind() === lo.kind() && cmpBytes(x.toByteArray(), lo.toByteArray()) >= 0 && cmpBytes(x.toByteArray(), hi.toByteArray()) <= 0; };
        }
        if (it.type === 'ip') return it.cidr ? cidrTest(it.text) : sameIpTest(it.text);
        if (it.type === 'int') { const n = exactInt(it); return (v) => intCompare(v, n, 'eq'); }
        if (it.type === 'string' && it.exact) return exactTest(it.exact, (c) => c === 0);
        const val = literal(it);
        return (v) => v === val;
      });
      return (v) => tests.some((t) => t(v));
    }
    default: {
      const right = rhs as Literal | IpNode;
      if (right.type === 'int') {
        const n = exactInt(right), op = e.op === 'ne' ? 'eq' : e.op as 'eq' | 'lt' | 'le' | 'gt' | 'ge';
        return e.op === 'ne' ? (v) => !intCompare(v, n, 'eq') : (v) => intCompare(v, n, op);
      }
      if (right.type === 'string' && right.exact) {
        // Bytes that are no UTF-8 (a lone \xe0): compared as bytes, as wirefilter compares [u8]; its text ("à") would be wrong
        const x = right.exact;
        switch (e.op) {
          case 'eq': return exactTest(x, (c) => c === 0);
          case 'ne': return exactTest(x, (c) => c !== 0);
          case 'lt': return exactTest(x, (c) => c < 0);
          case 'le': return exactTest(x, (c) => c <= 0);
          case 'gt': return exactTest(x, (c) => c > 0);
          default: return exactTest(x, (c) => c >= 0);
        }
      }
      let eq: (v: unknown) => boolean;
      if (right.type === 'ip') {
        if (right.cidr) eq = cidrTest(right.text);
        else eq = sameIpTest(right.text);
      } else { const val = right.value; eq = (v) => v === val; }
      switch (e.op) {
        case 'eq': return eq;
        case 'ne': return (v) => !eq(v);
        // Ordering is the checker's for integers (above) and bytes: texts in the order of their UTF-8 bytes
        case 'lt': { const val = String(literal(right)); return (v) => typeof v === 'string' && byteOrder(v, val) < 0; }
        case 'le': { const val = String(literal(right)); return (v) => typeof v === 'string' && byteOrder(v, val) <= 0; }
        case 'gt': { const val = String(literal(right)); return (v) => typeof v === 'string' && byteOrder(v, val) > 0; }
        default: { const val = String(literal(right)); return (v) => typeof v === 'string' && byteOrder(v, val) >= 0; }
      }
    }
  }
}

/**
 * A comparison of two request values (a field or a function result on each side) of the comparison's type, as the checker typed its
 * left side: texts by their UTF-8 bytes, integers as numbers, addresses as addresses (equality only: the checker refuses ordering on
 * IP). A value that is not there or not of that type (a missing key or element: undefined) equals nothing, not even another missing
 * one: eq and the orderings are false, ne true, as against a literal.
 */
function dynamicComparer(op: CompareOp, kind: LeftKind): (a: unknown, b: unknown) => boolean {
  const order: (a: unknown, b: unknown) => number | undefined =
    kind === 'ip' ? (a, b) => { const x = typeof a === 'string' ? readIp(a) : undefined, y = typeof b === 'string' ? readIp(b) : undefined; return x && y ? (x.key === y.key ? 0 : 1) : undefined; }
      : kind === 'textual' ? (a, b) => (typeof a === 'string' && typeof b === 'string' ? byteOrder(a, b) : undefined)
        : intOrder;
  switch (op) {
    case 'eq': return (a, b) => order(a, b) === 0;
    case 'ne': return (a, b) => order(a, b) !== 0;
    case 'lt': return (a, b) => (order(a, b) ?? 0) < 0;
    case 'le': return (a, b) => { const o = order(a, b); return o !== undefined && o <= 0; };
    case 'gt': return (a, b) => (order(a, b) ?? 0) > 0;
    case 'ge': return (a, b) => { const o = order(a, b); return o !== undefined && o >= 0; };
    default: throw new EvalError(`"${op}" takes a literal value only; it cannot compare two fields or function results.`);
  }
}

/** Texts in the order of their UTF-8 bytes (wirefilter compares [u8]), which is code point order: JavaScript's < compares UTF-16
 * units, which puts a character past U+FFFF (a surrogate pair, D800-DFFF) below U+E000-U+FFFF. */
function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const unit = (c: number) => (c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c);
  return unit(a.charCodeAt(i)) - unit(b.charCodeAt(i));
}

/** A test of a request value's UTF-8 bytes against a literal's exact bytes: `ok` of their order (negative: the value is below). */
function exactTest(x: Uint8Array, ok: (order: number) => boolean): (v: unknown) => boolean {
  return (v) => {
    if (typeof v !== 'string') return false;
    const b = utf8.encode(v);
    const n = Math.min(b.length, x.length);
    let i = 0;
    while (i < n && b[i] === x[i]) i++;
    return ok(i === n ? b.length - x.length : b[i] - x[i]);
  };
}

function bytesIndexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

function cmpBytes(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** One pass of url_decode: "+" a space, each run of %XX (and, with `unicode`, %uXXXX: a UTF-16 unit, as UTF-8) as its bytes. */
function urlDecodeOnce(s: string, unicode: boolean, plus: boolean): string {
  const text = plus ? s.replace(/\+/g, ' ') : s;
  const run = unicode ? /(?:%[0-9a-fA-F]{2}|%u[0-9a-fA-F]{4})+/g : /(?:%[0-9a-fA-F]{2})+/g;
  return text.replace(run, (m) => {
    const bytes: number[] = [];
    let units = '';
    const flush = () => { if (units) { bytes.push(...utf8.encode(units)); units = ''; } };
    for (let i = 0; i < m.length;) {
      if (m[i + 1] === 'u') { units += String.fromCharCode(parseInt(m.slice(i + 2, i + 6), 16)); i += 6; continue; }
      flush();
      bytes.push(parseInt(m.slice(i + 1, i + 3), 16));
      i += 3;
    }
    flush();
    return bytesText(Uint8Array.from(bytes));
  });
}

const str = (v: unknown) => (v instanceof Each ? '' : typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/**
 * A function's result; Bytes are strings here. A first argument of one value per element ("[*]") maps the function over them and
 * gives an array of the results, as wirefilter does (`lower(http.request.headers.names[*])[*]` then compares each).
 */
function callFn(name: string, args: unknown[], where: string): unknown {
  const first = args[0];
  if (first instanceof Each && name !== 'any' && name !== 'all') {
    return first.values.map((v) => callFn(name, [v, ...args.slice(1)], where));
  }
  const [a, b, c] = args;
  switch (name) {
    case 'any': return a instanceof Each ? a.values.some(Boolean) : Array.isArray(a) ? a.some(Boolean) : Boolean(a);
    case 'all': return a instanceof Each ? a.values.every(Boolean) : Array.isArray(a) ? a.every(Boolean) : Boolean(a);
    // "Only uppercase [lowercase] ASCII bytes are converted. All other bytes are unaffected." (functions reference)
    // The first argument that has a value: a missing field, header or index (undefined here) is the platform's nil
    case 'coalesce': return args.find((v) => v !== undefined && v !== null);
    case 'lower': return str(a).replace(/[A-Z]+/g, (m) => m.toLowerCase());
    case 'upper': return str(a).replace(/[a-z]+/g, (m) => m.toUpperCase());
    case 'len': return Array.isArray(a) ? a.length : utf8.encode(str(a)).length;
    case 'starts_with': return str(a).startsWith(str(b));
    case 'ends_with': return str(a).endsWith(str(b));
    case 'concat': return Array.isArray(a) ? args.flatMap((x) => (Array.isArray(x) ? x : [x])) : args.map(str).join('');
    case 'url_decode': {
      // Options: "r" decodes again while there is something to decode, "u" also decodes %uXXXX (to UTF-8)
      const unicode = str(b).includes('u');
      const left = unicode ? /%[0-9a-fA-F]{2}|%u[0-9a-fA-F]{4}/ : /%[0-9a-fA-F]{2}/;
      let out = urlDecodeOnce(str(a), unicode, true);
      if (str(b).includes('r')) for (let i = 0; i < 8 && left.test(out); i++) out = urlDecodeOnce(out, unicode, false);
      return out;
    }
    case 'to_string': return String(a);
    case 'substring': {
      // Byte indexes (the functions reference); negative ones count from the end
      const bytes = utf8.encode(str(a));
      const len = bytes.length;
      const norm = (i: number) => (i < 0 ? Math.max(0, len + i) : Math.min(len, i));
      return bytesText(bytes.subarray(norm(Number(b)), c === undefined ? len : norm(Number(c))));
    }
    // ${n} as RE2's $n; "$$" (a literal "$") kept for RE2, and not read as the start of a ${n} after it
    case 'regex_replace': {
      // A pattern that is no literal (a field's value) is compiled per value, once: one RE2 refuses leaves the source as it is, as
      // when nothing matches (the checker has checked a literal one)
      const re = replacePattern(str(b));
      if (!re) return str(a);
      return re.matcher(str(a)).replaceFirst(str(c).replace(/\$\$|\$\{(\d+)\}/g, (m, n?: string) => (n === undefined ? m : `$${n}`)));
    }
    case 'wildcard_replace': {
      // ${n}: what the n-th "*" matched, "$$" a "$"; the flag "s" makes the match case-sensitive.
      const m = wildcard(str(b), str(args[3]).includes('s'), true).matcher(str(a));
      if (!m.matches()) return str(a);
      return str(c).replace(/\$\$|\$\{(\d+)\}/g, (_x, n?: string) => (n === undefined ? '$' : m.group(Number(n)) ?? ''));
    }
    case 'remove_bytes': { const drop = new Set(str(b)); return [...str(a)].filter((ch) => !drop.has(ch)).join(''); }
    case 'remove_query_args': {
      const names = new Set(args.slice(1).map(str));
      return str(a).split('&').filter((p) => p && !names.has(p.split('=')[0])).join('&');
    }
    case 'lookup_json_string': case 'lookup_json_integer': {
      let v: unknown;
      // parseExact: an integer past 2^53 as the bigint of its digits, as the platform's 64-bit integers hold it
      try { v = parseExact(str(a)); } catch { return name === 'lookup_json_string' ? '' : 0; }
      for (const k of args.slice(1)) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[String(k)] : undefined;
      if (name === 'lookup_json_string') return typeof v === 'string' ? v : '';
      // "Only works for plain integers ... not ... 42.0" (functions reference): JSON.parse reads 42.0 and 4.2e1 as 42, the text tells
      return (typeof v === 'bigint' || Number.isInteger(v)) && plainInteger(str(a), args.slice(1)) ? v : 0;
    }
    case 'split': {
      // At most limit parts, the last one holding the rest of the string (the platform's reference).
      const parts = str(a).split(str(b));
      const limit = Math.max(1, Math.min(128, Number(c) || 128));
      return parts.length <= limit ? parts : [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(str(b))];
    }
    case 'join': return (Array.isArray(a) ? a : []).map(str).join(str(b));
    case 'cidr': case 'cidr6': {
      const x = ip(a);
      if (!x) return '0.0.0.0';
      const bits = x.kind() === 'ipv4' ? (name === 'cidr' ? Number(b) : 32) : Number(name === 'cidr' ? c : b);
      // Prefix lengths from a field's value rather than a literal the checker bounds: one out of range gives no network
      if (!Number.isInteger(bits) || bits < 0 || bits > (x.kind() === 'ipv4' ? 32 : 128)) return '0.0.0.0';
      return ipaddr.parseCIDR(`${x.toString()}/${bits}`)[0] && (x.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6).networkAddressFromCIDR(`${x.toString()}/${bits}`).toString();
    }
    case 'decode_base64': try { return bytesText(Uint8Array.from(atob(str(a)), (c) => c.charCodeAt(0))); } catch { return ''; }
    case 'encode_base64': {
      // The string's UTF-8 bytes (a Latin-1 byte string from decode_base64 is not told apart); flags "u" URL-safe, "p" padded.
      let out = btoa([...utf8.encode(str(a))].map((x) => String.fromCharCode(x)).join(''));
      if (str(b).includes('u')) out = out.replace(/\+/g, '-').replace(/\//g, '_');
      return str(b).includes('p') ? out : out.replace(/=+$/, '');
    }
    // Own keys only ("in" also finds Object.prototype's "constructor"); http.request.headers comes here with its keys lower-cased
    // (build), so a key with capitals is never one of them and other maps keep their keys' case, as ["key"] does
    case 'has_key':
      return !!a && typeof a === 'object' && !Array.isArray(a) && Object.hasOwn(a, str(b));
    case 'has_value': {
      const values = Array.isArray(a) ? a : a && typeof a === 'object' ? Object.values(a).flat() : [];
      const bKey = typeof b === 'string' ? readIp(b)?.key : undefined;
      // An integer by value (a bigint element of a line past 2^53, an exact literal), an address as an address
      return values.some((v) => v === b || intOrder(v, b) === 0 || (bKey !== undefined && typeof v === 'string' && readIp(v)?.key === bKey));
    }
    case 'uuidv4': return '00000000-0000-4000-8000-000000000000';
    case 'is_timed_hmac_valid_v0': return false; // needs the account's secret key
    default: throw new EvalError(`${where}: ${name}() cannot be evaluated.`);
  }
}

/** Whether the JSON value at `keys` in `text` (which JSON.parse read) is written as a plain integer: digits, no fraction or exponent. */
function plainInteger(text: string, keys: unknown[]): boolean {
  // JSON.parse read the text: no "\😀" (an escape JSON has not, which jsonc-parser reads as half an emoji: parse/document.ts
  // ESCAPED_ASTRAL) is in a key compared here.
  let node: JsonNode | undefined = parseTree(text);
  for (const k of keys) {
    if (node?.type === 'array') node = node.children?.[Number(k)];
    else if (node?.type === 'object') {
      // The last of a repeated key, as JSON.parse keeps it
      const props: JsonNode[] = (node.children ?? []).filter((p) => p.children?.[0]?.value === String(k));
      node = props[props.length - 1]?.children?.[1];
    } else return false;
  }
  return !!node && /^-?\d+$/.test(text.slice(node.offset, node.offset + node.length));
}

/** Functions whose result depends on what EdgeKit does not have, and why. */
const NOT_EVALUABLE: Record<string, string | undefined> = {
  bit_slice: 'it reads the raw packet headers of Network Firewall rules (ip, tcp, udp...), which a request record does not have.',
  is_jwt_present: "it depends on the zone's API Shield token configuration.",
  is_jwt_valid: "it depends on the zone's API Shield token configuration.",
  sha256: 'EdgeKit\'s evaluator does not compute hashes; test the rule without it.',
  hash_in_range: 'the platform does not document its hash, so which requests fall in the range cannot be computed; test the rule without it.',
};

/** The functions callFn computes: a function of the catalogue that is neither here nor in NOT_EVALUABLE is refused when the expression
 * is compiled, never at its first request (callFn's default case threw out of the run: exit 2 in the CLI, a failed request in the
 * editor). */
const EVALUATED = new Set(['any', 'all', 'coalesce', 'lower', 'upper', 'len', 'starts_with', 'ends_with', 'concat', 'url_decode', 'to_string', 'substring',
  'regex_replace', 'wildcard_replace', 'remove_bytes', 'remove_query_args', 'lookup_json_string', 'lookup_json_integer', 'split', 'join',
  'cidr', 'cidr6', 'decode_base64', 'encode_base64', 'has_key', 'has_value', 'uuidv4', 'is_timed_hmac_valid_v0']);

/** true when the evaluator computes the function, else why not. */
export function functionSupport(name: string): true | string {
  return NOT_EVALUABLE[name] ?? (EVALUATED.has(name) ? true : 'EdgeKit\'s evaluator does not compute it; test the rule without it.');
}

function build(e: Expr): Fn {
  switch (e.type) {
    case 'bool': case 'string': { const v = e.value; return () => v; }
    // Exact past 2^53 (a function's argument: has_value's needle), as a comparison's literal is
    case 'int': { const v = exactInt(e); return () => v; }
    case 'ip': { const v = e.text; return () => v; }
    case 'group': return build(e.inner);
    case 'field': return fieldValue(e);
    case 'not': {
      const f = build(e.operand);
      // one boolean per element, of a [*] or of a call mapped over one (an array): negated element-wise
      return (r) => { const v = f(r); return v instanceof Each || Array.isArray(v) ? new Each((v instanceof Each ? v.values : v).map((x) => !x)) : !truthy(v); };
    }
    case 'logical': {
      const l = build(e.left), r2 = build(e.right);
      // One boolean per element on both sides (inside any()/all()): element by element, as long as the shorter side (wirefilter)
      const op = e.op === 'and' ? (a: boolean, b: boolean) => a && b : e.op === 'or' ? (a: boolean, b: boolean) => a || b : (a: boolean, b: boolean) => a !== b;
      const each = (a: unknown[], b: unknown[]) => new Each(a.slice(0, Math.min(a.length, b.length)).map((x, i) => op(Boolean(x), Boolean(b[i]))));
      return (r) => {
        const a = l(r);
        const pa = perElement(a);
        // A single boolean decides "and"/"or" alone, as before: the right side is read only when it counts, and once
        if (!pa && e.op !== 'xor' && truthy(a) === (e.op === 'or')) return e.op === 'or';
        const b = r2(r);
        const pb = pa && perElement(b);
        return pb ? each(pa, pb) : op(truthy(a), truthy(b));
      };
    }
    case 'compare': {
      const left = build(e.left);
      if (e.right.type === 'field' || e.right.type === 'call') {
        // Two values per request (changelog 2026-10-01 "Compare dynamic values"): "[*]" on one side compares each of its elements with
        // the other side (both sides with "[*]" are refused in compileExpression)
        const right = build(e.right);
        const cmp = dynamicComparer(e.op, leftKindOf()(e.left));
        return (r) => {
          const v = left(r), w = right(r);
          if (v instanceof Each) return new Each(v.values.map((x) => cmp(x, w)));
          if (w instanceof Each) return new Each(w.values.map((y) => cmp(v, y)));
          return cmp(v, w);
        };
      }
      const cmp = comparer(e);
      return (r) => { const v = left(r); return v instanceof Each ? new Each(v.values.map(cmp)) : cmp(v); };
    }
    case 'call': {
      const c = e as CallNode;
      if (!FUNCTIONS.has(c.name)) throw new EvalError(`${c.name}() at ${c.offset} is not a function of the rules language.`);
      const why = functionSupport(c.name);
      if (why !== true) throw new EvalError(`${c.name}() at ${c.offset} cannot be evaluated: ${why}`);
      // A literal pattern RE2 cannot run as written (a word boundary it does not have) is refused here, named, as "matches" refuses it:
      // compiled per value, it would leave every source as it is
      const pattern = c.args[1];
      if (c.name === 'regex_replace' && pattern?.type === 'string') regex(pattern.value, `regex_replace() at ${c.offset}`);
      const args = c.args.map(build);
      const m = c.args[0];
      if (c.name === 'has_key' && m?.type === 'field' && !m.index.length && FIELDS.get(m.name)?.lowerKeys) {
        // The platform's map has lower-case keys: a record's "User-Agent" is "user-agent" there, and a key with capitals is none of
        // them (looked up in place: no lower-cased copy of the map per record)
        const [map, key] = args;
        return (r) => {
          const v = map(r), k = str(key(r));
          if (!v || typeof v !== 'object' || Array.isArray(v) || k !== k.toLowerCase()) return false;
          return Object.hasOwn(v, k) || Object.keys(v).some((x) => x.toLowerCase() === k);
        };
      }
      const where = `${c.name}() at ${c.offset}`;
      return indexed((r) => callFn(c.name, args.map((a) => a(r)), where), c.index);
    }
    default: throw new EvalError(`The expression cannot be evaluated at ${e.offset}.`);
  }
}

/** The booleans of a value that has one per element (a comparison on "[*]", or a predicate mapped over one), else undefined. */
function perElement(v: unknown): unknown[] | undefined {
  return v instanceof Each ? v.values : Array.isArray(v) ? v : undefined;
}

/** A boolean; one boolean per element (a "[*]" or an array of booleans outside any()/all(), which the checker refuses) counts as any(). */
function truthy(v: unknown): boolean {
  return v instanceof Each ? v.values.some(Boolean) : Array.isArray(v) ? v.some(Boolean) : Boolean(v);
}

/** The expression compiled; an expression with errors (syntax, unknown fields, types, a regex RE2 refuses) is an error naming it. */
export function compileExpression(src: string): { ok: true; expression: CompiledExpression } | { ok: false; error: string } {
  const { ast, problems } = analyzeExpression(src);
  // Warnings (a deprecated field, a phase, a header key with capitals) leave an expression the platform runs
  // With no tree and no error, the problem that stopped the parse says why
  // "[*]" on both sides of a comparison of two fields (ruleset/expr-compare-fields, a warning) is not evaluated: how the platform pairs
  // the elements is not documented
  const r = built(ast, problems, (p) => p.code === 'ruleset/expr-compare-fields');
  return r.ok ? { ok: true, expression: { test: (rec) => truthy(r.f(rec)) } } : r;
}

/** An analysed expression built into a function of a request, unless a problem of it is an error (or `refused`) or the evaluator
 * cannot compute a part of it (EvalError): then the error naming it. With no tree and no error, the problem that stopped the parse. */
function built(ast: Expr | undefined, problems: readonly ExprProblem[], refused: (p: ExprProblem) => boolean = () => false): { ok: true; f: Fn } | { ok: false; error: string } {
  const err = problems.find((p) => codeInfo(p.code as Code).severity === 'error' || refused(p)) ?? (ast ? undefined : problems[0]);
  if (!ast || err) return { ok: false, error: err ? `${err.message} (${err.code}, at ${err.offset})` : 'The expression is empty.' };
  try {
    return { ok: true, f: build(ast) };
  } catch (e) {
    if (e instanceof EvalError) return { ok: false, error: e.message };
    throw e;
  }
}

/** What a value expression gives on a request: its text, or null when it has no value there (a missing header or element). */
export interface CompiledValue { evaluate(record: RequestRecord): string | null }

/** A String value place (a header value): what compileValue checks an expression against when it is given no place. */
const STRING_VALUE_SITE = EXPRESSION_SITES.find((s) => s.role === 'value' && s.rewrite === 'header')!;

/**
 * A value expression of a rule (a header value, a URL rewrite, a redirect target: valueExpressions.ts) compiled, with the same
 * functions as a match expression; one the evaluator does not compute (functionSupport) or with errors at its place is an error
 * naming it. An Integer, IP or Boolean result is its text (as to_string() gives it); a missing key or element is null.
 */
export function compileValue(src: string, site: ExpressionSite = STRING_VALUE_SITE): { ok: true; value: CompiledValue } | { ok: false; error: string } {
  const { ast, problems } = analyzeExpression(src, undefined, site);
  const r = built(ast, problems);
  return r.ok ? { ok: true, value: { evaluate: (rec) => valueText(r.f(rec)) } } : r;
}

function valueText(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (v instanceof Each) return JSON.stringify(v.values.map(valueText));
  if (Array.isArray(v)) return JSON.stringify(v.map(valueText));
  return typeof v === 'string' ? v : String(v);
}

/**
 * One rule of a ruleset as the run sees it, and what it did to the requests so far:
 * - matched: its expression is true (counted for every rule, enabled or not, wherever it stands);
 * - applied: its action took effect (enabled, reached, matched, and not an execute of a ruleset an earlier skip rule skipped);
 * - decided: evaluation of the ruleset ended at it (a terminating action, or a skip of all remaining rules);
 * - skipped: it matched, but an earlier skip rule had skipped it (an execute of a skipped ruleset).
 */
export interface RuleTally {
  index: number; label: string; action: string; enabled: boolean; terminating: boolean;
  /** A skip of all remaining rules ("ruleset": "current" or "phase": "current"): no terminating action, yet it ends the evaluation
   * (absent otherwise). */
  skipsRest?: true;
  matched: number; applied: number; decided: number; skipped: number; firstMatches: number[];
  /** What the rule's action sets (headers, a URL rewrite, a redirect target) and what that gave (compileRuleset only); none when it sets nothing. */
  values?: ValueTally[];
  /** A rate limiting rule (phase http_ratelimit): its counters, and the requests its action applied to (also `applied`); a rule that
   * matched is applied only once the count passes the threshold. */
  ratelimit?: RateLimitTally;
}

/**
 * One thing a rule's action sets with a value, and what that value was on the requests the rule matched: the value expression's
 * result on the first VALUE_EXAMPLES of them, and how many distinct results it gave (past DISTINCT_MAX values or DISTINCT_MAX_CHARS
 * characters, or past the run's DISTINCT_RUN_CHARS, counting stops: distinctMore). A static `value` is the same on every request: it is given, with no examples.
 */
export interface ValueTally {
  /** What is set: a header's name, "URI path", "URI query", "target URL". */
  name: string;
  /** Where in the rule: "action_parameters.headers.X-Ctx.expression". */
  path: string;
  /** A header's operation ("set", "add", "remove"). */
  operation?: string;
  /** A static value. */
  value?: string;
  /** A value expression's text. */
  expression?: string;
  /** Why the expression is not evaluated (a function the evaluator does not compute); it then has no examples. */
  error?: string;
  /** The expression's value on the first matching requests, by line; null when it had none (a missing header). A value longer than
   * VALUE_SHOWN_CHARS is cut there, "… (n characters)" after it. */
  examples: { line: number; value: string | null }[];
  distinct: number;
  distinctMore?: boolean;
  /** On how many requests the rule applied to a later rule that applied set the same thing again (by rule index, in order): the
   * platform runs a phase's rules in order and later rules overwrite what earlier ones set ("URL rewrite rules run in order, and later
   * rules can overwrite changes done by previous rules"). A header is the same whatever its name's case; a later `add` adds to a
   * header, it does not overwrite it; a later `set` or `remove` does. */
  overwritten?: { by: number; requests: number }[];
}

const VALUE_EXAMPLES = 3;
const DISTINCT_MAX = 1000;
const DISTINCT_MAX_CHARS = 256 * 1024;
/** The characters of distinct values all the places of one run keep at most (a ruleset of many rewrite rules), about 8 MB. */
const DISTINCT_RUN_CHARS = 4 * 1024 * 1024;
const VALUE_SHOWN_CHARS = 1000;

/** The places of a rule that set a value (the rewrite places of valueExpressions.ts' table: header values, URI path and query,
 * redirect target), in the table's order, with what is there: an expression, a static value, or a header's removal. */
interface ValuePlace {
  tally: ValueTally; compiled?: CompiledValue; seen?: Set<string | symbol>; seenChars: number;
  /** What the place sets, the same for two places that set the same thing ("header x-ctx", "url URI path"). */
  key: string;
  /** Whether it replaces what earlier rules set there (all but a header's add). */
  replaces: boolean;
}

const REWRITE_SITES = EXPRESSION_SITES.filter((s) => s.role === 'value' && s.rewrite !== 'other');
const PLACE_NAMES: Record<string, string> = { path: 'URI path', query: 'URI query', target_url: 'target URL' };

function valuePlaces(rule: unknown): ValuePlace[] {
  const out: ValuePlace[] = [];
  for (const site of REWRITE_SITES) {
    // The object that holds the expression, a static value or a removal (a header's { operation, value | expression })
    for (const { path: at, value: v } of valuesAt(rule, site.at.slice(0, -1), [])) {
      if (!isObj(v)) continue;
      const path = at.map(String);
      const name = site.rewrite === 'header' ? path[path.length - 1] : PLACE_NAMES[path[path.length - 1]] ?? path.join('.');
      const operation = site.rewrite === 'header' && typeof v.operation === 'string' ? { operation: v.operation } : {};
      // With both (ruleset/value-and-expression warns), the expression is shown
      const tally: ValueTally | undefined = typeof v.expression === 'string' ? { name, path: [...path, 'expression'].join('.'), ...operation, expression: v.expression, examples: [], distinct: 0 }
        : typeof v.value === 'string' ? { name, path: [...path, 'value'].join('.'), ...operation, value: v.value, examples: [], distinct: 1 }
          : v.operation === 'remove' ? { name, path: path.join('.'), ...operation, examples: [], distinct: 0 } : undefined;
      if (!tally) continue;
      const key = `${site.rewrite} ${site.rewrite === 'header' ? name.toLowerCase() : name}`;
      const place: ValuePlace = { tally, seenChars: 0, key, replaces: tally.operation !== 'add' };
      if (tally.expression !== undefined) {
        const c = compileValue(tally.expression, site);
        if (c.ok) { place.compiled = c.value; place.seen = new Set(); } else tally.error = c.error;
      }
      out.push(place);
    }
  }
  return out;
}

/** A place's expression on one request the rule matched. */
function noteValue(place: ValuePlace, record: RequestRecord, line: number, budget: { chars: number }): void {
  const { tally, compiled, seen } = place;
  if (!compiled || !seen) return;
  const v = compiled.evaluate(record);
  if (tally.examples.length < VALUE_EXAMPLES) {
    tally.examples.push({ line, value: v !== null && v.length > VALUE_SHOWN_CHARS ? `${headOf(v, VALUE_SHOWN_CHARS)}… (${v.length} characters)` : v });
  }
  if (tally.distinctMore) return;
  // null (no value) is one distinct result, kept apart from every text
  const key = v === null ? NO_VALUE : v;
  if (seen.has(key)) return;
  // Past the bound the count is "at least" and the values are let go
  const chars = v === null ? 0 : v.length;
  if (seen.size >= DISTINCT_MAX || place.seenChars + chars > DISTINCT_MAX_CHARS || budget.chars < chars) { tally.distinctMore = true; budget.chars += place.seenChars; seen.clear(); return; }
  seen.add(key);
  place.seenChars += chars;
  budget.chars -= chars;
  tally.distinct++;
}

/**
 * Which values later rules overwrite, request by request: applied(k) for each rule applied to the request, in order, then end(). What
 * each key holds is the places that set it last (a header's adds after its set, all of them); a place that replaces a key counts one
 * overwrite on each of them, for its rule. Undefined when no two rules set the same thing: a run then pays nothing for it.
 */
function overwriteTracker(places: ValuePlace[][]): { applied(k: number): void; end(): void } | undefined {
  const writers = new Map<string, Set<number>>();
  places.forEach((ps, k) => { for (const p of ps) { let w = writers.get(p.key); if (!w) writers.set(p.key, w = new Set()); w.add(k); } });
  const shared = new Set([...writers].filter(([, w]) => w.size > 1).map(([key]) => key));
  if (!shared.size) return undefined;
  const tracked = places.map((ps) => ps.filter((p) => shared.has(p.key)));
  const holding = new Map<string, ValuePlace[]>();
  const count = (p: ValuePlace, by: number) => {
    const o = (p.tally.overwritten ??= []);
    const e = o.find((x) => x.by === by);
    if (e) e.requests++; else o.push({ by, requests: 1 });
  };
  return {
    applied(k) {
      for (const p of tracked[k]) {
        const held = holding.get(p.key);
        if (!p.replaces) { if (held) held.push(p); else holding.set(p.key, [p]); continue; }
        if (held) for (const q of held) count(q, k);
        holding.set(p.key, [p]);
      }
    },
    end() { holding.clear(); },
  };
}

/** The key of "no value" among a place's distinct values: a value of its own, equal to no text. */
const NO_VALUE = Symbol('no value');

interface RunRule {
  tally: RuleTally;
  /** The expression's text: what a rule's matches are remembered by (rulesetLensCounts). */
  expression: string;
  /** A skip of all remaining rules ("ruleset": "current" or "phase": "current"). */
  skipsRest: boolean;
  /** The rulesets a skip rule skips ("rulesets": [...]). */
  skipsRulesets: readonly string[];
  /** The ruleset an execute rule runs. */
  executes: string | undefined;
  /** A rate limiting rule's "ratelimit", in the rate limiting phase only (elsewhere the platform does not count: the checker warns). */
  ratelimit?: unknown;
}

type RuleValue = { action?: string; expression?: string; description?: string; enabled?: boolean; action_parameters?: Record<string, unknown>; ratelimit?: unknown };

function plan(value: unknown): RunRule[] {
  const rules = rulesOf(value) as RuleValue[];
  const rateLimited = phaseOf(value) === RATE_LIMIT_PHASE;
  return rules.map((raw, i) => {
    // A rule that is no object (null while the document is typed: the lenses count it as it stands) has no expression to compile
    const r: RuleValue = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
    const action = String(r.action);
    const p = r.action_parameters && typeof r.action_parameters === 'object' ? r.action_parameters : {};
    const skipsRest = action === 'skip' && (p.ruleset === 'current' || p.phase === 'current');
    return {
      tally: {
        index: i, label: `${i}: ${r.action} ${r.description ? `(${r.description}) ` : ''}when ${r.expression}`, action, enabled: r.enabled !== false,
        terminating: TERMINATING_ACTIONS.has(action), ...(skipsRest ? { skipsRest: true as const } : {}), matched: 0, applied: 0, decided: 0, skipped: 0, firstMatches: [],
      },
      expression: String(r.expression ?? ''),
      skipsRest,
      skipsRulesets: action === 'skip' && Array.isArray(p.rulesets) ? p.rulesets.filter((x): x is string => typeof x === 'string') : [],
      executes: action === 'execute' && typeof p.id === 'string' ? p.id : undefined,
      ...(rateLimited && r.ratelimit !== undefined ? { ratelimit: r.ratelimit } : {}),
    };
  });
}

const COMPILERS: Compilers = { expression: (src) => compileExpression(src), value: (src, site) => compileValue(src, site) };

/** The rate limiting rules' simulations, by rule (undefined for the others), or the first error. */
function limitersOf(run: RunRule[]): { ok: true; limiters: (RateLimiter | undefined)[] } | { ok: false; error: string } {
  const limiters: (RateLimiter | undefined)[] = [];
  for (const [i, r] of run.entries()) {
    const l = r.ratelimit === undefined ? undefined : rateLimiter(r.ratelimit, i, COMPILERS);
    if (l && 'error' in l) return { ok: false, error: l.error };
    limiters.push(l);
  }
  return { ok: true, limiters };
}

/** The tallies of one request, given which rules match it (matches(k) for rule k, asked in order, each once) and, for a rate limiting
 * rule reached and enabled, whether its action applies (acts(k, true)), or, when it does not match, that it was reached (acts(k, false):
 * its counting expression may count the request). */
function tallyOne(run: RunRule[], matches: (k: number) => boolean, line: number, acts: (k: number, matched: boolean) => boolean, applied?: (k: number) => void): { ended: boolean; ran: boolean } {
  let ended = false;
  let ran = false;
  let skipped: Set<string> | undefined;
  for (const [k, rule] of run.entries()) {
    const { tally } = rule;
    if (!matches(k)) { if (!ended && tally.enabled) acts(k, false); continue; }
    tally.matched++;
    if (tally.firstMatches.length < 5) tally.firstMatches.push(line);
    if (ended || !tally.enabled) continue;
    if (rule.executes !== undefined && skipped?.has(rule.executes)) { tally.skipped++; continue; }
    if (!acts(k, true)) continue;
    tally.applied++;
    applied?.(k);
    if (rule.executes !== undefined) ran = true;
    for (const id of rule.skipsRulesets) (skipped ??= new Set()).add(id);
    if (tally.terminating || rule.skipsRest) { tally.decided++; ended = true; }
  }
  return { ended, ran };
}

/**
 * A ruleset's rules compiled for a run over requests: take() each request (with its line or index), then the tallies. The rules run in
 * order, as the platform evaluates a phase: a matching rule with a terminating action (TERMINATING_ACTIONS) ends the evaluation, as
 * does a skip of the remaining rules; execute, log, skip of named rulesets and the other actions let the next rules run. An execute
 * rule hands the request to a managed ruleset whose own rules the run does not have: it is counted as applied, never as deciding.
 * With remember, take() also writes each rule's match of the request into a vector per expression (see rulesetLensCounts).
 */
export function compileRuleset(value: unknown): {
  ok: true; take(record: RequestRecord, line: number, remember?: RememberedMatches): void; rules: RuleTally[]; undecided(): number; executed(): number; total(): number;
} | { ok: false; error: string } {
  const run = plan(value);
  const exprs: CompiledExpression[] = [];
  for (const [i, r] of run.entries()) {
    const c = compileExpression(r.expression);
    if (!c.ok) return { ok: false, error: `rule ${i}: ${c.error}` };
    exprs.push(c.expression);
  }
  const rl = limitersOf(run);
  if (!rl.ok) return rl;
  const { limiters } = rl;
  limiters.forEach((l, k) => { if (l) run[k].tally.ratelimit = l.tally; });
  // What each rule sets, evaluated on the requests it matches (a rule with no expression place to evaluate costs nothing per request)
  const places = rulesOf(value).map(valuePlaces);
  places.forEach((p, k) => { if (p.length && run[k]) run[k].tally.values = p.map((x) => x.tally); });
  const evaluated = places.map((p) => p.some((x) => x.compiled));
  const anyEvaluated = evaluated.some(Boolean);
  const budget = { chars: DISTINCT_RUN_CHARS };
  const overwrites = overwriteTracker(places);
  let total = 0, undecided = 0, executed = 0;
  return {
    ok: true,
    rules: run.map((c) => c.tally),
    take(record, line, remember) {
      const at = total++;
      const test = (k: number) => exprs[k].test(record);
      const tested = remember && at < remember.size ? (k: number) => remember.note(run[k].expression, at, test(k)) : test;
      const matches = !anyEvaluated ? tested : (k: number) => {
        const hit = tested(k);
        if (hit && evaluated[k]) for (const p of places[k]) noteValue(p, record, line, budget);
        return hit;
      };
      const acts = (k: number, matched: boolean) => limiters[k]?.take(record, line, matched) ?? matched;
      const { ended, ran } = tallyOne(run, matches, line, acts, overwrites?.applied);
      overwrites?.end();
      if (!ended) undecided++;
      if (ran) executed++;
    },
    undecided: () => undecided,
    executed: () => executed,
    total: () => total,
  };
}

/** Whether each rule expression matches each of the first `size` requests of a run, by expression text; and what the last lens count
 * left for the next one (rulesetLensCounts). */
export class RememberedMatches {
  readonly byExpression = new Map<string, Uint8Array>();
  /** Each expression's matches of the kept requests: how many, and the first five (lines), read once from its vector. */
  readonly summaries = new Map<string, { matched: number; firstMatches: number[] }>();
  /** The last lens count: what each rule's counts depend on, those counts, and where each request ended. */
  last: LastCount | undefined;
  /** How many rules' applies/decides/skips the lens counts have counted over all the kept requests, in all (a measure for tests). */
  rulesCounted = 0;
  constructor(readonly size: number) {}
  note(expression: string, at: number, matched: boolean): boolean {
    let v = this.byExpression.get(expression);
    if (!v) this.byExpression.set(expression, v = new Uint8Array(this.size));
    v[at] = matched ? 1 : 2;
    return matched;
  }
}

/**
 * A lens count kept for the next one. Over n requests the rules run in order, so rule k's applies, decides and skips depend on its
 * expression's matches, on what of its action ends or skips (`key`), and on each request's state after rule k-1: whether a rule
 * ended it, and which rulesets an applied skip rule skipped. Its matches depend on its expression alone. So when the first rule
 * whose key changed is p, rules 0..p-1 keep their counts, every rule keeps its matches, and only rules p.. are counted again,
 * from the state after rule p-1: a request ended at a rule before p stays ended, one skipped by an applied skip rule before p
 * keeps that skip.
 */
interface LastCount {
  n: number;
  keys: string[];
  counts: { applied: number; decided: number; skipped: number }[];
  /** The rule that ended each request, or -1. */
  endedAt: Int32Array;
  /** The skip-of-rulesets rules (indices, ascending) applied to a request, for the requests that have any. */
  skippedBy: Map<number, number[]>;
}

/** What a rule's applies, decides and skips depend on, besides the state the rules before it leave: its expression and action. */
function countKey(r: RunRule): string {
  return JSON.stringify([r.expression, r.tally.enabled, r.tally.terminating || r.skipsRest, r.skipsRulesets, r.executes ?? null, r.ratelimit ?? null]);
}

/**
 * The tallies of a ruleset over requests that were run before (a code lens that follows edits): a rule whose expression was seen keeps
 * its remembered matches, and only a new or changed expression is compiled and tested on the requests (its matches remembered in
 * turn; expressions no longer in the ruleset are forgotten). The applies, decides and skips of the rules before the first one an edit
 * changed are kept from the last count (LastCount), and the others counted again over the requests, rule by rule. An error when a
 * new expression does not compile.
 */
export function rulesetLensCounts(value: unknown, records: readonly RequestRecord[], remembered: RememberedMatches): { ok: true; rules: RuleTally[] } | { ok: false; error: string } {
  const run = plan(value);
  const rl = limitersOf(run);
  if (!rl.ok) return rl;
  const n = Math.min(records.length, remembered.size);
  const vectors: Uint8Array[] = [];
  // The first rule whose expression, already remembered, had to be tested again (its vector was not complete): counted again from there
  let retested = run.length;
  for (const [i, r] of run.entries()) {
    let v = remembered.byExpression.get(r.expression);
    if (!v || (n > 0 && v[n - 1] === 0)) {
      const c = compileExpression(r.expression);
      if (!c.ok) return { ok: false, error: `rule ${i}: ${c.error}` };
      if (v) retested = Math.min(retested, i);
      v ??= new Uint8Array(remembered.size);
      for (let j = 0; j < n; j++) v[j] = c.expression.test(records[j]) ? 1 : 2;
      remembered.byExpression.set(r.expression, v);
      remembered.summaries.delete(r.expression);
    }
    vectors.push(v);
  }
  const live = new Set(run.map((r) => r.expression));
  for (const e of [...remembered.byExpression.keys()]) if (!live.has(e)) { remembered.byExpression.delete(e); remembered.summaries.delete(e); }

  let last = remembered.last;
  if (!last || last.n !== n) last = remembered.last = { n, keys: [], counts: [], endedAt: new Int32Array(n).fill(-1), skippedBy: new Map() };
  const keys = run.map(countKey);
  let p = 0;
  while (p < retested && p < last.keys.length && keys[p] === last.keys[p]) p++;
  // The state after rule p-1: what rules p.. did is undone
  const { endedAt, skippedBy } = last;
  for (let j = 0; j < n; j++) if (endedAt[j] >= p) endedAt[j] = -1;
  for (const [j, by] of skippedBy) {
    const kept = by.filter((k) => k < p);
    if (kept.length) skippedBy.set(j, kept); else skippedBy.delete(j);
  }
  last.counts.length = Math.min(last.counts.length, p);
  for (let k = p; k < run.length; k++) {
    const rule = run[k];
    const c = { applied: 0, decided: 0, skipped: 0 };
    // A rate limiting rule counts the requests that reach it in order, from fresh counters
    const limiter = rl.limiters[k];
    if (rule.tally.enabled) {
      const v = vectors[k];
      const ends = rule.tally.terminating || rule.skipsRest;
      const skips = rule.skipsRulesets.length > 0;
      for (let j = 0; j < n; j++) {
        if (endedAt[j] >= 0) continue;
        if (v[j] !== 1) { limiter?.take(records[j], j + 1, false); continue; }
        if (rule.executes !== undefined && skippedBy.size > 0 && skippedBy.get(j)?.some((i) => run[i].skipsRulesets.includes(rule.executes!))) { c.skipped++; continue; }
        if (limiter && !limiter.take(records[j], j + 1)) continue;
        c.applied++;
        if (skips) { const by = skippedBy.get(j); if (by) by.push(k); else skippedBy.set(j, [k]); }
        if (ends) { c.decided++; endedAt[j] = k; }
      }
    }
    last.counts[k] = c;
  }
  remembered.rulesCounted += run.length - p;
  last.keys = keys;

  return {
    ok: true,
    rules: run.map((r, k) => {
      let s = remembered.summaries.get(r.expression);
      if (!s) {
        const v = vectors[k];
        s = { matched: 0, firstMatches: [] };
        for (let j = 0; j < n; j++) {
          if (v[j] !== 1) continue;
          s.matched++;
          if (s.firstMatches.length < 5) s.firstMatches.push(j + 1);
        }
        remembered.summaries.set(r.expression, s);
      }
      return { ...r.tally, ...last.counts[k], matched: s.matched, firstMatches: [...s.firstMatches] };
    }),
  };
}
