// What a run of the evaluators over a file of records could not read as the platform would. A rule or a filter reads a missing field
// as absent, so a request record with "http.hots" (a typo), a header value written as a string (the platform gives every header
// an array of values) or an integer written as "42" makes the rules that read it quietly match nothing; a log file without a field
// that the filter compares (a job whose field_names leave it out, logs of another dataset) decides every comparison on it alike.
// These checks say so, with the first line of each kind of problem, instead of counts that look right.
import { FIELDS, NETWORK_FIELDS, tyName, type Ty } from '../rules/ruleset/catalog';
import { validIp } from '../rules/ruleset/exprLexer';
import { suggest } from '../suggest';
import { isObj } from '../json';
import { describe, tidyMessage } from '../messages';
import type { ValueReader } from './filter';

/** How many records had a problem, and the first of each kind ("line N: ..."), at most EXAMPLES of them. */
export interface RecordProblems { records: number; examples: string[] }

export interface RecordChecker {
  take(record: Record<string, unknown>, line: number): void;
  /** undefined when every record read as the platform would. */
  result(): RecordProblems | undefined;
}

const EXAMPLES = 3;
const FIELD_NAMES = [...FIELDS.keys(), ...NETWORK_FIELDS.keys()];

/**
 * An address as an IP field holds it: four decimal parts without leading zeros, or IPv6 as the rules language writes it
 * (exprLexer validIp, Rust's IpAddr grammar). Not ipaddr.js's isValid, which takes the inet_aton forms ("1.2.3" for 1.2.0.3,
 * "010.1.1.1" in octal, "3232235777") and zone ids. The rules evaluator reads a request's address with the same test (rules.ts
 * readIp), so what is flagged here is no address there either.
 */
const platformIp = validIp;

/** Why value cannot be a value of ty (undefined: it can). Integer takes any number: the catalogue's Number fields are Integer too. */
function mismatch(value: unknown, ty: Ty): string | undefined {
  switch (ty.t) {
    case 'Unknown': return undefined;
    case 'String': case 'Bytes': return typeof value === 'string' ? undefined : describe(value);
    // A bigint: an integer past 2^53 as the line writes it (readNdjson); the platform's integers are 64-bit
    case 'Integer': return typeof value === 'bigint' ? (BigInt.asIntN(64, value) === value ? undefined : `the integer ${value}, past the 64-bit integers`)
      : typeof value === 'number' && Number.isFinite(value) ? undefined : describe(value);
    case 'Boolean': return typeof value === 'boolean' ? undefined : describe(value);
    case 'IP': return typeof value === 'string' && platformIp(value) ? undefined : typeof value === 'string' ? `${describe(value)}, not an IP address (a.b.c.d in decimal, or IPv6)` : describe(value);
    case 'Array': {
      if (!Array.isArray(value)) return describe(value);
      for (const [i, v] of value.entries()) { const m = mismatch(v, ty.of); if (m) return `${m} at [${i}]`; }
      return undefined;
    }
    case 'Map': {
      if (!isObj(value)) return describe(value);
      for (const [k, v] of Object.entries(value)) { const m = mismatch(v, ty.of); if (m) return `${m} at ${JSON.stringify(k)}`; }
      return undefined;
    }
  }
}

export function collector(): { note(kind: string, message: () => string, line: number): void; endRecord(): void; result(): RecordProblems | undefined } {
  const seen = new Set<string>();
  const examples: string[] = [];
  let records = 0, inRecord = false;
  return {
    note(kind, message, line) {
      inRecord = true;
      // Kinds are remembered only until the examples are taken: a file whose every line names a field of its own would keep them all.
      if (examples.length >= EXAMPLES || seen.has(kind)) return;
      seen.add(kind);
      // One short printable line, as a problem's message: a field name is decoded JSON ("a\n::error::...") and up to 1 MiB long.
      examples.push(tidyMessage(`line ${line}: ${message()}`));
    },
    endRecord() { if (inRecord) records++; inRecord = false; },
    result: () => (records ? { records, examples } : undefined),
  };
}

/** Request records for the rules evaluator (edgekit test-rules): each member a rules-language field, holding a value of its type. */
export function requestRecordChecker(): RecordChecker {
  const c = collector();
  return {
    take(record, line) {
      for (const [name, value] of Object.entries(record)) {
        const info = FIELDS.get(name) ?? NETWORK_FIELDS.get(name);
        if (!info) {
          c.note(`unknown ${name}`, () => {
            const near = suggest(name, FIELD_NAMES);
            return `"${name}" is not a rules-language field${near.length ? ` (did you mean "${near[0]}"?)` : ''}; rules never read it`;
          }, line);
          continue;
        }
        if (value === null) continue; // absent, as a request without the header or the field has it
        const m = mismatch(value, info.type);
        if (m) c.note(`type ${name}`, () => `"${name}" is ${tyName(info.type)} on the platform, here ${m}, which the rules cannot read as the platform would`, line);
      }
      c.endRecord();
    },
    result: c.result,
  };
}

/**
 * The maps of arrays that have names and values fields beside them (http.request.headers with http.request.headers.names and
 * .values, http.response.headers, http.request.uri.args, http.request.body.form, ...), from the catalogue: on the platform the three
 * come from the same headers or arguments, so a request record that writes the map gives the other two (pairedFields).
 */
const PAIRED: readonly string[] = [...FIELDS.keys(), ...NETWORK_FIELDS.keys()].filter((name) => {
  const ty = (FIELDS.get(name) ?? NETWORK_FIELDS.get(name))!.type;
  const list = (f: string) => { const t = (FIELDS.get(f) ?? NETWORK_FIELDS.get(f))?.type; return t?.t === 'Array' && t.of.t === 'String'; };
  return ty.t === 'Map' && ty.of.t === 'Array' && ty.of.of.t === 'String' && list(`${name}.names`) && list(`${name}.values`);
});

/**
 * A request record with the names and values fields its maps give (PAIRED), where it writes a well-formed map and neither of the two:
 * one name per value, key by key, in the map's order (the order of the request's lines, which a map cannot keep, is the keys'); the
 * record itself when there is nothing to add. What the record writes itself is kept, and a malformed map (reported by
 * requestRecordChecker) gives nothing.
 */
export function pairedFields(record: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const name of PAIRED) {
    const map = record[name];
    if (map === undefined || map === null || record[`${name}.names`] !== undefined || record[`${name}.values`] !== undefined) continue;
    if (mismatch(map, (FIELDS.get(name) ?? NETWORK_FIELDS.get(name))!.type)) continue;
    const names: string[] = [], values: string[] = [];
    for (const [k, vs] of Object.entries(map as Record<string, string[]>)) for (const v of vs) { names.push(k); values.push(v); }
    out ??= { ...record };
    out[`${name}.names`] = names;
    out[`${name}.values`] = values;
  }
  return out ?? record;
}

/** The fields a Logpush filter compares ("key" of each comparison), in the order they appear. */
export function filterKeys(filter: unknown): string[] {
  const keys = new Set<string>();
  eachComparison(filter, (c) => keys.add(c.key));
  return [...keys];
}

/** Each object of a filter (or part of one) with a string "key", a comparison, in document order, to a depth of 100. */
export function eachComparison(filter: unknown, visit: (c: { key: string; operator?: unknown; value?: unknown }) => void): void {
  const walk = (n: unknown, depth: number) => {
    if (depth > 100) return;
    if (Array.isArray(n)) { for (const x of n) walk(x, depth + 1); return; }
    if (!isObj(n)) return;
    if (typeof n.key === 'string') visit(n as { key: string });
    for (const v of Object.values(n)) if (typeof v === 'object') walk(v, depth + 1);
  };
  walk(filter, 0);
}

/**
 * Log records for the filter evaluator (edgekit test-filter): a field the filter compares that no record has, and (with `readers`,
 * eval/filter.ts filterValueReaders) a value its comparisons cannot read for the field's type, once per field, by its first line.
 */
export function logRecordChecker(keys: readonly string[], readers: ReadonlyMap<string, ValueReader> = new Map()): RecordChecker {
  const present = new Set<string>();
  const unread = collector();
  let total = 0, first = 0;
  return {
    take(record, line) {
      if (total++ === 0) first = line;
      for (const k of keys) if (!present.has(k) && record[k] !== undefined) present.add(k);
      for (const [k, r] of readers) {
        const v = record[k];
        const why = v === undefined || v === null ? undefined : r.read(v);
        if (why) unread.note(k, () => `"${k}" (${r.type}) is ${describe(v)} there, ${why}; its positive comparisons never match such a line and the negated ones always do`, line);
      }
      unread.endRecord();
    },
    result() {
      const missing = keys.filter((k) => !present.has(k));
      const values = unread.result();
      if (!total || (!missing.length && !values)) return undefined;
      const names = missing.map((k) => `"${k}"`).join(', ');
      return {
        records: missing.length ? total : values!.records,
        examples: [...(missing.length ? [tidyMessage(`from line ${first} on: the filter compares ${names}, which no record has, so ${missing.length === 1 ? 'its' : 'their'} positive comparisons never match ` +
          'and the negated ones (!eq, !in, ...) always do (logs of another dataset, or a job whose output_options.field_names leave it out?)')] : []), ...(values?.examples ?? [])].slice(0, EXAMPLES),
      };
    },
  };
}
