// A large Cloudflare account in the client (client/src/commands/api.ts picks, client/src/views/zones.ts) with the stand-in `vscode`
// module: 2600 zones and 120 accounts read whole into the picks and the Zones view, the requests a refresh of the view sends, and a
// list cut short (the page bound, a broken server) said in the pick's placeholder and the view's message.
import { fake, resetFake } from './vscode';
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationError } from 'vscode';
import { apiFor, pickAccount, pickZone, pickZoneOrAccount, zoneHints } from '../../../client/src/commands/api';
import { UserError } from '../../../client/src/commands/run';
import { AccountItem, ZONE_STATES_READ, ZoneItem, ZonesView } from '../../../client/src/views/zones';
import { migrationCommands } from '../../../client/src/commands/migration';
import type { Ctx } from '../../../client/src/ctx';
import { createApi, LIST_PER_PAGE, type Api, type ApiResult, type ListOptions, type Zone } from '../../../client/src/http/api';
import { accountName, startLargeAccount, zoneName, type LargeAccount } from '../http/largeAccount';

let big: LargeAccount;
before(async () => { big = await startLargeAccount(2600, 120); });
after(() => big.close());
beforeEach(() => { resetFake(); big.received.length = 0; });

const ZONES = 2600;
const ACCOUNTS = 120;
const apiOf = () => createApi({ baseUrl: big.apiBaseUrl, token: 'api-token-for-tests', timeoutMs: 5000 });
const cut = 'Showing the first 50 of 150 zones: page 2 (GET /zones) held only zones already listed (the server answered the same page again), so the read stopped there.';
const zone = (i: number): Zone => ({ id: `z${i}`, name: zoneName(i), plan: { legacy_id: 'pro' } });
/** An API whose zone list was cut short (`cut`), its accounts whole. */
const cutApi = () => ({
  baseUrl: big.apiBaseUrl, source: big.apiBaseUrl,
  listZones: async () => ({ ok: true, status: 200, result: [zone(0), zone(1)], messages: [], ms: 1, curl: '', incomplete: cut }),
  listAccounts: async () => ({ ok: true, status: 200, result: [{ id: 'a0', name: accountName(0) }], messages: [], ms: 1, curl: '' }),
  zone: async (id: string) => ({ ok: false, kind: 'http', status: 404, error: `No zone ${id}.`, errors: [], ms: 1, curl: '' }),
  status: async () => ({ ok: true, status: 200, result: { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false }, messages: [], ms: 1, curl: '' }),
  logpushJobs: async () => ({ ok: true, status: 200, result: [], messages: [], ms: 1, curl: '' }),
}) as unknown as Api;

test('the zone and account picks offer all 2600 zones and 120 accounts, counting the pages read while busy', async () => {
  // The pick showed the first 1000 zones (listZones stopped at 20 pages) and the first 50 accounts (page 1 only), as if all.
  const api = apiOf();
  const placeholders: (string | undefined)[] = [];
  // The busy pick's placeholder as each page arrives (read after the pick's own onPage).
  const watched = { ...api, listZones: (o?: ListOptions) => api.listZones({ ...o, onPage: (n, t) => { o?.onPage?.(n, t); placeholders.push(fake.quickPicks.at(-1)?.placeHolder); } }) } as Api;
  fake.quickPickAnswers = [zoneName(2599)];
  assert.equal((await pickZone(watched, undefined, 'Migrate which zone?')).id, 'z2599');
  const shown = fake.quickPicks.at(-1)!;
  assert.equal(shown.labels.length, ZONES);
  assert.equal(shown.placeHolder, 'Pick a zone');
  assert.equal(placeholders.length, ZONES / LIST_PER_PAGE);
  assert.equal(placeholders[0], `Reading the zones of ${big.apiBaseUrl}… 50 of 2600 zones`);
  assert.equal(placeholders.at(-1), `Reading the zones of ${big.apiBaseUrl}… 2600 of 2600 zones`);
  fake.quickPickAnswers = [accountName(119)];
  assert.equal((await pickAccount(api, undefined, 't')).id, 'a119');
  assert.equal(fake.quickPicks.at(-1)!.labels.length, ACCOUNTS);
  fake.quickPickAnswers = [accountName(100)];
  assert.deepEqual(await pickZoneOrAccount(api, undefined, 't'), { owner: { account: 'a100' }, ownerName: accountName(100) });
  assert.equal(fake.quickPicks.at(-1)!.labels.length, ZONES + ACCOUNTS);
  // A zone or account named past the old cuts is found by name.
  assert.equal((await pickZone(api, zoneName(2001), 't')).id, 'z2001');
  assert.equal((await pickAccount(api, accountName(77), 't')).id, 'a77');
});

test('Escape while the zones are read ends the read: no further page is asked for', async () => {
  const api = apiOf();
  let read: Promise<ApiResult<Zone[]>> | undefined;
  const watched = { ...api, listZones: (o?: ListOptions) => (read = api.listZones(o)) } as Api;
  fake.quickPickAnswers = [undefined];
  await assert.rejects(pickZone(watched, undefined, 't'), CancellationError);
  const r = await read!;
  assert.equal(r.ok ? 'read whole' : r.kind, 'aborted');
  assert.ok(big.count(/^\/zones$/) <= 1, `${big.count(/^\/zones$/)} pages asked for`);
});

test('a zone named by its id (a view item\'s inline Check) is read by id: one request, not every page of the list', async () => {
  // pickZone read the whole list to find it: 52 pages of 2600 zones, up to MAX_LIST_PAGES on each click. A server of its own (the
  // request the Escape test cancelled may reach the shared one late).
  const big = await startLargeAccount(ZONES, 1);
  after(() => big.close());
  const api = createApi({ baseUrl: big.apiBaseUrl, token: 'api-token-for-tests', timeoutMs: 5000 });
  assert.equal((await pickZone(api, { zone: zone(2500) }, 't')).name, zoneName(2500));
  const paths = () => big.received.map((r) => new URL(r.url, 'http://x').pathname.replace(/^\/client\/v4/, ''));
  assert.deepEqual(paths(), ['/zones/z2500']);
  // The zone-or-account pick (a job of firewall_events created from a zone's item) read both lists whole.
  big.received.length = 0;
  assert.deepEqual(await pickZoneOrAccount(api, { zone: zone(2400) }, 't'), { owner: { zone: 'z2400' }, ownerName: zoneName(2400) });
  assert.deepEqual(paths(), ['/zones/z2400']);
  // A name (or an id not there) still finds it, or says it is not there, from the list.
  assert.equal((await pickZone(api, zoneName(2001), 't')).id, 'z2001');
  await assert.rejects(pickZone(api, 'z9999', 't'), (e: Error) => e instanceof UserError && e.message === `No zone "z9999" at ${big.apiBaseUrl}.`);
});

test('a zone list cut short is said in the pick\'s placeholder, and in what a zone named and not found says', async () => {
  fake.quickPickAnswers = [zoneName(1)];
  await pickZone(cutApi(), undefined, 't');
  assert.equal(fake.quickPicks.at(-1)!.placeHolder, `Pick a zone. ${cut}`);
  fake.quickPickAnswers = [accountName(0)];
  await pickZoneOrAccount(cutApi(), undefined, 't');
  assert.equal(fake.quickPicks.at(-1)!.placeHolder, `Pick a zone or an account. ${cut}`);
  await assert.rejects(pickZone(cutApi(), 'zone77.example', 't'), (e: Error) => e instanceof UserError && e.message === `No zone "zone77.example" at ${big.apiBaseUrl}. ${cut}`);
});

test('a refresh of the Zones view of 2600 zones sends the pages and the first 100 states, not one request per zone', async () => {
  // Each refresh asked every zone's status: 2600 requests (4 at a time), over the API's 1200 per 5 minutes. A server of its own:
  // the request the Escape test cancelled may reach the shared one late.
  const big = await startLargeAccount(ZONES, ACCOUNTS);
  after(() => big.close());
  const apiOf = () => createApi({ baseUrl: big.apiBaseUrl, token: 'api-token-for-tests', timeoutMs: 5000 });
  const messages: (string | undefined)[] = [];
  const view = new ZonesView(async () => apiOf());
  view.view = { set message(v: string | undefined) { messages.push(v); } } as never;
  const roots = await view.getChildren();
  assert.equal(roots.length, ZONES + ACCOUNTS);
  assert.equal(big.count(/^\/zones$/), ZONES / LIST_PER_PAGE);
  assert.equal(big.count(/^\/accounts$/), 3);
  assert.equal(big.count(/\/waf_migration\/status$/), ZONE_STATES_READ);
  assert.equal(big.received.length, ZONES / LIST_PER_PAGE + 3 + ZONE_STATES_READ);
  // The view said how far the read was while it read, and nothing once it had all.
  assert.equal(messages[0], `Reading the zones of ${big.apiBaseUrl}: 50 of 2600…`);
  assert.ok(messages.includes(`Reading the accounts of ${big.apiBaseUrl}: 120 of 120…`));
  assert.equal(messages.at(-1), undefined);
  const first = roots[0] as ZoneItem;
  assert.equal(first.description, 'enterprise · migrated');
  const past = roots[ZONE_STATES_READ + 1] as ZoneItem;
  assert.equal(past.description, 'pro · expand to read its state');
  // The picks take no state for a zone the view did not read.
  assert.equal(zoneHints({ zones: view } as never).stateOf!(past.zone.id), undefined);
  // Expanded, it reads its state (one request) and shows it.
  big.received.length = 0;
  const changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  assert.deepEqual((await view.getChildren(past)).map((j) => j.label), ['no Logpush jobs']);
  assert.equal(await changed, past);
  assert.equal(past.description, 'pro · migration not started');
  assert.equal(past.contextValue, 'zone.start');
  assert.equal(big.count(/\/waf_migration\/status$/), 1);
  assert.equal(zoneHints({ zones: view } as never).stateOf!(past.zone.id), 'migration not started');
  // The change redraws it, asking its children again: no second status request, and its jobs not read again (they were: two
  // GET …/logpush/jobs for one expand). One expand sends two requests.
  assert.deepEqual((await view.getChildren(past)).map((j) => j.label), ['no Logpush jobs']);
  assert.equal(big.count(/\/waf_migration\/status$/), 1);
  assert.equal(big.count(/\/logpush\/jobs$/), 1);
  assert.equal(big.received.length, 2);
  // Expanded again later (collapsed and reopened): its jobs are read again, its state not.
  await view.getChildren(past);
  assert.equal(big.count(/\/logpush\/jobs$/), 2);
  assert.equal(big.count(/\/waf_migration\/status$/), 1);
});

// rv46: lf22 kept the jobs an unread zone's expand read for "the one redraw that follows"; a job created (or deleted) in that zone
// before the tree asked again was then not shown: its command's refresh of the zone redraws it, and VS Code merges the redraws that
// come within 200 ms (extHostTreeViews debounces onDidChangeTreeData) into one read of its children, which took the kept jobs.
test('a zone refreshed after a command acted on it reads its jobs again, though its expand\'s jobs were kept for the redraw', async () => {
  const jobs: Record<string, unknown>[] = [];
  const api = apiOf();
  const watched = { ...api, logpushJobs: async () => ({ ok: true, status: 200, result: [...jobs], messages: [], ms: 1, curl: '' }) } as unknown as Api;
  const view = new ZonesView(async () => watched);
  const past = (await view.getChildren())[ZONE_STATES_READ + 1] as ZoneItem;
  assert.equal(past.unread, true);
  let changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  assert.deepEqual((await view.getChildren(past)).map((j) => j.label), ['no Logpush jobs']);
  assert.equal(await changed, past, 'its state read redraws it');
  // Before the tree asks its children again, a job is created in it: the command refreshes the zone.
  jobs.push({ id: 7, name: 'errors-to-r2', dataset: 'http_requests', enabled: true, destination_conf: 'r2://logs' });
  changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  view.refresh({ owner: { zone: past.zone.id }, source: watched.source });
  assert.equal(await changed, past);
  // The one read of its children the two redraws make.
  assert.deepEqual((await view.getChildren(past)).map((j) => j.label), ['errors-to-r2']);
});

test('a command that acted on one zone or account reads that item again, not the whole Zones view', async () => {
  // Check, and a job created, updated, enabled or deleted, refreshed the whole view: 52 + 3 pages and 100 states for 2600 zones,
  // so eight such commands in five minutes went over the API's 1200 requests.
  const big = await startLargeAccount(ZONES, ACCOUNTS);
  after(() => big.close());
  const ctx = { backend: { endpoints: async () => ({ embedded: false, gatewayUrl: '', apiBaseUrl: big.apiBaseUrl, apiToken: 'api-token-for-tests' }) } } as unknown as Ctx;
  const view = new ZonesView(() => apiFor(ctx));
  (ctx as { zones: ZonesView }).zones = view;
  const roots = await view.getChildren();
  const [z5, account] = [roots[5] as ZoneItem, roots[ZONES + 7] as AccountItem];
  big.received.length = 0;
  let changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  await migrationCommands['edgekit.migration.check'](ctx)({ zone: z5.zone });
  assert.equal(await changed, z5);
  assert.deepEqual(big.received.map((r) => new URL(r.url, 'http://x').pathname.replace(/^\/client\/v4/, '')), ['/zones/z5', '/zones/z5/waf_migration/check', '/zones/z5/waf_migration/status']);
  // An account's item is redrawn (its jobs read again when expanded), with no request; a zone not shown, or another backend's,
  // reads the whole view.
  const source = (await apiFor(ctx)).source;
  changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  view.refresh({ owner: { account: account.account.id }, source });
  assert.equal(await changed, account);
  for (const other of [{ owner: { zone: 'z-new' }, source }, { owner: { zone: z5.zone.id }, source: 'http://elsewhere' }, undefined]) {
    changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
    view.refresh(other);
    assert.equal(await changed, undefined);
  }
  assert.equal(big.received.length, 3);
});

test('a zone list cut short is said as the Zones view\'s message, its zones still shown', async () => {
  const view = new ZonesView(async () => cutApi());
  const shown: { message?: string } = {};
  view.view = shown as never;
  const roots = await view.getChildren();
  assert.equal(roots.length, 3);
  assert.equal(shown.message, cut);
  assert.equal(view.lastError, undefined);
});
