// Where the client knows a Logpush job document's job lives (client/src/jobScopes.ts), told to the language server as
// edgekit/setJobScope so that it checks the document as a job of that scope: each change once, and everything again to a server
// that (re)started, which knows nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobScopes } from '../../../client/src/jobScopes';
import type { SetJobScopeParams } from '../../../server/src/protocol';

const ZONE = { owner: { zone: 'z1' }, ownerName: 'a.example' };
const ACCOUNT = { owner: { account: 'a1' }, ownerName: 'First' };

test('each change of a document\'s scope is told once; forgetting it says null; a restarted server is told everything known', () => {
  const sent: SetJobScopeParams[] = [];
  const scopes = new JobScopes((p) => sent.push(p));
  scopes.set('untitled:a-5.logpush.json', ZONE);
  scopes.set('untitled:a-5.logpush.json', { owner: { zone: 'z2' }, ownerName: 'b.example' });
  assert.deepEqual(sent, [{ uri: 'untitled:a-5.logpush.json', scope: 'zone' }], 'another zone is the same scope: nothing to tell');
  scopes.set('file:///ws/fw.logpush.json', ACCOUNT);
  scopes.set('untitled:a-5.logpush.json', undefined);
  scopes.set('untitled:a-5.logpush.json', undefined);
  assert.deepEqual(sent.slice(1), [{ uri: 'file:///ws/fw.logpush.json', scope: 'account' }, { uri: 'untitled:a-5.logpush.json', scope: null }]);
  sent.length = 0;
  scopes.resend();
  assert.deepEqual(sent, [{ uri: 'file:///ws/fw.logpush.json', scope: 'account' }], 'only what is known');
});

test('a document whose "id" is edited to name another job no longer has the scope it was told (scope2\'s leftover)', () => {
  const sent: SetJobScopeParams[] = [];
  const scopes = new JobScopes((p) => sent.push(p));
  scopes.set('untitled:a-5.logpush.json', ZONE, 5);
  scopes.edited('untitled:a-5.logpush.json', '{"id": 5, "name": "x"}');
  scopes.edited('untitled:a-5.logpush.json', '{"id": 5, "name": "x", ');
  assert.deepEqual(sent, [{ uri: 'untitled:a-5.logpush.json', scope: 'zone' }], 'the same job, even half typed: nothing to tell');
  scopes.edited('untitled:a-5.logpush.json', '{"id": 6, "name": "x"}');
  assert.deepEqual(sent.slice(1), [{ uri: 'untitled:a-5.logpush.json', scope: null }]);
  scopes.resend();
  assert.equal(sent.length, 2, 'not told again while it names another job');
  // Undone: the document names its job again, and its scope holds again (as the place the client remembers does).
  scopes.edited('untitled:a-5.logpush.json', '{"id": 5, "name": "x"}');
  assert.deepEqual(sent.slice(2), [{ uri: 'untitled:a-5.logpush.json', scope: 'zone' }]);
  sent.splice(0);
  // A created job's document names no job ("id" absent): it keeps its scope while it names none.
  scopes.set('file:///ws/new.logpush.json', ACCOUNT, undefined);
  scopes.edited('file:///ws/new.logpush.json', '{"name": "y"}');
  scopes.edited('file:///ws/other.logpush.json', '{"id": 1}');
  assert.equal(sent.length, 1);
  scopes.edited('file:///ws/new.logpush.json', '{"id": 9, "name": "y"}');
  assert.deepEqual(sent.at(-1), { uri: 'file:///ws/new.logpush.json', scope: null });
});

test('the zone of a document\'s job, for the generated sample: a zone\'s job\'s name while the document names that job; none for an account\'s', () => {
  const scopes = new JobScopes(() => undefined);
  scopes.set('untitled:a-5.logpush.json', ZONE, 5);
  assert.equal(scopes.zoneOf('untitled:a-5.logpush.json'), 'a.example');
  scopes.edited('untitled:a-5.logpush.json', '{"id": 6}');
  assert.equal(scopes.zoneOf('untitled:a-5.logpush.json'), undefined, 'another job now');
  scopes.edited('untitled:a-5.logpush.json', '{"id": 5}');
  assert.equal(scopes.zoneOf('untitled:a-5.logpush.json'), 'a.example');
  scopes.set('untitled:a-5.logpush.json', ACCOUNT, 5);
  assert.equal(scopes.zoneOf('untitled:a-5.logpush.json'), undefined, 'an account\'s job');
  assert.equal(scopes.zoneOf('file:///ws/unknown.logpush.json'), undefined);
});
