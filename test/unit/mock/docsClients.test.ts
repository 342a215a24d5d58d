// docs/mock-backend.md's "From the SDK, ethers and viem" block, run as a reader runs it (`node client.mjs`, ES module, the packages
// resolved from this repository's node_modules) against a mock on a free port: the printed token and URLs put in for its own, and
// what it prints held to its `// →` comments, line for line.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MockBackend } from '../../../mock/src/backend';
import { CREDS, start } from './helpers';

const ROOT = path.resolve(__dirname, '../../..');
let m: MockBackend;
before(async () => { m = await start(); });
after(() => m.close());

function docBlock(): string {
  const md = fs.readFileSync(path.join(ROOT, 'docs/mock-backend.md'), 'utf8');
  const block = /^## From the SDK, ethers and viem\n[\s\S]*?^```js\n([\s\S]*?)^```$/m.exec(md);
  assert.ok(block, 'docs/mock-backend.md: a ```js block under "## From the SDK, ethers and viem"');
  return block[1];
}

/** Runs an ES module's text with node in the repository's folder (bare imports resolve from its node_modules). */
function runModule(code: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['--input-type=module'], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
    child.stdin!.end(code);
  });
}

test('the SDK, ethers and viem block of docs/mock-backend.md runs against the mock and prints what its comments say', async () => {
  const text = docBlock();
  assert.ok(text.includes("'API_TOKEN'") && text.includes('http://127.0.0.1:8787/'), 'the block uses the printed token and the default port');
  const code = text.replaceAll("'API_TOKEN'", JSON.stringify(CREDS.apiToken)).replaceAll('http://127.0.0.1:8787', m.url);
  const expected = [...text.matchAll(/\/\/ → (.*)$/gm)].map((x) => x[1].trim());
  assert.ok(expected.length >= 4, `${expected.length} printed lines documented`);
  const run = await runModule(code);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(run.stdout.trimEnd().split('\n'), expected);
});
