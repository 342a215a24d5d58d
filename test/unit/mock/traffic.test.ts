// The mock's traffic (mock/src/traffic/): deterministic synthetic requests per zone, the previous and new managed rules acting on
// them by migration state, security events, the routes, and the bounds. Nothing here sleeps: generation goes through step().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { catalogue, sampleHttpRequests, toRequestRecord, type LogRecord } from '../../../server/src/core';
import { Feed } from '../../../mock/src/feed';
import { StateStore, defaultState, type StoredRuleset } from '../../../mock/src/state';
import { RESERVE, TrafficEngine, type TrafficOptions } from '../../../mock/src/traffic/engine';
import { decisive, evaluateNew, evaluatePrevious, isTerminating, paranoiaLevel } from '../../../mock/src/traffic/waf';
import { summarize } from '../../../mock/src/traffic/routes';
import { MANAGED_SIGNATURES, OLD_OWASP_SCORE_RULE, OLD_OWASP_SIGNATURES, OWASP_SIGNATURES } from '../../../mock/src/traffic/signatures';
import { MANAGED_RULESET_ID, OWASP_RULESET_ID, OWASP_SCORE_RULE_ID, ZONES, deriveConfig, newRuleId, type Zone } from '../../../mock/src/zones';
import { runMockCli } from '../../../mock/src/main';
import { KEY, TOKEN, api, start, type Json } from './helpers';

const T0 = Date.UTC(2026, 10, 24, 12);
const zone = (name: string) => ZONES.find((z) => z.name === name)!;
const PRO = zone('pro.example'), BUSINESS = zone('business.example'), ENT = zone('enterprise.example'), ENT_B = zone('enterprise-b.example');
const URI = zone('uri-overrides.example');

function engine(extra: Partial<TrafficOptions> = {}): { engine: TrafficEngine; feed: Feed; store: StateStore } {
  const feed = new Feed();
  const store = new StateStore(defaultState());
  let t = T0;
  const e = new TrafficEngine({ feed, store, paused: true, now: () => (t += 10), ...extra });
  return { engine: e, feed, store };
}

/** The saved entry point as the migration would store it (deriveConfig's rules with a ref each). */
function entrypoint(z: Zone): StoredRuleset {
  const { config } = deriveConfig(z);
  return { id: 'ep', name: 'default', description: '', kind: 'zone', phase: 'http_request_firewall_managed', version: '1', last_updated: '',
    rules: config.rules.map((r, i) => ({ ...r, id: `r${i}`, ref: `r${i}`, version: '1', last_updated: '' })) };
}

function migrate(store: StateStore, z: Zone, state: 'validation' | 'migrated', ep = entrypoint(z)): void {
  store.zone(z.id).migration = state;
  store.zone(z.id).entrypoint = ep;
}

/** A request record of the rules language for one hand-made request. */
function req(host: string, uri: string, ua = 'Mozilla/5.0', ip = '198.51.100.7'): LogRecord {
  const q = uri.indexOf('?');
  return toRequestRecord({ ClientRequestHost: host, ClientRequestURI: uri, ClientRequestPath: q < 0 ? uri : uri.slice(0, q), ClientRequestUserAgent: ua, ClientIP: ip,
    ClientCountry: 'us', ClientRequestMethod: 'GET', ClientRequestProtocol: 'HTTP/2', BotScore: 5, WAFAttackScore: 10 });
}

/** The same hostile-heavy sample for a zone (its host). */
function traffic(z: Zone, n = 3000, seed = 9): LogRecord[] {
  return sampleHttpRequests(n, seed, 0.6, true).map((r) => toRequestRecord({ ...r, ClientRequestHost: z.name }));
}

function blocked(z: Zone, ep: StoredRuleset, reqs: LogRecord[], ruleId?: string): number {
  return reqs.filter((r) => { const v = evaluateNew(z, ep, r); return v.terminating && (!ruleId || v.terminating.ruleId === ruleId); }).length;
}

function variant(z: Zone, change: (z: Zone) => void): Zone {
  const copy = structuredClone(z) as Zone;
  change(copy);
  return copy;
}
const owaspPkg = (z: Zone) => z.waf.packages.find((p) => p.detection_mode === 'anomaly')!;

test('traffic: the same seed and configuration give the same records and events, however the steps are cut', () => {
  const a = engine({ seed: 42 }), b = engine({ seed: 42 }), c = engine({ seed: 43 });
  a.engine.step(300);
  b.engine.step(100); b.engine.step(120); b.engine.step(80);
  c.engine.step(300);
  for (const z of ZONES) {
    const ra = a.feed.read(z.id, 'http_requests', 0).records, rb = b.feed.read(z.id, 'http_requests', 0).records;
    assert.equal(ra.length, 300);
    const strip = (rs: readonly Record<string, unknown>[]) => rs.map(({ EdgeStartTimestamp: _t, Datetime: _d, ...rest }) => rest);
    assert.deepEqual(strip(ra), strip(rb), z.name);
    assert.deepEqual(strip(a.feed.read(z.id, 'firewall_events', 0).records), strip(b.feed.read(z.id, 'firewall_events', 0).records), z.name);
    assert.notDeepEqual(strip(ra), strip(c.feed.read(z.id, 'http_requests', 0).records));
  }
  // Ray ids are unique within a zone; records are live (the clock's time) and carry the zone's host.
  const rays = a.feed.read(PRO.id, 'http_requests', 0).records.map((r) => r.RayID);
  assert.equal(new Set(rays).size, rays.length);
  // Giving the seed again replays from the start.
  a.engine.update({ seed: 42 });
  a.engine.step(5, PRO.id);
  assert.deepEqual(a.feed.read(PRO.id, 'http_requests', 300).records.map((r) => r.RayID), rays.slice(0, 5));
  const r0 = a.feed.read(PRO.id, 'http_requests', 0, 1).records[0];
  assert.equal(r0.ClientRequestHost, 'pro.example');
  assert.ok(Date.parse(String(r0.EdgeStartTimestamp)) > T0);
  // The zone's own lines: ZoneName and a Referer on the site were example.com's whatever the zone.
  const lines = a.feed.read(PRO.id, 'http_requests', 0).records;
  assert.ok(lines.every((r) => r.ZoneName === 'pro.example'));
  const onSite = lines.map((r) => String(r.ClientRequestReferer)).filter((r) => r && !r.includes('google'));
  assert.ok(onSite.length > 0 && onSite.every((r) => /^https:\/\/([a-z]+\.)?pro\.example\/$/.test(r)), onSite.join());
});

test('traffic: a restarted mock (same state file, even after kill -9) numbers on, so a zone\'s RayIDs never repeat; a seed replays', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-traffic-restart-'));
  const file = path.join(dir, 'state.json');
  try {
    const run = async () => {
      const { store } = await StateStore.open(file);
      const feed = new Feed();
      let t = T0;
      return { engine: new TrafficEngine({ feed, store, paused: true, seed: 5, now: () => (t += 10) }), feed, store };
    };
    const first = await run();
    first.engine.step(50, PRO.id);
    await first.store.save(); // what the reservation's own save writes; the process is then "killed": nothing else is saved
    const rays1 = first.feed.read(PRO.id, 'http_requests', 0).records.map((r) => r.RayID);
    const second = await run();
    second.engine.step(50, PRO.id);
    const rays2 = second.feed.read(PRO.id, 'http_requests', 0).records.map((r) => r.RayID);
    assert.equal(new Set([...rays1, ...rays2]).size, 100, 'no RayID of the first run comes again');
    assert.ok(JSON.parse(fs.readFileSync(file, 'utf8')).zones[PRO.id].trafficNext >= 50 + RESERVE);
    // Giving the seed again replays from request 0, also after a restart.
    second.engine.update({ seed: 5 });
    second.engine.step(5, PRO.id);
    assert.deepEqual(second.feed.read(PRO.id, 'http_requests', 50).records.map((r) => r.RayID), rays1.slice(0, 5));
    await second.store.save();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('traffic: the hostile share is honoured, and with no hostile requests no rule acts', () => {
  const { engine: e } = engine({ hostileShare: 0.3 });
  e.step(4000, PRO.id);
  const s = e.status().zones[PRO.id];
  assert.equal(s.requests, 4000);
  assert.ok(Math.abs(s.hostile - 1200) < 150, `hostile ${s.hostile} of 4000 at 0.3`);
  assert.ok(s.events > 0);
  const none = engine({ hostileShare: 0 });
  none.engine.step(2000);
  for (const z of ZONES) assert.deepEqual([none.engine.status().zones[z.id].hostile, none.engine.status().zones[z.id].events], [0, 0], z.name);
});

test('traffic: start runs the previous rules only (Source waf), migrated the new only (firewallmanaged), both enforced', () => {
  const { engine: e, store } = engine({ hostileShare: 0.5 });
  migrate(store, BUSINESS, 'migrated');
  e.step(1500, PRO.id);
  e.step(1500, BUSINESS.id);
  const start = e.events(PRO.id), migrated = e.events(BUSINESS.id);
  assert.ok(start.length > 50 && migrated.length > 50);
  assert.deepEqual([...new Set(start.map((x) => `${x.Source}/${x.EdgeKitMode}/${x.Kind}`))], ['waf/enforced/firewall']);
  assert.deepEqual([...new Set(migrated.map((x) => `${x.Source}/${x.EdgeKitMode}`))], ['firewallmanaged/enforced']);
  assert.ok(start.some((x) => x.RuleID === OLD_OWASP_SCORE_RULE || /^\d+$|^[A-Z]/.test(x.RuleID)));
  assert.ok(migrated.every((x) => /^[0-9a-f]{32}$/.test(x.RuleID) && String(x.Ref).length > 0));
  const blockedEvent = start.find((x) => x.Action === 'block')!;
  assert.equal(blockedEvent.EdgeResponseStatus, 403);
  assert.equal(blockedEvent.EdgeKitWouldAction, undefined);
});

test('traffic: validation runs the new rules first and enforces them (the platform docs), then the previous ones', () => {
  const { engine: e, store, feed } = engine({ hostileShare: 0.6 });
  migrate(store, ENT, 'validation', (() => {
    // Make the new OWASP set block (not log, as the migrated Simulate does), so that some requests end at the new rules.
    const ep = entrypoint(ENT);
    const ow = ep.rules.find((r) => (r.action_parameters as Json)?.id === OWASP_RULESET_ID)!;
    (ow.action_parameters as Json).overrides.rules[0].action = 'block';
    return ep;
  })());
  e.step(2000, ENT.id);
  const ev = e.events(ENT.id);
  assert.ok(ev.every((x) => x.EdgeKitMode === 'validation'));
  const sources = new Set(ev.map((x) => x.Source));
  assert.deepEqual([...sources].sort(), ['firewallmanaged', 'waf']);
  const byRay = new Map<string, typeof ev[number][]>();
  for (const x of ev) byRay.set(x.RayID, [...(byRay.get(x.RayID) ?? []), x]);
  let endedAtNew = 0;
  for (const list of byRay.values()) {
    const firstWaf = list.findIndex((x) => x.Source === 'waf');
    if (firstWaf > 0) assert.ok(list.slice(0, firstWaf).every((x) => x.Source === 'firewallmanaged'), 'new rules first');
    const stop = list.findIndex((x) => x.Source === 'firewallmanaged' && isTerminating(x.Action));
    if (stop >= 0) { endedAtNew++; assert.equal(stop, list.length - 1, 'nothing runs after a new rule blocks'); assert.equal(list[stop].MatchIndex, 0); }
  }
  assert.ok(endedAtNew > 20);
  assert.ok(ev.every((x) => x.EdgeKitWouldAction === undefined));
  const recs = feed.read(ENT.id, 'http_requests', 0).records;
  const blockedRec = recs.find((r) => r.SecurityAction === 'block')!;
  assert.equal(blockedRec.EdgeResponseStatus, 403);
  assert.ok((blockedRec.SecuritySources as string[]).length >= 1);

  // The option where the new rules only log in validation mode: they record what they would do, and the previous rules decide.
  const logOnly = engine({ hostileShare: 0.6, validationNewRules: 'log' });
  migrate(logOnly.store, ENT, 'validation', store.zone(ENT.id).entrypoint!);
  logOnly.engine.step(2000, ENT.id);
  const fm = logOnly.engine.events(ENT.id).filter((x) => x.Source === 'firewallmanaged');
  assert.ok(fm.every((x) => x.Action === 'log'));
  assert.ok(fm.some((x) => x.EdgeKitWouldAction === 'block'));
  // Switched back through update() (PUT /__edgekit/traffic {"validationNewRules": "enforce"}): enforced again.
  logOnly.engine.update({ validationNewRules: 'enforce' });
  const before = logOnly.engine.events(ENT.id).length;
  logOnly.engine.step(500, ENT.id);
  const later = logOnly.engine.events(ENT.id).slice(before);
  assert.ok(later.some((x) => x.Source === 'firewallmanaged' && x.Action === 'block'));
  assert.ok(later.every((x) => x.EdgeKitWouldAction === undefined));
});

test('waf: the sensitivity table changes outcomes (High vs Low on the same traffic, previous and new)', () => {
  const high = variant(BUSINESS, (z) => { owaspPkg(z).sensitivity = 'high'; });
  const low = variant(BUSINESS, (z) => { owaspPkg(z).sensitivity = 'low'; });
  const reqs = traffic(BUSINESS);
  const epHigh = entrypoint(high), epLow = entrypoint(low);
  const owaspRule = (ep: StoredRuleset) => (ep.rules.find((r) => (r.action_parameters as Json)?.id === OWASP_RULESET_ID)!.action_parameters as Json).overrides;
  assert.equal(paranoiaLevel(owaspRule(epHigh)), 2);
  assert.equal(paranoiaLevel(owaspRule(epLow)), 1);
  const nHigh = blocked(high, epHigh, reqs, OWASP_SCORE_RULE_ID), nLow = blocked(low, epLow, reqs, OWASP_SCORE_RULE_ID);
  assert.ok(nHigh > nLow, `new OWASP blocks: High ${nHigh}, Low ${nLow}`);
  assert.ok(blocked(high, epHigh, reqs) > blocked(low, epLow, reqs));
  const prev = (z: Zone) => reqs.filter((r) => evaluatePrevious(z, [], r).terminating?.ruleId === OLD_OWASP_SCORE_RULE).length;
  assert.ok(prev(high) > prev(low), `previous OWASP blocks: High ${prev(high)}, Low ${prev(low)}`);
});

test('waf: Simulate maps to Log and stops blocking', () => {
  const simulate = variant(PRO, (z) => { owaspPkg(z).action_mode = 'simulate'; });
  const block = variant(PRO, (z) => { owaspPkg(z).action_mode = 'block'; });
  const reqs = traffic(PRO);
  assert.ok(blocked(block, entrypoint(block), reqs, OWASP_SCORE_RULE_ID) > 20);
  assert.equal(blocked(simulate, entrypoint(simulate), reqs, OWASP_SCORE_RULE_ID), 0);
  const logged = reqs.filter((r) => evaluateNew(simulate, entrypoint(simulate), r).hits.some((h) => h.ruleId === OWASP_SCORE_RULE_ID && h.action === 'log'));
  assert.ok(logged.length > 20);
  // The previous set: Simulate logs too.
  assert.ok(reqs.some((r) => evaluatePrevious(simulate, [], r).hits.some((h) => h.ruleId === OLD_OWASP_SCORE_RULE && h.action === 'log')));
  assert.ok(!reqs.some((r) => evaluatePrevious(simulate, [], r).terminating?.ruleId === OLD_OWASP_SCORE_RULE));
});

test('waf: group and rule overrides, previous and migrated (off, simulate -> log, block), and URI-based overrides until deleted', () => {
  const wp = req('business.example', '/wp-login.php'), drupal = req('business.example', '/user/register?element_parents=a/%23value');
  assert.equal(decisive(evaluatePrevious(BUSINESS, [], wp)), 'pass', 'WP0004 is off on business.example');
  assert.equal(decisive(evaluatePrevious(BUSINESS, [], drupal)), 'pass', 'the Drupal group is off');
  assert.equal(decisive(evaluatePrevious(PRO, [], req('pro.example', '/wp-login.php'))), 'block');
  assert.equal(decisive(evaluateNew(BUSINESS, entrypoint(BUSINESS), wp)), 'pass');
  assert.equal(decisive(evaluateNew(BUSINESS, entrypoint(BUSINESS), drupal)), 'pass');
  assert.equal(decisive(evaluateNew(PRO, entrypoint(PRO), req('pro.example', '/wp-login.php'))), 'block');
  const struts = req('enterprise.example', '/login.action?redirect:http://evil.example/');
  for (const v of [evaluatePrevious(ENT, [], struts), evaluateNew(ENT, entrypoint(ENT), struts)]) {
    assert.equal(decisive(v), 'log', '100030 in Simulate logs');
  }
  assert.equal(evaluateNew(ENT, entrypoint(ENT), struts).hits[0].ruleId, newRuleId('100030'));
  // URI-based overrides: 100000 simulated on /api/search* until the overrides are deleted.
  const sqlmap = req('uri-overrides.example', "/api/search?q=1' OR '1'='1", 'sqlmap/1.8');
  assert.equal(evaluatePrevious(URI, [], sqlmap).hits[0].action, 'log');
  assert.equal(evaluatePrevious(URI, URI.waf.uriOverrides.map((o) => o.id), sqlmap).terminating?.ruleId, '100000');
});

test('waf: bypass firewall rules and page rules skip the previous rules, and their migrated skip rules the new ones', () => {
  const attack = (ip: string) => req('pro.example', '/search?q=<script>alert(1)</script>', 'sqlmap/1.8', ip);
  const ep = entrypoint(PRO);
  assert.equal(ep.rules[0].action, 'skip');
  assert.equal(decisive(evaluatePrevious(PRO, [], attack('203.0.113.9'))), 'pass', 'office bypass');
  assert.equal(decisive(evaluateNew(PRO, ep, attack('203.0.113.9'))), 'pass', 'migrated skip rule');
  assert.equal(decisive(evaluatePrevious(PRO, [], attack('198.51.100.9'))), 'block');
  assert.equal(decisive(evaluateNew(PRO, ep, attack('198.51.100.9'))), 'block');
  const noSkip = { ...ep, rules: ep.rules.filter((r) => r.action !== 'skip') };
  assert.equal(decisive(evaluateNew(PRO, noSkip, attack('203.0.113.9'))), 'block', 'without the skip rule the new rules act');
  // Page rule "WAF off" on /static/*; enterprise-b has the WAF off except on /shop/*.
  const trav = req('pro.example', '/static/../../etc/passwd', 'curl/8.5.0');
  assert.equal(decisive(evaluatePrevious(PRO, [], trav)), 'pass');
  assert.equal(decisive(evaluateNew(PRO, ep, trav)), 'pass');
  assert.equal(decisive(evaluatePrevious(PRO, [], req('pro.example', '/x/../../etc/passwd', 'curl/8.5.0'))), 'block');
  const shop = req('enterprise-b.example', '/shop/item?id=1 UNION ALL SELECT NULL,NULL', 'sqlmap/1.8'), search = req('enterprise-b.example', '/search', 'sqlmap/1.8');
  assert.equal(decisive(evaluatePrevious(ENT_B, [], shop)), 'block');
  assert.equal(decisive(evaluatePrevious(ENT_B, [], search)), 'pass');
  assert.equal(decisive(evaluateNew(ENT_B, entrypoint(ENT_B), shop)), 'block');
  assert.equal(decisive(evaluateNew(ENT_B, entrypoint(ENT_B), search)), 'pass');
});

test('waf: only the highest-priority matching page rule applies (the first in the list), previous rules and migrated ones alike', () => {
  // Page Rules docs (rules/page-rules, "Priority order matters"): "Only the highest priority matching page rule takes effect on a
  // request." The mock lists a zone's page rules highest priority first (GET …/pagerules: priority = count - index).
  const onThenOff = variant(ENT_B, (z) => {
    z.waf.pageRules = [
      { id: 'p1', target: 'enterprise-b.example/shop/*', status: 'active', actions: [{ id: 'waf', value: 'on' }] },
      { id: 'p2', target: 'enterprise-b.example/*', status: 'active', actions: [{ id: 'waf', value: 'off' }] },
    ];
  });
  const offThenOn = variant(onThenOff, (z) => { z.waf.pageRules.reverse(); });
  const shop = req('enterprise-b.example', '/shop/item?id=1 UNION ALL SELECT NULL,NULL', 'sqlmap/1.8');
  const other = req('enterprise-b.example', '/search?id=1 UNION ALL SELECT NULL,NULL', 'sqlmap/1.8');
  // /shop/*: the WAF-on rule has the higher priority, so the lower "WAF off" on /* does not apply.
  assert.equal(decisive(evaluatePrevious(onThenOff, [], shop)), 'block');
  assert.equal(decisive(evaluatePrevious(onThenOff, [], other)), 'pass');
  // Reversed: /* (WAF off) comes first and shadows /shop/*.
  assert.equal(decisive(evaluatePrevious(offThenOn, [], shop)), 'pass');
  // The migrated configuration keeps the same outcome.
  assert.equal(decisive(evaluateNew(onThenOff, entrypoint(onThenOff), shop)), 'block');
  assert.equal(decisive(evaluateNew(onThenOff, entrypoint(onThenOff), other)), 'pass');
  assert.equal(decisive(evaluateNew(offThenOn, entrypoint(offThenOn), shop)), 'pass');
  // A zone with the WAF on: a higher "WAF on" page rule shadows a lower "Disable Security" one.
  const on = variant(onThenOff, (z) => { z.waf.enabled = true; z.waf.pageRules[1].actions = [{ id: 'disable_security' }]; });
  assert.equal(decisive(evaluatePrevious(on, [], shop)), 'block');
  assert.equal(decisive(evaluatePrevious(on, [], other)), 'pass');
  assert.equal(decisive(evaluateNew(on, entrypoint(on), shop)), 'block');
  assert.equal(decisive(evaluateNew(on, entrypoint(on), other)), 'pass');
});

test('waf: OWASP anomaly scoring: the sum of the matching signatures at or below the paranoia level against the threshold', () => {
  // "1 UNION SELECT password FROM users": UNION SELECT (PL1, 30) and SQL keywords (PL2, 15).
  const union = req('pro.example', '/api/v1/users?id=1 UNION SELECT password FROM users');
  const ep = (threshold: number, pl: number): StoredRuleset => ({ ...entrypoint(PRO), rules: [{
    id: 'o', ref: 'o', version: '1', last_updated: '', action: 'execute', expression: 'true', description: 'OWASP', enabled: true,
    action_parameters: { id: OWASP_RULESET_ID, overrides: {
      categories: [2, 3, 4].filter((n) => n > pl).map((n) => ({ category: `paranoia-level-${n}`, enabled: false })),
      rules: [{ id: OWASP_SCORE_RULE_ID, action: 'block', score_threshold: threshold }] } },
  }] });
  const at = (threshold: number, pl: number) => evaluateNew(PRO, ep(threshold, pl), union);
  assert.equal(decisive(at(30, 1)), 'block');
  assert.equal(decisive(at(31, 1)), 'pass');
  assert.equal(decisive(at(45, 2)), 'block');
  assert.equal(decisive(at(46, 2)), 'pass');
  assert.equal(at(45, 2).terminating!.metadata.score, '45');
  assert.equal(at(30, 1).terminating!.metadata.paranoia_level, '1');
  // A managed execute rule with a ruleset-level action override.
  const managed: StoredRuleset = { ...entrypoint(PRO), rules: [{ id: 'm', ref: 'm', version: '1', last_updated: '', action: 'execute', expression: 'true', description: '', enabled: true,
    action_parameters: { id: MANAGED_RULESET_ID, overrides: { action: 'managed_challenge' } } }] };
  assert.equal(decisive(evaluateNew(PRO, managed, req('pro.example', '/wp-login.php'))), 'managed_challenge');
});

test('traffic: no timer while paused or at rate 0; a timer (unref\'d) only while traffic runs', async () => {
  const { engine: e } = engine();
  assert.equal(e.timerActive, false);
  assert.equal(e.update({ paused: false, rate: 5 }), undefined);
  assert.equal(e.timerActive, true);
  e.update({ rate: 0 });
  assert.equal(e.timerActive, false);
  e.update({ rate: 3 });
  e.update({ paused: true });
  assert.equal(e.timerActive, false);
  assert.match(e.update({ rate: 101 })!, /"rate" must be .* 0 to 100/);
  assert.match(e.update({ hostileShare: 2 })!, /"hostileShare"/);
  assert.match(e.update({ seed: -1 })!, /"seed"/);
  assert.throws(() => engine({ rate: -1 }), /"rate"/);
  const running = await start();
  try {
    assert.equal(running.traffic.timerActive, true, 'traffic is on by default');
    assert.deepEqual({ rate: running.traffic.config.rate, paused: running.traffic.config.paused }, { rate: 2, paused: false });
  } finally {
    await running.close();
  }
  assert.equal(running.traffic.timerActive, false, 'closed: no timer');
  const paused = await start({ traffic: { paused: true } });
  try { assert.equal(paused.traffic.timerActive, false); } finally { await paused.close(); }
});

test('routes: /__edgekit/traffic (GET, PUT, step) with credentials and 400s naming the member', async () => {
  const b = await start({ traffic: { paused: true, seed: 7 } });
  try {
    const base = b.url;
    assert.equal((await api(base, 'GET', '/__edgekit/traffic', {})).status, 400, 'no credentials');
    const g = await api(base, 'GET', '/__edgekit/traffic', TOKEN);
    assert.equal(g.status, 200);
    assert.deepEqual(Object.keys(g.json).sort(), ['hostileShare', 'paused', 'rate', 'seed', 'validationNewRules', 'zones']);
    assert.deepEqual([g.json.rate, g.json.paused, g.json.seed], [2, true, 7]);
    assert.deepEqual(Object.keys(g.json.zones).sort(), ZONES.map((z) => z.id).sort());
    for (const [body, member] of [[{ rate: 101 }, 'rate'], [{ rate: 'fast' }, 'rate'], [{ paused: 'yes' }, 'paused'], [{ seed: 1.5 }, 'seed'], [{ hostileShare: -0.1 }, 'hostileShare'], [{ validationNewRules: 'maybe' }, 'validationNewRules'], [{ speed: 1 }, 'speed']] as const) {
      const r = await api(base, 'PUT', '/__edgekit/traffic', KEY, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.json.errors[0].message, new RegExp(`"${member}"`));
    }
    const p = await api(base, 'PUT', '/__edgekit/traffic', TOKEN, { rate: 10, hostileShare: 0.5 });
    assert.deepEqual([p.status, p.json.rate, p.json.hostileShare, p.json.paused], [200, 10, 0.5, true]);
    assert.equal(b.traffic.timerActive, false);
    for (const body of [{ count: 0 }, { count: 10_001 }, { count: 'x' }, { zone: 'nope', count: 1 }, {}]) {
      const r = await api(base, 'POST', '/__edgekit/traffic/step', TOKEN, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.json.errors[0].message, /"(count|zone)"/);
    }
    const one = await api(base, 'POST', '/__edgekit/traffic/step', TOKEN, { zone: PRO.id, count: 200 });
    assert.equal(one.status, 200);
    assert.equal(one.json.requests, 200);
    assert.equal(one.json.events, b.traffic.events(PRO.id).length);
    const all = await api(base, 'POST', '/__edgekit/traffic/step', TOKEN, { count: 10 });
    assert.equal(all.json.requests, 10 * ZONES.length);
    const after = (await api(base, 'GET', '/__edgekit/traffic', TOKEN)).json;
    assert.equal(after.zones[PRO.id].requests, 210);
    assert.equal(after.zones[BUSINESS.id].requests, 10);
    assert.equal((await api(base, 'DELETE', '/__edgekit/traffic', TOKEN)).status, 405);
  } finally {
    await b.close();
  }
});

test('routes: GET /zones/:zone/security/events filters, pages newest first, refuses bad parameters', async () => {
  const b = await start({ traffic: { paused: true, hostileShare: 0.5 } });
  try {
    const api4 = b.apiBaseUrl;
    b.traffic.step(600, PRO.id);
    const all = b.traffic.events(PRO.id);
    const path = `/zones/${PRO.id}/security/events`;
    const first = await api(api4, 'GET', path, TOKEN);
    assert.equal(first.status, 200);
    assert.equal(first.json.success, true);
    assert.equal(first.json.result.length, 50);
    assert.equal(first.json.result_info.total_count, all.length);
    assert.deepEqual(first.json.result.map((e: Json) => e.RayID + e.RuleID), [...all].reverse().slice(0, 50).map((e) => e.RayID + e.RuleID), 'newest first');
    const page2 = await api(api4, 'GET', `${path}?per_page=7&page=2`, KEY);
    assert.deepEqual(page2.json.result.map((e: Json) => e.RayID + e.RuleID), [...all].reverse().slice(7, 14).map((e) => e.RayID + e.RuleID));
    const blocks = await api(api4, 'GET', `${path}?action=block&per_page=1000`, TOKEN);
    assert.equal(blocks.json.result_info.total_count, all.filter((e) => e.Action === 'block').length);
    const oneRule = all[0].RuleID;
    const byRule = await api(api4, 'GET', `${path}?rule_id=${oneRule}&source=waf&per_page=1000`, TOKEN);
    assert.equal(byRule.json.result_info.total_count, all.filter((e) => e.RuleID === oneRule).length);
    assert.equal((await api(api4, 'GET', `${path}?source=firewallManaged`, TOKEN)).json.result_info.total_count, 0);
    const byRay = await api(api4, 'GET', `${path}?ray_id=${all[3].RayID}`, TOKEN);
    assert.ok(byRay.json.result.length >= 1 && byRay.json.result.every((e: Json) => e.RayID === all[3].RayID));
    const mid = all[Math.floor(all.length / 2)].Datetime;
    const since = await api(api4, 'GET', `${path}?since=${mid}&per_page=1000`, TOKEN);
    assert.equal(since.json.result_info.total_count, all.filter((e) => e.Datetime >= mid).length);
    const until = await api(api4, 'GET', `${path}?until=${mid}&per_page=1000`, TOKEN);
    assert.equal(until.json.result_info.total_count, all.filter((e) => e.Datetime <= mid).length);
    for (const [q, name] of [['per_page=0', 'per_page'], ['per_page=1001', 'per_page'], ['page=0', 'page'], ['since=yesterday', 'since'], ['until=2026-13-45T00:00:00Z', 'until']]) {
      const r = await api(api4, 'GET', `${path}?${q}`, TOKEN);
      assert.equal(r.status, 400, q);
      assert.match(r.json.errors[0].message, new RegExp(`"${name}"`));
    }
    assert.equal((await api(api4, 'GET', `${path}?since=2026-11-25T00:00:00Z&until=2026-11-24T00:00:00Z`, TOKEN)).status, 400);
    assert.equal((await api(api4, 'GET', `/zones/0123456789abcdef0123456789abcdef/security/events`, TOKEN)).status, 400);
    assert.equal((await api(api4, 'GET', path, {})).status, 400);
  } finally {
    await b.close();
  }
});

test('routes: a migrated zone\'s summary says what the new rules do and what the previous ones would have done (ui4: "would block" there)', async () => {
  const b = await start({ traffic: { paused: true, hostileShare: 0.6 } });
  try {
    const { config } = deriveConfig(ENT);
    const ow = (config.rules.find((r) => (r.action_parameters as Json)?.id === OWASP_RULESET_ID)!.action_parameters as Json).overrides;
    ow.rules[0] = { ...ow.rules[0], action: 'block', score_threshold: 25 };
    const put = await api(b.apiBaseUrl, 'PUT', `/zones/${ENT.id}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`, TOKEN, config);
    assert.equal(put.status, 200, JSON.stringify(put.json.errors));
    assert.equal((await api(b.url, 'POST', '/__edgekit/traffic/step', TOKEN, { zone: ENT.id, count: 1500 })).status, 200);
    const s = (await api(b.url, 'GET', `/__edgekit/zones/${ENT.id}/security/summary`, TOKEN)).json;
    assert.equal(s.state, 'migrated');
    const c = s.comparison;
    assert.ok(c.newBlocksPreviousLogged + c.newBlocksPreviousPassed > 0, JSON.stringify(c));
    assert.deepEqual(s.sentences.slice(1), [
      `The new rules block ${c.newBlocksPreviousLogged} request${c.newBlocksPreviousLogged === 1 ? '' : 's'} the previous ones would only have logged.`,
      `The new rules block ${c.newBlocksPreviousPassed} request${c.newBlocksPreviousPassed === 1 ? '' : 's'} the previous ones would have let through.`,
      `${c.previousBlockedNowPass} request${c.previousBlockedNowPass === 1 ? '' : 's'} the previous rules would have blocked now pass.`,
      `${c.previousBlockedNewLogs} request${c.previousBlockedNewLogs === 1 ? '' : 's'} the previous rules would have blocked are only logged by the new ones.`,
      `The new rules block ${c.bothBlock} request${c.bothBlock === 1 ? '' : 's'} the previous ones would have blocked too.`,
    ]);
  } finally {
    await b.close();
  }
});

test('routes: the summary of a zone in validation mode matches a count done here from the records', async () => {
  const b = await start({ traffic: { paused: true, hostileShare: 0.6 } });
  try {
    // Validation mode with an adjusted config: the managed rule WP0025B off (the previous rules block what now passes) and the new
    // OWASP set blocking at PL1/25 (it blocks what the previous OWASP set, High with Simulate, only logged).
    const { config } = deriveConfig(ENT);
    const managed = config.rules.find((r) => (r.action_parameters as Json)?.id === MANAGED_RULESET_ID)!;
    (managed.action_parameters as Json).overrides.rules.push({ id: newRuleId('WP0025B'), enabled: false });
    const ow = (config.rules.find((r) => (r.action_parameters as Json)?.id === OWASP_RULESET_ID)!.action_parameters as Json).overrides;
    ow.categories = [2, 3, 4].map((n) => ({ category: `paranoia-level-${n}`, enabled: false }));
    ow.rules[0] = { ...ow.rules[0], action: 'block', score_threshold: 25 };
    const put = await api(b.apiBaseUrl, 'PUT', `/zones/${ENT.id}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=validation&phase_two=1`, TOKEN, config);
    assert.equal(put.status, 200, JSON.stringify(put.json.errors));
    const step = await api(b.url, 'POST', '/__edgekit/traffic/step', TOKEN, { zone: ENT.id, count: 1500 });
    assert.equal(step.status, 200);
    const r = await api(b.url, 'GET', `/__edgekit/zones/${ENT.id}/security/summary`, TOKEN);
    assert.equal(r.status, 200);
    const s = r.json;
    assert.equal(s.zone, ENT.id);
    assert.equal(s.state, 'validation');
    assert.equal(s.requests, 1500);

    // The independent count: every delivered record run through each rule set alone.
    const ep = b.traffic && (await api(b.apiBaseUrl, 'GET', `/zones/${ENT.id}/rulesets/phases/http_request_firewall_managed/entrypoint`, TOKEN)).json.result;
    const c = { newBlocksPreviousLogged: 0, newBlocksPreviousPassed: 0, previousBlockedNowPass: 0, previousBlockedNewLogs: 0, bothBlock: 0 };
    const prevActions: Record<string, number> = {}, newActions: Record<string, number> = {};
    for (const rec of b.feed.read(ENT.id, 'http_requests', 0).records) {
      const rq = toRequestRecord(rec);
      const p = decisive(evaluatePrevious(ENT, [], rq)), n = decisive(evaluateNew(ENT, ep, rq));
      const pb = isTerminating(p), nb = isTerminating(n);
      if (pb && nb) c.bothBlock++;
      else if (nb && p === 'log') c.newBlocksPreviousLogged++;
      else if (nb) c.newBlocksPreviousPassed++;
      else if (pb && n === 'log') c.previousBlockedNewLogs++;
      else if (pb) c.previousBlockedNowPass++;
      if (n !== 'pass') newActions[n] = (newActions[n] ?? 0) + 1;
      if (!nb && p !== 'pass') prevActions[p] = (prevActions[p] ?? 0) + 1;
    }
    assert.deepEqual(s.comparison, c);
    assert.deepEqual(s.new.actions, newActions);
    assert.deepEqual(s.previous.actions, prevActions);
    assert.ok(c.newBlocksPreviousLogged > 0 && c.previousBlockedNowPass > 0 && c.bothBlock > 0, JSON.stringify(c));
    assert.ok(s.sentences.includes(`The new rules would block ${c.newBlocksPreviousLogged} requests the previous ones only logged.`), s.sentences.join('\n'));
    assert.ok(s.sentences.includes(`${c.previousBlockedNowPass} requests the previous rules blocked now pass.`));
    // A window with no request.
    const empty = await api(b.url, 'GET', `/__edgekit/zones/${ENT.id}/security/summary?since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z`, TOKEN);
    assert.deepEqual([empty.json.requests, empty.json.previous.acted, empty.json.comparison.bothBlock], [0, 0, 0]);
    assert.equal((await api(b.url, 'GET', `/__edgekit/zones/${ENT.id}/security/summary?since=nope`, TOKEN)).status, 400);
    assert.equal((await api(b.url, 'GET', `/__edgekit/zones/nope/security/summary`, TOKEN)).status, 404);
    assert.equal((await api(b.url, 'GET', `/__edgekit/zones/${ENT.id}/security/summary`, {})).status, 400);
  } finally {
    await b.close();
  }
});

test('summarize: a zone with no saved new rules has nothing to compare', () => {
  const s = summarize('z', 'start', [{ t: 1, state: 'start', previousAlone: 'block', newAlone: null, previous: 'block', next: null }], 0, 2);
  assert.deepEqual([s.requests, s.previous.acted, s.previous.actions.block, s.new.acted], [1, 1, 1, 0]);
  assert.match(s.sentences.join(' '), /nothing to compare/);
});

test('routes: POST /__edgekit/reset empties the traffic counters, events and feed, and replays from the seed', async () => {
  const b = await start({ traffic: { paused: true } });
  try {
    b.traffic.step(300, PRO.id);
    const rays = b.feed.read(PRO.id, 'http_requests', 0, 3).records.map((r) => r.RayID);
    assert.ok(b.traffic.events(PRO.id).length > 0);
    const r = await api(b.url, 'POST', '/__edgekit/reset', TOKEN);
    assert.equal(r.status, 200);
    assert.deepEqual(b.traffic.status().zones[PRO.id], { requests: 0, events: 0, hostile: 0 });
    assert.equal((await api(b.apiBaseUrl, 'GET', `/zones/${PRO.id}/security/events`, TOKEN)).json.result_info.total_count, 0);
    const from = b.feed.next(PRO.id, 'http_requests');
    assert.deepEqual(b.feed.read(PRO.id, 'http_requests', 0).records, []);
    b.traffic.step(3, PRO.id);
    assert.deepEqual(b.feed.read(PRO.id, 'http_requests', from).records.map((x) => x.RayID), rays);
    await b.reset();
    assert.equal(b.traffic.status().zones[PRO.id].requests, 0);
  } finally {
    await b.close();
  }
});

test('edgekit mock: --traffic-rate, --traffic-seed and --traffic-paused are checked and used', async () => {
  for (const argv of [['--traffic-rate', '101'], ['--traffic-rate', 'x'], ['--traffic-seed', '-3'], ['--traffic-seed', '99999999999']]) {
    let err = '';
    const code = await runMockCli(['--port', '0', ...argv], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve() });
    assert.equal(code, 2, argv.join(' '));
    assert.match(err, new RegExp(argv[0]));
  }
  let out = '';
  const code = await runMockCli(['--port', '0', '--traffic-rate', '0.5', '--traffic-seed', '9', '--traffic-paused'], { stdout: (s) => { out += s; }, stderr: () => undefined },
    { stop: Promise.resolve(), env: {} });
  assert.equal(code, 0);
  assert.match(out, /^Traffic: 0\.5 requests\/s per zone, seed 9 \(paused/m);
});

test('docs/mock-backend.md documents every signature as signatures.ts has it', () => {
  const page = fs.readFileSync(path.resolve(__dirname, '../../../docs/mock-backend.md'), 'utf8');
  const section = page.slice(page.indexOf('### The signatures'), page.indexOf('### Security events'));
  for (const s of MANAGED_SIGNATURES) assert.ok(section.includes(`| \`${s.oldRule}\` |`), s.oldRule);
  for (const s of OLD_OWASP_SIGNATURES) assert.ok(section.includes(`\`${s.oldRule}\`, ${s.score} |`), s.oldRule);
  const rows = OWASP_SIGNATURES.map((s) => `PL${s.paranoiaLevel}, ${s.score} |`);
  const documented = section.split('\n').filter((l) => /\| PL\d, \d+ \|$/.test(l)).map((l) => l.slice(l.lastIndexOf('| PL') + 2));
  assert.deepEqual(documented.sort(), rows.sort());
});

test('traffic: a rule with several overridden tags takes the last tag override in the list (the platform\'s override order)', () => {
  // Rule 100000 (sqlmap user agent) is tagged cloudflare-specials and sqli.
  const sqlmap = req('pro.example', '/', 'sqlmap/1.7');
  const ep = (categories: { category: string; action?: string; enabled?: boolean }[]): StoredRuleset => ({ ...entrypoint(PRO), rules: [{
    id: 'm', ref: 'm', version: '1', last_updated: '', action: 'execute', expression: 'true', description: '', enabled: true,
    action_parameters: { id: MANAGED_RULESET_ID, overrides: { categories } } }] });
  const first = evaluateNew(PRO, ep([{ category: 'cloudflare-specials', action: 'log' }, { category: 'sqli', action: 'managed_challenge' }]), sqlmap);
  assert.equal(first.hits.find((h) => h.ruleId === newRuleId('100000'))?.action, 'managed_challenge');
  const second = evaluateNew(PRO, ep([{ category: 'sqli', action: 'managed_challenge' }, { category: 'cloudflare-specials', action: 'log' }]), sqlmap);
  assert.equal(second.hits.find((h) => h.ruleId === newRuleId('100000'))?.action, 'log');
  // The same for enabled: the later tag override re-enables the rule.
  const enabled = evaluateNew(PRO, ep([{ category: 'cloudflare-specials', enabled: false }, { category: 'sqli', enabled: true }]), sqlmap);
  assert.ok(enabled.hits.some((h) => h.ruleId === newRuleId('100000')));
  const disabled = evaluateNew(PRO, ep([{ category: 'sqli', enabled: true }, { category: 'cloudflare-specials', enabled: false }]), sqlmap);
  assert.ok(!disabled.hits.some((h) => h.ruleId === newRuleId('100000')));
});

test('traffic: firewall_events Source and http_requests SecuritySources use each dataset\'s own vocabulary (firewallmanaged vs firewallManaged)', () => {
  const { engine: e, store, feed } = engine({ hostileShare: 0.6 });
  migrate(store, ENT, 'validation');
  e.step(1500, ENT.id);
  const values = (dataset: string, field: string) => new Set((catalogue.logpush.datasetFields(dataset) ?? []).find((f) => f.name === field)?.values ?? []);
  const sources = values('firewall_events', 'Source'), securitySources = values('http_requests', 'SecuritySources');
  assert.ok(sources.has('firewallmanaged') && securitySources.has('firewallManaged'), 'the catalogue lists both spellings');
  const events = feed.read(ENT.id, 'firewall_events', 0).records;
  assert.deepEqual([...new Set(events.map((x) => x.Source))].sort(), ['firewallmanaged', 'waf']);
  const recs = feed.read(ENT.id, 'http_requests', 0).records.filter((r) => Array.isArray(r.SecuritySources));
  const used = new Set(recs.flatMap((r) => r.SecuritySources as string[]));
  assert.deepEqual([...used].sort(), ['firewallManaged', 'waf']);
  for (const s of used) assert.ok(securitySources.has(s), s);
});

test('traffic: a managed challenge is "managedchallenge" in firewall_events (Action) and "managedChallenge" in http_requests (SecurityAction, SecurityActions)', () => {
  const { engine: e, store, feed } = engine({ hostileShare: 0.6 });
  const ep = entrypoint(PRO);
  const managed = ep.rules.find((r) => (r.action_parameters as Json)?.id === MANAGED_RULESET_ID)!;
  (managed.action_parameters as Json).overrides = { action: 'managed_challenge' };
  migrate(store, PRO, 'migrated', ep);
  e.step(2000, PRO.id);
  const events = feed.read(PRO.id, 'firewall_events', 0).records;
  assert.ok(events.some((x) => x.Action === 'managedchallenge'), 'firewall_events says managedchallenge');
  const recs = feed.read(PRO.id, 'http_requests', 0).records.filter((r) => Array.isArray(r.SecurityActions));
  const challenged = recs.filter((r) => (r.SecurityActions as string[]).some((a) => a.toLowerCase() === 'managedchallenge'));
  assert.ok(challenged.length > 0);
  for (const r of challenged) assert.ok((r.SecurityActions as string[]).every((a) => a !== 'managedchallenge'), JSON.stringify(r.SecurityActions));
  assert.ok(challenged.some((r) => r.SecurityAction === 'managedChallenge'), 'the terminating action in the http_requests vocabulary');
});

test('summarize: the span is said as people read it, not as two ISO stamps (the migration question quotes it)', async () => {
  // Seen in the workbench (ui6): "944 requests from 2026-11-27T10:12:30.623Z to 2026-11-27T10:20:25.110Z".
  const { spanWords } = await import('../../../mock/src/traffic/routes');
  const since = Date.UTC(2026, 10, 27, 10, 12, 30, 623), until = Date.UTC(2026, 10, 27, 10, 20, 25, 110);
  const s = summarize('z', 'validation', [], since, until);
  assert.equal(s.sentences[0], '0 requests from 10:12:30 to 10:20:25 UTC on 2026-11-27 (migration state: validation).');
  assert.equal(s.since, '2026-11-27T10:12:30.623Z', 'the stamps stay for programs');
  assert.equal(s.span, 'from 10:12:30 to 10:20:25 UTC on 2026-11-27', 'the words, for the Security Events view\'s tooltip');
  assert.equal(spanWords(Date.UTC(2026, 10, 26, 23, 50), Date.UTC(2026, 10, 27, 0, 10)), 'from 2026-11-26 23:50:00 to 2026-11-27 00:10:00 UTC');
});

test('edgekit mock --host with an address other machines reach: a warning on stderr that it is reachable from them, and without the Host check', async () => {
  // The mock binds to 127.0.0.1 unless --host says otherwise; --host 0.0.0.0 served every interface, its generated credentials
  // printed, with no word that anyone who reaches this machine could use it.
  const run = async (host: string) => {
    let err = '';
    const code = await runMockCli(['--host', host, '--port', '0', '--traffic-paused'], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env: {} });
    return { code, err };
  };
  const open = await run('0.0.0.0');
  assert.equal(open.code, 0);
  assert.match(open.err, /--host 0\.0\.0\.0 is not a loopback address: other machines that reach this one can use the mock/);
  for (const host of ['127.0.0.1', 'localhost']) assert.doesNotMatch((await run(host)).err, /loopback/, host);
  // Other spellings of loopback: the server listens on ::1 or 127.0.0.1 and keeps the Host check, and nothing is reachable from
  // other machines; they were warned of as reachable
  for (const host of ['0:0:0:0:0:0:0:1', '127.1']) {
    const r = await run(host);
    assert.equal(r.code, 0, host);
    assert.doesNotMatch(r.err, /loopback/, host);
  }
  // An IPv6 address written as in a URL, in brackets, is that address; it was "--host [::1] does not resolve to an address" (rv18)
  const bracketed = await run('[::1]');
  assert.equal(bracketed.code, 0, bracketed.err);
  assert.doesNotMatch(bracketed.err, /loopback|resolve/);
});

test('edgekit mock --host [] (brackets round nothing) is refused as --host "" is; it listened on every interface', async () => {
  // sec4: the brackets were taken off after the check for an empty value, and an empty host is Node's "every interface" (::).
  let err = '';
  const code = await runMockCli(['--host', '[]', '--port', '0', '--traffic-paused'], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env: {} });
  assert.equal(code, 2, err);
  assert.match(err, /^edgekit mock: --host needs an address, not "\[\]"\./);
});
