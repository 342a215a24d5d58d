// The one reading of a regex (rustRegex.ts readRegex) against the three readers it replaced (rustRegexOld.ts: rustSyntaxRefusal,
// rustToRe2 with its rewrites, regexTree), on generated patterns (a small grammar of Rust regex syntax, malformed ones included) and
// on every regex the fixtures and the unit tests hold: the same refusal, the same nest depth, an RE2 text that RE2 judges and matches
// alike, the same stacked-repetition groups, and the same verdict through the checker's steps. Where the old readers disagreed with
// one another (or with Rust), the new reading follows Rust; each such class is named in EXCUSED with its own test elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RE2JS } from 're2js';
import * as neu from '../../../server/src/core/rules/ruleset/rustRegex';
import * as old from './rustRegexOld';

/** A small random source (deterministic). */
function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

const ESCAPES = String.raw`\d \w \s \D \W \S \. \- \_ \# \  \n \t \\ \* \{ \} \[ \] \( \) \| \b \B \A \z \< \> \Z \e \h \0 \1 \cA \k<n> \Q \é
  \pN \pL \PN \p{Greek} \P{L} \p{Hangul} \x41 \xE9 \x4 \x{41} \x{E9} \x{10FFFF} \x{110000} \x{D800} \x{ 41 } \x{} \u{7F} \u{E9} \u007F \u00E9
  \u12 \U0000007F \U{7F} \U{E9} \u{0000041} \b{start} \b{end} \b{start-half} \b{foo} \x{0000000000041}`.split(/\s+/).filter(Boolean);
const CLASS_ITEMS = String.raw`a z 0 - a-z 0-9 \d \w \s \x41 \xE9 \x{E9} \u{41} é [:alpha:] [:^digit:] [:x] \d-z a-\d && -- ~~ ^ \] \[ # ( ) { } .`.split(/\s+/).filter(Boolean);
const FLAGS = ['i', 'x', 'u', 'R', 'U', 's', 'm', 'z', '-u', '-x', 'ix', 'x-u', 'i-', '-', '', 'iu', 'xu'];
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
      for (let j = 0; j < m; j++) c += r.next() < 0.1 ? ' ' : '' + r.pick(CLASS_ITEMS);
      if (r.next() < 0.1) c += '[' + r.pick(CLASS_ITEMS) + ']';
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
      else if (/\.(json|ts)$/.test(e.name) && !/rustRegex(Old|Differential)/.test(e.name)) files.push(f);
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

/** RE2's verdict on a text: its error, or the matches (found or not, and where) on sample strings. */
function re2Behaviour(compile: () => RE2JS, samples: string[]): string {
  let re: RE2JS;
  try { re = compile(); } catch (err) { return `error: ${(err as Error).message}`; }
  return samples.map((s) => { const m = re.matcher(s); return m.find() ? `${m.start()}-${m.end()}` : '-'; }).join(' ');
}
function samplesFor(p: string, r: ReturnType<typeof rng>): string[] {
  const chars = [...new Set([...p.replace(/[\\()[\]{}|*+?^$]/g, ''), 'a', 'b', 'x', ' ', '\n', 'é', 'A', '5', '_', '{', '}'])];
  const out = ['', 'a', 'aa', 'ab'];
  for (let k = 0; k < 8; k++) { let s = ''; const len = r.int(k < 6 ? 8 : 1200); for (let j = 0; j < len; j++) s += r.pick(chars); out.push(s); }
  return out;
}

const UNSUPPORTED = /\(\?<?[=!]|\\[1-9]/;

/** The checker's regex steps (exprCheck.ts regex): JavaScript's trial compile of the stacked-repetition rewrite, then the Rust
 * refusal, then RE2's verdict. */
function verdict(m: typeof neu | typeof old, p: string): string {
  const js = m.wrapStackedRepetitions(p).replace(/\(\?[imsxuUR-]+\)/g, '').replace(/\(\?[imsxuUR-]+:/g, '(?:').replace(/\(\?P</g, '(?<');
  if (UNSUPPORTED.test(p)) return 'unsupported';
  try { new RegExp(js); } catch (err) { return `js: ${(err as Error).message}`; }
  const rust = m.rustRegexRefusal(p);
  if (rust) return `rust: ${rust}`;
  try { m.checkRustRegexOnRe2(p); } catch (err) { return /\[[^\]]*(--|&&|~~)/.test(p) ? 'ok' : `re2: ${(err as Error).message}`; }
  return 'ok';
}

/** The old code's result, or its crash (its size check recursed once per nested repetition). */
function guard<T>(f: () => T): T | string {
  try { return f(); } catch (err) { return `throws ${(err as Error).message}`; }
}

interface Diff { pattern: string; what: string; old: string; neu: string }

/** Where the old readers disagreed with one another or with Rust, and the new reading follows Rust (each has a test of its own in
 * rustRegexReading.test.ts). */
const EXCUSED: { why: string; when: (d: Diff, v: { old: string; neu: string }) => boolean }[] = [
  { why: 'a stacked repetition after an escape longer than two characters: the old rewrite took the escape as two characters and put its tail in the group (\\x41*{2} became \\x4(?:1*){2}, \\p{L}** became \\p{L(?:}*)*), which RE2 refused',
    when: (d) => /\\(?:[xuU]\{[^}]*\}|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[pP](?:\{[^}]*\}|[^{])|b\{[^}]*\})(?:[*+?]|\{[^}]*\})\??[*+?{]/.test(d.pattern) },
  { why: '\\u{...} with more than 6 hex digits, \\U{...} with more than 8 (\\u{0000041}): Rust reads any number, the old rewrite left RE2 an invalid \\u',
    when: (d) => /\\u\{[0-9A-Fa-f]{7,}\}|\\U\{[0-9A-Fa-f]{9,}\}/.test(d.pattern) },
  { why: 'a "[:" in a class that no ":]" closes opens a nested class in Rust (and in the old RE2 rewrite), where the old syntax reader took it as a literal',
    when: (d) => { const k = d.pattern.lastIndexOf('[:'); return k >= 0 && d.pattern.indexOf(':]', k + 2) < 0; } },
  { why: 'a malformed hex escape (\\x4, \\u12, \\x{}): refused either way; the old syntax reader skipped a fixed number of characters after it and could report a later error, the new one leaves it to RE2 as it did for the others',
    when: (d, v) => v.old !== 'ok' && v.neu !== 'ok' && /\\x(?![0-9A-Fa-f]{2}|\{\s*[0-9A-Fa-f]+\s*\})|\\u(?![0-9A-Fa-f]{4}|\{[0-9A-Fa-f]+\})|\\U(?![0-9A-Fa-f]{8}|\{[0-9A-Fa-f]+\})/.test(d.pattern) },
  { why: 'under (?x) a "?" after spaces makes a counted repetition lazy (parse_counted_repetition bumps spaces), as the RE2 text had it; the old tree read a second repetition',
    when: (d) => d.what === 'nest depth' && /\}\s+\?/.test(d.pattern) && /\(\?[a-zA-Z]*x/.test(d.pattern) },
  { why: 'under (?x) "#" starts a comment inside a class too (bump_space), as the old RE2 rewrite had it; the old syntax reader and tree took it as a literal',
    when: (d) => /\(\?[a-zA-Z]*x/.test(d.pattern) && /\[[\s\S]*#/.test(d.pattern) },
  { why: 'a repetition of a flag group ((?i)*, a(?u)*): Rust refuses it (RepetitionMissing); the old reader left it to RE2, which refused it with its own message, or took it where the flag group was dropped from its text (a(?u)* became a*)',
    when: (d) => /\(\?[a-zA-Z-]*\)(?:\s|#[^\n]*\n?)*[*+?]/.test(d.pattern) },
  { why: 'a counted repetition of what matches only the empty string (an assertion such as \\< or \\b, an empty or flag group) is at most one copy, as regex-syntax\'s Hir::repetition makes it; the old split gave RE2 thousands of copies (and four million for {4294967295}: out of memory)',
    when: (d) => d.what === 'compiled' && /(?:\\[<>bBAz]|[\^$]|\(\?[a-zA-Z-]*\)|\(\?:\))\{\d+(?:,\d*)?\}/.test(d.pattern) },
  { why: 'JavaScript\'s trial compile refuses both, for the same reason; its message quotes the stacked-repetition rewrite, which now groups only what JavaScript reads as stacked',
    when: (_d, v) => v.old.startsWith('js: ') && v.neu.startsWith('js: ') && v.old.replace(/^js: Invalid regular expression: \/[\s\S]*\/: /, '') === v.neu.replace(/^js: Invalid regular expression: \/[\s\S]*\/: /, '') },
];

function compare(patterns: string[], seed: number): Diff[] {
  const r = rng(seed);
  const diffs: Diff[] = [];
  for (const p of patterns) {
    // The old syntax reader looped forever on an unclosed \b{name (rustRegexReading.test.ts has that case)
    if (/\\b\{[A-Za-z-][^}]*$/.test(p)) continue;
    // The checker refuses look-around and backreferences before reading the regex
    if (UNSUPPORTED.test(p)) continue;
    const v = { old: String(guard(() => verdict(old, p))), neu: verdict(neu, p) };
    const add = (what: string, a: unknown, b: unknown) => {
      const d = { pattern: p, what, old: String(a), neu: String(b) };
      if (a !== b && !EXCUSED.some((e) => e.when(d, v))) diffs.push(d);
    };
    add('verdict', v.old, v.neu);
    add('refusal', guard(() => old.rustRegexRefusal(p)), neu.rustRegexRefusal(p));
    add('nest depth', guard(() => old.regexNestDepth(p)), neu.regexNestDepth(p));
    // RE2 sees what the Rust checks let pass
    if (neu.rustRegexRefusal(p) !== undefined || guard(() => old.rustRegexRefusal(p)) !== undefined) continue;
    const a = old.rustToRe2(p), b = neu.rustToRe2(p);
    if (a !== b || /\{\d{4}/.test(p)) {
      const samples = samplesFor(p, r);
      add('re2 text', re2Behaviour(() => RE2JS.compile(a), samples), re2Behaviour(() => RE2JS.compile(b), samples));
      add('compiled', re2Behaviour(() => old.compileRustRegex(p), samples), re2Behaviour(() => neu.compileRustRegex(p), samples));
    }
    const check = (m: typeof neu | typeof old) => { try { m.checkRustRegexOnRe2(p); return 'ok'; } catch (err) { return (err as Error).message; } };
    add('re2 check', check(old), check(neu));
  }
  return diffs;
}

const GENERATED = Number(process.env.REGEX_DIFF_COUNT ?? 4000);

test('the one reading gives what the three old readers gave, on generated patterns', () => {
  const r = rng(20261126);
  const patterns = Array.from({ length: GENERATED }, () => pattern(r));
  const diffs = compare(patterns, 1);
  if (process.env.REGEX_DIFF_OUT) fs.appendFileSync(process.env.REGEX_DIFF_OUT, diffs.map((d) => JSON.stringify(d) + '\n').join(''));
  assert.deepEqual(diffs.slice(0, 5), []);
});

test('the one reading gives what the three old readers gave, on every regex of the fixtures and tests', () => {
  const patterns = corpus();
  assert.ok(patterns.length > 150, `${patterns.length} regexes found`);
  const diffs = compare(patterns, 2);
  if (process.env.REGEX_DIFF_OUT) fs.appendFileSync(process.env.REGEX_DIFF_OUT, diffs.map((d) => JSON.stringify(d) + '\n').join(''));
  assert.deepEqual(diffs.slice(0, 5), []);
});
