// The embedded mock backend: one node:http server serving the gateway (POST /v1/<network>) and the management API (/client/v4).
// Bound to 127.0.0.1 by default, port 0 picks a free port. Body limit 1 MB (413), header and request timeouts, optional delay and
// failure injection for tests. Never imports vscode; the extension and `edgekit mock` both start it through startMockBackend.
import * as http from 'node:http';
import { isIP, isIPv4, isIPv6, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { handleGateway } from './gateway';
import type { ApiReply, Credentials } from './management';
import { ManagementApi, fail } from './management';
import { StateStore } from './state';
import { lockState, type StateLock } from './lock';
import { NETWORKS } from './chain';
import { Feed } from './feed';
import { TrafficEngine, type TrafficConfig } from './traffic/engine';
import { bindTraffic, handleTrafficAdmin, isTrafficAdminPath } from './traffic/routes';
import { DeliveryService, type DeliveryOptions } from './delivery/delivery';
import { handleDeliveryAdmin, isDeliveryAdminPath } from './delivery/routes';
import { RateLimiter, type RateLimitOptions } from './rateLimit';

export const BODY_LIMIT = 1024 * 1024;
export const GATEWAY_PREFIX = '/v1/';
export const API_PREFIX = '/client/v4';
/** Names the server as an EdgeKit mock (no credentials needed): a second window finds the mock that already serves a port. */
export const HEALTH_PATH = '/__edgekit/health';
/** Back to the initial state, for a window that uses a mock another window started (credentials needed). */
export const RESET_PATH = '/__edgekit/reset';
export const MOCK_SERVICE = 'edgekit-mock';

export interface MockHealth { service: typeof MOCK_SERVICE; pid: number; startedAt: string; stateFile: string | null }

/** Injected failures: requests whose "METHOD /path" matches get `status` (at most `times` times; forever without it). */
export interface FailureSpec { match: RegExp; status: number; times?: number }

export interface MockBackendOptions {
  host?: string;
  port?: number;
  /** With a file, all state lives there and survives restarts. */
  stateFile?: string;
  apiToken?: string;
  apiKey?: string;
  apiEmail?: string;
  /** Delay every response by this many milliseconds. */
  delayMs?: number;
  fail?: FailureSpec | FailureSpec[];
  /** One line per request (method, path, status, time) and per notable event; credentials are never logged. */
  log?: (line: string) => void;
  /** Timeouts, in ms: receiving the headers, and the whole request. */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Synthetic traffic per zone (docs/mock-backend.md, "Traffic and security events"): requests per second per zone (0..100,
   * default 2), the seed (default 1), paused (default false), the hostile share (0..1, default 0.15), what the new rules do in
   * validation mode (default 'enforce'). */
  traffic?: Partial<TrafficConfig>;
  /** Logpush delivery (docs/mock-backend.md, "Logpush delivery"): the local folder (default `<state>.logpush/`, or
   * `edgekit-mock-logpush/` in the OS temp folder), the S3-compatible endpoint of s3:// (and r2://) destinations, and the bounds. */
  delivery?: DeliveryOptions;
  /** The management API's rate limits (docs/mock-backend.md, "Rate limits"): on by default as on the platform (1200 requests per
   * 300 s per user, 200 per second per IP); false turns them off; `now` is their clock. */
  rateLimit?: RateLimitOptions | false;
}

export interface MockBackend {
  /** Base URL, e.g. http://127.0.0.1:8787 */
  url: string;
  /** http://HOST:PORT/v1/mainnet */
  gatewayUrl: string;
  /** http://HOST:PORT/client/v4 */
  apiBaseUrl: string;
  credentials: Credentials;
  /** The log feed: the traffic's http_requests and firewall_events records, per zone (Logpush delivery reads it). Absent for a
   * mock another process runs (acquire.ts). */
  feed?: Feed;
  /** The zones' synthetic traffic and the managed rules that act on it; absent for a mock another process runs. */
  traffic?: TrafficEngine;
  /** Logpush delivery of the enabled jobs; absent for a mock another process runs. */
  delivery?: DeliveryService;
  close(): Promise<void>;
  /** Back to the initial state (zones not migrated, no jobs, overrides restored; traffic counters, events and the feed emptied);
   * saved to the state file. */
  reset(): Promise<void>;
}

/** A mock this process runs: its feed and traffic are here. */
export type LocalMockBackend = MockBackend & { feed: Feed; traffic: TrafficEngine; delivery: DeliveryService };

export function randomCredentials(): Credentials {
  return {
    apiToken: randomBytes(24).toString('base64url'),
    apiKey: randomBytes(20).toString('hex'),
    apiEmail: `mock-${randomBytes(4).toString('hex')}@edgekit.invalid`,
  };
}

/** Whether a Host header names the machine itself: `localhost` or an IP address, with any port (a forwarded port differs from the
 * mock's). A page that rebinds its own DNS name to 127.0.0.1 (DNS rebinding) sends that name, which is neither. A request without
 * a Host (HTTP/1.0; Node refuses an HTTP/1.1 one) is let through: browsers always send it. */
export function isLocalHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const m = /^(?:\[([^\]]*)\]|([^:\[\]]*))(?::\d*)?$/.exec(host.trim());
  if (!m) return false;
  if (m[1] !== undefined) return isIPv6(m[1]);
  const name = m[2].toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || isIPv4(name);
}

/** Whether the server listens on loopback only (then nothing but this machine reaches it, and the Host check applies). */
export function isLoopback(address: string): boolean {
  return address === '::1' || address.toLowerCase() === 'localhost' || (isIP(address) === 4 && address.startsWith('127.')) || /^::ffff:127\./i.test(address);
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: http.ServerResponse, status: number, body: unknown, close = false, contentType?: string, extra?: Record<string, string>): void {
  if (res.headersSent) return;
  const headers: http.OutgoingHttpHeaders = { 'cache-control': 'no-store', ...extra };
  if (close) headers.connection = 'close';
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  // A text body (a Logpush batch's lines) goes as it is, with its own content type; everything else is JSON.
  const text = contentType && typeof body === 'string' ? body : JSON.stringify(body);
  headers['content-type'] = contentType && typeof body === 'string' ? contentType : 'application/json; charset=utf-8';
  headers['content-length'] = Buffer.byteLength(text);
  res.writeHead(status, headers);
  res.end(text);
}

export async function startMockBackend(opts: MockBackendOptions = {}): Promise<LocalMockBackend> {
  // One mock per state file (lock.ts): refused with StateInUse, which names the mock that serves it.
  const lock = opts.stateFile ? await lockState(opts.stateFile) : undefined;
  try {
    return await startLocked(opts, lock);
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

async function startLocked(opts: MockBackendOptions, lock: StateLock | undefined): Promise<LocalMockBackend> {
  const limiter = new RateLimiter(opts.rateLimit); // first: a bad option throws before anything is started
  const random = randomCredentials();
  const credentials: Credentials = {
    apiToken: opts.apiToken || random.apiToken,
    apiKey: opts.apiKey || random.apiKey,
    apiEmail: opts.apiEmail || random.apiEmail,
  };
  const log = opts.log ?? (() => undefined);
  const { store, warning } = await StateStore.open(opts.stateFile);
  if (warning) log(warning);
  const api = new ManagementApi(store, credentials);
  const feed = new Feed();
  const traffic = new TrafficEngine({ feed, store, log, ...opts.traffic });
  bindTraffic(api, traffic);
  const delivery = new DeliveryService(feed, store, opts.delivery, log);
  await delivery.start();
  api.ownershipWriter = (conf, filename, token) => delivery.writeOwnership(conf, filename, token);
  const resetAll = async () => {
    limiter.reset();
    await delivery.reset();
    await store.reset();
    traffic.reset();
    feed.clear();
  };
  const health: MockHealth = { service: MOCK_SERVICE, pid: process.pid, startedAt: new Date().toISOString(), stateFile: opts.stateFile ?? null };
  const failures = (Array.isArray(opts.fail) ? opts.fail : opts.fail ? [opts.fail] : []).map((f) => ({ ...f, left: f.times ?? Infinity }));

  /** Set once listening: whether the Host header is checked (the mock listens on loopback only). */
  let checkHost = false;
  let publicUrl = '';
  const route = async (req: http.IncomingMessage, body: string, url: URL): Promise<{ status: number; body?: unknown; contentType?: string; headers?: Record<string, string> }> => {
    const method = req.method ?? 'GET';
    if (checkHost && !isLocalHost(req.headers.host)) {
      // DNS rebinding: a web page whose name now resolves to 127.0.0.1 could read the credential-free routes (the gateway, the
      // health route). Refused before anything else, in the shape of the path's API.
      const message = `The Host header "${req.headers.host}" is not this machine: the mock listens on loopback and answers only requests addressed to localhost or an IP address (such as 127.0.0.1), a guard against DNS rebinding. Use ${publicUrl}.`;
      log(`Refused ${method} ${url.pathname}: Host header is not localhost or an IP address`);
      if (url.pathname.startsWith(GATEWAY_PREFIX)) return { status: 403, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message } } };
      return fail(403, 10000, message);
    }
    const injected = failures.find((f) => f.left > 0 && f.match.test(`${method} ${url.pathname}`));
    if (injected) {
      injected.left--;
      if (url.pathname.startsWith(GATEWAY_PREFIX)) return { status: injected.status, body: { jsonrpc: '2.0', id: null, error: { code: -32603, message: `Injected failure (HTTP ${injected.status}).` } } };
      return fail(injected.status, 10001, `Injected failure (HTTP ${injected.status}).`);
    }
    if (url.pathname.startsWith(GATEWAY_PREFIX)) {
      const network = url.pathname.slice(GATEWAY_PREFIX.length);
      if (method !== 'POST') return { status: 405, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: `The gateway takes POST requests, not ${method}.` } } };
      return handleGateway(network, body);
    }
    if (url.pathname === API_PREFIX || url.pathname.startsWith(API_PREFIX + '/')) {
      // Every request counts against its IP's limit; one with a valid credential (the mock's one user) also against the user's,
      // whatever its route and answer.
      const rate = limiter.enabled ? limiter.take(req.socket.remoteAddress ?? '', api.authenticate(req.headers) ? undefined : 'user') : undefined;
      if (rate && 'refused' in rate) return rate.refused;
      const reply: ApiReply = await api.handle({ method, path: url.pathname.slice(API_PREFIX.length) || '/', query: url.searchParams, headers: req.headers, body });
      return { ...reply, headers: rate?.headers };
    }
    if (url.pathname === HEALTH_PATH && method === 'GET') return { status: 200, body: health };
    if (url.pathname === RESET_PATH && method === 'POST') {
      const denied = api.authenticate(req.headers);
      if (denied) return denied;
      await resetAll();
      log('State reset through ' + RESET_PATH);
      return { status: 200, body: { success: true, errors: [], messages: [], result: { reset: true } } };
    }
    if (isTrafficAdminPath(url.pathname)) {
      const denied = api.authenticate(req.headers);
      if (denied) return denied;
      return handleTrafficAdmin(traffic, store, method, url.pathname, url.searchParams, body);
    }
    if (isDeliveryAdminPath(url.pathname)) {
      const denied = api.authenticate(req.headers);
      if (denied) return denied;
      return handleDeliveryAdmin(delivery, method, url.pathname, url.searchParams, body);
    }
    if (url.pathname === '/' && method === 'GET') {
      const base = `http://${req.headers.host ?? 'localhost'}`;
      return { status: 200, body: { name: 'edgekit-mock', gateway: NETWORKS.map((n) => `${base}${GATEWAY_PREFIX}${n.name}`), api: `${base}${API_PREFIX}` } };
    }
    return fail(404, 7000, `No route for "${url.pathname}".`);
  };

  const headersTimeout = opts.headersTimeoutMs ?? 10_000;
  const requestTimeout = opts.requestTimeoutMs ?? 30_000;
  // Node checks the two timeouts only every connectionsCheckingInterval (30 s by default), which would let a slow client hold a
  // connection for up to 30 s past its timeout; check often enough that a timeout fires within half of itself.
  const connectionsCheckingInterval = Math.max(25, Math.min(1_000, Math.floor(Math.min(headersTimeout, requestTimeout) / 2)));
  const server = http.createServer({ connectionsCheckingInterval }, (req, res) => {
    const started = Date.now();
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const done = (status: number, body: unknown, close = false, contentType?: string, headers?: Record<string, string>) => {
      send(res, status, body, close, contentType, headers);
      log(`${req.method} ${url.pathname} ${status} ${Date.now() - started}ms`);
    };
    readBody(req, BODY_LIMIT)
      .then(async (body) => {
        if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
        const reply = await route(req, body, url);
        done(reply.status, reply.body, false, reply.contentType, reply.headers);
      })
      .catch((err: unknown) => {
        if (err instanceof BodyTooLarge) {
          done(413, url.pathname.startsWith(GATEWAY_PREFIX)
            ? { jsonrpc: '2.0', id: null, error: { code: -32600, message: `The request body is over the ${BODY_LIMIT}-byte limit.` } }
            : fail(413, 10013, `The request body is over the ${BODY_LIMIT}-byte limit.`).body, true);
          req.resume();
          return;
        }
        if (req.destroyed && !req.complete) {
          // The client went away in the middle of its body: nobody to answer, and not a fault of the mock.
          log(`Client closed the connection during ${req.method} ${url.pathname}`);
          return;
        }
        log(`Internal error on ${req.method} ${url.pathname}: ${(err as Error).message}`);
        done(500, fail(500, 10002, 'Internal error in the mock backend.').body);
      });
  });
  server.headersTimeout = headersTimeout;
  server.requestTimeout = requestTimeout;
  server.keepAliveTimeout = 5_000;

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${shownHost}:${addr.port}`;
  publicUrl = url;
  await lock?.setUrl(url);
  // Bound to another address (--host 0.0.0.0, a LAN address), the network reaches the mock directly by whatever name it has: a
  // Host check would refuse those names and guard nothing.
  checkHost = isLoopback(addr.address);
  let closed: Promise<void> | undefined;
  return {
    url,
    gatewayUrl: `${url}${GATEWAY_PREFIX}mainnet`,
    apiBaseUrl: `${url}${API_PREFIX}`,
    credentials,
    feed,
    traffic,
    delivery,
    close() {
      traffic.stop();
      closed ??= Promise.all([delivery.close(), new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      })]).then(() => store.save()).finally(() => lock?.release());
      return closed;
    },
    reset: resetAll,
  };
}
