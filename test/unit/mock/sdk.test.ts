// The mock as the official Cloudflare TypeScript SDK (`cloudflare` on npm) sees it: zones listed to the end, Logpush jobs of a zone
// and of an account (create, list, get, update, delete), dataset fields, destination and origin validation, the ownership
// challenge, rulesets, and the migration routes through the SDK's raw get/put. Both credential forms, as the platform takes them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import Cloudflare from 'cloudflare';
import type { MockBackend } from '../../../mock/src/backend';
import { ACCOUNTS, ZONES, zoneId } from '../../../mock/src/zones';
import { CREDS, start } from './helpers';

let m: MockBackend;
let cf: Cloudflare;
const ZONE = zoneId('pro.example');
const ACCOUNT = ACCOUNTS[0].id;
const JOB = { name: 'sdk-job', dataset: 'http_requests', destination_conf: 's3://logs/http?region=us-east-1', filter: JSON.stringify({ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }) } as const;

before(async () => {
  m = await start();
  cf = new Cloudflare({ apiToken: CREDS.apiToken, baseURL: m.apiBaseUrl, maxRetries: 0 });
});
after(() => m.close());

test('zones: the SDK iterates every page to the end, with page sizes and filters', async () => {
  const names: string[] = [];
  for await (const z of cf.zones.list()) names.push(z.name);
  assert.deepEqual(names, ZONES.map((z) => z.name).sort());
  const small: string[] = [];
  for await (const z of cf.zones.list({ per_page: 5 })) small.push(z.name);
  assert.deepEqual(small, names, 'two pages of at most 5, then an empty one ends the loop');
  const page2 = await cf.zones.list({ per_page: 5, page: 2 });
  assert.equal(page2.result.length, names.length - 5);
  const past = await cf.zones.list({ per_page: 5, page: 9 });
  assert.deepEqual(past.result, []);
  const desc: string[] = [];
  for await (const z of cf.zones.list({ order: 'name', direction: 'desc' })) desc.push(z.name);
  assert.deepEqual(desc, [...names].reverse());
  const one = await cf.zones.list({ name: 'pro.example' });
  assert.deepEqual(one.result.map((z) => z.id), [ZONE]);
  assert.equal((await cf.zones.get({ zone_id: ZONE })).name, 'pro.example');
});

test('Logpush jobs of a zone: create, list, get, update, delete', async () => {
  const job = await cf.logpush.jobs.create({ zone_id: ZONE, ...JOB });
  assert.ok(job && typeof job.id === 'number');
  assert.equal(job.enabled, false);
  // The record as the platform returns it: the job's own members, and the server's.
  for (const k of ['last_complete', 'last_error', 'error_message', 'frequency', 'max_upload_bytes', 'max_upload_records', 'max_upload_interval_seconds', 'output_options']) {
    assert.ok(k in job, `the job record has "${k}"`);
  }
  const listed: number[] = [];
  for await (const j of cf.logpush.jobs.list({ zone_id: ZONE })) listed.push(j!.id!);
  assert.ok(listed.includes(job.id!));
  assert.equal((await cf.logpush.jobs.get(job.id!, { zone_id: ZONE }))?.name, 'sdk-job');
  const updated = await cf.logpush.jobs.update(job.id!, { zone_id: ZONE, enabled: true });
  assert.equal(updated?.enabled, true);
  await cf.logpush.jobs.delete(job.id!, { zone_id: ZONE });
  await assert.rejects(cf.logpush.jobs.get(job.id!, { zone_id: ZONE }), (e: { status?: number }) => e.status === 404);
});

test('Logpush jobs of an account, with the legacy key pair: an account dataset is created under the account', async () => {
  const legacy = new Cloudflare({ apiKey: CREDS.apiKey, apiEmail: CREDS.apiEmail, baseURL: m.apiBaseUrl, maxRetries: 0 });
  const job = await legacy.logpush.jobs.create({ account_id: ACCOUNT, name: 'dns', dataset: 'gateway_dns', destination_conf: 's3://logs/dns?region=us-east-1' });
  assert.equal(job?.dataset, 'gateway_dns');
  await assert.rejects(legacy.logpush.jobs.create({ account_id: ACCOUNT, ...JOB }), (e: { status?: number; message: string }) => e.status === 400 && /zone dataset/.test(e.message));
});

test('dataset fields, destination and origin validation, and the ownership challenge', async () => {
  const fields = await cf.logpush.datasets.fields.get('http_requests', { zone_id: ZONE });
  assert.ok(Object.keys(fields).includes('ClientRequestHost'));
  const dnsFields = await cf.logpush.datasets.fields.get('gateway_dns', { account_id: ACCOUNT });
  assert.ok(Object.keys(dnsFields).includes('QueryName'));
  assert.equal((await cf.logpush.validate.destination({ zone_id: ZONE, destination_conf: 's3://logs/x?region=us-east-1' }))?.valid, true);
  const bad = await cf.logpush.validate.destination({ zone_id: ZONE, destination_conf: 'ftp://nowhere' });
  assert.equal(bad?.valid, false);
  assert.ok(bad?.message, 'says why');
  assert.equal((await cf.logpush.validate.origin({ zone_id: ZONE, logpull_options: 'fields=ClientIP,EdgeStartTimestamp&timestamps=rfc3339' }))?.valid, true);
  const owner = await cf.logpush.ownership.create({ zone_id: ZONE, destination_conf: 's3://logs/x?region=us-east-1' });
  assert.match(String(owner?.filename), /^ownership-challenge-/);
  const token = /the token is (\S+)\.$/.exec(String(owner?.message))![1];
  assert.equal((await cf.logpush.ownership.validate({ zone_id: ZONE, destination_conf: 's3://logs/x?region=us-east-1', ownership_challenge: token }))?.valid, true);
  assert.equal((await cf.logpush.ownership.validate({ zone_id: ZONE, destination_conf: 's3://logs/x?region=us-east-1', ownership_challenge: 'nope' }))?.valid, false);
});

test('rulesets and the migration: raw get/put where the SDK has no typed method', async () => {
  // The raw methods return the whole envelope {success, errors, messages, result}.
  const raw = async <T>(p: Promise<unknown>) => ((await p) as { success: boolean; result: T }).result;
  const check = await raw<{ compatible: boolean }>(cf.get(`/zones/${ZONE}/waf_migration/check`, { query: { phase_two: 1 } }));
  assert.equal(check.compatible, true);
  const config = await raw<{ name: string; rules: { action: string; expression: string; action_parameters?: unknown; description?: string; enabled?: boolean }[] }>(
    cf.get(`/zones/${ZONE}/waf_migration/config`, { query: { phase_two: 1 } }));
  // An update body as the SDK sends it: no "name" (optional on update).
  const rules = config.rules.map(({ action, expression, action_parameters, description, enabled }) => ({ action, expression, action_parameters, description, enabled }));
  const saved = await raw<{ id: string; version: string }>(
    cf.put(`/zones/${ZONE}/rulesets/phases/http_request_firewall_managed/entrypoint`, { query: { waf_migration: 'pending', phase_two: 1 }, body: { rules } }));
  assert.equal(saved.version, '1');
  const listed: string[] = [];
  for await (const r of cf.rulesets.list({ zone_id: ZONE })) listed.push(r.id);
  assert.ok(listed.includes(saved.id));
  const got = await cf.rulesets.get(saved.id, { zone_id: ZONE });
  assert.equal(got.phase, 'http_request_firewall_managed');
  assert.ok(got.rules.every((r) => typeof r.id === 'string' && r.version === '1' && typeof r.ref === 'string' && typeof r.last_updated === 'string'));
  const versions: string[] = [];
  for await (const v of cf.rulesets.versions.list(saved.id, { zone_id: ZONE })) versions.push(v.version);
  assert.deepEqual(versions, ['1']);
  const entry = await cf.rulesets.phases.get('http_request_firewall_managed', { zone_id: ZONE });
  assert.equal(entry.id, saved.id);
  const status = await raw<{ migration_state: string }>(cf.get(`/zones/${ZONE}/waf_migration/status`));
  assert.equal(status.migration_state, 'migrated');
});

test('an unknown route and a bad parameter answer in the envelope, as SDK errors with the message', async () => {
  await assert.rejects(cf.get('/no/such/route'), (e: { status?: number; message: string }) => e.status === 400 && /No route for that URI/.test(e.message));
  await assert.rejects(cf.zones.list({ per_page: 500 }), (e: { status?: number; message: string }) => e.status === 400 && /per_page/.test(e.message));
});
