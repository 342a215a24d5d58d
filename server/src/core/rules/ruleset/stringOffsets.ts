// Decoded JSON string <-> source offsets. A JSON string literal's escapes (\" \\ \n \u0041 ...) take several source characters for
// one decoded character, so a span found in the decoded value (an expression token) must be mapped back before it is reported.

import type { Span } from '../../types';

export interface DecodedString {
  /** The decoded value (what JSON.parse gives). */
  value: string;
  /** Source offset (in the document) of the first source character that produced decoded index i; i === value.length maps to
   *  the closing quote (or the end of the literal when it is unterminated). */
  toSource(index: number): number;
  /** Source span covering the decoded span [offset, offset + length). An empty span maps to an empty span at its start. */
  spanToSource(span: Span): Span;
  /** Decoded index of a source offset inside the literal (clamped to 0..value.length); for a hover or a completion. */
  toDecoded(sourceOffset: number): number;
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Decode the JSON string literal `literal` (including its quotes) that starts at document offset `base`.
 * Malformed escapes are kept as written (the JSON parser reports them), so this never throws.
 */
export function decodeJsonString(literal: string, base: number): DecodedString {
  const starts: number[] = [];
  let value = '';
  const open = literal.startsWith('"') ? 1 : 0;
  let end = literal.length;
  if (literal.length > open && literal.endsWith('"') && !isEscaped(literal, literal.length - 1) && literal.length - 1 >= open) end = literal.length - 1;
  let i = open;
  while (i < end) {
    const c = literal[i];
    if (c === '\\' && i + 1 < end) {
      const e = literal[i + 1];
      if (e in SIMPLE_ESCAPES) {
        starts.push(i);
        value += SIMPLE_ESCAPES[e];
        i += 2;
        continue;
      }
      if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(literal.slice(i + 2, i + 6))) {
        starts.push(i);
        value += String.fromCharCode(parseInt(literal.slice(i + 2, i + 6), 16));
        i += 6;
        continue;
      }
    }
    starts.push(i);
    value += c;
    i++;
  }
  starts.push(end);
  const toSource = (index: number): number => base + starts[Math.max(0, Math.min(index, starts.length - 1))];
  return {
    value,
    toSource,
    spanToSource: (span) => {
      const from = toSource(span.offset);
      return { offset: from, length: toSource(span.offset + span.length) - from };
    },
    toDecoded: (sourceOffset) => {
      const rel = sourceOffset - base;
      // the last decoded index whose source start is <= rel
      let lo = 0, hi = starts.length - 1;
      if (rel <= starts[0]) return 0;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= rel) lo = mid; else hi = mid - 1;
      }
      return lo;
    },
  };
}

function isEscaped(s: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 1;
}
