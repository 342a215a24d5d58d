// Keccak-256 (the pre-standard SHA-3 padding Ethereum uses): EIP-55 address checksums here, and the mock's hashes (web3_sha3,
// transaction hashes, logs blooms). node:crypto has sha3-256 but not keccak-256; no Buffer, so the browser server can bundle it.
// Small and slow (BigInt lanes): fine for one address or a mock's block.

const MASK = (1n << 64n) - 1n;
const ROUNDS: bigint[] = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn, 0x0000000080000001n,
  0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n,
  0x000000000000800an, 0x800000008000000an, 0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];
const ROT: number[] = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

function rotl(x: bigint, n: number): bigint {
  if (n === 0) return x;
  const s = BigInt(n);
  return ((x << s) | (x >> (64n - s))) & MASK;
}

function permute(a: bigint[]): void {
  const b: bigint[] = new Array<bigint>(25).fill(0n);
  const c: bigint[] = new Array<bigint>(5).fill(0n);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 25; y += 5) a[y + x] ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROT[x + 5 * y]);
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) a[y + x] = b[y + x] ^ (~b[y + ((x + 1) % 5)] & MASK & b[y + ((x + 2) % 5)]);
    }
    a[0] ^= ROUNDS[round];
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
  const state: bigint[] = new Array<bigint>(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) state[i] ^= view.getBigUint64(off + i * 8, true);
    permute(state);
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) outView.setBigUint64(i * 8, state[i], true);
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
  const hash = keccak256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    out += nibble >= 8 ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}
