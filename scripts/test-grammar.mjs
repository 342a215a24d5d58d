// Runs the TextMate grammar tests (test/grammar/*.test.txt) with vscode-tmgrammar-test.
//
// Grammars: every syntaxes/*.tmLanguage.json, plus test/grammar/json.tmLanguage.json, a test-only stand-in for
// VS Code's built-in source.json (which our grammars include but the test tool does not ship). package.json's
// contributes.grammars is read by the tool as well, so a wrong path there fails the run.
//
// Prints one closing line, "grammar: N passed, N failed", and exits non-zero when a test file fails.
// Usage: node scripts/test-grammar.mjs [test files...]   (default: test/grammar/*.test.txt)
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve('vscode-tmgrammar-test/package.json')), 'dist', 'unit.js');

const grammars = [
  'test/grammar/json.tmLanguage.json',
  ...readdirSync(join(root, 'syntaxes'))
    .filter((f) => f.endsWith('.tmLanguage.json'))
    .sort()
    .map((f) => `syntaxes/${f}`),
];
const tests =
  process.argv.length > 2
    ? process.argv.slice(2)
    : readdirSync(join(root, 'test/grammar'))
        .filter((f) => f.endsWith('.test.txt'))
        .sort()
        .map((f) => `test/grammar/${f}`);

// The tool's assertion parser can backtrack for a very long time on a malformed assertion line, hence the timeout.
const run = spawnSync(process.execPath, [cli, ...grammars.flatMap((g) => ['-g', g]), ...tests], {
  cwd: root,
  encoding: 'utf8',
  timeout: 120_000,
});
process.stdout.write(run.stdout ?? '');
process.stderr.write(run.stderr ?? '');

const passed = tests.filter((t) => (run.stdout ?? '').includes(`✓ ${t} run successfuly`)).length;
const failed = tests.length - passed;
if (run.error) console.error(`grammar tests did not finish: ${run.error.message}`);
console.log(`grammar: ${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 && tests.length > 0 ? 0 : 1);
