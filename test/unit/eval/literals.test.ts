// Literals of the rules language as wirefilter reads them (Rust's Ipv4Addr/Ipv6Addr::from_str, the cidr crate, i64::lex), held
// against the checker's verdict and the evaluator's reading: what the checker accepts is evaluated as the platform reads it, and
// what it refuses the evaluator refuses to run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mulberry32 } from '../../../server/src/core/prng';
import { compileExpression, type RequestRecord } from '../../../server/src/core/eval/rules';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { parseExpression } from '../../../server/src/core/rules/ruleset/exprParser';
import { codeInfo, type Code } from '../../../server/src/core/codes';
import { bytesText, lossyBytes } from '../../../server/src/core/text';

const isUtf8 = (b: readonly number[]): boolean => lossyBytes(Uint8Array.from(b)) === undefined;
const errors = (src: string) => analyzeExpression(src).problems.filter((p) => codeInfo(p.code as Code).severity === 'error');
const warnings = (src: string) => analyzeExpression(src).problems.filter((p) => codeInfo(p.code as Code).severity !== 'error');
const fixTexts = (src: string) => analyzeExpression(src).problems.flatMap((p) => (p.fixes ?? []).map((f) => {
  let out = src;
  for (const e of [...f.edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  return out;
}));
const run = (src: string, r: RequestRecord): boolean => {
  const c = compileExpression(src);
  if (!c.ok) throw new Error(c.error);
  return c.expression.test(r);
};

test('an IPv4 literal with a leading zero is an error naming it, with the decimal address as a fix; the evaluator refuses it', () => {
  for (const [src, fixed] of [
    ['ip.src == 010.1.1.1', 'ip.src == 10.1.1.1'],
    ['ip.src in {10.0.0.1..10.0.0.09}', 'ip.src in {10.0.0.1..10.0.0.9}'],
    ['ip.src == ::ffff:01.2.3.4', 'ip.src == ::ffff:1.2.3.4'],
  ]) {
    const errs = errors(src);
    assert.equal(errs.length, 1, src);
    assert.equal(errs[0].code, 'ruleset/expr-invalid-ip', src);
    assert.match(errs[0].message, /leading zero/, src);
    assert.deepEqual(fixTexts(src), [fixed], src);
    assert.equal(errors(fixed).length, 0, fixed);
    const c = compileExpression(src);
    assert.equal(c.ok, false, `${src} must not be evaluated (ipaddr.js reads 010 as octal 8)`);
  }
  // 0 alone is a part, as in Rust
  assert.equal(errors('ip.src in {0.0.0.0/0 10.0.0.0/8}').length, 0);
});

test('a set\'s single IPv4 address or CIDR is read as the cidr crate (0.2) reads it: leading zeros decimal, missing parts 0; a warning with the full form', () => {
  const warned = (src: string) => analyzeExpression(src).problems.filter((p) => p.code === 'ruleset/expr-ip-short-form');
  for (const [src, fixed, inside, outside] of [
    ['ip.src in {192.168.001.0/24}', 'ip.src in {192.168.1.0/24}', '192.168.1.77', '192.168.2.1'],
    ['ip.src in {010.1.1.1}', 'ip.src in {10.1.1.1}', '10.1.1.1', '8.1.1.1'], // decimal: not octal 8.1.1.1
    ['ip.src in {10.1/16}', 'ip.src in {10.1.0.0/16}', '10.1.200.3', '10.2.0.1'],
    ['ip.src in {192.0.2}', 'ip.src in {192.0.2.0}', '192.0.2.0', '192.0.2.1'],
    ['ip.src in {10}', 'ip.src in {10.0.0.0}', '10.0.0.0', '10.0.0.1'],
  ]) {
    assert.deepEqual(errors(src), [], src);
    assert.equal(warned(src).length, 1, src);
    assert.deepEqual(fixTexts(src), [fixed], src);
    assert.deepEqual(analyzeExpression(fixed).problems, [], fixed);
    assert.equal(run(src, { 'ip.src': inside }), true, `${src} holds ${inside}`);
    assert.equal(run(src, { 'ip.src': outside }), false, `${src} does not hold ${outside}`);
  }
  // Strict everywhere else: a comparison's address, a range's ends; and still 0-255 per part, no host bits
  for (const src of ['ip.src eq 10.1', 'ip.src eq 010.1.1.1', 'ip.src in {10.1..10.2}', 'ip.src in {10.256}', 'ip.src in {10.1/8}', 'ip.src in {1.2.3.4.5}']) {
    assert.notDeepEqual(errors(src), [], src);
  }
});

test('a CIDR with host bits set is an error (the cidr crate refuses it), with its network as a fix', () => {
  const src = 'ip.src in {10.1.1.1/8 2001:db8::1/32}';
  const errs = errors(src);
  assert.deepEqual(errs.map((p) => p.code), ['ruleset/expr-invalid-ip', 'ruleset/expr-invalid-ip']);
  assert.match(errs[0].message, /10\.1\.1\.1\/8.*host bits.*10\.0\.0\.0\/8/);
  assert.match(errs[1].message, /2001:db8::\/32/);
  assert.deepEqual(fixTexts(src).sort(), ['ip.src in {10.0.0.0/8 2001:db8::1/32}', 'ip.src in {10.1.1.1/8 2001:db8::/32}']);
  assert.equal(compileExpression(src).ok, false);
  assert.equal(errors('ip.src in {10.0.0.0/8 2001:db8::/32 10.1.1.1/32 0.0.0.0/0}').length, 0);
});

test('an IPv4-mapped IPv6 literal is IPv6 on the platform: a warning, and it never equals an IPv4 request address', () => {
  const src = 'ip.src == ::ffff:1.2.3.4';
  const w = warnings(src);
  assert.equal(w.length, 1);
  assert.equal(w[0].code, 'ruleset/expr-ipv4-mapped');
  assert.deepEqual(fixTexts(src), ['ip.src == 1.2.3.4']);
  assert.equal(run(src, { 'ip.src': '1.2.3.4' }), false);
  assert.equal(run(src, { 'ip.src': '::ffff:1.2.3.4' }), true);
  assert.equal(run('ip.src in {::ffff:0.0.0.0/96}', { 'ip.src': '1.2.3.4' }), false);
  assert.equal(run('ip.src == 1.2.3.4', { 'ip.src': '1.2.3.4' }), true);
});

test('integers as wirefilter reads them: 0x hex, a leading 0 octal (a warning when it reads otherwise in decimal), i64 bounds', () => {
  const rec = (n: number): RequestRecord => ({ 'http.response.code': n });
  // hex
  assert.equal(errors('http.response.code eq 0x193').length, 0);
  assert.equal(run('http.response.code eq 0x193', rec(403)), true);
  assert.equal(run('http.response.code eq 0x1F', rec(31)), true);
  // octal: 0403 is 259 on the platform
  const oct = 'http.response.code eq 0403';
  assert.equal(errors(oct).length, 0);
  const w = warnings(oct);
  assert.equal(w.length, 1);
  assert.equal(w[0].code, 'ruleset/expr-octal-int');
  assert.match(w[0].message, /0403.*259/);
  assert.deepEqual(fixTexts(oct).sort(), ['http.response.code eq 259', 'http.response.code eq 403']);
  assert.equal(run(oct, rec(259)), true);
  assert.equal(run(oct, rec(403)), false);
  assert.equal(warnings('http.response.code in {00 07}').length, 0, 'octal 00..07 read as in decimal');
  // -0123 is decimal (the sign comes before the octal test)
  assert.equal(warnings('cf.threat_score ge -0123').length, 0);
  assert.equal(run('cf.threat_score ge -0123', { 'cf.threat_score': -123 }), true);
  // refused as on the platform
  for (const bad of ['http.response.code eq 089', 'http.response.code eq 1e3', 'http.response.code eq 403a', 'http.response.code eq 0x',
    'http.response.code eq 9223372036854775808', 'http.response.code eq -9223372036854775809', 'http.response.code eq 0x8000000000000000']) {
    const errs = errors(bad);
    assert.equal(errs.length, 1, bad);
    assert.equal(errs[0].code, 'ruleset/expr-invalid-int', bad);
    assert.equal(compileExpression(bad).ok, false, bad);
  }
  assert.equal(errors('http.response.code in {-9223372036854775808..9223372036854775807}').length, 0);
  // -0 is 0
  assert.equal(run('http.response.code eq -0', rec(0)), true);
});

test('an integer past 2^53 compares exactly: 9007199254740993 is not the record\'s 9007199254740992', () => {
  const r = { 'http.request.timestamp.msec': 9007199254740992 };
  assert.equal(run('http.request.timestamp.msec eq 9007199254740993', r), false);
  assert.equal(run('http.request.timestamp.msec lt 9007199254740993', r), true);
  assert.equal(run('http.request.timestamp.msec ge 9007199254740993', r), false);
  assert.equal(run('http.request.timestamp.msec in {9007199254740993..9223372036854775807}', r), false);
  assert.equal(run('http.request.timestamp.msec in {9007199254740992}', r), true);
});

/** Rust's Ipv4Addr::from_str, written from its grammar: four decimal parts 0-255, a part "0" or without a leading zero. */
function rustIpv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

test('differential: 20 000 generated IPv4 literals, the checker\'s verdict and the evaluator\'s reading agree with Rust\'s grammar', () => {
  const rnd = mulberry32(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const part = (): string => pick([
    () => String(Math.floor(rnd() * 256)), () => '0' + String(Math.floor(rnd() * 100)), () => '00', () => String(200 + Math.floor(rnd() * 99)),
    () => '0', () => String(Math.floor(rnd() * 10)),
  ])();
  let accepted = 0, refused = 0;
  for (let i = 0; i < 20_000; i++) {
    const lit = [part(), part(), part(), part()].join('.');
    const want = rustIpv4(lit);
    const src = `ip.src eq ${lit}`;
    const c = compileExpression(src);
    const checkerOk = errors(src).length === 0;
    assert.equal(checkerOk, !!want, `checker on ${lit}`);
    assert.equal(c.ok, !!want, `evaluator on ${lit}`);
    if (!want || !c.ok) { refused++; continue; }
    accepted++;
    const same = want.join('.');
    const other = [...want.slice(0, 3), (want[3] + 1) % 256].join('.');
    assert.equal(c.expression.test({ 'ip.src': same }), true, `${lit} equals ${same}`);
    assert.equal(c.expression.test({ 'ip.src': other }), false, `${lit} is not ${other}`);
  }
  assert.ok(accepted > 1000 && refused > 1000, `${accepted} accepted, ${refused} refused`);
});

/** wirefilter's i64::lex, written from its source: 0x hex, a leading 0 octal, else decimal with an optional "-"; i64 bounds. */
function wirefilterInt(s: string): bigint | undefined {
  const m = /^0x([0-9a-fA-F]+)$/.exec(s);
  let v: bigint;
  if (m) v = BigInt('0x' + m[1]);
  else if (s.startsWith('0')) { if (!/^[0-7]+$/.test(s)) return undefined; v = BigInt('0o' + s); }
  else if (/^-?\d+$/.test(s)) v = BigInt(s);
  else return undefined;
  return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
}

test('differential: 20 000 generated integer literals, the checker and the evaluator read what wirefilter reads', () => {
  const rnd = mulberry32(11);
  const digits = (n: number, set = '0123456789') => Array.from({ length: n }, () => set[Math.floor(rnd() * set.length)]).join('');
  const gen = (): string => {
    switch (Math.floor(rnd() * 7)) {
      case 0: return String(Math.floor(rnd() * 1000));
      case 1: return '0' + digits(1 + Math.floor(rnd() * 4));
      case 2: return '0x' + digits(1 + Math.floor(rnd() * 17), '0123456789abcdefABCDEF');
      case 3: return '-' + digits(1 + Math.floor(rnd() * 20));
      case 4: return digits(15 + Math.floor(rnd() * 6)).replace(/^0+/, '1');
      case 5: return String(Math.floor(rnd() * 100)) + pick(['e3', 'a', 'f']);
      default: return '-0' + digits(Math.floor(rnd() * 3));
    }
  };
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  for (let i = 0; i < 20_000; i++) {
    const lit = gen();
    const want = wirefilterInt(lit);
    const src = `http.request.timestamp.msec eq ${lit}`;
    assert.equal(errors(src).length === 0, want !== undefined, `checker on ${lit}`);
    const c = compileExpression(src);
    assert.equal(c.ok, want !== undefined, `evaluator on ${lit}`);
    if (want === undefined || !c.ok) continue;
    // A record holding the literal's value (as a double) matches exactly when that double is the value
    const asDouble = Number(want);
    assert.equal(c.expression.test({ 'http.request.timestamp.msec': asDouble }), BigInt(asDouble) === want, `${lit} eq ${asDouble}`);
  }
});

test('a quoted "matches" string is read with regex escaping (the values reference; wirefilter\'s lex_regex_from_literal)', () => {
  // \d, \. and \w are regex escapes the platform takes in a quoted regex string
  for (const src of ['http.host matches "^a\\d$"', 'http.request.uri.path ~ "^/api/login\\.aspx$"', 'http.host matches "[\\w.-]+"']) {
    assert.deepEqual(errors(src), [], src);
    assert.deepEqual(warnings(src), [], src);
  }
  assert.equal(run('http.request.uri.path matches "^/api/login\\.aspx$"', { 'http.request.uri.path': '/api/login.aspx' }), true);
  assert.equal(run('http.request.uri.path matches "^/api/login\\.aspx$"', { 'http.request.uri.path': '/api/loginXaspx' }), false);
  // \" outside a class is a quote; inside a class the backslash stays, and a quote there does not end the string
  assert.equal(run('http.host matches "a\\"b"', { 'http.host': 'a"b' }), true);
  assert.equal(run('http.host matches "^[a"b]+$"', { 'http.host': 'a"b' }), true);
  // "\\." is an escaped backslash and then any character: a warning, with the escape meant as a fix
  const src = 'http.request.uri.path matches "\\\\.php$"';
  const w = warnings(src);
  assert.equal(w.length, 1);
  assert.equal(w[0].code, 'ruleset/expr-regex-backslash');
  assert.deepEqual(fixTexts(src), ['http.request.uri.path matches "\\.php$"']);
  assert.equal(run(src, { 'http.request.uri.path': '/x.php' }), false);
  assert.equal(run(src, { 'http.request.uri.path': '/x\\.php' }), true);
  // other operators and function parameters keep the basic escaping: "\\" is one backslash, "\d" an error
  assert.equal(run('http.host eq "a\\\\b"', { 'http.host': 'a\\b' }), true);
  assert.equal(errors('http.host eq "a\\db"')[0]?.code, 'ruleset/expr-syntax');
  assert.equal(run('regex_replace(http.host, "\\\\\\\\", "a") eq "xay"', { 'http.host': 'x\\y' }), true);
});

test('basic strings as wirefilter reads them: \\NNN octal escapes, \\xHH bytes decoded as UTF-8, \\x+H (a sign from_str_radix takes)', () => {
  for (const [src, host] of [
    ['http.host eq "\\101\\102"', 'AB'],
    ['http.host eq "caf\\xc3\\xa9"', 'café'],
    ['http.host eq "caf\\303\\251"', 'café'],
    ['http.host eq "caf\\xC3\\xA9"', 'café'],
    ['http.host eq "\\x+41"', '\x041'],
    ['http.host eq "a\\000b"', 'a\0b'],
  ] as const) {
    assert.deepEqual(errors(src), [], src);
    assert.equal(run(src, { 'http.host': host }), true, src);
  }
  assert.equal(run('http.host eq "caf\\xc3\\xa9"', { 'http.host': 'cafÃ©' }), false);
  for (const bad of ['http.host eq "\\400"', 'http.host eq "\\08"', 'http.host eq "\\1"', 'http.host eq "\\x4"', 'http.host eq "\\x-1"', 'http.host eq "\\n"']) {
    const errs = errors(bad);
    assert.equal(errs.length, 1, bad);
    assert.equal(errs[0].code, 'ruleset/expr-syntax', bad);
    assert.equal(compileExpression(bad).ok, false, bad);
  }
});

/** wirefilter's lex_quoted_string_as_vec, written from its source: the bytes of a basic string's body, or undefined if refused. */
function wirefilterBytes(body: string): number[] | undefined {
  const out: number[] = [];
  for (let i = 0; i < body.length;) {
    const c = body[i];
    if (c !== '\\') { out.push(...new TextEncoder().encode(c)); i++; continue; }
    const e = body[i + 1];
    if (e === '"' || e === '\\') { out.push(e.charCodeAt(0)); i += 2; continue; }
    if (e === 'x') {
      const h = body.slice(i + 2, i + 4);
      if (!/^\+?[0-9a-fA-F]+$/.test(h) || h.length !== 2) return undefined;
      out.push(parseInt(h, 16)); i += 4; continue;
    }
    if (e !== undefined && e >= '0' && e <= '7') {
      const o = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(o) || parseInt(o, 8) > 255) return undefined;
      out.push(parseInt(o, 8)); i += 4; continue;
    }
    return undefined;
  }
  return out;
}

test('differential: 5 000 generated basic strings, the checker\'s verdict and the evaluator\'s reading against wirefilter\'s bytes', () => {
  const rnd = mulberry32(13);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const hex = '0123456789abcdefABCDEF';
  const parts = [() => pick(['a', 'Z', ' ', 'é', '/', '%']), () => '\\"', () => '\\\\',
    () => '\\x' + pick([...hex]) + pick([...hex]), () => '\\x+' + pick([...hex]), () => '\\x' + pick(['g', '-', '+']) + pick([...hex]),
    () => '\\' + String(Math.floor(rnd() * 4)) + String(Math.floor(rnd() * 8)) + String(Math.floor(rnd() * 10)),
    () => '\\' + pick(['n', 't', 'd', 'u', '8'])] as const;
  let accepted = 0;
  for (let i = 0; i < 5000; i++) {
    const body = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => pick(parts)()).join('');
    const want = wirefilterBytes(body);
    const src = `http.host eq "${body}"`;
    assert.equal(errors(src).length === 0, want !== undefined, `checker on ${src}`);
    if (want === undefined) { assert.equal(compileExpression(src).ok, false, src); continue; }
    accepted++;
    // A record's value is text: it holds the literal's bytes only when they are UTF-8 (a lone \xe0 equals no text)
    assert.equal(run(src, { 'http.host': bytesText(Uint8Array.from(want)) }), isUtf8(want), `${src} reads ${JSON.stringify(bytesText(Uint8Array.from(want)))}`);
  }
  assert.ok(accepted > 500, `${accepted} accepted`);
});

test('a range whose start is above its end is an error (wirefilter\'s IncompatibleRangeBounds), exactly past 2^53 and for IPs', () => {
  for (const src of ['http.request.timestamp.sec in {9007199254740993..9007199254740992}', 'ip.src in {10.0.0.5..10.0.0.1}',
    'ip.src in {2001:db8::5..2001:db8::1}']) {
    const errs = errors(src);
    assert.equal(errs.length, 1, src);
    assert.equal(errs[0].code, 'ruleset/expr-type-mismatch', src);
    assert.match(errs[0].message, /empty; its start is above its end/, src);
    assert.equal(compileExpression(src).ok, false, src);
  }
  assert.deepEqual(errors('ip.src in {10.0.0.1..10.0.0.1 2001:db8::1..2001:db8::5} and http.request.timestamp.sec in {9007199254740992..9007199254740993}'), []);
  // An end that is no address is the lexer's one error; the order of the ends is not judged then.
  for (const src of ['ip.src in {1.2.3.999..1.2.3.4}', 'ip.src in {10.0.0.5..10.0.0.256}']) {
    assert.deepEqual(errors(src).map((p) => p.code), ['ruleset/expr-invalid-ip'], src);
  }
});

test('fix all applies the fixes of refused literals (the meant value), not those of warnings that change what a rule matches', () => {
  const preferred = (src: string) => analyzeExpression(src).problems.map((p) => [p.code, (p.fixes ?? []).map((f) => !!f.preferred)]);
  assert.deepEqual(preferred('ip.src eq 010.1.1.1'), [['ruleset/expr-invalid-ip', [true]]]);
  assert.deepEqual(preferred('ip.src in {10.1.1.1/8}'), [['ruleset/expr-invalid-ip', [true]]]);
  assert.deepEqual(preferred('http.response.code eq 089'), [['ruleset/expr-invalid-int', [true]]]);
  assert.deepEqual(preferred('http.response.code eq 0403'), [['ruleset/expr-octal-int', [false, false]]]);
  assert.deepEqual(preferred('ip.src eq ::ffff:1.2.3.4'), [['ruleset/expr-ipv4-mapped', [false]]]);
  assert.deepEqual(preferred('http.host matches "\\\\.php"'), [['ruleset/expr-regex-backslash', [false]]]);
  // A header key with capitals never matches (the platform lower-cases them): the lower-case key is the meant one.
  assert.deepEqual(preferred('http.request.headers["X-A"][0] eq "b"'), [['ruleset/expr-header-case', [true]]]);
});

test('an address-like literal the platform refuses (1.2.3, 0x7f.1, 1.2.3.4.5) is one error naming it and the accepted form', () => {
  for (const [src, lit] of [['ip.src eq 1.2.3', '1.2.3'], ['ip.src eq 0x7f.1', '0x7f.1'], ['ip.src in {1.2.3.4.5}', '1.2.3.4.5']]) {
    const errs = errors(src);
    assert.equal(errs.length, 1, `${src}: ${JSON.stringify(errs)}`);
    assert.equal(errs[0].code, 'ruleset/expr-invalid-ip', src);
    assert.ok(errs[0].message.includes(`"${lit}"`) && /four decimal parts/.test(errs[0].message), errs[0].message);
    assert.equal(compileExpression(src).ok, false, src);
  }
  const dec = errors('http.response.code eq 1.5');
  assert.equal(dec.length, 1);
  assert.equal(dec[0].code, 'ruleset/expr-invalid-int');
  assert.match(dec[0].message, /"1\.5"/);
  assert.deepEqual(errors('http.response.code in {1..5} and ip.src in {1.2.3.4/32 1.2.3.4..1.2.3.5}'), []);
});

/** wirefilter's lex_regex_from_literal, written from its source: the regex a quoted "matches" string hands to the engine (and the
 * length of the string literal), or undefined when it is not closed. */
function wirefilterRegex(src: string): { regex: string; length: number } | undefined {
  let regex = '';
  let inClass = false;
  for (let i = 1; i < src.length;) {
    const c = src[i];
    if (c === '\\') {
      if (i + 1 < src.length) { const e = src[i + 1]; if (inClass || e !== '"') regex += '\\'; regex += e; }
      i += 2;
      continue;
    }
    if (c === '"' && !inClass) return { regex, length: i + 1 };
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    regex += c;
    i++;
  }
  return undefined;
}

test('differential: 5 000 generated quoted regexes, the string the checker and the evaluator read is the regex wirefilter hands on', () => {
  const rnd = mulberry32(17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  let closed = 0;
  for (let i = 0; i < 5000; i++) {
    const body = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(['a', '.', '\\', '"', '[', ']', 'd', '\\\\', '\\"', '^'])).join('');
    const lit = `"${body}"`;
    const want = wirefilterRegex(lit);
    const { ast } = parseExpression(`http.host matches ${lit}`);
    const right = ast?.type === 'compare' ? ast.right : undefined;
    if (!want) { assert.ok(analyzeExpression(`http.host matches ${lit}`).problems.some((p) => p.code === 'ruleset/expr-syntax'), lit); continue; }
    if (want.length !== lit.length) continue; // the string ends earlier: what follows is a syntax error on both sides
    closed++;
    assert.equal(right?.type, 'string', lit);
    assert.equal((right as { value: string }).value, want.regex, lit);
  }
  assert.ok(closed > 500, `${closed} closed`);
});

/** wirefilter's lex_byte_string (engine/src/rhs_types/bytes.rs at af1a1e96): a byte is exactly two characters read by
 * u8::from_str_radix(_, 16) (which takes a leading "+"), then a separator ":", "-" or "."; at least two bytes; it ends after a byte
 * not followed by a separator (a separator must be followed by a byte). The bytes and the rest of the input, or undefined. */
function wirefilterByteString(input: string): { bytes: number[]; rest: string } | undefined {
  const chars = [...input];
  const byte = (at: number): number | undefined => {
    if (at + 2 > chars.length) return undefined;
    const two = chars[at] + chars[at + 1];
    return /^(?:[0-9A-Fa-f]{2}|\+[0-9A-Fa-f])$/.test(two) ? parseInt(two, 16) : undefined;
  };
  const sep = (at: number) => at < chars.length && ':-.'.includes(chars[at]);
  const bytes: number[] = [];
  let at = 0;
  const first = byte(at);
  if (first === undefined) return undefined;
  bytes.push(first); at += 2;
  if (!sep(at)) return undefined;
  at++;
  for (;;) {
    const b = byte(at);
    if (b === undefined) return undefined;
    bytes.push(b); at += 2;
    if (!sep(at)) return { bytes, rest: chars.slice(at).join('') };
    at++;
  }
}

test('an unquoted byte string (wirefilter\'s lex_byte_string) is a Bytes value of a String field: eq, lt.., contains, in {...}', () => {
  for (const [src, yes, no] of [
    ['http.request.uri.path eq 2f:61:62', '/ab', '/abc'],
    ['http.request.uri.path == 2F-61.62', '/ab', '/a'],
    ['http.request.uri.path contains 61:62', '/xaby', '/ba'],
    ['http.request.uri.path in {2f:61 2f:62:63}', '/bc', '/b'],
    ['http.request.uri.path in {2f:61"/x"}', '/x', '/y'],
    ['http.request.uri.path ne 2f:61', '/b', '/a'],
    ['http.request.uri.path lt 2f:62', '/a', '/c'],
    ['http.host eq 10.20.30.40', '\x10\x20\x30\x40', '10.20.30.40'],
    ['any(http.request.headers.names[*] eq 78:2d:61)', 'x-a', 'x-b'],
    ['http.request.uri.path eq +f:+a', '\x0f\x0a', 'ff'],
    ['http.host eq c3:a9:2e', 'é.', 'x'],
  ] as const) {
    assert.deepEqual(errors(src).map((p) => p.message), [], src);
    const field = src.includes('headers.names') ? 'http.request.headers.names' : src.split(' ')[0];
    const rec = (v: string): RequestRecord => ({ [field]: field.endsWith('names') ? [v] : v });
    assert.equal(run(src, rec(yes)), true, `${src} on ${JSON.stringify(yes)}`);
    assert.equal(run(src, rec(no)), false, `${src} on ${JSON.stringify(no)}`);
  }
});

test('a set of 3 000 unquoted byte strings, half ending inside a token the lexer read ("a7.5aeb:df" is a7:5a then eb:df): every item read, the lexer\'s problems under them dropped', () => {
  // How long it takes is bench section 8's ("waf-ruleset: unquoted byte strings in a set"); this holds what it gives
  const items = Array.from({ length: 1_500 }, (_, k) => `a7.5aeb:df 2f:${(k % 128).toString(16).padStart(2, '0')}:62`);
  const src = `http.host in {${items.join(' ')}} and http.host eq c2:b4`;
  const { ast, problems } = parseExpression(src, () => 'textual');
  assert.deepEqual(problems, []);
  assert.ok(ast && ast.type === 'logical' && ast.left.type === 'compare' && ast.left.right.type === 'set');
  const set = ast.left.right;
  assert.equal(set.items.length, 4_500);
  const bytes = (...b: number[]) => bytesText(Uint8Array.from(b));
  assert.deepEqual(set.items.slice(0, 6).map((i) => i.type === 'string' && i.value), [bytes(0xa7, 0x5a), bytes(0xeb, 0xdf), '/\x00b', bytes(0xa7, 0x5a), bytes(0xeb, 0xdf), '/\x01b']);
  const last = set.items[set.items.length - 1];
  assert.equal(last.type === 'string' && last.value, `/${String.fromCharCode(1_499 % 128)}b`);
  assert.ok(ast.right.type === 'compare' && ast.right.right.type === 'string' && ast.right.right.value === bytes(0xc2, 0xb4));
  assert.equal(run('http.host in {' + items.join(' ') + '}', { 'http.host': '/\x7fb' }), true);
  assert.equal(run('http.host in {' + items.join(' ') + '}', { 'http.host': '/ab/' }), false);
});

test('an unquoted byte string where wirefilter refuses it: one error at the byte that is wrong, naming the form; not after matches, wildcard, nor for another type', () => {
  for (const [src, at, re] of [
    ['http.host eq 41:4x', 16, /"4x".*two hex digits/],
    ['http.host eq 41:', 16, /after ":"/],
    ['http.host eq 41:42.', 19, /after "\."/],
    ['http.host eq 41:42:4', 19, /"4"/],
    ['http.host eq 10.0.0.1', 16, /"0\."/],
    ['http.host in {41:42..43:44}', 20, /"\.4"/],
    ['http.host contains 41:4😢', 22, /"4😢" is not two hex digits/],
  ] as const) {
    const errs = errors(src);
    assert.equal(errs.length, 1, `${src}: ${errs.map((p) => p.message).join(' | ')}`);
    assert.equal(errs[0].code, 'ruleset/expr-syntax', src);
    assert.equal(errs[0].offset, at, `${src}: ${errs[0].message}`);
    assert.match(errs[0].message, re, src);
    assert.match(errs[0].message, /byte string/, src);
    assert.equal(compileExpression(src).ok, false, src);
  }
  // Regex and wildcard operands are strings only (Regex::lex_with, Wildcard::lex_with: a quote or r)
  for (const src of ['http.host matches 41:42', 'http.host ~ 41:42', 'http.host wildcard 41:42', 'http.host strict wildcard 41:42']) {
    assert.ok(errors(src).length > 0, src);
  }
  // Other types keep their own literals: an IP field reads an address, an integer field an integer
  assert.equal(errors('ip.src eq 10.20.30.40').length, 0);
  assert.ok(errors('ip.src eq 41:42:43').length > 0);
  assert.ok(errors('cf.bot_management.score eq 41:42').length > 0);
  // Not a byte string at all: the checker's own messages stay (quotes for a word, the type for a number)
  assert.match(errors('http.host eq foo')[0].message, /double quotes/);
  assert.equal(errors('http.host eq 41')[0].code, 'ruleset/expr-type-mismatch');
});

test('differential: 6 000 generated unquoted values of a String field, in eq and in a set, against wirefilter\'s lex_byte_string', () => {
  const rnd = mulberry32(29);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const hex = [...'0123456789abcdefABCDEF'];
  const sep = () => pick([':', '-', '.']);
  const pair = () => pick(hex) + pick(hex);
  const noise = () => pick([...hex, ':', '-', '.', '+', 'g', 'x', '/', '..', '😢', ' ', '']);
  // A byte string of 1 to 4 bytes (one is refused: no separator), a third of them with one character changed, dropped or added
  const item = () => {
    let t = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => (rnd() < 0.1 ? '+' + pick(hex) : pair())).map((b, k) => (k ? sep() : '') + b).join('');
    if (rnd() < 0.35) {
      const at = Math.floor(rnd() * (t.length + 1));
      t = t.slice(0, at) + noise() + t.slice(at + (rnd() < 0.5 ? 1 : 0));
    }
    return t;
  };
  let accepted = 0;
  for (let i = 0; i < 6000; i++) {
    const text = Array.from({ length: 1 + Math.floor(rnd() * 3) }, item).join(pick([' ', ' ', '', '  '])).trim();
    if (text === '') continue;
    const inSet = i % 2 === 1;
    const src = inSet ? `http.host in {${text}}` : `http.host eq ${text}`;
    // eq: the byte string must end the expression. A set (lex_rhs_values): spaces, then "}" or the next item, itself a byte
    // string here (no space needed between two items: "41:4243:44" is 41:42 and 43:44)
    let items: number[][] | undefined = [];
    let rest = text;
    for (;;) {
      const r = wirefilterByteString(rest);
      if (!r) { items = undefined; break; }
      items.push(r.bytes);
      rest = inSet ? r.rest.trimStart() : r.rest;
      if (rest === '') break;
      if (!inSet) { items = undefined; break; }
    }
    const want = items?.[0];
    assert.equal(errors(src).length === 0, want !== undefined, `${src}: ${errors(src).map((p) => p.message).join(' | ')}`);
    if (want === undefined) { assert.equal(compileExpression(src).ok, false, src); continue; }
    accepted++;
    for (const b of items!) assert.equal(run(src, { 'http.host': bytesText(Uint8Array.from(b)) }), isUtf8(b) || items!.some((o) => o !== b && isUtf8(o) && bytesText(Uint8Array.from(o)) === bytesText(Uint8Array.from(b))), src);
    if (items!.length === 1) assert.equal(run(src, { 'http.host': bytesText(Uint8Array.from([...want, 0x41])) }), false, src);
  }
  assert.ok(accepted > 1000, `${accepted} accepted`);
});

test('a byte string as a function argument where wirefilter reads one: after its IP and integer readings fail (0a:0b, not 41:42)', () => {
  // FunctionCallArgExpr::lex_with tries an IP, then an integer, then bytes: "41:42" is the integer 41 and then ":" (refused),
  // "0a:0b" is no octal integer and so bytes, "ab:cd:ef:01:23:45:67:89" an IPv6 address
  assert.equal(errors('starts_with(http.host, 0a:0b)').length, 0);
  assert.equal(run('starts_with(http.host, 0a:0b)', { 'http.host': '\x0a\x0bxyz' }), true);
  assert.equal(run('ends_with(http.host, aa:2e:63)', { 'http.host': 'x\xaa.c' }), true);
  assert.ok(errors('starts_with(http.host, 41:42)').length > 0);
  assert.ok(errors('starts_with(http.host, 1a:2b)').length === 0);
  assert.equal(errors('starts_with(http.host, ab:cd:ef:01:23:45:67:89)')[0]?.code, 'ruleset/expr-type-mismatch');
});

test('a String field orders by its bytes (UTF-8), as wirefilter compares [u8]: a character past U+FFFF is above U+FFFD', () => {
  // JavaScript's < compares UTF-16 units, where "😀" (D83D DE00) is below "�" (FFFD); in UTF-8, F0 9F 98 80 is above EF BF BD
  assert.equal(run('http.host lt "\uFFFD"', { 'http.host': '😀' }), false);
  assert.equal(run('http.host gt "\uFFFD"', { 'http.host': '😀' }), true);
  assert.equal(run('http.host ge "a😀"', { 'http.host': 'a\uFFFD' }), false);
  assert.equal(run('http.host le "ab"', { 'http.host': 'a' }), true);
  assert.equal(run('http.host lt "b"', { 'http.host': 'a\uFFFD' }), true);
  // Differential: 2 000 generated pairs against the order of their UTF-8 bytes
  const rnd = mulberry32(31);
  const chars = ['a', 'z', '\u00e9', '\u07ff', '\u0800', '\uE000', '\uFFFD', '\uFFFF', '😀', '\u{10FFFF}'];
  const text = () => Array.from({ length: Math.floor(rnd() * 4) }, () => chars[Math.floor(rnd() * chars.length)]).join('');
  const enc = new TextEncoder();
  const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(enc.encode(a)), Buffer.from(enc.encode(b)));
  for (let i = 0; i < 2000; i++) {
    const a = text(), b = text();
    const src = `http.host lt ${JSON.stringify(b)}`;
    assert.equal(run(src, { 'http.host': a }), byteOrder(a, b) < 0, `${JSON.stringify(a)} lt ${JSON.stringify(b)}`);
  }
});

test('a literal whose escaped bytes are no UTF-8 ("\\xe0" alone) compares as its bytes, not as the character of the byte (U+00E0)', () => {
  // wirefilter compares [u8]: 0xE0 is above "é" (C3 A9) and equals no valid text; read as "à" (C3 A0) it was below "é" and equal to "à"
  assert.equal(run(String.raw`http.host lt "\xe0"`, { 'http.host': 'é' }), true);
  assert.equal(run(String.raw`http.host gt "\xe0"`, { 'http.host': 'é' }), false);
  assert.equal(run(String.raw`http.host eq "\xe0"`, { 'http.host': 'à' }), false);
  assert.equal(run(String.raw`http.host ne "\xe0"`, { 'http.host': 'à' }), true);
  assert.equal(run(String.raw`http.host in {"\xe0" "b"}`, { 'http.host': 'à' }), false);
  assert.equal(run(String.raw`http.host in {"\xe0" "b"}`, { 'http.host': 'b' }), true);
  assert.equal(run(String.raw`http.host lt "a\340"`, { 'http.host': 'aé' }), true); // octal \340 is 0xE0 too
  assert.equal(run('http.host eq 61:e0', { 'http.host': 'aà' }), false); // an unquoted byte string alike
  // A lone continuation byte is found inside a character that holds it (é is C3 A9), as a byte search finds it
  assert.equal(run(String.raw`http.host contains "\xa9"`, { 'http.host': 'café' }), true);
  assert.equal(run(String.raw`http.host contains "\xe0"`, { 'http.host': 'à' }), false);
  // Valid UTF-8 escapes stay text: "\xc3\xa9" is "é"
  assert.equal(run(String.raw`http.host eq "\xc3\xa9"`, { 'http.host': 'é' }), true);
});

test('a raw string has at most 255 "#" (wirefilter\'s InvalidRawStringHashCount)', () => {
  const at = (n: number) => `http.host eq r${'#'.repeat(n)}"abc"${'#'.repeat(n)}`;
  assert.equal(errors(at(255)).length, 0);
  assert.equal(run(at(255), { 'http.host': 'abc' }), true);
  const errs = errors(at(256));
  assert.equal(errs.length, 1);
  assert.equal(errs[0].code, 'ruleset/expr-syntax');
  assert.equal(errs[0].offset, 13);
  assert.match(errs[0].message, /256 "#".*at most 255/);
});

test('a non-Boolean operand of and/or/not is one error that names it (a field, a call, a literal); a per-element condition in a group is taken', () => {
  const problems = (src: string) => analyzeExpression(src).problems.map((p) => [p.code, p.message]);
  assert.deepEqual(problems('http.host and ssl'), [['ruleset/expr-type-mismatch', 'Field "http.host" is a String, not a Boolean; compare it with a value, e.g. http.host eq "...".']]);
  assert.deepEqual(problems('lower(http.host) or ssl'), [['ruleset/expr-type-mismatch', 'lower() is a String, not a Boolean; compare it with a value, e.g. lower(http.host) eq "...".']]);
  // A literal is no condition, and no left side either (wirefilter compares a field or a call with a value): the example compares a
  // field of its type with it, not "value eq ..." (no such field)
  assert.deepEqual(problems('"a" and ssl'), [['ruleset/expr-type-mismatch', 'The string "a" is a String, not a Boolean; a literal is no condition: compare a field with it, e.g. http.host eq "a".']]);
  assert.deepEqual(problems('5 or ssl'), [['ruleset/expr-type-mismatch', 'The integer 5 is an Integer, not a Boolean; a literal is no condition: compare a field with it, e.g. cf.waf.score eq 5.']]);
  assert.deepEqual(problems('10.0.0.0/8 and ssl'), [['ruleset/expr-type-mismatch', 'The address 10.0.0.0/8 is an IP, not a Boolean; a literal is no condition: compare a field with it, e.g. ip.src in {10.0.0.0/8}.']]);
  // Every example is a well-formed comparison: a value of the element type, not "eq ..." (which ended the sentence in "....")
  assert.deepEqual(problems('http.request.headers.names and ssl'), [['ruleset/expr-type-mismatch', 'Field "http.request.headers.names" is an Array<String>, not a Boolean; compare it with a value, e.g. any(http.request.headers.names[*] eq "...").']]);
  assert.deepEqual(problems('http.request.headers or ssl'), [['ruleset/expr-type-mismatch', 'Field "http.request.headers" is a Map<Array<String>>, not a Boolean; compare it with a value, e.g. http.request.headers["key"][0] eq "...".']]);
  assert.deepEqual(problems('cf.llm.prompt.custom_topic_categories and ssl'), [['ruleset/expr-type-mismatch', 'Field "cf.llm.prompt.custom_topic_categories" is a Map<Integer>, not a Boolean; compare it with a value, e.g. cf.llm.prompt.custom_topic_categories["key"] gt 0.']]);
  assert.deepEqual(problems('http.request.uri.args["a"] and ssl'), [['ruleset/expr-type-mismatch', 'Field "http.request.uri.args" at ["a"] is an Array<String>, not a Boolean; compare it with a value, e.g. any(http.request.uri.args["a"][*] eq "...").']]);
  for (const src of ['http.request.headers.names and ssl', 'http.request.headers or ssl', 'cf.bot_management.detection_ids and ssl', '"a" and ssl']) {
    for (const [, message] of problems(src)) assert.doesNotMatch(message as string, /\.\.\.\.|\beq \.\.\.[^"]|\bvalue eq\b/, src);
  }
  assert.deepEqual(problems('(http.host) and ssl'), problems('http.host and ssl'), 'reported once, not again where the group is used');
  assert.deepEqual(problems('any((starts_with(http.request.headers.names[*], "x-")))'), []);
});

test('an unknown function written with a namespace (string.lower, cf.url_decode) is offered the function of the same last segment', () => {
  for (const [src, name, meant] of [['string.lower(http.host) eq "a"', 'string.lower', 'lower'], ['cf.url_decode(http.host) eq "a"', 'cf.url_decode', 'url_decode']]) {
    const p = analyzeExpression(src).problems;
    assert.deepEqual(p.map((x) => [x.code, x.message]), [['ruleset/expr-unknown-function', `Unknown function "${name}"; did you mean "${meant}"?`]], src);
    assert.deepEqual(p[0].fixes!.map((f) => [f.title, f.preferred]), [[`Change to "${meant}"`, true]], src);
  }
});

test('argument counts in words; "[*]" outside a closed any() still needs one; a mistyped field with "[*]" still maps the call', () => {
  const problems = (src: string) => analyzeExpression(src).problems.map((p) => [p.code, p.message]);
  assert.deepEqual(problems('lower() eq "a"'), [['ruleset/expr-arguments', 'lower() takes 1 argument, not 0.']]);
  assert.deepEqual(problems('starts_with(http.host) or ssl'), [['ruleset/expr-arguments', 'starts_with() takes 2 arguments, not 1.']]);
  assert.deepEqual(problems('any(http.request.headers.names[*] eq "x") and http.request.headers.names[*] eq "x"').map(([c]) => c), ['ruleset/expr-type-mismatch']);
  assert.deepEqual(problems('any(http.request.headers.names[*] eq "x") or (http.request.headers.names[*] eq "x")').map(([c]) => c),
    problems('ssl or (http.request.headers.names[*] eq "x")').map(([c]) => c), 'after any(...) closes, "[*]" is outside it again');
  assert.deepEqual(problems('lower(http.request.headerz.names[*])[*] eq "x"').map(([c]) => c), ['ruleset/expr-unknown-field', 'ruleset/expr-array-result']);
});

test('bit_slice() bounds: an empty slice (end at the start) and a 33-bit one are refused with their own words; an address on a String field is "an IP"', () => {
  const problems = (src: string, phase?: string) => analyzeExpression(src, phase).problems.map((p) => [p.code, p.message]);
  assert.deepEqual(problems('bit_slice("tcp", 8, 8) eq 0', 'magic_transit'),
    [['ruleset/expr-argument-value', 'bit_slice() slices from bit 8 to bit 8: the end must come after the start.']]);
  assert.deepEqual(problems('bit_slice("tcp", 8, 41) eq 0', 'magic_transit'),
    [['ruleset/expr-argument-value', 'bit_slice() slices 33 bits (8 to 41); a slice is at most 32 bits, join several with "and".']]);
  assert.deepEqual(problems('bit_slice("tcp", 8, 40) eq 0', 'magic_transit'), []);
  assert.deepEqual(problems('http.host eq 1.2.3.4'),
    [['ruleset/expr-type-mismatch', 'Field "http.host" is a String, so 1.2.3.4 (an IP) cannot be compared with it; put the value in double quotes.']]);
});

test('the example in a non-Boolean operand\'s message fits its type: a key for a map, any() for an array, a CIDR set for an IP', () => {
  const example = (src: string) => /e\.g\. (.*)\.$/.exec(analyzeExpression(src).problems[0].message)![1];
  assert.equal(example('http.request.headers and ssl'), 'http.request.headers["key"][0] eq "..."');
  assert.equal(example('http.request.headers.names and ssl'), 'any(http.request.headers.names[*] eq "...")');
  assert.equal(example('cf.bot_management.detection_ids and ssl'), 'any(cf.bot_management.detection_ids[*] gt 0)');
  assert.equal(example('ip.src and ssl'), 'ip.src in {192.0.2.0/24}');
  assert.equal(example('http.response.code and ssl'), 'http.response.code gt 0');
});

test('an array compared whole gets "add [*]" inside any(), and the any() wrap again once that any() has closed', () => {
  const fixes = (src: string) => analyzeExpression(src).problems.map((p) => (p.fixes ?? []).map((f) => f.title));
  assert.deepEqual(fixes('any(http.request.headers.names eq "x")'), [['Compare every element: add [*]']]);
  assert.deepEqual(fixes('any(http.request.headers.names[*] eq "a") or http.request.headers.names eq "x"'), [['Compare every element: any(...[*] ...)']]);
});

test('the bytes of a byte order mark read as U+FEFF wherever they are: at the start, and after a byte that starts no sequence', () => {
  // TextDecoder drops a leading BOM unless told not to: "\xef\xbb\xbfa" equalled "a", and a BOM after an invalid byte was lost.
  assert.equal(bytesText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61])), '\ufeffa');
  assert.equal(bytesText(Uint8Array.from([0xe0, 0xef, 0xbb, 0xbf, 0x61])), '\u00e0\ufeffa');
  assert.equal(run('http.host eq "\\xef\\xbb\\xbfa"', { 'http.host': '\ufeffa' }), true);
  assert.equal(run('http.host eq "\\xef\\xbb\\xbfa"', { 'http.host': 'a' }), false);
});
