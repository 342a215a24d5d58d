// The diagnostic code registry. A shipped code is never renamed or reused: retire it instead.
// Each area keeps its own table (core/rules/<area>/codes.ts) so areas can grow independently; this file merges them.
import { LOGPUSH_CODES } from './rules/logpush/codes';
import { JSONRPC_CODES } from './rules/jsonrpc/codes';
import { RULESET_CODES } from './rules/ruleset/codes';
import { BASE_CODES, type CodeInfo, type CodeTable } from './baseCodes';

export { BASE_CODES, type CodeInfo, type CodeTable } from './baseCodes';

export const CODES: CodeTable = { ...BASE_CODES, ...LOGPUSH_CODES, ...JSONRPC_CODES, ...RULESET_CODES };

/** A diagnostic code: `area/kebab-name`. Kept as string so each area's table can add codes on its own. */
export type Code = string;

export function codeInfo(code: Code): CodeInfo {
  const info = CODES[code];
  if (!info) throw new Error(`Unregistered diagnostic code "${code}"; add it to a codes table.`);
  return info;
}

/** The anchor of a code in docs/diagnostics.md (the LSP layer prefixes it with the docs location it was given). */
export function codeAnchor(code: Code): string {
  return code.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
}
