// Where the migration command leaves the views and what its last message offers (client/src/commands/migration.ts), for the cases
// the review of ui6's changes found (rv10).
import { commands, fake, resetFake } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../../client/src/commands/migration';
import { ctxFor, until, withMock } from './migrationCtx';
import type { MockBackend } from '../../../mock/src/backend';

beforeEach(() => resetFake());

async function zoneId(mock: MockBackend, name: string): Promise<string> {
  const r = await fetch(`${mock.apiBaseUrl}/zones?name=${name}`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } });
  return ((await r.json()) as { result: { id: string }[] }).result[0].id;
}

test('the Security Events view showing the zone is refreshed when the run leaves it in validation mode ("Later")', async () => {
  // The user looked at the zone's events, then migrated it to validation mode and answered "Later" without inspecting: the run ends
  // "cancelled" with the zone in validation mode, and the view, which had read the zone before, still said "not migrated".
  await withMock(async (mock) => {
    const id = await zoneId(mock, 'enterprise.example');
    const { ctx, events } = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Later' : options[0]),
      { shown: { id, name: 'enterprise.example' } });
    const done = await migrate(ctx, 'enterprise.example');
    assert.equal(done.name === 'cancelled' && done.zoneState, 'validation', JSON.stringify(done));
    assert.equal(events.refreshed, 1);
  });
});

test('a run stopped in validation mode, whose message says "Run the migration again to finish", offers Migrate Again', async () => {
  await withMock(async (mock) => {
    const first = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Later' : options[0]));
    await migrate(first.ctx, 'enterprise.example');
    // The second run goes on from validation mode; its review is dismissed.
    const second = ctxFor(mock, (q, options) => (/validation mode/.test(q) && options.includes('Review and Finish') ? 'Review and Finish' : /^Review the new configuration/.test(q) ? undefined : options[0]));
    const done = await migrate(second.ctx, 'enterprise.example');
    assert.equal(done.name === 'cancelled' && done.zoneState, 'validation', JSON.stringify(done));
    const last = fake.messages.at(-1)!;
    assert.match(last.text, /Run the migration again to finish/);
    assert.deepEqual(last.items, ['Migrate Again']);
  });
});

test('the last message\'s buttons act on the backend the run was on, or say that EdgeKit has moved to another', async () => {
  // rv10: the message waits in Notifications; after a switch of edgekit.backend to a standalone mock (zone ids are the same there)
  // "Export as Terraform" exported the other backend's zone, and "Migrate Again" would have migrated it.
  await withMock(async (mock) => {
    // lf21: "restarted", the embedded mock on another port (edgekit.mock.port 0): the same backend (Api.source), whose zones the
    // button acts on; it was refused as another backend, by its URL.
    for (const moved of ['no', 'restarted', 'switched'] as const) {
      const switched = moved === 'switched';
      resetFake();
      let click!: (title: string) => void;
      fake.answerMessage = () => new Promise<string | undefined>((resolve) => { click = resolve; });
      const { ctx } = ctxFor(mock, (_q, options) => options[0]);
      const done = await migrate(ctx, 'pro.example');
      assert.equal(done.name, 'migrated');
      const last = fake.messages.at(-1)!;
      assert.deepEqual(last.items, ['Export as Terraform']);
      if (moved !== 'no') {
        (ctx as unknown as { backend: unknown }).backend = { endpoints: async () => ({ embedded: !switched, gatewayUrl: '', apiBaseUrl: 'http://127.0.0.1:9/client/v4', apiToken: 't' }) };
      }
      click('Export as Terraform');
      // The click's end: the export run, or the warning that it was not.
      await until('the export or its refusal', () => commands.executed.some((c) => c[0] !== 'setContext') || fake.messages.at(-1)?.kind === 'warning' || undefined);
      const id = await zoneId(mock, 'pro.example');
      const run = commands.executed.filter((c) => c[0] !== 'setContext');
      if (!switched) {
        assert.deepEqual(run, [['edgekit.migration.exportTerraform', id]]);
      } else {
        assert.deepEqual(run, []);
        const said = fake.messages.at(-1)!;
        assert.equal(said.kind, 'warning');
        assert.match(said.text, /pro\.example/);
        assert.ok(said.text.includes(mock.apiBaseUrl), said.text);
        assert.ok(said.text.includes('http://127.0.0.1:9/client/v4'), said.text);
      }
    }
  });
});

test('while a question waits, the progress says first that it waits and how to answer, in a short line', async () => {
  // rv10: "…Status: …, new rules on. Answer "Inspect Security Events", "Review and Finish", "Later" on its question (…)": the status
  // bar cut the line before where the question waits, and "Answer A, B, C" read as if all three were to be answered. mig8: the line
  // that followed, "Your answer is awaited: choose … (in Notifications once hidden), or with … . <the step>", ran past 250
  // characters; the status bar shows its start only.
  await withMock(async (mock) => {
    let progress: string | undefined;
    const { ctx } = ctxFor(mock, (q, options) => {
      if (/Enterprise zone/.test(q)) return 'Validation Mode';
      if (/validation mode: the new/.test(q)) { progress = fake.progressReports.at(-1); return 'Later'; }
      return options[0];
    });
    await migrate(ctx, 'enterprise.example');
    assert.ok(progress);
    assert.equal(progress, 'Validation mode: waiting for your answer. Run "EdgeKit: Continue Migration" (or see Notifications): Inspect Security Events, Review and Finish or Later.');
    assert.ok(progress.length <= 160, `${progress.length} characters`);
  });
});
