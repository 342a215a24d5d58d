// The mock's zones hold what the platform could hold: every firewall rule expression of every zone passes EdgeKit's check of the
// rules language (the same wirefilter language). One did not: "cf.client.bot eq false", an operator after a Boolean, which
// wirefilter refuses (a Boolean is used alone or after "not").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZONES } from '../../../mock/src/zones';
import { getLanguageService } from '../../../server/src/core';

test('every firewall rule expression of every mock zone is one the platform takes', () => {
  const ls = getLanguageService();
  let checked = 0;
  for (const z of ZONES) {
    for (const r of z.waf.firewallRules) {
      const doc = JSON.stringify({ kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: r.expression }] });
      // long-expression.example is the migration's size blocker on purpose: its rule is over the new rules' 4 096 bytes.
      const errors = ls.validate(doc, 'waf-ruleset').filter((p) => p.severity === 'error' && !(z.name === 'long-expression.example' && p.code === 'ruleset/expr-too-long'));
      assert.deepEqual(errors.map((p) => `${p.code}: ${p.message}`), [], `${z.name}: ${r.description}: ${r.expression.slice(0, 80)}`);
      checked++;
    }
  }
  assert.ok(checked > 200, `${checked} expressions`);
});
