// Messages go to terminals, the Problems panel and SARIF files: whatever a document holds (NUL bytes, control characters, lone
// surrogates, a 1 MB key), the message that quotes it stays one short printable line.
import { headOf, quoteShort } from './text';

/** What problem messages call the text they are about, unless a caller names it otherwise (a job's "the filter string"). */
export const THE_DOCUMENT = 'the document';

const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Control characters and lone surrogates written as \uXXXX escapes. */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Longest quoted run kept whole in a message; longer ones keep their start and an ellipsis. */
const MAX_QUOTED = 120;

/** Longest message kept whole (a quoted JSON value can be any size). */
const MAX_MESSAGE = 1000;

/** A message made printable, with every overlong quoted name or value shortened, and the whole capped at MAX_MESSAGE. */
export function tidyMessage(message: string): string {
  if (message.length <= MAX_QUOTED) return printable(message);
  // A linear scan, not a regex: a message may quote a 50 MB value, where a backtracking regex overflows the stack.
  let out = '';
  let i = 0;
  while (i < message.length && out.length <= MAX_MESSAGE) {
    const open = message.indexOf('"', i);
    const close = open < 0 ? -1 : message.indexOf('"', open + 1);
    if (close < 0) { out += message.slice(i, i + MAX_MESSAGE + 1); i = message.length; break; }
    const inner = message.slice(open + 1, close);
    out += message.slice(i, open + 1) + (inner.length > MAX_QUOTED ? `${headOf(inner, MAX_QUOTED - 20)}…` : inner) + '"';
    i = close + 1;
  }
  if (out.length > MAX_MESSAGE || i < message.length) out = `${headOf(out, MAX_MESSAGE - 1)}…`;
  return printable(out);
}

/** A JSON value as a message names it: "null", "an array", "an object", the string "…" (cut at 40), number 5, boolean true. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${quoteShort(value)}`;
  // A number beyond a double's range (1e400) parses to Infinity, which JSON.stringify would print as "null".
  if (typeof value === 'number' && !Number.isFinite(value)) return `number ${String(value)} (too large for a double)`;
  if (typeof value === 'bigint') return `the integer ${value}`; // past 2^53, as a line writes it (JSON.stringify throws on a bigint)
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** Words as a list in a sentence: `a`, `a and b`, `a, b and c` (joiner "and" or "or"); none: the empty string. */
export function wordList(words: readonly string[], joiner = 'and'): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} ${joiner} ${words[words.length - 1]}`;
}

/** Names quoted as a list in a sentence (every "did you mean"): `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
export function quoteList(names: readonly string[], joiner = 'or'): string {
  return wordList(names.map((n) => `"${n}"`), joiner);
}
