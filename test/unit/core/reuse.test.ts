// Results kept from one version of a document to the next (ParsedDoc.reuse): an edit of a ruleset analyses the expressions it changed
// (rules/ruleset/expression.ts), an edit of a Logpush job outside its filter does not check the filter again (rules/logpush/job.ts).
// What must hold: the same problems as a check from nothing, on every version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import type { Problem } from '../../../server/src/core/types';

test('reuse: computed once per version, taken from the version just before, never from older ones', () => {
  const v1 = parseDocument('{"a": 1}');
  let calls = 0;
  const compute = (x: string) => () => { calls++; return [x]; };
  const first = v1.reuse(['k'], compute('one'));
  assert.equal(v1.reuse(['k'], compute('two')), first);
  assert.equal(calls, 1);
  const v2 = parseDocument('{"a": 2}', { previous: v1 });
  assert.equal(v2.reuse(['k'], compute('three')), first, 'the previous version\'s result');
  assert.equal(calls, 1);
  assert.deepEqual(v2.reuse(['other'], compute('four')), ['four']);
  assert.equal(calls, 2);
  // v3 follows v2: it sees what v2 computed or took over, and nothing v1 had that v2 never asked for
  v1.reuse(['only-v1'], compute('five'));
  const v3 = parseDocument('{"a": 3}', { previous: v2 });
  assert.equal(v3.reuse(['k'], compute('six')), first);
  assert.deepEqual(v3.reuse(['only-v1'], compute('seven')), ['seven']);
  // Without a previous version, nothing is taken over
  assert.deepEqual(parseDocument('{"a": 1}').reuse(['k'], compute('eight')), ['eight']);
  // A key's parts are any text (a header's name, a phase, an expression, all the document's): no two lists of parts share a key
  const v4 = parseDocument('{}');
  v4.reuse(['a\u0000b', 'c'], compute('nine'));
  assert.deepEqual(v4.reuse(['a', 'b\u0000c'], compute('ten')), ['ten']);
  assert.deepEqual(v4.reuse(['a', 'b', 'c'], compute('eleven')), ['eleven']);
  assert.deepEqual(v4.reuse(['1:a'], compute('twelve')), ['twelve']);
  assert.deepEqual(v4.reuse(['1:a1:b'], compute('thirteen')), ['thirteen']);
  assert.deepEqual(v4.reuse(['a', 'b'], compute('fourteen')), ['fourteen']);
});

test('two expressions whose key parts join to the same text are analysed each (a header named "h\\u0000x" beside one named "h")', () => {
  // The key was the parts joined with NUL: the header "h" took the analysis of "h\u0000x"'s expression (a warning naming the
  // other header) and lost its own (the NUL in its expression, a syntax error)
  const doc = (headers: Record<string, unknown>) => JSON.stringify({ name: 'r', kind: 'zone', phase: 'http_request_late_transform',
    rules: [{ action: 'rewrite', expression: 'true', action_parameters: { headers } }] }, null, 2);
  const one = { operation: 'set', expression: 'cf.threat_score' };
  const two = { operation: 'set', expression: 'x\u0000cf.threat_score' };
  const codes = (text: string) => validateText(text, 'waf-ruleset').map((p) => `${p.code} ${p.message}`).sort();
  assert.deepEqual(codes(doc({ 'h\u0000x': one, h: two })), [...codes(doc({ 'h\u0000x': one })), ...codes(doc({ h: two }))].sort());
});

const RULES = [
  { action: 'block', expression: 'http.host eq "example.com" and ip.src in {192.0.2.0/24}' },
  { action: 'block', expression: 'http.hots eq "example.com"' },
  { action: 'log', expression: 'cf.threat_score gt "high"' },
  { action: 'block', expression: 'http.request.uri.path matches "^/(unclosed"' },
  { action: 'rewrite', expression: 'true', action_parameters: { headers: { 'X-One': { operation: 'set', expression: 'cf.threat_score' }, 'X-Two': { operation: 'set', expression: 'cf.threat_score' } } } },
  { action: 'rewrite', expression: 'true', action_parameters: { uri: { path: { expression: 'concat("/a", http.request.uri.path)' } } } },
  { action: 'block', expression: 'http.response.code eq 500' },
];

const shown = (ps: Problem[]) => ps.map((p) => `${p.offset}+${p.length} ${p.code} ${p.message} ${JSON.stringify(p.fixes ?? [])}`).sort();

test('a ruleset checked version after version with the previous parse gets the problems a check from nothing gets', () => {
  // Edits that move expressions, change one, change the phase (the same text then reads differently) and swap header names
  const versions: { phase: string; rules: unknown[] }[] = [
    { phase: 'http_request_firewall_custom', rules: RULES },
    { phase: 'http_request_firewall_custom', rules: [{ action: 'log', expression: 'ssl' }, ...RULES] },
    { phase: 'http_request_firewall_custom', rules: RULES.map((r, i) => (i === 1 ? { ...r, expression: 'http.host eq "example.com"' } : r)) },
    { phase: 'http_response_firewall_managed', rules: RULES },
    { phase: 'http_request_late_transform', rules: RULES },
    { phase: 'http_request_late_transform', rules: RULES.map((r) => (r.action_parameters?.headers ? { ...r, action_parameters: { headers: { 'X-Three': r.action_parameters.headers['X-One'] } } } : r)) },
    { phase: 'http_request_firewall_custom', rules: RULES },
  ];
  let previous;
  for (const [i, v] of versions.entries()) {
    const text = JSON.stringify({ name: 'r', kind: 'zone', phase: v.phase, rules: v.rules }, null, i % 2 === 0 ? 2 : 4);
    const parsed = parseDocument(text, previous ? { previous } : {});
    const reused = validateText(text, 'waf-ruleset', { parsed });
    const fresh = validateText(text, 'waf-ruleset');
    assert.deepEqual(shown(reused), shown(fresh), `version ${i}`);
    assert.ok(fresh.length > 0, `version ${i} has problems to compare`);
    previous = parsed;
  }
});

test('a Logpush job checked version after version with the previous parse gets the problems a check from nothing gets', () => {
  const filter = (key: string) => JSON.stringify({ where: { and: [{ key, operator: 'eq', value: 'x' }, { key: 'ClientRequestHost', operator: 'contians', value: 'a' }] } });
  const job = (over: Record<string, unknown>) => ({ name: 'j', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1', filter: filter('ClientRequestPath'), ...over });
  const versions = [
    job({}),
    job({ name: 'renamed-job' }), // an edit outside the filter: the filter's problems move with it
    { enabled: true, ...job({ name: 'renamed-job' }) }, // the filter further down the text
    job({ dataset: 'gateway_dns' }), // the same filter against another dataset's fields
    job({ dataset: 'dlp_forensic_copies' }), // a dataset without a field list
    job({ filter: filter('RequestPath') }),
    job({}),
  ];
  let previous;
  for (const [i, v] of versions.entries()) {
    const text = JSON.stringify(v, null, i % 2 === 0 ? 2 : 3);
    const parsed = parseDocument(text, previous ? { previous } : {});
    const reused = validateText(text, 'logpush-job', { parsed });
    const fresh = validateText(text, 'logpush-job');
    assert.deepEqual(shown(reused), shown(fresh), `version ${i}`);
    assert.ok(fresh.some((p) => p.code.startsWith('logpush/') || p.code.startsWith('schema/')), `version ${i} has filter problems to compare`);
    previous = parsed;
  }
});

test('a firewall_events job checked as a zone\'s, an account\'s or either\'s, on one version and the next, gets the problems a check from nothing gets', () => {
  // The filter's problems depend on the scope option (ZoneName is an account job's field only): the same parse checked with
  // another logpushScope, and the next version checked with the scope the previous one was not, must not take them over
  const job = (name: string) => JSON.stringify({ name, dataset: 'firewall_events', destination_conf: 's3://bucket/logs?region=us-east-1',
    filter: JSON.stringify({ where: { and: [{ key: 'ZoneName', operator: 'eq', value: 'example.com' }, { key: 'Action', operator: 'eq', value: 'block' }] } }) }, null, 2);
  const scopes = [undefined, 'zone', 'account', 'zone', undefined, 'account'] as const;
  let previous;
  for (const [i, name] of ['a', 'b', 'c'].entries()) {
    const text = job(name);
    const parsed = parseDocument(text, previous ? { previous } : {});
    for (const logpushScope of [scopes[i], scopes[i + 3]]) {
      const reused = validateText(text, 'logpush-job', { parsed, logpushScope });
      const fresh = validateText(text, 'logpush-job', { logpushScope });
      assert.deepEqual(shown(reused), shown(fresh), `version ${i}, scope ${logpushScope}`);
    }
    previous = parsed;
  }
  // The scopes do read the filter differently (else the comparison above shows nothing)
  const zone = shown(validateText(job('a'), 'logpush-job', { logpushScope: 'zone' }));
  const account = shown(validateText(job('a'), 'logpush-job', { logpushScope: 'account' }));
  assert.notDeepEqual(zone, account);
});
