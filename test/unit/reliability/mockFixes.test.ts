// Fixes to the mock backend that the reliability tests led to, each pinned by a focused test:
// - Node checks header/request timeouts only every connectionsCheckingInterval (30 s by default): a slow client outlived its timeout.
// - Temp files left by a writer killed with SIGKILL piled up next to the state file; the next start removes them.
// - A client that disconnects mid-body was logged as an internal error of the mock (and answered with a 500 nobody reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startMockBackend } from '../../../mock/src/backend';
import { StateStore } from '../../../mock/src/state';

test('a slow client is dropped within its header timeout, not after Node\'s 30 s check interval', { timeout: 20_000 }, async () => {
  const b = await startMockBackend({ port: 0, headersTimeoutMs: 400, requestTimeoutMs: 800 });
  try {
    const t0 = Date.now();
    const s = net.connect(Number(new URL(b.url).port), '127.0.0.1');
    let got = '';
    s.on('data', (d: Buffer) => { got += d.toString(); });
    const msg = 'GET /client/v4/zones HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
    let i = 0;
    const drip = setInterval(() => { if (s.writable) s.write(i < msg.length ? msg[i++] : 'a'); }, 40);
    const closedAfter = await new Promise<number>((resolve) => {
      const giveUp = setTimeout(() => { s.destroy(); resolve(Infinity); }, 10_000);
      s.on('close', () => { clearTimeout(giveUp); resolve(Date.now() - t0); });
      s.on('error', () => undefined);
    });
    clearInterval(drip);
    assert.ok(closedAfter < 3_000, `the slow client was dropped only after ${closedAfter} ms`);
    assert.match(got, /^HTTP\/1\.1 408 /);
  } finally {
    await b.close();
  }
});

test('starting on a state file removes temp files of dead writers and keeps those of live ones', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-stale-'));
  try {
    const file = path.join(dir, 'state.json');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    assert.ok(Number.isInteger(deadPid) && deadPid > 0);
    const stale = `.state.json.${deadPid}.0123456789ab.tmp`;
    const live = `.state.json.${process.ppid}.ba9876543210.tmp`;
    const other = `.other.json.${deadPid}.0123456789ab.tmp`;
    for (const f of [stale, live, other]) writeFileSync(path.join(dir, f), '{"half": ');
    await StateStore.open(file);
    assert.ok(!existsSync(path.join(dir, stale)), 'the dead writer\'s temp file is still there');
    assert.deepEqual(readdirSync(dir).sort(), [live, other, 'state.json'].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a client that disconnects mid-body is not an internal error, and the server keeps answering', { timeout: 10_000 }, async () => {
  const logs: string[] = [];
  let logged: () => void = () => undefined;
  const line = new Promise<void>((resolve) => { logged = resolve; });
  const b = await startMockBackend({ port: 0, log: (l) => { logs.push(l); logged(); } });
  try {
    // "Expect: 100-continue": Node's server answers "100 Continue" as it hands the request to the mock's handler, so the client's
    // 'continue' event says the mock is reading the body.
    const req = http.request(b.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000', expect: '100-continue' } });
    req.on('error', () => undefined);
    await new Promise<void>((resolve) => req.on('continue', resolve));
    await new Promise<void>((resolve) => req.write('{"jsonrpc":"2.0","id":1,', () => resolve()));
    req.destroy();
    await line;
    assert.deepEqual(logs, ['Client closed the connection during POST /v1/mainnet']);
    const res = await fetch(b.gatewayUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
    assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 1, result: '0x1' });
  } finally {
    await b.close();
  }
});
