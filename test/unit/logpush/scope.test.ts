// A dataset the docs file under both scopes has fields of one scope only: firewall_events' account page
// (logs/logpush/logpush-job/datasets/account/firewall_events.md) lists ZoneName, which no version of the zone page has. The checker
// takes the job's scope from its caller (the mock knows where a job is created); without one, a field of either scope is accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { datasetFields } from '../../../server/src/core/rules/logpush/catalogue';
import { completeJobDoc, hoverJobDoc } from '../../../server/src/core/rules/logpush/assist';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS } from '../../../server/src/core/types';
import { cmp, codes, jobText } from './helpers';

const fwJob = (extra: Record<string, unknown>) => jobText({ dataset: 'firewall_events', ...extra });
const listsZoneName = fwJob({ output_options: { field_names: ['RayID', 'ZoneName'] } });
const filtersZoneName = fwJob({ filter: JSON.stringify({ where: cmp('ZoneName', 'eq', 'example.com') }) });

test('firewall_events: ZoneName in an account job is a field, in a zone job an unknown one, and accepted when the scope is not known', () => {
  for (const text of [listsZoneName, filtersZoneName]) {
    assert.deepEqual(codes(text, 'logpush-job', { logpushScope: 'account' }), []);
    assert.deepEqual(codes(text, 'logpush-job', { logpushScope: 'zone' }), ['logpush/unknown-field']);
    assert.deepEqual(codes(text, 'logpush-job'), []);
  }
  // Another dataset's field stays unknown whatever the scope.
  assert.deepEqual(codes(fwJob({ output_options: { field_names: ['QueryName'] } }), 'logpush-job', { logpushScope: 'account' }), ['logpush/unknown-field']);
});

test('datasetFields by scope: the zone list, the account list with ZoneName marked account-only, and both when not known', () => {
  const zone = datasetFields('firewall_events', 'zone')!.map((f) => f.name);
  const account = datasetFields('firewall_events', 'account')!;
  assert.ok(!zone.includes('ZoneName'));
  assert.deepEqual(account.map((f) => f.name), [...zone, 'ZoneName']);
  assert.equal(account.find((f) => f.name === 'ZoneName')?.scope, 'account');
  assert.deepEqual(datasetFields('firewall_events')!.map((f) => f.name), [...zone, 'ZoneName']);
  // A dataset of one scope has the same list either way; a name that is no dataset has none.
  assert.equal(datasetFields('http_requests', 'zone'), datasetFields('http_requests'));
  assert.equal(datasetFields('constructor', 'account'), undefined);
  // One array per dataset and scope (fieldNamed indexes each list once).
  assert.equal(datasetFields('firewall_events', 'account'), datasetFields('firewall_events', 'account'));
});

test('hover and completion name ZoneName as a field of account-level jobs only', () => {
  const doc = parseDocument(listsZoneName);
  const at = listsZoneName.indexOf('"ZoneName"') + 2;
  assert.match(hoverJobDoc(doc, at)?.markdown ?? '', /account-level jobs only/);
  const entry = completeJobDoc(doc, at, DEFAULT_OPTIONS).find((e) => e.label === 'ZoneName');
  assert.ok(entry, 'ZoneName is offered in a firewall_events job');
  assert.match(String(entry.detail), /account/);
  assert.ok(!completeJobDoc(doc, at, DEFAULT_OPTIONS).find((e) => e.label === 'RayID')?.detail?.includes('account'));
});

// Create Logpush Job asked "which zone or account?" for a firewall_events job that lists ZoneName, and a zone then refused it.
test('jobScopes: a dataset\'s scopes, narrowed to one by a field of that scope only (field_names, logpull_options, the filter)', async () => {
  const { jobScopes } = await import('../../../server/src/core/rules/logpush/job');
  assert.deepEqual(jobScopes({ dataset: 'firewall_events' }), ['zone', 'account']);
  assert.deepEqual(jobScopes({ dataset: 'firewall_events', output_options: { field_names: ['RayID', 'ZoneName'] } }), ['account']);
  assert.deepEqual(jobScopes({ dataset: 'firewall_events', logpull_options: 'fields=RayID,ZoneName&timestamps=rfc3339' }), ['account']);
  assert.deepEqual(jobScopes({ dataset: 'firewall_events', filter: JSON.stringify({ where: { and: [cmp('Action', 'eq', 'block'), cmp('ZoneName', 'eq', 'a.example')] } }) }), ['account']);
  // Not JSON, a name no field has, another dataset: the dataset's scopes as they are.
  assert.deepEqual(jobScopes({ dataset: 'firewall_events', filter: '{"where": ', output_options: { field_names: ['ZoneNam'] } }), ['zone', 'account']);
  assert.deepEqual(jobScopes({ output_options: { field_names: ['ZoneName'] } }), ['zone']);
  assert.deepEqual(jobScopes({ dataset: 'gateway_dns' }), ['account']);
  assert.deepEqual(jobScopes({ dataset: 'no_such_logs' }), []);
  assert.deepEqual(jobScopes('not a job'), ['zone']);
  // The field that narrowed it, for the question and the message of Create Logpush Job
  const { jobScopeField } = await import('../../../server/src/core/rules/logpush/job');
  assert.deepEqual(jobScopeField({ dataset: 'firewall_events', logpull_options: 'fields=RayID,ZoneName' }), { field: 'ZoneName', scope: 'account' });
  assert.equal(jobScopeField({ dataset: 'firewall_events', output_options: { field_names: ['RayID'] } }), undefined);
  assert.equal(jobScopeField({ dataset: 'gateway_dns' }), undefined);
});

// In a zone's job (the mock knows it), ZoneName was "Unknown field", which sends the user looking for a typo.
test('ZoneName in a zone job is said to be a field of account-level jobs only, in field_names, logpull_options and the filter', async () => {
  const { check } = await import('./helpers');
  const logpull = fwJob({ logpull_options: 'fields=RayID,ZoneName' });
  for (const text of [listsZoneName, filtersZoneName, logpull]) {
    const problems = check(text, 'logpush-job', { logpushScope: 'zone' }).filter((p) => p.code !== 'logpush/deprecated-option');
    assert.equal(problems.length, 1, JSON.stringify(problems));
    assert.equal(problems[0].code, 'logpush/unknown-field');
    assert.equal(problems[0].message, '"ZoneName" is a field of account-level firewall_events jobs only; this job is a zone\'s.');
    // No field to change it to; its removal from a list (as for any field the job lacks)
    assert.deepEqual(problems[0].fixes?.map((f) => f.title) ?? [], text === filtersZoneName ? [] : ['Remove "ZoneName", which zone-level firewall_events jobs do not have']);
    assert.ok(text.slice(problems[0].offset, problems[0].offset + problems[0].length).includes('ZoneName'));
  }
  // A typo of it in a zone job: still a typo of a zone field or nothing, never the account field.
  const typo = check(fwJob({ output_options: { field_names: ['ZoneNme'] } }), 'logpush-job', { logpushScope: 'zone' });
  assert.equal(typo.length, 1);
  assert.doesNotMatch(typo[0].message, /ZoneName/);
});
