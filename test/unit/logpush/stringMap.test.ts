import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonStringMap, escapeJsonStringContent } from '../../../server/src/core/rules/logpush/stringMap';

/** The map of the one string literal in `text` that starts at the first `"` after `prefix`. */
function mapOf(text: string, at = text.indexOf('"')): JsonStringMap {
  let end = at + 1;
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  return new JsonStringMap(text, at, Math.min(end + 1, text.length) - at);
}

test('a plain literal maps one to one, shifted by the opening quote and the literal offset', () => {
  const text = '{"filter": "abc"}';
  const m = mapOf(text, 11);
  assert.equal(m.value, 'abc');
  assert.deepEqual([0, 1, 2, 3].map((i) => m.toSource(i)), [12, 13, 14, 15]);
  assert.deepEqual(m.spanToSource({ offset: 1, length: 2 }), { offset: 13, length: 2 });
});

test('every simple escape takes two source characters', () => {
  const text = String.raw`"\"\\\/\b\f\n\r\tx"`;
  const m = mapOf(text);
  assert.equal(m.value, '"\\/\b\f\n\r\tx');
  assert.deepEqual([...Array(10).keys()].map((i) => m.toSource(i)), [1, 3, 5, 7, 9, 11, 13, 15, 17, 18]);
});

test('a \\u escape takes six source characters, and a surrogate pair two of them', () => {
  const text = String.raw`"A\u0041B\uD83D\uDE00C"`;
  const m = mapOf(text);
  assert.equal(m.value, 'AAB😀C');
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((i) => m.toSource(i)), [1, 2, 8, 9, 15, 21, 22]);
  // the emoji (two UTF-16 units) covers both escapes
  assert.deepEqual(m.spanToSource({ offset: 3, length: 2 }), { offset: 9, length: 12 });
});

test('raw non-ASCII characters are single UTF-16 units on both sides', () => {
  const m = mapOf('"Zürich—日本"');
  assert.equal(m.value, 'Zürich—日本');
  assert.equal(m.toSource(2), 3);
  assert.equal(m.toSource(m.value.length), 10);
});

test('a span covering escaped quotes covers the whole escapes', () => {
  const text = '{"f": "{\\"key\\": \\"ClientCountyr\\"}"}';
  const m = mapOf(text, 6);
  assert.equal(m.value, '{"key": "ClientCountyr"}');
  const inner = m.value.indexOf('"ClientCountyr"');
  const s = m.spanToSource({ offset: inner, length: '"ClientCountyr"'.length });
  assert.equal(text.substr(s.offset, s.length), '\\"ClientCountyr\\"');
});

test('toDecoded inverts toSource, and a position inside an escape maps to that escape', () => {
  const text = String.raw`"a\"b\u0041c"`;
  const m = mapOf(text);
  for (let i = 0; i <= m.value.length; i++) assert.equal(m.toDecoded(m.toSource(i)), i);
  assert.equal(m.toDecoded(3), 1); // the quote of \"
  assert.equal(m.toDecoded(8), 3); // inside \u0041
  assert.equal(m.toDecoded(0), 0); // before the literal
  assert.equal(m.toDecoded(100), m.value.length); // after it
});

test('editToSource maps the range and escapes the new text', () => {
  const text = String.raw`"{\"key\": \"x\"}"`;
  const m = mapOf(text);
  const at = m.value.indexOf('"x"');
  const e = m.editToSource({ offset: at, length: 3, newText: '"y\n"' });
  assert.equal(text.substr(e.offset, e.length), String.raw`\"x\"`);
  assert.equal(e.newText, String.raw`\"y\n\"`);
  const patched = text.slice(0, e.offset) + e.newText + text.slice(e.offset + e.length);
  assert.equal(JSON.parse(patched), '{"key": "y\n"}');
});

test('an unterminated literal runs to its end and broken escapes are kept as written', () => {
  const m = new JsonStringMap('"ab\\q', 0, 5);
  assert.equal(m.value, 'ab\\q');
  assert.equal(m.toSource(4), 5);
  const lone = new JsonStringMap('"', 0, 1);
  assert.equal(lone.value, '');
  assert.equal(lone.toSource(0), 1);
});

test('a literal ending in an escaped backslash is closed by the final quote', () => {
  const m = mapOf(String.raw`"a\\"`);
  assert.equal(m.value, 'a\\');
  assert.equal(m.toSource(2), 4);
});

test('round trip: for generated strings, the decoded value equals JSON.parse and each unit maps to its own encoding', () => {
  const alphabet = ['a', '"', '\\', '\n', '\t', '\u0001', 'é', '日', '😀', '/', ' '];
  let seed = 7;
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let round = 0; round < 200; round++) {
    let s = '';
    for (let i = rnd(12); i > 0; i--) s += alphabet[rnd(alphabet.length)];
    const literal = JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => (rnd(2) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c));
    const text = `{"x": ${literal}}`;
    const m = new JsonStringMap(text, 6, literal.length);
    assert.equal(m.value, JSON.parse(literal));
    for (let i = 0; i < m.value.length; i++) {
      const src = text.slice(m.toSource(i), m.toSource(i + 1));
      // each decoded UTF-16 unit (even half of a raw astral character) comes from exactly its own source characters
      assert.equal(JSON.parse(`"${src}"`), m.value[i]);
    }
  }
});

test('escapeJsonStringContent is the inside of JSON.stringify', () => {
  assert.equal(escapeJsonStringContent('a"b\\c\n'), 'a\\"b\\\\c\\n');
});
