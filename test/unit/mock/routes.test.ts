// The route table is the one list of the management API's routes: the docs page is generated from it, and every route answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROUTES } from '../../../mock/src/management';
import { withRoutes } from '../../../scripts/gen-mock-routes';
import { ACCOUNTS, zoneId } from '../../../mock/src/zones';
import { KEY, TOKEN, api, start } from './helpers';

test('docs/mock-backend.md lists every route of the table (run `npm run docs:routes` to update)', () => {
  const page = fs.readFileSync(path.resolve(__dirname, '../../../docs/mock-backend.md'), 'utf8');
  assert.equal(page, withRoutes(page), 'the route index is out of date; run npm run docs:routes');
});

test('no two routes share a method and path', () => {
  const seen = ROUTES.map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(seen.filter((k, i) => seen.indexOf(k) !== i), []);
});

test('every route of the table is reached (never the 404/405 of an unknown route), and other methods get 405', async () => {
  const m = await start();
  try {
    const zone = zoneId('pro.example');
    for (const r of ROUTES) {
      const p = r.path.replace(':zone', zone).replace(':account', ACCOUNTS[0].id).replace(':job', '1').replace(':phase', 'http_request_firewall_custom').replace(/:(\w+)/g, 'x');
      const headers = r.auth === 'either' && r.path.includes('logpush') ? KEY : TOKEN;
      const reply = await api(m.apiBaseUrl, r.method, p, headers, r.method === 'GET' || r.method === 'DELETE' ? undefined : '{}');
      const codes = (reply.json.errors ?? []).map((e: { code: number }) => e.code);
      assert.ok(!codes.includes(7000) && !codes.includes(7001), `${r.method} ${r.path} is routed: ${JSON.stringify(reply.json)}`);
    }
    const other = await api(m.apiBaseUrl, 'PATCH', `/zones/${zone}/waf_migration/status`, TOKEN);
    assert.equal(other.status, 405);
    assert.equal(other.json.errors[0].code, 7001);
    const none = await api(m.apiBaseUrl, 'GET', `/zones/${zone}/no/such/route`, TOKEN);
    assert.equal(none.status, 400);
    assert.equal(none.json.errors[0].code, 7000);
  } finally {
    await m.close();
  }
});

test('bad input on every route: an envelope with a clear error (4xx), never a 5xx, a hang or a crash', async () => {
  // Rate limits off: this fuzz sends every route every bad body and query, about 1200 requests at some 240 per second, over the
  // platform's 200 per second per IP and near its 1200 per 5 minutes per user; a 429 would hide the answer under test.
  const m = await start({ rateLimit: false });
  try {
    const zone = zoneId('pro.example');
    const bodies = ['', 'null', '[]', '"text"', '42', '{"a":', '{"name": 5, "rules": {}, "destination_conf": [], "ownership_challenge": 1}', '\u0000\uffff'];
    const queries = ['', '?page=0', '?page=-1&per_page=abc', '?per_page=100000', '?direction=up&order=nothing&match=some', '?cursor=%00', '?page=99999999999999999999'];
    for (const r of ROUTES) {
      const p = r.path.replace(':zone', zone).replace(':account', ACCOUNTS[0].id).replace(/:(\w+)/g, '%E2%28%A1');
      for (const query of queries) {
        for (const body of r.method === 'GET' || r.method === 'DELETE' ? [undefined] : bodies) {
          const reply = await api(m.apiBaseUrl, r.method, p + query, TOKEN, body);
          const what = `${r.method} ${p}${query} ${JSON.stringify(body)}: ${reply.status} ${JSON.stringify(reply.json)}`;
          assert.ok(reply.status < 500, what);
          assert.equal(typeof reply.json.success, 'boolean', what);
          assert.ok(Array.isArray(reply.json.errors) && Array.isArray(reply.json.messages) && 'result' in reply.json, what);
          if (!reply.json.success) assert.ok(reply.json.errors.every((e: { code: unknown; message: unknown }) => typeof e.code === 'number' && typeof e.message === 'string' && e.message.length > 0), what);
        }
      }
    }
    // The mock still answers after all of it.
    assert.equal((await api(m.apiBaseUrl, 'GET', '/zones', KEY)).status, 200);
  } finally {
    await m.close();
  }
});
