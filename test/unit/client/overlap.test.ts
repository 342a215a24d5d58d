// Commands that overlap (docs/architecture.md, "Commands that overlap (cc1)"): the same Logpush command run twice on one job or
// document before the first ends (a double click on the Zones view's inline action, Enter twice in the palette), or two of them
// (Enable while Delete waits). A stand-in backend holds the first request open until the test lets it go, so the overlap is
// certain: the second command starts once the first request has arrived (no sleeps).
import { fake, resetFake, addDocument, memento, CancellationError, Uri } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerResponse } from 'node:http';
import { logpushJobCommands } from '../../../client/src/commands/logpush';
import { logpushJobLifecycleCommands as lifecycle } from '../../../client/src/commands/logpushJobs';
import { startServer, type Received, type TestServer } from '../http/server';
import { JobScopes } from '../../../client/src/jobScopes';
import type { Ctx } from '../../../client/src/ctx';
import { migrate } from '../../../client/src/commands/migration';
import { cancelWait } from '../../../client/src/commands/migrationWait';
import { ctxFor, never, until, withMock } from './migrationCtx';
import { gatewayCommands, send } from '../../../client/src/commands/gateway';
import { Responses } from '../../../client/src/views/responses';

beforeEach(() => resetFake());

const ZONE = { owner: { zone: 'z1' }, ownerName: 'a.example' };
/** An R2 bucket written as S3-compatible storage: no ownership challenge is asked for. */
const DEST = 's3://bucket/logs?region=auto&endpoint=https://acct.r2.cloudflarestorage.com';
const JOB = { id: 5, name: 'edge', dataset: 'http_requests', destination_conf: DEST, enabled: true };

/** A promise and its resolve, to wait for an event or to let one happen. */
function signal<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/**
 * Zone `zone` (z1) with job 5, as a backend that deletes and creates for real (a second DELETE of job 5 is a 404, as on the platform).
 * The first request `hold` matches is kept open: `arrived` resolves when it comes, `release()` answers it.
 */
async function backend(hold: (r: Received) => boolean, zone = 'z1', embedded = true) {
  const arrived = signal();
  let held: (() => void) | undefined;
  let holding = true;
  let jobs: Record<string, unknown>[] = [{ ...JOB }];
  let next = 11;
  const answer = (req: Received, res: ServerResponse): void => {
    res.setHeader('content-type', 'application/json');
    const reply = (result: unknown): void => { res.end(JSON.stringify({ success: true, errors: [], messages: [], result })); };
    const missing = (): void => {
      res.statusCode = 404;
      res.end(JSON.stringify({ success: false, errors: [{ code: 1002, message: `Job not found: ${req.url}` }], messages: [], result: null }));
    };
    if (/\/zones\?/.test(req.url)) return reply([{ id: zone, name: zone === 'z1' ? 'a.example' : 'b.example', plan: { legacy_id: 'enterprise' } }]);
    if (/\/accounts\?/.test(req.url)) return reply([]);
    if (req.url.endsWith(`/zones/${zone}/logpush/jobs`) && req.method === 'POST') {
      const job = { ...JSON.parse(req.body) as object, id: next++ };
      jobs.push(job);
      return reply(job);
    }
    if (req.url.endsWith(`/zones/${zone}/logpush/jobs`)) return reply(jobs);
    const id = Number(new RegExp(`/zones/${zone}/logpush/jobs/(\\d+)$`).exec(req.url)?.[1]);
    const job = jobs.find((j) => j.id === id);
    if (!job) return missing();
    if (req.method === 'DELETE') { jobs = jobs.filter((j) => j !== job); return reply({ id }); }
    if (req.method === 'PUT') Object.assign(job, JSON.parse(req.body));
    return reply(job);
  };
  const server: TestServer = await startServer((req, res) => {
    if (holding && hold(req)) {
      holding = false;
      held = () => answer(req, res);
      arrived.resolve();
      return;
    }
    answer(req, res);
  });
  const ctx = {
    backend: { endpoints: async () => ({ embedded, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
    zones: { refresh() {} },
    ui: { ask: async (_q: string, options: string[]) => options[0] },
    jobScopes: new JobScopes(() => undefined),
    server: { request: async () => ({ job: { dataset: 'http_requests', scope: 'zone' } }) },
    extension: { globalState: memento(), globalStorageUri: Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-storage-'))) },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  const sent = (method: string) => server.received.filter((r) => r.method === method && /\/logpush\/jobs/.test(r.url)).length;
  return { server, ctx, arrived: arrived.promise, release: () => held?.(), sent };
}

test('Delete clicked twice on a job deletes it once, and the second click says the first is still running, not an error', async () => {
  // The second click asked again and sent a second DELETE, which the platform answers 404: "Job not found" as an error, of a job
  // the first click had just deleted.
  const { server, ctx, arrived, release, sent } = await backend((r) => r.method === 'DELETE');
  try {
    const first = lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE });
    await arrived;
    await assert.rejects(lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE }) as Promise<unknown>, CancellationError);
    release();
    assert.deepEqual(await first, { id: 5 });
    assert.equal(sent('DELETE'), 1);
    assert.deepEqual(fake.messages.map((m) => m.text), [
      'Deleting Logpush job 5 "edge" of zone a.example is still under way; wait for it to end.',
      'Deleted Logpush job 5 "edge" of zone a.example.',
    ]);
  } finally {
    await server.close();
  }
});

test('Enable run while Delete waits for its answer sends nothing, and says what is running on the job', async () => {
  const { server, ctx, sent } = await backend(() => false);
  const asked = signal();
  const answer = signal<string>();
  (ctx as unknown as { ui: unknown }).ui = { ask: () => { asked.resolve(); return answer.promise; } };
  try {
    const del = lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE });
    await asked.promise;
    await assert.rejects(lifecycle['edgekit.logpush.enableJob'](ctx)({ job: JOB, place: ZONE }) as Promise<unknown>, CancellationError);
    answer.resolve('Delete');
    assert.deepEqual(await del, { id: 5 });
    assert.equal(sent('PUT'), 0);
    assert.equal(fake.messages[0]?.text, 'Deleting Logpush job 5 "edge" of zone a.example is still under way; wait for it to end.');
    // Once it ended, the job is free again (here: gone, said so).
    await assert.rejects(lifecycle['edgekit.logpush.enableJob'](ctx)({ job: JOB, place: ZONE }) as Promise<unknown>, /Job not found/);
  } finally {
    await server.close();
  }
});

test('Delete of a job another window or client already deleted says so as information, forgets its documents and refreshes', async () => {
  // The backend's 404 to the DELETE was shown as an error ("Job not found"), for a job that is gone as the user wanted; its
  // documents kept pointing at it and the Zones view kept showing it.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, sent } = await backend(() => false);
  let refreshed = 0;
  (ctx as unknown as { zones: unknown }).zones = { refresh: () => { refreshed++; } };
  try {
    const doc = await lifecycle['edgekit.logpush.openJob'](ctx)({ job: JOB, place: ZONE }) as { uri: string };
    // Another client deletes the job.
    const gone = await fetch(`${server.url}/client/v4/zones/z1/logpush/jobs/5`, { method: 'DELETE' });
    assert.equal(gone.status, 200);
    assert.equal(await lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE }), undefined);
    assert.equal(sent('DELETE'), 2);
    assert.deepEqual(fake.messages.map((m) => `${m.kind} ${m.text}`), ['info Logpush job 5 "edge" of zone a.example was already deleted.']);
    assert.equal(refreshed, 1);
    // Forgotten: its document's job is looked for again (not read at the place remembered), and not found.
    await assert.rejects(lifecycle['edgekit.logpush.updateJob'](ctx)(doc.uri) as Promise<unknown>, /No Logpush job 5 in the zones of /);
  } finally {
    await server.close();
  }
});

test('Delete answered 404 for another reason than the job being gone (a wrong zone id, a wrong API path) is an error, forgets nothing', async () => {
  // rv38: any 404 to the DELETE was taken for "already deleted": a job document remembering a zone id the backend does not know
  // (or an API base URL whose path is wrong) said the job "was already deleted", as information, and forgot where its job lives,
  // while the job itself was still pushing logs. The owner's job list is read to tell: a 404 counts as gone only when the list
  // reads and the job is not in it.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, sent } = await backend(() => false);
  let refreshed = 0;
  (ctx as unknown as { zones: unknown }).zones = { refresh: () => { refreshed++; } };
  const WRONG = { owner: { zone: 'zz' }, ownerName: 'a.example' };
  try {
    await assert.rejects(lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: WRONG }) as Promise<unknown>, /Job not found: \/client\/v4\/zones\/zz\/logpush\/jobs\/5/);
    assert.equal(sent('DELETE'), 1);
    assert.deepEqual(fake.messages.filter((m) => /already deleted/.test(m.text)), []);
    assert.equal(refreshed, 0);
    // The job lives on where it was: a delete at its real place deletes it.
    assert.deepEqual(await lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE }), { id: 5 });
  } finally {
    await server.close();
  }
});

test('Delete on one backend does not hold up the job of the same zone id and job id on another', async () => {
  // Zone and job ids are no backend's own (the embedded mock and a standalone one share theirs): keyed on owner and id alone, the
  // standalone's job 5 of z1 was refused as "still under way" while the embedded mock's was being deleted.
  const embedded = await backend((r) => r.method === 'DELETE');
  const standalone = await backend(() => false, 'z1', false);
  try {
    const first = lifecycle['edgekit.logpush.deleteJob'](embedded.ctx)({ job: JOB, place: ZONE });
    await embedded.arrived;
    assert.deepEqual(await lifecycle['edgekit.logpush.deleteJob'](standalone.ctx)({ job: JOB, place: ZONE }), { id: 5 });
    embedded.release();
    assert.deepEqual(await first, { id: 5 });
    assert.deepEqual([embedded.sent('DELETE'), standalone.sent('DELETE')], [1, 1]);
  } finally {
    await embedded.server.close();
    await standalone.server.close();
  }
});

test('Create run twice on one document before the first answer creates one job', async () => {
  // Both runs listed the zone's jobs before either was created, so neither found the twin to ask about: two jobs pushed the same
  // logs to the same place.
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, arrived, release, sent } = await backend((r) => r.method === 'POST');
  const doc = addDocument('file:///ws/p.logpush.json', 'logpush-job', `{\n  "name": "p",\n  "dataset": "http_requests",\n  "destination_conf": "${DEST}"\n}\n`);
  const create = logpushJobCommands['edgekit.logpush.createJob'](ctx);
  try {
    const first = create(doc.uri, 'z1');
    await arrived;
    await assert.rejects(create(doc.uri, 'z1') as Promise<unknown>, CancellationError);
    release();
    assert.equal((await first as { id: number }).id, 11);
    assert.equal(sent('POST'), 1);
    assert.equal(fake.messages[0]?.text, 'Creating a Logpush job from p.logpush.json is still under way; wait for it to end.');
  } finally {
    await server.close();
  }
});

test('Update run twice from one job document before the first answer sends one update, and a Delete meanwhile sends nothing', async () => {
  fake.folderSettings.set('/ws', new Map());
  const { server, ctx, arrived, release, sent } = await backend((r) => r.method === 'PUT');
  const doc = addDocument('file:///ws/edge.logpush.json', 'logpush-job', `${JSON.stringify({ ...JOB, name: 'renamed' }, null, 2)}\n`);
  const update = lifecycle['edgekit.logpush.updateJob'](ctx);
  try {
    const first = update(doc.uri);
    await arrived;
    await assert.rejects(update(doc.uri) as Promise<unknown>, CancellationError);
    await assert.rejects(lifecycle['edgekit.logpush.deleteJob'](ctx)({ job: JOB, place: ZONE }) as Promise<unknown>, CancellationError);
    release();
    assert.equal((await first as { name: string }).name, 'renamed');
    assert.equal(sent('PUT'), 1);
    assert.equal(sent('DELETE'), 0);
    assert.deepEqual(fake.messages.slice(0, 2).map((m) => m.text), Array(2).fill('Updating Logpush job 5 of zone a.example from edge.logpush.json is still under way; wait for it to end.'));
  } finally {
    await server.close();
  }
});

test('A migration waiting on one backend refuses a second run of its zone there, not on another backend with the same zone ids', async () => {
  // Zone ids are no backend's own (the embedded mock and a standalone one share theirs): the run in progress was keyed on the zone
  // id alone, so a migration of pro.example on the standalone mock was refused as "already in progress" while the embedded mock's
  // waited for its review. The embedded mock restarted on another port (edgekit.mock.port 0) is the same backend, with the same
  // state file: keyed on the API base URL (lf21; the job guards key on Api.source), the second run was not refused after a restart.
  await withMock((embedded) => withMock((restarted) => withMock(async (standalone) => {
    const first = ctxFor(embedded, (q, options) => (/^Review the new configuration/.test(q) ? never() : options[0]));
    const run = migrate(first.ctx, 'pro.example');
    await until('the first run\'s review', () => first.asked.find((a) => /^Review the new configuration/.test(a.q)));
    // Refused as the other overlaps are (cc2): said as information, then ended quietly; an error said something had gone wrong.
    // In the other overlaps' words (rv39: "A migration of pro.example is already in progress.", from a guard of its own).
    await assert.rejects(migrate(ctxFor(embedded, (_q, options) => options[0]).ctx, 'pro.example'), CancellationError);
    await assert.rejects(migrate(ctxFor(restarted, (_q, options) => options[0]).ctx, 'pro.example'), CancellationError);
    assert.deepEqual(fake.messages.filter((m) => /under way/.test(m.text)).map((m) => m.text), Array(2).fill('Migrating pro.example is still under way; wait for it to end.'));
    const other = await migrate(ctxFor(standalone, (_q, options) => options[0], { embedded: false }).ctx, 'pro.example');
    assert.equal(other.name, 'migrated', JSON.stringify(other));
    await cancelWait('pro.example');
    assert.equal((await run).name, 'cancelled');
  })));
});

test('A job document opened from one backend is updated on another as that backend has it, not where the first one kept it', async () => {
  // edgekit.api.baseUrl switched (the embedded mock, then a standalone one): the document's place, remembered from the first
  // backend, was used on the second: its zone z1 there has no job 5, and the update was refused as "deleted, or the backend was
  // reset", though the second backend has job 5 in its zone z2.
  fake.folderSettings.set('/ws', new Map());
  const a = await backend(() => false);
  const b = await backend(() => false, 'z2', false);
  try {
    const opened = await lifecycle['edgekit.logpush.openJob'](a.ctx)({ job: JOB, place: ZONE }) as { uri: string };
    const doc = fake.documents.get(opened.uri)!;
    const updated = await lifecycle['edgekit.logpush.updateJob'](b.ctx)(doc.uri) as { id: number };
    assert.equal(updated.id, 5);
    assert.deepEqual(b.server.received.filter((r) => r.method === 'PUT').map((r) => r.url), ['/client/v4/zones/z2/logpush/jobs/5']);
  } finally {
    await a.server.close();
    await b.server.close();
  }
});

test('A job document opened from the embedded mock still knows its job once the mock restarted on another port', async () => {
  // edgekit.mock.port is 0 (any free port) by default: each start of the embedded mock has another URL, but the same state file, so
  // the same zones and jobs. Keyed on the URL alone, the document read before a restart was taken as read from another backend:
  // an Update sent back, unasked, what had changed on the backend since it was read (here the job's name).
  fake.folderSettings.set('/ws', new Map());
  const before = await backend(() => false);
  const after = await backend(() => false);
  const asked: string[] = [];
  (after.ctx as unknown as { ui: unknown }).ui = { ask: async (q: string) => { asked.push(q); return undefined; } };
  try {
    const opened = await lifecycle['edgekit.logpush.openJob'](before.ctx)({ job: JOB, place: ZONE }) as { uri: string };
    const doc = fake.documents.get(opened.uri)!;
    const renamed = await fetch(`${after.server.url}/client/v4/zones/z1/logpush/jobs/5`, { method: 'PUT', body: JSON.stringify({ name: 'renamed' }) });
    assert.equal(renamed.status, 200);
    assert.equal(await lifecycle['edgekit.logpush.updateJob'](after.ctx)(doc.uri), undefined);
    assert.deepEqual(asked, [`Logpush job 5 "renamed" of zone a.example changed on the backend since ${doc.uri.path.split('/').pop()} was read ("name"). Send the document's values anyway?`]);
    assert.equal(after.sent('PUT'), 1, 'only the rename above; the update was not sent');
  } finally {
    await before.server.close();
    await after.server.close();
  }
});

/**
 * A gateway answering eth_blockNumber with 0x10, 0x11, …, whose request number `heldAt` (0 the first) is kept open: `arrived`
 * resolves when it comes, `release()` answers it; and a Ctx sending there, with a request document a.rpc.json.
 */
async function gateway(heldAt: number) {
  const arrived = signal();
  let held: (() => void) | undefined;
  let block = 0x10;
  const server = await startServer((_req, res) => {
    const n = block - 0x10;
    const answer = `{"jsonrpc": "2.0", "id": 1, "result": "0x${(block++).toString(16)}"}`;
    const reply = () => { res.setHeader('content-type', 'application/json'); res.end(answer); };
    if (n === heldAt) { held = reply; arrived.resolve(); } else reply();
  });
  fake.folderSettings.set('/ws', new Map());
  const responses = new Responses(memento() as never);
  const ctx = {
    responses,
    server: { request: async () => ({}) },
    ui: { ask: async () => undefined },
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: `${server.url}/v1/mainnet`, apiBaseUrl: '' }) },
  } as unknown as Ctx;
  const doc = addDocument('file:///ws/a.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}');
  return { server, ctx, doc, arrived: arrived.promise, release: () => held?.(), close: async () => { responses.dispose(); await server.close(); } };
}

test('Send clicked twice on a request document sends it once; the response document is not left showing the older answer', async () => {
  // The lens clicked twice sent two requests; the first one's answer, arriving last, was what the request's response document
  // showed (an older block number over the newer one's).
  const { server, ctx, doc, arrived, release, close } = await gateway(0);
  try {
    const first = send(ctx, doc.uri, undefined);
    await arrived;
    await assert.rejects(send(ctx, doc.uri, undefined), CancellationError);
    release();
    assert.deepEqual((await first).body, { jsonrpc: '2.0', id: 1, result: '0x10' });
    assert.equal(server.received.length, 1);
    assert.equal(fake.messages.at(-1)?.text, 'Sending eth_blockNumber from a.rpc.json is still under way; wait for it to end.');
  } finally {
    await close();
  }
});

test('Show Sent Requests\' "Send again" twice before the answer sends once, and holds its request document\'s Send meanwhile', async () => {
  // "Send again" had no guard: picked twice (or with Send on its request document) it sent twice, and the request's response
  // document showed whichever answer came last. It is now keyed as Send is, on the document the request was sent from.
  // The first send (from the document) answers at once; the first "Send again" is held.
  const { server, ctx, doc, arrived, release, close } = await gateway(1);
  const history = gatewayCommands['edgekit.gateway.history'](ctx);
  try {
    await send(ctx, doc.uri, undefined);
    fake.quickPickAnswers = ['eth_blockNumber', 'Send again'];
    const first = history();
    await arrived;
    fake.quickPickAnswers = ['eth_blockNumber', 'Send again'];
    await assert.rejects(history() as Promise<unknown>, CancellationError);
    await assert.rejects(send(ctx, doc.uri, undefined), CancellationError);
    release();
    await first;
    assert.equal(server.received.length, 2);
    assert.deepEqual(fake.messages.map((m) => `${m.kind} ${m.text}`), Array(2).fill('info Sending eth_blockNumber from a.rpc.json is still under way; wait for it to end.'));
  } finally {
    await close();
  }
});
