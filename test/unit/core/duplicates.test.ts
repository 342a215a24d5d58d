// Duplicate keys (core/parse/duplicates.ts): JSON.parse keeps the last member of a key, so lookups by path take the last, the
// members that do not count are warned about (with a fix that removes them), and documents without duplicates pay two counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseTree, visit } from 'jsonc-parser';
import { mayHaveDuplicates, membersInText, membersInValue, nodeAt } from '../../../server/src/core/parse/duplicates';
import { parseDocument } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import type { DocKind, Edit, Problem } from '../../../server/src/core/types';
import { complete } from '../../../server/src/core/assist';

const apply = (text: string, edits: Edit[]) => [...edits].sort((a, b) => b.offset - a.offset).reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.offset + e.length), text);
const at = (text: string, p: { offset: number; length: number }) => text.slice(p.offset, p.offset + p.length);

test('nodeAt takes the last of duplicate keys, as JSON.parse does, and finds nothing where the path is not', () => {
  const text = '{"a": 1, "b": [{"c": 1, "c": 2}], "a": {"d": true}}';
  const root = parseTree(text)!;
  assert.equal(at(text, nodeAt(root, ['a'])!), '{"d": true}');
  assert.equal(at(text, nodeAt(root, ['b', 0, 'c'])!), '2');
  assert.equal(nodeAt(root, ['a', 'd'])!.value, true);
  for (const missing of [['x'], ['b', 1], ['b', -1], ['b', 0.5], ['a', 0], ['b', 'c']]) assert.equal(nodeAt(root, missing), undefined, JSON.stringify(missing));
  assert.equal(nodeAt(root, []), root);
});

test('in valid JSON without duplicates the members counted in the text are those of the value (strings full of colons and quotes)', () => {
  const key = fc.string({ unit: fc.constantFrom('a', ':', '"', '\\', ',', '{', '}', 'é', '\n', '𝄞'), maxLength: 6 });
  const value = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(key, tie('v'), { maxKeys: 4 })),
  })).v;
  fc.assert(fc.property(value, fc.boolean(), (v, pretty) => {
    const text = JSON.stringify(v, null, pretty ? 2 : undefined);
    assert.equal(membersInText(text), membersInValue(JSON.parse(text)), text);
    assert.equal(mayHaveDuplicates(text, JSON.parse(text)), false, text);
    assert.deepEqual(parseDocument(text).duplicateKeys(), []);
  }), { numRuns: 500, seed: 7 });
  // A duplicate is seen by the colon count, also where a colon escaped as \u003a would make up for it in a plain count.
  for (const text of ['{"a": 1, "a": 2}', '[{"x": {"a:b": ":", "a:b": 1}}]', '{"a": 1, "a": 2, "b": "\\u003a"}', '{"a": "\\u003A", "b": 1}']) {
    assert.equal(mayHaveDuplicates(text, JSON.parse(text)), membersInText(text) !== membersInValue(JSON.parse(text)), text);
  }
  assert.equal(mayHaveDuplicates('{"a": 1, "a": 2, "b": "\\u003a"}', { a: 2, b: ':' }), true);
  assert.equal(mayHaveDuplicates('{"b": "\\u003a"}', { b: ':' }), false);
  // An own "__proto__" member (JSON.parse makes it a plain property) counts like any other.
  assert.equal(membersInValue(JSON.parse('{"__proto__": {"a": 1}}')), 2);
  assert.equal(membersInText('{"__proto__": {"a": 1}}'), 2);
});

test('each member a later one overrides gets a warning on its key, pointing at the one that counts, with a fix that keeps the value', () => {
  const text = '{\n  "where": {\n    "key": "ClientCountyr",\n    "operator": "eq",\n    "key": "ClientCountry",\n    "value": "ca",\n    "key": "ClientCountry"\n  }\n}';
  const problems = validateText(text, 'logpush-filter');
  const dup = problems.filter((p) => p.code === 'syntax/duplicate-key');
  assert.deepEqual(problems.filter((p) => p.code !== 'syntax/duplicate-key'), [], 'the last "key" is checked, and it is right');
  assert.equal(dup.length, 2);
  const lastKey = text.lastIndexOf('"key"');
  for (const p of dup) {
    assert.equal(p.severity, 'warning');
    assert.equal(at(text, p), '"key"');
    assert.match(p.message, /^Duplicate key "key": this one is ignored; the last "key" of the object counts/);
    assert.deepEqual(p.tags, ['unnecessary']);
    assert.equal(p.related?.[0].offset, lastKey);
    const fixed = apply(text, p.fixes![0].edits);
    assert.deepEqual(JSON.parse(fixed), JSON.parse(text), 'removing an ignored member changes nothing');
  }
  const both = apply(text, dup.flatMap((p) => p.fixes![0].edits));
  assert.deepEqual(JSON.parse(both), JSON.parse(text));
  assert.deepEqual(validateText(both, 'logpush-filter'), []);
});

test('problems of a duplicated member land on the member that counts (the job\'s filter string, a request\'s method)', () => {
  const job = '{"name": "x", "dataset": "http_requests", "destination_conf": "s3://b/p?region=us-east-1",\n'
    + ' "filter": "{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"ca\\"}}",\n'
    + ' "filter": "{\\"where\\":{\\"key\\":\\"ClientCountyr\\",\\"operator\\":\\"eq\\",\\"value\\":\\"ca\\"}}"}';
  const unknown = validateText(job, 'logpush-job').find((p: Problem) => p.code === 'logpush/unknown-field')!;
  assert.ok(unknown.offset > job.lastIndexOf('"filter"'), 'on the second filter');
  assert.equal(at(job, unknown), '\\"ClientCountyr\\"');
  const rpc = '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "method": "eth_getBalanse"}';
  const method = validateText(rpc, 'jsonrpc-request').find((p: Problem) => p.code.startsWith('jsonrpc/'))!;
  assert.equal(at(rpc, method), '"eth_getBalanse"');
});

test('a document positioned item by item is not searched for duplicates, and its positions still follow the last member', () => {
  const text = `[${Array.from({ length: 3 }, (_, i) => `{"jsonrpc": "2.0", "id": ${i}, "method": "eth_blockNumber"${i === 1 ? ', "method": "eth_getBalanse"' : ''}}`).join(',\n')}]`;
  const doc = parseDocument(text, { windowFrom: 0 });
  assert.deepEqual(doc.duplicateKeys(), []);
  const problems = validateText(text, 'jsonrpc-request', { parsed: doc });
  const method = problems.find((p) => p.code.startsWith('jsonrpc/'))!;
  assert.equal(at(text, method), '"eth_getBalanse"');
  assert.equal(at(text, doc.locate([1, 'method'], 'key')), '"method"');
  const firstInItem = text.indexOf('"method"', text.indexOf('"id": 1'));
  assert.equal(doc.locate([1, 'method'], 'key').offset, text.indexOf('"method"', firstInItem + 1), 'the item\'s second "method"');
  // The same document under the window's size: the warning, and the same position.
  const whole = validateText(text, 'jsonrpc-request');
  assert.deepEqual(whole.filter((p) => p.code === 'syntax/duplicate-key').map((p) => p.offset), [firstInItem]);
  assert.equal(at(text, whole.find((p) => p.code.startsWith('jsonrpc/'))!), '"eth_getBalanse"');
});

test('invalid JSON gets its syntax error only, not duplicate warnings', () => {
  const problems = validateText('{"where": {"key": "ClientCountry", "key": "ClientCountry", "operator": "eq", "value": "ca",}}', 'logpush-filter');
  assert.deepEqual(problems.map((p) => p.code), ['syntax/trailing-comma']);
});

test('key completion leaves out the keys of the object under the cursor, not those of an earlier member with the same key', () => {
  const labels = (kind: DocKind, t: string, off: number) => complete(kind, parseDocument(t), off).map((e) => e.label);
  const rpc = '{"jsonrpc": "2.0", "method": "eth_call", "params": [{"to": "0x1"}], "params": [{"data": "0x", "": 1}, "latest"], "id": 1}';
  const inLast = labels('jsonrpc-request', rpc, rpc.lastIndexOf('""') + 1);
  assert.ok(inLast.includes('to') && !inLast.includes('data'), inLast.join(' '));
  const rpc2 = rpc.replace('{"to": "0x1"}', '{"to": "0x1", "": 1}');
  const inFirst = labels('jsonrpc-request', rpc2, rpc2.indexOf('""') + 1);
  assert.ok(!inFirst.includes('to') && inFirst.includes('data'), inFirst.join(' '));
  const job = '{"dataset": "http_requests", "output_options": {"field_names": []}, "output_options": {"sample_rate": 1, "": 1}}';
  const opts = labels('logpush-job', job, job.lastIndexOf('""') + 1);
  assert.ok(opts.includes('field_names') && !opts.includes('sample_rate'), opts.join(' '));
});

// Random JSON with duplicates injected (keys drawn from a few, colons, quotes, backslashes, "__proto__" and astral characters among
// them; strings written with \u escapes, \u003a included), checked against jsonc-parser's visit collecting the keys of each object.
type Gen = { t: 'obj'; m: [string, boolean, Gen][] } | { t: 'arr'; e: Gen[] } | { t: 'str'; s: string; esc: boolean } | { t: 'lit'; v: string };
const genKey = fc.constantFrom('a', 'b', 'a:b', ':', '__proto__', '\\', '"', 'x\\":', '𝄞', 'constructor');
const gen: fc.Arbitrary<Gen> = fc.letrec<{ n: Gen }>((tie) => ({
  n: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.record({ t: fc.constant('lit' as const), v: fc.constantFrom('1', '1e5', '-0.5E-3', 'true', 'null') }),
    fc.record({ t: fc.constant('str' as const), s: fc.string({ unit: fc.constantFrom('a', ':', '"', '\\', '{', '𝄞', '\ud800'), maxLength: 5 }), esc: fc.boolean() }),
    fc.record({ t: fc.constant('arr' as const), e: fc.array(tie('n'), { maxLength: 3 }) }),
    fc.record({ t: fc.constant('obj' as const), m: fc.array(fc.tuple(genKey, fc.boolean(), tie('n')), { maxLength: 5 }) })),
})).n;
const quote = (s: string, esc: boolean) => esc
  ? `"${[...s].map((c) => c === ':' || c.charCodeAt(0) % 3 === 0 ? [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') : JSON.stringify(c).slice(1, -1)).join('')}"`
  : JSON.stringify(s);
function print(n: Gen, ws: string): string {
  switch (n.t) {
    case 'lit': return n.v;
    case 'str': return quote(n.s, n.esc);
    case 'arr': return `[${ws}${n.e.map((x) => print(x, ws)).join(`,${ws}`)}${ws}]`;
    case 'obj': return `{${ws}${n.m.map(([k, e, v]) => `${quote(k, e)}${ws}:${ws}${print(v, ws)}`).join(`${ws},${ws}`)}${ws}}`;
  }
}
/** The offsets of the keys of every member a later member of the same object overrides. */
function overridden(text: string): number[] {
  const objects: Map<string, number[]>[] = [];
  const out: number[] = [];
  visit(text, {
    onObjectBegin: () => { objects.push(new Map()); },
    onObjectProperty: (key, offset) => { const m = objects[objects.length - 1]; m.set(key, [...(m.get(key) ?? []), offset]); },
    onObjectEnd: () => { for (const offsets of objects.pop()!.values()) out.push(...offsets.slice(0, -1)); },
  });
  return out.sort((a, b) => a - b);
}
const byOffset = (ps: Problem[]) => ps.map((p) => p.offset).sort((a, b) => a - b);
const WS = fc.constantFrom('', ' ', '\n  ', '\t');

test('property: a warning on exactly the members JSON.parse ignores, and each fix alone keeps the value', () => {
  fc.assert(fc.property(gen, WS, (n, ws) => {
    const text = print(n, ws);
    const value = JSON.parse(text);
    const dups = parseDocument(text).duplicateKeys();
    assert.deepEqual(byOffset(dups), overridden(text), text);
    assert.equal(mayHaveDuplicates(text, value), overridden(text).length > 0, text); // in valid JSON the colon count is exact
    for (const p of dups) {
      const fixed = apply(text, p.fixes![0].edits);
      assert.deepEqual(JSON.parse(fixed), value, `${text}\n=> ${fixed}`);
      assert.deepEqual(byOffset(parseDocument(fixed).duplicateKeys()), overridden(fixed), fixed);
    }
  }), { numRuns: 1000, seed: 11 });
});

test('property: the same in a job\'s filter string (escaped as \\u where it may be), the fix edits the job', () => {
  const lit = (s: string, esc: boolean) => `"${[...s].map((c) => esc && (c === ':' || c === '"' || c === 'a') ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : JSON.stringify(c).slice(1, -1)).join('')}"`;
  fc.assert(fc.property(gen.filter((n) => n.t === 'obj'), WS, fc.boolean(), fc.boolean(), (n, ws, esc, first) => {
    const filter = print(n, ws);
    const job = first ? `{"filter": ${lit(filter, esc)}, "dataset": "http_requests"}` : `{"dataset": "http_requests",\n "filter":${ws}${lit(filter, esc)}}`;
    const dups = validateText(job, 'logpush-job').filter((p) => p.code === 'syntax/duplicate-key');
    assert.equal(dups.length, overridden(filter).length, job);
    for (const p of dups) assert.deepEqual(JSON.parse(JSON.parse(apply(job, p.fixes![0].edits)).filter), JSON.parse(filter), job);
  }), { numRuns: 500, seed: 12 });
});
