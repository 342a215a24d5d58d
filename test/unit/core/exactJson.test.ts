// Integers past 2^53 in log lines and records: parsed as the bigint of their digits (parseExact), written back as those digits
// (stringifyExact), as the evaluators show a first matching line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExact, stringifyExact, withExactIntegers } from '../../../server/src/core';

test('stringifyExact writes what JSON.stringify writes, and a bigint as its digits (a JSON number) where JSON.stringify throws', () => {
  const plain: unknown[] = [{ a: [1, 'x', null, true, undefined, () => 1], b: undefined, c: { d: 1.5, e: -0 } }, [undefined], 'é\u0000"', 3, null, { toJSON: () => 'j' }];
  for (const v of plain) assert.equal(stringifyExact(v), JSON.stringify(v), String(v));
  assert.throws(() => JSON.stringify({ a: 1n }), TypeError);
  assert.equal(stringifyExact({ T: 1700000000123456789n, A: [1, -12345678901234567891n, undefined], N: { x: 2n, y: undefined } }),
    '{"T":1700000000123456789,"A":[1,-12345678901234567891,null],"N":{"x":2}}');
  assert.equal(stringifyExact(17000000000000000001n), '17000000000000000001');
});

test('parseExact: a line\'s integers past 2^53 as bigints, in place; withExactIntegers the same on a copy; duplicate keys keep the last', () => {
  const text = '{"a": [1700000000123456789, {"b": 1700000000123456788}], "c": 1e400, "d": 9007199254740993.0, "e": {}, "f": [[], [12345678901234567890]]}';
  const exact = { a: [1700000000123456789n, { b: 1700000000123456788n }], c: Infinity, d: 9007199254740992, e: {}, f: [[], [12345678901234567890n]] };
  assert.deepEqual(parseExact(text), exact);
  const parsed = JSON.parse(text) as unknown;
  assert.deepEqual(withExactIntegers(text, parsed), exact);
  assert.deepEqual(parsed, JSON.parse(text), 'withExactIntegers copies');
  assert.equal(parseExact('1700000000123456789'), 1700000000123456789n);
  assert.deepEqual(parseExact('{"k": 1700000000123456789, "k": 5}'), { k: 5 });
  assert.deepEqual(parseExact('{"k": 5, "k": 1700000000123456789}'), { k: 1700000000123456789n });
});

test('duplicate keys keep the last even where both numbers round to the same double (JSON.parse cannot tell them apart)', () => {
  for (const read of [parseExact, (t: string) => withExactIntegers(t, JSON.parse(t))]) {
    assert.deepEqual(read('{"t": 1700000000000000001, "t": 1700000000000000002}'), { t: 1700000000000000002n });
    // The last is exact (2^53, 1e16): it stays the number it is, not the earlier member's digits
    assert.deepEqual(read('{"t": 9007199254740993, "t": 9007199254740992}'), { t: 9007199254740992 });
    assert.deepEqual(read('{"t": 10000000000000001, "t": 1e16}'), { t: 1e16 });
    assert.deepEqual(read('{"a": {"t": 10000000000000001}, "a": {"t": 10000000000000000}}'), { a: { t: 10000000000000000 } });
    assert.deepEqual(read('[{"t": 10000000000000001, "t": 10000000000000000}, 10000000000000001]'), [{ t: 10000000000000000 }, 10000000000000001n]);
  }
});
