// toTerraform: a ruleset body as the svc_ruleset resource of the infrastructure provider, plus its import id (spec: "resource
// svc_ruleset with kind zone, name, phase http_request_firewall_managed, zone_id and rules"; "import it into state as
// zone/<zone_id>/<ruleset_id>"). Read-only fields (id, version, ref, last_updated, categories) are left out. Pure.
// The syntax is the provider's 5.x (the current one): `rules` is a list attribute and every object inside a rule an attribute
// (`rules = [{ … }]`, `action_parameters = { … }`, `overrides = { rules = [{ … }] }`, `logging = { … }`); 4.x took repeated blocks
// (`rules { … }`) and refuses this text with "Unsupported argument". The HCL's first lines say so.
// The phase and kind are the body's when it has them (a custom ruleset, an account's root ruleset), the managed entry point's when
// not; account-level rulesets (root, and custom ones told to be an account's) take account_id where zone ones take zone_id (the two
// are exclusive in the provider), and import as account/<account_id>/<ruleset_id> (the provider's own
// examples/resources/cloudflare_ruleset/import.sh gives account/ and zone/, singular); a custom ruleset's level is not in its body, so
// the caller says it (`scope`; rl10). With `variable`, the id is var.zone_id / var.account_id and the HCL declares that
// variable: a document written in the editor is not tied to one zone (docs/architecture.md, tf1). A kind the phase's level does not
// have is refused with the ruleset check's reason (kindPhaseMismatch); without a kind, an account-only phase's is root (ux14).
import { MANAGED_PHASE, PHASES, PHASE_LEVELS, kindPhaseMismatch } from './catalog';
import { isObj, rulesOf, type Obj } from './body';

export interface TerraformOutput {
  hcl: string;
  importId: string;
  /** The resource address the HCL declares (svc_ruleset.<label>), the first argument of `terraform import`. */
  address: string;
  /** Where the ruleset lives: a zone (kind zone, or custom told so: zone_id) or an account (root, or custom told so: account_id). */
  scope: 'zone' | 'account';
}

/** What the HCL starts with: the provider syntax it is written in, and what a 4.x user has to do. */
export const PROVIDER_SYNTAX_HEADER = '# Provider 5.x syntax: rules and the objects inside a rule are attributes (rules = [{ … }], action_parameters = { … }).\n'
  + '# Provider 4.x wrote them as blocks (rules { … }) and refuses this text: upgrade the provider, or rewrite them as blocks.\n';

/** Rule attributes in the order they are written; anything else the API returns read-only is dropped. */
const RULE_KEYS = ['action', 'expression', 'description', 'enabled', 'action_parameters', 'logging', 'exposed_credential_check', 'ratelimit'];

/** The kinds a user's svc_ruleset can have (the provider's enum less "managed", which only the platform writes). */
export const RULESET_KINDS = ['zone', 'root', 'custom'] as const;
/** The level of each entry point kind: an account's (account_id, import id account/…) or a zone's. A custom ruleset is created at
 * either (waf/account/custom-rulesets), its body the same: the caller says which (`scope`). */
const KIND_SCOPES: Readonly<Record<string, 'zone' | 'account'>> = { root: 'account', zone: 'zone' };

export interface TerraformOptions {
  /** Write the zone or account id as var.zone_id / var.account_id, declaring that variable, instead of the literal `scopeId`. */
  variable?: boolean;
  /** Where a custom ruleset lives, which its body does not say; for another kind, its own level (another is refused). */
  scope?: 'zone' | 'account';
}

/** A custom ruleset without `scope`: the level is the user's to say (TerraformScopeUnknown's message is the question's reason). */
export class TerraformScopeUnknown extends Error {}

/** A raw HCL expression (a variable reference, a type), written as it is, not quoted. */
class Expr { constructor(readonly text: string) {} }

/**
 * `scopeId`: the zone's id or the account's, by the ruleset's level; `rulesetId`: '' when the ruleset has none yet (then the
 * import id is ''). Throws an Error naming the field when the body's kind or phase is not one the resource takes, or a
 * TerraformScopeUnknown for a custom ruleset without `options.scope`.
 */
export function toTerraform(ruleset: unknown, scopeId: string, rulesetId: string, options: TerraformOptions = {}): TerraformOutput {
  const body: Obj = isObj(ruleset) ? ruleset : {};
  const name = typeof body.name === 'string' && body.name !== '' ? body.name : 'default';
  const phase = body.phase === undefined ? MANAGED_PHASE : body.phase;
  // Without a kind, the entry point of the phase's level: an account's phase (Bulk Redirects, Network Firewall) is root
  const kind = body.kind !== undefined ? body.kind
    : typeof phase === 'string' && Object.hasOwn(PHASE_LEVELS, phase) && PHASE_LEVELS[phase].level === 'account' ? 'root' : 'zone';
  if (typeof kind !== 'string' || !(RULESET_KINDS as readonly string[]).includes(kind)) {
    throw new Error(`"kind" is ${JSON.stringify(kind)}: a svc_ruleset takes ${RULESET_KINDS.map((k) => `"${k}"`).join(', ')}.`);
  }
  if (typeof phase !== 'string' || !(PHASES as readonly string[]).includes(phase)) {
    throw new Error(`"phase" is ${JSON.stringify(phase)}: not a ruleset phase (such as "${MANAGED_PHASE}" or "http_request_firewall_custom").`);
  }
  // A kind the phase's level does not have: the check's reason (ruleset/kind-phase); the API would refuse the resource
  const mismatch = kindPhaseMismatch(kind, phase);
  if (mismatch) throw new Error(mismatch.message);
  const scope = Object.hasOwn(KIND_SCOPES, kind) ? KIND_SCOPES[kind] : options.scope;
  if (!scope) {
    // The body is the same at both levels; the API path says which (/accounts/… or /zones/…), and an entry point of that level
    // deploys it (ruleset-engine/custom-rulesets/deploy-custom-ruleset: "with the same scope"): no guess (rl10)
    throw new TerraformScopeUnknown('"kind": "custom" is a custom ruleset, created in an account or in a zone (the body is the same at both levels) and run by an entry point of the same level: say which.');
  }
  if (options.scope && options.scope !== scope) {
    throw new Error(`"kind": "${kind}" is ${scope === 'account' ? 'an account\'s' : 'a zone\'s'} ruleset, not ${options.scope === 'account' ? 'an account\'s' : 'a zone\'s'}.`);
  }
  const variables = options.variable ? `variable "${scope}_id" {\n${block([['type', new Expr('string')], ['description', `The ${scope} the ruleset belongs to.`]], 1)}}\n\n` : '';
  const attrs: [string, unknown][] = [
    [`${scope}_id`, options.variable ? new Expr(`var.${scope}_id`) : scopeId],
    ['name', name],
    ...(typeof body.description === 'string' ? [['description', body.description] as [string, unknown]] : []),
    ['kind', kind],
    ['phase', phase],
    ['rules', rulesOf(ruleset).filter(isObj).map((r) => Object.fromEntries(RULE_KEYS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]])))],
  ];
  const hcl = `${PROVIDER_SYNTAX_HEADER}${variables}resource "svc_ruleset" "${label(name)}" {\n${block(attrs, 1)}}\n`;
  const importId = rulesetId ? `${scope}/${options.variable ? `<${scope.toUpperCase()}_ID>` : scopeId}/${rulesetId}` : '';
  return { hcl, importId, address: `svc_ruleset.${label(name)}`, scope };
}

/** The export request's answer (the protocol's TerraformResult): the output; `error`, the body's kind or phase that the resource does
 * not take (the user's to fix, not a server failure); or `askScope`, a custom ruleset's level, the user's to say (its reason). */
export type TerraformAnswer = TerraformOutput | { error: string } | { askScope: string };

export function terraformAnswer(p: { ruleset: unknown; zoneId: string; rulesetId: string; variable?: boolean; scope?: 'zone' | 'account' }): TerraformAnswer {
  try {
    return toTerraform(p.ruleset, p.zoneId, p.rulesetId, { variable: p.variable === true, ...(p.scope ? { scope: p.scope } : {}) });
  } catch (err) {
    return err instanceof TerraformScopeUnknown ? { askScope: err.message } : { error: (err as Error).message };
  }
}

/** A Terraform resource label from the ruleset name: letters, digits, _ and -; not starting with a digit. */
function label(name: string): string {
  const s = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[a-z_]/.test(s) ? s : `r_${s}`;
}

function block(attrs: [string, unknown][], depth: number): string {
  const pad = '  '.repeat(depth);
  const width = Math.max(...attrs.map(([k]) => k.length));
  return attrs.map(([k, v]) => `${pad}${k.padEnd(width)} = ${value(v, depth)}\n`).join('');
}

function value(v: unknown, depth: number): string {
  if (typeof v === 'string') return hclString(v);
  if (v instanceof Expr) return v.text;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  const pad = '  '.repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => `${pad}  ${value(x, depth + 1)}`).join(',\n')}\n${pad}]`;
  }
  const entries = Object.entries(v as Obj).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${block(entries.map(([k, x]) => [/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) && !HCL_WORDS.has(k) ? k : hclString(k), x]), depth + 1)}${pad}}`;
}

/** Names HCL does not read as a bare object key: "for" (first) starts a for expression, "null" is the null value (an error as a key),
 * "true"/"false" are Booleans, "if" and "in" are for-expression words. Quoted, they are the key as written. */
const HCL_WORDS = new Set(['for', 'in', 'if', 'null', 'true', 'false']);

/** An HCL quoted string: escape backslash, quote, control characters and the template sequences ${ and %{. */
export function hclString(s: string): string {
  const body = s
    .replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')
    .replace(/\$\{/g, '$$$${').replace(/%\{/g, '%%{');
  return `"${body}"`;
}
