// Semantic rules of the managed-rules (ruleset) body: limits, execute targets, overrides, rule ids, and the rules-language
// expressions (parsed and type-checked in place).
import type { JsonPath, ParsedDoc, Problem, Rule, RuleContext } from '../../types';
import {
  ACTION_PHASES, MANAGED_PHASE, MANAGED_RULESETS, OVERRIDE_ACTIONS, OWASP_ANOMALY_ACTIONS, OWASP_ANOMALY_RULE_ID, OWASP_RULESET_ID,
  OWASP_SCORE_THRESHOLDS, RATE_LIMIT_PHASE, RULE_ACTIONS, SKIPPABLE_PHASES, actionAvailable, kindPhaseMismatch, managedRuleset, phaseRunsBefore,
} from './catalog';
import { bodyKind, bodyKindFix, isMigrationBody, isObj, phaseOf, rulesOf, type Obj } from './body';
import { expressionProblems, expressionReads as reads, utf8Length } from './expression';
import { MATCH_SITE, expressionsOf, siteName } from './valueExpressions';
import { valueAt } from '../../json';
import { itemRemovals } from '../../text';
import { mapOldAction } from '../../migration/mapping';

export const MAX_RULES = 200;
export const MAX_EXPRESSION_BYTES = 4096;

const KIND = ['waf-ruleset'] as const;

const limits: Rule = {
  id: 'ruleset/limits',
  kinds: [...KIND],
  check(doc, ctx) {
    // The spec's 200 is the migration's limit of firewall rules to migrate ("Migration: At most 200 firewall rules"); another
    // phase's rulesets have their own quotas (custom rules: up to 1,000 on Enterprise), which depend on the plan. Each firewall
    // rule that bypasses the managed rules becomes a skip rule, and the configuration adds an execute rule per managed ruleset,
    // so a compatible zone with 200 such firewall rules gets 202 rules: only the skip rules are counted.
    if (!isMigrationBody(doc.value)) return [];
    const skips = rulesOf(doc.value).filter((r) => isObj(r) && r.action === 'skip').length;
    if (skips <= MAX_RULES) return [];
    return [ctx.report('ruleset/too-many-rules',
      `The ruleset has ${skips} skip rules (exceptions); the migration converts at most ${MAX_RULES} firewall rules into them.`, doc.locate(['rules'], 'key'))];
  },
};

/**
 * The managed phase's entry point deploys managed rulesets and exceptions: the platform refuses any other action there. In the
 * other phases, an action the actions reference makes "only available" elsewhere (ACTION_PHASES: route, set_config, ...).
 */
const actionInPhase: Rule = {
  id: 'ruleset/action-phase',
  kinds: [...KIND],
  check(doc, ctx) {
    const phase = phaseOf(doc.value);
    const out: Problem[] = [];
    rulesOf(doc.value).forEach((rule, i) => {
      // An action no phase takes is the schema's to report (an enum error); this one is about a real action in the wrong phase.
      if (!isObj(rule) || typeof rule.action !== 'string' || !(RULE_ACTIONS as readonly string[]).includes(rule.action)) return;
      // A phase the schema does not know is its enum error; the action is judged against known phases only (actionAvailable)
      if (actionAvailable(rule.action, phase)) return;
      // A body without "phase" is read as the managed entry point's (the migration's): say so, as the document never named it (ui15)
      const unnamed = !isObj(doc.value) || typeof doc.value.phase !== 'string';
      const custom = 'http_request_firewall_custom';
      const message = phase === MANAGED_PHASE
        ? `Action "${rule.action}" is not available in phase ${MANAGED_PHASE}${unnamed ? ', the phase of a ruleset with no "phase" (the managed rules\' entry point)' : ''}; its rules deploy managed rulesets ("execute") or add exceptions ("skip").${unnamed && actionAvailable(rule.action, custom) ? ` For custom rules, add "phase": "${custom}".` : ''}`
        : `Action "${rule.action}" is not available in phase ${phase}; the platform offers it only in ${ACTION_PHASES[rule.action].join(', ')}.`;
      out.push(ctx.report('ruleset/action-phase', message, doc.locate(['rules', i, 'action'])));
    });
    return out;
  },
};

const expressions: Rule = {
  id: 'ruleset/expressions',
  kinds: [...KIND],
  check(doc, ctx) {
    const out: Problem[] = [];
    const phase = phaseOf(doc.value);
    rulesOf(doc.value).forEach((rule, i) => {
      // The match expression and the others the rule holds (valueExpressions.ts: header values, rewritten paths, redirect targets...)
      for (const { path, src, site } of expressionsOf(rule, i)) {
        // The 4096 bytes are the match expression's; a URL rewrite's limit is on all its values together (in characters). A UTF-16
        // unit is at most three bytes of UTF-8, so they are counted only when the expression could be over
        const bytes = site === MATCH_SITE && src.length * 3 > MAX_EXPRESSION_BYTES ? utf8Length(src) : 0;
        if (bytes > MAX_EXPRESSION_BYTES) {
          out.push(ctx.report('ruleset/expr-too-long', `The expression is ${bytes} bytes long; at most ${MAX_EXPRESSION_BYTES} bytes are allowed.`, doc.locate(path)));
        }
        out.push(...expressionProblems(doc, ctx, path, src, phase, site));
        // A header, path, query or target is static ("value") or computed ("expression"), not both (the parameter references:
        // "Include one of the following parameters")
        const holder = site.rewrite === 'other' ? undefined : valueAt(doc.value, path.slice(0, -1));
        if (isObj(holder) && Object.hasOwn(holder, 'value')) {
          out.push(ctx.report('ruleset/value-and-expression', `The ${siteName(site, path)} has both "value" and "expression"; the platform takes one of them: "value" for a static text, "expression" for a computed one.`,
            doc.locate([...path.slice(0, -1), 'value'], 'key')));
        }
      }
    });
    return out;
  },
};

/**
 * A rate limiting rule's characteristics (waf/rate-limiting-rules/parameters.mdx): cf.colo.id is "(mandatory)"; "You cannot use both
 * IP with NAT support and IP" (cf.unique_visitor_id, ip.src). Each other characteristic is an expression (valueExpressions.ts), checked
 * with the rule's (a header name in capitals is the checker's expr-header-case).
 */
const ratelimitCharacteristics: Rule = {
  id: 'ruleset/ratelimit-characteristics',
  kinds: [...KIND],
  check(doc, ctx) {
    const out: Problem[] = [];
    rulesOf(doc.value).forEach((rule, i) => {
      const chars = isObj(rule) && isObj(rule.ratelimit) ? rule.ratelimit.characteristics : undefined;
      if (!Array.isArray(chars)) return;
      const path: JsonPath = ['rules', i, 'ratelimit', 'characteristics'];
      const names = chars.map((c) => (typeof c === 'string' ? c.trim() : undefined));
      if (!names.includes('cf.colo.id')) {
        const at = doc.locate(path);
        // Appended before the array's "]": after its last item, or alone in an empty one
        const last = chars.length ? doc.locate([...path, chars.length - 1]) : undefined;
        const edit = last ? { offset: last.offset + last.length, length: 0, newText: ', "cf.colo.id"' } : { offset: at.offset + 1, length: 0, newText: '"cf.colo.id"' };
        out.push(ctx.report('ruleset/ratelimit-characteristics', `A rate limiting rule's characteristics must include "cf.colo.id" (mandatory: the platform counts requests per data center); add it.`, at,
          { fixes: [{ title: 'Add "cf.colo.id"', edits: [edit], preferred: true }] }));
      }
      const ip = names.indexOf('ip.src'), nat = names.indexOf('cf.unique_visitor_id');
      if (ip >= 0 && nat >= 0) {
        out.push(ctx.report('ruleset/ratelimit-characteristics', `A rate limiting rule cannot use both "ip.src" (IP) and "cf.unique_visitor_id" (IP with NAT support) as characteristics; keep one.`,
          doc.locate([...path, Math.max(ip, nat)])));
      }
    });
    return out;
  },
};

/**
 * A rate limiting rule's parameters beyond what the schema says of each member (waf/rate-limiting-rules/parameters.mdx and its
 * "Configuration restrictions"): the rule counts requests (requests_per_period) or a score (score_per_period, with the origin's
 * score_response_header_name); a rule of the rate limiting phase has a "ratelimit" and one elsewhere means nothing; "If the rule
 * expression includes custom lists, you must enable Also apply rate limiting to cached assets" (requests_to_origin false); the
 * counting expression "cannot include both HTTP response fields and custom lists"; at the account level "the rule expression
 * cannot contain HTTP response fields or custom lists" (the response fields are the phase check's already).
 */
const ratelimitParameters: Rule = {
  id: 'ruleset/ratelimit-parameters',
  kinds: [...KIND],
  check(doc, ctx) {
    const out: Problem[] = [];
    const body = doc.value;
    const phase = isObj(body) && typeof body.phase === 'string' ? body.phase : undefined;
    rulesOf(body).forEach((rule, i) => {
      if (!isObj(rule)) return;
      const path: JsonPath = ['rules', i];
      const rl = rule.ratelimit;
      if (rl === undefined) {
        if (phase === RATE_LIMIT_PHASE && rule.action !== 'execute') {
          out.push(ctx.report('ruleset/ratelimit-parameters', `A rule of the ${RATE_LIMIT_PHASE} phase needs "ratelimit": the characteristics to count per, the period and requests_per_period (or score_per_period).`,
            doc.locate(['rules', i])));
        }
        return;
      }
      if (!isObj(rl)) return; // the schema's
      if (phase !== undefined && !phase.endsWith('_ratelimit')) {
        out.push(ctx.report('ruleset/ratelimit-parameters', `"ratelimit" is read in the rate limiting phase (${RATE_LIMIT_PHASE}) only: in phase ${phase} the rule takes its action on every request its expression matches, with no counting.`,
          doc.locate([...path, 'ratelimit'], 'key'), { severity: 'warning' }));
        return;
      }
      const at = doc.locate([...path, 'ratelimit'], 'key');
      if (rl.requests_per_period === undefined && rl.score_per_period === undefined) {
        out.push(ctx.report('ruleset/ratelimit-parameters', 'A rate limiting rule needs a threshold: requests_per_period (request-based: the number of requests in the period) or score_per_period (complexity-based, with score_response_header_name).', at));
      } else if (rl.score_per_period !== undefined && rl.score_response_header_name === undefined) {
        out.push(ctx.report('ruleset/ratelimit-parameters', 'score_per_period counts the score the origin sends with each response: add score_response_header_name, the response header that holds it.', doc.locate([...path, 'ratelimit', 'score_per_period'], 'key')));
      }
      const rule$ = reads(rule.expression), counting = reads(rl.counting_expression);
      const list = rule$.list ?? counting.list;
      if (list && rl.requests_to_origin === true) {
        out.push(ctx.report('ruleset/ratelimit-parameters', `The ${rule$.list ? 'rule\'s' : 'counting'} expression uses the custom list ${list}, so requests_to_origin must be false (the dashboard's "Also apply rate limiting to cached assets" enabled).`,
          doc.locate([...path, 'ratelimit', 'requests_to_origin'])));
      }
      if (counting.list && counting.response) {
        out.push(ctx.report('ruleset/ratelimit-parameters', `The counting expression cannot use both response fields (${counting.response}) and custom lists (${counting.list}).`,
          doc.locate([...path, 'ratelimit', 'counting_expression'])));
      }
      // The account's rate limiting rules are a ruleset of kind "custom" its root entry point executes (create-api.mdx of
      // waf/account/rate-limiting-rulesets); a zone's are of kind "zone"
      if (isObj(body) && (body.kind === 'custom' || body.kind === 'root') && rule$.list) {
        out.push(ctx.report('ruleset/ratelimit-parameters', `At the account level a rate limiting rule's expression cannot use custom lists (${rule$.list}).`, doc.locate([...path, 'expression'])));
      }
    });
    return out;
  },
};

const execute: Rule = {
  id: 'ruleset/execute',
  kinds: [...KIND],
  check(doc, ctx) {
    const out: Problem[] = [];
    const phase = phaseOf(doc.value);
    rulesOf(doc.value).forEach((rule, i) => {
      if (!isObj(rule) || rule.action !== 'execute') return;
      const ap = rule.action_parameters;
      const idPath: JsonPath = ['rules', i, 'action_parameters', 'id'];
      if (!isObj(ap) || ap.id === undefined) {
        out.push(ctx.report('ruleset/execute-missing-id', `Rule ${i} has action "execute" but no action_parameters.id naming the managed ruleset to run.`, doc.locate(idPath)));
        return;
      }
      if (typeof ap.id !== 'string') return; // the schema reports the type
      const known = managedRuleset(ap.id);
      // An execute rule of another phase runs a ruleset of the account's own (an account's custom or rate limiting ruleset,
      // waf/account/rate-limiting-rulesets/create-api.mdx), whose id no catalogue can know
      if (!known && MANAGED_RULESETS.some((r) => r.phase === phase)) {
        out.push(ctx.report('ruleset/unknown-managed-ruleset',
          `Unknown managed ruleset id "${ap.id}"; known ids: ${MANAGED_RULESETS.map((r) => `${r.id} (${r.name})`).join(', ')}.`, doc.locate(idPath)));
      } else if (known && known.phase !== phase) {
        out.push(ctx.report('ruleset/managed-ruleset-phase', `"${known.name}" (${known.id}) runs in phase ${known.phase}, not in ${phase}.`, doc.locate(idPath)));
      }
    });
    return out;
  },
};

/** The managed ruleset an execute rule deploys, or undefined for any other rule. */
function executeTarget(rule: unknown): string | undefined {
  return isObj(rule) && rule.action === 'execute' && isObj(rule.action_parameters) && typeof rule.action_parameters.id === 'string'
    ? rule.action_parameters.id : undefined;
}

/**
 * The managed entry point's deployments and exceptions: at the zone level each managed ruleset is deployed once (an account entry
 * point, kind "root", may deploy one several times), and a skip rule acts only on the execute rules listed after it.
 */
const deployments: Rule = {
  id: 'ruleset/deployments',
  kinds: [...KIND],
  check(doc, ctx) {
    if (!isMigrationBody(doc.value)) return [];
    const v = doc.value;
    const rules = rulesOf(v);
    const targets = rules.map(executeTarget);
    const out: Problem[] = [];
    if (!isObj(v) || v.kind === undefined || v.kind === 'zone') {
      const first = new Map<string, number>();
      targets.forEach((id, i) => {
        if (id === undefined) return;
        const prev = first.get(id);
        if (prev === undefined) { first.set(id, i); return; }
        const known = managedRuleset(id);
        out.push(ctx.report('ruleset/duplicate-execute',
          `Rule ${i} executes ${known ? `"${known.name}" (${id})` : `managed ruleset "${id}"`} again (first in rule ${prev}); a zone deploys each managed ruleset once: put both configurations in one rule, with overrides, and scope it with its expression or skip rules.`,
          doc.locate(['rules', i, 'action_parameters', 'id']),
          { related: [{ ...doc.locate(['rules', prev, 'action_parameters', 'id']), message: `First deployment (rule ${prev}).` }] }));
      });
    }
    // A body that executes nothing at all deploys nothing, skip rules or not (a list of exceptions kept apart, a fragment):
    // the mistake looked for is the exception placed after the deployment it was meant for, or naming another one.
    // Where each managed ruleset is executed last, and the last execute rule: "executed after rule i" is then one comparison, not a
    // scan of the rules after each skip rule (quadratic in a body of many skip rules).
    let lastExecute = -1;
    const lastExecuted = new Map<string, number>();
    rules.forEach((r, j) => {
      if (isObj(r) && r.action === 'execute') lastExecute = j;
      if (targets[j] !== undefined) lastExecuted.set(targets[j]!, j);
    });
    if (lastExecute < 0) return out;
    rules.forEach((rule, i) => {
      if (!isObj(rule) || rule.action !== 'skip' || !isObj(rule.action_parameters)) return;
      const ap = rule.action_parameters;
      const laterTargets = { has: (id: string) => (lastExecuted.get(id) ?? -1) > i };
      const never = (id: string) => {
        const known = managedRuleset(id);
        return `No rule after rule ${i} executes ${known ? `"${known.name}" (${id})` : `managed ruleset "${id}"`}; a skip rule acts only on the execute rules listed after it, so this skips nothing.`;
      };
      if (ap.ruleset === 'current' && lastExecute <= i) {
        out.push(ctx.report('ruleset/skip-without-effect', `Rule ${i} skips the remaining rules, but no rule after it executes a managed ruleset; a skip rule acts only on the execute rules listed after it, so this skips nothing.`,
          doc.locate(['rules', i, 'action']), { tags: ['unnecessary'] }));
      }
      if (Array.isArray(ap.rulesets)) {
        ap.rulesets.forEach((id, k) => {
          if (typeof id === 'string' && !laterTargets.has(id)) out.push(ctx.report('ruleset/skip-without-effect', never(id), doc.locate(['rules', i, 'action_parameters', 'rulesets', k]), { tags: ['unnecessary'] }));
        });
      }
      if (isObj(ap.rules)) {
        for (const id of Object.keys(ap.rules)) {
          if (!laterTargets.has(id)) out.push(ctx.report('ruleset/skip-without-effect', never(id), doc.locate(['rules', i, 'action_parameters', 'rules', id], 'key'), { tags: ['unnecessary'] }));
        }
      }
    });
    return out;
  },
};

/** A ruleset kind that does not fit its phase's level (kindPhaseMismatch), on the kind's value; the kind that fits as the fix where
 * one does beyond doubt (preferred: nothing else is meant). */
const kindPhase: Rule = {
  id: 'ruleset/kind-phase',
  kinds: [...KIND],
  check(doc, ctx) {
    if (!isObj(doc.value)) return [];
    const bad = kindPhaseMismatch(doc.value.kind, doc.value.phase);
    if (!bad) return [];
    const at = doc.locate(['kind']);
    return [ctx.report('ruleset/kind-phase', bad.message, at, {
      ...(bad.fit ? { fixes: [{ title: `Change "kind" to "${bad.fit}"`, edits: [{ ...at, newText: JSON.stringify(bad.fit) }], preferred: true }] } : {}),
      related: [{ ...doc.locate(['phase']), message: `The phase (${doc.value.phase}).` }],
    })];
  },
};

/**
 * A skip rule whose "phases" names its own ruleset's phase. The skip options (waf/custom-rules/skip/options.mdx) skip "the execution
 * of one or more phases", and the phases one can skip (SKIPPABLE_PHASES) all run after the custom rules: the own phase is running
 * already. Its remaining rules are skipped with "ruleset": "current", or at the zone level with "phase": "current" ("supported only
 * in zone-level custom and entry point rulesets for the http_request_firewall_custom phase"). Fixes: with other phases beside it,
 * the removal of every item naming it, at once (rl10); alone (or named twice), the member replaced by each option that fits and the
 * rule does not have yet (neither preferred: which one was meant is the user's), and beside an option it has, the member's removal
 * (rv24).
 * It also reports ruleset/skip-past-phase: an item naming a phase whose every run is over before the rule's phase runs (PHASE_ORDER,
 * the phases list's execution order): skipping its execution does nothing. Beside an item it keeps, the fix removes every such item
 * at once (it does nothing, so the removal changes nothing); with none left, no fix (which phase was meant, or whether the rule
 * belongs in an earlier phase, is the user's).
 * Past items and the own phase beside one that stays get, on the own warning, the removal of both kinds at once first (lf17). No
 * removal is preferred, so Fix all (a problem's only fix, when preferred) leaves them: each warning says what the user may have
 * meant ("ruleset": "current", an earlier phase), which a removal on save would take away with it.
 */
const skipOwnPhase: Rule = {
  id: 'ruleset/skip-own-phase',
  kinds: [...KIND],
  check(doc, ctx) {
    const body = doc.value;
    if (!isObj(body) || typeof body.phase !== 'string') return [];
    const phase = body.phase;
    const zoneCurrent = phase === 'http_request_firewall_custom' && (body.kind === undefined || body.kind === 'zone');
    const out: Problem[] = [];
    rulesOf(body).forEach((rule, i) => {
      if (!isObj(rule) || rule.action !== 'skip' || !isObj(rule.action_parameters) || !Array.isArray(rule.action_parameters.phases)) return;
      const phases = rule.action_parameters.phases;
      const path: JsonPath = ['rules', i, 'action_parameters', 'phases'];
      const past = new Set(phases.flatMap((q, n) => (typeof q === 'string' && q !== phase && phaseRunsBefore(q, phase) ? [n] : [])));
      const own = new Set(phases.flatMap((q, n) => (q === phase ? [n] : [])));
      // An item that stays: one that skips a phase still to come; the removal of every wrong item at once needs one (rl11's leftover,
      // lf17), or it would empty "phases"
      const stays = phases.length > past.size + own.size;
      const removal = (title: string, items: ReadonlySet<number>) => ({ title, edits: itemRemovals(phases.length, (q) => doc.locate([...path, q]), items) });
      past.forEach((k) => {
        const message = `Rule ${i} skips phase ${phases[k]}, which runs before phase ${phase}, its own (the phases list's execution order): "phases" skips the execution of phases still to come, and ${phases[k]} has run already when this rule runs.`;
        const fixes = past.size < phases.length
          ? [removal(past.size > 1 ? 'Remove the phases that run before this one from "phases"' : `Remove "${phases[k]}" from "phases"`, past)]
          : undefined;
        out.push(ctx.report('ruleset/skip-past-phase', message, doc.locate([...path, k]), {
          ...(fixes ? { fixes } : {}), related: [{ ...doc.locate(['phase']), message: `The ruleset's phase (${phase}).` }],
        }));
      });
      phases.forEach((p, k) => {
        if (p !== phase) return;
        const at = doc.locate([...path, k]);
        const current = `"ruleset": "current"${zoneCurrent ? ' (or, for the whole phase at the zone level, "phase": "current")' : ''}`;
        const message = `Rule ${i} skips phase ${phase}, its own: "phases" skips the execution of other phases, those that run later (the skip options list ${SKIPPABLE_PHASES.join(', ')}); this phase's remaining rules are skipped with ${current}.`;
        let fixes;
        if (phases.some((q) => q !== phase)) {
          // Beside past items and one that stays: first the removal of every wrong item, then the own items' alone
          const ownAlone = removal(`Remove "${phase}" from "phases"`, own);
          fixes = stays && past.size > 0
            ? [removal(`Remove "${phase}" and the phases that run before it from "phases"`, new Set([...past, ...own])), ownAlone]
            : [ownAlone];
        } else {
          // The member replaced by an option the rule does not have yet (never a key twice); beside one it has, its removal
          const params = rule.action_parameters as Obj;
          const has = (name: string) => Object.hasOwn(params, name);
          const key = doc.locate(path, 'key'), value = doc.locate(path);
          const member = (text: string) => [{ offset: key.offset, length: value.offset + value.length - key.offset, newText: text }];
          fixes = [...(!has('ruleset') ? [{ title: 'Skip the remaining rules of this ruleset instead ("ruleset": "current")', edits: member('"ruleset": "current"') }] : []),
            ...(zoneCurrent && !has('phase') ? [{ title: 'Skip the remaining rules of the phase instead ("phase": "current")', edits: member('"phase": "current"') }] : []),
            ...(has('ruleset') || has('phase') ? [{ title: 'Remove "phases" (the rule skips the remaining rules already)', edits: [memberRemoval(doc, path.slice(0, -1), params, 'phases')] }] : [])];
        }
        out.push(ctx.report('ruleset/skip-own-phase', message, at, { fixes }));
      });
    });
    return out;
  },
};

/** The edit that removes member `name` of `obj` (the object at `at`) with the comma that separates it from a neighbour (the object has
 * another member). */
function memberRemoval(doc: ParsedDoc, at: JsonPath, obj: Obj, name: string): { offset: number; length: number; newText: string } {
  const names = Object.keys(obj);
  const i = names.indexOf(name);
  const start = doc.locate([...at, name], 'key').offset, end = doc.locate([...at, name]);
  if (i < names.length - 1) return { offset: start, length: doc.locate([...at, names[i + 1]], 'key').offset - start, newText: '' };
  const prev = doc.locate([...at, names[i - 1]]);
  return { offset: prev.offset + prev.length, length: end.offset + end.length - prev.offset - prev.length, newText: '' };
}

const ruleIds: Rule = {
  id: 'ruleset/rule-ids',
  kinds: [...KIND],
  check(doc, ctx) {
    const out: Problem[] = [];
    const first = new Map<string, number>();
    rulesOf(doc.value).forEach((rule, i) => {
      if (!isObj(rule) || typeof rule.id !== 'string' || rule.id === '') return;
      const prev = first.get(rule.id);
      if (prev === undefined) { first.set(rule.id, i); return; }
      const other = doc.locate(['rules', prev, 'id']);
      out.push(ctx.report('ruleset/duplicate-rule-id', `Rule id "${rule.id}" is already used by rule ${prev}.`, doc.locate(['rules', i, 'id']),
        { related: [{ ...other, message: `First use of "${rule.id}" (rule ${prev}).` }] }));
    });
    if (!isMigrationBody(doc.value)) return out;
    const body = bodyKind(doc.value);
    if (body.deviations.length === 0) return out;
    // In the user's words, as the lens says it: what the rules are and what to do (the hover gives the API's terms too).
    for (const d of body.deviations) {
      if (d.present.length) {
        out.push(ctx.report('ruleset/inconsistent-rule-ids',
          `Rule ${d.index} has ${d.present.map((f) => `"${f}"`).join(', ')} but most rules are new rules, without ids: remove ${d.present.length > 1 ? 'them' : 'it'}, or give every rule the id, version and ref the migration configured.`,
          doc.locate(['rules', d.index, d.present[0]], 'key')));
      } else {
        out.push(ctx.report('ruleset/inconsistent-rule-ids',
          `Rule ${d.index} lacks ${d.missing.map((f) => `"${f}"`).join(', ')}, which most rules carry (as the migration configured them): restore ${d.missing.length > 1 ? 'them' : 'it'}, or remove id, version and ref from every rule to send all as new rules.`,
          doc.locate(['rules', d.index, d.missing[0]])));
      }
    }
    const many = `${body.withIds} of ${body.total} rules`;
    out.push(ctx.report('ruleset/body-kind', body.kind === 'pending'
      ? `Most rules here carry ids, as the migration configured them (${many}): ${bodyKindFix(body)}.`
      : `Most rules here are new rules, without ids (${many} ${body.withIds === 1 ? 'has' : 'have'} ids): ${bodyKindFix(body)}.`, doc.locate(['rules'], 'key')));
    return out;
  },
};

const overrides: Rule = {
  id: 'ruleset/overrides',
  kinds: [...KIND],
  check(doc, ctx) {
    const out: Problem[] = [];
    const phase = phaseOf(doc.value);
    const ddos = phase.startsWith('ddos_');
    rulesOf(doc.value).forEach((rule, i) => {
      if (!isObj(rule) || !isObj(rule.action_parameters) || !isObj(rule.action_parameters.overrides)) return;
      const target = rule.action_parameters.id;
      const ov = rule.action_parameters.overrides;
      const base: JsonPath = ['rules', i, 'action_parameters', 'overrides'];
      const entry = (o: Obj, path: JsonPath, overriddenRule?: string) => {
        if (typeof o.action === 'string') out.push(...actionProblems(doc, ctx, o.action, [...path, 'action'], overriddenRule));
        if (o.sensitivity_level !== undefined && !ddos) {
          out.push(ctx.report('ruleset/override-sensitivity', `"sensitivity_level" applies only to DDoS phases (ddos_l7, ddos_l4), not to ${phase}; for the OWASP ruleset use paranoia-level categories and score_threshold.`, doc.locate([...path, 'sensitivity_level'], 'key')));
        }
      };
      entry(ov, base);
      const seenCat = new Map<string, number>();
      (Array.isArray(ov.categories) ? ov.categories : []).forEach((c, k) => {
        if (!isObj(c)) return;
        const path = [...base, 'categories', k];
        entry(c, path);
        if (typeof c.category === 'string') {
          dup(out, doc, ctx, seenCat, c.category, k, [...base, 'categories'], 'category');
          const bad = paranoiaCategoryProblem(c.category, target);
          if (bad) {
            const at = doc.locate([...path, 'category']);
            out.push(ctx.report('ruleset/override-category', bad.message, at,
              bad.fix ? { fixes: [{ title: `Change to "${bad.fix}"`, edits: [{ offset: at.offset, length: at.length, newText: JSON.stringify(bad.fix) }], preferred: true }] } : {}));
          }
        }
      });
      const seenRule = new Map<string, number>();
      (Array.isArray(ov.rules) ? ov.rules : []).forEach((r, k) => {
        if (!isObj(r)) return;
        const path = [...base, 'rules', k];
        const rid = typeof r.id === 'string' ? r.id : undefined;
        entry(r, path, rid);
        if (rid !== undefined) dup(out, doc, ctx, seenRule, rid, k, [...base, 'rules'], 'rule');
        if (r.score_threshold !== undefined && typeof r.score_threshold === 'number') {
          const at = doc.locate([...path, 'score_threshold']);
          if (target !== OWASP_RULESET_ID || rid !== OWASP_ANOMALY_RULE_ID) {
            out.push(ctx.report('ruleset/override-score-threshold', `"score_threshold" applies only to the OWASP rule ${OWASP_ANOMALY_RULE_ID} of the OWASP Core Ruleset (${OWASP_RULESET_ID}).`, doc.locate([...path, 'score_threshold'], 'key')));
          } else if (!(r.score_threshold in OWASP_SCORE_THRESHOLDS)) {
            out.push(ctx.report('ruleset/override-score-threshold', `Score threshold ${r.score_threshold} is not an OWASP threshold; use 60 (Low), 40 (Medium, default) or 25 (High).`, at));
          }
        }
      });
    });
    return out;
  },
};

/**
 * A paranoia-level category that names no category of the target: the OWASP Core Ruleset tags its rules paranoia-level-1 to
 * paranoia-level-4 (owasp-core-ruleset/concepts.mdx), and no other managed ruleset has paranoia levels. A level 1-4 spelt another
 * way ("Paranoia-Level-3", "paranoia_level_4") gets the tag as its fix. Categories of an unknown ruleset are not judged.
 */
function paranoiaCategoryProblem(category: string, target: unknown): { message: string; fix?: string } | undefined {
  const m = /^paranoia[-_ ]?level[-_ ]?(\d+)$/i.exec(category);
  if (!m || typeof target !== 'string' || !managedRuleset(target)) return undefined;
  if (target !== OWASP_RULESET_ID) {
    return { message: `Category "${category}" is a paranoia level, which only the OWASP Core Ruleset (${OWASP_RULESET_ID}) has; "${managedRuleset(target)!.name}" has no such category.` };
  }
  const level = Number(m[1]);
  const tag = `paranoia-level-${level}`;
  if (category === tag && level >= 1 && level <= 4) return undefined;
  return {
    message: `Category "${category}" is not one of the OWASP Core Ruleset's paranoia levels: they are paranoia-level-1 to paranoia-level-4.`,
    ...(level >= 1 && level <= 4 && String(level) === m[1] ? { fix: tag } : {}),
  };
}

function dup(out: Problem[], doc: ParsedDoc, ctx: RuleContext, seen: Map<string, number>, key: string, k: number, listPath: JsonPath, what: 'rule' | 'category'): void {
  const prev = seen.get(key);
  if (prev === undefined) { seen.set(key, k); return; }
  const field = what === 'rule' ? 'id' : 'category';
  out.push(ctx.report('ruleset/duplicate-override', `The ${what} "${key}" is already overridden at item ${prev}; the last override wins.`, doc.locate([...listPath, k, field]),
    { related: [{ ...doc.locate([...listPath, prev, field]), message: `Earlier override of "${key}".` }] }));
}

function actionProblems(doc: ParsedDoc, ctx: RuleContext, action: string, path: JsonPath, overriddenRule?: string): Problem[] {
  const at = doc.locate(path);
  if (action === 'simulate') {
    const to = mapOldAction(action);
    return [ctx.report('ruleset/override-action', `Action "simulate" belongs to the old managed rules; the new ones use "${to}".`, at,
      { fixes: [{ title: `Change to "${to}"`, edits: [{ offset: at.offset, length: at.length, newText: JSON.stringify(to) }], preferred: true }] })];
  }
  if (overriddenRule === OWASP_ANOMALY_RULE_ID && !(OWASP_ANOMALY_ACTIONS as readonly string[]).includes(action)) {
    return [ctx.report('ruleset/override-action', `The OWASP anomaly rule takes ${OWASP_ANOMALY_ACTIONS.map((a) => `"${a}"`).join(', ')}, not "${action}".`, at)];
  }
  if (!(OVERRIDE_ACTIONS as readonly string[]).includes(action)) {
    return [ctx.report('ruleset/override-action', `Override action "${action}" is not one managed rules take; use ${OVERRIDE_ACTIONS.map((a) => `"${a}"`).join(', ')}.`, at)];
  }
  return [];
}

export const RULESET_RULES: Rule[] = [limits, kindPhase, ruleIds, actionInPhase, execute, deployments, skipOwnPhase, overrides, expressions, ratelimitCharacteristics, ratelimitParameters];
