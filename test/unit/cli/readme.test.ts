import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { withTable } from '../../../scripts/gen-readme-codes';
import { CODES } from '../../../server/src/core/codes';

test('the README lists every diagnostic code (run `npm run docs:codes` to update)', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  for (const code of Object.keys(CODES)) assert.ok(readme.includes(`\`${code}\``), `README.md is missing ${code}`);
  assert.equal(readme, withTable(readme), 'README.md code table is out of date; run npm run docs:codes');
});

test('every code is area/kebab-name', () => {
  for (const code of Object.keys(CODES)) assert.match(code, /^[a-z]+\/[a-z0-9]+(-[a-z0-9]+)*$/, code);
});

test('the README\'s settings table has every setting of package.json, with its default, and no other', () => {
  const root = path.resolve(__dirname, '../../..');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const props = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).contributes.configuration.properties as Record<string, { default?: unknown }>;
  const section = readme.slice(readme.indexOf('## Settings'), readme.indexOf('\n## ', readme.indexOf('## Settings') + 1));
  const rows = [...section.matchAll(/^\| `(edgekit\.[\w.]+)` \|([^|]*)\|/gm)].map((m) => [m[1], m[2].trim()] as const);
  assert.deepEqual(rows.map(([k]) => k).sort(), Object.keys(props).sort());
  for (const [key, shown] of rows) {
    const d = props[key].default;
    assert.equal(shown, d === '' || d === undefined ? '' : typeof d === 'string' ? `\`${d}\`` : String(d), key);
  }
});

const root = path.resolve(__dirname, '../../..');
const read = (f: string) => fs.readFileSync(path.join(root, f), 'utf8');
/** A synopsis as one line per command: continuation lines joined, spacing collapsed. */
const commands = (lines: string[]) => lines.join('\n').replace(/\n\s+(?=\[)/g, ' ').split('\n').map((l) => l.replace(/\s+/g, ' ').trim());

test('the README\'s CLI synopsis is the CLI\'s own usage, command for command, and each command\'s --help agrees with it', async () => {
  // The formats github and gitlab, the mock's rate limit: each was added to the usage and to the README by hand.
  const { USAGE } = await import('../../../server/src/cli');
  const { TEST_FILTER_USAGE, TEST_RULES_USAGE } = await import('../../../server/src/cliTest');
  const readme = read('README.md');
  const cli = readme.slice(readme.indexOf('## CLI'));
  const block = /```sh\n([\s\S]*?)```/.exec(cli)![1].split('\n').filter((l) => l && !l.startsWith('npm '));
  const documented = commands(block).map((l) => l.replace(/^node dist\/cli\.js /, 'edgekit '));
  const usage = commands(USAGE.split('\n\n')[0].split('\n').slice(1)).filter((l) => !l.startsWith('edgekit --version'));
  assert.ok(usage.length >= 4 && usage.every((l) => l.startsWith('edgekit ')), usage.join('\n'));
  assert.deepEqual(documented, usage);
  for (const own of [TEST_FILTER_USAGE, TEST_RULES_USAGE]) {
    const line = own.split('\n')[0].replace(/^Usage: /, '');
    assert.ok(usage.includes(line), `edgekit --help lists "${line}"`);
  }
});

test('docs/ci.md describes every format of edgekit lint --format', async () => {
  const { USAGE } = await import('../../../server/src/cli');
  const formats = /--format ([a-z|]+)\]/.exec(USAGE)![1].split('|');
  assert.ok(formats.length >= 6);
  const ci = read('docs/ci.md');
  const intro = ci.slice(0, ci.indexOf('\n## '));
  for (const f of formats) assert.match(intro, new RegExp(`\`${f}\``), `docs/ci.md names the format ${f}`);
});

test('the counts the README states hold: datasets and fields of the catalogues, account field files, file patterns, walkthrough steps', async () => {
  // Stated by hand in prose; checked by hand in 3205474. A dataset, a field file or a step added since would make them wrong.
  const { DATASETS, datasetFields } = await import('../../../server/src/core/rules/logpush/catalogue');
  const { KIND_PATTERNS } = await import('../../../server/src/core/kinds');
  const readme = read('README.md');
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
  const withFields = DATASETS.filter((d) => datasetFields(d.name)?.length);
  const fields = withFields.reduce((n, d) => n + datasetFields(d.name)!.length, 0);
  const fieldFiles = fs.readdirSync(path.join(root, 'data/logpush-fields')).filter((f) => f.endsWith('_fields.tsv')).length;
  assert.match(readme, new RegExp(`all ${withFields.length} datasets of the platform's Logpush table`));
  assert.match(readme, new RegExp(`\\b${fields} fields with their types`));
  assert.match(readme, new RegExp(`for the ${fieldFiles} datasets it lacks`));
  const patterns = Object.values(KIND_PATTERNS).flat().length;
  const patternClaims = [...readme.matchAll(/the (\w+) file patterns/g)].map((m) => m[1]);
  assert.ok(patternClaims.length >= 2);
  for (const w of patternClaims) assert.equal(w, words[patterns], `"the ${w} file patterns": there are ${patterns}`);
  // A step and its twin shown while its context key holds (package.json, docs/architecture.md) are one step to the reader.
  const steps = new Set((JSON.parse(read('package.json')).contributes.walkthroughs[0].steps as { title: string; when?: string }[])
    .map((s) => (s.when ?? '').replace(/^!/, '') || s.title)).size;
  assert.match(readme, new RegExp(`goes through the product in ${words[steps]} steps`));
  const fuzz = fs.readdirSync(path.join(root, 'test/fixtures'), { withFileTypes: true }).filter((d) => d.isDirectory())
    .flatMap((d) => fs.readdirSync(path.join(root, 'test/fixtures', d.name)).filter((f) => /^fuzz-.*\.json$/.test(f) && !/\.expected\./.test(f))).length;
  assert.match(readme, new RegExp(`kept as ${words[fuzz] ?? fuzz} \`fuzz-\\*\` golden fixtures`));
});

test('each command\'s usage names exactly the options its parser takes (the README\'s synopsis is the usage, above)', async () => {
  // The usage is written by hand beside the parser's option table: an option added to one only was a flag no document named, or
  // one the docs offered that the parser refused as unknown.
  const { USAGE, LINT_OPTIONS } = await import('../../../server/src/cli');
  const { TEST_FILTER_USAGE, TEST_FILTER_OPTIONS, TEST_RULES_USAGE, TEST_RULES_OPTIONS } = await import('../../../server/src/cliTest');
  const named = (lines: string[]) => [...new Set(lines.join(' ').match(/--[a-z][a-z-]*/g))].map((o) => o.slice(2)).sort();
  const lintLines = commands(USAGE.split('\n\n')[0].split('\n').slice(1)).filter((l) => l.startsWith('edgekit lint '));
  assert.equal(lintLines.length, 2, lintLines.join('\n'));
  assert.deepEqual(named(lintLines), Object.keys(LINT_OPTIONS).sort());
  assert.deepEqual(named([TEST_FILTER_USAGE.split('\n')[0]]), Object.keys(TEST_FILTER_OPTIONS).sort());
  assert.deepEqual(named([TEST_RULES_USAGE.split('\n')[0]]), Object.keys(TEST_RULES_OPTIONS).sort());
});

test('the lint commands docs/ci.md, action.yml and the pre-commit hook give use only options and formats edgekit lint has', async () => {
  // Copied into pipelines as they are: a flag the CLI does not take is a usage error (exit 2) in someone's CI.
  const { LINT_OPTIONS } = await import('../../../server/src/cli');
  const formats = ['stylish', 'json', 'sarif', 'line', 'github', 'gitlab'];
  const blocks = [...read('docs/ci.md').matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
  const lines = [blocks, read('action.yml'), read('.pre-commit-hooks.yaml')].join('\n').split('\n')
    .map((l) => /(?:dist\/cli\.js"?|\bedgekit) lint (.*)/.exec(l)?.[1]).filter((l): l is string => l !== undefined);
  assert.ok(lines.length >= 7, lines.join('\n'));
  for (const l of lines) {
    const all = l.replace(/\s(#|>|\|\|).*$/, '').split(/\s+/);
    // `--` ends the options: the words after it are paths.
    const words = all.includes('--') ? all.slice(0, all.indexOf('--')) : all;
    words.forEach((w, i) => {
      if (!w.startsWith('--')) return;
      assert.ok(w.slice(2).split('=')[0] in LINT_OPTIONS, `"${w}" in "${l}"`);
      if (w === '--format') assert.ok(formats.includes(words[i + 1]), `the format of "${l}"`);
    });
  }
});
