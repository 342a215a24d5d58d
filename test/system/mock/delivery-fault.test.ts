// No Logpush batch lost or duplicated across a kill -9: the real mock process (mock/src/bin.ts through tsx) with --state delivers to
// an https endpoint on loopback; the endpoint holds the second batch's upload and the test kills the mock with SIGKILL while it waits;
// the mock restarted on the same state uploads the spooled batch again under the same object name, and the union of the delivered
// objects holds every record exactly once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { zoneId } from '../../../mock/src/zones';
import type { DeliveryRecord } from '../../../mock/src/delivery/delivery';
import { CREDS, KEY, TOKEN, api } from '../../unit/mock/helpers';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'mock/src/bin.ts');
const ZONE = zoneId('enterprise.example');
const ENV = { EDGEKIT_MOCK_API_TOKEN: CREDS.apiToken, EDGEKIT_MOCK_API_KEY: CREDS.apiKey, EDGEKIT_MOCK_API_EMAIL: CREDS.apiEmail };

async function launch(state: string): Promise<{ child: ChildProcess; url: string; apiBase: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, '--port', '0', '--state', state, '--traffic-paused'], {
    cwd: ROOT, env: { ...process.env, ...ENV }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const apiBase = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock did not start in time; stdout: ${out}; stderr: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const a = /^API base: (\S+)$/m.exec(out);
      if (a && /^Press Ctrl\+C/m.test(out)) {
        clearTimeout(timer);
        resolve(a[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited with ${code}; stderr: ${err}`));
    });
  });
  return { child, apiBase, url: new URL(apiBase).origin };
}

test('kill -9 during an upload: after a restart with the same --state every record is delivered exactly once', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-delivery-fault-'));
  const state = path.join(dir, 'state.json');
  // The endpoint: answers 200, except that it holds (never answers) the upload `hold` names, and tells the test it arrived.
  const received: { object: string; body: Buffer }[] = [];
  let hold: number | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ object: String(req.headers['x-edgekit-object']), body: Buffer.concat(chunks) });
      server.emit('received', received.length);
      if (received.length === hold) return; // held: the mock waits for an answer that never comes
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => { server.closeAllConnections(); server.close(); });
  const port = (server.address() as AddressInfo).port;

  let run = await launch(state);
  t.after(() => { if (run.child.exitCode === null) run.child.kill('SIGKILL'); });
  const jobs = `/zones/${ZONE}/logpush/jobs`;
  const job = (await api(run.apiBase, 'POST', jobs, KEY, { enabled: true, destination_conf: `https://127.0.0.1:${port}/ingest`, logpull_options: 'fields=RayID,ClientRequestPath' })).json.result;

  // Batch 1: delivered normally.
  await api(run.url, 'POST', '/__edgekit/traffic/step', TOKEN, { zone: ZONE, count: 50 });
  assert.deepEqual((await api(run.url, 'POST', '/__edgekit/logpush/flush', TOKEN, {})).json, { delivered: 1, failed: 0 });

  // Batch 2: cut and spooled, then the mock dies while its upload waits for the endpoint's answer.
  await api(run.url, 'POST', '/__edgekit/traffic/step', TOKEN, { zone: ZONE, count: 60 });
  hold = 2;
  const arrived = once(server, 'received');
  const flushing = fetch(`${run.url}/__edgekit/logpush/flush`, { method: 'POST', headers: { ...TOKEN, 'content-type': 'application/json' }, body: '{}' }).catch(() => 'killed');
  await arrived;
  const exited = once(run.child, 'exit');
  run.child.kill('SIGKILL');
  await exited;
  assert.equal(await flushing, 'killed');
  const spooled = readdirSync(`${state}.spool`).filter((n) => n.endsWith('.json') && n !== 'deliveries.json');
  assert.equal(spooled.length, 1, 'the second batch is in the spool');

  // The restarted mock uploads the spooled batch again by itself, under the same object name.
  const again = once(server, 'received');
  run = await launch(state);
  await again;
  const deadline = Date.now() + 10_000;
  let list: DeliveryRecord[] = [];
  for (;;) {
    list = (await api(run.url, 'GET', `/__edgekit/logpush/deliveries?job=${job.id}`, TOKEN)).json;
    if (list.length === 2 && list.every((d) => d.status === 'delivered')) break;
    assert.ok(Date.now() < deadline, `both batches delivered after the restart: ${JSON.stringify(list)}`);
    await new Promise((r) => setImmediate(r));
  }
  assert.equal(received.length, 3, 'batch 1 once, batch 2 twice (the interrupted upload and its retry)');
  assert.equal(received[1].object, received[2].object, 'the retry has the same object name: it overwrites, it does not duplicate');
  assert.notEqual(received[0].object, received[1].object);
  assert.deepEqual(new Set(list.map((d) => d.object)), new Set([received[0].object, received[1].object]));

  // The union of the delivered objects (by name, as a bucket keeps them): every record exactly once.
  const objects = new Map(received.map((r) => [r.object, r.body]));
  const rays = [...objects.values()].flatMap((b) => gunzipSync(b).toString('utf8').split('\n').filter(Boolean).map((l) => String((JSON.parse(l) as { RayID: string }).RayID)));
  assert.equal(rays.length, 110);
  assert.equal(new Set(rays).size, 110);
  const j = (await api(run.apiBase, 'GET', `${jobs}/${job.id}`, KEY)).json.result;
  assert.ok(j.last_complete);
  assert.equal(j.error_message, null);
  // The batch leaves the spool just after its delivery record is saved (no event for that: polled, with a deadline).
  while (readdirSync(`${state}.spool`).some((n) => n.endsWith('.gz'))) {
    assert.ok(Date.now() < deadline, 'the spool is empty once delivered');
    await new Promise((r) => setImmediate(r));
  }
  assert.ok(existsSync(state));

  const exited2 = once(run.child, 'exit');
  run.child.kill('SIGTERM');
  assert.equal((await exited2)[0], 0);
});
