// Long version of test/system/reliability/load.test.ts (npm run stress): 100 connections for 10 s, then 200 connections for 10 s.
import { test } from 'node:test';
import { assertLoad, describeLoad, runLoad } from '../unit/reliability/load';

for (const connections of [100, 200]) {
  test(`${connections} connections of mixed gateway and API requests for 10 s: all 2xx, no errors`, { timeout: 120_000 }, async () => {
    const f = await runLoad({ connections, durationS: 10 });
    console.log(describeLoad(f));
    console.log(`per kind: ${JSON.stringify(f.perKind)}`);
    assertLoad(f);
  });
}
