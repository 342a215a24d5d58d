// The flows that ask several questions in a row (client/src/multiStep.ts): Set API Credentials…, Set Mock S3 Credentials… and Show
// Sent Requests… (its test is in commands.test.ts, beside the other history tests), as VS Code's multi-step pattern has them: a title and "step/total" on each step, Back (with the answer kept),
// Escape that ends the flow with nothing kept. The stand-in's createInputBox and createQuickPick fire VS Code's events.
import { fake, resetFake, BACK, typed, workspace } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Backend } from '../../../client/src/backend';
import { backendCommands } from '../../../client/src/commands/backend';
import type { Ctx } from '../../../client/src/ctx';
import { withMock } from './migrationCtx';
import { json, startServer } from '../http/server';

beforeEach(() => resetFake());

const PLATFORM = 'https://api.cloudflare.com/client/v4';

/** A Backend over a secret storage whose writes are recorded (the only place credentials may go). */
function backendWithSecrets(storeFails?: string, getFails?: string) {
  const secrets = new Map<string, string>();
  const writes: string[] = [];
  const context = {
    globalStorageUri: { fsPath: '/nonexistent' },
    secrets: { get: async (k: string) => { if (getFails) throw new Error(getFails); return secrets.get(k); }, store: async (k: string, v: string) => {
      // `storeFails`: the store refuses, as it does on Linux with no keyring to keep secrets in.
      if (storeFails) throw new Error(storeFails);
      writes.push(k); secrets.set(k, v);
    }, delete: async (k: string) => { writes.push(`-${k}`); secrets.delete(k); } },
  };
  const backend = new Backend(context as never, () => ({ ask: async () => undefined }));
  return { ctx: { backend } as unknown as Ctx, secrets, writes };
}

const steps = () => fake.inputBoxes.map((b) => `${b.step}/${b.totalSteps}`);

/** rv35: the flow's boxes are gone once it ends, answered or not: none left on screen, each disposed (the last one of an answered
 * flow stayed on screen without the flow's own dispose; one replaced by the next step is hidden by VS Code, and disposed by us). */
function allClosed(): void {
  assert.deepEqual(fake.quickInputs, [], 'no box left on screen');
  assert.ok(fake.madeQuickInputs.length && fake.madeQuickInputs.every((q) => q.disposed), 'every box disposed');
}

test('Set API Credentials… numbers its steps; the email step is counted once a key is entered; every step past the first has Back', () => withMock(async (mock) => {
  const { ctx, secrets } = backendWithSecrets();
  const { apiToken, apiKey, apiEmail } = mock.credentials;
  fake.inputBoxAnswers = [mock.apiBaseUrl, apiToken, apiKey, apiEmail];
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  // As the extension samples' multi-step input: the total counts the steps the answers so far lead to (a key adds the email).
  assert.deepEqual(steps(), ['1/3', '2/3', '3/3', '4/4']);
  assert.deepEqual(fake.inputBoxes.map((b) => b.buttons), [[], ['Back'], ['Back'], ['Back']]);
  assert.deepEqual(fake.inputBoxes.map((b) => b.password), [false, true, true, false]);
  assert.ok(fake.inputBoxes.every((b) => b.placeHolder), 'each box has a placeholder (an example of what it takes)');
  assert.deepEqual(JSON.parse(secrets.get('edgekit.api.credentials')!), { host: new URL(mock.apiBaseUrl).origin, apiToken, apiKey, apiEmail });
  assert.equal(fake.settings.get('api.baseUrl'), mock.apiBaseUrl);
  allClosed();
  // mt5: each box kept open while the user fetches a key from another window.
  assert.deepEqual(fake.inputBoxes.map((b) => b.ignoreFocusOut), [true, true, true, true]);
  // With the address set, it is not asked: three steps, or two with no key.
  resetFake();
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = [apiToken, ''];
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  assert.deepEqual(steps(), ['1/2', '2/2']);
}));

// mt5: the address kept before the refusals (its update moved above them) survived every test: a flow refused for want of a token
// or key would still have written "edgekit.api.baseUrl".
test('Set API Credentials… refused for want of a token or a key keeps no address either', async () => {
  const { ctx, writes } = backendWithSecrets();
  fake.inputBoxAnswers = ['https://api.example.com/client/v4', '', ''];
  await assert.rejects(backendCommands['edgekit.setApiCredentials'](ctx)(), /^Error: Nothing was saved: neither an API token nor an API key was entered\./);
  assert.deepEqual(writes, []);
  assert.deepEqual([...fake.settings.keys()], [], 'no setting written');
  // rv47: a token and key of spaces alone are none (the token was saved as "   ", unchecked, and said "saved").
  resetFake();
  fake.inputBoxAnswers = ['https://api.example.com/client/v4', '   ', ' \t'];
  await assert.rejects(backendCommands['edgekit.setApiCredentials'](ctx)(), /^Error: Nothing was saved: neither an API token nor an API key was entered\./);
  assert.deepEqual(writes, []);
  assert.equal(fake.quickPicks.length, 0, 'no check shown');
});

// lf21: the address was written before the credentials, and a secret storage that refused them left it set: the backend's address
// pointed at with the old credentials (another host's) or none, and the error was the store's own, with no word of the address.
test('Set API Credentials… whose credentials secret storage refuses puts the address back and says which step failed', () => withMock(async (mock) => {
  const { ctx, secrets } = backendWithSecrets('Cannot create an item in a locked collection');
  secrets.set('edgekit.api.credentials', JSON.stringify({ host: 'https://old.example', apiToken: 'old' }));
  fake.settings.set('api.other', 1);
  fake.inputBoxAnswers = [mock.apiBaseUrl, mock.credentials.apiToken, ''];
  await assert.rejects(backendCommands['edgekit.setApiCredentials'](ctx)(), (e: Error) => {
    assert.equal(e.message, 'Nothing was saved: storing the credentials in VS Code\'s secret storage failed (Cannot create an item in a locked '
      + 'collection), so "edgekit.api.baseUrl" was put back as it was. The credentials saved before (for https://old.example) are kept.');
    return true;
  });
  assert.equal(fake.settings.has('api.baseUrl'), false, 'the address is not left without its credentials');
  assert.equal(JSON.parse(secrets.get('edgekit.api.credentials')!).host, 'https://old.example');
  assert.deepEqual(fake.messages, [], 'nothing said "saved"');
  // With the address set before (not asked), there is nothing to put back: the failed step is said alone.
  resetFake();
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = [mock.credentials.apiToken, ''];
  await assert.rejects(backendCommands['edgekit.setApiCredentials'](backendWithSecrets('no keyring').ctx)(),
    /^Error: Nothing was saved: storing the credentials in VS Code's secret storage failed \(no keyring\)\. No credentials are saved\.$/);
  assert.equal(fake.settings.get('api.baseUrl'), mock.apiBaseUrl);
  // rv40: a store that cannot be read either (a locked keyring refuses both) said "No credentials are saved.", which it did not know.
  resetFake();
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = [mock.credentials.apiToken, ''];
  await assert.rejects(backendCommands['edgekit.setApiCredentials'](backendWithSecrets('locked', 'locked').ctx)(),
    /^Error: Nothing was saved: storing the credentials in VS Code's secret storage failed \(locked\)\. The credentials saved before \(if any\) are kept\.$/);
  // rv47: Save anyway on a failed check, then the store refuses: "Nothing was saved", and no "saved … as entered" warning after it.
  resetFake();
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = ['not-the-token', ''];
  fake.answerMessage = () => 'Save anyway';
  await assert.rejects(backendCommands['edgekit.setApiCredentials'](backendWithSecrets('no keyring').ctx)(),
    /^Error: Nothing was saved: storing the credentials in VS Code's secret storage failed \(no keyring\)\. No credentials are saved\.$/);
  assert.equal(modals().length, 1, 'the check\'s modal was asked');
  assert.equal(fake.messages.length, 1, 'the modal alone: nothing said "saved"');
}));

test('Set API Credentials…: Back returns to the step before with its answer shown again, and the last answers are the ones saved', () => withMock(async (mock) => {
  const { ctx, secrets } = backendWithSecrets();
  const other = mock.apiBaseUrl;
  const tok = mock.credentials.apiToken;
  fake.inputBoxAnswers = [other, 'tok-1', BACK, BACK, other, tok, 'k'.repeat(37), BACK, ''];
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  assert.deepEqual(fake.inputBoxes.map((b) => [b.title?.replace(/ for .*/, ''), b.value]), [
    ['Management API base URL ("edgekit.api.baseUrl")', PLATFORM],
    ['API token', ''],
    ['API key', ''],
    ['API token', 'tok-1'],
    ['Management API base URL ("edgekit.api.baseUrl")', other],
    ['API token', 'tok-1'],
    ['API key', ''],
    ['Account email', ''],
    ['API key', 'k'.repeat(37)],
  ]);
  assert.deepEqual(steps(), ['1/3', '2/3', '3/3', '2/3', '1/3', '2/3', '3/3', '4/4', '3/4']);
  // The key was emptied on coming back: the token alone is saved.
  assert.deepEqual(JSON.parse(secrets.get('edgekit.api.credentials')!), { host: new URL(other).origin, apiToken: tok });
  allClosed();
}));

test('Set API Credentials…: Escape at any step stores nothing, neither the credentials nor the address', async () => {
  const answers = [PLATFORM, 'tok-123456', 'k'.repeat(37), 'me@example.com'];
  for (let at = 0; at < answers.length; at++) {
    resetFake();
    const { ctx, writes } = backendWithSecrets();
    fake.inputBoxAnswers = [...answers.slice(0, at), undefined];
    await backendCommands['edgekit.setApiCredentials'](ctx)();
    assert.equal(fake.inputBoxes.length, at + 1);
    assert.deepEqual(writes, [], `nothing in secret storage after Escape at step ${at + 1}`);
    assert.deepEqual([...fake.settings.keys()], [], `no setting written after Escape at step ${at + 1}`);
    assert.deepEqual(fake.messages, []);
    allClosed();
  }
});

// acct1: the credentials were saved without a word on whether they work; the first sign of a wrong token was a 401 in a later command.
test('Set API Credentials… checks the credentials with the API before saving: valid ones are saved and said valid', () => withMock(async (mock) => {
  const { ctx, secrets } = backendWithSecrets();
  const { apiToken, apiKey, apiEmail } = mock.credentials;
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = [apiToken, apiKey, apiEmail];
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  const host = new URL(mock.apiBaseUrl).origin;
  // The check shows as the last step, busy while the API is asked; nothing is asked when it passes.
  assert.deepEqual(fake.quickPicks.map((p) => [p.title, p.busy, p.step, p.labels]), [[`Checking the credentials with ${host}`, true, 4, []]]);
  assert.deepEqual(JSON.parse(secrets.get('edgekit.api.credentials')!), { host, apiToken, apiKey, apiEmail });
  assert.deepEqual(fake.messages.map((m) => [m.kind, m.text]), [['info', `EdgeKit API credentials saved for ${host}. The API token is valid (active, with no expiry date). `
    + `The API key and email are valid (${apiEmail}). They are used once "edgekit.backend" is "remote"; the embedded mock is in use now.`]]);
  allClosed();
}));

/** Answers the modal that asks what to do with credentials that failed the check with `choice` (undefined: Cancel or Escape), once
 * each, in order; records what was on screen behind each (ux3: nothing, the busy pick closed first). */
function answerModals(...choices: (string | undefined)[]): { behind: number[] } {
  const behind: number[] = [];
  fake.answerMessage = () => { behind.push(fake.quickInputs.length); return choices.shift(); };
  return { behind };
}

/** The modal questions asked, as [message, detail, buttons]. */
const modals = () => fake.messages.filter((m) => m.modal).map((m) => [m.text, m.detail, m.items]);

// ux3: the reason was the placeholder of a quick pick, which VS Code cuts at the widget's width ("… could not be reached to check the
// API token: GET ap"): the user chose Re-enter or Save anyway without the cause. It is now a modal's detail, which wraps, whole.
test('Set API Credentials… with a wrong token says why in a modal warning, whole, and offers Re-enter (answers kept) or Save anyway; Cancel saves nothing', () => withMock(async (mock) => {
  const { ctx, secrets, writes } = backendWithSecrets();
  const host = new URL(mock.apiBaseUrl).origin;
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  // Re-enter: the token step again, showing what was typed; the right token then passes the check and is saved.
  fake.inputBoxAnswers = ['not-the-token', '', mock.credentials.apiToken, ''];
  const { behind } = answerModals('Re-enter');
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  const refused = `The API token was refused by ${mock.apiBaseUrl}: HTTP 401 Unauthorized: the credentials are missing or invalid. The API says: [1000] Invalid API Token.`;
  // Re-enter comes first (a modal's first button is its default): Enter on a failed check does not save what failed.
  assert.deepEqual(modals(), [[`The credentials for ${host} did not pass the check. Save them anyway?`,
    `${refused}\n\nRe-enter goes back to the first step with what was entered; Save anyway keeps them as entered.`, ['Re-enter', 'Save anyway']]]);
  assert.equal(fake.messages[0].kind, 'warning');
  assert.deepEqual(behind, [0], 'the busy pick closed before the modal');
  // ux3: Re-enter is going back to the first step, numbered as such (it said 4/4 for the token, and 6/6 for the second check).
  assert.deepEqual(steps(), ['1/2', '2/2', '1/2', '2/2']);
  assert.deepEqual(fake.quickPicks.map((p) => `${p.step}/${p.totalSteps}`), ['3/3', '3/3']);
  assert.deepEqual(fake.inputBoxes.map((b) => b.buttons), [[], ['Back'], [], ['Back']]);
  // The busy picks (the first check and the second), neither offering anything to choose.
  assert.deepEqual(fake.quickPicks.map((p) => [p.title, p.busy, p.labels, p.placeHolder]), [
    [`Checking the credentials with ${host}`, true, [], 'Asking the API whether it accepts them…'],
    [`Checking the credentials with ${host}`, true, [], 'Asking the API whether it accepts them…']]);
  assert.deepEqual(fake.inputBoxes.map((b) => [b.title?.replace(/ for .*/, ''), b.value]), [['API token', ''], ['API key', ''], ['API token', 'not-the-token'], ['API key', '']]);
  assert.equal(JSON.parse(secrets.get('edgekit.api.credentials')!).apiToken, mock.credentials.apiToken);
  assert.match(fake.messages.at(-1)!.text, /The API token is valid/);
  allClosed();
  // Save anyway: what was typed is kept, and the message says the check failed and why.
  resetFake();
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = ['not-the-token', ''];
  answerModals('Save anyway');
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  assert.equal(JSON.parse(secrets.get('edgekit.api.credentials')!).apiToken, 'not-the-token');
  assert.deepEqual(fake.messages.filter((m) => !m.modal).map((m) => [m.kind, m.text]), [['warning', `EdgeKit API credentials saved for ${host} as entered, though the check failed: ${refused} `
    + 'They are used once "edgekit.backend" is "remote"; the embedded mock is in use now.']]);
  allClosed();
  // Back while the check runs returns to the last step with its answer; Escape there ends the flow.
  resetFake();
  writes.length = 0;
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = ['not-the-token', '', undefined];
  fake.quickPickAnswers = [BACK];
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  assert.deepEqual(fake.inputBoxes.map((b) => [b.title?.replace(/ for .*/, ''), b.value]), [['API token', ''], ['API key', ''], ['API key', '']]);
  // Cancel or Escape on the modal saves nothing.
  resetFake();
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = ['not-the-token', ''];
  answerModals(undefined);
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  assert.equal(modals().length, 1);
  assert.deepEqual(writes, [], 'nothing saved after Back or Cancel');
  assert.deepEqual(fake.messages.filter((m) => !m.modal), []);
  assert.deepEqual([...fake.settings.keys()], ['api.baseUrl']);
  allClosed();
}));

test('Set API Credentials… checks a key pair: a wrong one is said refused (with the API\'s words); a valid one passes', () => withMock(async (mock) => {
  const { ctx, secrets } = backendWithSecrets();
  const { apiKey, apiEmail } = mock.credentials;
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = ['', 'not-the-key', apiEmail];
  answerModals('Re-enter');
  // Re-entered: the key step shows the wrong key; the right one replaces it.
  fake.inputBoxAnswers.push('', apiKey, apiEmail);
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  assert.match(String(modals()[0][1]), /^The API key and email were refused by http:\/\/127\.0\.0\.1:\d+\/client\/v4: HTTP 403 .*\[9103\] Unknown X-Auth-Key or X-Auth-Email\.\n\n/);
  assert.equal(fake.inputBoxes[4].value, 'not-the-key');
  assert.deepEqual(JSON.parse(secrets.get('edgekit.api.credentials')!), { host: new URL(mock.apiBaseUrl).origin, apiKey, apiEmail });
  assert.match(fake.messages.at(-1)!.text, new RegExp(`The API key and email are valid \\(${apiEmail.replace(/\./g, '\\.')}\\)\\.`));
}));

test('Set API Credentials… with the API not reachable says the cause first, whole, and Save anyway keeps what was typed', async () => {
  let baseUrl = '';
  await withMock(async (mock) => { baseUrl = mock.apiBaseUrl; });
  const { ctx, secrets } = backendWithSecrets();
  fake.settings.set('api.baseUrl', baseUrl);
  fake.inputBoxAnswers = ['tok-123456', ''];
  answerModals('Save anyway');
  await backendCommands['edgekit.setApiCredentials'](ctx)();
  // The cause (request.ts's words) first, not the address the message names already; and the whole of it, advice included.
  const detail = String(modals()[0][1]);
  // rv47: "could not be checked", not "did not pass the check" (which sent the user to re-enter credentials nothing had refused).
  assert.equal(modals()[0][0], `The credentials for ${new URL(baseUrl).origin} could not be checked. Save them anyway?`);
  assert.match(detail, /^The API token could not be checked: (connection refused|the server closed the connection)\b.*\.\n\n/s);
  assert.doesNotMatch(detail, /GET /);
  assert.equal(JSON.parse(secrets.get('edgekit.api.credentials')!).apiToken, 'tok-123456');
  const saved = fake.messages.filter((m) => !m.modal);
  assert.equal(saved[0].kind, 'warning');
  assert.match(saved[0].text, /as entered, though the check failed: The API token could not be checked: (connection refused|the server closed the connection)/);
});

test('Set API Credentials… in an untrusted workspace sends no check to the address (no request to a real endpoint) and says they were not checked (rv44)', async () => {
  // A server that records what reaches it: nothing may.
  const reached: string[] = [];
  const server = await startServer((req, res) => { reached.push(String(req.url)); json(res, 200, { success: true, errors: [], messages: [], result: { id: 'a', status: 'active' } }); });
  const { ctx, secrets } = backendWithSecrets();
  workspace.isTrusted = false;
  try {
    fake.settings.set('api.baseUrl', `${server.url}/client/v4`);
    fake.inputBoxAnswers = ['tok-0123456789', ''];
    await backendCommands['edgekit.setApiCredentials'](ctx)();
    assert.deepEqual(reached, []);
    assert.deepEqual(fake.quickPicks, [], 'no check shown');
    assert.equal(JSON.parse(secrets.get('edgekit.api.credentials')!).apiToken, 'tok-0123456789');
    assert.deepEqual(fake.messages.map((m) => [m.kind, m.text]), [['info', `EdgeKit API credentials saved for ${server.url}. They were not checked with the API: requests to real `
      + 'endpoints are disabled in an untrusted workspace. They are used once "edgekit.backend" is "remote"; the embedded mock is in use now.']]);
  } finally {
    workspace.isTrusted = true;
    await server.close();
  }
});

test('Set API Credentials…: Escape while the check\'s request is in flight aborts it, saves nothing, and no late answer shows (rv44)', async () => {
  // The request reaches the server, which holds it; the user presses Escape then; the held request's connection is closed by the
  // abort (awaited: no timing), and the server's answer, sent after, shows nowhere.
  let aborted!: Promise<void>;
  const { ctx, writes } = backendWithSecrets();
  const server = await startServer((_req, res) => {
    aborted = new Promise<void>((resolve) => res.on('close', () => resolve()));
    for (const q of [...fake.quickInputs]) q.hide();
  });
  try {
    fake.settings.set('api.baseUrl', `${server.url}/client/v4`);
    fake.inputBoxAnswers = ['tok-0123456789', ''];
    await backendCommands['edgekit.setApiCredentials'](ctx)();
    await aborted;
    assert.equal(server.received.length, 1);
    assert.deepEqual(fake.quickPicks.map((p) => [p.busy, p.labels]), [[true, []]], 'the check\'s pick, busy, never offered anything');
    assert.deepEqual(writes, []);
    assert.deepEqual(fake.messages, []);
    allClosed();
  } finally {
    await server.close();
  }
});

test('Set Mock S3 Credentials… asks its two keys as steps 1/2 and 2/2, Back keeps the key id, Escape stores nothing', async () => {
  const { ctx, secrets, writes } = backendWithSecrets();
  fake.settings.set('mock.s3Endpoint', 'http://127.0.0.1:9000');
  const run = backendCommands['edgekit.mock.setBucketCredentials'](ctx);
  fake.inputBoxAnswers = ['minio', undefined];
  await assert.rejects(run(), (e: Error) => e.constructor.name === 'CancellationError');
  assert.deepEqual(writes, []);
  resetFake();
  fake.settings.set('mock.s3Endpoint', 'http://127.0.0.1:9000');
  fake.inputBoxAnswers = ['minio', BACK, ' minioadmin ', 'secret'];
  await run();
  assert.deepEqual(steps(), ['1/2', '2/2', '1/2', '2/2']);
  // mt5: the secret typed unseen (a mutant showed it in clear), the key id saved without the spaces a paste brings.
  assert.deepEqual(fake.inputBoxes.map((b) => b.password), [false, true, false, true]);
  assert.ok(fake.inputBoxes.every((b) => b.ignoreFocusOut));
  assert.deepEqual(fake.inputBoxes.map((b) => b.value), ['', '', 'minio', '']);
  assert.deepEqual(fake.inputBoxes.map((b) => b.buttons), [[], ['Back'], [], ['Back']]);
  assert.ok(fake.inputBoxes.every((b) => b.placeHolder));
  assert.deepEqual(JSON.parse(secrets.get('edgekit.mock.s3Credentials')!), { endpoint: 'http://127.0.0.1:9000', accessKeyId: 'minioadmin', secretAccessKey: 'secret' });
  allClosed();
});

// mt5: a mutant that checked the text on Enter only survived: the box says what is wrong as it is typed, as VS Code's own do.
test('a step\'s validation shows under the box as the text is typed, before Enter', async () => {
  const { ctx, writes } = backendWithSecrets();
  fake.settings.set('mock.s3Endpoint', 'http://127.0.0.1:9000');
  fake.inputBoxAnswers = [typed('  '), typed('minio'), undefined];
  await assert.rejects(backendCommands['edgekit.mock.setBucketCredentials'](ctx)(), (e: Error) => e.constructor.name === 'CancellationError');
  assert.deepEqual(fake.validationWhileTyping, ['An access key id.', undefined]);
  assert.deepEqual(writes, []);
});
