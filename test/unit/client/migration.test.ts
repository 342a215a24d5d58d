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
import { ctxFor, withMock } from './migrationCtx';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

test('a second run does not silently replace the review document that a failed run left with the user\'s changes', async () => {
  // The first run's pending update fails (HTTP 500: outcome unknown, the document is kept "with whatever the user changed"). The
  // second run used to write the fresh configuration over it: the added exception was gone without a word.
  await withMock(async (mock) => {
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
  }, { rateLimit: false, fail: { match: /^PUT .*\/entrypoint/, status: 500, times: 1 } });
});

test('while the review waits, the progress (which stays on screen, and in the status bar) says where its Continue is', async () => {
  // Seen in the workbench: the review question is an information message, which VS Code hides after a few seconds, or as soon as
  // the user clicks into the document to review it; the progress notification, the only thing left, said "Review the new
  // configuration" with a Cancel button and nothing about how to go on.
  await withMock(async (mock) => {
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
  });
});

test('in validation mode, the tree shows the new state at once, and the progress says where the question waits', async () => {
  // Seen in the workbench: the zone sat in validation mode behind the "Finish the migration now?" question while the Zones tree
  // still said "not migrated" (it was refreshed only when the whole run ended), and the question hid itself after a few seconds.
  await withMock(async (mock) => {
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
    assert.match(atQuestion.progress ?? '', /^Validation mode: waiting for your answer/);
    assert.match(atQuestion.progress ?? '', /Review and Finish/);
    assert.match(atQuestion.progress ?? '', /Notifications/);
  });
});

test('the Security Events view showing the zone is refreshed once the migration ends', async () => {
  // Seen in the workbench: after "Inspect Security Events" in validation mode and the pending update, the view still said
  // "validation mode: both rule sets run" for a zone that had migrated.
  await withMock(async (mock) => {
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
  });
});

test('a typo in the review is named by line, in one sentence, and the run goes on once it is fixed', async () => {
  // Seen in the workbench: 'cannot be deployed: it is not valid JSON: line 11, column 18: Unexpected word "trupe"; did you mean
  // true?. Fix it, then continue.'
  await withMock(async (mock) => {
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
  });
});

test('within one run, finishing from validation mode reviews the deployed configuration without asking about the document', async () => {
  // The document holds what the validation update deployed (accepted in this run): the second review replaces it as before.
  await withMock(async (mock) => {
    const { ctx, asked } = ctxFor(mock, (q, options) => (/Enterprise zone/.test(q) ? 'Validation Mode' : /validation mode: the new/.test(q) ? 'Review and Finish' : options[0]));
    const done = await migrate(ctx, 'enterprise.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.ok(!asked.some((a) => /already holds/.test(a.q)), JSON.stringify(asked.map((a) => a.q)));
    assert.equal(asked.filter((a) => /^Review the new configuration/.test(a.q)).length, 2, 'reviewed twice');
  });
});

test('Export as Terraform on a zone not migrated yet says so and offers to migrate that zone', async () => {
  // The export reads the ruleset API, which manages a zone's rules only after migration: the refusal named the state and left the
  // user to find the migration command.
  await withMock(async (mock) => {
    const { migrationCommands } = await import('../../../client/src/commands/migration');
    const { ctx } = ctxFor(mock, () => undefined);
    const err = await migrationCommands['edgekit.migration.exportTerraform'](ctx)('business.example').then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof Error, 'refused');
    assert.match(err.message, /^business\.example is not migrated yet \(migration_state "start"\)/);
    const zoneId = (await (await fetch(`${mock.apiBaseUrl}/zones?name=business.example`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { id: string }[] }).result[0].id;
    assert.deepEqual((err as unknown as { actions: unknown }).actions, [{ title: 'Migrate business.example', command: 'edgekit.migration.start', args: [zoneId] }]);
  });
});

test('"Check Migration Compatibility" on a zone in validation mode or migrated says where it stands, as information, not a warning', async () => {
  // The mock's check answers compatible: false for a migrated zone (it cannot move again) with a 10505 message; the command reads
  // the state first, so the user is told the zone has migrated, not that it is "not eligible".
  const { migrationCommands } = await import('../../../client/src/commands/migration');
  await withMock(async (mock) => {
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
  });
});

test('Check Compatibility, Open New Configuration and Export as Terraform show the window\'s progress while they read the zone', async () => {
  // ux1: after the zone's pick nothing showed until the backend answered (up to edgekit.http.timeoutSeconds with a real account).
  const { window } = await import('./vscode');
  const { migrationCommands } = await import('../../../client/src/commands/migration');
  const shown: string[] = [];
  const withProgress = window.withProgress;
  window.withProgress = (opts, task) => { shown.push(`${String(opts.location)} ${opts.title}`); return withProgress(opts, task); };
  try {
    await withMock(async (mock) => {
      const { ctx } = ctxFor(mock, (_q, options) => options[0]);
      await migrationCommands['edgekit.migration.check'](ctx)('pro.example');
      await migrationCommands['edgekit.migration.openConfig'](ctx)('pro.example');
      await migrationCommands['edgekit.migration.exportTerraform'](ctx)('pro.example').then(() => undefined, () => undefined);
      const { ProgressLocation } = await import('./vscode');
      assert.deepEqual(shown, [
        `${ProgressLocation.Window} EdgeKit: checking whether pro.example can migrate`,
        `${ProgressLocation.Window} EdgeKit: reading the managed rules configuration of pro.example`,
        `${ProgressLocation.Window} EdgeKit: reading the deployed managed rules of pro.example`,
      ]);
    });
  } finally {
    window.withProgress = withProgress;
  }
});

test('the review and the Terraform export, once saved under the names they offer, open next time under free names (not "file already exists")', async () => {
  // ui4's walk: VS Code refuses an untitled document where a file is; saving pro.example.managed-rules.tf is the export's next step.
  fake.folderSettings.set('/ws', new Map());
  fake.files.push(Uri.file('/ws/pro.example.ruleset.json').toString(), Uri.file('/ws/pro.example.managed-rules.tf').toString());
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    const done = await migrate(ctx, 'pro.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.ok([...fake.documents.keys()].some((u) => u.endsWith('/ws/pro.example-2.ruleset.json')), [...fake.documents.keys()].join());
    const { migrationCommands } = await import('../../../client/src/commands/migration');
    await migrationCommands['edgekit.migration.exportTerraform'](ctx)('pro.example');
    const tf = [...fake.documents.values()].find((d) => d.uri.path.endsWith('.tf'));
    assert.equal(tf?.uri.toString(), Uri.file('/ws/pro.example.managed-rules-2.tf').with({ scheme: 'untitled' }).toString());
    assert.match(tf!.getText(), /^# Managed rules of pro\.example/);
  });
});

test('the run\'s last message offers what comes next: the Terraform export once migrated, and after a cancel the review kept and the run again', async () => {
  // Seen in the workbench (ui6): "Cancelled; nothing was sent to zone ..." said nothing of the review document the next run
  // resumes from, and "has migrated" / "has already migrated" did not offer the export.
  await withMock(async (mock) => {
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
  });
});

test('the Terraform export opens in the terraform language when one is registered, else hcl, else as plain text', async () => {
  // ui6's walk: pro.example.managed-rules.tf opened as Plain Text. VS Code has no HCL of its own: an installed extension's
  // language is used (HashiCorp Terraform's "terraform", or an HCL extension's "hcl"); EdgeKit ships no grammar for it.
  await withMock(async (mock) => {
    const { migrationCommands } = await import('../../../client/src/commands/migration');
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    // The export's request answered; the review's document info as the server answers it (ctxFor's).
    const server = (ctx as unknown as { server: { request(type: { method: string }, params: unknown): Promise<unknown> } }).server;
    const documentInfo = server.request;
    server.request = async (type, params) => (type.method === 'edgekit/toTerraform'
      ? { hcl: 'resource "svc_ruleset" "x" {}\n', address: 'svc_ruleset.x', importId: 'zone/z/r' } : documentInfo(type, params));
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
  });
});

test('in validation mode, the question after Inspect says the non-zero counts in one short sentence; the view has them all', async () => {
  // ui6's walk: the question carried the summary's five sentences of counts, zeros included ("0 requests the previous rules
  // blocked now pass."), and the detail after them: too long for a notification.
  await withMock(async (mock) => {
    const summary = {
      zone: 'z', state: 'validation', requests: 240, since: '2026-11-27T10:12:30.000Z', until: '2026-11-27T10:20:25.000Z',
      previous: { acted: 20, actions: { block: 2, log: 18 } }, new: { acted: 30, actions: { block: 12, log: 18 } },
      comparison: { newBlocksPreviousLogged: 3, newBlocksPreviousPassed: 9, previousBlockedNowPass: 0, previousBlockedNewLogs: 2, bothBlock: 0 },
      sentences: ['240 requests from 10:12:30 to 10:20:25 UTC on 2026-11-27 (migration state: validation).', 'The new rules would block 3 requests the previous ones only logged.',
        'The new rules would block 9 requests the previous ones let through.', '0 requests the previous rules blocked now pass.',
        '2 requests the previous rules blocked are only logged by the new ones.', 'Both block 0 requests.'],
    };
    let after: { q: string; options: string[] } | undefined;
    const { ctx } = ctxFor(mock, (q, options) => {
      if (/Enterprise zone/.test(q)) return 'Validation Mode';
      if (options.includes('Inspect Again')) { after = { q, options }; return 'Later'; }
      if (options.includes('Inspect Security Events')) return 'Inspect Security Events';
      return options[0];
    });
    (ctx as unknown as { securityEvents: unknown }).securityEvents = { summary, async show() {}, async refresh() {} };
    // What the notification shows: a question that is not modal is followed by its detail (client/src/ui.ts).
    const answer = ctx.ui.ask;
    (ctx as unknown as { ui: Ctx['ui'] }).ui = { ask: (q, options, opts) => answer(!opts.modal && opts.detail ? `${q} ${opts.detail}` : q, options, opts) };
    const stopped = await migrate(ctx, 'enterprise.example');
    assert.equal(stopped.name, 'cancelled', JSON.stringify(stopped));
    assert.ok(after, 'asked again after the inspection');
    const found = /Security events: (.*?) Finish the migration now\?/.exec(after.q)?.[1];
    assert.equal(found, 'of 240 requests, the new rules would block 12 the previous ones did not, and let through 2 they blocked (every count is in the Security Events view).'.replace(/^o/, 'O'));
    assert.doesNotMatch(after.q, /\b0 /);
    assert.doesNotMatch(after.q, /Inspecting shows|Finishing shows/, 'the first question explained the answers: this one does not again');
  });
});

test('the brief summary of the inspect step: each combination of counts in one sentence, zeros left out', async () => {
  const { briefSummary } = await import('../../../client/src/commands/traffic');
  const zero = { newBlocksPreviousLogged: 0, newBlocksPreviousPassed: 0, previousBlockedNowPass: 0, previousBlockedNewLogs: 0, bothBlock: 0 };
  const brief = (requests: number, c: Partial<typeof zero>, state = 'validation') => briefSummary({
    zone: 'z', state, requests, since: '', until: '', previous: { acted: 0, actions: {} }, new: { acted: 0, actions: {} },
    comparison: { ...zero, ...c }, sentences: ['the mock\'s own sentences'],
  });
  const tail = ' (every count is in the Security Events view).';
  assert.deepEqual(brief(0, {}), [], 'no request: the question says neither rule set has acted');
  assert.deepEqual(brief(1, {}), [`Of 1 request, neither rule set blocks any${tail}`]);
  assert.deepEqual(brief(50, { bothBlock: 4 }), [`Of 50 requests, both rule sets block the same 4${tail}`]);
  assert.deepEqual(brief(50, { previousBlockedNowPass: 1, previousBlockedNewLogs: 2 }), [`Of 50 requests, the new rules would let through 3 the previous ones blocked${tail}`]);
  assert.deepEqual(brief(50, { newBlocksPreviousPassed: 5, bothBlock: 1 }), [`Of 50 requests, the new rules would block 5 the previous ones did not; both block 1${tail}`]);
  assert.deepEqual(brief(50, { newBlocksPreviousLogged: 1, previousBlockedNowPass: 1, bothBlock: 2 }),
    [`Of 50 requests, the new rules would block 1 the previous ones did not, and let through 1 they blocked; both block 2${tail}`]);
  assert.deepEqual(brief(50, { bothBlock: 4 }, 'migrated'), ['the mock\'s own sentences'], 'outside validation mode, the summary\'s sentences');
});

// ---- zones named in Unicode (rv29) ----

import { zoneFileSafe } from '../../../client/src/untitled';
import { migrationCommands } from '../../../client/src/commands/migration';

test('a zone\'s document name is its A-labels: two Unicode names fileSafe made one stay two; ASCII and invalid names as before', () => {
  // rv29: through fileSafe "bücher.x" and "bächer.x" were both "b_cher.x".
  assert.equal(zoneFileSafe('bücher.x'), 'xn--bcher-kva.x');
  assert.equal(zoneFileSafe('bächer.x'), 'xn--bcher-gra.x');
  assert.equal(zoneFileSafe('Bücher.Test'), 'xn--bcher-kva.test');
  for (const ascii of ['pro.example', 'Pro.Example', 'a b', 'x/y', '']) assert.equal(zoneFileSafe(ascii), ascii.replace(/[^\w.-]+/g, '_'), ascii);
  // No A-label form (a space; a character IDNA refuses): fileSafe's treatment, as before
  assert.equal(zoneFileSafe('ü b.x'), '_b.x');
  assert.equal(zoneFileSafe('bü<cher.x'), 'b_cher.x');
  // pt1: a name Windows reads as a device (alone or before a dot) is no file name there; its documents get a "_" before it.
  for (const [zone, name] of [['aux.io', '_aux.io'], ['NUL.example', '_NUL.example'], ['com1.net', '_com1.net'], ['lpt9.org', '_lpt9.org'], ['con', '_con']]) {
    assert.equal(zoneFileSafe(zone), name, zone);
  }
  for (const zone of ['console.io', 'auxiliary.net', 'com.example', 'com10.net', 'nul-x.org', 'x.con']) assert.equal(zoneFileSafe(zone), zone, zone);
});

/**
 * Runs `fn` with the mock's zone list renamed on its way to the client (`names`: the mock's name → the one listed), as a backend
 * whose zones are named in Unicode lists them (the mock's are ASCII); every other answer, and every request, as it is.
 */
async function withZonesListedAs(names: Record<string, string>, fn: () => Promise<void>): Promise<void> {
  const real = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const res = await real(input, init);
    if ((init?.method ?? 'GET') !== 'GET' || !/\/zones$/.test(new URL(String(input)).pathname)) return res;
    const body = await res.json() as { result: { name: string }[] };
    for (const z of body.result) z.name = names[z.name] ?? z.name;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: res.status, headers });
  };
  try {
    await fn();
  } finally {
    globalThis.fetch = real;
  }
}

test('Open New Configuration and the Terraform export of two zones whose Unicode names fileSafe made one: a document each', async () => {
  // rv29: bücher.example and bächer.example were both b_cher.example.ruleset.json: opening the second wrote its configuration over
  // the first's document, which Test Rules' zone record then said was bächer's.
  await withZonesListedAs({ 'pro.example': 'bücher.example', 'business.example': 'bächer.example' }, () => withMock(async (mock) => {
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    assert.equal((await migrate(ctx, 'bächer.example')).name, 'migrated');
    const open = migrationCommands['edgekit.migration.openConfig'](ctx);
    const [bucher, bacher] = [await open('bücher.example'), await open('bächer.example')];
    assert.deepEqual([bucher, bacher].map((u) => u.split('/').pop()), ['xn--bcher-kva.example.ruleset.json', 'xn--bcher-gra.example.ruleset.json']);
    assert.deepEqual([bucher, bacher].map((u) => ctx.rulesetZones.zoneOf(u)), ['bücher.example', 'bächer.example']);
    // bücher's (not migrated) is derived from its previous rules, with its page rule's path; bächer's is its deployed entry point
    assert.notEqual(fake.documents.get(bucher)!.getText(), fake.documents.get(bacher)!.getText());
    await migrationCommands['edgekit.migration.exportTerraform'](ctx)('bächer.example');
    assert.equal([...fake.documents.values()].find((d) => d.uri.path.endsWith('.tf'))?.uri.path.split('/').pop(), 'xn--bcher-gra.example.managed-rules.tf');
  }));
});
test('two zones whose Unicode names fileSafe made one have review documents of their own: one\'s kept review is never the other\'s', async () => {
  // rv29: bücher.example and bächer.example were both reviewed in b_cher.example.ruleset.json. A failed run left bücher's review
  // with the user's exception; bächer's run then asked whether to keep "a configuration of bächer.example" that was bücher's,
  // "Keep It" deployed it to bächer, and Test Rules' zone record took bücher's document for bächer's.
  await withZonesListedAs({ 'pro.example': 'bücher.example', 'business.example': 'bächer.example' }, () => withMock(async (mock) => {
    const exception = { action: 'skip', expression: '(http.host eq "dev.xn--bcher-kva.example")', description: 'Added in the review', enabled: true, action_parameters: { ruleset: 'current' } };
    const review = () => [...fake.documents.values()].filter((d) => d.uri.path.endsWith('.ruleset.json')).at(-1)!;
    let edited = false;
    const { ctx, asked } = ctxFor(mock, (q, options) => {
      if (!edited && /^Review the new configuration of bücher\.example/.test(q)) {
        edited = true;
        const cfg = JSON.parse(review().getText());
        editDocument(review(), JSON.stringify({ ...cfg, rules: [exception, ...cfg.rules] }, null, 2) + '\n');
      }
      return options.includes('Keep It') ? 'Keep It' : options[0];
    });
    const failed = await migrate(ctx, 'bücher.example');
    assert.equal(failed.name, 'failed', JSON.stringify(failed));
    const kept = review();
    assert.equal(kept.uri.path.split('/').pop(), 'xn--bcher-kva.example.ruleset.json');
    assert.match(kept.getText(), /Added in the review/);

    const done = await migrate(ctx, 'bächer.example');
    assert.equal(done.name, 'migrated', JSON.stringify(done));
    assert.deepEqual(asked.filter((a) => /already holds/.test(a.q)).map((a) => a.q), [], 'bächer\'s review is not bücher\'s document');
    const reviewed = asked.find((a) => /^Review the new configuration of bächer\.example/.test(a.q));
    assert.match(reviewed?.q ?? '', / in xn--bcher-gra\.example\.ruleset\.json /);
    const auth = { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } };
    const id = ((await (await fetch(`${mock.apiBaseUrl}/zones?name=business.example`, auth)).json()) as { result: { id: string }[] }).result[0].id;
    const ep = await (await fetch(`${mock.apiBaseUrl}/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`, auth)).json() as { result: { rules: { description?: string }[] } };
    assert.ok(!ep.result.rules.some((r) => r.description === 'Added in the review'), 'bücher\'s exception is not deployed to bächer');
    assert.match(kept.getText(), /Added in the review/, 'bücher\'s review is left as it was');
    assert.equal(ctx.rulesetZones.zoneOf(kept.uri.toString()), 'bücher.example');
  }, { rateLimit: false, fail: { match: /^PUT .*\/entrypoint/, status: 500, times: 1 } }));
});
