// What the functions reference asks of an argument beyond its type, and where a function may be called, each with the sentence that
// says so: cloudflare/cloudflare-docs src/content/docs/ruleset-engine/rules-language/functions.mdx (commit 12cd7d04, the stored
// version with join() and split(); 5d2cc64b, older, says the same of every function both have). The signature table (catalog.ts
// FUNCTIONS, `args` and `phases`) must hold exactly these rules: one the docs do not state fails here, and so does a stated one that
// the table lost. Each rule is also checked in use, so a rule declared but not enforced fails too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FUNCTIONS, TRANSFORM } from '../../../server/src/core/rules/ruleset/catalog';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';

/** [function, 0-based argument, the docs' sentence]: the argument must be a field (a function of one passes), not a literal. */
const FIELD_ARGS: readonly (readonly [string, number, string])[] = [
  ['cidr', 0, 'The `address` parameter must be a field, that is, it cannot be a literal String.'],
  ['cidr6', 0, 'The `address` parameter must be a field, that is, it cannot be a literal String.'],
  ['decode_base64', 0, '`source` must be a field, that is, it cannot be a literal String.'],
  ['ends_with', 0, 'The source cannot be a literal value (like `"foo"`).'],
  ['starts_with', 0, 'The source cannot be a literal value (like `"foo"`).'],
  ['url_decode', 0, 'The `source` must be a field, that is, it cannot be a literal string.'],
  ['wildcard_replace', 0, 'The `source` parameter must be a field (it cannot be a literal string).'],
  ['remove_query_args', 0, 'The `field` must be one of the following: http.request.uri.query, raw.http.request.uri.query. The `field` cannot be a literal value'],
  // the signature block of the HMAC section sets "field" against "literal" argument by argument; a call of fields (the reference's
  // own concat() example) is no literal, so it passes
  ['is_timed_hmac_valid_v0', 1, '<String field as MessageMAC>'],
];

/** [function, 0-based argument, the docs' words]: the argument must be a literal written in the expression. */
const LITERAL_ARGS: readonly (readonly [string, number, string])[] = [
  ['url_decode', 1, 'You must provide any options as a single string wrapped in quotes, such as `"r"` or `"ur"`.'],
  ['split', 1, 'The `separator` must be a non-empty literal string.'],
  ['split', 2, 'The `limit` is mandatory, and it must be a literal integer between 1 and 128.'],
  ['is_timed_hmac_valid_v0', 0, '<String literal as Key>'],
  ['is_timed_hmac_valid_v0', 2, '<Integer literal as ttl>'],
  ['is_timed_hmac_valid_v0', 4, '<Optional Integer literal as lengthOfSeparator, default: 0>'],
  ['is_timed_hmac_valid_v0', 5, '<Optional String literal as flags>'],
];

const declared = (kind: 'field' | 'literal') => [...FUNCTIONS.values()]
  .flatMap((f) => (f.args ?? []).map((a, k) => (a?.kind === kind ? `${f.name}#${k}` : undefined)).filter((x) => x !== undefined)).sort();

test('the arguments the table requires to be a field are exactly the ones the reference names, each with its sentence', () => {
  assert.deepEqual(declared('field'), FIELD_ARGS.map(([f, k]) => `${f}#${k}`).sort());
  assert.deepEqual(declared('literal'), LITERAL_ARGS.map(([f, k]) => `${f}#${k}`).sort());
  for (const [, , cite] of [...FIELD_ARGS, ...LITERAL_ARGS]) assert.ok(cite.length > 20);
});

/** A call of fn in a phase that offers it, with a literal (or, for a literal argument, a field) at argument k. */
const CALLS: Record<string, (arg: (k: number, normal: string) => string) => [string, string]> = {
  cidr: (a) => [`cidr(${a(0, 'ip.src')}, 24, 24) eq 192.0.2.0`, 'http_request_firewall_custom'],
  cidr6: (a) => [`cidr6(${a(0, 'ip.src')}, 24) eq ::`, 'http_ratelimit'],
  decode_base64: (a) => [`decode_base64(${a(0, 'http.request.uri.query')}) eq "a"`, 'http_request_firewall_custom'],
  ends_with: (a) => [`ends_with(${a(0, 'http.host')}, ".com")`, 'http_request_firewall_custom'],
  starts_with: (a) => [`starts_with(${a(0, 'http.host')}, "www.")`, 'http_request_firewall_custom'],
  url_decode: (a) => [`url_decode(${a(0, 'http.request.uri.path')}, ${a(1, '"r"')}) eq "/a b"`, 'http_request_firewall_custom'],
  wildcard_replace: (a) => [`wildcard_replace(${a(0, 'http.request.uri.path')}, "/*", "/x/\${1}") eq "/x/a"`, 'http_request_transform'],
  remove_query_args: (a) => [`remove_query_args(${a(0, 'http.request.uri.query')}, "utm") eq ""`, 'http_request_transform'],
  split: (a) => [`split(http.host, ${a(1, '"."')}, ${a(2, '2')})[0] eq "www"`, 'http_response_headers_transform'],
  is_timed_hmac_valid_v0: (a) => [`is_timed_hmac_valid_v0(${a(0, '"key"')}, ${a(1, 'http.request.uri')}, ${a(2, '100000')}, http.request.timestamp.sec, ${a(4, '8')}, ${a(5, '"s"')})`, 'http_request_firewall_custom'],
};

test('each such rule is enforced: the documented form is clean, the other one reported on that argument', () => {
  const codes = (expr: string, phase: string) => analyzeExpression(expr, phase).problems.map((p) => p.code);
  // a literal where a field goes (an IP one for cidr's IP address); a field of the argument's type where a literal goes
  const literalFor = (fn: string) => (fn.startsWith('cidr') ? '192.0.2.1' : '"literal"');
  const fieldFor = (normal: string) => (normal.startsWith('"') ? 'http.host' : 'http.request.timestamp.msec');
  for (const [list, field] of [[FIELD_ARGS, true], [LITERAL_ARGS, false]] as const) {
    for (const [fn, k] of list) {
      const make = CALLS[fn];
      assert.ok(make, `a call of ${fn}() to try`);
      const [good, phase] = make((_, normal) => normal);
      assert.deepEqual(codes(good, phase), [], good);
      const [bad] = make((j, normal) => (j !== k ? normal : field ? literalFor(fn) : fieldFor(normal)));
      assert.ok(codes(bad, phase).includes('ruleset/expr-argument-value'), `${bad}: ${codes(bad, phase).join(', ')}`);
    }
  }
});

test('functions the reference offers in some rules only carry those phases (to_string, join)', () => {
  const codes = (expr: string, phase: string) => analyzeExpression(expr, phase).problems.map((p) => p.code);
  // "You can only use the `to_string()` function in rewrite expressions of Transform Rules and target URL expressions of dynamic
  // URL redirects." (both stored versions). "The `join()` function is only available in Transform Rules, custom rules, and Custom
  // Error Rules." A custom rule calling to_string() or a rate limiting rule calling join() was accepted.
  // The Bulk Redirects fields page (http_request_redirect) tells its readers to use to_string() as well ("Use the to_string()
  // function to get the string representation of a non-string value"), so that phase takes it too.
  assert.deepEqual([...(FUNCTIONS.get('to_string')?.phases ?? [])].sort(), [...TRANSFORM, 'http_request_dynamic_redirect', 'http_request_redirect'].sort());
  assert.deepEqual(codes('to_string(ip.src.asnum) eq "13335"', 'http_request_redirect'), []);
  assert.deepEqual([...(FUNCTIONS.get('join')?.phases ?? [])].sort(), [...TRANSFORM, 'http_request_firewall_custom', 'http_custom_errors'].sort());
  assert.deepEqual(codes('to_string(ip.src.asnum) eq "13335"', 'http_request_firewall_custom'), ['ruleset/expr-phase']);
  assert.deepEqual(codes('to_string(ip.src.asnum) eq "13335"', 'http_request_late_transform'), []);
  assert.deepEqual(codes('join(http.request.headers.names, ",") eq "a"', 'http_ratelimit'), ['ruleset/expr-phase']);
  assert.deepEqual(codes('join(http.request.headers.names, ",") eq "a"', 'http_custom_errors'), []);
});

test('every function with a phase list has the reference\'s sentence for it, and no other function is limited', () => {
  const T = ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'];
  const CUSTOM = 'http_request_firewall_custom', RATE = 'http_ratelimit', DYN = 'http_request_dynamic_redirect';
  const NETWORK = ['magic_transit', 'magic_transit_managed', 'magic_transit_ratelimit', 'magic_transit_ids_managed'];
  const CITED: Record<string, [string[], string]> = {
    cidr: [[CUSTOM, RATE], 'You can only use the `cidr()` function in custom rules and rate limiting rules.'],
    cidr6: [[CUSTOM, RATE], 'You can only use the `cidr6()` function in custom rules and rate limiting rules.'],
    decode_base64: [[...T, CUSTOM, RATE], 'You can only use the `decode_base64()` function in Transform Rules, custom rules, and rate limiting rules.'],
    join: [[...T, CUSTOM, 'http_custom_errors'], 'The `join()` function is only available in Transform Rules, custom rules, and Custom Error Rules.'],
    regex_replace: [[...T, DYN], 'only available in rewrite expressions of Transform Rules and target URL expressions of dynamic URL redirects.'],
    remove_query_args: [T, 'You can only use the `remove_query_args()` function in rewrite expressions of Transform Rules.'],
    // and a cache response rule's tags: terraform-provider-cloudflare's acceptance test TestAccCloudflareRuleset_SetCacheTagsRules/2.tf
    split: [['http_response_headers_transform', 'http_custom_errors', 'http_response_cache_settings'], 'only available in response header transform rules and Custom Error Rules.'],
    to_string: [[...T, DYN, 'http_request_redirect'], 'rewrite expressions of Transform Rules and target URL expressions of dynamic URL redirects (and the Bulk Redirects fields page).'],
    uuidv4: [T, 'You can only use the `uuidv4()` function in rewrite expressions of Transform Rules.'],
    // the reference names URL rewrites only; kept in all transform phases (docs/architecture.md, catalogue review)
    wildcard_replace: [[...T, DYN], 'only use the `wildcard_replace()` function in rewrite expressions of URL rewrites and target URL expressions of dynamic URL redirects.'],
    bit_slice: [NETWORK, 'Magic Firewall Functions (Network Firewall phases).'],
    // the HMAC validation function: WAF custom rules ("Configure token authentication" in the WAF docs)
    is_timed_hmac_valid_v0: [[CUSTOM], 'For examples of rules that use HMAC validation, refer to Configure token authentication in the WAF documentation.'],
  };
  const limited = [...FUNCTIONS.values()].filter((f) => f.phases).map((f) => f.name).sort();
  assert.deepEqual(limited, Object.keys(CITED).sort());
  for (const [name, [phases]] of Object.entries(CITED)) assert.deepEqual([...FUNCTIONS.get(name)!.phases!].sort(), [...phases].sort(), name);
});

test('concat() takes 2 to 32 arguments (changelog 2026-09-22: "up to 32 arguments, increased from 16")', () => {
  const call = (n: number) => `concat(${Array.from({ length: n }, (_, k) => `"${k}"`).join(', ')}) eq "x"`;
  assert.deepEqual(analyzeExpression(call(32), 'http_request_late_transform').problems, []);
  const problems = analyzeExpression(call(33), 'http_request_late_transform').problems;
  assert.deepEqual(problems.map((p) => [p.code, p.message]), [['ruleset/expr-arguments', 'concat() takes 2 to 32 arguments, not 33.']]);
  assert.equal(analyzeExpression(call(1), 'http_request_late_transform').problems[0]?.message, 'concat() takes 2 to 32 arguments, not 1.');
});

test('concat() takes strings, bytes or arrays, not an Integer: the current reference\'s example passes, the old one\'s Integer is reported', () => {
  // functions.mdx at 12cd7d04: `concat(<Type text="String | Bytes | Array" />)`, "For example, `concat("String1", " ", "String", "2")`
  // will return "String1 String2""; at 5d2cc64b (older) the type had Integer and the example the Integer 2. The 2026-09-22 changelog
  // converts with to_string() (`";asn=", to_string(ip.src.asnum)`), and wirefilter's concat takes arrays or byte strings only.
  // docs/rules-language-functions.md, "concat() takes no Integer".
  const problems = (expr: string) => analyzeExpression(expr, 'http_request_late_transform').problems.map((p) => [p.code, p.message]);
  assert.deepEqual(problems('concat("String1", " ", "String", "2") eq "String1 String2"'), []);
  assert.deepEqual(problems('concat("ip=", to_string(ip.src), ";asn=", to_string(ip.src.asnum)) eq "x"'), []);
  assert.deepEqual(problems('concat("String1", " ", "String", 2) eq "String1 String2"'),
    [['ruleset/expr-type-mismatch', 'Argument 4 of concat() must be a string, bytes or an array, not an Integer.']]);
});

test('a message on an argument names it as the reference does, with the function and what it must be', () => {
  const messages = (expr: string, phase = 'http_request_firewall_custom') => analyzeExpression(expr, phase).problems.map((p) => p.message);
  assert.deepEqual(messages('url_decode(http.request.uri.path, http.host) eq "/"'),
    ['Argument 2 (options) of url_decode() must be a literal value written in the expression, not a field or an expression.']);
  assert.deepEqual(messages('is_timed_hmac_valid_v0("key", "/download/cat.jpg?verify=1484063787-IaLG", 100000, http.request.timestamp.sec, 8)'),
    ['Argument 2 (MessageMAC) of is_timed_hmac_valid_v0() must be a field (or a function of one), not a literal value; the platform refuses a literal here.']);
  // the reference's own example of a MessageMAC built with concat() passes
  assert.deepEqual(messages('is_timed_hmac_valid_v0("mysecretkey", concat(http.request.uri, http.request.headers["timestamp"][0], "-", http.request.headers["mac"][0]), 100000, http.request.timestamp.sec, 0)'), []);
  assert.deepEqual(messages('cidr(ip.src, 33, 64) eq 10.0.0.0'), ['Argument 2 (ipv4_network_bits) of cidr() is 33; it must be between 1 and 32.']);
  // every argument with a rule carries the reference's name for it
  for (const f of FUNCTIONS.values()) for (const [k, a] of (f.args ?? []).entries()) if (a) assert.ok(a.name, `${f.name}#${k}`);
});
