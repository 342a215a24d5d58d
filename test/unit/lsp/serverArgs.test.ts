// `edgekit-language-server` (dist/server.js) run by hand: with no transport it says how to run it instead of a stack trace from
// inside vscode-languageserver; --help and --version answer as the CLI's do. A transport the library takes runs the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { version } from '../../../package.json';
import { serverCommandLine } from '../../../server/src/serverArgs';
import { serverJs } from '../reliability/soak';

test('a transport the library takes (VS Code\'s --node-ipc, --stdio, --socket, --pipe) runs the server', () => {
  for (const argv of [['--stdio'], ['--node-ipc', '--clientProcessId=12'], ['--socket=5000'], ['--socket', '5000'], ['--pipe=/tmp/p'], ['--pipe', '/tmp/p']]) {
    assert.equal(serverCommandLine(argv), undefined, argv.join(' '));
  }
});

test('no transport is a usage error naming --stdio; --help and --version answer and exit 0', () => {
  for (const argv of [[], ['--stdi'], ['stdio']]) {
    const r = serverCommandLine(argv);
    assert.equal(r?.exit, 2, argv.join(' '));
    assert.equal(r.stdout, undefined);
    assert.match(r.stderr ?? '', /--stdio/);
  }
  const help = serverCommandLine(['--help']);
  assert.equal(help?.exit, 0);
  assert.match(help.stdout ?? '', /edgekit-language-server --stdio/);
  assert.deepEqual(serverCommandLine(['--version']), { exit: 0, stdout: `${version}\n` });
});

test('--socket without a port and --pipe without a name are usage errors naming the argument (the library took them and threw "Connection input stream is not set")', () => {
  for (const [argv, named] of [[['--socket'], /--socket/], [['--socket=abc'], /"abc"/], [['--socket', 'x'], /"x"/], [['--socket=0'], /"0"/], [['--pipe'], /--pipe/], [['--pipe='], /--pipe/]] as const) {
    const r = serverCommandLine(argv);
    assert.equal(r?.exit, 2, argv.join(' '));
    assert.match(r.stderr ?? '', named, argv.join(' '));
    assert.match(r.stderr ?? '', /--stdio/, argv.join(' '));
  }
  // The library reads the first transport argument only, as the server does
  assert.equal(serverCommandLine(['--stdio', '--socket']), undefined);
  assert.equal(serverCommandLine(['--socket=5000x']), undefined, 'parseInt reads 5000');
});

test('dist/server.js with no argument prints the usage and exits 2, without a stack trace', () => {
  const r = spawnSync(process.execPath, [serverJs()], { input: '', encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--stdio/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const v = spawnSync(process.execPath, [serverJs(), '--version'], { input: '', encoding: 'utf8', timeout: 30_000 });
  assert.equal(v.status, 0, v.stderr);
  assert.equal(v.stdout, `${version}\n`);
});
