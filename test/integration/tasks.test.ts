import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, codeOf, removeFolder, waitForDiagnostics, wsUri } from './helpers';

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
});
