// The mock management API under /client/v4: zones and accounts, Logpush jobs and the routes around them (dataset fields,
// validation, the destination ownership challenge), the managed-rules migration and the rulesets of a zone, and the previous
// managed-rules API that stops answering once a zone has migrated. Every route takes the API token or the legacy key pair
// (auth.ts); every list pages as the platform does (lists.ts); every response is the envelope (envelope.ts). No vscode; I/O goes
// through the StateStore.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { catalogue, getLanguageService, isObj } from '../../server/src/core';
import type { AuthKind, Credentials } from './auth';
import { authenticate, invalidHeaders } from './auth';
import type { ApiReply, EnvelopeMessage } from './envelope';
import { fail, failMany, noRoute, ok } from './envelope';
import { boolMatch, cursorReply, listReply, textMatch } from './lists';
import type { MigrationState } from './migration';
import { compatibility, nothingToRun, parseMode, rulesEnabled, transition } from './migration';
import type { LogpushJob, StateStore, StoredRuleset, ZoneState } from './state';
import type { NewRule, Zone } from './zones';
import { TRAFFIC_ROUTES } from './traffic/routes';
import { DELIVERY_ROUTES } from './delivery/routes';
import { destinationLabel } from './delivery/destinations';
import { ACCOUNTS, ZONES, accountById, accountJson, deriveConfig, migrationBlockers, zoneById, zoneJson, type Account } from './zones';

export type { Credentials, AuthKind } from './auth';
export { safeEqual } from './auth';
export type { ApiReply, Envelope, EnvelopeMessage } from './envelope';
export { fail, ok } from './envelope';

const core = getLanguageService();

/** The id `GET /user/tokens/verify` reports for the mock's API token. */
const TOKEN_ID = 'ed9e4c3a0b1f4d2c8e7f6a5b4c3d2e1f';

export interface ApiRequest {
  method: string;
  /** Path below /client/v4, e.g. /zones/<id>/logpush/jobs. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
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
  /** Writes the ownership challenge file into a destination (delivery/, bound by backend.ts); without it nothing is written. */
  ownershipWriter?: (conf: string, filename: string, token: string) => Promise<{ written: string } | { notWritten: string }>;

  constructor(private readonly store: StateStore, private readonly creds: Credentials) {}

  /** undefined when the headers carry this mock's API token or key pair, else the platform's refusal (auth.ts). */
  authenticate(headers: ApiRequest['headers']): ApiReply | undefined {
    return authenticate(headers, this.creds, 'either');
  }

  /** The route table's answer to a request, in the envelope; unknown paths get the platform's 400 (code 7000), known paths with
   * another method 405 (code 7001), an id that names no zone or account 400 (codes 7003 and 7000). */
  async handle(req: ApiRequest): Promise<ApiReply> {
    const segments = req.path.split('/').filter(Boolean);
    let pathMatched = false;
    for (const route of ROUTES) {
      const params = matchPath(route.segments, segments);
      if (!params) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      const denied = authenticate(req.headers, this.creds, route.auth);
      if (denied) return denied;
      let zone: Zone | undefined;
      if (params.zone !== undefined) {
        zone = zoneById(params.zone);
        if (!zone) return unknownObject('zones', params.zone);
      }
      let account: Account | undefined;
      if (params.account !== undefined) {
        account = accountById(params.account);
        if (!account) return unknownObject('accounts', params.account);
      }
      return route.handler.call(this, { req, params, zone: zone!, account });
    }
    return pathMatched ? METHOD_NOT_ALLOWED(req.method, req.path) : noRoute(req.path);
  }

  private verifyToken(): ApiReply {
    return ok({ id: TOKEN_ID, status: 'active' }, [{ code: 10000, message: 'This API Token is valid and active' }]);
  }

  /** GET /zones: name (exact, or "contains:", "starts_with:", "ends_with:", "not_equal:" as the API takes it), status, type,
   * account.id, account.name, match; order (name, status, account.id, account.name, plan.id) and direction; page, per_page (5-50,
   * default 20). */
  private listZones({ req }: RouteCtx): ApiReply {
    type Z = ReturnType<typeof zoneJson>;
    const account = (z: Z) => z.account as { id: string; name: string };
    return listReply(req.query, ZONES.map(zoneJson), {
      perPage: { min: 5, max: 50, default: 20 },
      order: { name: (z) => String(z.name), status: (z) => String(z.status), 'account.id': (z) => account(z).id, 'account.name': (z) => account(z).name, 'plan.id': (z) => String((z.plan as { id: string }).id) },
      defaultOrder: 'name',
      filters: {
        name: (z, v) => textMatch(z.name, v),
        status: (z, v) => z.status === v,
        type: (z, v) => v.split(',').includes(String(z.type)),
        'account.id': (z, v) => account(z).id === v,
        'account.name': (z, v) => textMatch(account(z).name, v),
      },
    });
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
    const { compatible, messages } = compatibility(zs.migration, { zone: zone.name, plan: zone.plan, blockers: migrationBlockers(zone, this.remainingOverrides(zone, zs)) });
    return ok({ compatible, migration_state: zs.migration }, messages);
  }

  private config(req: ApiRequest, zone: Zone): ApiReply {
    const bad = this.phaseTwo(req);
    if (bad) return bad;
    // "It matches the current previous-version configuration": once migrated there is none (the previous rules are off and their
    // API stops working), and a derivation from them would drop every change made to the entry point since.
    if (this.store.zone(zone.id).migration === 'migrated') {
      return fail(400, 10506, `Zone "${zone.name}" is in migration_state "migrated": its previous managed rules are off, so there is no configuration to derive from them; read what the zone runs with GET …/rulesets/phases/${catalogue.rulesets.managedPhase}/entrypoint.`);
    }
    const { config, notes } = deriveConfig(zone);
    return ok(config, notes.map((message) => ({ code: 10510, message })));
  }

  private status(zone: Zone): ApiReply {
    return ok(statusRecord(this.store.zone(zone.id).migration));
  }

  private getEntrypoint(zone: Zone): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    return ep ? ok(ep) : noEntrypoint(zone, catalogue.rulesets.managedPhase);
  }

  private async putEntrypoint(req: ApiRequest, zone: Zone): Promise<ApiReply> {
    // The spec: "The Content-Type of the PUT is application/json"; the platform refuses another type (curl --data sends
    // application/x-www-form-urlencoded) with 6003 and 6105 in the chain.
    const type = Array.isArray(req.headers['content-type']) ? req.headers['content-type'][0] : req.headers['content-type'];
    if (!type || type.split(';')[0].trim().toLowerCase() !== 'application/json') {
      return invalidHeaders([6105, `Invalid Content-Type header: ${type ? `"${type}"` : 'none was sent'}; the entry point update takes a JSON body, sent as application/json.`]);
    }
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
      const t = transition(zs.migration, mode, { zone: zone.name, plan: zone.plan, blockers: migrationBlockers(zone, this.remainingOverrides(zone, zs)) });
      if (!t.ok) return fail(t.status, t.code, t.message);
    }
    const dryRun = req.query.get('dry_run');
    if (dryRun !== null && dryRun !== 'true' && dryRun !== 'false') return fail(400, 1001, `"dry_run" must be true or false, not "${dryRun}".`);
    const parsed = parseJsonBody(req.body);
    if ('error' in parsed) return parsed.error;
    const errors = [...pathMismatches(parsed.value), ...checkRulesetBody(parsed.value)];
    if (errors.length) return failMany(400, errors);
    const body = parsed.value as { name?: string; description?: string; rules: NewRule[] };
    return this.lock.run(zone.id, async () => {
      const zs = this.store.zone(zone.id);
      const messages: EnvelopeMessage[] = [];
      let next: MigrationState | undefined;
      if (mode) {
        const t = transition(zs.migration, mode, { zone: zone.name, plan: zone.plan, blockers: migrationBlockers(zone, this.remainingOverrides(zone, zs)) });
        if (!t.ok) return fail(t.status, t.code, t.message);
        if (!body.rules.some((r) => r.action === 'execute')) {
          const n = nothingToRun(zs.migration, mode, zone.name);
          return failMany(n.status, [{ code: n.code, message: n.message, source: { pointer: '/rules' } }]);
        }
        next = t.next;
      } else if (zs.migration === 'start' && zone.plan !== 'enterprise' && body.rules.some((r) => r.enabled !== false)) {
        return fail(400, 10507, `Zone "${zone.name}" (${zone.plan}) has not migrated; without waf_migration every rule must have "enabled": false.`);
      }
      const saved = storeRuleset(zone, zs.entrypoint, body);
      // dry_run=true (the SDK's `dry_run`): checked and answered as it would be saved, and nothing changes.
      if (dryRun === 'true') {
        return ok(saved, [{ code: 10512, message: `Dry run: nothing was saved${next ? `; the migration state would go ${zs.migration} -> ${next}` : ''}.` }]);
      }
      if (next) {
        messages.push({ code: 10511, message: `Migration state ${zs.migration} -> ${next}.` });
        zs.migration = next;
      }
      zs.entrypoint = saved;
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

  private wafPackages({ req, zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    if (params.pkg === undefined) {
      // name, match; order name; page, per_page (5-100, default 50).
      return listReply(req.query, zone.waf.packages.map((p) => pkgJson(zone, p)), {
        perPage: WAF_PAGES, order: { name: (p) => String(p.name) }, filters: { name: (p, v) => textMatch(p.name, v) },
      });
    }
    const found = this.wafPackage(zone, params.pkg);
    return 'error' in found ? found.error : ok(pkgJson(zone, found.pkg));
  }

  private wafGroups({ req, zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    const found = this.wafPackage(zone, params.pkg);
    if ('error' in found) return found.error;
    const { pkg } = found;
    const groupJson = (g: (typeof pkg.groups)[number]) => ({
      id: g.id, name: g.name, description: g.description, mode: g.mode, allowed_modes: ['on', 'off'], package_id: pkg.id,
      rules_count: g.rules.length, modified_rules_count: g.rules.filter((r) => r.mode !== r.default_mode).length,
    });
    if (params.group === undefined) {
      // mode, name, rules_count, match; order mode or rules_count; page, per_page (5-100, default 50).
      return listReply(req.query, pkg.groups.map(groupJson), {
        perPage: WAF_PAGES, order: { mode: (g) => g.mode, rules_count: (g) => g.rules_count },
        filters: { mode: (g, v) => g.mode === v, name: (g, v) => textMatch(g.name, v), rules_count: (g, v) => String(g.rules_count) === v },
      });
    }
    const g = pkg.groups.find((x) => x.id === params.group);
    return g ? ok(groupJson(g)) : fail(404, 1003, `Group "${params.group}" not found in package "${pkg.name}".`);
  }

  private wafRules({ req, zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    const found = this.wafPackage(zone, params.pkg);
    if ('error' in found) return found.error;
    const { pkg } = found;
    const all = pkg.groups.flatMap((g) => g.rules.map((r) => ({
      id: r.id, description: r.description, priority: r.priority, package_id: pkg.id, group: { id: g.id, name: g.name },
      mode: r.mode, default_mode: r.default_mode, allowed_modes: r.allowed_modes,
    })));
    if (params.rule === undefined) {
      // description, mode (the API's DIS/CHL/BLK/SIM or the mode's own name), priority, group_id, match; order priority, group_id or
      // description; page, per_page (5-100, default 50).
      const MODE_CODES: Record<string, string> = { DIS: 'off', CHL: 'challenge', BLK: 'block', SIM: 'simulate' };
      return listReply(req.query, all, {
        perPage: WAF_PAGES, order: { priority: (r) => Number(r.priority), group_id: (r) => r.group.id, description: (r) => r.description },
        filters: {
          description: (r, v) => textMatch(r.description, v.includes(':') ? v : `contains:${v}`), mode: (r, v) => r.mode === (MODE_CODES[v] ?? v),
          priority: (r, v) => r.priority === v, group_id: (r, v) => r.group.id === v,
        },
      });
    }
    const r = all.find((x) => x.id === params.rule);
    return r ? ok(r) : fail(404, 1004, `Rule "${params.rule}" not found in package "${pkg.name}".`);
  }

  private liveOverrides(zone: Zone) {
    const zs = this.store.zone(zone.id);
    return zone.waf.uriOverrides.filter((o) => !zs.deletedOverrides.includes(o.id));
  }

  private getOverrides({ req, zone, params }: RouteCtx): ApiReply {
    const done = this.migrated(zone);
    if (done) return done;
    const live = this.liveOverrides(zone);
    if (params.override === undefined) return listReply(req.query, live as unknown as Record<string, unknown>[], { perPage: WAF_PAGES });
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

  /** GET …/firewall/rules[/<id>]: id, action, description (case-insensitive, a part of it), paused; page, per_page (5-100, default 25). */
  private firewallRules({ req, zone, params }: RouteCtx): ApiReply {
    const rules = zone.waf.firewallRules.map(({ id, description, expression, action, products, paused }) => ({
      id, description, paused, action, ...(products ? { products } : {}), priority: null, filter: { id: createHash('sha256').update(`${id}|filter`).digest('hex').slice(0, 32), expression, paused },
    }));
    if (params.rule !== undefined) {
      const r = rules.find((x) => x.id === params.rule);
      return r ? ok(r) : fail(404, 10003, `Firewall rule "${params.rule}" not found in zone "${zone.name}".`);
    }
    return listReply(req.query, rules, {
      perPage: { min: 5, max: 100, default: 25 },
      filters: { id: (r, v) => r.id === v, action: (r, v) => r.action === v, description: (r, v) => textMatch(r.description, `contains:${v}`), paused: (r, v) => boolMatch(r.paused, v) },
    });
  }

  /** GET …/pagerules[/<id>]: one list (the platform does not page it); status, match; order status or priority; direction. */
  private pageRules({ req, zone, params }: RouteCtx): ApiReply {
    const rules = zone.waf.pageRules.map((p, i) => ({
      id: p.id, status: p.status, priority: zone.waf.pageRules.length - i, targets: [{ target: 'url', constraint: { operator: 'matches', value: p.target } }],
      actions: p.actions, created_on: MOCK_EPOCH, modified_on: MOCK_EPOCH,
    }));
    if (params.pagerule !== undefined) {
      const r = rules.find((x) => x.id === params.pagerule);
      return r ? ok(r) : fail(404, 1002, `Page rule "${params.pagerule}" not found in zone "${zone.name}".`);
    }
    return listReply(req.query, rules, { perPage: 'all', order: { status: (r) => r.status, priority: (r) => r.priority }, filters: { status: (r, v) => r.status === v } });
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

  /** GET …/logpush/jobs: one list (the platform does not page it), pages only when page or per_page are asked for. */
  private listJobs(ctx: RouteCtx): ApiReply {
    return listReply(ctx.req.query, this.owner(ctx).jobs(), { perPage: 'all' });
  }

  /** GET …/logpush/datasets/:dataset/jobs: the jobs of one dataset. */
  private datasetJobs(ctx: RouteCtx): ApiReply {
    if (!catalogue.logpush.datasetInfo(ctx.params.dataset)) return unknownDataset(ctx.params.dataset);
    return listReply(ctx.req.query, this.owner(ctx).jobs().filter((j) => (j.dataset ?? 'http_requests') === ctx.params.dataset), { perPage: 'all' });
  }

  /** A given ownership_challenge must be the one issued for this owner and destination; a missing one, where the platform asks for
   * it (a destination it has to prove: on create, or when an update changes it; `newDestination`), is noted in the envelope's
   * messages (the mock creates the job anyway: there is no bucket to prove). */
  private ownershipCheck(ctx: RouteCtx, body: Record<string, unknown>, done: 'created' | 'updated', newDestination = true): { error?: ApiReply; note?: EnvelopeMessage } {
    const conf = body.destination_conf;
    const given = body.ownership_challenge;
    if (typeof conf !== 'string') return {};
    if (typeof given === 'string' && given !== '') {
      const held = this.challengeHolds(ctx, conf, given);
      if (held === true) return {};
      if (held === false) return { error: fail(400, 1002, `The ownership challenge is not the one issued for destination "${destinationLabel(conf)}"; ask for one with POST …/logpush/ownership.`) };
      const when = new Date(held.expired).toISOString().slice(0, 16).replace('T', ' ');
      return { error: fail(400, 1002, `The ownership challenge for destination "${destinationLabel(conf)}" expired on ${when} UTC (tokens hold for 7 days); ask for a new one with POST …/logpush/ownership.`) };
    }
    if (!newDestination || !needsOwnershipChallenge(conf)) return {};
    return { note: { code: 10520, message: `The platform asks for "ownership_challenge" with this destination (POST …/logpush/ownership, then the token from the file it writes); the mock ${done} the job without one.` } };
  }

  private createJob(ctx: RouteCtx): ApiReply | Promise<ApiReply> {
    const owner = this.owner(ctx);
    const parsed = parseJsonBody(ctx.req.body);
    if ('error' in parsed) return parsed.error;
    const errors = checkJob(parsed.value, owner.scope);
    if (errors.length) return failMany(400, errors);
    const body = parsed.value as Record<string, unknown>;
    const ownership = this.ownershipCheck(ctx, body, 'created');
    if (ownership.error) return ownership.error;
    const misplaced = wrongScope(body, owner, 'job');
    if (misplaced) return misplaced;
    return this.lock.run(owner.key, async () => {
      const job: LogpushJob = {
        id: this.store.state.nextJobId++, enabled: false, name: null, dataset: 'http_requests', logpull_options: null, output_options: null, frequency: 'high', kind: '',
        max_upload_bytes: null, max_upload_records: null, max_upload_interval_seconds: null,
        ...body, last_complete: null, last_error: null, error_message: null,
      };
      delete job.$schema;
      // The challenge proves the destination once; the platform's job record does not carry it.
      delete job.ownership_challenge;
      owner.jobs().push(job);
      await this.store.save();
      return ok(job, ownership.note ? [ownership.note] : []);
    });
  }

  /** The job id of the path, or the 404 reply (a path whose id is not a number names no job route). */
  private jobId({ req, params }: RouteCtx): number | ApiReply {
    return /^\d{1,15}$/.test(params.job) ? Number(params.job) : noRoute(req.path);
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
    // Members the server owns (id, last_complete, last_error, error_message) are read-only: an update does not change them.
    const update = Object.fromEntries(Object.entries(parsed.value).filter(([k]) => !SERVER_FIELDS.includes(k)));
    return this.lock.run(owner.key, async () => {
      const jobs = owner.jobs();
      const i = jobs.findIndex((j) => j.id === jobId);
      if (i < 0) return this.jobNotFound(owner.label, jobId);
      const old = jobs[i];
      for (const k of ['dataset', 'kind'] as const) {
        if (k in update && update[k] !== old[k]) return fail(400, 1004, `"${k}" of a Logpush job cannot change after creation (it is ${JSON.stringify(old[k])}).`);
      }
      const merged: LogpushJob = { ...old, ...update, id: old.id };
      const errors = checkJob(clientFields(merged), owner.scope);
      if (errors.length) return failMany(400, errors);
      // The same destination_conf (a client PUTs the whole job back) proves nothing new: no note, though a challenge given is checked.
      const moved = 'destination_conf' in update && update.destination_conf !== old.destination_conf;
      const ownership = moved || 'ownership_challenge' in update ? this.ownershipCheck(ctx, merged, 'updated', moved) : {};
      if (ownership.error) return ownership.error;
      delete merged.ownership_challenge;
      jobs[i] = merged;
      await this.store.save();
      return ok(merged, ownership.note ? [ownership.note] : []);
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
  /** The dataset's fields in a job of this zone or account (firewall_events' ZoneName is an account job's). */
  private datasetFields(ctx: RouteCtx): ApiReply {
    const { params } = ctx;
    const info = catalogue.logpush.datasetInfo(params.dataset);
    if (!info) return unknownDataset(params.dataset);
    const fields = catalogue.logpush.datasetFields(params.dataset, this.owner(ctx).scope) ?? [];
    return ok(Object.fromEntries(fields.map((f) => [f.name, f.description])));
  }

  /** The editor's core on a valid job that differs only by this value: its error-severity problems (all of them the value's). */
  private jobProblems(member: 'destination_conf' | 'logpull_options', value: unknown, dataset = 'http_requests', scope?: 'zone' | 'account'): string[] {
    if (typeof value !== 'string' || !value) return [`"${member}" must be a non-empty string.`];
    const job = { name: 'validate', dataset, destination_conf: 's3://bucket/logs?region=us-east-1', [member]: value };
    return core.validate(JSON.stringify(job), 'logpush-job', { logpushScope: scope }).filter((p) => p.severity === 'error').map((p) => p.message);
  }

  private validateDestination({ req }: RouteCtx): ApiReply {
    const body = parseJsonBody(req.body);
    if ('error' in body) return body.error;
    const problems = this.jobProblems('destination_conf', (body.value as Record<string, unknown> | null)?.destination_conf);
    return ok({ valid: problems.length === 0, message: problems.join(' ') });
  }

  private destinationExists(ctx: RouteCtx): ApiReply {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const conf = (body.value as Record<string, unknown> | null)?.destination_conf;
    return ok({ exists: this.owner(ctx).jobs().some((j) => j.destination_conf === conf) });
  }

  /** logpull_options checked against the body's dataset (the API's body has logpull_options only; the docs' examples add the
   * dataset) in a job of this zone or account. Under an account, the default dataset (http_requests) is no answer: the mock
   * asks for the dataset, as it does when such a job is created. */
  private validateOrigin(ctx: RouteCtx): ApiReply {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const b = isObj(body.value) ? body.value : {};
    const dataset = typeof b.dataset === 'string' ? b.dataset : 'http_requests';
    if (!catalogue.logpush.datasetInfo(dataset)) return unknownDataset(dataset);
    const owner = this.owner(ctx);
    const misplaced = wrongScope(b, owner, 'origin');
    if (misplaced) return misplaced;
    const problems = this.jobProblems('logpull_options', b.logpull_options, dataset, owner.scope);
    return ok({ valid: problems.length === 0, message: problems.join(' ') });
  }

  /**
   * The challenge token for a destination, issued at `issuedAt` (seconds): the time in base 36, "_", and a hash of the owner, the
   * destination and that time, so the mock keeps no state for it. The platform's token (a JWT) binds the same and expires 7 days
   * after it is issued (its Ownership challenge FAQ).
   */
  private challenge(ctx: RouteCtx, conf: string, issuedAt: number): string {
    return `${issuedAt.toString(36)}_${createHash('sha256').update(`${this.owner(ctx).key}|ownership|${conf}|${issuedAt}`).digest('base64url')}`;
  }

  /** Whether `token` is the one issued here for `conf`: true, false, or the time (ms) it expired. */
  private challengeHolds(ctx: RouteCtx, conf: string, token: string): boolean | { expired: number } {
    const m = /^([0-9a-z]{1,10})_/.exec(token);
    const issuedAt = m ? parseInt(m[1], 36) : NaN;
    if (!Number.isSafeInteger(issuedAt) || token !== this.challenge(ctx, conf, issuedAt)) return false;
    const expires = (issuedAt + CHALLENGE_VALIDITY_S) * 1000;
    return Date.now() <= expires ? true : { expired: expires };
  }

  /** POST …/logpush/ownership: the platform writes a file holding a token into the destination; so does the mock (the local
   * folder, the configured S3 endpoint), and it also hands the token back in its message. */
  private async createOwnership(ctx: RouteCtx): Promise<ApiReply> {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const conf = (body.value as Record<string, unknown> | null)?.destination_conf;
    const problems = this.jobProblems('destination_conf', conf);
    if (problems.length) return fail(400, 1002, problems.join(' '));
    const token = this.challenge(ctx, String(conf), Math.floor(Date.now() / 1000));
    const filename = `ownership-challenge-${token.slice(token.indexOf('_') + 1).slice(0, 8)}.txt`;
    const where = this.ownershipWriter ? await this.ownershipWriter(String(conf), filename, token) : { notWritten: 'the mock runs without Logpush delivery' };
    const said = 'written' in where ? `The mock wrote ${filename} to ${where.written}; the token is ${token}.` : `The mock did not write ${filename} (${where.notWritten}); the token is ${token}.`;
    return ok({ filename, message: said, valid: true });
  }

  private validateOwnership(ctx: RouteCtx): ApiReply {
    const body = parseJsonBody(ctx.req.body);
    if ('error' in body) return body.error;
    const b = (body.value ?? {}) as Record<string, unknown>;
    if (typeof b.destination_conf !== 'string' || typeof b.ownership_challenge !== 'string') {
      return fail(400, 1002, 'The body needs "destination_conf" and "ownership_challenge" strings.');
    }
    return ok({ valid: this.challengeHolds(ctx, b.destination_conf, b.ownership_challenge) === true });
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

  /** GET /zones/:zone/rulesets: the zone's entry point rulesets and the managed rulesets it can deploy (without their rules); a
   * cursor list: per_page (1-50, default 50) and the cursor of result_info. */
  private listRulesets({ req, zone }: RouteCtx): ApiReply {
    return cursorReply(req.query, this.rulesetsOf(zone), { min: 1, max: 50, default: 50 });
  }

  private getRuleset({ zone, params }: RouteCtx): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (ep && ep.id === params.ruleset) return ok(ep);
    const meta = this.rulesetsOf(zone).find((r) => r.id === params.ruleset);
    return meta ? ok({ ...meta, rules: [] }) : fail(404, 10003, `No ruleset "${params.ruleset}" in zone "${zone.name}".`);
  }

  /** The entry point's versions: 1..current, one list (not paged by the platform). The mock keeps the rules of the current version
   * only (docs/mock-backend.md). */
  private rulesetVersions({ req, zone, params }: RouteCtx): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (ep && ep.id === params.ruleset) return listReply(req.query, entrypointVersions(ep), { perPage: 'all' });
    const managed = this.rulesetsOf(zone).find((r) => r.id === params.ruleset);
    return managed ? listReply(req.query, [{ ...managed }], { perPage: 'all' }) : fail(404, 10003, `No ruleset "${params.ruleset}" in zone "${zone.name}".`);
  }

  /** GET …/rulesets/phases/:phase/entrypoint/versions[/:version]: the versions of a phase's entry point. */
  private phaseVersions({ req, zone, params }: RouteCtx): ApiReply {
    const bad = unknownPhase(params.phase);
    if (bad) return bad;
    const ep = params.phase === catalogue.rulesets.managedPhase ? this.store.zone(zone.id).entrypoint : null;
    if (!ep) return noEntrypoint(zone, params.phase);
    if (params.version === undefined) return listReply(req.query, entrypointVersions(ep), { perPage: 'all' });
    return this.rulesetVersion({ req, zone, params: { ruleset: ep.id, version: params.version } });
  }

  private rulesetVersion({ zone, params }: Pick<RouteCtx, 'zone' | 'params'> & Partial<RouteCtx>): ApiReply {
    const ep = this.store.zone(zone.id).entrypoint;
    if (ep && ep.id === params.ruleset && params.version === ep.version) return ok(ep);
    return fail(404, 10003, `Version ${params.version} of ruleset "${params.ruleset}" is not kept by the mock (it keeps the current version of the entry point only).`);
  }

  /** GET /zones/:zone/rulesets/phases/:phase/entrypoint for a phase other than the managed one: the zone has none. */
  private phaseEntrypoint({ zone, params }: RouteCtx): ApiReply {
    return unknownPhase(params.phase) ?? noEntrypoint(zone, params.phase);
  }

  /** PUT …/rulesets/phases/:phase/entrypoint for another phase: the mock keeps the managed phase's entry point only. */
  private putPhaseEntrypoint({ zone, params }: RouteCtx): ApiReply {
    return unknownPhase(params.phase) ?? fail(400, 10021, `The mock keeps the entry point of phase ${catalogue.rulesets.managedPhase} only; zone "${zone.name}" cannot save one for phase ${params.phase} here.`);
  }

  /** GET /accounts: name, direction, page, per_page (5-50, default 20). */
  private listAccounts({ req }: RouteCtx): ApiReply {
    return listReply(req.query, ACCOUNTS.map(accountJson), {
      perPage: { min: 5, max: 50, default: 20 }, order: { name: (a) => String(a.name) }, defaultOrder: 'name', filters: { name: (a, v) => textMatch(a.name, v) },
    });
  }
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
  auth: AuthKind;
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
/** created_on / modified_on of the mock's static records. */
const MOCK_EPOCH = '2026-01-01T00:00:00Z';
/** per_page of the previous managed-rules API's lists (packages, groups, rules, URI-based overrides). */
const WAF_PAGES = { min: 5, max: 100, default: 50 };

/** A Logpush route under both a zone and an account. */
function both(method: Route['method'], rest: string, handler: Route['handler']): Route[] {
  return [route(method, `${ZONE}${rest}`, 'either', handler), route(method, `${ACCOUNT}${rest}`, 'either', handler)];
}

/** Every route of the management API, in one place (docs/mock-backend.md is checked against it). Auth: the platform's API token
 * only (`token`: the token's own verification), or the token or the legacy key pair (`either`: every other route). */
export const ROUTES: readonly Route[] = [
  route('GET', '/user/tokens/verify', 'token', P['verifyToken']),
  route('GET', '/zones', 'either', P['listZones']),
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
  ...both('GET', '/logpush/datasets/:dataset/jobs', P['datasetJobs']),
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
  route('PUT', `${ZONE}/rulesets/phases/:phase/entrypoint`, 'either', P['putPhaseEntrypoint']),
  route('GET', `${ZONE}/rulesets/phases/:phase/entrypoint/versions`, 'either', P['phaseVersions']),
  route('GET', `${ZONE}/rulesets/phases/:phase/entrypoint/versions/:version`, 'either', P['phaseVersions']),
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
  route('GET', `${ZONE}/firewall/rules/:rule`, 'either', P['firewallRules']),
  route('GET', `${ZONE}/pagerules`, 'either', P['pageRules']),
  route('GET', `${ZONE}/pagerules/:pagerule`, 'either', P['pageRules']),
  ...TRAFFIC_ROUTES,
];

/** The mock's own routes beside the API (under /__edgekit/, answered by backend.ts with the same credentials as the API), for the
 * docs' route index: the traffic's, the Logpush delivery's and the reset. */
export const EDGEKIT_ROUTES: readonly { method: Route['method']; path: string }[] = [
  { method: 'POST', path: '/__edgekit/reset' },
  { method: 'GET', path: '/__edgekit/traffic' },
  { method: 'PUT', path: '/__edgekit/traffic' },
  { method: 'POST', path: '/__edgekit/traffic/step' },
  { method: 'GET', path: '/__edgekit/zones/:zone/security/summary' },
  ...DELIVERY_ROUTES,
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

/** An id in the path that names no zone or account: the platform's 400 with codes 7003 and 7000. */
function unknownObject(kind: 'zones' | 'accounts', id: string): ApiReply {
  return fail(400, 7003, `Could not route to /${kind}/${id}, perhaps your object identifier is invalid?`, [{ code: 7000, message: 'No route for that URI' }]);
}

function unknownDataset(dataset: string): ApiReply {
  return fail(400, 1004, `Unknown dataset "${dataset}"; the datasets are ${catalogue.logpush.datasets.map((d) => d.name).join(', ')}.`);
}

/** undefined for a ruleset phase, else the 400 that says it is not one. */
function unknownPhase(phase: string): ApiReply | undefined {
  return (catalogue.rulesets.phases as readonly string[]).includes(phase) ? undefined : fail(400, 10001, `"${phase}" is not a ruleset phase.`);
}

function noEntrypoint(zone: Zone, phase: string): ApiReply {
  return fail(404, 10003, `Zone "${zone.name}" has no entry point ruleset for phase ${phase} yet.`);
}

/** Versions 1..current of the entry point, without their rules. */
function entrypointVersions(ep: StoredRuleset): Record<string, unknown>[] {
  return Array.from({ length: Number(ep.version) }, (_, i) => ({ id: ep.id, name: ep.name, description: ep.description, kind: ep.kind, phase: ep.phase, version: String(i + 1), last_updated: ep.last_updated }));
}


/** How long an ownership challenge token holds, in seconds: "The token expires after 7 days" (the platform's FAQ). */
const CHALLENGE_VALIDITY_S = 7 * 24 * 60 * 60;

/** Whether the platform asks for an ownership challenge before a job to this destination: S3 without its own access keys or
 * endpoint= (S3-compatible storage, R2 among them), Google Cloud Storage, Azure, Sumo Logic (the platform's "Ownership challenge
 * FAQ"). */
export function needsOwnershipChallenge(conf: string): boolean {
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(conf)?.[1]?.toLowerCase();
  if (scheme === 's3') return !/[?&](access-key-id|endpoint)=/.test(conf);
  return scheme === 'gs' || scheme === 'azure' || scheme === 'sumo';
}

/** The 400 for a job, or a validate/origin body, whose dataset does not belong where it is sent: no dataset under an account (the
 * default, http_requests, is a zone dataset), or a dataset of the other scope. undefined when it belongs. */
function wrongScope(body: Record<string, unknown>, owner: { scope: 'zone' | 'account'; label: string }, what: 'job' | 'origin'): ApiReply | undefined {
  const dataset = String(body.dataset ?? 'http_requests');
  if ((body.dataset === undefined || body.dataset === null) && owner.scope === 'account') {
    return fail(400, 1004, what === 'job'
      ? `The job has no "dataset", so it is an ${dataset} job, a zone dataset's; name the account dataset to push (gateway_dns, audit_logs, ...).`
      : `The body has no "dataset", so logpull_options would be checked against ${dataset}, a zone dataset; name the account dataset of the job (gateway_dns, audit_logs, ...).`);
  }
  const scopes = catalogue.logpush.datasetScopes(dataset);
  if (scopes.length && !scopes.includes(owner.scope)) {
    const scope = scopes[0];
    const where = `${scope === 'account' ? '/accounts/<account_id>' : '/zones/<zone_id>'}/logpush/${what === 'job' ? 'jobs' : 'validate/origin'}`;
    return fail(400, 1004, `Dataset "${dataset}" is ${scope === 'account' ? 'an account' : 'a zone'} dataset; ${what === 'job' ? 'create its job' : 'validate its logpull_options'} under ${where}, not under ${owner.label}.`);
  }
  return undefined;
}

/** A Logpush job checked by the editor's core in a job of the zone or account it is sent to: every error-severity problem
 * becomes an envelope error. */
export function checkJob(job: unknown, scope?: 'zone' | 'account'): EnvelopeMessage[] {
  if (!isObj(job)) return [{ code: 1004, message: 'A Logpush job must be a JSON object.' }];
  return core.validate(JSON.stringify(job), 'logpush-job', { logpushScope: scope })
    .filter((p) => p.severity === 'error')
    .map((p) => ({ code: 1004, message: `${p.message} (${p.code})` }));
}

/** Warnings in the editor (its catalogue may lag behind the platform's new rulesets) that this platform refuses: it knows
 * exactly which managed rulesets it has, and in which phase each runs; and a zone deploys each of them once. */
const REFUSED_WARNINGS = new Set(['ruleset/unknown-managed-ruleset', 'ruleset/managed-ruleset-phase', 'ruleset/duplicate-execute']);

/** A body's "phase" or "kind" that contradicts the path it is PUT to (the zone's entry point of the managed phase): the core would
 * check it as that other phase, and the mock would store it as this one. */
function pathMismatches(body: unknown): EnvelopeMessage[] {
  if (!isObj(body)) return [];
  const out: EnvelopeMessage[] = [];
  const phase = catalogue.rulesets.managedPhase;
  if (body.phase !== undefined && body.phase !== phase) {
    out.push({ code: 20021, message: `"phase" is ${JSON.stringify(body.phase)}, but this is the entry point of phase ${phase}; leave "phase" out or set it to "${phase}".`, source: { pointer: '/phase' } });
  }
  if (body.kind !== undefined && body.kind !== 'zone') {
    out.push({ code: 20021, message: `"kind" is ${JSON.stringify(body.kind)}, but a zone's entry point ruleset is of kind "zone"; leave "kind" out or set it to "zone".`, source: { pointer: '/kind' } });
  }
  return out;
}

/** An entry point update body checked by the editor's core: every error-severity problem becomes an envelope error, with the
 * JSON Pointer of the member it is about in source.pointer, as the platform's errors have it. */
export function checkRulesetBody(body: unknown): EnvelopeMessage[] {
  if (!isObj(body)) return [{ code: 20021, message: 'The ruleset body must be a JSON object with "name" and "rules".', source: { pointer: '' } }];
  const text = JSON.stringify(body);
  const doc = core.parse(text);
  return core.validate(text, 'waf-ruleset', { parsed: doc })
    .filter((p) => p.severity === 'error' || REFUSED_WARNINGS.has(p.code))
    .map((p) => ({ code: 20021, message: `${p.message} (${p.code})`, source: { pointer: jsonPointer(doc.locationAt(p.offset + 1).path) } }));
}

/** A JSON Pointer (RFC 6901) for a path; the empty trailing segment getLocation gives inside an empty key or object is left out. */
function jsonPointer(path: readonly (string | number)[]): string {
  const segs = path.length && path[path.length - 1] === '' ? path.slice(0, -1) : path;
  return segs.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The entry point as saved: a new version, with rule ids, versions and refs assigned. `name` is optional on update (the
 * platform's API reference); without one, the entry point keeps its name, and a first save is named "default" (docs/mock-backend.md). */
function storeRuleset(zone: Zone, prev: StoredRuleset | null, body: { name?: string; description?: string; rules: NewRule[] }): StoredRuleset {
  const version = String(prev ? Number(prev.version) + 1 : 1);
  const now = new Date().toISOString();
  const id = createHash('sha256').update(`${zone.id}|entrypoint`).digest('hex').slice(0, 32);
  return {
    id, name: body.name ?? prev?.name ?? 'default', description: body.description ?? prev?.description ?? '', kind: 'zone', phase: 'http_request_firewall_managed', version, last_updated: now,
    rules: body.rules.map((r, i) => {
      const rid = r.id && /^[0-9a-f]{32}$/.test(r.id) ? r.id : createHash('sha256').update(`${zone.id}|rule|${version}|${i}`).digest('hex').slice(0, 32);
      return { ...r, id: rid, ref: r.ref || rid, version, enabled: r.enabled !== false, last_updated: now };
    }),
  };
}
