// What the sample traffic (sample.ts) gives a request beyond its core fields: where the client is (a location per country), its
// network and TLS fingerprint, and the request fields no http_requests log line carries (headers beyond the user agent, cookies,
// bodies, mTLS, JWT claims, API Shield and sequence data, timings). Plausible, deterministic values, so that a rule on any request
// field of the rules language matches some of the sample and misses the rest (a field left out read as its type's empty value on
// every request: to_string(ip.src.asnum) was "0" throughout). Drawn from streams of their own, so the core fields of a seed's
// records stay those of earlier versions.
import { remembered } from '../memo';
import type { LogRecord } from './filter';
import { mulberry32 as prng } from '../prng';

/** Verified bots (a share of the sample's benign requests): [user agent, category (cf.verified_bot_category)]. */
export const VERIFIED_BOTS: readonly (readonly [string, string])[] = [
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Search Engine Crawler'],
  ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'Search Engine Crawler'],
  ['Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)', 'Monitoring & Analytics'],
];

/** A client location: what the platform's geolocation gives for an address there (the ip.src.* fields). */
export interface Location {
  country: string; continent: string; eu: boolean; city: string; region: string; regionCode: string; sub1: string; sub2: string;
  postal: string; metro: string; timezone: string; lat: string; lon: string; asns: readonly number[];
}

/** One city per country of the sample (two in the US, its most frequent), with the networks its clients come from. */
const LOCATIONS: readonly Location[] = [
  { country: 'us', continent: 'NA', eu: false, city: 'San Francisco', region: 'California', regionCode: 'CA', sub1: 'US-CA', sub2: '', postal: '94107', metro: '807', timezone: 'America/Los_Angeles', lat: '37.77490', lon: '-122.41940', asns: [7922, 7018, 701] },
  { country: 'us', continent: 'NA', eu: false, city: 'New York', region: 'New York', regionCode: 'NY', sub1: 'US-NY', sub2: '', postal: '10001', metro: '501', timezone: 'America/New_York', lat: '40.71280', lon: '-74.00600', asns: [7922, 701, 20115] },
  { country: 'de', continent: 'EU', eu: true, city: 'Berlin', region: 'Land Berlin', regionCode: 'BE', sub1: 'DE-BE', sub2: '', postal: '10115', metro: '', timezone: 'Europe/Berlin', lat: '52.52000', lon: '13.40500', asns: [3320, 3209] },
  { country: 'gb', continent: 'EU', eu: false, city: 'London', region: 'England', regionCode: 'ENG', sub1: 'GB-ENG', sub2: 'GB-LND', postal: 'EC1A', metro: '', timezone: 'Europe/London', lat: '51.50740', lon: '-0.12780', asns: [2856, 5089] },
  { country: 'fr', continent: 'EU', eu: true, city: 'Paris', region: 'Île-de-France', regionCode: 'IDF', sub1: 'FR-IDF', sub2: 'FR-75C', postal: '75001', metro: '', timezone: 'Europe/Paris', lat: '48.85660', lon: '2.35220', asns: [3215, 12322] },
  { country: 'ca', continent: 'NA', eu: false, city: 'Toronto', region: 'Ontario', regionCode: 'ON', sub1: 'CA-ON', sub2: '', postal: 'M5H', metro: '', timezone: 'America/Toronto', lat: '43.65320', lon: '-79.38320', asns: [812, 577] },
  { country: 'br', continent: 'SA', eu: false, city: 'São Paulo', region: 'São Paulo', regionCode: 'SP', sub1: 'BR-SP', sub2: '', postal: '01000-000', metro: '', timezone: 'America/Sao_Paulo', lat: '-23.55050', lon: '-46.63330', asns: [28573, 18881] },
  { country: 'in', continent: 'AS', eu: false, city: 'Mumbai', region: 'Maharashtra', regionCode: 'MH', sub1: 'IN-MH', sub2: '', postal: '400001', metro: '', timezone: 'Asia/Kolkata', lat: '19.07600', lon: '72.87770', asns: [55836, 9829] },
  { country: 'jp', continent: 'AS', eu: false, city: 'Tokyo', region: 'Tokyo', regionCode: '13', sub1: 'JP-13', sub2: '', postal: '100-0001', metro: '', timezone: 'Asia/Tokyo', lat: '35.67620', lon: '139.65030', asns: [2516, 4713] },
  { country: 'cn', continent: 'AS', eu: false, city: 'Beijing', region: 'Beijing', regionCode: 'BJ', sub1: 'CN-BJ', sub2: '', postal: '100000', metro: '', timezone: 'Asia/Shanghai', lat: '39.90420', lon: '116.40740', asns: [4134, 4837] },
  { country: 'ru', continent: 'EU', eu: false, city: 'Moscow', region: 'Moscow', regionCode: 'MOW', sub1: 'RU-MOW', sub2: '', postal: '101000', metro: '', timezone: 'Europe/Moscow', lat: '55.75580', lon: '37.61730', asns: [12389, 8359] },
  { country: 'nl', continent: 'EU', eu: true, city: 'Amsterdam', region: 'North Holland', regionCode: 'NH', sub1: 'NL-NH', sub2: '', postal: '1012', metro: '', timezone: 'Europe/Amsterdam', lat: '52.36760', lon: '4.90410', asns: [1136, 33915] },
  { country: 'au', continent: 'OC', eu: false, city: 'Sydney', region: 'New South Wales', regionCode: 'NSW', sub1: 'AU-NSW', sub2: '', postal: '2000', metro: '', timezone: 'Australia/Sydney', lat: '-33.86880', lon: '151.20930', asns: [1221, 4804] },
];

/** Hosting networks the hostile sample's addresses (198.51.100.1-20) come from: DigitalOcean, Amazon, Hetzner, OVH. */
const HOSTING_ASNS = [14061, 16509, 24940, 16276];

/** A location of the country (lower-case ISO code), drawn with rand; undefined for a country the table lacks. */
export function locationOf(country: string, rand: () => number): Location | undefined {
  const here = LOCATIONS.filter((l) => l.country === country);
  return here.length ? here[Math.floor(rand() * here.length)] : undefined;
}

/** The location a log line's country and city name (ClientCountry, ClientCity), if the table has it. */
function locationAt(country: unknown, city: unknown): Location | undefined {
  return LOCATIONS.find((l) => l.country === String(country).toLowerCase() && l.city === city);
}

/** The network of a sample address: a hosting network for the hostile ones (`hosting`), else one of the location's, by the
 * address's last part (an IPv6 address's last group). */
export function asnOf(ip: string, loc: Location | undefined, hosting: boolean): number {
  const v6 = ip.includes(':');
  const last = Number.parseInt(ip.slice(ip.lastIndexOf(v6 ? ':' : '.') + 1), v6 ? 16 : 10) || 0;
  return hosting || !loc ? HOSTING_ASNS[last % HOSTING_ASNS.length] : loc.asns[last % loc.asns.length];
}

/** A 32-bit seed from a text (FNV-1a): the same user agent gets the same TLS fingerprint on every request. */
function textSeed(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** n random hex digits, eight from each draw. */
function hex(rand: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0');
  return s.slice(0, n);
}
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The base64 text of `bytes` random bytes, four characters from each draw. */
function base64(rand: () => number, bytes: number): string {
  const n = Math.ceil(bytes / 3) * 4;
  let s = '';
  while (s.length < n) { const x = Math.floor(rand() * 2 ** 24); s += BASE64[x >> 18] + BASE64[(x >> 12) & 63] + BASE64[(x >> 6) & 63] + BASE64[x & 63]; }
  const pad = (3 - (bytes % 3)) % 3;
  return s.slice(0, n - pad) + '='.repeat(pad);
}

/** Whether a value is its type's empty value ("", 0, false, [], {}): what the evaluator reads for a field a request leaves out, so
 * the sample leaves such fields out (a request record of some 200 members was 15 times the memory of one of 20). */
export function emptyValue(v: unknown): boolean {
  if (v === '' || v === 0 || v === false || v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') { for (const _ in v) return false; return true; }
  return false;
}

/** A client's TLS fingerprint, the same for every request of one user agent: JA3 (MD5, hex), JA4, and the SHA-1 fingerprints of its
 * ClientHello (base64) and that hello's length. */
export interface Fingerprint { ja3: string; ja4: string; extensions: string; extensionsLe: string; ciphers: string; helloLength: number }

/** Fingerprints by user agent: the sample has a few dozen, and every request of one shares its strings. */
export const fingerprintOf: (userAgent: string) => Fingerprint = remembered(256, (userAgent) => newFingerprint(userAgent));

function newFingerprint(userAgent: string): Fingerprint {
  const r = prng(textSeed(userAgent));
  const browser = userAgent.startsWith('Mozilla/5.0 (');
  const ciphers = browser ? 15 + Math.floor(r() * 3) : 5 + Math.floor(r() * 20);
  const exts = browser ? 16 : 5 + Math.floor(r() * 10);
  return {
    ja3: hex(r, 32), ja4: `t13d${String(ciphers).padStart(2, '0')}${String(exts).padStart(2, '0')}${browser ? 'h2' : 'h1'}_${hex(r, 12)}_${hex(r, 12)}`,
    extensions: base64(r, 20), extensionsLe: base64(r, 20), ciphers: base64(r, 20), helloLength: browser ? 508 + Math.floor(r() * 1300) : 200 + Math.floor(r() * 300),
  };
}

/** The WAF attack score's class (attack 1-20, likely_attack 21-50, likely_clean 51-80, clean 81-99); "" for a score it does not class. */
export function scoreClass(score: unknown): string {
  if (typeof score !== 'number' || score < 1 || score > 99) return '';
  return score <= 20 ? 'attack' : score <= 50 ? 'likely_attack' : score <= 80 ? 'likely_clean' : 'clean';
}

/** Map<Array<String>> from name/value pairs in order, with its names and values (query arguments, headers, cookies, form fields).
 * fromEntries: a name "__proto__" is an own key, not the object's prototype. */
export function pairs(list: readonly (readonly [string, string])[]): { map: Record<string, string[]>; names: string[]; values: string[] } {
  const map = new Map<string, string[]>();
  for (const [k, v] of list) { const vs = map.get(k); if (vs) vs.push(v); else map.set(k, [v]); }
  return { map: Object.fromEntries(map), names: list.map(([k]) => k), values: list.map(([, v]) => v) };
}

const UTF8 = new TextEncoder();

/** The API Shield operations of the sample's API paths (Endpoint Management ids), for the sequence fields. */
const OPERATIONS: Readonly<Record<string, string>> = {
  '/login': 'c2e4a6b8-3d5f-4e7a-8b9c-1a2b3c4d5e6f', '/api/v1/users': '7b9d2c4e-1f3a-4c8e-9a6b-2d4f8e1c3a5b',
};
/** The JWT validation configuration whose claims the API's requests carry (http.request.jwt.claims.* are keyed by its id). */
const JWT_CONFIG = '4f1d9a2c-8e3b-4a6f-b5c7-0d2e1f3a4b5c';

/**
 * The request fields no http_requests line carries, for one sample request (`req`, from toRequestRecord of `log`), set on it: its
 * other headers, cookies and body, the client certificate, JWT claims, API Shield, sequence, timing and content fields, and the
 * rest of its location. A field whose value is its type's empty value is left out (emptyValue). rand is the stream for these
 * draws alone.
 */
export function addUnloggedFields(log: LogRecord, req: Record<string, unknown>, rand: () => number): Record<string, unknown> {
  const put = (fields: Record<string, unknown>) => { for (const k in fields) if (!emptyValue(fields[k])) req[k] = fields[k]; };
  const path = String(req['http.request.uri.path']);
  const method = String(req['http.request.method']);
  const ua = String(req['http.user_agent']);
  // A person's browser: not a tool's user agent, nor a crawler's ("Mozilla/5.0 (compatible; Googlebot/2.1; ...)")
  const browser = ua.startsWith('Mozilla/5.0 (') && !ua.startsWith('Mozilla/5.0 (compatible;');
  const hostile = typeof log.WAFAttackScore === 'number' && log.WAFAttackScore <= 20;
  const api = path.startsWith('/api/');
  const http3 = req['http.request.version'] === 'HTTP/3';
  const loc = locationAt(log.ClientCountry, log.ClientCity);
  const fp = fingerprintOf(ua);

  if (loc) {
    put({
      'ip.src.continent': loc.continent, 'ip.src.region': loc.region, 'ip.src.subdivision_1_iso_code': loc.sub1,
      'ip.src.subdivision_2_iso_code': loc.sub2, 'ip.src.postal_code': loc.postal, 'ip.src.metro_code': loc.metro,
      'ip.src.timezone.name': loc.timezone, 'ip.src.is_in_european_union': loc.eu,
    });
  }

  // Headers a request of this kind sends, in order, besides host and user-agent (toRequestRecord's)
  const headers: [string, string][] = [['host', String(req['http.host'])], ['user-agent', ua]];
  const languages = browser ? (loc?.country === 'de' ? ['de-DE', 'de', 'en'] : loc?.country === 'fr' ? ['fr-FR', 'fr', 'en'] : ['en-US', 'en']) : [];
  if (browser) {
    headers.push(['accept', path.startsWith('/api/') ? 'application/json' : 'text/html,application/xhtml+xml,*/*;q=0.8'],
      ['accept-language', languages.map((l, i) => (i ? `${l};q=${(1 - i / 10).toFixed(1)}` : l)).join(',')], ['accept-encoding', 'gzip, deflate, br']);
  } else headers.push(['accept', '*/*']);
  const referer = String(req['http.referer'] ?? '');
  if (referer) headers.push(['referer', referer]);
  const cookies: [string, string][] = browser ? [['session', hex(rand, 32)], ...(rand() < 0.5 ? [['theme', rand() < 0.5 ? 'dark' : 'light'] as [string, string]] : [])] : [];
  if (cookies.length) headers.push(['cookie', cookies.map(([k, v]) => `${k}=${v}`).join('; ')]);
  const forwarded = rand() < 0.1 ? `${String(req['ip.src'])}, 10.${Math.floor(rand() * 256)}.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}` : '';
  if (forwarded) headers.push(['x-forwarded-for', forwarded]);
  const jwt = api && !hostile && rand() < 0.8;
  if (jwt) headers.push(['authorization', `Bearer eyJhbGciOiJSUzI1NiJ9.${base64(rand, 48).replace(/=+$/, '')}.${base64(rand, 64).replace(/=+$/, '')}`]);

  // A body on POST: a login form, JSON to the API, a file upload to /account, the form the attack rides on
  let body = '', mime = '';
  let form: [string, string][] = [], parts: { name: string; filename: string; type: string; value: string }[] = [];
  if (method === 'POST') {
    const query = String(req['http.request.uri.query']);
    if (path === '/login' || (hostile && !api)) {
      mime = 'application/x-www-form-urlencoded';
      const attack = hostile && query ? query.replace(/^[^=]*=/, '') : '';
      form = [['username', attack || `user${Math.floor(rand() * 1000)}@example.com`], ['password', attack ? 'x' : hex(rand, 12)]];
      body = form.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    } else if (path === '/account' && rand() < 0.5) {
      mime = 'multipart/form-data';
      parts = [{ name: 'avatar', filename: 'avatar.png', type: 'image/png', value: '\u0089PNG' }, { name: 'display_name', filename: '', type: 'text/plain', value: 'Ada' }];
      body = parts.map((p) => `--b\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\nContent-Type: ${p.type}\r\n\r\n${p.value}\r\n`).join('') + '--b--\r\n';
    } else {
      mime = 'application/json';
      body = JSON.stringify(api ? { id: 1 + Math.floor(rand() * 10_000), items: Math.floor(rand() * 5) } : { q: 'x' });
    }
    headers.push(['content-type', mime === 'multipart/form-data' ? 'multipart/form-data; boundary=b' : mime], ['content-length', String(UTF8.encode(body).length)]);
  }
  const h = pairs(headers);
  put({
    'http.request.headers': h.map, 'http.request.headers.names': h.names, 'http.request.headers.values': h.values,
    'http.request.accepted_languages': languages, 'http.x_forwarded_for': forwarded,
    'http.cookie': cookies.map(([k, v]) => `${k}=${v}`).join('; '), 'http.request.cookies': pairs(cookies).map,
  });
  if (body) {
    const f = pairs(form);
    const multipart = pairs(parts.map((p) => [p.name, p.value] as const));
    put({
      'http.request.body.raw': body, 'http.request.body.size': UTF8.encode(body).length, 'http.request.body.mime': mime,
      'http.request.body.form': f.map, 'http.request.body.form.names': f.names, 'http.request.body.form.values': f.values,
      'http.request.body.multipart': multipart.map, 'http.request.body.multipart.names': parts.map((p) => [p.name]),
      'http.request.body.multipart.values': multipart.values, 'http.request.body.multipart.content_types': parts.map((p) => [p.type]),
      'http.request.body.multipart.content_dispositions': parts.map(() => ['form-data']),
      'http.request.body.multipart.content_transfer_encodings': parts.map(() => []), 'http.request.body.multipart.filenames': parts.map((p) => (p.filename ? [p.filename] : [])),
    });
  }

  // The connection: TLS fingerprints, the edge address and port, timings
  const rtt = 10 + Math.floor(rand() * 190);
  put({
    'cf.tls_client_extensions_sha1': fp.extensions, 'cf.tls_client_extensions_sha1_le': fp.extensionsLe, 'cf.tls_ciphers_sha1': fp.ciphers,
    'cf.tls_client_hello_length': fp.helloLength, 'cf.tls_client_random': base64(rand, 32),
    'cf.edge.server_ip': `104.16.${Math.floor(rand() * 256)}.${1 + Math.floor(rand() * 254)}`, 'cf.edge.server_port': req.ssl === false ? 80 : 443,
    'cf.edge.client_tcp': !http3, 'cf.edge.l4.delivery_rate': 100_000 + Math.floor(rand() * 20_000_000),
    'cf.timings.client_quic_rtt_msec': http3 ? rtt : 0, 'cf.timings.edge_msec': 1 + Math.floor(rand() * 40),
    'cf.timings.origin_ttfb_msec': log.CacheCacheStatus === 'hit' ? 0 : 20 + Math.floor(rand() * 400),
    'cf.timings.worker_msec': api ? 1 + Math.floor(rand() * 30) : 0,
    'cf.random_seed': hex(rand, 64), 'cf.zone.plan': 'ENT',
  });
  if (req['cf.timings.client_tcp_rtt_msec'] === undefined) put({ 'cf.timings.client_tcp_rtt_msec': http3 ? 0 : rtt });

  // Bot Management beyond the score: the verified bot's category (no log field has it), static resources, the JavaScript
  // detection, proxies
  const verified = req['cf.bot_management.verified_bot'] === true ? VERIFIED_BOTS.find(([agent]) => agent === ua) : undefined;
  put({
    'cf.verified_bot_category': verified?.[1] ?? '',
    'cf.bot_management.static_resource': /^\/(static|images)\//.test(path), 'cf.bot_management.js_detection.passed': browser && rand() < 0.9,
    'cf.bot_management.corporate_proxy': browser && rand() < 0.03,
    'cf.waf.auth_detected': path === '/login' && method === 'POST',
  });

  // A client certificate (mTLS) on a share of the API's requests; without one, every cf.tls_client_auth.* field is empty
  if (api && !hostile && rand() < 0.3) {
    const subject = `CN=client-${hex(rand, 6)},O=Example Partner,C=US`;
    const issuer = 'CN=Example Client CA,O=Example Inc,C=US';
    const legacy = (dn: string) => `/${dn.split(',').reverse().join('/')}`;
    put({
      'cf.tls_client_auth.cert_presented': true, 'cf.tls_client_auth.cert_verified': rand() < 0.9, 'cf.tls_client_auth.cert_revoked': rand() < 0.1,
      'cf.tls_client_auth.cert_subject_dn': subject, 'cf.tls_client_auth.cert_issuer_dn': issuer,
      'cf.tls_client_auth.cert_subject_dn_rfc2253': subject, 'cf.tls_client_auth.cert_issuer_dn_rfc2253': issuer,
      'cf.tls_client_auth.cert_subject_dn_legacy': legacy(subject), 'cf.tls_client_auth.cert_issuer_dn_legacy': legacy(issuer),
      'cf.tls_client_auth.cert_serial': hex(rand, 32).toUpperCase(), 'cf.tls_client_auth.cert_issuer_serial': '5A1B2C3D4E5F60718293A4B5C6D7E8F9',
      'cf.tls_client_auth.cert_fingerprint_sha256': hex(rand, 64), 'cf.tls_client_auth.cert_fingerprint_sha1': hex(rand, 40),
      'cf.tls_client_auth.cert_not_before': 'Jan  1 00:00:00 2026 GMT', 'cf.tls_client_auth.cert_not_after': 'Jan  1 00:00:00 2027 GMT',
      'cf.tls_client_auth.cert_ski': hex(rand, 40), 'cf.tls_client_auth.cert_issuer_ski': '8f2e4a6c1b3d5f7092a4c6e8b0d2f4a6c8e0b2d4',
      'cf.tls_client_auth.cert_rfc9440': `:${base64(rand, 300)}:`, 'cf.tls_client_auth.cert_chain_rfc9440': `:${base64(rand, 600)}:`,
    });
  }

  // API Shield: JWT claims keyed by the validation configuration, schema validation, the operation and its sequence
  if (jwt) {
    const now = Number(req['http.request.timestamp.sec'] ?? 0);
    const claim = (name: string, v: unknown) => ({ [name]: { [JWT_CONFIG]: [v] }, [`${name}.names`]: [JWT_CONFIG], [`${name}.values`]: [v] });
    put({
      // The audience is the zone's API (the sample line's ZoneName); the issuer an identity provider's, whatever the zone
      ...claim('http.request.jwt.claims.aud', `https://api.${String(log.ZoneName)}`), ...claim('http.request.jwt.claims.iss', 'https://auth.example.com/'),
      ...claim('http.request.jwt.claims.sub', `user-${1 + Math.floor(rand() * 500)}`), ...claim('http.request.jwt.claims.jti', hex(rand, 16)),
      ...claim('http.request.jwt.claims.iat.sec', now - 60 - Math.floor(rand() * 3000)), ...claim('http.request.jwt.claims.nbf.sec', now - 3600),
    });
  }
  if (api) {
    put({
      // /api/v1/orders is no operation of Endpoint Management: its requests fall through
      'cf.api_gateway.auth_id_present': jwt, 'cf.api_gateway.request_violates_schema': hostile, 'cf.api_gateway.fallthrough_detected': !Object.hasOwn(OPERATIONS, path),
      'cf.schema_validation.uploaded.violated': hostile, 'cf.schema_validation.learned.violated': hostile && rand() < 0.5,
    });
  }
  if (Object.hasOwn(OPERATIONS, path)) {
    const op = OPERATIONS[path];
    const previous = Object.values(OPERATIONS).filter((o) => o !== op && rand() < 0.6);
    put({
      'cf.sequence.current_op': op, 'cf.sequence.previous_ops': previous,
      'cf.sequence.msec_since_op': Object.fromEntries(previous.map((o) => [o, 200 + Math.floor(rand() * 60_000)])),
    });
  }
  // Left out, as their empty value on every sample request (test/unit/eval/sample.test.ts names each with its reason): AI Security
  // for Apps reads prompts sent to an LLM endpoint, and the sample's zone has none (cf.llm.prompt.*); cf.threat_score is 0 on the
  // platform now; the requests, bodies and certificates are small (*.truncated, *_too_large); no custom hostname, Worker subrequest,
  // signed agent or failed detection
  return req;
}
