// A ruleset run over requests (compileRuleset): the rules run in order as the platform evaluates a phase. A terminating action
// (the actions reference's "Terminating action?" column) or a skip of the remaining rules ends the evaluation; execute, log, skip of
// named rulesets and the other actions let the next rules run; a skip of a ruleset keeps the execute rules of that ruleset from
// running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileRuleset, type RequestRecord, type RuleTally } from '../../../server/src/core/eval/rules';
import { RULE_ACTIONS, TERMINATING_ACTIONS } from '../../../server/src/core/rules/ruleset/catalog';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';

function runOn(rules: unknown[], requests: RequestRecord[]) {
  const run = compileRuleset({ rules });
  assert.ok(run.ok, run.ok ? '' : run.error);
  requests.forEach((r, i) => run.take(r, i + 1));
  const pick = (t: RuleTally) => ({ matched: t.matched, applied: t.applied, decided: t.decided, skipped: t.skipped });
  return { rules: run.rules.map(pick), undecided: run.undecided(), executed: run.executed(), total: run.total() };
}

test('an entry point that executes two managed rulesets: both run on every request, neither decides one', () => {
  const r = runOn([
    { action: 'execute', expression: 'true', action_parameters: { id: MANAGED } },
    { action: 'execute', expression: 'true', action_parameters: { id: OWASP } },
  ], [{ 'ip.src': '203.0.113.1' }, { 'ip.src': '203.0.113.2' }, { 'ip.src': '203.0.113.3' }]);
  assert.deepEqual(r.rules, [
    { matched: 3, applied: 3, decided: 0, skipped: 0 },
    { matched: 3, applied: 3, decided: 0, skipped: 0 },
  ]);
  assert.equal(r.undecided, 3);
  assert.equal(r.executed, 3);
});

test('a terminating action ends the evaluation; log and the rules that do not terminate let it go on', () => {
  const r = runOn([
    { action: 'log', expression: 'http.request.uri.path contains "/admin"' },
    { action: 'block', expression: 'ip.src in {198.51.100.0/24}' },
    { action: 'managed_challenge', expression: 'http.request.uri.path contains "/admin"' },
    { action: 'execute', expression: 'true', action_parameters: { id: MANAGED } },
  ], [
    { 'ip.src': '198.51.100.9', 'http.request.uri.path': '/admin' }, // logged, then blocked: the challenge and the execute never run
    { 'ip.src': '203.0.113.5', 'http.request.uri.path': '/admin' }, // logged, then challenged
    { 'ip.src': '203.0.113.6', 'http.request.uri.path': '/' }, // reaches the managed rules
  ]);
  assert.deepEqual(r.rules, [
    { matched: 2, applied: 2, decided: 0, skipped: 0 },
    { matched: 1, applied: 1, decided: 1, skipped: 0 },
    { matched: 2, applied: 1, decided: 1, skipped: 0 },
    { matched: 3, applied: 1, decided: 0, skipped: 0 },
  ]);
  assert.equal(r.undecided, 1);
  assert.equal(r.executed, 1);
});

test('skip: "ruleset": "current" ends the evaluation, "rulesets" skips those rulesets\' execute rules only, products go on', () => {
  const r = runOn([
    { action: 'skip', expression: 'ip.src in {10.0.0.0/8}', action_parameters: { ruleset: 'current' } },
    { action: 'skip', expression: 'http.request.uri.path eq "/upload"', action_parameters: { rulesets: [OWASP] } },
    { action: 'skip', expression: 'http.host eq "legacy.example"', action_parameters: { products: ['waf'] } },
    { action: 'execute', expression: 'true', action_parameters: { id: MANAGED } },
    { action: 'execute', expression: 'true', action_parameters: { id: OWASP } },
  ], [
    { 'ip.src': '10.1.2.3', 'http.request.uri.path': '/upload' }, // skips the rest: nothing after rule 0 applies
    { 'ip.src': '203.0.113.7', 'http.request.uri.path': '/upload' }, // the managed ruleset runs, OWASP is skipped
    { 'ip.src': '203.0.113.8', 'http.request.uri.path': '/', 'http.host': 'legacy.example' }, // both run
  ]);
  assert.deepEqual(r.rules, [
    { matched: 1, applied: 1, decided: 1, skipped: 0 },
    { matched: 2, applied: 1, decided: 0, skipped: 0 },
    { matched: 1, applied: 1, decided: 0, skipped: 0 },
    { matched: 3, applied: 2, decided: 0, skipped: 0 },
    { matched: 3, applied: 1, decided: 0, skipped: 1 },
  ]);
  assert.equal(r.undecided, 2);
  assert.equal(r.executed, 2);
});

test('a skip of the remaining rules is marked on its tally (the report says it ends the evaluation); other skips are not', () => {
  const run = compileRuleset({ rules: [
    { action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' } },
    { action: 'skip', expression: 'true', action_parameters: { phase: 'current' } },
    { action: 'skip', expression: 'true', action_parameters: { rulesets: [OWASP] } },
    { action: 'block', expression: 'true' },
  ] });
  assert.ok(run.ok, run.ok ? '' : run.error);
  assert.deepEqual(run.rules.map((t) => t.skipsRest), [true, true, undefined, undefined]);
});

// cl12: the report and `edgekit test-rules --help` say which skips end the evaluation; the counts must be what they say. The API
// (SkipRule): "ruleset": "current" is "A ruleset to skip the execution of", "phase": "current" "A phase to skip the execution of"
// ("only compatible with the products option"); "phases", "rulesets", "rules" and "products" name other things to skip.
test('"phase": "current" ends the evaluation as "ruleset": "current" does, with "products" too; a skip of phases, rules or products only lets the next rules run', () => {
  const after = { action: 'block', expression: 'true' };
  const decidedBy = (action_parameters: unknown) => {
    const r = runOn([{ action: 'skip', expression: 'true', action_parameters }, after], [{ 'ip.src': '203.0.113.1' }]);
    return [r.rules[0].decided, r.rules[1].applied, r.undecided];
  };
  assert.deepEqual(decidedBy({ ruleset: 'current' }), [1, 0, 0]);
  assert.deepEqual(decidedBy({ phase: 'current' }), [1, 0, 0]);
  assert.deepEqual(decidedBy({ phase: 'current', products: ['waf', 'rateLimit'] }), [1, 0, 0]);
  assert.deepEqual(decidedBy({ phases: ['http_ratelimit', 'http_request_firewall_managed'] }), [0, 1, 0]);
  assert.deepEqual(decidedBy({ products: ['zoneLockdown', 'uaBlock'] }), [0, 1, 0]);
  assert.deepEqual(decidedBy({ rules: { [MANAGED]: ['5de7edfa648c4d6891dc3e7f84534ffa'] } }), [0, 1, 0]);
  assert.deepEqual(decidedBy({ rulesets: [OWASP] }), [0, 1, 0]);
  // Only "current" is a value of either: any other is no skip of the rest (the checker reports it).
  assert.deepEqual(decidedBy({ phase: 'http_request_firewall_custom' }), [0, 1, 0]);
});

test('a disabled rule counts its matches and acts on nothing', () => {
  const r = runOn([
    { action: 'block', expression: 'true', enabled: false },
    { action: 'skip', expression: 'true', enabled: false, action_parameters: { ruleset: 'current' } },
    { action: 'execute', expression: 'true', action_parameters: { id: MANAGED } },
  ], [{ 'ip.src': '203.0.113.1' }]);
  assert.deepEqual(r.rules.map((x) => [x.matched, x.applied, x.decided]), [[1, 0, 0], [1, 0, 0], [1, 1, 0]]);
  assert.equal(r.undecided, 1);
});

test('the terminating actions are the documented ones, and all of them are rule actions', () => {
  assert.deepEqual([...TERMINATING_ACTIONS].sort(), ['block', 'challenge', 'js_challenge', 'log_custom_field', 'managed_challenge', 'redirect', 'serve_error']);
  for (const a of TERMINATING_ACTIONS) assert.ok((RULE_ACTIONS as readonly string[]).includes(a), a);
  for (const a of ['execute', 'skip', 'log', 'rewrite', 'route', 'set_config', 'set_cache_settings', 'compress_response']) assert.ok(!TERMINATING_ACTIONS.has(a), a);
});

test('the lens counts (rulesetLensCounts) equal a full run after any edit, and test again only the rules whose expression changed', async () => {
  const { RememberedMatches, rulesetLensCounts } = await import('../../../server/src/core/eval/rules');
  const { sampleRequests } = await import('../../../server/src/core/eval/sample');
  const requests = sampleRequests(400);
  const rules = (exprs: string[]) => ({ rules: exprs.map((expression, i) => (i % 3 === 0
    ? { action: 'skip', expression, action_parameters: { ruleset: 'current' } }
    : i % 3 === 1 ? { action: 'block', expression } : { action: 'execute', expression, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } })) });
  const counts = (t: RuleTally[]) => t.map((x) => [x.matched, x.applied, x.decided, x.skipped, x.firstMatches.join(',')].join('/'));
  const full = (value: unknown) => {
    const run = compileRuleset(value);
    assert.ok(run.ok);
    requests.forEach((r, i) => run.take(r, i + 1));
    return counts(run.rules);
  };
  // The run remembers every rule's matches as it goes.
  let exprs = ['ip.src in {203.0.113.0/24}', 'http.request.uri.path contains "/admin"', 'true', 'http.request.method eq "POST"'];
  const remembered = new RememberedMatches(requests.length);
  const run = compileRuleset(rules(exprs));
  assert.ok(run.ok);
  requests.forEach((r, i) => run.take(r, i + 1, remembered));
  assert.equal(remembered.byExpression.size, 4);
  // Each edit: the lens counts equal a full run; what was tested again is the new expression only (a vector object is kept as it was).
  const edits = [
    (e: string[]) => ['http.request.uri.path contains "/wp"', ...e.slice(1)],
    (e: string[]) => [...e, 'cf.waf.score lt 30'],
    (e: string[]) => [e[1], e[0], ...e.slice(2)], // reordered: same vectors, other outcome
    (e: string[]) => e.slice(0, 2),
  ];
  for (const edit of edits) {
    const before = new Map(remembered.byExpression);
    exprs = edit(exprs);
    const lens = rulesetLensCounts(rules(exprs), requests, remembered);
    assert.ok(lens.ok);
    assert.deepEqual(counts(lens.rules), full(rules(exprs)), exprs.join(' | '));
    for (const e of exprs) if (before.has(e)) assert.equal(remembered.byExpression.get(e), before.get(e), `not tested again: ${e}`);
    assert.deepEqual([...remembered.byExpression.keys()].sort(), [...new Set(exprs)].sort(), 'forgotten when gone');
  }
  assert.equal(rulesetLensCounts(rules(['http.host eq']), requests, remembered).ok, false, 'an expression that does not compile');
});

test('a rule that is no object (null, a number) while the ruleset is edited: the lens counts give an error, never a throw', async () => {
  // The rules' code lenses count the document as it is typed, schema errors included; a throw there lost every lens of the document.
  const { RememberedMatches, rulesetLensCounts } = await import('../../../server/src/core/eval/rules');
  const requests: RequestRecord[] = [{ 'http.host': 'a.example' }];
  const remembered = new RememberedMatches(1);
  for (const bad of [null, 5, 'block', [1]]) {
    const r = rulesetLensCounts({ rules: [bad, { action: 'block', expression: 'http.host eq "a.example"' }] }, requests, remembered);
    assert.equal(r.ok, false, JSON.stringify(bad));
  }
  assert.equal(compileRuleset({ rules: [null] }).ok, false);
});

// The lens counts keep, from one count to the next, each rule's applies/decides/skips and where each request ended. An edit of rule
// k cannot change a rule before k (its counts depend on its own expression and action and on the rules before it), nor any rule's
// matches (its expression's alone): only the applies, decides and skips of rule k and the rules after it are counted again.
// Random chains of edits, each lens count compared with a full run of the ruleset as it then is.
test('the lens counts after random edit chains (add, remove, move, action, expression, enabled) equal a full run of the ruleset', async () => {
  const { RememberedMatches, rulesetLensCounts } = await import('../../../server/src/core/eval/rules');
  const { sampleRequests } = await import('../../../server/src/core/eval/sample');
  const { mulberry32 } = await import('../../../server/src/core/prng');
  const requests = sampleRequests(150, 7);
  const EXPRS = ['true', 'false', 'ip.src in {203.0.113.0/24}', 'http.request.uri.path contains "/admin"', 'http.request.method eq "POST"',
    'http.request.uri.path contains "/wp"', 'cf.waf.score lt 30', 'http.request.uri.path contains "a"', 'not http.request.method eq "GET"',
    'http.user_agent contains "curl"', 'http.request.uri.query contains "id"', 'ip.src in {198.51.100.0/24 192.0.2.0/24}'];
  const A = MANAGED, B = OWASP;
  type R = { action: string; expression: string; enabled?: boolean; description?: string; action_parameters?: Record<string, unknown> };
  const ACTIONS: (() => Omit<R, 'expression'>)[] = [
    () => ({ action: 'block' }), () => ({ action: 'log' }), () => ({ action: 'managed_challenge' }), () => ({ action: 'rewrite' }),
    () => ({ action: 'skip', action_parameters: { ruleset: 'current' } }), () => ({ action: 'skip', action_parameters: { rulesets: [A] } }),
    () => ({ action: 'skip', action_parameters: { rulesets: [B, A] } }), () => ({ action: 'skip', action_parameters: { products: ['waf'] } }),
    () => ({ action: 'execute', action_parameters: { id: A } }), () => ({ action: 'execute', action_parameters: { id: B } }),
  ];
  const counts = (t: RuleTally[]) => t.map((x) => `${x.index} ${x.label} ${x.enabled}: ${[x.matched, x.applied, x.decided, x.skipped, x.firstMatches.join(',')].join('/')}`);
  const full = (rules: R[]) => {
    const run = compileRuleset({ rules });
    assert.ok(run.ok);
    requests.forEach((r, i) => run.take(r, i + 1));
    return counts(run.rules);
  };
  for (let seed = 1; seed <= 10; seed++) {
    const rnd = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const rule = (): R => ({ ...pick(ACTIONS)(), expression: pick(EXPRS), ...(rnd() < 0.15 ? { enabled: false } : {}) });
    let rules: R[] = Array.from({ length: 4 + Math.floor(rnd() * 12) }, rule);
    const remembered = new RememberedMatches(requests.length);
    const run = compileRuleset({ rules });
    assert.ok(run.ok);
    requests.forEach((r, i) => run.take(r, i + 1, remembered));
    const edits: [string, (rs: R[]) => R[]][] = [
      ['add', (rs) => { const at = Math.floor(rnd() * (rs.length + 1)); return [...rs.slice(0, at), rule(), ...rs.slice(at)]; }],
      ['remove', (rs) => { const at = Math.floor(rnd() * rs.length); return rs.filter((_, i) => i !== at); }],
      ['move', (rs) => { const c = [...rs]; const [r] = c.splice(Math.floor(rnd() * c.length), 1); c.splice(Math.floor(rnd() * (c.length + 1)), 0, r); return c; }],
      ['action', (rs) => rs.map((r, i, a) => (i === Math.floor(rnd() * a.length) ? { ...pick(ACTIONS)(), expression: r.expression, enabled: r.enabled } : r))],
      ['expression', (rs) => { const at = Math.floor(rnd() * rs.length); return rs.map((r, i) => (i === at ? { ...r, expression: pick(EXPRS) } : r)); }],
      ['enabled', (rs) => { const at = Math.floor(rnd() * rs.length); return rs.map((r, i) => (i === at ? { ...r, enabled: r.enabled === false } : r)); }],
      ['description', (rs) => { const at = Math.floor(rnd() * rs.length); return rs.map((r, i) => (i === at ? { ...r, description: `d${Math.floor(rnd() * 100)}` } : r)); }],
      ['same', (rs) => rs],
      ['two at once', (rs) => { const at = Math.floor(rnd() * rs.length); return rs.map((r, i) => (i === at || i === rs.length - 1 - at ? { ...rule(), enabled: r.enabled } : r)); }],
    ];
    const chain: string[] = [];
    for (let step = 0; step < 40; step++) {
      const [name, edit] = pick(edits);
      const next = edit(rules);
      if (next.length === 0) continue;
      rules = next;
      chain.push(name);
      // Now and then a rule that does not compile: no counts, and the next count is still right.
      if (rnd() < 0.05) assert.equal(rulesetLensCounts({ rules: [...rules, { action: 'block', expression: 'http.host eq' }] }, requests, remembered).ok, false);
      const lens = rulesetLensCounts({ rules }, requests, remembered);
      assert.ok(lens.ok, lens.ok ? '' : lens.error);
      assert.deepEqual(counts(lens.rules), full(rules), `seed ${seed}, after ${chain.join(', ')}`);
    }
  }
});

test('an edit of rule k counts again the applies/decides of rule k and the rules after it only; the same ruleset again, none', async () => {
  const { RememberedMatches, rulesetLensCounts } = await import('../../../server/src/core/eval/rules');
  const { sampleRequests } = await import('../../../server/src/core/eval/sample');
  const requests = sampleRequests(200);
  const base = Array.from({ length: 20 }, (_, i) => ({ action: i % 4 === 0 ? 'block' : 'log', expression: `http.request.uri.path contains "/${String.fromCharCode(97 + i)}"` }));
  const remembered = new RememberedMatches(requests.length);
  const run = compileRuleset({ rules: base });
  assert.ok(run.ok);
  requests.forEach((r, i) => run.take(r, i + 1, remembered));
  const counted = () => remembered.rulesCounted;
  const step = (rules: unknown[]) => { const before = counted(); assert.ok(rulesetLensCounts({ rules }, requests, remembered).ok); return counted() - before; };
  assert.equal(step(base), 20, 'the first count: every rule');
  assert.equal(step(base), 0, 'the same ruleset: nothing');
  assert.equal(step(base.map((r, i) => (i === 15 ? { ...r, expression: 'true' } : r))), 5, 'rule 15 of 20: rules 15 to 19');
  assert.equal(step(base.map((r, i) => (i === 15 ? { ...r, expression: 'true', description: 'now described' } : r))), 0, 'a description: nothing');
  assert.equal(step(base.map((r, i) => (i === 15 ? { ...r, expression: 'true', action: 'rewrite' } : r))), 0, 'log -> rewrite (neither ends): nothing');
  const blocked = base.map((r, i) => (i === 15 ? { ...r, expression: 'true', action: 'block' } : r));
  assert.equal(step(blocked), 5, 'rewrite -> block: rules 15 to 19');
  assert.equal(step(blocked.slice(0, 19)), 0, 'the last rule removed: nothing left to count');
  assert.equal(step(blocked), 1, 'added back: that rule');
  assert.equal(step([blocked[1], blocked[0], ...blocked.slice(2)]), 20, 'the first two swapped: all of them');
});
