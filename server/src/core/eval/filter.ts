// What a Logpush filter matches: the filter compiled once into a tree of closures over a log record (a parsed NDJSON line), with
// each field's type from the dataset's catalogue. Pure: no I/O. The semantic decisions the spec leaves open are in
// docs/evaluators.md; in short: string operators are case-sensitive, Int fields compare as numbers whether the record or the filter
// writes them as numbers or numeric strings, a negated operator is the negation of its positive one (so a missing field passes
// "!eq"), and a positive operator never matches a missing or null field.
import { isObj } from '../json';
import { headOf } from '../text';
import { datasetFields, fieldNamed, operatorInfo, typeClasses, type FieldInfo, type TypeClass } from '../rules/logpush/catalogue';
import { ORDERING, comparisonValueError, filterNumber, valueShapeError } from '../rules/logpush/filter';
import { eachComparison } from './records';

export type LogRecord = Record<string, unknown>;

/** One node of the filter tree, with how many records it matched in the last counted run. */
export interface FilterNode {
  /** "and", "or", or the comparison as text: `ClientCountry eq "ca"`. */
  label: string;
  /** The node's place in the filter: ["where", "and", 1]. */
  path: (string | number)[];
  children: FilterNode[];
  matched: number;
  /** The field a positive comparison of text reads (eq, in, startsWith, endsWith, contains on a field compared as a string). */
  textField?: string;
}

export interface CompiledFilter {
  /** Whether the record passes the filter (is pushed). */
  test(record: LogRecord): boolean;
  /** The tree, for per-branch counts. */
  root: FilterNode;
  /** test(), counting every node's matches into root (each node evaluated, no short-circuit: for the result view). */
  testCounting(record: LogRecord): boolean;
}

type Test = (r: LogRecord) => boolean;

const NEGATED: Record<string, string> = { '!eq': 'eq', '!startsWith': 'startsWith', '!endsWith': 'endsWith', '!contains': 'contains', '!in': 'in' };

/** A record's number: a JSON number, or a numeric string ("200", "1.5") as a log line of another tool may write it; NaN otherwise.
 * A filter's own values are read with the checker's grammar (filterNumber), after the checker's verdict (comparisonValueError). */
function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v); // a line's integer past 2^53 (readNdjson); compared exactly by order()
  if (typeof v === 'string' && v.trim() !== '' && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim())) return Number(v);
  return NaN;
}

/**
 * An integer exactly, from a text that writes one ("1700000000000000001", as a filter value or a record's numeric string) or a
 * number that is an integer (its double's value: a JSON number past 2^53 is already rounded when it is read); undefined otherwise.
 * Past 2^53 a double is not the platform's integer (a unixnano timestamp, about 1.7e18, is one double for every 256 ns), so two
 * integers compare as bigints when either is written past 2^53 (docs/evaluators.md).
 */
function exactInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  return /^[+-]?\d+$/.test(t) ? BigInt(t) : undefined;
}

/** Whether a text writes an integer a double does not hold exactly (more than 15 digits: compared exactly). */
const longInt = (v: unknown): boolean => typeof v === 'bigint' || (typeof v === 'string' && /^\s*[+-]?\d{16,}\s*$/.test(v));

/** The sign of record value v minus the filter's number n (`big`: the filter's integer exactly, when its text is past 2^53); NaN
 * when v is no number. Doubles compare exactly as they are, so bigints are needed only where a text was written past 2^53. */
function order(v: unknown, n: number, big: bigint | undefined): number {
  if (big === undefined && !longInt(v)) { const x = num(v); return x < n ? -1 : x > n ? 1 : x === n ? 0 : NaN; }
  const a = exactInt(v);
  const b = big ?? exactInt(n);
  if (a === undefined || b === undefined) { const x = num(v), y = big === undefined ? n : Number(big); return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN; }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The filter's integer exactly when its text is past 2^53 ("1700000000000000001"), else undefined (its double is exact). */
const bigOf = (value: unknown): bigint | undefined => (longInt(value) ? exactInt(value) : undefined);

/** A record value's key for an exact set of integers: the integer's digits, or the number's text. */
const intKey = (v: unknown): string | undefined => { const x = exactInt(v); return x !== undefined ? String(x) : Number.isNaN(num(v)) ? undefined : String(num(v)); };

function bool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Whether a record value equals a filter value of an "int or string" field: as numbers when the filter's is one, else as text. */
function numOrStrEq(value: unknown): (v: unknown) => boolean {
  const n = filterNumber(value);
  const big = bigOf(value);
  if (!Number.isNaN(n)) return (v) => order(v, n, big) === 0;
  const s = str(value);
  return (v) => str(v) === s;
}

/** The comparison of one positive operator on one field class. `value` is the filter's value as written; `numOrStr`: the field is
 * "int or string" (a timestamp, a number or RFC 3339 text per the job's timestamp_format); `numbers`: an array of int or float. */
function positive(op: string, cls: TypeClass, value: unknown, numOrStr: boolean, numbers: boolean): ((v: unknown) => boolean) | string {
  switch (op) {
    case 'eq':
      if (numOrStr) return numOrStrEq(value);
      if (cls === 'int') { const n = filterNumber(value), big = bigOf(value); return (v) => order(v, n, big) === 0; }
      if (cls === 'bool') { const b = bool(value); return (v) => bool(v) === b; }
      { const s = str(value); return (v) => str(v) === s; }
    case 'lt': case 'leq': case 'gt': case 'geq': {
      const n = filterNumber(value);
      if (Number.isNaN(n)) return `"${op}" needs a number, not ${JSON.stringify(value)}`;
      const big = bigOf(value);
      if (op === 'lt') return (v) => order(v, n, big) < 0;
      if (op === 'leq') return (v) => order(v, n, big) <= 0;
      if (op === 'gt') return (v) => order(v, n, big) > 0;
      return (v) => order(v, n, big) >= 0;
    }
    case 'startsWith': { const s = String(value); return (v) => typeof v === 'string' && v.startsWith(s); }
    case 'endsWith': { const s = String(value); return (v) => typeof v === 'string' && v.endsWith(s); }
    case 'contains': {
      const s = String(value);
      const n = numbers ? filterNumber(value) : NaN;
      // By order(): an element or the value past 2^53 compares by its digits
      if (cls === 'array' && !Number.isNaN(n)) { const big = bigOf(value); return (v) => Array.isArray(v) && v.some((x) => order(x, n, big) === 0); }
      if (cls === 'array') return (v) => Array.isArray(v) && v.some((x) => str(x) === s);
      return (v) => typeof v === 'string' && v.includes(s);
    }
    case 'in': {
      if (!Array.isArray(value)) return `"in" needs an array of values, not ${JSON.stringify(value)}`;
      if (numOrStr) { const eqs = value.map(numOrStrEq); return (v) => eqs.some((e) => e(v)); }
      // NaN is left out: Set.has(NaN) is true for a set holding NaN, so a non-number would match any non-number.
      if (cls === 'int') {
        const set = new Set(value.map(filterNumber).filter((n) => !Number.isNaN(n)));
        // Past 2^53 by the integers' digits: a member or a record's text written past it
        if (!value.some(longInt)) return (v) => (longInt(v) ? value.some((x) => order(v, filterNumber(x), bigOf(x)) === 0) : set.has(num(v)));
        const keys = new Set(value.map(intKey).filter((k) => k !== undefined));
        return (v) => { const k = intKey(v); return k !== undefined && keys.has(k); };
      }
      if (cls === 'array' && numbers) {
        const nums = new Set(value.map(filterNumber).filter((n) => !Number.isNaN(n)));
        const eqs = value.map((x) => { const n = filterNumber(x), big = bigOf(x); return (y: unknown) => order(y, n, big) === 0; });
        // An element or a member past 2^53 by its digits (order), the others through the set
        const exact = value.some(longInt);
        return (v) => Array.isArray(v) && v.some((x) => (exact || longInt(x) ? eqs.some((e) => e(x)) : nums.has(num(x))));
      }
      const set = new Set(value.map((x) => str(x)));
      if (cls === 'array') return (v) => Array.isArray(v) && v.some((x) => set.has(str(x)));
      return (v) => set.has(str(v));
    }
    default:
      return `unknown operator "${op}"`;
  }
}

/** A filter value as JSON text, an integer past 2^53 (a bigint: withExactIntegers) with the digits the document writes. */
function labelOf(value: unknown): string {
  if (typeof value === 'bigint') return String(value);
  if (!Array.isArray(value) || !value.some((x) => typeof x === 'bigint')) return JSON.stringify(value);
  return `[${value.map((x) => (typeof x === 'bigint' ? String(x) : JSON.stringify(x))).join(',')}]`;
}

/** The class a field compares as: int before string for "int or string" (numbers compare numerically), array, bool. */
function classOf(field: FieldInfo | undefined, op: string): TypeClass {
  const classes = field ? typeClasses(field.type) : [];
  if (['lt', 'leq', 'gt', 'geq'].includes(op)) return 'int';
  for (const c of ['int', 'array', 'bool', 'string'] as const) if (classes.includes(c)) return c;
  return 'string';
}

/**
 * The filter (`{ "where": ... }`, as in a filter file or a job's parsed `filter` string) compiled for `dataset`'s fields; an error
 * names what cannot be evaluated and where. A field the catalogue does not know compares as a string.
 */
export function compileFilter(filter: unknown, dataset: string): { ok: true; filter: CompiledFilter } | { ok: false; error: string } {
  if (!isObj(filter) || !('where' in filter)) return { ok: false, error: 'The filter has no "where" member.' };
  const fields = new Map((datasetFields(dataset) ?? []).map((f) => [f.name, f]));
  const nodes: { node: FilterNode; test: Test }[] = [];

  const build = (n: unknown, path: (string | number)[], depth: number): { node: FilterNode; test: Test } | string => {
    if (depth > 100) return `the filter nests deeper than 100 levels at ${path.join('.')}`;
    if (!isObj(n)) return `${path.join('.')} is not an object`;
    for (const g of ['and', 'or'] as const) {
      if (!(g in n)) continue;
      const items = n[g];
      if (!Array.isArray(items)) return `${[...path, g].join('.')} is not an array`;
      const kids: { node: FilterNode; test: Test }[] = [];
      for (let i = 0; i < items.length; i++) {
        const k = build(items[i], [...path, g, i], depth + 1);
        if (typeof k === 'string') return k;
        kids.push(k);
      }
      const tests = kids.map((k) => k.test);
      const test: Test = g === 'and'
        ? (r) => { for (const t of tests) if (!t(r)) return false; return true; }
        : (r) => { for (const t of tests) if (t(r)) return true; return false; };
      const entry = { node: { label: g, path: [...path, g], children: kids.map((k) => k.node), matched: 0 }, test };
      nodes.push(entry);
      return entry;
    }
    const { key, operator, value } = n as { key?: unknown; operator?: unknown; value?: unknown };
    if (typeof key !== 'string') return `${path.join('.')} has no "key" string`;
    if (typeof operator !== 'string') return `${path.join('.')} has no "operator" string`;
    const negated = NEGATED[operator];
    const op = negated ?? operator;
    const field = fields.get(key);
    // What the checker flags is refused, not coerced ("1e3" or 1.5 for an Int field, 403 for a String one, "lt" on a String field)
    const refused = field && comparisonValueError(field.type, operator, value);
    if (refused) return `${path.join('.')}: ${refused} ("${key}" is ${field.type})`;
    // A field of no known type (a dataset known by name only): what the operator asks of any value, as the checker reports it
    const misshapen = !field && valueShapeError(operator, value);
    if (misshapen) return `${path.join('.')}: ${misshapen}`;
    const classes = field ? typeClasses(field.type) : [];
    const cmp = positive(op, classOf(field, op), value, classes.includes('int') && classes.includes('string'), !!field && /^array\[(int|float)\]$/.test(field.type));
    if (typeof cmp === 'string') return `${path.join('.')}: ${cmp}`;
    // A missing or null field never matches a positive operator; the negated one is its negation.
    const hit: Test = (r) => { const v = r[key]; return v !== undefined && v !== null && cmp(v); };
    const test: Test = negated ? (r) => !hit(r) : hit;
    const text = !negated && classOf(field, op) === 'string';
    const entry = { node: { label: `${key} ${operator} ${labelOf(value)}`, path, children: [], matched: 0, ...(text ? { textField: key } : {}) }, test };
    nodes.push(entry);
    return entry;
  };

  const root = build(filter.where, ['where'], 0);
  if (typeof root === 'string') return { ok: false, error: `The filter cannot be evaluated: ${root}.` };
  const counting = new Map(nodes.map((e) => [e.node, e.test]));
  const countAll = (node: FilterNode, r: LogRecord): boolean => {
    for (const c of node.children) countAll(c, r);
    const v = counting.get(node)!(r);
    if (v) node.matched++;
    return v;
  };
  return { ok: true, filter: { test: root.test, root: root.node, testCounting: (r) => countAll(root.node, r) } };
}

/**
 * The values the records taken hold in each field a comparison of text in the tree reads (FilterNode.textField), to say what a
 * generated sample has where such a comparison matched none of it (test-filter's report; a log file's values are the user's data).
 */
export class TextFieldValues {
  private readonly counts = new Map<string, Map<string, number>>();
  constructor(root: FilterNode) {
    const visit = (n: FilterNode): void => { if (n.textField) this.counts.set(n.textField, new Map()); n.children.forEach(visit); };
    visit(root);
  }
  take(record: LogRecord): void {
    for (const [key, values] of this.counts) {
      const v = record[key];
      if (v === undefined || v === null) continue;
      const text = typeof v === 'bigint' ? String(v) : JSON.stringify(v);
      values.set(text, (values.get(text) ?? 0) + 1);
    }
  }
  /** One line naming the first `most` of the field's values, most common first (a tie in the order first seen); undefined for a field
   * not counted. */
  line(key: string, most = 5): string | undefined {
    const values = this.counts.get(key);
    if (!values) return undefined;
    if (!values.size) return `The sample's lines have no ${key}.`;
    const head = [...values].sort((a, b) => b[1] - a[1]).slice(0, most).map(([v]) => (v.length > 60 ? `${headOf(v, 59)}…` : v));
    return `The sample's ${key} values: ${head.join(', ')}${values.size > most ? `, … (${values.size.toLocaleString('en')} in all)` : ''}`;
  }
}

/** A compared field's type, and why a record's value of it cannot be read by the filter's comparisons on it (undefined: it can): a
 * clause after "is ... there". */
export interface ValueReader { type: string; read(v: unknown): string | undefined }

/**
 * For each field the filter compares whose type the dataset's catalogue gives, why a record's value of it is one its comparisons
 * cannot read, as compileFilter reads it: no number for an Int field (numbers written as text are read), neither true nor false for a
 * Bool one, no array for an Array one (or an element that is no number in an array of numbers), no text for a String one, and an
 * "int or string" timestamp written as text where the filter compares it with numbers only (an ordering, eq/in with numbers: a job
 * with timestamp_format rfc3339) or as a number where it compares it with text only. Such a line decides the comparisons as a missing
 * field would; test-filter names it (core/eval/records.ts logRecordChecker).
 */
export function filterValueReaders(filter: unknown, dataset: string): Map<string, ValueReader> {
  const fields = datasetFields(dataset) ?? [];
  const uses = new Map<string, { field: FieldInfo; number: boolean; text: boolean }>();
  eachComparison(isObj(filter) ? filter.where : undefined, ({ key, operator, value }) => {
    const field = fieldNamed(fields, key);
    const op = typeof operator === 'string' ? operatorInfo(operator) : undefined;
    if (!op || !field?.filterable) return;
    const u = uses.get(key) ?? { field, number: false, text: false };
    if (ORDERING.has(op.name)) u.number = true;
    // startsWith, endsWith, contains and their negations: the catalogue's operators that take no Int
    else if (!op.accepts.includes('int')) u.text = true;
    else for (const x of Array.isArray(value) ? value : [value]) { if (Number.isNaN(filterNumber(x))) u.text = true; else u.number = true; }
    uses.set(key, u);
  });
  const readers = new Map<string, ValueReader>();
  for (const [key, u] of uses) {
    const read = readerOf(u.field.type, u.number, u.text);
    if (read) readers.set(key, { type: u.field.type, read });
  }
  return readers;
}

function readerOf(type: string, number: boolean, text: boolean): ValueReader['read'] | undefined {
  const classes = typeClasses(type);
  if (classes.includes('int') && classes.includes('string')) {
    if (number && !text) return (v) => (typeof v === 'string' && Number.isNaN(num(v)) ? 'and the filter compares it with numbers, which text never equals or orders (logs of a job with timestamp_format rfc3339?)' : undefined);
    if (text && !number) return (v) => (typeof v === 'number' || typeof v === 'bigint' ? 'and the filter compares it with text, which a number never equals (logs of a job with timestamp_format unix or unixnano?)' : undefined);
    return undefined;
  }
  if (classes.length !== 1) return undefined;
  switch (classes[0]) {
    case 'int': return (v) => (Number.isNaN(num(v)) ? 'which reads as no number' : undefined);
    case 'bool': return (v) => (bool(v) === undefined ? 'which reads as neither true nor false' : undefined);
    case 'string': return (v) => (str(v) === undefined ? 'which is no text' : undefined);
    case 'array': {
      const numbers = /^array\[(int|float)\]$/.test(type);
      return (v) => (!Array.isArray(v) ? 'which is no array'
        : numbers && v.some((x) => x !== null && Number.isNaN(num(x))) ? 'which holds an element that is no number' : undefined);
    }
    default: return undefined;
  }
}
