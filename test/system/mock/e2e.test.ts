// End to end: `edgekit mock` as its own process (mock/src/bin.ts through tsx), driven over real HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import { CREDS, KEY, TOKEN, api, post, rpc } from '../../unit/mock/helpers';
import type { Json } from '../../unit/mock/helpers';
import { zoneId } from '../../../mock/src/zones';

const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'mock/src/bin.ts');

interface Running { child: ChildProcess; gateway: string; apiBase: string; stdout: () => string }

/** Start the mock and wait for the line that carries the API base (no sleeps). */
async function launch(stateFile: string, env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, '--port', '0', '--state', stateFile], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const urls = await new Promise<{ gateway: string; apiBase: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock did not start in time; stdout: ${out}; stderr: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const g = /^Gateway URL: (\S+)$/m.exec(out);
      const a = /^API base: (\S+)$/m.exec(out);
      if (g && a) {
        clearTimeout(timer);
        resolve({ gateway: g[1], apiBase: a[1] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mock exited with ${code}; stderr: ${err}`));
    });
  });
  return { child, ...urls, stdout: () => out };
}

/** Stops the mock; resolves with its exit code once its output is read to the end ('close': at 'exit' the pipes may still hold
 * the last lines, "Mock backend stopped." among them). */
async function stop(r: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (r.child.exitCode !== null) return r.child.exitCode;
  const exited = once(r.child, 'close');
  r.child.kill(signal);
  const [code] = await exited;
  return code as number | null;
}

test('edgekit mock end to end: gateway, Logpush, migrations, refusals, restart', async (t) => {
  const state = path.join(mkdtempSync(path.join(tmpdir(), 'edgekit-mock-e2e-')), 'state.json');
  const env = { EDGEKIT_MOCK_API_TOKEN: CREDS.apiToken, EDGEKIT_MOCK_API_KEY: CREDS.apiKey, EDGEKIT_MOCK_API_EMAIL: CREDS.apiEmail };
  let run = await launch(state, env);
  t.after(() => stop(run, 'SIGKILL'));
  assert.match(run.gateway, /^http:\/\/127\.0\.0\.1:\d+\/v1\/mainnet$/);
  assert.match(run.apiBase, /^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
  assert.ok(!run.stdout().includes(CREDS.apiToken), 'given credentials are not printed');

  // Gateway
  const head = (await rpc(run.gateway, 'eth_blockNumber')).json.result;
  const block = (await rpc(run.gateway, 'eth_getBlockByNumber', [head, false])).json.result;
  assert.equal((await rpc(run.gateway, 'eth_getBlockByHash', [block.hash, false])).json.result.number, head);
  const batch = await post(run.gateway, [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'net_version' }]);
  assert.deepEqual(batch.json.map((r: Json) => r.result), ['0x1', '1']);
  const traces = await rpc(run.gateway, 'trace_filter', [{ fromBlock: '0x200', toBlock: '0x210', count: 5 }]);
  assert.equal(traces.json.result.length, 5);
  const refused = await rpc(run.gateway, 'eth_sendTransaction', [{}]);
  assert.equal(refused.status, 403);

  // Logpush
  const jobs = `/zones/${zoneId('pro.example')}/logpush/jobs`;
  const job = {
    name: 'e2e', dataset: 'http_requests', destination_conf: 's3://logs/e2e?region=eu-west-1', logpull_options: 'fields=ClientIP&timestamps=rfc3339',
    filter: JSON.stringify({ where: { key: 'ClientRequestHost', operator: 'eq', value: 'pro.example' } }),
  };
  const created = await api(run.apiBase, 'POST', jobs, KEY, job);
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const jid = created.json.result.id;
  assert.deepEqual((await api(run.apiBase, 'GET', jobs, KEY)).json.result.map((j: Json) => j.id), [jid]);
  assert.equal((await api(run.apiBase, 'GET', `${jobs}/${jid}`, KEY)).json.result.name, 'e2e');
  assert.equal((await api(run.apiBase, 'DELETE', `${jobs}/${jid}`, KEY)).json.success, true);
  assert.deepEqual((await api(run.apiBase, 'GET', jobs, KEY)).json.result, []);

  // Refusals: bad token, too-many-rules zone
  const bad = await api(run.apiBase, 'GET', `/zones/${zoneId('pro.example')}/waf_migration/status`, { authorization: 'Bearer nope' });
  assert.equal(bad.status, 403);
  assert.equal(bad.json.success, false);
  const put = (zone: string, mode: string, body: unknown) =>
    api(run.apiBase, 'PUT', `/zones/${zoneId(zone)}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1`, TOKEN, body);
  const config = async (zone: string) => (await api(run.apiBase, 'GET', `/zones/${zoneId(zone)}/waf_migration/config?phase_two=1`, TOKEN)).json.result;
  const status = async (zone: string) => (await api(run.apiBase, 'GET', `/zones/${zoneId(zone)}/waf_migration/status`, TOKEN)).json.result;
  const check = async (zone: string) => (await api(run.apiBase, 'GET', `/zones/${zoneId(zone)}/waf_migration/check?phase_two=1`, TOKEN)).json.result;
  assert.equal((await check('too-many-rules.example')).compatible, false);
  const tooMany = await put('too-many-rules.example', 'pending', await config('too-many-rules.example'));
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.json.errors[0].message, /firewall rules/);

  // Pro zone: check, config, pending
  assert.deepEqual(await check('pro.example'), { compatible: true, migration_state: 'start' });
  assert.equal((await put('pro.example', 'pending', await config('pro.example'))).status, 200);
  assert.deepEqual(await status('pro.example'), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });

  // Enterprise zone: validation, then pending (validation body without id/version/ref)
  const entCfg = await config('enterprise.example');
  const validationBody = { ...entCfg, rules: entCfg.rules.map(({ id: _i, version: _v, ref: _r, ...rest }: Json) => rest) };
  assert.equal((await put('enterprise.example', 'validation', validationBody)).status, 200);
  assert.equal((await status('enterprise.example')).migration_state, 'validation');

  // State survives a clean restart and a kill -9
  assert.equal(await stop(run, 'SIGTERM'), 0);
  assert.match(run.stdout(), /Mock backend stopped\./);
  run = await launch(state, env);
  assert.equal((await status('enterprise.example')).migration_state, 'validation');
  assert.equal((await put('enterprise.example', 'pending', entCfg)).status, 200);
  await stop(run, 'SIGKILL');
  run = await launch(state, env);
  assert.equal((await status('enterprise.example')).migration_state, 'migrated');
  assert.equal((await status('pro.example')).migration_state, 'migrated');
  assert.equal(await stop(run, 'SIGINT'), 0);
});

test('edgekit mock prints generated credentials once when none are given', async (t) => {
  const state = path.join(mkdtempSync(path.join(tmpdir(), 'edgekit-mock-e2e-')), 'state.json');
  const env: NodeJS.ProcessEnv = { EDGEKIT_MOCK_API_TOKEN: '', EDGEKIT_MOCK_API_KEY: '', EDGEKIT_MOCK_API_EMAIL: '' };
  const run = await launch(state, env);
  t.after(() => stop(run, 'SIGKILL'));
  const token = /^API token \(generated\): (\S+)$/m.exec(run.stdout())?.[1];
  assert.ok(token);
  const r = await api(run.apiBase, 'GET', '/zones', { authorization: `Bearer ${token}` });
  assert.equal(r.status, 200);
  assert.equal(await stop(run), 0);
});
