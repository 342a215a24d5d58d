// Edges of the paged list reads (client/src/http/api.ts listAll) that the mutation sample mt6 found unpinned: which copy of a zone
// listed twice is kept, the notes of every page, an empty list, and "of N" only when N is more than was listed.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createApi, LIST_PER_PAGE, type ApiResult } from '../../../client/src/http/api';
import { json, startServer, type TestServer } from './server';

let srv: TestServer;
let page: (n: number) => Record<string, unknown>;
before(async () => {
  srv = await startServer((req, res) => {
    const n = Number(new URL(req.url, 'http://x').searchParams.get('page'));
    json(res, 200, { success: true, errors: [], messages: [], ...page(n) });
  });
});
after(() => srv.close());
const api = () => createApi({ baseUrl: `${srv.url}/client/v4`, token: 'api-token-for-tests', timeoutMs: 5000 });
const zones = (from: number, n = LIST_PER_PAGE, suffix = '') =>
  Array.from({ length: n }, (_, i) => ({ id: `z${from + i}`, name: `z${from + i}${suffix}.example`, plan: { legacy_id: 'pro' } }));
function ok<T>(r: ApiResult<T>) {
  assert.equal(r.ok, true, `expected success, got ${JSON.stringify(r).slice(0, 300)}`);
  return r as Extract<ApiResult<T>, { ok: true }>;
}

test('a zone on two pages (the list changed between them) is listed once, as the first page had it', async () => {
  page = (n) => ({ result: n === 1 ? zones(0) : [...zones(49, 1, '-moved'), ...zones(50, 10)], result_info: { page: n, total_pages: 2, total_count: 110 } });
  const r = ok(await api().listZones());
  assert.equal(r.result.length, 60);
  assert.equal(r.result.find((z) => z.id === 'z49')!.name, 'z49.example');
  assert.deepEqual(r.result.map((z) => z.id).slice(48, 51), ['z48', 'z49', 'z50']);
});

test('the notes (messages) of every page are kept, not only the last page\'s', async () => {
  page = (n) => ({ result: zones((n - 1) * LIST_PER_PAGE, n === 2 ? 5 : LIST_PER_PAGE), messages: [{ code: 1000 + n, message: `note of page ${n}` }],
    result_info: { page: n, total_pages: 2, total_count: 55 } });
  const r = ok(await api().listZones());
  assert.deepEqual(r.messages.map((m) => m.message), ['note of page 1', 'note of page 2']);
});

test('an account with no zones: page 1 of 1 empty is the whole list, not a read that stopped short', async () => {
  page = () => ({ result: [], result_info: { page: 1, total_pages: 1, total_count: 0 } });
  srv.received.length = 0;
  const r = ok(await api().listZones());
  assert.deepEqual([r.result.length, r.incomplete, srv.received.length], [0, undefined, 1]);
});

test('a read stopped short with as many listed as total_count says: no "the first N of N"', async () => {
  // total_pages 3, but the 100 zones total_count says are on pages 1-2 and page 3 is empty: what is listed may still not be all.
  page = (n) => ({ result: n === 3 ? [] : zones((n - 1) * LIST_PER_PAGE), result_info: { page: n, total_pages: 3, total_count: 100 } });
  const r = ok(await api().listZones());
  assert.equal(r.result.length, 100);
  assert.equal(r.incomplete, 'Showing 100 zones, perhaps not all: page 3 of 3 (GET /zones) came back empty, so the read stopped there.');
});
