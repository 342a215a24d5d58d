// Corpus of rules-language expressions: valid ones must give no problem at all; invalid ones give the expected code and span.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { parseExpression, type Expr } from '../../../server/src/core/rules/ruleset/exprParser';

const VALID = [
  // reference/rulesets.md and the migration config
  'true',
  'false',
  'ip.src in {203.0.113.0 203.0.113.1}',
  'ip.src.country in {"CN" "TH"}',
  'ip.src.asnum in {12345 54321}',
  'ends_with(http.request.uri.path, ".html")',
  'starts_with(http.request.uri.path, "/api/")',
  'http.request.headers["name"][*] == "x"'.replace(/^/, 'any(') + ')',
  // docs-style examples
  'http.host eq "www.example.com"',
  'http.host == "www.example.com"',
  'http.request.uri.path eq "/login" and http.request.method eq "POST"',
  'http.request.uri.path contains "/wp-admin"',
  'http.request.uri.path matches "^/api/v[0-9]+/"',
  'http.request.uri.path ~ "^/blog/"',
  'http.request.uri.path matches r"^/articles/\\d+$"',
  'http.request.uri.path matches r#"^/say/"hi"$"#',
  'http.request.full_uri wildcard "https://*.example.com/*"',
  'http.request.full_uri strict wildcard "https://example.com/Admin/*"',
  'http.host wildcard "a\\\\*b"', // the value a\*b: an escaped star
  'not ssl',
  '!ssl',
  'ssl and not cf.client.bot',
  'cf.bot_management.score lt 30 and not cf.bot_management.verified_bot',
  'cf.waf.score le 20',
  'cf.waf.score.class eq "attack"',
  'ip.src ne 192.0.2.1',
  'ip.src in {192.0.2.0/24 198.51.100.0/24}',
  'ip.src in {2001:db8::/32 ::1 2001:db8::1}',
  'ip.src in {192.0.2.1..192.0.2.100}',
  'ip.src eq 2001:db8:85a3::8a2e:370:7334',
  'ip.src eq ::ffff:c000:201:1',
  'ip.src in $office_network',
  'ip.src.asnum in {13335 100..200}',
  'cf.edge.server_port in {80 443 8000..8099}',
  'http.request.method in {"GET" "HEAD"}',
  '(http.host eq "a.example.com" or http.host eq "b.example.com") and ssl',
  'http.host eq "a" xor http.host eq "b"',
  'http.host eq "a" ^^ http.host eq "b"',
  'http.host eq "a" || http.host eq "b" && ssl',
  '((ssl))',
  'lower(http.host) eq "example.com"',
  'upper(http.request.method) == "GET"',
  'len(http.request.uri.query) gt 100',
  'len(http.request.headers["cookie"]) gt 1',
  // A function mapped over "[*]" gives an array of its results; "[*]" after the call compares each (the platform's own examples)
  'any(lower(http.request.headers.names[*])[*] == "x-api-key")',
  'not any(lower(http.request.headers.names[*])[*] eq "x-csrf-token") and (http.request.full_uri eq "https://www.example.com/somepath")',
  'any(url_decode(http.request.body.form.values[*])[*] contains "an xss attack")',
  'all(len(http.request.headers.names[*])[*] lt 100)',
  'split(http.request.uri.path, "/", 8)[1] eq "api"',
  'len(split(http.request.uri.path, "/", 16)) gt 3',
  'any(split(http.request.uri.path, "/", 128)[*] eq "admin")',
  'has_key(http.request.headers, lower(http.request.uri.args.names[0]))',
  'has_value(http.request.headers.names, "X-My-Header")',
  'encode_base64(sha256(concat(to_string(ip.src), to_string(http.request.timestamp.sec), "my-secret-key"))) ne ""',
  'is_jwt_valid("51231d16-01f1-48e3-93f8-91c99e81288e") and is_jwt_present("51231d16-01f1-48e3-93f8-91c99e81288e")',
  'any(decode_base64(http.request.headers["client_id"][*])[*] eq "123abc")',
  // not, and, or on a mapped call's Array<Boolean> keep one boolean per element (wirefilter negates a vector element-wise)
  'any(not starts_with(http.request.headers.names[*], "x-"))',
  'join(http.request.headers.names, ",") eq "a"',
  'any(starts_with(http.request.headers.names[*], "x-"))',
  'all(not ends_with(http.request.headers.names[*], "-id") or starts_with(http.request.headers.names[*], "x-"))',
  'remove_query_args(raw.http.request.uri.query, "utm_source", "utm_medium") eq "a=1"',
  'wildcard_replace(http.request.uri.path, r"/apps/*", "/${1}", "s") eq "/x"',
  'regex_replace(http.request.uri.path, "^/foo/([^/]*)/(.*)$", "/bar/${2}/${1}") eq "/bar/a/b"',
  'cidr(ip.src, 32, 128) eq 10.0.0.1 and cidr6(ip.src, 1) eq ::',
  'regex_replace(http.request.uri.path, "^/a", "/b") eq "/b" or wildcard_replace(http.request.uri.path, "/c/*", "/d/${1}") eq "/d/x"',
  'any((http.request.headers.names[*] contains "x-" and http.request.headers.names[*] ne "x-forwarded-for")) and ssl',
  'all(not starts_with(http.request.headers.names[*], "x-") or http.request.headers.names[*] eq "x-api-key")',
  'is_timed_hmac_valid_v0("mysecretkey", concat(http.request.uri, http.request.headers["timestamp"][0], "-", http.request.headers["mac"][0]), 100000, http.request.timestamp.sec, 0)',
  'url_decode(http.request.uri.path) matches "(?u)\\p{Hangul}+"', // a quoted regex is read with regex escaping (values reference)
  'http.host matches "^a\\d$"', // an error here until 2026-11-26: the basic escaping of other strings was applied to regexes
  'url_decode(http.request.uri.path) matches r"(?u)\\p{Hangul}+"',
  'all(http.request.headers["accept"][*] contains "json")',
  'any(http.request.uri.args.values[*] contains "<script")',
  'http.request.headers["user-agent"][0] contains "curl"',
  'http.request.cookies["session"][0] eq "abc"',
  'any(cf.bot_management.detection_ids[*] eq 201326592)',
  'http.request.body.size ge 1024',
  'http.request.timestamp.sec lt 1700000000',
  'concat(http.host, http.request.uri.path) eq "example.com/"',
  'lookup_json_string(http.request.body.raw, "user", "name") eq "admin"',
  'lookup_json_integer(http.request.body.raw, "id") gt 0',
  'substring(http.request.uri.path, 0, 4) eq "/api"',
  'url_decode(http.request.uri.query) contains "<script"',
  'to_string(ip.src.asnum) eq "13335"',
  'http.user_agent eq "say \\"hi\\" \\\\ and \\x41"',
  'http.referer eq ""',
  'http.request.uri.path.extension in {"php" "asp"}',
  'cf.response.1xxx_code eq 1020',
  'ip.src.is_in_european_union',
  'http.request.version in {"HTTP/1.0" "HTTP/1.1"}',
  'cf.tls_client_auth.cert_verified and not cf.tls_client_auth.cert_revoked',
  'http.request.jwt.claims.sub["token"][0] eq "alice"',
  'is_timed_hmac_valid_v0("secret", http.request.uri, 10800, http.request.timestamp.sec, 8)',
  'http.host in {"a" "b"} and http.request.uri.path matches "(?i)^/admin"',
  'http.request.uri.path matches "^/(a|b)/[a-z]{2,4}$"',
  'not (ip.src in {10.0.0.0/8} or ip.src in {172.16.0.0/12})',
  'http.host\n  eq \r\n"x"',
];

interface Bad { expr: string; code: string; at: string; nth?: number }

/** Invalid expressions: the expected code and the exact text its span covers (the nth occurrence, default first). */
const INVALID: Bad[] = [
  { expr: 'ip.src contains "x"', code: 'ruleset/expr-type-mismatch', at: 'contains' },
  { expr: 'http.host\n  eq\t"x"', code: 'ruleset/expr-whitespace', at: '\t' },
  { expr: 'ssl eq true', code: 'ruleset/expr-type-mismatch', at: 'eq' },
  { expr: 'http.host > 3', code: 'ruleset/expr-type-mismatch', at: '3' },
  { expr: 'ip.src.asnum eq "13335"', code: 'ruleset/expr-type-mismatch', at: '"13335"' },
  { expr: 'ip.src eq "192.0.2.1"', code: 'ruleset/expr-type-mismatch', at: '"192.0.2.1"' },
  { expr: 'ip.src lt 192.0.2.1', code: 'ruleset/expr-type-mismatch', at: 'lt' },
  { expr: 'ip.src eq 10.0.0.0/8', code: 'ruleset/expr-type-mismatch', at: '10.0.0.0/8' },
  { expr: 'ssl contains "x"', code: 'ruleset/expr-type-mismatch', at: 'contains' },
  { expr: 'http.host', code: 'ruleset/expr-type-mismatch', at: 'http.host' },
  { expr: 'ssl and http.host', code: 'ruleset/expr-type-mismatch', at: 'http.host' },
  { expr: 'http.request.headers["x"] eq "y"', code: 'ruleset/expr-type-mismatch', at: 'eq', nth: 2 },
  { expr: 'http.request.headers[0][0] eq "y"', code: 'ruleset/expr-type-mismatch', at: '[0]' },
  { expr: 'http.request.headers.names["a"] eq "y"', code: 'ruleset/expr-type-mismatch', at: '["a"]' },
  { expr: 'http.host[0] eq "y"', code: 'ruleset/expr-type-mismatch', at: '[0]' },
  { expr: 'http.host in {"a" 3}', code: 'ruleset/expr-type-mismatch', at: '3' },
  { expr: 'http.host in {"a".."b"}', code: 'ruleset/expr-syntax', at: '"a"' },
  { expr: 'ip.src.asnum in {200..100}', code: 'ruleset/expr-type-mismatch', at: '200..100' },
  { expr: 'lower(ip.src) eq "x"', code: 'ruleset/expr-type-mismatch', at: 'ip.src' },
  { expr: 'len(http.host) eq "3"', code: 'ruleset/expr-type-mismatch', at: '"3"' },
  { expr: 'any(http.host eq "x")', code: 'ruleset/expr-type-mismatch', at: 'http.host eq "x"' },
  { expr: 'http.request.headers.names[*] == "x"', code: 'ruleset/expr-array-result', at: 'http.request.headers.names[*] == "x"' },
  { expr: 'any(lower(http.request.headers.names[*]) == "x")', code: 'ruleset/expr-type-mismatch', at: '==' },
  // an argument with "[*]" of its own maps the call (wirefilter), so join()/any() would get one element, not the array
  { expr: 'join(http.request.headers.names[*], ",") eq "a"', code: 'ruleset/expr-type-mismatch', at: 'http.request.headers.names[*]' },
  { expr: 'any(starts_with(http.request.headers.names[*], "x-")[*])', code: 'ruleset/expr-type-mismatch', at: 'starts_with(http.request.headers.names[*], "x-")[*]' },
  { expr: 'not starts_with(http.request.headers.names[*], "x-")', code: 'ruleset/expr-array-result', at: 'not starts_with(http.request.headers.names[*], "x-")' },
  { expr: 'ssl and ends_with(http.request.headers.names[*], "-id")', code: 'ruleset/expr-type-mismatch', at: 'and' },
  { expr: 'lower(http.request.headers.names[*]) == "x"', code: 'ruleset/expr-type-mismatch', at: '==' },
  { expr: 'lower(http.request.headers.names[*])[*] == "x"', code: 'ruleset/expr-array-result', at: 'lower(http.request.headers.names[*])[*] == "x"' },
  { expr: 'split(http.request.uri.path, "/")["a"] eq "x"', code: 'ruleset/expr-type-mismatch', at: '["a"]' },
  { expr: 'lower(http.host)[0] eq "x"', code: 'ruleset/expr-type-mismatch', at: '[0]' },
  { expr: 'any(lower(http.request.headers.names[*])[*][*] eq "x")', code: 'ruleset/expr-type-mismatch', at: '[*]', nth: 3 },
  { expr: 'any(starts_with("x-", http.request.headers.names[*]))', code: 'ruleset/expr-type-mismatch', at: 'http.request.headers.names[*]' },
  { expr: 'has_value(http.request.headers.names, 3)', code: 'ruleset/expr-type-mismatch', at: '3' },
  { expr: 'has_key(http.request.headers.names, "x")', code: 'ruleset/expr-type-mismatch', at: 'http.request.headers.names' },
  { expr: 'split(http.request.uri.path, "/")[0] eq "x"', code: 'ruleset/expr-arguments', at: 'split(http.request.uri.path, "/")' },
  // "and"/"or"/"xor" combine a boolean with a boolean, or one per element with one per element (wirefilter's LogicalExpr)
  { expr: 'any((http.request.headers.names[*] eq "a" and ssl))', code: 'ruleset/expr-type-mismatch', at: 'and' },
  { expr: 'all((ssl or http.request.headers.names[*] contains "-"))', code: 'ruleset/expr-type-mismatch', at: 'or' },
  // An argument that starts with a field or a call ends after its comparison (wirefilter's FunctionCallArgExpr::lex_with): the
  // "and" after it is refused, and the fix puts the condition in parentheses
  { expr: 'any(http.request.headers.names[*] eq "a" and http.request.headers.values[*] eq "b")', code: 'ruleset/expr-syntax', at: 'and' },
  { expr: 'all(ssl or http.request.headers.names[*] contains "-")', code: 'ruleset/expr-syntax', at: 'or' },
  // regex_replace() and wildcard_replace(): once each, not nested in one another
  { expr: 'concat(regex_replace(http.request.uri.path, "^/a", "/b"), regex_replace(http.host, "x", "y")) eq "x"', code: 'ruleset/expr-function-use', at: 'regex_replace', nth: 2 },
  { expr: 'wildcard_replace(regex_replace(http.request.uri.path, "^/a", "/b"), "/*", "/${1}") eq "/x"', code: 'ruleset/expr-function-use', at: 'wildcard_replace' },
  { expr: 'regex_replace(wildcard_replace(http.request.uri.path, "/*", "/${1}"), "^/a", "/b") eq "/x"', code: 'ruleset/expr-function-use', at: 'regex_replace' },
  // what the functions reference asks beyond the types
  { expr: 'ends_with("x.php", ".php")', code: 'ruleset/expr-argument-value', at: '"x.php"' },
  { expr: 'decode_base64("YWJj") eq "abc"', code: 'ruleset/expr-argument-value', at: '"YWJj"' },
  { expr: 'cidr6(ip.src, 0) eq ::', code: 'ruleset/expr-argument-value', at: '0' },
  { expr: 'cidr(ip.src, 24, 129) eq 10.0.0.0', code: 'ruleset/expr-argument-value', at: '129' },
  { expr: 'split(http.host, ".", len(http.host))[0] eq "www"', code: 'ruleset/expr-argument-value', at: 'len(http.host)' },
  { expr: 'remove_query_args(lower(http.request.uri.query), "a") eq ""', code: 'ruleset/expr-argument-value', at: 'lower(http.request.uri.query)' },
  { expr: 'encode_base64(http.host, "x") eq ""', code: 'ruleset/expr-argument-value', at: '"x"' },
  { expr: 'wildcard_replace(http.request.uri.path, "/a/*", "/b/${1}", "i") eq ""', code: 'ruleset/expr-argument-value', at: '"i"' },
  { expr: 'is_timed_hmac_valid_v0("k", http.request.uri, len(http.host), http.request.timestamp.sec)', code: 'ruleset/expr-argument-value', at: 'len(http.host)' },
  { expr: 'http.hots eq "a"', code: 'ruleset/expr-unknown-field', at: 'http.hots' },
  { expr: 'ssl and ip.src.contry eq "FR"', code: 'ruleset/expr-unknown-field', at: 'ip.src.contry' },
  { expr: 'lowr(http.host) eq "a"', code: 'ruleset/expr-unknown-function', at: 'lowr' },
  { expr: 'lower(http.host, "x") eq "a"', code: 'ruleset/expr-arguments', at: 'lower(http.host, "x")' },
  { expr: 'starts_with(http.host) ', code: 'ruleset/expr-arguments', at: 'starts_with(http.host)' },
  { expr: 'ip.geoip.country eq "FR"', code: 'ruleset/expr-deprecated-field', at: 'ip.geoip.country' },
  // on the place the message names (the whole string was underlined before 2026-11-27)
  { expr: 'http.host matches "(?=a)b"', code: 'ruleset/expr-invalid-regex', at: '(?=' },
  { expr: 'http.host matches "a(b"', code: 'ruleset/expr-invalid-regex', at: '(' },
  { expr: 'http.host matches "a{400000}"', code: 'ruleset/expr-invalid-regex', at: '{400000}' },
  { expr: 'http.host wildcard "**.example.com"', code: 'ruleset/expr-invalid-wildcard', at: '**' },
  { expr: 'ip.src eq 300.1.1.1', code: 'ruleset/expr-invalid-ip', at: '300.1.1.1' },
  { expr: 'ip.src in {10.0.0.0/33}', code: 'ruleset/expr-invalid-ip', at: '/33' },
  { expr: 'ip.src eq 2001:db8:::1', code: 'ruleset/expr-invalid-ip', at: '2001:db8:::1' },
  { expr: 'ip.src eq 010.1.1.1', code: 'ruleset/expr-invalid-ip', at: '010.1.1.1' },
  { expr: 'ip.src in {10.1.1.1/8}', code: 'ruleset/expr-invalid-ip', at: '10.1.1.1/8' },
  // an IPv4-mapped address is IPv6 on the platform (until 2026-11-26 a valid example here: it never matches an IPv4 client)
  { expr: 'ip.src eq ::ffff:192.0.2.1', code: 'ruleset/expr-ipv4-mapped', at: '::ffff:192.0.2.1' },
  { expr: 'http.response.code eq 0403', code: 'ruleset/expr-octal-int', at: '0403' },
  { expr: 'http.response.code eq 1e3', code: 'ruleset/expr-invalid-int', at: '1e3' },
  { expr: 'ip.src.asnum eq 9223372036854775808', code: 'ruleset/expr-invalid-int', at: '9223372036854775808' },
  // syntax
  { expr: '', code: 'ruleset/expr-syntax', at: '' },
  { expr: 'http.host eq', code: 'ruleset/expr-syntax', at: '' },
  { expr: 'http.host eq "a" and', code: 'ruleset/expr-syntax', at: '' },
  { expr: 'http.host EQ "a"', code: 'ruleset/expr-syntax', at: 'EQ' },
  { expr: 'ssl AND not ssl', code: 'ruleset/expr-syntax', at: 'AND' },
  { expr: 'http.request.uri.path ends_with ".html"', code: 'ruleset/expr-syntax', at: 'ends_with' },
  { expr: 'http.host eq example.com', code: 'ruleset/expr-syntax', at: 'example.com' },
  { expr: 'http.host = "a"', code: 'ruleset/expr-syntax', at: '=' },
  { expr: 'http.host === "a"', code: 'ruleset/expr-syntax', at: '===' },
  { expr: '(ssl and not cf.client.bot', code: 'ruleset/expr-syntax', at: '' },
  { expr: 'ssl)', code: 'ruleset/expr-syntax', at: ')' },
  { expr: 'http.host eq "abc', code: 'ruleset/expr-syntax', at: '"abc' },
  { expr: 'http.host eq "^a\\d$"', code: 'ruleset/expr-syntax', at: '\\d' },
  { expr: 'http.host matches "^a\\\\d$"', code: 'ruleset/expr-regex-backslash', at: '\\\\d' },
  { expr: 'http.host matches r#"abc"', code: 'ruleset/expr-syntax', at: 'r#"abc"' },
  { expr: 'ip.src in {10.0.0.1, 10.0.0.2}', code: 'ruleset/expr-syntax', at: ',' },
  { expr: 'ip.src in {}', code: 'ruleset/expr-syntax', at: '{}' },
  { expr: 'http.host in "a"', code: 'ruleset/expr-syntax', at: '"a"' },
  { expr: 'http.host strict "a"', code: 'ruleset/expr-syntax', at: '"a"' },
  { expr: 'http.request.headers["a" eq "b"', code: 'ruleset/expr-syntax', at: 'eq', nth: 2 },
  { expr: 'lower(http.host eq "a"', code: 'ruleset/expr-syntax', at: '' },
  { expr: 'ssl and and ssl', code: 'ruleset/expr-syntax', at: 'and', nth: 2 },
  { expr: 'http.host eq "a" @', code: 'ruleset/expr-syntax', at: '@' },
];

for (const expr of VALID) {
  test(`valid: ${expr}`, () => {
    const { ast, problems } = analyzeExpression(expr);
    assert.deepEqual(problems, []);
    assert.ok(ast);
  });
}

function indexOfNth(s: string, sub: string, nth: number): number {
  let i = -1;
  for (let k = 0; k < nth; k++) i = s.indexOf(sub, i + 1);
  return i;
}

for (const bad of INVALID) {
  test(`invalid (${bad.code}): ${bad.expr}`, () => {
    const { problems } = analyzeExpression(bad.expr);
    const p = problems.find((q) => q.code === bad.code);
    assert.ok(p, `expected ${bad.code}, got ${JSON.stringify(problems)}`);
    const offset = bad.at === '' ? bad.expr.trimEnd().length : indexOfNth(bad.expr, bad.at, bad.nth ?? 1);
    assert.deepEqual({ offset: p.offset, length: p.length }, { offset: bad.at === '' && bad.expr === '' ? 0 : offset, length: bad.at.length },
      `span of ${bad.code}: ${JSON.stringify(bad.expr.substr(p.offset, p.length))}`);
  });
}

test('precedence: not > and > xor > or', () => {
  const shape = (e: Expr): string => {
    switch (e.type) {
      case 'logical': return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
      case 'not': return `!${shape(e.operand)}`;
      case 'group': return shape(e.inner);
      case 'field': return e.name;
      default: return e.type;
    }
  };
  assert.equal(shape(parseExpression('a or b xor c and not d').ast!), '(a or (b xor (c and !d)))');
  assert.equal(shape(parseExpression('a || b && c ^^ d').ast!), '(a or ((b and c) xor d))');
  assert.equal(shape(parseExpression('(a or b) and c').ast!), '((a or b) and c)');
  assert.equal(shape(parseExpression('a and b and c').ast!), '((a and b) and c)');
});

test('the AST carries offsets: a comparison spans its field and value', () => {
  const src = 'ssl and http.request.headers["x-a"][0] eq "v"';
  const ast = parseExpression(src).ast!;
  assert.equal(ast.type, 'logical');
  if (ast.type !== 'logical') return;
  const cmp = ast.right;
  assert.equal(src.substr(cmp.offset, cmp.length), 'http.request.headers["x-a"][0] eq "v"');
  if (cmp.type !== 'compare' || cmp.left.type !== 'field') return assert.fail('expected a comparison on a field');
  assert.equal(src.substr(cmp.left.offset, cmp.left.length), 'http.request.headers["x-a"][0]');
  assert.deepEqual(cmp.left.index.map((s) => src.substr(s.offset, s.length)), ['["x-a"]', '[0]']);
  assert.equal(cmp.op, 'eq');
});

test('symbolic and English operators give the same comparison', () => {
  const ops = (src: string) => { const a = parseExpression(src).ast; return a?.type === 'compare' ? a.op : undefined; };
  assert.equal(ops('cf.waf.score <= 20'), 'le');
  assert.equal(ops('cf.waf.score le 20'), 'le');
  assert.equal(ops('http.host ~ "a"'), 'matches');
  assert.equal(ops('http.host strict wildcard "a*"'), 'strict wildcard');
});

test('an unknown field suggests the nearest names, with a fix per suggestion', () => {
  const p = analyzeExpression('http.hots eq "a"').problems[0];
  assert.match(p.message, /did you mean "http.host"/);
  assert.equal(p.fixes?.[0].edits[0].newText, 'http.host');
});

test('a word named like a member of Object.prototype is no operator ("constructor" was read as the Object function)', () => {
  for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    const { problems } = analyzeExpression(`http.host ${word} "x"`);
    assert.deepEqual(problems.map((p) => [p.code, p.offset, p.length]), [['ruleset/expr-syntax', 10, word.length]], word);
  }
});

// The fix on a comparison of a whole array: "[*]" after the left side, any(...) around it when no any()/all() holds it; the
// expression it gives has no problem left.
for (const [expr, fixed] of [
  ['any(lower(http.request.headers.names[*]) == "x-api-key")', 'any(lower(http.request.headers.names[*])[*] == "x-api-key")'],
  ['lower(http.request.headers.names[*]) == "x-api-key"', 'any(lower(http.request.headers.names[*])[*] == "x-api-key")'],
  ['http.request.headers.names contains "x-" and ssl', 'any(http.request.headers.names[*] contains "x-") and ssl'],
  ['all(http.request.headers["accept"] contains "json")', 'all(http.request.headers["accept"][*] contains "json")'],
  // http.request.headers has lower-case keys on the platform
  ['any(http.request.headers["Content-Type"][*] eq "application/json")', 'any(http.request.headers["content-type"][*] eq "application/json")'],
  ['has_key(http.request.headers, "X-My-Header")', 'has_key(http.request.headers, "x-my-header")'],
  // starts_with()/ends_with() take the field first: a literal source with a field after it is the two swapped
  ['starts_with("/admin", http.request.uri.path)', 'starts_with(http.request.uri.path, "/admin")'],
  ['not ends_with(".php", lower(http.request.uri.path))', 'not ends_with(lower(http.request.uri.path), ".php")'],
] as const) {
  test(`fix: ${expr}`, () => {
    const { problems } = analyzeExpression(expr);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    const fix = problems[0].fixes?.[0];
    assert.ok(fix, 'a fix');
    const out = [...fix.edits].sort((x, y) => y.offset - x.offset).reduce<string>((s, e) => s.slice(0, e.offset) + e.newText + s.slice(e.offset + e.length), expr);
    assert.equal(out, fixed);
    assert.deepEqual(analyzeExpression(out).problems, []);
  });
}

// The Network Firewall's phases read packet fields (ip.proto, tcp.dstport, ...), the HTTP phases HTTP fields: each names the other.
test('Network Firewall phases check against the packet fields, HTTP phases against the HTTP fields', () => {
  const codes = (expr: string, phase?: string) => analyzeExpression(expr, phase).problems.map((p) => `${p.code}: ${p.message}`);
  for (const phase of ['magic_transit', 'magic_transit_managed', 'magic_transit_ratelimit', 'magic_transit_ids_managed']) {
    assert.deepEqual(codes('ip.proto eq "tcp" and tcp.dstport in {22 3389} and not tcp.flags.ack and ip.src.asnum ne 13335', phase), []);
  }
  assert.deepEqual(codes('bit_slice("udp", 64, 96) eq 0 and sip', 'magic_transit'), []);
  assert.deepEqual(codes('http.host eq "a"', 'magic_transit'),
    ['ruleset/expr-unknown-field: Unknown field "http.host" in phase magic_transit: it is an HTTP field, and this phase reads Network Firewall fields only.']);
  assert.deepEqual(codes('tcp.dstport eq 22', 'http_request_firewall_custom'),
    ['ruleset/expr-unknown-field: Unknown field "tcp.dstport" in phase http_request_firewall_custom: it is a Network Firewall field, and this phase reads HTTP fields only.']);
  assert.deepEqual(codes('tcp.dstprt eq 22', 'magic_transit'), ['ruleset/expr-unknown-field: Unknown field "tcp.dstprt"; did you mean "tcp.dstport" or "udp.dstport"?']);
  // fields of both: ip.src, cf.colo.name
  assert.deepEqual(codes('ip.src in {10.0.0.0/8} and cf.colo.name eq "sfo06"', 'magic_transit'), []);
  assert.deepEqual(codes('bit_slice("udp", 64, 72) eq 1', 'http_request_firewall_custom').map((c) => c.split(':')[0]), ['ruleset/expr-phase']);
  assert.match(codes('bit_slice("tcp", 8, 48) eq 1', 'magic_transit')[0], /slices 40 bits \(8 to 48\); a slice is at most 32 bits/);
  assert.match(codes('bit_slice("tcp", 48, 8) eq 1', 'magic_transit')[0], /the end must come after the start/);
});

// One mistake, one problem: a call mapped over "[*]" keeps its shape when its first argument is mistyped or unknown, so the
// index after it and the any() around it are not reported as well.
for (const [expr, codes] of [
  ['any(lower(http.request.headers.nams[*])[*] eq "x")', ['ruleset/expr-unknown-field']],
  ['lower(http.hots[*])[0] eq "x"', ['ruleset/expr-unknown-field']],
  ['any(lower(lower(http.hots[*])[*])[*] eq "x")', ['ruleset/expr-unknown-field']],
  ['any(lowr(http.request.headers.names[*])[*] eq "x")', ['ruleset/expr-unknown-function']],
  ['any(concat(foo[*], "a")[*] eq "x")', ['ruleset/expr-unknown-field']],
  ['has_value(http.request.headers.names[*], "x")', ['ruleset/expr-type-mismatch']],
  ['has_key(http.request.headers.names[*], "x")', ['ruleset/expr-type-mismatch']],
  ['any(ends_with(http.host, http.request.headers.names[*])[*])', ['ruleset/expr-type-mismatch']],
  ['any(lower(foo[*])[*] eq "x") and any(foo[*])', ['ruleset/expr-unknown-field', 'ruleset/expr-unknown-field']],
  ['any(http.request.headers["a"][*][*] eq "x")', ['ruleset/expr-type-mismatch']],
  ['any(http.request.headers.nams[*] eq "x")', ['ruleset/expr-unknown-field']],
  ['any(http.request.headers["a"][*][0] eq "x")', ['ruleset/expr-type-mismatch']],
  ['all(lower(http.request.headers.names[*])[*]["k"] eq "x")', ['ruleset/expr-type-mismatch']],
  ['all(not http.hots[*] contains "x")', ['ruleset/expr-unknown-field']],
  ['any(split(http.host, ",", 2)[*][*] eq "x")', ['ruleset/expr-type-mismatch']],
] as const) {
  test(`one problem: ${expr}`, () => {
    assert.deepEqual(analyzeExpression(expr).problems.map((p) => p.code), codes);
  });
}

// A whole expression that is an array of strings (a field, split(), a call mapped over "[*]") is no boolean to wrap in any():
// any() takes booleans. The message says what it is and how to compare its elements.
for (const [expr, example] of [
  ['http.request.headers.names', 'any(http.request.headers.names[*] eq "...")'],
  ['split(http.request.uri.path, "/", 8)', 'any(split(http.request.uri.path, "/", 8)[*] eq "...")'],
  ['lower(http.request.headers.names[*])', 'any(lower(http.request.headers.names[*])[*] eq "...")'],
] as const) {
  test(`an array of strings is not a boolean: ${expr}`, () => {
    const { problems } = analyzeExpression(expr);
    assert.deepEqual(problems.map((p) => [p.code, p.offset, p.length]), [['ruleset/expr-type-mismatch', 0, expr.length]]);
    assert.match(problems[0].message, /is an Array<String>, not a Boolean/);
    assert.ok(problems[0].message.includes(example), problems[0].message);
  });
}

// Elements that are arrays or maps themselves ("http.request.headers" is a Map<Array<String>>): "[*]" after the left side would
// compare each whole array again, so no fix is offered there; the message still says how to pick.
for (const expr of ['http.request.headers eq "x"', 'any(http.request.uri.args contains "x")', 'http.request.body.multipart.names eq "a"']) {
  test(`no "[*]" fix where the elements are collections: ${expr}`, () => {
    const { problems } = analyzeExpression(expr);
    assert.deepEqual(problems.map((p) => p.code), ['ruleset/expr-type-mismatch']);
    assert.equal(problems[0].fixes, undefined);
  });
}
