// The "edgekit" task provider (client/src/tasks.ts) with the stand-in `vscode` module: which folder a tasks.json entry runs in.
import { fake, resetFake, TaskScope, Task, ProcessExecution } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { LintTaskProvider } from '../../../client/src/tasks';

beforeEach(() => resetFake());

const cwdOf = (t: unknown) => ((t as Task).execution as ProcessExecution).options?.cwd;

test('Run Task lists lint and lint --fix for each folder, each running in its folder', () => {
  fake.folderSettings.set('/ws/a', new Map());
  fake.folderSettings.set('/ws/b', new Map([['maxProblems', 3]]));
  const tasks = new LintTaskProvider('/ext/dist/cli.js').provideTasks() as unknown as Task[];
  assert.deepEqual(tasks.map((t) => `${t.name}@${cwdOf(t)}`), ['lint@/ws/a', 'lint --fix@/ws/a', 'lint@/ws/b', 'lint --fix@/ws/b']);
  assert.ok(tasks[2].execution!.args.join(' ').includes('--max-problems 3'), 'the folder\'s own settings');
});

test('a workspace-file or user task names no folder: in a multi-root workspace it is refused with the reason, not run in the first folder', () => {
  // VS Code's TypeScript task provider refuses these too ("scope is required to be a WorkspaceFolder"); picking the first folder
  // checked another folder than the one the user may mean, and the Problems shown were that folder's.
  const provider = new LintTaskProvider('/ext/dist/cli.js');
  fake.folderSettings.set('/ws/a', new Map());
  fake.folderSettings.set('/ws/b', new Map());
  for (const scope of [TaskScope.Workspace, TaskScope.Global]) {
    const def = { type: 'edgekit', command: 'lint' };
    assert.equal(provider.resolveTask(new Task(def, scope, 'lint all', 'edgekit') as never), undefined);
  }
  assert.match(fake.logged.join('\n'), /error: The task "lint all" of type "edgekit" cannot run: it is not in a workspace folder.s tasks.json, and this workspace has 2 folders/);
  // One folder: it is the folder, and the resolved task keeps the definition object (VS Code matches it to the tasks.json entry).
  fake.folderSettings.delete('/ws/b');
  const def = { type: 'edgekit', command: 'lint', paths: ['filters'] };
  const resolved = provider.resolveTask(new Task(def, TaskScope.Workspace, 'lint filters', 'edgekit') as never) as unknown as Task;
  assert.equal(cwdOf(resolved), '/ws/a');
  assert.equal(resolved.definition, def);
  assert.equal(resolved.name, 'lint filters');
});
