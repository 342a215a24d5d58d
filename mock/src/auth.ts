// Authentication as the platform does it: the API token (Authorization: Bearer) on every route, the legacy key pair (X-Auth-Key +
// X-Auth-Email) on every route but the token's own verification, and the platform's error codes and HTTP statuses when neither is
// valid (docs/mock-backend.md, "Authentication", says where each comes from). Credentials are never echoed or logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiReply } from './envelope';
import { fail, failMany } from './envelope';

export interface Credentials { apiToken: string; apiKey: string; apiEmail: string }

/** `token`: the API token only (GET /user/tokens/verify); `either`: the token or the key pair; `none`: no credentials. */
export type AuthKind = 'token' | 'either' | 'none';

/** Constant-time comparison: both sides hashed to equal-length digests first, so neither content nor length leaks. */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export const MISSING = 'Missing X-Auth-Key, X-Auth-Email or Authorization headers';

/** The platform's 400 for a header it cannot take: code 6003 "Invalid request headers", the reasons in its error_chain. */
export const invalidHeaders = (...chain: [number, string][]): ApiReply =>
  failMany(400, [{ code: 6003, message: 'Invalid request headers', error_chain: chain.map(([code, message]) => ({ code, message })) }]);

/**
 * undefined when the headers carry this mock's credentials in a form `kind` takes, else the platform's refusal:
 * - no credential header at all (or half a key pair): 400, code 9106;
 * - an Authorization header that is not `Bearer <token>`: 400, code 6003 with 6111 in its error_chain;
 * - an X-Auth-Email that is not an address, or an empty X-Auth-Key: 400, code 6003 with 6102 / 6103;
 * - a well-formed token that is not this mock's: 403, code 9109 (on GET /user/tokens/verify: 401, code 1000);
 * - a well-formed key pair that is not this mock's: 403, code 9103.
 * When both forms are sent, either valid one is enough; otherwise the token's problem is reported.
 */
export function authenticate(headers: IncomingHttpHeaders, creds: Credentials, kind: AuthKind): ApiReply | undefined {
  if (kind === 'none') return undefined;
  const auth = header(headers, 'authorization');
  const key = header(headers, 'x-auth-key');
  const email = header(headers, 'x-auth-email');
  const bearer = auth === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(auth)?.[1];
  const tokenOk = bearer !== undefined && safeEqual(bearer, creds.apiToken);
  if (kind === 'token') {
    if (tokenOk) return undefined;
    if (auth === undefined) return fail(400, 9106, MISSING);
    if (bearer === undefined) return invalidHeaders([6111, 'Invalid format for Authorization header']);
    return fail(401, 1000, 'Invalid API Token');
  }
  // Evaluate both halves so the timing does not tell which one was wrong.
  const keyOk = key !== undefined && email !== undefined && [safeEqual(key, creds.apiKey), safeEqual(email.toLowerCase(), creds.apiEmail.toLowerCase())].every(Boolean);
  if (tokenOk || keyOk) return undefined;
  if (auth !== undefined) {
    if (bearer === undefined) return invalidHeaders([6111, 'Invalid format for Authorization header']);
    return fail(403, 9109, 'Invalid access token');
  }
  if (key === undefined || email === undefined) return fail(400, 9106, MISSING);
  const chain: [number, string][] = [];
  if (!/^[^@\s]+@[^@\s]+$/.test(email.trim())) chain.push([6102, 'Invalid format for X-Auth-Email header']);
  if (!/^\S+$/.test(key)) chain.push([6103, 'Invalid format for X-Auth-Key header']);
  if (chain.length) return invalidHeaders(...chain);
  return fail(403, 9103, 'Unknown X-Auth-Key or X-Auth-Email');
}
