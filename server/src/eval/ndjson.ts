// Log files as Logpush delivers them: NDJSON, one JSON object per line, optionally gzip (recognized by its magic bytes, not its
// name). Streamed line by line in constant memory (a 1 GB file never sits in memory); a line that is not a JSON object is reported
// with its number and skipped, never thrown. Node only (fs, zlib): the core stays free of I/O.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { StringDecoder } from 'node:string_decoder';
import { pipeline, Readable } from 'node:stream';
import type * as Core from '../core';

/** The core, required rather than imported: in the server's bundles it is a file of its own that coreModule() (lsp/context.ts) loads,
 * and an import would put a second copy of it in the server (scripts/serverBuilds.mjs); this require is that file. */
let core: typeof Core | undefined;
const parseExact = (text: string): unknown => (core ??= require('../core') as typeof Core).parseExact(text);

/** A record, a bad line (skipped; reading goes on), or, last of all, `fatal`: the file cannot be read (missing, a directory, no
 * permission) or stops before its end (gzip cut short or corrupt); `line` is then the line after the last one read (1: none). */
/** A record, with the length of its line in characters (`chars`; an item of a JSON array file has none), or a line's error. A
 * record's integer past 2^53 is a bigint of the digits the line writes (core/json.ts parseExact); JSON.stringify throws on one, so
 * a record is written with stringifyExact. */
export type NdjsonItem = { line: number; record: Record<string, unknown>; chars?: number } | { line: number; error: string; fatal?: true; item?: true };

/** Why reading `file` stopped after `lines` lines (undefined: a JSON array, read whole before its items) and `bytes` bytes of the
 * file (compressed, for gzip), as a sentence naming the file and where. */
function readFailure(file: string, lines: number | undefined, bytes: number, err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const why = e.code === 'ENOENT' ? 'no such file'
    : e.code === 'EISDIR' ? 'it is a directory'
      : e.code === 'Z_BUF_ERROR' ? `the gzip data is cut short (${e.message})`
        : e.code === 'Z_DATA_ERROR' ? `the gzip data is corrupt (${e.message})`
          : e.message;
  if (bytes === 0) return `cannot read ${file}: ${why}`;
  const at = `at byte ${bytes} of the file`;
  if (lines === undefined) return `reading ${file} stopped ${at}: ${why}`;
  return lines === 0 ? `reading ${file} stopped ${at}, before the end of line 1: ${why}` : `reading ${file} stopped after line ${lines}, ${at}: ${why}`;
}

/** Lines longer than this (in characters) are reported, not parsed: a runaway line must not take the memory, so its text past the
 * limit is not kept while it is read (readline kept the whole line: 700 MB of memory for a 300 MB line, and it failed past V8's
 * string size). */
export const MAX_LINE = 1024 * 1024;

/**
 * The lines of a byte stream (UTF-8), split on "\n" (a "\r" before it dropped), each as its text, or as its length in characters when
 * it is longer than `max`: the text of such a line is counted, not kept. A last line without "\n" counts too.
 */
async function* splitLines(input: AsyncIterable<Buffer>, max: number, stop?: () => boolean): AsyncGenerator<string | number> {
  const decoder = new StringDecoder('utf8'); // a character split between two chunks is decoded whole
  let pending = '';
  let size = 0;
  let over = false;
  const line = (): string => (pending.endsWith('\r') ? pending.slice(0, -1) : pending);
  const take = function* (text: string): Generator<string | number> {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const end = nl < 0 ? text.length : nl;
      size += end - start;
      if (!over) {
        if (size > max) { over = true; pending = ''; } else if (end > start) pending = pending ? pending + text.slice(start, end) : text.slice(start, end);
      }
      if (nl < 0) return;
      yield over ? size : line();
      pending = ''; size = 0; over = false;
      start = nl + 1;
    }
  };
  for await (const chunk of input) {
    // Asked between chunks, not only between lines: a line that does not end (/dev/zero, a pipe) gives no line to stop after.
    if (stop?.()) return;
    yield* take(decoder.write(chunk));
  }
  yield* take(decoder.end());
  if (size > 0) yield over ? size : line();
}

/**
 * The stream's first chunks, read until `enough` says their bytes tell what is needed, and the whole stream again (those chunks,
 * then the rest): the file is opened and read once, so a named pipe (`<(zcat logs.gz)`, /dev/stdin) reads as a file does.
 */
async function peek(input: AsyncIterable<Buffer>, enough: (head: Buffer) => boolean): Promise<{ head: Buffer; whole: Readable }> {
  const it = input[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let head: Buffer = Buffer.alloc(0);
  while (!enough(head)) {
    const r = await it.next();
    if (r.done) break;
    chunks.push(r.value);
    head = chunks.length === 1 ? r.value : Buffer.concat(chunks);
  }
  async function* again(): AsyncGenerator<Buffer> {
    try {
      yield* chunks;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    } finally {
      // Stopped early (a reader's stop, a JSON array over its limit): the file is closed.
      await it.return?.();
    }
  }
  return { head, whole: Readable.from(again(), { objectMode: false }) };
}

/** A file's byte stream as fs.createReadStream gives it: chunks, and the number of bytes read from the file so far. */
export type FileStream = AsyncIterable<Buffer> & { readonly bytesRead: number };

/** A JSON array file (request records written as one JSON document) is read whole, up to this size; NDJSON streams. */
export const MAX_ARRAY_FILE = 256 * 1024 * 1024;

/** How much of the (decompressed) start is looked at for "[": a JSON array of records rather than NDJSON. */
const ARRAY_HEAD = 4096;
const startsWithBracket = (head: Buffer) => String(head.subarray(0, ARRAY_HEAD)).trimStart().startsWith('[');

/** The records of an NDJSON file (gzip or not), each with its line number; bad lines as errors naming the line. A file holding one
 * JSON array of objects (request records are often kept so) gives its items, numbered from 1. When `stop` says so (asked at every
 * chunk read), the items end where they are, inside a line too; the caller knows why. The file is read once, from its start (a
 * named pipe too), through `open` (tests give a stream that fails on purpose). A read error, wherever it comes, ends the items with
 * one naming the file, the last line read and the byte of the file reached. */
export async function* readNdjson(file: string, stop?: () => boolean, open: (file: string) => FileStream = createReadStream): AsyncGenerator<NdjsonItem> {
  const source = open(file);
  // The bytes read from the file when an error came: fs.ReadStream's own count, which includes what it read ahead of the reader.
  const bytes = () => source.bytesRead;
  let input: Readable, array: boolean;
  try {
    const raw = await peek(source, (h) => h.length >= 2);
    const gzip = raw.head.length >= 2 && raw.head[0] === 0x1f && raw.head[1] === 0x8b;
    // pipeline, not pipe: an error of the file's stream (EIO mid-file) must reach gunzip, or gunzip waits for its bytes forever
    const text = await peek(gzip ? pipeline(raw.whole, createGunzip(), () => undefined) : raw.whole, (h) => h.length >= ARRAY_HEAD || String(h).trimStart() !== '');
    input = text.whole;
    array = startsWithBracket(text.head);
  } catch (err) {
    // Opening, or the first bytes (of gzip: cut inside its header): no line was read
    yield { line: 1, error: readFailure(file, 0, bytes(), err), fatal: true };
    return;
  }
  if (array) {
    yield* readArray(file, input, bytes);
    return;
  }
  let n = 0;
  try {
    for await (const line of splitLines(input, MAX_LINE, stop)) {
      n++;
      if (typeof line === 'number') { yield { line: n, error: `line ${n} is ${line} characters long, over the ${MAX_LINE}-character limit` }; continue; }
      // A UTF-8 byte order mark is not part of the first record (lint ignores it too)
      const text = n === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
      if (text.trim() === '') continue;
      let v: unknown;
      try {
        // An integer past 2^53 (a unixnano timestamp) as a bigint of its digits: the evaluators compare those, not a rounded double
        v = parseExact(text);
      } catch (err) {
        yield { line: n, error: `line ${n} is not JSON (${(err as Error).message})` };
        continue;
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) { yield { line: n, error: `line ${n} is not a JSON object` }; continue; }
      yield { line: n, record: v as Record<string, unknown>, chars: text.length };
    }
  } catch (err) {
    yield { line: n + 1, error: readFailure(file, n, bytes(), err), fatal: true };
  } finally {
    input.destroy();
  }
}

async function* readArray(file: string, input: Readable, bytes: () => number): AsyncGenerator<NdjsonItem> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of input) {
      size += (chunk as Buffer).length;
      if (size > MAX_ARRAY_FILE) { input.destroy(); yield { line: 1, error: `${file} is a JSON array over ${MAX_ARRAY_FILE >> 20} MB; write it as NDJSON (one record per line) to stream it`, fatal: true }; return; }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    yield { line: 1, error: readFailure(file, undefined, bytes(), err), fatal: true };
    return;
  }
  let items: unknown;
  try { items = parseExact(Buffer.concat(chunks).toString('utf8')); } catch (err) { yield { line: 1, error: `${file} starts with "[" but is not a JSON array (${(err as Error).message})`, fatal: true }; return; }
  if (!Array.isArray(items)) return;
  for (const [i, v] of items.entries()) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) yield { line: i + 1, error: `item ${i + 1} is not a JSON object`, item: true };
    else yield { line: i + 1, record: v as Record<string, unknown> };
  }
}
