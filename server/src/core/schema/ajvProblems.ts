// The only place that understands ajv errors: turns them into Problems with ranges that follow STYLE §4.
import type { ErrorObject } from 'ajv';
import type { JsonPath, ParsedDoc, Problem } from '../types';
import { codeInfo, type Code } from '../codes';
import { scoredSuggestions, suggest } from '../suggest';
import { cap, plural } from '../text';
import { THE_DOCUMENT, describe, quoteList, wordList } from '../messages';
import { valueAt } from '../json';

/** Decode a JSON Pointer (ajv's instancePath) into a JSONPath; numeric segments become indices where the value is an array. */
export function pointerToPath(pointer: string, root?: unknown): JsonPath {
  if (pointer === '') return [];
  const parts = pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path: JsonPath = [];
  let cur: unknown = root;
  for (const p of parts) {
    if (Array.isArray(cur) && /^\d+$/.test(p)) {
      path.push(Number(p));
      cur = cur[Number(p)];
    } else if (root === undefined && /^\d+$/.test(p)) {
      path.push(Number(p));
    } else {
      path.push(p);
      cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
    }
  }
  return path;
}

const KEYWORD_CODES: Record<string, Code> = {
  required: 'schema/required', additionalProperties: 'schema/unknown-property', unevaluatedProperties: 'schema/unknown-property',
  type: 'schema/type', enum: 'schema/enum', const: 'schema/const', pattern: 'schema/pattern', format: 'schema/format',
  minimum: 'schema/range', maximum: 'schema/range', exclusiveMinimum: 'schema/range', exclusiveMaximum: 'schema/range',
  minLength: 'schema/range', maxLength: 'schema/range', multipleOf: 'schema/range',
  minItems: 'schema/count', maxItems: 'schema/count', minProperties: 'schema/count', maxProperties: 'schema/count',
  uniqueItems: 'schema/count', oneOf: 'schema/shape', anyOf: 'schema/shape',
};

/** The allowed values nearest to a misspelt one: the nearest, or every one as near as it (suggest's order), up to three. */
function nearest(value: string, allowed: readonly string[]): string[] {
  const near = scoredSuggestions(value, allowed, { max: 3 });
  return near.filter((s) => s.distance === near[0].distance).map((s) => s.name);
}

/** A word as the value lookups below compare it: case, spaces, "_" and "-" do not count ("NOT IN", "not_in" and "notIn" are one). */
const fold = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The allowed value `value` means beyond doubt: the one allowed value it is but for case, spaces, "_" and "-" (" eq", "EQ",
 * "starts_with"), else the one an enum's schema names for it in its "x-edgekit-aliases" (the words of other languages for its
 * values), compared the same way ("NOT IN", "Not In" as "not in").
 */
function meantValue(enumSchema: Record<string, unknown> | undefined, value: string, allowed: readonly string[]): string | undefined {
  const key = fold(value);
  const same = allowed.filter((a) => fold(a) === key);
  if (same.length === 1) return same[0];
  const aliases = enumSchema?.['x-edgekit-aliases'];
  if (!aliases || typeof aliases !== 'object') return undefined;
  const meant = new Set(Object.entries(aliases).filter(([k, v]) => typeof v === 'string' && fold(k) === key).map(([, v]) => v as string));
  return meant.size === 1 ? [...meant][0] : undefined;
}

/** What a message calls the value at path: the root by `root`, an item by its index, a member by its name. */
function lastName(path: JsonPath, root: string): string {
  const last = path[path.length - 1];
  return last === undefined ? root : typeof last === 'number' ? `item ${last}` : `"${last}"`;
}

/**
 * With allErrors, ajv reports every failing oneOf/anyOf branch. Keep, per failing combinator, the errors of the branch that got
 * furthest (whose errors are all deeper than the combinator's own value); with no such branch, keep the combinator's own error.
 */
export function pruneCombinators(errors: ErrorObject[]): ErrorObject[] {
  const combos = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  if (combos.length === 0) return errors;
  const drop = new Set<ErrorObject>();
  // innermost combinators first (longest schemaPath)
  for (const c of [...combos].sort((a, b) => b.schemaPath.length - a.schemaPath.length)) {
    const prefix = c.schemaPath + '/';
    const branches = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      if (e === c || drop.has(e) || !e.schemaPath.startsWith(prefix)) continue;
      const idx = e.schemaPath.slice(prefix.length).split('/')[0];
      (branches.get(idx) ?? branches.set(idx, []).get(idx)!).push(e);
    }
    let best: ErrorObject[] | undefined;
    for (const errs of branches.values()) {
      const deep = errs.every((e) => e.instancePath.length > c.instancePath.length
        || (e.keyword !== 'type' && e.keyword !== 'const' && e.keyword !== 'enum' && e.keyword !== 'oneOf' && e.keyword !== 'anyOf'));
      if (deep && (!best || errs.length < best.length)) best = errs;
    }
    for (const errs of branches.values()) for (const e of errs) if (errs !== best) drop.add(e);
    if (best) drop.add(c);
  }
  return errors.filter((e) => !drop.has(e));
}

/**
 * The keywords whose errors read in our words (what is wrong, where, what is expected), never in ajv's ("must NOT have fewer than
 * 1 items"). test/unit/schema/wording.test.ts lists every keyword the shipped schemas use and fails on one missing here.
 */
export const WORDED_KEYWORDS = new Set([
  'required', 'additionalProperties', 'unevaluatedProperties', 'type', 'enum', 'const', 'minItems', 'maxItems', 'items', 'minLength',
  'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'pattern', 'format', 'not', 'if', 'oneOf',
  'anyOf', 'uniqueItems', 'minProperties', 'maxProperties', 'dependentRequired', 'false schema',
]);

const COMPARISON: Record<string, string> = { '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' };

/** The message of an error whose keyword needs no node lookup: our sentence from ajv's params (never ajv's own text). */
function ownMessage(e: ErrorObject, name: string, value: unknown): string {
  const p = e.params as Record<string, unknown>;
  const limit = Number(p.limit);
  switch (e.keyword) {
    case 'minItems':
    case 'maxItems':
    case 'items': {
      const have = Array.isArray(value) ? value.length : 0;
      const expected = e.keyword === 'minItems' ? `at least ${plural(limit, 'item')} expected` : `at most ${plural(limit, 'item')} allowed`;
      return `${name} has ${plural(have, 'item')}; ${expected}.`;
    }
    case 'minLength':
    case 'maxLength': {
      const have = typeof value === 'string' ? [...value].length : 0;
      return `${name} is ${plural(have, 'character')} long; ${e.keyword === 'minLength' ? 'at least' : 'at most'} ${plural(limit, 'character')} ${e.keyword === 'minLength' ? 'expected' : 'allowed'}.`;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${name} is ${JSON.stringify(value)}; it must be ${COMPARISON[String(p.comparison)] ?? String(p.comparison)} ${limit}.`;
    case 'multipleOf':
      return `${name} is ${JSON.stringify(value)}; it must be a multiple of ${String(p.multipleOf)}.`;
    case 'pattern':
      return `${name} is ${describe(value)}, which does not have the expected form (pattern ${String(p.pattern)}).`;
    case 'format':
      return `${name} is ${describe(value)}; expected a ${String(p.format)}.`;
    case 'not':
      return `${name} is ${describe(value)}, which is not allowed here.`;
    case 'if':
      return `${name} does not have the members its other members call for.`;
    case 'oneOf':
      return Array.isArray(p.passingSchemas)
        ? `${name} fits more than one of the forms allowed here; it must fit exactly one.`
        : `${name} is ${describe(value)}, which fits none of the forms allowed here.`;
    case 'anyOf':
      return `${name} is ${describe(value)}, which fits none of the forms allowed here.`;
    case 'uniqueItems':
      return `${name} has the same value at items ${String(p.j)} and ${String(p.i)}; each item must be different.`;
    case 'minProperties':
    case 'maxProperties': {
      const have = value && typeof value === 'object' ? Object.keys(value).length : 0;
      return `${name} has ${plural(have, 'member')}; ${e.keyword === 'minProperties' ? 'at least' : 'at most'} ${plural(limit, 'member')} ${e.keyword === 'minProperties' ? 'expected' : 'allowed'}.`;
    }
    case 'dependentRequired':
      return `${name} has "${String(p.property)}", which needs "${String(p.missingProperty)}" too.`;
    case 'false schema':
      return `${name} is not allowed here.`;
    default:
      return `${name} is ${describe(value)}, which the schema does not allow here (keyword "${e.keyword}").`;
  }
}

/**
 * The subschema that describes the value at path, walked from the root through properties, items, additionalProperties and local
 * $refs (ajv's own schemaPath is relative to the $defs entry a $ref compiled into, so it cannot be resolved from the root); undefined
 * where a combinator leaves it open.
 */
function schemaAt(root: unknown, path: JsonPath): Record<string, unknown> | undefined {
  const deref = (s: unknown): Record<string, unknown> | undefined => {
    for (let i = 0; i < 16 && s && typeof s === 'object'; i++) {
      const ref = (s as Record<string, unknown>).$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return s as Record<string, unknown>;
      s = ref.slice(2).split('/').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), root);
    }
    return undefined;
  };
  let cur = deref(root);
  for (const seg of path) {
    if (!cur) return undefined;
    const props = cur.properties as Record<string, unknown> | undefined;
    if (typeof seg === 'string' && props && Object.hasOwn(props, seg)) cur = deref(props[seg]);
    else if (typeof seg === 'number' && Array.isArray(cur.prefixItems) && seg < cur.prefixItems.length) cur = deref(cur.prefixItems[seg]);
    else if (typeof seg === 'number' && cur.items && typeof cur.items === 'object') cur = deref(cur.items);
    else if (typeof seg === 'string' && cur.additionalProperties && typeof cur.additionalProperties === 'object') cur = deref(cur.additionalProperties);
    else return undefined;
  }
  return cur;
}

/**
 * schema: the validated schema, for "did you mean" on an unknown property (the names its object declares and the value lacks, with
 * a fix that renames the key). root: what the messages call the root value ("the filter string" for a job's embedded filter).
 */
export function ajvProblems(doc: ParsedDoc, errors: ErrorObject[], schema?: unknown, root = THE_DOCUMENT): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  const pruned = pruneCombinators(errors);
  for (const e of pruned) {
    // "must match the then schema" repeats what the then branch's own errors say, at the same place or deeper.
    if (e.keyword === 'if' && pruned.some((x) => x !== e && x.instancePath.startsWith(e.instancePath) && x.keyword !== 'if')) continue;
    const path = pointerToPath(e.instancePath, doc.value);
    const code = KEYWORD_CODES[e.keyword] ?? 'schema/invalid';
    const value = valueAt(doc.value, path);
    let span = doc.locate(path, 'value');
    let message: string;
    let fixes: Problem['fixes'];
    switch (e.keyword) {
      case 'required': {
        const missing = String((e.params as { missingProperty: string }).missingProperty);
        span = doc.locate([...path, missing]);
        message = `Missing required property "${missing}"${path.length ? ` in ${lastName(path, root)}` : ''}.`;
        break;
      }
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        const prop = String((e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty
          ?? (e.params as { unevaluatedProperty?: string }).unevaluatedProperty);
        span = doc.locate([...path, prop], 'key');
        message = `Unknown property "${prop}"${path.length ? ` in ${lastName(path, root)}` : ''}.`;
        const declared = schemaAt(schema, path)?.properties;
        if (declared && typeof declared === 'object' && value && typeof value === 'object') {
          const near = suggest(prop, Object.keys(declared).filter((k) => !(k in (value as object))), { max: 2 });
          if (near.length) {
            message = `${message.slice(0, -1)}; did you mean ${quoteList(near)}?`;
            fixes = near.map((n, k) => ({ title: `Rename to "${n}"`, edits: [{ ...span, newText: JSON.stringify(n) }], preferred: k === 0 }));
          }
        }
        break;
      }
      case 'type':
        message = `${cap(lastName(path, root))} must be ${article(String((e.params as { type: string }).type))}, not ${describe(value)}.`;
        break;
      case 'enum': {
        const values = (e.params as { allowedValues: unknown[] }).allowedValues;
        const allowed = values.map((v) => JSON.stringify(v)).join(', ');
        // A misspelt string ("blok"): the nearest allowed one, with a fix that writes it. Two values equally near ("!n": "!in" or
        // "in"; "ge": "geq" or "gt") are both offered, the first preferred for the editor's Auto Fix, so that Fix all (which takes
        // a problem's only fix) leaves the choice to the user.
        // A word of another language for one of the values ("==", "ne", "not in"), as the schema's "x-edgekit-aliases" names it, or
        // an allowed value but for case and spaces (" eq", whose nearest were "!eq", "eq" and "geq", "!eq" preferred): that value
        // alone, before any spelling near it ("ne" is as near to "in" as to "!eq").
        const strings = values.filter((v): v is string => typeof v === 'string');
        const meant = typeof value === 'string' ? meantValue(schemaAt(schema, path), value, strings) : undefined;
        const near = meant !== undefined ? [meant] : typeof value === 'string' ? nearest(value, strings) : [];
        message = `${cap(lastName(path, root))} is ${describe(value)}; ${near.length ? `did you mean ${near.map((n) => JSON.stringify(n)).join(' or ')}? Expected` : 'expected'} one of ${allowed}.`;
        if (near.length) fixes = near.map((n, k) => ({ title: `Change to ${JSON.stringify(n)}`, edits: [{ ...span, newText: JSON.stringify(n) }], preferred: k === 0 }));
        break;
      }
      case 'const':
        message = `${cap(lastName(path, root))} must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, not ${describe(value)}.`;
        break;
      default:
        message = ownMessage(e, cap(lastName(path, root)), value);
    }
    const key = `${span.offset}:${code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code, severity: codeInfo(code).severity, message, offset: span.offset, length: span.length, ...(fixes ? { fixes } : {}) });
  }
  return out;
}

/** "an integer", "an integer or a string", "an integer, a string or null" (null takes no article). */
function article(type: string): string {
  const names = type.split(',').map((t) => (t === 'null' ? 'null' : t === 'array' || t === 'object' || t === 'integer' ? `an ${t}` : `a ${t}`));
  return wordList(names, 'or');
}
