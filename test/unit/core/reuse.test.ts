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
  const first = v1.reuse('k', compute('one'));
  assert.equal(v1.reuse('k', compute('two')), first);
  assert.equal(calls, 1);
  const v2 = parseDocument('{"a": 2}', { previous: v1 });
  assert.equal(v2.reuse('k', compute('three')), first, 'the previous version\'s result');
  assert.equal(calls, 1);
  assert.deepEqual(v2.reuse('other', compute('four')), ['four']);
  assert.equal(calls, 2);
  // v3 follows v2: it sees what v2 computed or took over, and nothing v1 had that v2 never asked for
  v1.reuse('only-v1', compute('five'));
  const v3 = parseDocument('{"a": 3}', { previous: v2 });
  assert.equal(v3.reuse('k', compute('six')), first);
  assert.deepEqual(v3.reuse('only-v1', compute('seven')), ['seven']);
  // Without a previous version, nothing is taken over
  assert.deepEqual(parseDocument('{"a": 1}').reuse('k', compute('eight')), ['eight']);
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
