// Recursive-descent parser of the rules language. Precedence (reference §4): not/! (1) > and/&& (2) > xor/^^ (3) > or/|| (4).
// The AST carries offsets into the decoded expression string.
import { tokenize, type Token } from './exprLexer';
import type { Edit } from '../../types';

export interface Node { offset: number; length: number }

export type IndexStep = Node & ({ kind: 'key'; key: string } | { kind: 'pos'; pos: number } | { kind: 'star' });

export interface FieldNode extends Node { type: 'field'; name: string; nameSpan: Node; index: IndexStep[] }
/** A function call; `index` holds the steps taken into its result, as in `lower(http.request.headers.names[*])[*]`. */
export interface CallNode extends Node { type: 'call'; name: string; nameSpan: Node; args: Expr[]; index: IndexStep[] }
export interface BoolNode extends Node { type: 'bool'; value: boolean }
export interface StringNode extends Node { type: 'string'; value: string; raw: boolean }
/** `value` is the nearest double of an integer past 2^53; `big` is then the integer exactly (the platform's are 64-bit). */
export interface IntNode extends Node { type: 'int'; value: number; big?: bigint }
export interface IpNode extends Node { type: 'ip'; text: string; cidr: boolean; family: 4 | 6 }
export interface RangeNode extends Node { type: 'range'; from: IntNode | IpNode; to: IntNode | IpNode }
export interface SetNode extends Node { type: 'set'; items: (Literal | RangeNode)[] }
export interface ListNode extends Node { type: 'list'; name: string }
export type Literal = StringNode | IntNode | IpNode | BoolNode;

export type CompareOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'matches' | 'wildcard' | 'strict wildcard' | 'in';

export interface CompareNode extends Node { type: 'compare'; left: Expr; op: CompareOp; opSpan: Node; right: Literal | SetNode | ListNode }
export interface LogicalNode extends Node { type: 'logical'; op: 'and' | 'or' | 'xor'; opSpan: Node; left: Expr; right: Expr }
export interface NotNode extends Node { type: 'not'; operand: Expr }
export interface GroupNode extends Node { type: 'group'; inner: Expr }
/** Stands for what could not be parsed, so that the rest of the tree can still be checked. */
export interface ErrorNode extends Node { type: 'error' }

export type Expr = FieldNode | CallNode | BoolNode | StringNode | IntNode | IpNode | CompareNode | LogicalNode | NotNode | GroupNode | ErrorNode;

export interface ExprProblem {
  code: string;
  message: string;
  offset: number;
  length: number;
  /** Edits in decoded-string offsets. */
  fixes?: { title: string; edits: Edit[]; preferred?: boolean }[];
  tags?: ('deprecated' | 'unnecessary')[];
}

// Maps, not objects: a token's text is looked up in them for every operand (an object lookup of a fresh string is slower, and it
// finds Object.prototype's members: "constructor" read as an operator).
const COMPARE_WORDS: ReadonlyMap<string, CompareOp> = new Map(Object.entries({
  eq: 'eq', ne: 'ne', lt: 'lt', le: 'le', gt: 'gt', ge: 'ge', contains: 'contains', matches: 'matches', wildcard: 'wildcard', in: 'in',
} as const));
const COMPARE_SYMBOLS: ReadonlyMap<string, CompareOp> = new Map(Object.entries({ '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '~': 'matches' } as const));
const LOGICAL: ReadonlyMap<string, 'and' | 'or' | 'xor'> = new Map(Object.entries({ and: 'and', '&&': 'and', or: 'or', '||': 'or', xor: 'xor', '^^': 'xor' } as const));
export const KEYWORDS = new Set(['and', 'or', 'xor', 'not', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict', 'in', 'true', 'false']);

class SyntaxStop extends Error {}

/**
 * Bounds that keep the recursive parser and the checker's walk off the end of the stack: nesting of "(", "not"/"!" and function
 * calls, and the number of and/or/xor in the whole expression (a chain builds a tree as deep as it is long). Both are far beyond what
 * fits in the platform's 4096 bytes of sensible expression; past them the expression gets one limits/too-deep problem.
 */
export const MAX_EXPR_NESTING = 100;
export const MAX_EXPR_CONDITIONS = 2000;

export interface ParseResult { ast: Expr | undefined; problems: ExprProblem[] }

export function parseExpression(src: string): ParseResult {
  const lexed = tokenize(src);
  const p = new Parser(lexed.tokens);
  const problems: ExprProblem[] = [...lexed.problems];
  let ast: Expr | undefined;
  if (lexed.tokens.length === 1) {
    problems.push({ code: 'ruleset/expr-syntax', message: 'The expression is empty; use "true" to match all requests.', offset: 0, length: src.length });
    return { ast, problems };
  }
  // Only the first syntax error is reported, as for JSON: what follows a break is usually a consequence of it.
  try {
    ast = p.parseOr();
    const t = p.peek();
    if (t.kind !== 'eof') p.fail(t, `Unexpected ${describe(t)} after a complete expression; expected "and", "or", "xor" or the end.`, hintFor(t));
  } catch (e) {
    if (!(e instanceof SyntaxStop)) throw e;
    ast = p.partial;
  }
  if (p.problem && (p.problem.code === 'limits/too-deep' || !lexed.problems.some((q) => q.code === 'ruleset/expr-syntax'))) problems.push(p.problem);
  return { ast, problems };
}

function describe(t: Token): string {
  if (t.kind === 'eof') return 'end of the expression';
  return `"${t.text.length > 30 ? t.text.slice(0, 30) + '…' : t.text}"`;
}

/** A lowercase fix for an uppercase keyword, or a function hint for starts_with/ends_with. */
function hintFor(t: Token): Partial<ExprProblem> | undefined {
  if (t.kind === 'ident' && KEYWORDS.has(t.text.toLowerCase()) && t.text !== t.text.toLowerCase()) {
    const lower = t.text.toLowerCase();
    return {
      message: `Operator "${t.text}" must be lowercase; write "${lower}".`,
      fixes: [{ title: `Write "${lower}"`, edits: [{ offset: t.offset, length: t.length, newText: lower }], preferred: true }],
    };
  }
  if (t.kind === 'ident' && (t.text === 'starts_with' || t.text === 'ends_with')) {
    return { message: `"${t.text}" is a function, not an operator; write ${t.text}(field, "value").` };
  }
  return undefined;
}

class Parser {
  private i = 0;
  private depth = 0;
  private conditions = 0;
  problem: ExprProblem | undefined;
  partial: Expr | undefined;
  constructor(private readonly tokens: Token[]) {}

  peek(ahead = 0): Token { return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]; }
  next(): Token { const t = this.peek(); if (this.i < this.tokens.length - 1) this.i++; return t; }
  private isPunct(t: Token, p: string): boolean { return t.kind === 'punct' && t.text === p; }

  fail(at: Token | Node, message: string, hint?: Partial<ExprProblem>): never {
    if (!this.problem) {
      const length = 'kind' in at && at.kind === 'eof' ? 0 : at.length;
      this.problem = { code: 'ruleset/expr-syntax', message, offset: at.offset, length, ...hint };
    }
    throw new SyntaxStop();
  }

  /** Enter one level of nesting at t; stops the parse with limits/too-deep past MAX_EXPR_NESTING. Pair with `this.depth--`. */
  private enter(t: Token): void {
    if (++this.depth <= MAX_EXPR_NESTING) return;
    this.problem = {
      code: 'limits/too-deep', offset: t.offset, length: t.length,
      message: `The expression nests "(", "not" and function calls more than ${MAX_EXPR_NESTING} levels deep at ${describe(t)}; it is not checked further.`,
    };
    throw new SyntaxStop();
  }

  private logicalOp(t: Token): 'and' | 'or' | 'xor' | undefined {
    return (t.kind === 'ident' || t.kind === 'punct') ? LOGICAL.get(t.text) : undefined;
  }

  parseOr(): Expr { return this.binary('or', () => this.binary('xor', () => this.binary('and', () => this.parseUnary()))); }

  private binary(op: 'and' | 'or' | 'xor', operand: () => Expr): Expr {
    let left = operand();
    for (;;) {
      const t = this.peek();
      if (this.logicalOp(t) !== op) return left;
      if (++this.conditions > MAX_EXPR_CONDITIONS) {
        this.problem = {
          code: 'limits/too-deep', offset: t.offset, length: t.length,
          message: `The expression chains more than ${MAX_EXPR_CONDITIONS} "and", "or" and "xor" operators (at ${describe(t)}); it is not checked further.`,
        };
        throw new SyntaxStop();
      }
      this.next();
      this.partial = left;
      const right = operand();
      left = { type: 'logical', op, opSpan: { offset: t.offset, length: t.length }, left, right, offset: left.offset, length: right.offset + right.length - left.offset };
    }
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if ((t.kind === 'ident' && t.text === 'not') || this.isPunct(t, '!')) {
      this.next();
      this.enter(t);
      const operand = this.parseUnary();
      this.depth--;
      return { type: 'not', operand, offset: t.offset, length: operand.offset + operand.length - t.offset };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expr {
    const t = this.peek();
    if (this.isPunct(t, '(')) {
      this.next();
      this.enter(t);
      const inner = this.parseOr();
      const close = this.peek();
      if (!this.isPunct(close, ')')) this.fail(close, `Expected ")" to close the "(" at ${t.offset + 1}, found ${describe(close)}.`, hintFor(close));
      this.next();
      this.depth--;
      return { type: 'group', inner, offset: t.offset, length: close.offset + 1 - t.offset };
    }
    const left = this.parseTerm();
    const opTok = this.peek();
    const op = this.compareOp();
    if (!op) return left;
    const right = this.parseRhs(op, opTok);
    return { type: 'compare', left, op: op.op, opSpan: op.span, right, offset: left.offset, length: right.offset + right.length - left.offset };
  }

  /** A comparison operator at the cursor (consumed), or undefined. */
  private compareOp(): { op: CompareOp; span: Node } | undefined {
    const t = this.peek();
    const symbol = t.kind === 'punct' ? COMPARE_SYMBOLS.get(t.text) : undefined;
    if (symbol) { this.next(); return { op: symbol, span: t }; }
    if (t.kind !== 'ident') return undefined;
    if (t.text === 'strict') {
      const w = this.peek(1);
      if (w.kind === 'ident' && w.text === 'wildcard') {
        this.next(); this.next();
        return { op: 'strict wildcard', span: { offset: t.offset, length: w.offset + w.length - t.offset } };
      }
      this.fail(w, `Expected "wildcard" after "strict", found ${describe(w)}.`);
    }
    const word = COMPARE_WORDS.get(t.text);
    if (word) { this.next(); return { op: word, span: t }; }
    return undefined;
  }

  /** A field (with indexes), a function call, or a literal (inside function arguments). */
  private parseTerm(): Expr {
    const t = this.peek();
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') { this.next(); return { type: 'bool', value: t.text === 'true', offset: t.offset, length: t.length }; }
      if (KEYWORDS.has(t.text)) this.fail(t, `Expected a field, a function or "(", found the operator ${describe(t)}.`);
      this.next();
      if (this.isPunct(this.peek(), '(')) return this.parseCall(t);
      return this.parseIndexes({ type: 'field', name: t.text, nameSpan: { offset: t.offset, length: t.length }, index: [], offset: t.offset, length: t.length });
    }
    if (t.kind === 'string') { this.next(); return { type: 'string', value: String(t.value ?? ''), raw: !!t.raw, offset: t.offset, length: t.length }; }
    if (t.kind === 'int') { this.next(); return { type: 'int', value: Number(t.value), big: t.big, offset: t.offset, length: t.length }; }
    if (t.kind === 'ip' || t.kind === 'cidr') { this.next(); return { type: 'ip', text: t.text, cidr: t.kind === 'cidr', family: t.family ?? 4, offset: t.offset, length: t.length }; }
    this.fail(t, `Expected a field, a function or "(", found ${describe(t)}.`, hintFor(t));
  }

  private parseCall(name: Token): CallNode {
    this.enter(this.next()); // (
    const args: Expr[] = [];
    if (!this.isPunct(this.peek(), ')')) {
      for (;;) {
        args.push(this.parseOr());
        const sep = this.peek();
        if (this.isPunct(sep, ',')) { this.next(); continue; }
        if (this.isPunct(sep, ')')) break;
        this.fail(sep, `Expected "," or ")" in the arguments of ${name.text}(), found ${describe(sep)}.`, hintFor(sep));
      }
    }
    const close = this.next();
    this.depth--;
    const call: CallNode = { type: 'call', name: name.text, nameSpan: { offset: name.offset, length: name.length }, args, index: [], offset: name.offset, length: close.offset + 1 - name.offset };
    return this.parseIndexes(call);
  }

  private parseIndexes<N extends FieldNode | CallNode>(node: N): N {
    while (this.isPunct(this.peek(), '[')) {
      const open = this.next();
      const t = this.next();
      let step: IndexStep;
      if (t.kind === 'string') step = { kind: 'key', key: String(t.value ?? ''), offset: open.offset, length: 0 };
      else if (t.kind === 'int' && Number(t.value) >= 0) step = { kind: 'pos', pos: Number(t.value), offset: open.offset, length: 0 };
      else if (this.isPunct(t, '*')) step = { kind: 'star', offset: open.offset, length: 0 };
      else this.fail(t, `Expected a key in double quotes, an index or "*" inside "[...]", found ${describe(t)}.`);
      const close = this.peek();
      if (!this.isPunct(close, ']')) this.fail(close, `Expected "]" to close the index, found ${describe(close)}.`);
      this.next();
      step.length = close.offset + 1 - open.offset;
      node.index.push(step);
      node.length = close.offset + 1 - node.offset;
    }
    return node;
  }

  private parseRhs(op: { op: CompareOp; span: Node }, opTok: Token): Literal | SetNode | ListNode {
    const t = this.peek();
    if (op.op === 'in') {
      if (t.kind === 'list') { this.next(); return { type: 'list', name: String(t.value), offset: t.offset, length: t.length }; }
      if (this.isPunct(t, '{')) return this.parseSet();
      this.fail(t, `Expected a set "{...}" or a list "$name" after "in", found ${describe(t)}.`);
    }
    const lit = this.literal(t, opTok);
    this.next();
    return lit;
  }

  private literal(t: Token, after: Token): Literal {
    switch (t.kind) {
      case 'string': return { type: 'string', value: String(t.value ?? ''), raw: !!t.raw, offset: t.offset, length: t.length };
      case 'int': return { type: 'int', value: Number(t.value), big: t.big, offset: t.offset, length: t.length };
      case 'ip': case 'cidr': return { type: 'ip', text: t.text, cidr: t.kind === 'cidr', family: t.family ?? 4, offset: t.offset, length: t.length };
      case 'ident':
        if (t.text === 'true' || t.text === 'false') return { type: 'bool', value: t.text === 'true', offset: t.offset, length: t.length };
        if (!KEYWORDS.has(t.text)) {
          // An unquoted word: most often a string that lost its quotes. Quote it, up to the next space.
          this.fail(t, `Expected a value after "${after.text}", found ${describe(t)}; strings must be in double quotes.`, {
            fixes: [{ title: `Quote "${t.text}"`, edits: [{ offset: t.offset, length: t.length, newText: `"${t.text}"` }], preferred: true }],
          });
        }
        break;
      default:
        break;
    }
    this.fail(t, `Expected a value after "${after.text}", found ${describe(t)}.`);
  }

  private parseSet(): SetNode {
    const open = this.next();
    const items: (Literal | RangeNode)[] = [];
    for (;;) {
      const t = this.peek();
      if (this.isPunct(t, '}')) { this.next(); break; }
      if (t.kind === 'eof') this.fail(t, `Expected "}" to close the set opened at ${open.offset + 1}.`);
      if (this.isPunct(t, ',')) this.fail(t, 'Set elements are separated by spaces, not commas.', { fixes: [{ title: 'Replace the comma with a space', edits: [{ offset: t.offset, length: 1, newText: ' ' }], preferred: true }] });
      const from = this.literal(t, open);
      this.next();
      if (this.isPunct(this.peek(), '..')) {
        this.next();
        const toTok = this.peek();
        const to = this.literal(toTok, open);
        this.next();
        if ((from.type !== 'int' && from.type !== 'ip') || (to.type !== 'int' && to.type !== 'ip')) this.fail(from, 'Ranges "a..b" are allowed only between integers or IP addresses.');
        items.push({ type: 'range', from, to, offset: from.offset, length: to.offset + to.length - from.offset });
      } else items.push(from);
    }
    const last = this.tokens[this.i - 1];
    if (items.length === 0) this.fail({ offset: open.offset, length: last.offset + 1 - open.offset }, 'A set needs at least one element.');
    return { type: 'set', items, offset: open.offset, length: last.offset + 1 - open.offset };
  }
}

type AnyNode = Expr | Literal | SetNode | ListNode | RangeNode;

/** A node's operands, in source order. */
export function children(e: AnyNode): readonly AnyNode[] {
  switch (e.type) {
    case 'compare': return [e.left, e.right];
    case 'logical': return [e.left, e.right];
    case 'not': return [e.operand];
    case 'group': return [e.inner];
    case 'call': return e.args;
    case 'set': return e.items;
    case 'range': return [e.from, e.to];
    default: return [];
  }
}

/** Visit every node of an AST (pre-order). */
export function walk(e: AnyNode, fn: (n: AnyNode) => void): void {
  fn(e);
  for (const c of children(e)) walk(c, fn);
}
