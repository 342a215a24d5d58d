// `edgekit lint … | head`: the reader closes the pipe before the report is written whole. The CLI stopped with Node's "Unhandled
// 'error' event ... write EPIPE" and its stack on stderr (rv31's note); a reader that has seen enough is no error of the user's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

test('lint whose reader closes the pipe after the first chunk: no EPIPE stack, the exit code the checks give', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-pipe-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // About 400 KB of report, well past a pipe's buffer, so the writes go on after the reader is gone
  for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(dir, `a${i}.rpc.json`), '{"jsonrpc": "2.0", "method": "eth_getBalanse", "params": [], "id": 1}\n');
  const child = spawn(process.execPath, [CLI, 'lint', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  // The reader takes the first chunk and closes its end, as `head -1` does
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|at /, stderr.slice(0, 500));
  assert.equal(code, 1, 'exit 1: errors found, as with the whole report read');
});

test('lint whose report cannot be written (a full disk: /dev/full) says so on stderr and exits 2, an I/O problem', { skip: !fs.existsSync('/dev/full') && 'no /dev/full here' }, async (t) => {
  // pipeWriter threw any error but EPIPE from the stream's 'error' event: Node's stack, and exit code 1, which reads as "errors
  // found" (the action's github step takes 1 as a pass) for a run whose report went nowhere.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-full-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'a.rpc.json'), '{"jsonrpc": "2.0", "method": "eth_getBalanse", "params": [], "id": 1}\n');
  const full = fs.openSync('/dev/full', 'w');
  t.after(() => fs.closeSync(full));
  const child = spawn(process.execPath, [CLI, 'lint', dir], { stdio: ['ignore', full, 'pipe'] });
  assert.ok(child.stderr, 'stderr is a pipe');
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.match(stderr, /^edgekit: cannot write to standard output \(ENOSPC\)/m, stderr.slice(0, 500));
  assert.doesNotMatch(stderr, /Unhandled|\n\s+at /, stderr.slice(0, 500));
  assert.equal(code, 2, 'exit 2: an I/O problem, not "errors found"');
});

test('the mock\'s own entry (mock/src/bin.ts) whose reader has closed the pipe stops quietly: no EPIPE stack, exit 0 (lf18)', async () => {
  // `node --import tsx mock/src/bin.ts | head -1`, then Ctrl+C: "Mock backend stopped." went to the closed pipe and Node printed
  // "Unhandled 'error' event ... write EPIPE" with its stack, exit code 1. bin.ts now writes through the CLI's pipeWriter.
  const root = path.resolve(__dirname, '../../..');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'mock/src/bin.ts'), '--host', '127.0.0.1', '--port', '0'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
  const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  // The reader takes what the mock prints on start and closes its end, as `head` does; then the user stops the mock
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    if (stdout.includes('Press Ctrl+C to stop.\n')) child.stdout.destroy();
  });
  child.stdout.once('close', () => child.kill('SIGTERM'));
  const code = await closed;
  assert.match(stdout, /^Gateway URL: /, 'the mock started');
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|\n\s+at /, stderr.slice(0, 500));
  assert.equal(code, 0, 'exit 0: stopped as asked');
});
