#!/usr/bin/env node
// CI's proof of the README's run command: runs `npm start` exactly as a newcomer does, waits for the URL it prints, checks that the
// URL answers, then opens it in headless Chromium and checks what the README promises a person sees there: the EdgeKit mock in
// the status bar, the mock's zones in the EdgeKit view, squiggles in examples/mistakes.filter.json, and a second window on the same
// URL using the first one's mock. Then stops everything.
//   node scripts/smoke-start.mjs [screenshot.png]      (exit 0 = all seen; SMOKE_TIMEOUT_MS bounds the whole run)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TOOLS = process.env.EDGEKIT_TOOLS || path.join(os.homedir(), '.cache', 'edgekit', 'host');
const shot = process.argv[2] || path.join(os.tmpdir(), 'edgekit-smoke.png');
const timeoutMs = Number(process.env.SMOKE_TIMEOUT_MS || 15 * 60_000);

const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});

const port = await freePort();
// The session directory npm start uses on this port (scripts/hostSession.js): this run's own, removed at the end if this run made it.
const session = createRequire(import.meta.url)('./hostSession.js').sessionDir(TOOLS, port);
const ownSession = !fs.existsSync(session);
const started = Date.now();
const child = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
let browser;
/** The browser's profile folder, removed at the end. */
let profile;
let finished = false;
/** The extension's own log of each window of the `npm start` session, for a failure's reader. */
function printExtensionLogs() {
  const logs = path.join(session, 'user-data', 'logs');
  const newest = fs.existsSync(logs) ? fs.readdirSync(logs).sort().pop() : undefined;
  if (!newest) return;
  for (const host of fs.readdirSync(path.join(logs, newest)).filter((d) => d.startsWith('exthost'))) {
    const file = path.join(logs, newest, host, 'edgekit.edgekit', 'EdgeKit.log');
    if (fs.existsSync(file)) console.log(`[smoke] ${host} EdgeKit log:\n${fs.readFileSync(file, 'utf8')}`);
  }
}

async function finish(code, why) {
  if (finished) return;
  finished = true;
  console.log(`[smoke] ${why} -> exit ${code}`);
  try { if (browser) await browser.close(); } catch { /* closing */ }
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
  await new Promise((r) => { const t = setTimeout(r, 5000); child.once('exit', () => { clearTimeout(t); r(); }); });
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
  if (code !== 0) printExtensionLogs(); // after the stop: the workbench writes its log files lazily
  if (ownSession) fs.rmSync(session, { recursive: true, force: true });
  // The browser's profile, once the browser is closed (it was left in the temp folder at every run)
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
  process.exit(code);
}
setTimeout(() => finish(124, `timeout after ${timeoutMs} ms`), timeoutMs).unref();
child.on('exit', (c) => finish(1, `npm start exited (${c}) before the checks finished`));

// The URL line `npm start` prints (scripts/host.js): the event we wait for, no sleeping.
const url = await new Promise((resolve) => {
  let out = '';
  const onData = (d) => {
    process.stdout.write(d);
    out += d.toString();
    const m = /VS Code with EdgeKit is running: (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
    if (m) resolve(m[1]);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', (d) => process.stderr.write(d));
});
console.log(`[smoke] npm start printed its URL after ${((Date.now() - started) / 1000).toFixed(1)} s`);

try {
  const r = await fetch(url);
  if (r.status !== 200) await finish(1, `${url} answered HTTP ${r.status}`);
  const require = createRequire(path.join(TOOLS, 'host', 'package.json'));
  const { chromium } = require('playwright-core');
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-smoke-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, viewport: { width: 1400, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const page = browser.pages()[0] || await browser.newPage();
  await page.goto(url);
  const step = async (what, fn) => {
    try { await fn(); console.log(`[smoke] ok: ${what}`); } catch (e) {
      await page.screenshot({ path: shot }).catch(() => undefined);
      await finish(1, `not seen: ${what} (${e.message.split('\n')[0]}); screenshot ${shot}`);
    }
  };
  await step('the workbench loads', () => page.locator('.monaco-workbench').waitFor({ timeout: 120_000 }));
  await step('the status bar shows the embedded mock running', () =>
    page.locator('.statusbar-item', { hasText: /EdgeKit mock :\d+/ }).first().waitFor({ timeout: 90_000 }));
  await step('the EdgeKit view lists the mock\'s zones', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="EdgeKit"]').first().click();
    await page.locator('.monaco-list-row', { hasText: 'pro.example' }).first().waitFor({ timeout: 60_000 });
  });
  await step('examples/mistakes.filter.json shows squiggles', async () => {
    await page.keyboard.press('Control+P');
    await page.keyboard.type('mistakes.filter.json');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'mistakes.filter.json' }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 90_000 });
  });
  await page.screenshot({ path: shot });
  // A second window on the same URL: its extension host finds the first window's mock on the port and uses it.
  const mockPort = /EdgeKit mock :(\d+)/.exec(await page.locator('.statusbar-item', { hasText: /EdgeKit mock :\d+/ }).first().innerText())[1];
  const second = await browser.newPage();
  await second.goto(url);
  await step(`a second window uses the mock on port ${mockPort} (shared)`, () =>
    second.locator('.statusbar-item', { hasText: `EdgeKit mock :${mockPort} (shared)` }).first().waitFor({ timeout: 90_000 }));
  await step('the second window\'s EdgeKit view lists the zones', async () => {
    await second.locator('.activitybar .action-item a[aria-label^="EdgeKit"]').first().click();
    await second.locator('.monaco-list-row', { hasText: 'pro.example' }).first().waitFor({ timeout: 60_000 });
  });
  await finish(0, `everything the README promises was seen after ${((Date.now() - started) / 1000).toFixed(1)} s; screenshot ${shot}`);
} catch (e) {
  await finish(1, `smoke error: ${e && e.stack || e}`);
}
