// A Boolean takes no comparison operator (wirefilter ast/field_expr.rs ComparisonExpr::lex_with_lhs: a Bool left side is IsTrue,
// and what follows is "unrecognised input"; values.mdx "Boolean values": the field alone, or `not` for false). The checker refuses
// `ssl eq true` at the operator and rewrites it to the field alone or to `not` and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { parseExpression, type Expr } from '../../../server/src/core/rules/ruleset/exprParser';
import { compileExpression } from '../../../server/src/core/eval/rules';
import type { Edit } from '../../../server/src/core/types';

function apply(src: string, edits: Edit[]): string {
  return [...edits].sort((a, b) => b.offset - a.offset).reduce((s, e) => s.slice(0, e.offset) + e.newText + s.slice(e.offset + e.length), src);
}

/** The tree as a string: what the operators group (a comparison of a Boolean with true/false read as the Boolean or its negation). */
function shape(e: Expr, src: string): string {
  switch (e.type) {
    case 'logical': return `(${shape(e.left, src)} ${e.op} ${shape(e.right, src)})`;
    case 'not': return `!${shape(e.operand, src)}`;
    case 'group': return shape(e.inner, src);
    case 'compare':
      if (e.right.type === 'bool' && (e.op === 'eq' || e.op === 'ne')) {
        const left = shape(e.left, src);
        return (e.op === 'eq') === e.right.value ? left : `!${left}`;
      }
      return src.slice(e.offset, e.offset + e.length);
    case 'call': return `${e.name}(${e.args.map((a) => shape(a, src)).join(', ')})`;
    default: return src.slice(e.offset, e.offset + e.length);
  }
}

const REWRITES: [string, string][] = [
  ['ssl eq true', 'ssl'],
  ['ssl == true', 'ssl'],
  ['ssl ne false', 'ssl'],
  ['ssl != false', 'ssl'],
  ['ssl eq false', 'not ssl'],
  ['ssl ne true', 'not ssl'],
  ['ssl != true', 'not ssl'],
  ['cf.bot_management.verified_bot eq true', 'cf.bot_management.verified_bot'],
  ['http.host eq "a" and cf.bot_management.verified_bot eq false or ssl', 'http.host eq "a" and not cf.bot_management.verified_bot or ssl'],
  ['ssl xor http.host eq "a" and cf.client.bot == false', 'ssl xor http.host eq "a" and not cf.client.bot'],
  ['not ssl eq false', 'not not ssl'],
  ['!ssl eq false', '!not ssl'],
  ['(ssl eq false)', '(not ssl)'],
  ['http.host eq "a" and(ssl eq false)', 'http.host eq "a" and(not ssl)'],
  ['ssl eq false&&http.host eq "a"', 'not ssl&&http.host eq "a"'],
  ['starts_with(http.host, "a") eq false', 'not starts_with(http.host, "a")'],
  ['ends_with(http.request.uri.path, ".php") == true', 'ends_with(http.request.uri.path, ".php")'],
];

for (const [src, want] of REWRITES) {
  test(`a Boolean takes no operator: ${src} is refused at the operator and rewritten to ${want}`, () => {
    const { problems } = analyzeExpression(src);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    const p = problems[0];
    assert.equal(p.code, 'ruleset/expr-type-mismatch');
    const cmp = /(?:\beq\b|\bne\b|==|!=)(?= (?:true|false))/.exec(src)!;
    assert.deepEqual({ offset: p.offset, length: p.length }, { offset: cmp.index, length: cmp[0].length }, 'at the operator');
    assert.match(p.message, /Boolean/);
    assert.match(p.message, /takes no operator/);
    assert.equal(p.fixes?.length, 1);
    assert.equal(p.fixes![0].preferred, true, 'the only reading: Fix all applies it');
    const fixed = apply(src, p.fixes![0].edits);
    assert.equal(fixed, want);
    assert.deepEqual(analyzeExpression(fixed).problems, [], `${fixed} is valid`);
    // The meaning is kept: the rewritten tree groups as the original did (not binds to the Boolean alone, as the comparison did)
    assert.equal(shape(parseExpression(fixed).ast!, fixed), shape(parseExpression(src).ast!, src));
  });
}

test('the message names the field (or the function) and its type', () => {
  const [p] = analyzeExpression('cf.bot_management.verified_bot eq true').problems;
  assert.match(p.message, /"cf\.bot_management\.verified_bot"/);
  assert.match(p.message, /Boolean/);
  assert.match(p.message, /not cf\.bot_management\.verified_bot/);
  const [q] = analyzeExpression('starts_with(http.host, "a") eq true').problems;
  assert.match(q.message, /starts_with\(\)/);
});

test('other operators and values on a Boolean are refused at the operator, without a rewrite', () => {
  for (const [src, op] of [['ssl contains "x"', 'contains'], ['ssl in {true}', 'in'], ['ssl eq 1', 'eq'], ['ssl lt true', 'lt'], ['ssl eq "true"', 'eq']]) {
    const { problems } = analyzeExpression(src);
    assert.equal(problems.length, 1, `${src}: ${JSON.stringify(problems)}`);
    assert.equal(problems[0].code, 'ruleset/expr-type-mismatch');
    assert.equal(src.substr(problems[0].offset, problems[0].length), op, src);
    assert.match(problems[0].message, /takes no operator/, src);
    assert.doesNotMatch(problems[0].message, /use "eq"/, src);
    assert.equal(problems[0].fixes, undefined, src);
  }
});

test('one Boolean per element takes no operator either (IndexExpr::get_type is Bool after the [*]), and [*] is not offered', () => {
  const each = analyzeExpression('any(starts_with(http.request.headers.names[*], "x")[*] eq true)').problems;
  assert.equal(each.length, 1, JSON.stringify(each));
  assert.equal(each[0].code, 'ruleset/expr-type-mismatch');
  assert.match(each[0].message, /takes no operator/);
  // An Array<Boolean>: adding [*] and any() would give the comparison above, refused the same way
  const arr = analyzeExpression('starts_with(http.request.headers.names[*], "x") eq true').problems;
  assert.equal(arr.length, 1, JSON.stringify(arr));
  assert.match(arr[0].message, /takes no operator/);
  assert.match(arr[0].message, /any\(starts_with\(/);
  assert.equal(arr[0].fixes, undefined);
});

test('the evaluator refuses what the checker refuses: ssl eq true does not compile', () => {
  const c = compileExpression('ssl eq true');
  assert.equal(c.ok, false);
  assert.match((c as { error: string }).error, /expr-type-mismatch/);
  assert.equal(compileExpression('ssl and not cf.client.bot').ok, true);
});
