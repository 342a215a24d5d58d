// Scans over JSON text without building a tree: the nesting bound (MAX_NESTING, checked on the text before jsonc-parser
// recurses, and on a parsed value), the item spans of a large array, the array member that holds a document's bulk, and the small
// text tests the incremental parse uses (common prefix/suffix, whitespace only, exactly one value).
import { visit, type ParseError, type ParseOptions } from 'jsonc-parser';

export const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** A text's syntax errors as jsonc-parser's parse reports them, from its visitor (no value built). */
export function parseErrors(text: string, options: ParseOptions = PARSE_OPTIONS): ParseError[] {
  const errors: ParseError[] = [];
  visit(text, { onError: (error, offset, length) => { errors.push({ error, offset, length }); } }, options);
  return errors;
}

/**
 * The deepest nesting of arrays and objects the core checks. jsonc-parser, the schema validator and the rules all recurse once
 * per level, so a deeper document (`[[[[...` 100 000 times) would overflow the stack; it gets one limits/too-deep problem instead.
 */
export const MAX_NESTING = 512;

/** Whether a parsed JSON value nests arrays and objects more than limit levels deep (the root container is level 1). */
export function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return limit < 1 || exceeds(value, limit - 1);
}

/** Whether a container whose children may open `room` more levels has a descendant deeper than that. Recurses at most room times. */
function exceeds(v: object, room: number): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object' && x !== null && (room === 0 || exceeds(x, room - 1))) return true;
    }
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'object' && x !== null && (room === 0 || exceeds(x, room - 1))) return true;
  }
  return false;
}

/**
 * The offset of the first "[" or "{" that opens a level deeper than limit, or -1. A linear scan that skips strings and comments as
 * jsonc-parser's scanner does (a string ends at an unescaped quote or at a line break). It never undercounts what jsonc-parser
 * recurses into: a closer pops a level only when it matches the innermost opener, and openers the parser would skip still count.
 */
export function tooDeepAt(text: string, limit: number): number {
  const stack: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      stack.push(c);
      if (stack.length > limit) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (stack.length > 0 && stack[stack.length - 1] === c - 2) stack.pop();
    } else if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22 || d === 0x0a || d === 0x0d) break;
        if (d === 0x5c /* \ */) i++;
      }
    } else if (c === 0x2f /* / */ && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === 0x2f) {
        for (i += 2; i < n && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d; i++) { /* line comment */ }
      } else if (d === 0x2a /* * */) {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 1;
      }
    }
  }
  return -1;
}

/**
 * The spans of the items of the array opened at `open` in VALID JSON, and the offset of its closing bracket. One linear scan that
 * jumps over strings with indexOf (in a batch most of the text is inside strings), and over an item that is an object or an array
 * with skipContainer's tighter loop (issue 18: 0.69 against 1.0 ms for the 0.8 MB batch, when every item's loop also kept the
 * item's start and end; docs/benchmarks.md, "The batch with errors in process").
 */
export function itemSpans(text: string, open: number): { spans: Int32Array; close: number } {
  // Into a typed array sized for items of 64 characters on average (a batch's are longer), grown by doubling beyond that: the loop's
  // optimized code then holds from the first call (issue 18: with a plain array, V8 deoptimized and rebuilt it over the first opens of
  // a batch with problems, 4-9 ms a scan instead of 1.1-1.3 ms; see docs/benchmarks.md).
  let out: Int32Array = new Int32Array(Math.max(64, text.length >> 5));
  let count = 0;
  const n = text.length;
  let start = -1;
  let end = -1;
  let i = open + 1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x2c /* , */ || c === 0x5d /* ] */) {
      if (start >= 0) {
        if (count + 2 > out.length) out = grown(out);
        out[count] = start;
        out[count + 1] = end;
        count += 2;
      }
      if (c === 0x5d) break;
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    if (c === 0x22 /* " */) i = closingQuote(text, i);
    else if (c === 0x5b || c === 0x7b) i = skipContainer(text, i);
    end = i + 1;
  }
  return { spans: out.slice(0, count), close: Math.min(i, n - 1) };
}

/** The offset of the quote that closes the string opened at i, or text.length when none does. */
function closingQuote(text: string, i: number): number {
  let q = text.indexOf('"', i + 1);
  while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
  return q < 0 ? text.length : q;
}

/** The offset of the bracket that closes the array or object opened at i (brackets counted outside strings, their kinds not
 * matched: the text is valid JSON), or text.length when none does. */
function skipContainer(text: string, i: number): number {
  const n = text.length;
  let depth = 1;
  for (i++; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = closingQuote(text, i);
    else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && --depth === 0) return i;
  }
  return n;
}

/** A copy of a twice as long. */
function grown(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** The length of the longest common prefix of a and b (binary search over slice comparisons, which run at memory speed). */
export function commonPrefix(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The length of the longest common suffix of a and b, at most max. */
export function commonSuffix(a: string, b: string, max: number): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Whether text[from, to) is JSON whitespace only (or empty). */
export function isSpace(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** Whether text[from, to) (inside valid JSON) is exactly one value: brackets balanced, strings closed, no comma at its own level. */
export function isOneValue(text: string, from: number, to: number): boolean {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      if (q < 0 || q >= to) return false;
      i = q;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth < 0) return false;
    } else if (c === 0x2c && depth === 0) {
      return false;
    }
  }
  return depth === 0;
}

export function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d || text.charCodeAt(i) === 0x09)) i++;
  return i;
}

/**
 * The largest array member of the object opened at `open` in VALID JSON: its key and the offsets of its brackets. Undefined when
 * there is none or when its key occurs twice (it may be a member JSON.parse ignores; the full tree positions such a document).
 */
export function largestArrayMember(text: string, open: number): { key: string; open: number; close: number } | undefined {
  const n = text.length;
  const keys = new Set<string>();
  const duplicates = new Set<string>();
  let best: { key: string; open: number; close: number } | undefined;
  let depth = 0;
  let lastString = -1;
  let lastStringEnd = -1;
  let key = '';
  let arrayOpen = -1;
  for (let i = open + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      if (depth === 0) { lastString = i; lastStringEnd = q; }
      i = q < 0 ? n : q;
      continue;
    }
    if (depth === 0 && c === 0x3a /* : */) {
      key = JSON.parse(text.slice(lastString, lastStringEnd + 1)) as string;
      if (keys.has(key)) duplicates.add(key);
      keys.add(key);
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === 0 && c === 0x5b) arrayOpen = i;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth === 0) break;
      if (--depth === 0 && arrayOpen >= 0) {
        if (!best || i - arrayOpen > best.close - best.open) best = { key, open: arrayOpen, close: i };
        arrayOpen = -1;
      }
    }
  }
  return best && !duplicates.has(best.key) ? best : undefined;
}

/** Whether the quote at q is escaped (preceded by an odd number of backslashes). */
export function isEscaped(text: string, q: number): boolean {
  let k = 0;
  while (text.charCodeAt(q - 1 - k) === 0x5c) k++;
  return k % 2 === 1;
}
