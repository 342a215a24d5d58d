// The Logpush dataset names exist in several places a user meets: the catalogue (catalogue.ts DATASETS: the reference's table plus the
// names the API knows without a field list), the edgekit.logpush.dataset setting's enum in package.json, the schemas' examples, and the
// CLI's --dataset check and its message. The catalogue is the one source; the others must not name a dataset it lacks nor (the setting's
// enum, the CLI) leave one out: the setting's enum listed 22 names while the CLI and the checker accepted 37, so VS Code's settings.json
// check warned on "zaraz_events" that every other part of the product takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DATASETS, DEFAULT_JOB_DATASET, datasetFields, datasetScopes } from '../../../server/src/core/rules/logpush/catalogue';
import { main } from '../../../server/src/cli';

const root = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const schema = (name: string) => JSON.parse(fs.readFileSync(path.join(root, 'schemas', name), 'utf8'));
const NAMES = DATASETS.map((d) => d.name);

test('the edgekit.logpush.dataset setting offers exactly the catalogue\'s datasets, in its order, with the default among them', () => {
  const setting = pkg.contributes.configuration.properties['edgekit.logpush.dataset'];
  assert.deepEqual(setting.enum, NAMES);
  assert.equal(setting.default, DEFAULT_JOB_DATASET);
});

test('the setting says which datasets have no field catalogue (their filters\' fields are not checked)', () => {
  const setting = pkg.contributes.configuration.properties['edgekit.logpush.dataset'];
  const descriptions: string[] = setting.markdownEnumDescriptions ?? setting.enumDescriptions;
  assert.ok(Array.isArray(descriptions), 'enum descriptions');
  assert.equal(descriptions.length, NAMES.length);
  DATASETS.forEach((d, i) => {
    assert.equal(/no field catalogue/i.test(descriptions[i]), !d.hasFields, `${d.name}: ${descriptions[i]}`);
    for (const scope of datasetScopes(d.name)) assert.match(descriptions[i], new RegExp(`\\b${scope}\\b`, 'i'), `${d.name} names its scope ${scope}`);
    if (d.hasFields) assert.match(descriptions[i], new RegExp(`\\b${datasetFields(d.name)!.length} fields\\b`), `${d.name}: its field count`);
  });
});

test('the schemas\' dataset examples are datasets of the catalogue', () => {
  const job = schema('logpush-job.schema.json').properties.dataset;
  const filter = schema('logpush-filter.schema.json').properties.$dataset;
  for (const [where, examples] of [['logpush-job dataset', job.examples], ['logpush-filter $dataset', filter.examples]] as const) {
    assert.ok(Array.isArray(examples) && examples.length > 0, where);
    for (const e of examples) assert.ok(NAMES.includes(e), `${where}: "${e}" is not a dataset of the catalogue`);
  }
  assert.equal(job.examples[0], DEFAULT_JOB_DATASET);
  for (const s of [job, filter]) assert.equal(s.enum, undefined, 'an enum would turn a newer dataset into a schema error; logpush/unknown-dataset decides');
});

test('the CLI takes every dataset of the catalogue for --dataset and names them all when refusing one', async () => {
  const run = async (argv: string[]) => {
    let stdout = '', stderr = '';
    const code = await main(argv, { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
    return { code, stdout, stderr };
  };
  const bad = await run(['lint', '--dataset', 'nope', '.']);
  assert.equal(bad.code, 2);
  const listed = /use one of (.*)\./.exec(bad.stderr)?.[1].split(', ');
  assert.deepEqual(listed, NAMES);
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'edgekit-ds-'));
  const file = path.join(dir, 'a.filter.json');
  fs.writeFileSync(file, '{"where":{"key":"X","operator":"eq","value":"y"}}');
  for (const name of NAMES) {
    const r = await run(['lint', '--format', 'json', '--dataset', name, file]);
    assert.notEqual(r.code, 2, `${name}: ${r.stderr}`);
  }
});
