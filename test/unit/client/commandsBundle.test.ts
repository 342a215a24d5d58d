// The commands bundle: activation (dist/client.js) registers every command by its id, and the commands' implementations, the flow and
// the HTTP layer are dist/commands.js, required when a command first runs or a view first refreshes (client/src/commands/registry.ts).
// The bundles are made here as esbuild.mjs makes them (scripts/clientBuilds.mjs), minified, into a temporary folder: dist/ is not touched.
import { commands, fake, resetFake } from './vscode';
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { clientBuilds } from '../../../scripts/clientBuilds.mjs';
import { COMMANDS } from '../../../client/src/commands/table';
import type * as Registry from '../../../client/src/commands/registry';
import type { Ctx } from '../../../client/src/ctx';

const ROOT = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const OPTIONS: esbuild.BuildOptions = {
  bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], minify: true, logLevel: 'silent',
  absWorkingDir: ROOT, metafile: true,
};
/** The activation bundle's bound: 30 KB below the 150 KB budget of docs/benchmarks.md ("client bundle loaded at activation"). */
const ACTIVATION_BOUND = 120 * 1024;

let dir: string;
let activation: esbuild.Metafile;
let lazy: esbuild.Metafile;

/** The input files that put code into a bundle (relative to the root), with their bytes in it. */
function inputs(meta: esbuild.Metafile): Map<string, number> {
  const [out] = Object.values(meta.outputs);
  return new Map(Object.entries(out.inputs).filter(([, v]) => v.bytesInOutput > 0).map(([k, v]) => [k, v.bytesInOutput]));
}

/** dir/registry.js: commands/registry.ts built as dist/client.js is (its require('./table') is a require of ./commands.js). */
async function buildRegistry(into: string): Promise<void> {
  const [client] = clientBuilds(OPTIONS, into, ROOT);
  await esbuild.build({ ...client, entryPoints: [path.join(ROOT, 'client/src/commands/registry.ts')], outfile: path.join(into, 'registry.js') });
}

/** A Ctx for the registration: the extension's manifest, a backend that is remote, a log that keeps nothing. */
function ctx(): Ctx {
  return {
    extension: { extension: { packageJSON: pkg } },
    backend: { endpoints: async () => ({ embedded: false, gatewayUrl: 'https://gw.example/v1/mainnet', apiBaseUrl: 'https://api.example/client/v4', apiToken: 't' }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-commands-'));
  const [client, commandsBuild] = await Promise.all(clientBuilds(OPTIONS, dir, ROOT).map((b) => esbuild.build(b)));
  activation = client.metafile!;
  lazy = commandsBuild.metafile!;
  await buildRegistry(dir);
});

after(() => fs.rmSync(dir, { recursive: true, force: true }));

beforeEach(() => resetFake());

test('the activation bundle holds the commands\' registration only: their implementations, the flow and the HTTP layer are dist/commands.js', () => {
  const at = inputs(activation);
  const moved = [...at.keys()].filter((f) => /^client\/src\/(commands\/(?!registry\.ts|run\.ts)|flow\/)/.test(f));
  assert.deepEqual(moved, [], 'command implementations or the flow in dist/client.js');
  // The views import a constant or two of the HTTP layer (planOf, the concurrency of zone requests), not the requests themselves.
  const http = [...at].filter(([f]) => f.startsWith('client/src/http/') && f !== 'client/src/http/redact.ts').reduce((n, [, b]) => n + b, 0);
  assert.ok(http < 1024, `${http} bytes of client/src/http (but redact.ts, the log's) in dist/client.js`);
  const size = fs.statSync(path.join(dir, 'client.js')).size;
  assert.ok(size < ACTIVATION_BOUND, `dist/client.js is ${(size / 1024).toFixed(1)} KB, over ${ACTIVATION_BOUND / 1024} KB`);

  const there = inputs(lazy);
  for (const f of ['client/src/commands/table.ts', 'client/src/commands/logpush.ts', 'client/src/commands/migration.ts', 'client/src/flow/machine.ts', 'client/src/http/request.ts']) {
    assert.ok(there.has(f), `${f} in dist/commands.js`);
  }
  // The one output channel, the mock's status bar item and its state are activation's: the commands reach them through ctx.
  const text = fs.readFileSync(path.join(dir, 'commands.js'), 'utf8');
  assert.doesNotMatch(text, /createOutputChannel|createStatusBarItem/);
});

test('activation requires the table only through commandsModule(): an import of its values fails the build', async () => {
  const [client] = clientBuilds(OPTIONS, dir, ROOT);
  const probe = path.join(ROOT, 'client/src/commands/probe.ts');
  const result = await esbuild.build({
    ...client, write: false, outfile: path.join(dir, 'probe.js'),
    stdin: { contents: "import { COMMANDS } from './table';\nexport const n = Object.keys(COMMANDS).length;\n", resolveDir: path.dirname(probe), sourcefile: probe, loader: 'ts' },
    entryPoints: undefined,
  }).then(() => undefined, (err: esbuild.BuildFailure) => err);
  assert.ok(result, 'the build failed');
  assert.match(result.errors.map((e) => e.text).join('\n'), /imports the command table's values: activation reaches it through commandsModule\(\)/);
});

test('the table implements exactly the commands package.json declares (activation registers the declared ids)', () => {
  assert.deepEqual(Object.keys(COMMANDS).sort(), pkg.contributes.commands.map((c: { command: string }) => c.command).sort());
});

test('registering loads nothing; a command\'s first run loads dist/commands.js, and a UserError made there keeps its actions', async () => {
  const registry = require(path.join(dir, 'registry.js')) as typeof Registry;
  const bundle = path.join(dir, 'commands.js');
  registry.registerCommands(ctx());
  assert.deepEqual([...commands.registered.keys()].sort(), pkg.contributes.commands.map((c: { command: string }) => c.command).sort());
  assert.equal(require.cache[bundle], undefined, 'dist/commands.js is not loaded by the registration');
  // The remote backend has no mock: the commands bundle's copy of UserError, caught by the activation bundle's runCommand.
  assert.equal(await commands.registered.get('edgekit.mock.sendTraffic')!(), undefined);
  assert.ok(require.cache[bundle], 'dist/commands.js is loaded by the first run');
  assert.equal(fake.messages.length, 1, JSON.stringify(fake.messages));
  assert.match(fake.messages[0].text, /features of the embedded mock backend/);
  assert.deepEqual(fake.messages[0].items, ['Use the Embedded Mock', 'Show Log']);
});

test('a commands bundle that cannot be loaded: the command says so, naming dist/commands.js, and rejects nothing', async () => {
  const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-commands-broken-'));
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => { unhandled.push(reason); };
  process.on('unhandledRejection', onUnhandled);
  try {
    await buildRegistry(broken);
    const registry = require(path.join(broken, 'registry.js')) as typeof Registry;
    registry.registerCommands(ctx());
    for (const id of ['edgekit.mock.sendTraffic', 'edgekit.showLog']) {
      assert.equal(await commands.registered.get(id)!(), undefined, id);
    }
    assert.equal(fake.messages.length, 2, JSON.stringify(fake.messages));
    for (const m of fake.messages) {
      assert.equal(m.kind, 'error');
      assert.match(m.text, /^EdgeKit: EdgeKit's commands could not be loaded \(dist\/commands\.js, beside dist\/client\.js; reinstalling the extension restores it\): Cannot find module '\.\/commands\.js'/);
      assert.deepEqual(m.items, ['Show Log']);
    }
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    fs.rmSync(broken, { recursive: true, force: true });
  }
});
