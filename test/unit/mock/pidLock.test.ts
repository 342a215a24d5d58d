// The lock file of mock/src/pidLock.js, shared by the mock's state lock (lock.ts; acquire.test.ts) and npm start's session lock
// (scripts/hostSession.js; test/unit/scripts/hostSession.test.ts): what both rely on that neither caller's tests show.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { acquireLock, processStamp } from '../../../mock/src/pidLock.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'edgekit-pidlock-'));

test('a lock is created whole with pid, stamp, token and the caller\'s fields; a second take in this process is refused with the first record', async () => {
  const d = dir();
  const file = path.join(d, 'x.lock');
  const got = await acquireLock<{ port: number; url?: string }>(file, { port: 1 });
  assert.ok('lock' in got);
  const onDisk = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(onDisk, got.lock.record);
  assert.equal(onDisk.pid, process.pid);
  assert.equal(onDisk.port, 1);
  assert.equal(onDisk.stamp, processStamp(process.pid));
  assert.match(String(onDisk.token), /^[0-9a-f]{16}$/);
  const again = await acquireLock(file, { port: 2 });
  assert.ok('holder' in again && again.holder.token === onDisk.token, 'this process holds it already');
  await got.lock.update({ url: 'http://127.0.0.1:1' });
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).url, 'http://127.0.0.1:1');
  got.lock.release();
  assert.deepEqual(readdirSync(d), [], 'released, and no temp file is left');
});

test('a lock left by an earlier process with this pid (not held here) is stale, and release leaves a lock that is not this take\'s', async () => {
  const d = dir();
  const file = path.join(d, 'x.lock');
  writeFileSync(file, JSON.stringify({ pid: process.pid, token: 'earlier' }));
  const got = await acquireLock(file, {});
  assert.ok('lock' in got && got.stale?.token === 'earlier');
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  writeFileSync(file, JSON.stringify({ pid: dead, token: 'another' }));
  got.lock.release();
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).token, 'another');
});

test('without hard links (FAT, some network shares) the lock is an exclusive create, and a lock that exists is not replaced', async (t) => {
  const d = dir();
  const link = t.mock.method(fsp, 'link', async () => { throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' }); });
  const file = path.join(d, 'y.lock');
  const got = await acquireLock(file, {});
  assert.ok('lock' in got);
  assert.ok(link.mock.callCount() >= 1, 'the hard link was tried first');
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).pid, process.pid);
  got.lock.release();
  // A live holder's lock (the parent process, no stamp: it cannot be told from another start) stays as it was.
  writeFileSync(file, JSON.stringify({ pid: process.ppid }));
  const refused = await acquireLock(file, {});
  assert.ok('holder' in refused && refused.holder.pid === process.ppid);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { pid: process.ppid });
  assert.deepEqual(readdirSync(d), ['y.lock'], 'no temp file is left');
});
