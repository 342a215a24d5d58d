// A command-line entry's standard output and error: `edgekit` (server/src/cli.ts, which may import the mock) and the mock's own
// entry (bin.ts). Here, not in the CLI, because the mock imports only itself and the core (test/unit/imports.test.ts).

/** A stream's writer that stops writing once its reader has closed the pipe (`edgekit lint … | head`: the reader has seen what it
 * wanted; before, Node's "Unhandled 'error' event ... write EPIPE" and its stack ended the run), or once a write has failed
 * otherwise (a full disk): `failed` hears of that one, an I/O problem (rv32: it was thrown, Node's stack and exit code 1, which
 * reads as "errors found"). */
export function pipeWriter(stream: NodeJS.WriteStream, failed: (err: NodeJS.ErrnoException) => void): (s: string) => void {
  let closed = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    if (err.code !== 'EPIPE') failed(err);
  });
  return (s) => { if (!closed) stream.write(s); };
}

/** The process's stdout and stderr through pipeWriter, for `program` ("edgekit", "edgekit mock"). A reader that left early
 * changes nothing; a write that failed otherwise makes the exit code 2, as any I/O problem, and stdout's is said on stderr.
 * `exitCode` gives the command's code, or 2 after such a failure (whose error may come after the command has settled: a write's
 * error is emitted on a later tick, hence process.exitCode set here too). */
export function processIo(program: string): { stdout(s: string): void; stderr(s: string): void; exitCode(code: number): number } {
  let writeFailed = false;
  const failed = () => { writeFailed = true; process.exitCode = 2; };
  const stderr = pipeWriter(process.stderr, failed);
  const stdout = pipeWriter(process.stdout, (err) => {
    failed();
    stderr(`${program}: cannot write to standard output (${err.code ?? err.message}); what it shows is incomplete.\n`);
  });
  return { stdout, stderr, exitCode: (code) => (writeFailed ? 2 : code) };
}
