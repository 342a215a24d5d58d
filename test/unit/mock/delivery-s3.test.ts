// Logpush delivery to a real S3-compatible server (s3rver on 127.0.0.1, a free port): s3:// and r2:// objects arrive and are read
// back through S3 (ListObjectsV2, GetObject, signed by aws4fetch as any client would), the ownership file lands in the bucket, and
// a missing bucket is a failure the job reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AwsClient } from 'aws4fetch';
import { zoneId } from '../../../mock/src/zones';
import type { DeliveryRecord } from '../../../mock/src/delivery/delivery';
import { KEY, TOKEN, api, start } from './helpers';

interface S3rverLike { run(): Promise<{ port: number }>; close(): Promise<void> }
// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => S3rverLike;

const ZONE = zoneId('business.example');
const CREDS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

test('s3:// and r2:// deliver to an S3-compatible endpoint; the objects and the ownership file are there through S3', async () => {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(path.join(tmpdir(), 'edgekit-s3rver-')), configureBuckets: [{ name: 'logs', configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const s3 = new AwsClient({ ...CREDS, region: 'us-east-1', service: 's3' });
  const m = await start({ traffic: { paused: true }, delivery: { dir: mkdtempSync(path.join(tmpdir(), 'edgekit-s3-local-')), s3: { endpoint, ...CREDS }, retry: { firstMs: 60_000 } } });
  try {
    const jobs = `/zones/${ZONE}/logpush/jobs`;
    const s3Job = (await api(m.apiBaseUrl, 'POST', jobs, KEY, { enabled: true, destination_conf: 's3://logs/edge/{DATE}?region=us-east-1', logpull_options: 'fields=RayID,ClientIP' })).json.result;
    const r2Job = (await api(m.apiBaseUrl, 'POST', jobs, KEY, { enabled: true, destination_conf: `r2://logs/r2path?account-id=abc&access-key-id=${CREDS.accessKeyId}&secret-access-key=${CREDS.secretAccessKey}` })).json.result;
    const missing = (await api(m.apiBaseUrl, 'POST', jobs, KEY, { enabled: true, destination_conf: 's3://nobucket/x?region=us-east-1' })).json.result;
    await api(m.url, 'POST', '/__edgekit/traffic/step', TOKEN, { zone: ZONE, count: 30 });
    const done = (await api(m.url, 'POST', '/__edgekit/logpush/flush', TOKEN, {})).json;
    assert.deepEqual(done, { delivered: 2, failed: 1 });

    const list = await (await s3.fetch(`${endpoint}/logs?list-type=2`)).text();
    const keys = [...list.matchAll(/<Key>([^<]+)<\/Key>/g)].map((x) => x[1]).sort();
    const all: DeliveryRecord[] = (await api(m.url, 'GET', '/__edgekit/logpush/deliveries', TOKEN)).json;
    const s3d = all.find((d) => d.job === s3Job.id)!;
    const r2d = all.find((d) => d.job === r2Job.id)!;
    assert.deepEqual(keys, [r2d.object, s3d.object].sort());
    assert.match(s3d.object, /^edge\/\d{8}\/\d{8}T\d{6}Z_\d{8}T\d{6}Z_[0-9a-f]{8}\.log\.gz$/);
    assert.match(r2d.object, /^r2path\/\d{8}T\d{6}Z_/);
    assert.equal(s3d.localPath, undefined);
    assert.ok(!JSON.stringify(all).includes('secret-access-key'), 'no secrets in the delivery list');

    const obj = await s3.fetch(`${endpoint}/logs/${s3d.object}`);
    assert.equal(obj.status, 200);
    const text = gunzipSync(Buffer.from(await obj.arrayBuffer())).toString('utf8');
    const rows = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(rows.length, 30);
    assert.deepEqual(Object.keys(rows[0]), ['RayID', 'ClientIP']);
    assert.equal(new Set(rows.map((r) => r.RayID)).size, 30);
    const viaRoute = await (await fetch(`${m.url}/__edgekit/logpush/deliveries/${s3d.id}/lines`, { headers: TOKEN })).text();
    assert.equal(viaRoute, text);

    const failed = (await api(m.apiBaseUrl, 'GET', `${jobs}/${missing.id}`, KEY)).json.result;
    assert.ok(failed.last_error);
    assert.match(failed.error_message, /s3:\/\/nobucket\/x/);
    assert.match(failed.error_message, /HTTP 404 \(NoSuchBucket\)/);

    const own = (await api(m.apiBaseUrl, 'POST', `/zones/${ZONE}/logpush/ownership`, KEY, { destination_conf: 's3://logs/owned?region=us-east-1' })).json.result;
    const token = /the token is (\S+)\.$/.exec(own.message)![1];
    const file = await s3.fetch(`${endpoint}/logs/owned/${own.filename}`);
    assert.equal(file.status, 200);
    assert.equal(await file.text(), token);
  } finally {
    await m.close();
    await server.close();
  }
});
