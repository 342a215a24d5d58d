// Lists that exist in more than one place, compared instead of kept in step by hand: the ruleset schema's enums and the rules'
// catalogue (catalog.ts), the shared reference's tables and that catalogue, the mock's own copy of an id, and the Logpush job's
// destination schemes and dataset-only options as the checker, the schema's descriptions and the diagnostic codes' descriptions
// (README table) give them. Each test fails when one side gains or loses a name the other lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  MANAGED_RULESETS, OWASP_ANOMALY_RULE_ID, PHASES, RULE_ACTIONS, SENSITIVITY_LEVELS,
} from '../../../server/src/core/rules/ruleset/catalog';
import { DATASETS, OPERATOR_NAMES } from '../../../server/src/core/rules/logpush/catalogue';
import { ATTACK_TRAFFIC_DATASETS, DESTINATION_SCHEMES } from '../../../server/src/core/rules/logpush/job';
import { LOGPUSH_CODES } from '../../../server/src/core/rules/logpush/codes';
import { OWASP_SCORE_RULE_ID } from '../../../mock/src/zones';

const root = path.resolve(__dirname, '../../..');
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const reference = (file: string) => fs.readFileSync(path.join('/work/shared/reference', file), 'utf8');
const sorted = (xs: readonly string[]) => [...xs].sort();

test('the ruleset schema\'s phase, action and sensitivity enums are the catalogue\'s lists', () => {
  const s = json('schemas/waf-ruleset.schema.json');
  assert.deepEqual(sorted(s.properties.phase.enum), sorted(PHASES));
  assert.deepEqual(sorted(s.$defs.actionParameters.properties.phases.items.enum), sorted(PHASES));
  assert.deepEqual(sorted(s.$defs.rule.properties.action.enum), sorted(RULE_ACTIONS));
  const o = s.$defs.overrides.properties;
  for (const levels of [o.sensitivity_level.enum, o.categories.items.properties.sensitivity_level.enum, o.rules.items.properties.sensitivity_level.enum]) {
    assert.deepEqual(sorted(levels), sorted(SENSITIVITY_LEVELS));
  }
});

test('the catalogue\'s phases, actions and managed rulesets are the shared reference\'s (rulesets.md)', () => {
  const md = reference('rulesets.md');
  const line = (label: string) => {
    const m = new RegExp(`^${label}[^:]*: (.*)\\.$`, 'm').exec(md);
    assert.ok(m, label);
    return m[1].split(', ').map((x) => x.trim());
  };
  assert.deepEqual(sorted(line('Phases \\(TF enum')), sorted(PHASES));
  // transform_response_html comes from the API's OpenAPI, not the Terraform enum the reference copied
  assert.deepEqual(sorted(line('Rule actions \\(TF enum\\)')), sorted(RULE_ACTIONS.filter((a) => a !== 'transform_response_html')));
  const rows = [...md.matchAll(/^\| (Cloudflare [^|]+?) \| `([0-9a-f]{32})` \| (\S+)/gm)].map((m) => ({ name: m[1], id: m[2], phase: m[3] }));
  assert.equal(rows.length, 5);
  for (const r of rows) {
    const have = MANAGED_RULESETS.find((x) => x.id === r.id);
    assert.ok(have, `${r.name} ${r.id}`);
    assert.equal(have.name, r.name);
    if (r.phase.startsWith('http_')) assert.equal(have.phase, r.phase, r.name);
  }
  assert.equal(MANAGED_RULESETS.length, rows.length);
});

test('the mock\'s OWASP anomaly rule id is the catalogue\'s', () => {
  assert.equal(OWASP_SCORE_RULE_ID, OWASP_ANOMALY_RULE_ID);
});

test('the shared reference\'s dataset names (its table and the Terraform enum) are all in the catalogue', () => {
  const names = DATASETS.map((d) => d.name);
  const table = reference('datasets.tsv').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t')[0]);
  assert.deepEqual(DATASETS.slice(0, table.length).map((d) => d.name), table);
  const tf = /^dataset \(TF enum: ([^)]*)\)/m.exec(reference('logpush.md'));
  assert.ok(tf);
  for (const n of tf[1].split(', ')) assert.ok(names.includes(n), n);
});

test('destination schemes: the checker\'s list is the one the code description and the schema name', () => {
  const listed = (text: string) => /\(([a-z0-9, ]+)\)/.exec(text)?.[1].split(', ');
  assert.deepEqual(listed(LOGPUSH_CODES['logpush/destination-scheme'].description), [...DESTINATION_SCHEMES]);
  const schema = json('schemas/logpush-job.schema.json').properties.destination_conf.description as string;
  const inSchema = /with scheme ([^:]*?)\. /.exec(schema)?.[1].replace(/ \([^)]*\)/g, '').replace(/,? or /, ', ').replace(/ \(needs[^)]*\)/g, '').split(', ')
    .map((s) => s.split(' ')[0]);
  assert.deepEqual(sorted(inSchema ?? []), sorted(DESTINATION_SCHEMES));
});

test('filter_attack_traffic\'s datasets: the checker\'s list is the one the schema and the code description name', () => {
  const schema = json('schemas/logpush-job.schema.json').properties.filter_attack_traffic.description as string;
  const code = LOGPUSH_CODES['logpush/dataset-only-option'].description;
  for (const text of [schema, code]) {
    const named = DATASETS.map((d) => d.name).filter((n) => new RegExp(`\\b${n}\\b`).test(text.replace(/merge_subrequests: http_requests;/, '')));
    assert.deepEqual(sorted(named), sorted(ATTACK_TRAFFIC_DATASETS), text);
  }
});

test('the CLI\'s help names exactly the file patterns the lint walk and the editor claim (kinds.ts KIND_PATTERNS)', async () => {
  const { USAGE } = await import('../../../server/src/cli');
  const { KIND_PATTERNS } = await import('../../../server/src/core/kinds');
  const walked = /walked for ([^;]*);/.exec(USAGE.replace(/\s+/g, ' '))?.[1].split(', ');
  assert.deepEqual(sorted(walked ?? []), sorted(Object.values(KIND_PATTERNS).flat()));
});

test('the filter schema\'s operator enum is the catalogue\'s operator table, in its order', () => {
  assert.deepEqual(json('schemas/logpush-filter.schema.json').$defs.condition.properties.operator.enum, [...OPERATOR_NAMES]);
});

test('the README\'s field-catalogue numbers are the catalogue\'s', async () => {
  const { datasetFields } = await import('../../../server/src/core/rules/logpush/catalogue');
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const m = /all (\d+) datasets of the platform's Logpush table.*?\), (\d+) fields with their types/.exec(readme);
  assert.ok(m, 'the README\'s "Field catalogues" paragraph');
  const withFields = DATASETS.filter((d) => d.hasFields);
  assert.equal(Number(m[1]), withFields.length);
  assert.equal(Number(m[2]), withFields.reduce((n, d) => n + (datasetFields(d.name)?.length ?? 0), 0));
});
