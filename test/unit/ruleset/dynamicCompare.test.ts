// Comparisons of two fields or function results (changelog 2026-10-01 "Compare dynamic values"): the parser reads a field or a call
// on the right of eq, ne, lt, le, gt and ge, the checker types both sides, and the rest of the expression is checked as usual.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { codeInfo, type Code } from '../../../server/src/core/codes';

const codes = (src: string, phase?: string) => analyzeExpression(src, phase).problems.map((p) => p.code);
const errors = (src: string, phase?: string) => analyzeExpression(src, phase).problems.filter((p) => codeInfo(p.code as Code).severity === 'error');
const at = (src: string, p: { offset: number; length: number }) => src.slice(p.offset, p.offset + p.length);

test('the platform\'s examples parse and check clean, and the right side is a field or call node', () => {
  for (const src of [
    'http.request.uri.path ne raw.http.request.uri.path', // the changelog's example
    'len(http.request.uri.path) gt len(http.request.uri.query)',
    'http.request.uri.args["first"][0] eq http.request.uri.args["second"][0]',
    'coalesce(http.request.uri.args["first"][0], "") eq http.request.uri.args["second"][0]',
    'lower(http.host) eq http.host', 'http.host == lower(http.host)', 'cf.waf.score < cf.bot_management.score',
    'ip.src eq ip.src', 'ip.src != cf.edge.server_ip', 'http.host >= http.referer',
    'http.request.uri.path eq coalesce(http.request.uri.args["expected_path"][0], "/")',
  ]) {
    assert.deepEqual(codes(src, 'http_request_firewall_custom'), [], src);
  }
  const { ast } = analyzeExpression('http.host eq lower(http.referer)');
  assert.equal(ast?.type, 'compare');
  if (ast?.type === 'compare') assert.equal(ast.right.type, 'call');
  const f = analyzeExpression('http.host ne http.request.headers["host"][0]').ast;
  if (f?.type !== 'compare' || f.right.type !== 'field') assert.fail(JSON.stringify(f));
  assert.equal(f.right.name, 'http.request.headers');
  assert.equal(f.right.index.length, 2);
});

test('the rest of the expression is parsed and checked: a problem after a dynamic comparison is reported', () => {
  const src = 'http.host eq http.referer and http.hots eq "a"';
  const [p, ...rest] = analyzeExpression(src).problems;
  assert.equal(rest.length, 0);
  assert.equal(p.code, 'ruleset/expr-unknown-field');
  assert.equal(at(src, p), 'http.hots');
  // and the problems inside the right-hand call, the same as on the left
  assert.deepEqual(codes('http.host eq lower(http.referer, 1)'), codes('lower(http.referer, 1) eq "a"'));
  assert.ok(codes('http.host eq lower(http.referer, 1)').includes('ruleset/expr-arguments'));
});

test('contains, matches, wildcard, strict wildcard and in take a literal only: an error naming the operator', () => {
  for (const [src, op] of [['http.host contains http.referer', 'contains'], ['http.host matches http.referer', 'matches'], ['http.host ~ http.referer', '~'],
    ['http.host wildcard http.referer', 'wildcard'], ['http.host strict wildcard http.referer', 'strict wildcard'], ['http.host in http.referer', 'in'],
    ['http.host contains lower(http.referer)', 'contains']] as const) {
    const e = errors(src);
    assert.equal(e.length, 1, `${src}: ${JSON.stringify(e)}`);
    assert.equal(e[0].code, 'ruleset/expr-syntax');
    assert.ok(e[0].message.includes(`"${op}"`) && /eq, ne, lt, le, gt (and|or) ge/.test(e[0].message), e[0].message);
  }
});

test('both sides of one type: a mismatch names both sides and both types, on the right side', () => {
  const src = 'http.host eq cf.waf.score';
  const e = errors(src);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.equal(e[0].code, 'ruleset/expr-type-mismatch');
  assert.equal(at(src, e[0]), 'cf.waf.score');
  assert.ok(e[0].message.includes('"http.host" (String)') && e[0].message.includes('field "cf.waf.score" (Integer)'), e[0].message);
  const ip = 'ip.src eq http.host';
  assert.ok(errors(ip)[0].message.includes('(IP)') && errors(ip)[0].message.includes('(String)'), errors(ip)[0].message);
  const call = 'len(http.host) eq lower(http.host)';
  assert.ok(errors(call)[0].message.includes('len() (Integer)') && errors(call)[0].message.includes('lower() (String)'), errors(call)[0].message);
  // Bytes and String compare with each other, as a string literal with a Bytes field does
  assert.deepEqual(codes('cf.random_seed eq http.host'), []);
  assert.deepEqual(codes('http.host lt cf.random_seed'), []);
  // A Boolean on the right of a non-Boolean
  assert.equal(errors('http.host eq ssl')[0]?.code, 'ruleset/expr-type-mismatch');
  // An array or a map on the right: pick an element
  const arr = errors('http.host eq http.request.headers.names');
  assert.equal(arr.length, 1);
  assert.ok(arr[0].message.includes('[0]') && arr[0].message.includes('Array<String>'), arr[0].message);
});

test('ordering: not on IP (as for literals), not on a Boolean; String and Integer take it', () => {
  const src = 'ip.src lt cf.edge.server_ip';
  const e = errors(src);
  assert.equal(e.length, 1, JSON.stringify(e));
  assert.equal(e[0].code, 'ruleset/expr-type-mismatch');
  assert.equal(at(src, e[0]), 'lt');
  assert.deepEqual(codes('http.host lt http.referer'), []);
  assert.deepEqual(codes('cf.waf.score ge cf.bot_management.score'), []);
  // A Boolean on the left takes no operator at all (wirefilter's IsTrue), whatever the right side
  assert.equal(errors('ssl eq ssl')[0]?.code, 'ruleset/expr-type-mismatch');
});

test('unknown fields and functions on the right are reported; phase rules apply to both sides', () => {
  const src = 'http.host eq http.referr[0]';
  const [p] = errors(src);
  assert.equal(p.code, 'ruleset/expr-unknown-field');
  assert.equal(at(src, p), 'http.referr');
  assert.deepEqual(codes('http.host eq lowr(http.referer)'), ['ruleset/expr-unknown-function']);
  // A response field in a request phase, on either side
  const resp = 'http.host eq http.response.headers["x"][0]';
  assert.deepEqual(codes(resp, 'http_request_firewall_custom'), ['ruleset/expr-phase']);
  assert.deepEqual(codes('http.response.headers["x"][0] eq http.host', 'http_request_firewall_custom'), ['ruleset/expr-phase']);
  // A deprecated field on the right keeps its fix
  const dep = analyzeExpression('ip.src.country eq ip.geoip.country').problems;
  assert.deepEqual(dep.map((q) => q.code), ['ruleset/expr-deprecated-field']);
  // An unknown bare word is still most likely a string without its quotes
  assert.equal(analyzeExpression('http.host eq example').problems[0].fixes?.[0].edits[0].newText, '"example"');
});

test('"[*]" on one side gives one boolean per element (any()/all() as for literals); on both sides a warning that EdgeKit does not pair them', () => {
  assert.deepEqual(codes('any(http.request.headers.names[*] eq http.host)'), []);
  assert.deepEqual(codes('any(http.host eq http.request.headers.names[*])'), []);
  assert.deepEqual(codes('http.host eq http.request.headers.names[*]'), ['ruleset/expr-array-result']);
  assert.deepEqual(codes('http.request.headers.names[*] eq http.host'), ['ruleset/expr-array-result']);
  const both = 'any(http.request.headers.names[*] eq http.request.uri.args.names[*])';
  const p = analyzeExpression(both).problems;
  assert.deepEqual(p.map((q) => q.code), ['ruleset/expr-compare-fields']);
  assert.equal(codeInfo('ruleset/expr-compare-fields').severity, 'warning');
  assert.ok(p[0].message.includes('"[*]" on both sides'), p[0].message);
});

test('a known field whose type the catalogue does not give, or a field of the other catalogue, on the right is still a field, not a string without quotes', () => {
  // cf.edge.client_port: accepted but not type-checked (no type in the docs)
  assert.deepEqual(codes('cf.edge.server_port eq cf.edge.client_port'), []);
  // an HTTP field in a Network Firewall phase: the checker's message for it, as on the left
  const [p] = errors('tcp.dstport eq http.host', 'magic_transit');
  assert.equal(p?.code, 'ruleset/expr-unknown-field');
  assert.ok(p.message.includes('in phase magic_transit'), p.message);
});

test('an array on the right: the fix compares every element, as for an array on the left (all() first after "ne")', () => {
  const apply = (src: string, edits: { offset: number; length: number; newText: string }[]) =>
    [...edits].sort((a, b) => b.offset - a.offset).reduce((s, e) => s.slice(0, e.offset) + e.newText + s.slice(e.offset + e.length), src);
  const src = 'http.host eq http.request.headers.names';
  const [p] = errors(src);
  assert.deepEqual(p.fixes?.map((f) => apply(src, f.edits)), ['any(http.host eq http.request.headers.names[*])']);
  assert.deepEqual(codes(apply(src, p.fixes![0].edits)), []);
  const ne = 'http.host ne http.request.headers.names';
  assert.deepEqual(errors(ne)[0].fixes?.map((f) => [apply(ne, f.edits), f.preferred]), [
    ['all(http.host ne http.request.headers.names[*])', true], ['any(http.host ne http.request.headers.names[*])', false]]);
  // inside any() already: "[*]" alone
  const inner = 'any(http.request.uri.args.names[*] eq "a") and http.host eq http.request.headers.names';
  assert.equal(errors(inner)[0].fixes?.length, 1);
  const within = 'any(http.host eq http.request.headers.names)';
  assert.deepEqual(errors(within)[0].fixes?.map((f) => apply(within, f.edits)), ['any(http.host eq http.request.headers.names[*])']);
  // with "[*]" on the left already, no fix: "[*]" on both sides is not evaluated
  assert.equal(errors('any(http.request.uri.args.names[*] eq http.request.headers.names)')[0].fixes, undefined);
});

test('a misspelt field on the right (a bare word near a field\'s name): the error offers the field first, then the quotes', () => {
  const src = 'http.host eq http.referr';
  const [p, ...rest] = analyzeExpression(src).problems;
  assert.equal(rest.length, 0);
  assert.equal(p.code, 'ruleset/expr-syntax');
  assert.equal(at(src, p), 'http.referr');
  assert.ok(p.message.includes('did you mean the field "http.referer"'), p.message);
  assert.deepEqual(p.fixes?.map((f) => [f.edits[0].newText, !!f.preferred]), [['http.referer', true], ['"http.referr"', false]]);
  // After an operator that takes a literal only, no field is offered
  assert.deepEqual(analyzeExpression('http.host contains http.referr').problems[0].fixes?.map((f) => f.edits[0].newText), ['"http.referr"']);
  // A word near no field keeps the quoting fix alone
  assert.deepEqual(analyzeExpression('http.host eq example.com').problems[0].fixes?.map((f) => [f.edits[0].newText, !!f.preferred]), [['"example.com"', true]]);
});

test('"[*]" on both sides of two types: the type mismatch is reported too', () => {
  const src = 'any(http.request.headers.names[*] eq cf.bot_management.detection_ids[*])';
  assert.deepEqual(codes(src), ['ruleset/expr-compare-fields', 'ruleset/expr-type-mismatch']);
});

test('every field name of both catalogues on the right of a String field is read as that field, never as an unquoted byte string', async () => {
  const { parseExpression } = await import('../../../server/src/core/rules/ruleset/exprParser');
  const { fieldNames } = await import('../../../server/src/core/rules/ruleset/exprCheck');
  const { fieldCatalogue, otherCatalogue } = await import('../../../server/src/core/rules/ruleset/catalog');
  const own = fieldCatalogue();
  const names = [...own.names, ...otherCatalogue(own).names];
  assert.ok(names.length > 200);
  const wrong = names.filter((name) => {
    const { ast } = parseExpression(`http.host eq ${name}`, () => 'textual', fieldNames());
    return ast?.type !== 'compare' || ast.right.type !== 'field' || ast.right.name !== name;
  });
  assert.deepEqual(wrong, []);
});
