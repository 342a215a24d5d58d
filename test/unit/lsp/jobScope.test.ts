// edgekit/documentInfo's job scope decides where "Create Logpush Job" asks to put a job: a firewall_events job (a dataset of both
// scopes) that lists a field of account jobs only (ZoneName) can only be an account's, so it is not offered the zones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS, DocumentInfoRequest, type DocumentInfoResult } from '../../../server/src/protocol';
import type { ServerContext } from '../../../server/src/lsp/context';
import type { Diagnostics } from '../../../server/src/lsp/diagnostics';
import { ParseCache } from '../../../server/src/lsp/parseCache';
import { registerRequests } from '../../../server/src/lsp/requests';

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
