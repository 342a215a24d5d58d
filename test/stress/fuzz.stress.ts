// The long fuzz run: the properties of test/unit/fuzz with many thousands of runs each and a fresh seed (printed, so that a failure
// can be replayed with FUZZ_SEED=<seed>), plus the inputs too slow for the fast suite.
//   node --import tsx --test test/stress/*.stress.ts          (FUZZ_RUNS=<n> per property, default 5000; FUZZ_SEED=<n> to replay)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateText } from '../../server/src/core/validate';
import { MAX_NESTING } from '../../server/src/core/parse';
import { DOC_KINDS } from '../../server/src/core/types';
import { checkAll, properties, runSettings, STATS } from '../unit/fuzz/harness';

const { numRuns, seed } = runSettings(5000, undefined);
console.log(`# fuzz stress: seed ${seed}, ${numRuns} runs per property (replay with FUZZ_SEED=${seed})`);

properties().forEach((p, i) => {
  test(`stress fuzz: ${p.name}`, { timeout: 30 * 60_000 }, () => {
    // One seed per property, derived from the printed one, so that each can be replayed on its own.
    fc.assert(p.property, { numRuns, seed: seed + i, includeErrorInReport: true });
  });
});

test('stress: random nesting depths around the limit, brackets and objects, closed or not', () => {
  fc.assert(fc.property(
    fc.integer({ min: MAX_NESTING - 8, max: MAX_NESTING + 8 }), fc.constantFrom('[', '{"a":', '[{"b":'), fc.boolean(), fc.constantFrom(...DOC_KINDS),
    (depth, open, closed, kind) => {
      const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
      const levels = open === '[{"b":' ? Math.ceil(depth / 2) : depth;
      const text = open.repeat(levels) + '1' + (closed ? close.repeat(levels) : '');
      checkAll(text, kind, [0, text.length >> 1, text.length]);
    },
  ), { numRuns: Math.max(200, numRuns / 10), seed });
});

test('stress: a 50 MB batch with maxFileSizeKB raised completes with capped problems', { timeout: 10 * 60_000 }, () => {
  const item = '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0x1"],"id":1},';
  const text = '[' + item.repeat(Math.ceil((50 * 1024 * 1024) / item.length)).slice(0, -1) + ']';
  let polls = 0;
  const problems = validateText(text, 'jsonrpc-request', { maxFileSizeKB: 60_000, isCancelled: () => { polls++; return false; } });
  assert.ok(polls >= 2);
  assert.equal(problems.length, 1001);
  assert.equal(problems[1000].code, 'limits/too-many-problems');
  assert.ok(!problems.some((p) => /Internal error/.test(p.message)));
});

test('stress: a 50 MB single string and a 50 MB key with the limit raised', { timeout: 10 * 60_000 }, () => {
  const big = 'x'.repeat(50 * 1024 * 1024);
  for (const kind of DOC_KINDS) {
    for (const text of [`{"where":{"key":"ClientIP","operator":"eq","value":"${big}"}}`, `{"${big}":1}`]) {
      const problems = validateText(text, kind, { maxFileSizeKB: 60_000 });
      for (const p of problems) assert.ok(p.message.length <= 1000);
    }
  }
});

after(() => {
  const total = Object.values(STATS).reduce((a, b) => a + b, 0);
  console.log(`# fuzz stress (seed ${seed}): ${total} documents checked, ${JSON.stringify(STATS)}`);
});
