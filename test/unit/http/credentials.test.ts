// Credentials checked when entered (checkCredentials: the token's verification, the key pair's small zone page) and the permission a
// 403 names (docs/architecture.md, "Credentials checked when entered; the permission a 403 lacks").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCredentials, createApi } from '../../../client/src/http/api';
import { startMockBackend } from '../../../mock/src/backend';
import { json, startServer } from './server';

test('checkCredentials against the mock: a valid token and key pair, a wrong token, a wrong key pair, the mock stopped', async () => {
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  const { apiToken, apiKey, apiEmail } = mock.credentials;
  const base = { baseUrl: mock.apiBaseUrl, timeoutMs: 5000 };
  try {
    assert.deepEqual(await checkCredentials({ ...base, token: apiToken, apiKey, apiEmail }),
      { ok: true, words: `The API token is valid (active, with no expiry date). The API key and email are valid (${apiEmail}).` });
    assert.deepEqual(await checkCredentials({ ...base, token: 'not-the-token' }), { ok: false,
      words: `The API token was refused by ${mock.apiBaseUrl}: HTTP 401 Unauthorized: the credentials are missing or invalid. The API says: [1000] Invalid API Token.` });
    const wrongPair = await checkCredentials({ ...base, apiKey: 'not-the-key', apiEmail });
    assert.equal(wrongPair.ok, false);
    assert.match(wrongPair.words, /^The API key and email were refused by http:\/\/127\.0\.0\.1:\d+\/client\/v4: HTTP 403 .*\[9103\] Unknown X-Auth-Key or X-Auth-Email\.$/);
    // A refused credential is no missing permission: no permission is named.
    assert.doesNotMatch(wrongPair.words, /permission/);
    // One refused, one valid: both said, not ok.
    const mixed = await checkCredentials({ ...base, token: 'not-the-token', apiKey, apiEmail });
    assert.equal(mixed.ok, false);
    assert.match(mixed.words, /^The API token was refused .* The API key and email are valid/);
  } finally {
    await mock.close();
  }
  const gone = await checkCredentials({ ...base, token: apiToken });
  assert.equal(gone.ok, false);
  // ux3: the cause first ("<address> could not be reached to check the API token: GET <address>/… failed: …" before).
  // (Refused, or a kept-alive connection closed: which one is the socket's timing.)
  assert.match(gone.words, /^The API token could not be checked: (connection refused|the server closed the connection)\b.*\.$/);
  // The address is not put before the cause (the flow's title names it); lf22's sentence on a refused loopback port names it after.
  assert.doesNotMatch(gone.words, /GET /);
  // Both given and neither reached for the one reason: said once, naming both (rv45: the reason, and request.ts's advice with it
  // on a remote address, were said twice in a row).
  const bothGone = await checkCredentials({ ...base, token: apiToken, apiKey, apiEmail });
  assert.equal(bothGone.ok, false);
  // rv47: "Neither … nor …" ("The API token and the API key and email could not be checked" read as three things or two).
  assert.match(bothGone.words, /^Neither the API token nor the API key and email could be checked: connection refused\b/, bothGone.words);
  assert.equal(bothGone.words.split('could be checked').length, 2, bothGone.words);
  assert.equal(bothGone.words.split('ECONNREFUSED').length, 2, bothGone.words);
  assert.deepEqual([gone.unreached, bothGone.unreached], [true, true]);
});

test('checkCredentials says an unanswered check timed out, the cause first (ux3)', async () => {
  // The server holds the request; the check's own timeout ends it (no timing asserted: the words are).
  const server = await startServer(() => {});
  try {
    const checked = await checkCredentials({ baseUrl: `${server.url}/client/v4`, token: 'tok-0123456789', timeoutMs: 200 });
    // unreached (rv47): no answer came, so nothing is known of the token itself.
    assert.deepEqual(checked, { ok: false, words: 'The API token could not be checked: the request timed out after 200 ms.', unreached: true });
  } finally {
    await server.close();
  }
});

test('checkCredentials with one credential unreached and the other refused says each, in its own words (rv47)', async () => {
  // The token's check is held (its own timeout ends it); the key pair's is answered 403.
  const server = await startServer((req, res) => { if (!req.url?.includes('/user/tokens/verify')) json(res, 403, { success: false, errors: [{ code: 9103, message: 'Unknown X-Auth-Key or X-Auth-Email' }], messages: [], result: null }); });
  try {
    const baseUrl = `${server.url}/client/v4`;
    const checked = await checkCredentials({ baseUrl, token: 'tok-0123456789', apiKey: 'key-0123456789', apiEmail: 'a@example.com', timeoutMs: 200 });
    assert.equal(checked.ok, false);
    assert.equal(checked.unreached, undefined, 'one was answered: refused');
    assert.match(checked.words, new RegExp(`^The API token could not be checked: the request timed out after 200 ms\\. The API key and email were refused by ${baseUrl.replace(/[.]/g, '\\.')}: HTTP 403 .*\\[9103\\] Unknown X-Auth-Key or X-Auth-Email\\.$`));
  } finally {
    await server.close();
  }
});

test('checkCredentials says a token expired, disabled, not valid yet, or valid until its expiry date', async () => {
  let result: Record<string, unknown> = {};
  const server = await startServer((_req, res) => json(res, 200, { success: true, errors: [], messages: [], result }));
  const check = () => checkCredentials({ baseUrl: `${server.url}/client/v4`, token: 't', timeoutMs: 5000 }, undefined, new Date('2026-11-28T00:00:00Z'));
  try {
    result = { id: 'a', status: 'active', expires_on: '2027-01-01T00:00:00Z' };
    assert.deepEqual(await check(), { ok: true, words: 'The API token is valid (active, expires 2027-01-01T00:00:00Z).' });
    result = { id: 'a', status: 'expired', expires_on: '2026-10-01T00:00:00Z' };
    assert.deepEqual(await check(), { ok: false, words: 'The API token has expired (2026-10-01T00:00:00Z).' });
    result = { id: 'a', status: 'disabled' };
    assert.deepEqual(await check(), { ok: false, words: 'The API token is disabled (its owner can enable it again where it was created).' });
    result = { id: 'a', status: 'active', not_before: '2026-12-01T00:00:00Z' };
    assert.deepEqual(await check(), { ok: false, words: 'The API token is not valid yet: not before 2026-12-01T00:00:00Z.' });
    assert.equal(server.received[0].url, '/client/v4/user/tokens/verify');
    assert.equal(server.received[0].headers.authorization, 'Bearer t');
  } finally {
    await server.close();
  }
});

test('a 403 names the permission the operation needs, in the platform\'s names, where its docs name one', async () => {
  const refused = { success: false, errors: [{ code: 10000, message: 'Authentication error' }], messages: [], result: null };
  const server = await startServer((_req, res) => json(res, 403, refused));
  const base = { baseUrl: `${server.url}/client/v4`, timeoutMs: 5000 };
  const token = createApi({ ...base, token: 't' });
  const pair = createApi({ ...base, apiKey: 'k', apiEmail: 'me@example.com' });
  const error = async (r: Promise<{ ok: boolean; error?: string }>) => { const res = await r; assert.equal(res.ok, false); return (res as { error: string }).error; };
  try {
    const logs = ' The API token needs the permission "Logs Write" for this.';
    assert.ok((await error(token.createLogpushJob('z', { dataset: 'http_requests' }))).endsWith(logs));
    assert.ok((await error(token.updateLogpushJob({ zone: 'z' }, 1, { enabled: false }))).endsWith(logs));
    assert.ok((await error(token.deleteLogpushJob({ account: 'a' }, 1))).endsWith(logs));
    assert.ok((await error(pair.createLogpushJob('z', {}))).endsWith(' The API key acts as its user, whose role does not allow this: it takes Super Administrator, '
      + 'Administrator or Log Share (Log Share edit) (an API token needs "Logs Write").'));
    assert.ok((await error(token.listZones())).endsWith(' The API token needs the permission "Zone Read" for this.'));
    assert.ok((await error(token.updateEntrypoint('z', 'pending', { name: 'n', rules: [] }))).endsWith(' The API token needs the permission "Zone WAF Write" for this.'));
    // The migration's own operations: the docs name no permission, so none is guessed.
    for (const r of [token.check('z'), token.config('z'), token.status('z')]) assert.ok((await error(r)).endsWith(' The API token lacks permission for this operation.'));
    assert.ok((await error(pair.check('z'))).endsWith(' The API key and email lack permission for this operation.'));
  } finally {
    await server.close();
  }
});

test('a 403 of credentials that are not valid at all names no permission (the mock\'s refusal of a wrong token)', async () => {
  const mock = await startMockBackend({ port: 0, rateLimit: false });
  try {
    const res = await createApi({ baseUrl: mock.apiBaseUrl, token: 'not-the-token', timeoutMs: 5000 }).createLogpushJob('z', {});
    assert.equal(res.ok, false);
    assert.match((res as { error: string }).error, /\[9109\] Invalid access token\.$/);
  } finally {
    await mock.close();
  }
});

test('a 403 with 9109 "Unauthorized to access requested resource" (a valid token lacking the permission) names the permission (rv44)', async () => {
  // The platform answers a valid token without the operation's permission this way; only "Invalid access token" (9109 too) is a
  // token refused outright.
  const server = await startServer((_req, res) => json(res, 403, { success: false, errors: [{ code: 9109, message: 'Unauthorized to access requested resource' }], messages: [], result: null }));
  try {
    const res = await createApi({ baseUrl: `${server.url}/client/v4`, token: 't', timeoutMs: 5000 }).listZones();
    assert.equal(res.ok, false);
    assert.ok((res as { error: string }).error.endsWith('[9109] Unauthorized to access requested resource. The API token needs the permission "Zone Read" for this.'), (res as { error: string }).error);
  } finally {
    await server.close();
  }
});

test('the check\'s words never quote the token or key typed, when the API echoes them back (rv44)', async () => {
  const token = 'tok-SECRET-0123456789abcdef';
  const key = 'key-SECRET-0123456789abcdef';
  // An address that answers with what it was sent (a typo'd or hostile one): the secrets in its error message.
  const server = await startServer((req, res) => json(res, 403, { success: false, messages: [], result: null,
    errors: [{ code: 10000, message: `Not accepted: ${String(req.headers.authorization)} / ${String(req.headers['x-auth-key'])} / raw ${token} ${key}` }] }));
  try {
    const checked = await checkCredentials({ baseUrl: `${server.url}/client/v4`, token, apiKey: key, apiEmail: 'me@example.com', timeoutMs: 5000 });
    assert.equal(checked.ok, false);
    assert.doesNotMatch(checked.words, /SECRET/, checked.words);
    assert.match(checked.words, /The API token was refused .*Not accepted: Bearer \*\*\*/);
  } finally {
    await server.close();
  }
});
