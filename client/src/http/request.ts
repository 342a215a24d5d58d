// The one HTTP primitive of the client: global fetch with a timeout, an optional caller signal, JSON bodies both ways, and results
// instead of exceptions. Error strings name what failed and where (host + path), never a query string or a header value. No vscode.
import { isObj } from './json';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is JSON-encoded. Content-Type defaults to application/json when a body is given. */
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The URL is the embedded mock backend's: a refused connection names "EdgeKit: Start Mock Backend" (rv46). */
  embeddedMock?: boolean;
}

export interface HttpOk {
  ok: true;
  status: number;
  /** Response headers, names lower-cased. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the text when it is not JSON (the empty string for an empty body). */
  body: unknown;
  text: string;
  ms: number;
}

export type HttpErrorKind = 'timeout' | 'network' | 'aborted' | 'invalid-url';

export interface HttpFail {
  ok: false;
  error: string;
  kind: HttpErrorKind;
  /** A network failure's socket or TLS error code (ECONNREFUSED, CERT_HAS_EXPIRED, ...), when the error carries one. */
  code?: string;
  ms: number;
}

export type HttpResult = HttpOk | HttpFail;

const BODYLESS = new Set(['GET', 'HEAD']);
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Send one request. Resolves for every HTTP status and for timeouts, network failures and aborts; it rejects only on a programming
 * error (a body on a GET or HEAD request).
 */
export async function request(req: HttpRequest): Promise<HttpResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const method = req.method.toUpperCase();
  if (req.body !== undefined && BODYLESS.has(method)) throw new TypeError(`A ${method} request cannot carry a body (${describeTarget(req.url)}).`);

  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { ok: false, kind: 'invalid-url', error: `The URL "${describeTarget(req.url)}" is not a valid absolute URL.`, ms: elapsed() };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, kind: 'invalid-url', error: `The URL "${describeTarget(req.url)}" must start with http:// or https://, not "${url.protocol}//".`, ms: elapsed() };
  }
  const where = describeTarget(url);

  const headers: Record<string, string> = { ...req.headers };
  let payload: string | undefined;
  if (req.body !== undefined) {
    payload = typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    if (!hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
  }
  if (!hasHeader(headers, 'accept')) headers.Accept = 'application/json';

  // Node's timers take at most 2^31-1 ms (about 24.8 days): past that, AbortSignal.timeout fires after 1 ms, or throws past 2^32-1.
  const timeout = AbortSignal.timeout(Math.min(req.timeoutMs, MAX_TIMER_MS));
  const signal = req.signal ? anySignal([timeout, req.signal]) : timeout;
  const failed = (err: unknown): HttpFail => {
    if (timeout.aborted) return { ok: false, kind: 'timeout', error: `${method} ${where} timed out after ${req.timeoutMs} ms.`, ms: elapsed() };
    if (req.signal?.aborted) return { ok: false, kind: 'aborted', error: `${method} ${where} was cancelled.`, ms: elapsed() };
    const code = networkCode(err);
    const advice = networkAdvice(err, code, url, req.embeddedMock === true);
    return { ok: false, kind: 'network', error: `${method} ${where} failed: ${networkReason(err, code)}.${advice ? ` ${advice}` : ''}`, ...(code ? { code } : {}), ms: elapsed() };
  };
  if (req.signal?.aborted) return failed(req.signal.reason);

  try {
    const send = () => fetch(url, { method, headers, body: payload, signal, redirect: 'manual' }); // a redirect must not carry credentials or the body to another host
    // A kept-alive connection the server closed as the request went out (a server stopping: the embedded mock's Stop) fails with
    // UND_ERR_SOCKET, "the server closed the connection", whatever the server's state now. A GET or HEAD, which acts on nothing, is
    // sent once more, on a new connection, as browsers do: its failure says what is so now (a refused connection: not running).
    const res = await send().catch((err: unknown) => {
      if (!BODYLESS.has(method) || signal.aborted || networkCode(err) !== 'UND_ERR_SOCKET') throw err;
      return send();
    });
    // The body is read under the same signal, so a server that stalls mid-body still times out.
    const text = await res.text();
    const responseHeaders: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      responseHeaders[name.toLowerCase()] = value;
    });
    return { ok: true, status: res.status, headers: responseHeaders, body: parseBody(text, responseHeaders['content-type']), text, ms: elapsed() };
  } catch (err) {
    return failed(err);
  }
}

/** JSON when the body is JSON (by content type or by its first character), else the text. */
export function parseBody(text: string, contentType: string | undefined): unknown {
  const trimmed = text.trim();
  if (!trimmed) return text;
  const looksJson = /^[[{"]/.test(trimmed) || /\bjson\b/i.test(contentType ?? '');
  if (!looksJson) return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

/** host + path of a URL, without user info, query or fragment: safe to show and log. */
export function describeTarget(url: string | URL): string {
  if (typeof url !== 'string') return `${url.host}${url.pathname}`;
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    // Not parseable: cut the query, fragment and any user info by hand.
    const noQuery = url.split(/[?#]/, 1)[0];
    return noQuery.replace(/^([^/?#]*?\/\/)?[^/@]*@/, '$1');
  }
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

/** AbortSignal.any where it exists (Node >= 20.3), else an equivalent. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const native = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (native) return native.call(AbortSignal, signals);
  const ctl = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      ctl.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => ctl.abort(s.reason), { once: true });
  }
  return ctl.signal;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the server running?)',
  ECONNRESET: 'the connection was reset by the server',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (temporary DNS failure)',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection could not be opened in time',
  EPIPE: 'the server closed the connection while the request was being sent',
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not send response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending the response body',
  CERT_HAS_EXPIRED: 'the server certificate has expired',
  CERT_NOT_YET_VALID: 'the server certificate is not valid yet',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the server certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the server certificate chain contains a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server certificate could not be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the certificate authority that issued the server certificate is not trusted here',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate does not match the host name',
};

/** TLS codes of a certificate chain that does not lead to a trusted authority: what a TLS-inspecting proxy's own CA gives. */
const UNTRUSTED_CHAIN = new Set(['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT']);
/** Codes of a host name that did not resolve: a network that resolves only through its proxy gives these when none is set. */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN']);
/** Codes of a host that did not answer (undici gives up a connection after 10 s: UND_ERR_CONNECT_TIMEOUT): a server that is down,
 * or a network that drops what does not go through its proxy. */
const UNANSWERED = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
/** Statuses with which a proxy says it could not reach the server itself (RFC 9110 15.6.3, 15.6.5), rather than refusing to. */
const PROXY_UNREACHED: Record<number, string> = { 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/**
 * The error under a fetch failure. undici wraps the socket or TLS error as `cause` (sometimes an AggregateError of several attempts);
 * a tunnel the proxy refused is one level deeper, under a DOMException "Request was cancelled." whose `code` is a number.
 */
function networkCause(err: unknown): unknown {
  let cause: unknown = err instanceof Error && err.cause !== undefined ? err.cause : err;
  for (let depth = 0; depth < 4; depth++) {
    if (cause instanceof AggregateError && cause.errors.length) cause = cause.errors[0];
    else if (cause instanceof Error && typeof (cause as { code?: unknown }).code !== 'string' && cause.cause !== undefined) cause = cause.cause;
    else break;
  }
  return cause;
}

/** The socket or TLS error code of a fetch failure, when it has one (a string: a DOMException's numeric code is not one). */
function networkCode(err: unknown): string | undefined {
  const cause = networkCause(err);
  const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code ? code : undefined;
}

/**
 * The HTTP status with which a proxy refused to open a tunnel (CONNECT): undici's "Proxy response (407) !== 200 when HTTP
 * Tunneling", which VS Code's proxy agent imitates when the user gives no credentials.
 */
function proxyRefusal(err: unknown): number | undefined {
  const cause = networkCause(err);
  const m = cause instanceof Error ? /\bProxy response \((\d{3})\)/.exec(cause.message) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * A failure with no reason at all: an Error with neither message nor code. The fetch standard turns a 407 response into such a
 * network error ("If response's status is 407 ... return a network error", undici's httpNetworkOrCacheFetch), and with EdgeKit's
 * requests (manual redirects, no opaque responses) that is the only way to get one: a proxy that forwards plain HTTP asked for
 * credentials.
 */
function bareFailure(err: unknown, code: string | undefined): boolean {
  const cause = networkCause(err);
  return code === undefined && cause instanceof Error && cause !== err && cause.message === '';
}

/** Words for a fetch failure with its code (networkCode). */
function networkReason(err: unknown, code: string | undefined): string {
  const proxyStatus = proxyRefusal(err);
  if (proxyStatus !== undefined && PROXY_UNREACHED[proxyStatus]) return `the proxy could not reach the server (HTTP ${proxyStatus} ${PROXY_UNREACHED[proxyStatus]})`;
  if (proxyStatus !== undefined) return `the proxy refused to open a connection to the server (HTTP ${proxyStatus}${proxyStatus === 407 ? ' Proxy Authentication Required' : ''})`;
  if (bareFailure(err, code)) return 'no usable answer, most likely a proxy\'s HTTP 407 Proxy Authentication Required (which fetch reports without a reason)';
  if (code && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
  if (code) return code;
  const cause = networkCause(err);
  if (cause instanceof Error && cause.message) return cause.message.replace(/\.$/, '');
  return 'unknown network error';
}

/** The hosts that VS Code's proxy resolver always reaches directly (localhost, 127.0.0.1, ::1: `useProxySettings` in @vscode/proxy-agent,
 * before any proxy setting is read): a URL's hostname naming this machine with nothing between. The one rule for the advice below and
 * for the http:// that Set API Credentials… takes (commands/backend.ts baseUrlProblem), which took all of 127.0.0.0/8 while this knew
 * 127.0.0.1 alone; 127.0.0.2 goes through a configured proxy, so plain http there crosses the network to it (rv45). */
export const isLoopbackHost = (hostname: string): boolean => hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
const THROUGH_A_PROXY = 'if this network reaches the internet only through a proxy, set VS Code\'s "http.proxy" (or HTTPS_PROXY).';
const CHECK_THE_PROXY = 'check the proxy ("http.proxy", or HTTPS_PROXY).';

/**
 * What to check after a failure that a proxy, a TLS-inspecting proxy's certificate authority or a wrong address explains, naming the
 * URL's origin and the VS Code settings that apply to EdgeKit's requests; empty for the rest. The loopback mock never goes through a
 * proxy (VS Code connects to localhost, 127.0.0.1 and ::1 directly), so its failures get no proxy advice.
 */
function networkAdvice(err: unknown, code: string | undefined, url: URL, embeddedMock: boolean): string {
  const origin = url.origin;
  const proxyStatus = proxyRefusal(err);
  if (proxyStatus === 407 || bareFailure(err, code)) {
    // Not as a URL with user info: redact() masks that in the log and in shown errors ("http://***@proxy:port"), advice and all.
    return 'VS Code asks for the proxy\'s credentials when the proxy requests them; if it did not ask or they were refused, give them in the "http.proxy" setting (or in HTTPS_PROXY), as user:password@ before the proxy\'s host.';
  }
  if (proxyStatus !== undefined && PROXY_UNREACHED[proxyStatus]) {
    return `${origin} may be down, or its host name wrong: the proxy could not open a connection to it. If it is reachable without the proxy, it can go in "http.noProxy".`;
  }
  if (proxyStatus !== undefined) return `Check that the proxy ("http.proxy", or HTTPS_PROXY) lets this computer reach ${origin}; a host reachable without it can go in "http.noProxy".`;
  // The embedded mock stopped (its Stop, or another window's whose mock this one shared): said so, with the command. Only for its
  // URL: the advice was given for any loopback port (rv46), where a user's own API or gateway (a local node on 127.0.0.1:8545), or a
  // standalone mock with "edgekit.backend" remote, is not started by that command; "(is the server running?)" says enough there.
  if (code === 'ECONNREFUSED' && embeddedMock) {
    return `Nothing listens at ${url.host}: EdgeKit's mock backend is not running; start it with "EdgeKit: Start Mock Backend".`;
  }
  if (!code || isLoopbackHost(url.hostname)) return '';
  if (UNTRUSTED_CHAIN.has(code)) {
    return `${origin} presented a certificate from an authority this computer does not trust. If a proxy inspects TLS on this network, its CA certificate must be in the OS certificate store, with VS Code's "http.systemCertificates" and "http.fetchAdditionalSupport" on (the defaults); or start VS Code with NODE_EXTRA_CA_CERTS naming the CA's PEM file.`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `Check this computer's date and time; if they are right, ${origin} (or a proxy that inspects TLS on this network) presents an out-of-date certificate.`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `The certificate is for another host: check the host name in ${origin}; a proxy that inspects TLS on this network gives this too when it signs for the wrong name.`;
  }
  const failedAt = networkCause(err) as { address?: unknown; port?: unknown; hostname?: unknown };
  if (code === 'ECONNREFUSED') {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (typeof failedAt.port === 'number' && failedAt.port !== port) {
      return `The refused connection was to ${String(failedAt.address)}:${failedAt.port}, not to ${origin}: ${CHECK_THE_PROXY}`;
    }
    return `Check the address and port of ${origin}; ${THROUGH_A_PROXY}`;
  }
  if (UNRESOLVED.has(code)) {
    // The lookup's own host name: the proxy's, when a proxy is set and its name is the one that failed.
    if (typeof failedAt.hostname === 'string' && failedAt.hostname.toLowerCase() !== url.hostname) {
      return `The host name that failed was ${failedAt.hostname}, not ${url.hostname}: ${CHECK_THE_PROXY}`;
    }
    return `Check the host name in ${origin} and this computer's network; ${THROUGH_A_PROXY}`;
  }
  if (UNANSWERED.has(code)) {
    return `${origin} did not answer: it may be down, or this computer's network may not reach it; ${THROUGH_A_PROXY}`;
  }
  return '';
}

// ---- curl ----

/** Header name (lower case) -> the environment variable a redacted curl command refers to instead of the value. */
export const SECRET_HEADER_ENV: Readonly<Record<string, string>> = {
  authorization: 'EDGEKIT_API_TOKEN',
  'x-auth-key': 'EDGEKIT_API_KEY',
  'x-auth-email': 'EDGEKIT_API_EMAIL',
  cookie: 'EDGEKIT_COOKIE',
};

/** Single-quote for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A copy-pasteable curl command for a request. With redactSecrets, credential headers become environment references
 * (`-H "Authorization: Bearer $EDGEKIT_API_TOKEN"`), so the command can be shared and run after exporting the variables.
 */
export function toCurl(req: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'body' | 'timeoutMs'>, opts: { redactSecrets: boolean }): string {
  const method = req.method.toUpperCase();
  const parts: string[] = ['curl -sS'];
  if (method !== 'GET' || req.body !== undefined) parts.push(`-X ${method}`);
  parts.push(shellQuote(req.url));
  const headers: Record<string, string> = { ...req.headers };
  if (req.body !== undefined && !hasHeader(headers, 'content-type')) headers['Content-Type'] = 'application/json';
  for (const [name, value] of Object.entries(headers)) {
    const env = opts.redactSecrets ? SECRET_HEADER_ENV[name.toLowerCase()] : undefined;
    if (env) {
      const bearer = name.toLowerCase() === 'authorization' && /^bearer\s/i.test(value) ? 'Bearer ' : '';
      parts.push(`-H "${name}: ${bearer}$${env}"`);
    } else {
      parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
    }
  }
  if (req.body !== undefined) parts.push(`--data-raw ${shellQuote(typeof req.body === 'string' ? req.body : JSON.stringify(req.body))}`);
  if (req.timeoutMs > 0) parts.push(`--max-time ${Math.max(1, Math.ceil(req.timeoutMs / 1000))}`);
  return parts.join(' \\\n  ');
}

// ---- words for errors ----

export interface EnvelopeMessage {
  code: number;
  message: string;
  /** The error's source.pointer: where in the request body it is (a JSON Pointer), when the API says. */
  pointer?: string;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'Bad Request: the server rejected the request as malformed',
  401: 'Unauthorized: the credentials are missing or invalid',
  403: 'Forbidden: the credentials are not allowed to do this, or the server refuses this operation',
  404: 'Not Found: the URL or the resource does not exist (check the base URL and the zone id)',
  405: 'Method Not Allowed: this path does not take this HTTP method',
  408: 'Request Timeout: the server gave up waiting for the request',
  409: 'Conflict: the resource is not in a state that allows this change',
  413: 'Payload Too Large: the request body is over the server\'s size limit',
  415: 'Unsupported Media Type: the server expects Content-Type: application/json',
  422: 'Unprocessable Entity: the request is well-formed but its content was rejected',
  429: 'Too Many Requests: rate limited; wait and try again',
  500: 'Internal Server Error: the server failed; try again later',
  502: 'Bad Gateway: a proxy in front of the server got a bad answer; try again later',
  503: 'Service Unavailable: the server is overloaded or down for maintenance; try again later',
  504: 'Gateway Timeout: a proxy in front of the server timed out; try again later',
};

/**
 * Words for an HTTP status, e.g. "HTTP 401 Unauthorized: the credentials are missing or invalid". A redirect (never followed: see
 * request()) says where it points when the response headers (names lower-cased) carry a Location.
 */
export function describeStatus(status: number, headers?: Record<string, string>): string {
  const words = STATUS_WORDS[status];
  if (status === 429) {
    const when = retryWhen(headers);
    if (when) return `HTTP 429 Too Many Requests: rate limited; try again ${when}`;
  }
  if (words) return `HTTP ${status} ${words}`;
  if (status >= 500) return `HTTP ${status}: the server failed; try again later`;
  if (status >= 400) return `HTTP ${status}: the server rejected the request`;
  if (status >= 300) {
    const to = headers?.location ? redirectTarget(headers.location) : '';
    return `HTTP ${status}: an unfollowed redirect${to ? ` to ${to}; set the URL it points to (EdgeKit does not follow redirects, so that credentials and the request stay with the host you set)` : ''}`;
  }
  return `HTTP ${status}`;
}

/**
 * When a 429 says capacity comes back: Retry-After (seconds, or an HTTP date) as "in N s", else X-RateLimit-Reset (the platform's
 * RFC 1123 date) as "after <date>"; undefined when neither header is there or readable (a value is quoted only once parsed).
 */
function retryWhen(headers: Record<string, string> | undefined): string | undefined {
  const after = headers?.['retry-after']?.trim();
  if (after && /^\d+$/.test(after)) {
    const s = Number(after);
    return `in ${s} s${s >= 60 ? ` (${Math.ceil(s / 60)} min)` : ''}`;
  }
  for (const date of [after, headers?.['x-ratelimit-reset']?.trim()]) {
    if (date && /[a-z]/i.test(date) && !Number.isNaN(Date.parse(date))) return `after ${new Date(date).toUTCString()}`;
  }
  return undefined;
}

/** A Location as scheme://host/path (an absolute one) or its path (a relative one): no user info, query or fragment. */
function redirectTarget(location: string): string {
  try {
    const u = new URL(location);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return describeTarget(location.trim());
  }
}

export const JSON_RPC_ERRORS: Readonly<Record<number, string>> = {
  [-32700]: 'parse error: the request body is not valid JSON',
  [-32600]: 'invalid request: the body is not a valid JSON-RPC request object',
  [-32601]: 'method not found: the method does not exist or is not available',
  [-32602]: 'invalid params: the method parameters are wrong',
  [-32603]: 'internal error: the server failed while handling the request',
  // EIP-1474 (ethereum/execution-apis error groups). -32000, its "invalid input", is left out: nodes use it for anything.
  [-32001]: 'resource not found: the requested block, transaction or other resource does not exist',
  [-32002]: 'resource unavailable: the requested resource is not available',
  [-32003]: 'transaction rejected: the transaction could not be created',
  [-32004]: 'method not supported: the method is not implemented or not allowed here',
  [-32005]: 'limit exceeded: the request exceeds a defined limit',
  [-32006]: 'JSON-RPC version not supported',
};

/** Words for a JSON-RPC error code. */
export function describeRpcCode(code: number): string {
  const known = JSON_RPC_ERRORS[code];
  if (known) return known;
  if (code <= -32000 && code >= -32099) return 'server error (implementation-defined)';
  return 'application error';
}


/** The errors of a management envelope ({success: false, errors: [{code, message}]}), or undefined when the body is not one. */
export function envelopeErrors(body: unknown): EnvelopeMessage[] | undefined {
  if (!isObj(body) || !Array.isArray(body.errors) || typeof body.success !== 'boolean') return undefined;
  return body.errors.filter(isObj).map((e) => {
    const pointer = isObj(e.source) && typeof e.source.pointer === 'string' && e.source.pointer !== '' ? e.source.pointer : undefined;
    return {
      code: typeof e.code === 'number' ? e.code : Number(e.code) || 0,
      message: typeof e.message === 'string' ? e.message : JSON.stringify(e.message ?? e),
      ...(pointer ? { pointer } : {}),
    };
  });
}

/** The error member of a JSON-RPC response ({error: {code, message}}), or undefined. */
export function rpcError(body: unknown): { code: number; message: string; data?: unknown } | undefined {
  if (!isObj(body) || !isObj(body.error) || typeof body.error.code !== 'number') return undefined;
  const e = body.error;
  return { code: e.code as number, message: typeof e.message === 'string' ? e.message : '', ...('data' in e ? { data: e.data } : {}) };
}

/** "error -32601 (method not found: ...): Method "x" does not exist" (the message's own "." dropped; a "?" or "!" kept: end it with
 * sentence()). */
export function describeRpcError(e: { code: number; message: string }): string {
  const msg = e.message.trim();
  return `error ${e.code} (${describeRpcCode(e.code)})${msg ? `: ${msg.replace(/\.$/, '')}` : ''}`;
}

/** `text` ending as a sentence: a "." added unless it ends in one already, or in "?", "!" or "…". */
export function sentence(text: string): string {
  return /[.?!…]$/.test(text) ? text : `${text}.`;
}

/**
 * Words for a failed response: the status, then what the body says (management envelope errors or a JSON-RPC error), or the start of
 * a plain-text body. Also explains a 2xx whose envelope says success false.
 */
export function describeHttpError(status: number, body: unknown, headers?: Record<string, string>): string {
  const head = describeStatus(status, headers);
  const errors = envelopeErrors(body);
  if (errors && errors.length) {
    const list = errors.map((e) => `${e.code ? `[${e.code}] ` : ''}${e.message.replace(/\.$/, '')}${e.pointer ? ` (at ${e.pointer})` : ''}`).join('; ');
    return `${head}. The API says: ${list}.`;
  }
  if (errors && isObj(body) && body.success === false) return `${head}. The API reported failure without an error message.`;
  const rpc = rpcError(body);
  if (rpc) return `${head}. ${sentence(`JSON-RPC ${describeRpcError(rpc)}`)}`;
  if (typeof body === 'string' && body.trim()) {
    const flat = body.replace(/\s+/g, ' ').trim();
    return `${head}. The response says: "${flat.length > 200 ? `${flat.slice(0, 200)}…` : flat}".`;
  }
  return `${head}.`;
}
