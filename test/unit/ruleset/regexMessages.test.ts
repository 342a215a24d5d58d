// A regex the platform refuses gets Rust regex's reason (regex-syntax's ErrorKind, in its own words in parentheses) and the place
// in the pattern where it went wrong, not the JavaScript trial's: "/a(?<n>x/: Unterminated group" showed a rewritten pattern the
// user never wrote, in JavaScript's words, with no place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileRustRegex } from '../../../server/src/core/rules/ruleset/rustRegex';
import { compileExpression } from '../../../server/src/core/eval/rules';
import { jsProperty } from '../../../server/src/core/rules/ruleset/unicodeNames';
import VALUE_ALIASES from 'unicode-property-value-aliases-ecmascript';

const regexErrors = (pattern: string) => analyzeExpression(`http.host matches r#"${pattern}"#`).problems
  .filter((p) => p.code === 'ruleset/expr-invalid-regex' || p.code === 'ruleset/expr-syntax').map((p) => p.message);
const reason = (pattern: string): string => {
  const all = regexErrors(pattern);
  assert.equal(all.length, 1, `${JSON.stringify(pattern)}: ${JSON.stringify(all)}`);
  const prefix = `Invalid regex ${JSON.stringify(pattern)}: `;
  assert.ok(all[0].startsWith(prefix), all[0]);
  return all[0].slice(prefix.length);
};

test('groups: not closed, closing nothing, an unknown flag or group syntax, flags cut off by the end', () => {
  assert.equal(reason('^/old/('), 'the group opened at character 7 of the regex is not closed ("unclosed group").');
  assert.equal(reason('(a(b)'), 'the group opened at character 1 of the regex is not closed ("unclosed group").');
  assert.equal(reason('a(b(c)'), 'the group opened at character 2 of the regex is not closed ("unclosed group").');
  assert.equal(reason('a)'), 'the ")" at character 2 of the regex closes no group ("unopened group"); write \\) for a parenthesis.');
  assert.equal(reason('(a))b'), 'the ")" at character 4 of the regex closes no group ("unopened group"); write \\) for a parenthesis.');
  assert.equal(reason('(?z)'), '"z" at character 3 of the regex in "(?z)" is no flag Rust regex knows: i, m, s, U, u, x or R ("unrecognized flag").');
  assert.equal(reason('x(?i-z:a)'), '"z" at character 6 of the regex in "(?i-z:" is no flag Rust regex knows: i, m, s, U, u, x or R ("unrecognized flag").');
  assert.match(reason('a(?#=x)'), /^"#" at character 4 of the regex in "\(\?#=x\)" is no flag Rust regex knows: .*\("unrecognized flag"\); Rust regex has no \(\?#\.\.\.\) comments: under \(\?x\) a "#" starts a comment to the end of the line\.$/);
  assert.match(reason('(?P=n)'), /^"P" at character 3 of the regex in "\(\?P=n\)" is no flag Rust regex knows.*; a named backreference \(\?P=name\) is not supported by Rust regex\.$/);
  assert.equal(reason('(?i'), '"(?i" at character 1 of the regex is cut off by the end of the regex: Rust regex expects more flags, ":" or ")" ("expected flag but got end of regex").');
  assert.equal(reason('ab(?'), 'the group opened at character 3 of the regex is not closed ("unclosed group").');
  // The first problem in reading order is the one said, as regex-syntax stops at its first error
  assert.match(reason('(?ii)(?z)'), /repeats the flag "i" at character 4,/);
  assert.match(reason('(?zi)(?ii)'), /^"z" at character 3 of the regex/);
});

test('capture group names: empty, invalid characters, cut off, used twice', () => {
  assert.equal(reason('(?P<>a)'), 'the capture group at character 1 of the regex has an empty name ("empty capture group name").');
  assert.equal(reason('(?<>a)'), 'the capture group at character 1 of the regex has an empty name ("empty capture group name").');
  assert.equal(reason('(?P<1a>x)'), '"1" at character 5 of the regex cannot be in the capture group name: a name starts with a letter or "_", then letters, digits, "_", ".", "[" or "]" ("invalid capture group character").');
  assert.equal(reason('(?<a-b>x)'), '"-" at character 5 of the regex cannot be in the capture group name: a name starts with a letter or "_", then letters, digits, "_", ".", "[" or "]" ("invalid capture group character").');
  assert.equal(reason('a(?P<n>x'), 'the group opened at character 2 of the regex is not closed ("unclosed group").');
  assert.equal(reason('(?P<name'), 'the capture group name at character 5 of the regex is not closed by ">" ("unclosed capture group name").');
  // cut off right after "<": the place is the group's "(", not past the end of the regex (it said "at 4" of a 3-character regex)
  assert.equal(reason('(?<'), 'the capture group opened at character 1 of the regex is cut off by the end of the regex before its name ("unclosed capture group name").');
  assert.equal(reason('a(?P<'), 'the capture group opened at character 2 of the regex is cut off by the end of the regex before its name ("unclosed capture group name").');
  assert.equal(reason('(?P<n>a)(?P<n>b)'), 'the capture group name "n" at character 13 of the regex is the name of the group at character 1 too ("duplicate capture group name").');
  assert.equal(reason('(?<n>a)|(?P<n>b)'), 'the capture group name "n" at character 13 of the regex is the name of the group at character 1 too ("duplicate capture group name").');
  // What Rust takes: letters past ASCII, digits after the first, ".", "[", "]"
  // (RE2 refused the names past ASCII and with ".", "[", "]": "invalid named capture"; a name past 75 characters was read as a "("
  // and a "?" repeating nothing)
  const long = `(?P<${'n'.repeat(100)}>x)`;
  for (const p of ['(?P<é>x)', '(?<a.b[0]>x)', '(?<_1>x)', '(?P<n>a)(?P<m>b)', '(?<Ωμέγα>x)', long]) assert.deepEqual(regexErrors(p), [], p);
  // and Test Rules runs them, the groups numbered as written
  const m = compileRustRegex('^(?P<é>a+)(?<x.y>b)$').matcher('aab');
  assert.equal(m.matches(), true);
  assert.equal(m.group(1), 'aa');
  assert.equal(m.group(2), 'b');
  assert.equal(compileRustRegex(`^${long}$`).matcher('x').matches(), true);
});

test('classes and counts: the place and Rust regex words, where the JavaScript trial said "Range out of order" or "numbers out of order"', () => {
  assert.equal(reason('[z-a]'), 'the class range "z-a" at character 2 of the regex goes down, which Rust regex refuses ("invalid character class range, the start must be <= the end").');
  assert.equal(reason('x{2,1}'), 'the counted repetition "{2,1}" at character 2 of the regex has its minimum above its maximum.');
  assert.equal(reason('ab[cd'), 'the class opened at character 3 of the regex is not closed ("unclosed character class").');
  assert.equal(reason('[a'), 'the class opened at character 1 of the regex is not closed ("unclosed character class").');
});

test('a lone backslash at the end says where', () => {
  assert.equal(reason('ab\\'), 'it ends with a lone backslash at character 3 of the regex, which escapes nothing ("incomplete escape sequence, reached end of pattern prematurely"); write \\\\ for a backslash.');
});

test('a repetition of nothing says where, in Rust regex words (RE2 said "missing argument to repetition operator" with no place)', () => {
  assert.equal(reason('*a'), '"*" at character 1 of the regex repeats nothing ("repetition operator missing expression"); write \\* for the character.');
  assert.equal(reason('a|+b'), '"+" at character 3 of the regex repeats nothing ("repetition operator missing expression"); write \\+ for the character.');
  assert.equal(reason('(?:?a)'), '"?" at character 4 of the regex repeats nothing ("repetition operator missing expression"); write \\? for the character.');
  // Under (?x) parse_group skips spaces after "(": "( ?i)" and "( ?:a)" are groups, not a "?" repeating nothing
  assert.deepEqual(regexErrors('(?x)( ?i)a'), []);
  assert.deepEqual(regexErrors('(?x)( ?:a)'), []);
});

test('no message of a refused regex shows the JavaScript trial\'s text or words', () => {
  const refused = ['a)', '(a', '[a', '(?z)', 'a(?#=x)', 'x{2,1}', '[z-a]', '(?P<1a>x)', '(?P<n>a)(?P<n>b)', '(?i', '*a',
    '(?x)a # c\n(', '(?x)[[a]b', '[a-z&&[^aeiou]](', '(?u)\\w(', '(?i)[é-a]', '(?P<n>', '(?:a|b', '((((a)))'];
  for (const p of refused) {
    const all = regexErrors(p);
    assert.equal(all.length, 1, `${JSON.stringify(p)}: ${JSON.stringify(all)}`);
    assert.doesNotMatch(all[0], /: \/.*\/: |Unterminated|Invalid group|Unmatched|Nothing to repeat|out of order|Invalid capture|Duplicate capture|missing argument/, all[0]);
    assert.match(all[0], / at character \d+ of the regex/, all[0]);
  }
});

test('the problem is placed on the character its message names, in the expression as written (the whole string was underlined)', () => {
  const placed = (expr: string) => analyzeExpression(expr).problems.filter((p) => p.code === 'ruleset/expr-invalid-regex')
    .map((p) => expr.slice(p.offset, p.offset + p.length));
  // a raw string: the pattern as written
  assert.deepEqual(placed('http.host matches r#"^/old/("#'), ['(']);
  assert.deepEqual(placed('http.host matches r"(?z)"'), ['z']);
  assert.deepEqual(placed('http.host matches r"😀)"'), [')']);
  assert.deepEqual(placed('http.host matches r"é(?P<1a>x)"'), ['1']);
  // a "matches" string: \" outside a class is one character of the pattern, written with two
  assert.deepEqual(placed('http.host matches "a\\"b)"'), [')']);
  assert.deepEqual(placed('http.host matches "\\"(?z\\")"'), ['z']);
  assert.deepEqual(placed('http.host matches "a\\"("'), ['(']);
  assert.deepEqual(placed('http.host matches "[\\"](x"'), ['(']);
  // a look-around: what it is, whole
  assert.deepEqual(placed('http.host matches r"a(?=b)"'), ['(?=']);
  assert.deepEqual(placed('http.host matches "\\"(?!b)"'), ['(?!']);
  // the size limit: on the counted repetition that makes it, else (no count) the whole string
  assert.deepEqual(placed('http.host matches r"a{400000}"'), ['{400000}']);
  assert.deepEqual(placed('http.host matches r"x(?:ab{2}){400000}?"'), ['{400000}?']);
  // a regex in a function's argument: an ordinary string with no escape maps as written; one with escapes keeps the whole string
  assert.deepEqual(placed('regex_replace(http.request.uri.path, "a)", "") eq "x"'), [')']);
  assert.deepEqual(placed('regex_replace(http.request.uri.path, "\\x41)", "") eq "x"'), ['"\\x41)"']);
});

test('the place maps back to the pattern: on generated patterns, what is underlined is what the message names', () => {
  const pieces = ['a', '(', ')', '[', ']', '{2}', '?', '*', '|', '\\', '(?', '(?i)', '(?P<', '>', 'é', '😀', '\\"', '"', '#', '(?x)', '-', 'z'];
  let seed = 7;
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
  let placedCount = 0;
  for (let k = 0; k < 3000; k++) {
    let p = '';
    for (let j = 1 + Math.floor(rnd() * 7); j > 0; j--) p += pieces[Math.floor(rnd() * pieces.length)];
    // As a raw string r#"..."# (a pattern with "# in it cannot be written so), and as a "matches" string when it has no quote
    const forms = p.includes('"#') ? [] : [`r#"${p}"#`];
    if (!p.includes('"') && !p.endsWith('\\')) forms.push(`"${p}"`);
    for (const lit of forms) {
      const expr = `http.host matches ${lit}`;
      const problem = analyzeExpression(expr).problems.find((q) => q.code === 'ruleset/expr-invalid-regex');
      if (!problem) continue;
      const shown = expr.slice(problem.offset, problem.offset + problem.length);
      // A place the message names ("at 3"; a flag repeated names its group and the flag, and is placed on the flag)
      // "at character 3" counts characters (a surrogate pair is one): back to the pattern's UTF-16 index
      const index = (n: number) => { let k = 0; for (let c = 1; c < n && k < p.length; c++) k += p.codePointAt(k)! > 0xffff ? 2 : 1; return k; };
      const places = [...problem.message.replace(/^Invalid regex "(?:[^"\\]|\\.)*": /, '').matchAll(/(?:^|[ "])at character (\d+)\b/g)].map((m) => index(Number(m[1])));
      if (shown === lit) continue;
      placedCount++;
      assert.ok(places.some((at) => p.startsWith(shown, at)), `${expr}: underlined ${JSON.stringify(shown)}, the message says ${problem.message}`);
    }
  }
  assert.ok(placedCount > 500, `only ${placedCount} placed`);
});

test('a Unicode class by value: Age, Word_Break, Sentence_Break, Grapheme_Cluster_Break are taken with a note (RE2 refused them: "invalid character class range"); a property or value Rust lacks is refused in its words', () => {
  const all = (pattern: string) => analyzeExpression(`http.host matches r#"${pattern}"#`).problems.map((p) => `${p.code} ${p.message}`);
  for (const p of ['(?u)\\p{Age=3.0}', '(?u)\\p{age:6.1}', '(?u)\\P{Word_Break=ALetter}', '(?u)\\p{wb=LE}', '(?u)[\\p{Sentence_Break=Upper}a]', '(?u)\\p{Grapheme_Cluster_Break=Extend}+x']) {
    const got = all(p);
    assert.equal(got.length, 1, `${p}: ${JSON.stringify(got)}`);
    assert.match(got[0], /^ruleset\/expr-regex-untestable "\\[pP]\{[^}]+\}" at character \d+ of the regex is a class by value of (Age|Word_Break|Sentence_Break|Grapheme_Cluster_Break), a Unicode class the platform's Rust regex reads and EdgeKit has no table for: Test Rules cannot test this rule\.$/, p);
  }
  assert.equal(reason('(?u)\\p{Alphabetic=yes}'), '"\\p{Alphabetic=yes}" at character 5 of the regex: Alphabetic takes no value in Rust regex; write \\p{Alphabetic} ("Unicode property value not found").');
  assert.equal(reason('(?u)\\p{sc=Foo}'), '"\\p{sc=Foo}" at character 5 of the regex: "Foo" is no value of Script Rust regex knows ("Unicode property value not found").');
  assert.equal(reason('(?u)\\p{Foo=bar}'), '"\\p{Foo=bar}" at character 5 of the regex names no property Rust regex reads by value: General_Category (gc), Script (sc), Script_Extensions (scx), Age, Grapheme_Cluster_Break (gcb), Sentence_Break (sb) or Word_Break (wb) ("Unicode property not found", or "Unicode property value not found" of a property it knows without values, such as Bidi_Class).');
  // Unicode mode first, as before
  assert.match(reason('\\p{Age=3.0}'), /needs Unicode mode/);
  // Test Rules refuses to run it, naming it (the RE2 text holds a stand-in for the class)
  const c = compileExpression('http.request.uri.path matches r"(?u)^/\\p{Age=3.0}+$"');
  assert.equal(c.ok, false);
  assert.match(c.ok ? '' : c.error, /valid Rust regex, but EdgeKit has no table for "\\p\{Age=3\.0\}" at character 7 of the regex \(a class by value of Age\), so it cannot run it/);
  // and the rest of the pattern is still checked
  assert.match(reason('(?u)\\p{Age=3.0}(?z)'), /"z" at character 18 of the regex/);
  // the ones JavaScript has tables for stay as they were: no problem
  for (const p of ['(?u)\\p{Script=Greek}', '(?u)\\p{gc=Lu}', '(?u)\\p{scx:Grek}']) assert.deepEqual(all(p), [], p);
});

test('a binary property regex-syntax has and JavaScript lacks (\\p{Hyphen}, \\p{Other_Alphabetic}) is taken with a note, by any of its loose names (it was "names no Unicode property Rust regex knows")', () => {
  const all = (pattern: string) => analyzeExpression(`http.host matches r#"${pattern}"#`).problems.map((p) => `${p.code} ${p.message}`);
  // the 15 of regex-syntax 0.8.11's property_bool.rs that Node's RegExp has no table for, by canonical name, alias and loose spelling
  const names = ['Grapheme_Link', 'grlink', 'Hyphen', 'IDS_Unary_Operator', 'IDSU', 'ID_Compat_Math_Continue', 'ID_Compat_Math_Start',
    'Modifier_Combining_Mark', 'MCM', 'Other_Alphabetic', 'OAlpha', 'other alphabetic', 'Is_Other-Alphabetic', 'Other_Default_Ignorable_Code_Point',
    'ODI', 'Other_Grapheme_Extend', 'OGr_Ext', 'Other_ID_Continue', 'OIDC', 'Other_ID_Start', 'OIDS', 'Other_Lowercase', 'OLower',
    'Other_Math', 'OMath', 'Other_Uppercase', 'OUpper', 'Prepended_Concatenation_Mark', 'PCM'];
  for (const name of names) {
    const got = all(`(?u)x\\p{${name}}`);
    assert.equal(got.length, 1, `${name}: ${JSON.stringify(got)}`);
    assert.match(got[0], /^ruleset\/expr-regex-untestable "\\p\{[^}]+\}" at character 6 of the regex is the binary property [A-Za-z_]+, a Unicode class the platform's Rust regex reads and EdgeKit has no table for: Test Rules cannot test this rule\.$/, name);
  }
  assert.deepEqual(all('(?u)\\P{oalpha}+'), ['ruleset/expr-regex-untestable "\\P{oalpha}" at character 5 of the regex is the binary property Other_Alphabetic, a Unicode class the platform\'s Rust regex reads and EdgeKit has no table for: Test Rules cannot test this rule.']);
  // in a class, in a set operation (the RE2 text holds one stand-in for the whole class: it was RE2's "invalid character class range")
  for (const p of ['(?u)[\\p{Hyphen}a]', '(?u)[^\\p{OAlpha}--\\d]', '(?u)[a[\\p{Hyphen}]]{2}', '(?u)[^\\p{Age=3.0}--\\d]x']) {
    assert.deepEqual(all(p).map((m) => m.split(' ')[0]), ['ruleset/expr-regex-untestable'], p);
  }
  // InCB is in property_bool.rs, but regex-syntax reads "incb" as Indic_Conjunct_Break, which it has no set for: refused there too
  assert.match(reason('(?u)\\p{InCB}'), /names no Unicode property Rust regex knows/);
  assert.match(reason('\\p{Hyphen}'), /needs Unicode mode/);
  const c = compileExpression('http.request.uri.path matches r"(?u)^/\\p{Hyphen}+$"');
  assert.equal(c.ok, false);
  assert.match(c.ok ? '' : c.error, /valid Rust regex, but EdgeKit has no table for "\\p\{Hyphen\}" at character 7 of the regex \(the binary property Hyphen\), so it cannot run it/);
});

test('a value of Age or a break property is checked against regex-syntax\'s (it took any value: \\p{wb=Foo}, \\p{Age=na})', () => {
  assert.equal(reason('(?u)\\p{wb=Foo}'), '"\\p{wb=Foo}" at character 5 of the regex: "Foo" is no value of Word_Break Rust regex knows ("Unicode property value not found"); its values: ALetter, CR, Double_Quote, ExtendNumLet, Extend, Format, Hebrew_Letter, Katakana, LF, MidNumLet, MidLetter, MidNum, Newline, Numeric, Regional_Indicator, Single_Quote, WSegSpace, ZWJ.');
  assert.equal(reason('(?u)\\p{Age=na}'), '"\\p{Age=na}" at character 5 of the regex: "na" is no value of Age Rust regex knows ("Unicode property value not found"); its values: the Unicode versions 1.1 to 16.0 (V1_1 to V16_0).');
  // values regex-syntax lists and has no set for (Other, the emoji values Unicode retired) are refused as it refuses them
  for (const p of ['(?u)\\p{Age=Unassigned}', '(?u)\\p{Age=17.0}', '(?u)\\p{Age=v3.0}', '(?u)\\p{gcb=Other}', '(?u)\\p{gcb=XX}', '(?u)\\p{wb=E_Base}', '(?u)\\p{Word_Break=GAZ}', '(?u)\\p{sb=Other}', '(?u)\\p{sb:1.1}', '(?u)[\\p{gcb!=Foo}]']) {
    assert.match(reason(p), /is no value of (Age|Grapheme_Cluster_Break|Word_Break|Sentence_Break) Rust regex knows \("Unicode property value not found"\)/, p);
  }
  // its loose matching, and its aliases: taken
  const all = (pattern: string) => analyzeExpression(`http.host matches r#"${pattern}"#`).problems.map((p) => p.code);
  for (const p of ['(?u)\\p{Age=V3_0}', '(?u)\\p{age:is 16.0}', '(?u)\\p{wb=ex}', '(?u)\\p{wb=extend_num-let}', '(?u)\\p{gcb=cn}', '(?u)\\p{gcb=LVT}', '(?u)\\p{sb=sc}', '(?u)\\p{Sentence_Break=STerm}']) {
    assert.deepEqual(all(p), ['ruleset/expr-regex-untestable'], p);
  }
  // underlined at the class
  const expr = 'http.host matches r#"(?u)a\\p{wb=Foo}"#';
  const problem = analyzeExpression(expr).problems.find((p) => p.code === 'ruleset/expr-invalid-regex')!;
  assert.equal(expr.slice(problem.offset, problem.offset + problem.length), '\\p{wb=Foo}');
});

test('a wildcard pattern\'s problem is underlined where it is: the escape it refuses, the "**" (the whole string was underlined)', () => {
  const placed = (expr: string) => analyzeExpression(expr).problems.filter((p) => p.code === 'ruleset/expr-invalid-wildcard')
    .map((p) => expr.slice(p.offset, p.offset + p.length));
  assert.deepEqual(placed('http.request.uri.path wildcard "/a/**/b"'), ['**']);
  assert.deepEqual(placed('http.request.uri.path wildcard r"/a\\q/*"'), ['\\q']);
  // an ordinary string writes a backslash as \\ and a quote as \": the escape is underlined as written
  assert.deepEqual(placed('http.request.uri.path wildcard "/a\\\\q/*"'), ['\\\\q']);
  assert.deepEqual(placed('http.request.uri.path wildcard "/\\"a\\\\*/**"'), ['**']);
  assert.deepEqual(placed('http.request.uri.path strict wildcard "/a/*\\\\"'), ['\\\\']);
  // an escape that decodes to bytes (\x41) cannot be mapped: the whole string
  assert.deepEqual(placed('http.request.uri.path wildcard "/\\x41/**"'), ['"/\\x41/**"']);
  assert.deepEqual(placed('wildcard_replace(http.request.uri.path, "/a/**", "/b") eq "x"'), ['**']);
});

// rv22: against regex-syntax 0.8.11 built offline (wirefilter's settings: unicode off, utf8 off)
test('under (?x) a group\'s "?" may follow spaces and comments after its "(" (parse_group bump_space): read as Rust reads it', () => {
  // Rust takes these: a flag group, a named group with a name RE2 lacks, x turned off inside
  for (const p of ['(?x)( ?P<é>a)', '(?x)( ?<a.b>x)', '(?x)( ?x)', '(?x)( ?-x) a', '(?x)( #c\n?i)a', '(?x)(\t?i:a)b']) {
    assert.deepEqual(regexErrors(p), [], p);
    const c = compileExpression(`http.host matches r###"${p}"###`);
    assert.equal(c.ok, true, `${p}: ${c.ok ? '' : c.error}`);
  }
  // ( ?-x) turns x off: the space after it is the regex's
  assert.equal(compileRustRegex('(?x)^( ?-x) a$').matcher(' a').matches(), true);
  // and refuses these in its words, with the place (they were "Invalid group", "duplicate capture group name: `n`", RE2's and JavaScript's)
  assert.equal(reason('(?x)( ?)'), '"( ?)" at character 5 of the regex has no flags, which Rust regex refuses ("repetition operator missing expression").');
  assert.match(reason('(?x)( ?z)'), /^"z" at character 8 of the regex in "\( \?z\)" is no flag Rust regex knows/);
  assert.equal(reason('(?x)(?P<n>a)( ?P<n>b)'), 'the capture group name "n" at character 18 of the regex is the name of the group at character 5 too ("duplicate capture group name").');
  assert.deepEqual(regexErrors('(?x)( ?=a)'), ['The regex uses "( ?=" at character 5 of the regex, which Rust regex (the platform\'s) does not support: no look-around or backreferences.']);
});

test('the place of a refusal is in the pattern and on what the message names (rv22)', () => {
  const placed = (expr: string) => analyzeExpression(expr).problems.filter((p) => p.code === 'ruleset/expr-invalid-regex')
    .map((p) => expr.slice(p.offset, p.offset + p.length));
  // a capture group cut off after "(?P<": its "(" (the whole string was underlined: the place was past the pattern's end)
  assert.deepEqual(placed('http.host matches r"a(?P<"'), ['(']);
  // a class range that starts or ends with a class: on the class, named whole (it named the "d" of "\\d", or the "-")
  assert.equal(reason('[a-\\d]'), 'a class range ends with the class "\\d" at character 4 of the regex, which Rust regex refuses; escape the "-" (\\-).');
  assert.equal(reason('[\\d-z]'), 'a class range starts with the class "\\d" at character 2 of the regex, which Rust regex refuses; escape the "-" (\\-).');
  assert.equal(reason('(?u)[x\\p{L}-z]'), 'a class range starts with the class "\\p{L}" at character 7 of the regex, which Rust regex refuses; escape the "-" (\\-).');
  assert.deepEqual(placed('http.host matches r"[a-\\d]"'), ['\\']);
  assert.deepEqual(placed('http.host matches r"[\\w-z]"'), ['\\']);
});

test('a Unicode class cut off, or by value, in regex-syntax\'s words (rv22)', () => {
  // cut off: regex-syntax's EscapeUnexpectedEof (it said "names no Unicode property" of "\\p{", and RE2's "invalid character class range" of "\\p")
  assert.equal(reason('(?u)\\p{Greek'), '"\\p{Greek" at character 5 of the regex is cut off by the end of the regex before its "}" ("incomplete escape sequence, reached end of pattern prematurely").');
  assert.equal(reason('(?u)a\\p'), '"\\p" at character 6 of the regex is cut off by the end of the regex before its name ("incomplete escape sequence, reached end of pattern prematurely").');
  // a name split where regex-syntax splits it: at "!=", else ":", else "=" (sc=a:b is the property "sc=a", not the script "a:b")
  assert.match(reason('(?u)\\p{sc=a:b}'), /^"\\p\{sc=a:b\}" at character 5 of the regex names no property Rust regex reads by value/);
  // a property regex-syntax knows by name and has no values of: "value not found" in its words (it said "property not found")
  assert.match(reason('(?u)\\p{Bidi_Class=L}'), /\("Unicode property not found", or "Unicode property value not found" of a property it knows without values, such as Bidi_Class\)\.$/);
  // a name with a letter past ASCII: regex-syntax drops it (symbolic_name_normalize), so \\p{Gréek} is Greek
  assert.deepEqual(regexErrors('(?u)\\p{Gréek}'), []);
  assert.equal(compileRustRegex('(?u)^\\p{Gréek}$').matcher('α').matches(), true);
});

test('what regex-syntax refuses as it parses is said before what it refuses as it translates, wherever each is (rv22)', () => {
  // Unicode mode and property names are judged once the whole regex is parsed (hir/translate.rs): a group not closed after them
  // is the error (it said "needs Unicode mode" of "\pL(", "past ASCII" of "[é](")
  assert.equal(reason('\\pL('), 'the group opened at character 4 of the regex is not closed ("unclosed group").');
  assert.equal(reason('[é]('), 'the group opened at character 4 of the regex is not closed ("unclosed group").');
  assert.match(reason('(?u)\\p{Alphabetic=x}(?z)'), /^"z" at character 23 of the regex /);
  assert.match(reason('\\pL[z-a]'), /^the class range "z-a" at character 5 of the regex goes down/);
  // and alone, they are said as before
  assert.match(reason('\\pL'), /needs Unicode mode/);
  assert.match(reason('[é]'), /past ASCII inside a class/);
  // a "\p" cut off is a parse error, Unicode mode or not
  assert.match(reason('\\p{Greek'), /^"\\p\{Greek" at character 1 of the regex is cut off by the end of the regex before its "}"/);
  assert.match(reason('\\p\\'), /^"\\p\\" at character 1 of the regex: a Unicode class is named by a letter/);
});

test('what Rust takes is not refused by the JavaScript trial, whose rewrites read "(?i)" and "(?P<" after a backslash or in a class (rv22)', () => {
  // regex-syntax 0.8.11 takes each; the trial refused them in JavaScript's words ("\ at end of pattern", "Unterminated group",
  // "Range out of order in character class"): its rewrites dropped "(?i)" from "\(?i)" and "[z(?i)-a]", and put "(" for "(?P<)*>"
  for (const p of [' !((?i)#>\\(?i)', '( 😀\\(?P<)*>', '[z(?i)-a]', 'a\\(?i\\)b', '[(?P<x>]']) {
    assert.deepEqual(regexErrors(p), [], p);
    const c = compileExpression(`http.host matches r###"${p}"###`);
    assert.equal(c.ok, true, `${p}: ${c.ok ? '' : c.error}`);
  }
});

test('the first error in reading order is said: a look-around after another error, an assertion in a class left open (rv22)', () => {
  // a repetition of nothing before a look-ahead: regex-syntax stops at the "*" (the look-ahead was said, wherever it was)
  assert.equal(reason('*a(?=b)'), '"*" at character 1 of the regex repeats nothing ("repetition operator missing expression"); write \\* for the character.');
  assert.match(reason('(?<(a(?<!b)'), /^"\(" at character 4 of the regex cannot be in the capture group name/);
  // the look-around first: said as before
  assert.deepEqual(regexErrors('(?=b)*a'), ['The regex uses "(?=" at character 1 of the regex, which Rust regex (the platform\'s) does not support: no look-around or backreferences.']);
  // an assertion in a class is refused once the class goes on (into_class_set_item, after the end-of-regex check): a class cut off
  // after it is "not closed"; \b{...} is read in a class too, so an unknown name is said first
  assert.equal(reason('[a\\b'), 'the class opened at character 1 of the regex is not closed ("unclosed character class").');
  assert.equal(reason('[a\\b{start}'), 'the class opened at character 1 of the regex is not closed ("unclosed character class").');
  assert.match(reason('[a\\b{start}]'), /^"\\b\{start\}" at character 3 of the regex is an assertion, which Rust regex refuses inside a class/);
  assert.match(reason('[\\b{foo}]'), /^"\\b\{foo\}" at character 2 of the regex is no word boundary Rust regex knows/);
  assert.match(reason('[a\\b]'), /^"\\b" at character 3 of the regex is an assertion/);
  assert.equal(reason('[\\b-'), 'the class opened at character 1 of the regex is not closed ("unclosed character class").');
  assert.match(reason('[\\b-a]'), /^"\\b" at character 2 of the regex is an assertion/);
});

test('the nest limit is said before what regex-syntax refuses as it translates (NestLimiter runs between the two) (rv22)', () => {
  const deep = `${'('.repeat(300)}a${')'.repeat(300)}`;
  for (const p of [`\\pL${deep}`, `${deep}[é]`, `(?u)\\p{Foo}${deep}`]) assert.match(reason(p), /nest/i, p);
  // a parse error before the nest limit, as before
  assert.match(reason(`${deep}(?z)`), /^"z" at /);
});

test('under (?x), \\p {L}, \\p L and \\p{ L # comment } are Unicode classes, as regex-syntax\'s parse_unicode_class skips spaces and comments (it was "{" starting a counted repetition, or "\\p " naming no property)', () => {
  const all = (pattern: string) => analyzeExpression(`http.host matches r#"${pattern}"#`).problems.map((p) => `${p.code} ${p.message}`);
  for (const p of ['(?x)(?u)\\p {L}', '(?x)(?u)\\P L+', '(?x)(?u)[\\p {Greek}a]', '(?x)(?u)\\p{ Gr eek }', '(?x)(?u)\\p # c\n{ L # c\n }', '(?x)(?u)[\\p {L}&&\\p{ Greek }]']) {
    assert.deepEqual(all(p), [], p);
  }
  // run as Rust reads it
  assert.equal(compileRustRegex('(?x)(?u)^\\p {L}+$').matcher('éa').matches(), true);
  assert.equal(compileRustRegex('(?x)(?u)^\\P L$').matcher('1').matches(), true);
  assert.equal(compileRustRegex('(?x)(?u)^[\\p {Greek}&&\\p{ Ll }]$').matcher('α').matches(), true);
  assert.equal(compileRustRegex('(?x)(?u)^[\\p {Greek}&&\\p{ Ll }]$').matcher('Α').matches(), false);
  // a name Rust lacks, a value, Unicode mode: said of the class as written, underlined whole
  assert.equal(reason('(?x)(?u)\\p {Foo}'), '"\\p {Foo}" at character 9 of the regex names no Unicode property Rust regex knows: a general category (L, Letter, Lu), a script (Greek), a binary property (Alphabetic) or a form such as Script=Greek; case, spaces, "_" and "-" do not count.');
  assert.match(reason('(?x)\\p L'), /^the Unicode class "\\p L" at character 5 of the regex needs Unicode mode/);
  assert.deepEqual(all('(?x)(?u)\\p {Hyphen}').map((m) => m.split(' ')[0]), ['ruleset/expr-regex-untestable']);
  // cut off, or an escape for the letter, past the spaces
  assert.match(reason('(?x)(?u)a\\p  '), /^"\\p  " at character 10 of the regex is cut off by the end of the regex before its name/);
  assert.match(reason('(?x)(?u)\\p { L'), /^"\\p \{ L" at character 9 of the regex is cut off by the end of the regex before its "\}"/);
  assert.match(reason('(?x)(?u)\\p \\d'), /^"\\p \\" at character 9 of the regex: a Unicode class is named by a letter/);
  // outside (?x) a space is the class's letter, as in regex-syntax: "{" then starts a counted repetition
  assert.match(reason('(?u)\\p {L}'), /^"\{" at character 8 of the regex starts a counted repetition/);
  const expr = 'http.host matches r#"(?x)(?u)a\\p {Foo}"#';
  const problem = analyzeExpression(expr).problems.find((p) => p.code === 'ruleset/expr-invalid-regex')!;
  assert.equal(expr.slice(problem.offset, problem.offset + problem.length), '\\p {Foo}');
});

test('names JavaScript reads and regex-syntax 0.8.11 refuses are refused (they were taken): isc, Changes_When_NFKC_Casefolded, Surrogate, Unknown, the scripts of Unicode 17', () => {
  // symbolic_name_normalize keeps "isc" (ISO_Comment), where dropping the "is" gave the general category C
  for (const p of ['(?u)\\p{isc}', '(?u)\\p{IsC}', '(?u)\\p{is c}', '(?u)\\p{Changes_When_NFKC_Casefolded}', '(?u)\\p{CWKCF}', '(?u)\\p{Sidetic}', '(?u)\\p{Tai_Yo}', '(?u)\\p{Beria Erfe}', '(?u)\\p{Tolong_Siki}']) {
    assert.match(reason(p), /names no Unicode property Rust regex knows/, p);
  }
  assert.equal(reason('(?u)\\P{Cs}'), '"\\P{Cs}" at character 5 of the regex: "Cs" is a value of General_Category Rust regex has no class for ("Unicode property value not found").');
  for (const p of ['(?u)\\p{Surrogate}', '(?u)\\p{gc=Cs}', '(?u)\\p{Unknown}', '(?u)\\p{Zzzz}', '(?u)\\p{sc=Zzzz}', '(?u)\\p{scx:Unknown}']) {
    assert.match(reason(p), /is a value of (General_Category|Script|Script_Extensions) Rust regex has no class for \("Unicode property value not found"\)/, p);
  }
  assert.match(reason('(?u)\\p{sc=Sidetic}'), /"Sidetic" is no value of Script Rust regex knows/);
  // their neighbours stay taken
  const all = (pattern: string) => analyzeExpression(`http.host matches r#"${pattern}"#`).problems.map((p) => p.code);
  // as many scripts as regex-syntax 0.8.11 has sets for (script.rs: 170); a Node with newer Unicode tables adds scripts, to be
  // added to RUST_LACKS (unicodeNames.ts) as long as wirefilter's regex-syntax lacks them
  const scripts = new Set([...VALUE_ALIASES.get('Script')!].map(([, canonical]) => canonical));
  assert.equal([...scripts].filter((c) => jsProperty(`sc=${c}`)).length, 170);
  for (const p of ['(?u)\\p{C}', '(?u)\\p{Is_Cyrillic}', '(?u)\\p{isCc}', '(?u)\\p{Changes_When_Casefolded}', '(?u)\\p{Co}', '(?u)\\p{Zyyy}']) assert.deepEqual(all(p), [], p);
});

test('a place is said as "at character N of the regex", counted in characters from 1 (it was "at N", read as a column of the line; a surrogate pair counted two)', () => {
  assert.equal(reason('a)'), 'the ")" at character 2 of the regex closes no group ("unopened group"); write \\) for a parenthesis.');
  assert.equal(reason('😀)'), 'the ")" at character 2 of the regex closes no group ("unopened group"); write \\) for a parenthesis.');
  assert.equal(reason('😀é😀(?z)'), '"z" at character 6 of the regex in "(?z)" is no flag Rust regex knows: i, m, s, U, u, x or R ("unrecognized flag").');
  // a lone surrogate (a JSON "\ud800" escape, which JSON readers such as Go's make U+FFFD) is one character, not half of the next
  assert.match(reason('\ud800a('), /^the group opened at character 3 of the regex/);
  assert.match(reason('a\ud800('), /^the group opened at character 3 of the regex/);
  assert.match(reason('\ud800\ud800a('), /^the group opened at character 4 of the regex/);
  // a second place in one message says "at character N" alone
  assert.equal(reason('(?P<n>a)(?P<n>b)'), 'the capture group name "n" at character 13 of the regex is the name of the group at character 1 too ("duplicate capture group name").');
  // the notes, the look-around, the size and Test Rules' refusals say it the same way
  const messages = (expr: string) => analyzeExpression(expr).problems.map((p) => p.message);
  assert.match(messages('http.host matches r"😀(?=a)"')[0], /"\(\?=" at character 2 of the regex, which Rust regex/);
  assert.match(messages('http.host matches r"(?u)😀\\p{Hyphen}"')[0], /^"\\p\{Hyphen\}" at character 6 of the regex is the binary property Hyphen/);
  assert.match(messages('http.host matches r"😀\\b{start}"')[0], /^"\\b\{start\}" at character 2 of the regex is a word boundary/);
  assert.match(messages('http.host matches r"(?u)😀\\b"')[0], /^Under \(\?u\), \\b at character 6 of the regex is a Unicode word boundary/);
  assert.match(messages('http.host matches "😀(?:a{1000}){1000}"')[0], /"\{1000\}" at character 13 of the regex makes it/);
  assert.match(messages('http.host matches "😀[a-z" and ssl')[0], /the class "\[" at character 2 of the regex is not closed/);
  const c = compileExpression('http.host matches r"😀\\b{end}"');
  assert.match(c.ok ? '' : c.error, /"\\b\{end\}" at character 2 of the regex is a word boundary RE2 does not have/);
});
