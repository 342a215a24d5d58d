// The arguments of an `edgekit` task (package.json taskDefinitions): the bundled CLI's `lint --format line`, which the $edgekit and
// $edgekit-info problem matchers read, with the settings the language server checks the same files with, so that the task's Problems
// are the editor's. No vscode import: a unit test holds it to the CLI's parser.
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
  maxProblems?: unknown;
  maxFileSizeKB?: unknown;
}

/** What is wrong with a task definition, in words naming the member, or undefined when it can run. */
export function definitionProblem(def: { [k: string]: unknown }): string | undefined {
  if (def.command !== 'lint') return `"command" must be "lint", not ${JSON.stringify(def.command)}`;
  if (def.fix !== undefined && typeof def.fix !== 'boolean') return `"fix" must be true or false, not ${JSON.stringify(def.fix)}`;
  if (def.paths !== undefined && (!Array.isArray(def.paths) || def.paths.some((p) => typeof p !== 'string' || p === ''))) {
    return `"paths" must be a list of file or folder names, not ${JSON.stringify(def.paths)}`;
  }
  return undefined;
}

/**
 * The CLI's arguments after its path. The settings are read as the language server reads them (normalizeSettings: a bad or
 * out-of-range value is its default, a fraction is rounded down) and always passed, so that the task checks with the values the
 * editor checks with: the CLI's own defaults differ (no size limit).
 */
export function lintArgs(def: EdgeKitTaskDefinition, s: LintSettings): string[] {
  const n = normalizeSettings({ logpush: { dataset: s.dataset }, maxProblems: s.maxProblems, maxFileSizeKB: s.maxFileSizeKB });
  const args = ['lint', '--format', 'line'];
  if (def.fix) args.push('--fix');
  args.push('--dataset', n.logpush.dataset, '--max-problems', String(n.maxProblems), '--max-file-size', String(n.maxFileSizeKB));
  // After `--` a path that starts with "-" is a path, not an option.
  args.push('--', ...(def.paths?.length ? def.paths : ['.']));
  return args;
}

/** The task's name in the Run Task list (shown as "edgekit: <name>"). */
export function taskName(def: EdgeKitTaskDefinition): string {
  return `lint${def.fix ? ' --fix' : ''}${def.paths?.length ? ` ${def.paths.join(' ')}` : ''}`;
}
