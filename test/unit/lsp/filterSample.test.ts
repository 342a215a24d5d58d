// "Test Filter on Logs" in the editor: which filter and dataset a document gives (server/src/lsp/filterSample.ts, filterOf).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { filterOf, sampleLenses } from '../../../server/src/lsp/filterSample';
import { DEFAULT_CAPS, type ServerContext, type TestSample } from '../../../server/src/lsp/context';
import { parseDocument } from '../../../server/src/core/parse';
import { compileRuleset, RememberedMatches } from '../../../server/src/core/eval/rules';
import { sampleRequests } from '../../../server/src/core/eval/sample';

// The job schema takes "filter": null (the API's create and update params, cloudflare SDK 7.3.0): no filter, every line passes, as
// for an absent or empty filter. The command answered "the job's filter is not a string" for a job the check accepts.
test('a job with no filter, an empty one or a null one passes every line; a filter file takes its "$dataset"', () => {
  for (const filter of [undefined, '', null]) {
    const f = filterOf('logpush-job', { destination_conf: 'gs://b', dataset: 'dns_logs', filter }, 'http_requests');
    assert.ok(!('error' in f), JSON.stringify(f));
    assert.deepEqual(f, { filter: { where: { and: [] } }, dataset: 'dns_logs', path: ['dataset'] });
  }
  assert.match((filterOf('logpush-job', { filter: 3 }, 'http_requests') as { error: string }).error, /not a string/);
  assert.equal((filterOf('logpush-filter', { $dataset: 'dns_logs', where: {} }, 'http_requests') as { dataset: string }).dataset, 'dns_logs');
});

// JSON.parse rounds an integer past 2^53 (a unixnano timestamp 1700000000000000001 is read 1700000000000000000): the filter tested
// carries the digits the document (or the job's filter string) writes, as bigints the evaluator compares exactly.
test('the filter tested keeps the digits of its integers past 2^53, from a filter file\'s text and from a job\'s filter string', () => {
  const cond = '{"key": "EdgeStartTimestamp", "operator": "eq", "value": 1700000000000000001}';
  const job = filterOf('logpush-job', { dataset: 'http_requests', filter: `{"where": ${cond}}` }, 'http_requests') as { filter: { where: { value: unknown } } };
  assert.equal(job.filter.where.value, 1700000000000000001n);
  const text = `{"where": ${cond}}`;
  const file = filterOf('logpush-filter', parseDocument(text).value, 'http_requests', text) as { filter: { where: { value: unknown } } };
  assert.equal(file.filter.where.value, 1700000000000000001n);
});

// VS Code asks for a document's lenses again and again for the same version (scrolling, focus, other providers' refreshes): after
// Test Rules each of those counted every rule over every kept request again (35-45 ms on 200 rules x 10 000 requests). The lenses are
// kept per version with the test's sample: the same version is a lookup, a new version, a new test or another dataset counts again.
test('the lenses of a tested document are counted once per text, and again after an edit or a new test', () => {
  const records = sampleRequests(500);
  const rules = (first: string) => JSON.stringify({ rules: [
    { action: 'block', expression: first },
    { action: 'log', expression: 'true' },
  ] }, null, 2);
  const tested = (text: string): TestSample => {
    const remembered = new RememberedMatches(records.length);
    const run = compileRuleset(JSON.parse(text));
    assert.ok(run.ok);
    records.forEach((r, i) => run.take(r, i + 1, remembered));
    return { records, label: 'sample requests', total: records.length, remembered };
  };
  const uri = 'file:///w/a.ruleset.json';
  const ctx = { samples: new Map<string, TestSample>(), caps: DEFAULT_CAPS } as unknown as ServerContext;
  let doc = TextDocument.create(uri, 'waf-ruleset', 1, rules('http.request.method eq "POST"'));
  ctx.samples.set(uri, tested(doc.getText()));
  const lenses = () => sampleLenses(ctx, doc, 'waf-ruleset', parseDocument(doc.getText()), 'http_requests');
  const titles = (l: ReturnType<typeof lenses>) => l.map((x) => x.command?.title);
  const first = lenses();
  assert.equal(first.length, 2);
  assert.equal(lenses(), first, 'the same version again: the same lenses, not counted again');
  const posts = records.filter((r) => r['http.request.method'] === 'POST').length;
  assert.deepEqual(titles(first), [`matches ${posts} · applies to ${posts} · decides ${posts} of 500 sample requests`, `matches 500 · applies to ${500 - posts} · decides 0 of 500 sample requests`]);
  doc = TextDocument.update(doc, [{ text: rules('false') }], 2);
  const edited = lenses();
  assert.notEqual(edited, first);
  assert.deepEqual(titles(edited), ['matches 0 · applies to 0 · decides 0 of 500 sample requests', 'matches 500 · applies to 500 · decides 0 of 500 sample requests']);
  assert.equal(lenses(), edited);
  // A new test of the same version: its own sample, counted on it
  ctx.samples.set(uri, { ...tested(doc.getText()), records: records.slice(0, 100), total: 100 });
  const retested = lenses();
  assert.notEqual(retested, edited);
  assert.deepEqual(titles(retested), ['matches 0 · applies to 0 · decides 0 of 100 sample requests', 'matches 100 · applies to 100 · decides 0 of 100 sample requests']);
  // One version is kept, not one per version
  doc = TextDocument.update(doc, [{ text: rules('true') }], 3);
  lenses();
  assert.equal(ctx.samples.get(uri)?.lenses?.text, doc.getText());
  // Another text under the same version (a client that repeats a version): counted on it
  doc = TextDocument.update(doc, [{ text: rules('false') }], 3);
  assert.deepEqual(titles(lenses()), titles(retested), 'the text of version 3 again, not the lenses of its first text');
  ctx.samples.delete(uri);
  assert.deepEqual(lenses(), [], 'no sample (the document was closed): no lenses');
});

test('a filter\'s lens is kept per version and per edgekit.logpush.dataset (a filter without "$dataset" reads it)', () => {
  const uri = 'file:///w/f.filter.json';
  const records = [{ EdgeResponseStatus: 403 }, { EdgeResponseStatus: 200 }];
  const ctx = { samples: new Map<string, TestSample>([[uri, { records, label: 'lines', total: 2 }]]), caps: DEFAULT_CAPS } as unknown as ServerContext;
  const doc = TextDocument.create(uri, 'logpush-filter', 1, '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": 400}}');
  const lens = (dataset: string) => sampleLenses(ctx, doc, 'logpush-filter', parseDocument(doc.getText()), dataset);
  const a = lens('http_requests');
  assert.deepEqual(a.map((l) => l.command?.title), ['matches 1 of 2 lines']);
  assert.equal(lens('http_requests'), a);
  assert.notEqual(lens('firewall_events'), a, 'another dataset setting: counted again');
});

// The lens counts the filter again on the lines last tested, as the document is now: a job tested on the generated sample (http_requests
// lines) whose "dataset" then became gateway_dns showed "matches 0 of 1,000 sample lines" (a negated comparison: all of them), the
// count edgekit/testFilter refuses to give for another dataset. The lines keep the dataset they were tested as.
test('a filter whose dataset changed since its test is not counted on the lines of the other dataset: the lens says so', () => {
  const uri = 'file:///w/j.logpush.json';
  const records = [{ ClientRequestHost: 'a.example' }, { ClientRequestHost: 'b.example' }];
  const ctx = { samples: new Map<string, TestSample>([[uri, { records, label: 'sample lines', total: 2, dataset: 'http_requests' }]]), caps: DEFAULT_CAPS } as unknown as ServerContext;
  const job = (dataset: string, key: string) => TextDocument.create(uri, 'logpush-job', dataset === 'http_requests' ? 1 : 2, JSON.stringify({
    name: 'j', dataset, destination_conf: 's3://b/p?region=us-east-1', filter: JSON.stringify({ where: { key, operator: '!eq', value: 'x' } }),
  }));
  const title = (doc: TextDocument) => sampleLenses(ctx, doc, 'logpush-job', parseDocument(doc.getText()), 'http_requests').map((l) => l.command?.title);
  assert.deepEqual(title(job('http_requests', 'ClientRequestHost')), ['matches 2 of 2 sample lines']);
  // Short: the lens follows the job's size lens ("6/30 operators · 401/1000 bytes | "), and the editor is half as wide with the report
  // beside it; the sentence it had ("not counted: the sample lines were tested as http_requests, and the filter is now of ...; test it
  // again") was cut off at "were te", and "tested as http_requests: test again" at its last letter.
  assert.deepEqual(title(job('gateway_dns', 'QueryName')), ['test again: was http_requests']);
});
