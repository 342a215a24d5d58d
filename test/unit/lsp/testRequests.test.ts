// The Node server's "Test Filter on Logs" request over LSP: answered on a file, and stopped when the client cancels it (a long log
// file is not read to its end after the user pressed Cancel).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
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

test('a cancelled edgekit/testFilter stops inside a line that does not end (/dev/zero, a pipe, a gzip bomb of one line)', { timeout: 60_000, skip: process.platform === 'win32' }, async () => {
  // Cancellation was looked at between records only, and a line over the length limit gives its record (an error) at its end: on a
  // file without a line break the request read on after Cancel, to the end of the file or, on /dev/zero, for ever.
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/z.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": 400}}' } });
    const source = new CancellationTokenSource();
    const pending = server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testFilter', { uri, logs: '/dev/zero' }, source.token)
      .then((x) => x, (e: { code?: number }) => ({ error: `rejected ${e.code}` }));
    // Cancelled at once, not after a while: no line of /dev/zero ends, so whenever Cancel comes, only a look at it inside the line
    // stops the read (the request has no early look at it to answer before reading).
    source.cancel();
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([pending, new Promise<{ error: string }>((r) => { timer = setTimeout(() => r({ error: 'still reading 10 s after Cancel' }), 10_000); })]);
    clearTimeout(timer);
    assert.ok(outcome.error === 'Cancelled.' || /rejected -32800/.test(String(outcome.error)), `the request stopped: ${JSON.stringify(outcome)}`);
    // The server still answers
    const small = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-')), 'one.ndjson');
    fs.writeFileSync(small, '{"EdgeResponseStatus": 403}\n');
    const r = await server.conn.sendRequest<{ total: number; matched: number }>('edgekit/testFilter', { uri, logs: small });
    assert.deepEqual([r.total, r.matched], [1, 1]);
    fs.rmSync(path.dirname(small), { recursive: true, force: true });
  } finally {
    await server.stop();
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
    // A filter string that is not JSON: the place is the document's line and column, as its diagnostic has it (ui3's walk: JSON.parse's
    // "line 1 column 399" counted inside the string)
    const broken = 'file:///w/broken.logpush.json';
    const text = `{\n  "name": "j",\n  "destination_conf": "s3://b/p?region=eu-west-1",\n  "filter": ${JSON.stringify('{"where": {"key": "ClientIP" "operator": "eq", "value": "192.0.2.1"}}')}\n}\n`;
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: broken, languageId: 'logpush-job', version: 1, text } });
    const b = await server.conn.sendRequest<{ error?: string }>('edgekit/jobStringToFilter', { uri: broken });
    // A name with a space is said as the editor's tab shows it, not as the URI escapes it
    const spaced = 'file:///w/My%20Filter.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: spaced, languageId: 'logpush-filter', version: 1, text: '{"where": ' } });
    const s = await server.conn.sendRequest<{ error?: string }>('edgekit/filterToJobString', { uri: spaced });
    assert.match(s.error ?? '', /^The filter in My Filter\.filter\.json is not valid JSON /, s.error);
    const column = text.split('\n')[3].indexOf('\\"operator') + 1;
    assert.match(b.error ?? '', new RegExp(`^The "filter" string in broken\\.logpush\\.json is not valid JSON: .+ \\(line 4, column ${column} of broken\\.logpush\\.json\\)\\.$`), b.error);
  } finally {
    await server.stop();
  }
});

// A missing log file, a directory or gzip cut inside its header made the request fail with the bare system or zlib message ("ENOENT:
// no such file or directory, open ...", "unexpected end of file"); gzip cut further on, and bad lines, were a count of "skipped lines"
// with none named.
test('edgekit/testFilter and edgekit/testRules: unreadable or cut logs are an error naming the file; bad lines are named', { timeout: 120_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-'));
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/a.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": "400"}}' } });
    const rs = 'file:///w/r.ruleset.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: rs, languageId: 'waf-ruleset', version: 1,
      text: JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }) } });
    const gz = gzipSync(Array.from({ length: 4000 }, (_, i) => JSON.stringify({ EdgeResponseStatus: 400 + (i % 2), RayID: String(i) })).join('\n') + '\n');
    const head = path.join(dir, 'head.ndjson.gz');
    fs.writeFileSync(head, gz.subarray(0, 10));
    const mid = path.join(dir, 'mid.ndjson.gz');
    fs.writeFileSync(mid, gz.subarray(0, Math.floor(gz.length / 2)));
    const bad = path.join(dir, 'bad.ndjson');
    fs.writeFileSync(bad, '{"EdgeResponseStatus": 403}\nnot json\n[1]\n');
    type R = { error?: string; total?: number; badLines?: number; badLineErrors?: string[]; readError?: string };
    const filter = (logs: string) => server.conn.sendRequest<R>('edgekit/testFilter', { uri, logs });
    const rules = (requests: string) => server.conn.sendRequest<R>('edgekit/testRules', { uri: rs, requests });
    for (const ask of [filter, rules]) {
      assert.equal((await ask(path.join(dir, 'none.ndjson'))).error, `Cannot read ${path.join(dir, 'none.ndjson')}: no such file.`);
      assert.equal((await ask(dir)).error, `Cannot read ${dir}: it is a directory.`);
      assert.match(String((await ask(head)).error), new RegExp(`^Reading ${head.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} stopped at byte 10 of the file, before the end of line 1: the gzip data is cut short`));
      const m = await ask(mid);
      assert.equal(m.error, undefined);
      assert.ok(m.total! > 0 && m.total! < 4000, String(m.total));
      assert.match(String(m.readError), new RegExp(`stopped after line ${m.total}, at byte ${fs.statSync(mid).size} of the file: the gzip data is cut short`));
      assert.equal(m.badLines, 0);
      const b = await ask(bad);
      assert.equal(b.total, 1);
      assert.equal(b.badLines, 2);
      assert.deepEqual(b.badLineErrors?.map((e) => e.replace(/ \(.*/, '')), ['line 2 is not JSON', 'line 3 is not a JSON object']);
    }
    // Records read, but not as the platform would: a misspelt request field; logs without the field the filter compares.
    const typo = path.join(dir, 'typo.ndjson');
    fs.writeFileSync(typo, '{"http.hots": "a.com"}\n{"ClientCountry": "ca"}\n');
    const rr = await server.conn.sendRequest<{ recordProblems?: { records: number; examples: string[] }; logLines?: { lines: number } }>('edgekit/testRules', { uri: rs, requests: typo });
    assert.equal(rr.recordProblems?.records, 1);
    assert.equal(rr.logLines?.lines, 1, 'a line with a Logpush field name is an http_requests log line, read as the request it logs');
    assert.match(String(rr.recordProblems?.examples[0]), /^line 1: "http\.hots" is not a rules-language field/);
    const fr = await server.conn.sendRequest<{ recordProblems?: { records: number; examples: string[] } }>('edgekit/testFilter', { uri, logs: typo });
    assert.match(String(fr.recordProblems?.examples[0]), /the filter compares "EdgeResponseStatus", which no record has/);
    const sample = await server.conn.sendRequest<{ recordProblems?: unknown; total?: number }>('edgekit/testFilter', { uri, sample: 50 });
    assert.equal(sample.total, 50);
    assert.equal(sample.recordProblems, undefined, 'the generated sample is not checked: it is ours');
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// edgekit test-filter and test-rules refuse a document with errors ("fix them first"); the editor's requests evaluated it anyway: a
// filter on a field the dataset does not have matched nothing, a rule with an unknown action was counted as "goes on".
test('edgekit/testFilter and edgekit/testRules refuse a document with errors, naming the first and its line, as the CLI does', { timeout: 120_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const open = (uri: string, languageId: string, text: string) => server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    const filter = 'file:///w/bad.filter.json';
    await open(filter, 'logpush-filter', '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}');
    const f = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testFilter', { uri: filter });
    assert.equal(f.total, undefined);
    assert.match(String(f.error), /bad\.filter\.json: it has 1 error, e\.g\. line 1: Unknown field "ClientCountyr".*\(logpush\/unknown-field\)/);
    const job = 'file:///w/bad.logpush.json';
    await open(job, 'logpush-job', JSON.stringify({ name: 'j', dataset: 'http_requests', destination_conf: 's3://b/p?region=eu-west-1',
      filter: JSON.stringify({ where: { key: 'EdgeResponseStatus', operator: 'startsWith', value: '4' } }) }));
    const j = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testFilter', { uri: job });
    assert.equal(j.total, undefined);
    assert.match(String(j.error), /logpush\/operator-not-allowed/);
    const rs = 'file:///w/bad.ruleset.json';
    await open(rs, 'waf-ruleset', JSON.stringify({ rules: [{ action: 'blockk', expression: 'http.host eq "a"' }] }));
    const r = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testRules', { uri: rs });
    assert.equal(r.total, undefined);
    assert.match(String(r.error), /bad\.ruleset\.json: it has \d+ errors?/);
    // Warnings do not stop it (a deprecated field, a header key with capitals)
    const warn = 'file:///w/warn.ruleset.json';
    await open(warn, 'waf-ruleset', JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'any(http.request.headers["X-A"][*] eq "1")' }] }));
    const w = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testRules', { uri: warn });
    assert.equal(w.error, undefined);
    assert.equal(w.total, 1000);
  } finally {
    await server.stop();
  }
});

// The generated sample is http_requests lines: a gateway_dns filter (or a job of an account dataset) "matched 0 of 1,000 sample lines"
// (every negated comparison all of them) with no word that none of them has the dataset's fields.
test('edgekit/testFilter refuses the generated sample for a filter of another dataset than http_requests, and names what to test on', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-'));
  const server = await startServer(serverJs());
  try {
    const open = (uri: string, languageId: string, text: string) => server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    const filter = 'file:///w/dns.filter.json';
    await open(filter, 'logpush-filter', JSON.stringify({ $dataset: 'gateway_dns', where: { key: 'QueryName', operator: '!eq', value: 'example.com' } }));
    const f = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testFilter', { uri: filter, sample: 50 });
    assert.equal(f.total, undefined);
    assert.match(String(f.error), /generated sample holds http_requests log lines.*dns\.filter\.json is a filter of the gateway_dns dataset.*gateway_dns log file/);
    const job = 'file:///w/audit.logpush.json';
    await open(job, 'logpush-job', JSON.stringify({ name: 'a', dataset: 'audit_logs', destination_conf: 's3://b/p?region=eu-west-1',
      filter: JSON.stringify({ where: { key: 'ActionType', operator: 'eq', value: 'create' } }) }));
    assert.match(String((await server.conn.sendRequest<{ error?: string }>('edgekit/testFilter', { uri: job })).error), /filter of the audit_logs dataset/);
    // A log file of the dataset is tested as before
    const logs = path.join(dir, 'dns.ndjson');
    fs.writeFileSync(logs, '{"QueryName": "example.com"}\n{"QueryName": "a.example.org"}\n');
    const r = await server.conn.sendRequest<{ error?: string; total?: number; matched?: number }>('edgekit/testFilter', { uri: filter, logs });
    assert.deepEqual([r.error, r.total, r.matched], [undefined, 2, 1]);
    // An http_requests filter (the setting's default) still runs on the sample
    const http = 'file:///w/http.filter.json';
    await open(http, 'logpush-filter', JSON.stringify({ where: { key: 'EdgeResponseStatus', operator: 'geq', value: 400 } }));
    assert.equal((await server.conn.sendRequest<{ total?: number }>('edgekit/testFilter', { uri: http, sample: 50 })).total, 50);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit/testFilter on the generated sample for a zone: its requests go to that zone and its subdomains; a name that is no host name is refused', { timeout: 60_000 }, async () => {
  // The sample's hosts were example.com's: a job of the zone shop.test filtering on its own host matched none of the sample.
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/shop.logpush.json';
    const filter = JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'endsWith', value: 'shop.test' } });
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-job', version: 1, text: JSON.stringify({ name: 'p', dataset: 'http_requests', destination_conf: 'https://logs.example/in', filter }) } });
    type R = { error?: string; total?: number; matched?: number; source?: string; firstMatches?: { record: Record<string, unknown> }[] };
    const zoned = await server.conn.sendRequest<R>('edgekit/testFilter', { uri, sample: 200, zone: 'Shop.test' });
    assert.deepEqual([zoned.error, zoned.total, zoned.matched], [undefined, 200, 200]);
    assert.equal(zoned.source, 'the generated sample (200 http_requests lines to shop.test and its subdomains)');
    assert.ok(zoned.firstMatches!.every((m) => /^([a-z]+\.)?shop\.test$/.test(String(m.record.ClientRequestHost)) && m.record.ZoneName === 'shop.test'));
    const plain = await server.conn.sendRequest<R>('edgekit/testFilter', { uri, sample: 200 });
    assert.deepEqual([plain.total, plain.matched, plain.source], [200, 0, 'the generated sample (200 http_requests lines)']);
    // A zone named in Unicode (an internationalised domain) goes to its ASCII name, as the Host header and the platform's logs write it
    const idn = await server.conn.sendRequest<R>('edgekit/testFilter', { uri, sample: 20, zone: 'Bücher.test' });
    assert.deepEqual([idn.error, idn.source], [undefined, 'the generated sample (20 http_requests lines to xn--bcher-kva.test and its subdomains)']);
    for (const zone of ['', 'a b', '-x.test', 5, 'x'.repeat(300), 'a..test', 'ü b.test']) {
      const r = await server.conn.sendRequest<R>('edgekit/testFilter', { uri, sample: 10, zone });
      assert.match(String(r.error), /^The zone name .* is not a host name/, JSON.stringify(zone));
      assert.equal(r.total, undefined);
    }
  } finally {
    await server.stop();
  }
});

// tz17: Test Rules' sample went to example.com whatever the ruleset's zone: a migrated zone's rule on its own host matched none of it.
test('edgekit/testRules on the generated sample for a zone: its requests go to that zone and its subdomains; a name that is no host name is refused', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/business.ruleset.json';
    const hosts = '{"business.example" "www.business.example" "api.business.example" "shop.business.example"}';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text: JSON.stringify({ kind: 'zone', phase: 'http_request_firewall_custom', rules: [
      { action: 'log', expression: 'http.host eq "shop.business.example"' },
      { action: 'log', expression: `http.host in ${hosts} and cf.zone.name eq "business.example" and starts_with(http.request.full_uri, concat("https://", http.host, "/"))` },
    ] }) } });
    type R = { error?: string; total?: number; source?: string; rules?: { matched: number }[] };
    const zoned = await server.conn.sendRequest<R>('edgekit/testRules', { uri, sample: 400, zone: 'Business.Example' });
    assert.equal(zoned.error, undefined);
    assert.equal(zoned.source, 'the generated sample (400 requests to business.example and its subdomains)');
    const [shop, all] = zoned.rules!.map((r) => r.matched);
    assert.equal(all, 400, 'every request goes to the zone or a subdomain, with the zone\'s name');
    assert.ok(shop > 0 && shop < 400, `shop.business.example: ${shop}`);
    // No zone: example.com, as before
    const plain = await server.conn.sendRequest<R>('edgekit/testRules', { uri, sample: 400 });
    assert.deepEqual([plain.source, plain.rules!.map((r) => r.matched)], ['the generated sample (400 requests)', [0, 0]]);
    // A zone named in Unicode (an internationalised domain, as a migration's review may be of one) goes to its A-labels, as the Host
    // header and the platform's logs write it (rv29: Test Filter's test had this case, Test Rules' none)
    const idnUri = 'file:///w/buecher.ruleset.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: idnUri, languageId: 'waf-ruleset', version: 1, text: JSON.stringify({ kind: 'zone', phase: 'http_request_firewall_custom', rules: [
      { action: 'log', expression: '(http.host eq "xn--bcher-kva.test" or ends_with(http.host, ".xn--bcher-kva.test")) and cf.zone.name eq "xn--bcher-kva.test"' },
      { action: 'log', expression: 'http.host contains "ü" or http.host contains "Bücher"' },
    ] }) } });
    const idn = await server.conn.sendRequest<R>('edgekit/testRules', { uri: idnUri, sample: 50, zone: 'Bücher.Test' });
    assert.deepEqual([idn.error, idn.source, idn.rules!.map((r) => r.matched)],
      [undefined, 'the generated sample (50 requests to xn--bcher-kva.test and its subdomains)', [50, 0]]);
    // A file of requests is not the sample: the zone does not apply to it (nor is it checked, as Test Filter's with a log file)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-rules-zone-'));
    try {
      const requests = path.join(dir, 'req.ndjson');
      fs.writeFileSync(requests, `${JSON.stringify({ 'http.host': 'other.test' })}\n`);
      const file = await server.conn.sendRequest<R>('edgekit/testRules', { uri, requests, zone: 'business.example' });
      assert.deepEqual([file.error, file.source, file.rules!.map((r) => r.matched)], [undefined, requests, [0, 0]]);
      assert.equal((await server.conn.sendRequest<R>('edgekit/testRules', { uri, requests, zone: 'a b' })).error, undefined);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    for (const zone of ['', 'a b', '-x.test', 5, 'x'.repeat(300), 'a..test', 'ü b.test']) {
      const r = await server.conn.sendRequest<R>('edgekit/testRules', { uri, sample: 10, zone });
      assert.match(String(r.error), /^The zone name .* is not a host name/, JSON.stringify(zone));
      assert.ok(String(r.error).includes(JSON.stringify(zone).slice(0, 20)), `names ${JSON.stringify(zone)}: ${r.error}`);
      assert.equal(r.total, undefined);
    }
  } finally {
    await server.stop();
  }
});

// ui15: a job filtering on api.example.com, tested on the sample of the zone business.example, matched 0 of 1,000 and its report
// showed the host comparison at 0 without saying which hosts the sample has.
test('edgekit/testFilter on the generated sample: a text comparison that matched no line names the sample\'s values of its field; a log file\'s are not named', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-'));
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/api.logpush.json';
    const filter = JSON.stringify({ where: { and: [
      { key: 'ClientRequestHost', operator: 'eq', value: 'api.example.com' },
      { key: 'ClientRequestMethod', operator: 'in', value: ['GET', 'POST'] },
      { key: 'EdgeResponseStatus', operator: 'eq', value: 999 },
      { key: 'ClientRequestPath', operator: '!startsWith', value: '/' },
    ] } });
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-job', version: 1, text: JSON.stringify({ name: 'p', dataset: 'http_requests', destination_conf: 'https://logs.example/in', filter }) } });
    type B = { label: string; matched: number; sampleValues?: string; children: B[] };
    type R = { error?: string; total?: number; matched?: number; branches?: B };
    const r = await server.conn.sendRequest<R>('edgekit/testFilter', { uri, sample: 1000, zone: 'business.example' });
    assert.deepEqual([r.error, r.total, r.matched], [undefined, 1000, 0]);
    const [host, method, status, path_] = r.branches!.children;
    assert.equal(host.matched, 0);
    // The zone's name and its three subdomains, most common first: four values, all named, no "…"
    const named = /^The sample's ClientRequestHost values: (.*)$/.exec(String(host.sampleValues));
    assert.ok(named, String(host.sampleValues));
    assert.deepEqual(named[1].split(', ').sort(), ['"api.business.example"', '"business.example"', '"shop.business.example"', '"www.business.example"']);
    // A comparison that matched lines, a number's comparison and a negated one (the sample has the field in every line) name none
    assert.ok(method.matched > 0);
    assert.deepEqual([method.sampleValues, status.matched, status.sampleValues, path_.matched, path_.sampleValues], [undefined, 0, undefined, 0, undefined]);
    assert.equal(r.branches!.sampleValues, undefined);
    // A log file's values are the user's data: its report names none
    const logs = path.join(dir, 'a.ndjson');
    fs.writeFileSync(logs, JSON.stringify({ ClientRequestHost: 'www.business.example', ClientRequestMethod: 'GET', EdgeResponseStatus: 200, ClientRequestPath: '/' }) + '\n');
    const file = await server.conn.sendRequest<R>('edgekit/testFilter', { uri, logs });
    assert.deepEqual([file.error, file.total, file.branches!.children[0].matched, file.branches!.children[0].sampleValues], [undefined, 1, 0, undefined]);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// "sample" is a count another LSP client may send: 1e9 built a billion records in memory before counting (the server ran out of
// memory); "abc" or -5 gave an empty sample reported as evaluated.
test('edgekit/testFilter and edgekit/testRules: a sample size that is no whole number from 1 to 100 000 is an error, not a run', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/s.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": "400"}}' } });
    const rs = 'file:///w/s.ruleset.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: rs, languageId: 'waf-ruleset', version: 1,
      text: JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }) } });
    for (const method of ['edgekit/testFilter', 'edgekit/testRules']) {
      const target = method === 'edgekit/testFilter' ? uri : rs;
      for (const sample of [-5, 'abc', 2.5, 1e9]) {
        const r = await server.conn.sendRequest<{ error?: string; total?: number }>(method, { uri: target, sample });
        assert.match(String(r.error), /sample size .* whole number from 1 to 100000/, `${method} ${sample}: ${JSON.stringify(r).slice(0, 200)}`);
      }
      assert.equal((await server.conn.sendRequest<{ total?: number }>(method, { uri: target, sample: 20 })).total, 20);
    }
    // The report names the sample with its size written as the lenses write counts ("1000" beside the lens's "1,000" before ui12)
    assert.equal((await server.conn.sendRequest<{ source?: string }>('edgekit/testFilter', { uri, sample: 2000 })).source, 'the generated sample (2,000 http_requests lines)');
    assert.equal((await server.conn.sendRequest<{ source?: string }>('edgekit/testRules', { uri: rs, sample: 2000 })).source, 'the generated sample (2,000 requests)');
  } finally {
    await server.stop();
  }
});

// docs/evaluators.md listed "per-rule code lenses with the counts" as not built: after Test Rules each rule shows what it matches,
// applies to and decides, counted again on the document as it is edited.
test('after edgekit/testRules, each rule has a lens with its counts, and they follow an edit', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-rulelens-'));
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/lens.ruleset.json';
    const body = (first: string) => JSON.stringify({ rules: [
      { action: 'skip', expression: first, action_parameters: { ruleset: 'current' } },
      { action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
    ] }, null, 2);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text: body('ip.src in {10.0.0.0/8}') } });
    type Lens = { range: { start: { line: number } }; command?: { title: string } };
    const lenses = async () => (await server.conn.sendRequest<Lens[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => l.command?.title ?? '');
    assert.ok(!(await lenses()).some((t) => t.includes('decides')), 'no counts before a run');
    const requests = path.join(dir, 'req.ndjson');
    fs.writeFileSync(requests, ['10.1.2.3', '203.0.113.7', '203.0.113.8'].map((ip) => JSON.stringify({ 'ip.src': ip })).join('\n'));
    const r = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testRules', { uri, requests });
    assert.equal(r.error, undefined);
    const counts = (await lenses()).filter((t) => t.includes('decides'));
    assert.deepEqual(counts, ['matches 1 · applies to 1 · decides 1 of 3 requests of req.ndjson', 'matches 3 · applies to 2 · decides 0 of 3 requests of req.ndjson']);
    await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: body('ip.src in {203.0.113.0/24}') }] });
    assert.deepEqual((await lenses()).filter((t) => t.includes('decides')), ['matches 2 · applies to 2 · decides 2 of 3 requests of req.ndjson', 'matches 3 · applies to 1 · decides 0 of 3 requests of req.ndjson']);
    await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: body('ip.src in {') }] });
    assert.ok(!(await lenses()).some((t) => t.includes('decides')), 'no counts while the ruleset does not compile');
    // The lenses are kept per version with the test: a new test of the same version counts on its requests, and closing the
    // document drops them (reopened, its version 1 is not the version 1 counted before)
    await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 4 }, contentChanges: [{ text: body('ip.src in {10.0.0.0/8}') }] });
    assert.deepEqual((await lenses()).filter((t) => t.includes('decides'))[0], 'matches 1 · applies to 1 · decides 1 of 3 requests of req.ndjson');
    fs.writeFileSync(requests, ['10.1.2.3', '10.1.2.4'].map((ip) => JSON.stringify({ 'ip.src': ip })).join('\n'));
    assert.equal((await server.conn.sendRequest<{ error?: string }>('edgekit/testRules', { uri, requests })).error, undefined);
    assert.deepEqual((await lenses()).filter((t) => t.includes('decides'))[0], 'matches 2 · applies to 2 · decides 2 of 2 requests of req.ndjson');
    await server.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text: body('ip.src in {10.0.0.0/8}') } });
    assert.ok(!(await lenses()).some((t) => t.includes('decides')), 'no counts after the document was closed');
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the lines kept for the lenses are bounded in size too, not only in number (10 000 lines of 1 MB were 10 GB)', { timeout: 60_000 }, async () => {
  // Each kept line stays in memory for the document's lens: 10 000 lines near the reader's 1 MiB line limit took the server past
  // its heap. Past a budget of characters, lines are counted and not kept, and the lens says "of the first N lines".
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-lensbig-'));
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/big.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": 400}}' } });
    const logs = path.join(dir, 'big.ndjson');
    const agent = 'x'.repeat(300_000);
    fs.writeFileSync(logs, Array.from({ length: 100 }, (_, i) => JSON.stringify({ EdgeResponseStatus: i % 2 ? 403 : 200, ClientRequestUserAgent: agent })).join('\n'));
    const r = await server.conn.sendRequest<{ total?: number; matched?: number }>('edgekit/testFilter', { uri, logs });
    assert.deepEqual([r.total, r.matched], [100, 50], 'every line is counted in the report');
    const titles = (await server.conn.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => l.command?.title ?? '');
    const m = titles.map((t) => /^matches (\d+) of the first (\d+) lines of big\.ndjson$/.exec(t)).find(Boolean);
    assert.ok(m, JSON.stringify(titles));
    assert.ok(Number(m[2]) >= 1 && Number(m[2]) * 300_000 <= 32 * 1024 * 1024, `${m[2]} lines of 300 000 characters kept`);
    assert.equal(Number(m[1]), Math.floor(Number(m[2]) / 2));
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the generated sample kept for the lenses is bounded in size as a file\'s lines are (10 000 sample requests of about 7 KB were 70 MB)', { timeout: 120_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/sample.ruleset.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text: JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'true' }] }) } });
    const r = await server.conn.sendRequest<{ error?: string; total?: number }>('edgekit/testRules', { uri, sample: 10_000 });
    assert.deepEqual([r.error, r.total], [undefined, 10_000]);
    const titles = (await server.conn.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => l.command?.title ?? '');
    const m = titles.map((t) => /of the first ([\d,]+) sample requests$/.exec(t)).find(Boolean);
    assert.ok(m, JSON.stringify(titles));
    const kept = Number(m[1].replace(/,/g, ''));
    assert.ok(kept >= 1 && kept < 10_000, `${kept} kept`);
  } finally {
    await server.stop();
  }
});

test('a lens counts the lines kept for it, and says "the first" when the file had more', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-lenskept-'));
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/kept.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": 400}}' } });
    const logs = path.join(dir, 'many.ndjson');
    fs.writeFileSync(logs, Array.from({ length: 10_005 }, (_, i) => JSON.stringify({ EdgeResponseStatus: i % 2 ? 403 : 200 })).join('\n'));
    const r = await server.conn.sendRequest<{ total?: number; matched?: number }>('edgekit/testFilter', { uri, logs });
    assert.deepEqual([r.total, r.matched], [10_005, 5_002]);
    const titles = (await server.conn.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => l.command?.title);
    assert.ok(titles.includes('matches 5,000 of the first 10,000 lines of many.ndjson'), JSON.stringify(titles));
    fs.writeFileSync(logs, Array.from({ length: 4 }, (_, i) => JSON.stringify({ EdgeResponseStatus: i % 2 ? 403 : 200 })).join('\n'));
    await server.conn.sendRequest('edgekit/testFilter', { uri, logs });
    const again = (await server.conn.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => l.command?.title);
    assert.ok(again.includes('matches 2 of 4 lines of many.ndjson'), JSON.stringify(again));
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit/testFilter on a line with a unixnano timestamp past 2^53: compared by its digits, and its first match sent with them', { timeout: 60_000 }, async () => {
  // The record holds a bigint (readNdjson keeps the line's digits), which JSON-RPC cannot send: the request failed. The record is sent
  // with its nearest doubles, and its text with the line's digits.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testreq-'));
  const server = await startServer(serverJs());
  try {
    const logs = path.join(dir, 'ts.ndjson');
    fs.writeFileSync(logs, '{"EdgeStartTimestamp": 1700000000123456789}\n{"EdgeStartTimestamp": 1700000000123456788}\n');
    const uri = 'file:///w/ts.filter.json';
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'logpush-filter', version: 1, text: '{"where": {"key": "EdgeStartTimestamp", "operator": "eq", "value": 1700000000123456789}}' } });
    const r = await server.conn.sendRequest<{ error?: string; total: number; matched: number; firstMatches: { line: number; record: Record<string, unknown>; text?: string }[] }>('edgekit/testFilter', { uri, logs });
    assert.equal(r.error, undefined);
    assert.deepEqual([r.total, r.matched], [2, 1]);
    assert.deepEqual(r.firstMatches.map((m) => [m.line, m.text]), [[1, '{"EdgeStartTimestamp":1700000000123456789}']]);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit/testRules: a rule that sets a header sends what its value expression gave on the first requests it matched', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/t.ruleset.json';
    const text = JSON.stringify({ name: 't', kind: 'zone', phase: 'http_request_late_transform', rules: [
      { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-Ctx': { operation: 'set', expression: 'concat("host=", http.host)' } } } },
      { action: 'rewrite', expression: 'false', action_parameters: { uri: { path: { value: '/x' } } } },
    ] }, null, 2);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text } });
    type V = { name: string; examples: { line: number; value: string | null }[]; distinct: number; value?: string };
    const r = await server.conn.sendRequest<{ error?: string; rules?: { values?: V[] }[] }>('edgekit/testRules', { uri, sample: 50 });
    assert.equal(r.error, undefined);
    const [ctx] = r.rules![0].values!;
    assert.equal(ctx.name, 'X-Ctx');
    assert.deepEqual(ctx.examples.map((e) => e.line), [1, 2, 3]);
    assert.ok(ctx.examples.every((e) => /^host=[a-z.]*example\.com$/.test(e.value ?? '')), JSON.stringify(ctx.examples));
    assert.ok(ctx.distinct >= 1 && ctx.distinct <= 4, String(ctx.distinct));
    assert.deepEqual(r.rules![1].values, [{ name: 'URI path', path: 'action_parameters.uri.path.value', value: '/x', examples: [], distinct: 1 }]);
  } finally {
    await server.stop();
  }
});

test('edgekit/testRules on http_requests log lines: read as the requests they log, the fields no line gives named, and the lenses count them after an edit', { timeout: 60_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-rulelogs-'));
  const server = await startServer(serverJs());
  try {
    const uri = 'file:///w/logs.ruleset.json';
    const body = (path: string) => JSON.stringify({ phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: `http.request.uri.path eq "${path}" and not http.cookie contains "s"` }] }, null, 2);
    await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text: body('/a') } });
    const logs = path.join(dir, 'http_requests.ndjson');
    fs.writeFileSync(logs, ['/a', '/b', '/a'].map((p) => JSON.stringify({ ClientRequestPath: p, ClientIP: '192.0.2.1' })).join('\n'));
    type R = { error?: string; total?: number; logLines?: unknown; recordProblems?: unknown; rules?: { matched: number }[] };
    const r = await server.conn.sendRequest<R>('edgekit/testRules', { uri, requests: logs });
    assert.equal(r.error, undefined);
    assert.equal(r.recordProblems, undefined, 'Logpush names are not flagged as misspelt request fields');
    // Path and address only: fields firewall_events lines have too, so the dataset is assumed
    assert.deepEqual(r.logLines, { lines: 3, first: 1, dataset: 'http_requests', assumed: true, missing: [{ field: 'http.cookie', from: 'Cookies, a Logpush custom field' }] });
    assert.equal(r.rules![0].matched, 2);
    await server.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: body('/b') }] });
    type Lens = { command?: { title: string } };
    const lenses = (await server.conn.sendRequest<Lens[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => l.command?.title ?? '').filter((t) => t.includes('decides'));
    assert.deepEqual(lenses, ['matches 1 · applies to 1 · decides 1 of 3 requests of http_requests.ndjson']);
    // firewall_events lines: the dataset is told, a second event of a request (its RayID again) is not a second request
    const events = path.join(dir, 'firewall_events.ndjson');
    fs.writeFileSync(events, [['1', '/a', 'log'], ['1', '/a', 'block'], ['2', '/b', 'block']]
      .map(([ray, p, action]) => JSON.stringify({ RayID: ray, ClientRequestPath: p, ClientRequestQuery: '', Action: action, Datetime: '2026-11-26T10:00:01Z' })).join('\n'));
    const fw = await server.conn.sendRequest<R & { logLines?: { dataset?: string; lines?: number; events?: unknown } }>('edgekit/testRules', { uri, requests: events });
    assert.equal(fw.total, 2);
    assert.deepEqual([fw.logLines?.dataset, fw.logLines?.lines, fw.logLines?.events], ['firewall_events', 3, { repeated: 1, unjoined: 0 }]);
    assert.equal(fw.recordProblems, undefined);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
