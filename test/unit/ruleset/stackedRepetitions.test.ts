// wrapStackedRepetitions: a repetition of a repetition (which Rust takes and RE2 refuses) becomes a group, the same at any length
// (the rewrite is one pass over the pattern; inserting each group into the whole string was quadratic in the number of them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapStackedRepetitions } from '../../../server/src/core/rules/ruleset/rustRegex';

test('stacked repetitions are put in groups, innermost first', () => {
  assert.equal(wrapStackedRepetitions('^/a**$'), '^/(?:a*)*$');
  assert.equal(wrapStackedRepetitions('a***'), '(?:(?:a*)*)*');
  assert.equal(wrapStackedRepetitions('(ab){2}{3}*'), '(?:(?:(ab){2}){3})*');
  assert.equal(wrapStackedRepetitions('[a-z]+?+x\\d*{2}'), '(?:[a-z]+?)+x(?:\\d*){2}');
  assert.equal(wrapStackedRepetitions('a*b+c?'), 'a*b+c?');
});

test('a long run of stacked repetitions: one group per extra quantifier', () => {
  const n = 3000;
  assert.equal(wrapStackedRepetitions('a' + '*'.repeat(n)), '(?:'.repeat(n - 1) + 'a*' + ')*'.repeat(n - 1));
  assert.equal(wrapStackedRepetitions('x' + 'b**'.repeat(n)), 'x' + '(?:b*)*'.repeat(n));
});
