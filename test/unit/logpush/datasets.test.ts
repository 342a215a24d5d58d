// Every dataset has its field catalogue and a pair of golden cases (test/fixtures/logpush-job/dataset-<name>-*.json): a filter on
// its own fields that gets no problem, and the same filter with another dataset's field that gets exactly one unknown-field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DATASETS, datasetFields, datasetScopes } from '../../../server/src/core/rules/logpush/catalogue';
import { DATASETS as TABLE_DATASETS } from '../../../server/src/core/rules/logpush/catalogue.data';

const FIXTURES = path.resolve(__dirname, '../../fixtures/logpush-job');

// The 22 datasets of the reference's table (the generated data); the newer names known only by name keep logpush/no-field-catalogue.
const TABLE = DATASETS.filter((d) => TABLE_DATASETS.some((t) => t.name === d.name));

test('every dataset of the reference table has a field catalogue', () => {
  assert.equal(TABLE.length, 22);
  assert.deepEqual(TABLE.filter((d) => !d.hasFields).map((d) => d.name), []);
  for (const d of TABLE) assert.ok((datasetFields(d.name) ?? []).length > 0, d.name);
});

test('each dataset has its golden pair: a clean filter, and one foreign field reported once', () => {
  for (const d of TABLE) {
    const base = path.join(FIXTURES, `dataset-${d.name.replace(/_/g, '-')}`);
    assert.equal(fs.readFileSync(`${base}-valid.expected.txt`, 'utf8').trim(), '', `${d.name}: the valid filter is clean`);
    const bad = fs.readFileSync(`${base}-misused-field.expected.txt`, 'utf8').trim().split('\n');
    assert.equal(bad.length, 1, `${d.name}: ${bad.join(' | ')}`);
    assert.match(bad[0], /error logpush\/unknown-field Unknown field/);
  }
});

// The docs file each dataset under logs/logpush/logpush-job/datasets/account/ or .../zone/ (cloudflare-docs); the API's dataset
// enum (cloudflare SDK 7.3.0, logpush/jobs.d.ts; ipsec_logs is also in reference/logpush.md) adds three names the catalogue lacked.
// A dataset known by name only still needs its scope: "Create Logpush Job" and the mock put its job under a zone or an account by it.
test('datasets known by name only: the API\'s names, each with the scope the docs file it under', () => {
  const scope = (name: string) => DATASETS.find((d) => d.name === name)?.scope;
  for (const name of ['ipsec_logs', 'magic_bgp_logs']) assert.equal(scope(name), 'account', name);
  assert.equal(scope('account_abuse_protection_events'), 'zone');
  for (const name of ['audit_logs_v2', 'dex_application_tests', 'dex_device_state_events', 'dlp_forensic_copies', 'email_security_post_delivery_events',
    'mcp_portal_logs', 'mnm_flow_logs', 'turnstile_events', 'warp_config_changes', 'warp_toggle_changes']) assert.equal(scope(name), 'account', name);
  assert.equal(scope('zaraz_events'), 'zone');
  assert.equal(scope('websocket_analytics'), ''); // filed under both
});

// The account datasets' descriptions end their "a|b|c" list with the sentence's full stop ("login|logout.", "tcp|quic|udp. Use
// TransportProtocol."): completion offered "logout." and "udp. Use TransportProtocol." as values no log line holds.
test('the values a field description lists are the values, without the sentence around them', () => {
  const values = (dataset: string, field: string) => datasetFields(dataset)?.find((f) => f.name === field)?.values;
  assert.deepEqual(values('access_requests', 'Action'), ['login', 'logout']);
  assert.deepEqual(values('gateway_network', 'Transport'), ['tcp', 'quic', 'udp']);
  assert.deepEqual(values('zero_trust_network_sessions', 'Protocol'), ['TCP', 'UDP', 'ICMP', 'ICMPV6']);
  // A dot inside a value stays (TLS versions)
  assert.deepEqual(values('spectrum_events', 'ClientTlsProtocol'), ['unknown', 'none', 'SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']);
  for (const d of DATASETS) {
    for (const f of datasetFields(d.name) ?? []) {
      for (const v of f.values ?? []) assert.match(v, /^[\w-]+(?:[. ][\w-]+)*$/, `${d.name}.${f.name}: ${JSON.stringify(v)}`);
    }
  }
});

// cloudflare-docs logs/logpush/logpush-job/datasets/: firewall_events and websocket_analytics have a page under account/ and under zone/.
test('the scopes a dataset\'s job may be created under: both for the datasets the docs file under both', () => {
  assert.deepEqual(datasetScopes('firewall_events'), ['zone', 'account']);
  assert.deepEqual(datasetScopes('websocket_analytics'), ['zone', 'account']);
  assert.deepEqual(datasetScopes('http_requests'), ['zone']);
  assert.deepEqual(datasetScopes('gateway_dns'), ['account']);
  assert.deepEqual(datasetScopes('workers_trace_events'), ['account']);
  assert.deepEqual(datasetScopes('no_such_logs'), []);
});
