// The README's first five minutes outside the editor, taken as a newcomer takes them: `edgekit lint` on the example files (only
// the file named for its mistakes has errors), and `edgekit mock` as a process, sent the example request and the first migration
// step with the credentials it prints. (npm start, the Zones view and the squiggles: scripts/smoke-start.mjs in CI; the editor's
// commands on the examples: test/integration/newcomer.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../../server/src/cli';

const ROOT = path.resolve(__dirname, '../../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test('the README names the commands this test takes', () => {
  assert.match(README, /^npm start$/m);
  assert.match(README, /^npm test$/m);
  assert.match(README, /node dist\/cli\.js lint /);
  assert.match(README, /node dist\/cli\.js mock /);
});

test('edgekit lint examples/: the mistakes file has errors, every other example is clean', async () => {
  let stdout = '';
  const code = await main(['lint', '--format', 'json', path.join(ROOT, 'examples')], { stdout: (s) => { stdout += s; }, stderr: () => undefined });
  assert.equal(code, 1, 'exit 1: errors found');
  const files = JSON.parse(stdout) as { file: string; diagnostics: { severity: string; code: string }[] }[];
  const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));
  assert.equal(files.length, examples.length, 'every example is checked');
  for (const f of files) {
    const errors = f.diagnostics.filter((d) => d.severity === 'error');
    if (path.basename(f.file) === 'mistakes.filter.json') assert.ok(errors.length >= 3, `mistakes.filter.json shows its mistakes: ${JSON.stringify(errors)}`);
    else assert.deepEqual(errors, [], `${path.basename(f.file)} is clean`);
  }
});

test('edgekit mock as a process: the example request and the first migration step with the printed credentials', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/src/cli.ts'), 'mock', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let out = '';
  // The printed lines are the event: the mock is up once it says "Press Ctrl+C to stop."
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => { out += d; if (out.includes('Press Ctrl+C to stop.')) resolve(); });
    child.on('exit', (c) => reject(new Error(`edgekit mock exited (${c}) before it was up: ${out}`)));
  });
  const line = (label: string) => new RegExp(`^${label}: (\\S+)$`, 'm').exec(out)?.[1] ?? assert.fail(`no "${label}" line in ${out}`);
  const gateway = line('Gateway URL');
  const apiBase = line('API base');
  const token = line('API token \\(generated\\)');

  const request = fs.readFileSync(path.join(ROOT, 'examples', 'balance.rpc.json'), 'utf8');
  const sent = await fetch(gateway, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request });
  const reply = await sent.json() as { result?: string; error?: unknown };
  assert.equal(sent.status, 200);
  assert.match(String(reply.result), /^0x[0-9a-f]+$/, `eth_getBalance answered: ${JSON.stringify(reply)}`);

  const auth = { authorization: `Bearer ${token}` };
  const zones = await (await fetch(`${apiBase}/zones`, { headers: auth })).json() as { result: { id: string; name: string }[] };
  const zone = zones.result.find((z) => z.name === 'pro.example') ?? assert.fail('the mock lists pro.example');
  const check = await (await fetch(`${apiBase}/zones/${zone.id}/waf_migration/check?phase_two=1`, { headers: auth })).json() as { success: boolean; result: { compatible: boolean; migration_state: string } };
  assert.deepEqual(check.result, { compatible: true, migration_state: 'start' });

  // 'close', not 'exit': at 'exit' the pipe may still hold the last line the test reads below.
  const stopped = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.kill('SIGTERM');
  assert.equal(await stopped, 0);
  assert.match(out, /Mock backend stopped\./);
});
