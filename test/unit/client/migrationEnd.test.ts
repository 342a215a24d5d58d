// Where the migration command leaves the views and what its last message offers (client/src/commands/migration.ts), for the cases
// the review of ui6's changes found. `todo`: migration.ts was being changed by another helper during that review, so these wait for
// its fix (each says what to change); node:test reports a failing todo test without failing the run. Drop `todo` with the fix.
import { fake, resetFake } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../client/src/commands/migration';
import { startMockBackend, type MockBackend } from '../../../mock/src/backend';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

/** A Ctx on `mock` whose Security Events view shows `shown` (counting its refreshes); `answer` answers every question. */
function ctxFor(mock: MockBackend, answer: (q: string, options: string[]) => string | undefined, shown?: { id: string; name: string }) {
  const events = { zone: shown, refreshed: 0, refresh: async () => { events.refreshed++; } };
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: mock.apiBaseUrl, apiToken: mock.credentials.apiToken }) },
    zones: { refresh() {} },
    securityEvents: events,
    ui: { ask: async (q: string, options: string[]) => answer(q, options) },
    server: { request: async () => ({ problems: { errors: 0, warnings: 0 } }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  return { ctx, events };
}

async function zoneId(mock: MockBackend, name: string): Promise<string> {
  const r = await fetch(`${mock.apiBaseUrl}/zones?name=${name}`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } });
  return ((await r.json()) as { result: { id: string }[] }).result[0].id;
}

test('the Security Events view showing the zone is refreshed when the run leaves it in validation mode ("Later")', {
  todo: 'migration.ts refreshes the view only when final.name is "migrated" or "validation"; a run that ends "cancelled" (or "failed") '
    + 'with the zone moved (zoneState "validation" or "migrated") leaves it saying "not migrated": key the refresh on where the zone stands now',
}, async () => {
  // The user looked at the zone's events, then migrated it to validation mode and answered "Later" without inspecting: the run ends
  // "cancelled" with the zone in validation mode, and the view, which had read the zone before, still said "not migrated".
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const id = await zoneId(mock, 'enterprise.example');
    const { ctx, events } = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Later' : options[0]),
      { id, name: 'enterprise.example' });
    const done = await migrate(ctx, 'enterprise.example');
    assert.equal(done.name === 'cancelled' && done.zoneState, 'validation', JSON.stringify(done));
    assert.equal(events.refreshed, 1);
  } finally {
    await mock.close();
  }
});

test('a run stopped in validation mode, whose message says "Run the migration again to finish", offers Migrate Again', {
  todo: 'migration.ts offers "Migrate Again" only after a cancel with zoneState "start"; a cancel with the zone in validation mode (the '
    + 'finishing review dismissed, or "Later") says "Run the migration again to finish" with no button: offer it there too',
}, async () => {
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const first = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Later' : options[0]));
    await migrate(first.ctx, 'enterprise.example');
    // The second run goes on from validation mode; its review is dismissed.
    const second = ctxFor(mock, (q, options) => (/validation mode/.test(q) && options.includes('Review and Finish') ? 'Review and Finish' : /^Review the new configuration/.test(q) ? undefined : options[0]));
    const done = await migrate(second.ctx, 'enterprise.example');
    assert.equal(done.name === 'cancelled' && done.zoneState, 'validation', JSON.stringify(done));
    const last = fake.messages.at(-1)!;
    assert.match(last.text, /Run the migration again to finish/);
    assert.deepEqual(last.items, ['Migrate Again']);
  } finally {
    await mock.close();
  }
});
