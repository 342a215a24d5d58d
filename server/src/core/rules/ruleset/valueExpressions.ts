// Where a rule holds rules-language expressions, and what each must give. Besides the rule's match expression (a condition), the
// platform reads VALUE expressions inside a rule: a header's value, a rewritten URL path or query, a redirect's target URL, a bulk
// redirect's list key, cache tags, the credentials an exposed-credential check reads; and a rate limiting rule's counting
// expression, a condition again. The one table below is what the checks (rules.ts), the editor features (assist.ts, selection.ts)
// and the semantic tokens read; sources in docs/architecture.md, "Value expressions".
import type { JsonPath } from '../../types';
import { CHARACTERISTIC_ONLY, FIELDS, FUNCTIONS, RATE_LIMIT_CHARACTERISTICS, T, tyName, type Ty } from './catalog';
import { children, walk, type Expr, type ExprProblem, type ListNode, type Literal, type RangeNode, type SetNode } from './exprParser';
import { isObj } from './body';
import { wordList } from '../../messages';

/** What kind of rewrite a value expression is, for the functions the reference makes available in some rewrite expressions only. */
export type RewriteKind = 'url' | 'header' | 'redirect' | 'other';

export interface ExpressionSite {
  /** The path inside a rule; '*' stands for any member name (a header's). */
  at: readonly string[];
  /** 'match': a condition, as the rule's expression; 'value': a value of `type`. */
  role: 'match' | 'value';
  type: Ty;
  /** The value as messages name it ("URI path rewrite"); a header's adds its name. */
  what: string;
  rewrite: RewriteKind;
  /** An empty string is no expression here: the platform uses the rule's match expression instead (a counting expression); or the
   * schema refuses it already (a rate limiting characteristic: minLength), and an empty expression's syntax error would say it twice. */
  emptyIsUnset?: true;
  /** Response fields have values here whatever the phase (a counting expression with one counts once the response is sent). */
  seesResponse?: true;
  /** An exposed-credential expression: few functions, none nested, at most 1024 characters (credentialProblems). */
  credential?: true;
  /** Values that are names of the site's own, not expressions (a rate limiting characteristic "cf.colo.id"). */
  names?: ReadonlyMap<string, string>;
}


const STRING = T.String;

/**
 * Every place of a rule that holds an expression. Rewrite and redirect parameters: rules/transform/url-rewrite/reference/parameters.mdx
 * (uri.path / uri.query "expression"), request- and response-header-modification/reference/parameters.mdx (headers.<name>.expression,
 * operation "set", and "add" for response headers), rules/url-forwarding/single-redirects/settings.mdx (from_value.target_url.expression:
 * "The result of evaluating this expression will be used in the Location HTTP header"), bulk-redirects/reference/json-objects
 * (from_list.key: "An expression that defines the value that will be matched against the list"). Cache tags: the Rulesets API's
 * AddCacheTagsExpression ("An expression that evaluates to an array of cache tag values"). exposed_credential_check and
 * ratelimit.counting_expression: the Rulesets API's rule object.
 */
export const EXPRESSION_SITES: readonly ExpressionSite[] = [
  { at: ['expression'], role: 'match', type: T.Boolean, what: 'match expression', rewrite: 'other' },
  { at: ['action_parameters', 'uri', 'path', 'expression'], role: 'value', type: STRING, what: 'URI path rewrite', rewrite: 'url' },
  { at: ['action_parameters', 'uri', 'query', 'expression'], role: 'value', type: STRING, what: 'query string rewrite', rewrite: 'url' },
  { at: ['action_parameters', 'headers', '*', 'expression'], role: 'value', type: STRING, what: 'header value', rewrite: 'header' },
  { at: ['action_parameters', 'from_value', 'target_url', 'expression'], role: 'value', type: STRING, what: 'redirect target URL', rewrite: 'redirect' },
  { at: ['action_parameters', 'from_list', 'key'], role: 'value', type: STRING, what: 'list lookup key', rewrite: 'other' },
  { at: ['action_parameters', 'expression'], role: 'value', type: { t: 'Array', of: STRING }, what: 'cache tags expression', rewrite: 'other' },
  { at: ['exposed_credential_check', 'username_expression'], role: 'value', type: STRING, what: 'user name expression', rewrite: 'other', credential: true },
  { at: ['exposed_credential_check', 'password_expression'], role: 'value', type: STRING, what: 'password expression', rewrite: 'other', credential: true },
  // waf/rate-limiting-rules/parameters.mdx, "Increment counter when": "By default, the counting expression is the same as the rule
  // matching expression ... This default is also applied when you set this field to an empty string", and create-api.mdx's Example D
  // sends `"counting_expression": ""`. Same section: "The counting expression can include HTTP response fields ... When there are
  // response fields in the counting expression, the counting will happen after the response is sent"
  { at: ['ratelimit', 'counting_expression'], role: 'match', type: T.Boolean, what: 'counting expression', rewrite: 'other', emptyIsUnset: true, seesResponse: true },
  // The same page's characteristics: each a field ("ip.src", http.request.headers["<header_name>"]), a function's value
  // (lookup_json_string(http.request.body.raw, "<key>")) or "Custom (enter expression) ... a function such as substring() or
  // lower(), or a more complex expression" — a value of any type; cf.colo.id and cf.unique_visitor_id are names of their own
  { at: ['ratelimit', 'characteristics', '#'], role: 'value', type: T.Unknown, what: 'rate limiting characteristic', rewrite: 'other', names: CHARACTERISTIC_ONLY, emptyIsUnset: true },
];

export const MATCH_SITE: ExpressionSite = EXPRESSION_SITES[0];

/** The site a document path is at (["rules", 3, "action_parameters", "headers", "X-A", "expression"]), or undefined. */
export function siteOfPath(path: JsonPath): ExpressionSite | undefined {
  if (path.length < 3 || path[0] !== 'rules' || typeof path[1] !== 'number') return undefined;
  const rest = path.slice(2);
  return EXPRESSION_SITES.find((s) => s.at.length === rest.length
    && s.at.every((k, j) => (k === '#' ? typeof rest[j] === 'number' : typeof rest[j] === 'string' && (k === '*' || k === rest[j]))));
}

export const isExpressionPath = (path: JsonPath): boolean => siteOfPath(path) !== undefined;

export interface SiteUse { path: JsonPath; src: string; site: ExpressionSite }

/** The values at `at` inside `root` ('*' any member name, '#' any element of an array), each with its path (`path` then the names
 * and indexes taken), in member order. */
export function valuesAt(root: unknown, at: readonly string[], path: JsonPath): { path: JsonPath; value: unknown }[] {
  const out: { path: JsonPath; value: unknown }[] = [];
  const visit = (v: unknown, k: number, p: JsonPath) => {
    if (k === at.length) { out.push({ path: p, value: v }); return; }
    const key = at[k];
    if (key === '#') { if (Array.isArray(v)) v.forEach((item, j) => visit(item, k + 1, [...p, j])); return; }
    if (!isObj(v)) return;
    if (key !== '*') { if (Object.hasOwn(v, key)) visit(v[key], k + 1, [...p, key]); return; }
    for (const name of Object.keys(v)) visit(v[name], k + 1, [...p, name]);
  };
  visit(root, 0, path);
  return out;
}

/** The expressions rule i holds (the strings at the sites; another type is the schema's to report), in the table's order. */
export function expressionsOf(rule: unknown, i: number): SiteUse[] {
  const out: SiteUse[] = [];
  if (!isObj(rule)) return out;
  for (const site of EXPRESSION_SITES) {
    if (!Object.hasOwn(rule, site.at[0])) continue; // most rules hold two or three of the sites: no walk for the others
    for (const { path, value } of valuesAt(rule, site.at, ['rules', i])) {
      if (typeof value === 'string' && !(value === '' && site.emptyIsUnset) && !site.names?.has(value.trim())) out.push({ path, src: value, site });
    }
  }
  return out;
}

/** How messages name the value at path: "header value (X-Ctx)". */
export function siteName(site: ExpressionSite, path: JsonPath): string {
  return site.rewrite === 'header' ? `${site.what} (${String(path[path.length - 2])})` : site.what;
}

/**
 * Functions the functions reference makes available in some rewrite expressions only (ruleset-engine/rules-language/functions.mdx):
 * regex_replace and to_string "only available in rewrite expressions of Transform Rules and target URL expressions of dynamic URL
 * redirects", remove_query_args and uuidv4 "in rewrite expressions of Transform Rules", wildcard_replace "in rewrite expressions of
 * URL rewrites and target URL expressions of dynamic URL redirects".
 */
const REWRITE_ONLY: ReadonlyMap<string, readonly RewriteKind[]> = new Map([
  ['regex_replace', ['url', 'header', 'redirect']],
  ['to_string', ['url', 'header', 'redirect']],
  ['remove_query_args', ['url', 'header']],
  ['uuidv4', ['url', 'header']],
  ['wildcard_replace', ['url', 'redirect']],
]);
const REWRITE_NAMES: Record<RewriteKind, string> = {
  url: 'URL rewrites', header: 'header values of header modification rules', redirect: 'target URLs of dynamic redirects', other: '',
};

/** The fields the fields reference gives a value in rewrite expressions only (ip.src.timezone.name: "Transform Rules rewrite expressions only"). */
const REWRITE_ONLY_FIELDS: ReadonlySet<string> = new Set([...FIELDS.values()].filter((f) => f.notes.includes('rewrite expressions only')).map((f) => f.name));
const rewriteOnlyField = (name: string): boolean => REWRITE_ONLY_FIELDS.has(name);

/** Whether an expression's text names any rewrite-only function or field at all: most do not, and then rewriteOnlyProblems has
 * nothing to find (its walk of every node was a sixth of a 200-rule ruleset's check). */
const REWRITE_ONLY_NAME = new RegExp([...REWRITE_ONLY.keys(), ...REWRITE_ONLY_FIELDS].map((n) => n.replace(/\./g, '\\.')).join('|'));
export const mayNameRewriteOnly = (src: string): boolean => REWRITE_ONLY_NAME.test(src);

/**
 * Functions and fields of rewrite expressions where the site is not one of theirs: a match expression (even in a transform phase,
 * where the phase check lets them by), a header value for wildcard_replace(). Not where the phase check has said it already
 * (`reported`: its problems), nor in the other value sites (list key, cache tags, credentials), which the phase check covers.
 */
export function rewriteOnlyProblems(ast: Expr, site: ExpressionSite, reported: readonly ExprProblem[]): ExprProblem[] {
  if (site.role === 'value' && site.rewrite === 'other') return [];
  const out: ExprProblem[] = [];
  const said = new Set(reported.filter((p) => p.code === 'ruleset/expr-phase').map((p) => p.offset));
  walk(ast, (n) => {
    if (!('type' in n) || (n.type !== 'call' && n.type !== 'field') || said.has(n.nameSpan.offset)) return;
    if (n.type === 'call') {
      const kinds = REWRITE_ONLY.get(n.name);
      if (!kinds || (site.role === 'value' && kinds.includes(site.rewrite))) return;
      const names = kinds.map((k) => REWRITE_NAMES[k]);
      const where = wordList(names);
      out.push({ code: 'ruleset/expr-rewrite-only', offset: n.nameSpan.offset, length: n.nameSpan.length,
        message: site.role === 'match'
          ? `${n.name}() is available only in rewrite expressions (${where}), not in a rule's ${site.what}.`
          : `${n.name}() is available only in rewrite expressions of ${where}, not in a ${site.what}.` });
    } else if (site.role === 'match' && rewriteOnlyField(n.name)) {
      out.push({ code: 'ruleset/expr-rewrite-only', offset: n.nameSpan.offset, length: n.nameSpan.length,
        message: `Field "${n.name}" has a value only in rewrite expressions of Transform Rules, not in a rule's ${site.what}.` });
    }
  });
  return out;
}

/** What a URL rewrite's expression may read and how often (rules/transform/url-rewrite/reference/fields-functions.mdx: it "can only
 * include" these fields, and these functions "can appear only once"). Header values are not bound by it. */
const URL_REWRITE_FIELD = /^(?:http\.request\.uri(?:\.|$)|http\.request\.headers(?:\.|$)|http\.request\.accepted_languages$)/;
const URL_REWRITE_ONCE = new Set(['concat', 'regex_replace', 'wildcard_replace']);

/** A URL rewrite's expression (path, query) against the URL rewrite reference: a field outside its list, a function it allows once
 * used again. Warnings: the reference is the only source, and the platform's own examples elsewhere read more fields in header values. */
export function urlRewriteProblems(ast: Expr, site: ExpressionSite): ExprProblem[] {
  if (site.role !== 'value' || site.rewrite !== 'url') return [];
  const out: ExprProblem[] = [];
  const calls = new Map<string, { count: number; second?: { offset: number; length: number } }>();
  walk(ast, (n) => {
    if (!('type' in n)) return;
    if (n.type === 'field' && !URL_REWRITE_FIELD.test(n.name)) {
      out.push({ code: 'ruleset/url-rewrite-expression', offset: n.nameSpan.offset, length: n.nameSpan.length,
        message: `Field "${n.name}" is not one a ${site.what} can read: the URL rewrite reference lists http.request.uri.*, http.request.headers.* and http.request.accepted_languages.` });
    } else if (n.type === 'call' && URL_REWRITE_ONCE.has(n.name)) {
      const c = calls.get(n.name) ?? { count: 0 };
      c.count++;
      if (c.count === 2) c.second = n.nameSpan;
      calls.set(n.name, c);
    }
  });
  for (const [name, c] of calls) {
    if (!c.second) continue;
    out.push({ code: 'ruleset/url-rewrite-expression', offset: c.second.offset, length: c.second.length,
      message: `${name}() appears ${c.count} times in this ${site.what}; the URL rewrite reference allows it once.` });
  }
  return out;
}

/**
 * The value expression's type against its site's: a String for header values, paths, queries, targets, keys and credentials, an
 * Array<String> for cache tags. A condition there is a mistake for the match expression; an Integer, an IP or a Boolean wants
 * to_string() (offered as the fix where the phase has it), an IP in a header value excepted (fits); an array or map wants one element.
 */
export function valueTypeProblems(ast: Expr, got: { ty: Ty; each: boolean }, site: ExpressionSite, path: JsonPath, phase: string | undefined, src: string): ExprProblem[] {
  const want = site.type;
  const t = got.ty;
  const at = { offset: ast.offset, length: ast.length };
  const text = src.slice(ast.offset, ast.offset + ast.length);
  const condition = ast.type === 'compare' || ast.type === 'logical' || ast.type === 'not' || ast.type === 'group';
  if (want.t === 'Unknown' && (condition || (t.t === 'Boolean' && ast.type === 'call'))) {
    // A rate limiting characteristic takes a value of any type, but a value to count by: the page's table lists fields and function
    // values, and "Custom" is "a function such as substring() or lower()"; a condition counts nothing the rule's expression does not
    // decide already (rl11)
    const where = typeof path[1] === 'number' && typeof path[path.length - 1] === 'number' ? ` (rule ${path[1]}'s characteristics[${String(path[path.length - 1])}])` : '';
    return [{ code: 'ruleset/ratelimit-characteristics', ...at,
      message: `Rate limiting characteristic "${text}"${where} is a condition (a Boolean), not a value to count requests by: use one of the platform's characteristics (${RATE_LIMIT_CHARACTERISTICS.join(', ')}) or a custom expression that gives a value, such as lower(...) or substring(...); conditions belong in the rule's expression or counting_expression.` }];
  }
  if (t.t === 'Unknown' || fits(want, t, got.each, site)) return [];
  const head = `The ${siteName(site, path)} must be ${article(tyName(want))}`;
  const named = ast.type === 'field' ? `field "${text}"` : ast.type === 'call' ? (ast.index.length ? `"${text.length > 60 ? `${ast.name}(...)` : text}"` : `${ast.name}()`) : 'this expression';
  const problem = (message: string, fixes?: ExprProblem['fixes']): ExprProblem[] =>
    [{ code: 'ruleset/expr-type-mismatch', ...at, message, ...(fixes ? { fixes } : {}) }];
  if (got.each) return problem(`${head}; ${named} gives one value per element ("[*]"): pick one element with [0].`);
  if (want.t === 'Array') {
    return problem(`${head}; ${named} is ${article(tyName(t))}${textual(t) ? ': split it into tags with split(..., ",", 128)' : ''}.`);
  }
  // A Boolean field (ssl) is a value to_string() converts; a Boolean call (starts_with()) or comparison is a condition
  if (condition || (t.t === 'Boolean' && ast.type !== 'field')) {
    return problem(`${head}; this is a condition (a Boolean), which belongs in the rule's match expression: write the value here, e.g. a field, a string or concat(...).`);
  }
  if (t.t === 'Array' || t.t === 'Map') {
    const pick = t.t === 'Map' ? '["name"][0]' : '[0]';
    return problem(`${head}; ${named} is ${article(tyName(t))}: pick one element with ${pick}${t.t === 'Array' && textual(t.of) ? ', or join them with join(..., ",")' : ''}.`);
  }
  const toString = FUNCTIONS.get('to_string')!;
  const convertible = t.t === 'Integer' || t.t === 'IP' || t.t === 'Boolean';
  const offered = convertible && (!phase || !toString.phases || toString.phases.includes(phase));
  const fix: ExprProblem['fixes'] = offered ? [{ title: 'Convert with to_string(...)', preferred: true, edits: [{ offset: ast.offset, length: 0, newText: 'to_string(' }, { offset: ast.offset + ast.length, length: 0, newText: ')' }] }] : undefined;
  if (convertible && site.rewrite === 'header' && ast.type === 'field') {
    // A warning, not an error: the docs write to_string(), but the API's own example of a dynamic header and working client code
    // set "ip.src" as it is (docs/architecture.md, "Value expressions inside a rule")
    return [{ code: 'ruleset/expr-value-conversion', ...at, ...(fix ? { fixes: fix } : {}),
      message: `The ${siteName(site, path)} is ${article(tyName(t))} (${named}); the docs convert such a value with to_string(), which says what text the header gets.` }];
  }
  return problem(`${head}; ${named} is ${article(tyName(t))}${convertible ? ': convert it with to_string(...)' : ''}.`, fix);
}

function textual(t: Ty): boolean { return t.t === 'String' || t.t === 'Bytes'; }

/** Whether a value of type `ty`, as it stands, is what the value site takes without a problem (its type check's own test): completion
 * ranks such names first at the top of a value expression (rl11). */
export function siteTakes(site: ExpressionSite, ty: Ty): boolean {
  return fits(site.type, ty, false, site);
}

function fits(want: Ty, got: Ty, each: boolean, site: ExpressionSite): boolean {
  if (want.t === 'Unknown') return true; // a site that takes a value of any type (a rate limiting characteristic)
  if (each) return false;
  if (want.t === 'Array') return got.t === 'Array' && textual(got.of);
  // An IP as a header's value: the Rulesets API's own example of a dynamic header is "ip.src" (no to_string()), and rules made
  // through the API with it are taken; the header pages' advice to convert is not made an error (docs/architecture.md)
  return textual(got) || (got.t === 'IP' && site.rewrite === 'header');
}

function article(s: string): string { return /^[AEIOU]/.test(s) ? `an ${s}` : `a ${s}`; }

/** The functions an exposed-credential expression may call (waf/managed-rules/check-for-exposed-credentials/configure-api). */
const CREDENTIAL_FUNCTIONS: ReadonlySet<string> = new Set(['upper', 'lower', 'url_decode', 'lookup_json_string']);
const CREDENTIAL_MAX_CHARS = 1024;

/**
 * An exposed-credential expression's own rules (configure-api: "You can only use the upper(), lower(), url_decode(), and
 * lookup_json_string() functions, and you cannot nest these functions"; "This property can have up to 1024 characters"): another
 * function, a call inside a call, a longer text.
 */
export function credentialProblems(ast: Expr, src: string, site: ExpressionSite): ExprProblem[] {
  const out: ExprProblem[] = [];
  const chars = [...src].length;
  if (chars > CREDENTIAL_MAX_CHARS) {
    out.push({ code: 'ruleset/credential-expression', offset: 0, length: src.length,
      message: `The ${site.what} is ${chars} characters long; the platform takes at most ${CREDENTIAL_MAX_CHARS}.` });
  }
  const visit = (n: Expr | Literal | SetNode | ListNode | RangeNode, inCall: boolean): void => {
    if (n.type === 'call') {
      if (!CREDENTIAL_FUNCTIONS.has(n.name)) {
        out.push({ code: 'ruleset/credential-expression', offset: n.nameSpan.offset, length: n.nameSpan.length,
          message: `${n.name}() cannot be used in a ${site.what}: the platform takes only upper(), lower(), url_decode() and lookup_json_string() there, not nested.` });
      } else if (inCall) {
        out.push({ code: 'ruleset/credential-expression', offset: n.nameSpan.offset, length: n.nameSpan.length,
          message: `${n.name}() is inside another function call: a ${site.what} cannot nest its functions (upper(), lower(), url_decode(), lookup_json_string()).` });
      }
      for (const a of n.args) visit(a, true);
      return;
    }
    for (const c of children(n)) visit(c as Expr, inCall);
  };
  visit(ast, false);
  return out;
}
