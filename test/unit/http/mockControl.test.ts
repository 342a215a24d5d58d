// The mock's own routes through the client's MockControl: a 404 that is the route's own answer (a batch no longer kept) is
// described in the route's words, and only a "no route" 404 says the backend lacks the route.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { TERMINATING_EVENT_ACTIONS, createMockControl } from '../../../client/src/http/mockControl';
import { catalogue } from '../../../server/src/core';
import { eventAction } from '../../../mock/src/traffic/engine';
import { isTerminating } from '../../../mock/src/traffic/waf';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createApi } from '../../../client/src/http/api';
import { startMockBackend } from '../../../mock/src/backend';
import { startServer, json } from './server';
import type { TestServer } from './server';

describe('MockControl errors', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer((req, res) => {
      if (req.url.startsWith('/__edgekit/logpush/deliveries/gone/lines')) {
        json(res, 404, { success: false, errors: [{ code: 1404, message: 'Delivery "gone" is no longer kept by the mock (it keeps the latest 200)' }], messages: [], result: null });
      } else {
        json(res, 404, { success: false, errors: [{ code: 7000, message: `No route for "${req.url}".` }], messages: [], result: null });
      }
    });
  });
  after(() => server.close());

  test('a 404 of the route itself names what is missing', async () => {
    const mock = createMockControl({ url: server.url, token: 't', timeoutMs: 2000 });
    const r = await mock.deliveryLines('gone');
    assert.equal(r.ok, false);
    assert.match((r as { error: string }).error, /read the lines of delivery "gone".*no longer kept/);
    assert.doesNotMatch((r as { error: string }).error, /up-to-date/);
  });

  test('a "no route" 404 says the backend lacks the route', async () => {
    const mock = createMockControl({ url: server.url, token: 't', timeoutMs: 2000 });
    const r = await mock.deliveries();
    assert.equal(r.ok, false);
    assert.match((r as { error: string }).error, /has no GET \/__edgekit\/logpush\/deliveries \(is it an up-to-date EdgeKit mock\?\)/);
  });
});

describe('MockControl against the embedded mock', () => {
  test('traffic, deliver now, the delivery list and a delivered batch\'s lines as text', async () => {
    const m = await startMockBackend({ port: 0, traffic: { paused: true }, delivery: { dir: fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-mc-')) } });
    try {
      const api = createApi({ baseUrl: m.apiBaseUrl, token: m.credentials.apiToken, timeoutMs: 5000 });
      const zones = await api.listZones();
      assert.ok(zones.ok);
      const zone = zones.result[0].id;
      const job = await api.createLogpushJob(zone, { name: 'mc', dataset: 'http_requests', enabled: true, destination_conf: 's3://bucket/logs?region=us-east-1', output_options: { field_names: ['RayID', 'ClientRequestHost'] } });
      assert.ok(job.ok, JSON.stringify(job));
      const id = (job.result as { id: number }).id;
      const mc = createMockControl({ url: m.url, token: m.credentials.apiToken, timeoutMs: 5000 });
      const sent = await mc.step(40, zone);
      assert.deepEqual(sent.ok && sent.result.requests, 40);
      const flushed = await mc.flush(id);
      assert.deepEqual(flushed.ok && flushed.result, { delivered: 1, failed: 0 });
      const list = await mc.deliveries(id);
      assert.ok(list.ok && list.result.length === 1, JSON.stringify(list));
      const lines = await mc.deliveryLines(list.result[0].id);
      assert.ok(lines.ok, JSON.stringify(lines).slice(0, 300));
      const records = lines.result.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.equal(records.length, 40);
      assert.deepEqual(Object.keys(records[0]).sort(), ['ClientRequestHost', 'RayID']);
    } finally {
      await m.close();
    }
  });
});

test('the Security Events view\'s terminating actions agree with the rules language\'s and the mock\'s, in each spelling', () => {
  const camel = (a: string) => a.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
  for (const a of [...catalogue.rulesets.terminating, 'jschallenge', 'managedchallenge']) {
    assert.ok(isTerminating(a), a);
    for (const spelling of [a, eventAction(a), camel(a)]) assert.ok(TERMINATING_EVENT_ACTIONS.has(spelling), `${spelling} (${a}) is terminating`);
  }
  // firewall_events spells closing the connection connectionclose (logs/reference; the camel case is the analytics').
  assert.ok(TERMINATING_EVENT_ACTIONS.has('connectionclose'));
  for (const a of ['log', 'skip', 'execute', 'allow', 'bypass', 'pass', 'challengesolved', 'managedchallengebypassed', 'score']) {
    assert.ok(!TERMINATING_EVENT_ACTIONS.has(a), `${a} is not terminating`);
    if (catalogue.rulesets.terminating.has(a)) assert.fail(`${a} is in the catalogue's terminating actions`);
  }
});
