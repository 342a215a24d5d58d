// edgekit/documentInfo's job scope decides where "Create Logpush Job" asks to put a job: a firewall_events job (a dataset of both
// scopes) that lists a field of account jobs only (ZoneName) can only be an account's, so it is not offered the zones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { PublishDiagnosticsNotification } from 'vscode-languageserver-protocol/node';
import { DEFAULT_SETTINGS, DocumentInfoRequest, SetJobScopeNotification, type DocumentInfoResult } from '../../../server/src/protocol';
import type { Connection, ServerContext } from '../../../server/src/lsp/context';
import type { Diagnostics } from '../../../server/src/lsp/diagnostics';
import { ParseCache } from '../../../server/src/lsp/parseCache';
import { registerRequests } from '../../../server/src/lsp/requests';
import { SettingsCache } from '../../../server/src/lsp/settings';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

test('documentInfo: a firewall_events job is "both", and "account" when it lists ZoneName', async () => {
  const handlers = new Map<string, (params: unknown) => unknown>();
  let doc = TextDocument.create('file:///fw.logpush.json', 'logpush-job', 1, '{"dataset": "firewall_events", "destination_conf": "gs://b"}');
  const ctx = {
    connection: { onRequest: (type: { method: string }, h: (p: unknown) => unknown) => { handlers.set(type.method, h); }, console: { error: () => undefined } },
    documents: { get: () => doc },
    parses: new ParseCache(() => true),
    settings: { get: async () => DEFAULT_SETTINGS, drop: () => undefined, clear: () => undefined },
  } as unknown as ServerContext;
  registerRequests(ctx, {} as Diagnostics);
  const info = async () => (await handlers.get(DocumentInfoRequest.method)!({ uri: doc.uri })) as DocumentInfoResult;
  assert.deepEqual((await info()).job, { dataset: 'firewall_events', scope: 'both' });
  doc = TextDocument.create(doc.uri, 'logpush-job', 2, '{"dataset": "firewall_events", "output_options": {"field_names": ["RayID", "ZoneName"]}, "destination_conf": "gs://b"}');
  assert.deepEqual((await info()).job, { dataset: 'firewall_events', scope: 'account', scopeField: 'ZoneName' });
});

// Where a job is created decides the fields it may name: ZoneName is a field of account-level firewall_events jobs only. The
// editor's checks know the scope when the client says where the document's job lives (edgekit/setJobScope: the VS Code
// extension does for a job opened from the Zones view, or created, updated or proved there) or the folder declares it
// (edgekit.logpush.scope, for any editor); the known place wins. Not known: ZoneName is accepted, as before.
const FW_JOB = JSON.stringify({
  dataset: 'firewall_events', destination_conf: 's3://bucket/logs?region=us-east-1',
  filter: JSON.stringify({ where: { key: 'ZoneName', operator: 'eq', value: 'a.example' } }),
}, null, 2);
const zoneNameProblems = (items: { code?: unknown; severity?: number; range: { start: { line: number } } }[]) =>
  items.filter((d) => d.code === 'logpush/unknown-field').map((d) => ({ severity: d.severity, line: d.range.start.line }));
/** The filter's line of FW_JOB (0-based), where the problem is. */
const FILTER_LINE = FW_JOB.split('\n').findIndex((l) => l.includes('"filter"'));

test('a pull client: edgekit/setJobScope and edgekit.logpush.scope decide whether ZoneName is flagged; the known place wins; each change asks for a new pull', { timeout: 60_000 }, async () => {
  const settings: Record<string, unknown> = { edgekit: {} };
  const server = await startServer(serverJs(), { workspaceFolders: [{ uri: 'file:///ws', name: 'ws' }], settings });
  let refreshes = 0;
  server.conn.onRequest('workspace/diagnostic/refresh', () => { refreshes++; return null; });
  try {
    const uri = 'file:///ws/fw.logpush.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-job', version: 1, text: FW_JOB } });
    const pull = async () => zoneNameProblems((await server.conn.sendRequest<{ items: { code?: unknown; severity?: number; range: { start: { line: number } } }[] }>('textDocument/diagnostic', { textDocument: { uri } })).items);
    const scope = (s: string | null) => server.conn.sendNotification(SetJobScopeNotification.method, { uri, scope: s });
    const FLAGGED = [{ severity: 1, line: FILTER_LINE }];
    assert.deepEqual(await pull(), [], 'scope not known: ZoneName is accepted');
    await scope('zone');
    assert.deepEqual(await pull(), FLAGGED, 'a zone\'s job');
    assert.equal(refreshes, 1, 'the client is asked to pull again');
    await scope('account');
    assert.deepEqual(await pull(), [], 'an account\'s job');
    await scope(null);
    assert.deepEqual(await pull(), [], 'no longer known');
    // The folder declares its jobs a zone's; a document whose place the client knows keeps that place.
    settings.edgekit = { logpush: { scope: 'zone' } };
    await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.deepEqual(await pull(), FLAGGED, 'the setting');
    await scope('account');
    assert.deepEqual(await pull(), [], 'the known place wins over the setting');
    await scope(null);
    assert.deepEqual(await pull(), FLAGGED, 'the setting again');
    settings.edgekit = { logpush: { scope: 'unknown' } };
    await server.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
    assert.deepEqual(await pull(), [], '"unknown" is not known');
  } finally {
    await server.stop();
  }
});

test('a push client: a document opened before its scope is known is checked again when it becomes known; bad notifications are ignored', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs(), { capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
  try {
    const uri = 'file:///w/fw.logpush.json';
    const published: { uri: string; diagnostics: { code?: unknown; severity?: number; range: { start: { line: number } } }[] }[] = [];
    const waiters: (() => void)[] = [];
    server.conn.onNotification(PublishDiagnosticsNotification.type, (p) => { published.push(p); for (const w of waiters.splice(0)) w(); });
    // The next publish, or a failure after 20 s (a publish that never comes must end the test, not hang it with the server alive).
    const next = () => new Promise<typeof published[number]>((resolve, reject) => {
      const seen = published.length;
      const timer = setTimeout(() => reject(new Error(`no publish after ${seen}`)), 20_000);
      waiters.push(() => { clearTimeout(timer); resolve(published[seen]); });
    });
    let p = next();
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text: FW_JOB } });
    assert.deepEqual(zoneNameProblems((await p).diagnostics), []);
    // Not a scope, no URI, not a URI: nothing changes, and the server goes on.
    for (const params of [{ uri, scope: 'both' }, { scope: 'zone' }, { uri: 7, scope: 'zone' }, {}]) await server.conn.sendNotification(SetJobScopeNotification.method, params);
    p = next();
    await server.conn.sendNotification(SetJobScopeNotification.method, { uri, scope: 'zone' });
    const after = await p;
    assert.equal(after.uri, uri);
    assert.deepEqual(zoneNameProblems(after.diagnostics), [{ severity: 1, line: FILTER_LINE }], 'published again with the zone\'s verdict');
    assert.equal(published.length, 2, 'the bad notifications published nothing');
    assert.ok(server.logs.some((l) => l.includes(SetJobScopeNotification.method)), 'a bad notification is logged');
  } finally {
    await server.stop();
  }
});

test('SettingsCache: a document\'s known scope over its folder\'s setting; forgotten with null, kept through a settings change', async () => {
  const asked: unknown[] = [];
  let folder: unknown = { logpush: { scope: 'account' } };
  const connection = { workspace: { getConfiguration: async (p: unknown) => { asked.push(p); return folder; } } } as unknown as Connection;
  const cache = new SettingsCache(connection, () => true);
  const uri = 'file:///w/a.logpush.json';
  assert.equal((await cache.get(uri)).logpush.scope, 'account', 'the setting');
  assert.equal(cache.setJobScope(uri, 'zone'), true);
  assert.equal(cache.setJobScope(uri, 'zone'), false, 'unchanged');
  assert.equal((await cache.get(uri)).logpush.scope, 'zone', 'the known place wins');
  assert.equal((await cache.get('file:///w/b.logpush.json')).logpush.scope, 'account', 'for its document only');
  folder = {};
  cache.clear();
  assert.equal((await cache.get(uri)).logpush.scope, 'zone', 'a settings change keeps what the client said');
  assert.equal(cache.setJobScope(uri, undefined), true);
  assert.equal((await cache.get(uri)).logpush.scope, undefined, 'not known');
  assert.equal(asked.length, 2, 'still one round trip per folder and settings change');
});
