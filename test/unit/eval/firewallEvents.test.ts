// Test Rules on firewall_events Logpush logs (a WAF user's log of past traffic): a line is read as the request it logs, with the
// dataset's own names (ClientRequestQuery, Datetime, ClientReferer*), and the report says which dataset the lines were read as.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firewallEventToRequestRecord } from '../../../server/src/core/eval/sample';
import { requestReader, rulesetFields } from '../../../server/src/core/eval/logRequests';
import { logLinesLine } from '../../../server/src/protocol';
import { compileRuleset } from '../../../server/src/core/eval/rules';

/** A firewall_events line as a job with every field writes it (timestamp_format rfc3339), of a request a custom rule blocked. */
const FULL = {
  Action: 'block', ClientASN: 14061, ClientASNDescription: 'DIGITALOCEAN-ASN', ClientCountry: 'nl', ClientIP: '198.51.100.7', ClientIPClass: 'unknown',
  ClientRefererHost: 'www.example.com', ClientRefererPath: '/search', ClientRefererQuery: '?q=shoes', ClientRefererScheme: 'https',
  ClientRequestHost: 'shop.example.com', ClientRequestMethod: 'GET', ClientRequestPath: '/api/v1/Users.PHP', ClientRequestProtocol: 'HTTP/2',
  ClientRequestQuery: '?id=1%20UNION%20SELECT&id=2&flag', ClientRequestScheme: 'https', ClientRequestUserAgent: 'sqlmap/1.8',
  ContentScanObjResults: [], ContentScanObjSizes: [], ContentScanObjTypes: [], Datetime: '2026-11-26T10:00:01Z', Description: 'SQLi from hosting networks',
  EdgeColoCode: 'AMS', EdgeResponseStatus: 403, Kind: 'firewall', LeakedCredentialCheckResult: '', MatchIndex: 0, Metadata: { ruleset_version: '3' },
  OriginResponseStatus: 0, OriginatorRayID: '00', RayID: '8e1f2a3b4c5d6e7f', Ref: 'sqli-hosting', RuleID: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', Source: 'firewallcustom',
};

test('a firewall_events line gives every request field it has a counterpart for, with the types of the rules language', () => {
  const r = firewallEventToRequestRecord(FULL);
  assert.equal(r['ip.src'], '198.51.100.7');
  assert.equal(r['ip.src.asnum'], 14061);
  assert.equal(r['ip.src.country'], 'NL', 'ISO code, upper-cased as the rules language has it');
  assert.equal(r['http.host'], 'shop.example.com');
  assert.equal(r['http.request.method'], 'GET');
  assert.equal(r['http.request.version'], 'HTTP/2');
  assert.equal(r['http.user_agent'], 'sqlmap/1.8');
  assert.equal(r['http.request.uri.path'], '/api/v1/Users.PHP');
  assert.equal(r['http.request.uri.path.extension'], 'php');
  // The query without its "?" (the rules language's http.request.uri.query), the URI the path and the query, the full URI a URL
  assert.equal(r['http.request.uri.query'], 'id=1%20UNION%20SELECT&id=2&flag');
  assert.equal(r['http.request.uri'], '/api/v1/Users.PHP?id=1%20UNION%20SELECT&id=2&flag');
  assert.equal(r['http.request.full_uri'], 'https://shop.example.com/api/v1/Users.PHP?id=1%20UNION%20SELECT&id=2&flag');
  assert.deepEqual(r['http.request.uri.args'], { id: ['1%20UNION%20SELECT', '2'], flag: [''] });
  assert.deepEqual(r['http.request.uri.args.names'], ['id', 'id', 'flag']);
  assert.equal(r['raw.http.request.uri'], r['http.request.uri']);
  assert.deepEqual(r['http.request.headers'], { host: ['shop.example.com'], 'user-agent': ['sqlmap/1.8'] });
  assert.equal(r['http.referer'], 'https://www.example.com/search?q=shoes', 'the Referer header, made of its four parts');
  assert.equal(r.ssl, true);
  assert.equal(r['http.response.code'], 403, 'EdgeResponseStatus: the status returned to the client');
  assert.equal(r['cf.ray_id'], '8e1f2a3b4c5d6e7f');
  assert.deepEqual([r['http.request.timestamp.sec'], r['http.request.timestamp.msec']], [1795687201, 0], 'Datetime: the time of the event at the edge');
  // The event's outcome (Action, Source, RuleID, ...), the data center's code and the origin's status are no request field
  const names = Object.keys(r);
  assert.ok(!names.some((n) => /colo|origin/.test(n)), names.join(' '));
  assert.ok(!Object.values(r).some((v) => v === 'block' || v === 'AMS' || v === 'firewallcustom'), JSON.stringify(r));
});

test('firewall_events: a query logged without its "?", with only a "?", or empty', () => {
  const at = (ClientRequestQuery: string) => {
    const r = firewallEventToRequestRecord({ ClientRequestPath: '/a', ClientRequestQuery, ClientRequestHost: 'example.com', ClientRequestScheme: 'http' });
    return [r['http.request.uri'], r['http.request.uri.query'], r['http.request.full_uri'], r.ssl];
  };
  assert.deepEqual(at('x=1'), ['/a?x=1', 'x=1', 'http://example.com/a?x=1', false]);
  assert.deepEqual(at('?'), ['/a?', '', 'http://example.com/a?', false]);
  assert.deepEqual(at(''), ['/a', '', 'http://example.com/a', false]);
});

test('firewall_events: a job\'s partial field_names give only what the line has (no query without ClientRequestQuery, no URI without the path)', () => {
  const p = firewallEventToRequestRecord({ ClientIP: '192.0.2.1', ClientRequestPath: '/login', Action: 'managedchallenge', Datetime: 1795687201 });
  assert.deepEqual(p, { 'http.request.uri.path': '/login', 'http.request.uri.path.extension': '', 'http.request.timestamp.sec': 1795687201, 'http.request.timestamp.msec': 0,
    'ip.src': '192.0.2.1', ssl: true, 'raw.http.request.uri.path': '/login' });
  const q = firewallEventToRequestRecord({ ClientRequestQuery: '?a=1' });
  assert.equal(q['http.request.uri.query'], 'a=1', 'the query alone is the query');
  assert.equal(q['http.request.uri'], undefined, 'without the path there is no URI');
  // A referer of which the job wrote some parts is no Referer header; an empty host is a request without one
  assert.equal(firewallEventToRequestRecord({ ClientRefererHost: 'www.example.com', ClientRefererPath: '/' })['http.referer'], undefined);
  assert.ok(!('http.referer' in firewallEventToRequestRecord({ ClientRefererHost: '' })));
  assert.ok(!Object.values(q).some((v) => typeof v === 'string' && v.includes('undefined')));
});

test('firewall_events: Datetime in every timestamp_format gives the request time', () => {
  const at = (Datetime: unknown) => { const r = firewallEventToRequestRecord({ Datetime }); return [r['http.request.timestamp.sec'], r['http.request.timestamp.msec']]; };
  assert.deepEqual(at('2026-11-26T10:00:01Z'), [1795687201, 0], 'rfc3339');
  assert.deepEqual(at('2026-11-26T10:00:01.250Z'), [1795687201, 250], 'rfc3339ms');
  assert.deepEqual(at('2026-11-26T10:00:01.250123456Z'), [1795687201, 250], 'rfc3339ns');
  assert.deepEqual(at(1795687201), [1795687201, 0], 'unix');
  assert.deepEqual(at(1795687201250000000n), [1795687201, 250], 'unixnano, read exactly');
  assert.deepEqual(at(1795687201250000000), [1795687201, 250], 'unixnano as a double');
  assert.deepEqual(at('yesterday'), [undefined, undefined]);
});

test('requestReader: firewall_events lines are told by their members, read as requests, and what they cannot give is named with its field', () => {
  const reads = rulesetFields({ rules: [{ expression: 'http.request.uri.query contains "select" and cf.bot_management.score lt 30 and http.request.timestamp.msec lt 500 and http.request.full_uri ne "" and http.request.headers["x-api-key"][0] eq "k"' }] });
  const reader = requestReader(reads);
  // A job with field_names [ClientIP, ClientRequestHost, ClientRequestPath, Action, Datetime] (timestamp_format rfc3339)
  const r = reader.read({ ClientIP: '192.0.2.1', ClientRequestHost: 'example.com', ClientRequestPath: '/x', Action: 'block', Datetime: '2026-11-26T10:00:01Z' }, 1)!;
  assert.equal(r['http.request.uri.path'], '/x');
  reader.read({ ClientIP: '192.0.2.2', ClientRequestHost: 'example.com', ClientRequestPath: '/y', Action: 'log', Datetime: '2026-11-26T10:00:02Z' }, 2);
  const logs = reader.logLines()!;
  assert.equal(logs.dataset, 'firewall_events');
  assert.equal(logs.assumed, undefined);
  assert.deepEqual([logs.lines, logs.first], [2, 1]);
  assert.deepEqual(logs.missing, [
    { field: 'http.request.uri.query', from: 'ClientRequestQuery' },
    { field: 'cf.bot_management.score', from: 'BotScore, an http_requests field' },
    { field: 'http.request.timestamp.msec', from: 'Datetime' },
    { field: 'http.request.full_uri', from: 'ClientRequestHost and ClientRequestPath and ClientRequestQuery' },
    { field: 'http.request.headers["x-api-key"]', from: 'RequestHeaders, a Logpush custom field of http_requests' },
  ]);
  assert.equal(reader.problems(), undefined, 'Action is a firewall_events field: not named');
  assert.match(logLinesLine(logs), /^2 lines are firewall_events log lines, read as the requests they log/);
});

test('requestReader: a firewall_events line\'s unknown member is named with the nearest firewall_events field; an http_requests field on it is named and not read', () => {
  const reader = requestReader(['cf.bot_management.score']);
  // Two firewall_events members (Action, Datetime) against one of http_requests: a firewall_events line
  const r = reader.read({ ClientIP: '192.0.2.1', ClientRequestQury: '?a=1', Action: 'block', Datetime: 1795687201, BotScore: 5 }, 1)!;
  assert.equal(r['cf.bot_management.score'], undefined, 'a firewall_events line carries no bot score: the member is not read');
  const p = reader.problems()!;
  assert.equal(p.records, 1);
  assert.ok(p.examples.some((e) => /^line 1: "ClientRequestQury" is not a firewall_events log field \(did you mean "ClientRequestQuery"\?\)/.test(e)), p.examples.join('\n'));
  assert.ok(p.examples.some((e) => /^line 1: "BotScore" is an http_requests log field, not a firewall_events one/.test(e)), p.examples.join('\n'));
  assert.equal(reader.logLines()!.dataset, 'firewall_events');
  // One member of each (a tie): read as the file's dataset so far, and the other's member named and not read
  const tie = reader.read({ ClientIP: '192.0.2.1', ClientRequestURI: '/a?b=1', Action: 'log' }, 2)!;
  assert.equal(tie['http.request.uri'], undefined);
  assert.ok(reader.problems()!.examples.some((e) => /^line 2: "ClientRequestURI" is an http_requests log field, not a firewall_events one/.test(e)), reader.problems()!.examples.join('\n'));
});

test('requestReader: lines that only carry fields both datasets have cannot be told apart: read as http_requests, said to be assumed', () => {
  const reader = requestReader(['ip.src']);
  reader.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/', EdgeResponseStatus: 200 }, 1);
  reader.read({ ClientIP: '192.0.2.2', ClientRequestPth: '/' }, 2);
  const logs = reader.logLines()!;
  assert.deepEqual({ ...logs, missing: undefined }, { lines: 2, first: 1, dataset: 'http_requests', assumed: true, missing: undefined });
  // Neither dataset's: the nearest field of both
  assert.match(reader.problems()!.examples[0], /^line 2: "ClientRequestPth" is no field of http_requests or firewall_events logs \(did you mean "ClientRequestPath"\?\)/);
  assert.match(logLinesLine(logs), /^2 lines are log lines of fields both http_requests and firewall_events have, taken for http_requests lines \(assumed\)/);
  // Lines that cannot tell, then lines that do: all read as the dataset the file tells
  const later = requestReader([]);
  later.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/' }, 1);
  later.read({ ClientIP: '192.0.2.1', ClientRequestQuery: '' }, 2);
  // (neither line has a RayID: both are firewall_events lines whose events of one request cannot be told)
  assert.deepEqual({ ...later.logLines()!, missing: undefined }, { lines: 2, first: 1, dataset: 'firewall_events', events: { repeated: 0, unjoined: 2 }, missing: undefined });
});

test('requestReader: a file of both datasets (two jobs\' files put together) reads each line as its own, and says so', () => {
  const reader = requestReader(['http.request.uri.query']);
  reader.read({ ClientIP: '192.0.2.1', ClientRequestURI: '/a?x=1', EdgeStartTimestamp: 1795687201 }, 1);
  const fw = reader.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/b', ClientRequestQuery: '?y=2', Datetime: 1795687202 }, 2)!;
  reader.read({ ClientIP: '192.0.2.1', ClientRequestPath: '/c', ClientRequestQuery: '', Datetime: 1795687203 }, 3);
  assert.equal(fw['http.request.uri.query'], 'y=2');
  assert.equal(reader.problems(), undefined, 'each line\'s members are its dataset\'s');
  const logs = reader.logLines()!;
  assert.deepEqual(logs, { lines: 2, first: 2, dataset: 'firewall_events', other: { dataset: 'http_requests', lines: 1, first: 1 }, events: { repeated: 0, unjoined: 2 },
    joined: { lines: 0, noRayID: 1 }, missing: [] });
  // Two jobs of one zone log a request a rule acted on in both: joined by RayID, which these lines lack, and the report says so
  assert.equal(logLinesLine(logs), '2 lines, from line 2, are firewall_events log lines, and 1 line, from line 1, is an http_requests log line, read as the requests they log; '
    + 'a request logged in both datasets is read once, from the first of its lines (joined by RayID); 1 http_requests line has no RayID, so the request it logs is read again from its firewall_events lines; '
    + '2 firewall_events lines have no RayID, so a request several rules acted on is read once per event.');
});

test('requestReader: a request logged in both datasets (two jobs\' files put together) is read once, from the first of its lines, as the report\'s counts are of requests', () => {
  // The report counts requests ("on 3 requests", "matches 3"), as the rules run once a request on the platform; a request read once
  // for each dataset was counted twice, and could match on one line and not the other (BotScore is on the http_requests line only).
  const run = compileRuleset({ rules: [{ action: 'block', expression: 'http.request.uri.path eq "/login" and cf.bot_management.score eq 5' }] });
  assert.ok(run.ok);
  const reader = requestReader(['http.request.uri.path', 'cf.bot_management.score']);
  const http = (RayID: string) => ({ RayID, ClientRequestURI: '/login', EdgeStartTimestamp: 1795687201, BotScore: 5 });
  const fw = (RayID: string, Action: string) => ({ RayID, ClientRequestPath: '/login', ClientRequestQuery: '', Action, Datetime: 1795687201 });
  // http_requests first (zcat of the http prefix, then the events'), then the other way round for the last request
  const lines = [http('8e1f2a3b4c5d6e71'), http('8e1f2a3b4c5d6e72'), fw('8e1f2a3b4c5d6e71', 'block'), fw('8e1f2a3b4c5d6e71', 'log'), fw('8e1f2a3b4c5d6e73', 'block'), http('8e1f2a3b4c5d6e73')];
  const read = lines.map((l, i) => reader.read(l, i + 1));
  assert.deepEqual(read.map((r) => r !== undefined), [true, true, false, false, true, false]);
  for (const [i, r] of read.entries()) if (r) run.take(r, i + 1);
  assert.equal(run.total(), 3);
  // The third request was read from its firewall_events line, which has no BotScore (its score reads 0): the first of its lines is what is read
  assert.equal(run.rules[0].matched, 2);
  const logs = reader.logLines()!;
  assert.deepEqual({ ...logs, missing: undefined }, { lines: 3, first: 1, dataset: 'http_requests', other: { dataset: 'firewall_events', lines: 3, first: 3 },
    joined: { lines: 3, noRayID: 0 }, missing: undefined });
  assert.equal(logLinesLine(logs), '3 lines, from line 1, are http_requests log lines, and 3 lines, from line 3, are firewall_events log lines, read as the requests they log; '
    + 'a request logged in both datasets is read once, from the first of its lines (joined by RayID): 3 lines are not read again.');
  // Within http_requests a RayID seen twice is still read twice (one line a request; a duplicate is not this reader's to drop)
  assert.ok(reader.read(http('8e1f2a3b4c5d6e72'), 7));
});

test('requestReader: a file of both datasets longer than the RayIDs remembered says that lines of one request further apart are each read', () => {
  const reader = requestReader([]);
  const n = 200_001;
  for (let i = 0; i < n; i++) reader.read({ RayID: i.toString(16).padStart(16, '0'), EdgeStartTimestamp: 1795687201 }, i + 1);
  // The first request's event, after 200 001 other requests: its id was forgotten, so it is read again
  assert.ok(reader.read({ RayID: '0'.repeat(16), ClientRequestPath: '/', Action: 'block', Datetime: 1795687201 }, n + 1));
  // The last one's is still known
  assert.equal(reader.read({ RayID: (n - 1).toString(16).padStart(16, '0'), ClientRequestPath: '/', Action: 'block', Datetime: 1795687201 }, n + 2), undefined);
  const logs = reader.logLines()!;
  assert.deepEqual(logs.joined, { lines: 1, noRayID: 0, remembered: 100_000 });
  assert.match(logLinesLine(logs), /: 1 line is not read again; only the last 100,000 RayIDs or more are remembered, so lines of one request further apart are each read\.$/);
});

test('requestReader: a RayID written as a JSON number (another tool\'s rewrite; the platform writes text) is read as the platform writes it, and joins', () => {
  const reader = requestReader([]);
  const ev = (RayID: unknown, Action: string) => ({ RayID, ClientRequestPath: '/login', Action, Datetime: 1795687201 });
  const first = reader.read(ev(8123456789012345, 'log'), 1)!;
  assert.equal(first['cf.ray_id'], '8123456789012345', 'cf.ray_id is a String field');
  assert.equal(reader.read(ev('8123456789012345', 'block'), 2), undefined, 'its text is the same id');
  assert.equal(reader.read(ev(8123456789012345, 'block'), 3), undefined);
  // Past 2^53 the reader (readNdjson) gives a bigint, with the line's digits
  assert.ok(reader.read(ev(9123456789012345n, 'log'), 4));
  assert.equal(reader.read(ev('9123456789012345', 'block'), 5), undefined);
  // The leading zeros a number cannot keep: 16 digits, as the platform writes a RayID
  assert.equal(reader.read(ev(123456789012345, 'log'), 6)!['cf.ray_id'], '0123456789012345');
  assert.equal(reader.read(ev('0123456789012345', 'block'), 7), undefined);
  assert.deepEqual(reader.logLines()!.events, { repeated: 4, unjoined: 0 });
  assert.equal(reader.problems(), undefined);
  // On an http_requests line too (cf.ray_id), and across the datasets
  const both = requestReader([]);
  assert.equal(both.read({ RayID: 8123456789012345, ClientRequestURI: '/', EdgeStartTimestamp: 1795687201 }, 1)!['cf.ray_id'], '8123456789012345');
  assert.equal(both.read(ev('8123456789012345', 'block'), 2), undefined);
  // A number that is no RayID's digits (a fraction, a negative one, a double past 2^53 that lost them): no RayID, and said where
  const odd = requestReader([]);
  for (const [i, v] of [1.5, -3, 2 ** 60].entries()) { assert.ok(odd.read(ev(v, 'log'), 2 * i + 1)); assert.ok(odd.read(ev(v, 'block'), 2 * i + 2)); }
  assert.deepEqual(odd.logLines()!.events, { repeated: 0, unjoined: 6 });
  const p = odd.problems()!;
  assert.equal(p.records, 6);
  assert.match(p.examples[0], /^line 1: "RayID" is the number 1\.5, which is no RayID \(the platform writes one as text: 16 hex digits\); the line is not joined with its request's other lines/);
});


test('requestReader: a request several rules acted on is several firewall_events lines with one RayID: read once, and the repeats counted', () => {
  const run = compileRuleset({ rules: [{ action: 'block', expression: 'http.request.uri.path eq "/login"' }] });
  assert.ok(run.ok);
  const reader = requestReader([]);
  const lines = [
    { RayID: '8e1f2a3b4c5d6e70', ClientRequestPath: '/login', Action: 'log', Source: 'firewallcustom' },
    { RayID: '8e1f2a3b4c5d6e70', ClientRequestPath: '/login', Action: 'block', Source: 'firewallmanaged' },
    { RayID: '8e1f2a3b4c5d6e71', ClientRequestPath: '/login', Action: 'block', Source: 'firewallmanaged' },
  ];
  const read = lines.map((l, i) => reader.read(l, i + 1));
  assert.deepEqual(read.map((r) => r === undefined), [false, true, false], 'the second event of a request is not read again');
  for (const [i, r] of read.entries()) if (r) run.take(r, i + 1);
  assert.equal(run.total(), 2);
  assert.equal(run.rules[0].matched, 2);
  const logs = reader.logLines()!;
  assert.deepEqual(logs.events, { repeated: 1, unjoined: 0 });
  assert.match(logLinesLine(logs), /^3 lines are firewall_events log lines, read as the requests they log; 1 firewall_events line repeats an earlier line's RayID \(another security event of the same request\) and is not read again\.$/);
  // A job whose field_names leave RayID out: each event is read, and the report says what that means
  const bare = requestReader([]);
  for (const [i, l] of lines.entries()) { const { RayID: _, ...rest } = l; assert.ok(bare.read(rest, i + 1)); }
  assert.deepEqual(bare.logLines()!.events, { repeated: 0, unjoined: 3 });
  assert.match(logLinesLine(bare.logLines()!), /; 3 firewall_events lines have no RayID, so a request several rules acted on is read once per event\.$/);
  // http_requests lines are one per request: a RayID seen twice is read twice (and nothing is said)
  const http = requestReader([]);
  assert.ok(http.read({ RayID: 'a', EdgeStartTimestamp: 1 }, 1) && http.read({ RayID: 'a', EdgeStartTimestamp: 1 }, 2));
  assert.equal(http.logLines()!.events, undefined);
});

test('requestReader: firewall_events lines of shared names only (a job without Action or Datetime): a RayID seen again is another event of the request, read once', () => {
  // field_names [RayID, ClientIP, ClientRequestHost, ClientRequestPath]: no member tells the dataset, but http_requests has one line
  // a request, so a RayID on two lines tells firewall_events
  const reader = requestReader([]);
  const line = (RayID: string, ClientRequestPath: string) => ({ RayID, ClientIP: '192.0.2.1', ClientRequestHost: 'example.com', ClientRequestPath });
  const read = [line('8e1f2a3b4c5d6e70', '/login'), line('8e1f2a3b4c5d6e70', '/login'), line('8e1f2a3b4c5d6e71', '/x')].map((l, i) => reader.read(l, i + 1));
  assert.deepEqual(read.map((r) => r === undefined), [false, true, false], 'the second event of a request is not read again');
  assert.deepEqual({ ...reader.logLines()!, missing: undefined }, { lines: 3, first: 1, dataset: 'firewall_events', events: { repeated: 1, unjoined: 0 }, missing: undefined });
  // A line of shared names read before the lines that tell: its RayID is remembered all the same
  const before = requestReader([]);
  assert.ok(before.read({ RayID: '8e1f2a3b4c5d6e72', ClientRequestPath: '/a' }, 1));
  assert.equal(before.read({ RayID: '8e1f2a3b4c5d6e72', ClientRequestPath: '/a', Action: 'block', Datetime: 1795687201 }, 2), undefined);
  assert.deepEqual(before.logLines()!.events, { repeated: 1, unjoined: 0 });
  // Lines of shared names with distinct RayIDs (or none) tell nothing: assumed http_requests, no events said
  const distinct = requestReader([]);
  distinct.read(line('8e1f2a3b4c5d6e73', '/'), 1); distinct.read({ ClientIP: '192.0.2.1' }, 2);
  assert.deepEqual({ ...distinct.logLines()!, missing: undefined }, { lines: 2, first: 1, dataset: 'http_requests', assumed: true, missing: undefined });
});

test('logLinesLine: the count in words, where the log lines start only when lines before them are not log lines, one line in the singular', () => {
  assert.equal(logLinesLine({ lines: 20, first: 1, dataset: 'firewall_events', missing: [] }), '20 lines are firewall_events log lines, read as the requests they log.');
  assert.equal(logLinesLine({ lines: 1, first: 1, missing: [] }), '1 line is an http_requests log line, read as the request it logs.');
  assert.equal(logLinesLine({ lines: 1, first: 4, dataset: 'firewall_events', missing: [] }), '1 line, from line 4, is a firewall_events log line, read as the request it logs.');
  assert.equal(logLinesLine({ lines: 1, first: 1, assumed: true, missing: [] }),
    '1 line is a log line of fields both http_requests and firewall_events have, taken for an http_requests line (assumed) and read as the request it logs.');
  assert.equal(logLinesLine({ lines: 1_200, first: 3, missing: [] }), '1,200 lines, from line 3, are http_requests log lines, read as the requests they log.');
});
