// action.yml's steps run by hand, as the runner runs a composite action's `shell: bash` step (`bash --noprofile --norc -eo pipefail`,
// in the workspace, with GITHUB_ACTION_PATH, GITHUB_OUTPUT and the step's `env:` set, each `${{ ... }}` in the script and the
// `env:` values replaced by its text): the repository's dist/cli.js (test:unit builds it) on a checkout of EdgeKit files with
// mistakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Paths in the reports go from the checkout a CI names (GITHUB_WORKSPACE, CI_PROJECT_DIR), else the current folder: these tests
// mean the current folder, also when they run inside a CI job.
delete process.env.GITHUB_WORKSPACE;
delete process.env.CI_PROJECT_DIR;

const ROOT = path.resolve(__dirname, '../../..');
const ACTION = fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8');

/** The inputs' defaults. */
function defaults(): Record<string, string> {
  const block = /^inputs:\n([\s\S]*?)^runs:/m.exec(ACTION)![1];
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/^ {2}([\w-]+):\n(?: {4}.*\n)*? {4}default: (.*)$/gm)) out[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  return out;
}

/** A `${{ ... }}` expression as the runner evaluates it, for the forms action.yml gives an input in: `inputs.NAME`, and
 * `inputs.NAME == 'value' && 'then' || 'else'` (GitHub compares strings ignoring case). */
function evaluate(expression: string, inputs: Record<string, string>): string {
  const input = (name: string) => inputs[name] ?? assert.fail(`no input ${name}`);
  const plain = /^inputs\.([\w-]+)$/.exec(expression);
  if (plain) return input(plain[1]);
  const choice = /^inputs\.([\w-]+) == '([^']*)' && '([^']*)' \|\| '([^']*)'$/.exec(expression);
  if (choice) return input(choice[1]).toLowerCase() === choice[2].toLowerCase() ? choice[3] : choice[4];
  return assert.fail(`the test does not evaluate \${{ ${expression} }}`);
}

/** The runner's text replacement of each `${{ ... }}` in a value. */
const substitute = (text: string, inputs: Record<string, string>) => text.replace(/\$\{\{ (.*?) \}\}/g, (_, e: string) => evaluate(e, inputs));

/** The step with this id, as the runner gives it to bash: its `run` script and its `env:` values, each `${{ ... }}` in them replaced
 * by its text. */
function step(id: string, inputs: Record<string, string>): { script: string; env: Record<string, string> } {
  const text = ACTION.split(/\n {4}- /).find((s) => new RegExp(`^ {6}id: ${id}$`, 'm').test(s)) ?? assert.fail(`no step ${id} in action.yml`);
  const run = /^ {6}run: \|\n((?: {8}.*\n?)+)/m.exec(text)?.[1].replace(/^ {8}/gm, '') ?? /^ {6}run: (.+)$/m.exec(text)?.[1] ?? assert.fail(`the step ${id} has no run`);
  const envBlock = /^ {6}env:\n((?: {8}.*\n?)+)/m.exec(text)?.[1] ?? '';
  const env = Object.fromEntries([...envBlock.matchAll(/^ {8}([A-Z_]+): (.*)$/gm)].map((m) => [m[1], substitute(m[2], inputs)]));
  return { script: substitute(run, inputs), env };
}

/** bash, found on this process's PATH (a step may be run with another PATH). */
const BASH = (process.env.PATH ?? '').split(path.delimiter).map((d) => path.join(d, 'bash')).find((f) => fs.existsSync(f)) ?? 'bash';

function runStep(id: string, workspace: string, given: Record<string, string>, PATH = process.env.PATH) {
  const output = path.join(workspace, '..', 'github-output');
  fs.writeFileSync(output, '');
  const { script, env } = step(id, { ...defaults(), ...given });
  const r = spawnSync(BASH, ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script],
    { cwd: workspace, env: { ...process.env, ...env, PATH, GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: output }, encoding: 'utf8' });
  const outputs = Object.fromEntries(fs.readFileSync(output, 'utf8').split('\n').filter(Boolean).map((l) => l.split('=', 2)));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, outputs };
}

function checkout(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-action-'));
  const ws = path.join(dir, 'repo');
  fs.mkdirSync(path.join(ws, 'config'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'config', 'edge.filter.json'), '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}');
  return ws;
}

test('the action\'s lint step writes the SARIF log where sarif-file says, making its folder, and passes "errors found" on as exit-code 1', () => {
  // `> "${{ inputs.sarif-file }}"` into a folder that did not exist failed in the shell with status 1 before EdgeKit ran: the step
  // took it for "errors found", the upload found no file and the last step said "EdgeKit found errors".
  const ws = checkout();
  try {
    for (const sarifFile of ['edgekit.sarif', 'reports/edgekit.sarif']) {
      const r = runStep('lint', ws, { 'sarif-file': sarifFile });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.outputs['exit-code'], '1', sarifFile);
      const log = JSON.parse(fs.readFileSync(path.join(ws, sarifFile), 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
      assert.deepEqual(log.runs[0].results.map((x) => [x.ruleId, x.locations[0].physicalLocation.artifactLocation.uri]), [['logpush/unknown-field', 'config/edge.filter.json']]);
    }
  } finally {
    fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  }
});

test('the action\'s lint step fails itself on a usage or I/O problem (exit 2), as docs/ci.md says', () => {
  const ws = checkout();
  try {
    const r = runStep('lint', ws, { paths: 'confgi/' });
    assert.equal(r.status, 2);
    assert.equal(r.outputs['exit-code'], '2');
    assert.match(r.stderr, /confgi\/: no such file or directory/);
  } finally {
    fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  }
});

test('the action installs Node only when the runner has none of 20 or later: the job\'s own Node stays on its PATH', () => {
  // actions/setup-node ran on every use and put Node 20 first on the PATH for the rest of the job: a job that had set up Node 22
  // for its own steps ran them on 20 after EdgeKit's step. Its `if:` reads the output of the step `node`.
  assert.match(ACTION, /uses: actions\/setup-node@v4\n {6}if: \$\{\{ steps\.node\.outputs\.needed == 'true' \}\}/);
  const ws = checkout();
  try {
    const bin = path.join(ws, '..', 'bin');
    fs.mkdirSync(bin);
    const withNode = (version: string | undefined, npm = true) => {
      fs.rmSync(path.join(bin, 'node'), { force: true });
      fs.rmSync(path.join(bin, 'npm'), { force: true });
      if (version) fs.writeFileSync(path.join(bin, 'node'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
      if (npm) fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho 10.8.2\n', { mode: 0o755 });
      return runStep('node', ws, {}, `${bin}:/nonexistent`);
    };
    assert.equal(withNode('22').outputs.needed, 'false');
    assert.equal(withNode('20').outputs.needed, 'false');
    assert.equal(withNode('18').outputs.needed, 'true');
    assert.equal(withNode(undefined).outputs.needed, 'true', 'no node on the PATH');
    // rv30: the build step runs `npm ci`; a Node 20 without npm (an image that copies the node binary alone, Debian's nodejs
    // package without its npm package) made the action skip setup-node, which brings both, and the build failed on "npm: command
    // not found"
    assert.equal(withNode('22', false).outputs.needed, 'true', 'node 22 without npm');
    // A node that prints something other than a version (a wrapper's banner) is no Node 20 the action can count on
    assert.equal(withNode('"v22 via some-wrapper"').outputs.needed, 'true');
  } finally {
    fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  }
});

test('an input is never shell syntax: quotes, $(...), backticks and ";" in one run nothing, and it reaches EdgeKit as written', () => {
  // The inputs were written into the scripts as text (`--output-file "${{ inputs.sarif-file }}" ${{ inputs.paths }}`): a value
  // from a workflow_dispatch input or a pull request ran as shell code in the job (GitHub's "Security hardening for GitHub
  // Actions", script injections). Now each goes through the step's `env:` and the script reads "$VAR".
  for (const [, id, script] of ACTION.matchAll(/^ {6}id: ([\w-]+)\n(?: {6}(?!run:).*\n)*? {6}run: (.*(?:\n {8}.*)*)/gm)) {
    assert.doesNotMatch(script, /\$\{\{/, `the step ${id} writes an expression into its script`);
  }
  const ws = checkout();
  const pwned = path.join(ws, '..', 'pwned');
  try {
    const attacks = [`x"; touch ${pwned}; echo "`, `$(touch ${pwned})`, `\`touch ${pwned}\``, `config/; touch ${pwned}`, `config/\ntouch ${pwned}`];
    for (const attack of attacks) {
      for (const input of ['paths', 'dataset', 'sarif-file']) {
        for (const id of ['lint', 'annotations', 'fail']) runStep(id, ws, { [input]: attack, annotations: 'true' });
        assert.ok(!fs.existsSync(pwned), `${input}: ${JSON.stringify(attack)} ran a command`);
      }
    }
    // A file name with a quote, a ";" and "$(...)" is the file written
    const odd = `reports/it's; $(x) "a".sarif`;
    const r = runStep('lint', ws, { 'sarif-file': odd });
    assert.equal(r.outputs['exit-code'], '1', r.stderr);
    assert.ok(fs.existsSync(path.join(ws, odd)), fs.readdirSync(ws).join(', '));
    // ...and named as written in the last step's message
    const fail = runStep('fail', ws, { 'sarif-file': odd, upload: 'True' });
    assert.equal(fail.status, 1);
    assert.equal(fail.stdout, `EdgeKit found errors; see ${odd} and the code scanning alerts.\n`);
  } finally {
    fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  }
});

test('paths is still split at spaces and expanded as a glob, as its description says', () => {
  const ws = checkout();
  try {
    fs.mkdirSync(path.join(ws, 'more'));
    fs.writeFileSync(path.join(ws, 'more', 'b.rpc.json'), '{"jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1}');
    const uris = (paths: string) => {
      const r = runStep('lint', ws, { paths });
      assert.equal(r.outputs['exit-code'], '1', r.stderr);
      const log = JSON.parse(fs.readFileSync(path.join(ws, 'edgekit.sarif'), 'utf8')) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
      return [...new Set(log.runs[0].results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri))];
    };
    assert.deepEqual(uris('config/ more/'), ['config/edge.filter.json', 'more/b.rpc.json']);
    assert.deepEqual(uris('  config/*.filter.json\tmore/*.json  '), ['config/edge.filter.json', 'more/b.rpc.json']);
    const annotations = runStep('annotations', ws, { paths: 'config/*.json more/' });
    assert.equal(annotations.status, 0, annotations.stderr);
    assert.match(annotations.stdout, /^::error file=config\/edge\.filter\.json,/m);
    assert.match(annotations.stdout, /file=more\/b\.rpc\.json,/);
  } finally {
    fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  }
});

test('a paths value that starts with "-" is a path, never an option: "--fix ." writes nothing into the checkout', () => {
  // `... --output-file "$EDGEKIT_SARIF_FILE" $EDGEKIT_PATHS` read `--fix` as lint's option: the job's files were rewritten by a
  // value from a workflow input. After `--` it is a path that does not exist (exit 2, as any other missing path).
  const ws = checkout();
  const fixable = '{\n  "where": {\n    "and": [\n      { "key": "EdgeResponseStatus", "operator": "eq", "value": 200 }\n      { "key": "ClientIP", "operator": "eq", "value": "1.2.3.4" },\n    ]\n  }\n}\n';
  const file = path.join(ws, 'config', 'fixable.filter.json');
  fs.writeFileSync(file, fixable);
  try {
    for (const id of ['lint', 'annotations']) {
      const r = runStep(id, ws, { paths: '--fix .', annotations: 'true' });
      assert.equal(fs.readFileSync(file, 'utf8'), fixable, id);
      assert.notEqual(r.status, 0, id);
      assert.match(r.stderr, /--fix: no such file or directory/, id);
    }
  } finally {
    fs.rmSync(path.dirname(ws), { recursive: true, force: true });
  }
});

test('action.yml is YAML: no plain (unquoted) value holds ": " or " #"', () => {
  // The upload input's description read `(needs \`security-events: write\`)` unquoted: ": " inside a plain scalar is a mapping
  // that YAML does not allow there, and a YAML parser (js-yaml: "bad indentation of a mapping entry") refuses the whole file, so
  // the runner could not load the action. A " #" would cut the value short as a comment.
  let blockIndent = -1;
  for (const [i, line] of ACTION.split('\n').entries()) {
    const indent = /^ */.exec(line)![0].length;
    if (blockIndent >= 0 && (indent > blockIndent || line.trim() === '')) continue;
    blockIndent = -1;
    const m = /^ *(?:- )?[\w-]+: (.*)$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    if (/^[|>]/.test(m[1])) { blockIndent = indent; continue; }
    if (/^["'{[]/.test(m[1])) continue;
    assert.doesNotMatch(m[1], /: | #/, `action.yml line ${i + 1}: quote the value`);
  }
});

test('the action builds EdgeKit once, also in a job that sets NPM_CONFIG_IGNORE_SCRIPTS', () => {
  // It ran `npm ci` (which builds dist/ through the package's `prepare`) and then `npm run build`, the same `node esbuild.mjs`
  // again. Dropping `npm run build` would leave no dist/cli.js where the job sets NPM_CONFIG_IGNORE_SCRIPTS=true (`npm ci` then
  // runs no `prepare`; `npm run` still runs the script it is asked for), so the install runs no scripts and the build is explicit.
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const builds = (cmd: string) => cmd === 'node esbuild.mjs';
  assert.ok(builds(scripts.build), 'npm run build builds dist/');
  const commands = step('build', {}).script.split(/\s*&&\s*/);
  const count = commands.filter((c) => (/^npm ci\b/.test(c) && !/ --ignore-scripts\b/.test(c) && builds(scripts.prepare ?? '')) || /^npm run build$/.test(c)).length;
  assert.equal(count, 1, commands.join(' && '));
  assert.ok(commands.includes('npm run build'), 'the build is one `npm run` runs whatever the job\'s ignore-scripts');
});
