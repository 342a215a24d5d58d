// Typed views of a ruleset body (doc.value is plain JSON), shared by the rules, the hovers, the lenses and toTerraform.
import { isObj, type Obj } from '../../json';
import { MANAGED_PHASE } from './catalog';

export { isObj, type Obj };

/** The rules array of a body, or [] (the schema reports a wrong shape). */
export function rulesOf(value: unknown): unknown[] {
  return isObj(value) && Array.isArray(value.rules) ? value.rules : [];
}

/** The body's phase: its "phase" member, else the managed phase (the migration's entry point, whose bodies carry none). */
export function phaseOf(value: unknown): string {
  return isObj(value) && typeof value.phase === 'string' ? value.phase : MANAGED_PHASE;
}

/**
 * A body of the migration's managed entry point (no phase, or http_request_firewall_managed): only there do pending and validation
 * bodies (rules with or without id/version/ref) mean anything. A ruleset of another phase carries "ref" or ids as it likes.
 */
export function isMigrationBody(value: unknown): boolean {
  return phaseOf(value) === MANAGED_PHASE;
}

export const ID_FIELDS = ['id', 'version', 'ref'] as const;

export interface Deviation {
  index: number;
  /** Id fields this rule has although the body reads as a validation body. */
  present: string[];
  /** Id fields this rule lacks although the body reads as a pending body. */
  missing: string[];
}

export interface BodyKind {
  /** pending (config) body: rules carry id/version/ref; validation body: they do not. */
  kind: 'pending' | 'validation';
  total: number;
  /** Rules that carry at least one of id/version/ref. */
  withIds: number;
  deviations: Deviation[];
}

/**
 * Decide the kind by the majority (a tie reads as pending, the body the config operation returns), then list the rules that do
 * not follow it. "Same presence as id" (spec): a rule with id but without version or ref deviates too.
 */
export function bodyKind(value: unknown): BodyKind {
  const rules = rulesOf(value).filter(isObj);
  const all = rulesOf(value);
  const has = all.map((r) => (isObj(r) ? ID_FIELDS.filter((f) => f in r) : []));
  const withIds = has.filter((h) => h.length > 0).length;
  const kind: BodyKind['kind'] = withIds > 0 && withIds * 2 >= rules.length ? 'pending' : 'validation';
  const deviations: Deviation[] = [];
  all.forEach((r, index) => {
    if (!isObj(r)) return;
    if (kind === 'pending') {
      const missing = ID_FIELDS.filter((f) => !(f in r));
      if (missing.length) deviations.push({ index, present: [], missing });
    } else if (has[index].length) deviations.push({ index, present: has[index], missing: [] });
  });
  return { kind, total: all.length, withIds, deviations };
}

/** What the rules are, in the user's words (the lens, the hover, ruleset/body-kind): "pending" and "validation" bodies are the API's. */
export function bodyKindWords(b: BodyKind): string {
  return b.kind === 'pending' ? `with ids (as the migration configured ${b.total === 1 ? 'it' : 'them'})` : 'without ids (new rules)';
}

/** What to do when only some rules carry ids: all three fields on every rule, or on none (the majority's way first). */
export function bodyKindFix(b: BodyKind): string {
  return b.kind === 'pending'
    ? 'give every rule its id, version and ref, or remove them from every rule'
    : 'remove id, version and ref from every rule, or give every rule all three';
}

/** The body kind in the API's terms, for a body sent through the API by hand (the hover says it last). */
export function describeBodyKind(b: BodyKind): string {
  return b.kind === 'pending'
    ? 'a pending (config) body, with `waf_migration=pending`'
    : 'a validation body, with `waf_migration=validation` (Enterprise) or `pending`';
}
