// One mock per state file: `<state>.lock` names the process that serves it and its URL. Every window of the extension uses the same
// mock-state.json; two mocks on it would each overwrite the other's jobs (the last save wins) and upload each other's spooled
// batches. The lock is created whole and exclusively (state.ts writeFileAtomic, exclusive: a temp file hard-linked into place, and a
// link fails when the name exists), and a lock whose process no longer exists (kill -9, a crash) is taken over.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { alive, cannotWriteState, writeFailure, writeFileAtomic } from './state';

export interface LockInfo { pid: number; url?: string }

/** The state file is served by another mock: `holder` says which (its URL, to use it instead). */
export class StateInUse extends Error {
  constructor(readonly file: string, readonly holder: LockInfo) {
    super(`The state file "${file}" is in use by the EdgeKit mock of process ${holder.pid}${holder.url ? ` at ${holder.url}` : ''}; use that mock, stop it, or give this one another state file (if no mock runs there, delete "${file}.lock").`);
  }
}

export interface StateLock {
  /** Records the URL the mock serves (once it listens), for a window that finds the lock. */
  setUrl(url: string): Promise<void>;
  release(): Promise<void>;
}

/** Locks held by this process (a second mock in the same process is refused too). */
const held = new Map<string, LockInfo>();

async function readLock(lock: string): Promise<LockInfo | undefined> {
  try {
    const v = JSON.parse(await fs.readFile(lock, 'utf8')) as Partial<LockInfo>;
    return typeof v.pid === 'number' && Number.isInteger(v.pid) ? { pid: v.pid, ...(typeof v.url === 'string' ? { url: v.url } : {}) } : undefined;
  } catch {
    return undefined;
  }
}

function lockText(info: LockInfo): string {
  return JSON.stringify(info) + '\n';
}

/** Takes the lock of `file`, or throws StateInUse naming the mock that holds it. */
export async function lockState(file: string): Promise<StateLock> {
  const key = path.resolve(file);
  const lock = `${key}.lock`;
  const mine = held.get(key);
  if (mine) throw new StateInUse(file, mine);
  const info: LockInfo = { pid: process.pid };
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFileAtomic(lock, lockText(info), { exclusive: true });
      break;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT') throw cannotWriteState(file, e);
      if (e.code !== 'EEXIST') throw new Error(`Cannot lock the state file "${file}" (${lock}): ${writeFailure(lock, e)}.`);
      if (attempt >= 2) throw new Error(`Cannot lock the state file "${file}": "${lock}" keeps coming back; is another mock starting on it?`);
    }
    const other = await readLock(lock);
    // A lock of a live process (another, or this one after a restart in place) is in use; an unreadable one, or one whose process
    // is gone, is stale.
    if (other && other.pid !== process.pid && alive(other.pid)) throw new StateInUse(file, other);
    // Removed by moving it aside first, then looking at what was moved: another mock may have taken the stale lock over since it
    // was read (windows restored together after a crash), and removing the name would remove that mock's fresh lock. One that
    // is not the stale lock read goes back where it was.
    const aside = `${lock}.${process.pid}.${randomBytes(6).toString('hex')}.stale`;
    try {
      await fs.rename(lock, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    const moved = await readLock(aside);
    if (moved && moved.pid !== other?.pid && moved.pid !== process.pid && alive(moved.pid)) {
      try { await fs.link(aside, lock); } catch { /* a third took the name meanwhile: it holds the file now */ }
      await fs.rm(aside, { force: true });
      throw new StateInUse(file, moved);
    }
    await fs.rm(aside, { force: true });
  }
  held.set(key, info);
  let released = false;
  return {
    async setUrl(url: string) {
      if (released) return;
      info.url = url;
      await writeFileAtomic(lock, lockText(info));
    },
    async release() {
      if (released) return;
      released = true;
      held.delete(key);
      const now = await readLock(lock);
      if (now?.pid === process.pid) await fs.rm(lock, { force: true });
    },
  };
}
