// Load on the mock backend from a second process: the mock runs as a child (`bin.ts --state`), autocannon runs here and cycles
// every connection through a mix of valid gateway calls (single and batch) and valid management API reads with the credentials
// the mock printed. Every response body is checked, not only its status.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import autocannonModule from 'autocannon';
import { startMockChild, type MockChild } from './child';

interface AcRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  onResponse?: (status: number, body: string) => void;
}
interface AcOptions {
  url: string;
  connections: number;
  duration: number;
  /** Requests in all, when set: duration is ignored, and the run ends when they are answered, however long that takes. */
  amount?: number;
  timeout: number;
  requests: AcRequest[];
}
interface AcResult {
  /** Seconds the run took. */
  duration: number;
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
  resets: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}
// The package ships no types; bench/autocannon.d.ts declares the part the bench uses, this is the part used here.
const autocannon = autocannonModule as unknown as (opts: AcOptions) => Promise<AcResult>;

export interface LoadFigures {
  connections: number;
  durationS: number;
  requests: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  maxMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  /** Responses whose body was not the expected success (a JSON-RPC error, an envelope with success false, unparsable). */
  badBodies: number;
  firstBadBody?: string;
  statusCodes: Record<string, number>;
  /** Responses seen per kind of request. */
  perKind: Record<string, number>;
}

type Json = Record<string, unknown>;

function rpcOk(body: string): boolean {
  const v = JSON.parse(body) as Json | Json[];
  const all = Array.isArray(v) ? v : [v];
  return all.length > 0 && all.every((m) => m.jsonrpc === '2.0' && 'result' in m && !('error' in m));
}

function envelopeOk(body: string): boolean {
  const v = JSON.parse(body) as Json;
  return v.success === true && Array.isArray(v.errors) && v.errors.length === 0 && v.result !== undefined;
}

/** The mix: name, request, body check. Ranges are inside the gateway limits (800 blocks, count 200). */
export function mix(m: MockChild, zoneId: string, head: number): { name: string; req: AcRequest; check: (body: string) => boolean }[] {
  const json = { 'content-type': 'application/json' };
  const gw = new URL(m.gatewayUrl).pathname;
  const api = new URL(m.apiBaseUrl).pathname;
  const hex = (n: number) => '0x' + n.toString(16);
  const call = (method: string, params: unknown[], id: number) => ({ jsonrpc: '2.0', id, method, params });
  const rpc = (name: string, body: unknown) => ({ name, req: { method: 'POST' as const, path: gw, headers: json, body: JSON.stringify(body) }, check: rpcOk });
  const get = (name: string, p: string, headers: Record<string, string>) => ({ name, req: { method: 'GET' as const, path: api + p, headers }, check: envelopeOk });
  const token = { authorization: `Bearer ${m.apiToken}` };
  const key = { 'x-auth-key': m.apiKey, 'x-auth-email': m.apiEmail };
  return [
    rpc('eth_blockNumber', call('eth_blockNumber', [], 1)),
    rpc('eth_getBlockByNumber', call('eth_getBlockByNumber', [hex(head - 3), true], 2)),
    rpc('eth_getLogs', call('eth_getLogs', [{ fromBlock: hex(head - 40), toBlock: hex(head - 30) }], 3)),
    rpc('trace_filter', call('trace_filter', [{ fromBlock: hex(head - 100), toBlock: hex(head - 80), after: 0, count: 20 }], 4)),
    rpc('batch', [call('eth_chainId', [], 10), call('eth_getBlockByNumber', ['latest', false], 11), call('eth_getBalance', ['0x' + '11'.repeat(20), 'latest'], 12)]),
    get('GET /zones', '/zones', token),
    get('GET /zones (key)', '/zones', key),
    get('GET migration status', `/zones/${zoneId}/waf_migration/status`, token),
    get('GET Logpush jobs', `/zones/${zoneId}/logpush/jobs`, key),
  ];
}

/** Start the mock in a child, probe every request of the mix once, then load it; the child is stopped afterwards. */
/**
 * With `amount`, the load is that many requests, however long they take (the CI's system test: every connection goes through the
 * whole mix on a busy machine too); else `durationS` seconds of it (the stress test).
 */
export async function runLoad(opts: { connections: number; durationS: number } | { connections: number; amount: number }): Promise<LoadFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-load-'));
  // Rate limits off: 100 connections in a loop send thousands of API requests a second, far over the platform's 200 per second per
  // IP and 1200 per 5 minutes per user; the load test measures errors and timeouts under load, where a 429 would be a false failure.
  const m = await startMockChild(path.join(dir, 'state.json'), undefined, ['--rate-limit', 'off']);
  try {
    const zones = (await (await fetch(m.apiBaseUrl + '/zones', { headers: { authorization: `Bearer ${m.apiToken}` } })).json()) as { result: { id: string; name: string }[] };
    const zoneId = zones.result.find((z) => z.name === 'pro.example')?.id;
    if (!zoneId) throw new Error('GET /zones did not list pro.example');
    const headReply = (await (await fetch(m.gatewayUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) })).json()) as { result: string };
    const items = mix(m, zoneId, Number.parseInt(headReply.result, 16));
    // Each request is valid on its own: a probe that fails here is a broken test, not a load problem.
    for (const it of items) {
      const res = await fetch(m.url + it.req.path, { method: it.req.method, headers: it.req.headers, body: it.req.body });
      const text = await res.text();
      if (res.status !== 200 || !it.check(text)) throw new Error(`probe ${it.name} answered ${res.status}: ${text.slice(0, 300)}`);
    }
    const perKind: Record<string, number> = {};
    let badBodies = 0;
    let firstBadBody: string | undefined;
    const requests = items.map((it) => ({
      ...it.req,
      onResponse: (status: number, body: string) => {
        perKind[it.name] = (perKind[it.name] ?? 0) + 1;
        let good = false;
        try { good = status >= 200 && status < 300 && it.check(body); } catch { good = false; }
        if (!good) {
          badBodies++;
          firstBadBody ??= `${it.name}: HTTP ${status} ${body.slice(0, 300)}`;
        }
      },
    }));
    const r = await autocannon({ url: m.url, connections: opts.connections, duration: 'amount' in opts ? 0 : opts.durationS, ...('amount' in opts ? { amount: opts.amount } : {}), timeout: 10, requests });
    if (m.child.exitCode !== null || m.child.signalCode !== null) throw new Error(`the mock exited during the load: ${m.stderr()}`);
    const statusCodes: Record<string, number> = {};
    for (const [code, s] of Object.entries(r.statusCodeStats)) statusCodes[code] = s.count;
    return {
      connections: opts.connections, durationS: 'amount' in opts ? Math.round(r.duration * 100) / 100 : opts.durationS, requests: r['2xx'] + r.non2xx, reqPerSec: r.requests.average,
      p50: r.latency.p50, p99: r.latency.p99, maxMs: r.latency.max, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx,
      resets: r.resets, badBodies, firstBadBody, statusCodes, perKind,
    };
  } finally {
    const how = await m.stop();
    rmSync(dir, { recursive: true, force: true });
    if (how !== 0) throw new Error(`the mock did not stop cleanly after the load (${String(how)}): ${m.stderr()}`);
  }
}

export function describeLoad(f: LoadFigures): string {
  return `load: ${f.requests} requests in ${f.durationS} s over ${f.connections} connections, ${f.reqPerSec.toFixed(0)} req/s, ` +
    `latency p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.maxMs} ms; errors ${f.errors}, timeouts ${f.timeouts}, non-2xx ${f.non2xx}, ` +
    `bad bodies ${f.badBodies}; status codes ${JSON.stringify(f.statusCodes)}`;
}

/** The load properties of issue 8: no error, no timeout, only 200s with success bodies, every kind of request served. */
export function assertLoad(f: LoadFigures): void {
  assert.equal(f.errors, 0, `connection errors under load: ${describeLoad(f)}`);
  assert.equal(f.timeouts, 0, `timeouts under load: ${describeLoad(f)}`);
  assert.equal(f.non2xx, 0, `non-2xx responses under load: ${describeLoad(f)}`);
  assert.equal(f.badBodies, 0, `${f.badBodies} responses were not a success: ${f.firstBadBody}`);
  assert.ok(f.requests > f.connections, `too few requests completed: ${describeLoad(f)}`);
  assert.deepEqual(Object.keys(f.statusCodes), ['200'], `status codes: ${JSON.stringify(f.statusCodes)}`);
  // Every kind of the mix was served (autocannon cycles each connection through all of them).
  assert.equal(Object.keys(f.perKind).length, 9, `kinds served: ${JSON.stringify(f.perKind)}`);
}
