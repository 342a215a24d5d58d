// Security review: a destination_conf's path, whatever its escapes, stays a path below the local folder, and a malformed
// percent escape does not throw (it made POST …/logpush/ownership answer HTTP 500, and every batch cut of such a job fail).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { resolveDestination } from '../../../mock/src/delivery/destinations';

test('destinations: a malformed percent escape in the path is kept as written, not thrown', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const settings = { dir, maxLocalBytes: 1 << 20 };
    for (const conf of ['s3://bucket/%zz/logs?region=us-east-1', 'gs://bucket/a%/b', 'r2://bucket/%E0%A4%A/x?account-id=a']) {
      const dest = resolveDestination(conf, settings);
      assert.equal(dest.kind, 'local', conf);
      const { localPath } = await dest.put(`${dest.pathPrefix}/o.txt`, Buffer.from('x'), { gzip: false });
      assert.ok(localPath && localPath.startsWith(dir + path.sep), `${conf} -> ${localPath}`);
    }
    assert.equal(resolveDestination('s3://bucket/%zz/logs?region=us-east-1', settings).pathPrefix, '%zz/logs');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('destinations: ../ in any spelling stays below the local folder', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const settings = { dir, maxLocalBytes: 1 << 20 };
    for (const conf of ['s3://bucket/a/%2e%2e/%2e%2e/%2e%2e/x?region=us-east-1', 's3://bucket/..%2f..%2f..%2fescape?region=us-east-1', 'gs://b/%2F..%2F..%2F..%2Fout', 'file:///../../etc']) {
      const dest = resolveDestination(conf, settings);
      const { localPath } = await dest.put(`${dest.pathPrefix}/o.txt`, Buffer.from('x'), { gzip: false });
      assert.ok(localPath && path.resolve(localPath).startsWith(dir + path.sep), `${conf} -> ${localPath}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a destination is named without the user name and password of its URL (error messages, the delivery list)', async () => {
  // sec4: the label cut the query only, so https://user:pass@127.0.0.1/… went whole into a failed upload's error_message (the
  // Zones view shows it) and the log.
  const { destinationLabel } = await import('../../../mock/src/delivery/destinations');
  assert.equal(destinationLabel('https://me:PASSWORD1@127.0.0.1:9/in?header_X=1'), 'https://127.0.0.1:9/in');
  assert.equal(destinationLabel('https://token@127.0.0.1:9/in'), 'https://127.0.0.1:9/in');
  assert.equal(destinationLabel('s3://bucket/a@b?region=us-east-1'), 's3://bucket/a@b');
  // rv28: a password with an "@" as written kept what followed the first one; a Sumo Logic collector code (the HTTP source's
  // credential, in the path) was shown whole in the ownership refusals the client shows, though the client hid it elsewhere.
  assert.equal(destinationLabel('https://me:pa@ss@127.0.0.1:9/in'), 'https://127.0.0.1:9/in');
  assert.equal(destinationLabel('sumo://endpoint1.collection.sumologic.com/receiver/v1/http/SECRETCODE'), 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/…');
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const d = resolveDestination('gs://me:PASSWORD1@bucket/logs', { dir, maxLocalBytes: 1 << 20 } as never);
    assert.ok(!d.label.includes('PASSWORD1'), d.label);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Sumo Logic destination keeps its collector code out of the local folder: a digest in its place, one per collector', async () => {
  // sec5: the local delivery put the objects under the destination's path, so the object key, the folder, the delivery list and
  // the Zones view's tooltip held the code (the HTTP source's credential).
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const settings = { dir, maxLocalBytes: 1 << 20 };
    const a = resolveDestination('sumo://endpoint1.collection.sumologic.com/receiver/v1/http/SECRETCODE1', settings);
    const b = resolveDestination('sumo://endpoint1.collection.sumologic.com/receiver/v1/http/SECRETCODE2', settings);
    assert.equal(a.kind, 'local');
    assert.match(a.pathPrefix, /^receiver\/v1\/http\/code-[0-9a-f]{12}$/);
    assert.notEqual(a.pathPrefix, b.pathPrefix, 'two collectors, two folders');
    assert.equal(resolveDestination('sumo://endpoint1.collection.sumologic.com/receiver/v1/http/SECRETCODE1', settings).pathPrefix, a.pathPrefix, 'stable');
    const odd = resolveDestination('sumo://endpoint1.collection.sumologic.com/SECRETCODE3/x', settings);
    assert.match(odd.pathPrefix, /^code-[0-9a-f]{12}$/, 'a path of another shape is replaced whole');
    const { localPath } = await a.put(`${a.pathPrefix}/o.log.gz`, Buffer.from('x'), { gzip: true });
    assert.ok(localPath && localPath.startsWith(dir + path.sep) && !localPath.includes('SECRETCODE'), localPath);
    assert.ok(!a.label.includes('SECRETCODE'), a.label);
    assert.equal(resolveDestination('gs://bucket/receiver/v1/http/kept', settings).pathPrefix, 'receiver/v1/http/kept', 'other schemes keep their path');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// pt1: the local folder's files were named by path.join of the key's parts, which on Windows reads a "\" in a part as a separator
// (s3://bucket/..%5C..%5Cout: "..\..\out" left the folder, as "../" could not), a ":" as a stream of the file before it
// (s3://bucket/logs:v2 wrote into a stream of "logs"), drops a trailing dot, and refuses the device names (CON, NUL).
test('a local destination names its files as Windows can hold them, below the folder (path.win32)', async () => {
  const { localObjectPath, windowsName } = await import('../../../mock/src/delivery/destinations');
  const root = 'C:\\Users\\me\\AppData\\Local\\Temp\\edgekit-mock-logpush\\s3\\bucket';
  const at = (key: string) => localObjectPath(root, key, path.win32);
  assert.equal(at('logs/20261128/a_b_c.log.gz'), `${root}\\logs\\20261128\\a_b_c.log.gz`);
  for (const key of ['..\\..\\..\\out/x.log.gz', 'a/..\\..\\..\\..\\x', '../../x', 'C:\\x', '\\\\server\\share\\x', '/x']) {
    const file = at(key);
    assert.ok(file.startsWith(root + '\\') && path.win32.relative(root, file).split('\\')[0] !== '..', `${key} -> ${file}`);
  }
  assert.equal(at('..\\..\\out/x'), `${root}\\..%5C..%5Cout\\x`);
  assert.equal(at('logs:v2/x'), `${root}\\logs%3Av2\\x`);
  assert.equal(at('a<b>c"d|e?f*g/x'), `${root}\\a%3Cb%3Ec%22d%7Ce%3Ff%2Ag\\x`);
  assert.equal(at('logs./x'), `${root}\\logs%2E\\x`, 'a trailing dot is kept (Windows drops it: logs. and logs were one folder)');
  assert.equal(at('logs /x'), `${root}\\logs%20\\x`);
  assert.equal(at('con/nul.txt/Com1.log.gz/lpt9/console'), `${root}\\%63on\\%6Eul.txt\\%43om1.log.gz\\%6Cpt9\\console`);
  assert.equal(at('100%/x'), `${root}\\100%25\\x`, '"%" escaped too: "100%3A" and "100:" are two names');
  assert.equal(at('tab\there'), `${root}\\tab%09here`);
  // Each name reads back as the key's part.
  for (const part of ['logs:v2', 'con', 'a.', '100%', 'a\\b', 'x y ']) assert.equal(decodeURIComponent(windowsName(part)), part);
  // POSIX paths keep the key's parts as they are (only empty, "." and ".." dropped).
  assert.equal(localObjectPath('/tmp/d', 'logs:v2/con/a./x', path.posix), '/tmp/d/logs:v2/con/a./x');
  assert.equal(localObjectPath('/tmp/d', '../a/./b//c', path.posix), '/tmp/d/a/b/c');
});

test('a local destination\'s folder is named as Windows can hold it: the bucket "con"', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const dest = resolveDestination('gs://con/logs', { dir, maxLocalBytes: 1 << 20 });
    const { localPath } = await dest.put('logs/x.log.gz', Buffer.from('x'), { gzip: true });
    const expected = process.platform === 'win32' ? path.join(dir, 'gs', '%63on', 'logs', 'x.log.gz') : path.join(dir, 'gs', 'con', 'logs', 'x.log.gz');
    assert.equal(localPath, expected);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// mt6: a destination whose host is ".." (s3://../x parses so) made its folder the local folder itself, beside the schemes' folders;
// the host goes through localObjectPath as the key's parts do.
test('destinations: a host named ".." stays in its scheme\'s folder', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-dest-'));
  try {
    const dest = resolveDestination('https://../logs', { dir, maxLocalBytes: 1 << 20 });
    const { localPath } = await dest.put(`${dest.pathPrefix}/o.txt`, Buffer.from('x'), { gzip: false });
    assert.ok(localPath && path.resolve(localPath).startsWith(path.join(dir, 'https') + path.sep), localPath);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
