// Test Rules on a rate limiting ruleset: a rule's action applies once the count of its characteristics' values over the period
// passes the threshold (waf/rate-limiting-rules/request-rate.mdx, Examples A and B; parameters.mdx), not to every request it matches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRuleset, rulesetLensCounts, RememberedMatches, type RequestRecord } from '../../../server/src/core/eval/rules';

const at = (sec: number, extra: RequestRecord = {}): RequestRecord => ({
  'http.request.timestamp.sec': 1_700_000_000 + Math.floor(sec), 'http.request.timestamp.msec': Math.round((sec % 1) * 1000),
  'ip.src': '192.0.2.1', 'http.request.uri.path': '/form', 'http.request.headers': { 'x-api-key': ['k1'] }, ...extra,
});

function ruleset(ratelimit: Record<string, unknown>, expression = 'http.request.uri.path eq "/form"', action = 'block') {
  return { phase: 'http_ratelimit', rules: [
    { action, expression, ratelimit: { characteristics: ['cf.colo.id', 'ip.src', 'http.request.headers["x-api-key"]'], period: 10, ...ratelimit } },
    { action: 'log', expression: 'true' },
  ] };
}

function runOn(body: unknown, records: RequestRecord[]) {
  const c = compileRuleset(body);
  assert.ok(c.ok, c.ok ? '' : c.error);
  records.forEach((r, i) => c.take(r, i + 1));
  return c.rules;
}

test('Example A: one request allowed per 10 s per IP and API key; the second from the same pair is blocked, another key has its own counter', () => {
  const rules = runOn(ruleset({ requests_per_period: 1, mitigation_timeout: 600 }), [
    at(0), at(1, { 'http.request.headers': { 'x-api-key': ['k2'] } }), at(2),
    at(3, { 'http.request.uri.path': '/other' }),
  ]);
  const r = rules[0];
  assert.equal(r.matched, 3);
  assert.equal(r.applied, 1, 'only request 3');
  assert.equal(r.decided, 1);
  assert.deepEqual(r.ratelimit?.firstActed, [3]);
  assert.equal(r.ratelimit?.keys, 2);
  assert.equal(rules[1].applied, 3, 'the log rule sees the three requests the block did not end');
});

test('a mitigation timeout acts on every matching request of the key until it ends; throttling (0) only while over the rate', () => {
  const seq = [at(0), at(1), at(2), at(3), at(30), at(700)];
  const timeout = runOn(ruleset({ requests_per_period: 2, mitigation_timeout: 600 }), seq)[0];
  assert.deepEqual(timeout.ratelimit?.firstActed, [3, 4, 5], 'from the third request in 10 s, then until 600 s after it');
  assert.equal(timeout.applied, 3);
  const throttle = runOn(ruleset({ requests_per_period: 2, mitigation_timeout: 0 }), seq)[0];
  assert.deepEqual(throttle.ratelimit?.firstActed, [3, 4], 'only the requests over 2 in the last 10 s');
});

test('the period is a window: requests that fell out of it no longer count', () => {
  const r = runOn(ruleset({ requests_per_period: 2, mitigation_timeout: 0 }), [at(0), at(5), at(11), at(12), at(13)])[0];
  // At 11 s the window (1, 11] holds the requests at 5 and 11 only (0 fell out): not over 2; at 12 s it holds three
  assert.deepEqual(r.ratelimit?.firstActed, [4, 5]);
});

test('Example B: a counting expression with a response field counts after the response, so the request that makes the count pass the limit is allowed', () => {
  const body = ruleset({ requests_per_period: 1, mitigation_timeout: 600, counting_expression: 'http.request.uri.path eq "/form" and http.response.code eq 400' });
  const rules = runOn(body, [at(0, { 'http.response.code': 400 }), at(1, { 'http.response.code': 200 }), at(2, { 'http.response.code': 400 }), at(3, { 'http.response.code': 200 })]);
  assert.deepEqual(rules[0].ratelimit?.firstActed, [4]);
  assert.equal(rules[0].ratelimit?.counted, 2);
});

test('complexity based: the origin\'s score header adds to the count; a score outside 1..1 000 000 or missing adds nothing', () => {
  const score = (s: string | undefined, sec: number) => at(sec, s === undefined ? {} : { 'http.response.headers': { 'x-score': [s] } });
  const r = runOn(ruleset({ score_per_period: 100, score_response_header_name: 'x-score', mitigation_timeout: 0 }),
    [score('60', 0), score('30', 1), score('2000000', 2), score(undefined, 3), score('20', 4), score('5', 5)])[0];
  // The score comes with the response, so it counts once the request is served: 60 + 30 + 20 is over 100 for the request after
  assert.deepEqual(r.ratelimit?.firstActed, [6]);
});

test('requests without a timestamp are not counted, and the tally says how many; a rule in another phase is not simulated', () => {
  const r = runOn(ruleset({ requests_per_period: 1, mitigation_timeout: 600 }), [{ 'http.request.uri.path': '/form', 'ip.src': '192.0.2.1' }, at(1), at(2)])[0];
  assert.equal(r.ratelimit?.untimed, 1);
  assert.deepEqual(r.ratelimit?.firstActed, [3]);
  const other = runOn({ ...ruleset({ requests_per_period: 1 }), phase: 'http_request_firewall_custom' }, [at(0), at(1)])[0];
  assert.equal(other.ratelimit, undefined);
  assert.equal(other.applied, 2);
});

test('a characteristic the evaluator cannot compute makes the run an error naming the rule and the characteristic', () => {
  const c = compileRuleset({ phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', 'ip.scr'], period: 10, requests_per_period: 1 } }] });
  assert.equal(c.ok, false);
  assert.match(c.ok ? '' : c.error, /rule 0.*characteristic.*ip\.scr/);
});

test('the lens counts of a rate limiting ruleset agree with a run, and a change of the ratelimit alone is counted again', () => {
  const records = [at(0), at(1), at(2), at(3), at(30)];
  const remembered = new RememberedMatches(records.length);
  const body = ruleset({ requests_per_period: 2, mitigation_timeout: 600 });
  const lens = rulesetLensCounts(body, records, remembered);
  assert.ok(lens.ok);
  const full = runOn(body, records);
  assert.deepEqual(lens.rules.map((r) => [r.matched, r.applied, r.decided]), full.map((r) => [r.matched, r.applied, r.decided]));
  const lower = ruleset({ requests_per_period: 1, mitigation_timeout: 600 });
  const again = rulesetLensCounts(lower, records, remembered);
  assert.ok(again.ok);
  assert.deepEqual(again.rules.map((r) => [r.applied, r.decided]), runOn(lower, records).map((r) => [r.applied, r.decided]));
});

test('requests_to_origin true: the run says it counted cached requests too (request records carry no cache status)', () => {
  const on = runOn(ruleset({ requests_per_period: 1, requests_to_origin: true }), [at(0), at(1)])[0];
  assert.ok(on.ratelimit?.notes.some((n) => /requests_to_origin/.test(n) && /cache/.test(n)), JSON.stringify(on.ratelimit?.notes));
  const off = runOn(ruleset({ requests_per_period: 1 }), [at(0), at(1)])[0];
  assert.ok(!off.ratelimit?.notes.some((n) => /requests_to_origin/.test(n)));
});

test('a counting expression counts the requests it matches, those the rule\'s expression does not match too; the action applies to the rule\'s matches only', () => {
  // parameters.mdx: "If the counting expression did not include the matching expression (that is, if you had set the counting
  // expression to http.response.code eq 403), any response with a 403 status code on any URL would increase the counter";
  // best-practices.mdx: "the matching criteria will only be used when an action is triggered"
  const body = ruleset({ requests_per_period: 1, mitigation_timeout: 0, counting_expression: 'http.request.method eq "POST"' });
  const records = [at(0, { 'http.request.uri.path': '/b', 'http.request.method': 'POST' }), at(1, { 'http.request.uri.path': '/b', 'http.request.method': 'POST' }),
    at(2, { 'http.request.method': 'GET' }), at(3, { 'http.request.uri.path': '/c', 'http.request.method': 'GET' })];
  const r = runOn(body, records)[0];
  assert.equal(r.matched, 1);
  assert.equal(r.ratelimit?.counted, 2, 'the two POSTs to /b');
  assert.deepEqual(r.ratelimit?.firstActed, [3], 'the GET to /form, the rule\'s match, over the count of the POSTs');
  assert.equal(r.applied, 1);
  // The lens counts agree
  const lens = rulesetLensCounts(body, records, new RememberedMatches(records.length));
  assert.ok(lens.ok);
  assert.deepEqual(lens.rules.map((x) => [x.matched, x.applied, x.decided]), runOn(body, records).map((x) => [x.matched, x.applied, x.decided]));
  // Without a counting expression, what the rule does not match is not counted
  const plain = runOn(ruleset({ requests_per_period: 1, mitigation_timeout: 0 }), records)[0];
  assert.equal(plain.ratelimit?.counted, 1);
  assert.equal(plain.applied, 0);
});

test('every request that reaches a rate limiting rule meets its counting expression, those of a rule before it that did not end them too', () => {
  const body = { phase: 'http_ratelimit', rules: [
    { action: 'block', expression: 'http.request.uri.path eq "/b"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 1000 } },
    { action: 'block', expression: 'http.request.uri.path eq "/form"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 1, counting_expression: 'true' } },
  ] };
  // Rule 0 counts but never acts (1000): every request reaches rule 1, whose counting expression counts them all
  const r = runOn(body, [at(0, { 'http.request.uri.path': '/b' }), at(1, { 'http.request.uri.path': '/b' }), at(2)]);
  assert.equal(r[1].ratelimit?.counted, 3);
  assert.deepEqual(r[1].ratelimit?.firstActed, [3]);
});

test('past 50 000 counters, one whose period and mitigation are over makes room for a new value, as the platform\'s expire', () => {
  // A day of traffic from 50 000 addresses, one request each, then one address twice in a second: its second request is over 1 in 10 s
  const records: RequestRecord[] = [];
  for (let i = 0; i < 50_000; i++) records.push(at(i, { 'ip.src': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
  records.push(at(50_000, { 'ip.src': '192.0.2.9' }), at(50_000.5, { 'ip.src': '192.0.2.9' }));
  const r = runOn(ruleset({ requests_per_period: 1, mitigation_timeout: 0 }), records)[0];
  assert.deepEqual(r.ratelimit?.firstActed, [50_002]);
  assert.deepEqual(r.ratelimit?.notes.filter((n) => /50,000/.test(n)), [], 'no value went uncounted');
  // Within one period every counter is live: a new value past 50 000 is not counted, and the note says so
  const busy: RequestRecord[] = [];
  for (let i = 0; i < 50_002; i++) busy.push(at(i / 10_000, { 'ip.src': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
  const b = runOn(ruleset({ requests_per_period: 1, mitigation_timeout: 0 }), busy)[0];
  assert.equal(b.ratelimit?.keys, 50_000);
  assert.equal(b.ratelimit?.notes.filter((n) => /50,000/.test(n)).length, 1);
});

test('requests out of time order by more than the period are counted as they come, and a note says how many, as the counts assume time order', () => {
  // Two hours' files read in the wrong order: the first hour's requests come after the second's
  const records = [at(3600), at(3601), at(0), at(1), at(2)];
  const r = runOn(ruleset({ requests_per_period: 10, mitigation_timeout: 0 }), records)[0];
  const notes = r.ratelimit?.notes.filter((n) => /time order/.test(n)) ?? [];
  assert.equal(notes.length, 1, JSON.stringify(r.ratelimit?.notes));
  assert.match(notes[0], /^3 requests came more than 10 s before a request read earlier \(first on line 3\)/);
  // In order, or out of order by less than the period, no note
  for (const seq of [[at(0), at(1), at(2)], [at(5), at(0), at(9)]]) {
    assert.deepEqual(runOn(ruleset({ requests_per_period: 10, mitigation_timeout: 0 }), seq)[0].ratelimit?.notes.filter((n) => /time order/.test(n)), []);
  }
});

test('the tally names who the action applied to most: the characteristics\' values of the top counters, with how many requests', () => {
  const a = { 'ip.src': '192.0.2.1' }, b = { 'ip.src': '198.51.100.7' }, c = { 'ip.src': '203.0.113.9' };
  const seq = [at(0, a), at(1, a), at(2, a), at(3, a), at(4, b), at(5, b), at(6, b), at(7, c)];
  const r = runOn(ruleset({ requests_per_period: 1, mitigation_timeout: 0 }), seq)[0];
  assert.deepEqual(r.ratelimit?.characteristics, ['ip.src', 'http.request.headers["x-api-key"]']);
  assert.deepEqual(r.ratelimit?.top, [{ values: ['192.0.2.1', '["k1"]'], acted: 3 }, { values: ['198.51.100.7', '["k1"]'], acted: 2 }]);
});
