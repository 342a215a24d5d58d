// The one ajv instance of the process. Schemas are imported as JSON modules, so the bundles inline exactly the shipped files.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { DocKind } from '../types';
import logpushFilter from '../../../../schemas/logpush-filter.schema.json';
import logpushJob from '../../../../schemas/logpush-job.schema.json';
import jsonrpcRequest from '../../../../schemas/jsonrpc-request.schema.json';
import wafRuleset from '../../../../schemas/waf-ruleset.schema.json';

export type JsonSchema = Record<string, unknown>;

export const SCHEMAS: Record<DocKind, JsonSchema> = {
  'logpush-filter': logpushFilter as JsonSchema,
  'logpush-job': logpushJob as JsonSchema,
  'jsonrpc-request': jsonrpcRequest as JsonSchema,
  'waf-ruleset': wafRuleset as JsonSchema,
};

/** Editor-only annotation keywords that strict ajv must accept (VS Code's JSON dialect). */
const ANNOTATIONS = ['markdownDescription', 'deprecationMessage', 'defaultSnippets', 'errorMessage', 'enumDescriptions',
  'markdownEnumDescriptions', 'doNotSuggest', 'x-edgekit'];

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    // strictTuples off: a method's optional trailing params make tuples shorter than their prefixItems on purpose (those params
    // are left to the rules today, but a schema part that refers to them must still compile).
    // validateSchema off: checking our own shipped schemas against the draft 2020-12 meta-schema took about 45 ms of the first
    // diagnostics (issue 18); test/unit/core/schemas.test.ts holds every shipped schema to it, with a default (validating) ajv.
    ajv = new Ajv2020({ allErrors: true, strict: true, strictTuples: false, allowUnionTypes: true, validateFormats: false, validateSchema: false });
    ajv.addVocabulary(ANNOTATIONS);
  }
  return ajv;
}

/** The marker of a subschema that a kind's semantic rules check in EdgeKit, with better messages and quick fixes. */
export const CHECKED_BY_RULES = 'checked-by-rules';

/**
 * The schema as ajv compiles it here: every subschema marked "x-edgekit": "checked-by-rules" becomes `true`. The shipped file keeps
 * them for VS Code's JSON service and other schema users; in EdgeKit the rules report the same problems (a unit test holds them to
 * it, test/unit/jsonrpc/schema.test.ts), so checking twice would only cost time and show each problem twice.
 */
export function forAjv(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forAjv);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  if (s['x-edgekit'] === CHECKED_BY_RULES) return true;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? v : forAjv(v);
  return out;
}

/** The compiled validator for a kind, compiled lazily once and cached by $id. */
export function validatorFor(kind: DocKind): ValidateFunction {
  const schema = SCHEMAS[kind];
  const id = String(schema.$id ?? kind);
  let fn = compiled.get(id);
  if (!fn) {
    const a = instance();
    fn = (a.getSchema(id) as ValidateFunction | undefined) ?? a.compile(forAjv(schema) as JsonSchema);
    compiled.set(id, fn);
  }
  return fn;
}
