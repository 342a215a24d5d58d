// One mock per port, shared by every window that asks for that port. A window (an extension host) that finds its port taken asks
// the holder who it is: an EdgeKit mock that takes this window's credentials is used as it is (same state, same zones); anything
// else (another program, or an EdgeKit mock with other credentials, e.g. a standalone `edgekit mock`) leaves the port alone, and
// this window's mock starts on a free port with a note that says why.
import type { Credentials } from './management';
import type { MockBackend, MockBackendOptions, MockHealth } from './backend';
import { API_PREFIX, GATEWAY_PREFIX, HEALTH_PATH, MOCK_SERVICE, RESET_PATH, startMockBackend } from './backend';
import { StateInUse } from './lock';

export interface AcquiredMock {
  backend: MockBackend;
  /** true: another process serves it; close() leaves it running, and `alive()` tells whether it still does. */
  shared: boolean;
  /** Why the mock is not where it was asked to be, in words for the user. */
  note?: string;
}

const PROBE_TIMEOUT_MS = 2_000;

async function getJson(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; body: unknown } | undefined> {
  try {
    const r = await fetch(url, { method, headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: 'error' });
    const text = await r.text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = undefined; }
    return { status: r.status, body };
  } catch {
    return undefined;
  }
}

/** The EdgeKit mock serving `url`, or undefined when nothing answers there as one. */
export async function probeMock(url: string): Promise<MockHealth | undefined> {
  const r = await getJson(url + HEALTH_PATH);
  const b = r?.body as Partial<MockHealth> | undefined;
  return r?.status === 200 && b?.service === MOCK_SERVICE ? (b as MockHealth) : undefined;
}

/** A mock another process runs, used with `credentials` (which it must accept). */
export async function connectMockBackend(url: string, credentials: Credentials): Promise<MockBackend | undefined> {
  if (!(await probeMock(url))) return undefined;
  const verify = await getJson(`${url}${API_PREFIX}/user/tokens/verify`, { authorization: `Bearer ${credentials.apiToken}` });
  if (verify?.status !== 200) return undefined;
  return {
    url,
    gatewayUrl: `${url}${GATEWAY_PREFIX}mainnet`,
    apiBaseUrl: `${url}${API_PREFIX}`,
    credentials,
    close: async () => undefined, // not ours to stop
    async reset() {
      const r = await getJson(url + RESET_PATH, { authorization: `Bearer ${credentials.apiToken}` }, 'POST');
      if (r?.status !== 200) throw new Error(`the shared mock backend at ${url} did not reset (${r ? `HTTP ${r.status}` : 'no answer'})`);
    },
  };
}

function inUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE';
}

/**
 * Starts a mock on opts.port, or uses the EdgeKit mock already serving it with these credentials. When the port is held by
 * something else, the mock starts on a free port instead and `note` says so.
 */
export async function acquireMockBackend(opts: MockBackendOptions & { credentials: Credentials }): Promise<AcquiredMock> {
  const { credentials, ...rest } = opts;
  const start = (port: number) => startMockBackend({ ...rest, port, ...credentials });
  const port = opts.port ?? 0;
  try {
    return { backend: await start(port), shared: false };
  } catch (err) {
    // The state file is served by another window's mock (every window uses the same one): use that mock, as for a shared port.
    if (err instanceof StateInUse) {
      const holder = err.holder.url ? await connectMockBackend(err.holder.url, credentials) : undefined;
      if (holder) return { backend: holder, shared: true, note: `Using the EdgeKit mock backend another window started on ${new URL(holder.url).host} (it serves the same state file).` };
      throw err;
    }
    if (!inUse(err) || port === 0) throw err;
  }
  const host = opts.host ?? '127.0.0.1';
  opts.log?.(`Port ${port} on ${host} is in use; asking who holds it.`);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const existing = await connectMockBackend(url, credentials);
  if (existing) return { backend: existing, shared: true, note: `Using the EdgeKit mock backend another window started on ${host}:${port}.` };
  const other = await probeMock(url);
  const backend = await start(0);
  const moved = new URL(backend.url).port;
  const who = other
    ? `another EdgeKit mock backend with other credentials (pid ${other.pid}, perhaps a standalone "edgekit mock")`
    : 'another program';
  return { backend, shared: false, note: `Port ${port} on ${host} is held by ${who}; the mock backend started on port ${moved} instead. Set "edgekit.mock.port" to a free port, or 0 for any free port.` };
}
