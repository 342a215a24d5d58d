// The synthetic signatures that stand for the managed rules in the mock's traffic simulation (docs/mock-backend.md, "Traffic and
// security events", has them as tables). Each is a rules-language expression evaluated by the core's evaluator on the request
// record (the rules language's field names). They are small and deliberately readable, not the platform's rules: enough for the
// generated hostile kinds to trigger different rules, scores and paranoia levels, so that the migration's settings change outcomes.
// No backslashes in the patterns: character classes ([.], [(]) instead of escapes. No vscode, no I/O.
import { createHash } from 'node:crypto';

/** A previous managed rule (Cloudflare package; its new counterpart in the Cloudflare Managed Ruleset has the id newRuleId(id)). */
export interface ManagedSignature { oldRule: string; tags: string[]; expression: string }
/** A rule of the previous OWASP ModSecurity Core Rule Set 2.x: an anomaly score contribution. */
export interface OldOwaspSignature { oldRule: string; score: number; expression: string }
/** A rule of the new Cloudflare OWASP Core Ruleset 3.x: a paranoia level and an anomaly score contribution. */
export interface OwaspSignature { id: string; name: string; paranoiaLevel: 1 | 2; score: number; expression: string }

const QUERY = 'url_decode(http.request.uri.query)';
const LQUERY = `lower(${QUERY})`;

const SQLI_UNION = `${LQUERY} matches "union[ +]+(all[ +]+)?select"`;
const SQLI_TAUTOLOGY = `${LQUERY} matches "'[ +]*or[ +]*'?1'?[ +]*=[ +]*'?1"`;
const XSS_SCRIPT = `${LQUERY} contains "<script"`;
const XSS_TAG = `${QUERY} matches "<[a-zA-Z]"`;
const XSS_HANDLER = `${LQUERY} matches "on(error|load|click|mouseover)[ +]*="`;
const TRAVERSAL = 'url_decode(http.request.uri, "r") contains "../"';
const OS_FILES = 'lower(url_decode(http.request.uri, "r")) matches "etc/(passwd|shadow)|[.]git/config|/[.]env$"';
const COMMAND_INJECTION = `${QUERY} matches "[;|\`][ +]*(cat|id|wget|curl|ls)[ +]"`;
const CODE_INJECTION = `${LQUERY} matches "<[?]php|phpinfo[(]|base64_decode[(]"`;
const ENCODING_ABUSE = 'lower(http.request.uri) matches "%2e%2e|%252e|%00"';
const SCANNER_UA = 'lower(http.user_agent) matches "nikto|zgrab|masscan|sqlmap|wpscan|nmap"';

/** The previous Cloudflare managed rules (mock/src/zones.ts CF_GROUPS) and, by newRuleId, their new Managed Ruleset rules. */
export const MANAGED_SIGNATURES: readonly ManagedSignature[] = [
  { oldRule: '100000', tags: ['cloudflare-specials', 'sqli'], expression: 'lower(http.user_agent) matches "sqlmap|havij|union.*select"' },
  // Stands for "Anomalous Host header": probes for files no site serves.
  { oldRule: '100001', tags: ['cloudflare-specials'], expression: 'http.request.uri.path in {"/.env" "/.git/config" "/server-status"}' },
  // Stands for "DotNetNuke - File Inclusion": path traversal.
  { oldRule: '100005', tags: ['cloudflare-specials', 'lfi'], expression: TRAVERSAL },
  { oldRule: '100030', tags: ['cloudflare-specials', 'struts'], expression: 'http.request.uri.query matches "^(redirect|redirectAction|action):"' },
  { oldRule: 'WP0004', tags: ['wordpress'], expression: 'http.request.uri.path in {"/wp-login.php" "/xmlrpc.php"}' },
  { oldRule: 'WP0025B', tags: ['wordpress'], expression: 'http.request.uri.path matches "^/wp-content/uploads/.*[.]php$"' },
  { oldRule: 'PHP100008', tags: ['php'], expression: CODE_INJECTION },
  { oldRule: 'PHP100011', tags: ['php'], expression: COMMAND_INJECTION },
  { oldRule: 'D0002', tags: ['drupal'], expression: 'http.request.uri.query contains "element_parents="' },
];

/** The previous OWASP ModSecurity Core Rule Set 2.x (mock/src/zones.ts OWASP_GROUPS). */
export const OLD_OWASP_SIGNATURES: readonly OldOwaspSignature[] = [
  { oldRule: '950001', score: 30, expression: SQLI_UNION },
  { oldRule: '950107', score: 15, expression: ENCODING_ABUSE },
  { oldRule: '959073', score: 10, expression: `${QUERY} matches "'|--"` },
  { oldRule: '981318', score: 25, expression: SQLI_TAUTOLOGY },
  { oldRule: '958000', score: 30, expression: XSS_SCRIPT },
  { oldRule: '973300', score: 20, expression: `${XSS_TAG} or ${XSS_HANDLER}` },
];

/** Rule id of the previous OWASP set in security events when the score reaches the sensitivity ("Inbound anomaly score"). */
export const OLD_OWASP_SCORE_RULE = '981176';
/** The previous OWASP set's thresholds by sensitivity (the platform's docs; Default is taken as Medium). */
export const OLD_OWASP_THRESHOLDS: Record<string, number> = { high: 25, medium: 40, low: 60, default: 40 };

function sigId(name: string): string {
  return createHash('sha256').update(`edgekit-owasp|${name}`).digest('hex').slice(0, 32);
}

function owasp(name: string, paranoiaLevel: 1 | 2, score: number, expression: string): OwaspSignature {
  return { id: sigId(name), name, paranoiaLevel, score, expression };
}

/** The new Cloudflare OWASP Core Ruleset 3.x: tagged `paranoia-level-N`; the score rule (OWASP_SCORE_RULE_ID) sums them. */
export const OWASP_SIGNATURES: readonly OwaspSignature[] = [
  owasp('SQL injection: UNION SELECT', 1, 30, SQLI_UNION),
  owasp('SQL injection: tautology', 1, 20, SQLI_TAUTOLOGY),
  owasp('SQL injection: quote in the query', 2, 15, `${QUERY} contains "'"`),
  owasp('SQL injection: SQL keywords', 2, 15, `${LQUERY} matches "[ +,](from|where|null)[ +,]"`),
  owasp('XSS: script tag', 1, 30, XSS_SCRIPT),
  owasp('XSS: event handler', 1, 20, XSS_HANDLER),
  owasp('XSS: HTML tag', 2, 15, XSS_TAG),
  owasp('Path traversal', 1, 20, TRAVERSAL),
  owasp('OS file access', 1, 20, OS_FILES),
  owasp('Security scanner', 1, 25, SCANNER_UA),
  owasp('Unix command injection', 1, 25, COMMAND_INJECTION),
  owasp('PHP injection', 1, 25, CODE_INJECTION),
  owasp('Automation user agent', 2, 10, 'lower(http.user_agent) matches "python-requests|curl/|go-http-client|badbot"'),
  owasp('URL encoding abuse', 2, 10, ENCODING_ABUSE),
];

/** Without overrides, the score rule's threshold and action (a choice of the mock: Medium, 40 or higher; block). */
export const OWASP_DEFAULT_THRESHOLD = 40;
export const OWASP_DEFAULT_ACTION = 'block';
/** Without overrides, a managed rule blocks. */
export const MANAGED_DEFAULT_ACTION = 'block';
