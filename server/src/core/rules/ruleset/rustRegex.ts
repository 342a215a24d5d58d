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
      let j = i + 1, depth = 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && depth > 0) {
        if (pattern[j] === '\\') j += 2;
        else if (pattern[j] === '[' && pattern[j + 1] === ':') { const e = pattern.indexOf(':]', j + 2); j = e < 0 ? j + 1 : e + 2; }
        else { if (pattern[j] === '[') depth++; else if (pattern[j] === ']') depth--; j++; }
      }
      i = j;
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

/** The regex compiled on RE2, after rustToRe2; throws RE2's error for one it refuses. */
export function compileRustRegex(pattern: string): RE2JS {
  return RE2JS.compile(rustToRe2(pattern));
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
 * - a class range cannot start or end with a class (\d-z).
 */
export function rustRegexRefusal(pattern: string): string | undefined {
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
