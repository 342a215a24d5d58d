// Bad clients against the mock backend while a well-behaved client keeps checking answers in parallel: oversized bodies (declared
// and streamed), slow clients that never finish their headers, malformed HTTP on a raw socket, invalid JSON, and clients that hang
// up mid-body. Each must be refused the documented way, and the good client must never see a wrong answer or a 5xx.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { BODY_LIMIT, startMockBackend, type MockBackend } from '../../../mock/src/backend';

const CREDS = { apiToken: 'bad-clients-token-0123', apiKey: 'bad-clients-key-abcdef', apiEmail: 'bad@example.com' };
const KEY = { 'x-auth-key': CREDS.apiKey, 'x-auth-email': CREDS.apiEmail };

export interface BadClientFigures {
  badClients: Record<string, number>;
  goodRequests: number;
  goodFailures: string[];
  goodMaxMs: number;
  slowDroppedAfterMs: number[];
  serverErrors: string[];
}

/** Declares a body over the limit (fetch sends its Content-Length): refused with 413, the body never read. */
async function oversizedDeclared(b: MockBackend): Promise<void> {
  const res = await fetch(b.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[' + ' '.repeat(BODY_LIMIT * 2) + ']' });
  const text = await res.text();
  assert.equal(res.status, 413, text);
  const body = JSON.parse(text) as { error: { code: number; message: string } };
  assert.equal(body.error.code, -32600);
  assert.match(body.error.message, /over the \d+-byte limit/);
}

/** Streams a chunked body without a length past the limit: refused with 413 once it crosses the limit. */
async function oversizedStreamed(b: MockBackend): Promise<void> {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x78);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent > BODY_LIMIT * 4) return c.close();
      sent += chunk.length;
      c.enqueue(chunk);
      return undefined;
    },
  });
  const res = await fetch(`${b.apiBaseUrl}/zones/${'0'.repeat(32)}/logpush/jobs`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...KEY }, body: stream, duplex: 'half',
  } as RequestInit & { duplex: 'half' });
  const body = (await res.json()) as { success: boolean; errors: { code: number }[] };
  assert.equal(res.status, 413, JSON.stringify(body));
  assert.equal(body.success, false);
  assert.equal(body.errors[0].code, 10013);
}

/** Sends its headers one byte at a time and never finishes: the server must answer 408 and close within its timeouts. */
async function slowClient(b: MockBackend, boundMs: number): Promise<number> {
  const s = net.connect(Number(new URL(b.url).port), '127.0.0.1');
  const t0 = Date.now();
  let got = '';
  s.setEncoding('utf8');
  s.on('data', (d: string) => { got += d; });
  s.on('error', () => undefined);
  const msg = `POST /v1/mainnet HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Never-Ends: `;
  let i = 0;
  const drip = setInterval(() => { if (s.writable) s.write(i < msg.length ? msg[i++] : 'z'); }, 25);
  const after = await new Promise<number>((resolve) => {
    const giveUp = setTimeout(() => { s.destroy(); resolve(Infinity); }, boundMs);
    s.on('close', () => { clearTimeout(giveUp); resolve(Date.now() - t0); });
  });
  clearInterval(drip);
  assert.ok(after < boundMs, `a slow client was still connected after ${boundMs} ms`);
  assert.match(got, /^HTTP\/1\.1 408 /, `the slow client got ${JSON.stringify(got.slice(0, 80))}`);
  return after;
}

/** Garbage on a raw socket: 400 and the connection closed. */
async function malformed(b: MockBackend, garbage: Buffer): Promise<void> {
  const s = net.connect(Number(new URL(b.url).port), '127.0.0.1');
  let got = '';
  s.setEncoding('latin1');
  s.on('data', (d: string) => { got += d; });
  s.on('error', () => undefined);
  s.write(garbage);
  const closed = await new Promise<boolean>((resolve) => {
    const giveUp = setTimeout(() => { s.destroy(); resolve(false); }, 5_000);
    s.on('close', () => { clearTimeout(giveUp); resolve(true); });
  });
  assert.ok(closed, `the server kept a connection open after ${JSON.stringify(garbage.toString('latin1').slice(0, 40))}`);
  assert.match(got, /^HTTP\/1\.1 400 /, `malformed HTTP got ${JSON.stringify(got.slice(0, 80))}`);
}

const GARBAGE = [
  Buffer.from('HELLO THERE\r\n\r\n'),
  Buffer.from('POST /v1/mainnet HTTP/9.9\r\nHost: x\r\n\r\n'),
  Buffer.from('GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde'),
  Buffer.from('POST /v1/mainnet HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nnot hex\r\n\r\n'),
  Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0x00, 0xff, 0x0d, 0x0a, 0x0d, 0x0a]), // a TLS hello
  Buffer.from('GET /\x00\x01\x02 HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1'),
];

/** Bodies that are not JSON: -32700 from the gateway, an envelope error from the API. */
async function invalidJson(b: MockBackend): Promise<void> {
  for (const text of ['{"jsonrpc": "2.0", "method": ', '\u0000\u0001', '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]},']) {
    const res = await fetch(b.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    const body = (await res.json()) as { id: unknown; error: { code: number } };
    assert.equal(res.status, 200);
    assert.equal(body.error.code, -32700);
    assert.equal(body.id, null);
  }
  const zones = (await (await fetch(`${b.apiBaseUrl}/zones`, { headers: KEY })).json()) as { result: { id: string }[] };
  const res = await fetch(`${b.apiBaseUrl}/zones/${zones.result[0].id}/logpush/jobs`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: '{"name": "x", ' });
  const body = (await res.json()) as { success: boolean; errors: { code: number; message: string }[] };
  assert.equal(res.status, 400);
  assert.equal(body.success, false);
  assert.equal(body.errors[0].code, 10026);
  assert.match(body.errors[0].message, /not valid JSON/);
}

/** Declares a body, sends part of it and hangs up. */
async function hangUpMidBody(b: MockBackend): Promise<void> {
  await new Promise<void>((resolve) => {
    const req = http.request(b.gatewayUrl, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': '5000' } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x1",');
    setTimeout(() => req.destroy(), 20);
  });
}

/**
 * The well-behaved client: alternates a gateway call and an API read and checks every answer until `until` resolves, and at least
 * 10 of them (on a loaded machine the storm can be over after two or three round trips: how many fit in it is no verdict).
 */
async function goodClient(b: MockBackend, until: Promise<unknown>, fig: BadClientFigures): Promise<void> {
  let done = false;
  void until.finally(() => { done = true; });
  for (let i = 0; !(done && i >= 10) && i < 100_000; i++) {
    const t0 = Date.now();
    try {
      if (i % 2 === 0) {
        const res = await fetch(b.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }) });
        const body = (await res.json()) as { id: number; result: string };
        if (res.status !== 200 || body.id !== i || body.result !== '0x1') fig.goodFailures.push(`eth_chainId: ${res.status} ${JSON.stringify(body)}`);
      } else {
        const res = await fetch(`${b.apiBaseUrl}/zones`, { headers: { authorization: `Bearer ${CREDS.apiToken}` } });
        const body = (await res.json()) as { success: boolean; result: unknown[] };
        if (res.status !== 200 || !body.success || body.result.length !== 7) fig.goodFailures.push(`GET /zones: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      }
    } catch (err) {
      fig.goodFailures.push(`request ${i} failed: ${(err as Error).message}`);
    }
    fig.goodRequests++;
    fig.goodMaxMs = Math.max(fig.goodMaxMs, Date.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * `copies` of every bad client at once (slow clients included), the good client in parallel. Timeouts are the backend's options
 * (small for the fast test; the defaults, 10 s and 30 s, when omitted).
 */
export async function runBadClients(opts: { copies: number; headersTimeoutMs?: number; requestTimeoutMs?: number }): Promise<BadClientFigures> {
  const lines: string[] = [];
  const b = await startMockBackend({ port: 0, ...CREDS, headersTimeoutMs: opts.headersTimeoutMs, requestTimeoutMs: opts.requestTimeoutMs, log: (l) => lines.push(l) });
  const fig: BadClientFigures = { badClients: {}, goodRequests: 0, goodFailures: [], goodMaxMs: 0, slowDroppedAfterMs: [], serverErrors: [] };
  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const count = (name: string) => { fig.badClients[name] = (fig.badClients[name] ?? 0) + 1; };
  try {
    const jobs: Promise<unknown>[] = [];
    for (let c = 0; c < opts.copies; c++) {
      jobs.push(oversizedDeclared(b).then(() => count('oversized body (declared)')));
      jobs.push(oversizedStreamed(b).then(() => count('oversized body (streamed)')));
      jobs.push(slowClient(b, headersTimeout * 2 + 3_000).then((ms) => { fig.slowDroppedAfterMs.push(ms); count('slow headers'); }));
      for (const g of GARBAGE) jobs.push(malformed(b, g).then(() => count('malformed HTTP')));
      jobs.push(invalidJson(b).then(() => count('invalid JSON')));
      jobs.push(hangUpMidBody(b).then(() => count('hang-up mid-body')));
    }
    const all = Promise.all(jobs);
    await Promise.all([all, goodClient(b, all.catch(() => undefined), fig)]);
    // The server survived: a last check after the storm.
    const res = await fetch(b.gatewayUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'eth_chainId', params: [] }) });
    assert.deepEqual(await res.json(), { jsonrpc: '2.0', id: 'last', result: '0x1' });
    fig.serverErrors = lines.filter((l) => /Internal error| 5\d\d \d+ms$/.test(l));
    return fig;
  } finally {
    await b.close();
  }
}

export function describeBadClients(f: BadClientFigures): string {
  const total = Object.values(f.badClients).reduce((a, b) => a + b, 0);
  return `bad clients: ${total} refused (${Object.entries(f.badClients).map(([k, v]) => `${v} ${k}`).join(', ')}); slow clients dropped after ` +
    `${f.slowDroppedAfterMs.length ? Math.max(...f.slowDroppedAfterMs) : 0} ms at most; good client: ${f.goodRequests} requests, ` +
    `${f.goodFailures.length} failures, max ${f.goodMaxMs} ms; server errors ${f.serverErrors.length}`;
}

export function assertBadClients(f: BadClientFigures, copies: number): void {
  assert.deepEqual(f.goodFailures, [], 'the well-behaved client saw wrong answers');
  assert.deepEqual(f.serverErrors, [], 'the server logged internal errors or 5xx');
  assert.ok(f.goodRequests >= 10, `the well-behaved client got only ${f.goodRequests} answers in`);
  assert.deepEqual(f.badClients, {
    'oversized body (declared)': copies, 'oversized body (streamed)': copies, 'slow headers': copies,
    'malformed HTTP': copies * GARBAGE.length, 'invalid JSON': copies, 'hang-up mid-body': copies,
  });
}
