import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { MockBackend } from '../../../mock/src/backend';
import { startMockBackend } from '../../../mock/src/backend';
import { MANAGED_RULESET_ID, OWASP_RULESET_ID, OWASP_SCORE_RULE_ID, ZONES, zoneId } from '../../../mock/src/zones';
import { ManagementApi, safeEqual } from '../../../mock/src/management';
import { StateStore, defaultState } from '../../../mock/src/state';
import { CREDS, KEY, TOKEN, api, start } from './helpers';
import type { Json } from './helpers';

let mock: MockBackend;
let base: string;
const logs: string[] = [];
before(async () => {
  mock = await start({ log: (l) => logs.push(l) });
  base = mock.apiBaseUrl;
});
after(() => mock.close());
beforeEach(() => mock.reset());

const id = (name: string) => zoneId(name);
const GOOD_JOB = {
  name: 'pro-http', dataset: 'http_requests', destination_conf: 's3://logs/http?region=us-east-1',
  logpull_options: 'fields=ClientIP,ClientRequestHost&timestamps=rfc3339',
  filter: JSON.stringify({ where: { and: [{ key: 'ClientCountry', operator: 'eq', value: 'us' }] } }),
};

async function migrate(zone: string, mode: string, body?: unknown): Promise<Json> {
  const cfg = body ?? (await api(base, 'GET', `/zones/${id(zone)}/waf_migration/config?phase_two=1`, TOKEN)).json.result;
  return api(base, 'PUT', `/zones/${id(zone)}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1`, TOKEN, cfg);
}

const status = async (zone: string): Promise<Json> => (await api(base, 'GET', `/zones/${id(zone)}/waf_migration/status`, TOKEN)).json.result;

test('GET /zones lists the demo zones with 32-hex ids and plans', async () => {
  const r = await api(base, 'GET', '/zones', TOKEN);
  assert.equal(r.status, 200);
  assert.equal(r.json.success, true);
  assert.deepEqual(r.json.errors, []);
  const names = r.json.result.map((z: Json) => z.name);
  for (const n of ['pro.example', 'business.example', 'enterprise.example', 'enterprise-b.example', 'uri-overrides.example', 'too-many-rules.example', 'long-expression.example']) assert.ok(names.includes(n), n);
  for (const z of r.json.result) assert.match(z.id, /^[0-9a-f]{32}$/);
  assert.equal(r.json.result.filter((z: Json) => z.plan.legacy_id === 'enterprise').length >= 2, true);
  assert.equal((await api(base, 'GET', '/zones', KEY)).status, 200);
  const one = await api(base, 'GET', '/zones?name=pro.example', TOKEN);
  assert.equal(one.json.result.length, 1);
  assert.equal((await api(base, 'GET', `/zones/${id('pro.example')}`, TOKEN)).json.result.plan.legacy_id, 'pro');
});

test('missing or wrong credentials get the platform\'s codes in an envelope, and are never logged; a token or the key pair works everywhere', async () => {
  const status = `/zones/${id('pro.example')}/waf_migration/status`;
  const jobs = `/zones/${id('pro.example')}/logpush/jobs`;
  const cases: [string, string, Record<string, string>, number, number, number?][] = [
    ['GET', '/zones', {}, 400, 9106],
    ['GET', status, {}, 400, 9106],
    ['GET', status, { 'x-auth-key': CREDS.apiKey }, 400, 9106],
    ['GET', status, { authorization: 'Bearer wrong' }, 403, 9109],
    ['GET', status, { authorization: 'Basic d3Jvbmc6d3Jvbmc=' }, 400, 6003, 6111],
    ['GET', jobs, {}, 400, 9106],
    ['GET', jobs, { 'x-auth-key': CREDS.apiKey, 'x-auth-email': 'other@example.com' }, 403, 9103],
    ['GET', jobs, { 'x-auth-key': CREDS.apiKey, 'x-auth-email': 'not an address' }, 400, 6003, 6102],
    ['GET', '/user/tokens/verify', { authorization: 'Bearer wrong' }, 401, 1000],
    ['GET', '/user/tokens/verify', KEY, 400, 9106],
  ];
  // As the platform: the API token everywhere, the key pair as the legacy form (the spec shows it for job creation only).
  for (const h of [TOKEN, KEY]) {
    for (const p of [`/zones/${id('pro.example')}/waf_migration/status`, `/zones/${id('pro.example')}/logpush/jobs`, '/zones']) {
      assert.equal((await api(base, 'GET', p, h)).status, 200, `${p} with ${Object.keys(h).join('+')}`);
    }
  }
  for (const [m, p, h, s, code, chained] of cases) {
    const r = await api(base, m, p, h);
    const what = `${m} ${p} ${JSON.stringify(Object.keys(h))}: ${JSON.stringify(r.json)}`;
    assert.equal(r.status, s, what);
    assert.equal(r.json.success, false);
    assert.equal(r.json.result, null);
    assert.equal(r.json.errors[0].code, code, what);
    assert.equal(typeof r.json.errors[0].message, 'string');
    if (chained) assert.equal(r.json.errors[0].error_chain[0].code, chained, what);
  }
  // Both forms sent (the SDK sends every credential it has): either valid one is enough.
  assert.equal((await api(base, 'GET', status, { ...TOKEN, 'x-auth-key': 'stale', 'x-auth-email': 'old@example.com' })).status, 200);
  assert.equal((await api(base, 'GET', status, { authorization: 'Bearer stale', ...KEY })).status, 200);
  assert.ok(logs.length > 0);
  for (const l of logs) for (const secret of Object.values(CREDS)) assert.ok(!l.includes(secret), l);
});

/** A request with a Host header of our choosing (fetch sets its own). */
function withHost(url: string, host: string | undefined, method = 'GET', body?: string): Promise<{ status: number; json: Json }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(body ? { 'content-type': 'application/json' } : {}) };
    if (host !== undefined) headers.host = host;
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method, headers, setHost: host !== undefined ? false : true }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('DNS rebinding: a Host that is not an IP address or localhost is refused on every route, credential-free ones included', async () => {
  const port = new URL(mock.url).port;
  const health = mock.url + '/__edgekit/health';
  for (const host of ['attacker.example', `attacker.example:${port}`, `rebind.127.0.0.1.nip.io:${port}`, `localhost.attacker.example:${port}`]) {
    const r = await withHost(health, host);
    assert.equal(r.status, 403, host);
    assert.equal(r.json.success, false);
    assert.match(r.json.errors[0].message, new RegExp(`"${host.replace(/\./g, '\\.')}"`), 'the message names the Host');
    assert.doesNotMatch(JSON.stringify(r.json), /stateFile|pid/);
    const g = await withHost(mock.gatewayUrl, host, 'POST', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }));
    assert.equal(g.status, 403, host);
    assert.equal(g.json.jsonrpc, '2.0', 'the gateway answers in JSON-RPC');
    assert.match(g.json.error.message, /Host/);
    assert.equal(g.json.result, undefined);
    assert.equal((await withHost(base + '/zones', host)).status, 403);
  }
  // What the extension, the CLI, the SDKs and a browser on the machine send: an IP address or localhost, with or without a port
  // (a forwarded port differs from the mock's).
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, '127.0.0.1', 'localhost', `LOCALHOST:${port}`, 'localhost.:1234', '127.0.0.1:18787', '[::1]']) {
    const r = await withHost(health, host);
    assert.equal(r.status, 200, host);
    assert.equal(r.json.service, 'edgekit-mock');
  }
});

test('safeEqual compares by content in constant time', () => {
  assert.equal(safeEqual('abc', 'abc'), true);
  assert.equal(safeEqual('abc', 'abd'), false);
  assert.equal(safeEqual('abc', 'abcd'), false);
  assert.equal(safeEqual('', ''), true);
});

test('unknown zone, route and method: the platform\'s codes, in the envelope', async () => {
  const zone = await api(base, 'GET', `/zones/${'0'.repeat(32)}/waf_migration/status`, TOKEN);
  assert.equal(zone.status, 400);
  assert.deepEqual(zone.json.errors.map((e: Json) => e.code), [7003, 7000]);
  assert.match(zone.json.errors[0].message, /^Could not route to \/zones\/0{32}, perhaps your object identifier is invalid\?$/);
  const account = await api(base, 'GET', `/accounts/${'0'.repeat(32)}/logpush/jobs`, KEY);
  assert.deepEqual([account.status, account.json.errors.map((e: Json) => e.code)], [400, [7003, 7000]]);
  const route = await api(base, 'GET', '/no-such-thing', TOKEN);
  assert.deepEqual([route.status, route.json.errors[0].code], [400, 7000]);
  assert.match(route.json.errors[0].message, /^No route for that URI/);
  assert.equal((await api(base, 'DELETE', `/zones/${id('pro.example')}/waf_migration/status`, TOKEN)).status, 405);
});

test('Logpush: create, list, get, update, delete', async () => {
  const path = `/zones/${id('pro.example')}/logpush/jobs`;
  const created = await api(base, 'POST', path, KEY, GOOD_JOB);
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const job = created.json.result;
  assert.equal(typeof job.id, 'number');
  assert.equal(job.destination_conf, GOOD_JOB.destination_conf);
  assert.equal(job.enabled, false);
  const list = await api(base, 'GET', path, KEY);
  assert.deepEqual(list.json.result.map((j: Json) => j.id), [job.id]);
  assert.deepEqual((await api(base, 'GET', `${path}/${job.id}`, KEY)).json.result, job);
  const upd = await api(base, 'PUT', `${path}/${job.id}`, KEY, { enabled: true });
  assert.equal(upd.status, 200, JSON.stringify(upd.json));
  assert.equal(upd.json.result.enabled, true);
  // A member not sent is kept, as the platform's update keeps it (the docs' "Enable (update) a job" sends {"enabled": true} alone):
  // the client sends no "enabled" from a job document without one, and the job's state holds.
  const renamed = await api(base, 'PUT', `${path}/${job.id}`, KEY, { name: 'renamed' });
  assert.deepEqual([renamed.json.result.name, renamed.json.result.enabled, renamed.json.result.destination_conf], ['renamed', true, GOOD_JOB.destination_conf]);
  const badUpd = await api(base, 'PUT', `${path}/${job.id}`, KEY, { dataset: 'dns_logs' });
  assert.equal(badUpd.status, 400);
  const del = await api(base, 'DELETE', `${path}/${job.id}`, KEY);
  assert.deepEqual(del.json.result, { id: job.id });
  assert.equal((await api(base, 'GET', `${path}/${job.id}`, KEY)).status, 404);
  assert.equal((await api(base, 'DELETE', `${path}/${job.id}`, KEY)).status, 404);
  assert.deepEqual((await api(base, 'GET', path, KEY)).json.result, []);
});

// The SDK's create and update params (cloudflare 7.3.0, resources/logpush/jobs.d.ts, generated from the API's OpenAPI) take null for
// filter, frequency, output_options and its flags, and the max_upload_* members, and take filter_attack_traffic; the job record the
// mock answers carries nulls too. A job file copied from that record, or written with those nulls, must not be refused.
test('Logpush: null members the API takes are accepted, and the job record as GET answers it checks clean as a job file', async () => {
  const path = `/zones/${id('pro.example')}/logpush/jobs`;
  const body = {
    ...GOOD_JOB, logpull_options: null, filter: null, frequency: null, max_upload_bytes: null, max_upload_records: null,
    max_upload_interval_seconds: null, filter_attack_traffic: true,
    output_options: { field_names: ['ClientIP'], sample_rate: null, 'CVE-2021-44228': null, merge_subrequests: null },
  };
  const created = await api(base, 'POST', path, KEY, body);
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const plain = await api(base, 'POST', path, KEY, { destination_conf: GOOD_JOB.destination_conf });
  assert.equal(plain.status, 200, JSON.stringify(plain.json));
  for (const job of [created.json.result, plain.json.result]) {
    const record = (await api(base, 'GET', `${path}/${job.id}`, KEY)).json.result;
    const { getLanguageService } = await import('../../../server/src/core');
    const errors = getLanguageService().validate(JSON.stringify(record, null, 2), 'logpush-job').filter((p) => p.severity === 'error');
    assert.deepEqual(errors.map((p) => p.message), [], JSON.stringify(record));
  }
  const cleared = await api(base, 'PUT', `${path}/${created.json.result.id}`, KEY, { filter: null, output_options: null });
  assert.equal(cleared.status, 200, JSON.stringify(cleared.json));
});

test('Logpush: a refused job gets the core\'s errors in the envelope and is not stored', async () => {
  const path = `/zones/${id('business.example')}/logpush/jobs`;
  const { destination_conf: _omit, ...noDest } = GOOD_JOB;
  void _omit;
  const r = await api(base, 'POST', path, KEY, noDest);
  assert.equal(r.status, 400);
  assert.equal(r.json.success, false);
  assert.ok(r.json.errors.some((e: Json) => /destination_conf/.test(e.message)), JSON.stringify(r.json.errors));
  const unknown = await api(base, 'POST', path, KEY, { ...GOOD_JOB, sampel_rate: 1 });
  assert.equal(unknown.status, 400);
  assert.equal((await api(base, 'POST', path, KEY, '{"name": ')).status, 400);
  assert.equal((await api(base, 'POST', path, KEY, '[1]')).status, 400);
  assert.deepEqual((await api(base, 'GET', path, KEY)).json.result, []);
});

test('migration check: compatible zones and the three blocked ones', async () => {
  const c = await api(base, 'GET', `/zones/${id('pro.example')}/waf_migration/check?phase_two=1`, TOKEN);
  assert.deepEqual(c.json.result, { compatible: true, migration_state: 'start' });
  for (const [zone, re] of [['uri-overrides.example', /URI-based WAF override/], ['too-many-rules.example', /has 2\d\d firewall rules to migrate, over the limit of 200/], ['long-expression.example', /over the limit of 4096/]] as const) {
    const r = await api(base, 'GET', `/zones/${id(zone)}/waf_migration/check?phase_two=1`, TOKEN);
    assert.equal(r.json.result.compatible, false, zone);
    assert.match(r.json.messages[0].message, re);
    assert.match(r.json.messages[0].message, new RegExp(`^Zone "${zone.replace('.', '\\.')}" is in migration_state "start": it cannot migrate\\. `));
  }
  assert.equal((await api(base, 'GET', `/zones/${id('pro.example')}/waf_migration/check`, TOKEN)).status, 400);
});

test('migration check after the move: validation mode can still move on (true), a migrated zone cannot (false, 10505 says why)', async () => {
  const check = (zone: string) => api(base, 'GET', `/zones/${id(zone)}/waf_migration/check?phase_two=1`, TOKEN);
  assert.equal((await migrate('enterprise.example', 'validation')).status, 200);
  const v = await check('enterprise.example');
  assert.deepEqual([v.status, v.json.result, v.json.messages], [200, { compatible: true, migration_state: 'validation' }, []]);
  assert.equal((await migrate('pro.example', 'pending')).status, 200);
  const m = await check('pro.example');
  assert.deepEqual([m.status, m.json.success, m.json.result], [200, true, { compatible: false, migration_state: 'migrated' }]);
  assert.deepEqual(m.json.messages.map((x: Json) => x.code), [10505]);
  assert.match(m.json.messages[0].message, /^Zone "pro\.example" is in migration_state "migrated": it has already migrated/);
  // The same answer once validation mode has finished.
  assert.equal((await migrate('enterprise.example', 'pending')).status, 200);
  assert.deepEqual((await check('enterprise.example')).json.result, { compatible: false, migration_state: 'migrated' });
});

test('migration config follows the content rules and the sensitivity table', async () => {
  const cfg = async (zone: string) => (await api(base, 'GET', `/zones/${id(zone)}/waf_migration/config?phase_two=1`, TOKEN)).json;
  const pro = await cfg('pro.example');
  assert.equal(pro.result.name, 'default');
  const owasp = (r: Json) => r.result.rules.find((x: Json) => x.action_parameters?.id === OWASP_RULESET_ID);
  const managed = (r: Json) => r.result.rules.find((x: Json) => x.action_parameters?.id === MANAGED_RULESET_ID);
  // pro: medium sensitivity -> PL1, threshold 25; challenge stays challenge
  const po = owasp(pro).action_parameters.overrides;
  assert.deepEqual(po.rules, [{ id: OWASP_SCORE_RULE_ID, action: 'challenge', score_threshold: 25, enabled: true }]);
  assert.deepEqual(po.categories.map((c: Json) => c.category), ['paranoia-level-2', 'paranoia-level-3', 'paranoia-level-4']);
  // the old rule override in simulate becomes log
  assert.ok(managed(pro).action_parameters.overrides.rules.some((r: Json) => r.action === 'log'));
  for (const r of pro.result.rules) {
    assert.equal(r.id, '');
    assert.equal(r.version, '');
    assert.equal(r.ref, '');
  }
  // firewall rule bypassing the WAF and page rule WAF off -> skip rules
  const skips = pro.result.rules.filter((r: Json) => r.action === 'skip');
  assert.ok(skips.some((r: Json) => r.expression.includes('203.0.113.0/24')));
  assert.ok(skips.some((r: Json) => r.expression.includes('pro.example/static/*')));
  // enterprise: high -> PL2/40, simulate -> log; OWASP overrides are not migrated (a message says so)
  const ent = await cfg('enterprise.example');
  assert.deepEqual(owasp(ent).action_parameters.overrides.rules[0], { id: OWASP_SCORE_RULE_ID, action: 'log', score_threshold: 40, enabled: true });
  assert.ok(ent.messages.some((m: Json) => /not migrated/.test(m.message)));
  // business: low -> PL1/40; enterprise-b: default -> PL2/40 and WAF off except a page rule turning it on
  assert.equal(owasp(await cfg('business.example')).action_parameters.overrides.rules[0].score_threshold, 40);
  const entB = await cfg('enterprise-b.example');
  assert.equal(owasp(entB).action_parameters.overrides.rules[0].score_threshold, 40);
  assert.match(managed(entB).expression, /enterprise-b\.example\/shop/);
});

test('a Pro zone migrates with pending; validation is refused; nothing goes back', async () => {
  assert.deepEqual(await status('pro.example'), { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false });
  const v = await migrate('pro.example', 'validation');
  assert.equal(v.status, 400);
  assert.match(v.json.errors[0].message, /only for Enterprise/);
  assert.equal((await status('pro.example')).migration_state, 'start');
  const old = await api(base, 'GET', `/zones/${id('pro.example')}/firewall/waf/packages`, TOKEN);
  assert.equal(old.status, 200);
  assert.equal(old.json.result.length, 2);
  const p = await migrate('pro.example', '1');
  assert.equal(p.status, 200, JSON.stringify(p.json));
  assert.match(p.json.result.rules[0].id, /^[0-9a-f]{32}$/);
  assert.deepEqual(await status('pro.example'), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });
  assert.equal((await migrate('pro.example', 'pending')).status, 409);
  assert.equal((await migrate('pro.example', 'validation')).status, 409);
  const after = await api(base, 'GET', `/zones/${id('pro.example')}/firewall/waf/packages`, TOKEN);
  assert.equal(after.status, 400);
  assert.match(after.json.errors[0].message, /rulesets API/);
  const ep = await api(base, 'GET', `/zones/${id('pro.example')}/rulesets/phases/http_request_firewall_managed/entrypoint`, TOKEN);
  assert.equal(ep.json.result.phase, 'http_request_firewall_managed');
});

test('an Enterprise zone goes through validation mode, then pending', async () => {
  const v = await migrate('enterprise.example', '2');
  assert.equal(v.status, 200, JSON.stringify(v.json));
  assert.deepEqual(await status('enterprise.example'), { migration_state: 'validation', old_rules_enabled: true, new_rules_enabled: true });
  // the previous API still answers in validation mode
  const pkgs = (await api(base, 'GET', `/zones/${id('enterprise.example')}/firewall/waf/packages`, TOKEN)).json.result;
  const groups = await api(base, 'GET', `/zones/${id('enterprise.example')}/firewall/waf/packages/${pkgs[0].id}/groups`, TOKEN);
  assert.ok(groups.json.result.length > 0);
  const rules = await api(base, 'GET', `/zones/${id('enterprise.example')}/firewall/waf/packages/${pkgs[0].id}/rules`, TOKEN);
  const rule = await api(base, 'GET', `/zones/${id('enterprise.example')}/firewall/waf/packages/${pkgs[0].id}/rules/${rules.json.result[0].id}`, TOKEN);
  assert.equal(rule.json.result.id, rules.json.result[0].id);
  assert.equal((await migrate('enterprise.example', 'validation')).status, 409);
  const p = await migrate('enterprise.example', 'pending');
  assert.equal(p.status, 200);
  assert.equal((await status('enterprise.example')).migration_state, 'migrated');
});

test('a refused update names the zone and its migration_state, as the status operation spells it', async () => {
  // The 409s said "The zone is already …" without naming it; a script migrating many zones could not tell which one.
  const refusal = (r: Json) => ({ status: r.status, code: r.json.errors[0]?.code, message: String(r.json.errors[0]?.message) });
  const proValidation = refusal(await migrate('pro.example', 'validation'));
  assert.equal(proValidation.status, 400);
  assert.match(proValidation.message, /Zone "pro\.example".*migration_state "start"/);
  // Two concurrent pending updates (a step 4 re-sent after a timeout): one migrates, the other is told the zone is migrated.
  const [a, b] = await Promise.all([migrate('pro.example', 'pending'), migrate('pro.example', 'pending')]);
  assert.deepEqual([a.status, b.status].sort(), [200, 409]);
  const repeated = refusal(a.status === 409 ? a : b);
  assert.equal(repeated.code, 10505);
  assert.match(repeated.message, /Zone "pro\.example".*migration_state "migrated"/);
  assert.equal(refusal(await migrate('pro.example', 'pending')).message, repeated.message, 'a later repeat gets the same answer');
  assert.match(refusal(await migrate('pro.example', 'validation')).message, /Zone "pro\.example".*migration_state "migrated".*cannot be reversed/);
  assert.equal((await migrate('enterprise.example', 'validation')).status, 200);
  const again = refusal(await migrate('enterprise.example', 'validation'));
  assert.deepEqual([again.status, again.code], [409, 10504]);
  assert.match(again.message, /Zone "enterprise\.example".*migration_state "validation"/);
});

test('blocked zones cannot migrate and keep their state; deleting the URI overrides unblocks', async () => {
  for (const zone of ['uri-overrides.example', 'too-many-rules.example', 'long-expression.example']) {
    const r = await migrate(zone, 'pending');
    assert.equal(r.status, 400, zone);
    assert.match(r.json.errors[0].message, /cannot migrate/);
    assert.equal((await status(zone)).migration_state, 'start');
  }
  const z = id('uri-overrides.example');
  const overrides = (await api(base, 'GET', `/zones/${z}/firewall/waf/overrides`, TOKEN)).json.result;
  assert.equal(overrides.length, 2);
  for (const o of overrides) assert.equal((await api(base, 'DELETE', `/zones/${z}/firewall/waf/overrides/${o.id}`, TOKEN)).status, 200);
  assert.equal((await api(base, 'DELETE', `/zones/${z}/firewall/waf/overrides/${overrides[0].id}`, TOKEN)).status, 404);
  assert.equal((await api(base, 'GET', `/zones/${z}/waf_migration/check?phase_two=1`, TOKEN)).json.result.compatible, true);
  assert.equal((await migrate('uri-overrides.example', 'pending')).status, 200);
});

test('the config of a zone at the limit (200 bypass firewall rules, then the execute rules) is accepted', async () => {
  // Spec, Limits: at most 200 firewall rules to migrate; each becomes a skip rule, and the managed rulesets are executed after them.
  const skips = Array.from({ length: 200 }, (_, i) => ({ id: '', version: '', ref: '', action: 'skip', expression: `(http.request.uri.path eq "/partner/${i}/webhook")`,
    description: `Migrated firewall rule ${i}`, enabled: true, action_parameters: { ruleset: 'current' } }));
  const execute = (rid: string) => ({ id: '', version: '', ref: '', action: 'execute', expression: 'true', description: '', enabled: true, action_parameters: { id: rid } });
  const r = await migrate('pro.example', 'pending', { name: 'default', rules: [...skips, execute(MANAGED_RULESET_ID), execute(OWASP_RULESET_ID)] });
  assert.equal(r.status, 200, JSON.stringify(r.json.errors));
  assert.equal(r.json.result.rules.length, 202);
});

test('a malformed entry point body is refused with errors and changes nothing', async () => {
  const bodies: unknown[] = [
    '{"name": "default", ',
    { name: 'default' },
    { name: 'default', rules: [{ action: 'execute', expression: 'true' }] },
    { name: 'default', rules: [{ action: 'block', expression: 'true' }] },
    { name: 'default', rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'nope' } }] },
    { name: 'default', rules: [{ action: 'execute', expression: 'x'.repeat(4097), action_parameters: { id: MANAGED_RULESET_ID } }] },
    { name: 'default', rules: [{ action: 'execute', expression: 'true', enabled: 'yes', action_parameters: { id: MANAGED_RULESET_ID, overrides: { rules: [] } } }] },
  ];
  for (const b of bodies) {
    const r = await migrate('enterprise.example', 'pending', b);
    assert.equal(r.status, 400, JSON.stringify(b).slice(0, 80));
    assert.ok(r.json.errors.length >= 1);
    assert.equal((await status('enterprise.example')).migration_state, 'start');
  }
  const badMode = await api(base, 'PUT', `/zones/${id('pro.example')}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=3&phase_two=1`, TOKEN, { name: 'default', rules: [] });
  assert.equal(badMode.status, 400);
});

test('without waf_migration, a Pro zone may only save disabled rules before migrating', async () => {
  const path = `/zones/${id('pro.example')}/rulesets/phases/http_request_firewall_managed/entrypoint`;
  const rule = { action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID } };
  const enabled = await api(base, 'PUT', path, TOKEN, { name: 'default', rules: [{ ...rule, enabled: true }] });
  assert.deepEqual([enabled.status, enabled.json.errors[0]?.code], [400, 10507]);
  assert.equal((await api(base, 'PUT', path, TOKEN, { name: 'default', rules: [{ ...rule, enabled: false }] })).status, 200);
  assert.equal((await status('pro.example')).migration_state, 'start');
});

test('concurrent transitions on one zone: exactly one wins', async () => {
  const rs = await Promise.all(Array.from({ length: 8 }, () => migrate('business.example', 'pending')));
  assert.equal(rs.filter((r) => r.status === 200).length, 1);
  assert.equal(rs.filter((r) => r.status === 409).length, 7);
  const vs = await Promise.all([migrate('enterprise-b.example', 'validation'), migrate('enterprise-b.example', 'validation'), migrate('enterprise-b.example', 'validation')]);
  assert.equal(vs.filter((r) => r.status === 200).length, 1);
});

test('delay and failure injection', async () => {
  const slow = await startMockBackend({ port: 0, ...CREDS, delayMs: 150, fail: { match: /^GET \/client\/v4\/zones$/, status: 503, times: 1 } });
  try {
    const t0 = Date.now();
    const first = await api(slow.apiBaseUrl, 'GET', '/zones', TOKEN);
    assert.ok(Date.now() - t0 >= 140);
    assert.equal(first.status, 503);
    assert.equal(first.json.success, false);
    assert.equal((await api(slow.apiBaseUrl, 'GET', '/zones', TOKEN)).status, 200);
  } finally {
    await slow.close();
  }
});

test('reset restores the initial state', async () => {
  await migrate('pro.example', 'pending');
  await mock.reset();
  assert.equal((await status('pro.example')).migration_state, 'start');
  assert.ok(ZONES.length >= 7);
});

test('an entry point that deploys one managed ruleset twice is refused and the zone stays as it was', async () => {
  // cloudflare-docs waf/managed-rules/index.mdx: "At the zone level, you can deploy each managed ruleset once."
  const exec = (expression: string) => ({ action: 'execute', expression, enabled: true, action_parameters: { id: MANAGED_RULESET_ID } });
  const r = await migrate('pro.example', 'pending', { name: 'default', rules: [exec('true'), exec('http.host eq "pro.example"')] });
  assert.equal(r.status, 400);
  assert.ok(r.json.errors.some((e: Json) => e.code === 20021 && /\(ruleset\/duplicate-execute\)$/.test(e.message)), JSON.stringify(r.json.errors));
  assert.equal((await status('pro.example')).migration_state, 'start');
});

test('a refused entry point body names where each problem is (source.pointer), as the platform\'s errors do', async () => {
  const rules = [
    { action: 'skip', expression: 'true', enabeld: true, action_parameters: { ruleset: 'current' } },
    { action: 'execute', expression: 'http.hots eq "a"', action_parameters: { id: MANAGED_RULESET_ID } },
  ];
  const r = await migrate('pro.example', 'pending', { name: 'default', rules });
  assert.equal(r.status, 400);
  const at = (code: string) => r.json.errors.find((e: Json) => e.message.endsWith(`(${code})`))?.source?.pointer;
  assert.equal(at('schema/unknown-property'), '/rules/0/enabeld');
  assert.equal(at('ruleset/expr-unknown-field'), '/rules/1/expression');
});

test('an entry point body whose phase or kind is not the path\'s is refused, not stored as the managed phase\'s', async () => {
  // PUT /zones/<id>/rulesets/phases/http_request_firewall_managed/entrypoint saves the zone's (kind zone) entry point of that
  // phase; a body saying otherwise was checked as that other phase (a "block" rule passed) and stored anyway.
  const path = `/zones/${id('enterprise.example')}/rulesets/phases/http_request_firewall_managed/entrypoint`;
  const custom = await api(base, 'PUT', path, TOKEN, { phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'true' }] });
  assert.equal(custom.status, 400);
  assert.deepEqual(custom.json.errors.map((e: Json) => e.source?.pointer), ['/phase']);
  assert.match(custom.json.errors[0].message, /"http_request_firewall_custom".*http_request_firewall_managed/);
  const root = await api(base, 'PUT', path, TOKEN, { kind: 'root', rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID } }] });
  assert.equal(root.status, 400);
  assert.deepEqual(root.json.errors.map((e: Json) => e.source?.pointer), ['/kind']);
  assert.equal((await api(base, 'GET', path, TOKEN)).status, 404, 'nothing was saved');
  const same = await api(base, 'PUT', path, TOKEN, { kind: 'zone', phase: 'http_request_firewall_managed', rules: [{ action: 'execute', expression: 'true', action_parameters: { id: MANAGED_RULESET_ID } }] });
  assert.equal(same.status, 200, JSON.stringify(same.json.errors));
});

test('Logpush ownership challenge tokens expire after 7 days, as the platform\'s do', async (t) => {
  // The platform's token is a JWT that "expires after 7 days" (its Ownership challenge FAQ); the mock's never did, so a job created
  // with an old token worked here and was refused there.
  t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 10, 18, 10, 0) });
  const zone = `/zones/${id('pro.example')}/logpush`;
  const conf = 's3://logs/owned?region=us-east-1';
  const own = await api(base, 'POST', `${zone}/ownership`, KEY, { destination_conf: conf });
  const token = /the token is (\S+)\.$/.exec(own.json.result.message)![1];
  const valid = async () => (await api(base, 'POST', `${zone}/ownership/validate`, KEY, { destination_conf: conf, ownership_challenge: token })).json.result.valid;
  t.mock.timers.tick(7 * 24 * 3600 * 1000);
  assert.equal(await valid(), true, 'still valid at 7 days');
  t.mock.timers.tick(1000);
  assert.equal(await valid(), false);
  const created = await api(base, 'POST', `${zone}/jobs`, KEY, { name: 'late', dataset: 'http_requests', destination_conf: conf, ownership_challenge: token });
  assert.equal(created.status, 400);
  assert.equal(created.json.errors[0].code, 1002);
  assert.match(created.json.errors[0].message, /^The ownership challenge for destination "s3:\/\/logs\/owned" expired on 2026-11-25 10:00 UTC \(tokens hold for 7 days\); ask for a new one with POST …\/logpush\/ownership\.$/);
  // A new one works; a token of another destination is still "not the one issued".
  const fresh = /the token is (\S+)\.$/.exec((await api(base, 'POST', `${zone}/ownership`, KEY, { destination_conf: conf })).json.result.message)![1];
  assert.equal((await api(base, 'POST', `${zone}/jobs`, KEY, { name: 'on-time', dataset: 'http_requests', destination_conf: conf, ownership_challenge: fresh })).status, 200);
  const other = await api(base, 'POST', `${zone}/jobs`, KEY, { name: 'x', dataset: 'http_requests', destination_conf: 's3://logs/other?region=us-east-1', ownership_challenge: fresh });
  assert.match(other.json.errors[0].message, /is not the one issued for destination/);
});

// cl12: every update carrying destination_conf got the note that the platform asks for "ownership_challenge", the same destination
// too (a client that PUTs the whole job, as the editor's Update does, was told so on every rename). The platform asks for it to
// prove a destination: on create, and when the destination changes.
test('a Logpush job update is noted as needing "ownership_challenge" only when its destination changes', async () => {
  const zone = `/zones/${id('pro.example')}/logpush`;
  const conf = 's3://logs/noted?region=us-east-1';
  const codes = (r: { json: Json }) => (r.json.messages as Json[]).map((m) => m.code);
  const created = await api(base, 'POST', `${zone}/jobs`, KEY, { name: 'noted', dataset: 'http_requests', destination_conf: conf });
  assert.equal(created.status, 200);
  assert.deepEqual(codes(created), [10520], 'on create');
  const job = `${zone}/jobs/${created.json.result.id}`;
  const same = await api(base, 'PUT', job, KEY, { name: 'renamed', destination_conf: conf });
  assert.equal(same.status, 200);
  assert.deepEqual(codes(same), [], 'the same destination');
  assert.deepEqual(codes(await api(base, 'PUT', job, KEY, { name: 'again' })), [], 'no destination');
  const moved = await api(base, 'PUT', job, KEY, { destination_conf: 's3://logs/elsewhere?region=us-east-1' });
  assert.deepEqual(codes(moved), [10520], 'a new destination');
  assert.match(moved.json.messages[0].message, /the mock updated the job without one\.$/);
  // A challenge given is still checked, the destination changed or not.
  const wrong = await api(base, 'PUT', job, KEY, { destination_conf: 's3://logs/elsewhere?region=us-east-1', ownership_challenge: 'not-a-token' });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.json.errors[0].code, 1002);
});

// The tests below came out of a mutation sample of the migration operations (docs/architecture.md, "Mutation sample"): each holds
// a refusal's status and code, or a message code, that no test held before.
test('migration operations need phase_two=1: check, config and an update with waf_migration are refused with 10500 without it', async () => {
  const z = id('pro.example');
  const ep = `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint`;
  const cfg = (await api(base, 'GET', `/zones/${z}/waf_migration/config?phase_two=1`, TOKEN)).json.result;
  const refusals: [string, string, unknown, RegExp][] = [
    ['GET', `/zones/${z}/waf_migration/check`, undefined, /phase_two=1 is required/],
    ['GET', `/zones/${z}/waf_migration/check?phase_two=2`, undefined, /phase_two must be 1, not "2"/],
    ['GET', `/zones/${z}/waf_migration/config`, undefined, /phase_two=1 is required/],
    ['GET', `/zones/${z}/waf_migration/config?phase_two=0`, undefined, /phase_two must be 1, not "0"/],
    ['PUT', `${ep}?waf_migration=pending`, cfg, /phase_two=1 is required/],
    ['PUT', `${ep}?waf_migration=1&phase_two=true`, cfg, /phase_two must be 1, not "true"/],
  ];
  for (const [method, path, body, re] of refusals) {
    const r = await api(base, method, path, TOKEN, body);
    assert.deepEqual([r.status, r.json.errors[0]?.code], [400, 10500], `${method} ${path}`);
    assert.match(r.json.errors[0].message, re, `${method} ${path}`);
  }
  assert.equal((await status('pro.example')).migration_state, 'start', 'a refused update does not migrate');
  // The status operation and an update without waf_migration do not need it.
  assert.equal((await api(base, 'GET', `/zones/${z}/waf_migration/status`, TOKEN)).status, 200);
});

test('migration message codes: 10502 blockers (check and update), 10510 config notes, 10501 bad mode, 10511 the transition', async () => {
  const blocked = await api(base, 'GET', `/zones/${id('uri-overrides.example')}/waf_migration/check?phase_two=1`, TOKEN);
  assert.deepEqual(blocked.json.messages.map((m: Json) => m.code), [10502]);
  const refused = await migrate('uri-overrides.example', 'pending');
  assert.deepEqual([refused.status, refused.json.errors[0].code], [400, 10502]);
  const notes = (await api(base, 'GET', `/zones/${id('enterprise.example')}/waf_migration/config?phase_two=1`, TOKEN)).json.messages;
  assert.ok(notes.length > 0 && notes.every((m: Json) => m.code === 10510), JSON.stringify(notes));
  const badMode = await api(base, 'PUT', `/zones/${id('pro.example')}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=3&phase_two=1`, TOKEN, { name: 'default', rules: [] });
  assert.deepEqual([badMode.status, badMode.json.errors[0].code], [400, 10501]);
  const notJson = await migrate('pro.example', 'pending', '{"name": "default", ');
  assert.deepEqual([notJson.status, notJson.json.errors.map((e: Json) => e.code)], [400, [10026]]);
  assert.match(badMode.json.errors[0].message, /not "3"/);
  const done = await migrate('pro.example', 'pending');
  assert.equal(done.status, 200);
  assert.deepEqual(done.json.messages, [{ code: 10511, message: 'Migration state start -> migrated.' }]);
});

test('dry_run: true answers as a save would and changes nothing; another value is refused with 1001', async () => {
  const z = id('enterprise.example');
  const ep = `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint`;
  const cfg = (await api(base, 'GET', `/zones/${z}/waf_migration/config?phase_two=1`, TOKEN)).json.result;
  const bad = await api(base, 'PUT', `${ep}?waf_migration=validation&phase_two=1&dry_run=yes`, TOKEN, cfg);
  assert.deepEqual([bad.status, bad.json.errors[0]?.code], [400, 1001]);
  assert.match(bad.json.errors[0].message, /"dry_run" must be true or false, not "yes"/);
  const dry = await api(base, 'PUT', `${ep}?waf_migration=validation&phase_two=1&dry_run=true`, TOKEN, cfg);
  assert.equal(dry.status, 200, JSON.stringify(dry.json.errors));
  assert.deepEqual(dry.json.messages, [{ code: 10512, message: 'Dry run: nothing was saved; the migration state would go start -> validation.' }]);
  assert.equal((await status('enterprise.example')).migration_state, 'start');
  assert.equal((await api(base, 'GET', ep, TOKEN)).status, 404, 'a dry run saves no entry point');
  const real = await api(base, 'PUT', `${ep}?waf_migration=validation&phase_two=1&dry_run=false`, TOKEN, cfg);
  assert.equal(real.status, 200);
  assert.equal((await status('enterprise.example')).migration_state, 'validation');
});

test('two updates that both pass the first check before either runs: the transition under the lock refuses the second', async () => {
  // handle() checks the transition, then queues the update behind the zone's lock; two requests handled in one tick both pass the
  // first check, so only the second check (under the lock) stops the loser from saving over a migrated zone. Over HTTP the
  // requests never interleave so closely, which is why no test held that check.
  const store = new StateStore(defaultState());
  const mgmt = new ManagementApi(store, CREDS);
  const zone = id('pro.example');
  const cfg = await mgmt.handle({ method: 'GET', path: `/zones/${zone}/waf_migration/config`, query: new URLSearchParams('phase_two=1'), headers: TOKEN, body: '' });
  const put = () => mgmt.handle({
    method: 'PUT', path: `/zones/${zone}/rulesets/phases/http_request_firewall_managed/entrypoint`,
    query: new URLSearchParams('waf_migration=pending&phase_two=1'), headers: { ...TOKEN, 'content-type': 'application/json' }, body: JSON.stringify(cfg.body.result),
  });
  const [a, b] = await Promise.all([put(), put()]);
  assert.deepEqual([a.status, b.status], [200, 409]);
  assert.equal(b.body.errors[0].code, 10505);
  assert.equal(store.zone(zone).migration, 'migrated');
  assert.equal(store.zone(zone).entrypoint?.version, '1', 'the refused update saved nothing');
});

test('the previous managed-rules API after the migration: 400 with 10506 naming the rulesets API, deletes included', async () => {
  const z = id('uri-overrides.example');
  const overrides = (await api(base, 'GET', `/zones/${z}/firewall/waf/overrides`, TOKEN)).json.result;
  assert.equal(overrides.length, 2);
  // Deleting one override deletes that one, and the other stays listed.
  assert.deepEqual((await api(base, 'DELETE', `/zones/${z}/firewall/waf/overrides/${overrides[0].id}`, TOKEN)).json.result, { id: overrides[0].id });
  assert.deepEqual((await api(base, 'GET', `/zones/${z}/firewall/waf/overrides`, TOKEN)).json.result.map((o: Json) => o.id), [overrides[1].id]);
  assert.equal((await api(base, 'DELETE', `/zones/${z}/firewall/waf/overrides/${overrides[1].id}`, TOKEN)).status, 200);
  const gone = await api(base, 'DELETE', `/zones/${z}/firewall/waf/overrides/${overrides[0].id}`, TOKEN);
  assert.deepEqual([gone.status, gone.json.errors[0]?.code], [404, 1005]);
  assert.equal((await migrate('uri-overrides.example', 'pending')).status, 200);
  for (const [method, path] of [['GET', `/zones/${z}/firewall/waf/packages`], ['GET', `/zones/${z}/firewall/waf/overrides`], ['DELETE', `/zones/${z}/firewall/waf/overrides/${overrides[0].id}`]]) {
    const r = await api(base, method, path, TOKEN);
    assert.deepEqual([r.status, r.json.errors[0]?.code], [400, 10506], `${method} ${path}`);
    assert.match(r.json.errors[0].message, /rulesets API/, `${method} ${path}`);
  }
});

test('an override delete queued behind the migrating update is refused with 10506, not answered 404', async () => {
  // Both requests pass their first checks in one tick; under the lock the delete meets a migrated zone (see the update test above).
  const store = new StateStore(defaultState());
  const mgmt = new ManagementApi(store, CREDS);
  const zone = id('uri-overrides.example');
  const req = (method: string, path: string, query = '', body = '') => mgmt.handle({ method, path: `/zones/${zone}${path}`, query: new URLSearchParams(query), headers: { ...TOKEN, 'content-type': 'application/json' }, body });
  const overrides = (await req('GET', '/firewall/waf/overrides')).body.result as { id: string }[];
  for (const o of overrides) assert.equal((await req('DELETE', `/firewall/waf/overrides/${o.id}`)).status, 200);
  const cfg = (await req('GET', '/waf_migration/config', 'phase_two=1')).body.result;
  const [put, del] = await Promise.all([
    req('PUT', '/rulesets/phases/http_request_firewall_managed/entrypoint', 'waf_migration=pending&phase_two=1', JSON.stringify(cfg)),
    req('DELETE', `/firewall/waf/overrides/${overrides[0].id}`),
  ]);
  assert.equal(put.status, 200);
  assert.deepEqual([del.status, del.body.errors[0]?.code], [400, 10506]);
});

test('a migration update that executes no managed ruleset is refused (10508) and the zone stays where it was', async () => {
  // The spec's rule 2: the pending parameter exists so that the previous rules are disabled only once the new ones are saved and
  // enabled. With "rules": [] (or only skip rules) nothing new would run, and the previous rules would be off for good. The config
  // operation always gives the execute rules (disabled where the zone's WAF was off), so such a body is never its configuration.
  const cfg = (await api(base, 'GET', `/zones/${id('pro.example')}/waf_migration/config?phase_two=1`, TOKEN)).json.result;
  const skipsOnly = { name: 'default', rules: cfg.rules.filter((r: Json) => r.action !== 'execute') };
  assert.ok(skipsOnly.rules.length > 0);
  for (const [zone, mode, body] of [['pro.example', 'pending', { name: 'default', rules: [] }], ['pro.example', '1', skipsOnly],
    ['enterprise.example', 'validation', { name: 'default', rules: [] }], ['enterprise.example', 'pending', { name: 'default', rules: [] }]] as const) {
    for (const dry of ['', '&dry_run=true']) {
      const r = await api(base, 'PUT', `/zones/${id(zone)}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1${dry}`, TOKEN, body);
      const what = `${zone} ${mode}${dry}: ${JSON.stringify(r.json)}`;
      assert.deepEqual([r.status, r.json.errors[0]?.code, r.json.errors[0]?.source?.pointer], [400, 10508, '/rules'], what);
      assert.match(r.json.errors[0].message, new RegExp(`^Zone "${zone.replace('.', '\\.')}" is in migration_state "start": `), what);
      assert.match(r.json.errors[0].message, /executes no managed ruleset/, what);
      assert.match(r.json.errors[0].message, /waf_migration\/config\?phase_two=1/, what);
      assert.deepEqual(await status(zone), { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false }, what);
    }
  }
  // From validation mode too: finishing with nothing would leave neither rule set running.
  assert.equal((await migrate('enterprise.example', 'validation')).status, 200);
  const fromValidation = await migrate('enterprise.example', 'pending', { name: 'default', rules: [] });
  assert.deepEqual([fromValidation.status, fromValidation.json.errors[0]?.code], [400, 10508]);
  assert.match(fromValidation.json.errors[0].message, /^Zone "enterprise\.example" is in migration_state "validation": .*previous managed rules off/);
  assert.equal((await status('enterprise.example')).migration_state, 'validation');
  // Without waf_migration it is a plain update, not a migration step: an empty entry point is the user's to choose.
  const plain = await api(base, 'PUT', `/zones/${id('business.example')}/rulesets/phases/http_request_firewall_managed/entrypoint`, TOKEN, { name: 'default', rules: [] });
  assert.equal(plain.status, 200, JSON.stringify(plain.json));
  // A zone whose execute rules are all disabled (its WAF was off) still migrates: that is what the config operation gives it.
  const off = { ...cfg, rules: cfg.rules.map((r: Json) => (r.action === 'execute' ? { ...r, enabled: false } : r)) };
  assert.equal((await migrate('pro.example', 'pending', off)).status, 200);
});

test('an Enterprise zone that migrates directly (pending, no validation mode) reports the new rules on and the previous off', async () => {
  // The spec's second row holds for every compatible zone, Enterprise included: new rules enabled, previous ones disabled.
  const p = await migrate('enterprise.example', 'pending');
  assert.equal(p.status, 200, JSON.stringify(p.json));
  assert.deepEqual(p.json.messages, [{ code: 10511, message: 'Migration state start -> migrated.' }]);
  assert.deepEqual(await status('enterprise.example'), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });
  assert.equal((await migrate('enterprise.example', 'validation')).status, 409, 'validation mode is not entered afterwards');
  assert.equal((await api(base, 'GET', `/zones/${id('enterprise.example')}/firewall/waf/packages`, TOKEN)).status, 400);
});

test('the config operation after the migration is refused (10506) and points at the entry point; before it, and in validation mode, it answers', async () => {
  // It "matches the current previous-version configuration" (spec, operations): once migrated, the previous rules are off and their
  // API stops working, so a derivation from them would describe nothing the zone runs and drop every change made since. A script
  // that re-ran steps 2 and 4 would put that stale configuration back; the mock refuses, naming the zone, its state and where to read.
  const config = (zone: string) => api(base, 'GET', `/zones/${id(zone)}/waf_migration/config?phase_two=1`, TOKEN);
  assert.equal((await migrate('enterprise.example', 'validation')).status, 200);
  assert.equal((await config('enterprise.example')).status, 200, 'validation mode: the previous rules still run');
  assert.equal((await migrate('pro.example', 'pending')).status, 200);
  for (const zone of ['pro.example', 'enterprise.example']) {
    if (zone === 'enterprise.example') assert.equal((await migrate(zone, 'pending')).status, 200);
    const r = await config(zone);
    assert.deepEqual([r.status, r.json.errors[0]?.code, r.json.result], [400, 10506, null], zone);
    assert.match(r.json.errors[0].message, new RegExp(`^Zone "${zone.replace('.', '\\.')}" is in migration_state "migrated": `), zone);
    assert.match(r.json.errors[0].message, /GET …\/rulesets\/phases\/http_request_firewall_managed\/entrypoint/, zone);
  }
  // phase_two is still checked first, as for every migration operation.
  assert.equal((await api(base, 'GET', `/zones/${id('pro.example')}/waf_migration/config`, TOKEN)).json.errors[0].code, 10500);
  assert.equal((await config('business.example')).status, 200, 'a zone that has not migrated still gets its configuration');
});

test('the entry point update needs Content-Type: application/json (the spec), refused as the platform does: 400, 6003 with 6105', async () => {
  // curl --data sends application/x-www-form-urlencoded; the platform answers "Invalid request headers" with 6105 in its chain
  // (seen in API clients' reports, e.g. jamesryanbell/cloudflare#15). The mock took any body whatever its type, so a script that
  // forgot the header passed here and failed in production.
  const cfg = (await api(base, 'GET', `/zones/${id('pro.example')}/waf_migration/config?phase_two=1`, TOKEN)).json.result;
  const url = `${base}/zones/${id('pro.example')}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`;
  for (const type of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8', undefined]) {
    const res = await fetch(url, { method: 'PUT', headers: { ...TOKEN, ...(type ? { 'content-type': type } : {}) }, body: type ? JSON.stringify(cfg) : new Uint8Array(Buffer.from(JSON.stringify(cfg))) });
    const json = await res.json() as Json;
    assert.deepEqual([res.status, json.errors[0]?.code, json.errors[0]?.error_chain?.[0]?.code], [400, 6003, 6105], `${type}: ${JSON.stringify(json)}`);
    assert.match(json.errors[0].error_chain[0].message, /Content-Type/);
    assert.match(json.errors[0].error_chain[0].message, new RegExp(type ? `"${type.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"` : 'none was sent'));
    assert.equal((await status('pro.example')).migration_state, 'start', String(type));
  }
  const json = await fetch(url, { method: 'PUT', headers: { ...TOKEN, 'content-type': 'Application/JSON; charset=utf-8' }, body: JSON.stringify(cfg) });
  assert.equal(json.status, 200);
  assert.equal((await status('pro.example')).migration_state, 'migrated');
});
