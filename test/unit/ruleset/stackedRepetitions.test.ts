// A repetition of a repetition (which Rust takes and RE2 refuses) becomes a group in the RE2 text, the same at any length (the
// rewrite is one pass over the pattern; inserting each group into the whole string was quadratic in the number of them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rustToRe2 } from '../../../server/src/core/rules/ruleset/rustRegex';

test('stacked repetitions are put in groups, innermost first', () => {
  assert.equal(rustToRe2('^/a**$'), '^/(?:a*)*$');
  assert.equal(rustToRe2('a***'), '(?:(?:a*)*)*');
  assert.equal(rustToRe2('(ab){2}{3}*'), '(?:(?:(ab){2}){3})*');
  assert.equal(rustToRe2('[a-z]+?+x\\d*{2}'), '(?:[a-z]+?)+x(?:\\d*){2}');
  assert.equal(rustToRe2('a*b+c?'), 'a*b+c?');
});

test('a long run of stacked repetitions: one group per extra quantifier', () => {
  const n = 3000;
  assert.equal(rustToRe2('a' + '*'.repeat(n)), '(?:'.repeat(n - 1) + 'a*' + ')*'.repeat(n - 1));
  assert.equal(rustToRe2('x' + 'b**'.repeat(n)), 'x' + '(?:b*)*'.repeat(n));
});
