// The "matches" regexes the checker accepts and refuses, against what wirefilter's engine does with them: regex-automata's meta
// regex with regex-syntax 0.8 (wirefilter's Cargo.lock: regex-syntax 0.8.9), configured with unicode(false) and utf8(false)
// (engine/src/rhs_types/regex/imp_real.rs), so a pattern runs without Unicode mode unless it turns it on with (?u). Each verdict
// was read from regex-syntax's parser and translator (ast/parse.rs, hir/translate.rs at regex-syntax-0.8.9) or its docs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileExpression } from '../../../server/src/core/eval/rules';

const ACCEPTED = String.raw`\A \z ^a$ (?P<n>a) (?<n>a) (?u)\pN (?u)\p{Greek} (?u)\PN (?u:\p{Greek}) [[:alpha:]] [[:^alpha:]] \x{10FFFF} \x7F \xFF
  (?U)a+ (?i)abc (?m)^a (?s). (?R)^a$ (?-u)\xFF \b{start} \b{end} \b{start-half} \b{end-half} \<a\> (a*)* a** a+* a{2}{3} a{1000} a{1,}
  [a-z&&[^aeiou]] [0-9--4] [a-g~~b-h] \u{7F} \u007F \U0000007F \U{7F} é (?u)[é] [\xE9] (?i)é []a] \/ \- \@ \# \_ (?i:a)b
  \d\w\s\D\W\S (?u)\w [a--b] [z--a] [\w--\d] [\w--_] [0-9--[4-6]]
  [\x{41}-\x{5A}] [\u{41}-\u{5A}] [\U{41}-\U{5A}] [\x{5A}-a] (?u)[\x{0}-\x{10FFFF}--a] (?u)[\x{E9}-\x{10000}] [\x{30}-\x{39}&&\d]`.split(/\s+/).filter((p) => p !== '');
// parse_decimal trims whitespace around a count's digits in any mode (ast/parse.rs), so these are counted repetitions
const ACCEPTED_SPACED = [String.raw`(?x)\x{ 41 }`, 'x{ 2 }', 'x{2 }', 'x{ 2,}', 'x{ 1 , 3 }', 'x{1 ,3}', '(?:ab){ 2 }*'];

const REFUSED: [string, string][] = [
  [String.raw`\Z`, 'not an escape regex-syntax knows (EscapeUnrecognized)'],
  [String.raw`(?'n'a)`, 'a group name is (?P<n>) or (?<n>)'],
  [String.raw`\pN`, 'a Unicode class without Unicode mode (UnicodeNotAllowed)'],
  [String.raw`\p{Greek}`, 'a Unicode class without Unicode mode'],
  [String.raw`(?u)(?-u:\pL)`, 'Unicode mode turned off around the class'],
  [String.raw`[é]`, 'a non-ASCII character in a class without Unicode mode (class_literal_byte)'],
  [String.raw`[\x{E9}]`, 'a code point past 0x7F in a byte class'],
  [String.raw`\x{110000}`, 'past U+10FFFF'],
  [String.raw`\x{ 41 }`, 'a space inside a hex escape outside (?x) (EscapeHexInvalidDigit; RE2 reads it)'],
  [String.raw`\u{41 }`, 'a space inside a hex escape outside (?x)'],
  [String.raw`\b{foo}`, 'not a special word boundary'],
  [String.raw`(a)\1`, 'a backreference'],
  [String.raw`\0`, 'octal is off: read as a backreference (UnsupportedBackreference)'],
  ['(?=a)', 'look-ahead'], ['(?!a)', 'negative look-ahead'], ['(?<=a)', 'look-behind'], ['(?<!a)', 'negative look-behind'],
  ['a{,3}', 'a counted repetition needs its minimum (RepetitionCountDecimalEmpty)'],
  ['a{', 'an unclosed counted repetition (RepetitionCountUnclosed)'],
  ['/api/{id}', 'a "{" is a counted repetition in Rust, never a literal'],
  ['x{1, }', 'a space after the comma outside (?x): the maximum is then read with none of its digits (RepetitionCountDecimalEmpty)'],
  ['x{ 1 2 }', 'a space between the digits of a count outside (?x)'],
  ['a{2,1}', 'a counted repetition whose minimum is above its maximum'],
  ['a{4294967296}', 'a count past u32'],
  [String.raw`\Qa.b\E`, 'no quoting with \\Q...\\E'],
  [String.raw`\e`, 'not an escape regex-syntax knows'], [String.raw`\cA`, 'no control escapes'], [String.raw`\k<n>`, 'no named backreferences'],
  [String.raw`\h`, 'not an escape regex-syntax knows'],
  ['(?<n>a)(?<n>b)', 'a group name twice'], ['(?z)a', 'an unknown flag'], ['[]', 'an empty class'],
  [String.raw`[\d-z]`, 'a range from a class'], ['*a', 'a repetition of nothing'],
];

const verdict = (pattern: string): string | undefined => {
  const src = `http.host matches r#"${pattern}"#`;
  const errs = analyzeExpression(src).problems.filter((p) => p.code === 'ruleset/expr-invalid-regex' || p.code === 'ruleset/expr-syntax');
  return errs[0]?.message;
};

/** Whether the regex, compiled as the evaluator compiles a "matches", matches the value as http.host. */
const run = (pattern: string, value: string): boolean => {
  const c = compileExpression(`http.host matches r#"${pattern}"#`);
  if (!c.ok) throw new Error(c.error);
  return c.expression.test({ 'http.host': value });
};

test('regexes wirefilter\'s regex-syntax accepts are accepted', () => {
  const wrong = ACCEPTED.map((p) => [p, verdict(p)]).filter(([, v]) => v !== undefined);
  assert.deepEqual(wrong, []);
});

test('a counted repetition with spaces around its numbers is one, in the checker and in the evaluator', () => {
  const wrong = ACCEPTED_SPACED.map((p) => [p, verdict(p)]).filter(([, v]) => v !== undefined);
  assert.deepEqual(wrong, []);
  assert.equal(run('^x{ 2 }$', 'xx'), true);
  assert.equal(run('^x{ 2 }$', 'x{ 2 }'), false);
  assert.equal(run('^x{ 1 , 3 }$', 'xxx'), true);
  assert.equal(run('^x{ 1 , 3 }$', 'xxxx'), false);
  assert.equal(run('^(?:ab){ 2 }*$', 'abababab'), true);
  assert.equal(run('^[{ 2 }]$', ' '), true);
});

test('regexes wirefilter\'s regex-syntax refuses are refused, each with a message', () => {
  const wrong = REFUSED.filter(([p]) => verdict(p) === undefined).map(([p, why]) => `${p}: ${why}`);
  assert.deepEqual(wrong, []);
});

test('under (?x) a special word boundary holds spaces and comments, which regex-syntax skips inside its braces', async () => {
  const { re2LacksBoundary, rustRegexRefusal } = await import('../../../server/src/core/rules/ruleset/rustRegex');
  // regex-syntax's maybe_parse_special_word_boundary (ast/parse.rs) reads the "{" right after \b with bump_and_bump_space, and each
  // letter of the name with it too: under ignore_whitespace, spaces and "#" comments are skipped after "{", between the letters and
  // before "}". The first four are a test's patterns that regex_syntax's ParserBuilder::new().ignore_whitespace(true) parses
  // (parsing_word_boundaries_with_whitespace); the name is the letters without the spaces (\b{ s t a r t } is \b{start}).
  const spaced = [String.raw`\b{ start }`, '\\b{ end # maybe?\n }', '\\b{\tstart-half\t}', '\\b{# end \n  end-half # !\n # ??\n }',
    String.raw`\b{ s t a r t }`, String.raw`\b{start - half}`];
  for (const b of spaced) {
    assert.equal(rustRegexRefusal(`(?x)${b}x`), undefined, JSON.stringify(b));
    // a word boundary RE2 has no spelling for, as \b{start} is: Test Rules says it cannot run it
    assert.equal(re2LacksBoundary(`(?x)${b}x`)?.text, `${b}`, JSON.stringify(b));
  }
  assert.equal(verdict(String.raw`(?x)\b{ start }x`), undefined);
  // Outside (?x) the space after "{" makes it a counted repetition with no count (regex-syntax: RepetitionCountDecimalEmpty), and
  // \b then "{start}" under (?x) is one too: the "{" must follow \b at once
  for (const p of [String.raw`\b{ start }x`, String.raw`(?x)\b {start}x`, String.raw`(?x)\b{ }x`]) assert.ok(rustRegexRefusal(p), p);
  // The crate's error probes: "\b{foo!}" and "\b{ start x" unclosed (SpecialWordBoundaryUnclosed), "\b{ sta rt x}" unrecognized
  assert.match(rustRegexRefusal(String.raw`(?x)\b{foo!}`) ?? '', /no closing "\}"/);
  assert.match(rustRegexRefusal(String.raw`(?x)\b{ sta rt x}`) ?? '', /"\\b\{startx\}" .* is no word boundary/);
  assert.match(rustRegexRefusal('(?x)\\b{ start ') ?? '', /no closing "\}"/);
  // a count stays a count: \b{ 2 } repeats the boundary
  assert.equal(rustRegexRefusal(String.raw`(?x)\b{ 2 }x`), undefined);
});

test('under (?x) the spaces regex-syntax skips are Rust\'s char::is_whitespace (Unicode White_Space): U+0085 is one, U+FEFF is not', () => {
  // bump_space and parse_decimal test char::is_whitespace, the White_Space property: NEL (U+0085) is white space there and not in
  // JavaScript's \s, and the byte order mark U+FEFF is in JavaScript's \s and no White_Space (it is a format character, Cf)
  const nel = '\u0085', bom = '\ufeff';
  // skipped: between atoms, inside a special word boundary's braces, in a class, inside a hex brace, around a count's digits
  for (const p of [`(?x)a${nel}b`, `(?x)\\b{${nel}start${nel}}x`, `(?x)[a${nel}b]`, `(?x)\\x{${nel}41}`, `a{${nel}2}`, `(?x)a{2}${nel}?`]) {
    assert.equal(verdict(p), undefined, JSON.stringify(p));
  }
  // a character: \b{ then no letter is a counted repetition ("{" then no digit, refused); a literal past ASCII in a class needs
  // Unicode mode; no hex digit; no digit of a count
  for (const p of [`(?x)\\b{${bom}start}x`, `(?x)[a${bom}b]`, `(?x)\\x{${bom}41}`, `a{${bom}2}`]) assert.ok(verdict(p), JSON.stringify(p));
  // and the evaluator runs what the platform runs: NEL skipped, U+FEFF matched as itself
  assert.equal(run(`^(?x)a${nel}b$`, 'ab'), true);
  assert.equal(run(`^(?x)a${bom}b$`, 'ab'), false);
  assert.equal(run(`^(?x)a${bom}b$`, `a${bom}b`), true);
  assert.equal(run(`^(?x)[a${nel}]+$`, `a${nel}`), false);
});

test('under (?x) a "?" after a counted repetition makes it lazy across a comment too, as across spaces', () => {
  // parse_counted_repetition: `if self.bump_and_bump_space() && self.char() == '?'`, and bump_space skips "#" comments with the
  // spaces: a{2} # note, then "?" on the next line is a{2}? (lazy, still two), not an optional (a{2})?
  assert.equal(run('(?x)^a{2}\t?$', ''), false, 'spaces: lazy');
  assert.equal(run('(?x)^a{2} # two\n?$', ''), false, 'a comment: lazy too, so the empty string does not match');
  assert.equal(run('(?x)^a{2} # two\n?$', 'aa'), true);
});

test('under (?x) a count holds spaces and comments anywhere inside its braces, between its digits too, as regex-syntax skips them', () => {
  // parse_counted_repetition reads "{" and "," with bump_and_bump_space, and parse_decimal each digit with it: under (?x) spaces and
  // "#" comments are skipped after "{", between the digits, around the comma; (?x)a{1 2} is a{12}. Outside (?x) only spaces
  // around a number are trimmed (ACCEPTED_SPACED above; "x{ 1 2 }" is refused).
  for (const p of ['(?x)a{1 2}', '(?x)a{2 # two\n}', '(?x)a{ # at least\n 1 , # at most\n 3 }', '(?x)a{1#0\n2}', `(?x)a{2 # ${'why '.repeat(30)}\n}`]) {
    assert.equal(verdict(p), undefined, JSON.stringify(p));
  }
  assert.equal(run('(?x)^a{1 2}$', 'a'.repeat(12)), true);
  assert.equal(run('(?x)^a{1 2}$', 'a'.repeat(3)), false);
  assert.equal(run('(?x)^a{2 # two\n}$', 'aa'), true);
  assert.equal(run('(?x)^a{2 # two\n}$', 'a'), false);
  assert.equal(run('(?x)^a{ # at least\n 1 , # at most\n 3 }$', 'aaa'), true);
  assert.equal(run('(?x)^a{ # at least\n 1 , # at most\n 3 }$', 'aaaa'), false);
  assert.equal(run('(?x)^a{1#0\n2}$', 'a'.repeat(12)), true, 'a digit in a comment is no digit of the count');
  // a comment that runs to the end takes the "}" with it; outside (?x) "#" is no comment and a space between digits is refused
  for (const p of ['(?x)a{2#}', 'a{1 2}', 'a{2#c\n}']) assert.ok(verdict(p), JSON.stringify(p));
});

test('under (?x) a hex brace holds comments as well as spaces, as parse_hex_brace reads it with bump_and_bump_space', () => {
  for (const p of ['(?x)\\x{4 # four\n1}', '(?x)\\u{ # A\n 41 }', '(?x)[\\x{4#c\n1}-\\x{4#\n2}]']) assert.equal(verdict(p), undefined, JSON.stringify(p));
  assert.equal(run('(?x)^\\x{4 # four\n1}$', 'A'), true);
  assert.equal(run('(?x)^\\x{4 # four\n1}$', '4'), false);
  assert.equal(run('(?x)^[\\x{4#c\n1}-\\x{4#\n2}]+$', 'AB'), true, 'a class range of two such escapes');
  assert.equal(run('(?x)^[\\x{4#c\n1}-\\x{4#\n2}]+$', 'C'), false);
  // outside (?x) "#" is no comment: no hex digit
  assert.ok(verdict('\\x{4#c\n1}'));
});

test('a hex escape without braces is read as parse_hex reads it: under (?x) spaces and comments after its letter and between its digits; a malformed one is refused where it is', () => {
  // parse_hex reads the letter with bump_and_bump_space and parse_hex_digits each digit with it: (?x)\u 0041 and (?x)\x4 1 are "A"
  // (read from regex-syntax 0.8, and checked on its parser). They were refused (RE2 does not know \u) or read by chance.
  for (const p of ['(?x)\\u 0041', '(?x)\\u004 1', '(?x)\\U 00000041', '(?x)[\\u 0041]', '(?x)\\x4 # four\n1', '(?x)\\x {41}']) {
    assert.equal(verdict(p), undefined, JSON.stringify(p));
    assert.equal(run(`^${p}$`, 'A'), true, JSON.stringify(p));
    assert.equal(run(`^${p}$`, 'B'), false, JSON.stringify(p));
  }
  // A malformed escape was left to RE2, which read what follows it as its digits (the flag group dropped, \xa(?-x)0 is \xa0
  // there; (?x)\x<NEL>aa{ too) and took the "{" after it, which Rust refuses: accepted. Now refused, naming it and where.
  assert.match(verdict('\\xa(?-x)0') ?? '', /"\\xa\(" at character 1 of the regex is no hex escape Rust regex reads: \\x takes 2 hex digits/);
  assert.match(verdict('(?x)\\x\u0085aa{(?x)0') ?? '', /"\{" at character 10 of the regex starts a counted repetition/, 'NEL skipped: \\xaa, then the "{"');
  assert.match(verdict('\\u12') ?? '', /"\\u12" at character 1 of the regex is no hex escape Rust regex reads: \\u takes 4 hex digits \(\\u0041\)/);
  assert.match(verdict('a\\x{41') ?? '', /"\\x\{41" at character 2 of the regex is no hex escape/);
  assert.match(verdict('\\x{}') ?? '', /"\\x\{\}" at character 1 of the regex is no hex escape/);
});

test('under (?x) the checker\'s JavaScript trial compiles the regex without its comments and spaces: a "(" or "[" in a comment is no group or class', () => {
  // The trial compiled the pattern as written, so a comment's "(" was an unterminated group to JavaScript: (?x)a # the API (v1
  // was refused, where regex-syntax skips the comment (and RE2, the evaluator, runs the text without it).
  for (const p of ['(?x)^a # the API (v1\n$', '(?x)a # ) [ {', '(?x:b # (\n)a', '(?x)[a # ]\n b]']) assert.equal(verdict(p), undefined, JSON.stringify(p));
  assert.equal(run('(?x)^a # the API (v1\n$', 'a'), true);
  assert.equal(run('(?x)^a # the API (v1\n$', 'a # the API (v1'), false);
  // What is broken outside the comments still is, named by the Rust reading where it can
  assert.match(verdict('(?x)(a # comment\n') ?? '', /^Invalid regex/);
  assert.match(verdict('(?x)a # c\n{') ?? '', /"\{" at character 11 of the regex starts a counted repetition/);
});

test('a class written out as its set (a nested class, a set operation) is no class JavaScript reads: the trial compiles the RE2 text', () => {
  // JavaScript ends a class at its first "]", so a nested class's "]" ended the outer one and a "(" after it in the class was a
  // group: [[^a](] and [[^\W]K(z] were refused ("Unterminated group"), which regex-syntax reads as one class (checked on it)
  for (const p of ['[[^a]{(]', '^[[a](]$', '[[^\\W]K(z]', '[[a]) -- [:^digit:]]']) assert.equal(verdict(p), undefined, JSON.stringify(p));
  assert.equal(run('^[[a](]$', '('), true);
  assert.equal(run('^[[a](]$', 'a'), true);
  assert.equal(run('^[[a](]$', 'b'), false);
  // Still refused: a group left open after such a class
  assert.match(verdict('[a-z&&[^aeiou]](') ?? '', /^Invalid regex "\[a-z&&\[\^aeiou\]\]\(": the group opened at character 16 of the regex is not closed \("unclosed group"\)\.$/);
});

test('under (?x) a comment that writes "(?=" or "\\1" is no look-around or backreference', () => {
  // The look-around and backreference check read the pattern as written: (?x)a # no (?=here) was "The regex uses "(?="".
  for (const p of ['(?x)a # no (?=here)\n', '(?x)a # see \\1\nb']) assert.equal(verdict(p), undefined, JSON.stringify(p));
  // Where it is, too (the message named only what; a pattern of a few hundred characters may hold several)
  assert.match(verdict('(?x)a (?=b)') ?? '', /^The regex uses "\(\?=" at character 7 of the regex, which Rust regex/);
  assert.match(verdict('(?x)(a) \\1') ?? '', /^The regex uses "\\1" at character 9 of the regex, which Rust regex/);
});

test('an escaped backslash before a digit, or an escaped "(" before "?=", is no backreference or look-around', () => {
  // The check found "\1" inside "\\1" (a backslash, then "1") and "(?=" inside "\(?=" (an optional "(", then "="): both refused
  for (const p of ['^a\\\\1$', '^f\\(?=$']) assert.equal(verdict(p), undefined, JSON.stringify(p));
  assert.equal(run('^a\\\\1$', 'a\\1'), true);
  assert.equal(run('^f\\(?=$', 'f='), true);
  assert.equal(run('^f\\(?=$', 'f(='), true);
  assert.match(verdict('(a)\\\\\\1') ?? '', /^The regex uses "\\1" at character 6 of the regex,/, 'an escaped backslash, then a backreference');
});
