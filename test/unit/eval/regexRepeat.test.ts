// Counted repetitions over RE2's 1 000 (a{1001}, (?:ab){2000}): Rust's regex crate, the platform's engine, takes them up to its
// compiled size limit (10 MiB), RE2 not at all. The checker reports what the platform refuses for its size, naming the repetition;
// the evaluator runs the rest, the repetition split into counts RE2 takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileExpression } from '../../../server/src/core';
import { compileRustRegex, splitRepetitions } from '../../../server/src/core/rules/ruleset/rustRegex';

const errors = (src: string) => analyzeExpression(src).problems.filter((p) => p.code === 'ruleset/expr-invalid-regex').map((p) => p.message);
const run = (src: string, host: string): boolean => {
  const c = compileExpression(src);
  if (!c.ok) throw new Error(c.error);
  return c.expression.test({ 'http.host': host });
};

test('a counted repetition over 1 000 is valid Rust regex: no error, and the evaluator runs it (it could not: "RE2 cannot run it")', () => {
  for (const p of ['a{1001}', '(?:ab){2000}', 'a{1001,}', 'a{0,5000}', '(?:a{3}b){400}', '(a){1500}', '(?P<n>a){1001}', 'a{2000}?', '(?x) a { 1001 }']) {
    const src = `http.host matches "${p}"`;
    assert.deepEqual(errors(src), [], p);
    assert.equal(compileExpression(src).ok, true, `${p}: ${JSON.stringify(compileExpression(src))}`);
  }
  const a = (n: number) => 'a'.repeat(n);
  assert.equal(run('http.host matches "^a{1001}$"', a(1001)), true);
  assert.equal(run('http.host matches "^a{1001}$"', a(1000)), false);
  assert.equal(run('http.host matches "^a{1001}$"', a(1002)), false);
  assert.equal(run('http.host matches "^(?:ab){2000}$"', 'ab'.repeat(2000)), true);
  assert.equal(run('http.host matches "^(?:ab){2000}$"', 'ab'.repeat(1999) + 'a'), false);
  for (const [n, want] of [[2499, false], [2500, true], [3333, true], [3334, false]] as const) assert.equal(run('http.host matches "^a{2500,3333}$"', a(n)), want, `a{2500,3333} on ${n}`);
  for (const [n, want] of [[1000, false], [1001, true], [4000, true]] as const) assert.equal(run('http.host matches "^a{1001,}$"', a(n)), want, `a{1001,} on ${n}`);
  assert.equal(run('http.host matches "^(?:a{3}b){400}$"', 'aaab'.repeat(400)), true);
  assert.equal(run('http.host matches "^(?:a{3}b){400}$"', 'aaab'.repeat(399) + 'aab'), false);
  assert.equal(run('http.host matches "^(?:x|a{1500})$"', a(1500)), true);
  assert.equal(run('http.host matches "^(?:x|a{1500})$"', 'x'), true);
  // Groups keep their numbers: "${2}" is still the (b) after a split (a){1500}
  assert.equal(run('regex_replace(http.host, "^(a){1500}(b)$", "${2}") eq "b"', `${a(1500)}b`), true);
});

test('split repetitions match what the pattern matches (against JavaScript\'s engine, which takes any count), and RE2 takes them', () => {
  const patterns = ['^a{1001}$', '^(?:ab|c){999,1003}$', '^(?:a{2,3}b?){600}$', '^a{0,2001}b$', '^(?:a{1000}){3}$', '^(?:(?:ab){40}c){30}$', '^a{1001,}?b', '^[ab]{1200}c{3}$'];
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (const p of patterns) {
    const split = splitRepetitions(p)!;
    const re2 = compileRustRegex(p);
    const js = new RegExp(p);
    for (let i = 0; i < 200; i++) {
      // Near the counts: runs of the pattern's letters of a length around 1 000 to 3 000
      const n = 900 + Math.floor(rand() * 2400);
      const s = Array.from({ length: n }, () => 'abc'[Math.floor(rand() * (rand() < 0.8 ? 1 : 3))]).join('') + (rand() < 0.5 ? 'b' : '');
      assert.equal(re2.matcher(s).find(), js.test(s), `${p} (as ${split.slice(0, 80)}...) on ${s.length} characters`);
    }
    // And on strings it must match
    const a = p.replace(/[\^$]/g, '');
    if (a === 'a{1001}') assert.equal(re2.matcher('a'.repeat(1001)).find(), true);
  }
});

test('a regex past the platform\'s compiled size limit is an error naming the repetition and the limit; under it, none', () => {
  // What regex-automata 0.4 with wirefilter's settings (unicode(false), utf8(false), 10 MiB) builds and refuses, measured:
  // a{327673} builds, a{327674} does not; (?:a{1000}){327} builds, {328} does not; .{131069} builds (its states are larger).
  const refused = ['(?:a{1000}){1000}', 'a{1000000}', 'a{4294967295}', '(?:(?:ab){1000}){200}', 'x(?:a{600}|b){600}'];
  for (const p of refused) {
    const [m] = errors(`http.host matches "${p}"`);
    assert.ok(m, p);
    // The limit written as the count is, to compare them; the platform's own words as it says them; what brings it under
    assert.match(m, /past the platform's compiled size limit of 10,485,760 bytes \(/, p);
    assert.match(m, /"Compiled regex exceeds size limit of 10485760 bytes"/, p);
    assert.match(m, /a smaller count \(or "\+", "\*" where the exact count does not matter\) brings it under the limit\.$/, p);
    assert.equal(compileExpression(`http.host matches "${p}"`).ok, false, p);
  }
  assert.match(errors('http.host matches "(?:a{1000}){1000}"')[0], /the counted repetition "\{1000\}" at character 12 of the regex makes it at least 32,000,000 bytes compiled/);
  assert.match(errors('http.host matches "x(?:a{600}|b){600}"')[0], /"\{600\}" at character 14 of the regex makes it at least 11,539,200 bytes compiled/);
  // No counted repetition: the pattern's length is what to change (the platform refuses 330 000 "a"s)
  const [long] = errors(`http.host matches "${'a'.repeat(330000)}"`);
  assert.match(long, /: it is at least 10,560,000 bytes compiled, past the platform's compiled size limit of 10,485,760 bytes \(.*\); a shorter pattern brings it under the limit\.$/);
  for (const p of ['a{300000}', '(?:a{1000}){300}', '.{131069}']) assert.deepEqual(errors(`http.host matches "${p}"`), [], p);
});

test('the size counts what makes states larger or more: a class (more for more ranges), a letter under (?i), a character past ASCII, a union for each optional copy and loop, the captures of a group (each was one state, and these were taken)', () => {
  // regex-automata 0.4 with wirefilter's settings builds the first of each pair and refuses the second (measured): a copy of
  // a{0,n} is 72 bytes, of (a){n} 96, of [a-z]{n} 72, of (?i)a{n} 80, of é{n} 64, of a{n} 32
  const pairs = [['a{0,145631}', 'a{0,200000}'], ['(a){109224}', '(a){150000}'], ['[a-z]{145632}', '[a-z]{200000}'], ['(?i)a{131069}', '(?i)a{200000}'],
    ['é{163836}', 'é{200000}'], ['(?:a|b){145632}', '(?:a|b){200000}'], ['a*{145632}', 'a*{200000}']];
  // A class of more ranges is larger: \w{n} is 96 bytes a copy, (?u)\w{n} (a UTF-8 automaton of 700-odd ranges) 20 641
  pairs.push(['\\w{109224}', '\\w{120000}'], ['(?u)\\w{400}', '(?u)\\w{2000}']);
  // Out of Unicode mode a negated class is of bytes, its last range ending at \xFF: \S is 3 ranges, 88 bytes a copy (it was counted
  // 4 ranges, the code points past the surrogates one more, and \S{119154} was refused)
  pairs.push(['\\S{119154}', '\\S{200000}'], ['[^\\s]{119154}', '[^\\s]{200000}']);
  for (const [taken, refused] of pairs) {
    assert.deepEqual(errors(`http.host matches "${taken}"`), [], taken);
    assert.match(errors(`http.host matches "${refused}"`)[0] ?? '', /past the platform's compiled size limit/, refused);
  }
  assert.match(errors('http.host matches "(a){150000}"')[0], /"\{150000\}" at character 4 of the regex makes it at least 14,400,000 bytes compiled/);
});

test('an alternation of characters and classes only is one class, no union state: the platform takes these (they were refused, counted a union more)', () => {
  // regex-automata 0.4 with wirefilter's settings builds each (measured): regex-syntax makes the alternation a class, (?:a|a) "a"
  const taken = ['(?:a|a){327673}', '(?:é|é){163836}', '(?i)(?:a|A){131069}', '(?:[a-z]|[0-9]){131069}', '(?:[acegikmo]|[bdfhjlnp]){145632}', '(?:(?i)a|b){131069}'];
  for (const p of taken) assert.deepEqual(errors(`http.host matches "${p}"`), [], p);
  // Two characters or more are a class still: (?:a|b){n} is 72 bytes a copy
  assert.match(errors('http.host matches "(?:a|b){200000}"')[0] ?? '', /past the platform's compiled size limit/);
});

test('a group that can only match the empty string ((^), (?:^|\\b)) is repeated at most once, as an assertion is: no size error (they were refused), and Test Rules runs them', () => {
  // regex-syntax's Hir::repetition makes the maximum 1 for what can only match the empty string; the platform builds these (measured)
  for (const p of ['(^){4000000}', '(?:^|\\b){4000000}', '(?:(^)|$){4000000}']) assert.deepEqual(errors(`http.host matches "${p}"`), [], p);
  assert.equal(run('http.host matches "(?:^|\\b){4000000}ab"', 'x ab'), true);
  assert.equal(run('http.host matches "(?:^|\\b){4000000}b"', 'ab'), false);
  assert.equal(run('regex_replace(http.host, "(^){4000000}a", "${1}x") eq "xb"', 'ab'), true);
  // What also matches a character is counted as before: (?:(?:^|\\b)x){300000} is past the limit
  assert.match(errors('http.host matches "(?:(?:^|\\b)x){300000}"')[0] ?? '', /past the platform's compiled size limit/);
});

test('exponentially nested repetitions past the size limit: the message gives a readable count, not hundreds of digits', () => {
  // 100 levels: 200 deep (a group and a repetition each), under the nest limit of 250, which 200 levels would pass first
  const p = '(?:'.repeat(100) + 'a' + '){2}'.repeat(100);
  const m = analyzeExpression(`http.host matches ${JSON.stringify(p)}`).problems.find((x) => x.code === 'ruleset/expr-invalid-regex')!.message;
  assert.match(m, /makes it more than 10\^15 bytes compiled, past the platform's compiled size limit/);
  assert.doesNotMatch(m, /\d{1,3}(,\d{3}){6}/);
});
