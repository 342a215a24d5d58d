// The migration command (client/src/commands/migration.ts) cancelled during its review, with the stand-in `vscode` module and the embedded mock.
import { fake, resetFake } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { migrationCommands } from '../../../client/src/commands/migration';
import { ctxFor, withMock } from './migrationCtx';

beforeEach(() => resetFake());

/** The language server is not asked: the review was not continued. */
const notAsked = async () => { throw new Error('not asked: the review was not continued'); };

test('Cancel on the migration\'s progress while the review waits for "Continue" ends the run saying nothing was sent', async () => {
  // Seen in the workbench: Cancel during the review of enterprise.example ended the run without a word (a CancellationError, which
  // commands end on silently), while the review's "Continue" stayed on screen and then did nothing.
  await withMock(async (mock) => {
    // The review's question is never answered: the user presses Cancel on the progress instead.
    const { ctx, asked } = ctxFor(mock, () => { fake.cancelProgress(); return new Promise<string | undefined>(() => undefined); }, { request: notAsked });
    const zones = await (await fetch(`${mock.apiBaseUrl}/zones`, { headers: { Authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { id: string; name: string }[] };
    const pro = zones.result.find((z) => z.name === 'pro.example')!;
    const end = await migrationCommands['edgekit.migration.start'](ctx)(pro.id) as { name: string };
    assert.match(asked.at(-1)?.q ?? '', /^Review the new configuration of pro\.example/);
    assert.equal(end.name, 'cancelled');
    assert.deepEqual(fake.messages, [{
      kind: 'info', items: ['Migrate Again'],
      text: 'Cancelled; nothing was sent to zone "pro.example". Your review in pro.example.ruleset.json is kept: migrate again to go on from it.',
    }]);
  }, {});
});

test('the review\'s "Continue" clicked after the run was cancelled says the run has ended, and what to run', async () => {
  // VS Code cannot close a notification for the extension: after a Cancel on the progress, the review's "Continue" stayed on screen
  // and did nothing when clicked.
  await withMock(async (mock) => {
    let click: ((pick: string) => void) | undefined;
    const { ctx } = ctxFor(mock, () => { fake.cancelProgress(); return new Promise<string | undefined>((resolve) => { click = resolve; }); }, { request: notAsked });
    const end = await migrationCommands['edgekit.migration.start'](ctx)('pro.example') as { name: string };
    assert.equal(end.name, 'cancelled');
    fake.messages = [];
    click!('Continue');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'That migration run of pro.example has ended (cancelled). Run "EdgeKit: Migrate Zone to New Managed Rules…" to review it again.' }]);
  }, {});
});
