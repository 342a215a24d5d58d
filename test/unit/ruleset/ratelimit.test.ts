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

test('a header name with capitals is a warning (the expression checker\'s, once) with the lower-case name as its fix', () => {
  const r = check(['cf.colo.id', 'http.request.headers["X-Api-Key"]']);
  assert.deepEqual(r.at, [['ruleset/expr-header-case', 'warning', '[\\"X-Api-Key\\"]']]);
  let out = r.text;
  for (const e of [...r.problems[0].fixes![0].edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  assert.deepEqual(JSON.parse(out).rules[0].ratelimit.characteristics, ['cf.colo.id', 'http.request.headers["x-api-key"]']);
});

// ---- the whole ratelimit object (issue-less: the schema had it as any object) and the characteristics as expressions

function rl(ratelimit: unknown, rule: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
  const doc = { name: 'r', kind: 'zone', phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'true', ratelimit, ...rule }], ...body };
  const text = JSON.stringify(doc, null, 2);
  const problems = validateText(text, 'waf-ruleset');
  return { text, problems, at: problems.map((p) => [p.code, text.substr(p.offset, p.length)]) };
}
const BASE = { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 600 };

test('every characteristic of the parameters page passes, the "Custom" expressions too', () => {
  const documented = ['ip.src', 'cf.unique_visitor_id', 'http.request.headers["x-api-key"]', 'http.request.cookies["session"]',
    'http.request.uri.args["page"]', 'http.host', 'http.request.uri.path', 'ip.src.asnum', 'ip.src.country', 'cf.bot_management.ja3_hash',
    'cf.bot_management.ja4', 'lookup_json_string(http.request.body.raw, "user")', 'lookup_json_integer(http.request.body.raw, "id")',
    'http.request.body.form["user"]', 'lookup_json_string( http.request.jwt.claims["3a3b2f8a-9a0c-4b7e-8b8a-0e4f2c6d1a2b"][0], "sub")',
    'http.request.body.raw', 'http.request.body.size', 'lower(http.request.uri.path)', 'substring(http.request.uri.path, 0, 8)'];
  for (const c of documented) {
    const chars = c === 'cf.unique_visitor_id' ? ['cf.colo.id', c] : ['cf.colo.id', c];
    assert.deepEqual(rl({ ...BASE, characteristics: chars }).at, [], c);
  }
});

test('a characteristic is checked as an expression: a misspelt field, a syntax error, an unknown function, each at its string', () => {
  const r = rl({ ...BASE, characteristics: ['cf.colo.id', 'ip.scr', 'lookup_json_string(http.request.body.raw, "user"', 'lowr(http.host)'] });
  assert.deepEqual(r.at.map((a) => a[0]), ['ruleset/expr-unknown-field', 'ruleset/expr-syntax', 'ruleset/expr-unknown-function']);
  assert.equal(r.at[0][1], 'ip.scr');
  assert.match(r.problems[0].message, /ip\.src/);
  assert.equal(r.at[2][1], 'lowr');
});

// rl10 left: a characteristic takes a value of any type, so a condition passed as a Boolean ("not ssl"). The page's characteristics
// are values to count by (fields, function values, "Custom ... a function such as substring() or lower()"), never conditions.
test('a characteristic that is a condition ("not ssl", a comparison, a Boolean call) is an error at it, naming it, where, and the page\'s characteristics', () => {
  for (const c of ['not ssl', '!ssl', 'ip.src eq 192.0.2.1', 'ssl and http.host eq "a"', 'starts_with(http.host, "a")', '(not ssl)']) {
    const r = rl({ ...BASE, characteristics: ['cf.colo.id', 'ip.src', c] });
    assert.deepEqual(r.at, [['ruleset/ratelimit-characteristics', JSON.stringify(c).slice(1, -1)]], c);
    assert.equal(r.problems[0].severity, 'error');
    assert.ok(r.problems[0].message.includes(`"${c}"`), r.problems[0].message);
    assert.match(r.problems[0].message, /rule 0's characteristics\[2\].*condition.*cf\.colo\.id, ip\.src, cf\.unique_visitor_id, http\.request\.headers\["<name>"\]/);
    assert.match(r.problems[0].message, /lower\(\.\.\.\)/);
  }
  // Values stay: a Boolean field is a value (true or false), as in a header value; so are a call's value and the "Custom" ones
  for (const c of ['ssl', 'lower(http.host)', 'lookup_json_integer(http.request.body.raw, "id")', 'len(http.request.uri.path)']) {
    assert.deepEqual(rl({ ...BASE, characteristics: ['cf.colo.id', c] }).at, [], c);
  }
});

test('cf.colo.id and cf.unique_visitor_id in an expression are named as characteristics, not fields', () => {
  for (const name of ['cf.colo.id', 'cf.unique_visitor_id']) {
    const r = rl(BASE, { expression: `${name} eq 10` });
    assert.deepEqual(r.at, [['ruleset/expr-unknown-field', name]], name);
    assert.match(r.problems[0].message, /rate limiting characteristic/, name);
  }
});

test('the schema knows the ratelimit members: period and mitigation_timeout take the documented values, an unknown member is named', () => {
  let r = rl({ ...BASE, period: 30 });
  assert.equal(r.at.length, 1, JSON.stringify(r.at));
  assert.equal(r.at[0][1], '30');
  assert.match(r.problems[0].message, /10, 60, 120, 300, 600(,| or) 3600/);
  r = rl({ ...BASE, mitigation_timeout: 45 });
  assert.deepEqual(r.at.map((a) => a[1]), ['45']);
  assert.match(r.problems[0].message, /86400/);
  r = rl({ ...BASE, periods: 60 });
  assert.equal(r.at.length, 1, JSON.stringify(r.at));
  assert.match(r.problems[0].message, /periods/);
  r = rl({ characteristics: ['cf.colo.id', 'ip.src'], requests_per_period: 10 });
  assert.ok(r.problems.some((p) => /period/.test(p.message) && p.severity === 'error'), JSON.stringify(r.at));
});

test('a rule counts requests or a score: without requests_per_period or score_per_period the rule is told which to add', () => {
  const r = rl({ characteristics: ['cf.colo.id', 'ip.src'], period: 60 });
  assert.deepEqual(r.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  assert.match(r.problems[0].message, /requests_per_period.*score_per_period/);
  const s = rl({ characteristics: ['cf.colo.id', 'ip.src'], period: 60, score_per_period: 400 });
  assert.deepEqual(s.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  assert.match(s.problems[0].message, /score_response_header_name/);
  assert.deepEqual(rl({ characteristics: ['cf.colo.id', 'ip.src'], period: 60, score_per_period: 400, score_response_header_name: 'x-score' }).at, []);
});

test('a rule of the rate limiting phase without "ratelimit" is an error; "ratelimit" in another phase a warning', () => {
  const none = rl(undefined);
  assert.deepEqual(none.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  const other = rl(BASE, {}, { phase: 'http_request_firewall_custom' });
  assert.deepEqual(other.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  assert.equal(other.problems[0].severity, 'warning');
});

test('the configuration restrictions: lists with requests_to_origin, response fields with lists in the counting expression, the account level', () => {
  let r = rl({ ...BASE, requests_to_origin: true }, { expression: 'ip.src in $bad_ips' });
  assert.deepEqual(r.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  assert.match(r.problems[0].message, /requests_to_origin/);
  assert.deepEqual(rl({ ...BASE, requests_to_origin: false }, { expression: 'ip.src in $bad_ips' }).at, []);
  r = rl({ ...BASE, counting_expression: 'http.response.code eq 429 and ip.src in $bad_ips' });
  assert.deepEqual(r.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  assert.match(r.problems[0].message, /response fields.*lists|lists.*response fields/);
  r = rl(BASE, { expression: 'ip.src in $bad_ips' }, { kind: 'root' });
  assert.deepEqual(r.at.map((a) => a[0]), ['ruleset/ratelimit-parameters']);
  assert.match(r.problems[0].message, /account/);
  // The account's rate limiting rules live in a ruleset of kind "custom" (waf/account/rate-limiting-rulesets/create-api.mdx: "a
  // rate limiting ruleset is a regular custom ruleset"), which its root entry point executes
  r = rl({ ...BASE, requests_to_origin: false }, { expression: 'ip.src in $bad_ips' }, { kind: 'custom' });
  assert.deepEqual(r.at, [['ruleset/ratelimit-parameters', '"ip.src in $bad_ips"']]);
  assert.match(r.problems[0].message, /account/);
});

test('in the editor: completion inside a characteristic offers fields, and the ratelimit members have hovers and completions', async () => {
  const { getLanguageService } = await import('../../../server/src/core/index');
  const ls = getLanguageService();
  const text = JSON.stringify({ phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', 'ip.sr'], period: 60, requests_per_period: 5 } }] }, null, 2);
  const doc = ls.parse(text);
  const inChar = ls.complete('waf-ruleset', doc, text.indexOf('ip.sr') + 5).map((c) => c.label);
  assert.ok(inChar.includes('ip.src'), inChar.slice(0, 20).join(' '));
  const hover = ls.hover('waf-ruleset', doc, text.indexOf('"period"') + 2);
  assert.match(hover?.markdown ?? JSON.stringify(hover), /10, 60, 120, 300, 600 or 3600/);
  const keyText = text.replace('"period": 60,', '"": 60,');
  const members = ls.complete('waf-ruleset', ls.parse(keyText), keyText.indexOf('"": 60') + 1).map((c) => c.label);
  for (const m of ['mitigation_timeout', 'counting_expression', 'requests_to_origin', 'score_per_period']) assert.ok(members.some((l) => l.includes(m)), `${m} in ${members.join(' ')}`);
});

test('an empty characteristic is one problem (the schema\'s), not also a syntax error of an empty expression', () => {
  const r = rl({ ...BASE, characteristics: ['cf.colo.id', 'ip.src', ''] });
  assert.deepEqual(r.at.map((a) => a[0]), ['schema/range'], JSON.stringify(r.at));
});

test('hover on cf.colo.id or cf.unique_visitor_id says what the characteristic counts by, in the characteristics and in an expression', async () => {
  const { getLanguageService } = await import('../../../server/src/core/index');
  const ls = getLanguageService();
  const text = JSON.stringify({ phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'cf.colo.id eq 1', ratelimit: { characteristics: ['cf.colo.id', 'cf.unique_visitor_id'], period: 60, requests_per_period: 5 } }] }, null, 2);
  const doc = ls.parse(text);
  const at = (needle: string, nth = 0) => { let i = -1; for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1); return i + 2; };
  assert.match(ls.hover('waf-ruleset', doc, at('cf.colo.id', 1))?.markdown ?? '', /cf\.colo\.id.*rate limiting characteristic.*data center/s);
  assert.match(ls.hover('waf-ruleset', doc, at('cf.unique_visitor_id'))?.markdown ?? '', /IP with NAT support/);
  assert.match(ls.hover('waf-ruleset', doc, at('cf.colo.id', 0))?.markdown ?? '', /not a field of expressions/);
});

test('completion in a characteristic offers cf.colo.id and cf.unique_visitor_id (names of their own) first, then the fields', async () => {
  const { getLanguageService } = await import('../../../server/src/core/index');
  const ls = getLanguageService();
  const text = JSON.stringify({ phase: 'http_ratelimit', rules: [{ action: 'block', expression: 'true', ratelimit: { characteristics: [''], period: 60, requests_per_period: 5 } }] }, null, 2);
  const items = ls.complete('waf-ruleset', ls.parse(text), text.indexOf('""', text.indexOf('characteristics')) + 1);
  const sorted = [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label)).map((c) => c.label);
  assert.deepEqual(sorted.slice(0, 2).sort(), ['cf.colo.id', 'cf.unique_visitor_id']);
  assert.ok(sorted.includes('ip.src'));
  // Not in a match expression, where an expression cannot read them
  const expr = JSON.stringify({ phase: 'http_ratelimit', rules: [{ action: 'block', expression: '' }] });
  assert.ok(!ls.complete('waf-ruleset', ls.parse(expr), expr.indexOf('""') + 1).some((c) => c.label === 'cf.colo.id'));
});

test('the hover on a ruleset\'s braces describes a ruleset of any phase, not the managed phase\'s entry point alone', async () => {
  const { getLanguageService } = await import('../../../server/src/core/index');
  const ls = getLanguageService();
  const md = ls.hover('waf-ruleset', ls.parse(JSON.stringify({ phase: 'http_ratelimit', rules: [] })), 0)?.markdown ?? '';
  assert.match(md, /^\*\*Ruleset\*\*/);
  assert.match(md, /phases\/\{phase\}\/entrypoint/);
});
