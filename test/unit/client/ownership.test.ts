// A proven ownership challenge token going stale before Create or Update sends it (client/src/commands/ownership.ts): proven for
// another zone, for another destination_conf, or more than the platform's 7 days ago. The commands ask first (modal) and offer to
// prove ownership again; a token EdgeKit never saw is sent as it is.
import { fake, resetFake, addDocument, editDocument, memento, Uri } from './vscode';
import { test, beforeEach, mock } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logpushJobCommands } from '../../../client/src/commands/logpush';
import { logpushJobLifecycleCommands } from '../../../client/src/commands/logpushJobs';
import { startServer, type TestServer } from '../http/server';
import { JobScopes } from '../../../client/src/jobScopes';
import { recordedQuestions } from './questions';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

const A = 's3://bucket/logs?region=us-east-1';
const B = 's3://bucket/other?region=us-east-1';
/** An R2 bucket written as S3-compatible storage: its endpoint= exempts it from the challenge, as its own keys would. */
const R2_S3 = 's3://bucket/logs?region=auto&endpoint=https://acct.r2.cloudflarestorage.com';
/** The embedded mock's note on a job created without the ownership challenge the platform asks for (mock/src/management.ts). */
const MOCK_NOTE = 'The platform asks for "ownership_challenge" with this destination (POST …/logpush/ownership, then the token from the file it writes); the mock created the job without one.';
/** The token the backend below writes for a destination in a zone. */
const tokenFor = (zone: string, conf: string) => Buffer.from(`${zone}|${conf}`).toString('base64url');

/** Zones z1 and z2; the ownership routes; jobs created and updated as sent (job 5 in z1). Every request is recorded. */
async function backend(): Promise<{ server: TestServer; ctx: Ctx; asked: { question: string; options: string[]; detail?: string }[]; answers: (string | undefined)[] }> {
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    const reply = (result: unknown, messages: unknown[] = []): void => { res.end(JSON.stringify({ success: true, errors: [], messages, result })); };
    const zone = /\/zones\/(z\d)\//.exec(req.url)?.[1] ?? '';
    const body = req.body ? JSON.parse(req.body) as Record<string, unknown> : {};
    if (/\/zones\?/.test(req.url)) return reply([{ id: 'z1', name: 'a.example', plan: { legacy_id: 'enterprise' } }, { id: 'z2', name: 'b.example', plan: { legacy_id: 'enterprise' } }]);
    if (req.url.endsWith('/logpush/ownership')) return reply({ filename: 'ownership-challenge.txt', message: '', valid: true });
    if (req.url.endsWith('/logpush/ownership/validate')) return reply({ valid: body.ownership_challenge === tokenFor(zone, String(body.destination_conf)) });
    // As the platform's, the job record does not carry the ownership_challenge it was sent with.
    const { ownership_challenge: _sent, ...job } = body;
    // A challenged destination's job without a token: created, with the embedded mock's note (mock/src/management.ts).
    if (req.url.endsWith('/logpush/jobs') && req.method === 'POST') return reply({ ...job, id: 11 }, body.ownership_challenge ? [] : [{ code: 10520, message: MOCK_NOTE }]);
    if (req.url.endsWith('/zones/z1/logpush/jobs/5')) return reply({ id: 5, name: 'p', dataset: 'http_requests', destination_conf: A, enabled: true, ...(req.method === 'PUT' ? job : {}) });
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 7003, message: `no route ${req.url}` }], messages: [], result: null }));
  });
  const { asked, answers, ui } = recordedQuestions();
  const ctx = {
    backend: { endpoints: async () => ({ embedded: false, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    jobScopes: new JobScopes(() => undefined),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    extension: { globalState: memento(), globalStorageUri: Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-storage-'))) },
    ui,
    zones: { refresh() {} },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  return { server, ctx, asked, answers };
}

const create = (ctx: Ctx) => logpushJobCommands['edgekit.logpush.createJob'](ctx);
const update = (ctx: Ctx) => logpushJobLifecycleCommands['edgekit.logpush.updateJob'](ctx);
const prove = (ctx: Ctx) => logpushJobLifecycleCommands['edgekit.logpush.proveOwnership'](ctx);

test('Create asks before sending a token proven for another zone or destination, or more than 7 days ago, and proves again on request', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, asked, answers } = await backend();
  const posts = () => server.received.filter((r) => r.method === 'POST' && r.url.endsWith('/logpush/jobs'));
  mock.timers.enable({ apis: ['Date'], now: Date.UTC(2026, 10, 18, 10, 0) });
  try {
    const doc = addDocument('file:///ws/jobs/p.logpush.json', 'logpush-job', `{\n  "name": "p",\n  "dataset": "http_requests",\n  "destination_conf": "${A}"\n}\n`);
    await prove(ctx)(doc.uri, 'z1', tokenFor('z1', A));
    // Where and when it was proven: nothing to ask, sent with the token.
    await create(ctx)(doc.uri, 'z1');
    assert.equal(asked.length, 0);
    assert.equal(JSON.parse(posts()[0].body).ownership_challenge, tokenFor('z1', A));

    // Another zone: asked; dismissed, nothing sent.
    assert.equal(await create(ctx)(doc.uri, 'z2'), undefined);
    assert.equal(posts().length, 1);
    assert.equal(asked[0].question, 'The "ownership_challenge" in jobs/p.logpush.json may be refused: it was proven in zone a.example, and this job goes to zone b.example.');
    assert.deepEqual(asked[0].options, ['Prove Ownership Again', 'Send As It Is']);
    assert.equal(asked[0].detail, 'The platform ties a token to the zone or account and the whole destination_conf it was asked for, and it expires 7 days after. ' +
      '"Prove Ownership Again" asks for a new one for s3://bucket/logs in zone b.example, then sends the job with it.');

    // Its destination edited since: asked.
    editDocument(doc, doc.getText().replace(A, B));
    assert.equal(await create(ctx)(doc.uri, 'z1'), undefined);
    assert.match(asked[1].question, /may be refused: it was proven for s3:\/\/bucket\/logs, and the document sends to s3:\/\/bucket\/other\.$/);
    editDocument(doc, doc.getText().replace(B, A));

    // Eight days on: asked; "Send As It Is" sends it.
    mock.timers.tick(8 * 24 * 3600 * 1000);
    answers.push('Send As It Is');
    await create(ctx)(doc.uri, 'z1');
    assert.match(asked[2].question, /may be refused: it was asked for 8 days ago \(2026-11-18 10:00 UTC\), and the platform's tokens expire after 7 days\.$/);
    assert.equal(JSON.parse(posts()[1].body).ownership_challenge, tokenFor('z1', A));

    // "Prove Ownership Again" in the zone the job goes to: the challenge asked for there, the pasted token written into the document
    // and sent.
    answers.push('Prove Ownership Again');
    fake.inputBoxAnswers.push(tokenFor('z2', A));
    await create(ctx)(doc.uri, 'z2');
    assert.equal(JSON.parse(posts()[2].body).ownership_challenge, tokenFor('z2', A));
    assert.equal(JSON.parse(doc.getText()).ownership_challenge, tokenFor('z2', A));
    // The box says what it takes when its text is cleared (the guidelines' placeholder: a hint of what is expected).
    assert.match(fake.inputBoxes.at(-1)!.placeHolder ?? '', /^The token in \S+ \(its whole text\)$/);
    // lf21: kept open while the user opens the destination's file in another window to copy the token (a box that closed on the
    // focus's leaving ended the proof); the stand-in's showInputBox did not record it, so nothing checked it.
    assert.equal(fake.inputBoxes.at(-1)!.ignoreFocusOut, true);
    assert.equal(server.received.filter((r) => r.url.endsWith('/zones/z2/logpush/ownership')).length, 1);
    assert.equal(asked.length, 4, 'proven anew: nothing more asked');
    // Proven now for z2: creating there again asks nothing.
    await create(ctx)(doc.uri, 'z2');
    assert.equal(asked.length, 4);

    // A token EdgeKit never saw (pasted by hand) is sent as it is.
    editDocument(doc, doc.getText().replace(tokenFor('z2', A), 'PASTED'));
    await create(ctx)(doc.uri, 'z1');
    assert.equal(asked.length, 4);
    assert.equal(JSON.parse(posts()[posts().length - 1].body).ownership_challenge, 'PASTED');
  } finally {
    mock.timers.reset();
    await server.close();
  }
});

test('Update asks as well when the document\'s destination changed since its token was proven', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, asked, answers } = await backend();
  const puts = () => server.received.filter((r) => r.method === 'PUT');
  try {
    const doc = addDocument('file:///ws/jobs/five.logpush.json', 'logpush-job', `{\n  "id": 5,\n  "name": "p",\n  "dataset": "http_requests",\n  "destination_conf": "${A}"\n}\n`);
    await prove(ctx)(doc.uri, 'z1', tokenFor('z1', A));
    await update(ctx)(doc.uri);
    assert.equal(asked.length, 0);
    assert.equal(JSON.parse(puts()[0].body).ownership_challenge, tokenFor('z1', A));
    editDocument(doc, doc.getText().replace(A, B));
    assert.equal(await update(ctx)(doc.uri), undefined);
    assert.equal(puts().length, 1, 'dismissed: nothing sent');
    assert.match(asked[0].question, /^The "ownership_challenge" in jobs\/five\.logpush\.json may be refused: it was proven for s3:\/\/bucket\/logs, and the document sends to s3:\/\/bucket\/other\.$/);
    answers.push('Prove Ownership Again');
    fake.inputBoxAnswers.push(tokenFor('z1', B));
    await update(ctx)(doc.uri);
    assert.equal(JSON.parse(puts()[1].body).ownership_challenge, tokenFor('z1', B));
    assert.equal(JSON.parse(puts()[1].body).destination_conf, B);
  } finally {
    await server.close();
  }
});

test('a refused token is quoted whole when short, its first 12 characters and "…" when longer', async () => {
  // Seen in the workbench: pasting "wrongtoken" was refused as "wrongtoken…", as if the message had cut it.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const doc = addDocument('file:///ws/jobs/p.logpush.json', 'logpush-job', `{\n  "name": "p",\n  "dataset": "http_requests",\n  "destination_conf": "${A}"\n}\n`);
    await assert.rejects(prove(ctx)(doc.uri, 'z1', 'wrongtoken') as Promise<unknown>, /The backend says "wrongtoken" is not a valid/);
    await assert.rejects(prove(ctx)(doc.uri, 'z1', 'abcdefghijklmnopqrstuvwxyz') as Promise<unknown>, /The backend says "abcdefghijkl…" is not a valid/);
  } finally {
    await server.close();
  }
});

test('a token the backend does not confirm is refused with both reasons it may have: another destination\'s, or expired', async () => {
  // The message said only "is not the ownership challenge of …": a token pasted from last week's file, which the platform refuses
  // once its 7 days are over, read as a wrong paste.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const doc = addDocument('file:///ws/jobs/p.logpush.json', 'logpush-job', `{\n  "name": "p",\n  "dataset": "http_requests",\n  "destination_conf": "${A}"\n}\n`);
    await assert.rejects(prove(ctx)(doc.uri, 'z1', tokenFor('z1', B)) as Promise<unknown>,
      /is not a valid ownership challenge of s3:\/\/bucket\/logs in zone a\.example: not the token issued for it, or expired \(a token holds for 7 days\); paste the token from ownership-challenge\.txt/);
  } finally {
    await server.close();
  }
});

test('Create of a document without "ownership_challenge" to a destination the platform challenges asks first: prove, or (the embedded mock) create anyway', async () => {
  // ui14's walk: Create with an S3 destination and no token created the job on the mock, whose note that the platform would refuse
  // it was cut off in the notification, with no button; on the platform the user would get an error.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, asked, answers } = await backend();
  const posts = () => server.received.filter((r) => r.method === 'POST' && r.url.endsWith('/logpush/jobs'));
  const logged: string[] = [];
  let shown!: () => void;
  const opened = new Promise<void>((resolve) => { shown = resolve; });
  const logging = { ...ctx, log: { info: (m: string) => logged.push(m), warn() {}, error() {}, show: () => shown() } } as unknown as Ctx;
  try {
    const text = `{\n  "name": "p",\n  "dataset": "http_requests",\n  "destination_conf": "${A}"\n}\n`;
    const doc = addDocument('file:///ws/jobs/p.logpush.json', 'logpush-job', text);
    // Dismissed: nothing sent.
    assert.equal(await create(logging)(doc.uri, 'z1'), undefined);
    assert.equal(posts().length, 0);
    assert.equal(asked[0].question, 'jobs/p.logpush.json has no "ownership_challenge": the platform refuses a job to s3://bucket/logs without one.');
    assert.deepEqual(asked[0].options, ['Prove Ownership First', 'Create on the Mock Anyway']);
    assert.equal(asked[0].detail, [
      'The platform asks a job to prove it may write to an S3 bucket (one without its own access keys or endpoint), Google Cloud Storage, Azure or Sumo Logic: ' +
        'it writes a file holding a token into the destination, and the job is created with that token.',
      '"Prove Ownership First" asks for the token for s3://bucket/logs in zone a.example, writes it into jobs/p.logpush.json as "ownership_challenge", then creates the job.',
      'An S3 destination_conf with its own access-key-id and secret-access-key, or with an endpoint= (S3-compatible storage such as R2), needs no challenge.',
      '"Create on the Mock Anyway" creates it without one: the embedded mock notes the missing challenge and goes on; the platform would not.',
    ].join('\n'));

    // "Create on the Mock Anyway": sent without a token; the mock's note is shown whole in the output channel on "Show Details".
    answers.push('Create on the Mock Anyway');
    let offered: string[] = [];
    fake.answerMessage = (_t, items) => { offered = items; return 'Show Details'; };
    await create(logging)(doc.uri, 'z1');
    assert.equal(posts().length, 1);
    assert.ok(!('ownership_challenge' in JSON.parse(posts()[0].body)));
    const said = `Created Logpush job 11 "p" in zone a.example. The backend notes: ${MOCK_NOTE}`;
    assert.deepEqual(fake.messages.at(-1), { kind: 'info', text: said, items: ['Show Details'] });
    assert.deepEqual(offered, ['Show Details']);
    assert.deepEqual(logged, [said], 'the whole text in the output channel');
    await opened; // "Show Details" opens the output channel (answered after the command returned)

    // "Prove Ownership First": the challenge asked for in the zone the job goes to, the pasted token written in and sent; no note.
    answers.push('Prove Ownership First');
    fake.inputBoxAnswers.push(tokenFor('z1', A));
    await create(logging)(doc.uri, 'z1');
    assert.equal(JSON.parse(posts()[1].body).ownership_challenge, tokenFor('z1', A));
    assert.equal(JSON.parse(doc.getText()).ownership_challenge, tokenFor('z1', A));
    assert.equal(server.received.filter((r) => r.url.endsWith('/zones/z1/logpush/ownership')).length, 1);
    assert.deepEqual(fake.messages.at(-1), { kind: 'info', text: 'Created Logpush job 11 "p" in zone a.example.' }, 'no note: no button');
    assert.equal(asked.length, 3);

    // An empty token is none; a destination the platform does not challenge (its own keys, an HTTPS endpoint) asks nothing.
    editDocument(doc, text.replace('\n}', ',\n  "ownership_challenge": ""\n}'));
    assert.equal(await create(logging)(doc.uri, 'z1'), undefined);
    assert.match(asked[3].question, /has no "ownership_challenge"/);
    for (const conf of ['s3://bucket/logs?region=us-east-1&access-key-id=AKIA&secret-access-key=s', 'https://logs.example/in', R2_S3]) {
      editDocument(doc, text.replace(A, conf));
      await create(logging)(doc.uri, 'z1');
    }
    assert.equal(asked.length, 4);
    assert.equal(posts().length, 5);
  } finally {
    await server.close();
  }
});

test('with a remote backend (the platform), Create of an unproven destination offers only the proof: the job is not sent without one', async () => {
  fake.folderSettings.set('/ws', new Map());
  fake.settings.set('backend', 'remote');
  const { server, ctx, asked, answers } = await backend();
  try {
    const doc = addDocument('file:///ws/jobs/g.logpush.json', 'logpush-job', '{"name": "g", "dataset": "http_requests", "destination_conf": "gs://bucket/logs"}');
    answers.push('Create on the Mock Anyway'); // not offered: taken as dismissed
    assert.equal(await create(ctx)(doc.uri, 'z1'), undefined);
    assert.deepEqual(asked[0].options, ['Prove Ownership First']);
    assert.equal(asked[0].question, 'jobs/g.logpush.json has no "ownership_challenge": the platform refuses a job to gs://bucket/logs without one.');
    assert.doesNotMatch(asked[0].detail ?? '', /Mock|access-key-id/);
    assert.equal(server.received.filter((r) => r.method === 'POST').length, 0, 'nothing sent');
  } finally {
    await server.close();
  }
});

test('the ownership question\'s decision: a challenged destination with no token; S3 with its own keys or an endpoint= (R2) is not asked about', async () => {
  // The question named S3's own access keys as the exemption, not endpoint= (S3-compatible storage), which needsChallenge also exempts.
  const { unprovenDestination } = await import('../../../client/src/commands/ownership');
  const asked = [A, 'S3://bucket/logs', 'gs://b/logs', 'azure://c/logs?sas=x', 'sumo://e.example/receiver/v1/http/x'];
  for (const conf of asked) assert.equal(unprovenDestination({ destination_conf: conf }), conf, conf);
  for (const token of [undefined, null, '']) assert.equal(unprovenDestination({ destination_conf: A, ownership_challenge: token }), A, String(token));
  const notAsked: unknown[] = [
    { destination_conf: R2_S3 }, { destination_conf: 's3://b/logs?endpoint=minio.example:9000' },
    { destination_conf: `${A}&access-key-id=AKIA&secret-access-key=s` }, { destination_conf: 'r2://b/logs?account-id=a&access-key-id=k&secret-access-key=s' },
    { destination_conf: 'https://logs.example/in' }, { destination_conf: A, ownership_challenge: 'tok' }, { destination_conf: 5 }, {}, null, 'text',
  ];
  for (const job of notAsked) assert.equal(unprovenDestination(job), undefined, JSON.stringify(job));
});
