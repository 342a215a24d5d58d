// The LSP parse cache keeps one parse per document text, position trees only for the most recently used documents, and
// parses of older documents within a text budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ParseCache } from '../../../server/src/lsp/parseCache';
import type { ParsedDoc } from '../../../server/src/core/types';

const make = (n: string, text = `[{"id": "${n}"}]`) => TextDocument.create(`file:///${n}.json`, 'jsonrpc-request', 1, text);

function spied(cache: ParseCache, d: TextDocument, released: string[]): ParsedDoc {
  const doc = cache.get(d);
  const release = doc.release.bind(doc);
  doc.release = () => { released.push(d.uri.slice(8, -5)); release(); };
  return doc;
}

test('only the most recently used documents keep their trees', () => {
  const cache = new ParseCache(() => true, { trees: 2, parses: 100, textBudget: 0 });
  const released: string[] = [];
  const docs = ['a', 'b', 'c', 'd'].map((n) => make(n));
  const parsed = docs.slice(0, 2).map((d) => spied(cache, d, released));
  assert.equal(released.length, 0);
  spied(cache, docs[2], released);
  assert.deepEqual(released, ['a']);
  released.length = 0;
  assert.equal(cache.get(docs[0]), parsed[0], 'a released document keeps its parse (value and syntax)');
  assert.deepEqual(released, ['b'], 'using a again pushes b out');
  released.length = 0;
  cache.get(docs[0]);
  assert.equal(released.length, 0, 'using a recent document again releases nothing');
  spied(cache, docs[3], released);
  assert.ok(released.includes('c'));
  assert.ok(parsed[0].tree(), 'a tree is rebuilt on demand');
});

test('parses beyond the most recent ones are kept within the text budget, most recent first', () => {
  const big = '[' + '1,'.repeat(500) + '1]';
  const cache = new ParseCache(() => true, { trees: 1, parses: 2, textBudget: 2 * big.length + 10 });
  const docs = ['a', 'b', 'c', 'd', 'e'].map((n) => make(n, big));
  const first = docs.map((d) => cache.get(d));
  // e and d are the `parses` most recent; with c the texts total 3 x big, over the budget, so c, b and a are dropped.
  assert.equal(cache.get(docs[4]), first[4]);
  assert.equal(cache.get(docs[3]), first[3]);
  assert.notEqual(cache.get(docs[0]), first[0], 'an old parse was dropped and is parsed again');
  assert.deepEqual(cache.get(docs[0]).value, first[0].value);
  const roomy = new ParseCache(() => true, { trees: 1, parses: 1, textBudget: 10 * big.length });
  const kept = docs.map((d) => roomy.get(d));
  docs.forEach((d, i) => assert.equal(roomy.get(d), kept[i], `${d.uri} kept within the budget`));
});

test('a new version is parsed again and a closed document is not cached', () => {
  let open = true;
  const cache = new ParseCache(() => open);
  const d1 = TextDocument.create('file:///x.json', 'jsonrpc-request', 1, '[1]');
  const p1 = cache.get(d1);
  assert.equal(cache.get(d1), p1);
  const d2 = TextDocument.update(d1, [{ text: '[2]' }], 2);
  const p2 = cache.get(d2);
  assert.notEqual(p2, p1);
  assert.deepEqual(p2.value, [2]);
  open = false;
  assert.notEqual(cache.get(d2), p2);
});

test('texts changed under one version (many documents, the most recent one growing) keep the cache within its text budget', () => {
  const small = '[' + '1,'.repeat(100) + '1]';
  const big = '[' + '2,'.repeat(2000) + '2]';
  const cache = new ParseCache(() => true, { trees: 1, parses: 1, textBudget: 3 * small.length });
  let docs = ['a', 'b', 'c', 'd'].map((n) => make(n, small));
  // Each document's text changes twice under version 1 (a client that repeats the version); every one is parsed from its text.
  for (const round of [1, 2]) {
    docs = docs.map((d) => TextDocument.update(d, [{ text: `[${round}, ${small.slice(1)}` }], 1));
    for (const d of docs) assert.equal((cache.get(d).value as number[])[0], round, `${d.uri}, round ${round}`);
  }
  const kept = docs.map((d) => cache.get(d));
  assert.equal(cache.get(docs[2]), kept[2], 'c is within the budget');
  assert.equal(cache.get(docs[3]), kept[3]);
  // The most recent document grows far past the budget under the same version: the older parses go (they did not: the cache was
  // trimmed only when another document was used).
  docs[3] = TextDocument.update(docs[3], [{ text: big }], 1);
  assert.deepEqual(cache.get(docs[3]).value, JSON.parse(big));
  const c = kept[2];
  assert.notEqual(cache.get(docs[2]), c, 'c was dropped when d grew past the budget');
});
