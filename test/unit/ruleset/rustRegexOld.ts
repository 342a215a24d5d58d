// TEST ONLY: rustRegex.ts as it was before its three readers of regex syntax (rustSyntaxRefusal, rustToRe2, regexTree) became one
// parse (commit fd49b3a), kept so that rustRegexDifferential.test.ts compares the new reader with them. Not used by the product.
/* eslint-disable */
// A `matches` regex is Rust's regex syntax (the platform's engine); the checker and the evaluator run it on RE2 (re2js), whose syntax
// Rust's descends from. What Rust writes differently is rewritten here first, so that both accept what Rust accepts:
// - the inline flags u (Unicode mode: off by default on the platform, whose wirefilter builds its regexes with unicode(false),
//   so rustRegexRefusal requires it for \p{...}; RE2's classes such as \p{Greek} are Unicode already) and R (CRLF mode),
//   which RE2 does not know, are dropped; x (verbose) is applied here: whitespace is insignificant everywhere, character classes
//   included, and "#" starts a comment to the end of the line (rust-lang/regex#660);
// - \u007F, \u{7F}, \U0000007F and \U{7F} become RE2's \x{7F}.
// - a repetition of a repetition (a**), which Rust takes and RE2 refuses, is put in a group (wrapStackedRepetitions).
// Anything else RE2 refuses is an error (look-around, backreferences, \Z, \e... which Rust refuses as well); what RE2 takes and Rust
// refuses ("{" as a literal brace, \p{...} without Unicode mode, unknown escapes) is found by rustRegexRefusal first.
import { RE2JS } from 're2js';

const FLAG_GROUP = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/;
const UNICODE_ESCAPE = /^\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|U\{([0-9a-fA-F]{1,8})\}|U([0-9a-fA-F]{8}))/;

const QUANTIFIER = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/;

/**
 * A repetition of a repetition (a**, a+*, a{2}{3}), which regex-syntax takes (parse_uncounted_repetition and
 * parse_counted_repetition refuse only a repetition of nothing) and RE2 and JavaScript refuse ("bad repetition operator"): the
 * inner one put in a group, (?:a*)*, which means the same.
 */
export function wrapStackedRepetitions(pattern: string): string {
  if (!/[*+?}]\??[*+{]|[*+}]\?\?/.test(pattern)) return pattern; // no quantifier after a quantifier (most patterns)
  const inserts: [number, string][] = [];
  const opens: number[] = [];
  let atom = -1; // where the last atom starts
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    const q = atom >= 0 ? QUANTIFIER.exec(pattern.slice(i, i + 32)) : null;
    if (q) {
      let j = i + q[0].length;
      // Another quantifier right after this one: the atom and this one become a group
      while (QUANTIFIER.test(pattern.slice(j, j + 32))) {
        inserts.push([atom, '(?:'], [j, ')']);
        j += QUANTIFIER.exec(pattern.slice(j, j + 32))![0].length;
      }
      i = j;
      continue;
    }
    if (c === '\\') { atom = i; i += 2; continue; }
    if (c === '[') {
      atom = i;
      i = classEnd(pattern, i).end;
      continue;
    }
    if (c === '(') { opens.push(i); atom = -1; i++; continue; }
    if (c === ')') { atom = opens.pop() ?? -1; i++; continue; }
    if (c === '|') { atom = -1; i++; continue; }
    atom = i;
    i += pattern.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  if (inserts.length === 0) return pattern;
  // One pass over the pattern (inserting each into the whole string was quadratic: "a" and 32 000 "*" took 0.8 s)
  inserts.sort((a, b) => a[0] - b[0] || (a[1] === ')' ? 1 : -1));
  let out = '';
  let from = 0;
  for (const [at, text] of inserts) { out += pattern.slice(from, at) + text; from = at; }
  return out + pattern.slice(from);
}

/**
 * The characters of a character class a copying loop takes at `i` as they are: inside a class (depth > 0) a POSIX class
 * ("[:alpha:]") whole, or one character, counting nested "[" and "]"; at a class's "[" that "[" with an optional "^" and a "]"
 * first in the class (a literal there). Undefined outside a class and not at a "[". `last` is the index of the last character taken.
 */
function classStep(pattern: string, i: number, depth: number): { text: string; last: number; depth: number } | undefined {
  const c = pattern[i];
  if (depth > 0) {
    if (c === '[' && pattern[i + 1] === ':') {
      const end = pattern.indexOf(':]', i + 2);
      if (end > 0) return { text: pattern.slice(i, end + 2), last: end + 1, depth };
    }
    return { text: c, last: i, depth: c === '[' ? depth + 1 : c === ']' ? depth - 1 : depth };
  }
  if (c !== '[') return undefined;
  let j = i, text = '[';
  if (pattern[j + 1] === '^') { text += '^'; j++; }
  if (pattern[j + 1] === ']') { text += ']'; j++; }
  return { text, last: j, depth: 1 };
}

/** Counted repetitions written with spaces around their numbers ("a{ 1 , 3 }", which regex-syntax reads as a{1,3}: its
 * parse_decimal trims them) without them, as RE2 reads such a brace as a literal; escapes and classes are left as they are. */
function compactCounts(pattern: string): string {
  if (!/\{[\d,]*\s[\s\d,]*\}/.test(pattern)) return pattern; // no spaced count (most patterns)
  let out = '';
  let classDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') { out += pattern.slice(i, i + 2); i++; continue; }
    const k = classStep(pattern, i, classDepth);
    if (k) { out += k.text; i = k.last; classDepth = k.depth; continue; }
    const m = c === '{' ? /^\{\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?\}/.exec(pattern.slice(i, i + 64)) : null;
    if (m) { out += `{${m[1]}${m[2] ?? ''}${m[3] ?? ''}}`; i += m[0].length - 1; continue; }
    out += c;
  }
  return out;
}

/** The pattern in RE2's syntax (see above); a pattern that is invalid stays invalid. */
export function rustToRe2(source: string): string {
  const pattern = wrapStackedRepetitions(compactCounts(source));
  if (!/\(\?[a-zA-Z-]|\\[uU]/.test(pattern)) return pattern; // nothing to rewrite (most patterns)
  let out = '';
  let x = false;
  const groups: boolean[] = []; // the x flag to restore at each open group's ")"
  let classDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const u = UNICODE_ESCAPE.exec(pattern.slice(i, i + 12));
      if (u) { out += `\\x{${u[1] ?? u[2] ?? u[3] ?? u[4]}}`; i += u[0].length - 1; continue; }
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    if (x && /\s/.test(c)) continue;
    if (x && c === '#') { while (i + 1 < pattern.length && pattern[i + 1] !== '\n') i++; continue; }
    const k = classStep(pattern, i, classDepth);
    if (k) { out += k.text; i = k.last; classDepth = k.depth; continue; }
    if (c === '(') {
      const f = FLAG_GROUP.exec(pattern.slice(i));
      if (f) {
        const [all, on, off = '', close] = f;
        const nx: boolean = on.includes('x') ? true : off.includes('x') ? false : x;
        const keepOn = on.replace(/[uRx]/g, ''), keepOff = off.replace(/[uRx]/g, '');
        const flags = keepOn + (keepOff ? `-${keepOff}` : '');
        if (close === ':') { groups.push(x); out += `(?${flags}:`; } else if (flags) out += `(?${flags})`;
        x = nx;
        i += all.length - 1;
        continue;
      }
      groups.push(x);
      out += c;
      continue;
    }
    if (c === ')') x = groups.pop() ?? x;
    out += c;
  }
  return out;
}

/** The regex compiled on RE2, after rustToRe2, its counted repetitions over RE2's 1 000 split (splitRepetitions); throws RE2's error
 * for one it refuses. */
export function compileRustRegex(pattern: string): RE2JS {
  const re2 = rustToRe2(pattern);
  try {
    return RE2JS.compile(re2);
  } catch (err) {
    if (!/invalid repeat count/.test((err as Error).message)) throw err;
    const split = splitRepetitions(re2);
    if (split === undefined || split === re2) throw err;
    return RE2JS.compile(split);
  }
}

/**
 * RE2's verdict on the regex as compileRustRegex compiles it (throws RE2's error), for the checker, without building the program of a
 * large repetition: a repetition over RE2's 1 000 is checked as one copy of what it repeats (its split differs from that only in its
 * counts, and RE2 takes any program the platform's limit allows: at most about 327 000 states, RE2 1.4 million instructions), so an
 * edit of a{300000} does not compile it (1.2 s) again.
 */
export function checkRustRegexOnRe2(pattern: string): void {
  const re2 = rustToRe2(pattern);
  try {
    RE2JS.compile(re2);
  } catch (err) {
    if (!/invalid repeat count/.test((err as Error).message)) throw err;
    const shape = splitRepetitions(re2, true);
    if (shape === undefined || shape === re2) throw err;
    RE2JS.compile(shape);
  }
}

/** Escapes regex-syntax 0.8 reads as something (ast/parse.rs parse_escape), beside the ASCII punctuation any of which may be escaped. */
const RUST_ESCAPES = new Set('0123456789xuUpPdswDSWaftnrvAzbB<>');
const MAX_U32 = 4294967295;

/**
 * Why regex-syntax 0.8, as wirefilter configures it (engine/src/rhs_types/regex/imp_real.rs: unicode(false), utf8(false)), refuses
 * the pattern where RE2 would take it, or undefined (RE2 then judges the rest, as the two agree there). What it reads:
 * - an escape of a letter or digit regex-syntax does not know (\Z, \e, \cA, \h, \Q, \k, \0: octal is off, so \0-\9 are
 *   backreferences), \< and \> being assertions; a \b{...} other than start, end, start-half, end-half; \x{...} past U+10FFFF;
 * - "{" is always a counted repetition: {n}, {n,} or {n,m} (n <= m, each at most 2^32-1; spaces around a number, except right
 *   after the comma, which only the x flag allows) after
 *   something to repeat; "a{", "{,3}", "/api/{id}" are errors, where RE2 reads a literal brace;
 * - Unicode mode is off unless a (?u) turns it on: \p{...}/\pN is then an error (UnicodeNotAllowed), and so is a character past
 *   ASCII inside a class ([é], [\x{E9}]; \xE9 is a byte there), as class_literal_byte says;
 * - a class range cannot start or end with a class (\d-z);
 * - and, that read, the regex builds within the platform's compiled size limit (rustRegexSizeRefusal).
 */
export function rustRegexRefusal(pattern: string): string | undefined {
  return rustSyntaxRefusal(pattern) ?? rustNestRefusal(pattern) ?? rustRegexSizeRefusal(pattern);
}

/** Rust regex's nest limit (regex-automata's syntax Config, which wirefilter keeps: nest_limit 250). */
const NEST_LIMIT = 250;

/**
 * The depth regex-syntax's NestLimiter (ast/parse.rs) gives a pattern: one level for each group, repetition, alternation of two or
 * more branches, concatenation of two or more items and bracketed class on the way down (a class's inner unions and nested
 * classes are not counted: the depth can only be under, never over, Rust's); undefined when the tree is not read (regexTree).
 */
export function regexNestDepth(pattern: string): number | undefined {
  const tree = regexTree(pattern);
  if (!tree) return undefined;
  const node = (n: RxNode): number => n.k === 'group' ? 1 + alts(n.alts) : n.k === 'rep' ? 1 + node(n.sub) : n.text.startsWith('[') ? 1 : 0;
  const seq = (xs: RxNode[]): number => {
    let most = 0;
    for (const x of xs) most = Math.max(most, node(x));
    return xs.length > 1 ? 1 + most : most;
  };
  const alts = (as: RxNode[][]): number => {
    let most = 0;
    for (const a of as) most = Math.max(most, seq(a));
    return as.length > 1 ? 1 + most : most;
  };
  return alts(tree);
}

/** The deepest nesting of parentheses outside classes and escapes. */
function parenDepth(pattern: string): number {
  let depth = 0, most = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(pattern, i).end - 1;
    else if (c === '(') most = Math.max(most, ++depth);
    else if (c === ')') depth = Math.max(0, depth - 1);
  }
  return most;
}

/** A regex nested deeper than the platform's parser takes; undefined for any other. A parenthesis level adds at most 4 levels (a
 * group, an alternation, a concatenation, a repetition), so most patterns are cleared by counting parentheses alone. */
function rustNestRefusal(pattern: string): string | undefined {
  const parens = parenDepth(pattern);
  if (parens * 4 + 2 <= NEST_LIMIT) return undefined;
  const depth = regexNestDepth(pattern);
  const shown = depth ?? parens;
  if (shown <= NEST_LIMIT) return undefined;
  return `it nests ${depth === undefined ? 'at least ' : ''}${shown} levels deep (each group, repetition, alternation and sequence counts one), past the platform's limit of ${NEST_LIMIT} (Rust regex's nest limit, which wirefilter keeps: "exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})")`;
}

export function rustSyntaxRefusal(pattern: string): string | undefined {
  let x = false, u = false;
  const groups: { x: boolean; u: boolean }[] = [];
  let canRepeat = false;
  const n = pattern.length;
  const at = (i: number) => `at ${i + 1}`;
  /** An escape at i (pattern[i] is "\"): its end, or why it is refused; `classy`: a class escape (\d, \pN). */
  const escape = (i: number, inClass: boolean): { end: number; classy: boolean } | string | undefined => {
    const e = pattern[i + 1];
    if (e === undefined) return `it ends with a lone backslash`;
    if (/[0-9]/.test(e)) return `"\\${e}" ${at(i)} is a backreference, which Rust regex does not support (octal escapes are off)`;
    if (/[A-Za-z<>]/.test(e) && !RUST_ESCAPES.has(e)) return `"\\${e}" ${at(i)} is no escape in Rust regex`;
    if (e === 'p' || e === 'P') {
      const m = /^\\[pP](\{[^}]*\}|.)/.exec(pattern.slice(i, i + 64));
      if (!u) return `the Unicode class "${m ? m[0] : '\\' + e}" ${at(i)} needs Unicode mode, which the platform's regexes run without: start the regex with (?u)`;
      return { end: i + (m ? m[0].length : 2), classy: true };
    }
    if (e === 'x' || e === 'u' || e === 'U') {
      // Outside (?x) a brace holds hex digits only (parse_hex_brace: EscapeHexInvalidDigit), where RE2 takes "\x{ 41 }"; with
      // (?x) its spaces are skipped (and rustToRe2 drops them)
      if (!x && pattern[i + 2] === '{' && /^\{[0-9A-Fa-f]*\s/.test(pattern.slice(i + 2, i + 20))) {
        return `"${pattern.slice(i, pattern.indexOf('}', i) + 1 || i + 3)}" ${at(i)} has a space inside its braces, where Rust regex takes hex digits only (spaces only with the x flag)`;
      }
      const m = /^\\[xuU](?:\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]+))/.exec(pattern.slice(i, i + 16));
      if (!m) return undefined; // RE2 judges a malformed one
      const fixed = { x: 2, u: 4, U: 8 }[e]!;
      const digits = m[1] ?? m[2].slice(0, fixed);
      const cp = parseInt(digits, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return `"\\${e}{${digits}}" ${at(i)} is no Unicode scalar value`;
      const end = i + (m[1] !== undefined ? m[0].length : 2 + fixed);
      if (inClass && !u && cp > 0x7f && !(e === 'x' && m[1] === undefined)) return `"${pattern.slice(i, end)}" ${at(i)} is past ASCII inside a class, which needs Unicode mode (the platform's regexes run without it): start the regex with (?u), or write the byte as \\x${digits.padStart(2, '0').slice(-2)}`;
      return { end, classy: false };
    }
    if (e === 'b' && !inClass && pattern[i + 2] === '{' && /^[A-Za-z-]/.test(pattern[i + 3] ?? '')) {
      const close = pattern.indexOf('}', i + 3);
      const name = close < 0 ? pattern.slice(i + 3) : pattern.slice(i + 3, close);
      if (!['start', 'end', 'start-half', 'end-half'].includes(name)) return `"\\b{${name}}" ${at(i)} is no word boundary Rust regex knows (start, end, start-half, end-half)`;
      return { end: close + 1, classy: false };
    }
    if (!/[\x00-\x7f]/.test(e)) return `"\\${e}" ${at(i)}: only ASCII punctuation can be escaped in Rust regex`;
    return { end: i + 2, classy: /[dswDSW]/.test(e) };
  };
  for (let i = 0; i < n;) {
    const c = pattern[i];
    if (x && /\s/.test(c)) { i++; continue; }
    if (x && c === '#') { while (i < n && pattern[i] !== '\n') i++; continue; }
    if (c === '\\') {
      const r = escape(i, false);
      if (r === undefined) return undefined;
      if (typeof r === 'string') return r;
      i = r.end;
      canRepeat = true;
      continue;
    }
    if (c === '[') {
      // A class: nested classes, [:name:], a "]" first is a literal; ranges are checked at their ends
      let depth = 1;
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      let prevClassy = false, prevEnd = -1, rangeOpen = false;
      while (j < n && depth > 0) {
        const d = pattern[j];
        if (x && /\s/.test(d)) { j++; continue; }
        let classy = false;
        if (d === '\\') {
          const r = escape(j, true);
          if (r === undefined) return undefined;
          if (typeof r === 'string') return r;
          classy = r.classy;
          j = r.end;
        } else if (d === '[' && pattern[j + 1] === ':') {
          const end = pattern.indexOf(':]', j + 2);
          j = end < 0 ? j + 1 : end + 2;
          classy = end >= 0;
        } else if (d === '[') { depth++; j++; prevEnd = -1; continue; }
        else if (d === ']') { depth--; j++; prevEnd = -1; continue; }
        else if (d === '-' && prevEnd >= 0 && pattern[j + 1] !== ']' && !rangeOpen) {
          if (prevClassy) return `a class range ${at(j)} starts with a class, which Rust regex refuses; escape the "-" (\\-)`;
          rangeOpen = true;
          j++;
          continue;
        } else {
          const cp = pattern.codePointAt(j)!;
          if (cp > 0x7f && !u) return `"${String.fromCodePoint(cp)}" ${at(j)} is past ASCII inside a class, which needs Unicode mode (the platform's regexes run without it): start the regex with (?u)`;
          j += cp > 0xffff ? 2 : 1;
        }
        if (rangeOpen && classy) return `a class range ${at(j - 1)} ends with a class, which Rust regex refuses; escape the "-" (\\-)`;
        if (rangeOpen) { rangeOpen = false; prevEnd = -1; prevClassy = false; continue; }
        prevClassy = classy;
        prevEnd = j;
      }
      i = j;
      canRepeat = true;
      continue;
    }
    if (c === '(') {
      const f = FLAG_GROUP.exec(pattern.slice(i, i + 40));
      if (f) {
        const [all, on, off = '', close] = f;
        const nx: boolean = on.includes('x') ? true : off.includes('x') ? false : x;
        const nu: boolean = on.includes('u') ? true : off.includes('u') ? false : u;
        if (close === ':') groups.push({ x, u });
        x = nx; u = nu;
        i += all.length;
        canRepeat = false;
        continue;
      }
      groups.push({ x, u });
      const named = /^\(\?(?:P?<[^>]*>|:)/.exec(pattern.slice(i, i + 80));
      i += named ? named[0].length : 1;
      canRepeat = false;
      continue;
    }
    if (c === ')') { ({ x, u } = groups.pop() ?? { x, u }); i++; canRepeat = true; continue; }
    if (c === '|') { i++; canRepeat = false; continue; }
    if (c === '{') {
      // parse_decimal trims whitespace around a count's digits in any mode ("{ 1 , 3 }"); right after the comma only (?x) skips it
      const m = (x ? /^\{\s*(\d*)\s*(?:(,)\s*(\d*)\s*)?\}/ : /^\{\s*(\d*)\s*(?:(,)(?:\s*(\d+)\s*)?)?\}/).exec(pattern.slice(i, i + 64));
      if (!canRepeat) return `"{" ${at(i)} repeats nothing: in Rust regex "{" starts a counted repetition; write \\{ for a brace`;
      if (!m) return `"{" ${at(i)} starts a counted repetition in Rust regex ({n}, {n,} or {n,m}); write \\{ for a brace`;
      const [all, lo, comma, hi = ''] = m;
      if (lo === '') return `the counted repetition "${all}" ${at(i)} has no minimum, which Rust regex refuses: write {0,${hi}}`;
      if (Number(lo) > MAX_U32 || (hi !== undefined && hi !== '' && Number(hi) > MAX_U32)) return `the count in "${all}" ${at(i)} is past 2^32-1`;
      if (comma && hi !== '' && Number(hi) < Number(lo)) return `the counted repetition "${all}" ${at(i)} has its minimum above its maximum`;
      i += all.length;
      if (pattern[i] === '?') i++;
      canRepeat = true;
      continue;
    }
    if ((c === '*' || c === '+' || c === '?') && !canRepeat) return undefined; // RE2 refuses a repetition of nothing too
    i += c.codePointAt(0)! > 0xffff ? 2 : 1;
    canRepeat = true;
  }
  return undefined;
}

// ---- The size of a regex on the platform, and RE2's repetition limit ----

/** A regex as a tree, for its size on the platform (rustRegexSizeRefusal) and for RE2's repetition limit (splitRepetitions): an atom
 * (a character, class or escape: `states` 1; an assertion or a flag group: 0), a group with its alternatives, a repetition (`max` -1:
 * unbounded; `op` "{" for a counted one; `at` the quantifier's index in the pattern). */
type RxNode =
  | { k: 'atom'; text: string; states: number }
  | { k: 'group'; open: string; alts: RxNode[][]; capture: boolean }
  | { k: 'rep'; sub: RxNode; min: number; max: number; op: string; text: string; lazy: boolean; at: number };

const RX_ESCAPE = /^\\(?:[xuU]\{[^}]*\}|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[pP](?:\{[^}]*\}|[\s\S])|b\{[A-Za-z-][^}]*\}|[\s\S])/;
const RX_QUANTIFIER = /^(?:([*+?])|\{\s*(\d+)\s*(?:(,)\s*(\d*)\s*)?\})(\?)?/;

/**
 * The alternatives of a regex's top level, as Rust's syntax (the x flag's spaces and comments skipped, \u escapes, spaced counts) or
 * rustToRe2's writes it; undefined for one it cannot read (the checks before it have refused what Rust refuses) or nested past
 * 1 000 groups.
 */
export function regexTree(p: string): RxNode[][] | undefined {
  // The nest and size checks of one pattern read the same tree (rustRegexRefusal): the last one is kept (never changed by its readers)
  if (lastTree?.pattern !== p) lastTree = { pattern: p, tree: readTree(p) };
  return lastTree.tree;
}
let lastTree: { pattern: string; tree: RxNode[][] | undefined } | undefined;

function readTree(p: string): RxNode[][] | undefined {
  interface Frame { open: string; capture: boolean; alts: RxNode[][]; x: boolean }
  const stack: Frame[] = [{ open: '', capture: false, alts: [[]], x: false }];
  let x = false;
  const seq = (): RxNode[] => { const f = stack[stack.length - 1]; return f.alts[f.alts.length - 1]; };
  for (let i = 0; i < p.length;) {
    const c = p[i];
    if (x && /\s/.test(c)) { i++; continue; }
    if (x && c === '#') { while (i < p.length && p[i] !== '\n') i++; continue; }
    if (c === '\\') {
      const m = RX_ESCAPE.exec(p.slice(i, i + 80));
      if (!m) return undefined;
      seq().push({ k: 'atom', text: m[0], states: /^\\[bBAz<>]/.test(m[0]) ? 0 : 1 });
      i += m[0].length;
      continue;
    }
    if (c === '[') {
      const { end: j, closed } = classEnd(p, i);
      if (!closed) return undefined;
      seq().push({ k: 'atom', text: p.slice(i, j), states: 1 });
      i = j;
      continue;
    }
    if (c === '(') {
      const f = FLAG_GROUP.exec(p.slice(i, i + 40));
      if (f) {
        const [all, on, off = '', close] = f;
        if (close === ':') stack.push({ open: all, capture: false, alts: [[]], x });
        else seq().push({ k: 'atom', text: all, states: 0 });
        x = on.includes('x') ? true : off.includes('x') ? false : x;
        i += all.length;
      } else {
        const open = /^\(\?P?<[^>]*>/.exec(p.slice(i, i + 80))?.[0] ?? '(';
        stack.push({ open, capture: true, alts: [[]], x });
        i += open.length;
      }
      if (stack.length > 1000) return undefined;
      continue;
    }
    if (c === ')') {
      if (stack.length === 1) return undefined;
      const g = stack.pop()!;
      x = g.x;
      seq().push({ k: 'group', open: g.open, alts: g.alts, capture: g.capture });
      i++;
      continue;
    }
    if (c === '|') { stack[stack.length - 1].alts.push([]); i++; continue; }
    const q = c === '*' || c === '+' || c === '?' || c === '{' ? RX_QUANTIFIER.exec(p.slice(i, i + 64)) : null;
    if (q) {
      const s = seq();
      if (s.length === 0) return undefined;
      const min = q[1] ? (q[1] === '+' ? 1 : 0) : Number(q[2]);
      const max = q[1] ? (q[1] === '?' ? 1 : -1) : q[3] ? (q[4] === '' ? -1 : Number(q[4])) : min;
      s.push({ k: 'rep', sub: s.pop()!, min, max, op: q[1] ?? '{', text: q[0], lazy: q[5] !== undefined, at: i });
      i += q[0].length;
      continue;
    }
    const ch = String.fromCodePoint(p.codePointAt(i)!);
    seq().push({ k: 'atom', text: ch, states: c === '^' || c === '$' ? 0 : 1 });
    i += ch.length;
  }
  return stack.length === 1 ? stack[0].alts : undefined;
}

/** How many times a repetition's NFA holds what it repeats (regex-automata's Thompson compiler): x{m,n} n times (m, then n-m
 * optional), x{m,} m times (at least once), x*, x+ and x? once. */
const copies = (n: RxNode & { k: 'rep' }): number => (n.max >= 0 ? n.max : Math.max(n.min, 1));

/** A lower bound of the NFA states the platform builds for the regex: one per character, class or escape, times the repetitions
 * around it; the longest alternative of a group (alternatives of single characters become one class). */
function rxStates(n: RxNode): number {
  if (n.k === 'atom') return n.states;
  if (n.k === 'rep') return copies(n) * rxStates(n.sub);
  return altStates(n.alts);
}
function altStates(alts: RxNode[][]): number {
  let most = 0;
  for (const s of alts) { let sum = 0; for (const x of s) sum += rxStates(x); most = Math.max(most, sum); }
  return most;
}

/** The platform's compiled size limit (wirefilter's RegexSettings: the regex crate's default, 10 MiB), and the fewest bytes an NFA
 * state takes there: `a{327673}` builds and `a{327674}` does not (regex-automata 0.4 with wirefilter's settings, measured). */
export const REGEX_SIZE_LIMIT = 10 * (1 << 20);
const STATE_BYTES = 32;

/**
 * Why the platform refuses the regex for its size: more NFA states (at least, rxStates) than its 10 MiB compiled size limit holds,
 * with the counted repetition that makes most of them and where it is; undefined when it is within the limit (or more than rxStates
 * counts: the platform may still refuse a regex somewhat under the limit, `.{131070}`, whose states are larger).
 */
export function rustRegexSizeRefusal(pattern: string): string | undefined {
  const max = REGEX_SIZE_LIMIT / STATE_BYTES;
  if (!pattern.includes('{') && pattern.length <= max) return undefined; // no counted repetition, and short (most patterns)
  const tree = regexTree(pattern);
  if (!tree) return undefined;
  const total = altStates(tree);
  if (total <= max) return undefined;
  let top: { rep: RxNode & { k: 'rep' }; states: number } | undefined;
  const walk = (nodes: RxNode[], times: number): void => {
    for (const n of nodes) {
      if (n.k === 'group') for (const s of n.alts) walk(s, times);
      if (n.k !== 'rep') continue;
      const states = times * rxStates(n);
      if (n.op === '{' && (!top || states > top.states)) top = { rep: n, states };
      walk([n.sub], times * copies(n));
    }
  };
  for (const s of tree) walk(s, 1);
  // Nested repetitions multiply: (?:(?:a){2}){2}... past 10^15 is said so rather than in hundreds of digits
  const atLeast = (n: number) => (n > 1e15 ? 'more than 10^15' : `at least ${n.toLocaleString('en')}`);
  const what = top ? `the counted repetition "${top.rep.text}" at ${top.rep.at + 1} makes it ${atLeast(top.states)} NFA states`
    : `it is ${atLeast(total)} NFA states long`;
  return `${what}, past the platform's compiled size limit (${REGEX_SIZE_LIMIT} bytes, Rust regex's default, which wirefilter keeps: at most about ${Math.floor(max).toLocaleString('en')} states; "Compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT} bytes")`;
}

/** The largest product of counted repetitions nested in one another in `n`, as RE2 multiplies them (re2js repeatIsValid). */
function nestedCount(n: RxNode): number {
  if (n.k === 'atom') return 1;
  if (n.k === 'group') { let most = 1; for (const s of n.alts) for (const x of s) most = Math.max(most, nestedCount(x)); return most; }
  return (n.op === '{' ? Math.max(n.max >= 0 ? n.max : n.min, 1) : 1) * nestedCount(n.sub);
}

/** RE2's limit on counted repetitions: none above 1 000, nor their products where they nest (a{1001}, (?:a{100}){11}). */
const RE2_MAX_REPEAT = 1000;

/**
 * The pattern (rustToRe2's) with the counted repetitions RE2 refuses rewritten as a run of smaller ones, which match the same:
 * x{m,n} as x{b}...x{b}x{m mod b} then x{0,b}...x{0,(n-m) mod b} (x{a,b}x{c,d} is x{a+c,b+d}), x{m,} as x{b}...x*, with b as large
 * as RE2 takes there. A copy after the first has its groups made non-capturing (one group per group of the pattern, numbered as
 * written; a regex_replace "${1}" of a group inside such a repetition then gives the first copy's match, not the last one's).
 * Undefined when the pattern cannot be read. `shape`: each such repetition as one copy of what it repeats (checkRustRegexOnRe2).
 */
export function splitRepetitions(pattern: string, shape = false): string | undefined {
  const tree = regexTree(pattern);
  if (!tree) return undefined;
  const alts = (a: RxNode[][], budget: number, capture: boolean): string => a.map((s) => s.map((n) => emit(n, budget, capture)).join('')).join('|');
  // What a quantifier follows: a repetition (x{2}{3}) in a group
  const operand = (n: RxNode, budget: number, capture: boolean): string => (n.k === 'rep' ? `(?:${emit(n, budget, capture)})` : emit(n, budget, capture));
  const emit = (n: RxNode, budget: number, capture: boolean): string => {
    if (n.k === 'atom') return n.text;
    if (n.k === 'group') return `${n.capture && !capture ? '(?:' : n.open}${alts(n.alts, budget, capture)})`;
    const count = n.op === '{' ? (n.max >= 0 ? n.max : n.min) : 1;
    if (count <= budget) return operand(n.sub, count > 0 ? Math.trunc(budget / count) : budget, capture) + n.text;
    const b = Math.max(1, Math.trunc(budget / nestedCount(n.sub)));
    const inner = Math.trunc(budget / b);
    const first = operand(n.sub, inner, capture), rest = operand(n.sub, inner, false);
    if (shape) return first;
    const lazy = n.lazy ? '?' : '';
    const parts: string[] = [];
    const add = (lo: number, hi: number) => parts.push((parts.length ? rest : first) + (lo === 1 && hi === 1 ? '' : lo === hi ? `{${lo}}${lazy}` : `{${lo},${hi}}${lazy}`));
    for (let k = 0; k < Math.floor(n.min / b); k++) add(b, b);
    if (n.min % b) add(n.min % b, n.min % b);
    if (n.max < 0) parts.push((parts.length ? rest : first) + `*${lazy}`);
    else {
      const optional = n.max - n.min;
      for (let k = 0; k < Math.floor(optional / b); k++) add(0, b);
      if (optional % b) add(0, optional % b);
    }
    return parts.join('');
  };
  return alts(tree, RE2_MAX_REPEAT, true);
}

/** The end of the character class opened by the "[" at i (nested classes, [:name:] and escapes skipped); closed: its "]" was found. */
function classEnd(pattern: string, i: number): { end: number; closed: boolean } {
  let j = i + 1, depth = 1;
  if (pattern[j] === '^') j++;
  if (pattern[j] === ']') j++;
  while (j < pattern.length && depth > 0) {
    if (pattern[j] === '\\') j += 2;
    else if (pattern[j] === '[' && pattern[j + 1] === ':') { const e = pattern.indexOf(':]', j + 2); j = e < 0 ? j + 1 : e + 2; }
    else { if (pattern[j] === '[') depth++; else if (pattern[j] === ']') depth--; j++; }
  }
  return { end: j, closed: depth === 0 };
}
