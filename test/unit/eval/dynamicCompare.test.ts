// The rules evaluator on comparisons of two fields or function results (changelog 2026-10-01 "Compare dynamic values"): both sides
// per request, by the comparison's type (texts by their bytes, integers as numbers, addresses as addresses), "[*]" on either side
// one boolean per element (any()/all() as for literals), a missing value as the evaluator treats one against a literal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression, type RequestRecord } from '../../../server/src/core/eval/rules';

const run = (expr: string, r: RequestRecord): boolean => {
  const c = compileExpression(expr);
  if (!c.ok) throw new Error(`${expr}: ${c.error}`);
  return c.expression.test(r);
};

test('the changelog\'s example: a rewritten path against the original one', () => {
  const expr = 'http.request.uri.path ne raw.http.request.uri.path';
  assert.equal(run(expr, { 'http.request.uri.path': '/a', 'raw.http.request.uri.path': '/a' }), false);
  assert.equal(run(expr, { 'http.request.uri.path': '/b', 'raw.http.request.uri.path': '/a' }), true);
});

test('texts: equality and ordering by their bytes, function results on either side', () => {
  const r = { 'http.host': 'Example.COM', 'http.referer': 'example.com' };
  assert.equal(run('http.host eq http.referer', r), false);
  assert.equal(run('lower(http.host) eq http.referer', r), true);
  assert.equal(run('http.referer == lower(http.host)', r), true);
  assert.equal(run('http.host lt http.referer', r), true); // "E" (0x45) below "e" (0x65)
  assert.equal(run('http.host >= http.referer', r), false);
  assert.equal(run('http.referer gt http.host', r), true);
  // Code point order, not UTF-16 order: U+10000 is above U+FFFD
  assert.equal(run('http.host gt http.referer', { 'http.host': '\u{10000}', 'http.referer': '\uFFFD' }), true);
});

test('integers and the platform\'s example len(a) gt len(b)', () => {
  const r = { 'http.request.uri.path': '/abc', 'http.request.uri.query': 'q=1', 'cf.waf.score': 20, 'cf.bot_management.score': 30 };
  assert.equal(run('len(http.request.uri.path) gt len(http.request.uri.query)', r), true);
  assert.equal(run('len(http.request.uri.path) le len(http.request.uri.query)', r), false);
  assert.equal(run('cf.waf.score lt cf.bot_management.score', r), true);
  assert.equal(run('cf.waf.score eq cf.bot_management.score', r), false);
  assert.equal(run('cf.waf.score ne cf.bot_management.score', r), true);
  assert.equal(run('cf.waf.score ge cf.waf.score', r), true);
});

test('addresses compare as addresses: one address written two ways is equal, IPv4 and IPv6 never', () => {
  assert.equal(run('ip.src eq cf.edge.server_ip', { 'ip.src': '2001:db8::1', 'cf.edge.server_ip': '2001:0db8:0:0:0:0:0:1' }), true);
  assert.equal(run('ip.src ne cf.edge.server_ip', { 'ip.src': '2001:db8::1', 'cf.edge.server_ip': '2001:0db8:0:0:0:0:0:1' }), false);
  assert.equal(run('ip.src eq cf.edge.server_ip', { 'ip.src': '192.0.2.1', 'cf.edge.server_ip': '::ffff:192.0.2.1' }), false);
  assert.equal(run('ip.src eq cf.edge.server_ip', { 'ip.src': '192.0.2.1', 'cf.edge.server_ip': '192.0.2.2' }), false);
});

test('"[*]" on either side: one boolean per element, any() and all() as for literals', () => {
  const r = { 'http.host': 'x-api-key', 'http.request.headers.names': ['user-agent', 'x-api-key'] };
  assert.equal(run('any(http.request.headers.names[*] eq http.host)', r), true);
  assert.equal(run('all(http.request.headers.names[*] eq http.host)', r), false);
  assert.equal(run('any(http.host eq http.request.headers.names[*])', r), true);
  assert.equal(run('all(http.host ne http.request.headers.names[*])', r), false);
  assert.equal(run('any(http.host eq http.request.headers.names[*])', { ...r, 'http.host': 'z' }), false);
  // A mapped call on one side
  assert.equal(run('any(lower(http.request.headers.names[*])[*] eq lower(http.host))', { ...r, 'http.host': 'X-API-KEY' }), true);
});

test('missing values: a missing field is its type\'s empty value; a missing key or element equals nothing (eq false, ne true, no order)', () => {
  const args = (a: Record<string, string[]>) => ({ 'http.request.uri.args': a });
  const both = 'http.request.uri.args["first"][0] eq http.request.uri.args["second"][0]';
  assert.equal(run(both, args({ first: ['a'], second: ['a'] })), true);
  assert.equal(run(both, args({ first: ['a'], second: ['b'] })), false);
  assert.equal(run(both, args({})), false, 'two missing values are not equal');
  assert.equal(run(both.replace(' eq ', ' ne '), args({})), true);
  assert.equal(run(both.replace(' eq ', ' lt '), args({ second: ['b'] })), false);
  // the values reference's fix: coalesce() gives the missing one a value
  const fallback = 'coalesce(http.request.uri.args["first"][0], "") eq http.request.uri.args["second"][0]';
  assert.equal(run(fallback, args({ second: [''] })), true);
  // missing top-level fields: the empty value of their type, as against a literal
  assert.equal(run('http.host eq http.referer', {}), true);
  assert.equal(run('http.host eq http.referer', { 'http.host': 'a' }), false);
});

test('"[*]" on both sides is refused by name (ruleset/expr-compare-fields), at compile time', () => {
  const c = compileExpression('any(http.request.headers.names[*] eq http.request.uri.args.names[*])');
  assert.ok(!c.ok && c.error.includes('ruleset/expr-compare-fields') && c.error.includes('"[*]" on both sides'), JSON.stringify(c));
});

test('on sample requests (Test Rules\' sample traffic): the same verdicts as the two values compared by hand', async () => {
  const { sampleRequests } = await import('../../../server/src/core/eval/sample');
  const requests = sampleRequests(300, 5);
  const count = (expr: string) => requests.filter((r) => run(expr, r)).length;
  const scores = requests.filter((r) => (r['cf.waf.score'] as number) < (r['cf.bot_management.score'] as number)).length;
  assert.ok(scores > 0 && scores < requests.length, `a split sample: ${scores}`);
  assert.equal(count('cf.waf.score lt cf.bot_management.score'), scores);
  assert.equal(count('cf.waf.score ge cf.bot_management.score'), requests.length - scores);
  // The host header is the host: on every request, from either side
  assert.equal(count('any(http.request.headers["host"][*] eq http.host)'), requests.length);
  assert.equal(count('http.host eq http.request.headers["host"][0]'), requests.length);
  const longer = requests.filter((r) => String(r['http.request.uri.path']).length > String(r['http.request.uri.query']).length).length;
  assert.equal(count('len(http.request.uri.path) gt len(http.request.uri.query)'), longer);
});
