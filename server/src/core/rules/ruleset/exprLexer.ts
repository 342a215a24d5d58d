// Tokenizer of the rules language (wirefilter). Offsets are indices into the DECODED expression string; the caller maps them to the
// document with core/jsonString.ts. Literals are read as wirefilter reads them: integers by its i64::lex (0x hex, a leading 0 octal,
// i64 bounds), IP addresses by Rust's Ipv4Addr/Ipv6Addr::from_str (no leading zero in an IPv4 part), CIDRs by the cidr crate (no
// host bits set). Decisions in docs/architecture.md, "Literals of the checker and the evaluators".
import ipaddr from 'ipaddr.js';
import type { Edit } from '../../types';
import { bytesText, lossyBytes } from '../../text';

const UTF8 = new TextEncoder();

export type TokenKind = 'ident' | 'string' | 'int' | 'ip' | 'cidr' | 'list' | 'punct' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Source text of the token (raw, as written in the expression). */
  text: string;
  offset: number;
  length: number;
  /** Decoded string value (string), integer value (int: the nearest double when it is past 2^53, see `big`). */
  value?: string | number;
  /** An integer past Number.MAX_SAFE_INTEGER, exactly. */
  big?: bigint;
  /** For ip/cidr: the address family. */
  family?: 4 | 6;
  /** A raw string r"..." / r#"..."#. */
  raw?: boolean;
  /** A quoted string whose \xHH / \NNN bytes are not all UTF-8: its exact bytes (`value` is its text, core/text.ts bytesText). */
  bytes?: Uint8Array;
}

export interface LexProblem {
  code: 'ruleset/expr-syntax' | 'ruleset/expr-whitespace' | 'ruleset/expr-invalid-ip' | 'ruleset/expr-invalid-int' | 'ruleset/expr-octal-int' | 'ruleset/expr-ipv4-mapped' | 'ruleset/expr-regex-backslash';
  message: string;
  offset: number;
  length: number;
  fixes?: { title: string; edits: Edit[]; preferred?: boolean }[];
}

// Tokens are scanned on char codes (one sticky regex, for IPv4, runs at an index): no substring or match array per token. A 200-rule ruleset's
// expressions (60 KB) tokenize in about 0.3 ms.
const PUNCT3 = '===';

/**
 * The punctuation token at i, whose first character is cc: "===" (refused by the caller), a two-character one (== != <= >= && || ^^
 * ..) before a one-character one (< > ~ ! ( ) { } [ ] , *); undefined for any other character. A switch on the character, not a
 * table: this runs for every punctuation token.
 */
function punctAt(src: string, i: number, cc: number): string | undefined {
  const next = src.charCodeAt(i + 1);
  switch (cc) {
    case 0x3d /* = */: return next !== 0x3d ? undefined : src.charCodeAt(i + 2) === 0x3d ? PUNCT3 : '==';
    case 0x21 /* ! */: return next === 0x3d ? '!=' : '!';
    case 0x3c /* < */: return next === 0x3d ? '<=' : '<';
    case 0x3e /* > */: return next === 0x3d ? '>=' : '>';
    case 0x26 /* & */: return next === 0x26 ? '&&' : undefined;
    case 0x7c /* | */: return next === 0x7c ? '||' : undefined;
    case 0x5e /* ^ */: return next === 0x5e ? '^^' : undefined;
    case 0x2e /* . */: return next === 0x2e ? '..' : undefined;
    case 0x7e: return '~';
    case 0x28: return '(';
    case 0x29: return ')';
    case 0x7b: return '{';
    case 0x7d: return '}';
    case 0x5b: return '[';
    case 0x5d: return ']';
    case 0x2c: return ',';
    case 0x2a: return '*';
    default: return undefined;
  }
}

const IPV4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d+))?/y;
/** Digits (hex, and an "x") joined by single dots: what wirefilter takes as one address or number chunk, "1.2.3" or "0x7f.1". */
const DOTTED = /[0-9A-Fa-fx]+(?:\.[0-9A-Fa-fx]+)+(?!\.[0-9A-Fa-fx])/y;
/** The two characters after \x (u8::from_str_radix takes a leading "+"), the three after the \ of an octal escape. */
const HEX_BYTE = /^(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])$/;
const OCT_BYTE = /^[0-7]{3}$/;

// The ASCII classes as bits of one table: a lookup per character instead of a chain of comparisons (the lexer reads every character
// of every expression through them). Past ASCII, and past the end (NaN), a character has no class.
const DIGIT = 1, IDENT_START = 2, HEX = 4, COLON = 8, HEX_X = 16;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const digit = c >= 0x30 && c <= 0x39, letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const hex = digit || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  CLASS[c] = (digit ? DIGIT : 0) | (letter || c === 0x5f ? IDENT_START : 0) | (hex ? HEX : 0) | (c === 0x3a ? COLON : 0) | (hex || c === 0x78 ? HEX_X : 0);
}
const classOf = (c: number): number => (c < 128 ? CLASS[c] : 0);
const isDigit = (c: number): boolean => (classOf(c) & DIGIT) !== 0;
const isIdentStart = (c: number): boolean => (classOf(c) & IDENT_START) !== 0;
const isIdentChar = (c: number): boolean => (classOf(c) & (IDENT_START | DIGIT)) !== 0;
const isHexOrColon = (c: number): boolean => (classOf(c) & (HEX | COLON)) !== 0;

/** End of the identifier at i (regex `[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*`): a field such as http.request.uri.path. */
function identEnd(src: string, i: number): number {
  let j = i + 1;
  for (;;) {
    while (j < src.length && isIdentChar(src.charCodeAt(j))) j++;
    if (src.charCodeAt(j) === 0x2e /* . */ && j + 1 < src.length && isIdentChar(src.charCodeAt(j + 1))) j += 2;
    else return j;
  }
}

/** End of the list name at i, after "$" (regex `[A-Za-z_][A-Za-z0-9_.]*`). */
function listNameEnd(src: string, i: number): number {
  let j = i + 1;
  while (j < src.length && (isIdentChar(src.charCodeAt(j)) || src.charCodeAt(j) === 0x2e)) j++;
  return j;
}

/** End of what may be an IPv6 address or CIDR at i, a hex digit or colon (regex `[0-9A-Fa-f:][0-9A-Fa-f:.]*(?:\/\d+)?`). */
function hexColonEnd(src: string, i: number): number {
  let j = i + 1;
  while (j < src.length && (isHexOrColon(src.charCodeAt(j)) || src.charCodeAt(j) === 0x2e)) j++;
  if (src.charCodeAt(j) === 0x2f /* / */ && isDigit(src.charCodeAt(j + 1))) {
    j += 2;
    while (isDigit(src.charCodeAt(j))) j++;
  }
  return j;
}

const isHex = (c: number): boolean => (classOf(c) & HEX) !== 0;

/** End of the integer at i, a digit or "-" before one: as wirefilter's i64::lex, "0x" then hex digits, else an optional "-" and a
 * run of hex digits (it takes them all, "403a" or "1e3", and then refuses what is not a number of its radix). */
function intEnd(src: string, i: number): number {
  let j = src.startsWith('0x', i) ? i + 2 : src.charCodeAt(i) === 0x2d ? i + 1 : i;
  while (isHex(src.charCodeAt(j))) j++;
  return j;
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** An integer literal as wirefilter reads it, or why it refuses it (with the value a fix may write, when one is meant). */
export function readInt(text: string): { value: bigint; octal: boolean } | { error: string; fix?: string } {
  let v: bigint;
  let octal = false;
  if (text.startsWith('0x')) {
    const digits = text.slice(2);
    if (digits === '') return { error: `"0x" has no hex digits after it` };
    v = BigInt(text);
  } else if (text.startsWith('0')) {
    // A leading 0 makes the number octal (wirefilter's i64::lex: "0123" is 83)
    if (!/^[0-7]+$/.test(text)) {
      const decimal = /^\d+$/.test(text) ? String(BigInt(text)) : undefined;
      return { error: `${JSON.stringify(text)} is not an integer the platform reads: a leading 0 makes it octal (digits 0-7)`, fix: decimal };
    }
    v = BigInt('0o' + text);
    octal = true;
  } else {
    if (!/^-?\d+$/.test(text)) {
      const e = /^(-?\d+)e(\d+)$/.exec(text);
      const fix = e && Number(e[2]) <= 18 ? String(BigInt(e[1]) * 10n ** BigInt(e[2])) : undefined;
      return { error: `${JSON.stringify(text)} is not an integer the platform reads: an integer is decimal digits, 0x and hex digits, or 0 and octal digits`, fix };
    }
    v = BigInt(text);
  }
  if (v < I64_MIN || v > I64_MAX) return { error: `${JSON.stringify(text)} is outside the platform's integers (64-bit, ${I64_MIN} to ${I64_MAX})` };
  return { value: v, octal };
}

/** A byte of an unquoted byte string: two characters u8::from_str_radix(_, 16) reads (it takes a leading "+"). */
const BYTE_PAIR = /^(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])$/;
const isByteSeparator = (c: string | undefined): boolean => c === ':' || c === '-' || c === '.';

/**
 * Whether an unquoted byte string starts at i: a byte (two hex digits, or "+" and one: BYTE_PAIR) and a separator (":", "-" or
 * "."). By character codes: asked at the right side of most comparisons, a slice and BYTE_PAIR's test there were 1 % of a check.
 */
export function startsByteString(src: string, i: number): boolean {
  const a = src.charCodeAt(i);
  if (!((classOf(a) & HEX) || a === 0x2b /* + */) || !(classOf(src.charCodeAt(i + 1)) & HEX)) return false;
  const sep = src.charCodeAt(i + 2);
  return sep === 0x3a /* : */ || sep === 0x2d /* - */ || sep === 0x2e /* . */;
}

/** The two characters (code points) at i, or fewer at the end. */
function twoChars(src: string, i: number): string {
  let j = i;
  for (let k = 0; k < 2 && j < src.length; k++) j += src.codePointAt(j)! > 0xffff ? 2 : 1;
  return src.slice(i, j);
}

export type ByteStringRead = { bytes: number[]; end: number } | { error: string; offset: number; length: number };

/**
 * An unquoted byte string at i, as wirefilter's lex_byte_string reads it (engine/src/rhs_types/bytes.rs): bytes of exactly two
 * characters read as hex (u8::from_str_radix, so "+f" is 0x0f), separated by ":", "-" or "." (mixed: "01:2e-f3.77"), at least two;
 * it ends after a byte without a separator after it, and a separator must be followed by a byte. The bytes and the index after
 * them, or why it is refused, at the byte that is wrong.
 */
export function readByteString(src: string, i: number): ByteStringRead {
  const bytes: number[] = [];
  let j = i;
  const form = 'an unquoted value of a String field is a byte string, hex byte pairs separated by ":", "-" or "." (2f:61:62 for "/ab"); write text in double quotes';
  for (;;) {
    const two = twoChars(src, j);
    if (!BYTE_PAIR.test(two)) {
      const written = src.slice(i, j);
      const message = two === '' || /^\s/.test(two)
        ? `Expected two hex digits after "${src[j - 1]}" in the byte string "${written}": ${form}.`
        : `"${two}" is not two hex digits in the byte string "${written}${two}": ${form}.`;
      return { error: message, offset: j, length: /^\s/.test(two) ? 0 : two.length };
    }
    bytes.push(parseInt(two, 16));
    j += 2;
    if (!isByteSeparator(src[j])) {
      if (bytes.length === 1) {
        // startsByteString saw to the separator: unreachable from the parser, kept for a caller that did not ask
        return { error: `Expected ":", "-" or "." after "${two}": ${form}.`, offset: j, length: 0 };
      }
      return { bytes, end: j };
    }
    j++;
  }
}

/** Whether src holds at least two colons from start to end (an IPv6 address, as opposed to a hex-looking identifier or number). */
function twoColons(src: string, start: number, end: number): boolean {
  let colons = 0;
  for (let j = start; j < end && colons < 2; j++) if (src.charCodeAt(j) === 0x3a /* : */) colons++;
  return colons === 2;
}

/** Every token has every member, undefined where it does not apply: one object shape, which keeps the parser's reads of them fast. */
function token(kind: TokenKind, text: string, offset: number, length: number, value?: string | number, family?: 4 | 6, raw?: boolean, big?: bigint, bytes?: Uint8Array): Token {
  return { kind, text, offset, length, value, big, family, raw, bytes };
}

/** Rust's char::is_whitespace (Unicode White_Space): what wirefilter's FilterParser::parse trims off both ends (str::trim). */
const TRIMMED = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/**
 * A run of tabs between tokens, an error: wirefilter's skip_space skips ' ', '\r' and '\n' only (lex.rs SPACE_CHARS: "Tabs are
 * harder to format as part of the error message"), so a tab there is "unrecognised input". Inside a string it is text, and at the
 * two ends of the expression the platform trims it.
 */
function tabs(offset: number, length: number): LexProblem {
  return { code: 'ruleset/expr-whitespace', offset, length,
    message: `${length > 1 ? `${length} tabs` : 'A tab'} between tokens: the platform skips only spaces and line breaks between tokens, and refuses a tab there ("unrecognised input"); write a space.`,
    fixes: [{ title: length > 1 ? 'Replace the tabs with spaces' : 'Replace the tab with a space', edits: [{ offset, length, newText: ' '.repeat(length) }], preferred: true }] };
}

/** A character that shows as nothing or as a space: a Unicode space, a control or a format character (zero-width space, BOM). */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}]/u;

/**
 * An invisible character between tokens (a no-break space pasted from a web page), named by its code point since quoting it shows
 * nothing. Still a syntax error, as wirefilter's skip_space takes none of them; a Unicode space has the fix to a space.
 */
function invisible(c: string, offset: number): LexProblem {
  const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  const space = TRIMMED.test(c);
  return { code: 'ruleset/expr-syntax', offset, length: 1,
    message: space ? `Unexpected ${code}, a Unicode space, between tokens: the platform skips only spaces and line breaks there; write a space.`
      : `Unexpected invisible character ${code} between tokens; delete it.`,
    ...(space ? { fixes: [{ title: 'Replace it with a space', edits: [{ offset, length: 1, newText: ' ' }], preferred: true }] } : {}) };
}

/**
 * The tokens of src from index `from` on (the parser reads the rest again after an unquoted byte string, which ends inside a token).
 * `stop(i, last)` is asked before each token: when it says so, the tokens so far are returned without an eof token, with `stopped`
 * the index where the next token would start (the parser stops where its old tokens line up again, so the rest is not lexed twice).
 */
export function tokenize(src: string, from = 0, stop?: (i: number, last: Token | undefined) => boolean): { tokens: Token[]; problems: LexProblem[]; stopped?: number } {
  const tokens: Token[] = [];
  const problems: LexProblem[] = [];
  let i = from;
  const n = src.length;
  // The platform parses the expression trimmed: any Unicode space is taken before lo and from hi on
  let lo = 0, hi = n;
  while (lo < n && TRIMMED.test(src[lo])) lo++;
  while (hi > lo && TRIMMED.test(src[hi - 1])) hi--;
  while (i < n) {
    const cc = src.charCodeAt(i);
    if (i < lo || i >= hi) { i++; continue; }
    // A tab is no token either (the parser's stop is asked at tokens only); between tokens it is an error, read below.
    if (stop && !(cc === 0x20 || cc === 0x09 || cc === 0x0a || cc === 0x0d) && stop(i, tokens[tokens.length - 1])) return { tokens, problems, stopped: i };
    if (cc === 0x20 || cc === 0x0a || cc === 0x0d) { i++; continue; }
    if (cc === 0x09) {
      let j = i + 1;
      while (src.charCodeAt(j) === 0x09) j++;
      problems.push(tabs(i, j - i));
      i = j;
      continue;
    }
    const c = src[i];
    // raw strings r"..." and r#"..."#
    if (cc === 0x72 /* r */ && (src[i + 1] === '"' || src[i + 1] === '#')) {
      let j = i + 1;
      let hashes = 0;
      while (src[j] === '#') { hashes++; j++; }
      if (src[j] === '"') {
        const close = '"' + '#'.repeat(hashes);
        const end = src.indexOf(close, j + 1);
        if (end < 0) {
          problems.push({ code: 'ruleset/expr-syntax', message: `Unterminated raw string; expected ${JSON.stringify(close)} to close it.`, offset: i, length: n - i });
          tokens.push(token('string', src.slice(i), i, n - i, src.slice(j + 1), undefined, true));
          i = n;
        } else {
          const stop = end + close.length;
          // wirefilter counts the "#" in a u8 (InvalidRawStringHashCount)
          if (hashes > 255) {
            problems.push({ code: 'ruleset/expr-syntax', offset: i, length: j + 1 - i,
              message: `A raw string opened with ${hashes} "#"; the platform takes at most 255.` });
          }
          tokens.push(token('string', src.slice(i, stop), i, stop - i, src.slice(j + 1, end), undefined, true));
          i = stop;
        }
        continue;
      }
      if (hashes > 0) {
        // r and "#" with no quote after them: one problem (lex_raw_string_as_str counts the "#" first, then wants a quote), not
        // one "unexpected character" per "#"; the run stands for a raw string, so the parse reads on
        problems.push({ code: 'ruleset/expr-syntax', offset: i, length: j - i,
          message: hashes > 255 ? `A raw string opened with ${hashes} "#"; the platform takes at most 255.`
            : `Unterminated raw string: expected a double quote after "r${'#'.repeat(hashes)}" (a raw string is r"...", r#"..."# and so on).` });
        tokens.push(token('string', src.slice(i, j), i, j - i, '', undefined, true));
        i = j;
        continue;
      }
    }
    if (cc === 0x22 /* " */ && isRegexOperator(tokens[tokens.length - 1])) {
      i = regexString(src, i, tokens, problems);
      continue;
    }
    if (cc === 0x22 /* " */) {
      // Most strings have no escape: the closing quote with no backslash before it is the whole string
      let close = i + 1;
      for (let ch = src.charCodeAt(close); close < n && ch !== 0x22 && ch !== 0x5c; ch = src.charCodeAt(++close));
      if (src.charCodeAt(close) === 0x22) {
        tokens.push(token('string', src.slice(i, close + 1), i, close + 1 - i, src.slice(i + 1, close)));
        i = close + 1;
        continue;
      }
      const start = i;
      let value = '';
      let j = i + 1;
      let chunk = j; // the decoded value is built from slices between escapes
      let closed = false;
      // Bytes of \xHH and \NNN escapes not yet decoded: a run of them is read as UTF-8 ("\xc3\xa9" is "é"), as the platform's
      // strings are bytes (core/text.ts bytesText); any other text flushes them first
      let pending: number[] | undefined;
      // The exact bytes, kept once a run of escaped bytes is not UTF-8 ("\xe0" alone): the text cannot stand for them
      let exact: number[] | undefined;
      let chunks: (string | number[])[] | undefined;
      const flush = (): void => {
        const run = Uint8Array.from(pending!);
        value += bytesText(run);
        (chunks ??= []).push(pending!);
        if (!exact && lossyBytes(run)) exact = [];
        pending = undefined;
      };
      const text = (t: string): void => {
        if (pending && t) flush();
        value += t;
        if (t) (chunks ??= []).push(t);
      };
      while (j < n) {
        const ch = src.charCodeAt(j);
        if (ch === 0x22) { text(src.slice(chunk, j)); closed = true; j++; break; }
        if (ch !== 0x5c /* \ */) { j++; continue; }
        text(src.slice(chunk, j));
        const e = src[j + 1];
        if (e === '"' || e === '\\') { text(e); j += 2; chunk = j; continue; }
        // wirefilter: \x and two characters read by u8::from_str_radix (which takes a "+" sign), or \ and three octal digits
        const hex = src.slice(j + 2, j + 4), oct = src.slice(j + 1, j + 4);
        const byte = e === 'x' && HEX_BYTE.test(hex) ? parseInt(hex, 16) : e >= '0' && e <= '7' && OCT_BYTE.test(oct) ? parseInt(oct, 8) : undefined;
        if (byte !== undefined && byte <= 0xff) { (pending ??= []).push(byte); j += 4; chunk = j; continue; }
        // The character escaped, whole: a surrogate pair's two units for one past U+FFFF
        const escaped = e === undefined ? '' : String.fromCodePoint(src.codePointAt(j + 1)!);
        const shown = `\\${escaped}`;
        problems.push({ code: 'ruleset/expr-syntax', offset: j, length: shown.length,
          message: `Invalid escape "${shown}" in a string; only \\" \\\\ \\xHH and \\NNN (octal, up to \\377) are allowed, so write "\\${shown}" or use a raw string r"...".` });
        text(escaped);
        j += 1 + Math.max(1, escaped.length);
        chunk = j;
      }
      if (!closed) {
        text(src.slice(Math.min(chunk, n), n));
        problems.push({ code: 'ruleset/expr-syntax', message: 'Unterminated string; expected a closing double quote.', offset: start, length: n - start });
      }
      if (pending) flush();
      if (exact) for (const c of chunks!) exact.push(...(typeof c === 'string' ? UTF8.encode(c) : c));
      j = Math.min(j, n);
      tokens.push(token('string', src.slice(start, j), start, j - start, value, undefined, undefined, undefined, exact && Uint8Array.from(exact)));
      i = j;
      continue;
    }
    if (cc === 0x24 /* $ */ && i + 1 < n && isIdentStart(src.charCodeAt(i + 1))) {
      const name = src.slice(i + 1, listNameEnd(src, i + 1));
      tokens.push(token('list', '$' + name, i, name.length + 1, name));
      i += name.length + 1;
      continue;
    }
    // A run of hex digits (and "x") that no "." or ":" ends is no address: from a digit it is an integer, from a letter an identifier
    // (read below). Most numbers and every word that starts with a-f ("and", "eq", "cf.") take this path, not the address reading.
    let address = true;
    if (classOf(cc) & HEX) {
      let k = i + 1;
      while (classOf(src.charCodeAt(k)) & HEX_X) k++;
      const after = src.charCodeAt(k);
      if (after !== 0x2e /* . */ && after !== 0x3a /* : */) {
        if (isDigit(cc)) {
          const num = src.slice(i, intEnd(src, i));
          tokens.push(intToken(num, i, problems));
          i += num.length;
          continue;
        }
        address = false;
      }
    }
    // IPv6 (a run of hex digits, colons and dots that contains a colon), IPv4, integers
    if (address && (isHexOrColon(cc) || (cc === 0x2d /* - */ && i + 1 < n && isDigit(src.charCodeAt(i + 1))))) {
      let hexEnd = isHexOrColon(cc) ? hexColonEnd(src, i) : i;
      // A range's first end alone ("10.0.0.0..::1" starts with an IPv4 address)
      for (let j = i; j + 1 < hexEnd; j++) if (src.charCodeAt(j) === 0x2e && src.charCodeAt(j + 1) === 0x2e) { hexEnd = j; break; }
      if (twoColons(src, i, hexEnd)) {
        const text = src.slice(i, hexEnd);
        tokens.push(ipToken(text, i, 6, problems));
        i += text.length;
        continue;
      }
      if (isDigit(cc) || cc === 0x2d) {
        IPV4.lastIndex = i;
        const v4 = cc !== 0x2d ? IPV4.exec(src) : null;
        // A run of digits and dots the platform reads as neither an address nor an integer (1.2.3, 0x7f.1, 1.2.3.4.5, 1.5): one
        // error naming it, rather than a token and an "unexpected ." after it
        DOTTED.lastIndex = i;
        const dotted = cc !== 0x2d ? DOTTED.exec(src) : null;
        if (dotted && !(v4 && v4.index === i && v4[0].length >= dotted[0].length)) {
          tokens.push(dottedToken(dotted[0], i, problems));
          i += dotted[0].length;
          continue;
        }
        if (v4) {
          tokens.push(ipToken(v4[0], i, 4, problems));
          i += v4[0].length;
          continue;
        }
        const num = src.slice(i, intEnd(src, i));
        tokens.push(intToken(num, i, problems));
        i += num.length;
        continue;
      }
    }
    if (isIdentStart(cc)) {
      const m = src.slice(i, identEnd(src, i));
      tokens.push(token('ident', m, i, m.length));
      i += m.length;
      continue;
    }
    const p = punctAt(src, i, cc);
    if (p && p !== PUNCT3) {
      tokens.push(token('punct', p, i, p.length));
      i += p.length;
      continue;
    }
    const shown = p ?? (src.codePointAt(i)! > 0xffff ? src.slice(i, i + 2) : c);
    if (!p && INVISIBLE.test(c)) {
      problems.push(invisible(c, i));
      i++;
      continue;
    }
    // A run of one unexpected character ("#####") is one problem
    let run = shown.length;
    if (!p) while (src.startsWith(shown, i + run)) run += shown.length;
    const times = run / shown.length;
    problems.push({ code: 'ruleset/expr-syntax', offset: i, length: run,
      message: p === PUNCT3 ? 'Unexpected "==="; use "==" or "eq".' : c === '=' ? 'Unexpected "="; use "==" or "eq" to compare.'
        : `Unexpected character "${shown}"${times > 1 ? ` (${times} times)` : ''}.` });
    i += run;
  }
  tokens.push(token('eof', '', n, 0));
  return { tokens, problems };
}

/** Whether a string after this token is the regex of "matches" / "~", which the platform reads with regex escaping. */
export function isRegexOperator(t: Token | undefined): boolean {
  return !!t && ((t.kind === 'ident' && t.text === 'matches') || (t.kind === 'punct' && t.text === '~'));
}

/** Characters after which a doubled backslash in a regex string was most likely meant as one: a regex escape (\d, \.). */
const MEANT_ESCAPE = new Set('.dDwWsSbBAzpPnrtx()[]{}+*?^$|/-');

/**
 * A quoted string on the right of "matches" or "~", as wirefilter's lex_regex_from_literal reads it (the values reference: "parsed
 * using regex escaping rules"): \" outside a class [...] is a quote, every other backslash goes to the regex with the character after
 * it, and a quote inside a class does not end the string. So "\d+" is the regex \d+, and "\\." the regex \\. (a backslash, then any
 * character), which is reported: the basic escaping of other strings would have made it \. . Returns the index after the string.
 */
function regexString(src: string, start: number, tokens: Token[], problems: LexProblem[]): number {
  const n = src.length;
  let value = '';
  let inClass = false;
  // Where the open class starts in the regex, and the first quote it took (the one likely meant to end the string)
  let classAt = 0;
  let quoteInClass: number | undefined;
  let empty = false;
  let j = start + 1;
  let closed = false;
  const doubled: number[] = [];
  while (j < n) {
    const c = src[j];
    if (c === '\\') {
      if (j + 1 >= n) { j = n; break; }
      const e = src[j + 1];
      if (inClass || e !== '"') value += '\\';
      value += e;
      if (e === '\\' && !inClass && MEANT_ESCAPE.has(src[j + 2] ?? '')) doubled.push(j);
      j += 2;
      continue;
    }
    if (c === '"' && !inClass) { closed = true; j++; break; }
    // Rust regex reads a "]" right after "[" or "[^" as a character of the class: put before a quote there, it would close nothing
    if (c === '"' && quoteInClass === undefined) { quoteInClass = j; empty = /^\[\^?$/.test(value.slice(classAt)); }
    if (c === '[' && !inClass) { inClass = true; classAt = value.length; quoteInClass = undefined; }
    else if (c === ']' && inClass) inClass = false;
    value += c;
    j++;
  }
  if (!closed && inClass && quoteInClass !== undefined) {
    const why = `Unterminated string: the class "[" at character ${[...value.slice(0, classAt)].length + 1} of the regex is not closed, and a quote inside a class does not end a "matches" string`;
    // A guess at where the user meant the string to end: offered, not preferred
    problems.push(empty
      ? { code: 'ruleset/expr-syntax', offset: start, length: n - start, message: `${why}; a "]" right after "[" or "[^" is a character of the class, not its end.` }
      : { code: 'ruleset/expr-syntax', offset: start, length: n - start, message: `${why}; close the class with "]" before the quote.`,
        fixes: [{ title: 'Close the class before the quote', edits: [{ offset: quoteInClass, length: 0, newText: ']' }] }] });
  } else if (!closed) problems.push({ code: 'ruleset/expr-syntax', message: 'Unterminated string; expected a closing double quote.', offset: start, length: n - start });
  // The fix changes what the regex matches: offered, not preferred (fix all leaves it to the user)
  if (closed && doubled.length) {
    const first = src.slice(doubled[0], doubled[0] + 3);
    const meant = '\\' + first[2];
    problems.push({ code: 'ruleset/expr-regex-backslash', offset: doubled[0], length: 3,
      message: `In a "matches" string a backslash goes to the regex as written, so "${first}" is an escaped backslash and then "${first[2]}", not the regex escape "${meant}"; write "${meant}" (or a raw string r"...").`,
      fixes: [{ title: doubled.length > 1 ? 'Write each doubled backslash before a regex character as one' : `Write "${meant}"`,
        edits: doubled.map((at) => ({ offset: at, length: 2, newText: '\\' })) }] });
  }
  tokens.push(token('string', src.slice(start, j), start, j - start, value));
  return j;
}

/** A dotted literal that is no four-part IPv4 address: an IP token (an integer one when it is two decimal parts, 1.5) with its error. */
function dottedToken(text: string, offset: number, problems: LexProblem[]): Token {
  const decimal = /^\d+\.\d+$/.test(text);
  problems.push({ code: decimal ? 'ruleset/expr-invalid-int' : 'ruleset/expr-invalid-ip', offset, length: text.length,
    message: `"${text}" is no value the platform reads: an integer has no "." and an IPv4 address is four decimal parts 0-255 (a.b.c.d), not a short or hex form.` });
  return decimal ? token('int', text, offset, text.length, 0) : token('ip', text, offset, text.length, undefined, 4);
}

/**
 * A decimal integer of at most 15 digits without a leading zero (/^-?[1-9]\d{0,14}$/): read as a double exactly, without readInt's
 * BigInt. By character codes: the regex's test was 1.5 % of a ruleset's check.
 */
export function isShortDecimal(text: string): boolean {
  const n = text.length;
  let k = text.charCodeAt(0) === 0x2d /* - */ ? 1 : 0;
  if (n - k < 1 || n - k > 15) return false;
  const first = text.charCodeAt(k);
  if (first < 0x31 || first > 0x39) return false;
  for (k++; k < n; k++) if (!isDigit(text.charCodeAt(k))) return false;
  return true;
}

function intToken(text: string, offset: number, problems: LexProblem[]): Token {
  if (isShortDecimal(text)) return token('int', text, offset, text.length, Number(text));
  const r = readInt(text);
  if ('error' in r) {
    problems.push({ code: 'ruleset/expr-invalid-int', message: `${r.error}${r.fix === undefined ? '' : `; write ${r.fix} for the decimal number`}.`, offset, length: text.length,
      fixes: r.fix === undefined ? undefined : [{ title: `Write ${r.fix}`, edits: [{ offset, length: text.length, newText: r.fix }], preferred: true }] });
    return token('int', text, offset, text.length, 0);
  }
  const n = Number(r.value);
  if (r.octal && String(r.value) !== text.replace(/^0+(?=\d)/, '')) {
    const decimal = text.replace(/^0+(?=\d)/, '');
    problems.push({ code: 'ruleset/expr-octal-int', offset, length: text.length,
      message: `${text} is octal in the rules language (a leading 0), so the platform reads ${r.value}; write ${r.value} to say so, or ${decimal} for the decimal number.`,
      fixes: [{ title: `Write ${decimal} (decimal)`, edits: [{ offset, length: text.length, newText: decimal }] },
        { title: `Write ${r.value} (the value it has now)`, edits: [{ offset, length: text.length, newText: String(r.value) }] }] });
  }
  return token('int', text, offset, text.length, n, undefined, undefined, Number.isSafeInteger(n) ? undefined : r.value);
}

function ipToken(text: string, offset: number, family: 4 | 6, problems: LexProblem[]): Token {
  const slash = text.indexOf('/'); // at most one: the lexer reads one "/digits" suffix
  const addr = slash < 0 ? text : text.slice(0, slash);
  const prefix = slash < 0 ? undefined : text.slice(slash + 1);
  const ok = family === 4 ? validIpv4(addr) : validIpv6(addr);
  const kind: TokenKind = prefix === undefined ? 'ip' : 'cidr';
  if (!ok) {
    // Rust's Ipv4Addr refuses a part with a leading zero ("010", which inet_aton and ipaddr.js read as octal 8)
    const fixed = withoutLeadingZeros(addr, family);
    if (fixed !== undefined) {
      problems.push({ code: 'ruleset/expr-invalid-ip', offset, length: addr.length,
        message: `"${addr}" is not an IPv${family} address the platform reads: a part of an IPv4 address has a leading zero; write ${fixed} (decimal parts 0-255, no leading zeros).`,
        fixes: [{ title: `Write ${fixed}`, edits: [{ offset, length: addr.length, newText: fixed }], preferred: true }] });
    } else {
      problems.push({ code: 'ruleset/expr-invalid-ip', message: `"${addr}" is not a valid IPv${family} address.`, offset, length: addr.length });
    }
  }
  const max = family === 4 ? 32 : 128;
  if (prefix !== undefined && (prefix === '' || Number(prefix) > max)) {
    problems.push({ code: 'ruleset/expr-invalid-ip', message: `The prefix length "/${prefix}" of "${text}" must be between 0 and ${max}.`, offset: offset + addr.length, length: prefix.length + 1 });
  } else if (ok && prefix !== undefined && hostBitsSet(ipGroups(addr, family), family === 4 ? 8 : 16, Number(prefix))) {
    // The cidr crate refuses a network whose host bits are set ("10.1.1.1/8"): the network is what was meant
    const bits = Number(prefix);
    const net = family === 4 ? ipaddr.IPv4.networkAddressFromCIDR(`${addr}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${addr}/${bits}`);
    const shown = `${family === 4 ? net.toString() : (net as ipaddr.IPv6).toRFC5952String()}/${bits}`;
    problems.push({ code: 'ruleset/expr-invalid-ip', offset, length: text.length,
      message: `"${text}" has host bits set, which the platform refuses in a CIDR; write its network ${shown}.`,
      fixes: [{ title: `Write ${shown}`, edits: [{ offset, length: text.length, newText: shown }], preferred: true }] });
  }
  if (ok && family === 6) {
    // An IPv4-mapped address is IPv6 on the platform: it never equals an IPv4 request address (ip.src of an IPv4 client). The fix
    // changes what the rule matches, so it is offered, not preferred (fix all leaves it to the user)
    const bits = prefix === undefined ? 128 : Number(prefix);
    if (bits >= 96 && ipv4Mapped(ipGroups(addr, 6))) {
      const v4 = (parseIp(addr) as ipaddr.IPv6).toIPv4Address().toString() + (prefix === undefined ? '' : `/${bits - 96}`);
      problems.push({ code: 'ruleset/expr-ipv4-mapped', offset, length: text.length,
        message: `"${text}" is an IPv4-mapped IPv6 ${prefix === undefined ? 'address' : 'range'}: the platform compares it with IPv6 addresses only, so it never matches an IPv4 client; write ${v4} for that.`,
        fixes: [{ title: `Write ${v4}`, edits: [{ offset, length: text.length, newText: v4 }] }] });
    }
  }
  return token(kind, text, offset, text.length, undefined, family);
}

/**
 * The parts of a valid address (validIpv4/validIpv6 said so) as numbers: 4 bytes, or 8 groups of 16 bits (an IPv4 tail as two). Read
 * here rather than through ipaddr.js, whose parse, and above all isIPv4MappedAddress (which classifies the address against every
 * special range), were a third of the check of a ruleset with a few CIDRs per rule (docs/benchmarks.md, twelfth look).
 */
export function ipGroups(addr: string, family: 4 | 6): number[] {
  // One pass over the characters (the address is valid): hex groups, the "::" gap's place, and an IPv4 part run after the last ":"
  const groups: number[] = [];
  let gap = -1, cur = 0, digits = 0, v4 = false;
  // Where decimal parts start: all of an IPv4 address, the tail after the last ":" of an IPv6 address that has one
  const decimalFrom = family === 4 ? 0 : addr.includes('.') ? addr.lastIndexOf(':') + 1 : addr.length;
  for (let i = 0; i < addr.length; i++) {
    const c = addr.charCodeAt(i);
    if (c === 0x3a /* : */) {
      if (digits) groups.push(cur);
      if (addr.charCodeAt(i + 1) === 0x3a) { gap = groups.length; i++; }
      cur = 0; digits = 0;
    } else if (c === 0x2e /* . */) {
      v4 = true; groups.push(cur); cur = 0; digits = 0;
    } else {
      cur = i >= decimalFrom ? cur * 10 + (c - 48) : cur * 16 + (c <= 0x39 ? c - 48 : (c | 0x20) - 87);
      digits++;
    }
  }
  if (digits) groups.push(cur);
  if (family === 4) return groups;
  if (v4) {
    // The last four are the IPv4 tail's bytes: two groups of 16 bits
    const b = groups.splice(groups.length - 4, 4);
    groups.push(b[0] * 256 + b[1], b[2] * 256 + b[3]);
  }
  if (gap >= 0) groups.splice(gap, 0, ...new Array<number>(8 - groups.length).fill(0));
  return groups;
}

/**
 * A valid address (validIp said so) as ipaddr.js's object, its parts read by ipGroups: ipaddr.js's own parse reads "::1.2.3.4" as
 * ::ffff:1.2.3.4 (IPv4-mapped), where RFC 4291 and Rust's Ipv6Addr read ::102:304 (IPv4-compatible, no IPv4 client's address).
 */
export function parseIp(addr: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.includes(':') ? new ipaddr.IPv6(ipGroups(addr, 6)) : new ipaddr.IPv4(ipGroups(addr, 4));
}

/** Whether any of the bits after the first `prefix` are set, the parts being `width` bits each. */
export function hostBitsSet(parts: number[], width: number, prefix: number): boolean {
  for (let i = 0; i < parts.length; i++) {
    const keep = Math.max(0, Math.min(width, prefix - i * width));
    if (keep < width && (parts[i] & ((1 << (width - keep)) - 1)) !== 0) return true;
  }
  return false;
}

/** ::ffff:a.b.c.d (ipaddr.js's ipv4Mapped range, ::ffff:0:0/96). */
export function ipv4Mapped(groups: number[]): boolean {
  return groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0xffff;
}

/** The address with the leading zeros of its IPv4 parts dropped, when that is all that keeps it from being valid; else undefined. */
function withoutLeadingZeros(addr: string, family: 4 | 6): string | undefined {
  const at = family === 4 ? 0 : addr.lastIndexOf(':') + 1;
  const tail = addr.slice(at).split('.');
  if (tail.length !== 4 || !tail.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  const fixed = addr.slice(0, at) + tail.map((p) => String(Number(p))).join('.');
  return fixed !== addr && (family === 4 ? validIpv4(fixed) : validIpv6(fixed)) ? fixed : undefined;
}

/** An address as Rust's IpAddr::from_str reads it (the platform's IP fields hold nothing else): no zone id, no inet_aton form. */
export function validIp(s: string): boolean {
  return validIpv4(s) || validIpv6(s);
}

/** Four parts 0-255, none with a leading zero: one regex rather than a split and a test per part (every IPv4 literal and request
 * address passes here). */
const IPV4_STRICT = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function validIpv4(s: string): boolean {
  return IPV4_STRICT.test(s);
}

export function validIpv6(s: string): boolean {
  let head = s;
  let tailGroups = 0;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!validIpv4(s.slice(lastColon + 1))) return false;
    head = s.slice(0, lastColon + 1) + '0:0';
    tailGroups = 0;
  }
  // Groups of one to four hex digits, one ":" between two, at most one "::" (which may start or end the address): eight groups
  // without it, at most seven with it. One scan of the characters (the split on "::", then on ":", and a regex per group made
  // arrays and strings for each address)
  const n = head.length;
  let i = 0, count = 0, gap = false;
  if (head.charCodeAt(0) === 0x3a && head.charCodeAt(1) === 0x3a) {
    gap = true;
    i = 2;
  }
  while (i < n || (count === 0 && !gap)) {
    let digits = 0;
    while (digits < 5 && classOf(head.charCodeAt(i)) & HEX) { i++; digits++; }
    if (digits === 0 || digits > 4) return false;
    count++;
    if (i === n) break;
    if (head.charCodeAt(i) !== 0x3a) return false;
    if (head.charCodeAt(i + 1) === 0x3a) {
      if (gap) return false;
      gap = true;
      i += 2;
    } else {
      i++;
      if (i === n) return false;
    }
  }
  count += tailGroups;
  return gap ? count <= 7 : count === 8;
}
