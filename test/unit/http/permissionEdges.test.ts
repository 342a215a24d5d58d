// Edges of the permission a 403 names and of checkCredentials' words (client/src/http/api.ts) that the mutation sample mt6 found
// unpinned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCredentials, createApi } from '../../../client/src/http/api';
import { json, startServer } from './server';

test('a 403 listing accounts names no permission (the platform\'s docs name none for it), only that the credentials lack one', async () => {
  const server = await startServer((_req, res) => json(res, 403, { success: false, errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }], messages: [], result: null }));
  try {
    const r = await createApi({ baseUrl: server.url, token: 'api-token-for-tests', timeoutMs: 5000 }).listAccounts();
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.ok(r.error.endsWith(' The API token lacks permission for this operation.'), r.error);
  } finally {
    await server.close();
  }
});

test('an 8-character token echoed back is masked (the shortest masked), and what redact() knows is masked besides', async () => {
  const token = 'tok12345';
  const server = await startServer((_req, res) => json(res, 403, { success: false, messages: [], result: null,
    errors: [{ code: 10000, message: `Not accepted: raw ${token}; Authorization: Bearer other-token-0123456789` }] }));
  try {
    const checked = await checkCredentials({ baseUrl: `${server.url}/client/v4`, token, timeoutMs: 5000 });
    assert.equal(checked.ok, false);
    assert.match(checked.words, /Not accepted: raw \*\*\*; Authorization: Bearer \*\*\*/, checked.words);
    assert.doesNotMatch(checked.words, /tok12345|other-token/, checked.words);
  } finally {
    await server.close();
  }
});

test('an API key without its email is not checked (nothing is sent); the email said valid is the one typed, trimmed', async () => {
  const server = await startServer((_req, res) => json(res, 200, { success: true, errors: [], messages: [], result: [], result_info: { page: 1, total_pages: 1, total_count: 0 } }));
  try {
    const keyOnly = await checkCredentials({ baseUrl: `${server.url}/client/v4`, apiKey: 'key-0123456789', timeoutMs: 5000 });
    assert.deepEqual([keyOnly, server.received.length], [{ ok: true, words: '' }, 0]);
    const pair = await checkCredentials({ baseUrl: `${server.url}/client/v4`, apiKey: 'key-0123456789', apiEmail: ' me@example.com ', timeoutMs: 5000 });
    assert.deepEqual(pair, { ok: true, words: 'The API key and email are valid (me@example.com).' });
  } finally {
    await server.close();
  }
});

test('the token and the key pair unreached for different reasons: each said, not merged into one sentence', async () => {
  // The token's verification: the connection closed at once (twice: a GET is sent again on a new connection); the key pair's page:
  // never answered, so it times out.
  const server = await startServer((req, res) => { if (req.url.includes('/user/tokens/verify')) res.socket?.destroy(); });
  try {
    const checked = await checkCredentials({ baseUrl: `${server.url}/client/v4`, token: 'tok-0123456789', apiKey: 'key-0123456789', apiEmail: 'me@example.com', timeoutMs: 500 });
    assert.equal(checked.ok, false);
    // (ux3's cause-first words: "The API token could not be checked: …", which mt6 wrote against the words before them)
    assert.equal(checked.words.split('could not be checked').length, 3, checked.words);
    assert.match(checked.words, /^The API token could not be checked: .* The API key and email could not be checked: .*timed out/, checked.words);
  } finally {
    await server.close();
  }
});
