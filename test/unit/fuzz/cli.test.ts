// The CLI on bad input: unreadable files, a directory of 3000 files, binary files. Clear messages that name the file, exit code 2
// only for usage and I/O problems, never an exception out of main().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../server/src/cli';

async function run(argv: string[]) {
  let stdout = '', stderr = '';
  const code = await main(argv, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
  return { code, stdout, stderr };
}

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-fuzz-cli-'));
}

const VALID_RPC = '{"jsonrpc":"2.0","method":"eth_blockNumber","params":[],"id":1}';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

test('an unreadable file: exit 2, the file named, the other files still checked', async () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'ok.rpc.json'), VALID_RPC);
  const bad = path.join(dir, 'locked.rpc.json');
  if (isRoot) {
    // chmod does not stop root from reading: a dangling symbolic link is a file name that cannot be read.
    fs.symlinkSync(path.join(dir, 'missing-target.json'), bad);
  } else {
    fs.writeFileSync(bad, VALID_RPC);
    fs.chmodSync(bad, 0o000);
  }
  const r = await run(['lint', '--format', 'json', path.join(dir, 'ok.rpc.json'), bad]);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(r.stderr.includes(bad), r.stderr);
  assert.match(r.stderr, isRoot ? /no such file or directory/ : /cannot read file \(EACCES\)/);
  assert.deepEqual(JSON.parse(r.stdout).map((f: { file: string }) => path.basename(f.file)), ['ok.rpc.json']);
});

test('a symbolic link loop and a path that does not exist: exit 2, each named', async () => {
  const dir = tmp();
  const loop = path.join(dir, 'loop.filter.json');
  fs.symlinkSync(loop, loop);
  const missing = path.join(dir, 'nope.filter.json');
  const r = await run(['lint', loop, missing]);
  assert.equal(r.code, 2);
  assert.ok(r.stderr.includes(loop) && r.stderr.includes(missing), r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 2, 'one line per path');
});

test('an unreadable directory inside a walked tree: exit 2 and the directory named (or, as root, a directory in place of a file)', async () => {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'a.rpc.json'), VALID_RPC);
  if (isRoot) {
    // A directory where a file is expected is walked, not read: no error, no crash, nothing checked in it.
    fs.mkdirSync(path.join(dir, 'b.rpc.json'));
    const r = await run(['lint', '--format', 'json', dir]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).map((f: { file: string }) => path.basename(f.file)), ['a.rpc.json']);
    return;
  }
  const locked = path.join(dir, 'locked');
  fs.mkdirSync(locked);
  fs.chmodSync(locked, 0o000);
  const r = await run(['lint', dir]);
  assert.equal(r.code, 2);
  assert.ok(r.stderr.includes(locked));
  fs.chmodSync(locked, 0o755);
});

test('a directory with 3000 generated files of the four kinds: every file checked once, exit 1, no I/O error', async () => {
  const dir = tmp();
  const kinds = [
    ['filter.json', '{"where":{"key":"ClientRequestHost","operator":"eq","value":"a"}}', '{"where":{"key":"Nope","operator":"eq","value":1}}'],
    ['logpush.json', '{"dataset":"http_requests","destination_conf":"s3://b/p?region=us-east-1"}', '{"dataset":"nope"}'],
    ['rpc.json', VALID_RPC, '{"jsonrpc":"1.0","method":"eth_nope","id":1}'],
    ['ruleset.json', '{"rules":[{"action":"execute","expression":"true","action_parameters":{"id":"efb7b8c949ac4650a09736fc376e9aee"}}]}', '{"rules":[{"action":"block","expression":"http.host eq"}]}'],
  ];
  for (let i = 0; i < 3000; i++) {
    const [ext, good, bad] = kinds[i % 4];
    const sub = path.join(dir, `d${i % 30}`);
    fs.mkdirSync(sub, { recursive: true });
    fs.writeFileSync(path.join(sub, `f${i}.${ext}`), i % 3 === 0 ? bad : good);
  }
  const r = await run(['lint', '--format', 'json', dir]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout) as { file: string; diagnostics: { severity: string }[] }[];
  assert.equal(out.length, 3000);
  assert.equal(new Set(out.map((f) => f.file)).size, 3000);
  const withErrors = out.filter((f) => f.diagnostics.some((d) => d.severity === 'error')).length;
  assert.equal(withErrors, 1000, 'exactly the bad third has errors');
});

test('binary files: a syntax error that names the file and prints no raw control byte; exit 1, not 2', async () => {
  const dir = tmp();
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
  const utf16 = Buffer.from('\ufeff{"where":{}}', 'utf16le');
  const files = { 'image.filter.json': png, 'noise.rpc.json': random, 'utf16.ruleset.json': utf16, 'nul.logpush.json': Buffer.from('{"a":"\u0000"}\u0000') };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  for (const format of ['stylish', 'line', 'json', 'sarif']) {
    const r = await run(['lint', '--format', format, dir]);
    assert.equal(r.code, 1, `${format}: ${r.stderr}`);
    assert.equal(r.stderr, '');
    for (const name of Object.keys(files)) assert.ok(r.stdout.includes(name), `${format} names ${name}`);
    assert.ok(!/[\u0000-\u0008\u000e-\u001f]/.test(r.stdout), `${format}: raw control character in the output`);
  }
});

test('usage problems exit 2 with the usage text; a bad file never does', async () => {
  for (const argv of [['lint'], ['lint', '--format'], ['lint', '--format', 'xml', '.'], ['lint', '--kind', 'nope', '.'], ['lint', '--max-problems', '-1', '.'], ['frobnicate'], []]) {
    const r = await run(argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.match(r.stderr + r.stdout, /Usage:/);
  }
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'x.filter.json'), '{'.repeat(100_000));
  const r = await run(['lint', dir]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /limits\/too-deep/);
});
