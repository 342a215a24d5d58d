// The one test for "a JSON object" (not null, not an array) that every part of the core uses, the value at a path, and JSON
// integers past 2^53.
import { createScanner, SyntaxKind } from 'jsonc-parser';
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
  return exactIntegers(text, value, true);
}

/**
 * JSON.parse of a log line or a request record (or a JSON array of them), with its integers past 2^53 as withExactIntegers gives them,
 * changed in place (the value is the caller's own: no copy). A line without a number past 2^53 pays a walk over its values; one
 * with such a number is read again by jsonc-parser's scanner for the numbers' texts. Throws as JSON.parse does.
 */
export function parseExact(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return hasUnsafeNumber(value, 0) ? exactIntegers(text, value, false) : value;
}

/** Whether a parsed value holds a number past 2^53 (one JSON.parse may have rounded): a walk over its values, cheaper than a regular
 * expression over its text (a log line is a flat object of about 10 to 100 members). Deeper than 64 levels: said to, and the text
 * is then read. */
function hasUnsafeNumber(v: unknown, depth: number): boolean {
  if (typeof v === 'number') return v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER;
  if (typeof v !== 'object' || v === null) return false;
  if (depth > 64) return true;
  if (Array.isArray(v)) { for (const x of v) if (hasUnsafeNumber(x, depth + 1)) return true; return false; }
  for (const k in v) if (hasUnsafeNumber((v as Record<string, unknown>)[k], depth + 1)) return true;
  return false;
}

/** The numbers of `text` (valid JSON) past 2^53, with their paths and, for an integer JSON.parse rounds, its digits: jsonc-parser's
 * scanner over the tokens, a path kept as it goes (its visitor, which builds the path of every value, took three times as long on a
 * log line). Those read exactly (2^53, 1e16) are there too: a duplicate key's last member may be one (exactIntegers). */
function bigNumbers(text: string): { path: (string | number)[]; digits: string | undefined; rounded: number }[] {
  const found: { path: (string | number)[]; digits: string | undefined; rounded: number }[] = [];
  const path: (string | number)[] = [];
  const arrays: boolean[] = [];
  let expectKey = false;
  const s = createScanner(text, true);
  for (let k = s.scan(); k !== SyntaxKind.EOF; k = s.scan()) {
    switch (k) {
      case SyntaxKind.OpenBraceToken: arrays.push(false); path.push(''); expectKey = true; break;
      case SyntaxKind.OpenBracketToken: arrays.push(true); path.push(0); break;
      case SyntaxKind.CloseBraceToken: case SyntaxKind.CloseBracketToken: arrays.pop(); path.pop(); expectKey = false; break;
      case SyntaxKind.CommaToken:
        if (arrays[arrays.length - 1]) (path[path.length - 1] as number)++; else expectKey = true;
        break;
      case SyntaxKind.StringLiteral: if (expectKey) { path[path.length - 1] = s.getTokenValue(); expectKey = false; } break;
      case SyntaxKind.NumericLiteral: {
        const t = s.getTokenValue();
        // Past 2^53 takes 16 digits, or an exponent
        if (t.length < 16 && !/[eE]/.test(t)) break;
        const v = Number(t);
        if (pastSafeInteger(v)) found.push({ path: [...path], digits: inexactInteger(t, v), rounded: v });
        break;
      }
      default: break;
    }
  }
  return found;
}

function exactIntegers(text: string, value: unknown, copy: boolean): unknown {
  const found = bigNumbers(text);
  if (!found.some((f) => f.digits !== undefined)) return value;
  const out = copy ? structuredClone(value) : value;
  // Last first, once per path: JSON.parse keeps a duplicate key's last member, and two numbers there may round to one double
  const done = new Set<string>();
  for (let i = found.length - 1; i >= 0; i--) {
    const { path, digits, rounded } = found[i];
    const key = JSON.stringify(path);
    if (done.has(key)) continue;
    done.add(key);
    if (digits === undefined) continue;
    if (path.length === 0) return out === rounded ? BigInt(digits) : out;
    const parent = valueAt(out, path.slice(0, -1));
    const last = path[path.length - 1];
    if (parent !== null && typeof parent === 'object' && (parent as Record<string | number, unknown>)[last] === rounded) (parent as Record<string | number, unknown>)[last] = BigInt(digits);
  }
  return out;
}

/**
 * A value as JSON text, as JSON.stringify writes it, with a bigint (an integer past 2^53: withExactIntegers, parseExact) as its
 * digits, a JSON number, where JSON.stringify throws. For records the evaluators show (the first matching lines).
 */
export function stringifyExact(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
  const write = (v: unknown, inArray: boolean): string | undefined => {
    if (typeof v === 'bigint') return String(v);
    if (Array.isArray(v)) return `[${v.map((x) => write(x, true) ?? 'null').join(',')}]`;
    if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
      const members: string[] = [];
      for (const [k, x] of Object.entries(v)) { const s = write(x, false); if (s !== undefined) members.push(`${JSON.stringify(k)}:${s}`); }
      return `{${members.join(',')}}`;
    }
    const s = JSON.stringify(v);
    return s === undefined && inArray ? 'null' : s;
  };
  return write(value, false) ?? 'undefined';
}
