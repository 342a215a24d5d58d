// The "edgekit" task provider (client/src/tasks.ts) with the stand-in `vscode` module: which folder a tasks.json entry runs in.
import { fake, resetFake, TaskScope, Task, CustomExecution, DiagnosticCollection, Uri, addDocument, editDocument, type FakePty } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LintExecution, LintTaskProvider, TaskProblems, settingDatasets, type LintTerminal } from '../../../client/src/tasks';
import { catalogue } from '../../../server/src/core';
import { lintSummaryLine } from '../../../server/src/protocol';

/** The "edgekit-lint" diagnostics the tasks publish (a new collection for each test). */
let collection = new DiagnosticCollection('edgekit-lint');
/** One for the window, as registerTasks makes it. */
let problems = new TaskProblems(collection as never);
beforeEach(() => { resetFake(); collection = new DiagnosticCollection('edgekit-lint'); problems = new TaskProblems(collection as never); });

const DATASETS = catalogue.logpush.datasets.map((d) => d.name);
const provider = (cli = '/ext/dist/cli.js') => new LintTaskProvider(cli, DATASETS, problems);

/** Runs a refused task's pseudoterminal as the task system does: what it wrote, and the exit code it closed with. */
async function runRefusal(t: Task): Promise<{ text: string; code: number | void }> {
  assert.ok(t.execution instanceof CustomExecution && !(t.execution instanceof LintExecution), 'a refusal, not the CLI');
  const pty = await t.execution.callback();
  let text = '';
  let code: number | void = undefined;
  pty.onDidWrite((s) => { text += s; });
  pty.onDidClose?.((c) => { code = c; });
  pty.open();
  return { text, code };
}

/** A stand-in CLI's statement that writes the real CLI's last line (lint --summary) for a run that went to its end with the exit code
 * `exit` (a JavaScript expression), and exits with it. */
const done = (exit: string) => `{ const c = ${exit}; process.stderr.write(${JSON.stringify(lintSummaryLine({ exit: 0, files: 1, errors: 0, warnings: 0, notChecked: 0, notFixed: 0, reportUnwritten: false }) + '\n')}.replace('exit code 0', 'exit code ' + c)); process.exit(c); }`;

const cwdOf = (t: unknown) => ((t as Task).execution as LintExecution).options?.cwd;

test('Run Task lists lint and lint --fix for each folder, each running in its folder', () => {
  fake.folderSettings.set('/ws/a', new Map());
  fake.folderSettings.set('/ws/b', new Map([['maxProblems', 3]]));
  const tasks = provider().provideTasks() as unknown as Task[];
  assert.deepEqual(tasks.map((t) => `${t.name}@${cwdOf(t)}`), ['lint@/ws/a', 'lint --fix@/ws/a', 'lint@/ws/b', 'lint --fix@/ws/b']);
  assert.ok((tasks[2].execution as LintExecution).args.join(' ').includes('--max-problems 3'), 'the folder\'s own settings');
});

test('a workspace-file or user task names no folder: in a multi-root workspace it is refused with the reason, not run in the first folder', async () => {
  // VS Code's TypeScript task provider refuses these too ("scope is required to be a WorkspaceFolder"); picking the first folder
  // checked another folder than the one the user may mean, and the Problems shown were that folder's. The refusal runs: its
  // terminal says why (resolving to nothing left only VS Code's "task will be ignored" in its Tasks output).
  const p = provider();
  fake.folderSettings.set('/ws/a', new Map());
  fake.folderSettings.set('/ws/b', new Map());
  for (const scope of [TaskScope.Workspace, TaskScope.Global]) {
    const def = { type: 'edgekit', command: 'lint' };
    const refused = p.resolveTask(new Task(def, scope, 'lint all', 'edgekit') as never) as unknown as Task;
    assert.equal(refused.definition, def, 'the same definition object');
    const run = await runRefusal(refused);
    assert.equal(run.code, 2);
    assert.match(run.text, /^edgekit: This task of type "edgekit" cannot run: it is not in a workspace folder.s tasks.json, and this workspace has 2 folders.*\r\nedgekit: the task did not run; nothing was checked\.\r\n$/s);
  }
  assert.match(fake.logged.join('\n'), /error: The task "lint all" of type "edgekit" did not run: This task of type "edgekit" cannot run: it is not in a workspace folder.s tasks.json/);
  // One folder: it is the folder, and the resolved task keeps the definition object (VS Code matches it to the tasks.json entry).
  fake.folderSettings.delete('/ws/b');
  const def = { type: 'edgekit', command: 'lint', paths: ['filters'] };
  const resolved = p.resolveTask(new Task(def, TaskScope.Workspace, 'lint filters', 'edgekit') as never) as unknown as Task;
  assert.equal(cwdOf(resolved), '/ws/a');
  assert.equal(resolved.definition, def);
  assert.equal(resolved.name, 'lint filters');
});

test('a folder whose dataset setting the CLI would refuse gets tasks that say so at the setting, in the Problems panel\'s line format', async () => {
  // The task ran `--dataset nope`: the CLI's usage error (exit 2) named neither the setting nor where it was set.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-taskvis-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{\n  "edgekit.logpush.dataset": "nope"\n}\n');
  fake.folderSettings.set(dir, new Map([['logpush.dataset', 'nope']]));
  const tasks = provider().provideTasks() as unknown as Task[];
  assert.deepEqual(tasks.map((t) => t.name), ['lint', 'lint --fix']);
  for (const t of tasks) {
    assert.match(t.detail!, /^Cannot run: Unknown dataset "nope" in the edgekit\.logpush\.dataset setting/);
    const run = await runRefusal(t);
    assert.equal(run.code, 2, 'the CLI\'s exit code for a usage problem');
    assert.ok(run.text.startsWith(`${path.join(dir, '.vscode', 'settings.json')}:2:30-2:36 error logpush/unknown-dataset Unknown dataset "nope"`), run.text);
  }
  // A tasks.json task of the folder gets the same refusal; the User settings' value is said without a file.
  const def = { type: 'edgekit', command: 'lint' };
  const resolved = provider().resolveTask(new Task(def, { uri: Uri.file(dir), name: 'x', index: 0 }, 'mine', 'edgekit') as never) as unknown as Task;
  assert.match((await runRefusal(resolved)).text, /settings\.json:2:30-2:36 error logpush\/unknown-dataset/);
  fake.folderSettings.set(dir, new Map());
  fake.settings.set('logpush.dataset', 'nope');
  assert.match((await runRefusal((provider().provideTasks() as unknown as Task[])[0])).text, /^edgekit: Unknown dataset "nope" in the edgekit\.logpush\.dataset setting \(User settings\)/);
  // A dataset it knows runs the CLI.
  fake.settings.set('logpush.dataset', 'gateway_dns');
  const ok = (provider().provideTasks() as unknown as Task[])[0];
  assert.ok(ok.execution instanceof LintExecution && ok.execution.args.join(' ').includes('--dataset gateway_dns'));
});

test('a tasks.json definition that cannot run is refused at its member in the folder\'s tasks.json', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-taskvis-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(path.join(dir, '.vscode', 'tasks.json'), '{\n  "version": "2.0.0",\n  "tasks": [\n    { "type": "edgekit", "command": "check" }\n  ]\n}\n');
  fake.folderSettings.set(dir, new Map());
  const def = { type: 'edgekit', command: 'check' };
  const refused = provider().resolveTask(new Task(def, { uri: Uri.file(dir), name: 'x', index: 0 }, 'check', 'edgekit') as never) as unknown as Task;
  const run = await runRefusal(refused);
  assert.equal(run.code, 2);
  const col = '    { "type": "edgekit", "command": "check" }'.indexOf('"check"') + 1;
  assert.ok(run.text.startsWith(`${path.join(dir, '.vscode', 'tasks.json')}:4:${col}-4:${col + 7} error task/cannot-run This task of type "edgekit" cannot run: "command" must be "lint", not "check".`), run.text);
});

test('the datasets the task takes are the setting\'s enum in package.json, which are the CLI\'s', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
  assert.deepEqual(settingDatasets(pkg), DATASETS);
  assert.deepEqual(settingDatasets(undefined), []);
});

test('in an untitled multi-root workspace, a workspace dataset setting is said to be the workspace\'s, not put in a folder\'s .vscode/settings.json', async () => {
  // An untitled workspace (File > Add Folder to Workspace, not saved) keeps its settings in VS Code's own storage: its
  // workspaceFile is an untitled: URI. The refusal named the folder's .vscode/settings.json and put the Problems entry there, at
  // line 1 of a file that does not hold the value.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-taskvis-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(path.join(dir, '.vscode', 'settings.json'), '{\n  "edgekit.maxProblems": 10\n}\n');
  fake.folderSettings.set(dir, new Map());
  fake.folderSettings.set('/ws/b', new Map());
  fake.workspaceSettings.set('logpush.dataset', 'nope');
  fake.workspaceFile = Uri.parse('untitled:Untitled-1');
  const run = await runRefusal((provider().provideTasks() as unknown as Task[])[0]);
  assert.match(run.text, /^edgekit: Unknown dataset "nope" in the edgekit\.logpush\.dataset setting \(workspace settings of the untitled workspace\); /);
  assert.doesNotMatch(run.text, /settings\.json/);
  // A saved workspace file on disk: the value is placed in its "settings".
  const wsFile = path.join(dir, 'x.code-workspace');
  const line = '  "settings": { "edgekit.logpush.dataset": "nope" }';
  fs.writeFileSync(wsFile, `{\n  "folders": [],\n${line}\n}\n`);
  fake.workspaceFile = Uri.file(wsFile);
  const col = line.indexOf('"nope"') + 1;
  const saved = (await runRefusal((provider().provideTasks() as unknown as Task[])[0])).text;
  assert.ok(saved.startsWith(`${wsFile}:3:${col}-3:${col + 6} error logpush/unknown-dataset `), saved);
  assert.match(saved, /\(workspace settings, x\.code-workspace\)/);
});

test('a refusal is placed in the settings.json or tasks.json open with unsaved edits by the open text, and says the saved file decided', async () => {
  // The position came from the file on disk, and the Problems entry is drawn on the open document: with lines added above the
  // value and not saved, it landed on the wrong line. VS Code reads the saved settings and tasks (so does the task), so the saved
  // file decides whether the task runs; the open text only where the entry goes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-taskvis-'));
  const settings = path.join(dir, '.vscode', 'settings.json');
  fs.mkdirSync(path.join(dir, '.vscode'));
  fs.writeFileSync(settings, '{\n  "edgekit.logpush.dataset": "nope"\n}\n');
  fake.folderSettings.set(dir, new Map([['logpush.dataset', 'nope']]));
  const doc = addDocument(Uri.file(settings).toString(), 'jsonc', fs.readFileSync(settings, 'utf8'), false);
  editDocument(doc, '{\n  // mine\n  "editor.tabSize": 2,\n  "edgekit.logpush.dataset": "nope"\n}\n');
  let run = (await runRefusal((provider().provideTasks() as unknown as Task[])[0])).text;
  assert.ok(run.startsWith(`${settings}:4:30-4:36 error logpush/unknown-dataset Unknown dataset "nope" `), run);
  assert.match(run.split('\r\n')[0], / \.vscode\/settings\.json has unsaved changes: VS Code reads the saved file, and so does the task\.$/);
  // Fixed in the editor and not saved: still refused (the saved value runs), at the setting where it now is.
  editDocument(doc, '{\n  // mine\n  "edgekit.logpush.dataset": "gateway_dns"\n}\n');
  run = (await runRefusal((provider().provideTasks() as unknown as Task[])[0])).text;
  assert.ok(run.startsWith(`${settings}:3:30-3:43 error logpush/unknown-dataset Unknown dataset "nope" `), run);
  // Open and saved (the same text as on disk): no note.
  fake.documents.clear();
  addDocument(Uri.file(settings).toString(), 'jsonc', fs.readFileSync(settings, 'utf8'), false);
  run = (await runRefusal((provider().provideTasks() as unknown as Task[])[0])).text;
  assert.ok(run.startsWith(`${settings}:2:30-2:36 error `), run);
  assert.doesNotMatch(run, /unsaved/);

  // tasks.json: the entry VS Code resolved (from the saved file) is looked for in the open text.
  const tasksJson = path.join(dir, '.vscode', 'tasks.json');
  fs.writeFileSync(tasksJson, '{\n  "version": "2.0.0",\n  "tasks": [\n    { "type": "edgekit", "command": "check" }\n  ]\n}\n');
  fake.folderSettings.set(dir, new Map());
  const tasksDoc = addDocument(Uri.file(tasksJson).toString(), 'jsonc', fs.readFileSync(tasksJson, 'utf8'), false);
  editDocument(tasksDoc, '{\n  "version": "2.0.0",\n  "tasks": [\n    { "type": "shell", "command": "make" },\n    { "type": "edgekit", "command": "check" }\n  ]\n}\n');
  const def = { type: 'edgekit', command: 'check' };
  const refused = provider().resolveTask(new Task(def, { uri: Uri.file(dir), name: 'x', index: 0 }, 'check', 'edgekit') as never) as unknown as Task;
  run = (await runRefusal(refused)).text;
  const col = '    { "type": "edgekit", "command": "check" }'.indexOf('"check"') + 1;
  assert.ok(run.startsWith(`${tasksJson}:5:${col}-5:${col + 7} error task/cannot-run `), run);
  assert.match(run.split('\r\n')[0], / \.vscode\/tasks\.json has unsaved changes: VS Code reads the saved file, and so does the task\.$/);
});

/** Runs a lint task's pseudoterminal as the task system does, until the CLI exits: what it wrote, and its exit code. */
async function runLint(t: Task): Promise<{ text: string; code: number | void }> {
  assert.ok(t.execution instanceof LintExecution, 'the CLI');
  const pty = await (t.execution as unknown as CustomExecution).callback();
  let text = '';
  pty.onDidWrite((s) => { text += s; });
  const code = await new Promise<number | void>((resolve) => { pty.onDidClose?.(resolve); pty.open(); });
  return { text, code };
}

/** The "edgekit-lint" problems by file (relative to `root`): code@line:character-line:character. */
function published(root: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  collection.forEach((uri, ds) => {
    out[path.relative(root, uri.fsPath)] = ds.map((d) => {
      const r = d.range as unknown as { start: { line: number; character: number }; end: { line: number; character: number } };
      return `${d.code}@${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
    });
  });
  return out;
}

// ui9: the lint tasks' problems went through the $edgekit problem matchers, whose one owner ("edgekit-lint") VS Code's collector
// cleans wholesale when a task ends: the lint of folder b cleared folder a's problems, and `paths: ["filters"]` every other file's
// (docs/architecture.md "Task problems cleared by another edgekit task's run"). The tasks now publish into their own collection,
// and a run replaces the problems of the files it checked only. The CLI here is a stand-in that prints the lines of the folder's
// .lint-out file (the real CLI's line format is held by lintTask.test.ts).
test('a lint task\'s run replaces the problems of the files it checked, and keeps another folder\'s and another task\'s paths\'', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-taskowners-'));
  const cli = path.join(root, 'cli.js');
  fs.writeFileSync(cli, `const fs = require('fs'); const read = (f) => { try { return fs.readFileSync(f, 'utf8'); } catch { return ''; } };
const t = read('.lint-out'); const e = read('.lint-err'); process.stdout.write(t); process.stderr.write(e); ${done("e ? 2 : / error /.test(t) ? 1 : 0")}`);
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  for (const d of [a, b]) fs.mkdirSync(d);
  fake.folderSettings.set(a, new Map());
  fake.folderSettings.set(b, new Map());
  const p = provider(cli);
  const lintOf = (dir: string) => (p.provideTasks() as unknown as Task[]).find((t) => t.name === 'lint' && (t.execution as LintExecution).options.cwd === dir)!;
  const out = (dir: string, lines: string[]) => fs.writeFileSync(path.join(dir, '.lint-out'), lines.map((l) => `${l}\n`).join(''));
  try {
    out(a, ['x.filter.json:2:5-2:17 error logpush/unknown-field Unknown field "sampel_rate".', 'filters/f.filter.json:1:1-1:2 hint logpush/x-y A hint.']);
    // A path the CLI could not check is said on stderr, in the line format too.
    fs.writeFileSync(path.join(a, '.lint-err'), 'gone.filter.json:1:1-1:1 error cli/not-checked no such file or directory (gone.filter.json).\n');
    const first = await runLint(lintOf(a));
    assert.equal(first.code, 2, 'the CLI\'s exit code');
    assert.match(first.text, /^(?=.*x\.filter\.json:2:5-2:17 error logpush\/unknown-field Unknown field "sampel_rate"\.\r\n)(?=.*filters\/f\.filter\.json:1:1-1:2 hint logpush\/x-y A hint\.\r\n)(?=.*gone\.filter\.json:1:1-1:1 error cli\/not-checked)/s);
    assert.deepEqual(published(root), { 'a/x.filter.json': ['logpush/unknown-field@1:4-1:16'], 'a/filters/f.filter.json': ['logpush/x-y@0:0-0:1'], 'a/gone.filter.json': ['cli/not-checked@0:0-0:0'] });
    fs.rmSync(path.join(a, '.lint-err'));
    const d = collection.get(Uri.file(path.join(a, 'x.filter.json')))![0];
    assert.equal(d.source, 'edgekit');
    assert.equal(d.severity, 0, 'error');
    assert.equal(d.message, 'Unknown field "sampel_rate".');
    assert.equal(collection.get(Uri.file(path.join(a, 'filters/f.filter.json')))![0].severity, 3, 'a hint stays a hint');
    // Folder b's run: a's problems stay.
    out(b, ['y.filter.json:1:1-1:3 warning logpush/x-y In b.']);
    await runLint(lintOf(b));
    assert.deepEqual(Object.keys(published(root)).sort(), ['a/filters/f.filter.json', 'a/gone.filter.json', 'a/x.filter.json', 'b/y.filter.json']);
    // A tasks.json task of folder a on "filters": the files there are replaced (f's hint gone), x's problem stays.
    out(a, ['filters/g.filter.json:3:1-3:4 error logpush/x-y In filters.']);
    const filters = p.resolveTask(new Task({ type: 'edgekit', command: 'lint', paths: ['filters'] }, { uri: Uri.file(a), name: 'a', index: 0 }, 'lint filters', 'edgekit') as never) as unknown as Task;
    await runLint(filters);
    assert.deepEqual(published(root), { 'a/x.filter.json': ['logpush/unknown-field@1:4-1:16'], 'a/gone.filter.json': ['cli/not-checked@0:0-0:0'], 'b/y.filter.json': ['logpush/x-y@0:0-0:2'], 'a/filters/g.filter.json': ['logpush/x-y@2:0-2:3'] });
    // Folder a's whole run with nothing found: a's files are clear, b's stays.
    fs.rmSync(path.join(a, '.lint-out'));
    assert.equal((await runLint(lintOf(a))).code, 0);
    assert.deepEqual(published(root), { 'b/y.filter.json': ['logpush/x-y@0:0-0:2'] });
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// cl11: a CLI that stopped before its end (an internal error: exit 2 with "edgekit: <message>"; Node's uncaught error: exit 1 and a
// stack trace; killed by the system) was read as the run's verdict: every file of the run's folder it had not reported was cleared,
// and its terminal closed on the lines it wrote as if they were the whole result.
test('a lint run whose CLI crashes says it did not finish and why, and publishes what it reported as partial, clearing no other file', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-crash-'));
  const cli = path.join(root, 'cli.js');
  fs.mkdirSync(path.join(root, 'w'));
  const dir = path.join(root, 'w');
  fake.folderSettings.set(dir, new Map());
  const lint = () => (provider(cli).provideTasks() as unknown as Task[]).find((t) => t.name === 'lint')!;
  // The line is put together so that Node's report of an uncaught error, which quotes the source line, does not quote it whole.
  const crash = (code: string) => fs.writeFileSync(cli, `process.stdout.write(['a.filter.json:1:1-1:2', 'error logpush/x-y New in a.\\n'].join(' '));\n${code}`);
  try {
    // The last full run found problems in a and b.
    crash(`process.stdout.write('b.filter.json:2:1-2:2 warning logpush/x-y In b.\\n'); ${done('1')}`);
    await runLint(lint());
    assert.deepEqual(published(dir), { 'a.filter.json': ['logpush/x-y@0:0-0:1'], 'b.filter.json': ['logpush/x-y@1:0-1:1'] });

    // The CLI's internal error (its main's catch): exit 2, its message on stderr, after a's line.
    crash(`process.stderr.write('edgekit: Maximum call stack size exceeded\\n'); process.exit(2);`);
    fs.writeFileSync(path.join(dir, 'a.filter.json'), '');
    let run = await runLint(lint());
    assert.equal(run.code, 2);
    assert.equal(run.text, 'a.filter.json:1:1-1:2 error logpush/x-y New in a.\r\nedgekit: Maximum call stack size exceeded\r\n'
      + 'edgekit lint: did not finish: the CLI exited with code 2 (edgekit: Maximum call stack size exceeded). The problems above are partial: '
      + '1 problem (1 error, 0 warnings) in 1 file, in the Problems view; the files it did not report keep the problems they had.\r\n');
    assert.deepEqual(published(dir), { 'a.filter.json': ['logpush/x-y@0:0-0:1'], 'b.filter.json': ['logpush/x-y@1:0-1:1'] }, 'b, not reported, keeps its problem');
    assert.equal(collection.get(Uri.file(path.join(dir, 'a.filter.json')))![0].message, 'New in a.');
    assert.match(fake.logged.join('\n'), /^error: edgekit lint in .*w did not finish: the CLI exited with code 2 \(edgekit: Maximum call stack size exceeded\)\./m);

    // Exit 1 with no error reported: Node's report of an uncaught error (the bundle failing as it loads). Its message is the line
    // said, not the stack frames or "Node.js v..." under it; nothing is cleared.
    fs.writeFileSync(cli, `throw new Error('Cannot find module ./chunk');`);
    run = await runLint(lint());
    assert.match(run.text, /\r\nedgekit lint: did not finish: the CLI exited with code 1 \(Error: Cannot find module \.\/chunk\)\. It reported no problem; the Problems view keeps the problems it had\.\r\n$/);
    assert.deepEqual(Object.keys(published(dir)).sort(), ['a.filter.json', 'b.filter.json']);

    // Killed by a signal it did not get from the task (the system's out-of-memory killer).
    crash(`process.kill(process.pid, 'SIGKILL');`);
    run = await runLint(lint());
    assert.equal(run.code, 137);
    assert.match(run.text, /\r\nedgekit lint: did not finish: the CLI was killed by SIGKILL, saying nothing on stderr\. The problems above are partial: 1 problem /);
    assert.deepEqual(Object.keys(published(dir)).sort(), ['a.filter.json', 'b.filter.json']);

    // A run that went to its end, with a path it could not check (exit 2 with cli/not-checked): the verdict on the folder.
    crash(`process.stderr.write(${JSON.stringify(`${path.join(dir, 'gone.filter.json')}:1:1-1:1 error cli/not-checked no such file or directory.\n`)}); ${done('2')}`);
    run = await runLint(lint());
    assert.equal(run.code, 2);
    assert.match(run.text, /\r\nedgekit lint: 2 problems \(2 errors, 0 warnings\) in 2 files, in the Problems view\.\r\n$/);
    assert.deepEqual(Object.keys(published(dir)).sort(), ['a.filter.json', 'gone.filter.json'], 'b is cleared');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// cl12: the exit code alone told a finished run from a crash (cl11's `finished`): an error line and then Node's uncaught error (exit
// 1), or a cli/not-checked line and then main's catch (exit 2), read as finished and cleared every file the run had not reached;
// and a run given --max-warnings that exits 1 on warnings only read as a crash. The task passes --summary and takes a run as
// finished only when the CLI exits with the code its last line names.
test('a lint run is finished only when the CLI exits with the code its summary line names: a crash after an error line is not, --max-warnings\'s exit 1 is', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-summary-'));
  const cli = path.join(root, 'cli.js');
  const dir = path.join(root, 'w');
  fs.mkdirSync(dir);
  fake.folderSettings.set(dir, new Map());
  const lint = () => (provider(cli).provideTasks() as unknown as Task[]).find((t) => t.name === 'lint')!;
  const write = (code: string) => fs.writeFileSync(cli, `process.stdout.write(['a.filter.json:1:1-1:2', 'error logpush/x-y In a.\\n'].join(' '));\n${code}`);
  const seed = () => problems.replace('seed', [dir], [{ file: path.join(dir, 'b.filter.json'), line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', code: 'logpush/x-y', message: 'Old in b.' }]);
  const partial = /\r\nedgekit lint: did not finish: .*The problems above are partial: 1 problem \(1 error, 0 warnings\) in 1 file, in the Problems view; the files it did not report keep the problems they had\.\r\n$/;
  try {
    assert.ok((lint().execution as LintExecution).args.includes('--summary'), 'the task asks the CLI for its summary line');
    // An error line, then Node's report of an uncaught error: exit 1, as for errors found.
    seed();
    write(`setImmediate(() => { throw new Error('out of ' + 'luck'); });`);
    let run = await runLint(lint());
    assert.equal(run.code, 1);
    assert.match(run.text, partial);
    assert.match(run.text, /did not finish: the CLI exited with code 1 \(Error: out of luck\)\./);
    assert.deepEqual(Object.keys(published(dir)).sort(), ['a.filter.json', 'b.filter.json'], 'b, not reported, keeps its problem');
    // A path it could not check, then main's catch: exit 2, as for such a path.
    seed();
    write(`process.stderr.write(${JSON.stringify(`${path.join(dir, 'gone.filter.json')}:1:1-1:1 error cli/not-checked no such file or directory.\n`)}); process.stderr.write('edgekit: write EPIPE\\n'); process.exit(2);`);
    run = await runLint(lint());
    assert.equal(run.code, 2);
    assert.match(run.text, /\r\nedgekit lint: did not finish: the CLI exited with code 2 \(edgekit: write EPIPE\)\. The problems above are partial: 2 problems/);
    assert.deepEqual(Object.keys(published(dir)).sort(), ['a.filter.json', 'b.filter.json', 'gone.filter.json']);
    // Killed by a signal after an error line.
    seed();
    write(`process.kill(process.pid, 'SIGKILL');`);
    run = await runLint(lint());
    assert.equal(run.code, 137);
    assert.match(run.text, partial);
    assert.deepEqual(Object.keys(published(dir)).sort(), ['a.filter.json', 'b.filter.json']);
    // The summary said, then an exit with another code (an error thrown after it).
    seed();
    write(`${done('0').replace(/process\.exit\(c\);/, "setImmediate(() => { throw new Error('late'); }); process.exitCode = 0;")}`);
    run = await runLint(lint());
    assert.equal(run.code, 1);
    assert.match(run.text, partial);
    // Warnings only, over a --max-warnings the task was given: exit 1 with the summary naming it is the run's verdict, and the
    // summary line itself is the task's to read, not shown.
    seed();
    fs.writeFileSync(cli, `process.stdout.write(['w.filter.json:1:1-1:2', 'warning logpush/x-y In w.\\n'].join(' ')); process.stderr.write('edgekit: 1 warning, more than --max-warnings 0 allows.\\n'); ${done('1')}`);
    run = await runLint(lint());
    assert.equal(run.code, 1);
    assert.equal(run.text, 'w.filter.json:1:1-1:2 warning logpush/x-y In w.\r\nedgekit: 1 warning, more than --max-warnings 0 allows.\r\nedgekit lint: 1 problem (0 errors, 1 warning) in 1 file, in the Problems view.\r\n');
    assert.deepEqual(Object.keys(published(dir)), ['w.filter.json'], 'a finished run clears b');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a refused task\'s problem is in the Problems panel at the setting until that task runs', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-taskrefusal-'));
  const cli = path.join(dir, 'cli.js');
  fs.writeFileSync(cli, done('0'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  const settings = path.join(dir, '.vscode', 'settings.json');
  fs.writeFileSync(settings, '{\n  "edgekit.logpush.dataset": "nope"\n}\n');
  try {
    fake.folderSettings.set(dir, new Map([['logpush.dataset', 'nope']]));
    await runRefusal((provider(cli).provideTasks() as unknown as Task[])[0]);
    assert.deepEqual(published(dir), { '.vscode/settings.json': ['logpush/unknown-dataset@1:29-1:35'] });
    // Set right, the same task runs: its refusal is gone.
    fake.folderSettings.set(dir, new Map([['logpush.dataset', 'http_requests']]));
    assert.equal((await runLint((provider(cli).provideTasks() as unknown as Task[])[0])).code, 0);
    assert.deepEqual(published(dir), {});
    // A task of some paths: the settings file is outside them, and its refusal is still that task's, gone with its next run.
    fake.folderSettings.set(dir, new Map([['logpush.dataset', 'nope']]));
    const filters = () => provider(cli).resolveTask(new Task({ type: 'edgekit', command: 'lint', paths: ['filters'] }, { uri: Uri.file(dir), name: 'd', index: 0 }, 'lint filters', 'edgekit') as never) as unknown as Task;
    await runRefusal(filters());
    assert.deepEqual(published(dir), { '.vscode/settings.json': ['logpush/unknown-dataset@1:29-1:35'] });
    fake.folderSettings.set(dir, new Map([['logpush.dataset', 'http_requests']]));
    await runLint(filters());
    assert.deepEqual(published(dir), {});
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// rv16: a run's problems were grouped by file with a copy of the file's list per problem (quadratic): 30 000 problems of one file
// (edgekit.maxProblems goes to 100 000) took 10 s of the extension host, 100 000 several minutes.
// Tests never time: a return of the quadratic grouping shows as minutes of this test, not as a failed bound.
test('a run of 100 000 problems in one file publishes all of them', () => {
  const found = Array.from({ length: 100_000 }, (_, i) => ({ file: '/w/a.json', line: i + 1, column: 1, endLine: i + 1, endColumn: 2, severity: 'error' as const, code: 'logpush/x-y', message: 'm' }));
  problems.replace('k', ['/w'], found);
  assert.equal(collection.get(Uri.file('/w/a.json'))!.length, 100_000);
});

/** `p`, or a failure saying `what` if it has not settled in 10 s: a guard against a hang, not a wait. */
async function guard<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_r, reject) => { timer = setTimeout(() => reject(new Error(what)), 10_000); })]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a lint execution's pseudoterminal: what it wrote and every code it closed with (VS Code takes the first). */
async function runExecution(e: LintExecution): Promise<{ text: string; codes: (number | void)[] }> {
  const pty = await (e as unknown as CustomExecution).callback();
  let text = '';
  const codes: (number | void)[] = [];
  pty.onDidWrite((s) => { text += s; });
  pty.onDidClose?.((c) => { codes.push(c); });
  pty.open();
  // The run's end: the process has ended and the terminal closed; a second close would have come before it.
  await (pty as unknown as LintTerminal).ended;
  return { text, codes };
}

// rv16: a CLI that could not start cleared the problems of the run's scope (an empty verdict published: Node's 'close' follows its
// 'error', and a missing bundle is Node's exit 1 with a stack trace), closed its terminal twice (2, then -2), and a folder removed
// while the task was waiting was said as "spawn /usr/bin/node ENOENT", blaming the runtime.
test('a lint run whose CLI cannot start says why, closes once with 2 and keeps the problems it had', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-nostart-'));
  const cli = path.join(root, 'cli.js');
  fs.writeFileSync(cli, 'process.exit(0);');
  const dir = path.join(root, 'my folder ü');
  fs.mkdirSync(dir);
  const seeded = () => problems.replace('seed', [dir], [{ file: path.join(dir, 'x.filter.json'), line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', code: 'logpush/x-y', message: 'm' }]);
  const kept = () => collection.get(Uri.file(path.join(dir, 'x.filter.json')))?.length;
  const publish = (found: unknown[]) => problems.replace('k', [dir], found as never);
  try {
    // The runtime missing.
    seeded();
    let run = await runExecution(new LintExecution(path.join(root, 'no-node'), [cli, 'lint'], { cwd: dir, env: {} }, publish));
    assert.deepEqual(run.codes, [2]);
    assert.match(run.text, /^edgekit: the CLI did not start: .*no-node.*; nothing was checked\.\r\n$/);
    assert.equal(kept(), 1);
    // The CLI's bundle missing.
    run = await runExecution(new LintExecution(process.execPath, [path.join(root, 'gone.js'), 'lint'], { cwd: dir, env: {} }, publish));
    assert.deepEqual(run.codes, [2]);
    assert.equal(run.text, `edgekit: the extension's CLI is missing (${path.join(root, 'gone.js')}): reinstall the extension, or build it (npm run build) when it runs from source; nothing was checked.\r\n`);
    assert.equal(kept(), 1);
    // The folder removed since the task was made.
    const task = (provider(cli).resolveTask(new Task({ type: 'edgekit', command: 'lint' }, { uri: Uri.file(dir), name: 'f', index: 0 }, 'lint', 'edgekit') as never) as unknown as Task);
    fs.rmSync(dir, { recursive: true });
    run = await runExecution(task.execution as LintExecution);
    assert.deepEqual(run.codes, [2]);
    assert.equal(run.text, `edgekit: the folder ${dir} is not there (removed or renamed); nothing was checked.\r\n`);
    assert.equal(kept(), 1);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// rv16: the ProcessExecution's CLI ran in a terminal's pty, where Ctrl+C stopped it; the pseudoterminal had no handleInput, so
// Ctrl+C in the task's terminal did nothing and the run went on.
test('Ctrl+C in a lint run\'s terminal stops the CLI (exit 130) and keeps the problems; Terminate Task (close) stops it too', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ctrlc-'));
  const cli = path.join(root, 'cli.js');
  fs.writeFileSync(cli, 'process.stdout.write(`pid ${process.pid}\\nx.filter.json:1:1-1:2 error logpush/x-y m\\n`); setInterval(() => undefined, 1000);');
  const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
  const pids: number[] = [];
  try {
    problems.replace('seed', [root], [{ file: path.join(root, 'old.filter.json'), line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', code: 'logpush/x-y', message: 'm' }]);
    for (const stop of ['ctrl+c', 'close'] as const) {
      const e = new LintExecution(process.execPath, [cli, 'lint'], { cwd: root, env: {} }, (found) => problems.replace('k', [root], found));
      const pty = await (e as unknown as CustomExecution).callback() as FakePty & { handleInput?(data: string): void };
      let text = '';
      const started = new Promise<void>((resolve) => pty.onDidWrite((s) => { text += s; if (/pid \d+\r\n/.test(text)) resolve(); }));
      const closed = new Promise<number | void>((resolve) => pty.onDidClose?.(resolve));
      pty.open();
      await started;
      const pid = Number(/pid (\d+)/.exec(text)![1]);
      pids.push(pid);
      if (stop === 'ctrl+c') pty.handleInput?.('\x03'); else pty.close();
      // The run's end: the CLI's process has ended (Node's 'close' of the child: it has exited and been reaped). A CLI left running
      // never gets there: the guard fails the test, and `finally` stops it.
      await guard((pty as unknown as LintTerminal).ended, `${stop}: the CLI still runs 10 s later`);
      if (stop === 'ctrl+c') assert.equal(await closed, 130);
      assert.equal(alive(pid), false, `${stop}: the CLI is stopped`);
      assert.deepEqual(Object.keys(published(root)), ['old.filter.json'], `${stop}: a stopped run is no verdict`);
    }
  } finally {
    for (const pid of pids) if (alive(pid)) process.kill(pid);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// VS Code marks a terminal whose process ends within its first 500 ms as one that failed to launch (terminalProcessManager's
// LAUNCHING_DURATION): a lint run of a small folder that found problems (exit 1) ended with "The terminal process failed to launch
// (exit code: 1)" under the problems it listed (seen in code-server 4.139 with the examples folder).
test('a lint run that ends early keeps its terminal open to the end of VS Code\'s launch window before it closes with its code, and says what it found', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-early-'));
  const cli = path.join(root, 'cli.js');
  fs.writeFileSync(cli, `process.stdout.write('a.filter.json:1:2-1:3 error logpush/x-y M\\n'); ${done('1')}`);
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  try {
    const pty = await (new LintExecution(process.execPath, [cli, 'lint'], { cwd: root, env: {} }, () => undefined) as unknown as CustomExecution).callback();
    let text = '';
    const codes: (number | void)[] = [];
    const summary = new Promise<void>((resolve) => pty.onDidWrite((s) => { text += s; if (/edgekit lint: /.test(text)) resolve(); }));
    pty.onDidClose?.((c) => codes.push(c));
    pty.open();
    await summary;
    assert.match(text, /^a\.filter\.json:1:2-1:3 error logpush\/x-y M\r\nedgekit lint: 1 problem \(1 error, 0 warnings\) in 1 file, in the Problems view\.\r\n$/);
    assert.deepEqual(codes, [], 'not closed within the launch window');
    t.mock.timers.tick(599);
    assert.deepEqual(codes, []);
    t.mock.timers.tick(1);
    assert.deepEqual(codes, [1]);
  } finally {
    t.mock.timers.reset();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
