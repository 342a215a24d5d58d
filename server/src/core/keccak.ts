// Keccak-256 (the pre-standard SHA-3 padding Ethereum uses): EIP-55 address checksums in the editor, and the mock's hashes
// (web3_sha3, transaction hashes, logs blooms). node:crypto has sha3-256 but not keccak-256, and the browser server has no
// node:crypto at all: @noble/hashes (the audited implementation ethers and viem use; no dependencies, browser and Node) computes
// it. A checksum costs a few microseconds.
import { keccak_256 } from '@noble/hashes/sha3';

/** Keccak-256 of bytes: 32 bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
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
