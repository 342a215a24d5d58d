// The browser build of the language server (dist/browser/server.js, for vscode.dev and github.dev) in a real Web Worker of headless
// Chromium: a page on 127.0.0.1 speaks LSP to it over postMessage and gets diagnostics for all four kinds, pulled and pushed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { newestMtime } from '../../../bench/lspClient';

const ROOT = path.resolve(__dirname, '../../..');
const TOOLS = process.env.EDGEKIT_TOOLS || path.join(os.homedir(), '.cache', 'edgekit', 'host');
const PLAYWRIGHT = path.join(TOOLS, 'host', 'node_modules', 'playwright-core');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

function browserServer(): string {
  const js = path.join(ROOT, 'dist/browser/server.js');
  if (!fs.existsSync(js) || fs.statSync(js).mtimeMs < newestMtime(path.join(ROOT, 'server/src'))) {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return js;
}

const DOCS: Record<string, [string, string]> = {
  'logpush-filter': ['file:///w/a.filter.json', '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}'],
  'logpush-job': ['file:///w/b.logpush.json', '{"name": "bad_name", "dataset": "http_requests", "destination_conf": "s3://b/l?region=us-east-1"}'],
  'jsonrpc-request': ['file:///w/c.rpc.json', '{"jsonrpc": "2.0", "method": "eth_accounts", "params": [], "id": 1}'],
  'waf-ruleset': ['file:///w/d.ruleset.json', '{"rules": [{"action": "execute", "expression": "http.hots eq \\"x\\"", "action_parameters": {"id": "efb7b8c949ac4650a09736fc376e9aee"}}]}'],
};

/** The page: a minimal LSP client over the worker's postMessage (the messages are JSON-RPC objects, as BrowserMessageWriter sends). */
const PAGE = `<!doctype html><script>
const docs = ${JSON.stringify(DOCS)};
function client(pull) {
  const w = new Worker('/server.js');
  let id = 0; const pending = new Map(); const pushed = {};
  w.onmessage = (e) => {
    const m = e.data;
    if (m.id !== undefined && pending.has(m.id)) { pending.get(m.id)(m.result); pending.delete(m.id); }
    else if (m.method === 'textDocument/publishDiagnostics') pushed[m.params.uri] = m.params.diagnostics.map((d) => d.code);
    else if (m.id !== undefined && m.method) w.postMessage({ jsonrpc: '2.0', id: m.id, result: null });
  };
  const request = (method, params) => new Promise((r) => { const i = ++id; pending.set(i, r); w.postMessage({ jsonrpc: '2.0', id: i, method, params }); });
  const notify = (method, params) => w.postMessage({ jsonrpc: '2.0', method, params });
  return { w, request, notify, pushed };
}
window.run = async () => {
  const out = { pulled: {}, pushed: {} };
  const a = client(true);
  await a.request('initialize', { processId: null, rootUri: null, capabilities: { textDocument: { diagnostic: {} } } });
  a.notify('initialized', {});
  for (const [kind, [uri, text]] of Object.entries(docs)) {
    a.notify('textDocument/didOpen', { textDocument: { uri, languageId: kind, version: 1, text } });
    out.pulled[kind] = (await a.request('textDocument/diagnostic', { textDocument: { uri } })).items.map((d) => d.code);
  }
  a.w.terminate();
  const b = client(false);
  await b.request('initialize', { processId: null, rootUri: null, capabilities: {} });
  b.notify('initialized', {});
  for (const [kind, [uri, text]] of Object.entries(docs)) b.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  const t0 = Date.now();
  while (Object.keys(b.pushed).length < 4 && Date.now() - t0 < 20000) await new Promise((r) => b.w.addEventListener('message', r, { once: true }));
  for (const [kind, [uri]] of Object.entries(docs)) out.pushed[kind] = b.pushed[uri];
  b.w.terminate();
  return out;
};
</script>`;

const ready = fs.existsSync(PLAYWRIGHT) && fs.existsSync(CHROMIUM);

test('the browser server bundle answers diagnostics for all four kinds in a Web Worker, pulled and pushed', { skip: ready ? false : `no headless Chromium host in ${TOOLS} (npm test installs it first)`, timeout: 120_000 }, async () => {
  const bundle = fs.readFileSync(browserServer());
  const server = http.createServer((req, res) => {
    if (req.url === '/server.js') { res.writeHead(200, { 'content-type': 'text/javascript' }); res.end(bundle); return; }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  // playwright-core lives in the host tools folder (scripts/setup-host.sh), not in the project's dependencies: typed as used here.
  type Page = { on(e: 'pageerror', f: (err: Error) => void): void; goto(url: string): Promise<unknown>; evaluate(js: string): Promise<unknown> };
  type Context = { pages(): Page[]; newPage(): Promise<Page>; close(): Promise<void> };
  const { chromium } = createRequire(path.join(TOOLS, 'host', 'package.json'))('playwright-core') as
    { chromium: { launchPersistentContext(dir: string, o: object): Promise<Context> } };
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-worker-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  try {
    const page = browser.pages()[0] ?? await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const out = await page.evaluate('window.run()') as { pulled: Record<string, string[]>; pushed: Record<string, string[]> };
    assert.deepEqual(errors, []);
    for (const mode of ['pulled', 'pushed'] as const) {
      assert.deepEqual(out[mode]['logpush-filter'], ['logpush/unknown-field'], `${mode}: ${JSON.stringify(out[mode])}`);
      assert.ok(out[mode]['logpush-job']?.includes('logpush/invalid-job-name'), `${mode}: ${JSON.stringify(out[mode])}`);
      assert.ok(out[mode]['jsonrpc-request']?.some((c) => c.startsWith('jsonrpc/')), `${mode}: ${JSON.stringify(out[mode])}`);
      assert.ok(out[mode]['waf-ruleset']?.includes('ruleset/expr-unknown-field'), `${mode}: ${JSON.stringify(out[mode])}`);
    }
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
