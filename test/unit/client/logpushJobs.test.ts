// The Logpush job commands of the Zones view (client/src/commands/logpushJobs.ts) with the stand-in `vscode` module and a recording
// HTTP server in place of the backend: what they send, and what they do to the documents open.
import { fake, resetFake, addDocument, memento, Uri } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { logpushJobLifecycleCommands as commands } from '../../../client/src/commands/logpushJobs';
import { startServer, type TestServer } from '../http/server';
import type { Ctx } from '../../../client/src/ctx';
import { JobScopes } from '../../../client/src/jobScopes';
import type { SetJobScopeParams } from '../../../server/src/protocol';
import { recordedQuestions, type Asked } from './questions';
import { jobDocumentName } from '../../../client/src/untitled';

beforeEach(() => resetFake());

/** What the commands told the language server of the documents' scopes (edgekit/setJobScope), in order. */
const toldScopes: SetJobScopeParams[] = [];
const told = () => new JobScopes((p) => toldScopes.push(p));
beforeEach(() => { toldScopes.length = 0; });

const ZONE = { owner: { zone: 'z1' }, ownerName: 'a.example' };
const JOB = { id: 5, name: 'edge', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1', enabled: true, last_complete: null };

/** Each request the backend below received, with the titles of the progress showing when it arrived. */
const underProgress: { request: string; progress: (string | undefined)[] }[] = [];
beforeEach(() => { underProgress.length = 0; });

/** A backend whose jobs 5 and 7 live in zone z1 and job 9 in zone z2; every request is recorded. */
/** result_info of the zone list the backend answers (none when undefined). */
let zonesSaid: Record<string, unknown> | undefined;
/** The status zone z2's job list answers with (its list when undefined). */
let jobsOfZ2Status: number | undefined;

async function backend(): Promise<{ server: TestServer; ctx: Ctx }> {
  const server = await startServer((req, res): void => {
    underProgress.push({ request: `${req.method} ${req.url.replace(/^\/client\/v4/, '').replace(/\?.*/, '')}`, progress: fake.progressRunning.map((p) => p.title) });
    res.setHeader('content-type', 'application/json');
    const reply = (result: unknown): void => { res.end(JSON.stringify({ success: true, errors: [], messages: [], result })); };
    if (req.url.endsWith('/zones/z1/logpush/jobs/5')) return reply(req.method === 'DELETE' ? { id: 5 } : JOB);
    if (req.url.endsWith('/zones/z1/logpush/jobs/1e%2B21')) return reply({ ...JOB, id: 1e21 });
    if (req.url.endsWith('/zones/z1/logpush/jobs/7')) return reply(req.method === 'DELETE' ? { id: 7 } : { ...JOB, id: 7, name: 'other' });
    if (req.url.endsWith('/zones/z1/logpush/jobs') && req.method === 'POST') return reply({ ...JOB, ...JSON.parse(req.body) as object, id: 11 });
    if (req.url.endsWith('/zones/z1/logpush/jobs')) return reply([{ ...JOB, id: 7, name: 'other' }]);
    if (req.url.endsWith('/zones/z2/logpush/jobs/9')) return reply({ ...JOB, id: 9, name: 'nine' });
    if (req.url.endsWith('/zones/z2/logpush/jobs') && jobsOfZ2Status) {
      res.statusCode = jobsOfZ2Status;
      return void res.end(JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Rate limited' }], messages: [], result: null }));
    }
    if (req.url.endsWith('/zones/z2/logpush/jobs')) return reply([{ ...JOB, id: 9, name: 'nine' }]);
    if (/\/zones\?/.test(req.url)) {
      const zones = ['z1', 'z2'].map((id) => ({ id, name: `${id}.example`, plan: { legacy_id: 'enterprise' } }));
      // zonesSaid: a server that says more pages and answers the same one again (the read stops at the second, said so).
      return void res.end(JSON.stringify({ success: true, errors: [], messages: [], result: zones, ...(zonesSaid ? { result_info: zonesSaid } : {}) }));
    }
    if (/\/accounts\?/.test(req.url)) return reply([]);
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 7003, message: `no route ${req.url}` }], messages: [], result: null }));
  });
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    zones: { refresh() {} },
    ui: { ask: async () => 'Delete' },
    jobScopes: told(),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  return { server, ctx };
}

test('a job looked for among zones whose list was cut short is not said to be gone without saying the list was cut', async () => {
  // The search said "No Logpush job 5 in the zones of …; it may have been deleted" of a list that stopped short.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const five = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    await commands['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE });
    zonesSaid = { page: 1, per_page: 50, total_pages: 3, total_count: 150 };
    await assert.rejects(commands['edgekit.logpush.updateJob'](ctx)(five.uri) as Promise<unknown>,
      /No Logpush job 5 in the zones of .*; it may have been deleted\. "Create Logpush Job" creates it anew\. Showing the first 2 of 150 zones: page 2 \(GET \/zones\) held only zones already listed/);
  } finally {
    zonesSaid = undefined;
    await server.close();
  }
});

test('a job looked for where a job list could not be read is not said to be gone without saying which lists were not read', async () => {
  // A job list that failed (here a 429) was taken for a list without the job: "No Logpush job 5 …; it may have been deleted", alone.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const five = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    await commands['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE });
    jobsOfZ2Status = 403;
    await assert.rejects(commands['edgekit.logpush.updateJob'](ctx)(five.uri) as Promise<unknown>,
      /No Logpush job 5 in the zones of .*; it may have been deleted\. "Create Logpush Job" creates it anew\. The job lists of 1 of 2 owners could not be read \(the job may be in one of them\); the first: Cannot list the Logpush jobs of zone "z2".*HTTP 403/);
    // A 429 ends the search (no further owner is asked: findLimit), said as the rate limit, not as a job that may be gone.
    jobsOfZ2Status = 429;
    await assert.rejects(commands['edgekit.logpush.updateJob'](ctx)(five.uri) as Promise<unknown>,
      /^Error: The search for Logpush job 5 stopped after asking 2 of 2 owners for their jobs: the API's rate limit was reached\. Try again in a few minutes\. Cannot list the Logpush jobs of zone "z2".*HTTP 429 Too Many Requests/);
  } finally {
    jobsOfZ2Status = undefined;
    await server.close();
  }
});

test('Open Logpush Job Configuration never replaces a document already at the job\'s name, even one VS Code has not resolved yet', async () => {
  // After a reload, a background tab restored from a hot-exit backup is not among workspace.textDocuments until shown: the
  // command opened the same untitled name, got the backup's text, and replaced the user's unsaved edits with the backend's job.
  fake.folderSettings.set('/ws', new Map());
  const mine = '{\n  "id": 5,\n  "name": "edge",\n  "enabled": false\n}\n';
  const uri = Uri.joinPath(Uri.file('/ws'), 'edge-5.logpush.json').with({ scheme: 'untitled' }).toString();
  addDocument(uri, 'logpush-job', mine, false);
  fake.unresolved.add(uri);
  const { server, ctx } = await backend();
  try {
    const r = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string; reused: boolean };
    assert.equal(r.uri, uri);
    assert.equal(fake.documents.get(uri)!.getText(), mine, 'the unsaved edits are kept');
    assert.equal(r.reused, true);
    assert.match(fake.messages.map((m) => m.text).join('\n'), /already open; close it to read it again/);
    // A new one is filled from the backend, without the delivery status members.
    const fresh = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string; reused: boolean };
    assert.equal(fresh.reused, true, 'the same name again: still the user\'s');
    fake.documents.delete(uri);
    const again = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string; reused: boolean };
    assert.equal(again.reused, false);
    assert.deepEqual(JSON.parse(fake.documents.get(uri)!.getText()), { id: 5, name: 'edge', dataset: 'http_requests', destination_conf: JOB.destination_conf, enabled: true });
  } finally {
    await server.close();
  }
});

test('Open Logpush Job Configuration when the job\'s document was saved under the name it offered: a free name, not "file already exists"', async () => {
  // Saved as /ws/edge-5.logpush.json, the job could not be opened again: VS Code refuses an untitled document where a file is.
  fake.folderSettings.set('/ws', new Map());
  fake.files.push(Uri.file('/ws/edge-5.logpush.json').toString());
  const { server, ctx } = await backend();
  try {
    const r = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string; reused: boolean };
    assert.equal(r.uri, Uri.file('/ws/edge-5-2.logpush.json').with({ scheme: 'untitled' }).toString());
    assert.equal(JSON.parse(fake.documents.get(r.uri)!.getText()).id, 5);
    const again = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string; reused: boolean };
    assert.deepEqual([again.uri, again.reused], [r.uri, true], 'opened again: the same document');
  } finally {
    await server.close();
  }
});

test('Open Logpush Job Configuration with the names up to the hundredth all saved as files: refused naming them, nothing opened', async () => {
  // The hundredth name was returned where a file was: VS Code refused it ("file already exists"), naming no way out.
  fake.folderSettings.set('/ws', new Map());
  for (let n = 1; n <= 100; n++) fake.files.push(Uri.file(`/ws/edge-5${n > 1 ? `-${n}` : ''}.logpush.json`).toString());
  const { server, ctx } = await backend();
  try {
    await assert.rejects(commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as Promise<unknown>,
      /^Error: Nothing was opened: edge-5\.logpush\.json to edge-5-100\.logpush\.json are all files in the folder\. Move some of them and run the command again\.$/);
    assert.equal([...fake.documents.keys()].filter((k) => k.startsWith('untitled:')).length, 0);
  } finally {
    await server.close();
  }
});

test('Delete forgets where its own job\'s document points, not the other jobs\' of the same zone', async () => {
  // Every opened document of the zone was forgotten: updating another job of that zone then searched every zone (and account)
  // for it again (one request per zone and account, four at a time).
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const five = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    const seven = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 7, name: 'other' }, place: ZONE }) as { uri: string };
    await commands['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE });
    const before = server.received.length;
    await commands['edgekit.logpush.updateJob'](ctx)(seven.uri);
    // The job read again (what changed since it was opened), then sent: no zone searched.
    assert.deepEqual(server.received.slice(before).map((r) => `${r.method} ${r.url.replace(/^\/client\/v4/, '')}`), ['GET /zones/z1/logpush/jobs/7', 'PUT /zones/z1/logpush/jobs/7']);
    // The deleted job's document is looked for again, and not found in the zone.
    await assert.rejects(commands['edgekit.logpush.updateJob'](ctx)(five.uri) as Promise<unknown>, /No Logpush job 5 in the zones of .*; it may have been deleted/);
  } finally {
    await server.close();
  }
});

test('Disable, Enable and Delete from the palette act on the open job document\'s job, looked for by its "id" when not opened from the view', async () => {
  // Walked in the workbench (ui14): the three were view-only ("when": "false" in the palette), so "EdgeKit: Delete Logpush Job"
  // typed in the palette found "Create Logpush Job" among its similar commands, and the modal asked to create another job.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  const asked: string[] = [];
  (ctx as unknown as { ui: { ask: (q: string) => Promise<string> } }).ui.ask = async (q) => { asked.push(q); return 'Delete'; };
  const sent = () => server.received.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url.replace(/^\/client\/v4/, '')}${r.body ? ` ${r.body}` : ''}`);
  try {
    // The active editor's document (no argument, as the palette runs it): job 9 lives in zone z2, found there.
    addDocument('file:///ws/nine.logpush.json', 'logpush-job', '{\n  "id": 9,\n  "name": "nine",\n  "dataset": "http_requests"\n}\n');
    await commands['edgekit.logpush.disableJob'](ctx)();
    assert.deepEqual(sent(), ['PUT /zones/z2/logpush/jobs/9 {"enabled":false}']);
    assert.equal(fake.messages.at(-1)?.text, 'Disabled Logpush job 9 "nine" of zone z2.example.');
    await commands['edgekit.logpush.enableJob'](ctx)('file:///ws/nine.logpush.json');
    assert.deepEqual(sent().slice(1), ['PUT /zones/z2/logpush/jobs/9 {"enabled":true}']);
    await commands['edgekit.logpush.deleteJob'](ctx)();
    assert.deepEqual(asked, ['Delete Logpush job 9 "nine" of zone z2.example?']);
    assert.deepEqual(sent().slice(2), ['DELETE /zones/z2/logpush/jobs/9']);
    // A document without an "id" names no job: said as Update says it, nothing sent.
    addDocument('file:///ws/new.logpush.json', 'logpush-job', '{\n  "name": "new",\n  "dataset": "http_requests"\n}\n');
    await assert.rejects(commands['edgekit.logpush.deleteJob'](ctx)() as Promise<unknown>, /new\.logpush\.json has no job "id", so it names no job on the backend/);
    assert.equal(sent().length, 3);
  } finally {
    await server.close();
  }
});

test('Open, Disable, Enable and Delete show the window\'s progress while they wait on the backend, the job looked for included', async () => {
  // ux1: a click on the view's Disable, or Delete after its confirmation, showed nothing until the answer came (up to
  // edgekit.http.timeoutSeconds with a real account); looking a document's job up reads every zone's jobs. Update had a progress.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5 }, place: ZONE });
    addDocument('file:///ws/nine.logpush.json', 'logpush-job', '{\n  "id": 9,\n  "name": "nine",\n  "dataset": "http_requests"\n}\n');
    await commands['edgekit.logpush.disableJob'](ctx)();
    await commands['edgekit.logpush.enableJob'](ctx)({ job: { id: 7, name: 'other' }, place: ZONE });
    await commands['edgekit.logpush.deleteJob'](ctx)({ job: { id: 7, name: 'other' }, place: ZONE });
    assert.deepEqual(underProgress, [
      { request: 'GET /zones/z1/logpush/jobs/5', progress: ['EdgeKit: reading Logpush job 5 of zone a.example'] },
      { request: 'GET /zones', progress: ['EdgeKit: looking for Logpush job 9'] },
      { request: 'GET /zones/z1/logpush/jobs', progress: ['EdgeKit: looking for Logpush job 9'] },
      { request: 'GET /zones/z2/logpush/jobs', progress: ['EdgeKit: looking for Logpush job 9'] },
      { request: 'PUT /zones/z2/logpush/jobs/9', progress: ['EdgeKit: disabling Logpush job 9 of zone z2.example'] },
      { request: 'PUT /zones/z1/logpush/jobs/7', progress: ['EdgeKit: enabling Logpush job 7 of zone a.example'] },
      { request: 'DELETE /zones/z1/logpush/jobs/7', progress: ['EdgeKit: deleting Logpush job 7 of zone a.example'] },
    ]);
    assert.deepEqual(fake.progressRunning, [], 'each progress ends with its request');
  } finally {
    await server.close();
  }
});

test('Disable, Enable and Delete on a document whose job is gone say so in Update\'s words; an "id" of another type is named', async () => {
  // A document opened from the view whose job was deleted since (elsewhere, or the mock reset): Disable and Delete said "Cannot get
  // Logpush job 5 of zone "z1" (GET ...): HTTP 404 Not Found: ... (check the base URL and the zone id)", where Update says it is gone.
  fake.folderSettings.set('/ws', new Map());
  let gone = false;
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    if (!gone && req.url.endsWith('/zones/z1/logpush/jobs/5')) return void res.end(JSON.stringify({ success: true, errors: [], messages: [], result: JOB }));
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 1000, message: 'job not found' }], messages: [], result: null }));
  });
  const { server: unused, ctx } = await backend();
  (ctx as unknown as { backend: unknown }).backend = { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) };
  try {
    const { uri } = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    gone = true;
    for (const [command, what] of [['disableJob', 'disable'], ['enableJob', 'enable'], ['deleteJob', 'delete'], ['updateJob', 'update']] as const) {
      await assert.rejects(commands[`edgekit.logpush.${command}`](ctx)(uri) as Promise<unknown>,
        new RegExp(`^Error: Logpush job 5 is no longer in zone a\\.example \\(deleted, or the backend was reset, since edge-5\\.logpush\\.json was read\\): there is nothing to ${what}\\.`), command);
    }
    assert.deepEqual(server.received.filter((r) => r.method !== 'GET'), []);
    // Refused before the backend is asked for: the mock is not started, no credentials are asked for, for a document naming no job
    let asked = 0;
    (ctx as unknown as { backend: unknown }).backend = { endpoints: async () => { asked++; throw new Error('the backend was asked for'); } };
    addDocument('file:///ws/s.logpush.json', 'logpush-job', '{\n  "id": "5",\n  "name": "s",\n  "dataset": "http_requests"\n}\n');
    for (const command of ['disableJob', 'enableJob', 'deleteJob'] as const) {
      await assert.rejects(commands[`edgekit.logpush.${command}`](ctx)() as Promise<unknown>,
        /^Error: The "id" of s\.logpush\.json is "5", not a job's id \(an integer\), so it names no job on the backend/);
    }
    assert.equal(asked, 0);
  } finally {
    await server.close();
    await unused.close();
  }
});

test('The language server is told where a job document\'s job lives: its zone when opened from the view, forgotten when deleted', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const five = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    const seven = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 7, name: 'other' }, place: ZONE }) as { uri: string };
    assert.deepEqual(toldScopes, [{ uri: five.uri, scope: 'zone' }, { uri: seven.uri, scope: 'zone' }]);
    await commands['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE });
    assert.deepEqual(toldScopes.slice(2), [{ uri: five.uri, scope: null }], 'the deleted job\'s document only');
  } finally {
    await server.close();
  }
});

test('Update sends to where the document\'s job lives: an "id" changed since it was opened is looked for, not sent to the old job\'s zone', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const opened = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    const doc = fake.documents.get(opened.uri)!;
    const { editDocument } = await import('./vscode');
    editDocument(doc, doc.getText().replace('"id": 5', '"id": 9'));
    const before = server.received.length;
    await commands['edgekit.logpush.updateJob'](ctx)(opened.uri);
    assert.equal(server.received.slice(before).filter((r) => r.method === 'PUT').map((r) => r.url.replace(/^\/client\/v4/, '')).join(), '/zones/z2/logpush/jobs/9');
  } finally {
    await server.close();
  }
});

test('Prove Ownership asks only for the destinations the platform challenges (the mock\'s rule), and says why not for the others', async () => {
  // The client asked for a challenge for anything but https: an R2 bucket, Datadog, Splunk and an S3 bucket with its own access
  // keys, which the platform does not challenge, went to the backend; now they are refused here with the reason.
  const { needsOwnershipChallenge } = await import('../../../mock/src/management');
  const { needsChallenge } = await import('../../../client/src/commands/ownership');
  const confs = ['s3://b/logs?region=us-east-1', 'S3://b/logs', 's3://b/logs?region=us-east-1&access-key-id=A&secret-access-key=S', 's3://b?endpoint=minio.example:9000',
    'gs://b/logs', 'azure://c/logs?sas=x', 'sumo://endpoint1.collection.sumologic.com/receiver/v1/http/x', 'r2://b/logs?account-id=a&access-key-id=k&secret-access-key=s',
    'datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=k', 'splunk://h.example/services/collector/raw?channel=c', 'https://logs.example/in', ' gs://b'];
  for (const c of confs) assert.equal(needsChallenge(c), needsOwnershipChallenge(c.trim()), c);
  const doc = addDocument('file:///ws/r2.logpush.json', 'logpush-job', JSON.stringify({ dataset: 'http_requests', destination_conf: confs[7] }));
  const ctx = { backend: { endpoints: async () => { throw new Error('the backend was asked'); } } } as unknown as Ctx;
  await assert.rejects(commands['edgekit.logpush.proveOwnership'](ctx)(doc.uri) as Promise<unknown>,
    /sends its logs to r2:\/\/b\/logs, for which the platform asks no ownership challenge/);
});

test('Prove Ownership writes the token where it counts and in the document\'s own layout', async () => {
  // With two "ownership_challenge" members, jsonc-parser's modify set the first, and the last (the one JSON.parse and the platform
  // keep) was still sent; in a tab-indented document it re-indented the member before it with two spaces.
  fake.folderSettings.set('/ws', new Map());
  const waited: (string | undefined)[][] = [];
  const server = await startServer((req, res): void => {
    if (req.url.includes('/ownership')) waited.push(fake.progressRunning.map((p) => p.title));
    res.setHeader('content-type', 'application/json');
    const reply = (result: unknown): void => { res.end(JSON.stringify({ success: true, errors: [], messages: [], result })); };
    if (/\/zones\?/.test(req.url)) return reply([{ id: 'z1', name: 'a.example', plan: { legacy_id: 'enterprise' } }]);
    if (req.url.endsWith('/zones/z1/logpush/ownership')) return reply({ filename: 'ownership-challenge.txt', message: '', valid: true });
    if (req.url.endsWith('/zones/z1/logpush/ownership/validate')) return reply({ valid: JSON.parse(req.body).ownership_challenge === 'TOK' });
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 7003, message: `no route ${req.url}` }], messages: [], result: null }));
  });
  const ctx = {
    backend: { endpoints: async () => ({ embedded: false, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    jobScopes: told(),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    extension: { globalState: memento(), globalStorageUri: Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-storage-'))) },
  } as unknown as Ctx;
  const conf = 's3://b/logs?region=us-east-1';
  try {
    const twice = addDocument('file:///ws/twice.logpush.json', 'logpush-job', `{\n  "destination_conf": "${conf}",\n  "ownership_challenge": "OLD1",\n  "ownership_challenge": "OLD2"\n}\n`);
    await commands['edgekit.logpush.proveOwnership'](ctx)(twice.uri, 'z1', 'TOK');
    assert.equal(JSON.parse(twice.getText()).ownership_challenge, 'TOK');
    // ux1: the backend writing the file and confirming the token (a real destination: seconds) showed nothing meanwhile.
    assert.deepEqual(waited, [['EdgeKit: asking the backend to write an ownership challenge into s3://b/logs'], ['EdgeKit: validating the ownership challenge of s3://b/logs']]);
    const tabs = addDocument('file:///ws/tabs.logpush.json', 'logpush-job', `{\r\n\t"name": "x",\r\n\t"destination_conf": "${conf}"\r\n}\r\n`);
    await commands['edgekit.logpush.proveOwnership'](ctx)(tabs.uri, 'z1', 'TOK');
    assert.equal(tabs.getText(), `{\r\n\t"name": "x",\r\n\t"destination_conf": "${conf}",\r\n\t"ownership_challenge": "TOK"\r\n}\r\n`);
    assert.deepEqual(toldScopes, [twice.uri, tabs.uri].map((uri) => ({ uri: uri.toString(), scope: 'zone' })), 'proved for a zone: checked as its job');
  } finally {
    await server.close();
  }
});

test('Update asks before setting back what changed on the backend since the document was read (a job disabled in the view)', async () => {
  fake.folderSettings.set('/ws', new Map());
  let stored: Record<string, unknown> = { ...JOB };
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'PUT') stored = { ...stored, ...JSON.parse(req.body) };
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: stored }));
  });
  const asked: { question: string; detail?: string }[] = [];
  let answer: string | undefined;
  const ctx = {
    backend: { endpoints: async () => ({ embedded: false, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    zones: { refresh() {} },
    ui: { ask: async (question: string, _o: string[], opts: { detail?: string }) => { asked.push({ question, detail: opts.detail }); return answer; } },
    jobScopes: told(),
    server: { request: async () => ({}) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  try {
    const opened = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    const doc = fake.documents.get(opened.uri)!;
    await commands['edgekit.logpush.disableJob'](ctx)({ job: JOB, place: ZONE });
    const { editDocument } = await import('./vscode');
    editDocument(doc, doc.getText().replace('"name": "edge"', '"name": "edge2"'));
    const puts = () => server.received.filter((r) => r.method === 'PUT').length;
    const before = puts();
    assert.equal(await commands['edgekit.logpush.updateJob'](ctx)(opened.uri), undefined, 'dismissed: nothing sent');
    assert.equal(puts(), before);
    assert.match(asked[0].question, /Logpush job 5 "edge" of zone a\.example changed on the backend since edge-5\.logpush\.json was read \("enabled"\)\. Send the document's values anyway\?/);
    assert.equal(asked[0].detail, 'enabled: false on the backend, true in the document.');
    // (ui12: the untitled document was named by its whole path, "/ws/edge-5.logpush.json was read", as if written there)
    answer = 'Send Anyway';
    await commands['edgekit.logpush.updateJob'](ctx)(opened.uri);
    assert.equal(puts(), before + 1);
    assert.equal(stored.enabled, true);
    // Sent: what the backend now has is what the document was read as; another edit asks nothing.
    editDocument(doc, doc.getText().replace('"name": "edge2"', '"name": "edge3"'));
    await commands['edgekit.logpush.updateJob'](ctx)(opened.uri);
    assert.equal(asked.length, 2, 'asked when dismissed and when sent anyway, not for the third update');
    assert.equal(stored.name, 'edge3');
  } finally {
    await server.close();
  }
});

/**
 * A backend holding job 5 of zone z1 as the platform does: GET reads it, PUT changes the members it is sent and keeps the others
 * (the docs' "Enable (update) a job" sends `{"enabled": true}` alone). Every question is recorded and answered from `answers`.
 */
async function statefulJob(job: Record<string, unknown>): Promise<{ server: TestServer; ctx: Ctx; stored: () => Record<string, unknown>;
  asked: Asked[]; answers: (string | undefined)[]; puts: () => Record<string, unknown>[] }> {
  let stored = { ...job };
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    const reply = (result: unknown): void => { res.end(JSON.stringify({ success: true, errors: [], messages: [], result })); };
    if (req.url.endsWith('/zones/z1/logpush/jobs/5')) {
      if (req.method === 'PUT') stored = { ...stored, ...JSON.parse(req.body) as object, id: 5 };
      return reply(stored);
    }
    if (req.url.endsWith('/zones/z1/logpush/jobs')) return reply([stored]);
    if (/\/zones\?/.test(req.url)) return reply([{ id: 'z1', name: 'a.example', plan: { legacy_id: 'enterprise' } }]);
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 7003, message: `no route ${req.url}` }], messages: [], result: null }));
  });
  const { asked, answers, ui } = recordedQuestions('throw');
  const ctx = {
    backend: { endpoints: async () => ({ embedded: false, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    zones: { refresh() {} },
    ui,
    jobScopes: told(),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    extension: { globalState: memento(), globalStorageUri: Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-storage-'))) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  const puts = () => server.received.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body) as Record<string, unknown>);
  return { server, ctx, stored: () => stored, asked, answers, puts };
}

const jobText = (enabled: boolean, name = 'edge') =>
  `{\n  "id": 5,\n  "name": "${name}",\n  "dataset": "http_requests",\n  "enabled": ${enabled},\n  "destination_conf": "${JOB.destination_conf}"\n}\n`;

test('Disable and Enable run on a job document write its "enabled", so an Update from it keeps the job as they left it', async () => {
  // ui14's walk: "Disable Logpush Job" from the palette on an open job document disabled the job and left the document saying
  // "enabled": true; the next "Update Logpush Job" from it turned the job back on without a word.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, stored, puts } = await statefulJob({ ...JOB, last_complete: undefined });
  try {
    const doc = addDocument('file:///ws/edge.logpush.json', 'logpush-job', jobText(true));
    await commands['edgekit.logpush.disableJob'](ctx)();
    assert.equal(stored().enabled, false);
    assert.equal(doc.getText(), jobText(false), 'the value alone replaced, in the document\'s layout');
    assert.equal(fake.messages.at(-1)?.text, 'Disabled Logpush job 5 "edge" of zone a.example; edge.logpush.json says "enabled": false now.');
    // The update sends what the document now says, and asks nothing (the fake UI throws on a question).
    const { editDocument } = await import('./vscode');
    editDocument(doc, doc.getText().replace('"name": "edge"', '"name": "edge2"'));
    await commands['edgekit.logpush.updateJob'](ctx)(doc.uri);
    assert.deepEqual([puts().at(-1)?.enabled, stored().enabled, stored().name], [false, false, 'edge2']);
    await commands['edgekit.logpush.enableJob'](ctx)(doc.uri);
    assert.equal(stored().enabled, true);
    assert.equal(doc.getText(), jobText(true, 'edge2'));
    // Run on the Zones view's item, the command acts on the job only: no document is edited behind the user's back (an Update
    // from one asks, below).
    await commands['edgekit.logpush.disableJob'](ctx)({ job: stored(), place: ZONE });
    assert.equal(doc.getText(), jobText(true, 'edge2'));
    assert.equal(fake.messages.at(-1)?.text, 'Disabled Logpush job 5 "edge2" of zone a.example.');
  } finally {
    await server.close();
  }
});

// rv26: a document read from the backend (an Update's answer, Open Logpush Job Configuration) whose job Disable or Enable then set from the
// document kept its old reading's "enabled": the job turned back in the Zones view, the next Update from the document (saying what
// the command wrote) turned it again without a word (setBack saw no change since the reading; the state question is for documents
// never read).
test('Disable or Enable from a document read from the backend: a later turn in the view is asked about before an Update sets it back', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, stored, asked, answers, puts } = await statefulJob({ ...JOB, last_complete: undefined });
  try {
    const doc = addDocument('file:///ws/read.logpush.json', 'logpush-job', jobText(true));
    await commands['edgekit.logpush.updateJob'](ctx)(doc.uri); // read: the update's answer
    await commands['edgekit.logpush.disableJob'](ctx)(doc.uri);
    assert.equal(doc.getText(), jobText(false));
    await commands['edgekit.logpush.enableJob'](ctx)({ job: stored(), place: ZONE });
    assert.equal(stored().enabled, true);
    const sent = puts().length;
    answers.push(undefined);
    assert.equal(await commands['edgekit.logpush.updateJob'](ctx)(doc.uri), undefined, 'dismissed: nothing sent');
    assert.equal(puts().length, sent);
    assert.equal(stored().enabled, true);
    assert.deepEqual(asked.map((a) => a.detail), ['enabled: true on the backend, false in the document.']);
  } finally {
    await server.close();
  }
});

test('Update from a document not read from the backend asks before turning the job on or off; one without "enabled" leaves it', async () => {
  // A document whose "enabled" differs from the job's, with no reading to tell whether that is the user's edit or older than a
  // Disable (the view, the palette, the dashboard): the update turned the job on (or off) without a word.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, stored, asked, answers, puts } = await statefulJob({ ...JOB, enabled: false, last_complete: undefined });
  try {
    // (A URI no other test used: the commands remember, for the session, which documents they read the job into.)
    const doc = addDocument('file:///ws/kept.logpush.json', 'logpush-job', jobText(true, 'edge2'));
    answers.push(undefined);
    assert.equal(await commands['edgekit.logpush.updateJob'](ctx)(doc.uri), undefined, 'dismissed: nothing sent');
    assert.deepEqual(puts(), []);
    assert.deepEqual(asked[0], {
      question: 'Logpush job 5 "edge" of zone a.example is disabled on the backend, and kept.logpush.json says "enabled": true. Enable it with this update?',
      options: ['Enable It', 'Keep It Disabled'],
      detail: 'kept.logpush.json was not read from the backend here, so whether its "enabled" is your edit or older than the job\'s state cannot be told. ' +
        '"Keep It Disabled" sends the rest and writes "enabled": false into kept.logpush.json.',
    });
    // Kept: the rest is sent with the job's own state, and the document says it (an edit to see and undo).
    answers.push('Keep It Disabled');
    await commands['edgekit.logpush.updateJob'](ctx)(doc.uri);
    assert.deepEqual([puts().at(-1)?.enabled, stored().enabled, stored().name], [false, false, 'edge2']);
    assert.equal(doc.getText(), jobText(false, 'edge2'));
    assert.equal(fake.messages.at(-1)?.text, 'Updated Logpush job 5 "edge2" of zone a.example, and kept it disabled; kept.logpush.json says "enabled": false now.');
    // Read now (the update's answer): "enabled" changed in the document since is the user's edit, sent as it is.
    const { editDocument } = await import('./vscode');
    editDocument(doc, jobText(true, 'edge2'));
    await commands['edgekit.logpush.updateJob'](ctx)(doc.uri);
    assert.equal(stored().enabled, true);
    assert.equal(asked.length, 2);
    // Another document, never read: the other way round, and answered the other way.
    const off = addDocument('file:///ws/off.logpush.json', 'logpush-job', jobText(false, 'edge3'));
    answers.push('Disable It');
    await commands['edgekit.logpush.updateJob'](ctx)(off.uri);
    assert.equal(asked[2].question, 'Logpush job 5 "edge2" of zone a.example is enabled on the backend, and off.logpush.json says "enabled": false. Disable it with this update?');
    assert.deepEqual(asked[2].options, ['Disable It', 'Keep It Enabled']);
    assert.deepEqual([stored().enabled, stored().name], [false, 'edge3']);
    assert.equal(off.getText(), jobText(false, 'edge3'), 'sent as it says: nothing to write');
    // A document without "enabled" says nothing of the state: not asked, not sent, and the platform's update keeps it.
    const bare = addDocument('file:///ws/bare.logpush.json', 'logpush-job', JSON.stringify({ id: 5, name: 'edge4', dataset: 'http_requests', destination_conf: JOB.destination_conf }));
    await commands['edgekit.logpush.updateJob'](ctx)(bare.uri);
    assert.equal(asked.length, 3);
    assert.ok(!('enabled' in puts().at(-1)!), JSON.stringify(puts().at(-1)));
    assert.deepEqual([stored().enabled, stored().name], [false, 'edge4']);
  } finally {
    await server.close();
  }
});

test('Update sends only what the platform\'s update takes, and says first when the document changes what only a new job can', async () => {
  // The PUT carried the document's "dataset" (and "kind"), which the platform's update does not take (JobUpdateParams; the docs:
  // kind only on create): a job document edited to another dataset either failed with the backend's words or, on a platform that
  // ignores it, "updated" a job that still pushes the old dataset.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  const asked: { question: string; options: string[]; detail?: string }[] = [];
  let answer: string | undefined;
  (ctx as unknown as { ui: unknown }).ui = { ask: async (question: string, options: string[], opts: { modal: boolean; detail?: string }) => {
    assert.equal(opts.modal, true);
    asked.push({ question, options, detail: opts.detail });
    return answer;
  } };
  const { editDocument } = await import('./vscode');
  try {
    const opened = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    const doc = fake.documents.get(opened.uri)!;
    const puts = () => server.received.filter((r) => r.method === 'PUT');
    // The same dataset: not sent, nothing asked.
    editDocument(doc, doc.getText().replace('"name": "edge"', '"name": "edge2"'));
    await commands['edgekit.logpush.updateJob'](ctx)(opened.uri);
    assert.equal(asked.length, 0);
    assert.deepEqual(Object.keys(JSON.parse(puts()[0].body)).sort(), ['destination_conf', 'enabled', 'name']);
    // Another dataset (and kind): asked, with what differs and that it takes a new job; dismissed, nothing is sent.
    editDocument(doc, doc.getText().replace('"dataset": "http_requests"', '"dataset": "firewall_events",\n  "kind": "edge"'));
    assert.equal(await commands['edgekit.logpush.updateJob'](ctx)(opened.uri), undefined);
    assert.equal(puts().length, 1);
    assert.equal(asked.length, 1);
    assert.match(asked[0].question, /^Logpush job 5 "edge" of zone a\.example cannot change "dataset" or "kind": the platform sets them when a job is created\. edge-5\.logpush\.json changes them; it takes a new job\./);
    assert.equal(asked[0].detail, [
      'dataset: "http_requests" on the backend, "firewall_events" in the document.',
      'kind: "" on the backend, "edge" in the document.',
      'For the new job: remove "id" from the document and run "Create Logpush Job"; then delete job 5 if it should stop.',
      '"Update the Rest" sends the other members and leaves the job\'s dataset and kind as they are.',
    ].join('\n'));
    assert.deepEqual(asked[0].options, ['Update the Rest']);
    answer = 'Update the Rest';
    await commands['edgekit.logpush.updateJob'](ctx)(opened.uri);
    assert.equal(puts().length, 2);
    assert.ok(!/"dataset"|"kind"/.test(puts()[1].body), puts()[1].body);
  } finally {
    await server.close();
  }
});

test('Update whose read of the job failed still says which create-only members the update left as they were', async () => {
  // The question about "dataset" and "kind" needs the job as the backend has it. When that read failed (a 500, a timeout) and the
  // update then went through, the members were dropped from the PUT unsaid: "Updated Logpush job 5", the job still pushing the
  // old dataset.
  fake.folderSettings.set('/ws', new Map());
  let gets = 0;
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    if (req.url.endsWith('/zones/z1/logpush/jobs/5') && (req.method === 'PUT' || gets++ === 0)) {
      res.end(JSON.stringify({ success: true, errors: [], messages: [], result: { ...JOB, ...(req.method === 'PUT' ? JSON.parse(req.body) : {}) } }));
      return;
    }
    res.statusCode = 500;
    res.end(JSON.stringify({ success: false, errors: [{ code: 1000, message: 'try again' }], messages: [], result: null }));
  });
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    zones: { refresh() {} },
    ui: { ask: async () => { throw new Error('nothing to ask: the job could not be read'); } },
    jobScopes: told(),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    extension: { globalState: memento(), globalStorageUri: Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-storage-'))) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  const { editDocument } = await import('./vscode');
  try {
    const opened = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    const doc = fake.documents.get(opened.uri)!;
    editDocument(doc, doc.getText().replace('"dataset": "http_requests"', '"dataset": "firewall_events"'));
    fake.messages = [];
    await commands['edgekit.logpush.updateJob'](ctx)(opened.uri);
    const put = server.received.find((r) => r.method === 'PUT')!;
    assert.ok(!/"dataset"/.test(put.body), put.body);
    assert.equal(fake.messages.length, 1, JSON.stringify(fake.messages));
    assert.equal(fake.messages[0].kind, 'warning');
    assert.match(fake.messages[0].text, /^Updated Logpush job 5 "edge" of zone a\.example, but not its "dataset": it is still "http_requests" \(edge-5\.logpush\.json says "firewall_events"\); the platform sets it when a job is created\. /);
  } finally {
    await server.close();
  }
});

test('Create and Update ask before sending a job document with errors, naming the first one\'s line, before any other question', async () => {
  // They sent it and showed the API's refusal ("The job in x was refused: ..."), with nothing said about the squiggles: Send Request
  // asks first; so do they now. Declined: nothing is asked or sent.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  const asked: string[] = [];
  const details: (string | undefined)[] = [];
  let answer: string | undefined;
  const withErrors = {
    ...ctx,
    ui: { ask: async (q: string, _o: string[], opts: { detail?: string }) => { asked.push(q); details.push(opts.detail); return answer; } },
    jobScopes: told(),
    server: { request: async (_t: unknown, p: { problems?: boolean }) => ({ job: { dataset: 'http_requests', scope: 'zone' },
      ...(p.problems ? { problems: { errors: 2, warnings: 0, firstError: { line: 2, message: 'Unknown field "ClientIPP".' } } } : {}) }) },
  } as unknown as Ctx;
  try {
    const { logpushJobCommands } = await import('../../../client/src/commands/logpush');
    addDocument('file:///ws/new.logpush.json', 'logpush-job', JSON.stringify({ ...JOB, id: undefined, filter: '{"where":{"key":"ClientIPP","operator":"eq","value":"x"}}' }));
    const created = await logpushJobCommands['edgekit.logpush.createJob'](withErrors)('file:///ws/new.logpush.json');
    assert.equal(created, undefined);
    assert.deepEqual(asked, ['new.logpush.json has 2 errors, e.g. line 3: Unknown field "ClientIPP". The API will probably refuse the job. Create it anyway?']);
    assert.deepEqual(fake.quickPicks, [], 'no zone asked for');
    assert.equal(details[0], 'The setting "edgekit.logpush.confirmSendWithErrors" turns this question off.');
    addDocument('file:///ws/five.logpush.json', 'logpush-job', JSON.stringify({ ...JOB, id: 7, last_complete: undefined }));
    const updated = await commands['edgekit.logpush.updateJob'](withErrors)('file:///ws/five.logpush.json');
    assert.equal(updated, undefined);
    assert.match(asked[1], /^five\.logpush\.json has 2 errors, e\.g\. line 3: Unknown field "ClientIPP"\. The API will probably refuse the update\. Update job 7 anyway\?$/);
    assert.equal(server.received.length, 0, 'nothing sent or read');
    // Answered: the update goes on (and is sent).
    answer = 'Update Anyway';
    await commands['edgekit.logpush.updateJob'](withErrors)('file:///ws/five.logpush.json');
    assert.ok(server.received.some((r) => r.method === 'PUT' && r.url.endsWith('/zones/z1/logpush/jobs/7')), 'sent after the answer');
    // "edgekit.logpush.confirmSendWithErrors": false (the document's folder) sends without asking.
    fake.folderSettings.set('/ws', new Map([['logpush.confirmSendWithErrors', false]]));
    answer = undefined;
    const sent = server.received.length;
    await commands['edgekit.logpush.updateJob'](withErrors)('file:///ws/five.logpush.json');
    assert.equal(asked.length, 3, 'not asked again');
    assert.ok(server.received.length > sent, 'sent');
  } finally {
    await server.close();
  }
});

test('a dataset taken under a zone or an account: when the accounts cannot be listed (a token without account access), the zones are still offered, and the pick says why the accounts are not', async () => {
  // pickZoneOrAccount listed both and failed outright on either: a zone token could not create a zone firewall_events job.
  const { pickZoneOrAccount } = await import('../../../client/src/commands/api');
  const refused = { ok: false as const, error: 'GET /accounts: HTTP 403 Authentication error (code 10000)', errors: [], status: 403 };
  const api = {
    baseUrl: 'https://api.example/client/v4',
    listZones: async () => ({ ok: true as const, result: [{ id: 'z1', name: 'a.example', plan: { legacy_id: 'pro' } }], messages: [] }),
    listAccounts: async () => refused,
  } as never;
  fake.quickPickAnswers = ['a.example'];
  assert.deepEqual(await pickZoneOrAccount(api, undefined, 'Create the firewall_events job in which zone or account?'), { owner: { zone: 'z1' }, ownerName: 'a.example' });
  assert.deepEqual(fake.quickPicks[0].labels, ['a.example']);
  // Named directly: a zone is found; an account name is refused with the reason the accounts could not be read.
  assert.deepEqual(await pickZoneOrAccount(api, 'z1', 't'), { owner: { zone: 'z1' }, ownerName: 'a.example' });
  await assert.rejects(pickZoneOrAccount(api, 'Example Account', 't'), /No zone "Example Account" at https:\/\/api\.example\/client\/v4; the accounts could not be listed: GET \/accounts: HTTP 403/);
  assert.equal(fake.quickPicks[0].placeHolder, 'Pick a zone (the accounts could not be listed: GET /accounts: HTTP 403 Authentication error (code 10000))');
  // rv35: the other way round (an account token), the pick said "Pick a account (the zones could not be listed: …)".
  const accountsOnly = { ...(api as object), listZones: async () => ({ ...refused, error: 'GET /zones: HTTP 403' }),
    listAccounts: async () => ({ ok: true as const, result: [{ id: 'a1', name: 'Example Account' }], messages: [] }) } as never;
  fake.quickPickAnswers = ['Example Account'];
  assert.deepEqual(await pickZoneOrAccount(accountsOnly, undefined, 't'), { owner: { account: 'a1' }, ownerName: 'Example Account' });
  assert.equal(fake.quickPicks.at(-1)!.placeHolder, 'Pick an account (the zones could not be listed: GET /zones: HTTP 403)');
  // Both failing: the zones' error.
  const none = { ...(api as object), listZones: async () => ({ ...refused, error: 'GET /zones: HTTP 403' }) } as never;
  await assert.rejects(pickZoneOrAccount(none, undefined, 't'), /GET \/zones: HTTP 403/);
});

test('Update of a job the backend no longer has (deleted elsewhere, or the mock reset) says so, not "check the base URL and the zone id"', async () => {
  // Seen in the workbench: a job document opened from the Zones view, then "Reset Mock Backend", then Update: "The update of job 1
  // in …/fw-1.logpush.json was refused: Cannot update Logpush job 1 of zone "7fbe…" (PUT …): HTTP 404 Not Found: the URL or the
  // resource does not exist (check the base URL and the zone id). The API says: [1003] …", after a PUT that could not succeed.
  fake.folderSettings.set('/ws', new Map());
  let gone = false;
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    if (req.url.endsWith('/zones/z1/logpush/jobs/5') && !gone) {
      res.end(JSON.stringify({ success: true, errors: [], messages: [], result: JOB }));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 1003, message: 'Logpush job 5 not found in zone "a.example"' }], messages: [], result: null }));
  });
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    zones: { refresh() {} },
    ui: { ask: async () => { throw new Error('nothing to ask'); } },
    jobScopes: told(),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  try {
    const opened = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 5, name: 'edge' }, place: ZONE }) as { uri: string };
    gone = true;
    await assert.rejects(commands['edgekit.logpush.updateJob'](ctx)(opened.uri) as Promise<unknown>, (err: Error) => {
      assert.equal(err.message, 'Logpush job 5 is no longer in zone a.example (deleted, or the backend was reset, since edge-5.logpush.json was read): ' +
        'there is nothing to update. "Create Logpush Job" creates it anew from the document once its "id" is removed.');
      return true;
    });
    assert.deepEqual(server.received.filter((r) => r.method === 'PUT'), [], 'nothing sent');
  } finally {
    await server.close();
  }
});

test('Create Logpush Job on a firewall_events job that names ZoneName asks among the accounts saying why, and says why it went there', async () => {
  // documentInfo narrows such a job to the accounts (jobScopes, scopeField): the question read "in which account?" with no word of
  // why the zones were not offered, and with one account nothing was asked and the job went to it unexplained
  fake.folderSettings.set('/ws', new Map());
  const server = await startServer((req, res): void => {
    res.setHeader('content-type', 'application/json');
    const reply = (result: unknown): void => { res.end(JSON.stringify({ success: true, errors: [], messages: [], result })); };
    if (/\/accounts\?/.test(req.url)) return reply([{ id: 'a1', name: 'First' }, { id: 'a2', name: 'Second' }]);
    if (req.url.endsWith('/accounts/a2/logpush/jobs') && req.method === 'POST') return reply({ ...JSON.parse(req.body) as object, id: 12 });
    res.statusCode = 404;
    res.end(JSON.stringify({ success: false, errors: [{ code: 7003, message: `no route ${req.url}` }], messages: [], result: null }));
  });
  const ctx = {
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    extension: { globalState: memento(), globalStorageUri: Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-storage-'))) },
    zones: { refresh() {} },
    // (The embedded mock: its destination's missing ownership challenge is created anyway, cl14.)
    ui: { ask: async (_q: string, o: string[]) => (o.includes('Create on the Mock Anyway') ? 'Create on the Mock Anyway' : undefined) },
    jobScopes: told(),
    server: { request: async () => ({ job: { dataset: 'firewall_events', scope: 'account', scopeField: 'ZoneName' } }) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  try {
    const { logpushJobCommands } = await import('../../../client/src/commands/logpush');
    addDocument('file:///ws/fw.logpush.json', 'logpush-job', JSON.stringify({ name: 'fw', dataset: 'firewall_events', destination_conf: 's3://bucket/logs?region=us-east-1',
      output_options: { field_names: ['RayID', 'ZoneName'] } }));
    fake.quickPickAnswers = ['Second'];
    await logpushJobCommands['edgekit.logpush.createJob'](ctx)('file:///ws/fw.logpush.json');
    assert.equal(fake.quickPicks[0].title, 'Create the firewall_events job in which account? (ZoneName is a field of account-level firewall_events jobs only)');
    assert.ok(server.received.some((r) => r.method === 'POST' && r.url.endsWith('/accounts/a2/logpush/jobs')));
    assert.equal(fake.messages.at(-1)?.text, 'Created Logpush job 12 "fw" in account Second (ZoneName is a field of account-level firewall_events jobs only).');
    assert.deepEqual(toldScopes, [{ uri: 'file:///ws/fw.logpush.json', scope: 'account' }], 'the document is checked as an account\'s job');
  } finally {
    await server.close();
  }
});

test('Create asks first when the zone already has a job of the same name and destination (the button clicked again after a Create)', async () => {
  // The document of a job just created keeps no "id" and its title button stays "Create": a second click created a second job
  // with the same name, pushing the same logs to the same place twice (ui5's walk). Declined: nothing is sent.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  const asked: string[] = [];
  let answer: string | undefined;
  // (The embedded mock: its destination's missing ownership challenge is created anyway, cl14.)
  const asking = { ...ctx, ui: { ask: async (q: string, o: string[]) => {
    if (o.includes('Create on the Mock Anyway')) return 'Create on the Mock Anyway';
    asked.push(q);
    return answer;
  } }, jobScopes: told() } as unknown as Ctx;
  try {
    const { logpushJobCommands } = await import('../../../client/src/commands/logpush');
    const create = logpushJobCommands['edgekit.logpush.createJob'](asking);
    addDocument('file:///ws/other.logpush.json', 'logpush-job', JSON.stringify({ name: 'other', dataset: 'http_requests', destination_conf: JOB.destination_conf }));
    assert.equal(await create('file:///ws/other.logpush.json', 'z1'), undefined);
    assert.deepEqual(asked, ['Zone z1.example already has Logpush job 7 "other" with this destination. Create another job?']);
    assert.ok(!server.received.some((r) => r.method === 'POST'), 'nothing created');
    answer = 'Create Another';
    await create('file:///ws/other.logpush.json', 'z1');
    assert.ok(server.received.some((r) => r.method === 'POST' && r.url.endsWith('/zones/z1/logpush/jobs')), 'created when answered');
    // Another name, or another destination: not asked.
    addDocument('file:///ws/new.logpush.json', 'logpush-job', JSON.stringify({ name: 'new', dataset: 'http_requests', destination_conf: JOB.destination_conf }));
    addDocument('file:///ws/elsewhere.logpush.json', 'logpush-job', JSON.stringify({ name: 'other', dataset: 'http_requests', destination_conf: 's3://bucket/other?region=us-east-1' }));
    await create('file:///ws/new.logpush.json', 'z1');
    await create('file:///ws/elsewhere.logpush.json', 'z1');
    assert.equal(asked.length, 2);
  } finally {
    await server.close();
  }
});

test('the zone pick offers the zone selected in the Zones view first and says each zone\'s migration state as the view read it', async () => {
  // The picker listed "pro · <id>" in the API's order: the zone the user had just selected in the view was not the one Enter took,
  // and whether a zone was migrated was not said where a migration was started.
  const { pickZone, zoneHints } = await import('../../../client/src/commands/api');
  const zones = [
    { id: 'z1', name: 'a.example', plan: { legacy_id: 'business' } },
    { id: 'z2', name: 'b.example', plan: { legacy_id: 'pro' } },
    { id: 'z3', name: 'c.example', plan: { legacy_id: 'enterprise' } },
  ];
  const api = { baseUrl: 'https://api.example/client/v4', source: 'https://api.example/client/v4', listZones: async () => ({ ok: true as const, result: zones, messages: [] }) } as never;
  const ctx = {
    zones: {
      view: { selection: [{ zone: zones[1] }] },
      items: [{ zone: zones[0], status: { migration_state: 'migrated' } }, { zone: zones[1], status: { migration_state: 'start' } }],
      itemsFrom: 'https://api.example/client/v4', itemsAt: Date.now(),
    },
  } as never;
  fake.quickPickAnswers = ['b.example'];
  assert.equal((await pickZone(api, undefined, 'Migrate which zone?', undefined, zoneHints(ctx))).id, 'z2');
  const asked = fake.quickPicks.at(-1)!;
  assert.deepEqual(asked.labels, ['b.example', 'a.example', 'c.example']);
  assert.deepEqual(asked.descriptions, ['pro · migration not started · z2', 'business · migrated · z1', 'enterprise · z3']);
  assert.deepEqual(asked.details, ['selected in the Zones view', undefined, undefined]);
  // A job selected under a zone: its zone first. An account's job, or nothing selected: the API's order.
  const jobCtx = { zones: { view: { selection: [{ place: { owner: { zone: 'z3' }, ownerName: 'c.example' } }] }, items: [], itemsFrom: 'https://api.example/client/v4' } } as never;
  fake.quickPickAnswers = ['c.example'];
  await pickZone(api, undefined, 't', undefined, zoneHints(jobCtx));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['c.example', 'a.example', 'b.example']);
  const accountJob = { zones: { view: { selection: [{ place: { owner: { account: 'acc' }, ownerName: 'A' } }] }, items: [], itemsFrom: 'https://api.example/client/v4' } } as never;
  fake.quickPickAnswers = ['a.example'];
  await pickZone(api, undefined, 't', undefined, zoneHints(accountJob));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['a.example', 'b.example', 'c.example']);
  assert.deepEqual(fake.quickPicks.at(-1)!.descriptions, ['business · z1', 'pro · z2', 'enterprise · z3']);
  // No view yet (the command run before the view was shown).
  fake.quickPickAnswers = ['a.example'];
  await pickZone(api, undefined, 't', undefined, zoneHints({ zones: {} } as never));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['a.example', 'b.example', 'c.example']);
});

test('the zone-or-account pick offers the zone or account selected in the Zones view first', async () => {
  const { pickZoneOrAccount, zoneHints } = await import('../../../client/src/commands/api');
  const api = {
    baseUrl: 'https://api.example/client/v4',
    source: 'https://api.example/client/v4',
    listZones: async () => ({ ok: true as const, result: [{ id: 'z1', name: 'a.example', plan: { legacy_id: 'pro' } }, { id: 'z2', name: 'b.example', plan: { legacy_id: 'pro' } }], messages: [] }),
    listAccounts: async () => ({ ok: true as const, result: [{ id: 'acc', name: 'Example Account' }], messages: [] }),
  } as never;
  fake.quickPickAnswers = ['Example Account'];
  const place = await pickZoneOrAccount(api, undefined, 't', zoneHints({ zones: { view: { selection: [{ account: { id: 'acc', name: 'Example Account' } }] }, items: [], itemsFrom: 'https://api.example/client/v4' } } as never));
  assert.deepEqual(place, { owner: { account: 'acc' }, ownerName: 'Example Account' });
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['Example Account', 'a.example', 'b.example']);
  assert.deepEqual(fake.quickPicks.at(-1)!.details, ['selected in the Zones view', undefined, undefined]);
  fake.quickPickAnswers = ['b.example'];
  await pickZoneOrAccount(api, undefined, 't', zoneHints({ zones: { view: { selection: [{ place: { owner: { zone: 'z2' }, ownerName: 'b.example' } }] }, items: [], itemsFrom: 'https://api.example/client/v4' } } as never));
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['b.example', 'a.example', 'Example Account']);
  fake.quickPickAnswers = ['a.example'];
  await pickZoneOrAccount(api, undefined, 't');
  assert.deepEqual(fake.quickPicks.at(-1)!.labels, ['a.example', 'b.example', 'Example Account']);
  assert.deepEqual(fake.quickPicks.at(-1)!.details, [undefined, undefined, undefined]);
});

test('Update that moves a job to a destination the platform challenges, with no "ownership_challenge", asks first as Create does', async () => {
  // cl14 left it: Create asked, an Update changing destination_conf sent the job without a token (the platform refuses such an
  // update; the mock took it with a note). The same destination as the job's is not asked about (no challenge for an update).
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, stored, asked, answers, puts } = await statefulJob({ ...JOB, last_complete: undefined });
  try {
    const moved = (conf: string) => `{\n  "id": 5,\n  "name": "edge",\n  "dataset": "http_requests",\n  "enabled": true,\n  "destination_conf": "${conf}"\n}\n`;
    const doc = addDocument('file:///ws/moved.logpush.json', 'logpush-job', moved('s3://other-bucket/logs?region=us-east-1'));
    answers.push(undefined);
    assert.equal(await commands['edgekit.logpush.updateJob'](ctx)(doc.uri), undefined, 'dismissed: nothing sent');
    assert.deepEqual(puts(), []);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].question, 'moved.logpush.json has no "ownership_challenge": the platform refuses a job to s3://other-bucket/logs without one.');
    // The embedded mock (the stand-in's default backend) takes it with a note: offered beside the proof, in Update's words
    assert.deepEqual(asked[0].options, ['Prove Ownership First', 'Update on the Mock Anyway']);
    assert.match(asked[0].detail ?? '', /then updates the job\./);
    answers.push('Update on the Mock Anyway');
    await commands['edgekit.logpush.updateJob'](ctx)(doc.uri);
    assert.equal(stored().destination_conf, 's3://other-bucket/logs?region=us-east-1');
    assert.equal(asked.length, 2);
    // The job's own destination now: nothing moves, nothing asked
    await commands['edgekit.logpush.updateJob'](ctx)(doc.uri);
    assert.equal(asked.length, 2);
    // A destination the platform does not challenge (its own keys): sent without a question
    const keyed = 's3://third-bucket/logs?region=us-east-1&access-key-id=AK&secret-access-key=SK';
    const own = addDocument('file:///ws/keyed.logpush.json', 'logpush-job', moved(keyed));
    await commands['edgekit.logpush.updateJob'](ctx)(own.uri);
    assert.equal(asked.length, 2);
    assert.equal(stored().destination_conf, keyed);
  } finally {
    await server.close();
  }
});

test('a job read from the backend is named <name>-<id>.logpush.json with the id made file-safe as the name is', () => {
  // sec5: the id went into the name as the backend wrote it, only the name went through fileSafe.
  assert.equal(jobDocumentName('edge', 5), 'edge-5.logpush.json');
  assert.equal(jobDocumentName('', 5), 'job-5.logpush.json');
  assert.equal(jobDocumentName(undefined, 5), 'job-5.logpush.json');
  assert.equal(jobDocumentName('a/b', 1e21), 'a_b-1e_21.logpush.json');
  assert.equal(jobDocumentName('edge', '../../x y'), 'edge-.._.._x_y.logpush.json', 'no separator: the name stays one file in the folder');
});

test('Open Logpush Job Configuration names the document with the id made file-safe', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx } = await backend();
  try {
    const r = await commands['edgekit.logpush.openJob'](ctx)({ job: { id: 1e21, name: 'edge' }, place: ZONE }) as { uri: string };
    assert.equal(r.uri, Uri.joinPath(Uri.file('/ws'), 'edge-1e_21.logpush.json').with({ scheme: 'untitled' }).toString());
  } finally {
    await server.close();
  }
});
