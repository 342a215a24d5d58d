// Every example of a value expression (and a counting expression) in cloudflare/cloudflare-docs that the review of 2026-11-26 found,
// run through the checker in its place and phase: a documented example must give no error, and no warning but the ones listed
// (each with why). File and commit of each are cited.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';

const zone = (phase: string, rule: unknown) => ({ name: 'r', kind: 'zone', phase, rules: [rule] });
const custom = (phase: string, rule: unknown) => ({ name: 'r', kind: 'custom', phase, rules: [rule] });
const path = (expression: string) => ({ uri: { path: { expression } } });
const redirect = (expression: string) => ({ from_value: { target_url: { expression }, status_code: 301 } });

/** [source (file @ commit), body, the warnings expected ("code text")]. */
const EXAMPLES: [string, unknown, string[]][] = [
  ['src/content/docs/rules/transform/url-rewrite/create-api.mdx @ 0309c8bed23afe438f28fd5026b5a7999e653081',
    zone('http_request_transform', { action: 'rewrite', expression: 'starts_with(http.request.uri.path, "/news/2012/")', action_parameters: path('concat("/archive", http.request.uri.path)') }), []],
  ['src/content/docs/rules/transform/examples/normalize-encoded-slash.mdx @ 2d69c5bc7cefebad012ec7186a299766df06e2e8',
    zone('http_request_transform', { action: 'rewrite', expression: '(lower(raw.http.request.full_uri) wildcard "*%2f*")', action_parameters: path('url_decode(http.request.uri.path)') }), []],
  ['src/content/docs/rules/transform/examples/rewrite-archive-urls-new-format.mdx @ 12de1227975eac9771b64f665d6fdf9a655a50ff',
    zone('http_request_transform', { action: 'rewrite', expression: 'http.request.uri.path ~ "^/posts/[0-9]+-[0-9]+-[0-9]+-.*"',
      action_parameters: path('regex_replace(http.request.uri.path, "^/posts/([0-9]+)-([0-9]+)-([0-9]+)-(.*)$", "/posts/${1}/${2}/${3}/${4}")') }), []],
  ['src/content/docs/rules/transform/request-header-modification/create-api.mdx @ 30171c0782273b2ed4210e0e31f37291b5e49ce7',
    zone('http_request_late_transform', { action: 'rewrite', expression: '(starts_with(http.request.uri.path, "/en/"))',
      action_parameters: { headers: { 'X-Bot-Score': { operation: 'set', expression: 'to_string(cf.bot_management.score)' } } } }), []],
  ['src/content/docs/rules/transform/response-header-modification/create-api.mdx @ 067fce3be998b96e9f8d27c6da07ed16ad6f1c29',
    zone('http_response_headers_transform', { action: 'rewrite', expression: '(starts_with(http.request.uri.path, "/en/"))',
      action_parameters: { headers: { 'X-Bot-Score': { operation: 'set', expression: 'to_string(cf.bot_management.score)' } } } }), []],
  // ip.geoip.country is deprecated for ip.src.country (fields reference): the warning is right
  ['src/content/docs/rules/url-forwarding/single-redirects/create-api.mdx @ 2d0023da2ec67cee0733140758ab71001ac4a3d3',
    zone('http_request_dynamic_redirect', { action: 'redirect', expression: '(ip.geoip.country eq "GB" or ip.geoip.country eq "FR") and http.request.uri.path eq "/"',
      action_parameters: { from_value: { target_url: { expression: 'lower(concat("https://", ip.geoip.country, ".example.com"))' }, status_code: 307, preserve_query_string: true } } }),
    ['ruleset/expr-deprecated-field ip.geoip.country', 'ruleset/expr-deprecated-field ip.geoip.country', 'ruleset/expr-deprecated-field ip.geoip.country']],
  ['src/content/docs/rules/url-forwarding/examples/redirect-country-subdomains.mdx @ 0309c8bed23afe438f28fd5026b5a7999e653081',
    zone('http_request_dynamic_redirect', { action: 'redirect', expression: '(ip.src.country eq "GB" or ip.src.country eq "FR") and http.request.uri.path eq "/"',
      action_parameters: redirect('lower(concat("https://", ip.src.country, ".example.com"))') }), []],
  ['src/content/docs/rules/url-forwarding/examples/remove-locale-url.mdx @ 41b60846207af546363954c5852e973e26bdd497',
    zone('http_request_dynamic_redirect', { action: 'redirect', expression: 'http.request.uri.path matches "^/[A-Za-z]{2}-[A-Za-z]{2}/"',
      action_parameters: redirect('regex_replace(http.request.uri.path, "^/[A-Za-z]{2}-[A-Za-z]{2}/(.*)", "/${1}")') }), []],
  // The dashboard's wildcard pattern "http*://example.com/*" -> "https://example.net/${2}", written as the expression it stands for
  ['src/content/docs/rules/url-forwarding/examples/redirect-all-another-domain.mdx @ 16f74c06697c757c59ec6a7aa7ba1719110da367',
    zone('http_request_dynamic_redirect', { action: 'redirect', expression: 'http.request.full_uri wildcard r"http*://example.com/*"',
      action_parameters: redirect('wildcard_replace(http.request.full_uri, r"http*://example.com/*", r"https://example.net/${2}")') }), []],
  // The example writes ["Surrogate-Keys"]; the fields reference gives http.response.headers lower-case keys, so the warning stands
  ['cache/how-to/cache-response-rules/create-api (developers.cloudflare.com, stored page id 59840469329, "Last updated Apr 16, 2026")',
    zone('http_response_cache_settings', { action: 'set_cache_tags', expression: 'any(http.response.headers.names[*] == "Surrogate-Keys")',
      action_parameters: { operation: 'add', expression: 'split(http.response.headers["Surrogate-Keys"][0], ",", 1)' } }), ['ruleset/expr-header-case [\\"Surrogate-Keys\\"]']],
  ['waf/managed-rules/check-for-exposed-credentials/configure-api, Example A (developers.cloudflare.com, stored page id 1866063555)',
    custom('http_request_firewall_custom', { action: 'log', expression: 'http.request.method == "POST" && http.request.uri == "/login.php"',
      exposed_credential_check: { username_expression: 'url_decode(http.request.body.form["username"][0])', password_expression: 'url_decode(http.request.body.form["password"][0])' } }), []],
  ['waf/managed-rules/check-for-exposed-credentials/configure-api, Example B (developers.cloudflare.com, stored page id 1866063555)',
    custom('http_request_firewall_custom', { action: 'rewrite', expression: 'http.request.method == "POST" && http.request.uri == "/login.php" && any(http.request.headers["content-type"][*] == "application/json")',
      action_parameters: { headers: { 'Exposed-Credential-Check': { operation: 'set', value: '1' } } },
      exposed_credential_check: { username_expression: 'lookup_json_string(http.request.body.raw, "username")', password_expression: 'lookup_json_string(http.request.body.raw, "password")' } }), []],
  // "counting_expression is an empty string": the rule's expression counts (parameters.mdx: "This default is also applied when you
  // set this field to an empty string")
  ['src/content/docs/waf/rate-limiting-rules/create-api.mdx @ 0309c8bed23afe438f28fd5026b5a7999e653081, Example D',
    zone('http_ratelimit', { action: 'block', expression: '(http.request.uri.path wildcard "/graphql/*")',
      ratelimit: { characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], score_response_header_name: 'my-score', score_per_period: 400, period: 60, mitigation_timeout: 600, counting_expression: '' } }), []],
  // "The counting expression can include HTTP response fields ... the counting will happen after the response is sent"
  ['src/content/docs/waf/rate-limiting-rules/parameters.mdx @ 12dd7ce4e625b68c9ce511a256bdcda70fbc3f6c, "Increment counter when"',
    zone('http_ratelimit', { action: 'block', expression: 'starts_with(http.request.uri.path, "/api/")',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600, counting_expression: 'http.response.code eq 403 and starts_with(http.request.uri.path, "/api/")' } }), []],
];

test('the documented examples of value and counting expressions give no error and only the warnings listed', () => {
  for (const [source, body, warnings] of EXAMPLES) {
    const text = JSON.stringify(body, null, 2);
    const problems = validateText(text, 'waf-ruleset');
    assert.deepEqual(problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.message}`), [], source);
    assert.deepEqual(problems.map((p) => `${p.code} ${text.substr(p.offset, p.length)}`), warnings, source);
  }
});

test('a counting expression reads response fields (http.response.*) without the phase warning; the match expression still has it', () => {
  const counting = (c: string) => zone('http_ratelimit', { action: 'block', expression: 'http.response.code eq 401',
    ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600, counting_expression: c } });
  const text = JSON.stringify(counting('any(http.response.headers["x-login-failed"][*] == "1") or http.response.code in {401 403}'));
  const problems = validateText(text, 'waf-ruleset');
  assert.deepEqual(problems.map((p) => `${p.code} ${text.substr(p.offset, p.length)}`), ['ruleset/expr-phase http.response.code'], 'only the match expression\'s');
  assert.ok(problems[0].offset < text.indexOf('counting_expression'));
});

test('an IP field as a header value is no problem (the Rulesets API\'s example for a dynamic header is "ip.src"); an Integer is a warning', () => {
  // The Rulesets API's OpenAPI example (docs/architecture.md, "Value expressions inside a rule"), and CoPoKo Space's "Ruleset KV",
  // which creates { "X-RKV-IP": { "operation": "set", "expression": "ip.src" } } through the API and reads the rule back
  const header = (expression: string) => zone('http_request_late_transform', { action: 'rewrite', expression: 'true',
    action_parameters: { headers: { 'X-Client-Ip': { operation: 'set', expression } } } });
  for (const e of ['ip.src', 'cf.edge.server_ip']) assert.deepEqual(validateText(JSON.stringify(header(e)), 'waf-ruleset'), [], e);
  assert.deepEqual(validateText(JSON.stringify(header('cf.bot_management.score')), 'waf-ruleset').map((p) => p.code), ['ruleset/expr-value-conversion']);
  // Elsewhere a String is wanted as before: a redirect target
  const target = zone('http_request_dynamic_redirect', { action: 'redirect', expression: 'true', action_parameters: redirect('ip.src') });
  assert.deepEqual(validateText(JSON.stringify(target), 'waf-ruleset').map((p) => p.code), ['ruleset/expr-type-mismatch']);
});

test('an empty value expression says a value is wanted there, not the match expression\'s "use true"', () => {
  const header = (expression: string) => JSON.stringify(zone('http_request_late_transform', { action: 'rewrite', expression: 'true',
    action_parameters: { headers: { 'X-A': { operation: 'set', expression } } } }));
  for (const e of ['', '  ']) {
    const syntax = validateText(header(e), 'waf-ruleset').filter((p) => p.code === 'ruleset/expr-syntax');
    assert.equal(syntax.length, 1, JSON.stringify(e));
    assert.equal(syntax[0].message, 'The header value (X-A) is empty; write its value, e.g. a field, a string or concat(...).');
  }
  // The match expression keeps its own advice
  const match = validateText(JSON.stringify(zone('http_request_late_transform', { action: 'rewrite', expression: ' ' })), 'waf-ruleset');
  assert.ok(match.some((p) => p.message === 'The expression is empty; use "true" to match all requests.'));
});
