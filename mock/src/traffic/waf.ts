// Managed rules that decide: the previous managed rules of a zone (the Cloudflare package with its group and rule modes, the OWASP
// ModSecurity Core Rule Set 2.x with its sensitivity and action, URI-based overrides not deleted yet, firewall rules that bypass
// the WAF, page rules that turn it off or on) and the new ones (the zone's saved entry point ruleset: skip rules, the Cloudflare
// Managed Ruleset and the Cloudflare OWASP Core Ruleset with their overrides, paranoia level and score threshold), each run alone
// on one request. The signatures are signatures.ts; every expression goes through the core's evaluator. Pure; no vscode, no I/O.
import { catalogue, compileExpression, type CompiledExpression, type RequestRecord } from '../../../server/src/core';
import type { StoredRuleset } from '../state';
import type { NewRule, OldRuleMode, Zone } from '../zones';
import { MANAGED_RULESET_ID, OWASP_RULESET_ID, OWASP_SCORE_RULE_ID, newRuleId, urlPatternExpression } from '../zones';
import {
  MANAGED_DEFAULT_ACTION, MANAGED_SIGNATURES, OLD_OWASP_SCORE_RULE, OLD_OWASP_SIGNATURES, OLD_OWASP_THRESHOLDS, OWASP_DEFAULT_ACTION,
  OWASP_DEFAULT_THRESHOLD, OWASP_SIGNATURES,
} from './signatures';

/** One rule acting on a request: its action in the rules' words (block, challenge, js_challenge, managed_challenge, log). */
export interface Hit {
  ruleId: string;
  description: string;
  action: string;
  /** The entry point rule that ran it (new rules only). */
  ref?: string;
  metadata: Record<string, string>;
}

/** What one set of rules does with a request on its own: the rules that acted, in order; the last one may terminate. */
export interface Verdict { hits: Hit[]; terminating?: Hit }

/** The old WAF's spellings of the challenges (firewall rules and WAF rule modes), beside the rules language's terminating actions. */
const OLD_TERMINATING = new Set(['jschallenge', 'managedchallenge']);

export function isTerminating(action: string): boolean {
  return catalogue.rulesets.terminating.has(action) || OLD_TERMINATING.has(action);
}

/** The decisive action of a verdict: the terminating action, else "log" when a rule logged, else "pass". */
export function decisive(v: Verdict): string {
  return v.terminating ? v.terminating.action : v.hits.length ? 'log' : 'pass';
}

const CACHE_LIMIT = 5000;
const compiled = new Map<string, CompiledExpression | null>();

/** An expression compiled once (an expression the evaluator refuses never matches; compileErrors() lists them). */
function expr(source: string): CompiledExpression | null {
  let c = compiled.get(source);
  if (c === undefined) {
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    const r = compileExpression(source);
    c = r.ok ? r.expression : null;
    if (!r.ok) refused.set(source, r.error);
    compiled.set(source, c);
  }
  return c;
}

const refused = new Map<string, string>();
/** Expressions the evaluator could not compile so far, with why (for logs and tests). */
export function compileErrors(): ReadonlyMap<string, string> {
  return refused;
}

function test(source: string, req: RequestRecord): boolean {
  return expr(source)?.test(req) ?? false;
}

function oldModeAction(mode: OldRuleMode | string): string | undefined {
  switch (mode) {
    case 'off': return undefined;
    case 'simulate': return 'log';
    case 'challenge': return 'challenge';
    default: return 'block'; // 'default', 'on', 'block': the previous managed rules' default mode blocks
  }
}

/** The previous managed rules of `zone` on one request. `deletedOverrides`: URI-based overrides deleted through the API. */
export function evaluatePrevious(zone: Zone, deletedOverrides: readonly string[], req: RequestRecord): Verdict {
  const waf = zone.waf;
  // Only the highest-priority matching page rule takes effect (rules/page-rules, "Priority order matters"); the list is in
  // priority order, highest first.
  const pageRule = waf.pageRules.find((p) => p.status === 'active' && test(urlPatternExpression(p.target), req));
  const actions = pageRule?.actions ?? [];
  if (actions.some((a) => a.id === 'disable_security' || (a.id === 'waf' && a.value === 'off'))) return { hits: [] };
  const on = waf.enabled || actions.some((a) => a.id === 'waf' && a.value === 'on');
  if (!on) return { hits: [] };
  if (waf.firewallRules.some((r) => r.action === 'bypass' && !r.paused && (r.products ?? []).includes('waf') && test(r.expression, req))) return { hits: [] };
  const overrides = waf.uriOverrides.filter((o) => !o.paused && !deletedOverrides.includes(o.id) && o.urls.some((u) => test(urlPatternExpression(u), req)));
  const ruleMode = (id: string, mode: string) => overrides.find((o) => o.rules[id] !== undefined)?.rules[id] ?? mode;
  const groupMode = (id: string, mode: string) => overrides.find((o) => o.groups[id] !== undefined)?.groups[id] ?? mode;

  const hits: Hit[] = [];
  const cf = waf.packages.find((p) => p.detection_mode === 'traditional');
  for (const g of cf?.groups ?? []) {
    if (groupMode(g.id, g.mode) === 'off') continue;
    for (const r of g.rules) {
      const action = oldModeAction(ruleMode(r.id, r.mode));
      const sig = MANAGED_SIGNATURES.find((s) => s.oldRule === r.id);
      if (!action || !sig || !test(sig.expression, req)) continue;
      const hit: Hit = { ruleId: r.id, description: r.description, action, metadata: { group: g.name, package: cf!.name } };
      hits.push(hit);
      if (isTerminating(action)) return { hits, terminating: hit };
    }
  }
  const owasp = waf.packages.find((p) => p.detection_mode === 'anomaly');
  if (owasp && owasp.sensitivity !== 'off') {
    const threshold = OLD_OWASP_THRESHOLDS[owasp.sensitivity ?? 'default'];
    const matched: string[] = [];
    let score = 0;
    for (const g of owasp.groups) {
      if (groupMode(g.id, g.mode) === 'off') continue;
      for (const r of g.rules) {
        const sig = OLD_OWASP_SIGNATURES.find((s) => s.oldRule === r.id);
        if (ruleMode(r.id, r.mode) === 'off' || !sig || !test(sig.expression, req)) continue;
        score += sig.score;
        matched.push(r.id);
      }
    }
    if (score >= threshold) {
      const action = oldModeAction(owasp.action_mode ?? 'block')!;
      const hit: Hit = {
        ruleId: OLD_OWASP_SCORE_RULE, description: `OWASP ModSecurity Core Rule Set: anomaly score ${score} reached the sensitivity's ${threshold}`, action,
        metadata: { score: String(score), threshold: String(threshold), sensitivity: owasp.sensitivity ?? 'default', matched: matched.join(' ') },
      };
      hits.push(hit);
      if (isTerminating(action)) return { hits, terminating: hit };
    }
  }
  return { hits };
}

interface Overrides {
  enabled?: boolean;
  action?: string;
  rules?: { id?: string; enabled?: boolean; action?: string; score_threshold?: number }[];
  categories?: { category?: string; enabled?: boolean; action?: string }[];
}

/** A managed rule's enabled switch and action after an execute rule's overrides: rule, then category (tag), then ruleset. Of
 * several tag overrides that apply to the rule, the last in the list wins (ruleset-engine docs, "Override a managed ruleset":
 * "For rules tagged with multiple overridden tags, the last tag's overrides apply"). */
function resolve(o: Overrides, id: string, tags: readonly string[], defaultAction: string): { enabled: boolean; action: string } {
  const rule = o.rules?.find((r) => r.id === id);
  const cats = (o.categories ?? []).filter((c) => c.category !== undefined && tags.includes(c.category)).reverse();
  const enabled = rule?.enabled ?? cats.find((c) => c.enabled !== undefined)?.enabled ?? o.enabled ?? true;
  const action = rule?.action ?? cats.find((c) => c.action !== undefined)?.action ?? o.action ?? defaultAction;
  return { enabled, action };
}

/** The paranoia level an OWASP execute rule runs at: the highest N whose `paranoia-level-N` tag is not disabled (4 without overrides). */
export function paranoiaLevel(o: Overrides): number {
  const off = (n: number) => (o.categories ?? []).some((c) => c.category === `paranoia-level-${n}` && c.enabled === false);
  let pl = 1;
  for (let n = 2; n <= 4 && !off(n); n++) pl = n;
  return pl;
}

function runManaged(rule: NewRule & { ref?: string }, o: Overrides, skipped: Set<string>, req: RequestRecord, zone: Zone, hits: Hit[]): Hit | undefined {
  for (const sig of MANAGED_SIGNATURES) {
    const id = newRuleId(sig.oldRule);
    if (skipped.has(id)) continue;
    const { enabled, action } = resolve(o, id, sig.tags, MANAGED_DEFAULT_ACTION);
    if (!enabled || !test(sig.expression, req)) continue;
    const description = zone.waf.packages.flatMap((p) => p.groups.flatMap((g) => g.rules)).find((r) => r.id === sig.oldRule)?.description ?? sig.oldRule;
    const hit: Hit = { ruleId: id, description, action, ref: rule.ref, metadata: { ruleset: MANAGED_RULESET_ID, tags: sig.tags.join(' ') } };
    hits.push(hit);
    if (isTerminating(action)) return hit;
  }
  return undefined;
}

function runOwasp(rule: NewRule & { ref?: string }, o: Overrides, skipped: Set<string>, req: RequestRecord, hits: Hit[]): Hit | undefined {
  const pl = paranoiaLevel(o);
  let score = 0;
  const matched: string[] = [];
  for (const sig of OWASP_SIGNATURES) {
    if (sig.paranoiaLevel > pl || skipped.has(sig.id)) continue;
    if (!resolve(o, sig.id, [`paranoia-level-${sig.paranoiaLevel}`], 'log').enabled || !test(sig.expression, req)) continue;
    score += sig.score;
    matched.push(sig.name);
  }
  const scoreRule = o.rules?.find((r) => r.id === OWASP_SCORE_RULE_ID);
  const threshold = scoreRule?.score_threshold ?? OWASP_DEFAULT_THRESHOLD;
  const { enabled, action } = resolve(o, OWASP_SCORE_RULE_ID, [], OWASP_DEFAULT_ACTION);
  if (!enabled || skipped.has(OWASP_SCORE_RULE_ID) || score === 0 || score < threshold) return undefined;
  const hit: Hit = {
    ruleId: OWASP_SCORE_RULE_ID, description: `949110: Inbound Anomaly Score Exceeded (score ${score}, threshold ${threshold}, PL${pl})`, action, ref: rule.ref,
    metadata: { ruleset: OWASP_RULESET_ID, score: String(score), threshold: String(threshold), paranoia_level: String(pl), matched: matched.join('; ') },
  };
  hits.push(hit);
  return isTerminating(action) ? hit : undefined;
}

/** The new managed rules (the saved entry point of phase http_request_firewall_managed) on one request: its rules in order; a
 * matching skip rule with `ruleset: "current"` ends the entry point (with `rulesets`/`rules`, it skips those for the rest). */
export function evaluateNew(zone: Zone, entrypoint: Pick<StoredRuleset, 'rules'>, req: RequestRecord): Verdict {
  const hits: Hit[] = [];
  const skippedRulesets = new Set<string>();
  const skippedRules = new Set<string>();
  for (const rule of entrypoint.rules as (NewRule & { ref?: string })[]) {
    if (rule.enabled === false || !test(rule.expression, req)) continue;
    const ap = (rule.action_parameters ?? {}) as { id?: string; ruleset?: string; rulesets?: string[]; rules?: Record<string, string[]>; overrides?: Overrides };
    if (rule.action === 'skip') {
      if (ap.ruleset === 'current') break;
      for (const id of ap.rulesets ?? []) skippedRulesets.add(id);
      for (const ids of Object.values(ap.rules ?? {})) for (const id of ids) skippedRules.add(id);
      continue;
    }
    if (rule.action === 'log') {
      hits.push({ ruleId: rule.id ?? '', description: rule.description, action: 'log', ref: rule.ref, metadata: {} });
      continue;
    }
    if (rule.action !== 'execute' || !ap.id || skippedRulesets.has(ap.id)) continue;
    const o = ap.overrides ?? {};
    const done = ap.id === MANAGED_RULESET_ID ? runManaged(rule, o, skippedRules, req, zone, hits)
      : ap.id === OWASP_RULESET_ID ? runOwasp(rule, o, skippedRules, req, hits) : undefined;
    if (done) return { hits, terminating: done };
  }
  return { hits };
}
