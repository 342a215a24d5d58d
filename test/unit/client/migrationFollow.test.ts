// The review followed once it leaves its untitled document (review rv12 of mig8's follow): saved under a name that is none of
// EdgeKit's languages, its language changed, the saved file closed, saved as a file twice, and two reviews of equal text.
import { codeLenses, commands, editDocument, fake, resetFake, saveAs, saveDocument, closeDocument, languages, workspace, Uri, type FakeDocument } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, migrationCommands } from '../../../client/src/commands/migration';
import { ctxFor, never, until, withMock } from './migrationCtx';
import type { Ctx } from '../../../client/src/ctx';
import type { MockBackend } from '../../../mock/src/backend';

beforeEach(() => resetFake());

const reviewDoc = (zone: string): FakeDocument | undefined =>
  [...fake.documents.values()].find((d) => d.uri.scheme === 'untitled' && d.uri.path.endsWith(`${zone}.ruleset.json`));

/** The review document of `zone`, once its lenses are there (the wait has begun). */
async function waitingReview(zone: string): Promise<FakeDocument> {
  const doc = await until(`the review of ${zone}`, () => reviewDoc(zone));
  await until('the review lenses', async () => ((await codeLenses(doc)).length ? true : undefined));
  return doc;
}

function contextKey(key: string): unknown {
  return commands.executed.filter((c) => c[0] === 'setContext' && c[1] === key).at(-1)?.[2];
}

async function run(ctx: Ctx, id: string, ...args: unknown[]): Promise<unknown> {
  return migrationCommands[id as keyof typeof migrationCommands](ctx)(...args as [unknown]);
}

/** The zone's entry point rules' descriptions, as the mock holds them (none before a migration deploys one). */
async function deployedDescriptions(mock: MockBackend, zoneName: string): Promise<string[]> {
  const auth = { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } };
  const id = (await (await fetch(`${mock.apiBaseUrl}/zones?name=${zoneName}`, auth)).json() as { result: { id: string }[] }).result[0].id;
  const ep = await (await fetch(`${mock.apiBaseUrl}/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`, auth)).json() as { result?: { rules?: { description?: string }[] } };
  return (ep.result?.rules ?? []).map((r) => r.description ?? '');
}

/** `doc`'s configuration with one more rule first, described `description`. */
function withRule(doc: FakeDocument, description: string): string {
  const cfg = JSON.parse(doc.getText()) as { rules: unknown[] };
  const rule = { action: 'skip', expression: '(http.host eq "dev.example")', description, enabled: true, action_parameters: { ruleset: 'current' } };
  return JSON.stringify({ ...cfg, rules: [rule, ...cfg.rules] }, null, 2) + '\n';
}

test('a review saved as plain .json (a language the server is not given): Continue does not deploy it unchecked; as a WAF ruleset it does', async () => {
  // The language server is given EdgeKit's languages only: for pro-review.json (json) it answers kind null and no problems, which
  // Continue took for "no errors", deploying a review nothing had checked.
  await withMock(async (mock) => {
    const { ctx, asked } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const untitled = await waitingReview('pro.example');
    const saved = saveAs(untitled, 'file:///work/pro-review.json', { languageId: 'json' });
    await until('the lens on the saved file', async () => ((await codeLenses(saved)).length ? true : undefined));
    await run(ctx, 'edgekit.migration.continue', saved.uri);
    const q = await until('the question that it was not checked', () => asked.find((a) => /not checked as a WAF ruleset/.test(a.q)));
    assert.match(q.q, /pro-review\.json .*"json".*WAF Ruleset/);
    assert.deepEqual(await deployedDescriptions(mock, 'pro.example'), [], 'nothing deployed');
    const lens = await until('the lens saying so', async () => (await codeLenses(saved)).find((l) => /WAF ruleset/.test(l.command!.title)));
    assert.equal(lens.command!.command, '');
    // Its language set to WAF Ruleset (Change Language Mode): the server checks it, the lens follows, and Continue deploys it.
    await languages.setTextDocumentLanguage(saved, 'waf-ruleset');
    await until('the lens cleared', async () => ((await codeLenses(saved)).some((l) => /WAF ruleset/.test(l.command!.title)) ? undefined : true));
    await run(ctx, 'edgekit.migration.continue', saved.uri);
    const end = await running;
    assert.equal(end.name, 'migrated', JSON.stringify(end));
  });
});

test('the untitled review\'s language changed to JSON: Continue says it is not checked, and nothing is deployed', async () => {
  await withMock(async (mock) => {
    const { ctx, asked } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const doc = await waitingReview('pro.example');
    await languages.setTextDocumentLanguage(doc, 'json');
    assert.ok(!doc.isClosed);
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), ['pro.example.ruleset.json'], 'still the review (a language change is no close)');
    await run(ctx, 'edgekit.migration.continue', doc.uri);
    await until('the question that it was not checked', () => asked.find((a) => /not checked as a WAF ruleset/.test(a.q)));
    await run(ctx, 'edgekit.migration.cancel', doc.uri);
    const end = await running;
    assert.ok(end.name === 'cancelled' && end.zoneState === 'start', JSON.stringify(end));
  });
});

test('the saved review\'s file closed (its tab): the review is the file as saved, not "closed without being saved"', async () => {
  await withMock(async (mock) => {
    const { ctx, asked } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const untitled = await waitingReview('pro.example');
    const saved = saveAs(untitled, 'file:///work/pro-review.ruleset.json');
    editDocument(saved, withRule(saved, 'Saved before closing'));
    saveDocument(saved);
    closeDocument(saved);
    assert.doesNotMatch(fake.progressReports.at(-1)!, /without being saved/, fake.progressReports.at(-1));
    assert.match(fake.progressReports.at(-1)!, /pro-review\.ruleset\.json/);
    await run(ctx, 'edgekit.migration.continue');
    const end = await running;
    assert.equal(end.name, 'migrated', `${JSON.stringify(end)} ${JSON.stringify(asked.map((a) => a.q))}`);
    assert.ok((await deployedDescriptions(mock, 'pro.example')).includes('Saved before closing'), 'the file as saved was deployed');
  });
});

test('Save As twice, the first file edited (dirty) before the second Save As: the wait follows the second file and deploys its text', async () => {
  // VS Code reverts a dirty file source after Save As (its text goes back to the file's), then its editor is replaced: the closed
  // source's last text is not the target's, and mig8's match by that text found nothing ("closed without being saved").
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const untitled = await waitingReview('pro.example');
    const first = saveAs(untitled, 'file:///work/pro-review.ruleset.json');
    editDocument(first, withRule(first, 'Edited, then saved as another file'));
    const second = saveAs(first, 'file:///work/pro-final.ruleset.json');
    assert.ok(first.isClosed);
    assert.doesNotMatch(fake.progressReports.at(-1)!, /without being saved/, fake.progressReports.at(-1));
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), ['pro-final.ruleset.json']);
    await run(ctx, 'edgekit.migration.continue', second.uri);
    const end = await running;
    assert.equal(end.name, 'migrated', JSON.stringify(end));
    assert.ok((await deployedDescriptions(mock, 'pro.example')).includes('Edited, then saved as another file'));
  });
});

test('two reviews of equal text: one saved as a file, the other closed without a save does not take that file for its own', async () => {
  // The other review's wait saw the file opened and saved (with its text): closed, it followed the first zone's file, and its
  // Continue would deploy that zone's review to the other zone.
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const a = migrate(ctx, 'pro.example');
    const reviewA = await waitingReview('pro.example');
    const b = migrate(ctx, 'business.example');
    const reviewB = await waitingReview('business.example');
    editDocument(reviewB, reviewA.getText());
    const saved = saveAs(reviewA, 'file:///work/pro-review.ruleset.json');
    closeDocument(reviewB);
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), ['pro-review.ruleset.json'], 'one review on the file: the pro zone\'s');
    assert.match(fake.progressReports.filter((p) => /business\.example/.test(p)).at(-1) ?? '', /closed without being saved/);
    await run(ctx, 'edgekit.migration.cancel', 'business.example');
    const endB = await b;
    assert.ok(endB.name === 'cancelled' && endB.zoneState === 'start', JSON.stringify(endB));
    await run(ctx, 'edgekit.migration.continue', saved.uri);
    assert.equal((await a).name, 'migrated');
    assert.deepEqual(await deployedDescriptions(mock, 'business.example'), [], 'nothing deployed to the other zone');
  });
});

test('a file of the same text opened during the wait, then the review edited and closed without a save: that file is not followed', async () => {
  // Each document seen is kept with whether it held the review's text then (for Save As of a dirty file, whose source is reverted):
  // an edit of the review since makes that stale, or a file the user only opened to compare would be taken for the review.
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    // A first run's review saved as copy.ruleset.json, its tab closed, the run cancelled.
    const first = migrate(ctx, 'pro.example');
    const copy = saveAs(await waitingReview('pro.example'), 'file:///work/copy.ruleset.json');
    closeDocument(copy);
    await run(ctx, 'edgekit.migration.cancel');
    await first;
    // The next run's review (the same text), the copy opened beside it, the review edited, then closed with Don't Save.
    const again = migrate(ctx, 'pro.example');
    const review = await waitingReview('pro.example');
    const opened = await workspace.openTextDocument(Uri.parse('file:///work/copy.ruleset.json'));
    assert.equal(opened.getText(), review.getText());
    editDocument(review, withRule(review, 'Edited, then discarded'));
    closeDocument(review);
    assert.match(fake.progressReports.at(-1)!, /^pro\.example\.ruleset\.json was closed without being saved/, fake.progressReports.at(-1));
    await run(ctx, 'edgekit.migration.cancel');
    assert.equal((await again).name, 'cancelled');
  });
});
