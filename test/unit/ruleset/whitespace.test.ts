// Whitespace as wirefilter reads it (lex.rs skip_space: ' ', '\r' and '\n' only; FilterParser::parse trims the whole expression
// with str::trim first, so any Unicode White_Space is taken at its two ends). Where the parser takes no space at all: before the
// "[" of an index (IndexExpr::lex_with expects "[" right after the field or call), around the ".." of a range (IntRange::lex
// expects ".." right after the integer; IpRange::lex reads one chunk), and inside "strict wildcard" (one literal, one space).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileExpression } from '../../../server/src/core/eval/rules';
import type { Edit } from '../../../server/src/core/types';

function apply(src: string, edits: Edit[]): string {
  return [...edits].sort((a, b) => b.offset - a.offset).reduce((s, e) => s.slice(0, e.offset) + e.newText + s.slice(e.offset + e.length), src);
}

/** [expression, the text each problem covers, the expression once every fix is applied] */
const REFUSED: [string, string[], string][] = [
  ['ssl\tand ssl', ['\t'], 'ssl and ssl'],
  ['http.host\n  eq\t"x"', ['\t'], 'http.host\n  eq "x"'],
  ['ssl\t\tand\tssl', ['\t\t', '\t'], 'ssl  and ssl'],
  ['http.host eq "a" \tor ssl', ['\t'], 'http.host eq "a"  or ssl'],
  ['lower(\thttp.host) eq "a"', ['\t'], 'lower( http.host) eq "a"'],
  ['http.request.headers ["x"][0] eq "a"', [' '], 'http.request.headers["x"][0] eq "a"'],
  ['http.request.headers["x"] [0] eq "a"', [' '], 'http.request.headers["x"][0] eq "a"'],
  ['http.request.headers\t["x"][0] eq "a"', ['\t'], 'http.request.headers["x"][0] eq "a"'],
  ['any(lower(http.request.headers.names[*]) [*] eq "a")', [' '], 'any(lower(http.request.headers.names[*])[*] eq "a")'],
  ['ip.src.asnum in {1 .. 5}', [' ', ' '], 'ip.src.asnum in {1..5}'],
  ['ip.src in {10.0.0.1 ..10.0.0.5}', [' '], 'ip.src in {10.0.0.1..10.0.0.5}'],
  ['http.host strict  wildcard "a*"', ['  '], 'http.host strict wildcard "a*"'],
  ['http.host strict\nwildcard "a*"', ['\n'], 'http.host strict wildcard "a*"'],
];

for (const [src, at, fixed] of REFUSED) {
  test(`whitespace the platform refuses: ${JSON.stringify(src)}`, () => {
    const { problems } = analyzeExpression(src);
    const ws = problems.filter((p) => p.code === 'ruleset/expr-whitespace');
    assert.deepEqual(ws.map((p) => src.substr(p.offset, p.length)), at, JSON.stringify(problems));
    assert.deepEqual(problems.filter((p) => p.code !== 'ruleset/expr-whitespace'), [], 'nothing else');
    for (const p of ws) {
      assert.equal(p.fixes?.length, 1);
      assert.equal(p.fixes![0].preferred, true);
    }
    assert.equal(apply(src, ws.flatMap((p) => p.fixes![0].edits)), fixed);
    assert.deepEqual(analyzeExpression(fixed).problems, [], `${JSON.stringify(fixed)} is valid`);
  });
}

test('a tab is named as such, and the message says what the platform skips', () => {
  const [p] = analyzeExpression('ssl\tand ssl').problems;
  assert.match(p.message, /tab/);
  assert.match(p.message, /space/);
});

const TAKEN = [
  '\tssl\t',
  ' \t\r\nssl \t',
  'ssl\u000b',
  '\u00a0ssl\u2003\u3000',
  '\u0085http.host eq "a"\f',
  'http.host eq "a\tb"',
  'http.host eq r#"a\tb"#',
  'http.host matches "a\tb"',
  'http.host\r\neq "a"\nand\r\nssl',
  'lower (http.host) eq "a"',
  'any (http.request.headers.names[*] eq "a")',
  'http.request.headers[ "x" ][ 0 ] eq "a"',
  'ip.src.asnum in { 1..5 }',
  'ip.src in {10.0.0.1..10.0.0.5 192.0.2.0/24}',
];

for (const src of TAKEN) {
  test(`whitespace the platform takes: ${JSON.stringify(src)}`, () => {
    assert.deepEqual(analyzeExpression(src).problems, []);
  });
}

test('inside the expression, other Unicode spaces are still unexpected characters (skip_space does not skip them)', () => {
  const { problems } = analyzeExpression('ssl\u00a0and ssl');
  assert.equal(problems.length, 1);
  assert.equal(problems[0].code, 'ruleset/expr-syntax');
  assert.equal(problems[0].offset, 3);
});

test('an invisible character between tokens is named by its code point, and a Unicode space gets the fix to a space', () => {
  // A no-break space pasted from a web page showed as: Unexpected character " ".
  for (const [src, name] of [['ssl\u00a0and ssl', 'U+00A0'], ['ssl\u2003and ssl', 'U+2003'], ['ssl\u000band ssl', 'U+000B'], ['ssl\u3000and ssl', 'U+3000']]) {
    const [p, ...rest] = analyzeExpression(src).problems;
    assert.deepEqual(rest, [], src);
    assert.ok(p.message.includes(name), `${JSON.stringify(src)}: ${p.message}`);
    assert.equal(p.fixes?.length, 1);
    assert.equal(p.fixes![0].preferred, true);
    const fixed = apply(src, p.fixes![0].edits);
    assert.equal(fixed, 'ssl and ssl');
  }
  // A zero-width space or a byte-order mark is no space: named, with no fix that would guess
  const [z] = analyzeExpression('http.host\u200b eq "a"').problems;
  assert.ok(z.message.includes('U+200B'), z.message);
  assert.equal(z.fixes, undefined);
});

test('a tab does not hide the rest of the checks, and the evaluator refuses the expression', () => {
  const codes = analyzeExpression('ssl\tand http.host').problems.map((p) => p.code);
  assert.deepEqual(codes, ['ruleset/expr-whitespace', 'ruleset/expr-type-mismatch']);
  const c = compileExpression('ssl\tand ssl');
  assert.equal(c.ok, false);
  assert.match((c as { error: string }).error, /expr-whitespace/);
});
