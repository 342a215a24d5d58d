// The fuzz harness shared by the fast suite (test/unit/fuzz/*.test.ts) and the long one (test/stress/fuzz.stress.ts): the corpus,
// the generators of random and near-valid documents, and the invariants every answer of the core must satisfy.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { createScanner, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { validateText, type ValidateOptions } from '../../../server/src/core/validate';
import { complete, hover, inlayHints, lenses, signatureHelp } from '../../../server/src/core/assist';
import { parseDocument } from '../../../server/src/core/parse';
import { autoFixes, fixAll } from '../../../server/src/core/fixAll';
import { CODES } from '../../../server/src/core/codes';
import { detectKind, isDocKind } from '../../../server/src/core/kinds';
import { DOC_KINDS, type DocKind, type Problem, type Span } from '../../../server/src/core/types';

const ROOT = path.resolve(__dirname, '../../..');

// ---------------------------------------------------------------------------------------------------------------- corpus

export interface Sample { kind: DocKind; name: string; text: string }

function loadCorpus(): Sample[] {
  const out: Sample[] = [];
  const examples = path.join(ROOT, 'examples');
  for (const f of fs.readdirSync(examples).sort()) {
    const kind = detectKind(f);
    if (kind) out.push({ kind, name: `examples/${f}`, text: fs.readFileSync(path.join(examples, f), 'utf8') });
  }
  const fixtures = path.join(ROOT, 'test/fixtures');
  for (const kind of fs.readdirSync(fixtures).sort()) {
    if (!isDocKind(kind)) continue;
    for (const f of fs.readdirSync(path.join(fixtures, kind)).filter((x) => x.endsWith('.json')).sort()) {
      const text = fs.readFileSync(path.join(fixtures, kind, f), 'utf8');
      // Huge generated fixtures (size limits) slow every run down without exercising anything new.
      if (text.length <= 64 * 1024) out.push({ kind, name: `fixtures/${kind}/${f}`, text });
    }
  }
  return out;
}

export const CORPUS: readonly Sample[] = loadCorpus();
export const BY_KIND: Record<DocKind, readonly Sample[]> = Object.fromEntries(
  DOC_KINDS.map((k) => [k, CORPUS.filter((s) => s.kind === k)]),
) as unknown as Record<DocKind, readonly Sample[]>;

function tryParse(text: string): unknown {
  try { return JSON.parse(text); } catch { return undefined; }
}

/** Corpus documents that are valid JSON, as values (the base of the structured mutations). */
export const VALUES: Record<DocKind, readonly unknown[]> = Object.fromEntries(
  DOC_KINDS.map((k) => [k, BY_KIND[k].map((s) => tryParse(s.text)).filter((v) => v !== undefined)]),
) as unknown as Record<DocKind, readonly unknown[]>;

/** Every rules-language expression of the ruleset corpus, plus a few that use the rarer constructs. */
export const EXPRESSIONS: readonly string[] = (() => {
  const out = new Set<string>([
    'any(http.request.headers["x-a"][*] contains "b")', 'ip.src in {10.0.0.0/8 192.0.2.1..192.0.2.9}', 'http.host in $my_list',
    'http.request.uri.path matches r#"^/a"b$"#', 'not (ssl or http.host eq "a") xor cf.bot_management.score lt 30',
    'lower(http.host) wildcard "*.Example.com"', 'ip.src.asnum in {1..100 200}', '(http.request.method eq "POST" && !ssl) || false',
  ]);
  for (const v of VALUES['waf-ruleset']) {
    const rules = (v as { rules?: unknown }).rules;
    if (Array.isArray(rules)) for (const r of rules) if (r && typeof (r as { expression?: unknown }).expression === 'string') out.add((r as { expression: string }).expression);
  }
  return [...out];
})();

/** The `filter` documents a job can carry: the filter corpus, compact. */
export const FILTER_VALUES: readonly unknown[] = VALUES['logpush-filter'];

// ---------------------------------------------------------------------------------------------------------------- invariants

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function inside(s: Span, text: string, what: string): void {
  assert.ok(Number.isInteger(s.offset) && Number.isInteger(s.length), `${what}: offsets must be integers (${s.offset}, ${s.length})`);
  assert.ok(s.offset >= 0 && s.length >= 0 && s.offset + s.length <= text.length, `${what}: span ${s.offset}+${s.length} outside 0..${text.length}`);
}

/** The contract of validateText's answer on `text`. */
export function checkProblems(text: string, problems: Problem[]): void {
  assert.ok(Array.isArray(problems));
  for (const p of problems) {
    const what = `${p.code} "${String(p.message).slice(0, 120)}"`;
    assert.ok(CODES[p.code], `unregistered code ${p.code}`);
    assert.ok(SEVERITIES.has(p.severity), `${what}: severity ${p.severity}`);
    assert.equal(typeof p.message, 'string');
    assert.ok(p.message.trim().length > 0, `${p.code}: empty message`);
    assert.ok(!/Internal error/.test(p.message), `a rule failed: ${p.message}`);
    // A message goes to terminals and the Problems panel: no raw control character, no lone surrogate.
    assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(p.message), `${what}: control character in the message`);
    assert.ok(!LONE_SURROGATE.test(p.message), `${what}: lone surrogate in the message`);
    inside(p, text, what);
    for (const r of p.related ?? []) {
      inside(r, text, `${what} related`);
      assert.ok(r.message.length > 0, `${what}: empty related message`);
    }
    for (const f of p.fixes ?? []) {
      assert.ok(f.title.length > 0, `${what}: fix without a title`);
      for (const e of f.edits) {
        inside(e, text, `${what} fix "${f.title}"`);
        assert.equal(typeof e.newText, 'string');
      }
      // The edits of one fix must not overlap, or no editor can apply them.
      const sorted = [...f.edits].sort((a, b) => a.offset - b.offset);
      for (let i = 1; i < sorted.length; i++) {
        assert.ok(sorted[i - 1].offset + sorted[i - 1].length <= sorted[i].offset, `${what}: overlapping edits in fix "${f.title}"`);
      }
    }
  }
}

/** Statistics for the report: how many documents went through checkAll, per kind. */
export const STATS: Record<DocKind, number> = { 'logpush-filter': 0, 'logpush-job': 0, 'jsonrpc-request': 0, 'waf-ruleset': 0 };

/**
 * Validate twice (same answer, invariants hold), then completion, hover, signature help and lenses (and inlay hints over the whole text) at the given offsets (clamped into the text):
 * no exception, every span inside the text.
 */
export function checkAll(text: string, kind: DocKind, offsets: readonly number[] = [], opts: ValidateOptions = {}): Problem[] {
  STATS[kind]++;
  const first = validateText(text, kind, opts);
  checkProblems(text, first);
  assert.deepEqual(validateText(text, kind, opts), first, 'validateText is not deterministic');
  const doc = parseDocument(text);
  for (const raw of offsets) {
    const offset = Math.min(Math.max(raw, 0), text.length);
    for (const e of complete(kind, doc, offset)) {
      assert.ok(typeof e.label === 'string' && e.label.length > 0, 'completion without a label');
      if (e.replace) inside(e.replace, text, `completion "${e.label}" at ${offset}`);
    }
    const h = hover(kind, doc, offset);
    if (h) {
      inside(h, text, `hover at ${offset}`);
      assert.ok(h.markdown.length > 0, 'empty hover');
    }
    const sig = signatureHelp(kind, doc, offset);
    if (sig) {
      assert.ok(sig.activeParameter >= 0 && sig.activeParameter < sig.parameters.length, `signature help at ${offset}: active ${sig.activeParameter} of ${sig.parameters.length}`);
      for (const p of sig.parameters) assert.ok(p.label[0] >= 0 && p.label[0] < p.label[1] && p.label[1] <= sig.label.length, `signature help at ${offset}: parameter label ${p.label} in "${sig.label}"`);
    }
  }
  for (const h of inlayHints(kind, doc, { offset: 0, length: text.length })) {
    inside({ offset: h.offset, length: 0 }, text, `inlay hint "${h.label}"`);
    assert.ok(h.label.length > 0, 'inlay hint without a label');
  }
  for (const l of lenses(kind, doc)) {
    inside(l, text, `lens "${l.title}"`);
    assert.ok(l.title.length > 0, 'lens without a title');
  }
  return first;
}

/**
 * Fix all (the source action, lint --fix): no exception, its problems inside its text, JSON that parsed still parses, and it
 * converges: no auto-fixable problem is left (a fix that undid another, or revealed one forever, would use up the passes).
 */
export function checkFixAll(text: string, kind: DocKind): void {
  const r = fixAll(text, kind);
  checkProblems(r.text, r.problems);
  if (r.fixed === 0) assert.equal(r.text, text, 'Fix all changed the text without a fix');
  let parsed = true;
  try { JSON.parse(text); } catch { parsed = false; }
  if (parsed) assert.doesNotThrow(() => JSON.parse(r.text), `Fix all broke the JSON:\n${text}\n->\n${r.text}`);
  // Nothing a further pass would apply (while the text has a syntax error, only syntax fixes that together make it parse).
  const left = autoFixes(r.problems, r.text);
  assert.equal(left.count, 0, `Fix all did not converge:\n${text}\n->\n${r.text}\n${JSON.stringify(left.edits)}`);
}

// ---------------------------------------------------------------------------------------------------------------- text mutations

/** Pieces worth inserting into JSON text: structure, literals, and values that stress numbers and strings. */
const JSON_PIECES = [
  '{', '}', '[', ']', ',', ':', '"', '\\', '\\u', '\\ud800', 'null', 'true', 'false', '-', '0', '1e400', '-1e400', '1e-400',
  '123456789012345678901234567890', '0.1', '-0', '"', '""', '"x":', '{}', '[]', '/*', '*/', '//', '\n', '\r\n', '\t', ' ',
  '\u0000', '\ud800', '\udc00', '\ufeff', '\u2028', 'é', '😀', 'NaN', 'Infinity', '"\\u0000"', ',,', '{"a":1}',
];

/** Pieces for rules-language expressions. */
const EXPR_PIECES = [
  '(', ')', '((', '))', ' and ', ' or ', ' xor ', ' not ', '!', '&&', '||', '^^', ' eq ', '==', ' ne ', '!=', ' in ', ' contains ',
  ' matches ', '~', ' wildcard ', ' strict ', ' lt ', '>=', '{', '}', '..', '$', '[', ']', '[*]', '"', '\\', 'r#"', '"#', ',',
  'http.host', 'ip.src', 'ip.geoip.country', 'cf.bot_management.score', 'http.request.headers', 'any(', 'lower(', 'len(',
  '1.2.3.4', '10.0.0.0/8', '::1', '999.1.1.1', '2001:db8::/129', '123456789012345678901234567890', '-1', 'true', 'AND', ' ',
  '\u0000', '\ud800', '😀', '\n',
];

export type TextMutation =
  | { op: 'delete'; at: number; len: number }
  | { op: 'insert'; at: number; piece: string }
  | { op: 'replace'; at: number; piece: string }
  | { op: 'swap'; a: number; b: number }
  | { op: 'truncate'; at: number }
  | { op: 'duplicate'; at: number; len: number };

function textMutation(pieces: readonly string[]): fc.Arbitrary<TextMutation> {
  const at = fc.nat();
  const piece = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pieces) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  );
  return fc.oneof(
    fc.record({ op: fc.constant('delete' as const), at, len: fc.integer({ min: 1, max: 12 }) }),
    fc.record({ op: fc.constant('insert' as const), at, piece }),
    fc.record({ op: fc.constant('replace' as const), at, piece }),
    fc.record({ op: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
    fc.record({ op: fc.constant('truncate' as const), at }),
    fc.record({ op: fc.constant('duplicate' as const), at, len: fc.integer({ min: 1, max: 40 }) }),
  );
}

export const jsonTextMutations = fc.array(textMutation(JSON_PIECES), { minLength: 1, maxLength: 6 });
export const exprTextMutations = fc.array(textMutation(EXPR_PIECES), { minLength: 1, maxLength: 6 });

/** Token spans of a text (jsonc-parser's scanner is iterative, so it copes with any input). */
function tokens(text: string): Span[] {
  const s = createScanner(text, true);
  const out: Span[] = [];
  for (let k = s.scan(); k !== 17 /* EOF */ && out.length < 10_000; k = s.scan()) out.push({ offset: s.getTokenOffset(), length: s.getTokenLength() });
  return out;
}

/** Expression tokens, roughly: words, strings, and single punctuation characters. */
function exprTokens(text: string): Span[] {
  const out: Span[] = [];
  const re = /"(?:[^"\\]|\\.)*"?|[\w.:/$]+|\S/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ offset: m.index, length: m[0].length });
  return out;
}

export function applyTextMutations(text: string, muts: readonly TextMutation[], tokenize: (t: string) => Span[] = tokens): string {
  let t = text;
  for (const m of muts) {
    const pos = (n: number) => (t.length === 0 ? 0 : n % (t.length + 1));
    switch (m.op) {
      case 'delete': { const a = pos(m.at); t = t.slice(0, a) + t.slice(a + m.len); break; }
      case 'insert': { const a = pos(m.at); t = t.slice(0, a) + m.piece + t.slice(a); break; }
      case 'replace': { const a = pos(m.at); t = t.slice(0, a) + m.piece + t.slice(a + 1); break; }
      case 'truncate': t = t.slice(0, pos(m.at)); break;
      case 'duplicate': { const a = pos(m.at); t = t.slice(0, a + m.len) + t.slice(a, a + m.len) + t.slice(a + m.len); break; }
      case 'swap': {
        const toks = tokenize(t);
        if (toks.length < 2) break;
        let x = toks[m.a % toks.length], y = toks[m.b % toks.length];
        if (x.offset === y.offset) break;
        if (x.offset > y.offset) [x, y] = [y, x];
        if (x.offset + x.length > y.offset) break;
        t = t.slice(0, x.offset) + t.substr(y.offset, y.length) + t.slice(x.offset + x.length, y.offset) + t.substr(x.offset, x.length) + t.slice(y.offset + y.length);
        break;
      }
    }
  }
  return t;
}

export const applyExprMutations = (expr: string, muts: readonly TextMutation[]): string => applyTextMutations(expr, muts, exprTokens);

// ---------------------------------------------------------------------------------------------------------------- value mutations

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type PathSeg = string | number;

/** Values of every JSON type, including the awkward ones: what "wrong type" mutations put in place. */
const WRONG_VALUES: Json[] = [
  null, true, false, 0, -1, 1.5, 1e308, -1e-308, 2 ** 53 + 1, '', 'x', '0x1', '1e400', 'null', 'true', '\u0000', '\ud800', '😀',
  'a'.repeat(300), 'constructor', '__proto__', 'toString', 'hasOwnProperty', [], [null], [[]], {}, { '': null }, { __proto__: 1 } as unknown as Json, { constructor: 'x' }, ['a', 1, true],
];

export type ValueMutation =
  | { op: 'delete'; at: number }
  | { op: 'set'; at: number; value: Json }
  | { op: 'wrong'; at: number; pick: number }
  | { op: 'rename'; at: number; cut: number }
  | { op: 'add'; at: number; key: string; value: Json }
  | { op: 'copy'; from: number; to: number };

export const valueMutations: fc.Arbitrary<ValueMutation[]> = fc.array(fc.oneof(
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> }),
  fc.record({ op: fc.constant('wrong' as const), at: fc.nat(), pick: fc.nat() }),
  fc.record({ op: fc.constant('rename' as const), at: fc.nat(), cut: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('where', 'and', 'or', 'key', 'operator', 'value', 'params', 'method', 'id', 'rules', 'expression', 'filter', 'dataset', '$dataset', '__proto__', 'constructor', 'toString', 'valueOf')), value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json> }),
  fc.record({ op: fc.constant('copy' as const), from: fc.nat(), to: fc.nat() }),
), { minLength: 1, maxLength: 5 });

function paths(v: Json, at: PathSeg[] = [], out: PathSeg[][] = []): PathSeg[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k], [...at, k], out);
  return out;
}

function get(v: Json, p: PathSeg[]): Json {
  let cur: Json = v;
  for (const s of p) cur = (cur as Record<string, Json>)[s as string];
  return cur;
}

function setAt(root: Json, p: PathSeg[], value: Json | undefined): Json {
  if (p.length === 0) return value === undefined ? {} : value;
  const parent = get(root, p.slice(0, -1));
  const last = p[p.length - 1];
  if (Array.isArray(parent)) {
    if (value === undefined) parent.splice(last as number, 1);
    else parent[last as number] = value;
  } else if (parent && typeof parent === 'object') {
    if (value === undefined) delete parent[last as string];
    else Object.defineProperty(parent, last as string, { value, enumerable: true, writable: true, configurable: true });
  }
  return root;
}

export function applyValueMutations(base: unknown, muts: readonly ValueMutation[]): Json {
  let v = structuredClone(base) as Json;
  for (const m of muts) {
    const all = paths(v);
    switch (m.op) {
      case 'delete': v = setAt(v, all[m.at % all.length], undefined); break;
      case 'set': v = setAt(v, all[m.at % all.length], structuredClone(m.value)); break;
      case 'wrong': v = setAt(v, all[m.at % all.length], structuredClone(WRONG_VALUES[m.pick % WRONG_VALUES.length])); break;
      case 'copy': v = setAt(v, all[m.to % all.length], structuredClone(get(v, all[m.from % all.length]))); break;
      case 'add': {
        const objs = all.filter((p) => { const x = get(v, p); return x !== null && typeof x === 'object' && !Array.isArray(x); });
        if (objs.length) v = setAt(v, [...objs[m.at % objs.length], m.key], structuredClone(m.value));
        break;
      }
      case 'rename': {
        const keyed = all.filter((p) => typeof p[p.length - 1] === 'string');
        if (!keyed.length) break;
        const p = keyed[m.at % keyed.length];
        const old = p[p.length - 1] as string;
        const parent = get(v, p.slice(0, -1)) as Record<string, Json>;
        const cut = old.length ? m.cut % old.length : 0;
        const renamed = old.slice(0, cut) + old.slice(cut + 1) + (old.length <= 1 ? 'x' : '');
        const value = parent[old];
        delete parent[old];
        Object.defineProperty(parent, renamed, { value, enumerable: true, writable: true, configurable: true });
        break;
      }
    }
  }
  return v;
}

/** A duplicated member: the text of one property of the document inserted again just before it. */
export function duplicateKey(text: string, pick: number): string {
  let root: JsonNode | undefined;
  try { root = parseTree(text); } catch { return text; }
  const props: JsonNode[] = [];
  const stack: JsonNode[] = root ? [root] : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'property') props.push(n);
    for (const c of n.children ?? []) stack.push(c);
  }
  if (!props.length) return text;
  const p = props[pick % props.length];
  return text.slice(0, p.offset) + text.substr(p.offset, p.length) + ',' + text.slice(p.offset);
}

const INDENTS = [undefined, 2, '\t', 1] as const;

/** A near-valid document of the kind: a corpus value, structurally mutated, serialized, optionally with a duplicated member. */
export function nearValid(kind: DocKind): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...VALUES[kind]), valueMutations, fc.nat(INDENTS.length - 1), fc.option(fc.nat(), { nil: undefined }))
    .map(([base, muts, indent, dup]) => {
      const text = JSON.stringify(applyValueMutations(base, muts), null, INDENTS[indent]) ?? 'null';
      return dup === undefined ? text : duplicateKey(text, dup);
    });
}

/** A corpus text of the kind with character-level mutations. */
export function mutatedText(kind: DocKind): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...BY_KIND[kind]), jsonTextMutations).map(([s, muts]) => applyTextMutations(s.text, muts));
}

/** A job whose `filter` string holds a mutated filter (structurally, then character by character). */
export const jobWithBadFilter: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom(...VALUES['logpush-job'].filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v))),
  fc.constantFrom(...FILTER_VALUES), valueMutations, fc.option(jsonTextMutations, { nil: undefined }), fc.boolean(),
).map(([job, filter, vmuts, tmuts, pretty]) => {
  const inner = JSON.stringify(applyValueMutations(filter, vmuts)) ?? '';
  const filterText = tmuts ? applyTextMutations(inner, tmuts) : inner;
  return JSON.stringify({ ...(job as object), filter: filterText }, null, pretty ? 2 : undefined);
});

/** A ruleset whose first rule's expression is mutated character by character (or replaced by a random string). */
export const rulesetWithBadExpression: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom(...VALUES['waf-ruleset'].filter((v) => Array.isArray((v as { rules?: unknown }).rules) && (v as { rules: unknown[] }).rules.length > 0)),
  fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...EXPRESSIONS), exprTextMutations).map(([e, m]) => applyExprMutations(e, m)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  ),
  fc.nat(),
).map(([rs, expr, which]) => {
  const v = structuredClone(rs) as { rules: Record<string, unknown>[] };
  const i = which % v.rules.length;
  v.rules[i] = { ...(v.rules[i] && typeof v.rules[i] === 'object' ? v.rules[i] : {}), expression: expr };
  return JSON.stringify(v, null, 2);
});

/** Offsets to ask completion and hover at: fractions of the text length, so they spread over any text. */
export const offsetFractions = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 });
export const toOffsets = (text: string, fr: readonly number[]): number[] => [0, text.length, ...fr.map((f) => Math.floor(f * text.length))];

export const kindArb = fc.constantFrom(...DOC_KINDS);

// ---------------------------------------------------------------------------------------------------------------- properties

export interface FuzzProperty { name: string; property: fc.IProperty<never> | fc.IPropertyWithHooks<never> }

function prop<T extends unknown[]>(name: string, arbs: { [K in keyof T]: fc.Arbitrary<T[K]> }, check: (...args: T) => void): FuzzProperty {
  return { name, property: fc.property(...(arbs as unknown as [fc.Arbitrary<unknown>]), check as (...a: unknown[]) => void) as unknown as fc.IProperty<never> };
}

/** Every property of the suite; the fast and the long runs differ only in numRuns and seed. */
export function properties(): FuzzProperty[] {
  const out: FuzzProperty[] = [
    prop('random JSON text, any kind', [fc.json({ maxDepth: 6 }), kindArb, offsetFractions] as const,
      (text: string, kind: DocKind, fr: number[]) => { checkAll(text, kind, toOffsets(text, fr)); }),
    prop('random JSON values, pretty-printed, any kind', [fc.jsonValue({ maxDepth: 5 }), kindArb, offsetFractions] as const,
      (v: unknown, kind: DocKind, fr: number[]) => { const text = JSON.stringify(v, null, 2) ?? 'null'; checkAll(text, kind, toOffsets(text, fr)); }),
    prop('random strings (any UTF-16, lone surrogates, controls), any kind', [fc.string({ unit: 'binary', maxLength: 80 }), kindArb, offsetFractions] as const,
      (text: string, kind: DocKind, fr: number[]) => { checkAll(text, kind, toOffsets(text, fr)); }),
    prop('job with a malformed filter string', [jobWithBadFilter, offsetFractions] as const,
      (text: string, fr: number[]) => { checkAll(text, 'logpush-job', toOffsets(text, fr)); }),
    prop('ruleset with a mutated expression', [rulesetWithBadExpression, offsetFractions] as const,
      (text: string, fr: number[]) => { checkAll(text, 'waf-ruleset', toOffsets(text, fr)); }),
    prop('Fix all: a job with a malformed filter string', [jobWithBadFilter] as const, (text: string) => { checkFixAll(text, 'logpush-job'); }),
    prop('Fix all: a ruleset with a mutated expression', [rulesetWithBadExpression] as const, (text: string) => { checkFixAll(text, 'waf-ruleset'); }),
    prop('a document read as the wrong kind', [fc.constantFrom(...CORPUS), kindArb, offsetFractions] as const,
      (s: Sample, kind: DocKind, fr: number[]) => { checkAll(s.text, kind, toOffsets(s.text, fr)); }),
  ];
  for (const kind of DOC_KINDS) {
    out.push(
      prop(`${kind}: near-valid documents (structural mutations)`, [nearValid(kind), offsetFractions] as const,
        (text: string, fr: number[]) => { checkAll(text, kind, toOffsets(text, fr)); }),
      prop(`${kind}: character mutations of the corpus`, [mutatedText(kind), offsetFractions] as const,
        (text: string, fr: number[]) => { checkAll(text, kind, toOffsets(text, fr)); }),
      prop(`${kind}: Fix all on near-valid documents and character mutations`, [fc.oneof(nearValid(kind), mutatedText(kind))] as const,
        (text: string) => { checkFixAll(text, kind); }),
    );
  }
  return out;
}

/** FUZZ_SEED (a number) or a fixed seed for the fast suite, a fresh one for the long run; FUZZ_RUNS overrides the run count. */
export function runSettings(defaultRuns: number, fixedSeed: number | undefined): { numRuns: number; seed: number } {
  const env = process.env.FUZZ_SEED;
  const seed = env !== undefined && env !== '' ? Number(env) : fixedSeed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const runs = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : defaultRuns;
  return { numRuns: runs, seed };
}
