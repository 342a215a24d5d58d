// The migration command's review step (client/src/commands/migration.ts) with the stand-in `vscode` module: what it accepts as the
// configuration to deploy.
import './vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewedConfig } from '../../../client/src/commands/migration';

const EXECUTE = { action: 'execute', expression: 'true', enabled: false, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } };
const SKIP = { action: 'skip', expression: '(ip.src in {203.0.113.0/24})', enabled: true, action_parameters: { ruleset: 'current' } };

test('a reviewed configuration that executes no managed ruleset is not deployed, and the review says why', () => {
  // Every update the flow sends is a migration step (validation or pending); with nothing to execute it would turn the previous
  // managed rules off for good (pending) or validate nothing (the mock refuses both with 10508).
  for (const rules of [[], [SKIP]]) {
    const r = reviewedConfig(JSON.stringify({ name: 'default', rules }));
    assert.equal(typeof r, 'string', JSON.stringify(rules));
    assert.match(r as string, /^its "rules" execute no managed ruleset/);
    assert.match(r as string, /previous managed rules/);
  }
  // Disabled execute rules are what the config operation gives a zone whose WAF was off: accepted.
  assert.deepEqual(reviewedConfig(JSON.stringify({ name: 'default', rules: [SKIP, EXECUTE] })), { name: 'default', rules: [SKIP, EXECUTE] });
});

test('a reviewed text that is not a configuration names what is wrong', () => {
  assert.match(reviewedConfig('{') as string, /^it is not valid JSON/);
  // Seen in the workbench: a typo in the review ("enabled": trupe) was reported in V8's words, with no line, and "is not valid
  // JSON" twice: 'it is not valid JSON (Unexpected token 'p', ..."bled": trupe, "... is not valid JSON)'.
  const typo = reviewedConfig('{\n  "name": "default",\n  "rules": [{ "enabled": trupe }]\n}') as string;
  assert.match(typo, /^it is not valid JSON: line 3, column \d+: /);
  assert.equal(typo.match(/not valid JSON/g)?.length, 1, typo);
  assert.equal(reviewedConfig('[]'), 'it must be a JSON object with "name" and "rules"');
  assert.equal(reviewedConfig('{"rules": []}'), 'its "name" must be a string');
  assert.equal(reviewedConfig('{"name": "default", "rules": {}}'), 'its "rules" must be an array');
});

// ---- the whole command against the in-process mock ----

import { fake, resetFake, editDocument, Uri } from './vscode';
import { beforeEach } from 'node:test';
import { migrate } from '../../../client/src/commands/migration';
import { startMockBackend, type MockBackend } from '../../../mock/src/backend';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

/** A Ctx on `mock`; `answer(question, options)` answers every question (undefined: dismissed), and each is recorded. */
function ctxFor(mock: MockBackend, answer: (q: string, options: string[]) => string | undefined) {
  const asked: { q: string; options: string[] }[] = [];
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: mock.apiBaseUrl, apiToken: mock.credentials.apiToken }) },
    zones: { refresh() {} },
    ui: { ask: async (q: string, options: string[]) => { asked.push({ q, options }); return answer(q, options); } },
    server: { request: async () => ({ problems: { errors: 0, warnings: 0 } }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  return { ctx, asked };
}

test('a second run does not silently replace the review document that a failed run left with the user\'s changes', async () => {
  // The first run's pending update fails (HTTP 500: outcome unknown, the document is kept "with whatever the user changed"). The
  // second run used to write the fresh configuration over it: the added exception was gone without a word.
  const mock = await startMockBackend({ port: 0, rateLimit: false, fail: { match: /^PUT .*\/entrypoint/, status: 500, times: 1 } });
  try {
    const exception = { action: 'skip', expression: '(http.host eq "dev.pro.example")', description: 'Added in the review', enabled: true, action_parameters: { ruleset: 'current' } };
    const first = ctxFor(mock, (q, options) => {
      if (/^Review the new configuration/.test(q)) {
        const doc = [...fake.documents.values()].find((d) => d.uri.path.endsWith('pro.example.ruleset.json'))!;
        const cfg = JSON.parse(doc.getText());
        editDocument(doc, JSON.stringify({ ...cfg, rules: [exception, ...cfg.rules] }, null, 2) + '\n');
      }
      return options[0];
    });
    const failed = await migrate(first.ctx, 'pro.example');
    assert.equal(failed.name, 'failed', JSON.stringify(failed));
    const doc = [...fake.documents.values()].find((d) => d.uri.path.endsWith('pro.example.ruleset.json'))!;
    assert.match(doc.getText(), /Added in the review/, 'a failed run keeps the document');
    // After a reload the tab comes back from a hot-exit backup that workspace.textDocuments does not list until it is opened.
    fake.unresolved.add(doc.uri.toString());

    const second = ctxFor(mock, (q, options) => (/already holds/.test(q) ? 'Keep It' : options[0]));
    const done = await migrate(second.ctx, 'pro.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    const keep = second.asked.find((a) => /already holds/.test(a.q));
    assert.ok(keep, JSON.stringify(second.asked));
    assert.deepEqual(keep.options, ['Keep It', 'Replace']);
    assert.match(keep.q, /pro\.example\.ruleset\.json/);
    const ep = await (await fetch(`${mock.apiBaseUrl}/zones/${(await (await fetch(`${mock.apiBaseUrl}/zones?name=pro.example`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { id: string }[] }).result[0].id}/rulesets/phases/http_request_firewall_managed/entrypoint`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { rules: { description: string }[] } };
    assert.ok(ep.result.rules.some((r) => r.description === 'Added in the review'), 'the kept text is what was deployed');
  } finally {
    await mock.close();
  }
});

test('while the review waits, the progress (which stays on screen, and in the status bar) says where its Continue is', async () => {
  // Seen in the workbench: the review question is an information message, which VS Code hides after a few seconds, or as soon as
  // the user clicks into the document to review it; the progress notification, the only thing left, said "Review the new
  // configuration" with a Cancel button and nothing about how to go on.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    let shown: string | undefined;
    const { ctx } = ctxFor(mock, (q, options) => {
      if (/^Review the new configuration/.test(q)) shown = fake.progressReports.at(-1);
      return options[0];
    });
    const done = await migrate(ctx, 'pro.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.ok(shown, JSON.stringify(fake.progressReports));
    assert.match(shown, /pro\.example\.ruleset\.json/);
    assert.match(shown, /Continue/);
    assert.match(shown, /Notifications/);
  } finally {
    await mock.close();
  }
});

test('in validation mode, the tree shows the new state at once, and the progress says where the question waits', async () => {
  // Seen in the workbench: the zone sat in validation mode behind the "Finish the migration now?" question while the Zones tree
  // still said "not migrated" (it was refreshed only when the whole run ended), and the question hid itself after a few seconds.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    let refreshes = 0;
    let atQuestion: { refreshes: number; progress?: string } | undefined;
    const { ctx } = ctxFor(mock, (q, options) => {
      if (/Enterprise zone/.test(q)) return 'Validation Mode';
      if (/is in validation mode: the new/.test(q)) { atQuestion = { refreshes, progress: fake.progressReports.at(-1) }; return 'Later'; }
      return options[0];
    });
    (ctx as { zones: { refresh(): void } }).zones = { refresh() { refreshes++; } };
    const done = await migrate(ctx, 'enterprise.example');
    assert.equal(done.name === 'cancelled' && done.zoneState, 'validation', JSON.stringify(done)); // "Later": the run ends there
    assert.ok(atQuestion, 'the validation question was asked');
    assert.ok(atQuestion.refreshes >= 1, 'the tree was refreshed once the zone entered validation mode');
    assert.match(atQuestion.progress ?? '', /validation mode/);
    assert.match(atQuestion.progress ?? '', /Review and Finish/);
    assert.match(atQuestion.progress ?? '', /Notifications/);
  } finally {
    await mock.close();
  }
});

test('the Security Events view showing the zone is refreshed once the migration ends', async () => {
  // Seen in the workbench: after "Inspect Security Events" in validation mode and the pending update, the view still said
  // "validation mode: both rule sets run" for a zone that had migrated.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const auth = { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } };
    const id = ((await (await fetch(`${mock.apiBaseUrl}/zones?name=enterprise.example`, auth)).json()) as { result: { id: string }[] }).result[0].id;
    let refreshed = 0;
    const { ctx } = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Review and Finish' : options[0]));
    (ctx as unknown as { securityEvents: unknown }).securityEvents = { zone: { id, name: 'enterprise.example' }, refresh: async () => { refreshed++; } };
    const done = await migrate(ctx, 'enterprise.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.equal(refreshed, 1);
    // Another zone shown there is left as it is.
    refreshed = 0;
    (ctx as unknown as { securityEvents: unknown }).securityEvents = { zone: { id: 'another', name: 'other.example' }, refresh: async () => { refreshed++; } };
    await migrate(ctx, 'pro.example');
    assert.equal(refreshed, 0);
  } finally {
    await mock.close();
  }
});

test('a typo in the review is named by line, in one sentence, and the run goes on once it is fixed', async () => {
  // Seen in the workbench: 'cannot be deployed: it is not valid JSON: line 11, column 18: Unexpected word "trupe"; did you mean
  // true?. Fix it, then continue.'
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    let good = '';
    const { ctx, asked } = ctxFor(mock, (q, options) => {
      const doc = [...fake.documents.values()].find((d) => d.uri.path.endsWith('pro.example.ruleset.json'));
      if (doc && /^Review the new configuration/.test(q)) { good = doc.getText(); editDocument(doc, good.replace('"enabled": true', '"enabled": trupe')); }
      else if (doc && /cannot be deployed/.test(q)) editDocument(doc, good);
      return options[0];
    });
    const done = await migrate(ctx, 'pro.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    const refused = asked.find((a) => /cannot be deployed/.test(a.q));
    assert.ok(refused, JSON.stringify(asked.map((a) => a.q)));
    assert.match(refused.q, /line \d+, column \d+: Unexpected word "trupe"; did you mean true\? Fix it, then continue\.$/);
  } finally {
    await mock.close();
  }
});

test('within one run, finishing from validation mode reviews the deployed configuration without asking about the document', async () => {
  // The document holds what the validation update deployed (accepted in this run): the second review replaces it as before.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const { ctx, asked } = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Review and Finish' : options[0]));
    const done = await migrate(ctx, 'enterprise.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.ok(!asked.some((a) => /already holds/.test(a.q)), JSON.stringify(asked.map((a) => a.q)));
    assert.equal(asked.filter((a) => /^Review the new configuration/.test(a.q)).length, 2, 'reviewed twice');
  } finally {
    await mock.close();
  }
});

test('Export as Terraform on a zone not migrated yet says so and offers to migrate that zone', async () => {
  // The export reads the ruleset API, which manages a zone's rules only after migration: the refusal named the state and left the
  // user to find the migration command.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const { migrationCommands } = await import('../../../client/src/commands/migration');
    const { ctx } = ctxFor(mock, () => undefined);
    const err = await migrationCommands['edgekit.migration.exportTerraform'](ctx)('business.example').then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof Error, 'refused');
    assert.match(err.message, /^business\.example is not migrated yet \(migration_state "start"\)/);
    const zoneId = (await (await fetch(`${mock.apiBaseUrl}/zones?name=business.example`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { id: string }[] }).result[0].id;
    assert.deepEqual((err as unknown as { actions: unknown }).actions, [{ title: 'Migrate business.example', command: 'edgekit.migration.start', args: [zoneId] }]);
  } finally {
    await mock.close();
  }
});

test('"Check Migration Compatibility" on a zone in validation mode or migrated says where it stands, as information, not a warning', async () => {
  // The mock's check answers compatible: false for a migrated zone (it cannot move again) with a 10505 message; the command reads
  // the state first, so the user is told the zone has migrated, not that it is "not eligible".
  const { migrationCommands } = await import('../../../client/src/commands/migration');
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const { ctx } = ctxFor(mock, (_q, options) => options.find((o) => o === 'Validation Mode' || o === 'Later') ?? options[0]);
    const check = migrationCommands['edgekit.migration.check'](ctx);
    const stopped = await migrate(ctx, 'enterprise.example');
    assert.ok(stopped.name === 'cancelled' && stopped.zoneState === 'validation', JSON.stringify(stopped));
    assert.equal((await migrate(ctx, 'pro.example')).name, 'migrated');
    fake.messages = [];
    assert.deepEqual(await check('enterprise.example'), { compatible: true, migration_state: 'validation' });
    assert.deepEqual(await check('pro.example'), { compatible: false, migration_state: 'migrated' });
    assert.deepEqual(fake.messages.map((m) => m.kind), ['info', 'info'], JSON.stringify(fake.messages));
    assert.match(fake.messages[0].text, /enterprise\.example is in validation mode/);
    assert.match(fake.messages[1].text, /^pro\.example has already migrated/);
    assert.doesNotMatch(fake.messages[1].text, /not eligible/);
  } finally {
    await mock.close();
  }
});

test('the review and the Terraform export, once saved under the names they offer, open next time under free names (not "file already exists")', async () => {
  // ui4's walk: VS Code refuses an untitled document where a file is; saving pro.example.managed-rules.tf is the export's next step.
  fake.folderSettings.set('/ws', new Map());
  fake.files.push(Uri.file('/ws/pro.example.ruleset.json').toString(), Uri.file('/ws/pro.example.managed-rules.tf').toString());
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    const done = await migrate(ctx, 'pro.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.ok([...fake.documents.keys()].some((u) => u.endsWith('/ws/pro.example-2.ruleset.json')), [...fake.documents.keys()].join());
    const { migrationCommands } = await import('../../../client/src/commands/migration');
    await migrationCommands['edgekit.migration.exportTerraform'](ctx)('pro.example');
    const tf = [...fake.documents.values()].find((d) => d.uri.path.endsWith('.tf'));
    assert.equal(tf?.uri.toString(), Uri.file('/ws/pro.example.managed-rules-2.tf').with({ scheme: 'untitled' }).toString());
    assert.match(tf!.getText(), /^# Managed rules of pro\.example/);
  } finally {
    await mock.close();
  }
});

test('the run\'s last message offers what comes next: the Terraform export once migrated, and after a cancel the review kept and the run again', async () => {
  // Seen in the workbench (ui6): "Cancelled; nothing was sent to zone ..." said nothing of the review document the next run
  // resumes from, and "has migrated" / "has already migrated" did not offer the export.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const last = () => fake.messages.filter((m) => m.kind === 'info').at(-1)!;
    // Cancelled at the confirmation, after the review: nothing sent, the review kept.
    const declined = ctxFor(mock, (q, options) => (/^Review the new configuration/.test(q) ? options[0] : undefined));
    const stopped = await migrate(declined.ctx, 'pro.example');
    assert.equal(stopped.name, 'cancelled', JSON.stringify(stopped));
    assert.match(last().text, /^Cancelled; nothing was sent to zone "pro\.example"\. Your review in pro\.example\.ruleset\.json is kept: migrate again to go on from it\.$/);
    assert.deepEqual(last().items, ['Migrate Again']);
    // Migrated: the export is offered; and again for a zone already migrated.
    const done = await migrate(ctxFor(mock, (_q, options) => (options.includes('Keep It') ? 'Keep It' : options[0])).ctx, 'pro.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.match(last().text, /has migrated to the new managed rules/);
    assert.deepEqual(last().items, ['Export as Terraform']);
    const again = await migrate(ctxFor(mock, (_q, options) => options[0]).ctx, 'pro.example');
    assert.ok(again.name === 'migrated' && again.already, JSON.stringify(again));
    assert.match(last().text, /has already migrated/);
    assert.deepEqual(last().items, ['Export as Terraform']);
  } finally {
    await mock.close();
  }
});

test('the Terraform export opens in the terraform language when one is registered, else hcl, else as plain text', async () => {
  // ui6's walk: pro.example.managed-rules.tf opened as Plain Text. VS Code has no HCL of its own: an installed extension's
  // language is used (HashiCorp Terraform's "terraform", or an HCL extension's "hcl"); EdgeKit ships no grammar for it.
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const { migrationCommands } = await import('../../../client/src/commands/migration');
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    (ctx as unknown as { server: unknown }).server = { request: async () => ({ hcl: 'resource "svc_ruleset" "x" {}\n', address: 'svc_ruleset.x', importId: 'zone/z/r' }) };
    assert.equal((await migrate(ctx, 'pro.example')).name, 'migrated');
    const exported = async (languages: string[]) => {
      for (const [k, d] of fake.documents) if (d.uri.path.endsWith('.tf')) fake.documents.delete(k);
      fake.languages = languages;
      await migrationCommands['edgekit.migration.exportTerraform'](ctx)('pro.example');
      return [...fake.documents.values()].find((d) => d.uri.path.endsWith('.tf'))!.languageId;
    };
    assert.equal(await exported(['hcl', 'terraform', 'json']), 'terraform');
    assert.equal(await exported(['hcl', 'json']), 'hcl');
    assert.equal(await exported(['json']), 'plaintext');
  } finally {
    await mock.close();
  }
});
