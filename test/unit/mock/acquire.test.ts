// A second window (or a reloaded one) asking for the mock's port: it uses the EdgeKit mock already serving it with the same
// credentials, and leaves a port held by anything else alone (its own mock starts on a free port, with a note saying why).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { acquireMockBackend, probeMock } from '../../../mock/src/acquire';
import { HEALTH_PATH, RESET_PATH } from '../../../mock/src/backend';
import { zoneId } from '../../../mock/src/zones';
import { CREDS, KEY, TOKEN, api, result, start } from './helpers';
import { withZombie } from '../support/zombie';

const portOf = (url: string) => Number(new URL(url).port);
const JOB = { name: 'j', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1', logpull_options: 'fields=ClientIP&timestamps=rfc3339' };

test('a second acquire on a port the first one serves shares that mock: same zones, same state, and close leaves it running', async () => {
  const first = await acquireMockBackend({ port: 0, credentials: CREDS });
  assert.equal(first.shared, false);
  try {
    const second = await acquireMockBackend({ port: portOf(first.backend.url), credentials: CREDS });
    assert.equal(second.shared, true);
    assert.equal(second.backend.url, first.backend.url);
    assert.match(second.note ?? '', /another window/);
    assert.equal(await result(second.backend.gatewayUrl, 'eth_chainId'), '0x1');
    const zone = zoneId('pro.example');
    const made = await api(first.backend.apiBaseUrl, 'POST', `/zones/${zone}/logpush/jobs`, KEY, JOB);
    assert.equal(made.status, 200, JSON.stringify(made.json));
    const seen = await api(second.backend.apiBaseUrl, 'GET', `/zones/${zone}/logpush/jobs`, KEY);
    assert.equal(seen.json.result.length, 1, 'the second window sees the job the first one created');
    await second.backend.reset();
    const after = await api(first.backend.apiBaseUrl, 'GET', `/zones/${zone}/logpush/jobs`, KEY);
    assert.equal(after.json.result.length, 0, 'a reset from the second window resets the one mock');
    await second.backend.close();
    assert.ok(await probeMock(first.backend.url), 'closing the shared handle does not stop the first window\'s mock');
  } finally {
    await first.backend.close();
  }
});

test('a port held by another program: the mock starts on a free port and the note names the port and the setting', async () => {
  const other = http.createServer((_req, res) => res.end('not edgekit'));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  const port = (other.address() as AddressInfo).port;
  try {
    const got = await acquireMockBackend({ port, credentials: CREDS });
    try {
      assert.equal(got.shared, false);
      assert.notEqual(portOf(got.backend.url), port);
      assert.match(got.note ?? '', new RegExp(`Port ${port} .*another program.*started on port ${portOf(got.backend.url)}.*edgekit\\.mock\\.port`));
      assert.equal(await result(got.backend.gatewayUrl, 'eth_chainId'), '0x1');
    } finally {
      await got.backend.close();
    }
  } finally {
    other.close();
  }
});

test('an EdgeKit mock with other credentials is not used: its data stays its own', async () => {
  const standalone = await start({ apiToken: 'someone-else', apiKey: 'k2', apiEmail: 'e2@example.com' });
  try {
    const got = await acquireMockBackend({ port: portOf(standalone.url), credentials: CREDS });
    try {
      assert.equal(got.shared, false);
      assert.notEqual(got.backend.url, standalone.url);
      assert.match(got.note ?? '', /another EdgeKit mock backend with other credentials/);
    } finally {
      await got.backend.close();
    }
  } finally {
    await standalone.close();
  }
});

test('the health route names the mock without credentials; the reset route and token verification need them', async () => {
  const m = await start();
  try {
    const h = await fetch(m.url + HEALTH_PATH);
    const body = await h.json() as { service: string; pid: number };
    assert.equal(h.status, 200);
    assert.equal(body.service, 'edgekit-mock');
    assert.equal(body.pid, process.pid);
    assert.equal((await fetch(m.url + RESET_PATH, { method: 'POST' })).status, 400);
    assert.equal((await fetch(m.url + RESET_PATH, { method: 'POST', headers: { authorization: 'Bearer wrong' } })).status, 403);
    assert.equal((await fetch(m.url + RESET_PATH, { method: 'POST', headers: TOKEN })).status, 200);
    const verify = await api(m.apiBaseUrl, 'GET', '/user/tokens/verify', TOKEN);
    assert.equal(verify.status, 200);
    assert.equal(verify.json.result.status, 'active');
    assert.equal((await api(m.apiBaseUrl, 'GET', '/user/tokens/verify', { authorization: 'Bearer nope' })).status, 401);
  } finally {
    await m.close();
  }
});

test('one mock per state file: a second mock on the same file is refused naming the holder, and a window shares the holder', async () => {
  // With edgekit.mock.port 0 (the default) every window starts its own mock, all on the one mock-state.json of the extension's
  // storage: each would overwrite the others' jobs and upload the others' spooled batches.
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-lock-'));
  const stateFile = path.join(dir, 'state.json');
  const first = await acquireMockBackend({ port: 0, stateFile, credentials: CREDS, traffic: { paused: true } });
  assert.equal(first.shared, false);
  try {
    const err = await start({ stateFile, traffic: { paused: true } }).then(async (m) => { await m.close(); return undefined; }, (e: Error) => e);
    assert.ok(err, 'a second mock on the same state file is refused');
    assert.ok(err.message.includes(`state file "${stateFile}" is in use`), err.message);
    assert.ok(err.message.includes(`process ${process.pid}`), err.message);
    assert.ok(err.message.includes(first.backend.url), err.message);
    const second = await acquireMockBackend({ port: 0, stateFile, credentials: CREDS, traffic: { paused: true } });
    assert.equal(second.shared, true);
    assert.equal(second.backend.url, first.backend.url);
    const zone = zoneId('pro.example');
    assert.equal((await api(second.backend.apiBaseUrl, 'POST', `/zones/${zone}/logpush/jobs`, KEY, JOB)).status, 200);
    assert.equal((await api(first.backend.apiBaseUrl, 'GET', `/zones/${zone}/logpush/jobs`, KEY)).json.result.length, 1);
    await second.backend.close();
  } finally {
    await first.backend.close();
  }
  // Closed, the file is free again; a lock left by a process that no longer exists (kill -9) is taken over.
  const again = await start({ stateFile, traffic: { paused: true } });
  assert.equal((await api(again.apiBaseUrl, 'GET', `/zones/${zoneId('pro.example')}/logpush/jobs`, KEY)).json.result.length, 1, 'the job was saved');
  await again.close();
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(`${stateFile}.lock`, JSON.stringify({ pid: dead, url: 'http://127.0.0.1:1' }));
  const afterCrash = await start({ stateFile, traffic: { paused: true } });
  await afterCrash.close();
  assert.equal(existsSync(`${stateFile}.lock`), false, 'close removes the lock');
});

test('edgekit mock: a port in use and a state file in a missing folder are refused with a message naming the port or the folder', async () => {
  const { runMockCli } = await import('../../../mock/src/main');
  const run = async (argv: string[]) => {
    let err = '';
    const code = await runMockCli(argv, { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env: {} });
    return { code, err };
  };
  const holder = http.createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
  const port = (holder.address() as AddressInfo).port;
  try {
    const busy = await run(['--port', String(port)]);
    assert.equal(busy.code, 1);
    assert.ok(busy.err.includes(`port ${port} on 127.0.0.1 is in use`), busy.err);
    assert.match(busy.err, /--port 0/);
  } finally {
    await new Promise((r) => holder.close(r));
  }
  const d = mkdtempSync(path.join(tmpdir(), 'edgekit-cli-'));
  const file = path.join(d, 'missing', 'state.json');
  const missing = await run(['--port', '0', '--state', file]);
  assert.equal(missing.code, 1);
  assert.ok(missing.err.includes(`"${file}"`) && missing.err.includes(`"${path.join(d, 'missing')}" does not exist`), missing.err);
  assert.doesNotMatch(missing.err, /\.tmp|\.lock/);
});

test('state lock: a stale lock another mock takes over between this one\'s read and its removal is not removed (two mocks on one state file)', async (t) => {
  const { lockState, StateInUse } = await import('../../../mock/src/lock');
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-lock-'));
  const lock = path.join(dir, 'mock-state.json.lock');
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  writeFileSync(lock, JSON.stringify({ pid: dead }));
  // Two windows start after a crash: both read the dead pid's lock; the other one removes it and takes the state file first.
  const fsp = (require('node:fs') as typeof import('node:fs')).promises;
  const realRead = fsp.readFile;
  let raced = false;
  t.mock.method(fsp, 'readFile', async (p: string, ...rest: unknown[]) => {
    const v = await (realRead as (...a: unknown[]) => Promise<unknown>)(p, ...rest);
    if (!raced && p === lock) { raced = true; writeFileSync(lock, JSON.stringify({ pid: process.ppid, url: 'http://127.0.0.1:9' })); }
    return v;
  });
  await assert.rejects(lockState(path.join(dir, 'mock-state.json')), (err: unknown) => err instanceof StateInUse && err.holder.pid === process.ppid);
  assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.ppid, 'the other mock\'s lock is still in place');
});

test('state lock: a lock naming a live pid of another process start (the pid was reused) or a zombie is stale and taken over; one of the running start is in use', async (t) => {
  // /proc tells one start of a pid from another (boot id and start time); the lock records it, as npm start's session lock does
  // (both are mock/src/pidLock.js). Only the pid was checked: a mock killed -9 whose pid a live process got since kept the state
  // file "in use" until the user deleted the lock by hand.
  const { lockState, StateInUse } = await import('../../../mock/src/lock');
  if (!existsSync(`/proc/${process.pid}/stat`)) { t.skip('no /proc'); return; }
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-lock-'));
  const stateFile = path.join(dir, 'mock-state.json');
  const lock = `${stateFile}.lock`;
  const stampOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  };
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)'], { stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  try {
    writeFileSync(lock, JSON.stringify({ pid: child.pid, stamp: 'another-boot:1', url: 'http://127.0.0.1:9' }));
    const taken = await lockState(stateFile);
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.pid, 'the reused pid\'s lock is taken over');
    await taken.release();
    writeFileSync(lock, JSON.stringify({ pid: child.pid, stamp: stampOf(child.pid!), url: 'http://127.0.0.1:9' }));
    await assert.rejects(lockState(stateFile), (err: unknown) => err instanceof StateInUse && err.holder.pid === child.pid && err.holder.url === 'http://127.0.0.1:9');
  } finally {
    await new Promise((r) => { child.once('exit', r); child.kill(); });
  }
  // Killed but not yet reaped by its parent: the pid exists, the process does not run (test/unit/support/zombie.ts).
  await withZombie(async (pid) => {
    writeFileSync(lock, JSON.stringify({ pid, stamp: stampOf(pid), url: 'http://127.0.0.1:9' }));
    const taken = await lockState(stateFile);
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, process.pid, 'the zombie\'s lock is taken over');
    await taken.release();
  });
});

// pt1: on Windows a console window closed (SIGHUP in Node) or Ctrl+Break (SIGBREAK) ended `edgekit mock` without its end: its state
// lock stayed, naming a pid Windows soon gives another process, and the next start found the state file "in use".
test('edgekit mock on Windows stops as on Ctrl+C when its console window is closed (SIGHUP) or on Ctrl+Break (SIGBREAK): the lock is released', async () => {
  const { runMockCli, stopSignals } = await import('../../../mock/src/main');
  assert.deepEqual(stopSignals('linux'), ['SIGINT', 'SIGTERM'], 'not SIGHUP: nohup edgekit mock & ignores it');
  assert.deepEqual(stopSignals('darwin'), ['SIGINT', 'SIGTERM']);
  for (const signal of ['SIGHUP', 'SIGBREAK'] as const) {
    const stateFile = path.join(mkdtempSync(path.join(tmpdir(), 'edgekit-cli-')), 'state.json');
    let out = '';
    let started!: () => void;
    const listening = new Promise<void>((r) => { started = r; });
    const before = process.listenerCount(signal);
    const done = runMockCli(['--port', '0', '--state', stateFile, '--traffic-paused'], {
      stdout: (s) => { out += s; if (s.includes('Press Ctrl+C to stop.')) started(); }, stderr: () => undefined,
    }, { platform: 'win32', env: {} });
    await listening;
    assert.equal(existsSync(`${stateFile}.lock`), true);
    process.emit(signal, signal);
    assert.equal(await done, 0);
    assert.match(out, /Mock backend stopped\./);
    assert.equal(existsSync(`${stateFile}.lock`), false, `${signal}: the lock is released`);
    assert.equal(process.listenerCount(signal), before, 'its listeners are removed');
  }
});
