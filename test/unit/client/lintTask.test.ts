// The "edgekit" task type (client/src/tasks.ts, lintTask.ts): the arguments it gives the bundled CLI are ones the CLI's parser takes,
// they carry the folder's settings (a dataset changes what a standalone filter is checked against), and package.json's
// taskDefinitions describe what definitionProblem accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../server/src/cli';
import { datasetRefusal, definitionProblem, definitionRefusal, lintArgs, LINE_FORMAT, parseLintLine, refusalLines, taskName } from '../../../client/src/lintTask';
import { catalogue, getLanguageService } from '../../../server/src/core';
import { lintSummaryExit, normalizeSettings } from '../../../server/src/protocol';
import { CODES } from '../../../server/src/core/codes';

async function cli(argv: string[], cwd: string) {
  let stdout = '', stderr = '';
  const saved = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(argv, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
    return { code, stdout, stderr };
  } finally {
    process.chdir(saved);
  }
}

function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-task-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

test('the default task checks the whole folder in the line format the problem matchers read', async () => {
  const args = lintArgs({ type: 'edgekit', command: 'lint' }, {});
  assert.deepEqual(args, ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '1000', '--max-file-size', '5120', '--summary', '--allow-empty', '--', '.']);
  const dir = folder({ 'a/x.filter.json': '{"where":{"key":"EdgeResponseStatus","operator":"in","value":403}}', 'node_modules/y.filter.json': '{' });
  const r = await cli(args, dir);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^a\/x\.filter\.json:1:\d+-1:\d+ error logpush\/set-needs-array /m);
  assert.doesNotMatch(r.stdout, /node_modules/);
});

test('the folder\'s settings reach the CLI: dataset, problem cap and size limit', async () => {
  const args = lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: 'gateway_dns', maxProblems: 1, maxFileSizeKB: 64 });
  assert.deepEqual(args, ['lint', '--format', 'line', '--dataset', 'gateway_dns', '--max-problems', '1', '--max-file-size', '64', '--summary', '--allow-empty', '--', '.']);
  // ClientRequestPath is a field of http_requests, not of gateway_dns: the dataset setting decides whether this filter is wrong.
  const dir = folder({ 'f.filter.json': '{"where":{"and":[{"key":"ClientRequestPath","operator":"eq","value":"/"},{"key":"Nope","operator":"eq","value":1}]}}' });
  const withDataset = await cli(args, dir);
  assert.match(withDataset.stdout, /error logpush\/unknown-field Unknown field "ClientRequestPath"/);
  assert.equal(withDataset.stdout.split('\n').filter((l) => / (error|warning) /.test(l)).length, 1, 'at most one problem per file');
  const without = await cli(lintArgs({ type: 'edgekit', command: 'lint' }, {}), dir);
  assert.doesNotMatch(without.stdout, /"ClientRequestPath"/);
});

test('the folder\'s edgekit.logpush.scope reaches the CLI as --scope; "unknown" or a bad value passes none', async () => {
  const zone = lintArgs({ type: 'edgekit', command: 'lint' }, { scope: 'zone' });
  assert.deepEqual(zone.slice(3, 11), ['--dataset', 'http_requests', '--scope', 'zone', '--max-problems', '1000', '--max-file-size', '5120']);
  for (const scope of ['unknown', 'both', undefined, 3]) assert.ok(!lintArgs({ type: 'edgekit', command: 'lint' }, { scope }).includes('--scope'), String(scope));
  const filter = JSON.stringify({ where: { key: 'ZoneName', operator: 'eq', value: 'a.example' } });
  const dir = folder({ 'fw.logpush.json': JSON.stringify({ dataset: 'firewall_events', destination_conf: 's3://b/l?region=us-east-1', filter }) });
  assert.match((await cli(zone, dir)).stdout, /^fw\.logpush\.json:1:\d+-1:\d+ error logpush\/unknown-field /m, 'a zone\'s job');
  assert.equal((await cli(lintArgs({ type: 'edgekit', command: 'lint' }, { scope: 'account' }), dir)).code, 0, 'an account\'s job');
});

test('settings that are not usable values are the server\'s defaults', () => {
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: '  ', maxProblems: 0, maxFileSizeKB: 0.5 }), ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '1000', '--max-file-size', '5120', '--summary', '--allow-empty', '--', '.']);
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: 7, maxProblems: '10', maxFileSizeKB: null }), ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '1000', '--max-file-size', '5120', '--summary', '--allow-empty', '--', '.']);
});

test('fix and paths: a path starting with "-" is a path, not an option', async () => {
  const def = { type: 'edgekit' as const, command: 'lint' as const, fix: true, paths: ['-odd.filter.json', 'sub'] };
  assert.equal(taskName(def), 'lint --fix -odd.filter.json sub');
  const dir = folder({ '-odd.filter.json': '{"where":{"key":"EdgeResponseStatus","operator":"in","value":403}}', 'sub/z.filter.json': '{"where":{}}', 'other/w.filter.json': '{' });
  const r = await cli(lintArgs(def, {}), dir);
  assert.notEqual(r.code, 2, r.stderr);
  assert.match(fs.readFileSync(path.join(dir, '-odd.filter.json'), 'utf8'), /"value": \[\s*403\s*\]|"value":\[403\]/, 'the fix was written');
  assert.doesNotMatch(r.stdout, /other\/w\.filter\.json/, 'only the paths named are checked');
});

test('definitionProblem names the member that is wrong', () => {
  assert.equal(definitionProblem({ type: 'edgekit', command: 'lint' }), undefined);
  assert.equal(definitionProblem({ type: 'edgekit', command: 'lint', fix: false, paths: ['a', 'b/c'] }), undefined);
  assert.deepEqual(definitionProblem({ type: 'edgekit', command: 'check' }), { member: 'command', message: '"command" must be "lint", not "check"' });
  assert.match(definitionProblem({ type: 'edgekit' })!.message, /"command" must be "lint", not undefined/);
  assert.deepEqual(definitionProblem({ type: 'edgekit', command: 'lint', fix: 'yes' }), { member: 'fix', message: '"fix" must be true or false, not "yes"' });
  assert.match(definitionProblem({ type: 'edgekit', command: 'lint', paths: 'src' })!.message, /"paths" must be a list/);
  assert.equal(definitionProblem({ type: 'edgekit', command: 'lint', paths: [''] })!.member, 'paths');
});

test('package.json\'s taskDefinitions describe what definitionProblem accepts, and activate the extension for the type', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
  const defs = pkg.contributes.taskDefinitions as { type: string; required: string[]; properties: Record<string, { type: string; enum?: string[] }> }[];
  assert.equal(defs.length, 1);
  assert.equal(defs[0].type, 'edgekit');
  assert.deepEqual(defs[0].required, ['command']);
  assert.deepEqual(Object.keys(defs[0].properties).sort(), ['command', 'fix', 'paths']);
  for (const c of defs[0].properties.command.enum!) assert.equal(definitionProblem({ type: 'edgekit', command: c }), undefined);
  assert.ok((pkg.activationEvents as string[]).includes('onTaskType:edgekit'));
});

test('the settings reach the CLI as the language server reads them: a fraction rounded down, an out-of-range value at its default', () => {
  // normalizeSettings (protocol.ts) takes 10.5 problems as 10 and a size over its 1 GB maximum as the 5120 KB default; the task
  // passed no cap for the first (the CLI's 1000) and the huge size as it was, so the task's Problems were not the editor's.
  const server = normalizeSettings({ maxProblems: 10.5, maxFileSizeKB: 5_000_000 });
  assert.deepEqual([server.maxProblems, server.maxFileSizeKB], [10, 5120]);
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { maxProblems: 10.5, maxFileSizeKB: 5_000_000 }),
    ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '10', '--max-file-size', '5120', '--summary', '--allow-empty', '--', '.']);
  // A dataset the server does not take (not a dataset name) is its default too, not the CLI's own.
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: ' gateway_dns' }).slice(3, 5), ['--dataset', 'http_requests']);
});

const DATASETS = catalogue.logpush.datasets.map((d) => d.name);
const PLACE = { folderName: 'a', folderDir: '/ws/a' };
/** package.json's $edgekit problem matcher, as VS Code applies it to a line of the task's terminal. */
function matcher(line: string) {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
  const m = pkg.contributes.problemMatchers.find((x: { name: string }) => x.name === 'edgekit');
  const r = new RegExp(m.pattern.regexp).exec(line);
  if (!r) return undefined;
  const p = m.pattern;
  return { file: r[p.file], line: +r[p.line], column: +r[p.column], endLine: +r[p.endLine], endColumn: +r[p.endColumn], severity: r[p.severity], code: r[p.code], message: r[p.message] };
}

test('a dataset setting the CLI refuses (a name that is no dataset) refuses the task, named with its value and where it is set; the server reports the same code', async () => {
  // The task passed it as --dataset nope: the CLI's usage error (exit 2) named neither the setting nor where it was set, and
  // nothing reached the Problems panel.
  const dir = folder({ 'f.filter.json': '{"where":{"key":"ClientRequestPath","operator":"eq","value":"/"}}' });
  const cliSays = await cli(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: 'nope' }), dir);
  assert.equal(cliSays.code, 2, 'the CLI refuses it');
  const folderRefusal = datasetRefusal({ globalValue: 'gateway_dns', workspaceFolderValue: 'nope' }, DATASETS, PLACE)!;
  assert.equal(folderRefusal.code, 'logpush/unknown-dataset');
  assert.match(folderRefusal.message, /^Unknown dataset "nope" in the edgekit\.logpush\.dataset setting \(settings of the folder "a", \.vscode\/settings\.json\); choose one/);
  assert.deepEqual(folderRefusal.at, { file: path.join('/ws/a', '.vscode', 'settings.json'), path: ['edgekit.logpush.dataset'] });
  const server = getLanguageService().validate('{"where":{"key":"ClientRequestPath","operator":"eq","value":"/"}}', 'logpush-filter', { logpushDataset: 'nope' });
  assert.ok(server.some((p) => p.code === folderRefusal.code && p.message.includes('"nope" (from the edgekit.logpush.dataset setting)')), 'the editor says it in the filter');
  // Workspace settings: the .code-workspace file's "settings" when the window has one; User settings have no file the API names.
  assert.deepEqual(datasetRefusal({ workspaceValue: 'nope' }, DATASETS, { ...PLACE, workspaceFile: '/ws/x.code-workspace' })!.at, { file: '/ws/x.code-workspace', path: ['settings', 'edgekit.logpush.dataset'] });
  assert.match(datasetRefusal({ workspaceValue: 'nope' }, DATASETS, { ...PLACE, workspaceFile: '/ws/x.code-workspace' })!.message, /setting \(workspace settings, x\.code-workspace\)/);
  assert.equal(datasetRefusal({ workspaceValue: 'nope' }, DATASETS, PLACE)!.at!.file, path.join('/ws/a', '.vscode', 'settings.json'));
  const user = datasetRefusal({ globalValue: 'nope' }, DATASETS, PLACE)!;
  assert.match(user.message, /setting \(User settings\)/);
  assert.equal(user.at, undefined);
});

test('the task refuses exactly the dataset settings the CLI refuses: a known name, the default and a value that is no name at all run', async () => {
  const dir = folder({ 'f.filter.json': '{"where":{"key":"EdgeResponseStatus","operator":"eq","value":200}}' });
  for (const value of ['gateway_dns', 'nope', 'http_request', ' gateway_dns', 7, 'Gateway_DNS', undefined]) {
    const refused = datasetRefusal({ workspaceFolderValue: value }, DATASETS, PLACE) !== undefined;
    const r = await cli(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: value }), dir);
    assert.equal(r.code === 2, refused, `${JSON.stringify(value)}: CLI exit ${r.code}, ${r.stderr}`);
  }
});

test('the refusal is a line the $edgekit problem matcher reads, at the setting\'s value in the settings file (comments and all)', () => {
  const r = datasetRefusal({ workspaceFolderValue: 'nope' }, DATASETS, PLACE)!;
  const text = '{\n  // mine\n  "editor.tabSize": 2,\n  "edgekit.logpush.dataset": "nope",\n}\n';
  const [line, after] = refusalLines(r, { text });
  const m = matcher(line)!;
  assert.ok(m, line);
  assert.deepEqual([m.file, m.line, m.column, m.endLine, m.endColumn, m.severity, m.code], [r.at!.file, 4, 30, 4, 36, 'error', 'logpush/unknown-dataset']);
  assert.equal(m.message, r.message);
  assert.match(after, /did not run; nothing was checked/);
  // Not in the file (set some other way): the start of the file. Not readable: said as the CLI says a usage problem.
  assert.deepEqual(Object.values(matcher(refusalLines(r, { text: '{}' })[0])!).slice(1, 5), [1, 1, 1, 1]);
  assert.equal(refusalLines(r, { text: undefined })[0], `edgekit: ${r.message}`);
  assert.equal(matcher(refusalLines(r, { text: undefined })[0]), undefined);
});

test('a definition that cannot run is refused at its member in tasks.json, the entry found by its definition', () => {
  const text = `{
  "version": "2.0.0",
  "tasks": [
    { "label": "ok", "type": "edgekit", "command": "lint" },
    { "label": "typo", "type": "edgekit", "command": "lint", "fix": "yes" },
  ]
}`;
  const def = { type: 'edgekit', command: 'lint', fix: 'yes' };
  const r = definitionRefusal(def, definitionProblem(def)!, { path: '/ws/a/.vscode/tasks.json', workspaceFile: false });
  assert.equal(r.code, 'task/cannot-run');
  const m = matcher(refusalLines(r, { text })[0])!;
  assert.deepEqual([m.file, m.line, text.split('\n')[4].slice(m.column - 1, m.endColumn - 1)], ['/ws/a/.vscode/tasks.json', 5, '"yes"']);
  assert.match(m.message, /"fix" must be true or false, not "yes"/);
  // A .code-workspace file keeps its tasks under "tasks"; a problem with no member is at the whole entry.
  const ws = `{ "folders": [], "tasks": { "version": "2.0.0", "tasks": [ { "type": "edgekit", "command": "lint", "paths": ["f"] } ] } }`;
  const whole = definitionRefusal({ type: 'edgekit', command: 'lint', paths: ['f'] }, { message: 'no folder' }, { path: '/ws/x.code-workspace', workspaceFile: true });
  const w = matcher(refusalLines(whole, { text: ws })[0])!;
  assert.equal(ws.slice(w.column - 1, w.endColumn - 1), '{ "type": "edgekit", "command": "lint", "paths": ["f"] }');
  // The user's tasks.json: no path the API gives.
  assert.match(refusalLines(definitionRefusal(def, definitionProblem(def)!), { text: undefined })[0], /^edgekit: This task of type "edgekit" cannot run: "fix"/);
});

test('a name in "paths" that does not exist is a Problems line at that name in the task\'s folder, absolute (the matcher cannot find a missing relative file)', async () => {
  // The $edgekit matcher's fileLocation is autoDetect: a relative name that exists is taken relative to the folder, one that does
  // not as an absolute path, so "filters" became /filters.
  const dir = folder({ 'a.filter.json': '{"where":{"key":"EdgeResponseStatus","operator":"eq","value":200}}' });
  const r = await cli(lintArgs({ type: 'edgekit', command: 'lint', paths: ['filters', 'a.filter.json'] }, {}), dir);
  assert.equal(r.code, 2);
  // Its summary (--summary) last: the task's, no problem line.
  const [line, summary] = r.stderr.trim().split('\n');
  assert.equal(lintSummaryExit(summary), 2);
  const m = matcher(line)!;
  assert.ok(m, r.stderr);
  assert.deepEqual([m.file, m.code, m.message], [path.join(fs.realpathSync(dir), 'filters'), 'cli/not-checked', 'no such file or directory (filters).']);
});

test('the whole-folder task accepts a folder with no EdgeKit file; paths named in tasks.json must hold one', () => {
  // The CLI refuses a directory with nothing to check (a CI path that checks nothing must not pass). A multi-root workspace's
  // folder without EdgeKit files is no mistake, but a "paths" entry that names such a directory is.
  assert.ok(lintArgs({ type: 'edgekit', command: 'lint' }, {}).includes('--allow-empty'));
  assert.ok(!lintArgs({ type: 'edgekit', command: 'lint', paths: ['filters'] }, {}).includes('--allow-empty'));
});

// Not on Windows, where a name cannot hold ":" (and "a:" names a drive).
test('paths holding ":1" and the like come out in Problems with their own file, code and message, missing or checked', { skip: process.platform === 'win32' }, async () => {
  // The matchers' file group is lazy: it ends at the first ":L:C-L:C severity " after which the rest of the line matches. A
  // name holding that (a folder "b:1:1-1:1 error x") ended the file there, and the rest of the name became the code.
  const dir = folder({ 'c:1:2-3:4 warning d.filter.json': '{}', 'e:1:1-1:1 error f/g.filter.json': '{}' });
  const paths = ['a:1:2.filter.json', 'dir:1/x.rpc.json', 'b:1:1-1:1 error x.filter.json', 'c:1:2-3:4 warning d.filter.json', 'e:1:1-1:1 error f'];
  const r = await cli(lintArgs({ type: 'edgekit', command: 'lint', paths }, {}), dir);
  assert.equal(r.code, 2, r.stderr);
  const real = fs.realpathSync(dir);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lintSummaryExit(lines.pop()!), 2, 'the summary line last');
  const missing = lines.map((l) => matcher(l)!);
  assert.deepEqual(missing.map((m) => [m.file, m.code, m.message]), paths.slice(0, 3).map((p) => [path.join(real, p), 'cli/not-checked', `no such file or directory (${p}).`]));
  const found = r.stdout.trim().split('\n').map((l) => matcher(l)!);
  assert.deepEqual(found.map((m) => [m.file, m.line, m.code]), [
    ['c:1:2-3:4 warning d.filter.json', 1, 'logpush/missing-where'],
    [path.join('e:1:1-1:1 error f', 'g.filter.json'), 1, 'logpush/missing-where'],
  ]);
  assert.ok(found.every((m) => m.message === 'The filter has no top-level member "where".'), JSON.stringify(found));
  // The code group now takes only the registry's shape ("area/kebab-name"): every code has it, so none is lost to the matchers.
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
  for (const m of pkg.contributes.problemMatchers as { name: string; pattern: { regexp: string } }[]) {
    const severity = m.name === 'edgekit' ? 'error' : 'hint';
    for (const code of Object.keys(CODES)) assert.ok(new RegExp(m.pattern.regexp).test(`/w/f.json:1:1-1:2 ${severity} ${code} M.`), `${m.name}: ${code}`);
  }
});

// ui9: the tasks read the CLI's lines themselves (client/src/tasks.ts, their own diagnostics), with the matchers' one regexp.
test('the tasks read the line format with the problem matchers\' regexp: LINE_FORMAT is theirs, with every severity', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8'));
  const of = (name: string) => (pkg.contributes.problemMatchers as { name: string; pattern: { regexp: string } }[]).find((m) => m.name === name)!.pattern.regexp;
  assert.equal(LINE_FORMAT.source.replace('(error|warning|information|hint)', '(error|warning)'), new RegExp(of('edgekit')).source);
  assert.equal(LINE_FORMAT.source.replace('(error|warning|information|hint)', '(?:information|hint)'), new RegExp(of('edgekit-info')).source);
  assert.deepEqual(parseLintLine('a/b.filter.json:1:2-3:4 hint logpush/x-y M: n.', '/ws'),
    { file: path.resolve('/ws', 'a/b.filter.json'), line: 1, column: 2, endLine: 3, endColumn: 4, severity: 'hint', code: 'logpush/x-y', message: 'M: n.' });
  assert.equal(parseLintLine('edgekit: the task did not run; nothing was checked.', '/ws'), undefined);
});
