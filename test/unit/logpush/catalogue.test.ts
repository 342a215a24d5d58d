// The zone datasets' field catalogues against the platform's current pages (cloudflare-docs
// src/content/docs/logs/logpush/logpush-job/datasets/zone/*.md; data/logpush-fields/SOURCE.md names the commits read). The shared
// reference's firewall_events and http_requests tables lack fields those pages give, so a filter on one got a false "Unknown field";
// data/logpush-fields/supplement/ adds them. The zone datasets EdgeKit knew by name only have pages with their fields, and get a
// catalogue of their own (data/logpush-fields/<dataset>_fields.tsv).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DATASETS, datasetFields, fieldInfo } from '../../../server/src/core/rules/logpush/catalogue';
import { FIELDS } from '../../../server/src/core/rules/logpush/catalogue.data';
import { completeJobDoc } from '../../../server/src/core/rules/logpush/assist';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS } from '../../../server/src/core/types';
import { check, cmp, codes, filterText, jobText, only } from './helpers';

const fw = { logpushDataset: 'firewall_events' };

test('firewall_events: the AI Security and fraud fields of the current page are fields, in a filter and in a job', () => {
  const where = { and: [cmp('AISecurityInjectionScore', 'gt', 50), cmp('AISecurityPIICategories', 'contains', 'EMAIL_ADDRESS'),
    cmp('AISecurityTokenCount', 'geq', 1000), cmp('AISecurityUnsafeTopicCategories', 'contains', 'S1'), cmp('FraudUserID', 'eq', 'abc')] };
  assert.deepEqual(codes(filterText(where), 'logpush-filter', fw), []);
  for (const logpushScope of [undefined, 'zone', 'account'] as const) {
    const job = jobText({ dataset: 'firewall_events', filter: JSON.stringify({ where }),
      output_options: { field_names: ['RayID', 'Action', 'AISecurityInjectionScore', 'AISecurityCustomTopicCategories', 'FraudUserID'] } });
    assert.deepEqual(codes(job, 'logpush-job', { logpushScope }), [], `scope ${logpushScope}`);
  }
  // The object field is listed, not filtered on (as Metadata).
  assert.deepEqual(codes(filterText(cmp('AISecurityCustomTopicCategories', 'eq', 'x')), 'logpush-filter', fw), ['logpush/field-not-filterable']);
});

test('firewall_events: the Firewall for AI fields are deprecated (a hint), not unknown', () => {
  const text = filterText(cmp('FirewallForAIInjectionScore', 'gt', 50));
  assert.deepEqual(codes(text, 'logpush-filter', fw), ['logpush/deprecated-field']);
  assert.equal(fieldInfo('firewall_events', 'FirewallForAIPIICategories')?.type, 'array[string]');
});

test('a misspelt new field still gets its "did you mean"', () => {
  const p = only(check(filterText(cmp('AISecurityInjectonScore', 'gt', 50)), 'logpush-filter', fw), 'logpush/unknown-field');
  assert.match(p.message, /^Unknown field "AISecurityInjectonScore"; did you mean "AISecurityInjectionScore"/);
  const q = only(check(filterText(cmp('FraudUserId', 'eq', 'a'))), 'logpush/unknown-field');
  assert.match(q.message, /did you mean "FraudUserID"/);
});

test('firewall_events Action: the supplement\'s row replaces the reference\'s, with the interstitial values, once, still not filterable', () => {
  const fields = datasetFields('firewall_events', 'zone')!;
  assert.equal(fields.filter((f) => f.name === 'Action').length, 1);
  const action = fieldInfo('firewall_events', 'Action')!;
  assert.equal(action.filterable, false);
  for (const v of ['managedchallengebypassed', 'precursorinterstitialpageissued', 'precursorinterstitialpagebypassed', 'precursorinterstitialpagesolved'])
    assert.ok(action.values?.includes(v), v);
  // Each name once in every dataset's list.
  for (const d of DATASETS) {
    const names = (datasetFields(d.name) ?? []).map((f) => f.name);
    assert.equal(new Set(names).size, names.length, d.name);
  }
});

test('http_requests: the fraud, JavaScript detection, pay-per-crawl and web assets fields of the current page are fields', () => {
  const where = { and: [cmp('FraudAttack', 'eq', 'account_takeover'), cmp('FraudDetectionIDs', 'contains', 7),
    cmp('FraudDetectionTags', 'contains', 'x'), cmp('FraudEmailRisk', 'eq', 'high'), cmp('FraudUserID', 'eq', 'u'),
    cmp('JSDetectionPassed', 'eq', 'passed'), cmp('PayPerCrawlStatus', 'eq', 'charged'), cmp('WebAssetsLabelsManaged', 'contains', 'cf-log-in'),
    cmp('WebAssetsOperationID', 'eq', 'b6e4d2a0-0000-4000-8000-000000000000')] };
  assert.deepEqual(codes(filterText(where)), []);
  assert.deepEqual(fieldInfo('http_requests', 'FraudEmailRisk')?.values, ['low', 'medium', 'high']);
});

test('the zone datasets known by name only before have their pages\' catalogues: fields checked, a misspelling suggested', () => {
  const cases: [string, unknown, string, string][] = [
    ['zaraz_events', { and: [cmp('EventType', 'eq', 'pageview'), cmp('URL', 'contains', '/checkout')] }, 'EventTyp', 'EventType'],
    ['account_abuse_protection_events', { and: [cmp('EventType', 'eq', 'login'), cmp('BotScore', 'lt', 30), cmp('AuthenticationStatus', 'eq', 'failureIncorrectPassword')] }, 'BotScor', 'BotScore'],
  ];
  for (const [dataset, where, typo, meant] of cases) {
    assert.ok(DATASETS.find((d) => d.name === dataset)?.hasFields, dataset);
    assert.deepEqual(codes(filterText(where), 'logpush-filter', { logpushDataset: dataset }), [], dataset);
    const p = only(check(filterText(cmp(typo, 'eq', 'x')), 'logpush-filter', { logpushDataset: dataset }), 'logpush/unknown-field');
    assert.match(p.message, new RegExp(`did you mean "${meant}"`), dataset);
    assert.deepEqual(codes(jobText({ dataset, output_options: { field_names: [meant] } }), 'logpush-job'), [], dataset);
  }
  assert.deepEqual(fieldInfo('account_abuse_protection_events', 'EventSource')?.values, ['cdn', 'api']);
  assert.equal(fieldInfo('zaraz_events', 'Body')?.filterable, false);
  // Every list the generator wrote is a dataset's (a stray file under data/logpush-fields/ would be a list nothing reads).
  for (const name of Object.keys(FIELDS)) assert.ok(DATASETS.some((d) => d.name === name), name);
});

// The 2026-08-20 release (changelog "New Logpush datasets and updated fields"; http_requests.md at 3eaa479): AI Security, the
// attack signature fields, the TLS key exchange group, cache lock waits, matched rules and subrequests.
test('http_requests: the fields of the 2026-08-20 page are fields; its object arrays are listed, not filtered on', () => {
  const where = { and: [cmp('AISecurityInjectionScore', 'gt', 50), cmp('WAFRequestSignatureCategories', 'contains', 'sqli'),
    cmp('WAFRequestSignatureRefs', 'contains', 'r1'), cmp('ClientTLSKeyExchangeGroup', 'eq', 'X25519MLKEM768'), cmp('CacheLockWaitedMs', 'gt', 10),
    cmp('SecurityActions', 'contains', 'precursorInterstitialPageIssued'), cmp('SecuritySources', 'contains', 'precursor')] };
  assert.deepEqual(codes(filterText(where)), []);
  assert.deepEqual(codes(filterText(cmp('FirewallForAITokenCount', 'gt', 1))), ['logpush/deprecated-field']);
  for (const name of ['MatchedRules', 'Subrequests']) {
    assert.deepEqual(codes(filterText(cmp(name, 'contains', 'x'))), ['logpush/field-not-filterable'], name);
    assert.deepEqual(codes(jobText({ output_options: { field_names: ['RayID', name] } }), 'logpush-job'), [], name);
  }
  assert.ok(fieldInfo('http_requests', 'SecuritySources')?.values?.includes('precursor'));
  // The changelog adds the two signature fields to firewall_events too.
  assert.deepEqual(codes(filterText(cmp('WAFRequestSignatureRefs', 'contains', 'r1')), 'logpush-filter', fw), []);
});

// websocket_analytics is filed under both scopes, and its two pages share no field: the zone page (92eb2ea) lists BytesSentClient,
// ConnectionCloseReason, ... and the account page (7dcfdac) byteSentDownlink, connectionCloseReason, zoneId, ... Each list is its
// scope's (data/logpush-fields/zone/ and account/); where the scope is not known, either is accepted, as ZoneName is.
test('websocket_analytics: each scope\'s page is its jobs\' list; both when the scope is not known', async () => {
  const { jobScopes } = await import('../../../server/src/core/rules/logpush/job');
  const ws = { logpushDataset: 'websocket_analytics' };
  assert.ok(DATASETS.find((d) => d.name === 'websocket_analytics')?.hasFields);
  assert.deepEqual(codes(filterText({ or: [cmp('ConnectionCloseReason', 'eq', 'timedOut'), cmp('connectionCloseReason', 'eq', 'timedOut')] }), 'logpush-filter', ws), []);
  const zoneJob = jobText({ dataset: 'websocket_analytics', output_options: { field_names: ['RayID', 'BytesSentClient', 'EdgeStartTimestamp'] } });
  const accountJob = jobText({ dataset: 'websocket_analytics', output_options: { field_names: ['rayId', 'byteSentDownlink', 'timestampStartNanos'] } });
  assert.deepEqual(codes(zoneJob, 'logpush-job', { logpushScope: 'zone' }), []);
  assert.deepEqual(codes(accountJob, 'logpush-job', { logpushScope: 'account' }), []);
  assert.deepEqual(codes(zoneJob, 'logpush-job'), []);
  assert.deepEqual(codes(accountJob, 'logpush-job'), []);
  const inZone = check(accountJob, 'logpush-job', { logpushScope: 'zone' }).filter((x) => x.code === 'logpush/unknown-field');
  assert.equal(inZone.length, 3);
  assert.match(inZone[0].message, /"rayId" is a field of account-level websocket_analytics jobs only/);
  assert.equal(check(zoneJob, 'logpush-job', { logpushScope: 'account' }).filter((x) => x.code === 'logpush/unknown-field').length, 3);
  assert.deepEqual(jobScopes({ dataset: 'websocket_analytics', output_options: { field_names: ['zoneId'] } }), ['account']);
  assert.deepEqual(jobScopes({ dataset: 'websocket_analytics', output_options: { field_names: ['ConnectionID'] } }), ['zone']);
  const typo = only(check(filterText(cmp('ConnectionCloseReson', 'eq', 'x')), 'logpush-filter', ws), 'logpush/unknown-field');
  assert.match(typo.message, /did you mean .*"ConnectionCloseReason"/);
  assert.deepEqual(fieldInfo('websocket_analytics', 'ConnectionCloseSource', 'zone')?.values, ['upstream', 'downstream', 'me', 'both']);
});

test('completion offers the new values of Action in a firewall_events job', () => {
  const text = jobText({ dataset: 'firewall_events', filter: JSON.stringify({ where: cmp('Action', 'eq', '') }) });
  const at = text.indexOf('\\"\\"') + 2;
  const labels = completeJobDoc(parseDocument(text), at, DEFAULT_OPTIONS).map((e) => e.label);
  assert.ok(labels.some((l) => String(l).includes('precursorinterstitialpagesolved')), labels.join(', '));
});
