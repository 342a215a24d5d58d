// The semantic rules of ruleset bodies, through validateText: code, severity, and the exact source text each problem covers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { RULESET_CODES } from '../../../server/src/core/rules/ruleset/codes';
import { RULESET_RULES } from '../../../server/src/core/rules/ruleset/rules';

function check(body: unknown, pretty = true) {
  const text = pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body);
  const problems = validateText(text, 'waf-ruleset');
  return { text, problems, at: (code: string) => problems.filter((p) => p.code === code).map((p) => text.substr(p.offset, p.length)) };
}

const exec = (id: string, extra: Record<string, unknown> = {}) => ({ action: 'execute', expression: 'true', action_parameters: { id, ...extra } });
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';

test('every code the area reports is registered with a description', () => {
  for (const [code, info] of Object.entries(RULESET_CODES)) {
    assert.match(code, /^ruleset\/[a-z0-9-]+$/);
    assert.ok(info.description.length > 10, code);
  }
  assert.ok(RULESET_RULES.length >= 5);
});

test('a valid pending body and a valid validation body give no problem', () => {
  assert.deepEqual(check({ name: 'default', rules: [{ id: '', version: '', ref: '', ...exec(MANAGED), enabled: true }] }).problems, []);
  assert.deepEqual(check({ name: 'default', rules: [{ ...exec(MANAGED), enabled: true }, exec(OWASP)] }).problems, []);
});

test('more than 200 exceptions (the migrated firewall rules) is an error on the "rules" key; 200 is fine, whatever the execute rules', () => {
  // Spec, Limits: "Migration: At most 200 firewall rules"; each firewall rule that bypasses the managed rules becomes one skip
  // rule, and the config adds an execute rule per managed ruleset. A compatible zone with 200 bypass rules gets 202 rules.
  const skips = (n: number) => Array.from({ length: n }, (_, i) => ({ action: 'skip', expression: `http.request.uri.path eq "/p/${i}"`, action_parameters: { ruleset: 'current' } }));
  assert.deepEqual(check({ rules: [...skips(200), exec(MANAGED), exec(OWASP)] }, false).at('ruleset/too-many-rules'), []);
  const r = check({ rules: [...skips(201), exec(MANAGED)] }, false);
  assert.deepEqual(r.at('ruleset/too-many-rules'), ['"rules"']);
  const p = r.problems.find((q) => q.code === 'ruleset/too-many-rules')!;
  assert.equal(p.severity, 'error');
  assert.match(p.message, /201 skip rules/);
});

test('execute without action_parameters.id: on the action_parameters key, or on the rule when there are none', () => {
  const r = check({ rules: [{ action: 'execute', expression: 'true' }, { action: 'execute', expression: 'true', action_parameters: {} }] });
  assert.deepEqual(r.at('ruleset/execute-missing-id'), ['{', '"action_parameters"']);
  assert.deepEqual(check({ rules: [{ action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' } }] }).problems, []);
});

test('an unknown managed ruleset id is a warning on the id that names the known ones', () => {
  const r = check({ rules: [exec('0123456789abcdef0123456789abcdef')] });
  const p = r.problems.find((q) => q.code === 'ruleset/unknown-managed-ruleset')!;
  assert.equal(p.severity, 'warning');
  assert.equal(r.text.substr(p.offset, p.length), '"0123456789abcdef0123456789abcdef"');
  assert.match(p.message, /efb7b8c949ac4650a09736fc376e9aee \(Cloudflare Managed Ruleset\)/);
  assert.match(p.message, /4814384a9e5d4991b9815dcfc25d2f1f/);
});

test('duplicate rule ids point at the second and relate to the first', () => {
  const id = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const r = check({ rules: [{ id, version: '1', ref: 'a', ...exec(MANAGED) }, { id, version: '1', ref: 'b', ...exec(OWASP) }] });
  const dups = r.problems.filter((p) => p.code === 'ruleset/duplicate-rule-id');
  assert.equal(dups.length, 1);
  assert.ok(dups[0].offset > r.text.indexOf(id));
  assert.equal(r.text.substr(dups[0].offset, dups[0].length), `"${id}"`);
  assert.equal(dups[0].related?.[0].offset, r.text.indexOf(id) - 1);
  // empty ids (the config response) are not duplicates
  assert.deepEqual(check({ rules: [{ id: '', version: '', ref: '', ...exec(MANAGED) }, { id: '', version: '', ref: '', ...exec(OWASP) }] }).problems, []);
});

test('ids on some rules only: warnings on the odd rules and an information on "rules" naming the body kind', () => {
  const pending = check({ rules: [{ id: '', version: '', ref: '', ...exec(MANAGED) }, { id: '', ...exec(OWASP) }, exec(MANAGED)] });
  assert.deepEqual(pending.at('ruleset/inconsistent-rule-ids'), ['{', '{']);
  const info = pending.problems.find((p) => p.code === 'ruleset/body-kind')!;
  assert.equal(info.severity, 'information');
  assert.equal(pending.text.substr(info.offset, info.length), '"rules"');
  // In the user's words, as the lens says it (mig8): what the rules are and what to do, not the API's "pending/validation body".
  assert.equal(info.message, 'Most rules here carry ids, as the migration configured them (2 of 3 rules): give every rule its id, version and ref, or remove them from every rule.');
  assert.equal(pending.problems.find((p) => p.code === 'ruleset/inconsistent-rule-ids')!.message,
    'Rule 1 lacks "version", "ref", which most rules carry (as the migration configured them): restore them, or remove id, version and ref from every rule to send all as new rules.');
  const validation = check({ rules: [exec(MANAGED), exec(OWASP), { ref: 'x', ...exec(MANAGED) }] });
  assert.deepEqual(validation.at('ruleset/inconsistent-rule-ids'), ['"ref"']);
  assert.equal(validation.problems.find((p) => p.code === 'ruleset/body-kind')!.message,
    'Most rules here are new rules, without ids (1 of 3 rules has ids): remove id, version and ref from every rule, or give every rule all three.');
  // The message says "it" for one id field and "them" for more, and names them all.
  const one = validation.problems.find((p) => p.code === 'ruleset/inconsistent-rule-ids')!.message;
  assert.equal(one, 'Rule 2 has "ref" but most rules are new rules, without ids: remove it, or give every rule the id, version and ref the migration configured.');
  const two = check({ rules: [exec(MANAGED), exec(OWASP), { id: 'a', ref: 'x', ...exec(MANAGED) }] });
  assert.equal(two.problems.find((p) => p.code === 'ruleset/inconsistent-rule-ids')!.message,
    'Rule 2 has "id", "ref" but most rules are new rules, without ids: remove them, or give every rule the id, version and ref the migration configured.');
  for (const p of [...pending.problems, ...validation.problems, ...two.problems]) assert.doesNotMatch(p.message, /\bbody\b|pending|waf_migration/, p.message);
});

test('override checks: simulate (with a fix to "log"), sensitivity, OWASP score threshold and actions, duplicates', () => {
  const r = check({ rules: [exec(OWASP, { overrides: {
    action: 'simulate', sensitivity_level: 'low',
    rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 30, action: 'skip' }, { id: '6179ae15870a4bb7b2d480d4843b323c', enabled: true }],
  } })] });
  assert.deepEqual(r.at('ruleset/override-action'), ['"simulate"', '"skip"']);
  const sim = r.problems.find((p) => p.code === 'ruleset/override-action')!;
  assert.deepEqual(sim.fixes?.[0].edits, [{ offset: sim.offset, length: sim.length, newText: '"log"' }]);
  assert.deepEqual(r.at('ruleset/override-sensitivity'), ['"sensitivity_level"']);
  assert.deepEqual(r.at('ruleset/override-score-threshold'), ['30']);
  assert.deepEqual(r.at('ruleset/duplicate-override'), ['"6179ae15870a4bb7b2d480d4843b323c"']);
  const fine = check({ rules: [exec(OWASP, { overrides: { rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 60, action: 'managed_challenge' }] } })] });
  assert.deepEqual(fine.problems, []);
  const elsewhere = check({ rules: [exec(MANAGED, { overrides: { rules: [{ id: '23ee7cebe6e8443e99ecf932ab579455', score_threshold: 40 }] } })] });
  assert.deepEqual(elsewhere.at('ruleset/override-score-threshold'), ['"score_threshold"']);
});

test('expression problems land on the characters inside the JSON string, across escapes', () => {
  const r = check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'http.user_agent eq "a\\"b" and http.hots eq "\u00e9" and ip.src contains "x"' }] });
  assert.deepEqual(r.at('ruleset/expr-unknown-field'), ['http.hots']);
  assert.deepEqual(r.at('ruleset/expr-type-mismatch'), ['contains']);
  const fix = r.problems.find((p) => p.code === 'ruleset/expr-unknown-field')!.fixes![0].edits[0];
  assert.equal(r.text.substr(fix.offset, fix.length), 'http.hots');
  // a \u escape written in the source: the span still covers the right characters
  const text = '{"rules":[{"action":"skip","action_parameters":{"ruleset":"current"},"expression":"http.host eq \\u0022x\\u0022 AND ssl"}]}';
  const p = validateText(text, 'waf-ruleset').find((q) => q.code === 'ruleset/expr-syntax')!;
  assert.equal(text.substr(p.offset, p.length), 'AND');
  assert.equal(p.fixes?.[0].edits[0].newText, 'and');
});

test('an escape of a character past U+FFFF is of the whole character: the problem covers it and the messages name it, not half of its surrogate pair', () => {
  // "\😀" in a rules-language string: the problem took the backslash and the emoji's first UTF-16 unit, so its range ended inside
  // the character (no position there in UTF-8 or UTF-32, as Neovim and Helix convert) and its message showed a lone surrogate.
  for (const ch of ['😀', '𝔘']) {
    const r = check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: `http.host eq "\\${ch}x"` }] });
    const escape = r.problems.find((p) => p.code === 'ruleset/expr-syntax')!;
    assert.equal(r.text.substr(escape.offset, escape.length), `\\\\${ch}`);
    assert.match(escape.message, new RegExp(`^Invalid escape "\\\\${ch}"`), escape.message);
    assert.equal(r.problems.length, 1, JSON.stringify(r.problems));
    // and the wildcard's and the regex's messages name the character escaped, not half of it
    const named = (expression: string, code: string) => check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression }] }).problems.find((p) => p.code === code)?.message ?? '';
    assert.ok(named(`http.host wildcard r"\\${ch}"`, 'ruleset/expr-invalid-wildcard').includes(`the escape "\\${ch}"`), named(`http.host wildcard r"\\${ch}"`, 'ruleset/expr-invalid-wildcard'));
    assert.ok(named(`http.host matches r"\\${ch}"`, 'ruleset/expr-invalid-regex').includes(`"\\${ch}" at character 1 of the regex`), named(`http.host matches r"\\${ch}"`, 'ruleset/expr-invalid-regex'));
  }
});

test('a quick fix that inserts quotes is JSON-escaped in the source', () => {
  const r = check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: 'http.host eq example.com' }] });
  const p = r.problems.find((q) => q.code === 'ruleset/expr-syntax')!;
  assert.equal(r.text.substr(p.offset, p.length), 'example.com');
  assert.equal(p.fixes?.[0].edits[0].newText, '\\"example.com\\"');
});

test('the expression limit counts UTF-8 bytes: 4096 is fine, 4097 is not', () => {
  const expr = (bytes: number) => `http.host eq "${'é'.repeat((bytes - 15) / 2)}"`; // 15 ASCII bytes + 2 per é
  assert.equal(Buffer.byteLength(expr(4095)), 4095);
  assert.deepEqual(check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: expr(4095) }] }).at('ruleset/expr-too-long'), []);
  const long = `http.host eq "${'é'.repeat(2040)}x"`;
  assert.equal(Buffer.byteLength(long), 4096);
  assert.deepEqual(check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: long }] }).at('ruleset/expr-too-long'), []);
  const over = `http.host eq "${'é'.repeat(2041)}"`;
  assert.equal(Buffer.byteLength(over), 4097);
  assert.equal(over.length < 4096, true);
  assert.equal(check({ rules: [{ action: 'skip', action_parameters: { ruleset: 'current' }, expression: over }] }).at('ruleset/expr-too-long').length, 1);
});

test('a managed ruleset executed twice in a zone entry point is a warning on the second id, related to the first', () => {
  // cloudflare-docs waf/managed-rules/index.mdx, "Zone-level deployment": "At the zone level, you can deploy each managed ruleset
  // once. At the account level, you can deploy each managed ruleset multiple times".
  const r = check({ name: 'default', rules: [exec(MANAGED), exec(OWASP), { ...exec(MANAGED), expression: 'http.host eq "a.example"' }] });
  const dups = r.problems.filter((p) => p.code === 'ruleset/duplicate-execute');
  assert.equal(dups.length, 1);
  assert.equal(dups[0].severity, 'warning');
  assert.ok(dups[0].offset > r.text.lastIndexOf('"http.host'), 'on the second execute');
  assert.equal(r.text.substr(dups[0].offset, dups[0].length), `"${MANAGED}"`);
  assert.equal(dups[0].related?.length, 1);
  assert.ok(dups[0].related![0].offset < r.text.indexOf(OWASP), 'related to the first execute');
  assert.equal(dups[0].related![0].offset, r.text.indexOf(`"${MANAGED}"`), 'on the first execute\'s id');
  assert.equal(r.text.substr(dups[0].related![0].offset, dups[0].related![0].length), `"${MANAGED}"`);
  assert.equal(dups[0].related![0].message, 'First deployment (rule 0).');
  // An account entry point (kind root) may deploy one ruleset several times; another phase's ruleset is not the zone's entry point.
  assert.deepEqual(check({ kind: 'root', phase: 'http_request_firewall_managed', rules: [exec(MANAGED), exec(MANAGED)] }).at('ruleset/duplicate-execute'), []);
  assert.deepEqual(check({ kind: 'zone', phase: 'ddos_l7', rules: [exec('4d21379b4f9f4bb088e0729962c8b3cf'), exec('4d21379b4f9f4bb088e0729962c8b3cf')] }).at('ruleset/duplicate-execute'), []);
});

test('a skip rule with no execute rule after it, or naming a ruleset no later rule executes, skips nothing: a warning', () => {
  // cloudflare-docs ruleset-engine/managed-rulesets/create-exception.mdx: "Exceptions only apply to rules executing a managed
  // ruleset listed after them. If you add an exception at the end of the list of rules of an entry point ruleset, nothing will be
  // skipped."
  const skip = (ap: Record<string, unknown>) => ({ action: 'skip', expression: 'http.host eq "dev.example.com"', action_parameters: ap });
  const ok = check({ rules: [skip({ ruleset: 'current' }), skip({ rulesets: [MANAGED] }), skip({ rules: { [MANAGED]: ['d9e350f1b72d4730899c8a420e48a85d'] } }), exec(MANAGED)] });
  assert.deepEqual(ok.problems, []);
  const r = check({ rules: [exec(MANAGED), skip({ ruleset: 'current' }), skip({ rulesets: [OWASP, MANAGED] }), skip({ rules: { [MANAGED]: ['d9e350f1b72d4730899c8a420e48a85d'] } }), exec(OWASP)] });
  const w = r.problems.filter((p) => p.code === 'ruleset/skip-without-effect');
  assert.ok(w.every((p) => p.severity === 'warning'));
  assert.deepEqual(r.at('ruleset/skip-without-effect'), [`"${MANAGED}"`, `"${MANAGED}"`]);
  assert.equal(r.text.substr(w[0].offset - 1, 1), ' ', 'the first on the rulesets item');
  const last = check({ rules: [exec(MANAGED), skip({ ruleset: 'current' })] });
  assert.deepEqual(last.at('ruleset/skip-without-effect'), ['"skip"']);
  // In a custom-rules ruleset a skip rule skips other products and phases: not this check's business.
  assert.deepEqual(check({ phase: 'http_request_firewall_custom', rules: [{ action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' } }] }).at('ruleset/skip-without-effect'), []);
});

test('sensitivity_level is taken in a DDoS phase; an override category that is not an object is the schema\'s alone', () => {
  const ddos = check({ phase: 'ddos_l7', rules: [{ action: 'execute', expression: 'true', action_parameters: { id: '4d21379b4f9f4bb088e0729962c8b3cf', overrides: { sensitivity_level: 'low' } } }] });
  assert.deepEqual(ddos.at('ruleset/override-sensitivity'), []);
  assert.deepEqual(check({ rules: [{ ...exec(MANAGED, { overrides: { sensitivity_level: 'low' } }) }] }).at('ruleset/override-sensitivity'), ['"sensitivity_level"']);
  const cats = check({ rules: [exec(MANAGED, { overrides: { categories: [null, 'x', { category: 'wordpress', action: 'simulate' }] } })] });
  assert.deepEqual(cats.problems.map((p) => p.code), ['schema/type', 'schema/type', 'ruleset/override-action']);
});

test('a score_threshold that is not a number is the schema\'s to report, on any rule', () => {
  const r = check({ rules: [exec(OWASP, { overrides: { rules: [{ id: 'abc', score_threshold: '40' }] } })] });
  assert.deepEqual(r.at('ruleset/override-score-threshold'), []);
  assert.ok(r.problems.some((p) => p.code.startsWith('schema/')), JSON.stringify(r.problems.map((p) => p.code)));
  assert.deepEqual(check({ rules: [exec(OWASP, { overrides: { rules: [{ id: 'abc', score_threshold: 40 }] } })] }).at('ruleset/override-score-threshold'), ['"score_threshold"']);
});

test('a paranoia-level category the OWASP Core Ruleset does not have (only paranoia-level-1..4), or on another ruleset, is a warning on it', () => {
  const cats = (id: string, ...names: string[]) => check({ rules: [exec(id, { overrides: { categories: names.map((category) => ({ category, enabled: false })) } })] });
  assert.deepEqual(cats(OWASP, 'paranoia-level-2', 'paranoia-level-3', 'paranoia-level-4').problems, []);
  const r = cats(OWASP, 'paranoia-level-5', 'paranoia-level-0', 'Paranoia-Level-3', 'paranoia_level_4', 'wordpress');
  assert.deepEqual(r.at('ruleset/override-category'), ['"paranoia-level-5"', '"paranoia-level-0"', '"Paranoia-Level-3"', '"paranoia_level_4"']);
  const p = r.problems.find((q) => q.code === 'ruleset/override-category')!;
  assert.equal(p.severity, 'warning');
  assert.match(p.message, /"paranoia-level-5".*paranoia-level-1 to paranoia-level-4/);
  // A near spelling of a level gets it as the fix.
  const near = r.problems.filter((q) => q.code === 'ruleset/override-category').map((q) => q.fixes?.map((f) => f.edits[0].newText));
  assert.deepEqual(near, [undefined, undefined, ['"paranoia-level-3"'], ['"paranoia-level-4"']]);
  assert.deepEqual(cats(MANAGED, 'paranoia-level-3').at('ruleset/override-category'), ['"paranoia-level-3"']);
  assert.match(cats(MANAGED, 'paranoia-level-3').problems[0].message, /only the OWASP Core Ruleset/);
});

// ux14: a skip rule of http_request_firewall_custom whose "phases" names http_request_firewall_custom was taken as it was. The skip
// options (waf/custom-rules/skip/options.mdx) skip *phases*, later ones: http_ratelimit, http_request_sbfm,
// http_request_firewall_managed; the remaining rules of the rule's own phase are skipped with "ruleset": "current", or at the zone
// level "phase": "current".
test('a skip rule whose "phases" names its own phase is a warning, with the docs\' options as fixes', async () => {
  const { applyEdits } = await import('../../../server/src/core/text');
  const skip = (phases: string[]) => ({ action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { phases } });
  const custom = (kind: string, phases: string[]) => check({ name: 'c', kind, phase: 'http_request_firewall_custom', rules: [skip(phases)] });
  const alone = custom('zone', ['http_request_firewall_custom']);
  assert.deepEqual(alone.at('ruleset/skip-own-phase'), ['"http_request_firewall_custom"']);
  const p = alone.problems.find((q) => q.code === 'ruleset/skip-own-phase')!;
  assert.equal(p.severity, 'warning');
  assert.match(p.message, /http_ratelimit, http_request_sbfm, http_request_firewall_managed/);
  assert.deepEqual(p.fixes!.map((f) => [f.title, f.preferred]), [
    ['Skip the remaining rules of this ruleset instead ("ruleset": "current")', undefined],
    ['Skip the remaining rules of the phase instead ("phase": "current")', undefined],
  ]);
  for (const f of p.fixes!) {
    const fixed = applyEdits(alone.text, f.edits);
    assert.deepEqual(validateText(fixed, 'waf-ruleset').map((q) => q.code), [], fixed);
  }
  assert.match(applyEdits(alone.text, p.fixes![0].edits), /"action_parameters": \{\s*"ruleset": "current"\s*\}/);
  // At the account level "phase": "current" is not taken: only the ruleset's
  const root = custom('root', ['http_request_firewall_custom']).problems.find((q) => q.code === 'ruleset/skip-own-phase')!;
  assert.deepEqual(root.fixes!.map((f) => f.title), ['Skip the remaining rules of this ruleset instead ("ruleset": "current")']);
  // Beside phases that can be skipped: the one fix removes it
  const mixed = custom('zone', ['http_ratelimit', 'http_request_firewall_custom', 'http_request_firewall_managed']);
  const m = mixed.problems.find((q) => q.code === 'ruleset/skip-own-phase')!;
  assert.deepEqual(m.fixes!.map((f) => f.title), ['Remove "http_request_firewall_custom" from "phases"']);
  assert.match(applyEdits(mixed.text, m.fixes![0].edits), /"phases": \[\s*"http_ratelimit",\s*"http_request_firewall_managed"\s*\]/);
  const last = custom('zone', ['http_ratelimit', 'http_request_firewall_custom']);
  assert.match(applyEdits(last.text, last.problems.find((q) => q.code === 'ruleset/skip-own-phase')!.fixes![0].edits), /"phases": \[\s*"http_ratelimit"\s*\]/);
  // Later phases are what it is for
  assert.deepEqual(custom('zone', ['http_ratelimit', 'http_request_sbfm', 'http_request_firewall_managed']).at('ruleset/skip-own-phase'), []);
});

// ux14: a ruleset's kind that does not fit its phase was taken as it was: "kind": "root" (an account's entry point) with a phase the
// docs configure at the zone level only, or "kind": "zone" with an account's phase (Bulk Redirects, Network Firewall, ddos_l4).
test('a kind that does not fit the phase\'s level is a warning on "kind", with the one kind that fits as its fix', async () => {
  const { applyEdits } = await import('../../../server/src/core/text');
  const body = (kind: string | undefined, phase: string) => check({ name: 'x', ...(kind ? { kind } : {}), phase, rules: [] });
  const root = body('root', 'http_config_settings');
  assert.deepEqual(root.at('ruleset/kind-phase'), ['"root"']);
  const p = root.problems.find((q) => q.code === 'ruleset/kind-phase')!;
  assert.equal(p.severity, 'warning');
  assert.match(p.message, /Configuration Rules/);
  assert.match(p.message, /zone level only/);
  assert.deepEqual(p.fixes!.map((f) => [f.title, f.preferred]), [['Change "kind" to "zone"', true]]);
  assert.deepEqual(validateText(applyEdits(root.text, p.fixes![0].edits), 'waf-ruleset'), []);
  for (const phase of ['http_request_redirect', 'magic_transit', 'magic_transit_managed', 'ddos_l4']) {
    const zone = body('zone', phase);
    assert.deepEqual(zone.at('ruleset/kind-phase'), ['"zone"'], phase);
    const z = zone.problems.find((q) => q.code === 'ruleset/kind-phase')!;
    assert.match(z.message, /account level only/, phase);
    assert.deepEqual(z.fixes!.map((f) => f.title), ['Change "kind" to "root"'], phase);
    assert.deepEqual(validateText(applyEdits(zone.text, z.fixes![0].edits), 'waf-ruleset'), [], phase);
  }
  // A custom ruleset is an account's too; which kind was meant is not clear (an entry point, "zone"?): no fix
  const custom = body('custom', 'http_request_transform').problems.find((q) => q.code === 'ruleset/kind-phase')!;
  assert.match(custom.message, /URL Rewrite Rules/);
  assert.equal(custom.fixes, undefined);
  // Phases of both levels, a phase the docs do not settle, and no kind at all: nothing
  for (const [kind, phase] of [['root', 'http_request_firewall_custom'], ['zone', 'http_request_firewall_custom'], ['custom', 'http_ratelimit'],
    ['root', 'http_request_firewall_managed'], ['zone', 'ddos_l7'], ['root', 'ddos_l7'], ['root', 'ddos_l4'],
    ['root', 'http_custom_errors'], [undefined, 'http_request_redirect'], [undefined, 'http_config_settings']] as const) {
    assert.deepEqual(body(kind, phase).at('ruleset/kind-phase'), [], `${kind} ${phase}`);
  }
});

// rv24: the skip-own-phase fixes wrote "ruleset": "current" beside a "ruleset": "current" already there (a duplicate key, a
// syntax/duplicate-key error after the fix), and "phases": [own, own] was offered the removal of one item, which left the other.
test('a skip rule\'s own phase beside an option that skips the rest already: the fixes never write a key twice', async () => {
  const { applyEdits } = await import('../../../server/src/core/text');
  const body = (ap: Record<string, unknown>, kind = 'zone') => check({ name: 'c', kind, phase: 'http_request_firewall_custom',
    rules: [{ action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: ap }] });
  const fixesOf = (c: ReturnType<typeof check>) => c.problems.find((q) => q.code === 'ruleset/skip-own-phase')!.fixes!;
  const own = ['http_request_firewall_custom'];
  for (const [ap, titles] of [
    [{ ruleset: 'current', phases: own }, ['Skip the remaining rules of the phase instead ("phase": "current")', 'Remove "phases" (the rule skips the remaining rules already)']],
    [{ phases: own, ruleset: 'current' }, ['Skip the remaining rules of the phase instead ("phase": "current")', 'Remove "phases" (the rule skips the remaining rules already)']],
    [{ phases: own, phase: 'current', products: ['waf'] }, ['Skip the remaining rules of this ruleset instead ("ruleset": "current")', 'Remove "phases" (the rule skips the remaining rules already)']],
    [{ ruleset: 'current', phase: 'current', phases: own }, ['Remove "phases" (the rule skips the remaining rules already)']],
    [{ phases: [...own, ...own] }, ['Skip the remaining rules of this ruleset instead ("ruleset": "current")', 'Skip the remaining rules of the phase instead ("phase": "current")']],
  ] as const) {
    const c = body(ap);
    const fixes = fixesOf(c);
    assert.deepEqual(fixes.map((f) => f.title), titles, JSON.stringify(ap));
    for (const f of fixes) {
      const fixed = applyEdits(c.text, f.edits);
      assert.deepEqual(validateText(fixed, 'waf-ruleset').map((q) => q.code), [], `${f.title}\n${fixed}`);
    }
  }
  // At the account level: "ruleset" there already, the one fix removes "phases"
  assert.deepEqual(fixesOf(body({ ruleset: 'current', phases: own }, 'root')).map((f) => f.title), ['Remove "phases" (the rule skips the remaining rules already)']);
});

// rv24 left: "phases": [other, own, own] offered each own item its removal, each leaving the other own item (still flagged). The
// removal now takes every own item at once, whichever item's warning offers it, in any arrangement.
test('a skip rule naming its own phase more than once beside other phases: the one removal takes every own item', async () => {
  const { applyEdits } = await import('../../../server/src/core/text');
  const own = 'http_request_firewall_custom';
  for (const phases of [['http_ratelimit', own, own], [own, 'http_ratelimit', own], [own, own, 'http_ratelimit', 'http_request_sbfm'], ['http_ratelimit', own, 'http_request_sbfm', own]]) {
    const c = check({ name: 'c', kind: 'zone', phase: own, rules: [{ action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { phases } }] });
    const found = c.problems.filter((q) => q.code === 'ruleset/skip-own-phase');
    assert.equal(found.length, 2, JSON.stringify(phases));
    for (const p of found) {
      assert.deepEqual(p.fixes!.map((f) => f.title), [`Remove "${own}" from "phases"`]);
      const fixed = applyEdits(c.text, p.fixes![0].edits);
      assert.deepEqual(validateText(fixed, 'waf-ruleset').map((q) => q.code), [], fixed);
      assert.deepEqual(JSON.parse(fixed).rules[0].action_parameters.phases, phases.filter((q) => q !== own), fixed);
    }
  }
});

// ux14 and rl10 left: a skip rule whose "phases" names a phase that has run already when the rule runs was taken as it was. The
// phases list (ruleset-engine/reference/phases-list.mdx) gives the order they execute in; "phases" "skips the execution of one or
// more phases" (waf/custom-rules/skip/options.mdx), so a phase over before the rule's own skips nothing.
test('a skip rule naming a phase that runs before its own is a warning on the item, related to the phase, with a removal only beside others', async () => {
  const { applyEdits } = await import('../../../server/src/core/text');
  const body = (phase: string, phases: string[], kind = 'zone') => check({ name: 'c', kind, phase,
    rules: [{ action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { phases } }] });
  // An exception in the managed phase naming the custom rules' phase (which runs before it), alone: no fix, which phase was meant
  // (or whether the rule belongs among the custom rules) is not clear
  const alone = body('http_request_firewall_managed', ['http_request_firewall_custom']);
  assert.deepEqual(alone.at('ruleset/skip-past-phase'), ['"http_request_firewall_custom"']);
  const p = alone.problems.find((q) => q.code === 'ruleset/skip-past-phase')!;
  assert.equal(p.severity, 'warning');
  assert.match(p.message, /http_request_firewall_custom, which runs before phase http_request_firewall_managed/);
  assert.equal(p.fixes, undefined);
  assert.deepEqual(p.related!.map((r) => alone.text.substr(r.offset, r.length)), ['"http_request_firewall_managed"']);
  // Beside a later phase: the one fix removes every item of a phase already over, and the fixed document is quiet
  for (const phases of [['http_request_transform', 'http_ratelimit'], ['http_ratelimit', 'http_config_settings', 'http_request_sanitize'], ['ddos_l4', 'http_request_sbfm', 'ddos_l4']]) {
    const c = body('http_request_firewall_custom', phases);
    const found = c.problems.filter((q) => q.code === 'ruleset/skip-past-phase');
    assert.equal(found.length, phases.filter((q) => q !== 'http_ratelimit' && q !== 'http_request_sbfm').length, JSON.stringify(phases));
    for (const q of found) {
      assert.equal(q.fixes!.length, 1);
      const fixed = applyEdits(c.text, q.fixes![0].edits);
      assert.deepEqual(validateText(fixed, 'waf-ruleset').map((r) => r.code), [], fixed);
      assert.deepEqual(JSON.parse(fixed).rules[0].action_parameters.phases, phases.filter((r) => r === 'http_ratelimit' || r === 'http_request_sbfm'));
    }
  }
  // Later phases, the own phase (skip-own-phase's), and phases whose place the list does not settle: nothing
  for (const [phase, phases] of [['http_request_firewall_custom', ['http_ratelimit', 'http_request_sbfm', 'http_request_firewall_managed']],
    ['http_request_firewall_custom', ['http_request_firewall_custom']], ['http_request_firewall_custom', ['ddos_l7']],
    ['ddos_l7', ['http_request_firewall_custom']], ['http_request_firewall_custom', ['http_response_cache_settings']],
    // rate limiting runs in the response phases too (with response information), after Response Header Transform Rules
    ['http_response_headers_transform', ['http_ratelimit']], ['http_request_firewall_managed', ['http_ratelimit']]] as const) {
    assert.deepEqual(body(phase, [...phases]).at('ruleset/skip-past-phase'), [], `${phase} ${phases}`);
  }
  // ... and before Compression Rules in both of its places
  assert.deepEqual(body('http_response_compression', ['http_ratelimit']).at('ruleset/skip-past-phase'), ['"http_ratelimit"']);
  // A request phase has run before any response phase
  assert.deepEqual(body('http_custom_errors', ['http_request_sbfm']).at('ruleset/skip-past-phase'), ['"http_request_sbfm"']);
});

// rl11 left: "phases" naming a phase already over and the own phase got two fixes, each leaving the other warning. Now, beside an
// item that stays, the own warning offers the removal of every item that skips nothing besides its own. None is preferred (the
// lead, after lf17): each warning says what the user may have meant ("ruleset": "current", an earlier phase), so Fix all on save
// leaves them, and never empties "phases".
test('a skip rule naming past phases and its own beside one that stays: one removal of both; Fix all leaves them', async () => {
  const { applyEdits } = await import('../../../server/src/core/text');
  const { fixAll } = await import('../../../server/src/core/fixAll');
  const own = 'http_request_firewall_managed', custom = 'http_request_firewall_custom', transform = 'http_request_transform';
  const body = (phases: string[]) => check({ name: 'm', kind: 'zone', phase: own, rules: [{ action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { phases } }] });
  const phasesOf = (text: string) => JSON.parse(text).rules[0].action_parameters.phases;
  const quiet = (text: string) => assert.deepEqual(validateText(text, 'waf-ruleset').map((q) => q.code), [], text);
  for (const phases of [[custom, own, 'http_request_sbfm'], ['http_request_sbfm', own, custom, transform], [own, custom, own, 'http_request_sbfm']]) {
    const c = body(phases);
    const stays = phases.filter((q) => q === 'http_request_sbfm');
    const ownWarnings = c.problems.filter((q) => q.code === 'ruleset/skip-own-phase');
    for (const p of ownWarnings) {
      assert.deepEqual(p.fixes!.map((f) => [f.title, f.preferred]), [
        [`Remove "${own}" and the phases that run before it from "phases"`, undefined], [`Remove "${own}" from "phases"`, undefined]], JSON.stringify(phases));
      const all = applyEdits(c.text, p.fixes![0].edits);
      quiet(all);
      assert.deepEqual(phasesOf(all), stays);
    }
    // One after another, in either order, ends with the items that stay and no warning
    for (const first of ['ruleset/skip-own-phase', 'ruleset/skip-past-phase']) {
      let text = c.text;
      for (const code of [first, first === 'ruleset/skip-own-phase' ? 'ruleset/skip-past-phase' : 'ruleset/skip-own-phase']) {
        const p = validateText(text, 'waf-ruleset').find((q) => q.code === code)!;
        text = applyEdits(text, p.fixes![p.fixes!.length - 1].edits);
      }
      quiet(text);
      assert.deepEqual(phasesOf(text), stays, `${first} first`);
    }
    assert.equal(fixAll(c.text, 'waf-ruleset').text, c.text, JSON.stringify(phases));
  }
  // Only past items and the own phase: nothing stays, so no removal of both, and Fix all leaves "phases" as it is (never empty)
  const none = body([custom, own]);
  assert.ok(none.problems.every((p) => (p.fixes ?? []).every((f) => !/ and the phases/.test(f.title))));
  for (const p of none.problems) assert.ok(p.fixes!.every((f) => !f.preferred), p.code);
  assert.equal(fixAll(none.text, 'waf-ruleset').text, none.text);
});

// rv24: "kind": "custom" with a zone-only phase said `"kind": "custom" is an account's custom ruleset`: custom rulesets are deployed
// at the zone level too (waf/account/custom-rulesets: "that you can deploy at the account or zone level"; the skip options'
// "zone-level custom and entry point rulesets"). What rules them out of those phases is that custom rulesets are the WAF's only
// (ruleset-engine/about/rulesets.mdx: "Currently, custom rulesets are only supported by the Cloudflare WAF").
test('a custom ruleset in a zone-only phase is warned for being the WAF\'s, not an account\'s', () => {
  const c = check({ name: 'x', kind: 'custom', phase: 'http_config_settings', rules: [] });
  const p = c.problems.find((q) => q.code === 'ruleset/kind-phase')!;
  assert.doesNotMatch(p.message, /account/);
  assert.match(p.message, /custom rulesets are only supported by the Cloudflare WAF/);
  assert.match(p.message, /Configuration Rules/);
  assert.match(p.message, /"kind": "zone"/);
  assert.equal(p.fixes, undefined);
});

// rv24 left a custom ruleset in an account-only phase outside the WAF silent (custom + magic_transit, + http_request_redirect, +
// ddos_l4). The same fact rules it out: "custom rulesets are only supported by the Cloudflare WAF, both at the account and the zone
// level" (ruleset-engine/custom-rulesets); Network Firewall's own API pages write its rules in an account's "kind": "root" ruleset
// (cloudflare-network-firewall/how-to/add-policies), Bulk Redirects' in the account's root entry point.
test('a custom ruleset in an account-only phase outside the WAF is warned as in a zone-only one, pointing to "root"; no fix', () => {
  for (const [phase, product] of [['magic_transit', 'Network Firewall'], ['http_request_redirect', 'Bulk Redirects'], ['ddos_l4', 'Network-layer DDoS'], ['magic_transit_managed', 'Network Firewall']]) {
    const c = check({ name: 'x', kind: 'custom', phase, rules: [] });
    assert.deepEqual(c.at('ruleset/kind-phase'), ['"custom"'], phase);
    const p = c.problems.find((q) => q.code === 'ruleset/kind-phase')!;
    assert.match(p.message, /custom rulesets are only supported by the Cloudflare WAF/, phase);
    assert.ok(p.message.includes(product), `${phase}: ${p.message}`);
    assert.match(p.message, /an account's entry point \("kind": "root"\)/, phase);
    assert.equal(p.fixes, undefined, phase);
  }
  // The WAF's own phases take custom rulesets (the account's rate limiting rulesets are custom ones in http_ratelimit)
  for (const phase of ['http_request_firewall_custom', 'http_ratelimit', 'http_request_firewall_managed']) {
    assert.deepEqual(check({ name: 'x', kind: 'custom', phase, rules: [] }).at('ruleset/kind-phase'), [], phase);
  }
});
