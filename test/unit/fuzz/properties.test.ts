// Property-based and mutation fuzzing of validateText, completion, hover and lenses over the four kinds (fast version: a fixed
// seed and a few hundred runs per property; test/stress/fuzz.stress.ts runs the same properties for much longer).
import { after, test } from 'node:test';
import fc from 'fast-check';
import { properties, runSettings, STATS } from './harness';

const { numRuns, seed } = runSettings(60, 20260518); // 5000 per property in test/stress/fuzz.stress.ts

for (const p of properties()) {
  test(`fuzz: ${p.name}`, () => {
    fc.assert(p.property, { numRuns, seed, endOnFailure: true, includeErrorInReport: true });
  });
}

after(() => {
  const total = Object.values(STATS).reduce((a, b) => a + b, 0);
  console.log(`# fuzz (seed ${seed}, ${numRuns} runs per property): ${total} documents checked, ${JSON.stringify(STATS)}`);
});
