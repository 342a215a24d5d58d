// The rules-language evaluator: operators (symbols and words), sets with ranges and CIDRs, headers with [*] and ["name"], wildcard
// and strict wildcard, matches on RE2 (a hostile pattern stays linear), functions, missing fields; and 100 000 generated
// expression/request pairs on which it agrees with a naive interpreter of the same generated conditions written here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../server/src/core/prng';
import { compileExpression, functionSupport, type RequestRecord } from '../../../server/src/core/eval/rules';
import { FUNCTIONS } from '../../../server/src/core/rules/ruleset/catalog';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { codeInfo, type Code } from '../../../server/src/core/codes';

const REQUEST: RequestRecord = {
  'http.host': 'www.example.com',
  'http.request.uri.path': '/admin/login.php',
  'http.request.uri.query': 'q=%3Cscript%3E&x=1',
  'http.request.method': 'POST',
  'ip.src': '203.0.113.7',
  'ip.src.country': 'CA',
  'cf.bot_management.score': 12,
  'ssl': true,
  'http.request.headers': { 'user-agent': ['curl/8.5.0'], 'x-api-key': ['k1', 'k2'] },
  'http.request.headers.names': ['user-agent', 'x-api-key'],
  'http.request.body.raw': '{"user": {"id": 42, "role": "admin"}}',
};

const run = (expr: string, r: RequestRecord = REQUEST): boolean => {
  const c = compileExpression(expr);
  if (!c.ok) throw new Error(`${expr}: ${c.error}`);
  return c.expression.test(r);
};

const CASES: [string, boolean][] = [
  ['http.host eq "www.example.com"', true], ['http.host == "example.com"', false], ['http.host ne "example.com"', true], ['http.host != "www.example.com"', false],
  ['cf.bot_management.score lt 30', true], ['cf.bot_management.score < 12', false], ['cf.bot_management.score le 12', true], ['cf.bot_management.score >= 13', false],
  ['cf.bot_management.score gt 11 and cf.bot_management.score ge 12', true],
  ['http.request.uri.path contains "/admin"', true], ['http.request.uri.path contains "/api"', false],
  ['http.request.uri.path matches "^/admin/.*\\.php$"', true], ['http.request.uri.path ~ "(?i)^/ADMIN"', true], ['http.request.uri.path matches "^/api"', false],
  ['http.host wildcard "*.EXAMPLE.com"', true], ['http.host strict wildcard "*.EXAMPLE.com"', false], ['http.host strict wildcard "www.*.com"', true],
  ['http.request.method in {"GET" "HEAD"}', false], ['http.request.method in {"GET" "POST"}', true],
  ['cf.bot_management.score in {1..20 90..99}', true], ['cf.bot_management.score in {20..30}', false],
  ['ip.src in {203.0.113.0/24}', true], ['ip.src in {198.51.100.0/24 2001:db8::/32}', false], ['ip.src eq 203.0.113.7', true], ['ip.src in {203.0.113.1..203.0.113.9}', true],
  ['ip.src.country in {"CA" "US"}', true], ['not ip.src.country eq "CA"', false], ['ssl', true], ['not ssl or http.host eq "x"', false],
  ['http.host eq "x" xor ssl', true], ['ssl xor ssl', false], ['(http.host eq "x" or ssl) and not false', true],
  ['any(http.request.headers.names[*] == "x-api-key")', true], ['all(http.request.headers.names[*] contains "-")', true],
  ['any(http.request.headers["user-agent"][*] contains "curl")', true], ['http.request.headers["x-api-key"][1] eq "k2"', true],
  ['lower(http.request.method) eq "post"', true], ['upper(ip.src.country) eq "CA"', true], ['len(http.host) eq 15', true],
  ['starts_with(http.request.uri.path, "/admin")', true], ['ends_with(http.request.uri.path, ".php")', true],
  ['concat("https://", http.host) eq "https://www.example.com"', true], ['url_decode(http.request.uri.query) contains "<script>"', true],
  ['to_string(cf.bot_management.score) eq "12"', true], ['substring(http.host, 4) eq "example.com"', true], ['substring(http.host, -3) eq "com"', true],
  ['lookup_json_string(http.request.body.raw, "user", "role") eq "admin"', true], ['lookup_json_integer(http.request.body.raw, "user", "id") eq 42', true],
  ['remove_bytes(http.host, "w.") eq "examplecom"', true],
  // A function mapped over "[*]" gives an array of results; "[*]" after the call takes each (the platform's examples)
  ['any(lower(http.request.headers.names[*])[*] == "x-api-key")', true], ['not any(lower(http.request.headers.names[*])[*] eq "x-csrf-token")', true],
  ['any(upper(http.request.headers.names[*])[*] == "X-API-KEY")', true], ['all(len(http.request.headers.names[*])[*] gt 9)', false],
  ['all(len(http.request.headers.names[*])[*] ge 9)', true], ['upper(http.request.headers.names[*])[1] eq "X-API-KEY"', true],
  ['split(http.request.uri.path, "/", 8)[1] eq "admin"', true], ['any(split(http.request.uri.path, "/", 8)[*] eq "login.php")', true],
  ['len(split(http.request.uri.path, "/", 2)) eq 2', true], ['split(http.request.uri.path, "/", 2)[1] eq "admin/login.php"', true],
  // One boolean per element on both sides of and/or/xor: element by element (names: user-agent, x-api-key)
  ['any((http.request.headers.names[*] contains "-" and http.request.headers.names[*] ne "user-agent"))', true],
  ['any((http.request.headers.names[*] contains "user" and http.request.headers.names[*] contains "api"))', false],
  ['all((starts_with(http.request.headers.names[*], "x-") or http.request.headers.names[*] eq "user-agent"))', true],
  ['any((http.request.headers.names[*] eq "user-agent" xor starts_with(http.request.headers.names[*], "user")))', false],
  // http.request.headers has its keys lower-cased on the platform: a key with capitals finds nothing (the checker warns)
  ['http.request.headers["User-Agent"][0] contains "curl"', false], ['http.request.headers["user-agent"][0] contains "curl"', true],
  // Newer functions: has_key(), has_value(), encode_base64()
  ['has_key(http.request.headers, "x-api-key")', true], ['has_key(http.request.headers, "x-other")', false],
  // [*] on a map gives its values, each an array here (the checker's Map<Array<String>>): [0] of each, a function of each
  ['any(http.request.headers[*][0] eq "curl/8.5.0")', true], ['all(len(http.request.headers[*])[*] le 2)', true],
  ['any(has_value(http.request.headers[*], "k2"))', true], ['all(has_value(http.request.headers[*], "k2"))', false],
  // not/and/or on a mapped call's array of booleans work per element, as on one boolean per element of a [*]
  ['any(not starts_with(http.request.headers.names[*], "user"))', true], ['all(not starts_with(http.request.headers.names[*], "x-"))', false],
  ['any((starts_with(http.request.headers.names[*], "zzz") or ends_with(http.request.headers.names[*], "zzz")))', false], ['all(not starts_with(http.request.headers.names[*], "zzz"))', true],
  // "$$" in a replacement is a literal "$" (the functions reference), also before "{1}"
  ['regex_replace(http.request.uri.path, "^/(admin)/.*$", "/$${1}") eq "/${1}"', true],
  ['wildcard_replace(http.request.uri.path, "/admin/*", "/$$${1}") eq "/$login.php"', true],
  ['wildcard_replace(http.request.uri.path, "/admin/*", "/$$x") eq "/$x"', true],
  // a key named like a member of Object.prototype is no header
  ['has_key(http.request.headers, "constructor")', false], ['has_key(http.request.headers, "toString")', false], ['has_key(http.request.headers, "__proto__")', false],
  ['len(http.request.headers["constructor"]) eq 0', true],
  ['has_value(http.request.headers.names, "user-agent")', true], ['has_value(http.request.headers.names, "User-Agent")', false],
  ['encode_base64(http.host) eq "d3d3LmV4YW1wbGUuY29t"', true], ['encode_base64("hello world", "p") eq "aGVsbG8gd29ybGQ="', true],
  ['encode_base64("hello world") eq "aGVsbG8gd29ybGQ"', true], ['encode_base64("??>", "u") eq "Pz8-"', true], ['encode_base64("??>") eq "Pz8+"', true],
  // A missing field has its type's empty value: "" for strings, 0 for integers, false for booleans, an empty list.
  ['http.referer eq ""', true], ['http.referer ne "x"', true], ['cf.threat_score eq 0', true], ['any(http.request.cookies["s"][*] eq "1")', false],
];

test('operators, sets, ranges, CIDRs, headers, wildcards, regexes, functions and missing fields', () => {
  for (const [expr, expected] of CASES) assert.equal(run(expr), expected, expr);
});

test('a record with header names in their original case still answers lower-case keys', () => {
  const r = { ...REQUEST, 'http.request.headers': { 'User-Agent': ['curl/8'], 'X-Api-Key': ['k'] } };
  assert.equal(run('http.request.headers["user-agent"][0] eq "curl/8"', r), true);
  assert.equal(run('any(http.request.headers["x-api-key"][*] eq "k")', r), true);
  assert.equal(run('http.request.headers["X-Api-Key"][0] eq "k"', r), false);
  assert.equal(run('has_key(http.request.headers, "x-api-key")', r), true);
  assert.equal(run('has_key(http.request.headers, "X-Api-Key")', { ...REQUEST }), false);
  // other maps keep their keys' case
  const q = { ...REQUEST, 'http.request.uri.args': { Q: ['1'], q: ['2'] } };
  assert.equal(run('http.request.uri.args["Q"][0] eq "1"', q), true);
  assert.equal(run('http.request.uri.args["q"][0] eq "2"', q), true);
});

test('has_key() answers as ["key"] does: a key with capitals never in the headers, other maps case-sensitive', () => {
  const r = { ...REQUEST, 'http.request.headers': { 'X-Api-Key': ['k'] }, 'http.request.uri.args': { Foo: ['1'] } };
  assert.equal(run('http.request.headers["X-Api-Key"][0] eq "k"', r), false);
  assert.equal(run('has_key(http.request.headers, "X-Api-Key")', r), false);
  assert.equal(run('has_key(http.request.headers, "x-api-key")', r), true);
  assert.equal(run('http.request.uri.args["foo"][0] eq "1"', r), false);
  assert.equal(run('has_key(http.request.uri.args, "foo")', r), false);
  assert.equal(run('has_key(http.request.uri.args, "Foo")', r), true);
});

test('a hostile regex stays linear (RE2): (a+)+$ on 100 000 characters answers', { timeout: 10_000 }, () => {
  const r = { ...REQUEST, 'http.request.uri.path': 'a'.repeat(100_000) + 'b' };
  assert.equal(run('http.request.uri.path matches "(a+)+$"', r), false);
  assert.equal(run('http.request.uri.path matches "^(a|aa)*b$"', r), true);
});

test('what cannot be evaluated is an error that says why and where, never a throw', () => {
  const bad = (expr: string) => { const c = compileExpression(expr); assert.equal(c.ok, false, expr); return (c as { error: string }).error; };
  assert.match(bad('http.hots eq "x"'), /Unknown field "http\.hots"/);
  assert.match(bad('http.host eq'), /expr-syntax/);
  assert.match(bad('http.host matches "(?=x)"'), /cannot be evaluated|regex/i);
  assert.match(bad('is_jwt_valid("51231d16-01f1-48e3-93f8-91c99e81288e")'), /is_jwt_valid\(\) at 0 cannot be evaluated: .*token configuration/);
  assert.match(bad('encode_base64(sha256(http.host)) eq "x"'), /sha256\(\) at 14 cannot be evaluated: /);
});

// ---- 100 000 pairs against a naive interpreter of the generated conditions ----

interface Cond { field: string; op: string; value: string | number; }
type Gen = { cond: Cond } | { not: Gen } | { op: 'and' | 'or'; left: Gen; right: Gen };

const STRINGS: Record<string, string[]> = { 'http.host': ['a.com', 'b.com', 'www.a.com', ''], 'http.request.method': ['GET', 'POST', 'PUT'], 'ip.src.country': ['CA', 'US', 'FR'] };
const INTS: Record<string, number[]> = { 'cf.bot_management.score': [1, 12, 30, 99], 'cf.threat_score': [0, 5, 50] };


function render(g: Gen): string {
  if ('cond' in g) {
    const { field, op, value } = g.cond;
    return `${field} ${op} ${typeof value === 'number' ? value : JSON.stringify(value)}`;
  }
  if ('not' in g) return `not (${render(g.not)})`;
  return `(${render(g.left)}) ${g.op} (${render(g.right)})`;
}

function naive(g: Gen, r: RequestRecord): boolean {
  if ('not' in g) return !naive(g.not, r);
  if ('op' in g) return g.op === 'and' ? naive(g.left, r) && naive(g.right, r) : naive(g.left, r) || naive(g.right, r);
  const { field, op, value } = g.cond;
  const v = r[field] ?? (field in INTS ? 0 : '');
  switch (op) {
    case 'eq': return v === value;
    case 'ne': return v !== value;
    case 'lt': return (v as number) < (value as number);
    case 'gt': return (v as number) > (value as number);
    case 'contains': return String(v).indexOf(String(value)) !== -1;
    case 'wildcard': return new RegExp(`^${String(value).split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'is').test(String(v));
    default: throw new Error(op);
  }
}

test('100 000 generated expression/request pairs: the evaluator agrees with the naive interpreter', () => {
  const rand = mulberry32(424242);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const cond = (): Gen => {
    if (rand() < 0.5) {
      const field = pick(Object.keys(STRINGS));
      const op = pick(['eq', 'ne', 'contains', 'wildcard']);
      const value = op === 'wildcard' ? pick(['*.com', 'a*', '*', 'W*', 'www.*']) : op === 'contains' ? pick(['a', '.', 'co', 'x']) : pick(STRINGS[field]);
      return { cond: { field, op, value } };
    }
    const field = pick(Object.keys(INTS));
    return { cond: { field, op: pick(['eq', 'ne', 'lt', 'gt']), value: pick(INTS[field]) } };
  };
  const gen = (d: number): Gen => (d > 2 || rand() < 0.4 ? cond() : rand() < 0.2 ? { not: gen(d + 1) } : { op: pick(['and', 'or'] as const), left: gen(d + 1), right: gen(d + 1) });
  let pairs = 0, yes = 0;
  for (let i = 0; i < 1000; i++) {
    const g = gen(0);
    const text = render(g);
    const c = compileExpression(text);
    if (!c.ok) throw new Error(`${text}: ${c.error}`);
    for (let j = 0; j < 100; j++) {
      const r: RequestRecord = {};
      for (const [f, vs] of Object.entries(STRINGS)) if (rand() < 0.9) r[f] = pick(vs);
      for (const [f, vs] of Object.entries(INTS)) if (rand() < 0.9) r[f] = pick(vs);
      const got: boolean = c.expression.test(r);
      assert.equal(got, naive(g, r), `${text} on ${JSON.stringify(r)}`);
      pairs++;
      if (got) yes++;
    }
  }
  assert.equal(pairs, 100_000);
  assert.ok(yes > 10_000 && yes < 90_000, `both verdicts are exercised (${yes})`);
});

test('an account-level deployment expression of the docs: cf.zone.name / cf.zone.plan evaluate, and are "" when the record lacks them', () => {
  // cloudflare-docs src/content/partials/waf/managed-rulesets/api-account-example.mdx
  const expr = '(cf.zone.name in {"example.com" "anotherexample.com"}) and cf.zone.plan eq "ENT"';
  assert.equal(run(expr, { ...REQUEST, 'cf.zone.name': 'example.com', 'cf.zone.plan': 'ENT' }), true);
  assert.equal(run(expr, { ...REQUEST, 'cf.zone.name': 'example.com', 'cf.zone.plan': 'BIZ' }), false);
  assert.equal(run(expr, REQUEST), false);
  assert.equal(run('cf.zone.plan eq ""', REQUEST), true);
});

// The functions reference (cloudflare-docs src/content/docs/ruleset-engine/rules-language/functions.mdx): lower()/upper() convert
// "only uppercase [lowercase] ASCII bytes ... All other bytes are unaffected"; url_decode() gives bytes ("%E4%BD decodes to ä½"),
// which a UTF-8 literal in the expression then matches, and its "u" option decodes %uXXXX to UTF-8 ("%u2601" is the 3 bytes of ☁);
// decode_base64() of a UTF-8 text is that text. JavaScript's toLowerCase() lower-cased É and İ; each %XX became one UTF-16 unit
// (%C3%A9 the two characters "Ã©", not "é"), and %uXXXX stayed as it was.
test('lower()/upper() touch ASCII letters only; url_decode() and decode_base64() give UTF-8 text; url_decode "u" decodes %uXXXX', () => {
  const r = { ...REQUEST, 'http.host': 'ÉCOLE.Example', 'http.request.uri.query': 'q=%C3%A9t%C3%A9+%E2%98%81', 'http.request.uri.path': '/%u2601/%u00e9',
    'http.request.headers': { 'x-b64': ['w6l0w6k='] } };
  assert.equal(run('lower(http.host) eq "École.example"', r), true);
  assert.equal(run('lower(http.host) eq "école.example"', r), false);
  assert.equal(run('upper(lower(http.host)) eq "ÉCOLE.EXAMPLE"', r), true);
  assert.equal(run('upper("é") eq "é"', r), true);
  assert.equal(run('lower(http.request.headers.names[*])[0] eq "user-agent"', r), true);
  assert.equal(run('lower("İX") eq "İx"', r), true);
  assert.equal(run('url_decode(http.request.uri.query) eq "q=été ☁"', r), true);
  assert.equal(run('len(url_decode(http.request.uri.query)) eq 11', r), true); // q= (2) é (2) t (1) é (2) space (1) ☁ (3): bytes
  assert.equal(run('url_decode(http.request.uri.path, "u") eq "/☁/é"', r), true);
  assert.equal(run('url_decode(http.request.uri.path) eq "/%u2601/%u00e9"', r), true);
  assert.equal(run('url_decode(http.request.uri.path, "ur") eq "/☁/é"', r), true);
  assert.equal(run('any(decode_base64(http.request.headers["x-b64"][*])[*] eq "été")', r), true);
  // Bytes that are no UTF-8 stay one character per byte, as before ("%E4%BD" of the reference)
  assert.equal(run('url_decode(http.request.uri.query) eq "ä½"', { ...r, 'http.request.uri.query': '%E4%BD' }), true);
  assert.equal(run('url_decode(http.request.uri.query) eq "a é b"', { ...r, 'http.request.uri.query': 'a+%C3%A9%20b' }), true);
});

// The checker tried a "matches" regex on JavaScript's RegExp (with Rust's inline flags dropped), the evaluator on RE2: the docs' own
// `url_decode(http.request.uri.path) matches "(?u)\p{Hangul}+"` (functions reference) passed the check and then could not be
// evaluated ("invalid or unsupported Perl syntax: `(?u`"), as did (?x), (?R) and \u escapes, all Rust syntax; and \Z, \k<name>,
// \cA, \e, \h, [^] (JavaScript-only: Rust's regex refuses them) passed the check and failed only in the evaluator.
test('a "matches" regex: the checker and the evaluator agree, both on Rust\'s syntax (flags u, x, R; \\u escapes)', () => {
  // A quoted regex is read with regex escaping: only its quotes are escaped (JSON.stringify would double the backslashes)
  const pathRe = (p: string) => `http.request.uri.path matches "${p.replace(/"/g, '\\"')}"`;
  const checkerErrors = (src: string) => analyzeExpression(src).problems.filter((p) => codeInfo(p.code as Code).severity === 'error').map((p) => p.code);
  const rustValid = ['(?u)\\p{Hangul}+', '(?-u:\\w)+', '(?x) ^/admin / login # the login page', '(?R)^/admin', '(?iu)^/ADMIN', '\\u{2F}admin', '\\u002Fadmin',
    '\\U0000002Fadmin', '(?ix: ^ /ADMIN )', '(?i)^/admin', '(?P<a>admin)', '\\x{2F}', '[[:alpha:]]+'];
  const rustInvalid = ['\\Z', '\\k<n>', '\\cA', '\\e', '\\h', '[^]', '(?=a)', 'a(b'];
  for (const p of rustValid) {
    assert.deepEqual(checkerErrors(pathRe(p)), [], p);
    assert.equal(compileExpression(pathRe(p)).ok, true, p);
  }
  for (const p of rustInvalid) {
    assert.deepEqual(checkerErrors(pathRe(p)), ['ruleset/expr-invalid-regex'], p);
    assert.equal(compileExpression(pathRe(p)).ok, false, p);
  }
  const r = { ...REQUEST, 'http.request.uri.path': '/admin/login' };
  assert.equal(run(pathRe('(?x) ^/admin / login $ # the login page'), r), true);
  assert.equal(run(pathRe('(?x) ^/admin /x'), r), false);
  assert.equal(run(pathRe('(?ix: ^ /ADMIN )/login'), r), true);
  assert.equal(run(pathRe('(?ix: ^ /ADMIN ) /login'), r), false); // the space after the group is outside (?x:...)
  assert.equal(run(pathRe('\\u{2F}admin\\u002Flogin'), r), true);
  assert.equal(run('url_decode(http.request.uri.path) matches "(?u)\\p{Hangul}+"', { ...r, 'http.request.uri.path': '/%ED%95%9C' }), true);
  assert.equal(run('url_decode(http.request.uri.path) matches "(?u)\\p{Hangul}+"', r), false);
});

// The functions reference: lookup_json_integer() "only works for plain integers. For example, it will not work for floating numbers
// with a zero decimal part such as 42.0" (JSON.parse reads 42.0 as the integer 42, which the evaluator returned); substring() counts
// "from the start byte index up to (but excluding) the end byte index" (the evaluator counted UTF-16 units).
test('lookup_json_integer() finds plain integers only (not 42.0 or 4.2e1); substring() counts bytes', () => {
  const body = (raw: string) => ({ ...REQUEST, 'http.request.body.raw': raw });
  assert.equal(run('lookup_json_integer(http.request.body.raw, "version") eq 42', body('{"version": 42}')), true);
  assert.equal(run('lookup_json_integer(http.request.body.raw, "version") eq 42', body('{"version": 42.0}')), false);
  assert.equal(run('lookup_json_integer(http.request.body.raw, "version") eq 42', body('{"version": 4.2e1}')), false);
  assert.equal(run('lookup_json_integer(http.request.body.raw, 1) eq -234', body('["first_item", -234]')), true);
  assert.equal(run('lookup_json_integer(http.request.body.raw, 1, "product_id") eq 456', body('[{ "product_id": 123 }, { "product_id": 456.0 }, 1]')), false);
  assert.equal(run('lookup_json_integer(http.request.body.raw, 1, "product_id") eq 456', body('[{ "product_id": 123 }, { "product_id": 456 }]')), true);
  // a repeated key: the last one, as JSON.parse reads it
  assert.equal(run('lookup_json_integer(http.request.body.raw, "a") eq 2', body('{"a": 1.0, "a": 2}')), true);
  assert.equal(run('lookup_json_integer(http.request.body.raw, "a") eq 1', body('{"a": 1, "a": 2.0}')), false);
  // "\😀" is no JSON escape: the body is not JSON, as for JSON.parse (jsonc-parser's tree, which plainInteger reads, is never built)
  assert.equal(run('lookup_json_integer(http.request.body.raw, "a") eq 0', body('{"a": 1, "b": "\\😀"}')), true);
  assert.equal(run('lookup_json_integer(http.request.body.raw, "a") eq 1', body('{"a": 1, "b": "\\u00e9"}')), true);
  assert.equal(run('lookup_json_string(http.request.body.raw, "a") eq ""', body('{"a": "\\😀"}')), true);
  // The reference's examples, then bytes: "été" is 5 bytes (C3 A9 74 C3 A9)
  const raw = (s: string) => ({ ...REQUEST, 'http.request.body.raw': s });
  assert.equal(run('substring(http.request.body.raw, 2, 5) eq "dfg"', raw('asdfghjk')), true);
  assert.equal(run('substring(http.request.body.raw, -2) eq "jk"', raw('asdfghjk')), true);
  assert.equal(run('substring(http.request.body.raw, 0, -2) eq "asdfgh"', raw('asdfghjk')), true);
  assert.equal(run('substring(http.request.body.raw, 2) eq "té"', raw('été')), true);
  assert.equal(run('substring(http.request.body.raw, 0, 2) eq "é"', raw('été')), true);
  assert.equal(run('substring(http.request.body.raw, -2) eq "é"', raw('été')), true);
  assert.equal(run('len(substring(http.request.body.raw, 2, -2)) eq 1', raw('été')), true);
});

// bit_slice() (Network Firewall) passed the check and compiled, then threw at the first request from callFn's default case: `edgekit
// test-rules` ended with exit 2 and the editor's request failed. Every function of the catalogue is now computed or refused, with
// the reason, when the expression is compiled.
test('every function of the catalogue is computed or refused when compiled, never thrown at a request', () => {
  const c = compileExpression('bit_slice("tcp", 0, 8) eq 5');
  assert.equal(c.ok, false);
  assert.match((c as { error: string }).error, /^bit_slice\(\) at 0 cannot be evaluated: it reads the raw packet/);
  for (const name of FUNCTIONS.keys()) {
    const why = functionSupport(name);
    assert.ok(why === true || /\S/.test(why), name);
  }
  assert.deepEqual([...FUNCTIONS.keys()].filter((n) => functionSupport(n) !== true).sort(), ['bit_slice', 'hash_in_range', 'is_jwt_present', 'is_jwt_valid', 'sha256']);
});

// A regex_replace() pattern or a cidr() prefix length taken from a field's value (the checker bounds literals only) threw at the
// request ("the regex \"(\" cannot be evaluated", "ipaddr: the address has neither IPv6 nor IPv4 CIDR format"), ending the run.
test('regex_replace() with a pattern from a field, cidr() with a prefix length from a field: no throw at any request', () => {
  const records = [{}, { 'http.host': '(', 'http.request.uri.path': '/a', 'cf.bot_management.score': 200, 'ip.src': '1.2.3.4' },
    { 'http.host': 'a', 'http.request.uri.path': '/a', 'cf.bot_management.score': 24, 'ip.src': '1.2.3.4' }];
  const replace = compileExpression('regex_replace(http.request.uri.path, http.host, "b") eq "/b"');
  const net = compileExpression('cidr(ip.src, cf.bot_management.score, 64) eq 1.2.3.0');
  assert.ok(replace.ok && net.ok);
  assert.deepEqual(records.map((r) => replace.expression.test(r)), [false, false, true]);
  assert.deepEqual(records.map((r) => net.expression.test(r)), [false, false, true]);
});

test('a second "[*]" takes the elements of each element, one flat list (wirefilter flattens a map-each of a map-each)', () => {
  const names = { 'http.request.body.multipart.names': [['a'], ['c', 'b']] };
  assert.equal(run('any(http.request.body.multipart.names[*][*] eq "b")', names), true);
  assert.equal(run('all(http.request.body.multipart.names[*][*] ne "z")', names), true);
  assert.equal(run('any(http.request.body.multipart.names[*][*] eq "z")', names), false);
  assert.equal(run('any(http.request.body.multipart.names[*][1] eq "b")', names), true);
});

test('coalesce() and hash_in_range(), functions of the platform since October 2026 (changelog): checked; coalesce() evaluated, hash_in_range() refused by name', () => {
  // The changelog's own examples, the function on the right of one included ("Compare dynamic values", the same day)
  for (const src of ['http.request.uri.path eq coalesce(http.request.uri.args["expected_path"][0], "/")',
    'coalesce(http.request.uri.args["expected_path"][0], "/") eq "/"', 'hash_in_range(0, 100, cf.random_seed) lt 10',
    'coalesce(lookup_json_integer(cf.hostname.metadata, "rollout_pct"), 0) gt 5']) {
    assert.deepEqual(analyzeExpression(src).problems.map((p) => p.code), [], src);
  }
  // Every argument of one type, as any fallback must be
  assert.deepEqual(analyzeExpression('coalesce(http.request.uri.args["p"][0], 1) eq "/"').problems.map((p) => p.code), ['ruleset/expr-type-mismatch']);
  // The first argument that has a value: a missing header is nil
  assert.equal(run('coalesce(http.request.headers["x-missing"][0], "fallback") eq "fallback"'), true);
  assert.equal(run('coalesce(http.request.headers["x-api-key"][0], "fallback") eq "k1"'), true);
  const expected = 'http.request.uri.path eq coalesce(http.request.uri.args["expected_path"][0], "/")';
  assert.equal(run(expected, { 'http.request.uri.path': '/' }), true);
  assert.equal(run(expected, { 'http.request.uri.path': '/a', 'http.request.uri.args': { expected_path: ['/a'] } }), true);
  assert.equal(run(expected, { 'http.request.uri.path': '/a', 'http.request.uri.args': { expected_path: ['/b'] } }), false);
  const c = compileExpression('hash_in_range(0, 100, cf.random_seed) lt 10');
  assert.ok(!c.ok && /hash_in_range\(\) at 0 cannot be evaluated: the platform does not document its hash/.test(c.error), JSON.stringify(c));
});

test('cf.appsec.request.failed_detections (changelog 2026-10-09) is a field: the changelog\'s two examples check without a problem', () => {
  for (const src of ['len(cf.appsec.request.failed_detections) gt 0', 'any(cf.appsec.request.failed_detections[*] eq "waf_credential_check")']) {
    assert.deepEqual(analyzeExpression(src, 'http_request_firewall_custom').problems.map((p) => p.code), [], src);
  }
  assert.equal(run('any(cf.appsec.request.failed_detections[*] eq "waf_credential_check")', { ...REQUEST, 'cf.appsec.request.failed_detections': ['waf_credential_check'] }), true);
});
