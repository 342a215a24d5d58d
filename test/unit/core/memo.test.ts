// remembered(): results kept per key, bounded by dropping the memory whole, undefined results kept too, unkept keys computed each time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remembered } from '../../../server/src/core/memo';

test('remembered computes a key once, keeps at most max keys, keeps undefined results, and computes an unkept key each time', () => {
  const calls: string[] = [];
  const f = remembered(3, (k) => { calls.push(k); return k === 'none' ? undefined : k.length; }, (k) => k.length < 10);
  assert.equal(f('ab'), 2);
  assert.equal(f('ab'), 2);
  assert.equal(f('none'), undefined);
  assert.equal(f('none'), undefined);
  assert.deepEqual(calls, ['ab', 'none'], 'each computed once, the undefined result too');
  f('c'); f('d'); // the fourth key drops the memory
  f('ab');
  assert.deepEqual(calls, ['ab', 'none', 'c', 'd', 'ab']);
  f('a very long key'); f('a very long key');
  assert.equal(calls.filter((c) => c === 'a very long key').length, 2, 'not kept');
});
