// Mutation sample, third pass (mt3; docs/architecture.md): what the ruleset checks, completion and the regex reading of the last two
// days did that no test held. Each test here failed on a mutant the modules' own tests let through, and passes on the code as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS, type CompletionEntry } from '../../../server/src/core/types';
import { validateText } from '../../../server/src/core/validate';
import { rulesetPlugin } from '../../../server/src/core/rules/ruleset';
import { kindPhaseMismatch } from '../../../server/src/core/rules/ruleset/catalog';
import { regexReadsKept, rustToRe2, untabledClass } from '../../../server/src/core/rules/ruleset/rustRegex';

test('a skip of its own phase in a custom-rules ruleset without "kind" (a zone\'s, the default) offers "phase": "current" too', () => {
  const text = JSON.stringify({ name: 'c', phase: 'http_request_firewall_custom', rules: [
    { action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { phases: ['http_request_firewall_custom'] } }] }, null, 2);
  const p = validateText(text, 'waf-ruleset').find((q) => q.code === 'ruleset/skip-own-phase');
  assert.match(p?.message ?? '', /\(or, for the whole phase at the zone level, "phase": "current"\)/);
  assert.deepEqual(p?.fixes?.map((f) => f.title), [
    'Skip the remaining rules of this ruleset instead ("ruleset": "current")',
    'Skip the remaining rules of the phase instead ("phase": "current")',
  ]);
});

test('kindPhaseMismatch: a phase named like an object\'s own property (constructor, toString) is no phase of PHASE_LEVELS', () => {
  for (const phase of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    for (const kind of ['custom', 'root', 'zone']) assert.equal(kindPhaseMismatch(kind, phase), undefined, `${kind} ${phase}`);
  }
  assert.ok(kindPhaseMismatch('custom', 'http_request_origin'));
});

/** The completion entries at MARK in a rule's header value, in the order an editor shows them (sortText, then label). */
function headerValue(value: string): string[] {
  const text = JSON.stringify({ name: 'r', kind: 'zone', phase: 'http_request_late_transform', rules: [{ action: 'rewrite', expression: 'true',
    action_parameters: { headers: { 'x-a': { operation: 'set', expression: `${value}MARK` } } } }] });
  const items = rulesetPlugin.complete!(parseDocument(text), text.indexOf('MARK'), DEFAULT_OPTIONS);
  const key = (e: CompletionEntry) => e.sortText ?? e.label;
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.label < b.label ? -1 : 1)).map((e) => e.label);
}

test('completion: a function whose result is its first argument\'s type (concat, coalesce) is ranked with the names that fit', () => {
  // At the top of a header value (a String) and as starts_with()'s argument, concat may give a String: before an Integer field
  for (const value of ['', 'starts_with(']) {
    const labels = headerValue(value);
    for (const fn of ['concat', 'coalesce']) {
      assert.ok(labels.indexOf(fn) >= 0 && labels.indexOf(fn) < labels.indexOf('cf.bot_management.score'), `${value}${fn} at ${labels.indexOf(fn)}`);
    }
  }
});

test('the regex readings kept are at most 500 (READS_KEPT): 600 short patterns read leave 500', () => {
  for (let i = 0; i < 600; i++) rustToRe2(`mt3-${i}`);
  assert.equal(regexReadsKept().patterns, 500);
});

test('the untabled class a pattern names is its first one (the one Test Rules names when it refuses the rule)', () => {
  assert.deepEqual(untabledClass('(?u)a\\p{Hyphen}b\\p{Age=3.0}'), { at: 5, text: '\\p{Hyphen}', property: 'Hyphen', byValue: false });
  assert.deepEqual(untabledClass('(?u)\\p{Age=3.0}\\p{Hyphen}'), { at: 4, text: '\\p{Age=3.0}', property: 'Age', byValue: true });
});
