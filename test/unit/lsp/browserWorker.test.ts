// The browser build's language server (server/src/browserServer.ts, package.json "browser": vscode.dev, github.dev) run as a Web
// Worker runs it: bundled as esbuild.mjs bundles it (scripts/serverBuilds.mjs, browserServerBuild), then evaluated in a fresh V8
// context that has what a worker's global scope has (self with postMessage/onmessage, timers, queueMicrotask, TextEncoder/Decoder,
// URL) and nothing of Node's (no require, process, Buffer, setImmediate, global). Messages cross as a worker's do: structured data
// rebuilt in the worker's own realm. A Node-only code path in the server or the core would throw here, or leave the client waiting.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as esbuild from 'esbuild';
import { browserServerBuild } from '../../../scripts/serverBuilds.mjs';

const ROOT = path.resolve(__dirname, '../../..');

interface Message { id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } }

async function bundle(): Promise<string> {
  const options = browserServerBuild({ bundle: true, logLevel: 'silent' }, 'browser-server.js', ROOT);
  const out = await esbuild.build({ ...options, write: false, sourcemap: false, minify: false });
  return out.outputFiles[0].text;
}

/** The bundle in a worker-like context: returns a client that sends to it and waits for its messages. */
function startWorker(code: string) {
  const received: Message[] = [];
  const errors: string[] = [];
  /** Called on each message from the worker (until's checks). */
  const waiters = new Set<() => void>();
  const log = (...args: unknown[]) => errors.push(args.map(String).join(' '));
  const context = vm.createContext({
    console: { log: () => undefined, info: () => undefined, warn: log, error: log, debug: () => undefined },
    setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask, TextEncoder, TextDecoder, URL,
  });
  // self, its port functions and the message delivery live in the worker's realm, so the server sees its own realm's objects.
  vm.runInContext(`
    globalThis.self = globalThis;
    self.postMessage = (m) => __out(JSON.stringify(m));
    self.addEventListener = () => undefined;
    globalThis.__deliver = (json) => self.onmessage({ data: JSON.parse(json) });
  `, context);
  context.__out = (json: string) => { received.push(JSON.parse(json) as Message); for (const w of [...waiters]) w(); };
  for (const name of ['require', 'process', 'Buffer', 'setImmediate', 'global', 'module']) {
    assert.equal(vm.runInContext(`typeof ${name}`, context), 'undefined', `the worker context has no ${name}`);
  }
  vm.runInContext(code, context, { filename: 'dist/browser/server.js' });

  const send = (m: Message) => (context.__deliver as (json: string) => void)(JSON.stringify({ jsonrpc: '2.0', ...m }));
  /** The first message `pred` takes, as it arrives; a failure naming `what` if none has come in 15 s (a guard against a hang). */
  function until(pred: (m: Message) => boolean, what: string): Promise<Message> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = received.find(pred);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${what} from the worker within 15 s; its console: ${errors.join('\n')}; got: ${JSON.stringify(received)}`));
      }, 15_000);
      waiters.add(check);
      check();
    });
  }
  return { send, until, errors, received };
}

const FILTER = '{\n  "where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}\n}\n';
const RPC = '{"jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1}';

test('the browser server bundle runs in a worker-like context with no Node APIs: pushed and pulled diagnostics, completion, hover', async () => {
  const code = await bundle();
  // A Node built-in left in the bundle would be a require() the worker does not have.
  assert.deepEqual([...code.matchAll(/\brequire\((["'])(node:)?[a-z_]+\1\)/g)].map((m) => m[0]), [], 'the bundle requires no module');

  // A generic client: no workspace/configuration, no pull diagnostics (the server pushes), settings in initializationOptions.
  const push = startWorker(code);
  push.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {}, initializationOptions: { settings: { edgekit: { maxProblems: 50 } } } } });
  const init = await push.until((m) => m.id === 1, 'initialize result');
  assert.equal(init.error, undefined, JSON.stringify(init.error));
  const caps = (init.result as { capabilities: Record<string, unknown> }).capabilities;
  assert.equal(caps.diagnosticProvider, undefined, 'a client without pull diagnostics gets pushed ones');
  push.send({ method: 'initialized', params: {} });
  push.send({ method: 'textDocument/didOpen', params: { textDocument: { uri: 'vscode-vfs://github/o/r/logs/bad.filter.json', languageId: 'json', version: 1, text: FILTER } } });
  const published = await push.until((m) => m.method === 'textDocument/publishDiagnostics', 'publishDiagnostics');
  const diags = (published.params as { diagnostics: { message: string; range: { start: { line: number; character: number } } }[] }).diagnostics;
  assert.equal(diags.length, 1, JSON.stringify(diags));
  assert.match(diags[0].message, /ClientCountyr/);
  assert.deepEqual(diags[0].range.start, { line: 1, character: 19 });

  push.send({ id: 2, method: 'textDocument/hover', params: { textDocument: { uri: 'vscode-vfs://github/o/r/logs/bad.filter.json' }, position: { line: 1, character: 45 } } });
  const hover = await push.until((m) => m.id === 2, 'hover result');
  assert.equal(hover.error, undefined);
  assert.match(JSON.stringify(hover.result), /Comparison operator/);

  // VS Code in the browser: pull diagnostics and workspace/configuration, which the worker asks for and the client answers.
  const pull = startWorker(code);
  pull.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: {} } } } });
  await pull.until((m) => m.id === 1, 'initialize result');
  pull.send({ method: 'initialized', params: {} });
  pull.send({ method: 'textDocument/didOpen', params: { textDocument: { uri: 'vscode-vfs://github/o/r/a.rpc.json', languageId: 'jsonrpc-request', version: 1, text: RPC } } });
  pull.send({ id: 2, method: 'textDocument/diagnostic', params: { textDocument: { uri: 'vscode-vfs://github/o/r/a.rpc.json' } } });
  const config = await pull.until((m) => m.method === 'workspace/configuration', 'workspace/configuration request');
  pull.send({ id: config.id, result: [null] });
  const report = await pull.until((m) => m.id === 2 && m.method === undefined, 'diagnostic report');
  const items = (report.result as { items: { message: string }[] }).items;
  assert.ok(items.some((d) => /eth_accounts/.test(d.message)), JSON.stringify(items));

  pull.send({ id: 3, method: 'textDocument/completion', params: { textDocument: { uri: 'vscode-vfs://github/o/r/a.rpc.json' }, position: { line: 0, character: 31 } } });
  const completion = await pull.until((m) => m.id === 3 && m.method === undefined, 'completion result');
  assert.equal(completion.error, undefined);
  assert.match(JSON.stringify(completion.result), /eth_getBalance/);

  assert.deepEqual([...push.errors, ...pull.errors], [], 'nothing logged as an error');
});
