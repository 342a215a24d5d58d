import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJsonString } from '../../../server/src/core/rules/ruleset/stringOffsets';

/** Decode a literal placed at `base`, and check the decoded value against JSON.parse. */
function decode(literal: string, base = 10) {
  const d = decodeJsonString(literal, base);
  assert.equal(d.value, JSON.parse(literal));
  return d;
}

test('plain characters map one to one, after the opening quote', () => {
  const d = decode('"abc"');
  assert.deepEqual([0, 1, 2, 3].map(d.toSource), [11, 12, 13, 14]);
  assert.deepEqual(d.spanToSource({ offset: 1, length: 2 }), { offset: 12, length: 2 });
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

test('a \\u escape takes six source characters, surrogate pairs twelve', () => {
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

test('simple escapes \\n \\t \\/ decode to one character each', () => {
  const d = decode(String.raw`"a\nb\tc\/"`);
  assert.equal(d.value, 'a\nb\tc/');
  assert.equal(d.toSource(5), 10 + 8); // "/" from \/
  assert.equal(d.toSource(6), 10 + 10); // closing quote
});

test('toDecoded inverts toSource, and points inside an escape at the escape', () => {
  const literal = String.raw`"ab\"cd"`;
  const d = decode(literal, 0);
  for (let i = 0; i <= d.value.length; i++) assert.equal(d.toDecoded(d.toSource(i)), i);
  assert.equal(d.toDecoded(4), 2); // the '"' after the backslash belongs to decoded index 2
  assert.equal(d.toDecoded(0), 0); // the opening quote clamps to 0
});

test('an unterminated literal still maps (the JSON parser reports it)', () => {
  const d = decodeJsonString('"abc', 0);
  assert.equal(d.value, 'abc');
  assert.equal(d.toSource(3), 4);
});
