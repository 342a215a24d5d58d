import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonStringMap, escapeJsonStringContent } from '../../../server/src/core/jsonString';

/** The map of the one string literal in `text` that starts at `at` (by default the first `"`). */
function mapOf(text: string, at = text.indexOf('"')): JsonStringMap {
  let end = at + 1;
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  return new JsonStringMap(text, at, Math.min(end + 1, text.length) - at);
}

/** The map of `literal` placed at offset `base` of a document, with the decoded value checked against JSON.parse. */
function decode(literal: string, base = 10): JsonStringMap {
  const m = new JsonStringMap(' '.repeat(base) + literal, base, literal.length);
  assert.equal(m.value, JSON.parse(literal));
  return m;
}

// ---------------- plain characters ----------------

test('a plain literal maps one to one, shifted by the opening quote and the literal offset', () => {
  const text = '{"filter": "abc"}';
  const m = mapOf(text, 11);
  assert.equal(m.value, 'abc');
  assert.deepEqual([0, 1, 2, 3].map((i) => m.toSource(i)), [12, 13, 14, 15]);
  assert.deepEqual(m.spanToSource({ offset: 1, length: 2 }), { offset: 13, length: 2 });
});

test('plain characters map one to one, after the opening quote', () => {
  const d = decode('"abc"');
  assert.deepEqual([0, 1, 2, 3].map((i) => d.toSource(i)), [11, 12, 13, 14]);
  assert.deepEqual(d.spanToSource({ offset: 1, length: 2 }), { offset: 12, length: 2 });
});

test('raw non-ASCII characters are single UTF-16 units on both sides', () => {
  const m = mapOf('"Zürich—日本"');
  assert.equal(m.value, 'Zürich—日本');
  assert.equal(m.toSource(2), 3);
  assert.equal(m.toSource(m.value.length), 10);
});

test('an empty literal decodes to "" and every offset maps to the closing quote', () => {
  const d = decode('""', 4);
  assert.equal(d.value, '');
  assert.equal(d.toSource(0), 5);
  assert.deepEqual(d.spanToSource({ offset: 0, length: 0 }), { offset: 5, length: 0 });
  for (const at of [0, 4, 5, 6, 50]) assert.equal(d.toDecoded(at), 0);
});

// ---------------- escapes ----------------

test('every simple escape takes two source characters', () => {
  const text = String.raw`"\"\\\/\b\f\n\r\tx"`;
  const m = mapOf(text);
  assert.equal(m.value, '"\\/\b\f\n\r\tx');
  assert.deepEqual([...Array(10).keys()].map((i) => m.toSource(i)), [1, 3, 5, 7, 9, 11, 13, 15, 17, 18]);
});

test('escapes \\" and \\\\ take two source characters', () => {
  const literal = String.raw`"a\"b\\c"`; // decoded: a"b\c
  const d = decode(literal);
  assert.equal(d.value, 'a"b\\c');
  // literal: 0 " | 1 a | 2-3 \" | 4 b | 5-6 \\ | 7 c | 8 "; decoded index 3 is the backslash of the escape at 5
  assert.equal(d.toSource(3), 10 + 5);
  assert.equal(d.toSource(4), 10 + 7);
  const span = d.spanToSource({ offset: 1, length: 3 }); // "b\ -> \"b\\
  assert.equal(literal.substr(span.offset - 10, span.length), String.raw`\"b\\`);
});

test('simple escapes \\n \\t \\/ decode to one character each', () => {
  const d = decode(String.raw`"a\nb\tc\/"`);
  assert.equal(d.value, 'a\nb\tc/');
  assert.equal(d.toSource(5), 10 + 8); // "/" from \/
  assert.equal(d.toSource(6), 10 + 10); // closing quote
});

test('a \\u escape takes six source characters, and a surrogate pair two of them', () => {
  const text = String.raw`"A\u0041B\uD83D\uDE00C"`;
  const m = mapOf(text);
  assert.equal(m.value, 'AAB😀C');
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((i) => m.toSource(i)), [1, 2, 8, 9, 15, 21, 22]);
  // the emoji (two UTF-16 units) covers both escapes
  assert.deepEqual(m.spanToSource({ offset: 3, length: 2 }), { offset: 9, length: 12 });
});

test('a lowercase \\u escape takes six source characters, surrogate pairs twelve', () => {
  const literal = String.raw`"x\u0041y\ud83d\ude00z"`;
  const d = decode(literal);
  assert.equal(d.value, 'xAy\u{1F600}z');
  assert.equal(d.toSource(1), 10 + 2); // A
  assert.equal(d.toSource(2), 10 + 8); // y
  const emoji = d.spanToSource({ offset: 3, length: 2 });
  assert.equal(literal.substr(emoji.offset - 10, emoji.length), String.raw`\ud83d\ude00`);
  assert.equal(d.toSource(5), 10 + 21); // z
  assert.equal(d.toSource(6), 10 + 22); // closing quote
});

test('a span covering escaped quotes covers the whole escapes', () => {
  const text = '{"f": "{\\"key\\": \\"ClientCountyr\\"}"}';
  const m = mapOf(text, 6);
  assert.equal(m.value, '{"key": "ClientCountyr"}');
  const inner = m.value.indexOf('"ClientCountyr"');
  const s = m.spanToSource({ offset: inner, length: '"ClientCountyr"'.length });
  assert.equal(text.substr(s.offset, s.length), '\\"ClientCountyr\\"');
});

// ---------------- clamping and empty spans ----------------

test('toSource clamps to the literal and an empty span maps to an empty span at its start', () => {
  const d = decode(String.raw`"a\nb"`, 3); // 3 " | 4 a | 5-6 \n | 7 b | 8 "
  assert.equal(d.toSource(-5), 4);
  assert.equal(d.toSource(99), 8);
  assert.deepEqual(d.spanToSource({ offset: 1, length: 0 }), { offset: 5, length: 0 });
  assert.deepEqual(d.spanToSource({ offset: 3, length: 0 }), { offset: 8, length: 0 });
  assert.deepEqual(d.spanToSource({ offset: 2, length: 50 }), { offset: 7, length: 1 });
});

// ---------------- toDecoded ----------------

test('toDecoded inverts toSource, and a position inside an escape maps to that escape', () => {
  const text = String.raw`"a\"b\u0041c"`;
  const m = mapOf(text);
  for (let i = 0; i <= m.value.length; i++) assert.equal(m.toDecoded(m.toSource(i)), i);
  assert.equal(m.toDecoded(3), 1); // the quote of \"
  assert.equal(m.toDecoded(8), 3); // inside \u0041
  assert.equal(m.toDecoded(0), 0); // before the literal
  assert.equal(m.toDecoded(100), m.value.length); // after it
});

test('toDecoded inverts toSource, and points inside an escape at the escape (literal at offset 0)', () => {
  const literal = String.raw`"ab\"cd"`;
  const d = decode(literal, 0);
  for (let i = 0; i <= d.value.length; i++) assert.equal(d.toDecoded(d.toSource(i)), i);
  assert.equal(d.toDecoded(4), 2); // the '"' after the backslash belongs to decoded index 2
  assert.equal(d.toDecoded(0), 0); // the opening quote clamps to 0
});

// ---------------- edits ----------------

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

test('escapeJsonStringContent is the inside of JSON.stringify', () => {
  assert.equal(escapeJsonStringContent('a"b\\c\n'), 'a\\"b\\\\c\\n');
});

// ---------------- malformed literals ----------------

test('an unterminated literal runs to its end and broken escapes are kept as written', () => {
  const m = new JsonStringMap('"ab\\q', 0, 5);
  assert.equal(m.value, 'ab\\q');
  assert.equal(m.toSource(4), 5);
  const lone = new JsonStringMap('"', 0, 1);
  assert.equal(lone.value, '');
  assert.equal(lone.toSource(0), 1);
});

test('an unterminated literal still maps (the JSON parser reports it)', () => {
  const d = new JsonStringMap('"abc', 0, 4);
  assert.equal(d.value, 'abc');
  assert.equal(d.toSource(3), 4);
});

test('a literal ending in an escaped backslash is closed by the final quote', () => {
  const m = mapOf(String.raw`"a\\"`);
  assert.equal(m.value, 'a\\');
  assert.equal(m.toSource(2), 4);
});

test('a final quote after an odd number of backslashes is escaped, so the literal is unterminated', () => {
  const m = new JsonStringMap(String.raw`x"a\"`, 1, 4);
  assert.equal(m.value, 'a"');
  assert.deepEqual([0, 1, 2].map((i) => m.toSource(i)), [2, 3, 5]);
});

test('a \\u escape with a non-hex digit is kept as written, character by character', () => {
  const m = mapOf(String.raw`"\u12G4z"`);
  assert.equal(m.value, '\\u12G4z');
  assert.equal(m.toSource(6), 7);
  assert.equal(m.toSource(7), 8);
});

test('an escape cut off by the end of the literal is kept as written and never reads the text after it', () => {
  // the literal is the first 5 characters; the hex digits after it belong to the rest of the document
  const m = new JsonStringMap(String.raw`"a\u0041"`, 0, 5);
  assert.equal(m.value, 'a\\u0');
  assert.equal(m.toSource(m.value.length), 5);
  const cut = new JsonStringMap('"a\\', 0, 3); // a lone backslash at the end
  assert.equal(cut.value, 'a\\');
  assert.equal(cut.toSource(2), 3);
});

test('a literal without an opening quote is decoded from its first character', () => {
  const m = new JsonStringMap('xab\\nc"', 1, 6);
  assert.equal(m.value, 'ab\nc');
  assert.deepEqual([0, 1, 2, 3, 4].map((i) => m.toSource(i)), [1, 2, 3, 5, 6]);
});

test('a length running past the end of the text stops at the end of the text', () => {
  const m = new JsonStringMap('  "ab', 2, 10);
  assert.equal(m.value, 'ab');
  assert.equal(m.toSource(2), 5);
  for (const at of [5, 6, 8, 50]) assert.equal(m.toDecoded(at), 2);
});

// ---------------- generated strings ----------------

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

test('JsonStringMap.at finds the closing quote itself: the first one no escape takes', () => {
  const literal = String.raw`"{\"a\\\\\": \"b\u0022\\q\"}"`; // a \\ before an escaped quote, a \u0022, a broken \q
  const text = `{"filter": ${literal}, "x": "y"}`;
  const at = text.indexOf(literal);
  const m = JsonStringMap.at(text, at);
  const same = new JsonStringMap(text, at, literal.length);
  assert.equal(m.value, same.value);
  assert.equal(m.toSource(m.value.length), at + literal.length - 1);
  for (let i = 0; i <= m.value.length; i++) assert.equal(m.toSource(i), same.toSource(i));
  for (let o = at; o <= at + literal.length; o++) assert.equal(m.toDecoded(o), same.toDecoded(o));
  const open = JsonStringMap.at('"ab\\"c', 0); // unterminated: runs to the end of the text
  assert.equal(open.value, 'ab"c');
  assert.equal(open.toSource(4), 6);
});

test('the map reads escapes only as far as asked, and answers the same in any order of questions', () => {
  const literal = JSON.stringify(JSON.stringify({ where: { and: [{ key: 'a\u00e9', operator: 'eq', value: 'x\ny' }, { key: 'b', operator: 'in', value: ['"q"'] }] } }));
  const text = `{"filter": ${literal}}`;
  const at = text.indexOf(literal);
  const whole = new JsonStringMap(text, at, literal.length);
  const decodedLength = whole.value.length; // reads every escape first
  let seed = 3;
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  for (let round = 0; round < 50; round++) {
    const m = rnd(2) ? JsonStringMap.at(text, at) : new JsonStringMap(text, at, literal.length);
    for (let q = 0; q < 8; q++) {
      if (rnd(2)) { const d = rnd(decodedLength + 4) - 2; assert.equal(m.toSource(d), whole.toSource(d), `toSource(${d})`); }
      else { const o = rnd(text.length + 4) - 2; assert.equal(m.toDecoded(o), whole.toDecoded(o), `toDecoded(${o})`); }
    }
    assert.equal(m.value, whole.value);
  }
});
