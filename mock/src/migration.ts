// The managed-rules migration of one zone as a pure transition function: which entry point updates are allowed from which state,
// Enterprise-only validation mode, compatibility blockers, and irreversibility. The backend feeds it the zone's facts and applies
// the result under a per-zone lock, so concurrent requests see one transition win and the rest refused.

export type MigrationState = 'start' | 'validation' | 'migrated';
export type MigrationMode = 'pending' | 'validation';

export interface MigrationFacts {
  /** The zone's name, for the refusals (a script migrating many zones needs to know which one was refused). */
  zone: string;
  plan: 'pro' | 'business' | 'enterprise';
  /** Reasons the zone cannot migrate (URI-based overrides, too many firewall rules, a long expression), each a sentence about "it"
   * (the zone is named by the refusal that carries them); empty when compatible. */
  blockers: string[];
}

export type TransitionResult =
  | { ok: true; next: MigrationState; oldRulesEnabled: boolean; newRulesEnabled: boolean }
  | { ok: false; status: number; code: number; message: string };

/** Parse the waf_migration query value: pending|1 or validation|2. */
export function parseMode(value: string | null): MigrationMode | undefined {
  switch (value) {
    case 'pending': case '1': return 'pending';
    case 'validation': case '2': return 'validation';
    default: return undefined;
  }
}

/** The status record's rule switches in a state. */
export function rulesEnabled(state: MigrationState): { oldRulesEnabled: boolean; newRulesEnabled: boolean } {
  switch (state) {
    case 'start': return { oldRulesEnabled: true, newRulesEnabled: false };
    case 'validation': return { oldRulesEnabled: true, newRulesEnabled: true };
    case 'migrated': return { oldRulesEnabled: false, newRulesEnabled: true };
    default: return assertNever(state);
  }
}

function ok(next: MigrationState): TransitionResult {
  return { ok: true, next, ...rulesEnabled(next) };
}

/** How each refusal and each message of the check starts: the zone and its state as the status operation spells it (migration_state). */
function zoneIn(zone: string, state: MigrationState): string {
  return `Zone "${zone}" is in migration_state "${state}"`;
}

/** The refusal of a zone that cannot migrate (code 10502), for `reasons` (sentences about "it"). */
function cannotMigrate(zone: string, reasons: string[]): string {
  return `${zoneIn(zone, 'start')}: it cannot migrate. ${reasons.join(' ')}`;
}

/**
 * The check operation's answer for a zone in `state`. The spec: compatible is "true when the zone can move to the new managed rules;
 * false when it is not eligible". A zone not migrated can move unless a blocker stands in the way (one 10502 message per reason, in
 * the words of the update's refusal); a zone in validation mode can still move on, with the pending update (no blocker stops that
 * transition); a migrated zone has nowhere left to move (the migration cannot be reversed), so false, with a 10505 message, the
 * code of the update's refusal on a migrated zone, saying why. The messages go in the envelope's `messages`: the check answered.
 */
export function compatibility(state: MigrationState, facts: MigrationFacts): { compatible: boolean; messages: { code: number; message: string }[] } {
  switch (state) {
    case 'start':
      return { compatible: facts.blockers.length === 0, messages: facts.blockers.map((reason) => ({ code: 10502, message: cannotMigrate(facts.zone, [reason]) })) };
    case 'validation':
      return { compatible: true, messages: [] };
    case 'migrated':
      return {
        compatible: false,
        messages: [{ code: 10505, message: `${zoneIn(facts.zone, state)}: it has already migrated (the new managed rules run and the previous ones are off) and the migration cannot be reversed, so there is nothing left to move; manage its managed rules with the rulesets API (phase http_request_firewall_managed).` }],
      };
    default:
      return assertNever(state);
  }
}

/** One entry point update (PUT ...?waf_migration=<mode>&phase_two=1) applied to a zone in `state`. */
export function transition(state: MigrationState, mode: MigrationMode, facts: MigrationFacts): TransitionResult {
  // Each refusal starts by naming the zone and its state as the status operation spells it (migration_state).
  const where = zoneIn(facts.zone, state);
  switch (state) {
    case 'start':
      if (facts.blockers.length) return { ok: false, status: 400, code: 10502, message: cannotMigrate(facts.zone, facts.blockers) };
      if (mode === 'validation') {
        if (facts.plan !== 'enterprise') {
          return { ok: false, status: 400, code: 10503, message: `${where}: validation mode is only for Enterprise zones and its plan is "${facts.plan}"; use waf_migration=pending.` };
        }
        return ok('validation');
      }
      return ok('migrated');
    case 'validation':
      if (mode === 'pending') return ok('migrated');
      return { ok: false, status: 409, code: 10504, message: `${where}: it is already in validation mode; adjust its configuration with an update without waf_migration, or finish with waf_migration=pending.` };
    case 'migrated':
      // A pending update repeated (after a timeout, say) would not go back; only validation mode would.
      if (mode === 'pending') {
        return { ok: false, status: 409, code: 10505, message: `${where}: it has already migrated (the new managed rules run and the previous ones are off), so waf_migration=pending has nothing left to do; update the entry point without waf_migration.` };
      }
      return { ok: false, status: 409, code: 10505, message: `${where}: it has already migrated and the migration cannot be reversed; waf_migration=${mode} is refused.` };
    default:
      return assertNever(state);
  }
}

/**
 * The refusal of a migration update (`mode` from `state`) whose body executes no managed ruleset ("rules": [], or skip rules only):
 * nothing new would run. The spec's rule 2 ("the pending parameter exists to guarantee that the previous rules are disabled only when
 * the new ones are saved and enabled"): a pending update would leave neither rule set running, for good. The config operation always
 * gives the execute rules (disabled where the zone's WAF was off), so such a body is not its configuration.
 */
export function nothingToRun(state: MigrationState, mode: MigrationMode, zone: string): { status: number; code: number; message: string } {
  const what = mode === 'pending'
    ? 'waf_migration=pending would turn the previous managed rules off, but "rules" executes no managed ruleset, so nothing new would run in their place'
    : 'waf_migration=validation runs the new managed rules beside the previous ones, but "rules" executes no managed ruleset, so there would be nothing to validate';
  return { status: 400, code: 10508, message: `${zoneIn(zone, state)}: ${what}. Send the configuration of GET …/waf_migration/config?phase_two=1 (its execute rules may be disabled).` };
}

function assertNever(x: never): never {
  throw new Error(`Unexpected migration state ${JSON.stringify(x)}.`);
}
