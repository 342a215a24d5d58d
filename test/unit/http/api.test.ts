import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createApi, createOnlyChanges, currentConfig, entrypointBody, isEnterprise, jobBody, jobUpdateBody, mockChallengeToken, planOf } from '../../../client/src/http/api';
import type { ApiResult, MigrationConfig, Zone } from '../../../client/src/http/api';
import { startMockBackend } from '../../../mock/src/backend';
import type { MockBackend } from '../../../mock/src/backend';
import { json, startServer } from './server';
import type { TestServer } from './server';

const TOKEN = 'api-token-for-tests';
const KEY = 'api-key-for-tests';
const EMAIL = 'tests@example.com';

function ok<T>(r: ApiResult<T>): T {
  assert.equal(r.ok, true, `expected success, got ${JSON.stringify(r)}`);
  return (r as Extract<ApiResult<T>, { ok: true }>).result;
}
function fail<T>(r: ApiResult<T>) {
  assert.equal(r.ok, false, `expected failure, got ${JSON.stringify(r)}`);
  return r as Extract<ApiResult<T>, { ok: false }>;
}

describe('api against the embedded mock backend', () => {
  let mock: MockBackend;
  let zones: Zone[];
  const byName = (name: string) => {
    const z = zones.find((x) => x.name === name);
    assert.ok(z, `zone ${name} is listed`);
    return z;
  };
  before(async () => {
    mock = await startMockBackend({ port: 0, apiToken: TOKEN, apiKey: KEY, apiEmail: EMAIL });
    zones = ok(await createApi({ baseUrl: mock.apiBaseUrl, token: TOKEN, timeoutMs: 5000 }).listZones());
  });
  after(() => mock.close());
  const api = () => createApi({ baseUrl: `${mock.apiBaseUrl}/`, token: TOKEN, apiKey: KEY, apiEmail: EMAIL, timeoutMs: 5000 });

  test('listZones returns typed zones with their plans', () => {
    assert.ok(zones.length >= 4);
    assert.equal(planOf(byName('pro.example')), 'pro');
    assert.equal(isEnterprise(byName('enterprise.example')), true);
    assert.equal(isEnterprise(byName('business.example')), false);
  });

  test('check, config and status of a compatible zone', async () => {
    const z = byName('pro.example');
    const check = await api().check(z.id);
    assert.deepEqual(ok(check), { compatible: true, migration_state: 'start' });
    assert.ok(check.curl.includes('"Authorization: Bearer $EDGEKIT_API_TOKEN"'));
    assert.ok(check.curl.includes('/waf_migration/check?phase_two=1'));
    assert.ok(!check.curl.includes(TOKEN));
    const config = ok(await api().config(z.id));
    assert.equal(typeof config.name, 'string');
    assert.ok(config.rules.length > 0);
    assert.deepEqual(ok(await api().status(z.id)), { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false });
  });

  test('an incompatible zone: compatible false, with the blockers as messages', async () => {
    const r = await api().check(byName('uri-overrides.example').id);
    assert.deepEqual(ok(r), { compatible: false, migration_state: 'start' });
    assert.ok(r.ok && r.messages.some((m) => /URI-based WAF override/.test(m.message)));
  });

  test('updateEntrypoint: validation for an Enterprise zone, then pending, and the refusal after that', async () => {
    const z = byName('enterprise-b.example');
    const config = ok(await api().config(z.id));
    const v = await api().updateEntrypoint(z.id, 'validation', entrypointBody(config, 'validation'));
    assert.equal(typeof ok(v).id, 'string');
    assert.equal(ok(await api().status(z.id)).migration_state, 'validation');
    const p = await api().updateEntrypoint(z.id, 'pending', entrypointBody(config, 'pending'));
    ok(p);
    assert.deepEqual(ok(await api().status(z.id)), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });
    const ep = ok(await api().entrypoint(z.id));
    assert.equal(ep.id, ok(p).id);
    assert.equal(ep.rules?.length, config.rules.length);
    const again = fail(await api().updateEntrypoint(z.id, 'pending', entrypointBody(config, 'pending')));
    assert.equal(again.kind, 'http');
    assert.equal(again.status, 409);
    assert.equal(again.errors[0].code, 10505);
    assert.match(again.error, /^Cannot update the managed-rules entry point of zone "[0-9a-f]+" \(waf_migration=pending\) \(PUT 127\.0\.0\.1:\d+\/client\/v4\/zones\/[0-9a-f]+\/rulesets\/phases\/http_request_firewall_managed\/entrypoint\): HTTP 409 Conflict: .* The API says: \[10505\] Zone "[^"]+" is in migration_state "migrated": it has already migrated/);
  });

  test('entrypoint of a zone that has none is a 404 with the API error', async () => {
    const r = fail(await api().entrypoint(byName('business.example').id));
    assert.equal(r.status, 404);
    assert.equal(r.errors[0].code, 10003);
  });

  test('validation mode is refused for a Business zone, with the envelope error', async () => {
    const z = byName('business.example');
    const config = ok(await api().config(z.id));
    const r = fail(await api().updateEntrypoint(z.id, 'validation', entrypointBody(config, 'validation')));
    assert.equal(r.status, 400);
    assert.equal(r.errors[0].code, 10503);
  });

  test('a wrong token is the platform\'s 403 with the API error', async () => {
    const bad = createApi({ baseUrl: mock.apiBaseUrl, token: 'wrong', timeoutMs: 5000 });
    const r = fail(await bad.check(byName('pro.example').id));
    assert.equal(r.status, 403);
    assert.match(r.error, /HTTP 403 Forbidden.*\[9109\] Invalid access token\.$/);
    assert.ok(!r.error.includes('wrong'));
  });

  test('createLogpushJob sends X-Auth-Key and X-Auth-Email', async () => {
    const z = byName('pro.example');
    const job = ok(await api().createLogpushJob(z.id, {
      name: 'edge-requests', dataset: 'http_requests', logpull_options: 'fields=ClientIP,EdgeResponseStatus&timestamps=rfc3339',
      destination_conf: 's3://bucket/logs?region=us-east-1',
    }));
    assert.equal(typeof job.id, 'number');
    const curl = (await api().createLogpushJob(z.id, {})).curl;
    assert.ok(curl.includes('"X-Auth-Key: $EDGEKIT_API_KEY"') && curl.includes('"X-Auth-Email: $EDGEKIT_API_EMAIL"'));
  });

  test('createLogpushJob sends a job copied from GET without its read-only members and $schema', async () => {
    const z = byName('pro.example');
    const file = { $schema: '../schemas/logpush-job.schema.json', id: 7, last_complete: '2026-11-25T10:00:00Z', last_error: null, error_message: null,
      name: 'copied', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1' };
    const r = await api().createLogpushJob(z.id, file);
    const job = ok(r);
    assert.notEqual(job.id, 7, 'the API assigns the id');
    assert.equal(job.name, 'copied');
    assert.ok(r.curl.includes('"name":"copied"'), `the curl carries the body: ${r.curl}`);
    for (const k of ['$schema', '"id"', 'last_complete', 'error_message']) assert.ok(!r.curl.includes(k), `${k} not sent: ${r.curl}`);
    assert.deepEqual(jobBody([1]), [1], 'not an object: as it is (the API reports it)');
  });

  test('a Logpush job read, updated in part, disabled and deleted, in a zone and in an account', async () => {
    const z = byName('pro.example');
    const created = ok(await api().createLogpushJob(z.id, { name: 'lifecycle', dataset: 'http_requests', enabled: true, destination_conf: 's3://bucket/logs?region=us-east-1' }));
    const id = created.id as number;
    const owner = { zone: z.id };
    assert.equal(ok(await api().logpushJob(owner, id)).name, 'lifecycle');
    // A job file as "Open Logpush Job Configuration" writes it: its id and read-only members are not sent, the rest replaces the job's.
    const put = await api().updateLogpushJob(owner, id, { id, last_complete: null, name: 'lifecycle-2', dataset: 'http_requests', enabled: true, destination_conf: 's3://bucket/other?region=us-east-1' });
    assert.equal(ok(put).name, 'lifecycle-2');
    assert.ok(put.ok && put.messages.some((m) => /the mock updated the job without one\./.test(m.message)), 'an update\'s note says updated, not created');
    assert.equal(ok(put).id, id);
    assert.ok(!put.curl.includes('"id"'), put.curl);
    assert.match(put.curl, /-X PUT [\s\\]*.http:[^ ]*\/zones\/[0-9a-f]+\/logpush\/jobs\/\d+/);
    assert.equal(ok(await api().updateLogpushJob(owner, id, { enabled: false })).enabled, false);
    assert.equal(ok(await api().logpushJob(owner, id)).destination_conf, 's3://bucket/other?region=us-east-1', 'a partial update keeps the rest');
    // The platform's update takes neither "dataset" nor "kind" (its JobUpdateParams; the docs: kind only on create): not sent, so
    // the mock's refusal of a changed one (test/unit/mock/management.test.ts) is never met; the command says so first.
    const moved = await api().updateLogpushJob(owner, id, { dataset: 'firewall_events', kind: 'edge', name: 'lifecycle-3' });
    assert.equal(ok(moved).dataset, 'http_requests');
    assert.equal(ok(moved).kind, '');
    assert.ok(!/"dataset"|"kind"/.test(moved.curl), moved.curl);
    assert.deepEqual(ok(await api().deleteLogpushJob(owner, id)), { id });
    const gone = fail(await api().logpushJob(owner, id));
    assert.equal(gone.status, 404);
    assert.match(gone.error, /^Cannot get Logpush job \d+ of zone "[0-9a-f]+" .*HTTP 404/);
    const accounts = ok(await api().listAccounts());
    const acct = { account: accounts[0].id };
    const dns = ok(await api().createAccountLogpushJob(acct.account, { name: 'dns', dataset: 'gateway_dns', destination_conf: 's3://bucket/dns?region=us-east-1' }));
    assert.equal(ok(await api().updateLogpushJob(acct, dns.id as number, { enabled: false })).enabled, false);
    assert.deepEqual(ok(await api().deleteLogpushJob(acct, dns.id as number)), { id: dns.id });
    assert.equal(fail(await api().deleteLogpushJob(acct, dns.id as number)).status, 404);
  });

  test('the ownership challenge of a destination: asked for, then validated; the embedded mock\'s reply says the token', async () => {
    const z = { zone: byName('pro.example').id };
    const conf = 's3://proof-bucket/logs?region=us-east-1';
    const c = ok(await api().logpushOwnership(z, conf));
    assert.match(c.filename, /^ownership-challenge-[A-Za-z0-9_-]+\.txt$/);
    const token = mockChallengeToken(c.message);
    assert.ok(token, `the mock's reply names the token: ${c.message}`);
    assert.deepEqual(ok(await api().validateLogpushOwnership(z, conf, token!)), { valid: true });
    assert.deepEqual(ok(await api().validateLogpushOwnership(z, conf, `${token}x`)), { valid: false });
    assert.deepEqual(ok(await api().validateLogpushOwnership({ zone: byName('business.example').id }, conf, token!)), { valid: false }, 'another zone\'s challenge');
    // With it, a job on that destination is created with no note; without it the mock notes that the platform would ask for it.
    const withIt = await api().createLogpushJob(z.zone, { name: 'proved', dataset: 'http_requests', destination_conf: conf, ownership_challenge: token });
    assert.equal(ok(withIt).name, 'proved');
    assert.deepEqual(withIt.ok && withIt.messages, []);
    const without = await api().createLogpushJob(z.zone, { name: 'unproved', dataset: 'http_requests', destination_conf: conf });
    assert.ok(without.ok && without.messages.some((m) => /ownership_challenge/.test(m.message)));
    const bad = fail(await api().logpushOwnership(z, 'not a destination'));
    assert.equal(bad.status, 400);
    assert.match(bad.error, /^Cannot ask for an ownership challenge of "not a destination" in zone "[0-9a-f]+"/);
  });

  test('either credential works on every call, as on the platform: Logpush falls back to the token, the migration to the key pair', async () => {
    const z = byName('pro.example');
    const tokenOnly = createApi({ baseUrl: mock.apiBaseUrl, token: TOKEN, timeoutMs: 5000 });
    const job = ok(await tokenOnly.createLogpushJob(z.id, { name: 'token-job', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1' }));
    assert.equal(typeof job.id, 'number');
    assert.ok((await tokenOnly.createLogpushJob(z.id, {})).curl.includes('"Authorization: Bearer $EDGEKIT_API_TOKEN"'));
    const keyOnly = createApi({ baseUrl: mock.apiBaseUrl, apiKey: KEY, apiEmail: EMAIL, timeoutMs: 5000 });
    assert.equal(ok(await keyOnly.check(z.id)).compatible, true);
    assert.ok((await keyOnly.check(z.id)).curl.includes('"X-Auth-Key: $EDGEKIT_API_KEY"'));
  });

  test('missing credentials fail before anything is sent', async () => {
    const none = fail(await createApi({ baseUrl: mock.apiBaseUrl, timeoutMs: 5000 }).createLogpushJob('z', {}));
    assert.equal(none.kind, 'credentials');
    assert.equal(none.error, 'Cannot create a Logpush job in zone "z": no API token, and no API key and email, are set.');
    const half = fail(await createApi({ baseUrl: mock.apiBaseUrl, apiKey: KEY, timeoutMs: 5000 }).check('z'));
    assert.equal(half.kind, 'credentials');
    assert.equal(half.error, 'Cannot check zone "z" for migration: an API key is set without its email (X-Auth-Key needs X-Auth-Email), and no API token is set.');
  });
});

test('over the mock\'s rate limit, the error names the request, says it was rate limited and when to retry', async () => {
  // A fake clock (no sleeping) and a small per-user limit: the platform's 1200 per 300 s, scaled down to 2.
  let now = Date.UTC(2026, 10, 26, 6, 0, 0);
  const mock = await startMockBackend({ port: 0, apiToken: TOKEN, apiKey: KEY, apiEmail: EMAIL, rateLimit: { perUser: { limit: 2, windowSeconds: 300 }, now: () => now } });
  try {
    const api = createApi({ baseUrl: mock.apiBaseUrl, token: TOKEN, timeoutMs: 5000 });
    ok(await api.listAccounts());
    ok(await api.listAccounts());
    now += 10_500;
    const r = fail(await api.status('zone-1'));
    assert.equal(r.kind, 'http');
    assert.equal(r.status, 429);
    assert.match(r.error, /^Cannot get the WAF status of zone "zone-1" \(GET 127\.0\.0\.1:\d+\/client\/v4\/zones\/zone-1\/waf_migration\/status\): HTTP 429 Too Many Requests: rate limited; try again in 300 s \(5 min\)\. The API says: \[971\] Please wait and consider throttling your request speed\.$/);
    now += 100_000;
    assert.match(fail(await api.listAccounts()).error, /rate limited; try again in 200 s \(4 min\)/, 'the time left of the block');
  } finally {
    await mock.close();
  }
});

describe('api against a scripted server', () => {
  let srv: TestServer;
  let reply: (url: string) => { status: number; body: unknown } = () => ({ status: 200, body: {} });
  before(async () => {
    srv = await startServer((req, res) => {
      const r = reply(req.url);
      if (typeof r.body === 'string') {
        res.writeHead(r.status, { 'content-type': 'text/plain' });
        res.end(r.body);
      } else {
        json(res, r.status, r.body);
      }
    });
  });
  after(() => srv.close());
  const api = () => createApi({ baseUrl: `${srv.url}/client/v4`, token: TOKEN, timeoutMs: 2000 });
  const envelope = (result: unknown, extra: Record<string, unknown> = {}) => ({ success: true, errors: [], messages: [], result, ...extra });

  test('paths, query strings and the Bearer header', async () => {
    reply = () => ({ status: 200, body: envelope({ compatible: true, migration_state: 'start' }) });
    srv.received.length = 0;
    await api().check('a/b');
    await api().updateEntrypoint('z1', 'validation', { name: 'n', rules: [] });
    assert.equal(srv.received[0].url, '/client/v4/zones/a%2Fb/waf_migration/check?phase_two=1');
    assert.equal(srv.received[0].headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(srv.received[1].method, 'PUT');
    assert.equal(srv.received[1].url, '/client/v4/zones/z1/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=validation&phase_two=1');
    assert.equal(srv.received[1].headers['content-type'], 'application/json');
    assert.equal(srv.received[1].body, '{"name":"n","rules":[]}');
  });

  test('listZones follows result_info.total_pages', async () => {
    const zone = (i: number) => ({ id: `z${i}`, name: `zone${i}.example`, plan: { legacy_id: 'pro', name: 'Pro' } });
    reply = (url) => {
      const page = Number(new URL(url, 'http://x').searchParams.get('page'));
      return { status: 200, body: envelope([zone(page * 2), zone(page * 2 + 1)], { result_info: { page, total_pages: 3 } }) };
    };
    srv.received.length = 0;
    const zones = ok(await api().listZones());
    assert.deepEqual(zones.map((z) => z.id), ['z2', 'z3', 'z4', 'z5', 'z6', 'z7']);
    assert.deepEqual(zones[0].plan, { legacy_id: 'pro', name: 'Pro' });
    assert.equal(srv.received.length, 3);
  });

  test('a wrongly shaped result is a "shape" failure that names the field', async () => {
    reply = () => ({ status: 200, body: envelope({ compatible: 'yes', migration_state: 'start' }) });
    const a = fail(await api().check('z'));
    assert.equal(a.kind, 'shape');
    assert.match(a.error, /"compatible" is "yes", not true or false\.$/);
    reply = () => ({ status: 200, body: envelope({ migration_state: 'start', old_rules_enabled: true }) });
    assert.match(fail(await api().status('z')).error, /"new_rules_enabled" is undefined, not true or false\.$/);
    reply = () => ({ status: 200, body: envelope({ name: 'x', rules: [1] }) });
    assert.match(fail(await api().config('z')).error, /rules\[0\] of the new configuration is not an object\.$/);
    reply = () => ({ status: 200, body: envelope([{ id: 'z', name: 'n', plan: {} }]) });
    assert.match(fail(await api().listZones()).error, /zone 0 \("n"\) has no "plan\.legacy_id"\.$/);
  });

  test('the status record in the platform words (old_waf_status / new_waf_status) is read too', async () => {
    // The spec leaves the status record's field names out; the platform's answer carries migration_state with old_waf_status and
    // new_waf_status as "enabled"/"disabled" words (Cloudflare's dashboard codec WAFMigrationStatus; scripts reading
    // result.old_waf_status / result.new_waf_status), not the mock's booleans.
    reply = () => ({ status: 200, body: envelope({ created: '2022-10-01T00:00:00Z', migration_state: 'migrated', old_waf_status: 'disabled', new_waf_status: 'enabled', source: 'defaults' }) });
    assert.deepEqual(ok(await api().status('z')), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });
    reply = () => ({ status: 200, body: envelope({ migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled' }) });
    assert.deepEqual(ok(await api().status('z')), { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false });
    reply = () => ({ status: 200, body: envelope({ migration_state: 'start', old_waf_status: 'enabled' }) });
    assert.match(fail(await api().status('z')).error, /"new_rules_enabled" is undefined, not true or false\.$/);
  });

  test('a body that is not an envelope, and an envelope with success false on a 200', async () => {
    reply = () => ({ status: 200, body: 'hello' });
    const a = fail(await api().status('z'));
    assert.equal(a.kind, 'shape');
    assert.match(a.error, /the response is not an API envelope/);
    reply = () => ({ status: 200, body: { success: false, errors: [{ code: 7, message: 'Nope.' }], messages: [], result: null } });
    const b = fail(await api().status('z'));
    assert.equal(b.kind, 'envelope');
    assert.deepEqual(b.errors, [{ code: 7, message: 'Nope.' }]);
    assert.match(b.error, /The API says: \[7\] Nope\.$/);
  });

  test('envelope messages come through on success', async () => {
    reply = () => ({ status: 200, body: { ...envelope({ name: 'n', rules: [] }), messages: [{ code: 10510, message: 'Group overrides are not migrated.' }] } });
    const r = await api().config('z');
    assert.ok(r.ok);
    assert.deepEqual(r.ok && r.messages, [{ code: 10510, message: 'Group overrides are not migrated.' }]);
  });

  test('transport failures keep their kind', async () => {
    const dead = await startServer(() => undefined);
    const url = dead.url;
    const hanging = createApi({ baseUrl: url, token: TOKEN, timeoutMs: 40 });
    const t = fail(await hanging.status('z'));
    assert.equal(t.kind, 'timeout');
    assert.match(t.error, /^Cannot get the WAF status of zone "z": GET 127\.0\.0\.1:\d+\/zones\/z\/waf_migration\/status timed out after 40 ms\.$/);
    await dead.close();
    const n = fail(await hanging.status('z'));
    assert.equal(n.kind, 'network');
    assert.equal(n.code, 'ECONNREFUSED', 'the network error code comes through');
    assert.equal(t.code, undefined, 'a timeout has no socket error code');
    // rv46: the mock's command is named for the embedded mock's URL only (commands/api.ts apiFor passes it), not another loopback API.
    assert.doesNotMatch(n.error, /Start Mock Backend/);
    const mock = fail(await createApi({ baseUrl: url, token: TOKEN, timeoutMs: 2000, embeddedMock: true }).status('z'));
    assert.match(mock.error, /Nothing listens at 127\.0\.0\.1:\d+: EdgeKit's mock backend is not running; start it with "EdgeKit: Start Mock Backend"\.$/);
  });
});

describe('entrypointBody', () => {
  const config: MigrationConfig = {
    name: 'default',
    rules: [{ id: 'a'.repeat(32), version: '1', ref: 'r', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'm' } }],
  };

  test('pending keeps id, version and ref; validation leaves them out', () => {
    assert.deepEqual(entrypointBody(config, 'pending'), { name: 'default', rules: config.rules });
    assert.deepEqual(entrypointBody(config, 'validation'), { name: 'default', rules: [{ action: 'execute', expression: 'true', enabled: true, action_parameters: { id: 'm' } }] });
    assert.equal(config.rules[0].id, 'a'.repeat(32), 'the config itself is not changed');
  });
});

describe('currentConfig (what "Open New Managed Rules Configuration…" shows)', () => {
  let mock: MockBackend;
  before(async () => { mock = await startMockBackend({ port: 0, apiToken: TOKEN }); });
  after(() => mock.close());
  const api = () => createApi({ baseUrl: mock.apiBaseUrl, token: TOKEN, timeoutMs: 5000 });

  test('before migrating: the config operation; once validation mode deployed a configuration: that one, as it runs', async () => {
    const z = ok(await api().listZones()).find((x) => x.name === 'enterprise.example')!;
    const derived = ok(await api().config(z.id));
    assert.deepEqual(ok(await currentConfig(api(), z.id)), derived);
    const adjusted = entrypointBody({ ...derived, rules: [{ action: 'skip', expression: 'http.host eq "dev.enterprise.example"', enabled: true, action_parameters: { ruleset: 'current' } }, ...derived.rules] }, 'validation');
    ok(await api().updateEntrypoint(z.id, 'validation', adjusted));
    const shown = ok(await currentConfig(api(), z.id));
    assert.equal(shown.rules.length, derived.rules.length + 1, 'the rule added for validation mode is there');
    assert.equal(shown.rules[0].expression, 'http.host eq "dev.enterprise.example"');
    assert.ok(shown.rules.every((r) => typeof r.id === 'string' && /^[0-9a-f]{32}$/.test(r.id)), 'as deployed, with its rule ids');
  });
});

describe('api redirects', () => {
  test('a base URL that redirects (http:// to https://): the error names the target, relative or absolute, without its query', async () => {
    const srv = await startServer((req, res) => {
      res.writeHead(301, { Location: req.url.startsWith('/rel') ? '/client/v4/zones?page=1' : 'https://api.example.com/client/v4/zones?page=1&key=s3cr3t' });
      res.end();
    });
    try {
      const abs = fail(await createApi({ baseUrl: `${srv.url}/client/v4`, token: TOKEN, timeoutMs: 2000 }).listZones());
      assert.match(abs.error, /HTTP 301: an unfollowed redirect to https:\/\/api\.example\.com\/client\/v4\/zones\b/);
      assert.doesNotMatch(abs.error, /s3cr3t|page=/);
      const rel = fail(await createApi({ baseUrl: `${srv.url}/rel`, token: TOKEN, timeoutMs: 2000 }).listZones());
      assert.match(rel.error, /HTTP 301: an unfollowed redirect to \/client\/v4\/zones\b/);
    } finally {
      await srv.close();
    }
  });
});

test('what an update takes of a job document, and which of its create-only members differ from the job\'s', () => {
  const doc = { $schema: 'x', id: 5, last_error: null, name: 'n', dataset: 'firewall_events', kind: null, enabled: true };
  assert.deepEqual(jobUpdateBody(doc), { name: 'n', enabled: true });
  assert.deepEqual(jobUpdateBody([1]), [1], 'not an object: as it is (the API reports it)');
  const backend = { id: 5, name: 'm', dataset: 'http_requests', kind: '' };
  assert.deepEqual(createOnlyChanges(doc, backend), [{ member: 'dataset', doc: 'firewall_events', backend: 'http_requests' }], 'a null kind is the platform\'s ""');
  assert.deepEqual(createOnlyChanges({ name: 'x' }, backend), [], 'a member the document leaves out is not a change');
  assert.deepEqual(createOnlyChanges({ kind: 'edge' }, { dataset: 'http_requests' }), [{ member: 'kind', doc: 'edge', backend: '' }]);
});

test('a job record whose dataset is null or absent is an http_requests job: no create-only change to ask about', () => {
  // The SDK's LogpushJob has `dataset?: … | null`, and the platform's default is http_requests, as the checker reads a job
  // (jobDataset). A document saying "http_requests" for such a job was asked about as a change of dataset, with "null on the
  // backend", and told to make a new job.
  for (const backend of [{ id: 5, dataset: null }, { id: 5 }]) {
    assert.deepEqual(createOnlyChanges({ dataset: 'http_requests' }, backend), [], JSON.stringify(backend));
    assert.deepEqual(createOnlyChanges({ dataset: 'dns_logs' }, backend), [{ member: 'dataset', doc: 'dns_logs', backend: 'http_requests' }]);
  }
  assert.deepEqual(createOnlyChanges({ dataset: null }, { dataset: 'http_requests' }), []);
});
