// The arguments of an `edgekit` task (package.json taskDefinitions): the bundled CLI's `lint --format line`, whose lines the task
// reads into its problems (parseLintLine, the $edgekit and $edgekit-info problem matchers' regexp), with the settings the language
// server checks the same files with, so that the task's Problems are the editor's. No vscode import: a unit test holds it to the
// CLI's parser. Also here: what makes a task refuse to run (a definition or a setting the CLI cannot run with), said where it was
// written, in a line of the same format.
import * as path from 'node:path';
import { findNodeAtLocation, getNodeValue, parseTree, type JSONPath, type Node as JsonNode } from 'jsonc-parser';
import { normalizeSettings } from '../../server/src/protocol';

/** A task as tasks.json or the provider defines it: `{ "type": "edgekit", "command": "lint", "fix"?: true, "paths"?: [...] }`. */
export interface EdgeKitTaskDefinition {
  type: 'edgekit';
  command: 'lint';
  /** Write every unambiguous fix into the files first (`lint --fix`). */
  fix?: boolean;
  /** Files and folders to check, relative to the task's folder; the whole folder when absent or empty. */
  paths?: string[];
}

/** The settings of the folder the task runs in that change what lint reports (the server reads the same ones per document). */
export interface LintSettings {
  dataset?: unknown;
  scope?: unknown;
  maxProblems?: unknown;
  maxFileSizeKB?: unknown;
}

/** What is wrong with a task definition: the member and, in words naming it, why; undefined when it can run. */
export function definitionProblem(def: { [k: string]: unknown }): { member: string; message: string } | undefined {
  if (def.command !== 'lint') return { member: 'command', message: `"command" must be "lint", not ${JSON.stringify(def.command)}` };
  if (def.fix !== undefined && typeof def.fix !== 'boolean') return { member: 'fix', message: `"fix" must be true or false, not ${JSON.stringify(def.fix)}` };
  if (def.paths !== undefined && (!Array.isArray(def.paths) || def.paths.some((p) => typeof p !== 'string' || p === ''))) {
    return { member: 'paths', message: `"paths" must be a list of file or folder names, not ${JSON.stringify(def.paths)}` };
  }
  return undefined;
}

/**
 * The CLI's arguments after its path. The settings are read as the language server reads them (normalizeSettings: a bad or
 * out-of-range value is its default, a fraction is rounded down) and always passed, so that the task checks with the values the
 * editor checks with: the CLI's own defaults differ (no size limit).
 */
export function lintArgs(def: EdgeKitTaskDefinition, s: LintSettings): string[] {
  const n = normalizeSettings({ logpush: { dataset: s.dataset, scope: s.scope }, maxProblems: s.maxProblems, maxFileSizeKB: s.maxFileSizeKB });
  const args = ['lint', '--format', 'line'];
  if (def.fix) args.push('--fix');
  args.push('--dataset', n.logpush.dataset, ...(n.logpush.scope ? ['--scope', n.logpush.scope] : []), '--max-problems', String(n.maxProblems), '--max-file-size', String(n.maxFileSizeKB));
  // Its last line names the exit code of a run that went to its end: the task tells a crash by it (tasks.ts LintTerminal).
  args.push('--summary');
  // After `--` a path that starts with "-" is a path, not an option.
  // The whole folder may hold no EdgeKit file (a folder of a multi-root workspace): nothing to check is no error there. Paths the
  // definition names are the user's, and one with nothing to check is a mistake the CLI reports.
  if (!def.paths?.length) args.push('--allow-empty');
  args.push('--', ...(def.paths?.length ? def.paths : ['.']));
  return args;
}

/** A line of the CLI's `--format line` output: `FILE:L:C-L:C severity code message` (1-based, the end column exclusive). */
export interface LintLine {
  file: string;
  line: number; column: number; endLine: number; endColumn: number;
  severity: 'error' | 'warning' | 'information' | 'hint';
  code: string;
  message: string;
}

/** The one regexp of the line format, the $edgekit and $edgekit-info problem matchers' (package.json; a unit test holds them equal):
 * the file name runs to the first position followed by a severity and a code of the registry's shape. */
export const LINE_FORMAT = /^(.+?):(\d+):(\d+)-(\d+):(\d+) (error|warning|information|hint) ([a-z]+\/[a-z0-9]+(?:-[a-z0-9]+)*) (.*)$/;

/** A line of the CLI's output read as its problem (a relative file name resolved against `cwd`), or undefined for any other line. */
export function parseLintLine(text: string, cwd: string): LintLine | undefined {
  const m = LINE_FORMAT.exec(text);
  if (!m) return undefined;
  return {
    file: path.resolve(cwd, m[1]), line: Number(m[2]), column: Number(m[3]), endLine: Number(m[4]), endColumn: Number(m[5]),
    severity: m[6] as LintLine['severity'], code: m[7], message: m[8],
  };
}

/** The task's name in the Run Task list (shown as "edgekit: <name>"). */
export function taskName(def: EdgeKitTaskDefinition): string {
  return `lint${def.fix ? ' --fix' : ''}${def.paths?.length ? ` ${def.paths.join(' ')}` : ''}`;
}

/** Why a task does not run, and where that was written: a settings file or a tasks.json. */
export interface Refusal {
  /** The code of the Problems entry: the language server's own code for the same mistake where it has one. */
  code: string;
  /** One sentence naming what is wrong (the setting or member and its value) and where it is set. */
  message: string;
  /** The file, and the JSON path of the value in it; with `entry`, `path` leads to a "tasks" array and the value is the member of
   * the entry that is this definition (the whole entry without a member). */
  at?: { file: string; path: JSONPath; entry?: { def: { [k: string]: unknown }; member?: string } };
}

/** Where a setting has a value (VS Code's WorkspaceConfiguration.inspect): the most specific one counts. */
export interface SettingValues { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown }

/** The folder a task runs in (its name, its path on disk); the window's .code-workspace file when it has one on disk, or
 * `workspaceName` when its workspace file is elsewhere (an untitled workspace, whose settings VS Code keeps in its own storage). */
export interface TaskPlace { folderName: string; folderDir: string; workspaceFile?: string; workspaceName?: string }

const DATASET_SETTING = 'edgekit.logpush.dataset';

/**
 * The dataset setting, when the CLI would refuse it (`--dataset`: an unknown name is a usage error, exit 2). A value that is
 * not a dataset name at all is no refusal: normalizeSettings gives the default for it, the language server checks with that
 * default too, and so does the task. A name that is no dataset the server keeps, and reports `logpush/unknown-dataset` "(from
 * the edgekit.logpush.dataset setting)" in each standalone filter without "$dataset"; the task says so once, at the setting.
 * `datasets`: the names the setting offers (package.json's enum, held equal to the catalogue by a test).
 */
export function datasetRefusal(values: SettingValues, datasets: readonly string[], place: TaskPlace): Refusal | undefined {
  const scope = values.workspaceFolderValue !== undefined ? 'folder' : values.workspaceValue !== undefined ? 'workspace' : values.globalValue !== undefined ? 'user' : undefined;
  if (!scope || datasets.length === 0) return undefined; // the default, a dataset; or no list to tell by
  const value = scope === 'folder' ? values.workspaceFolderValue : scope === 'workspace' ? values.workspaceValue : values.globalValue;
  const used = normalizeSettings({ logpush: { dataset: value } }).logpush.dataset;
  if (used !== value || datasets.includes(used)) return undefined;
  // Workspace settings are the workspace file's "settings" in a window that has one (no file on disk to point at when it is
  // untitled), else the folder's .vscode/settings.json.
  const where = scope === 'user' ? { label: 'User settings' }
    : scope === 'workspace' && place.workspaceFile
      ? { label: `workspace settings, ${path.basename(place.workspaceFile)}`, at: { file: place.workspaceFile, path: ['settings', DATASET_SETTING] } }
      : scope === 'workspace' && place.workspaceName
        ? { label: `workspace settings of ${place.workspaceName}` }
        : { label: `settings of the folder "${place.folderName}", .vscode/settings.json`, at: { file: path.join(place.folderDir, '.vscode', 'settings.json'), path: [DATASET_SETTING] } };
  return {
    code: 'logpush/unknown-dataset',
    message: `Unknown dataset "${used}" in the ${DATASET_SETTING} setting (${where.label}); choose one the setting offers, or remove it. ` +
      'The lint task does not run with it (the editor reports it in each standalone *.filter.json without "$dataset").',
    ...(where.at ? { at: where.at } : {}),
  };
}

/** A definition the task cannot run, said at its member in the tasks.json that holds it: `file` is a folder's .vscode/tasks.json,
 * or the .code-workspace file (its "tasks" member), or undefined for the user's tasks (the API gives no path for them). */
export function definitionRefusal(def: { [k: string]: unknown }, problem: { member?: string; message: string }, file?: { path: string; workspaceFile: boolean }): Refusal {
  return {
    code: 'task/cannot-run',
    message: `This task of type "edgekit" cannot run: ${problem.message}.`,
    ...(file ? { at: { file: file.path, path: file.workspaceFile ? ['tasks', 'tasks'] : ['tasks'], entry: { def, member: problem.member } } } : {}),
  };
}

/** The 1-based range of `at`'s value in a JSON text (comments and trailing commas allowed, as in settings and tasks files); the
 * start of the file when it is not there. */
export function locate(text: string, at: NonNullable<Refusal['at']>): { line: number; column: number; endLine: number; endColumn: number } {
  const root = parseTree(text, [], { allowTrailingComma: true });
  let node = root && findNodeAtLocation(root, at.path);
  if (node && at.entry) {
    const { def, member } = at.entry;
    const entry = node.type === 'array' ? node.children?.find((c) => isDefinition(c, def)) : undefined;
    node = entry && member ? findNodeAtLocation(entry, [member]) ?? entry : entry;
  }
  const start = node?.offset ?? 0;
  const pos = (o: number) => {
    const before = text.slice(0, o).split(/\r\n|\r|\n/);
    return { line: before.length, column: before[before.length - 1].length + 1 };
  };
  const a = pos(start), b = pos(start + (node?.length ?? 0));
  return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
}

/** A tasks.json entry is the definition VS Code resolved: type "edgekit" and the same command, fix and paths. */
function isDefinition(node: JsonNode, def: { [k: string]: unknown }): boolean {
  if (node.type !== 'object') return false;
  const same = (key: string) => {
    const n = findNodeAtLocation(node, [key]);
    return JSON.stringify(n ? getNodeValue(n) : undefined) === JSON.stringify(key === 'type' ? 'edgekit' : def[key]);
  };
  return ['type', 'command', 'fix', 'paths'].every(same);
}

/**
 * What the refused task writes in its terminal: the refusal as a line of the CLI's line format (read into the task's problems, at
 * the setting or member) when the file it concerns could be read, else as the CLI says a usage
 * problem; then that nothing was checked. `file.text`: the file's text, undefined when it could not be read; the open editor's
 * when it is open, since the Problems entry is drawn on that text. `file.unsaved`: that text has edits not saved; VS Code reads
 * settings and tasks from the saved file, so the saved value decided the refusal, and the message says so.
 */
export function refusalLines(r: Refusal, file: { text: string | undefined; unsaved?: boolean }): string[] {
  let message = r.message.replace(/[\r\n]+/g, ' ');
  let head = `edgekit: ${message}`;
  if (r.at && file.text !== undefined) {
    if (file.unsaved) message += ` ${shownFile(r.at.file)} has unsaved changes: VS Code reads the saved file, and so does the task.`;
    const l = locate(file.text, r.at);
    head = `${r.at.file}:${l.line}:${l.column}-${l.endLine}:${l.endColumn} error ${r.code} ${message}`;
  }
  return [head, 'edgekit: the task did not run; nothing was checked.'];
}

/** A settings or tasks file as messages name it: `.vscode/settings.json`, or a workspace file's name. */
function shownFile(file: string): string {
  const base = path.basename(file);
  return path.basename(path.dirname(file)) === '.vscode' ? `.vscode/${base}` : base;
}
