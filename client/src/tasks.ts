// Tasks of type "edgekit" (package.json taskDefinitions), as VS Code's TypeScript and npm extensions provide theirs: "edgekit: lint"
// for each workspace folder in Run Task with no tasks.json, and any `{ "type": "edgekit", "command": "lint", ... }` a tasks.json
// defines. Each runs the CLI this extension carries (dist/cli.js) with the extension host's own runtime, so no `node` is needed on
// PATH, and its `--format line` output fills the Problems panel through the $edgekit and $edgekit-info problem matchers: the problems
// of every file of the folder, open or not, checked with the folder's EdgeKit settings. A task the CLI would refuse (a definition it
// cannot run, or a dataset setting it does not know) runs as a refusal instead: its terminal says why, and the Problems panel
// shows it at the setting or the tasks.json member (lintTask.ts refusalLines), since the CLI's usage error named neither.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { datasetRefusal, definitionProblem, definitionRefusal, lintArgs, refusalLines, taskName, type EdgeKitTaskDefinition, type Refusal } from './lintTask';
import { log } from './log';

export const TASK_TYPE = 'edgekit';
const MATCHERS = ['$edgekit', '$edgekit-info'];

export class LintTaskProvider implements vscode.TaskProvider {
  /** `datasets`: the names the edgekit.logpush.dataset setting offers (package.json), the ones the CLI's --dataset takes. */
  constructor(private readonly cliPath: string, private readonly datasets: readonly string[]) {}

  provideTasks(): vscode.Task[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    return folders.flatMap((folder) => [
      this.build({ type: TASK_TYPE, command: 'lint' }, folder),
      this.build({ type: TASK_TYPE, command: 'lint', fix: true }, folder),
    ]);
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const def = task.definition as { [k: string]: unknown };
    // A definition that cannot run is resolved to a task that says why when it is run, at its member in tasks.json: VS Code says
    // only that an unresolved task was ignored, in its Tasks output.
    const where = folderOf(task.scope);
    const problem = definitionProblem(def) ?? (where.problem ? { message: where.problem } : undefined);
    if (problem || !where.folder) return refusedTask(task, problem ?? { message: 'no folder is open' });
    // The same definition object: VS Code matches the resolved task to the tasks.json entry by it.
    return this.build(task.definition as EdgeKitTaskDefinition, where.folder, task.name);
  }

  private build(def: EdgeKitTaskDefinition, folder: vscode.WorkspaceFolder, name = taskName(def)): vscode.Task {
    const settings = vscode.workspace.getConfiguration('edgekit', folder.uri);
    const refusal = datasetRefusal(settings.inspect('logpush.dataset') ?? {}, this.datasets, { folderName: folder.name, folderDir: folder.uri.fsPath, ...workspacePlace() });
    if (refusal) return refusalTask(def, folder, name, refusal);
    const args = lintArgs(def, { dataset: settings.get('logpush.dataset'), scope: settings.get('logpush.scope'), maxProblems: settings.get('maxProblems'), maxFileSizeKB: settings.get('maxFileSizeKB') });
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
function folderOf(scope: vscode.Task['scope']): { folder?: vscode.WorkspaceFolder; problem?: string } {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder = scope && typeof scope === 'object' ? scope : folders.length === 1 ? folders[0] : undefined;
  if (!folder) {
    return { problem: folders.length ? `it is not in a workspace folder's tasks.json, and this workspace has ${folders.length} folders; define it in the .vscode/tasks.json of the folder to check ("paths" are relative to it)` : 'no folder is open' };
  }
  if (folder.uri.scheme !== 'file') return { problem: `the folder "${folder.name}" is not on this machine's disk (${folder.uri.scheme}:), and the CLI reads files from disk` };
  return { folder };
}

/** The window's workspace file: its path when it is on disk; else (an untitled workspace, whose settings VS Code keeps in its own
 * storage) what to call it. Neither in a window of one folder opened as such. */
function workspacePlace(): { workspaceFile?: string; workspaceName?: string } {
  const file = vscode.workspace.workspaceFile;
  if (!file) return {};
  if (file.scheme === 'file') return { workspaceFile: file.fsPath };
  return { workspaceName: file.scheme === 'untitled' ? 'the untitled workspace' : `"${path.posix.basename(file.path)}"` };
}

/** A tasks.json definition that cannot run, refused at its member in the file that holds it. */
function refusedTask(task: vscode.Task, problem: { member?: string; message: string }): vscode.Task {
  const scope = task.scope;
  const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
  const file = scope && typeof scope === 'object' ? (scope.uri.scheme === 'file' ? { path: path.join(scope.uri.fsPath, '.vscode', 'tasks.json'), workspaceFile: false } : undefined)
    : scope === vscode.TaskScope.Workspace && workspaceFile ? { path: workspaceFile, workspaceFile: true } : undefined;
  return refusalTask(task.definition, scope ?? vscode.TaskScope.Workspace, task.name, definitionRefusal(task.definition, problem, file));
}

/** A task that runs nothing: its terminal (brought up) and the Problems panel say why it cannot run, and it ends with exit code 2,
 * the CLI's code for a usage problem. The same problem matchers read the refusal's line. */
function refusalTask(def: vscode.TaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope, name: string, refusal: Refusal): vscode.Task {
  const execution = new vscode.CustomExecution(async () => new RefusalTerminal(name, refusal));
  const task = new vscode.Task(def, scope, name, TASK_TYPE, execution, MATCHERS);
  task.detail = `Cannot run: ${refusal.message}`;
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true };
  return task;
}

class RefusalTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;

  constructor(private readonly name: string, private readonly refusal: Refusal) {}

  open(): void {
    log.error(`The task "${this.name}" of type "${TASK_TYPE}" did not run: ${this.refusal.message}`);
    this.written.fire(refusalLines(this.refusal, refusalText(this.refusal)).map((l) => `${l}\r\n`).join(''));
    this.closed.fire(2);
  }

  close(): void {
    this.written.dispose();
    this.closed.dispose();
  }
}

/**
 * The text a refusal is placed in: the file's open document when there is one (the Problems entry is drawn on it, unsaved edits
 * and all), else the file on disk; undefined when neither can be read (the refusal is then said without a place).
 */
function refusalText(refusal: Refusal): { text: string | undefined; unsaved?: boolean } {
  if (!refusal.at) return { text: undefined };
  const uri = vscode.Uri.file(refusal.at.file).toString();
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  if (doc) return { text: doc.getText(), unsaved: doc.isDirty };
  try { return { text: fs.readFileSync(refusal.at.file, 'utf8') }; } catch { return { text: undefined }; }
}

/** The dataset names the edgekit.logpush.dataset setting offers (its enum in package.json). */
export function settingDatasets(packageJson: unknown): string[] {
  const props = (packageJson as { contributes?: { configuration?: { properties?: Record<string, { enum?: unknown }> } } })?.contributes?.configuration?.properties;
  const names = props?.['edgekit.logpush.dataset']?.enum;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

export function registerTasks(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.tasks.registerTaskProvider(TASK_TYPE, new LintTaskProvider(context.asAbsolutePath('dist/cli.js'), settingDatasets(context.extension.packageJSON)));
}
