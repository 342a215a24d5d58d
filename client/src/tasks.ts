// Tasks of type "edgekit" (package.json taskDefinitions), as VS Code's TypeScript and npm extensions provide theirs: "edgekit: lint"
// for each workspace folder in Run Task with no tasks.json, and any `{ "type": "edgekit", "command": "lint", ... }` a tasks.json
// defines. Each runs the CLI this extension carries (dist/cli.js) with the extension host's own runtime, so no `node` is needed on
// PATH, and its `--format line` output fills the Problems panel through the $edgekit and $edgekit-info problem matchers: the problems
// of every file of the folder, open or not, checked with the folder's EdgeKit settings.
import * as vscode from 'vscode';
import { definitionProblem, lintArgs, taskName, type EdgeKitTaskDefinition } from './lintTask';
import { log } from './log';

export const TASK_TYPE = 'edgekit';
const MATCHERS = ['$edgekit', '$edgekit-info'];

export class LintTaskProvider implements vscode.TaskProvider {
  constructor(private readonly cliPath: string) {}

  provideTasks(): vscode.Task[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    return folders.flatMap((folder) => [
      this.build({ type: TASK_TYPE, command: 'lint' }, folder),
      this.build({ type: TASK_TYPE, command: 'lint', fix: true }, folder),
    ]);
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const def = task.definition as { [k: string]: unknown };
    const problem = definitionProblem(def);
    if (problem) {
      // VS Code says only that the task could not be resolved; the reason goes to the EdgeKit log.
      log.error(`The task "${task.name}" of type "${TASK_TYPE}" cannot run: ${problem}.`);
      return undefined;
    }
    const folder = folderOf(task.scope);
    if ('problem' in folder) {
      log.error(`The task "${task.name}" of type "${TASK_TYPE}" cannot run: ${folder.problem}.`);
      return undefined;
    }
    // The same definition object: VS Code matches the resolved task to the tasks.json entry by it.
    return this.build(task.definition as EdgeKitTaskDefinition, folder.folder, task.name);
  }

  private build(def: EdgeKitTaskDefinition, folder: vscode.WorkspaceFolder, name = taskName(def)): vscode.Task {
    const settings = vscode.workspace.getConfiguration('edgekit', folder.uri);
    const args = lintArgs(def, { dataset: settings.get('logpush.dataset'), maxProblems: settings.get('maxProblems'), maxFileSizeKB: settings.get('maxFileSizeKB') });
    // process.execPath is Node in a Node extension host and Electron in VS Code desktop's, which runs as Node with this variable.
    const execution = new vscode.ProcessExecution(process.execPath, [this.cliPath, ...args], { cwd: folder.uri.fsPath, env: { ELECTRON_RUN_AS_NODE: '1' } });
    const task = new vscode.Task(def, folder, name, TASK_TYPE, execution, MATCHERS);
    task.detail = def.fix ? 'Fix every unambiguous problem in the files, then list what is left in Problems' : 'Check every EdgeKit file of the folder; problems go to Problems';
    task.presentationOptions = { reveal: vscode.TaskRevealKind.Silent, clear: true };
    return task;
  }
}

/**
 * The folder a tasks.json entry runs in: its own folder; for one in a .code-workspace file or the user's tasks (no folder), the
 * workspace's folder when it has only one. With several, which one is meant cannot be told (VS Code's TypeScript provider refuses
 * these too), and the first folder's Problems would pass for the workspace's.
 */
function folderOf(scope: vscode.Task['scope']): { folder: vscode.WorkspaceFolder } | { problem: string } {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder = scope && typeof scope === 'object' ? scope : folders.length === 1 ? folders[0] : undefined;
  if (!folder) {
    return { problem: folders.length ? `it is not in a workspace folder's tasks.json, and this workspace has ${folders.length} folders; define it in the .vscode/tasks.json of the folder to check ("paths" are relative to it)` : 'no folder is open' };
  }
  if (folder.uri.scheme !== 'file') return { problem: `the folder "${folder.name}" is not on this machine's disk (${folder.uri.scheme}:), and the CLI reads files from disk` };
  return { folder };
}

export function registerTasks(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.tasks.registerTaskProvider(TASK_TYPE, new LintTaskProvider(context.asAbsolutePath('dist/cli.js')));
}
