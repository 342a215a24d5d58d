// Every dataset has its field catalogue and a pair of golden cases (test/fixtures/logpush-job/dataset-<name>-*.json): a filter on
// its own fields that gets no problem, and the same filter with another dataset's field that gets exactly one unknown-field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DATASETS, datasetFields } from '../../../server/src/core/rules/logpush/catalogue';

const FIXTURES = path.resolve(__dirname, '../../fixtures/logpush-job');

// The 22 datasets of the reference's table (a scope and an API path each); the newer names known only by name keep
// logpush/no-field-catalogue.
const TABLE = DATASETS.filter((d) => d.scope !== '');

test('every dataset of the reference table has a field catalogue', () => {
  assert.equal(TABLE.length, 22);
  assert.deepEqual(TABLE.filter((d) => !d.hasFields).map((d) => d.name), []);
  for (const d of TABLE) assert.ok((datasetFields(d.name) ?? []).length > 0, d.name);
});

test('each dataset has its golden pair: a clean filter, and one foreign field reported once', () => {
  for (const d of TABLE) {
    const base = path.join(FIXTURES, `dataset-${d.name.replace(/_/g, '-')}`);
    assert.equal(fs.readFileSync(`${base}-valid.expected.txt`, 'utf8').trim(), '', `${d.name}: the valid filter is clean`);
    const bad = fs.readFileSync(`${base}-misused-field.expected.txt`, 'utf8').trim().split('\n');
    assert.equal(bad.length, 1, `${d.name}: ${bad.join(' | ')}`);
    assert.match(bad[0], /error logpush\/unknown-field Unknown field/);
  }
});
