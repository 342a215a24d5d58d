// The traffic's routes: the platform's security events list (`GET /zones/:zone/security/events`, in the management API's route
// table), and the mock's own `/__edgekit/traffic`, `/__edgekit/traffic/step` and `/__edgekit/zones/:zone/security/summary`
// (answered by backend.ts after the same credentials check as the reset route). No vscode.
import type { ApiReply } from '../envelope';
import { fail } from '../envelope';
import { listReply } from '../lists';
import type { Route } from '../management';
import type { MigrationState } from '../migration';
import type { StateStore } from '../state';
import { zoneById } from '../zones';
import { MAX_STEP, type FirewallEvent, type Outcome, type TrafficConfig, type TrafficEngine, eventAction } from './engine';
import { isTerminating } from './waf';

const engines = new WeakMap<object, TrafficEngine>();

/** Which traffic engine the management API `api` answers the security events route from. */
export function bindTraffic(api: object, engine: TrafficEngine): void {
  engines.set(api, engine);
}

const badParam = (name: string, why: string, value: string): ApiReply => fail(400, 1001, `"${name}" ${why}, not "${value}".`);

/** An ISO 8601 date-time query parameter (`since`, `until`) in ms, undefined when absent, or the 400 naming it. */
function timeParam(q: URLSearchParams, name: string): number | undefined | ApiReply {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const t = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? badParam(name, 'must be an ISO 8601 date-time such as 2026-11-24T19:00:00Z', v) : t;
}

function window(q: URLSearchParams): { since?: number; until?: number } | ApiReply {
  const since = timeParam(q, 'since');
  if (typeof since === 'object') return since;
  const until = timeParam(q, 'until');
  if (typeof until === 'object') return until;
  if (since !== undefined && until !== undefined && since > until) return fail(400, 1001, `"since" (${q.get('since')}) is after "until" (${q.get('until')}).`);
  return { since, until };
}

const inWindow = (t: number, w: { since?: number; until?: number }) => (w.since === undefined || t >= w.since) && (w.until === undefined || t <= w.until);

/** GET /zones/:zone/security/events: since, until, action, source, rule_id, ray_id (several joined by match=all, the default, or
 * match=any); page, per_page (1-1000, default 50); newest first. */
export function eventsReply(q: URLSearchParams, events: readonly FirewallEvent[]): ApiReply {
  const w = window(q);
  if ('status' in w) return w;
  const action = (v: string) => v.split(',').map((a) => eventAction(a.trim().toLowerCase()));
  const kept = events.filter((e) => inWindow(Date.parse(e.Datetime), w)).reverse();
  return listReply(q, kept, {
    perPage: { min: 1, max: 1000, default: 50 },
    filters: {
      action: (e, v) => action(v).includes(e.Action),
      source: (e, v) => v.split(',').some((s) => s.trim().toLowerCase() === e.Source.toLowerCase()),
      rule_id: (e, v) => v.split(',').includes(e.RuleID),
      ray_id: (e, v) => v.split(',').includes(e.RayID),
    },
  });
}

/** The one line of the management API's route table (ROUTES in management.ts). */
export const TRAFFIC_ROUTES: readonly Route[] = [{
  method: 'GET', path: '/zones/:zone/security/events', auth: 'either', segments: ['zones', ':zone', 'security', 'events'],
  handler(ctx) {
    const engine = engines.get(this);
    if (!engine) return fail(503, 10002, 'The mock runs without traffic; there are no security events.');
    return eventsReply(ctx.req.query, engine.events(ctx.zone.id));
  },
}];

export interface SecuritySummary {
  zone: string;
  state: MigrationState;
  requests: number;
  since: string;
  until: string;
  /** since..until in words ("from 10:12:30 to 10:20:25 UTC on 2026-11-27"), as the first sentence says it, for a client to show. */
  span: string;
  previous: { acted: number; actions: Record<string, number> };
  new: { acted: number; actions: Record<string, number> };
  comparison: { newBlocksPreviousLogged: number; newBlocksPreviousPassed: number; previousBlockedNowPass: number; previousBlockedNewLogs: number; bothBlock: number };
  sentences: string[];
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A time span as a sentence says it: "from 10:12:30 to 10:20:25 UTC on 2026-11-27", the date once when both ends share it, and
 * one moment once ("at 10:12:30 UTC on 2026-11-27": an empty window is the moment of the read). To the second; the ISO stamps stay
 * in the summary's since/until for programs. */
export function spanWords(since: number, until: number): string {
  // Split at the "T": past year 9999 the ISO date has six digits and a sign ("+010000-01-01").
  const [dayA, timeA] = new Date(since).toISOString().split('T'), [dayB, timeB] = new Date(until).toISOString().split('T');
  const a = { day: dayA, time: timeA.slice(0, 8) }, b = { day: dayB, time: timeB.slice(0, 8) };
  if (a.day !== b.day) return `from ${a.day} ${a.time} to ${b.day} ${b.time} UTC`;
  return a.time === b.time ? `at ${a.time} UTC on ${a.day}` : `from ${a.time} to ${b.time} UTC on ${a.day}`;
}

/** The side-by-side summary of a zone's kept request outcomes in [since, until]: what each rule set did as it ran (previous, new),
 * and, for the requests both rule sets can judge (the zone has a saved entry point), what each would do alone (comparison). */
export function summarize(zoneId: string, state: MigrationState, outcomes: readonly Outcome[], since: number, until: number): SecuritySummary {
  const s: SecuritySummary = {
    zone: zoneId, state, requests: 0, since: new Date(since).toISOString(), until: new Date(until).toISOString(), span: spanWords(since, until),
    previous: { acted: 0, actions: {} }, new: { acted: 0, actions: {} },
    comparison: { newBlocksPreviousLogged: 0, newBlocksPreviousPassed: 0, previousBlockedNowPass: 0, previousBlockedNewLogs: 0, bothBlock: 0 },
  } as SecuritySummary;
  const count = (side: SecuritySummary['previous'], a: string | null) => {
    if (a === null || a === 'pass') return;
    side.acted++;
    const k = eventAction(a);
    side.actions[k] = (side.actions[k] ?? 0) + 1;
  };
  let compared = 0;
  for (const o of outcomes) {
    if (o.t < since || o.t > until) continue;
    s.requests++;
    count(s.previous, o.previous);
    count(s.new, o.next);
    if (o.newAlone === null) continue;
    compared++;
    const p = o.previousAlone, n = o.newAlone, c = s.comparison;
    if (isTerminating(n) && isTerminating(p)) c.bothBlock++;
    else if (isTerminating(n) && p === 'log') c.newBlocksPreviousLogged++;
    else if (isTerminating(n)) c.newBlocksPreviousPassed++;
    else if (isTerminating(p) && n === 'log') c.previousBlockedNewLogs++;
    else if (isTerminating(p)) c.previousBlockedNowPass++;
  }
  const c = s.comparison;
  s.sentences = [`${plural(s.requests, 'request', 'requests')} ${s.span} (migration state: ${state}).`];
  if (compared === 0) {
    s.sentences.push('The zone has no new rules saved yet, so there is nothing to compare.');
  } else if (state === 'migrated') {
    // Only the new rules run: what they do, against what the previous ones would have done.
    s.sentences.push(
      `The new rules block ${plural(c.newBlocksPreviousLogged, 'request', 'requests')} the previous ones would only have logged.`,
      `The new rules block ${plural(c.newBlocksPreviousPassed, 'request', 'requests')} the previous ones would have let through.`,
      `${plural(c.previousBlockedNowPass, 'request', 'requests')} the previous rules would have blocked now pass.`,
      `${plural(c.previousBlockedNewLogs, 'request', 'requests')} the previous rules would have blocked are only logged by the new ones.`,
      `The new rules block ${plural(c.bothBlock, 'request', 'requests')} the previous ones would have blocked too.`,
    );
  } else {
    s.sentences.push(
      `The new rules would block ${plural(c.newBlocksPreviousLogged, 'request', 'requests')} the previous ones only logged.`,
      `The new rules would block ${plural(c.newBlocksPreviousPassed, 'request', 'requests')} the previous ones let through.`,
      `${plural(c.previousBlockedNowPass, 'request', 'requests')} the previous rules blocked now pass.`,
      `${plural(c.previousBlockedNewLogs, 'request', 'requests')} the previous rules blocked are only logged by the new ones.`,
      `Both block ${plural(c.bothBlock, 'request', 'requests')}.`,
    );
  }
  return s;
}

type Reply = { status: number; body: unknown };

export const TRAFFIC_PATH = '/__edgekit/traffic';
export const TRAFFIC_STEP_PATH = '/__edgekit/traffic/step';
const SUMMARY = /^\/__edgekit\/zones\/([^/]+)\/security\/summary$/;

/** Whether a path is one of the traffic's /__edgekit/ routes (they need the mock's credentials). */
export function isTrafficAdminPath(path: string): boolean {
  return path === TRAFFIC_PATH || path === TRAFFIC_STEP_PATH || SUMMARY.test(path);
}

function jsonBody(body: string): Record<string, unknown> | Reply {
  let v: unknown;
  try {
    v = body.trim() ? JSON.parse(body) : {};
  } catch (err) {
    return fail(400, 10026, `The request body is not valid JSON: ${(err as Error).message}.`);
  }
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : fail(400, 10026, 'The request body must be a JSON object.');
}

const isReply = (x: unknown): x is Reply => typeof x === 'object' && x !== null && 'status' in x && 'body' in x && typeof (x as Reply).status === 'number';

/** The answer of a traffic /__edgekit/ route (isTrafficAdminPath), after the credentials check. */
export function handleTrafficAdmin(engine: TrafficEngine, store: StateStore, method: string, path: string, query: URLSearchParams, body: string, now = Date.now()): Reply {
  const summary = SUMMARY.exec(path);
  if (summary) {
    if (method !== 'GET') return fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
    const zone = zoneById(decodeURIComponent(summary[1]));
    if (!zone) return fail(404, 7003, `No zone "${summary[1]}" in the mock.`);
    const w = window(query);
    if ('status' in w) return w;
    const outcomes = engine.outcomes(zone.id);
    // An end left out is the first request kept (or now) and the later of now and the last one, but never past the end given: a
    // since in the future, or an until before the first request, is an empty window, not a span said backwards.
    const first = outcomes.length ? outcomes[0].t : now;
    const last = Math.max(now, outcomes.length ? outcomes[outcomes.length - 1].t : now);
    const since = w.since ?? (w.until !== undefined ? Math.min(first, w.until) : first);
    const until = w.until ?? Math.max(last, since);
    return { status: 200, body: summarize(zone.id, store.zone(zone.id).migration, outcomes, since, until) };
  }
  if (path === TRAFFIC_STEP_PATH) {
    if (method !== 'POST') return fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
    const b = jsonBody(body);
    if (isReply(b)) return b;
    const unknown = Object.keys(b).find((k) => k !== 'zone' && k !== 'count');
    if (unknown) return fail(400, 1001, `Unknown member "${unknown}"; the body is {zone?, count}.`);
    if (typeof b.count !== 'number' || !Number.isInteger(b.count) || b.count < 1 || b.count > MAX_STEP) {
      return fail(400, 1001, `"count" must be a whole number from 1 to ${MAX_STEP}, not ${JSON.stringify(b.count)}.`);
    }
    if (b.zone !== undefined && (typeof b.zone !== 'string' || !zoneById(b.zone))) return fail(400, 1001, `"zone" names no zone of the mock: ${JSON.stringify(b.zone)}.`);
    return { status: 200, body: engine.step(b.count, b.zone as string | undefined) };
  }
  if (method === 'GET') return { status: 200, body: engine.status() };
  if (method !== 'PUT') return fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
  const b = jsonBody(body);
  if (isReply(b)) return b;
  const unknown = Object.keys(b).find((k) => !['rate', 'paused', 'seed', 'hostileShare', 'validationNewRules'].includes(k));
  if (unknown) return fail(400, 1001, `Unknown member "${unknown}"; the members are rate, paused, seed, hostileShare and validationNewRules.`);
  const bad = engine.update(b as Partial<TrafficConfig>);
  return bad ? fail(400, 1001, bad) : { status: 200, body: engine.status() };
}
