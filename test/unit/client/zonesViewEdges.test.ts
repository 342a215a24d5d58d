// Edges of the Zones view's reads (client/src/views/zones.ts) that the mutation sample mt6 found unpinned: the states read are the
// first 100 zones' (the number docs and comments say), a zone whose state is unread is redrawn by a command's refresh without a
// state request, and a list of one page says no progress.
import { resetFake } from './vscode';
import { test, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ZoneItem, ZonesView } from '../../../client/src/views/zones';
import { createApi } from '../../../client/src/http/api';
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
