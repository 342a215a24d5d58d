// The mock's demo zones and their previous-WAF configuration (packages, groups, rules, the old core rule set's sensitivity and
// action, group and rule overrides, firewall rules that bypass the WAF, page rules, URI-based overrides), and the migration config
// derived from it by the spec's content rules and sensitivity table (core/migration/mapping.ts). Static and deterministic: the
// mutable part (migration state, deleted overrides, jobs) lives in state.ts. No vscode, no I/O.
import { createHash } from 'node:crypto';

import { catalogue } from '../../server/src/core';

const { mapOldAction, mapSensitivity } = catalogue.migration;
export const MANAGED_RULESET_ID = catalogue.rulesets.managedId;
export const OWASP_RULESET_ID = catalogue.rulesets.owaspId;
/** OWASP "949110: Inbound Anomaly Score Exceeded": the rule that carries score_threshold. */
export const OWASP_SCORE_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';
export const MAX_MIGRATED_FIREWALL_RULES = 200;
export const MAX_EXPRESSION_LENGTH = 4096;

export type Plan = 'pro' | 'business' | 'enterprise';
export type OldRuleMode = 'on' | 'off' | 'default' | 'block' | 'challenge' | 'simulate';

export interface OldRule { id: string; description: string; priority: string; default_mode: OldRuleMode; mode: OldRuleMode; allowed_modes: OldRuleMode[]; newId: string }
export interface OldGroup { id: string; name: string; description: string; default_mode: 'on' | 'off'; mode: 'on' | 'off'; rules: OldRule[] }
export interface OldPackage {
  id: string;
  name: string;
  description: string;
  detection_mode: 'traditional' | 'anomaly';
  /** Only the old core rule set (anomaly package) has these. */
  sensitivity?: 'high' | 'medium' | 'low' | 'default' | 'off';
  action_mode?: 'simulate' | 'block' | 'challenge';
  groups: OldGroup[];
}
export interface FirewallRule { id: string; description: string; expression: string; action: 'bypass' | 'block' | 'challenge' | 'allow' | 'log'; products?: string[]; paused: boolean }
export interface PageRule { id: string; target: string; actions: ({ id: 'waf'; value: 'on' | 'off' } | { id: 'disable_security' })[]; status: 'active' | 'disabled' }
export interface UriOverride { id: string; description: string; urls: string[]; priority: number; paused: boolean; rules: Record<string, string>; groups: Record<string, string> }

export interface PreviousWaf {
  /** The zone-wide WAF switch (the old "Web Application Firewall: On/Off"). */
  enabled: boolean;
  packages: OldPackage[];
  firewallRules: FirewallRule[];
  pageRules: PageRule[];
  uriOverrides: UriOverride[];
}

export interface Zone { id: string; name: string; plan: Plan; waf: PreviousWaf }

export interface NewRule {
  id?: string;
  version?: string;
  ref?: string;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters?: Record<string, unknown>;
}
export interface NewConfig { name: string; rules: NewRule[] }

function hex32(...parts: string[]): string {
  return createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 32);
}

/** The new Cloudflare Managed Ruleset's id of a previous managed rule (what its migrated override names). */
export function newRuleId(oldRuleId: string): string {
  return hex32('new-rule', oldRuleId);
}

export function zoneId(name: string): string {
  return hex32('edgekit-mock-zone', name);
}

// ---- building the previous-WAF configurations ----

interface ZoneSpec {
  name: string;
  plan: Plan;
  enabled?: boolean;
  sensitivity: NonNullable<OldPackage['sensitivity']>;
  action: NonNullable<OldPackage['action_mode']>;
  /** Old managed (Cloudflare) rules whose mode is changed: [old rule id, mode]. */
  ruleOverrides?: [string, OldRuleMode][];
  /** Groups switched off: group names. */
  groupsOff?: string[];
  /** OWASP rule overrides (not migrated). */
  owaspRuleOverrides?: [string, OldRuleMode][];
  bypassRules?: number;
  longExpression?: boolean;
  pageRules?: { target: string; action: 'waf-off' | 'waf-on' | 'disable-security' }[];
  uriOverrides?: number;
}

const CF_GROUPS: [string, string, [string, string][]][] = [
  ['Cloudflare Specials', 'Cloudflare Specials rules.', [['100000', 'Block SQL injection in the User-Agent header'], ['100001', 'Anomalous Host header'], ['100005', 'DotNetNuke - File Inclusion - CVE:CVE-2018-9126'], ['100030', 'Apache Struts - Open Redirect - CVE:CVE-2013-2248']]],
  ['Cloudflare WordPress', 'WordPress-specific rules.', [['WP0004', 'WordPress - Broken Access Control'], ['WP0025B', 'WordPress - Dangerous File Upload']]],
  ['Cloudflare PHP', 'PHP-specific rules.', [['PHP100008', 'PHP - Code Injection'], ['PHP100011', 'PHP - Command Injection']]],
  ['Cloudflare Drupal', 'Drupal-specific rules.', [['D0002', 'Drupal - Remote Code Execution - CVE:CVE-2018-7600']]],
];
const OWASP_GROUPS: [string, string, [string, string][]][] = [
  ['OWASP Generic Attacks', 'Generic attack signatures.', [['950001', 'SQL injection attack'], ['950107', 'URL encoding abuse']]],
  ['OWASP SQL Injection Attacks', 'SQL injection signatures.', [['959073', 'SQL injection (meta-characters)'], ['981318', 'SQL injection (common tests)']]],
  ['OWASP XSS Attacks', 'Cross-site scripting signatures.', [['958000', 'XSS: script tag'], ['973300', 'XSS: HTML injection']]],
];

function buildPackage(zone: string, name: string, description: string, detection: OldPackage['detection_mode'], groups: typeof CF_GROUPS, spec: ZoneSpec, overrides: [string, OldRuleMode][]): OldPackage {
  const pkgId = hex32(zone, 'package', name);
  const isOwasp = detection === 'anomaly';
  return {
    id: pkgId, name, description, detection_mode: detection,
    ...(isOwasp ? { sensitivity: spec.sensitivity, action_mode: spec.action } : {}),
    groups: groups.map(([gname, gdesc, rules]) => ({
      id: hex32(zone, 'group', gname), name: gname, description: gdesc, default_mode: 'on',
      mode: spec.groupsOff?.includes(gname) ? 'off' : 'on',
      rules: rules.map(([rid, rdesc], i) => {
        const def: OldRuleMode = isOwasp ? 'on' : 'default';
        const over = overrides.find(([id]) => id === rid);
        return {
          id: rid, description: rdesc, priority: String(10 + i), default_mode: def, mode: over ? over[1] : def,
          allowed_modes: isOwasp ? ['on', 'off'] : ['default', 'block', 'challenge', 'simulate', 'off'], newId: newRuleId(rid),
        };
      }),
    })),
  };
}

function longExpression(): string {
  const ips = Array.from({ length: 400 }, (_, i) => `198.51.${Math.floor(i / 250)}.${i % 250}`);
  return `ip.src in {${ips.join(' ')}} and http.request.uri.path contains "/admin"`;
}

function buildZone(spec: ZoneSpec): Zone {
  const id = zoneId(spec.name);
  const firewallRules: FirewallRule[] = [
    { id: hex32(id, 'fw', 'block-bad-bots'), description: 'Block known bad bots', expression: '(not cf.client.bot and http.user_agent contains "BadBot")', action: 'block', paused: false },
    { id: hex32(id, 'fw', 'bypass-office'), description: 'Office network bypasses the WAF', expression: '(ip.src in {203.0.113.0/24})', action: 'bypass', products: ['waf'], paused: false },
  ];
  for (let i = 0; i < (spec.bypassRules ?? 0); i++) {
    firewallRules.push({ id: hex32(id, 'fw', 'bulk', String(i)), description: `Partner ${i} bypasses the WAF`, expression: `(http.request.uri.path eq "/partner/${i}/webhook")`, action: 'bypass', products: ['waf'], paused: false });
  }
  if (spec.longExpression) {
    firewallRules.push({ id: hex32(id, 'fw', 'long'), description: 'Allow-listed scanners bypass the WAF on /admin', expression: longExpression(), action: 'bypass', products: ['waf'], paused: false });
  }
  return {
    id, name: spec.name, plan: spec.plan,
    waf: {
      enabled: spec.enabled ?? true,
      packages: [
        buildPackage(id, 'CloudFlare', 'Cloudflare managed rules (previous version).', 'traditional', CF_GROUPS, spec, spec.ruleOverrides ?? []),
        buildPackage(id, 'OWASP ModSecurity Core Rule Set', 'OWASP core rule set 2.x.', 'anomaly', OWASP_GROUPS, spec, spec.owaspRuleOverrides ?? []),
      ],
      firewallRules,
      pageRules: (spec.pageRules ?? []).map((p, i) => ({
        id: hex32(id, 'pagerule', String(i)), target: p.target, status: 'active',
        actions: p.action === 'disable-security' ? [{ id: 'disable_security' }] : [{ id: 'waf', value: p.action === 'waf-on' ? 'on' : 'off' }],
      })),
      uriOverrides: Array.from({ length: spec.uriOverrides ?? 0 }, (_, i) => ({
        id: hex32(id, 'override', String(i)), description: `Relax SQLi checks on the search API ${i + 1}`, urls: [`${spec.name}/api/search${i ? i + 1 : ''}*`],
        priority: i + 1, paused: false, rules: { '100000': 'simulate' }, groups: { [hex32(id, 'group', 'Cloudflare PHP')]: 'off' },
      })),
    },
  };
}

export const ZONES: readonly Zone[] = [
  buildZone({ name: 'pro.example', plan: 'pro', sensitivity: 'medium', action: 'challenge', ruleOverrides: [['100001', 'simulate']],
    pageRules: [{ target: 'pro.example/static/*', action: 'waf-off' }] }),
  buildZone({ name: 'business.example', plan: 'business', sensitivity: 'low', action: 'block', groupsOff: ['Cloudflare Drupal'],
    ruleOverrides: [['WP0004', 'off']], pageRules: [{ target: 'business.example/legacy/*', action: 'disable-security' }] }),
  buildZone({ name: 'enterprise.example', plan: 'enterprise', sensitivity: 'high', action: 'simulate',
    ruleOverrides: [['100030', 'simulate'], ['PHP100011', 'block']], owaspRuleOverrides: [['973300', 'off']], groupsOff: ['OWASP XSS Attacks'] }),
  buildZone({ name: 'enterprise-b.example', plan: 'enterprise', enabled: false, sensitivity: 'default', action: 'block',
    pageRules: [{ target: 'enterprise-b.example/shop/*', action: 'waf-on' }] }),
  buildZone({ name: 'uri-overrides.example', plan: 'business', sensitivity: 'medium', action: 'block', uriOverrides: 2 }),
  buildZone({ name: 'too-many-rules.example', plan: 'business', sensitivity: 'low', action: 'challenge', bypassRules: 205 }),
  buildZone({ name: 'long-expression.example', plan: 'pro', sensitivity: 'high', action: 'block', longExpression: true }),
];

export function zoneById(id: string): Zone | undefined {
  return ZONES.find((z) => z.id === id);
}

/** The mock's one account: every zone belongs to it, and account-scoped Logpush jobs (gateway_dns, audit_logs, ...) live under it. */
export interface Account { id: string; name: string }
export const ACCOUNTS: readonly Account[] = [{ id: hex32('edgekit-mock-account', 'Example Account'), name: 'Example Account' }];

export function accountById(id: string): Account | undefined {
  return ACCOUNTS.find((a) => a.id === id);
}

/** The account a zone belongs to (the mock's one account for each of its zones), or undefined for an id that is no zone. */
export function accountOfZone(zoneId: string): Account | undefined {
  return zoneById(zoneId) ? ACCOUNTS[0] : undefined;
}

export function accountJson(a: Account): Record<string, unknown> {
  return { id: a.id, name: a.name, type: 'standard', settings: { enforce_twofactor: false } };
}

export function zoneJson(z: Zone): Record<string, unknown> {
  const planName = { pro: 'Pro Website', business: 'Business Website', enterprise: 'Enterprise Website' }[z.plan];
  // The members of the platform's zone record (the official SDK's `Zone`), with fixed dates so that answers are deterministic.
  return {
    id: z.id, name: z.name, status: 'active', paused: false, type: 'full', development_mode: 0,
    name_servers: ['ada.ns.edgekit.invalid', 'bob.ns.edgekit.invalid'], original_name_servers: null, original_registrar: null, original_dnshost: null,
    created_on: '2026-01-01T00:00:00Z', modified_on: '2026-01-01T00:00:00Z', activated_on: '2026-01-01T00:00:00Z',
    meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: z.plan === 'enterprise' ? 125 : z.plan === 'business' ? 50 : 20, phishing_detected: false },
    owner: { id: null, type: 'user', email: null },
    account: { id: ACCOUNTS[0].id, name: ACCOUNTS[0].name },
    permissions: ['#zone:read', '#zone:edit', '#waf:read', '#waf:edit', '#logs:read', '#logs:edit'],
    plan: { id: hex32('plan', z.plan), name: planName, legacy_id: z.plan, price: 0, currency: 'USD', frequency: 'monthly', is_subscribed: true, can_subscribe: false, legacy_discount: false, externally_managed: false },
  };
}

// ---- the spec's content rules ----

/** Firewall rules that will become skip rules: active rules with action bypass that include the WAF. */
export function bypassRules(z: Zone): FirewallRule[] {
  return z.waf.firewallRules.filter((r) => r.action === 'bypass' && (r.products ?? []).includes('waf'));
}

/** Why a zone cannot migrate (empty when it can), as sentences about "it": the refusals carrying them name the zone and its state
 * (migration.ts). Remaining URI-based overrides are passed in: deleting one is state. */
export function migrationBlockers(z: Zone, remainingUriOverrides: number): string[] {
  const out: string[] = [];
  if (remainingUriOverrides > 0) {
    out.push(`It has ${remainingUriOverrides} URI-based WAF override${remainingUriOverrides === 1 ? '' : 's'}; delete ${remainingUriOverrides === 1 ? 'it' : 'them'} before migrating.`);
  }
  const fw = bypassRules(z);
  if (fw.length > MAX_MIGRATED_FIREWALL_RULES) {
    out.push(`It has ${fw.length} firewall rules to migrate, over the limit of ${MAX_MIGRATED_FIREWALL_RULES}; contact support.`);
  }
  // In UTF-8 bytes, as the entry point update measures an expression (ruleset/expr-too-long): the config carries it unchanged.
  const long = fw.find((r) => Buffer.byteLength(r.expression, 'utf8') > MAX_EXPRESSION_LENGTH);
  if (long) {
    out.push(`Its firewall rule "${long.description}" has an expression of ${Buffer.byteLength(long.expression, 'utf8')} bytes, over the limit of ${MAX_EXPRESSION_LENGTH}; contact support.`);
  }
  return out;
}

/** A page-rule URL pattern as a rules-language expression. */
export function urlPatternExpression(target: string): string {
  const pattern = target.replace(/^https?:\/\//, '').replace(/["\\]/g, (c) => '\\' + c);
  return `(http.request.full_uri wildcard "http*://${pattern}")`;
}

function isOff(mode: OldRuleMode): boolean {
  return mode === 'off';
}

/**
 * The new managed-rules configuration (the body of the entry point update) derived from a zone's previous WAF, with notes on what
 * is not migrated. Content rules: firewall rules bypassing the WAF and page rules disabling security or turning the WAF off become
 * skip rules; a page rule turning the WAF on scopes the execute rules of a zone whose WAF is off; the old managed-rule overrides
 * carry over as rule overrides; the old core rule set's sensitivity and action map through the spec's table.
 */
export function deriveConfig(z: Zone): { config: NewConfig; notes: string[] } {
  const rules: NewRule[] = [];
  const notes: string[] = [];
  const blank = { id: '', version: '', ref: '' };
  for (const fw of bypassRules(z)) {
    rules.push({ ...blank, action: 'skip', expression: fw.expression, description: `Migrated firewall rule "${fw.description}" (bypass WAF managed rules).`,
      enabled: !fw.paused, action_parameters: { ruleset: 'current' } });
  }
  const wafOn: string[] = [];
  // Only the highest-priority matching page rule takes effect (rules/page-rules, "Priority order matters"; the list is highest
  // first): a page rule's migrated expression leaves out the URLs of the active page rules above it.
  const above: string[] = [];
  for (const pr of z.waf.pageRules) {
    if (pr.status !== 'active') continue;
    const own = urlPatternExpression(pr.target);
    const expression = above.length ? `${own} and not (${above.join(' or ')})` : own;
    above.push(own);
    for (const a of pr.actions) {
      if (a.id === 'disable_security' || (a.id === 'waf' && a.value === 'off')) {
        const what = a.id === 'disable_security' ? 'Disable Security' : 'Web Application Firewall: Off';
        rules.push({ ...blank, action: 'skip', expression, description: `Migrated page rule "${pr.target}" (${what}).`,
          enabled: true, action_parameters: { ruleset: 'current' } });
      } else if (a.id === 'waf' && a.value === 'on') {
        wafOn.push(above.length > 1 ? `(${expression})` : expression);
      }
    }
  }
  // Where the zone-wide WAF was off, the managed rules ran only where a page rule turned the WAF on.
  const scope = z.waf.enabled ? 'true' : wafOn.length ? wafOn.join(' or ') : 'true';
  const active = z.waf.enabled || wafOn.length > 0;

  const cf = z.waf.packages.find((p) => p.detection_mode === 'traditional');
  if (cf) {
    const overrides: Record<string, unknown>[] = [];
    for (const g of cf.groups) {
      for (const r of g.rules) {
        if (g.mode === 'off') overrides.push({ id: r.newId, enabled: false });
        else if (r.mode !== r.default_mode) overrides.push(isOff(r.mode) ? { id: r.newId, enabled: false } : { id: r.newId, action: mapOldAction(r.mode), enabled: true });
      }
    }
    rules.push({ ...blank, action: 'execute', expression: scope, description: 'Cloudflare Managed Ruleset (migrated from the previous managed rules).', enabled: active,
      action_parameters: { id: MANAGED_RULESET_ID, ...(overrides.length ? { overrides: { rules: overrides } } : {}) } });
  }
  const owasp = z.waf.packages.find((p) => p.detection_mode === 'anomaly');
  if (owasp) {
    const sensitivity = owasp.sensitivity ?? 'default';
    const level = mapSensitivity(sensitivity === 'off' ? 'default' : sensitivity)!;
    const categories = [2, 3, 4].filter((pl) => pl > level.paranoiaLevel).map((pl) => ({ category: `paranoia-level-${pl}`, enabled: false }));
    rules.push({ ...blank, action: 'execute', expression: scope, description: 'Cloudflare OWASP Core Ruleset (migrated from the OWASP core rule set 2.x).',
      enabled: active && sensitivity !== 'off',
      action_parameters: { id: OWASP_RULESET_ID, overrides: {
        ...(categories.length ? { categories } : {}),
        rules: [{ id: OWASP_SCORE_RULE_ID, action: mapOldAction(owasp.action_mode ?? 'block'), score_threshold: level.scoreThreshold, enabled: true }],
      } } });
    const groupOverrides = owasp.groups.filter((g) => g.mode !== g.default_mode).map((g) => `group "${g.name}"`);
    const ruleOverrides = owasp.groups.flatMap((g) => g.rules.filter((r) => r.mode !== r.default_mode).map((r) => `rule ${r.id}`));
    for (const what of [...groupOverrides, ...ruleOverrides]) {
      notes.push(`The override of OWASP ${what} is not migrated; recreate it on the new OWASP Core Ruleset.`);
    }
  }
  return { config: { name: 'default', rules }, notes };
}
