import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { INITIAL, describeCheck, describeState, isTerminal, nextAction, refusal, transition } from '../../../client/src/flow/machine';
import type { Action, EventType, State, StateName } from '../../../client/src/flow/machine';
import { ALL_EVENT_VARIANTS, BUSINESS, CONFIG, ENT, EVENTS, PRO, STATES, STATUS_MIGRATED, STATUS_VALIDATION } from './fixtures';

/** The accepted transitions for the sample states and events; every other pair is refused. */
const ACCEPTED: Record<StateName, Partial<Record<EventType, StateName>>> = {
  idle: { START: 'checking' },
  checking: { CHECK_OK: 'fetching-config', CHECK_FAILED: 'failed', CANCEL: 'cancelled' },
  'not-eligible': {},
  'fetching-config': { CONFIG_OK: 'reviewing', CONFIG_FAILED: 'failed', CANCEL: 'cancelled' },
  reviewing: { REVIEWED: 'confirm-migrate', DECLINE: 'cancelled', CANCEL: 'cancelled' },
  'choose-mode': { CONFIRM_VALIDATION: 'updating-validation', CONFIRM_MIGRATE: 'updating-pending', DECLINE: 'cancelled', CANCEL: 'cancelled' },
  'confirm-migrate': { CONFIRM_MIGRATE: 'updating-pending', DECLINE: 'cancelled', CANCEL: 'cancelled' },
  'updating-validation': { UPDATE_OK: 'reading-status', UPDATE_FAILED: 'failed' },
  'updating-pending': { UPDATE_OK: 'reading-status', UPDATE_FAILED: 'failed' },
  'reading-status': { STATUS: 'migrated', STATUS_FAILED: 'migrated', CANCEL: 'migrated' },
  validation: { FINISH: 'fetching-config', INSPECT: 'inspecting', DECLINE: 'cancelled', CANCEL: 'cancelled' },
  inspecting: { INSPECTED: 'validation', CANCEL: 'cancelled' },
  migrated: {},
  failed: {},
  cancelled: {},
};

const STATE_NAMES = Object.keys(STATES) as StateName[];
const EVENT_TYPES = Object.keys(EVENTS) as EventType[];

describe('transition table: every state x every event', () => {
  for (const s of STATE_NAMES) {
    for (const e of EVENT_TYPES) {
      const expected = ACCEPTED[s][e];
      test(`${s} + ${e} -> ${expected ?? 'refused'}`, () => {
        const state = STATES[s];
        const next = transition(state, EVENTS[e]);
        if (expected) {
          assert.equal(next.name, expected);
          assert.notEqual(next, state);
          assert.equal(refusal(state, EVENTS[e]), undefined);
        } else {
          assert.equal(next, state, 'a refused event returns the same state object');
          const why = refusal(state, EVENTS[e]);
          assert.ok(why && why.startsWith(e), `refusal names the event: ${why}`);
        }
      });
    }
  }
});

describe('transition details', () => {
  test('START carries the zone into checking', () => {
    assert.deepEqual(transition(INITIAL, { type: 'START', zone: ENT }), { name: 'checking', zone: ENT });
  });

  test('CHECK_OK compatible in start -> fetching-config from start', () => {
    assert.deepEqual(transition(STATES.checking, EVENTS.CHECK_OK), { name: 'fetching-config', zone: PRO, from: 'start' });
  });

  test('CHECK_OK not compatible -> not-eligible, with the blockers as the reason', () => {
    const s = transition(STATES.checking, { type: 'CHECK_OK', compatible: false, migration_state: 'start', messages: ['Zone "pro.example" has 2 URI-based WAF overrides; delete them before migrating.', ' '] });
    assert.deepEqual(s, { name: 'not-eligible', zone: PRO, reason: 'Zone "pro.example" (pro) is not eligible for the new managed rules: Zone "pro.example" has 2 URI-based WAF overrides; delete them before migrating.' });
    const bare = transition(STATES.checking, { type: 'CHECK_OK', compatible: false, migration_state: 'start' });
    assert.equal(bare.name === 'not-eligible' && bare.reason, 'Zone "pro.example" (pro) is not eligible for the new managed rules; the compatibility check answered compatible: false.');
  });

  test('CHECK_OK in validation resumes at validation; migrated goes to migrated (already)', () => {
    assert.deepEqual(transition({ name: 'checking', zone: ENT }, { type: 'CHECK_OK', compatible: true, migration_state: 'validation' }), { name: 'validation', zone: ENT, resumed: true });
    assert.deepEqual(transition(STATES.checking, { type: 'CHECK_OK', compatible: false, migration_state: 'migrated' }), { name: 'migrated', zone: PRO, already: true });
  });

  test('CHECK_OK with an unknown migration state stops as not-eligible and quotes it', () => {
    const s = transition(STATES.checking, { type: 'CHECK_OK', compatible: true, migration_state: 'paused' });
    assert.equal(s.name, 'not-eligible');
    assert.match(s.name === 'not-eligible' ? s.reason : '', /reports migration state "paused"/);
  });

  test('CHECK_FAILED and CONFIG_FAILED record the step and error', () => {
    assert.deepEqual(transition(STATES.checking, EVENTS.CHECK_FAILED), { name: 'failed', zone: PRO, step: 'check', error: 'HTTP 500', zoneState: 'unknown' });
    assert.deepEqual(transition({ name: 'fetching-config', zone: ENT, from: 'validation' }, EVENTS.CONFIG_FAILED), { name: 'failed', zone: ENT, step: 'config', error: 'HTTP 500', zoneState: 'validation' });
  });

  test('CONFIG_OK carries the config operation\'s notes into the review', () => {
    const r = transition(STATES['fetching-config'], { type: 'CONFIG_OK', config: CONFIG, notes: ['The override of OWASP rule 973300 is not migrated.'] });
    assert.deepEqual(r, { name: 'reviewing', zone: PRO, from: 'start', config: CONFIG, notes: ['The override of OWASP rule 973300 is not migrated.'] });
    assert.deepEqual(nextAction(r), { do: 'show-config', config: CONFIG, notes: ['The override of OWASP rule 973300 is not migrated.'] });
    assert.match(describeState(r), /\(1 rule\)\. 1 setting of the previous managed rules is not migrated: see the review\.$/);
  });

  test('CONFIG_OK keeps where the flow came from', () => {
    assert.deepEqual(transition({ name: 'fetching-config', zone: ENT, from: 'validation' }, EVENTS.CONFIG_OK), { name: 'reviewing', zone: ENT, from: 'validation', config: CONFIG });
  });

  test('REVIEWED: Enterprise from start chooses the mode; Pro, Business and Enterprise in validation confirm the migration', () => {
    assert.deepEqual(transition({ name: 'reviewing', zone: ENT, from: 'start', config: CONFIG }, EVENTS.REVIEWED), { name: 'choose-mode', zone: ENT, config: CONFIG });
    assert.deepEqual(transition({ name: 'reviewing', zone: BUSINESS, from: 'start', config: CONFIG }, EVENTS.REVIEWED), { name: 'confirm-migrate', zone: BUSINESS, from: 'start', config: CONFIG });
    assert.deepEqual(transition({ name: 'reviewing', zone: ENT, from: 'validation', config: CONFIG }, EVENTS.REVIEWED), { name: 'confirm-migrate', zone: ENT, from: 'validation', config: CONFIG });
  });

  test('REVIEWED with an adjusted configuration deploys that one', () => {
    const edited = { name: 'edited', rules: [] };
    const s = transition(STATES.reviewing, { type: 'REVIEWED', config: edited });
    assert.equal(s.name === 'confirm-migrate' && s.config, edited);
  });

  test('Enterprise only: validation is refused for non-Enterprise zones with a reason', () => {
    assert.match(refusal(STATES['confirm-migrate'], EVENTS.CONFIRM_VALIDATION) ?? '', /validation mode is for Enterprise zones only, and zone "pro\.example" \(pro\) is not one/);
    // Even a choose-mode state built for a non-Enterprise zone refuses it.
    const forged: State = { name: 'choose-mode', zone: BUSINESS, config: CONFIG };
    assert.equal(transition(forged, EVENTS.CONFIRM_VALIDATION), forged);
    assert.match(refusal(forged, EVENTS.CONFIRM_VALIDATION) ?? '', /Enterprise zones only/);
  });

  test('validation cannot be entered twice', () => {
    assert.match(refusal(STATES.validation, EVENTS.CONFIRM_VALIDATION) ?? '', /already in validation mode; only the pending update can follow/);
    assert.match(refusal({ name: 'confirm-migrate', zone: ENT, from: 'validation', config: CONFIG }, EVENTS.CONFIRM_VALIDATION) ?? '', /already in validation mode/);
    assert.match(refusal(STATES.validation, EVENTS.CONFIRM_MIGRATE) ?? '', /review the configuration of zone "enterprise\.example" first/);
  });

  test('the confirmations lead to the matching update', () => {
    assert.deepEqual(transition(STATES['choose-mode'], EVENTS.CONFIRM_VALIDATION), { name: 'updating-validation', zone: ENT, config: CONFIG });
    assert.deepEqual(transition(STATES['choose-mode'], EVENTS.CONFIRM_MIGRATE), { name: 'updating-pending', zone: ENT, from: 'start', config: CONFIG });
    assert.deepEqual(transition({ name: 'confirm-migrate', zone: ENT, from: 'validation', config: CONFIG }, EVENTS.CONFIRM_MIGRATE), { name: 'updating-pending', zone: ENT, from: 'validation', config: CONFIG });
  });

  test('DECLINE and CANCEL record where the flow stopped and the zone state', () => {
    assert.deepEqual(transition(STATES['confirm-migrate'], EVENTS.DECLINE), { name: 'cancelled', zone: PRO, at: 'confirm-migrate', zoneState: 'start' });
    assert.deepEqual(transition(STATES.validation, EVENTS.DECLINE), { name: 'cancelled', zone: ENT, at: 'validation', zoneState: 'validation' });
    assert.deepEqual(transition(STATES.checking, EVENTS.CANCEL), { name: 'cancelled', zone: PRO, at: 'checking', zoneState: 'unknown' });
  });

  test('DECLINE or CANCEL in any state that takes it records the zone state the flow left', () => {
    const cases: [State, 'DECLINE' | 'CANCEL', string][] = [
      [STATES['choose-mode'], 'DECLINE', 'start'],
      [STATES['choose-mode'], 'CANCEL', 'start'],
      [STATES['fetching-config'], 'CANCEL', 'start'],
      [{ name: 'fetching-config', zone: ENT, from: 'validation' }, 'CANCEL', 'validation'],
      [{ name: 'reviewing', zone: ENT, from: 'validation', config: CONFIG }, 'DECLINE', 'validation'],
      [STATES.reviewing, 'CANCEL', 'start'],
      [{ name: 'confirm-migrate', zone: ENT, from: 'validation', config: CONFIG }, 'CANCEL', 'validation'],
      [STATES.inspecting, 'CANCEL', 'validation'],
      [STATES.validation, 'CANCEL', 'validation'],
    ];
    for (const [state, type, zoneState] of cases) {
      const next = transition(state, { type });
      assert.deepEqual(next, { name: 'cancelled', zone: (state as { zone: unknown }).zone, at: state.name, zoneState }, `${state.name} + ${type}`);
    }
  });

  test('a refusal says "while idle" before the flow starts, and names the state after', () => {
    assert.equal(refusal(INITIAL, EVENTS.CANCEL), 'CANCEL is not expected while idle.');
    assert.equal(refusal(STATES.checking, EVENTS.START), 'START is not expected while in state "checking".');
  });

  test('UPDATE_FAILED refused with no status, or a status in a state the flow does not know, leaves the zone where the update found it', () => {
    const failed = (s: State, zoneNow?: string) => transition(s, { type: 'UPDATE_FAILED', error: 'HTTP 409', ...(zoneNow ? { zoneNow } : {}) });
    assert.deepEqual(failed(STATES['updating-validation']), { name: 'failed', zone: ENT, step: 'update-validation', error: 'HTTP 409', zoneState: 'start' });
    assert.equal((failed(STATES['updating-validation'], 'other') as { zoneState: string }).zoneState, 'start');
    assert.equal((failed(STATES['updating-pending'], 'other') as { zoneState: string }).zoneState, 'start');
    const fromValidation: State = { name: 'updating-pending', zone: ENT, from: 'validation', config: CONFIG };
    assert.equal((failed(fromValidation, 'other') as { zoneState: string }).zoneState, 'validation');
    assert.equal((failed(fromValidation, 'start') as { zoneState: string }).zoneState, 'validation', 'a status behind the zone is a stale one');
  });

  test('CANCEL is refused while an update is in flight', () => {
    assert.match(refusal(STATES['updating-pending'], EVENTS.CANCEL) ?? '', /the pending update of zone "pro\.example" has been sent, and its answer must be awaited/);
    assert.match(refusal(STATES['updating-validation'], EVENTS.CANCEL) ?? '', /the validation update/);
  });

  test('UPDATE_OK reads the status next, with the target state and the ruleset', () => {
    assert.deepEqual(transition(STATES['updating-validation'], EVENTS.UPDATE_OK), { name: 'reading-status', zone: ENT, target: 'validation' });
    assert.deepEqual(transition(STATES['updating-pending'], { type: 'UPDATE_OK', ruleset: { id: 'rs1' } }), { name: 'reading-status', zone: PRO, target: 'migrated', ruleset: { id: 'rs1' } });
  });

  test('UPDATE_FAILED with the status read after it: the zone at the target is not a failure; a refusal reports where the zone is', () => {
    // A pending update whose answer was lost, on a zone whose status now says migrated: the migration happened.
    const lost = transition(STATES['updating-pending'], { type: 'UPDATE_FAILED', error: 'PUT x timed out after 5 ms', uncertain: true, zoneNow: 'migrated' });
    assert.equal(lost.name, 'migrated');
    assert.match(describeState(lost), /has migrated to the new managed rules\. The update's answer did not come through \(PUT x timed out after 5 ms\.\), but the status now reports migration state "migrated": the update took effect\.$/);
    const lostV = transition(STATES['updating-validation'], { type: 'UPDATE_FAILED', error: 't', uncertain: true, zoneNow: 'validation' });
    assert.ok(lostV.name === 'validation' && !lostV.resumed && /took effect/.test(lostV.note ?? ''));
    // Not yet at the target after a lost answer: still unknown (the switch can take a couple of minutes).
    assert.equal((transition(STATES['updating-pending'], { type: 'UPDATE_FAILED', error: 't', uncertain: true, zoneNow: 'start' }) as { zoneState: string }).zoneState, 'unknown');
    // Finishing from validation, refused because another client finished first: the zone has migrated, it does not "stay in validation".
    const raced = transition({ name: 'updating-pending', zone: ENT, from: 'validation', config: CONFIG }, { type: 'UPDATE_FAILED', error: 'HTTP 409 Conflict', zoneNow: 'migrated' });
    assert.ok(raced.name === 'migrated' && raced.byOther, 'the reviewed configuration was not what got deployed');
    assert.ok(lost.name === 'migrated' && !lost.byOther);
    assert.match(describeState(raced), /refused \(HTTP 409 Conflict\.\).*another update.*may not be the one reviewed here/);
    assert.doesNotMatch(describeState(raced), /stays in validation mode/);
    // A validation update refused on a zone that has migrated meanwhile: failed, and the message says where the zone is.
    const late = transition(STATES['updating-validation'], { type: 'UPDATE_FAILED', error: 'HTTP 409', zoneNow: 'migrated' });
    assert.ok(late.name === 'failed' && late.zoneState === 'migrated');
    assert.match(describeState(late), /The zone has migrated \(by another update\)\.$/);
    assert.doesNotMatch(describeState(late), /Nothing was changed/);
    // A refusal on a zone still where it was: as before; a status behind where the flow knows the zone to be is stale.
    assert.equal((transition(STATES['updating-pending'], { type: 'UPDATE_FAILED', error: 'HTTP 400', zoneNow: 'start' }) as { zoneState: string }).zoneState, 'start');
    assert.equal((transition({ name: 'updating-pending', zone: ENT, from: 'validation', config: CONFIG }, { type: 'UPDATE_FAILED', error: 'HTTP 400', zoneNow: 'start' }) as { zoneState: string }).zoneState, 'validation');
  });

  test('UPDATE_FAILED: the zone stays where it was, or is unknown when no answer came', () => {
    assert.deepEqual(transition(STATES['updating-pending'], EVENTS.UPDATE_FAILED), { name: 'failed', zone: PRO, step: 'update-pending', error: 'HTTP 409', zoneState: 'start' });
    assert.deepEqual(transition({ name: 'updating-pending', zone: ENT, from: 'validation', config: CONFIG }, EVENTS.UPDATE_FAILED), { name: 'failed', zone: ENT, step: 'update-pending', error: 'HTTP 409', zoneState: 'validation' });
    assert.deepEqual(transition(STATES['updating-validation'], { type: 'UPDATE_FAILED', error: 't', uncertain: true }), { name: 'failed', zone: ENT, step: 'update-validation', error: 't', zoneState: 'unknown' });
  });

  test('STATUS: the reached state with the status record; a lagging status adds a note', () => {
    const rs = { name: 'reading-status', zone: PRO, target: 'migrated', ruleset: { id: 'rs1' } } as const;
    assert.deepEqual(transition(rs, { type: 'STATUS', status: STATUS_MIGRATED }), { name: 'migrated', zone: PRO, already: false, ruleset: { id: 'rs1' }, status: STATUS_MIGRATED });
    assert.deepEqual(transition({ name: 'reading-status', zone: ENT, target: 'validation' }, { type: 'STATUS', status: STATUS_VALIDATION }), { name: 'validation', zone: ENT, resumed: false, status: STATUS_VALIDATION });
    const lag = transition(rs, { type: 'STATUS', status: STATUS_VALIDATION });
    assert.equal(lag.name, 'migrated');
    assert.match(lag.name === 'migrated' ? lag.note ?? '' : '', /still reports migration state "validation"; it can take a couple of minutes to show "migrated"/);
  });

  test('STATUS_FAILED and CANCEL while reading the status still reach the target, with a note', () => {
    const a = transition(STATES['reading-status'], EVENTS.STATUS_FAILED);
    assert.ok(a.name === 'migrated' && a.note === 'The update was accepted; the status could not be read: HTTP 500');
    const b = transition({ name: 'reading-status', zone: ENT, target: 'validation' }, EVENTS.CANCEL);
    assert.ok(b.name === 'validation' && /status was not read/.test(b.note ?? ''));
  });

  test('FINISH from validation fetches the configuration again, from validation', () => {
    assert.deepEqual(transition(STATES.validation, EVENTS.FINISH), { name: 'fetching-config', zone: ENT, from: 'validation' });
  });

  test('terminal states refuse everything; migrated says it cannot be reversed', () => {
    for (const s of ['not-eligible', 'migrated', 'failed', 'cancelled'] as const) assert.equal(isTerminal(STATES[s]), true);
    assert.equal(isTerminal(STATES.validation), false);
    assert.equal(refusal(STATES.migrated, EVENTS.CONFIRM_VALIDATION), 'CONFIRM_VALIDATION is refused: the zone has migrated and the migration cannot be reversed.');
    assert.equal(refusal(STATES.failed, EVENTS.START), 'START is refused: the flow has ended (failed).');
  });
});

/** Every state reachable from `from` through any event variant. */
function reachable(from: State): State[] {
  const seen: State[] = [from];
  const keys = new Set([JSON.stringify(from)]);
  for (let i = 0; i < seen.length; i++) {
    for (const e of ALL_EVENT_VARIANTS) {
      const next = transition(seen[i], e);
      const k = JSON.stringify(next);
      if (!keys.has(k)) {
        keys.add(k);
        seen.push(next);
      }
    }
  }
  return seen;
}

describe('irreversibility and the Enterprise-only validation mode (exhaustive)', () => {
  test('nothing leads out of migrated', () => {
    assert.deepEqual(reachable(STATES.migrated), [STATES.migrated]);
  });

  test('from validation, nothing offers validation again or treats the zone as not migrated', () => {
    const all = reachable(STATES.validation);
    assert.ok(all.some((s) => s.name === 'migrated'), 'migrated is reachable');
    for (const s of all) {
      assert.ok(!['idle', 'checking', 'choose-mode', 'updating-validation', 'not-eligible'].includes(s.name), `reached ${s.name}`);
      assert.ok(!('from' in s) || s.from === 'validation', `reached ${JSON.stringify(s)}`);
      assert.ok(!('zoneState' in s) || s.zoneState !== 'start', `reached ${JSON.stringify(s)}`);
      const a = nextAction(s);
      assert.ok(!(a.do === 'put' && a.mode === 'validation'));
    }
  });

  test('a Pro or Business zone never reaches validation mode from any start', () => {
    for (const zone of [PRO, BUSINESS]) {
      const all = reachable({ name: 'checking', zone });
      assert.ok(all.some((s) => s.name === 'updating-pending'));
      for (const s of all) {
        assert.ok(!['choose-mode', 'updating-validation'].includes(s.name), `${zone.name} reached ${s.name}`);
        const a = nextAction(s);
        assert.ok(!(a.do === 'put' && a.mode === 'validation'));
        if (a.do === 'ask') assert.ok(a.options.every((o) => o.event.type !== 'CONFIRM_VALIDATION'));
      }
    }
  });

  test('an Enterprise zone can reach both updates', () => {
    const names = new Set(reachable({ name: 'checking', zone: ENT }).map((s) => s.name));
    assert.ok(names.has('updating-validation') && names.has('updating-pending') && names.has('validation'));
  });

  test('every state reachable from idle has an action, and every ask option is accepted', () => {
    for (const s of reachable(INITIAL)) {
      const a = nextAction(s);
      if (a.do === 'ask') {
        for (const o of [...a.options.map((x) => x.event), a.dismissed]) assert.equal(refusal(s, o), undefined, `${s.name}: ${o.type}`);
      }
      assert.equal(a.do === 'done', isTerminal(s));
    }
  });
});

describe('nextAction', () => {
  const act = (s: State): Action => nextAction(s);

  test('effects', () => {
    assert.deepEqual(act(INITIAL), { do: 'start' });
    assert.deepEqual(act(STATES.checking), { do: 'check' });
    assert.deepEqual(act(STATES['fetching-config']), { do: 'config' });
    assert.deepEqual(act(STATES.reviewing), { do: 'show-config', config: CONFIG, notes: [] });
    assert.deepEqual(act(STATES['reading-status']), { do: 'status' });
  });

  test('the validation update leaves out rule ids; the pending update keeps them', () => {
    const v = act(STATES['updating-validation']);
    assert.ok(v.do === 'put' && v.mode === 'validation');
    assert.equal(v.do === 'put' && 'id' in v.body.rules[0], false);
    const p = act(STATES['updating-pending']);
    assert.ok(p.do === 'put' && p.mode === 'pending');
    assert.equal(p.do === 'put' && p.body.rules[0].id, 'a'.repeat(32));
  });

  test('choose-mode: one modal question with both modes', () => {
    const a = act(STATES['choose-mode']);
    assert.ok(a.do === 'ask');
    assert.equal(a.modal, true);
    assert.equal(a.question, 'Deploy the new managed rules (1 rule) to Enterprise zone "enterprise.example"?');
    assert.deepEqual(a.options.map((o) => [o.label, o.event.type]), [['Validation Mode', 'CONFIRM_VALIDATION'], ['Migrate Now', 'CONFIRM_MIGRATE']]);
    assert.deepEqual(a.dismissed, { type: 'DECLINE' });
    assert.match(a.detail, /Neither step can be undone/);
  });

  test('confirm-migrate: one modal confirmation that says it is irreversible', () => {
    const a = act(STATES['confirm-migrate']);
    assert.ok(a.do === 'ask' && a.modal);
    assert.equal(a.question, 'Migrate zone "pro.example" to the new managed rules (1 rule)?');
    assert.deepEqual(a.options.map((o) => o.event.type), ['CONFIRM_MIGRATE']);
    assert.match(a.detail, /cannot be reversed/);
    // The modal's detail is a sentence of its own: it began "the configuration you reviewed is saved, …" in lower case
    assert.match(a.detail, /^The configuration you reviewed is saved, /);
    const fromValidation = act({ name: 'confirm-migrate', zone: ENT, from: 'validation', config: CONFIG });
    assert.ok(fromValidation.do === 'ask' && fromValidation.detail.startsWith('This leaves validation mode'));
  });

  test('validation: a non-modal question to inspect the security events, finish now or later', () => {
    const a = act(STATES.validation);
    assert.ok(a.do === 'ask' && !a.modal);
    assert.deepEqual(a.options.map((o) => [o.label, o.event.type]), [['Inspect Security Events', 'INSPECT'], ['Review and Finish', 'FINISH'], ['Later', 'DECLINE']]);
  });

  test('inspect step: inspecting reads the events, and the next question carries what they show', () => {
    const inspecting = transition(STATES.validation, EVENTS.INSPECT);
    assert.deepEqual(act(inspecting), { do: 'inspect' });
    const back = transition(inspecting, { type: 'INSPECTED', inspection: { sentences: ['The new rules would block 14 requests the previous ones only logged.', '3 requests the previous rules blocked now pass.'] } });
    assert.equal(back.name, 'validation');
    const a = act(back);
    assert.ok(a.do === 'ask');
    assert.match(a.question, /Security events: The new rules would block 14 requests the previous ones only logged\. 3 requests the previous rules blocked now pass\. Finish the migration now\?$/);
    assert.deepEqual(a.options.map((o) => o.label), ['Inspect Again', 'Review and Finish', 'Later']);
    const failed = act(transition(inspecting, { type: 'INSPECTED', inspection: { error: 'HTTP 500 from the mock' } }));
    assert.ok(failed.do === 'ask' && /could not be read: HTTP 500 from the mock\./.test(failed.question));
    const none = act(transition(inspecting, { type: 'INSPECTED', inspection: { sentences: [] } }));
    assert.ok(none.do === 'ask' && /neither rule set has acted/.test(none.question));
    assert.equal(transition(inspecting, EVENTS.CANCEL).name, 'cancelled');
    assert.equal((transition(inspecting, EVENTS.CANCEL) as { zoneState: string }).zoneState, 'validation', 'cancelling the inspection leaves the zone in validation mode');
  });

  test('terminal states are done, with a summary', () => {
    assert.deepEqual(act(STATES.migrated), { do: 'done', outcome: 'migrated', message: 'Zone "pro.example" has migrated to the new managed rules.' });
    assert.deepEqual(act(STATES['not-eligible']), { do: 'done', outcome: 'not-eligible', message: 'Zone "pro.example" (pro) is not eligible.' });
    assert.equal(act(STATES.cancelled).do, 'done');
    assert.equal(act(STATES.failed).do, 'done');
  });
});

describe('describeState', () => {
  test('every state has a sentence', () => {
    for (const s of Object.values(STATES)) assert.ok(describeState(s).length > 10, s.name);
  });

  test('outcomes say what happened to the zone', () => {
    assert.equal(describeState({ name: 'failed', zone: PRO, step: 'update-pending', error: 'POST x timed out after 5 ms.', zoneState: 'unknown' }),
      'Migration of zone "pro.example" failed at the pending update: POST x timed out after 5 ms. The update may or may not have been applied; check the zone\'s status before trying again.');
    assert.equal(describeState({ name: 'failed', zone: PRO, step: 'update-pending', error: 'HTTP 409', zoneState: 'start' }),
      'Migration of zone "pro.example" failed at the pending update: HTTP 409. Nothing was changed.');
    assert.match(describeState({ name: 'failed', zone: ENT, step: 'config', error: 'x', zoneState: 'validation' }), /The zone stays in validation mode\.$/);
    assert.equal(describeState(STATES.cancelled), 'Cancelled; nothing was sent to zone "pro.example".');
    assert.match(describeState({ name: 'cancelled', zone: ENT, at: 'validation', zoneState: 'validation' }), /stays in validation mode \(both rule sets run\)/);
    assert.equal(describeState({ name: 'migrated', zone: PRO, already: false, status: STATUS_MIGRATED }),
      'Zone "pro.example" has migrated to the new managed rules. Status: migration state migrated, previous rules off, new rules on.');
    assert.match(describeState({ name: 'migrated', zone: PRO, already: true }), /already migrated.*nothing to do/);
    assert.match(describeState(STATES['fetching-config']), /is compatible \(migration state start\)/);
  });

  test('only a failed update leaves the outcome open; a review without notes names no lost setting', () => {
    assert.equal(describeState(STATES.failed), 'Migration of zone "pro.example" failed at the compatibility check: boom.');
    assert.match(describeState({ name: 'failed', zone: ENT, step: 'update-validation', error: 'x', zoneState: 'unknown' }),
      /failed at the validation update: x\. The update may or may not have been applied; check the zone's status before trying again\.$/);
    assert.equal(describeState({ name: 'cancelled', zone: PRO, at: 'reading-status', zoneState: 'migrated' }), 'Stopped; zone "pro.example" has migrated.');
    assert.equal(describeState(STATES.reviewing), 'Review the new configuration of zone "pro.example" (1 rule).');
    assert.equal(describeState({ ...STATES.reviewing, notes: ['a', 'b'] } as State),
      'Review the new configuration of zone "pro.example" (1 rule). 2 settings of the previous managed rules are not migrated: see the review.');
  });
});

describe('describeCheck (the "Check Migration Compatibility" command\'s message)', () => {
  test('start: compatible or not, with the blockers', () => {
    assert.deepEqual(describeCheck(PRO, { compatible: true, migration_state: 'start' }, []),
      { ok: true, text: 'pro.example can move to the new managed rules (state: start).' });
    const no = describeCheck(PRO, { compatible: false, migration_state: 'start' }, ['Zone "pro.example" has 1 URI-based WAF override; delete it before migrating.']);
    assert.equal(no.ok, false);
    // The flow's words for the same refusal (Migrate Zone stops at the check with them): one wording for one fact.
    assert.match(no.text, /^Zone "pro\.example" \(pro\) is not eligible for the new managed rules \(state: start\)\. Zone "pro\.example" has 1 URI-based WAF override/);
  });

  test('a zone in validation mode or migrated is not told it "can move" to where it already is', () => {
    const v = describeCheck(ENT, { compatible: true, migration_state: 'validation' }, []);
    assert.equal(v.ok, true);
    assert.equal(v.text, 'enterprise.example is in validation mode (state: validation): the new and the previous managed rules both run; finish with the pending update.');
    const m = describeCheck(PRO, { compatible: true, migration_state: 'migrated' }, []);
    assert.equal(m.text, 'pro.example has already migrated to the new managed rules (state: migrated); there is nothing to check.');
    assert.doesNotMatch(describeCheck(PRO, { compatible: false, migration_state: 'migrated' }, []).text, /not eligible|can move/);
  });
});
