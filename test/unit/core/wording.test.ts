// No schema message leaks ajv's wording: every validation keyword the shipped schemas use has a message of our own (what is wrong,
// where, what is expected), and each one, triggered for real through ajv, reads that way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { ajvProblems, WORDED_KEYWORDS } from '../../../server/src/core/schema/ajvProblems';
import { parseDocument } from '../../../server/src/core/parse';

const SCHEMAS = path.resolve(__dirname, '../../../schemas');
/** Keywords that never fail on their own (annotations, structure, references): ajv reports the keywords inside them instead. */
const NOT_FAILING = new Set(['$schema', '$id', '$ref', '$defs', '$comment', 'title', 'description', 'markdownDescription', 'default',
  'examples', 'deprecated', 'defaultSnippets', 'enumDescriptions', 'markdownEnumDescriptions', 'errorMessage', 'x-edgekit', 'x-edgekit-aliases', 'properties',
  'patternProperties', 'dependentSchemas', 'prefixItems', 'allOf', 'then', 'else', 'readOnly', 'writeOnly']);
/** Members whose value is a map of names to subschemas, or data (not keywords). */
const SUBSCHEMA_MAPS = new Set(['properties', '$defs', 'patternProperties', 'dependentSchemas']);
const DATA = new Set(['enum', 'const', 'default', 'examples', 'defaultSnippets', 'required', 'enumDescriptions', 'errorMessage', 'x-edgekit', 'x-edgekit-aliases']);

function keywordsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) { for (const s of schema) keywordsOf(s, out); return out; }
  if (!schema || typeof schema !== 'object') return out;
  for (const [k, v] of Object.entries(schema)) {
    out.add(k);
    if (SUBSCHEMA_MAPS.has(k)) for (const s of Object.values(v as object)) keywordsOf(s, out);
    else if (!DATA.has(k)) keywordsOf(v, out);
  }
  return out;
}

const used = new Set<string>();
for (const f of fs.readdirSync(SCHEMAS).filter((x) => x.endsWith('.schema.json'))) keywordsOf(JSON.parse(fs.readFileSync(path.join(SCHEMAS, f), 'utf8')), used);

test('every validation keyword of the shipped schemas has a message of our own', () => {
  const failing = [...used].filter((k) => !NOT_FAILING.has(k)).sort();
  assert.ok(failing.includes('minItems') && failing.includes('pattern') && failing.includes('required'), `keywords found: ${failing.join(', ')}`);
  assert.deepEqual(failing.filter((k) => !WORDED_KEYWORDS.has(k)), [], 'keywords whose errors would read in ajv\'s words');
});

/** One instance per keyword that fails it, in a schema with that keyword under "x". */
const SAMPLES: Record<string, [schema: object, value: unknown]> = {
  required: [{ type: 'object', required: ['name'] }, {}],
  additionalProperties: [{ type: 'object', additionalProperties: false }, { extra: 1 }],
  type: [{ type: 'string' }, 3],
  enum: [{ enum: ['a', 'b'] }, 'c'],
  const: [{ const: '2.0' }, '1.0'],
  minItems: [{ type: 'array', minItems: 1 }, []],
  maxItems: [{ type: 'array', maxItems: 1 }, [1, 2]],
  items: [{ type: 'array', prefixItems: [{ type: 'string' }], items: false }, ['a', 'b']],
  minLength: [{ type: 'string', minLength: 3 }, 'ab'],
  maxLength: [{ type: 'string', maxLength: 2 }, 'abc'],
  minimum: [{ type: 'number', minimum: 1 }, 0],
  maximum: [{ type: 'number', maximum: 10 }, 11],
  exclusiveMinimum: [{ type: 'number', exclusiveMinimum: 0 }, 0],
  exclusiveMaximum: [{ type: 'number', exclusiveMaximum: 1 }, 1],
  multipleOf: [{ type: 'number', multipleOf: 5 }, 7],
  pattern: [{ type: 'string', pattern: '^0x[0-9a-f]+$' }, 'zz'],
  not: [{ not: { const: 'x' } }, 'x'],
  if: [{ if: { const: 'a' }, then: { type: 'number' } }, 'a'],
  oneOf: [{ oneOf: [{ type: 'string' }, { type: 'number' }] }, true],
  anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, true],
  uniqueItems: [{ type: 'array', uniqueItems: true }, [1, 1]],
  minProperties: [{ type: 'object', minProperties: 1 }, {}],
  maxProperties: [{ type: 'object', maxProperties: 1 }, { a: 1, b: 2 }],
  dependentRequired: [{ type: 'object', dependentRequired: { a: ['b'] } }, { a: 1 }],
};
const AJV_WORDING = /must NOT|must match|must be (>|<|equal|multiple)|must have required|must pass|must be valid|should /;

for (const [keyword, [schema, value]] of Object.entries(SAMPLES)) {
  test(`"${keyword}" reads in our words`, () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile({ type: 'object', properties: { x: schema } });
    const text = JSON.stringify({ x: value });
    assert.equal(validate({ x: value }), false, 'the sample fails');
    const problems = ajvProblems(parseDocument(text), validate.errors!);
    assert.ok(problems.length > 0);
    for (const p of problems) {
      assert.doesNotMatch(p.message, AJV_WORDING, `${keyword}: ${p.message}`);
      assert.match(p.message, /"x"|item \d+|the document/i, `${keyword} names where: ${p.message}`);
      assert.match(p.message, /\.$/, `${keyword}: one sentence`);
    }
    assert.ok(WORDED_KEYWORDS.has(keyword), `${keyword} is listed as worded`);
  });
}

test('an unknown property near a declared one gets "did you mean" and a rename fix, found through $refs and nested objects', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const cases: [string, 'waf-ruleset' | 'logpush-job' | 'logpush-filter', string, string][] = [
    ['{"rules":[{"action":"block","expression":"true","action_parameters":{"respone":{"status_code":403,"content":"x","content_type":"text/plain"}}}]}', 'waf-ruleset', 'respone', 'response'],
    ['{"rules":[{"action":"rewrite","expression":"true","action_parameters":{"headers":{"X-A":{"operaton":"set","value":"1"}}}}]}', 'waf-ruleset', 'operaton', 'operation'],
    ['{"dataset":"http_requests","destination_conf":"s3://b/p?region=us-east-1","filters":"{}"}', 'logpush-job', 'filters', 'filter'],
    ['{"where":{"kye":"ClientRequestHost","operator":"eq","value":"a"}}', 'logpush-filter', 'kye', 'key'],
  ];
  for (const [text, kind, wrong, right] of cases) {
    const problem = validateText(text, kind).find((p) => p.code === 'schema/unknown-property');
    assert.ok(problem, `${kind}: ${wrong}`);
    assert.match(problem.message, new RegExp(`"${wrong}".*; did you mean "${right.replace('$', '\\$')}"\\?$`));
    const fix = problem.fixes?.[0];
    assert.ok(fix?.preferred, 'a preferred fix');
    const fixed = fix.edits.reduce((s, e) => s.slice(0, e.offset) + e.newText + s.slice(e.offset + e.length), text);
    assert.ok(fixed.includes(`"${right}"`) && !fixed.includes(`"${wrong}"`), fixed);
    assert.deepEqual(validateText(fixed, kind).filter((p) => p.code.startsWith('schema/')).map((p) => p.message), [], fixed);
  }
  // Nothing near: no suggestion, no fix
  const far = validateText('{"where":{"key":"ClientRequestHost","operator":"eq","value":"a","zzzzzzzz":1}}', 'logpush-filter').find((p) => p.code === 'schema/unknown-property');
  assert.ok(far && !far.message.includes('did you mean') && !far.fixes);
});

test('a misspelt enum string gets "did you mean" and a fix that writes the nearest value; a far one only the list', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const text = '{"rules":[{"action":"blok","expression":"true"}],"phase":"http_request_firewall_custom"}';
  const p = validateText(text, 'waf-ruleset').find((x) => x.code === 'schema/enum');
  assert.ok(p);
  assert.match(p.message, /is the string "blok"; did you mean "block"\? Expected one of "block", /);
  const e = p.fixes![0].edits[0];
  const fixed = text.slice(0, e.offset) + e.newText + text.slice(e.offset + e.length);
  assert.equal(fixed, text.replace('"blok"', '"block"'));
  assert.deepEqual(validateText(fixed, 'waf-ruleset').filter((x) => x.code.startsWith('schema/')), []);
  const far = validateText(text.replace('blok', 'zzzzzzzz'), 'waf-ruleset').find((x) => x.code === 'schema/enum');
  assert.ok(far && !far.message.includes('did you mean') && !far.fixes);
});

test('a type list reads as a list, null without an article; a number too large for a double is not shown as "null"', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  // The request id takes an integer, a string or null (JSON-RPC 2.0 section 4).
  const frac = validateText('{"jsonrpc":"2.0","method":"eth_chainId","id":1.5}', 'jsonrpc-request').find((p) => p.code === 'schema/type');
  assert.equal(frac?.message, '"id" must be an integer, a string or null, not number 1.5.');
  // 1e400 parses to Infinity, which JSON.stringify would print as null.
  const huge = validateText('{"jsonrpc":"2.0","method":"eth_chainId","id":1e400}', 'jsonrpc-request').find((p) => p.code === 'schema/type');
  assert.ok(huge && !/not number null/.test(huge.message) && /Infinity/.test(huge.message), huge?.message);
});

test('the problem cap\'s note counts in words that agree: "1 more problem is", "2 more problems are"', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const filter = (n: number) => JSON.stringify({ where: { and: Array.from({ length: n }, (_, i) => ({ key: `Nope${i}`, operator: 'eq', value: 1 })) } });
  const note = (n: number) => validateText(filter(n), 'logpush-filter', { maxProblems: 1 }).find((p) => p.code === 'limits/too-many-problems')?.message;
  assert.equal(note(2), '1 more problem is not shown (edgekit.maxProblems is 1).');
  assert.equal(note(3), '2 more problems are not shown (edgekit.maxProblems is 1).');
});
