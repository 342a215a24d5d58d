// The embedded mock's own routes (under /__edgekit/, beside the platform's API): its traffic (rate, pause, seed, a burst now), the
// security events summary of a zone (old rules against new ones, for the migration's inspect step) and Logpush deliveries (what was
// delivered where, the delivered lines, deliver now). They exist only on the mock: the platform shows security events in its
// dashboard and delivers Logpush batches to the user's own storage. Results instead of exceptions, errors naming the route. No vscode.
import type { HttpRequest } from './request';
import { describeHttpError, envelopeErrors, request } from './request';
import { isObj } from './json';
import type { DeliveryRecord } from '../../../mock/src/delivery/delivery';

export interface MockTraffic {
  rate: number;
  paused: boolean;
  seed: number;
  hostileShare: number;
  zones: Record<string, { requests: number; events: number }>;
}

export interface SecuritySummary {
  zone: string;
  state: string;
  requests: number;
  since: string;
  until: string;
  /** since..until in words (the mock's spanWords); absent from a mock older than the field. */
  span?: string;
  previous: { acted: number; actions: Record<string, number> };
  new: { acted: number; actions: Record<string, number> };
  comparison: {
    newBlocksPreviousLogged: number;
    newBlocksPreviousPassed: number;
    previousBlockedNowPass: number;
    previousBlockedNewLogs: number;
    bothBlock: number;
  };
  sentences: string[];
}

/** The actions of security events and of the summary's counts that end a request, in every spelling they come in: the rules'
 * (managed_challenge), the firewall_events log's, which the mock writes (managedchallenge, connectionclose; logs/reference), and the
 * analytics' camel case (managedChallenge). The rules language's own list is catalog.ts's TERMINATING_ACTIONS; the client cannot
 * import the core, so test/unit/http/mockControl.test.ts keeps the two in step. */
export const TERMINATING_EVENT_ACTIONS: ReadonlySet<string> = new Set(
  ['block', 'challenge', 'js_challenge', 'managed_challenge', 'redirect', 'serve_error', 'log_custom_field', 'connection_close']
    .flatMap((a) => [a, a.replace(/_/g, ''), a.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())]),
);

/** One Logpush batch the mock cut: where it went and how (the mock's own type, mock/src/delivery/delivery.ts). */
export type Delivery = DeliveryRecord;

export type MockResult<T> = { ok: true; result: T } | { ok: false; error: string };

export interface MockControlOptions {
  /** The mock's origin, e.g. http://127.0.0.1:8787 (its apiBaseUrl without /client/v4). */
  url: string;
  /** The mock's API token (its /__edgekit/ routes take the same credentials as its API). */
  token: string;
  timeoutMs: number;
}

export interface MockControl {
  traffic(): Promise<MockResult<MockTraffic>>;
  setTraffic(patch: Partial<Pick<MockTraffic, 'rate' | 'paused' | 'seed' | 'hostileShare'>>): Promise<MockResult<MockTraffic>>;
  /** Generates `count` requests now (for one zone, or every zone). */
  step(count: number, zone?: string): Promise<MockResult<{ requests: number; events: number }>>;
  securitySummary(zone: string, window?: { since?: string; until?: string }): Promise<MockResult<SecuritySummary>>;
  deliveries(job?: number): Promise<MockResult<Delivery[]>>;
  /** The delivered batch's NDJSON lines, uncompressed. */
  deliveryLines(id: string): Promise<MockResult<string>>;
  /** Cuts and delivers every due batch now (of one job, or all); `why` nothing was delivered, when nothing was. */
  flush(job?: number): Promise<MockResult<{ delivered: number; failed: number; why?: string }>>;
}

/** The API base URL of a mock (…/client/v4) → its origin. */
export function mockOrigin(apiBaseUrl: string): string {
  return new URL(apiBaseUrl).origin;
}

export function createMockControl(opts: MockControlOptions): MockControl {
  const origin = opts.url.replace(/\/+$/, '');

  /** `shape` checks a JSON answer (returning an error's words, or the value); 'text' takes the body's text as it is. */
  async function call<T>(what: string, method: string, path: string, body: unknown, shape: ((v: unknown) => T | string) | 'text'): Promise<MockResult<T>> {
    const req: HttpRequest = { method, url: origin + path, headers: { Authorization: `Bearer ${opts.token}` }, body, timeoutMs: opts.timeoutMs };
    const res = await request(req);
    if (!res.ok) return { ok: false, error: `Cannot ${what}: ${res.error}` };
    // A 404 saying "no route" (code 7000) means an older mock without this route; any other 404 is the route's own answer
    // (a delivered batch the mock no longer keeps, an unknown zone) and is described as it says.
    if (res.status === 404 && (envelopeErrors(res.body) ?? [{ code: 7000 }]).some((e) => e.code === 7000)) {
      return { ok: false, error: `Cannot ${what}: the backend at ${origin} has no ${method} ${path.split('?')[0]} (is it an up-to-date EdgeKit mock?).` };
    }
    if (res.status < 200 || res.status > 299) return { ok: false, error: `Cannot ${what} (${method} ${path.split('?')[0]}): ${describeHttpError(res.status, res.body, res.headers)}` };
    // The mock may answer in the API's envelope or with the bare value.
    if (shape === 'text') return { ok: true, result: res.text as T };
    const value = isObj(res.body) && 'success' in res.body && 'result' in res.body ? res.body.result : res.body;
    const shaped = shape(value);
    return typeof shaped === 'string' ? { ok: false, error: `Cannot ${what}: ${shaped}` } : { ok: true, result: shaped };
  }

  const objectOf = <T>(what: string, keys: string[]) => (v: unknown): T | string => {
    if (!isObj(v)) return `the answer is not ${what}.`;
    const missing = keys.find((k) => !(k in v));
    return missing ? `the answer has no "${missing}".` : (v as T);
  };
  const trafficShape = objectOf<MockTraffic>('the traffic settings', ['rate', 'paused', 'seed']);

  return {
    traffic: () => call('read the mock\'s traffic settings', 'GET', '/__edgekit/traffic', undefined, trafficShape),
    setTraffic: (patch) => call('change the mock\'s traffic settings', 'PUT', '/__edgekit/traffic', patch, trafficShape),
    step: (count, zone) => call(`send ${count} requests of sample traffic`, 'POST', '/__edgekit/traffic/step', zone ? { zone, count } : { count },
      objectOf<{ requests: number; events: number }>('a traffic count', ['requests'])),
    securitySummary: (zone, window) => {
      const q = new URLSearchParams();
      if (window?.since) q.set('since', window.since);
      if (window?.until) q.set('until', window.until);
      const qs = q.toString();
      return call(`summarise the security events of zone "${zone}"`, 'GET', `/__edgekit/zones/${encodeURIComponent(zone)}/security/summary${qs ? `?${qs}` : ''}`, undefined,
        objectOf<SecuritySummary>('a security events summary', ['previous', 'new', 'comparison', 'sentences']));
    },
    deliveries: (job) => call('list the Logpush deliveries', 'GET', `/__edgekit/logpush/deliveries${job === undefined ? '' : `?job=${job}`}`, undefined,
      (v) => (Array.isArray(v) && v.every(isObj) ? (v as unknown as Delivery[]) : 'the delivery list is not an array of objects.')),
    deliveryLines: (id) => call(`read the lines of delivery "${id}"`, 'GET', `/__edgekit/logpush/deliveries/${encodeURIComponent(id)}/lines`, undefined,
      'text'),
    flush: (job) => call('deliver the due Logpush batches', 'POST', '/__edgekit/logpush/flush', job === undefined ? {} : { job },
      objectOf<{ delivered: number; failed: number; why?: string }>('a delivery count', ['delivered'])),
  };
}
