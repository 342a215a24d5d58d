// The delivery spool: every batch a job cuts is kept here, gzip body and metadata, until its upload succeeded and the record of its
// delivery is saved. With a state file it lives on disk (`<state>.spool/`): the body is written first, then the metadata, each
// atomically (temp file, fsync, rename), so a batch is in the spool exactly when its metadata file is; a mock killed at any point
// finds at its next start every batch it cut and had not delivered, and uploads it again under the same object name. Without a state
// file the spool is in memory. No vscode.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../state';

export interface SpoolEntry {
  /** The delivery id (also the delivery record's). */
  id: string;
  /** Order of cutting (uploads of a job go in this order). */
  seq: number;
  job: number;
  scope: 'zone' | 'account';
  owner: string;
  dataset: string;
  /** The job's destination_conf when the batch was cut (the batch goes there even if the job changes since). */
  conf: string;
  /** The object key below the bucket or folder. */
  key: string;
  records: number;
  /** Size of the gzip body. */
  bytes: number;
  /** When the batch was cut (ISO). */
  at: string;
  /** The job's feed cursor after this batch, and the feed it belongs to (a feed lives as long as its process). */
  cursor: { feed: string; next: number };
}

const META = /^(.+)\.json$/;

export class Spool {
  private readonly entries = new Map<string, SpoolEntry>();
  private readonly bodies = new Map<string, Buffer>();
  private nextSeq = 1;

  /** What the last load() could not take up, in words (the delivery service logs them). */
  readonly notLoaded: string[] = [];

  /** dir: on disk there; undefined: in memory. */
  constructor(readonly dir?: string) {}

  /** The batches a previous process left (on disk only); bodies without metadata and temp files are removed. Metadata that cannot
   * be read (the mock writes it whole or not at all: a hand edit, a damaged disk) is renamed aside with its body, and metadata
   * whose body is gone is removed; each is said in `notLoaded`. */
  async load(): Promise<SpoolEntry[]> {
    if (!this.dir) return [];
    let names: string[];
    try { names = await fs.readdir(this.dir); } catch { return []; }
    const ids = new Set<string>();
    for (const n of names) {
      const m = META.exec(n);
      if (!m || n === 'deliveries.json') continue;
      const meta = path.join(this.dir, n);
      let e: SpoolEntry;
      try {
        e = JSON.parse(await fs.readFile(meta, 'utf8')) as SpoolEntry;
        // Its id names its body and its files (remove): one that is not its own file's name could name a file elsewhere.
        if (e === null || typeof e !== 'object' || e.id !== m[1] || !Number.isSafeInteger(e.seq)) throw new Error(`not the metadata of spooled batch ${m[1]}`);
      } catch (err) {
        const stamp = Date.now();
        await fs.rename(meta, `${meta}.unreadable-${stamp}`);
        await fs.rename(path.join(this.dir, `${m[1]}.gz`), path.join(this.dir, `${m[1]}.gz.unreadable-${stamp}`)).catch(() => undefined);
        this.notLoaded.push(`"${meta}" cannot be read (${(err as Error).message}); it was kept as "${meta}.unreadable-${stamp}", with its batch`);
        continue;
      }
      try {
        await fs.access(path.join(this.dir, `${e.id}.gz`));
      } catch {
        await fs.rm(meta, { force: true });
        this.notLoaded.push(`"${meta}" names a batch whose file ${e.id}.gz is gone; it was removed`);
        continue;
      }
      this.entries.set(e.id, e);
      ids.add(e.id);
      this.nextSeq = Math.max(this.nextSeq, e.seq + 1);
    }
    for (const n of names) {
      if (n.endsWith('.tmp') || (n.endsWith('.gz') && !ids.has(n.slice(0, -3)))) await fs.rm(path.join(this.dir, n), { force: true });
    }
    return this.list();
  }

  /** Spool a batch (resolves once it is durable). */
  async add(entry: Omit<SpoolEntry, 'seq'>, body: Buffer): Promise<SpoolEntry> {
    const e: SpoolEntry = { ...entry, seq: this.nextSeq++ };
    if (this.dir) {
      await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(path.join(this.dir, `${e.id}.gz`), body);
      await writeFileAtomic(path.join(this.dir, `${e.id}.json`), JSON.stringify(e));
    } else {
      this.bodies.set(e.id, body);
    }
    this.entries.set(e.id, e);
    return e;
  }

  async body(id: string): Promise<Buffer | undefined> {
    if (!this.entries.has(id)) return undefined;
    if (!this.dir) return this.bodies.get(id);
    return fs.readFile(path.join(this.dir, `${id}.gz`)).catch(() => undefined);
  }

  /** Forget a batch: the metadata first (then the batch is no longer in the spool), then the body. */
  async remove(id: string): Promise<void> {
    this.entries.delete(id);
    this.bodies.delete(id);
    if (!this.dir) return;
    await fs.rm(path.join(this.dir, `${id}.json`), { force: true });
    await fs.rm(path.join(this.dir, `${id}.gz`), { force: true });
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Entries in cutting order, of one job or all. */
  list(job?: number): SpoolEntry[] {
    return [...this.entries.values()].filter((e) => job === undefined || e.job === job).sort((a, b) => a.seq - b.seq);
  }

  get bytes(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.bytes;
    return n;
  }

  async clear(): Promise<void> {
    for (const id of [...this.entries.keys()]) await this.remove(id);
  }
}
