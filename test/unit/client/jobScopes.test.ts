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
