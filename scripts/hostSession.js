// The session directory of `npm start` (scripts/host.js start) and its lock, apart from code-server so that a unit test can run it
// (test/unit/scripts/hostSession.test.ts).
//
// Every session used to share $EDGEKIT_TOOLS/session: a second `npm start` (another port, or another clone) deleted the running
// one's installed extension while it reinstalled its own, rewrote its settings (the mock port) and shared its user data, so the
// second session's windows used the first one's mock and lost it when the first stopped. Now each port has its own directory
// (the default port keeps `session`, so its user data carries on), and `session.lock` in it names the process that runs it: a
// second session on the same port is refused before it deletes or writes anything, with the running one's pid and clone. A lock
// whose process no longer runs (kill -9, a crash, a reboot, its pid now another process's) is taken over. The lock is the mock's
// state lock's (mock/src/pidLock.js, plain JavaScript so that it runs here before anything is built). Also here: the session's
// settings files, which keep what the user set in them across starts (writeSessionSettings).
'use strict';
const fs = require('fs');
const net = require('net');
const path = require('path');
const jsonc = require('jsonc-parser');
const { acquireLock, processStamp } = require('../mock/src/pidLock.js');

const DEFAULT_PORT = 8080;
const LOCK_NAME = 'session.lock';

/** The session directory for `port`: `session` for the default port (as before), `session-<port>` for any other. */
function sessionDir(tools, port) {
  return path.join(tools, port === DEFAULT_PORT ? 'session' : `session-${port}`);
}

/** PORT from the environment: unset or empty is the default; anything but a TCP port number is an error that names it. */
function parsePort(value) {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new Error(`PORT="${value}" is not a port number (1-65535); unset it for ${DEFAULT_PORT}.`);
  return port;
}

function readOr(file, fallback) {
  try { return fs.readFileSync(file, 'utf8'); } catch { return fallback; }
}

/** Another session runs in this directory, i.e. on this port. */
class SessionInUse extends Error {
  constructor(port, holder, lockFile) {
    const where = holder.root ? ` from ${holder.root}` : '';
    const since = holder.since ? `, started ${holder.since}` : '';
    super(`An EdgeKit session already runs on port ${port}: process ${holder.pid}${where}${since} (http://127.0.0.1:${port}/). ` +
      `Use it, stop it (Ctrl+C in its terminal, or kill ${holder.pid}), or start this one on another port (PORT=<port> npm start). ` +
      `If no session runs there, delete "${lockFile}".`);
    this.name = 'SessionInUse';
    this.port = port;
    this.holder = holder;
    this.lockFile = lockFile;
  }
}

/** The port is held by something that is not an EdgeKit session of this tools directory. */
class PortInUse extends Error {
  constructor(port, cause, stale) {
    const who = stale
      ? `, perhaps by the code-server of the EdgeKit session of process ${stale.pid}${stale.root ? ` (from ${stale.root})` : ''}, which ended without stopping it`
      : ' by another program';
    super(`127.0.0.1:${port} is in use${who} (${cause.code || cause.message}); stop it, or start on another port (PORT=<port> npm start).`);
    this.name = 'PortInUse';
    this.port = port;
  }
}

/** Resolves when 127.0.0.1:`port` can be bound (and is released again); rejects with the listen error otherwise. */
function probePort(port) {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve()));
  });
}

/** Takes the lock of `dir` for the session `fields` (port, root, since): returns the lock and the stale holder it replaced (if any),
 * or throws SessionInUse naming the running one. */
async function takeLock(dir, fields) {
  const file = path.join(dir, LOCK_NAME);
  let got;
  try {
    got = await acquireLock(file, fields);
  } catch (err) {
    throw new Error(`Cannot lock the session directory "${dir}" (${file}): ${err.message}`);
  }
  if (got.holder) throw new SessionInUse(fields.port, got.holder, file);
  if (got.contended) throw new Error(`Cannot lock the session directory "${dir}": "${file}" keeps coming back; is another session starting on port ${fields.port}?`);
  return got;
}

/**
 * Prepares the session of `port` for `root` (the clone that runs it) in `tools`: locks its directory, checks that 127.0.0.1:`port`
 * is free, and only then removes the previous installation of the extension (its user data stays). Throws SessionInUse or
 * PortInUse, having changed nothing. `release()` (also run at exit) removes the lock if it is still this session's.
 */
async function openSession({ tools, port, root }) {
  const dir = sessionDir(tools, port);
  fs.mkdirSync(dir, { recursive: true });
  const { lock, stale } = await takeLock(dir, { port, root, since: new Date().toISOString() });
  const file = lock.file;
  const release = () => {
    process.removeListener('exit', release);
    lock.release();
  };
  process.on('exit', release);
  try {
    await probePort(port).catch((err) => { throw new PortInUse(port, err, stale); });
    const extensionsDir = path.join(dir, 'extensions');
    fs.rmSync(extensionsDir, { recursive: true, force: true });
    return { dir, extensionsDir, userDataDir: path.join(dir, 'user-data'), lockFile: file, tookOver: stale, release };
  } catch (err) {
    release();
    throw err;
  }
}

/** A JSON-with-comments object file: its value and text (`bom`: the byte order mark it starts with, which jsonc-parser refuses and
 * VS Code reads past, kept out of `text`), or `bad` when it is not one. */
function readJsonc(file) {
  const read = readOr(file, undefined);
  if (read === undefined) return { value: undefined };
  const bom = read.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = read.slice(bom.length);
  const errors = [];
  const value = jsonc.parse(text, errors, { allowTrailingComma: true });
  return errors.length || !value || typeof value !== 'object' || Array.isArray(value) ? { value: undefined, bad: true } : { value, text, bom };
}

/**
 * Writes the settings file `file` of a session's start: `defaults`, then what the user set there, then `start` (this start's own:
 * the mock's port, EDGEKIT_SETTINGS), which wins. The user's are the entries of the file that differ from what starts put there,
 * the defaults and start settings of the previous start, kept in `record`; without a record (a file written before records were
 * kept) the file is all ours, as every start used to rewrite it. The file's text is edited (jsonc-parser's modify), so the user's
 * comments and layout stay; unchanged, it is not written. Returns a warning when the file was not valid JSON (then copied aside and
 * replaced).
 */
function writeSessionSettings(file, record, defaults, start) {
  const current = readJsonc(file);
  const written = readJsonc(record).value;
  const users = {};
  if (current.value && written) {
    for (const [key, value] of Object.entries(current.value)) {
      if (!(key in written) || JSON.stringify(written[key]) !== JSON.stringify(value)) users[key] = value;
    }
  }
  const ours = { ...defaults, ...start };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // A file that is not valid JSON (a setting half typed) is kept aside, not written over: what the user had there is theirs.
  const aside = current.bad ? `${file}.invalid-${Date.now()}` : undefined;
  if (aside) fs.copyFileSync(file, aside, fs.constants.COPYFILE_EXCL);
  const settings = { ...defaults, ...users, ...start };
  // Edits of the text the user has (comments, order, layout kept), not a new text: keys no longer ours removed, the start's set.
  let text = current.value ? current.text : '{}';
  const edit = (key, value) => {
    const modify = (v) => { text = jsonc.applyEdits(text, jsonc.modify(text, [key], v, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } })); };
    // A key typed twice: modify edits the first, VS Code reads the last; all but one go first.
    const count = () => (jsonc.parseTree(text)?.children ?? []).filter((p) => p.children?.[0]?.value === key).length;
    for (let n = count(); n > (value === undefined ? 0 : 1); n--) modify(undefined);
    if (value !== undefined) modify(value);
  };
  for (const key of Object.keys(current.value ?? {})) if (!(key in settings)) edit(key, undefined);
  for (const [key, value] of Object.entries(settings)) {
    if (JSON.stringify(current.value?.[key]) !== JSON.stringify(value)) edit(key, value);
  }
  if (text !== current.text) fs.writeFileSync(file, (current.bom ?? '') + text);
  fs.writeFileSync(record, JSON.stringify(ours, null, 2));
  return aside ? `${file} was not valid JSON; it now holds the session's settings only, and what it held was kept as ${aside}.` : undefined;
}

/** The user settings of npm start's and the test host's VS Code (a session keeps what the user changes over them). */
const USER_DEFAULTS = {
  'chat.disableAIFeatures': true, 'workbench.startupEditor': 'none', 'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false, 'telemetry.telemetryLevel': 'off', 'update.mode': 'none', 'git.enabled': false,
  'security.workspace.trust.enabled': false, 'workbench.tips.enabled': false,
  // Desktop VS Code's default. The web workbench saves after a second by default, which wrote what a newcomer typed into npm
  // start's examples straight into the repository's examples/ folder.
  'files.autoSave': 'off',
  // The secondary side bar (the chat's place) opens in every workspace by default, empty with AI features off: a blank quarter
  // of the window, the editors too narrow for a request beside its response, or for a walkthrough step beside its media.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** A free port on 127.0.0.1 (the listener that found it is closed again). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

/**
 * The embedded mock's port for a start: `envPort` (MOCK_PORT) when given; else the one the session's settings `file` holds (the
 * last start's, or one the user set there) while it is free, so that the gateway URL in the user's own code (ethers, viem) goes
 * on working from one start to the next; else a free one.
 */
async function sessionMockPort(file, envPort) {
  const given = Number(envPort);
  if (Number.isInteger(given) && given > 0 && given < 65536) return given;
  const last = readJsonc(file).value?.['edgekit.mock.port'];
  if (Number.isInteger(last) && last > 0 && last < 65536 && await probePort(last).then(() => true, () => false)) return last;
  return freePort();
}

module.exports = { DEFAULT_PORT, sessionDir, parsePort, processStamp, openSession, SessionInUse, PortInUse, writeSessionSettings, sessionMockPort, freePort, USER_DEFAULTS };
