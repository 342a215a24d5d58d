// Security review: an object with many unknown members must not make the check quadratic. Each schema problem located its member
// by scanning the text (or the object's members) from the start: 8,000 unknown keys took about 1 s, and 200,000 (a 3 MB file,
// under the default edgekit.maxFileSizeKB) ran for more than 3 minutes, holding the language server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { parseDocument } from '../../../server/src/core/parse';

const manyKeys = (n: number, prefix = '') => `${prefix}{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;

for (const kind of ['waf-ruleset', 'logpush-job', 'jsonrpc-request'] as const) {
  // How long it takes grows linearly: `npm run bench` section 8 times it at n and 4n (tests assert results, not time).
  test(`${kind}: 60,000 unknown members are checked, capped at maxProblems, each on its own key`, () => {
    const text = manyKeys(60_000);
    const problems = validateText(text, kind);
    assert.equal(problems.length, 1001);
    assert.equal(problems[1000].code, 'limits/too-many-problems');
    const unknown = problems.filter((p) => /Unknown property|unknown member|not a member/i.test(p.message) || p.code.endsWith('unknown-member') || p.code === 'schema/unknown-property');
    assert.ok(unknown.length > 900, JSON.stringify(problems.slice(0, 3)));
    for (const p of unknown.slice(0, 50)) {
      const key = /"(k\d+)"/.exec(p.message)?.[1];
      if (key) assert.equal(text.slice(p.offset, p.offset + p.length), JSON.stringify(key), p.message);
    }
  });
}

test('a member looked up in a large object is the last of duplicate keys, as before', () => {
  const text = `{${Array.from({ length: 100 }, (_, i) => `"k${i}":${i}`).join(',')},"k5":"last"}`;
  const doc = parseDocument(text);
  const span = doc.locate(['k5']);
  assert.equal(text.slice(span.offset, span.offset + span.length), '"last"');
  const key = doc.locate(['k7'], 'key');
  assert.equal(text.slice(key.offset, key.offset + key.length), '"k7"');
});

// ajv's standalone code gathers the errors of a separately compiled subschema ($ref) with vErrors.concat(...), once per array item:
// quadratic in the errors. 100,000 rules of 1 (195 KB) took 38 s, a filter of 100,000 bad conditions (1 MB) 34 s.
const MANY_ITEMS: [string, 'waf-ruleset' | 'logpush-filter' | 'jsonrpc-request', string][] = [
  ['100,000 rules that are not objects', 'waf-ruleset', JSON.stringify({ rules: Array(100_000).fill(1) })],
  ['a filter of 100,000 conditions without an operator', 'logpush-filter', JSON.stringify({ where: { and: Array(100_000).fill({ key: 1 }) } })],
  ['a batch of 60,000 requests with bad params (4 MB)', 'jsonrpc-request', JSON.stringify(Array(60_000).fill({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: 5 }))],
];
for (const [name, kind, text] of MANY_ITEMS) {
  test(`${kind}: ${name} are checked, capped at maxProblems (growth: npm run bench, section 8)`, () => {
    const problems = validateText(text, kind);
    assert.equal(problems.length, 1001);
  });
}
