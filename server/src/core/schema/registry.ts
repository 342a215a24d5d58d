// The shipped schemas (imported as JSON modules, so the bundles inline exactly the shipped files) and their validators, which ajv
// compiles at build time (scripts/gen-validators.ts, `npm run validators`): no schema is compiled at run time.
import type { ValidateFunction } from 'ajv/dist/2020';
import * as generated from './validators.generated.js';
import type { DocKind } from '../types';
import logpushFilter from '../../../../schemas/logpush-filter.schema.json';
import logpushJob from '../../../../schemas/logpush-job.schema.json';
import jsonrpcRequest from '../../../../schemas/jsonrpc-request.schema.json';
import wafRuleset from '../../../../schemas/waf-ruleset.schema.json';

export type JsonSchema = Record<string, unknown>;

const VALIDATORS: Record<DocKind, ValidateFunction> = {
  'logpush-filter': generated.logpushFilter,
  'logpush-job': generated.logpushJob,
  'jsonrpc-request': generated.jsonrpcRequest,
  'waf-ruleset': generated.wafRuleset,
};

export const SCHEMAS: Record<DocKind, JsonSchema> = {
  'logpush-filter': logpushFilter as JsonSchema,
  'logpush-job': logpushJob as JsonSchema,
  'jsonrpc-request': jsonrpcRequest as JsonSchema,
  'waf-ruleset': wafRuleset as JsonSchema,
};

/** Editor-only annotation keywords that strict ajv must accept (VS Code's JSON dialect). */
export const ANNOTATIONS = ['markdownDescription', 'deprecationMessage', 'defaultSnippets', 'errorMessage', 'enumDescriptions',
  'markdownEnumDescriptions', 'doNotSuggest', 'x-edgekit', 'x-edgekit-aliases'];

// strictTuples off: a method's optional trailing params make tuples shorter than their prefixItems on purpose (those params are left
// to the rules today, but a schema part that refers to them must still compile).
// validateSchema off: checking our own shipped schemas against the draft 2020-12 meta-schema took about 45 ms of the first
// diagnostics (issue 18); test/unit/core/schemas.test.ts holds every shipped schema to it, with a default (validating) ajv.
export const AJV_OPTIONS = { allErrors: true, strict: true, strictTuples: false, allowUnionTypes: true, validateFormats: false, validateSchema: false } as const;

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

/** The validator of a kind: the schema as forAjv gives it, compiled with AJV_OPTIONS at build time (validators.generated.js). */
export function validatorFor(kind: DocKind): ValidateFunction {
  return VALIDATORS[kind];
}
