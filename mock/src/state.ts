// The mock's mutable state (migration state per zone, deleted URI-based overrides, the saved entry point ruleset, Logpush jobs)
// and its optional state file: loaded at start, written atomically (temp file in the same folder, fsync, rename, fsync of the
// folder) after every change, so it survives restarts and kill -9; temp files a killed writer left behind are removed at the next
// start. A corrupt file is reported and kept aside, never crashed on.
import { constants as fsConstants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MigrationState } from './migration';
import type { NewRule } from './zones';
import { alive } from './pidLock.js';
import { ACCOUNTS, ZONES } from './zones';
import { isObj, wordList } from '../../server/src/core';

export type LogpushJob = Record<string, unknown> & { id: number };

export interface StoredRuleset {
  id: string;
  name: string;
  description: string;
  kind: 'zone';
  phase: 'http_request_firewall_managed';
  version: string;
  last_updated: string;
  rules: (NewRule & { id: string; version: string; ref: string; last_updated: string })[];
}

export interface ZoneState {
  migration: MigrationState;
  /** Ids of URI-based WAF overrides deleted through the API. */
  deletedOverrides: string[];
  entrypoint: StoredRuleset | null;
  jobs: LogpushJob[];
  /** The traffic's request numbers below this one may have been used (reserved in blocks by traffic/engine.ts), so a restarted
   * mock numbers on from here and a zone's RayIDs never repeat across restarts, kill -9 included. Absent: from 0. */
  trafficNext?: number;
}

export interface MockState {
  version: 1;
  nextJobId: number;
  zones: Record<string, ZoneState>;
  /** Account-scoped Logpush jobs, per account id (absent in state files written before accounts existed). */
  accounts: Record<string, { jobs: LogpushJob[] }>;
}

export function defaultState(): MockState {
  const zones: Record<string, ZoneState> = {};
  for (const z of ZONES) zones[z.id] = { migration: 'start', deletedOverrides: [], entrypoint: null, jobs: [] };
  const accounts: MockState['accounts'] = {};
  for (const a of ACCOUNTS) accounts[a.id] = { jobs: [] };
  return { version: 1, nextJobId: 1, zones, accounts };
}

const STATES: readonly MigrationState[] = ['start', 'validation', 'migrated'];

/** The saved entry point's rules as the traffic and the ruleset routes read them: objects with a string action and expression,
 * an optional boolean enabled and an optional action_parameters object (what the entry point PUT stores). */
function checkEntrypointRules(zone: string, rules: unknown): void {
  if (!Array.isArray(rules)) throw new Error(`zone ${zone} has an entry point without a "rules" list`);
  rules.forEach((r: unknown, i) => {
    if (!isObj(r)) throw new Error(`zone ${zone}: entry point rule ${i} is not an object`);
    if (typeof r.action !== 'string') throw new Error(`zone ${zone}: entry point rule ${i} has a bad "action"`);
    if (typeof r.expression !== 'string') throw new Error(`zone ${zone}: entry point rule ${i} has a bad "expression"`);
    if (r.enabled !== undefined && typeof r.enabled !== 'boolean') throw new Error(`zone ${zone}: entry point rule ${i} has a bad "enabled"`);
    if (r.action_parameters !== undefined && !isObj(r.action_parameters)) throw new Error(`zone ${zone}: entry point rule ${i} has a bad "action_parameters"`);
  });
}

/** A state read from JSON, checked field by field; throws with a message naming the first bad field. A zone or account this
 * version does not know is left out, and named in `unknown` ("zone <id>", "account <id>") when it is given; so is a field of the
 * top level, a zone or an account it does not know (another version's: `"x"`, `zone <id>'s "x"`). */
export function parseState(text: string, unknown?: string[]): MockState {
  const raw: unknown = JSON.parse(text);
  if (!isObj(raw)) throw new Error('the top level is not an object');
  if (raw.version !== 1) throw new Error(`"version" is ${JSON.stringify(raw.version)}, expected 1`);
  if (typeof raw.nextJobId !== 'number' || !Number.isInteger(raw.nextJobId) || raw.nextJobId < 1) throw new Error('"nextJobId" is not a positive integer');
  if (!isObj(raw.zones)) throw new Error('"zones" is not an object');
  const out = defaultState();
  out.nextJobId = raw.nextJobId;
  // The fields of `from` that its parsed `to` does not carry: what the start's save would leave out.
  const leftOut = (from: Record<string, unknown>, to: object, of: string) => {
    for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) unknown?.push(`${of}${JSON.stringify(k)}`);
  };
  leftOut(raw, out, '');
  for (const [id, zs] of Object.entries(raw.zones)) {
    if (!out.zones[id]) { unknown?.push(`zone ${id}`); continue; } // a zone this version does not know: left out
    if (!isObj(zs)) throw new Error(`zone ${id} is not an object`);
    if (!STATES.includes(zs.migration as MigrationState)) throw new Error(`zone ${id} has migration state ${JSON.stringify(zs.migration)}`);
    if (!Array.isArray(zs.deletedOverrides) || !zs.deletedOverrides.every((x) => typeof x === 'string')) throw new Error(`zone ${id} has a bad "deletedOverrides"`);
    if (zs.entrypoint !== null && !isObj(zs.entrypoint)) throw new Error(`zone ${id} has a bad "entrypoint"`);
    if (zs.entrypoint !== null) checkEntrypointRules(id, zs.entrypoint.rules);
    if (!Array.isArray(zs.jobs) || !zs.jobs.every((j) => isObj(j) && typeof j.id === 'number')) throw new Error(`zone ${id} has a bad "jobs" list`);
    if (zs.trafficNext !== undefined && !(Number.isSafeInteger(zs.trafficNext) && (zs.trafficNext as number) >= 0)) throw new Error(`zone ${id} has a bad "trafficNext"`);
    out.zones[id] = {
      migration: zs.migration as MigrationState,
      deletedOverrides: zs.deletedOverrides as string[],
      entrypoint: zs.entrypoint as StoredRuleset | null,
      jobs: zs.jobs as LogpushJob[],
      ...(zs.trafficNext !== undefined ? { trafficNext: zs.trafficNext as number } : {}),
    };
    leftOut(zs, out.zones[id], `zone ${id}'s `);
  }
  if (raw.accounts !== undefined) {
    if (!isObj(raw.accounts)) throw new Error('"accounts" is not an object');
    for (const [id, as] of Object.entries(raw.accounts)) {
      if (!out.accounts[id]) { unknown?.push(`account ${id}`); continue; } // an account this version does not know: left out
      if (!isObj(as) || !Array.isArray(as.jobs) || !as.jobs.every((j) => isObj(j) && typeof j.id === 'number')) throw new Error(`account ${id} has a bad "jobs" list`);
      out.accounts[id] = { jobs: as.jobs as LogpushJob[] };
      leftOut(as, out.accounts[id], `account ${id}'s `);
    }
  }
  // Job ids are unique across zones and accounts, and the next one is above all of them (management.ts hands out nextJobId++).
  const seen = new Set<number>();
  for (const j of [...Object.values(out.zones), ...Object.values(out.accounts)].flatMap((o) => o.jobs)) {
    if (seen.has(j.id)) throw new Error(`job id ${j.id} is used twice`);
    seen.add(j.id);
    if (j.id >= out.nextJobId) throw new Error(`"nextJobId" is ${out.nextJobId}, not above job ${j.id}`);
  }
  return out;
}

/** Write a file atomically: temp file in the same folder, fsync, rename over the target, fsync the folder. (An exclusive create,
 * which the state lock needs, is pidLock.js's.) */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await (typeof data === 'string' ? handle.writeFile(data, 'utf8') : handle.writeFile(data));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } finally {
    await fs.rm(tmp, { force: true }); // after a rename, nothing is left to remove
  }
  try {
    const d = await fs.open(dir, 'r');
    try { await d.sync(); } finally { await d.close(); }
  } catch {
    // Some platforms cannot fsync a folder; the rename itself is still atomic.
  }
}

/**
 * Remove the temp files a killed writer left next to `file` (`.<name>.<pid>.<hex>.tmp` of a process that no longer exists), so
 * repeated kill -9s do not pile them up. Temp files of live processes are left alone.
 */
export async function removeStaleTemps(file: string): Promise<string[]> {
  const dir = path.dirname(file);
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\.${base}\\.(\\d+)\\.[0-9a-f]{12}\\.tmp$`);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    await fs.rm(path.join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

/** Why writing `file` failed, in words: its folder does not exist, or the system's message without the temp file's name. */
export function writeFailure(file: string, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'ENOENT' ? `the folder "${path.dirname(path.resolve(file))}" does not exist` : String(e.message).replace(/ '[^']*\.tmp'/, '');
}

/** The error of a state file that cannot be written (by the store, or by its lock: lock.ts). */
export function cannotWriteState(file: string, err: unknown): Error {
  return new Error(`Cannot write the state file "${file}": ${writeFailure(file, err)}.`);
}

export interface LoadResult { state: MockState; warning?: string }

/** Load the state file; a missing file is a fresh state; a corrupt one is renamed aside and reported in `warning`; one holding
 * zones or accounts this version does not know (another version's) is copied aside before the start's save leaves them out, and
 * they are named in `warning`. */
export async function loadState(file: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: defaultState() };
    throw new Error(`Cannot read the state file "${file}": ${(err as Error).message}.`);
  }
  const unknown: string[] = [];
  let state: MockState;
  try {
    state = parseState(text, unknown);
  } catch (err) {
    const aside = `${file}.corrupt-${Date.now()}`;
    await fs.rename(file, aside);
    return { state: defaultState(), warning: `The state file "${file}" is not a valid mock state (${(err as Error).message}); it was kept as "${aside}" and the mock started from the default state.` };
  }
  if (unknown.length === 0) return { state };
  const aside = `${file}.unknown-${Date.now()}`;
  try {
    await fs.copyFile(file, aside, fsConstants.COPYFILE_EXCL);
  } catch (err) {
    throw new Error(`Cannot keep the state file "${file}" as "${aside}" before leaving out ${unknown.join(', ')}, which this version of the mock does not know: ${writeFailure(aside, err)}.`);
  }
  return { state, warning: `The state file "${file}" holds ${wordList(unknown)}, which this version of the mock does not know: ${unknown.length === 1 ? 'it was' : 'they were'} left out; the file as it was is kept as "${aside}".` };
}

/** The state plus its file; saves are serialised so the file always holds a complete snapshot. */
export class StateStore {
  private queue: Promise<void> = Promise.resolve();

  constructor(public state: MockState, readonly file?: string) {}

  static async open(file?: string): Promise<{ store: StateStore; warning?: string }> {
    if (!file) return { store: new StateStore(defaultState()) };
    await removeStaleTemps(file);
    const { state, warning } = await loadState(file);
    const store = new StateStore(state, file);
    try {
      await store.save();
    } catch (err) {
      throw cannotWriteState(file, err);
    }
    return { store, warning };
  }

  zone(id: string): ZoneState {
    return this.state.zones[id];
  }

  /** Persist the current state (a no-op without a file). Resolves when this snapshot is on disk. */
  save(): Promise<void> {
    if (!this.file) return Promise.resolve();
    const file = this.file;
    const snapshot = JSON.stringify(this.state, null, 2) + '\n';
    const next = this.queue.then(() => writeFileAtomic(file, snapshot));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async reset(): Promise<void> {
    this.state = defaultState();
    await this.save();
  }
}
