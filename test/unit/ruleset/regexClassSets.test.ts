// Nested classes and class set operations ([a[bc]], [\w--\d], [a-z&&[^aeiou]], [ab~~bc]), which Rust's regex takes and RE2 (the
// evaluator's engine) lacks: the reading (rustRegex.ts readRegex) computes the set regex-syntax makes of such a class
// (regexClassSet.ts) and writes it out as one plain RE2 class, so Test Rules runs what the checker accepts. Case folding under (?i)
// applies to each operand before an operation, as hir/translate.rs does; under (?x) spaces are skipped between items (bump_space,
// peek_space).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileExpression } from '../../../server/src/core';
import { rustRegexRefusal, rustToRe2, regexNestDepth } from '../../../server/src/core/rules/ruleset/rustRegex';

const errors = (p: string) => analyzeExpression(`http.host matches r#"${p}"#`).problems.map((x) => `${x.code}: ${x.message}`);
/** Test Rules' verdict on a host (throws its error when it cannot evaluate the regex). */
const run = (p: string, host: string): boolean => {
  const c = compileExpression(`http.host matches r#"${p}"#`);
  if (!c.ok) throw new Error(c.error);
  return c.expression.test({ 'http.host': host });
};

/** Each shape: the pattern, its RE2 text, strings it matches whole, strings it does not. */
const SHAPES: [string, string, string[], string[]][] = [
  ['^[a[bc]]$', '^[a-c]$', ['a', 'b', 'c'], ['[', ']', 'd', 'a]']],
  ['^[\\w--\\d]$', '^[A-Z\\x{5F}a-z]$', ['a', 'Z', '_'], ['5', '-', ' ']],
  ['^[a-z&&[^aeiou]]$', '^[b-df-hj-np-tv-z]$', ['b', 'z', 'x'], ['a', 'e', 'u', 'B', '&']],
  ['^[ab~~bc]$', '^[ac]$', ['a', 'c'], ['b', '~']],
  ['^[^a[bc]]$', '^[\\x{0}-\\x{60}d-\\x{D7FF}\\x{E000}-\\x{10FFFF}]$', ['d', 'A', 'é', '中'], ['a', 'b', 'c']],
  ['^[[^a]&&[a-c]]$', '^[bc]$', ['b', 'c'], ['a', 'd']],
  ['^[a-z--[b-y]--z]$', '^[a]$', ['a'], ['b', 'z', '-']],
  ['^[\\d&&[4-9]~~[8-9x]]$', '^[4-7x]$', ['4', '7', 'x'], ['3', '8', '9']],
  ['^[&&a]$', '^[^\\x{0}-\\x{10FFFF}]$', [], ['a', '&']],
  ['^[[:alpha:]--[:upper:]]$', '^[a-z]$', ['q'], ['Q', '1']],
  ['^[[:loower:]]$', '^[\\x{3A}elorw]$', [':', 'l', 'w'], ['[', 'a']],
  ['^[\\W&&\\S&&[:ascii:]--[!-/]]$', '^[\\x{0}-\\x{8}\\x{E}-\\x{1F}\\x{3A}-\\x{40}\\x{5B}-\\x{5E}\\x{60}\\x{7B}-\\x{7F}]$', [':', '@', '`', '~'], ['!', '/', 'a', ' ', '\t', 'é']],
];

test('nested classes and class set operations: the RE2 text is the set regex-syntax computes, and Test Rules runs it', () => {
  for (const [p, re2, yes, no] of SHAPES) {
    assert.deepEqual(errors(p), [], p);
    assert.equal(rustToRe2(p), re2, p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
});

test('under (?i) each operand is folded before the operation and the class before its negation (hir/translate.rs); (?-i) and (?i:...) scope it', () => {
  const cases: [string, string[], string[]][] = [
    ['^(?i)[a-z--k]$', ['a', 'A', 'z', 'Z'], ['k', 'K', '\u212A']],
    ['^(?i)[k--K]$', [], ['k', 'K']],
    ['^(?i)[[a-c]&&[B-D]]$', ['b', 'B', 'c', 'C'], ['a', 'A', 'd', 'D']],
    ['^(?i)[^a[b]]$', ['c', 'C', '1'], ['a', 'A', 'b', 'B']],
    ['^(?i)[a[b]](?-i)[a[b]]$', ['Aa', 'bb', 'Ba'], ['aA', 'aB']],
    ['^(?i:[x[y]])[x[y]]$', ['Xx', 'yy'], ['xX', 'xY']],
    ['^[[ab]--(?i)b]$', ['a'], ['b', 'c', 'i']], // "(?i)" inside a class is no flag group: {a, b} minus {(, ?, i, ), b}
  ];
  for (const [p, yes, no] of cases) {
    assert.deepEqual(errors(p), [], p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
  // A negated [:^name:] or \P{..} is folded before it is negated (hir_ascii_*_class, hir_unicode_class: fold_and_negate), so
  // under (?i) it holds no letter of either case: found against regex-syntax 0.6
  for (const [p, yes, no] of [['^(?i)[[:^upper:][1]]$', ['1', '-'], ['a', 'A', 'z']], ['^(?iu)[\\P{Lu}[x]]$', ['1', 'x', 'X'], ['a', 'A', 'é', 'É']]] as const) {
    assert.deepEqual(errors(p), [], p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
  // Without Unicode mode folding is ASCII's: (?i)k is not the Kelvin sign K there (RE2 alone would fold it)
  assert.equal(run('^(?i)[k[k]]$', '\u212A'), false);
  assert.equal(run('^(?iu)[k[k]]$', '\u212A'), true);
});

test('Unicode mode: \\d, \\w, \\s and \\p{..} are Unicode\'s in a computed class, and folding is Unicode\'s', () => {
  const cases: [string, string[], string[]][] = [
    ['^(?u)[\\p{Greek}--\\p{Lu}]$', ['α', 'ω'], ['Α', 'Ω', 'a']],
    ['^(?u)[\\d--[0-9]]$', ['٣', '३'], ['3', 'a']],
    ['^(?u)[[é][ß]]$', ['é', 'ß'], ['e', 'É']],
    ['^(?iu)[[é][ß]]$', ['é', 'É', 'ß', 'ẞ'], ['e']],
    ['^(?u)[\\p{L}&&\\p{Han}]$', ['中'], ['a', 'α']],
  ];
  for (const [p, yes, no] of cases) {
    assert.deepEqual(errors(p), [], p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
  // A property RE2 does not know is refused as in a flat class
  assert.equal(errors('(?u)[\\w&&\\p{Foo}]').length, 1);
});

test('under (?x) a class skips spaces and comments between items, as bump_space and peek_space do', () => {
  const cases: [string, string[], string[]][] = [
    ['(?x)^[a - z]$', ['a', 'm', 'z'], [' ', '-']],
    ['(?x)^[a - -b]$', ['a', '-', '0', 'b'], [' ', 'c']], // "a", then the range "-" to "b": peek_space finds "-" after the first "-"
    ['(?x)^[a - ]$', ['a', '-'], [' ', 'b']],
    ['(?x)^[ ^ a ]$', ['b', ' '], ['a']],
    ['(?x)^[a # comment\n b]$', ['a', 'b'], ['#', 'c', ' ']],
    ['(?x)^[\\ a]$', [' ', 'a'], ['b']],
  ];
  for (const [p, yes, no] of cases) {
    assert.deepEqual(errors(p), [], p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
});

test('leading dashes are each a literal (parse_set_class_open), where RE2 reads "--0" as a range from "-": found against regex-syntax 0.6', () => {
  const cases: [string, string[], string[]][] = [
    ['^[--0-9]$', ['-', '5'], ['.', '/']],
    ['^[^--_]$', ['.', 'a'], ['-', '_']],
    ['^[---~]$', ['-', '~'], ['.', 'a']],
    ['^[-a]$', ['-', 'a'], ['.']],
  ];
  for (const [p, yes, no] of cases) {
    assert.deepEqual(errors(p), [], p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
  assert.equal(rustToRe2('[-a]'), '[-a]'); // one leading dash: RE2 reads it as Rust does, the class is passed as written
});

test('what regex-syntax refuses in such a class is refused, naming where', () => {
  assert.match(rustRegexRefusal('[z-a--b]') ?? '', /the class range "z-a" at character 2 of the regex goes down/);
  assert.match(rustRegexRefusal('[a[\\d-z]]') ?? '', /a class range starts with the class "\\d" at character 4 of the regex/);
  assert.match(rustRegexRefusal('[a&&\\b]') ?? '', /an assertion/);
  assert.match(rustRegexRefusal('[a--[é]]') ?? '', /past ASCII inside a class/);
  assert.equal(errors('[a&&[bc]').length, 1); // unclosed
});

test('a nested class counts toward the nest limit as regex-syntax counts it (a bracket, a union of two or more items, an operation)', () => {
  assert.equal(regexNestDepth('[a]'), 1);
  assert.equal(regexNestDepth('[ab]'), 2);
  assert.equal(regexNestDepth('[a[b[c]]]'), 5);
  assert.equal(regexNestDepth('[a&&b]'), 2);
  const deep = '['.repeat(300) + 'a' + ']'.repeat(300);
  assert.match(rustRegexRefusal(deep) ?? '', /nests 300 levels deep/);
});

// The timeout is a hang guard (the runner fails the test past 60 s), not a measure of time: the verdicts are what is tested.
test('a class over the whole of Unicode is computed, not refused or left hanging', { timeout: 60_000 }, () => {
  for (const p of ['(?u)[\\p{Any}--\\p{L}]', '(?iu)[^\\w&&[^\\p{Greek}]~~\\p{Lu}]', '(?i)[^a[b]--[^\\x00-\\xFF]]{1001}']) {
    assert.deepEqual(errors(p), [], p);
    assert.ok(compileExpression(`http.host matches r#"${p}"#`).ok, p);
  }
});

test('generated nested classes with && and --: the computed class matches what JavaScript\'s own class set operations (the v flag) match', () => {
  // Where both syntaxes agree: ASCII items, \d and \w (ASCII in both without Unicode mode), one operation kind per class, and
  // operations between single operands (JavaScript's v flag refuses a union beside an operation). Negation is over all code points
  // in both (a flat RE2 class's [^a] matches any character but "a", and the computed class keeps that).
  let seed = 7;
  const next = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const operand = (depth: number): string => (depth < 3 && next() < 0.4 ? cls(depth + 1) : pick(['a', 'b', 'e', '0', '5', '_', 'x', '\\d', '\\w', '\\D', '\\W']));
  const cls = (depth: number): string => {
    let body: string;
    if (next() < 0.5) body = Array.from({ length: 1 + Math.floor(next() * 3) }, () => (next() < 0.3 ? pick(['a-c', 'b-x', '0-4', 'A-Z']) : operand(depth))).join('');
    else {
      const op = pick(['&&', '--']);
      body = Array.from({ length: 2 + Math.floor(next() * 2) }, () => operand(depth)).join(op);
    }
    return `[${next() < 0.3 ? '^' : ''}${body}]`;
  };
  const chars: string[] = [];
  for (let c = 0; c < 0x100; c++) chars.push(String.fromCodePoint(c));
  chars.push('\u0100', '中', '😀');
  const bad: string[] = [];
  for (let k = 0; k < 300 && bad.length < 5; k++) {
    const c = cls(0);
    const p = `^${c}$`;
    const js = new RegExp(p, 'v');
    if (errors(p).length > 0) { bad.push(`${c}: refused: ${errors(p)}`); continue; }
    for (const s of chars) if (run(p, s) !== js.test(s)) { bad.push(`${c} on ${JSON.stringify(s)}: Test Rules ${run(p, s)}, JavaScript ${js.test(s)}`); break; }
  }
  assert.deepEqual(bad, []);
});

test('a range that goes down under (?x) is quoted by its ends, without the spaces and comment between them', () => {
  assert.match(rustRegexRefusal('(?x)[a -#c\n]]') ?? '', /the class range "a-\]" at character 6 of the regex goes down/);
});

test('under (?u), \\d, \\w and \\s are Unicode\'s in Test Rules, alone or in a flat class, as in Rust (RE2 reads them as ASCII); without it ASCII\'s', () => {
  for (const p of ['^(?u)\\d$', '^(?u)[\\d]$', '^(?u)[x\\d]$']) {
    assert.equal(run(p, '٣'), true, `${p} on an Arabic-Indic digit`);
    assert.equal(run(p, '7'), true, p);
  }
  assert.equal(run('^(?u)\\w+$', 'école_5'), true);
  assert.equal(run('^(?u)[\\w-]+$', 'naïve-x'), true);
  assert.equal(run('^a(?u)\\sb$', 'a\u2003b'), true);
  assert.equal(run('^(?u)\\D$', '٣'), false);
  assert.equal(run('^(?u)[^\\W]$', 'é'), true);
  // Without Unicode mode they stay ASCII's, as the platform builds its regexes
  assert.equal(run('^\\d$', '٣'), false);
  assert.equal(run('^\\w+$', 'école'), false);
  // A flag group turns Unicode mode on for its part only
  assert.equal(run('^(?u:\\d)\\d$', '٣٣'), false);
  assert.equal(run('^(?u:\\d)\\d$', '٣3'), true);
});

test('without (?u), \\s is Rust\'s ASCII space class, \\v (U+000B) included, alone or in a class; RE2\'s own lacks \\v', () => {
  // regex-syntax: \s without Unicode is [[:space:]] = [\t\n\v\f\r ]; RE2's \s is [\t\n\f\r ].
  assert.equal(run('^a\\sb$', 'a\u000bb'), true);
  assert.equal(run('^a[\\s]b$', 'a\u000bb'), true);
  assert.equal(run('^a[x\\s]b$', 'a\u000bb'), true);
  assert.equal(run('^a\\Sb$', 'a\u000bb'), false);
  assert.equal(run('^a[^\\s]b$', 'a\u000bb'), false);
  assert.equal(run('^a\\sb$', 'a b'), true);
  assert.equal(run('^a\\sb$', 'a\u00a0b'), false, 'ASCII only without (?u)');
  assert.equal(run('^a\\Sb$', 'axb'), true);
});

// regex-syntax reads \p{..} names loosely (UTS #18: case, spaces, "_", "-" and an "is" prefix do not count) and takes long names,
// aliases and the by-value forms; RE2 knows the short and exact ones only, so EdgeKit refused valid Rust regexes ("invalid character
// class range") and Test Rules could not run them.
test('Unicode classes by any name Rust regex takes: loose spellings, long names, aliases, binary properties and by-value forms', () => {
  const cases: [string, string[], string[]][] = [
    ['^(?u)\\p{greek}+$', ['αβγ', 'Ω'], ['abc']],
    ['^(?u)\\p{Is_Greek}$', ['α'], ['a']],
    ['^(?u)\\p{Script=Greek}$', ['α'], ['a']],
    ['^(?u)\\p{sc:Grek}$', ['α'], ['a']],
    ['^(?u)\\p{scx=Grek}$', ['α'], ['a']],
    ['^(?u)\\p{Letter}+$', ['abcα中'], ['1']],
    ['^(?u)\\p{uppercase letter}$', ['A', 'Ω'], ['a']],
    ['^(?u)\\pl$', ['a', 'α'], ['1']],
    ['^(?u)\\p{gc=Lu}$', ['A'], ['a']],
    ['^(?u)\\p{gc!=Lu}$', ['a'], ['A']],
    ['^(?u)\\P{gc!=Lu}$', ['A'], ['a']],
    ['^(?u)\\P{greek}$', ['a'], ['α']],
    ['^(?u)\\p{Alphabetic}$', ['a', 'α'], ['1', '-']],
    ['^(?u)\\p{alpha}$', ['a'], ['1']],
    ['^(?u)\\p{White_Space}$', [' ', '\u2003'], ['a']],
    ['^(?u)[\\p{letter}0-9]+$', ['a1α'], ['-']],
    ['^(?u)[^\\p{Greek}\\p{digit}]$', ['a'], ['α', '7']],
    // regex-syntax: "sc" alone is the general category Currency_Symbol (Sc), not the Script property
    ['^(?u)\\p{sc}$', ['$', '€'], ['a']],
  ];
  for (const [p, yes, no] of cases) {
    assert.deepEqual(errors(p), [], p);
    for (const s of yes) assert.equal(run(p, s), true, `${p} on ${JSON.stringify(s)}`);
    for (const s of no) assert.equal(run(p, s), false, `${p} on ${JSON.stringify(s)}`);
  }
  // A name Rust regex does not know is refused, naming it
  assert.deepEqual(errors('(?u)\\p{Greekk}'), [
    'ruleset/expr-invalid-regex: Invalid regex "(?u)\\\\p{Greekk}": "\\p{Greekk}" at character 5 of the regex names no Unicode property Rust regex knows: a general category (L, Letter, Lu), a script (Greek), a binary property (Alphabetic) or a form such as Script=Greek; case, spaces, "_" and "-" do not count.',
  ]);
});
