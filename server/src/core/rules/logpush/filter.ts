// Semantic checks of a filter document ({"where": ...}): shape of comparisons and groups, the operator / field-type matrix of
// the dataset's field catalogue, value types and the platform limits. Works on any ParsedDoc: a *.filter.json file, or the
// decoded `filter` string of a job (the job rule maps the problems back into the job's text).
import type { Edit, Fix, JsonPath, ParsedDoc, Problem, RuleContext, Span } from '../../types';
import { compactJsonBytes, itemRemovals, quoteShort, utf8Length } from '../../text';
import { fieldSuggestions, namesOf } from '../../suggest';
import { quoteList, wordList } from '../../messages';
import {
  MAX_BYTES, MAX_OPERATORS, NEAR_LIMIT, className, datasetsWithField, fieldNamed, operatorInfo, operatorsFor, typeClasses,
  type FieldInfo, type OperatorInfo,
} from './catalogue';
import { inexactInteger, isObj, pastSafeInteger, type Obj } from '../../json';
import { rewriteJson } from './convert';
import { isEscaped } from '../../parse/scanner';
import { lazyFixes } from '../../fix';

/** Editor hint members of a standalone filter file; they must be stripped before the filter is sent. */
export const HINT_MEMBERS = ['$dataset', '$schema'] as const;
const COMPARISON_MEMBERS = ['key', 'operator', 'value'];
const GROUP_MEMBERS = ['and', 'or'];

function has(o: Obj, k: string): boolean { return Object.prototype.hasOwnProperty.call(o, k); }

/** The filter value without editor hint members (what is sent to the platform). Non-objects are returned unchanged. */
export function stripFilterHints<T>(filter: T): T {
  if (!isObj(filter)) return filter;
  const out: Obj = {};
  for (const [k, v] of Object.entries(filter)) if (!(HINT_MEMBERS as readonly string[]).includes(k)) out[k] = v;
  return out as T;
}

export interface FilterUsage { operators: number; bytes: number; maxOperators: number; maxBytes: number }

/**
 * Operators (one per comparison) and UTF-8 bytes. The platform limits the job's `filter` field, a string: `sent` is that string when
 * there is one (a job), measured as it is, whitespace included; a filter file is measured as the compact serialization it becomes
 * in a job (hints stripped).
 */
export function filterUsage(filterValue: unknown, sent?: string): FilterUsage {
  const value = stripFilterHints(filterValue);
  const bytes = sent === undefined ? compactJsonBytes(value) : utf8Length(sent);
  return { operators: countComparisons(isObj(value) ? value.where : undefined), bytes, maxOperators: MAX_OPERATORS, maxBytes: MAX_BYTES };
}

/** `12/30 operators · 412/1000 bytes` */
export function usageText(u: FilterUsage): string {
  return `${u.operators}/${u.maxOperators} operators · ${u.bytes}/${u.maxBytes} bytes`;
}

export function isGroup(node: Obj): boolean { return GROUP_MEMBERS.some((m) => has(node, m)); }

function countComparisons(node: unknown): number {
  if (!isObj(node)) return 0;
  if (isGroup(node)) {
    let n = 0;
    for (const m of GROUP_MEMBERS) { const items = node[m]; if (Array.isArray(items)) for (const i of items) n += countComparisons(i); }
    return n;
  }
  return 1;
}

export { utf8Length };

export interface FilterCheckOptions {
  /** Field catalogue of the dataset; undefined skips every field-dependent check. */
  fields: readonly FieldInfo[] | undefined;
  /** The filter is the `filter` string of a job: hint members are errors there. */
  embedded: boolean;
  /** The job's `filter` string (decoded), which the byte limit measures as it is; a filter file is measured compact. */
  sent?: string;
  /** A job whose scope is known: its dataset's fields of every scope, so that a field of the other scope's jobs is named so. */
  otherScopes?: OtherScopeFields;
}

/** A dataset's fields of every scope, beside the list of the job's scope (FilterCheckOptions.otherScopes). */
export interface OtherScopeFields { dataset: string; all: readonly FieldInfo[] }

/** The problem of a name that is no field of the job's list but one of another scope's jobs (ZoneName in a zone's firewall_events
 * job), or undefined: an unknown-field that says so, where "Unknown field" would send the user looking for a typo. */
export function otherScopeField(ctx: RuleContext, name: string, other: OtherScopeFields | undefined, at: Span): Problem | undefined {
  const f = other ? fieldNamed(other.all, name) : undefined;
  if (!other || !f?.scope) return undefined;
  return ctx.report('logpush/unknown-field',
    `"${name}" is a field of ${f.scope}-level ${other.dataset} jobs only; this job is ${f.scope === 'account' ? 'a zone' : 'an account'}'s.`, at);
}

/** At most this many other datasets are named in an unknown field's message; the rest are counted. */
const OTHER_DATASETS_SHOWN = 4;

/**
 * The problem of a name that is no field of the dataset's `fields`, at `at`: the datasets that have it, when some do (QueryName in
 * an http_requests job is right for dns_logs and gateway_dns, no typo), then the near names of this one, each a fix (writing the
 * name as a JSON string when `quoted`). A near name is preferred (applied by Fix all) only when it is a likely typo: not a name the
 * given one is a part of, and not when another dataset has the name as written (the dataset may be the mistake).
 */
export function unknownFieldProblem(ctx: RuleContext, name: string, fields: readonly FieldInfo[], at: Span, quoted: boolean): Problem {
  const { near, parts } = fieldSuggestions(name, namesOf(fields));
  const others = datasetsWithField(name);
  const named = others.length > OTHER_DATASETS_SHOWN + 1 // one more is named, not counted
    ? [...others.slice(0, OTHER_DATASETS_SHOWN), `${others.length - OTHER_DATASETS_SHOWN} more datasets`] : [...others];
  const list = wordList(named);
  const elsewhere = others.length ? ` in this dataset: it is a field of ${list}` : '';
  const message = !near.length ? `Unknown field "${name}"${elsewhere}.`
    : elsewhere ? `Unknown field "${name}"${elsewhere}. Did you mean ${quoteList(near)}?` : `Unknown field "${name}"; did you mean ${quoteList(near)}?`;
  return ctx.report('logpush/unknown-field', message, at, { fixes: near.map((n, i) => ({
    title: `Change to "${n}"`, preferred: (i === 0 && !parts && !others.length) || undefined, edits: [{ ...at, newText: quoted ? JSON.stringify(n) : n }],
  })) });
}

export function checkFilter(doc: ParsedDoc, ctx: RuleContext, opts: FilterCheckOptions): Problem[] {
  const root = doc.value;
  if (!isObj(root)) return []; // the schema reports a non-object
  const out: Problem[] = [];
  if (opts.embedded) {
    for (const h of HINT_MEMBERS) {
      if (has(root, h)) out.push(ctx.report('logpush/hint-in-job', `The member "${h}" is an editor hint for filter files; remove it from the job's filter.`, doc.locate([h], 'key')));
    }
  }
  // After a syntax error the recovered value is cut short: a missing member is then a consequence, not a finding.
  const recovered = doc.syntax.length > 0;
  if (!has(root, 'where')) {
    if (recovered) return out;
    const rootSpan = doc.locate([]);
    const anchor = { offset: rootSpan.offset, length: Math.min(1, rootSpan.length) };
    const looksLikeNode = COMPARISON_MEMBERS.some((m) => has(root, m)) || GROUP_MEMBERS.some((m) => has(root, m));
    const fixes: Fix[] = [];
    if (looksLikeNode) {
      const hints = HINT_MEMBERS.filter((h) => has(root, h));
      if (hints.length === 0) {
        fixes.push({ title: 'Wrap in "where"', preferred: true, edits: [
          { offset: rootSpan.offset, length: 0, newText: '{ "where": ' },
          { offset: rootSpan.offset + rootSpan.length, length: 0, newText: ' }' },
        ] });
      }
    }
    const what = looksLikeNode ? (isGroup(root) ? 'an and/or group' : 'a comparison') : undefined;
    out.push(ctx.report('logpush/missing-where',
      what ? `The filter is ${what} without the top-level member "where"; the platform expects {"where": ...}.`
        : 'The filter has no top-level member "where".',
      anchor, fixes.length ? { fixes } : undefined));
    return out;
  }
  new Walker(doc, ctx, opts, out, recovered).node(root.where, ['where']);
  out.push(...limitProblems(doc, ctx, root, opts));
  return out;
}

function limitProblems(doc: ParsedDoc, ctx: RuleContext, root: Obj, opts: FilterCheckOptions): Problem[] {
  const sent = opts.sent;
  const u = filterUsage(root, sent);
  const what = sent === undefined ? 'The compact filter' : 'The filter string';
  const at = (): Span => doc.locate(['where'], 'key');
  const out: Problem[] = [];
  const over = u.operators > u.maxOperators;
  if (over || u.operators >= Math.ceil(u.maxOperators * NEAR_LIMIT)) {
    // The merges need the members' places, which only jsonc-parser's tree has: worked out when the fixes are read (issue 18: building
    // the tree on every check cost a 10 KB filter over the limit 0.13-0.2 ms); every step after keeps them unread (core/fix.ts)
    const merges = () => { const fixes = mergeFixes(doc, root, opts.fields); return fixes.length ? fixes : undefined; };
    out.push(lazyFixes(over
      ? ctx.report('logpush/operator-limit', `The filter has ${u.operators} operators, over the limit of ${u.maxOperators} (comparisons are counted, and/or groups are not).`, at())
      : ctx.report('logpush/operator-limit-near', `The filter has ${u.operators} of at most ${u.maxOperators} operators (comparisons are counted, and/or groups are not).`, at()), merges,
    { nonePreferred: true })); // the user picks the groups to merge (mergeFixes): Fix all need not work them out
  }
  const overBytes = u.bytes > u.maxBytes;
  if (overBytes || u.bytes >= Math.ceil(u.maxBytes * NEAR_LIMIT)) {
    const fix = compactFix(sent, u.bytes, doc);
    out.push(overBytes ? ctx.report('logpush/size-limit', `${what} is ${u.bytes} bytes, over the limit of ${u.maxBytes}.`, at(), fix)
      : ctx.report('logpush/size-limit-near', `${what} is ${u.bytes} of at most ${u.maxBytes} bytes.`, at(), fix));
  }
  return out;
}

/**
 * A job's filter string (`sent`, parsed as `doc`) written compactly, when that makes it shorter: whitespace only, numbers as written,
 * of duplicate keys the one that counts (rewriteJson), so Fix all may apply it. A filter file is measured compact already: none there.
 */
function compactFix(sent: string | undefined, bytes: number, doc: ParsedDoc): { fixes: Fix[] } | undefined {
  // A string written compactly already (as one sent through the API is) has nothing to gain, and rewriting it on every check cost a
  // 10 KB job 0.2 ms (issue 18's bench, job-10KB): only a string with whitespace between its tokens is rewritten, or one with a "\/"
  // or "\u" escape, which writing it again may shorten (PHP's json_encode writes no whitespace and escapes every "/" and non-ASCII
  // character; rv26), or one with a duplicate key, which it writes once (the parse's own list, asked for by the check already: lf17).
  const duplicates = sent !== undefined && doc.duplicateKeys().length > 0;
  if (sent === undefined || !(spacedJson(sent) || /\\[/u]/.test(sent) || duplicates)) return undefined;
  let compact: string;
  try {
    compact = rewriteJson(sent, { indent: 0 });
  } catch {
    return undefined; // not strict JSON: its syntax problem says so
  }
  const shorter = utf8Length(compact);
  if (shorter >= bytes) return undefined;
  return { fixes: [{ title: `Write the filter string compactly${duplicates ? ', without its ignored duplicate keys' : ''} (${shorter} bytes)`, preferred: true, edits: [{ offset: 0, length: sent.length, newText: compact }] }] };
}

/** Whether JSON text has whitespace between its tokens (outside its strings): what writing it compactly removes. */
function spacedJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      if (q < 0) return false;
      i = q;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) return true;
  }
  return false;
}

/**
 * The usual way under the operator limit, which keeps what the filter selects: the "eq" comparisons of one field inside one "or"
 * group written as one "in" with their values as its set (the "!eq" inside an "and" as one "!in": a missing field passes both), an
 * "in" ("!in") of that field in the group folded in, its set's values joined to the others, one fix per group of two or more
 * comparisons, the largest saving first. The first comparison of the group becomes the set, in its place and its layout; the others
 * go with their commas; the rest of the filter is unchanged. The values as written, once each, but a number written as a string for
 * an Int field, which a set holds as a number (the spec: "numbers are written as strings in the examples, except inside the in and
 * !in arrays where they are numbers"), and an Int field's number written with a fraction or an exponent (404.0, 4.04e2) as the
 * integer it is, when it is one exactly (and within 2^53, where reading it as a double and as an integer agree); a comparison with a
 * value that is not stays out of the merge. Only comparisons the checker takes as they are (a field of the catalogue whose type has
 * "in", a value that fits, no member beside key, operator and value): the others keep their own problems. None is preferred: the
 * user picks which groups to merge, and Fix all leaves the filter's shape as written. In a job's filter string the edits are moved
 * into the string and escaped there (EmbeddedString.problem).
 */
function mergeFixes(doc: ParsedDoc, root: Obj, fields: readonly FieldInfo[] | undefined): Fix[] {
  if (!fields || doc.syntax.length > 0) return [];
  const merges: { saving: number; fix: Fix }[] = [];
  const visit = (node: unknown, path: JsonPath): void => {
    if (!isObj(node) || !isGroup(node)) return;
    const ops = GROUP_MEMBERS.filter((m) => has(node, m));
    if (ops.length !== 1 || COMPARISON_MEMBERS.some((m) => has(node, m))) return; // group-shape reports it
    const group = ops[0];
    const items = node[group];
    if (!Array.isArray(items)) return;
    const single = group === 'or' ? 'eq' : '!eq';
    const setOp = group === 'or' ? 'in' : '!in';
    const itemPath = (i: number): JsonPath => [...path, group, i];
    const byKey = new Map<string, { i: number; set: boolean; values: SetValue[] }[]>();
    items.forEach((item, i) => {
      visit(item, itemPath(i));
      if (!isObj(item) || (item.operator !== single && item.operator !== setOp) || typeof item.key !== 'string'
        || Object.keys(item).length !== COMPARISON_MEMBERS.length || !COMPARISON_MEMBERS.every((m) => has(item, m))) return;
      const field = fieldNamed(fields, item.key);
      if (!field?.filterable || !operatorsFor(field.type).some((o) => o.name === 'in') || comparisonValueError(field.type, String(item.operator), item.value)) return;
      const set = item.operator === setOp;
      const written = set ? (item.value as unknown[]).map((v, j) => setValue(doc, field, v, [...itemPath(i), 'value', j]))
        : [setValue(doc, field, item.value, [...itemPath(i), 'value'])];
      if (written.some((v) => v === undefined)) return; // a value no set of the field's type writes exactly
      const list = byKey.get(item.key) ?? [];
      list.push({ i, set, values: written as SetValue[] });
      byKey.set(item.key, list);
    });
    for (const [key, merged] of byKey) {
      if (merged.length < 2) continue;
      const first = merged[0].i;
      const seen = new Set<string>();
      const values = merged.flatMap((m) => m.values).filter((v) => !seen.has(v.key) && seen.add(v.key)).map((v) => v.text);
      // Spaced as the first comparison is between its members (its strings aside): compact in a compact job string
      const spaced = spacedJson(sourceAt(doc, itemPath(first)) ?? '');
      const edits: Edit[] = [
        ...(merged[0].set ? [] : [{ ...doc.locate([...itemPath(first), 'operator']), newText: JSON.stringify(setOp) }]),
        { ...doc.locate([...itemPath(first), 'value']), newText: `[${values.join(spaced ? ', ' : ',')}]` },
        ...itemRemovals(items.length, (i) => doc.locate(itemPath(i)), new Set(merged.slice(1).map((m) => m.i))),
      ];
      merges.push({ saving: merged.length - 1, fix: { title: mergeTitle(merged.filter((m) => !m.set).length, merged.filter((m) => m.set).length, single, setOp, key), edits } });
    }
  };
  visit(root.where, ['where']);
  return merges.sort((a, b) => b.saving - a.saving).map((m) => m.fix);
}

/** A value of a merged set: its text in the set, and what tells it from the others (two values of one key select the same). */
interface SetValue { text: string; key: string }

/**
 * A comparison's value (or a set's element) at path as the merged set writes it: an Int field's number as the integer it is
 * (exactInteger; undefined when it is none exactly), a Float field's as written (a string's trimmed: a set holds numbers), any
 * other as the document writes it.
 */
function setValue(doc: ParsedDoc, field: FieldInfo, v: unknown, path: JsonPath): SetValue | undefined {
  const expect = elementExpect(field.type);
  if (expect === 'integer' || expect === 'number') {
    const written = typeof v === 'string' ? v.trim() : sourceAt(doc, path) ?? String(v);
    if (expect === 'number') return { text: written, key: decimalKey(written) ?? written };
    const n = exactInteger(written);
    return n === undefined ? undefined : { text: n, key: BigInt(n).toString() };
  }
  return { text: sourceAt(doc, path) ?? JSON.stringify(v), key: typeof v === 'bigint' ? `${v}n` : JSON.stringify(v) };
}

/** A JSON number's digits and exponent, trailing zeros moved into the exponent: exact, whatever its size ("404.0" 404e0, "-0" 0). */
function decimalParts(text: string): { neg: boolean; digits: string; exp: number } | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || !NUMERIC.test(text)) return undefined;
  let digits = (m[2] + (m[3] ?? '')).replace(/^0+/, '');
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  const zeros = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - zeros);
  exp += zeros;
  return digits === '' ? { neg: false, digits: '0', exp: 0 } : { neg: m[1] === '-', digits, exp };
}

/** What tells a number from another exactly (1.50 and 15e-1 the same), or undefined for text that is no JSON number. */
function decimalKey(text: string): string | undefined {
  const d = decimalParts(text);
  return d && `${d.neg ? '-' : ''}${d.digits}e${d.exp}`;
}

/**
 * A number's text as an integer set of an Int field writes it: digits as written when it is written so (past 2^53 too: the
 * platform reads integer sets as uint64), else the integer a fraction or exponent makes (404.0, 4.04e2: 404) when it is one exactly
 * and within 2^53 (past it, the double the comparison read and the integer differ); undefined when it is none exactly.
 */
function exactInteger(text: string): string | undefined {
  if (INTEGER.test(text)) return text;
  const d = decimalParts(text);
  if (!d || d.exp < 0 || d.digits.length + d.exp > 16) return undefined;
  const n = BigInt(d.digits + '0'.repeat(d.exp));
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : `${d.neg && n !== 0n ? '-' : ''}${n}`;
}

/** "Merge the 3 "eq" comparisons of K into one "in"", naming the sets folded in ("… and the "in" of K …"). */
function mergeTitle(singles: number, sets: number, single: string, setOp: string, key: string): string {
  const count = (n: number, op: string) => (n === 1 ? `the "${op}"` : `the ${n} "${op}"`);
  const parts = [...(singles ? [`${count(singles, single)} comparison${singles === 1 ? '' : 's'}`] : []), ...(sets ? [`${count(sets, setOp)}${sets === 1 ? '' : ' comparisons'}`] : [])];
  return `Merge ${parts.join(' and ')} of ${key} into one "${setOp}"`;
}

/** The text of the value at path as the document has it, if it is there. */
function sourceAt(doc: ParsedDoc, path: JsonPath): string | undefined {
  const at = doc.locate(path);
  return at.length > 0 ? doc.text.slice(at.offset, at.offset + at.length) : undefined;
}

/** What a single comparison value may be. */
type Expect = 'number' | 'integer' | 'string' | 'bool' | 'number-or-string';

const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const INTEGER = /^-?(0|[1-9]\d*)$/;
/** The operators of the matrix's Int column only. */
export const ORDERING: ReadonlySet<string> = new Set(['lt', 'leq', 'gt', 'geq']);

/** A field type's Expect, worked out once per type (there are a dozen spellings; a filter asks once per comparison). */
const EXPECT_OF = new Map<string, Expect | undefined>();

function elementExpect(type: string): Expect | undefined {
  if (!EXPECT_OF.has(type)) EXPECT_OF.set(type, expectOf(type));
  return EXPECT_OF.get(type);
}

function expectOf(type: string): Expect | undefined {
  const t = type.trim();
  if (/\bor\b/.test(t)) {
    const parts = t.split(/\s+or\s+/).map(expectOf);
    return parts.includes('string') && (parts.includes('integer') || parts.includes('number')) ? 'number-or-string' : parts[0];
  }
  if (t === 'int' || t === 'array[int]') return 'integer';
  if (t === 'float' || t === 'array[float]') return 'number';
  if (t === 'string' || t === 'array[string]') return 'string';
  if (t === 'bool' || t === 'array[bool]') return 'bool';
  return undefined;
}

const EXPECT_NAMES: Record<Expect, string> = {
  number: 'a number', integer: 'an integer', string: 'a string', bool: 'a boolean', 'number-or-string': 'a number or a string',
};

function describe(v: unknown): string {
  if (typeof v === 'bigint') return String(v); // an integer past 2^53 as the document writes it (withExactIntegers)
  if (typeof v === 'string') return quoteShort(v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return JSON.stringify(v);
}

/** A number for a fix to write as the user wrote its digits: Number() of a string past 2^53 would change it (the platform reads
 * integer sets as uint64), and the text already is a JSON number (NUMERIC). */
class NumberText {
  constructor(readonly text: string) {}
}

/** A value as JSON text, a NumberText as its digits. */
function jsonText(v: unknown): string {
  return v instanceof NumberText ? v.text : JSON.stringify(v);
}

function formatArray(items: unknown[]): string {
  return '[' + items.map(jsonText).join(', ') + ']';
}

/**
 * Why the platform refuses `value` for `operator` on a field of `type`, as the checker reports it (an error of the schema, of
 * logpush/operator-not-allowed, set-needs-array or value-type), or undefined when the checker lets it pass (a warning at most). The
 * checker's verdict without spans and fixes, for the evaluator (compileFilter), which refuses what the checker flags rather than
 * coerce it; test/unit/eval/filterValues.test.ts holds the two together on generated comparisons.
 */
export function comparisonValueError(type: string, operator: string, value: unknown): string | undefined {
  const op = operatorInfo(operator);
  if (!op) return `"${operator}" is not an operator`;
  if (!operatorsFor(type).includes(op)) return `the operator "${operator}" does not apply to a field of type ${type}`;
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean';
  if (!scalar(value) && !Array.isArray(value)) return `the value ${describe(value)} is no string, number, boolean or array`;
  const expect = elementExpect(type);
  if (op.set) {
    if (!Array.isArray(value)) return `"${operator}" needs an array of values, not ${describe(value)}`;
    for (const item of value) {
      if (!scalar(item)) return `the set holds ${describe(item)}, which is no string, number or boolean`;
      const why = expect && elementError(item, expect, true);
      if (why) return why;
    }
    return undefined;
  }
  if (Array.isArray(value)) return `"${operator}" compares with a single value, not an array`;
  if (!expect) return undefined;
  if (expect === 'number-or-string' && ORDERING.has(op.name)) {
    const numeric = type.split(/\s+or\s+/).map(expectOf).find((e) => e === 'integer' || e === 'number') ?? 'number';
    if (typeof value === 'string' && !(numeric === 'integer' ? INTEGER : NUMERIC).test(value.trim())) return `"${operator}" compares as a number, not the string ${describe(value)}`;
    return elementError(value, numeric, false);
  }
  return elementError(value, expect, false);
}

/**
 * Why `value` does not fit `operator` whatever the field's type (a set for in / !in, one value for the others, a number for lt / leq /
 * gt / geq), or undefined: what the checker reports on a field whose type is not known (a dataset known by name only), for the
 * evaluator, which refuses the same.
 */
export function valueShapeError(operator: string, value: unknown): string | undefined {
  const op = operatorInfo(operator);
  if (!op || value === null || isObj(value)) return undefined; // the schema reports them
  if (op.set) return Array.isArray(value) ? undefined : `"${op.name}" needs an array of values, not ${describe(value)}`;
  if (Array.isArray(value)) return `"${op.name}" compares with a single value, not an array`;
  if (ORDERING.has(op.name) && Number.isNaN(filterNumber(value))) return `"${op.name}" needs a number, not ${describe(value)}`;
  return undefined;
}

/** What Walker.element reports as an error, without its span and fix. */
function elementError(v: unknown, expect: Expect, inSet: boolean): string | undefined {
  switch (expect) {
    case 'integer': case 'number':
      if (typeof v === 'number') return expect === 'integer' && !Number.isInteger(v) ? `the value ${v} is not an integer` : undefined;
      if (typeof v === 'bigint') return undefined;
      if (typeof v === 'string') {
        if (!(expect === 'integer' ? INTEGER : NUMERIC).test(v.trim())) return `the string ${describe(v)} is not ${EXPECT_NAMES[expect]}`;
        return inSet ? `a set of numbers holds numbers, not the string ${describe(v)}` : undefined;
      }
      return `the value ${describe(v)} is not ${EXPECT_NAMES[expect]}`;
    case 'string': return typeof v === 'string' ? undefined : `the value ${describe(v)} is not a string`;
    case 'number-or-string': return typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? undefined : `the value ${describe(v)} is not a number or a string`;
    case 'bool': return typeof v === 'boolean' || v === 'true' || v === 'false' ? undefined : `the value ${describe(v)} is not true or false`;
  }
}

/** A number from a filter value the checker accepts for a numeric field ("30", " 30 ", 1.5): its grammar, so nothing else is read. */
export function filterNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v); // an integer past 2^53 as written (withExactIntegers); compared exactly by its bigint

  return typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v.trim()) : NaN;
}

class Walker {
  constructor(private readonly doc: ParsedDoc, private readonly ctx: RuleContext, private readonly opts: FilterCheckOptions,
    private readonly out: Problem[], private readonly recovered: boolean) {}

  node(value: unknown, path: JsonPath): void {
    if (!isObj(value)) return; // the schema reports a non-object condition
    if (isGroup(value)) this.group(value, path);
    else this.comparison(value, path);
  }

  private group(g: Obj, path: JsonPath): void {
    const ops = GROUP_MEMBERS.filter((m) => has(g, m));
    if (ops.length > 1) {
      this.out.push(this.ctx.report('logpush/group-shape',
        `A group has exactly one member "and" or "or", but this one has both; nest one group inside the other.`,
        this.doc.locate([...path, ops[1]], 'key')));
    }
    const mixed = COMPARISON_MEMBERS.filter((m) => has(g, m));
    if (mixed.length > 0) {
      this.out.push(this.ctx.report('logpush/group-shape',
        `The "${ops[0]}" group also has the comparison member "${mixed[0]}"; move the comparison into the "${ops[0]}" array.`,
        this.doc.locate([...path, mixed[0]], 'key')));
    }
    for (const op of ops) {
      const items = g[op];
      if (Array.isArray(items)) items.forEach((item, i) => this.node(item, [...path, op, i]));
    }
  }

  private comparison(c: Obj, path: JsonPath): void {
    const missing = COMPARISON_MEMBERS.filter((m) => !has(c, m));
    if (missing.length > 0) {
      // An unknown member next to a missing one is usually its misspelling, which the schema already reports.
      const unknown = Object.keys(c).filter((k) => !COMPARISON_MEMBERS.includes(k));
      if (unknown.length === 0 && !this.recovered) {
        const span = this.doc.locate([...path, missing[0]]);
        this.out.push(this.ctx.report('logpush/missing-member',
          missing.length === COMPARISON_MEMBERS.length
            ? 'An empty condition; expected a comparison ("key", "operator", "value") or a group ("and" / "or").'
            : `The comparison is missing ${quoteList(missing, 'and')}.`,
          span));
      }
    }
    const fields = this.opts.fields;
    if (!fields) {
      if (typeof c.operator === 'string' && has(c, 'value')) this.shapeOnly(c.value, [...path, 'value'], c.operator);
      return;
    }
    if (typeof c.key !== 'string') return;
    const key = c.key;
    const field = fieldNamed(fields, key);
    if (!field) {
      this.unknownField(key, [...path, 'key'], fields);
      return;
    }
    if (!field.filterable) {
      this.out.push(this.ctx.report('logpush/field-not-filterable',
        `The field "${key}" (${field.type}) cannot be used in a filter.`, this.doc.locate([...path, 'key'])));
      return;
    }
    if (field.deprecated) {
      this.out.push(this.ctx.report('logpush/deprecated-field', `The field "${key}" is deprecated.`, this.doc.locate([...path, 'key']),
        { tags: ['deprecated'] }));
    }
    if (typeof c.operator !== 'string') return;
    const op = operatorInfo(c.operator);
    if (!op) return; // not an operator at all: the schema's enum reports it
    const allowed = operatorsFor(field.type);
    if (!allowed.includes(op)) {
      const span = this.doc.locate([...path, 'operator']);
      // The operator matrix's column, when its name is not the type's own ("float, Int column"; "int, Int column" said it twice).
      const classes = typeClasses(field.type).map(className).join('/');
      const column = classes.toLowerCase() === field.type.toLowerCase() ? '' : `, ${classes} column`;
      this.out.push(this.ctx.report('logpush/operator-not-allowed',
        `The operator "${op.name}" does not apply to "${key}" (${field.type}${column}); use ${quoteList(allowed.map((o) => o.name))}.`,
        span, { fixes: allowed.flatMap((o) => this.operatorFix(o, span, c, path, field)) }));
      return;
    }
    if (!has(c, 'value')) return;
    this.value(c.value, [...path, 'value'], field, op.name, !!op.set, allowed.some((o) => o.name === 'in'));
  }

  /** The fix that switches to an allowed operator; between a set operator (in, !in) and a single-value one the value changes
   * shape with it ("us" -> ["us"], [true] -> true), else the fix would only trade this problem for set-needs-array or value-type.
   * None when a set of several values would have to become one. */
  private operatorFix(o: OperatorInfo, span: Span, c: Obj, path: JsonPath, field: FieldInfo): Fix[] {
    const edits: Edit[] = [{ ...span, newText: JSON.stringify(o.name) }];
    const v = has(c, 'value') ? c.value : undefined;
    const expect = elementExpect(field.type);
    let shaped: string | undefined;
    if (v !== undefined && v !== null && !isObj(v) && expect) {
      if (o.set && !Array.isArray(v)) shaped = formatArray(this.setFromScalar(v, expect, [...path, 'value']));
      else if (!o.set && Array.isArray(v)) {
        if (v.length !== 1 || v[0] === null || typeof v[0] === 'object') return [];
        // A number as written (JSON.parse rounds past 2^53); anything else from its value.
        shaped = (typeof v[0] === 'number' ? this.sourceOf([...path, 'value', 0]) : undefined) ?? JSON.stringify(v[0]);
      }
    }
    if (shaped !== undefined) edits.push({ ...this.doc.locate([...path, 'value']), newText: shaped });
    return [{ title: shaped === undefined ? `Use "${o.name}"` : `Use "${o.name}" (value ${shaped})`, edits }];
  }

  private unknownField(key: string, path: JsonPath, fields: readonly FieldInfo[]): void {
    const span = this.doc.locate(path);
    const elsewhere = otherScopeField(this.ctx, key, this.opts.otherScopes, span);
    if (elsewhere) {
      this.out.push(elsewhere);
      return;
    }
    this.out.push(unknownFieldProblem(this.ctx, key, fields, span, true));
  }

  private value(v: unknown, path: JsonPath, field: FieldInfo, op: string, isSet: boolean, inAllowed: boolean): void {
    const expect = elementExpect(field.type);
    if (!expect) return;
    const span = (): Span => this.doc.locate(path);
    if (v === null || isObj(v)) return; // the schema reports null and objects
    if (isSet) {
      if (!Array.isArray(v)) {
        this.needsSet(v, path, op, expect);
        return;
      }
      if (v.length === 0) {
        this.out.push(this.ctx.report('logpush/empty-set', `The operator "${op}" has an empty array, so it ${op === 'in' ? 'never' : 'always'} matches.`, span()));
        return;
      }
      v.forEach((item, i) => this.element(item, [...path, i], field, expect, true));
      return;
    }
    if (Array.isArray(v)) {
      this.singleValue(path, op, inAllowed);
      return;
    }
    if (expect === 'number-or-string' && ORDERING.has(op)) {
      // lt/leq/gt/geq are in the matrix's Int column only: on an "int or string" field (a timestamp) they compare numbers.
      const numeric = field.type.split(/\s+or\s+/).map(expectOf).find((e) => e === 'integer' || e === 'number') ?? 'number';
      if (typeof v === 'string' && !(numeric === 'integer' ? INTEGER : NUMERIC).test(v.trim())) {
        this.out.push(this.ctx.report('logpush/value-type',
          `The operator "${op}" compares "${field.name}" (${field.type}) as a number; it takes ${EXPECT_NAMES[numeric]}, not the string ${describe(v)}.`, span()));
        return;
      }
      this.element(v, path, field, numeric, false);
      return;
    }
    this.element(v, path, field, expect, false);
  }

  /** in / !in given a scalar: the set it most likely meant as the fix. */
  private needsSet(v: unknown, path: JsonPath, op: string, expect: Expect): void {
    const span = this.doc.locate(path);
    const items = formatArray(this.setFromScalar(v, expect, path));
    this.out.push(this.ctx.report('logpush/set-needs-array', `The operator "${op}" needs an array of values, not ${this.shown(v, path)}.`,
      span, { fixes: [{ title: `Use ${items}`, preferred: true, edits: [{ ...span, newText: items }] }] }));
  }

  /** A single-value operator given an array; `inAllowed`: the field takes "in", offered as the fix. */
  private singleValue(path: JsonPath, op: string, inAllowed: boolean): void {
    const operatorSpan = this.doc.locate([...path.slice(0, -1), 'operator']);
    this.out.push(this.ctx.report('logpush/value-type',
      `The operator "${op}" compares with a single value, not an array${inAllowed ? '; use "in" for a set' : ''}.`,
      this.doc.locate(path), inAllowed ? { fixes: [{ title: 'Use "in"', edits: [{ ...operatorSpan, newText: '"in"' }] }] } : undefined));
  }

  /**
   * The value of a comparison whose field type is not known (a dataset known by name only): what its operator asks of any value, as
   * the evaluator reads it (a set for in / !in, one value for the others, a number for lt / leq / gt / geq). Types are not guessed.
   */
  private shapeOnly(v: unknown, path: JsonPath, operator: string): void {
    if (valueShapeError(operator, v) === undefined) return;
    if (operatorInfo(operator)!.set) this.needsSet(v, path, operator, 'string');
    else if (Array.isArray(v)) this.singleValue(path, operator, true);
    else this.out.push(this.ctx.report('logpush/value-type', `The operator "${operator}" compares numbers; it takes a number, not ${this.shown(v, path)}.`, this.doc.locate(path)));
  }

  /** The text of the value at path as the document has it, if it is there. */
  private sourceOf(path: JsonPath): string | undefined {
    return sourceAt(this.doc, path);
  }

  /** A value for a message: a number JSON.parse rounded (past 2^53) as the document writes its digits. */
  private shown(v: unknown, path: JsonPath): string {
    const digits = pastSafeInteger(v) ? this.exactDigits(v, path) : undefined;
    return digits ?? describe(v);
  }

  /** The digits of an integer at path that JSON.parse rounded, else undefined. */
  private exactDigits(v: number, path: JsonPath): string | undefined {
    const text = this.sourceOf(path);
    return text === undefined ? undefined : inexactInteger(text, v);
  }

  /** The array a scalar given to in/!in most likely meant ("200,201" -> [200, 201]; a number past 2^53 with its digits). */
  private setFromScalar(v: unknown, expect: Expect, path: JsonPath): unknown[] {
    if (pastSafeInteger(v)) { const digits = this.exactDigits(v, path); if (digits !== undefined) return [new NumberText(digits)]; }
    if (typeof v !== 'string') return [v];
    const parts = v.includes(',') ? v.split(',').map((p) => p.trim()).filter((p) => p !== '') : [v];
    if ((expect === 'integer' || expect === 'number') && parts.every((p) => NUMERIC.test(p))) return parts.map((p) => new NumberText(p));
    return parts;
  }

  private element(v: unknown, path: JsonPath, field: FieldInfo, expect: Expect, inSet: boolean): void {
    const span = (): Span => this.doc.locate(path);
    const bad = (message: string, replacement?: unknown, title?: string): void => {
      const s = span();
      this.out.push(this.ctx.report('logpush/value-type', message, s, replacement === undefined ? undefined
        : { fixes: [{ title: title ?? `Use ${jsonText(replacement)}`, preferred: true, edits: [{ ...s, newText: jsonText(replacement) }] }] }));
    };
    const fieldDesc = `"${field.name}" (${field.type})`;
    switch (expect) {
      case 'integer':
      case 'number': {
        const re = expect === 'integer' ? INTEGER : NUMERIC;
        if (typeof v === 'number') {
          if (expect === 'integer' && !Number.isInteger(v)) bad(`The field ${fieldDesc} takes integers, not ${v}.`);
        } else if (typeof v === 'string') {
          if (!re.test(v.trim())) bad(`The field ${fieldDesc} takes ${EXPECT_NAMES[expect]}, not the string ${describe(v)}.`);
          // Numbers as strings are the documented form for single values, but a set must hold real numbers ([]uint64).
          else if (inSet) bad(`The set for ${fieldDesc} must hold numbers, not the string ${describe(v)}.`, new NumberText(v.trim()));
        } else {
          bad(`The field ${fieldDesc} takes ${EXPECT_NAMES[expect]}, not ${this.shown(v, path)}.`);
        }
        return;
      }
      case 'string':
        // No fix for an object or array: String() of one is no useful value (and throws on a member named "toString").
        // A number is quoted as written: String() of 1.50 is "1.5", of 1e3 "1000", of 20 digits a rounded number.
        if (typeof v !== 'string') bad(`The field ${fieldDesc} takes strings, not ${this.shown(v, path)}.`, v !== null && typeof v === 'object' ? undefined : typeof v === 'number' ? this.sourceOf(path) ?? String(v) : String(v));
        return;
      case 'number-or-string':
        if (typeof v !== 'string' && typeof v !== 'number') bad(`The field ${fieldDesc} takes a number or a string, not ${describe(v)}.`);
        return;
      case 'bool':
        if (typeof v === 'boolean') return;
        if (typeof v === 'string' && (v === 'true' || v === 'false')) {
          const s = span();
          this.out.push(this.ctx.report('logpush/quoted-boolean', `The field ${fieldDesc} is a boolean; write ${v} without quotes.`, s,
            { fixes: [{ title: `Use ${v}`, preferred: true, edits: [{ ...s, newText: v }] }] }));
          return;
        }
        bad(`The field ${fieldDesc} takes true or false, not ${this.shown(v, path)}.`);
        return;
    }
  }
}
