// Issue 8: 50 concurrent migration PUTs on one zone; exactly one wins, the others are refused, the state stays consistent.
import { test } from 'node:test';
import { raceRound } from './races';

test('50 concurrent migration PUTs per transition: one winner, 49 refused with 409, consistent status and file', { timeout: 60_000 }, async () => {
  console.log(await raceRound(50));
});
