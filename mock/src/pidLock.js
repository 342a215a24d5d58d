// A lock file that names the process holding it: the mock's state lock (mock/src/lock.ts, `<state>.lock`) and npm start's session
// lock (scripts/hostSession.js, `session.lock`). Plain JavaScript with pidLock.d.ts beside it: hostSession.js runs under plain Node
// before anything is built (npm start), and the mock imports it as a module of its own (esbuild and tsx take CommonJS).
//
// The lock is created whole and exclusively: a temp file (synced) hard-linked into place, as a link fails when the name exists; on
// a file system without hard links, an exclusive create. A lock whose process no longer runs is stale: the pid is gone, is a
// zombie (killed, not yet reaped), or is another start of that pid (the process stamp differs: a reboot, or a pid handed to another
// process since); or it is this process's pid and this process does not hold it. A stale lock is moved aside before it is
// removed, and what was moved is looked at: another process may have taken the stale lock over since it was read (two windows
// restored together after a crash), and removing the name would remove that holder's fresh lock, which then goes back.
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

/** Errors of fs.link on a file system without hard links (FAT, some network shares). */
const NO_HARD_LINKS = ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'];

/** Locks this process holds, by absolute path: a second take in the same process is refused with the first one's record. */
const held = new Map();

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

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** The process a lock record names still runs: another process than this one, whose pid exists, is not a zombie and, where both
 * stamps are known, is the same start of it. */
function holderRuns(record) {
  if (record.pid === process.pid || !alive(record.pid)) return false;
  const stat = readOr(`/proc/${record.pid}/stat`, '');
  if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) return false;
  const now = processStamp(record.pid);
  return !(record.stamp && now && record.stamp !== now);
}

/** The record a lock file holds, or undefined when it is unreadable or names no pid. fs.promises is looked up on each call (a test
 * stands in for readFile to play another process between two steps). */
async function readRecord(file) {
  try {
    const v = JSON.parse(await fs.promises.readFile(file, 'utf8'));
    return v && typeof v === 'object' && Number.isInteger(v.pid) && v.pid > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

function readRecordSync(file) {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8'));
    return v && typeof v === 'object' && Number.isInteger(v.pid) && v.pid > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The same take of a lock: its token when either has one (a lock of this module), else the same pid and stamp. */
function sameTake(a, b) {
  if (!b) return false;
  return a.token !== undefined || b.token !== undefined ? a.token === b.token : a.pid === b.pid && a.stamp === b.stamp;
}

function tempName(file, ending) {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.${ending}`);
}

async function syncDir(dir) {
  try {
    const d = await fs.promises.open(dir, 'r');
    try { await d.sync(); } finally { await d.close(); }
  } catch {
    // Some platforms cannot fsync a folder; the link or rename itself is still atomic.
  }
}

/** Creates `file` holding `text`, whole (a reader never sees part of it), or rejects with EEXIST when the name exists. */
async function createExclusive(file, text) {
  const tmp = tempName(file, 'tmp');
  const handle = await fs.promises.open(tmp, 'w', 0o600);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.link(tmp, file).catch(async (err) => {
      if (!NO_HARD_LINKS.includes(String(err.code))) throw err;
      await fs.promises.writeFile(file, text, { flag: 'wx', mode: 0o600 });
    });
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
  await syncDir(path.dirname(file));
}

const text = (record) => JSON.stringify(record) + '\n';

/**
 * Takes the lock `file` for this process, its record being `fields` plus pid, stamp and a token of this take. Resolves with
 * `{ lock, stale }` (stale: the record of the stale lock it replaced, if any), `{ holder }` when a running process (or this one)
 * holds it, or `{ contended: true }` when the name kept coming back after being moved aside. Rejects with the file system's error
 * when the lock cannot be written (its `code`: ENOENT, EACCES...).
 */
async function acquireLock(file, fields) {
  const key = path.resolve(file);
  const mine = held.get(key);
  if (mine) return { holder: mine };
  const stamp = processStamp(process.pid);
  const record = { ...fields, pid: process.pid, ...(stamp ? { stamp } : {}), token: crypto.randomBytes(8).toString('hex') };
  let stale;
  for (let attempt = 0; ; attempt++) {
    try {
      await createExclusive(key, text(record));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      if (attempt >= 2) return { contended: true };
    }
    const other = await readRecord(key);
    if (other && holderRuns(other)) return { holder: other };
    const aside = tempName(key, 'stale');
    try {
      await fs.promises.rename(key, aside);
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    const moved = await readRecord(aside);
    if (moved && !sameTake(moved, other) && holderRuns(moved)) {
      try { await createExclusive(key, text(moved)); } catch { /* a third took the name meanwhile: it holds the lock now */ }
      await fs.promises.rm(aside, { force: true });
      return { holder: moved };
    }
    await fs.promises.rm(aside, { force: true });
    stale = other ?? stale;
  }
  held.set(key, record);
  let released = false;
  const ours = (r) => r !== undefined && r.token === record.token;
  return {
    stale,
    lock: {
      file: key,
      record,
      /** Adds `more` to the record and rewrites the lock (a temp file renamed over it), if it is still this take's. */
      async update(more) {
        if (released) return;
        Object.assign(record, more);
        const tmp = tempName(key, 'tmp');
        try {
          await fs.promises.writeFile(tmp, text(record), { mode: 0o600 });
          if (ours(await readRecord(key))) await fs.promises.rename(tmp, key);
        } finally {
          await fs.promises.rm(tmp, { force: true });
        }
      },
      /** Removes the lock if it is still this take's (synchronous: it also runs from an 'exit' handler). */
      release() {
        if (released) return;
        released = true;
        held.delete(key);
        if (ours(readRecordSync(key))) fs.rmSync(key, { force: true });
      },
    },
  };
}

module.exports = { acquireLock, processStamp, alive, holderRuns };
