// The migration's questions that wait (the review's Continue, validation mode's question) answered where the user looks: a lens at
// the top of the review document, its title bar and the palette (edgekit.migration.continue / .cancel, shown while a question
// waits), not only the notification, which VS Code hides after a few seconds or once the user clicks into the document (ui6's walk).
// And the review checked again as it changes, so that what the lens and the progress say matches the document.
import { codeLenses, commands, editDocument, fake, resetFake, activate, saveAs, closeDocument, type FakeDocument } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { migrate, migrationCommands } from '../../../client/src/commands/migration';
import { ctxFor, never, until, withMock } from './migrationCtx';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

const reviewDoc = (zone: string): FakeDocument | undefined => [...fake.documents.values()].find((d) => d.uri.path.endsWith(`${zone}.ruleset.json`));

/** The last value the client gave a context key (setContext). */
function contextKey(key: string): unknown {
  return commands.executed.filter((c) => c[0] === 'setContext' && c[1] === key).at(-1)?.[2];
}

async function run(ctx: Ctx, id: string, ...args: unknown[]): Promise<unknown> {
  return migrationCommands[id as keyof typeof migrationCommands](ctx)(...args as [unknown]);
}

test('a review whose question nobody answers is continued from the lens at the top of the review document', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const doc = await until('the review document', () => reviewDoc('pro.example'));
    const lenses = await until('the review lenses', async () => { const l = await codeLenses(doc); return l.length ? l : undefined; });
    assert.equal(contextKey('edgekit.migration.waiting'), true, 'the palette commands show while the review waits');
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), ['pro.example.ruleset.json'], 'the title bar buttons show on the review document');
    const titles = lenses.map((l) => l.command!.title);
    assert.ok(titles.some((t) => /Continue/.test(t)) && titles.some((t) => /Cancel/.test(t)), titles.join(' | '));
    assert.deepEqual((lenses[0].range.start as { line: number }).line, 0, 'at the top of the document');
    assert.match(fake.progressReports.at(-1) ?? '', /top of the document/);
    const go = lenses.find((l) => /Continue/.test(l.command!.title))!.command!;
    await run(ctx, go.command, ...(go.arguments ?? []));
    const end = await running;
    assert.equal(end.name, 'migrated', JSON.stringify(end));
    assert.equal(contextKey('edgekit.migration.waiting'), false, 'hidden again once nothing waits');
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), []);
    assert.deepEqual(await codeLenses(doc), [], 'the lenses go with the wait');
  });
});

test('Cancel from the palette (no argument) cancels the review of the active document: nothing is sent', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async () => never());
    const running = migrate(ctx, 'pro.example');
    const doc = await until('the review document', () => reviewDoc('pro.example'));
    await until('the wait', () => contextKey('edgekit.migration.waiting') === true);
    activate(doc);
    await run(ctx, 'edgekit.migration.cancel');
    const end = await running;
    assert.ok(end.name === 'cancelled' && end.zoneState === 'start', JSON.stringify(end));
    assert.match(fake.messages.at(-1)!.text, /^Cancelled; nothing was sent to zone "pro\.example"/);
  });
});

test('with nothing waiting, Continue says so; with two zones waiting and no document of theirs active, it asks which', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async () => never());
    await assert.rejects(run(ctx, 'edgekit.migration.continue') as Promise<unknown>, /No migration is waiting/);
    const a = migrate(ctx, 'pro.example');
    const b = migrate(ctx, 'business.example');
    await until('both reviews', () => (contextKey('edgekit.migration.reviewing') as string[] | undefined)?.length === 2);
    fake.quickPickAnswers = ['business.example'];
    await run(ctx, 'edgekit.migration.cancel');
    assert.deepEqual(fake.quickPicks.at(-1)!.labels.sort(), ['business.example', 'pro.example']);
    assert.equal((await b).name, 'cancelled');
    await run(ctx, 'edgekit.migration.cancel'); // one left: no question
    assert.equal(fake.quickPicks.length, 1);
    assert.equal((await a).name, 'cancelled');
  });
});

test('validation mode\'s question, once hidden, is answered from "EdgeKit: Continue Migration" with its own options', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (q, options, modal) => (modal ? (options.includes('Validation Mode') ? 'Validation Mode' : options[0])
      : /^Review the new configuration/.test(q) ? 'Continue' : never()));
    const running = migrate(ctx, 'enterprise.example');
    await until('the validation question', () => /^Validation mode: waiting for your answer/.test(fake.progressReports.at(-1) ?? '') && contextKey('edgekit.migration.waiting') === true);
    assert.match(fake.progressReports.at(-1)!, /EdgeKit: Continue Migration/);
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), [], 'no review document waits: no title bar buttons');
    fake.quickPickAnswers = ['Later'];
    await run(ctx, 'edgekit.migration.continue');
    assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['Inspect Security Events', 'Review and Finish', 'Later']);
    const end = await running;
    assert.ok(end.name === 'cancelled' && end.zoneState === 'validation', JSON.stringify(end));
  });
});

test('a typo fixed in the review while its error waits: the lens and the progress follow the document, and the review is asked again', async () => {
  // ui6's walk: after the typo was fixed, the question kept saying 'Unexpected word "trupe"' until Continue was pressed again.
  await withMock(async (mock) => {
    let good = '';
    let reviews = 0;
    const { ctx, asked } = ctxFor(mock, async (q, options, modal) => {
      if (modal) return options[0];
      const doc = reviewDoc('pro.example')!;
      if (/^Review the new configuration/.test(q) && ++reviews === 1) {
        good = doc.getText();
        editDocument(doc, good.replace('"enabled": true', '"enabled": trupe'));
        return 'Continue';
      }
      return /^Review the new configuration/.test(q) ? 'Continue' : never();
    });
    const running = migrate(ctx, 'pro.example');
    await until('the error question', () => asked.some((a) => /cannot be deployed/.test(a.q)));
    const doc = reviewDoc('pro.example')!;
    const warned = await until('the lens saying the error', async () => (await codeLenses(doc)).find((l) => /trupe/.test(l.command!.title)));
    assert.equal(warned.command!.command, '', 'the error is said, not a button');
    editDocument(doc, good);
    const end = await running; // the review is asked again once fixed, and its fake notification answers Continue
    assert.equal(end.name, 'migrated', JSON.stringify(end));
    assert.equal(reviews, 2, JSON.stringify(asked));
    const i = fake.progressReports.findIndex((p) => /trupe/.test(p));
    assert.ok(i >= 0, 'the progress said the error');
    assert.match(fake.progressReports[i + 1], /^Waiting for your review of pro\.example\.ruleset\.json/, 'then, once fixed, that the review waits');
  });
});

test('a review saved as a file while it waits: the wait follows the saved document (its lens, title bar, and what Continue deploys)', async () => {
  // Save As of the untitled review closes it (VS Code opens the file's document, saves it, then reverts the untitled one): the wait
  // stayed on the closed document, and Continue deployed its last text, not the edits made in the saved file.
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const untitled = await until('the review document', () => reviewDoc('pro.example'));
    await until('the review lenses', async () => ((await codeLenses(untitled)).length ? true : undefined));
    activate(untitled);
    const saved = saveAs(untitled, 'file:///work/reviews/pro-review.ruleset.json');
    assert.ok(untitled.isClosed);
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), ['pro-review.ruleset.json'], 'the title bar buttons follow the saved file');
    assert.deepEqual(await codeLenses(untitled), [], 'no lens on the closed document');
    const lenses = await codeLenses(saved);
    const go = lenses.find((l) => /Continue/.test(l.command!.title))?.command;
    assert.ok(go, 'the lens is on the saved document');
    assert.equal(String(go.arguments?.[0]), saved.uri.toString());
    assert.match(fake.progressReports.at(-1)!, /pro-review\.ruleset\.json/, 'the progress names the saved document');
    // An edit in the saved file is what Continue deploys.
    const cfg = JSON.parse(saved.getText()) as { rules: unknown[] };
    const exception = { action: 'skip', expression: '(http.host eq "dev.pro.example")', description: 'Added after Save As', enabled: true, action_parameters: { ruleset: 'current' } };
    editDocument(saved, JSON.stringify({ ...cfg, rules: [exception, ...cfg.rules] }, null, 2) + '\n');
    await run(ctx, 'edgekit.migration.continue'); // from the palette, the saved document active
    const end = await running;
    assert.equal(end.name, 'migrated', JSON.stringify(end));
    const id = (await (await fetch(`${mock.apiBaseUrl}/zones?name=pro.example`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { id: string }[] }).result[0].id;
    const ep = await (await fetch(`${mock.apiBaseUrl}/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint`, { headers: { authorization: `Bearer ${mock.credentials.apiToken}` } })).json() as { result: { rules: { description?: string }[] } };
    assert.ok(ep.result.rules.some((r) => r.description === 'Added after Save As'), 'the saved document\'s text was deployed');
    assert.ok(!fake.documents.get(saved.uri.toString())?.isClosed, 'the saved file is the user\'s: not closed at the end');
    assert.ok(!commands.executed.some((c) => c[0] === 'workbench.action.revertAndCloseActiveEditor'), 'nor reverted');
  });
});

test('a review closed without being saved: the progress and Continue say so and how to go on, and Cancel ends the run', async () => {
  await withMock(async (mock) => {
    const { ctx, asked } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const doc = await until('the review document', () => reviewDoc('pro.example'));
    await until('the review lenses', async () => ((await codeLenses(doc)).length ? true : undefined));
    closeDocument(doc);
    assert.match(fake.progressReports.at(-1)!, /^pro\.example\.ruleset\.json was closed without being saved/);
    assert.deepEqual(contextKey('edgekit.migration.reviewing'), [], 'no title bar buttons for a closed document');
    assert.equal(contextKey('edgekit.migration.waiting'), true, 'the palette still answers');
    await run(ctx, 'edgekit.migration.continue');
    await until('the question saying the review was closed', () => asked.some((a) => /closed without being saved/.test(a.q)));
    assert.match(asked.at(-1)!.q, /Cancel/);
    await run(ctx, 'edgekit.migration.cancel');
    const end = await running;
    assert.ok(end.name === 'cancelled' && end.zoneState === 'start', JSON.stringify(end));
    assert.doesNotMatch(fake.messages.at(-1)!.text, /is kept/, 'a closed review is not said to be kept');
    assert.deepEqual(fake.messages.at(-1)!.items, ['Migrate Again']);
  });
});

test('a review saved as a file, then cancelled: the last message says where it is saved (the next run opens a fresh one)', async () => {
  await withMock(async (mock) => {
    const { ctx } = ctxFor(mock, async (_q, options, modal) => (modal ? options[0] : never()));
    const running = migrate(ctx, 'pro.example');
    const untitled = await until('the review document', () => reviewDoc('pro.example'));
    await until('the review lenses', async () => ((await codeLenses(untitled)).length ? true : undefined));
    const saved = saveAs(untitled, 'file:///work/reviews/pro-review.ruleset.json');
    await run(ctx, 'edgekit.migration.cancel', saved.uri);
    const end = await running;
    assert.ok(end.name === 'cancelled' && end.zoneState === 'start', JSON.stringify(end));
    assert.match(fake.messages.at(-1)!.text, /Your review is saved in \/work\/reviews\/pro-review\.ruleset\.json\.$/);
    assert.deepEqual(fake.messages.at(-1)!.items, ['Migrate Again']);
  });
});

test('a question whose notification fails (ui.ask rejects) ends the run with that error at once, instead of waiting for ever', async () => {
  // A host test's scripted answer that failed an assertion (or a notification VS Code could not show) left the wait unresolved:
  // the run, and the test awaiting it, hung until the 60 s timeout.
  await withMock(async (mock) => {
    for (const zone of ['pro.example', 'enterprise.example']) {
      const { ctx } = ctxFor(mock, async (q, options, modal) => {
        if (modal) return options.includes('Validation Mode') ? 'Validation Mode' : options[0];
        if (zone === 'enterprise.example' && /^Review the new configuration/.test(q)) return 'Continue';
        throw new Error(`scripted answer failed: ${q.slice(0, 30)}`);
      });
      const timeout = new Promise((_r, reject) => setTimeout(() => reject(new Error('the run still waits')), 2000).unref());
      await assert.rejects(Promise.race([migrate(ctx, zone), timeout]), /^Error: scripted answer failed/, zone);
      assert.equal(contextKey('edgekit.migration.waiting'), false, 'nothing waits any more');
    }
  });
});
