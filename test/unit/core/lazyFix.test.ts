// Lazy fixes (core/fix.ts): a fix whose edits need work the check does not otherwise do has them worked out when they are read, and
// every step that moves fixes on their way keeps them unread; the check on each keystroke never pays for edits nobody asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { editsPending, lazyFix, moveFix } from '../../../server/src/core/fix';
import type { Problem } from '../../../server/src/core/types';
import { applyEdits, check, cmp, filterText, jobText } from '../logpush/helpers';

test('a lazy fix: its title now, its edits worked out once, when first read; a spread, JSON and a structured clone see them', () => {
  let made = 0;
  const f = lazyFix('Do it', () => { made++; return [{ offset: 1, length: 2, newText: 'x' }]; }, true);
  assert.equal(f.title, 'Do it');
  assert.equal(f.preferred, true);
  assert.equal(made, 0);
  assert.equal(editsPending(f), true);
  assert.deepEqual(f.edits, [{ offset: 1, length: 2, newText: 'x' }]);
  assert.equal(f.edits, f.edits);
  assert.equal(made, 1);
  assert.equal(editsPending(f), false);
  const g = lazyFix('Other', () => [{ offset: 0, length: 0, newText: 'y' }]);
  assert.deepEqual({ ...g }, { title: 'Other', edits: [{ offset: 0, length: 0, newText: 'y' }] });
  assert.deepEqual(JSON.parse(JSON.stringify(lazyFix('J', () => [{ offset: 3, length: 0, newText: 'z' }]))), { title: 'J', edits: [{ offset: 3, length: 0, newText: 'z' }] });
  assert.deepEqual(structuredClone(lazyFix('C', () => [{ offset: 4, length: 1, newText: '' }])), { title: 'C', edits: [{ offset: 4, length: 1, newText: '' }] });
});

test('moving a lazy fix keeps it unread; moving an ordinary one moves its edits now', () => {
  let made = 0;
  const f = lazyFix('Lazy', () => { made++; return [{ offset: 1, length: 0, newText: 'a' }]; });
  const moved = moveFix(f, (e) => ({ ...e, offset: e.offset + 10 }));
  assert.equal(made, 0);
  assert.equal(editsPending(moved), true);
  assert.deepEqual(moved.edits, [{ offset: 11, length: 0, newText: 'a' }]);
  assert.equal(made, 1);
  const plain = moveFix({ title: 'Plain', preferred: true, edits: [{ offset: 2, length: 1, newText: 'b' }] }, (e) => ({ ...e, offset: 0 }));
  assert.equal(editsPending(plain), false);
  assert.deepEqual(plain, { title: 'Plain', preferred: true, edits: [{ offset: 0, length: 1, newText: 'b' }] });
});

const LIMIT = 'logpush/operator-limit';
const OVER = { or: [...['us', 'ca', 'de'].map((c) => cmp('ClientCountry', 'eq', c)), ...Array.from({ length: 30 }, (_, i) => cmp('BotScore', 'lt', i))] };
const limit = (problems: Problem[]) => problems.find((p) => p.code === LIMIT);

test('the operator limit\'s merge fixes leave the check unread, in a filter, a job\'s string, a CRLF document and a repaired one; read, they merge', () => {
  const cases: { name: string; text: string; kind?: 'logpush-job' }[] = [
    { name: 'filter document', text: filterText(OVER) },
    { name: 'job\'s filter string', text: jobText({ filter: JSON.stringify({ where: OVER }) }), kind: 'logpush-job' },
    { name: 'CRLF filter document', text: filterText(OVER).replace(/\n/g, '\r\n') },
    // the last closer left out: checked as the text with it (syntax/unclosed-bracket's fix), the fixes moved back onto this text
    { name: 'repaired filter document', text: filterText(OVER).slice(0, -1) },
  ];
  for (const c of cases) {
    const p = limit(check(c.text, c.kind));
    assert.ok(p?.fixes?.length, `${c.name}: ${JSON.stringify(check(c.text, c.kind).map((x) => x.code))}`);
    const [fix] = p.fixes;
    assert.equal(fix.title, 'Merge the 3 "eq" comparisons of ClientCountry into one "in"', c.name);
    assert.equal(editsPending(fix), true, `${c.name}: the check worked the edits out`);
    const fixed = applyEdits(c.text, fix.edits);
    const where = c.kind ? JSON.parse(JSON.parse(fixed).filter).where : undefined;
    if (where) assert.deepEqual(where.or[0], cmp('ClientCountry', 'in', ['us', 'ca', 'de']), c.name);
    else assert.ok(/"operator": "in",\r?\n\s*"value": \["us", "ca", "de"\]/.test(fixed), `${c.name}: ${fixed.slice(0, 300)}`);
  }
});
