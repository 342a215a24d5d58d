import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MigrationFacts, MigrationMode, MigrationState } from '../../../mock/src/migration';
import { parseMode, rulesEnabled, transition } from '../../../mock/src/migration';

const PRO: MigrationFacts = { plan: 'pro', blockers: [] };
const BUSINESS: MigrationFacts = { plan: 'business', blockers: [] };
const ENT: MigrationFacts = { plan: 'enterprise', blockers: [] };
const BLOCKED_ENT: MigrationFacts = { plan: 'enterprise', blockers: ['Zone "x" has 1 URI-based WAF override; delete it before migrating.'] };

function next(state: MigrationState, mode: MigrationMode, facts: MigrationFacts): MigrationState | number {
  const r = transition(state, mode, facts);
  return r.ok ? r.next : r.status;
}

test('start + pending migrates a compatible zone of any plan', () => {
  assert.equal(next('start', 'pending', PRO), 'migrated');
  assert.equal(next('start', 'pending', BUSINESS), 'migrated');
  assert.equal(next('start', 'pending', ENT), 'migrated');
});

test('start + validation enters validation mode on Enterprise only', () => {
  assert.equal(next('start', 'validation', ENT), 'validation');
  const pro = transition('start', 'validation', PRO);
  assert.equal(pro.ok, false);
  assert.equal(!pro.ok && pro.status, 400);
  assert.match(!pro.ok ? pro.message : '', /only for Enterprise/);
  assert.equal(next('start', 'validation', BUSINESS), 400);
});

test('start with blockers refuses both modes and names the reason', () => {
  for (const mode of ['pending', 'validation'] as const) {
    const r = transition('start', mode, BLOCKED_ENT);
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', /URI-based WAF override/);
  }
});

test('validation + pending migrates; validation + validation is refused (409)', () => {
  assert.equal(next('validation', 'pending', ENT), 'migrated');
  assert.equal(next('validation', 'validation', ENT), 409);
});

test('migrated is final: nothing goes back', () => {
  assert.equal(next('migrated', 'pending', ENT), 409);
  assert.equal(next('migrated', 'validation', ENT), 409);
  assert.equal(next('migrated', 'pending', PRO), 409);
});

test('rule switches per state', () => {
  assert.deepEqual(rulesEnabled('start'), { oldRulesEnabled: true, newRulesEnabled: false });
  assert.deepEqual(rulesEnabled('validation'), { oldRulesEnabled: true, newRulesEnabled: true });
  assert.deepEqual(rulesEnabled('migrated'), { oldRulesEnabled: false, newRulesEnabled: true });
  const r = transition('start', 'validation', ENT);
  assert.ok(r.ok && r.oldRulesEnabled && r.newRulesEnabled);
});

test('waf_migration values: pending|1, validation|2', () => {
  assert.equal(parseMode('pending'), 'pending');
  assert.equal(parseMode('1'), 'pending');
  assert.equal(parseMode('validation'), 'validation');
  assert.equal(parseMode('2'), 'validation');
  assert.equal(parseMode('3'), undefined);
  assert.equal(parseMode(null), undefined);
});
