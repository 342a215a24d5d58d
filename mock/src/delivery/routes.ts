// The mock's own Logpush delivery routes under /__edgekit/logpush/ (answered by backend.ts after the same credentials check as the
// traffic's routes): the delivery list, a batch's lines, and a flush. The editor reads them through client/src/http/mockControl.ts.
// No vscode.
import { fail } from '../envelope';
import type { DeliveryService } from './delivery';

type Reply = { status: number; body: unknown; contentType?: string };

export const DELIVERIES_PATH = '/__edgekit/logpush/deliveries';
export const FLUSH_PATH = '/__edgekit/logpush/flush';
const LINES = /^\/__edgekit\/logpush\/deliveries\/([^/]+)\/lines$/;

/** The delivery routes, for the docs' route index (scripts/gen-mock-routes.ts). */
export const DELIVERY_ROUTES: readonly { method: 'GET' | 'POST'; path: string }[] = [
  { method: 'GET', path: `${DELIVERIES_PATH}` },
  { method: 'GET', path: `${DELIVERIES_PATH}/:id/lines` },
  { method: 'POST', path: FLUSH_PATH },
];

export function isDeliveryAdminPath(path: string): boolean {
  return path === DELIVERIES_PATH || path === FLUSH_PATH || LINES.test(path);
}

const jobParam = (v: unknown): number | undefined | string => {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : `"job" must be a job id (a positive whole number), not ${JSON.stringify(v)}.`;
};

/** The answer of a delivery route (isDeliveryAdminPath), after the credentials check. */
export async function handleDeliveryAdmin(service: DeliveryService, method: string, path: string, query: URLSearchParams, body: string): Promise<Reply> {
  const lines = LINES.exec(path);
  if (lines) {
    if (method !== 'GET') return fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
    let id: string;
    try { id = decodeURIComponent(lines[1]); } catch { return fail(404, 1003, `No Logpush delivery "${lines[1]}".`); }
    const got = await service.linesOf(id);
    return 'text' in got ? { status: 200, body: got.text, contentType: 'application/x-ndjson; charset=utf-8' } : fail(404, 1003, got.error);
  }
  if (path === DELIVERIES_PATH) {
    if (method !== 'GET') return fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
    const job = jobParam(query.get('job') ?? undefined);
    if (typeof job === 'string') return fail(400, 1001, job);
    return { status: 200, body: service.deliveries(job) };
  }
  if (method !== 'POST') return fail(405, 7001, `Method ${method} is not allowed on "${path}".`);
  let b: unknown;
  try {
    b = body.trim() ? JSON.parse(body) : {};
  } catch (err) {
    return fail(400, 10026, `The request body is not valid JSON: ${(err as Error).message}.`);
  }
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return fail(400, 10026, 'The request body must be a JSON object: {} or {"job": <id>}.');
  const unknown = Object.keys(b).find((k) => k !== 'job');
  if (unknown) return fail(400, 1001, `Unknown member "${unknown}"; the body is {} or {"job": <id>}.`);
  const job = jobParam((b as { job?: unknown }).job);
  if (typeof job === 'string') return fail(400, 1001, job);
  return { status: 200, body: await service.flush(job) };
}
