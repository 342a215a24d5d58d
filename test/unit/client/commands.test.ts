// The client's commands as a user meets them, in plain Node with the stand-in `vscode` module (./vscode.ts): what they ask, what they
// send to the language server, and what they say.
import { fake, resetFake, BACK, addDocument, editDocument, showEditors, commands, CancellationError, DiagnosticSeverity, TabInputText, Uri, ViewColumn, window, workspace } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logpushTestCommands } from '../../../client/src/commands/logpush';
import { gatewayCommands, send } from '../../../client/src/commands/gateway';
import { Responses, displayWidth, graphemeClusters, responseHeader } from '../../../client/src/views/responses';
import { describeRpcResponse } from '../../../client/src/http/gateway';
import { DeliveredBatches } from '../../../client/src/views/deliveries';
import { Reports } from '../../../client/src/views/reports';
import { backendCommands } from '../../../client/src/commands/backend';
import { trafficCommands } from '../../../client/src/commands/traffic';
import { SecurityEventsView } from '../../../client/src/views/securityEvents';
import { startServer, type TestServer } from '../http/server';
import type { Ctx } from '../../../client/src/ctx';
import { withMock } from './migrationCtx';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';
import { DEFAULT_CAPS, type ServerContext } from '../../../server/src/lsp/context';
import { Diagnostics } from '../../../server/src/lsp/diagnostics';
import { ParseCache } from '../../../server/src/lsp/parseCache';
import { registerRequests } from '../../../server/src/lsp/requests';
import { JobScopes } from '../../../client/src/jobScopes';
import { RulesetZones } from '../../../client/src/rulesetZones';

/** A Ctx whose language server records the requests and answers them with `answer`. */
function ctxWith(answer: (method: string, params: Record<string, unknown>) => unknown) {
  const requests: { method: string; params: Record<string, unknown> }[] = [];
  const ctx = {
    server: { request: async (type: { method: string }, params: Record<string, unknown>) => { requests.push({ method: type.method, params }); return answer(type.method, params); } },
    log: { info() {}, warn() {}, error() {}, show() {} },
    reports: new Reports(),
    jobScopes: new JobScopes(() => undefined),
    rulesetZones: new RulesetZones(),
  } as unknown as Ctx;
  return { ctx, requests };
}

/**
 * The language server's own edgekit/documentInfo (server/src/lsp/requests.ts) over the fake documents' text as it is at each
 * request: the real server has every edit by then (vscode-languageclient sends pending changes before a request).
 */
function languageServer(): Ctx['server'] {
  const handlers = new Map<string, (params: unknown) => unknown>();
  let version = 0;
  const sctx = {
    connection: { onRequest: (type: { method: string }, h: (p: unknown) => unknown) => { handlers.set(type.method, h); }, console: { error: () => undefined } },
    documents: { get: (uri: string) => { const d = fake.documents.get(uri); return d && TextDocument.create(uri, d.languageId, ++version, d.getText()); } },
    parses: new ParseCache(() => true),
    settings: { get: async () => DEFAULT_SETTINGS, drop: () => undefined, clear: () => undefined },
    caps: DEFAULT_CAPS,
  } as unknown as ServerContext;
  registerRequests(sctx, new Diagnostics(sctx));
  return { request: async (type: { method: string }, params: unknown) => handlers.get(type.method)!(params) } as unknown as Ctx['server'];
}

const FILTER_RESULT = { matched: 1, total: 2, source: 'sample', dataset: 'http_requests', branches: { label: 'x', matched: 1, children: [] }, firstMatches: [] };

beforeEach(() => resetFake());

test('Test Filter on Logs… from the editor title asks which logs (VS Code passes the editor group as a second argument)', async () => {
  // editor/title commands get (resource, { groupId }) (microsoft/vscode#58413): that object is no answer to "which logs?".
  const doc = addDocument('file:///ws/a.filter.json', 'logpush-filter', '{"where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}');
  const { ctx, requests } = ctxWith(() => FILTER_RESULT);
  fake.quickPickAnswers = ['Generated sample'];
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(doc.uri, { groupId: 0 });
  assert.equal(fake.quickPicks.length, 1, 'the question "Test the filter on which logs?" was asked');
  assert.equal(fake.quickPicks[0].title, 'Test the filter on which logs?');
  const test = requests.find((r) => r.method === 'edgekit/testFilter');
  assert.ok(test);
  assert.equal(test.params.logs, undefined, 'the generated sample, as picked');
});

// kb1: the Explorer's context menu runs a command with the file clicked and the files selected, (uri, uris[]). That array is no
// answer to "which logs?", and the file, often not open, is shown first: the report opens beside it and its lenses are on screen.
test('Test Filter on Logs… and Test Rules on Requests… from the Explorer\'s context menu show the file, then ask which records', async () => {
  const filter = addDocument('file:///ws/x.filter.json', 'logpush-filter', '{"where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}', false);
  const rules = addDocument('file:///ws/r.ruleset.json', 'waf-ruleset', '{"rules": []}', false);
  const { ctx, requests } = ctxWith((method) => (method === 'edgekit/testRules' ? { total: 1, undecided: 1, source: 'sample', rules: [] } : FILTER_RESULT));
  fake.quickPickAnswers = ['Generated sample', 'Generated sample'];
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri, [filter.uri]);
  await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(rules.uri, [rules.uri, filter.uri]);
  assert.deepEqual(fake.quickPicks.map((q) => q.title), ['Test the filter on which logs?', 'Test on which requests?']);
  assert.deepEqual(requests.filter((r) => /testFilter|testRules/.test(r.method)).map((r) => [r.params.uri, r.params.logs ?? r.params.requests]),
    [['file:///ws/x.filter.json', undefined], ['file:///ws/r.ruleset.json', undefined]], 'the clicked file, on the sample picked');
  const opened = (uri: string) => fake.shown.filter((s) => s.uri === uri).map((s) => ({ viewColumn: s.viewColumn, preview: s.preview }));
  assert.deepEqual(opened('file:///ws/x.filter.json'), [{ viewColumn: undefined, preview: true }], 'the filter opened in the active group');
  assert.deepEqual(opened('file:///ws/r.ruleset.json'), [{ viewColumn: undefined, preview: true }]);
  // A file an editor shows already is not opened a second time; the editor title's and the editor context menu's calls show nothing.
  fake.shown = [];
  showEditors(filter);
  fake.quickPickAnswers = ['Generated sample', 'Generated sample', 'Generated sample'];
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri, [filter.uri]);
  await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(rules.uri, { groupId: 0 });
  await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(rules.uri);
  assert.deepEqual(fake.shown.map((s) => s.uri).filter((u) => !u.startsWith('edgekit-report')), []);
});

// rv41: the key (Ctrl+Alt+R) and the editor's context menu reach a document of the language that the server never reads: the older
// side of a diff (git:) and a notebook cell, which was "nb.ipynb is an "vscode-notebook-cell:" document (e.g. the older side of a
// diff) …; open the file itself", of a cell that has no file.
test('Test Filter on Logs… run by its key in a git: document or a notebook cell says which it is, and asks the server nothing', async () => {
  const { ctx, requests } = ctxWith(() => FILTER_RESULT);
  const messages = async (uri: string) => {
    addDocument(uri, 'logpush-filter', '{"where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}');
    // The key passes no argument: the active editor's document
    return logpushTestCommands['edgekit.logpush.testFilter'](ctx)().then(() => 'no error', (e: Error) => e.message);
  };
  assert.equal(await messages('vscode-notebook-cell:/ws/nb.ipynb'),
    'A cell of the notebook nb.ipynb is not a document EdgeKit\'s language server reads; copy its text into a file or an untitled document of its own.');
  assert.equal(await messages('git:/ws/x.filter.json'),
    'x.filter.json is opened through "git:" (the older side of a diff, a file of a virtual workspace), which EdgeKit\'s language server does not read; open the file on disk itself.');
  assert.deepEqual(requests, []);
});

// The generated sample is http_requests lines: offered for a gateway_dns filter, it "matched 0 of 1,000" (the server now refuses it).
test('Test Filter on Logs… offers the generated sample for an http_requests filter only (it holds http_requests lines)', async () => {
  const { ctx } = ctxWith(() => FILTER_RESULT);
  const dns = addDocument('file:///ws/dns.filter.json', 'logpush-filter', '{"$dataset": "gateway_dns", "where": {"key": "QueryName", "operator": "eq", "value": "a.example"}}');
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(dns.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.equal(fake.quickPicks[0].title, 'Test the filter on which logs?');
  assert.ok(!fake.quickPicks[0].labels.includes('Generated sample'), fake.quickPicks[0].labels.join(', '));
  assert.ok(fake.quickPicks[0].labels.includes('Choose a log file…'));
  // A job of an account dataset: its dataset as the server reads it
  const job = addDocument('file:///ws/a.logpush.json', 'logpush-job', '{"dataset": "audit_logs"}');
  const jobCtx = ctxWith((method) => (method === 'edgekit/documentInfo' ? { kind: 'logpush-job', job: { dataset: 'audit_logs', scope: 'account' } } : FILTER_RESULT)).ctx;
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](jobCtx)(job.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.ok(!fake.quickPicks[1].labels.includes('Generated sample'), fake.quickPicks[1].labels.join(', '));
  const http = addDocument('file:///ws/h.filter.json', 'logpush-filter', '{"where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}');
  fake.quickPickAnswers = ['Generated sample'];
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(http.uri);
  assert.equal(fake.quickPicks[2].labels[0], 'Generated sample');
});

test('Test Filter on Logs… on the generated sample names the zone of a job the client knows, so that its requests go to that zone', async () => {
  // The sample's hosts were example.com's whatever the zone: a filter on the zone's own ClientRequestHost matched none of it.
  const { ctx, requests } = ctxWith((method) => (method === 'edgekit/documentInfo' ? { kind: 'logpush-job', job: { dataset: 'http_requests', scope: 'zone' } } : FILTER_RESULT));
  const job = addDocument('file:///ws/shop.logpush.json', 'logpush-job', '{"id": 5, "name": "p", "dataset": "http_requests", "destination_conf": "s3://b/l"}');
  ctx.jobScopes.set(job.uri.toString(), { owner: { zone: 'z1' }, ownerName: 'shop.test' }, 5);
  fake.quickPickAnswers = ['Generated sample'];
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(job.uri);
  const picked = fake.quickPicks[0];
  assert.match(picked.descriptions[picked.labels.indexOf('Generated sample')] ?? '', /lines to shop\.test, about a tenth/);
  // ui15: the count as the report and the lens write it ("matches 0 of 1,000 lines"); the question said "1 000"
  assert.match(picked.descriptions[picked.labels.indexOf('Generated sample')] ?? '', /^1,000 http_requests lines/);
  assert.equal(requests.filter((r) => r.method === 'edgekit/testFilter').at(-1)?.params.zone, 'shop.test');
  // A job of an account, a job whose "id" now names another job, and a log file: no zone
  editDocument(job, job.getText().replace('"id": 5', '"id": 6'));
  ctx.jobScopes.edited(job.uri.toString(), job.getText());
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(job.uri, 'sample');
  assert.equal(requests.filter((r) => r.method === 'edgekit/testFilter').at(-1)?.params.zone, undefined);
  const fw = addDocument('file:///ws/fw.logpush.json', 'logpush-job', '{"name": "f", "dataset": "http_requests", "destination_conf": "s3://b/l"}');
  ctx.jobScopes.set(fw.uri.toString(), { owner: { account: 'a1' }, ownerName: 'First' });
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(fw.uri, 'sample');
  assert.equal(requests.filter((r) => r.method === 'edgekit/testFilter').at(-1)?.params.zone, undefined);
  ctx.jobScopes.set(job.uri.toString(), { owner: { zone: 'z1' }, ownerName: 'shop.test' }, 6);
  const logs = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-zone-')), 'a.ndjson');
  fs.writeFileSync(logs, '{"ClientIP": "192.0.2.1"}\n');
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(job.uri, logs);
  const last = requests.filter((r) => r.method === 'edgekit/testFilter').at(-1)!;
  assert.deepEqual([last.params.logs, last.params.zone], [logs, undefined]);
  fs.rmSync(path.dirname(logs), { recursive: true, force: true });
});

// The mock's traffic makes http_requests and firewall_events lines only: "Last delivered batch" for a gateway_dns filter said "No
// Logpush job of the mock has delivered gateway_dns lines yet. Create a job for gateway_dns, then run Deliver Logpush Batches Now",
// which never delivers one.
test('Test Filter on Logs… offers the mock\'s last delivered batch only for a dataset the mock delivers, and says so when asked for another', async () => {
  const { ctx, requests } = ctxWith(() => FILTER_RESULT);
  const dns = addDocument('file:///ws/dns2.filter.json', 'logpush-filter', '{"$dataset": "gateway_dns", "where": {"key": "QueryName", "operator": "eq", "value": "a.example"}}');
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(dns.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.deepEqual(fake.quickPicks[0].labels, ['Choose a log file…']);
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(dns.uri, 'delivered') as Promise<unknown>,
    (err: Error) => /mock's traffic makes http_requests and firewall_events lines only/.test(err.message) && /gateway_dns log file/.test(err.message));
  assert.equal(requests.filter((r) => r.method === 'edgekit/testFilter').length, 0);
  const fw = addDocument('file:///ws/fw2.filter.json', 'logpush-filter', '{"$dataset": "firewall_events", "where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}');
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(fw.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.deepEqual(fake.quickPicks[1].labels, ['Choose a log file…', 'Last delivered batch']);
});

// A gateway_dns filter's question held one answer, "Choose a log file…", and said nothing of the generated sample or the delivered
// batch the other filters are offered: the user could not tell why they were gone.
test('Test Filter on Logs… says in its question why the generated sample or the delivered batch is not offered', async () => {
  const { ctx } = ctxWith(() => FILTER_RESULT);
  const dns = addDocument('file:///ws/dns3.filter.json', 'logpush-filter', '{"$dataset": "gateway_dns", "where": {"key": "QueryName", "operator": "eq", "value": "a.example"}}');
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(dns.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.equal(fake.quickPicks[0].placeHolder, 'The generated sample and the mock\'s batches hold no gateway_dns lines');
  const fw = addDocument('file:///ws/fw3.filter.json', 'logpush-filter', '{"$dataset": "firewall_events", "where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}');
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(fw.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.equal(fake.quickPicks[1].placeHolder, 'The generated sample holds http_requests lines, not firewall_events');
  const http = addDocument('file:///ws/h3.filter.json', 'logpush-filter', '{"where": {"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}}');
  fake.quickPickAnswers = [undefined];
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(http.uri) as Promise<unknown>, (err: Error) => err instanceof CancellationError);
  assert.equal(fake.quickPicks[2].placeHolder, undefined, 'every answer offered: nothing to explain');
});

test('the client\'s list of the datasets the mock delivers is the mock\'s (the client loads the mock only when it runs)', async () => {
  const { MOCK_DELIVERED_DATASETS } = await import('../../../client/src/commands/traffic');
  const { FEED_DATASETS } = await import('../../../mock/src/feed');
  assert.deepEqual([...MOCK_DELIVERED_DATASETS], [...FEED_DATASETS]);
});

test('Test Rules on Requests… from the editor title asks which requests, offering the mock\'s last delivered batch beside a file and the sample', async () => {
  const doc = addDocument('file:///ws/r.ruleset.json', 'waf-ruleset', '{"rules": []}');
  const { ctx, requests } = ctxWith(() => ({ total: 1, undecided: 1, source: 'sample', rules: [] }));
  fake.quickPickAnswers = ['Generated sample'];
  await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(doc.uri, { groupId: 0 });
  assert.deepEqual(fake.quickPicks.map((q) => q.title), ['Test on which requests?']);
  // (a ruleset of no known zone: the sample for a zone too, tz18)
  assert.deepEqual(fake.quickPicks[0].labels, ['Generated sample', 'Generated sample for a zone…', 'Choose a file…', 'Last delivered batch']);
  assert.match(fake.quickPicks[0].descriptions[0] ?? '', /^1,000 requests, about a tenth/, 'the count as the report writes it (ui15)');
  assert.equal(requests.find((r) => r.method === 'edgekit/testRules')?.params.requests, undefined);
  // A path answers the question
  await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(doc.uri, '/logs/http_requests.ndjson');
  assert.equal(fake.quickPicks.length, 1);
  assert.equal(requests.filter((r) => r.method === 'edgekit/testRules')[1].params.requests, '/logs/http_requests.ndjson');
});

test('Test Rules on the last delivered batch takes the newest http_requests batch (every request), else the newest firewall_events one (only the requests rules acted on), and names both when there is none', async () => {
  const doc = addDocument('file:///ws/r.ruleset.json', 'waf-ruleset', '{"rules": []}');
  const batch = (id: string, dataset: string, at: string) => ({ id, job: 1, scope: 'zone', owner: 'z', dataset, destination: 'r2://b/l', object: `l/${id}.log.gz`, at, records: 1, bytes: 9, status: 'delivered' });
  let list = [batch('fw1', 'firewall_events', '2026-11-26T00:01:00Z'), batch('hr1', 'http_requests', '2026-11-26T00:00:30Z')];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-delivered-'));
  const server = await startServer((req, res) => {
    if (req.url.endsWith('/lines')) { res.setHeader('content-type', 'application/x-ndjson'); res.end(req.url.includes('fw1') ? '{"Action":"block","RayID":"1"}\n' : '{"EdgeStartTimestamp":1}\n'); return; }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: list }));
  });
  try {
    const { ctx, requests } = ctxWith(() => ({ total: 1, undecided: 1, source: 'x', rules: [] }));
    Object.assign(ctx as object, { backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
      extension: { globalStorageUri: { fsPath: dir } } });
    const tested = async () => {
      await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(doc.uri, 'delivered');
      return fs.readFileSync(String(requests.filter((r) => r.method === 'edgekit/testRules').at(-1)?.params.requests), 'utf8');
    };
    // Both jobs delivered (one "Deliver Now"): the http_requests batch, though the firewall_events one is newer
    assert.equal(await tested(), '{"EdgeStartTimestamp":1}\n', 'the http_requests batch: every request, not only those rules acted on');
    // The report says which batch, not the path of the copy in the extension's storage (seen in the workbench: "Logs:
    // /root/.cache/…/globalStorage/edgekit.edgekit/mock-state.json.logpush/s3/…/20261127T023638Z_…log.gz")
    const report = [...fake.documents.values()].filter((d) => d.uri.scheme === 'edgekit-report').at(-1)!.getText();
    assert.ok(report.split('\n').includes('Requests: the batch Logpush job 1 delivered at 2026-11-26T00:00:30Z (l/hr1.log.gz)'), report);
    list = [batch('fw1', 'firewall_events', '2026-11-26T00:01:00Z')];
    assert.equal(await tested(), '{"Action":"block","RayID":"1"}\n', 'no http_requests batch: the firewall_events one');
    list = [];
    await assert.rejects(logpushTestCommands['edgekit.ruleset.testRules'](ctx)(doc.uri, 'delivered') as Promise<unknown>,
      (err: Error) => /delivered http_requests or firewall_events lines/.test(err.message));
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** Runs `use` against a stand-in mock whose traffic controls answer rate 2, seed 7 (its requests in `server.received`). */
async function withTrafficMock(use: (ctx: Ctx, server: TestServer) => Promise<void>): Promise<void> {
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: { rate: 2, paused: false, seed: 7 } }));
  });
  try {
    await use({ backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) } } as unknown as Ctx, server);
  } finally {
    await server.close();
  }
}

test('Mock Traffic\'s rate and seed boxes say, with an example, what they take once their text is cleared', () => withTrafficMock(async (ctx) => {
  // ux1's audit: they had a prefilled value and no placeholder (the guidelines: "Don't use inputs without a placeholder").
  fake.quickPickAnswers = ['Set Rate…', 'Set Seed…'];
  fake.inputBoxAnswers = ['3', '42'];
  await trafficCommands['edgekit.mock.traffic'](ctx)();
  await trafficCommands['edgekit.mock.traffic'](ctx)();
  assert.deepEqual(fake.inputBoxes.map((b) => b.placeHolder), ['Requests per second per zone, such as 2 or 0.5 (0 sends none)', 'A whole number, such as 42']);
}));

// rv35: the seed box said "A whole number." but took 4.5 (its check was the rate's, a decimal allowed) and sent 4, and took a seed
// the mock refuses (above 2^32 - 1); the stand-in's showInputBox now refuses what validateInput refuses, as VS Code does.
// lf20 (rv36): the rate box took 101, which the mock then refused (its MAX_RATE is 100); it now refuses it with the same bound.
test('Mock Traffic\'s seed box refuses what is not a whole number, and the rate box what is not a number up to the mock\'s maximum', () => withTrafficMock(async (ctx, server) => {
  fake.quickPickAnswers = ['Set Seed…', 'Set Rate…'];
  fake.inputBoxAnswers = ['4.5', '4294967296', '42', 'fast', '-1', '101', '0.5'];
  await trafficCommands['edgekit.mock.traffic'](ctx)();
  await trafficCommands['edgekit.mock.traffic'](ctx)();
  const rate = 'A number of requests per second from 0 to 100.';
  assert.deepEqual(fake.inputBoxes.map((b) => b.refused), [['A whole number from 0 to 4294967295.', 'A whole number from 0 to 4294967295.'], [rate, rate, rate]]);
  assert.deepEqual(server.received.filter((r) => r.method === 'PUT').map((r) => JSON.parse(r.body)), [{ seed: 42 }, { rate: 0.5 }]);
}));

test('the rate box\'s maximum is the mock\'s', async () => {
  const { MAX_RATE } = await import('../../../mock/src/traffic/engine');
  const { MOCK_MAX_RATE } = await import('../../../client/src/commands/traffic');
  assert.equal(MOCK_MAX_RATE, MAX_RATE);
});

test('Mock Traffic\'s Set Rate…/Set Seed… is one flow of two counted steps: Back keeps the choice, Escape changes nothing', async () => {
  // A pick and then a box, uncounted, with no Back (ux2's "Left"): Escape in the box ended the command, and a wrong choice meant
  // starting again.
  const puts: unknown[] = [];
  const server = await startServer((req, res) => {
    if (req.method === 'PUT') puts.push(JSON.parse(req.body));
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: { rate: 2, paused: false, seed: 7 } }));
  });
  try {
    const ctx = { backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) } } as unknown as Ctx;
    const traffic = () => trafficCommands['edgekit.mock.traffic'](ctx)() as Promise<unknown>;
    fake.quickPickAnswers = ['Set Rate…', 'Set Seed…', 'Set Rate…'];
    fake.inputBoxAnswers = [BACK, BACK, undefined];
    await assert.rejects(traffic(), CancellationError);
    assert.deepEqual(puts, [], 'Escape: nothing changed');
    assert.deepEqual(fake.quickPicks.map((p) => [`${p.step}/${p.totalSteps}`, p.active]), [['1/2', 'Pause'], ['1/2', 'Set Rate…'], ['1/2', 'Set Seed…']]);
    assert.deepEqual(fake.inputBoxes.map((b) => [`${b.step}/${b.totalSteps}`, b.title, b.value, b.buttons]), [
      ['2/2', 'Requests per second per zone', '2', ['Back']],
      ['2/2', 'Traffic seed', '7', ['Back']],
      ['2/2', 'Requests per second per zone', '2', ['Back']],
    ]);
    assert.deepEqual(fake.quickInputs, [], 'nothing left on screen');
    resetFake();
    fake.quickPickAnswers = ['Set Rate…', 'Set Seed…'];
    fake.inputBoxAnswers = [BACK, '42'];
    await traffic();
    assert.deepEqual(puts, [{ seed: 42 }], 'the last choice, with its own box\'s answer');
    resetFake();
    fake.quickPickAnswers = ['Pause'];
    await traffic();
    assert.deepEqual(puts.at(-1), { paused: true });
    assert.equal(fake.inputBoxes.length, 0, 'Pause asks nothing more');
  } finally {
    await server.close();
  }
});

// ui7's walk: "Sent 100 requests of sample traffic to each zone (700 in all); the rules acted on 63." and nothing to do with them:
// the Security Events view and the Logpush deliveries they feed were left for the newcomer to find.
test('Send Sample Traffic says where the rules\' events are and offers the views and deliveries they feed', async () => {
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: { requests: 700, events: 63, zones: {} } }));
  });
  try {
    const ctx = {
      backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) },
      securityEvents: { zone: undefined, refresh: async () => undefined },
    } as unknown as Ctx;
    fake.answerMessage = () => 'Show Security Events';
    await trafficCommands['edgekit.mock.sendTraffic'](ctx)(100);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'Sent 100 requests of sample traffic to each zone (700 in all); the rules acted on 63 of them: the Security Events view lists what they did, and enabled Logpush jobs deliver the traffic\'s log lines.',
      items: ['Show Security Events', 'Deliver Logpush Batches Now'] }]);
    assert.deepEqual(commands.executed, [['edgekit.securityEvents.show']]);
    // Sent to one zone: its events are shown without asking which zone.
    fake.answerMessage = () => 'Show Security Events';
    await trafficCommands['edgekit.mock.sendTraffic'](ctx)(100, 'z1');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(commands.executed.at(-1), ['edgekit.securityEvents.show', 'z1']);
    fake.answerMessage = () => 'Deliver Logpush Batches Now';
    await trafficCommands['edgekit.mock.sendTraffic'](ctx)(100);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(commands.executed.at(-1), ['edgekit.logpush.deliverNow']);
  } finally {
    await server.close();
  }
});

test('the file picks look for each kind under the core\'s file patterns (the client keeps its own copy: it imports only protocol.ts)', async () => {
  const { KIND_SUFFIXES } = await import('../../../client/src/commands/logpush');
  const { KIND_PATTERNS } = await import('../../../server/src/core/kinds');
  for (const [kind, patterns] of Object.entries(KIND_PATTERNS)) assert.deepEqual(KIND_SUFFIXES[kind].map((x) => `*.${x}.json`), patterns, kind);
  assert.deepEqual(Object.keys(KIND_SUFFIXES).sort(), Object.keys(KIND_PATTERNS).sort());
});

test('with no text editor active (the walkthrough\'s buttons), a command picks among the workspace\'s files of its kind', async () => {
  // "Send Request" and "Test Filter on Logs…" in the walkthrough "Get Started with EdgeKit" run over the Welcome page, no text
  // editor active: they said "Open a gateway request (*.rpc.json) first." and did nothing, with examples/ full of them.
  fake.folderSettings.set('/ws', new Map());
  fake.files = ['file:///ws/b.filter.json', 'file:///ws/a.logpush.json', 'file:///ws/x.rpc.json', 'file:///ws/node/c.jsonrpc.json', 'file:///ws/r.ruleset.json'];
  addDocument('file:///ws/b.filter.json', 'logpush-filter', '{}', false);
  const { ctx, requests } = ctxWith(() => FILTER_RESULT);
  fake.quickPickAnswers = ['b.filter.json', 'Generated sample'];
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)();
  assert.equal(fake.quickPicks[0].title, 'Which Logpush filter (*.filter.json) or job (*.logpush.json)?');
  assert.deepEqual(fake.quickPicks[0].labels, ['a.logpush.json', 'b.filter.json']);
  assert.deepEqual(requests.filter((r) => r.method === 'edgekit/testFilter').map((r) => r.params.uri), ['file:///ws/b.filter.json']);
  // A gateway request: both name endings; dismissing the pick ends the command quietly.
  const { targetUri } = await import('../../../client/src/commands/logpush');
  fake.quickPicks = [];
  fake.quickPickAnswers = [undefined];
  await assert.rejects(targetUri(undefined, ['jsonrpc-request'], 'gateway request (*.rpc.json)'), (err: Error) => err instanceof CancellationError);
  assert.deepEqual(fake.quickPicks[0].labels, ['node/c.jsonrpc.json', 'x.rpc.json']);
  // None in the workspace: the message says so.
  fake.files = [];
  await assert.rejects(targetUri(undefined, ['waf-ruleset'], 'ruleset (*.ruleset.json)'), /Open a ruleset \(\*\.ruleset\.json\) first; this workspace has none\./);
  // An active editor still decides, as before.
  const active = addDocument('file:///ws/x.rpc.json', 'jsonrpc-request', '{}');
  assert.equal((await targetUri(undefined, ['jsonrpc-request'], 'gateway request')).toString(), active.uri.toString());
});

// ui7's walk: the walkthrough's "Send Request" opened the picked request in the walkthrough's own group, over the Welcome tab: the
// steps went out of sight at the step that says "the answer opens beside it".
test('a file picked with no text editor active opens beside what is shown (the walkthrough), in an empty group where it is', async () => {
  fake.folderSettings.set('/ws', new Map());
  fake.files = ['file:///ws/x.rpc.json'];
  const { targetUri } = await import('../../../client/src/commands/logpush');
  // The Welcome tab (a walkthrough: no text input) is the active group's active tab.
  const welcome = { viewColumn: 1, activeTab: { label: 'Welcome', input: undefined }, tabs: [{ label: 'Welcome', input: undefined }] };
  window.tabGroups.all = [welcome];
  window.tabGroups.activeTabGroup = welcome;
  fake.quickPickAnswers = ['x.rpc.json'];
  await targetUri(undefined, ['jsonrpc-request'], 'gateway request (*.rpc.json)');
  assert.deepEqual(fake.shown.map((s) => [s.uri, s.viewColumn]), [['file:///ws/x.rpc.json', ViewColumn.Beside]]);
  // A window with nothing open: the one group is the place.
  const empty = { viewColumn: 1, activeTab: undefined, tabs: [] };
  window.tabGroups.all = [empty];
  window.tabGroups.activeTabGroup = empty;
  fake.shown = [];
  fake.quickPickAnswers = ['x.rpc.json'];
  await targetUri(undefined, ['jsonrpc-request'], 'gateway request (*.rpc.json)');
  assert.deepEqual(fake.shown.map((s) => [s.uri, s.viewColumn]), [['file:///ws/x.rpc.json', ViewColumn.Active]]);
});

test('Test Filter on Logs… with "sample" or a path as its argument does not ask', async () => {
  const doc = addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  const { ctx, requests } = ctxWith(() => FILTER_RESULT);
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(doc.uri, 'sample');
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(doc.uri.toString(), '/logs/x.ndjson');
  assert.equal(fake.quickPicks.length, 0);
  assert.deepEqual(requests.filter((r) => r.method === 'edgekit/testFilter').map((r) => r.params.logs), [undefined, '/logs/x.ndjson']);
});

test('Send Request reads "edgekit.gateway.confirmSendWithErrors" for the request\'s folder (a resource setting; multi-root)', async () => {
  // The window says ask; the folder of the request says do not.
  fake.folderSettings.set('/ws/a', new Map());
  fake.folderSettings.set('/ws/b', new Map([['gateway.confirmSendWithErrors', false]]));
  const doc = addDocument('file:///ws/b/x.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": [1]}');
  const asked: string[] = [];
  const stop = new Error('endpoints reached');
  const ctx = { server: languageServer(), ui: { ask: async (q: string) => { asked.push(q); return 'Send anyway'; } }, backend: { endpoints: async () => { throw stop; } } } as unknown as Ctx;
  await assert.rejects(send(ctx, doc.uri, undefined), stop);
  assert.deepEqual(asked, [], 'not asked: the folder turned the question off');
  // In the other folder (the window's default, true) it asks.
  const other = addDocument('file:///ws/a/y.rpc.json', 'jsonrpc-request', doc.getText());
  await assert.rejects(send(ctx, other.uri, undefined), stop);
  assert.equal(asked.length, 1);
});

test('Send Request\'s question does not repeat what the first error says: a refused method is not "probably" refused', async () => {
  // ui's walk: "...it refuses the request with HTTP 403. The gateway will probably refuse it. Send anyway?"
  fake.folderSettings.set('/ws', new Map());
  const asked: string[] = [];
  const stop = new Error('endpoints reached');
  const details: (string | undefined)[] = [];
  const ctx = { server: languageServer(), ui: { ask: async (q: string, _o: string[], opts: { detail?: string }) => { asked.push(q); details.push(opts.detail); return 'Send anyway'; } }, backend: { endpoints: async () => { throw stop; } } } as unknown as Ctx;
  const refused = addDocument('file:///ws/u.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_accounts", "params": []}');
  await assert.rejects(send(ctx, refused.uri, undefined), stop);
  assert.match(asked[0], /^u\.rpc\.json has 1 error, e\.g\. line 1: The gateway does not support "eth_accounts"; it refuses the request with HTTP 403\. .* Send anyway\?$/);
  assert.doesNotMatch(asked[0], /probably/);
  // The question says which setting turns it off (ui3's walk: it had no way there).
  assert.equal(details[0], 'The setting "edgekit.gateway.confirmSendWithErrors" turns this question off.');
  const params = addDocument('file:///ws/p.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": [1]}');
  await assert.rejects(send(ctx, params.uri, undefined), stop);
  assert.match(asked[1], /^p\.rpc\.json has 1 error, e\.g\. line 1: .* The gateway will probably refuse it\. Send anyway\?$/);
  // ui3's walk: a misspelt method's error says the 403 too ("...does not support with HTTP 403. The gateway will probably refuse it.")
  const typo = addDocument('file:///ws/t.rpc.json', 'jsonrpc-request', '{\n  "jsonrpc": "2.0", "id": 1,\n  "method": "eth_getBalanc", "params": []}');
  await assert.rejects(send(ctx, typo.uri, undefined), stop);
  assert.match(asked[2], /^t\.rpc\.json has 1 error, e\.g\. line 3: Unknown method "eth_getBalanc"; did you mean "eth_getBalance"\? The gateway refuses a method it does not support with HTTP 403\. Send anyway\?$/);
});

test('Test Filter on the last delivered batch takes the dataset of the filter\'s folder ("edgekit.logpush.dataset" is a resource setting)', async () => {
  // The language server checks the filter with its folder's dataset; the batch must be of the same dataset.
  fake.folderSettings.set('/ws/fw', new Map([['logpush.dataset', 'firewall_events']]));
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: [] }));
  });
  try {
    const doc = addDocument('file:///ws/fw/a.filter.json', 'logpush-filter', '{"where": {"key": "Action", "operator": "eq", "value": "block"}}');
    const { ctx } = ctxWith(() => ({}));
    (ctx as { backend: unknown }).backend = { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) };
    await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(doc.uri, 'delivered') as Promise<unknown>,
      (err: Error) => /delivered firewall_events lines/.test(err.message)
        // A user who has a job and ran Deliver Now (it said the filters kept none of the traffic) was told to create a job.
        && !/Create a job/.test(err.message) && /filter kept none/.test(err.message), 'the message');
  } finally {
    await server.close();
  }
});

test('Set API Credentials with nothing entered saves nothing, keeps the saved credentials and says so', () => withMock(async (mock) => {
  fake.settings.set('api.baseUrl', 'https://api.example.com/client/v4');
  const saved: unknown[] = [];
  const ctx = { backend: { saveCredentials: async (c: unknown) => { saved.push(c); } } } as unknown as Ctx;
  const run = backendCommands['edgekit.setApiCredentials'](ctx);
  // Enter on an empty token (a user who meant "keep it"), Enter on the optional key.
  fake.inputBoxAnswers = ['', ''];
  await assert.rejects(run(), (err: Error) => /nothing (was )?saved/i.test(err.message) && /token/.test(err.message));
  // A key without its email cannot authenticate (X-Auth-Key needs X-Auth-Email): the email box refuses Enter on nothing, and
  // Escape there ends the flow with nothing saved.
  fake.inputBoxAnswers = ['', 'k'.repeat(37), ''];
  await run();
  assert.deepEqual(fake.inputBoxes.map((b) => b.title).slice(-1), ['Account email for https://api.example.com']);
  assert.deepEqual(saved, []);
  assert.deepEqual(fake.messages.filter((m) => /saved for/.test(m.text)), [], 'no "credentials saved" message');
  // A token alone is saved (checked with the mock, which accepts it).
  fake.settings.set('api.baseUrl', mock.apiBaseUrl);
  fake.inputBoxAnswers = [mock.credentials.apiToken, ''];
  await run();
  assert.deepEqual(saved, [{ host: new URL(mock.apiBaseUrl).origin, apiToken: mock.credentials.apiToken, apiKey: undefined, apiEmail: undefined }]);
}));

test('Set API Credentials without "edgekit.api.baseUrl" asks for it, offering the platform\'s, and keeps it in the user settings', () => withMock(async (mock) => {
  // The walkthrough's "Use a real account" button runs it on a fresh install (embedded backend, no base URL): it refused with "Set
  // "edgekit.api.baseUrl" first" and an Open Settings button, a detour for a newcomer (ui3's walk).
  const saved: unknown[] = [];
  const ctx = { backend: { saveCredentials: async (c: unknown) => { saved.push(c); } } } as unknown as Ctx;
  const run = backendCommands['edgekit.setApiCredentials'](ctx);
  // Escape on the address: nothing is asked further, saved or set
  fake.inputBoxAnswers = [undefined];
  await run();
  assert.deepEqual(saved, []);
  assert.equal(fake.settings.get('api.baseUrl'), undefined);
  assert.equal(fake.inputBoxes.length, 1);
  // An address, then a token: both kept (the address offered is the platform's; the mock's is entered here, as a test does not ask
  // the platform).
  fake.inputBoxAnswers = [mock.apiBaseUrl, mock.credentials.apiToken, ''];
  await run();
  assert.equal(fake.inputBoxes[1].value, 'https://api.cloudflare.com/client/v4');
  assert.match(fake.inputBoxes[1].title ?? '', /base URL/);
  assert.equal(fake.settings.get('api.baseUrl'), mock.apiBaseUrl);
  const host = new URL(mock.apiBaseUrl).origin;
  assert.deepEqual(saved, [{ host, apiToken: mock.credentials.apiToken, apiKey: undefined, apiEmail: undefined }]);
  assert.ok(fake.messages.some((m) => m.text === `EdgeKit API credentials saved for ${host}. The API token is valid (active, with no expiry date). They are used once "edgekit.backend" is "remote"; the embedded mock is in use now.`),
    JSON.stringify(fake.messages));
}));

test('Set API Credentials refuses a base URL holding a user name or password: it would be kept in settings.json, not in secret storage', async () => {
  // sec4: the address box took any http(s) text without spaces, and kept it in the user settings before checking it as a URL.
  const { baseUrlProblem } = await import('../../../client/src/commands/backend');
  assert.equal(baseUrlProblem('https://api.cloudflare.com/client/v4'), undefined);
  assert.equal(baseUrlProblem(' http://127.0.0.1:8787/client/v4 '), undefined);
  for (const v of ['https://me:s3cret@api.example.com/client/v4', 'https://tok-123456@api.example.com/client/v4']) {
    assert.match(baseUrlProblem(v) ?? '', /user name or password.*secret storage/, v);
  }
  assert.match(baseUrlProblem('https://api.example.com/client/v4?token=abc') ?? '', /query/, 'a query');
  // rv28: a bare "?" or "#" (an empty query or fragment, which URL reads as none) was kept, and the API's paths went after it
  // (…/client/v4?/zones asked …/client/v4 with a query). An IPv6 host and a path stay accepted.
  for (const v of ['https://api.example.com/client/v4?', 'https://api.example.com/client/v4#']) assert.match(baseUrlProblem(v) ?? '', /No query or "#"/, v);
  assert.equal(baseUrlProblem('http://[::1]:8787/client/v4'), undefined);
  assert.equal(baseUrlProblem('http://localhost:8787/client/v4'), undefined);
  // rv44: the token is sent to the address at once (the check): plain HTTP only to this machine.
  for (const v of ['http://api.cloudflare.com/client/v4', 'http://10.0.0.5:8787/client/v4', 'http://127.0.0.1.example.com/client/v4',
    // rv45: VS Code's proxy resolver reaches only localhost, 127.0.0.1 and ::1 directly; 127.0.0.2 goes through a configured proxy.
    'http://127.0.0.2:8787/client/v4']) {
    assert.match(baseUrlProblem(v) ?? '', /^https:\/\/ for .*unencrypted/, v);
  }
  assert.match(baseUrlProblem('https://[api.example.com/client/v4') ?? '', /http:\/\/ or https:\/\/ URL/, 'not a URL');
  assert.match(baseUrlProblem('ftp://api.example.com/') ?? '', /http:\/\/ or https:\/\/ URL/, 'not http(s)');
});

test('Open Security Event shows the event read-only, one document per event (no untitled buffer asking to be saved)', async () => {
  // Each click in the Security Events view opened a new untitled JSON document: dirty, so pinned, and each asked "Save changes?"
  // when closed (the delivered batches had the same fault and became read-only edgekit-delivery: documents).
  const view = new SecurityEventsView(async () => { throw new Error('not read here'); });
  try {
    const ctx = { securityEvents: view, log: { info() {} } } as unknown as Ctx;
    const open = trafficCommands['edgekit.securityEvents.openEvent'](ctx);
    const a = { RayID: '8a1b2c3d4e5f6a7b', Action: 'block', Source: 'firewallmanaged', RuleID: 'r1' };
    const b = { RayID: '8a1b2c3d4e5f6a7b', Action: 'log', Source: 'waf', RuleID: '100000' };
    const first = await open(a) as string;
    const again = await open({ ...a });
    const other = await open(b) as string;
    assert.deepEqual(fake.opened, [], 'no untitled document');
    assert.equal(Uri.parse(first).scheme, 'edgekit-event');
    assert.equal(again, first, 'the same event opens the same document');
    assert.notEqual(other, first, 'another event of the same request (same RayID) is another document');
    assert.deepEqual(JSON.parse(fake.documents.get(Uri.parse(other).toString())!.getText()), b);
  } finally {
    view.dispose();
  }
});

test('Send request on one item of a batch asks only about errors in that item', async () => {
  const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_getBalance", "params": ["0xzz"]}\n]\n';
  const doc = addDocument('file:///ws/batch.rpc.json', 'jsonrpc-request', text);
  // The error is on line 3 (the second request's param).
  const asked: string[] = [];
  const stop = new Error('endpoints reached');
  const ctx = { server: languageServer(), ui: { ask: async (q: string) => { asked.push(q); return undefined; } }, backend: { endpoints: async () => { throw stop; } } } as unknown as Ctx;
  // The first request (index 0, the lens "Send request" above it) has no error: it goes without a question.
  await assert.rejects(send(ctx, doc.uri, { index: 0 }), stop);
  assert.deepEqual(asked, []);
  // The second, and the whole batch, have the error: asked (and dismissed: cancelled).
  await assert.rejects(send(ctx, doc.uri, { index: 1 }), (err: Error) => err.constructor.name === 'CancellationError');
  await assert.rejects(send(ctx, doc.uri, { index: null }), (err: Error) => err.constructor.name === 'CancellationError');
  assert.equal(asked.length, 2);
  assert.match(asked[0], /1 error, e\.g\. line 3: .*"0xzz"/);
});

/** A gateway answering every request with a result, and a Ctx whose backend points at it, with a real Responses history. */
/** Counts the edgekit/documentInfo requests `ctx` sends to its language server from now on. */
function countInfoRequests(ctx: Ctx): { n: number } {
  const count = { n: 0 };
  const server = ctx.server;
  const request = server.request.bind(server) as (type: { method: string }, params: unknown) => Promise<unknown>;
  (ctx as { server: unknown }).server = { ...server, request: (type: { method: string }, params: unknown) => { if (type.method === 'edgekit/documentInfo') count.n++; return request(type, params); } };
  return count;
}

async function gatewayCtx(result: () => string = () => '0x10') {
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(`{"jsonrpc": "2.0", "id": 1, "result": "${result()}"}`);
  });
  const state = new Map<string, unknown>();
  const memento = { get: (k: string, d?: unknown) => (state.has(k) ? state.get(k) : d), update: async (k: string, v: unknown) => { state.set(k, v); } };
  const responses = new Responses(memento as never);
  const ctx = {
    responses,
    server: languageServer(),
    ui: { ask: async () => undefined },
    backend: { endpoints: async () => ({ embedded: true, gatewayUrl: `${server.url}/v1/mainnet`, apiBaseUrl: '' }) },
  } as unknown as Ctx;
  return { server, ctx, close: async () => { responses.dispose(); await server.close(); } };
}

test('Show Sent Requests → Send again sends the recorded body without leaving an untitled document behind', async () => {
  // An untitled document opened with content is dirty (VS Code's UntitledTextEditorModel): each "Send again" left one, unseen,
  // which hot exit restores as a tab or the window asks to save when it closes.
  const { server, ctx, close } = await gatewayCtx();
  try {
    const body = '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}';
    const doc = addDocument('file:///ws/a.rpc.json', 'jsonrpc-request', body);
    await send(ctx, doc.uri, undefined);
    fake.quickPickAnswers = ['eth_blockNumber', 'Send again'];
    await gatewayCommands['edgekit.gateway.history'](ctx)();
    assert.deepEqual(server.received.map((r) => r.body), [body, body]);
    assert.deepEqual(fake.opened, [], 'no untitled document');
    const history = ctx.responses.history();
    assert.equal(history.length, 2);
    assert.equal(history[0].sourceUri, doc.uri.toString(), 'the new entry keeps the request\'s source');
  } finally {
    await close();
  }
});

// ui7's walk: each response opened "beside" the active editor, which after the first send was the response's own group (it took the
// focus, and the next request opened from Quick Open landed there): three sends made four columns, each too narrow to read.
test('a response opens in the group that shows the earlier ones, or beside the request; the request keeps the focus', async () => {
  const { ctx, close } = await gatewayCtx();
  try {
    const a = addDocument('file:///ws/a.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}');
    await send(ctx, a.uri, undefined);
    assert.equal(fake.shown.length, 1);
    assert.equal(fake.shown[0].viewColumn, ViewColumn.Beside, 'no response shown yet: beside the request');
    assert.equal(fake.shown[0].preserveFocus, true, 'the request keeps the focus, so the next file opened lands beside it, not among the responses');
    const first = Uri.parse(fake.shown[0].uri);
    // The request in column 1, the responses in column 2: the next response goes there, wherever the request is.
    const one = { viewColumn: 1, tabs: [{ input: new TabInputText(a.uri) }] };
    const two = { viewColumn: 2, tabs: [{ input: new TabInputText(first) }] };
    window.tabGroups.all = [one, two];
    window.tabGroups.activeTabGroup = one;
    await send(ctx, a.uri, undefined);
    assert.equal(fake.shown[1].viewColumn, 2);
    // A request opened in the responses' group (column 2, active): the response goes to the other group there is, not a third.
    const b = addDocument('file:///ws/b.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}');
    two.tabs.push({ input: new TabInputText(b.uri) });
    window.tabGroups.activeTabGroup = two;
    await send(ctx, b.uri, undefined);
    assert.equal(fake.shown[2].viewColumn, 1);
    // "Open response" from the history shows it where the responses are, and takes the focus there (nothing to edit beside it).
    window.tabGroups.activeTabGroup = one;
    await ctx.responses.open(first as never, { focus: true });
    assert.deepEqual([fake.shown[3].viewColumn, fake.shown[3].preserveFocus], [2, false]);
  } finally {
    await close();
  }
});

// ui7's walk: each send opened a document of its own (response-1-eth_getBalance.jsonc, response-2-…, one tab per send, named after
// the methods: "response-3-batch_of_5_eth_blockNumber_eth_chainId_eth.jsonc"). As REST Client's one response tab: one response
// document per request file, updated in place by each send and named after the file; the history keeps each response.
test('one response document per request file, named after it, updated in place by each send; the history reopens an older one there', async () => {
  let n = 0;
  const { ctx, close } = await gatewayCtx(() => `0x${++n}`);
  try {
    const a = addDocument('file:///ws/net/balance.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x9b2055d370f73ec7d8a03e965129118dc8f5bf83", "latest"]}');
    const first = await send(ctx, a.uri, undefined);
    assert.equal(first.responseUri, 'edgekit-response:///ws/net/balance.rpc.response.jsonc', 'named after the request file, in its folder');
    const doc = fake.documents.get(first.responseUri)!;
    assert.match(doc.getText(), /"result": "0x1"/);
    const second = await send(ctx, a.uri, undefined);
    assert.equal(second.responseUri, first.responseUri, 'the same document');
    await new Promise((r) => setImmediate(r));
    assert.match(doc.getText(), /"result": "0x2"/, 'the open document shows the new response');
    // The time of the send in its header: a response the same as the last one is seen to be a new one.
    // Written as Show Sent Requests writes it (ui8's walk: "14:13:15" in the header, "2:13:15 PM" in the history).
    const sentAt = new Date(ctx.responses.history()[0].time).toLocaleTimeString();
    assert.ok(doc.getText().split('\n').some((l) => new RegExp(`^// HTTP 200 · \\d+ ms · eth_getBalance · ${sentAt}$`).test(l)), doc.getText());
    assert.doesNotMatch(doc.getText(), /0x1"/);
    // Another request file has its own; the same name in another folder too.
    const b = addDocument('file:///ws/batch.rpc.json', 'jsonrpc-request', '[{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}, {"jsonrpc": "2.0", "id": 2, "method": "eth_blockNumber"}]');
    const c = addDocument('file:///ws/other/balance.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}');
    assert.equal((await send(ctx, b.uri, undefined)).responseUri, 'edgekit-response:///ws/batch.rpc.response.jsonc');
    assert.equal((await send(ctx, c.uri, undefined)).responseUri, 'edgekit-response:///ws/other/balance.rpc.response.jsonc');
    // The history has every send; "Open response" on the first shows its response, in the request file's document.
    assert.equal(ctx.responses.history().length, 4);
    const older = ctx.responses.history()[3];
    assert.equal(older.responseUri, first.responseUri);
    await ctx.responses.openEntry(older);
    await new Promise((r) => setImmediate(r));
    assert.match(doc.getText(), /"result": "0x1"/, 'the older response, shown in the request file\'s document');
    assert.equal(fake.shown.at(-1)?.uri, first.responseUri);
    assert.equal(fake.shown.at(-1)?.preserveFocus, false, 'opened from the history: it takes the focus');
    // Show Sent Requests → Open response opens the entry picked.
    fake.quickPickAnswers = ['batch of 2 (eth_chainId, eth_blockNumber)', 'Open response'];
    await gatewayCommands['edgekit.gateway.history'](ctx)();
    assert.equal(fake.shown.at(-1)?.uri, 'edgekit-response:///ws/batch.rpc.response.jsonc');
  } finally {
    await close();
  }
});

// ui8's walk: the walkthrough's "Send Request" opened the request beside the Welcome tab, and its response then opened over the
// request: the focus (the extension host's active group) was still the walkthrough's, and "beside" that is the request's group.
test('a response opens beside its request\'s group wherever the focus is, not over the request', async () => {
  const { ctx, close } = await gatewayCtx();
  try {
    const a = addDocument('file:///ws/a.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}');
    const welcome = { viewColumn: 1, activeTab: { input: undefined }, tabs: [{ input: undefined }] };
    const request = { viewColumn: 2, activeTab: { input: new TabInputText(a.uri) }, tabs: [{ input: new TabInputText(a.uri) }] };
    window.tabGroups.all = [welcome, request];
    window.tabGroups.activeTabGroup = welcome;
    await send(ctx, a.uri, undefined);
    assert.equal(fake.shown[0].viewColumn, 3, 'a new group right of the request\'s');
    // With the request's group active, as before: beside it.
    window.tabGroups.activeTabGroup = request;
    await send(ctx, a.uri, undefined);
    assert.equal(fake.shown[1].viewColumn, 3);
  } finally {
    await close();
  }
});

// ui9: a document with a syntax error had the lens "Cannot send: syntax error on line 3", while the title bar's Send Request asked
// "has 1 error, e.g. line 3: ... Send anyway?" and sent the body, which the gateway answers with -32700. Now both say the lens's
// sentence: the question goes to the error by default (the lens does, clicked), and Send anyway still shows the gateway's answer.
test('Send Request on a document with a syntax error says what the lens says, offers Go to Problem first, and Send anyway sends it', async () => {
  const { server, ctx, close } = await gatewayCtx();
  try {
    fake.folderSettings.set('/ws', new Map());
    const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": [}\n]';
    const doc = addDocument('file:///ws/broken.rpc.json', 'jsonrpc-request', text);
    const asked: { q: string; options: string[]; detail?: string }[] = [];
    let answer: string | undefined = 'Go to Problem';
    (ctx as { ui: unknown }).ui = { ask: async (q: string, options: string[], opts: { detail?: string }) => { asked.push({ q, options, detail: opts.detail }); return answer; } };
    const infos = countInfoRequests(ctx);
    await assert.rejects(send(ctx, doc.uri, undefined), (err: Error) => err instanceof CancellationError);
    assert.equal(infos.n, 1, 'one edgekit/documentInfo for the question and Go to Problem: the document is the same version');
    assert.match(asked[0].q, /^Cannot send: syntax error on line 3 of broken\.rpc\.json: .+\.$/);
    assert.deepEqual(asked[0].options, ['Go to Problem', 'Send anyway']);
    assert.equal(asked[0].detail, 'Sent anyway, it is answered with the gateway\'s parse error (-32700). The setting "edgekit.gateway.confirmSendWithErrors" turns this question off.');
    // Go to Problem: the cursor at the error, and the editor's hover shows its message there.
    const at = fake.shown.at(-1)!;
    assert.equal(at.uri, doc.uri.toString());
    assert.equal((at.selection?.start as { line: number }).line, 2);
    assert.deepEqual(commands.executed.at(-1), ['editor.action.showHover']);
    assert.equal(server.received.length, 0, 'nothing sent');
    // Dismissed: nothing sent, nowhere gone.
    answer = undefined;
    const shown = fake.shown.length;
    await assert.rejects(send(ctx, doc.uri, undefined), (err: Error) => err instanceof CancellationError);
    assert.equal(fake.shown.length, shown);
    // Send anyway: the text as written goes, for the gateway's own answer.
    answer = 'Send anyway';
    await send(ctx, doc.uri, undefined);
    assert.deepEqual(server.received.map((r) => r.body), [text]);
    // An empty document has no lens: its own problem is the question (what goes in it), not "Cannot send".
    answer = undefined;
    await assert.rejects(send(ctx, addDocument('file:///ws/empty.rpc.json', 'jsonrpc-request', '\n').uri, undefined), (err: Error) => err instanceof CancellationError);
    assert.match(asked.at(-1)!.q, /^empty\.rpc\.json has 1 error, e\.g\. line 1: The document is empty; expected a request object/);
    assert.deepEqual(asked.at(-1)!.options, ['Send anyway']);
  } finally {
    await close();
  }
});

test('the "Cannot send" lens goes to the first syntax error as the server finds it now', async () => {
  const { ctx, close } = await gatewayCtx();
  try {
    fake.folderSettings.set('/ws', new Map());
    const doc = addDocument('file:///ws/broken.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 1,\n "method": "eth_chainId" "params": []}');
    // In the editor that shows it (column 2 here), not a second tab in the active group.
    showEditors(addDocument('file:///ws/other.json', 'json', '{}', false), doc);
    const infos = countInfoRequests(ctx);
    await gatewayCommands['edgekit.gateway.showSyntaxError'](ctx)(doc.uri);
    assert.equal(infos.n, 1, 'one edgekit/documentInfo');
    assert.equal(fake.shown.at(-1)!.viewColumn, 2);
    // At "params", where the comma is missing (the server's syntax problem, as the lens counts it).
    assert.deepEqual({ ...fake.shown.at(-1)!.selection?.start as object }, { line: 1, character: 25 });
    assert.deepEqual(commands.executed.at(-1), ['editor.action.showHover']);
    // Mended since the lens was drawn: said so, nowhere gone.
    editDocument(doc, '{"jsonrpc": "2.0", "id": 1,\n "method": "eth_chainId", "params": []}');
    const shown = fake.shown.length;
    await gatewayCommands['edgekit.gateway.showSyntaxError'](ctx)(doc.uri);
    assert.equal(fake.shown.length, shown);
    assert.deepEqual(fake.messages.at(-1), { kind: 'info', text: 'broken.rpc.json has no syntax error now.' });
  } finally {
    await close();
  }
});

// ui7's walk: a batch with one refused member could only be sent whole ("Send anyway": that member comes back refused) or not at
// all; the user wanted the other requests' answers.
test('a batch with a refused member offers to send the others, their text as written', async () => {
  const { server, ctx, close } = await gatewayCtx();
  try {
    const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_sign", "params": []},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n]';
    const doc = addDocument('file:///ws/batch.rpc.json', 'jsonrpc-request', text);
    const offered: string[][] = [];
    (ctx as { ui: unknown }).ui = { ask: async (_q: string, options: string[]) => { offered.push(options); return options.find((o) => o.startsWith('Send without')); } };
    await send(ctx, doc.uri, undefined);
    // The first is a modal's default button (Enter): sending the members the gateway serves, not a batch with one bound to fail.
    assert.deepEqual(offered, [['Send without "eth_sign"', 'Send anyway']]);
    assert.deepEqual(server.received.map((r) => r.body), ['[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n]']);
    // One request alone (its lens), or a batch of refused members only: nothing else to offer.
    offered.length = 0;
    await assert.rejects(send(ctx, doc.uri, { index: 1 }), (err: Error) => err.constructor.name === 'CancellationError');
    assert.deepEqual(offered, [['Send anyway']]);
  } finally {
    await close();
  }
});

// rv16: "Send without" took the server's indexes of the text it was sent, then cut the members of the document's text read again
// after the answer: an edit that came in meanwhile (another extension's, a reload from disk) moved the members, and the one left
// out was another (eth_chainId went, eth_sign was sent). The members are cut from the text the verdict is about, as "Send anyway"
// sends the text read when Send was run.
test('"Send without" cuts the members of the text the server judged, not of an edit made while it answered', async () => {
  const { server, ctx, close } = await gatewayCtx();
  try {
    const judged = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_sign", "params": []},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n]';
    const doc = addDocument('file:///ws/batch.rpc.json', 'jsonrpc-request', judged);
    const real = ctx.server.request.bind(ctx.server);
    (ctx as { server: unknown }).server = { request: async (type: never, params: never) => {
      const answer = await real(type, params);
      editDocument(doc, '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_sign", "params": []}\n]');
      return answer;
    } };
    (ctx as { ui: unknown }).ui = { ask: async (_q: string, options: string[]) => options.find((o) => o.startsWith('Send without')) };
    await send(ctx, doc.uri, undefined);
    assert.deepEqual(server.received.map((r) => r.body), ['[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n]']);
  } finally {
    await close();
  }
});

// ui9: "Send without" read the diagnostics VS Code held, which lag an edit by one pull: a member moved since then was matched by
// its old offsets, so the refused one went and another was left out (and named by the text now at those offsets). It reads the
// server's verdict on the text as it is now; a long method is cut in the button as messages cut a long token (40 characters, "…").
test('"Send without" decides on the document as it is now, not on diagnostics an edit ago, and cuts a long method in its button', async () => {
  const { server, ctx, close } = await gatewayCtx();
  try {
    const before = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_sign", "params": []},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n]';
    const doc = addDocument('file:///ws/batch.rpc.json', 'jsonrpc-request', before);
    // The diagnostic of the text before the edit: eth_sign in the second member.
    const sign = before.indexOf('"eth_sign"');
    fake.diagnostics.set(doc.uri.toString(), [{ source: 'edgekit', severity: DiagnosticSeverity.Error, code: 'jsonrpc/unsupported-method',
      message: 'The gateway does not support "eth_sign"; it refuses the request with HTTP 403.', range: { start: doc.positionAt(sign), end: doc.positionAt(sign + 10) } }]);
    // The edit just made: eth_sign moved to the end; eth_chainId is second now, where eth_sign was.
    const after = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_sign", "params": []}\n]';
    editDocument(doc, after);
    const offered: string[][] = [];
    (ctx as { ui: unknown }).ui = { ask: async (_q: string, options: string[]) => { offered.push(options); return options.find((o) => o.startsWith('Send without')); } };
    await send(ctx, doc.uri, undefined);
    assert.deepEqual(offered, [['Send without "eth_sign"', 'Send anyway']]);
    assert.deepEqual(server.received.map((r) => r.body), ['[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n]']);
    // A method of 200 characters: its first 40 and "…" in the button, as a message quotes a long token.
    const long = `eth_${'x'.repeat(196)}`;
    editDocument(doc, `[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "${long}"}\n]`);
    await send(ctx, doc.uri, undefined);
    assert.deepEqual(offered[1], [`Send without "${long.slice(0, 40)}…"`, 'Send anyway']);
  } finally {
    await close();
  }
});

test('Show Sent Requests… is a two-step pick: Back from the action returns to the requests with the one picked highlighted', async () => {
  const { ctx, close } = await gatewayCtx();
  try {
    for (const method of ['eth_chainId', 'eth_blockNumber']) {
      await send(ctx, addDocument(`file:///ws/${method}.rpc.json`, 'jsonrpc-request', `{"jsonrpc": "2.0", "id": 1, "method": "${method}"}`).uri, undefined);
    }
    fake.quickPicks = [];
    fake.messages = [];
    fake.quickPickAnswers = ['eth_chainId', BACK, 'eth_chainId', undefined];
    await gatewayCommands['edgekit.gateway.history'](ctx)();
    assert.deepEqual(fake.quickPicks.map((q) => [`${q.step}/${q.totalSteps}`, q.title, q.buttons, q.active]), [
      ['1/2', 'EdgeKit: sent gateway requests', [], 'eth_blockNumber'],
      ['2/2', 'EdgeKit: sent gateway requests', ['Back'], 'Open response'],
      ['1/2', 'EdgeKit: sent gateway requests', [], 'eth_chainId'],
      ['2/2', 'EdgeKit: sent gateway requests', ['Back'], 'Open response'],
    ]);
    assert.equal(fake.quickPicks[1].placeHolder, 'What to do with eth_chainId?');
    assert.equal(fake.clipboard, '', 'Escape on the action does nothing');
    assert.deepEqual(fake.messages, []);
    assert.equal(ctx.responses.history().length, 2, 'nothing sent again');
    assert.ok(fake.madeQuickInputs.every((q) => q.disposed) && !fake.quickInputs.length, 'both picks closed and disposed');
  } finally {
    await close();
  }
});

test('Show Sent Requests with nothing sent yet says so as information, with how to send one, not as an error', async () => {
  const { ctx, close } = await gatewayCtx();
  try {
    const r = await gatewayCommands['edgekit.gateway.history'](ctx)();
    assert.equal(r, undefined);
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'No gateway request has been sent yet: "EdgeKit: Send Request" on a gateway request (*.rpc.json) sends one and keeps it here.' }]);
    assert.deepEqual(fake.quickPicks, []);
  } finally {
    await close();
  }
});

test('Show Sent Requests → Copy as curl copies the recorded request and says so', async () => {
  const { ctx, close } = await gatewayCtx();
  try {
    const body = '{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}';
    await send(ctx, addDocument('file:///ws/c.rpc.json', 'jsonrpc-request', body).uri, undefined);
    fake.messages = [];
    fake.quickPickAnswers = ['eth_chainId', 'Copy as curl'];
    await gatewayCommands['edgekit.gateway.history'](ctx)();
    assert.match(fake.clipboard, /^curl -sS \\\n  -X POST \\\n  'http:\/\/127\.0\.0\.1:\d+\/v1\/mainnet'/);
    assert.ok(fake.clipboard.includes(body));
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'Copied the request as a curl command.' }], 'the copy is confirmed, as Copy Request as curl does');
  } finally {
    await close();
  }
});

test('the response document shows the gateway\'s JSON as it was sent: an integer past 2^53 keeps its digits', async () => {
  // JSON.parse then JSON.stringify rounded 9007199254740993 to ...992 (and rewrote 1.0 as 1, 1e3 as 1000).
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"jsonrpc":"2.0","id":9007199254740993,"result":{"gasUsed":1.0,"n":1e3,"list":[]}}');
  });
  const memento = { get: (_k: string, d?: unknown) => d, update: async () => undefined };
  const responses = new Responses(memento as never);
  try {
    const ctx = { responses, server: languageServer(), ui: { ask: async () => undefined }, backend: { endpoints: async () => ({ embedded: false, gatewayUrl: `${server.url}/v1/mainnet`, apiBaseUrl: '' }) } } as unknown as Ctx;
    const doc = addDocument('file:///ws/big.rpc.json', 'jsonrpc-request', '{"jsonrpc": "2.0", "id": 9007199254740993, "method": "eth_chainId"}');
    const r = await send(ctx, doc.uri, undefined);
    const text = responses.textOf(Uri.parse(r.responseUri) as never)!;
    const json = text.split('\n').filter((l) => !l.startsWith('//')).join('\n');
    assert.match(json, /"id": 9007199254740993,/);
    assert.match(json, /"gasUsed": 1\.0,/);
    assert.match(json, /"n": 1e3,/);
    assert.equal(json, '{\n  "jsonrpc": "2.0",\n  "id": 9007199254740993,\n  "result": {\n    "gasUsed": 1.0,\n    "n": 1e3,\n    "list": []\n  }\n}\n', 'indented by two spaces');
  } finally {
    responses.dispose();
    await server.close();
  }
});

test('Open Last Delivered Logpush Batch on a batch already open keeps no copy of its lines', async () => {
  // The lines are fetched and handed to the document provider, which VS Code asks only for a document that is not open yet: a
  // second open of the same batch left its lines (megabytes, for a large batch) in memory for good.
  const delivery = { id: 'd1', job: 3, scope: 'zone', owner: 'z', dataset: 'http_requests', destination: 'r2://bucket/logs', object: 'logs/20261126T000000Z_20261126T000030Z_abc.log.gz', at: '2026-11-26T00:00:30Z', records: 2, bytes: 40, status: 'delivered' };
  const server = await startServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url.endsWith('/lines')) { res.setHeader('content-type', 'application/x-ndjson'); res.end('{"a":1}\n{"a":2}\n'); return; }
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: [delivery] }));
  });
  const deliveries = new DeliveredBatches(async () => { throw new Error('not asked'); });
  try {
    const ctx = { deliveries, backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) } } as unknown as Ctx;
    const open = trafficCommands['edgekit.logpush.openDelivery'](ctx);
    const first = await open(3) as { uri: string };
    const again = await open(3) as { uri: string };
    assert.equal(again.uri, first.uri);
    assert.equal(fake.documents.get(first.uri)!.getText(), '{"a":1}\n{"a":2}\n');
    assert.equal((deliveries as unknown as { primed: Map<string, string> }).primed.size, 0);
  } finally {
    deliveries.dispose();
    await server.close();
  }
});

test('Open Last Delivered Logpush Batch with nothing delivered does not tell to create a job as if there were none (a job whose filter kept nothing)', async () => {
  // It said "Create a job with an http_requests or firewall_events dataset, then run Deliver Now" right after a job was created
  // and Deliver Now had said its filter kept none of the traffic (ui2's walk); Test Filter's own message says it as below.
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, errors: [], messages: [], result: [] }));
  });
  const deliveries = new DeliveredBatches(async () => { throw new Error('not asked'); });
  try {
    const ctx = { deliveries, backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) } } as unknown as Ctx;
    await assert.rejects(trafficCommands['edgekit.logpush.openDelivery'](ctx)() as Promise<unknown>, (e: Error) => {
      assert.equal(e.message, 'No Logpush job of the mock has delivered http_requests or firewall_events lines yet. Run "EdgeKit: Deliver Logpush Batches Now": it delivers ' +
        'what the enabled http_requests or firewall_events jobs kept of the mock\'s traffic, or says why it delivers nothing (no such job yet, or its filter kept none of the traffic).');
      return true;
    });
  } finally {
    deliveries.dispose();
    await server.close();
  }
});

test('a security event document no longer kept reopens as valid JSON (its language is json, where a comment is an error)', async () => {
  const view = new SecurityEventsView(async () => { throw new Error('not read here'); });
  try {
    const doc = await workspace.openTextDocument(Uri.parse('edgekit-event:/gone-1.json'));
    assert.equal(doc.languageId, 'json');
    assert.match(JSON.parse(doc.getText()), /no longer kept/);
  } finally {
    view.dispose();
  }
});

test('Test Filter and Test Rules reports open read-only, so the next report replaces the preview tab instead of piling up', async () => {
  // The reports opened as untitled markdown with { preview: true }; an untitled document with content is dirty, and VS Code
  // "always show[s] dirty editors pinned" (EditorGroupView): every run left a tab that asked to be saved when closed.
  const { ctx } = ctxWith((method) => (method === 'edgekit/testRules'
    ? { total: 2, source: 'sample', undecided: 2, executed: 0, rules: [] }
    : FILTER_RESULT));
  try {
    const filter = addDocument('file:///ws/r.filter.json', 'logpush-filter', '{}');
    await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri, 'sample');
    const ruleset = addDocument('file:///ws/r.ruleset.json', 'waf-ruleset', '{}');
    await logpushTestCommands['edgekit.ruleset.testRules'](ctx)(ruleset.uri, 'sample');
    assert.deepEqual(fake.opened, [], 'no untitled document');
    const shown = [...fake.documents.values()].filter((d) => d.uri.scheme === 'edgekit-report');
    assert.equal(shown.length, 2);
    assert.ok(shown.every((d) => d.languageId === 'markdown'));
    assert.match(shown[0].getText(), /^# \/ws\/r\.filter\.json: matches 1 of 2 lines/);
    assert.match(shown[1].getText(), /^# \/ws\/r\.ruleset\.json on 2 requests/);
  } finally {
    ctx.reports.dispose();
  }
});

/** The text of a CommonMark code span `s` (fence, content, same fence), or undefined when `s` is not one whole code span: a run of
 * backticks as long as the fence inside it would end it early (CommonMark 0.31 §6.1). */
function codeSpanText(s: string): string | undefined {
  const m = /^(`+)([^]*)\1$/.exec(s);
  if (!m) return undefined;
  const runs = m[2].match(/`+/g) ?? [];
  if (runs.some((r) => r.length === m[1].length)) return undefined;
  const t = m[2];
  return t.length > 2 && t.startsWith(' ') && t.endsWith(' ') && t.trim() ? t.slice(1, -1) : t;
}

test('Test Filter / Test Rules reports: a backtick in a log line or a label does not end its code span (no markdown from the logs)', async () => {
  const { testReport, rulesReport } = await import('../../../client/src/commands/logpush');
  // A request path chosen by whoever sent the request: with one backtick it closed the span, and the rest rendered as a link.
  const record = { ClientRequestPath: '/x`[Open the report](command:workbench.action.terminal.new) ``', EdgeResponseStatus: 200 };
  const md = testReport('a.filter.json', { ...FILTER_RESULT, branches: { label: 'ClientRequestPath eq "/`a`"', matched: 1, children: [] }, firstMatches: [{ line: 1, record }] } as never);
  const line = md.split('\n').find((l) => l.startsWith('- line 1: '))!;
  assert.equal(codeSpanText(line.slice('- line 1: '.length)), JSON.stringify(record), line);
  const branch = md.split('\n').find((l) => l.startsWith('- ') && l.includes('ClientRequestPath eq'))!;
  assert.equal(codeSpanText(branch.slice(2, branch.lastIndexOf(': '))), 'ClientRequestPath eq "/`a`"', branch);
  const rules = rulesReport('r.ruleset.json', { total: 1, undecided: 0, source: 'sample', rules: [{ label: 'http.request.uri.path eq "`|`"\nand ip.src eq 1.2.3.4', action: 'block', enabled: true, terminating: true, matched: 1, applied: 1, decided: 1, skipped: 0, firstMatches: [1] }] } as never);
  const item = rules.split('\n').find((l) => l.includes('ip.src'))!;
  assert.equal(codeSpanText(item.slice('- '.length, item.lastIndexOf(' ('))), 'http.request.uri.path eq "`|`" and ip.src eq 1.2.3.4', item);
});

// cl11: the report opens as markdown source beside the ruleset; its table (rule, action, matches, applies to, decides, first matching
// requests) was one line per rule as wide as its label, unreadable as source in a half-width column.
test('Test Rules report: each rule is a list item with its figures under it, no table', async () => {
  const { rulesReport } = await import('../../../client/src/commands/logpush');
  const base = { action: 'block', enabled: true, terminating: true, matched: 0, applied: 0, decided: 0, skipped: 0, firstMatches: [] };
  const md = rulesReport('r.ruleset.json', { total: 20, undecided: 5, source: 'sample', rules: [
    { ...base, index: 0, label: '0: skip when ip.src in {192.0.2.0/24}', action: 'skip', terminating: false, matched: 3, applied: 3, decided: 0, firstMatches: [2, 4, 9] },
    { ...base, index: 1, label: '1: block when http.host eq "a.example"', matched: 12, applied: 10, skipped: 2, decided: 10, firstMatches: [1, 3] },
    { ...base, index: 2, label: '2: execute when true', action: 'execute', terminating: false, matched: 5, applied: 5 },
    { ...base, index: 3, label: '3: log when false', action: 'log', enabled: false },
  ] } as never);
  assert.doesNotMatch(md, /^\|/m, 'no table row');
  const rules = md.slice(md.indexOf('## Rules\n\n') + '## Rules\n\n'.length, md.indexOf('\n\n5 requests reach'));
  assert.equal(rules, [
    '- `0: skip when ip.src in {192.0.2.0/24}` (goes on)',
    '  - matches 3 · applies to 3 · decides 0',
    '  - first matching requests: 2, 4, 9',
    '- `1: block when http.host eq "a.example"` (terminating)',
    '  - matches 12 · applies to 10 (skipped for 2) · decides 10',
    '  - first matching requests: 1, 3',
    '- `2: execute when true` (runs a ruleset)',
    '  - matches 5 · applies to 5 · decides 0',
    '- `3: log when false` (disabled)',
    '  - matches 0 · applies to 0 · decides 0',
  ].join('\n'));
});

// ui12: a skip rule with "ruleset": "current" ended the evaluation (its "decides" counted the requests) yet the report called it
// "(goes on)", as it does a skip of named rulesets.
test('Test Rules report: a skip of the remaining rules says so, a skip of named rulesets goes on', async () => {
  const { rulesReport } = await import('../../../client/src/commands/logpush');
  const base = { action: 'skip', enabled: true, terminating: false, matched: 1, applied: 1, decided: 0, skipped: 0, firstMatches: [1] };
  const md = rulesReport('r.ruleset.json', { total: 1, undecided: 0, source: 'sample', rules: [
    { ...base, index: 0, label: '0: skip when http.host eq "a"', skipsRest: true, decided: 1 },
    { ...base, index: 1, label: '1: skip when http.host eq "b"' },
  ] } as never);
  assert.ok(md.includes('- `0: skip when http.host eq "a"` (skips the remaining rules)\n'), md);
  assert.ok(md.includes('- `1: skip when http.host eq "b"` (goes on)\n'), md);
});

// cl12: the closing note named "ruleset": "current" as the one skip that ends the evaluation; "phase": "current" ends it too (the
// evaluator's skipsRest), and a skip of phases or products does not.
test('Test Rules report: the closing note names both skips of the remaining rules, in the API\'s words, and the skips that go on', async () => {
  const { rulesReport } = await import('../../../client/src/commands/logpush');
  const md = rulesReport('r.ruleset.json', { total: 1, undecided: 1, source: 'sample', rules: [] } as never);
  const note = md.slice(md.indexOf('The rules run in order'));
  assert.ok(note.includes('"ruleset": "current" ("A ruleset to skip the execution of")'), note);
  assert.ok(note.includes('"phase": "current" ("A phase to skip the execution of")'), note);
  assert.match(note, /a skip of "phases", "rulesets", "rules" or "products"/);
});

// ui12: the reports wrote "matches 1 of 1000 lines" and "matches 1000 · applies to 1000" beside the lenses' "1,000".
test('Test Filter and Test Rules reports write counts as the lenses do (1,000)', async () => {
  const { testReport, rulesReport } = await import('../../../client/src/commands/logpush');
  const md = testReport('a.filter.json', { ...FILTER_RESULT, matched: 1200, total: 2500, branches: { label: 'and', matched: 1200, children: [] }, firstMatches: [] } as never);
  assert.match(md, /^# a\.filter\.json: matches 1,200 of 2,500 lines \(48\.0 %\)$/m);
  assert.match(md, /^- `and`: 1,200 \(48\.0 %\)$/m);
  const rule = { index: 0, label: '0: log when true', action: 'log', enabled: true, terminating: false, matched: 1000, applied: 1000, decided: 0, skipped: 0, firstMatches: [1] };
  const rules = rulesReport('r.ruleset.json', { total: 1000, undecided: 1000, source: 'sample', rules: [rule] } as never);
  assert.match(rules, /^# r\.ruleset\.json on 1,000 requests$/m);
  assert.match(rules, /^  - matches 1,000 · applies to 1,000 · decides 0$/m);
  assert.match(rules, /^1,000 requests reach the end of the rules/m);
  assert.match(rulesReport('r.ruleset.json', { total: 1, undecided: 1, source: 'sample', rules: [] } as never), /^# r\.ruleset\.json on 1 request$/m);
  // rv21: the skipped lines, the records not read as on the platform and what a later rule overwrote were still "1500 lines skipped"
  // beside "matches 1,200 of 2,500 lines".
  const skipped = { badLines: 1500, badLineErrors: [], recordProblems: { records: 1200, examples: [] } };
  assert.match(testReport('a.filter.json', { ...FILTER_RESULT, ...skipped } as never), /^1,500 lines skipped:$/m);
  const withSkipped = rulesReport('r.ruleset.json', { total: 2500, undecided: 0, source: 'sample', rules: [], ...skipped } as never);
  assert.match(withSkipped, /^1,500 lines skipped:$/m);
  assert.match(withSkipped, /^\*\*1,200 records not read as on the platform\*\*/m);
  const { overwrittenLine } = await import('../../../server/src/protocol');
  assert.equal(overwrittenLine({ overwritten: [{ by: 3, requests: 1000 }] }), 'overwritten by rule 3 on 1,000 requests: later rules of the phase win');
});

test('Test Filter report: a run where no line matched says so under "First matching lines" (no empty section)', async () => {
  // Seen running examples/suspicious-api-traffic.filter.json on a delivered batch: the report ended with the heading and nothing.
  const { testReport } = await import('../../../client/src/commands/logpush');
  const md = testReport('a.filter.json', { ...FILTER_RESULT, matched: 0, total: 48, branches: { label: 'and', matched: 0, children: [] }, firstMatches: [] } as never);
  const after = md.slice(md.indexOf('## First matching lines') + '## First matching lines'.length).trim();
  assert.match(after, /^None of the 48 lines matched\b/);
  const some = testReport('a.filter.json', { ...FILTER_RESULT, firstMatches: [{ line: 2, record: { a: 1 } }] } as never);
  assert.doesNotMatch(some, /None of/);
});

// tf16: a comparison of text that matched none of the generated sample names the sample's values of its field, on a line under it.
test('Test Filter report: a branch\'s sampleValues is one line under the branch, as text', async () => {
  const { testReport } = await import('../../../client/src/commands/logpush');
  const host = { label: 'ClientRequestHost eq "api.example.com"', matched: 0, sampleValues: 'The sample\'s ClientRequestHost values: "business.example", "www.business.example"', children: [] };
  const md = testReport('a.logpush.json', { ...FILTER_RESULT, matched: 0, total: 1000, branches: { label: 'and', matched: 0, children: [host] }, firstMatches: [] } as never);
  const lines = md.split('\n');
  const at = lines.indexOf('  - `ClientRequestHost eq "api.example.com"`: 0 (0.0 %)');
  assert.ok(at > 0, md);
  assert.equal(lines[at + 1], '    - The sample\'s ClientRequestHost values: "business.example", "www.business.example"');
  assert.doesNotMatch(testReport('a.filter.json', FILTER_RESULT as never), /The sample's/);
});

test('Zones view tooltips: a job\'s destination, a delivery\'s object and a destination\'s error message stay text (no markdown from the backend)', async () => {
  const { JobItem, DeliveryItem } = await import('../../../client/src/views/zones');
  // An account member names the destination; an HTTP destination answers the error text: neither may add a link to the tooltip.
  const job = { id: 7, name: 'j', dataset: 'http_requests', enabled: true, destination_conf: 'https://logs.example/`[Sign in again](https://evil.example)`',
    last_error: '2026-11-26T04:00:00Z', error_message: 'bad gateway: [Sign in again](https://evil.example) **now**' };
  const md = String((new JobItem(job).tooltip as { value: string }).value);
  assert.ok(md.includes(`- Destination: \`\` https://logs.example/\`[Sign in again](https://evil.example)\` \`\``), md);
  assert.ok(md.includes('\\[Sign in again\\]\\(https\\:\\/\\/evil\\.example\\) \\*\\*now\\*\\*'), md);
  const delivery = { id: 'd', at: '2026-11-26T04:00:00Z', status: 'failed', object: 'a`b', records: 1, bytes: 2, destination: 'x', error: '$(zap) [x](y)' };
  const dm = String((new DeliveryItem(delivery as never).tooltip as { value: string }).value);
  assert.ok(dm.includes('- Object: ``a`b``'), dm);
  assert.ok(dm.includes('- Error: \\$\\(zap\\) \\[x\\]\\(y\\)'), dm);
});

test('Zones view: a job\'s tooltip shows its destination without the credentials in it (a Sumo Logic code, a URL\'s password)', async () => {
  // sec4: the tooltip cut only the query, so a Sumo Logic collector code (the HTTP source's credential) and a password in the
  // URL showed on hover, though every message and the proofs hide them (shownDestination).
  const { JobItem } = await import('../../../client/src/views/zones');
  const tip = (conf: string) => String((new JobItem({ id: 7, name: 'j', dataset: 'http_requests', enabled: true, destination_conf: conf }).tooltip as { value: string }).value);
  const sumo = tip('sumo://endpoint1.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaV2SECRETCODE');
  assert.ok(!sumo.includes('SECRETCODE'), sumo);
  assert.ok(sumo.includes('`sumo://endpoint1.collection.sumologic.com/receiver/v1/http/…`'), sumo);
  const https = tip('https://me:PASSWORD1@logs.example.com/in?header_Authorization=Basic%20abc');
  assert.ok(!https.includes('PASSWORD1') && !https.includes('Basic'), https);
  assert.ok(https.includes('`https://logs.example.com/in?…`'), https);
});

test('Test Filter / Test Rules reports name the skipped lines by number and say when reading stopped before the end', async () => {
  // The report said "1 line(s) skipped (not JSON objects)" with no line named, and a gzip cut short was one of those "lines"; the
  // rules report said nothing about skipped lines at all.
  const { testReport, rulesReport } = await import('../../../client/src/commands/logpush');
  const skipped = { badLines: 4, badLineErrors: ['line 3 is not JSON (Unexpected token)', 'line 9 is not a JSON object', 'line 12 is not JSON (x)'],
    readError: 'reading /l/a.ndjson.gz stopped after line 40: the gzip data is cut short (unexpected end of file)' };
  // The messages are text in the markdown (a JSON error quotes the line it read): compared without their escapes
  const unescape = (m: string) => m.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const md = unescape(testReport('a.filter.json', { ...FILTER_RESULT, ...skipped } as never));
  assert.match(md, /4 lines skipped/);
  for (const e of ['line 3 is not JSON', 'line 9 is not a JSON object', 'line 12 is not JSON']) assert.ok(md.includes(e), md);
  assert.match(md, /stopped after line 40: the gzip data is cut short/);
  assert.doesNotMatch(md, /not JSON objects\)/);
  const rules = unescape(rulesReport('r.ruleset.json', { total: 1, undecided: 1, source: 'sample', rules: [], ...skipped } as never));
  assert.match(rules, /4 lines skipped/);
  assert.match(rules, /\n1 request reaches the end of the rules /);
  assert.ok(rules.includes('line 9 is not a JSON object'), rules);
  assert.match(rules, /stopped after line 40/);
  const records = { recordProblems: { records: 2, examples: ['line 2: "http.hots" is not a rules-language field (did you mean "http.host"?); rules never read it'] } };
  const withRecords = unescape(rulesReport('r.ruleset.json', { total: 3, undecided: 1, source: 'r.ndjson', rules: [], ...records } as never));
  assert.ok(withRecords.includes('2 records not read as on the platform'), withRecords);
  assert.ok(withRecords.includes('- line 2: "http.hots" is not a rules-language field (did you mean "http.host"?)'), withRecords);
  assert.ok(unescape(testReport('a.filter.json', { ...FILTER_RESULT, ...records } as never)).includes('2 records not read as on the platform'));
});

test('Test Filter report: a first match with an integer past 2^53 shows the text the server sends (the line\'s digits), not its doubles', async () => {
  const { testReport } = await import('../../../client/src/commands/logpush');
  const md = testReport('a.filter.json', { ...FILTER_RESULT, firstMatches: [{ line: 1, record: { EdgeStartTimestamp: 1700000000123456789 }, text: '{"EdgeStartTimestamp":1700000000123456789}' }] } as never);
  assert.match(md, /- line 1: `\{"EdgeStartTimestamp":1700000000123456789\}`/);
});

test('Test Rules report: requests read from http_requests log lines say so, and name the fields the rules read that no line gives', async () => {
  const { rulesReport } = await import('../../../client/src/commands/logpush');
  const rule = { index: 0, label: '0: block when ip.src eq 192.0.2.1', action: 'block', enabled: true, terminating: true, matched: 0, applied: 0, decided: 0, skipped: 0, firstMatches: [] };
  const unescape = (m: string) => m.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const md = unescape(rulesReport('w.ruleset.json', { total: 40, undecided: 40, source: '/tmp/b.ndjson', rules: [rule],
    logLines: { lines: 40, first: 1, missing: [{ field: 'ip.src', from: 'ClientIP' }, { field: 'http.cookie' }] } } as never));
  assert.match(md, /\n40 requests reach the end of the rules /);
  assert.ok(md.includes('\n40 lines are `http_requests` log lines, read as the requests they log; the rules read `ip.src` (from `ClientIP`) and ' +
    '`http.cookie` (no log field), which no line gives a value for (a field the job\'s `output_options.field_names` leave out, or one logs do not carry): ' +
    'each is its type\'s empty value on every line, so what they decide may not be what the platform would.'), md);
  assert.ok(!rulesReport('w.ruleset.json', { total: 1, undecided: 1, source: 's', rules: [rule] } as never).includes('log lines'));
  // firewall_events lines, and lines of a file of both datasets: the datasets named as code, what only http_requests gives named so
  const fw = unescape(rulesReport('w.ruleset.json', { total: 40, undecided: 40, source: '/tmp/f.ndjson', rules: [rule],
    logLines: { lines: 30, first: 11, dataset: 'firewall_events', other: { dataset: 'http_requests', lines: 10, first: 1 }, joined: { lines: 4, noRayID: 0 },
      missing: [{ field: 'cf.bot_management.score', from: 'BotScore, an http_requests field' }] } } as never));
  assert.ok(fw.includes('\n30 lines, from line 11, are `firewall_events` log lines, and 10 lines, from line 1, are `http_requests` log lines, read as the requests they log; a request logged in both datasets is read once, ' +
    'from the first of its lines (joined by `RayID`): 4 lines are not read again; the rules read `cf.bot_management.score` (from `BotScore`, an `http_requests` field)'), fw);
  const repeats = unescape(rulesReport('w.ruleset.json', { total: 3, undecided: 3, source: '/tmp/f.ndjson', rules: [rule],
    logLines: { lines: 5, first: 1, dataset: 'firewall_events', events: { repeated: 2, unjoined: 1 }, missing: [] } } as never));
  assert.ok(repeats.includes('\n5 lines are `firewall_events` log lines, read as the requests they log; 2 `firewall_events` lines repeat an earlier line\'s `RayID` ' +
    '(another security event of the same request) and are not read again; 1 `firewall_events` line has no `RayID`, so a request several rules acted on is read once per event.'), repeats);
  const assumed = unescape(rulesReport('w.ruleset.json', { total: 2, undecided: 2, source: '/tmp/a.ndjson', rules: [rule],
    logLines: { lines: 2, first: 1, dataset: 'http_requests', assumed: true, missing: [] } } as never));
  assert.ok(assumed.includes('\n2 lines are log lines of fields both `http_requests` and `firewall_events` have, taken for `http_requests` lines (assumed) and read as the requests they log.'), assumed);
});

test('Test Rules report: what a rule sets (header values, a static value, a removal, a value not evaluated), its values as code spans', async () => {
  const { rulesReport } = await import('../../../client/src/commands/logpush');
  const rule = { index: 0, label: '0: rewrite when true', action: 'rewrite', enabled: true, terminating: false, matched: 2, applied: 2, decided: 0, skipped: 0, firstMatches: [1, 2] };
  const values = [
    { name: 'X-Ctx', path: 'action_parameters.headers.X-Ctx.expression', operation: 'set', expression: 'concat("ip=", to_string(ip.src))',
      examples: [{ line: 1, value: 'ip=1.2.3.4' }, { line: 2, value: 'a`b\nc' }, { line: 3, value: null }], distinct: 3 },
    { name: 'X-Edge', path: 'action_parameters.headers.X-Edge.value', operation: 'set', value: 'on', examples: [], distinct: 1 },
    { name: 'X-Debug', path: 'action_parameters.headers.X-Debug', operation: 'remove', examples: [], distinct: 0 },
    { name: 'X-Hash', path: 'action_parameters.headers.X-Hash.expression', operation: 'set', expression: 'sha256(http.host)', error: 'sha256() at 0 cannot be evaluated', examples: [], distinct: 0 },
  ];
  const md = rulesReport('t.ruleset.json', { total: 2, undecided: 2, source: 'sample', rules: [rule, { ...rule, index: 1, label: '1: block when false' }, { ...rule, index: 2, label: '2: x', values }] } as never);
  const section = md.slice(md.indexOf('## What the rules set'));
  assert.ok(md.includes('## What the rules set'), md);
  assert.ok(section.includes('- rule `2: x`:'), section);
  assert.ok(!section.includes('1: block'), 'a rule that sets nothing is not listed');
  assert.ok(section.includes('  - `X-Ctx` = `concat("ip=", to_string(ip.src))`: 3 distinct values on the requests it matches, the first:'), section);
  assert.ok(section.includes('    - request 1: `ip=1.2.3.4`'), section);
  assert.ok(section.includes('    - request 2: `"a`b\\nc"`'.replace('`"a`b', '``"a`b').replace('c"`', 'c"``')), section);
  assert.ok(section.includes('    - request 3: *no value*'), section);
  assert.ok(section.includes('  - `X-Edge`: `on` (a static value)'), section);
  assert.ok(section.includes('  - `X-Debug`: removed'), section);
  // What a later rule overwrote, under the value
  const over = rulesReport('t.ruleset.json', { total: 2, undecided: 2, source: 'sample', rules: [{ ...rule, values: [{ ...values[1], overwritten: [{ by: 3, requests: 2 }, { by: 5, requests: 1 }] }] }] } as never);
  assert.ok(over.includes('  - `X-Edge`: `on` (a static value)\n    - overwritten by rule 3 on 2 requests, rule 5 on 1 request: later rules of the phase win\n'), over);
  assert.ok(section.includes('  - `X-Hash` = `sha256(http.host)`: not evaluated: sha256() at 0 cannot be evaluated'), section);
  // A report from a server that sends no values has no such section
  assert.ok(!rulesReport('t.ruleset.json', { total: 2, undecided: 2, source: 'sample', rules: [rule] } as never).includes('What the rules set'));
});

test('Test Rules report: a rate limiting rule gets a "Rate limits" section with its counters; a ruleset without one gets none', async () => {
  const { rulesReport } = await import('../../../client/src/commands/logpush');
  const base = { label: '0: block when http.request.uri.path eq "/login"', action: 'block', enabled: true, terminating: true, matched: 5, applied: 2, decided: 2, skipped: 0, firstMatches: [1, 2, 3, 4, 5] };
  const ratelimit = { limit: '2 requests in 10 s', counted: 5, acted: 2, firstActed: [4, 5], keys: 2, untimed: 1, notes: ['The requests are counted as one data center\'s (cf.colo.id): the platform keeps a counter per data center.'],
    characteristics: ['ip.src'], top: [{ values: ['192.0.2.1'], acted: 2 }] };
  const md = rulesReport('rl.ruleset.json', { total: 6, undecided: 4, source: 'sample', rules: [{ ...base, ratelimit }] } as never);
  const section = md.slice(md.indexOf('## Rate limits'));
  assert.ok(md.includes('## Rate limits'), md);
  assert.match(section, /rate limit 2 requests in 10 s: 5 requests counted in 2 counters.*applied to 2, first on lines 4, 5\./);
  assert.match(section, /1 matching request has no http\.request\.timestamp\.sec/);
  assert.match(section, /most acted on: ip\.src 192\.0\.2\.1 \(2\)\./);
  assert.ok(!rulesReport('r.ruleset.json', { total: 6, undecided: 4, source: 'sample', rules: [base] } as never).includes('## Rate limits'));
});

test('the log lines\' sentence says ssl reads true when no line has the scheme, not its type\'s empty value', async () => {
  const { logLinesLine } = await import('../../../server/src/protocol');
  // ssl alone was "it is its type's empty value on every line, ssl true": the one field said to be both
  const line = logLinesLine({ lines: 2, first: 1, missing: [{ field: 'ssl', from: 'ClientRequestScheme' }] });
  assert.match(line, /: it reads true on every line \(a line without its scheme is read as https\), so what it decides/);
  assert.doesNotMatch(line, /empty value/);
  assert.doesNotMatch(logLinesLine({ lines: 2, first: 1, missing: [{ field: 'ip.src', from: 'ClientIP' }] }), /reads true/);
  const withSsl = logLinesLine({ lines: 2, first: 1, missing: [{ field: 'ip.src', from: 'ClientIP' }, { field: 'ssl', from: 'ClientRequestScheme' }] });
  assert.match(withSsl, /: each is its type's empty value on every line, but ssl reads true \(a line without its scheme is read as https\), so what they decide/);
  const two = logLinesLine({ lines: 2, first: 1, missing: [{ field: 'http.request.full_uri', from: 'ClientRequestHost and ClientRequestURI' }, { field: 'http.cookie', from: 'Cookies, a Logpush custom field' }] }, (x) => `<${x}>`);
  assert.match(two, /<http\.request\.full_uri> \(from <ClientRequestHost> and <ClientRequestURI>\) and <http\.cookie> \(from <Cookies>, a Logpush custom field\)/);
});

test('the log lines\' sentence agrees in number whatever the counts: one line or several of each dataset, assumed, fields left out', async () => {
  const { logLinesLine } = await import('../../../server/src/protocol');
  const both = (lines: number, other: number) => logLinesLine({ lines, first: 3, dataset: 'firewall_events', other: { dataset: 'http_requests', lines: other, first: 1 }, joined: { lines: 0, noRayID: 0 }, missing: [] });
  // "1 line, from line 3, are firewall_events log lines, and 1 line, from line 1, http_requests log lines"
  assert.match(both(1, 1), /^1 line, from line 3, is a firewall_events log line, and 1 line, from line 1, is an http_requests log line, read as the requests they log; /);
  assert.match(both(1, 4), /^1 line, from line 3, is a firewall_events log line, and 4 lines, from line 1, are http_requests log lines, read as the requests they log; /);
  assert.match(both(5, 1), /^5 lines, from line 3, are firewall_events log lines, and 1 line, from line 1, is an http_requests log line, read as the requests they log; /);
  // What the join left: one line or several of each count
  const joined = (lines: number, noRayID: number) => logLinesLine({ lines: 5, first: 3, dataset: 'firewall_events', other: { dataset: 'http_requests', lines: 4, first: 1 }, joined: { lines, noRayID }, missing: [] });
  assert.match(joined(1, 1), /\(joined by RayID\): 1 line is not read again; 1 http_requests line has no RayID, so the request it logs is read again from its firewall_events lines\.$/);
  assert.match(joined(2, 3), /\(joined by RayID\): 2 lines are not read again; 3 http_requests lines have no RayID, so the request each logs is read again from its firewall_events lines\.$/);
  assert.match(joined(0, 0), /; a request logged in both datasets is read once, from the first of its lines \(joined by RayID\)\.$/);
  // Assumed: "read as an http_requests line (assumed) and read as the request it logs" said "read as" twice
  assert.equal(logLinesLine({ lines: 1, first: 1, dataset: 'http_requests', assumed: true, missing: [] }),
    '1 line is a log line of fields both http_requests and firewall_events have, taken for an http_requests line (assumed) and read as the request it logs.');
  assert.equal(logLinesLine({ lines: 2, first: 4, dataset: 'firewall_events', assumed: true, missing: [] }),
    '2 lines, from line 4, are log lines of fields both http_requests and firewall_events have, taken for firewall_events lines (assumed) and read as the requests they log.');
  // Fields left out, one and several ("X (…), Y (…)" had no "and"; "they are their type's empty value")
  assert.equal(logLinesLine({ lines: 1, first: 1, missing: [{ field: 'ip.src', from: 'ClientIP' }] }),
    '1 line is an http_requests log line, read as the request it logs; the rules read ip.src (from ClientIP), which no line gives a value for (a field the job\'s ' +
    'output_options.field_names leave out, or one logs do not carry): it is its type\'s empty value on every line, so what it decides may not be what the platform would.');
  assert.match(logLinesLine({ lines: 2, first: 1, missing: [{ field: 'a' }, { field: 'b' }, { field: 'c', from: 'C' }] }),
    /the rules read a \(no log field\), b \(no log field\) and c \(from C\), which no line gives a value for \(.*\): each is its type's empty value on every line, so what they decide may not be/);
});

test('Test Filter and Test Rules refuse a document with errors before asking which logs, naming the first error\'s line', async () => {
  // They asked "which logs?" (and for a file, opened the file dialog) first, then the server refused: "Cannot test x: it has 1
  // error(s), e.g. Expected a comma before "value". (syntax/invalid-json); fix them first." with no line to look at.
  const { ctx, requests } = ctxWith((method) => (method === 'edgekit/documentInfo'
    ? { kind: 'logpush-filter', problems: { errors: 2, warnings: 0, firstError: { line: 3, message: 'Expected a comma before "value".' } } }
    : FILTER_RESULT));
  fake.quickPickAnswers = ['Generated sample', 'Generated sample'];
  const filter = addDocument('file:///ws/bad.filter.json', 'logpush-filter', '{"where": {"key": "ClientIP" "operator": "eq"}}');
  await assert.rejects(logpushTestCommands['edgekit.logpush.testFilter'](ctx)(filter.uri) as Promise<unknown>,
    (err: Error & { actions?: { command: string }[] }) => /bad\.filter\.json has 2 errors, e\.g\. line 4: Expected a comma before "value"\. Fix them, then test again\./.test(err.message)
      && err.actions?.[0]?.command === 'workbench.actions.view.problems');
  const ruleset = addDocument('file:///ws/bad.ruleset.json', 'waf-ruleset', '{"rules": [{"action": "blok"}]}');
  await assert.rejects(logpushTestCommands['edgekit.ruleset.testRules'](ctx)(ruleset.uri) as Promise<unknown>,
    (err: Error) => /bad\.ruleset\.json has 2 errors, e\.g\. line 4:/.test(err.message));
  assert.deepEqual(fake.quickPicks, [], 'not asked which logs or requests');
  assert.deepEqual(requests.filter((r) => r.method !== 'edgekit/documentInfo'), [], 'nothing tested');
  assert.ok(requests.every((r) => r.params.problems === true), 'the problems asked of the server, which has every edit');
});

test('Deliver Logpush Batches Now that delivers nothing says why (the mock\'s reason), not just "0 batch(es) delivered"', async () => {
  // A job had just been created; "Logpush: 0 batch(es) delivered." gave no reason, and "Open Last Delivered Logpush Batch" then told
  // the user to do what they had done (create a job, deliver now).
  const why = 'The jobs\' filters and sample rates kept none of the 20 new records since the last batch.';
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ delivered: 0, failed: 0, why }));
  });
  try {
    const ctx = { zones: { refresh() {} }, backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) } } as unknown as Ctx;
    await trafficCommands['edgekit.logpush.deliverNow'](ctx)();
    assert.deepEqual(fake.messages, [{ kind: 'info', text: `Logpush: no batch delivered. ${why}` }]);
  } finally {
    await server.close();
  }
});

test('Deliver Logpush Batches Now counts the batches in proper English: "1 batch delivered", "2 batches delivered"', async () => {
  const answers = [{ delivered: 1, failed: 0 }, { delivered: 2, failed: 1 }];
  const server = await startServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(answers.shift()));
  });
  try {
    const ctx = { zones: { refresh() {} }, backend: { endpoints: async () => ({ embedded: true, gatewayUrl: '', apiBaseUrl: `${server.url}/client/v4`, apiToken: 't' }) } } as unknown as Ctx;
    await trafficCommands['edgekit.logpush.deliverNow'](ctx)();
    await trafficCommands['edgekit.logpush.deliverNow'](ctx)();
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'Logpush: 1 batch delivered.' },
      { kind: 'warning', text: 'Logpush: 2 batches delivered, 1 failed (see the job\'s error in the Zones view).' }]);
  } finally {
    await server.close();
  }
});

// firewall_events is filed under both scopes in the docs (an account-level page beside the zone one): Create Logpush Job put every
// firewall_events job under a zone.
test('a job of a dataset the platform takes under a zone and under an account is placed in either: named, or picked among both', async () => {
  const { pickJobPlace } = await import('../../../client/src/commands/logpush');
  const ctx = ctxWith((method) => (method === 'edgekit/documentInfo' ? { kind: 'logpush-job', job: { dataset: 'firewall_events', scope: 'both' } } : {})).ctx;
  const api = {
    listZones: async () => ({ ok: true, result: [{ id: 'z1', name: 'a.example', plan: { legacy_id: 'enterprise' } }] }),
    listAccounts: async () => ({ ok: true, result: [{ id: 'acc1', name: 'Example Account' }] }),
  } as unknown as Parameters<typeof pickJobPlace>[1];
  const doc = addDocument('file:///ws/fw.logpush.json', 'logpush-job', '{"dataset": "firewall_events"}');
  const question = { zone: 'Which zone?', account: (d: string) => `Which account for ${d}?`, either: (d: string) => `Which zone or account for ${d}?` };
  fake.quickPickAnswers = ['Example Account'];
  assert.deepEqual(await pickJobPlace(ctx, api, doc as never, undefined, question), { owner: { account: 'acc1' }, ownerName: 'Example Account' });
  assert.equal(fake.quickPicks[0].title, 'Which zone or account for firewall_events?');
  assert.deepEqual(fake.quickPicks[0].labels, ['a.example', 'Example Account']);
  fake.quickPickAnswers = ['a.example'];
  assert.deepEqual(await pickJobPlace(ctx, api, doc as never, undefined, question), { owner: { zone: 'z1' }, ownerName: 'a.example' });
  // Named: a zone or an account, by id or name, without asking
  assert.deepEqual(await pickJobPlace(ctx, api, doc as never, 'acc1', question), { owner: { account: 'acc1' }, ownerName: 'Example Account' });
  assert.deepEqual(await pickJobPlace(ctx, api, doc as never, 'a.example', question), { owner: { zone: 'z1' }, ownerName: 'a.example' });
  assert.equal(fake.quickPicks.length, 2);
  await assert.rejects(pickJobPlace(ctx, api, doc as never, 'nowhere', question), /No zone or account "nowhere"/);
});

// A zone dataset's job named with an account (or an account dataset's with a zone) was refused as "No zone "Example Account"", as if
// the name were wrong; it is right, and of the other kind.
test('a job named with a place of the other kind is refused saying which kind its dataset needs', async () => {
  const { pickJobPlace } = await import('../../../client/src/commands/logpush');
  const api = {
    baseUrl: 'http://127.0.0.1:1',
    listZones: async () => ({ ok: true, result: [{ id: 'z1', name: 'a.example', plan: { legacy_id: 'enterprise' } }] }),
    listAccounts: async () => ({ ok: true, result: [{ id: 'acc1', name: 'Example Account' }] }),
    zone: async () => ({ ok: false, kind: 'http', status: 404, error: 'No such zone.' }),
  } as unknown as Parameters<typeof pickJobPlace>[1];
  const question = { zone: 'Which zone?', account: (d: string) => `Which account for ${d}?`, either: (d: string) => `Which zone or account for ${d}?` };
  const zoneJob = ctxWith((method) => (method === 'edgekit/documentInfo' ? { kind: 'logpush-job', job: { dataset: 'http_requests', scope: 'zone' } } : {})).ctx;
  const doc = addDocument('file:///ws/hr.logpush.json', 'logpush-job', '{"dataset": "http_requests"}');
  await assert.rejects(pickJobPlace(zoneJob, api, doc as never, 'Example Account', question),
    /"Example Account" is an account at http:\/\/127\.0\.0\.1:1, not a zone: an http_requests job belongs to a zone\.$/);
  const accountJob = ctxWith((method) => (method === 'edgekit/documentInfo' ? { kind: 'logpush-job', job: { dataset: 'gateway_dns', scope: 'account' } } : {})).ctx;
  await assert.rejects(pickJobPlace(accountJob, api, doc as never, 'z1', question),
    /"z1" is a zone at http:\/\/127\.0\.0\.1:1 \(a\.example\), not an account: a gateway_dns job belongs to an account\.$/);
  // A name of neither kind: as before
  await assert.rejects(pickJobPlace(zoneJob, api, doc as never, 'nowhere', question), /No zone "nowhere" at http:\/\/127\.0\.0\.1:1\./);
});

test('Restart Language Server says in the status bar that the server restarted (it said so only in the log)', async () => {
  const { COMMANDS } = await import('../../../client/src/commands/table');
  let restarts = 0;
  const logged: string[] = [];
  const ctx = { server: { restart: async () => { restarts++; } }, log: { info: (m: string) => logged.push(m) } };
  await COMMANDS['edgekit.restartServer'](ctx as never)();
  assert.equal(restarts, 1);
  assert.deepEqual(logged, ['Language server restarted.']);
  assert.deepEqual(fake.statusMessages, ['$(check) EdgeKit: language server restarted']);
});

test('Copy Filter as Job String on a filter with errors copies it and says it has them (it copied without a word)', async () => {
  // ui3's walk: a filter with 3 errors was copied as a job string with "Copied the filter ..." alone; the job made with it is refused.
  const { logpushCommands } = await import('../../../client/src/commands/logpush');
  fake.folderSettings.set('/ws', new Map());
  const doc = addDocument('file:///ws/bad.filter.json', 'logpush-filter', '{"where": {"key": "ClientIPP", "operator": "eq", "value": "x"}}');
  const problems = { errors: 3, firstError: { line: 0, message: 'Unknown field "ClientIPP"; did you mean "ClientIP"?' } };
  const { ctx } = ctxWith((method) => (method === 'edgekit/filterToJobString' ? { text: '{"where":{"key":"ClientIPP","operator":"eq","value":"x"}}' }
    : method === 'edgekit/documentInfo' ? { kind: 'logpush-filter', problems } : {}));
  await logpushCommands['edgekit.logpush.filterToString'](ctx)(doc.uri);
  assert.equal(fake.clipboard, JSON.stringify('{"where":{"key":"ClientIPP","operator":"eq","value":"x"}}'));
  assert.deepEqual(fake.messages, [{ kind: 'warning', text: 'Copied the filter as a job "filter" string (57 bytes compact), with its errors: bad.filter.json has 3 errors, '
    + 'e.g. line 1: Unknown field "ClientIPP"; did you mean "ClientIP"? A job with it will probably be refused.' }]);
  // Without errors: as before
  fake.messages.length = 0;
  const { ctx: clean } = ctxWith((method) => (method === 'edgekit/filterToJobString' ? { text: '{}' } : method === 'edgekit/documentInfo' ? { kind: 'logpush-filter', problems: { errors: 0 } } : {}));
  await logpushCommands['edgekit.logpush.filterToString'](clean)(doc.uri);
  assert.deepEqual(fake.messages, [{ kind: 'info', text: 'Copied the filter as a job "filter" string (2 bytes compact).' }]);
});

test('a response document is named after its request without a stray "_" where the label\'s punctuation was', async () => {
  // "batch of 2 (eth_blockNumber, eth_call)" was response-3-batch_of_2_eth_blockNumber_eth_call_.jsonc: the ")" and a cut at 40
  // characters each left an "_" before the extension (ui5's walk).
  const memento = { get: (_k: string, d?: unknown) => d, update: async () => undefined };
  const responses = new Responses(memento as never);
  try {
    const entry = { url: 'http://127.0.0.1/v1/mainnet', body: '[]', summary: '' };
    const name = async (label: string) => (await responses.record({ ...entry, label }, '')).path;
    assert.equal(await name('batch of 2 (eth_blockNumber, eth_call)'), '/response-1-batch_of_2_eth_blockNumber_eth_call.jsonc');
    assert.equal(await name('eth_getBalance'), '/response-2-eth_getBalance.jsonc');
    assert.equal(await name(`${'a'.repeat(39)} (b)`), `/response-3-${'a'.repeat(39)}.jsonc`, 'the cut at 40 characters falls on an "_"');
    assert.equal(await name('(?)'), '/response-4-request.jsonc', 'a label of punctuation only');
  } finally {
    responses.dispose();
  }
});

// ui7's walk: the response document beside the request showed "// Batch of 3: 2 results, 1 error: err" and nothing of the error:
// its header was one comment line per sentence, 200 characters and more, in a column 60 wide.
test('the response header: comment lines of at most 80 characters, broken between words, the text kept', () => {
  const summary = describeRpcResponse(200, [{ jsonrpc: '2.0', id: 1, result: '0x1' }, { jsonrpc: '2.0', id: 2, error: { code: -32004, message: 'Method "eth_sign" is not supported by the gateway.' } }]);
  const url = `http://127.0.0.1:8787/v1/mainnet/${'x'.repeat(90)}`;
  const header = responseHeader([`POST ${url}`, summary]);
  const lines = header.split('\n');
  for (const l of lines) assert.ok(l.startsWith('// '), l);
  for (const l of lines) assert.ok(l.length <= 80 || !l.slice(3).trim().includes(' '), `a line past 80 is one word: ${l}`);
  assert.equal(lines[0], `// POST`, 'a word longer than the width is not cut: it goes on its own line');
  assert.equal(lines[1], `//   ${url}`, 'continuation lines are indented');
  assert.ok(lines.length > 3, header);
  assert.equal(lines.slice(2).map((l) => l.slice(3).trim()).join(' '), summary);
  assert.equal(responseHeader(['HTTP 200 · 8 ms · eth_chainId']), '// HTTP 200 · 8 ms · eth_chainId');
  // ui8's walk: a batch's status line broke before its last "·", and the continuation read "//   · 2:13:15 PM". The separator stays
  // at the end of the line it follows (two characters past the width at most).
  const status = 'HTTP 200 · 17 ms · batch of 5 (eth_blockNumber, eth_chainId, eth_getLogs, …) · 2:13:15 PM';
  assert.deepEqual(responseHeader([status]).split('\n'), ['// HTTP 200 · 17 ms · batch of 5 (eth_blockNumber, eth_chainId, eth_getLogs, …) ·', '//   2:13:15 PM']);
});

// ui8's walk, as a newcomer with ethers or viem code to point at the embedded mock: the gateway's address was in the mock's
// status bar tooltip only (clicking the item stops the mock), nothing in the palette copied it, and its port changes with each
// start (edgekit.mock.port 0), so an address pasted into code stopped working the next day.
test('Copy Gateway URL copies the gateway in use; for the mock on a free port it offers to keep that port', async () => {
  const gatewayUrl = 'http://127.0.0.1:33247/v1/mainnet';
  const ctx = { backend: { endpoints: async (need: string) => { assert.equal(need, 'gateway'); return { embedded: true, gatewayUrl, apiBaseUrl: 'http://127.0.0.1:33247/client/v4' }; } } } as unknown as Ctx;
  fake.answerMessage = (_text, items) => items.find((i) => i.startsWith('Keep'));
  assert.equal(await gatewayCommands['edgekit.gateway.copyUrl'](ctx)(), gatewayUrl);
  assert.equal(fake.clipboard, gatewayUrl);
  assert.equal(fake.messages.length, 1);
  // The URL first: a notification shows its first line only, about 50 characters (ui8's walk: "…gateway URL, http://127.0.0.1:…").
  assert.match(fake.messages[0].text, /^Copied http:\/\/127\.0\.0\.1:33247\/v1\/mainnet, the embedded mock's gateway \(chain id 1; \/v1\/sepolia is Sepolia\)/);
  assert.match(fake.messages[0].text, /port changes with each start/);
  assert.deepEqual(fake.messages[0].items, ['Keep Port 33247']);
  await new Promise((r) => setImmediate(r));
  assert.equal(fake.settings.get('mock.port'), 33247, 'kept in the user settings');
  // A port already set: nothing to offer.
  fake.messages = [];
  await gatewayCommands['edgekit.gateway.copyUrl'](ctx)();
  assert.equal(fake.messages[0].items, undefined);
  assert.doesNotMatch(fake.messages[0].text, /port changes/);
  // A remote gateway: its URL, as set.
  fake.messages = [];
  const remote = { backend: { endpoints: async () => ({ embedded: false, gatewayUrl: 'https://gw.example/v1/mainnet', apiBaseUrl: '' }) } } as unknown as Ctx;
  assert.equal(await gatewayCommands['edgekit.gateway.copyUrl'](remote)(), 'https://gw.example/v1/mainnet');
  assert.deepEqual(fake.messages, [{ kind: 'info', text: 'Copied https://gw.example/v1/mainnet, the gateway of "edgekit.gateway.url".' }]);
});

// Review rv11: the header wrapped by UTF-16 units, so a line of CJK text (two columns a character in the editor) ran to 150
// columns in an 80-column header, and an emoji counted two units for two columns but a family of four (a ZWJ sequence) eleven.
test('the response header wraps by the columns the editor shows: CJK characters and emoji take two, and CJK text breaks between its characters', () => {
  const cjk = 'ゲートウェイはこのメソッドをサポートしていません。リクエストは拒否されました。別のメソッドを使用してください。';
  const header = responseHeader(['HTTP 200 · 8 ms · eth_sign', `Error -32004: ${cjk}`]);
  const lines = header.split('\n');
  for (const l of lines) assert.ok(displayWidth(l) <= 80, `${displayWidth(l)} columns: ${l}`);
  assert.ok(lines.length >= 3, header);
  // The text kept (a break between CJK characters adds no space; one between words takes the space).
  assert.equal(lines.slice(1).map((l) => l.replace(/^\/\/ {1,3}/, '')).join('').replace(/ /g, ''), `Error-32004:${cjk}`);
  assert.ok(lines[2].startsWith('//   ') && /^[\u3000-\u30ff\u4e00-\u9fff]/.test(lines[2].slice(5)), `broken inside the CJK text: ${header}`);
  // Kinsoku: no line starts with closing punctuation ("。") or a small kana, none ends with an opening bracket.
  const tight = responseHeader([`${'あ'.repeat(37)}「テスト」。ょ`]).split('\n');
  for (const l of tight.slice(1)) assert.doesNotMatch(l.slice(5), /^[。」ょ]/, tight.join('\n'));
  for (const l of tight) assert.doesNotMatch(l, /「$/, tight.join('\n'));
  // The widths themselves.
  assert.equal(displayWidth('abc'), 3);
  assert.equal(displayWidth('日本'), 4);
  assert.equal(displayWidth('ｱ'), 1, 'halfwidth katakana');
  assert.equal(displayWidth('ＡＢ'), 4, 'fullwidth forms');
  assert.equal(displayWidth('🚀'), 2);
  assert.equal(displayWidth('👨‍👩‍👧‍👦'), 2, 'a ZWJ family is one emoji');
  assert.equal(displayWidth('🇯🇵'), 2, 'a flag');
  assert.equal(displayWidth('1\ufe0f\u20e3'), 2, 'a keycap emoji (digit, variation selector, enclosing keycap)');
  assert.equal(displayWidth('#\u20e3'), 2, 'a keycap without its variation selector');
  assert.equal(displayWidth('\u2764\ufe0f'), 2, 'a text pictograph with its emoji variation selector');
  assert.equal(displayWidth('\u2764'), 1, 'the same pictograph as text');
  assert.equal(displayWidth('e\u0301'), 1, 'a combining accent');
  assert.equal(displayWidth('a\u200bb'), 2, 'a zero-width space');
  // Emoji in English words: 40 rockets are 80 columns, not 40 "characters".
  const rockets = responseHeader([`${'🚀 '.repeat(40)}`]).split('\n');
  assert.ok(rockets.length >= 2 && rockets.every((l) => displayWidth(l) <= 80), rockets.join('\n'));
});

// rv16: kinsoku held Japanese punctuation only: CJK text with ASCII punctuation (a gateway's message quoting a method) put ")" or
// "," at a line's start and "(" at a line's end, and broke beside an ASCII quote (UAX #14: no break before CL, CP, IS, EX, after OP,
// nor on either side of QU).
test('the response header breaks CJK text neither before ASCII closing punctuation nor after an opening bracket, nor beside a quote', () => {
  for (let n = 30; n < 42; n++) {
    for (const text of [`${'漢'.repeat(n)}),(漢字」`, `${'漢'.repeat(n)}"漢字"。`, `${'漢'.repeat(n)}[x]!漢?漢;漢:漢.漢'漢'`]) {
      const lines = responseHeader([text]).split('\n');
      for (const l of lines.slice(1)) assert.doesNotMatch(l.slice(5), /^[)\],.!?;:"']/, lines.join('\n'));
      for (const l of lines.slice(0, -1)) assert.doesNotMatch(l, /[(["']$/, lines.join('\n'));
    }
  }
});

// rv16: a tab counted no column (a control character) and broke nothing: a line of tab-separated words ran far past the width in an
// editor that shows a tab up to 4 columns wide.
test('the response header writes a tab as a space, where the line may break', () => {
  const lines = responseHeader(['a\tb\t'.repeat(30)], 40).split('\n');
  assert.ok(lines.length > 1, lines.join('\n'));
  for (const l of lines) { assert.doesNotMatch(l, /\t/); assert.ok(l.length <= 40, l); }
});

// rv16: the header's wrap stepped through Intl.Segmenter's segments of the whole line, which slows with the line's length in V8
// (Node 20): a line of 100 000 characters from the gateway took 6 s (one ASCII word), 30 s (CJK), 57 s (lone surrogates) of the
// extension host before the response showed.
// Tests never time: a return of the slow walk shows as minutes of this test, not as a failed bound.
test('the response header of a 100 000-character line keeps its text, its clusters as Intl.Segmenter finds them in the whole line', () => {
  for (const [what, line] of [['CJK', '漢'.repeat(100_000)], ['one word', 'x'.repeat(99_999) + 'é'], ['emoji', '👍'.repeat(50_000)], ['lone surrogates', '\ud800'.repeat(100_000)],
    ['kinsoku', '漢、'.repeat(50_000)], ['combining marks', `a${'\u0301'.repeat(100_000)}`]] as const) {
    const header = responseHeader([line], 60);
    assert.equal(header.split('\n').map((l) => l.replace(/^\/\/ {1,3}/, '')).join(''), line, `${what}: the text kept`);
  }
  // Found a window at a time: the same clusters as in the whole text, across the windows' ends (ZWJ families, flags in runs of odd
  // length, combining runs longer than a window, CRLF, Hangul syllables by jamo).
  const pieces = ['👨\u200d👩\u200d👧\u200d👦', '🇯🇵🇫🇷🇩', 'e' + '\u0301'.repeat(700), '\r\n', '\u1100\u1161\u11a8', 'a', '漢', '\ud83d', ' ', 'ﾞ'];
  let text = '';
  for (let i = 0; text.length < 6000; i++) text += pieces[(i * 7 + (i >> 3)) % pieces.length];
  const whole = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((g) => g.segment);
  assert.deepEqual([...graphemeClusters(text)], whole);
});

test('the response header: a line break in what the gateway said (a carriage return too) starts a comment line of its own (review rv11)', () => {
  // A JSON-RPC error's message is the gateway's text, put in the header as it is: "\r" alone ended the comment in the editor (which
  // breaks lines at \r\n, \r and \n), and the rest of the message stood in the .jsonc response as JSON in error.
  const summary = describeRpcResponse(200, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'execution reverted\rreason: not owner\n\nsee logs' } });
  const header = responseHeader(['HTTP 200 · 8 ms · eth_call', summary, 'No response: socket hang up\r\nretry']);
  const lines = header.split(/\r\n|\r|\n/);
  for (const l of lines) assert.ok(l.startsWith('//'), JSON.stringify(l));
  assert.equal(lines.map((l) => l.replace(/^\/\/\s*/, '')).filter(Boolean).join(' '),
    `HTTP 200 · 8 ms · eth_call ${summary.replace(/\s+/g, ' ')} No response: socket hang up retry`);
});
