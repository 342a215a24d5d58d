// Language features of ruleset bodies: hovers (managed ruleset ids, expression fields/functions, override values, the body kind),
// completions (managed ruleset ids, actions, expression fields/functions/operators) and lenses.
import { findNodeAtOffset, getNodePath, type Node as JsonNode } from 'jsonc-parser';
import type { CompletionEntry, HoverInfo, InlayHintInfo, JsonPath, Lens, ParsedDoc, SignatureInfo, Span } from '../../types';
import {
  CHARACTERISTIC_ONLY, FUNCTIONS, MANAGED_RULESETS, actionAvailable, fieldCatalogue, otherCatalogue, signature, signatureParts, OVERRIDE_ACTIONS, OWASP_ANOMALY_ACTIONS, OWASP_SCORE_THRESHOLDS, RULE_ACTIONS, TERMINATING_ACTIONS,
  T, isParamClass, managedRuleset, sameTy, tyName, type FieldInfo, type FunctionInfo, type Ty,
} from './catalog';
import { bodyKind, bodyKindFix, bodyKindWords, describeBodyKind, isMigrationBody, isObj, phaseOf, rulesOf } from './body';
import { tokenize, type Token } from './exprLexer';
import { DYNAMIC_OPS, KEYWORDS, compareOpOf, parseExpression } from './exprParser';
import { OPS_BY_TYPE, fieldNames, fieldPhaseRefusals, functionPhaseRefusal, leftKindOf, operandType } from './exprCheck';
import { JsonStringMap } from '../../jsonString';
import { memberValue } from '../../jsonTree';
import { explainMapping, SENSITIVITY_MAP, type OldSensitivity } from '../../migration/mapping';
import { cap, plainToMarkdown } from '../../text';
import { isExpressionPath, siteOfPath, siteTakes, type ExpressionSite } from './valueExpressions';
import { DOCS_EXPRESSION_COUNTS } from './relevance.generated';
import wafRulesetSchema from '../../../../../schemas/waf-ruleset.schema.json';

interface At { node: JsonNode; path: JsonPath; isKey: boolean }

/** The node under offset; with rightBound, also the one that ends there (completion: the caret after a literal's last character
 * still edits it), without it not (hover: the character right of the caret is the one after the node). */
function nodeAt(doc: ParsedDoc, offset: number, rightBound = true): At | undefined {
  const root = doc.tree();
  if (!root) return undefined;
  const node = findNodeAtOffset(root, offset, rightBound);
  if (!node) return undefined;
  const prop = node.parent;
  if (prop?.type === 'property' && prop.children?.[0] === node) {
    const value = prop.children[1];
    return { node, path: value ? getNodePath(value) : [...getNodePath(prop.parent!), String(node.value)], isKey: true };
  }
  return { node, path: getNodePath(node), isKey: false };
}

/** What each rule action does: the schema's enumDescriptions of a rule's "action", as markdown as the schema's own items have it;
 * read on first use. */
let actionDocs: ReadonlyMap<string, string> | undefined;
function actionDoc(action: string): string | undefined {
  if (!actionDocs) {
    const a = (wafRulesetSchema as { $defs: { rule: { properties: { action: { enum: string[]; enumDescriptions?: string[] } } } } }).$defs.rule.properties.action;
    actionDocs = new Map(a.enum.map((x, i): [string, string] => [x, a.enumDescriptions?.[i] ?? '']).filter(([, t]) => t !== '').map(([x, t]) => [x, plainToMarkdown(t)]));
  }
  return actionDocs.get(action);
}

const isExecuteIdPath = (p: JsonPath) => p.length === 4 && p[0] === 'rules' && p[2] === 'action_parameters' && p[3] === 'id';
const isRuleActionPath = (p: JsonPath) => p.length === 3 && p[0] === 'rules' && p[2] === 'action';
const isOverridePath = (p: JsonPath) => p.length >= 5 && p[0] === 'rules' && p[2] === 'action_parameters' && p[3] === 'overrides';

// ---------------- hover ----------------

export function hover(doc: ParsedDoc, offset: number): HoverInfo | undefined {
  const at = nodeAt(doc, offset, false);
  if (!at) return undefined;
  const { node, path, isKey } = at;
  const span: Span = { offset: node.offset, length: node.length };
  if (isKey && path.length === 1 && path[0] === 'rules') {
    const b = bodyKind(doc.value);
    const count = `**${b.total} rule${b.total === 1 ? '' : 's'}**`;
    if (!isMigrationBody(doc.value)) return { ...span, markdown: `${count} of a ruleset in phase \`${phaseOf(doc.value)}\`, evaluated in order.` };
    // What the rules are in the lens's words, what to do when only some carry ids; the API's terms last, for a body sent by hand.
    const what = b.deviations.length
      ? `${count}, most ${bodyKindWords(b)}: ${b.withIds} of ${b.total} rules ${b.kind === 'pending' ? 'carry id, version and ref' : b.withIds === 1 ? 'has an id, version or ref' : 'have an id, version or ref'}. ${bodyKindFix(b).replace(/^./, (c) => c.toUpperCase())}.`
      : `${count}, ${bodyKindWords(b)}: ${b.kind === 'validation' ? 'none carries an id, version or ref' : b.total === 1 ? 'it carries its id, version and ref' : 'each carries its id, version and ref'}.`;
    return { ...span, markdown: `${what}\n\nSent through the API yourself: ${describeBodyKind(b)}.` };
  }
  if (isKey || node.type !== 'string' && node.type !== 'number') return undefined;
  if (isExecuteIdPath(path) && typeof node.value === 'string') {
    const r = managedRuleset(node.value);
    const md = r
      ? `**${r.name}**\n\nManaged ruleset \`${r.id}\`, phase \`${r.phase}\`.${r.note ? `\n\n${r.note}` : ''}`
      : `Unknown managed ruleset \`${node.value}\`. Known ids:\n\n${MANAGED_RULESETS.map((m) => `- \`${m.id}\` ${m.name}`).join('\n')}`;
    return { ...span, markdown: md };
  }
  if (isExpressionPath(path) && typeof node.value === 'string') return expressionHover(doc, node, offset);
  if (isOverridePath(path)) {
    const last = path[path.length - 1];
    if (last === 'score_threshold' && typeof node.value === 'number') {
      const v = node.value;
      const name = OWASP_SCORE_THRESHOLDS[v];
      const from = (Object.keys(SENSITIVITY_MAP) as OldSensitivity[]).filter((k) => SENSITIVITY_MAP[k].scoreThreshold === v);
      const head = name ? `**Score threshold ${v}**: ${name}.` : `**Score threshold ${v}**: not one of the OWASP thresholds 60 (Low), 40 (Medium), 25 (High).`;
      const origin = from.length ? `\n\nOld sensitivities that map to ${v}: ${from.map((k) => `\`${k}\``).join(', ')}.` : '';
      return { ...span, markdown: `${head}${origin}\n\n${explainMapping()}` };
    }
    if (last === 'sensitivity_level' && typeof node.value === 'string') {
      return { ...span, markdown: `**Sensitivity \`${node.value}\`** applies to DDoS phases only. For the old core rule set's sensitivity, the new OWASP ruleset uses a paranoia level and a score threshold:\n\n${explainMapping(node.value)}` };
    }
    if (last === 'action' && typeof node.value === 'string') {
      return { ...span, markdown: `**Override action \`${node.value}\`**\n\n${explainMapping(undefined, node.value)}` };
    }
  }
  return undefined;
}

function expressionHover(doc: ParsedDoc, node: JsonNode, offset: number): HoverInfo | undefined {
  const decoded = new JsonStringMap(doc.text, node.offset, node.length);
  const index = decoded.toDecoded(offset);
  const tokens = tokenize(decoded.value).tokens;
  const at = tokens.findIndex((t) => t.kind !== 'eof' && t.offset <= index && index < t.offset + t.length);
  if (at < 0) return undefined;
  const tok = tokens[at];
  const span = decoded.spanToSource(tok);
  if (tok.kind === 'string') {
    const pattern = patternHover(tokens, at);
    return pattern === undefined ? undefined : { ...span, markdown: pattern };
  }
  if (tok.kind === 'ident') {
    const own = fieldCatalogue(phaseOf(doc.value));
    const f = own.fields.get(tok.text) ?? otherCatalogue(own).fields.get(tok.text);
    if (f) {
      const dep = f.deprecatedFor ? `\n\n**Deprecated**: use \`${f.deprecatedFor}\`.` : '';
      // A field of the other catalogue, as the diagnostic says: an HTTP field in a Network Firewall phase, or the reverse
      const foreign = own.fields.has(tok.text) ? ''
        : `\n\n${cap(otherCatalogue(own).label)}: **not read in phase \`${phaseOf(doc.value)}\`**.`;
      return { ...span, markdown: `**${f.name}**: \`${tyName(f.type)}\`${f.notes && !f.deprecatedFor ? `\n\n${f.notes}` : ''}${dep}${foreign}` };
    }
    const fn = FUNCTIONS.get(tok.text);
    if (fn) {
      const phases = fn.phases ? `\n\nAvailable in ${fn.phases.join(', ')}.` : '';
      return { ...span, markdown: `\`${signature(fn)}\`\n\n${fn.doc}${phases}` };
    }
    if (KEYWORDS.has(tok.text)) return { ...span, markdown: OPERATOR_DOCS[tok.text] ?? `Operator \`${tok.text}\`.` };
    const characteristic = CHARACTERISTIC_ONLY.get(tok.text);
    if (characteristic) {
      return { ...span, markdown: `**${tok.text}**: a rate limiting characteristic (${characteristic}), not a field of expressions: it goes in a rate limiting rule's \`ratelimit.characteristics\`, where the platform keeps one counter per value.` };
    }
  }
  if (tok.kind === 'punct' && OPERATOR_DOCS[tok.text]) return { ...span, markdown: OPERATOR_DOCS[tok.text] };
  return undefined;
}

/**
 * What a "matches" regex or a wildcard pattern (the string token at `at`, after its operator) does on the platform: the dialect's
 * rules that surprise (Rust regex finds a match anywhere unless anchored, is case-sensitive, reads bytes unless (?u); a wildcard
 * matches the whole value, case-insensitively unless strict), and this pattern's anchoring and case. Undefined for another string.
 */
function patternHover(tokens: readonly Token[], at: number): string | undefined {
  const op = tokens[at - 1];
  const value = String(tokens[at].value ?? '');
  if (op?.text === 'wildcard') {
    const strict = tokens[at - 2]?.text === 'strict';
    return `**Wildcard** (\`${strict ? 'strict wildcard' : 'wildcard'}\`): matches the whole value, \`*\` any run of characters (none too); ${strict ? 'case-sensitive' : 'case-insensitive (`strict wildcard` is case-sensitive)'}. A backslash escapes only \`*\` (\`\\*\`) or a backslash (\`\\\\\`).`;
  }
  if (op?.text !== 'matches' && op?.text !== '~') return undefined;
  // The flags set at the start ((?i), (?iu), (?x-i)), which apply to the whole pattern; the pattern after them
  const lead = /^(?:\(\?[a-zA-Z-]+\))*/.exec(value)![0];
  const on = new Set(lead.replace(/-[a-zA-Z]*/g, '').replace(/[^a-zA-Z]/g, ''));
  const body = value.slice(lead.length);
  const start = body.startsWith('^') || body.startsWith('\\A');
  const end = (body.endsWith('$') && !/(^|[^\\])(\\\\)*\\\$$/.test(body)) || /(^|[^\\])(\\\\)*\\z$/.test(body);
  const anchoring = start && end ? 'anchored at both ends (`^`…`$`): it matches the whole value only'
    : start ? 'anchored at the start (`^`), not at the end: it matches a value that starts so'
      : end ? 'anchored at the end (`$`), not at the start: it matches a value that ends so'
        : 'not anchored: it matches anywhere in the value';
  const lines = on.has('m') && (start || end) ? ' (under `(?m)`, `^` and `$` are a line\'s)' : '';
  const kase = on.has('i') ? 'case-insensitive (`(?i)`)' : 'case-sensitive (`(?i)` at the start for case-insensitive)';
  const unicode = on.has('u') ? 'Unicode mode (`(?u)`): `\\w`, `\\d`, `.` and `\\b` are Unicode\'s' : 'without Unicode mode: `\\w`, `\\d` and `\\b` are ASCII\'s, `.` any byte but a line break (`(?u)` for Unicode\'s)';
  return `**Rust regex** (the platform's, as wirefilter compiles it): ${anchoring}${lines}; ${kase}; ${unicode}. It has no look-around nor backreferences, and compiles to at most 10 MiB. In a quoted string a backslash goes to the regex as written; \`r"..."\` holds the pattern raw.`;
}

/** After equality and ordering the right side may be a field or a function result (changelog 2026-10-01 "Compare dynamic values"). */
const DYNAMIC_DOC = ' The right side is a value, or a field or a function result of the same type (`http.request.uri.path ne raw.http.request.uri.path`).';
const OPERATOR_DOCS: Record<string, string> = {
  eq: `\`eq\` / \`==\`: equal (String, IP, Number).${DYNAMIC_DOC}`, '==': `\`eq\` / \`==\`: equal (String, IP, Number).${DYNAMIC_DOC}`,
  ne: `\`ne\` / \`!=\`: not equal (String, IP, Number).${DYNAMIC_DOC}`, '!=': `\`ne\` / \`!=\`: not equal (String, IP, Number).${DYNAMIC_DOC}`,
  lt: `\`lt\` / \`<\`: less than (String, Number).${DYNAMIC_DOC}`, '<': `\`lt\` / \`<\`: less than (String, Number).${DYNAMIC_DOC}`,
  le: `\`le\` / \`<=\`: less or equal (String, Number).${DYNAMIC_DOC}`, '<=': `\`le\` / \`<=\`: less or equal (String, Number).${DYNAMIC_DOC}`,
  gt: `\`gt\` / \`>\`: greater than (String, Number).${DYNAMIC_DOC}`, '>': `\`gt\` / \`>\`: greater than (String, Number).${DYNAMIC_DOC}`,
  ge: `\`ge\` / \`>=\`: greater or equal (String, Number).${DYNAMIC_DOC}`, '>=': `\`ge\` / \`>=\`: greater or equal (String, Number).${DYNAMIC_DOC}`,
  contains: '`contains`: the string contains the value (String only).',
  matches: '`matches` / `~`: Rust regex match (String only; Business and Enterprise).', '~': '`matches` / `~`: Rust regex match (String only).',
  wildcard: '`wildcard`: case-insensitive whole-value match; `*` matches any run of characters (`strict wildcard` is case-sensitive).',
  strict: '`strict wildcard`: case-sensitive wildcard match.',
  in: '`in`: the value is in a set `{...}` (space-separated; ranges `a..b` for numbers and IPs) or a list `$name`.',
  not: '`not` / `!`: negation (precedence 1, highest).', '!': '`not` / `!`: negation (precedence 1, highest).',
  and: '`and` / `&&`: both (precedence 2).', '&&': '`and` / `&&`: both (precedence 2).',
  xor: '`xor` / `^^`: exactly one (precedence 3).', '^^': '`xor` / `^^`: exactly one (precedence 3).',
  or: '`or` / `||`: either (precedence 4, lowest).', '||': '`or` / `||`: either (precedence 4, lowest).',
  true: '`true`: matches every request.', false: '`false`: matches no request.',
};

// ---------------- inlay hints ----------------

/** A managed ruleset's name after its id where a skip rule names it (`action_parameters.rulesets`). An execute rule's ruleset is
 * named by the code lens above the rule already. */
export function inlayHints(doc: ParsedDoc, range: Span): InlayHintInfo[] {
  const out: InlayHintInfo[] = [];
  const root = doc.tree();
  if (!root) return out;
  const end = range.offset + range.length;
  const rules = memberValue(root, 'rules');
  const named = (n: JsonNode | undefined) => {
    if (n?.type !== 'string' || n.offset > end || n.offset + n.length < range.offset) return;
    const r = managedRuleset(String(n.value));
    if (r) out.push({ offset: n.offset + n.length, label: r.name, kind: 'type', paddingLeft: true });
  };
  for (const rule of rules?.type === 'array' ? rules.children ?? [] : []) {
    if (rule.offset > end || rule.offset + rule.length < range.offset) continue;
    const params = memberValue(rule, 'action_parameters');
    const skipped = memberValue(params, 'rulesets');
    for (const id of skipped?.type === 'array' ? skipped.children ?? [] : []) named(id);
  }
  return out;
}

// ---------------- signature help ----------------

/** Inside a function call of a rule's expression: the function's signature with the argument the caret is in. The expression up to
 * the caret is tokenized (it may be unfinished) and its brackets followed: the innermost open "(" right after a function name is
 * the call; commas at its level count the arguments (a comma inside a string is part of the string token). */
export function signatureHelp(doc: ParsedDoc, offset: number): SignatureInfo | undefined {
  const at = nodeAt(doc, offset);
  if (!at || at.isKey || at.node.type !== 'string' || !isExpressionPath(at.path)) return undefined;
  // Inside the literal: after its opening quote, up to its closing one.
  if (offset <= at.node.offset || offset >= at.node.offset + at.node.length) return undefined;
  const decoded = new JsonStringMap(doc.text, at.node.offset, at.node.length);
  const before = decoded.value.slice(0, decoded.toDecoded(offset));
  const call = callAt(tokenize(before).tokens);
  if (!call) return undefined;
  const { fn, arg } = call;
  const { label, parameters } = signatureParts(fn);
  const phases = fn.phases ? `\n\nAvailable in ${fn.phases.join(', ')}.` : '';
  return { label, documentation: `${fn.doc}${phases}`, parameters: parameters.map((at) => ({ label: at })), activeParameter: Math.min(arg, fn.params.length - 1) };
}

/** The function call whose argument ends the tokens (an unfinished expression up to the caret), and which argument (0-based): the
 * innermost open "(" right after a function name; commas at its level count the arguments. Undefined outside a call, or in a call
 * of a function without parameters. */
function callAt(tokens: readonly Token[]): { fn: FunctionInfo; arg: number } | undefined {
  const frames: { fn?: string; commas: number }[] = [];
  let prev: Token | undefined;
  for (const t of tokens) {
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '[' || t.text === '{') frames.push({ fn: t.text === '(' && prev?.kind === 'ident' ? prev.text : undefined, commas: 0 });
      else if (t.text === ')' || t.text === ']' || t.text === '}') frames.pop();
      else if (t.text === ',' && frames.length) frames[frames.length - 1].commas++;
    }
    if (t.kind !== 'eof') prev = t;
  }
  const top = frames[frames.length - 1];
  const fn = top?.fn !== undefined ? FUNCTIONS.get(top.fn) : undefined;
  return fn && fn.params.length > 0 ? { fn, arg: top.commas } : undefined;
}

/** Whether a parameter of a signature takes a value of type `ty` as it stands (no index or "[*]" after it): completion's ranking inside
 * a call (the checker's own test, exprCheck's arg, also reads what follows). */
function paramTakes(param: FunctionInfo['params'][number], ty: Ty): boolean {
  if (param === 'array') return ty.t === 'Array';
  if (isParamClass(param)) return param.kinds.includes(ty.t);
  if (param.t === 'Array') return ty.t === 'Array';
  return ty.t === param.t || ((ty.t === 'String' || ty.t === 'Bytes') && (param.t === 'String' || param.t === 'Bytes'));
}

// ---------------- completion ----------------

/** An empty ruleset file: the managed entry point's body with one rule deploying the Cloudflare Managed Ruleset (the spec's
 * config: name "default", action "execute", expression "true"; no id/version/ref, as in a validation or pending update body). */
const RULESET_SNIPPET: CompletionEntry = {
  label: 'entry point ruleset', kind: 'snippet', detail: 'name · rules (execute a managed ruleset)', snippet: true,
  insertText: '{\n\t"name": "${1:default}",\n\t"rules": [\n\t\t{\n\t\t\t"action": "execute",\n\t\t\t"expression": "${2:true}",\n'
    + '\t\t\t"description": "${3:Cloudflare Managed Ruleset}",\n\t\t\t"enabled": true,\n'
    + '\t\t\t"action_parameters": {"id": "${4:efb7b8c949ac4650a09736fc376e9aee}"}\n\t\t}\n\t]\n}',
};

/** An empty document's other start: a zone's custom rules (the WAF's http_request_firewall_custom entry point) with one rule whose
 * action is a choice of the usual ones. The expression's quotes are JSON-escaped (\\" in the snippet's own escaping). */
const CUSTOM_RULES_SNIPPET: CompletionEntry = {
  label: 'custom rules ruleset', kind: 'snippet', detail: 'kind · phase http_request_firewall_custom · a rule', snippet: true,
  insertText: '{\n\t"name": "${1:my custom rules}",\n\t"kind": "zone",\n\t"phase": "http_request_firewall_custom",\n\t"rules": [\n\t\t{\n'
    + '\t\t\t"action": "${2|block,managed_challenge,js_challenge,challenge,log|}",\n'
    + '\t\t\t"expression": "${3:http.request.uri.path eq \\\\"/admin\\\\"}",\n'
    + '\t\t\t"description": "${4:Block the admin area}",\n\t\t\t"enabled": true\n\t\t}$0\n\t]\n}',
};

export function complete(doc: ParsedDoc, offset: number): CompletionEntry[] {
  if (doc.text.trim() === '') return [RULESET_SNIPPET, CUSTOM_RULES_SNIPPET];
  const at = nodeAt(doc, offset);
  if (!at || at.isKey) return [];
  const { node, path } = at;
  const inString = node.type === 'string' && offset > node.offset && offset < node.offset + node.length;
  const replace: Span | undefined = node.type === 'string' ? { offset: node.offset, length: node.length } : undefined;
  const quoted = (label: string, kind: CompletionEntry['kind'], detail: string, sortText?: string): CompletionEntry => ({
    label, kind, detail, insertText: JSON.stringify(label), filterText: JSON.stringify(label), ...(replace ? { replace } : {}), ...(sortText ? { sortText } : {}),
  });
  if (isExpressionPath(path) && inString) return expressionCompletions(doc, node, offset, siteOfPath(path)!);
  if (isExecuteIdPath(path)) return MANAGED_RULESETS.map((r, k) => quoted(r.id, 'constant', r.name, String(k)));
  if (isRuleActionPath(path)) {
    // Only what the phase takes (the check's own test, ruleset/action-phase): execute and skip in the managed entry point. In
    // label order elsewhere (execute and skip first had custom rules open on them), with what each does from the schema's
    // enumDescriptions, which the hover says too
    const phase = phaseOf(doc.value);
    return RULE_ACTIONS.filter((a) => actionAvailable(a, phase)).map((a) => ({
      ...quoted(a, 'enum', a === 'execute' ? 'Deploy a managed ruleset' : a === 'skip' ? 'Exception: skip managed rules'
        : TERMINATING_ACTIONS.has(a) ? 'Rule action, terminating: the rules after it do not run' : 'Rule action'),
      ...(actionDoc(a) !== undefined ? { documentation: actionDoc(a) } : {}),
    }));
  }
  if (isOverridePath(path) && path[path.length - 1] === 'action') {
    const owasp = path.length === 7 && path[4] === 'rules';
    return (owasp ? [...new Set([...OVERRIDE_ACTIONS, ...OWASP_ANOMALY_ACTIONS])] : [...OVERRIDE_ACTIONS]).map((a) => quoted(a, 'enum', 'Override action'));
  }
  return [];
}

/**
 * site: where the expression is (valueExpressions.ts). A value expression (a header's value, a redirect's target) takes no operator
 * after an operand: it would be a condition. Fields and functions are offered only where the checker finds them available in the
 * body's phase (fieldPhaseRefusals, functionPhaseRefusal; a counting expression sees the response).
 */
function expressionCompletions(doc: ParsedDoc, node: JsonNode, offset: number, site: ExpressionSite): CompletionEntry[] {
  const decoded = new JsonStringMap(doc.text, node.offset, node.length);
  const index = decoded.toDecoded(offset);
  // Inside an escape sequence (between the backslash and the quote of a \" being typed) nothing is offered: an edit would start
  // before the cursor, and LSP's must hold it.
  if (decoded.toSource(index) !== offset) return [];
  const before = decoded.value.slice(0, index);
  const word = /[A-Za-z0-9_.]*$/.exec(before)![0];
  const replace = decoded.spanToSource({ offset: index - word.length, length: word.length });
  const lexed = tokenize(decoded.value);
  // Inside a string literal (closed or not, raw or not) the text is the user's own value: nothing to offer.
  const unterminated = (t: Token) => lexed.problems.some((p) => p.offset === t.offset && p.message.startsWith('Unterminated'));
  if (lexed.tokens.some((t) => t.kind === 'string' && t.offset < index && (index < t.offset + t.length || unterminated(t)))) return [];
  const preceding = tokenize(before.slice(0, before.length - word.length)).tokens.filter((t) => t.kind !== 'eof');
  // Inside a set {...} come values only.
  let depth = 0;
  for (const t of preceding) if (t.kind === 'punct') depth += t.text === '{' ? 1 : t.text === '}' && depth > 0 ? -1 : 0;
  if (depth > 0) return [];
  const prev = preceding[preceding.length - 1];
  const out: CompletionEntry[] = [];
  const phase = phaseOf(doc.value);
  const catalogue = fieldCatalogue(phase);
  const offered = (f: FieldInfo) => !f.deprecatedFor && fieldPhaseRefusals(f, phase, site.seesResponse === true).length === 0;
  const callable = (fn: FunctionInfo) => functionPhaseRefusal(fn, phase) === undefined;
  const kw = (label: string, detail: string) => out.push({ label, kind: 'operator', detail, replace, documentation: OPERATOR_DOCS[label] });
  if (prev && prev.kind === 'ident' && prev.text === 'strict') {
    kw('wildcard', 'comparison');
    return out;
  }
  // After a comparison operator a value comes (a literal, a set after "in"). After equality and ordering it may also be a field
  // or a function result (changelog 2026-10-01 "Compare dynamic values"): with a plain field on the left, the fields and functions
  // of its type are offered (the checker's rule: String with Bytes; no ordering on IP)
  if (prev && (prev.kind === 'ident' || prev.kind === 'punct') && COMPARISON_OPERATORS.has(prev.text)) {
    if (prev.text === 'in') {
      out.push({ label: '{ }', kind: 'snippet', detail: 'a set of values', documentation: OPERATOR_DOCS.in, insertText: '{$1}', snippet: true, replace });
    }
    const op = compareOpOf(prev.text);
    if (!op || !DYNAMIC_OPS.has(op)) return out;
    const left = leftOperandType(decoded.value, preceding, phase);
    if (!left || !(OPS_BY_TYPE[left.t] ?? []).includes(op)) return out;
    const fits = (t: Ty) => sameTy(t, left) || ((t.t === 'String' || t.t === 'Bytes') && (left.t === 'String' || left.t === 'Bytes'));
    const names: CompletionEntry[] = [];
    for (const f of catalogue.fields.values()) {
      if (offered(f) && fits(f.type)) names.push({ label: f.name, kind: 'field', detail: tyName(f.type), documentation: f.notes || undefined, replace });
    }
    for (const fn of FUNCTIONS.values()) {
      if (!callable(fn)) continue;
      // A function whose result is its first argument's type (coalesce, concat) gives the left side's type with such an argument,
      // if its first parameter takes that type (concat gives no Integer)
      if (fn.result === 'arg0' ? fn.params.length > 0 && !paramTakes(fn.params[0], left) : !fits(fn.result)) continue;
      names.push({ label: fn.name, kind: 'method', detail: signature(fn), documentation: fn.doc, insertText: `${fn.name}($1)`, snippet: true, replace });
    }
    // All of the left side's type: in the order of use, as elsewhere (rl11; they came in label order)
    out.push(...byRelevance(names, false));
    return out;
  }
  if (prev && afterOperand(prev)) {
    if (site.role === 'value') return out;
    // The operators the field's type takes, from the checker's table (operators.mdx: lt..ge on String and Number, contains and
    // matches on String only); an array or map field takes none until an element is picked ([0], [*]).
    const comparisons = (t = 'String') => { for (const op of OPS_BY_TYPE[t] ?? []) kw(op, 'comparison'); };
    const logical = () => { for (const op of ['and', 'or', 'xor']) kw(op, 'logical'); };
    const field = prev.kind === 'ident' ? catalogue.fields.get(prev.text) : undefined;
    if (field?.type.t === 'Boolean') { comparisons('Boolean'); logical(); } // a Boolean field is a condition by itself: "ssl and ..."
    else if (field) comparisons(field.type.t);
    else if (prev.kind === 'punct' && (prev.text === ']' || prev.text === ')')) { comparisons(); logical(); }
    else logical();
    return out;
  }
  // A place's names of its own first, at its start (a rate limit's "cf.colo.id", mandatory, is no field)
  if (site.names && preceding.length === 0) {
    for (const [name, what] of site.names) out.push({ label: name, kind: 'constant', detail: what, replace, sortText: `0${name}` });
  }
  // A field or function the phase gives no value or refuses would only be a ruleset/expr-phase warning once picked
  // Inside a function call, the names whose type the parameter takes first (rv24): `not` or an Integer field is no argument of
  // starts_with(); a function whose result is its first argument's type (concat, coalesce) may fit any. At the top of a value
  // expression, those the place takes (rl11): a header value's String (or IP) before an Integer or a Boolean function
  const call = callAt(preceding);
  const param = call && call.fn.params[Math.min(call.arg, call.fn.params.length - 1)];
  const takes = param ? (ty: Ty) => paramTakes(param, ty) : site.role === 'value' ? (ty: Ty) => siteTakes(site, ty) : undefined;
  const misfits = new Set<string>();
  const fit = (label: string, ty: Ty | 'arg0') => { if (takes && ty !== 'arg0' && !takes(ty)) misfits.add(label); };
  const names: CompletionEntry[] = [];
  for (const f of catalogue.fields.values()) {
    if (!offered(f)) continue;
    names.push({ label: f.name, kind: 'field', detail: tyName(f.type), documentation: f.notes || undefined, replace });
    fit(f.name, f.type);
  }
  for (const fn of FUNCTIONS.values()) {
    if (!callable(fn)) continue;
    names.push({ label: fn.name, kind: 'method', detail: signature(fn), documentation: fn.doc, insertText: `${fn.name}($1)`, snippet: true, replace });
    fit(fn.name, fn.result);
  }
  // `not` where the grammar takes a condition and it is not idle (rl10): not right after another (`not not x` is x), nor at the top
  // of a value expression, which is one value (wirefilter's SingleValueExprAst: a field or call with its index), no condition; a
  // call's argument may be one (to_string(not ssl))
  const negated = !!prev && ((prev.kind === 'ident' && prev.text === 'not') || (prev.kind === 'punct' && prev.text === '!'));
  if (!negated && (site.role === 'match' || call)) {
    names.push({ label: 'not', kind: 'operator', detail: 'logical', replace, documentation: OPERATOR_DOCS.not });
    fit('not', T.Boolean);
  }
  out.push(...byRelevance(names, !!prev && (prev.kind === 'ident' || prev.kind === 'punct') && LOGICAL_OPERATORS.has(prev.text), misfits));
  return out;
}

const LOGICAL_OPERATORS = new Set(['and', 'or', 'xor', '&&', '||', '^^']);

/** Uses of each name in Cloudflare's rule examples ([all, right after and/or/xor]); a deprecated alias's (ip.geoip.country) count
 * for the field it stands for, which completion offers instead. Built on first use. */
let relevance: ReadonlyMap<string, readonly [number, number]> | undefined;
function relevanceOf(name: string): readonly [number, number] {
  if (!relevance) {
    const fields = fieldCatalogue().fields;
    const m = new Map<string, [number, number]>();
    for (const [n, uses, after] of DOCS_EXPRESSION_COUNTS) {
      const to = fields.get(n)?.deprecatedFor ?? n;
      const c = m.get(to) ?? [0, 0];
      m.set(to, [c[0] + uses, c[1] + after]);
    }
    relevance = m;
  }
  return relevance.get(name) ?? [0, 0];
}

/**
 * The entries with a sortText in the order of relevance (docs/architecture.md, ux14): how often the examples of Cloudflare's docs use
 * each name (data/rules-language/docs_expression_counts.tsv); after and/or, how often it comes right there first, then overall;
 * ties, and the names no example uses, alphabetical. Inside a call the `misfits` (names whose type the parameter does not take) come
 * after all the others (rv24), and at the top of a value expression those its type does not take (rl11). Every entry stays: typing filters them as before.
 */
function byRelevance(entries: CompletionEntry[], afterLogical: boolean, misfits: ReadonlySet<string> = new Set()): CompletionEntry[] {
  const key = (e: CompletionEntry): [number, number, number] => {
    const [uses, after] = relevanceOf(e.label);
    const fits = misfits.has(e.label) ? 0 : 1;
    return afterLogical ? [fits, after, uses] : [fits, uses, 0];
  };
  const keyed = entries.map((e) => ({ e, k: key(e) }));
  keyed.sort((a, b) => b.k[0] - a.k[0] || b.k[1] - a.k[1] || b.k[2] - a.k[2] || (a.e.label < b.e.label ? -1 : a.e.label > b.e.label ? 1 : 0));
  const width = String(keyed.length).length;
  // After a place's own names ("0<name>")
  return keyed.map(({ e }, i) => ({ ...e, sortText: `1${String(i).padStart(width, '0')}` }));
}

const COMPARISON_OPERATORS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'in', '==', '!=', '<', '<=', '>', '>=', '~']);

/**
 * The type of the operand that ends at the token before the last of `tokens` (the operator): a field, or a call, with its index
 * steps; read back over balanced "[...]" and "(...)" to its first token, parsed alone and typed by the checker. Undefined for a
 * group "(...)", a literal, or what does not parse whole.
 */
function leftOperandType(src: string, tokens: readonly Token[], phase: string | undefined): Ty | undefined {
  const end = tokens.length - 2;
  let i = end;
  const open = (close: string, opener: string): number => {
    let depth = 0;
    for (let k = i; k >= 0; k--) {
      const t = tokens[k];
      if (t.kind !== 'punct') continue;
      if (t.text === close) depth++;
      else if (t.text === opener && --depth === 0) return k;
    }
    return -1;
  };
  for (;;) {
    const t = tokens[i];
    if (!t) return undefined;
    if (t.kind === 'punct' && t.text === ']') { i = open(']', '[') - 1; continue; }
    if (t.kind === 'punct' && t.text === ')') {
      i = open(')', '(') - 1;
      const name = tokens[i];
      if (!name || name.kind !== 'ident' || KEYWORDS.has(name.text)) return undefined; // a group, not a call
      break;
    }
    if (t.kind === 'ident' && !KEYWORDS.has(t.text)) break;
    return undefined;
  }
  if (i < 0) return undefined;
  const text = src.slice(tokens[i].offset, tokens[end].offset + tokens[end].length);
  const { ast } = parseExpression(text, leftKindOf(phase), fieldNames(phase));
  if (!ast || (ast.type !== 'field' && ast.type !== 'call') || ast.length !== text.length) return undefined;
  const ty = operandType(ast, phase);
  return ty.t === 'Unknown' ? undefined : ty;
}

/** True when the token ends an operand (a field, a value, a call or index), so an operator comes next. */
function afterOperand(t: Token): boolean {
  if (t.kind === 'ident') return !KEYWORDS.has(t.text) || t.text === 'true' || t.text === 'false';
  if (t.kind === 'punct') return t.text === ')' || t.text === ']' || t.text === '}';
  return t.kind !== 'eof';
}

// ---------------- lenses ----------------

export function lenses(doc: ParsedDoc): Lens[] {
  if (!isObj(doc.value) || !Array.isArray(doc.value.rules)) return [];
  const b = bodyKind(doc.value);
  // In the user's words: "pending body" / "validation body" are the API's (the hover gives them last, with waf_migration).
  const what = !isMigrationBody(doc.value) ? phaseOf(doc.value) : bodyKindWords(b);
  const out: Lens[] = [{ ...doc.locate(['rules'], 'key'), title: `${b.total} rule${b.total === 1 ? '' : 's'} · ${what}` }];
  rulesOf(doc.value).forEach((r, i) => {
    if (!isObj(r) || r.action !== 'execute' || !isObj(r.action_parameters) || typeof r.action_parameters.id !== 'string') return;
    const m = managedRuleset(r.action_parameters.id);
    const state = r.enabled === false ? ' (disabled)' : '';
    out.push({ ...doc.locate(['rules', i], 'value'), length: 1, title: `executes ${m ? m.name : 'an unknown managed ruleset'}${state}` });
  });
  return out;
}

