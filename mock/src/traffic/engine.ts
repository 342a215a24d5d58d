// The mock's live traffic: each zone receives synthetic http_requests records from the core's generator (a share of them hostile),
// every record goes through the managed rules its migration state enables (waf.ts), and the requests a rule acts on become
// firewall_events records. Both go to the feed (feed.ts) and the events also to a bounded store per zone that the security events
// route reads. Deterministic: request k of zone i is a pure function of (seed, i, k), so the same seed and configuration give the
// same records and events whatever the ticks were (only the times are the clock's). Generation runs in ticks of an unref'd timer
// that exists only while traffic runs (rate > 0 and not paused); step() generates synchronously, for tests and the step route.
import { hostileKind, sampleHttpRequests, toRequestRecord, type LogRecord } from '../../../server/src/core';
import type { Feed, FeedRecord } from '../feed';
import { rulesEnabled, type MigrationState } from '../migration';
import type { StateStore } from '../state';
import type { Zone } from '../zones';
import { ZONES } from '../zones';
import { decisive, evaluateNew, evaluatePrevious, isTerminating, type Hit, type Verdict } from './waf';

export const TICK_MS = 250;
export const MAX_RATE = 100;
export const MAX_STEP = 10_000;
/** Security events kept per zone (the oldest go first). */
export const EVENTS_PER_ZONE = 10_000;
/** Requests whose outcome is kept per zone for the summary. */
export const OUTCOMES_PER_ZONE = 20_000;
export const DEFAULT_TRAFFIC = { rate: 2, seed: 1, paused: false, hostileShare: 0.15, validationNewRules: 'enforce' } as const;

export interface TrafficConfig {
  rate: number; paused: boolean; seed: number; hostileShare: number;
  /** What the new rules do in validation mode: 'enforce' (the platform's docs: both versions run, the new first, and act) or 'log'
   * (the new rules only log and record the action they would take in EdgeKitWouldAction). */
  validationNewRules: 'enforce' | 'log';
}
export interface TrafficOptions extends Partial<TrafficConfig> {
  feed: Feed;
  store: StateStore;
  /** The clock (ms since the epoch); records carry the time they are generated. */
  now?: () => number;
  zones?: readonly Zone[];
  log?: (line: string) => void;
}

/** A firewall_events record, with EdgeKit's own members (EdgeKit*). Source is in the firewall_events vocabulary (all lower case:
 * waf, firewallmanaged); the http_requests field SecuritySources spells the same products in camel case (firewallManaged). */
export type FirewallEvent = FeedRecord & {
  Action: string; Datetime: string; RayID: string; RuleID: string; Source: 'waf' | 'firewallmanaged'; Kind: 'firewall';
  EdgeKitMode: 'enforced' | 'validation'; EdgeKitWouldAction?: string;
};

/** What happened to one request, kept for the summary: the decisive action of each rule set alone ('pass', 'log' or a
 * terminating action; null when it has no rules to run) and of each as it actually ran (null when it did not run). */
export interface Outcome { t: number; state: MigrationState; previousAlone: string; newAlone: string | null; previous: string | null; next: string | null }

/** Request numbers reserved in the state file at a time (traffic/engine.ts reserve()). */
export const RESERVE = 10_000;

interface ZoneTraffic { zone: Zone; index: number; generated: number; requests: number; hostile: number; events: FirewallEvent[]; eventCount: number; outcomes: Outcome[] }

/** The firewall_events vocabulary of an action of the rules (managed_challenge -> managedchallenge, js_challenge -> jschallenge). */
export function eventAction(action: string): string {
  return action.replace(/_/g, '');
}

function mix(a: number, b: number, c: number): number {
  let h = (a ^ 0x9e3779b9) >>> 0;
  for (const x of [b, c]) {
    h = Math.imul(h ^ x, 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h;
}

function pushBounded<T>(list: T[], items: T[], max: number): void {
  for (const x of items) list.push(x);
  if (list.length > max + max / 10) list.splice(0, list.length - max);
}

export class TrafficEngine {
  private cfg: TrafficConfig;
  private readonly zones: ZoneTraffic[];
  private timer: NodeJS.Timeout | undefined;
  private carry = 0;
  private readonly now: () => number;

  constructor(private readonly opts: TrafficOptions) {
    const d = DEFAULT_TRAFFIC;
    const given: TrafficConfig = {
      rate: opts.rate ?? d.rate, paused: opts.paused ?? d.paused, seed: opts.seed ?? d.seed, hostileShare: opts.hostileShare ?? d.hostileShare,
      validationNewRules: opts.validationNewRules ?? d.validationNewRules,
    };
    const bad = checkConfig(given);
    if (bad) throw new RangeError(bad);
    this.cfg = given;
    this.now = opts.now ?? Date.now;
    // A zone numbers its requests on from where a previous run of this state file may have got to (see reserve()).
    this.zones = (opts.zones ?? ZONES).map((zone, index) => ({ zone, index, generated: opts.store.zone(zone.id)?.trafficNext ?? 0, requests: 0, hostile: 0, events: [], eventCount: 0, outcomes: [] }));
    this.schedule();
  }

  get config(): TrafficConfig {
    return { ...this.cfg };
  }

  /** Whether a generation timer exists (only while rate > 0 and not paused). */
  get timerActive(): boolean {
    return this.timer !== undefined;
  }

  /** Change rate, paused, seed or hostileShare; a message naming the bad member, or undefined. Giving a seed (even the same one)
   * replays the generators from their start. */
  update(patch: Partial<TrafficConfig>): string | undefined {
    const next = { ...this.cfg, ...patch };
    const bad = checkConfig(next);
    if (bad) return bad;
    const reseed = patch.seed !== undefined;
    this.cfg = next;
    if (reseed) {
      for (const z of this.zones) {
        z.generated = 0;
        const zs = this.opts.store.zone(z.zone.id);
        if (zs) zs.trafficNext = 0;
      }
      this.saveReservation();
    }
    this.schedule();
    return undefined;
  }

  status(): TrafficConfig & { zones: Record<string, { requests: number; events: number; hostile: number }> } {
    const zones: Record<string, { requests: number; events: number; hostile: number }> = {};
    for (const z of this.zones) zones[z.zone.id] = { requests: z.requests, events: z.eventCount, hostile: z.hostile };
    return { ...this.config, zones };
  }

  /** Generate `count` requests now in one zone (or in each zone), synchronously. */
  step(count: number, zoneId?: string): { requests: number; events: number } {
    let requests = 0, events = 0;
    for (const z of this.zones) {
      if (zoneId !== undefined && z.zone.id !== zoneId) continue;
      events += this.generate(z, count);
      requests += count;
    }
    return { requests, events };
  }

  /** The zone's kept security events, oldest first. */
  events(zoneId: string): readonly FirewallEvent[] {
    return this.zoneOf(zoneId)?.events ?? [];
  }

  /** The zone's kept request outcomes, oldest first. */
  outcomes(zoneId: string): readonly Outcome[] {
    return this.zoneOf(zoneId)?.outcomes ?? [];
  }

  /** Counters, events and outcomes back to zero, and the generators back to the start of their seed (the mock's reset). */
  reset(): void {
    for (const z of this.zones) {
      z.generated = 0; z.requests = 0; z.hostile = 0; z.eventCount = 0; z.events = []; z.outcomes = [];
    }
    this.carry = 0;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private zoneOf(id: string): ZoneTraffic | undefined {
    return this.zones.find((z) => z.zone.id === id);
  }

  private schedule(): void {
    const run = !this.cfg.paused && this.cfg.rate > 0;
    if (!run) {
      this.stop();
      this.carry = 0;
      return;
    }
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    this.carry += (this.cfg.rate * TICK_MS) / 1000;
    const n = Math.floor(this.carry);
    if (n === 0) return;
    this.carry -= n;
    try {
      this.step(n);
    } catch (err) {
      this.opts.log?.(`Traffic: a tick failed: ${(err as Error).message}`);
    }
  }

  /** Request numbers are reserved in the state file RESERVE at a time before they are used, so a restarted mock (even after
   * kill -9) never numbers a request of a zone twice, and RayIDs stay unique per zone, at one state write per RESERVE requests. */
  private reserve(z: ZoneTraffic, count: number): void {
    const zs = this.opts.store.zone(z.zone.id);
    if (!zs || z.generated + count <= (zs.trafficNext ?? 0)) return;
    zs.trafficNext = z.generated + count + RESERVE;
    this.saveReservation();
  }

  private saveReservation(): void {
    this.opts.store.save().catch((err: Error) => this.opts.log?.(`Traffic: cannot save the request numbering to the state file: ${err.message}`));
  }

  private generate(z: ZoneTraffic, count: number): number {
    this.reserve(z, count);
    const records: FeedRecord[] = [];
    const events: FirewallEvent[] = [];
    const outcomes: Outcome[] = [];
    const zs = this.opts.store.zone(z.zone.id);
    const state = zs.migration;
    const enabled = rulesEnabled(state);
    const entrypoint = zs.entrypoint;
    for (let i = 0; i < count; i++) {
      const t = this.now();
      const k = z.generated++;
      const h = mix(this.cfg.seed, z.index, k);
      // Made for the zone (its Referer and ZoneName too); every request asks for the zone's own name.
      const rec = sampleHttpRequests(1, h, this.cfg.hostileShare, true, z.zone.name)[0];
      // Unique per zone and request number (the generator's own ray ids may collide over many one-record runs).
      rec.RayID = h.toString(16).padStart(8, '0') + ((((z.index & 0xff) << 24) | (k & 0xffffff)) >>> 0).toString(16).padStart(8, '0');
      rec.ClientRequestHost = z.zone.name;
      rec.EdgeStartTimestamp = new Date(t).toISOString();
      rec.ClientRequestScheme = 'https';
      rec.ClientRequestQuery = queryOf(rec);
      const req = toRequestRecord(rec);
      const previousAlone = evaluatePrevious(z.zone, zs.deletedOverrides, req);
      const newAlone = entrypoint ? evaluateNew(z.zone, entrypoint, req) : undefined;
      const acted: { verdict: Verdict; source: 'waf' | 'firewallmanaged'; wouldOnly: boolean }[] = [];
      let previous: string | null = null, next: string | null = null;
      const mode = state === 'validation' ? 'validation' : 'enforced';
      if (enabled.newRulesEnabled && newAlone) {
        const logOnly = state === 'validation' && this.cfg.validationNewRules === 'log';
        acted.push({ verdict: newAlone, source: 'firewallmanaged', wouldOnly: logOnly });
        next = logOnly ? (newAlone.hits.length ? 'log' : 'pass') : decisive(newAlone);
      }
      if (enabled.oldRulesEnabled && !(next !== null && isTerminating(next))) {
        acted.push({ verdict: previousAlone, source: 'waf', wouldOnly: false });
        previous = decisive(previousAlone);
      }
      const ev = acted.flatMap(({ verdict, source, wouldOnly }) => verdict.hits.map((h) => toEvent(rec, h, source, mode, wouldOnly)));
      ev.forEach((e, k) => { e.MatchIndex = ev.length - 1 - k; });
      const final = ev.find((e) => isTerminating(e.Action));
      if (final) {
        rec.EdgeResponseStatus = 403;
        rec.SecurityAction = securityAction(final.Action);
        rec.SecurityRuleID = final.RuleID;
        rec.SecurityRuleDescription = final.Description;
        for (const e of ev) e.EdgeResponseStatus = 403;
      }
      if (ev.length) {
        rec.SecurityActions = ev.map((e) => securityAction(e.Action));
        rec.SecurityRuleIDs = ev.map((e) => e.RuleID);
        rec.SecuritySources = ev.map((e) => SECURITY_SOURCE[e.Source]);
      }
      if (hostileKind(rec)) z.hostile++;
      records.push(rec);
      events.push(...ev);
      outcomes.push({ t, state, previousAlone: decisive(previousAlone), newAlone: newAlone ? decisive(newAlone) : null, previous, next });
    }
    z.requests += count;
    z.eventCount += events.length;
    pushBounded(z.events, events, EVENTS_PER_ZONE);
    pushBounded(z.outcomes, outcomes, OUTCOMES_PER_ZONE);
    this.opts.feed.append(z.zone.id, 'http_requests', records);
    this.opts.feed.append(z.zone.id, 'firewall_events', events);
    return events.length;
  }
}

/** A firewall_events Action in the http_requests SecurityAction(s) vocabulary (logs/reference/security-fields: managedChallenge,
 * connectionClose; the others are spelled alike). */
function securityAction(action: string): string {
  return action === 'managedchallenge' ? 'managedChallenge' : action === 'connectionclose' ? 'connectionClose' : action;
}

/** A firewall_events Source in the http_requests SecuritySources vocabulary (the datasets' field lists spell them differently). */
const SECURITY_SOURCE: Record<FirewallEvent['Source'], string> = { waf: 'waf', firewallmanaged: 'firewallManaged' };

function queryOf(rec: LogRecord): string {
  const uri = String(rec.ClientRequestURI);
  const q = uri.indexOf('?');
  return q < 0 ? '' : uri.slice(q);
}

function toEvent(rec: LogRecord, h: Hit, source: 'waf' | 'firewallmanaged', mode: 'enforced' | 'validation', wouldOnly: boolean): FirewallEvent {
  const action = wouldOnly ? 'log' : eventAction(h.action);
  return {
    Action: action, ClientASN: 64496, ClientASNDescription: 'EDGEKIT-DOCUMENTATION-AS', ClientCountry: rec.ClientCountry, ClientIP: rec.ClientIP,
    ClientRequestHost: rec.ClientRequestHost, ClientRequestMethod: rec.ClientRequestMethod, ClientRequestPath: rec.ClientRequestPath,
    ClientRequestProtocol: rec.ClientRequestProtocol, ClientRequestQuery: rec.ClientRequestQuery, ClientRequestScheme: 'https',
    ClientRequestUserAgent: rec.ClientRequestUserAgent, Datetime: String(rec.EdgeStartTimestamp), Description: h.description,
    EdgeColoCode: 'AMS', EdgeResponseStatus: Number(rec.EdgeResponseStatus), Kind: 'firewall', MatchIndex: 0, Metadata: { ...h.metadata },
    OriginatorRayID: '00', RayID: String(rec.RayID), Ref: h.ref ?? '', RuleID: h.ruleId, Source: source, EdgeKitMode: mode,
    ...(wouldOnly && h.action !== 'log' ? { EdgeKitWouldAction: eventAction(h.action) } : {}),
  };
}

/** A message naming the first bad member of a traffic configuration, or undefined. */
export function checkConfig(config: object): string | undefined {
  const c = config as Record<string, unknown>;
  if (typeof c.rate !== 'number' || !Number.isFinite(c.rate) || c.rate < 0 || c.rate > MAX_RATE) {
    return `"rate" must be a number of requests per second per zone from 0 to ${MAX_RATE}, not ${JSON.stringify(c.rate)}.`;
  }
  if (typeof c.paused !== 'boolean') return `"paused" must be true or false, not ${JSON.stringify(c.paused)}.`;
  if (typeof c.seed !== 'number' || !Number.isInteger(c.seed) || c.seed < 0 || c.seed > 0xffffffff) {
    return `"seed" must be a whole number from 0 to 4294967295, not ${JSON.stringify(c.seed)}.`;
  }
  if (typeof c.hostileShare !== 'number' || !Number.isFinite(c.hostileShare) || c.hostileShare < 0 || c.hostileShare > 1) {
    return `"hostileShare" must be a number from 0 to 1, not ${JSON.stringify(c.hostileShare)}.`;
  }
  if (c.validationNewRules !== 'enforce' && c.validationNewRules !== 'log') {
    return `"validationNewRules" must be "enforce" or "log", not ${JSON.stringify(c.validationNewRules)}.`;
  }
  return undefined;
}
