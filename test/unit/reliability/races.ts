// Concurrent migration PUTs on one zone: of N simultaneous transitions exactly one wins (2xx) and the others are refused with a
// 4xx envelope error; the status, the saved entry point (stored once per transition) and the state file agree afterwards.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startMockBackend, type MockBackend } from '../../../mock/src/backend';
import { parseState } from '../../../mock/src/state';
import { ZONES } from '../../../mock/src/zones';

const CREDS = { apiToken: 'race-token-0123456789', apiKey: 'race-key-abcdef', apiEmail: 'race@example.com' };
const TOKEN = { authorization: `Bearer ${CREDS.apiToken}` };

interface Reply { status: number; body: { success: boolean; errors: { code: number; message: string }[]; result: unknown } }

async function call(b: MockBackend, method: string, p: string, body?: unknown): Promise<Reply> {
  const res = await fetch(b.apiBaseUrl + p, {
    method, headers: { ...TOKEN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}

export function zoneId(name: string): string {
  const z = ZONES.find((x) => x.name === name);
  if (!z) throw new Error(`no zone ${name}`);
  return z.id;
}

export interface RaceOutcome { winners: number; refused: number; refusalCodes: Record<string, number> }

/** `n` simultaneous PUT …/entrypoint?waf_migration=<mode>&phase_two=1 with the zone's derived config as the body. */
export async function race(b: MockBackend, zone: string, mode: 'pending' | 'validation', n: number): Promise<RaceOutcome> {
  const id = zoneId(zone);
  const cfg = await call(b, 'GET', `/zones/${id}/waf_migration/config?phase_two=1`);
  assert.equal(cfg.status, 200, JSON.stringify(cfg.body));
  const put = `/zones/${id}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=${mode}&phase_two=1`;
  const replies = await Promise.all(Array.from({ length: n }, () => call(b, 'PUT', put, cfg.body.result)));
  const out: RaceOutcome = { winners: 0, refused: 0, refusalCodes: {} };
  for (const r of replies) {
    if (r.status >= 200 && r.status < 300) {
      assert.equal(r.body.success, true);
      out.winners++;
      continue;
    }
    assert.ok(r.status >= 400 && r.status < 500, `a refused PUT answered HTTP ${r.status}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.success, false);
    assert.ok(r.body.errors.length >= 1 && typeof r.body.errors[0].code === 'number' && r.body.errors[0].message.length > 0, JSON.stringify(r.body));
    out.refused++;
    const key = `${r.status}/${r.body.errors[0].code}`;
    out.refusalCodes[key] = (out.refusalCodes[key] ?? 0) + 1;
  }
  return out;
}

export async function status(b: MockBackend, zone: string): Promise<unknown> {
  const r = await call(b, 'GET', `/zones/${zoneId(zone)}/waf_migration/status`);
  assert.equal(r.status, 200);
  return r.body.result;
}

async function entrypointVersion(b: MockBackend, zone: string): Promise<string> {
  const r = await call(b, 'GET', `/zones/${zoneId(zone)}/rulesets/phases/http_request_firewall_managed/entrypoint`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.result as { version: string }).version;
}

/** One round on a fresh backend: a Pro zone straight to migrated, an Enterprise zone through validation. Returns a summary line. */
export async function raceRound(n: number): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-race-'));
  const file = path.join(dir, 'state.json');
  // Rate limits off: a round sends its n PUTs at once and then reads back (159 requests in one second measured at n = 50, 200 and
  // more at the stress suite's n = 200), over the platform's 200 per second per IP; the race, not the limit, is under test here.
  const b = await startMockBackend({ port: 0, stateFile: file, ...CREDS, rateLimit: false });
  try {
    const pro = await race(b, 'pro.example', 'pending', n);
    assert.deepEqual([pro.winners, pro.refused], [1, n - 1], `pro.example pending: ${JSON.stringify(pro)}`);
    assert.deepEqual(pro.refusalCodes, { '409/10505': n - 1 });
    assert.deepEqual(await status(b, 'pro.example'), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });
    assert.equal(await entrypointVersion(b, 'pro.example'), '1', 'the entry point was stored more than once');

    const val = await race(b, 'enterprise.example', 'validation', n);
    assert.deepEqual([val.winners, val.refused], [1, n - 1], `enterprise.example validation: ${JSON.stringify(val)}`);
    assert.deepEqual(val.refusalCodes, { '409/10504': n - 1 });
    assert.deepEqual(await status(b, 'enterprise.example'), { migration_state: 'validation', old_rules_enabled: true, new_rules_enabled: true });
    const fin = await race(b, 'enterprise.example', 'pending', n);
    assert.deepEqual([fin.winners, fin.refused], [1, n - 1], `enterprise.example pending: ${JSON.stringify(fin)}`);
    assert.deepEqual(fin.refusalCodes, { '409/10505': n - 1 });
    assert.deepEqual(await status(b, 'enterprise.example'), { migration_state: 'migrated', old_rules_enabled: false, new_rules_enabled: true });
    assert.equal(await entrypointVersion(b, 'enterprise.example'), '2', 'the entry point was stored other than once per transition');

    // Zones nobody touched did not move, and the file holds the same states.
    assert.equal((await status(b, 'business.example') as { migration_state: string }).migration_state, 'start');
    const disk = parseState(readFileSync(file, 'utf8'));
    assert.equal(disk.zones[zoneId('pro.example')].migration, 'migrated');
    assert.equal(disk.zones[zoneId('enterprise.example')].migration, 'migrated');
    assert.equal(disk.zones[zoneId('enterprise.example')].entrypoint?.version, '2');
    assert.equal(disk.zones[zoneId('business.example')].migration, 'start');
    return `races of ${n}: pro ${JSON.stringify(pro.refusalCodes)}, validation ${JSON.stringify(val.refusalCodes)}, pending ${JSON.stringify(fin.refusalCodes)}; one winner each`;
  } finally {
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
