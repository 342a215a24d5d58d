// The management API's rate limits, as the platform applies them (docs/mock-backend.md, "Rate limits"): 1200 requests per five
// minutes per user, and once over it every call for the next five minutes refused; 200 requests per second per client IP. A
// refusal is HTTP 429 with code 971 and the headers the platform's REST API sends (retry-after, x-ratelimit-*); an answer within
// the limit carries x-ratelimit-limit and x-ratelimit-remaining. The clock is injectable, so tests do not sleep.
import type { ApiReply } from './envelope';
import { fail } from './envelope';

/** `limit` requests per `windowSeconds`. */
export interface RateLimit { limit: number; windowSeconds: number }

export interface RateLimitOptions {
  /** Per user (the mock has one: its API token and its key pair are that user's, and count together); default 1200 per 300 s;
   * false: no per-user limit. */
  perUser?: RateLimit | false;
  /** Per client IP (every request to /client/v4, credentials or not); default 200 per 1 s; false: no per-IP limit. */
  perIp?: RateLimit | false;
  /** The clock (ms since the epoch); default the process's monotonic clock from its start's wall time (Date.now goes back when
   * the system clock is set back, and counts and blocks would then last as long as the jump). */
  now?: () => number;
}

export const DEFAULT_PER_USER: RateLimit = { limit: 1200, windowSeconds: 300 };
export const DEFAULT_PER_IP: RateLimit = { limit: 200, windowSeconds: 1 };
/** The error the platform answers a throttled call with. */
export const RATE_LIMITED = { code: 971, message: 'Please wait and consider throttling your request speed' } as const;

/** `N/S` (N requests per S seconds) or `off`: the value of `--rate-limit`; a string is the problem with it. */
export function parseRateLimit(text: string): RateLimit | false | string {
  const t = text.trim().toLowerCase();
  if (t === 'off') return false;
  const m = /^(\d+)\/(\d+)$/.exec(t);
  const limit = m ? Number(m[1]) : 0;
  const windowSeconds = m ? Number(m[2]) : 0;
  if (!m || limit < 1 || windowSeconds < 1 || !Number.isSafeInteger(limit) || windowSeconds > 86_400) {
    return `--rate-limit needs N/S (N requests per S seconds per user, N at least 1, S from 1 to 86400, e.g. ${DEFAULT_PER_USER.limit}/${DEFAULT_PER_USER.windowSeconds}) or "off", not "${text}".`;
  }
  return { limit, windowSeconds };
}

/** A problem with a programmatic limit, or undefined. */
function checkLimit(name: string, l: RateLimit | false | undefined): void {
  if (l === undefined || l === false) return;
  if (!Number.isSafeInteger(l.limit) || l.limit < 1 || !(l.windowSeconds > 0) || !Number.isFinite(l.windowSeconds)) {
    throw new RangeError(`rateLimit.${name} needs a whole limit of at least 1 and a positive windowSeconds, not ${JSON.stringify(l)}.`);
  }
}

const SWEEP_MIN = 1024;
/** Milliseconds since the epoch as the wall clock read them when the process started, advanced by the monotonic clock. */
const monotonicNow = (): number => performance.timeOrigin + performance.now();

/** The times (ms) of the requests counted within the last window of one key; `blockedUntil` while a block lasts. */
class Window {
  private times: number[] = [];
  private head = 0;
  blockedUntil = 0;

  /** Forget the requests older than `since`. */
  drop(since: number): void {
    while (this.head < this.times.length && this.times[this.head] <= since) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
  get count(): number { return this.times.length - this.head; }
  get oldest(): number { return this.times[this.head]; }
  /** Whether it holds nothing worth keeping at `now`, once drop(now - window) has run: no request within the window, no block. */
  idle(now: number): boolean { return this.count === 0 && now >= this.blockedUntil; }
  push(t: number): void { this.times.push(t); }
}

/** The answer to a request over a limit (429 and its headers), or the headers of one within it. */
export type RateVerdict = { refused: ApiReply & { headers: Record<string, string> } } | { headers: Record<string, string> };

export class RateLimiter {
  private readonly perUser: RateLimit | false;
  private readonly perIp: RateLimit | false;
  private readonly now: () => number;
  private readonly users = new Map<string, Window>();
  private readonly ips = new Map<string, Window>();
  /** The size of a map at which its idle windows are next forgotten (twice what was left, at least SWEEP_MIN): amortised O(1). */
  private readonly sweepAt = new Map<Map<string, Window>, number>();

  constructor(opts: RateLimitOptions | false = {}) {
    const o = opts === false ? { perUser: false as const, perIp: false as const } : opts;
    checkLimit('perUser', o.perUser);
    checkLimit('perIp', o.perIp);
    this.perUser = o.perUser ?? DEFAULT_PER_USER;
    this.perIp = o.perIp ?? DEFAULT_PER_IP;
    this.now = o.now ?? monotonicNow;
  }

  /** How many users and addresses have a count or block kept. */
  get tracked(): number { return this.users.size + this.ips.size; }

  /** Whether any limit applies. */
  get enabled(): boolean { return this.perUser !== false || this.perIp !== false; }

  /** Counts a management API request from `ip`, and from `user` when it carries a valid credential (undefined: it does not). */
  take(ip: string, user: string | undefined): RateVerdict {
    const now = this.now();
    if (this.perIp) {
      // Per IP: a sliding window; over it, the request is refused until the oldest counted one leaves the window (no block).
      const windowMs = this.perIp.windowSeconds * 1000;
      const w = this.window(this.ips, ip, now, windowMs);
      w.drop(now - windowMs);
      if (w.count >= this.perIp.limit) return this.refuse(this.perIp.limit, w.oldest + windowMs, now);
      w.push(now);
    }
    if (!this.perUser || user === undefined) return { headers: {} };
    const windowMs = this.perUser.windowSeconds * 1000;
    const w = this.window(this.users, user, now, windowMs);
    // Blocked: every call until the block ends is refused, and is not counted (the window starts afresh after it).
    if (now < w.blockedUntil) return this.refuse(this.perUser.limit, w.blockedUntil, now);
    w.drop(now - windowMs);
    if (w.count >= this.perUser.limit) {
      w.blockedUntil = now + windowMs;
      w.drop(Infinity);
      return this.refuse(this.perUser.limit, w.blockedUntil, now);
    }
    w.push(now);
    return { headers: { 'x-ratelimit-limit': String(this.perUser.limit), 'x-ratelimit-remaining': String(this.perUser.limit - w.count) } };
  }

  /** Forgets every count and block (the mock's reset). */
  reset(): void {
    this.users.clear();
    this.ips.clear();
    this.sweepAt.clear();
  }

  private window(map: Map<string, Window>, key: string, now: number, windowMs: number): Window {
    let w = map.get(key);
    if (!w) {
      // Every address that ever sent a request had its window kept: forget those with nothing in their window and no block.
      if (map.size >= (this.sweepAt.get(map) ?? SWEEP_MIN)) {
        for (const [k, old] of map) {
          old.drop(now - windowMs);
          if (old.idle(now)) map.delete(k);
        }
        this.sweepAt.set(map, Math.max(SWEEP_MIN, map.size * 2));
      }
      map.set(key, (w = new Window()));
    }
    return w;
  }

  private refuse(limit: number, until: number, now: number): { refused: ApiReply & { headers: Record<string, string> } } {
    return {
      refused: {
        ...fail(429, RATE_LIMITED.code, RATE_LIMITED.message),
        headers: {
          'retry-after': String(Math.max(1, Math.ceil((until - now) / 1000))),
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': new Date(Math.ceil(until / 1000) * 1000).toUTCString(),
        },
      },
    };
  }
}
