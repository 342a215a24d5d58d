// The managed-rules migration of one zone, as the editor walks a user through it: a pure state machine. `transition(state, event)`
// returns the next state (the same object when the event is refused, with `refusal()` saying why), and `nextAction(state)` tells the
// driver which side effect comes next. The driver performs it and feeds the outcome back as an event. No vscode, no I/O.
//
//   idle -START-> checking -CHECK_OK-> not-eligible | fetching-config(from start) | validation (resume) | migrated (already)
//   fetching-config -CONFIG_OK-> reviewing -REVIEWED-> choose-mode (Enterprise, from start) | confirm-migrate
//   choose-mode -CONFIRM_VALIDATION-> updating-validation -UPDATE_OK-> reading-status -STATUS-> validation
//   choose-mode | confirm-migrate -CONFIRM_MIGRATE-> updating-pending -UPDATE_OK-> reading-status -STATUS-> migrated
//   validation -INSPECT-> inspecting -INSPECTED-> validation (with what the security events show)
//   validation -FINISH-> fetching-config(from validation: the deployed entry point) -> reviewing -> confirm-migrate -> updating-pending
//     -> ... -> migrated
//   any step -..._FAILED-> failed;  asks -DECLINE-> cancelled;  CANCEL -> cancelled except while an update is in flight.
//
// Irreversible by construction: nothing leaves migrated, failed, cancelled or not-eligible, and nothing reachable from validation
// offers validation mode again or treats the zone as not migrated.
import type { CheckResult, MigrationConfig, MigrationMode, Ruleset, StatusRecord, Zone } from '../http/api';
import { entrypointBody, isEnterprise, planOf } from '../http/api';

/** Where the zone stands with the new managed rules, as far as the flow knows. */
export type ZoneMigration = 'start' | 'validation' | 'migrated' | 'unknown';
/** Which side effect failed. */
export type Step = 'check' | 'config' | 'update-validation' | 'update-pending';

export type State =
  | { name: 'idle' }
  | { name: 'checking'; zone: Zone }
  | { name: 'not-eligible'; zone: Zone; reason: string }
  | { name: 'fetching-config'; zone: Zone; from: 'start' | 'validation' }
  /** `notes`: what the config operation says is not migrated (the old core rule set's group and rule overrides). */
  | { name: 'reviewing'; zone: Zone; from: 'start' | 'validation'; config: MigrationConfig; notes?: string[] }
  | { name: 'choose-mode'; zone: Zone; config: MigrationConfig }
  | { name: 'confirm-migrate'; zone: Zone; from: 'start' | 'validation'; config: MigrationConfig }
  | { name: 'updating-validation'; zone: Zone; config: MigrationConfig }
  | { name: 'updating-pending'; zone: Zone; from: 'start' | 'validation'; config: MigrationConfig }
  | { name: 'reading-status'; zone: Zone; target: 'validation' | 'migrated'; ruleset?: Ruleset }
  /** `byOther`: the zone got here by another update than the flow's (its own was refused): the reviewed text was not deployed. */
  | { name: 'validation'; zone: Zone; resumed: boolean; status?: StatusRecord; note?: string; inspected?: Inspection; byOther?: true }
  /** The spec's inspect step: reading the security events that both rule sets produced, before the pending update. */
  | { name: 'inspecting'; zone: Zone; resumed: boolean; status?: StatusRecord }
  | { name: 'migrated'; zone: Zone; already: boolean; status?: StatusRecord; ruleset?: Ruleset; note?: string; byOther?: true }
  | { name: 'failed'; zone: Zone; step: Step; error: string; zoneState: ZoneMigration }
  | { name: 'cancelled'; zone: Zone; at: StateName; zoneState: ZoneMigration };

export type StateName = State['name'];

export type Event =
  | { type: 'START'; zone: Zone }
  | { type: 'CHECK_OK'; compatible: boolean; migration_state: string; messages?: string[] }
  | { type: 'CHECK_FAILED'; error: string }
  | { type: 'CONFIG_OK'; config: MigrationConfig; notes?: string[] }
  | { type: 'CONFIG_FAILED'; error: string }
  /** The configuration was shown; `config` replaces it when the user adjusted it during the review. */
  | { type: 'REVIEWED'; config?: MigrationConfig }
  | { type: 'CONFIRM_VALIDATION' }
  | { type: 'CONFIRM_MIGRATE' }
  /** In validation mode: go on to the pending update. */
  | { type: 'FINISH' }
  /** In validation mode: look at the security events first. */
  | { type: 'INSPECT' }
  | { type: 'INSPECTED'; inspection: Inspection }
  | { type: 'DECLINE' }
  | { type: 'UPDATE_OK'; ruleset?: Ruleset }
  /**
   * `uncertain`: the update may or may not have been applied (no answer arrived, a server error, an answer not understood).
   * `zoneNow`: the migration state the status operation reported right after the failure, when it could be read.
   */
  | { type: 'UPDATE_FAILED'; error: string; uncertain?: boolean; zoneNow?: string }
  | { type: 'STATUS'; status: StatusRecord }
  | { type: 'STATUS_FAILED'; error: string }
  | { type: 'CANCEL' };

export type EventType = Event['type'];

/** What the inspect step found: sentences comparing the two rule sets, or why the events could not be read. */
export type Inspection = { sentences: string[] } | { error: string };

export interface AskOption {
  label: string;
  event: Event;
}

export type Action =
  /** Dispatch START with the zone. */
  | { do: 'start' }
  | { do: 'check' }
  /** Get the new configuration (the migration's config operation). */
  | { do: 'config' }
  /** Read the configuration deployed in validation mode (the zone's entry point), to finish from. */
  | { do: 'deployed-config' }
  /** Show the configuration for review (e.g. as a *.ruleset.json document), then dispatch REVIEWED. */
  | { do: 'show-config'; config: MigrationConfig; notes: string[] }
  /** Ask; the chosen option's event is dispatched, `dismissed` when the user closes the question. `topic`: what a question that
   * waits (not modal) is about, in two or three words, for the progress line that says it waits. */
  | { do: 'ask'; question: string; detail: string; modal: boolean; options: AskOption[]; dismissed: Event; topic?: string }
  | { do: 'put'; mode: MigrationMode; body: { name: string; rules: MigrationConfig['rules'] } }
  | { do: 'status' }
  /** Read and show the zone's security events; dispatch INSPECTED. */
  | { do: 'inspect' }
  /** A terminal state: nothing more to do. `message` sums up the outcome for the user. */
  | { do: 'done'; outcome: 'not-eligible' | 'validation' | 'migrated' | 'failed' | 'cancelled'; message: string };

export const INITIAL: State = { name: 'idle' };

const TERMINAL: ReadonlySet<StateName> = new Set(['not-eligible', 'migrated', 'failed', 'cancelled']);

export function isTerminal(state: State): boolean {
  return TERMINAL.has(state.name);
}

/** The result of one step: the next state, or why the event is refused in this state. */
type Step_ = State | { refused: string };

function refuse(state: State, event: Event, why?: string): { refused: string } {
  return { refused: why ?? `${event.type} is not expected while ${state.name === 'idle' ? 'idle' : `in state "${state.name}"`}.` };
}

function zoneLabel(zone: Zone): string {
  return `"${zone.name}" (${planOf(zone)})`;
}

/** The zone's state in the flow's terms, for failed and cancelled. */
function zoneStateOf(state: State): ZoneMigration {
  switch (state.name) {
    case 'idle': case 'checking': case 'not-eligible': return 'unknown';
    case 'fetching-config': case 'reviewing': case 'confirm-migrate': case 'updating-pending': return state.from;
    case 'choose-mode': case 'updating-validation': return 'start';
    case 'reading-status': return state.target;
    case 'validation': case 'inspecting': return 'validation';
    case 'migrated': return 'migrated';
    case 'failed': case 'cancelled': return state.zoneState;
    default: return assertNever(state);
  }
}

function cancelled(state: Exclude<State, { name: 'idle' }>): State {
  return { name: 'cancelled', zone: state.zone, at: state.name, zoneState: zoneStateOf(state) };
}

function step(state: State, event: Event): Step_ {
  if (isTerminal(state)) {
    const why = state.name === 'migrated' ? 'the zone has migrated and the migration cannot be reversed' : `the flow has ended (${state.name})`;
    return refuse(state, event, `${event.type} is refused: ${why}.`);
  }
  switch (state.name) {
    case 'idle':
      return event.type === 'START' ? { name: 'checking', zone: event.zone } : refuse(state, event);

    case 'checking':
      switch (event.type) {
        case 'CHECK_OK': return afterCheck(state.zone, event);
        case 'CHECK_FAILED': return { name: 'failed', zone: state.zone, step: 'check', error: event.error, zoneState: 'unknown' };
        case 'CANCEL': return cancelled(state);
        default: return refuse(state, event);
      }

    case 'fetching-config':
      switch (event.type) {
        case 'CONFIG_OK': {
          const notes = (event.notes ?? []).map((n) => n.trim()).filter(Boolean);
          return { name: 'reviewing', zone: state.zone, from: state.from, config: event.config, ...(notes.length ? { notes } : {}) };
        }
        case 'CONFIG_FAILED': return { name: 'failed', zone: state.zone, step: 'config', error: event.error, zoneState: state.from };
        case 'CANCEL': return cancelled(state);
        default: return refuse(state, event);
      }

    case 'reviewing':
      switch (event.type) {
        case 'REVIEWED': {
          const config = event.config ?? state.config;
          if (state.from === 'start' && isEnterprise(state.zone)) return { name: 'choose-mode', zone: state.zone, config };
          return { name: 'confirm-migrate', zone: state.zone, from: state.from, config };
        }
        case 'DECLINE': case 'CANCEL': return cancelled(state);
        default: return refuse(state, event);
      }

    case 'choose-mode':
      switch (event.type) {
        case 'CONFIRM_VALIDATION':
          // choose-mode is only entered for Enterprise zones; checked again so the rule lives in one obvious place.
          if (!isEnterprise(state.zone)) return refuse(state, event, validationRefusal(state.zone));
          return { name: 'updating-validation', zone: state.zone, config: state.config };
        case 'CONFIRM_MIGRATE': return { name: 'updating-pending', zone: state.zone, from: 'start', config: state.config };
        case 'DECLINE': case 'CANCEL': return cancelled(state);
        default: return refuse(state, event);
      }

    case 'confirm-migrate':
      switch (event.type) {
        case 'CONFIRM_MIGRATE': return { name: 'updating-pending', zone: state.zone, from: state.from, config: state.config };
        case 'CONFIRM_VALIDATION':
          return refuse(state, event, state.from === 'validation'
            ? `CONFIRM_VALIDATION is refused: zone "${state.zone.name}" is already in validation mode; only the pending update can follow.`
            : validationRefusal(state.zone));
        case 'DECLINE': case 'CANCEL': return cancelled(state);
        default: return refuse(state, event);
      }

    case 'updating-validation':
    case 'updating-pending': {
      const target = state.name === 'updating-validation' ? 'validation' : 'migrated';
      switch (event.type) {
        case 'UPDATE_OK': return { name: 'reading-status', zone: state.zone, target, ...(event.ruleset ? { ruleset: event.ruleset } : {}) };
        case 'UPDATE_FAILED': {
          const before: ZoneMigration = state.name === 'updating-validation' ? 'start' : state.from;
          const error = event.error.replace(/\.?$/, '.');
          // The zone is where the update was to take it: the lost answer's update took effect, or another one (the dashboard,
          // another client) got there first. Either way the zone is there, and saying "failed" would send the user to retry.
          if (event.zoneNow === target) {
            const note = event.uncertain
              ? `The update's answer did not come through (${error}), but the status now reports migration state "${target}": the update took effect.`
              : `This update was refused (${error}), but the status reports migration state "${target}": another update (the dashboard, another client) got there first, so the configuration the zone runs may not be the one reviewed here.`;
            const other = event.uncertain ? {} : { byOther: true as const };
            return target === 'validation'
              ? { name: 'validation', zone: state.zone, resumed: false, note, ...other }
              : { name: 'migrated', zone: state.zone, already: false, note, ...other };
          }
          // A refusal changed nothing, but the zone may have moved on since the check: the status says where it is (never
          // back: the migration is irreversible, so a status behind `before` is a stale one). After an unknown outcome, a status
          // not yet at the target proves nothing (the switch can take a couple of minutes).
          const rank = (z: string | undefined) => (z === 'start' ? 0 : z === 'validation' ? 1 : z === 'migrated' ? 2 : -1);
          const now = rank(event.zoneNow) >= rank(before) ? event.zoneNow as ZoneMigration : undefined;
          return { name: 'failed', zone: state.zone, step: state.name === 'updating-validation' ? 'update-validation' : 'update-pending', error: event.error,
            zoneState: event.uncertain ? 'unknown' : now ?? before };
        }
        case 'CANCEL':
          return refuse(state, event, `CANCEL is refused: the ${target === 'validation' ? 'validation' : 'pending'} update of zone "${state.zone.name}" has been sent, and its answer must be awaited.`);
        default: return refuse(state, event);
      }
    }

    case 'reading-status': {
      const done = (extra: { status?: StatusRecord; note?: string }): State => state.target === 'validation'
        ? { name: 'validation', zone: state.zone, resumed: false, ...extra }
        : { name: 'migrated', zone: state.zone, already: false, ...(state.ruleset ? { ruleset: state.ruleset } : {}), ...extra };
      switch (event.type) {
        case 'STATUS': {
          const s = event.status;
          if (s.migration_state !== state.target) {
            return done({ status: s, note: `The update was accepted, but the status still reports migration state "${s.migration_state}"; it can take a couple of minutes to show "${state.target}".` });
          }
          return done({ status: s });
        }
        case 'STATUS_FAILED': return done({ note: `The update was accepted; the status could not be read: ${event.error}` });
        case 'CANCEL': return done({ note: 'The update was accepted; the status was not read (cancelled).' });
        default: return refuse(state, event);
      }
    }

    case 'validation':
      switch (event.type) {
        case 'FINISH': return { name: 'fetching-config', zone: state.zone, from: 'validation' };
        case 'INSPECT': return { name: 'inspecting', zone: state.zone, resumed: state.resumed, ...(state.status ? { status: state.status } : {}) };
        case 'DECLINE': case 'CANCEL': return cancelled(state);
        case 'CONFIRM_VALIDATION':
          return refuse(state, event, `CONFIRM_VALIDATION is refused: zone "${state.zone.name}" is already in validation mode; only the pending update can follow.`);
        case 'CONFIRM_MIGRATE':
          return refuse(state, event, `CONFIRM_MIGRATE is refused: review the configuration of zone "${state.zone.name}" first (FINISH).`);
        default: return refuse(state, event);
      }

    case 'inspecting':
      switch (event.type) {
        case 'INSPECTED': return { name: 'validation', zone: state.zone, resumed: state.resumed, ...(state.status ? { status: state.status } : {}), inspected: event.inspection };
        case 'CANCEL': return cancelled(state);
        default: return refuse(state, event);
      }

    case 'not-eligible':
    case 'migrated':
    case 'failed':
    case 'cancelled':
      return refuse(state, event); // unreachable: handled by isTerminal above
    default:
      return assertNever(state);
  }
}

function validationRefusal(zone: Zone): string {
  return `CONFIRM_VALIDATION is refused: validation mode is for Enterprise zones only, and zone ${zoneLabel(zone)} is not one; use the pending update.`;
}

function afterCheck(zone: Zone, e: Extract<Event, { type: 'CHECK_OK' }>): State {
  switch (e.migration_state) {
    case 'migrated': return { name: 'migrated', zone, already: true };
    case 'validation': return { name: 'validation', zone, resumed: true };
    case 'start': {
      if (e.compatible) return { name: 'fetching-config', zone, from: 'start' };
      const why = (e.messages ?? []).map((m) => m.trim()).filter(Boolean);
      return {
        name: 'not-eligible', zone,
        reason: `Zone ${zoneLabel(zone)} is not eligible for the new managed rules${why.length ? `: ${why.join(' ').replace(/\.?$/, '.')}` : '; the compatibility check answered compatible: false.'}`,
      };
    }
    default:
      return { name: 'not-eligible', zone, reason: `Zone ${zoneLabel(zone)} reports migration state "${e.migration_state}", which EdgeKit does not know how to continue from.` };
  }
}

/** The next state, or the same state object when the event is refused (see `refusal`). Pure. */
export function transition(state: State, event: Event): State {
  const next = step(state, event);
  return 'refused' in next ? state : next;
}

/** Why `event` is refused in `state`, or undefined when it is accepted. */
export function refusal(state: State, event: Event): string | undefined {
  const next = step(state, event);
  return 'refused' in next ? next.refused : undefined;
}

function rulesCount(config: MigrationConfig): string {
  return `${config.rules.length} rule${config.rules.length === 1 ? '' : 's'}`;
}

/** What the driver does next in a state. Pure. */
export function nextAction(state: State): Action {
  switch (state.name) {
    case 'idle': return { do: 'start' };
    case 'checking': return { do: 'check' };
    // Finishing from validation mode starts from what validation mode deployed ("configuration from the earlier steps, possibly
    // adjusted"), not from a fresh derivation of the previous rules, which would drop the adjustments.
    case 'fetching-config': return state.from === 'validation' ? { do: 'deployed-config' } : { do: 'config' };
    case 'reviewing': return { do: 'show-config', config: state.config, notes: state.notes ?? [] };
    case 'choose-mode':
      return {
        do: 'ask', modal: true, dismissed: { type: 'DECLINE' },
        question: `Deploy the new managed rules (${rulesCount(state.config)}) to Enterprise zone "${state.zone.name}"?`,
        detail: 'Validation mode runs the new managed rules beside the previous ones, so you can review security events before finishing with the pending update. '
          + 'Migrate now saves the configuration, enables the new rules and disables the previous ones. Neither step can be undone.',
        options: [
          { label: 'Validation Mode', event: { type: 'CONFIRM_VALIDATION' } },
          { label: 'Migrate Now', event: { type: 'CONFIRM_MIGRATE' } },
        ],
      };
    case 'confirm-migrate':
      return {
        do: 'ask', modal: true, dismissed: { type: 'DECLINE' },
        question: `Migrate zone "${state.zone.name}" to the new managed rules (${rulesCount(state.config)})?`,
        detail: `${state.from === 'validation' ? 'This leaves validation mode: the' : 'The'} configuration you reviewed is saved, the new managed rules are enabled and the previous managed rules are disabled. The migration cannot be reversed.`,
        options: [{ label: 'Migrate', event: { type: 'CONFIRM_MIGRATE' } }],
      };
    case 'validation': {
      const seen = state.inspected;
      const found = !seen ? '' : 'error' in seen ? ` The security events could not be read: ${seen.error.replace(/\.?$/, '.')}`
        : seen.sentences.length ? ` Security events: ${seen.sentences.join(' ')}` : ' Security events: neither rule set has acted on any request yet.';
      return {
        do: 'ask', modal: false, dismissed: { type: 'DECLINE' }, topic: 'Validation mode',
        question: `Zone "${state.zone.name}" is in validation mode: the new and the previous managed rules both run.${found} Finish the migration now?`,
        // Once inspected, the question is not explained again (a notification shows the detail after the question): the first one did.
        detail: seen ? '' : 'Inspecting shows the security events of both rule sets side by side. Finishing shows the configuration for review, then asks to confirm the pending update, which disables the previous managed rules.',
        options: [
          { label: seen ? 'Inspect Again' : 'Inspect Security Events', event: { type: 'INSPECT' } },
          { label: 'Review and Finish', event: { type: 'FINISH' } },
          { label: 'Later', event: { type: 'DECLINE' } },
        ],
      };
    }
    case 'inspecting': return { do: 'inspect' };
    case 'updating-validation': return { do: 'put', mode: 'validation', body: entrypointBody(state.config, 'validation') };
    case 'updating-pending': return { do: 'put', mode: 'pending', body: entrypointBody(state.config, 'pending') };
    case 'reading-status': return { do: 'status' };
    case 'not-eligible': case 'migrated': case 'failed': case 'cancelled':
      return { do: 'done', outcome: state.name, message: describeState(state) };
    default: return assertNever(state);
  }
}

const STEP_WORDS: Record<Step, string> = {
  check: 'the compatibility check',
  config: 'getting the new configuration',
  'update-validation': 'the validation update',
  'update-pending': 'the pending update',
};

/** One sentence for progress reports and final messages. */
export function describeState(state: State): string {
  switch (state.name) {
    case 'idle': return 'Ready to check a zone.';
    case 'checking': return `Checking zone ${zoneLabel(state.zone)} for migration…`;
    case 'not-eligible': return state.reason;
    case 'fetching-config': return state.from === 'start'
      ? `Zone ${zoneLabel(state.zone)} is compatible (migration state start); getting the new configuration…`
      : `Reading the configuration zone "${state.zone.name}" runs in validation mode, to finish the migration…`;
    case 'reviewing': {
      const n = state.notes?.length ?? 0;
      const lost = n ? ` ${n} setting${n === 1 ? '' : 's'} of the previous managed rules ${n === 1 ? 'is' : 'are'} not migrated: see the review.` : '';
      return `Review the new configuration of zone "${state.zone.name}" (${rulesCount(state.config)}).${lost}`;
    }
    case 'choose-mode': return `Choose validation mode or a direct migration for zone "${state.zone.name}".`;
    case 'confirm-migrate': return `Confirm the migration of zone "${state.zone.name}".`;
    case 'updating-validation': return `Saving the configuration of zone "${state.zone.name}" in validation mode…`;
    case 'updating-pending': return `Saving the configuration of zone "${state.zone.name}" and disabling the previous managed rules…`;
    case 'reading-status': return `Reading the WAF status of zone "${state.zone.name}"…`;
    case 'inspecting': return `Reading the security events of zone "${state.zone.name}"…`;
    case 'validation': {
      const base = state.resumed
        ? `Zone "${state.zone.name}" is in validation mode; continuing from there.`
        : `Zone "${state.zone.name}" is in validation mode: the new and the previous managed rules both run.`;
      return [base, statusWords(state.status), state.note].filter(Boolean).join(' ');
    }
    case 'migrated': {
      const base = state.already
        ? `Zone "${state.zone.name}" has already migrated to the new managed rules; there is nothing to do.`
        : `Zone "${state.zone.name}" has migrated to the new managed rules.`;
      return [base, statusWords(state.status), state.note].filter(Boolean).join(' ');
    }
    case 'failed': {
      const where = state.zoneState === 'unknown' && (state.step === 'update-pending' || state.step === 'update-validation')
        ? ' The update may or may not have been applied; check the zone\'s status before trying again.'
        : state.zoneState === 'validation' ? ' The zone stays in validation mode.' : state.zoneState === 'start' ? ' Nothing was changed.'
          : state.zoneState === 'migrated' ? ' The zone has migrated (by another update).' : '';
      return `Migration of zone "${state.zone.name}" failed at ${STEP_WORDS[state.step]}: ${state.error.replace(/\.?$/, '.')}${where}`;
    }
    case 'cancelled': return state.zoneState === 'validation'
      ? `Stopped; zone "${state.zone.name}" stays in validation mode (both rule sets run). Run the migration again to finish.`
      : state.zoneState === 'migrated'
        ? `Stopped; zone "${state.zone.name}" has migrated.`
        : `Cancelled; nothing was sent to zone "${state.zone.name}".`;
    default: return assertNever(state);
  }
}

/**
 * The compatibility check's answer in one message, by migration state: "compatible" speaks of a zone that has not moved yet; a
 * zone in validation mode or migrated is told where it stands, not that it "can move". `ok`: nothing stands in the way.
 */
export function describeCheck(zone: Zone, check: CheckResult, notes: string[]): { ok: boolean; text: string } {
  const state = `(state: ${check.migration_state})`;
  const why = notes.map((n) => n.trim()).filter(Boolean).join(' ');
  switch (check.migration_state) {
    case 'migrated':
      return { ok: true, text: `${zone.name} has already migrated to the new managed rules ${state}; there is nothing to check.` };
    case 'validation':
      return { ok: true, text: `${zone.name} is in validation mode ${state}: the new and the previous managed rules both run; finish with the pending update.` };
    default:
      return check.compatible
        ? { ok: true, text: `${zone.name} can move to the new managed rules ${state}.` }
        // In the words the migration flow uses when it stops at the same check (Zone "x" (plan) is not eligible for the new managed rules).
        : { ok: false, text: `Zone ${zoneLabel(zone)} is not eligible for the new managed rules ${state}.${why ? ` ${why}` : ''}` };
  }
}

function statusWords(s: StatusRecord | undefined): string {
  if (!s) return '';
  const onOff = (b: boolean) => (b ? 'on' : 'off');
  return `Status: migration state ${s.migration_state}, previous rules ${onOff(s.old_rules_enabled)}, new rules ${onOff(s.new_rules_enabled)}.`;
}

export function assertNever(x: never): never {
  throw new Error(`Unexpected value ${JSON.stringify(x)}.`);
}
