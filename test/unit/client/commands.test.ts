// The client's commands as a user meets them, in plain Node with the stand-in `vscode` module (./vscode.ts): what they ask, what they
// send to the language server, and what they say.
import { fake, resetFake, addDocument } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { logpushTestCommands } from '../../../client/src/commands/logpush';
import type { Ctx } from '../../../client/src/ctx';

/** A Ctx whose language server records the requests and answers them with `answer`. */
function ctxWith(answer: (method: string, params: Record<string, unknown>) => unknown) {
  const requests: { method: string; params: Record<string, unknown> }[] = [];
  const ctx = {
    server: { request: async (type: { method: string }, params: Record<string, unknown>) => { requests.push({ method: type.method, params }); return answer(type.method, params); } },
    log: { info() {}, warn() {}, error() {}, show() {} },
  } as unknown as Ctx;
  return { ctx, requests };
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

test('Test Filter on Logs… with "sample" or a path as its argument does not ask', async () => {
  const doc = addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}');
  const { ctx, requests } = ctxWith(() => FILTER_RESULT);
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(doc.uri, 'sample');
  await logpushTestCommands['edgekit.logpush.testFilter'](ctx)(doc.uri.toString(), '/logs/x.ndjson');
  assert.equal(fake.quickPicks.length, 0);
  assert.deepEqual(requests.filter((r) => r.method === 'edgekit/testFilter').map((r) => r.params.logs), [undefined, '/logs/x.ndjson']);
});
