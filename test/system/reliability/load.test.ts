// Issue 8, load: at least 100 connections from this process on the mock in a child process for 0.5 s (10 s in
// test/stress/load.stress.ts): no error, no timeout, no 5xx, every response 2xx with a success body.
import { test } from 'node:test';
import { assertLoad, describeLoad, runLoad } from '../../unit/reliability/load';

test('100 connections of mixed gateway and API requests for 0.5 s: all 2xx, no errors', { timeout: 60_000 }, async () => {
  const f = await runLoad({ connections: 100, durationS: 0.5 });
  console.log(describeLoad(f));
  console.log(`per kind: ${JSON.stringify(f.perKind)}`);
  assertLoad(f);
});
