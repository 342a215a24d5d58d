// Tasks of type "edgekit" (package.json taskDefinitions), as VS Code's TypeScript and npm extensions provide theirs: "edgekit: lint"
// for each workspace folder in Run Task with no tasks.json, and any `{ "type": "edgekit", "command": "lint", ... }` a tasks.json
// defines. Each runs the CLI this extension carries (dist/cli.js) with the extension host's own runtime, so no `node` is needed on
// PATH, in a pseudoterminal that shows its `--format line` output and puts its problems in the extension's own "edgekit-lint"
// diagnostics, replacing those of the files the run checked (its folder, or its `paths`) and no others: the $edgekit problem
// matchers, which share one owner, made each run clear every other edgekit task's problems (docs/architecture.md, ui9). A task the
// CLI would refuse (a definition it cannot run, or a dataset setting it does not know) runs as a refusal instead: its terminal says
// why, and the Problems panel shows it at the setting or the tasks.json member (lintTask.ts refusalLines), since the CLI's usage
// error named neither.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { datasetRefusal, definitionProblem, definitionRefusal, lintArgs, parseLintLine, refusalLines, taskName, type EdgeKitTaskDefinition, type LintLine, type Refusal } from './lintTask';
import { log } from './log';
import { lintSummaryExit, plural } from '../../server/src/protocol';

export const TASK_TYPE = 'edgekit';

/**
 * The problems the edgekit tasks found, in one diagnostic collection ("edgekit-lint"). A run replaces the problems of the files it
 * checked (under its folder, or its `paths`), whether it reported them again or not, and keeps every other file's: another
 * folder's, another task's `paths`. A refusal's problem (at a setting or a tasks.json member) is its task's, replaced by its next run.
 */
export class TaskProblems implements vscode.Disposable {
  /** Each task's refusal problem: its file and its code. */
  private readonly refusals = new Map<string, { uri: vscode.Uri; code: string }>();

  constructor(private readonly collection: vscode.DiagnosticCollection) {}

  /** A run's findings: every file under `scope` (absolute paths of folders or files) gets `found`'s problems, or none. */
  replace(task: string, scope: readonly string[], found: readonly LintLine[]): void {
    this.dropRefusal(task);
    const inScope = (file: string) => scope.some((p) => file === p || file.startsWith(p.endsWith(path.sep) ? p : p + path.sep));
    const byFile = group(found);
    this.collection.forEach((uri) => { if (uri.scheme === 'file' && inScope(uri.fsPath) && !byFile.has(uri.fsPath)) this.collection.delete(uri); });
    for (const [file, lines] of byFile) this.collection.set(vscode.Uri.file(file), lines.map(toDiagnostic));
  }

  /** A run that did not finish: the files it reported get their problems, and every other file keeps its own (it may not have
   * been checked). */
  reported(task: string, found: readonly LintLine[]): void {
    this.replace(task, [...new Set(found.map((l) => l.file))], found);
  }

  /** A refusal's problem, in place of the task's earlier one. */
  refused(task: string, found: readonly LintLine[]): void {
    this.dropRefusal(task);
    for (const [file, lines] of group(found)) {
      const uri = vscode.Uri.file(file);
      this.collection.set(uri, [...(this.collection.get(uri) ?? []), ...lines.map(toDiagnostic)]);
      this.refusals.set(task, { uri, code: lines[0].code });
    }
  }

  private dropRefusal(task: string): void {
    const refusal = this.refusals.get(task);
    if (!refusal) return;
    this.refusals.delete(task);
    const { uri, code } = refusal;
    const left = (this.collection.get(uri) ?? []).filter((d) => d.code !== code);
    if (left.length) this.collection.set(uri, left); else this.collection.delete(uri);
  }

  dispose(): void {
    this.collection.dispose();
  }
}

function group(found: readonly LintLine[]): Map<string, LintLine[]> {
  const byFile = new Map<string, LintLine[]>();
  for (const l of found) {
    const lines = byFile.get(l.file);
    if (lines) lines.push(l); else byFile.set(l.file, [l]);
  }
  return byFile;
}

const SEVERITIES = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning, information: vscode.DiagnosticSeverity.Information, hint: vscode.DiagnosticSeverity.Hint };

/** A line of the CLI's line format as the Problems panel shows it (its columns are 1-based, the end exclusive). */
function toDiagnostic(l: LintLine): vscode.Diagnostic {
  const d = new vscode.Diagnostic(new vscode.Range(l.line - 1, l.column - 1, l.endLine - 1, l.endColumn - 1), l.message, SEVERITIES[l.severity]);
  d.source = 'edgekit';
  d.code = l.code;
  return d;
}

/** The identity of a task for its refusal: its folder (or scope) and definition. */
function taskKey(def: vscode.TaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope): string {
  return `${typeof scope === 'object' ? scope.uri.toString() : String(scope)} ${JSON.stringify({ command: def.command, fix: def.fix, paths: def.paths })}`;
}

export class LintTaskProvider implements vscode.TaskProvider {
  /** `datasets`: the names the edgekit.logpush.dataset setting offers (package.json), the ones the CLI's --dataset takes. */
  constructor(private readonly cliPath: string, private readonly datasets: readonly string[], private readonly problems: TaskProblems) {}

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
    if (problem || !where.folder) return refusedTask(task, problem ?? { message: 'no folder is open' }, this.problems);
    // The same definition object: VS Code matches the resolved task to the tasks.json entry by it.
    return this.build(task.definition as EdgeKitTaskDefinition, where.folder, task.name);
  }

  private build(def: EdgeKitTaskDefinition, folder: vscode.WorkspaceFolder, name = taskName(def)): vscode.Task {
    const settings = vscode.workspace.getConfiguration('edgekit', folder.uri);
    const refusal = datasetRefusal(settings.inspect('logpush.dataset') ?? {}, this.datasets, { folderName: folder.name, folderDir: folder.uri.fsPath, ...workspacePlace() });
    if (refusal) return refusalTask(def, folder, name, refusal, this.problems);
    const args = lintArgs(def, { dataset: settings.get('logpush.dataset'), scope: settings.get('logpush.scope'), maxProblems: settings.get('maxProblems'), maxFileSizeKB: settings.get('maxFileSizeKB') });
    // process.execPath is Node in a Node extension host and Electron in VS Code desktop's, which runs as Node with this variable.
    const cwd = folder.uri.fsPath;
    const scope = def.paths?.length ? def.paths.map((p) => path.resolve(cwd, p)) : [cwd];
    const execution = new LintExecution(process.execPath, [this.cliPath, ...args], { cwd, env: { ELECTRON_RUN_AS_NODE: '1' } },
      (found, finished) => finished ? this.problems.replace(taskKey(def, folder), scope, found) : this.problems.reported(taskKey(def, folder), found));
    // No problem matcher: the run puts its problems in TaskProblems (a matcher's owner is shared by every edgekit task).
    const task = new vscode.Task(def, folder, name, TASK_TYPE, execution, []);
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
function refusedTask(task: vscode.Task, problem: { member?: string; message: string }, problems: TaskProblems): vscode.Task {
  const scope = task.scope;
  const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
  const file = scope && typeof scope === 'object' ? (scope.uri.scheme === 'file' ? { path: path.join(scope.uri.fsPath, '.vscode', 'tasks.json'), workspaceFile: false } : undefined)
    : scope === vscode.TaskScope.Workspace && workspaceFile ? { path: workspaceFile, workspaceFile: true } : undefined;
  return refusalTask(task.definition, scope ?? vscode.TaskScope.Workspace, task.name, definitionRefusal(task.definition, problem, file), problems);
}

/** A task that runs nothing: its terminal (brought up) and the Problems panel say why it cannot run, and it ends with exit code 2,
 * the CLI's code for a usage problem. The same problem matchers read the refusal's line. */
function refusalTask(def: vscode.TaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope, name: string, refusal: Refusal, problems: TaskProblems): vscode.Task {
  const key = taskKey(def, scope);
  const execution = new vscode.CustomExecution(async () => new RefusalTerminal(name, refusal, (found) => problems.refused(key, found)));
  const task = new vscode.Task(def, scope, name, TASK_TYPE, execution, []);
  task.detail = `Cannot run: ${refusal.message}`;
  task.presentationOptions = { reveal: vscode.TaskRevealKind.Always, clear: true };
  return task;
}

class RefusalTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;

  constructor(private readonly name: string, private readonly refusal: Refusal, private readonly publish: (found: LintLine[]) => void) {}

  open(): void {
    log.error(`The task "${this.name}" of type "${TASK_TYPE}" did not run: ${this.refusal.message}`);
    const lines = refusalLines(this.refusal, refusalText(this.refusal));
    this.written.fire(lines.map((l) => `${l}\r\n`).join(''));
    this.publish(lines.map((l) => parseLintLine(l, '/')).filter((l): l is LintLine => l !== undefined));
    this.closed.fire(2);
  }

  close(): void {
    this.written.dispose();
    this.closed.dispose();
  }
}

/** What a lint run publishes when the CLI exits: its problems, and whether it finished (else they are the part it reported). */
export type LintPublish = (found: LintLine[], finished: boolean) => void;

/** The CLI's run: the process a ProcessExecution would run (for tests and the log), run in a pseudoterminal of its own; `args[0]`
 * is the CLI's script. */
export class LintExecution extends vscode.CustomExecution {
  constructor(readonly process: string, readonly args: string[], readonly options: { cwd: string; env: Record<string, string> }, publish: LintPublish) {
    super(async () => new LintTerminal(process, args, options, publish));
  }
}

/** Runs the CLI, shows what it writes, and publishes the problems of its lines when it exits, with its exit code. */
export class LintTerminal implements vscode.Pseudoterminal {
  private readonly written = new vscode.EventEmitter<string>();
  private readonly closed = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.written.event;
  readonly onDidClose = this.closed.event;
  /** Settles when the run is over: the CLI's process has ended (or never started) and the terminal has closed, or will not (Terminate
   * Task). Nothing of the run comes after it (a test waits for it rather than for a while). */
  readonly ended: Promise<void>;
  private end!: () => void;
  private child: ChildProcess | undefined;
  private closing: NodeJS.Timeout | undefined;
  /** Ctrl+C or Terminate Task stopped the CLI. */
  private stopped = false;

  constructor(private readonly command: string, private readonly args: string[], private readonly options: { cwd: string; env: Record<string, string> },
    private readonly publish: LintPublish) {
    this.ended = new Promise<void>((resolve) => { this.end = resolve; });
  }

  open(): void {
    const opened = Date.now();
    const found: LintLine[] = [];
    /** The CLI's stderr lines that are not problems: why it stopped, when it did not finish. */
    const said: string[] = [];
    /** The exit code the CLI's last line (lint --summary) named: the run went to its end if it exits with it. */
    let summary: number | undefined;
    // Both streams, line by line, as a problem matcher reads the terminal: the CLI writes a path it could not check to stderr, in
    // the line format too (cli/not-checked). `other` takes every other line; when it returns false, the line is not shown.
    const reader = (other?: (line: string) => boolean) => {
      let rest = '';
      return (chunk: string, end = false) => {
        const parts = (rest + chunk).split(/\r?\n/);
        rest = end ? '' : parts.pop()!;
        for (const l of parts) {
          if (end && l === '') continue;
          const p = parseLintLine(l, this.options.cwd);
          if (p) found.push(p); else if (other?.(l) === false) continue;
          this.written.fire(`${l}\r\n`);
        }
      };
    };
    const out = reader();
    // The summary is the task's to read: its own line under the problems says what the run found.
    const err = reader((l) => {
      const exit = lintSummaryExit(l);
      if (exit === undefined) return said.push(l) > 0;
      summary = exit;
      return false;
    });
    // What Node would say of these only after the spawn (the folder as "spawn <runtime> ENOENT", the bundle as its exit 1 with a
    // stack trace, read as a run that found nothing), said as what it is. A run that did not start leaves the problems as they were.
    const notStarted = !isDirectory(this.options.cwd) ? `the folder ${this.options.cwd} is not there (removed or renamed)`
      : !isFile(this.args[0]) ? `the extension's CLI is missing (${this.args[0]}): reinstall the extension, or build it (npm run build) when it runs from source`
        : undefined;
    if (notStarted) return this.fail(notStarted);
    let failed = false;
    const child = this.child = spawn(this.command, this.args, { cwd: this.options.cwd, env: { ...process.env, ...this.options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.setEncoding('utf8').on('data', (c: string) => out(c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => err(c));
    // A spawn that failed is an 'error' and then a 'close' (code -2 for ENOENT): the terminal closes once, on the error.
    child.on('error', (e) => {
      if (this.child !== child) return; // a kill that failed after the exit
      failed = true;
      this.child = undefined;
      this.written.fire(`edgekit: the CLI did not start: ${e.message}; nothing was checked.\r\n`);
      this.closed.fire(2);
    });
    child.on('close', (code, signal) => {
      if (failed) return this.end();
      this.child = undefined;
      out('', true);
      err('', true);
      // Finished: the CLI exited with the code its summary named (lint --summary, its last line). Not the exit code alone: Node's
      // exit 1 for an uncaught error, or main's exit 2 for an internal one, after part of the report read as errors found or paths
      // not checked, and an exit 1 of --max-warnings on warnings only as a crash (cl12).
      if (signal === null && code === summary) {
        this.publish(found, true);
        this.written.fire(`${foundLine(found)}\r\n`);
      } else if (this.stopped) {
        // A run stopped (Ctrl+C, Terminate Task) is no verdict on the files: their problems stay as they were.
      } else {
        // A crash (an internal error, a usage error, killed by the system, no summary or another code than it named): the problems
        // it reported are published as what they are, the part it reported, and no file is cleared for not being in it (cl11).
        this.publish(found, false);
        const stop = didNotFinish(code, signal, said, found);
        log.error(`edgekit lint in ${this.options.cwd} ${stop.replace(/^edgekit lint: /, '')}`);
        this.written.fire(`${stop}\r\n`);
      }
      // Killed by a signal: the shell's code for it (130 for Ctrl+C's SIGINT, 143 for SIGTERM).
      const exit = code ?? (signal ? 128 + os.constants.signals[signal] : 1);
      // VS Code takes a terminal whose process ends within its first 500 ms for one that failed to launch (terminalProcessManager's
      // LAUNCHING_DURATION): a run of a small folder that found problems ended with "The terminal process failed to launch (exit
      // code: 1)". Its close waits for the end of that window; there is no event for it. Exit 0 says nothing there, so it goes at once.
      const early = LAUNCH_WINDOW_MS - (Date.now() - opened);
      if (exit !== 0 && early > 0) this.closing = setTimeout(() => { this.closing = undefined; this.closeWith(exit); }, early);
      else this.closeWith(exit);
    });
  }

  /** Ctrl+C stops the CLI, as it does a process in a terminal's pty (what the ProcessExecution ran in); other keys are ignored. */
  handleInput(data: string): void {
    if (!data.includes('\x03') || !this.child) return;
    this.written.fire('^C\r\n');
    this.stopped = true;
    this.child.kill('SIGINT');
  }

  private fail(why: string): void {
    this.written.fire(`edgekit: ${why}; nothing was checked.\r\n`);
    this.closeWith(2);
  }

  private closeWith(exit: number): void {
    this.closed.fire(exit);
    this.end();
  }

  close(): void {
    if (this.child) {
      this.stopped = true;
      this.child.kill();
    }
    if (this.closing) {
      clearTimeout(this.closing);
      this.closing = undefined;
      this.end();
    }
  }
}

/** What a run that did not finish says under its lines: why (the exit code or signal and the CLI's last word on stderr), and that
 * what it reported is partial. */
function didNotFinish(code: number | null, signal: NodeJS.Signals | null, said: readonly string[], found: readonly LintLine[]): string {
  const last = lastSaid(said);
  const why = `${signal ? `the CLI was killed by ${signal}` : `the CLI exited with code ${code}`}${last ? ` (${last})` : ', saying nothing on stderr'}`;
  const what = found.length
    ? `The problems above are partial: ${foundCount(found)}, in the Problems view; the files it did not report keep the problems they had.`
    : 'It reported no problem; the Problems view keeps the problems it had.';
  return `edgekit lint: did not finish: ${why}. ${what}`;
}

/** The CLI's last line on stderr that says something: not a stack frame of Node's report of an uncaught error, nor its closing
 * "Node.js v24.0.0", nor a native frame of V8's fatal error. */
function lastSaid(said: readonly string[]): string | undefined {
  return said.filter((l) => l.trim() !== '' && !/^\s+at\s/.test(l) && !/^Node\.js v\d/.test(l) && !/^\s*\d+: 0x[0-9a-f]+/i.test(l)).at(-1)?.trim();
}

/** VS Code's launch window for a terminal's process, and a little more (LintTerminal's close). */
const LAUNCH_WINDOW_MS = 600;

/** What a run found, under its lines: "edgekit lint: 3 problems (2 errors, 1 warning) in 2 files, in the Problems view." */
function foundLine(found: readonly LintLine[]): string {
  return found.length === 0 ? 'edgekit lint: no problems.' : `edgekit lint: ${foundCount(found)}, in the Problems view.`;
}

/** "3 problems (2 errors, 1 warning) in 2 files" */
function foundCount(found: readonly LintLine[]): string {
  const errors = found.filter((f) => f.severity === 'error').length;
  const warnings = found.filter((f) => f.severity === 'warning').length;
  const files = new Set(found.map((f) => f.file)).size;
  return `${plural(found.length, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}) in ${plural(files, 'file')}`;
}

function isDirectory(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}

function isFile(p: string | undefined): boolean {
  try { return p !== undefined && fs.statSync(p).isFile(); } catch { return false; }
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
  const problems = new TaskProblems(vscode.languages.createDiagnosticCollection('edgekit-lint'));
  return vscode.Disposable.from(problems,
    vscode.tasks.registerTaskProvider(TASK_TYPE, new LintTaskProvider(context.asAbsolutePath('dist/cli.js'), settingDatasets(context.extension.packageJSON), problems)));
}
