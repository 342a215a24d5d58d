// readWhole.ts: a device or pipe read in chunks keeps what it read, not a 1 MB buffer per read (sec5; rv28's leftover), and the
// bound stays: reading stops past it with the same message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentTooLarge, readChunked } from '../../../server/src/eval/readWhole';

/** A pipe that gives `each` bytes a read, `reads` times, then its end; `seen` records the memory the process's ArrayBuffers hold. */
function slowPipe(each: number, reads: number) {
  const seen: number[] = [];
  let done = 0;
  const read = (buf: Buffer, length: number): number => {
    seen.push(process.memoryUsage().arrayBuffers);
    if (done === reads) return 0;
    done++;
    const n = Math.min(each, length);
    buf.fill(0x61 + (done % 26), 0, n);
    return n;
  };
  return { read, seen };
}

test('a pipe giving 3 bytes a read: the reads keep about the bytes read, not 1 MB each', () => {
  // Before, each read had a 1 MB buffer of its own, kept behind the 3 bytes read: 200 reads held 200 MB (address space the
  // process reserved, counted in memoryUsage().arrayBuffers). The loop is synchronous, so nothing else allocates meanwhile; a
  // collection can only lower the count.
  const { read, seen } = slowPipe(3, 200);
  const got = readChunked(read, 1 << 30);
  assert.equal(got.length, 600);
  assert.equal(got.toString('latin1', 0, 6), 'bbbccc');
  const growth = seen[seen.length - 1] - seen[0];
  assert.ok(growth < 8 << 20, `the reads kept ${growth.toLocaleString('en')} bytes of buffers for 600 bytes read`);
});

test('readChunked stops past the bound with the bound\'s message, and never asks for more than one byte past it', () => {
  let asked = 0;
  const endless = (buf: Buffer, length: number): number => { asked += length; buf.fill(0x20, 0, length); return length; };
  assert.throws(() => readChunked(endless, 10_000), (err: Error) => err instanceof DocumentTooLarge && /goes on past 10,000 bytes/.test(err.message));
  assert.equal(asked, 10_001);
  const { read } = slowPipe(4096, 3);
  assert.equal(readChunked(read, 3 * 4096).length, 3 * 4096, 'exactly the bound is read whole');
  assert.equal(readChunked(() => 0, 0).length, 0);
});
