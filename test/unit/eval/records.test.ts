// Records the evaluators cannot read as the platform would (core/eval/records.ts): request records for test-rules (a field the rules
// language does not have, a value of the wrong type) and log files for test-filter (a field the filter compares that no line has).
// Without these the counts look right and are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { filterKeys, filterValueReaders, logRecordChecker, requestRecordChecker, sampleRequests } from '../../../server/src/core';
import { main } from '../../../server/src/cli';

async function run(argv: string[]) {
  let stdout = '', stderr = '';
  const code = await main(argv, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
  return { code, stdout, stderr };
}

test('request records: a misspelt field, a header value that is no array, an integer as a string, an IP that is none; once per kind', () => {
  const c = requestRecordChecker();
  c.take({ 'http.host': 'a.com', 'ip.src': '203.0.113.7', 'http.request.headers': { 'user-agent': ['x'] }, 'cf.waf.score': 20 }, 1);
  c.take({ 'http.hots': 'a.com' }, 2);
  c.take({ 'http.hots': 'b.com' }, 3);
  c.take({ 'http.request.headers': { 'user-agent': 'curl/8' } }, 4);
  c.take({ 'cf.waf.score': '20', 'ip.src': 'localhost', 'http.referer': null }, 5);
  const r = c.result();
  assert.ok(r);
  assert.equal(r.records, 4, 'lines 2-5');
  assert.deepEqual(r.examples, [
    'line 2: "http.hots" is not a rules-language field (did you mean "http.host"?); rules never read it',
    'line 4: "http.request.headers" is Map<Array<String>> on the platform, here the string "curl/8" at "user-agent", which the rules cannot read as the platform would',
    'line 5: "cf.waf.score" is Integer on the platform, here the string "20", which the rules cannot read as the platform would',
  ], 'one example per kind, at most three');
  const ok = requestRecordChecker();
  ok.take({ 'http.host': 'a.com', 'ip.src': '2001:db8::1', ssl: true, 'http.request.uri.args': { a: ['1'] } }, 1);
  assert.equal(ok.result(), undefined);
});

test('the generated sample requests are read as the platform would (the sample is platform-shaped)', () => {
  const c = requestRecordChecker();
  sampleRequests(500).forEach((r, i) => c.take(r, i + 1));
  assert.equal(c.result(), undefined, JSON.stringify(c.result()));
});

test('log records: a field the filter compares that no line has is named, with what its comparisons do then', () => {
  const filter = { where: { and: [{ key: 'ClientCountry', operator: 'eq', value: 'ca' }, { or: [{ key: 'EdgeResponseStatus', operator: 'geq', value: 400 }, { key: 'ClientRequestPath', operator: '!startsWith', value: '/x' }] }] } };
  assert.deepEqual(filterKeys(filter), ['ClientCountry', 'EdgeResponseStatus', 'ClientRequestPath']);
  const c = logRecordChecker(filterKeys(filter));
  c.take({ ClientCountry: 'ca', EdgeResponseStatus: 403 }, 7);
  c.take({ ClientCountry: 'us' }, 8);
  const r = c.result();
  assert.ok(r);
  assert.equal(r.records, 2);
  assert.match(r.examples[0], /^from line 7 on: the filter compares "ClientRequestPath", which no record has, so its positive comparisons never match and the negated ones/);
  const all = logRecordChecker(['ClientCountry']);
  all.take({ ClientCountry: 'ca' }, 1);
  all.take({}, 2);
  assert.equal(all.result(), undefined, 'one line having it is enough');
  assert.equal(logRecordChecker(['ClientCountry']).result(), undefined, 'no lines, nothing to say');
});

// A value the filter's comparisons cannot read decides them as a missing field would, in silence: an account dataset's timestamp
// written as RFC 3339 text (a job with timestamp_format rfc3339, the docs' own examples) against "gt" a number, a Bool field
// written "yes", an array[int] field written as one string.
test('log records: a value the filter\'s comparisons cannot read for the field\'s type is named (timestamps as text against numbers, bool, arrays)', () => {
  const filter = { where: { and: [
    { key: 'Datetime', operator: 'geq', value: 1763600000000000000n },
    { key: 'QueryCategoryIDs', operator: 'contains', value: 7 },
    { key: 'IsResponseCached', operator: '!eq', value: true },
    { key: 'QueryType', operator: 'in', value: [1, 28] },
    { key: 'QueryName', operator: 'endsWith', value: '.example' },
  ] } };
  const c = logRecordChecker(filterKeys(filter), filterValueReaders(filter, 'gateway_dns'));
  // As Logpush writes gateway_dns lines by default: nothing to say (numbers as text, "true" are read as the evaluator reads them)
  c.take({ Datetime: 1763632800000000000n, QueryCategoryIDs: [7, 163], IsResponseCached: false, QueryType: '28', QueryName: 'a.example' }, 1);
  c.take({ Datetime: null, QueryCategoryIDs: [], IsResponseCached: 'true', QueryType: 1 }, 2);
  assert.equal(c.result()?.examples.length, undefined, JSON.stringify(c.result()));
  c.take({ Datetime: '2026-11-20T10:00:00Z', QueryCategoryIDs: '7,163', IsResponseCached: 'yes', QueryType: 'A', QueryName: 5 }, 3);
  c.take({ Datetime: '2026-11-20T10:00:01Z' }, 4);
  const r = c.result();
  assert.ok(r);
  assert.equal(r.records, 2);
  assert.deepEqual(r.examples, [
    'line 3: "Datetime" (int or string) is the string "2026-11-20T10:00:00Z" there, and the filter compares it with numbers, which text never equals or orders (logs of a job with timestamp_format rfc3339?); its positive comparisons never match such a line and the negated ones always do',
    'line 3: "QueryCategoryIDs" (array[int]) is the string "7,163" there, which is no array; its positive comparisons never match such a line and the negated ones always do',
    'line 3: "IsResponseCached" (bool) is the string "yes" there, which reads as neither true nor false; its positive comparisons never match such a line and the negated ones always do',
  ]);
  // A timestamp the filter compares with text, written as a number (unixnano); a field the catalogue does not know is not looked at
  const text = { where: { or: [{ key: 'Datetime', operator: 'startsWith', value: '2026-11-20' }, { key: 'Nope', operator: 'eq', value: 'x' }] } };
  const t = logRecordChecker(filterKeys(text), filterValueReaders(text, 'gateway_dns'));
  t.take({ Datetime: 1763632800000000000, Nope: 5 }, 9);
  assert.deepEqual(t.result()?.examples, ['line 9: "Datetime" (int or string) is number 1763632800000000000 there, and the filter compares it with text, which a number never equals (logs of a job with timestamp_format unix or unixnano?); its positive comparisons never match such a line and the negated ones always do']);
  // Compared both ways, either form is read by one of them
  const both = { where: { or: [{ key: 'Datetime', operator: 'gt', value: 1 }, { key: 'Datetime', operator: 'startsWith', value: '2026' }] } };
  const b = logRecordChecker(filterKeys(both), filterValueReaders(both, 'gateway_dns'));
  b.take({ Datetime: '2026-11-20T10:00:00Z' }, 1);
  b.take({ Datetime: 5 }, 2);
  assert.equal(b.result(), undefined);
});

test('edgekit test-rules and test-filter report them, in text and JSON', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-records-'));
  try {
    const ruleset = path.join(dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'default', rules: [
      { action: 'execute', expression: 'http.host eq "a.com"', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }));
    const requests = path.join(dir, 'req.ndjson');
    fs.writeFileSync(requests, [{ 'http.host': 'a.com' }, { 'http.hots': 'a.com' }].map((x) => JSON.stringify(x)).join('\n'));
    const text = await run(['test-rules', ruleset, requests]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /1 request not read as on the platform: line 2: "http\.hots" is not a rules-language field \(did you mean "http\.host"\?\)/);
    const json = JSON.parse((await run(['test-rules', ruleset, requests, '--format', 'json'])).stdout);
    assert.equal(json.recordProblems.records, 1);
    const filter = path.join(dir, 'f.filter.json');
    fs.writeFileSync(filter, JSON.stringify({ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }));
    const logs = path.join(dir, 'logs.ndjson');
    fs.writeFileSync(logs, [{ EdgeResponseStatus: 200 }, { EdgeResponseStatus: 403 }].map((x) => JSON.stringify(x)).join('\n'));
    const f = await run(['test-filter', filter, logs]);
    assert.equal(f.code, 0, f.stderr);
    assert.match(f.stdout, /2 lines not read as on the platform: from line 1 on: the filter compares "ClientCountry", which no record has/);
    assert.equal(JSON.parse((await run(['test-filter', filter, logs, '--format', 'json'])).stdout).recordProblems.records, 2);
    // Nothing to say about well-formed records: no line, no member.
    fs.writeFileSync(logs, JSON.stringify({ ClientCountry: 'ca' }));
    assert.doesNotMatch((await run(['test-filter', filter, logs])).stdout, /not read as on the platform/);
    assert.equal(JSON.parse((await run(['test-filter', filter, logs, '--format', 'json'])).stdout).recordProblems, undefined);
    // A job of an account dataset on its logs delivered with timestamp_format rfc3339, its filter ordering the timestamp by number
    const job = path.join(dir, 'ssh.logpush.json');
    fs.writeFileSync(job, JSON.stringify({ name: 'ssh', dataset: 'ssh_logs', destination_conf: 's3://b/p?region=eu-west-1',
      filter: JSON.stringify({ where: { key: 'SessionStartDatetime', operator: 'geq', value: 1763600000000000000 } }) }));
    fs.writeFileSync(logs, JSON.stringify({ SessionStartDatetime: '2026-11-20T10:00:00Z', ProgramType: 'shell' }));
    assert.match((await run(['test-filter', job, logs])).stdout,
      /1 line not read as on the platform: line 1: "SessionStartDatetime" \(int or string\) is the string "2026-11-20T10:00:00Z" there, and the filter compares it with numbers/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('request records: an IP field whose text ipaddr.js reads loosely (three parts, one number, hex, octal, a zone) is flagged', async () => {
  // ipaddr.js's isValid takes the inet_aton forms: "1.2.3" is 1.2.0.3, "010.1.1.1" is 8.1.1.1 (octal), "3232235777" is 192.168.1.1,
  // so the evaluator matched them against CIDRs as those addresses, while the platform's IP fields hold an address (four decimal
  // parts, or IPv6: the rules language's own IP syntax, exprLexer validIpv4/validIpv6), and the checker said nothing.
  for (const bad of ['1.2.3', '3232235777', '0x7f.0.0.1', '010.1.1.1', 'fe80::1%eth0', '1.2.3.256']) {
    const k = requestRecordChecker();
    k.take({ 'ip.src': bad }, 1);
    assert.deepEqual(k.result()?.examples, [`line 1: "ip.src" is IP on the platform, here the string ${JSON.stringify(bad)}, not an IP address (a.b.c.d in decimal, or IPv6), which the rules cannot read as the platform would`], bad);
  }
  for (const good of ['203.0.113.7', '0.0.0.0', '2001:db8::1', '::ffff:192.0.2.1', '2001:DB8::A', '::']) {
    const k = requestRecordChecker();
    k.take({ 'ip.src': good, 'cf.edge.server_ip': good }, 1);
    assert.equal(k.result(), undefined, good);
  }
});

test('request records: the evaluator reads an IP field\'s text as an address exactly when the record checks take it', async () => {
  // "fe80::1%eth0" (a zone id, which Rust's IpAddr::from_str refuses and wirefilter's IP lexer stops before) was flagged by the
  // record checks and still counted inside fe80::/10 by the evaluator (ipaddr.js reads the zone); so were the inet_aton forms
  // ("1.2.3" as 1.2.0.3). A text the checks flag is no address for the evaluator either: no CIDR, set or range holds it.
  const { compileExpression } = await import('../../../server/src/core/eval/rules');
  const c = compileExpression('ip.src in {fe80::/10 0.0.0.0/0 ::/0} or ip.src eq fe80::1 or ip.src eq 1.2.0.3 or ip.src in {1.2.0.0..1.2.255.255}');
  assert.ok(c.ok, !c.ok ? c.error : '');
  assert.equal(c.expression.test({ 'ip.src': 'fe80::1%eth0' }), false, 'a zone id is no address on the platform');
  const texts = ['fe80::1%eth0', 'fe80::1%1', '1.2.3', '3232235777', '0x7f.0.0.1', '010.1.1.1', '1.2.3.256', ' 1.2.3.4', '1.2.3.4 ', 'not an ip', '',
    '203.0.113.7', '0.0.0.0', '2001:db8::1', '::ffff:192.0.2.1', '2001:DB8::A', '::', 'fe80::1', '1.2.0.3'];
  for (const t of texts) {
    const k = requestRecordChecker();
    k.take({ 'ip.src': t }, 1);
    assert.equal(c.expression.test({ 'ip.src': t }), k.result() === undefined, JSON.stringify(t));
  }
});

test('request records: memory stays flat on a file whose every line has a field of its own (only the first kinds are remembered)', () => {
  // The checker remembered the kind of every problem it saw ("unknown <name>") after its three examples were taken: a log of
  // 200 000 lines each naming a field of its own kept 200 000 names. Measured in a process of its own (the suite shares a heap).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-records-'));
  const probe = path.join(dir, 'probe.ts');
  fs.writeFileSync(probe, [
    `import { requestRecordChecker } from ${JSON.stringify(path.resolve(__dirname, '../../../server/src/core/eval/records.ts'))};`,
    'const gc = (globalThis as { gc?: () => void }).gc!;',
    'const c = requestRecordChecker(); c.take({ warm: 1 }, 1); gc(); const base = process.memoryUsage().heapUsed;',
    "for (let i = 0; i < 200_000; i++) c.take({ ['f' + String(i).padStart(120, 'x')]: 1 }, i + 2);",
    'gc(); const grew = process.memoryUsage().heapUsed - base;',
    'console.log(JSON.stringify({ grew, result: c.result() }));',
  ].join('\n'));
  try {
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', probe], { encoding: 'utf8' })) as { grew: number; result: { records: number; examples: string[] } };
    assert.equal(out.result.records, 200_001);
    assert.equal(out.result.examples.length, 3);
    assert.match(out.result.examples[0], /^line 1: "warm" is not a rules-language field/);
    assert.ok(out.grew < 8 * 1024 * 1024, `memory grew by ${(out.grew / 1024 / 1024).toFixed(1)} MB over 200 000 lines`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
