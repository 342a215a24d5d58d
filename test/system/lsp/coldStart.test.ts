// The server's cold start (issue 18): dist/server.js answers `initialize` with the message layer alone (dist/serverMain.js) and loads
// the checking core (dist/serverCore.js) when the client says `initialized`, each bundle through its own V8 code cache. The bundles
// are made here as esbuild.mjs makes them (scripts/serverBuilds.mjs), into a temporary folder, so that dist/ is not touched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { serverBuilds } from '../../../scripts/serverBuilds.mjs';

const ROOT = path.resolve(__dirname, '../../..');
const COMMON: esbuild.BuildOptions = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', mainFields: ['module', 'main'], logLevel: 'silent', absWorkingDir: ROOT };

async function build(dir: string): Promise<esbuild.Metafile[]> {
  const results = await Promise.all(serverBuilds({ ...COMMON, metafile: true }, dir, ROOT).map((b) => esbuild.build(b)));
  return results.map((r) => r.metafile!);
}

/** dir/server.js over --stdio, with a JSON-RPC connection to it, its stderr and its exit code, once its stderr is read to the end
 * ('close': at 'exit' the pipe may still hold the last line, the broken core's message that brokenSession's caller looks for; rv41,
 * the race fl1 mended in the mock's tests). */
function start(dir: string) {
  const child = spawn(process.execPath, [path.join(dir, 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = { child, stderr: '', exited: new Promise<number | null>((resolve) => child.on('close', resolve)),
    conn: createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin)) };
  child.stderr.on('data', (d) => { out.stderr += d; });
  return out;
}

interface Session { initialized: boolean; diagnostics?: { code?: string | number }[]; stderr: string; exitCode: number | null }

/** One editor session on dir/server.js: initialize; then, when `initialized` is asked for, a filter with a mistake and its pull. */
async function session(dir: string, withDocument: boolean): Promise<Session> {
  const server = start(dir);
  const { child, conn, exited } = server;
  const logs: string[] = [];
  conn.onNotification('window/logMessage', (p: { message: string }) => { logs.push(p.message); });
  conn.listen();
  try {
    const init = await conn.sendRequest('initialize', { processId: null, rootUri: null, capabilities: { textDocument: { diagnostic: {} } } }) as { capabilities: { diagnosticProvider?: unknown } };
    assert.ok(init.capabilities.diagnosticProvider, 'the server says it has pull diagnostics');
    let diagnostics: { code?: string | number }[] | undefined;
    if (withDocument) {
      await conn.sendNotification('initialized', {});
      const uri = 'file:///cold.filter.json';
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}' } });
      const report = await conn.sendRequest('textDocument/diagnostic', { textDocument: { uri } }) as { items: { code?: string | number }[] };
      diagnostics = report.items;
    }
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    const exitCode = await exited;
    return { initialized: withDocument, diagnostics, stderr: server.stderr + logs.join('\n'), exitCode };
  } finally {
    conn.dispose();
    child.kill();
  }
}

/** initialize, then initialized: with a core that cannot load, the server ends by itself. */
async function brokenSession(dir: string): Promise<{ exitCode: number | null; stderr: string }> {
  const server = start(dir);
  const { child, conn, exited } = server;
  conn.listen();
  try {
    await conn.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
    await conn.sendNotification('initialized', {});
    // A server that kept running answers the request after `initialized`; one that ended first answers nothing.
    const first = await Promise.race([conn.sendRequest('shutdown').then(() => 'answered', () => 'closed'), exited.then(() => 'exited')]);
    return { exitCode: first === 'answered' ? null : await exited, stderr: server.stderr };
  } finally {
    conn.dispose();
    child.kill();
  }
}

const caches = (dir: string, bundle: string) => fs.readdirSync(dir).filter((f) => f.startsWith(`${bundle}.`) && f.endsWith('.v8cache'));

test('the server bundle holds the message layer only: the core, ajv and the evaluators are a bundle of their own', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-cold-'));
  try {
    const [, main, core] = await build(dir);
    const mainInputs = Object.keys(main.inputs);
    assert.deepEqual(mainInputs.filter((i) => i.includes('server/src/core/') || /node_modules\/(ajv|re2js|ipaddr\.js)\//.test(i)), [], 'core in the server bundle');
    assert.ok(mainInputs.some((i) => i.endsWith('server/src/lsp/start.ts')));
    assert.ok(Object.keys(core.inputs).some((i) => i.endsWith('server/src/core/validate.ts')));
    // Node built-ins that stdio and IPC never use are required at their first use only.
    const text = fs.readFileSync(path.join(dir, 'serverMain.js'), 'utf8');
    assert.doesNotMatch(text, /require\("(node:)?(child_process|crypto)"\)(?!\)\[key\])/);
    // vscode-languageserver's exports are copied once for the server's files (lsp/library.ts) and once for the entry's /node import.
    assert.equal(text.match(/= __toESM\(require_/g)?.length, 2, 'a file imports values from vscode-languageserver itself instead of lsp/library.ts');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a value imported from the core into the server bundle fails the build (it would be a second copy of the core)', async () => {
  const [, mainBuild] = serverBuilds(COMMON, os.tmpdir(), ROOT);
  for (const spec of ['../core', '../core/index', '../core/index.ts']) {
    await assert.rejects(
      esbuild.build({ ...mainBuild, entryPoints: undefined, outfile: undefined, write: false, stdin: { contents: `import { codes } from '${spec}';\nconsole.log(codes);\n`, resolveDir: path.join(ROOT, 'server/src/lsp'), sourcefile: 'server/src/lsp/x.ts', loader: 'ts' } }),
      /imports the core's values: the server reaches the core through coreModule\(\)/,
      spec,
    );
  }
});

test('initialize is answered without the core; the core loads once initialized, and each bundle keeps its code cache', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-cold-'));
  try {
    await build(dir);
    const coreJs = path.join(dir, 'serverCore.js');
    const good = fs.readFileSync(coreJs);
    // A core that cannot load: initialize is answered all the same, so the server did not load it to answer.
    fs.writeFileSync(coreJs, 'throw new Error("the core was loaded");\n');
    const noCore = await session(dir, false);
    assert.equal(noCore.exitCode, 0, noCore.stderr);
    assert.doesNotMatch(noCore.stderr, /the core was loaded/);
    assert.deepEqual(caches(dir, 'serverCore.js'), []);
    // Once initialized, the same core ends the server with a message naming it (the client reports the crash, as before the split).
    const broken = await brokenSession(dir);
    assert.equal(broken.exitCode, 1, broken.stderr);
    assert.match(broken.stderr, /EdgeKit's checking core could not be loaded \(dist\/serverCore\.js next to the server\): Error: the core was loaded/);
    assert.deepEqual(caches(dir, 'serverCore.js'), [], 'a core that failed to run leaves no cache');
    fs.writeFileSync(coreJs, good);

    // A real session: the mistake is reported; the exit writes both caches.
    const first = await session(dir, true);
    assert.equal(first.exitCode, 0, first.stderr);
    assert.deepEqual(first.diagnostics?.map((d) => d.code), ['logpush/unknown-field']);
    assert.equal(caches(dir, 'serverMain.js').length, 1, fs.readdirSync(dir).join(', '));
    assert.equal(caches(dir, 'serverCore.js').length, 1, fs.readdirSync(dir).join(', '));

    // From the caches: the same answer, and the caches are kept as they are (V8 accepted them).
    const before = caches(dir, 'serverCore.js').map((f) => fs.statSync(path.join(dir, f)).mtimeMs);
    const second = await session(dir, true);
    assert.deepEqual(second.diagnostics?.map((d) => d.code), ['logpush/unknown-field']);
    assert.deepEqual(caches(dir, 'serverCore.js').map((f) => fs.statSync(path.join(dir, f)).mtimeMs), before, 'the core\'s cache was rejected and written again');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('over --stdio the server ends with its input: code 0 after a shutdown request, 1 without one', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-cold-'));
  try {
    await build(dir);
    for (const shutdownFirst of [true, false]) {
      const { child, conn, exited } = start(dir);
      conn.listen();
      try {
        await conn.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
        await conn.sendNotification('initialized', {});
        if (shutdownFirst) await conn.sendRequest('shutdown');
        child.stdin.end();
        assert.equal(await exited, shutdownFirst ? 0 : 1, shutdownFirst ? 'after shutdown' : 'without shutdown');
      } finally {
        conn.dispose();
        child.kill();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
