// toTerraform: a ruleset body as the svc_ruleset resource of the infrastructure provider, plus its import id (spec: "resource
// svc_ruleset with kind zone, name, phase http_request_firewall_managed, zone_id and rules"; "import it into state as
// zone/<zone_id>/<ruleset_id>"). Read-only fields (id, version, ref, last_updated, categories) are left out. Pure.
// The syntax is the provider's 5.x (the current one): `rules` is a list attribute and every object inside a rule an attribute
// (`rules = [{ … }]`, `action_parameters = { … }`, `overrides = { rules = [{ … }] }`, `logging = { … }`); 4.x took repeated blocks
// (`rules { … }`) and refuses this text with "Unsupported argument". The HCL's first lines say so.
import { MANAGED_PHASE } from './catalog';
import { isObj, rulesOf, type Obj } from './body';

export interface TerraformOutput {
  hcl: string;
  importId: string;
  /** The resource address the HCL declares (svc_ruleset.<label>), the first argument of `terraform import`. */
  address: string;
}

/** What the HCL starts with: the provider syntax it is written in, and what a 4.x user has to do. */
export const PROVIDER_SYNTAX_HEADER = '# Provider 5.x syntax: rules and the objects inside a rule are attributes (rules = [{ … }], action_parameters = { … }).\n'
  + '# Provider 4.x wrote them as blocks (rules { … }) and refuses this text: upgrade the provider, or rewrite them as blocks.\n';

/** Rule attributes in the order they are written; anything else the API returns read-only is dropped. */
const RULE_KEYS = ['action', 'expression', 'description', 'enabled', 'action_parameters', 'logging', 'exposed_credential_check', 'ratelimit'];

export function toTerraform(ruleset: unknown, zoneId: string, rulesetId: string): TerraformOutput {
  const body: Obj = isObj(ruleset) ? ruleset : {};
  const name = typeof body.name === 'string' && body.name !== '' ? body.name : 'default';
  const attrs: [string, unknown][] = [
    ['zone_id', zoneId],
    ['name', name],
    ...(typeof body.description === 'string' ? [['description', body.description] as [string, unknown]] : []),
    ['kind', 'zone'],
    ['phase', MANAGED_PHASE],
    ['rules', rulesOf(ruleset).filter(isObj).map((r) => Object.fromEntries(RULE_KEYS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]])))],
  ];
  const hcl = `${PROVIDER_SYNTAX_HEADER}resource "svc_ruleset" "${label(name)}" {\n${block(attrs, 1)}}\n`;
  return { hcl, importId: `zone/${zoneId}/${rulesetId}`, address: `svc_ruleset.${label(name)}` };
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
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  const pad = '  '.repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => `${pad}  ${value(x, depth + 1)}`).join(',\n')}\n${pad}]`;
  }
  const entries = Object.entries(v as Obj).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  return `{\n${block(entries.map(([k, x]) => [/^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : hclString(k), x]), depth + 1)}${pad}}`;
}

/** An HCL quoted string: escape backslash, quote, control characters and the template sequences ${ and %{. */
export function hclString(s: string): string {
  const body = s
    .replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')
    .replace(/\$\{/g, '$$$${').replace(/%\{/g, '%%{');
  return `"${body}"`;
}
