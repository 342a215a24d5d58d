// The one test for "a JSON object" (not null, not an array) that every part of the core uses, the value at a path, and JSON
// integers past 2^53.
import { visit } from 'jsonc-parser';
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at a path of member names and indexes inside a parsed JSON value; undefined where there is none. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

/**
 * The digits of an integer JSON number that JSON.parse did not read exactly (past 2^53, where a double holds one integer in two, or
 * in 256 near a unixnano timestamp): `text` is the number as the document writes it, `value` what JSON.parse gave. Undefined for a
 * number read exactly (2^53 itself, 2^60, 1e20, 1.5) and for any other value, so a caller checks `typeof value === 'number'` and
 * the magnitude first and reads the text only then.
 */
export function inexactInteger(text: string, value: unknown): string | undefined {
  if (typeof value !== 'number' || !(Math.abs(value) > Number.MAX_SAFE_INTEGER) || !Number.isFinite(value)) return undefined;
  if (!/^-?(0|[1-9]\d*)$/.test(text)) return undefined;
  return BigInt(text) === BigInt(value) ? undefined : text;
}

/** Whether a JSON number may have been read inexactly: the cheap test before reading its text (inexactInteger). */
export const pastSafeInteger = (value: unknown): value is number => typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER;

/**
 * The value JSON.parse gave for `text`, with every integer it rounded (past 2^53) as a bigint of the digits the text writes, for the
 * evaluators: a unixnano timestamp 1700000000000000001 in a filter is not 1700000000000000000. Without such a number (no run of 16
 * digits: the common case, one regular-expression test), `value` itself; else a copy, `value` is never changed. A path JSON.parse
 * resolved to another member (a duplicate key) is left as it is.
 */
export function withExactIntegers(text: string, value: unknown): unknown {
  if (!/\d{16}/.test(text)) return value;
  const found: { path: (string | number)[]; digits: string; rounded: number }[] = [];
  visit(text, {
    onLiteralValue(v: unknown, offset: number, length: number, _l: number, _c: number, pathSupplier: () => (string | number)[]) {
      if (!pastSafeInteger(v)) return;
      const digits = inexactInteger(text.slice(offset, offset + length), v);
      if (digits !== undefined) found.push({ path: pathSupplier(), digits, rounded: v });
    },
  });
  if (found.length === 0) return value;
  const out = structuredClone(value);
  for (const { path, digits, rounded } of found) {
    if (path.length === 0) return out === rounded ? BigInt(digits) : out;
    const parent = valueAt(out, path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent !== null && typeof parent === 'object' && (parent as Record<string | number, unknown>)[last] === rounded) (parent as Record<string | number, unknown>)[last] = BigInt(digits);
  }
  return out;
}
