// Issue 8: oversized bodies, slow clients, malformed HTTP, invalid JSON and mid-body hang-ups are refused without harming a
// well-behaved client checked in parallel (small timeouts here; the defaults in test/stress/faults.stress.ts).
import { test } from 'node:test';
import { assertBadClients, describeBadClients, runBadClients } from './badClients';

test('bad clients are refused while a good client keeps getting correct answers', { timeout: 60_000 }, async () => {
  const f = await runBadClients({ copies: 3, headersTimeoutMs: 500, requestTimeoutMs: 1_000 });
  console.log(describeBadClients(f));
  assertBadClients(f, 3);
});
