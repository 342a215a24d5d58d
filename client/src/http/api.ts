// A typed client of the management API (base URL ending in /client/v4) over request(): zones, the managed-rules migration operations
// and Logpush jobs. The platform takes the API token (Authorization: Bearer) or the legacy key pair (X-Auth-Key + X-Auth-Email) on
// every route: the migration sends the token, Logpush the key pair (what users set it for), each the other when its own is not set.
// Every call resolves to a discriminated result carrying the envelope's errors and one sentence of explanation; responses are
// shape-checked before they are typed. No vscode.
import type { EnvelopeMessage, HttpErrorKind, HttpRequest } from './request';
import { describeHttpError, describeTarget, envelopeErrors, request, toCurl } from './request';
import { isObj } from './json';
import { redact } from './redact';

export type { EnvelopeMessage } from './request';

export type MigrationState = 'start' | 'validation' | 'migrated';
export type MigrationMode = 'pending' | 'validation';

export interface Zone {
  id: string;
  name: string;
  /** legacy_id: "free", "pro", "business", "enterprise". */
  plan: { legacy_id: string; name?: string };
}

export interface CheckResult {
  compatible: boolean;
  /** "start", "validation" or "migrated"; other values are passed through for the caller to explain. */
  migration_state: string;
}

export interface StatusRecord {
  migration_state: string;
  old_rules_enabled: boolean;
  new_rules_enabled: boolean;
}

export interface ConfigRule {
  id?: string;
  version?: string;
  ref?: string;
  action?: string;
  expression?: string;
  description?: string;
  enabled?: boolean;
  action_parameters?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The new configuration (result of the config operation), also the entry point update body. */
export interface MigrationConfig {
  name: string;
  rules: ConfigRule[];
  [key: string]: unknown;
}

/** The stored entry point ruleset returned by the update. */
export interface Ruleset {
  id?: string;
  name?: string;
  version?: string;
  rules?: ConfigRule[];
  [key: string]: unknown;
}

export type ApiErrorKind = HttpErrorKind | 'http' | 'envelope' | 'shape' | 'credentials';

export interface ApiOk<T> {
  ok: true;
  status: number;
  result: T;
  /** The envelope's messages (notes such as compatibility blockers or migration notes). */
  messages: EnvelopeMessage[];
  ms: number;
  /** The request as a curl command, credentials as environment references. */
  curl: string;
  /** result_info.total_count, when the envelope has it: how many items the list holds (a page of security events: of how many). */
  total?: number;
  /** A list read (listZones, listAccounts) that stopped before its end: one sentence for the user ("Showing the first N of M
   * zones: …"), saying what stopped it (the page bound, or a page that cannot be the list going on). Absent when read whole. */
  incomplete?: string;
}

export interface ApiFail {
  ok: false;
  kind: ApiErrorKind;
  /** One or two sentences: what failed, where, and what the server said. */
  error: string;
  /** The envelope's errors (empty when there was no envelope). */
  errors: EnvelopeMessage[];
  /** Absent when no HTTP response arrived. */
  status?: number;
  /** A network failure's socket or TLS error code (request.ts HttpFail.code). */
  code?: string;
  ms: number;
  curl: string;
}

export type ApiResult<T> = ApiOk<T> | ApiFail;

export interface ApiOptions {
  /** e.g. https://api.example.com/client/v4 or the mock's apiBaseUrl. */
  baseUrl: string;
  /** API token for Authorization: Bearer. */
  token?: string;
  /** API key + email for the Logpush job endpoints. */
  apiKey?: string;
  apiEmail?: string;
  timeoutMs: number;
  /** Whose zones and jobs the API reads (Api.source); the base URL when not given. */
  source?: string;
  /** The base URL is the embedded mock backend's (HttpRequest.embeddedMock). */
  embeddedMock?: boolean;
}

/** Zone status requests the Zones view keeps in flight at once (client/src/http/limit.ts): a few, not one per zone, so an
 * account of 200 zones does not send 200 requests at once (the platform's API allows 1200 requests per 5 minutes per user). */
export const ZONE_STATUS_CONCURRENCY = 4;

export interface CallOptions {
  signal?: AbortSignal;
}

/** A list read page by page: `onPage` is told after each page how many items are listed so far, and how many the server says
 * there are (result_info.total_count, when it says). */
export interface ListOptions extends CallOptions {
  onPage?(listed: number, total: number | undefined): void;
}

/** Why the lists read are not whole (ApiOk.incomplete of each read that succeeded), as one text; undefined when each is whole. One
 * way for the Zones view and the zone-or-account pick (rv45: the same line twice). */
export function incompleteOf(...reads: ApiResult<unknown>[]): string | undefined {
  return reads.map((r) => (r.ok ? r.incomplete : undefined)).filter(Boolean).join(' ') || undefined;
}

/** Items asked for per page: the most the platform gives of zones and accounts (per_page 5-50). */
export const LIST_PER_PAGE = 50;

/**
 * Pages a list read follows at most: 400 pages of 50, 20,000 zones (or accounts). The bound is the platform's rate limit, not
 * memory (20,000 zones are a few MB): the API allows 1200 requests per 5 minutes per user, shared with the dashboard and every
 * other tool, and 400 pages are a third of it. An account with more zones than that is a platform (SaaS) account that a sidebar
 * does not serve; an agency of hundreds of accounts or an enterprise of thousands of zones is far below it. Reaching it is said
 * to the user (ApiOk.incomplete), never a silent cut.
 */
export const MAX_LIST_PAGES = 400;

export interface Api {
  readonly baseUrl: string;
  /**
   * Whose zones and jobs it reads: the same value for the same ones. The base URL, but for the embedded mock, whose URL changes
   * with each start (edgekit.mock.port 0, any free port) while its state file, and so its zones and jobs, stay.
   */
  readonly source: string;
  /** Every page of the zones (ListOptions: progress), or as many as MAX_LIST_PAGES and the server allow, said in `incomplete`. */
  listZones(opts?: ListOptions): Promise<ApiResult<Zone[]>>;
  zone(zoneId: string, opts?: CallOptions): Promise<ApiResult<Zone>>;
  check(zoneId: string, opts?: CallOptions): Promise<ApiResult<CheckResult>>;
  config(zoneId: string, opts?: CallOptions): Promise<ApiResult<MigrationConfig>>;
  status(zoneId: string, opts?: CallOptions): Promise<ApiResult<StatusRecord>>;
  /** The zone's entry point ruleset of phase http_request_firewall_managed (after migration: the deployed managed rules). */
  entrypoint(zoneId: string, opts?: CallOptions): Promise<ApiResult<Ruleset>>;
  updateEntrypoint(zoneId: string, mode: MigrationMode, body: unknown, opts?: CallOptions): Promise<ApiResult<Ruleset>>;
  createLogpushJob(zoneId: string, job: unknown, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>>>;
  /** Every page of the accounts, as listZones reads the zones. */
  listAccounts(opts?: ListOptions): Promise<ApiResult<Account[]>>;
  /** Jobs of account-scoped datasets (gateway_dns, audit_logs, ...) live under the account, not a zone. */
  createAccountLogpushJob(accountId: string, job: unknown, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>>>;
  logpushJobs(owner: JobOwner, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>[]>>;
  logpushJob(owner: JobOwner, jobId: number, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>>>;
  /** PUT: the members given replace the job's (`{ enabled: false }` disables it). Sent as the update takes them (jobUpdateBody:
   * without the read-only members, nor dataset and kind, which cannot change: see createOnlyChanges). */
  updateLogpushJob(owner: JobOwner, jobId: number, job: unknown, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>>>;
  deleteLogpushJob(owner: JobOwner, jobId: number, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>>>;
  /** POST …/logpush/ownership: the backend writes a file holding a token (the ownership challenge) into the destination. */
  logpushOwnership(owner: JobOwner, destinationConf: string, opts?: CallOptions): Promise<ApiResult<OwnershipChallenge>>;
  /** POST …/logpush/ownership/validate: whether `challenge` is the token the backend wrote for this destination. */
  validateLogpushOwnership(owner: JobOwner, destinationConf: string, challenge: string, opts?: CallOptions): Promise<ApiResult<{ valid: boolean }>>;
  /** Security events of a zone, newest first (the platform's REST security events path; `firewall_events` records). */
  securityEvents(zoneId: string, query?: SecurityEventsQuery, opts?: CallOptions): Promise<ApiResult<Record<string, unknown>[]>>;
}

/** The reply of POST …/logpush/ownership: the name of the file written into the destination, and the backend's words. */
export interface OwnershipChallenge { filename: string; message: string; valid?: boolean }

/**
 * The token in the embedded mock's reply to POST …/logpush/ownership ("…; the token is <token>."): the mock writes the file into a
 * local folder or a local S3 endpoint and also says the token, so that the flow can be tried without reading a bucket. The
 * platform's reply does not carry it: the token is only in the file it writes into your bucket.
 */
export function mockChallengeToken(message: string): string | undefined {
  return /\bthe token is ([A-Za-z0-9_-]+)\./.exec(message)?.[1];
}

/** Where a Logpush job lives: a zone (zone datasets) or an account (account datasets). */
export type JobOwner = { zone: string } | { account: string };

/** Where a job lives, with the owner's name for messages. */
export interface JobPlace { owner: JobOwner; ownerName: string }

export interface SecurityEventsQuery { since?: string; until?: string; action?: string; source?: string; rule_id?: string; per_page?: number; page?: number }

export interface Account { id: string; name: string }

/** Which credential a call sends when both are set; either works on the platform. */
type Auth = 'token-or-key' | 'key-or-token';

/**
 * What an operation needs, in the platform's own names, said when it answers 403 (docs/architecture.md, "Credentials checked when
 * entered; the permission a 403 lacks"): `token`, the API token permission; `role`, the account member roles that allow it (the key
 * pair acts as its user). Only where the platform's docs name them; elsewhere a 403 says the credentials lack permission for it.
 */
interface Needs { token: string; role?: string }
/** Logpush's "API configuration" and "Permissions" pages: every Logpush API operation requires Logs Write; of the roles, only those
 * with Log Share edit (Super Administrator, Administrator, Log Share) read and configure Logpush jobs. */
const LOGPUSH: Needs = { token: 'Logs Write', role: 'Super Administrator, Administrator or Log Share (Log Share edit)' };
/** The API reference's List Zones: accepted permission Zone Read. */
const ZONE_LIST: Needs = { token: 'Zone Read' };
/** The Rulesets API's "Update a zone entry point ruleset": at least one of a list of Write permissions, of which Zone WAF Write is
 * the managed WAF phase's (http_request_firewall_managed). */
const ZONE_WAF_WRITE: Needs = { token: 'Zone WAF Write' };
/** Whether a 403's envelope says the credentials are not valid at all (no missing permission): 9103, an unknown key pair; 9109 only
 * with "Invalid access token" (the mock's wrong token, mock/src/auth.ts), since the platform also answers 9109 "Unauthorized to
 * access requested resource" to a valid token that lacks the operation's permission, the case the permission's name is for (rv44). */
const refusedOutright = (e: EnvelopeMessage) => e.code === 9103 || (e.code === 9109 && /invalid/i.test(e.message));

/** The sentence a 403 adds: the permission `needs` names for the credential `sent`, or that the credentials lack it. */
export function permissionWords(needs: Needs | undefined, sent: 'token' | 'key', errors: EnvelopeMessage[]): string {
  if (errors.some(refusedOutright)) return '';
  const who = sent === 'token' ? 'The API token' : 'The API key and email';
  if (!needs) return ` ${who} lack${sent === 'token' ? 's' : ''} permission for this operation.`;
  if (sent === 'token') return ` The API token needs the permission "${needs.token}" for this.`;
  return ` The API key acts as its user, whose role does not allow this${needs.role ? `: it takes ${needs.role}` : ''} (an API token needs "${needs.token}").`;
}

/** What a token's verification (GET /user/tokens/verify) answers. */
export interface TokenStatus { id: string; status: string; expires_on?: string; not_before?: string }
/** Checks a result's shape (the envelope is passed for result_info): the typed value, or a sentence naming what is wrong. */
type Shape<T> = (v: unknown, envelope: Record<string, unknown>) => { value: T } | { problem: string };


/** The requests that check credentials as they are entered (Set API Credentials…). */
export interface CredentialChecks {
  /** GET /user/tokens/verify: the API token's status (the platform takes only a token there). */
  verifyToken(opts?: CallOptions): Promise<ApiResult<TokenStatus>>;
  /** GET /zones?per_page=5 with the key pair: one small page, which any valid key pair may read. */
  checkKeyPair(opts?: CallOptions): Promise<ApiResult<Zone[]>>;
}

export function createApi(options: ApiOptions): Api & CredentialChecks {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const zonePath = (zoneId: string, rest: string) => `/zones/${encodeURIComponent(zoneId)}${rest}`;

  function authHeaders(auth: Auth): Record<string, string> | string {
    const token = options.token?.trim();
    const key = options.apiKey?.trim();
    const email = options.apiEmail?.trim();
    const bearer = token ? { Authorization: `Bearer ${token}` } : undefined;
    const pair = key && email ? { 'X-Auth-Key': key, 'X-Auth-Email': email } : undefined;
    const chosen = auth === 'token-or-key' ? bearer ?? pair : pair ?? bearer;
    if (chosen) return chosen;
    if (key && !email) return 'an API key is set without its email (X-Auth-Key needs X-Auth-Email), and no API token is set';
    return 'no API token, and no API key and email, are set';
  }

  async function call<T>(what: string, method: string, path: string, auth: Auth, shape: Shape<T>, body: unknown, opts: CallOptions | undefined, needs?: Needs | null): Promise<ApiResult<T>> {
    const url = `${baseUrl}${path}`;
    const headers = authHeaders(auth);
    const req: HttpRequest = { method, url, headers: typeof headers === 'string' ? {} : headers, body, timeoutMs: options.timeoutMs, signal: opts?.signal, embeddedMock: options.embeddedMock };
    const curl = toCurl(req, { redactSecrets: true });
    if (typeof headers === 'string') {
      return { ok: false, kind: 'credentials', error: `Cannot ${what}: ${headers}.`, errors: [], ms: 0, curl };
    }
    const res = await request(req);
    if (!res.ok) return { ok: false, kind: res.kind, error: `Cannot ${what}: ${res.error}`, errors: [], ...(res.code ? { code: res.code } : {}), ms: res.ms, curl };
    const errors = envelopeErrors(res.body);
    const where = `${method} ${describeTarget(url)}`;
    if (res.status < 200 || res.status > 299) {
      // null: a 403 that no missing permission explains (a list's later page, whose first the same credentials read).
      const lacks = res.status === 403 && needs !== null ? permissionWords(needs ?? undefined, 'Authorization' in headers ? 'token' : 'key', errors ?? []) : '';
      return { ok: false, kind: 'http', status: res.status, error: `Cannot ${what} (${where}): ${describeHttpError(res.status, res.body, res.headers)}${lacks}`, errors: errors ?? [], ms: res.ms, curl };
    }
    if (!errors || !isObj(res.body)) {
      return { ok: false, kind: 'shape', status: res.status, error: `Cannot ${what} (${where}): the response is not an API envelope ({success, errors, messages, result}).`, errors: [], ms: res.ms, curl };
    }
    if (res.body.success !== true) {
      return { ok: false, kind: 'envelope', status: res.status, error: `Cannot ${what} (${where}): ${describeHttpError(res.status, res.body, res.headers)}`, errors, ms: res.ms, curl };
    }
    const checked = shape(res.body.result, res.body);
    if ('problem' in checked) {
      return { ok: false, kind: 'shape', status: res.status, error: `Cannot ${what} (${where}): ${checked.problem}`, errors: [], ms: res.ms, curl };
    }
    const messages = envelopeErrors({ success: true, errors: res.body.messages }) ?? [];
    const total = isObj(res.body.result_info) ? wholeNumber(res.body.result_info.total_count) : undefined;
    return { ok: true, status: res.status, result: checked.value, messages, ms: res.ms, curl, ...(total !== undefined ? { total } : {}) };
  }

  /**
   * Every page of a paged list (page and per_page, as the platform pages zones and accounts), items kept once by id. The read ends at
   * result_info.total_pages, the last said (without it on any page: at a page shorter than asked, as the SDK's iterators end at an
   * empty one). What a server that misbehaves sends cannot keep it going: a page bringing no item not already listed (the same page
   * again, a page past the end that is not empty) stops it, as does an empty page before total_pages, and MAX_LIST_PAGES; each is
   * said in `incomplete`.
   */
  async function listAll<T extends { id: string }>(what: string, noun: string, path: string, item: (v: unknown, i: number) => T | string,
    opts: ListOptions | undefined, needs?: Needs): Promise<ApiResult<T[]>> {
    const listed = new Map<string, T>();
    let messages: EnvelopeMessage[] = [];
    let ms = 0;
    // What the last page that had result_info said: a page without it (a server that sends it on page 1 only) does not unsay it.
    let said: { totalPages?: number; totalCount?: number } = {};
    for (let page = 1; ; page++) {
      // A 403 past page 1 names no permission: the same credentials read the pages before it (rv45).
      const res = await call(what, 'GET', `${path}?page=${page}&per_page=${LIST_PER_PAGE}`, 'token-or-key', shapePage(noun, item), undefined, opts,
        page === 1 ? needs : null);
      if (!res.ok) {
        const before = page === 1 ? '' : ` This was page ${page}${said.totalPages !== undefined ? ` of ${said.totalPages}` : ''}; the same credentials read pages 1-${page - 1} (${listed.size} ${noun}).`;
        return { ...res, error: `${res.error}${before}`, ms: ms + res.ms };
      }
      ms += res.ms;
      messages = messages.concat(res.messages);
      const { items } = res.result;
      if (res.result.totalPages !== undefined || res.total !== undefined) said = { totalPages: res.result.totalPages, totalCount: res.total };
      const { totalPages, totalCount } = said;
      const before = listed.size;
      for (const x of items) if (!listed.has(x.id)) listed.set(x.id, x);
      opts?.onPage?.(listed.size, totalCount);
      const of = totalCount !== undefined && totalCount > listed.size ? ` of ${totalCount}` : '';
      const stopped = (why: string) => `Showing ${of ? 'the first ' : ''}${listed.size}${of} ${noun}${of ? '' : ', perhaps not all'}: ${why}, so the read stopped there.`;
      // null: read on; undefined: read whole; a sentence: stopped short.
      let incomplete: string | undefined | null = null;
      if (items.length === 0) {
        // An empty page ends the list (the SDK's iterators stop there), short of the total_pages said before it.
        incomplete = totalPages !== undefined && page > 1 && page <= totalPages ? stopped(`page ${page} of ${totalPages} (GET ${path}) came back empty`) : undefined;
      } else if (listed.size === before) {
        incomplete = stopped(`page ${page} (GET ${path}) held only ${noun} already listed (the server answered the same page again)`);
      } else if (page >= (totalPages ?? (items.length < LIST_PER_PAGE ? page : Infinity))) {
        incomplete = undefined;
      } else if (page >= MAX_LIST_PAGES) {
        incomplete = stopped(`EdgeKit reads at most ${MAX_LIST_PAGES} pages of ${LIST_PER_PAGE} (the API allows 1200 requests per 5 minutes)`);
      }
      if (incomplete !== null) return { ...res, result: [...listed.values()], messages, ms, ...(incomplete ? { incomplete } : {}) };
    }
  }

  return {
    baseUrl,
    source: options.source ?? baseUrl,
    listZones: (opts) => listAll('list zones', 'zones', '/zones', (v, i) => shapeZoneValue(v, `zone ${i}`), opts, ZONE_LIST),
    verifyToken: (opts) => call('verify the API token', 'GET', '/user/tokens/verify', 'token-or-key', shapeTokenStatus, undefined, opts),
    checkKeyPair: async (opts) => {
      const res = await call('list zones with the API key and email', 'GET', '/zones?page=1&per_page=5', 'key-or-token',
        shapePage('zones', (v, i) => shapeZoneValue(v, `zone ${i}`)), undefined, opts, ZONE_LIST);
      return res.ok ? { ...res, result: res.result.items } : res;
    },
    zone: (zoneId, opts) => call(`get zone "${zoneId}"`, 'GET', zonePath(zoneId, ''), 'token-or-key', shapeZone, undefined, opts),
    check: (zoneId, opts) => call(`check zone "${zoneId}" for migration`, 'GET', zonePath(zoneId, '/waf_migration/check?phase_two=1'), 'token-or-key', shapeCheck, undefined, opts),
    config: (zoneId, opts) => call(`get the new configuration of zone "${zoneId}"`, 'GET', zonePath(zoneId, '/waf_migration/config?phase_two=1'), 'token-or-key', shapeConfig, undefined, opts),
    status: (zoneId, opts) => call(`get the WAF status of zone "${zoneId}"`, 'GET', zonePath(zoneId, '/waf_migration/status'), 'token-or-key', shapeStatus, undefined, opts),
    entrypoint: (zoneId, opts) => call(`get the managed-rules entry point ruleset of zone "${zoneId}"`, 'GET',
      zonePath(zoneId, '/rulesets/phases/http_request_firewall_managed/entrypoint'), 'token-or-key', shapeRuleset, undefined, opts),
    updateEntrypoint: (zoneId, mode, body, opts) =>
      call(`update the managed-rules entry point of zone "${zoneId}" (waf_migration=${mode})`, 'PUT',
        zonePath(zoneId, `/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1`), 'token-or-key', shapeRuleset, body, opts, ZONE_WAF_WRITE),
    createLogpushJob: (zoneId, job, opts) => call(`create a Logpush job in zone "${zoneId}"`, 'POST', zonePath(zoneId, '/logpush/jobs'), 'key-or-token', shapeObject('Logpush job'), jobBody(job), opts, LOGPUSH),
    listAccounts: (opts) => listAll('list accounts', 'accounts', '/accounts', shapeAccount, opts),
    createAccountLogpushJob: (accountId, job, opts) => call(`create a Logpush job in account "${accountId}"`, 'POST',
      `/accounts/${encodeURIComponent(accountId)}/logpush/jobs`, 'key-or-token', shapeObject('Logpush job'), jobBody(job), opts, LOGPUSH),
    logpushJobs: (owner, opts) => call(`list the Logpush jobs of ${ownerWords(owner)}`, 'GET', jobsPath(owner), 'key-or-token', shapeObjects('Logpush job'), undefined, opts, LOGPUSH),
    logpushJob: (owner, jobId, opts) => call(`get Logpush job ${jobId} of ${ownerWords(owner)}`, 'GET', jobsPath(owner, jobId), 'key-or-token', shapeObject('Logpush job'), undefined, opts, LOGPUSH),
    updateLogpushJob: (owner, jobId, job, opts) => call(`update Logpush job ${jobId} of ${ownerWords(owner)}`, 'PUT', jobsPath(owner, jobId), 'key-or-token', shapeObject('Logpush job'), jobUpdateBody(job), opts, LOGPUSH),
    logpushOwnership: (owner, conf, opts) => call(`ask for an ownership challenge of "${conf}" in ${ownerWords(owner)}`, 'POST', logpushPath(owner, '/ownership'),
      'key-or-token', shapeOwnership, { destination_conf: conf }, opts, LOGPUSH),
    validateLogpushOwnership: (owner, conf, challenge, opts) => call(`validate the ownership challenge of "${conf}" in ${ownerWords(owner)}`, 'POST',
      logpushPath(owner, '/ownership/validate'), 'key-or-token', shapeValid, { destination_conf: conf, ownership_challenge: challenge }, opts, LOGPUSH),
    deleteLogpushJob: (owner, jobId, opts) => call(`delete Logpush job ${jobId} of ${ownerWords(owner)}`, 'DELETE', jobsPath(owner, jobId), 'key-or-token', shapeObject('deleted Logpush job'), undefined, opts, LOGPUSH),
    securityEvents: (zoneId, query, opts) => {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') q.set(k, String(v));
      const qs = q.toString();
      return call(`list the security events of zone "${zoneId}"`, 'GET', zonePath(zoneId, `/security/events${qs ? `?${qs}` : ''}`), 'token-or-key', shapeObjects('security event'), undefined, opts);
    },
  };
}

/** `/zones/<id>/logpush<rest>` or `/accounts/<id>/logpush<rest>`. */
function logpushPath(owner: JobOwner, rest: string): string {
  return `${'zone' in owner ? `/zones/${encodeURIComponent(owner.zone)}` : `/accounts/${encodeURIComponent(owner.account)}`}/logpush${rest}`;
}

/** The jobs of a zone or an account, or one of them. */
function jobsPath(owner: JobOwner, jobId?: number): string {
  return logpushPath(owner, jobId === undefined ? '/jobs' : `/jobs/${encodeURIComponent(String(jobId))}`);
}

function ownerWords(owner: JobOwner): string {
  return 'zone' in owner ? `zone "${owner.zone}"` : `account "${owner.account}"`;
}

// ---- shapes ----

const shapeTokenStatus: Shape<TokenStatus> = (v) => {
  if (!isObj(v) || typeof v.id !== 'string' || typeof v.status !== 'string') return { problem: 'the token\'s verification ("result") has no string "id" and "status".' };
  const date = (k: string) => (typeof v[k] === 'string' ? { [k]: v[k] as string } : {});
  return { value: { id: v.id, status: v.status, ...date('expires_on'), ...date('not_before') } };
};

function shapeZoneValue(v: unknown, at: string): Zone | string {
  if (!isObj(v)) return `${at} is not an object.`;
  if (typeof v.id !== 'string' || !v.id) return `${at} has no string "id".`;
  if (typeof v.name !== 'string') return `${at} ("${v.id}") has no string "name".`;
  const plan = isObj(v.plan) ? v.plan : undefined;
  const legacy = plan && typeof plan.legacy_id === 'string' ? plan.legacy_id : undefined;
  if (!legacy) return `${at} ("${v.name}") has no "plan.legacy_id".`;
  return { id: v.id, name: v.name, plan: { legacy_id: legacy, ...(typeof plan?.name === 'string' ? { name: plan.name } : {}) } };
}

const shapeZone: Shape<Zone> = (v) => {
  const z = shapeZoneValue(v, 'the zone');
  return typeof z === 'string' ? { problem: z } : { value: z };
};

/** One page of a paged list (`item` checks each, or names what is wrong), and result_info's total_pages when it has it. */
function shapePage<T>(noun: string, item: (v: unknown, i: number) => T | string): Shape<{ items: T[]; totalPages?: number }> {
  return (v, envelope) => {
    if (!Array.isArray(v)) return { problem: `the ${noun} list ("result") is not an array.` };
    const items: T[] = [];
    for (let i = 0; i < v.length; i++) {
      const x = item(v[i], i);
      if (typeof x === 'string') return { problem: x };
      items.push(x);
    }
    const info = isObj(envelope.result_info) ? envelope.result_info : {};
    return { value: { items, totalPages: wholeNumber(info.total_pages) } };
  };
}

/** A count of result_info: a whole number, or undefined for anything else. */
function wholeNumber(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

const shapeCheck: Shape<CheckResult> = (v) => {
  if (!isObj(v)) return { problem: 'the compatibility result is not an object.' };
  if (typeof v.compatible !== 'boolean') return { problem: `"compatible" is ${JSON.stringify(v.compatible)}, not true or false.` };
  if (typeof v.migration_state !== 'string') return { problem: `"migration_state" is ${JSON.stringify(v.migration_state)}, not a string.` };
  return { value: { compatible: v.compatible, migration_state: v.migration_state } };
};

/** The status record's switches: the mock's booleans, or the platform's words (old_waf_status / new_waf_status: "enabled",
 * "disabled"; the spec does not name the fields, the platform's answers carry these). */
const STATUS_SWITCHES = [['old_rules_enabled', 'old_waf_status'], ['new_rules_enabled', 'new_waf_status']] as const;

const shapeStatus: Shape<StatusRecord> = (v) => {
  if (!isObj(v)) return { problem: 'the status record is not an object.' };
  if (typeof v.migration_state !== 'string') return { problem: `"migration_state" is ${JSON.stringify(v.migration_state)}, not a string.` };
  const on: Partial<Record<(typeof STATUS_SWITCHES)[number][0], boolean>> = {};
  for (const [k, words] of STATUS_SWITCHES) {
    const b = v[k];
    const w = v[words];
    if (typeof b === 'boolean') on[k] = b;
    else if (typeof w === 'string') on[k] = w.trim().toLowerCase() === 'enabled';
    else return { problem: `"${k}" is ${JSON.stringify(b)}, not true or false.` };
  }
  return { value: { migration_state: v.migration_state, old_rules_enabled: on.old_rules_enabled!, new_rules_enabled: on.new_rules_enabled! } };
};

const shapeConfig: Shape<MigrationConfig> = (v) => {
  if (!isObj(v)) return { problem: 'the new configuration is not an object.' };
  if (typeof v.name !== 'string') return { problem: 'the new configuration has no string "name".' };
  if (!Array.isArray(v.rules)) return { problem: 'the new configuration has no "rules" array.' };
  const bad = v.rules.findIndex((r) => !isObj(r));
  if (bad >= 0) return { problem: `rules[${bad}] of the new configuration is not an object.` };
  return { value: v as MigrationConfig };
};

const shapeRuleset: Shape<Ruleset> = (v) => (isObj(v) ? { value: v as Ruleset } : { problem: 'the updated ruleset is not an object.' });

function shapeAccount(a: unknown, i: number): Account | string {
  return isObj(a) && typeof a.id === 'string' && typeof a.name === 'string' ? { id: a.id, name: a.name } : `account ${i} has no string "id" and "name".`;
}

function shapeObjects(what: string): Shape<Record<string, unknown>[]> {
  return (v) => (Array.isArray(v) && v.every(isObj) ? { value: v } : { problem: `the ${what} list is not an array of objects.` });
}

function shapeOwnership(v: unknown): { value: OwnershipChallenge } | { problem: string } {
  if (!isObj(v) || typeof v.filename !== 'string' || !v.filename) return { problem: 'the ownership challenge reply has no "filename".' };
  return { value: { filename: v.filename, message: typeof v.message === 'string' ? v.message : '', ...(typeof v.valid === 'boolean' ? { valid: v.valid } : {}) } };
}

function shapeValid(v: unknown): { value: { valid: boolean } } | { problem: string } {
  return isObj(v) && typeof v.valid === 'boolean' ? { value: { valid: v.valid } } : { problem: 'the validation reply has no boolean "valid".' };
}

function shapeObject(what: string): Shape<Record<string, unknown>> {
  return (v) => (isObj(v) ? { value: v } : { problem: `the ${what} is not an object.` });
}

// ---- helpers for callers ----

/** The plan of a zone, lower-cased ("pro", "business", "enterprise", ...). */
export function planOf(zone: Zone): string {
  return zone.plan.legacy_id.toLowerCase();
}

/** The migration states of the spec's state table, in order. */
export const MIGRATION_STATES = ['start', 'validation', 'migrated'] as const;

/** A zone's migration_state in the words the Zones view and the zone pickers show. No word of one is within another's: the zone pick
 * filters descriptions on substrings, and "not migrated" was found by a filter on "migrated". */
export function migrationStateLabel(state: string): string {
  return state === 'start' ? 'migration not started' : state === 'validation' ? 'validation mode' : state === 'migrated' ? 'migrated' : state;
}

/** What the Zones view (and the zone picks after it) says of a zone's state: its migration state, or that its status could not be
 * read (`problem`). */
export function zoneStateWords(status: StatusRecord | undefined, problem?: string): string {
  return problem ? 'status unavailable' : migrationStateLabel(status?.migration_state ?? 'unknown');
}

export function isEnterprise(zone: Zone): boolean {
  return planOf(zone) === 'enterprise';
}

/**
 * The entry point update body for a mode: name and rules. A pending body keeps each rule's id, version and ref (as the config
 * returned them); a validation body leaves them out, as the spec shows.
 */
/**
 * A Logpush job file as the API takes it on create: without "$schema" (editor use only) and the members only the API writes (id,
 * last_complete, last_error, error_message), which a job copied from GET .../logpush/jobs carries and the job schema accepts.
 */
export function jobBody(job: unknown): unknown {
  if (!job || typeof job !== 'object' || Array.isArray(job)) return job;
  const copy: Record<string, unknown> = { ...(job as Record<string, unknown>) };
  for (const k of ['$schema', 'id', 'last_complete', 'last_error', 'error_message']) delete copy[k];
  return copy;
}

/**
 * The members of a Logpush job the platform sets only when the job is created: its update (PUT …/logpush/jobs/{id}) does not take
 * them. "dataset" is not among the update's parameters (the API's JobUpdateParams; Terraform replaces the job when it changes);
 * "kind" is listed there, but the docs say it "cannot be used to update existing Logpush jobs" (api-configuration, "Kind").
 */
export const CREATE_ONLY_MEMBERS = ['dataset', 'kind'] as const;

/** A job document as the update takes it: jobBody without the members only a creation sets (see createOnlyChanges). */
export function jobUpdateBody(job: unknown): unknown {
  const body = jobBody(job);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const k of CREATE_ONLY_MEMBERS) delete copy[k];
  return copy;
}

/** The dataset of a job whose record has none (null or absent): the platform's default, as the checker reads a job (jobDataset). */
const DEFAULT_JOB_DATASET = 'http_requests';

/**
 * The create-only members a job document holds with another value than the job on the backend: what an update cannot change (a
 * new job can). A "kind" of null or absent is the platform's "" (a Logpush job, not an Edge Log Delivery one); a "dataset" of
 * null or absent is its default, http_requests (the SDK's LogpushJob has `dataset?: … | null`).
 */
export function createOnlyChanges(doc: Record<string, unknown>, backend: Record<string, unknown>): { member: string; doc: unknown; backend: unknown }[] {
  const norm = (k: string, v: unknown) => (v === null || v === undefined ? (k === 'kind' ? '' : DEFAULT_JOB_DATASET) : v);
  return CREATE_ONLY_MEMBERS.filter((k) => k in doc && JSON.stringify(norm(k, doc[k])) !== JSON.stringify(norm(k, backend[k])))
    .map((k) => ({ member: k, doc: doc[k], backend: norm(k, backend[k]) }));
}

/** A stored entry point ruleset as a configuration (name and rules) to review and send again. */
export function rulesetAsConfig(r: Ruleset): MigrationConfig {
  return { name: typeof r.name === 'string' ? r.name : 'default', rules: Array.isArray(r.rules) ? r.rules : [] };
}

/**
 * The new managed-rules configuration of a zone as it stands: once validation mode or the migration has deployed one, the entry
 * point the zone runs (the config operation keeps deriving a configuration from the previous rules, without what was adjusted
 * for validation mode or since); before that, or when the status or the entry point cannot be read, the config operation's.
 */
export async function currentConfig(api: Pick<Api, 'status' | 'entrypoint' | 'config'>, zoneId: string, opts?: CallOptions): Promise<ApiResult<MigrationConfig>> {
  const status = await api.status(zoneId, opts);
  if (status.ok && (status.result.migration_state === 'validation' || status.result.migration_state === 'migrated')) return deployedConfig(api, zoneId, opts);
  return api.config(zoneId, opts);
}

/**
 * The configuration deployed on a zone: its managed-rules entry point, or the config operation's when the zone has none to read (a
 * 404). `messages` are the config operation's notes (what it does not migrate); a deployed entry point has none.
 */
export async function deployedConfig(api: Pick<Api, 'entrypoint' | 'config'>, zoneId: string, opts?: CallOptions): Promise<ApiResult<MigrationConfig>> {
  const ep = await api.entrypoint(zoneId, opts);
  if (ep.ok) return { ...ep, result: rulesetAsConfig(ep.result), messages: [] };
  return ep.status === 404 ? api.config(zoneId, opts) : ep;
}

export function entrypointBody(config: MigrationConfig, mode: MigrationMode): { name: string; rules: ConfigRule[] } {
  if (mode === 'pending') return { name: config.name, rules: config.rules };
  return {
    name: config.name,
    rules: config.rules.map((r) => {
      const copy: ConfigRule = { ...r };
      delete copy.id;
      delete copy.version;
      delete copy.ref;
      return copy;
    }),
  };
}

/** How checkCredentials begins a credential's sentence when its request reached no answer; what follows is request.ts's cause
 * (after "GET host/path failed: "), the same for two requests failing alike. */
const UNREACHED_TOKEN = 'The API token could not be checked: ';
const UNREACHED_KEY = 'The API key and email could not be checked: ';
const UNREACHED_BOTH = 'Neither the API token nor the API key and email could be checked: ';

/** The outcome of checking credentials as they are entered: `ok` when each one given was accepted, and the words that say so;
 * `unreached` when no check got an answer (the API not reached: nothing is known of the credentials themselves). */
export interface CredentialCheck { ok: boolean; words: string; unreached?: true }

/**
 * Checks the credentials entered against `baseUrl` (docs/architecture.md, "Credentials checked when entered"): the API token with
 * GET /user/tokens/verify (its status and dates), the key pair with one small page of GET /zones. Each credential given is checked
 * and said: valid (and until when), expired, disabled or not yet valid, refused (with what the API said), or the API not reachable.
 */
export async function checkCredentials(options: ApiOptions, opts?: CallOptions, now = new Date()): Promise<CredentialCheck> {
  const said: string[] = [];
  let ok = true;
  let answered = false;
  const where = options.baseUrl.replace(/\/+$/, '');
  const failed = (who: string, res: ApiFail): string => {
    ok = false;
    // Not reached: the cause first (request.ts's words after "GET <url> failed: "), not the address, which the flow's title and the
    // saved message already name, and before which a quick pick's placeholder was cut (ux3).
    if (res.status === undefined) {
      const reason = res.error.replace(/^Cannot [^:]*: /, '').replace(/^[A-Z]+ \S+ (failed: )?/, (_all, failed?: string) => (failed ? '' : 'the request '));
      return `${who} could not be checked: ${reason}`;
    }
    answered = true;
    const refused = res.status === 401 || res.status === 403 ? (who.includes(' and ') ? 'were refused' : 'was refused') : 'could not be checked';
    return `${who} ${refused} by ${where}: ${res.error.replace(/^Cannot [^(]*\([^)]*\): /, '')}`;
  };
  if (options.token?.trim()) {
    const res = await createApi({ ...options, apiKey: undefined, apiEmail: undefined }).verifyToken(opts);
    if (!res.ok) said.push(failed('The API token', res));
    else {
      answered = true;
      const t = res.result;
      const notYet = t.not_before && Date.parse(t.not_before) > now.getTime();
      if (t.status === 'active' && !notYet) said.push(`The API token is valid (active${t.expires_on ? `, expires ${t.expires_on}` : ', with no expiry date'}).`);
      else {
        ok = false;
        if (t.status === 'expired') said.push(`The API token has expired${t.expires_on ? ` (${t.expires_on})` : ''}.`);
        else if (t.status === 'disabled') said.push('The API token is disabled (its owner can enable it again where it was created).');
        else if (notYet) said.push(`The API token is not valid yet: not before ${t.not_before}.`);
        else said.push(`The API token's status is "${t.status}", not "active".`);
      }
    }
  }
  if (options.apiKey?.trim() && options.apiEmail?.trim()) {
    const res = await createApi({ ...options, token: undefined }).checkKeyPair(opts);
    const tokenUnreached = said.length === 1 && said[0].startsWith(UNREACHED_TOKEN);
    // Both unreached for one reason: said once, naming both (its words and request.ts's advice were said twice in a row; rv45), as
    // "Neither … nor …" (rv47: "The API token and the API key and email could not be checked" read as three things or two).
    if (res.ok) answered = true;
    const keyWords = res.ok ? '' : failed('The API key and email', res);
    if (!res.ok && res.status === undefined && tokenUnreached && said[0].slice(UNREACHED_TOKEN.length) === keyWords.slice(UNREACHED_KEY.length)) {
      said[0] = UNREACHED_BOTH + said[0].slice(UNREACHED_TOKEN.length);
    } else said.push(res.ok ? `The API key and email are valid (${options.apiEmail.trim()}).` : keyWords);
  }
  // What the API said is quoted: a server that echoes what it was sent (a typo'd or hostile address) would put the secret just
  // typed into the modal's detail and the saved message; each one given is masked, as is anything redact() knows (rv44). (One
  // shorter than 8 characters is no real token or key, and masking it would cut the words themselves: "t" in "token".)
  let words = said.join(' ');
  for (const secret of [options.token?.trim(), options.apiKey?.trim()]) if (secret && secret.length >= 8) words = words.split(secret).join('***');
  return { ok, words: redact(words), ...(!ok && !answered ? { unreached: true as const } : {}) };
}
