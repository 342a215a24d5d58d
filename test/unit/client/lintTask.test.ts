// The "edgekit" task type (client/src/tasks.ts, lintTask.ts): the arguments it gives the bundled CLI are ones the CLI's parser takes,
// they carry the folder's settings (a dataset changes what a standalone filter is checked against), and package.json's
// taskDefinitions describe what definitionProblem accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../server/src/cli';
import { definitionProblem, lintArgs, taskName } from '../../../client/src/lintTask';
import { normalizeSettings } from '../../../server/src/protocol';

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
  assert.deepEqual(args, ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '1000', '--max-file-size', '5120', '--', '.']);
  const dir = folder({ 'a/x.filter.json': '{"where":{"key":"EdgeResponseStatus","operator":"in","value":403}}', 'node_modules/y.filter.json': '{' });
  const r = await cli(args, dir);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stdout, /^a\/x\.filter\.json:1:\d+-1:\d+ error logpush\/set-needs-array /m);
  assert.doesNotMatch(r.stdout, /node_modules/);
});

test('the folder\'s settings reach the CLI: dataset, problem cap and size limit', async () => {
  const args = lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: 'gateway_dns', maxProblems: 1, maxFileSizeKB: 64 });
  assert.deepEqual(args, ['lint', '--format', 'line', '--dataset', 'gateway_dns', '--max-problems', '1', '--max-file-size', '64', '--', '.']);
  // ClientRequestPath is a field of http_requests, not of gateway_dns: the dataset setting decides whether this filter is wrong.
  const dir = folder({ 'f.filter.json': '{"where":{"and":[{"key":"ClientRequestPath","operator":"eq","value":"/"},{"key":"Nope","operator":"eq","value":1}]}}' });
  const withDataset = await cli(args, dir);
  assert.match(withDataset.stdout, /error logpush\/unknown-field Unknown field "ClientRequestPath"/);
  assert.equal(withDataset.stdout.split('\n').filter((l) => / (error|warning) /.test(l)).length, 1, 'at most one problem per file');
  const without = await cli(lintArgs({ type: 'edgekit', command: 'lint' }, {}), dir);
  assert.doesNotMatch(without.stdout, /"ClientRequestPath"/);
});

test('settings that are not usable values are the server\'s defaults', () => {
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: '  ', maxProblems: 0, maxFileSizeKB: 0.5 }), ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '1000', '--max-file-size', '5120', '--', '.']);
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: 7, maxProblems: '10', maxFileSizeKB: null }), ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '1000', '--max-file-size', '5120', '--', '.']);
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
  assert.match(definitionProblem({ type: 'edgekit', command: 'check' })!, /"command" must be "lint", not "check"/);
  assert.match(definitionProblem({ type: 'edgekit' })!, /"command" must be "lint", not undefined/);
  assert.match(definitionProblem({ type: 'edgekit', command: 'lint', fix: 'yes' })!, /"fix" must be true or false, not "yes"/);
  assert.match(definitionProblem({ type: 'edgekit', command: 'lint', paths: 'src' })!, /"paths" must be a list/);
  assert.match(definitionProblem({ type: 'edgekit', command: 'lint', paths: [''] })!, /"paths" must be a list/);
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
    ['lint', '--format', 'line', '--dataset', 'http_requests', '--max-problems', '10', '--max-file-size', '5120', '--', '.']);
  // A dataset the server does not take (not a dataset name) is its default too, not the CLI's own.
  assert.deepEqual(lintArgs({ type: 'edgekit', command: 'lint' }, { dataset: ' gateway_dns' }).slice(3, 5), ['--dataset', 'http_requests']);
});
