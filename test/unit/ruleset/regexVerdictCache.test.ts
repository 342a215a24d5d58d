// The checker keeps the verdicts of the regexes it read (regexVerdict: a ruleset is checked whole on every edit). What it keeps is
// bounded in characters, not only in patterns: typing inside a long regex makes a new pattern at each keystroke, and 512 of a
// 100 000-character regex were 100 MB kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regexVerdict, regexVerdictsKept } from '../../../server/src/core/rules/ruleset/exprCheck';

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
