import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, codeOf, removeFolder, setSetting, waitForDiagnostics, wsUri } from './helpers';

// The CLI as a VS Code task with the extension's problem matchers (docs/ci.md "VS Code tasks"): a file that is not open gets the
// CLI's findings in the Problems panel, at the ranges and with the codes the CLI prints; the command runs the extension's own
// bundled CLI through ${extensionInstallFolder:edgekit.edgekit}.
suite('Tasks: edgekit lint with the $edgekit problem matchers', () => {
  suiteSetup(async () => {
    await api();
  });

  suiteTeardown(() => removeFolder('tasks'));

  test('a lint task fills the Problems panel for a file that is not open', async () => {
    const file = wsUri('tasks/closed.filter.json');
    fs.mkdirSync(path.dirname(file.fsPath), { recursive: true });
    fs.writeFileSync(file.fsPath, '{\n  "where": {"key": "EdgeResponseStatus", "operator": "in", "value": 403}\n}\n');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === file.toString()), 'the file is not open');
    const folder = vscode.workspace.workspaceFolders![0];
    const task = new vscode.Task({ type: 'shell' }, folder, 'EdgeKit: lint', 'edgekit-test',
      new vscode.ShellExecution('node "${extensionInstallFolder:edgekit.edgekit}/dist/cli.js" lint --format line tasks'), ['$edgekit', '$edgekit-info']);
    const ended = new Promise<number | undefined>((resolve) => {
      const sub = vscode.tasks.onDidEndTaskProcess((e) => { if (e.execution.task.name === 'EdgeKit: lint') { sub.dispose(); resolve(e.exitCode); } });
    });
    await vscode.tasks.executeTask(task);
    assert.equal(await ended, 1, 'the CLI found an error (exit 1)');
    const ds = await waitForDiagnostics(file, (d) => d.some((x) => codeOf(x) === 'logpush/set-needs-array'), 'the task\'s diagnostic');
    const d = ds.find((x) => codeOf(x) === 'logpush/set-needs-array')!;
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d.range.start.line, 1);
    const text = fs.readFileSync(file.fsPath, 'utf8').split('\n')[1];
    assert.equal(text.slice(d.range.start.character, d.range.end.character), '403');
  });

  test('the extension\'s own "edgekit: lint" task needs no tasks.json and no node on PATH, and fills the Problems panel', async () => {
    const file = wsUri('tasks/provided.filter.json');
    fs.mkdirSync(path.dirname(file.fsPath), { recursive: true });
    fs.writeFileSync(file.fsPath, '{\n  "where": {"key": "EdgeResponseStatus", "operator": "in", "value": 404}\n}\n');
    const tasks = await vscode.tasks.fetchTasks({ type: 'edgekit' });
    assert.deepEqual(tasks.map((t) => t.name).sort(), ['lint', 'lint --fix']);
    const lint = tasks.find((t) => t.name === 'lint')!;
    assert.equal(lint.source, 'edgekit');
    // The CLI in a pseudoterminal of the extension's (its process and arguments: test/unit/client/tasks.test.ts), whose problems
    // go to the extension's own "edgekit-lint" diagnostics (ui9), not through the $edgekit matchers' shared owner.
    assert.ok(lint.execution instanceof vscode.CustomExecution);
    assert.deepEqual(lint.problemMatchers, []);
    const ended = taskEndOf('lint');
    await vscode.tasks.executeTask(lint);
    await ended;
    const ds = await waitForDiagnostics(file, (d) => d.some((x) => codeOf(x) === 'logpush/set-needs-array' && x.message.includes('404')), 'the task\'s diagnostic');
    const text = fs.readFileSync(file.fsPath, 'utf8').split('\n')[1];
    const d = ds.find((x) => codeOf(x) === 'logpush/set-needs-array')!;
    assert.equal(text.slice(d.range.start.character, d.range.end.character), '404');
  });

  test('a tasks.json task of type "edgekit" is resolved by the extension: its paths, and the folder\'s dataset setting', async () => {
    const dns = wsUri('tasks/dns/dns.filter.json');
    const outside = wsUri('tasks/elsewhere/other.filter.json');
    for (const f of [dns, outside]) {
      fs.mkdirSync(path.dirname(f.fsPath), { recursive: true });
      // ClientRequestPath is an http_requests field: wrong only when the dataset setting says gateway_dns.
      fs.writeFileSync(f.fsPath, '{\n  "where": {"key": "ClientRequestPath", "operator": "eq", "value": "/"}\n}\n');
    }
    const folder = vscode.workspace.workspaceFolders![0];
    const config = vscode.workspace.getConfiguration('tasks', folder.uri);
    await setSetting('logpush.dataset', 'gateway_dns', vscode.ConfigurationTarget.Workspace);
    try {
      await config.update('version', '2.0.0', vscode.ConfigurationTarget.Workspace);
      await config.update('tasks', [{ label: 'EdgeKit: DNS filters', type: 'edgekit', command: 'lint', paths: ['tasks/dns'] }], vscode.ConfigurationTarget.Workspace);
      // The task service reads tasks.json on its own change event, which the API does not expose: ask until the task is there.
      let mine: vscode.Task | undefined;
      for (let i = 0; i < 100 && !mine; i++) {
        mine = (await vscode.tasks.fetchTasks({ type: 'edgekit' })).find((t) => t.name === 'EdgeKit: DNS filters');
        if (!mine) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(mine, 'the tasks.json task is listed');
      const ended = taskEndOf('EdgeKit: DNS filters');
      await vscode.tasks.executeTask(mine);
      await ended;
      await waitForDiagnostics(dns, (d) => d.some((x) => codeOf(x) === 'logpush/unknown-field' && x.message.includes('ClientRequestPath')), 'the unknown field under gateway_dns');
      assert.equal(vscode.languages.getDiagnostics(outside).length, 0, 'a file outside the task\'s paths is not checked');
    } finally {
      await config.update('tasks', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('version', undefined, vscode.ConfigurationTarget.Workspace);
      await setSetting('logpush.dataset', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('a dataset setting the CLI does not know: the task does not run it, and Problems shows why at the setting in settings.json', async () => {
    // The task passed it as --dataset nope: the CLI's usage error (exit 2) named neither the setting nor where it was set, and the
    // Problems panel showed nothing.
    const folder = vscode.workspace.workspaceFolders![0];
    const settingsFile = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    await setSetting('logpush.dataset', 'nope', vscode.ConfigurationTarget.Workspace);
    try {
      const lint = (await vscode.tasks.fetchTasks({ type: 'edgekit' })).find((t) => t.name === 'lint')!;
      assert.match(lint.detail ?? '', /^Cannot run: Unknown dataset "nope" in the edgekit\.logpush\.dataset setting/, 'a refusal, not the CLI');
      // A refusal runs no process (onDidEndTaskProcess does not fire for it): its end is the task's.
      const ended = taskEndOf('lint');
      await vscode.tasks.executeTask(lint);
      await ended;
      const ds = await waitForDiagnostics(settingsFile, (d) => d.some((x) => codeOf(x) === 'logpush/unknown-dataset'), 'the refusal at the setting');
      const d = ds.find((x) => codeOf(x) === 'logpush/unknown-dataset')!;
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
      assert.match(d.message, /Unknown dataset "nope" in the edgekit\.logpush\.dataset setting/);
      const line = fs.readFileSync(settingsFile.fsPath, 'utf8').split(/\r?\n/)[d.range.start.line];
      assert.equal(line.slice(d.range.start.character, d.range.end.character), '"nope"');
    } finally {
      await setSetting('logpush.dataset', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  // ui9: the $edgekit matchers' one owner made VS Code clear every edgekit task's problems when any edgekit task ended: running the
  // lint of "tasks/two" cleared what the lint of "tasks/one" had found. The tasks publish their own diagnostics now, per file.
  test('one edgekit task\'s run keeps the problems another edgekit task found in files it did not check', async () => {
    const one = wsUri('tasks/one/one.filter.json');
    const two = wsUri('tasks/two/two.filter.json');
    for (const [f, v] of [[one, 406], [two, 407]] as const) {
      fs.mkdirSync(path.dirname(f.fsPath), { recursive: true });
      fs.writeFileSync(f.fsPath, `{\n  "where": {"key": "EdgeResponseStatus", "operator": "in", "value": ${v}}\n}\n`);
    }
    const folder = vscode.workspace.workspaceFolders![0];
    const config = vscode.workspace.getConfiguration('tasks', folder.uri);
    try {
      await config.update('version', '2.0.0', vscode.ConfigurationTarget.Workspace);
      await config.update('tasks', [{ label: 'EdgeKit: one', type: 'edgekit', command: 'lint', paths: ['tasks/one'] }, { label: 'EdgeKit: two', type: 'edgekit', command: 'lint', paths: ['tasks/two'] }], vscode.ConfigurationTarget.Workspace);
      const find = async (name: string) => {
        for (let i = 0; i < 100; i++) {
          const t = (await vscode.tasks.fetchTasks({ type: 'edgekit' })).find((x) => x.name === name);
          if (t) return t;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`the tasks.json task ${name} is not listed`);
      };
      const found = (f: vscode.Uri) => vscode.languages.getDiagnostics(f).some((x) => codeOf(x) === 'logpush/set-needs-array');
      for (const [name, file] of [['EdgeKit: one', one], ['EdgeKit: two', two]] as const) {
        const ended = taskEndOf(name);
        await vscode.tasks.executeTask(await find(name));
        await ended;
        await waitForDiagnostics(file, (d) => d.some((x) => codeOf(x) === 'logpush/set-needs-array'), `${name}'s problem`);
      }
      assert.ok(found(one), 'the problem "EdgeKit: one" found stays after "EdgeKit: two" ran');
      // Mended and run again: that task's file is clear, the other's problem stays.
      fs.writeFileSync(one.fsPath, '{\n  "where": {"key": "EdgeResponseStatus", "operator": "in", "value": [406]}\n}\n');
      const ended = taskEndOf('EdgeKit: one');
      await vscode.tasks.executeTask(await find('EdgeKit: one'));
      await ended;
      await waitForDiagnostics(one, (d) => !d.some((x) => codeOf(x) === 'logpush/set-needs-array'), 'one\'s problem gone');
      assert.ok(found(two), 'two\'s problem stays');
    } finally {
      await config.update('tasks', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('version', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('lint --fix on a read-only file: the file is unchanged, and Problems says so at the file with the problems it still has', async () => {
    const file = wsUri('tasks/readonly/ro.filter.json');
    const original = '{\n  "where": {"key": "EdgeResponseStatus", "operator": "in", "value": 405}\n}\n';
    fs.mkdirSync(path.dirname(file.fsPath), { recursive: true });
    fs.writeFileSync(file.fsPath, original);
    fs.chmodSync(file.fsPath, 0o444);
    const folder = vscode.workspace.workspaceFolders![0];
    const task = new vscode.Task({ type: 'shell' }, folder, 'EdgeKit: fix read-only', 'edgekit-test',
      new vscode.ShellExecution('node "${extensionInstallFolder:edgekit.edgekit}/dist/cli.js" lint --fix --format line tasks/readonly'), ['$edgekit', '$edgekit-info']);
    try {
      const ended = endOf('EdgeKit: fix read-only');
      await vscode.tasks.executeTask(task);
      assert.equal(await ended, 2, 'a path whose fixes were not written (exit 2)');
      const ds = await waitForDiagnostics(file, (d) => d.some((x) => codeOf(x) === 'cli/not-fixed') && d.some((x) => codeOf(x) === 'logpush/set-needs-array'), 'the refusal and the problem left');
      assert.match(ds.find((x) => codeOf(x) === 'cli/not-fixed')!.message, /is read-only/);
      assert.equal(fs.readFileSync(file.fsPath, 'utf8'), original);
    } finally {
      fs.chmodSync(file.fsPath, 0o644);
    }
  });
});

/** The end of the next run of the task named `name` (a task of the extension runs no process of VS Code's: onDidEndTaskProcess
 * does not fire for it). */
function taskEndOf(name: string): Promise<void> {
  return new Promise((resolve) => {
    const sub = vscode.tasks.onDidEndTask((e) => { if (e.execution.task.name === name) { sub.dispose(); resolve(); } });
  });
}

/** The exit code of the next run of the task named `name`. */
function endOf(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const sub = vscode.tasks.onDidEndTaskProcess((e) => { if (e.execution.task.name === name) { sub.dispose(); resolve(e.exitCode); } });
  });
}
