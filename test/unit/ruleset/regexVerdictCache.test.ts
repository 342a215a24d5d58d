// The checker keeps the verdicts of the regexes it read (regexVerdict: a ruleset is checked whole on every edit). What it keeps is
// bounded in characters, not only in patterns: typing inside a long regex makes a new pattern at each keystroke, and 512 of a
// 100 000-character regex were 100 MB kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regexVerdict, regexVerdictsKept } from '../../../server/src/core/rules/ruleset/exprCheck';
import { regexReadsKept, rustToRe2 } from '../../../server/src/core/rules/ruleset/rustRegex';

test('the regex verdicts kept stay within their budget of characters, and a kept verdict is the one read', () => {
  const long = 'a'.repeat(20_000);
  for (let i = 0; i < 80; i++) assert.equal(regexVerdict(`${long}(b|c)${i}`), undefined);
  const kept = regexVerdictsKept();
  assert.ok(kept.chars <= kept.budget, `${kept.chars} characters kept, budget ${kept.budget}`);
  assert.ok(kept.patterns > 0 && kept.patterns < 80);
  // The newest are kept, and answer as before; a refused pattern keeps its message
  assert.equal(regexVerdict(`${long}(b|c)79`), undefined);
  assert.match(regexVerdict('a(b') ?? '', /Invalid regex/);
  assert.match(regexVerdict('a(b') ?? '', /Invalid regex/);
  // A pattern past the whole budget is read and answered, not kept
  const huge = 'x'.repeat(kept.budget + 1);
  assert.ok(regexVerdict(huge) !== null, 'read');
  assert.ok(regexVerdictsKept().chars <= kept.budget);
});

test('the regex readings kept (the Rust reading each check asks for in turn) stay within their budget of pattern characters', () => {
  // A reading holds the pattern's tree: measured, 499 readings of 500-character patterns were 13 MB of live heap, of 2000-character
  // ones 17 MB, kept for as long as the server ran when they were counted in patterns alone.
  const parts = ['(a|b)', '[a-z0-9_]+', '\\d{2,4}', '(?:foo|bar)', '\\.', '[^/]*'];
  const pattern = (i: number) => {
    let s = `^/v${i}/`;
    for (let k = 0; s.length < 1000; k++) s += parts[(i + k) % parts.length];
    return s;
  };
  for (let i = 0; i < 300; i++) rustToRe2(pattern(i));
  const kept = regexReadsKept();
  assert.ok(kept.chars <= kept.budget, `${kept.chars} characters of pattern kept, budget ${kept.budget}`);
  assert.ok(kept.patterns > 0 && kept.patterns < 300, `${kept.patterns} readings kept`);
  // The newest is kept and gives the same reading again
  const last = rustToRe2(pattern(299));
  assert.equal(regexReadsKept().patterns, kept.patterns);
  assert.equal(rustToRe2(pattern(299)), last);
});
