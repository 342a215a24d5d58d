import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boundedDistance, editDistance, namesOf, scoredSuggestions, suggest } from '../../../server/src/core/suggest';
import { SUPPORTED_METHODS } from '../../../server/src/core/rules/jsonrpc/params';
import { mulberry32 } from '../../../mock/src/prng';

/** The textbook optimal-string-alignment distance, full matrix: the reference the banded one is checked against. */
function reference(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

test('editDistance counts a transposition as one edit', () => {
  assert.equal(editDistance('ClientCountyr', 'ClientCountry'), 1);
  assert.equal(editDistance('eth_getBalacne', 'eth_getBalance'), 1);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('abc', ''), 3);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('ca', 'abc'), 3); // OSA, not full Damerau: no edit of a transposed pair
});

test('boundedDistance equals the full-matrix distance within the limit and says limit + 1 beyond it (20 000 random pairs)', () => {
  const rand = mulberry32(7);
  const word = (n: number) => Array.from({ length: n }, () => 'abcab'[Math.floor(rand() * 5)]).join('');
  for (let k = 0; k < 20_000; k++) {
    const a = word(Math.floor(rand() * 12));
    // Half the pairs are near copies (a few edits of a), so that small distances are well covered.
    let b = word(Math.floor(rand() * 12));
    if (rand() < 0.5) {
      const chars = a.split('');
      for (let e = Math.floor(rand() * 4); e > 0; e--) {
        const at = Math.floor(rand() * (chars.length + 1));
        const op = rand();
        if (op < 0.3) chars.splice(at, 0, 'c');
        else if (op < 0.6) chars.splice(at, 1);
        else if (op < 0.8) chars[at] = 'b';
        else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1], chars[at]];
      }
      b = chars.join('');
    }
    const want = reference(a, b);
    const limit = Math.floor(rand() * 6);
    assert.equal(boundedDistance(a, b, limit), Math.min(want, limit + 1), `${JSON.stringify(a)} vs ${JSON.stringify(b)}, limit ${limit}`);
    assert.equal(editDistance(a, b), want);
  }
});

test('boundedDistance on a 1 MB string against a short one stops at once', () => {
  const big = 'x'.repeat(1_000_000);
  assert.equal(boundedDistance(big, 'ClientCountry', 4), 5);
  assert.equal(boundedDistance(big + 'y', big + 'z', 2), 1); // long equal strings: linear in the length, within the band
});

test('suggest is case-insensitive, nearest first, then alphabetical, and bounded by a third of the length', () => {
  assert.deepEqual(suggest('eth_getbalance', SUPPORTED_METHODS, { max: 1 }), ['eth_getBalance']);
  assert.deepEqual(suggest('zzzzzzzz', SUPPORTED_METHODS), []);
  assert.equal(suggest('clientcountry', ['ClientCity', 'ClientCountry'])[0], 'ClientCountry');
  assert.deepEqual(suggest('Xyzzy', ['ClientCountry']), []);
  assert.deepEqual(suggest('abcd', ['abce', 'abcf', 'abxx', 'abcd']), ['abcd', 'abce', 'abcf']);
  assert.deepEqual(suggest('abcd', ['abce', 'abcf', 'abcg'], { max: 2 }), ['abce', 'abcf']);
});

test('scoredSuggestions: suggest\'s names in its order, each with its case-insensitive edit distance', () => {
  const actions = ['block', 'challenge', 'js_challenge', 'log', 'managed_challenge', 'skip', 'execute', 'rewrite', 'route'];
  const scored = scoredSuggestions('Blok', actions);
  assert.deepEqual(scored.map((s) => s.name), suggest('Blok', actions));
  assert.deepEqual(scored, [{ name: 'block', distance: 1 }, { name: 'log', distance: 2 }]);
  for (const s of scoredSuggestions('eth_getBalacne', SUPPORTED_METHODS)) assert.equal(s.distance, editDistance('eth_getbalacne', s.name.toLowerCase()));
});

test('suggest with sameLastSegment keeps a field whose last segment matches, whatever the length', () => {
  assert.deepEqual(suggest('http.hots', ['http.host', 'http.request.uri.host']), ['http.host']);
  assert.deepEqual(suggest('request.host', ['http.host', 'http.request.uri.host'], { sameLastSegment: true }), ['http.host', 'http.request.uri.host']);
});

test('namesOf makes one names list per catalogue list', () => {
  const items = [{ name: 'a' }, { name: 'b' }];
  assert.deepEqual(namesOf(items), ['a', 'b']);
  assert.equal(namesOf(items), namesOf(items));
});

test('a short name rewritten whole is not a suggestion: "id" is not near "kind", "kye" is near "key"', () => {
  assert.deepEqual(suggest('id', ['kind', 'name', 'dataset']), []);
  assert.deepEqual(suggest('ab', ['xy', 'cd']), []);
  assert.deepEqual(suggest('kye', ['key', 'operator', 'value']), ['key']);
  assert.deepEqual(suggest('ip', ['id', 'ipx']), ['id', 'ipx']);
});

test('fieldSuggestions: with no near name, the names the given one is a whole word-aligned end or start of, none preferred', async () => {
  const { fieldSuggestions } = await import('../../../server/src/core/suggest');
  const { datasetFields } = await import('../../../server/src/core/rules/logpush/catalogue');
  const dns = datasetFields('gateway_dns')!.map((f) => f.name);
  // A qualifier left out is no typo: edit distance finds nothing for them.
  assert.deepEqual(suggest('CategoryIDs', dns), []);
  assert.deepEqual(fieldSuggestions('CategoryIDs', dns), { near: ['CNAMECategoryIDs', 'QueryCategoryIDs', 'InitialCategoryIDs'], parts: true }, 'shortest first');
  const http = datasetFields('http_requests')!.map((f) => f.name);
  assert.deepEqual(fieldSuggestions('Path', http).near.sort(), http.filter((n) => /[a-z]Path$/.test(n)).sort().slice(0, 3));
  assert.ok(fieldSuggestions('Path', http).near.includes('ClientRequestPath'));
  assert.deepEqual(fieldSuggestions('edgeresponse', http).near, http.filter((n) => /^EdgeResponse[A-Z]/.test(n)).sort((a, b) => a.length - b.length || a.localeCompare(b)).slice(0, 3));
  // Not a word of the name: "ountry" is in "ClientCountry" but not at a word's start; nor is a name shorter than 4.
  assert.deepEqual(fieldSuggestions('ountry', http), { near: [], parts: false });
  assert.deepEqual(fieldSuggestions('IP', http), { near: [], parts: false });
  // A near name wins, as suggest gives it, and is sure.
  assert.deepEqual(fieldSuggestions('ClientCountyr', http), { near: suggest('ClientCountyr', http), parts: false });
  // Long input stays linear (a 1 MB key).
  assert.deepEqual(fieldSuggestions('x'.repeat(1_000_000), http), { near: [], parts: false });
});
