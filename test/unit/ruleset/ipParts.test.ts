// The lexer reads a valid address's parts itself (exprLexer ipGroups) to tell host bits in a CIDR and an IPv4-mapped address, rather
// than through ipaddr.js, which was a third of a ruleset check. Held to ipaddr.js's reading of the address as WHATWG's URL parser
// writes it (ipaddr.js reads "::1.2.3.4" as ::ffff:1.2.3.4, RFC 4291 and Rust's Ipv6Addr as ::102:304) on generated addresses of
// every form the lexer takes: IPv4, IPv6 full and compressed (a gap at the start, middle or end), with an IPv4 tail, mapped and not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ipaddr from 'ipaddr.js';
import { mulberry32 } from '../../../server/src/core/prng';
import { hostBitsSet, ipGroups, ipv4Mapped, validIpv4, validIpv6 } from '../../../server/src/core/rules/ruleset/exprLexer';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';
import { compileExpression, type RequestRecord } from '../../../server/src/core/eval/rules';

const r = mulberry32(20261126);
const int = (n: number) => Math.floor(r() * n);
/** A group that is often 0 or ffff, so that gaps, mapped addresses and host bits at the edge all come up. */
const group = () => [0, 0, 0xffff, int(0x10000), 1 << int(16)][int(5)];

function v4(): string { return [0, 0, 0, 0].map(() => [0, 255, int(256), 1 << int(8)][int(4)]).join('.'); }

function v6(): string {
  const gs = Array.from({ length: 8 }, group);
  if (r() < 0.2) { gs[0] = gs[1] = gs[2] = gs[3] = gs[4] = 0; gs[5] = 0xffff; }
  const tail = r() < 0.3;
  const hex = (tail ? gs.slice(0, 6) : gs).map((g) => g.toString(16)[r() < 0.2 ? 'toUpperCase' : 'toString']());
  const parts = tail ? [...hex, `${gs[6] >> 8}.${gs[6] & 255}.${gs[7] >> 8}.${gs[7] & 255}`] : hex;
  // Compress a run of zero groups (not across the IPv4 tail), as any writer may: not always the longest
  const zeros: [number, number][] = [];
  for (let i = 0; i < (tail ? 6 : 8); i++) if (gs[i] === 0) {
    let j = i; while (j < (tail ? 6 : 8) && gs[j] === 0) j++;
    zeros.push([i, j]); i = j;
  }
  if (zeros.length && r() < 0.8) {
    const [a, b] = zeros[int(zeros.length)];
    return `${parts.slice(0, a).join(':')}::${parts.slice(b).join(':')}`;
  }
  return parts.join(':');
}

test('ipGroups, hostBitsSet and ipv4Mapped read generated addresses as ipaddr.js does', () => {
  let mapped = 0, hostSet = 0;
  for (let i = 0; i < 20000; i++) {
    const six = r() < 0.7;
    const addr = six ? v6() : v4();
    assert.ok(six ? validIpv6(addr) : validIpv4(addr), addr);
    const parsed = ipaddr.parse(six ? new URL(`http://[${addr}]/`).hostname.slice(1, -1) : addr);
    const groups = ipGroups(addr, six ? 6 : 4);
    assert.deepEqual(groups, six ? (parsed as ipaddr.IPv6).parts : (parsed as ipaddr.IPv4).octets, addr);
    if (six) {
      const m = ipv4Mapped(groups);
      assert.equal(m, (parsed as ipaddr.IPv6).isIPv4MappedAddress(), addr);
      mapped += m ? 1 : 0;
    }
    const bits = int(six ? 129 : 33);
    const net = (six ? ipaddr.IPv6 : ipaddr.IPv4).networkAddressFromCIDR(`${addr}/${bits}`);
    const set = hostBitsSet(groups, six ? 16 : 8, bits);
    assert.equal(set, net.toString() !== parsed.toString(), `${addr}/${bits}`);
    hostSet += set ? 1 : 0;
  }
  assert.ok(mapped > 500 && hostSet > 5000 && hostSet < 19000, `cases: ${mapped} mapped, ${hostSet} with host bits`);
});

test('a CIDR with host bits set and an IPv4-mapped literal are still reported, with their fixes', () => {
  const codes = (src: string) => analyzeExpression(src).problems.map((p) => `${p.code} ${p.message}`);
  assert.deepEqual(codes('ip.src in {10.1.1.1/8 10.0.0.0/8 2001:db8::1/32 2001:db8::/32}'), [
    'ruleset/expr-invalid-ip "10.1.1.1/8" has host bits set, which the platform refuses in a CIDR; write its network 10.0.0.0/8.',
    'ruleset/expr-invalid-ip "2001:db8::1/32" has host bits set, which the platform refuses in a CIDR; write its network 2001:db8::/32.',
  ]);
  assert.equal(codes('ip.src eq ::ffff:1.2.3.4')[0]?.split(' ')[0], 'ruleset/expr-ipv4-mapped');
  assert.equal(codes('ip.src in {::ffff:0:0/96}')[0]?.split(' ')[0], 'ruleset/expr-ipv4-mapped');
  assert.deepEqual(codes('ip.src in {::fffe:0:0/95 ::fffe:1.2.3.4 ::1.2.3.4}'), [], '::1.2.3.4 is IPv4-compatible (::102:304), not mapped');
});

test('the evaluator reads "::1.2.3.4" as ::102:304, as Rust does, not as the mapped ::ffff:1.2.3.4', () => {
  const run = (src: string, addr: string) => {
    const c = compileExpression(src);
    if (!c.ok) throw new Error(c.error);
    return c.expression.test({ 'ip.src': addr } as RequestRecord);
  };
  assert.equal(run('ip.src eq ::1.2.3.4', '::102:304'), true);
  assert.equal(run('ip.src eq ::1.2.3.4', '::ffff:1.2.3.4'), false);
  assert.equal(run('ip.src in {::1.2.3.0/120}', '::ffff:1.2.3.4'), false);
  assert.equal(run('ip.src in {::1.2.3.0/120}', '::1.2.3.9'), true);
  assert.equal(run('ip.src in {::ffff:1.2.3.0/120}', '::ffff:1.2.3.4'), true);
  assert.equal(run('ip.src eq ::ffff:1.2.3.4', '1.2.3.4'), false, 'a mapped address never equals an IPv4 client');
});

test('validIpv4 is Rust\'s Ipv4Addr reading: four parts 0-255, none with a leading zero', () => {
  // The reading written out: Rust's parser takes 1-3 digits per part, refuses a leading zero and a value past 255
  const rust = (s: string) => {
    const parts = s.split('.');
    return parts.length === 4 && parts.every((p) => /^(?:0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
  };
  const pieces = ['0', '00', '01', '1', '9', '10', '99', '100', '199', '200', '249', '250', '255', '256', '299', '300', '999', '1000', '', 'a', '+1', ' 1'];
  let valid = 0;
  for (let i = 0; i < 20000; i++) {
    const n = [3, 4, 4, 4, 5][int(5)];
    const s = Array.from({ length: n }, () => pieces[int(pieces.length)]).join('.');
    assert.equal(validIpv4(s), rust(s), s);
    valid += rust(s) ? 1 : 0;
  }
  assert.ok(valid > 500, `${valid} valid cases`);
});
