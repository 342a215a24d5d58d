// Issue 8: oversized bodies, slow clients, malformed HTTP, invalid JSON and mid-body hang-ups are refused without harming a
// well-behaved client checked in parallel (small timeouts here; the defaults in test/stress/faults.stress.ts).
import { test } from 'node:test';
import { assertBadClients, describeBadClients, runBadClients } from './badClients';

test('bad clients are refused while a good client keeps getting correct answers', { timeout: 60_000 }, async () => {
  // requestTimeoutMs bounds a whole request: 1 s made the good client's own requests time out (408, an empty body) on a loaded machine
  const f = await runBadClients({ copies: 3, headersTimeoutMs: 500, requestTimeoutMs: 3_000 });
  console.log(describeBadClients(f));
  assertBadClients(f, 3);
});
