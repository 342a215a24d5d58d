// The managed-rules (ruleset) area: the body of PUT /zones/<zone_id>/rulesets/phases/http_request_firewall_managed/entrypoint.
import type { KindPlugin } from '../../types';
import { RULESET_RULES } from './rules';
import { complete, hover, inlayHints, lenses, signatureHelp } from './assist';
import { selectionRanges } from './selection';

export const rulesetPlugin: KindPlugin = {
  kind: 'waf-ruleset',
  rules: RULESET_RULES,
  complete: (doc, offset) => complete(doc, offset),
  hover: (doc, offset) => hover(doc, offset),
  signatureHelp: (doc, offset) => signatureHelp(doc, offset),
  inlayHints: (doc, range) => inlayHints(doc, range),
  lenses: (doc) => lenses(doc),
  selectionRanges: (doc, offset) => selectionRanges(doc, offset),
};

export { toTerraform, type TerraformOutput } from './terraform';
export { analyzeExpression } from './expression';
export { parseExpression } from './exprParser';
export { bodyKind } from './body';
