// test/support/tmpRoot.mjs: a test process's temporary files are under a folder of its own, gone when the process exits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT_MODULE = path.resolve(__dirname, '../support/tmpRoot.mjs');

test('the unit, system and stress suites, and a run of chosen test files, load it (package.json)', async () => {
  const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
  for (const name of ['test:unit', 'test:system', 'stress', 'test:file']) {
    assert.match(pkg.scripts[name], /node --import tsx --import \.\/test\/support\/tmpRoot\.mjs --test /, name);
  }
});

test('a run of chosen test files builds dist/ first, as the unit and system suites do (package.json)', () => {
  // rv28: npm run test:file ran the tests that start dist/cli.js, dist/server.js or read the bundles against the last build, so a
  // change to the source was tested on the code before it
  const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
  for (const name of ['test:unit', 'test:system', 'test:file']) assert.match(pkg.scripts[name], /^node esbuild\.mjs && node --import tsx /, name);
});

test('a process loaded with tmpRoot.mjs writes its temporary files in its own folder, removed when it exits', async () => {
  const child = spawn(process.execPath, ['--import', ROOT_MODULE, '-e', `
    const fs = require('node:fs'), os = require('node:os'), path = require('node:path');
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-cli-'));
    fs.writeFileSync(path.join(d, 'a.json'), '{}');
    console.log(JSON.stringify({ root: os.tmpdir(), dir: d }));
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => { out += c; });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0);
  const { root, dir } = JSON.parse(out) as { root: string; dir: string };
  assert.match(path.basename(root), /^edgekit-test-/);
  assert.ok(dir.startsWith(root + path.sep), `${dir} under ${root}`);
  assert.equal(existsSync(dir), false, 'the folder it made is gone');
  assert.equal(existsSync(root), false, 'its root is gone');
});
