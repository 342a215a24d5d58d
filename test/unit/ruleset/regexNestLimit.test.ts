// Rust regex's nest limit, which wirefilter keeps (regex-automata's syntax Config, nest_limit 250): regex-syntax's NestLimiter
// (ast/parse.rs) counts a level for each group, repetition, alternation, concatenation and bracketed class on the way down, and a
// pattern deeper than 250 is refused ("exceed the maximum number of nested parentheses/brackets (250)"). The depths below are read
// from that visitor: (?:x) is Group(Literal), 1 deep; (?:ab) is Group(Concat), 2; (?:a)+ is Repetition(Group(Literal)), 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rustRegexRefusal, regexNestDepth } from '../../../server/src/core/rules/ruleset/rustRegex';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';

const nested = (n: number, inner = 'a') => '(?:'.repeat(n) + inner + ')'.repeat(n);

test('the nest depth as regex-syntax counts it', () => {
  assert.equal(regexNestDepth('a'), 0);
  assert.equal(regexNestDepth('ab'), 1);
  assert.equal(regexNestDepth('a|b'), 1);
  assert.equal(regexNestDepth('(?:a)'), 1);
  assert.equal(regexNestDepth('(?:ab)'), 2);
  assert.equal(regexNestDepth('(?:a)+'), 2);
  assert.equal(regexNestDepth('a+b'), 2, 'Concat(Repetition(Literal), Literal)');
  assert.equal(regexNestDepth('(a|bc)d'), 4, 'Concat(Group(Alternation(Literal, Concat(b, c))), d)');
  assert.equal(regexNestDepth(nested(250)), 250);
  assert.equal(regexNestDepth('[a]'), 1);
});

test('a regex nested past 250 levels is refused with the limit named; 250 levels pass', () => {
  assert.equal(rustRegexRefusal(nested(250)), undefined);
  const refusal = rustRegexRefusal(nested(251));
  assert.match(refusal ?? '', /nests 251 levels deep.*limit of 250.*nested parentheses\/brackets/);
  // Deeper than the tree reader goes (1 000 groups): still refused, by the parentheses alone
  assert.match(rustRegexRefusal(nested(5000)) ?? '', /nests at least 5000 levels deep/);
  // Through the checker, in a "matches" operand
  const problems = analyzeExpression(`http.request.uri.path matches "${nested(260)}"`).problems;
  assert.deepEqual(problems.map((p) => p.code), ['ruleset/expr-invalid-regex']);
  assert.deepEqual(analyzeExpression(`http.request.uri.path matches "${nested(200)}"`).problems, []);
});
