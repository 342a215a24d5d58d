// Word boundaries in "matches" regexes, on the platform and in EdgeKit's evaluator (syn7). The platform runs Rust regex (wirefilter:
// unicode(false)), where \b and \B are ASCII's, and Unicode's once (?u) turns Unicode mode on: é, ß, 中 are word characters there.
// The evaluator runs RE2, which has no "u" flag (its flags are i, m, s, U: google/re2 doc/syntax.txt) and whose \b is ASCII's under
// any flag ("at word boundary (\w on one side and \W, \A, or \z on the other)", \w being [0-9A-Za-z_]). So under (?u) the evaluator
// answers as RE2 does, which is the platform's answer on ASCII text and may not be on other text: the checker says so where the
// regex has such a boundary. Rust's \b{start}, \b{end}, \b{start-half}, \b{end-half}, \< and \> have no RE2 spelling: RE2 read them
// as \b and a literal "{start}" (or a literal "<"), and the rule never matched; now Test Rules refuses the expression, naming them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileExpression, compileValue } from '../../../server/src/core/eval/rules';

const run = (pattern: string, path: string): boolean | string => {
  const c = compileExpression(`http.request.uri.path matches r#"${pattern}"#`);
  return c.ok ? c.expression.test({ 'http.request.uri.path': path }) : c.error;
};
const boundaryNotes = (pattern: string) => analyzeExpression(`http.request.uri.path matches r#"${pattern}"#`).problems
  .filter((p) => p.code === 'ruleset/expr-regex-word-boundary');

test('the evaluator reads \\b and \\B as RE2 does, ASCII\'s under any flag, (?u) and (?i) included', () => {
  // On ASCII text the platform agrees, with or without (?u).
  for (const pattern of [String.raw`\bcat\b`, String.raw`(?u)\bcat\b`, String.raw`(?i)\bCAT\b`, String.raw`(?u:\bcat\b)`]) {
    assert.equal(run(pattern, '/a/cat/b'), true, pattern);
    assert.equal(run(pattern, '/a/cats'), false, pattern);
  }
  assert.equal(run(String.raw`(?u)a\Bb`, '/ab'), true);
  // Past ASCII, RE2's answer: "é" is no word character for it (under (?u) the platform's \b is Unicode's, where it is one).
  assert.equal(run(String.raw`(?u)caf\b`, '/café'), true);
  assert.equal(run(String.raw`(?u)\bé`, '/aé'), true);
  assert.equal(run(String.raw`(?u)caf\B`, '/café'), false);
  // Without (?u), the platform's \b is ASCII's too: the same answer there.
  assert.equal(run(String.raw`caf\b`, '/café'), true);
});

test('the checker says where a word boundary is Unicode\'s on the platform and ASCII\'s in the evaluator', () => {
  const [p] = boundaryNotes(String.raw`^/(?u)\w+\b`).filter((x) => x.message.startsWith('Under (?u)'));
  assert.ok(p, 'a note on the regex');
  assert.match(p.message, /\\b at character 10 of the regex .*Unicode.*ASCII.*RE2.*\(\?-u:\\b\)/);
  assert.equal(boundaryNotes(String.raw`(?u)(?-u:\b)x`).length, 0, 'ASCII\'s boundary asked for: the same in both');
  assert.equal(boundaryNotes(String.raw`\bx\b`).length, 0, 'no Unicode mode: the same in both');
  assert.equal(boundaryNotes(String.raw`(?u)[\w]`).length, 0);
  assert.equal(boundaryNotes(String.raw`(?u:a)\b`).length, 0, 'Unicode mode ended before it');
  assert.equal(boundaryNotes(String.raw`(?u:\B)`).length, 1);
  assert.equal(boundaryNotes(String.raw`(?u)\\b`).length, 0, 'an escaped backslash and a "b"');
  // A note, not an error: the expression is still tested.
  assert.equal(typeof run(String.raw`(?u)\bcat`, '/cat'), 'boolean');
});

test('the word boundaries RE2 has no spelling for are refused by the evaluator, named, not read as a literal', () => {
  for (const [pattern, named] of [[String.raw`\b{start}x`, String.raw`\b{start}`], [String.raw`x\b{end}`, String.raw`\b{end}`],
    [String.raw`\b{start-half}x`, String.raw`\b{start-half}`], [String.raw`x\b{end-half}`, String.raw`\b{end-half}`],
    [String.raw`\<x`, String.raw`\<`], [String.raw`x\>`, String.raw`\>`]]) {
    const r = run(pattern, '/x');
    assert.equal(typeof r, 'string', `${pattern}: ${r}`);
    assert.ok((r as string).includes(`"${named}" at`) && /RE2 \(EdgeKit's engine\) cannot run it/.test(r as string), r as string);
    // The checker accepts them, as the platform does, and says that Test Rules cannot run them.
    assert.deepEqual(analyzeExpression(`http.request.uri.path matches r#"${pattern}"#`).problems.filter((p) => p.code === 'ruleset/expr-invalid-regex'), [], pattern);
    assert.deepEqual(boundaryNotes(pattern).map((p) => p.message.startsWith(`"${named}" at`) && p.message.includes('cannot test this rule')), [true], pattern);
  }
  assert.equal(run(String.raw`x\{start\}`, '/x{start}'), true, 'an escaped brace is a literal');
  // regex_replace() with such a literal pattern: refused too, not a value left as it is.
  const v = compileValue(String.raw`regex_replace(http.request.uri.path, r#"\b{start}x"#, "y")`);
  assert.equal(v.ok, false);
  assert.match(v.ok ? '' : v.error, /regex_replace\(\) at 0: .*"\\b\{start\}" at character 1 of the regex is a word boundary RE2 does not have/);
  const w = compileValue(String.raw`regex_replace(http.request.uri.path, r#"\bx"#, "y")`);
  assert.equal(w.ok && w.value.evaluate({ 'http.request.uri.path': '/x' }), '/y');
});
