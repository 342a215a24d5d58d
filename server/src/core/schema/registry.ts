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
    ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, validateFormats: false });
    ajv.addVocabulary(ANNOTATIONS);
  }
  return ajv;
}

/** The compiled validator for a kind, compiled lazily once and cached by $id. */
export function validatorFor(kind: DocKind): ValidateFunction {
  const schema = SCHEMAS[kind];
  const id = String(schema.$id ?? kind);
  let fn = compiled.get(id);
  if (!fn) {
    const a = instance();
    fn = (a.getSchema(id) as ValidateFunction | undefined) ?? a.compile(schema);
    compiled.set(id, fn);
  }
  return fn;
}
