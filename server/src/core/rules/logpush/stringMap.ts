// Maps positions in a decoded JSON string to positions in its source literal (and back). An escape sequence such as \" \\ \n
// or \u0041 takes several source characters for one decoded UTF-16 unit, so offsets inside an embedded document (a job's
// `filter` string) must be translated before they are shown in the outer document.
import type { Edit, Span } from '../../types';

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export class JsonStringMap {
  /** The decoded string. */
  readonly value: string;
  /** starts[i]: offset in the source text of decoded unit i; starts[value.length]: offset of the closing quote (or the end). */
  private readonly starts: number[];

  /**
   * @param source the whole text the literal lives in
   * @param offset offset of the literal's opening quote in source
   * @param length length of the literal including its quotes (an unterminated literal runs to offset + length)
   */
  constructor(source: string, offset: number, length: number) {
    const end = offset + length;
    let i = source[offset] === '"' ? offset + 1 : offset;
    const close = end > i && source[end - 1] === '"' && !isEscaped(source, end - 1, i) ? end - 1 : end;
    const out: string[] = [];
    const starts: number[] = [];
    while (i < close) {
      const c = source[i];
      if (c === '\\' && i + 1 < close) {
        const e = source[i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6)) && i + 6 <= close) {
          starts.push(i);
          out.push(String.fromCharCode(parseInt(source.slice(i + 2, i + 6), 16)));
          i += 6;
          continue;
        }
        if (e in SIMPLE_ESCAPES) {
          starts.push(i);
          out.push(SIMPLE_ESCAPES[e]);
          i += 2;
          continue;
        }
      }
      // A plain character (or a broken escape, kept as written: the outer syntax check reports it).
      starts.push(i);
      out.push(c);
      i++;
    }
    starts.push(close);
    this.value = out.join('');
    this.starts = starts;
  }

  /** The source offset of a decoded offset (0..value.length). */
  toSource(decoded: number): number {
    const i = Math.max(0, Math.min(decoded, this.value.length));
    return this.starts[i];
  }

  /** A decoded span as a source span: it covers every source character of the decoded units (whole escapes). */
  spanToSource(span: Span): Span {
    const start = this.toSource(span.offset);
    const end = this.toSource(span.offset + span.length);
    return { offset: start, length: end - start };
  }

  /** The decoded offset of a source offset; a position inside an escape sequence maps to that escape's unit. */
  toDecoded(source: number): number {
    const s = this.starts;
    if (source <= s[0]) return 0;
    if (source >= s[s.length - 1]) return this.value.length;
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
