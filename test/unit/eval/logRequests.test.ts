// Test Rules on Logpush logs: an http_requests log line is read as the request it logs (toRequestRecord), whatever fields the job
// wrote and in each timestamp format; the fields the rules read that no line gives are named, with the log field they come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toRequestRecord } from '../../../server/src/core/eval/sample';
import { requestReader, rulesetFields } from '../../../server/src/core/eval/logRequests';
import { compileRuleset } from '../../../server/src/core/eval/rules';

test('a log line with only some fields (a job\'s field_names) gives only the request fields it can: no "undefined" text, no empty query', () => {
  const r = toRequestRecord({ ClientIP: '192.0.2.1', ClientRequestPath: '/login' });
  assert.deepEqual(r, { 'http.request.uri.path': '/login', 'http.request.uri.path.extension': '', 'ip.src': '192.0.2.1', ssl: true, 'raw.http.request.uri.path': '/login' });
  const u = toRequestRecord({ ClientRequestURI: '/a/b.php?x=1&y', ClientRequestHost: 'example.com', ClientRequestScheme: 'http' });
  assert.equal(u['http.request.uri.path'], '/a/b.php', 'the path from the URI when the line has no ClientRequestPath');
  assert.equal(u['http.request.uri.query'], 'x=1&y');
  assert.deepEqual(u['http.request.uri.args'], { x: ['1'], y: [''] });
  assert.equal(u['http.request.full_uri'], 'http://example.com/a/b.php?x=1&y', 'the line\'s scheme');
  assert.equal(u.ssl, false);
  assert.ok(!Object.values(u).some((v) => typeof v === 'string' && v.includes('undefined')), JSON.stringify(u));
});

test('EdgeStartTimestamp in each Logpush timestamp format gives the request time; EdgeResponseStatus the response code', () => {
  const at = (t: unknown) => { const r = toRequestRecord({ EdgeStartTimestamp: t }); return [r['http.request.timestamp.sec'], r['http.request.timestamp.msec']]; };
  assert.deepEqual(at('2026-11-26T10:00:01.250Z'), [1795687201, 250]);
  assert.deepEqual(at(1795687201), [1795687201, 0], 'unix: seconds');
  assert.deepEqual(at(1795687201250000000n), [1795687201, 250], 'unixnano read exactly');
  assert.deepEqual(at(1795687201250000000), [1795687201, 250], 'unixnano as a double');
  assert.deepEqual(at('yesterday'), [undefined, undefined]);
  assert.deepEqual(at(true), [undefined, undefined]);
  assert.equal(toRequestRecord({ EdgeResponseStatus: 429 })['http.response.code'], 429);
});

test('requestReader: log lines are read as requests and counted, request records pass as they are and are still checked', () => {
  const reader = requestReader(['ip.src', 'http.request.uri.path', 'http.cookie', 'cf.bot_management.score']);
  const a = reader.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/x', BotScore: 0 }, 1)!;
  assert.equal(a['ip.src'], '192.0.2.1');
  const b = reader.read({ 'ip.src': '192.0.2.2', 'http.hots': 'x' }, 2);
  assert.deepEqual(b, { 'ip.src': '192.0.2.2', 'http.hots': 'x' });
  reader.read({ ClientIP: '192.0.2.3', ClientRequestPath: '/y' }, 3);
  const logs = reader.logLines()!;
  assert.equal(logs.lines, 2);
  assert.equal(logs.first, 1);
  // http.cookie: only the Cookies custom field gives it. The bot score is given (BotScore, 0 on a line: the platform's is 0 there too)
  assert.deepEqual(logs.missing, [{ field: 'http.cookie', from: 'Cookies, a Logpush custom field' }]);
  assert.match(reader.problems()!.examples[0], /line 2: "http.hots" is not a rules-language field/);
  // A record with both kinds of names is a request record: its log names are flagged, not silently read
  const mixed = requestReader([]);
  mixed.read({ ClientIP: '192.0.2.1', 'ip.src': '192.0.2.1' }, 1);
  assert.equal(mixed.logLines(), undefined);
  assert.match(mixed.problems()!.examples[0], /"ClientIP" is not a rules-language field/);
  assert.equal(requestReader(['ip.src']).logLines(), undefined, 'no log line read: nothing to say');
});

test('rulesetFields: the fields every expression of a ruleset reads (match, rate limit and value expressions), once each', () => {
  assert.deepEqual(rulesetFields({ phase: 'http_ratelimit', rules: [
    { action: 'block', expression: 'http.request.uri.path eq "/login" and ip.src in {192.0.2.0/24}',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src', 'http.request.headers["x-key"][0]'], period: 60, requests_per_period: 5, counting_expression: 'http.response.code eq 401' } },
    { action: 'log', expression: 'not ssl' },
    null,
  ] }), ['http.request.uri.path', 'ip.src', 'http.response.code', 'http.request.headers["x-key"]', 'ssl']);
  assert.deepEqual(rulesetFields({ rules: [{ expression: 'http.host eq' }] }), [], 'an expression that does not parse reads nothing');
});

test('a rule run on log lines: a rate limit counts by the logged time and client, a response-code rule reads the logged status', () => {
  const run = compileRuleset({ phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'http.request.uri.path eq "/login"',
    ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 2, mitigation_timeout: 0 } }] });
  assert.ok(run.ok);
  const reader = requestReader(rulesetFields({ rules: [{ expression: 'http.request.uri.path eq "/login"' }] }));
  for (let i = 0; i < 5; i++) run.take(reader.read({ ClientIP: '192.0.2.9', ClientRequestPath: '/login', EdgeStartTimestamp: 1795687200 + i }, i + 1)!, i + 1);
  assert.equal(run.rules[0].matched, 5);
  assert.equal(run.rules[0].applied, 3, 'the third to fifth requests in 10 s pass 2 per period');
});

test('Logpush custom fields: RequestHeaders, Cookies and ResponseHeaders give the request\'s headers, cookies and the response\'s headers', () => {
  const r = toRequestRecord({ ClientRequestHost: 'example.com', RequestHeaders: { 'X-Api-Key': 'k1', 'content-type': 'application/json' },
    Cookies: { session: 'abc', theme: 'dark' }, ResponseHeaders: { 'cache-control': 'no-store' } });
  assert.deepEqual(r['http.request.headers'], { host: ['example.com'], 'x-api-key': ['k1'], 'content-type': ['application/json'] });
  assert.deepEqual(r['http.request.headers.names'], ['host', 'x-api-key', 'content-type']);
  assert.deepEqual(r['http.request.headers.values'], ['example.com', 'k1', 'application/json']);
  assert.deepEqual(r['http.request.cookies'], { session: ['abc'], theme: ['dark'] });
  assert.equal(r['http.cookie'], 'session=abc; theme=dark');
  assert.deepEqual(r['http.response.headers'], { 'cache-control': ['no-store'] });
  assert.deepEqual(r['http.response.headers.names'], ['cache-control']);
  // Anything else in those members is no header: left out, never "[object Object]"
  const odd = toRequestRecord({ RequestHeaders: 'x', Cookies: { a: { b: 1 } } });
  assert.equal(odd['http.request.headers'], undefined);
  assert.equal(odd['http.request.cookies'], undefined);
});

test('requestReader: a header or cookie the rules read by name, that no line carries, is named with the custom field it would come from', () => {
  const reads = rulesetFields({ rules: [{ expression: 'http.request.headers["x-api-key"][0] eq "k" and http.request.cookies["session"][0] ne "" and any(http.request.headers["user-agent"][*] contains "bot")' }] });
  assert.deepEqual(reads, ['http.request.headers["x-api-key"]', 'http.request.cookies["session"]', 'http.request.headers["user-agent"]']);
  const reader = requestReader(reads);
  reader.read({ ClientRequestUserAgent: 'curl/8', RequestHeaders: { 'x-other': '1' } }, 1);
  assert.deepEqual(reader.logLines()!.missing, [
    { field: 'http.request.headers["x-api-key"]', from: 'RequestHeaders, a Logpush custom field' },
    { field: 'http.request.cookies["session"]', from: 'Cookies, a Logpush custom field' },
  ]);
  const withKey = requestReader(reads);
  withKey.read({ ClientRequestUserAgent: 'curl/8', RequestHeaders: { 'x-api-key': 'k' }, Cookies: { session: 's' } }, 1);
  assert.deepEqual(withKey.logLines()!.missing, []);
});

test('a log line with 200 000 custom headers is read in linear time (a check per header against the ones before it was quadratic)', { timeout: 60_000 }, () => {
  const many: Record<string, string> = { Host: 'other.example' };
  for (let i = 0; i < 200_000; i++) many[`x-h${i}`] = String(i);
  const r = toRequestRecord({ ClientRequestHost: 'example.com', RequestHeaders: many });
  const headers = r['http.request.headers'] as Record<string, string[]>;
  assert.deepEqual(headers.host, ['example.com'], 'the line\'s own host is kept');
  assert.equal(Object.keys(headers).length, 200_001);
});

test('requestReader: a field the lines give is not named as missing when its value is empty on every line (no query, no referer, no extension are values the platform has too)', () => {
  const reads = rulesetFields({ rules: [{ expression: 'http.request.uri.query eq "" and http.referer eq "" and http.request.uri.path.extension eq "" and cf.bot_management.score eq 0' }] });
  const reader = requestReader(reads);
  reader.read({ ClientIP: '192.0.2.1', ClientRequestURI: '/a', ClientRequestPath: '/a', ClientRequestReferer: '', BotScore: 0 }, 1);
  reader.read({ ClientIP: '192.0.2.2', ClientRequestURI: '/b', ClientRequestPath: '/b', ClientRequestReferer: '', BotScore: 0 }, 2);
  assert.deepEqual(reader.logLines()!.missing, []);
  // A log field the job wrote as null is not given
  const nulls = requestReader(reads);
  nulls.read({ ClientIP: '192.0.2.1', ClientRequestURI: null, ClientRequestPath: null, ClientRequestReferer: null, BotScore: null }, 1);
  assert.deepEqual(nulls.logLines()!.missing.map((m) => m.field), reads);
});

test('requestReader: ssl, which a line without ClientRequestScheme cannot tell, is named as missing (it is not always true)', () => {
  const reader = requestReader(rulesetFields({ rules: [{ expression: 'not ssl' }] }));
  reader.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/' }, 1);
  assert.deepEqual(reader.logLines()!.missing, [{ field: 'ssl', from: 'ClientRequestScheme' }]);
  const given = requestReader(['ssl']);
  given.read({ ClientIP: '192.0.2.1', ClientRequestScheme: 'https' }, 1);
  assert.deepEqual(given.logLines()!.missing, []);
});

test('toRequestRecord: a null ClientRequestScheme is no scheme: ssl and the full URI agree (https)', () => {
  const r = toRequestRecord({ ClientRequestScheme: null, ClientRequestHost: 'example.com', ClientRequestURI: '/' });
  assert.equal(r['http.request.full_uri'], 'https://example.com/');
  assert.equal(r.ssl, true);
});

test('Logpush custom fields: a header logged with preserve_duplicates (an array of its values) gives each value', () => {
  const r = toRequestRecord({ ResponseHeaders: { 'set-cookie': ['a=1', 'b=2'], server: 'cloudflare' }, RequestHeaders: { 'x-a': ['1', 2, { no: 1 }] } });
  assert.deepEqual(r['http.response.headers'], { 'set-cookie': ['a=1', 'b=2'], server: ['cloudflare'] });
  assert.deepEqual(r['http.response.headers.names'], ['set-cookie', 'set-cookie', 'server']);
  assert.deepEqual(r['http.response.headers.values'], ['a=1', 'b=2', 'cloudflare']);
  assert.deepEqual(r['http.request.headers'], { 'x-a': ['1', '2'] }, 'an element that is no text, number or boolean is left out');
});

test('requestReader: the header, cookie and response header maps are given by the custom fields too, and named with them', () => {
  const reads = rulesetFields({ rules: [{ expression: 'len(http.request.headers.names) gt 0 and http.cookie contains "a" and any(http.response.headers.names[*] eq "server")' }] });
  const reader = requestReader(reads);
  reader.read({ RayID: '1', RequestHeaders: { 'x-a': '1' }, Cookies: { a: '1' }, ResponseHeaders: { server: 'cf' } }, 1);
  assert.deepEqual(reader.logLines()!.missing, []);
  const none = requestReader(reads);
  none.read({ RayID: '1' }, 1);
  assert.deepEqual(none.logLines()!.missing, [
    { field: 'http.request.headers.names', from: 'ClientRequestHost' },
    { field: 'http.cookie', from: 'Cookies, a Logpush custom field' },
    { field: 'http.response.headers.names', from: 'ResponseHeaders, a Logpush custom field' },
  ]);
});

test('requestReader: a request time no line\'s EdgeStartTimestamp could be read as is named (the timestamp is there, its time is not)', () => {
  const reads = rulesetFields({ rules: [{ expression: 'http.request.timestamp.sec gt 0 and http.request.timestamp.msec lt 500' }] });
  const reader = requestReader(reads);
  reader.read({ ClientIP: '192.0.2.1', EdgeStartTimestamp: 'yesterday' }, 1);
  assert.deepEqual(reader.logLines()!.missing.map((m) => m.field), reads);
  // timestamp_format unix: whole seconds, no milliseconds on any line
  const unix = requestReader(reads);
  unix.read({ ClientIP: '192.0.2.1', EdgeStartTimestamp: 1795687201 }, 1);
  assert.deepEqual(unix.logLines()!.missing, [{ field: 'http.request.timestamp.msec', from: 'EdgeStartTimestamp' }]);
});

test('requestReader: a log line\'s member that is no http_requests field (another dataset\'s, a misspelt name) is named, not silently left out', () => {
  const reader = requestReader(['http.request.uri.query']);
  // An http_requests line (two of its own names) with a firewall_events member: not read, as the line's dataset has no such field
  reader.read({ ClientIP: '192.0.2.1', ClientRequestURI: '/x', EdgeStartTimestamp: 1795687201, Action: 'block' }, 1);
  reader.read({ ClientIP: '192.0.2.1', ClientRequestPth: '/x' }, 2);
  reader.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/x' }, 3);
  const p = reader.problems()!;
  assert.equal(p.records, 2);
  assert.match(p.examples[0], /^line 1: "Action" is a firewall_events log field, not an http_requests one/);
  assert.ok(p.examples.some((e) => /^line 2: "ClientRequestPth" .*did you mean "ClientRequestPath"/.test(e)), p.examples.join('\n'));
  assert.equal(reader.logLines()!.lines, 3);
});

test('requestReader: the full URI, which two log fields give together, is named with both', () => {
  const reader = requestReader(['http.request.full_uri']);
  reader.read({ ClientRequestURI: '/a' }, 1);
  assert.deepEqual(reader.logLines()!.missing, [{ field: 'http.request.full_uri', from: 'ClientRequestHost and ClientRequestURI' }]);
});

test('requestReader: an integer field a tool wrote as text ("BotScore": "5") is read as its number, as Logpush logs it', () => {
  const reader = requestReader(['cf.bot_management.score', 'ip.src.asnum']);
  const r = reader.read({ ClientIP: '192.0.2.1', BotScore: '5', ClientASN: '13335', ClientRequestPath: '12' }, 1)!;
  assert.equal(r['cf.bot_management.score'], 5);
  assert.equal(r['ip.src.asnum'], 13335);
  assert.equal(r['http.request.uri.path'], '12', 'a String field keeps its text');
  const odd = reader.read({ BotScore: '5a', ClientASN: '99999999999999999999' }, 2)!;
  assert.equal(odd['cf.bot_management.score'], '5a', 'not an integer: left as it is');
  assert.equal(odd['ip.src.asnum'], '99999999999999999999', 'past what a double holds exactly: left as it is');
});

test('requestReader: a request record\'s header map fills the names and values fields it leaves out, as a log line\'s headers do', () => {
  // A record written by hand with "http.request.headers" and a rule on http.request.headers.names: the platform gives both from
  // the same headers, so the record's map gives the arrays too (one name per value, key by key), unless the record sets them itself
  const reader = requestReader([]);
  const r = reader.read({ 'http.request.headers': { 'x-api-key': ['k1', 'k2'], accept: ['*/*'] },
    'http.response.headers': { 'cache-control': ['no-store'] }, 'http.request.uri.args': { a: ['1'] } }, 1)!;
  assert.deepEqual(r['http.request.headers.names'], ['x-api-key', 'x-api-key', 'accept']);
  assert.deepEqual(r['http.request.headers.values'], ['k1', 'k2', '*/*']);
  assert.deepEqual(r['http.response.headers.names'], ['cache-control']);
  assert.deepEqual(r['http.response.headers.values'], ['no-store']);
  // the same for the other maps of arrays with names and values fields (query arguments, form fields)
  assert.deepEqual([r['http.request.uri.args.names'], r['http.request.uri.args.values']], [['a'], ['1']]);
  assert.equal(reader.problems(), undefined, 'nothing to say about a well-formed record');
  // what the record sets itself stays; a malformed map (a value that is no array) fills nothing and is reported as before
  const own = reader.read({ 'http.request.headers': { a: ['1'] }, 'http.request.headers.names': ['A'] }, 2)!;
  assert.deepEqual([own['http.request.headers.names'], own['http.request.headers.values']], [['A'], undefined]);
  const bad = reader.read({ 'http.request.headers': { a: '1' } }, 3)!;
  assert.equal(bad['http.request.headers.names'], undefined);
  assert.match(reader.problems()!.examples[0], /line 3: "http.request.headers" is Map<Array<String>>/);
  // and a rule on the names matches the record, as it matches the same request read from a log line
  const c = compileRuleset({ phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: 'any(http.request.headers.names[*] eq "x-api-key")' }] });
  assert.ok(c.ok);
  c.take(requestReader([]).read({ 'http.request.headers': { 'x-api-key': ['k'] } }, 1)!, 1);
  assert.equal(c.rules[0].matched, 1);
});
