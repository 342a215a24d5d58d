// The mock's own routes through the client's MockControl: a 404 that is the route's own answer (a batch no longer kept) is
// described in the route's words, and only a "no route" 404 says the backend lacks the route.
import { test, describe, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createMockControl } from '../../../client/src/http/mockControl';
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
