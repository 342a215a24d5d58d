// The zone a ruleset document is the configuration of (client/src/rulesetZones.ts), as the Zones view's "Open New Configuration"
// and a migration's review tell it, and Test Rules' use of it: the generated sample's requests go to that zone (tz17: they went to
// example.com whatever the zone, so a migrated zone's rule on its own host matched none of them).
import { addDocument, CancellationError, closeDocument, fake, languages, resetFake, saveAs, workspace, type FakeDocument } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RulesetZones } from '../../../client/src/rulesetZones';
import { JobScopes } from '../../../client/src/jobScopes';
import { logpushTestCommands } from '../../../client/src/commands/logpush';
import { migrate, migrationCommands } from '../../../client/src/commands/migration';
import { Reports } from '../../../client/src/views/reports';
import { ctxFor, never, until, withMock } from './migrationCtx';
import type { MockBackend } from '../../../mock/src/backend';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

/** `ctx` with a RulesetZones that forgets closed documents (as extension.ts wires it), and a language server that finds no errors
 * and answers Test Rules, recording its requests. */
function withRulesetZones(ctx: Ctx): { params: () => Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  ctx.rulesetZones = new RulesetZones();
  ctx.rulesetZones.forgetOnClose(workspace.onDidCloseTextDocument);
  ctx.reports = new Reports();
  ctx.server = { request: async (type: { method: string }, params: Record<string, unknown>) => {
    if (type.method !== 'edgekit/testRules') return { kind: 'waf-ruleset', problems: { errors: 0, warnings: 0 } };
    sent.push(params);
    return { total: 1, undecided: 1, executed: 0, source: 'sample', rules: [] };
  } } as unknown as Ctx['server'];
  return { params: () => sent };
}

test('a ruleset document\'s zone is known until the document closes; a change of its language (closed and opened, still open) keeps it', async () => {
  const zones = new RulesetZones();
  const sub = zones.forgetOnClose(workspace.onDidCloseTextDocument);
  const doc = addDocument('untitled:/ws/shop.test.ruleset.json', 'waf-ruleset', '{"rules": []}');
  const other = addDocument('file:///ws/other.ruleset.json', 'waf-ruleset', '{"rules": []}');
  zones.set(doc.uri.toString(), 'shop.test');
  assert.equal(zones.zoneOf(doc.uri.toString()), 'shop.test');
  assert.equal(zones.zoneOf(other.uri.toString()), undefined, 'a ruleset the client did not open as a zone\'s');
  await languages.setTextDocumentLanguage(doc, 'json');
  assert.equal(zones.zoneOf(doc.uri.toString()), 'shop.test');
  closeDocument(other);
  assert.equal(zones.zoneOf(doc.uri.toString()), 'shop.test', 'another document closed');
  closeDocument(doc);
  assert.equal(zones.zoneOf(doc.uri.toString()), undefined);
  sub.dispose();
});

test('a zone\'s configuration opened from the Zones view: Test Rules\' sample goes to that zone until the document closes; a file of requests has no zone', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    const { params } = withRulesetZones(ctx);
    try {
      const uri = await migrationCommands['edgekit.migration.openConfig'](ctx)('pro.example') as string;
      assert.equal(ctx.rulesetZones.zoneOf(uri), 'pro.example');
      const doc = fake.documents.get(uri)!;
      fake.quickPickAnswers = ['Generated sample'];
      await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(doc.uri);
      const picked = fake.quickPicks[0];
      assert.match(picked.descriptions[picked.labels.indexOf('Generated sample')] ?? '', /^1,000 requests to pro\.example, about a tenth/);
      assert.equal(params().at(-1)?.zone, 'pro.example');
      // A file of requests picked instead: the zone is the sample's only
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-rulesetzones-'));
      try {
        const file = path.join(dir, 'r.ndjson');
        fs.writeFileSync(file, '{"http.host": "a.test"}\n');
        await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(doc.uri, file);
        assert.deepEqual([params().at(-1)?.requests, params().at(-1)?.zone], [file, undefined]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      // Closed, then opened again (an untitled document of that name is any text now): example.com's sample, as for any ruleset
      closeDocument(doc);
      assert.equal(ctx.rulesetZones.zoneOf(uri), undefined);
      const again = addDocument(uri, 'waf-ruleset', '{"rules": []}');
      fake.quickPickAnswers = ['Generated sample'];
      await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(again.uri);
      const asked = fake.quickPicks.at(-1)!;
      assert.match(asked.descriptions[asked.labels.indexOf('Generated sample')] ?? '', /^1,000 requests, about a tenth/);
      assert.equal(params().at(-1)?.zone, undefined);
    } finally {
      ctx.reports.dispose();
    }
  });
});

test('a migration\'s review: Test Rules\' sample goes to the zone, in the untitled review and in the file it is saved as, until that closes', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const { params } = withRulesetZones(ctx);
    try {
      const running = migrate(ctx, 'pro.example');
      const review = await until('the review', () => [...fake.documents.values()].find((d): d is FakeDocument => d.uri.scheme === 'untitled' && d.uri.path.endsWith('pro.example.ruleset.json')));
      assert.equal(ctx.rulesetZones.zoneOf(review.uri.toString()), 'pro.example');
      await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(review.uri, 'sample');
      assert.equal(params().at(-1)?.zone, 'pro.example');
      // Saved as a file, which the review follows: that file is the zone's review now
      const saved = saveAs(review, 'file:///work/pro-review.ruleset.json');
      await until('the saved file known', () => ctx.rulesetZones.zoneOf(saved.uri.toString()));
      assert.equal(ctx.rulesetZones.zoneOf(review.uri.toString()), undefined, 'the untitled review closed');
      await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(saved.uri, 'sample');
      assert.equal(params().at(-1)?.zone, 'pro.example');
      await migrationCommands['edgekit.migration.cancel'](ctx)(saved.uri);
      await running;
      closeDocument(saved);
      assert.equal(ctx.rulesetZones.zoneOf(saved.uri.toString()), undefined);
    } finally {
      ctx.reports.dispose();
    }
  });
});

// mt4 (docs/architecture.md, "Mutation sample, fourth pass"): the review's file closed and read again on Continue is the zone's
// review again, as the file was before it closed.
test('a migration\'s review file closed, then read again on Continue: the document read again is the zone\'s again', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    withRulesetZones(ctx);
    try {
      const running = migrate(ctx, 'pro.example');
      const review = await until('the review', () => [...fake.documents.values()].find((d): d is FakeDocument => d.uri.scheme === 'untitled' && d.uri.path.endsWith('pro.example.ruleset.json')));
      const saved = saveAs(review, 'file:///work/pro-review.ruleset.json');
      await until('the saved file known', () => ctx.rulesetZones.zoneOf(saved.uri.toString()));
      closeDocument(saved);
      assert.equal(ctx.rulesetZones.zoneOf(saved.uri.toString()), undefined, 'closed: forgotten');
      await migrationCommands['edgekit.migration.continue'](ctx)();
      await running;
      assert.equal(ctx.rulesetZones.zoneOf(saved.uri.toString()), 'pro.example');
    } finally {
      ctx.reports.dispose();
    }
  });
});

// tz18: a document of no known zone (a filter file, a ruleset the user wrote) on the user's own host matched none of the generated
// sample, whose hosts were example.com's; the question offers the sample for a zone the user picks, whose name goes to the server.
/** Runs `fn` with a Ctx on a mock answering Test Filter and Test Rules (recording what each was sent), an http_requests filter and a
 * ruleset of no zone; the reports disposed of after. */
async function withSampleCtx(fn: (s: { ctx: Ctx; mock: MockBackend; sent: { method: string; params: Record<string, unknown> }[]; filter: FakeDocument; ruleset: FakeDocument }) => Promise<void>): Promise<void> {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, (_q, options) => options[0]);
    const sent: { method: string; params: Record<string, unknown> }[] = [];
    ctx.reports = new Reports();
    ctx.jobScopes = new JobScopes(() => undefined);
    ctx.server = { request: async (type: { method: string }, params: Record<string, unknown>) => {
      if (type.method === 'edgekit/testFilter') { sent.push({ method: type.method, params }); return { matched: 0, total: 1, source: 'sample', dataset: 'http_requests', branches: { label: 'x', matched: 0, children: [] }, firstMatches: [] }; }
      if (type.method === 'edgekit/testRules') { sent.push({ method: type.method, params }); return { total: 1, undecided: 1, executed: 0, source: 'sample', rules: [] }; }
      return { kind: 'logpush-filter', problems: { errors: 0, warnings: 0 } };
    } } as unknown as Ctx['server'];
    const filter = addDocument('file:///ws/mine.filter.json', 'logpush-filter', '{"where": {"key": "ClientRequestHost", "operator": "eq", "value": "pro.example"}}');
    const ruleset = addDocument('file:///ws/mine.ruleset.json', 'waf-ruleset', '{"rules": []}');
    try {
      await fn({ ctx, mock, sent, filter, ruleset });
    } finally {
      ctx.reports.dispose();
    }
  });
}

test('Test Filter and Test Rules on a document of no known zone offer the sample for a zone: picked, the zone\'s name is sent', async () => {
  await withSampleCtx(async ({ ctx, sent, filter, ruleset }) => {
    fake.quickPickAnswers = ['Generated sample for a zone…', 'pro.example'];
    await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri);
    assert.deepEqual(fake.quickPicks[0].labels, ['Generated sample', 'Generated sample for a zone…', 'Choose a log file…', 'Last delivered batch']);
    assert.equal(fake.quickPicks[0].descriptions[1], 'the sample\'s hosts are the zone\'s');
    assert.equal(fake.quickPicks[1].title, 'Generate the sample for which zone?');
    assert.ok(fake.quickPicks[1].labels.includes('business.example'), fake.quickPicks[1].labels.join(', '));
    assert.deepEqual([sent.at(-1)?.method, sent.at(-1)?.params.logs, sent.at(-1)?.params.zone], ['edgekit/testFilter', undefined, 'pro.example']);
    fake.quickPickAnswers = ['Generated sample for a zone…', 'business.example'];
    await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(ruleset.uri);
    assert.deepEqual(fake.quickPicks[2].labels, ['Generated sample', 'Generated sample for a zone…', 'Choose a file…', 'Last delivered batch']);
    assert.deepEqual([sent.at(-1)?.method, sent.at(-1)?.params.requests, sent.at(-1)?.params.zone], ['edgekit/testRules', undefined, 'business.example']);
    // Not remembered: the next run asks again, and the plain sample is example.com's
    fake.quickPickAnswers = ['Generated sample'];
    await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(ruleset.uri);
    assert.equal(fake.quickPicks.length, 5);
    assert.deepEqual([sent.at(-1)?.method, sent.at(-1)?.params.zone], ['edgekit/testRules', undefined]);
  });
});

test('the zone\'s pick dismissed cancels the test: nothing is sent', async () => {
  await withSampleCtx(async ({ ctx, sent, filter, ruleset }) => {
    fake.quickPickAnswers = ['Generated sample for a zone…', undefined];
    await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri) as Promise<unknown>, CancellationError);
    fake.quickPickAnswers = ['Generated sample for a zone…', undefined];
    await assert.rejects(logpushTestCommands['edgekit.ruleset.testRules'](ctx)(ruleset.uri) as Promise<unknown>, CancellationError);
    assert.deepEqual(fake.quickPicks.map((q) => q.title), ['Test the filter on which logs?', 'Generate the sample for which zone?', 'Test on which requests?', 'Generate the sample for which zone?']);
    assert.deepEqual(sent, []);
  });
});

test('a document whose zone is known is not offered the sample for a zone: its own sample is that zone\'s', async () => {
  await withSampleCtx(async ({ ctx, sent, ruleset }) => {
    ctx.rulesetZones.set(ruleset.uri.toString(), 'pro.example');
    fake.quickPickAnswers = ['Generated sample'];
    await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(ruleset.uri);
    assert.deepEqual(fake.quickPicks[0].labels, ['Generated sample', 'Choose a file…', 'Last delivered batch']);
    assert.equal(sent.at(-1)?.params.zone, 'pro.example');
    const job = addDocument('file:///ws/shop.logpush.json', 'logpush-job', '{"id": 5, "name": "p", "dataset": "http_requests", "destination_conf": "s3://b/l"}');
    ctx.jobScopes.set(job.uri.toString(), { owner: { zone: 'z1' }, ownerName: 'shop.test' }, 5);
    fake.quickPickAnswers = ['Generated sample'];
    await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(job.uri);
    assert.ok(!fake.quickPicks[1].labels.includes('Generated sample for a zone…'), fake.quickPicks[1].labels.join(', '));
    assert.equal(sent.at(-1)?.params.zone, 'shop.test');
  });
});

test('the sample for a zone: not offered where the backend\'s zones cannot be read (remote, untrusted); refused saying why when no backend answers', async () => {
  await withSampleCtx(async ({ ctx, mock, sent, filter }) => {
    fake.settings.set('backend', 'remote');
    workspace.isTrusted = false;
    try {
      fake.quickPickAnswers = ['Generated sample'];
      await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri);
      assert.deepEqual(fake.quickPicks[0].labels, ['Generated sample', 'Choose a log file…'], 'other backend reads are refused there');
      // The embedded mock answers in an untrusted window: offered
      fake.settings.set('backend', 'embedded');
      fake.quickPickAnswers = [undefined];
      await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri) as Promise<unknown>, CancellationError);
      assert.ok(fake.quickPicks[1].labels.includes('Generated sample for a zone…'));
    } finally {
      workspace.isTrusted = true;
    }
    // A backend that does not answer: the zone commands' refusal, naming it; nothing tested
    await mock.close();
    fake.quickPickAnswers = ['Generated sample for a zone…'];
    await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri) as Promise<unknown>, /Cannot list zones: GET .*\/zones failed: connection refused/);
    assert.equal(sent.length, 1, 'only the first run\'s plain sample');
  });
});
