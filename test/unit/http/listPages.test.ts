// Lists read whole, page by page (client/src/http/api.ts listAll): a large account (2600 zones, 120 accounts) paged as the mock and
// the platform page them, and servers whose pages never end the read, which stop at a bound or a broken page and say so.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createApi, incompleteOf, LIST_PER_PAGE, MAX_LIST_PAGES, type ApiResult } from '../../../client/src/http/api';
import { json, startServer, type TestServer } from './server';
import { accountName, startLargeAccount, zoneName, type LargeAccount } from './largeAccount';

const TOKEN = 'api-token-for-tests';

function ok<T>(r: ApiResult<T>) {
  assert.equal(r.ok, true, `expected success, got ${JSON.stringify(r).slice(0, 300)}`);
  return r as Extract<ApiResult<T>, { ok: true }>;
}

describe('a large account', () => {
  let big: LargeAccount;
  before(async () => { big = await startLargeAccount(2600, 120); });
  after(() => big.close());

  test('2600 zones and 120 accounts are listed whole, each once, one request a page of 50', async () => {
    // listZones stopped after 20 pages (1000 zones) and returned them as if complete; listAccounts read page 1 (50 accounts) only.
    const api = createApi({ baseUrl: big.apiBaseUrl, token: TOKEN, timeoutMs: 5000 });
    big.received.length = 0;
    const progress: [number, number | undefined][] = [];
    const zones = ok(await api.listZones({ onPage: (n, total) => progress.push([n, total]) }));
    assert.equal(zones.result.length, 2600);
    assert.equal(new Set(zones.result.map((z) => z.id)).size, 2600);
    assert.equal(zones.result.at(-1)!.name, zoneName(2599));
    assert.equal(zones.incomplete, undefined);
    assert.equal(big.count(/^\/zones$/), 2600 / LIST_PER_PAGE);
    assert.deepEqual(progress.slice(0, 2), [[50, 2600], [100, 2600]]);
    assert.deepEqual(progress.at(-1), [2600, 2600]);
    const accounts = ok(await api.listAccounts());
    assert.equal(accounts.result.length, 120);
    assert.equal(accounts.result.at(-1)!.name, accountName(119));
    assert.equal(accounts.incomplete, undefined);
    assert.equal(big.count(/^\/accounts$/), 3);
  });

  test('a read cancelled between pages sends no further page and fails as cancelled', async () => {
    const api = createApi({ baseUrl: big.apiBaseUrl, token: TOKEN, timeoutMs: 5000 });
    big.received.length = 0;
    const stop = new AbortController();
    const r = await api.listZones({ signal: stop.signal, onPage: (n) => { if (n >= 100) stop.abort(); } });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.kind, 'aborted');
    assert.equal(big.count(/^\/zones$/), 2);
  });
});

describe('a server whose pages do not end the read', () => {
  let srv: TestServer;
  let page: (n: number) => { result: unknown[]; result_info?: Record<string, unknown> };
  before(async () => {
    srv = await startServer((req, res) => {
      const n = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      json(res, 200, { success: true, errors: [], messages: [], ...page(n) });
    });
  });
  after(() => srv.close());
  const api = () => createApi({ baseUrl: `${srv.url}/client/v4`, token: TOKEN, timeoutMs: 5000 });
  const zones = (from: number, n = LIST_PER_PAGE) => Array.from({ length: n }, (_, i) => ({ id: `z${from + i}`, name: `z${from + i}.example`, plan: { legacy_id: 'pro' } }));

  test('total_pages that grows with every page: the read stops at the bound and says so', async () => {
    page = (n) => ({ result: zones((n - 1) * LIST_PER_PAGE), result_info: { page: n, total_pages: n + 1, total_count: (n + 1) * LIST_PER_PAGE } });
    srv.received.length = 0;
    const r = ok(await api().listZones());
    const shown = MAX_LIST_PAGES * LIST_PER_PAGE;
    assert.equal(srv.received.length, MAX_LIST_PAGES);
    assert.equal(r.result.length, shown);
    assert.equal(r.incomplete, `Showing the first ${shown} of ${shown + LIST_PER_PAGE} zones: EdgeKit reads at most ${MAX_LIST_PAGES} pages of ${LIST_PER_PAGE} (the API allows 1200 requests per 5 minutes), so the read stopped there.`);
  });

  test('the same page again (a server that ignores page): the read stops at the second and says so', async () => {
    page = () => ({ result: zones(0), result_info: { page: 1, total_pages: 3, total_count: 150 } });
    srv.received.length = 0;
    const r = ok(await api().listZones());
    assert.equal(srv.received.length, 2);
    assert.equal(r.result.length, LIST_PER_PAGE);
    assert.equal(r.incomplete, 'Showing the first 50 of 150 zones: page 2 (GET /zones) held only zones already listed (the server answered the same page again), so the read stopped there.');
  });

  test('no result_info and full pages past the end: read until a page brings nothing new, and say so', async () => {
    // Without total_pages the read goes on while pages are full (the SDK's iterators go on until one is empty).
    page = (n) => ({ result: zones(Math.min(n, 2) * LIST_PER_PAGE) });
    srv.received.length = 0;
    const r = ok(await api().listAccounts());
    assert.equal(srv.received.length, 3);
    assert.equal(r.result.length, 100);
    assert.match(r.incomplete ?? '', /^Showing 100 accounts, perhaps not all: page 3 \(GET \/accounts\) held only accounts already listed/);
    // A last page shorter than asked ends it, complete.
    page = (n) => ({ result: zones((n - 1) * LIST_PER_PAGE, n === 2 ? 7 : LIST_PER_PAGE) });
    const whole = ok(await api().listAccounts());
    assert.equal(whole.result.length, 57);
    assert.equal(whole.incomplete, undefined);
    // As does an empty page after full ones: the list's end, as the SDK reads it.
    page = (n) => ({ result: n === 1 ? zones(0) : [] });
    srv.received.length = 0;
    const ended = ok(await api().listAccounts());
    assert.deepEqual([ended.result.length, ended.incomplete, srv.received.length], [50, undefined, 2]);
  });

  test('result_info on page 1 only: a short page 2 does not end the read before the total_pages said', async () => {
    // Page 2 without result_info and shorter than asked ended the read, "whole", with 70 of the 150 zones page 1 said.
    page = (n) => (n === 1 ? { result: zones(0), result_info: { page: 1, total_pages: 3, total_count: 150 } } : { result: n === 2 ? zones(50, 20) : [] });
    const r = ok(await api().listZones());
    assert.equal(r.result.length, 70);
    assert.equal(r.incomplete, 'Showing the first 70 of 150 zones: page 3 of 3 (GET /zones) came back empty, so the read stopped there.');
    // Full pages without it read on to the total_pages said, and end there.
    page = (n) => (n === 1 ? { result: zones(0), result_info: { page: 1, total_pages: 2, total_count: 100 } } : { result: zones((n - 1) * 50) });
    srv.received.length = 0;
    const whole = ok(await api().listZones());
    assert.deepEqual([whole.result.length, whole.incomplete, srv.received.length], [100, undefined, 2]);
  });

  test('an empty page before total_pages: what was read, said as not all', async () => {
    page = (n) => ({ result: n === 1 ? zones(0) : [], result_info: { page: n, total_pages: 4, total_count: 180 } });
    const r = ok(await api().listZones());
    assert.equal(r.result.length, 50);
    assert.equal(r.incomplete, 'Showing the first 50 of 180 zones: page 2 of 4 (GET /zones) came back empty, so the read stopped there.');
  });
});

test('a page of security events says of how many (result_info.total_count): the view shows the newest page only', async () => {
  const srv = await startServer((_req, res) => json(res, 200, { success: true, errors: [], messages: [], result: [{ RayID: 'r1' }, { RayID: 'r2' }], result_info: { page: 1, per_page: 2, count: 2, total_count: 9000, total_pages: 4500 } }));
  try {
    const r = ok(await createApi({ baseUrl: `${srv.url}/client/v4`, token: TOKEN, timeoutMs: 5000 }).securityEvents('z1', { per_page: 2 }));
    assert.equal(r.result.length, 2);
    assert.equal(r.total, 9000);
  } finally {
    await srv.close();
  }
});

test('a 403 on page 3 names no missing permission (pages 1-2 were read with the same credentials) and says which page failed (rv45)', async () => {
  // It said "The API token needs the permission "Zone Read" for this." after the token had read 100 zones, and not which page failed.
  const server = await startServer((req, res) => {
    const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'));
    if (page >= 3) return json(res, 403, { success: false, errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }], messages: [], result: null });
    const result = Array.from({ length: LIST_PER_PAGE }, (_, i) => ({ id: `z${page}-${i}`, name: `z${page}-${i}.example`, status: 'active', plan: { legacy_id: 'free', name: 'Free' } }));
    json(res, 200, { success: true, errors: [], messages: [], result, result_info: { page, per_page: LIST_PER_PAGE, total_pages: 4, total_count: 200 } });
  });
  try {
    const r = await createApi({ baseUrl: server.url, token: TOKEN, timeoutMs: 5000 }).listZones();
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.status, 403);
    assert.doesNotMatch(r.error, /needs the permission|lacks permission/);
    assert.ok(r.error.endsWith('This was page 3 of 4; the same credentials read pages 1-2 (100 zones).'), r.error);
  } finally {
    await server.close();
  }
});

test('incompleteOf joins the cuts of the lists that were read, skipping the whole and the failed ones', () => {
  const whole: ApiResult<unknown[]> = { ok: true, status: 200, result: [], messages: [], ms: 0, curl: '' };
  const cut = (incomplete: string): ApiResult<unknown[]> => ({ ...whole, incomplete });
  const failed: ApiResult<unknown[]> = { ok: false, kind: 'http', status: 500, error: 'e', errors: [], ms: 0, curl: '' };
  assert.equal(incompleteOf(whole, failed), undefined);
  assert.equal(incompleteOf(cut('Zones cut.'), failed, whole, cut('Accounts cut.')), 'Zones cut. Accounts cut.');
});
