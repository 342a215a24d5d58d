// `edgekit test-filter`: a filter file or a job's filter on an NDJSON log file (plain or gzip), streamed: the counts, each branch's
// count, the first matching lines, bad lines named by number, and the exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { main } from '../../../server/src/cli';

async function run(argv: string[]) {
  let stdout = '', stderr = '';
  const code = await main(argv, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
  return { code, stdout, stderr };
}

const LINES = [
  { ClientCountry: 'ca', EdgeResponseStatus: 403, ClientRequestPath: '/admin' },
  { ClientCountry: 'us', EdgeResponseStatus: 200, ClientRequestPath: '/' },
  { ClientCountry: 'ca', EdgeResponseStatus: 200, ClientRequestPath: '/api' },
  { ClientCountry: 'fr', EdgeResponseStatus: 500, ClientRequestPath: '/admin' },
];
const FILTER = { where: { and: [{ key: 'EdgeResponseStatus', operator: 'geq', value: '400' }, { or: [
  { key: 'ClientCountry', operator: 'eq', value: 'ca' }, { key: 'ClientRequestPath', operator: 'startsWith', value: '/admin' }] }] } };

function files(): { dir: string; filter: string; job: string; logs: string; gz: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testfilter-'));
  const ndjson = [...LINES.slice(0, 2).map((l) => JSON.stringify(l)), 'not json', '', ...LINES.slice(2).map((l) => JSON.stringify(l))].join('\r\n') + '\n';
  fs.writeFileSync(path.join(dir, 'a.filter.json'), JSON.stringify(FILTER));
  fs.writeFileSync(path.join(dir, 'b.logpush.json'), JSON.stringify({ name: 'job', dataset: 'http_requests', destination_conf: 's3://b/l?region=us-east-1', filter: JSON.stringify(FILTER) }));
  fs.writeFileSync(path.join(dir, 'logs.ndjson'), ndjson);
  fs.writeFileSync(path.join(dir, 'logs.log'), gzipSync(ndjson)); // gzip recognized by its bytes, not its name
  return { dir, filter: path.join(dir, 'a.filter.json'), job: path.join(dir, 'b.logpush.json'), logs: path.join(dir, 'logs.ndjson'), gz: path.join(dir, 'logs.log') };
}

test('a filter file on plain and gzip NDJSON: counts, branches, first matches, the bad line named', async () => {
  const f = files();
  try {
    for (const logs of [f.logs, f.gz]) {
      const r = await run(['test-filter', f.filter, logs]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /matches 2 of 4 lines \(50\.0 %\)/);
      assert.match(r.stdout, /1 line skipped: line 3 is not JSON/);
      assert.match(r.stdout, /EdgeResponseStatus geq "400": 2/);
      assert.match(r.stdout, /  1: \{"ClientCountry":"ca"/);
    }
    const j = JSON.parse((await run(['test-filter', f.job, f.logs, '--format', 'json'])).stdout);
    assert.equal(j.total, 4);
    assert.equal(j.matched, 2);
    assert.equal(j.badLines, 1);
    assert.deepEqual(j.branches.children.map((c: { matched: number }) => c.matched), [2, 3]);
    assert.deepEqual(j.firstMatches.map((m: { line: number }) => m.line), [1, 6]);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('exit codes: 1 for a filter with errors or a missing log file, 2 for usage', async () => {
  const f = files();
  try {
    fs.writeFileSync(f.filter, JSON.stringify({ where: { key: 'ClientCountyr', operator: 'eq', value: 'ca' } }));
    const bad = await run(['test-filter', f.filter, f.logs]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Unknown field "ClientCountyr"/);
    fs.writeFileSync(f.filter, JSON.stringify(FILTER));
    assert.equal((await run(['test-filter', f.filter, path.join(f.dir, 'none.ndjson')])).code, 1);
    assert.equal((await run(['test-filter', f.filter])).code, 2);
    assert.equal((await run(['test-filter', f.filter, f.logs, '--format', 'xml'])).code, 2);
    assert.equal((await run(['test-filter', f.filter, f.logs, '--dataset', 'nope'])).code, 2);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('edgekit test-rules: per rule, the requests it matches, applies to and decides (in order; execute does not decide)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-'));
  try {
    const ruleset = path.join(dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'default', rules: [
      { action: 'skip', expression: 'ip.src in {10.0.0.0/8}', description: 'office', action_parameters: { ruleset: 'current' } },
      { action: 'execute', expression: 'http.request.uri.path contains "/admin"', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
      { action: 'execute', expression: 'true', enabled: false, action_parameters: { id: '4814384a9e5d4991b9815dcfc25d2f1f' } },
    ] }));
    const requests = path.join(dir, 'req.ndjson');
    fs.writeFileSync(requests, [
      { 'ip.src': '10.1.2.3', 'http.request.uri.path': '/admin' }, { 'ip.src': '203.0.113.7', 'http.request.uri.path': '/admin/x' },
      { 'ip.src': '203.0.113.8', 'http.request.uri.path': '/' },
    ].map((r) => JSON.stringify(r)).join('\n'));
    const r = await run(['test-rules', ruleset, requests, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.total, 3);
    // The office request is skipped past every later rule; the /admin one reaches the execute rule, which runs the managed
    // ruleset and decides nothing itself; the disabled rule matches all three and acts on none.
    assert.deepEqual(out.rules.map((x: { matched: number; applied: number; decided: number }) => [x.matched, x.applied, x.decided]), [[1, 1, 1], [2, 1, 0], [3, 0, 0]]);
    assert.deepEqual(out.rules.map((x: { terminating: boolean }) => x.terminating), [false, false, false]);
    assert.equal(out.undecided, 2);
    assert.equal(out.executed, 1);
    const text = await run(['test-rules', ruleset, requests]);
    assert.match(text.stdout, /rule 0: skip \(office\) when ip\.src in \{10\.0\.0\.0\/8\}: matches 1, applies to 1, decides 1/);
    assert.match(text.stdout, /rule 1: execute when http\.request\.uri\.path contains "\/admin": matches 2, applies to 1, decides 0/);
    assert.match(text.stdout, /no rule decides 2 requests; 1 went through an execute rule/);
    // Request records kept as one JSON array (not NDJSON) are read too.
    const asArray = path.join(dir, 'req.json');
    fs.writeFileSync(asArray, JSON.stringify([{ 'ip.src': '10.1.2.3' }, { 'ip.src': '203.0.113.7', 'http.request.uri.path': '/admin' }]));
    assert.deepEqual(JSON.parse((await run(['test-rules', ruleset, asArray, '--format', 'json'])).stdout).rules.map((x: { decided: number }) => x.decided), [1, 0, 0]);
    fs.writeFileSync(ruleset, JSON.stringify({ rules: [{ action: 'execute', expression: 'http.hots eq "x"', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }));
    assert.equal((await run(['test-rules', ruleset, requests])).code, 1);
    assert.equal((await run(['test-rules', ruleset])).code, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// README, "Which dataset checks a standalone filter": the file's "$dataset" wins, else --dataset. test-filter checked the filter
// against "$dataset" but evaluated it, and named it, with --dataset.
test('test-filter: a filter file\'s "$dataset" wins over --dataset, for the check and the evaluation alike', async () => {
  const f = files();
  try {
    fs.writeFileSync(f.filter, JSON.stringify({ $dataset: 'dns_logs', where: { key: 'QueryName', operator: 'endsWith', value: 'example.com' } }));
    fs.writeFileSync(f.logs, [{ QueryName: 'www.example.com' }, { QueryName: 'other.test' }].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await run(['test-filter', f.filter, f.logs, '--dataset', 'http_requests', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.equal(j.dataset, 'dns_logs');
    assert.equal(j.matched, 1);
    fs.writeFileSync(f.filter, JSON.stringify({ where: { key: 'QueryName', operator: 'endsWith', value: 'example.com' } }));
    assert.equal(JSON.parse((await run(['test-filter', f.filter, f.logs, '--dataset', 'dns_logs', '--format', 'json'])).stdout).dataset, 'dns_logs');
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('test-filter and test-rules: a directory given as the log file is "cannot read" with its path (exit 1), a BOM is not an error', async () => {
  // A directory as LOGS threw EISDIR out of the reading loop: exit 2 and "edgekit: EISDIR: illegal operation on a directory, read",
  // no path named, though the usage says 1 when the log file cannot be read. A UTF-8 BOM, which lint ignores, made test-filter
  // report "not valid JSON" and test-rules end on JSON.parse.
  const f = files();
  try {
    const dirAsLogs = await run(['test-filter', f.filter, f.dir]);
    assert.equal(dirAsLogs.code, 1, dirAsLogs.stderr);
    assert.match(dirAsLogs.stderr, new RegExp(`cannot read ${f.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
    fs.writeFileSync(f.filter, `\uFEFF${JSON.stringify(FILTER)}`);
    const bom = await run(['test-filter', f.filter, f.logs, '--format', 'json']);
    assert.equal(bom.code, 0, bom.stderr);
    assert.equal(JSON.parse(bom.stdout).matched, 2);
    const ruleset = path.join(f.dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, `\uFEFF${JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] })}`);
    const rules = await run(['test-rules', ruleset, f.logs, '--format', 'json']);
    assert.equal(rules.code, 0, rules.stderr);
    const rulesDir = await run(['test-rules', ruleset, f.dir]);
    assert.equal(rulesDir.code, 1, rulesDir.stderr);
    assert.match(rulesDir.stderr, /cannot read /);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('test-filter on a ruleset, or test-rules on a filter, names the mix-up instead of errors that lint would not report', async () => {
  // test-filter r.ruleset.json said 'has 1 error(s), e.g. The filter has no top-level member "where"; fix them first (edgekit lint
  // r.ruleset.json)', and that lint reports nothing: the file is checked as a ruleset there.
  const f = files();
  try {
    const ruleset = path.join(f.dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }));
    const wrong = await run(['test-filter', ruleset, f.logs]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /r\.ruleset\.json is a waf-ruleset document; test-filter takes a Logpush filter or job \(for a ruleset, use edgekit test-rules\)/);
    assert.doesNotMatch(wrong.stderr, /edgekit lint/);
    const rules = await run(['test-rules', f.filter, f.logs]);
    assert.equal(rules.code, 1);
    assert.match(rules.stderr, /a\.filter\.json is a logpush-filter document; test-rules takes a ruleset \(for a filter or job, use edgekit test-filter\)/);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('test-filter and test-rules on gzip cut short: exit 1 naming the file; cut mid-way, the counts so far and where reading stopped', async () => {
  // Cut inside its header, the gzip threw out of the reader: "edgekit: unexpected end of file", exit 2 (usage), no file named. Cut
  // further on, the counts were printed as complete with exit 0, the cut counted as "1 line(s) skipped".
  const f = files();
  try {
    const many = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ ...LINES[i % 4], RayID: String(i).padStart(16, '0') })).join('\n') + '\n';
    const gz = gzipSync(many);
    const head = path.join(f.dir, 'head.ndjson.gz');
    fs.writeFileSync(head, gz.subarray(0, 10));
    const mid = path.join(f.dir, 'mid.ndjson.gz');
    fs.writeFileSync(mid, gz.subarray(0, Math.floor(gz.length / 2)));
    const ruleset = path.join(f.dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }));
    for (const argv of [['test-filter', f.filter, head], ['test-rules', ruleset, head]]) {
      const r = await run(argv);
      assert.equal(r.code, 1, `${argv[0]}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`reading ${head} stopped at byte 10 of the file, before the end of line 1: the gzip data is cut short`), r.stderr);
    }
    const r = await run(['test-filter', f.filter, mid]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /matches \d+ of \d+ lines/);
    const n = Number(/of (\d+) lines/.exec(r.stdout)![1]);
    assert.ok(n > 0 && n < 4000, r.stdout);
    assert.ok(r.stdout.includes(`Reading stopped after line ${n}`) || r.stderr.includes(`reading ${mid} stopped after line ${n}, at byte ${fs.statSync(mid).size} of the file: the gzip data is cut short`), r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /skipped/);
    const j = await run(['test-filter', f.filter, mid, '--format', 'json']);
    assert.equal(j.code, 1);
    const out = JSON.parse(j.stdout);
    assert.equal(out.total, n);
    assert.equal(out.badLines, 0);
    assert.match(out.readError, /stopped after line \d+, at byte \d+ of the file: the gzip data is cut short/);
    const rules = await run(['test-rules', ruleset, mid, '--format', 'json']);
    assert.equal(rules.code, 1, rules.stderr);
    assert.equal(JSON.parse(rules.stdout).total, n);
    assert.match(JSON.parse(rules.stdout).readError, /stopped after line \d+/);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('test-rules names its bad lines by number, as test-filter does', async () => {
  const f = files();
  try {
    const ruleset = path.join(f.dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }));
    const r = await run(['test-rules', ruleset, f.logs]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 line skipped: line 3 is not JSON/);
    const j = JSON.parse((await run(['test-rules', ruleset, f.logs, '--format', 'json'])).stdout);
    assert.equal(j.badLines, 1);
    assert.match(j.badLineErrors[0], /^line 3 is not JSON/);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('test-filter and test-rules: text from the files (a carriage return in a bad line, a field name) cannot start a line of its own', async () => {
  // A lone CR is a line end to CI runners (GitHub's reads workflow commands on stdout and stderr, and splits at CR too): V8's
  // "is not JSON" message quotes the bad line with its CR, and a record problem quotes a field name decoded from its JSON escape.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-crlines-'));
  try {
    const filter = path.join(dir, 't.filter.json');
    fs.writeFileSync(filter, '{"where": {"key": "EdgeResponseStatus", "operator": "geq", "value": 400}}');
    const logs = path.join(dir, 'l.ndjson');
    fs.writeFileSync(logs, 'abc\r::error::CR1\n{"EdgeResponseStatus": 403}\n');
    const ruleset = path.join(dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'r', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ expression: 'http.host eq "a"', action: 'block' }] }));
    const requests = path.join(dir, 'q.ndjson');
    fs.writeFileSync(requests, '{"http.host": "a", "x\\r::error::CR2": 1, "y\\n::error::NL": 2}\nabc\r::error::CR3\n');
    for (const argv of [['test-filter', filter, logs], ['test-rules', ruleset, requests]]) {
      const r = await run(argv);
      assert.ok(r.code === 0 || r.code === 1, `${argv[0]}: ${r.stderr}`);
      for (const out of [r.stdout, r.stderr]) assert.ok(!/[\r\u2028\u2029\u0085]/.test(out), `${argv[0]}: ${JSON.stringify(out)}`);
      assert.match(r.stdout, /\\u000d::error::CR/, argv[0]);
      for (const l of (r.stdout + r.stderr).split('\n')) assert.ok(!/^\s*::/.test(l), `${argv[0]}: ${JSON.stringify(l)}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a filter with more errors than the editor shows (edgekit.maxProblems, 1000): test-filter counts them all', async () => {
  const f = files();
  try {
    const where = { and: Array.from({ length: 1200 }, (_, i) => ({ key: `NoSuchField${i}`, operator: 'eq', value: 'x' })) };
    fs.writeFileSync(f.filter, JSON.stringify({ where }));
    const bad = await run(['test-filter', f.filter, f.logs]);
    assert.equal(bad.code, 1);
    const n = Number(/has (\d+) errors?/.exec(bad.stderr)?.[1]);
    assert.ok(n > 1200, bad.stderr.slice(0, 300));
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('--dataset that the file overrides (a job\'s dataset, a filter\'s "$dataset") is said not to be used, not ignored silently', async () => {
  // As documented, the file's own dataset wins; test-filter said nothing, so "--dataset firewall_events" on a job of http_requests
  // read as if the logs had been checked against firewall_events.
  const f = files();
  try {
    const job = await run(['test-filter', f.job, f.logs, '--dataset', 'firewall_events']);
    assert.equal(job.code, 0, job.stderr);
    assert.match(job.stderr, /--dataset firewall_events is not used: the job in .*b\.logpush\.json names its dataset, http_requests\./);
    const own = path.join(f.dir, 'c.filter.json');
    fs.writeFileSync(own, JSON.stringify({ $dataset: 'http_requests', ...FILTER }));
    assert.match((await run(['test-filter', own, f.logs, '--dataset', 'firewall_events'])).stderr, /--dataset firewall_events is not used: .*c\.filter\.json names its dataset in "\$dataset", http_requests\./);
    // Used, or the same: nothing said.
    assert.doesNotMatch((await run(['test-filter', f.filter, f.logs, '--dataset', 'http_requests'])).stderr, /not used/);
    assert.doesNotMatch((await run(['test-filter', f.job, f.logs, '--dataset', 'http_requests'])).stderr, /not used/);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

test('a filter\'s JSON numbers past 2^53 are compared by the digits the file writes, in a filter file and in a job\'s filter string, as in the editor', async () => {
  // JSON.parse reads 1700000000000000001 as 1700000000000000000: the CLI compared that rounded value, the editor (filterOf) the digits.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testfilter-big-'));
  try {
    const where = '{"where": {"key": "EdgeStartTimestamp", "operator": "eq", "value": 1700000000000000001}}';
    fs.writeFileSync(path.join(dir, 'a.filter.json'), where);
    fs.writeFileSync(path.join(dir, 'b.logpush.json'), JSON.stringify({ name: 'job', dataset: 'http_requests', destination_conf: 's3://b/l?region=us-east-1', filter: where }));
    fs.writeFileSync(path.join(dir, 'logs.ndjson'), '{"EdgeStartTimestamp": "1700000000000000000"}\n{"EdgeStartTimestamp": "1700000000000000001"}\n');
    for (const file of ['a.filter.json', 'b.logpush.json']) {
      const r = await run(['test-filter', path.join(dir, file), path.join(dir, 'logs.ndjson'), '--format', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.equal(out.matched, 1, `${file}: ${r.stdout}`);
      assert.deepEqual(out.firstMatches.map((m: { line: number }) => m.line), [2], file);
      assert.match(JSON.stringify(out.branches), /EdgeStartTimestamp eq 1700000000000000001/, `${file}: the label writes the digits`);
    }
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a log line\'s JSON number past 2^53 is compared by the digits the line writes: eq, gt and lt on a unixnano timestamp, in text and JSON output', async () => {
  // JSON.parse reads 1700000000123456789 and ...788 as one double (1700000000123456768): both lines matched "eq ...789", and "gt ...788"
  // matched neither. The line's digits are read as they are written (readNdjson), and the first matches print them.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testfilter-bigline-'));
  try {
    const logs = path.join(dir, 'logs.ndjson');
    fs.writeFileSync(logs, '{"EdgeStartTimestamp": 1700000000123456789, "ClientCountry": "ca"}\n{"EdgeStartTimestamp": 1700000000123456788, "ClientCountry": "ca"}\n{"EdgeStartTimestamp": 1700000000123456790}\n');
    const cases: [string, number[]][] = [['eq', [1]], ['!eq', [2, 3]], ['gt', [3]], ['geq', [1, 3]], ['lt', [2]], ['leq', [1, 2]], ['in', [1]]];
    for (const [operator, lines] of cases) {
      const filter = path.join(dir, `${operator.replace('!', 'not-')}.filter.json`);
      fs.writeFileSync(filter, `{"where": {"key": "EdgeStartTimestamp", "operator": "${operator}", "value": ${operator === 'in' ? '[1700000000123456789, 5]' : '1700000000123456789'}}}`);
      const r = await run(['test-filter', filter, logs, '--format', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(out.firstMatches.map((m: { line: number }) => m.line), lines, `${operator}: ${r.stdout}`);
      // The record as the line writes it: its digits, as a JSON number
      if (lines.includes(1)) assert.match(r.stdout, /"record":\{"EdgeStartTimestamp":1700000000123456789,"ClientCountry":"ca"\}/, operator);
    }
    const text = await run(['test-filter', path.join(dir, 'eq.filter.json'), logs]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /matches 1 of 3 lines/);
    assert.match(text.stdout, /1: \{"EdgeStartTimestamp":1700000000123456789,"ClientCountry":"ca"\}/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('a request record\'s JSON integer past 2^53 is compared exactly by test-rules (an Integer field), and read as an Integer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-bigline-'));
  try {
    const requests = path.join(dir, 'requests.ndjson');
    fs.writeFileSync(requests, '{"http.request.timestamp.sec": 1700000000123456789}\n{"http.request.timestamp.sec": 1700000000123456788}\n');
    const ruleset = path.join(dir, 'r.ruleset.json');
    const rule = (expression: string) => ({ action: 'log', expression });
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'r', kind: 'zone', phase: 'http_request_firewall_custom', rules: [
      rule('http.request.timestamp.sec eq 1700000000123456789'), rule('http.request.timestamp.sec lt 1700000000123456789'),
      rule('http.request.timestamp.sec in {1700000000123456788..1700000000123456788}'),
    ] }));
    const r = await run(['test-rules', ruleset, requests, '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.rules.map((x: { firstMatches: number[] }) => x.firstMatches), [[1], [2], [2]], r.stdout);
    assert.equal(out.recordProblems, undefined, 'an integer past 2^53 is an Integer of the platform (64-bit), not a problem');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('edgekit test-rules on a transform ruleset: what each header value and URL rewrite gives on the first matching requests (text and JSON)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-values-'));
  try {
    const ruleset = path.join(dir, 't.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'transforms', kind: 'zone', phase: 'http_request_late_transform', rules: [
      { action: 'rewrite', expression: 'true', description: 'context', action_parameters: { headers: {
        'X-Ctx': { operation: 'set', expression: 'concat("ip=", to_string(ip.src), ";host=", http.host)' },
        'X-Edge': { operation: 'set', value: 'on' }, 'X-Debug': { operation: 'remove' } } } },
    ] }));
    const requests = path.join(dir, 'req.ndjson');
    fs.writeFileSync(requests, [{ 'ip.src': '1.2.3.4', 'http.host': 'example.com' }, { 'ip.src': '5.6.7.8', 'http.host': 'example.org' },
      { 'ip.src': '1.2.3.4', 'http.host': 'example.com' }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const text = await run(['test-rules', ruleset, requests]);
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.split('\n');
    const at = lines.findIndex((l) => l.includes('rule 0: rewrite (context)'));
    assert.deepEqual(lines.slice(at + 1, at + 7), [
      '    X-Ctx = concat("ip=", to_string(ip.src), ";host=", http.host): 2 distinct values on the requests it matches, the first:',
      '      line 1: X-Ctx: ip=1.2.3.4;host=example.com',
      '      line 2: X-Ctx: ip=5.6.7.8;host=example.org',
      '      line 3: X-Ctx: ip=1.2.3.4;host=example.com',
      '    X-Edge: on (a static value)',
      '    X-Debug: removed',
    ], text.stdout);
    const json = JSON.parse((await run(['test-rules', ruleset, requests, '--format', 'json'])).stdout);
    assert.deepEqual(json.rules[0].values[0].examples, [{ line: 1, value: 'ip=1.2.3.4;host=example.com' }, { line: 2, value: 'ip=5.6.7.8;host=example.org' },
      { line: 3, value: 'ip=1.2.3.4;host=example.com' }]);
    assert.equal(json.rules[0].values[0].distinct, 2);
    assert.deepEqual(json.rules[0].values.map((v: { name: string }) => v.name), ['X-Ctx', 'X-Edge', 'X-Debug']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit test-rules: a value a later rule sets again is told overwritten, by which rule and on how many requests (text and JSON)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-over-'));
  try {
    const ruleset = path.join(dir, 't.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'rw', kind: 'zone', phase: 'http_request_transform', rules: [
      { action: 'rewrite', expression: 'starts_with(http.request.uri.path, "/old/")', action_parameters: { uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/old/", "/new/")' } } } },
      { action: 'rewrite', expression: 'http.request.uri.path eq "/old/special"', action_parameters: { uri: { path: { value: '/special' } } } },
    ] }));
    const requests = path.join(dir, 'req.ndjson');
    fs.writeFileSync(requests, ['/old/a', '/old/special', '/old/special'].map((p) => JSON.stringify({ 'http.request.uri.path': p })).join('\n') + '\n');
    const text = await run(['test-rules', ruleset, requests]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes('      overwritten by rule 1 on 2 requests: later rules of the phase win\n'), text.stdout);
    assert.equal(text.stdout.match(/overwritten by/g)?.length, 1, text.stdout);
    const json = JSON.parse((await run(['test-rules', ruleset, requests, '--format', 'json'])).stdout);
    assert.deepEqual(json.rules[0].values[0].overwritten, [{ by: 1, requests: 2 }]);
    assert.equal(json.rules[1].values[0].overwritten, undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit test-rules on http_requests Logpush logs: each line is the request it logs; the fields the rules read that no line gives are named (text and JSON)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-logs-'));
  try {
    const ruleset = path.join(dir, 'waf.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'waf', kind: 'zone', phase: 'http_request_firewall_custom', rules: [
      { action: 'block', expression: 'starts_with(http.request.uri.path, "/admin") and ip.src ne 192.0.2.1' },
      { action: 'log', expression: 'http.cookie contains "session"' },
    ] }));
    // As a job with field_names [ClientIP, ClientRequestPath, EdgeStartTimestamp] and timestamp_format unixnano writes them
    const logs = path.join(dir, 'http_requests.log.gz');
    const lines = [['192.0.2.1', '/admin/x'], ['192.0.2.2', '/admin/y'], ['192.0.2.3', '/']]
      .map(([ip, p], i) => `{"ClientIP":"${ip}","ClientRequestPath":"${p}","EdgeStartTimestamp":${1795687200000000000n + BigInt(i) * 1000000000n}}`);
    fs.writeFileSync(logs, gzipSync(lines.join('\n') + '\n'));
    const text = await run(['test-rules', ruleset, logs]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes('  3 lines are http_requests log lines, read as the requests they log; the rules read http.cookie (from Cookies, a Logpush custom field), ' +
      'which no line gives a value for (a field the job\'s output_options.field_names leave out, or one logs do not carry): it is its type\'s empty value on every line'), text.stdout);
    assert.match(text.stdout, /rule 0: block .*: matches 1, applies to 1, decides 1/);
    assert.ok(!text.stdout.includes('not a rules-language field'), 'log names are not flagged as misspelt request fields');
    const json = JSON.parse((await run(['test-rules', ruleset, logs, '--format', 'json'])).stdout);
    assert.deepEqual(json.logLines, { lines: 3, first: 1, dataset: 'http_requests', missing: [{ field: 'http.cookie', from: 'Cookies, a Logpush custom field' }] });
    assert.equal(json.recordProblems, undefined);
    assert.deepEqual(json.rules.map((r: { matched: number }) => r.matched), [1, 0]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit test-rules on firewall_events Logpush logs: each event is the request it logs, the dataset is named, and what such lines cannot give (text and JSON)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-fw-'));
  try {
    const ruleset = path.join(dir, 'waf.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'waf', kind: 'zone', phase: 'http_request_firewall_custom', rules: [
      { action: 'block', expression: 'http.request.uri.query contains "UNION" and ip.src.country eq "NL"' },
      { action: 'log', expression: 'cf.bot_management.score lt 30' },
    ] }));
    // As a job with field_names [ClientIP, ClientCountry, ClientRequestHost, ClientRequestPath, ClientRequestQuery, Action, Datetime,
    // RayID] and timestamp_format unix writes them
    const logs = path.join(dir, 'firewall_events.log.gz');
    const lines = [['nl', '?id=1 UNION SELECT 1'], ['us', '?id=1 UNION SELECT 1'], ['nl', '']].map(([c, q], i) => JSON.stringify({ ClientIP: `198.51.100.${i + 1}`,
      ClientCountry: c, ClientRequestHost: 'example.com', ClientRequestPath: '/search', ClientRequestQuery: q, Action: 'log', Datetime: 1795687200 + i, RayID: `8e1f2a3b4c5d6e7${i}` }));
    // The first request's second event (a managed rule blocked it after the custom rule logged it): the same request, not read again
    lines.push(lines[0].replace('"Action":"log"', '"Action":"block"'));
    fs.writeFileSync(logs, gzipSync(lines.join('\n') + '\n'));
    const text = await run(['test-rules', ruleset, logs]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.startsWith(`${ruleset} on 3 requests of ${logs}:`), text.stdout);
    assert.ok(text.stdout.includes('  4 lines are firewall_events log lines, read as the requests they log; 1 firewall_events line repeats an earlier ' +
      'line\'s RayID (another security event of the same request) and is not read again; the rules read cf.bot_management.score ' +
      '(from BotScore, an http_requests field), which no line gives a value for'), text.stdout);
    assert.match(text.stdout, /rule 0: block .*: matches 1, applies to 1, decides 1/);
    assert.ok(!text.stdout.includes('not read as on the platform'), 'Action, Datetime, ClientRequestQuery are firewall_events fields: nothing is flagged');
    const json = JSON.parse((await run(['test-rules', ruleset, logs, '--format', 'json'])).stdout);
    assert.deepEqual(json.logLines, { lines: 4, first: 1, dataset: 'firewall_events', events: { repeated: 1, unjoined: 0 }, missing: [{ field: 'cf.bot_management.score', from: 'BotScore, an http_requests field' }] });
    assert.equal(json.total, 3);
    assert.equal(json.recordProblems, undefined);
    // No line gives a bot score: it reads 0 on each, so "lt 30" matches every one (the count the sentence above warns about)
    assert.deepEqual(json.rules.map((r: { matched: number }) => r.matched), [1, 3]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('edgekit test-rules on a rate limiting ruleset: the action applies over the threshold only, and the counters are told (text and JSON)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testrules-rl-'));
  try {
    const ruleset = path.join(dir, 'rl.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ name: 'rl', kind: 'zone', phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'http.request.uri.path eq "/login"',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 2, mitigation_timeout: 60 } }] }));
    const requests = path.join(dir, 'req.ndjson');
    const at = (sec: number, ip: string) => ({ 'http.request.timestamp.sec': 1_700_000_000 + sec, 'ip.src': ip, 'http.request.uri.path': '/login' });
    fs.writeFileSync(requests, [at(0, '192.0.2.1'), at(1, '192.0.2.1'), at(2, '192.0.2.2'), at(3, '192.0.2.1'), at(4, '192.0.2.1')].map((r) => JSON.stringify(r)).join('\n'));
    const json = await run(['test-rules', ruleset, requests, '--format', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const rule = JSON.parse(json.stdout).rules[0];
    assert.deepEqual([rule.matched, rule.applied, rule.decided], [5, 2, 2]);
    assert.deepEqual([rule.ratelimit.keys, rule.ratelimit.firstActed], [2, [4, 5]]);
    const text = await run(['test-rules', ruleset, requests]);
    assert.match(text.stdout, /matches 5, applies to 2, decides 2\n {4}rate limit 2 requests in 10 s: 5 requests counted in 2 counters .*the action applied to 2, first on lines 4, 5\./);
    assert.match(text.stdout, /\n {4}most acted on: ip\.src 192\.0\.2\.1 \(2\)\.\n/);
    assert.deepEqual(rule.ratelimit.top, [{ values: ['192.0.2.1'], acted: 2 }]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('test-filter --scope: ZoneName in a zone\'s firewall_events job is the error lint --scope gives; an account\'s job runs; a bad scope is usage', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-testfilter-'));
  try {
    const job = path.join(dir, 'fw.logpush.json');
    fs.writeFileSync(job, JSON.stringify({ name: 'fw', dataset: 'firewall_events', destination_conf: 's3://b/l?region=us-east-1',
      filter: JSON.stringify({ where: { key: 'ZoneName', operator: 'eq', value: 'a.example' } }) }));
    const logs = path.join(dir, 'logs.ndjson');
    fs.writeFileSync(logs, `${JSON.stringify({ ZoneName: 'a.example', RayID: '1', Action: 'block' })}\n${JSON.stringify({ ZoneName: 'b.example', RayID: '2', Action: 'log' })}\n`);
    const zone = await run(['test-filter', job, logs, '--scope', 'zone']);
    assert.equal(zone.code, 1, zone.stderr);
    assert.match(zone.stderr, /"ZoneName" is a field of account-level firewall_events jobs only; this job is a zone's\..*\(logpush\/unknown-field\)/);
    const account = await run(['test-filter', job, logs, '--scope', 'account', '--format', 'json']);
    assert.equal(account.code, 0, account.stderr);
    assert.equal(JSON.parse(account.stdout).matched, 1);
    assert.equal((await run(['test-filter', job, logs])).code, 0, 'not known: accepted, as lint does');
    const bad = await run(['test-filter', job, logs, '--scope', 'both']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^edgekit: unknown scope "both"; use zone or account\./);
    assert.match(bad.stderr, /\[--scope zone\|account\]/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('test-filter and test-rules on a file none of whose lines is a JSON object (not NDJSON): the counts, then exit 1 naming it', async () => {
  // A binary or JSON-array log ran as "matches 0 of 0 lines" with exit 0, so a pipeline given the wrong file passed.
  const f = files();
  try {
    const junk = path.join(f.dir, 'junk.bin');
    fs.writeFileSync(junk, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01, 0x0a, 0xff, 0xfe, 0x0a]));
    const notes = path.join(f.dir, 'notes.txt');
    fs.writeFileSync(notes, 'first\nsecond\n3\n');
    const ruleset = path.join(f.dir, 'r.ruleset.json');
    fs.writeFileSync(ruleset, JSON.stringify({ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] }));
    for (const [cmd, def] of [['test-filter', f.filter], ['test-rules', ruleset]]) {
      for (const file of [junk, notes]) {
        const r = await run([cmd, def, file]);
        assert.equal(r.code, 1, `${cmd} ${file}: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, /lines? skipped: line 1 is not/);
        assert.ok(r.stderr.includes(`no line of ${file} is a JSON object`), r.stderr);
        const j = await run([cmd, def, file, '--format', 'json']);
        assert.equal(j.code, 1);
        assert.equal(JSON.parse(j.stdout).total, 0);
        assert.ok(j.stderr.includes(`no line of ${file} is a JSON object`), j.stderr);
      }
    }
    // A JSON array (read as records too) of no object: named by its items; it said "3 lines skipped: item 1 ..." and "no line of
    // ... is a JSON object; the file must be NDJSON" of a file test-rules' usage says is read
    const strings = path.join(f.dir, 'strings.json');
    fs.writeFileSync(strings, '["a", 1, [2]]');
    for (const [cmd, def] of [['test-filter', f.filter], ['test-rules', ruleset]]) {
      const r = await run([cmd, def, strings]);
      assert.equal(r.code, 1, `${cmd}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /^3 items skipped: item 1 is not a JSON object; item 2/m);
      assert.ok(r.stderr.includes(`no item of the JSON array in ${strings} is a JSON object (3 items skipped); records are JSON objects, one per line (NDJSON) or as the items of an array`), r.stderr);
    }
    // An empty file is an empty log, not a wrong one.
    const empty = path.join(f.dir, 'empty.ndjson');
    fs.writeFileSync(empty, '');
    assert.equal((await run(['test-filter', f.filter, empty])).code, 0);
    // One good line among bad ones is a log with bad lines.
    fs.appendFileSync(notes, JSON.stringify(LINES[0]) + '\n');
    assert.equal((await run(['test-filter', f.filter, notes])).code, 0);
  } finally {
    fs.rmSync(f.dir, { recursive: true, force: true });
  }
});

// cl12: the help named "ruleset": "current" as the one skip that ends the evaluation; "phase": "current" ends it too.
test('edgekit test-rules --help names both skips of the remaining rules in the API\'s words, and the skips that go on', async () => {
  const help = (await run(['test-rules', '--help'])).stdout.replace(/\s+/g, ' ');
  assert.ok(help.includes('"ruleset": "current" ("A ruleset to skip the execution of")'), help);
  assert.ok(help.includes('"phase": "current" ("A phase to skip the execution of")'), help);
  assert.match(help, /a skip of "phases", "rulesets", "rules" or "products"/);
});

test('test-filter and test-rules read their filter, job or ruleset up to a bound: one that never ends is refused, not read until memory runs out', async (t) => {
  // sec4: they read the document with fs.readFileSync, which on /dev/zero (or a pipe that never ends) aborted with std::bad_alloc.
  if (!fs.existsSync('/dev/zero')) { t.skip('no /dev/zero'); return; }
  const logs = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-tf-')), 'logs.ndjson');
  fs.writeFileSync(logs, '{"ClientIP": "1.2.3.4"}\n');
  for (const cmd of ['test-filter', 'test-rules']) {
    let stderr = '';
    const code = await main([cmd, '/dev/zero', logs], { stdout: () => undefined, stderr: (s) => { stderr += s; }, maxDocumentBytes: 1 << 20 });
    assert.notEqual(code, 0, cmd);
    assert.match(stderr, /cannot read \/dev\/zero: it goes on past 1,048,576 bytes, the most read of one document; reading stopped there/, `${cmd}: ${stderr}`);
  }
});
