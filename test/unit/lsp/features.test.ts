import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseDocument } from '../../../server/src/core/parse';
import { documentSymbols, foldingRanges } from '../../../server/src/lsp/features';
import type { ParsedDoc } from '../../../server/src/core/types';

function batch(n: number): string {
  const items = Array.from({ length: n }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: i % 2 ? 'eth_getBalance' : 'eth_blockNumber', params: i % 2 ? ['0x9b2055d370f73ec7d8a03e965129118dc8f5bf83', 'latest'] : [], id: i }, null, 2));
  return `[\n${items.join(',\n')}\n]\n`;
}

function counting(parsed: ParsedDoc): { doc: ParsedDoc; trees: () => number } {
  let trees = 0;
  const doc = new Proxy(parsed, {
    get(target, prop, receiver) {
      if (prop === 'tree') return () => { trees++; return target.tree(); };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { doc, trees: () => trees };
}

test('outline and folding of a large batch list its requests without building the full tree', () => {
  const text = batch(3000);
  assert.ok(text.length > 256 * 1024);
  const td = TextDocument.create('file:///big.rpc.json', 'jsonrpc-request', 1, text);
  const { doc, trees } = counting(parseDocument(text));
  const symbols = documentSymbols(td, doc);
  assert.equal(symbols.length, 3000);
  assert.equal(symbols[1].name, '1: eth_getBalance');
  assert.equal(td.getText(symbols[2].range).startsWith('{'), true);
  const folds = foldingRanges(td, doc);
  assert.ok(folds.length >= 3000);
  assert.equal(trees(), 0, 'no full tree');
});

test('a small document gets the full outline with children', () => {
  const text = batch(3);
  const td = TextDocument.create('file:///small.rpc.json', 'jsonrpc-request', 1, text);
  const symbols = documentSymbols(td, parseDocument(text));
  assert.equal(symbols.length, 3);
  assert.deepEqual(symbols.map((x) => x.name), ['0: eth_blockNumber', '1: eth_getBalance', '2: eth_blockNumber'], 'the same labels as the large-document outline');
  assert.ok((symbols[0].children ?? []).some((c) => c.name === 'method'));
});

test('an outline label takes the last of duplicate keys, as the large-document outline (from the parsed value) does', () => {
  const text = '[{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "method": "eth_getBalance"}]';
  const td = TextDocument.create('file:///dup.rpc.json', 'jsonrpc-request', 1, text);
  assert.deepEqual(documentSymbols(td, parseDocument(text)).map((x) => x.name), ['0: eth_getBalance']);
});

test('folding: no range that hides nothing (an object whose closing brace is on the next line), one range per start line', () => {
  // As vscode-json-languageservice's jsonFolding.ts: a range needs a line between its brackets, and a line starts one range.
  const text = '{\n  "where": {"key": "ClientCountry",\n    "operator": "eq", "value": "ca"},\n  "rules": [{\n    "a": 1\n  }]\n}\n';
  const td = TextDocument.create('file:///f.filter.json', 'logpush-filter', 1, text);
  const folds = foldingRanges(td, parseDocument(text));
  for (const f of folds) assert.ok(f.endLine > f.startLine, JSON.stringify(f));
  const starts = folds.map((f) => f.startLine);
  assert.equal(new Set(starts).size, starts.length, JSON.stringify(folds));
  assert.deepEqual(folds.map((f) => [f.startLine, f.endLine]), [[0, 5], [3, 4]]);
});

test('formatting honours the client\'s insertFinalNewline (VS Code sends files.insertFinalNewline), adding one when it is not sent', async () => {
  const { formatDocument } = await import('../../../server/src/lsp/features');
  const text = '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}';
  const td = TextDocument.create('file:///f.filter.json', 'logpush-filter', 1, text);
  const formatted = (o: { tabSize: number; insertSpaces: boolean; insertFinalNewline?: boolean }) => TextDocument.applyEdits(td, formatDocument(td, o));
  assert.ok(!formatted({ tabSize: 2, insertSpaces: true, insertFinalNewline: false }).endsWith('\n'));
  assert.ok(formatted({ tabSize: 2, insertSpaces: true, insertFinalNewline: true }).endsWith('}\n'));
  assert.ok(formatted({ tabSize: 2, insertSpaces: true }).endsWith('}\n'));
  assert.match(formatted({ tabSize: 4, insertSpaces: false }), /^{\n\t"where": {\n\t\t"key"/);
});

test('a client that filters by the word at the cursor gets unquoted filter texts, escaped quotes (inside a job\'s filter string) too', async () => {
  const { toCompletionItem } = await import('../../../server/src/lsp/features');
  const td = TextDocument.create('file:///j.logpush.json', 'logpush-job', 1, '{"filter": "{\\"where\\": {\\"key\\": \\"Qu\\"}}"}');
  const caps = { snippets: false, markdownDocs: false, markdownHover: false, rangeFilter: false };
  const item = (filterText: string) => toCompletionItem(td, { label: 'QueryName', kind: 'field', filterText }, caps);
  assert.equal(item('"QueryName"').filterText, 'QueryName');
  assert.equal(item('\\"QueryName\\"').filterText, 'QueryName', 'the word before the cursor is Qu, never \\"Qu');
  assert.equal(toCompletionItem(td, { label: 'QueryName', kind: 'field', filterText: '\\"QueryName\\"' }).filterText, '\\"QueryName\\"', 'VS Code filters on the range');
});

test('a client without markdown gets hovers and documentation as plain text, not markdown markup labelled plaintext', async () => {
  const { toCompletionItem, toHover } = await import('../../../server/src/lsp/features');
  const td = TextDocument.create('file:///f.filter.json', 'logpush-filter', 1, '{}');
  const caps = { snippets: false, markdownDocs: false, markdownHover: false, rangeFilter: false };
  const md = '```\neth_getBalance(Address: address)\n```\n\n**ClientCountry** · `string`\n\n2-letter code\\_x';
  const h = toHover(td, { offset: 0, length: 1, markdown: md }, caps);
  assert.deepEqual(h.contents, { kind: 'plaintext', value: 'eth_getBalance(Address: address)\n\nClientCountry · string\n\n2-letter code_x' });
  const item = toCompletionItem(td, { label: 'x', kind: 'field', documentation: md }, caps);
  assert.equal(item.documentation, 'eth_getBalance(Address: address)\n\nClientCountry · string\n\n2-letter code_x');
  assert.equal((toHover(td, { offset: 0, length: 1, markdown: md }) as { contents: { value: string } }).contents.value, md, 'markdown clients get it as is');
});

test('outline: an empty or blank key gets a visible name (VS Code refuses a DocumentSymbol with an empty name), a newline shows as ↵', () => {
  // vscode-json-languageservice's getKeyLabel does the same: '""' for an empty key, "↵" for a line break.
  const text = '{"": 1, "  ": {"a\\nb": 2}, "rules": [{"description": "two\\nlines"}]}';
  const td = TextDocument.create('file:///k.ruleset.json', 'waf-ruleset', 1, text);
  const symbols = documentSymbols(td, parseDocument(text));
  assert.deepEqual(symbols.map((s) => s.name), ['""', '"  "', 'rules']);
  assert.equal(symbols[1].children![0].name, 'a↵b');
  assert.equal(symbols[2].children![0].name, '0: two↵lines');
  const walk = (list: typeof symbols): void => { for (const s of list) { assert.ok(s.name.trim().length > 0, JSON.stringify(s.name)); walk(s.children ?? []); } };
  walk(symbols);
});

test('outline: a name or detail cut at 60 characters keeps an emoji whole or drops it, never half of it', () => {
  // slice(0, 60) inside a surrogate pair left a lone surrogate: U+FFFD on the wire at best (stdio.ts), an unpaired code unit in VS Code.
  const long = `${'a'.repeat(59)}😀tail`;
  const text = JSON.stringify({ rules: [{ description: long }], x: long });
  const td = TextDocument.create('file:///e.ruleset.json', 'waf-ruleset', 1, text);
  const symbols = documentSymbols(td, parseDocument(text));
  const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
  assert.equal(symbols[0].children![0].name, `0: ${'a'.repeat(59)}`);
  assert.equal(symbols[1].detail, 'a'.repeat(59));
  for (const s of [symbols[0].children![0].name, symbols[1].detail!]) assert.ok(!lone.test(s), JSON.stringify(s));
});

test('snippetToText: an escaped \\$ keeps the text after it, and a default holding an escaped \\} is read whole', async () => {
  // The plain-text fallback of a snippet (clients without snippet support). It removed "$1"-style tab stops before it un-escaped,
  // so literal text written as "\$1" (core/text.ts snippetText escapes $, } and \) lost its "$1"; and its placeholder pattern
  // stopped a default at the first "}", even an escaped one. LSP 3.17 snippet syntax: "\$", "\}" and "\\" are escapes in text
  // and in a placeholder's default.
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const { snippetText } = await import('../../../server/src/core/text');
  assert.equal(snippetToText('price \\$1 and $1 more'), 'price $1 and  more');
  assert.equal(snippetToText('"${1:a\\}b}"'), '"a}b"');
  assert.equal(snippetToText('${1:x\\$2y}$0'), 'x$2y');
  assert.equal(snippetToText('${1:outer ${2:inner\\}} end}'), 'outer inner} end');
  assert.equal(snippetToText('${1|one\\,two,three|}'), 'one,two');
  assert.equal(snippetToText('a\\\\$1b'), 'a\\b');
  for (const literal of ['$1', 'a}b', '${1:x}', 'back\\slash\\', '\\$', '$$', 'ends with $']) {
    assert.equal(snippetToText(`"\${1:${snippetText(literal)}}"`), `"${literal}"`, literal);
    assert.equal(snippetToText(snippetText(literal)), literal, literal);
  }
});

test('snippetToText: placeholders left open are kept as text, without recursion (its growth: npm run bench, section 8)', async () => {
  const { snippetToText } = await import('../../../server/src/lsp/features');
  assert.equal(snippetToText('${1:a ${2:b}'), '${1:a b');
  assert.equal(snippetToText('${1|a,b}'), '${1|a,b}');
  const deep = '${1:'.repeat(50_000);
  assert.equal(snippetToText(deep), deep);
});
