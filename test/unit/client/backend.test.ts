// The backend as the views see it: what makes them read again.
import { fake, resetFake, grantTrust, workspace, commands } from './vscode';
import * as mockModule from '../../../mock/src/index';
import { gatewayCommands } from '../../../client/src/commands/gateway';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Backend } from '../../../client/src/backend';
import { backendCommands } from '../../../client/src/commands/backend';
import type { Ctx } from '../../../client/src/ctx';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { until } from './migrationCtx';

beforeEach(() => resetFake());

function backend(): Backend {
  const context = { globalStorageUri: { fsPath: '/nonexistent' }, secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined } };
  return new Backend(context as never, () => ({ ask: async () => undefined }));
}

/** A mock backend's answer to the client (no server behind it) on 127.0.0.1:`port`. */
function mockAt(port: number) {
  const url = `http://127.0.0.1:${port}`;
  return { url: `${url}/`, gatewayUrl: `${url}/v1/mainnet`, apiBaseUrl: `${url}/client/v4`, close: async () => undefined, reset: async () => undefined };
}

/** Runs `fn` with a Backend whose storage is a new temporary folder and whose mock module is `module` over a stand-in whose
 * acquireMockBackend gives mockAt(1); the Backend is disposed and the folder removed after. */
async function withStandInMock(module: Record<string, unknown>, fn: (b: Backend) => Promise<void>): Promise<void> {
  const storage = await fs.mkdtemp(path.join(os.tmpdir(), 'edgekit-backend-'));
  const context = { globalStorageUri: { fsPath: storage }, secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined } };
  const b = new Backend(context as never, () => ({ ask: async () => undefined }));
  (b as unknown as { mockModule: () => unknown }).mockModule = () => ({
    acquireMockBackend: async () => ({ backend: mockAt(1), shared: false }),
    randomCredentials: () => ({ apiToken: 't', apiKey: 'k', apiEmail: 'e@example.com' }),
    parseRateLimit: () => undefined,
    ...module,
  });
  try {
    await fn(b);
  } finally {
    await b.dispose();
    await fs.rm(storage, { recursive: true, force: true });
  }
}

test('trusting the workspace tells the views to read again (they said "disabled in an untrusted workspace")', async () => {
  // With the remote backend, an untrusted workspace refuses requests to real endpoints, and the views say so. Granting trust
  // changes no setting (the backend is the user's), so nothing else makes them read again.
  fake.settings.set('backend', 'remote');
  workspace.isTrusted = false;
  const b = backend();
  try {
    await assert.rejects(b.endpoints('api', false), /untrusted workspace/);
    let changes = 0;
    b.onDidChange(() => changes++);
    grantTrust();
    assert.equal(changes, 1);
  } finally {
    await b.dispose();
    workspace.isTrusted = true;
  }
});

test('Stop Mock Backend with no mock running says so instead of doing nothing', async () => {
  const b = backend();
  try {
    await backendCommands['edgekit.mock.stop']({ backend: b } as unknown as Ctx)();
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'EdgeKit: the embedded mock backend is not running.' }]);
  } finally {
    await b.dispose();
  }
});

test('edgekit.mock.rateLimit written as a number (or anything but a string) is refused with the setting\'s warning, not a TypeError', async () => {
  // settings.json takes any JSON value; "edgekit.mock.rateLimit": 1200 made Config's .trim() throw, and the mock's start failed
  // with "...: get(...).trim is not a function" instead of warning and keeping the platform's limits.
  const { Config } = await import('../../../client/src/config');
  const { parseRateLimit } = await import('../../../mock/src/rateLimit');
  for (const value of [1200, false, ['1200/300'], { limit: 1 }]) {
    fake.settings.set('mock.rateLimit', value);
    const text = Config.mockRateLimit();
    assert.equal(typeof text, 'string', JSON.stringify(value));
    assert.equal(typeof parseRateLimit(text), 'string', `${JSON.stringify(value)} read as a limit`);
  }
  fake.settings.set('mock.rateLimit', ' off ');
  assert.equal(parseRateLimit(Config.mockRateLimit()), false);
});

test('the edgekit.mockRunning context key follows the mock, however it starts and stops (the palette\'s Start and Stop)', async () => {
  // The palette offered Stop with nothing running. The key is set once per change, not on every status redraw. (The walkthrough
  // reads edgekit.mockStarted now, which stays true: test/unit/client/walkthrough.test.ts.)
  const storage = await fs.mkdtemp(path.join(os.tmpdir(), 'edgekit-backend-'));
  const context = { globalStorageUri: { fsPath: storage }, secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined } };
  const b = new Backend(context as never, () => ({ ask: async () => undefined }));
  let closed = 0;
  const mock = { url: 'http://127.0.0.1:1/', gatewayUrl: 'http://127.0.0.1:1/v1/mainnet', apiBaseUrl: 'http://127.0.0.1:1/client/v4', close: async () => { closed++; }, reset: async () => undefined };
  (b as unknown as { mockModule: () => unknown }).mockModule = () => ({
    acquireMockBackend: async () => ({ backend: mock, shared: false }),
    randomCredentials: () => ({ apiToken: 't', apiKey: 'k', apiEmail: 'e@example.com' }),
    parseRateLimit: () => undefined,
  });
  const keys = () => commands.executed.filter((c) => c[0] === 'setContext' && c[1] === 'edgekit.mockRunning').map((c) => c[2]);
  try {
    assert.deepEqual(keys(), [false], 'stopped when the window opens');
    await b.startMock();
    await b.startMock();
    assert.deepEqual(keys(), [false, true]);
    assert.equal(await b.stopMock(), true);
    assert.deepEqual(keys(), [false, true, false]);
    assert.equal(closed, 1);
  } finally {
    await b.dispose();
    await fs.rm(storage, { recursive: true, force: true });
  }
});

test('an edgekit.mock.s3Endpoint that is no URL is quoted without its user info in the warning', async () => {
  // sec5: the warning quoted the setting as written, without redact(): a pasted http://KEY:SECRET@host with a typo showed the
  // secret in a notification (the log line was redacted by log.warn).
  const given: unknown[] = [];
  fake.settings.set('mock.s3Endpoint', 'http://KEY:SECRET@127.0.0.1:99999/');
  await withStandInMock({ acquireMockBackend: async (opts: unknown) => { given.push(opts); return { backend: mockAt(1), shared: false }; } }, async (b) => {
    await b.startMock();
    const warnings = fake.messages.filter((m) => m.kind === 'warning').map((m) => m.text);
    assert.equal(warnings.length, 1, JSON.stringify(fake.messages));
    assert.match(warnings[0], /"edgekit\.mock\.s3Endpoint" is not a valid http\(s\) URL: "http:\/\/\*\*\*@127\.0\.0\.1:99999\/"/);
    assert.ok(!warnings[0].includes('SECRET') && !warnings[0].includes('KEY'), warnings[0]);
    assert.ok(!JSON.stringify(given).includes('SECRET'), 'no S3 settings given to the mock');
  });
});

test('a shared mock that went away, and this window\'s own start failing: the edgekit.mockRunning key and the status bar say stopped', async () => {
  // liveMock dropped the dead shared mock without drawing the status again: when this window's own start then failed, the key
  // stayed true (the palette offered Stop with nothing running, Start was hidden) and the status bar still showed "(shared)".
  const storage = await fs.mkdtemp(path.join(os.tmpdir(), 'edgekit-backend-'));
  const context = { globalStorageUri: { fsPath: storage }, secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined } };
  const b = new Backend(context as never, () => ({ ask: async () => undefined }));
  const mock = { url: 'http://127.0.0.1:1/', gatewayUrl: 'http://127.0.0.1:1/v1/mainnet', apiBaseUrl: 'http://127.0.0.1:1/client/v4', close: async () => undefined, reset: async () => undefined };
  let starts = 0;
  (b as unknown as { mockModule: () => unknown }).mockModule = () => ({
    acquireMockBackend: async () => {
      if (starts++ === 0) return { backend: mock, shared: true };
      throw new Error('port 1 is in use');
    },
    probeMock: async () => false,
    randomCredentials: () => ({ apiToken: 't', apiKey: 'k', apiEmail: 'e@example.com' }),
    parseRateLimit: () => undefined,
  });
  const keys = () => commands.executed.filter((c) => c[0] === 'setContext' && c[1] === 'edgekit.mockRunning').map((c) => c[2]);
  const item = (b as unknown as { item: { text: string } }).item;
  try {
    await b.startMock();
    assert.deepEqual(keys(), [false, true]);
    assert.match(item.text, /\(shared\)/);
    await assert.rejects(b.resetMock(), /did not start/);
    assert.deepEqual(keys(), [false, true, false]);
    assert.doesNotMatch(item.text, /\(shared\)/);
    assert.equal(b.running, undefined);
  } finally {
    await b.dispose();
    await fs.rm(storage, { recursive: true, force: true });
  }
});

test('Clear API Credentials with none saved says there was nothing to remove; with some saved, that they were removed', async () => {
  // Seen in the workbench: with nothing ever saved (no edgekit.api.baseUrl even), it said "EdgeKit API credentials removed from
  // secret storage.", as if there had been some.
  const store = new Map<string, string>();
  const context = { globalStorageUri: { fsPath: '/nonexistent' }, secrets: {
    get: async (k: string) => store.get(k), store: async (k: string, v: string) => { store.set(k, v); }, delete: async (k: string) => { store.delete(k); } } };
  const b = new Backend(context as never, () => ({ ask: async () => undefined }));
  try {
    const clear = backendCommands['edgekit.clearApiCredentials']({ backend: b } as unknown as Ctx);
    await clear();
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'EdgeKit: no API credentials are saved; there was nothing to remove.' }]);
    fake.messages = [];
    await b.saveCredentials({ host: 'https://api.example', apiToken: 't' });
    await clear();
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'EdgeKit API credentials for https://api.example removed from secret storage.' }]);
    assert.equal(await b.savedCredentials(), undefined);
  } finally {
    await b.dispose();
  }
});

// ui8's walk: the gateway's address, for the user's own ethers or viem code, was in this tooltip as text only, and clicking the item
// stops the mock. The tooltip offers to copy it (a command link, the one command it trusts).
test('the mock\'s status bar tooltip links "Copy Gateway URL", trusted for that command only; a screen reader reads it in words', async () => {
  await withStandInMock({}, async (b) => {
    const item = (b as unknown as { item: { tooltip: { value: string; isTrusted?: unknown }; accessibilityInformation?: { label: string } } }).item;
    await b.startMock();
    assert.match(item.tooltip.value, /- Gateway: `http:\/\/127\.0\.0\.1:1\/v1\/mainnet` \[Copy\]\(command:edgekit\.gateway\.copyUrl\)/);
    assert.deepEqual(item.tooltip.isTrusted, { enabledCommands: ['edgekit.gateway.copyUrl'] });
    // ux1: without accessibilityInformation a screen reader read the icon's name and this Markdown source, "**", backticks and
    // the command: link included.
    assert.equal(item.accessibilityInformation?.label,
      'EdgeKit mock backend is running on loopback, port 1: gateway http://127.0.0.1:1/v1/mainnet, API http://127.0.0.1:1/client/v4. Click to stop it.');
    await b.stopMock();
    assert.equal(item.accessibilityInformation?.label, 'The EdgeKit mock backend is stopped; it starts on demand. Click to start it now.');
  });
});

// ui9: "Keep Port" of Copy Gateway URL was held by a unit test up to the setting being written. The whole flow, with the real mock
// (its module from source instead of dist/mock.js): the command on a mock on a free port, the user's pick, the setting written for
// the user, the change told to the backend as extension.ts passes it (the mock on that very port is not restarted), and the next
// start (this window's, after Stop, and another window's Backend) on that port.
test('Keep Port: Copy Gateway URL on a mock on a free port writes edgekit.mock.port, and the next mock start takes that port', async () => {
  const storage = await fs.mkdtemp(path.join(os.tmpdir(), 'edgekit-keepport-'));
  const context = { globalStorageUri: { fsPath: storage }, secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined } };
  const windows: Backend[] = [];
  const open = () => {
    const b = new Backend(context as never, () => ({ ask: async () => undefined }));
    (b as unknown as { mockModule: () => unknown }).mockModule = () => mockModule;
    windows.push(b);
    return b;
  };
  const b = open();
  const applied: Promise<void>[] = [];
  workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('edgekit')) applied.push(b.configurationChanged(e as never)); });
  try {
    const ctx = { backend: b, log: { error: (m: string, e: unknown) => fake.logged.push(`error: ${m} ${e}`) } } as unknown as Ctx;
    let picked: () => void = () => undefined;
    const answered = new Promise<void>((r) => { picked = r; });
    fake.answerMessage = (_text, items) => { setImmediate(picked); return items.find((i) => i.startsWith('Keep Port')); };
    const url = await gatewayCommands['edgekit.gateway.copyUrl'](ctx)();
    const port = Number(new URL(url).port);
    assert.ok(port > 0, url);
    assert.deepEqual(fake.messages[0].items, [`Keep Port ${port}`]);
    await answered;
    // The pick's handler writes the setting and says so.
    for (let i = 0; i < 20 && fake.messages.length < 2; i++) await new Promise((r) => setImmediate(r));
    assert.equal(fake.settings.get('mock.port'), port, 'written to the user settings');
    assert.match(fake.messages[1].text, new RegExp(`keeps port ${port} \\("edgekit\\.mock\\.port"\\)`));
    await Promise.all(applied);
    assert.equal(applied.length, 1, 'the change was told to the backend');
    assert.equal(b.running?.gatewayUrl, url, 'the mock on that port goes on running: no restart');
    // The next start: this window's after Stop, then another window's (a new session) with the mock stopped.
    await b.stopMock();
    assert.equal(new URL((await b.endpoints('gateway')).gatewayUrl).port, String(port));
    await b.stopMock();
    const next = open();
    assert.equal(new URL((await next.endpoints('gateway')).gatewayUrl).port, String(port));
    // Copy Gateway URL no longer offers to keep it.
    fake.messages = [];
    await gatewayCommands['edgekit.gateway.copyUrl']({ backend: next } as unknown as Ctx)();
    assert.equal(fake.messages[0].items, undefined);
    assert.deepEqual(fake.logged.filter((l) => l.startsWith('error')), []);
  } finally {
    for (const w of windows) await w.dispose();
    await fs.rm(storage, { recursive: true, force: true });
  }
});

test('a warning about a setting\'s value offers to open that setting (port taken, rate limit, S3 endpoint)', async () => {
  // ux1: the three warnings of a mock start named the setting to change ("Set \"edgekit.mock.port\" to a free port", "needs N/S",
  // "is not a valid http(s) URL") and offered no button; VS Code's guidelines show a warning "with actions to resolve the issue",
  // and the errors of a wrong URL setting already offer "Set edgekit.…".
  fake.settings.set('mock.rateLimit', 'fast');
  fake.settings.set('mock.s3Endpoint', 'not a url');
  fake.answerMessage = (_text, items) => items.find((i) => i.startsWith('Set '));
  const moved = 'Port 1 on 127.0.0.1 is held by another program; the mock backend started on port 2 instead. Set "edgekit.mock.port" to a free port, or 0 for any free port.';
  await withStandInMock({ acquireMockBackend: async () => ({ backend: mockAt(2), shared: false, note: moved }), parseRateLimit: () => 'not N/S' }, async (b) => {
    await b.startMock();
    const warnings = fake.messages.filter((m) => m.kind === 'warning');
    assert.deepEqual(warnings.map((m) => m.items), [['Set edgekit.mock.s3Endpoint'], ['Set edgekit.mock.rateLimit'], ['Set edgekit.mock.port']], JSON.stringify(warnings));
    const opened = () => commands.executed.filter((c) => c[0] === 'workbench.action.openSettings').map((c) => c[1]);
    await until('the three settings opened', () => (opened().length === 3 ? true : undefined));
    assert.deepEqual(opened(), ['edgekit.mock.s3Endpoint', 'edgekit.mock.rateLimit', 'edgekit.mock.port']);
  });
});

test('Start Mock Backend while Stop still waits for the mock to close starts a new one once it has closed, and a second Stop waits for it too', async () => {
  // A mock closes once the requests it is answering end (a second at most) and then saves its state and lets go of its state file.
  // A Start meanwhile (Stop then Start in the palette, the status bar clicked twice, a command that needs the mock) started another
  // mock on that state file at once: refused as held by the closing one (StateInUse, which no probe could answer), the start failed.
  let release!: () => void;
  const closed = new Promise<void>((resolve) => { release = resolve; });
  let closing = false;
  const acquired: number[] = [];
  let starts = 0;
  await withStandInMock({
    // Read by each start just before it acquires the mock: the second start is under way, and the first mock may now close.
    parseRateLimit: () => { if (++starts === 2) release(); return undefined; },
    acquireMockBackend: async () => {
      if (closing) throw new Error('the state file is in use by the mock that is closing');
      acquired.push(acquired.length + 1);
      return { backend: { ...mockAt(acquired.length), close: () => { closing = true; return closed.then(() => { closing = false; }); } }, shared: false };
    },
  }, async (b) => {
    await b.startMock();
    const stop = b.stopMock();
    const again = b.stopMock();
    const start = b.startMock();
    assert.equal(closing, true);
    assert.equal(await stop, true);
    assert.equal(await again, true, 'a second Stop waits for the close, not "not running"');
    assert.equal((await start).apiBaseUrl, mockAt(2).apiBaseUrl);
    assert.deepEqual(acquired, [1, 2]);
  });
});
