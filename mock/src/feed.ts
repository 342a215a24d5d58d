// The mock's log feed: the records its live parts produce, per zone and dataset, in order. Traffic (traffic/) appends
// `http_requests` records and the managed-rules simulation appends `firewall_events` records; Logpush delivery (delivery/) reads
// them by sequence number. Each stream keeps at most `capacity` records (the oldest are dropped, and a reader that fell behind is
// told how many it missed), so the mock's memory stays bounded whatever the traffic rate. No vscode, no I/O.

export type FeedDataset = 'http_requests' | 'firewall_events';
export const FEED_DATASETS: readonly FeedDataset[] = ['http_requests', 'firewall_events'];
/** The feed datasets an account's job reads too, from each zone of the account: firewall_events, whose account page is the
 * account-level security events (each line with its ZoneName). http_requests is no account dataset. */
export const ACCOUNT_FEED_DATASETS: readonly FeedDataset[] = ['firewall_events'];

export type FeedRecord = Record<string, unknown>;

export interface FeedRead {
  /** The records from `from` on (or from the oldest still kept), at most `max`. */
  records: FeedRecord[];
  /** Sequence number of records[0]. */
  first: number;
  /** Sequence number after the last record returned: pass it as `from` next time. */
  next: number;
  /** Records between `from` and `first` that were dropped before they were read. */
  missed: number;
}

export type FeedListener = (zoneId: string, dataset: FeedDataset, appended: number) => void;

export const DEFAULT_FEED_CAPACITY = 50_000;

class Stream {
  /** Sequence number of items[head]. */
  base = 0;
  items: FeedRecord[] = [];
  constructor(readonly capacity: number) {}
  get next(): number { return this.base + this.items.length; }
}

export class Feed {
  private readonly streams = new Map<string, Stream>();
  private readonly listeners = new Set<FeedListener>();

  constructor(readonly capacity = DEFAULT_FEED_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`feed capacity must be a positive integer, got ${capacity}`);
  }

  private stream(zoneId: string, dataset: FeedDataset): Stream {
    const key = `${zoneId}\u0000${dataset}`;
    let s = this.streams.get(key);
    if (!s) this.streams.set(key, (s = new Stream(this.capacity)));
    return s;
  }

  append(zoneId: string, dataset: FeedDataset, records: readonly FeedRecord[]): void {
    if (records.length === 0) return;
    const s = this.stream(zoneId, dataset);
    for (const r of records) s.items.push(r);
    const over = s.items.length - s.capacity;
    if (over > 0) {
      s.items.splice(0, over);
      s.base += over;
    }
    for (const l of this.listeners) l(zoneId, dataset, records.length);
  }

  /** Sequence number the next appended record of this stream gets. */
  next(zoneId: string, dataset: FeedDataset): number {
    return this.stream(zoneId, dataset).next;
  }

  read(zoneId: string, dataset: FeedDataset, from: number, max = Number.POSITIVE_INFINITY): FeedRead {
    const s = this.stream(zoneId, dataset);
    const start = Math.max(from, s.base);
    const end = Math.min(s.next, start + Math.max(0, max));
    const records = start < end ? s.items.slice(start - s.base, end - s.base) : [];
    return { records, first: start, next: Math.max(start, end), missed: Math.max(0, Math.min(s.base, s.next) - from) };
  }

  /** Called after every append; returns the unsubscribe function. */
  onAppend(listener: FeedListener): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /** Forget every record (the mock's reset); sequence numbers go on from where they were. */
  clear(): void {
    for (const s of this.streams.values()) {
      s.base = s.next;
      s.items = [];
    }
  }
}
