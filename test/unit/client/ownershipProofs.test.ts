// Where and when each ownership challenge token was proven (client/src/ownershipProofs.ts): what makes a proven token not hold for
// a job (another zone or account, another destination_conf, older than the platform's 7 days), and what the store keeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHALLENGE_VALIDITY_MS, MAX_PROOFS, PROOFS_KEY, proofOf, proofProblems, rememberProof, shownDestination } from '../../../client/src/ownershipProofs';
import { memento } from './vscode';


const Z1 = { owner: { zone: 'z1' }, ownerName: 'a.example' };
const Z2 = { owner: { zone: 'z2' }, ownerName: 'b.example' };
const CONF = 's3://bucket/logs?region=us-east-1';
const T0 = Date.UTC(2026, 10, 18, 10, 0);

test('a token holds for the zone, the exact destination_conf and the 7 days it was proven for', async () => {
  const store = memento();
  await rememberProof(store, 'TOK', Z1, CONF, T0);
  const proof = proofOf(store, 'TOK')!;
  assert.ok(proof);
  assert.equal(proofOf(store, 'OTHER'), undefined, 'a token never proved here is unknown');
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
  const store = memento();
  const secret = 'azure://container/logs?sv=2022&sig=SECRETSIG';
  await rememberProof(store, 'eyJTOKEN', Z1, secret, T0);
  const kept = JSON.stringify(store.values.get(PROOFS_KEY));
  assert.ok(!kept.includes('eyJTOKEN') && !kept.includes('SECRETSIG'), kept);
  assert.ok(kept.includes('azure://container/logs'), 'the destination shown in messages is kept');
  await rememberProof(store, 'eyJTOKEN', Z2, CONF, T0 + 1);
  assert.deepEqual(proofProblems(proofOf(store, 'eyJTOKEN')!, Z2, CONF, T0 + 1), [], 'proved again: the newest counts');
  for (let i = 0; i < MAX_PROOFS + 5; i++) await rememberProof(store, `T${i}`, Z1, CONF, T0 + i);
  assert.equal((store.values.get(PROOFS_KEY) as unknown[]).length, MAX_PROOFS);
  assert.ok(proofOf(store, `T${MAX_PROOFS + 4}`));
  assert.equal(proofOf(store, 'T0'), undefined, 'the oldest went first');
  // A store holding something else (an older format, a hand edit) is read as empty, not thrown on.
  store.values.set(PROOFS_KEY, { not: 'a list' });
  assert.equal(proofOf(store, 'T1'), undefined);
  await rememberProof(store, 'T1', Z1, CONF, T0);
  assert.ok(proofOf(store, 'T1'));
});

test('a Sumo Logic destination\'s collector code (in its path, not its query) is neither kept nor shown', async () => {
  // sumo://<endpoint>/receiver/v1/http/<CODE>: the code is the HTTP source's credential (whoever has the URL can post to it).
  // Only the query was left out, so the code went into globalState and into every message that showed the destination.
  const store = memento();
  const conf = 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaV2SECRETCODE';
  await rememberProof(store, 'eyJTOKEN', Z1, conf, T0);
  const kept = JSON.stringify(store.values.get(PROOFS_KEY));
  assert.ok(!kept.includes('SECRETCODE'), kept);
  assert.equal(shownDestination(conf), 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/…');
  assert.equal(shownDestination(' s3://bucket/logs?region=us-east-1 '), 's3://bucket/logs');
  // Another collector code is told as such, not as other options after "?".
  const proof = proofOf(store, 'eyJTOKEN')!;
  assert.deepEqual(proofProblems(proof, Z1, conf, T0), []);
  const other = proofProblems(proof, Z1, conf.replace('SECRETCODE', 'OTHERCODE'), T0);
  assert.deepEqual(other, ['it was proven for sumo://endpoint1.collection.sumologic.com/receiver/v1/http/… with another collector code or other options, and the platform ties it to the whole destination_conf']);
  assert.ok(!other.join('').includes('CODE'));
});
