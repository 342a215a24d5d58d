// Mutation sample, fourth pass (mt4; docs/architecture.md): what the CLI's new code of 2026-11-28 did that no test held: the
// checkout's root a CI names (relative, through a link), a file whose name starts with "..", the SARIF title's bounds, and the glob
// hint's patterns and its place. Each test failed on a mutant the CLI's own tests let through, and passes on the code as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main, ruleTitle } from '../../../server/src/cli';

const BAD = '{"jsonrpc": "2.0", "method": "eth_getBalanse", "params": [], "id": 1}';

/** `edgekit lint ARGV` run from `cwd` with `env` (GITHUB_WORKSPACE, CI_PROJECT_DIR) set for the run only. */
async function lintIn(cwd: string, env: Record<string, string>, argv: string[]) {
  const saved = { GITHUB_WORKSPACE: process.env.GITHUB_WORKSPACE, CI_PROJECT_DIR: process.env.CI_PROJECT_DIR };
  const before = process.cwd();
  delete process.env.GITHUB_WORKSPACE;
  delete process.env.CI_PROJECT_DIR;
  Object.assign(process.env, env);
  process.chdir(cwd);
  try {
    let stdout = '', stderr = '';
    const code = await main(['lint', ...argv], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
    return { code, stdout, stderr };
  } finally {
    process.chdir(before);
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  }
}

function realTmp(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-mt4-')));
}

test('a relative GITHUB_WORKSPACE is no checkout root: paths go from the current folder', async () => {
  const dir = realTmp();
  try {
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'a.rpc.json'), BAD);
    const r = await lintIn(dir, { GITHUB_WORKSPACE: 'sub' }, ['--format', 'github', 'sub/a.rpc.json']);
    assert.match(r.stdout, /file=sub\/a\.rpc\.json,/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a GITHUB_WORKSPACE reached through a link is the checkout by its real path (a linked runner work folder)', async () => {
  const dir = realTmp();
  try {
    fs.mkdirSync(path.join(dir, 'real', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'real', 'sub', 'a.rpc.json'), BAD);
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'), 'dir');
    const r = await lintIn(path.join(dir, 'real', 'sub'), { GITHUB_WORKSPACE: path.join(dir, 'link') }, ['--format', 'github', 'a.rpc.json']);
    assert.match(r.stdout, /file=sub\/a\.rpc\.json,/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a file whose name starts with ".." is inside the checkout: a relative SARIF URI, not a file: URI', async () => {
  const dir = realTmp();
  try {
    fs.writeFileSync(path.join(dir, '..a.rpc.json'), BAD);
    const r = await lintIn(dir, {}, ['--format', 'sarif', '..a.rpc.json']);
    const log = JSON.parse(r.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: unknown } }[] }[] }[] };
    assert.deepEqual(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation, { uri: '..a.rpc.json', uriBaseId: '%SRCROOT%' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a rule title of exactly 100 characters is the whole first sentence; a ":" in its first 20 characters does not end the clause', () => {
  let words = 'The first part of a long title: then';
  while (words.length < 100) words += ' word';
  const exact = words.slice(0, 100);
  assert.equal(exact.length, 100);
  assert.equal(ruleTitle(`${exact}. More.`), exact);
  const early = `Note: ${'a long description of what the check finds, '.repeat(3)}and so on.`;
  const title = ruleTitle(early);
  assert.ok(title.startsWith('Note: a long description') && title.endsWith('…') && title.length <= 100, title);
});

test('a rule title\'s first sentence does not end at a full stop inside parentheses', () => {
  assert.equal(ruleTitle('A check (one of two. The other) that fails. Second sentence.'), 'A check (one of two. The other) that fails');
});

test('the glob hint: for braces and brackets too, and not for a name that exists (a link looping to itself)', async () => {
  const dir = realTmp();
  try {
    fs.mkdirSync(path.join(dir, 'config'));
    for (const pattern of ['config/{a,b}.rpc.json', 'config/[ab].rpc.json']) {
      const r = await lintIn(dir, {}, [pattern]);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /no such file or directory; edgekit lint does not expand glob patterns/, pattern);
    }
    // The name is a file's (a link), the error another: the user named it as it is, no pattern to expand
    fs.symlinkSync('x[1].rpc.json', path.join(dir, 'config', 'x[1].rpc.json'));
    const loop = await lintIn(dir, {}, ['config/x[1].rpc.json']);
    assert.equal(loop.code, 2);
    assert.match(loop.stderr, /ELOOP/);
    assert.doesNotMatch(loop.stderr, /glob/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
