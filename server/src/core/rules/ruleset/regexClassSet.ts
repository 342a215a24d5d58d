// The set a Rust regex class stands for, for the classes RE2 cannot read as written: a nested class ([a[bc]]) and the class set
// operations (&&, --, ~~), which regex-syntax computes (hir/translate.rs) and RE2 lacks. readRegex (rustRegex.ts) reads the class and
// builds its set with these functions, then writes it out as one plain RE2 class (classText).
//
// A set is a list of code point ranges. Without Unicode mode (the platform's default) regex-syntax's class is a set of bytes; its
// items are then ASCII or bytes (\xE9), which RE2 reads as the code points U+0000-U+00FF, as it reads a flat class, and the
// complement of a set (a negated class, \D) holds every code point past U+00FF too, as RE2's [^a] does: the set restricted to
// U+0000-U+00FF is regex-syntax's set of bytes, and the rest is all or nothing, as for a flat class. In Unicode mode, (?u), the
// items are code points; \d, \s, \w and \p{..} are Unicode's, read from JavaScript's Unicode tables (regex-syntax's own tables may
// be of a nearby Unicode version).

import { jsProperty } from './unicodeNames';

/** Sorted, disjoint, non-adjacent inclusive ranges, flattened: [lo0, hi0, lo1, hi1, ...]. */
export type CodeSet = readonly number[];

const MAX = 0x10ffff;
/** Every Unicode scalar value (regex-syntax's ClassUnicode never holds a surrogate). */
const ALL: CodeSet = [0, 0xd7ff, 0xe000, MAX];

/** A set from ranges in any order, overlapping or not. */
export function codeSet(ranges: readonly number[]): CodeSet {
  let sorted = true;
  for (let k = 2; k < ranges.length && sorted; k += 2) sorted = ranges[k] > ranges[k - 1] + 1 && ranges[k] <= ranges[k + 1];
  if (sorted && (ranges.length === 0 || ranges[0] <= ranges[1])) return ranges;
  const pairs: [number, number][] = [];
  for (let k = 0; k < ranges.length; k += 2) pairs.push([Math.min(ranges[k], ranges[k + 1]), Math.max(ranges[k], ranges[k + 1])]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1] + 1) out[out.length - 1] = Math.max(out[out.length - 1], hi);
    else out.push(lo, hi);
  }
  return out;
}

/** The union of two sets, merged in one pass. */
export function union(a: CodeSet, b: CodeSet): CodeSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    let lo: number, hi: number;
    if (j >= b.length || (i < a.length && a[i] <= b[j])) { lo = a[i]; hi = a[i + 1]; i += 2; } else { lo = b[j]; hi = b[j + 1]; j += 2; }
    if (out.length > 0 && lo <= out[out.length - 1] + 1) out[out.length - 1] = Math.max(out[out.length - 1], hi);
    else out.push(lo, hi);
  }
  return out;
}

/** The complement among the Unicode scalar values. */
export function negate(a: CodeSet): CodeSet {
  return intersect(ALL, complementAll(a));
}

function complementAll(a: CodeSet): CodeSet {
  const out: number[] = [];
  let next = 0;
  for (let k = 0; k < a.length; k += 2) {
    if (a[k] > next) out.push(next, a[k] - 1);
    next = a[k + 1] + 1;
  }
  if (next <= MAX) out.push(next, MAX);
  return out;
}

export function intersect(a: CodeSet, b: CodeSet): CodeSet {
  const out: number[] = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i], b[j]), hi = Math.min(a[i + 1], b[j + 1]);
    if (lo <= hi) out.push(lo, hi);
    if (a[i + 1] < b[j + 1]) i += 2; else j += 2;
  }
  return out;
}

export function difference(a: CodeSet, b: CodeSet): CodeSet {
  return intersect(a, complementAll(b));
}

export function symmetricDifference(a: CodeSet, b: CodeSet): CodeSet {
  return union(difference(a, b), difference(b, a));
}

export function has(a: CodeSet, cp: number): boolean {
  let lo = 0, hi = a.length / 2 - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (cp < a[2 * m]) hi = m - 1;
    else if (cp > a[2 * m + 1]) lo = m + 1;
    else return true;
  }
  return false;
}

// ---- The classes regex-syntax knows without Unicode tables ----

/** The ASCII classes [:name:] (regex-syntax's ClassAsciiKind, hir/translate.rs ascii_class), which \d, \s and \w are without
 * Unicode mode. */
export const ASCII_CLASSES: Readonly<Record<string, CodeSet>> = {
  alnum: codeSet([0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a]),
  alpha: codeSet([0x41, 0x5a, 0x61, 0x7a]),
  ascii: [0, 0x7f],
  blank: codeSet([9, 9, 0x20, 0x20]),
  cntrl: codeSet([0, 0x1f, 0x7f, 0x7f]),
  digit: [0x30, 0x39],
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: codeSet([0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e]),
  space: codeSet([9, 13, 0x20, 0x20]),
  upper: [0x41, 0x5a],
  word: codeSet([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]),
  xdigit: codeSet([0x30, 0x39, 0x41, 0x46, 0x61, 0x66]),
};

/** ASCII case folding (regex-syntax's ClassBytes::case_fold_simple): each ASCII letter with its other case. */
export function asciiFold(a: CodeSet): CodeSet {
  const upper = intersect(a, [0x41, 0x5a]), lower = intersect(a, [0x61, 0x7a]);
  return union(a, codeSet([...upper.map((c) => c + 32), ...lower.map((c) => c - 32)]));
}

// ---- Unicode mode: JavaScript's Unicode tables ----

/** The planes scanned for a property's code points: planes 4 to 13 hold no assigned code point (Unicode 17), so no property read
 * here (none is "unassigned") has one there. */
const PLANES = [0, 1, 2, 3, 14, 15, 16];
const TABLES = new Map<string, CodeSet>();

/** Each scanned plane as text (without the surrogates) and its code points, made once a class needs Unicode's tables (about 25 ms,
 * 1.7 MB kept). */
let planes: { text: string; cps: Uint32Array; unit: number }[] | undefined;
function planeTexts(): { text: string; cps: Uint32Array; unit: number }[] {
  if (planes) return planes;
  planes = PLANES.map((plane) => {
    const base = plane * 0x10000;
    const list: number[] = [];
    for (let c = base; c < base + 0x10000; c++) if (c < 0xd800 || c > 0xdfff) list.push(c);
    let text = '';
    for (let k = 0; k < list.length; k += 4096) text += String.fromCodePoint(...list.slice(k, k + 4096));
    return { text, cps: Uint32Array.from(list), unit: plane === 0 ? 1 : 2 };
  });
  return planes;
}

/** The code points a JavaScript class (`u` flag) holds, as ranges, read once (5 to 30 ms a class) and kept. */
function tableSet(jsClass: string): CodeSet {
  let set = TABLES.get(jsClass);
  if (set) return set;
  const re = new RegExp(`${jsClass}+`, 'gu');
  const out: number[] = [];
  for (const { text, cps, unit } of planeTexts()) {
    for (const m of text.matchAll(re)) {
      const first = m.index / unit;
      out.push(cps[first], cps[first + m[0].length / unit - 1]);
    }
  }
  set = codeSet(out);
  TABLES.set(jsClass, set);
  return set;
}

/** regex-syntax's Unicode \d, \s, \w (unicode.rs perl_digit, perl_space, perl_word). */
export function unicodePerlClass(letter: 'd' | 's' | 'w'): CodeSet {
  return tableSet({ d: '\\p{gc=Nd}', s: '\\p{White_Space}', w: '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]' }[letter]);
}

/** RE2's general categories (its \p{C} has no Cn: unassigned code points are no category there). */
const GENERAL_CATEGORIES = new Set('C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '));

/**
 * The code points of \p{name} as Rust regex reads name (unicodeNames.ts: loose matching, a binary property, a general category, a
 * script, or a by-value form such as Script=Greek or gc!=Lu); RE2's spelling of C (Cc, Cf, Co, Cs) for C itself. Undefined for a name
 * JavaScript's tables do not give (the class is then passed as written, and RE2 judges the name).
 */
export function unicodeProperty(name: string): CodeSet | undefined {
  if (name === 'C') return tableSet('[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cs}]');
  const js = jsProperty(name);
  if (js === undefined) return undefined;
  try {
    const set = tableSet(`\\p{${js.expr}}`);
    return js.negated ? negate(set) : set;
  } catch {
    return undefined;
  }
}

/** Whether RE2 reads \p{name} as Rust regex does when it is passed as written: Any, a general category's short name, a script's name. */
export function re2Spells(name: string): boolean {
  return name === 'Any' || GENERAL_CATEGORIES.has(name) || jsProperty(name)?.expr === `sc=${name}`;
}

/** The code points with other cases under Unicode's simple case folding, sorted, and for each all of them (its orbit), read once
 * from JavaScript's `iu` matching, which compares code points by their simple case folding as regex-syntax's case_fold_simple
 * does. */
let orbits: { keys: number[]; of: Map<number, number[]> } | undefined;
function caseOrbits(): { keys: number[]; of: Map<number, number[]> } {
  if (orbits) return orbits;
  const of = new Map<number, number[]>();
  const cased = tableSet('[\\p{Changes_When_Casemapped}\\p{Changes_When_Casefolded}]');
  const cps: number[] = [];
  for (let k = 0; k < cased.length; k += 2) for (let c = cased[k]; c <= cased[k + 1]; c++) cps.push(c);
  const text = String.fromCodePoint(...cps);
  for (const c of cps) {
    if (of.has(c)) continue;
    const orbit = [...text.matchAll(new RegExp(`\\u{${c.toString(16)}}`, 'giu'))].map((m) => m[0].codePointAt(0)!);
    if (orbit.length > 1) for (const o of orbit) of.set(o, orbit);
  }
  orbits = { keys: [...of.keys()].sort((a, b) => a - b), of };
  return orbits;
}

/** Unicode simple case folding of a set (regex-syntax's ClassUnicode::case_fold_simple): each code point with its other cases. */
export function unicodeFold(a: CodeSet): CodeSet {
  const { keys, of } = caseOrbits();
  const add: number[] = [];
  for (let k = 0; k < a.length; k += 2) {
    // The first key in the range, by binary search, then the keys up to its end
    let lo = 0, hi = keys.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (keys[m] < a[k]) lo = m + 1; else hi = m; }
    for (let m = lo; m < keys.length && keys[m] <= a[k + 1]; m++) for (const o of of.get(keys[m])!) add.push(o, o);
  }
  return add.length ? union(a, codeSet(add)) : a;
}

// ---- The set as RE2 text ----

/** The set as one RE2 class: ASCII letters and digits as themselves, the rest as \x{..}; the empty set as a class of nothing. */
export function classText(a: CodeSet): string {
  if (a.length === 0) return '[^\\x{0}-\\x{10FFFF}]';
  const one = (c: number) => (/^[0-9A-Za-z]$/.test(String.fromCharCode(c)) && c < 0x80 ? String.fromCharCode(c) : `\\x{${c.toString(16).toUpperCase()}}`);
  let out = '[';
  for (let k = 0; k < a.length; k += 2) out += a[k] === a[k + 1] ? one(a[k]) : a[k + 1] === a[k] + 1 ? one(a[k]) + one(a[k + 1]) : `${one(a[k])}-${one(a[k + 1])}`;
  return out + ']';
}
