// A rate limiting rule over a run of requests: the platform applies its action only once the count of the requests with the same
// values of its characteristics passes the threshold in the period (waf/rate-limiting-rules/request-rate.mdx), not to every request it
// matches. Decisions in docs/architecture.md, "Test Rules on rate limiting rules".
import { isObj } from '../json';
import { EXPRESSION_SITES, type ExpressionSite } from '../rules/ruleset/valueExpressions';
import { CHARACTERISTIC_ONLY } from '../rules/ruleset/catalog';
import { expressionReads } from '../rules/ruleset/expression';

/** What the run of one rate limiting rule gave, besides its matches: part of its RuleTally. */
export interface RateLimitTally {
  /** The threshold as the rule says it: "2 requests in 10 s", "a score of 400 in 60 s". */
  limit: string;
  /** The requests that added to a counter (the counting expression's matches: with a score, those with a score to add). */
  counted: number;
  /** The requests the action applied to (also the rule's `applied`). */
  acted: number;
  /** The first of them, by line, at most FIRST. */
  firstActed: number[];
  /** How many counters there were: distinct values of the characteristics (a value seen again once its counter expired, twice). */
  keys: number;
  /** Requests the rule matched that carry no http.request.timestamp.sec: not counted, and never acted on. */
  untimed: number;
  /** What the run could not do as the platform does ("new values past 50 000 were not counted"). */
  notes: string[];
  /** The characteristics whose values key the counters (cf.colo.id and cf.unique_visitor_id, in no request record, left out). */
  characteristics: string[];
  /** Who the action applied to most: the values of the characteristics (in their order; null: none) of the TOP counters with the most
   * requests acted on, most first (the first to get there first on a tie). */
  top: { values: (string | null)[]; acted: number }[];
}

/** The compilers of rules.ts, passed in (rules.ts imports this module). */
export interface Compilers {
  expression(src: string): { ok: true; expression: { test(r: Record<string, unknown>): boolean } } | { ok: false; error: string };
  value(src: string, site: ExpressionSite): { ok: true; value: { evaluate(r: Record<string, unknown>): string | null } } | { ok: false; error: string };
}

export interface RateLimiter {
  tally: RateLimitTally;
  /**
   * A request that reached the rule (enabled): whether the action applies to it, the counters updated. `matched` false: the rule's
   * expression did not match it, and only a counting expression of its own counts it ("any response with a 403 status code on any
   * URL would increase the counter", parameters.mdx); the action never applies.
   */
  take(record: Record<string, unknown>, line: number, matched?: boolean): boolean;
}

const FIRST = 5;
/** How many counters the tally names in `top`. */
const TOP = 3;
/** Counters kept at most: past this many values with a live counter (requests in its period, or a mitigation under way), a new
 * value is not counted (a note says so); a counter whose period and mitigation are over gives way to a new value. */
const KEYS_MAX = 50_000;
/** The score a complexity-based rule adds, as the platform takes it from the origin's header ("between 1 and 1,000,000"). */
const SCORE_MAX = 1_000_000;
const CHARACTERISTICS_SITE = EXPRESSION_SITES.find((s) => s.at[1] === 'characteristics')!;

/** One counter: what was counted in each second of the period (seconds ascending), their sum, when a mitigation ends (ms), and the
 * latest second a request of its value came. */
interface Counter { secs: number[]; weights: number[]; sum: number; until: number; last: number; acted: number }

/** Milliseconds since the epoch of a request, from the rules language's timestamp fields; undefined without them. */
function timeOf(record: Record<string, unknown>): number | undefined {
  const sec = record['http.request.timestamp.sec'];
  const s = typeof sec === 'bigint' ? Number(sec) : sec;
  if (typeof s !== 'number' || !Number.isFinite(s)) return undefined;
  const ms = record['http.request.timestamp.msec'];
  return s * 1000 + (typeof ms === 'number' && Number.isFinite(ms) ? ms : 0);
}

/**
 * The simulation of rule i's "ratelimit" (an object: the schema reports any other shape), or an error naming what cannot be
 * evaluated; undefined when the rule has no ratelimit to simulate (none, or a malformed one the checker reports).
 */
export function rateLimiter(ratelimit: unknown, i: number, compile: Compilers): RateLimiter | { error: string } | undefined {
  if (!isObj(ratelimit) || !Array.isArray(ratelimit.characteristics)) return undefined;
  const period = ratelimit.period, requests = ratelimit.requests_per_period, score = ratelimit.score_per_period;
  const header = ratelimit.score_response_header_name;
  const byScore = typeof score === 'number' && typeof header === 'string';
  const threshold = byScore ? score : requests;
  if (typeof period !== 'number' || !(period > 0) || typeof threshold !== 'number') return undefined;
  const timeout = typeof ratelimit.mitigation_timeout === 'number' ? ratelimit.mitigation_timeout : 0;

  const values: { evaluate(r: Record<string, unknown>): string | null }[] = [];
  const names: string[] = [];
  for (const c of ratelimit.characteristics) {
    if (typeof c !== 'string' || CHARACTERISTIC_ONLY.has(c.trim())) continue;
    const v = compile.value(c, CHARACTERISTICS_SITE);
    if (!v.ok) return { error: `rule ${i}: the characteristic ${JSON.stringify(c)}: ${v.error}` };
    values.push(v.value);
    names.push(c.trim());
  }
  const countingSrc = typeof ratelimit.counting_expression === 'string' && ratelimit.counting_expression.trim() !== '' ? ratelimit.counting_expression : undefined;
  let counting: { test(r: Record<string, unknown>): boolean } | undefined;
  if (countingSrc !== undefined) {
    const c = compile.expression(countingSrc);
    if (!c.ok) return { error: `rule ${i}: the counting expression: ${c.error}` };
    counting = c.expression;
  }
  // Counted once the response is sent (a response field in the counting expression, or the origin's score): the request that makes
  // the count pass the threshold has been served already, and the action applies from the next one (request-rate.mdx, Example B)
  const afterResponse = byScore || (countingSrc !== undefined && expressionReads(countingSrc).response !== undefined);
  const scoreHeader = byScore ? (header as string).toLowerCase() : '';

  const tally: RateLimitTally = {
    limit: byScore ? `a score of ${threshold} in ${period} s` : `${threshold} request${threshold === 1 ? '' : 's'} in ${period} s`,
    counted: 0, acted: 0, firstActed: [], keys: 0, untimed: 0, characteristics: names, top: [],
    notes: ['The requests are counted as one data center\'s (cf.colo.id): the platform keeps a counter per data center.',
      ...(ratelimit.requests_to_origin === true ? ['requests_to_origin is true, so the platform counts only the requests that reach the origin; request records carry no cache status, so every matching request was counted here.'] : [])],
  };
  const counters = new Map<string, Counter>();
  let full = false;
  // Requests earlier by more than the period than one read before them (files of two hours read in the wrong order): a counter's
  // window follows the latest request, so the counts assume time order, and a note says how many did not come in it
  let latest = -Infinity, late = 0, lateNote = -1, lateFirst = 0;

  // The top counters by requests acted on, kept as they change (their keys beside them): a few comparisons per request acted on
  const topKeys: string[] = [];
  const noteTop = (key: string, acted: number): void => {
    let k = topKeys.indexOf(key);
    if (k < 0) {
      if (tally.top.length >= TOP && acted <= tally.top[TOP - 1].acted) return;
      if (tally.top.length >= TOP) { tally.top.pop(); topKeys.pop(); }
      tally.top.push({ values: JSON.parse(key) as (string | null)[], acted });
      topKeys.push(key);
      k = topKeys.length - 1;
    } else tally.top[k].acted = acted;
    // Up past those it now has more than (a tie keeps the one that got there first ahead)
    while (k > 0 && tally.top[k - 1].acted < acted) {
      [tally.top[k - 1], tally.top[k]] = [tally.top[k], tally.top[k - 1]];
      [topKeys[k - 1], topKeys[k]] = [topKeys[k], topKeys[k - 1]];
      k--;
    }
  };

  const weightOf = (record: Record<string, unknown>): number => {
    if (counting && !counting.test(record)) return 0;
    if (!byScore) return 1;
    const headers = record['http.response.headers'];
    const got = isObj(headers) ? headers[scoreHeader] : undefined;
    const text = Array.isArray(got) ? got[0] : got;
    const n = typeof text === 'string' && /^\d+$/.test(text.trim()) ? Number(text) : typeof text === 'number' ? text : NaN;
    return Number.isInteger(n) && n >= 1 && n <= SCORE_MAX ? n : 0;
  };

  return {
    tally,
    take(record, line, matched = true) {
      if (!matched && !counting) return false;
      const t = timeOf(record);
      if (t === undefined) { if (matched) tally.untimed++; return false; }
      if (t < latest - period * 1000) {
        if (lateNote < 0) { lateNote = tally.notes.push('') - 1; lateFirst = line; }
        late++;
        tally.notes[lateNote] = `${late.toLocaleString('en')} request${late === 1 ? '' : 's'} came more than ${period} s before a request read earlier (first on line ${lateFirst}); the counts assume requests in time order, as the platform sees them: sort the requests by http.request.timestamp.sec.`;
      }
      if (t > latest) latest = t;
      const weight = weightOf(record);
      if (!matched && !weight) return false;
      const key = JSON.stringify(values.map((v) => v.evaluate(record)));
      const sec = Math.floor(t / 1000);
      let c = counters.get(key);
      if (c) {
        // The map's order is the order of the counters' latest requests: the first is the one that expires first
        if (c.last < sec) { c.last = sec; counters.delete(key); counters.set(key, c); }
      } else {
        if (counters.size >= KEYS_MAX) {
          const [oldKey, old] = counters.entries().next().value as [string, Counter];
          if (old.last <= sec - period && old.until <= t) counters.delete(oldKey);
          else {
            if (!full) { full = true; tally.notes.push(`Past ${KEYS_MAX.toLocaleString('en')} values of the characteristics with requests in the same period, a new value was not counted.`); }
            return false;
          }
        }
        counters.set(key, c = { secs: [], weights: [], sum: 0, until: -Infinity, last: sec, acted: 0 });
        tally.keys++;
      }
      // The window: the seconds after (now - period), counted by whole seconds
      let drop = 0;
      while (drop < c.secs.length && c.secs[drop] <= sec - period) { c.sum -= c.weights[drop]; drop++; }
      if (drop) { c.secs.splice(0, drop); c.weights.splice(0, drop); }
      const add = (): void => {
        if (!weight) return;
        tally.counted++;
        c.sum += weight;
        const last = c.secs.length - 1;
        if (last >= 0 && c.secs[last] >= sec) c.weights[last] += weight; // a request out of order counts in the latest second
        else { c.secs.push(sec); c.weights.push(weight); }
      };
      if (!matched) { add(); return false; }
      if (!afterResponse) add();
      let acts: boolean;
      if (timeout > 0) {
        acts = t < c.until || c.sum > threshold;
        if (acts && t >= c.until) c.until = t + timeout * 1000;
      } else {
        acts = c.sum > threshold;
      }
      if (afterResponse) add();
      if (acts) {
        tally.acted++;
        if (tally.firstActed.length < FIRST) tally.firstActed.push(line);
        noteTop(key, ++c.acted);
      }
      return acts;
    },
  };
}
