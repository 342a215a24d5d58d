// The Node server's "Test Filter on Logs" request over LSP: answered on a file, and stopped when the client cancels it (a long log
// file is not read to its end after the user pressed Cancel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

test('edgekit/testFilter answers on a log file, and a cancelled one stops reading it', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-'));
  const logs = path.join(dir, 'big.ndjson');
  const line = JSON.stringify({ EdgeResponseStatus: 403, ClientCountry: 'ca', ClientRequestPath: '/a'.repeat(20) }) + '\n';
  fs.writeFileSync(logs, line.repeat(300_000)); // about 20 MB
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/a.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": "400"}}' } });
    const small = path.join(dir, 'small.ndjson');
    fs.writeFileSync(small, line.repeat(3));
    const r = await server.conn.sendRequest<{ total: number; matched: number }>('edgekit/testFilter', { uri, logs: small });
    assert.deepEqual([r.total, r.matched], [3, 3]);
    const source = new CancellationTokenSource();
    const pending = server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testFilter', { uri, logs }, source.token);
    source.cancel();
    const outcome = await pending.then((x) => x, (e: { code?: number }) => ({ error: `rejected ${e.code}` }));
    assert.ok(outcome.error === 'Cancelled.' || /rejected -32800/.test(String(outcome.error)), `the request stopped: ${JSON.stringify(outcome)}`);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The conversion requests: numbers as written, and the job's dataset in the filter document, its default when the job names none
// (the job's filter is checked against http_requests, the filter document was checked against the edgekit.logpush.dataset setting).
test('edgekit/jobStringToFilter and edgekit/filterToJobString keep a unixnano past 2^53, and a job without dataset gives http_requests', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const filter = '{"where":{"key":"EdgeStartTimestamp","operator":"geq","value":1700000000123456789}}';
    const job = 'file:///w/j.logpush.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: job, languageId: 'logpush-job', version: 1,
      text: JSON.stringify({ name: 'j', filter, destination_conf: 's3://b/p?region=eu-west-1' }) } });
    const r = await server.conn.sendRequest<{ text?: string; dataset?: string }>('edgekit/jobStringToFilter', { uri: job });
    assert.equal(r.text, '{\n  "$dataset": "http_requests",\n  "where": {\n    "key": "EdgeStartTimestamp",\n    "operator": "geq",\n    "value": 1700000000123456789\n  }\n}');
    const file = 'file:///w/f.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: file, languageId: 'logpush-filter', version: 1, text: r.text } });
    const back = await server.conn.sendRequest<{ text?: string }>('edgekit/filterToJobString', { uri: file });
    assert.equal(back.text, filter);
    // A filter serialized twice (the job's filter string holds a JSON string) opens as that string, which the filter document then
    // reports; unwrapped a second time, it showed a valid filter the job does not have.
    const twice = 'file:///w/twice.logpush.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: twice, languageId: 'logpush-job', version: 1,
      text: JSON.stringify({ name: 'j', filter: JSON.stringify(filter), destination_conf: 's3://b/p?region=eu-west-1' }) } });
    const t = await server.conn.sendRequest<{ text?: string }>('edgekit/jobStringToFilter', { uri: twice });
    assert.equal(t.text, JSON.stringify(filter));
  } finally {
    await server.stop();
  }
});
