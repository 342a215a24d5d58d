// Decoded JSON string <-> document offsets. An escape sequence such as \" \\ \n or \u0041 takes several source characters for one
// decoded UTF-16 unit (a surrogate pair written as two \u escapes is two units, twelve characters), so a span found in a decoded
// value (a token of a ruleset expression, a problem in a job's embedded `filter`) must be mapped before it is shown in the document,
// and a cursor offset in the document must be mapped into the value for a hover or a completion.
//
// The map reads the literal in place in the document text (no copy of it) and records only its escapes, found with indexOf (a job's
// 10 KB filter string holds about a thousand \" among nine thousand plain characters); it then answers toSource and toDecoded in
// O(log e) for e escapes. The decoded value is built on first use. Callers that may not need the map build it on demand (see
// logpush/embedded.ts).
import type { Edit, Span } from './types';

const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The unit an escape sequence at `i` (a backslash) decodes to and the source characters it takes, or undefined for a broken one. */
function escapeAt(source: string, i: number, close: number): { unit: string; width: number } | undefined {
  if (i + 1 >= close) return undefined;
  const e = source[i + 1];
  if (e === 'u') {
    return i + 6 <= close && HEX4.test(source.slice(i + 2, i + 6)) ? { unit: String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16)), width: 6 } : undefined;
  }
  return Object.prototype.hasOwnProperty.call(SIMPLE_ESCAPES, e) ? { unit: SIMPLE_ESCAPES[e], width: 2 } : undefined;
}

export class JsonStringMap {
  /** Source offset of decoded unit 0 (after the opening quote), and of the closing quote (or the end). */
  private readonly first: number;
  private readonly close: number;
  /** Decoded length. */
  private readonly length: number;
  /** Per escape sequence, in order: the decoded index of its unit, its source offset, and the source characters taken so far by
   *  the escapes up to and including it beyond one each (so unit d after escape k is at first + d + extra[k]). */
  private readonly escDecoded: number[] = [];
  private readonly escSource: number[] = [];
  private readonly extra: number[] = [];
  private decoded: string | undefined;

  /**
   * Malformed escapes are kept as written (the outer JSON parser reports them), so this never throws.
   * @param source the whole text the literal lives in
   * @param offset offset of the literal's opening quote in source
   * @param length length of the literal including its quotes (an unterminated literal runs to offset + length, at most to the end
   *   of source); when omitted, the literal runs to its closing quote (the first one no escape takes), or to the end of source
   */
  constructor(private readonly source: string, offset: number, length?: number) {
    const first = source[offset] === '"' ? offset + 1 : offset;
    let close = -1;
    let limit = source.length;
    if (length !== undefined) {
      const end = Math.min(offset + length, source.length);
      close = end > first && source[end - 1] === '"' && !isEscaped(source, end - 1, first) ? end - 1 : end;
      limit = close;
    }
    let extra = 0;
    let quote = -1;
    for (let i = first; ;) {
      const b = source.indexOf('\\', i);
      if (length === undefined) {
        if (quote < i) quote = source.indexOf('"', i);
        if (quote < 0) quote = source.length;
        if (b < 0 || b > quote) { close = quote; break; }
      } else if (b < 0 || b >= close) break;
      const esc = escapeAt(source, b, limit);
      // A broken escape is kept as written: its backslash is a plain character (the outer syntax check reports it).
      if (!esc) { i = b + 1; continue; }
      this.escDecoded.push(b - first - extra);
      this.escSource.push(b);
      extra += esc.width - 1;
      this.extra.push(extra);
      i = b + esc.width;
    }
    this.first = first;
    this.close = close;
    this.length = Math.max(0, close - first - extra);
  }

  /** The literal in the document whose opening quote is at offset, to its closing quote (or the end of the text). */
  static at(source: string, offset: number): JsonStringMap {
    return new JsonStringMap(source, offset);
  }

  /** The decoded string (what JSON.parse gives for a well-formed literal). */
  get value(): string {
    if (this.decoded === undefined) {
      let value = '';
      let run = this.first;
      for (const i of this.escSource) {
        const esc = escapeAt(this.source, i, this.close)!;
        value += this.source.slice(run, i) + esc.unit;
        run = i + esc.width;
      }
      this.decoded = value + this.source.slice(run, this.close);
    }
    return this.decoded;
  }

  /** The source offset of a decoded offset (clamped to 0..value.length; value.length maps to the closing quote or the end). */
  toSource(decoded: number): number {
    const d = Math.max(0, Math.min(decoded, this.length));
    if (d === this.length) return this.close;
    // the escapes before unit d: those whose decoded index is below d
    let lo = 0, hi = this.escDecoded.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.escDecoded[mid] < d) lo = mid + 1; else hi = mid;
    }
    return this.first + d + (lo > 0 ? this.extra[lo - 1] : 0);
  }

  /** A decoded span as a source span: it covers every source character of the decoded units (whole escapes). An empty span maps
   *  to an empty span at its start. */
  spanToSource(span: Span): Span {
    const start = this.toSource(span.offset);
    const end = this.toSource(span.offset + span.length);
    return { offset: start, length: end - start };
  }

  /** The decoded offset of a source offset (clamped to 0..value.length); a position inside an escape sequence maps to that
   *  escape's unit. */
  toDecoded(source: number): number {
    if (source <= this.first) return 0;
    if (source >= this.close) return this.length;
    // the last escape that starts at or before source
    let lo = 0, hi = this.escSource.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.escSource[mid] <= source) lo = mid + 1; else hi = mid;
    }
    const k = lo - 1;
    if (k < 0) return source - this.first;
    const width = this.extra[k] - (k > 0 ? this.extra[k - 1] : 0) + 1;
    if (source < this.escSource[k] + width) return this.escDecoded[k];
    return source - this.first - this.extra[k];
  }

  /** An edit on the decoded string as an edit on the source: the range is mapped and the new text escaped. */
  editToSource(edit: Edit): Edit {
    const span = this.spanToSource(edit);
    return { offset: span.offset, length: span.length, newText: escapeJsonStringContent(edit.newText) };
  }
}

/** The text that, between double quotes, is a JSON string decoding to `s`. */
export function escapeJsonStringContent(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** Whether the character at `pos` is preceded by an odd number of backslashes (looking back no further than `from`). */
function isEscaped(source: string, pos: number, from: number): boolean {
  let n = 0;
  for (let j = pos - 1; j >= from && source[j] === '\\'; j--) n++;
  return n % 2 === 1;
}
