// Shared helpers of the mock backend tests: a backend on a free port and small fetch wrappers.
import type { LocalMockBackend, MockBackendOptions } from '../../../mock/src/backend';
import { startMockBackend } from '../../../mock/src/backend';

export const CREDS = { apiToken: 'test-token-0123456789', apiKey: 'test-key-abcdef', apiEmail: 'tester@example.com' };

export function start(opts: MockBackendOptions = {}): Promise<LocalMockBackend> {
  return startMockBackend({ port: 0, ...CREDS, ...opts });
}

/** Parsed JSON of a reply; tests read into it freely (the shapes are asserted, not typed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export interface Reply { status: number; json: Json }

export async function post(url: string, body: unknown, raw = false): Promise<Reply> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

export async function rpc(url: string, method: string, params: unknown[] = [], id = 1): Promise<Reply> {
  return post(url, { jsonrpc: '2.0', id, method, params });
}

/** The result of a call that must succeed. */
export async function result(url: string, method: string, params: unknown[] = []): Promise<Json> {
  const r = await rpc(url, method, params);
  if (r.status !== 200 || r.json.error) throw new Error(`${method} failed: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.result;
}

export const TOKEN = { authorization: `Bearer ${CREDS.apiToken}` };
export const KEY = { 'x-auth-key': CREDS.apiKey, 'x-auth-email': CREDS.apiEmail };

export async function api(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  const res = await fetch(base + path, {
    method, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
