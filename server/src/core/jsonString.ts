// Decoded JSON string <-> document offsets. An escape sequence such as \" \\ \n or \u0041 takes several source characters for one
// decoded UTF-16 unit (a surrogate pair written as two \u escapes is two units, twelve characters), so a span found in a decoded
// value (a token of a ruleset expression, a problem in a job's embedded `filter`) must be mapped before it is shown in the document,
// and a cursor offset in the document must be mapped into the value for a hover or a completion.
//
// The map reads the literal in place in the document text (no copy of it) and records only its escapes, found with indexOf, and
// only as far as the offsets asked for need (a job's 10 KB filter string holds about a thousand \" among nine thousand plain
// characters, and its problems are most often near its start); it answers toSource and toDecoded in O(log e) for the e escapes
// read so far. The decoded value is built on first use. Callers that may not need the map build it on demand (see
// logpush/embedded.ts).
import type { Edit, Span } from './types';

const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
/** By char code: whether "\" and that character are a two-character escape. */
const SIMPLE_ESCAPE_CODE = new Uint8Array(128);
for (const c of Object.keys(SIMPLE_ESCAPES)) SIMPLE_ESCAPE_CODE[c.charCodeAt(0)] = 1;

/** The source characters the escape sequence at `i` (a backslash) takes: 2, 6 for \uXXXX, or 0 for a broken one. */
function escapeWidth(source: string, i: number, end: number): number {
  if (i + 1 >= end) return 0;
  const e = source.charCodeAt(i + 1);
  if (e === 0x75 /* u */) return i + 6 <= end && HEX4.test(source.slice(i + 2, i + 6)) ? 6 : 0;
  return e < 128 && SIMPLE_ESCAPE_CODE[e] === 1 ? 2 : 0;
}

/** The unit of a well-formed escape sequence at `i` of that width. */
function escapeUnit(source: string, i: number, width: number): string {
  return width === 6 ? String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16)) : SIMPLE_ESCAPES[source[i + 1]];
}

export class JsonStringMap {
  /** Source offset of decoded unit 0 (after the opening quote). */
  private readonly first: number;
  /** Source offset of the closing quote (or the end); -1 until the scan finds it, for a literal given without its length. */
  private close: number;
  /** Per escape sequence read so far, in order: the decoded index of its unit, its source offset, and the source characters taken
   *  by the escapes up to and including it beyond one each (so unit d after escape k is at first + d + extra[k]). */
  private readonly escDecoded: number[] = [];
  private readonly escSource: number[] = [];
  private readonly extra: number[] = [];
  /** The scan: where it goes on, whether it has reached the end of the literal, and the next quote seen (while close is -1). */
  private next: number;
  private done = false;
  private quote = -1;
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
    this.first = this.next = first;
    this.close = -1;
    if (length !== undefined) {
      const end = Math.min(offset + length, source.length);
      this.close = end > first && source[end - 1] === '"' && !isEscaped(source, end - 1, first) ? end - 1 : end;
    }
  }

  /** The literal in the document whose opening quote is at offset, to its closing quote (or the end of the text). */
  static at(source: string, offset: number): JsonStringMap {
    return new JsonStringMap(source, offset);
  }

  /** Reads the next escape sequence, or finds that there is none before the end of the literal. */
  private step(): void {
    const { source } = this;
    const b = source.indexOf('\\', this.next);
    if (this.close < 0) {
      if (this.quote < this.next) {
        this.quote = source.indexOf('"', this.next);
        if (this.quote < 0) this.quote = source.length;
      }
      if (b < 0 || b > this.quote) { this.close = this.quote; this.done = true; return; }
    } else if (b < 0 || b >= this.close) { this.done = true; return; }
    const width = escapeWidth(source, b, this.close < 0 ? source.length : this.close);
    // A broken escape is kept as written: its backslash is a plain character (the outer syntax check reports it).
    if (width === 0) { this.next = b + 1; return; }
    const extra = this.extra.length ? this.extra[this.extra.length - 1] : 0;
    this.escDecoded.push(b - this.first - extra);
    this.escSource.push(b);
    this.extra.push(extra + width - 1);
    this.next = b + width;
  }

  private scanAll(): void {
    while (!this.done) this.step();
  }

  /** Decoded length. */
  private get length(): number {
    this.scanAll();
    const extra = this.extra.length ? this.extra[this.extra.length - 1] : 0;
    return Math.max(0, this.close - this.first - extra);
  }

  /** The decoded string (what JSON.parse gives for a well-formed literal). */
  get value(): string {
    if (this.decoded === undefined) {
      this.scanAll();
      let value = '';
      let run = this.first;
      for (let k = 0; k < this.escSource.length; k++) {
        const i = this.escSource[k];
        const width = this.extra[k] - (k > 0 ? this.extra[k - 1] : 0) + 1;
        value += this.source.slice(run, i) + escapeUnit(this.source, i, width);
        run = i + width;
      }
      this.decoded = value + this.source.slice(run, this.close);
    }
    return this.decoded;
  }

  /** The source offset of a decoded offset (clamped to 0..value.length; value.length maps to the closing quote or the end). */
  toSource(decoded: number): number {
    const d = Math.max(0, decoded);
    // the escapes before unit d, all read: the scan has passed d or reached the end
    while (!this.done && !(this.escDecoded.length && this.escDecoded[this.escDecoded.length - 1] >= d)) this.step();
    if (this.done && d >= this.length) return this.close;
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
    // the escapes that start at or before source, all read
    while (!this.done && !(this.escSource.length && this.escSource[this.escSource.length - 1] > source)) this.step();
    if (this.done && source >= this.close) return this.length;
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
