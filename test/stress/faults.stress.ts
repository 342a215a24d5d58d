// Long versions of test/unit/reliability/{faults,races,badClients}.test.ts (npm run stress): 50 kill -9s during state writes,
// 20 rounds of 50-way migration races plus one 200-way round, and bad clients against the default timeouts (10 s / 30 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertBadClients, describeBadClients, runBadClients } from '../unit/reliability/badClients';
import { describeKills, runKillCycles } from '../unit/reliability/faults';
import { seedFromEnv } from '../unit/reliability/prng';
import { raceRound } from '../unit/reliability/races';

test('kill -9 during a burst of Logpush job creations, 50 times: no acknowledged job lost, the file always parses', { timeout: 600_000 }, async () => {
  const seed = seedFromEnv(8_0050);
  const f = await runKillCycles({ kills: 50, seed });
  console.log(`seed ${seed}; ${describeKills(f)}`);
  assert.equal(f.kills, 50);
  assert.equal(f.lost, 0);
  assert.ok(f.acknowledged > 0);
});

test('migration races: 20 rounds of 50 concurrent PUTs per transition, then one round of 200', { timeout: 300_000 }, async () => {
  for (let i = 0; i < 20; i++) await raceRound(50);
  console.log(await raceRound(200));
});

test('bad clients against the default timeouts: 10 copies of each, a good client in parallel', { timeout: 120_000 }, async () => {
  const f = await runBadClients({ copies: 10 });
  console.log(describeBadClients(f));
  assertBadClients(f, 10);
  assert.ok(Math.max(...f.slowDroppedAfterMs) < 16_000, `slow clients held a connection for ${Math.max(...f.slowDroppedAfterMs)} ms`);
});
