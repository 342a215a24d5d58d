// Smart selection (textDocument/selectionRange): the JSON part agrees with vscode-json-languageservice's getSelectionRanges on
// every fixture at every offset; inside a rule's expression and a job's filter string the spans follow their own structure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLanguageService as jsonService, TextDocument, type SelectionRange } from 'vscode-json-languageservice';
import { getLanguageService, type DocKind } from '../../../server/src/core';

const ls = getLanguageService();
const FIXTURES = join(__dirname, '../../fixtures');

function chain(kind: DocKind, text: string, offset: number): string[] {
  const [spans] = ls.selectionRanges(kind, ls.parse(text), [offset]);
  return spans.map((s) => text.slice(s.offset, s.offset + s.length));
}

/** Every offset of a small document; in a larger one every n-th, about 3000 in all. */
const offsetsOf = (text: string) => Array.from({ length: text.length + 1 }, (_, i) => i).filter((i) => i % Math.max(1, Math.floor(text.length / 3000)) === 0);

const at = (text: string, marker: string, delta = 0) => {
  const i = text.indexOf(marker);
  assert.ok(i >= 0, marker);
  return i + delta;
};

test('the JSON part is vscode-json-languageservice\'s, at every offset of the gateway and filter fixtures that parse', () => {
  const peer = jsonService({});
  let compared = 0;
  for (const kind of ['jsonrpc-request', 'logpush-filter'] as const) {
    for (const f of readdirSync(join(FIXTURES, kind)).filter((n) => n.endsWith('.json'))) {
      const text = readFileSync(join(FIXTURES, kind, f), 'utf8');
      // Past the nesting limit ours answers the whole text only (the last test).
      if (text.length > 20_000 || /^\uFEFF/.test(text) || f.includes('too-deep')) continue;
      // Broken JSON is recovered differently by their parser and jsonc-parser; the nesting test below covers it.
      if (ls.parse(text).syntax.length > 0) continue;
      const td = TextDocument.create('file:///x.json', 'json', 1, text);
      const jdoc = peer.parseJSONDocument(td);
      const offsets = offsetsOf(text);
      const theirs = peer.getSelectionRanges(td, offsets.map((o) => td.positionAt(o)), jdoc);
      const ours = ls.selectionRanges(kind, ls.parse(text), offsets);
      offsets.forEach((o, i) => {
        const expected: string[] = [];
        for (let r: SelectionRange | undefined = theirs[i]; r; r = r.parent) {
          // Theirs repeats a range where two nodes share it (an array's contents that are its one item); ours gives it once.
          const t = text.slice(td.offsetAt(r.range.start), td.offsetAt(r.range.end));
          if (expected[expected.length - 1] !== t) expected.push(t);
        }
        const got = ours[i].map((s) => text.slice(s.offset, s.offset + s.length));
        // Ours ends with the whole text when the root value does not fill it (whitespace around it); theirs ends at the root.
        if (got[got.length - 1] === text && expected[expected.length - 1] !== text) got.pop();
        // Theirs keeps an empty range at the caret where no node is (between two values), ours has nothing there.
        if (expected.length === 1 && expected[0] === '' && got.length === 0) return;
        if (JSON.stringify(got) !== JSON.stringify(expected)) assert.deepEqual(got, expected, `${kind}/${f} at ${o}`);
        compared++;
      });
    }
  }
  assert.ok(compared > 5000, `${compared} offsets`);
});

test('inside a rule\'s expression: name, call, comparison, "and", group, the whole expression, then the JSON', () => {
  const text = '{"rules": [{"action": "block", "expression": "(http.host eq \\"a.com\\" and lower(http.request.uri.path) contains \\"/x\\") or ip.src in {1.2.3.4 10.0.0.0/8}"}]}';
  const spans = chain('waf-ruleset', text, at(text, 'uri.path'));
  assert.deepEqual(spans.slice(0, 7), [
    'http.request.uri.path',
    'lower(http.request.uri.path)',
    'lower(http.request.uri.path) contains \\"/x\\"',
    'http.host eq \\"a.com\\" and lower(http.request.uri.path) contains \\"/x\\"',
    '(http.host eq \\"a.com\\" and lower(http.request.uri.path) contains \\"/x\\")',
    '(http.host eq \\"a.com\\" and lower(http.request.uri.path) contains \\"/x\\") or ip.src in {1.2.3.4 10.0.0.0/8}',
    '"(http.host eq \\"a.com\\" and lower(http.request.uri.path) contains \\"/x\\") or ip.src in {1.2.3.4 10.0.0.0/8}"',
  ]);
  assert.equal(spans[7].startsWith('"expression": '), true);
  assert.equal(spans[spans.length - 1], text);
  // A set member, then the set, then the comparison.
  assert.deepEqual(chain('waf-ruleset', text, at(text, '0.0.0/8')).slice(0, 3), ['10.0.0.0/8', '{1.2.3.4 10.0.0.0/8}', 'ip.src in {1.2.3.4 10.0.0.0/8}']);
  // The operator: itself, then its comparison.
  assert.deepEqual(chain('waf-ruleset', text, at(text, 'contains', 2)).slice(0, 2), ['contains', 'lower(http.request.uri.path) contains \\"/x\\"']);
});

test('an expression\'s spans cover whole escape sequences, and an expression with a syntax error expands through what parsed', () => {
  const text = '{"rules": [{"action": "block", "expression": "http.host eq \\"\\u0061.com\\" and"}]}';
  const spans = chain('waf-ruleset', text, at(text, 'u0061', 1));
  assert.equal(spans[0], '\\"\\u0061.com\\"', 'the string literal, escapes whole');
  assert.equal(spans[1], 'http.host eq \\"\\u0061.com\\"');
  for (const s of spans) assert.ok(!/^u|\\$/.test(s), `no span cuts an escape: ${s}`);
});

test('inside a job\'s filter string: the embedded filter\'s JSON, then the job\'s', () => {
  const text = '{"dataset": "http_requests", "filter": "{\\"where\\":{\\"and\\":[{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"us\\"}]}}"}';
  const spans = chain('logpush-job', text, at(text, 'Country'));
  assert.deepEqual(spans.slice(0, 4), ['ClientCountry', '\\"ClientCountry\\"', '\\"key\\":\\"ClientCountry\\"', '\\"key\\":\\"ClientCountry\\",']);
  assert.ok(spans.includes('{\\"where\\":{\\"and\\":[{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"us\\"}]}}'), 'the whole filter');
  assert.ok(spans.some((s) => s.startsWith('"filter": "')), 'then the job\'s member');
  assert.equal(spans[spans.length - 1], text);
});

test('every chain is nested (each span contains the one before it) at the offsets of every fixture of every kind', () => {
  for (const kind of ['jsonrpc-request', 'logpush-filter', 'logpush-job', 'waf-ruleset'] as const) {
    for (const f of readdirSync(join(FIXTURES, kind)).filter((n) => n.endsWith('.json'))) {
      const text = readFileSync(join(FIXTURES, kind, f), 'utf8');
      if (text.length > 20_000) continue;
      const offsets = offsetsOf(text);
      ls.selectionRanges(kind, ls.parse(text), offsets).forEach((spans, i) => {
        assert.ok(spans.length > 0 || text.length === 0, `${kind}/${f} at ${i}: empty`);
        for (let k = 1; k < spans.length; k++) {
          const [a, b] = [spans[k - 1], spans[k]];
          if (!(b.offset <= a.offset && b.offset + b.length >= a.offset + a.length && b.length > a.length)) assert.fail(`${kind}/${f} at ${i}: ${JSON.stringify(spans)}`);
        }
      });
    }
  }
});

test('every chain starts with a span around the caret, in the middle of an escape sequence too (VS Code refuses the answer otherwise)', () => {
  // VS Code's SelectionRangeAdapter (extHostLanguageFeatures.ts) throws "INVALID selection range, must contain the previous range"
  // when the first range does not contain the position, and Expand Selection then does nothing. A caret between the "\\" and the
  // '"' of an escaped quote in a job's filter string was given the key's contents, which end before the backslash.
  const text = '{"dataset": "http_requests", "filter": "{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"eq\\",\\"value\\":\\"us\\"}}"}';
  const mid = at(text, '\\":{', 1); // between the backslash and the quote that closes "where"
  assert.equal(text.slice(mid - 1, mid + 1), '\\"');
  assert.equal(chain('logpush-job', text, mid)[0], '\\"where\\"');
  for (const kind of ['logpush-job', 'waf-ruleset'] as const) {
    for (const f of readdirSync(join(FIXTURES, kind)).filter((n) => n.endsWith('.json'))) {
      const src = readFileSync(join(FIXTURES, kind, f), 'utf8');
      if (src.length > 20_000) continue;
      const offsets = offsetsOf(src);
      ls.selectionRanges(kind, ls.parse(src), offsets).forEach((spans, i) => {
        const o = offsets[i];
        if (spans.length && !(spans[0].offset <= o && o <= spans[0].offset + spans[0].length)) assert.fail(`${kind}/${f} at ${o}: ${JSON.stringify(spans[0])}`);
      });
    }
  }
});

test('a string, object or array left open has no "contents" span cutting off its last character (half an emoji after an unclosed quote)', () => {
  // The contents were taken as the node without its first and last characters, a closing quote or bracket that an unterminated
  // string or an unclosed object does not have: "😀 left open on its line gave the span of the emoji's first UTF-16 unit alone.
  const open = '{"name": "default","😀\n  "rules": []}';
  assert.deepEqual(chain('waf-ruleset', open, at(open, '😀')).slice(0, 2), ['😀', '"😀']);
  const unclosed = '{"where": {"key": "ClientCountry", "operator": "eq", "value": ["ca", "us"';
  assert.deepEqual(chain('logpush-filter', unclosed, at(unclosed, '"us"', 2)).slice(0, 4), ['us', '"us"', '"ca", "us"', '["ca", "us"']);
});

test('a large batch is answered from the request under the caret; a document nested past the limit gets the whole text only', () => {
  const items = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: 'eth_getBalance', params: ['0x9b2055d370f73ec7d8a03e965129118dc8f5bf83', 'latest'], id: i }));
  const text = `[\n${items.join(',\n')}\n]\n`;
  const doc = ls.parse(text);
  let trees = 0;
  const counted = new Proxy(doc, { get: (t, p) => (p === 'tree' ? () => { trees++; return t.tree(); } : typeof Reflect.get(t, p) === 'function' ? (Reflect.get(t, p) as Function).bind(t) : Reflect.get(t, p)) });
  const o = text.indexOf('"id":2500') + 6;
  const [spans] = ls.selectionRanges('jsonrpc-request', counted, [o]);
  assert.deepEqual(spans.slice(0, 3).map((s) => text.slice(s.offset, s.offset + s.length)), ['2500', '"id":2500', `"jsonrpc":"2.0","method":"eth_getBalance","params":["0x9b2055d370f73ec7d8a03e965129118dc8f5bf83","latest"],"id":2500`]);
  assert.equal(trees, 0, 'no full tree of the batch');
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  assert.deepEqual(ls.selectionRanges('jsonrpc-request', ls.parse(deep), [2500]), [[{ offset: 0, length: deep.length }]]);
});

test('a field or a call on the right of a comparison (changelog 2026-10-01) gets its own spans', () => {
  const text = '{"rules":[{"action":"block","expression":"http.host eq http.referer and len(http.host) gt len(http.request.headers[\\"x\\"][0])"}]}';
  assert.deepEqual(chain('waf-ruleset', text, at(text, 'referer')).slice(0, 3), ['http.referer', 'http.host eq http.referer',
    'http.host eq http.referer and len(http.host) gt len(http.request.headers[\\"x\\"][0])']);
  assert.deepEqual(chain('waf-ruleset', text, at(text, 'headers')).slice(0, 4), ['http.request.headers', 'http.request.headers[\\"x\\"][0]',
    'len(http.request.headers[\\"x\\"][0])', 'len(http.host) gt len(http.request.headers[\\"x\\"][0])']);
});

test('selection in a rule\'s expression parses in the body\'s phase: after a Network Firewall Boolean field no operator word is split', () => {
  // tcp.flags.syn is a Boolean of the Network Firewall's catalogue: in magic_transit the parser takes no operator after it, so
  // "eq80" is no comparison: only the whole expression's span; in an HTTP phase the field is unknown and "eq80" reads as "eq 80",
  // a comparison whose value has a span of its own
  const body = (phase: string) => JSON.stringify({ name: 'n', kind: 'root', phase, rules: [{ action: 'block', expression: 'tcp.flags.syn eq80' }] });
  const spansAt = (text: string) => {
    const at = text.indexOf('eq80') + 3;
    const [spans] = ls.selectionRanges('waf-ruleset', ls.parse(text), [at]);
    return spans.map((s) => text.substr(s.offset, s.length)).filter((s) => !/^["{[]/.test(s));
  };
  assert.deepEqual(spansAt(body('magic_transit')), ['tcp.flags.syn eq80']);
  assert.deepEqual(spansAt(body('http_request_firewall_custom')), ['80', 'tcp.flags.syn eq80']);
});
