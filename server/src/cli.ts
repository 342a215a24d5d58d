// `edgekit lint` and `edgekit mock`: the same core as the editor, for CI pipelines and for running the backend on its own.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { version as VERSION } from '../../package.json';
import { catalogue, codes, DOC_KINDS, getLanguageService, kinds, LineTable, formatProblemLine, plural, wordList, type DocKind, type Problem } from './core';
import { mockSynopsis } from '../../mock/src/cliOptions';
import { OptionsError, parseOptions } from '../../mock/src/options';
import { processIo } from '../../mock/src/stdio';
import { alive } from '../../mock/src/pidLock';
import { jobScopeOf, lintSummaryLine, type JobScope } from './protocol';
import { DocumentTooLarge, readFileWhole, readStreamWhole } from './eval/readWhole';

const core = getLanguageService();
const { detectKind, isDocKind, kindFromSchemaRef } = kinds;
const CODES = codes.all;
const { datasetInfo, datasets: DATASETS } = catalogue.logpush;

export const USAGE = `Usage:
  edgekit lint [--fix | --fix-dry-run] [--format stylish|json|sarif|line|github|gitlab] [--kind KIND] [--dataset NAME] [--scope zone|account] [--max-problems N] [--max-file-size KB] [--allow-empty] PATH...
               [--quiet] [--max-warnings N] [--output-file FILE] [--summary]
  edgekit lint --stdin [--stdin-filename NAME] [--fix-dry-run] [--format ...] [--kind KIND] [--dataset NAME] [--scope zone|account] [--quiet] [--max-warnings N] [--output-file FILE] [--summary]
${mockSynopsis('edgekit mock', '  ')}
  edgekit test-filter FILTER_OR_JOB LOGS.ndjson[.gz] [--dataset NAME] [--scope zone|account] [--format text|json] [--show N]
  edgekit test-rules RULESET REQUESTS.ndjson[.gz] [--format text|json]
  edgekit --version | --help

lint checks files and directories (walked for *.filter.json, *.logpush.json, *.rpc.json, *.jsonrpc.json, *.ruleset.json;
not into the node_modules, .git, dist and out folders inside them); a directory with no such file is an error unless --allow-empty.
KIND (for the files named on the command line; walked files keep their pattern's kind) is one of: ${DOC_KINDS.join(', ')}.
--scope says where the Logpush jobs checked are created, a zone or an account: a field of the other scope's jobs only (ZoneName,
of account-level firewall_events jobs) is then an error; without it, a field of either scope is accepted.
--fix writes every unambiguous fix into the files (a problem's only quick fix, as the editor's "Fix all auto-fixable problems"),
then reports what is left. --fix-dry-run finds the same fixes and writes nothing: --format json gives each fixed file's text as
"output" (for an editor's fixer reading --stdin), and the problems left are reported against that text.
--quiet reports errors only; --max-warnings N exits 1 when there are more than N warnings (counted with or without --quiet);
--output-file writes the report to FILE (its folders made) instead of standard output, as ESLint's options of those names do.
--summary writes one last line on standard error once the whole report is out, "edgekit lint: done, exit code 1: 3 files
checked (2 errors, 1 warning)": a run that exits without it, or with another code, stopped before its end (a crash).
--stdin (or the path -) checks the document read from standard input (an editor's unsaved buffer, \`git show :file\` in a hook);
--stdin-filename names it in the output (needed by --format sarif, github and gitlab, which place problems by a file's path) and
tells its kind by the patterns above (else --kind, or its "$schema").
Exit codes: 0 no errors, 1 errors found, 2 usage or I/O problem.`;

export interface Io {
  stdout(s: string): void; stderr(s: string): void;
  /** Standard input, read whole (lint --stdin); the process's fd 0 unless given (tests). */
  stdin?(): Buffer | Promise<Buffer>;
  /** The most read of one document (readWhole.ts), MAX_DOCUMENT_BYTES unless given (tests). */
  maxDocumentBytes?: number;
}

class UsageError extends Error {}

function options<T extends Parameters<typeof parseOptions>[1]>(argv: string[], spec: T) {
  try {
    return parseOptions(argv, spec);
  } catch (err) {
    throw err instanceof OptionsError ? new UsageError(err.message) : err;
  }
}

const LINT_FORMATS = ['stylish', 'json', 'sarif', 'line', 'github', 'gitlab'] as const;
/** The formats whose reader places a problem by its file's path in the repository: code scanning, annotations, GitLab's report. */
const PLACED_FORMATS = ['sarif', 'github', 'gitlab'] as const;
interface LintArgs {
  format: (typeof LINT_FORMATS)[number]; fix: boolean; fixDryRun: boolean; allowEmpty: boolean; kind?: DocKind; dataset?: string; scope?: JobScope; maxProblems?: number; maxFileSizeKB?: number;
  paths: string[];
  quiet: boolean; maxWarnings?: number; outputFile?: string;
  /** --summary: end with lintSummaryLine on stderr. */
  summary: boolean;
  /** The name standard input is shown by (lint --stdin, or the path -): --stdin-filename, else STDIN_NAME. Undefined: no stdin. */
  stdinName?: string;
}

/** The path that reads standard input, and what it is called in the output without --stdin-filename (as ESLint's "<text>"). */
const STDIN_PATH = '-';
const STDIN_NAME = '<stdin>';

function positiveInt(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${what} needs a positive whole number${what === '--max-file-size' ? ' of KB' : ''}.`);
  return n;
}

/** lint's options as its parser takes them; USAGE names each (a unit test holds the two equal). */
export const LINT_OPTIONS = {
  format: { type: 'string', short: 'f' }, kind: { type: 'string' }, dataset: { type: 'string' }, scope: { type: 'string' },
  'max-problems': { type: 'string' }, 'max-file-size': { type: 'string' }, fix: { type: 'boolean' }, 'fix-dry-run': { type: 'boolean' }, 'allow-empty': { type: 'boolean' },
  stdin: { type: 'boolean' }, 'stdin-filename': { type: 'string' },
  quiet: { type: 'boolean' }, 'max-warnings': { type: 'string' }, 'output-file': { type: 'string', short: 'o' }, summary: { type: 'boolean' },
} as const;

function parseLintArgs(argv: string[]): LintArgs {
  const { values, positionals } = options(argv, LINT_OPTIONS);
  const mw = values['max-warnings'];
  // -1 is no limit, as ESLint's default (scripts pass it to switch a limit off).
  if (mw !== undefined && !/^(\d+|-1)$/.test(mw)) throw new UsageError(`--max-warnings needs a whole number of warnings, 0 or more (or -1: no limit); got "${mw}".`);
  if (values['output-file'] === '') throw new UsageError('--output-file needs a file name.');
  const f = values.format ?? 'stylish';
  if (!(LINT_FORMATS as readonly string[]).includes(f)) throw new UsageError(`Unknown format "${f}"; use ${wordList(LINT_FORMATS, 'or')}.`);
  const k = values.kind;
  if (k !== undefined && !isDocKind(k)) throw new UsageError(`Unknown kind "${k}"; use one of ${DOC_KINDS.join(', ')}.`);
  const d = values.dataset;
  if (d !== undefined && !datasetInfo(d)) throw new UsageError(`Unknown dataset "${d}"; use one of ${DATASETS.map((x) => x.name).join(', ')}.`);
  const scope = jobScopeOf(values.scope);
  if (values.scope !== undefined && !scope) throw new UsageError(`Unknown scope "${values.scope}"; use zone or account.`);
  // --stdin is the path "-" (the Unix way); files may be named beside it.
  const given: string[] = positionals;
  const paths = values.stdin && !given.includes(STDIN_PATH) ? [STDIN_PATH, ...given] : given;
  const stdinName = paths.includes(STDIN_PATH) ? values['stdin-filename'] ?? STDIN_NAME : undefined;
  if (values['stdin-filename'] !== undefined && stdinName === undefined) throw new UsageError('--stdin-filename names the document read with --stdin (or the path -); neither was given.');
  if (values['stdin-filename'] === '') throw new UsageError('--stdin-filename needs a file name.');
  if (values.fix && values['fix-dry-run']) throw new UsageError('--fix writes the fixes and --fix-dry-run does not; give one of them.');
  // Standard input has no file to write the fixes into (ESLint refuses the same).
  if (stdinName !== undefined && values.fix) throw new UsageError('--fix writes the fixes into files; it cannot fix standard input (--stdin or the path -); --fix-dry-run --format json gives the fixed text.');
  // SARIF, GitHub's and GitLab's formats place each problem in a file of the repository (code scanning refuses a result without
  // one), and only the caller knows where the text read from standard input lives there: no made-up name (docs/architecture.md, ci20).
  if (stdinName === STDIN_NAME && (PLACED_FORMATS as readonly string[]).includes(f)) {
    throw new UsageError(`--format ${f} places each problem in a file of the repository, and standard input has none: name its path there with --stdin-filename (git show :config/a.rpc.json | edgekit lint --stdin --stdin-filename config/a.rpc.json --format ${f}).`);
  }
  if (paths.length === 0) throw new UsageError('No PATH given.');
  return {
    quiet: values.quiet === true, summary: values.summary === true, maxWarnings: mw === undefined ? undefined : Number(mw), outputFile: values['output-file'],
    format: f as LintArgs['format'], fix: values.fix === true, fixDryRun: values['fix-dry-run'] === true, allowEmpty: values['allow-empty'] === true, kind: k as DocKind | undefined, dataset: d, scope, paths, stdinName,
    maxProblems: positiveInt(values['max-problems'], '--max-problems'), maxFileSizeKB: positiveInt(values['max-file-size'], '--max-file-size'),
  };
}

/** The limits' messages name the options that set them here, not the editor's settings. */
const CLI_LIMIT_NAMES = { maxProblems: '--max-problems', maxFileSizeKB: '--max-file-size' };

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out']);

/** Whether the walk skips a folder so named: on win32 and darwin (case-insensitive file systems by default, where `Node_Modules` is
 * the node_modules Node resolves from) whatever its case, elsewhere by its exact name (Linux's `Dist` is another folder). */
export function skippedDir(name: string, platform: NodeJS.Platform): boolean {
  return SKIP_DIRS.has(platform === 'win32' || platform === 'darwin' ? name.toLowerCase() : name);
}

const PATTERN_NAMES = '*.filter.json, *.logpush.json, *.rpc.json, *.jsonrpc.json or *.ruleset.json';

/** A path lint could not check (or, `unfixed`, whose fixes it did not write; `missing`, that does not exist), and why. */
interface PathError { path: string; message: string; unfixed?: boolean; missing?: boolean }

/** Files to check under the given paths; I/O errors are collected, not thrown. Those found by walking a directory (their names
 * match a kind's pattern) go into `walked` too, and the real paths of the directories named go into `roots`. */
function collect(paths: string[], explicitKind: boolean, allowEmpty: boolean, errors: PathError[], walked: Set<string>, roots: string[]): string[] {
  const files: string[] = [];
  const visited = new Set<string>(); // real paths of walked directories: a link cycle is walked once
  const walk = (dir: string) => {
    try { visited.add(fs.realpathSync(dir)); } catch { /* reported by readdir below */ }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      errors.push({ path: dir, message: `cannot read directory (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).` });
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) { if (!skippedDir(e.name, process.platform)) walk(p); }
      else if (e.isFile()) { if (detectKind(e.name)) { files.push(p); walked.add(p); } }
      else if (e.isSymbolicLink()) {
        let target: fs.Stats;
        try {
          target = fs.statSync(p);
        } catch (err) {
          if (detectKind(e.name)) errors.push({ path: p, message: `broken symbolic link (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).` });
          continue;
        }
        if (target.isDirectory()) { if (!skippedDir(e.name, process.platform) && !visited.has(fs.realpathSync(p))) walk(p); }
        else if (target.isFile() && detectKind(e.name)) { files.push(p); walked.add(p); }
      }
    }
  };
  for (const p of paths) {
    if (p === STDIN_PATH) { files.push(p); continue; }
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      const glob = missing && /[*?[{]/.test(p) ? globAdvice(process.platform) : '';
      errors.push({ path: p, message: `${missing ? 'no such file or directory' : (err as Error).message}${glob}.`, missing });
      continue;
    }
    if (st.isDirectory()) {
      try { roots.push(fs.realpathSync(p)); } catch { /* reported by readdir */ }
      const found = files.length;
      const failed = errors.length;
      walk(p);
      // A directory that yields nothing to check is a wrong path or misnamed files: CI must not pass on "0 files checked".
      if (!allowEmpty && files.length === found && errors.length === failed) {
        errors.push({ path: p, message: `no file EdgeKit checks in this directory (${PATTERN_NAMES}, in it or its folders; a file with another name is checked when named with --kind). --allow-empty accepts a directory with none.` });
      }
    // ".JSON" too, as detectKind reads the patterns and VS Code its file associations: regardless of case (pt1: a Windows tool's
    // CONFIG.JSON was "not a file EdgeKit checks").
    } else if (explicitKind || detectKind(p) || /\.json$/i.test(p)) files.push(p);
    else errors.push({ path: p, message: `not a file EdgeKit checks (expected ${PATTERN_NAMES}; or pass --kind).` });
  }
  // A file reached twice (a directory and a file in it, the same path written twice) is checked once, where it came first.
  const seen = new Set<string>();
  return files.filter((f) => {
    // Standard input is not the file "-" of the current folder ("./-" names that one).
    const key = f === STDIN_PATH ? f : path.resolve(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What follows "no such file or directory" for a path that looks like a glob pattern: it reached us unexpanded (quoted, matching no
 * file, or a shell that does not expand it). ESLint expands its own, we do not. Unquoting is no advice: sh reads "**" as "*", so
 * fewer files would be checked without a word (rv30). On Windows cmd and PowerShell expand no pattern for a program: every pattern
 * arrives as written, and a POSIX shell's reasons were no answer there (pt1). */
export function globAdvice(platform: NodeJS.Platform): string {
  const why = platform === 'win32' ? 'cmd and PowerShell pass one on as it is (a POSIX shell too, when it is quoted or matches no file)'
    : 'a shell passes one on as it is when it is quoted or matches no file (and reads "**" as "*" unless bash\'s globstar is on)';
  return `; edgekit lint does not expand glob patterns, and ${why}: name the folder instead, which is walked for the EdgeKit files`;
}

/** How the bytes say they are UTF-16 or UTF-32, by their byte order mark, or undefined. UTF-32's little-endian mark begins as
 * UTF-16's does (FF FE), so it is asked first. */
function wideEncoding(bytes: Buffer): string | undefined {
  const starts = (...mark: number[]) => bytes.length >= mark.length && mark.every((b, i) => bytes[i] === b);
  if (starts(0xff, 0xfe, 0, 0)) return 'UTF-32 (little-endian: it starts with the byte order mark FF FE 00 00)';
  if (starts(0, 0, 0xfe, 0xff)) return 'UTF-32 (big-endian: it starts with the byte order mark 00 00 FE FF)';
  if (starts(0xff, 0xfe)) return 'UTF-16 (little-endian: it starts with the byte order mark FF FE)';
  if (starts(0xfe, 0xff)) return 'UTF-16 (big-endian: it starts with the byte order mark FE FF)';
  return undefined;
}

/** The text of UTF-16 or UTF-32 bytes (wideEncoding), decoded by their byte order mark as an editor decodes them, for the "$schema"
 * that tells their kind. */
function wideText(bytes: Buffer): string {
  if (wideEncoding(bytes)?.startsWith('UTF-32')) {
    const be = bytes[0] === 0;
    let out = '';
    for (let i = 4; i + 4 <= bytes.length; i += 4) {
      const cp = be ? bytes.readUInt32BE(i) : bytes.readUInt32LE(i);
      out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
    }
    return out;
  }
  const body = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
  return (bytes[0] === 0xfe ? body.swap16() : body).toString('utf16le');
}

/** The offset of the first byte that is not part of well-formed UTF-8, or -1: where the text decoded from bytes (with U+FFFD for
 * each bad sequence) encodes back to something else. */
function notUtf8At(bytes: Buffer, decoded: string): number {
  if (!decoded.includes('\ufffd')) return -1;
  const again = Buffer.from(decoded, 'utf8');
  const n = Math.min(again.length, bytes.length);
  for (let i = 0; i < n; i++) if (again[i] !== bytes[i]) return i;
  return again.length === bytes.length ? -1 : n;
}

interface FileResult {
  file: string; kind: DocKind; text: string; problems: Problem[]; /** With --fix: the fixes written (--fix-dry-run: found). */ fixed?: number;
  /** With --fix-dry-run, when something was fixed: the fixed text, as it would be written (a byte order mark kept). */
  output?: string;
  /** Read from standard input, which --fix cannot write. */ stdin?: boolean;
}

function toJson(results: FileResult[]) {
  return results.map((r) => {
    const t = new LineTable(r.text);
    return {
      file: r.file, kind: r.kind, ...(r.fixed !== undefined ? { fixed: r.fixed } : {}), ...(r.output !== undefined ? { output: r.output } : {}),
      diagnostics: r.problems.map((p) => ({
        code: p.code, severity: p.severity, message: p.message,
        range: { start: t.position(p.offset), end: t.position(p.offset + p.length) },
      })),
    };
  });
}

/** The uriBaseId of a relative artifact URI: the checkout's root, repoRoot() (code scanning places an alert by its path from the
 * repository's root), given in the run's originalUriBaseIds. */
const SRCROOT = '%SRCROOT%';

/** The checkout's root, where code scanning, GitLab and the Actions runner take a relative path from: the folder the CI names
 * (GITHUB_WORKSPACE in GitHub Actions, CI_PROJECT_DIR in GitLab CI), which a step with `working-directory:` does not move; else
 * the current folder. */
function repoRoot(): string {
  const named = process.env.GITHUB_WORKSPACE || process.env.CI_PROJECT_DIR;
  return named && path.isAbsolute(named) ? realPathOf(named) : process.cwd();
}

/** A file's path in the repository: from repoRoot(), "/"-separated, however it was written ("./config", absolute, through a link
 * to the folder); undefined for a file outside it ("../x" is no path in the repository). Asked once per file: the formats give
 * each problem of a file the answer (rv31: it was asked per problem, a realpath of the root each time in CI). */
function repoPath(file: string): string | undefined {
  const abs = path.resolve(file);
  const root = repoRoot();
  // The root is a real path (getcwd, realpath): a path through a link to it ("$PWD/config" where $PWD went through one) is inside
  // by its own real path (rv30). Asked only then, so a link inside the folder to a file elsewhere keeps its place here.
  const rel = fromRoot(root, abs) ?? fromRoot(root, realPathOf(abs));
  return rel === undefined ? undefined : rel.split(path.sep).join('/');
}

/** An absolute path's path from the root, or undefined when it is not inside it. */
function fromRoot(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs);
  return rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? undefined : rel;
}

/** A file as SARIF's artifactLocation (SARIF 2.1.0 §3.4.3, a URI reference): inside the checkout, its repoPath with each segment
 * percent-encoded (a "#" or "?" in a name would start a fragment or a query) and the base SRCROOT; outside it, a file: URI, which
 * needs no base. */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  const rel = repoPath(file);
  if (rel === undefined) return { uri: pathToFileURL(path.resolve(file)).href };
  return { uri: rel.split('/').map((seg) => encodeURIComponent(seg)).join('/'), uriBaseId: SRCROOT };
}

/** A SARIF title (reportingDescriptor.shortDescription: "a single sentence ... understandable when visible space is limited to a
 * single line", the alert's heading in code scanning) from a code's description: its first sentence; past TITLE_MAX characters,
 * its main clause (before a ":" or ";" outside parentheses), then without its parentheses, then cut at a word with "…". */
export function ruleTitle(description: string): string {
  const sentence = firstSentence(description).replace(/\.$/, '');
  if (sentence.length <= TITLE_MAX) return sentence;
  let depth = 0, clause = sentence;
  for (let i = 0; i < sentence.length - 1; i++) {
    const c = sentence[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ':' || c === ';') && sentence[i + 1] === ' ' && i >= 20) { clause = sentence.slice(0, i); break; }
  }
  if (clause.length <= TITLE_MAX) return clause;
  const bare = clause.replace(/ \((?:[^()]|\([^()]*\))*\)/g, '');
  if (bare.length <= TITLE_MAX) return bare;
  const cut = bare.slice(0, TITLE_MAX);
  return `${cut.slice(0, cut.lastIndexOf(' ')).replace(/[,;:]$/, '')}…`;
}
const TITLE_MAX = 100;

/** Up to the first ".", "!" or "?" before a space or the end that is outside parentheses and ends no "e.g." or "i.e." (rv31:
 * "(e.g. the old …)" ended ruleset/override-action's title inside its parenthesis); the whole text when there is none. */
function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /[.!?]/.test(c) && (i + 1 === text.length || /\s/.test(text[i + 1])) && !/\b(?:e\.g|i\.e)$/i.test(text.slice(0, i))) {
      return text.slice(0, i + 1);
    }
  }
  return text;
}

/** A code as a SARIF rule (SARIF 2.1.0 §3.49; GitHub's "SARIF support for code scanning" lists these members): a short title, the
 * code's whole description as fullDescription, help (shown in the alert's panel) saying where the code table is, the code's area
 * as a tag. No helpUri: the package has no public address (it is private, with no repository or homepage), and the editor's
 * codeDescription.href is the README of the installed extension, a file no code scanning reader can open. */
function sarifRule(id: string, defaultLevel: string) {
  const description = CODES[id]?.description ?? id;
  const where = `EdgeKit's README, section "Diagnostic codes" (README.md#${codes.anchor(id)})`;
  return {
    id, shortDescription: { text: ruleTitle(description) }, fullDescription: { text: description },
    help: {
      text: `${id}: ${description}\n\nEvery EdgeKit code is listed in ${where}.`,
      markdown: `**${id}**: ${description}\n\nEvery EdgeKit code is listed in ${where}.`,
    },
    defaultConfiguration: { level: defaultLevel }, properties: { tags: [id.split('/')[0]] },
  };
}

function toSarif(results: FileResult[]) {
  const used = new Set<string>();
  for (const r of results) for (const p of r.problems) used.add(p.code);
  const level = (s: string) => (s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note');
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'EdgeKit', version: VERSION, rules: [...used].sort().map((id) => sarifRule(id, level(CODES[id]?.severity ?? 'error'))) } },
      originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(repoRoot()).href.replace(/\/?$/, '/') } },
      columnKind: 'utf16CodeUnits',
      results: results.flatMap((r) => {
        const t = new LineTable(r.text);
        const where = artifactLocation(r.file);
        return r.problems.map((p) => {
          const s = t.position(p.offset), e = t.position(p.offset + p.length);
          return {
            ruleId: p.code, level: level(p.severity), message: { text: p.message },
            locations: [{ physicalLocation: {
              artifactLocation: where,
              region: { startLine: s.line + 1, startColumn: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 },
            } }],
          };
        });
      }),
    }],
  };
}

/** A file name, or a message naming one, on one line: its line feeds too written as \u000a (see outputLines). */
function oneLine(s: string): string {
  return outputLines(s).replace(/\n/g, '\\u000a');
}

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,col=…::message`): each problem becomes an annotation on the pull request's
 * diff, in any repository (code scanning, which takes the SARIF, is not on every plan). Severity: error, warning, and notice for
 * information and hints. Escaping as the Actions toolkit's command.ts: `%`, CR and LF in the message; also `:` and `,` in properties.
 * The file is its repoPath (the runner takes a relative `file` from the workspace, the checkout's root), or as given outside it.
 */
function toGithub(results: FileResult[]): string {
  const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const prop = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  const level: Record<string, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };
  let out = '';
  for (const r of results) {
    const t = new LineTable(r.text);
    const file = prop(repoPath(r.file) ?? r.file);
    for (const p of r.problems) {
      const a = t.position(p.offset), b = t.position(p.offset + p.length);
      out += `::${level[p.severity] ?? 'notice'} file=${file},line=${a.line + 1},col=${a.character + 1},endLine=${b.line + 1},endColumn=${b.character + 1},` +
        `title=${prop(`EdgeKit ${p.code}`)}::${data(p.message)}\n`;
    }
  }
  return out;
}

/**
 * GitLab's code quality report (`artifacts: reports: codequality`: the merge request's widget and diff), its path the file's
 * repoPath (GitLab's docs: relative to the repository, without "./"), or as given outside the current folder. The fingerprint is the
 * file, code, message and which occurrence of those it is, not the line: a finding that moves with an edit above it stays the same
 * finding, and two alike in one file stay two (GitLab keeps one per fingerprint). Severity as eslint-formatter-gitlab maps ESLint's:
 * error major, warning minor, information and hints info.
 */
function toGitlab(results: FileResult[]) {
  const severity: Record<string, string> = { error: 'major', warning: 'minor', information: 'info', hint: 'info' };
  return results.flatMap((r) => {
    const t = new LineTable(r.text);
    const seen = new Map<string, number>();
    const file = repoPath(r.file) ?? r.file;
    return r.problems.map((p) => {
      const key = `${file}\0${p.code}\0${p.message}`;
      const nth = (seen.get(key) ?? 0) + 1;
      seen.set(key, nth);
      return {
        description: p.message, check_name: p.code, fingerprint: createHash('sha256').update(`${key}\0${nth}`).digest('hex'),
        severity: severity[p.severity] ?? 'info',
        location: { path: file, lines: { begin: t.position(p.offset).line + 1, end: t.position(p.offset + p.length).line + 1 } },
      };
    });
  });
}

function stylish(results: FileResult[], unchecked: number, fix: boolean | 'dry-run', unfixed = 0): string {
  const lines: string[] = [];
  let errors = 0, warnings = 0, infos = 0;
  let fixable = 0;
  for (const r of results) {
    if (r.problems.length === 0) continue;
    const t = new LineTable(r.text);
    lines.push(oneLine(r.file));
    // Columns aligned within a file, as ESLint's stylish does: positions to the right, severities to the left.
    const at = r.problems.map((p) => { const s = t.position(p.offset); return `${s.line + 1}:${s.character + 1}`; });
    const atWidth = Math.max(...at.map((a) => a.length));
    const sevWidth = Math.max(...r.problems.map((p) => p.severity.length));
    // As ESLint counts "potentially fixable" problems: those with a fix Fix all applies (while the text is broken, its syntax ones,
    // and only when together they make it parse: what --fix would write).
    if (!r.stdin) fixable += core.autoFixes(r.problems, r.text).count;
    r.problems.forEach((p, i) => {
      if (p.severity === 'error') errors++; else if (p.severity === 'warning') warnings++; else infos++;
      lines.push(`  ${at[i].padStart(atWidth)}  ${p.severity.padEnd(sevWidth)}  ${p.message}  ${p.code}`);
    });
    lines.push('');
  }
  const total = errors + warnings + infos;
  // A path that could not be checked is not "no problems" (its message follows on stderr).
  // A file checked whose fixes could not be written was checked: it is said apart.
  const skipped = (unchecked ? `${total === 0 ? ';' : ''} ${plural(unchecked, 'path')} could not be checked (see the messages).` : '') +
    (unfixed ? `${total === 0 && !unchecked ? ';' : ''} ${plural(unfixed, 'file')} could not be fixed (see the messages).` : '');
  lines.push(total === 0 ? `${plural(results.length, 'file')} checked${skipped || ', no problems.'}`
    : `${plural(total, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${infos} other) in ${plural(results.length, 'file')}.${skipped}`);
  // As ESLint says what its --fix would fix; after --fix, what it fixed is said below instead.
  if (fixable && !fix) lines.push(`${fixable === total ? (total === 1 ? 'It is' : 'All of them are') : `${fixable} of them ${fixable === 1 ? 'is' : 'are'}`} potentially fixable with --fix.`);
  if (fix === 'dry-run') {
    const fixed = results.filter((r) => r.fixed);
    lines.push(fixed.length ? `--fix would fix ${plural(fixed.reduce((n, r) => n + r.fixed!, 0), 'problem')} in ${plural(fixed.length, 'file')}: ${fixedList(fixed)} (nothing was written; the problems above are those left after it).`
      : 'Nothing to fix automatically.');
  } else if (fix) {
    const fixed = results.filter((r) => r.fixed);
    lines.push(fixed.length ? `Fixed ${plural(fixed.reduce((n, r) => n + r.fixed!, 0), 'problem')} in ${plural(fixed.length, 'file')}: ${fixedList(fixed)}.`
      : unfixed ? `No fixes were written: ${plural(unfixed, 'file')} could not be fixed.` : 'Nothing to fix automatically.');
  }
  return lines.join('\n') + '\n';
}

/** How many files the "Fixed N problems in M files: …" line names (rv36: it named every one, 60 KB for 3,000 files). */
const FIXED_FILES_SHOWN = 10;

/** The files fixed, the first FIXED_FILES_SHOWN of them and "and K more" (as the core's long lists end: "… and K more"). */
function fixedList(fixed: readonly { file: string }[]): string {
  const shown = fixed.slice(0, FIXED_FILES_SHOWN).map((r) => r.file).join(', ');
  return fixed.length > FIXED_FILES_SHOWN ? `${shown} and ${fixed.length - FIXED_FILES_SHOWN} more` : shown;
}

function canWrite(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Writes the fixed text over `file`, or says why not (the file is then unchanged). A file found by walking a directory is written
 * only when its real path is inside one of the directories named (`roots`): a symbolic link in a cloned folder must not make
 * --fix rewrite a file elsewhere. The text goes to a temp file beside the real file (mode and owner copied, synced), which is
 * renamed over it once the file is seen to hold what was read: a failed or interrupted write leaves the old file whole, and a
 * save made meanwhile (an editor) is not overwritten. Where no temp file can replace it (IN_PLACE_CODES: on Windows, a file another
 * program has open) it is written in place. A read-only file is left as it is. */
function writeFixes(file: string, roots: string[] | undefined, read: Buffer, text: string, listed?: TempNames): string | undefined {
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  let real: string;
  let st: fs.Stats;
  try {
    real = fs.realpathSync(file);
    st = fs.statSync(real);
  } catch (err) {
    return `cannot write the fixes (${code(err)}); the file is unchanged.`;
  }
  if (roots && !roots.some((root) => within(root, real))) {
    return `is ${real} (through a symbolic link), outside the paths given; the fixes were not written.`;
  }
  // A file made read-only is not rewritten: renaming the temp file over it would replace it (the folder is what a rename needs),
  // and root may write any file. No write bit at all, or no write access for this process, is read-only.
  if ((st.mode & 0o222) === 0 || !canWrite(real)) {
    return `is read-only${process.platform === 'win32' ? '' : ` (mode ${(st.mode & 0o777).toString(8)})`}; the fixes were not written.`;
  }
  const unchanged = () => fs.readFileSync(real).equals(read);
  const changed = 'changed while it was being fixed; the fixes were not written.';
  // A write in place that failed after its open may have left part of the fixes in the file (rv40: a hard-linked file's was said
  // "unchanged"); any other failure came before the file was touched.
  const failed = (err: unknown) => (err instanceof PartlyWritten ? `cannot write the fixes (${err.message}); the file may be partly written.`
    : `cannot write the fixes (${code(err)}); the file is unchanged.`);
  try {
    return writeBeside(real, text, st, unchanged, listed) ? undefined : changed;
  } catch (err) {
    if (err instanceof PartlyWritten || !IN_PLACE_CODES.includes(code(err))) return failed(err);
  }
  // The temp file could not be made or renamed over the file, which this process may write (canWrite): on Windows, a file another
  // program holds open (an editor, a virus scanner, a sync client) refuses a rename over it (EPERM, EACCES, EBUSY) and most often
  // not a write. Written in place, as ESLint's --fix writes: not at once, so an unfinished write says so (pt1).
  try {
    if (!unchanged()) return changed;
    writeInPlace(real, text, 'as no temp file could replace it');
    return undefined;
  } catch (err) {
    return failed(err);
  }
}

/** A write in place (writeInPlace) that failed after the file was opened: the file may hold part of the new text. Its message is
 * the error's code and why the file was written in place ("ENOSPC, writing it in place, as it has other hard links"). */
class PartlyWritten extends Error {
  readonly code: string;
  constructor(cause: unknown, why: string) {
    const code = (cause as NodeJS.ErrnoException).code ?? (cause as Error).message;
    super(`${code}, writing it in place, ${why}`);
    this.code = code;
  }
}

/** Writes `text` into the regular file `real` in place, where a temp file renamed over it cannot or must not replace it (`why`):
 * opened as it is (r+: its inode, links, owner and mode kept; on Windows a hidden file too, which a truncating open refuses),
 * written, cut to the text's length, synced. Not whole or nothing: an open that fails throws its own error (nothing was written),
 * a failure after it throws PartlyWritten. The one write in place of --fix and --output-file (rv40: lf21's hard-linked files were
 * written by a truncating fs.writeFileSync of their own, unsynced, and a failure half-way was said as "the file is unchanged"). */
function writeInPlace(real: string, text: string, why: string): void {
  const fd = fs.openSync(real, 'r+');
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at, bytes.length - at);
      fs.ftruncateSync(fd, bytes.length);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw new PartlyWritten(err, why);
  }
}

/** The errors of a temp file's create beside a file, or of its rename over it, where the file itself may still be written in
 * place: a folder this user may not write (EACCES, EPERM), a file mounted on its own (EBUSY, EXDEV), and on Windows a file another
 * program holds open without sharing its deletion (EPERM, EACCES or EBUSY: libuv's mapping of ERROR_ACCESS_DENIED and
 * ERROR_SHARING_VIOLATION). */
const IN_PLACE_CODES = ['EACCES', 'EPERM', 'EBUSY', 'EXDEV'];

/** Writes `text` as the file `real` (a real path) whole or not at all: into a temp file beside it (an exclusive create, so a
 * planted name is not followed), synced, given the mode and owner of `st` (the file there now; none: a new file's usual mode), and
 * renamed over it when `unchanged` (read just before) allows; false when it did not. Throws the write's error; no temp file is
 * left behind. A file of more than one hard link is written in place (after `unchanged`; writeInPlace): renamed over,
 * this name would get a file of its own and the other names would keep the old content (lf21). */
function writeBeside(real: string, text: string, st: fs.Stats | undefined, unchanged: () => boolean = () => true, listed?: TempNames): boolean {
  if (st && st.nlink > 1) {
    if (!unchanged()) return false;
    writeInPlace(real, text, 'as it has other hard links');
    return true;
  }
  const tmp = path.join(path.dirname(real), `.${path.basename(real)}.edgekit-${process.pid}-${Date.now().toString(36)}.tmp`);
  removeDeadTemps(real, listed);
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx', mode: st ? 0o600 : 0o666 });
    const fd = fs.openSync(tmp, 'r+'); // writable: Windows flushes only a handle open for writing
    try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
    if (st) {
      try { fs.chownSync(tmp, st.uid, st.gid); } catch { /* not ours to give away (not root): the file is the runner's */ }
      fs.chmodSync(tmp, st.mode & 0o7777);
    }
    if (!unchanged()) return false;
    fs.renameSync(tmp, real);
    return true;
  } finally {
    try { fs.rmSync(tmp, { force: true }); } catch { /* already renamed, or never made */ }
  }
}

/** How old a temp file of writeBeside must be before removeDeadTemps takes it for a dead writer's: it lives for one write (seconds
 * at most), and its pid alone does not say that its writer is gone (another container or machine sharing the folder has pids of its
 * own). */
export const DEAD_TEMP_AGE_MS = 10 * 60_000;

/** The names in each folder a run writes into that have the shape of writeBeside's temp files, by the name of the file they were
 * beside: each folder listed once per run (rv36: a listing for each file written made --fix over a folder of 3,000 files read its
 * names 3,000 times, 5.7 s of CPU). A dead writer's file does not appear during the run (one appears under a running pid, and new). */
type TempNames = Map<string, Map<string, string[]>>;

/** `.NAME.edgekit-<pid>-<time>.tmp`: NAME, then the pid. NAME holds no "/", and no dot follows ".edgekit-" in the rest, so a name has
 * one reading. */
const TEMP_NAME = /^\.(.+)\.edgekit-(\d+)-[0-9a-z]+\.tmp$/;

/** Removes the temp files writeBeside left beside `real` (`.NAME.edgekit-<pid>-<time>.tmp`) in a process killed between their
 * write and rename (a CI job's timeout): those whose pid runs no process here, or is this one's (writeBeside is synchronous, so
 * none of this process's is being written; a container's CLI often has the same small pid every run), and that are older than
 * DEAD_TEMP_AGE_MS. A running process's file is left, and what cannot be looked at or removed is left silently. The folder's
 * listing is `listed`'s when the run has one. */
function removeDeadTemps(real: string, listed: TempNames = new Map()): void {
  const dir = path.dirname(real);
  let byFile = listed.get(dir);
  if (!byFile) {
    byFile = new Map();
    listed.set(dir, byFile);
    let names: string[] = [];
    try { names = fs.readdirSync(dir); } catch { /* nothing to remove */ }
    for (const name of names) {
      const file = TEMP_NAME.exec(name)?.[1];
      if (file === undefined) continue;
      const same = byFile.get(file);
      if (same) same.push(name);
      else byFile.set(file, [name]);
    }
  }
  const mine = byFile.get(path.basename(real)) ?? [];
  byFile.delete(path.basename(real));
  for (const name of mine) {
    const pid = Number(TEMP_NAME.exec(name)?.[2] ?? NaN);
    if (!Number.isSafeInteger(pid) || (pid !== process.pid && alive(pid))) continue;
    const file = path.join(dir, name);
    try {
      const st = fs.lstatSync(file);
      if (st.isFile() && Date.now() - st.mtimeMs > DEAD_TEMP_AGE_MS) fs.rmSync(file);
    } catch { /* gone meanwhile, or not ours to remove */ }
  }
}

/** Whether the absolute path `p` is in /dev or /proc, or reaches there through a symbolic link (of the file, of a folder on the
 * way, relative or absolute): its real path is then the file a descriptor has open, not a path of its own (rv33: a link to
 * /dev/stdout was renamed over). Links are followed one part at a time, as the kernel does, at most 40. */
function throughDevOrProc(p: string): boolean {
  const rest = p.split('/').filter(Boolean);
  let at = '/';
  for (let links = 0; rest.length > 0;) {
    at = path.join(at, rest.shift()!);
    if (/^\/(?:dev|proc)(?:\/|$)/.test(at)) return true;
    let st: fs.Stats;
    try { st = fs.lstatSync(at); } catch { return false; } // not there (a new file, new folders) or not to be looked at: no link
    if (!st.isSymbolicLink()) continue;
    if (++links > 40) return false;
    const target = fs.readlinkSync(at);
    rest.unshift(...target.split('/').filter(Boolean));
    at = target.startsWith('/') ? '/' : path.dirname(at);
  }
  return false;
}

/** Writes the report to --output-file (its folders made) as writeBeside writes, so that a full disk or a crash half-way never
 * leaves a truncated report where the last one was; through a symbolic link to the file it names. A path in /dev or /proc (or
 * reached there through a link: throughDevOrProc), what is not a regular file (a pipe, a folder: EISDIR) and a link to nothing are
 * written in place, as before; a report this process may not write is refused (EACCES) as a write in place refused it, not replaced
 * by the rename (which needs only the folder's permission); one it may write where the temp file or its rename cannot be is written
 * in place too. */
function writeReport(file: string, text: string): void {
  const resolved = path.resolve(file);
  // /dev/stdout, /dev/fd/3, /proc/self/fd/1: a stream already open, whose real path may be a regular file (the job's log a CI
  // redirected standard output to); renamed over, the file would be replaced under the descriptor writing it.
  if (process.platform !== 'win32' && throughDevOrProc(resolved)) {
    fs.writeFileSync(file, text);
    return;
  }
  fs.mkdirSync(path.dirname(resolved), { recursive: true });
  let real: string;
  let st: fs.Stats | undefined;
  try {
    real = fs.realpathSync(resolved);
    st = fs.statSync(real);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || fs.lstatSync(resolved, { throwIfNoEntry: false })) {
      fs.writeFileSync(file, text);
      return;
    }
    real = path.join(fs.realpathSync(path.dirname(resolved)), path.basename(resolved));
  }
  if (st && !st.isFile()) {
    fs.writeFileSync(file, text);
    return;
  }
  if (st) fs.accessSync(real, fs.constants.W_OK);
  try {
    writeBeside(real, text, st);
  } catch (err) {
    // Where no temp file can be made beside the report (a folder this user may not write) or renamed over it (a file mounted on its
    // own: EBUSY, EXDEV; on Windows, one another program has open), a report this user may write is written in place, as before; a
    // full disk and the rest are not.
    if (!st || err instanceof PartlyWritten || !IN_PLACE_CODES.includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    writeInPlace(real, text, 'as no temp file could replace it');
  }
}

export async function lint(argv: string[], io: Io): Promise<number> {
  const args = parseLintArgs(argv);
  const ioErrors: PathError[] = [];
  const walked = new Set<string>();
  const roots: string[] = [];
  const files = collect(args.paths, !!args.kind, args.allowEmpty, ioErrors, walked, roots);
  if (args.outputFile !== undefined) refuseOutputOverInput(args.outputFile, files.map((f) => (f === STDIN_PATH ? args.stdinName! : f)), roots);
  const results: FileResult[] = [];
  let unfixed = 0; // files checked whose fixes were not written (their messages are in ioErrors too)
  const tempNames: TempNames = new Map(); // the folders --fix writes into, each listed once for killed runs' temp files
  for (const path_ of files) {
    const stdin = path_ === STDIN_PATH;
    // Standard input is shown by its name (and its kind told by it); no file of that name is read or written.
    const file = stdin ? args.stdinName! : path_;
    let text: string;
    let bytes: Buffer;
    try {
      bytes = stdin ? await (io.stdin ?? (() => readStreamWhole(process.stdin, io.maxDocumentBytes)))() : readFileWhole(file, io.maxDocumentBytes);
      text = bytes.toString('utf8');
    } catch (err) {
      const what = stdin ? 'standard input' : 'file';
      ioErrors.push({ path: file, message: err instanceof DocumentTooLarge ? `cannot read ${what}: ${err.message}.`
        : `cannot read ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).` });
      continue;
    }
    const decoded = text;
    const bom = text.charCodeAt(0) === 0xfeff;
    if (bom) text = text.slice(1); // a UTF-8 byte order mark is not part of the JSON
    // --kind is for the files named on the command line (any name); a file found in a directory was found by its name's kind.
    // A UTF-16 (or UTF-32) file's "$schema" is read as VS Code reads it (decoded by its byte order mark): read as UTF-8, such a file named
    // foo.json was "cannot tell which kind of document this is", never that it is UTF-16.
    const wide = wideEncoding(bytes);
    const kind = (walked.has(file) ? undefined : args.kind) ?? detectKind(file) ?? kindFromSchemaRef(wide ? wideText(bytes) : text);
    if (!kind) {
      ioErrors.push({ path: file, message: stdin
        ? `cannot tell which kind of document standard input is; pass --kind, or --stdin-filename with a name like ${PATTERN_NAMES}.`
        : 'cannot tell which kind of document this is; name it *.filter.json, *.logpush.json, *.rpc.json or *.ruleset.json, or pass --kind.' });
      continue;
    }
    if (wide) {
      // VS Code decodes such a file by its byte order mark, so the editor checks it; the platform reads a body as UTF-8 (RFC 8259
      // section 8.1) and would refuse it. Its text read as UTF-8 is noise, so this is its only problem, and nothing is fixed.
      const problem = { code: 'syntax/invalid-json', severity: 'error', offset: 0, length: 0,
        message: `The file is ${wide}; JSON must be UTF-8, as the platform reads it: save it as UTF-8.` } as const;
      results.push({ file, kind, text, problems: [problem], stdin, ...(args.fix || args.fixDryRun ? { fixed: 0 } : {}) });
      continue;
    }
    try {
      // No size limit unless asked for: CI must not pass a file because it is big.
      const opts = { logpushDataset: args.dataset, logpushScope: args.scope, maxProblems: args.maxProblems, maxFileSizeKB: args.maxFileSizeKB ?? Number.MAX_SAFE_INTEGER, limitNames: CLI_LIMIT_NAMES };
      if (args.fix) {
        const r = core.fixAll(text, kind, opts);
        // Bytes that are not UTF-8 were read as U+FFFD: writing the text back would replace them (a filter's "/caf\xe9" value
        // would change with the operator's spelling). RFC 8259 §8.1: JSON exchanged between systems is UTF-8.
        const invalid = r.fixed > 0 ? notUtf8At(bytes, decoded) : -1;
        if (invalid >= 0) {
          ioErrors.push({ path: file, message: `not valid UTF-8 (byte 0x${bytes[invalid].toString(16).padStart(2, '0')} at offset ${invalid}); the fixes were not written.`, unfixed: true });
          unfixed++;
          results.push({ file, kind, text, problems: core.validate(text, kind, opts), fixed: 0 });
          continue;
        }
        if (r.fixed > 0) {
          const refused = writeFixes(file, walked.has(file) ? roots : undefined, bytes, (bom ? '\ufeff' : '') + r.text, tempNames);
          if (refused) {
            ioErrors.push({ path: file, message: refused, unfixed: true });
            unfixed++;
            results.push({ file, kind, text, problems: core.validate(text, kind, opts), fixed: 0 });
            continue;
          }
        }
        results.push({ file, kind, text: r.text, problems: r.problems, fixed: r.fixed });
      } else if (args.fixDryRun) {
        const r = core.fixAll(text, kind, opts);
        results.push({ file, kind, text: r.text, problems: r.problems, fixed: r.fixed, stdin, ...(r.fixed > 0 ? { output: (bom ? '\ufeff' : '') + r.text } : {}) });
      } else {
        results.push({ file, kind, text, problems: core.validate(text, kind, opts), stdin });
      }
    } catch (err) {
      // One file must not discard every other file's results.
      ioErrors.push({ path: file, message: `internal error while checking (${(err as Error).message}).` });
    }
  }
  // Counted before --quiet hides them, as ESLint's --max-warnings counts.
  const warnings = results.reduce((n, r) => n + r.problems.filter((p) => p.severity === 'warning').length, 0);
  const shown = args.quiet ? results.map((r) => ({ ...r, problems: r.problems.filter((p) => p.severity === 'error') })) : results;
  let report: string;
  if (args.format === 'json') report = JSON.stringify(toJson(shown)) + '\n';
  else if (args.format === 'sarif') report = JSON.stringify(toSarif(shown), null, 2) + '\n';
  else if (args.format === 'line') {
    report = '';
    for (const r of shown) {
      const t = new LineTable(r.text);
      for (const p of r.problems) report += `${oneLine(r.file)}:${formatProblemLine(t, p)}\n`;
    }
  } else if (args.format === 'github') report = toGithub(shown);
  else if (args.format === 'gitlab') report = JSON.stringify(toGitlab(shown), null, 2) + '\n';
  else report = stylish(shown, ioErrors.length - unfixed, args.fixDryRun ? 'dry-run' : args.fix, unfixed);
  let unwritten: string | undefined; // why --output-file could not be written (said after the paths that could not be checked)
  if (args.outputFile === undefined) io.stdout(report);
  else {
    try {
      // Written as standard output would be (outputLines: no control character a CI log would obey).
      writeReport(args.outputFile, outputLines(report));
    } catch (err) {
      // Written in place and failed half-way (a hard-linked report, a full disk): not the last report left whole, as otherwise.
      unwritten = `edgekit: ${oneLine(args.outputFile)}: cannot write the report (${err instanceof PartlyWritten ? `${err.message}); it may be partly written`
        : `${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`}.\n`;
    }
  }
  // The line format's reader (a VS Code task's $edgekit problem matcher, any line-based tool) gets them as lines of its own format,
  // at the start of the path they concern; the other formats say them as messages.
  // A path that does not exist is written absolute, with the name as given: a matcher that takes a relative name relative to its
  // folder only when the file is there (VS Code's autoDetect) would take it as a path from the root.
  for (const e of ioErrors) {
    if (args.format !== 'line') { io.stderr(`edgekit: ${oneLine(`${e.path}: ${e.message}`)}\n`); continue; }
    const at = e.missing ? path.resolve(e.path) : e.path;
    const message = at === e.path ? e.message : `${e.message.replace(/\.$/, '')} (${e.path}).`;
    io.stderr(`${oneLine(at)}:1:1-1:1 error ${e.unfixed ? 'cli/not-fixed' : 'cli/not-checked'} ${oneLine(message)}\n`);
  }
  if (unwritten !== undefined) io.stderr(unwritten);
  const errors = results.reduce((n, r) => n + r.problems.filter((p) => p.severity === 'error').length, 0);
  let exit = 0;
  if (ioErrors.length || unwritten !== undefined) exit = 2;
  else if (errors > 0) exit = 1;
  else if (args.maxWarnings !== undefined && args.maxWarnings >= 0 && warnings > args.maxWarnings) {
    io.stderr(`edgekit: ${plural(warnings, 'warning')}, more than --max-warnings ${args.maxWarnings} allows.\n`);
    exit = 1;
  }
  // The last thing written: a reader takes the run for finished by it (the lint task; an uncaught error is Node's exit 1 too).
  if (args.summary) {
    io.stderr(`${lintSummaryLine({ exit, files: results.length, errors, warnings, notChecked: ioErrors.length - unfixed, notFixed: unfixed, reportUnwritten: unwritten !== undefined })}\n`);
  }
  return exit;
}

/** A usage error when the report would be written over a file being linted (ESLint writes it): the same path however spelled, or
 * the same file through a link (its device and inode), or the name --stdin-filename gives standard input; or when it would be one
 * the next run lints, in a folder walked (roots) with a name a kind's pattern matches, whether it exists yet or not (the first run
 * wrote it and the second refused it). Not left out of the walk instead: a typo naming a document of the folder would overwrite it.
 * Before anything is read, fixed or written. */
function refuseOutputOverInput(outputFile: string, inputs: string[], roots: string[]): void {
  let out: fs.Stats | undefined;
  try { out = fs.statSync(outputFile); } catch { /* not there yet: only a path compare can match */ }
  const resolved = path.resolve(outputFile);
  for (const input of inputs) {
    let same = path.resolve(input) === resolved;
    if (!same && out) {
      try {
        const st = fs.statSync(input);
        same = st.dev === out.dev && st.ino === out.ino;
      } catch { /* reported when it is read */ }
    }
    if (same) throw new UsageError(`--output-file ${outputFile} is a file being linted${input === outputFile ? '' : ` (${input})`}; the report would overwrite it.`);
  }
  if (!detectKind(path.basename(resolved))) return;
  const real = realPathOf(resolved);
  for (const root of roots) {
    if (real === root || !within(root, real)) continue;
    const rel = path.relative(root, real);
    if (path.dirname(rel).split(path.sep).some((d) => SKIP_DIRS.has(d))) continue;
    throw new UsageError(`--output-file ${outputFile} would be linted as one of the files in ${root} (its name matches ${PATTERN_NAMES}): name the report otherwise (edgekit.sarif, report.json) or write it outside that folder.`);
  }
}

/** Whether a real path is the real folder `root` or inside it (by path: a file named "..x" in it is inside). */
function within(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The real path of a file that may not exist yet: its nearest existing folder's real path, and the rest as written. */
function realPathOf(file: string): string {
  const rest: string[] = [];
  for (let dir = file; ; dir = path.dirname(dir)) {
    try { return path.join(fs.realpathSync(dir), ...rest.reverse()); } catch { /* not there: one level up */ }
    if (path.dirname(dir) === dir) return file;
    rest.push(path.basename(dir));
  }
}

/** USAGE's synopsis lines of one command (its continuation lines with it), or of every command, under "Usage:". */
export function synopsis(cmd?: string): string {
  const lines = USAGE.split('\n\n')[0].split('\n').slice(1);
  const kept: string[] = [];
  let keep = false;
  for (const l of lines) {
    if (/^ {2}edgekit /.test(l)) keep = cmd === undefined || l.startsWith(`  edgekit ${cmd} `);
    if (keep) kept.push(l);
  }
  return `Usage:\n${kept.join('\n')}`;
}

/** `--help` or `-h` among a command's options (before a `--` that ends them), as `edgekit mock --help` takes it. */
function asksHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * What the CLI writes, its "\n" line ends kept and every other control character and Unicode line break (CR, U+0085, U+2028,
 * U+2029) written as a \u escape, as messages quote text. File names and file contents reach the output (a name in a directory
 * walk, V8's "is not JSON" message quoting a bad line, a field name decoded from its JSON escape), and a pull request chooses
 * them: "x\n::error file=...::..." or a lone CR written as is starts a line a CI runner obeys as a workflow command (GitHub's
 * reads them on stdout and stderr, and ends lines at CR too). JSON and SARIF are unchanged in meaning (a raw U+2028 in a string
 * becomes its escape); the github format's lines are already escaped.
 */
export function outputLines(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export async function main(argv: string[], rawIo: Io): Promise<number> {
  const io: Io = { stdout: (s) => rawIo.stdout(outputLines(s)), stderr: (s) => rawIo.stderr(outputLines(s)), stdin: rawIo.stdin, maxDocumentBytes: rawIo.maxDocumentBytes };
  const [cmd, ...rest] = argv;
  try {
    if (cmd === '--version' || cmd === '-v') { io.stdout(`${VERSION}\n`); return 0; }
    if (cmd === '--help' || cmd === '-h' || cmd === 'help') { io.stdout(USAGE + '\n'); return 0; }
    // No command is a usage error as any other: on stderr, the synopses and where the rest is (the whole help was on stdout, exit 2).
    if (cmd === undefined) throw new UsageError('No command given.');
    if (cmd === 'lint') {
      if (asksHelp(rest)) { io.stdout(USAGE + '\n'); return 0; }
      return await lint(rest, io);
    }
    if (cmd === 'test-filter' || cmd === 'test-rules') {
      const t = await import('./cliTest');
      if (asksHelp(rest)) { io.stdout((cmd === 'test-filter' ? t.TEST_FILTER_USAGE : t.TEST_RULES_USAGE) + '\n'); return 0; }
      return await (cmd === 'test-filter' ? t.testFilterCommand(rest, io) : t.testRulesCommand(rest, io));
    }
    if (cmd === 'mock') {
      const { runMockCli } = await import('../../mock/src/main');
      return await runMockCli(rest, io);
    }
    throw new UsageError(`Unknown command "${cmd}".`);
  } catch (err) {
    if (err instanceof UsageError) {
      // The message first and last in view, not above the whole help: the synopsis of the command it concerns (of every command
      // when the command is unknown), and where the rest is.
      const known = cmd === 'lint';
      io.stderr(`edgekit: ${err.message}\n\n${synopsis(known ? cmd : undefined)}\nRun "edgekit ${known ? `${cmd} ` : ''}--help" for the details.\n`);
      return 2;
    }
    io.stderr(`edgekit: ${(err as Error).message}\n`);
    return 2;
  }
}

if (require.main === module) {
  // The exit code stays the checks' own when the report's reader left early; a write that failed is exit 2, as any I/O problem.
  const io = processIo('edgekit');
  main(process.argv.slice(2), io)
    .then((code) => { process.exitCode = io.exitCode(code); });
}
