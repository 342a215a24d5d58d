import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Feed } from '../../../mock/src/feed';

test('feed: records read back in order by sequence number, per zone and dataset', () => {
  const f = new Feed(10);
  f.append('z1', 'http_requests', [{ n: 0 }, { n: 1 }, { n: 2 }]);
  f.append('z2', 'http_requests', [{ n: 'other' }]);
  const r = f.read('z1', 'http_requests', 1);
  assert.deepEqual(r.records, [{ n: 1 }, { n: 2 }]);
  assert.equal(r.first, 1);
  assert.equal(r.next, 3);
  assert.equal(r.missed, 0);
  assert.deepEqual(f.read('z1', 'firewall_events', 0).records, []);
  assert.equal(f.read('z1', 'http_requests', 3).next, 3);
});

test('feed: bounded; a reader that fell behind is told how many it missed', () => {
  const f = new Feed(4);
  const seen: number[] = [];
  const off = f.onAppend((_z, _d, n) => seen.push(n));
  f.append('z', 'http_requests', Array.from({ length: 10 }, (_, n) => ({ n })));
  off();
  f.append('z', 'http_requests', [{ n: 10 }]);
  assert.deepEqual(seen, [10]);
  const r = f.read('z', 'http_requests', 2, 2);
  assert.deepEqual(r.records, [{ n: 7 }, { n: 8 }]);
  assert.equal(r.first, 7);
  assert.equal(r.missed, 5);
  f.clear();
  assert.equal(f.next('z', 'http_requests'), 11);
  assert.deepEqual(f.read('z', 'http_requests', 0).records, []);
  assert.throws(() => new Feed(0), /positive integer/);
});
