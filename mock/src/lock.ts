// One mock per state file: `<state>.lock` names the process that serves it and its URL. Every window of the extension uses the same
// mock-state.json; two mocks on it would each overwrite the other's jobs (the last save wins) and upload each other's spooled
// batches. The lock is pidLock.js's, as npm start's session lock is: created whole and exclusively, and taken over when its process
// no longer runs (gone, a zombie, or its pid now another process's: the lock records the process's start).
import { acquireLock, type LockRecord } from './pidLock.js';
import { cannotWriteState, writeFailure } from './state';

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

/** The holder as the mock's callers read it: its pid, and its URL when the lock names one. */
function infoOf(r: LockRecord): LockInfo {
  return { pid: r.pid, ...(typeof r.url === 'string' ? { url: r.url } : {}) };
}

/** Takes the lock of `file`, or throws StateInUse naming the mock that holds it (this process's own, too). */
export async function lockState(file: string): Promise<StateLock> {
  const lock = `${file}.lock`;
  let got: Awaited<ReturnType<typeof acquireLock<{ url?: string }>>>;
  try {
    got = await acquireLock<{ url?: string }>(lock, {});
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw cannotWriteState(file, e);
    throw new Error(`Cannot lock the state file "${file}" (${lock}): ${writeFailure(lock, e)}.`);
  }
  if ('holder' in got) throw new StateInUse(file, infoOf(got.holder));
  if ('contended' in got) throw new Error(`Cannot lock the state file "${file}": "${lock}" keeps coming back; is another mock starting on it?`);
  const held = got.lock;
  return {
    setUrl: (url: string) => held.update({ url }),
    release: async () => held.release(),
  };
}
