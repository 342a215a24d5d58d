// Every function of the rules language's one signature table has a golden case (test/fixtures/waf-ruleset/fn-<name>.json): a call
// with the argument types it takes (no problem) and one with a type it refuses (exactly one type mismatch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FUNCTION_NAMES } from '../../../server/src/core/rules/ruleset/catalog';

const FIXTURES = path.resolve(__dirname, '../../fixtures/waf-ruleset');

test('each function has its golden case, with one type mismatch on the refused call only', () => {
  for (const name of FUNCTION_NAMES) {
    const base = path.join(FIXTURES, `fn-${name.replace(/_/g, '-')}`);
    assert.ok(fs.existsSync(`${base}.json`), `no golden case for ${name}()`);
    const lines = fs.readFileSync(`${base}.expected.txt`, 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `${name}(): ${lines.join(' | ')}`);
    assert.match(lines[0], new RegExp(`ruleset/expr-type-mismatch Argument \\d of ${name}\\(\\)`));
  }
});
