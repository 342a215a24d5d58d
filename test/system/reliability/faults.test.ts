// Issue 8, kill -9 while state is being written (1 kill here, 50 in test/stress/faults.stress.ts): the file stays whole, the mock
// restarts on it, and no acknowledged job is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeKills, runKillCycles } from '../../unit/reliability/faults';
import { seedFromEnv } from '../../unit/reliability/prng';

test('kill -9 during a burst of Logpush job creations: the state file parses and holds every acknowledged job', { timeout: 90_000 }, async () => {
  const seed = seedFromEnv(8_0005);
  const f = await runKillCycles({ kills: 1, seed, log: (s) => console.log(s) });
  console.log(`seed ${seed}; ${describeKills(f)}`);
  assert.equal(f.kills, 1);
  assert.equal(f.lost, 0);
  assert.ok(f.acknowledged > 0, 'no job was acknowledged before the kills: the burst did not run');
});
