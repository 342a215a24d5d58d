// The lexer's checks by character codes (px19) against the regexes they replaced, on generated strings: the same answer on every one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isShortDecimal, startsByteString, tokenize, validIpv6 } from '../../../server/src/core/rules/ruleset/exprLexer';
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

test('validIpv6 by one scan agrees with its reading by splits (on "::", then ":", a regex per group) on generated strings', () => {
  const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
  const reference = (s: string): boolean => {
    let head = s;
    const lastColon = s.lastIndexOf(':');
    if (s.slice(lastColon + 1).includes('.')) {
      if (!/^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(s.slice(lastColon + 1))) return false;
      head = s.slice(0, lastColon + 1) + '0:0';
    }
    const dbl = head.split('::');
    if (dbl.length > 2) return false;
    const groups = (part: string) => (part === '' ? [] : part.split(':'));
    const all = [...groups(dbl[0]), ...(dbl.length === 2 ? groups(dbl[1]) : [])];
    if (!all.every((g) => HEX_GROUP.test(g))) return false;
    return dbl.length === 2 ? all.length <= 7 : all.length === 8;
  };
  const r = mulberry32(4);
  const pieces = ['', '0', '1', 'f', 'ff', 'abc', 'FFFF', '12345', 'g', ':', '::', ':::', '.', '1.2.3.4', '256.1.1.1', 'é', ' '];
  const cases = ['', ':', '::', ':::', '::1', '1::', '1::2::3', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:', ':1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7',
    '1:2:3:4:5:6::7', '1:2:3:4:5:6:7::8', '::ffff:1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '2001:db8::/32', '12345::', 'abcd:EF01::'];
  let yes = 0;
  for (let k = 0; k < 20000; k++) {
    const parts = 1 + Math.floor(r() * 10);
    let s = '';
    for (let j = 0; j < parts; j++) s += pieces[Math.floor(r() * pieces.length)] + (r() < 0.6 ? ':' : '');
    cases.push(s);
  }
  for (const s of cases) {
    assert.equal(validIpv6(s), reference(s), JSON.stringify(s));
    if (reference(s)) yes++;
  }
  assert.ok(yes > 200, `the cases hold addresses (${yes})`);
});
