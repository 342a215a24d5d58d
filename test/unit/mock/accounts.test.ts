// Account-scoped Logpush jobs: account datasets (gateway_dns, audit_logs, ...) under /accounts/<id>/logpush/jobs, zone datasets
// under /zones/<id>/logpush/jobs, and a clear refusal for either in the other's place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ACCOUNTS, zoneId } from '../../../mock/src/zones';
import { KEY, TOKEN, api, start } from './helpers';

const ACCOUNT = ACCOUNTS[0].id;
const job = (dataset: string, filter?: unknown) => ({
  name: `${dataset.replace(/_/g, '-')}-job`, dataset, destination_conf: 's3://logs/account?region=us-east-1',
  ...(filter ? { filter: JSON.stringify(filter) } : {}),
});

test('the account lists and names itself; every zone says which account it belongs to', async () => {
  const m = await start();
  try {
    const accounts = await api(m.apiBaseUrl, 'GET', '/accounts', TOKEN);
    assert.deepEqual(accounts.json.result.map((a: { id: string }) => a.id), [ACCOUNT]);
    assert.equal((await api(m.apiBaseUrl, 'GET', `/accounts/${ACCOUNT}`, KEY)).json.result.name, 'Example Account');
    const zones = await api(m.apiBaseUrl, 'GET', '/zones', TOKEN);
    assert.ok(zones.json.result.every((z: { account: { id: string } }) => z.account.id === ACCOUNT));
  } finally {
    await m.close();
  }
});

test('an account job: create, list, get, update, delete; checked by the editor\'s core against its own dataset', async () => {
  const m = await start();
  try {
    const base = `/accounts/${ACCOUNT}/logpush/jobs`;
    const made = await api(m.apiBaseUrl, 'POST', base, KEY, job('gateway_dns', { where: { key: 'QueryName', operator: 'endsWith', value: '.example' } }));
    assert.equal(made.status, 200, JSON.stringify(made.json));
    const id = made.json.result.id;
    assert.deepEqual((await api(m.apiBaseUrl, 'GET', base, KEY)).json.result.map((j: { id: number }) => j.id), [id]);
    assert.equal((await api(m.apiBaseUrl, 'GET', `${base}/${id}`, KEY)).json.result.dataset, 'gateway_dns');
    assert.equal((await api(m.apiBaseUrl, 'PUT', `${base}/${id}`, KEY, { enabled: true })).json.result.enabled, true);
    assert.equal((await api(m.apiBaseUrl, 'DELETE', `${base}/${id}`, KEY)).status, 200);
    assert.equal((await api(m.apiBaseUrl, 'GET', `${base}/${id}`, KEY)).status, 404);
    // The Terraform provider's example: gateway_dns filtering on http_requests fields.
    const foreign = await api(m.apiBaseUrl, 'POST', base, KEY, job('gateway_dns', { where: { key: 'ClientRequestPath', operator: 'contains', value: '/x' } }));
    assert.equal(foreign.status, 400);
    assert.match(foreign.json.errors[0].message, /Unknown field "ClientRequestPath"/);
  } finally {
    await m.close();
  }
});

test('a zone dataset in an account job, and an account dataset in a zone job, are refused with where to create them', async () => {
  const m = await start();
  try {
    const inAccount = await api(m.apiBaseUrl, 'POST', `/accounts/${ACCOUNT}/logpush/jobs`, KEY, job('http_requests'));
    assert.equal(inAccount.status, 400);
    assert.match(inAccount.json.errors[0].message, /"http_requests" is a zone dataset; create its job under \/zones\/<zone_id>\/logpush\/jobs, not under account "Example Account"/);
    const inZone = await api(m.apiBaseUrl, 'POST', `/zones/${zoneId('pro.example')}/logpush/jobs`, KEY, job('audit_logs'));
    assert.equal(inZone.status, 400);
    assert.match(inZone.json.errors[0].message, /"audit_logs" is an account dataset; create its job under \/accounts\/<account_id>\/logpush\/jobs, not under zone "pro.example"/);
  } finally {
    await m.close();
  }
});

test('account jobs survive a restart on the state file; an older state file without accounts still loads', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-accounts-'));
  const stateFile = path.join(dir, 'state.json');
  let m = await start({ stateFile });
  const made = await api(m.apiBaseUrl, 'POST', `/accounts/${ACCOUNT}/logpush/jobs`, KEY, job('audit_logs'));
  await m.close();
  m = await start({ stateFile });
  try {
    assert.deepEqual((await api(m.apiBaseUrl, 'GET', `/accounts/${ACCOUNT}/logpush/jobs`, KEY)).json.result.map((j: { id: number }) => j.id), [made.json.result.id]);
  } finally {
    await m.close();
  }
  const old = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  delete old.accounts;
  fs.writeFileSync(stateFile, JSON.stringify(old));
  m = await start({ stateFile });
  try {
    assert.deepEqual((await api(m.apiBaseUrl, 'GET', `/accounts/${ACCOUNT}/logpush/jobs`, KEY)).json.result, []);
  } finally {
    await m.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a dataset known by name only is placed by its docs scope: mnm_flow_logs under a zone is refused', async () => {
  const m = await start();
  try {
    const inZone = await api(m.apiBaseUrl, 'POST', `/zones/${zoneId('pro.example')}/logpush/jobs`, KEY, job('mnm_flow_logs'));
    assert.equal(inZone.status, 400, JSON.stringify(inZone.json));
    assert.match(inZone.json.errors[0].message, /"mnm_flow_logs" is an account dataset/);
    const inAccount = await api(m.apiBaseUrl, 'POST', `/accounts/${ACCOUNT}/logpush/jobs`, KEY, job('mnm_flow_logs'));
    assert.equal(inAccount.status, 200, JSON.stringify(inAccount.json));
  } finally {
    await m.close();
  }
});

// The docs file firewall_events under both scopes (logs/logpush/logpush-job/datasets/account/firewall_events.md beside zone/; the
// account page adds ZoneName): the mock refused an account's firewall_events job as "a zone dataset".
test('a dataset the docs file under both scopes (firewall_events, websocket_analytics) is taken under a zone and under the account', async () => {
  const m = await start();
  try {
    for (const dataset of ['firewall_events', 'websocket_analytics']) {
      const inAccount = await api(m.apiBaseUrl, 'POST', `/accounts/${ACCOUNT}/logpush/jobs`, KEY, job(dataset));
      assert.equal(inAccount.status, 200, `${dataset}: ${JSON.stringify(inAccount.json)}`);
      const inZone = await api(m.apiBaseUrl, 'POST', `/zones/${zoneId('pro.example')}/logpush/jobs`, KEY, job(dataset));
      assert.equal(inZone.status, 200, `${dataset}: ${JSON.stringify(inZone.json)}`);
    }
  } finally {
    await m.close();
  }
});

// A job without "dataset" is an http_requests job (the platform's default): under an account the refusal named "Dataset
// "http_requests"" as if the body had given it.
test('an account job without a dataset is refused saying that the default, http_requests, is a zone dataset, and to name one', async () => {
  const m = await start();
  try {
    const { dataset: _omitted, ...body } = job('gateway_dns');
    const r = await api(m.apiBaseUrl, 'POST', `/accounts/${ACCOUNT}/logpush/jobs`, KEY, body);
    assert.equal(r.status, 400);
    assert.match(r.json.errors[0].message, /no "dataset", so it is an http_requests job, a zone dataset's; name the account dataset to push \(gateway_dns, audit_logs, \.\.\.\)/);
  } finally {
    await m.close();
  }
});

// firewall_events' account page lists ZoneName, its zone page does not: the mock checked every job against one list, so an
// account job's ZoneName was refused as an unknown field (and a zone job's would pass if the list had it).
test('firewall_events: ZoneName is taken in an account job and refused in a zone job; each place lists its own fields', async () => {
  const m = await start();
  try {
    const body = { ...job('firewall_events', { where: { key: 'ZoneName', operator: 'eq', value: 'pro.example' } }), output_options: { field_names: ['RayID', 'ZoneName'] } };
    const inAccount = await api(m.apiBaseUrl, 'POST', `/accounts/${ACCOUNT}/logpush/jobs`, KEY, body);
    assert.equal(inAccount.status, 200, JSON.stringify(inAccount.json));
    const zone = zoneId('pro.example');
    const inZone = await api(m.apiBaseUrl, 'POST', `/zones/${zone}/logpush/jobs`, KEY, body);
    assert.equal(inZone.status, 400);
    assert.match(inZone.json.errors[0].message, /"ZoneName" is a field of account-level firewall_events jobs only; this job is a zone's/);
    const fields = async (base: string) => Object.keys((await api(m.apiBaseUrl, 'GET', `${base}/logpush/datasets/firewall_events/fields`, KEY)).json.result);
    assert.ok((await fields(`/accounts/${ACCOUNT}`)).includes('ZoneName'));
    assert.ok(!(await fields(`/zones/${zone}`)).includes('ZoneName'));
    assert.ok((await fields(`/zones/${zone}`)).includes('RayID'));
  } finally {
    await m.close();
  }
});

// validate/origin checked logpull_options against http_requests when the body named no dataset, under an account too, where
// http_requests is no dataset at all: "fields=QueryName" of a gateway_dns job was "Unknown field". The API's body has
// logpull_options only, and the platform's answer for an account is not documented: the mock says what it needs.
test('validate/origin under an account: without a dataset it asks for one; a zone dataset is refused; the account\'s fields count', async () => {
  const m = await start();
  try {
    const base = `/accounts/${ACCOUNT}/logpush/validate/origin`;
    const none = await api(m.apiBaseUrl, 'POST', base, KEY, { logpull_options: 'fields=QueryName&timestamps=rfc3339' });
    assert.equal(none.status, 400);
    assert.match(none.json.errors[0].message, /no "dataset".*http_requests.*zone dataset.*name the account dataset/);
    const zoneDataset = await api(m.apiBaseUrl, 'POST', base, KEY, { dataset: 'dns_logs', logpull_options: 'fields=QueryName' });
    assert.equal(zoneDataset.status, 400);
    assert.match(zoneDataset.json.errors[0].message, /Dataset "dns_logs" is a zone dataset/);
    const dns = await api(m.apiBaseUrl, 'POST', base, KEY, { dataset: 'gateway_dns', logpull_options: 'fields=QueryName&timestamps=rfc3339' });
    assert.deepEqual(dns.json.result, { valid: true, message: '' });
    const fw = await api(m.apiBaseUrl, 'POST', base, KEY, { dataset: 'firewall_events', logpull_options: 'fields=RayID,ZoneName' });
    assert.deepEqual(fw.json.result, { valid: true, message: '' });
    const fwZone = await api(m.apiBaseUrl, 'POST', `/zones/${zoneId('pro.example')}/logpush/validate/origin`, KEY, { dataset: 'firewall_events', logpull_options: 'fields=RayID,ZoneName' });
    assert.equal(fwZone.json.result.valid, false);
    assert.match(fwZone.json.result.message, /"ZoneName" is a field of account-level firewall_events jobs only; this job is a zone's/);
    // A zone without a dataset is the default's, http_requests, as before.
    const zone = await api(m.apiBaseUrl, 'POST', `/zones/${zoneId('pro.example')}/logpush/validate/origin`, KEY, { logpull_options: 'fields=ClientIP' });
    assert.deepEqual(zone.json.result, { valid: true, message: '' });
  } finally {
    await m.close();
  }
});
