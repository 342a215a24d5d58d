// Types of pidLock.js (plain JavaScript: npm start's scripts/hostSession.js requires it before anything is built).

/** What a lock file holds: the holder's pid, its process stamp where /proc gives one, a token of the take, and the caller's fields. */
export type LockRecord<T = Record<string, unknown>> = T & { pid: number; stamp?: string; token?: string };

export interface HeldLock<T> {
  /** The lock file's absolute path. */
  readonly file: string;
  readonly record: LockRecord<T>;
  /** Adds fields to the record and rewrites the lock, if it is still this take's. */
  update(more: Partial<T>): Promise<void>;
  /** Removes the lock if it is still this take's. Synchronous (it also runs from an 'exit' handler). */
  release(): void;
}

/** Taken (with the stale record it replaced), held by a running process (or this one), or contended (kept coming back). */
export type Acquired<T> = { lock: HeldLock<T>; stale?: LockRecord } | { holder: LockRecord } | { contended: true };

/** Takes the lock `file`: see pidLock.js. Rejects with the file system's error (its `code`) when the lock cannot be written. */
export function acquireLock<T extends Record<string, unknown>>(file: string, fields: T): Promise<Acquired<T>>;
/** Boot id and start time of process `pid` (Linux /proc); undefined where /proc does not say. */
export function processStamp(pid: number): string | undefined;
/** A process with this id exists (EPERM counts: it exists but belongs to someone else). */
export function alive(pid: number): boolean;
/** The process a record names runs: another process than this one, alive, not a zombie, and the same start where stamps are known. */
export function holderRuns(record: LockRecord): boolean;
