// How the Logpush job commands read a job document (client/src/jobText.ts): as the language server reads it (the same jsonc-parser
// options), refusing only what the server marks as a syntax error, at the place the server marks it.
import { fake, resetFake, addDocument } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_PARSE_OPTIONS } from '../../../client/src/jobText';
import { readJobText } from '../../../client/src/jobSyntax';
import { PARSE_OPTIONS } from '../../../server/src/core/parse/scanner';
import { validateText } from '../../../server/src/core/validate';
import { logpushJobCommands } from '../../../client/src/commands/logpush';
import { logpushJobLifecycleCommands } from '../../../client/src/commands/logpushJobs';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

test('the commands parse a job document with the language server\'s jsonc-parser options', () => {
  // A copy (the client imports nothing of the server but protocol.ts): held equal here.
  assert.deepEqual(JOB_PARSE_OPTIONS, PARSE_OPTIONS);
});

test('valid JSON reads as JSON.parse reads it (the last of a duplicated key, "__proto__" as a member)', () => {
  const text = '{"name": "a", "name": "b", "__proto__": {"x": 1}, "n": 12345678901234567890}';
  const r = readJobText(text);
  assert.ok('value' in r);
  assert.deepEqual(r.value, JSON.parse(text));
  assert.equal(JSON.stringify(r.value), JSON.stringify(JSON.parse(text)));
});

test('a syntax error is named where the language server marks it, by line and column', () => {
  const docs = [
    '{\n  // a comment\n  "name": "x"\n}\n',
    '{\n  "name": "x",\n  "enabled": true,\n}\n',
    '{\n  "name": "x"\n  "enabled": true\n}\n',
    '{\n  "name": "x",\n  "dataset": "http_requests\n}\n',
    '{\n  "name": "x",\n  /* open\n}\n',
    '{\n  "name": "x",\n',
    '{"name": "x"} {"name": "y"}',
    '{\r\n\t"name": \'x\'\r\n}',
  ];
  for (const text of docs) {
    const r = readJobText(text);
    assert.ok('error' in r, text);
    const server = validateText(text, 'logpush-job').filter((p) => p.code.startsWith('syntax/'));
    // The server may report more than the first (syntaxProblems proves each next one); the commands name the first.
    assert.ok(server.length >= 1, text);
    assert.equal(r.error.offset, server[0].offset, `${JSON.stringify(text)}: at the server's squiggle`);
    const before = text.slice(0, r.error.offset).split(/\r\n|\r|\n/);
    assert.equal(r.error.line, before.length, text);
    assert.equal(r.error.column, before[before.length - 1].length + 1, text);
    assert.equal(r.error.message, server[0].message, text);
  }
});

test('an empty document is refused as empty', () => {
  const r = readJobText(' \n');
  assert.ok('error' in r);
  assert.equal(r.error.message, 'The document is empty; expected a JSON value.');
});

test('a job document that begins with a byte order mark reads as the editor reads it (the mark is no JSON, and nothing is refused)', () => {
  // Editors on Windows may save one; the language server reads it as a space (parse/document.ts) and shows no problem, so a command
  // refusing it with 'Unexpected character at "\ufeff"' named a character nobody sees.
  const text = '\ufeff{\n  "name": "x",\n  "dataset": "http_requests"\n}\n';
  assert.deepEqual(validateText(text, 'logpush-job').filter((p) => p.code.startsWith('syntax/')), []);
  const r = readJobText(text);
  assert.ok('value' in r, JSON.stringify(r));
  assert.deepEqual(r.value, { name: 'x', dataset: 'http_requests' });
  // A broken one is still named where the editor marks it, the mark counted as the editor counts it (one column).
  const brokenText = '\ufeff{\n  "name": "x",\n}\n';
  const broken = readJobText(brokenText);
  assert.ok('error' in broken);
  assert.equal(broken.error.offset, validateText(brokenText, 'logpush-job').find((p) => p.code.startsWith('syntax/'))!.offset);
  assert.deepEqual([broken.error.line, broken.error.column], [2, 14]);
});

test('Create, Update and Prove Ownership refuse a broken job document by file, line and column, and send nothing', async () => {
  fake.folderSettings.set('/ws', new Map());
  const text = '{\n  "id": 5,\n  // staging bucket\n  "name": "x",\n  "dataset": "http_requests",\n  "destination_conf": "s3://b/logs?region=us-east-1"\n}\n';
  const doc = addDocument('file:///ws/jobs/x.logpush.json', 'logpush-job', text);
  const ctx = {
    backend: { endpoints: async () => { throw new Error('the backend was asked'); } },
    server: { request: async () => { throw new Error('the language server was asked'); } },
  } as unknown as Ctx;
  const refused = /jobs\/x\.logpush\.json:3:3: Comments are not allowed in JSON\. Fix it first \(the editor marks it\)\.$/;
  await assert.rejects(logpushJobCommands['edgekit.logpush.createJob'](ctx)(doc.uri, 'z1') as Promise<unknown>, refused);
  await assert.rejects(logpushJobLifecycleCommands['edgekit.logpush.updateJob'](ctx)(doc.uri) as Promise<unknown>, refused);
  await assert.rejects(logpushJobLifecycleCommands['edgekit.logpush.proveOwnership'](ctx)(doc.uri, 'z1', 'TOK') as Promise<unknown>, refused);
});

test('a filter document\'s dataset for "Last delivered batch" is the one the language server checks it with, typing slip or not', async () => {
  // The server reads a broken document as far as it goes (jsonc-parser's value): a filter being edited, a comma missing, is still
  // checked against its "$dataset"; the command read it with JSON.parse and took the setting's dataset instead.
  const { datasetOfFilter } = await import('../../../client/src/commands/logpush');
  const { filterDataset } = await import('../../../server/src/core/rules/logpush/assist');
  const { parseDocument } = await import('../../../server/src/core/parse/document');
  for (const text of ['{"$dataset": "firewall_events", "where": {"and": []}}', '{\n  "$dataset": "firewall_events"\n  "where": {}\n}', '{"where": {}', 'null', '']) {
    const server = filterDataset(parseDocument(text).value, { logpushDataset: 'http_requests' } as never);
    assert.equal(datasetOfFilter(text, 'http_requests'), server, text);
  }
  assert.equal(datasetOfFilter('{\n  "$dataset": "firewall_events"\n  "where": {}\n}', 'http_requests'), 'firewall_events');
});
