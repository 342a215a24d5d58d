// Where and when each ownership challenge token was proven (client/src/ownershipProofs.ts): what makes a proven token not hold for
// a job (another zone or account, another destination_conf, older than the platform's 7 days), and what the store keeps.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHALLENGE_VALIDITY_MS, MAX_PROOFS, PROOFS_KEY, proofOf, proofProblems, rememberProof, shownDestination, type ProofPlaces } from '../../../client/src/ownershipProofs';
import { memento, sharedGlobalStorage } from './vscode';

/** A window's proof places: a new folder (or `dir`, shared) and a globalState. */
function places(dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-proofs-')), legacy: ProofPlaces['legacy'] = memento()): ProofPlaces & { kept(): string } {
  return { dir, legacy, kept: () => fs.readdirSync(dir).map((n) => fs.readFileSync(path.join(dir, n), 'utf8')).join('\n') };
}


const Z1 = { owner: { zone: 'z1' }, ownerName: 'a.example' };
const Z2 = { owner: { zone: 'z2' }, ownerName: 'b.example' };
const CONF = 's3://bucket/logs?region=us-east-1';
const T0 = Date.UTC(2026, 10, 18, 10, 0);

test('a token holds for the zone, the exact destination_conf and the 7 days it was proven for', async () => {
  const store = places();
  await rememberProof(store, 'TOK', Z1, CONF, T0);
  const proof = (await proofOf(store, 'TOK'))!;
  assert.ok(proof);
  assert.equal(await proofOf(store, 'OTHER'), undefined, 'a token never proved here is unknown');
  assert.deepEqual(proofProblems(proof, Z1, CONF, T0 + CHALLENGE_VALIDITY_MS), []);
  assert.deepEqual(proofProblems(proof, Z2, CONF, T0), ['it was proven in zone a.example, and this job goes to zone b.example']);
  assert.deepEqual(proofProblems(proof, { owner: { zone: 'z9' }, ownerName: 'a.example' }, CONF, T0), ['it was proven in zone a.example (z1), and this job goes to zone a.example (z9)'],
    'the same name elsewhere (another backend) is told apart by id');
  assert.deepEqual(proofProblems(proof, { owner: { account: 'z1' }, ownerName: 'a.example' }, CONF, T0), ['it was proven in zone a.example (z1), and this job goes to account a.example (z1)']);
  assert.deepEqual(proofProblems(proof, Z1, 's3://bucket/other?region=us-east-1', T0), ['it was proven for s3://bucket/logs, and the document sends to s3://bucket/other']);
  assert.deepEqual(proofProblems(proof, Z1, 's3://bucket/logs?region=eu-west-1', T0),
    ['it was proven for s3://bucket/logs with other options (the part after "?"), and the platform ties it to the whole destination_conf']);
  assert.deepEqual(proofProblems(proof, Z2, 's3://x', T0 + 8.5 * 24 * 3600 * 1000), [
    'it was proven in zone a.example, and this job goes to zone b.example',
    'it was proven for s3://bucket/logs, and the document sends to s3://x',
    'it was asked for 8 days ago (2026-11-18 10:00 UTC), and the platform\'s tokens expire after 7 days',
  ]);
});

test('the store keeps hashes, not the token or the destination\'s credentials, the newest proof of a token, and at most MAX_PROOFS', async () => {
  const store = places();
  const secret = 'azure://container/logs?sv=2022&sig=SECRETSIG';
  await rememberProof(store, 'eyJTOKEN', Z1, secret, T0);
  const kept = store.kept();
  assert.ok(!kept.includes('eyJTOKEN') && !kept.includes('SECRETSIG'), kept);
  assert.ok(kept.includes('azure://container/logs'), 'the destination shown in messages is kept');
  await rememberProof(store, 'eyJTOKEN', Z2, CONF, T0 + 1);
  assert.deepEqual(proofProblems((await proofOf(store, 'eyJTOKEN'))!, Z2, CONF, T0 + 1), [], 'proved again: the newest counts');
  for (let i = 0; i < MAX_PROOFS + 5; i++) await rememberProof(store, `T${i}`, Z1, CONF, T0 + i);
  assert.equal(fs.readdirSync(store.dir).length, MAX_PROOFS, 'no temporary file left either');
  assert.ok(await proofOf(store, `T${MAX_PROOFS + 4}`));
  assert.equal(await proofOf(store, 'T0'), undefined, 'the oldest went first');
  // A file holding something else (a hand edit, a write cut short) is read as no proof, not thrown on.
  for (const n of fs.readdirSync(store.dir)) fs.writeFileSync(path.join(store.dir, n), '{"not": "a proof"');
  assert.equal(await proofOf(store, `T${MAX_PROOFS + 4}`), undefined);
  await rememberProof(store, 'T1', Z1, CONF, T0);
  assert.ok(await proofOf(store, 'T1'));
});

test('a Sumo Logic destination\'s collector code (in its path, not its query) is neither kept nor shown', async () => {
  // sumo://<endpoint>/receiver/v1/http/<CODE>: the code is the HTTP source's credential (whoever has the URL can post to it).
  // Only the query was left out, so the code went into globalState and into every message that showed the destination.
  const store = places();
  const conf = 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaV2SECRETCODE';
  await rememberProof(store, 'eyJTOKEN', Z1, conf, T0);
  const kept = store.kept();
  assert.ok(!kept.includes('SECRETCODE'), kept);
  assert.equal(shownDestination(conf), 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/…');
  assert.equal(shownDestination(' s3://bucket/logs?region=us-east-1 '), 's3://bucket/logs');
  // Another collector code is told as such, not as other options after "?".
  const proof = (await proofOf(store, 'eyJTOKEN'))!;
  assert.deepEqual(proofProblems(proof, Z1, conf, T0), []);
  const other = proofProblems(proof, Z1, conf.replace('SECRETCODE', 'OTHERCODE'), T0);
  assert.deepEqual(other, ['it was proven for sumo://endpoint1.collection.sumologic.com/receiver/v1/http/… with another collector code or other options, and the platform ties it to the whole destination_conf']);
  assert.ok(!other.join('').includes('CODE'));
});

test('a destination\'s user name and password (https://user:pass@host/) are neither kept nor shown', async () => {
  // sec4: only the query and a Sumo Logic code were left out, so a password in the URL's user info went into the proof files, the
  // Delete question and the ownership messages (none of which pass redact()).
  const store = places();
  const conf = 'gs://logpusher:PASSWORD1@bucket/logs';
  await rememberProof(store, 'eyJTOKEN', Z1, conf, T0);
  assert.ok(!store.kept().includes('PASSWORD1'), store.kept());
  assert.equal(shownDestination(conf), 'gs://bucket/logs');
  assert.equal(shownDestination('https://me:s3cret@logs.example.com:8443/in?header_X=1'), 'https://logs.example.com:8443/in');
  assert.equal(shownDestination('https://token@logs.example.com/in'), 'https://logs.example.com/in');
  // An "@" in the path is not user info.
  assert.equal(shownDestination('https://logs.example.com/in/a@b'), 'https://logs.example.com/in/a@b');
  // rv28: a password holding an "@" as written (the URL parser takes the last "@" before the host as the end of the user info)
  // kept what followed the first one; a percent-encoded one, and a fragment, go too.
  assert.equal(shownDestination('https://me:pa@ss@logs.example.com/in'), 'https://logs.example.com/in');
  assert.equal(shownDestination('https://me%40corp:p%3Ass@logs.example.com/in'), 'https://logs.example.com/in');
  assert.equal(shownDestination('https://logs.example.com/in#TOKEN1'), 'https://logs.example.com/in');
  assert.equal(shownDestination('https://logs.example.com/in/a@b?x=c@d'), 'https://logs.example.com/in/a@b');
});

test('two windows recording proofs at the same moment keep both, and each window finds both', async () => {
  // Each proof was one list under one globalState key: both windows read it, added theirs and wrote it back, and the last write
  // won; the lost token was then sent without the question about another zone or 7 days. One key per proof would not do either:
  // VS Code writes a window's whole globalState (sharedGlobalStorage), so the other window's new key is lost the same way.
  const storage = sharedGlobalStorage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-proofs-'));
  const a = places(dir, storage.window()), b = places(dir, storage.window());
  await Promise.all([rememberProof(a, 'TA', Z1, CONF, T0), rememberProof(b, 'TB', Z2, CONF, T0 + 1)]);
  for (const w of [a, b, places(dir, storage.window())]) {
    assert.equal((await proofOf(w, 'TA'))?.ownerName, 'a.example');
    assert.equal((await proofOf(w, 'TB'))?.ownerName, 'b.example');
  }
  // Many at once, from both windows.
  await Promise.all(Array.from({ length: 20 }, (_, i) => rememberProof(i % 2 ? a : b, `M${i}`, Z1, CONF, T0 + i)));
  for (let i = 0; i < 20; i++) assert.ok(await proofOf(a, `M${i}`), `M${i}`);
});

test('the proofs the single globalState key held are read, then moved into the folder by the next record, and removed from globalState', async () => {
  const storage = sharedGlobalStorage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-proofs-'));
  // Written by the previous version: its list, newest first.
  const before = places(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-proofs-')), storage.window());
  const old = memento();
  await rememberOld(old, ['OLD1', 'OLD2']);
  await before.legacy.update(PROOFS_KEY, old.values.get(PROOFS_KEY));
  const a = places(dir, storage.window()), b = places(dir, storage.window());
  assert.equal((await proofOf(a, 'OLD1'))?.askedAt, T0, 'read from globalState before anything is moved');
  // Both windows record (and so move the old list) at once; a proof of OLD2 recorded now is not replaced by the old one.
  await Promise.all([rememberProof(a, 'NEW', Z1, CONF, T0 + 10), rememberProof(b, 'OLD2', Z2, CONF, T0 + 20)]);
  assert.equal(storage.item()[PROOFS_KEY], undefined, 'the key is gone');
  assert.equal(a.legacy.get(PROOFS_KEY), undefined);
  const c = places(dir, storage.window());
  assert.equal((await proofOf(c, 'OLD1'))?.askedAt, T0);
  assert.equal((await proofOf(c, 'OLD2'))?.ownerName, 'b.example');
  assert.ok(await proofOf(c, 'NEW'));
});

/** What the previous version wrote under PROOFS_KEY for these tokens (zone a.example, CONF, asked at T0), newest first. */
async function rememberOld(store: ReturnType<typeof memento>, tokens: string[]): Promise<void> {
  const { createHash } = await import('node:crypto');
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest('base64url');
  await store.update(PROOFS_KEY, tokens.map((t) => ({ token: h(t), owner: Z1.owner, ownerName: Z1.ownerName, conf: h(CONF), destination: 's3://bucket/logs', askedAt: T0 })));
}

test('on a disk without hard links the old proofs are still moved, and a failed move keeps them in globalState and records the new proof', async () => {
  // The move links each old proof into place (an exclusive create that is whole at once). Some file systems refuse links (EPERM,
  // ENOTSUP): the move then creates the file exclusively instead. When that fails too, the record must not fail with it.
  const old = memento();
  await rememberOld(old, ['OLD1']);
  const noLinks = mock.method(fs.promises, 'link', async () => { throw Object.assign(new Error('operation not supported'), { code: 'ENOTSUP' }); });
  try {
    const a = places(undefined, old);
    await rememberProof(a, 'NEW', Z1, CONF, T0 + 1);
    assert.equal(old.get(PROOFS_KEY), undefined);
    assert.equal((await proofOf(a, 'OLD1'))?.askedAt, T0);
    assert.ok(await proofOf(a, 'NEW'));
    // A disk that is full as well: the move fails; the old list stays, and is still read, and the new proof is recorded.
    const write = fs.promises.writeFile;
    const full = mock.method(fs.promises, 'writeFile', async (...args: Parameters<typeof write>) => {
      if ((args[2] as { flag?: string } | undefined)?.flag === 'wx') throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      return write(...args);
    });
    try {
      const b = places(undefined, memento());
      await rememberOld(b.legacy as ReturnType<typeof memento>, ['OLD1']);
      await rememberProof(b, 'NEW', Z1, CONF, T0 + 1);
      assert.ok(await proofOf(b, 'NEW'));
      assert.ok(b.legacy.get(PROOFS_KEY), 'kept until it can be moved');
      assert.equal((await proofOf(b, 'OLD1'))?.askedAt, T0);
    } finally {
      full.mock.restore();
    }
  } finally {
    noLinks.mock.restore();
  }
});
