// The migration command (client/src/commands/migration.ts) cancelled during its review, with the stand-in `vscode` module and the embedded mock.
import { fake, resetFake } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { migrationCommands } from '../../../client/src/commands/migration';
import { startMockBackend } from '../../../mock/src/backend';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

test('Cancel on the migration\'s progress while the review waits for "Continue" ends the run saying nothing was sent', async () => {
  // Seen in the workbench: Cancel during the review of enterprise.example ended the run without a word (a CancellationError, which
  // commands end on silently), while the review's "Continue" stayed on screen and then did nothing.
  const mock = await startMockBackend({ port: 0 });
  let asked: string | undefined;
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: mock.gatewayUrl, apiBaseUrl: mock.apiBaseUrl, ...mock.credentials }) },
    zones: { refresh() {} },
    // The review's question is never answered: the user presses Cancel on the progress instead.
    ui: { ask: (q: string) => { asked = q; fake.cancelProgress(); return new Promise<string | undefined>(() => undefined); } },
    server: { request: async () => { throw new Error('not asked: the review was not continued'); } },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  try {
    const zones = await (await fetch(`${mock.apiBaseUrl}/zones`, { headers: { Authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { id: string; name: string }[] };
    const pro = zones.result.find((z) => z.name === 'pro.example')!;
    const end = await migrationCommands['edgekit.migration.start'](ctx)(pro.id) as { name: string };
    assert.match(asked ?? '', /^Review the new configuration of pro\.example/);
    assert.equal(end.name, 'cancelled');
    assert.deepEqual(fake.messages, [{
      kind: 'info', items: ['Migrate Again'],
      text: 'Cancelled; nothing was sent to zone "pro.example". Your review in pro.example.ruleset.json is kept: migrate again to go on from it.',
    }]);
  } finally {
    await mock.close();
  }
});

test('the review\'s "Continue" clicked after the run was cancelled says the run has ended, and what to run', async () => {
  // VS Code cannot close a notification for the extension: after a Cancel on the progress, the review's "Continue" stayed on screen
  // and did nothing when clicked.
  const mock = await startMockBackend({ port: 0 });
  let click: ((pick: string) => void) | undefined;
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: mock.gatewayUrl, apiBaseUrl: mock.apiBaseUrl, ...mock.credentials }) },
    zones: { refresh() {} },
    ui: { ask: () => { fake.cancelProgress(); return new Promise<string | undefined>((resolve) => { click = resolve; }); } },
    server: { request: async () => { throw new Error('not asked: the review was not continued'); } },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  try {
    const end = await migrationCommands['edgekit.migration.start'](ctx)('pro.example') as { name: string };
    assert.equal(end.name, 'cancelled');
    fake.messages = [];
    click!('Continue');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'That migration run of pro.example has ended (cancelled). Run "EdgeKit: Migrate Zone to New Managed Rules" to review it again.' }]);
  } finally {
    await mock.close();
  }
});
