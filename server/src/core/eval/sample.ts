// Deterministic sample traffic: realistic http_requests log records (the field names and types of the dataset's catalogue), with
// a share of hostile requests (SQL injection, XSS, path traversal, scanners, bots). The same seed gives the same records; "Test
// Filter on Logs" offers them when no log file is at hand, and the mock can replay them.
import type { LogRecord } from './filter';
import { mulberry32 as prng } from '../prng';
import { VERIFIED_BOTS, addUnloggedFields, asnOf, emptyValue, fingerprintOf, locationOf, pairs, scoreClass } from './sampleDetails';

/** The zone the sample's requests go to when none is known, and the hosts they ask for in a zone (its name, then subdomains). */
export const SAMPLE_ZONE = 'example.com';
const HOSTS_OF = (zone: string): string[] => [zone, `www.${zone}`, `api.${zone}`, `shop.${zone}`];
const PATHS = ['/', '/login', '/account', '/api/v1/users', '/api/v1/orders', '/static/app.js', '/static/style.css', '/images/logo.png', '/search', '/cart'];
/** The old site's pages, still visited: the demo zone business.example has a page rule on /legacy/* (mock/src/zones.ts), which the
 * migration turns into a skip rule; without them, that rule matched none of the sample but the mock's live traffic. */
const LEGACY_PATHS = ['/legacy/', '/legacy/index.php', '/legacy/catalog.php?cat=12', '/legacy/images/banner.gif'];
/** The share of the benign requests to a page without path-dependent draws that go to the old site instead (about 5% of all). */
const LEGACY_SHARE = 0.08;
const COUNTRIES = ['us', 'us', 'us', 'de', 'gb', 'fr', 'ca', 'br', 'in', 'jp', 'cn', 'ru', 'nl', 'au'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
];
/** Hostile requests: [kind, path and query, user agent]. */
const HOSTILE: [string, string, string][] = [
  ['sqli', "/search?q=1' OR '1'='1", 'sqlmap/1.8'], ['sqli', '/api/v1/users?id=1 UNION SELECT password FROM users', 'Mozilla/5.0'],
  ['xss', '/search?q=<script>alert(1)</script>', 'Mozilla/5.0'], ['traversal', '/static/../../etc/passwd', 'curl/8.5.0'],
  ['scanner', '/wp-login.php', 'Nikto/2.5.0'], ['scanner', '/.env', 'zgrab/0.x'], ['bot', '/login', 'python-requests/2.31.0'],
];
/** More hostile requests for the `extended` variety (the mock's live traffic): the kinds above and encoded traversal, command and
 * code injection, framework exploits (Struts, Drupal, WordPress), more scanners and bad bots, on paths the demo zones' page rules
 * cover (/static, /legacy, /shop). The basic list stays as it is, so existing seeds give the same records. */
const HOSTILE_EXTRA: [string, string, string][] = [
  ['sqli', "/search?q=1' UNION SELECT username, password FROM users--", 'Mozilla/5.0'], ['sqli', '/shop/item?id=1 UNION ALL SELECT NULL,NULL', 'sqlmap/1.8'],
  ['xss', '/search?q=<img src=x onerror=alert(1)>', 'Mozilla/5.0'], ['xss', '/legacy/comment?text=<script>document.cookie</script>', 'Mozilla/5.0'],
  ['traversal', '/download?file=%2e%2e%2f%2e%2e%2fetc%2fpasswd', 'curl/8.5.0'], ['rce', '/api/v1/ping?host=127.0.0.1;cat /etc/passwd', 'curl/8.5.0'],
  ['php', '/index.php?page=<?php phpinfo(); ?>', 'Mozilla/5.0'], ['scanner', '/.git/config', 'masscan/1.3'], ['scanner', '/xmlrpc.php', 'WPScan v3.8'],
  ['scanner', '/wp-content/uploads/shell.php', 'Mozilla/5.0'], ['struts', '/login.action?redirect:http://evil.example/', 'Mozilla/5.0'],
  ['drupal', '/user/register?element_parents=account/mail/%23value&ajax_form=1', 'python-requests/2.31.0'], ['bot', '/cart', 'BadBot/1.0'],
  ['sqli', "/static/img.png?v=1' OR '1'='1", 'Mozilla/5.0'],
];
const HOSTILE_EXTENDED = [...HOSTILE, ...HOSTILE_EXTRA];

/** Which hostile kind a sample record is (undefined for a benign one), by its URI and user agent. */
export function hostileKind(record: LogRecord): string | undefined {
  const uri = record.ClientRequestURI, ua = record.ClientRequestUserAgent;
  return HOSTILE_EXTENDED.find(([, u, a]) => u === uri && a === ua)?.[0];
}

/** `count` http_requests records, one second apart from 2026-11-24T00:00:00Z, about `hostileShare` of them hostile, to `zone`
 * (ClientRequestHost its name or a subdomain of it, a Referer on the site, ZoneName; the zone takes no draw, so every other field
 * is the same whatever the zone). `extended` draws the hostile ones from the longer list, and one in ten of them from the
 * 203.0.113.0/24 network (a scan from an allow-listed office); without it, the core fields (those up to WorkerSubrequest) are
 * those of earlier versions for the same seed, but for the milliseconds of the time, the client's address (clientAddress) and
 * the page of about one benign request in twenty (the old site's /legacy/ pages: oldSite). */
export function sampleHttpRequests(count: number, seed = 1, hostileShare = 0.1, extended = false, zone = SAMPLE_ZONE): LogRecord[] {
  return [...eachSampleHttpRequest(count, seed, hostileShare, extended, zone)];
}

/** sampleHttpRequests' records one at a time: a large sample counted as it is made is never all in memory. */
export function* eachSampleHttpRequest(count: number, seed = 1, hostileShare = 0.1, extended = false, zone = SAMPLE_ZONE): Generator<LogRecord> {
  const rand = prng(seed);
  const hosts = HOSTS_OF(zone);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const start = Date.UTC(2026, 10, 24);
  // The fields added since (location, network, TLS, referrer, WAF scores by attack, ...) are drawn from a stream of their own, so
  // the fields above keep the values earlier versions gave for a seed, but for the time's milliseconds (one second apart, as before)
  const more = prng((seed ^ 0x5bd1e995) >>> 0);
  // Where a benign request comes from (clientAddress): a stream of its own, so that every other field keeps its value for a seed
  const site = prng((seed ^ 0x1b873593) >>> 0);
  // Whether a benign request goes to the old site's pages: a stream of its own, two draws a line, so every other line is the same
  const old = prng((seed ^ 0x85ebca6b) >>> 0);
  for (let i = 0; i < count; i++) {
    const hostile = rand() < hostileShare ? pick(extended ? HOSTILE_EXTENDED : HOSTILE) : undefined;
    const office = hostile && extended && rand() < 0.1;
    const uri = hostile ? hostile[1] : oldSite(pick(PATHS), old(), old());
    const q = uri.indexOf('?');
    const status = hostile ? pick([403, 404, 200, 500]) : pick([200, 200, 200, 200, 304, 301, 404, 500]);
    const line: LogRecord = {
      EdgeStartTimestamp: new Date(start + i * 1000).toISOString(),
      ClientIP: clientAddress(hostile && !office ? 'hosting' : office ? 'office' : undefined, site, rand),
      ClientCountry: hostile ? pick(['cn', 'ru', 'us', 'nl']) : pick(COUNTRIES),
      ClientRequestHost: pick(hosts),
      ClientRequestMethod: hostile?.[0] === 'sqli' && rand() < 0.5 ? 'POST' : pick(['GET', 'GET', 'GET', 'POST']),
      ClientRequestPath: q < 0 ? uri : uri.slice(0, q),
      ClientRequestURI: uri,
      ClientRequestUserAgent: hostile ? hostile[2] : pick(AGENTS),
      ClientRequestProtocol: pick(['HTTP/1.1', 'HTTP/2', 'HTTP/3']),
      EdgeResponseStatus: status,
      OriginResponseStatus: status === 304 ? 304 : status,
      EdgeResponseBytes: Math.floor(rand() * 50_000) + 200,
      BotScore: hostile ? 1 + Math.floor(rand() * 20) : 30 + Math.floor(rand() * 70),
      CacheCacheStatus: pick(['hit', 'miss', 'dynamic', 'expired']),
      RayID: rayId(rand(), i, seed),
      WAFAttackScore: hostile ? 1 + Math.floor(rand() * 20) : 50 + Math.floor(rand() * 49),
      // Visitors' requests, none a Worker's own subrequest; a constant, so the records above stay those of earlier versions
      WorkerSubrequest: false,
    };
    yield Object.assign(line, moreLogFields(line, hostile?.[0], more, hostile !== undefined && !office, zone));
  }
}

/** A benign request's page, or one of the old site's by the two draws. Only a page whose fields draw alike on any path is replaced
 * (not /login, /account or the API: their bodies, credential checks and JWTs draw more), so the lines after it keep their values. */
function oldSite(path: string, whether: number, which: number): string {
  return whether < LEGACY_SHARE && !/^\/(login|account|api\/)/.test(path) ? LEGACY_PATHS[Math.floor(which * LEGACY_PATHS.length)] : path;
}

/**
 * A request's client address, in the documentation ranges (RFC 5737's three IPv4 networks, RFC 3849's 2001:db8::/32): a hostile
 * request's (`hosting`) from one of 20 hosting addresses, 198.51.100.1-20; an office's (`office`: an allow-listed scan of the
 * extended variety) from 203.0.113.0/24; a benign one's by a draw of `site`: one in ten from that office network (which the mock's
 * zones let bypass the WAF), then 192.0.2.0/24 (35%), the rest of 198.51.100.0/24 (25%) and 2001:db8::/32 (30%). The address's last
 * part is the line's one draw of `rand`, where the address always took it, so the other fields keep their values for a seed. All
 * benign requests came from the office network at first, so an "office bypasses the WAF" rule skipped nine in ten of the sample
 * (ui3's walk); then nine in ten came from 192.0.2.0/24, which a skip written on the docs' example range took (cl12).
 */
function clientAddress(from: 'hosting' | 'office' | undefined, site: () => number, rand: () => number): string {
  if (from === 'hosting') return `198.51.100.${1 + Math.floor(rand() * 20)}`;
  const where = from === 'office' ? 0 : site();
  if (where < 0.1) return `203.0.113.${Math.floor(rand() * 255)}`;
  if (where < 0.45) return `192.0.2.${Math.floor(rand() * 255)}`;
  if (where < 0.7) return `198.51.100.${21 + Math.floor(rand() * 234)}`;
  // RFC 5952's form, as the platform logs it: no group 0 but the compressed run, no leading zeros
  const group = (draw: number) => (1 + Math.floor(draw * 0xffff)).toString(16);
  return `2001:db8:${group(site())}:${group(site())}::${group(rand())}`;
}

/**
 * The RayID of the sample's `i`th request: 16 hex digits, the draw's 32 bits then a bijection of the request's number (and the seed),
 * so no two requests of a sample share one (Test Rules reads a RayID seen again as another event of one request). One draw a line,
 * where the RayID always took it, so the fields drawn after it keep their values for a seed. (It was the draw shifted left: 32 bits
 * of chance, a repeat about once in 65 000 requests, and every id ending in "00000".)
 */
function rayId(draw: number, i: number, seed: number): string {
  // mulberry32 gives multiples of 2^-32: the draw's bits exactly
  const high = Math.floor(draw * 2 ** 32);
  // lowbias32 (xor-shifts and odd multipliers, each invertible): distinct numbers give distinct bits
  let x = (i ^ seed) >>> 0;
  x ^= x >>> 16; x = Math.imul(x, 0x7feb352d); x ^= x >>> 15; x = Math.imul(x, 0x846ca68b); x ^= x >>> 16;
  return high.toString(16).padStart(8, '0') + (x >>> 0).toString(16).padStart(8, '0');
}

/** What a leaked-credential check finds on a login that is not clean (LeakedCredentialCheckResult). */
const LEAKED = ['password_leaked', 'username_and_password_leaked', 'username_password_similar', 'username_leaked'];

/** The http_requests fields a line has besides the core ones: the client's location, network, TLS and referrer, the WAF's scores by
 * attack class, the bot detections and leaked-credential check, the zone; about 2% of the benign requests are a verified bot's. */
function moreLogFields(l: LogRecord, hostile: string | undefined, rand: () => number, hosting: boolean, zone: string): LogRecord {
  const loc = locationOf(String(l.ClientCountry), rand);
  const ip = String(l.ClientIP);
  const tls13 = rand() < 0.8;
  const bot = !hostile && rand() < 0.02 ? VERIFIED_BOTS[Math.floor(rand() * VERIFIED_BOTS.length)] : undefined;
  const ua = bot ? bot[0] : String(l.ClientRequestUserAgent);
  const fp = fingerprintOf(ua);
  const tool = !bot && !ua.startsWith('Mozilla/5.0 (');
  const low = () => 1 + Math.floor(rand() * 20), high = () => 60 + Math.floor(rand() * 39);
  const path = String(l.ClientRequestPath);
  const referer = bot || tool || rand() < 0.4 ? '' : rand() < 0.5 ? 'https://www.google.com/' : `https://${String(l.ClientRequestHost)}/`;
  const upload = l.ClientRequestMethod === 'POST' && path === '/account';
  const scan = rand();
  const scanned = upload ? [scan < 0.2 ? 'infected' : scan < 0.3 ? 'not scanned' : 'clean'] : [];
  return {
    EdgeStartTimestamp: new Date(Date.parse(String(l.EdgeStartTimestamp)) + Math.floor(rand() * 1000)).toISOString(),
    ...(bot ? { ClientRequestUserAgent: bot[0], BotScore: 1, BotScoreSrc: 'Verified Bot' }
      : { BotScoreSrc: tool ? 'Heuristics' : 'Machine Learning' }),
    BotDetectionIDs: tool ? [33554817 + Math.floor(rand() * 4)] : [],
    ClientASN: asnOf(ip, loc, hosting), ClientCity: loc?.city ?? '', ClientRegionCode: loc?.regionCode ?? '',
    ClientLatitude: loc?.lat ?? '', ClientLongitude: loc?.lon ?? '', ClientRequestReferer: referer, ClientRequestScheme: 'https',
    ClientSSLProtocol: tls13 ? 'TLSv1.3' : 'TLSv1.2', ClientSSLCipher: tls13 ? 'AEAD-AES128-GCM-SHA256' : 'ECDHE-RSA-AES128-GCM-SHA256',
    ClientSrcPort: 1024 + Math.floor(rand() * 64_512), ClientTCPRTTMs: l.ClientRequestProtocol === 'HTTP/3' ? 0 : 5 + Math.floor(rand() * 200),
    JA3Hash: fp.ja3, JA4: fp.ja4,
    WAFSQLiAttackScore: hostile === 'sqli' ? low() : high(), WAFXSSAttackScore: hostile === 'xss' ? low() : high(),
    WAFRCEAttackScore: hostile === 'rce' || hostile === 'php' || hostile === 'struts' || hostile === 'drupal' ? low() : high(),
    LeakedCredentialCheckResult: l.ClientRequestMethod === 'POST' && path === '/login' && rand() < 0.5 ? LEAKED[Math.floor(rand() * LEAKED.length)] : 'clean',
    ContentScanObjResults: scanned, ContentScanObjTypes: upload ? ['image/png'] : [], ContentScanObjSizes: upload ? [2048 + Math.floor(rand() * 100_000)] : [],
    ZoneName: zone,
  };
}

/** The same sample traffic as request records of the rules language (its field names), for "Test Rule on Requests", to `zone`
 * (http.host and the Host header its name or a subdomain of it, the full URI and an on-site Referer on that host, cf.zone.name). */
export function sampleRequests(count: number, seed = 1, hostileShare = 0.1, zone = SAMPLE_ZONE): LogRecord[] {
  return [...eachSampleRequest(count, seed, hostileShare, zone)];
}

/** sampleRequests' records one at a time (a request record holds some 70 fields: Test Rules counts a sample of up to 100 000 as it
 * is made, rather than holding it all). */
export function* eachSampleRequest(count: number, seed = 1, hostileShare = 0.1, zone = SAMPLE_ZONE): Generator<LogRecord> {
  // What no log line carries (headers, bodies, certificates, claims, ...) from a stream of its own
  const rand = prng((seed ^ 0x27d4eb2d) >>> 0);
  for (const l of eachSampleHttpRequest(count, seed, hostileShare, false, zone)) yield addUnloggedFields(l, toRequestRecord(l), rand);
}

/** The query's arguments: name -> values in order, and the names and values in order ("flag" alone has the value ""). */
function queryArgs(query: string): { args: Record<string, string[]>; names: string[]; values: string[] } {
  const parts = query.split('&').filter((part) => part).map((part): [string, string] => {
    const eq = part.indexOf('=');
    return eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
  });
  const { map, names, values } = pairs(parts);
  return { args: map, names, values };
}

/** The path's file extension as the platform gives it: of the last segment, lower-cased, without the dot; "" when none. */
function extension(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot < 0 ? '' : last.slice(dot + 1).toLowerCase();
}

/** A log line's value when it has one (Logpush writes only the job's output_options.field_names, so a real line may lack any). */
const has = (v: unknown): boolean => v !== undefined && v !== null;

/**
 * An http_requests log record as a request record of the rules language (its field names): the sample's lines, the mock's traffic,
 * and a user's Logpush logs (Test Rules reads those as the requests they log). Only what the line gives is set: a line without
 * ClientRequestURI has no query (its path is ClientRequestPath's), one without ClientRequestHost no full URI. EdgeStartTimestamp
 * is read in each of Logpush's timestamp formats (rfc3339 text, unix seconds, unixnano nanoseconds as a number or an exact bigint).
 */
export function toRequestRecord(l: LogRecord): LogRecord {
  const uri = has(l.ClientRequestURI) ? String(l.ClientRequestURI) : undefined;
  const q = uri === undefined ? -1 : uri.indexOf('?');
  const path = has(l.ClientRequestPath) ? String(l.ClientRequestPath) : uri === undefined ? undefined : q < 0 ? uri : uri.slice(0, q);
  const query = uri === undefined ? undefined : q < 0 ? '' : uri.slice(q + 1);
  return requestRecordOf(l, uri, path, query, l.EdgeStartTimestamp, l.ClientRequestReferer);
}

/**
 * A firewall_events log record (a security event: the request a rule acted on or logged) as the request record it logs, as
 * toRequestRecord reads an http_requests line: the fields the two datasets share are read alike; the URI is ClientRequestPath and
 * ClientRequestQuery (logged with its "?" or without; the rules language's query has none), the time is Datetime (the event's, at
 * the edge, in any timestamp_format), the Referer header is ClientRefererScheme, Host, Path and Query together (an empty
 * ClientRefererHost: no Referer). The event's own fields (Action, Source, RuleID, ...) are no request field. The caller gives only
 * the dataset's members (an http_requests member on the line would be read: logRequests.ts leaves those out).
 */
export function firewallEventToRequestRecord(l: LogRecord): LogRecord {
  const path = has(l.ClientRequestPath) ? String(l.ClientRequestPath) : undefined;
  const logged = has(l.ClientRequestQuery) ? String(l.ClientRequestQuery) : undefined;
  const query = logged === undefined ? undefined : logged.startsWith('?') ? logged.slice(1) : logged;
  const uri = path === undefined || logged === undefined ? undefined : logged ? `${path}?${query}` : path;
  return requestRecordOf(l, uri, path, query, l.Datetime, refererOf(l));
}

/** A firewall_events line's Referer header from its four parts: "" when ClientRefererHost is empty (no Referer), undefined when a
 * part is not on the line (a job's field_names may leave some out: a URL without its query is not the header). */
function refererOf(l: LogRecord): string | undefined {
  if (l.ClientRefererHost === '') return '';
  if (!has(l.ClientRefererScheme) || !has(l.ClientRefererHost) || !has(l.ClientRefererPath) || !has(l.ClientRefererQuery)) return undefined;
  const query = String(l.ClientRefererQuery);
  return `${String(l.ClientRefererScheme)}://${String(l.ClientRefererHost)}${String(l.ClientRefererPath)}${query && !query.startsWith('?') ? '?' : ''}${query}`;
}

/** The request record of a log line whose URI, path, query, time and referer its dataset's reading gave (undefined: not on the
 * line); the other fields are read from the line by the names the two datasets share and http_requests' own. */
function requestRecordOf(l: LogRecord, uri: string | undefined, path: string | undefined, query: string | undefined, timestamp: unknown, referer: unknown): LogRecord {
  const host = has(l.ClientRequestHost) ? String(l.ClientRequestHost) : undefined;
  const ua = has(l.ClientRequestUserAgent) ? String(l.ClientRequestUserAgent) : undefined;
  const argsOf = query === undefined ? undefined : queryArgs(query);
  const time = requestTime(timestamp);
  const scheme = typeof l.ClientRequestScheme === 'string' && l.ClientRequestScheme ? l.ClientRequestScheme : 'https';
  const headers: [string, string][] = [];
  if (host !== undefined) headers.push(['host', host]);
  if (ua !== undefined) headers.push(['user-agent', ua]);
  // Logpush's custom fields (the zone's http_log_custom_fields rules): headers and cookies by name
  // (the line's own host and user agent are kept; a name twice in the custom field gives the header two values, as pairs() groups)
  for (const h of customPairs(l.RequestHeaders)) if (!((h[0] === 'host' && host !== undefined) || (h[0] === 'user-agent' && ua !== undefined))) headers.push(h);
  const heads = headers.length ? pairs(headers) : undefined;
  const cookies = customPairs(l.Cookies, false);
  const responseHeads = customPairs(l.ResponseHeaders);
  // Assigned one by one: a literal of some twenty conditional spreads cost 10 µs a line (Test Rules on a large log file)
  const out: LogRecord = {};
  if (host !== undefined) out['http.host'] = host;
  if (has(l.ClientRequestMethod)) out['http.request.method'] = l.ClientRequestMethod;
  if (uri !== undefined) out['http.request.uri'] = uri;
  if (path !== undefined) out['http.request.uri.path'] = path;
  if (query !== undefined) out['http.request.uri.query'] = query;
  if (path !== undefined) out['http.request.uri.path.extension'] = extension(path);
  if (argsOf) {
    out['http.request.uri.args'] = argsOf.args;
    out['http.request.uri.args.names'] = argsOf.names;
    out['http.request.uri.args.values'] = argsOf.values;
  }
  if (time) { out['http.request.timestamp.sec'] = time.sec; out['http.request.timestamp.msec'] = time.msec; }
  if (host !== undefined && uri !== undefined) out['http.request.full_uri'] = `${scheme}://${host}${uri}`;
  if (ua !== undefined) out['http.user_agent'] = ua;
  if (heads) {
    out['http.request.headers'] = heads.map;
    out['http.request.headers.names'] = heads.names;
    out['http.request.headers.values'] = heads.values;
  }
  if (cookies.length) {
    out['http.request.cookies'] = pairs(cookies).map;
    out['http.cookie'] = cookies.map(([k, v]) => `${k}=${v}`).join('; ');
  }
  if (responseHeads.length) {
    const r = pairs(responseHeads);
    out['http.response.headers'] = r.map;
    out['http.response.headers.names'] = r.names;
    out['http.response.headers.values'] = r.values;
  }
  if (has(l.ClientRequestProtocol)) out['http.request.version'] = l.ClientRequestProtocol;
  if (has(l.ClientIP)) out['ip.src'] = l.ClientIP;
  if (has(l.ClientCountry)) out['ip.src.country'] = String(l.ClientCountry).toUpperCase();
  if (has(l.BotScore)) out['cf.bot_management.score'] = l.BotScore;
  if (has(l.WAFAttackScore)) out['cf.waf.score'] = l.WAFAttackScore;
  out.ssl = scheme === 'https';
  loggedFields(out, l, uri, path, query, host, scheme, argsOf, referer);
  return out;
}

/** A Logpush custom field's name/value pairs (RequestHeaders, ResponseHeaders: names lower-cased as the platform's header maps have
 * them; Cookies as they are): an object's members whose values are text, a number or a boolean, or an array of those (a header
 * logged with preserve_duplicates: each value); none for anything else. */
function customPairs(v: unknown, lower = true): [string, string][] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return [];
  const out: [string, string][] = [];
  const scalar = (x: unknown): x is string | number | boolean => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
  for (const [k, x] of Object.entries(v)) {
    const name = lower ? k.toLowerCase() : k;
    if (scalar(x)) out.push([name, String(x)]);
    else if (Array.isArray(x)) for (const e of x) if (scalar(e)) out.push([name, String(e)]);
  }
  return out;
}

/** The request's time (whole seconds and their milliseconds) from a log line's EdgeStartTimestamp in any of Logpush's
 * timestamp_format values: rfc3339 text, unix (seconds) or unixnano (nanoseconds; past 2^53, a bigint when read exactly). */
function requestTime(t: unknown): { sec: number; msec: number } | undefined {
  let ms: number;
  if (typeof t === 'string') ms = Date.parse(t);
  else if (typeof t === 'bigint') ms = Number(t / 1_000_000n);
  else if (typeof t === 'number' && Number.isFinite(t)) ms = t >= 1e15 ? Math.round(t / 1e6) : t * 1000; // a double of nanoseconds is off by a few hundred
  else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  ms = Math.floor(ms);
  return { sec: Math.floor(ms / 1000), msec: ((ms % 1000) + 1000) % 1000 };
}

/** The rules-language fields of the http_requests fields beyond the core ones, each where the line has it: location, network,
 * TLS, referrer, bot and WAF scores, leaked credentials, content scanning, the ray id and the zone. A value that is its type's empty
 * value is left out (the evaluator reads the same there). The raw fields are the URI as the client sent it, which is what the line's
 * ClientRequestURI holds. Set on `out`, the request record. */
function loggedFields(out: LogRecord, l: LogRecord, uri: string | undefined, path: string | undefined, query: string | undefined, host: string | undefined, scheme: string, argsOf: ReturnType<typeof queryArgs> | undefined, referer: unknown): void {
  const put = (name: string, v: unknown) => { if (!emptyValue(v)) out[name] = v; };
  put('ip.src.asnum', l.ClientASN);
  put('ip.src.city', l.ClientCity);
  put('ip.src.region_code', l.ClientRegionCode);
  put('ip.src.lat', l.ClientLatitude);
  put('ip.src.lon', l.ClientLongitude);
  put('http.referer', referer);
  put('cf.tls_cipher', l.ClientSSLCipher === 'NONE' ? '' : l.ClientSSLCipher);
  put('cf.tls_version', l.ClientSSLProtocol === 'none' ? '' : l.ClientSSLProtocol);
  put('cf.edge.client_port', l.ClientSrcPort);
  put('cf.timings.client_tcp_rtt_msec', l.ClientTCPRTTMs);
  put('cf.bot_management.ja3_hash', l.JA3Hash);
  put('cf.bot_management.ja4', l.JA4);
  put('cf.bot_management.detection_ids', l.BotDetectionIDs);
  if (l.BotScoreSrc === 'Verified Bot') Object.assign(out, { 'cf.bot_management.verified_bot': true, 'cf.client.bot': true });
  put('cf.waf.score.sqli', l.WAFSQLiAttackScore);
  put('cf.waf.score.xss', l.WAFXSSAttackScore);
  put('cf.waf.score.rce', l.WAFRCEAttackScore);
  put('cf.waf.score.class', scoreClass(l.WAFAttackScore));
  const leaked = l.LeakedCredentialCheckResult;
  put('cf.waf.credential_check.password_leaked', leaked === 'password_leaked' || leaked === 'username_and_password_leaked');
  put('cf.waf.credential_check.username_and_password_leaked', leaked === 'username_and_password_leaked');
  put('cf.waf.credential_check.username_leaked', leaked === 'username_leaked' || leaked === 'username_and_password_leaked');
  put('cf.waf.credential_check.username_password_similar', leaked === 'username_password_similar');
  if (Array.isArray(l.ContentScanObjResults)) {
    const results = l.ContentScanObjResults.map(String);
    const bad = results.filter((x) => x === 'infected').length;
    put('cf.waf.content_scan.obj_results', results);
    put('cf.waf.content_scan.has_obj', results.length > 0);
    put('cf.waf.content_scan.num_obj', results.length);
    put('cf.waf.content_scan.has_malicious_obj', bad > 0);
    put('cf.waf.content_scan.num_malicious_obj', bad);
    put('cf.waf.content_scan.has_failed', results.includes('not scanned'));
  }
  put('cf.waf.content_scan.obj_types', l.ContentScanObjTypes);
  put('cf.waf.content_scan.obj_sizes', l.ContentScanObjSizes);
  put('cf.ray_id', l.RayID);
  put('cf.zone.name', l.ZoneName);
  put('http.response.code', l.EdgeResponseStatus);
  // The same values as the fields above (no transform rewrites the line), the same objects
  if (host !== undefined && uri !== undefined) put('raw.http.request.full_uri', `${scheme}://${host}${uri}`);
  if (uri !== undefined) put('raw.http.request.uri', uri);
  if (path !== undefined) { put('raw.http.request.uri.path', path); put('raw.http.request.uri.path.extension', extension(path)); }
  if (query !== undefined) put('raw.http.request.uri.query', query);
  if (argsOf) {
    put('raw.http.request.uri.args', argsOf.args);
    put('raw.http.request.uri.args.names', argsOf.names);
    put('raw.http.request.uri.args.values', argsOf.values);
  }
}
