// The mock as the official Cloudflare TypeScript SDK (`cloudflare` on npm) sees it: zones, the previous WAF API, firewall rules and
// page rules listed to the end; Logpush jobs of a zone and of an account (create, list, get, update, delete), dataset fields and jobs,
// destination and origin validation, the ownership challenge; rulesets (list by cursor, get, versions, any phase's entry point, the
// typed entry point update and its dry run); the migration routes through the SDK's raw get/put; both credential forms and the
// platform's refusals, as the SDK's own error classes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Cloudflare, { BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import type { MockBackend } from '../../../mock/src/backend';
import { ACCOUNTS, ZONES, zoneById, zoneId } from '../../../mock/src/zones';
import { CREDS, start } from './helpers';

let m: MockBackend;
let cf: Cloudflare;
const ZONE = zoneId('pro.example');
const ACCOUNT = ACCOUNTS[0].id;
const JOB = { name: 'sdk-job', dataset: 'http_requests', destination_conf: 's3://logs/http?region=us-east-1', filter: JSON.stringify({ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }) } as const;
const MANAGED = 'http_request_firewall_managed';

before(async () => {
  // No per-IP limit: the SDK's calls of this file reach about 100 per second here (about 100 in all, far under the per-user 1200
  // per 5 minutes, which stays on), and a faster machine could pass the platform's 200 per second per IP.
  m = await start({ rateLimit: { perIp: false } });
  cf = new Cloudflare({ apiToken: CREDS.apiToken, baseURL: m.apiBaseUrl, maxRetries: 0 });
});
after(() => m.close());

/** Every item of an SDK list, as `for await` reads it; a list that does not end (a page past the end that is not empty) fails
 * the test at `max` items instead of hanging it. */
async function listAll<T>(list: AsyncIterable<T>, max = 1000): Promise<T[]> {
  const out: T[] = [];
  for await (const item of list) {
    out.push(item);
    assert.ok(out.length <= max, `the list did not end after ${max} items`);
  }
  return out;
}

/** An SDK error of this class, status and first envelope error code (the SDK keeps the envelope's errors). */
function apiError(cls: abstract new (...args: never[]) => Error, status: number, code: number) {
  return (e: unknown) => {
    const err = e as { status?: number; errors?: { code: number }[]; message: string };
    assert.ok(e instanceof cls, `${(e as Error).name}: ${err.message}`);
    assert.equal(err.status, status, err.message);
    assert.equal(err.errors?.[0]?.code, code, err.message);
    return true;
  };
}

test('zones: the SDK iterates every page to the end, with page sizes, filters and order; records have the platform\'s members', async () => {
  const names = (await listAll(cf.zones.list())).map((z) => z.name);
  assert.deepEqual(names, ZONES.map((z) => z.name).sort());
  const small = (await listAll(cf.zones.list({ per_page: 5 }))).map((z) => z.name);
  assert.deepEqual(small, names, 'two pages of at most 5, then an empty one ends the loop');
  const page2 = await cf.zones.list({ per_page: 5, page: 2 });
  assert.equal(page2.result.length, names.length - 5);
  assert.deepEqual(page2.result_info, { page: 2, per_page: 5, count: names.length - 5, total_count: names.length, total_pages: 2 });
  const past = await cf.zones.list({ per_page: 5, page: 9 });
  assert.deepEqual(past.result, []);
  const desc = (await listAll(cf.zones.list({ order: 'name', direction: 'desc' }))).map((z) => z.name);
  assert.deepEqual(desc, [...names].reverse());
  const one = await cf.zones.list({ name: 'pro.example' });
  assert.deepEqual(one.result.map((z) => z.id), [ZONE]);
  assert.equal((await cf.zones.list({ name: 'starts_with:enterprise' })).result.length, 2);
  assert.equal((await cf.zones.list({ account: { id: ACCOUNT }, status: 'active' })).result.length, names.length);
  assert.equal((await cf.zones.list({ status: 'pending' })).result.length, 0);
  assert.equal((await cf.zones.list({ status: 'pending', name: 'pro.example', match: 'any' })).result.length, 1);
  const zone = await cf.zones.get({ zone_id: ZONE });
  assert.equal(zone.name, 'pro.example');
  for (const k of ['account', 'created_on', 'modified_on', 'activated_on', 'development_mode', 'meta', 'name_servers', 'original_name_servers', 'owner', 'plan', 'status', 'type']) {
    assert.ok(k in zone, `the zone record has "${k}"`);
  }
  const accounts = (await listAll(cf.accounts.list())).map((a) => a.id);
  assert.deepEqual(accounts, [ACCOUNT]);
});

test('the previous WAF API, firewall rules and page rules: every list ends, in the API\'s page sizes', async () => {
  const big = zoneId('too-many-rules.example');
  const ids = (await listAll(cf.firewall.rules.list({ zone_id: big }))).map((r) => r.id!);
  assert.equal(ids.length, zoneById(big)!.waf.firewallRules.length, 'over 200 rules, 25 a page by default');
  assert.equal(new Set(ids).size, ids.length);
  const first = await cf.firewall.rules.list({ zone_id: big });
  assert.equal(first.result.length, 25);
  assert.equal((await cf.firewall.rules.get(ids[1], { zone_id: big })).filter && 'expression' in (await cf.firewall.rules.get(ids[1], { zone_id: big })).filter!, true);
  assert.deepEqual((await cf.firewall.rules.list({ zone_id: ZONE, description: 'office' })).result.map((r) => r.action), ['bypass']);

  const packages = (await listAll(cf.firewall.waf.packages.list({ zone_id: ZONE }))).map((pkg) => (pkg as { id: string }).id);
  assert.equal(packages.length, 2);
  let groups = 0;
  let rules = 0;
  for (const pkg of packages) {
    groups += (await listAll(cf.firewall.waf.packages.groups.list(pkg, { zone_id: ZONE, per_page: 5 }))).filter((g) => g.rules_count > 0).length;
    rules += (await listAll(cf.firewall.waf.packages.rules.list(pkg, { zone_id: ZONE, per_page: 5 }))).length;
  }
  assert.equal(groups, zoneById(ZONE)!.waf.packages.reduce((n, p) => n + p.groups.length, 0));
  assert.equal(rules, zoneById(ZONE)!.waf.packages.reduce((n, p) => n + p.groups.reduce((k, g) => k + g.rules.length, 0), 0));
  const byPriority = await cf.firewall.waf.packages.rules.list(packages[0], { zone_id: ZONE, order: 'priority', direction: 'desc' });
  const priorities = byPriority.result.map((r) => Number((r as { priority: string }).priority));
  assert.deepEqual(priorities, [...priorities].sort((a, b) => b - a));

  const pageRules = await cf.pageRules.list({ zone_id: ZONE });
  assert.equal(pageRules.length, zoneById(ZONE)!.waf.pageRules.length);
  assert.equal((await cf.pageRules.get(pageRules[0].id, { zone_id: ZONE })).id, pageRules[0].id);
});

test('Logpush jobs of a zone: create, list, get, update, delete, with the body the SDK sends', async () => {
  const job = await cf.logpush.jobs.create({
    zone_id: ZONE, ...JOB, output_options: { field_names: ['ClientIP', 'EdgeStartTimestamp'], timestamp_format: 'rfc3339' },
    max_upload_records: 1000, frequency: 'low', filter_attack_traffic: false,
  });
  assert.ok(job && typeof job.id === 'number');
  assert.equal(job.enabled, false);
  // The record as the platform returns it: the job's own members, and the server's.
  for (const k of ['last_complete', 'last_error', 'error_message', 'frequency', 'max_upload_bytes', 'max_upload_records', 'max_upload_interval_seconds', 'output_options', 'kind']) {
    assert.ok(k in job, `the job record has "${k}"`);
  }
  assert.deepEqual(job.output_options, { field_names: ['ClientIP', 'EdgeStartTimestamp'], timestamp_format: 'rfc3339' });
  const listed = (await listAll(cf.logpush.jobs.list({ zone_id: ZONE }))).map((j) => j!.id!);
  assert.ok(listed.includes(job.id!));
  const ofDataset = (await cf.logpush.datasets.jobs.get('http_requests', { zone_id: ZONE })).result;
  assert.ok(ofDataset.some((j) => j?.id === job.id));
  assert.deepEqual((await cf.logpush.datasets.jobs.get('dns_logs', { zone_id: ZONE })).result, []);
  assert.equal((await cf.logpush.jobs.get(job.id!, { zone_id: ZONE }))?.name, 'sdk-job');
  const updated = await cf.logpush.jobs.update(job.id!, { zone_id: ZONE, enabled: true, max_upload_interval_seconds: 60 });
  assert.equal(updated?.enabled, true);
  assert.equal(updated?.max_upload_interval_seconds, 60);
  assert.equal(updated?.last_complete, null, 'the server\'s members are read-only');
  await assert.rejects(cf.logpush.jobs.update(job.id!, { zone_id: ZONE, filter: '{"key": "x"}' }), apiError(BadRequestError, 400, 1004));
  await cf.logpush.jobs.delete(job.id!, { zone_id: ZONE });
  await assert.rejects(cf.logpush.jobs.get(job.id!, { zone_id: ZONE }), apiError(NotFoundError, 404, 1003));
});

test('Logpush jobs of an account, with the legacy key pair: an account dataset is created under the account', async () => {
  const legacy = new Cloudflare({ apiKey: CREDS.apiKey, apiEmail: CREDS.apiEmail, baseURL: m.apiBaseUrl, maxRetries: 0 });
  const job = await legacy.logpush.jobs.create({ account_id: ACCOUNT, name: 'dns', dataset: 'gateway_dns', destination_conf: 'https://logs.example/ingest?header_Authorization=secret' });
  assert.equal(job?.dataset, 'gateway_dns');
  await assert.rejects(legacy.logpush.jobs.create({ account_id: ACCOUNT, ...JOB }), (e: { status?: number; message: string }) => e.status === 400 && /zone dataset/.test(e.message));
});

test('dataset fields, destination and origin validation, and the ownership challenge a job to a bucket carries', async () => {
  const fields = await cf.logpush.datasets.fields.get('http_requests', { zone_id: ZONE });
  assert.ok(Object.keys(fields).includes('ClientRequestHost'));
  const dnsFields = await cf.logpush.datasets.fields.get('gateway_dns', { account_id: ACCOUNT });
  assert.ok(Object.keys(dnsFields).includes('QueryName'));
  await assert.rejects(cf.get(`/zones/${ZONE}/logpush/datasets/no_such_logs/fields`), apiError(BadRequestError, 400, 1004));
  assert.equal((await cf.logpush.validate.destination({ zone_id: ZONE, destination_conf: 's3://logs/x?region=us-east-1' }))?.valid, true);
  const bad = await cf.logpush.validate.destination({ zone_id: ZONE, destination_conf: 'ftp://nowhere' });
  assert.equal(bad?.valid, false);
  assert.ok(bad?.message, 'says why');
  assert.equal((await cf.logpush.validate.origin({ zone_id: ZONE, logpull_options: 'fields=ClientIP,EdgeStartTimestamp&timestamps=rfc3339' }))?.valid, true);
  const badOrigin = await cf.logpush.validate.origin({ zone_id: ZONE, logpull_options: 'fields=ClientIPP&timestamps=rfc3339' });
  assert.equal(badOrigin?.valid, false);
  assert.match(String(badOrigin?.message), /ClientIPP/);

  const dest = 's3://logs/owned?region=us-east-1';
  const owner = await cf.logpush.ownership.create({ zone_id: ZONE, destination_conf: dest });
  assert.match(String(owner?.filename), /^ownership-challenge-/);
  const token = /the token is (\S+)\.$/.exec(String(owner?.message))![1];
  assert.equal((await cf.logpush.ownership.validate({ zone_id: ZONE, destination_conf: dest, ownership_challenge: token }))?.valid, true);
  assert.equal((await cf.logpush.ownership.validate({ zone_id: ZONE, destination_conf: dest, ownership_challenge: 'nope' }))?.valid, false);
  assert.equal((await cf.logpush.validate.destinationExists({ zone_id: ZONE, destination_conf: dest }))?.exists, false);
  const job = await cf.logpush.jobs.create({ zone_id: ZONE, name: 'owned', destination_conf: dest, ownership_challenge: token });
  assert.ok(job && !('ownership_challenge' in job), 'the record does not carry the challenge');
  assert.equal((await cf.logpush.validate.destinationExists({ zone_id: ZONE, destination_conf: dest }))?.exists, true);
  await assert.rejects(cf.logpush.jobs.create({ zone_id: ZONE, name: 'stolen', destination_conf: 's3://logs/other?region=us-east-1', ownership_challenge: token }), apiError(BadRequestError, 400, 1002));
  // Without a challenge the mock creates the job and says in messages what the platform would ask for.
  const raw = await cf.post(`/zones/${ZONE}/logpush/jobs`, { body: { name: 'unproven', destination_conf: 'gs://logs/x' } }) as { success: boolean; messages: { code: number; message: string }[] };
  assert.equal(raw.success, true);
  assert.match(raw.messages[0].message, /ownership_challenge/);
});

test('rulesets and the migration: raw get/put where the SDK has no typed method, then the typed entry point update', async () => {
  // The raw methods return the whole envelope {success, errors, messages, result}.
  const raw = async <T>(p: Promise<unknown>) => ((await p) as { success: boolean; result: T }).result;
  const check = await raw<{ compatible: boolean }>(cf.get(`/zones/${ZONE}/waf_migration/check`, { query: { phase_two: 1 } }));
  assert.equal(check.compatible, true);
  const config = await raw<{ name: string; rules: { action: string; expression: string; action_parameters?: unknown; description?: string; enabled?: boolean }[] }>(
    cf.get(`/zones/${ZONE}/waf_migration/config`, { query: { phase_two: 1 } }));
  // An update body as the SDK sends it: no "name" (optional on update, docs/mock-backend.md).
  const rules = config.rules.map(({ action, expression, action_parameters, description, enabled }) => ({ action, expression, action_parameters, description, enabled }));
  const dry = await raw<{ version: string }>(cf.put(`/zones/${ZONE}/rulesets/phases/${MANAGED}/entrypoint`, { query: { waf_migration: 'pending', phase_two: 1, dry_run: true }, body: { rules } }));
  assert.equal(dry.version, '1');
  assert.equal((await raw<{ migration_state: string }>(cf.get(`/zones/${ZONE}/waf_migration/status`))).migration_state, 'start', 'a dry run changes nothing');
  const saved = await raw<{ id: string; name: string; version: string }>(
    cf.put(`/zones/${ZONE}/rulesets/phases/${MANAGED}/entrypoint`, { query: { waf_migration: 'pending', phase_two: 1 }, body: { rules } }));
  assert.equal(saved.version, '1');
  assert.equal(saved.name, 'default', 'a first save without a name is named "default"');
  const status = await raw<{ migration_state: string }>(cf.get(`/zones/${ZONE}/waf_migration/status`));
  assert.equal(status.migration_state, 'migrated');
  // The check now answers that the zone cannot move (it has), and says why in messages.
  const after = await cf.get(`/zones/${ZONE}/waf_migration/check`, { query: { phase_two: 1 } }) as { success: boolean; result: unknown; messages: { code: number; message: string }[] };
  assert.deepEqual([after.success, after.result, after.messages.map((x) => x.code)], [true, { compatible: false, migration_state: 'migrated' }, [10505]]);

  // Typed: a later update of the migrated zone's entry point, without a name, keeps the name and makes version 2.
  const v2 = await cf.rulesets.phases.update(MANAGED, { zone_id: ZONE, rules: rules.slice(0, 1) as never }) as Cloudflare.Rulesets.Phases.PhaseUpdateResponse.Ruleset;
  assert.deepEqual([v2.id, v2.name, v2.version, v2.rules.length], [saved.id, 'default', '2', 1]);
  assert.ok(v2.rules.every((r: { id?: string; version?: string; ref?: string; last_updated?: string }) => /^[0-9a-f]{32}$/.test(r.id!) && r.version === '2' && typeof r.ref === 'string' && typeof r.last_updated === 'string'));
  const entry = await cf.rulesets.phases.get(MANAGED, { zone_id: ZONE });
  assert.deepEqual([entry.id, entry.kind, entry.phase, entry.version], [saved.id, 'zone', MANAGED, '2']);
  assert.equal(typeof entry.last_updated, 'string');
  const phaseVersions = (await listAll(cf.rulesets.phases.versions.list(MANAGED, { zone_id: ZONE }))).map((v) => v.version);
  assert.deepEqual(phaseVersions, ['1', '2']);
  assert.equal((await cf.rulesets.phases.versions.get('2', { ruleset_phase: MANAGED, zone_id: ZONE })).version, '2');
  await assert.rejects(cf.rulesets.phases.get('http_request_firewall_custom', { zone_id: ZONE }), apiError(NotFoundError, 404, 10003));
  await assert.rejects(cf.rulesets.phases.get('no_such_phase' as never, { zone_id: ZONE }), apiError(BadRequestError, 400, 10001));

  // Lists: the rulesets by cursor (two a page here), the versions in one list.
  const listed = (await listAll(cf.rulesets.list({ zone_id: ZONE, per_page: 2 }))).map((r) => r.id);
  const all = (await cf.rulesets.list({ zone_id: ZONE })).result.map((r) => r.id);
  assert.deepEqual(listed, all, 'the cursor pages add up to the whole list');
  assert.ok(all.length > 2 && all.includes(saved.id));
  const got = await cf.rulesets.get(saved.id, { zone_id: ZONE });
  assert.equal(got.phase, MANAGED);
  const versions = (await listAll(cf.rulesets.versions.list(saved.id, { zone_id: ZONE }))).map((v) => v.version);
  assert.deepEqual(versions, ['1', '2']);
});

test('authentication through the SDK: either credential form; the platform\'s refusals as the SDK\'s error classes', async () => {
  const client = (opts: ConstructorParameters<typeof Cloudflare>[0]) => new Cloudflare({ baseURL: m.apiBaseUrl, maxRetries: 0, ...opts });
  const legacy = client({ apiKey: CREDS.apiKey, apiEmail: CREDS.apiEmail });
  assert.equal((await legacy.zones.get({ zone_id: ZONE })).id, ZONE);
  assert.equal((await legacy.rulesets.list({ zone_id: ZONE })).result.length > 0, true);
  // Both forms set (CLOUDFLARE_API_TOKEN and CLOUDFLARE_API_KEY in one environment): the SDK sends both; a valid one is enough.
  const both = client({ apiToken: 'stale-token', apiKey: CREDS.apiKey, apiEmail: CREDS.apiEmail });
  assert.equal((await both.zones.get({ zone_id: ZONE })).id, ZONE);
  await assert.rejects(client({ apiToken: 'wrong-token' }).zones.get({ zone_id: ZONE }), apiError(PermissionDeniedError, 403, 9109));
  await assert.rejects(client({ apiKey: 'wrong', apiEmail: CREDS.apiEmail }).logpush.jobs.list({ zone_id: ZONE }), apiError(PermissionDeniedError, 403, 9103));
  const none = client({ apiToken: null, apiKey: null, apiEmail: null, defaultHeaders: { Authorization: null } });
  await assert.rejects(none.zones.get({ zone_id: ZONE }), apiError(BadRequestError, 400, 9106));
  const verified = await cf.user.tokens.verify();
  assert.equal(verified.status, 'active');
  await assert.rejects(client({ apiToken: 'wrong-token' }).user.tokens.verify(), (e: { status?: number; errors?: { code: number }[] }) => e.status === 401 && e.errors?.[0]?.code === 1000);
});

test('an unknown route, an unknown zone and bad parameters answer in the envelope, as SDK errors with the message', async () => {
  await assert.rejects(cf.get('/no/such/route'), (e: { status?: number; message: string }) => e.status === 400 && /No route for that URI/.test(e.message));
  await assert.rejects(cf.zones.get({ zone_id: '0'.repeat(32) }), apiError(BadRequestError, 400, 7003));
  await assert.rejects(cf.zones.list({ per_page: 500 }), (e: { status?: number; message: string }) => e.status === 400 && /per_page/.test(e.message));
  await assert.rejects(cf.zones.list({ page: 0 }), apiError(BadRequestError, 400, 1001));
  await assert.rejects(cf.zones.list({ order: 'size' as never }), apiError(BadRequestError, 400, 1001));
  await assert.rejects(cf.rulesets.list({ zone_id: ZONE, cursor: 'not-a-cursor' }), apiError(BadRequestError, 400, 1001));
  await assert.rejects(cf.logpush.jobs.get(12345678, { zone_id: ZONE }), apiError(NotFoundError, 404, 1003));
});
