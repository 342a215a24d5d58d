// Names and types of a parsed rules-language expression: unknown fields and functions (with the nearest names), operators that
// do not apply to a field's type, values of the wrong type, regexes, wildcards. Offsets stay in the decoded string.
import { checkRustRegexOnRe2, lookAroundOrBackreference, re2LacksBoundary, rustRegexCloser, rustRegexRefusal, rustRegexRefusalPlace, unicodeWordBoundary, untabledClass, untabledWhat, atChar } from './rustRegex';
import { suggest } from '../../suggest';
import { quoteList } from '../../messages';
import {
  CHARACTERISTIC_ONLY, FUNCTION_NAMES, FUNCTIONS, MANAGED_PHASE, T, fieldCatalogue, isParamClass, otherCatalogue, phaseSeesResponse, sameTy, TRANSFORM, tyName, type ArgRule,
  type FieldCatalogue, type FieldInfo, type FunctionInfo, type Ty,
} from './catalog';
import { DYNAMIC_OPS, walk, type CallNode, type CompareNode, type CompareOp, type FieldNames, type Expr, type ExprProblem, type FieldNode, type IndexStep, type LeftKind, type ListNode, type Literal, type RangeNode } from './exprParser';
import { cap } from '../../text';
import { parseIp, validIpv4, validIpv6 } from './exprLexer';

/** Whether address a is above address b (both of one family); false when either is no address (the lexer reports it). */
function ipAbove(a: string, b: string): boolean {
  if (!(validIpv4(a) || validIpv6(a)) || !(validIpv4(b) || validIpv6(b))) return false;
  const x = parseIp(a).toByteArray(), y = parseIp(b).toByteArray();
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}

/** What the arguments of one call have shown so far (Checker.arg): a first argument that maps it, a refused "[*]", a wrong first type. */
interface ArgState { mapped: boolean; refused: boolean; firstWrong: boolean; types: Typed[] }

function textual(x: Ty): boolean { return x.t === 'String' || x.t === 'Bytes'; }

/** The type of an expression; `each` when it came from a [*] (one value per element: comparisons then give Array<Boolean>). */
interface Typed { ty: Ty; each: boolean }

const UNKNOWN: Typed = { ty: T.Unknown, each: false };

/** The comparison operators each type takes (the checker's table; completion offers the same). */
export const OPS_BY_TYPE: Record<string, readonly string[]> = {
  String: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict wildcard', 'in'],
  Bytes: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'in'],
  Integer: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in'],
  IP: ['eq', 'ne', 'in'],
  // None: wirefilter reads a Boolean alone (ComparisonOpExpr::IsTrue) and refuses what follows it; values.mdx writes `ssl`, `not ssl`
  Boolean: [],
};

/**
 * phase: the ruleset's phase, when known; fields and functions that phase cannot see are then reported. src: the expression's text,
 * for fixes that move parts of it.
 */
export function checkExpression(ast: Expr, phase?: string, src?: string, seesResponse = false): ExprProblem[] {
  const c = new Checker(phase, src, seesResponse);
  const top = c.infer(ast);
  if (top.ty.t !== 'Unknown') {
    // An array of booleans wants any()/all(); an array of anything else is no boolean at all (any() would refuse it)
    if (top.each || (top.ty.t === 'Array' && top.ty.of.t === 'Boolean')) {
      c.problems.push({ code: 'ruleset/expr-array-result', offset: ast.offset, length: ast.length,
        message: 'The expression gives one boolean per array element; wrap it in any(...) or all(...).' });
    } else if (top.ty.t !== 'Boolean') c.notBoolean(ast, top);
  }
  return c.problems;
}

/**
 * A value expression (a header's value, a rewritten path, a redirect's target: valueExpressions.ts): checked as checkExpression
 * checks, but its type is returned instead of being required to be a Boolean; what it must be is the caller's to say.
 */
export function inferExpression(ast: Expr, phase?: string, src?: string): { problems: ExprProblem[]; ty: Ty; each: boolean } {
  const c = new Checker(phase, src);
  const top = c.infer(ast);
  return { problems: c.problems, ty: top.ty, each: top.each };
}

/**
 * The type of a comparison's left side as the parser asks it (parseExpression's leftKind): the checker's own typing, on a checker
 * of its own whose problems are dropped (the check proper reports them once).
 */
export function leftKindOf(phase?: string): (left: Expr) => LeftKind {
  return (left) => {
    const { ty } = new Checker(phase).infer(left);
    const t = ty.t;
    if (t === 'Boolean' || (t === 'Array' && ty.of.t === 'Boolean')) return 'bool';
    return t === 'Unknown' ? 'unknown' : textual({ t } as Ty) ? 'textual' : t === 'IP' ? 'ip' : 'other';
  };
}

/**
 * The field names of the phase's catalogue and of the other one (an HTTP field in a Network Firewall phase, which the check reports
 * as such): what the parser reads as a field on the right of a comparison (parseExpression's `fields`), and the phase's names
 * nearest a misspelt one there.
 */
export function fieldNames(phase?: string): FieldNames {
  const own = fieldCatalogue(phase);
  const other = otherCatalogue(own);
  return {
    has: (name) => own.fields.has(name) || other.fields.has(name),
    near: (name) => (name.includes('.') ? suggest(name, own.names, { sameLastSegment: true }) : []),
  };
}

/** The type of an operand (a field or a call, with its index) as the checker types it, its problems dropped: for completion. */
export function operandType(e: Expr, phase?: string): Ty {
  return new Checker(phase).infer(e).ty;
}

/**
 * Why a field of the phase's catalogue has no value in that phase (ruleset/expr-phase), one sentence per reason; none when it has one
 * or the phase is not known. seesResponse: response fields have values whatever the phase (a rate limiting rule's counting
 * expression). The checker reports these, and completion offers only the fields with none.
 */
export function fieldPhaseRefusals(info: FieldInfo, phase: string | undefined, seesResponse = false): string[] {
  if (!phase) return [];
  const out: string[] = [];
  if (info.stage === 'response' && !seesResponse && !phaseSeesResponse(phase)) {
    out.push(info.name.startsWith('cf.response.')
      ? `Field "${info.name}" describes the response Cloudflare returns; it is available only in response header transform and custom error rules, and phase ${phase} runs before there is a response.`
      : `Field "${info.name}" is set only once the origin has responded; phase ${phase} runs before that, so it never has a value here.`);
  }
  if (info.transformOnly && !TRANSFORM.includes(phase)) {
    out.push(`Field "${info.name}" is available only in Transform Rules (${TRANSFORM.join(', ')}); phase ${phase} gives it no value.`);
  }
  if (info.only && !info.only.phases.includes(phase)) {
    out.push(`Field "${info.name}" is available only in ${info.only.rules} (${info.only.phases.join(', ')}); phase ${phase} gives it no value.`);
  }
  return out;
}

/** Why a function may not be called in a phase (ruleset/expr-phase); undefined when it may or the phase is not known. The checker
 * reports it, and completion offers only the functions without one. */
export function functionPhaseRefusal(fn: FunctionInfo, phase: string | undefined): string | undefined {
  if (!phase || !fn.phases || fn.phases.includes(phase)) return undefined;
  return `${fn.name}() is not available in phase ${phase}; the platform offers it in ${fn.phases.join(', ')}.`;
}

class Checker {
  problems: ExprProblem[] = [];
  /** The first regex_replace()/wildcard_replace() call of each name. */
  private readonly replaces = new Map<string, { offset: number; length: number }>();
  /** How many any()/all() calls enclose the expression being inferred. */
  private reducers = 0;

  /** The fields the phase reads: the HTTP ones, or the Network Firewall's in its phases. */
  private readonly catalogue: FieldCatalogue;

  /** seesResponse: response fields have values whatever the phase (a rate limiting rule's counting expression, valueExpressions.ts). */
  constructor(private readonly phase?: string, private readonly src?: string, private readonly seesResponse = false) {
    this.catalogue = fieldCatalogue(phase);
  }

  /**
   * A list's name: letters, digits and "_", at most 50 characters, or a managed list $cf.<name> (lowercase, as Cloudflare names
   * them). Capitals are a warning only: the lists overview (waf/tools/lists, "List names") and the Rules language's lists section
   * say lowercase (^[a-z0-9_]+$, what the dashboard takes), but the Lists API's JSON object page gives ^[a-zA-Z0-9_]+$, so a list
   * created through the API may have them (docs/architecture.md, "List names").
   */
  private listName(r: ListNode): void {
    const lowerOnly = (n: string) => /^(cf\.)?[a-z0-9_]{1,50}$/.test(n);
    if (lowerOnly(r.name)) return;
    const lower = r.name.toLowerCase();
    const capitalsOnly = /^[A-Za-z0-9_]{1,50}$/.test(r.name);
    // Not preferred for capitals alone ("Fix all" must not rename a reference to a list the API named so)
    const fixes = lowerOnly(lower) ? { fixes: [{ title: `Change to $${lower}`, preferred: !capitalsOnly, edits: [{ offset: r.offset, length: r.length, newText: `$${lower}` }] }] } : {};
    if (capitalsOnly) {
      this.problems.push({
        code: 'ruleset/expr-list-name-case', offset: r.offset, length: r.length, ...fixes,
        message: `"$${r.name}" has capitals: the dashboard names lists with lowercase letters, digits and "_" only, so this matches only a list created through the API with exactly this name.`,
      });
      return;
    }
    const long = r.name.replace(/^cf\./, '').length > 50;
    this.problems.push({
      code: 'ruleset/expr-list-name', offset: r.offset, length: r.length, ...fixes,
      message: long ? `"$${r.name}" is no list name: a list's name has at most 50 characters, so the platform finds no such list.`
        : `"$${r.name}" is no list name: a list's name has only letters, digits and "_" (a managed list is $cf.<name>, in lowercase), so the platform finds no such list.`,
    });
  }

  private mismatch(at: { offset: number; length: number }, message: string): void {
    this.problems.push({ code: 'ruleset/expr-type-mismatch', message, offset: at.offset, length: at.length });
  }

  notBoolean(e: Expr, t: Typed): void {
    const is = `is ${article(tyName(t.ty))}, not a Boolean`;
    if (e.type === 'string' || e.type === 'int' || e.type === 'ip') {
      // A literal is no left side either (wirefilter compares a field or a call with a value): a field of its type compared with it
      const text = this.src !== undefined ? this.src.slice(e.offset, e.offset + e.length) : e.type === 'string' ? JSON.stringify(e.value) : e.type === 'int' ? String(e.big ?? e.value) : e.text;
      const [what, example] = e.type === 'string' ? ['The string', `http.host eq ${text}`] : e.type === 'int' ? ['The integer', `cf.waf.score eq ${text}`]
        : ['The address', e.cidr ? `ip.src in {${text}}` : `ip.src eq ${text}`];
      this.mismatch(e, `${what} ${text} ${is}; a literal is no condition: compare a field with it, e.g. ${example}.`);
      return;
    }
    const what = e.type === 'field' ? `Field "${e.name}"${e.index.length ? ` at ${indexText(e.index)}` : ''}` : e.type === 'call' ? callText(e) : 'This value';
    const lhs = e.type === 'field' ? fieldText(e) : e.type === 'call' && this.src !== undefined ? this.src.slice(e.offset, e.offset + e.length)
      : e.type === 'call' ? `${e.name}(...)${indexText(e.index)}` : 'value';
    this.mismatch(e, `${what} ${is}; compare it with a value, e.g. ${exampleFor(lhs, t.ty)}.`);
  }

  /** Operand of not/and/or/xor: must be Boolean (or one per element). */
  private boolOperand(e: Expr): Typed {
    const t = this.infer(e);
    if (t.ty.t === 'Unknown') return t;
    if (t.ty.t === 'Boolean') return t;
    // An Array<Boolean> (starts_with(http.request.headers.names[*], "x-")) stays one boolean per element: wirefilter negates
    // and combines it element-wise, so it still wants any()/all()
    if (t.ty.t === 'Array' && t.ty.of.t === 'Boolean') return { ty: T.Boolean, each: true };
    this.notBoolean(e, t);
    return { ty: T.Boolean, each: false };
  }

  infer(e: Expr): Typed {
    switch (e.type) {
      case 'bool': return { ty: T.Boolean, each: false };
      case 'string': return { ty: T.String, each: false };
      case 'int': return { ty: T.Integer, each: false };
      case 'ip': return { ty: T.IP, each: false };
      case 'error': return UNKNOWN;
      // What wirefilter reads inside "(...)" is a logical expression (ParenthesizedExpr), so a condition: lower((http.host)) is
      // refused there as (http.host) is at the top
      case 'group': {
        const t = this.infer(e.inner);
        if (t.ty.t === 'Unknown' || t.ty.t === 'Boolean' || (t.ty.t === 'Array' && t.ty.of.t === 'Boolean')) return t;
        this.notBoolean(e.inner, t);
        return UNKNOWN; // reported once: no second problem where the group is used
      }
      case 'not': { const t = this.boolOperand(e.operand); return { ty: T.Boolean, each: t.each }; }
      case 'logical': {
        const l = this.boolOperand(e.left);
        const r = this.boolOperand(e.right);
        // wirefilter combines a boolean with a boolean, or one per element with one per element (LogicalExpr), never one with the other
        if (l.ty.t !== 'Unknown' && r.ty.t !== 'Unknown' && l.each !== r.each) {
          this.mismatch(e.opSpan, `"${e.op}" cannot combine one boolean per element ("[*]", ${l.each ? 'left' : 'right'}) with a single boolean (${l.each ? 'right' : 'left'}); close any(...) or all(...) around the [*] comparison first, e.g. any(http.request.headers.names[*] eq "x") ${e.op} ssl.`);
          return UNKNOWN;
        }
        return { ty: T.Boolean, each: l.each || r.each };
      }
      case 'field': return this.field(e);
      case 'call': return this.call(e);
      case 'compare': return this.compare(e);
    }
  }

  private field(e: FieldNode): Typed {
    const info = this.catalogue.fields.get(e.name);
    if (!info) {
      const near = FUNCTIONS.has(e.name) ? [] : suggest(e.name, this.catalogue.names, { sameLastSegment: true });
      // A field of the other catalogue: an HTTP field in a Network Firewall phase, or a packet field in an HTTP phase
      const elsewhere = otherCatalogue(this.catalogue);
      const foreign = elsewhere.fields.has(e.name)
        ? ` in phase ${this.phase ?? MANAGED_PHASE}: it is ${elsewhere.label}, and this phase reads ${this.catalogue.label.replace(/^an? /, '')}s only`
        : '';
      const problem: ExprProblem = {
        code: 'ruleset/expr-unknown-field', offset: e.nameSpan.offset, length: e.nameSpan.length,
        message: FUNCTIONS.has(e.name) ? `"${e.name}" is a function; call it as ${e.name}(...).`
          : CHARACTERISTIC_ONLY.has(e.name) ? `"${e.name}" is a rate limiting characteristic (${CHARACTERISTIC_ONLY.get(e.name)}), not a field of expressions: it goes in the rule's ratelimit.characteristics, and an expression cannot read it.`
          : `Unknown field "${e.name}"${foreign}${near.length ? `${foreign ? '. Did' : '; did'} you mean ${quoteList(near)}?` : '.'}`,
      };
      if (near.length) problem.fixes = near.map((n, k) => ({ title: `Change to "${n}"`, edits: [{ ...e.nameSpan, newText: n }], preferred: k === 0 }));
      this.problems.push(problem);
      return this.indexes(e, UNKNOWN); // its "[*]" still gives one value per element: the any() around it is not reported too
    }
    if (info.deprecatedFor) {
      this.problems.push({ code: 'ruleset/expr-deprecated-field', offset: e.nameSpan.offset, length: e.nameSpan.length, tags: ['deprecated'],
        message: `Field "${e.name}" is deprecated; use "${info.deprecatedFor}".`,
        fixes: [{ title: `Change to "${info.deprecatedFor}"`, edits: [{ ...e.nameSpan, newText: info.deprecatedFor }], preferred: true }] });
    }
    for (const message of fieldPhaseRefusals(info, this.phase, this.seesResponse)) {
      this.problems.push({ code: 'ruleset/expr-phase', offset: e.nameSpan.offset, length: e.nameSpan.length, message });
    }
    const first = e.index[0];
    if (first?.kind === 'key' && info.lowerKeys && first.key !== first.key.toLowerCase()) {
      // The platform lower-cases this map's keys (http.request.headers): a key with capitals never finds anything
      const lower = first.key.toLowerCase();
      this.problems.push({ code: 'ruleset/expr-header-case', offset: first.offset, length: first.length,
        message: `"${e.name}" has its keys in lower case, so ["${first.key}"] never matches; write ["${lower}"].`,
        fixes: [{ title: `Write ["${lower}"]`, edits: [{ offset: first.offset, length: first.length, newText: `[${JSON.stringify(lower)}]` }], preferred: true }] });
    }
    return this.indexes(e, { ty: info.type, each: false });
  }

  /** has_key(http.request.headers, "X-Key"): the same lower-case keys as ["X-Key"] (a literal key only). */
  private lowerKey(map: Expr | undefined, key: Expr | undefined): void {
    if (map?.type !== 'field' || map.index.length || key?.type !== 'string' || key.value === key.value.toLowerCase()) return;
    if (!this.catalogue.fields.get(map.name)?.lowerKeys) return;
    const lower = key.value.toLowerCase();
    this.problems.push({ code: 'ruleset/expr-header-case', offset: key.offset, length: key.length,
      message: `"${map.name}" has its keys in lower case, so "${key.value}" is never one of them; write "${lower}".`,
      fixes: [{ title: `Write "${lower}"`, edits: [{ offset: key.offset, length: key.length, newText: JSON.stringify(lower) }], preferred: true }] });
  }

  /** The steps of a field's or a call's index, taken into its type: [*] gives one value per element. */
  private indexes(e: FieldNode | CallNode, t: Typed): Typed {
    for (const step of e.index) t = this.index(e, t, step);
    return t;
  }

  private index(e: FieldNode | CallNode, t: Typed, step: IndexStep): Typed {
    const wrong: Typed = { ty: T.Unknown, each: t.each }; // a wrong step keeps one value per element: no second problem on any()
    // Of an unknown type, "[*]" still gives one value per element: the any() around it is not reported too
    if (t.ty.t === 'Unknown') return step.kind === 'star' ? { ty: T.Unknown, each: true } : t;
    const name = e.type === 'field' ? `"${e.name}"` : `The result of ${e.name}()`;
    // A second "[*]" takes each element of each element (wirefilter's IndexExpr flattens them: names[*][*] of an
    // Array<Array<String>>); into a String it is refused below, as any other index there
    if (t.ty.t === 'Map') {
      if (step.kind === 'key') return { ty: t.ty.of, each: t.each };
      if (step.kind === 'star') return { ty: t.ty.of, each: true };
      this.mismatch(step, `${name} is a map; index it with a key in double quotes, e.g. ["name"], not [${step.pos}].`);
      return wrong;
    }
    if (t.ty.t === 'Array') {
      if (step.kind === 'pos') return { ty: t.ty.of, each: t.each };
      if (step.kind === 'star') return { ty: t.ty.of, each: true };
      this.mismatch(step, `${name} is an array; index it with a number or "*", not ["${step.key}"].`);
      return wrong;
    }
    this.mismatch(step, t.each ? `What "[*]" takes from ${e.type === 'field' ? `field ${name}` : name.replace(/^The/, 'the')} here is ${article(tyName(t.ty))}, which cannot be indexed.`
      : `${e.type === 'field' ? `Field ${name}` : name} is ${article(tyName(t.ty))} and cannot be indexed.`);
    return wrong;
  }

  private call(e: CallNode): Typed {
    const fn = FUNCTIONS.get(e.name);
    if (!fn) {
      for (const a of e.args) this.infer(a);
      const near = suggest(e.name, FUNCTION_NAMES, { sameLastSegment: true });
      this.problems.push({ code: 'ruleset/expr-unknown-function', offset: e.nameSpan.offset, length: e.nameSpan.length,
        message: `Unknown function "${e.name}"${near.length ? `; did you mean ${quoteList(near)}?` : '.'}`,
        // One fix per name offered, the first preferred (the editor's Auto Fix); with two, Fix all leaves the choice to the user.
        ...(near.length ? { fixes: near.map((n, k) => ({ title: `Change to "${n}"`, edits: [{ ...e.nameSpan, newText: n }], preferred: k === 0 })) } : {}) });
      return this.indexes(e, UNKNOWN);
    }
    if (ONCE.has(e.name)) this.once(e);
    const refusal = functionPhaseRefusal(fn, this.phase);
    if (refusal) this.problems.push({ code: 'ruleset/expr-phase', offset: e.nameSpan.offset, length: e.nameSpan.length, message: refusal });
    const min = fn.params.length - (fn.optional ?? 0);
    const max = fn.rest ? fn.maxArgs ?? Infinity : fn.params.length;
    if (e.args.length < min || e.args.length > max) {
      const want = max === Infinity ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`;
      // On the call itself, without the index into its result
      const length = (e.index.length ? e.index[0].offset : e.offset + e.length) - e.offset;
      this.problems.push({ code: 'ruleset/expr-arguments', offset: e.offset, length,
        message: `${e.name}() takes ${want} argument${want === '1' ? '' : 's'}, not ${e.args.length}.` });
    }
    // As wirefilter: a first argument with "[*]" maps the function over the elements, and the call gives an Array of its results
    // (`lower(http.request.headers.names[*])` is an Array<String>; `[*]` after it compares each). "[*]" in a later argument is refused.
    const st: ArgState = { mapped: false, refused: false, firstWrong: false, types: [] };
    const reducer = e.name === 'any' || e.name === 'all';
    if (reducer) this.reducers++;
    for (let k = 0; k < e.args.length; k++) {
      const before = this.problems.length;
      this.arg(e, fn, k, st);
      // What the platform asks beyond the type, on an argument whose type is right
      const rule = fn.args?.[k];
      if (rule && this.problems.length === before) this.argRule(e, k, rule);
    }
    if (reducer) this.reducers--;
    if (e.name === 'bit_slice') this.bitSlice(e, fn);
    if (e.name === 'has_key') this.lowerKey(e.args[0], e.args[1]);
    const result = fn.result === 'arg0' ? (st.types[0]?.ty ?? T.Unknown) : fn.result;
    if (st.refused || st.firstWrong) return this.indexes(e, UNKNOWN);
    return this.indexes(e, { ty: st.mapped && result.t !== 'Unknown' ? { t: 'Array', of: result } : result, each: false });
  }

  /** Argument k of a call: its type against the signature, and whether it maps the call ("[*]"). A method, not a closure per call. */
  private arg(e: CallNode, fn: FunctionInfo, k: number, st: ArgState): void {
    const a = e.args[k];
    const t = this.infer(a);
    st.types.push(t);
    const param = fn.params[Math.min(k, fn.params.length - 1)];
    const takesArray = param === 'array' || (param !== undefined && !isParamClass(param) && param.t === 'Array');
    // Whether it maps is in the text (wirefilter counts the "[*]"), also when the argument's type is unknown (a mistyped field)
    const perElement = !takesArray && (t.each || (k === 0 && t.ty.t === 'Unknown' && starred(a)));
    if (perElement && k === 0) st.mapped = true;
    else if (perElement) {
      st.refused = true;
      const is = t.ty.t === 'Unknown' ? 'has "[*]"' : `is ${article(typedName(t))}`;
      this.mismatch(a, `Only the first argument of ${e.name}() can take one value per element ("[*]"); argument ${k + 1} ${is}.`);
    }
    if (t.ty.t === 'Unknown' || param === undefined || param === 'array') return;
    if (isParamClass(param)) {
      // One value per element of a [*] counts as the element's type.
      const kind = t.ty.t === 'Bytes' ? 'String' : t.ty.t;
      const first = st.types[0].ty.t === 'Bytes' ? 'String' : st.types[0].ty.t;
      if (!param.kinds.includes(t.ty.t)) {
        this.wrongArg(a, k, st, `Argument ${k + 1} of ${e.name}() must be ${param.name}, not ${article(typedName(t))}.`);
      } else if (fn.sameKindAsFirst && k > 0 && first !== 'Unknown' && kind !== first) {
        this.wrongArg(a, k, st, `Argument ${k + 1} of ${e.name}() must be ${article(tyName(st.types[0].ty))} like the first argument, not ${article(typedName(t))}.`);
      } else if (fn.elementOfFirst && k === 1) {
        const c = st.types[0].ty;
        const elem = c.t === 'Array' || c.t === 'Map' ? c.of : undefined;
        if (elem && elem.t !== 'Unknown' && !sameTy(elem, t.ty) && !(textual(elem) && textual(t.ty))) {
          this.wrongArg(a, k, st, `Argument 2 of ${e.name}() must be ${article(tyName(elem))}, the type of the first argument's elements, not ${article(typedName(t))}.`);
        }
      }
      return;
    }
    if (param.t === 'Array') {
      // any()/all()/join(): an array, or the booleans of a comparison on a [*]. An argument with "[*]" of its own
      // (join(http.request.headers.names[*], ",")) maps the call instead: it would get one element, not the array.
      if (t.each && starred(a)) {
        const last = (a as FieldNode | CallNode).index.at(-1)?.kind === 'star' ? '; drop the last "[*]"' : '';
        return this.wrongArg(a, k, st, `Argument ${k + 1} of ${e.name}() must be ${article(tyName(param))}, not ${article(typedName(t))}${last}.`);
      }
      const elem = t.each ? t.ty : t.ty.t === 'Array' ? t.ty.of : undefined;
      if (!elem || !sameTy(elem, param.of)) this.wrongArg(a, k, st, `Argument ${k + 1} of ${e.name}() must be ${article(tyName(param))}, not ${article(typedName(t))}.`);
      return;
    }
    if (!sameTy(t.ty, param) && !(param.t === 'String' && t.ty.t === 'Bytes') && !(param.t === 'Bytes' && t.ty.t === 'String')) {
      this.wrongArg(a, k, st, `Argument ${k + 1} of ${e.name}() must be ${article(tyName(param))}, not ${article(typedName(t))}.`);
    }
  }

  /** A wrongly typed argument; a first one makes what the call gives unknown too (no Array<...> of it to report again). */
  private wrongArg(a: Expr, k: number, st: ArgState, message: string): void {
    this.mismatch(a, message);
    if (k === 0) st.firstWrong = true;
  }

  /** regex_replace() and wildcard_replace(): once each per expression, never one inside the other (the functions reference). */
  private once(e: CallNode): void {
    const seen = this.replaces.get(e.name);
    const at = { offset: e.nameSpan.offset, length: e.nameSpan.length };
    if (seen) {
      this.problems.push({ code: 'ruleset/expr-function-use', ...at,
        message: `${e.name}() can be used only once in an expression, and it is already used earlier in this one.` });
    } else this.replaces.set(e.name, at);
    // The same function inside itself is a second use, reported on the inner call above
    const nested = new Set<string>();
    for (const a of e.args) walk(a, (n) => { if (n.type === 'call' && ONCE.has(n.name) && n.name !== e.name) nested.add(n.name); });
    for (const name of nested) {
      this.problems.push({ code: 'ruleset/expr-function-use', ...at,
        message: `${name}() cannot be nested inside ${e.name}(); the platform refuses one replace function inside the other.` });
    }
  }

  /** A node's text as the user wrote it (an operator: "==" rather than its name "eq"), else the given name. */
  private written(span: { offset: number; length: number }, name: string): string {
    return this.src !== undefined ? this.src.slice(span.offset, span.offset + span.length) : name;
  }

  /** bit_slice(protocol, start, end): a slice of at most 32 bits, its end after its start (the functions reference). */
  private bitSlice(e: CallNode, fn: FunctionInfo): void {
    const [, from, to] = e.args;
    const last = fn.args?.[2]?.range?.[1] ?? Infinity; // past the last bit: reported by the range
    if (from?.type !== 'int' || to?.type !== 'int' || from.value > last || to.value > last) return;
    const bits = to.value - from.value;
    if (bits > 0 && bits <= 32) return;
    this.problems.push({ code: 'ruleset/expr-argument-value', offset: from.offset, length: to.offset + to.length - from.offset,
      message: bits <= 0 ? `bit_slice() slices from bit ${from.value} to bit ${to.value}: the end must come after the start.`
        : `bit_slice() slices ${bits} bits (${from.value} to ${to.value}); a slice is at most 32 bits, join several with "and".` });
  }

  /** An argument against its rule in the signature table: a field or a literal, its fields, range, options, pattern. */
  private argRule(e: CallNode, k: number, rule: ArgRule): void {
    const a = e.args[k];
    const nth = `Argument ${k + 1} (${rule.name}) of ${e.name}()`;
    const literal = isLiteral(a);
    if (rule.kind === 'field' && literal) {
      const other = k === 0 ? e.args[1] : undefined;
      // starts_with("/admin", http.request.uri.path): the two arguments the wrong way round
      const swap = (e.name === 'starts_with' || e.name === 'ends_with') && other && !isLiteral(other) && this.src !== undefined
        ? [{ title: 'Swap the two arguments', preferred: true, edits: [
          { offset: a.offset, length: a.length, newText: this.src.slice(other.offset, other.offset + other.length) },
          { offset: other.offset, length: other.length, newText: this.src.slice(a.offset, a.offset + a.length) }] }]
        : undefined;
      const which = rule.fields ? rule.fields.join(' or ') : 'a field (or a function of one)';
      return this.argValue(a, `${nth} must be ${which}, not a literal value; the platform refuses a literal here.`, swap);
    }
    if (rule.fields && !(a.type === 'field' && rule.fields.includes(fieldText(a)))) {
      const got = a.type === 'field' ? fieldText(a) : a.type === 'call' ? `${callText(a)}` : 'an expression';
      return this.argValue(a, `${nth} must be ${rule.fields.join(' or ')}, not ${got}.`);
    }
    if (rule.kind === 'literal' && !literal) {
      return this.argValue(a, `${nth} must be a literal value written in the expression, not a field or an expression.`);
    }
    if (a.type === 'int' && rule.range && (a.value < rule.range[0] || a.value > rule.range[1])) {
      return this.argValue(a, `${nth} is ${a.value}; it must be between ${rule.range[0]} and ${rule.range[1]}.`);
    }
    if (a.type !== 'string') return;
    if (rule.nonEmpty && a.value === '') return this.argValue(a, `${nth} must not be an empty string.`);
    if (rule.options !== undefined) {
      const bad = [...a.value].find((c) => !rule.options!.includes(c));
      if (bad !== undefined) {
        return this.argValue(a, `${nth} takes the option${rule.options.length > 1 ? 's' : ''} ${[...rule.options].map((c) => `"${c}"`).join(' and ')} only, not "${bad}".`);
      }
    }
    if (rule.pattern === 'regex') this.regex(a.value, a, false);
    if (rule.pattern === 'wildcard') this.wildcard(a.value, a);
  }

  private argValue(a: Expr, message: string, fixes?: ExprProblem['fixes']): void {
    this.problems.push({ code: 'ruleset/expr-argument-value', message, offset: a.offset, length: a.length, ...(fixes ? { fixes } : {}) });
  }

  private compare(e: CompareNode): Typed {
    const r = e.right;
    const left = this.infer(e.left);
    // A field or a call on the right (a dynamic value) is typed whatever the left side is: its unknown names, phases and
    // arguments are reported as on the left
    const right = r.type === 'field' || r.type === 'call' ? this.infer(r) : undefined;
    const each = left.each || !!right?.each;
    const base = left.ty.t;
    if (base === 'Unknown') return { ty: T.Boolean, each };
    // The left side as messages name it, built only for a message.
    const lhs = e.left;
    const what = (): string => (lhs.type === 'field' ? `field "${fieldText(lhs)}"` : lhs.type === 'call' ? `${callText(lhs)}` : 'the value');
    if (base === 'Boolean' || (left.ty.t === 'Array' && left.ty.of.t === 'Boolean')) return this.booleanOperator(e, left);
    if (base === 'Array' || base === 'Map') {
      const problem: ExprProblem = { code: 'ruleset/expr-type-mismatch', offset: e.opSpan.offset, length: e.opSpan.length,
        message: `Cannot compare ${what()} (${tyName(left.ty)}) with "${this.written(e.opSpan, e.op)}"; pick an element with [0]${base === 'Map' ? ', ["key"]' : ''} or every element with [*].` };
      const elem = left.ty.t === 'Array' || left.ty.t === 'Map' ? left.ty.of.t : 'Unknown';
      // Not where the elements are arrays or maps themselves: "[*]" would compare each of those whole, refused the same way
      if (!left.each && !right?.each && (lhs.type === 'field' || lhs.type === 'call') && elem !== 'Array' && elem !== 'Map') {
        problem.fixes = this.everyElement(e, lhs);
      }
      this.problems.push(problem);
      return UNKNOWN; // what it would give is unknown: no second problem on the any() or "and" around it
    }
    const all = OPS_BY_TYPE[base] ?? [];
    // After a field or a call, the operators the type takes among equality and ordering (the parser takes no other there)
    const ops = right ? all.filter((o) => DYNAMIC_OPS.has(o as CompareOp)) : all;
    if (!all.includes(e.op)) {
      this.mismatch(e.opSpan, `Operator "${this.written(e.opSpan, e.op)}" does not apply to ${what()} of type ${base}; use ${ops.map((o) => `"${o}"`).join(', ')}.`);
      return { ty: T.Boolean, each };
    }
    if (r.type === 'list') { this.listName(r); return { ty: T.Boolean, each: left.each }; }
    if (r.type === 'set') {
      for (const item of r.items) this.value(item, left.ty, what, e.op, true);
    } else if (r.type === 'field' || r.type === 'call') {
      this.dynamic(e, r, left, right!, what);
    } else {
      this.value(r, left.ty, what, e.op, false);
      if (r.type === 'string' && e.op === 'matches') this.regex(r.value, r, true);
      if (r.type === 'string' && (e.op === 'wildcard' || e.op === 'strict wildcard')) this.wildcard(r.value, r);
    }
    return { ty: T.Boolean, each };
  }

  /**
   * The fixes that compare every element of an array side (a field or a call): "[*]" after it, and any(...) around the comparison
   * when no any()/all() holds it already. "ne" reads as "no element is": any(...[*] ne x) holds for nearly every request (some element
   * differs), so all() comes first and both are offered; Fix all (a problem's only fix) leaves that choice to the user.
   */
  private everyElement(e: CompareNode, side: FieldNode | CallNode): ExprProblem['fixes'] {
    const star = { offset: side.offset + side.length, length: 0, newText: '[*]' };
    const end = e.offset + e.length;
    // On the right side "[*]" and ")" go in at the same place: one edit, so that no applier can put them the wrong way round
    const close = star.offset === end ? [{ ...star, newText: '[*])' }] : [star, { offset: end, length: 0, newText: ')' }];
    const wrap = (fn: 'any' | 'all', preferred: boolean) => ({ title: `Compare every element: ${fn}(...[*] ...)`, preferred,
      edits: [{ offset: e.offset, length: 0, newText: `${fn}(` }, ...close] });
    return this.reducers ? [{ title: 'Compare every element: add [*]', preferred: true, edits: [star] }]
      : e.op === 'ne' ? [wrap('all', true), wrap('any', false)] : [wrap('any', true)];
  }

  /**
   * A field or a call on the right of equality or ordering (changelog 2026-10-01 "Compare dynamic values"): of the left side's type
   * (String and Bytes with each other, as a string literal with a Bytes field), a single value or one per element ("[*]"); the
   * operator was checked against the left side's type already (no ordering on IP). "[*]" on both sides: a warning, as the platform
   * does not document how their elements pair (docs/architecture.md, "Comparing two fields or function results").
   */
  private dynamic(e: CompareNode, r: FieldNode | CallNode, left: Typed, right: Typed, what: () => string): void {
    const op = this.written(e.opSpan, e.op);
    const rwhat = r.type === 'field' ? `field "${fieldText(r)}"` : callText(r);
    if (left.each && right.each) {
      this.problems.push({ code: 'ruleset/expr-compare-fields', offset: r.offset, length: r.length,
        message: `"[*]" on both sides of "${op}": the platform does not document how the elements of two sides pair up, so EdgeKit does not evaluate this comparison (Test Rules refuses the expression); compare the elements of one side with a single value of the other.` });
    }
    const t = right.ty;
    if (t.t === 'Unknown') return;
    if (t.t === 'Array' || t.t === 'Map') {
      const problem: ExprProblem = { code: 'ruleset/expr-type-mismatch', offset: r.offset, length: r.length,
        message: `The right side of "${op}", ${rwhat}, is ${article(tyName(t))} and cannot be compared with ${what()} (${tyName(left.ty)}); pick an element with [0]${t.t === 'Map' ? ', ["key"]' : ''} or every element with [*].` };
      // As for an array on the left; not with "[*]" on the left already (both sides are not evaluated), nor over arrays of arrays
      if (!left.each && !right.each && t.of.t !== 'Array' && t.of.t !== 'Map') problem.fixes = this.everyElement(e, r);
      this.problems.push(problem);
      return;
    }
    if (sameTy(t, left.ty) || (textual(t) && textual(left.ty))) return;
    this.mismatch(r, `The two sides of "${op}" are of different types, ${what()} (${tyName(left.ty)}) and ${rwhat} (${tyName(t)}); both must be of one type (a String and Bytes compare with each other).`);
  }

  /**
   * An operator after a Boolean (a field, a function's result, one per element): wirefilter reads the Boolean alone as the comparison
   * (ComparisonExpr::lex_with_lhs, IsTrue) and refuses the operator after it; the values reference writes `ssl` and `not ssl`.
   * `f eq true`/`f ne false` are rewritten to `f`, `f eq false`/`f ne true` to `not f`: a comparison and `not f` both bind tighter
   * than and/xor/or (wirefilter's lex_simple_expr), so neither needs parentheses wherever the comparison stood.
   */
  private booleanOperator(e: CompareNode, left: Typed): Typed {
    const lhs = e.left;
    const text = this.src !== undefined ? this.src.slice(lhs.offset, lhs.offset + lhs.length)
      : lhs.type === 'field' ? fieldText(lhs) : lhs.type === 'call' ? callText(lhs) : 'value';
    const op = this.written(e.opSpan, e.op);
    const named = lhs.type === 'field' ? `Field "${fieldText(lhs)}"` : lhs.type === 'call' ? callText(lhs) : 'This value';
    const at = { offset: e.opSpan.offset, length: e.opSpan.length };
    if (left.ty.t === 'Array' || left.each) {
      this.problems.push({ code: 'ruleset/expr-type-mismatch', ...at,
        message: `${named} gives one Boolean per element and takes no operator, so "${op}" is refused; reduce the Booleans alone with any(...) or all(...)${left.ty.t === 'Array' ? `, e.g. any(${text})` : ', without the operator and the last "[*]"'}.` });
      return left.ty.t === 'Array' ? UNKNOWN : { ty: T.Boolean, each: true };
    }
    const problem: ExprProblem = { code: 'ruleset/expr-type-mismatch', ...at,
      message: `${named} ${lhs.type === 'call' ? 'gives' : 'is'} a Boolean and takes no operator, so "${op}" is refused: write ${text} alone to match when it is true, or not ${text} when it is false.` };
    const r = e.right;
    if ((e.op === 'eq' || e.op === 'ne') && r.type === 'bool' && this.src !== undefined) {
      const newText = (e.op === 'eq') === r.value ? text : `not ${text}`;
      problem.fixes = [{ title: `Write ${newText}`, preferred: true, edits: [{ offset: e.offset, length: e.length, newText }] }];
    }
    this.problems.push(problem);
    return { ty: T.Boolean, each: false };
  }

  private value(v: Literal | RangeNode, ty: Ty, what: () => string, op: string, inSet: boolean): void {
    const want = ty.t;
    if (v.type === 'range') {
      if (want !== 'Integer' && want !== 'IP') return this.mismatch(v, `A range is not allowed for ${what()} of type ${want}.`);
      this.value(v.from, ty, what, op, inSet);
      this.value(v.to, ty, what, op, inSet);
      if (v.from.type !== v.to.type) this.mismatch(v, 'Both ends of a range must be of the same type.');
      else if (v.from.type === 'ip' && v.to.type === 'ip' && (v.from.cidr || v.to.cidr)) {
        // IpRange::lex reads each end with IpAddr::from_str: an address, never a CIDR
        const cidr = v.from.cidr ? v.from : v.to;
        this.mismatch(cidr, `A range's ends are addresses, not CIDRs: ${cidr.text} cannot be an end of ${v.from.text}..${v.to.text}; write the range's first and last address, or the CIDR alone.`);
      } else if (v.from.type === 'ip' && v.to.type === 'ip' && v.from.family !== v.to.family) {
        // IpRange::lex: both ends of one family (IncompatibleRangeBounds otherwise)
        this.mismatch(v, `The range ${v.from.text}..${v.to.text} goes from an IPv${v.from.family} to an IPv${v.to.family} address; both ends must be of one family.`);
      } else if (v.from.type === 'int' && v.to.type === 'int' && (v.from.big ?? v.from.value) > (v.to.big ?? v.to.value)) {
        this.mismatch(v, `The range ${v.from.big ?? v.from.value}..${v.to.big ?? v.to.value} is empty; its start is above its end.`);
      } else if (v.from.type === 'ip' && v.to.type === 'ip' && !v.from.cidr && !v.to.cidr && v.from.family === v.to.family && ipAbove(v.from.text, v.to.text)) {
        // wirefilter's IncompatibleRangeBounds: an IP range's start must not be above its end
        this.mismatch(v, `The range ${v.from.text}..${v.to.text} is empty; its start is above its end.`);
      }
      return;
    }
    const got = v.type === 'string' ? 'String' : v.type === 'int' ? 'Integer' : v.type === 'ip' ? 'IP' : 'Boolean';
    const compatible = got === want || (want === 'Bytes' && got === 'String');
    if (!compatible) {
      const shown = v.type === 'string' ? JSON.stringify(v.value) : v.type === 'ip' ? v.text : String(v.value);
      return this.mismatch(v, `${cap(what())} is ${article(want)}, so ${shown} (${got === 'IP' && v.type === 'ip' && v.cidr ? 'a CIDR range' : article(got)}) cannot be compared with it${hint(want, got, v)}.`);
    }
    if (v.type === 'ip' && v.cidr && !inSet) {
      this.mismatch(v, `A CIDR range like ${v.text} can only be used in a set; write "in {${v.text}}".`);
    }
  }

  /** `matchesString`: the literal follows "matches" (read by exprLexer's regexString), else it is a function's argument. */
  private regex(pattern: string, at: { offset: number; length: number }, matchesString: boolean): void {
    const message = regexVerdict(pattern);
    if (message === undefined) { this.untestable(pattern, at, matchesString); this.wordBoundary(pattern, at); return; }
    // On the place the message names (the whole string when it names none, or the place cannot be told in the text)
    const place = regexPlace(pattern);
    const lit = this.src?.slice(at.offset, at.offset + at.length);
    const span = place && lit !== undefined ? patternSpan(lit, place.at, place.length, matchesString) : undefined;
    const end = lit === undefined ? undefined : patternEnd(lit);
    // After a doubled backslash closing a quoted "matches" string, a ")" makes "\\)", which exprLexer's doubled-backslash hint reads as a
    // meant "\)" and offers to write so, opening the group again: no fix there
    const hinted = matchesString && lit?.[0] === '"' && end !== undefined && /\\\\$/.test(lit.slice(0, end));
    const closer = end === undefined ? undefined : rustRegexCloser(pattern);
    // A guess (the group may have been meant to close sooner), so not preferred: Fix all leaves it
    const fixes = closer && end !== undefined && !(hinted && closer === ')')
      ? [{ title: `Close the ${closer === ')' ? 'group' : 'class'}: add "${closer}" at the end of the regex`, edits: [{ offset: at.offset + end, length: 0, newText: closer }] }]
      : undefined;
    this.problems.push({ code: 'ruleset/expr-invalid-regex', offset: at.offset + (span?.offset ?? 0), length: span?.length ?? at.length, message, ...(fixes ? { fixes } : {}) });
  }

  /** A Unicode class the platform reads and EdgeKit has no table for (\p{Hyphen}, \p{Age=3.0}): said on it, as Test Rules cannot run
   * the rule. */
  private untestable(pattern: string, at: { offset: number; length: number }, matchesString: boolean): void {
    const cls = untabledClass(pattern);
    if (!cls) return;
    const lit = this.src?.slice(at.offset, at.offset + at.length);
    const span = lit === undefined ? undefined : patternSpan(lit, cls.at, cls.text.length, matchesString);
    this.problems.push({ code: 'ruleset/expr-regex-untestable', offset: at.offset + (span?.offset ?? 0), length: span?.length ?? at.length,
      message: `"${cls.text}" ${atChar(pattern, cls.at)} is ${untabledWhat(cls)}, a Unicode class the platform's Rust regex reads and EdgeKit has no table for: Test Rules cannot test this rule.` });
  }

  /** A word boundary that EdgeKit's Test Rules (RE2) reads otherwise than the platform (Rust regex): one RE2 does not have, then one
   * in Unicode mode (rustRegex.ts re2LacksBoundary, unicodeWordBoundary). */
  private wordBoundary(pattern: string, at: { offset: number; length: number }): void {
    const lacking = re2LacksBoundary(pattern);
    const unicode = lacking ? undefined : unicodeWordBoundary(pattern);
    if (!lacking && unicode === undefined) return;
    const b = unicode === undefined ? '' : pattern.slice(unicode, unicode + 2);
    this.problems.push({ code: 'ruleset/expr-regex-word-boundary', offset: at.offset, length: at.length,
      message: lacking
        ? `"${lacking.text}" ${atChar(pattern, lacking.at)} is a word boundary the platform's Rust regex has and RE2 does not: EdgeKit's Test Rules, which runs RE2, cannot test this rule.`
        : `Under (?u), ${b} ${atChar(pattern, unicode!)} is a Unicode word boundary on the platform (é, ß and 中 are word characters there), and an ASCII one in EdgeKit's Test Rules, which runs RE2 (no Unicode mode): on text with letters or digits past ASCII next to it, a test may answer otherwise than the platform. (?-u:${b}) is ASCII's in both.` });
  }

  private wildcard(pattern: string, at: { offset: number; length: number }): void {
    // On the place in the pattern (the whole string when it cannot be told in the text: an escape of bytes)
    const lit = this.src?.slice(at.offset, at.offset + at.length);
    const placed = (k: number, length: number) => {
      const span = lit === undefined ? undefined : patternSpan(lit, k, length, false);
      return { offset: at.offset + (span?.offset ?? 0), length: span?.length ?? at.length };
    };
    // The wildcard crate (wirefilter's, "?" turned off): a backslash escapes "*" or a backslash only, and cannot end the pattern
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i] !== '\\') continue;
      const cp = pattern.codePointAt(i + 1); // a character past U+FFFF is named whole, not by half of its surrogate pair
      const next = cp === undefined ? undefined : String.fromCodePoint(cp);
      if (next === '*' || next === '\\') { i++; continue; }
      this.problems.push({ code: 'ruleset/expr-invalid-wildcard', ...placed(i, 1 + (next?.length ?? 0)),
        message: next === undefined
          ? `The wildcard pattern ${JSON.stringify(pattern)} ends with a lone backslash; in a wildcard a backslash escapes only "*" or a backslash, so write "\\\\" for a backslash.`
          : `The wildcard pattern ${JSON.stringify(pattern)} has the escape "\\${next}", which the platform refuses: in a wildcard a backslash escapes only "*" (\\*) or a backslash (\\\\).` });
      return;
    }
    // The first "**" of two unescaped stars
    let stars = -1;
    for (let i = 0; i < pattern.length - 1 && stars < 0; i++) {
      if (pattern[i] === '\\') i++;
      else if (pattern[i] === '*' && pattern[i + 1] === '*') stars = i;
    }
    if (stars >= 0) {
      this.problems.push({ code: 'ruleset/expr-invalid-wildcard', ...placed(stars, 2),
        message: `The wildcard pattern ${JSON.stringify(pattern)} contains "**", which is not allowed; one "*" already matches any run of characters.` });
    }
  }
}

/** Where in the pattern regexVerdict's refusal is (its start and length in the pattern), when the message names a place. */
function regexPlace(pattern: string): { at: number; length: number } | undefined {
  const look = lookAroundOrBackreference(pattern);
  if (look) return { at: look.at, length: look.text.length };
  return rustRegexRefusalPlace(pattern);
}

/** Where the pattern ends in the string literal `lit` as written (before its closing quote, or the quote and hashes of a raw
 * string), or undefined when the literal is not closed. */
function patternEnd(lit: string): number | undefined {
  const hashes = lit[0] === 'r' ? /^r(#*)"/.exec(lit)?.[1].length : 0;
  if (hashes === undefined) return undefined;
  const close = `"${'#'.repeat(hashes)}`;
  const open = lit[0] === 'r' ? hashes + 2 : 1;
  if (lit.length < open + close.length || !lit.endsWith(close)) return undefined;
  // A quoted string ending in an escaped quote (\") is not closed by it
  if (lit[0] === '"' && /(?:^|[^\\])(?:\\\\)*\\"$/.test(lit.slice(1))) return undefined;
  return lit.length - close.length;
}

/**
 * Where the pattern's characters from `k` (`length` of them) are in the string literal `lit` as written, relative to its start:
 * a raw string holds the pattern as written; a "matches" string writes a quote outside a class as \" (exprLexer regexString, the
 * one escape it drops); an ordinary string (a wildcard, a function's argument) writes a quote or a backslash escaped, and is not
 * mapped when it has an escape of bytes. Undefined past the pattern's end.
 */
export function patternSpan(lit: string, k: number, length: number, matchesString: boolean): { offset: number; length: number } | undefined {
  // Where each character of the pattern starts in lit, up to the last one asked for (and where the one after it starts)
  const starts: number[] = [];
  const last = k + length;
  if (lit[0] === 'r') {
    let h = 1;
    while (lit[h] === '#') h++;
    for (let v = 0; v <= last; v++) starts.push(h + 1 + v);
    if (h + 1 + last > lit.length - h) return undefined;
  } else if (lit[0] === '"') {
    let inClass = false;
    for (let j = 1; j < lit.length && starts.length <= last;) {
      const c = lit[j];
      if (c === '\\' && j + 1 < lit.length) {
        const e = lit[j + 1];
        if (matchesString && !inClass && e === '"') { starts.push(j); j += 2; continue; }
        if (matchesString) { starts.push(j, j + 1); j += 2; continue; }
        // An ordinary string: \" and \\ are one character each; \xHH and \NNN are bytes, decoded in runs (exprLexer): not mapped
        if (e !== '"' && e !== '\\') return undefined;
        starts.push(j);
        j += 2;
        continue;
      }
      if (c === '"' && !inClass) { starts.push(j); break; }
      if (matchesString && c === '[' && !inClass) inClass = true;
      else if (matchesString && c === ']' && inClass) inClass = false;
      starts.push(j);
      j++;
    }
    if (starts.length <= last) return undefined;
  } else return undefined;
  return { offset: starts[k], length: starts[last] - starts[k] };
}

/** RE2's reason for refusing the pattern (its "error parsing regexp: " dropped), or undefined (regexVerdict keeps the answer). */
function re2Refusal(pattern: string): string | undefined {
  try {
    checkRustRegexOnRe2(pattern);
  } catch (err) {
    return (err as Error).message.replace(/^error parsing regexp: /, '');
  }
  return undefined;
}

function indexText(steps: IndexStep[]): string {
  return steps.map((s) => (s.kind === 'key' ? `[${JSON.stringify(s.key)}]` : s.kind === 'pos' ? `[${s.pos}]` : '[*]')).join('');
}
function fieldText(f: FieldNode): string { return f.name + indexText(f.index); }
/** A call as messages name it: lower(), or lower(...)[0] with its index. */
function callText(c: CallNode): string { return c.index.length ? `${c.name}(...)${indexText(c.index)}` : `${c.name}()`; }

const ONCE = new Set(['regex_replace', 'wildcard_replace']);

/** A field or call with "[*]" in its index. */
function starred(e: Expr): boolean { return (e.type === 'field' || e.type === 'call') && e.index.some((s) => s.kind === 'star'); }

function isLiteral(e: Expr): boolean { return e.type === 'string' || e.type === 'int' || e.type === 'ip' || e.type === 'bool'; }

function typedName(t: Typed): string { return t.each ? `${tyName(t.ty)} per element` : tyName(t.ty); }

function article(s: string): string { return /^[AEIOU]/.test(s) ? `an ${s}` : `a ${s}`; }

function hint(want: string, got: string, v: Literal): string {
  if (want === 'Integer' && got === 'String' && v.type === 'string' && /^-?\d+$/.test(v.value)) return `; drop the quotes: ${v.value}`;
  if (want === 'String' && (got === 'Integer' || got === 'IP')) return '; put the value in double quotes';
  return '';
}

/** A comparison of `lhs` (a field or call of type `ty`) with a value written out, well-formed: `http.host eq "..."`,
 * `any(http.request.headers.names[*] eq "...")`, `http.request.headers["key"][0] eq "..."`. */
function exampleFor(lhs: string, ty: Ty): string {
  switch (ty.t) {
    case 'Integer': return `${lhs} gt 0`;
    case 'IP': return `${lhs} in {192.0.2.0/24}`;
    case 'Boolean': return `${lhs} eq true`;
    case 'Array': return `any(${exampleFor(`${lhs}[*]`, ty.of)})`;
    case 'Map': return exampleFor(`${lhs}["key"]${ty.of.t === 'Array' ? '[0]' : ''}`, ty.of.t === 'Array' ? ty.of.of : ty.of);
    default: return `${lhs} eq "..."`;
  }
}

/**
 * Why the platform refuses a "matches" regex, or undefined: it depends on the pattern alone, so the verdicts of the last
 * REGEX_VERDICTS_KEPT patterns are kept, together at most REGEX_VERDICT_CHARS characters of pattern and message (typing inside a
 * long regex makes a new pattern at each keystroke). A ruleset is checked whole on every edit, and each check compiled every regex
 * of it again (the Rust syntax reading and RE2; RE2's answer alone was kept before).
 */
const regexVerdicts = new Map<string, string | undefined>();
const REGEX_VERDICTS_KEPT = 512;
const REGEX_VERDICT_CHARS = 1 << 20;
let regexVerdictChars = 0;

const verdictChars = (pattern: string, verdict: string | undefined): number => pattern.length + (verdict?.length ?? 0);

export function regexVerdict(pattern: string): string | undefined {
  if (regexVerdicts.has(pattern)) return regexVerdicts.get(pattern);
  const verdict = readRegexVerdict(pattern);
  const chars = verdictChars(pattern, verdict);
  if (chars > REGEX_VERDICT_CHARS) return verdict;
  while (regexVerdicts.size >= REGEX_VERDICTS_KEPT || regexVerdictChars + chars > REGEX_VERDICT_CHARS) {
    const [oldest, old] = regexVerdicts.entries().next().value!;
    regexVerdicts.delete(oldest);
    regexVerdictChars -= verdictChars(oldest, old);
  }
  regexVerdicts.set(pattern, verdict);
  regexVerdictChars += chars;
  return verdict;
}

/** What regexVerdict keeps: patterns, their characters with their messages', and the budget of those. */
export function regexVerdictsKept(): { patterns: number; chars: number; budget: number } {
  return { patterns: regexVerdicts.size, chars: regexVerdictChars, budget: REGEX_VERDICT_CHARS };
}

function readRegexVerdict(pattern: string): string | undefined {
  // As the Rust reading finds it: a "(?=" in a class or, under (?x), in a comment is no look-ahead
  const unsupported = lookAroundOrBackreference(pattern);
  if (unsupported) return `The regex uses "${unsupported.text}" ${atChar(pattern, unsupported.at)}, which Rust regex (the platform's) does not support: no look-around or backreferences.`;
  // The Rust reading (regex-syntax's refusals with their places, the nest and size limits), then RE2, after the Rust-only syntax is
  // rewritten, which is what the evaluator runs (a counted repetition over RE2's 1 000 split: compileRustRegex; a nested class or a
  // class set operation, --, && or ~~, written out as the set it stands for). A JavaScript trial compile came first, as a net: it
  // said nothing the Rust reading did not, and its rewrites refused what Rust takes, in JavaScript's words ("\(?i)": "\ at end
  // of pattern", "[z(?i)-a]": "Range out of order"; rv22).
  const rust = rustRegexRefusal(pattern);
  if (rust) return `Invalid regex ${JSON.stringify(pattern)}: ${rust}.`;
  const re2 = re2Refusal(pattern);
  return re2 ? `Invalid regex ${JSON.stringify(pattern)}: ${re2}.` : undefined;
}
