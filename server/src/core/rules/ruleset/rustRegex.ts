// A `matches` regex is Rust's regex syntax (the platform's engine); the checker and the evaluator run it on RE2 (re2js), whose syntax
// Rust's descends from. What Rust writes differently is rewritten here first, so that both accept what Rust accepts:
// - the inline flags u (Unicode mode: off by default on the platform, whose wirefilter builds its regexes with unicode(false),
//   so rustRegexRefusal requires it for \p{...}; RE2's classes such as \p{Greek} are Unicode already) and R (CRLF mode),
//   which RE2 does not know, are dropped; x (verbose) is applied here: whitespace is insignificant everywhere, character classes
//   included, and "#" starts a comment to the end of the line (rust-lang/regex#660);
// - \u007F, \u{7F}, \U0000007F and \U{7F} become RE2's \x{7F}; counted repetitions lose the spaces around their numbers;
// - a repetition of a repetition (a**), which Rust takes and RE2 refuses, is put in a group;
// - a class RE2 cannot read as Rust does (a nested class [a[bc]], a class set operation &&, --, ~~, spaces
//   skipped under x, a first "]" as in []-)], a POSIX class as in [[:alpha:])]) is written out as the set regex-syntax makes of
//   it (regexClassSet.ts), in (?-i:...) under the i flag so that RE2 folds no further.
// Anything else RE2 refuses is an error (look-around, backreferences, \Z, \e... which Rust refuses as well); what RE2 takes and Rust
// refuses ("{" as a literal brace, \p{...} without Unicode mode, unknown escapes) is found by rustRegexRefusal first.
//
// A pattern is read once (readRegex, one pass): the reading gives Rust's refusal of its syntax, the RE2 text, and a tree whose nodes
// carry their nest depth, NFA states and RE2 repetition product, from which the nest and size checks and the split of counted
// repetitions over RE2's 1 000 are derived. No other code here reads regex syntax.
import { RE2JS } from 're2js';
import { jsProperty, untabledReading, untabledValueList } from './unicodeNames';
import { ASCII_CLASSES, asciiFold, classText, codeSet, type CodeSet, difference, intersect, negate, re2Spells, symmetricDifference, unicodeFold, unicodePerlClass, unicodeProperty } from './regexClassSet';
import { headOf, utf8Length } from '../../text';

/** A regex node: an atom (a character, escape, class, assertion or flag group as RE2 text; `cls` a bracketed class, its nest depth Rust's;
 * `states` 0 for an assertion or a flag group), a group with its alternatives (`open` its RE2 opening), or a repetition (`max` -1:
 * unbounded; `op` "{" for a counted one; `q` its RE2 quantifier, `text` as written, at `at` in the pattern). Each carries `depth`
 * (regex-syntax's nest depth), `states` (a lower bound of the NFA the platform builds, in STATE_BYTES units, a byte's state: a
 * class counts more (setStates), so do a repetition's union states and a group's captures) and `product` (the largest product of
 * counted repetitions nested in it, as RE2 multiplies them), computed as it is read. */
type RxNode = (
  | { k: 'atom'; re2: string; cls: boolean; depth: number; states: number; product: number; flags?: string }
  | { k: 'group'; open: string; alts: RxNode[][]; capture: boolean; depth: number; states: number; product: number; empty: boolean }
  | { k: 'rep'; sub: RxNode; min: number; max: number; op: string; q: string; text: string; at: number; depth: number; states: number; product: number; empty: boolean }
) & { src?: number; out?: number };

/** What one reading of a pattern gives. */
interface RegexRead {
  /** Why regex-syntax (as wirefilter configures it) refuses the syntax as it parses it (what its translation refuses is
   * `translation`); undefined when it does not or RE2 is left to judge. */
  syntax?: string;
  /** Where the syntax refusal's place is (the first "at N" of its message, as an offset in the pattern), when it names one. */
  syntaxAt?: number;
  /** Why regex-syntax's translation refuses it (Unicode mode, a property's name or value, a character past ASCII in a class), and
   * where: said after the parse's refusal and the nest limit (NestLimiter runs between the two), before the size limit. */
  translation?: { why: string; at?: number; length?: number };
  /** What closes the group or class the syntax refusal names as left open at the pattern's end, when that is the refusal (outside
   * the x flag, under which the end may be inside a comment). */
  closer?: ')' | ']';
  /** The top level's alternatives; undefined when the pattern is not well formed, or opens more than 999 groups. */
  tree?: RxNode[][];
  /** The deepest nesting of groups. */
  parens: number;
  /** The pattern in RE2's syntax; a pattern that is invalid stays invalid. */
  re2: string;
  /** The first \b or \B read in Unicode mode, by its offset: a Unicode word boundary on the platform, an ASCII one in RE2. */
  unicodeBoundary?: number;
  /** The first word boundary RE2 has no spelling for (\b{start}, \b{end}, \b{start-half}, \b{end-half}, \<, \>): RE2 reads
   * \b{start} as \b and the literal "{start}", and \< as "<". */
  re2Lacks?: { at: number; text: string };
  /** The first look-around ("(?=", "(?!", "(?<=", "(?<!") or backreference ("\\1"), as written and where: outside a class and a comment;
   * none when an error regex-syntax's parser stops at comes before it (*a(?=b) is a repetition of nothing). */
  lookAround?: { at: number; text: string };
  /** The first Unicode class Rust reads and EdgeKit has no table for (\p{Hyphen}, \p{Age=3.0}), as written and where. */
  untabled?: Untabled;
}

/** A Unicode class Rust reads and EdgeKit has no table for, as written and where: a binary property JavaScript lacks (\p{Hyphen}), or
 * a class by value of Age or a break property (\p{Age=3.0}, `byValue`); `property` its canonical name. */
export interface Untabled { at: number; text: string; property: string; byValue: boolean }

/** The properties read by value that EdgeKit has no table for (unicodeNames.ts UNTABLED), by canonical name. */
const UNTABLED_PROPERTIES = new Set(['Age', 'Grapheme_Cluster_Break', 'Sentence_Break', 'Word_Break']);

/**
 * The places of a regex as messages name them: "at character 7 of the regex" for the offset i (a UTF-16 index), counted from 1 in
 * characters as a reader counts them (😀 is one), where "at 7" was read as a column of the line. A pattern with no character past
 * U+FFFF counts as its index; one with some is counted once, when a place is first named.
 */
export function charPlaces(p: string): (i: number) => string {
  let numbers: Int32Array | undefined;
  const astral = /[\ud800-\udbff]/.test(p);
  return (i: number) => {
    if (!astral) return `at character ${i + 1} of the regex`;
    if (!numbers) {
      numbers = new Int32Array(p.length + 1);
      for (let k = 0, c = 1; k <= p.length; k++) {
        numbers[k] = c;
        // a high surrogate counts with the low one after it; a lone one (a JSON "\ud800" escape) is a character of its own
        const u = p.charCodeAt(k);
        const low = k + 1 < p.length ? p.charCodeAt(k + 1) : 0;
        if (!(u >= 0xd800 && u <= 0xdbff && low >= 0xdc00 && low <= 0xdfff)) c++;
      }
    }
    return `at character ${numbers[Math.min(i, p.length)]} of the regex`;
  };
}
/** One place in `pattern`, as charPlaces names it. */
export const atChar = (pattern: string, i: number): string => charPlaces(pattern)(i);

/** What an untabled class is, for a message: "the binary property Hyphen", "a class by value of Age". */
export const untabledWhat = (c: Untabled): string => (c.byValue ? `a class by value of ${c.property}` : `the binary property ${c.property}`);

/** Escapes regex-syntax 0.8 reads as something (ast/parse.rs parse_escape), beside the ASCII punctuation any of which may be escaped. */
const RUST_ESCAPES = new Set('0123456789xuUpPdswDSWaftnrvAzbB<>');
const MAX_U32 = 4294967295;
const CLASS_ESCAPES = new Set('dswDSW');
const ASSERT_ESCAPES = new Set('bBAz<>');
/** A flag group's "?flags)" or "?flags:" (after its "(", and under (?x) the spaces parse_group skips), within 40 characters. */
const FLAG_GROUP = /\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/y;
/** The flags regex-syntax 0.8's parse_flag knows. */
const RUST_FLAGS = new Set('imsUuxR');
/** A capture group name's first character and the others, beside "_" (is_capture_char: char::is_alphabetic, is_alphanumeric). */
const CAPTURE_FIRST = /^\p{Alphabetic}$/u;
const CAPTURE_NEXT = /^[\p{Alphabetic}\p{N}.[\]]$/u;
/** A named group's opener RE2 takes as written (re2js: an ASCII word, not starting with a digit). */
const RE2_NAMED_GROUP = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>$/;
/**
 * The white space regex-syntax skips (bump_space under the x flag, parse_decimal in any mode): Rust's char::is_whitespace, the
 * White_Space property. Not JavaScript's \s, which has U+FEFF (a format character) and lacks U+0085 (NEL).
 */
const WS = '[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const SPACE = new RegExp(WS);
/** Where the spaces and "#" comments from j end: what regex-syntax's bump_space skips under (?x). */
function spaceEnd(p: string, j: number): number {
  while (j < p.length) {
    if (SPACE.test(p[j])) j++;
    else if (p[j] === '#') while (j < p.length && p[j] !== '\n') j++;
    else break;
  }
  return j;
}

/**
 * The Unicode class \p or \P at i as regex-syntax's parse_unicode_class reads it: its name (in braces, or one letter), its end and
 * whether it has braces. Each step is bump_and_bump_space, so under (?x) spaces and "#" comments are skipped after the "p", after
 * the "{" and after each character of the name (`(?x)\p {L}`, `\p L` and `\p{ L }` are \p{L}); outside (?x) a space is a
 * character (`\p {L}` is the one-letter class " "). `cut`: the end of the regex comes before the letter or the "}"
 * (EscapeUnexpectedEof); `escape`: the letter is a backslash (UnicodeClassInvalid).
 */
function unicodeClassAt(p: string, i: number, x: boolean): { name: string; end: number; braces: boolean } | 'cut' | 'escape' {
  const skip = (j: number): number => (x ? spaceEnd(p, j) : j);
  let j = skip(i + 2);
  if (j >= p.length) return 'cut';
  if (p[j] === '{') {
    let name = '';
    for (j = skip(j + 1); j < p.length && p[j] !== '}'; ) {
      const ch = String.fromCodePoint(p.codePointAt(j)!);
      name += ch;
      j = skip(j + ch.length);
    }
    return j >= p.length ? 'cut' : { name, end: j + 1, braces: true };
  }
  if (p[j] === '\\') return 'escape';
  const ch = String.fromCodePoint(p.codePointAt(j)!);
  return { name: ch, end: j + ch.length, braces: false };
}

/**
 * The hex brace from the "{" at `open`: its digits, its end (after the "}") and whether spaces stand in it; undefined when
 * something other than a hex digit or a space comes before a "}". parse_hex_brace reads each digit and the "}" with
 * bump_and_bump_space: under (?x) spaces and "#" comments are skipped. Outside (?x) spaces are skipped here too, for the caller to
 * say that regex-syntax refuses them (EscapeHexInvalidDigit), where RE2 takes "\x{ 41 }".
 */
function hexBrace(p: string, open: number, x: boolean): { digits: string; end: number; spaced: boolean } | undefined {
  let digits = '', spaced = false;
  for (let j = open + 1; j < p.length;) {
    const k = x ? spaceEnd(p, j) : SPACE.test(p[j]) ? j + 1 : j;
    if (k > j) { spaced = true; j = k; continue; }
    if (p[j] === '}') return { digits, end: j + 1, spaced };
    if (!/[0-9A-Fa-f]/.test(p[j])) return undefined;
    digits += p[j++];
  }
  return undefined;
}

/** The hex digits each of \x, \u and \U takes without braces. */
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * The hex escape at i (\x, \u, \U) as regex-syntax's parse_hex reads it: its digits, its end, whether it has braces and whether
 * spaces stand in them; undefined when it is malformed (a digit missing or not hex, braces unclosed or holding something else).
 * Under (?x) each step is bump_and_bump_space, which skips spaces and "#" comments: after the letter ((?x)\x {41}, \u 0041) and
 * after each of the fixed digits (parse_hex_digits: (?x)\x4 1 is \x41).
 */
function hexRead(p: string, i: number, x: boolean): { digits: string; end: number; brace: boolean; spaced: boolean } | undefined {
  let j = x ? spaceEnd(p, i + 2) : i + 2;
  if (p[j] === '{') {
    const b = hexBrace(p, j, x);
    return b && b.digits !== '' ? { ...b, brace: true, spaced: b.spaced || j > i + 2 } : undefined;
  }
  let digits = '';
  for (let k = 0; k < HEX_DIGITS[p[i + 1]]; k++, j = x ? spaceEnd(p, j + 1) : j + 1) {
    if (!/[0-9A-Fa-f]/.test(p[j] ?? '')) return undefined;
    digits += p[j];
  }
  return { digits, end: j, brace: false, spaced: false };
}

/**
 * The counted repetition from the "{" at i, as regex-syntax's parse_counted_repetition and parse_decimal read it: its end (after the
 * "}"), its minimum and maximum as their digits ('' for none) and whether it has a comma; undefined where regex-syntax finds no count
 * (RepetitionCountUnclosed, or a comma followed by something other than a number or "}"). parse_decimal trims spaces around a number
 * in any mode; under (?x) "{", ",", each digit and each trailing space are read with bump_and_bump_space, so spaces and "#" comments
 * may stand anywhere inside the braces, between the digits too ((?x)a{1 2} is a{12}). Read by hand, not by a regular expression:
 * a run of spaces after "{" is read once (a pattern such as \{\s*(\d*)\s* tries every split of it, quadratic in its length).
 */
function readCount(p: string, i: number, x: boolean): { end: number; lo: string; comma: boolean; hi: string } | undefined {
  const n = p.length;
  const skip = (j: number): number => (x ? spaceEnd(p, j) : j);
  const decimal = (j: number): { j: number; digits: string } => {
    while (j < n && SPACE.test(p[j])) j++;
    let digits = '';
    for (; j < n && p[j] >= '0' && p[j] <= '9'; j = skip(j + 1)) digits += p[j];
    while (j < n && SPACE.test(p[j])) j = skip(j + 1);
    return { j, digits };
  };
  const lo = decimal(skip(i + 1));
  let j = lo.j, comma = false, hi = '';
  if (p[j] === ',') {
    comma = true;
    j = skip(j + 1);
    if (j < n && p[j] !== '}') {
      const b = decimal(j);
      if (b.digits === '') return undefined;
      ({ j, digits: hi } = b);
    }
  }
  return p[j] === '}' ? { end: j + 1, lo: lo.digits, comma, hi } : undefined;
}
/** An ASCII class inside a class, [:name:] or [:^name:] (maybe_parse_ascii_class: a name it does not know opens a nested class). */
const POSIX_CLASS = /\[:(\^?)([a-z]{0,8}):\]/y;
/** The escapes of a control character (parse_escape). */
const ESCAPED_CONTROLS: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
/** The Perl class escapes' letters (\d \s \w and their negations), which Unicode mode changes. */
const PERL_CLASS = /^[dswDSW]$/;
/** The ones RE2 reads differently from Rust without Unicode mode too: RE2's \s lacks \v, Rust's ASCII \s ([[:space:]]) has it. */
const ASCII_DIFFERENT = /^[sS]$/;
/** Whether the class escape at p[i] ("\d", "\s", ...) must be written out as its set for RE2 to read it as Rust does. */
const writtenOut = (p: string, i: number, unicode: boolean, x: boolean): boolean => {
  if (p[i + 1] !== 'p' && p[i + 1] !== 'P') return (unicode ? PERL_CLASS : ASCII_DIFFERENT).test(p[i + 1]);
  // A Unicode class RE2 does not spell as Rust regex does (\p{greek}, \p{Letter}, \p{Script=Greek}, \p{Alphabetic}): its set
  const c = unicodeClassAt(p, i, x);
  return typeof c === 'object' && !re2Spells(c.name) && jsProperty(c.name) !== undefined;
};

/** A class's set cannot be computed (a malformed escape, a \p{..} JavaScript's tables do not know): it is passed as written. */
class Uncomputed extends Error {}

function sticky(re: RegExp, s: string, i: number, most = Infinity): RegExpExecArray | null {
  re.lastIndex = i;
  const m = re.exec(s);
  return m && m[0].length <= most ? m : null;
}

/**
 * The size, in states of a byte's size, of what matches a class of two or more characters: at least twice a byte's (a sparse
 * state: [ab]{N} is 72 bytes a copy, \w{N} 96, a{N} 32; regex-automata 0.4 as wirefilter configures it, measured).
 */
const CLASS_STATES = 2;
/** The bytes, what a class out of Unicode mode holds. */
const BYTES = codeSet([0, 0xff]);

/**
 * The states of a class from its set: one for a single character; for more, a sparse state of 64 bytes and 8 for each of its ranges
 * ([a-z0-9]{N} is 80 bytes a copy, \w{N} 96), at the least: each range is a transition of its own, past ASCII one of the UTF-8
 * automaton regex-automata builds ((?u)\w{N} is 20 641 bytes a copy, its 700-odd ranges counted 180 states here).
 */
function setStates(all: CodeSet, unicode: boolean): number {
  // Out of Unicode mode a class is of bytes (ClassBytes): a negated one ends at \xFF, not split by the surrogates past it (\S is
  // 3 ranges, 88 bytes a copy, not 4)
  const set = unicode ? all : intersect(all, BYTES);
  if (set.length === 0 || (set.length === 2 && set[1] === set[0])) return 1;
  return CLASS_STATES + Math.floor(set.length / 2 / 4);
}

/** The states of a literal character: one per byte of its UTF-8 (é{N} is 64 bytes a copy), a class of two under (?i) for a letter
 * ((?i)a is [Aa], 80 bytes; measured). */
function literalStates(ch: string, caseless: boolean): number {
  if (ch === '.') return CLASS_STATES;
  const bytes = utf8Length(ch);
  return caseless && /^[A-Za-z]$/.test(ch) ? CLASS_STATES : bytes;
}

/** The states of a class (setStates); `least` when its set is not computed (a malformed escape, a \p{..} JavaScript's tables do not
 * know: Uncomputed). */
function classStates(set: (() => CodeSet) | undefined, least: number, unicode: boolean): number {
  if (!set) return least;
  try {
    return setStates(set(), unicode);
  } catch (err) {
    if (err instanceof Uncomputed) return least;
    throw err;
  }
}

function atom(re2: string, states: number, cls = false): RxNode {
  return { k: 'atom', re2, cls, depth: cls ? 1 : 0, states, product: 1, flags: undefined, src: 0, out: 0 };
}

/** How many times a repetition's NFA holds what it repeats (regex-automata's Thompson compiler): x{m,n} n times (m, then n-m
 * optional), x{m,} m times (at least once), x*, x+ and x? once. */
const copies = (n: { min: number; max: number }): number => (n.max >= 0 ? n.max : Math.max(n.min, 1));
/** The union states a repetition adds to them (c_bounded, c_at_least, c_zero_or_one): one for each optional copy of x{m,n}, one
 * for the loop of x{m,} (x*, x+), one for x?. */
const unions = (n: { min: number; max: number }): number => (n.max >= 0 ? n.max - n.min : 1);

/** Whether the node can only match the empty string: an assertion, a flag group, a group of such alone (a capturing one, an
 * alternation: (^), (?:^|\b)), a repetition of such or none ({0}); `empty`, computed as a group or repetition is read. */
const onlyEmpty = (n: RxNode): boolean => (n.k === 'atom' ? n.states === 0 : n.empty);

function rep(sub: RxNode, min: number, max: number, op: string, q: string, text: string, at: number): RxNode {
  // What can only match the empty string (an assertion, a flag group, an empty group, (^), (?:^|\b)) is repeated at most once, as
  // regex-syntax's Hir::repetition forces ("If the sub-expression of a repetition can only match the empty string, then we force its
  // maximum to be at most 1"): (?:){4294967295} is (?:){1}, not four million RE2 copies of nothing
  if (op === '{' && (max < 0 || max > 1 || min > 1) && onlyEmpty(sub)) {
    min = Math.min(min, 1);
    max = max < 0 ? 1 : Math.min(max, 1);
    q = `{${min === max ? min : `${min},${max}`}}${q.endsWith('}?') ? '?' : ''}`;
  }
  const count = op === '{' ? Math.max(max >= 0 ? max : min, 1) : 1;
  const states = copies({ min, max }) * sub.states + (sub.states > 0 ? unions({ min, max }) : 0);
  return { k: 'rep', sub, min, max, op, q, text, at, depth: 1 + sub.depth, states, product: count * sub.product, empty: max === 0 || onlyEmpty(sub), src: 0, out: 0 };
}

/** A group's (or the top level's) measures from its alternatives: regex-syntax's NestLimiter counts an alternation of two or more
 * branches and a concatenation of two or more items one level each; the states of the longest alternative. */
function measure(alts: RxNode[][]): { depth: number; states: number; product: number } {
  let depth = 0, states = 0, product = 1;
  for (const s of alts) {
    let d = 0, sum = 0;
    for (const x of s) { d = Math.max(d, x.depth); sum += x.states; product = Math.max(product, x.product); }
    depth = Math.max(depth, s.length > 1 ? 1 + d : d);
    states = Math.max(states, sum);
  }
  // An alternation is one union state more; one of characters and classes only is one class (regex-syntax's Hir::alternation):
  // (?:a|a) is "a", (?:[a-z]|[0-9]) [0-9a-z], no larger than its largest alternative nor, past one character, than a class; of
  // two characters or more ((?:a|b)), a class
  const chars = new Set<string>();
  for (const s of alts) for (const n of s) if (n.k === 'atom' && n.flags === undefined && !n.cls && n.re2 !== '.' && [...n.re2].length === 1) chars.add(n.re2);
  const size = alts.length < 2 ? states : !alts.every(oneClass) ? states + 1 : chars.size > 1 ? CLASS_STATES : Math.min(states, CLASS_STATES);
  return { depth: alts.length > 1 ? 1 + depth : depth, states: size, product };
}

/** Whether regex-syntax reads the alternative as one character or class: a flag group aside, a character, an escape or a class that
 * is not an assertion, or a non-capturing group of such alternatives (the groups go, the alternation is a class). */
function oneClass(seq: RxNode[]): boolean {
  const items = seq.filter((n) => !(n.k === 'atom' && n.flags !== undefined));
  if (items.length !== 1) return false;
  const n = items[0];
  return n.k === 'atom' ? n.states > 0 : n.k === 'group' && !n.capture && n.alts.every(oneClass);
}

/**
 * The one reading of a pattern as regex-syntax 0.8, as wirefilter configures it (engine/src/rhs_types/regex/imp_real.rs:
 * unicode(false), utf8(false)), reads it. Its syntax refusal:
 * - an escape of a letter or digit regex-syntax does not know (\Z, \e, \cA, \h, \Q, \k, \0: octal is off, so \0-\9 are
 *   backreferences), \< and \> being assertions; a \b{...} other than start, end, start-half, end-half; \x{...} past U+10FFFF;
 * - "{" is always a counted repetition: {n}, {n,} or {n,m} (n <= m, each at most 2^32-1; spaces around a number, except right
 *   after the comma, which only the x flag allows) after something to repeat; "a{", "{,3}", "/api/{id}" are errors, where RE2
 *   reads a literal brace;
 * - Unicode mode is off unless a (?u) turns it on: \p{...}/\pN is then an error (UnicodeNotAllowed), and so is a character past
 *   ASCII inside a class ([é], [\x{E9}]; \xE9 is a byte there), as class_literal_byte says;
 * - a class range cannot start or end with a class (\d-z), nor go down (z-a);
 * - a flag group needs a flag ("(?)"), a "-" a flag after it ("(?i-)"), and no flag or "-" comes twice ("(?ii)", "(?i-m-s)"); a
 *   letter that is no flag ("(?z)", "(?#...)") and the end of the regex inside the flags are refused;
 * - a capture group's name is not empty, made of the characters is_capture_char takes, closed by ">" and not used twice;
 * - a group is closed, a ")" closes one, a class is closed, and "*", "+", "?" follow something to repeat.
 * Each refusal names the place, as regex-syntax's error span does, and the first in reading order is kept (regex-syntax stops at
 * its first error). The RE2 text is written as the pattern is read; the tree is built with it.
 */
function readRegex(p: string): RegexRead {
  const n = p.length;
  let syntax: string | undefined;
  let syntaxAt: number | undefined;
  // A refusal's place is the first one its message names (at() notes it as the message is written, refuse() takes it), or the
  // one refuse() is given. regex-syntax parses the whole regex before it translates it (hir/translate.rs: Unicode mode, property
  // names), so a `translated` refusal is said only when the parse refuses nothing, wherever each is ("\pL(": the group), and
  // after the nest limit (RegexRead.translation)
  let firstPlace: number | undefined;
  let closer: ')' | ']' | undefined;
  // A group or class still open at the end: the refusal, when it is the first one, has its closer (RegexRead.closer); not under
  // the x flag anywhere, where the end may be inside a comment
  const unclosed = (why: string, close: ')' | ']'): void => { if (syntax === undefined && !xSeen) closer = close; refuse(why); };
  let translated: { why: string; at?: number; length?: number } | undefined;
  // `length`: of a translation refusal's place, when it is more than a character (a Unicode class: regex-syntax's span)
  const refuse = (why: string, place?: number, translation = false, length?: number): void => {
    if (translation) translated ??= { why, at: place ?? firstPlace, length };
    else if (syntax === undefined) { syntax = why; syntaxAt = place ?? firstPlace; }
    firstPlace = undefined;
  };
  const place = charPlaces(p);
  // The first place a message names says "of the regex"; a second one in it is "at character 5" (its substitutions run in order)
  const at = (i: number) => {
    const first = firstPlace === undefined;
    firstPlace ??= i;
    return first ? place(i) : place(i).replace(/ of the regex$/, '');
  };
  let wellFormed = true;
  let x = false, u = false, iFlag = false, xSeen = false;
  // A class's size is read from its set (folded under (?i), which takes time) only where the size check looks at it
  const sized = sizeChecked(p);
  // The RE2 text, in pieces; opens[k]: how many "(?:" go before piece k (a stacked repetition's operand starts there)
  const out: string[] = [];
  const opens = new Map<number, number>();
  interface Frame { x: boolean; u: boolean; iFlag: boolean; alts: RxNode[][]; open: string; capture: boolean; src: number; out: number }
  const frames: Frame[] = [];
  let alts: RxNode[][] = [[]];
  let parens = 0;
  let canRepeat = false;
  // The capture groups' names, each with where its group opens (a name used twice is refused)
  const captureNames = new Map<string, number>();
  // Where each item of the current sequence starts, in the pattern and in the RE2 pieces (for a stacked repetition's group)
  const seq = (): RxNode[] => alts[alts.length - 1];
  const push = (node: RxNode, src: number, outAt: number): void => { node.src = src; node.out = outAt; seq().push(node); };
  let unicodeBoundary: number | undefined;
  let re2Lacks: { at: number; text: string } | undefined;
  let lookAround: { at: number; text: string } | undefined;
  let untabled: Untabled | undefined;
  let untabledSeen = 0; // how many untabled classes have been read

  /** A repetition of the sequence's last item (`q` its RE2 quantifier, `text` as written, from `i` to `end`). */
  const repeat = (min: number, max: number, op: string, q: string, i: number, end: number): void => {
    const s = seq();
    const sub = s.pop()!;
    const where = { src: sub.src!, out: sub.out! };
    if (sub.k === 'rep') {
      // Rust takes a repetition of a repetition (a**: parse_*_repetition refuse only a repetition of nothing), RE2 does not
      opens.set(where.out, (opens.get(where.out) ?? 0) + 1);
      out.push(')');
    } else if (sub.k === 'atom' && sub.states === 0 && !sub.cls && sub.flags === undefined) {
      // A repetition of an assertion (^+, $?, \b*), which Rust and RE2 take: the assertion in a group, (?:^)+, in the RE2 text
      opens.set(where.out, (opens.get(where.out) ?? 0) + 1);
      out.push(')');
    }
    out.push(q);
    push(rep(sub, min, max, op, q, p.slice(i, end), i), where.src, where.out);
  };

  /** An escape at i (p[i] is "\"): its end, its RE2 text and what it is. */
  const escape = (i: number, inClass: boolean): { end: number; re2: string; kind: 'char' | 'class' | 'assert' } | undefined => {
    const e = p[i + 1];
    if (e === undefined) { refuse(`it ends with a lone backslash ${at(i)}, which escapes nothing ("incomplete escape sequence, reached end of pattern prematurely"); write \\\\ for a backslash`); return undefined; }
    const ec = e.charCodeAt(0);
    if (ec >= 49 && ec <= 57 && syntax === undefined) lookAround ??= { at: i, text: p.slice(i, i + 2) };
    if (ec >= 48 && ec <= 57) refuse(`"\\${e}" ${at(i)} is a backreference, which Rust regex does not support (octal escapes are off)`);
    else if (((ec | 32) >= 97 && (ec | 32) <= 122 || e === '<' || e === '>') && !RUST_ESCAPES.has(e)) refuse(`"\\${e}" ${at(i)} is no escape in Rust regex`);
    else if (e === 'p' || e === 'P') {
      // Cut off, or an escape for its letter: parse_unicode_class's errors (EscapeUnexpectedEof, UnicodeClassInvalid)
      const eof = '("incomplete escape sequence, reached end of pattern prematurely")';
      const c = unicodeClassAt(p, i, x);
      if (c === 'cut' && spaceEnd(p, i + 2) >= n) {
        refuse(`"${headOf(p.slice(i), 24)}" ${at(i)} is cut off by the end of the regex before its name ${eof}`);
        return { end: n, re2: p.slice(i), kind: 'class' };
      }
      if (c === 'cut') {
        refuse(`"${headOf(p.slice(i), 24)}" ${at(i)} is cut off by the end of the regex before its "}" ${eof}`);
        return { end: n, re2: p.slice(i), kind: 'class' };
      }
      if (c === 'escape') {
        const slash = p.indexOf('\\', i + 2);
        refuse(`"${p.slice(i, slash + 1)}" ${at(i)}: a Unicode class is named by a letter (\\pL) or in braces (\\p{Greek}), not by an escape ("invalid Unicode character class")`);
        return { end: slash, re2: p.slice(i, i + 2), kind: 'class' };
      }
      const { name, end } = c;
      const text = p.slice(i, end);
      // RE2's spelling: the name without what (?x) skips (\p {L} is \p{L})
      const re2 = c.braces ? `\\${e}{${name}}` : `\\${e}${name}`;
      if (!u) refuse(`the Unicode class "${text}" ${at(i)} needs Unicode mode, which the platform's regexes run without: start the regex with (?u)`, undefined, true, end - i);
      // A name regex-syntax does not find
      if (u && !jsProperty(name)) {
        const byValue = untabledReading(name);
        if (!byValue) {
          refuse(`"${text}" ${at(i)} names no Unicode property Rust regex knows: a general category (L, Letter, Lu), a script (Greek), a binary property (Alphabetic) or a form such as Script=Greek; case, spaces, "_" and "-" do not count`, undefined, true, end - i);
        } else if (byValue.kind === 'untabled') {
          // Rust reads it (\p{Hyphen}, \p{Age=3.0}, \p{wb=LE}); JavaScript and RE2 have no table for it, so EdgeKit does not run it:
          // RE2 is given a character in its place, to judge the rest of the pattern (Test Rules refuses to run it: untabled)
          untabled ??= { at: i, text, property: byValue.property, byValue: byValue.byValue };
          untabledSeen++;
          return { end, re2: '\\x{10FFFF}', kind: 'class' };
        } else if (byValue.kind === 'no-value') {
          refuse(byValue.binary
            ? `"${text}" ${at(i)}: ${byValue.property} takes no value in Rust regex; write \\p{${byValue.property}} ("Unicode property value not found")`
            : byValue.noSet ? `"${text}" ${at(i)}: "${byValue.value}" is a value of ${byValue.property} Rust regex has no class for ("Unicode property value not found")`
            : `"${text}" ${at(i)}: "${byValue.value}" is no value of ${byValue.property} Rust regex knows ("Unicode property value not found")${UNTABLED_PROPERTIES.has(byValue.property) ? `; its values: ${untabledValueList(byValue.property)}` : ''}`, undefined, true, end - i);
        } else {
          refuse(`"${text}" ${at(i)} names no property Rust regex reads by value: General_Category (gc), Script (sc), Script_Extensions (scx), Age, Grapheme_Cluster_Break (gcb), Sentence_Break (sb) or Word_Break (wb) ("Unicode property not found", or "Unicode property value not found" of a property it knows without values, such as Bidi_Class)`, undefined, true, end - i);
        }
      }
      return { end, re2, kind: 'class' };
    } else if (e === 'x' || e === 'u' || e === 'U') return hexEscape(i, e, inClass);
    else if (e === 'b' && p[i + 2] === '{') {
      // maybe_parse_special_word_boundary: the "{" right after \b, then (bump_and_bump_space: under (?x) spaces and "#" comments
      // skipped after "{", after each letter) a name of [-A-Za-z] closed by "}"; no letter first leaves "{" to a counted repetition
      const skip = (j: number): number => (x ? spaceEnd(p, j) : j);
      let j = skip(i + 3), name = '';
      if (/^[A-Za-z-]/.test(p[j] ?? '')) {
        for (; j < n && /^[A-Za-z-]/.test(p[j]); j = skip(j + 1)) name += p[j];
        if (p[j] !== '}') {
          refuse(`"${headOf(p.slice(i), 24)}" ${at(i)} has no closing "}" (a word boundary Rust regex knows is \\b{start}, \\b{end}, \\b{start-half} or \\b{end-half})`);
          return { end: i + 2, re2: '\\b', kind: 'assert' };
        }
        if (!['start', 'end', 'start-half', 'end-half'].includes(name)) refuse(`"\\b{${name}}" ${at(i)} is no word boundary Rust regex knows (start, end, start-half, end-half)`);
        return { end: j + 1, re2: `\\b{${name}}`, kind: 'assert' };
      }
    } else if (ec > 0x7f) refuse(`"\\${String.fromCodePoint(p.codePointAt(i + 1)!)}" ${at(i)}: only ASCII punctuation can be escaped in Rust regex`);
    const end = i + (ec >= 0xd800 && ec <= 0xdbff ? 3 : 2);
    return { end, re2: p.slice(i, end), kind: CLASS_ESCAPES.has(e) ? 'class' : ASSERT_ESCAPES.has(e) ? 'assert' : 'char' };
  };

  /** \xHH, \x{H...}, \uHHHH, \u{H...}, \UHHHHHHHH, \U{H...}: RE2 writes them all \x{...}. */
  const hexEscape = (i: number, e: string, inClass: boolean): { end: number; re2: string; kind: 'char' } => {
    const h = hexRead(p, i, x);
    if (!h) {
      // Malformed: refused here, where it is (RE2 read what follows it as its digits: \xa(?-x)0 is \xa0 once the flag group is
      // dropped, and went on to take a "{" Rust refuses after it); a brace is skipped whole
      const close = p[i + 2] === '{' ? p.indexOf('}', i + 3) : -1;
      const end = close < 0 ? i + 2 : close + 1;
      const shown = p.slice(i, close >= 0 ? end : p[i + 2] === '{' ? n : i + 2 + HEX_DIGITS[e]);
      refuse(`"${headOf(shown, 24)}" ${at(i)} is no hex escape Rust regex reads: \\${e} takes ${HEX_DIGITS[e]} hex digits (${e === 'x' ? '\\x41' : e === 'u' ? '\\u0041' : '\\U00000041'}) or one or more in braces (\\${e}{41})`);
      return { end, re2: p.slice(i, end), kind: 'char' };
    }
    // Outside (?x) a brace holds hex digits only (parse_hex_brace: EscapeHexInvalidDigit), where RE2 takes "\x{ 41 }"
    if (h.spaced && !x) refuse(`"${p.slice(i, h.end)}" ${at(i)} has a space inside its braces, where Rust regex takes hex digits only (spaces only with the x flag)`);
    const { digits, end, brace } = h;
    const cp = parseInt(digits, 16);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) refuse(`"\\${e}{${digits}}" ${at(i)} is no Unicode scalar value`);
    if (inClass && !u && cp > 0x7f && !(e === 'x' && !brace)) refuse(`"${p.slice(i, end)}" ${at(i)} is past ASCII inside a class, which needs Unicode mode (the platform's regexes run without it): start the regex with (?u), or write the byte as \\x${digits.padStart(2, '0').slice(-2)}`, undefined, true);
    return { end, re2: e === 'x' && !brace ? `\\x${digits}` : `\\x{${digits}}`, kind: 'char' };
  };

  /**
   * A group opened with "(" at i and "?" at q (i + 1, or past spaces and comments under (?x)), as parse_group, parse_capture_name
   * and parse_flags refuse it, in their order: a capture group's name ((?P<name> or (?<name>: empty, a character no name takes, no
   * ">", a name used before) or flags up to ":" or ")" (a letter no flag, none before ")", a flag or "-" twice, a "-" last, the end
   * of the regex first). A look-around is said elsewhere.
   */
  const groupRefusal = (i: number, q: number): void => {
    if (q + 1 >= n) { refuse(`the group opened ${at(i)} is not closed ("unclosed group")`); return; }
    const named = p.startsWith('?P<', q) ? q + 3 : p.startsWith('?<', q) && p[q + 2] !== '=' && p[q + 2] !== '!' ? q + 2 : -1;
    if (named >= 0) {
      let k = named;
      for (; k < n && p[k] !== '>'; ) {
        const ch = String.fromCodePoint(p.codePointAt(k)!);
        if (!(ch === '_' || (k === named ? CAPTURE_FIRST : CAPTURE_NEXT).test(ch))) {
          refuse(`"${ch}" ${at(k)} cannot be in the capture group name: a name starts with a letter or "_", then letters, digits, "_", ".", "[" or "]" ("invalid capture group character")`);
          return;
        }
        k += ch.length;
      }
      if (k >= n) {
        refuse(named >= n ? `the capture group opened ${at(i)} is cut off by the end of the regex before its name ("unclosed capture group name")`
          : `the capture group name ${at(named)} is not closed by ">" ("unclosed capture group name")`);
        return;
      }
      if (k === named) { refuse(`the capture group ${at(i)} has an empty name ("empty capture group name")`); return; }
      const name = p.slice(named, k);
      const first = captureNames.get(name);
      if (first !== undefined) refuse(`the capture group name "${name}" ${at(named)} is the name of the group ${at(first)} too ("duplicate capture group name")`);
      else captureNames.set(name, i);
      return;
    }
    const seen = new Set<string>();
    let k = q + 1;
    // The group as written, to its ":" or ")"
    const group = (): string => { let e = k; while (e < n && p[e] !== ':' && p[e] !== ')') e++; return `"${p.slice(i, Math.min(e + 1, n))}"`; };
    for (; k < n && p[k] !== ':' && p[k] !== ')'; k++) {
      const d = p[k];
      if (d !== '-' && !RUST_FLAGS.has(d)) {
        const ch = String.fromCodePoint(p.codePointAt(k)!);
        refuse(`"${ch}" ${at(k)} in ${group()} is no flag Rust regex knows: i, m, s, U, u, x or R ("unrecognized flag")${
          k === q + 1 && d === '#' ? '; Rust regex has no (?#...) comments: under (?x) a "#" starts a comment to the end of the line'
            : k === q + 1 && d === 'P' && (p[k + 1] === '=' || p[k + 1] === '>') ? `; a named ${p[k + 1] === '=' ? 'backreference (?P=name)' : 'recursion (?P>name)'} is not supported by Rust regex` : ''}`, k);
        return;
      }
      if (seen.has(d)) {
        const g = `${group()} ${at(i)}`;
        refuse(d === '-' ? `${g} repeats the "-" ${at(k)}, which Rust regex refuses ("flag negation operator repeated")`
          : `${g} repeats the flag "${d}" ${at(k)}, which Rust regex refuses ("duplicate flag")`, k);
        return;
      }
      seen.add(d);
    }
    if (k >= n) { refuse(`"${p.slice(i, k)}" ${at(i)} is cut off by the end of the regex: Rust regex expects more flags, ":" or ")" ("expected flag but got end of regex")`); return; }
    if (seen.size === 0 && p[k] === ')') refuse(`${group()} ${at(i)} has no flags, which Rust regex refuses ("repetition operator missing expression")`);
    else if (p[k - 1] === '-') refuse(`${group()} ${at(i)} ends with "-" ${at(k - 1)}, which Rust regex refuses ("dangling flag negation operator")`, k - 1);
  };

  /** The code point an escape inside a class stands for (from `i` to `end`); undefined for a malformed hex escape (RE2 judges it). */
  const escapedChar = (i: number, end: number): number | undefined => {
    const e = p[i + 1];
    if (e === 'x' || e === 'u' || e === 'U') {
      const h = hexRead(p, i, x);
      return h && h.end === end ? parseInt(h.digits, 16) : undefined;
    }
    return ESCAPED_CONTROLS[e] ?? p.codePointAt(i + 1);
  };

  /** A set case-folded under the i flag: ASCII's folding without Unicode mode, Unicode's simple folding with it. */
  const caseFold = (s: CodeSet, caseless: boolean, unicodeMode: boolean): CodeSet => (!caseless ? s : unicodeMode ? unicodeFold(s) : asciiFold(s));

  /** The set a class escape (\d, \W, \p{Greek}, \PL) stands for, in the current mode (regexClassSet.ts). */
  const escapedClass = (i: number, end: number): (() => CodeSet) => {
    const e = p[i + 1], lower = e.toLowerCase();
    const negated = e !== lower, unicodeMode = u, caseless = iFlag;
    const cls = lower === 'p' ? unicodeClassAt(p, i, x) : undefined;
    return () => {
      let set: CodeSet | undefined;
      if (lower === 'p') {
        set = typeof cls === 'object' && cls.end === end ? unicodeProperty(cls.name) : undefined;
        if (!set) throw new Uncomputed();
      } else if (unicodeMode) set = unicodePerlClass(lower as 'd' | 's' | 'w');
      else set = ASCII_CLASSES[{ d: 'digit', s: 'space', w: 'word' }[lower]!];
      // \P{..} is folded before it is negated (hir_unicode_class); \D, \S, \W need no folding (closed under it)
      return negated ? negate(lower === 'p' ? caseFold(set, caseless, unicodeMode) : set) : set;
    };
  };

  /**
   * A class from the "[" at i, read as regex-syntax's parse_set_class reads one: nested classes, [:name:] (a name it knows; another
   * opens a nested class), the set operations &&, -- and ~~ (left to right, of one precedence), ranges (a "-" before "]" or "-" is a
   * literal), and under (?x) spaces and comments skipped between items (bump_space, peek_space). A class RE2 and JavaScript read as
   * Rust does (no nested class, no set operation, nothing skipped, no first "]", no POSIX class) is passed as written; any other
   * is written out as the set regex-syntax computes (hir/translate.rs: (?i) folds each operand before an operation and each class
   * before its negation), when it can be.
   */
  const bracketed = (i: number): number => {
    const outAt = out.length;
    const untabledBefore = untabledSeen;
    let text = ''; // as written, spaces and comments dropped: a flat class's RE2 text
    let computed = false;
    const unicodeMode = u, caseless = iFlag;
    interface Level { start: number; negated: boolean; items: (() => CodeSet)[]; depth: number; op?: { kind: string; lhs: () => CodeSet; depth: number } }
    const stack: Level[] = [];
    const fold = (s: CodeSet): CodeSet => caseFold(s, caseless, unicodeMode);
    const unionOf = (items: (() => CodeSet)[]) => () => codeSet(items.flatMap((item) => item()));
    // regex-syntax's nest depth of a union (ClassSetUnion::into_item: one item is the item itself)
    const unionDepth = (l: Level) => (l.items.length > 1 ? 1 + l.depth : l.depth);
    const setOf = (l: Level): { set: () => CodeSet; depth: number } => {
      const rhs = unionOf(l.items);
      if (!l.op) return { set: rhs, depth: unionDepth(l) };
      const { kind, lhs } = l.op;
      const f = () => {
        const a = fold(lhs()), b = fold(rhs());
        return kind === '&' ? intersect(a, b) : kind === '-' ? difference(a, b) : symmetricDifference(a, b);
      };
      return { set: f, depth: 1 + Math.max(l.op.depth, unionDepth(l)) };
    };
    let j = i;
    const skip = (): void => {
      if (!x) return;
      const from = j;
      j = spaceEnd(p, j);
      if (j > from) computed = true;
    };
    // What follows the "-" at k, spaces and comments skipped under (?x) (peek_space: in a comment, its first non-space)
    const peekSpace = (k: number): string | undefined => {
      if (!x) return p[k + 1];
      let m = k + 1, comment = false;
      for (; m < n; m++) {
        if (SPACE.test(p[m])) continue;
        if (!comment && p[m] === '#') { comment = true; continue; }
        break;
      }
      return m < n ? p[m] : p[k + 1];
    };
    const literal = (c: number) => () => [c, c] as CodeSet;
    // parse_set_class_open: "[", "^", then "-"s and a first "]" as literals
    const open = (): void => {
      const start = j;
      text += '[';
      j++;
      skip();
      let negated = false;
      if (p[j] === '^') { negated = true; text += '^'; j++; skip(); }
      const level: Level = { start, negated, items: [], depth: 0 };
      while (p[j] === '-') { level.items.push(literal(0x2d)); text += '-'; j++; skip(); }
      // Each leading "-" is a literal, where RE2 reads "[--0]" as a range from "-"
      if (level.items.length > 1) computed = true;
      // A first "]" is a literal, which JavaScript reads as the end of an empty class ([](] opened a group for it) and RE2 as the
      // start of a range ([]-)] goes down for it; Rust's "]", "-" or ")"): the class is written out as its set
      if (level.items.length === 0 && p[j] === ']') { level.items.push(literal(0x5d)); text += ']'; j++; skip(); computed = true; }
      stack.push(level);
    };
    // parse_set_class_item: an escape or a character, with its set
    const item = (): { set: () => CodeSet; cp?: number; start: number } | undefined => {
      const start = j;
      if (p[j] === '\\') {
        const r = escape(j, true);
        if (!r) return undefined;
        // An assertion is no item of a class (into_class_set_item: ClassEscapeInvalid, "invalid escape sequence found in character class"),
        // refused once the class goes on after it, or after the range it starts (parse_set_class_range checks the end of the regex
        // first): assertion
        if (r.kind === 'assert') assertion ??= { at: j, text: p.slice(j, r.end) };
        text += r.re2;
        j = r.end;
        if (r.kind === 'class') {
          // Under (?u), \d, \s, \w are Unicode's, which RE2's are not (and RE2's \s lacks \v): the class is written out as its set
          if (writtenOut(p, start, u, x)) computed = true;
          return { set: escapedClass(start, r.end), start };
        }
        const cp = escapedChar(start, r.end);
        return { set: cp === undefined ? () => { throw new Uncomputed(); } : literal(cp), cp: cp ?? -1, start };
      }
      const cp = p.codePointAt(j)!;
      const ch = String.fromCodePoint(cp);
      if (cp > 0x7f && !u) refuse(`"${ch}" ${at(j)} is past ASCII inside a class, which needs Unicode mode (the platform's regexes run without it): start the regex with (?u)`, undefined, true);
      text += ch;
      j += ch.length;
      return { set: literal(cp), cp, start };
    };
    let result: { set: () => CodeSet; depth: number } | undefined;
    let assertion: { at: number; text: string } | undefined;
    const refuseAssertion = (): void => {
      if (assertion) refuse(`"${assertion.text}" ${at(assertion.at)} is an assertion, which Rust regex refuses inside a class ("invalid escape sequence found in character class")`);
      assertion = undefined;
    };
    open();
    while (result === undefined) {
      skip();
      if (j >= n) break; // unclosed: RE2 says so
      const d = p[j];
      const top = stack[stack.length - 1];
      if (d === '[') {
        const posix = sticky(POSIX_CLASS, p, j);
        const named = posix ? ASCII_CLASSES[posix[2]] : undefined;
        if (posix && named) {
          // [:^name:] is folded before it is negated (hir_ascii_*_class: fold_and_negate)
          top.items.push(posix[1] ? () => negate(fold(named)) : () => named);
          text += posix[0];
          j += posix[0].length;
          // JavaScript reads "[[:alpha:]" as a class and the rest as outside it ([[:alpha:])] had an unmatched ")"): written out
          computed = true;
        } else {
          computed = true;
          open();
        }
        continue;
      }
      if (d === ']') {
        text += ']';
        j++;
        const { set, depth } = setOf(top);
        const closed = () => { const s = fold(set()); return top.negated ? negate(s) : s; };
        stack.pop();
        const parent = stack[stack.length - 1];
        if (!parent) result = { set: closed, depth: 1 + depth };
        else { parent.items.push(closed); parent.depth = Math.max(parent.depth, 1 + depth); }
        continue;
      }
      if ((d === '&' || d === '-' || d === '~') && p[j + 1] === d) {
        computed = true;
        text += d + d;
        j += 2;
        const lhs = setOf(top);
        top.op = { kind: d, lhs: lhs.set, depth: lhs.depth };
        top.items = [];
        top.depth = 0;
        continue;
      }
      // parse_set_class_range: an item, or two and the "-" between them
      const a = item();
      if (!a) break;
      const aEnd = j;
      skip();
      if (j >= n) break;
      if (p[j] !== '-' || peekSpace(j) === ']' || peekSpace(j) === '-') { refuseAssertion(); top.items.push(a.set); continue; }
      text += '-';
      j++;
      skip();
      if (j >= n) break;
      const b = item();
      if (!b) break;
      refuseAssertion();
      if (a.cp === undefined) refuse(`a class range starts with the class "${p.slice(a.start, aEnd)}" ${at(a.start)}, which Rust regex refuses; escape the "-" (\\-)`);
      else if (b.cp === undefined) refuse(`a class range ends with the class "${p.slice(b.start, j)}" ${at(b.start)}, which Rust regex refuses; escape the "-" (\\-)`);
      else if (a.cp > b.cp && b.cp >= 0) refuse(`the class range "${p.slice(a.start, aEnd)}-${p.slice(b.start, j)}" ${at(a.start)} goes down, which Rust regex refuses ("invalid character class range, the start must be <= the end")`);
      else { const lo = a.cp, hi = b.cp; top.items.push(lo < 0 || hi < 0 ? () => { throw new Uncomputed(); } : () => [lo, hi]); }
    }
    if (result === undefined) {
      // Unclosed, or a lone backslash (refused where it is); regex-syntax names the innermost class left open
      wellFormed = false;
      if (stack.length > 0) unclosed(`the class opened ${at(stack[stack.length - 1].start)} is not closed ("unclosed character class")`, ']');
    }
    else if (computed && result.depth <= NEST_LIMIT) {
      try {
        const set = result.set();
        text = caseless ? `(?-i:${classText(set)})` : classText(set);
      } catch (err) {
        if (!(err instanceof Uncomputed)) throw err;
        // A class with an untabled class in a set operation or a nested class ([^\p{Hyphen}--\d]), which RE2 cannot read as written:
        // one stand-in character for the whole, as for the untabled class alone
        if (untabledSeen > untabledBefore) text = '\\x{10FFFF}';
      }
    }
    out.push(text);
    const node = atom(text, classStates(sized ? result?.set : undefined, 1, u), true);
    node.depth = result?.depth ?? 1;
    push(node, i, outAt);
    return j;
  };

  for (let i = 0; i < n;) {
    const c = p[i];
    if (x && SPACE.test(c)) { i++; continue; }
    if (x && c === '#') { while (i < n && p[i] !== '\n') i++; continue; }
    if (c === '\\') {
      const r = escape(i, false);
      if (!r) { out.push('\\'); wellFormed = false; break; }
      const outAt = out.length;
      if (r.kind === 'assert' && (p[i + 1] === 'b' || p[i + 1] === 'B' || p[i + 1] === '<' || p[i + 1] === '>')) {
        if (r.end > i + 2 || p[i + 1] === '<' || p[i + 1] === '>') re2Lacks ??= { at: i, text: p.slice(i, r.end) };
        else if (u) unicodeBoundary ??= i;
      }
      // Under (?u), \d, \s, \w are Unicode's (RE2's are ASCII's), and RE2's \s lacks \v: written out as their set, as a class is
      const re2 = r.kind === 'class' && writtenOut(p, i, u, x) ? classText(escapedClass(i, r.end)()) : r.re2;
      out.push(re2);
      const node = atom(re2, r.kind === 'assert' ? 0 : r.kind === 'class' ? classStates(sized ? escapedClass(i, r.end) : undefined, CLASS_STATES, u) : 1);
      push(node, i, outAt);
      i = r.end;
      canRepeat = true;
      continue;
    }
    if (c === '[') { i = bracketed(i); canRepeat = true; continue; }
    if (c === '(') {
      // parse_group skips spaces and comments after "(" under (?x): "( ?i)" is a flag group, "( ?P<n>a)" a named group, "( ?=" a
      // look-ahead; q is where its "?" would be
      const q = x ? spaceEnd(p, i + 1) : i + 1;
      const look = p[q] === '?' ? sticky(/\?<?[=!]/y, p, q) : null;
      if (look && syntax === undefined) lookAround ??= { at: i, text: p.slice(i, q + look[0].length) };
      if (p[q] === '?' && !look) groupRefusal(i, q);
      const f = sticky(FLAG_GROUP, p, q, 39);
      const outAt = out.length;
      if (f) {
        const [, on, off = '', close] = f;
        const all = p.slice(i, q + f[0].length);
        const keepOn = on.replace(/[uRx]/g, ''), keepOff = off.replace(/[uRx]/g, '');
        const flags = keepOn + (keepOff ? `-${keepOff}` : '');
        const nx: boolean = on.includes('x') ? true : off.includes('x') ? false : x;
        const nu: boolean = on.includes('u') ? true : off.includes('u') ? false : u;
        const ni: boolean = on.includes('i') ? true : off.includes('i') ? false : iFlag;
        if (close === ':') {
          frames.push({ x, u, iFlag, alts, open: `(?${flags}:`, capture: false, src: i, out: outAt });
          alts = [[]];
          out.push(`(?${flags}:`);
        } else {
          const text = flags ? `(?${flags})` : '';
          if (text) out.push(text);
          const node = atom(text, 0);
          (node as { flags?: string }).flags = all;
          push(node, i, outAt);
        }
        x = nx; u = nu; iFlag = ni;
        xSeen ||= nx;
        i += all.length;
      } else {
        // A named group's name ends at its ">" (groupRefusal has checked it); RE2 takes ASCII names only (not "é", "a.b", "x[0]", which
        // Rust takes), and the evaluator reads groups by number only ($1, ${1}): such a name is an unnamed group in the RE2 text
        const nameAt = p.startsWith('?P<', q) ? q + 3 : p.startsWith('?<', q) && !look ? q + 2 : -1;
        const close = nameAt >= 0 ? p.indexOf('>', nameAt) : -1;
        const written = close >= 0 ? `(${p.slice(q, close + 1)}` : '(';
        const open = RE2_NAMED_GROUP.test(written) ? written : '(';
        frames.push({ x, u, iFlag, alts, open, capture: true, src: i, out: outAt });
        alts = [[]];
        out.push(open);
        i = close >= 0 ? close + 1 : i + 1;
      }
      parens = Math.max(parens, frames.length);
      canRepeat = false;
      continue;
    }
    if (c === ')') {
      out.push(')');
      const g = frames.pop();
      if (g) {
        const inner = alts;
        ({ x, u, iFlag, alts } = g);
        const m = measure(inner);
        // A capturing group adds its two capture states (regex-automata keeps every group's captures)
        const states = m.states + (g.capture ? 2 : 0);
        const empty = inner.every((s) => s.every(onlyEmpty));
        push({ k: 'group', open: g.open, alts: inner, capture: g.capture, depth: 1 + m.depth, states, product: m.product, empty, src: 0, out: 0 }, g.src, g.out);
      } else {
        wellFormed = false;
        refuse(`the ")" ${at(i)} closes no group ("unopened group"); write \\) for a parenthesis`);
      }
      i++;
      canRepeat = true;
      continue;
    }
    if (c === '|') { out.push('|'); alts.push([]); i++; canRepeat = false; continue; }
    if (c === '{') {
      const m = readCount(p, i, x);
      if (!canRepeat) refuse(`"{" ${at(i)} repeats nothing: in Rust regex "{" starts a counted repetition; write \\{ for a brace`);
      else if (!m) refuse(`"{" ${at(i)} starts a counted repetition in Rust regex ({n}, {n,} or {n,m}); write \\{ for a brace`);
      else {
        const { lo, comma, hi } = m;
        const all = p.slice(i, m.end);
        if (lo === '') refuse(`the counted repetition "${all}" ${at(i)} has no minimum, which Rust regex refuses: write {0,${hi}}`);
        else if (Number(lo) > MAX_U32 || (hi !== '' && Number(hi) > MAX_U32)) refuse(`the count in "${all}" ${at(i)} is past 2^32-1`);
        else if (comma && hi !== '' && Number(hi) < Number(lo)) refuse(`the counted repetition "${all}" ${at(i)} has its minimum above its maximum`);
      }
      const t = m?.lo ? m : undefined;
      if (t && seq().length === 0) wellFormed = false;
      else if (t) {
        let end = t.end;
        // A "?" after a counted repetition makes it lazy, spaces and comments before it skipped under (?x) (parse_counted_repetition)
        let k = end;
        if (x) k = spaceEnd(p, k);
        const lazy = p[k] === '?';
        if (lazy) end = k + 1;
        const min = Number(t.lo);
        const max = t.comma ? (t.hi === '' ? -1 : Number(t.hi)) : min;
        const written = t.end + (p[t.end] === '?' ? 1 : 0);
        repeat(min, max, '{', `{${t.lo}${t.comma ? ',' : ''}${t.hi}}${lazy ? '?' : ''}`, i, written);
        i = end;
        canRepeat = true;
        continue;
      }
    }
    if (c === '*' || c === '+' || c === '?') {
      // A flag group is nothing to repeat (RepetitionMissing), and one RE2 does not know is dropped from its text; so is the start
      // of the regex, of a group or of an alternative: said here, with the place (RE2's refusal has none)
      const prev = seq()[seq().length - 1];
      if (!canRepeat && prev?.k === 'atom' && prev.flags !== undefined) refuse(`"${c}" ${at(i)} repeats the flag group "${prev.flags}", which Rust regex refuses: a flag group matches nothing`);
      else if (!canRepeat) refuse(`"${c}" ${at(i)} repeats nothing ("repetition operator missing expression"); write \\${c} for the character`);
      if (seq().length > 0) {
        const lazy = p[i + 1] === '?';
        repeat(c === '+' ? 1 : 0, c === '?' ? 1 : -1, c, lazy ? c + '?' : c, i, i + (lazy ? 2 : 1));
        i += lazy ? 2 : 1;
        canRepeat = true;
        continue;
      }
      wellFormed = false;
    }
    const code = c.charCodeAt(0);
    const ch = code >= 0xd800 && code <= 0xdbff ? String.fromCodePoint(p.codePointAt(i)!) : c;
    const outAt = out.length;
    out.push(ch);
    push(atom(ch, c === '^' || c === '$' ? 0 : literalStates(ch, iFlag)), i, outAt);
    i += ch.length;
    canRepeat = true;
  }
  if (frames.length > 0) {
    wellFormed = false;
    // regex-syntax names the innermost group left open (pop_group_end)
    unclosed(`the group opened ${at(frames[frames.length - 1].src)} is not closed ("unclosed group")`, ')');
  }
  let re2 = '';
  for (let k = 0; k < out.length; k++) re2 += (opens.has(k) ? '(?:'.repeat(opens.get(k)!) : '') + out[k];
  return { syntax, syntaxAt, translation: translated, closer, untabled, tree: wellFormed && parens < 1000 ? alts : undefined, parens, re2, unicodeBoundary, re2Lacks, lookAround };
}

/** The patterns read, as the checker asks for one's JavaScript text, refusal and RE2 verdict in turn, and a document is checked again
 * on every edit: the last 500 readings of short patterns, together at most READ_CHARS characters of pattern, the oldest
 * dropped first. A reading holds the pattern's tree: 499 readings of 500-character patterns were 13 MB of live heap when only their
 * count was bounded (64 K characters are at most about 4 MB). */
const READS = new Map<string, RegexRead>();
const READS_KEPT = 500;
const READ_CHARS = 1 << 16;
let readChars = 0;
function read(pattern: string): RegexRead {
  let r = READS.get(pattern) ?? (lastLong?.pattern === pattern ? lastLong.read : undefined);
  if (r) return r;
  r = readRegex(pattern);
  if (pattern.length <= 2000) {
    while (READS.size >= READS_KEPT || readChars + pattern.length > READ_CHARS) {
      const oldest = READS.keys().next().value!;
      READS.delete(oldest);
      readChars -= oldest.length;
    }
    READS.set(pattern, r);
    readChars += pattern.length;
  } else lastLong = { pattern, read: r };
  return r;
}

/** What read() keeps: readings, their patterns' characters, and the budget of those. */
export function regexReadsKept(): { patterns: number; chars: number; budget: number } {
  return { patterns: READS.size, chars: readChars, budget: READ_CHARS };
}
let lastLong: { pattern: string; read: RegexRead } | undefined;

/** The pattern in RE2's syntax (see above); a pattern that is invalid stays invalid. */
export function rustToRe2(pattern: string): string {
  return read(pattern).re2;
}

/**
 * Where the pattern has a word boundary (\b, \B) in Unicode mode, by its offset: Unicode's on the platform (regex-syntax's
 * WordUnicode: é, ß, 中 are word characters), ASCII's in RE2, which has no Unicode mode ("u" is no RE2 flag; its \b is "\w on one
 * side and \W, \A, or \z on the other" with \w [0-9A-Za-z_], under any flag: google/re2 doc/syntax.txt). The two agree on ASCII
 * text only.
 */
export function unicodeWordBoundary(pattern: string): number | undefined {
  return read(pattern).unicodeBoundary;
}

/** The pattern's first look-around or backreference, as written and where (see RegexRead.lookAround), or undefined. */
export function lookAroundOrBackreference(pattern: string): { at: number; text: string } | undefined {
  return read(pattern).lookAround;
}

/** The pattern's first Unicode class EdgeKit has no table for (see RegexRead.untabled), or undefined. */
export function untabledClass(pattern: string): Untabled | undefined {
  return read(pattern).untabled;
}

/** The first word boundary of the pattern that RE2 cannot run, as written and where (see RegexRead.re2Lacks), or undefined. */
export function re2LacksBoundary(pattern: string): { at: number; text: string } | undefined {
  return read(pattern).re2Lacks;
}

/**
 * Why the platform refuses the pattern where RE2 would take it, or undefined (RE2 then judges the rest, as the two agree there):
 * its syntax (readRegex), its nesting (rustNestRefusal) or its size (rustRegexSizeRefusal).
 */
export function rustRegexRefusal(pattern: string): string | undefined {
  const r = read(pattern);
  return r.syntax ?? rustNestRefusal(pattern) ?? r.translation?.why ?? rustRegexSizeRefusal(pattern);
}

/** Where in the pattern rustRegexRefusal's reason is (its start and length), when it names a place: a syntax or translation
 * refusal's, or the counted repetition that makes the size; the nest limit has none. */
export function rustRegexRefusalPlace(pattern: string): { at: number; length: number } | undefined {
  const { syntax, syntaxAt, translation } = read(pattern);
  const one = (at: number | undefined) => (at === undefined ? undefined : { at, length: pattern.codePointAt(at)! > 0xffff ? 2 : 1 });
  if (syntax !== undefined) return one(syntaxAt);
  if (rustNestRefusal(pattern) !== undefined) return undefined;
  if (translation !== undefined) return translation.length !== undefined && translation.at !== undefined ? { at: translation.at, length: translation.length } : one(translation.at);
  const rep = sizeRefusal(pattern)?.rep;
  return rep && { at: rep.at, length: rep.text.length };
}

/** What closes the group or class rustRegexRefusal names as left open at the pattern's end (")" or "]"), when that is its reason. */
export function rustRegexCloser(pattern: string): ')' | ']' | undefined {
  return read(pattern).closer;
}

/** Rust regex's nest limit (regex-automata's syntax Config, which wirefilter keeps: nest_limit 250). */
const NEST_LIMIT = 250;

/**
 * The depth regex-syntax's NestLimiter (ast/parse.rs) gives a pattern: one level for each group, repetition, alternation of two or
 * more branches, concatenation of two or more items, bracketed class (nested ones too), union of two or more class items and class
 * set operation on the way down; undefined when the tree is not read.
 */
export function regexNestDepth(pattern: string): number | undefined {
  const { tree } = read(pattern);
  return tree ? measure(tree).depth : undefined;
}

/** A regex nested deeper than the platform's parser takes; undefined for any other. A pattern with no tree (past 999 groups) is
 * measured by its groups alone, each at least one level. */
function rustNestRefusal(pattern: string): string | undefined {
  const { tree, parens } = read(pattern);
  const depth = tree ? measure(tree).depth : undefined;
  const shown = depth ?? parens;
  if (shown <= NEST_LIMIT) return undefined;
  return `it nests ${depth === undefined ? 'at least ' : ''}${shown} levels deep (each group, repetition, alternation and sequence counts one), past the platform's limit of ${NEST_LIMIT} (Rust regex's nest limit, which wirefilter keeps: "exceed the maximum number of nested parentheses/brackets (${NEST_LIMIT})")`;
}

// ---- The size of a regex on the platform, and RE2's repetition limit ----

/** The platform's compiled size limit (wirefilter's RegexSettings: the regex crate's default, 10 MiB), and the fewest bytes an NFA
 * state takes there: `a{327673}` builds and `a{327674}` does not (regex-automata 0.4 with wirefilter's settings, measured). */
export const REGEX_SIZE_LIMIT = 10 * (1 << 20);
const STATE_BYTES = 32;

/** Whether the pattern may be past the size limit: it has a counted repetition, or is long (most patterns have neither). */
function sizeChecked(pattern: string): boolean {
  return pattern.includes('{') || pattern.length > REGEX_SIZE_LIMIT / STATE_BYTES;
}

/**
 * Why the platform refuses the regex for its size: more bytes of NFA (at least: STATE_BYTES for each byte of a character, twice
 * that for a class, times the repetitions around it, with a union state for each optional copy and loop, two capture states for a
 * capturing group, one union state for an alternation and its longest alternative, none for one of characters and classes only) than its 10 MiB compiled size limit, with the
 * counted repetition that makes most of them and where it is; undefined when it is within the limit (or more than that count: the
 * platform may still refuse a regex somewhat under the limit, `(?u)\w{2000}`, whose class is a Unicode one of hundreds of states).
 */
export function rustRegexSizeRefusal(pattern: string): string | undefined {
  return sizeRefusal(pattern)?.why;
}

/** The size refusal (see rustRegexSizeRefusal) and the counted repetition it names, when it names one. */
function sizeRefusal(pattern: string): { why: string; rep?: { at: number; text: string } } | undefined {
  const max = REGEX_SIZE_LIMIT / STATE_BYTES;
  if (!sizeChecked(pattern)) return undefined;
  const { tree } = read(pattern);
  if (!tree) return undefined;
  const total = measure(tree).states;
  if (total <= max) return undefined;
  let top: { rep: RxNode & { k: 'rep' }; states: number } | undefined;
  // In the pattern's order, an outer repetition before the ones inside it (the first of equal ones is named)
  const todo: [RxNode, number][] = [];
  const later = (alts: RxNode[][], times: number) => { for (let a = alts.length - 1; a >= 0; a--) for (let k = alts[a].length - 1; k >= 0; k--) todo.push([alts[a][k], times]); };
  later(tree, 1);
  while (todo.length > 0) {
    const [node, times] = todo.pop()!;
    if (node.k === 'group') later(node.alts, times);
    if (node.k !== 'rep') continue;
    const states = times * node.states;
    if (node.op === '{' && (!top || states > top.states)) top = { rep: node, states };
    todo.push([node.sub, times * copies(node)]);
  }
  // Nested repetitions multiply: (?:(?:a){2}){2}... past 10^15 is said so rather than in hundreds of digits
  const atLeast = (states: number) => (states * STATE_BYTES > 1e15 ? 'more than 10^15' : `at least ${(states * STATE_BYTES).toLocaleString('en')}`);
  const what = top ? `the counted repetition "${top.rep.text}" ${atChar(pattern, top.rep.at)} makes it ${atLeast(top.states)} bytes compiled`
    : `it is ${atLeast(total)} bytes compiled`;
  // The limit grouped as the count is, to compare them; what brings the pattern under it
  const fix = top ? `a smaller count (or "+", "*" where the exact count does not matter)` : 'a shorter pattern';
  const why = `${what}, past the platform's compiled size limit of ${REGEX_SIZE_LIMIT.toLocaleString('en')} bytes (Rust regex's default, which wirefilter keeps: "Compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT} bytes"); ${fix} brings it under the limit`;
  return { why, rep: top ? { at: top.rep.at, text: top.rep.text } : undefined };
}

/** RE2's limit on counted repetitions: none above 1 000, nor their products where they nest (a{1001}, (?:a{100}){11}). */
const RE2_MAX_REPEAT = 1000;

/**
 * The pattern in RE2's syntax with the counted repetitions RE2 refuses rewritten as a run of smaller ones, which match the same:
 * x{m,n} as x{b}...x{b}x{m mod b} then x{0,b}...x{0,(n-m) mod b} (x{a,b}x{c,d} is x{a+c,b+d}), x{m,} as x{b}...x*, with b as large
 * as RE2 takes there. A copy after the first has its groups made non-capturing (one group per group of the pattern, numbered as
 * written; a regex_replace "${1}" of a group inside such a repetition then gives the first copy's match, not the last one's).
 * Undefined when the pattern cannot be read. `shape`: each such repetition as one copy of what it repeats (checkRustRegexOnRe2).
 */
export function splitRepetitions(pattern: string, shape = false): string | undefined {
  const { tree } = read(pattern);
  if (!tree) return undefined;
  const alts = (a: RxNode[][], budget: number, capture: boolean): string => a.map((s) => s.map((n) => emit(n, budget, capture)).join('')).join('|');
  // What a quantifier follows: a repetition (x{2}{3}) in a group
  const operand = (n: RxNode, budget: number, capture: boolean): string => (n.k === 'rep' ? `(?:${emit(n, budget, capture)})` : emit(n, budget, capture));
  const emit = (n: RxNode, budget: number, capture: boolean): string => {
    if (n.k === 'atom') return n.re2;
    if (n.k === 'group') return `${n.capture && !capture ? '(?:' : n.open}${alts(n.alts, budget, capture)})`;
    const count = n.op === '{' ? (n.max >= 0 ? n.max : n.min) : 1;
    if (count <= budget) return operand(n.sub, count > 0 ? Math.trunc(budget / count) : budget, capture) + n.q;
    const b = Math.max(1, Math.trunc(budget / n.sub.product));
    const inner = Math.trunc(budget / b);
    const first = operand(n.sub, inner, capture), rest = operand(n.sub, inner, false);
    if (shape) return first;
    const lazy = n.q.endsWith('?') ? '?' : '';
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

/** The regex compiled on RE2, in RE2's syntax, its counted repetitions over RE2's 1 000 split (splitRepetitions); throws RE2's error
 * for one it refuses. */
export function compileRustRegex(pattern: string): RE2JS {
  const re2 = rustToRe2(pattern);
  try {
    return RE2JS.compile(re2);
  } catch (err) {
    if (!/invalid repeat count/.test((err as Error).message)) throw err;
    const split = splitRepetitions(pattern);
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
    const shape = splitRepetitions(pattern, true);
    if (shape === undefined || shape === re2) throw err;
    RE2JS.compile(shape);
  }
}
