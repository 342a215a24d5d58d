// Issue 8: the real language server under ~250 random opens, edits, closes and requests over the four languages (50 000 in
// test/stress/soak.stress.ts): it never exits, answers every request, and its memory does not keep growing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedFromEnv } from '../../unit/reliability/prng';
import { assertSoakHealthy, describeCloseRace, describeSoak, runCloseRace, runSoak } from '../../unit/reliability/soak';

test('language server soak: 250 random operations, no crash, every request answered, bounded RSS', { timeout: 120_000 }, async () => {
  const f = await runSoak({ operations: 250, seed: seedFromEnv(8_0008) });
  console.log(describeSoak(f));
  assertSoakHealthy(f, 250);
  for (const k of ['open', 'close', 'edit', 'diagnostic', 'completion', 'hover']) assert.ok((f.counts[k] ?? 0) > 0, `no ${k} operation ran`);
});

test('documents closed while their requests are answered are forgotten (no parse kept per closed document)', { timeout: 60_000 }, async () => {
  const f = await runCloseRace({ rounds: 8, docKb: 100 });
  console.log(describeCloseRace(f));
  assert.equal(f.answered, 4 * (f.rounds + 3));
  assert.ok(f.openHeapMb > 0.2, `one open ${f.docKb} KB document should hold a measurable parse, not ${f.openHeapMb} MB`);
  assert.ok(f.endMb - f.baselineMb < f.openHeapMb,
    `the live heap grew by ${Math.round((f.endMb - f.baselineMb) * 10) / 10} MB over ${f.rounds} closed documents (one open document holds ${f.openHeapMb} MB): closed documents are kept`);
});
