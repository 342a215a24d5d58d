// `npm start`'s session directory and its lock (scripts/hostSession.js): two sessions on one machine each get their own directory,
// a second session on the same port is refused before it touches anything, and a lock left by a process that is gone is taken over.
// No code-server here: the module only prepares the directory that scripts/host.js start hands to code-server.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as jsonc from 'jsonc-parser';
import { DEFAULT_PORT, openSession, parsePort, PortInUse, processStamp, sessionMockPort, SessionInUse, sessionDir, USER_DEFAULTS, writeSessionSettings } from '../../../scripts/hostSession.js';
import { withZombie } from '../support/zombie';

const ROOT_A = '/clones/a';
const ROOT_B = '/clones/b';

const made: string[] = [];
after(() => { for (const d of made) fs.rmSync(d, { recursive: true, force: true }); });

function tempTools(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-tools-'));
  made.push(dir);
  return dir;
}

/** A port nothing listens on (the listener that found it is closed again). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); });
  });
}

/** A listener on a free 127.0.0.1 port: "another program" holding the port. */
function holdPort(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

/** A process that stays alive until killed. */
async function liveProcess(): Promise<{ pid: number; kill(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  return {
    pid: child.pid!,
    kill: () => new Promise((r) => { child.once('exit', () => r()); child.kill(); }),
  };
}

function writeLock(dir: string, holder: Record<string, unknown>): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'session.lock');
  fs.writeFileSync(file, JSON.stringify(holder) + '\n');
  return file;
}

function installed(dir: string): string {
  const marker = path.join(dir, 'extensions', 'edgekit.edgekit-0.1.0', 'package.json');
  fs.mkdirSync(path.dirname(marker), { recursive: true });
  fs.writeFileSync(marker, '{}');
  return marker;
}

test('the default port keeps the one session directory of before; every other port has its own', () => {
  const tools = tempTools();
  assert.equal(DEFAULT_PORT, 8080);
  assert.equal(sessionDir(tools, DEFAULT_PORT), path.join(tools, 'session'));
  assert.equal(sessionDir(tools, 8171), path.join(tools, 'session-8171'));
  assert.notEqual(sessionDir(tools, 8171), sessionDir(tools, 8172));
});

test('PORT: unset is the default port, anything but a port number is refused by name', () => {
  assert.equal(parsePort(undefined), DEFAULT_PORT);
  assert.equal(parsePort(''), DEFAULT_PORT);
  assert.equal(parsePort('8171'), 8171);
  for (const bad of ['abc', '0', '80.5', '65536', '-1', '8080x']) assert.throws(() => parsePort(bad), new RegExp(`PORT="${bad}"`));
});

test('two sessions in one tools directory: the second leaves the first one\'s installed extension and its lock alone', async () => {
  const tools = tempTools();
  const [p1, p2] = [await freePort(), await freePort()];
  const a = await openSession({ tools, port: p1, root: ROOT_A });
  const aExtension = installed(a.dir);
  const b = await openSession({ tools, port: p2, root: ROOT_B });
  try {
    assert.notEqual(b.dir, a.dir);
    assert.ok(fs.existsSync(aExtension), 'the first session\'s installed extension is still there');
    assert.equal(JSON.parse(fs.readFileSync(a.lockFile, 'utf8')).port, p1);
    assert.equal(a.extensionsDir, path.join(a.dir, 'extensions'));
    assert.equal(b.userDataDir, path.join(b.dir, 'user-data'));
  } finally {
    b.release();
    a.release();
  }
  assert.ok(!fs.existsSync(a.lockFile) && !fs.existsSync(b.lockFile), 'released locks are removed');
});

test('the same port twice: refused with the port, the running session\'s pid and clone, before anything is deleted', async () => {
  const tools = tempTools();
  const port = await freePort();
  const a = await openSession({ tools, port, root: ROOT_A });
  const aExtension = installed(a.dir);
  try {
    await assert.rejects(openSession({ tools, port, root: ROOT_B }), (err: unknown) => {
      assert.ok(err instanceof SessionInUse);
      assert.equal(err.holder.pid, process.pid);
      assert.match(err.message, new RegExp(`port ${port}`));
      assert.match(err.message, new RegExp(`process ${process.pid}`));
      assert.match(err.message, /\/clones\/a/);
      return true;
    });
    assert.ok(fs.existsSync(aExtension), 'the running session\'s extension is untouched');
    assert.equal(JSON.parse(fs.readFileSync(a.lockFile, 'utf8')).root, ROOT_A, 'the lock still names the running session');
  } finally {
    a.release();
  }
});

test('a lock of another live process is in use; its extension stays', async () => {
  const tools = tempTools();
  const port = await freePort();
  const other = await liveProcess();
  try {
    const dir = sessionDir(tools, port);
    const lock = writeLock(dir, { pid: other.pid, stamp: processStamp(other.pid), port, root: ROOT_B, since: '2026-11-26T08:00:00.000Z' });
    const marker = installed(dir);
    await assert.rejects(openSession({ tools, port, root: ROOT_A }), (err: unknown) => {
      assert.ok(err instanceof SessionInUse);
      assert.equal(err.holder.pid, other.pid);
      assert.match(err.message, new RegExp(`process ${other.pid}`));
      assert.match(err.message, /\/clones\/b/);
      assert.ok(err.message.includes(lock), 'names the lock file');
      return true;
    });
    assert.ok(fs.existsSync(marker));
    assert.equal(JSON.parse(fs.readFileSync(lock, 'utf8')).pid, other.pid);
  } finally {
    await other.kill();
  }
});

test('a stale lock (its process is gone) is taken over, and the old installation is cleared for the new one', async () => {
  const tools = tempTools();
  const port = await freePort();
  const dir = sessionDir(tools, port);
  const pid = await deadPid();
  writeLock(dir, { pid, port, root: ROOT_B, since: '2026-11-26T08:00:00.000Z' });
  const marker = installed(dir);
  const userFile = path.join(dir, 'user-data', 'User', 'globalStorage', 'kept.json');
  fs.mkdirSync(path.dirname(userFile), { recursive: true });
  fs.writeFileSync(userFile, '{}');
  const s = await openSession({ tools, port, root: ROOT_A });
  try {
    assert.equal(s.dir, dir);
    assert.equal(s.tookOver?.pid, pid);
    const now = JSON.parse(fs.readFileSync(s.lockFile, 'utf8'));
    assert.equal(now.pid, process.pid);
    assert.equal(now.root, ROOT_A);
    assert.ok(!fs.existsSync(marker), 'the previous installation is removed (host.js installs the .vsix again)');
    assert.ok(fs.existsSync(userFile), 'user data survives');
  } finally {
    s.release();
  }
});

test('a lock naming a live pid of another process start (the pid was reused, e.g. after a reboot) is stale', { skip: processStamp(process.pid) === undefined && 'no /proc' }, async () => {
  const tools = tempTools();
  const port = await freePort();
  const other = await liveProcess();
  try {
    writeLock(sessionDir(tools, port), { pid: other.pid, stamp: 'another-boot:1', port, root: ROOT_B, since: '2026-11-25T08:00:00.000Z' });
    const s = await openSession({ tools, port, root: ROOT_A });
    assert.equal(s.tookOver?.pid, other.pid);
    s.release();
  } finally {
    await other.kill();
  }
});

test('a lock of a killed process not yet reaped (a zombie) is stale', { skip: processStamp(process.pid) === undefined && 'no /proc' }, async () => {
  // Killed but not yet reaped by its parent (test/unit/support/zombie.ts).
  await withZombie(async (pid) => {
    const tools = tempTools();
    const port = await freePort();
    writeLock(sessionDir(tools, port), { pid, stamp: processStamp(pid), port, root: ROOT_B, since: '2026-11-26T08:00:00.000Z' });
    const s = await openSession({ tools, port, root: ROOT_A });
    assert.equal(s.tookOver?.pid, pid);
    s.release();
  });
});

test('an unreadable lock is stale', async () => {
  const tools = tempTools();
  const port = await freePort();
  const dir = sessionDir(tools, port);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'session.lock'), '{"pid": 12');
  const s = await openSession({ tools, port, root: ROOT_A });
  assert.equal(JSON.parse(fs.readFileSync(s.lockFile, 'utf8')).pid, process.pid);
  s.release();
});

test('a port held by another program: refused by name, the lock released and nothing deleted', async () => {
  const tools = tempTools();
  const server = await holdPort();
  const port = (server.address() as net.AddressInfo).port;
  const dir = sessionDir(tools, port);
  const marker = installed(dir);
  try {
    await assert.rejects(openSession({ tools, port, root: ROOT_A }), (err: unknown) => {
      assert.ok(err instanceof PortInUse);
      assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      return true;
    });
    assert.ok(fs.existsSync(marker), 'the installation is untouched');
    assert.ok(!fs.existsSync(path.join(dir, 'session.lock')), 'the lock is released');
  } finally {
    await new Promise((r) => server.close(r));
  }
  const s = await openSession({ tools, port, root: ROOT_A }); // free again: it opens
  s.release();
});

test('release leaves a lock that another session took over since', async () => {
  const tools = tempTools();
  const port = await freePort();
  const s = await openSession({ tools, port, root: ROOT_A });
  const other = await liveProcess();
  try {
    fs.writeFileSync(s.lockFile, JSON.stringify({ pid: other.pid, stamp: processStamp(other.pid), port, root: ROOT_B, since: 'x' }));
    s.release();
    assert.equal(JSON.parse(fs.readFileSync(s.lockFile, 'utf8')).pid, other.pid);
  } finally {
    await other.kill();
  }
});

test('session settings: what the user set in the session survives the next start; this start\'s settings win; an earlier start\'s go', () => {
  const dir = tempTools();
  const file = path.join(dir, 'user-data', 'User', 'settings.json');
  const record = path.join(dir, 'settings-written.json');
  const defaults = { 'files.autoSave': 'off', 'update.mode': 'none' };
  writeSessionSettings(file, record, defaults, { 'edgekit.mock.port': 40001, 'remote.extensionKind': { 'edgekit.edgekit': ['web'] } });
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { ...defaults, 'edgekit.mock.port': 40001, 'remote.extensionKind': { 'edgekit.edgekit': ['web'] } });
  // The user, in the session's Settings: a new setting, one of ours changed, and the mock port changed too. VS Code keeps comments.
  fs.writeFileSync(file, [
    '{', '  // mine', '  "files.autoSave": "afterDelay",', '  "update.mode": "none",', '  "editor.fontSize": 20,',
    '  "edgekit.mock.port": 40005,', '  "remote.extensionKind": { "edgekit.edgekit": ["web"] },', '}',
  ].join('\n'));
  writeSessionSettings(file, record, defaults, { 'edgekit.mock.port': 40002 });
  assert.deepEqual(jsonc.parse(fs.readFileSync(file, 'utf8')), {
    'files.autoSave': 'afterDelay', 'update.mode': 'none', 'editor.fontSize': 20, 'edgekit.mock.port': 40002,
  });
  // And again: the user's settings stay theirs.
  writeSessionSettings(file, record, defaults, { 'edgekit.mock.port': 40003 });
  assert.deepEqual(jsonc.parse(fs.readFileSync(file, 'utf8')), {
    'files.autoSave': 'afterDelay', 'update.mode': 'none', 'editor.fontSize': 20, 'edgekit.mock.port': 40003,
  });
});

// rv33 (dat1's leftover): every start wrote the file again with JSON.stringify, so a comment the user had written in the session's
// Settings was gone at the next start; the start's changes are now edits of the text.
test('session settings: the user\'s comments and layout survive a start; only the start\'s keys change', () => {
  const dir = tempTools();
  const file = path.join(dir, 'settings.json');
  const record = path.join(dir, 'settings-written.json');
  const defaults = { 'files.autoSave': 'off', 'update.mode': 'none' };
  writeSessionSettings(file, record, defaults, { 'edgekit.mock.port': 40001, 'remote.extensionKind': { 'edgekit.edgekit': ['web'] } });
  fs.writeFileSync(file, [
    '{', '  // mine: bigger for the demo', '  "editor.fontSize": 20, // was 14', '  "files.autoSave": "off",', '  "update.mode": "none",',
    '  "edgekit.mock.port": 40001,', '  "remote.extensionKind": { "edgekit.edgekit": ["web"] },', '  /* the end */', '}',
  ].join('\n'));
  writeSessionSettings(file, record, defaults, { 'edgekit.mock.port': 40002 });
  const text = fs.readFileSync(file, 'utf8');
  for (const kept of ['// mine: bigger for the demo', '"editor.fontSize": 20, // was 14', '/* the end */']) assert.ok(text.includes(kept), text);
  assert.deepEqual(jsonc.parse(text), { 'editor.fontSize': 20, 'files.autoSave': 'off', 'update.mode': 'none', 'edgekit.mock.port': 40002 });
  // Nothing to change: the text is left as it is, byte for byte, and not written at all (mt5: a mutant that wrote the same text
  // again survived; a write is a change VS Code's watcher reloads the settings for). Its time set back, to see a write.
  fs.utimesSync(file, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
  writeSessionSettings(file, record, defaults, { 'edgekit.mock.port': 40002 });
  assert.equal(fs.readFileSync(file, 'utf8'), text);
  assert.equal(fs.statSync(file).mtime.toISOString(), '2020-01-01T00:00:00.000Z', 'not written');
});

test('session settings: a key the user typed twice is set once, where VS Code reads it (jsonc-parser edits the first, VS Code reads the last)', () => {
  const dir = tempTools();
  const file = path.join(dir, 'settings.json');
  const record = path.join(dir, 'settings-written.json');
  writeSessionSettings(file, record, {}, { 'edgekit.mock.port': 40001 });
  fs.writeFileSync(file, '{\n  "edgekit.mock.port": 40001, // ours\n  "editor.fontSize": 20,\n  "edgekit.mock.port": 40001\n}\n');
  writeSessionSettings(file, record, {}, { 'edgekit.mock.port': 40002 });
  const text = fs.readFileSync(file, 'utf8');
  assert.deepEqual(jsonc.parse(text), { 'edgekit.mock.port': 40002, 'editor.fontSize': 20 });
  assert.equal(text.match(/edgekit\.mock\.port/g)?.length, 1, text);
});

// rv35: a settings.json that starts with a byte order mark (as Windows editors save it) was taken for one that is not valid JSON
// (jsonc-parser refuses the mark, VS Code reads past it): the user's session settings were kept aside and replaced with the start's.
test('session settings: a file with a byte order mark is read and edited, its settings and its mark kept', async () => {
  const dir = tempTools();
  const file = path.join(dir, 'settings.json');
  const record = path.join(dir, 'settings-written.json');
  writeSessionSettings(file, record, {}, { 'edgekit.mock.port': 40001 });
  fs.writeFileSync(file, '\uFEFF{\n  // mine\n  "editor.fontSize": 20,\n  "edgekit.mock.port": 40001\n}\n');
  const port = await freePort();
  assert.equal(writeSessionSettings(file, record, {}, { 'edgekit.mock.port': port }), undefined, 'no "not valid JSON" warning');
  assert.equal(fs.readFileSync(file, 'utf8'), `\uFEFF{\n  // mine\n  "editor.fontSize": 20,\n  "edgekit.mock.port": ${port}\n}\n`);
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes('.invalid-')), [], 'nothing kept aside');
  // The next start reads the session's last port from it too (it was a new free one each time).
  assert.equal(await sessionMockPort(file, undefined), port);
});

test('session settings: a file written before starts kept a record is ours, as it always was; an unreadable one is replaced with a warning', () => {
  const dir = tempTools();
  const file = path.join(dir, 'settings.json');
  const record = path.join(dir, 'settings-written.json');
  fs.writeFileSync(file, JSON.stringify({ 'files.autoSave': 'off', 'remote.extensionKind': { 'edgekit.edgekit': ['web'] } }));
  assert.equal(writeSessionSettings(file, record, { 'files.autoSave': 'off' }, {}), undefined);
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { 'files.autoSave': 'off' });
  // dat1: the text that was not valid JSON (a setting half typed when the session closed) was replaced and gone; it is kept aside.
  fs.writeFileSync(file, '{ "editor.fontSize": ');
  const warning = writeSessionSettings(file, record, { 'files.autoSave': 'off' }, {}) ?? '';
  assert.match(warning, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*not valid JSON`));
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { 'files.autoSave': 'off' });
  const aside = fs.readdirSync(dir).filter((f) => f.startsWith('settings.json.invalid-'));
  assert.equal(aside.length, 1);
  assert.equal(fs.readFileSync(path.join(dir, aside[0]), 'utf8'), '{ "editor.fontSize": ');
  assert.ok(warning.includes(`what it held was kept as ${path.join(dir, aside[0])}.`), warning);
});

// ui8's walk: each npm start gave the mock a new free port, so the gateway URL a newcomer had put into their ethers or viem code
// stopped answering at the next start. The session's last port (or the one the user set in its Settings) is used again while it
// is free; MOCK_PORT still decides.
test('npm start\'s mock port: MOCK_PORT, else the session\'s last one while it is free, else a free one', async () => {
  const dir = tempTools();
  const file = path.join(dir, 'settings.json');
  const last = await freePort();
  // A first start: no settings yet.
  const first = await sessionMockPort(file, undefined);
  assert.ok(Number.isInteger(first) && first > 0);
  fs.writeFileSync(file, JSON.stringify({ 'edgekit.mock.autoStart': true, 'edgekit.mock.port': last }));
  assert.equal(await sessionMockPort(file, undefined), last);
  assert.equal(await sessionMockPort(file, '40123'), 40123, 'MOCK_PORT decides');
  // Held by another program: a free one.
  const held = await holdPort();
  try {
    const port = (held.address() as net.AddressInfo).port;
    fs.writeFileSync(file, JSON.stringify({ 'edgekit.mock.port': port }));
    const got = await sessionMockPort(file, undefined);
    assert.notEqual(got, port);
    assert.ok(got > 0);
  } finally {
    await new Promise((r) => held.close(r));
  }
  // 0 (a free port, the setting's default) or junk: a free one.
  for (const text of ['{"edgekit.mock.port": 0}', '{"edgekit.mock.port": "x"}', 'not json']) {
    fs.writeFileSync(file, text);
    assert.ok((await sessionMockPort(file, undefined)) > 0, text);
  }
});

// ui8's walk: code-server 4.139 opens the secondary side bar (the chat's place, empty with AI features off) in every workspace by
// default: a blank quarter of the window, and the editors beside it too narrow for a request and its response, or for the
// walkthrough's step text beside its media (which then did not show at all).
test('npm start\'s user settings hide the empty secondary side bar, keep AI features off and files unsaved until saved', () => {
  assert.equal(USER_DEFAULTS['workbench.secondarySideBar.defaultVisibility'], 'hidden');
  assert.equal(USER_DEFAULTS['chat.disableAIFeatures'], true);
  assert.equal(USER_DEFAULTS['files.autoSave'], 'off');
});
