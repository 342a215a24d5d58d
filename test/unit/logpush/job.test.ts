import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQuery } from '../../../server/src/core/rules/logpush/embedded';
import { applyEdits, check, cmp, codes, jobText, only } from './helpers';
import { fixAll } from '../../../server/src/core/fixAll';

const filterJob = (filter: unknown, extra: Record<string, unknown> = {}): string => jobText({ ...extra, filter: JSON.stringify(filter) });

test('a valid job with a filter has no problems; an empty filter string means no filter', () => {
  assert.deepEqual(codes(filterJob({ where: cmp('EdgeResponseStatus', 'in', [500, 502]) }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ filter: '' }), 'logpush-job'), []);
});

test('filter problems land on the exact characters inside the escaped string', () => {
  const text = filterJob({ where: cmp('ClientCountyr', 'eq', 'us') });
  const p = only(check(text, 'logpush-job'), 'logpush/unknown-field');
  assert.equal(text.substr(p.offset, p.length), '\\"ClientCountyr\\"');
  // the fix edits the escaped text and leaves a valid, clean job
  const fixed = applyEdits(text, p.fixes![0].edits);
  assert.deepEqual(codes(fixed, 'logpush-job'), []);
  assert.equal(JSON.parse(JSON.parse(fixed).filter).where.key, 'ClientCountry');
});

test('filter syntax errors are mapped too, with \\u escapes and newlines before them', () => {
  const text = '{"destination_conf": "gs://b", "filter": "{\\n\\"wh\\u0065re\\": {\\"key\\": \\"ClientCountry\\" \\"operator\\": \\"eq\\"}}"}';
  const p = only(check(text, 'logpush-job'), 'syntax/invalid-json');
  assert.equal(text.substr(p.offset, p.length), '\\"operator\\"');
});

test('after an escape JSON does not have (\\d, \\😀) in a job\'s string, its problems are on the right characters or the whole string, never shifted', () => {
  // The parser drops a bad escape from the value checked ("\d" is read as nothing) while the map from value to text kept it as
  // written: everything after it landed two characters early ("\":\"ClientCounty"), and the fix replaced those characters.
  for (const bad of ['\\d', '\\😀']) {
    const job = `{"destination_conf": "gs://b", "filter": "{\\"where\\": {\\"and\\": [{\\"key\\": \\"ClientRequestPath\\", \\"operator\\": \\"eq\\", \\"value\\": \\"${bad}\\"}, {\\"key\\": \\"ClientCountyr\\", \\"operator\\": \\"eq\\", \\"value\\": \\"ca\\"}]}}"}`;
    const filterLiteral = job.slice(job.indexOf('"{'), job.lastIndexOf('"') + 1);
    const p = only(check(job, 'logpush-job'), 'logpush/unknown-field');
    assert.ok(['\\"ClientCountyr\\"', filterLiteral].includes(job.substr(p.offset, p.length)), `${bad}: ${job.substr(p.offset, p.length)}`);
    for (const f of p.fixes ?? []) assert.match(applyEdits(job, f.edits), /\\"key\\": \\"Client(Country|City)\\"/, f.title);

    const pull = `{"destination_conf": "gs://b", "logpull_options": "fields=ClientIP${bad}&timestamps=x"}`;
    const t = only(check(pull, 'logpush-job'), 'logpush/logpull-invalid-value');
    assert.ok(['x', `"fields=ClientIP${bad}&timestamps=x"`].includes(pull.substr(t.offset, t.length)), `${bad}: ${pull.substr(t.offset, t.length)}`);
  }
});

test('the wrap-in-where fix works inside the string', () => {
  const text = filterJob(cmp('ClientCountry', 'eq', 'us'));
  const p = only(check(text, 'logpush-job'), 'logpush/missing-where');
  const fixed = applyEdits(text, p.fixes![0].edits);
  assert.deepEqual(codes(fixed, 'logpush-job'), []);
});

test('the job dataset selects the fields of its filter; "$dataset" inside a job filter is an error', () => {
  assert.deepEqual(codes(filterJob({ where: cmp('QueryName', 'eq', 'example.com') }, { dataset: 'dns_logs' }), 'logpush-job'), []);
  assert.deepEqual(codes(filterJob({ where: cmp('QueryName', 'eq', 'example.com') }), 'logpush-job'), ['logpush/unknown-field']);
  assert.deepEqual(codes(filterJob({ $dataset: 'dns_logs', where: cmp('QueryName', 'eq', 'x') }, { dataset: 'dns_logs' }), 'logpush-job'), ['logpush/hint-in-job']);
  assert.deepEqual(codes(filterJob({ where: cmp('X', 'eq', 'y') }, { dataset: 'audit_logs' }), 'logpush-job'), ['logpush/unknown-field']);
  assert.deepEqual(codes(filterJob({ where: cmp('ActionType', 'eq', 'create') }, { dataset: 'audit_logs' }), 'logpush-job'), []);
  const p = only(check(jobText({ dataset: 'dns_log' }), 'logpush-job'), 'logpush/unknown-dataset');
  assert.equal(p.fixes?.[0].edits[0].newText, '"dns_logs"');
});

test('job name: letters, digits, "-" and "." only, at most 512 characters', () => {
  assert.deepEqual(codes(jobText({ name: 'api.example-1.com' }), 'logpush-job'), []);
  const text = jobText({ name: 'my job' });
  const p = only(check(text, 'logpush-job'), 'logpush/invalid-job-name');
  assert.deepEqual(codes(applyEdits(text, p.fixes![0].edits), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ name: 'a'.repeat(512) }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ name: 'a'.repeat(513) }), 'logpush-job'), ['logpush/invalid-job-name']);
});

test('parseQuery keeps offsets of keys and values', () => {
  const q = parseQuery('x?a=1&&b&c=', 2);
  assert.deepEqual(q.map((p) => [p.key, p.value, p.keySpan.offset, p.valueSpan.offset]), [['a', '1', 2, 4], ['b', '', 7, 8], ['c', '', 9, 11]]);
});

test('logpull_options: fields, timestamps, sample, CVE flag and unknown keys, each located in the string', () => {
  const text = jobText({ logpull_options: 'fields=RayID,ClientIPP&timestamps=iso&sample=0&CVE-2021-44228=1&stop=1' });
  const ps = check(text, 'logpush-job');
  const at = (code: string): string[] => ps.filter((p) => p.code === code).map((p) => text.substr(p.offset, p.length));
  assert.deepEqual(at('logpush/unknown-field'), ['ClientIPP']);
  assert.deepEqual(at('logpush/logpull-invalid-value'), ['iso', '0', '1']);
  assert.deepEqual(at('logpush/logpull-unknown-key'), ['stop']);
  assert.deepEqual(at('logpush/deprecated-option'), ['"logpull_options"']);
  // a full logpull URL is accepted: only its query counts
  assert.deepEqual(codes(jobText({ logpull_options: 'https://api.example/logs/received?fields=RayID&timestamps=unix' }), 'logpush-job'), ['logpush/deprecated-option']);
});

test('output_options: unknown field_names, template fields, dataset-only options', () => {
  const ok = { field_names: ['ClientIP', 'RayID'], record_template: '{{.ClientIP}} {{ .RayID }}' };
  assert.deepEqual(codes(jobText({ output_options: ok }), 'logpush-job'), []);
  const text = jobText({ output_options: { ...ok, record_template: '{{ .ClientIP }} {{ .EdgeResponseStatus }}' } });
  const p = only(check(text, 'logpush-job'), 'logpush/template-field-not-selected');
  assert.equal(text.substr(p.offset, p.length), 'EdgeResponseStatus');
  // log-output-options.mdx: such fields "will end up as null"; the platform takes the job, so this is a warning, not an error.
  assert.equal(p.severity, 'warning');
  assert.deepEqual(codes(jobText({ output_options: { field_names: ['ClientIP', 'ClientIP'] } }), 'logpush-job'), ['logpush/duplicate-field']);
  assert.deepEqual(codes(jobText({ dataset: 'dns_logs', output_options: { merge_subrequests: true } }), 'logpush-job'), ['logpush/dataset-only-option']);
});

test('destination_conf per scheme', () => {
  const d = (conf: string): string[] => codes(jobText({ destination_conf: conf }), 'logpush-job');
  assert.deepEqual(d('s3://bucket/dir/{DATE}?region=eu-west-1&sse=AES256'), []);
  assert.deepEqual(d('s3://bucket/dir'), ['logpush/destination-missing-param']);
  assert.deepEqual(d('gs://bucket/dir'), []);
  assert.deepEqual(d('r2://bucket/dir?account-id=a&access-key-id=<ID>&secret-access-key=<SECRET>'), []);
  // A Sumo Logic HTTP source's code is its credential: anyone with the URL can send logs to it (the sumo:// form).
  assert.deepEqual(d('sumo://endpoint.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaV0'), ['logpush/secret-in-file']);
  assert.deepEqual(d('sumo://endpoint.collection.sumologic.com/receiver/v1/http/<CODE>'), []);
  assert.deepEqual(d('https://logs.example.com/in?header_Authorization=Basic%20abc'), ['logpush/secret-in-file']);
  assert.deepEqual(d('https://logs.example.com/in?header_X-Team=edge'), []);
  assert.deepEqual(d('ftp://x'), ['logpush/destination-scheme']);
  const text = jobText({ destination_conf: 'sss://bucket/dir?region=us-east-1' });
  const p = only(check(text, 'logpush-job'), 'logpush/destination-scheme');
  assert.equal(text.substr(p.offset, p.length), 'sss');
  assert.deepEqual(codes(applyEdits(text, p.fixes![0].edits), 'logpush-job'), []);
});

test('secrets are information on the credential value; placeholders are not secrets', () => {
  const text = jobText({ destination_conf: 'datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=abcdef0123&ddsource=cloudflare' });
  const p = only(check(text, 'logpush-job'), 'logpush/secret-in-file');
  assert.equal(p.severity, 'information');
  assert.equal(text.substr(p.offset, p.length), 'abcdef0123');
  assert.deepEqual(codes(jobText({ destination_conf: 'datadog://h/api?header_DD-API-KEY=${DD_KEY}' }), 'logpush-job'), []);
});

test('upload limits: 0 or the range; kind edge only for http_requests', () => {
  assert.deepEqual(codes(jobText({ max_upload_bytes: 0, max_upload_records: 1000, max_upload_interval_seconds: 300 }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ max_upload_records: 999 }), 'logpush-job'), ['logpush/upload-limit-range']);
  assert.deepEqual(codes(jobText({ kind: 'edge' }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ kind: 'edge', dataset: 'dns_logs' }), 'logpush-job'), ['logpush/edge-kind-dataset']);
});

test('members the API takes as null (SDK 7.3.0 create params) and filter_attack_traffic are accepted; the flag is for three datasets', () => {
  assert.deepEqual(codes(jobText({
    filter: null, frequency: null, output_options: null, max_upload_bytes: null, max_upload_records: null, max_upload_interval_seconds: null,
    filter_attack_traffic: true,
  }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ output_options: { field_names: ['ClientIP'], sample_rate: null, 'CVE-2021-44228': null, merge_subrequests: null } }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ filter_attack_traffic: 'yes' }), 'logpush-job'), ['schema/type']);
  for (const dataset of ['firewall_events', 'network_analytics_logs']) assert.deepEqual(codes(jobText({ dataset, filter_attack_traffic: true }), 'logpush-job'), []);
  const text = jobText({ dataset: 'dns_logs', filter_attack_traffic: true });
  const p = only(check(text, 'logpush-job'), 'logpush/dataset-only-option');
  assert.equal(text.substr(p.offset, p.length), '"filter_attack_traffic"');
  assert.deepEqual(codes(jobText({ dataset: 'dns_logs', filter_attack_traffic: false }), 'logpush-job'), []);
});

// filters.mdx: "The filter field has limits of approximately 30 operators and 1000 bytes". In a job the field is the string as sent,
// whitespace and all; only a filter file, which "Copy as Job Filter String" compacts, is measured compact.
test('a job\'s filter is measured as the string it sends, not as its compact form', async () => {
  const { getLanguageService } = await import('../../../server/src/core');
  const { parseDocument } = await import('../../../server/src/core/parse');
  const where = { or: Array.from({ length: 12 }, (_, i) => cmp('ClientRequestHost', 'eq', `host${String(i).padStart(2, '0')}.example.com`)) };
  const compact = JSON.stringify({ where });
  const pretty = JSON.stringify({ where }, null, 2);
  assert.ok(Buffer.byteLength(compact) < 900 && Buffer.byteLength(pretty) > 1000, `${Buffer.byteLength(compact)} / ${Buffer.byteLength(pretty)}`);
  assert.deepEqual(codes(jobText({ filter: compact }), 'logpush-job'), []);
  const text = jobText({ filter: pretty });
  const p = only(check(text, 'logpush-job'), 'logpush/size-limit');
  assert.match(p.message, new RegExp(`${Buffer.byteLength(pretty)} bytes`));
  assert.equal(getLanguageService().filterUsage('logpush-job', parseDocument(text))?.bytes, Buffer.byteLength(pretty));
  // Its fix writes the string compactly (whitespace only: numbers as written), which Fix all applies (ui14: a newcomer's filter,
  // pasted pretty-printed into the string, was over the limit with no fix).
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [[`Write the filter string compactly (${Buffer.byteLength(compact)} bytes)`, true]]);
  const fixed = applyEdits(text, p.fixes![0].edits);
  assert.deepEqual(codes(fixed, 'logpush-job'), []);
  assert.equal(JSON.parse(fixed).filter, compact);
  // A warning near the limit gets it too; a compact string, which it would not shorten, gets none.
  const near = { or: where.or.slice(0, 9) };
  const nearText = jobText({ filter: JSON.stringify({ where: near }, null, 1) });
  const w = only(check(nearText, 'logpush-job'), 'logpush/size-limit-near');
  assert.equal(JSON.parse(applyEdits(nearText, w.fixes![0].edits)).filter, JSON.stringify({ where: near }));
  const big = { or: Array.from({ length: 14 }, (_, i) => cmp('ClientRequestHost', 'eq', `host${String(i).padStart(2, '0')}.example.com`)) };
  assert.deepEqual(only(check(jobText({ filter: JSON.stringify({ where: big }) }), 'logpush-job'), 'logpush/size-limit').fixes ?? [], []);
  // The same filter as a filter file is what gets compacted into a job: no problem there.
  assert.deepEqual(codes(JSON.stringify({ where }, null, 2)), []);
});

// rv26: ec338dc0 rewrote only a filter string with whitespace between its tokens, but writing it again also drops escapes a
// compact string may carry: PHP's json_encode writes no whitespace and escapes every "/" ("\/") and every non-ASCII character
// ("\u00e9"). Such a string over the limit lost its fix.
test('a compact filter string whose escapes writing it again shortens keeps its compact fix', () => {
  const where = { or: Array.from({ length: 14 }, (_, i) => cmp('ClientRequestPath', 'eq', `/api/v1/caf\u00e9/${String(i).padStart(2, '0')}/`)) };
  const php = JSON.stringify({ where }).replace(/\//g, '\\/').replace(/\u00e9/g, '\\u00e9');
  assert.ok(!/\s/.test(php) && php.includes('\\/') && php.includes('\\u00e9') && Buffer.byteLength(php) > 1000, php);
  const text = jobText({ filter: php });
  const p = only(check(text, 'logpush-job'), 'logpush/size-limit');
  const short = JSON.stringify(JSON.parse(php));
  assert.ok(Buffer.byteLength(short) < Buffer.byteLength(php));
  assert.deepEqual(p.fixes?.map((f) => f.title), [`Write the filter string compactly (${Buffer.byteLength(short)} bytes)`]);
  assert.equal(JSON.parse(applyEdits(text, p.fixes![0].edits)).filter, short);
});

// rv26 left: a compact filter string whose only gain from writing it again is a duplicate key (JSON.parse keeps the last; rewriteJson
// writes one) got no compact fix, over the limit as near it. The parse's own duplicate-key list (asked for already, so free) says
// when to write it again: one more parse, only for such a string over or near the limit.
test('a compact filter string over or near the limit whose duplicate keys writing it again drops gets its compact fix', () => {
  const ors = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify(cmp('ClientRequestHost', 'eq', `host${String(i).padStart(2, '0')}.example.com`)));
  const withDuplicate = (items: string[]) => `{"where":{"or":[${[items[0].replace('"value":', '"value":"old.example.com","value":'), ...items.slice(1)].join(',')}]}}`;
  for (const [n, code] of [[14, 'logpush/size-limit'], [13, 'logpush/size-limit-near']] as const) {
    const sent = withDuplicate(ors(n));
    assert.ok(!/\s/.test(sent) && !sent.includes('\\'), sent);
    const text = jobText({ filter: sent });
    const problems = check(text, 'logpush-job');
    assert.deepEqual(problems.map((q) => q.code).sort(), [code, 'syntax/duplicate-key'], JSON.stringify(problems.map((q) => q.message)));
    const p = only(problems, code);
    const short = JSON.stringify(JSON.parse(sent));
    assert.ok(Buffer.byteLength(short) < Buffer.byteLength(sent));
    assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [[`Write the filter string compactly, without its ignored duplicate keys (${Buffer.byteLength(short)} bytes)`, true]]);
    const fixed = applyEdits(text, p.fixes![0].edits);
    assert.equal(JSON.parse(fixed).filter, short);
    // Fix all: the compact fix or the duplicate's removal, the same string either way
    assert.equal(JSON.parse(fixAll(text, 'logpush-job').text).filter, short);
  }
  // Without a duplicate, a compact string still gets none (nothing to gain), and a spaced one's title is as before
  assert.equal(only(check(jobText({ filter: `{"where":{"or":[${ors(14).join(',')}]}}` }), 'logpush-job'), 'logpush/size-limit').fixes, undefined);
});

// api-configuration.mdx writes the Azure destination with its SAS query string as a placeholder: `azure://<BLOB_CONTAINER_PATH>/[dir]?<QUERY_STRING>`
// and `azure://myblobcontainer/logs/{DATE}?[QueryString]`. A placeholder stands for the SAS; a real query still needs its sig=.
test('an azure destination whose SAS query string is a placeholder, as the docs write it, is not refused', () => {
  const d = (conf: string): string[] => codes(jobText({ destination_conf: conf }), 'logpush-job');
  assert.deepEqual(d('azure://<BLOB_CONTAINER_PATH>/[dir]?<QUERY_STRING>'), []);
  assert.deepEqual(d('azure://myblobcontainer/logs/{DATE}?[QueryString]'), []);
  assert.deepEqual(d('azure://myblobcontainer/logs?${AZURE_SAS}'), []);
  assert.deepEqual(d('azure://myblobcontainer/logs?sv=2022-11-02&ss=b'), ['logpush/destination-missing-param']);
  assert.deepEqual(d('azure://myblobcontainer/logs'), ['logpush/destination-missing-param']);
  assert.deepEqual(d('azure://myblobcontainer/logs?<QUERY_STRING>&sv=2022-11-02'), ['logpush/destination-missing-param']);
});

// splunk.mdx: <SPLUNK_AUTH_TOKEN> is "The Splunk authorization token that is URL-encoded. For example: Splunk%20e6d9…"; the check
// that a header_* value is URL-encoded ran for https destinations only.
test('a splunk header_Authorization with a raw space is refused, as for https', () => {
  const conf = (token: string): string =>
    `splunk://splunk.example.com:8088/services/collector/raw?channel=FE0ECFAD-13D5-401B-847D-77833BD77131&insecure-skip-verify=false&sourcetype=cloudflare:json&header_Authorization=${token}`;
  const text = jobText({ destination_conf: conf('Splunk e6d94e8c-5792-4ad1-be3c-29bcaee0197d') });
  const p = only(check(text, 'logpush-job'), 'logpush/destination-invalid');
  assert.equal(text.substr(p.offset, p.length), 'Splunk e6d94e8c-5792-4ad1-be3c-29bcaee0197d');
  assert.deepEqual(codes(jobText({ destination_conf: conf('Splunk%20e6d94e8c-5792-4ad1-be3c-29bcaee0197d') }), 'logpush-job'), ['logpush/secret-in-file']);
  assert.deepEqual(codes(jobText({ destination_conf: conf('<SPLUNK_AUTH_TOKEN>') }), 'logpush-job'), []);
});

// enable-destinations/ibm-cloud-logs.mdx: destination_conf "ibmcl://<INSTANCE_ID>.ingress.<REGION>.logs.cloud.ibm.com/logs/v1/singles?ibm_api_key=<IBM_API_KEY>",
// and "max_upload_bytes": 2000000 ("We recommend a default value of 2 MB per upload based on IBM's limits, which our system will
// enforce for this destination"). The scheme was "unknown" and 2 MB under the general 5 MB minimum.
test('an IBM Cloud Logs destination (ibmcl://), as its docs page writes the job', () => {
  const docsJob = {
    name: 'example.com', dataset: 'http_requests', enabled: true, max_upload_bytes: 2000000,
    output_options: { output_type: 'ndjson', timestamp_format: 'rfc3339', batch_prefix: '[', batch_suffix: ']', record_delimiter: ',' },
    destination_conf: 'ibmcl://<INSTANCE_ID>.ingress.<REGION>.logs.cloud.ibm.com/logs/v1/singles?ibm_api_key=<IBM_API_KEY>',
  };
  assert.deepEqual(codes(JSON.stringify(docsJob, null, 2), 'logpush-job'), []);
  const real = jobText({ destination_conf: 'ibmcl://604a309c-585c-4a42-955d-76239ccc1905.ingress.us-south.logs.cloud.ibm.com/logs/v1/singles?ibm_api_key=zxzeNQI22dPw' });
  assert.deepEqual(codes(real, 'logpush-job'), ['logpush/secret-in-file']);
  assert.deepEqual(codes(jobText({ destination_conf: 'ibmcl://604a309c.ingress.us-south.logs.cloud.ibm.com/logs/v1/singles' }), 'logpush-job'), ['logpush/destination-missing-param']);
  // Elsewhere the general range still holds.
  assert.deepEqual(codes(jobText({ max_upload_bytes: 2000000 }), 'logpush-job'), ['logpush/upload-limit-range']);
});

// Destinations with their own docs page and scheme, beyond api-configuration.mdx's list (enable-destinations/kinesis.mdx,
// bigquery.mdx, sentinelone.mdx): each page's destination_conf was "Unknown destination scheme".
test('Kinesis, BigQuery and SentinelOne destinations, as their docs pages write them', () => {
  const d = (conf: string): string[] => codes(jobText({ destination_conf: conf }), 'logpush-job');
  assert.deepEqual(d('kinesis://<STREAM_NAME>?region=<AWS_REGION>&sts-assume-role-arn=arn:aws:iam::<YOUR_AWS_ACCOUNT_ID>:role/<IAM_ROLE_NAME>'), []);
  assert.deepEqual(d('kinesis://<STREAM_NAME>?region=<AWS_REGION>&sts-assume-role-arn=arn:aws:iam::<YOUR_AWS_ACCOUNT_ID>:role/<IAM_ROLE_NAME>&sts-external-id=<EXTERNAL_ID>'), []);
  assert.deepEqual(d('kinesis://<STREAM_NAME>?region=<AWS_REGION>&access-key-id=<AWS_ACCESS_KEY_ID>&secret-access-key=<AWS_SECRET_ACCESS_KEY>'), []);
  assert.deepEqual(d('kinesis://logs?region=us-east-1&access-key-id=AKIAEXAMPLE&secret-access-key=wJalrXUtnFEMI'), ['logpush/secret-in-file']);
  assert.deepEqual(d('kinesis://logs?sts-assume-role-arn=arn:aws:iam::123456789012:role/logpush'), ['logpush/destination-missing-param']);
  assert.deepEqual(d('bq://projects/<PROJECT_ID>/datasets/<DATASET_ID>/tables/<TABLE_ID>?credentials=<ENCODED_VALUE>'), []);
  assert.deepEqual(d('bq://projects/p1/datasets/d1/tables/t1?credentials=base64:eyJ0eXBlIjoic2VydmljZV9hY2NvdW50In0='), ['logpush/secret-in-file']);
  assert.deepEqual(d('bq://projects/p1/datasets/d1/tables/t1'), ['logpush/destination-missing-param']);
  assert.deepEqual(d('sentinelone://<SENTINELONE_ENDPOINT_URL>?sourcetype=<SOURCE_TYPE>&header_Authorization=<SENTINELONE_AUTH_TOKEN>'), []);
  assert.deepEqual(d('sentinelone://ingest.us1.sentinelone.net/services/collector/raw?sourcetype=marketplace-cloudflare-latest&header_Authorization=Bearer%200e6d94e8c'), ['logpush/secret-in-file']);
});

// Problems of the filter string are computed on it as a document of its own; their messages said "The document", which in a job
// file reads as the job (an object) itself.
test('problems of a job\'s filter string name the filter string, not "the document"', () => {
  const messages = (filter: string): string[] => check(jobText({ filter }), 'logpush-job').map((p) => p.message);
  assert.deepEqual(messages('null'), ['The filter string must be an object, not null.']);
  assert.deepEqual(messages('   '), ['The filter string is empty; expected a JSON value.']);
  assert.deepEqual(messages('"{\\"where\\": 1}"'), ['The filter string must be an object, not the string "{\\"where\\": 1}".']);
  assert.match(messages('['.repeat(600))[0], /^The filter string nests arrays and objects more than 512 levels deep/);
});

// The filter string's own name is written into the messages when they are made: user text that holds the words "the document" (a
// key, a value) is quoted as it is, never rewritten.
test('user text inside a job\'s filter string that says "the document" is quoted verbatim', () => {
  const messages = (filter: string): string[] => check(jobText({ filter }), 'logpush-job').map((p) => p.message);
  const where = '"where": {"key": "ClientCountry", "operator": "eq", "value": "us"}';
  assert.deepEqual(messages(`{${where}, "the document": 1}`), ['Unknown property "the document".']);
  assert.match(messages('{"where": {"key": "ClientCountry", "operator": "The document", "value": "us"}}')[0],
    /^"operator" is the string "The document"; expected one of /);
  assert.deepEqual(messages(`{${where}`), ['Expected "}" to close the object at the end of the filter string.']);
  assert.deepEqual(messages(`{${where}}]`), ['Expected the end of the filter string at "]".']);
});

// log-output-options.mdx: record_template is "a Go text/template without any standard functions (like conditionals, loops,
// sub-templates, etc.). The template can only consist of these three types of tokens": an action {{ .Field }} or
// {{ "constant text" }}, text, and {{/* comments */}}; its own example writes a literal {{`doublecurlybraces`}}.
test('record_template: only fields, constants and comments; anything else, or an unclosed action, is template-invalid', () => {
  const tpl = (t: string) => check(jobText({ output_options: { field_names: ['ClientIP', 'RayID'], record_template: t } }), 'logpush-job');
  const docs = '"client-ip":{{.ClientIP}},"ray-id":{{.RayID}}';
  for (const ok of [docs, '{{ .ClientIP }}{{- " | " -}}{{.RayID}}', 'double{{`{{curly}}`}}braces {{"a\\"}}b"}}', '{{/* a comment {{ */}}{{- /* trimmed */ -}}{{.RayID}}', '{{-\t.RayID\n-}}', 'no actions at all', '']) {
    assert.deepEqual(tpl(ok).map((p) => p.code), [], ok);
  }
  for (const [bad, action] of [
    ['{{ if .ClientIP }}{{ .ClientIP }}{{ end }}', '{{ if .ClientIP }}'],
    ['{{ .ClientIP | printf "%q" }}', '{{ .ClientIP | printf "%q" }}'],
    ['{{ range .RayID }}x{{ end }}', '{{ range .RayID }}'],
    ['{{ . }}', '{{ . }}'],
    ['{{ $x := .RayID }}', '{{ $x := .RayID }}'],
    ['{{ template "x" }}', '{{ template "x" }}'],
    ['a {{ .ClientIP ', '{{ .ClientIP '],
  ] as const) {
    const text = jobText({ output_options: { field_names: ['ClientIP', 'RayID'], record_template: bad } });
    const p = only(check(text, 'logpush-job'), 'logpush/template-invalid');
    assert.equal(p.severity, 'error');
    assert.equal(JSON.parse(`"${text.substr(p.offset, p.length)}"`), action, bad);
  }
});

// The API's description of logpull_options (OpenAPI, as in the cloudflare SDK and the Terraform provider's schema.go): "If migrating
// from the logpull api, copy the url (full url or just the query string) of your call here, and logpush will keep on making this
// call for you, setting start and end times appropriately." A Logpull call (logs/logpull/requesting-logs: start, end, count,
// sample, fields, timestamps, CVE-2021-44228) pasted as told got "Unknown logpull_options key" for start, end and count.
test('logpull_options copied from a Logpull call: start, end and count are its keys, not unknown ones', () => {
  const call = 'https://api.cloudflare.com/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/logs/received?start=2026-11-20T10:00:00Z&end=2026-11-20T10:01:00Z&count=1000&fields=RayID,ClientIP&timestamps=rfc3339';
  assert.deepEqual(codes(jobText({ logpull_options: call }), 'logpush-job'), ['logpush/deprecated-option']);
  assert.deepEqual(codes(jobText({ logpull_options: 'start=1700000000&end=1700000060&fields=RayID' }), 'logpush-job'), ['logpush/deprecated-option']);
});

test('record_template: a long unclosed action is quoted shortened in the message, its whole range still marked', () => {
  const t = `{{ .RayID | ${'x'.repeat(200)}`;
  const text = jobText({ output_options: { field_names: ['RayID'], record_template: t } });
  const p = only(check(text, 'logpush-job'), 'logpush/template-invalid');
  assert.equal(JSON.parse(`"${text.substr(p.offset, p.length)}"`), t);
  assert.ok(p.message.length < 160, p.message);
});

test('a Sumo Logic destination\'s collector code is marked as the credential it is, on the code', () => {
  const text = jobText({ destination_conf: 'sumo://endpoint.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaV0?compress=true' });
  const p = only(check(text, 'logpush-job'), 'logpush/secret-in-file');
  assert.equal(text.substr(p.offset, p.length), 'ZaVnC4dhaV0');
  assert.match(p.message, /collector code/);
});

// Cases from a mutation sample of the job rule (docs/architecture.md, "Mutation sample").
test('merge_subrequests on another dataset is flagged only when it is true; output_options without it are fine there', () => {
  assert.deepEqual(codes(jobText({ dataset: 'dns_logs', output_options: { timestamp_format: 'rfc3339' } }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ dataset: 'dns_logs', output_options: { merge_subrequests: false } }), 'logpush-job'), []);
  assert.deepEqual(codes(jobText({ output_options: { merge_subrequests: true } }), 'logpush-job'), []);
});

test('an unknown logpull_options key with no near name lists the known keys', () => {
  const p = only(check(jobText({ logpull_options: 'fields=ClientIP&zzzzqqq=1' }), 'logpush-job'), 'logpush/logpull-unknown-key');
  assert.equal(p.message, 'Unknown logpull_options key "zzzzqqq"; known keys are "fields", "sample", "timestamps" and "CVE-2021-44228".');
  assert.deepEqual(p.fixes, []);
});

test('an unknown destination scheme offers at most two near schemes', () => {
  const p = only(check(jobText({ destination_conf: 'bs3://bucket/logs?region=us-east-1' }), 'logpush-job'), 'logpush/destination-scheme');
  assert.deepEqual(p.fixes?.map((f) => f.title), ['Change to "s3"', 'Change to "bq"']);
  assert.match(p.message, /^Unknown destination scheme "bs3"; use "s3" or "bq"\.$/);
});

// ui14: the starter's output fields are http_requests fields; after "dataset" became gateway_dns the four were errors with no way
// out but deleting them by hand.
test('fields the dataset lacks: one fix removes them all from field_names or fields=, never applied by Fix all', () => {
  const starter = ['ClientIP', 'ClientRequestHost', 'EdgeResponseStatus', 'RayID'];
  const gw = (extra: Record<string, unknown>): string => jobText({ dataset: 'gateway_dns', ...extra });
  const text = gw({ output_options: { field_names: [starter[0], 'QueryName', ...starter.slice(1), 'Datetime'] } });
  const problems = check(text, 'logpush-job');
  assert.deepEqual(problems.map((p) => p.code), starter.map(() => 'logpush/unknown-field'));
  for (const p of problems) assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [['Remove the 4 fields that gateway_dns jobs do not have', undefined]]);
  const fixed = applyEdits(text, problems[2].fixes![0].edits);
  assert.deepEqual(JSON.parse(fixed).output_options.field_names, ['QueryName', 'Datetime']);
  assert.deepEqual(codes(fixed, 'logpush-job'), []);
  // All of them: the list is left empty (the catalogue knows no dataset's default fields to write instead), and the title says so
  const all = gw({ output_options: { field_names: starter } });
  const p = check(all, 'logpush-job')[0];
  assert.equal(p.fixes![0].title, 'Remove the 4 fields that gateway_dns jobs do not have (the list is then empty)');
  assert.deepEqual(JSON.parse(applyEdits(all, p.fixes![0].edits)).output_options.field_names, []);
  // written "[]" (removing the items one by one left "[\n      \n    ]"), in a CRLF document too
  assert.match(applyEdits(all, p.fixes![0].edits), /"field_names": \[\]\n  \}/);
  const crlf = all.replace(/\n/g, '\r\n');
  assert.match(applyEdits(crlf, check(crlf, 'logpush-job')[0].fixes![0].edits), /"field_names": \[\]\r\n  \}/);
  // Fix all drops none (the dataset may be the mistake)
  assert.equal(fixAll(all, 'logpush-job').text, all);
  // logpull_options' fields=, inside the string: the names and their commas
  const pull = gw({ logpull_options: 'fields=ClientIP,QueryName,,RayID,Datetime,EdgeResponseStatus&timestamps=rfc3339' });
  const q = check(pull, 'logpush-job').filter((x) => x.code === 'logpush/unknown-field');
  assert.equal(q.length, 3);
  assert.equal(JSON.parse(applyEdits(pull, q[0].fixes!.at(-1)!.edits)).logpull_options, 'fields=QueryName,Datetime&timestamps=rfc3339');
  const one = gw({ logpull_options: 'fields=QueryName,RayID' });
  const r = only(check(one, 'logpush-job'), 'logpush/unknown-field');
  assert.equal(r.fixes!.at(-1)!.title, 'Remove "RayID", which gateway_dns jobs do not have');
  assert.equal(JSON.parse(applyEdits(one, r.fixes!.at(-1)!.edits)).logpull_options, 'fields=QueryName');
});

test('a likely typo in a field list keeps its one preferred fix (Fix all applies it); the removal goes to the others', () => {
  const text = jobText({ output_options: { field_names: ['RayId', 'QueryName', 'ClientIP'] } });
  const [typo, other] = check(text, 'logpush-job');
  assert.deepEqual(typo.fixes?.map((f) => [f.title, f.preferred]), [['Change to "RayID"', true]]);
  assert.deepEqual(other.fixes?.map((f) => f.title), ['Remove "QueryName", which http_requests jobs do not have']);
  assert.deepEqual(JSON.parse(fixAll(text, 'logpush-job').text).output_options.field_names, ['RayID', 'QueryName', 'ClientIP']);
});
