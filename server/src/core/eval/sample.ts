// Deterministic sample traffic: realistic http_requests log records (the field names and types of the dataset's catalogue), with
// a share of hostile requests (SQL injection, XSS, path traversal, scanners, bots). The same seed gives the same records; "Test
// Filter on Logs" offers them when no log file is at hand, and the mock can replay them.
import type { LogRecord } from './filter';
import { mulberry32 as prng } from '../prng';

const HOSTS = ['example.com', 'www.example.com', 'api.example.com', 'shop.example.com'];
const PATHS = ['/', '/login', '/account', '/api/v1/users', '/api/v1/orders', '/static/app.js', '/static/style.css', '/images/logo.png', '/search', '/cart'];
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

/** `count` http_requests records, one second apart from 2026-11-24T00:00:00Z, about `hostileShare` of them hostile. `extended`
 * draws the hostile ones from the longer list, and one in ten of them from the 203.0.113.0/24 network (a scan from an allow-listed
 * office); without it, the records are those of earlier versions for the same seed. */
export function sampleHttpRequests(count: number, seed = 1, hostileShare = 0.1, extended = false): LogRecord[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const start = Date.UTC(2026, 10, 24);
  const out: LogRecord[] = [];
  for (let i = 0; i < count; i++) {
    const hostile = rand() < hostileShare ? pick(extended ? HOSTILE_EXTENDED : HOSTILE) : undefined;
    const office = hostile && extended && rand() < 0.1;
    const uri = hostile ? hostile[1] : pick(PATHS);
    const q = uri.indexOf('?');
    const status = hostile ? pick([403, 404, 200, 500]) : pick([200, 200, 200, 200, 304, 301, 404, 500]);
    out.push({
      EdgeStartTimestamp: new Date(start + i * 1000).toISOString(),
      ClientIP: hostile && !office ? `198.51.100.${1 + Math.floor(rand() * 20)}` : `203.0.113.${Math.floor(rand() * 255)}`,
      ClientCountry: hostile ? pick(['cn', 'ru', 'us', 'nl']) : pick(COUNTRIES),
      ClientRequestHost: pick(HOSTS),
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
      RayID: Math.floor(rand() * 2 ** 52).toString(16).padStart(16, '0'),
      WAFAttackScore: hostile ? 1 + Math.floor(rand() * 20) : 50 + Math.floor(rand() * 49),
      // Visitors' requests, none a Worker's own subrequest; a constant, so the records above stay those of earlier versions
      WorkerSubrequest: false,
    });
  }
  return out;
}

/** The same sample traffic as request records of the rules language (its field names), for "Test Rule on Requests". */
export function sampleRequests(count: number, seed = 1, hostileShare = 0.1): LogRecord[] {
  return sampleHttpRequests(count, seed, hostileShare).map(toRequestRecord);
}

/** The query's arguments: name -> values in order, and the names and values in order ("flag" alone has the value ""). */
function queryArgs(query: string): { args: Record<string, string[]>; names: string[]; values: string[] } {
  const names: string[] = [], values: string[] = [];
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    names.push(eq < 0 ? part : part.slice(0, eq));
    values.push(eq < 0 ? '' : part.slice(eq + 1));
  }
  const grouped = new Map<string, string[]>();
  names.forEach((n, i) => { const vs = grouped.get(n); if (vs) vs.push(values[i]); else grouped.set(n, [values[i]]); });
  // fromEntries: an argument named "__proto__" is an own key, not the object's prototype
  return { args: Object.fromEntries(grouped), names, values };
}

/** The path's file extension as the platform gives it: of the last segment, lower-cased, without the dot; "" when none. */
function extension(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot < 0 ? '' : last.slice(dot + 1).toLowerCase();
}

/** An http_requests log record as a request record of the rules language (its field names). */
export function toRequestRecord(l: LogRecord): LogRecord {
  const uri = String(l.ClientRequestURI);
  const q = uri.indexOf('?');
  const ua = String(l.ClientRequestUserAgent);
  const query = q < 0 ? '' : uri.slice(q + 1);
  const { args, names, values } = queryArgs(query);
  // The sample's timestamps are RFC 3339 text; a log line's may be anything else, and then the request time is left out
  const ms = typeof l.EdgeStartTimestamp === 'string' ? Date.parse(l.EdgeStartTimestamp) : NaN;
  return {
    'http.host': l.ClientRequestHost, 'http.request.method': l.ClientRequestMethod, 'http.request.uri': uri,
    'http.request.uri.path': l.ClientRequestPath, 'http.request.uri.query': query,
    'http.request.uri.path.extension': extension(String(l.ClientRequestPath)),
    'http.request.uri.args': args, 'http.request.uri.args.names': names, 'http.request.uri.args.values': values,
    ...(Number.isNaN(ms) ? {} : { 'http.request.timestamp.sec': Math.floor(ms / 1000), 'http.request.timestamp.msec': ms % 1000 }),
    'http.request.full_uri': `https://${String(l.ClientRequestHost)}${uri}`, 'http.user_agent': ua,
    'http.request.headers': { 'user-agent': [ua], host: [l.ClientRequestHost] }, 'http.request.headers.names': ['host', 'user-agent'],
    'http.request.version': l.ClientRequestProtocol, 'ip.src': l.ClientIP, 'ip.src.country': String(l.ClientCountry).toUpperCase(),
    'cf.bot_management.score': l.BotScore, 'cf.waf.score': l.WAFAttackScore, ssl: true,
  };
}
