// The message reader and writer of `edgekit-language-server --stdio` (issue 18): the LSP base protocol (a `Content-Length` header,
// a blank line, a UTF-8 JSON body) on the process's stdin and stdout, through vscode-jsonrpc's own extension point
// (`createConnection(features, reader, writer)`); the connection, its queue and every handler are the library's as before.
//
// Why not the library's StreamMessageReader/Writer: on a small document's open → diagnostics they were most of what the server did.
// Per message the reader took a lock (a setImmediate), decoded through two promises, parsed the header a byte at a time into a Map
// and armed a timer; the writer took another lock (another setImmediate), encoded through a promise, and wrote the header and the
// body in two writes, so a client could wake for a header alone (the server patched process.stdout.write to join them before this).
// Here a message is parsed as soon as its last byte arrives and handed to the connection in the same turn, and a reply goes out in
// one write. Measured in docs/benchmarks.md ("The message layer").
//
// What the library's stdio start did besides, kept in `wireStdioProcess`: console output goes to the client's log, not into the
// protocol stream; the process ends when stdin does (code 0 after a shutdown request, 1 otherwise).
import { format, inspect, type InspectOptions } from 'node:util';
import { coreModule, type Connection } from './context';
import { AbstractMessageReader, AbstractMessageWriter, Disposable } from './library';
import type { DataCallback, Message } from 'vscode-languageserver';

const CRLFCRLF = Buffer.from('\r\n\r\n', 'latin1');
/** A header block longer than this without its blank line is not LSP: the reader says so instead of buffering forever. */
const MAX_HEADER = 8192;

/** The first 80 characters of a body, quoted for a message: cut with the core's headOf, as every message is, never inside an emoji
 * (a slice did: JSON.stringify wrote the half left as the text \ud83d). A body quoted before the core is loaded loads it (an error
 * path); a core that cannot load has said why in the log, and the start is not shown. Headers are read as Latin-1: no surrogates. */
function quotedStart(text: string): string {
  let head: string;
  try { head = coreModule().headOf(text, 80); } catch { return '(not shown: the checking core did not load)'; }
  return JSON.stringify(head);
}

/** A problem in the input, named with what was received (wireStdioProcess logs reader errors to the client). */
function inputError(what: string, header?: string): Error {
  return new Error(header === undefined ? what : `${what} (header: ${JSON.stringify(header.slice(0, 200))})`);
}

export class StdioMessageReader extends AbstractMessageReader {
  /** Received bytes not yet consumed; several chunks while a long body arrives (joined once, when it is complete). */
  private chunks: Buffer[] = [];
  private received = 0;
  /** The body's length and offset once its header has been read, else -1. */
  private bodyLength = -1;
  private bodyStart = 0;
  /** Bytes still to drop: the body of a message whose header was refused. */
  private skip = 0;
  /** After a header without a readable length: the input is dropped up to the next `Content-Length`. */
  private resync = false;
  /** Whether the client has sent `shutdown` (the exit code when stdin ends depends on it). */
  shutdownRequested = false;

  constructor(private readonly input: NodeJS.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer | string) => this.onData(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, callback);
    const onError = (err: Error) => this.fireError(err);
    const onClose = () => this.fireClose();
    this.input.on('data', onData);
    this.input.on('error', onError);
    this.input.on('close', onClose);
    return Disposable.create(() => {
      this.input.off('data', onData);
      this.input.off('error', onError);
      this.input.off('close', onClose);
    });
  }

  private onData(chunk: Buffer, callback: DataCallback): void {
    this.chunks.push(chunk);
    this.received += chunk.length;
    for (;;) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, this.received);
        this.skip -= n;
        this.drop(n);
        if (this.skip > 0) return;
      }
      if (this.bodyLength < 0 && !this.readHeader()) {
        if (this.skip > 0 && this.received > 0) continue;
        return;
      }
      const end = this.bodyStart + this.bodyLength;
      if (this.received < end) return;
      const buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.received);
      const start = this.bodyStart;
      this.bodyLength = -1;
      this.received -= end;
      this.chunks = this.received > 0 ? [buf.subarray(end)] : [];
      // Decoded once the message is consumed: a body longer than the longest string (512 MB) throws, and it must be skipped, not
      // decoded again with every chunk after it.
      let text: string;
      try {
        text = buf.toString('utf8', start, end);
      } catch (err) {
        this.fireError(inputError(`A message's body of ${end - start} bytes cannot be decoded: ${(err as Error).message}; the message is skipped`));
        continue;
      }
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch (err) {
        this.fireError(inputError(`A message's body is not JSON: ${(err as Error).message}; body starts ${quotedStart(text)}`));
        continue;
      }
      // Any JSON is handed on (null, a number or an array too: the connection names what it cannot use, as with the library's reader).
      const method = (message as { method?: unknown } | null)?.method;
      if (method === 'shutdown') this.shutdownRequested = true;
      // The connection's callback can throw (a $/cancelRequest without params); the library's reader caught that in its decode
      // promise. Uncaught here it would stop this loop, and the messages left in the chunk would wait for the client's next write.
      try {
        callback(message);
      } catch (err) {
        this.fireError(inputError(`The connection failed on a message (${typeof method === 'string' ? method : quotedStart(text)}): ${(err as Error)?.message ?? err}`));
      }
    }
  }

  /**
   * Reads the header block at the start of the received bytes; false while it is incomplete. A bad header is reported and skipped:
   * with its body when its Content-Length can be read, else up to the next `Content-Length` in the input.
   */
  private readHeader(): boolean {
    while (this.received > 0 && this.skip === 0) {
      const buf = this.joined();
      if (this.resync) {
        const next = buf.toString('latin1').search(/content-length\s*:/i);
        // Not there yet: keep what could be the start of one.
        if (next < 0) {
          this.drop(Math.max(0, buf.length - 20));
          return false;
        }
        this.drop(next);
        this.resync = false;
        continue;
      }
      const blank = buf.indexOf(CRLFCRLF);
      if (blank < 0) {
        if (buf.length <= MAX_HEADER) return false;
        this.fireError(inputError(`No blank line after ${MAX_HEADER} bytes of header; the input is dropped up to here`, buf.toString('latin1', 0, 200)));
        this.drop(buf.length);
        return false;
      }
      const header = buf.toString('latin1', 0, blank);
      const { problem, length } = parseHeader(header);
      if (problem === undefined) {
        this.bodyLength = length!;
        this.bodyStart = blank + 4;
        return true;
      }
      this.fireError(inputError(`${problem}; the message is skipped`, header));
      if (length !== undefined) {
        this.skip = blank + 4 + length;
      } else {
        this.drop(blank + 4);
        this.resync = true;
      }
    }
    return false;
  }

  /** The received bytes as one buffer (chunks[0]). */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.received)];
    return this.chunks[0];
  }

  /** Forgets the first n received bytes. */
  private drop(n: number): void {
    const buf = this.joined();
    this.received -= n;
    this.chunks = this.received > 0 ? [buf.subarray(n)] : [];
  }
}

/** A header block's Content-Length, or what is wrong with it (with the length when that much could be read). */
function parseHeader(header: string): { problem?: string; length?: number } {
  let length: number | undefined;
  let problem: string | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      problem ??= `A header line without a name: ${JSON.stringify(line.slice(0, 80))}`;
      continue;
    }
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      // Leading zeros are digits the protocol allows (HTTP's 1*DIGIT); only the significant ones are limited.
      if (/^0*\d{1,10}$/.test(value)) length = Number(value);
      else problem ??= `Content-Length is not a number: ${JSON.stringify(value.slice(0, 40))}`;
    } else if (name === 'content-type') {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(value)?.[1]?.toLowerCase();
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') problem ??= `Unsupported charset "${charset}" (the protocol's is utf-8)`;
    }
  }
  if (length === undefined) problem ??= 'A header without Content-Length';
  return { problem, length };
}

/** JSON.stringify's escape of a lone surrogate (`\ud83d`: lower-case, and the only \u escape it writes for one), not preceded by an
 * odd number of backslashes (then the backslash is escaped text: `\\ud83d` is a backslash and "ud83d"). */
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/**
 * A message as JSON that every client can decode: a lone surrogate (an outline name or a message cut inside an emoji, a document
 * holding one) becomes U+FFFD, as TextEncoder writes it. JSON.stringify writes it as an escape, which clients that decode into
 * UTF-8 strings refuse along with the whole message (serde_json, used by Helix and Zed: "lone leading surrogate in hex escape",
 * serde-rs/json#495, #827). Paired surrogates are written as characters, so any escape left is lone.
 */
export function wellFormed(json: string): string {
  return json.includes('\\ud') ? json.replace(LONE_SURROGATE, '$1\\ufffd') : json;
}

export class StdioMessageWriter extends AbstractMessageWriter {
  private errors = 0;

  constructor(private readonly output: NodeJS.WritableStream) {
    super();
    output.on('error', (err: Error) => this.fireError(err));
    output.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let body: string;
    try {
      body = wellFormed(JSON.stringify(msg));
    } catch (err) {
      this.fireError(err as Error, msg, ++this.errors);
      return Promise.reject(err);
    }
    // Header and body in one string, one write: node encodes it straight into the pipe's write request.
    return new Promise((resolve, reject) => {
      this.output.write(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`, 'utf8', (err?: Error | null) => {
        if (!err) return resolve();
        this.fireError(err, msg, ++this.errors);
        reject(err);
      });
    });
  }

  end(): void {
    this.output.end();
  }
}

/**
 * What vscode-languageserver's own `--stdio` start does besides reading and writing, for a connection made with the classes above:
 * console output goes to the client's log (window/logMessage) instead of stdout, where it would corrupt the protocol; the process ends
 * with stdin (or stdout), with code 0 after a shutdown request and 1 otherwise (as the library's watchdog does on `exit`). Besides, what the reader
 * reports goes to the client's log too.
 */
export function wireStdioProcess(connection: Connection, input: NodeJS.ReadableStream, reader: StdioMessageReader, output: NodeJS.WritableStream = process.stdout): void {
  const end = () => process.exit(reader.shutdownRequested ? 0 : 1);
  input.on('end', end);
  input.on('close', end);
  // A closed stdout (EPIPE: the client is gone) closes the connection, and the next send through it throws, from the server's own
  // error handlers too: the process died with code 7 and a stack before it saw stdin end (so did the library's own stdio start).
  output.on('close', end);
  // The connection only re-fires reader errors and nothing in vscode-languageserver listens: unlogged, a skipped message would be
  // lost without a word.
  reader.onError((err) => connection.console.error(`Reading the client's messages: ${err.message}`));
  const log = (send: (text: string) => void) => (...args: unknown[]) => send(format(...args));
  console.log = log((t) => connection.console.log(t));
  console.info = log((t) => connection.console.info(t));
  console.debug = log((t) => connection.console.log(t));
  console.warn = log((t) => connection.console.warn(t));
  console.error = log((t) => connection.console.error(t));
  // Node writes these two to stdout itself, not through console.log (the library's start replaced dir as well).
  console.dir = (item: unknown, options?: InspectOptions) => connection.console.log(inspect(item, options));
  console.dirxml = log((t) => connection.console.log(t));
  // With its stack, as Node's and the library's trace: without it the line says nothing of where it came from.
  console.trace = (...args: unknown[]) => connection.console.log(`Trace${args.length ? `: ${format(...args)}` : ''}\n${new Error().stack!.split('\n').slice(2).join('\n')}`);
}
