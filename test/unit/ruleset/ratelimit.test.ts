// A rate limiting rule's characteristics (waf/rate-limiting-rules/parameters.mdx, cloudflare-docs 12dd7ce): cf.colo.id is
// "(mandatory)"; "You cannot use both IP with NAT support and IP as characteristics of the same rate limiting rule"
// (cf.unique_visitor_id and ip.src); a header name "must" be in lower case ("Cloudflare normalizes header names").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';

function check(characteristics: unknown) {
  const body = { name: 'r', kind: 'zone', phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'true', ratelimit: { characteristics, period: 60, requests_per_period: 10, mitigation_timeout: 600 } }] };
  const text = JSON.stringify(body, null, 2);
  const problems = validateText(text, 'waf-ruleset');
  return { text, problems, at: problems.map((p) => [p.code, p.severity, text.substr(p.offset, p.length)]) };
}

test('the documented characteristics pass', () => {
  for (const c of [['cf.colo.id', 'ip.src'], ['cf.colo.id', 'cf.unique_visitor_id', 'http.request.headers["x-api-key"]'], ['ip.src', 'cf.colo.id', 'lookup_json_string(http.request.body.raw, "user")']]) {
    assert.deepEqual(check(c).problems, [], c.join(' '));
  }
});

test('cf.colo.id missing is an error on the characteristics, naming what to add', () => {
  const r = check(['ip.src']);
  assert.deepEqual(r.at.map((a) => a.slice(0, 2)), [['ruleset/ratelimit-characteristics', 'error']]);
  assert.match(r.problems[0].message, /"cf\.colo\.id".*mandatory/);
  const fixed = r.problems[0].fixes?.[0];
  assert.ok(fixed, 'a fix that adds it');
  let out = r.text;
  for (const e of [...fixed.edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  assert.deepEqual(JSON.parse(out).rules[0].ratelimit.characteristics, ['ip.src', 'cf.colo.id']);
});

test('ip.src together with cf.unique_visitor_id is an error on the second', () => {
  const r = check(['cf.colo.id', 'ip.src', 'cf.unique_visitor_id']);
  assert.deepEqual(r.at, [['ruleset/ratelimit-characteristics', 'error', '"cf.unique_visitor_id"']]);
  assert.match(r.problems[0].message, /cannot use both "ip\.src" \(IP\) and "cf\.unique_visitor_id" \(IP with NAT support\)/);
});

test('a header name with capitals is a warning with the lower-case name as its fix', () => {
  const r = check(['cf.colo.id', 'http.request.headers["X-Api-Key"]']);
  assert.deepEqual(r.at, [['ruleset/expr-header-case', 'warning', '"http.request.headers[\\"X-Api-Key\\"]"']]);
  assert.equal(r.problems[0].fixes?.[0]?.edits[0]?.newText, '"http.request.headers[\\"x-api-key\\"]"');
});
