// Every rate limiting rule of cloudflare/cloudflare-docs' pages on rate limiting (waf/rate-limiting-rules/ and
// waf/account/rate-limiting-rulesets/), as the API body it stands for, run through the checker: a documented rule gives no problem
// but the ones listed (each with why). The dashboard tables of best-practices.mdx and use-cases.mdx are written as the rule the
// dashboard makes (cf.colo.id added, "included by default in the dashboard, but not shown"; "Block for 1 day" a mitigation_timeout of 86400).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';

const zone = (...rules: unknown[]) => ({ name: 'zone', kind: 'zone', phase: 'http_ratelimit', rules });
const CREATE = 'src/content/docs/waf/rate-limiting-rules/create-api.mdx @ 0309c8bed23afe438f28fd5026b5a7999e653081';
const ACCOUNT = 'src/content/docs/waf/account/rate-limiting-rulesets/create-api.mdx @ 10ead741745aedc8c2f1f1262796e7fa132139ef';
const BEST = 'src/content/docs/waf/rate-limiting-rules/best-practices.mdx @ 024afd5b8bf6f763202437a65398d007910996f0';
const CASES = 'src/content/docs/waf/rate-limiting-rules/use-cases.mdx @ 0309c8bed23afe438f28fd5026b5a7999e653081';
const RATE = 'src/content/docs/waf/rate-limiting-rules/request-rate.mdx @ 04bf3f55846cd47b3e20abde749b7c3184ca4943';

const API_KEY = { characteristics: ['cf.colo.id', 'ip.src', 'http.request.headers["x-api-key"]'], period: 60, requests_per_period: 100, mitigation_timeout: 600 };
/** A dashboard rule of the tables: its expression, characteristics (cf.colo.id added), requests, period, action, counting expression. */
const table = (expression: string, characteristics: string[], requests: number, period: number, action: string, counting?: string) => ({
  description: 'table', expression, action,
  ratelimit: { characteristics: ['cf.colo.id', ...characteristics], period, requests_per_period: requests, mitigation_timeout: action === 'block' ? 600 : 0,
    ...(counting === undefined ? {} : { counting_expression: counting }) },
});
const LOGIN = 'http.request.uri.path eq "/login" and http.request.method eq "POST" and http.response.code in {401 403}';
const MERCHANT_JSON = 'http.request.uri.path eq "/merchant" and lookup_json_string(http.request.body.raw, "action") eq "lookup_price"';

/** [source, body, the problems expected ("code text")]. */
const EXAMPLES: [string, unknown, string[]][] = [
  [`${CREATE}, Example A`, zone({ description: 'My rate limiting rule', expression: '(http.request.uri.path matches "^/api/")', action: 'block', ratelimit: API_KEY }), []],
  [`${CREATE}, Example B`, zone({ description: 'My rate limiting rule', expression: '(http.request.uri.path matches "^/api/")', action: 'block',
    action_parameters: { response: { status_code: 403, content: 'You have been rate limited.', content_type: 'text/plain' } }, ratelimit: API_KEY }), []],
  [`${CREATE}, Example C`, zone({ description: 'My rate limiting rule', expression: '(http.request.uri.path matches "^/api/")', action: 'block',
    ratelimit: { ...API_KEY, requests_to_origin: true } }), []],
  [`${CREATE}, Example D`, zone({ description: 'My complexity-based rate limiting rule', expression: '(http.request.uri.path wildcard "/graphql/*")', action: 'block',
    ratelimit: { characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], score_response_header_name: 'my-score', score_per_period: 400, period: 60, mitigation_timeout: 600, counting_expression: '' } }), []],
  [`${ACCOUNT}, 1. Create a rate limiting ruleset`, { description: '', kind: 'custom', name: 'My rate limiting ruleset', phase: 'http_ratelimit', rules: [{
    description: 'Rate limit API requests', expression: '(starts_with(http.request.uri.path, "/my-api/"))',
    ratelimit: { characteristics: ['ip.src', 'cf.colo.id'], requests_to_origin: false, requests_per_period: 30, period: 60, mitigation_timeout: 120 },
    action: 'block', action_parameters: { response: { status_code: 429, content_type: 'application/json', content: '{ "error": "Your API requests have been rate limited. Wait a couple of minutes and try again." }' } },
    enabled: true }] }, []],
  [`${ACCOUNT}, 2. Deploy the rate limiting ruleset (step 3)`, { description: '', kind: 'root', name: 'Account-level phase entry point', phase: 'http_ratelimit',
    rules: [{ action: 'execute', expression: '(cf.zone.plan eq "ENT")', action_parameters: { id: '2b7c0c1d9a0e4f6c8d3e5f7a9b1c3d5e' } }] }, []],
  [`${CASES}, Examples 1-4`, zone(
    table('(http.request.uri.path eq "/login" and ip.src.country eq "US" and ip.src ne 192.0.0.1)', ['ip.src'], 10, 60, 'block'),
    table('(http.request.uri.path contains "/product" and http.request.method eq "POST")', ['ip.src', 'http.request.headers["x-api-key"]'], 10, 60, 'block'),
    table('(http.request.uri.path eq "/store" or http.request.uri.path eq "/prices") and (http.host eq "mystore1.com" or http.host eq "mystore2.com") and not cf.client.bot',
      ['ip.src', 'http.request.headers["user-agent"]'], 10, 60, 'block'),
    { description: 'Example 4', expression: '(http.request.uri.path wildcard "/graphql/*")', action: 'block',
      ratelimit: { characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], score_per_period: 400, period: 60, score_response_header_name: 'my-score', mitigation_timeout: 600 } }), []],
  [`${RATE}, Examples A and B`, zone(
    table('http.request.uri.path eq "/form" and any(http.request.headers["content-type"][*] eq "application/x-www-form-urlencoded")', ['ip.src', 'http.request.headers["x-api-key"]'], 1, 10, 'block'),
    table('http.request.uri.path eq "/form"', ['ip.src', 'http.request.headers["x-api-key"]'], 1, 10, 'block', 'http.request.uri.path eq "/form" and http.response.code eq 400')), []],
  [`${BEST}, granular access control`, zone(
    table('http.user_agent eq "MobileApp"', ['ip.src'], 100, 600, 'managed_challenge'),
    table('http.request.uri.path eq "/status" and http.request.method eq "GET" and not ip.src in $partner_ips', ['ip.src'], 10, 60, 'managed_challenge'),
    table('http.request.uri.path eq "/status" and http.request.method eq "GET"', ['http.request.headers["referer"]'], 100, 600, 'block'),
    table('http.request.uri.path eq "/login" and http.request.method eq "GET"', ['ip.src', 'http.host'], 10, 600, 'block')), []],
  [`${BEST}, credential stuffing`, zone(
    table('http.host eq "example.com" and http.request.uri.path eq "/login" and http.request.method eq "POST"', ['ip.src'], 4, 60, 'managed_challenge', LOGIN),
    table('http.host eq "example.com" and http.request.uri.path eq "/login" and http.request.method eq "POST"', ['ip.src'], 10, 600, 'managed_challenge', LOGIN),
    { ...table('http.host eq "example.com"', ['ip.src'], 20, 3600, 'block', LOGIN), ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 3600, requests_per_period: 20, mitigation_timeout: 86400, counting_expression: LOGIN } }), []],
  [`${BEST}, content scraping`, zone(
    table('http.request.uri.path eq "/merchant" and http.request.uri.query contains "action=lookup_price"', ['ip.src'], 10, 120, 'managed_challenge'),
    table('http.request.uri.path eq "/merchant" and http.request.uri.query contains "action=lookup_price"', ['ip.src'], 20, 300, 'block'),
    table('http.request.uri.path eq "/merchant"', ['http.request.uri.args["product_id"]'], 50, 10, 'block'),
    table(MERCHANT_JSON, ['http.request.cookies["session_id"]'], 10, 120, 'managed_challenge'),
    table(MERCHANT_JSON, ['lookup_json_integer(http.request.body.raw, "product_id")'], 50, 10, 'block')), []],
  // "5 requests / 3 minutes": 180 seconds is no period of the API ("10, 60, 120, 300, 600, or 3600", parameters.mdx), so the table's
  // rule is written with 120 here
  [`${BEST}, bots`, zone(
    table('http.host eq "example.com"', ['ip.src'], 5, 120, 'managed_challenge', 'http.response.code in {401 403}'),
    table('cf.bot_management.score lt 30 and http.request.uri.query contains "action=delete"', ['http.request.cookies["session_id"]'], 10, 60, 'managed_challenge'),
    table('cf.bot_management.score lt 10 and http.request.uri.query contains "action=delete"', ['http.request.cookies["session_id"]'], 20, 300, 'block'),
    table('http.request.uri.path eq "/merchant" and cf.bot_management.score lt 10', ['cf.bot_management.ja3_hash'], 10, 60, 'managed_challenge')), []],
  [`${BEST}, REST and GraphQL APIs`, zone(
    table('http.request.uri.path eq "/endpoint1" and http.request.method eq "POST"', ['http.request.headers["x-api-key"]'], 100, 60, 'block'),
    table('http.host eq "api.example.com" and http.request.method eq "GET"', ['http.request.uri.path'], 10, 600, 'block'),
    table('http.host eq "api.example.com" and http.request.method eq "GET"', ['http.request.uri.path', 'http.request.headers["x-api-key"]'], 10, 600, 'block'),
    table('http.request.uri.path eq "/graphql" and http.request.body.raw contains "createReview"', ['http.request.cookies["session_id"]'], 5, 3600, 'block'),
    { description: 'complexity', expression: 'http.request.uri.path eq "/graphql"', action: 'block',
      ratelimit: { characteristics: ['cf.colo.id', 'http.request.cookies["session_id"]'], score_per_period: 1000, period: 3600, score_response_header_name: 'score', mitigation_timeout: 600 } }), []],
];

test('the documented rate limiting rules give no problem but the ones listed', () => {
  for (const [source, body, expected] of EXAMPLES) {
    const text = JSON.stringify(body, null, 2);
    const problems = validateText(text, 'waf-ruleset');
    assert.deepEqual(problems.map((p) => `${p.code} ${text.substr(p.offset, p.length)}: ${p.message}`), expected, source);
  }
});
