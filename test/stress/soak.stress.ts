// Long version of test/system/reliability/soak.test.ts (npm run stress): 50 000 random LSP operations on the bundled server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedFromEnv } from '../unit/reliability/prng';
import { assertSoakHealthy, describeCloseRace, describeSoak, runCloseRace, runSoak } from '../unit/reliability/soak';

test('language server soak: 50 000 random operations, no crash, every request answered, bounded RSS', { timeout: 600_000 }, async () => {
  const f = await runSoak({ operations: 50_000, seed: seedFromEnv(8_5000), log: (s) => console.log(s) });
  console.log(describeSoak(f));
  assertSoakHealthy(f, 50_000);
  // Over a long run the 25 % mark is past warm-up: the end must not be far above it either.
  assert.ok(f.rssMb.end < f.rssMb.at25 * 1.5, `RSS grew from ${f.rssMb.at25} MB at 25 % to ${f.rssMb.end} MB at the end`);
});

test('200 large documents closed while their requests are answered: none is kept', { timeout: 300_000 }, async () => {
  const f = await runCloseRace({ rounds: 200, docKb: 100 });
  console.log(describeCloseRace(f));
  assert.equal(f.answered, 4 * (f.rounds + 3));
  assert.ok(f.endMb - f.baselineMb < f.openHeapMb, `the live heap grew by ${f.endMb - f.baselineMb} MB over ${f.rounds} closed documents`);
});
