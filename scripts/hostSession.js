// The session directory of `npm start` (scripts/host.js start) and its lock, apart from code-server so that a unit test can run it
// (test/unit/scripts/hostSession.test.ts).
//
// Every session used to share $EDGEKIT_TOOLS/session: a second `npm start` (another port, or another clone) deleted the running
// one's installed extension while it reinstalled its own, rewrote its settings (the mock port) and shared its user data, so the
// second session's windows used the first one's mock and lost it when the first stopped. Now each port has its own directory
// (the default port keeps `session`, so its user data carries on), and `session.lock` in it names the process that runs it: a
// second session on the same port is refused before it deletes or writes anything, with the running one's pid and clone. A lock
// whose process is gone (kill -9, a crash, a reboot) is taken over. The lock is created whole and exclusively (a temp file
// hard-linked into place: the link fails when the name exists), as the mock's state lock is (mock/src/lock.ts). Also here: the
// session's settings files, which keep what the user set in them across starts (writeSessionSettings).
'use strict';
const fs = require('fs');
const net = require('net');
const path = require('path');
const crypto = require('crypto');
const jsonc = require('jsonc-parser');

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

/**
 * What tells this start of process `pid` from another process that gets the same pid later (after it exits, or after a reboot):
 * the boot id and the process's start time in clock ticks since boot (Linux /proc). undefined where /proc does not say.
 */
function processStamp(pid) {
  const boot = readOr('/proc/sys/kernel/random/boot_id', '').trim();
  const stat = readOr(`/proc/${pid}/stat`, '');
  // Field 22 (starttime), counted after the command name in parentheses, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return boot && fields.length > 19 ? `${boot}:${fields[19]}` : undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The process a lock names still runs: the pid exists, is not a zombie (killed, not yet reaped) and, where both are known, it is
 * the same start of it. */
function holderRuns(holder) {
  if (!alive(holder.pid)) return false;
  const stat = readOr(`/proc/${holder.pid}/stat`, '');
  if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) return false;
  const now = processStamp(holder.pid);
  return !(holder.stamp && now && holder.stamp !== now);
}

function readLock(file) {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    return v && Number.isInteger(v.pid) && v.pid > 0 ? v : undefined;
  } catch {
    return undefined;
  }
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

/**
 * Takes the lock of `dir`: returns the stale holder it replaced (if any), or throws SessionInUse. A stale lock is moved aside before
 * it is removed, and what was moved is looked at: another start may have taken the stale lock over since it was read, and removing
 * the name would remove that session's fresh lock (the same order as mock/src/lock.ts).
 */
function takeLock(dir, me) {
  const file = path.join(dir, LOCK_NAME);
  let stale;
  for (let attempt = 0; ; attempt++) {
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(me) + '\n');
    try {
      fs.linkSync(tmp, file);
      return { file, stale };
    } catch (err) {
      if (err.code !== 'EEXIST') throw new Error(`Cannot lock the session directory "${dir}" (${file}): ${err.message}`);
      if (attempt >= 2) throw new Error(`Cannot lock the session directory "${dir}": "${file}" keeps coming back; is another session starting on port ${me.port}?`);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
    const other = readLock(file);
    if (other && holderRuns(other)) throw new SessionInUse(me.port, other, file);
    const aside = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.stale`;
    try {
      fs.renameSync(file, aside);
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    const moved = readLock(aside);
    if (moved && moved.token !== other?.token && holderRuns(moved)) {
      try { fs.linkSync(aside, file); } catch { /* a third took the name meanwhile: it holds the directory now */ }
      fs.rmSync(aside, { force: true });
      throw new SessionInUse(me.port, moved, file);
    }
    fs.rmSync(aside, { force: true });
    stale = other ?? stale;
  }
}

/**
 * Prepares the session of `port` for `root` (the clone that runs it) in `tools`: locks its directory, checks that 127.0.0.1:`port`
 * is free, and only then removes the previous installation of the extension (its user data stays). Throws SessionInUse or
 * PortInUse, having changed nothing. `release()` (also run at exit) removes the lock if it is still this session's.
 */
async function openSession({ tools, port, root }) {
  const dir = sessionDir(tools, port);
  fs.mkdirSync(dir, { recursive: true });
  const me = { pid: process.pid, stamp: processStamp(process.pid), port, root, since: new Date().toISOString(), token: crypto.randomBytes(8).toString('hex') };
  const { file, stale } = takeLock(dir, me);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    if (readLock(file)?.token === me.token) fs.rmSync(file, { force: true });
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

function readJsonc(file) {
  const text = readOr(file, undefined);
  if (text === undefined) return { value: undefined };
  const errors = [];
  const value = jsonc.parse(text, errors, { allowTrailingComma: true });
  return errors.length || !value || typeof value !== 'object' || Array.isArray(value) ? { value: undefined, bad: true } : { value };
}

/**
 * Writes the settings file `file` of a session's start: `defaults`, then what the user set there, then `start` (this start's own:
 * the mock's port, EDGEKIT_SETTINGS), which wins. The user's are the entries of the file that differ from what starts put there,
 * the defaults and start settings of the previous start, kept in `record`; without a record (a file written before records were
 * kept) the file is all ours, as every start used to rewrite it. Returns a warning when the file was not valid JSON (then replaced).
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
  fs.writeFileSync(file, JSON.stringify({ ...defaults, ...users, ...start }, null, 2));
  fs.writeFileSync(record, JSON.stringify(ours, null, 2));
  return current.bad ? `${file} was not valid JSON; it now holds the session's settings only.` : undefined;
}

module.exports = { DEFAULT_PORT, sessionDir, parsePort, processStamp, openSession, SessionInUse, PortInUse, writeSessionSettings };
