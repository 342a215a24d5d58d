// Facts about managed rulesets and the rules language, from /work/shared/reference/rulesets.md (sections 2-4).
// The field catalogue itself is generated (fields.generated.ts); this module types it and adds the hand-written tables.
import { NETWORK_FIREWALL_FIELD_ROWS, RULES_LANGUAGE_FIELD_ROWS } from './fields.generated';
import { signatureLabel, type SignatureLabel } from '../../text';

export const MANAGED_PHASE = 'http_request_firewall_managed';

export interface ManagedRuleset { id: string; name: string; phase: string; note?: string }

export const MANAGED_RULESET_ID = 'efb7b8c949ac4650a09736fc376e9aee';
export const OWASP_RULESET_ID = '4814384a9e5d4991b9815dcfc25d2f1f';

/** Managed ruleset ids (reference §2): the one list every part of EdgeKit (rules, completion, the mock) takes them from. */
export const MANAGED_RULESETS: readonly ManagedRuleset[] = [
  { id: MANAGED_RULESET_ID, name: 'Cloudflare Managed Ruleset', phase: MANAGED_PHASE },
  { id: OWASP_RULESET_ID, name: 'Cloudflare OWASP Core Ruleset', phase: MANAGED_PHASE,
    note: 'Paranoia levels via categories `paranoia-level-1`..`paranoia-level-4`; score threshold via a rule override on `6179ae15870a4bb7b2d480d4843b323c`.' },
  { id: 'c2e184081120413c86c3ab7e14069605', name: 'Cloudflare Exposed Credentials Check', phase: MANAGED_PHASE },
  { id: '77454fe2d30c4220b5701f6fdfb893ba', name: 'Cloudflare Free Managed Ruleset', phase: MANAGED_PHASE },
  { id: 'e22d83c647c64a3eae91b71b499d988e', name: 'Cloudflare Sensitive Data Detection', phase: 'http_response_firewall_managed',
    note: 'Runs in a response phase, not in http_request_firewall_managed.' },
];

/** OWASP rule "949110: Inbound Anomaly Score Exceeded": the one that carries score_threshold. */
export const OWASP_ANOMALY_RULE_ID = '6179ae15870a4bb7b2d480d4843b323c';
/** Actions allowed on the OWASP anomaly rule (reference §3, OWASP). */
export const OWASP_ANOMALY_ACTIONS = ['block', 'managed_challenge', 'js_challenge', 'log', 'challenge'] as const;
/** Dashboard score thresholds of the OWASP anomaly rule. */
export const OWASP_SCORE_THRESHOLDS: Record<number, string> = { 60: 'Low', 40: 'Medium (default)', 25: 'High' };

export function managedRuleset(id: string): ManagedRuleset | undefined {
  return MANAGED_RULESETS.find((r) => r.id === id);
}

/** Rule actions (Terraform provider enum, and transform_response_html from the API's OpenAPI). */
export const RULE_ACTIONS = ['block', 'challenge', 'compress_response', 'ddos_dynamic', 'execute', 'force_connection_close', 'js_challenge',
  'log', 'log_custom_field', 'managed_challenge', 'redirect', 'rewrite', 'route', 'score', 'serve_error', 'set_cache_control',
  'set_cache_settings', 'set_cache_tags', 'set_config', 'skip', 'transform_response_html'] as const;

/**
 * The terminating actions: when a rule with one of them matches, the phase's later rules are not evaluated. The "Terminating action?"
 * column of the Rules language's actions reference (developers.cloudflare.com/ruleset-engine/rules-language/actions/). Every other
 * action lets evaluation go on: execute runs a ruleset and comes back, skip skips what its parameters name (all remaining rules only
 * with "ruleset": "current" or "phase": "current"). Actions that page does not list (ddos_dynamic, force_connection_close, score,
 * set_cache_control, set_cache_tags, transform_response_html) are counted as not terminating.
 */
export const TERMINATING_ACTIONS: ReadonlySet<string> = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge', 'redirect',
  'serve_error', 'log_custom_field']);

/**
 * Actions the actions reference (developers.cloudflare.com/ruleset-engine/rules-language/actions/) makes "only available" in some
 * phases: each with those phases. rewrite is also taken by account-level custom rules that check for exposed credentials. Other
 * actions have no such statement there (a phase's own page lists what it takes), so nothing is checked for them.
 */
export const ACTION_PHASES: Readonly<Record<string, readonly string[]>> = {
  rewrite: ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform', 'http_request_firewall_custom'],
  redirect: ['http_request_dynamic_redirect', 'http_request_redirect'],
  route: ['http_request_origin'],
  set_config: ['http_config_settings'],
  compress_response: ['http_response_compression'],
  set_cache_settings: ['http_request_cache_settings'],
  serve_error: ['http_custom_errors'],
  log_custom_field: ['http_log_custom_fields'],
};

/** Actions that make sense for a rule in http_request_firewall_managed (deploy = execute, exception = skip). */
export const MANAGED_PHASE_ACTIONS = ['execute', 'skip'] as const;

/**
 * Whether a rule of the phase may take the action, as ruleset/action-phase decides it and completion offers it: the managed phase
 * takes execute and skip only; an action of ACTION_PHASES only its phases (judged in a phase the catalogue knows); any other action
 * is not checked.
 */
export function actionAvailable(action: string, phase: string): boolean {
  if (phase === MANAGED_PHASE) return (MANAGED_PHASE_ACTIONS as readonly string[]).includes(action);
  const only = Object.hasOwn(ACTION_PHASES, action) ? ACTION_PHASES[action] : undefined;
  return !only || only.includes(phase) || !(PHASES as readonly string[]).includes(phase);
}

/**
 * The phases a skip rule's "phases" can skip (waf/custom-rules/skip/options.mdx, "Skip phases": "The phases you can skip are the
 * following"): all three run after the custom rules' phase (ruleset-engine/reference/phases-list.mdx, in execution order). The
 * remaining rules of the rule's own phase are skipped with "ruleset": "current", or "phase": "current" (zone-level
 * http_request_firewall_custom only).
 */
export const SKIPPABLE_PHASES = ['http_ratelimit', 'http_request_sbfm', 'http_request_firewall_managed'] as const;

/**
 * The phases in the order they run, as ruleset-engine/reference/phases-list.mdx lists them ("in the order those phases are
 * executed"; of the request and of the response phases, "The phases execute in the order they appear in the table"; cloudflare-docs
 * 046f5f9e and e4b98d09 agree): the network layer's, then the request's, then the response's. http_ratelimit runs in both tables
 * (in the response's "when they use response information"), so it has two places. Left out, their place not settled: ddos_l7 (the
 * list's "*": "for configuration purposes only — the corresponding rules will not be executed at this stage") and
 * http_response_cache_settings (not in the list); the internal phases (Waiting Room, Access, Managed Transforms) have no name to
 * skip. Phases the list names and PHASES does not (API Shield's, Snippets, Cloud Connector) keep their places: only the order counts.
 */
export const PHASE_ORDER: readonly string[] = [
  'ddos_l4', 'magic_transit', 'magic_transit_managed', 'magic_transit_ratelimit', 'magic_transit_ids_managed',
  'http_request_sanitize', 'http_request_dynamic_redirect', 'http_request_transform', 'http_request_api_gateway_early', 'http_config_settings',
  'http_request_origin', 'http_request_firewall_custom', 'http_ratelimit', 'http_request_api_gateway_late', 'http_request_firewall_managed',
  'http_request_sbfm', 'http_request_redirect', 'http_request_late_transform', 'http_request_cache_settings', 'http_request_snippets',
  'http_request_cloud_connector',
  'http_custom_errors', 'http_response_headers_transform', 'http_ratelimit', 'http_response_compression', 'http_response_firewall_managed',
  'http_log_custom_fields',
];

/** Whether every run of phase `named` is over before phase `own` first runs (PHASE_ORDER); false when either has no place there. */
export function phaseRunsBefore(named: string, own: string): boolean {
  const places = (p: string) => PHASE_ORDER.flatMap((q, i) => (q === p ? [i] : []));
  const a = places(named), b = places(own);
  return a.length > 0 && b.length > 0 && Math.max(...a) < Math.min(...b);
}

/**
 * The level whose entry points a phase has, where the docs settle it (docs/architecture.md, ux14): an account's (a ruleset of kind
 * "root") or a zone's ("zone"). Account only: Bulk Redirects ("Add Bulk Redirect Rules to the entry point ruleset of the
 * http_request_redirect phase at the account level"), Network-layer DDoS Attack Protection (its overrides: the ddos_l4 phase "at the
 * account level") and Network Firewall (an account's root ruleset; managed rulesets listed under /accounts/). Zone only: the Rules
 * products whose pages deploy their rules "to the <phase> phase at the zone level" and describe no account entry point. Not here
 * (both levels, or not settled): the WAF's custom, managed and rate limiting phases and ddos_l7 (documented at both), Custom Errors,
 * Sensitive Data Detection, Super Bot Fight Mode and URL normalization.
 */
export const PHASE_LEVELS: Readonly<Record<string, { level: 'zone' | 'account'; product: string }>> = {
  http_request_redirect: { level: 'account', product: 'Bulk Redirects' },
  ddos_l4: { level: 'account', product: 'Network-layer DDoS Attack Protection' },
  magic_transit: { level: 'account', product: 'Network Firewall' },
  magic_transit_managed: { level: 'account', product: 'Network Firewall managed rulesets' },
  magic_transit_ratelimit: { level: 'account', product: 'Network Firewall rate limiting rules' },
  magic_transit_ids_managed: { level: 'account', product: 'Network Firewall IDS' },
  http_request_dynamic_redirect: { level: 'zone', product: 'Single Redirects' },
  http_request_transform: { level: 'zone', product: 'URL Rewrite Rules' },
  http_config_settings: { level: 'zone', product: 'Configuration Rules' },
  http_request_origin: { level: 'zone', product: 'Origin Rules' },
  http_request_late_transform: { level: 'zone', product: 'Request Header Transform Rules' },
  http_request_cache_settings: { level: 'zone', product: 'Cache Rules' },
  http_response_headers_transform: { level: 'zone', product: 'Response Header Transform Rules' },
  http_response_compression: { level: 'zone', product: 'Compression Rules' },
  http_response_cache_settings: { level: 'zone', product: 'Cache Response Rules' },
  http_log_custom_fields: { level: 'zone', product: 'Logpush custom fields' },
};

/**
 * A ruleset kind that does not fit its phase's level (PHASE_LEVELS): "root" (an account's) with a zone's phase, "zone" with an
 * account's; "custom" with any of these phases, for another reason: custom rulesets are the WAF's only (they are deployed at both
 * levels, waf/account/custom-rulesets), and none of these phases is the WAF's. The message says why; `fit` is the kind to write
 * where one is meant beyond doubt (an entry point of the other level: root for zone, zone for root; a custom ruleset has no entry
 * point kind it surely meant). Undefined when it fits, when either
 * is not a string, or when the docs do not settle the phase's level. The ruleset check and the Terraform export give this reason.
 */
export function kindPhaseMismatch(kind: unknown, phase: unknown): { message: string; fit?: 'zone' | 'root' } | undefined {
  if (typeof kind !== 'string' || typeof phase !== 'string' || !Object.hasOwn(PHASE_LEVELS, phase)) return undefined;
  const { level, product } = PHASE_LEVELS[phase];
  if (kind === 'custom') {
    // Custom rulesets are deployed at both levels (waf/account/custom-rulesets), but in the WAF's phases only (rv24), and every
    // phase of PHASE_LEVELS is another product's: a zone's or, as much, an account's (rl10)
    const entry = level === 'zone' ? 'a zone\'s entry point ("kind": "zone")' : 'an account\'s entry point ("kind": "root")';
    return { message: `"kind": "custom" is a custom ruleset, and custom rulesets are only supported by the Cloudflare WAF (ruleset-engine/about/rulesets.mdx): phase ${phase} (${product}) takes its rules in ${entry}.` };
  }
  if (level === 'zone' && kind === 'root') {
    return { message: `"kind": "root" is an account's entry point, but phase ${phase} (${product}) is a zone's: the docs configure it at the zone level only, in a zone's entry point ("kind": "zone").`, fit: 'zone' };
  }
  if (level === 'account' && kind === 'zone') {
    return { message: `"kind": "zone" is a zone's entry point, but phase ${phase} (${product}) is an account's: the docs configure it at the account level only, in an account's entry point ("kind": "root").`, fit: 'root' };
  }
  return undefined;
}

/** Actions an override may set on managed rules. */
export const OVERRIDE_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;

/** DDoS sensitivity levels (DDoS phases only). */
export const SENSITIVITY_LEVELS = ['default', 'medium', 'low', 'eoff'] as const;

export const PHASES = ['ddos_l4', 'ddos_l7', 'http_config_settings', 'http_custom_errors', 'http_log_custom_fields', 'http_ratelimit',
  'http_request_cache_settings', 'http_request_dynamic_redirect', 'http_request_firewall_custom', 'http_request_firewall_managed',
  'http_request_late_transform', 'http_request_origin', 'http_request_redirect', 'http_request_sanitize', 'http_request_sbfm',
  'http_request_transform', 'http_response_cache_settings', 'http_response_compression', 'http_response_firewall_managed',
  'http_response_headers_transform', 'magic_transit', 'magic_transit_ids_managed', 'magic_transit_managed', 'magic_transit_ratelimit'] as const;

// ---- rules language types ----

export type Ty =
  | { t: 'Boolean' } | { t: 'Integer' } | { t: 'String' } | { t: 'Bytes' } | { t: 'IP' } | { t: 'Unknown' }
  | { t: 'Array'; of: Ty } | { t: 'Map'; of: Ty };

export const T = {
  Boolean: { t: 'Boolean' } as Ty, Integer: { t: 'Integer' } as Ty, String: { t: 'String' } as Ty, Bytes: { t: 'Bytes' } as Ty,
  IP: { t: 'IP' } as Ty, Unknown: { t: 'Unknown' } as Ty,
};

export function parseTy(s: string): Ty {
  const m = /^(Array|Map)<(.*)>$/.exec(s);
  if (m) return { t: m[1] as 'Array' | 'Map', of: parseTy(m[2]) };
  switch (s) {
    case 'Boolean': case 'Integer': case 'String': case 'Bytes': case 'IP': return { t: s };
    default: return T.Unknown;
  }
}

export function tyName(ty: Ty): string {
  return ty.t === 'Array' || ty.t === 'Map' ? `${ty.t}<${tyName(ty.of)}>` : ty.t;
}

export function sameTy(a: Ty, b: Ty): boolean {
  if (a.t === 'Unknown' || b.t === 'Unknown') return true;
  if (a.t !== b.t) return false;
  if ((a.t === 'Array' || a.t === 'Map') && (b.t === 'Array' || b.t === 'Map')) return sameTy(a.of, b.of);
  return true;
}

/** stage: when the field is set (see fields.generated.ts): response fields are readable in response phases only. */
/** lowerKeys: a map whose keys the platform lower-cases (http.request.headers: "keys lowercased" in the catalogue). */
/** transformOnly: a field the fields reference makes available in Transform Rules only ("Transform Rules only", "Transform Rules
 * rewrite expressions only" in the catalogue: ip.src.timezone.name, http.request.accepted_languages). */
/** only: the phases a field has a value in, when the docs name them (FIELD_PHASES), and the rule kinds they are, for messages. */
export interface FieldInfo {
  name: string; type: Ty; notes: string; stage: 'request' | 'response'; deprecatedFor?: string; lowerKeys: boolean; transformOnly: boolean;
  only?: { phases: readonly string[]; rules: string };
}

/**
 * Fields the platform's changelog or reference makes available in some kinds of rules only, by phase. cf.appsec.request.failed_detections:
 * src/content/changelog/rules/2026-10-09-failed-detections.mdx, "Supported rules: Custom rules ...; Rate limiting rules ...; Request
 * Header Transform Rules at the zone level".
 */
const FIELD_ONLY: Readonly<Record<string, { phases: readonly string[]; rules: string }>> = {
  'cf.appsec.request.failed_detections': {
    phases: ['http_request_firewall_custom', 'http_ratelimit', 'http_request_late_transform'],
    rules: 'custom rules, rate limiting rules and request header transform rules',
  },
};

function fieldMap(rows: typeof RULES_LANGUAGE_FIELD_ROWS): ReadonlyMap<string, FieldInfo> {
  return new Map(rows.map(([name, type, notes, stage]) => {
    const dep = /^deprecated alias of (\S+)$/.exec(notes);
    return [name, {
      name, type: parseTy(type), notes, stage, lowerKeys: notes.includes('keys lowercased'),
      transformOnly: /\bTransform Rules (rewrite expressions )?only\b/.test(notes), ...(dep ? { deprecatedFor: dep[1] } : {}),
      ...(Object.hasOwn(FIELD_ONLY, name) ? { only: FIELD_ONLY[name] } : {}),
    }];
  }));
}

/** The HTTP fields: what every phase but the Network Firewall's reads. */
export const FIELDS: ReadonlyMap<string, FieldInfo> = fieldMap(RULES_LANGUAGE_FIELD_ROWS);

/** The Network Firewall's phases: their rules match packets, on fields of their own (ip.proto, tcp.dstport, ...). */
export const NETWORK_PHASES: readonly string[] = ['magic_transit', 'magic_transit_managed', 'magic_transit_ratelimit', 'magic_transit_ids_managed'];
export const NETWORK_FIELDS: ReadonlyMap<string, FieldInfo> = fieldMap(NETWORK_FIREWALL_FIELD_ROWS);

/** The field catalogue a phase reads (undefined: an HTTP phase), with its names for "did you mean" and what it is called. */
export interface FieldCatalogue { fields: ReadonlyMap<string, FieldInfo>; names: readonly string[]; label: string }
const HTTP_CATALOGUE: FieldCatalogue = { fields: FIELDS, names: [...FIELDS.keys()], label: 'an HTTP field' };
const NETWORK_CATALOGUE: FieldCatalogue = { fields: NETWORK_FIELDS, names: [...NETWORK_FIELDS.keys()], label: 'a Network Firewall field' };
export function fieldCatalogue(phase?: string): FieldCatalogue {
  return phase !== undefined && NETWORK_PHASES.includes(phase) ? NETWORK_CATALOGUE : HTTP_CATALOGUE;
}
/** The other catalogue: where a field unknown to the phase's own comes from, if anywhere. */
export function otherCatalogue(c: FieldCatalogue): FieldCatalogue {
  return c === HTTP_CATALOGUE ? NETWORK_CATALOGUE : HTTP_CATALOGUE;
}

/** A parameter that takes several types (wirefilter's function signatures): e.g. concat() takes bytes or arrays, never integers. */
export interface ParamClass { kinds: readonly Ty['t'][]; name: string }

const SEQUENCE: ParamClass = { kinds: ['String', 'Bytes', 'Array'], name: 'a string, bytes or an array' };
const TO_STRING: ParamClass = { kinds: ['Integer', 'Boolean', 'IP'], name: 'an integer, a boolean or an IP address' };
const JSON_KEY: ParamClass = { kinds: ['String', 'Integer'], name: 'a string key or an integer index' };
const TEXT: ParamClass = { kinds: ['String', 'Bytes'], name: 'a string or bytes' };
const MAP: ParamClass = { kinds: ['Map'], name: 'a map' };
const COLLECTION: ParamClass = { kinds: ['Map', 'Array'], name: 'a map or an array' };
const PRIMITIVE: ParamClass = { kinds: ['Boolean', 'Integer', 'String', 'Bytes', 'IP'], name: 'a boolean, an integer, a string, bytes or an IP address' };

export function isParamClass(p: unknown): p is ParamClass {
  return typeof p === 'object' && p !== null && 'kinds' in p;
}

/**
 * What the platform asks of an argument beyond its type (the functions reference): a field or a literal ("must be a field, that
 * is, it cannot be a literal"), the fields it may be, a literal's range or option letters, a pattern that must compile. The
 * reference's sentence for each 'field' and 'literal' rule is in test/unit/ruleset/functionArgs.test.ts, which fails when this table
 * and those sentences disagree.
 */
export interface ArgRule {
  /** The reference's name for the argument (`source`, `options`, `MessageMAC`), which messages give after its position. */
  name: string;
  /** 'field': not a literal value (a field, a call, an expression); 'literal': a literal value. */
  kind?: 'field' | 'literal';
  fields?: readonly string[];
  /** An integer literal's range, inclusive. */
  range?: readonly [number, number];
  /** A string literal must not be empty. */
  nonEmpty?: boolean;
  /** A string literal of option letters, each one of these. */
  options?: string;
  /** A string literal that is a regex (checked as "matches" checks its regex) or a wildcard pattern. */
  pattern?: 'regex' | 'wildcard';
}

/**
 * A function's signature, the one table every check of a call reads: parameter types ('array' accepts any array; a ParamClass one of
 * its types; `rest` repeats the last parameter), how many trailing parameters are optional, the result type.
 */
export interface FunctionInfo {
  name: string;
  params: (Ty | 'array' | ParamClass)[];
  optional?: number;
  rest?: boolean;
  /** With `rest`: the most arguments a call takes (none: no bound). */
  maxArgs?: number;
  /** Every argument must be of the first one's kind (concat: strings/bytes together, or arrays together). */
  sameKindAsFirst?: boolean;
  /** The second argument must be of the type of the first one's elements (has_value: a value of the collection's type). */
  elementOfFirst?: boolean;
  /** Rules on the arguments beyond their types, by position. */
  args?: readonly (ArgRule | undefined)[];
  /** The functions reference's name of each parameter, where `args` gives none (the signature shows `name: Type`; a function the
   * reference writes with types alone, such as lower(String), has none). */
  names?: readonly (string | undefined)[];
  /** The phases whose rule expressions may call it (the platform's functions reference); absent: every phase. */
  phases?: readonly string[];
  /** Result type; 'arg0' means "same as the first argument". */
  result: Ty | 'arg0';
  doc: string;
}

const S = T.String, I = T.Integer, B = T.Boolean;
/** An argument that must be a field (a call of one passes), or a literal, by the reference's name for it. */
const field = (name: string): ArgRule => ({ name, kind: 'field' });
const literal = (name: string, more: Omit<ArgRule, 'name' | 'kind'> = {}): ArgRule => ({ name, kind: 'literal', ...more });

/** Phases of the platform's rule kinds, for the functions that only some of them take. */
export const TRANSFORM = ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'];
const REDIRECT = ['http_request_dynamic_redirect'];
const CUSTOM_AND_RATE = ['http_request_firewall_custom', 'http_ratelimit'];

/** Whether a phase runs once the response exists, so that response fields (http.response.*) have values there. */
export function phaseSeesResponse(phase: string): boolean {
  return phase.startsWith('http_response_') || phase === 'http_custom_errors' || phase === 'http_log_custom_fields';
}

/**
 * split(): the functions reference names response header transform rules and Custom Error Rules; a cache response rule's tags
 * expression uses it too (terraform-provider-cloudflare's acceptance test TestAccCloudflareRuleset_SetCacheTagsRules/2.tf, phase
 * http_response_cache_settings: `split(http.response.headers["cache-tag-ext"][0], ",", 1)`).
 */
const SPLIT_PHASES = ['http_response_headers_transform', 'http_custom_errors', 'http_response_cache_settings'];

/** Functions of the rules language (reference §4, FN). */
export const FUNCTIONS: ReadonlyMap<string, FunctionInfo> = new Map(([
  { name: 'any', params: [{ t: 'Array', of: B }], result: B, doc: 'True when any element of an array of booleans is true, e.g. `any(http.request.headers.names[*] == "x")`.' },
  { name: 'all', params: [{ t: 'Array', of: B }], result: B, doc: 'True when every element of an array of booleans is true.' },
  { name: 'bit_slice', params: [S, I, I], names: ['protocol'], args: [undefined, { name: 'offset_start', range: [0, 2040] }, { name: 'offset_end', range: [0, 2040] }], phases: NETWORK_PHASES, result: I, doc: 'The bits from offset_start to offset_end of a protocol\'s header (e.g. "udp"; at most 32 bits, offsets up to 2040), as a number (Network Firewall).' },
  { name: 'cidr', params: [T.IP, I, I], args: [field('address'), { name: 'ipv4_network_bits', range: [1, 32] }, { name: 'ipv6_network_bits', range: [1, 128] }], phases: CUSTOM_AND_RATE, result: T.IP, doc: 'The network of an IP address for the given IPv4 and IPv6 prefix lengths (custom and rate limiting rules only).' },
  { name: 'cidr6', params: [T.IP, I], args: [field('address'), { name: 'ipv6_network_bits', range: [1, 128] }], phases: CUSTOM_AND_RATE, result: T.IP, doc: 'The network of an IPv6 address for the given prefix length.' },
  { name: 'coalesce', params: [PRIMITIVE], rest: true, sameKindAsFirst: true, result: 'arg0', doc: 'The first argument that has a value (is not nil), e.g. `coalesce(http.request.uri.args["path"][0], "/")`; every argument of one type (since 2026-10-01).' },
  // At most 32 arguments: src/content/changelog/rules/2026-09-22-concat-argument-limit.mdx ("up to 32 arguments, increased from 16")
  { name: 'concat', params: [SEQUENCE, SEQUENCE], rest: true, maxArgs: 32, sameKindAsFirst: true, result: 'arg0', doc: 'Concatenates strings, bytes or arrays (2 to 32 arguments).' },
  { name: 'decode_base64', params: [S], args: [field('source')], phases: [...TRANSFORM, ...CUSTOM_AND_RATE], result: S, doc: 'Decodes a Base64 string (transform, custom and rate limiting rules).' },
  { name: 'encode_base64', params: [TEXT, S], optional: 1, args: [undefined, { name: 'flags', options: 'up' }], result: S, doc: 'Encodes a string or bytes to Base64; flags "u" URL-safe, "p" padded (default: standard, no padding).' },
  { name: 'ends_with', params: [S, S], args: [field('source')], names: [undefined, 'substring'], result: B, doc: 'True when the first argument ends with the second. A function, not an operator.' },
  { name: 'has_key', params: [MAP, S], result: B, doc: 'True when the map has the key, e.g. `has_key(http.request.headers, "x-my-header")`.' },
  { name: 'has_value', params: [COLLECTION, PRIMITIVE], elementOfFirst: true, result: B, doc: 'True when the map or array holds the value (of its element type), e.g. `has_value(http.request.headers.names, "X-My-Header")`.' },
  { name: 'hash_in_range', params: [I, I, PRIMITIVE], rest: true, result: I, doc: 'Hashes the fields given after the range into an integer from the first argument to the second, e.g. `hash_in_range(0, 100, cf.random_seed) < 10` for about a tenth of requests (HTTP products, since 2026-10-02).' },
  { name: 'is_jwt_present', params: [S], result: B, doc: 'True when the request carries a token as the API Shield token configuration with this ID describes.' },
  { name: 'is_jwt_valid', params: [S], result: B, doc: 'True when the request carries a token valid for the API Shield token configuration with this ID.' },
  { name: 'join', params: [{ t: 'Array', of: S }, S], names: ['items', 'separator'], phases: [...TRANSFORM, 'http_request_firewall_custom', 'http_custom_errors'], result: S, doc: 'Joins an array of strings with a separator (transform, custom and custom error rules).' },
  { name: 'len', params: [SEQUENCE], result: I, doc: 'The length of a string, bytes or an array.' },
  { name: 'lookup_json_integer', params: [S, JSON_KEY], rest: true, names: ['field', 'key'], result: I, doc: 'The integer at a key path in a JSON string.' },
  { name: 'lookup_json_string', params: [S, JSON_KEY], rest: true, names: ['field', 'key'], result: S, doc: 'The string at a key path in a JSON string.' },
  { name: 'lower', params: [S], result: S, doc: 'Converts a string to lowercase.' },
  { name: 'regex_replace', params: [S, S, S], names: ['source', undefined, 'replacement'], args: [undefined, { name: 'regular_expression', pattern: 'regex' }], phases: [...TRANSFORM, ...REDIRECT], result: S, doc: 'Replaces the first regex match (rewrite and redirect rules only; once per expression).' },
  { name: 'remove_bytes', params: [T.Bytes, T.Bytes], result: T.Bytes, doc: 'Removes the given bytes.' },
  { name: 'remove_query_args', params: [S, S], rest: true, names: [undefined, 'query_param'], args: [{ name: 'field', kind: 'field', fields: ['http.request.uri.query', 'raw.http.request.uri.query'] }], phases: TRANSFORM, result: S, doc: 'Removes query arguments (rewrite rules only).' },
  { name: 'sha256', params: [TEXT], result: T.Bytes, doc: 'The SHA-256 hash (32 bytes) of a string or bytes; often inside encode_base64() (needs enablement on the account).' },
  { name: 'split', params: [S, S, I], names: ['input'], args: [undefined, literal('separator', { nonEmpty: true }), literal('limit', { range: [1, 128] })], phases: SPLIT_PHASES, result: { t: 'Array', of: S }, doc: 'Splits a string by a separator into at most limit (1-128) parts (response header transform, custom error and cache response rules).' },
  { name: 'starts_with', params: [S, S], args: [field('source')], names: [undefined, 'substring'], result: B, doc: 'True when the first argument starts with the second. A function, not an operator.' },
  { name: 'substring', params: [S, I, I], optional: 1, names: ['field', 'start', 'end'], result: S, doc: 'The part of a string between a start and an optional end index.' },
  { name: 'to_string', params: [TO_STRING], phases: [...TRANSFORM, ...REDIRECT, 'http_request_redirect'], result: S, doc: 'Converts an integer, boolean or IP address to a string (transform rules and redirects only).' },
  { name: 'upper', params: [S], result: S, doc: 'Converts a string to uppercase.' },
  { name: 'url_decode', params: [S, S], optional: 1, args: [field('source'), literal('options', { options: 'ru' })], result: S, doc: 'Decodes a URL-encoded string.' },
  { name: 'uuidv4', params: [T.Bytes], names: ['source'], phases: TRANSFORM, result: S, doc: 'A random UUIDv4 from a seed (e.g. cf.random_seed).' },
  { name: 'wildcard_replace', params: [S, S, S, S], optional: 1, names: [undefined, undefined, 'replacement'], args: [field('source'), { name: 'wildcard_pattern', pattern: 'wildcard' }, undefined, { name: 'flags', options: 's' }], phases: [...TRANSFORM, ...REDIRECT], result: S, doc: 'Replaces a wildcard match with a replacement that may use captures.' },
  { name: 'is_timed_hmac_valid_v0', params: [S, S, I, I, I, S], optional: 2, names: [undefined, undefined, undefined, 'currentTimeStamp'], args: [literal('Key'), field('MessageMAC'), literal('ttl'), undefined, literal('lengthOfSeparator'), literal('flags', { options: 's' })], phases: ['http_request_firewall_custom'], result: B, doc: 'Validates a timed HMAC token (Pro and above).' },
] as FunctionInfo[]).map((f) => [f.name, f]));

/** A function's signature as the reference writes it, from the table: `substring(String, Integer, Integer?): String`. */
export function signature(fn: FunctionInfo): string {
  return signatureParts(fn).label;
}

/** signature()'s label with each parameter's place in it (a rest function's ", ..." follows its last one), the one builder of it. */
export function signatureParts(fn: FunctionInfo): SignatureLabel {
  const required = fn.params.length - (fn.optional ?? 0);
  // By the reference's name where it has one (`end?: Integer`), else by type (`Integer?`)
  const params = fn.params.map((p, k) => {
    const type = p === 'array' ? 'Array' : isParamClass(p) ? p.kinds.join(' | ') : tyName(p);
    const name = fn.names?.[k] ?? fn.args?.[k]?.name;
    const optional = k >= required ? '?' : '';
    return name ? `${name}${optional}: ${type}` : `${type}${optional}`;
  });
  const result = fn.result === 'arg0' ? 'the first argument\'s type' : tyName(fn.result);
  return signatureLabel(`${fn.name}(`, params, `${fn.rest ? ', ...' : ''}): ${result}`);
}

/** Field and function names as lists, for "did you mean". */
export const FIELD_NAMES: readonly string[] = HTTP_CATALOGUE.names;
export const FUNCTION_NAMES: readonly string[] = [...FUNCTIONS.keys()];

/**
 * The rate limiting characteristics that are no field of the rules language (waf/rate-limiting-rules/parameters.mdx: "Do not use
 * cf.colo.id as a field in expressions"; cf.unique_visitor_id is "IP with NAT support", in no field reference), with what they count.
 */
export const CHARACTERISTIC_ONLY: ReadonlyMap<string, string> = new Map([
  ['cf.colo.id', 'the data center, mandatory'],
  ['cf.unique_visitor_id', 'IP with NAT support'],
]);

/** The characteristics of the rate limiting parameters page's table (waf/rate-limiting-rules/parameters.mdx, cloudflare-docs 12dd7ce),
 * as messages name them; beside them the table's "Custom (enter expression)": a value such as lower(...) or substring(...). */
export const RATE_LIMIT_CHARACTERISTICS: readonly string[] = ['cf.colo.id', 'ip.src', 'cf.unique_visitor_id', 'http.request.headers["<name>"]',
  'http.request.cookies["<name>"]', 'http.request.uri.args["<name>"]', 'http.host', 'http.request.uri.path', 'ip.src.asnum', 'ip.src.country',
  'cf.bot_management.ja3_hash', 'cf.bot_management.ja4', 'lookup_json_string(http.request.body.raw, "<key>")',
  'lookup_json_integer(http.request.body.raw, "<key>")', 'http.request.body.form["<name>"]', 'http.request.body.raw', 'http.request.body.size'];

/** The rate limiting phase: its rules count requests (a "ratelimit" object), but for the account's execute rules that deploy a ruleset. */
export const RATE_LIMIT_PHASE = 'http_ratelimit';
