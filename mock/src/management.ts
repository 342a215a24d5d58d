// The mock management API under /client/v4: zones, Logpush jobs (X-Auth-Key + X-Auth-Email), the managed-rules migration and the
// entry point ruleset (Authorization: Bearer), and the previous managed-rules API that stops answering once a zone has migrated.
// Every response is the envelope {success, errors, messages, result}. No vscode; I/O goes through the StateStore.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { catalogue, getLanguageService, isObj } from '../../server/src/core';

const core = getLanguageService();
import type { MigrationState } from './migration';
import { parseMode, rulesEnabled, transition } from './migration';
import type { LogpushJob, StateStore, StoredRuleset, ZoneState } from './state';
import type { NewRule, Zone } from './zones';
import { ACCOUNTS, ZONES, accountById, accountJson, deriveConfig, migrationBlockers, zoneById, zoneJson, type Account } from './zones';

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

export type AuthKind = 'token' | 'key' | 'either';

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

  /** The route table's answer to a request, in the envelope; unknown paths get 404, known paths with another method 405. */
  async handle(req: ApiRequest): Promise<ApiReply> {
    const segments = req.path.split('/').filter(Boolean);
    let pathMatched = false;
    for (const route of ROUTES) {
      const params = matchPath(route.segments, segments);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      if (route.auth !== 'none') {
        const denied = authenticate(req, this.creds, route.auth);
        if (denied) return denied;
      }
      let zone: Zone | undefined;
      if (params.zone !== undefined) {
        zone = zoneById(params.zone);
        if (!zone) return fail(404, 7003, `Could not route to /zones/${params.zone}: no zone has that id.`);
      }
      let account: Account | undefined;
      if (params.account !== undefined) {
        account = accountById(params.account);
        if (!account) return fail(404, 7003, `Could not route to /accounts/${params.account}: no account has that id.`);
      }
      return route.handler.call(this, { req, params, zone: zone!, account });
    }
    return pathMatched ? METHOD_NOT_ALLOWED(req.method, req.path) : NOT_FOUND(req.path);
  }

  private verifyToken(): ApiReply {
    return ok({ id: TOKEN_ID, status: 'active' });
  }

  /** GET /zones: name (exact, or "contains:"/"starts_with:"/"ends_with:" as the API takes it), status, account.id, order
   * (name|status|account.id|account.name), direction, page, per_page (5-50, default 20). */
  private listZones(req: ApiRequest): ApiReply {
    const q = req.query;
    const bad = badParams(q, { order: ['name', 'status', 'account.id', 'account.name'] });
    if (bad) return bad;
    let zones = ZONES.map(zoneJson);
    const name = q.get('name');
    if (name) zones = zones.filter((z) => textMatch(String(z.name), name));
    const status = q.get('status');
    if (status) zones = zones.filter((z) => z.status === status);
    const account = q.get('account.id');
    if (account) zones = zones.filter((z) => (z.account as { id: string }).id === account);
    return paginate(req, sortBy(zones, q.get('order') ?? 'name', q.get('direction')), 20);
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

  /** Refused once the zone has migrated: that API stops working for it. */
  private migrated(zone: Zone): ApiReply | undefined {
    if (this.store.zone(zone.id).migration !== 'migrated') return undefined;
    return fail(400, 10506, `Zone "${zone.name}" has migrated to the new managed rules; the previous managed-rules API no longer works for it; use the rulesets API (phase http_request_firewall_managed).`);
  }

  private wafPackage(zone: Zone, id: string | undefined): { pkg: Zone['waf']['packages'][number] } | { error: ApiReply } {
    const pkg = zone.waf.packages.find((p) => p.id === id);
    return pkg ? { pkg } : { error: fail(404, 1002, `Package "${id}" not found in zone "${zone.name}".`) };
  }

  private wafPackages({ zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    if (params.pkg === undefined) return ok(zone.waf.packages.map((p) => pkgJson(zone, p)));
    const found = this.wafPackage(zone, params.pkg);
    return 'error' in found ? found.error : ok(pkgJson(zone, found.pkg));
  }

  private wafGroups({ zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    const found = this.wafPackage(zone, params.pkg);
    if ('error' in found) return found.error;
    const { pkg } = found;
    const groupJson = (g: (typeof pkg.groups)[number]) => ({
      id: g.id, name: g.name, description: g.description, mode: g.mode, allowed_modes: ['on', 'off'], package_id: pkg.id,
      rules_count: g.rules.length, modified_rules_count: g.rules.filter((r) => r.mode !== r.default_mode).length,
    });
    if (params.group === undefined) return ok(pkg.groups.map(groupJson));
    const g = pkg.groups.find((x) => x.id === params.group);
    return g ? ok(groupJson(g)) : fail(404, 1003, `Group "${params.group}" not found in package "${pkg.name}".`);
  }

  private wafRules({ zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    const found = this.wafPackage(zone, params.pkg);
    if ('error' in found) return found.error;
    const { pkg } = found;
    const all = pkg.groups.flatMap((g) => g.rules.map((r) => ({
      id: r.id, description: r.description, priority: r.priority, package_id: pkg.id, group: { id: g.id, name: g.name },
      mode: r.mode, default_mode: r.default_mode, allowed_modes: r.allowed_modes,
    })));
    if (params.rule === undefined) return ok(all);
    const r = all.find((x) => x.id === params.rule);
    return r ? ok(r) : fail(404, 1004, `Rule "${params.rule}" not found in package "${pkg.name}".`);
  }

  private liveOverrides(zone: Zone) {
    const zs = this.store.zone(zone.id);
    return zone.waf.uriOverrides.filter((o) => !zs.deletedOverrides.includes(o.id));
  }

  private getOverrides({ zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    const live = this.liveOverrides(zone);
    if (params.override === undefined) return ok(live);
    const o = live.find((x) => x.id === params.override);
    return o ? ok(o) : fail(404, 1005, `URI-based override "${params.override}" not found in zone "${zone.name}".`);
  }

  private deleteOverride({ zone, params }: RouteCtx): ApiReply | Promise<ApiReply> {
    const done = this.migrated(zone);
    if (done) return done;
    return this.lock.run(zone.id, async () => {
      const cur = this.store.zone(zone.id);
      if (cur.migration === 'migrated') return fail(400, 10506, `Zone "${zone.name}" has migrated; the previous managed-rules API no longer works for it.`);
      const o = this.liveOverrides(zone).find((x) => x.id === params.override);
      if (!o) return fail(404, 1005, `URI-based override "${params.override}" not found in zone "${zone.name}".`);
      cur.deletedOverrides.push(o.id);
      await this.store.save();
      return ok({ id: o.id });
    });
  }

  private firewallRules({ zone }: RouteCtx): ApiReply {
    return ok(zone.waf.firewallRules.map(({ id, description, expression, action, products, paused }) => ({ id, description, paused, action, ...(products ? { products } : {}), filter: { expression } })));
  }

  private pageRules({ zone }: RouteCtx): ApiReply {
    return ok(zone.waf.pageRules.map((p) => ({ id: p.id, status: p.status, targets: [{ target: 'url', constraint: { operator: 'matches', value: p.target } }], actions: p.actions })));
  }

  // ---- Logpush (zone and account jobs) ----

  /** The jobs a route's zone or account holds, how to name the owner in a message, and the scope its datasets must have. */
  private owner(ctx: RouteCtx): { jobs: () => LogpushJob[]; label: string; key: string; scope: 'zone' | 'account'; path: string } {
    if (ctx.account) {
      const a = ctx.account;
      return { jobs: () => this.store.state.accounts[a.id].jobs, label: `account "${a.name}"`, key: `account:${a.id}`, scope: 'account', path: `/accounts/${a.id}/logpush/jobs` };
    }
    const z = ctx.zone;
    return { jobs: () => this.store.zone(z.id).jobs, label: `zone "${z.name}"`, key: z.id, scope: 'zone', path: `/zones/${z.id}/logpush/jobs` };
  }

  private listJobs(ctx: RouteCtx): ApiReply {
    return ok(this.owner(ctx).jobs());
  }

  private createJob(ctx: RouteCtx): ApiReply | Promise<ApiReply> {
    const owner = this.owner(ctx);
    const parsed = parseJsonBody(ctx.req.body);
    if ('error' in parsed) return parsed.error;
    const errors = checkJob(parsed.value);
    if (errors.length) return failMany(400, errors);
    const dataset = String((parsed.value as Record<string, unknown>).dataset ?? 'http_requests');
    const scope = catalogue.logpush.datasetInfo(dataset)?.scope;
    if (scope && scope !== owner.scope) {
      const where = scope === 'account' ? '/accounts/<account_id>/logpush/jobs' : '/zones/<zone_id>/logpush/jobs';
      return fail(400, 1004, `Dataset "${dataset}" is ${scope === 'account' ? 'an account' : 'a zone'} dataset; create its job under ${where}, not under ${owner.label}.`);
    }
    return this.lock.run(owner.key, async () => {
      const job: LogpushJob = {
        id: this.store.state.nextJobId++, enabled: false, name: null, dataset: 'http_requests', logpull_options: null, output_options: null, frequency: 'high', kind: '',
          max_upload_bytes: null, max_upload_records: null, max_upload_interval_seconds: null, ownership_challenge: null,
        ...(parsed.value as Record<string, unknown>), last_complete: null, last_error: null, error_message: null,
      };
      delete job.$schema;
      owner.jobs().push(job);
      await this.store.save();
      return ok(job);
    });
  }

  /** The job id of the path, or the 404 reply (a path whose id is not a number names no job route). */
  private jobId({ req, params }: RouteCtx): number | ApiReply {
    return /^\d+$/.test(params.job) ? Number(params.job) : NOT_FOUND(req.path);
  }

  private jobNotFound(label: string, jobId: number): ApiReply {
    return fail(404, 1003, `Logpush job ${jobId} not found in ${label}.`);
  }

  private getJob(ctx: RouteCtx): ApiReply {
    const jobId = this.jobId(ctx);
    if (typeof jobId !== 'number') return jobId;
    const owner = this.owner(ctx);
    const job = owner.jobs().find((j) => j.id === jobId);
    return job ? ok(job) : this.jobNotFound(owner.label, jobId);
  }

  private updateJob(ctx: RouteCtx): ApiReply | Promise<ApiReply> {
    const jobId = this.jobId(ctx);
    if (typeof jobId !== 'number') return jobId;
    const owner = this.owner(ctx);
    const parsed = parseJsonBody(ctx.req.body);
    if ('error' in parsed) return parsed.error;
    if (!isObj(parsed.value)) return fail(400, 1004, 'The job update must be a JSON object.');
    const update = parsed.value;
    return this.lock.run(owner.key, async () => {
      const jobs = owner.jobs();
      const i = jobs.findIndex((j) => j.id === jobId);
      if (i < 0) return this.jobNotFound(owner.label, jobId);
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

  private deleteJob(ctx: RouteCtx): ApiReply | Promise<ApiReply> {
    const jobId = this.jobId(ctx);
    if (typeof jobId !== 'number') return jobId;
    const owner = this.owner(ctx);
    return this.lock.run(owner.key, async () => {
      const jobs = owner.jobs();
      const i = jobs.findIndex((j) => j.id === jobId);
      if (i < 0) return this.jobNotFound(owner.label, jobId);
      jobs.splice(i, 1);
      await this.store.save();
      return ok({ id: jobId });
    });
  }

  // ---- Logpush helpers around the jobs: fields, validation, the destination ownership challenge ----

  /** GET …/logpush/datasets/:dataset/fields: each field's description by name, from the editor's catalogue. */
  private datasetFields({ params }: RouteCtx): ApiReply {
    const info = catalogue.logpush.datasetInfo(params.dataset);
    if (!info) return fail(400, 1004, `Unknown dataset "${params.dataset}".`);
    const fields = catalogue.logpush.datasetFields(params.dataset) ?? [];
    return ok(Object.fromEntries(fields.map((f) => [f.name, f.description])));
  }

  /** The editor's core on a job holding just this value: the error-severity problems whose codes start with `prefix`. */
  private jobProblems(member: 'destination_conf' | 'logpull_options', value: unknown, prefix: RegExp): string[] {
    if (typeof value !== 'string' || !value) return [`"${member}" must be a non-empty string.`];
    const job = { name: 'validate', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1', [member]: value };
    return core.validate(JSON.stringify(job), 'logpush-job').filter((p) => p.severity === 'error' && prefix.test(p.code)).map((p) => p.message);
  }

  private validateDestination({ req }: RouteCtx): ApiReply {
    const body = parseJsonBody(req.body);
    if ('error' in body) return body.error;
    const problems = this.jobProblems('destination_conf', (body.value as Record<string, unknown> | null)?.destination_conf, /^(logpush\/destination|schema\/)/);
    return ok({ valid: problems.length === 0, message: problems.join(' ') });
  }

  private destinationExists(ctx: RouteCtx): ApiReply {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const conf = (body.value as Record<string, unknown> | null)?.destination_conf;
    return ok({ exists: this.owner(ctx).jobs().some((j) => j.destination_conf === conf) });
  }

  private validateOrigin({ req }: RouteCtx): ApiReply {
    const body = parseJsonBody(req.body);
    if ('error' in body) return body.error;
    const problems = this.jobProblems('logpull_options', (body.value as Record<string, unknown> | null)?.logpull_options, /^(logpush\/(logpull|option|field|timestamps)|schema\/)/);
    return ok({ valid: problems.length === 0, message: problems.join(' ') });
  }

  /** The challenge token for a destination: derived from it and the owner, so the mock keeps no state for it. */
  private challenge(ctx: RouteCtx, conf: string): string {
    return createHash('sha256').update(`${this.owner(ctx).key}|ownership|${conf}`).digest('base64url');
  }

  /** POST …/logpush/ownership: the platform writes a file holding a token into the destination; the mock names the file and
   * hands the token back in its message (there is no bucket to write to). */
  private createOwnership(ctx: RouteCtx): ApiReply {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const conf = (body.value as Record<string, unknown> | null)?.destination_conf;
    const problems = this.jobProblems('destination_conf', conf, /^(logpush\/destination|schema\/)/);
    if (problems.length) return fail(400, 1002, problems.join(' '));
    const token = this.challenge(ctx, String(conf));
    return ok({ filename: `ownership-challenge-${token.slice(0, 8)}.txt`, message: `The mock has no bucket to write to; the token is ${token}.`, valid: true });
  }

  private validateOwnership(ctx: RouteCtx): ApiReply {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const b = (body.value ?? {}) as Record<string, unknown>;
    if (typeof b.destination_conf !== 'string' || typeof b.ownership_challenge !== 'string') {
      return fail(400, 1002, 'The body needs "destination_conf" and "ownership_challenge" strings.');
    }
    return ok({ valid: b.ownership_challenge === this.challenge(ctx, b.destination_conf) });
  }

  // ---- rulesets of a zone (read) ----

  private rulesetsOf(zone: Zone): Record<string, unknown>[] {
    const ep = this.store.zone(zone.id).entrypoint;
    const managed = catalogue.rulesets.managed.map((r) => ({
      id: r.id, name: r.name, description: r.note ?? '', kind: 'managed', phase: r.phase, version: '1', last_updated: MANAGED_UPDATED,
    }));
    const meta = ep ? [{ id: ep.id, name: ep.name, description: ep.description, kind: ep.kind, phase: ep.phase, version: ep.version, last_updated: ep.last_updated }] : [];
    return [...meta, ...managed];
  }

  /** GET /zones/:zone/rulesets: the zone's entry point rulesets and the managed rulesets it can deploy (without their rules). */
  private listRulesets({ zone }: RouteCtx): ApiReply {
    return ok(this.rulesetsOf(zone));
  }

  private getRuleset({ zone, params }: RouteCtx): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (ep && ep.id === params.ruleset) return ok(ep);
    const meta = this.rulesetsOf(zone).find((r) => r.id === params.ruleset);
    return meta ? ok({ ...meta, rules: [] }) : fail(404, 10003, `No ruleset "${params.ruleset}" in zone "${zone.name}".`);
  }

  /** The entry point's versions: 1..current. The mock keeps the rules of the current version only (docs/mock-backend.md). */
  private rulesetVersions({ zone, params }: RouteCtx): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (ep && ep.id === params.ruleset) {
      return ok(Array.from({ length: Number(ep.version) }, (_, i) => ({ id: ep.id, name: ep.name, kind: ep.kind, phase: ep.phase, version: String(i + 1), last_updated: ep.last_updated })));
    }
    const managed = this.rulesetsOf(zone).find((r) => r.id === params.ruleset);
    return managed ? ok([{ ...managed }]) : fail(404, 10003, `No ruleset "${params.ruleset}" in zone "${zone.name}".`);
  }

  private rulesetVersion({ zone, params }: RouteCtx): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (ep && ep.id === params.ruleset && params.version === ep.version) return ok(ep);
    return fail(404, 10003, `Version ${params.version} of ruleset "${params.ruleset}" is not kept by the mock (it keeps the current version of the entry point only).`);
  }

  /** GET /zones/:zone/rulesets/phases/:phase/entrypoint for a phase other than the managed one: the zone has none. */
  private phaseEntrypoint({ zone, params }: RouteCtx): ApiReply {
    if (!(catalogue.rulesets.phases as readonly string[]).includes(params.phase)) return fail(400, 10001, `"${params.phase}" is not a ruleset phase.`);
    return fail(404, 10003, `Zone "${zone.name}" has no entry point ruleset for phase ${params.phase}.`);
  }

  /** GET /accounts: name, direction, page, per_page (5-50, default 20). */
  private listAccounts(ctx: RouteCtx): ApiReply {
    const q = ctx.req.query;
    const bad = badParams(q, {});
    if (bad) return bad;
    let accounts = ACCOUNTS.map(accountJson);
    const name = q.get('name');
    if (name) accounts = accounts.filter((a) => textMatch(String(a.name), name));
    return paginate(ctx.req, sortBy(accounts, 'name', q.get('direction')), 20);
  }
}

// ---- list parameters, as the API takes them ----

/** A 400 in the envelope for a malformed page, per_page, direction or order; undefined when they are fine. */
function badParams(q: URLSearchParams, allowed: { order?: string[] }): ApiReply | undefined {
  for (const [name, min, max] of [['page', 1, 1e9], ['per_page', 5, 50]] as const) {
    const v = q.get(name);
    if (v !== null && (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)) return fail(400, 1001, `"${name}" must be a whole number from ${min} to ${max === 1e9 ? 'the last page' : max}, not "${v}".`);
  }
  const direction = q.get('direction');
  if (direction !== null && direction !== 'asc' && direction !== 'desc') return fail(400, 1001, `"direction" must be asc or desc, not "${direction}".`);
  const order = q.get('order');
  if (order !== null && !(allowed.order ?? []).includes(order)) {
    return fail(400, 1001, allowed.order ? `"order" must be one of ${allowed.order.join(', ')}, not "${order}".` : `This list cannot be ordered ("order" is "${order}").`);
  }
  return undefined;
}

/** The API's name filter: exact, or "contains:x", "starts_with:x", "ends_with:x" (case-insensitive). */
function textMatch(value: string, filter: string): boolean {
  const m = /^(contains|starts_with|ends_with|equal):(.*)$/.exec(filter);
  if (!m) return value === filter;
  const v = value.toLowerCase(), f = m[2].toLowerCase();
  return m[1] === 'contains' ? v.includes(f) : m[1] === 'starts_with' ? v.startsWith(f) : m[1] === 'ends_with' ? v.endsWith(f) : v === f;
}

function sortBy(items: Record<string, unknown>[], key: string, direction: string | null): Record<string, unknown>[] {
  const get = (x: Record<string, unknown>) => String(key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], x) ?? '');
  const sorted = [...items].sort((a, b) => get(a).localeCompare(get(b)));
  return direction === 'desc' ? sorted.reverse() : sorted;
}

/** One page of a list with a true result_info; a page past the end is empty (the SDK's iterators stop there). */
function paginate(req: ApiRequest, items: unknown[], defaultPerPage: number): ApiReply {
  const perPage = Number(req.query.get('per_page') ?? defaultPerPage);
  const page = Number(req.query.get('page') ?? 1);
  const result = items.slice((page - 1) * perPage, page * perPage);
  return {
    status: 200,
    body: { success: true, errors: [], messages: [], result, result_info: { page, per_page: perPage, count: result.length, total_count: items.length, total_pages: Math.ceil(items.length / perPage) } },
  };
}

function pkgJson(zone: Zone, p: Zone['waf']['packages'][number]) {
  return {
    id: p.id, name: p.name, description: p.description, detection_mode: p.detection_mode, zone_id: zone.id, status: 'active',
    ...(p.sensitivity ? { sensitivity: p.sensitivity, action_mode: p.action_mode } : {}),
  };
}

// ---- the route table ----

/** zone: the route's :zone (routes under /zones/:zone); account: the route's :account (routes under /accounts/:account). */
interface RouteCtx { req: ApiRequest; params: Record<string, string>; zone: Zone; account?: Account }

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below /client/v4; `:name` matches one path segment (decoded) into params.name; `:zone` must name a zone. */
  path: string;
  auth: AuthKind | 'none';
  segments: string[];
  handler: (this: ManagementApi, ctx: RouteCtx) => ApiReply | Promise<ApiReply>;
}

function route(method: Route['method'], path: string, auth: Route['auth'], handler: Route['handler']): Route {
  return { method, path, auth, segments: path.split('/').filter(Boolean), handler };
}

function matchPath(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    let seg: string;
    try { seg = decodeURIComponent(segments[i]); } catch { return undefined; }
    if (pattern[i].startsWith(':')) params[pattern[i].slice(1)] = seg;
    else if (pattern[i] !== seg) return undefined;
  }
  return params;
}

const P = ManagementApi.prototype;
const ZONE = '/zones/:zone';
const ACCOUNT = '/accounts/:account';
const WAF = `${ZONE}/firewall/waf`;
const ENTRYPOINT = `${ZONE}/rulesets/phases/http_request_firewall_managed/entrypoint`;
/** The managed rulesets' last_updated as the mock reports it. */
const MANAGED_UPDATED = '2026-11-01T00:00:00.000000Z';

/** A Logpush route under both a zone and an account. */
function both(method: Route['method'], rest: string, handler: Route['handler']): Route[] {
  return [route(method, `${ZONE}${rest}`, 'either', handler), route(method, `${ACCOUNT}${rest}`, 'either', handler)];
}

/** Every route of the management API, in one place (docs/mock-backend.md is checked against it). Auth: the platform's API token
 * (`token`), the legacy key pair (`key`), or either. */
export const ROUTES: readonly Route[] = [
  route('GET', '/user/tokens/verify', 'token', P['verifyToken']),
  route('GET', '/zones', 'either', function (ctx) { return this['listZones'](ctx.req); }),
  route('GET', ZONE, 'either', ({ zone }) => ok(zoneJson(zone))),
  route('GET', `${ZONE}/logpush/jobs`, 'either', P['listJobs']),
  route('POST', `${ZONE}/logpush/jobs`, 'either', P['createJob']),
  route('GET', `${ZONE}/logpush/jobs/:job`, 'either', P['getJob']),
  route('PUT', `${ZONE}/logpush/jobs/:job`, 'either', P['updateJob']),
  route('DELETE', `${ZONE}/logpush/jobs/:job`, 'either', P['deleteJob']),
  route('GET', '/accounts', 'either', P['listAccounts']),
  route('GET', ACCOUNT, 'either', ({ account }) => ok(accountJson(account!))),
  route('GET', `${ACCOUNT}/logpush/jobs`, 'either', P['listJobs']),
  route('POST', `${ACCOUNT}/logpush/jobs`, 'either', P['createJob']),
  route('GET', `${ACCOUNT}/logpush/jobs/:job`, 'either', P['getJob']),
  route('PUT', `${ACCOUNT}/logpush/jobs/:job`, 'either', P['updateJob']),
  route('DELETE', `${ACCOUNT}/logpush/jobs/:job`, 'either', P['deleteJob']),
  ...both('GET', '/logpush/datasets/:dataset/fields', P['datasetFields']),
  ...both('POST', '/logpush/validate/destination', P['validateDestination']),
  ...both('POST', '/logpush/validate/destination/exists', P['destinationExists']),
  ...both('POST', '/logpush/validate/origin', P['validateOrigin']),
  ...both('POST', '/logpush/ownership', P['createOwnership']),
  ...both('POST', '/logpush/ownership/validate', P['validateOwnership']),
  route('GET', `${ZONE}/waf_migration/check`, 'either', function ({ req, zone }) { return this['check'](req, zone); }),
  route('GET', `${ZONE}/waf_migration/config`, 'either', function ({ req, zone }) { return this['config'](req, zone); }),
  route('GET', `${ZONE}/waf_migration/status`, 'either', function ({ zone }) { return this['status'](zone); }),
  route('GET', ENTRYPOINT, 'either', function ({ zone }) { return this['getEntrypoint'](zone); }),
  route('PUT', ENTRYPOINT, 'either', function ({ req, zone }) { return this['putEntrypoint'](req, zone); }),
  route('GET', `${ZONE}/rulesets/phases/:phase/entrypoint`, 'either', P['phaseEntrypoint']),
  route('GET', `${ZONE}/rulesets`, 'either', P['listRulesets']),
  route('GET', `${ZONE}/rulesets/:ruleset`, 'either', P['getRuleset']),
  route('GET', `${ZONE}/rulesets/:ruleset/versions`, 'either', P['rulesetVersions']),
  route('GET', `${ZONE}/rulesets/:ruleset/versions/:version`, 'either', P['rulesetVersion']),
  route('GET', `${WAF}/packages`, 'either', P['wafPackages']),
  route('GET', `${WAF}/packages/:pkg`, 'either', P['wafPackages']),
  route('GET', `${WAF}/packages/:pkg/groups`, 'either', P['wafGroups']),
  route('GET', `${WAF}/packages/:pkg/groups/:group`, 'either', P['wafGroups']),
  route('GET', `${WAF}/packages/:pkg/rules`, 'either', P['wafRules']),
  route('GET', `${WAF}/packages/:pkg/rules/:rule`, 'either', P['wafRules']),
  route('GET', `${WAF}/overrides`, 'either', P['getOverrides']),
  route('GET', `${WAF}/overrides/:override`, 'either', P['getOverrides']),
  route('DELETE', `${WAF}/overrides/:override`, 'either', P['deleteOverride']),
  route('GET', `${ZONE}/firewall/rules`, 'either', P['firewallRules']),
  route('GET', `${ZONE}/pagerules`, 'either', P['pageRules']),
];

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
  return core.validate(JSON.stringify(job), 'logpush-job')
    .filter((p) => p.severity === 'error')
    .map((p) => ({ code: 1004, message: `${p.message} (${p.code})` }));
}

/** Warnings in the editor (its catalogue may lag behind the platform's new rulesets) that this platform refuses: it knows
 * exactly which managed rulesets it has, and in which phase each runs. */
const REFUSED_WARNINGS = new Set(['ruleset/unknown-managed-ruleset', 'ruleset/managed-ruleset-phase']);

/** An entry point update body checked by the editor's core: every error-severity problem becomes an envelope error. */
export function checkRulesetBody(body: unknown): EnvelopeMessage[] {
  if (!isObj(body)) return [{ code: 20021, message: 'The ruleset body must be a JSON object with "name" and "rules".' }];
  return core.validate(JSON.stringify(body), 'waf-ruleset')
    .filter((p) => p.severity === 'error' || REFUSED_WARNINGS.has(p.code))
    .map((p) => ({ code: 20021, message: `${p.message} (${p.code})` }));
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
