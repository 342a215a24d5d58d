// The shipped schemas: one draft, stable ids, and a title and description on every property (VS Code shows them as hover text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DOC_KINDS } from '../../../server/src/core/types';
import Ajv2020 from 'ajv/dist/2020';
import { validatorFor } from '../../../server/src/core/schema/registry';

const dir = path.resolve(__dirname, '../../../schemas');

/** Values, and conditions ("if", "not": tests of a value, not descriptions of it; no editor shows them). */
const NOT_DOCUMENTED = new Set(['enum', 'const', 'default', 'examples', 'if', 'not']);

function properties(schema: unknown, at: string, out: [string, Record<string, unknown>][] = []): [string, Record<string, unknown>][] {
  if (!schema || typeof schema !== 'object') return out;
  const s = schema as Record<string, unknown>;
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && v && typeof v === 'object') {
      for (const [name, sub] of Object.entries(v as Record<string, unknown>)) {
        out.push([`${at}/properties/${name}`, sub as Record<string, unknown>]);
        properties(sub, `${at}/properties/${name}`, out);
      }
    } else if (v && typeof v === 'object' && !NOT_DOCUMENTED.has(k)) {
      properties(v, `${at}/${k}`, out);
    }
  }
  return out;
}

for (const kind of DOC_KINDS) {
  test(`schemas/${kind}.schema.json: draft 2020-12, stable $id, title and description on every property, compiles strict`, () => {
    const schema = JSON.parse(fs.readFileSync(path.join(dir, `${kind}.schema.json`), 'utf8'));
    assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    assert.equal(schema.$id, `https://edgekit.dev/schemas/${kind}.schema.json`);
    const props = properties(schema, '#');
    assert.ok(props.length > 3, 'has properties');
    for (const [where, p] of props) {
      if (typeof p !== 'object' || (p.$ref && Object.keys(p).length === 1)) continue; // `true` or a bare $ref: the target carries the text
      assert.ok(typeof p.title === 'string' && p.title.length > 0, `${where} has a title`);
      assert.ok(typeof (p.description ?? p.markdownDescription) === 'string', `${where} has a description`);
    }
    assert.equal(typeof validatorFor(kind), 'function');
  });
}

test('the README\'s advice works: ajv in strict mode with the options and keywords it lists compiles every shipped schema', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8').replace(/\n\s*/g, ' ');
  const options = /new Ajv2020\((\{[^}]*\})\)/.exec(readme);
  const vocabulary = /ajv\.addVocabulary\((\[[^\]]*\])\)/.exec(readme);
  assert.ok(options && vocabulary, 'README.md shows the Ajv2020 options and the ajv.addVocabulary call');
  const opts = JSON.parse(options[1].replace(/(\w+):/g, '"$1":')) as Record<string, boolean>;
  assert.equal(opts.strict, true, 'the advice is for strict mode');
  const keywords = JSON.parse(vocabulary[1].replace(/'/g, '"')) as string[];
  for (const kind of DOC_KINDS) {
    // Strict mode throws on what it refuses; a logger that throws turns its warnings into failures too.
    const ajv = new Ajv2020({ ...opts, logger: { log() {}, warn(...a: unknown[]) { throw new Error(a.join(' ')); }, error(...a: unknown[]) { throw new Error(a.join(' ')); } } });
    ajv.addVocabulary(keywords);
    const schema = JSON.parse(fs.readFileSync(path.join(dir, `${kind}.schema.json`), 'utf8'));
    // Compile every definition too (a validator compiles only what is referenced; another tool may compile them all).
    assert.doesNotThrow(() => ajv.compile(schema), kind);
    for (const name of Object.keys(schema.$defs ?? {})) assert.equal(typeof ajv.getSchema(`${schema.$id}#/$defs/${name}`), 'function', `${kind} $defs/${name} compiles`);
  }
});

test('the shipped filter schema refuses a filter without "where", as the platform does; EdgeKit reports it once, as logpush/missing-where', async () => {
  // Spec, Errors: "Filter given without the where key: Invalid; a filter, when used, must contain where". The schema that VS Code's
  // JSON service applies to *.edgekit-filter.json (and other validators use) accepted {"key", "operator", "value"} and {}.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, strictTuples: false });
  ajv.addVocabulary(['defaultSnippets', 'enumDescriptions', 'errorMessage', 'x-edgekit', 'x-edgekit-aliases']);
  const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(dir, 'logpush-filter.schema.json'), 'utf8')));
  assert.equal(validate({ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }), true);
  assert.equal(validate({ key: 'ClientCountry', operator: 'eq', value: 'ca' }), false);
  assert.equal(validate({}), false);
  assert.equal(validate({ $dataset: 'dns_logs' }), false);
  const { validateText } = await import('../../../server/src/core/validate');
  const codes = validateText('{"key": "ClientCountry", "operator": "eq", "value": "ca"}', 'logpush-filter').map((p) => p.code);
  assert.deepEqual(codes, ['logpush/missing-where']);
  const inJob = validateText(JSON.stringify({ dataset: 'http_requests', destination_conf: 's3://b/p?region=us-east-1', filter: '{"key":"ClientCountry","operator":"eq","value":"ca"}' }), 'logpush-job').map((p) => p.code);
  assert.deepEqual(inJob, ['logpush/missing-where']);
});

// The rule's "action" hover said only '"execute" deploys a managed ruleset, "skip" adds an exception' (the migration's two), while
// the schema takes every Rulesets API action and Test Rules decides requests by the terminating ones.
test('the ruleset schema\'s rule "action" description names execute, skip and every terminating action', async () => {
  const { TERMINATING_ACTIONS } = await import('../../../server/src/core/rules/ruleset/catalog');
  const schema = JSON.parse(fs.readFileSync(path.join(dir, 'waf-ruleset.schema.json'), 'utf8')) as { $defs: { rule: { properties: { action: { description: string; enum: string[] } } } } };
  const action = schema.$defs.rule.properties.action;
  for (const a of ['execute', 'skip', ...TERMINATING_ACTIONS]) {
    assert.ok(action.enum.includes(a), a);
    assert.ok(action.description.includes(`"${a}"`), `the description names "${a}": ${action.description}`);
  }
});
