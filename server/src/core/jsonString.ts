// Decoded JSON string <-> document offsets. An escape sequence such as \" \\ \n or \u0041 takes several source characters for one
// decoded UTF-16 unit (a surrogate pair written as two \u escapes is two units, twelve characters), so a span found in a decoded
// value (a token of a ruleset expression, a problem in a job's embedded `filter`) must be mapped before it is shown in the document,
// and a cursor offset in the document must be mapped into the value for a hover or a completion.
//
// The map reads the literal in place in the document text (no copy of it), is built once in one linear pass, and then answers
// toSource in O(1) and toDecoded in O(log n). Callers that may not need it build it on demand (see logpush/embedded.ts).
import type { Edit, Span } from './types';

const HEX4 = /^[0-9a-fA-F]{4}$/;
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export class JsonStringMap {
  /** The decoded string (what JSON.parse gives for a well-formed literal). */
  readonly value: string;
  /** starts[i]: offset in the source text of decoded unit i; starts[value.length]: offset of the closing quote (or the end). */
  private readonly starts: Int32Array;

  /**
   * Malformed escapes are kept as written (the outer JSON parser reports them), so this never throws.
   * @param source the whole text the literal lives in
   * @param offset offset of the literal's opening quote in source
   * @param length length of the literal including its quotes (an unterminated literal runs to offset + length, at most to the end
   *   of source)
   */
  constructor(source: string, offset: number, length: number) {
    const end = Math.min(offset + length, source.length);
    let i = source[offset] === '"' ? offset + 1 : offset;
    const close = end > i && source[end - 1] === '"' && !isEscaped(source, end - 1, i) ? end - 1 : end;
    // One pass: runs of plain characters are copied as slices, an escape adds its decoded unit; starts holds every unit's offset.
    const starts = new Int32Array(Math.max(0, close - i) + 1);
    let n = 0;
    let value = '';
    let run = i;
    while (i < close) {
      if (source.charCodeAt(i) === 92 /* \ */ && i + 1 < close) {
        const e = source[i + 1];
        let unit: string | undefined;
        let width = 2;
        if (e === 'u' && i + 6 <= close && HEX4.test(source.slice(i + 2, i + 6))) {
          unit = String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16));
          width = 6;
        } else if (e in SIMPLE_ESCAPES) {
          unit = SIMPLE_ESCAPES[e];
        }
        if (unit !== undefined) {
          value += source.slice(run, i) + unit;
          starts[n++] = i;
          i += width;
          run = i;
          continue;
        }
      }
      // A plain character (or a broken escape, kept as written: the outer syntax check reports it).
      starts[n++] = i;
      i++;
    }
    value += source.slice(run, close);
    starts[n++] = close;
    this.value = value;
    this.starts = starts.subarray(0, n);
  }

  /** The source offset of a decoded offset (clamped to 0..value.length; value.length maps to the closing quote or the end). */
  toSource(decoded: number): number {
    const i = Math.max(0, Math.min(decoded, this.value.length));
    return this.starts[i];
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
    const s = this.starts;
    if (source <= s[0]) return 0;
    if (source >= s[s.length - 1]) return this.value.length;
    // the last decoded index whose source start is <= source
    let lo = 0, hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= source) lo = mid; else hi = mid - 1;
    }
    return lo;
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
