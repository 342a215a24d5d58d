// Edges of --fix's writes (server/src/cli.ts writeFixes, writeBeside) that the mutation sample mt6 found unpinned: a file saved
// meanwhile (an editor) is not written over when it is written in place, as it is not when a temp file replaces it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../server/src/cli';
import { editedOnFirstRead } from './changedOnRead';

delete process.env.GITHUB_WORKSPACE;
delete process.env.CI_PROJECT_DIR;

const original = '{"where": {"key": "EdgeResponseStatus", "operator": "In", "value": [403]}}\n';
const edited = '{"where": {"key": "EdgeResponseStatus", "operator": "In", "value": [404]}}\n';

async function run(argv: string[]) {
  let stdout = '', stderr = '';
  const code = await main(argv, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
  return { code, stdout, stderr };
}

function fixable(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-cli-'));
  const file = path.join(dir, 'a.filter.json');
  fs.writeFileSync(file, original);
  return { dir, file };
}

test('--fix does not write in place over a hard-linked file changed since it was read', { skip: process.platform === 'win32' }, async (t) => {
  const { dir, file } = fixable();
  const other = path.join(dir, 'a-link.json');
  fs.linkSync(file, other);
  const realRead = editedOnFirstRead(t, file, edited);
  const r = await run(['lint', '--fix', file]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /a\.filter\.json: changed while it was being fixed; the fixes were not written\./);
  assert.equal(realRead(other, 'utf8'), edited, 'the newer content is kept, under both names');
});

test('--fix does not write in place over a file changed after its temp file could not be renamed over it', async (t) => {
  const { file } = fixable();
  const nodeFs = require('node:fs') as typeof fs;
  // The rename refused (Windows: the file open in another program), the file saved by that program meanwhile.
  t.mock.method(nodeFs, 'renameSync', () => {
    fs.writeFileSync(file, edited);
    throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
  });
  const r = await run(['lint', '--fix', file]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /a\.filter\.json: changed while it was being fixed; the fixes were not written\./);
  assert.equal(fs.readFileSync(file, 'utf8'), edited);
});
