// The "edgekit" task provider (client/src/tasks.ts) with the stand-in `vscode` module: which folder a tasks.json entry runs in.
import { fake, resetFake, TaskScope, Task, ProcessExecution, CustomExecution, Uri, addDocument, editDocument } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LintTaskProvider, settingDatasets } from '../../../client/src/tasks';
import { catalogue } from '../../../server/src/core';

beforeEach(() => resetFake());

const DATASETS = catalogue.logpush.datasets.map((d) => d.name);
const provider = () => new LintTaskProvider('/ext/dist/cli.js', DATASETS);

/** Runs a refused task's pseudoterminal as the task system does: what it wrote, and the exit code it closed with. */
async function runRefusal(t: Task): Promise<{ text: string; code: number | void }> {
  assert.ok(t.execution instanceof CustomExecution, 'a refusal, not the CLI');
  const pty = await t.execution.callback();
  let text = '';
  let code: number | void = undefined;
  pty.onDidWrite((s) => { text += s; });
  pty.onDidClose?.((c) => { code = c; });
  pty.open();
  return { text, code };
}

const cwdOf = (t: unknown) => ((t as Task).execution as ProcessExecution).options?.cwd;

test('Run Task lists lint and lint --fix for each folder, each running in its folder', () => {
  fake.folderSettings.set('/ws/a', new Map());
  fake.folderSettings.set('/ws/b', new Map([['maxProblems', 3]]));
  const tasks = provider().provideTasks() as unknown as Task[];
  assert.deepEqual(tasks.map((t) => `${t.name}@${cwdOf(t)}`), ['lint@/ws/a', 'lint --fix@/ws/a', 'lint@/ws/b', 'lint --fix@/ws/b']);
  assert.ok((tasks[2].execution as ProcessExecution).args.join(' ').includes('--max-problems 3'), 'the folder\'s own settings');
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
  assert.ok(ok.execution instanceof ProcessExecution && ok.execution.args.join(' ').includes('--dataset gateway_dns'));
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
