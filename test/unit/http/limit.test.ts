// mapLimit: the Zones view reads each zone's status through it, a few at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findLimit, mapLimit } from '../../../client/src/http/limit';
import { ZONE_STATUS_CONCURRENCY } from '../../../client/src/http/api';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('mapLimit: 200 calls, never more than the limit in flight, results in order', async () => {
  let inFlight = 0, most = 0, calls = 0;
  const items = Array.from({ length: 200 }, (_, i) => i);
  const out = await mapLimit(items, ZONE_STATUS_CONCURRENCY, async (x) => {
    inFlight++; calls++;
    most = Math.max(most, inFlight);
    await tick(x % 3);
    inFlight--;
    return x * 2;
  });
  assert.equal(calls, 200);
  assert.deepEqual(out, items.map((x) => x * 2));
  assert.equal(most, ZONE_STATUS_CONCURRENCY, 'the pool is used, and never exceeded');
  assert.ok(ZONE_STATUS_CONCURRENCY >= 2 && ZONE_STATUS_CONCURRENCY <= 8);
  assert.deepEqual(await mapLimit([], 4, async () => 1), []);
  assert.deepEqual(await mapLimit([1, 2], 0, async (x) => x), [1, 2], 'a limit below 1 still runs one at a time');
});

test('mapLimit: the first error rejects, and no call starts after it', async () => {
  const started: number[] = [];
  await assert.rejects(mapLimit(Array.from({ length: 50 }, (_, i) => i), 3, async (x) => {
    started.push(x);
    await tick(1);
    if (x === 4) throw new Error('boom 4');
    return x;
  }), /boom 4/);
  await tick(20);
  assert.ok(started.length < 10, `stopped early (${started.length} started)`);
});

test('mapLimit: a limit of 1, or below 1 (0, a fraction, negative, NaN), runs one call at a time and every call', async () => {
  for (const limit of [1, 0, 0.5, -3, Number.NaN]) {
    let inFlight = 0, most = 0;
    const out = await mapLimit([1, 2, 3], limit, async (x) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await tick(1);
      inFlight--;
      return x * 10;
    });
    assert.deepEqual(out, [10, 20, 30], `limit ${limit}`);
    assert.equal(most, 1, `limit ${limit}: one at a time`);
  }
});

test('findLimit: the first hit ends the search, no call starts after it (a job among 2600 zones, found in the tenth)', async () => {
  // The job search asked every zone's job list (2600 requests) even when the first few had the job.
  const started: number[] = [];
  const hit = await findLimit(Array.from({ length: 2600 }, (_, i) => i), 4, async (x) => { started.push(x); return x === 9 ? `zone ${x}` : undefined; });
  assert.equal(hit, 'zone 9');
  assert.ok(started.length <= 9 + 4, `${started.length} started`);
  assert.equal(await findLimit([1, 2, 3], 4, async () => undefined), undefined);
  assert.equal(await findLimit([], 4, async () => 1), undefined);
});
