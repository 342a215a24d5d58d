// The item-by-item positions of large batches (parse.ts Window) must give exactly what the full tree gives: every golden fixture and
// bench document is checked both ways, and locations, nodes, completions and hovers are compared at every offset of small batches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findNodeAtLocation, findNodeAtOffset, getLocation, getNodePath, parseTree, type Node as JsonNode } from 'jsonc-parser';
import { commonPrefix, commonSuffix, deeperThan, itemSpans, largestArrayMember, MAX_NESTING, parseDocument, tooDeepAt, WINDOW_FROM } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import { complete, hover } from '../../../server/src/core/assist';
import { isDocKind } from '../../../server/src/core/kinds';
import type { DocKind } from '../../../server/src/core/types';
import { batchDoc, rulesetDoc } from '../../../bench/docs';
import { mulberry32 } from '../../../mock/src/prng';

const fixtures = path.resolve(__dirname, '../../fixtures');

function allFixtures(): { kind: DocKind; name: string; text: string }[] {
  const out: { kind: DocKind; name: string; text: string }[] = [];
  for (const kind of fs.readdirSync(fixtures).sort()) {
    if (!isDocKind(kind)) continue;
    for (const f of fs.readdirSync(path.join(fixtures, kind)).filter((x) => x.endsWith('.json')).sort()) {
      out.push({ kind, name: `${kind}/${f}`, text: fs.readFileSync(path.join(fixtures, kind, f), 'utf8') });
    }
  }
  return out;
}

const SMALL_BATCH = `[
  {"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0x00000000000000000000000000000000000000aa", "latest"], "id": 1},
  {"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"latest","address":["0xzz"],"topics":[null,["0x12"]]}],"id":2},
  {"jsonrpc": "2.0", "method": "eth_call", "params": [{"to": "0x00000000000000000000000000000000000000aa", "input": "0x", "gass": "0x1"}, "pending"], "id": 3} ,
  "not a request", 42, null, [1, {"a": "\\"]}"}],
  {"method": "eth_blockNumber", "id": "7", "params": []},
  {"jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["lates", false], "id": 1}
]
`;

const SMALL_RULESET = `{
  "name": "zone", "kind": "zone", "phase": "http_request_firewall_custom",
  "rules": [
    {"action": "block", "expression": "(ip.src in {192.0.2.0/24}) and http.request.uri.path contains \\"/admin\\"", "description": "admin"},
    {"action": "blok", "expression": "http.host eq \\"example.com\\"", "enabled": true, "id": "r2"},
    {"action": "skip", "expression": "cf.client.bot", "action_parameters": {"ruleset": "current"}, "id": "r2"},
    {"action": "managed_challenge", "expression": "http.request.uri.query contain \\"x\\""}
  ],
  "description": "\\"rules\\": [ not a member ]"
}
`;

const SAMPLES: { kind: DocKind; text: string }[] = [
  { kind: 'jsonrpc-request', text: SMALL_BATCH },
  { kind: 'waf-ruleset', text: SMALL_RULESET },
];

function describeNode(n: JsonNode | undefined): unknown {
  return n && { type: n.type, offset: n.offset, length: n.length, value: n.value, path: getNodePath(n) };
}

test('validateText gives the same problems with item-by-item positions (every fixture and bench batch)', () => {
  const docs = [...allFixtures(), ...SAMPLES.map((x, i) => ({ ...x, name: `sample ${i}` }))];
  for (const v of ['valid', 'errors'] as const) for (const d of [batchDoc(v), rulesetDoc(v)]) docs.push({ kind: d.kind, name: d.name + v, text: d.text });
  const windowed = { array: 0, member: 0 };
  for (const d of docs) {
    const doc = parseDocument(d.text, { windowFrom: 0 });
    const problems = validateText(d.text, d.kind, { parsed: doc });
    // A document positioned item by item is not searched for duplicate keys (core/parse/duplicates.ts); every other problem, the
    // ones of a duplicated member included, is the same and in the same place.
    const notDuplicate = (p: { code: string }) => p.code !== 'syntax/duplicate-key';
    const whole = validateText(d.text, d.kind, { parsed: parseDocument(d.text, { windowFrom: Infinity }) });
    assert.deepEqual(problems.filter(notDuplicate), whole.filter(notDuplicate), d.name);
    // Which documents took the item-by-item path: the second item of the windowed array is still a stub after locating the first.
    if (Array.isArray(doc.value) && doc.value.length > 1 && !findNodeAtLocation(doc.treeAlong([0])!, [1])?.children && doc.syntax.length === 0) windowed.array++;
    const rules = (doc.value as { rules?: unknown })?.rules;
    if (Array.isArray(rules) && rules.length > 1 && doc.syntax.length === 0 && !findNodeAtLocation(doc.treeAlong(['rules', 0])!, ['rules', 1])?.children) windowed.member++;
  }
  assert.ok(windowed.array >= 4 && windowed.member >= 3, `windowed documents: ${JSON.stringify(windowed)}`);
});

test('locationAt, treeAround and treeAlong agree with the full tree at every offset of a batch and a ruleset', () => {
  for (const { text } of SAMPLES) {
  const full = parseTree(text)!;
  for (let offset = 0; offset <= text.length; offset++) {
    const doc = parseDocument(text, { windowFrom: 0 });
    const a = doc.locationAt(offset);
    const b = getLocation(text, offset);
    assert.deepEqual([a.path, a.isAtPropertyKey, a.previousNode && { ...a.previousNode }], [b.path, b.isAtPropertyKey, b.previousNode && { ...b.previousNode }], `location at ${offset}`);
    for (const pattern of [[0], ['*'], ['**', 'params'], [2, 'params', 0, '*']]) assert.equal(a.matches(pattern), b.matches(pattern), `matches ${JSON.stringify(pattern)} at ${offset}`);
    for (const right of [false, true]) {
      assert.deepEqual(describeNode(findNodeAtOffset(doc.treeAround(offset)!, offset, right)), describeNode(findNodeAtOffset(full, offset, right)), `node at ${offset}`);
    }
    const node = findNodeAtOffset(full, offset, true);
    if (node) {
      const p = getNodePath(node);
      for (const part of ['key', 'value'] as const) assert.deepEqual(doc.locate(p, part), parseDocument(text, { windowFrom: Infinity }).locate(p, part), `locate ${JSON.stringify(p)}`);
    }
  }
  }
});

test('locate without item trees (the scanner) gives the full tree\'s span for every path, missing members and indexes included', () => {
  const texts = [...SAMPLES.map((x) => x.text), batchDoc('errors').text.slice(0, 6000).replace(/,\n[^\n]*$/, '\n]\n'), rulesetDoc('errors').text];
  let paths = 0;
  for (const text of texts) {
    const full = parseDocument(text, { windowFrom: Infinity });
    const nodes: JsonNode[] = [parseTree(text)!];
    for (let k = 0; k < nodes.length; k++) for (const c of nodes[k].children ?? []) nodes.push(c);
    for (const node of nodes) {
      if (node.type === 'property') continue;
      const p = getNodePath(node);
      // The path itself, a member or element below it that may not exist, and segments of the wrong kind.
      for (const q of [p, [...p, 'id'], [...p, 'params', 0], [...p, 'missing'], [...p, 0], [...p, 1, 'x'], [...p, 99], [...p, -1], [...p, 'x', 'y']]) {
        for (const part of ['key', 'value'] as const) {
          // A fresh document for each path: no item has a tree yet, so Window.locate reads the text with the scanner.
          assert.deepEqual(parseDocument(text, { windowFrom: 0 }).locate(q, part), full.locate(q, part), `locate ${JSON.stringify(q)} ${part}`);
          paths++;
        }
      }
    }
  }
  assert.ok(paths > 5000, `${paths} paths`);
});

test('completion and hover are the same with item-by-item positions at every offset of a batch and a ruleset', () => {
  for (const { kind, text } of SAMPLES) {
    const windowed = parseDocument(text, { windowFrom: 0 });
    const full = parseDocument(text, { windowFrom: Infinity });
    let entries = 0;
    let hovers = 0;
    for (let offset = 0; offset <= text.length; offset++) {
      const c = complete(kind, windowed, offset);
      entries += c.length;
      assert.deepEqual(c, complete(kind, full, offset), `${kind} completion at ${offset}`);
      const h = hover(kind, windowed, offset);
      if (h) hovers++;
      assert.deepEqual(h, hover(kind, full, offset), `${kind} hover at ${offset}`);
    }
    assert.ok(entries > 100 && hovers > 50, `${kind}: ${entries} completions, ${hovers} hovers`);
  }
});

test('a large batch never builds its full tree for diagnostics, completion or hover', () => {
  const d = batchDoc('errors');
  assert.ok(d.text.length >= WINDOW_FROM);
  const doc = parseDocument(d.text);
  let built = false;
  const original = doc.tree.bind(doc);
  doc.tree = () => { built = true; return original(); };
  assert.ok(validateText(d.text, d.kind, { parsed: doc }).length >= 100);
  const at = d.text.indexOf('"eth_getLogs"', d.text.length / 2) + 3;
  assert.ok(complete(d.kind, doc, at + 1).length > 0);
  assert.ok(hover(d.kind, doc, at));
  assert.equal(built, false);
  doc.release();
  assert.ok(hover(d.kind, doc, at), 'trees are rebuilt after release()');
});

test('itemSpans finds each item of a valid array, strings with escaped quotes and brackets included', () => {
  const text = ' [ 1 , "a\\"],[\\\\" ,{"b":[2,{"c":"]"}]} ,[],null ] ';
  const { spans, close } = itemSpans(text, text.indexOf('['));
  const items = [];
  for (let i = 0; i < spans.length; i += 2) items.push(text.slice(spans[i], spans[i + 1]));
  assert.deepEqual(items, ['1', '"a\\"],[\\\\"', '{"b":[2,{"c":"]"}]}', '[]', 'null']);
  assert.equal(text[close], ']');
  assert.equal(close, text.length - 2);
  assert.deepEqual(Array.from(itemSpans('[]', 0).spans), []);
});

test('largestArrayMember finds the root object\'s largest array member, skipping strings and refusing a duplicated key', () => {
  const text = '{"a": [1], "r\\"s": [[1, 2], {"x": [3, 4, 5, 6, 7, 8]}], "s": "[[[[[[[[[[[[[[[[[[", "o": {"big": [1,2,3,4,5,6,7,8,9,10,11,12]}}';
  const m = largestArrayMember(text, 0)!;
  assert.equal(m.key, 'r"s');
  assert.equal(text[m.open], '[');
  assert.equal(text[m.close], ']');
  assert.equal(text.slice(m.open, m.close + 1), '[[1, 2], {"x": [3, 4, 5, 6, 7, 8]}]');
  assert.equal(largestArrayMember('{"a": [1, 2, 3], "b": 1, "a": [1]}', 0), undefined);
  assert.equal(largestArrayMember('{"a": {"b": [1, 2, 3]}}', 0), undefined);
});

test('deeperThan measures nesting on the value exactly as tooDeepAt does on the text', () => {
  for (const depth of [0, 1, MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 5000]) {
    for (const [open, close] of [['[', ']'], ['{"k":', '}'], ['[{"a":1,"b":', '}]']]) {
      const text = open.repeat(depth) + '0' + close.repeat(depth);
      const levels = depth * (open === '[{"a":1,"b":' ? 2 : 1);
      assert.equal(deeperThan(JSON.parse(text), MAX_NESTING), levels > MAX_NESTING, `${levels} levels`);
      assert.equal(tooDeepAt(text, MAX_NESTING) >= 0, levels > MAX_NESTING);
      const doc = parseDocument(text);
      assert.equal(doc.syntax.some((p) => p.code === 'limits/too-deep'), levels > MAX_NESTING);
      if (levels > MAX_NESTING) assert.equal(doc.syntax[0].offset, tooDeepAt(text, MAX_NESTING));
    }
  }
  assert.equal(deeperThan([[1], [[2]]], 2), true);
  assert.equal(deeperThan([[1], [2]], 2), false);
  assert.equal(deeperThan(JSON.parse('{"__proto__": [[[]]]}'), 3), true);
});

test('an edit inside one item keeps the other items\' positions; anything else scans again, with the same results', () => {
  const base = parseDocument(SMALL_BATCH, { windowFrom: 0 });
  const at = SMALL_BATCH.indexOf('"eth_call"');
  base.locationAt(at + 2); // builds the window
  for (let o = 0; o <= SMALL_BATCH.length; o++) base.treeAround(o); // parses every item: an edit carries them over (or moves copies)
  const edits: [number, number, string][] = [
    [at + 2, 0, 'x'], // inside item 2: reused
    [SMALL_BATCH.indexOf('"gass"') + 1, 4, 'gas'], // inside item 2, shorter
    [SMALL_BATCH.indexOf('{"method"'), 0, '{"id": 9}, '], // a new item: scanned again
    [SMALL_BATCH.indexOf('"not a request"') + 1, 0, '\\"'], // an escaped quote inside a string item
    [SMALL_BATCH.indexOf('\\"]}"') + 2, 1, ''], // removes a bracket from a string: still one value
    [SMALL_BATCH.indexOf('42'), 2, '[1, 2]'], // replaces a whole item (its first and last characters change)
    [SMALL_BATCH.length - 3, 0, ', 5'], // after the last item
    [SMALL_BATCH.indexOf('\n  {"jsonrpc":"2.0"') + 1, 0, ' '], // whitespace between items (the bench's edit)
    [SMALL_BATCH.indexOf('\n  {"jsonrpc":"2.0"') + 1, 2, ''], // whitespace removed between items
    [SMALL_BATCH.indexOf('"2.0", "method": "eth_call"') + 6, 1, '\n\t '], // whitespace inside an item
    [SMALL_BATCH.indexOf('not a request') + 3, 1, '  '], // a space inside a string
    [SMALL_BATCH.indexOf('"id": 1},') + 8, 0, ' '], // whitespace right after an item's last character
    [0, 0, '\n '], // before the root
    [SMALL_BATCH.length - 1, 1, ''], // after the root
  ];
  for (const [offset, length, insert] of edits) {
    const text = SMALL_BATCH.slice(0, offset) + insert + SMALL_BATCH.slice(offset + length);
    JSON.parse(text);
    const edited = parseDocument(text, { windowFrom: 0, previous: base });
    const fresh = parseDocument(text, { windowFrom: Infinity });
    assert.deepEqual(edited.value, JSON.parse(text), `edit at ${offset}: value`);
    for (let o = 0; o <= text.length; o++) {
      const a = edited.locationAt(o);
      const b = getLocation(text, o);
      assert.deepEqual([a.path, a.isAtPropertyKey], [b.path, b.isAtPropertyKey], `edit at ${offset}: location at ${o}`);
      assert.deepEqual(describeNode(findNodeAtOffset(edited.treeAround(o)!, o, true)), describeNode(findNodeAtOffset(fresh.tree()!, o, true)), `edit at ${offset}: node at ${o}`);
    }
    assert.deepEqual(validateText(text, 'jsonrpc-request', { parsed: edited }), validateText(text, 'jsonrpc-request', { parsed: fresh }));
  }
});

test('spans located in an item an edit did not touch are kept, and equal a fresh parse\'s; the edited item is located again', () => {
  // Every path of the value, each item's missing member and out-of-range index, both parts.
  const paths = (v: unknown, at: (string | number)[] = []): (string | number)[][] => {
    const out: (string | number)[][] = [at];
    if (Array.isArray(v)) {
      v.forEach((x, k) => out.push(...paths(x, [...at, k])));
      if (at.length) out.push([...at, v.length]);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
      out.push([...at, 'missing']);
    }
    return out;
  };
  const locateAll = (doc: ReturnType<typeof parseDocument>, value: unknown) =>
    paths(value).slice(1).flatMap((q) => (['key', 'value'] as const).map((part) => ({ q, part, span: doc.locate(q, part) })));
  const edits: [string, number, string][] = [
    ['"gass"', 1, 'gas'], // inside item 2, shorter: item 2's spans move, the others keep theirs
    ['"0xzz"', 1, '0x0'], // inside item 1, longer
    ['"2.0", "method": "eth_call"', 6, '\n\t '], // whitespace inside item 2
    ['"id":2}', 0, '  '], // whitespace inside item 1, before its last member
    ['"lates"', 1, 'l'], // inside the last item
    ['\n  {"jsonrpc":"2.0"', 1, ' '], // whitespace between items
  ];
  let text = SMALL_BATCH;
  let previous = parseDocument(text, { windowFrom: 0 });
  locateAll(previous, previous.value); // fills the located spans (no item tree is built)
  for (const [find, skip, insert] of edits) {
    const offset = text.indexOf(find) + skip;
    assert.ok(offset >= skip, find);
    text = text.slice(0, offset) + insert + text.slice(offset);
    const edited = parseDocument(text, { windowFrom: 0, previous });
    const fresh = parseDocument(text, { windowFrom: Infinity });
    assert.deepEqual(edited.value, JSON.parse(text));
    for (const { q, part, span } of locateAll(edited, edited.value)) {
      assert.deepEqual(span, fresh.locate(q, part), `after ${JSON.stringify(insert)} at ${offset}: locate ${JSON.stringify(q)} ${part}`);
    }
    assert.deepEqual(validateText(text, 'jsonrpc-request', { parsed: edited }), validateText(text, 'jsonrpc-request', { parsed: fresh }));
    previous = edited;
  }
});

test('chains of random edits parsed from the previous version give the value, problems and positions of a fresh parse', () => {
  const rand = mulberry32(11);
  const pieces = ['{', '}', '[', ']', '"', ',', ':', ' ', '\n', '0', '7', 'a', '\\', 'null', '"x"', '{"id": 3}', '"0x1"', '"eth_call"', '"gas"'];
  let reusedValue = 0;
  let reparsedItem = 0;
  for (const [kind, start] of [['jsonrpc-request', SMALL_BATCH], ['waf-ruleset', SMALL_RULESET]] as [DocKind, string][]) {
    // 2 x 24 chains of 25 edits here; 2 x 200 under EDGEKIT_STRESS=1 (test/stress/generated.stress.ts).
    for (let chain = 0; chain < (process.env.EDGEKIT_STRESS === '1' ? 200 : 24); chain++) {
      let text = start;
      let previous = parseDocument(text, { windowFrom: 0 });
      for (let step = 0; step < 25; step++) {
        const offset = Math.floor(rand() * (text.length + 1));
        const length = Math.floor(rand() * 3);
        const insert = Array.from({ length: Math.floor(rand() * 3) }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
        const next = text.slice(0, offset) + insert + text.slice(offset + length);
        const edited = parseDocument(next, { windowFrom: 0, previous });
        const fresh = parseDocument(next, { windowFrom: Infinity });
        const where = `${kind} chain ${chain} step ${step}: ${JSON.stringify(insert)} at ${offset} over ${length}`;
        assert.deepEqual(edited.value, fresh.value, `${where}: value`);
        assert.deepEqual(edited.syntax, fresh.syntax, `${where}: syntax`);
        assert.deepEqual(validateText(next, kind, { parsed: edited }), validateText(next, kind, { parsed: fresh }), `${where}: problems`);
        for (const o of [offset, offset + insert.length, Math.floor(rand() * (next.length + 1))]) {
          if (o > next.length || fresh.syntax.length) continue;
          assert.deepEqual(edited.locationAt(o).path, getLocation(next, o).path, `${where}: location at ${o}`);
          // The items' subtrees, carried over from the previous version or moved, are the fresh parse's.
          assert.deepEqual(describeNode(findNodeAtOffset(edited.treeAround(o)!, o, true)), describeNode(findNodeAtOffset(fresh.tree()!, o, true)), `${where}: node at ${o}`);
        }
        const items = (v: unknown): unknown[] => {
          const a = Array.isArray(v) ? v : (v as { rules?: unknown } | undefined)?.rules;
          return Array.isArray(a) ? a : [];
        };
        if (edited.value !== undefined && edited.value === previous.value) reusedValue++;
        else if (items(edited.value).some((x, j) => typeof x === 'object' && x !== null && x === items(previous.value)[j])) reparsedItem++;
        // Keep the chain valid most of the time (an invalid version is parsed whole, and so is the next one).
        if (fresh.syntax.length === 0 || rand() < 0.2) { text = next; previous = edited; }
      }
    }
  }
  assert.ok(reusedValue > 0 && reparsedItem > 100, `the incremental paths ran (${reusedValue} values reused, ${reparsedItem} re-parsed)`);
});

test('commonPrefix and commonSuffix', () => {
  assert.equal(commonPrefix('abcdef', 'abcxef'), 3);
  assert.equal(commonSuffix('abcdef', 'abcxef', 6 - 3), 2);
  assert.equal(commonPrefix('abc', 'abc'), 3);
  assert.equal(commonSuffix('abc', 'abc', 0), 0);
  assert.equal(commonPrefix('', 'a'), 0);
  assert.equal(commonSuffix('aaa', 'aaaa', 3), 3);
});

test('items with duplicate keys: the same problems, hovers and completions item by item as with the full tree (the last member counts)', () => {
  const leaf = fc.constantFrom('"2.0"', '"eth_call"', '"eth_getBalanse"', '["0x1", "latest"]', '[{"to": "0x1", "gass": 1, "to": {}}]', '{}', '1', 'null',
    '"block"', '"blok"', '"http.host eq \\"x\\""', '{"ruleset": "current", "ruleset": 5}', '"r1"');
  const obj = (keys: string[]) => fc.array(fc.tuple(fc.constantFrom(...keys), leaf), { minLength: 1, maxLength: 7 })
    .map((m) => `{${m.map(([k, v]) => `"${k}": ${v}`).join(', ')}}`);
  const batch = fc.array(obj(['jsonrpc', 'method', 'params', 'id']), { minLength: 1, maxLength: 3 }).map((a) => ({ kind: 'jsonrpc-request' as DocKind, text: `[\n${a.join(',\n')}\n]` }));
  const ruleset = fc.tuple(obj(['name', 'phase', 'kind']), fc.array(obj(['action', 'expression', 'action_parameters', 'id']), { maxLength: 3 }))
    .map(([head, rules]) => ({ kind: 'waf-ruleset' as DocKind, text: `${head.slice(0, -1)}, "rules": [\n${rules.join(',\n')}\n]}` }));
  const notDuplicate = (p: { code: string }) => p.code !== 'syntax/duplicate-key';
  fc.assert(fc.property(fc.oneof(batch, ruleset), ({ kind, text }) => {
    const item = parseDocument(text, { windowFrom: 0 });
    const whole = parseDocument(text, { windowFrom: Infinity });
    assert.deepEqual(validateText(text, kind, { parsed: item }).filter(notDuplicate), validateText(text, kind, { parsed: whole }).filter(notDuplicate), text);
    for (let off = 0; off <= text.length; off += 3) {
      assert.deepEqual(hover(kind, item, off), hover(kind, whole, off), `${off} ${text}`);
      assert.deepEqual(complete(kind, item, off), complete(kind, whole, off), `${off} ${text}`);
    }
  }), { numRuns: 150, seed: 5 });
});
