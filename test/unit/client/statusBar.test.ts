// The document status bar item follows the active editor, also when the language server answers late.
import { fake, resetFake, addDocument, Uri } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentStatus } from '../../../client/src/statusBar';
import type { LanguageServer } from '../../../client/src/languageServer';

beforeEach(() => resetFake());

/** A language server in `state` whose edgekit/documentInfo answers are `answer`'s. */
function serverAnswering(answer: () => unknown, state = 'running'): LanguageServer {
  return { state, onDidChangeState: () => ({ dispose() {} }), request: answer } as unknown as LanguageServer;
}

test('an answer about the previous editor\'s document does not show the item over a non-EdgeKit editor', async () => {
  let answer!: (v: unknown) => void;
  const server = serverAnswering(() => new Promise((resolve) => { answer = resolve; }));
  const status = new DocumentStatus(server);
  const item = (status as unknown as { item: { visible: boolean } }).item;
  addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  const first = status.update(); // asks the server about a.filter.json
  // The user switches to a TypeScript file before the server answers: the item hides.
  addDocument('file:///ws/b.ts', 'typescript', '');
  await status.update();
  assert.equal(item.visible, false);
  answer({ kind: 'logpush-filter' });
  await first;
  assert.equal(item.visible, false, 'the late answer about a.filter.json is dropped');
  assert.equal(fake.activeUri?.toString(), Uri.parse('file:///ws/b.ts').toString());
  status.dispose();
});

// CI (08:55, the extension-host suite): an update superseded by a newer one (the edit's own diagnostics change) returned at once,
// before the newer one had shown anything, so a caller awaiting it read the text of before the edit.
test('an update superseded by a newer one resolves once the newest has shown its answer', async () => {
  const answers: ((v: unknown) => void)[] = [];
  const server = serverAnswering(() => new Promise((resolve) => { answers.push(resolve); }));
  const status = new DocumentStatus(server);
  addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  const first = status.update();
  const second = status.update(); // the newer one (the text changed meanwhile)
  let firstDone = false;
  void first.then(() => { firstDone = true; });
  answers[0]({ kind: 'logpush-filter', usage: { text: '2/30 operators', operators: 2, bytes: 10 } });
  await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(firstDone, false, 'the superseded update waits for the newest');
  answers[1]({ kind: 'logpush-filter', usage: { text: '4/30 operators', operators: 4, bytes: 20 } });
  await first;
  assert.match(status.lastText, /4\/30 operators/);
  await second;
  status.dispose();
});

test('the tooltip names the document kind in words, also while the server does not know the document yet', async () => {
  // The tooltip read "EdgeKit: null" when the server answered before it had the document, and "EdgeKit: waf-ruleset" (an id) otherwise.
  let kind: string | null = null;
  const server = serverAnswering(async () => ({ kind }));
  const status = new DocumentStatus(server);
  const item = (status as unknown as { item: { tooltip: string } }).item;
  addDocument('file:///ws/a.ruleset.json', 'waf-ruleset', '{}');
  await status.update();
  assert.doesNotMatch(item.tooltip, /null|undefined/);
  assert.match(item.tooltip, /ruleset/i);
  kind = 'waf-ruleset';
  await status.update();
  assert.equal(item.tooltip, 'EdgeKit: a ruleset (managed rules, expressions); no errors or warnings. Click to show the Problems panel.');
  status.dispose();
});

test('the problem counts and a filter\'s usage are set apart, not run together ("⚠ 0 3/30 operators")', async () => {
  // Seen in the workbench on examples/mistakes.filter.json: "EdgeKit ⊗ 3 ⚠ 0 3/30 operators · 184/1000 bytes", the warning count
  // and the operator count side by side as if one number.
  const usage = { text: '3/30 operators · 184/1000 bytes', operators: 3, maxOperators: 30, bytes: 184, maxBytes: 1000 };
  const server = serverAnswering(async () => ({ kind: 'logpush-filter', usage }));
  const status = new DocumentStatus(server);
  const doc = addDocument('file:///ws/m.filter.json', 'logpush-filter', '{}');
  const { DiagnosticSeverity } = await import('./vscode');
  fake.diagnostics.set(doc.uri.toString(), [1, 2, 3].map(() => ({ source: 'edgekit', severity: DiagnosticSeverity.Error })));
  await status.update();
  assert.equal(status.lastText, 'EdgeKit $(error) 3 $(warning) 0 · 3/30 operators · 184/1000 bytes');
  fake.diagnostics.set(doc.uri.toString(), []);
  await status.update();
  assert.equal(status.lastText, 'EdgeKit $(check) 3/30 operators · 184/1000 bytes');
  status.dispose();
});

test('the tooltip says what a click does (the Problems panel) and the counts in words', async () => {
  // ui5's walk: a click opened the Problems panel, which nothing on the item said.
  const server = serverAnswering(async () => ({ kind: 'logpush-filter', usage: { text: '3/30 operators · 184/1000 bytes', operators: 3, maxOperators: 30, bytes: 184, maxBytes: 1000 } }));
  const status = new DocumentStatus(server);
  const item = (status as unknown as { item: { tooltip: string; command: string } }).item;
  const doc = addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  fake.diagnostics.set(doc.uri.toString(), [
    { source: 'edgekit', severity: 0, message: 'x', range: {} }, { source: 'edgekit', severity: 1, message: 'y', range: {} }, { source: 'edgekit', severity: 1, message: 'z', range: {} },
  ] as never);
  await status.update();
  assert.equal(item.command, 'workbench.actions.view.problems');
  assert.equal(item.tooltip, 'Filter usage against the platform limits (about 30 operators, about 1000 bytes compact): 3/30 operators · 184/1000 bytes; 1 error, 2 warnings. Click to show the Problems panel.');
  status.dispose();
});

test('a screen reader reads the item in words, and a filter over a limit is said so, not shown by the red background alone', async () => {
  // ux1: the item had no accessibilityInformation, so VS Code read its text's icon names ("EdgeKit error 1 warning 0 · 35/30
  // operators") before the tooltip, and "over the limit" was the errorBackground's colour only.
  let usage = { text: '35/30 operators · 184/1000 bytes', operators: 35, maxOperators: 30, bytes: 184, maxBytes: 1000 };
  const server = serverAnswering(async () => ({ kind: 'logpush-filter', usage }));
  const status = new DocumentStatus(server);
  const item = (status as unknown as { item: { tooltip: string; accessibilityInformation?: { label: string }; backgroundColor?: { id: string } } }).item;
  const doc = addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  fake.diagnostics.set(doc.uri.toString(), [{ source: 'edgekit', severity: 0, message: 'x', range: {} }] as never);
  await status.update();
  assert.equal(item.backgroundColor?.id, 'statusBarItem.errorBackground');
  assert.equal(item.tooltip, 'Filter usage against the platform limits (about 30 operators, about 1000 bytes compact): 35/30 operators · 184/1000 bytes, over the limit of 30 operators; 1 error, 0 warnings. Click to show the Problems panel.');
  assert.equal(item.accessibilityInformation?.label, item.tooltip);
  usage = { text: '35/30 operators · 1200/1000 bytes', operators: 35, maxOperators: 30, bytes: 1200, maxBytes: 1000 };
  await status.update();
  assert.match(item.tooltip, /, over the limit of 30 operators and of 1000 bytes; /);
  usage = { text: '3/30 operators · 184/1000 bytes', operators: 3, maxOperators: 30, bytes: 184, maxBytes: 1000 };
  await status.update();
  assert.equal(item.backgroundColor, undefined);
  assert.doesNotMatch(item.tooltip, /over the limit/);
  assert.doesNotMatch(item.accessibilityInformation?.label ?? '', /\$\(/);
  // mt5: at a limit exactly is within it (the platform refuses more than 30 operators, more than 1000 bytes): a mutant that took
  // 1000 bytes for over survived.
  usage = { text: '30/30 operators · 1000/1000 bytes', operators: 30, maxOperators: 30, bytes: 1000, maxBytes: 1000 };
  await status.update();
  assert.equal(item.backgroundColor, undefined);
  assert.doesNotMatch(item.tooltip, /over the limit/);
  status.dispose();
});

test('the language server\'s state is read in words too', async () => {
  const server = serverAnswering(async () => ({}), 'failed');
  const status = new DocumentStatus(server);
  const item = (status as unknown as { item: { tooltip: string; accessibilityInformation?: { label: string } } }).item;
  addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  await status.update();
  assert.equal(status.lastText, 'EdgeKit $(error) server failed');
  assert.equal(item.accessibilityInformation?.label, 'The EdgeKit language server failed to start: no checks run. Click to restart it (the EdgeKit log says why).');
  status.dispose();
});
