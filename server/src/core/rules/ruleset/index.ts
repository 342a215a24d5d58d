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
  // Custom rules, the usual start of one's own ruleset (completion offers the managed entry point too). Not preferred: Fix all
  // does not write rules nobody asked for.
  starter: {
    expected: 'a ruleset {"name": …, "rules": [{"action": …, "expression": …}]}',
    title: 'Insert a custom rules ruleset (http_request_firewall_custom)',
    text: '{\n  "name": "my custom rules",\n  "kind": "zone",\n  "phase": "http_request_firewall_custom",\n  "rules": [\n    {\n'
      + '      "action": "block",\n      "expression": "http.request.uri.path eq \\"/admin\\"",\n      "description": "Block the admin area",\n'
      + '      "enabled": true\n    }\n  ]\n}\n',
  },
};

export { terraformAnswer, toTerraform, type TerraformAnswer, type TerraformOutput } from './terraform';
export { analyzeExpression } from './expression';
export { parseExpression } from './exprParser';
export { bodyKind } from './body';
