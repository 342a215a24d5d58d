// Keccak-256 (the pre-standard SHA-3 padding Ethereum uses): EIP-55 address checksums in the editor, and the mock's hashes
// (web3_sha3, transaction hashes, logs blooms). node:crypto has sha3-256 but not keccak-256, and the browser server has no
// node:crypto at all. Each 64-bit lane is two 32-bit halves (lo, hi) in an Int32Array: a checksum costs a few microseconds,
// where BigInt lanes cost a quarter of a millisecond (a batch of requests can hold thousands of addresses).

/** The 24 round constants, as [lo, hi] pairs. */
const RC = new Int32Array([
  0x00000001, 0x00000000, 0x00008082, 0x00000000, 0x0000808a, 0x80000000, 0x80008000, 0x80000000, 0x0000808b, 0x00000000,
  0x80000001, 0x00000000, 0x80008081, 0x80000000, 0x00008009, 0x80000000, 0x0000008a, 0x00000000, 0x00000088, 0x00000000,
  0x80008009, 0x00000000, 0x8000000a, 0x00000000, 0x8000808b, 0x00000000, 0x0000008b, 0x80000000, 0x00008089, 0x80000000,
  0x00008003, 0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x80000000, 0x0000800a, 0x00000000, 0x8000000a, 0x80000000,
  0x80008081, 0x80000000, 0x00008080, 0x80000000, 0x80000001, 0x00000000, 0x80008008, 0x80000000,
]);
/** Rotation of lane x + 5y (rho). */
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
/** Where lane x + 5y goes (pi): y + 5((2x + 3y) mod 5). */
const PI = ROT.map((_, i) => { const x = i % 5, y = Math.floor(i / 5); return y + 5 * ((2 * x + 3 * y) % 5); });

/** (x + 1) mod 5, (x + 2) mod 5 and (x + 4) mod 5, times 2 (the lo half's index): no modulo in the rounds. */
const X1 = [2, 4, 6, 8, 0];
const X2 = [4, 6, 8, 0, 2];
const X4 = [8, 0, 2, 4, 6];

const B = new Int32Array(50);
const C = new Int32Array(10);

/** keccak-f[1600] on 25 lanes held as lo/hi pairs (lane i at 2i, 2i + 1). */
function permute(s: Int32Array): void {
  for (let round = 0; round < 24; round++) {
    // theta
    for (let x = 0; x < 5; x++) {
      C[2 * x] = s[2 * x] ^ s[2 * x + 10] ^ s[2 * x + 20] ^ s[2 * x + 30] ^ s[2 * x + 40];
      C[2 * x + 1] = s[2 * x + 1] ^ s[2 * x + 11] ^ s[2 * x + 21] ^ s[2 * x + 31] ^ s[2 * x + 41];
    }
    for (let x = 0; x < 5; x++) {
      const l = C[X1[x]], h = C[X1[x] + 1];
      const dl = C[X4[x]] ^ ((l << 1) | (h >>> 31));
      const dh = C[X4[x] + 1] ^ ((h << 1) | (l >>> 31));
      for (let y = 0; y < 25; y += 5) {
        s[2 * (x + y)] ^= dl;
        s[2 * (x + y) + 1] ^= dh;
      }
    }
    // rho and pi
    for (let i = 0; i < 25; i++) {
      const l = s[2 * i], h = s[2 * i + 1], n = ROT[i], to = 2 * PI[i];
      if (n === 0) { B[to] = l; B[to + 1] = h; }
      else if (n < 32) { B[to] = (l << n) | (h >>> (32 - n)); B[to + 1] = (h << n) | (l >>> (32 - n)); }
      else if (n === 32) { B[to] = h; B[to + 1] = l; }
      else { const m = n - 32; B[to] = (h << m) | (l >>> (32 - m)); B[to + 1] = (l << m) | (h >>> (32 - m)); }
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        const a = 2 * (y + x), b = 2 * y + X1[x], c = 2 * y + X2[x];
        s[a] = B[a] ^ (~B[b] & B[c]);
        s[a + 1] = B[a + 1] ^ (~B[b + 1] & B[c + 1]);
      }
    }
    // iota
    s[0] ^= RC[2 * round];
    s[1] ^= RC[2 * round + 1];
  }
}

/** Keccak-256 of bytes: 32 bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  const rate = 136;
  const padded = new Uint8Array((Math.floor(data.length / rate) + 1) * rate);
  padded.set(data);
  padded[data.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const view = new DataView(padded.buffer);
  const state = new Int32Array(50);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 4; i++) state[i] ^= view.getInt32(off + i * 4, true);
    permute(state);
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setInt32(i * 4, state[i], true);
  return out;
}

/** Keccak-256 as "0x" and 64 lower-case hex digits. */
export function keccakHex(data: Uint8Array): string {
  let s = '0x';
  for (const b of keccak256(data)) s += b.toString(16).padStart(2, '0');
  return s;
}

/** The EIP-55 checksummed form of a 20-byte address given as 40 hex digits (any case, no prefix). */
export function checksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const bytes = new Uint8Array(40);
  for (let i = 0; i < 40; i++) bytes[i] = lower.charCodeAt(i);
  const hash = keccak256(bytes);
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}
