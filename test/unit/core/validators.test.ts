// The validators the core runs are ajv's build-time compilation of the shipped schemas (scripts/gen-validators.ts): the file in the
// tree must be what the script writes for the schemas in the tree, and each validator must judge documents as a run-time compilation
// of the same schema with the same options does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { VALIDATORS_FILE, validatorsDeclarations, validatorsModule } from '../../../scripts/gen-validators';
import { AJV_OPTIONS, ANNOTATIONS, forAjv, SCHEMAS, validatorFor } from '../../../server/src/core/schema/registry';
import { DOC_KINDS } from '../../../server/src/core/types';

test('validators.generated.js is up to date with schemas/*.schema.json (run `npm run validators`)', () => {
  assert.equal(fs.readFileSync(VALIDATORS_FILE, 'utf8'), validatorsModule(), 'run `npm run validators`');
  assert.equal(fs.readFileSync(VALIDATORS_FILE.replace(/\.js$/, '.d.ts'), 'utf8'), validatorsDeclarations(), 'run `npm run validators`');
});

test('each build-time validator reports what ajv compiling the schema at run time reports', () => {
  const ajv = new Ajv2020(AJV_OPTIONS);
  ajv.addVocabulary([...ANNOTATIONS]);
  const samples: Record<string, unknown[]> = {
    'logpush-filter': [{ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }, { where: { and: [] } }, { where: { key: 1, operator: 'nope' } }, [], 'x', {}],
    'logpush-job': [{ name: 'a', dataset: 'http_requests', destination_conf: 'r2://b/p' }, { name: 3, frequency: 'often', sample_rate: 0 }, [], {}],
    'jsonrpc-request': [{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, [], [{ jsonrpc: '1.0' }], { id: {}, method: 5 }],
    'waf-ruleset': [{ rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'x' } }] }, { rules: 'no' }, {}, []],
  };
  for (const kind of DOC_KINDS) {
    const runtime = ajv.compile(forAjv(SCHEMAS[kind]) as Record<string, unknown>);
    const built = validatorFor(kind);
    for (const doc of samples[kind]) {
      const ok = built(doc);
      assert.equal(ok, runtime(doc), `${kind} ${JSON.stringify(doc)}`);
      assert.deepEqual(built.errors ?? null, runtime.errors ?? null, `${kind} ${JSON.stringify(doc)}`);
    }
  }
});
