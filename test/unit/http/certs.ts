// X.509 certificates for the http/ tests, built with node:crypto alone: Node can parse a certificate (X509Certificate) but not make
// one, and the tests must not depend on an openssl binary or a package. A certificate is DER written by hand (RFC 5280: the TBS part,
// signed with RSA SHA-256), just enough for a TLS server: subject and issuer common names, validity, subjectAltName, CA flag.
import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

export interface Issued {
  /** PEM, for tls.createServer's cert (a chain: join the PEMs, leaf first). */
  cert: string;
  /** PEM (PKCS#8), for tls.createServer's key. */
  key: string;
  name: string;
  privateKey: KeyObject;
}

export interface CertOptions {
  /** Common name, also the subjectAltName DNS name unless `altNames` is given. */
  name: string;
  /** DNS names and IP addresses (IPv4 dotted) the certificate is valid for. */
  altNames?: string[];
  /** Signed by this certificate; self-signed when absent. */
  issuer?: Issued;
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
}

const DAY_MS = 86_400_000;

export function makeCert(o: CertOptions): Issued {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const notBefore = o.notBefore ?? new Date(Date.now() - DAY_MS);
  const notAfter = o.notAfter ?? new Date(Date.now() + 365 * DAY_MS);
  const sha256WithRsa = seq(oid('1.2.840.113549.1.1.11'), tlv(0x05, Buffer.alloc(0)));
  const san = (o.altNames ?? [o.name]).map((n) => (/^\d+\.\d+\.\d+\.\d+$/.test(n) ? tlv(0x87, Buffer.from(n.split('.').map(Number))) : tlv(0x82, Buffer.from(n, 'ascii'))));
  const extensions = [
    seq(oid('2.5.29.17'), tlv(0x04, seq(...san))),
    seq(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, o.ca ? seq(tlv(0x01, Buffer.from([0xff]))) : seq())),
  ];
  const tbs = seq(
    tlv(0xa0, int(2)), // v3
    int(BigInt(`0x${randomBytes(8).toString('hex')}`) & 0x7fffffffffffffffn), // serial: positive, unique per certificate
    sha256WithRsa,
    dn(o.issuer?.name ?? o.name),
    seq(time(notBefore), time(notAfter)),
    dn(o.name),
    publicKey.export({ format: 'der', type: 'spki' }),
    tlv(0xa3, seq(...extensions)),
  );
  const signature = sign('sha256', tbs, o.issuer?.privateKey ?? privateKey);
  const der = seq(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const cert = new X509Certificate(der).toString(); // parses what was built: a malformed certificate fails here, not in a handshake
  return { cert, key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), name: o.name, privateKey };
}

function tlv(tag: number, body: Buffer): Buffer {
  const n = body.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}

function seq(...parts: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(parts));
}

function int(v: number | bigint): Buffer {
  let hex = BigInt(v).toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a * 40 + b];
  for (const n of rest) {
    const groups = [n & 0x7f];
    for (let v = n >>> 7; v > 0; v >>>= 7) groups.unshift((v & 0x7f) | 0x80);
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A distinguished name holding only a common name. */
function dn(commonName: string): Buffer {
  return seq(tlv(0x31, seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

/** UTCTime (years 1950-2049), as RFC 5280 requires for those years. */
function time(d: Date): Buffer {
  const s = d.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${s}Z`, 'ascii'));
}
