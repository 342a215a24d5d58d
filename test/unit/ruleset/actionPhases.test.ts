// Actions the Rules language's actions reference makes "only available" in some phases (cloudflare-docs
// src/content/docs/ruleset-engine/rules-language/actions.mdx, 0309c8be). A rule of one of them in another phase is refused by the
// platform; EdgeKit reported only the managed phase's rules (execute and skip), so "route" in a cache rule or "rewrite" in a
// redirect rule passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { ACTION_PHASES, PHASES } from '../../../server/src/core/rules/ruleset/catalog';

/** The actions page: action -> [phases, its sentence]. */
const DOCS: Record<string, [string[], string]> = {
  rewrite: [['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform', 'http_request_firewall_custom'],
    'Only available in: Transform Rules, in phases http_request_transform, http_request_late_transform, and http_response_headers_transform. WAF custom rules checking for exposed credentials, in the http_request_firewall_custom phase at the account level.'],
  redirect: [['http_request_dynamic_redirect', 'http_request_redirect'], 'Only available for Single Redirects and Bulk Redirects.'],
  route: [['http_request_origin'], 'Only available for Origin Rules, in the http_request_origin phase.'],
  set_config: [['http_config_settings'], 'Only available for Configuration Rules, in the http_config_settings phase.'],
  compress_response: [['http_response_compression'], 'Only available for Compression Rules, in the http_response_compression phase.'],
  set_cache_settings: [['http_request_cache_settings'], 'Only available for Cache Rules, in the http_request_cache_settings phase.'],
  serve_error: [['http_custom_errors'], 'Only available for Custom Error Rules, in the http_custom_errors phase.'],
  log_custom_field: [['http_log_custom_fields'], 'Only available for custom fields, in the http_log_custom_fields phase.'],
};

test('the catalogue\'s phase list of each such action is the actions reference\'s', () => {
  assert.deepEqual(Object.keys(ACTION_PHASES).sort(), Object.keys(DOCS).sort());
  for (const [action, [phases]] of Object.entries(DOCS)) {
    assert.deepEqual([...ACTION_PHASES[action]].sort(), [...phases].sort(), action);
    for (const p of phases) assert.ok((PHASES as readonly string[]).includes(p), p);
  }
});

test('an action in a phase that does not offer it is ruleset/action-phase on the action; in its own phases it is not', () => {
  const codes = (phase: string, action: string) => {
    const body = { name: 'x', kind: 'zone', phase, rules: [{ action, expression: 'true' }] };
    const text = JSON.stringify(body);
    return validateText(text, 'waf-ruleset').filter((p) => p.code === 'ruleset/action-phase').map((p) => text.substr(p.offset, p.length));
  };
  for (const [action, [phases]] of Object.entries(DOCS)) {
    for (const phase of phases) assert.deepEqual(codes(phase, action), [], `${action} in ${phase}`);
    const other = phases.includes('http_request_cache_settings') ? 'http_request_origin' : 'http_request_cache_settings';
    assert.deepEqual(codes(other, action), [`"${action}"`], `${action} in ${other}`);
  }
  // Actions the page does not limit are left alone (a phase's full list is not documented in one place)
  assert.deepEqual(codes('http_request_transform', 'block'), []);
});

test('a ruleset without "phase" says so where it refuses a rule\'s action as the managed phase\'s (ui15)', () => {
  // ui15's walk: a newcomer's first ruleset ({"name", "rules"} with block and managed_challenge rules) was told 'Action "block"
  // is not available in phase http_request_firewall_managed', a phase the document never named.
  const messages = (body: object) => validateText(JSON.stringify(body), 'waf-ruleset').filter((p) => p.code === 'ruleset/action-phase').map((p) => p.message);
  const [without] = messages({ name: 'x', rules: [{ action: 'block', expression: 'true' }] });
  assert.match(without, /no "phase"/);
  assert.match(without, /"phase": "http_request_firewall_custom"/);
  // A ruleset that names the managed phase is told as before
  const [named] = messages({ name: 'x', phase: 'http_request_firewall_managed', rules: [{ action: 'block', expression: 'true' }] });
  assert.doesNotMatch(named, /no "phase"/);
  assert.match(named, /^Action "block" is not available in phase http_request_firewall_managed; its rules deploy managed rulesets/);
});
