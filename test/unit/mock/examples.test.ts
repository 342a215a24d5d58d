// The gateway examples that `npm start` opens (examples/*.rpc.json) sent to the embedded mock as they are: each answers without an
// error, and the ones that ask for chain data (logs, traces) find some. A newcomer's first "Send request" should show what the
// gateway returns, not an empty array because the example names blocks or a contract the mock's chain does not have.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import type { MockBackend } from '../../../mock/src/backend';
import { post, start } from './helpers';
import type { Json } from './helpers';

const DIR = join(__dirname, '../../../examples');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.rpc.json'));

let mock: MockBackend;
before(async () => { mock = await start(); });
after(() => mock.close());

test('there are gateway examples to send', () => assert.ok(FILES.length >= 3, FILES.join(', ')));

for (const file of FILES) {
  test(`${file}: the mock answers every request, and chain queries find data`, async () => {
    const body = parse(readFileSync(join(DIR, file), 'utf8'));
    const { status, json } = await post(mock.gatewayUrl, body);
    assert.equal(status, 200);
    const requests: Json[] = Array.isArray(body) ? body : [body];
    const replies: Json[] = Array.isArray(json) ? json : [json];
    for (const req of requests) {
      const reply = replies.find((r) => r.id === req.id);
      assert.ok(reply, `${req.method}: no reply`);
      assert.equal(reply.error, undefined, `${req.method}: ${JSON.stringify(reply.error)}`);
      // The first example a newcomer sends (README, the walkthrough): a balance of 0 ("0x0") says nothing of what comes back.
      if (req.method === 'eth_getBalance') assert.notEqual(reply.result, '0x0', `${file}: the example address has no balance on the mock`);
      if (req.method === 'eth_getLogs' || req.method === 'trace_filter') {
        assert.ok(Array.isArray(reply.result) && reply.result.length > 0, `${req.method} found nothing: ${JSON.stringify(reply.result)}`);
      }
    }
  });
}
