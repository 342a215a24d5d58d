// "Test Filter on Logs" in the editor: which filter and dataset a document gives (server/src/lsp/filterSample.ts, filterOf).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterOf } from '../../../server/src/lsp/filterSample';

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
