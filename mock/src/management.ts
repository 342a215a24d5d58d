// The mock management API under /client/v4: zones, Logpush jobs (X-Auth-Key + X-Auth-Email), the managed-rules migration and the
// entry point ruleset (Authorization: Bearer), and the previous managed-rules API that stops answering once a zone has migrated.
// Every response is the envelope {success, errors, messages, result}. No vscode; I/O goes through the StateStore.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { validateText } from '../../server/src/core/validate';
import type { MigrationState } from './migration';
import { parseMode, rulesEnabled, transition } from './migration';
import type { LogpushJob, StateStore, StoredRuleset, ZoneState } from './state';
import type { NewRule, Zone } from './zones';
import { MAX_EXPRESSION_LENGTH, MANAGED_RULESET_ID, OWASP_RULESET_ID, ZONES, deriveConfig, migrationBlockers, zoneById, zoneJson } from './zones';

/** The id `GET /user/tokens/verify` reports for the mock's API token. */
const TOKEN_ID = 'ed9e4c3a0b1f4d2c8e7f6a5b4c3d2e1f';

export interface Credentials { apiToken: string; apiKey: string; apiEmail: string }

export interface ApiRequest {
  method: string;
  /** Path below /client/v4, e.g. /zones/<id>/logpush/jobs. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface EnvelopeMessage { code: number; message: string }
export interface Envelope { success: boolean; errors: EnvelopeMessage[]; messages: EnvelopeMessage[]; result: unknown; result_info?: Record<string, number> }
export interface ApiReply { status: number; body: Envelope }

export function ok(result: unknown, messages: EnvelopeMessage[] = [], status = 200): ApiReply {
  return { status, body: { success: true, errors: [], messages, result } };
}

export function fail(status: number, code: number, message: string, more: EnvelopeMessage[] = []): ApiReply {
  return { status, body: { success: false, errors: [{ code, message }, ...more], messages: [], result: null } };
}

function failMany(status: number, errors: EnvelopeMessage[]): ApiReply {
  return { status, body: { success: false, errors, messages: [], result: null } };
}

/** Constant-time comparison: both sides hashed to equal-length digests first, so neither content nor length leaks. */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

type AuthKind = 'token' | 'key' | 'either';

/** undefined when authenticated, else the 401/403 reply. Credentials are never echoed or logged. */
function authenticate(req: ApiRequest, creds: Credentials, kind: AuthKind): ApiReply | undefined {
  const auth = header(req.headers, 'authorization');
  const key = header(req.headers, 'x-auth-key');
  const email = header(req.headers, 'x-auth-email');
  const bearer = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  const tokenOk = bearer !== undefined && safeEqual(bearer, creds.apiToken);
  // Evaluate both halves so the timing does not tell which one was wrong.
  const keyOk = key !== undefined && email !== undefined && [safeEqual(key, creds.apiKey), safeEqual(email.toLowerCase(), creds.apiEmail.toLowerCase())].every(Boolean);
  if (kind === 'token') {
    if (tokenOk) return undefined;
    if (bearer !== undefined) return fail(401, 9109, 'Invalid access token.');
    if (keyOk) return fail(403, 10000, 'Authentication error: this endpoint needs an API token (Authorization: Bearer <API_TOKEN>), not an API key.');
    return fail(401, 10000, 'Authentication error: missing credentials; send Authorization: Bearer <API_TOKEN>.');
  }
  if (kind === 'key') {
    if (keyOk) return undefined;
    if (key !== undefined || email !== undefined) return fail(401, 9103, 'Unknown X-Auth-Key or X-Auth-Email.');
    if (tokenOk) return fail(403, 10000, 'Authentication error: Logpush jobs here need X-Auth-Key and X-Auth-Email, not an API token.');
    return fail(401, 10000, 'Authentication error: missing credentials; send X-Auth-Key and X-Auth-Email.');
  }
  if (tokenOk || keyOk) return undefined;
  if (bearer !== undefined) return fail(401, 9109, 'Invalid access token.');
  if (key !== undefined || email !== undefined) return fail(401, 9103, 'Unknown X-Auth-Key or X-Auth-Email.');
  return fail(401, 10000, 'Authentication error: missing credentials; send Authorization: Bearer <API_TOKEN>, or X-Auth-Key and X-Auth-Email.');
}

/** Serialises work per key (a zone id): one state transition at a time, so concurrent requests never tear a zone's state. */
export class KeyedLock {
  private tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

const NOT_FOUND = (path: string): ApiReply => fail(404, 7000, `No route for "${path}".`);
const METHOD_NOT_ALLOWED = (method: string, path: string): ApiReply => fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJsonBody(body: string): { value: unknown } | { error: ApiReply } {
  if (!body.trim()) return { error: fail(400, 10026, 'The request body is empty; a JSON object is expected.') };
  try {
    return { value: JSON.parse(body) };
  } catch (err) {
    return { error: fail(400, 10026, `The request body is not valid JSON: ${(err as Error).message}.`) };
  }
}

export class ManagementApi {
  private readonly lock = new KeyedLock();

  constructor(private readonly store: StateStore, private readonly creds: Credentials) {}

  /** undefined when the headers carry this mock's API token or key pair, else the 401/403 reply. */
  authenticate(headers: ApiRequest['headers']): ApiReply | undefined {
    return authenticate({ method: 'POST', path: '', query: new URLSearchParams(), headers, body: '' }, this.creds, 'either');
  }

  async handle(req: ApiRequest): Promise<ApiReply> {
    const parts = req.path.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    if (req.path === '/user/tokens/verify') {
      if (req.method !== 'GET') return METHOD_NOT_ALLOWED(req.method, req.path);
      return authenticate(req, this.creds, 'token') ?? ok({ id: TOKEN_ID, status: 'active' });
    }
    if (parts[0] !== 'zones') return NOT_FOUND(req.path);
    if (parts.length === 1) {
      if (req.method !== 'GET') return METHOD_NOT_ALLOWED(req.method, req.path);
      return authenticate(req, this.creds, 'either') ?? this.listZones(req);
    }
    const kind: AuthKind = parts[2] === 'logpush' ? 'key' : parts.length === 2 ? 'either' : 'token';
    const denied = authenticate(req, this.creds, kind);
    if (denied) return denied;
    const zone = zoneById(parts[1]);
    if (!zone) return fail(404, 7003, `Could not route to /zones/${parts[1]}: no zone has that id.`);
    const rest = parts.slice(2);
    const route = rest.join('/');
    if (rest.length === 0) return req.method === 'GET' ? ok(zoneJson(zone)) : METHOD_NOT_ALLOWED(req.method, req.path);
    if (rest[0] === 'logpush' && rest[1] === 'jobs') return this.logpush(req, zone, rest.slice(2));
    if (route === 'waf_migration/check') return req.method === 'GET' ? this.check(req, zone) : METHOD_NOT_ALLOWED(req.method, req.path);
    if (route === 'waf_migration/config') return req.method === 'GET' ? this.config(req, zone) : METHOD_NOT_ALLOWED(req.method, req.path);
    if (route === 'waf_migration/status') return req.method === 'GET' ? this.status(zone) : METHOD_NOT_ALLOWED(req.method, req.path);
    if (route === 'rulesets/phases/http_request_firewall_managed/entrypoint') {
      if (req.method === 'GET') return this.getEntrypoint(zone);
      if (req.method === 'PUT') return this.putEntrypoint(req, zone);
      return METHOD_NOT_ALLOWED(req.method, req.path);
    }
    if (rest[0] === 'firewall' && rest[1] === 'waf') return this.oldWaf(req, zone, rest.slice(2));
    if (route === 'firewall/rules' && req.method === 'GET') return ok(zone.waf.firewallRules.map(({ id, description, expression, action, products, paused }) => ({ id, description, paused, action, ...(products ? { products } : {}), filter: { expression } })));
    if (route === 'pagerules' && req.method === 'GET') {
      return ok(zone.waf.pageRules.map((p) => ({ id: p.id, status: p.status, targets: [{ target: 'url', constraint: { operator: 'matches', value: p.target } }], actions: p.actions })));
    }
    return NOT_FOUND(req.path);
  }

  private listZones(req: ApiRequest): ApiReply {
    const name = req.query.get('name');
    const zones = ZONES.filter((z) => !name || z.name === name).map(zoneJson);
    return { status: 200, body: { success: true, errors: [], messages: [], result: zones, result_info: { page: 1, per_page: 50, count: zones.length, total_count: zones.length, total_pages: 1 } } };
  }

  // ---- migration ----

  private remainingOverrides(zone: Zone, zs: ZoneState): number {
    return zone.waf.uriOverrides.filter((o) => !zs.deletedOverrides.includes(o.id)).length;
  }

  private phaseTwo(req: ApiRequest): ApiReply | undefined {
    const v = req.query.get('phase_two');
    if (v === '1') return undefined;
    return fail(400, 10500, v === null ? 'The query parameter phase_two=1 is required (phase one of the migration has ended).' : `phase_two must be 1, not "${v}".`);
  }

  private check(req: ApiRequest, zone: Zone): ApiReply {
    const bad = this.phaseTwo(req);
    if (bad) return bad;
    const zs = this.store.zone(zone.id);
    const blockers = zs.migration === 'start' ? migrationBlockers(zone, this.remainingOverrides(zone, zs)) : [];
    return ok({ compatible: blockers.length === 0, migration_state: zs.migration }, blockers.map((message) => ({ code: 10502, message })));
  }

  private config(req: ApiRequest, zone: Zone): ApiReply {
    const bad = this.phaseTwo(req);
    if (bad) return bad;
    const { config, notes } = deriveConfig(zone);
    return ok(config, notes.map((message) => ({ code: 10510, message })));
  }

  private status(zone: Zone): ApiReply {
    return ok(statusRecord(this.store.zone(zone.id).migration));
  }

  private getEntrypoint(zone: Zone): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (!ep) return fail(404, 10003, `Zone "${zone.name}" has no entry point ruleset for phase http_request_firewall_managed yet.`);
    return ok(ep);
  }

  private async putEntrypoint(req: ApiRequest, zone: Zone): Promise<ApiReply> {
    const modeParam = req.query.get('waf_migration');
    const mode = modeParam === null ? undefined : parseMode(modeParam);
    if (modeParam !== null && !mode) return fail(400, 10501, `waf_migration must be pending, 1, validation or 2, not "${modeParam}".`);
    if (mode) {
      const bad = this.phaseTwo(req);
      if (bad) return bad;
    }
    if (mode) {
      // A zone that cannot move says so before its body is looked at (the lock below decides again, atomically).
      const zs = this.store.zone(zone.id);
      const t = transition(zs.migration, mode, { plan: zone.plan, blockers: migrationBlockers(zone, this.remainingOverrides(zone, zs)) });
      if (!t.ok) return fail(t.status, t.code, t.message);
    }
    const parsed = parseJsonBody(req.body);
    if ('error' in parsed) return parsed.error;
    const errors = checkRulesetBody(parsed.value);
    if (errors.length) return failMany(400, errors);
    const body = parsed.value as { name: string; description?: string; rules: NewRule[] };
    return this.lock.run(zone.id, async () => {
      const zs = this.store.zone(zone.id);
      const messages: EnvelopeMessage[] = [];
      if (mode) {
        const t = transition(zs.migration, mode, { plan: zone.plan, blockers: migrationBlockers(zone, this.remainingOverrides(zone, zs)) });
        if (!t.ok) return fail(t.status, t.code, t.message);
        messages.push({ code: 10511, message: `Migration state ${zs.migration} -> ${t.next}.` });
        zs.migration = t.next;
      } else if (zs.migration === 'start' && zone.plan !== 'enterprise' && body.rules.some((r) => r.enabled !== false)) {
        return fail(400, 10507, `Zone "${zone.name}" (${zone.plan}) has not migrated; without waf_migration every rule must have "enabled": false.`);
      }
      zs.entrypoint = storeRuleset(zone, zs.entrypoint, body);
      await this.store.save();
      return ok(zs.entrypoint, messages);
    });
  }

  // ---- the previous managed-rules API ----

  private oldWaf(req: ApiRequest, zone: Zone, rest: string[]): Promise<ApiReply> | ApiReply {
    const zs = this.store.zone(zone.id);
    if (zs.migration === 'migrated') {
      return fail(400, 10506, `Zone "${zone.name}" has migrated to the new managed rules; the previous managed-rules API no longer works for it; use the rulesets API (phase http_request_firewall_managed).`);
    }
    if (rest[0] === 'overrides') return this.overrides(req, zone, rest.slice(1));
    if (rest[0] !== 'packages') return NOT_FOUND(req.path);
    if (req.method !== 'GET') return METHOD_NOT_ALLOWED(req.method, req.path);
    const pkgJson = (p: Zone['waf']['packages'][number]) => ({
      id: p.id, name: p.name, description: p.description, detection_mode: p.detection_mode, zone_id: zone.id, status: 'active',
      ...(p.sensitivity ? { sensitivity: p.sensitivity, action_mode: p.action_mode } : {}),
    });
    if (rest.length === 1) return ok(zone.waf.packages.map(pkgJson));
    const pkg = zone.waf.packages.find((p) => p.id === rest[1]);
    if (!pkg) return fail(404, 1002, `Package "${rest[1]}" not found in zone "${zone.name}".`);
    if (rest.length === 2) return ok(pkgJson(pkg));
    const groupJson = (g: (typeof pkg.groups)[number]) => ({
      id: g.id, name: g.name, description: g.description, mode: g.mode, allowed_modes: ['on', 'off'], package_id: pkg.id,
      rules_count: g.rules.length, modified_rules_count: g.rules.filter((r) => r.mode !== r.default_mode).length,
    });
    const ruleJson = (g: (typeof pkg.groups)[number], r: (typeof g.rules)[number]) => ({
      id: r.id, description: r.description, priority: r.priority, package_id: pkg.id, group: { id: g.id, name: g.name },
      mode: r.mode, default_mode: r.default_mode, allowed_modes: r.allowed_modes,
    });
    if (rest[2] === 'groups') {
      if (rest.length === 3) return ok(pkg.groups.map(groupJson));
      const g = pkg.groups.find((x) => x.id === rest[3]);
      return g && rest.length === 4 ? ok(groupJson(g)) : fail(404, 1003, `Group "${rest[3]}" not found in package "${pkg.name}".`);
    }
    if (rest[2] === 'rules') {
      const all = pkg.groups.flatMap((g) => g.rules.map((r) => ruleJson(g, r)));
      if (rest.length === 3) return ok(all);
      const r = all.find((x) => x.id === rest[3]);
      return r && rest.length === 4 ? ok(r) : fail(404, 1004, `Rule "${rest[3]}" not found in package "${pkg.name}".`);
    }
    return NOT_FOUND(req.path);
  }

  private overrides(req: ApiRequest, zone: Zone, rest: string[]): Promise<ApiReply> | ApiReply {
    const zs = this.store.zone(zone.id);
    const live = zone.waf.uriOverrides.filter((o) => !zs.deletedOverrides.includes(o.id));
    if (rest.length === 0) return req.method === 'GET' ? ok(live) : METHOD_NOT_ALLOWED(req.method, req.path);
    if (rest.length !== 1) return NOT_FOUND(req.path);
    const o = live.find((x) => x.id === rest[0]);
    if (req.method === 'GET') return o ? ok(o) : fail(404, 1005, `URI-based override "${rest[0]}" not found in zone "${zone.name}".`);
    if (req.method !== 'DELETE') return METHOD_NOT_ALLOWED(req.method, req.path);
    return this.lock.run(zone.id, async () => {
      const cur = this.store.zone(zone.id);
      if (cur.migration === 'migrated') return fail(400, 10506, `Zone "${zone.name}" has migrated; the previous managed-rules API no longer works for it.`);
      if (!o || cur.deletedOverrides.includes(o.id)) return fail(404, 1005, `URI-based override "${rest[0]}" not found in zone "${zone.name}".`);
      cur.deletedOverrides.push(o.id);
      await this.store.save();
      return ok({ id: o.id });
    });
  }

  // ---- Logpush ----

  private logpush(req: ApiRequest, zone: Zone, rest: string[]): Promise<ApiReply> | ApiReply {
    const zs = this.store.zone(zone.id);
    if (rest.length === 0) {
      if (req.method === 'GET') return ok(zs.jobs);
      if (req.method !== 'POST') return METHOD_NOT_ALLOWED(req.method, req.path);
      const parsed = parseJsonBody(req.body);
      if ('error' in parsed) return parsed.error;
      const errors = checkJob(parsed.value);
      if (errors.length) return failMany(400, errors);
      return this.lock.run(zone.id, async () => {
        const job: LogpushJob = {
          id: this.store.state.nextJobId++, enabled: false, name: null, dataset: 'http_requests', logpull_options: null, frequency: 'high', kind: '',
          ...(parsed.value as Record<string, unknown>), last_complete: null, last_error: null, error_message: null,
        };
        delete job.$schema;
        this.store.zone(zone.id).jobs.push(job);
        await this.store.save();
        return ok(job);
      });
    }
    if (rest.length !== 1 || !/^\d+$/.test(rest[0])) return NOT_FOUND(req.path);
    const jobId = Number(rest[0]);
    const notFound = fail(404, 1003, `Logpush job ${jobId} not found in zone "${zone.name}".`);
    if (req.method === 'GET') {
      const job = zs.jobs.find((j) => j.id === jobId);
      return job ? ok(job) : notFound;
    }
    if (req.method === 'PUT') {
      const parsed = parseJsonBody(req.body);
      if ('error' in parsed) return parsed.error;
      if (!isObj(parsed.value)) return fail(400, 1004, 'The job update must be a JSON object.');
      const update = parsed.value;
      return this.lock.run(zone.id, async () => {
        const jobs = this.store.zone(zone.id).jobs;
        const i = jobs.findIndex((j) => j.id === jobId);
        if (i < 0) return notFound;
        const old = jobs[i];
        for (const k of ['dataset', 'kind'] as const) {
          if (k in update && update[k] !== old[k]) return fail(400, 1004, `"${k}" of a Logpush job cannot change after creation (it is ${JSON.stringify(old[k])}).`);
        }
        const merged: LogpushJob = { ...old, ...update, id: old.id };
        const errors = checkJob(clientFields(merged));
        if (errors.length) return failMany(400, errors);
        jobs[i] = merged;
        await this.store.save();
        return ok(merged);
      });
    }
    if (req.method === 'DELETE') {
      return this.lock.run(zone.id, async () => {
        const jobs = this.store.zone(zone.id).jobs;
        const i = jobs.findIndex((j) => j.id === jobId);
        if (i < 0) return notFound;
        jobs.splice(i, 1);
        await this.store.save();
        return ok({ id: jobId });
      });
    }
    return METHOD_NOT_ALLOWED(req.method, req.path);
  }
}

export function statusRecord(state: MigrationState): { migration_state: MigrationState; old_rules_enabled: boolean; new_rules_enabled: boolean } {
  const e = rulesEnabled(state);
  return { migration_state: state, old_rules_enabled: e.oldRulesEnabled, new_rules_enabled: e.newRulesEnabled };
}

const SERVER_FIELDS = ['id', 'last_complete', 'last_error', 'error_message'];

function clientFields(job: LogpushJob): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(job)) if (!SERVER_FIELDS.includes(k) && v !== null) out[k] = v;
  return out;
}

/** A Logpush job checked by the editor's core: every error-severity problem becomes an envelope error. */
export function checkJob(job: unknown): EnvelopeMessage[] {
  if (!isObj(job)) return [{ code: 1004, message: 'A Logpush job must be a JSON object.' }];
  return validateText(JSON.stringify(job), 'logpush-job')
    .filter((p) => p.severity === 'error')
    .map((p) => ({ code: 1004, message: `${p.message} (${p.code})` }));
}

const MANAGED_IDS = new Set([MANAGED_RULESET_ID, OWASP_RULESET_ID, 'c2e184081120413c86c3ab7e14069605', '77454fe2d30c4220b5701f6fdfb893ba']);
const PHASE_ACTIONS = new Set(['execute', 'skip', 'log']);

/** Structural checks of an entry point update body (name, rules and the execute/skip parameters). */
export function checkRulesetBody(body: unknown): EnvelopeMessage[] {
  const errs: EnvelopeMessage[] = [];
  const e = (message: string) => errs.push({ code: 20021, message });
  if (!isObj(body)) return [{ code: 20021, message: 'The ruleset body must be a JSON object with "name" and "rules".' }];
  if (typeof body.name !== 'string' || !body.name) e('"name" must be a non-empty string.');
  if (!Array.isArray(body.rules)) {
    e('"rules" must be an array.');
    return errs;
  }
  const executed = new Set<string>();
  body.rules.forEach((r: unknown, i) => {
    const at = `rules[${i}]`;
    if (!isObj(r)) return e(`${at} must be an object.`);
    if (typeof r.action !== 'string' || !PHASE_ACTIONS.has(r.action)) e(`${at}.action ${JSON.stringify(r.action)} is not allowed in phase http_request_firewall_managed (execute, skip or log).`);
    if (typeof r.expression !== 'string' || !r.expression.trim()) e(`${at}.expression must be a non-empty string.`);
    else if (r.expression.length > MAX_EXPRESSION_LENGTH) e(`${at}.expression is ${r.expression.length} characters, over the limit of ${MAX_EXPRESSION_LENGTH}.`);
    if ('enabled' in r && typeof r.enabled !== 'boolean') e(`${at}.enabled must be true or false, not ${JSON.stringify(r.enabled)}.`);
    for (const k of ['id', 'version', 'ref', 'description'] as const) {
      if (k in r && typeof r[k] !== 'string') e(`${at}.${k} must be a string, not ${JSON.stringify(r[k])}.`);
    }
    if (typeof r.id === 'string' && r.id !== '' && !/^[0-9a-f]{32}$/.test(r.id)) e(`${at}.id "${r.id}" is not a 32-character hex rule id.`);
    const ap = r.action_parameters;
    if (r.action === 'execute') {
      if (!isObj(ap) || typeof ap.id !== 'string') return e(`${at}.action_parameters.id is required for action execute.`);
      if (!MANAGED_IDS.has(ap.id)) e(`${at}.action_parameters.id "${ap.id}" is not a managed ruleset of phase http_request_firewall_managed.`);
      else if (executed.has(ap.id)) e(`${at} executes managed ruleset "${ap.id}" again; a zone deploys each managed ruleset once.`);
      executed.add(ap.id);
      if ('overrides' in ap) checkOverrides(ap.overrides, `${at}.action_parameters.overrides`, e);
    } else if (r.action === 'skip' && !isObj(ap)) {
      e(`${at}.action_parameters is required for action skip (for example {"ruleset": "current"}).`);
    }
    return undefined;
  });
  return errs;
}

function checkOverrides(o: unknown, at: string, e: (m: string) => void): void {
  if (!isObj(o)) return e(`${at} must be an object.`);
  for (const list of ['rules', 'categories'] as const) {
    if (!(list in o)) continue;
    const items = o[list];
    if (!Array.isArray(items) || items.length === 0) {
      e(`${at}.${list} must be a non-empty array.`);
      continue;
    }
    items.forEach((x: unknown, i) => {
      const p = `${at}.${list}[${i}]`;
      if (!isObj(x)) return e(`${p} must be an object.`);
      const idKey = list === 'rules' ? 'id' : 'category';
      if (typeof x[idKey] !== 'string' || !x[idKey]) e(`${p}.${idKey} must be a non-empty string.`);
      if ('action' in x && (typeof x.action !== 'string' || !/^[a-z_]+$/.test(x.action))) e(`${p}.action ${JSON.stringify(x.action)} is not an action name.`);
      if ('enabled' in x && typeof x.enabled !== 'boolean') e(`${p}.enabled must be true or false.`);
      if ('score_threshold' in x && (typeof x.score_threshold !== 'number' || !Number.isInteger(x.score_threshold))) e(`${p}.score_threshold must be an integer.`);
      return undefined;
    });
  }
  return undefined;
}

function storeRuleset(zone: Zone, prev: StoredRuleset | null, body: { name: string; description?: string; rules: NewRule[] }): StoredRuleset {
  const version = String(prev ? Number(prev.version) + 1 : 1);
  const now = new Date().toISOString();
  const id = createHash('sha256').update(`${zone.id}|entrypoint`).digest('hex').slice(0, 32);
  return {
    id, name: prev?.name ?? body.name, description: body.description ?? '', kind: 'zone', phase: 'http_request_firewall_managed', version, last_updated: now,
    rules: body.rules.map((r, i) => {
      const rid = r.id && /^[0-9a-f]{32}$/.test(r.id) ? r.id : createHash('sha256').update(`${zone.id}|rule|${version}|${i}`).digest('hex').slice(0, 32);
      return { ...r, id: rid, ref: r.ref || rid, version, enabled: r.enabled !== false, last_updated: now };
    }),
  };
}
