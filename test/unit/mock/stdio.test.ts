// mock/src/stdio.ts, the standard output and error of `edgekit` (server/src/cli.ts) and of the mock's bin.ts: a reader that left
// early (EPIPE) ends the writing quietly with the checks' own exit code, and any other failed write is exit 2 with a message
// (rv32). Before lf20 only a system test (a real pipe closed by its reader) covered it; fake streams here show both cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { Writable } from 'node:stream';
import { pipeWriter, processIo } from '../../../mock/src/stdio';

/** A stream whose writes fail with `code` from the `failAt`th on (1-based; the writes before are kept in `written`). */
function failingStream(code: string, failAt = 1): Writable & { written: string[] } {
  const written: string[] = [];
  let n = 0;
  const stream = new Writable({
    write(chunk, _enc, cb) {
      if (++n >= failAt) cb(Object.assign(new Error(`write ${code}`), { code }));
      else { written.push(String(chunk)); cb(); }
    },
  });
  return Object.assign(stream, { written });
}

/** processIo('edgekit') over `stdout` and `stderr` in place of the process's (put back at once: processIo keeps the streams it
 * was given), with process.exitCode put back after `use`. */
async function withProcessIo(stdout: Writable, stderr: Writable, use: (io: ReturnType<typeof processIo>) => Promise<void>): Promise<void> {
  const saved = { stdout: Object.getOwnPropertyDescriptor(process, 'stdout')!, stderr: Object.getOwnPropertyDescriptor(process, 'stderr')! };
  const exitCode = process.exitCode;
  let io: ReturnType<typeof processIo>;
  try {
    Object.defineProperty(process, 'stdout', { get: () => stdout, configurable: true, enumerable: true });
    Object.defineProperty(process, 'stderr', { get: () => stderr, configurable: true, enumerable: true });
    io = processIo('edgekit');
  } finally {
    Object.defineProperty(process, 'stdout', saved.stdout);
    Object.defineProperty(process, 'stderr', saved.stderr);
  }
  try {
    await use(io);
  } finally {
    process.exitCode = exitCode;
  }
}

/** A stream that keeps what is written, and whose errors the test emits itself. */
function fakeStream(): EventEmitter & { written: string[]; write(s: string): boolean } {
  const written: string[] = [];
  return Object.assign(new EventEmitter(), { written, write: (s: string) => { written.push(s); return true; } });
}
const errno = (code: string) => Object.assign(new Error(`write ${code}`), { code });

test('pipeWriter: a closed pipe (EPIPE) stops the writing without a word to `failed`, and what comes after it too', () => {
  const pipe = fakeStream();
  const heard: string[] = [];
  const write = pipeWriter(pipe as unknown as NodeJS.WriteStream, (err) => heard.push(err.code!));
  write('first\n');
  pipe.emit('error', errno('EPIPE'));
  write('second\n');
  pipe.emit('error', errno('ENOSPC'));
  assert.deepEqual(pipe.written, ['first\n']);
  assert.deepEqual(heard, []);
});

test('pipeWriter: another write error is told once, and the writing stops', () => {
  const disk = fakeStream();
  const heard: string[] = [];
  const write = pipeWriter(disk as unknown as NodeJS.WriteStream, (err) => heard.push(err.code!));
  write('a\n');
  disk.emit('error', errno('ENOSPC'));
  disk.emit('error', errno('EIO'));
  write('b\n');
  assert.deepEqual(heard, ['ENOSPC']);
  assert.deepEqual(disk.written, ['a\n']);
});

test('processIo: a reader that left early (EPIPE) keeps the checks\' exit code and says nothing', async () => {
  const stdout = failingStream('EPIPE');
  const stderr = failingStream('never', Infinity);
  await withProcessIo(stdout, stderr, async (io) => {
    const before = process.exitCode;
    io.stdout('a.filter.json\n');
    await once(stdout, 'error');
    io.stdout('more\n');
    assert.equal(io.exitCode(1), 1, 'errors found: 1, as if the reader had read it all');
    assert.equal(io.exitCode(0), 0);
    assert.equal(process.exitCode, before);
    assert.deepEqual(stderr.written, []);
  });
});

test('processIo: another failed write to stdout (a full disk) is exit 2 whatever the checks found, and is said on stderr', async () => {
  const stdout = failingStream('ENOSPC');
  const stderr = failingStream('never', Infinity);
  await withProcessIo(stdout, stderr, async (io) => {
    io.stdout('a.filter.json\n');
    await once(stdout, 'error');
    // Set on the error itself: the error may come after the command has settled and its exit code was taken.
    assert.equal(process.exitCode, 2);
    assert.equal(io.exitCode(0), 2);
    assert.equal(io.exitCode(1), 2);
    assert.deepEqual(stderr.written, ['edgekit: cannot write to standard output (ENOSPC); what it shows is incomplete.\n']);
  });
});

test('processIo: a failed write to stderr is exit 2 too', async () => {
  const stdout = failingStream('never', Infinity);
  const stderr = failingStream('EIO');
  await withProcessIo(stdout, stderr, async (io) => {
    io.stderr('edgekit: something\n');
    await once(stderr, 'error');
    assert.equal(io.exitCode(0), 2);
    assert.equal(process.exitCode, 2);
  });
});
