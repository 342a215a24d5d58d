// The generated sample as rules-language requests (Test Rules on the sample, and the mock's traffic against a zone's rules): the
// fields a request to that URI has on the platform. Without them a rule on the extension, the query arguments or the request time
// matched none of the sample's requests, though /wp-login.php, /xmlrpc.php and ?q=1' OR '1'='1 are among them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileExpression } from '../../../server/src/core/eval/rules';
import { eachSampleHttpRequest, eachSampleRequest, hostileKind, sampleRequests, toRequestRecord } from '../../../server/src/core/eval/sample';
import { urlPatternExpression } from '../../../mock/src/zones';

const line = (uri: string) => {
  const q = uri.indexOf('?');
  return toRequestRecord({ ClientRequestHost: 'example.com', ClientRequestURI: uri, ClientRequestPath: q < 0 ? uri : uri.slice(0, q), ClientRequestUserAgent: 'curl/8',
    ClientIP: '198.51.100.7', ClientCountry: 'us', ClientRequestMethod: 'GET', ClientRequestProtocol: 'HTTP/2', BotScore: 10, WAFAttackScore: 20,
    EdgeStartTimestamp: '2026-11-24T00:00:05.250Z' });
};

test('a request record has its path extension, query arguments and request time', () => {
  const r = line('/blog/Index.PHP?q=1&q=2&lang=en&flag');
  assert.equal(r['http.request.uri.path.extension'], 'php');
  assert.deepEqual(r['http.request.uri.args'], { q: ['1', '2'], lang: ['en'], flag: [''] });
  assert.deepEqual(r['http.request.uri.args.names'], ['q', 'q', 'lang', 'flag']);
  assert.deepEqual(r['http.request.uri.args.values'], ['1', '2', 'en', '']);
  assert.equal(r['http.request.timestamp.sec'], Date.UTC(2026, 10, 24, 0, 0, 5) / 1000);
  assert.equal(r['http.request.timestamp.msec'], 250);
  assert.equal(line('/')['http.request.uri.path.extension'], '');
  assert.equal(line('/v1.2/users')['http.request.uri.path.extension'], '');
  assert.deepEqual(line('/')['http.request.uri.args'], {});
  // A query argument named like a member of Object.prototype is an argument, not a prototype
  const proto = line('/?__proto__=x&constructor=y')['http.request.uri.args'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(proto), ['__proto__', 'constructor']);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
});

test('rules on those fields match the sample\'s hostile requests', () => {
  const requests = sampleRequests(1000);
  const count = (expr: string) => {
    const c = compileExpression(expr);
    assert.ok(c.ok, expr);
    return requests.filter((r) => c.expression.test(r)).length;
  };
  const php = requests.filter((r) => String(r['http.request.uri.path']).endsWith('.php')).length;
  assert.ok(php > 0);
  assert.equal(count('http.request.uri.path.extension eq "php"'), php);
  const union = requests.filter((r) => String(r['http.request.uri.query']).includes('UNION')).length;
  assert.ok(union > 0);
  assert.equal(count('any(http.request.uri.args.values[*] contains "UNION")'), union);
  // one second apart from 2026-11-24T00:00:00Z
  assert.equal(count('http.request.timestamp.sec ge 1795478400 and http.request.timestamp.sec lt 1795479400'), 1000);
  assert.equal(count('http.request.timestamp.sec lt 1795478500'), 100);
});

test('the sample has WorkerSubrequest, and the example filter the walkthrough points at lets some of it through', async () => {
  // "Test Filter on Logs…" on examples/suspicious-api-traffic.filter.json (the walkthrough's "See what a filter keeps") reported
  // 0 of 1 000: the sample had no WorkerSubrequest (a bool of http_requests that filters commonly pin to false, to leave out a
  // Worker's own subrequests), so `WorkerSubrequest eq false` matched no line; and the example's path prefix "/v1/" is on none of
  // the sample's API paths (/api/v1/...).
  const { compileFilter } = await import('../../../server/src/core/eval/filter');
  const { sampleHttpRequests } = await import('../../../server/src/core/eval/sample');
  const { readFileSync } = await import('node:fs');
  const lines = sampleHttpRequests(1000);
  const plain = compileFilter({ where: { key: 'WorkerSubrequest', operator: 'eq', value: false } }, 'http_requests');
  assert.ok(plain.ok);
  assert.equal(lines.filter((l) => plain.filter.test(l)).length, 1000);
  const example = JSON.parse(readFileSync(new URL('../../../examples/suspicious-api-traffic.filter.json', import.meta.url), 'utf8'));
  const c = compileFilter(example, example.$dataset);
  assert.ok(c.ok);
  const matched = lines.filter((l) => c.filter.testCounting(l)).length;
  assert.ok(matched > 0, 'the example filter matches some sample lines');
  // The job in examples/api-security.logpush.json carries the same filter as its string.
  const job = JSON.parse(readFileSync(new URL('../../../examples/api-security.logpush.json', import.meta.url), 'utf8'));
  const { $dataset: _, ...filter } = example;
  assert.deepEqual(JSON.parse(job.filter), filter);
});

/** Request fields of the catalogue the sample leaves out, and why. */
const NOT_PRODUCED: Readonly<Record<string, string>> = {
  'cf.tls_client_ciphers_sha1': 'no documented type (Unknown in the catalogue): a value would be a guess the checker does not share',
  'raw.http.request.headers': 'no documented type (Unknown in the catalogue)',
  'raw.http.request.headers.names': 'no documented type (Unknown in the catalogue)',
  'raw.http.request.headers.values': 'no documented type (Unknown in the catalogue)',
  'http.request.jwt.claims': 'no documented type (Unknown in the catalogue); its typed sub-fields (http.request.jwt.claims.aud, ...) are given',
  'cf.fraud.email_risk': 'no documented type (Unknown in the catalogue)',
  'cf.fraud_detection.disposable_email': 'no documented type (Unknown in the catalogue)',
};

/** Request fields that have only their type's empty value on every sample request (left out: the evaluator reads that), and why. */
const ALWAYS_EMPTY: Readonly<Record<string, string>> = {
  'cf.threat_score': 'the platform gives 0 on every request now (the catalogue: "always 0 now")',
  'http.request.headers.truncated': 'the sample\'s requests are small',
  'http.request.body.truncated': 'the sample\'s bodies are small',
  'cf.tls_client_auth.cert_rfc9440_too_large': 'the sample\'s client certificates are small',
  'cf.tls_client_auth.cert_chain_rfc9440_too_large': 'the sample\'s certificate chains are small',
  'cf.hostname.metadata': 'SSL for SaaS custom hostnames only; the sample\'s hosts are the zone\'s own',
  'cf.worker.upstream_zone': 'no request of the sample is a Worker\'s subrequest (WorkerSubrequest is false)',
  'cf.bot_management.signed_agent': 'no user agent of the sample is a signed agent',
  'cf.appsec.request.failed_detections': 'no detection fails on the sample',
  'cf.llm.prompt.detected': 'the sample\'s zone has no LLM endpoint (AI Security for Apps reads prompts sent to one)',
  'cf.llm.prompt.pii_detected': 'no LLM endpoint', 'cf.llm.prompt.pii_categories': 'no LLM endpoint',
  'cf.llm.prompt.unsafe_topic_detected': 'no LLM endpoint', 'cf.llm.prompt.unsafe_topic_categories': 'no LLM endpoint',
  'cf.llm.prompt.token_count': 'no LLM endpoint', 'cf.llm.prompt.custom_topic_categories': 'no LLM endpoint',
  'cf.llm.prompt.injection_score': 'no LLM endpoint',
};

test('every request field of the catalogue has a plausible value in the generated sample, or is named above with the reason it has not', async () => {
  // ip.src.asnum was missing: to_string(ip.src.asnum) gave "0" on every request, and ip.src.asnum in {...} matched none
  const { FIELDS, tyName } = await import('../../../server/src/core/rules/ruleset/catalog');
  const requests = sampleRequests(1000);
  const empty = (v: unknown) => v === undefined || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0)
    || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
  const fields = [...FIELDS.values()].filter((f) => f.stage === 'request');
  for (const name of [...Object.keys(NOT_PRODUCED), ...Object.keys(ALWAYS_EMPTY)]) {
    assert.ok(fields.some((f) => f.name === name), `${name} is listed but is no request field of the catalogue`);
  }
  for (const f of fields) {
    if (f.deprecatedFor) continue; // read through the field it aliases: below
    if (Object.hasOwn(NOT_PRODUCED, f.name)) {
      assert.ok(requests.every((r) => r[f.name] === undefined), `${f.name} is produced now: take it off NOT_PRODUCED`);
      continue;
    }
    // A request leaves a field out where its value is the type's empty value, which is what the evaluator reads then
    const some = requests.some((r) => !empty(r[f.name]));
    if (Object.hasOwn(ALWAYS_EMPTY, f.name)) assert.ok(!some, `${f.name} has values now: take it off ALWAYS_EMPTY`);
    else assert.ok(some, `${f.name} (${tyName(f.type)}) is its type's empty value on every sample request`);
  }
  // A deprecated alias gives its field's value (ip.geoip.asnum is ip.src.asnum)
  for (const f of fields.filter((x) => x.deprecatedFor)) {
    const same = f.type.t === 'Boolean' ? `(${f.name} and ${f.deprecatedFor}) or (not ${f.name} and not ${f.deprecatedFor})` : `${f.name} eq ${f.deprecatedFor!}`;
    const c = compileExpression(same);
    assert.ok(c.ok, same);
    assert.ok(requests.every((r) => c.expression.test(r)), same);
  }
});

test('the sample\'s values are plausible: one network and one place per client, fingerprints per user agent, scores by attack', () => {
  const requests = sampleRequests(1000);
  const count = (expr: string) => {
    const c = compileExpression(expr);
    assert.ok(c.ok, expr);
    return requests.filter((r) => c.expression.test(r)).length;
  };
  // The hostile addresses (198.51.100.1-20 since cl12; the whole /24 before) are on hosting networks; a browser's are on the
  // location's access networks
  assert.equal(count('ip.src in {198.51.100.1..198.51.100.20} and not ip.src.asnum in {14061 16509 24940 16276}'), 0);
  assert.equal(count('not ip.src in {198.51.100.1..198.51.100.20} and ip.src.asnum in {14061 16509 24940 16276}'), 0);
  assert.ok(count('ip.src.asnum in {7922 7018 701 20115}') > 100);
  assert.equal(count('ip.src.country eq "DE" and ip.src.city ne "Berlin"'), 0);
  assert.equal(count('ip.src.is_in_european_union and not ip.src.country in {"DE" "FR" "NL"}'), 0);
  // The WAF's class follows its score, and an SQL injection has the lowest SQLi score
  assert.equal(count('cf.waf.score le 20 and cf.waf.score.class ne "attack"'), 0);
  assert.equal(count('http.request.uri.query contains "UNION" and cf.waf.score.sqli gt 20'), 0);
  // A verified bot is a bot of score 1 with a category; a certificate that is not presented has no fields
  assert.ok(count('cf.bot_management.verified_bot') > 0);
  assert.equal(count('cf.bot_management.verified_bot and (cf.verified_bot_category eq "" or cf.bot_management.score ne 1)'), 0);
  assert.equal(count('not cf.tls_client_auth.cert_presented and cf.tls_client_auth.cert_subject_dn ne ""'), 0);
  // The headers hold what the header fields say
  assert.equal(count('http.referer ne "" and not any(http.request.headers["referer"][*] eq http.referer)'), 0);
  assert.equal(count('len(http.request.headers.names) ne len(http.request.headers.values)'), 0);
  // Every user agent has one TLS fingerprint
  const ja3 = new Map<unknown, unknown>();
  for (const r of requests) {
    const seen = ja3.get(r['http.user_agent']);
    assert.ok(seen === undefined || seen === r['cf.bot_management.ja3_hash']);
    ja3.set(r['http.user_agent'], r['cf.bot_management.ja3_hash']);
  }
});

// ui3's walk: every benign request of the sample came from 203.0.113.0/24, the network the mock's zones let bypass the WAF as their
// office, so Test Rules on a migrated configuration showed its "office network" skip rule taking 897 of 1000 requests.
test('the sample\'s benign requests come mostly from outside the office network; the office sends about one in ten', async () => {
  const { compileExpression, eachSampleRequest } = await import('../../../server/src/core');
  const office = compileExpression('ip.src in {203.0.113.0/24}');
  assert.ok(office.ok);
  let matched = 0;
  for (const r of eachSampleRequest(1000)) if (office.expression.test(r)) matched++;
  assert.ok(matched > 50 && matched < 200, `${matched} of 1000 from the office network`);
});

// cl12: nine benign requests in ten came from 192.0.2.0/24, so a "trusted office" skip written on that documentation range (as
// the docs' examples write one) took most of the sample. The addresses are now spread over the three documentation ranges and
// 2001:db8::/32, from the seed: the office network (203.0.113.0/24) keeps its one in ten, the hostile requests their few hosting
// addresses (198.51.100.1-20, hosting networks), and no range takes most of the sample.
test('the sample\'s addresses are spread over 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 and 2001:db8::/32, from the seed', async () => {
  const { compileExpression, eachSampleRequest, sampleHttpRequests } = await import('../../../server/src/core');
  const share = (expression: string, seed: number) => {
    const c = compileExpression(expression);
    assert.ok(c.ok, expression);
    let n = 0;
    for (const r of eachSampleRequest(2000, seed)) if (c.expression.test(r)) n++;
    return n / 2000;
  };
  for (const seed of [1, 2, 7]) {
    const shares = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'].map((net) => share(`ip.src in {${net}}`, seed));
    assert.ok(shares.every((x) => x < 0.4), `seed ${seed}: no range takes most of the sample: ${shares}`);
    assert.ok(shares.every((x) => x > 0.05), `seed ${seed}: every range has some of it: ${shares}`);
    assert.ok(Math.abs(shares.reduce((a, b) => a + b) - 1) < 1e-9, `seed ${seed}: documentation addresses only: ${shares}`);
    assert.ok(shares[2] > 0.05 && shares[2] < 0.15, `seed ${seed}: the office sends about one in ten: ${shares[2]}`);
  }
  const lines = sampleHttpRequests(2000, 1);
  // IPv6 as the platform logs it (RFC 5952: lower case, no leading zeros, the zeros run as "::")
  const v6 = lines.map((l) => String(l.ClientIP)).filter((ip) => ip.includes(':'));
  assert.ok(v6.length > 0 && v6.every((ip) => /^2001:db8:[1-9a-f][0-9a-f]{0,3}:[1-9a-f][0-9a-f]{0,3}::[1-9a-f][0-9a-f]{0,3}$/.test(ip)), v6.slice(0, 3).join(' '));
  // The hostile requests from a few hosting addresses, on hosting networks; no benign request from those addresses
  const hosting = new Set([14061, 16509, 24940, 16276]);
  for (const l of lines) {
    const few = /^198\.51\.100\.([1-9]|1\d|20)$/.test(String(l.ClientIP));
    assert.equal(few, hostileKind(l) !== undefined, `${l.ClientIP}: ${l.ClientRequestURI}`);
    if (few) assert.ok(hosting.has(Number(l.ClientASN)), `${l.ClientIP} ${l.ClientASN}`);
    else assert.ok(!hosting.has(Number(l.ClientASN)), `${l.ClientIP} ${l.ClientASN}: a benign client's network is its location's`);
  }
  // The same for a seed, another for another seed
  assert.deepEqual(sampleHttpRequests(50, 3).map((l) => l.ClientIP), sampleHttpRequests(50, 3).map((l) => l.ClientIP));
  assert.notDeepEqual(sampleHttpRequests(50, 3).map((l) => l.ClientIP), sampleHttpRequests(50, 4).map((l) => l.ClientIP));
});

test('the sample\'s RayIDs are unique within a sample, 16 hex digits, and every other field keeps its value for a seed', async () => {
  // They were one draw of 32 bits (mulberry32) shifted left: seed 1 drew the same one twice by its 50 571st request, and every id
  // ended in "00000". Test Rules reads a RayID seen again as another event of one request, so a repeat would drop a request.
  const { createHash } = await import('node:crypto');
  const ids = new Set<string>();
  let n = 0;
  for (const l of eachSampleHttpRequest(50_600, 1)) {
    n++;
    assert.match(String(l.RayID), /^[0-9a-f]{16}$/);
    ids.add(String(l.RayID));
  }
  assert.equal(ids.size, n, `${n - ids.size} RayID(s) repeat`);
  assert.ok([...ids].slice(0, 100).some((id) => !id.endsWith('00000')));
  // The other fields, for a few seeds and both varieties, as they were before (the RayID is drawn where it was, one draw a line)
  const digest = (records: Iterable<Record<string, unknown>>, drop: string) => {
    const h = createHash('sha256');
    for (const r of records) { const { [drop]: _, ...rest } = r; h.update(JSON.stringify(rest) + '\n'); }
    return h.digest('hex').slice(0, 16);
  };
  // (cl12 moved the addresses: before, 657e587caec748ef, 7b0cc58aa75e1ffb and 827cb7a1a44babdf. lf18 sent about one benign request
  // in twenty to the old site's /legacy/ pages; compared line by line with the generator before it, only those lines' path and URI
  // (and what a request record reads of them) changed: before, e491c1c6bd30aa6d, 4c90f378e8e2c599 and b83f44b474c565c7, and
  // without the address 1aa4cc32202a64b3, f19d0790b82c62cf and eee6361a8457aad0)
  assert.equal(digest(eachSampleHttpRequest(2000, 1), 'RayID'), '862f7ac3d382ec39');
  assert.equal(digest(eachSampleHttpRequest(2000, 7, 0.3, true), 'RayID'), '69a84186ac3d5c5e');
  assert.equal(digest(eachSampleRequest(500, 3), 'cf.ray_id'), 'b11c3e74442711bb');
  // Without the address and what comes of it (its network, its place in X-Forwarded-For), the records of before cl12 (but lf18's pages)
  const addressFree = (records: Iterable<Record<string, unknown>>, ip: string, drop: string[]) => {
    const h = createHash('sha256');
    for (const r of records) {
      const rest = Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k)));
      h.update(JSON.stringify(rest).split(String(r[ip])).join('<IP>') + '\n');
    }
    return h.digest('hex').slice(0, 16);
  };
  assert.equal(addressFree(eachSampleHttpRequest(2000, 1), 'ClientIP', ['RayID', 'ClientASN']), '491787ef27e51e70');
  assert.equal(addressFree(eachSampleHttpRequest(2000, 7, 0.3, true), 'ClientIP', ['RayID', 'ClientASN']), '4081e8131ec1d191');
  assert.equal(addressFree(eachSampleRequest(500, 3), 'ip.src', ['cf.ray_id', 'ip.src.asnum']), '91fb0eceb7f0403c');
  // Still the same ids for a seed
  assert.deepEqual([...eachSampleHttpRequest(5, 9)].map((l) => l.RayID), [...eachSampleHttpRequest(5, 9)].map((l) => l.RayID));
});

test('the sample goes to the zone it is made for: its name and subdomains as hosts, Referer and ZoneName; every other field as for example.com', () => {
  // The hosts were example.com's whatever the zone: a filter on the zone's ClientRequestHost matched none of a zone job's sample.
  for (const [seed, extended] of [[1, false], [7, true]] as const) {
    const plain = [...eachSampleHttpRequest(400, seed, 0.3, extended)];
    const zoned = [...eachSampleHttpRequest(400, seed, 0.3, extended, 'shop.test')];
    const hosts = new Set(zoned.map((l) => l.ClientRequestHost));
    assert.deepEqual([...hosts].sort(), ['api.shop.test', 'shop.shop.test', 'shop.test', 'www.shop.test']);
    assert.ok(zoned.every((l) => l.ZoneName === 'shop.test'));
    const referers = zoned.map((l) => String(l.ClientRequestReferer)).filter((r) => r && !r.includes('google'));
    assert.ok(referers.length > 0 && referers.every((r) => /^https:\/\/([a-z]+\.)?shop\.test\/$/.test(r)), referers.join());
    const swap = (v: unknown) => (typeof v === 'string' ? v.replace(/example\.com/g, 'shop.test') : v);
    const asZoned = plain.map((l) => Object.fromEntries(Object.entries(l).map(([k, v]) => [k, ['ClientRequestHost', 'ClientRequestReferer', 'ZoneName'].includes(k) ? swap(v) : v])));
    assert.deepEqual(zoned, asZoned);
  }
  // As request records too: the host and the full URI (derived from the line) are the zone's
  const r = toRequestRecord([...eachSampleHttpRequest(1, 3, 0, false, 'shop.test')][0]);
  assert.match(String(r['http.host']), /shop\.test$/);
  assert.match(String(r['http.request.full_uri']), /^https:\/\/([a-z]+\.)?shop\.test\//);
});

test('Test Rules\' sample requests go to the zone they are made for: hosts, Host header, full URI, Referer and cf.zone.name; every other field as for example.com', () => {
  // tz17: they went to example.com whatever the ruleset's zone, so a migrated zone's rule on its own host matched none of them.
  const zoned = [...eachSampleRequest(300, 3, 0.1, 'shop.test')];
  assert.deepEqual([...new Set(zoned.map((q) => q['http.host']))].sort(), ['api.shop.test', 'shop.shop.test', 'shop.test', 'www.shop.test']);
  assert.ok(zoned.every((q) => q['cf.zone.name'] === 'shop.test' && (q['http.request.headers'] as Record<string, string[]>).host[0] === q['http.host']
    && String(q['http.request.full_uri']).startsWith(`https://${String(q['http.host'])}/`)));
  // The zone takes no draw: the default zone's requests with its name swapped are the zone's, field for field (the JWT's audience,
  // https://api.example.com, included: the zone's API; not its issuer, auth.example.com, an identity provider's, nor a login's e-mail)
  const swapped = [...eachSampleRequest(300, 3, 0.1)].map((q) => JSON.stringify(q).replace(/(?<![@\w]|auth\.)example\.com/g, 'shop.test'));
  assert.ok(zoned.some((q) => String(JSON.stringify(q['http.request.jwt.claims.aud'])).includes('"https://api.shop.test"')), 'a JWT audience is the zone\'s API');
  // Record by record, and a failure shows where the two first differ: assert.equal's diff of the two whole 2 MB texts took more
  // than 5 minutes to write (mt4's mutant of the JWT audience)
  assert.equal(zoned.length, swapped.length);
  zoned.forEach((q, i) => {
    const a = JSON.stringify(q), b = swapped[i];
    if (a === b) return;
    let at = 0;
    while (a[at] === b[at]) at++;
    assert.fail(`request ${i} differs at character ${at}: ${a.slice(Math.max(0, at - 60), at + 60)}\n  against ${b.slice(Math.max(0, at - 60), at + 60)}`);
  });
});

test('the sample visits the old site\'s /legacy/ pages: the migrated page rule on business.example/legacy/* matches some of Test Rules\' sample (lf18)', () => {
  // business.example's page rule (mock/src/zones.ts) becomes a skip rule on this expression in the migration, and it matched the
  // mock's live traffic but none of the generated sample, which had no /legacy/ path: Test Rules said the rule never applies.
  const rule = compileExpression(urlPatternExpression('business.example/legacy/*'));
  assert.ok(rule.ok);
  const requests = sampleRequests(1000, 1, 0.1, 'business.example');
  const legacy = requests.filter((r) => String(r['http.request.uri.path']).startsWith('/legacy/'));
  // About one request in twenty (of the pages whose draws do not depend on the path: not /login, /account or the API)
  assert.ok(legacy.length >= 20 && legacy.length <= 80, `${legacy.length} of 1000 on /legacy/`);
  const matched = requests.filter((r) => rule.expression.test(r));
  assert.ok(matched.length > 0, 'the migrated page rule matches some of the sample');
  assert.ok(matched.every((r) => r['http.host'] === 'business.example' && String(r['http.request.uri.path']).startsWith('/legacy/')));
  // Benign visits, spread over the old site's pages; deterministic as the rest of the sample
  assert.ok(legacy.every((r) => !hostileKind({ ClientRequestURI: r['http.request.uri'], ClientRequestUserAgent: r['http.user_agent'] })));
  assert.ok(new Set(legacy.map((r) => r['http.request.uri.path'])).size >= 3);
  assert.deepEqual(sampleRequests(1000, 1, 0.1, 'business.example').map((r) => r['http.request.uri']), requests.map((r) => r['http.request.uri']));
  // The lines of the sample carry the same paths (Test Filter's sample, the mock's traffic)
  assert.ok([...eachSampleHttpRequest(1000)].some((l) => String(l.ClientRequestPath).startsWith('/legacy/')));
});
