import type { CodeTable } from '../../codes';

/** Diagnostic codes of the managed-rules (ruleset) area. A shipped code is never renamed or reused. */
export const RULESET_CODES: CodeTable = {
  'ruleset/too-many-rules': { severity: 'error', description: 'More than 200 rules; the migration accepts at most 200.' },
  'ruleset/execute-missing-id': { severity: 'error', description: 'A rule with action "execute" has no action_parameters.id (the managed ruleset to run).' },
  'ruleset/unknown-managed-ruleset': { severity: 'warning', description: 'action_parameters.id is not one of the known managed ruleset ids.' },
  'ruleset/action-phase': { severity: 'error', description: 'A rule action the phase does not take (http_request_firewall_managed takes execute and skip).' },
  'ruleset/managed-ruleset-phase': { severity: 'warning', description: 'The managed ruleset runs in another phase than http_request_firewall_managed.' },
  'ruleset/duplicate-rule-id': { severity: 'error', description: 'Two rules carry the same id.' },
  'ruleset/duplicate-override': { severity: 'warning', description: 'The same rule or category is overridden twice in one overrides list; the last one wins.' },
  'ruleset/inconsistent-rule-ids': { severity: 'warning', description: 'id/version/ref are present on some rules but not on others (pending bodies carry them, validation bodies do not).' },
  'ruleset/body-kind': { severity: 'information', description: 'Whether the body reads as a pending (config) body or as a validation body.' },
  'ruleset/override-action': { severity: 'warning', description: 'An override sets an action managed rules do not take (e.g. the old "simulate", now "log").' },
  'ruleset/override-score-threshold': { severity: 'warning', description: 'score_threshold is not one of the OWASP thresholds, or is set outside the OWASP anomaly rule.' },
  'ruleset/override-sensitivity': { severity: 'warning', description: 'sensitivity_level applies only to DDoS phases, not to http_request_firewall_managed.' },
  'ruleset/expr-too-long': { severity: 'error', description: 'An expression longer than 4096 bytes (UTF-8).' },
  'ruleset/expr-syntax': { severity: 'error', description: 'A rules-language syntax error in an expression.' },
  'ruleset/expr-unknown-field': { severity: 'error', description: 'An expression uses a field the rules language does not define.' },
  'ruleset/expr-unknown-function': { severity: 'error', description: 'An expression calls a function the rules language does not define.' },
  'ruleset/expr-arguments': { severity: 'error', description: 'A function is called with the wrong number of arguments.' },
  'ruleset/expr-type-mismatch': { severity: 'error', description: 'An operator, value or argument does not fit the type of a field or function.' },
  'ruleset/expr-array-result': { severity: 'error', description: 'An expression gives one boolean per array element; wrap it in any() or all().' },
  'ruleset/expr-invalid-ip': { severity: 'error', description: 'An IP address or CIDR literal is malformed.' },
  'ruleset/expr-invalid-regex': { severity: 'error', description: 'A "matches" regex does not compile or uses features Rust regex lacks.' },
  'ruleset/expr-invalid-wildcard': { severity: 'error', description: 'A wildcard pattern contains "**".' },
  'ruleset/expr-phase': { severity: 'warning', description: 'An expression reads a field or calls a function that the ruleset\'s phase cannot see (a response field in a request phase, a transform-only function).' },
  'ruleset/expr-deprecated-field': { severity: 'warning', description: 'An expression uses a deprecated field alias (ip.geoip.*).' },
};
