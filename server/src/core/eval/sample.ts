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

/** `count` http_requests records, one second apart from 2026-11-24T00:00:00Z, about `hostileShare` of them hostile. */
export function sampleHttpRequests(count: number, seed = 1, hostileShare = 0.1): LogRecord[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const start = Date.UTC(2026, 10, 24);
  const out: LogRecord[] = [];
  for (let i = 0; i < count; i++) {
    const hostile = rand() < hostileShare ? pick(HOSTILE) : undefined;
    const uri = hostile ? hostile[1] : pick(PATHS);
    const q = uri.indexOf('?');
    const status = hostile ? pick([403, 404, 200, 500]) : pick([200, 200, 200, 200, 304, 301, 404, 500]);
    out.push({
      EdgeStartTimestamp: new Date(start + i * 1000).toISOString(),
      ClientIP: hostile ? `198.51.100.${1 + Math.floor(rand() * 20)}` : `203.0.113.${Math.floor(rand() * 255)}`,
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
    });
  }
  return out;
}

/** The same sample traffic as request records of the rules language (its field names), for "Test Rule on Requests". */
export function sampleRequests(count: number, seed = 1, hostileShare = 0.1): LogRecord[] {
  return sampleHttpRequests(count, seed, hostileShare).map((l) => {
    const uri = String(l.ClientRequestURI);
    const q = uri.indexOf('?');
    const ua = String(l.ClientRequestUserAgent);
    return {
      'http.host': l.ClientRequestHost, 'http.request.method': l.ClientRequestMethod, 'http.request.uri': uri,
      'http.request.uri.path': l.ClientRequestPath, 'http.request.uri.query': q < 0 ? '' : uri.slice(q + 1),
      'http.request.full_uri': `https://${String(l.ClientRequestHost)}${uri}`, 'http.user_agent': ua,
      'http.request.headers': { 'user-agent': [ua], host: [l.ClientRequestHost] }, 'http.request.headers.names': ['host', 'user-agent'],
      'http.request.version': l.ClientRequestProtocol, 'ip.src': l.ClientIP, 'ip.src.country': String(l.ClientCountry).toUpperCase(),
      'cf.bot_management.score': l.BotScore, 'cf.waf.score': l.WAFAttackScore, ssl: true,
    };
  });
}
