// wirefilter conformance: each row of wirefilterConformance.data.ts is an expression from wirefilter's own tests with wirefilter's
// verdict; the checker's verdict (accepted: no error-severity problem) must be the same, or the row says why it differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { codeInfo } from '../../../server/src/core/codes';
import { ROWS } from './wirefilterConformance.data';

function verdict(expr: string, phase: string): { accepted: boolean; errors: string[] } {
  const errors = analyzeExpression(expr, phase).problems.filter((p) => codeInfo(p.code).severity === 'error').map((p) => `${p.code}: ${p.message}`);
  return { accepted: errors.length === 0, errors };
}

test('every row of the wirefilter conformance table gets wirefilter\'s verdict, or names its divergence', () => {
  const wrong: string[] = [];
  for (const row of ROWS) {
    const { accepted, errors } = verdict(row.expr, row.phase ?? 'http_request_firewall_custom');
    const expected = (row.wirefilter === 'accepted') !== !!row.divergence;
    if (accepted !== expected) {
      wrong.push(`${row.from}: ${JSON.stringify(row.expr.length > 120 ? row.expr.slice(0, 120) + '…' : row.expr)}: wirefilter ${row.wirefilter}${row.divergence ? ' (divergence)' : ''}, EdgeKit ${accepted ? 'accepted' : `refused (${errors.join(' | ').slice(0, 300)})`}`);
    }
  }
  assert.deepEqual(wrong, [], `${wrong.length} of ${ROWS.length} rows differ:\n${wrong.join('\n')}`);
});

test('the conformance table has no row twice and every divergence gives its reason', () => {
  const seen = new Set<string>();
  for (const row of ROWS) {
    const key = `${row.phase ?? ''}\u0000${row.expr}`;
    assert.ok(!seen.has(key), `twice: ${row.expr}`);
    seen.add(key);
    if (row.divergence !== undefined) assert.ok(row.divergence.length > 20, `a divergence without its reason: ${row.expr}`);
  }
});

const applyFix = (src: string, edits: { offset: number; length: number; newText: string }[]): string => {
  let out = src;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  return out;
};

test('a field-led argument of any() ends after its comparison: "and" there is refused, and the fix puts the condition in parentheses', () => {
  const src = 'any(http.request.headers.names[*] eq "x" and http.request.headers.values[*] eq "y") and ssl';
  const [p, ...rest] = analyzeExpression(src).problems;
  assert.equal(rest.length, 0);
  assert.equal(p.code, 'ruleset/expr-syntax');
  assert.equal(src.slice(p.offset, p.offset + p.length), 'and');
  const fixed = applyFix(src, p.fixes![0].edits);
  assert.equal(fixed, 'any((http.request.headers.names[*] eq "x" and http.request.headers.values[*] eq "y")) and ssl');
  assert.deepEqual(analyzeExpression(fixed).problems, []);
});

test('an argument led by any() or all() is a call like any other (FunctionCallArgExpr::lex_with has no case for them): its comparison ends it', () => {
  const src = 'to_string(any(http.request.headers.names[*] eq "a") and ssl) eq "true"';
  const [p, ...rest] = analyzeExpression(src, 'http_request_transform').problems;
  assert.deepEqual(rest, []);
  assert.equal(p?.code, 'ruleset/expr-syntax');
  assert.equal(src.slice(p.offset, p.offset + p.length), 'and');
  const fixed = applyFix(src, p.fixes![0].edits);
  assert.equal(fixed, 'to_string((any(http.request.headers.names[*] eq "a") and ssl)) eq "true"');
  assert.deepEqual(analyzeExpression(fixed, 'http_request_transform').problems, []);
});

test('a field-led argument of any() that joins a "[*]" comparison with a condition on the whole request: the fix closes any() after the "[*]" comparison, as parentheses would give a type error', () => {
  const cases: [string, string][] = [
    ['any(http.request.headers.names[*] eq "x" and ssl)', 'any(http.request.headers.names[*] eq "x") and ssl'],
    ['all(http.request.headers.names[*] ne "x" or not ssl or cf.bot_management.score lt 30 )', 'all(http.request.headers.names[*] ne "x") or not ssl or cf.bot_management.score lt 30 '],
    ['not any(lower(http.request.headers.names[*])[*] contains "a" and http.host eq "a")', 'not any(lower(http.request.headers.names[*])[*] contains "a") and http.host eq "a"'],
  ];
  for (const [src, want] of cases) {
    const problems = analyzeExpression(src).problems;
    assert.deepEqual(problems.map((p) => p.code), ['ruleset/expr-syntax'], src);
    const [p] = problems;
    assert.match(p.message, /close (any|all)\(\) after the comparison with "\[\*\]"/, src);
    assert.equal(p.fixes?.length, 1, src);
    const fixed = applyFix(src, p.fixes![0].edits);
    assert.equal(fixed, want);
    assert.deepEqual(analyzeExpression(fixed).problems, [], fixed);
  }
  // Mixed the other way round ("ssl" first is a field-led argument of its own): no fix, as neither edit is sure; the message says why
  const src = 'any(http.host eq "a" and http.request.headers.names[*] eq "x")';
  const [p, ...rest] = analyzeExpression(src).problems;
  assert.equal(rest.length, 0);
  assert.equal(p.code, 'ruleset/expr-syntax');
  assert.equal(p.fixes, undefined);
  assert.match(p.message, /keep any\(\) around the comparisons with "\[\*\]"/);
});

test('an operator word at the start of a longer word is read as the operator, as wirefilter does; a problem after it says so', () => {
  // Accepted as the platform reads them, with a warning on the joined word whose fix writes the space (a word such as "notssl" is
  // more often a typo than a choice)
  const joined: [string, string, number, string][] = [
    ['notssl', 'notssl', 3, 'not ssl'], ['ssl andssl', 'andssl', 7, 'and ssl'], ['ssl orssl', 'orssl', 6, 'or ssl'],
    ['ssl xorssl', 'xorssl', 7, 'xor ssl'], ['cf.edge.server_port eq80', 'eq80', 22, 'eq 80'], ['not notssl', 'notssl', 7, 'not ssl'],
  ];
  for (const [src, word, at, read] of joined) {
    const problems = analyzeExpression(src).problems;
    assert.deepEqual(problems.map((p) => p.code), ['ruleset/expr-joined-word'], src);
    const [w] = problems;
    assert.equal(src.slice(w.offset, w.offset + w.length), word, src);
    assert.match(w.message, new RegExp(`reads "${word}" as "${read}"`), src);
    assert.deepEqual(w.fixes?.map((f) => f.edits), [[{ offset: at, length: 0, newText: ' ' }]], src);
    assert.equal(w.fixes?.[0].preferred, true);
    const fixed = src.slice(0, at) + ' ' + src.slice(at);
    assert.deepEqual(analyzeExpression(fixed).problems, [], `${src} fixed: ${fixed}`);
  }
  assert.deepEqual(analyzeExpression('http.host contains"a"').problems, [], 'no word is split');
  // A problem right after the split says how the word was read, and no warning is added beside it
  const oregon = analyzeExpression('ssl oregon').problems;
  assert.equal(oregon.length, 1);
  const [p] = oregon;
  assert.equal(p.code, 'ruleset/expr-unknown-field');
  assert.equal(p.offset, 6);
  assert.match(p.message, /reads "oregon" as "or egon"/);
});

test('a wildcard escapes "*" and a backslash only (the wildcard crate): "\\b" or a trailing backslash is refused, naming it', () => {
  const bad = (src: string) => analyzeExpression(src).problems.filter((p) => p.code === 'ruleset/expr-invalid-wildcard');
  assert.match(bad(String.raw`http.host wildcard r"*foo\bar*"`)[0].message, /"\\b"/);
  assert.match(bad(String.raw`http.host strict wildcard r"a\"`)[0].message, /lone backslash/);
  assert.deepEqual(bad(String.raw`http.host wildcard r"a\*b\\c*"`), []);
});

test('an IP range is two addresses of one family: a CIDR end or IPv4..IPv6 is an error naming it', () => {
  for (const [src, re] of [['ip.src in {10.0.0.0..::1}', /IPv4 to an IPv6/], ['ip.src in {::1..10.0.0.0}', /IPv6 to an IPv4/],
    ['ip.src in {10.0.0.0/8..10.1.0.0}', /10\.0\.0\.0\/8 cannot be an end/]] as const) {
    const errs = analyzeExpression(src).problems;
    assert.equal(errs.length, 1, src);
    assert.match(errs[0].message, re, src);
  }
});

test('a raw string opened with hundreds of "#" and no quote is one problem, not one per "#"', () => {
  for (const [n, re] of [[300, /300 "#"; the platform takes at most 255/], [3, /expected a double quote after "r###"/]] as const) {
    const src = `http.host eq r${'#'.repeat(n)}abc`;
    const problems = analyzeExpression(src).problems;
    assert.equal(problems.length, 1, `${n}: ${problems.length} problems`);
    assert.match(problems[0].message, re);
    assert.equal(problems[0].offset, 13);
  }
  const run = analyzeExpression(`http.host eq "a" ${'#'.repeat(40)}`).problems;
  assert.equal(run.length, 1);
  assert.match(run[0].message, /40 times/);
});

test('after a Boolean no operator word is read off the front of a word (wirefilter reads no operator there): one error at the word, saying why', () => {
  for (const [src, word, left] of [['ssl eq80', 'eq80', 'Field "ssl" is'], ['ssl eqfoo', 'eqfoo', 'Field "ssl" is'], ['starts_with(http.host, "a") eqtrue', 'eqtrue', 'starts_with(http.host, "a") gives']] as const) {
    const problems = analyzeExpression(src).problems;
    assert.equal(problems.length, 1, `${src}: ${JSON.stringify(problems)}`);
    const [p] = problems;
    assert.equal(src.slice(p.offset, p.offset + p.length), word, src);
    assert.ok(p.message.startsWith(`${left} a Boolean and takes no operator, so the platform refuses "${word}"`), p.message);
    assert.ok(!p.message.includes('reads "'), `no joined-word reading: ${p.message}`);
  }
  // a logical operator word is still read off the front after a Boolean (lex_combining_op), and a whole operator keeps its fix
  assert.deepEqual(analyzeExpression('ssl andssl').problems.map((p) => p.code), ['ruleset/expr-joined-word']);
  const [p] = analyzeExpression('ssl eq true').problems;
  assert.equal(p.code, 'ruleset/expr-type-mismatch');
  assert.equal(p.fixes?.[0].edits[0].newText, 'ssl');
});

test('a field or a function on the right-hand side (the platform since 2026-10-01, not wirefilter af1a1e96): checked as a comparison of two values, no quoting fix; after contains an error naming the operator', () => {
  for (const src of ['http.host eq http.referer', 'cf.edge.server_port lt cf.waf.score', 'http.host eq lower(http.referer)']) {
    assert.deepEqual(analyzeExpression(src).problems, [], src);
  }
  const [c] = analyzeExpression('http.host contains http.referer').problems;
  assert.ok(c.message.includes('"contains" takes a literal value only'), c.message);
  // an unknown word is still most likely a string without its quotes
  assert.equal(analyzeExpression('http.host eq example').problems[0].fixes?.[0].edits[0].newText, '"example"');
});
