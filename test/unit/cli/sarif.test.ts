// `edgekit lint --format sarif` is what the GitHub Action uploads to code scanning: its output must validate against the SARIF
// 2.1.0 JSON Schema (vendored in test/fixtures/sarif, see SOURCE.txt), for files with problems, clean files and a file the CLI
// cannot read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import Ajv04 from 'ajv-draft-04';
import { main, ruleTitle } from '../../../server/src/cli';
import { codes, kinds } from '../../../server/src/core';

// Paths in the reports go from the checkout a CI names (GITHUB_WORKSPACE, CI_PROJECT_DIR), else the current folder: these tests
// mean the current folder, also when they run inside a CI job.
delete process.env.GITHUB_WORKSPACE;
delete process.env.CI_PROJECT_DIR;

const SCHEMA = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../fixtures/sarif/sarif-2.1.0-rtm.5.json'), 'utf8'));

async function sarifOf(files: Record<string, string>): Promise<{ code: number; log: unknown }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-sarif-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  let stdout = '';
  const code = await main(['lint', '--format', 'sarif', dir], { stdout: (s) => { stdout += s; }, stderr: () => undefined });
  fs.rmSync(dir, { recursive: true, force: true });
  return { code, log: JSON.parse(stdout) };
}

// The schema has a pattern that is invalid as a unicode regex ("...]?$"): compile its patterns without the u flag.
const validate = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false }).compile(SCHEMA);

test('SARIF with problems of every kind validates against the SARIF 2.1.0 schema', async () => {
  const { code, log } = await sarifOf({
    'a.filter.json': '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}',
    'b.rpc.json': '{"jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1}',
    'c.ruleset.json': '{"rules": [{"action": "execute", "expression": "http.hots eq \\"x\\""}]}',
    'd.logpush.json': '{"name": "bad_name", "dataset": "http_requests", "destination_conf": "s3://b/l?region=us-east-1"}',
  });
  assert.equal(code, 1);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
  const run = (log as { runs: { results: unknown[]; tool: { driver: { rules: unknown[] } } }[] }).runs[0];
  assert.ok(run.results.length >= 4, 'one result per problem');
  assert.ok(run.tool.driver.rules.length > 0, 'the rules used are described');
});

test('SARIF of clean files validates too (no results)', async () => {
  const { code, log } = await sarifOf({ 'ok.filter.json': '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}' });
  assert.equal(code, 0);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
  assert.deepEqual((log as { runs: { results: unknown[] }[] }).runs[0].results, []);
});

test('the validator is strict enough to catch a broken log', () => {
  assert.equal(validate({ version: '2.1.0', runs: [{ tool: {} }] }), false, 'a run without tool.driver is refused');
});

test('the GitHub Action and the pre-commit hook run the CLI as it is, on exactly the file patterns the CLI walks', () => {
  const root = path.resolve(__dirname, '../../..');
  const action = fs.readFileSync(path.join(root, 'action.yml'), 'utf8');
  assert.match(action, /dist\/cli\.js" lint --format sarif --dataset/);
  assert.match(action, /github\/codeql-action\/upload-sarif/);
  // Annotations where code scanning is not available: the same CLI, --format github, exit 1 (errors found) not failing that step.
  assert.match(action, /if: \$\{\{ inputs\.annotations == 'true' \}\}/);
  assert.match(action, /dist\/cli\.js" lint --format github --dataset .*\|\| \[ \$\? -eq 1 \]/);
  const hook = fs.readFileSync(path.join(root, '.pre-commit-hooks.yaml'), 'utf8');
  assert.match(hook, /entry: edgekit lint --format line/);
  const files = new RegExp(/files: '([^']+)'/.exec(hook)![1]);
  for (const pattern of Object.values(kinds.patterns).flat()) assert.ok(files.test(`dir/x${pattern.slice(1)}`), `the hook misses ${pattern}`);
  assert.ok(!files.test('dir/package.json'));
});

test('the pre-commit hook\'s `edgekit` exists once pre-commit has installed the repository: the package builds dist/ on prepare', () => {
  // pre-commit's `language: node` clones the repository, runs `npm install` in it, `npm pack`s it and installs the tarball globally;
  // dist/ is gitignored, so a clone has no dist/cli.js and, without a build in the `prepare` lifecycle (which `npm install` and
  // `npm pack` both run), the packed `edgekit` bin pointed at a file that was not there and the hook could not run.
  const root = path.resolve(__dirname, '../../..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
  assert.equal(pkg.bin.edgekit, './dist/cli.js');
  assert.match(fs.readFileSync(path.join(root, '.gitignore'), 'utf8'), /^dist\/$/m, 'dist/ is not in a clone');
  assert.match(pkg.scripts.prepare ?? '', /^node esbuild\.mjs$|^npm run build$/, 'prepare builds dist/');
  // pre-commit takes everything `npm pack` prints on stdout as the tarball's file name, and `npm pack` runs scripts in the foreground
  // (their banner and the build's output on stdout) unless foreground-scripts is set false: the repository's .npmrc does.
  assert.match(fs.readFileSync(path.join(root, '.npmrc'), 'utf8'), /^foreground-scripts=false$/m);
});

test('SARIF artifact URIs are URI references: a space or "#" in a file name is percent-encoded, an absolute path is a file: URI', async () => {
  // "a #1.rpc.json" was written as is, so a SARIF reader took "#1.rpc.json" for a fragment.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-sarif-'));
  try {
    fs.mkdirSync(path.join(dir, 'sub dir'));
    fs.writeFileSync(path.join(dir, 'sub dir', 'a #1.rpc.json'), '{"jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1}');
    const uris = async (target: string, cwd?: string) => {
      let stdout = '';
      const before = process.cwd();
      if (cwd) process.chdir(cwd);
      try {
        await main(['lint', '--format', 'sarif', target], { stdout: (s) => { stdout += s; }, stderr: () => undefined });
      } finally {
        process.chdir(before);
      }
      return (JSON.parse(stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] })
        .runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation.uri);
    };
    assert.deepEqual([...new Set(await uris('sub dir', dir))], ['sub%20dir/a%20%231.rpc.json']);
    const abs = [...new Set(await uris(dir))];
    assert.equal(abs.length, 1);
    assert.ok(abs[0].startsWith('file:///'), abs[0]);
    assert.equal(new URL(abs[0]).pathname.endsWith('/sub%20dir/a%20%231.rpc.json'), true, abs[0]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('SARIF URIs are relative to the current folder (the checkout in CI) with the uriBaseId %SRCROOT% the run resolves, however the path is written', async () => {
  // Code scanning places an alert by a URI relative to the repository's root; SARIF 2.1.0 §3.4.3 has a relative URI say its base
  // (uriBaseId, resolved by run.originalUriBaseIds). It had none, "./config" was written "./config/...", the absolute path of a
  // file in the checkout a file: URI and a file above the folder "../rpc/...": none of which is a path in the repository.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-sarif-')));
  const before = process.cwd();
  try {
    fs.mkdirSync(path.join(dir, 'repo', 'config'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'elsewhere'));
    const bad = '{"jsonrpc": "2.0", "method": "eth_getBalanse", "params": [], "id": 1}';
    fs.writeFileSync(path.join(dir, 'repo', 'config', 'a.rpc.json'), bad);
    fs.writeFileSync(path.join(dir, 'repo', 'config', 'b.rpc.json'), bad);
    fs.writeFileSync(path.join(dir, 'elsewhere', 'c.rpc.json'), bad);
    process.chdir(path.join(dir, 'repo'));
    let stdout = '';
    const code = await main(['lint', '--format', 'sarif', './config/a.rpc.json', path.join(dir, 'repo', 'config', 'b.rpc.json'), '../elsewhere/c.rpc.json'],
      { stdout: (s) => { stdout += s; }, stderr: () => undefined });
    assert.equal(code, 1);
    const log = JSON.parse(stdout) as { runs: { originalUriBaseIds?: Record<string, { uri: string }>; results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[] }[] };
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
    const run = log.runs[0];
    assert.deepEqual(run.results.map((r) => r.locations[0].physicalLocation.artifactLocation), [
      { uri: 'config/a.rpc.json', uriBaseId: '%SRCROOT%' },
      { uri: 'config/b.rpc.json', uriBaseId: '%SRCROOT%' },
      { uri: pathToFileURL(path.join(dir, 'elsewhere', 'c.rpc.json')).href },
    ]);
    assert.deepEqual(run.originalUriBaseIds, { '%SRCROOT%': { uri: pathToFileURL(path.join(dir, 'repo')).href + '/' } });
  } finally {
    process.chdir(before);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('SARIF rules have a one-line title, the whole description, help naming the README\'s code table, a tag and a default level', async () => {
  // shortDescription was the code's whole description (up to 440 characters), which code scanning shows as the alert's title; there
  // was no fullDescription and no help, which its alert panel shows.
  const { log } = await sarifOf({
    'a.filter.json': '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}',
    'c.ruleset.json': '{"rules": [{"action": "block", "expression": "http.host matches \\"(?u)\\\\bx\\""}]}',
    'd.rpc.json': '{"jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1, "id": 2}',
  });
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
  type Rule = { id: string; shortDescription: { text: string }; fullDescription: { text: string }; help: { text: string; markdown: string };
    defaultConfiguration: { level: string }; properties: { tags: string[] } };
  const rules = (log as { runs: { tool: { driver: { rules: Rule[] } } }[] }).runs[0].tool.driver.rules;
  const ids = rules.map((r) => r.id);
  for (const id of ['logpush/unknown-field', 'ruleset/expr-regex-word-boundary', 'syntax/duplicate-key']) assert.ok(ids.includes(id), `${id} in ${ids}`);
  for (const r of rules) {
    const info = codes.all[r.id];
    assert.equal(r.fullDescription.text, info.description);
    assert.ok(r.shortDescription.text.length <= 100 && !r.shortDescription.text.includes('\n'), r.shortDescription.text);
    const bare = (s: string) => s.replace(/ \((?:[^()]|\([^()]*\))*\)/g, '');
    assert.ok(bare(info.description).startsWith(bare(r.shortDescription.text.replace(/…$/, ''))), `${r.id}: ${r.shortDescription.text}`);
    assert.ok(r.help.text.includes(info.description) && r.help.text.includes(`README.md#${codes.anchor(r.id)}`), r.help.text);
    assert.ok(r.help.markdown.includes(`**${r.id}**`), r.help.markdown);
    assert.deepEqual(r.properties.tags, [r.id.split('/')[0]]);
    assert.equal(r.defaultConfiguration.level, info.severity === 'warning' ? 'warning' : info.severity === 'error' ? 'error' : 'note');
  }
  const byId = (id: string) => rules.find((r) => r.id === id)!;
  assert.equal(byId('syntax/duplicate-key').shortDescription.text, 'The same key twice in one object');
  assert.equal(byId('ruleset/expr-regex-word-boundary').shortDescription.text,
    'A "matches" regex with a word boundary EdgeKit\'s Test Rules reads otherwise than the platform');
});

test('a rule\'s title: the first sentence; when long, its main clause, then without parentheses, then cut at a word', () => {
  assert.equal(ruleTitle('A comma before a closing bracket or brace; JSON does not allow it.'), 'A comma before a closing bracket or brace; JSON does not allow it');
  const long = 'x'.repeat(30);
  assert.equal(ruleTitle(`A thing (with: a colon inside) that is ${long}; then ${long} ${long}. Second.`), `A thing (with: a colon inside) that is ${long}`);
  assert.equal(ruleTitle(`A thing (${long} ${long}) that ${long} is. More.`), `A thing that ${long} is`);
  const words = ruleTitle(`${'word '.repeat(40)}end.`);
  assert.ok(words.endsWith('word…') && words.length <= 101, words);
});

test('every code\'s rule title is whole: not empty, one line, brackets and quotes closed, no trailing colon, not cut mid-word (rv31)', () => {
  // rv31: a "." inside parentheses ended the first sentence, so ruleset/override-action's title was "An override sets an action
  // managed rules do not take (e.g", its parenthesis left open. Run over every code, since any may be reported.
  const bare = (s: string) => s.replace(/ \((?:[^()]|\([^()]*\))*\)/g, '');
  for (const [id, info] of Object.entries(codes.all)) {
    const title = ruleTitle(info.description);
    const where = `${id}: ${title}`;
    assert.ok(title.length > 0 && title.length <= 100 && !/[\r\n]/.test(title), where);
    assert.doesNotMatch(title, /[,;:\s]…?$/, where);
    let depth = 0;
    for (const c of title) { depth += c === '(' ? 1 : c === ')' ? -1 : 0; assert.ok(depth >= 0, where); }
    assert.equal(depth, 0, where);
    assert.equal((title.match(/"/g) ?? []).length % 2, 0, where);
    assert.equal((title.match(/`/g) ?? []).length % 2, 0, where);
    // What it keeps is the description's own words up to a word's end (parenthesised asides may be left out)
    const kept = bare(title.replace(/…$/, ''));
    const whole = bare(info.description);
    assert.ok(whole.startsWith(kept) || info.description.startsWith(title.replace(/…$/, '')), where);
    const next = (whole.startsWith(kept) ? whole : info.description).charAt(kept.length);
    assert.doesNotMatch(next, /[\w]/, `${where}: cut mid-word`);
  }
  assert.equal(ruleTitle('An override sets an action managed rules do not take (e.g. the old "simulate", now "log").'),
    'An override sets an action managed rules do not take (e.g. the old "simulate", now "log")');
  assert.equal(ruleTitle('A thing, e.g. this one. Second.'), 'A thing, e.g. this one');
  // rv31: ruleset/body-kind's description opened with where it shows ("Beside ruleset/inconsistent-rule-ids: whether most rules
  // carry ids ..."), and its title was that preface alone, the main clause before the ":"; the description now says what first
  assert.equal(ruleTitle(codes.all['ruleset/body-kind'].description), 'Whether most rules carry ids or are new rules without ids, and what to do');
});

test('SARIF names a file inside the current folder by its path from there when given through a link to that folder', async () => {
  // process.cwd() is the folder's real path (getcwd), while "$PWD/config/a.rpc.json" or "${{ github.workspace }}/config" keeps the
  // link the shell went through (a self-hosted runner's work folder under a linked home, macOS's /tmp): compared as written, the
  // file was outside the folder and got a file: URI, which code scanning cannot place in the repository (rv30).
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-sarif-')));
  const before = process.cwd();
  try {
    fs.mkdirSync(path.join(dir, 'real', 'repo', 'config'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'real', 'repo', 'config', 'a.rpc.json'), '{"jsonrpc": "2.0", "method": "eth_getBalanse", "params": [], "id": 1}');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'), 'dir');
    process.chdir(path.join(dir, 'link', 'repo'));
    let stdout = '';
    const code = await main(['lint', '--format', 'sarif', path.join(dir, 'link', 'repo', 'config', 'a.rpc.json')], { stdout: (s) => { stdout += s; }, stderr: () => undefined });
    assert.equal(code, 1);
    const log = JSON.parse(stdout) as { runs: { originalUriBaseIds: Record<string, { uri: string }>; results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[] }[] };
    assert.deepEqual(log.runs[0].results.map((r) => r.locations[0].physicalLocation.artifactLocation), [{ uri: 'config/a.rpc.json', uriBaseId: '%SRCROOT%' }]);
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: pathToFileURL(path.join(dir, 'real', 'repo')).href + '/' } });
  } finally {
    process.chdir(before);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('in a CI job run from a subfolder (working-directory), paths go from the checkout the CI names (GITHUB_WORKSPACE, CI_PROJECT_DIR) in all three formats', async () => {
  // The runner, code scanning and GitLab take a relative path from the checkout's root; a job step with `working-directory: sub`
  // ran edgekit from sub, and the paths went from there ("a.rpc.json" for sub/a.rpc.json: no file at the checkout's root).
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-ciroot-')));
  const before = process.cwd();
  const saved = { GITHUB_WORKSPACE: process.env.GITHUB_WORKSPACE, CI_PROJECT_DIR: process.env.CI_PROJECT_DIR };
  try {
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'a.rpc.json'), '{"jsonrpc": "2.0", "method": "eth_getBalanse", "params": [], "id": 1}');
    process.chdir(path.join(dir, 'sub'));
    const run = async (format: string) => {
      let stdout = '';
      await main(['lint', '--format', format, 'a.rpc.json'], { stdout: (s) => { stdout += s; }, stderr: () => undefined });
      return stdout;
    };
    const sarifUri = (out: string) => (JSON.parse(out) as { runs: { originalUriBaseIds: Record<string, { uri: string }>; results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }).runs[0];
    for (const [name, formats] of [['GITHUB_WORKSPACE', ['sarif', 'github']], ['CI_PROJECT_DIR', ['sarif', 'gitlab']]] as const) {
      delete process.env.GITHUB_WORKSPACE; delete process.env.CI_PROJECT_DIR;
      process.env[name] = dir;
      for (const format of formats) {
        const out = await run(format);
        if (format === 'sarif') {
          const r = sarifUri(out);
          assert.equal(r.results[0].locations[0].physicalLocation.artifactLocation.uri, 'sub/a.rpc.json', name);
          assert.equal(r.originalUriBaseIds['%SRCROOT%'].uri, pathToFileURL(dir).href + '/', name);
        } else if (format === 'github') assert.match(out, /file=sub\/a\.rpc\.json,/, name);
        else assert.equal((JSON.parse(out) as { location: { path: string } }[])[0].location.path, 'sub/a.rpc.json', name);
      }
    }
    // Without either, the current folder is the root, as before
    delete process.env.GITHUB_WORKSPACE; delete process.env.CI_PROJECT_DIR;
    assert.equal(sarifUri(await run('sarif')).results[0].locations[0].physicalLocation.artifactLocation.uri, 'a.rpc.json');
    // A workspace the file is not in (another checkout): the file stays as given outside it, a file: URI in SARIF
    process.env.GITHUB_WORKSPACE = path.join(dir, 'sub', 'nested');
    fs.mkdirSync(process.env.GITHUB_WORKSPACE);
    assert.match(sarifUri(await run('sarif')).results[0].locations[0].physicalLocation.artifactLocation.uri, /^file:\/\/\//);
  } finally {
    process.chdir(before);
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the checkout\'s paths are worked out once per file, not once per problem, in all three formats (rv31)', async (t) => {
  // repoPath ran for every problem of the github and sarif formats: with GITHUB_WORKSPACE set, a realpath of the workspace per
  // problem, two for a file outside it (about 60 ms more for 10 000 problems in one file, measured in process). Counted, not timed:
  // one file with 1 problem and one with 40 ask the file system as often.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-once-')));
  const before = process.cwd();
  const saved = process.env.GITHUB_WORKSPACE;
  const bad = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', method: 'eth_getBalanse', params: [], id: i + 1 })));
  try {
    fs.mkdirSync(path.join(dir, 'repo'));
    fs.mkdirSync(path.join(dir, 'elsewhere'));
    for (const where of ['repo', 'elsewhere']) {
      fs.writeFileSync(path.join(dir, where, 'one.rpc.json'), bad(1));
      fs.writeFileSync(path.join(dir, where, 'many.rpc.json'), bad(40));
    }
    process.chdir(path.join(dir, 'repo'));
    process.env.GITHUB_WORKSPACE = path.join(dir, 'repo');
    // The module object itself (what the CLI's `import * as fs` reads through), not this file's import of it
    const realpath = t.mock.method(createRequire(__filename)('node:fs') as typeof fs, 'realpathSync');
    for (const format of ['github', 'sarif', 'gitlab']) {
      for (const file of ['one.rpc.json', '../elsewhere/one.rpc.json']) {
        const calls = async (name: string) => {
          realpath.mock.resetCalls();
          let stdout = '';
          await main(['lint', '--format', format, name], { stdout: (s) => { stdout += s; }, stderr: () => undefined });
          assert.ok(stdout.length > 0, `${format} ${name}`);
          return realpath.mock.callCount();
        };
        assert.equal(await calls(file.replace('one', 'many')), await calls(file), `${format} ${file}`);
      }
    }
  } finally {
    process.chdir(before);
    if (saved === undefined) delete process.env.GITHUB_WORKSPACE; else process.env.GITHUB_WORKSPACE = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
