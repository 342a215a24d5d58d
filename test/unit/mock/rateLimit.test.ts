// The management API's rate limits as the platform applies them (docs/mock-backend.md, "Rate limits"): 1200 requests per 300 s per
// user, then every call for the next 300 s refused with HTTP 429 (code 971, retry-after, x-ratelimit-*); 200 per second per IP.
// Every clock here is a fake one: no test sleeps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Cloudflare, { RateLimitError } from 'cloudflare';
import { RateLimiter, parseRateLimit } from '../../../mock/src/rateLimit';
import { runMockCli } from '../../../mock/src/main';
import { CREDS, KEY, TOKEN, start } from './helpers';

const T0 = Date.UTC(2026, 10, 26, 6, 0, 0);

function clock() {
  const c = { t: T0, now: () => c.t };
  return c;
}

async function call(base: string, path: string, headers: Record<string, string> = TOKEN, method = 'GET') {
  const res = await fetch(base + path, { method, headers });
  return { status: res.status, headers: Object.fromEntries(res.headers), json: await res.json() as { success: boolean; errors: { code: number; message: string }[]; result: unknown } };
}

test('RateLimiter: the 1201st request of a user within 300 s and every one of the next 300 s are refused; then the count starts afresh', () => {
  const c = clock();
  const rl = new RateLimiter({ now: c.now, perIp: false });
  for (let i = 1; i <= 1200; i++) {
    const v = rl.take('127.0.0.1', 'user');
    assert.ok(!('refused' in v), `request ${i}`);
    assert.equal(v.headers['x-ratelimit-limit'], '1200');
    assert.equal(v.headers['x-ratelimit-remaining'], String(1200 - i));
    c.t += 200; // 1200 requests in 240 s: within one window
  }
  const over = rl.take('127.0.0.1', 'user');
  assert.ok('refused' in over);
  assert.equal(over.refused.status, 429);
  assert.deepEqual(over.refused.body, { success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }], messages: [], result: null });
  assert.deepEqual(over.refused.headers, { 'retry-after': '300', 'x-ratelimit-limit': '1200', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(c.t + 300_000).toUTCString() });
  // The block lasts 300 s from the refusal, although the first requests have long left the window.
  c.t += 299_500;
  const still = rl.take('127.0.0.1', 'user');
  assert.ok('refused' in still);
  assert.equal(still.refused.headers['retry-after'], '1', 'rounded up');
  c.t += 500;
  const after = rl.take('127.0.0.1', 'user');
  assert.ok(!('refused' in after));
  assert.equal(after.headers['x-ratelimit-remaining'], '1199');
  // A request without a user (a refused credential) is not the user's.
  assert.deepEqual(rl.take('127.0.0.1', undefined), { headers: {} });
});

test('RateLimiter: the user\'s window slides: requests older than 300 s no longer count', () => {
  const c = clock();
  const rl = new RateLimiter({ now: c.now, perUser: { limit: 3, windowSeconds: 300 }, perIp: false });
  rl.take('ip', 'u');
  c.t += 100_000;
  rl.take('ip', 'u');
  rl.take('ip', 'u');
  c.t += 200_000; // the first request is exactly 300 s old: out of the window
  const v = rl.take('ip', 'u');
  assert.ok(!('refused' in v));
  assert.equal(v.headers['x-ratelimit-remaining'], '0');
  assert.ok('refused' in rl.take('ip', 'u'));
});

test('RateLimiter: 200 requests per second per IP, whoever sends them; the 201st waits for the oldest to leave the second, without a block', () => {
  const c = clock();
  const rl = new RateLimiter({ now: c.now, perUser: false });
  for (let i = 0; i < 200; i++) {
    assert.ok(!('refused' in rl.take('127.0.0.1', i % 2 ? 'user' : undefined)), `request ${i + 1}`);
    c.t += 4; // 200 requests in 800 ms
  }
  const over = rl.take('127.0.0.1', undefined);
  assert.ok('refused' in over);
  assert.equal(over.refused.body.errors[0].code, 971);
  assert.equal(over.refused.headers['x-ratelimit-limit'], '200');
  assert.equal(over.refused.headers['retry-after'], '1');
  assert.ok(!('refused' in rl.take('10.0.0.2', undefined)), 'another IP has its own count');
  c.t = T0 + 1000; // the first request has left the last second
  assert.ok(!('refused' in rl.take('127.0.0.1', undefined)));
  assert.ok('refused' in rl.take('127.0.0.1', undefined), 'the second one still in the window');
});

test('RateLimiter: off, and bad limits refused with a message naming them', () => {
  const off = new RateLimiter(false);
  assert.equal(off.enabled, false);
  assert.throws(() => new RateLimiter({ perUser: { limit: 0, windowSeconds: 300 } }), /rateLimit\.perUser needs a whole limit of at least 1/);
  assert.throws(() => new RateLimiter({ perIp: { limit: 5, windowSeconds: -1 } }), /rateLimit\.perIp needs .* positive windowSeconds/);
  assert.deepEqual(parseRateLimit('1200/300'), { limit: 1200, windowSeconds: 300 });
  assert.equal(parseRateLimit(' OFF '), false);
  for (const bad of ['', '1200', '0/300', '5/0', '5/x', '-1/300', '1.5/300', '5/86401']) {
    assert.match(String(parseRateLimit(bad)), new RegExp(`^--rate-limit needs N/S .* not "${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\.$`), bad);
  }
});

test('the mock: on by default; answers carry x-ratelimit-*; the 429 is the platform\'s; token and key pair are one user; the gateway and the mock\'s own routes do not count', async () => {
  const plain = await start();
  try {
    const r = await call(plain.apiBaseUrl, '/zones');
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-ratelimit-limit'], '1200', 'the platform\'s limit without any option');
    assert.equal(r.headers['x-ratelimit-remaining'], '1199');
  } finally {
    await plain.close();
  }
  const c = clock();
  const m = await start({ rateLimit: { perUser: { limit: 4, windowSeconds: 300 }, now: c.now } });
  try {
    assert.equal((await call(m.apiBaseUrl, '/zones')).headers['x-ratelimit-remaining'], '3');
    assert.equal((await call(m.apiBaseUrl, '/accounts', KEY)).headers['x-ratelimit-remaining'], '2', 'the key pair counts with the token: one user');
    // Refused credentials are nobody's: not counted for the user, and no x-ratelimit headers.
    const wrong = await call(m.apiBaseUrl, '/zones', { authorization: 'Bearer not-the-token' });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.headers['x-ratelimit-remaining'], undefined);
    // Not the management API: the gateway (its own limits), the health and traffic routes.
    for (let i = 0; i < 5; i++) {
      assert.equal((await fetch(m.gatewayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })).status, 200);
      assert.equal((await fetch(`${m.url}/__edgekit/traffic`, { headers: TOKEN })).status, 200);
    }
    // A 404 of a valid user counts: the request was made.
    const missing = await call(m.apiBaseUrl, '/zones/00000000000000000000000000000000/logpush/jobs/999999', TOKEN);
    assert.notEqual(missing.status, 429);
    assert.equal(missing.headers['x-ratelimit-remaining'], '1');
    assert.equal((await call(m.apiBaseUrl, '/user/tokens/verify')).headers['x-ratelimit-remaining'], '0');
    c.t += 1500;
    const over = await call(m.apiBaseUrl, '/zones', KEY);
    assert.equal(over.status, 429);
    assert.deepEqual(over.json, { success: false, errors: [{ code: 971, message: 'Please wait and consider throttling your request speed' }], messages: [], result: null });
    assert.equal(over.headers['retry-after'], '300');
    assert.equal(over.headers['x-ratelimit-limit'], '4');
    assert.equal(over.headers['x-ratelimit-remaining'], '0');
    assert.equal(over.headers['x-ratelimit-reset'], new Date(c.t + 301_000).toUTCString(), 'a whole second, rounded up (the block ends at 06:05:01.5)');
    c.t += 60_000;
    const blocked = await call(m.apiBaseUrl, '/accounts');
    assert.equal(blocked.status, 429, 'every call of the next 300 s');
    assert.equal(blocked.headers['retry-after'], '240');
    // The mock's reset forgets the counts (a test or a window starting over).
    await m.reset();
    assert.equal((await call(m.apiBaseUrl, '/accounts')).headers['x-ratelimit-remaining'], '3');
  } finally {
    await m.close();
  }
});

test('the mock: the per-IP limit counts every management API request, refused credentials included; rateLimit false turns both off', async () => {
  const c = clock();
  const m = await start({ rateLimit: { perUser: false, perIp: { limit: 3, windowSeconds: 1 }, now: c.now } });
  try {
    assert.equal((await call(m.apiBaseUrl, '/zones', {})).status, 400);
    assert.equal((await call(m.apiBaseUrl, '/zones', { authorization: 'Bearer wrong' })).status, 403);
    const third = await call(m.apiBaseUrl, '/zones');
    assert.equal(third.status, 200);
    assert.equal(third.headers['x-ratelimit-limit'], undefined, 'no per-user limit, no per-user headers');
    const over = await call(m.apiBaseUrl, '/zones');
    assert.equal(over.status, 429);
    assert.equal(over.headers['x-ratelimit-limit'], '3');
    assert.equal(over.headers['retry-after'], '1');
    c.t += 1000;
    assert.equal((await call(m.apiBaseUrl, '/zones')).status, 200);
  } finally {
    await m.close();
  }
  const off = await start({ rateLimit: false });
  try {
    const r = await call(off.apiBaseUrl, '/zones');
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-ratelimit-limit'], undefined);
  } finally {
    await off.close();
  }
  await assert.rejects(start({ rateLimit: { perUser: { limit: 1.5, windowSeconds: 300 } } }), /rateLimit\.perUser needs a whole limit/);
});

test('the official SDK sees the limit as its RateLimitError (maxRetries 0: it does not back off for real)', async () => {
  const c = clock();
  const m = await start({ rateLimit: { perUser: { limit: 2, windowSeconds: 300 }, now: c.now } });
  try {
    const cf = new Cloudflare({ apiToken: CREDS.apiToken, baseURL: m.apiBaseUrl, maxRetries: 0 });
    await cf.zones.list();
    await cf.accounts.list();
    await assert.rejects(cf.zones.list(), (e: unknown) => {
      assert.ok(e instanceof RateLimitError, String(e));
      assert.equal(e.status, 429);
      assert.equal((e.errors as { code: number }[])[0].code, 971);
      assert.equal(e.headers?.get('retry-after'), '300', 'the header the SDK\'s own back-off reads');
      return true;
    });
  } finally {
    await m.close();
  }
});

test('edgekit mock --rate-limit: N/S sets the per-user limit, off turns it off, a bad value is refused', async () => {
  let err = '';
  assert.equal(await runMockCli(['--port', '0', '--rate-limit', '10'], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve() }), 2);
  assert.match(err, /^edgekit mock: --rate-limit needs N\/S .* not "10"\./);
  for (const [value, shown, limit] of [['2/60', /^Rate limit: 2 requests per 60 s per user, 200 per second per IP/m, '2'], ['off', /^Rate limit: off$/m, undefined], [undefined, /^Rate limit: 1200 requests per 300 s per user/m, '1200']] as const) {
    let out = '';
    let stop!: () => void;
    const stopped = new Promise<void>((r) => { stop = r; });
    let printed!: () => void;
    const ready = new Promise<void>((r) => { printed = r; });
    const running = runMockCli(['--port', '0', ...(value ? ['--rate-limit', value] : []), '--api-token', CREDS.apiToken, '--traffic-paused'],
      { stdout: (s) => { out += s; if (out.includes('Press Ctrl+C')) printed(); }, stderr: () => undefined }, { stop: stopped, env: {} });
    const exited = await Promise.race([ready.then(() => undefined), running]);
    assert.equal(exited, undefined, `edgekit mock exited (${exited}) before it printed its URLs`);
    assert.match(out, shown);
    const base = /^API base: (\S+)$/m.exec(out)![1];
    const r = await call(base, '/zones');
    assert.equal(r.status, 200);
    assert.equal(r.headers['x-ratelimit-limit'], limit, String(value));
    if (value === '2/60') {
      await call(base, '/zones');
      const over = await call(base, '/zones');
      assert.equal(over.status, 429);
      assert.equal(over.headers['retry-after'], '60');
    }
    stop();
    assert.equal(await running, 0);
  }
});

test('RateLimiter: the counts of addresses and users that stopped sending are forgotten, so many addresses cannot grow memory without end', () => {
  // Bound to another address (--host 0.0.0.0), every client address had a count kept for the mock's lifetime; a flood from many
  // addresses (an IPv6 prefix holds 2^64) grew the map without end.
  const c = clock();
  const rl = new RateLimiter({ now: c.now, perUser: { limit: 5, windowSeconds: 10 } });
  let peak = 0;
  for (let round = 0; round < 20; round++) {
    for (let i = 0; i < 5_000; i++) rl.take(`2001:db8::${round}:${i}`, i % 7 === 0 ? `user${round}:${i}` : undefined);
    peak = Math.max(peak, rl.tracked);
    c.t += 11_000; // past both windows
  }
  assert.ok(peak < 20_000, `${peak} counts kept for 100 000 addresses seen 5 000 a window`);
  // A count still within its window, and a block, are kept.
  const kept = new RateLimiter({ now: c.now, perIp: { limit: 1, windowSeconds: 1 }, perUser: { limit: 1, windowSeconds: 300 } });
  kept.take('a', 'u');
  kept.take('b', 'u'); // the user's second: blocked for 300 s
  c.t += 2_000;
  for (let i = 0; i < 5_000; i++) kept.take(`x${i}`, `v${i}`);
  assert.ok('refused' in kept.take('c', 'u'), 'the block survives the users and addresses forgotten around it');
});

test('RateLimiter: its own clock does not go back with the wall clock (a clock set back an hour does not refuse for an hour)', (t) => {
  const real = Date.now;
  let back = 0;
  t.mock.method(Date, 'now', () => real() - back);
  const rl = new RateLimiter({ perIp: { limit: 2, windowSeconds: 1 }, perUser: { limit: 2, windowSeconds: 1 } });
  rl.take('ip', 'u');
  rl.take('ip', 'u');
  const over = rl.take('ip', 'u');
  assert.ok('refused' in over);
  back = 3_600_000;
  const later = rl.take('ip', 'u');
  assert.ok('refused' in later);
  assert.ok(Number(later.refused.headers['retry-after']) <= 1, `retry-after ${later.refused.headers['retry-after']} once the wall clock went back an hour`);
});

test('the edgekit.mock.rateLimit setting\'s pattern accepts what the mock\'s parser accepts, and refuses what it refuses', async () => {
  // The pattern refused "OFF", which the parser (case-insensitive) takes: VS Code squiggled a value the mock reads.
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { pattern: string }> } } };
  const pattern = new RegExp(pkg.contributes.configuration.properties['edgekit.mock.rateLimit'].pattern);
  for (const v of ['1200/300', ' 60/1 ', 'off', 'OFF', 'Off', ' off ', '5/86400']) {
    assert.equal(typeof parseRateLimit(v) !== 'string', true, v);
    assert.ok(pattern.test(v), `the setting refuses ${JSON.stringify(v)}, which the mock takes`);
  }
  for (const v of ['', 'on', '1200', '1200/', '/300', '1200/300/1', 'of f', '-5/300']) {
    assert.equal(typeof parseRateLimit(v), 'string', v);
    assert.ok(!pattern.test(v), `the setting takes ${JSON.stringify(v)}, which the mock refuses`);
  }
});

test('edgekit mock with a bad option: the message named for the command, its synopsis and where the rest is, not the whole help', async () => {
  // It printed the message bare ("Unknown option ...") above the whole 16-line help, where lint's and test-filter's usage errors
  // start "edgekit: " and end with the synopsis.
  for (const argv of [['--bogus'], ['--port', 'x'], ['--s3-endpoint', 'ftp://x']]) {
    let err = '';
    assert.equal(await runMockCli(['--port', '0', ...argv], { stdout: () => undefined, stderr: (s) => { err += s; } }, { stop: Promise.resolve(), env: {} }), 2);
    const lines = err.trimEnd().split('\n');
    assert.match(lines[0], /^edgekit mock: \S/, err);
    assert.ok(lines.some((l) => l.startsWith('Usage: edgekit mock [--host')), err);
    assert.equal(lines.at(-1), 'Run "edgekit mock --help" for the details.', err);
    assert.ok(!/Serves the gateway/.test(err), `the synopsis only, not the whole help:\n${err}`);
  }
});

test('edgekit mock --help names EDGEKIT_MOCK_S3_ENDPOINT beside --s3-endpoint, not among the credentials', async () => {
  // The help listed the endpoint's variable first among "credentials ... never printed" (doc5's and rv32's note).
  const { USAGE } = await import('../../../mock/src/main');
  assert.match(USAGE, /--s3-endpoint or EDGEKIT_MOCK_S3_ENDPOINT/);
  const credentials = /\(credentials ([^)]*)\)/.exec(USAGE)?.[1] ?? '';
  assert.ok(credentials.includes('EDGEKIT_MOCK_S3_SECRET_ACCESS_KEY') && !credentials.includes('ENDPOINT'), credentials);
});
