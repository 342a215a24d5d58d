// Rules-language expressions inside a rule besides its match expression (valueExpressions.ts): a header's value, a rewritten path or
// query, a redirect's target URL, a bulk redirect's list key, cache tags, exposed-credential expressions (values) and a rate limiting
// rule's counting expression (a condition). Each is checked with the same parser and checker, against the type its place needs,
// with its problems mapped into the JSON string; the editor features of the match expression work there too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS } from '../../../server/src/core/types';
import { rulesetPlugin } from '../../../server/src/core/rules/ruleset';
import { semanticTokens } from '../../../server/src/core/semanticTokens';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { MATCH_SITE } from '../../../server/src/core/rules/ruleset/valueExpressions';

function check(body: unknown) {
  const text = JSON.stringify(body, null, 2);
  const problems = validateText(text, 'waf-ruleset');
  return { text, problems, at: (code: string) => problems.filter((p) => p.code === code).map((p) => text.substr(p.offset, p.length)) };
}
const ruleset = (phase: string, ...rules: unknown[]) => ({ name: 'r', kind: 'zone', phase, rules });
const header = (expression: string, operation = 'set') => ({ action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-Ctx': { operation, expression } } } });

test('the changelog\'s header expression with a misspelt field: the field is reported, on its characters inside the JSON string', () => {
  // src/content/changelog/rules/2026-09-22-concat-argument-limit.mdx, with http.user_agent misspelt
  const expr = 'concat("ip=", to_string(ip.src), ";country=", ip.src.country, ";user-agent=", http.user_agnt)';
  const r = check(ruleset('http_request_late_transform', header(expr)));
  assert.deepEqual(r.problems.map((p) => [p.code, r.text.substr(p.offset, p.length)]), [['ruleset/expr-unknown-field', 'http.user_agnt']]);
  const fix = r.problems[0].fixes![0];
  assert.equal(fix.title, 'Change to "http.user_agent"');
  assert.equal(r.text.substr(fix.edits[0].offset, fix.edits[0].length), 'http.user_agnt');
  // The valid one gives nothing
  assert.deepEqual(check(ruleset('http_request_late_transform', header(expr.replace('agnt', 'agent')))).problems, []);
});

test('every place: URI path and query, header set and add, redirect target, list key, cache tags, credentials, counting expression', () => {
  const rw = (uri: unknown) => ({ action: 'rewrite', expression: 'true', action_parameters: { uri } });
  const cases: [unknown, string][] = [
    [ruleset('http_request_transform', rw({ path: { expression: 'concat("/a", http.request.uri.pth)' } })), 'http.request.uri.pth'],
    [ruleset('http_request_transform', rw({ query: { expression: 'remove_query_args(http.request.uri.qery, "a")' } })), 'http.request.uri.qery'],
    [ruleset('http_request_late_transform', header('lower(http.hots)')), 'http.hots'],
    [ruleset('http_response_headers_transform', header('lower(http.hots)', 'add')), 'http.hots'],
    [ruleset('http_request_dynamic_redirect', { action: 'redirect', expression: 'true', action_parameters: { from_value: { target_url: { expression: 'concat("https://", http.hots)' } } } }), 'http.hots'],
    [ruleset('http_request_redirect', { action: 'redirect', expression: 'http.request.full_uri in $l', action_parameters: { from_list: { name: 'l', key: 'http.request.full_url' } } }), 'http.request.full_url'],
    [ruleset('http_response_cache_settings', { action: 'set_cache_tags', expression: 'true', action_parameters: { operation: 'add', expression: 'split(http.response.headers["x"][0], ",", 1)[0]' } }), ''],
    [ruleset('http_request_firewall_custom', { action: 'block', expression: 'true', exposed_credential_check: { username_expression: 'url_decode(http.request.body.form["u"][0])', password_expression: 'http.hots' } }), 'http.hots'],
    [ruleset('http_ratelimit', { action: 'block', expression: 'true', ratelimit: { characteristics: ['ip.src'], period: 60, requests_per_period: 5, counting_expression: 'http.response.cod eq 401' } }), 'http.response.cod'],
  ];
  for (const [body, bad] of cases) {
    const r = check(body);
    if (bad) assert.deepEqual(r.at('ruleset/expr-unknown-field'), [bad], bad);
    else assert.deepEqual(r.at('ruleset/expr-type-mismatch'), ['split(http.response.headers[\\"x\\"][0], \\",\\", 1)[0]'], 'cache tags are an Array<String>');
  }
});

test('a value expression must give a value of its place\'s type: a condition, an Integer, an array are errors naming what is expected', () => {
  const cond = check(ruleset('http_request_late_transform', header('http.host eq "x"')));
  assert.deepEqual(cond.at('ruleset/expr-type-mismatch'), ['http.host eq \\"x\\"']);
  assert.match(cond.problems[0].message, /header value .* must be a String; .*condition/);
  assert.equal(cond.problems[0].severity, 'error');
  const int = check(ruleset('http_request_late_transform', header('cf.bot_management.score')));
  assert.deepEqual(int.at('ruleset/expr-value-conversion'), ['cf.bot_management.score'], 'a warning in a header value (the test below)');
  assert.match(int.problems[0].message, /is an Integer.*to_string/);
  const edits = int.problems[0].fixes![0].edits;
  let fixed = int.text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) fixed = fixed.slice(0, e.offset) + e.newText + fixed.slice(e.offset + e.length);
  assert.match(fixed, /"expression": "to_string\(cf\.bot_management\.score\)"/);
  assert.deepEqual(check(JSON.parse(fixed)).problems, []);
  const arr = check(ruleset('http_request_late_transform', header('http.request.headers["x"]')));
  assert.deepEqual(arr.at('ruleset/expr-type-mismatch'), ['http.request.headers[\\"x\\"]']);
  assert.match(arr.problems[0].message, /Array<String>.*\[0\]/);
  const path = check(ruleset('http_request_transform', { action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: 'ssl' } } } }));
  assert.match(path.problems[0].message, /URI path .* must be a String/);
  // A String literal, a Bytes value (uuidv4's seed is Bytes; the header gets its text) are values
  assert.deepEqual(check(ruleset('http_request_late_transform', header('"static"'))).problems, []);
  // Cache tags: an Array<String>
  const tags = (expression: string) => check(ruleset('http_response_cache_settings', { action: 'set_cache_tags', expression: 'true', action_parameters: { operation: 'set', expression } }));
  assert.deepEqual(tags('split(http.response.headers["cache-tag-ext"][0], ",", 1)').problems, [], 'terraform-provider-cloudflare TestAccCloudflareRuleset_SetCacheTagsRules/2.tf');
  assert.match(tags('http.host').problems[0].message, /cache tags .* must be an Array<String>/);
  // The match expression stays a condition
  assert.deepEqual(check(ruleset('http_request_late_transform', { ...header('"v"'), expression: 'http.host' })).at('ruleset/expr-type-mismatch'), ['http.host']);
});

test('rewrite-only functions and fields: fine in a rewrite expression, a warning in a match expression even in a transform phase', () => {
  for (const expr of ['to_string(ip.src)', 'ip.src.timezone.name', 'uuidv4(cf.random_seed)', 'regex_replace(http.request.uri.path, "^/a", "/b")']) {
    assert.deepEqual(check(ruleset('http_request_late_transform', header(expr))).problems, [], expr);
  }
  const r = check(ruleset('http_request_late_transform', { ...header('"v"'), expression: 'to_string(ip.src.asnum) eq "13335" and ip.src.timezone.name eq "Europe/Lisbon"' }));
  assert.deepEqual(r.at('ruleset/expr-rewrite-only'), ['to_string', 'ip.src.timezone.name']);
  assert.equal(r.problems[0].severity, 'warning');
  assert.match(r.problems[0].message, /to_string\(\) is available only in rewrite expressions/);
  // Outside the phases that have rewrite expressions, the phase check says it once (ruleset/expr-phase), not both
  const custom = check(ruleset('http_request_firewall_custom', { action: 'block', expression: 'to_string(ip.src.asnum) eq "1"' }));
  assert.deepEqual(custom.problems.map((p) => p.code), ['ruleset/expr-phase']);
  // analyzeExpression told the place: a rule's match expression; not told (the evaluator, the checker's own tests), no placement check
  assert.deepEqual(analyzeExpression('to_string(ip.src) eq "1"', 'http_request_transform', MATCH_SITE).problems.map((p) => p.code), ['ruleset/expr-rewrite-only']);
  assert.deepEqual(analyzeExpression('to_string(ip.src) eq "1"', 'http_request_transform').problems, []);
});

const BODY = JSON.stringify(ruleset('http_request_late_transform', header('concat("a\\"b", lower(http.host))')), null, 2);
const doc = parseDocument(BODY);
const at = (needle: string, delta = 0) => { const i = BODY.indexOf(needle); assert.ok(i >= 0, needle); return i + delta; };

test('hover, completion, signature help, selection ranges and semantic tokens work inside a header\'s value expression', () => {
  const h = rulesetPlugin.hover!(doc, at('http.host', 2), DEFAULT_OPTIONS)!;
  assert.match(h.markdown, /\*\*http\.host\*\*: `String`/);
  assert.equal(BODY.substr(h.offset, h.length), 'http.host');
  const c = rulesetPlugin.complete!(doc, at('http.host', 6), DEFAULT_OPTIONS);
  assert.ok(c.some((e) => e.label === 'http.host'));
  const s = rulesetPlugin.signatureHelp!(doc, at('http.host'), DEFAULT_OPTIONS)!;
  assert.match(s.label, /^lower\(/);
  const spans = rulesetPlugin.selectionRanges!(doc, at('http.host', 1)).map((x) => BODY.substr(x.offset, x.length));
  assert.deepEqual([...new Set(spans)].slice(0, 3), ['http.host', 'lower(http.host)', JSON.stringify('concat("a\\"b", lower(http.host))').slice(1, -1)]);
  const tokens = semanticTokens('waf-ruleset', doc).map((t) => [BODY.substr(t.offset, t.length), t.type]);
  assert.ok(tokens.some(([text, type]) => text === 'concat' && type === 'function'));
  // A bulk redirect's list key has no "expression" in its name: its tokens come from the same table
  const key = JSON.stringify(ruleset('http_request_redirect', { action: 'redirect', expression: 'true', action_parameters: { from_list: { name: 'l', key: 'http.request.full_uri' } } }));
  const kd = parseDocument(key);
  assert.ok(semanticTokens('waf-ruleset', kd).some((t) => key.substr(t.offset, t.length) === 'http.request.full_uri'));
  assert.match(rulesetPlugin.hover!(kd, key.indexOf('http.request.full_uri') + 3, DEFAULT_OPTIONS)!.markdown, /full_uri/);
});

test('completion after an operand of a value expression offers no comparison (that would make it a condition); in a match expression it does', () => {
  const text = JSON.stringify(ruleset('http_request_late_transform', { ...header('http.host '), expression: 'http.host ' }));
  const d = parseDocument(text);
  const labels = (needle: string) => rulesetPlugin.complete!(d, text.indexOf(needle) + needle.length, DEFAULT_OPTIONS).map((c) => c.label);
  assert.ok(labels('"rewrite","expression":"http.host ').includes('eq'), 'the match expression');
  assert.deepEqual(labels('"set","expression":"http.host '), [], 'the header value');
});

test('a header value that is an Integer or Boolean field is a warning with the to_string() fix, an IP nothing: the Rulesets API\'s own example sets "ip.src"', () => {
  // The API's OpenAPI example of a dynamic header and working client code set "expression": "ip.src" with no to_string(): the
  // platform takes it (no problem at all, review7); an Integer or Boolean likely converts the same way, but nothing shows it: a warning
  assert.deepEqual(check(ruleset('http_request_late_transform', header('ip.src'))).problems, []);
  for (const field of ['cf.bot_management.score', 'ssl']) {
    const r = check(ruleset('http_request_late_transform', header(field)));
    assert.deepEqual(r.problems.map((p) => [p.code, p.severity, r.text.substr(p.offset, p.length)]), [['ruleset/expr-value-conversion', 'warning', field]], field);
    assert.match(r.problems[0].message, /header value \(X-Ctx\) is (an Integer|a Boolean) \(field "[^"]+"\).*to_string\(\)/);
    assert.equal(r.problems[0].fixes?.[0]?.title, 'Convert with to_string(...)');
  }
  // Elsewhere (a URI path, a redirect target) it stays an error
  const path = check(ruleset('http_request_transform', { action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: 'ip.src' } } } }));
  // (and ip.src is no field a URL rewrite reads, a warning of its own)
  assert.deepEqual(path.problems.map((p) => [p.code, p.severity]), [['ruleset/expr-type-mismatch', 'error'], ['ruleset/url-rewrite-expression', 'warning']]);
});

test('"value" and "expression" both given for one header, path, query or target: a warning on "value" (the docs: include one of them)', () => {
  // rules/transform/request-header-modification/reference/parameters: "Include one of the following parameters to define a static
  // or dynamic value: value ... expression"; the API's schema has one branch with value and one with expression (oneOf)
  const both = check(ruleset('http_request_late_transform', { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-Ctx': { operation: 'set', value: 'a', expression: 'http.host' } } } }));
  assert.deepEqual(both.problems.map((p) => [p.code, p.severity, both.text.substr(p.offset, p.length)]), [['ruleset/value-and-expression', 'warning', '"value"']]);
  assert.equal(both.problems[0].message, 'The header value (X-Ctx) has both "value" and "expression"; the platform takes one of them: "value" for a static text, "expression" for a computed one.');
  const uri = check(ruleset('http_request_transform', { action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { value: '/a', expression: 'http.request.uri.path' } } } }));
  assert.deepEqual(uri.problems.map((p) => p.code), ['ruleset/value-and-expression']);
  const target = check(ruleset('http_request_dynamic_redirect', { action: 'redirect', expression: 'true', action_parameters: { from_value: { target_url: { value: 'https://a', expression: 'concat("https://", http.host)' } } } }));
  assert.deepEqual(target.problems.map((p) => p.code), ['ruleset/value-and-expression']);
  // One of them: nothing
  assert.deepEqual(check(ruleset('http_request_late_transform', header('http.host'))).problems, []);
});

test('exposed-credential expressions: only upper(), lower(), url_decode() and lookup_json_string(), not nested, at most 1024 characters', () => {
  // waf/managed-rules/check-for-exposed-credentials/configure-api: "Each expression must evaluate to a string. You can only use the
  // upper(), lower(), url_decode(), and lookup_json_string() functions, and you cannot nest these functions"; "This property can
  // have up to 1024 characters"
  const cred = (username_expression: string, password_expression = 'url_decode(http.request.body.form["password"][0])') =>
    check(ruleset('http_request_firewall_custom', { action: 'log', expression: 'http.request.method eq "POST"', exposed_credential_check: { username_expression, password_expression } }));
  assert.deepEqual(cred('url_decode(http.request.body.form["username"][0])').problems, []);
  assert.deepEqual(cred('lookup_json_string(http.request.body.raw, "user")').problems, []);
  const other = cred('concat(http.request.body.form["u"][0], "x")');
  assert.deepEqual(other.problems.map((p) => [p.code, other.text.substr(p.offset, p.length)]), [['ruleset/credential-expression', 'concat']]);
  assert.match(other.problems[0].message, /user name expression.* only upper\(\), lower\(\), url_decode\(\) and lookup_json_string\(\)/);
  const nested = cred('lower(url_decode(http.request.body.form["u"][0]))');
  assert.deepEqual(nested.problems.map((p) => [p.code, nested.text.substr(p.offset, p.length)]), [['ruleset/credential-expression', 'url_decode']]);
  assert.match(nested.problems[0].message, /cannot nest/);
  const longSrc = `lookup_json_string(http.request.body.raw, "${'u'.repeat(1000)}")`;
  const long = cred(longSrc);
  assert.deepEqual(long.problems.map((p) => p.code), ['ruleset/credential-expression']);
  assert.match(long.problems[0].message, new RegExp(`${longSrc.length} characters long; .* at most 1024`));
  // The match expression of the same rule may use any function
  assert.deepEqual(check(ruleset('http_request_firewall_custom', { action: 'log', expression: 'concat(http.host, "a") eq "b"', exposed_credential_check: { username_expression: 'http.host', password_expression: 'http.host' } })).problems, []);
});

test('a URL rewrite\'s expression: a field outside the reference\'s list, or concat()/regex_replace()/wildcard_replace() twice, is a warning', () => {
  // rules/transform/url-rewrite/reference/fields-functions.mdx: a rewrite expression "can only include" http.request.uri.*,
  // http.request.headers.* and http.request.accepted_languages, and concat(), regex_replace() and wildcard_replace() "can appear only
  // once". Header values are not bound by that list (the changelog's header example uses ip.src).
  const rw = (uri: unknown) => ruleset('http_request_transform', { action: 'rewrite', expression: 'true', action_parameters: { uri } });
  const fine = check(rw({ path: { expression: 'concat("/", lower(http.request.headers["x-lang"][0]), http.request.uri.path)' }, query: { expression: 'concat("lang=", http.request.accepted_languages[0])' } }));
  assert.deepEqual(fine.problems, []);
  const field = check(rw({ path: { expression: 'concat("/", ip.src.country, http.request.uri.path)' } }));
  assert.deepEqual(field.at('ruleset/url-rewrite-expression'), ['ip.src.country']);
  assert.match(field.problems.find((p) => p.code === 'ruleset/url-rewrite-expression')!.message,
    /^Field "ip\.src\.country" is not one a URI path rewrite can read: the URL rewrite reference lists http\.request\.uri\.\*, http\.request\.headers\.\* and http\.request\.accepted_languages\.$/);
  assert.equal(field.problems.find((p) => p.code === 'ruleset/url-rewrite-expression')!.severity, 'warning');
  const twice = check(rw({ path: { expression: 'concat("/a", concat("/b", http.request.uri.path))' } }));
  assert.deepEqual(twice.at('ruleset/url-rewrite-expression'), ['concat']);
  assert.match(twice.problems.find((p) => p.code === 'ruleset/url-rewrite-expression')!.message, /concat\(\) appears 2 times in this URI path rewrite; the URL rewrite reference allows it once\./);
  // A header value may read other fields.
  assert.deepEqual(check(ruleset('http_request_late_transform', header('concat("c=", ip.src.country)'))).at('ruleset/url-rewrite-expression'), []);
});
