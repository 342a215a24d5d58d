// Reading one document whole (the CLI's lint and the documents test-filter and test-rules test), at most a bound of bytes: a file
// that never ends (/dev/zero, a pipe from `yes`) or one larger than a string can be is refused once the bound is passed, instead of
// being read until the process runs out of memory (V8 aborted with std::bad_alloc). Node only (fs).
import * as fs from 'node:fs';
import { constants } from 'node:buffer';

/** The most read of one document: the longest string V8 makes (536,870,888 characters, each at least one byte of UTF-8), so a
 * document past it could not be checked as text anyway. */
export const MAX_DOCUMENT_BYTES = constants.MAX_STRING_LENGTH;

/** A document past the bound: `size` is the file's (a regular file) or undefined (a stream, read up to the bound). */
export class DocumentTooLarge extends Error {
  constructor(readonly max: number, readonly size?: number) {
    super(size === undefined
      ? `it goes on past ${max.toLocaleString('en')} bytes, the most read of one document; reading stopped there`
      : `it is ${size.toLocaleString('en')} bytes, over the ${max.toLocaleString('en')} bytes read of one document`);
  }
}

/** The buffer every read of a device or pipe goes into. */
const CHUNK = 1 << 20;

/** The bytes of `file`, at most `max` (DocumentTooLarge past it): a regular file by its size, without reading it; anything else (a
 * device, a pipe) read in chunks until its end or the bound. Errors of opening or reading are thrown as fs throws them. */
export function readFileWhole(file: string, max = MAX_DOCUMENT_BYTES): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const st = fs.fstatSync(fd);
    if (st.isFile() && st.size > max) throw new DocumentTooLarge(max, st.size);
    // (by its name, as lint --fix's test of a file changed while it was read watches the reads)
    if (st.isFile()) return fs.readFileSync(file);
    return readChunked((buf, length) => fs.readSync(fd, buf, 0, length, null), max);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The bytes `read` gives until it answers 0 (the end), at most `max` (DocumentTooLarge past it). `read` fills `buf` from its start
 * with at most `length` bytes and answers how many. One buffer of at most CHUNK bytes takes every read and only the bytes read are
 * copied out, so what is kept follows the bytes read: a 1 MB buffer per read was kept before (sec5), 16 times the bytes of a pipe's
 * 64 KB reads and far more for a pipe that gives a few bytes a read.
 */
export function readChunked(read: (buf: Buffer, length: number) => number, max: number): Buffer {
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, max + 1));
  const chunks: Buffer[] = [];
  let size = 0;
  for (;;) {
    const n = read(buf, Math.min(buf.length, max + 1 - size));
    if (n === 0) return Buffer.concat(chunks, size);
    chunks.push(Buffer.from(buf.subarray(0, n)));
    size += n;
    if (size > max) throw new DocumentTooLarge(max);
  }
}

/** A stream's bytes (standard input), at most `max` (DocumentTooLarge past it; the stream is left unread from there). Standard input
 * is read as a stream (as ESLint reads it): a synchronous read of fd 0 fails with EAGAIN when a parent left it non-blocking. A
 * terminal is read until end of file (Ctrl-D), as cat does. */
export async function readStreamWhole(input: AsyncIterable<Buffer | string>, max = MAX_DOCUMENT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of input) {
    const b = typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
    chunks.push(b);
    size += b.length;
    if (size > max) throw new DocumentTooLarge(max);
  }
  return Buffer.concat(chunks, size);
}
