// What a rule's value expressions give on a request (compileValue): header values, URL rewrites and redirect targets, with the
// evaluator's own functions; and what a ruleset run keeps of them per rule (compileRuleset: a few examples and a distinct count).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRuleset, compileValue, type RequestRecord } from '../../../server/src/core/eval/rules';

const REQUEST: RequestRecord = {
  'http.host': 'Example.com',
  'http.request.uri.path': '/Old/Page.html',
  'http.request.uri.query': 'utm_source=x&id=7&q=%2Fa%20b',
  'http.request.full_uri': 'https://example.com/Old/Page.html?id=7',
  'ip.src': '1.2.3.4',
  'cf.bot_management.score': 12,
  'ssl': true,
  'http.request.headers': { 'x-forwarded-proto': ['https'] },
};

const value = (src: string, r: RequestRecord = REQUEST): string | null => {
  const c = compileValue(src);
  if (!c.ok) throw new Error(`${src}: ${c.error}`);
  return c.value.evaluate(r);
};

test('value expressions give the text the platform would set: fields, concat, lower, to_string, regex_replace, wildcard_replace, url_decode, coalesce', () => {
  assert.equal(value('concat("ip=", to_string(ip.src), ";host=", lower(http.host))'), 'ip=1.2.3.4;host=example.com');
  assert.equal(value('http.host'), 'Example.com');
  assert.equal(value('to_string(cf.bot_management.score)'), '12');
  assert.equal(value('to_string(ssl)'), 'true');
  // An IP field as it is (a warning in a header value, which the platform takes): its text
  assert.equal(value('ip.src'), '1.2.3.4');
  assert.equal(value('regex_replace(http.request.uri.path, "^/Old/(.*)$", "/new/${1}")'), '/new/Page.html');
  assert.equal(value('wildcard_replace(http.request.full_uri, "https://example.com/old/*", "https://example.com/new/${1}")'), 'https://example.com/new/Page.html?id=7');
  assert.equal(value('remove_query_args(http.request.uri.query, "utm_source")'), 'id=7&q=%2Fa%20b');
  assert.equal(value('url_decode(http.request.uri.query)'), 'utm_source=x&id=7&q=/a b');
  assert.equal(value('coalesce(http.request.headers["x-missing"][0], http.request.headers["x-forwarded-proto"][0], "http")'), 'https');
  assert.equal(value('upper(substring(http.host, 0, 3))'), 'EXA');
  assert.equal(value('"/static"'), '/static');
});

test('a value that is not there (a missing header, an element past the end) is null, not an empty text', () => {
  assert.equal(value('http.request.headers["x-missing"][0]'), null);
  assert.equal(value('coalesce(http.request.headers["x-missing"][0])'), null);
  // A missing field is its type's empty value, as in a match expression
  assert.equal(value('http.referer', {}), '');
});

test('compileValue refuses what it cannot compute, by name, and an expression with errors', () => {
  const sha = compileValue('sha256(http.host)');
  assert.ok(!sha.ok && /sha256\(\) at 0 cannot be evaluated: EdgeKit's evaluator does not compute hashes/.test(sha.error), JSON.stringify(sha));
  const typo = compileValue('concat("a", http.hots)');
  assert.ok(!typo.ok && /http\.hots/.test(typo.error) && /ruleset\/expr-unknown-field/.test(typo.error), JSON.stringify(typo));
  // A condition is no value: the checker's error for a value place
  const cond = compileValue('http.host eq "a"');
  assert.ok(!cond.ok && /condition/.test(cond.error), JSON.stringify(cond));
  assert.ok(!compileValue('').ok);
});

test('compileRuleset: per rule, what its value expressions gave on the first matching requests, static values as they are, distinct values counted', () => {
  const run = compileRuleset({ phase: 'http_request_late_transform', rules: [
    { action: 'rewrite', expression: 'http.host ne "skip.example"', action_parameters: { headers: {
      'X-Ctx': { operation: 'set', expression: 'concat("ip=", to_string(ip.src), ";host=", http.host)' },
      'X-Static': { operation: 'set', value: 'on' },
      'X-Old': { operation: 'remove' },
    } } },
    { action: 'rewrite', expression: 'starts_with(http.request.uri.path, "/old/")', action_parameters: { uri: {
      path: { expression: 'regex_replace(http.request.uri.path, "^/old/", "/new/")' }, query: { value: 'v=2' } } } },
    { action: 'block', expression: 'true' },
  ] });
  assert.ok(run.ok, run.ok ? '' : run.error);
  const requests: RequestRecord[] = [
    { 'ip.src': '1.2.3.4', 'http.host': 'example.com', 'http.request.uri.path': '/old/a' },
    { 'ip.src': '1.2.3.4', 'http.host': 'example.com', 'http.request.uri.path': '/' },
    { 'ip.src': '5.6.7.8', 'http.host': 'skip.example', 'http.request.uri.path': '/old/b' },
    { 'ip.src': '5.6.7.8', 'http.host': 'example.org', 'http.request.uri.path': '/old/c' },
    { 'ip.src': '9.9.9.9', 'http.host': 'example.org', 'http.request.uri.path': '/old/a' },
  ];
  requests.forEach((r, i) => run.take(r, i + 1));
  const [headers, uri, block] = run.rules;
  assert.equal(block.values, undefined, 'a rule that sets nothing has no values');
  assert.deepEqual(headers.values, [
    { name: 'X-Ctx', path: 'action_parameters.headers.X-Ctx.expression', operation: 'set', expression: 'concat("ip=", to_string(ip.src), ";host=", http.host)',
      examples: [{ line: 1, value: 'ip=1.2.3.4;host=example.com' }, { line: 2, value: 'ip=1.2.3.4;host=example.com' }, { line: 4, value: 'ip=5.6.7.8;host=example.org' }],
      distinct: 3 },
    { name: 'X-Static', path: 'action_parameters.headers.X-Static.value', operation: 'set', value: 'on', examples: [], distinct: 1 },
    { name: 'X-Old', path: 'action_parameters.headers.X-Old', operation: 'remove', examples: [], distinct: 0 },
  ]);
  assert.deepEqual(uri.values, [
    { name: 'URI path', path: 'action_parameters.uri.path.expression', expression: 'regex_replace(http.request.uri.path, "^/old/", "/new/")',
      examples: [{ line: 1, value: '/new/a' }, { line: 3, value: '/new/b' }, { line: 4, value: '/new/c' }], distinct: 3 },
    { name: 'URI query', path: 'action_parameters.uri.query.value', value: 'v=2', examples: [], distinct: 1 },
  ]);
});

test('compileRuleset: a value expression the evaluator cannot compute is named on its rule; the rules are still counted', () => {
  const run = compileRuleset({ rules: [{ action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-H': { operation: 'set', expression: 'sha256(http.host)' } } } }] });
  assert.ok(run.ok, run.ok ? '' : run.error);
  run.take({ 'http.host': 'a' }, 1);
  assert.equal(run.rules[0].matched, 1);
  const [h] = run.rules[0].values!;
  assert.match(h.error!, /sha256\(\) at 0 cannot be evaluated/);
  assert.deepEqual(h.examples, []);
});

test('compileRuleset: the distinct values of a value expression are counted within a bound (a large file keeps bounded memory)', () => {
  const run = compileRuleset({ rules: [{ action: 'redirect', expression: 'true', action_parameters: { from_value: { target_url: { expression: 'concat("https://example.com", http.request.uri.path)' } } } }] });
  assert.ok(run.ok, run.ok ? '' : run.error);
  for (let i = 0; i < 5000; i++) run.take({ 'http.request.uri.path': `/p${i}` }, i + 1);
  const [t] = run.rules[0].values!;
  assert.equal(t.name, 'target URL');
  assert.equal(t.examples.length, 3);
  assert.equal(t.distinctMore, true);
  assert.ok(t.distinct >= 100 && t.distinct < 5000, String(t.distinct));
  // A long value is cut in the examples, with the length it had
  const long = compileRuleset({ rules: [{ action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: 'http.request.uri.path' } } } }] });
  assert.ok(long.ok);
  long.take({ 'http.request.uri.path': `/${'a'.repeat(5000)}` }, 1);
  const v = long.rules[0].values![0].examples[0].value!;
  assert.ok(v.length < 1100 && v.endsWith('… (5001 characters)'), v.slice(-40));
});

test('compileRuleset: a value a later applied rule sets again is counted as overwritten on the earlier rule, by the later rule (fields are immutable within a phase, later rules win)', () => {
  const run = compileRuleset({ phase: 'http_request_transform', rules: [
    // 0: rewrites every /old/ path; 1: a narrower rewrite of the same place after it wins on /old/special
    { action: 'rewrite', expression: 'starts_with(http.request.uri.path, "/old/")', action_parameters: { uri: {
      path: { expression: 'regex_replace(http.request.uri.path, "^/old/", "/new/")' }, query: { value: 'v=1' } } } },
    { action: 'rewrite', expression: 'http.request.uri.path eq "/old/special"', action_parameters: { uri: { path: { value: '/special' } } } },
    // 2: a disabled rule sets nothing
    { action: 'rewrite', enabled: false, expression: 'true', action_parameters: { uri: { query: { value: 'v=3' } } } },
    // 3: sets the query of every request: it overwrites rule 0's query (the path, rule 1 set last, stays)
    { action: 'rewrite', expression: 'http.request.uri.path eq "/old/a"', action_parameters: { uri: { query: { expression: 'concat("v=", "4")' } } } },
  ] });
  assert.ok(run.ok, run.ok ? '' : run.error);
  // Each rule's expression reads the request as it came (the platform's fields are immutable within a phase): rule 1 still matches
  for (const [i, path] of ['/old/special', '/old/a', '/old/b', '/old/special', '/other'].entries()) run.take({ 'http.request.uri.path': path }, i + 1);
  const [r0, r1, r2, r3] = run.rules;
  const path0 = r0.values!.find((v) => v.name === 'URI path')!;
  const query0 = r0.values!.find((v) => v.name === 'URI query')!;
  assert.deepEqual(path0.overwritten, [{ by: 1, requests: 2 }]);
  assert.deepEqual(query0.overwritten, [{ by: 3, requests: 1 }], 'a disabled rule overwrites nothing');
  assert.equal(r1.values![0].overwritten, undefined);
  assert.equal(r2.values![0].overwritten, undefined);
  assert.equal(r3.values![0].overwritten, undefined);
});

test('compileRuleset: headers are overwritten by name whatever its case, by a later set or remove, not by a later add', () => {
  const run = compileRuleset({ phase: 'http_request_late_transform', rules: [
    { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-Ctx': { operation: 'set', value: 'a' }, 'X-Keep': { operation: 'set', value: 'k' } } } },
    { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'x-ctx': { operation: 'add', value: 'b' }, 'X-KEEP': { operation: 'remove' } } } },
    { action: 'rewrite', expression: 'ip.src eq 1.2.3.4', action_parameters: { headers: { 'x-CTX': { operation: 'set', expression: 'http.host' } } } },
    { action: 'block', expression: 'true' },
    { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-Ctx': { operation: 'set', value: 'never' } } } },
  ] });
  assert.ok(run.ok, run.ok ? '' : run.error);
  run.take({ 'ip.src': '1.2.3.4', 'http.host': 'h' }, 1);
  run.take({ 'ip.src': '5.6.7.8', 'http.host': 'h' }, 2);
  const [r0, r1, r2, , r4] = run.rules;
  const byName = (r: typeof r0, n: string) => r.values!.find((v) => v.name === n)!;
  // X-Ctx: set by 0, added to by 1 (not an overwrite), set again by 2 on the first request only
  assert.deepEqual(byName(r0, 'X-Ctx').overwritten, [{ by: 2, requests: 1 }]);
  assert.deepEqual(byName(r1, 'x-ctx').overwritten, [{ by: 2, requests: 1 }], 'what an add added is gone after a later set');
  assert.deepEqual(byName(r0, 'X-Keep').overwritten, [{ by: 1, requests: 2 }], 'a later remove overwrites');
  assert.equal(byName(r2, 'x-CTX').overwritten, undefined);
  // A rule after a terminating one applies to nothing: it overwrites nothing
  assert.equal(byName(r4, 'X-Ctx').overwritten, undefined);
});
