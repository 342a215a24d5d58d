// itemSpans, rewritten for speed (issue 18: an item that is an object or an array is skipped by a tighter loop), held to the scan it
// replaced on generated valid JSON: the same spans and the same closing bracket for every array, at the root or inside an object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itemSpans, largestArrayMember } from '../../../server/src/core/parse';
import { isEscaped } from '../../../server/src/core/parse/scanner';
import { batchDoc, rulesetDoc } from '../../../bench/docs';

/** The scan itemSpans was before the rewrite (one loop keeping the depth, strings jumped over with indexOf), as the reference. */
function itemSpansBefore(text: string, open: number): { spans: Int32Array; close: number } {
  const out: number[] = [];
  const n = text.length;
  let depth = 0;
  let start = -1;
  let end = -1;
  let i = open + 1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x22) {
      if (depth === 0 && start < 0) start = i;
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      i = q < 0 ? n : q;
      if (depth === 0) end = i + 1;
      continue;
    }
    if (depth === 0) {
      if (c === 0x2c || c === 0x5d) {
        if (start >= 0) out.push(start, end);
        if (c === 0x5d) break;
        start = -1;
        continue;
      }
      if (start < 0) start = i;
    }
    if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) { if (--depth === 0) end = i + 1; }
    else if (depth === 0) end = i + 1;
  }
  return { spans: Int32Array.from(out), close: Math.min(i, n - 1) };
}

function sameAsBefore(text: string, open: number): void {
  const now = itemSpans(text, open);
  const before = itemSpansBefore(text, open);
  assert.deepEqual(Array.from(now.spans), Array.from(before.spans), `spans of ${JSON.stringify(text.slice(0, 200))}`);
  assert.equal(now.close, before.close);
}

/** JSON text of a value with whitespace (spaces, tabs, CR, LF) between its tokens, as a hand-written or formatted document has. */
function spaced(value: unknown, ws: string[]): string {
  let k = 0;
  const sp = () => ws[k++ % ws.length];
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${sp()}${v.map((x) => `${write(x)}${sp()}`).join(`,${sp()}`)}]`;
    if (typeof v === 'object' && v !== null) {
      return `{${sp()}${Object.entries(v).map(([key, x]) => `${JSON.stringify(key)}${sp()}:${sp()}${write(x)}${sp()}`).join(`,${sp()}`)}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}

// Strings made of the characters that matter to the scan: quotes, backslashes, brackets, commas.
const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ' ', 'a', 'é', '😀') });
const leaf = fc.oneof(tricky, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 5 }), fc.dictionary(tricky, tie('v'), { maxKeys: 4 })),
})).v;
const whitespace = fc.array(fc.constantFrom('', '', ' ', '  ', '\n', '\r\n', '\t'), { minLength: 1, maxLength: 8 });

test('itemSpans gives the spans and closing bracket of the scan it replaced, for any array of JSON values with any whitespace', () => {
  fc.assert(fc.property(fc.array(value, { maxLength: 12 }), whitespace, fc.nat(3), (items, ws, lead) => {
    const text = ' '.repeat(lead) + spaced(items, ws) + '\n';
    assert.doesNotThrow(() => JSON.parse(text));
    sameAsBefore(text, lead);
  }), { numRuns: 3000 });
});

test('itemSpans agrees with the scan it replaced on an array member of an object (a ruleset\'s rules)', () => {
  fc.assert(fc.property(fc.array(value, { maxLength: 8 }), value, whitespace, (items, other, ws) => {
    const text = spaced({ name: 'x', other, rules: items }, ws);
    const open = text.indexOf('[', text.lastIndexOf('"rules"'));
    sameAsBefore(text, open);
  }), { numRuns: 1000 });
});

test('itemSpans agrees with the scan it replaced on the bench\'s batches and rulesets and on every example', () => {
  for (const variant of ['valid', 'errors'] as const) {
    const batch = batchDoc(variant).text;
    sameAsBefore(batch, batch.indexOf('['));
    const ruleset = rulesetDoc(variant).text;
    const member = largestArrayMember(ruleset, ruleset.indexOf('{'));
    assert.ok(member, 'the ruleset has its rules array');
    sameAsBefore(ruleset, member.open);
  }
  const examples = path.resolve(__dirname, '../../../examples');
  for (const f of fs.readdirSync(examples).filter((x) => x.endsWith('.json'))) {
    const text = fs.readFileSync(path.join(examples, f), 'utf8');
    const open = text.indexOf('[');
    if (open >= 0) sameAsBefore(text, open);
  }
});
