// Logpush delivery (mock/src/delivery/): what a batch holds (fields, timestamps, sample, filter), how objects are named, the local
// folder and an https endpoint on loopback, the ownership file, failures and retries, the /__edgekit/logpush/ routes and the bounds.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { catalogue, compileFilter, parseExact } from '../../../server/src/core';
import { ACCOUNTS, zoneId } from '../../../mock/src/zones';
import { EDGEKIT_ROUTES } from '../../../mock/src/management';
import type { DeliveryRecord } from '../../../mock/src/delivery/delivery';
import { compactTime, formatTimestamp, jobFilter, objectKey, outputSpec, project, renderBatch, renderRecord, sampled, timestampFields } from '../../../mock/src/delivery/format';
import type { LocalMockBackend, MockBackendOptions } from '../../../mock/src/backend';
import { KEY, TOKEN, api, start } from './helpers';
import { runMockCli } from '../../../mock/src/main';
import type { Json } from './helpers';

const ZONE = zoneId('pro.example');
const JOBS = `/zones/${ZONE}/logpush/jobs`;

function tmp(): string {
  return mkdtempSync(path.join(tmpdir(), 'edgekit-delivery-'));
}

/** A mock with its own state folder, closed when test t ends; without t the caller closes it (before the servers it delivers to). */
async function mock(t: TestContext | undefined, opts: MockBackendOptions = {}): Promise<LocalMockBackend & { dir: string }> {
  const dir = tmp();
  const m = await start({ stateFile: path.join(dir, 'state.json'), traffic: { paused: true }, ...opts, delivery: { retry: { firstMs: 20, maxMs: 100 }, ...opts.delivery } });
  t?.after(() => m.close());
  return Object.assign(m, { dir });
}

async function createJob(m: LocalMockBackend, body: Record<string, unknown>, where = JOBS): Promise<Json> {
  const r = await api(m.apiBaseUrl, 'POST', where, KEY, { enabled: true, dataset: 'http_requests', ...body });
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return r.json.result;
}

const step = async (m: LocalMockBackend, count: number, zone = ZONE) => (await api(m.url, 'POST', '/__edgekit/traffic/step', TOKEN, { zone, count })).json;
const flush = async (m: LocalMockBackend, body: unknown = {}) => api(m.url, 'POST', '/__edgekit/logpush/flush', TOKEN, body);
const deliveries = async (m: LocalMockBackend, q = ''): Promise<DeliveryRecord[]> => (await api(m.url, 'GET', `/__edgekit/logpush/deliveries${q}`, TOKEN)).json;
const getJob = async (m: LocalMockBackend, id: number) => (await api(m.apiBaseUrl, 'GET', `${JOBS}/${id}`, KEY)).json.result;
const lines = (text: string) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

/** An HTTP server on loopback that records what it receives and answers with the status `answer()` gives. */
async function endpoint(answer: () => number = () => 200) {
  const got: { headers: http.IncomingHttpHeaders; body: Buffer; url: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url ?? '' });
      res.writeHead(answer()).end();
      server.emit('received');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, got, port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
}

test('format: output_options and logpull_options, timestamps, sample, filter, CVE, object names', () => {
  assert.deepEqual(outputSpec({ logpull_options: 'fields=RayID,ClientIP&timestamps=rfc3339&sample=0.5&CVE-2021-44228=true' }), {
    fields: ['RayID', 'ClientIP'], timestamps: 'rfc3339', sample: 0.5, cve: true, outputType: 'ndjson',
    batchPrefix: '', batchSuffix: '', recordPrefix: '{', recordSuffix: '}\n', recordDelimiter: '', fieldDelimiter: ',',
  });
  const oo = outputSpec({ output_options: { field_names: ['A', 'B'], timestamp_format: 'rfc3339ms', sample_rate: 0.25, batch_prefix: '[', batch_suffix: ']', record_delimiter: ',', record_suffix: '}' } });
  assert.ok(typeof oo !== 'string');
  assert.equal(renderBatch([[['A', 1], ['B', 'x${y}']], [['A', 2]]], oo), '[{"A":1,"B":"x${y}"},{"A":2}]');
  assert.equal(renderBatch([[['A', 'x${y}']]], { ...oo, cve: true }), '[{"A":"xx{y}"}]');
  const csv = outputSpec({ output_options: { output_type: 'csv', field_names: ['A', 'B'] } });
  assert.ok(typeof csv !== 'string');
  assert.equal(renderBatch([[['A', 'x,y'], ['B', 2]], [['A', 'q"r'], ['B', null]]], csv), '"x,y",2\n"q""r",\n');
  assert.match(String(outputSpec({ output_options: { timestamp_format: 'iso' } })), /timestamp_format "iso"/);
  assert.match(String(outputSpec({ logpull_options: 'sample=2' })), /sample rate/);
  assert.match(String(outputSpec({ output_options: { record_template: '{{.RayID}}' } })), /record_template/);
  assert.equal(outputSpec({}) && (outputSpec({}) as { timestamps: string }).timestamps, 'unixnano', 'the platform default');

  const iso = '2018-05-03T17:45:00.123Z';
  assert.equal(formatTimestamp(iso, 'unix'), 1525369500);
  assert.equal(formatTimestamp(iso, 'unixnano'), 1525369500123000000n);
  assert.equal(formatTimestamp(iso, 'rfc3339'), '2018-05-03T17:45:00Z');
  assert.equal(formatTimestamp(iso, 'rfc3339ms'), '2018-05-03T17:45:00.123Z');
  assert.equal(formatTimestamp(iso, 'rfc3339ns'), '2018-05-03T17:45:00.123000000Z');

  const t0 = Date.parse('2018-05-03T17:45:00Z');
  assert.equal(compactTime(t0), '20180503T174500Z');
  assert.equal(objectKey('logs/{DATE}', t0, t0 + 300_000, 'abcd1234'), 'logs/20180503/20180503T174500Z_20180503T175000Z_abcd1234.log.gz');
  assert.equal(objectKey('', t0, t0, 'ab'), '20180503T174500Z_20180503T174500Z_ab.log.gz');

  const records = Array.from({ length: 2000 }, (_, i) => ({ RayID: `ray${i}` }));
  const kept = records.filter((r) => sampled(7, r, 0.1)).length;
  assert.ok(kept > 140 && kept < 260, `about 10% sampled, got ${kept}`);
  assert.deepEqual(records.filter((r) => sampled(7, r, 0.1)), records.filter((r) => sampled(7, r, 0.1)), 'deterministic');
  assert.equal(jobFilter({}, 'http_requests'), null);
  assert.match(String(jobFilter({ filter: '{"x":1}' }, 'http_requests')), /where/);
  const f = jobFilter({ filter: JSON.stringify({ where: { key: 'ClientRequestMethod', operator: 'eq', value: 'GET' } }) }, 'http_requests');
  assert.ok(f && typeof f !== 'string' && f.test({ ClientRequestMethod: 'GET' }) && !f.test({ ClientRequestMethod: 'POST' }));
});

test('local folder: filter, fields, timestamps; the object named as the platform names it; the lines route; the ownership file', async (t) => {
  const m = await mock(t);
  const filter = { where: { and: [{ key: 'ClientRequestMethod', operator: 'eq', value: 'GET' }] } };
  const job = await createJob(m, {
    destination_conf: 's3://bucket/logs/{DATE}?region=us-east-1', filter: JSON.stringify(filter),
    output_options: { field_names: ['RayID', 'ClientRequestMethod', 'EdgeStartTimestamp'], timestamp_format: 'unix' },
  });
  const first = m.feed.next(ZONE, 'http_requests');
  await step(m, 300);
  const expected = m.feed.read(ZONE, 'http_requests', first).records.filter((r) => (compileFilter(filter, 'http_requests') as Json).filter.test(r));
  assert.ok(expected.length > 50 && expected.length < 300, `the filter keeps some (${expected.length})`);

  const done = await flush(m);
  assert.deepEqual(done.json, { delivered: 1, failed: 0 });
  const [d] = await deliveries(m);
  assert.equal(d.status, 'delivered');
  assert.equal(d.job, job.id);
  assert.equal(d.scope, 'zone');
  assert.equal(d.owner, ZONE);
  assert.equal(d.dataset, 'http_requests');
  assert.equal(d.destination, 's3://bucket/logs/{DATE}');
  assert.equal(d.records, expected.length);
  assert.match(d.object, /^logs\/\d{8}\/\d{8}T\d{6}Z_\d{8}T\d{6}Z_[0-9a-f]{8}\.log\.gz$/);
  assert.ok(d.localPath && d.localPath.startsWith(path.join(m.dir, 'state.json.logpush')), d.localPath);
  const file = gunzipSync(readFileSync(d.localPath!)).toString('utf8');
  const got = lines(file);
  assert.deepEqual(got.map((r) => r.RayID), expected.map((r) => r.RayID));
  for (const r of got) {
    assert.deepEqual(Object.keys(r), ['RayID', 'ClientRequestMethod', 'EdgeStartTimestamp']);
    assert.equal(r.ClientRequestMethod, 'GET');
    assert.equal(typeof r.EdgeStartTimestamp, 'number');
  }
  assert.equal(d.bytes, readFileSync(d.localPath!).length);
  const res = await fetch(`${m.url}/__edgekit/logpush/deliveries/${d.id}/lines`, { headers: TOKEN });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /ndjson|text\/plain/);
  assert.equal(await res.text(), file);
  const after = await getJob(m, job.id);
  assert.ok(after.last_complete && !after.error_message);

  const own = await api(m.apiBaseUrl, 'POST', `/zones/${ZONE}/logpush/ownership`, KEY, { destination_conf: 's3://bucket/logs/{DATE}?region=us-east-1' });
  const token = /the token is (\S+)\.$/.exec(own.json.result.message)![1];
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  const written = path.join(m.dir, 'state.json.logpush', 's3', 'bucket', 'logs', day, own.json.result.filename);
  assert.equal(readFileSync(written, 'utf8'), token);
  const valid = await api(m.apiBaseUrl, 'POST', `/zones/${ZONE}/logpush/ownership/validate`, KEY, { destination_conf: 's3://bucket/logs/{DATE}?region=us-east-1', ownership_challenge: token });
  assert.equal(valid.json.result.valid, true);
});

test('a Sumo Logic job delivers to the local folder without its collector code: the object, the file, the list, the ownership file', async (t) => {
  // sec5: the object key (and so the folder, the delivery list and the Zones view's tooltip) held the code, the HTTP source's credential.
  const m = await mock(t);
  const conf = 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/SECRETCODE';
  const own = await api(m.apiBaseUrl, 'POST', `/zones/${ZONE}/logpush/ownership`, KEY, { destination_conf: conf });
  assert.equal(own.status, 200, JSON.stringify(own.json));
  assert.ok(!JSON.stringify(own.json).includes('SECRETCODE'), JSON.stringify(own.json));
  assert.match(own.json.result.message, /The mock wrote \S+ to \S*receiver\S+http\S+code-[0-9a-f]{12}\S+; the token/);
  const token = /the token is (\S+)\.$/.exec(own.json.result.message)![1];
  const job = await createJob(m, { destination_conf: conf, ownership_challenge: token });
  await step(m, 20);
  assert.deepEqual((await flush(m, { job: job.id })).json, { delivered: 1, failed: 0 });
  const [d] = await deliveries(m);
  assert.equal(d.status, 'delivered');
  assert.match(d.object, /^receiver\/v1\/http\/code-[0-9a-f]{12}\/\d{8}T\d{6}Z_\d{8}T\d{6}Z_[0-9a-f]{8}\.log\.gz$/);
  assert.ok(d.localPath && existsSync(d.localPath), d.localPath);
  assert.ok(!JSON.stringify(d).includes('SECRETCODE'), JSON.stringify(d));
});

test('logpull_options: fields, rfc3339 timestamps and a sample; firewall_events too; a disabled job delivers nothing', async (t) => {
  const m = await mock(t);
  const a = await createJob(m, { destination_conf: 'gs://b/a', logpull_options: 'fields=RayID,EdgeStartTimestamp&timestamps=rfc3339&sample=0.5' });
  const fw = await createJob(m, { dataset: 'firewall_events', destination_conf: 'gs://b/fw', logpull_options: 'fields=RayID,Action,Datetime&timestamps=unixnano' });
  const off = await createJob(m, { enabled: false, destination_conf: 'gs://b/off' });
  await step(m, 400);
  assert.equal((await flush(m)).json.delivered, 2);
  const all = await deliveries(m);
  assert.deepEqual(new Set(all.map((d) => d.job)), new Set([a.id, fw.id]));
  assert.ok(!all.some((d) => d.job === off.id));
  const sampledLines = lines(gunzipSync(readFileSync(all.find((d) => d.job === a.id)!.localPath!)).toString());
  assert.ok(sampledLines.length > 120 && sampledLines.length < 280, `about half of 400 (${sampledLines.length})`);
  assert.match(String(sampledLines[0].EdgeStartTimestamp), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const events = lines(gunzipSync(readFileSync(all.find((d) => d.job === fw.id)!.localPath!)).toString());
  assert.equal(events.length, m.traffic.events(ZONE).length);
  assert.ok(events.every((e) => typeof e.Datetime === 'number' && typeof e.Action === 'string'));
  assert.deepEqual((await deliveries(m, `?job=${fw.id}`)).map((d) => d.job), [fw.id]);
});

test('a job without a field list delivers only the dataset\'s platform fields, never EdgeKit\'s own members', async (t) => {
  // The platform writes its own fields only (logs/reference: the dataset's field list); EdgeKitMode, EdgeKitWouldAction and the
  // feed's ClientRequestQuery are the mock's.
  const m = await mock(t);
  const http = await createJob(m, { destination_conf: 'gs://b/http' });
  const fw = await createJob(m, { dataset: 'firewall_events', destination_conf: 'gs://b/fw', output_options: { timestamp_format: 'rfc3339' } });
  const legacy = await createJob(m, { dataset: 'firewall_events', destination_conf: 'gs://b/legacy', logpull_options: 'timestamps=rfc3339' });
  await step(m, 400);
  assert.equal((await flush(m)).json.delivered, 3);
  const all = await deliveries(m);
  assert.ok(m.feed.read(ZONE, 'firewall_events', 0).records.some((r) => 'EdgeKitMode' in r), 'the feed has EdgeKit members');
  for (const [job, dataset] of [[http, 'http_requests'], [fw, 'firewall_events'], [legacy, 'firewall_events']] as const) {
    const known = new Set((catalogue.logpush.datasetFields(dataset) ?? []).map((f) => f.name));
    const got = lines(gunzipSync(readFileSync(all.find((d) => d.job === job.id)!.localPath!)).toString());
    assert.ok(got.length > 0, dataset);
    const names = new Set(got.flatMap((r) => Object.keys(r)));
    assert.deepEqual([...names].filter((n) => !known.has(n)), [], `${dataset}: only platform fields`);
    assert.ok(names.has('RayID'), dataset);
  }
});

test('https on loopback: a gzip POST with the header_ members as headers; a failure sets last_error and error_message, the retry delivers', async () => {
  let status = 503;
  const ep = await endpoint(() => status);
  const m = await mock(undefined);
  try {
    const job = await createJob(m, { destination_conf: `https://127.0.0.1:${ep.port}/ingest?header_X-Api-Key=secret%20key&tag=a` });
    await step(m, 40);
    const failed = await flush(m);
    assert.deepEqual(failed.json, { delivered: 0, failed: 1 });
    let j = await getJob(m, job.id);
    assert.ok(j.last_error, 'last_error is set');
    assert.equal(j.last_complete, null);
    assert.match(j.error_message, new RegExp(`https://127\\.0\\.0\\.1:${ep.port}/ingest`));
    assert.match(j.error_message, /HTTP 503/);
    assert.ok(!j.error_message.includes('secret'), 'the header value is not in the message');
    const [d] = await deliveries(m);
    assert.equal(d.status, 'failed');
    assert.match(d.error ?? '', /HTTP 503/);

    // The retry (backoff 20 ms here) delivers once the endpoint answers.
    status = 200;
    const before = ep.got.length;
    while (ep.got.length === before) await once(ep.server, 'received');
    // The record of the try the endpoint just answered (uploads of a job go one at a time: an earlier try's is written), delivered
    // or failed: waiting for "delivered" alone hung while a broken retry kept failing
    const retried = await m.delivery.recorded((r) => r.id === d.id, { next: true });
    assert.equal(retried.status, 'delivered', 'delivered after the retry');
    assert.equal((await deliveries(m))[0].status, 'delivered', 'delivered after the retry');
    j = await getJob(m, job.id);
    assert.ok(j.last_complete);
    assert.equal(j.error_message, null);
    const last = ep.got[ep.got.length - 1];
    assert.equal(last.headers['content-encoding'], 'gzip');
    assert.equal(last.headers['x-api-key'], 'secret key');
    assert.equal(last.url, '/ingest?tag=a');
    assert.equal(lines(gunzipSync(last.body).toString()).length, 40);
  } finally {
    await m.close();
    await ep.close();
  }
});

test('a job whose batches fail for 24 hours is disabled, as the platform disables it; re-enabled, it starts afresh and delivers', async () => {
  // It was retried forever (every 5 minutes at most). The platform disables a job that has not pushed once in 24 hours (the
  // "Failing Logpush Job Disabled" notification); the clock is the mock's own here, and flushes stand in for the retries.
  let status = 503;
  const ep = await endpoint(() => status);
  let clock = Date.parse('2026-11-26T00:00:00Z');
  const m = await mock(undefined, { delivery: { now: () => clock, retry: { firstMs: 60_000 } } });
  const DAY = 24 * 3600 * 1000;
  try {
    const job = await createJob(m, { destination_conf: `https://127.0.0.1:${ep.port}/ingest` });
    await step(m, 10);
    assert.deepEqual((await flush(m)).json, { delivered: 0, failed: 1 });
    let j = await getJob(m, job.id);
    assert.equal(j.enabled, true);
    assert.match(j.error_message, /HTTP 503; attempt \d+, next try in/);
    clock += DAY - 1;
    assert.deepEqual((await flush(m)).json, { delivered: 0, failed: 1 });
    assert.equal((await getJob(m, job.id)).enabled, true, 'not yet: failing for 1 ms less than 24 hours');
    clock += 1;
    assert.deepEqual((await flush(m)).json, { delivered: 0, failed: 1 });
    j = await getJob(m, job.id);
    assert.equal(j.enabled, false, 'disabled after 24 hours without a delivery');
    assert.ok(j.last_error);
    assert.match(j.error_message, new RegExp(`^Job ${job.id} was disabled: no batch was delivered for 24 h \\(since 2026-11-26T00:00:00\\.000Z\\).*HTTP 503.*1 batch`));
    // Disabled, it uploads nothing, a flush included; its batch waits in the spool.
    const tries = ep.got.length;
    const idle = (await flush(m)).json;
    assert.deepEqual([idle.delivered, idle.failed], [0, 0]);
    assert.match(idle.why, /1 batch waits in the spool until its disabled job is enabled again/, 'the flush says why it delivered nothing');
    assert.equal(ep.got.length, tries);
    assert.equal((await deliveries(m))[0].status, 'failed');

    // Enabled again, its failures count from the next one: one more failure does not disable it.
    assert.equal((await api(m.apiBaseUrl, 'PUT', `${JOBS}/${job.id}`, KEY, { enabled: true })).status, 200);
    clock += DAY;
    assert.deepEqual((await flush(m)).json, { delivered: 0, failed: 1 });
    assert.equal((await getJob(m, job.id)).enabled, true);
    status = 200;
    assert.deepEqual((await flush(m)).json, { delivered: 1, failed: 0 });
    j = await getJob(m, job.id);
    assert.ok(j.last_complete);
    assert.equal(j.error_message, null, 'a success clears error_message');
    assert.equal(j.last_error, null, 'and last_error, as the API documents both');
  } finally {
    await m.close();
    await ep.close();
  }
});

test('routes: the delivery list, lines (404 when unknown or no longer kept), flush refusals, credentials; reset forgets', async (t) => {
  const m = await mock(t, { delivery: { keepLines: 1 } });
  const job = await createJob(m, { destination_conf: 'gs://b/routes' });
  await step(m, 5);
  await flush(m, { job: job.id });
  await step(m, 5);
  await flush(m, { job: job.id });
  const [newest, older] = await deliveries(m);
  assert.ok(Date.parse(newest.at) >= Date.parse(older.at));
  assert.equal((await fetch(`${m.url}/__edgekit/logpush/deliveries/${older.id}/lines`, { headers: TOKEN })).status, 200, 'read back from the local file');
  rmSync(older.localPath!);
  const gone = await api(m.url, 'GET', `/__edgekit/logpush/deliveries/${older.id}/lines`, TOKEN);
  assert.equal(gone.status, 404);
  assert.match(gone.json.errors[0].message, /no longer kept/);
  const unknown = await api(m.url, 'GET', '/__edgekit/logpush/deliveries/nope/lines', TOKEN);
  assert.equal(unknown.status, 404);
  assert.match(unknown.json.errors[0].message, /No Logpush delivery "nope"/);
  assert.equal((await api(m.url, 'GET', '/__edgekit/logpush/deliveries?job=x', TOKEN)).status, 400);
  assert.equal((await flush(m, { job: 'x' })).status, 400);
  assert.equal((await flush(m, { jobs: 1 })).status, 400);
  assert.equal((await flush(m, [])).status, 400);
  assert.equal((await api(m.url, 'DELETE', '/__edgekit/logpush/flush', TOKEN)).status, 405);
  const anon = await fetch(`${m.url}/__edgekit/logpush/deliveries`);
  assert.equal(anon.status, 400);
  assert.equal(((await anon.json()) as Json).errors[0].code, 9106);
  assert.deepEqual((await flush(m, { job: 999 })).json, { delivered: 0, failed: 0, why: 'Job 999 collects no traffic: only enabled jobs of a zone with the dataset http_requests or firewall_events, and an account\'s firewall_events jobs, collect the mock\'s traffic.' });
  for (const r of EDGEKIT_ROUTES) {
    if (r.path === '/__edgekit/reset') continue;
    const body = r.method === 'GET' ? undefined : JSON.stringify(r.path.endsWith('step') ? { count: 1 } : {});
    const reply = await fetch(m.url + r.path.replace(':zone', ZONE).replace(':id', newest.id), { method: r.method, headers: { ...TOKEN, 'content-type': 'application/json' }, body });
    assert.equal(reply.status, 200, `${r.method} ${r.path} answers (the docs' route index lists it): ${await reply.text()}`);
  }
  await m.reset();
  assert.deepEqual(await deliveries(m), []);
});

// firewall_events' account page is the account-level security events: an account's job pushes the events of every zone of the
// account, each line with its ZoneName (a field of account jobs only). The mock's account jobs delivered nothing.
test('an account\'s firewall_events job delivers the events of the account\'s zones, each with its ZoneName; a filter on it picks a zone', async (t) => {
  const m = await mock(t);
  const accountJobs = `/accounts/${ACCOUNTS[0].id}/logpush/jobs`;
  const all = await createJob(m, { dataset: 'firewall_events', destination_conf: 'gs://b/acct', output_options: { field_names: ['RayID', 'Action', 'ZoneName'] } }, accountJobs);
  const one = await createJob(m, {
    dataset: 'firewall_events', destination_conf: 'gs://b/acct-pro', output_options: { field_names: ['RayID', 'ZoneName'] },
    filter: JSON.stringify({ where: { key: 'ZoneName', operator: 'eq', value: 'pro.example' } }),
  }, accountJobs);
  const other = zoneId('business.example');
  await step(m, 400);
  await step(m, 400, other);
  const expected = { 'pro.example': m.traffic.events(ZONE).length, 'business.example': m.traffic.events(other).length };
  assert.ok(expected['pro.example'] > 0 && expected['business.example'] > 0, JSON.stringify(expected));
  const r = (await flush(m)).json;
  assert.ok(r.delivered >= 2, JSON.stringify(r));
  const linesOf = async (job: number) => (await deliveries(m, `?job=${job}`)).flatMap((d) => lines(gunzipSync(readFileSync(d.localPath!)).toString()));
  const got = await linesOf(all.id);
  const count = (zone: string) => got.filter((l) => l.ZoneName === zone).length;
  assert.deepEqual({ 'pro.example': count('pro.example'), 'business.example': count('business.example') }, expected);
  assert.ok(got.every((l) => typeof l.RayID === 'string' && typeof l.Action === 'string'));
  assert.ok((await deliveries(m, `?job=${all.id}`)).every((d) => d.scope === 'account' && d.owner === ACCOUNTS[0].id && d.dataset === 'firewall_events'));
  const picked = await linesOf(one.id);
  assert.equal(picked.length, expected['pro.example']);
  assert.ok(picked.every((l) => l.ZoneName === 'pro.example'));
  // A zone's own firewall_events job still has no ZoneName (its page does not list it).
  const zoneJob = await createJob(m, { dataset: 'firewall_events', destination_conf: 'gs://b/zone' });
  await step(m, 200);
  await flush(m);
  const zoneLines = await linesOf(zoneJob.id);
  assert.ok(zoneLines.length > 0 && zoneLines.every((l) => !('ZoneName' in l)));
});

test('an account job has no feed dataset and delivers nothing', async (t) => {
  const m = await mock(t);
  await createJob(m, { dataset: 'audit_logs', destination_conf: 'gs://b/audit' }, `/accounts/${ACCOUNTS[0].id}/logpush/jobs`);
  await step(m, 20);
  assert.match((await flush(m)).json.why, /^No Logpush job collects the mock's traffic/);
  assert.deepEqual(await deliveries(m), []);
});

test('bounds: a full spool pauses cutting and says so; the local folder has a disk limit', async () => {
  const ep = await endpoint(() => 500);
  const m = await mock(undefined, { delivery: { maxSpoolBatches: 1, maxLocalBytes: 600, retry: { firstMs: 60_000 } } });
  try {
    const job = await createJob(m, { destination_conf: `https://127.0.0.1:${ep.port}/x` });
    await step(m, 5);
    assert.equal((await flush(m, { job: job.id })).json.failed, 1);
    await step(m, 5);
    await flush(m, { job: job.id });
    const j = await getJob(m, job.id);
    assert.match(j.error_message, /spool of job \d+ is full: 1 batches wait/);
    assert.equal((await deliveries(m, `?job=${job.id}`)).length, 1, 'no second batch cut');

    // The local folder's limit (600 bytes here): a first small object fits, a second does not; deleting objects makes room (the
    // disk is counted again before a refusal).
    const local = await createJob(m, { destination_conf: 'gs://b/big', logpull_options: 'fields=RayID' });
    await step(m, 40);
    assert.deepEqual((await flush(m, { job: local.id })).json, { delivered: 1, failed: 0 });
    const [firstObject] = await deliveries(m, `?job=${local.id}`);
    assert.ok(firstObject.bytes < 600 && firstObject.bytes * 2 > 600, `the test's sizes hold (${firstObject.bytes} bytes)`);
    await step(m, 40);
    assert.deepEqual((await flush(m, { job: local.id })).json, { delivered: 0, failed: 1 });
    assert.match((await getJob(m, local.id)).error_message, /the local delivery folder .* holds \d+ bytes and this object would take it over its limit of 600 bytes/);
    rmSync(firstObject.localPath!);
    assert.deepEqual((await flush(m, { job: local.id })).json, { delivered: 1, failed: 0 });
  } finally {
    await m.close();
    await ep.close();
  }
});

test('max_upload_records cuts a backlog into batches of that many records, each its own object', async (t) => {
  const m = await mock(t);
  const small = await createJob(m, { destination_conf: 'gs://b/small', max_upload_records: 1000 });
  await step(m, 2500);
  assert.deepEqual((await flush(m, { job: small.id })).json, { delivered: 3, failed: 0 });
  const cut = await deliveries(m, `?job=${small.id}`);
  assert.deepEqual(cut.map((d) => d.records).sort(), [1000, 1000, 500]);
  assert.equal(new Set(cut.map((d) => d.object)).size, 3);
});

test('without a state file the spool is in memory and the folder is in the OS temp folder; close() ends cleanly', async () => {
  const m = await start({ traffic: { paused: true }, delivery: { dir: path.join(tmp(), 'objects') } });
  try {
    await createJob(m, { destination_conf: 'gs://b/mem' });
    await step(m, 3);
    assert.equal((await flush(m)).json.delivered, 1);
    const [d] = await deliveries(m);
    assert.ok(existsSync(d.localPath!));
  } finally {
    await m.close();
  }
});

test('a mock closed with records not cut yet spools them; the next start on the same state delivers them', async () => {
  const dir = tmp();
  const stateFile = path.join(dir, 'state.json');
  let m = await start({ stateFile, traffic: { paused: true } });
  const job = await createJob(m, { destination_conf: 'gs://b/drain' });
  const first = m.feed.next(ZONE, 'http_requests');
  await step(m, 25);
  const rays = m.feed.read(ZONE, 'http_requests', first).records.map((r) => r.RayID);
  await m.close();
  m = await start({ stateFile, traffic: { paused: true } });
  try {
    // The spooled batch is uploaded at start: its record, delivered or failed, once written (the service's event, no poll; waiting
    // for "delivered" alone hung on an upload that failed)
    assert.equal((await m.delivery.recorded((r) => r.status !== 'pending')).status, 'delivered', 'delivered after the restart');
    const list: DeliveryRecord[] = await deliveries(m);
    assert.ok(list.some((d) => d.status === 'delivered'), 'delivered after the restart');
    assert.equal(list.length, 1);
    assert.equal(list[0].job, job.id);
    assert.deepEqual(lines(gunzipSync(readFileSync(list[0].localPath!)).toString()).map((r) => r.RayID), rays);
  } finally {
    await m.close();
  }
});

// dat1: a delivery list that could not be read at the start (a hand edit, a disk that lost its end) was taken for none, without a
// word, and the next delivery wrote the file over: the list of what was delivered where was gone.
test('a delivery list that cannot be read at the start is kept aside and named in the log, not written over in silence', async () => {
  const dir = tmp();
  const stateFile = path.join(dir, 'state.json');
  mkdirSync(`${stateFile}.spool`, { recursive: true });
  const records = path.join(`${stateFile}.spool`, 'deliveries.json');
  writeFileSync(records, '[{"id": "a", "job": 1, "sta');
  const logged: string[] = [];
  const m = await start({ stateFile, traffic: { paused: true }, log: (l) => logged.push(l) });
  try {
    const aside = readdirSync(`${stateFile}.spool`).filter((f) => f.startsWith('deliveries.json.corrupt-'));
    assert.equal(aside.length, 1);
    assert.equal(readFileSync(path.join(`${stateFile}.spool`, aside[0]), 'utf8'), '[{"id": "a", "job": 1, "sta');
    assert.ok(logged.some((l) => l.includes(`The Logpush delivery list "${records}" cannot be read (`) && l.includes(`it was kept as "${path.join(`${stateFile}.spool`, aside[0])}"`)), logged.join('\n'));
    assert.deepEqual(await deliveries(m), []);
  } finally {
    await m.close();
  }
});

// rv33: a keeping aside that fails (EACCES) ended the start with "port N on HOST needs privileges; choose a port above 1023", the
// message of a privileged port's refusal, for every EACCES; the rename's own message names the files.
test('a keeping aside refused (EACCES) stops the mock with the refusal\'s own message, not a privileged port\'s', async (t) => {
  const dir = tmp();
  const stateFile = path.join(dir, 'state.json');
  mkdirSync(`${stateFile}.spool`, { recursive: true });
  writeFileSync(path.join(`${stateFile}.spool`, 'deliveries.json'), '{');
  const nodeFs = require('node:fs') as typeof import('node:fs');
  const realRename = nodeFs.promises.rename;
  t.mock.method(nodeFs.promises, 'rename', async (from: string, to: string) => {
    if (String(to).includes('.corrupt-')) throw Object.assign(new Error(`EACCES: permission denied, rename '${from}' -> '${to}'`), { code: 'EACCES', syscall: 'rename' });
    return realRename(from, to);
  });
  let err = '';
  const code = await runMockCli(['--port', '0', '--state', stateFile, '--traffic-paused'], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env: {} });
  assert.equal(code, 1);
  assert.doesNotMatch(err, /needs privileges/);
  assert.match(err, /^edgekit mock: cannot start: EACCES: permission denied, rename '.*deliveries\.json' -> '.*deliveries\.json\.corrupt-\d+'\n$/);
});

// dat1: spooled metadata that could not be read was deleted at the start without a word, and its batch with it.
test('a spooled batch whose metadata cannot be read is kept aside with its batch and named in the log, not deleted', async () => {
  const dir = tmp();
  const stateFile = path.join(dir, 'state.json');
  const spool = `${stateFile}.spool`;
  mkdirSync(spool, { recursive: true });
  writeFileSync(path.join(spool, 'b1.json'), '{"id": "b1", "se');
  writeFileSync(path.join(spool, 'b1.gz'), 'the batch');
  writeFileSync(path.join(spool, 'b2.json'), '{"id": "../elsewhere", "seq": 1}');
  const logged: string[] = [];
  const m = await start({ stateFile, traffic: { paused: true }, log: (l) => logged.push(l) });
  try {
    const names = readdirSync(spool);
    const body = names.find((f) => f.startsWith('b1.gz.unreadable-'));
    const meta = names.find((f) => f.startsWith('b1.json.unreadable-'));
    assert.ok(body && meta, names.join(', '));
    assert.equal(readFileSync(path.join(spool, body), 'utf8'), 'the batch');
    assert.ok(names.some((f) => f.startsWith('b2.json.unreadable-')), names.join(', '));
    assert.ok(logged.some((l) => l.startsWith(`Logpush delivery: the spool's "${path.join(spool, 'b1.json')}" cannot be read (`) && l.includes(`it was kept as "${path.join(spool, meta)}", with its batch.`)), logged.join('\n'));
    assert.ok(logged.some((l) => l.includes('not the metadata of spooled batch b2')), logged.join('\n'));
  } finally {
    await m.close();
  }
});

// mt5: what the start logs and takes up that no test held: a first start (no delivery list yet) has nothing to say of it; metadata
// without a whole-number "seq" is not its own (the next batch numbers from it); metadata whose batch is gone is not taken up.
test('a first start says nothing of a delivery list it has not written yet', async () => {
  const logged: string[] = [];
  const m = await start({ stateFile: path.join(tmp(), 'state.json'), traffic: { paused: true }, log: (l) => logged.push(l) });
  try {
    assert.deepEqual(logged.filter((l) => /delivery list|spool/.test(l)), []);
  } finally {
    await m.close();
  }
});

test('spooled metadata without a whole-number "seq" is kept aside; metadata whose batch file is gone is removed, said, and not taken up', async () => {
  const dir = tmp();
  const stateFile = path.join(dir, 'state.json');
  const spool = `${stateFile}.spool`;
  mkdirSync(spool, { recursive: true });
  writeFileSync(path.join(spool, 'b4.json'), '{"id": "b4"}');
  writeFileSync(path.join(spool, 'b4.gz'), 'the batch');
  writeFileSync(path.join(spool, 'b5.json'), '{"id": "b5", "seq": 1, "job": 1}');
  const logged: string[] = [];
  const m = await start({ stateFile, traffic: { paused: true }, log: (l) => logged.push(l) });
  try {
    const names = readdirSync(spool);
    assert.ok(names.some((f) => f.startsWith('b4.json.unreadable-')) && names.some((f) => f.startsWith('b4.gz.unreadable-')), names.join(', '));
    assert.ok(logged.some((l) => l.includes('not the metadata of spooled batch b4')), logged.join('\n'));
    assert.ok(!names.includes('b5.json'), names.join(', '));
    assert.ok(logged.some((l) => l === `Logpush delivery: the spool's "${path.join(spool, 'b5.json')}" names a batch whose file b5.gz is gone; it was removed.`), logged.join('\n'));
    assert.deepEqual(await deliveries(m), []);
    // Read without the test's folder, whose random name may hold "b5" itself ("edgekit-delivery-twb5RK": seen once, the b4 line
    // then counted as a second saying of b5).
    assert.deepEqual(logged.filter((l) => /b5/.test(l.split(dir).join(''))).length, 1, logged.join('\n'));
  } finally {
    await m.close();
  }
});

test('recorded(): a test that throws rejects its own wait only, the delivery goes on; a wait the mock closes on is rejected, not left', { timeout: 60_000 }, async () => {
  // rv28: a throwing test ran inside the service's bookkeeping (upsert), so the upload that wrote the record failed with the test's
  // error; a wait for a record never written stayed in the list for good, and a test awaiting it hung until the runner was killed.
  const m = await start({ traffic: { paused: true }, delivery: { dir: path.join(tmp(), 'objects') } });
  let closed: Promise<void> | undefined;
  try {
    const thrown = assert.rejects(m.delivery.recorded(() => { throw new Error('the test\'s own bug'); }), /the test's own bug/);
    const delivered = m.delivery.recorded((r) => r.status === 'delivered');
    await createJob(m, { destination_conf: 'gs://b/waits' });
    await step(m, 3);
    assert.equal((await flush(m)).json.delivered, 1);
    await thrown;
    assert.equal((await delivered).status, 'delivered');
    // next: the record in the list is not the one awaited; the next one written is
    const again = m.delivery.recorded((r) => r.status === 'delivered', { next: true });
    await step(m, 2);
    assert.equal((await flush(m)).json.delivered, 1);
    assert.notEqual((await again).id, (await delivered).id);
    closed = assert.rejects(m.delivery.recorded((r) => r.status === 'failed'), /closed before a delivery record the test accepts was written/);
  } finally {
    await m.close();
  }
  await closed;
  await assert.rejects(m.delivery.recorded(() => false), /closed before/, 'asked after the close');
});

test('edgekit mock: --delivery-dir and --s3-endpoint are checked and used; the S3 keys are never printed', async () => {
  const { runMockCli } = await import('../../../mock/src/main');
  let err = '';
  assert.equal(await runMockCli(['--port', '0', '--s3-endpoint', 'ftp://x'], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve() }), 2);
  assert.match(err, /--s3-endpoint needs an http/);
  let out = '';
  const dir = path.join(tmp(), 'objects');
  const code = await runMockCli(['--port', '0', '--traffic-paused', '--delivery-dir', dir, '--s3-endpoint', 'http://127.0.0.1:9/', '--s3-access-key-id', 'AKIDSECRETID'],
    { stdout: (s) => { out += s; }, stderr: () => undefined }, { stop: Promise.resolve(), env: { EDGEKIT_MOCK_S3_SECRET_ACCESS_KEY: 'VERYSECRETKEY' } });
  assert.equal(code, 0);
  assert.ok(out.includes(`Logpush delivery: local folder ${dir}; s3:// and r2:// to http://127.0.0.1:9`), out);
  assert.ok(!out.includes('AKIDSECRETID') && !out.includes('VERYSECRETKEY'));
});

test('edgekit mock --s3-endpoint with keys in its user info is refused, naming where the keys go, without echoing them', async () => {
  // sec4: http://KEY:SECRET@host/ was taken; fetch then refuses a URL with credentials in words that quote it, and that message
  // became the job's error_message (the Zones view shows it) and a log line.
  const { runMockCli } = await import('../../../mock/src/main');
  let err = '';
  const code = await runMockCli(['--port', '0', '--s3-endpoint', 'http://AKIDSECRETID:VERYSECRETKEY@127.0.0.1:9/'], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env: {} });
  assert.equal(code, 2);
  assert.match(err, /^edgekit mock: --s3-endpoint takes no user name or password: give the keys with --s3-access-key-id and --s3-secret-access-key \(or EDGEKIT_MOCK_S3_ACCESS_KEY_ID and EDGEKIT_MOCK_S3_SECRET_ACCESS_KEY\)\./);
  assert.ok(!err.includes('AKIDSECRETID') && !err.includes('VERYSECRETKEY'), err);
});

test('edgekit mock: an S3 endpoint that is no http(s) URL is refused from the option and from EDGEKIT_MOCK_S3_ENDPOINT, its keys not echoed', async () => {
  // rv28: the user-info check read the endpoint with URL and let pass what URL could not read (http://KEY:SECRET@host:99999/ passed
  // the option's pattern), which then went whole into every upload's label and error_message; the variable was not checked at all
  // (ftp://x was taken).
  const { runMockCli } = await import('../../../mock/src/main');
  const run = async (argv: string[], env: Record<string, string>) => {
    let err = '';
    const code = await runMockCli(['--port', '0', ...argv], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env });
    return { code, err };
  };
  let r = await run(['--s3-endpoint', 'http://AKIDSECRETID:VERYSECRETKEY@127.0.0.1:99999/'], {});
  assert.equal(r.code, 2);
  assert.match(r.err, /^edgekit mock: --s3-endpoint needs an http:\/\/ or https:\/\/ URL, not "http:\/\/127\.0\.0\.1:99999\/"/);
  assert.ok(!r.err.includes('AKIDSECRETID') && !r.err.includes('VERYSECRETKEY'), r.err);
  r = await run([], { EDGEKIT_MOCK_S3_ENDPOINT: 'ftp://x' });
  assert.equal(r.code, 2);
  assert.match(r.err, /^edgekit mock: EDGEKIT_MOCK_S3_ENDPOINT needs an http:\/\/ or https:\/\/ URL, not "ftp:\/\/x"/);
  r = await run(['--s3-endpoint', ''], {});
  assert.equal(r.code, 2);
  assert.match(r.err, /^edgekit mock: --s3-endpoint needs an http:\/\/ or https:\/\/ URL, not ""/);
});

test('an endpoint that never answers: the upload is abandoned after uploadTimeoutMs and reported', async () => {
  const silent = http.createServer(() => undefined); // reads nothing back, answers nothing
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  const m = await mock(undefined, { delivery: { uploadTimeoutMs: 200, retry: { firstMs: 60_000 } } });
  try {
    const job = await createJob(m, { destination_conf: `https://127.0.0.1:${(silent.address() as AddressInfo).port}/slow` });
    await step(m, 3);
    assert.deepEqual((await flush(m)).json, { delivered: 0, failed: 1 });
    assert.match((await getJob(m, job.id)).error_message, /to https:\/\/127\.0\.0\.1:\d+\/slow failed: no answer within 200 ms/);
  } finally {
    await m.close();
    silent.closeAllConnections();
    silent.close();
  }
});

test('bytes per batch: a batch is cut before its text passes the byte bound', async (t) => {
  const m = await mock(t, { delivery: { maxBatchBytes: 2000 } });
  const job = await createJob(m, { destination_conf: 'gs://b/bytes', logpull_options: 'fields=RayID,ClientRequestPath' });
  await step(m, 100);
  const done = (await flush(m, { job: job.id })).json;
  assert.ok(done.delivered > 2 && done.failed === 0, JSON.stringify(done));
  const all = await deliveries(m, `?job=${job.id}`);
  assert.equal(all.reduce((n, d) => n + d.records, 0), 100);
  for (const d of all) assert.ok(gunzipSync(readFileSync(d.localPath!)).length <= 2000);
});


test('a flush counts every batch it delivers, also one whose upload ended while the next job was still being cut', async (t) => {
  const m = await mock(t);
  // The first job's small batch is uploaded (a quick local write) while the second job's large batch is still rendered and
  // gzipped; the count must not depend on which finishes first.
  const small = await createJob(m, { destination_conf: 'gs://b/small', output_options: { field_names: ['RayID'] } });
  const large = await createJob(m, { destination_conf: 'gs://b/large' });
  await step(m, 10000);
  const done = (await flush(m)).json;
  const all = await deliveries(m);
  assert.deepEqual(new Set(all.map((d) => d.job)), new Set([small.id, large.id]));
  assert.ok(all.length >= 2 && all.every((d) => d.status === 'delivered'), JSON.stringify(all.map((d) => [d.job, d.status])));
  assert.deepEqual(done, { delivered: all.length, failed: 0 });
});

test('a cut takes the records waiting when it starts; records appended while it writes wait for the next cut', async (t) => {
  const m = await mock(t);
  const job = await createJob(m, { destination_conf: 'gs://b/cut', output_options: { field_names: ['RayID'] } });
  await step(m, 50);
  // Traffic arrives while the flush writes its batch to the spool (the next turn of the event loop, during the file I/O).
  const flushing = m.delivery.flush(job.id);
  setImmediate(() => m.traffic.step(5, ZONE));
  assert.deepEqual(await flushing, { delivered: 1, failed: 0 });
  assert.deepEqual((await deliveries(m)).map((d) => d.records), [50]);
  assert.deepEqual((await flush(m)).json, { delivered: 1, failed: 0 });
  assert.deepEqual((await deliveries(m)).map((d) => d.records), [5, 50]);
});

test('format: CSV quotes every string (the docs\' CSV and TSV examples: "89.163.242.206",1506702504433000200,"3a6050bcbe121a87"), numbers and booleans bare', () => {
  const csv = outputSpec({ output_options: { output_type: 'csv', field_names: ['ClientIP', 'EdgeStartTimestamp', 'RayID'] } });
  assert.ok(typeof csv !== 'string');
  const row: [string, unknown][] = [['ClientIP', '89.163.242.206'], ['EdgeStartTimestamp', 1506702504433000200], ['RayID', '3a6050bcbe121a87']];
  assert.equal(renderBatch([row], csv), '"89.163.242.206",1506702504433000200,"3a6050bcbe121a87"\n');
  assert.equal(renderBatch([[['A', true], ['B', 7], ['C', '']]], csv), 'true,7,""\n');
  // TSV (field_delimiter "\t"): a string holding a tab stays one cell.
  const tsv = outputSpec({ output_options: { output_type: 'csv', field_names: ['A', 'B'], field_delimiter: '\t', batch_prefix: 'A\tB\n' } });
  assert.ok(typeof tsv !== 'string');
  assert.equal(renderBatch([[['A', 'x\ty'], ['B', 'z']]], tsv), 'A\tB\n"x\ty"\t"z"\n');
});

test('a filter on a timestamp field compares the platform\'s integer (unixnano) time, so delivery keeps what test-filter counts on the delivered lines', async (t) => {
  const m = await mock(t);
  // Everything generated from now on is after the threshold; the filter must keep it all.
  const threshold = (Date.now() - 60_000) * 1_000_000;
  const filter = { where: { key: 'EdgeStartTimestamp', operator: 'geq', value: threshold } };
  const f = jobFilter({ filter: JSON.stringify(filter) }, 'http_requests');
  assert.ok(f && typeof f !== 'string');
  assert.equal(f.test({ EdgeStartTimestamp: new Date(Date.now()).toISOString() }), true, 'a later ISO time passes a unixnano threshold');
  assert.equal(f.test({ EdgeStartTimestamp: new Date(Date.now() - 3_600_000).toISOString() }), false, 'an earlier one does not');
  await createJob(m, { destination_conf: 's3://bucket/ts?region=us-east-1', filter: JSON.stringify(filter), output_options: { field_names: ['RayID', 'EdgeStartTimestamp'] } });
  const first = m.feed.next(ZONE, 'http_requests');
  await step(m, 50);
  const generated = m.feed.read(ZONE, 'http_requests', first).records.length;
  assert.deepEqual((await flush(m)).json, { delivered: 1, failed: 0 });
  const [d] = await deliveries(m);
  const got = lines(gunzipSync(readFileSync(d.localPath!)).toString('utf8'));
  assert.equal(got.length, generated);
  // edgekit test-filter evaluates the same filter on the delivered NDJSON lines (unixnano by default): every line matches.
  const compiled = compileFilter(filter, 'http_requests') as Json;
  assert.equal(got.filter((r) => compiled.filter.test(r)).length, got.length);
});

test('bytes per batch: the bound counts UTF-8 bytes, the batch prefix and suffix once and the record delimiters', async (t) => {
  const m = await mock(t, { delivery: { maxBatchBytes: 2000 } });
  // A CSV header as batch prefix (the docs' "csv with header"), multi-byte text in every record, a delimiter between records.
  const header = 'RayID,ClientRequestPath,' + 'x'.repeat(300) + '\n';
  const job = await createJob(m, { destination_conf: 'gs://b/utf8', output_options: {
    field_names: ['RayID', 'ClientRequestPath'], output_type: 'csv', batch_prefix: header, record_prefix: 'ééé,', record_delimiter: '~' } });
  await step(m, 100);
  assert.equal((await flush(m, { job: job.id })).json.failed, 0);
  const all = await deliveries(m, `?job=${job.id}`);
  assert.equal(all.reduce((n, d) => n + d.records, 0), 100);
  const sizes = all.map((d) => gunzipSync(readFileSync(d.localPath!)).length);
  for (const s of sizes) assert.ok(s <= 2000, `an object of ${s} bytes passes the 2000-byte bound`);
  // Every object but one (the remainder) is full: one more record would not have fitted (the prefix is not counted per record).
  const texts = all.map((d) => gunzipSync(readFileSync(d.localPath!)).toString('utf8'));
  const longest = Math.max(...texts.flatMap((x) => x.slice(header.length).split('~').map((r) => Buffer.byteLength(r))));
  const roomy = sizes.filter((s) => s + 1 + longest <= 2000);
  assert.ok(roomy.length <= 1, `objects of ${sizes.join(', ')} bytes: more than one had room for another record (${longest} bytes)`);
});

test('a job\'s filter on a unixnano time past 2^53 compares it exactly, as test-filter does on the delivered line\'s digits', () => {
  // 1764000000001000000 and ...0999999 are one double (the spacing is 256 there): compared as doubles, "gt ...0999999" was false.
  const iso = '2025-11-24T16:00:00.001Z';
  const nano = BigInt(Date.parse(iso)) * 1_000_000n;
  const run = (operator: string, value: bigint) => {
    const f = jobFilter({ filter: `{"where": {"key": "EdgeStartTimestamp", "operator": "${operator}", "value": ${value}}}` }, 'http_requests');
    assert.ok(f && typeof f !== 'string', String(f));
    return f.test({ EdgeStartTimestamp: iso });
  };
  assert.deepEqual([run('gt', nano - 1n), run('lt', nano + 1n), run('eq', nano + 1n), run('eq', nano), run('geq', nano + 1n)], [true, true, false, true, false]);
});

test('a unixnano timestamp is written as its exact integer, read back digit for digit (a double keeps one integer in 256 there)', () => {
  // The mock wrote Number(nanoseconds)'s shortest text: 1795478400123456789 became 1795478400123456800
  const ts = timestampFields('http_requests');
  assert.ok(ts.has('EdgeStartTimestamp'));
  const record = { RayID: 'r1', EdgeStartTimestamp: '2026-11-24T00:00:00.123456789Z', EdgeResponseStatus: 200 };
  const ndjson = outputSpec({ output_options: { field_names: ['RayID', 'EdgeStartTimestamp', 'EdgeResponseStatus'] } });
  assert.ok(typeof ndjson !== 'string');
  const line = renderRecord(project(record, ndjson, ts), ndjson);
  assert.equal(line, '{"RayID":"r1","EdgeStartTimestamp":1795478400123456789,"EdgeResponseStatus":200}\n');
  const back = parseExact(line) as Record<string, unknown>;
  assert.equal(back.EdgeStartTimestamp, 1795478400123456789n);
  assert.equal(back.EdgeResponseStatus, 200);
  // The feed's own millisecond times: the milliseconds and six zeros
  const ms = renderRecord(project({ ...record, EdgeStartTimestamp: '2026-11-24T00:00:00.001Z' }, ndjson, ts), ndjson);
  assert.equal((parseExact(ms) as Record<string, unknown>).EdgeStartTimestamp, 1795478400001000000n);
  assert.match(ms, /"EdgeStartTimestamp":1795478400001000000,/);
  // CSV writes the same digits
  const csv = outputSpec({ output_options: { output_type: 'csv', field_names: ['EdgeStartTimestamp', 'RayID'] } });
  assert.ok(typeof csv !== 'string');
  assert.equal(renderRecord(project(record, csv, ts), csv), '1795478400123456789,"r1"\n');
  // Before 1970 (a negative count) and exactly on a second
  assert.equal(formatTimestamp('1969-12-31T23:59:59.999999999Z', 'unixnano'), -1n);
  assert.equal(formatTimestamp('2026-11-24T00:00:00Z', 'unixnano'), 1795478400000000000n);
});

// "Deliver Logpush Batches Now" said "Logpush: 0 batch(es) delivered." and the next command, "Open Last Delivered Logpush Batch",
// "Create a job ..., then run Deliver Logpush Batches Now": the user who had just done that was left with no reason.
test('a flush that delivers nothing says why: no job collects traffic, the filters kept none, nothing new', async (t) => {
  const m = await mock(t);
  assert.match((await flush(m)).json.why, /^No Logpush job collects the mock's traffic: only enabled jobs of a zone with the dataset http_requests or firewall_events, and an account's firewall_events jobs, collect the mock's traffic/);
  await createJob(m, { destination_conf: 'gs://b/none', filter: JSON.stringify({ where: { key: 'ClientRequestMethod', operator: 'eq', value: 'NOPE' } }) });
  await step(m, 20);
  const filtered = (await flush(m)).json;
  assert.equal(filtered.delivered, 0);
  // One job: its filter, in the singular (ui3's walk: "The jobs' filters ... kept none" for the one job there was)
  assert.equal(filtered.why, 'The job\'s filter and sample rate kept none of the 20 new records since the last batch.');
  assert.match((await flush(m)).json.why, /^No new records since the last batch/);
  assert.match((await flush(m, { job: 999 })).json.why, /^Job 999 collects no traffic/);
});
