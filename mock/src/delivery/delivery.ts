// Logpush delivery (docs/mock-backend.md, "Logpush delivery"): every enabled zone job of a feed dataset (http_requests,
// firewall_events) reads its zone's feed from its own cursor (an account's firewall_events job, each of its zones' feeds), cuts
// batches (max_upload_records / _bytes / _interval_seconds, or on demand), spools each batch (spool.ts) and uploads it to its
// destination (destinations.ts), in order, retrying a failure with exponential backoff until the job has delivered nothing for
// 24 hours (then it is disabled, as the platform disables a failing job). The job's last_complete / last_error / error_message say
// how it goes, and the delivery list (bounded) says what went where. Timers exist only while there is something to cut or retry,
// and are unref'd. No vscode.
import { gunzipSync, gzipSync } from 'node:zlib';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Feed, FeedDataset, FeedRecord } from '../feed';
import { ACCOUNT_FEED_DATASETS, FEED_DATASETS } from '../feed';
import { accountOfZone, zoneById } from '../zones';
import type { LogpushJob, StateStore } from '../state';
import { writeFileAtomic } from '../state';
import { plural } from '../../../server/src/core';
import { joinBatch, jobFilter, objectKey, outputSpec, platformFields, project, renderRecord, sampled, timestampFields, type JobFilter, type OutputSpec } from './format';
import { destinationLabel, resolveDestination, type DestinationSettings, type S3Settings } from './destinations';
import { Spool, type SpoolEntry } from './spool';

/** One batch a job cut: where it went (or is going), how big, and how it went. The editor's mockControl.ts reads these. */
export interface DeliveryRecord {
  id: string;
  job: number;
  scope: 'zone' | 'account';
  owner: string;
  dataset: string;
  /** The destination without its query (which may hold secrets). */
  destination: string;
  /** The object key below the bucket or folder (for an https endpoint: the name the batch would have). */
  object: string;
  /** The file, when the batch went to the local folder. */
  localPath?: string;
  /** When it was cut, then delivered or last tried (ISO). */
  at: string;
  records: number;
  /** Size of the gzip object. */
  bytes: number;
  status: 'delivered' | 'failed' | 'pending';
  error?: string;
}

export interface DeliveryOptions {
  /** The local folder for destinations without a configured endpoint. Default: `<state>.logpush/` next to the state file, or
   * `edgekit-mock-logpush/` in the OS temp folder. */
  dir?: string;
  /** The S3-compatible endpoint of `s3://` destinations (and of `r2://` ones without `r2`). */
  s3?: S3Settings;
  r2?: S3Settings;
  /** Batches a job may have waiting in the spool (default 50); then it stops cutting and says so. */
  maxSpoolBatches?: number;
  /** Bytes (gzip) the whole spool may hold (default 256 MiB). */
  maxSpoolBytes?: number;
  /** Bytes the local folder may hold (default 1 GiB). */
  maxLocalBytes?: number;
  /** Uncompressed bytes per batch at most, whatever max_upload_bytes says (default 16 MiB). */
  maxBatchBytes?: number;
  /** Delivery records kept (default 200). */
  keepDeliveries?: number;
  /** Batches whose uncompressed text is kept in memory for the lines route (default 50; 16 MiB at most). */
  keepLines?: number;
  /** An upload that has not ended after this long is abandoned as a failure (default 60 s). */
  uploadTimeoutMs?: number;
  /** Retry backoff: the first wait and the longest (default 1 s doubling to 5 min). */
  retry?: { firstMs?: number; maxMs?: number };
  /** A job whose uploads have failed for this long without one success is disabled (default 24 h, the platform's). */
  disableAfterMs?: number;
  /** The clock that measures how long a job has been failing (default Date.now). */
  now?: () => number;
}

export const DELIVERY_DEFAULTS = {
  maxSpoolBatches: 50, maxSpoolBytes: 256 * 1024 * 1024, maxLocalBytes: 1024 * 1024 * 1024, maxBatchBytes: 16 * 1024 * 1024, keepDeliveries: 200, keepLines: 50,
  retryFirstMs: 1_000, retryMaxMs: 300_000, uploadTimeoutMs: 60_000, disableAfterMs: 24 * 3600 * 1000,
  /** The platform's defaults for a job that sets none (and 0 means the default too). */
  intervalSeconds: 30, maxRecords: 100_000, maxBytes: 5_000_000,
};

/** Records waiting in the feed at which a job cuts without waiting for its interval (the feed keeps 50 000 per stream). */
const CUT_AT_PENDING = 20_000;
/** Uncompressed text of the latest batches kept for the lines route, at most. */
const LINES_KEPT_CHARS = 16 * 1024 * 1024;

/** A job's reader of one zone's feed: a zone job has one, an account job one per zone of the account that has sent traffic. */
interface Runner {
  job: number;
  zone: string;
  /** An account job's runner: the zone's name, which each record gets as ZoneName (the account page's field). */
  zoneName?: string;
  dataset: FeedDataset;
  cursor: number;
  timer?: NodeJS.Timeout;
  cutting: Promise<void>;
  /** Why it does not cut now (a full spool), said once in the job's error_message. */
  paused?: string;
}

interface Uploader {
  running: Promise<{ delivered: number; failed: number }>;
  /** Failed tries since the last success. */
  attempt: number;
  retryTimer?: NodeJS.Timeout;
  /** When the first of those failures happened (the clock's ms), while there are any. */
  failingSince?: number;
  /** Set when the job was disabled for failing; an enabled job found with it set starts a new count. */
  disabled?: boolean;
}

/** What a flush's cuts read: the jobs that cut, the records they read and those their filters and sample rates kept. */
interface CutTally { jobs: number; records: number; kept: number }

/** Why a flush delivered no batch (and none failed): the user asked for a delivery and is owed a reason. */
function nothingDelivered(job: number | undefined, t: CutTally, waiting: number): string {
  return `${whyNoBatch(job, t)}${waiting ? ` ${plural(waiting, 'batch', 'batches')} ${waiting === 1 ? 'waits' : 'wait'} in the spool until ${waiting === 1 ? 'its' : 'their'} disabled job is enabled again.` : ''}`;
}

function whyNoBatch(job: number | undefined, t: CutTally): string {
  if (t.jobs === 0) {
    const only = `only enabled jobs of a zone with the dataset ${FEED_DATASETS.join(' or ')}, and an account's ${ACCOUNT_FEED_DATASETS.join(' or ')} jobs, collect the mock's traffic`;
    return job === undefined ? `No Logpush job collects the mock's traffic: ${only}.` : `Job ${job} collects no traffic: ${only}.`;
  }
  if (t.records === 0) return 'No new records since the last batch: the traffic is paused, or has sent nothing to the jobs\' zones since.';
  const records = `${t.records} new record${t.records === 1 ? '' : 's'}`;
  return t.jobs === 1 ? `The job's filter and sample rate kept none of the ${records} since the last batch.`
    : `The ${t.jobs} jobs' filters and sample rates kept none of the ${records} since the last batch.`;
}

type JobRef = { job: LogpushJob; scope: 'zone' | 'account'; owner: string };

class Aborted extends Error {}

/** A duration for messages: "250 ms", "4 s". */
const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);
/** A longer one: "24 h", "90 s". */
const hours = (ms: number) => (ms >= 3_600_000 && ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : seconds(ms));

const positive = (v: unknown, dflt: number) => (typeof v === 'number' && v > 0 ? v : dflt);

function describe(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `${e.message}${cause && !e.message.includes(cause) ? ` (${cause})` : ''}`;
}

export class DeliveryService {
  private readonly settings: DestinationSettings;
  private readonly spool: Spool;
  private readonly recordsFile?: string;
  private records: DeliveryRecord[] = [];
  private readonly lines = new Map<string, string>();
  private readonly runners = new Map<string, Runner>();
  private readonly uploaders = new Map<number, Uploader>();
  private readonly inflight = new Set<AbortController>();
  private readonly feedId = randomBytes(8).toString('hex');
  /** Sets that collect the ids of the batches spooled while a flush cuts (flush() counts them, whoever uploads them). */
  private readonly spooledWatchers = new Set<Set<string>>();
  private readonly filters = new Map<string, JobFilter | null | string>();
  private unsubscribe?: () => void;
  private closed = false;
  /** Closing: batches may still be cut (into the spool), none is uploaded. */
  private draining = false;
  private saveQueue: Promise<void> = Promise.resolve();
  readonly limits: typeof DELIVERY_DEFAULTS;
  private readonly now: () => number;

  constructor(private readonly feed: Feed, private readonly store: StateStore, opts: DeliveryOptions = {}, private readonly log: (line: string) => void = () => undefined) {
    const d = DELIVERY_DEFAULTS;
    this.limits = {
      ...d, maxSpoolBatches: opts.maxSpoolBatches ?? d.maxSpoolBatches, maxSpoolBytes: opts.maxSpoolBytes ?? d.maxSpoolBytes,
      maxLocalBytes: opts.maxLocalBytes ?? d.maxLocalBytes, maxBatchBytes: opts.maxBatchBytes ?? d.maxBatchBytes, keepDeliveries: opts.keepDeliveries ?? d.keepDeliveries, keepLines: opts.keepLines ?? d.keepLines,
      retryFirstMs: opts.retry?.firstMs ?? d.retryFirstMs, retryMaxMs: opts.retry?.maxMs ?? d.retryMaxMs, uploadTimeoutMs: opts.uploadTimeoutMs ?? d.uploadTimeoutMs,
      disableAfterMs: opts.disableAfterMs ?? d.disableAfterMs,
    };
    this.now = opts.now ?? Date.now;
    const state = store.file;
    this.settings = {
      dir: opts.dir ?? (state ? `${state}.logpush` : path.join(tmpdir(), 'edgekit-mock-logpush')),
      s3: opts.s3, r2: opts.r2, maxLocalBytes: this.limits.maxLocalBytes,
    };
    this.spool = new Spool(state ? `${state}.spool` : undefined);
    this.recordsFile = state ? path.join(`${state}.spool`, 'deliveries.json') : undefined;
  }

  /** The local folder objects go to when no endpoint takes them. */
  get dir(): string {
    return this.settings.dir;
  }

  /** Loads what a previous process left (the delivery list, spooled batches: uploaded again under the same names) and starts
   * listening to the feed. */
  async start(): Promise<void> {
    if (this.recordsFile) await this.loadRecords(this.recordsFile);
    const left = await this.spool.load();
    for (const why of this.spool.notLoaded) this.log(`Logpush delivery: the spool's ${why}.`);
    for (const e of left) {
      const rec = this.records.find((r) => r.id === e.id);
      if (rec?.status === 'delivered') await this.spool.remove(e.id); // delivered and saved; only the removal was missing
    }
    const jobs = new Set(this.spool.list().map((e) => e.job));
    if (jobs.size) this.log(`Logpush delivery: ${plural(this.spool.list().length, 'spooled batch', 'spooled batches')} of ${jobs.size === 1 ? 'job' : 'jobs'} ${[...jobs].join(', ')} left by the last run; uploading them again under the same names.`);
    for (const j of jobs) void this.pump(j);
    this.unsubscribe = this.feed.onAppend((zone, dataset, n) => this.appended(zone, dataset, n));
  }

  // ---- jobs ----

  private findJob(id: number): JobRef | undefined {
    for (const [zone, zs] of Object.entries(this.store.state.zones)) {
      const job = zs.jobs.find((j) => j.id === id);
      if (job) return { job, scope: 'zone', owner: zone };
    }
    for (const [account, as] of Object.entries(this.store.state.accounts)) {
      const job = as.jobs.find((j) => j.id === id);
      if (job) return { job, scope: 'account', owner: account };
    }
    return undefined;
  }

  private static datasetOf(job: LogpushJob): string {
    return typeof job.dataset === 'string' ? job.dataset : 'http_requests';
  }

  /** Whether this job delivers: enabled, of a feed dataset (an account job: of one the account's zones feed). */
  private static delivers(job: LogpushJob, scope: 'zone' | 'account'): boolean {
    const datasets: readonly string[] = scope === 'zone' ? FEED_DATASETS : ACCOUNT_FEED_DATASETS;
    return job.enabled === true && datasets.includes(DeliveryService.datasetOf(job)) && typeof job.destination_conf === 'string';
  }

  private static runnerKey(job: number, zone: string): string {
    return `${job}\u0000${zone}`;
  }

  /** The job's runners (one per zone it reads). */
  private runnersOf(job: number): Runner[] {
    return [...this.runners.values()].filter((r) => r.job === job);
  }

  /** Whether a job's spooled batches are uploaded: not while it is disabled (a deleted job's still are). */
  private uploads(id: number): boolean {
    const ref = this.findJob(id);
    return !ref || ref.job.enabled === true;
  }

  private setJob(id: number, fields: Partial<Pick<LogpushJob, 'last_complete' | 'last_error' | 'error_message' | 'enabled'>>): void {
    const ref = this.findJob(id);
    if (ref) Object.assign(ref.job, fields);
  }

  // ---- cutting ----

  private appended(zone: string, dataset: FeedDataset, n: number): void {
    if (this.closed) return;
    const account = accountOfZone(zone);
    const jobs: { job: LogpushJob; scope: 'zone' | 'account' }[] = [
      ...(this.store.zone(zone)?.jobs ?? []).map((job) => ({ job, scope: 'zone' as const })),
      ...(account ? this.store.state.accounts[account.id]?.jobs ?? [] : []).map((job) => ({ job, scope: 'account' as const })),
    ];
    for (const { job, scope } of jobs) {
      if (DeliveryService.datasetOf(job) !== dataset) continue;
      const key = DeliveryService.runnerKey(job.id, zone);
      let r = this.runners.get(key);
      if (!DeliveryService.delivers(job, scope)) {
        if (r) this.dropRunner(r);
        continue;
      }
      if (!r) {
        r = { job: job.id, zone, dataset, cursor: this.feed.next(zone, dataset) - n, cutting: Promise.resolve() };
        if (scope === 'account') r.zoneName = zoneById(zone)?.name;
        this.runners.set(key, r);
      }
      const pending = this.feed.next(zone, dataset) - r.cursor;
      if (pending >= Math.min(CUT_AT_PENDING, positive(job.max_upload_records, this.limits.maxRecords))) void this.cut(r, false);
      else if (!r.timer) {
        const runner = r;
        r.timer = setTimeout(() => {
          runner.timer = undefined;
          void this.cut(runner, true);
        }, positive(job.max_upload_interval_seconds, this.limits.intervalSeconds) * 1000);
        r.timer.unref();
      }
    }
  }

  private dropRunner(r: Runner): void {
    if (r.timer) clearTimeout(r.timer);
    this.runners.delete(DeliveryService.runnerKey(r.job, r.zone));
  }

  /** Cuts the runner's pending records into batches: every one (`all`, the interval or a flush) or only full ones. */
  private cut(r: Runner, all: boolean, tally?: CutTally): Promise<void> {
    r.cutting = r.cutting.then(() => this.cutNow(r, all, tally)).catch((err: unknown) => {
      this.log(`Logpush delivery: job ${r.job} could not cut a batch: ${describe(err)}`);
    });
    return r.cutting;
  }

  private compiled(job: LogpushJob, dataset: string): JobFilter | null | string {
    const key = `${dataset}\u0000${typeof job.filter === 'string' ? job.filter : JSON.stringify(job.filter ?? null)}`;
    let f = this.filters.get(key);
    if (f === undefined) {
      f = jobFilter(job, dataset);
      if (this.filters.size > 100) this.filters.clear();
      this.filters.set(key, f);
    }
    return f;
  }

  private async cutNow(r: Runner, all: boolean, tally?: CutTally): Promise<void> {
    if (this.closed) return;
    const ref = this.findJob(r.job);
    if (!ref || !DeliveryService.delivers(ref.job, ref.scope)) {
      this.dropRunner(r);
      return;
    }
    const job = ref.job;
    const spec = outputSpec(job);
    const filter = this.compiled(job, r.dataset);
    const problem = typeof spec === 'string' ? spec : typeof filter === 'string' ? filter : undefined;
    if (problem) {
      const msg = `Job ${job.id} cannot write its batches: ${problem}`;
      if (job.error_message !== msg) {
        this.setJob(job.id, { last_error: new Date().toISOString(), error_message: msg });
        await this.store.save();
      }
      return;
    }
    const test = filter as JobFilter | null;
    const maxRecords = positive(job.max_upload_records, this.limits.maxRecords);
    const maxBytes = Math.min(positive(job.max_upload_bytes, this.limits.maxBytes), this.limits.maxBatchBytes);
    const ts = timestampFields(r.dataset);
    const known = platformFields(r.dataset);
    // The records waiting when the cut starts: records the traffic appends while a batch is written wait for the next cut (a
    // flush would otherwise chase them with a batch of one or two records).
    const end = this.feed.next(r.zone, r.dataset);
    for (;;) {
      const pending = end - r.cursor;
      if (pending <= 0) break;
      if (!all && pending < Math.min(CUT_AT_PENDING, maxRecords)) break;
      const full = this.spoolFull(job.id);
      if (full) {
        if (r.paused !== full) {
          r.paused = full;
          this.setJob(job.id, { last_error: new Date().toISOString(), error_message: full });
          this.log(`Logpush delivery: ${full}`);
          await this.store.save();
        }
        return;
      }
      if (r.paused) {
        r.paused = undefined;
        if (ref.job.error_message && /spool is full/.test(String(ref.job.error_message))) this.setJob(job.id, { error_message: null });
      }
      const read = this.feed.read(r.zone, r.dataset, r.cursor, Math.min(maxRecords * 4, pending));
      if (read.missed > 0) {
        const msg = `Job ${job.id} missed ${plural(read.missed, `${r.dataset} record`)}: the feed dropped them (it keeps ${this.feed.capacity} per zone) before the job could cut them.`;
        this.setJob(job.id, { last_error: new Date().toISOString(), error_message: msg });
        this.log(`Logpush delivery: ${msg}`);
      }
      // Each record is rendered once: its text is both what the byte limit counts and what the batch joins.
      const rows: string[] = [];
      const sp = spec as OutputSpec;
      // The batch's UTF-8 bytes: its prefix and suffix once, each record, and a delimiter between two records.
      let bytes = Buffer.byteLength(sp.batchPrefix) + Buffer.byteLength(sp.batchSuffix);
      const delimiter = Buffer.byteLength(sp.recordDelimiter);
      let consumed = 0;
      let first: FeedRecord | undefined;
      let last: FeedRecord | undefined;
      for (const fed of read.records) {
        if (rows.length >= maxRecords) break;
        // An account job's line names its zone (the feed is per zone, so its records do not).
        const rec = r.zoneName === undefined ? fed : { ...fed, ZoneName: r.zoneName };
        if ((test && !test.test(rec)) || !sampled(job.id, rec, (spec as OutputSpec).sample)) {
          consumed++;
          continue;
        }
        const row = renderRecord(project(rec, spec as OutputSpec, ts, known), spec as OutputSpec);
        const size = Buffer.byteLength(row) + (rows.length > 0 ? delimiter : 0);
        if (rows.length > 0 && bytes + size > maxBytes) break;
        rows.push(row);
        bytes += size;
        consumed++;
        first ??= rec;
        last = rec;
      }
      const next = read.first + consumed;
      if (tally) {
        tally.records += consumed;
        tally.kept += rows.length;
      }
      if (rows.length === 0) {
        r.cursor = next;
        continue;
      }
      const id = await this.spoolBatch(ref, r, rows, spec as OutputSpec, first!, last!, next);
      for (const watch of this.spooledWatchers) watch.add(id);
      r.cursor = next;
    }
    void this.pump(r.job);
  }

  /** Why a job may not cut now (its spool is full), or undefined. */
  private spoolFull(job: number): string | undefined {
    const waiting = this.spool.list(job).length;
    if (waiting >= this.limits.maxSpoolBatches) return `The delivery spool of job ${job} is full: ${waiting} batches wait for their upload (at most ${this.limits.maxSpoolBatches}); the job cuts no new batch until they are delivered, and records the feed drops meanwhile are missed.`;
    const bytes = this.spool.bytes;
    if (bytes >= this.limits.maxSpoolBytes) return `The delivery spool is full: ${bytes} bytes of batches wait for their upload (at most ${this.limits.maxSpoolBytes}); job ${job} cuts no new batch until some are delivered, and records the feed drops meanwhile are missed.`;
    return undefined;
  }

  private async spoolBatch(ref: JobRef, r: Runner, rows: string[], spec: OutputSpec, first: FeedRecord, last: FeedRecord, next: number): Promise<string> {
    const job = ref.job;
    const text = joinBatch(rows, spec);
    const body = gzipSync(Buffer.from(text, 'utf8'));
    const time = (rec: FeedRecord) => {
      const t = Date.parse(String(rec.EdgeStartTimestamp ?? rec.Datetime ?? ''));
      return Number.isNaN(t) ? Date.now() : t;
    };
    const conf = String(job.destination_conf);
    const random = randomBytes(4).toString('hex');
    const dest = resolveDestination(conf, this.settings);
    const entry = await this.spool.add({
      id: `${job.id}-${random}`, job: job.id, scope: ref.scope, owner: ref.owner, dataset: r.dataset, conf,
      key: objectKey(dest.pathPrefix, time(first), time(last), random), records: rows.length, bytes: body.length,
      at: new Date().toISOString(), cursor: { feed: this.feedId, next },
    }, body);
    this.keepLines(entry.id, text);
    this.upsert({
      id: entry.id, job: job.id, scope: ref.scope, owner: ref.owner, dataset: r.dataset, destination: destinationLabel(conf), object: entry.key,
      at: entry.at, records: entry.records, bytes: entry.bytes, status: 'pending',
    });
    return entry.id;
  }

  private keepLines(id: string, text: string): void {
    this.lines.set(id, text);
    let chars = 0;
    for (const t of this.lines.values()) chars += t.length;
    for (const k of this.lines.keys()) {
      if (this.lines.size <= this.limits.keepLines && chars <= LINES_KEPT_CHARS) break;
      chars -= this.lines.get(k)!.length;
      this.lines.delete(k);
    }
  }

  // ---- the delivery list ----

  /** Who waits for a record (recorded). */
  private readonly waiting: { test: (r: DeliveryRecord) => boolean; resolve: (r: DeliveryRecord) => void; reject: (e: unknown) => void }[] = [];

  private upsert(rec: DeliveryRecord): void {
    const i = this.records.findIndex((x) => x.id === rec.id);
    if (i >= 0) this.records.splice(i, 1);
    this.records.unshift(rec);
    if (this.records.length > this.limits.keepDeliveries) this.records.length = this.limits.keepDeliveries;
    for (const w of [...this.waiting]) {
      // A test that throws rejects its own wait; the upload that wrote the record goes on
      let accepted: boolean;
      try { accepted = w.test(rec); } catch (err) { accepted = false; this.waiting.splice(this.waiting.indexOf(w), 1); w.reject(err); }
      if (!accepted) continue;
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve(rec);
    }
  }

  /**
   * The first delivery record `test` accepts: one in the list now, else the next one written that it accepts. What waits for a
   * retry or the start's upload of a spooled batch (tests, a tool) waits on this event rather than polling the list. Rejected when
   * `test` throws, and when the service closes first (a wait is never left pending for good). `next`: only a record written from
   * now on (what a retry writes after the failure the list holds).
   */
  recorded(test: (r: DeliveryRecord) => boolean, { next = false }: { next?: boolean } = {}): Promise<DeliveryRecord> {
    return new Promise((resolve, reject) => {
      const now = next ? undefined : this.records.find(test);
      if (now) resolve(now);
      else if (this.closed) reject(new Error(CLOSED_FIRST));
      else this.waiting.push({ test, resolve, reject });
    });
  }

  /** The delivery list a previous process saved. None yet: an empty list. One that is not a JSON list (a hand edit, a disk that lost
   * its end) is renamed aside and logged, so that the next save does not write over it in silence; the list starts empty. */
  private async loadRecords(file: string): Promise<void> {
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`The Logpush delivery list "${file}" cannot be read (${describe(err)}); the list starts empty.`);
      return;
    }
    let saved: unknown;
    try {
      saved = JSON.parse(text);
      if (!Array.isArray(saved)) throw new Error('not a JSON list');
    } catch (err) {
      const aside = `${file}.corrupt-${Date.now()}`;
      await fs.rename(file, aside);
      this.log(`The Logpush delivery list "${file}" cannot be read (${(err as Error).message}); it was kept as "${aside}" and the list starts empty.`);
      return;
    }
    this.records = saved.slice(0, this.limits.keepDeliveries) as DeliveryRecord[];
  }

  private saveRecords(): Promise<void> {
    const file = this.recordsFile;
    if (!file) return Promise.resolve();
    const snapshot = JSON.stringify(this.records);
    const next = this.saveQueue.then(async () => {
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(file, snapshot);
    });
    this.saveQueue = next.catch(() => undefined);
    return next;
  }

  /** The delivery records, newest first (of one job, or all). */
  deliveries(job?: number): DeliveryRecord[] {
    return this.records.filter((r) => job === undefined || r.job === job).map((r) => ({ ...r }));
  }

  /** The uncompressed text of a batch, or why it cannot be had. */
  async linesOf(id: string): Promise<{ text: string } | { error: string }> {
    const kept = this.lines.get(id);
    if (kept !== undefined) return { text: kept };
    const spooled = await this.spool.body(id);
    if (spooled) return { text: gunzipSync(spooled).toString('utf8') };
    const rec = this.records.find((r) => r.id === id);
    if (!rec) return { error: `No Logpush delivery "${id}" is known to the mock (it keeps the latest ${this.limits.keepDeliveries}).` };
    if (rec.localPath) {
      const file = await fs.readFile(rec.localPath).catch(() => undefined);
      if (file) return { text: gunzipSync(file).toString('utf8') };
    }
    return { error: `The lines of delivery "${id}" are no longer kept by the mock (it keeps the text of its latest ${this.limits.keepLines} batches${rec.localPath ? ', and the local file is gone' : ''}).` };
  }

  // ---- uploading ----

  private uploader(job: number): Uploader {
    let u = this.uploaders.get(job);
    if (!u) this.uploaders.set(job, (u = { running: Promise.resolve({ delivered: 0, failed: 0 }), attempt: 0 }));
    return u;
  }

  /** Uploads the job's spooled batches in order until one fails (then a retry is scheduled, or the job is disabled). `force`: even
   * while waiting for a retry (a flush). A disabled job uploads nothing; its batches wait in the spool until it is enabled. */
  private pump(job: number, force = false): Promise<{ delivered: number; failed: number }> {
    const u = this.uploader(job);
    if (this.draining || (u.retryTimer && !force)) return u.running;
    if (u.retryTimer) {
      clearTimeout(u.retryTimer);
      u.retryTimer = undefined;
    }
    u.running = u.running.catch(() => undefined).then(async () => {
      let delivered = 0;
      let failed = 0;
      if (!this.uploads(job)) return { delivered, failed };
      if (u.disabled) Object.assign(u, { disabled: false, attempt: 0, failingSince: undefined });
      for (const e of this.spool.list(job)) {
        if (this.closed || !this.spool.has(e.id)) break;
        let outcome: 'delivered' | 'retry' | 'disabled';
        try {
          outcome = await this.upload(e, u);
        } catch (err) {
          if (err instanceof Aborted) break;
          throw err;
        }
        if (outcome === 'delivered') {
          delivered++;
          u.attempt = 0;
          u.failingSince = undefined;
        } else {
          failed++;
          u.attempt++;
          if (outcome === 'retry') this.scheduleRetry(job, u);
          break;
        }
      }
      if (delivered) for (const r of this.runnersOf(job)) if (r.paused) void this.cut(r, false);
      return { delivered, failed };
    });
    return u.running;
  }

  private retryDelay(attempt: number): number {
    return Math.min(this.limits.retryFirstMs * 2 ** Math.max(0, attempt - 1), this.limits.retryMaxMs);
  }

  private scheduleRetry(job: number, u: Uploader): void {
    if (this.closed) return;
    if (u.retryTimer) clearTimeout(u.retryTimer);
    u.retryTimer = setTimeout(() => {
      u.retryTimer = undefined;
      void this.pump(job);
    }, this.retryDelay(u.attempt));
    u.retryTimer.unref();
  }

  /** One try of a batch: delivered, failed (to be retried), or failed for long enough that the job is now disabled. */
  private async upload(e: SpoolEntry, u: Uploader): Promise<'delivered' | 'retry' | 'disabled'> {
    const attempt = u.attempt + 1;
    const dest = resolveDestination(e.conf, this.settings);
    const base: DeliveryRecord = this.records.find((r) => r.id === e.id) ?? {
      id: e.id, job: e.job, scope: e.scope, owner: e.owner, dataset: e.dataset, destination: destinationLabel(e.conf), object: e.key, at: e.at, records: e.records, bytes: e.bytes, status: 'pending',
    };
    const body = await this.spool.body(e.id);
    const ac = new AbortController();
    this.inflight.add(ac);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort();
    }, this.limits.uploadTimeoutMs);
    timer.unref();
    try {
      if (!body) throw new Error(`the spooled batch ${e.id} has no body`);
      const { localPath } = await dest.put(e.key, body, { gzip: true, signal: ac.signal });
      if (ac.signal.aborted && !timedOut) throw new Aborted();
      const now = new Date().toISOString();
      this.upsert({ ...base, status: 'delivered', at: now, error: undefined, ...(localPath ? { localPath } : {}) });
      this.setJob(e.job, { last_complete: now, last_error: null, error_message: null });
      // The record of the delivery is saved before the batch leaves the spool: a mock killed in between uploads it again under the
      // same name (an overwrite), never loses it.
      await Promise.all([this.store.save(), this.saveRecords()]);
      await this.spool.remove(e.id);
      return 'delivered';
    } catch (err) {
      if (err instanceof Aborted || (ac.signal.aborted && !timedOut)) throw new Aborted();
      const now = new Date().toISOString();
      const cause = timedOut ? `no answer within ${seconds(this.limits.uploadTimeoutMs)}` : describe(err);
      const failed = `Delivery of batch ${e.id} (${e.records} records) to ${dest.label} failed: ${cause}`;
      const since = (u.failingSince ??= this.now());
      const disable = this.now() - since >= this.limits.disableAfterMs;
      let message: string;
      if (disable) {
        u.disabled = true;
        const waiting = this.spool.list(e.job).length;
        message = `Job ${e.job} was disabled: no batch was delivered for ${hours(this.limits.disableAfterMs)} (since ${new Date(since).toISOString()}), `
          + `after ${attempt} failed attempts; the last: ${failed}. ${plural(waiting, 'batch', 'batches')} ${waiting === 1 ? 'waits' : 'wait'} in the spool; enable the job again ("enabled": true) to deliver them.`;
      } else {
        const paused = this.runnersOf(e.job).find((r) => r.paused)?.paused;
        message = `${failed}; attempt ${attempt}, next try in ${seconds(this.retryDelay(attempt))}.${paused ? ` ${paused}` : ''}`;
      }
      this.upsert({ ...base, status: 'failed', at: now, error: cause });
      this.setJob(e.job, { last_error: now, error_message: message, ...(disable ? { enabled: false } : {}) });
      this.log(`Logpush delivery: ${message}`);
      await Promise.all([this.store.save(), this.saveRecords()]);
      return disable ? 'disabled' : 'retry';
    } finally {
      clearTimeout(timer);
      this.inflight.delete(ac);
    }
  }

  // ---- on demand ----

  /** Cuts every pending batch now (of one job, or all) and delivers every spooled one, waiting for the uploads. */
  async flush(job?: number): Promise<{ delivered: number; failed: number; why?: string }> {
    // The batches waiting now and those this flush cuts, counted by outcome whichever pump uploads them: a cut starts its job's
    // upload at once, which may end (and leave the spool) while the next job is still being cut.
    // Cuts already under way finish before this flush's (each runner's cuts run in turn), so watching from here catches them too.
    const ids = new Set(this.spool.list(job).filter((e) => this.uploads(e.job)).map((e) => e.id));
    const watch = new Set<string>();
    this.spooledWatchers.add(watch);
    const tally: CutTally = { jobs: 0, records: 0, kept: 0 };
    try {
      for (const r of [...this.runners.values()]) {
        if (job !== undefined && r.job !== job) continue;
        if (r.timer) {
          clearTimeout(r.timer);
          r.timer = undefined;
        }
        tally.jobs++;
        await this.cut(r, true, tally);
      }
    } finally {
      this.spooledWatchers.delete(watch);
    }
    for (const id of watch) if (job === undefined || this.records.find((d) => d.id === id)?.job === job) ids.add(id);
    await Promise.all([...new Set(this.spool.list(job).map((e) => e.job))].map((j) => this.pump(j, true)));
    const status = (id: string) => this.records.find((r) => r.id === id)?.status;
    const all = [...ids];
    const delivered = all.filter((id) => status(id) === 'delivered').length, failed = all.filter((id) => status(id) === 'failed').length;
    if (delivered || failed || all.length) return { delivered, failed };
    return { delivered, failed, why: nothingDelivered(job, tally, this.spool.list(job).filter((e) => !this.uploads(e.job)).length) };
  }

  /** The ownership challenge file, written where the platform writes it: into the destination's folder. Answers where it went,
   * or why it was not written. */
  async writeOwnership(conf: string, filename: string, token: string): Promise<{ written: string } | { notWritten: string }> {
    const dest = resolveDestination(conf, this.settings);
    if (dest.kind === 'https') return { notWritten: 'the platform asks no ownership challenge of an https destination' };
    const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    const dir = dest.pathPrefix.replace(/\{DATE\}/g, day).replace(/^\/+|\/+$/g, '');
    const key = dir ? `${dir}/${filename}` : filename;
    try {
      const { localPath } = await dest.put(key, Buffer.from(token, 'utf8'), { gzip: false });
      return { written: localPath ?? `${destinationLabel(conf)} (object ${key})` };
    } catch (err) {
      return { notWritten: `writing it to ${dest.label} failed: ${describe(err)}` };
    }
  }

  // ---- life cycle ----

  private async stopAll(): Promise<void> {
    for (const r of this.runners.values()) if (r.timer) clearTimeout(r.timer);
    for (const u of this.uploaders.values()) if (u.retryTimer) clearTimeout(u.retryTimer);
    for (const ac of this.inflight) ac.abort();
    await Promise.all([...this.runners.values()].map((r) => r.cutting.catch(() => undefined)));
    await Promise.all([...this.uploaders.values()].map((u) => u.running.catch(() => undefined)));
  }

  /** Forgets cursors, spooled batches and the delivery list (the mock's reset). */
  async reset(): Promise<void> {
    const wasClosed = this.closed;
    this.closed = true;
    await this.stopAll();
    this.closed = wasClosed;
    this.runners.clear();
    this.uploaders.clear();
    this.lines.clear();
    this.records = [];
    await this.spool.clear();
    await this.saveRecords();
  }

  /** Stops the feed listener and the timers. With a state file, the records the jobs have not cut yet are cut into the spool first,
   * so the next start delivers them; uploads in flight are aborted (their batches stay spooled for the next start). */
  async close(): Promise<void> {
    this.unsubscribe?.();
    this.draining = true;
    for (const r of this.runners.values()) if (r.timer) clearTimeout(r.timer);
    if (this.spool.dir) for (const r of [...this.runners.values()]) await this.cut(r, true);
    this.closed = true;
    await this.stopAll();
    await this.saveQueue;
    for (const w of this.waiting.splice(0)) w.reject(new Error(CLOSED_FIRST));
  }
}

const CLOSED_FIRST = 'The mock\'s delivery service closed before a delivery record the test accepts was written.';
