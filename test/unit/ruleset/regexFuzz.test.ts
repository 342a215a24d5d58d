// The regex reading (rustRegex.ts readRegex) and the checker's regex verdict on generated patterns (a small grammar of Rust regex
// syntax, malformed pieces and huge counts, nested classes and class set operations included) and on every regex the fixtures and unit tests hold: the checker never throws,
// reports every pattern Rust refuses, and whatever it accepts compiles on RE2 (the evaluator's) and runs, as Test Rules needs. The
// generator ran the old readers against the new one when they were made one (2026-11-26, docs/architecture.md); at 30 000 patterns it
// ran the evaluator's compile out of memory on \b{4294967296} (which the checker refuses, so Test Rules never compiles it), and that
// led to (?:){4294967295}, which the checker accepted and Test Rules split into four million RE2 copies (rustRegexReading.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileRustRegex, rustRegexRefusal } from '../../../server/src/core/rules/ruleset/rustRegex';
import { compileExpression } from '../../../server/src/core/eval/rules';

/** A small random source (deterministic). */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

const ESCAPES = String.raw`\d \w \s \D \W \S \. \- \_ \# \  \n \t \\ \* \{ \} \[ \] \( \) \| \b \B \A \z \< \> \Z \e \h \0 \1 \cA \k<n> \Q \é
  \pN \pL \PN \p{Greek} \P{L} \p{Hangul} \x41 \xE9 \x4 \x{41} \x{E9} \x{10FFFF} \x{110000} \x{D800} \x{ 41 } \x{} \u{7F} \u{E9} \u007F \u00E9
  \u12 \U0000007F \U{7F} \U{E9} \u{0000041} \b{start} \b{end} \b{start-half} \b{foo} \x{0000000000041}`.split(/\s+/).filter(Boolean);
const CLASS_ITEMS = String.raw`a z 0 - a-z 0-9 \d \w \s \x41 \xE9 \x{E9} \u{41} é [:alpha:] [:^digit:] [:x] [:loower:] \d-z a-\d && -- ~~ ^ \] \[ # ( ) { } .
  [a] [^a] [b-d] [^\W] [\w--\d] [a-z&&[^aeiou]] [ab~~bc] [[:upper:]] \p{Greek} \P{Lu} \D \xFF K ſ`.split(/\s+/).filter(Boolean);
const FLAGS = ['i', 'x', 'u', 'R', 'U', 's', 'm', 'z', '-u', '-x', 'ix', 'x-u', 'i-', '-', '', 'iu', 'xu', '-i', 'i-x', 'ixu', 'ii'];
const QUANTS = ['*', '+', '?', '*?', '+?', '??', '{2}', '{2,}', '{2,5}', '{2,5}?', '{ 2 }', '{ 1 , 3 }', '{1, 3}', '{1, }', '{,3}', '{3,1}', '{',
  '{1001}', '{2000}', '{0,1500}', '{1001,}', '{5000}', '{400000}', '{4294967296}', '{100}', '{600}', '{2} ?', ' *', '**', '*{2}'];

/** A random pattern from a small grammar of Rust regex syntax: classes, escapes, flag groups, named groups, repetitions with large
 * counts, anchors, alternations, nesting, x-mode spaces and comments, and malformed pieces. */
function pattern(r: ReturnType<typeof rng>, depth = 0): string {
  const items = 1 + r.int(depth > 2 ? 2 : 5);
  let s = '';
  for (let k = 0; k < items; k++) {
    const roll = r.next();
    let a: string;
    if (roll < 0.25) a = r.pick(['a', 'b', 'x', '.', 'é', '^', '$', '/', '-', ':', '}', ']', '#', ' ', '\n', '{', '😀']);
    else if (roll < 0.45) a = r.pick(ESCAPES);
    else if (roll < 0.6) {
      let c = '[' + (r.next() < 0.2 ? '^' : '') + (r.next() < 0.1 ? ']' : '');
      const m = 1 + r.int(4);
      for (let j = 0; j < m; j++) c += (r.next() < 0.1 ? ' ' : '') + r.pick(CLASS_ITEMS);
      // A nested class, negated or with a set operation inside, or a set operation between two
      if (r.next() < 0.25) c += '[' + (r.next() < 0.3 ? '^' : '') + r.pick(CLASS_ITEMS) + (r.next() < 0.4 ? r.pick(['&&', '--', '~~']) + r.pick(CLASS_ITEMS) : '') + ']';
      if (r.next() < 0.2) c += r.pick(['&&', '--', '~~', ' -- ', ' && ']) + r.pick(CLASS_ITEMS);
      a = c + (r.next() < 0.93 ? ']' : '');
    } else if (roll < 0.82 && depth < 5) {
      const open = r.pick(['(', '(?:', '(?P<n>', '(?<g>', `(?${r.pick(FLAGS)}:`, "(?'n'", '(?=', '(?<!', '(?P<>']);
      const body = pattern(r, depth + 1) + (r.next() < 0.3 ? '|' + pattern(r, depth + 1) : '');
      a = open + body + (r.next() < 0.95 ? ')' : '');
    } else if (roll < 0.9) a = `(?${r.pick(FLAGS)})`;
    else if (roll < 0.93) a = r.pick(['|', ')', '(', '\\', '*', '{', '[']);
    else a = r.pick(['# comment\n', ' ', '  \t', '#x\n']);
    if (r.next() < 0.3) a += r.pick(QUANTS);
    s += a;
  }
  return s;
}

/** Every regex the fixtures and unit tests write after "matches" or "~" (quoted or raw), roughly read. */
function corpus(): string[] {
  const root = path.resolve(__dirname, '../../..');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (/\.(json|ts)$/.test(e.name) && !/regexFuzz/.test(e.name)) files.push(f);
    }
  };
  walk(path.join(root, 'test/fixtures'));
  walk(path.join(root, 'test/unit'));
  walk(path.join(root, 'test/stress'));
  const out = new Set<string>();
  const re = /(?:matches|~)\s*(?:r(#*)"([\s\S]*?)"\1|"((?:[^"\\\n]|\\.)*)")/g;
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    const variants = [text, text.replace(/\\\\/g, '\\').replace(/\\"/g, '"')];
    for (const t of variants) for (const m of t.matchAll(re)) out.add(m[2] ?? m[3].replace(/\\"/g, '"'));
  }
  // And the lists of the regex tests, word by word
  for (const f of ['test/unit/ruleset/regexConformance.test.ts', 'test/unit/ruleset/stackedRepetitions.test.ts']) {
    for (const m of fs.readFileSync(path.join(root, f), 'utf8').matchAll(/String\.raw`([^`]*)`|'((?:[^'\\\n]|\\.)*)'/g)) {
      for (const w of (m[1] ?? m[2].replace(/\\\\/g, '\\')).split(/\s+/)) if (w) out.add(w);
    }
  }
  return [...out];
}

function samplesFor(p: string, r: ReturnType<typeof rng>): string[] {
  const chars = [...new Set([...p.replace(/[\\()[\]{}|*+?^$]/g, ''), 'a', 'b', 'x', ' ', '\n', 'é', 'A', '5', '_', '{', '}'])];
  const out = ['', 'a', 'aa', 'ab'];
  for (let k = 0; k < 8; k++) { let s = ''; const len = r.int(k < 6 ? 8 : 1200); for (let j = 0; j < len; j++) s += r.pick(chars); out.push(s); }
  return out;
}


/** The broken invariants of one pattern, in words (none: an empty list). */
function broken(p: string, r: ReturnType<typeof rng>): string[] {
  if (p.includes('"###')) return [];
  const expr = `http.host matches r###"${p}"###`;
  const problems = analyzeExpression(expr).problems;
  const refused = problems.some((x) => x.code === 'ruleset/expr-invalid-regex');
  const out: string[] = [];
  const rust = rustRegexRefusal(p);
  if (rust !== undefined && !refused) out.push(`Rust refuses it (${rust}) and the checker does not say so`);
  if (refused || problems.some((x) => x.code === 'ruleset/expr-syntax')) return out;
  try {
    const re = compileRustRegex(p);
    for (const s of samplesFor(p, r)) re.matcher(s).find();
  } catch (err) {
    out.push(`the checker accepts it and RE2 does not: ${(err as Error).message}`);
  }
  // Test Rules refuses only what the checker says it cannot run (a word boundary RE2 does not have: \b{start}, \<; a Unicode class
  // EdgeKit has no table for: \p{Age=3.0})
  const c = compileExpression(expr);
  const said = problems.some((x) => (x.code === 'ruleset/expr-regex-word-boundary' || x.code === 'ruleset/expr-regex-untestable') && x.message.includes('cannot test this rule'));
  if (!c.ok && !said) out.push(`the checker accepts it and Test Rules refuses it: ${c.error}`);
  if (c.ok && said) out.push('the checker says Test Rules cannot run it, and Test Rules runs it');
  return out;
}

const GENERATED = Number(process.env.REGEX_FUZZ_COUNT ?? 30_000);

test('generated patterns: the checker reports what Rust refuses, and what it accepts compiles and runs on RE2', () => {
  const r = rng(20261126);
  const bad: string[] = [];
  for (let k = 0; k < GENERATED; k++) {
    const p = pattern(r);
    for (const b of broken(p, r)) if (bad.length < 5) bad.push(`${JSON.stringify(p)}: ${b}`);
  }
  assert.deepEqual(bad, []);
});

test('every regex of the fixtures and tests: the same', () => {
  const r = rng(2);
  const patterns = corpus();
  assert.ok(patterns.length > 150, `${patterns.length} regexes found`);
  const bad: string[] = [];
  for (const p of patterns) for (const b of broken(p, r)) if (bad.length < 5) bad.push(`${JSON.stringify(p)}: ${b}`);
  assert.deepEqual(bad, []);
});
