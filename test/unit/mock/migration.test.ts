import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MigrationFacts, MigrationMode, MigrationState } from '../../../mock/src/migration';
import { compatibility, parseMode, rulesEnabled, transition } from '../../../mock/src/migration';

const PRO: MigrationFacts = { zone: 'pro.example', plan: 'pro', blockers: [] };
const BUSINESS: MigrationFacts = { zone: 'business.example', plan: 'business', blockers: [] };
const ENT: MigrationFacts = { zone: 'enterprise.example', plan: 'enterprise', blockers: [] };
const BLOCKED_ENT: MigrationFacts = { zone: 'x', plan: 'enterprise', blockers: ['It has 1 URI-based WAF override; delete it before migrating.'] };

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

test('a repeated update is told what it repeats, not that it would reverse the migration', () => {
  // A script that re-sends the docs' step 4 (pending) after a timeout meets a zone that has migrated: nothing would go back,
  // so "cannot be reversed" misleads; the way to change the configuration now is an update without waf_migration.
  const again = transition('migrated', 'pending', PRO);
  assert.ok(!again.ok);
  assert.doesNotMatch(again.message, /revers/);
  assert.match(again.message, /already migrated/);
  assert.match(again.message, /without waf_migration/);
  const back = transition('migrated', 'validation', ENT);
  assert.ok(!back.ok && /cannot be reversed/.test(back.message), 'validation mode after the migration would go back');
  // Validation mode again: adjustments go in an update without waf_migration (Enterprise zones may deploy enabled rules so).
  const v = transition('validation', 'validation', ENT);
  assert.ok(!v.ok && /without waf_migration/.test(v.message) && /waf_migration=pending/.test(v.message));
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

test('a firewall rule expression is measured in UTF-8 bytes against the 4 KB limit, as the entry point update checks it', async () => {
  // Spec, Limits: "each expression at most 4 KB". The check counted UTF-16 code units, so an expression of 3,000 "é" (6,000
  // bytes) passed it, and the update carrying the config it produced was then refused by ruleset/expr-too-long (4096 bytes).
  const { ZONES, migrationBlockers } = await import('../../../mock/src/zones');
  const base = ZONES[0];
  const expression = `http.request.uri.path eq "/${'é'.repeat(3000)}"`;
  const zone = { ...base, waf: { ...base.waf, firewallRules: [{ id: 'f1', description: 'Long', expression, action: 'bypass' as const, products: ['waf'], paused: false }] } };
  assert.ok(expression.length <= 4096 && Buffer.byteLength(expression) > 4096);
  const blockers = migrationBlockers(zone, 0);
  assert.equal(blockers.length, 1, JSON.stringify(blockers));
  assert.match(blockers[0], new RegExp(`${Buffer.byteLength(expression)} bytes, over the limit of 4096`));
});

test('every refusal carries its HTTP status and error code, and the state machine does not move', () => {
  // A script tells the refusals apart by code (10502 blocked, 10503 plan, 10504 already in validation, 10505 migrated), not by
  // message; the mutation sample found the blocked and the "cannot be reversed" codes held by no test.
  const refusal = (state: MigrationState, mode: MigrationMode, facts: MigrationFacts) => {
    const r = transition(state, mode, facts);
    assert.ok(!r.ok, `${state} + ${mode} should be refused`);
    return [r.status, r.code];
  };
  assert.deepEqual(refusal('start', 'pending', BLOCKED_ENT), [400, 10502]);
  assert.deepEqual(refusal('start', 'validation', BLOCKED_ENT), [400, 10502]);
  assert.deepEqual(refusal('start', 'validation', PRO), [400, 10503]);
  assert.deepEqual(refusal('start', 'validation', BUSINESS), [400, 10503]);
  assert.deepEqual(refusal('validation', 'validation', ENT), [409, 10504]);
  assert.deepEqual(refusal('migrated', 'pending', PRO), [409, 10505]);
  assert.deepEqual(refusal('migrated', 'validation', ENT), [409, 10505]);
});

test('blockers at their limits: one URI-based override still blocks, 200 bypass rules and a 4096-byte expression do not', async () => {
  const { ZONES, migrationBlockers } = await import('../../../mock/src/zones');
  const base = { ...ZONES[0], waf: { ...ZONES[0].waf, firewallRules: [] } };
  assert.deepEqual(migrationBlockers(base, 0), []);
  assert.deepEqual(migrationBlockers(base, 1), ['It has 1 URI-based WAF override; delete it before migrating.']);
  assert.deepEqual(migrationBlockers(base, 2), ['It has 2 URI-based WAF overrides; delete them before migrating.']);
  const bypass = (i: number, expression = `http.request.uri.path eq "/p/${i}"`) => ({ id: `f${i}`, description: `Rule ${i}`, expression, action: 'bypass' as const, products: ['waf'], paused: false });
  const withRules = (rules: ReturnType<typeof bypass>[]) => ({ ...base, waf: { ...base.waf, firewallRules: rules } });
  const at = Array.from({ length: 200 }, (_, i) => bypass(i));
  assert.deepEqual(migrationBlockers(withRules(at), 0), []);
  const over = migrationBlockers(withRules([...at, bypass(200)]), 0);
  assert.equal(over.length, 1);
  assert.match(over[0], /has 201 firewall rules to migrate, over the limit of 200/);
  // A bypass rule that leaves out the WAF is not migrated, so it does not count.
  assert.deepEqual(migrationBlockers(withRules([...at, { ...bypass(200), products: ['rateLimit'] }]), 0), []);
  const prefix = 'http.request.uri.path eq "/';
  const exactly = prefix + 'a'.repeat(4096 - prefix.length - 1) + '"';
  assert.equal(Buffer.byteLength(exactly), 4096);
  assert.deepEqual(migrationBlockers(withRules([bypass(0, exactly)]), 0), []);
  const longer = migrationBlockers(withRules([bypass(0, exactly + ' ')]), 0);
  assert.equal(longer.length, 1);
  assert.match(longer[0], /^Its firewall rule "Rule 0" .* 4097 bytes, over the limit of 4096/);
});

test('the blocked refusal (10502) names the zone and its migration_state, as the other refusals do', () => {
  // It began "The zone cannot migrate: ..." while 10503-10505 begin with the zone and its state; a script migrating many zones
  // reads every refusal the same way.
  const twoReasons: MigrationFacts = { ...BLOCKED_ENT, blockers: [...BLOCKED_ENT.blockers, 'It has 201 firewall rules to migrate, over the limit of 200; contact support.'] };
  for (const mode of ['pending', 'validation'] as const) {
    const r = transition('start', mode, twoReasons);
    assert.ok(!r.ok);
    assert.equal(r.message, 'Zone "x" is in migration_state "start": it cannot migrate. It has 1 URI-based WAF override; delete it before migrating. '
      + 'It has 201 firewall rules to migrate, over the limit of 200; contact support.');
  }
});

test('the check\'s answer by state: start as its blockers say, validation can still move on, migrated cannot move again', () => {
  // The spec: compatible is "true when the zone can move to the new managed rules; false when it is not eligible".
  assert.deepEqual(compatibility('start', PRO), { compatible: true, messages: [] });
  const blocked = compatibility('start', { ...BLOCKED_ENT, blockers: [...BLOCKED_ENT.blockers, 'It has 201 firewall rules to migrate, over the limit of 200; contact support.'] });
  assert.equal(blocked.compatible, false);
  // One message per reason, each readable alone: the zone, its state, and the reason, in the words of the update's refusal.
  assert.deepEqual(blocked.messages, [
    { code: 10502, message: 'Zone "x" is in migration_state "start": it cannot migrate. It has 1 URI-based WAF override; delete it before migrating.' },
    { code: 10502, message: 'Zone "x" is in migration_state "start": it cannot migrate. It has 201 firewall rules to migrate, over the limit of 200; contact support.' },
  ]);
  // Validation mode moves on to migrated with the pending update (no blocker stops that transition).
  assert.deepEqual(compatibility('validation', ENT), { compatible: true, messages: [] });
  assert.equal(next('validation', 'pending', { ...ENT, blockers: BLOCKED_ENT.blockers }), 'migrated');
  // Migrated: nowhere left to move, and said why, with the code of the update's own refusal on a migrated zone.
  for (const facts of [PRO, ENT]) {
    const m = compatibility('migrated', facts);
    assert.equal(m.compatible, false);
    assert.equal(m.messages.length, 1);
    assert.equal(m.messages[0].code, 10505);
    assert.match(m.messages[0].message, new RegExp(`^Zone "${facts.zone.replace('.', '\\.')}" is in migration_state "migrated": it has already migrated`));
    assert.match(m.messages[0].message, /cannot be reversed/);
    assert.match(m.messages[0].message, /rulesets API/);
  }
});
