// Log files as Logpush delivers them: NDJSON, one JSON object per line, optionally gzip (recognized by its magic bytes, not its
// name). Streamed line by line in constant memory (a 1 GB file never sits in memory); a line that is not a JSON object is reported
// with its number and skipped, never thrown. Node only (fs, zlib): the core stays free of I/O.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';

export type NdjsonItem = { line: number; record: Record<string, unknown> } | { line: number; error: string };

/** Lines longer than this are reported, not parsed (a runaway line must not take the memory). */
export const MAX_LINE = 1024 * 1024;

async function isGzip(file: string): Promise<boolean> {
  const h = await open(file, 'r');
  try {
    const { bytesRead, buffer } = await h.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await h.close();
  }
}

/** The records of an NDJSON file (gzip or not), each with its line number; bad lines as errors naming the line. */
export async function* readNdjson(file: string): AsyncGenerator<NdjsonItem> {
  let input: Readable = createReadStream(file);
  if (await isGzip(file)) input = input.pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const text of lines) {
      n++;
      if (text.trim() === '') continue;
      if (text.length > MAX_LINE) { yield { line: n, error: `line ${n} is ${text.length} characters long, over the ${MAX_LINE}-character limit` }; continue; }
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch (err) {
        yield { line: n, error: `line ${n} is not JSON (${(err as Error).message})` };
        continue;
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) { yield { line: n, error: `line ${n} is not a JSON object` }; continue; }
      yield { line: n, record: v as Record<string, unknown> };
    }
  } catch (err) {
    yield { line: n + 1, error: `reading ${file} failed after line ${n}: ${(err as Error).message}` };
  }
}
