// The docs' field lists (data/rules-language/http_fields_docs.tsv, from cloudflare-docs src/content/fields/index.yaml, and
// http_fields_docs_pages.tsv, fields the docs use outside that list): every field they name is one the checker knows, with the
// docs' type, and a plain use of it in a phase that reads it gives no problem at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIELDS, tyName } from '../../../server/src/core/rules/ruleset/catalog';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';

const dataDir = path.resolve(__dirname, '../../../data/rules-language');

interface DocRow { file: string; line: number; name: string; type: string; notes: string }

function readRows(file: string): DocRow[] {
  const lines = fs.readFileSync(path.join(dataDir, file), 'utf8').split('\n');
  assert.equal(lines[0], 'name\tdata_type\tplan/notes', `${file}: header`);
  return lines.slice(1).flatMap((l, k) => {
    if (l === '') return [];
    const cols = l.split('\t');
    assert.equal(cols.length, 3, `${file}:${k + 2}: three tab-separated columns`);
    return [{ file, line: k + 2, name: cols[0], type: cols[1], notes: cols[2] }];
  });
}

/** The docs' type names as the checker writes them: "Number" is an integer, "IP address" an IP. */
function checkerTypeName(docsType: string): string {
  if (docsType === '(undocumented)') return 'Unknown';
  return docsType.replace(/IP address/g, 'IP').replace(/Number/g, 'Integer');
}

/** A plain use of a field of this type, which must give no problem. */
function useOf(name: string, type: string): string {
  if (type === 'Boolean') return name;
  if (type === 'String') return `${name} eq ""`;
  if (type === 'Integer') return `${name} eq 0`;
  if (type === 'IP') return `${name} in {192.0.2.0/24}`;
  if (type === 'Bytes') return `len(${name}) gt 0`;
  if (type.startsWith('Map<')) return `has_key(${name}, "k")`;
  if (type.startsWith('Array<')) return `len(${name}) gt 0`;
  if (type === 'Unknown') return `${name} eq ""`; // any literal: the type is not known
  throw new Error(`no use for type ${type}`);
}

const docs = readRows('http_fields_docs.tsv');
const pages = readRows('http_fields_docs_pages.tsv');

test('the docs TSVs: index.yaml has 173 entries, no name twice, no name in both files', () => {
  assert.equal(docs.length, 173);
  const names = [...docs, ...pages].map((r) => r.name);
  assert.deepEqual(names.filter((n, k) => names.indexOf(n) !== k), []);
});

test('every field the docs name is known to the checker, with the docs\' type', () => {
  const wrong: string[] = [];
  for (const r of [...docs, ...pages]) {
    const info = FIELDS.get(r.name);
    if (!info) wrong.push(`${r.file}:${r.line} ${r.name}: unknown`);
    else if (tyName(info.type) !== checkerTypeName(r.type)) wrong.push(`${r.file}:${r.line} ${r.name}: ${tyName(info.type)}, docs ${r.type}`);
  }
  assert.deepEqual(wrong, []);
});

test('a plain use of every field the docs name gives no problem in a phase that reads it', () => {
  const problems: string[] = [];
  for (const r of [...docs, ...pages]) {
    // Response fields are read in response phases only (their stage), Transform-only fields in transform phases; every other
    // field is read in a request phase too
    const info = FIELDS.get(r.name);
    const phase = info?.stage === 'response' || info?.transformOnly ? 'http_response_headers_transform' : 'http_request_firewall_custom';
    const src = useOf(r.name, checkerTypeName(r.type));
    for (const p of analyzeExpression(src, phase).problems) problems.push(`${src} (${phase}): ${p.code} ${p.message}`);
  }
  assert.deepEqual(problems, []);
});

test('the docs\' account-level deployment expressions give no problem', () => {
  // cloudflare-docs src/content/partials/waf/managed-rulesets/api-account-example.mdx and
  // src/content/docs/ruleset-engine/custom-rulesets/deploy-custom-ruleset.mdx
  for (const src of ['(cf.zone.name in {"example.com" "anotherexample.com"}) and cf.zone.plan eq "ENT"',
    '(cf.zone.name == "example.com") and cf.zone.plan eq "ENT"']) {
    assert.deepEqual(analyzeExpression(src, 'http_request_firewall_managed').problems, [], src);
  }
});

test('fields the docs make available only in response header transform and custom error rules are refused in request phases', () => {
  // index.yaml: cf.response.1xxx_code, cf.response.error_type "only available in Response Header Transform Rules and Custom Errors"
  const only = docs.filter((r) => /only available in Response Header Transform Rules and Custom Errors/.test(r.notes));
  assert.deepEqual(only.map((r) => r.name), ['cf.response.1xxx_code', 'cf.response.error_type']);
  for (const r of only) {
    const src = useOf(r.name, checkerTypeName(r.type));
    for (const phase of ['http_response_headers_transform', 'http_custom_errors']) {
      assert.deepEqual(analyzeExpression(src, phase).problems, [], `${src} in ${phase}`);
    }
    for (const phase of ['http_request_firewall_custom', 'http_request_transform', 'http_request_firewall_managed']) {
      assert.deepEqual(analyzeExpression(src, phase).problems.map((p) => p.code), ['ruleset/expr-phase'], `${src} in ${phase}`);
    }
  }
});

test('fields the docs make available only in Transform Rules warn in every other phase', () => {
  // index.yaml: ip.src.timezone.name "only available in rewrite expressions of Transform Rules"; http.request.accepted_languages
  // "only available in Transform Rules". By phase here; where in the rule (a match expression: ruleset/expr-rewrite-only) is
  // valueExpressions.test.ts's.
  const only = docs.filter((r) => /only available in (rewrite expressions of )?Transform Rules/.test(r.notes));
  assert.deepEqual(only.map((r) => r.name).sort(), ['http.request.accepted_languages', 'ip.src.timezone.name']);
  for (const r of only) {
    const src = useOf(r.name, checkerTypeName(r.type));
    for (const phase of ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform']) {
      assert.deepEqual(analyzeExpression(src, phase).problems, [], `${src} in ${phase}`);
    }
    for (const phase of ['http_request_firewall_custom', 'http_request_firewall_managed', 'http_request_cache_settings']) {
      const problems = analyzeExpression(src, phase).problems;
      assert.deepEqual(problems.map((p) => p.code), ['ruleset/expr-phase'], `${src} in ${phase}`);
      assert.match(problems[0].message, new RegExp(`"${r.name.replace(/\./g, '\\.')}" is available only in Transform Rules`));
    }
  }
});

test('maps whose keys the docs say are lower-cased flag a key with capitals', () => {
  // index.yaml: http.request.headers "names of HTTP request headers converted to lowercase"; http.response.headers "The keys
  // convert to lowercase"
  const lowered = docs.filter((r) => /keys lowercased/.test(r.notes));
  assert.deepEqual(lowered.map((r) => r.name), ['http.request.headers', 'http.response.headers']);
  for (const r of lowered) {
    const phase = FIELDS.get(r.name)?.stage === 'response' ? 'http_response_headers_transform' : 'http_request_firewall_custom';
    const codes = (src: string) => analyzeExpression(src, phase).problems.map((p) => p.code);
    assert.deepEqual(codes(`any(${r.name}["Content-Type"][*] eq "text/html")`), ['ruleset/expr-header-case'], r.name);
    assert.deepEqual(codes(`has_key(${r.name}, "Content-Type")`), ['ruleset/expr-header-case'], r.name);
    assert.deepEqual(codes(`any(${r.name}["content-type"][*] eq "text/html")`), [], r.name);
  }
});

test('fields the docs list as available but give no type are accepted, and their uses are not type-checked', () => {
  // cloudflare-docs: cf.edge.client_port and the others are in the field lists of Transform Rules (request and response header
  // modification, URL rewrite filter expressions) and Bulk Redirects, but neither index.yaml nor any fields page types them. They
  // were "Unknown field" errors on expressions those lists allow. (cf.metal.id was in the older lists only: it stays unknown.)
  const untyped = pages.filter((r) => r.type === '(undocumented)').map((r) => r.name);
  assert.deepEqual(untyped.sort(), ['cf.edge.client_port', 'cf.fraud.email_risk', 'cf.fraud_detection.disposable_email', 'cf.tls_client_ciphers_sha1',
    'http.request.jwt.claims', 'raw.http.request.headers', 'raw.http.request.headers.names', 'raw.http.request.headers.values']);
  assert.equal(FIELDS.get('cf.metal.id'), undefined);
  for (const name of untyped) {
    assert.equal(FIELDS.get(name)?.type.t, 'Unknown', name);
    for (const src of [`${name} eq 443`, `${name} eq "x"`, `${name} in {1 2}`, `concat("p=", to_string(${name})) ne ""`]) {
      assert.deepEqual(analyzeExpression(src, 'http_request_late_transform').problems.map((p) => `${p.code} ${p.message}`), [], src);
    }
  }
  // A near miss is still an unknown field
  assert.deepEqual(analyzeExpression('cf.edge.client_prot eq 443', 'http_request_late_transform').problems.map((p) => p.code), ['ruleset/expr-unknown-field']);
});

test('every field of the docs\' newest request header modification list is known', () => {
  // developers.cloudflare.com/rules/transform/request-header-modification/reference/fields-functions/ (rendered from
  // src/content/partials/rules/transform/header-modification-fields.mdx with location "request"; the partial at 193a0253 has all
  // but the two fraud fields). "x.*" names the sub-fields of x. cf.tls_client_ciphers_sha1, the cf.sequence.* fields,
  // raw.http.request.headers, http.request.jwt.claims and the fraud fields were "Unknown field" errors.
  const listed = `cf.bot_management.* cf.client.bot cf.verified_bot_category cf.edge.server_ip cf.edge.server_port cf.edge.client_port
    cf.edge.client_tcp cf.edge.l4.delivery_rate cf.hostname.metadata cf.zone.name cf.random_seed cf.ray_id cf.timings.client_quic_rtt_msec
    cf.timings.client_tcp_rtt_msec cf.tls_version cf.tls_cipher cf.tls_client_hello_length cf.tls_client_random cf.tls_client_extensions_sha1
    cf.tls_client_extensions_sha1_le cf.tls_client_ciphers_sha1 cf.tls_client_auth.* cf.worker.upstream_zone cf.fraud.email_risk http.cookie
    http.host http.referer http.request.accepted_languages http.request.cookies http.request.headers http.request.headers.* http.request.method
    http.request.body.form http.request.body.form.* http.request.body.multipart http.request.body.multipart.* http.request.body.raw
    http.request.body.size http.request.body.truncated http.request.timestamp.sec http.request.timestamp.msec http.request.full_uri
    http.request.uri http.request.uri.* http.request.version raw.http.request.full_uri raw.http.request.uri raw.http.request.uri.*
    raw.http.request.headers raw.http.request.headers.* http.user_agent http.x_forwarded_for ip.src ip.src.lat ip.src.lon ip.src.asnum
    ip.src.city ip.src.country ip.src.continent ip.src.metro_code ip.src.postal_code ip.src.region ip.src.region_code
    ip.src.is_in_european_union ip.src.subdivision_1_iso_code ip.src.subdivision_2_iso_code ssl http.request.jwt.claims
    http.request.jwt.claims.* cf.fraud_detection.disposable_email cf.sequence.current_op cf.sequence.msec_since_op cf.sequence.previous_ops
    cf.waf.auth_detected cf.waf.credential_check.* cf.waf.score cf.waf.score.*`.split(/\s+/);
  const missing = listed.filter((n) => (n.endsWith('.*') ? ![...FIELDS.keys()].some((k) => k.startsWith(n.slice(0, -1))) : !FIELDS.has(n)));
  assert.deepEqual(missing, []);
});

test('the sequence fields have the docs\' types, and the docs\' sequence rules give no problem', () => {
  // src/content/partials/bots/sequence-rules-availability.mdx (398302a4): current_op String, previous_ops Array<String>,
  // msec_since_op Map<Number>; the example rules of src/content/docs/bots/additional-configurations/sequence-rules.mdx
  assert.equal(tyName(FIELDS.get('cf.sequence.current_op')!.type), 'String');
  assert.equal(tyName(FIELDS.get('cf.sequence.previous_ops')!.type), 'Array<String>');
  assert.equal(tyName(FIELDS.get('cf.sequence.msec_since_op')!.type), 'Map<Integer>');
  for (const src of ['cf.sequence.current_op eq "bbbbbbbb" and any(cf.sequence.previous_ops[*] == "aaaaaaaa")',
    'cf.sequence.current_op eq "bbbbbbbb" and not any(cf.sequence.previous_ops[*] == "aaaaaaaa")',
    'cf.sequence.current_op eq "bbbbbbbb" and cf.sequence.msec_since_op["aaaaaaaa"] ge 1000',
    'cf.sequence.current_op eq "bbbbbbbb" and not cf.sequence.msec_since_op["aaaaaaaa"] ge 1000']) {
    for (const phase of ['http_request_firewall_custom', 'http_ratelimit', 'http_request_redirect', 'http_request_late_transform']) {
      assert.deepEqual(analyzeExpression(src, phase).problems.map((p) => p.code), [], `${src} in ${phase}`);
    }
  }
  assert.deepEqual(analyzeExpression('cf.sequence.msec_since_op["a"] eq "x"', 'http_request_firewall_custom').problems.map((p) => p.code), ['ruleset/expr-type-mismatch']);
});

test('cf.appsec.request.failed_detections warns outside custom, rate limiting and request header transform rules (changelog 2026-10-09)', () => {
  // src/content/changelog/rules/2026-10-09-failed-detections.mdx: "Supported rules: Custom rules at the zone and account levels; Rate
  // limiting rules at the zone and account levels; Request Header Transform Rules at the zone level"
  for (const src of ['len(cf.appsec.request.failed_detections) gt 0', 'any(cf.appsec.request.failed_detections[*] eq "waf_credential_check")']) {
    for (const phase of ['http_request_firewall_custom', 'http_ratelimit', 'http_request_late_transform']) {
      assert.deepEqual(analyzeExpression(src, phase).problems, [], `${src} in ${phase}`);
    }
    for (const phase of ['http_request_firewall_managed', 'http_request_transform', 'http_request_cache_settings', 'http_response_headers_transform']) {
      const problems = analyzeExpression(src, phase).problems;
      assert.deepEqual(problems.map((p) => p.code), ['ruleset/expr-phase'], `${src} in ${phase}`);
      assert.equal(problems[0].message, `Field "cf.appsec.request.failed_detections" is available only in custom rules, rate limiting rules and request header transform rules (http_request_firewall_custom, http_ratelimit, http_request_late_transform); phase ${phase} gives it no value.`);
    }
  }
});
