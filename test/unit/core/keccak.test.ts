// Keccak-256 of the core (EIP-55 checksums in the editor, the mock's hashes), held to ethers' on many lengths. Its speed is no test's
// business (no timed assertions: a loaded machine failed one at 68 µs a checksum); the batch's open time is measured by `npm run bench`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keccak256 as ethersKeccak, getAddress } from 'ethers';
import { checksumAddress, keccakHex } from '../../../server/src/core/keccak';

test('keccakHex equals ethers\' keccak256 on every length around the 136-byte rate', () => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
  for (let n = 0; n <= 300; n++) {
    const data = Uint8Array.from({ length: n }, next);
    assert.equal(keccakHex(data), ethersKeccak(data), `length ${n}`);
  }
});

test('checksumAddress equals ethers\' getAddress', () => {
  for (const a of ['6b175474e89094c44da98b954eedeac495271d0f', 'DE0B295669A9FD93D5F28D9EC85E40F4CB697BAE', '0000000000000000000000000000000000000000', 'ffffffffffffffffffffffffffffffffffffffff']) {
    assert.equal(checksumAddress(a), getAddress('0x' + a.toLowerCase()), a);
  }
});
