// Edges of the Zones view's reads (client/src/views/zones.ts) that the mutation sample mt6 found unpinned: the states read are the
// first 100 zones' (the number docs and comments say), a zone whose state is unread is redrawn by a command's refresh without a
// state request, and a list of one page says no progress.
import { resetFake } from './vscode';
import { test, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ZoneItem, ZonesView } from '../../../client/src/views/zones';
import { createApi, type Api, type CallOptions, type Zone } from '../../../client/src/http/api';
import { startLargeAccount } from '../http/largeAccount';

beforeEach(() => resetFake());

test('a refresh of 150 zones reads the states of the first 100 exactly; a command\'s refresh of an unread zone sends nothing', async () => {
  const big = await startLargeAccount(150, 1);
  after(() => big.close());
  const api = createApi({ baseUrl: big.apiBaseUrl, token: 'api-token-for-tests', timeoutMs: 5000 });
  const view = new ZonesView(async () => api);
  const roots = await view.getChildren();
  assert.equal(big.count(/\/waf_migration\/status$/), 100);
  assert.equal((roots[99] as ZoneItem).unread, false);
  assert.equal((roots[100] as ZoneItem).unread, true);
  // A command acted on zone 120 (its state unread): the item is redrawn, and its state read when it is expanded, not now.
  big.received.length = 0;
  const unread = roots[120] as ZoneItem;
  const changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  view.refresh({ owner: { zone: unread.zone.id }, source: api.source });
  assert.equal(await changed, unread);
  assert.equal(unread.unread, true);
  assert.equal(big.received.length, 0);
});

test('a list of one page says no progress: the view\'s message is set once, to nothing', async () => {
  const big = await startLargeAccount(30, 2);
  after(() => big.close());
  const messages: (string | undefined)[] = [];
  const view = new ZonesView(async () => createApi({ baseUrl: big.apiBaseUrl, token: 'api-token-for-tests', timeoutMs: 5000 }));
  view.view = { set message(v: string | undefined) { messages.push(v); } } as never;
  assert.equal((await view.getChildren()).length, 32);
  assert.deepEqual(messages, [undefined]);
});

/** An API of `n` zones (the first 100 read, the rest unread) whose status answers wait for release() (those asked after it do not
 * wait): the signals each read got. */
function heldApi(n: number) {
  const zones: Zone[] = Array.from({ length: n }, (_, i) => ({ id: `z${i}`, name: `z${i}.example`, plan: { legacy_id: 'pro' } }));
  const ok = <T>(result: T) => ({ ok: true, status: 200, result, messages: [], ms: 1, curl: '' });
  const held: (() => void)[] = [];
  let open = false;
  const listSignals: (AbortSignal | undefined)[] = [];
  const statusSignals: (AbortSignal | undefined)[] = [];
  let statusAsked!: () => void;
  const firstStatus = new Promise<void>((resolve) => { statusAsked = resolve; });
  const api = {
    baseUrl: 'http://held', source: 'http://held',
    listZones: async (o?: CallOptions) => { listSignals.push(o?.signal); return ok(zones); },
    listAccounts: async () => ok([]),
    status: (_id: string, o?: CallOptions) => {
      statusSignals.push(o?.signal);
      statusAsked();
      const answer = ok({ migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false });
      return open ? Promise.resolve(answer) : new Promise((resolve) => held.push(() => resolve(answer)));
    },
    logpushJobs: async () => ok([]),
  } as unknown as Api;
  return { api, listSignals, statusSignals, firstStatus, release: () => { open = true; for (const r of held.splice(0)) r(); }, hold: () => { open = false; } };
}

test('a newer refresh ends the older one\'s reads: its list read and its state reads get an aborted signal', async () => {
  const h = heldApi(3);
  const view = new ZonesView(async () => h.api);
  const older = view.getChildren();
  await h.firstStatus;
  const newer = view.getChildren();
  assert.equal(h.listSignals[0]?.aborted, true, 'the older list read is ended');
  assert.equal(h.statusSignals[0]?.aborted, true, 'the older state reads are ended');
  // Both resolve with the newer's items once their states are read.
  h.release();
  assert.equal(await older, await newer);
});

test('an unread zone expanded again while its state is read sends one state request', async () => {
  const h = heldApi(101);
  const view = new ZonesView(async () => h.api);
  h.release();
  const past = (await view.getChildren())[100] as ZoneItem;
  h.hold();
  assert.equal(past.unread, true);
  const changed = new Promise<unknown>((resolve) => view.onDidChangeTreeData(resolve));
  // The expand, the redraw that takes its jobs, and a collapse and expand before the state is back.
  await Promise.all([view.getChildren(past), view.getChildren(past), view.getChildren(past)]);
  h.release();
  assert.equal(await changed, past);
  assert.equal(h.statusSignals.length, 101);
});
