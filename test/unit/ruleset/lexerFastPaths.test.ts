// The lexer's checks by character codes (px19) against the regexes they replaced, on generated strings: the same answer on every one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isShortDecimal, startsByteString, tokenize } from '../../../server/src/core/rules/ruleset/exprLexer';
import { mulberry32 } from '../../../server/src/core/prng';

const ALPHABET = '0123456789abcdefABCDEFgxX+-:.  "é\u0660';
function strings(seed: number, count: number, maxLength: number): string[] {
  const r = mulberry32(seed);
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let s = '';
    const n = Math.floor(r() * (maxLength + 1));
    for (let j = 0; j < n; j++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
    out.push(s);
  }
  return out;
}

test('startsByteString agrees with /^(?:[0-9A-Fa-f]{2}|\\+[0-9A-Fa-f])$/ on the two characters and a separator after them, at every index', () => {
  const BYTE_PAIR = /^(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])$/;
  const reference = (src: string, i: number) => BYTE_PAIR.test(src.slice(i, i + 2)) && [':', '-', '.'].includes(src[i + 2]);
  let yes = 0;
  for (const s of [...strings(1, 3000, 8), 'aa:', 'ff-', '+f.', '+f', 'a', '', '0a:bb', '++:', 'g0:', '0g:']) {
    for (let i = 0; i <= s.length + 1; i++) {
      assert.equal(startsByteString(s, i), reference(s, i), `${JSON.stringify(s)} at ${i}`);
      if (reference(s, i)) yes++;
    }
  }
  assert.ok(yes > 100, `the generated strings hold byte strings (${yes})`);
});

test('isShortDecimal agrees with /^-?[1-9]\\d{0,14}$/, and an integer token reads the same value either way', () => {
  const SHORT_DECIMAL = /^-?[1-9]\d{0,14}$/;
  const r = mulberry32(2);
  const digits = (n: number) => Array.from({ length: n }, () => '0123456789'[Math.floor(r() * 10)]).join('');
  const cases = [...strings(3, 3000, 18), '', '-', '0', '-0', '1', '-1', '9'.repeat(15), '9'.repeat(16), '-' + '9'.repeat(15), '1e5', '01', '1\u0660'];
  for (let k = 0; k < 2000; k++) cases.push((r() < 0.3 ? '-' : '') + digits(1 + Math.floor(r() * 18)));
  let yes = 0;
  for (const s of cases) {
    assert.equal(isShortDecimal(s), SHORT_DECIMAL.test(s), JSON.stringify(s));
    if (SHORT_DECIMAL.test(s)) {
      yes++;
      const t = tokenize(`x eq ${s}`).tokens[2];
      assert.equal(t.kind, 'int', s);
      assert.equal(t.value, Number(s), s);
    }
  }
  assert.ok(yes > 1000, `the cases hold short decimals (${yes})`);
});
