// Recursive-descent parser of the rules language. Precedence (reference §4): not/! (1) > and/&& (2) > xor/^^ (3) > or/|| (4).
// The AST carries offsets into the decoded expression string.
import { isRegexOperator, readByteString, readInt, startsByteString, tokenize, validIp, type LexProblem, type Token } from './exprLexer';
import { bytesText, headOf, lossyBytes } from '../../text';
import { quoteList } from '../../messages';
import type { Edit } from '../../types';

export interface Node { offset: number; length: number }

export type IndexStep = Node & ({ kind: 'key'; key: string } | { kind: 'pos'; pos: number } | { kind: 'star' });

export interface FieldNode extends Node { type: 'field'; name: string; nameSpan: Node; index: IndexStep[] }
/** A function call; `index` holds the steps taken into its result, as in `lower(http.request.headers.names[*])[*]`. */
export interface CallNode extends Node { type: 'call'; name: string; nameSpan: Node; args: Expr[]; index: IndexStep[] }
export interface BoolNode extends Node { type: 'bool'; value: boolean }
/** `bytes`: written as an unquoted byte string (2f:61:62), whose `value` is the text of those bytes (core/text.ts bytesText). */
export interface StringNode extends Node { type: 'string'; value: string; raw: boolean; bytes?: true; exact?: Uint8Array }
/** `value` is the nearest double of an integer past 2^53; `big` is then the integer exactly (the platform's are 64-bit). */
export interface IntNode extends Node { type: 'int'; value: number; big?: bigint }
export interface IpNode extends Node { type: 'ip'; text: string; cidr: boolean; family: 4 | 6 }
export interface RangeNode extends Node { type: 'range'; from: IntNode | IpNode; to: IntNode | IpNode }
export interface SetNode extends Node { type: 'set'; items: (Literal | RangeNode)[] }
export interface ListNode extends Node { type: 'list'; name: string }
export type Literal = StringNode | IntNode | IpNode | BoolNode;

export type CompareOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'contains' | 'matches' | 'wildcard' | 'strict wildcard' | 'in';

/** A field or a function call on the right of a comparison: a dynamic value (changelog 2026-10-01 "Compare dynamic values"). */
export type DynamicValue = FieldNode | CallNode;

export interface CompareNode extends Node { type: 'compare'; left: Expr; op: CompareOp; opSpan: Node; right: Literal | SetNode | ListNode | DynamicValue }
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

// Switches and Maps, not objects: a token's text is looked up in them for every operand (an object lookup of a fresh string is
// slower, and it finds Object.prototype's members: "constructor" read as an operator).
/** The comparison word a token's text is: a switch for the reason logicalOf gives. */
function compareWordOf(text: string): CompareOp | undefined {
  switch (text) {
    case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge': case 'in': case 'contains': case 'matches': case 'wildcard': return text;
    default: return undefined;
  }
}

const COMPARE_SYMBOLS: ReadonlyMap<string, CompareOp> = new Map(Object.entries({ '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', '~': 'matches' } as const));

/** The comparison operator a token's text writes (a word or a symbol: eq, ==, contains, ~), or undefined. */
export const compareOpOf = (text: string): CompareOp | undefined => COMPARE_SYMBOLS.get(text) ?? compareWordOf(text);

/**
 * The logical operator a token's text writes. A switch, not a Map: asked of every short token, a Map's get hashed each fresh token
 * text first (5 % of the parser's time); the switch compares lengths, then at most a few characters.
 */
function logicalOf(text: string): 'and' | 'or' | 'xor' | undefined {
  switch (text) {
    case 'and': case '&&': return 'and';
    case 'or': case '||': return 'or';
    case 'xor': case '^^': return 'xor';
    default: return undefined;
  }
}
/** Operator words wirefilter matches as prefixes of a longer word, in the order it tries them (see Parser.prefixWord). */
const PREFIX_LOGICAL = ['or', 'xor', 'and'] as const;
const PREFIX_NOT = ['not'] as const;
const PRECEDENCE = { or: 0, xor: 1, and: 2 } as const;
const PREFIX_COMPARE = ['in', 'eq', 'ne', 'ge', 'le', 'gt', 'lt', 'contains', 'matches', 'wildcard'] as const;
export const KEYWORDS = new Set(['and', 'or', 'xor', 'not', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict', 'in', 'true', 'false']);
/**
 * The length of the longest operator word: a longer word (every field name but a few) is no keyword without a lookup. The parser
 * asks of every operand whether it is one, and a set's or map's lookup of a fresh token text hashes it first, character by character.
 */
const WORD_MAX = Math.max(...[...KEYWORDS].map((w) => w.length));
const isKeyword = (text: string): boolean => text.length <= WORD_MAX && KEYWORDS.has(text);

class SyntaxStop extends Error {}

/**
 * Bounds that keep the recursive parser and the checker's walk off the end of the stack: nesting of "(", "not"/"!" and function
 * calls, and the number of and/or/xor in the whole expression (a chain builds a tree as deep as it is long). Both are far beyond what
 * fits in the platform's 4096 bytes of sensible expression; past them the expression gets one limits/too-deep problem.
 */
export const MAX_EXPR_NESTING = 100;
export const MAX_EXPR_CONDITIONS = 2000;

/** A word the parser read as an operator word and the rest ("notssl": `not`, then `ssl` at `offset`), as wirefilter does. */
export interface WordSplit { offset: number; word: string; whole: string }

export interface ParseResult { ast: Expr | undefined; problems: ExprProblem[]; splits?: WordSplit[] }

/**
 * What the left side of a comparison is, for reading its right side as wirefilter does (the right side is lexed for the left side's
 * type): `textual` (String or Bytes: an unquoted byte string 2f:61:62 is read, and refused with its reason when it is wrong),
 * `bool` (a Boolean, or one per element: no operator is read after it), `other`, or `unknown` (a mistyped field: a byte string is read when it is one, so that the field is still reported).
 */
export type LeftKind = 'textual' | 'ip' | 'bool' | 'other' | 'unknown';

/** The operators that take a field or a function result on the right (changelog 2026-10-01: equality and ordering). */
export const DYNAMIC_OPS: ReadonlySet<CompareOp> = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);

/** Operators whose right side wirefilter lexes with BytesExpr::lex for a Bytes left side (matches and wildcard take a string only). */
const BYTES_OPS: ReadonlySet<CompareOp> = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'in']);

/** The field names the parser asks about (exprCheck fieldNames): whether a name is a field, and the fields nearest a misspelt one. */
export interface FieldNames { has(name: string): boolean; near(name: string): readonly string[] }

/**
 * leftKind: the type of a comparison's left side (the checker's, exprCheck leftKindOf); without it every left side is `unknown`.
 * fields: the field names of either catalogue, so that a bare word on the right of a comparison is read as a field, not as a string
 * without its quotes, and a misspelt one is offered its nearest names; without it, a word leftKind types is a field.
 */
export function parseExpression(src: string, leftKind?: (left: Expr) => LeftKind, fields?: FieldNames): ParseResult {
  const lexed = tokenize(src);
  const p = new Parser(lexed.tokens, src, lexed.problems, leftKind, fields);
  let ast: Expr | undefined;
  if (lexed.tokens.length === 1) {
    return { ast, problems: [...lexed.problems, { code: 'ruleset/expr-syntax', message: 'The expression is empty; use "true" to match all requests.', offset: 0, length: src.length }] };
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
  // The lexer's problems as the parser left them (an unquoted byte string replaces what the lexer read there)
  const problems: ExprProblem[] = [...p.lexProblems, ...p.looseIps];
  if (p.problem && (p.problem.code === 'limits/too-deep' || !p.lexProblems.some((q) => q.code === 'ruleset/expr-syntax'))) problems.push(p.problem);
  return p.splits.length ? { ast, problems, splits: p.splits } : { ast, problems };
}

function describe(t: Token): string {
  if (t.kind === 'eof') return 'end of the expression';
  return `"${t.text.length > 30 ? headOf(t.text, 30) + '…' : t.text}"`;
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

/** The operator words the parser reads off the front of a longer word (Parser.prefixWord): `not`, then logical, then comparison. */
export const PREFIX_WORDS: readonly string[] = ['not', ...PREFIX_LOGICAL, ...PREFIX_COMPARE];

/**
 * tokens[i], an identifier that starts with `word`, becomes `word` and the tokens of the rest, lexed again from there until a token
 * starts where one of the old ones did (as after a byte string, takeBytes); `tokens` is changed in place. The parser's split
 * (splitWord) and the semantic tokens' (which apply the parser's splits to the lexer's tokens) both go through here. Returns the
 * span lexed again, `from` to `to`, and the lexer's problems in it.
 */
export function splitTokenAt(src: string, tokens: Token[], i: number, word: string): { from: number; to: number; problems: LexProblem[] } {
  const t = tokens[i];
  const head: Token = { ...t, text: word, length: word.length };
  const from = t.offset + word.length;
  let m = i + 1;
  const rest = tokenize(src, from, (at, last) => {
    while (tokens[m].offset < at && m < tokens.length - 1) m++;
    return tokens[m].offset === at && tokens[m].kind !== 'eof' && isRegexOperator(last ?? head) === isRegexOperator(tokens[m - 1]);
  });
  if (rest.stopped === undefined) m = tokens.length;
  tokens.splice(i, m - i, head, ...rest.tokens);
  return { from, to: rest.stopped ?? src.length + 1, problems: rest.problems };
}

class Parser {
  private i = 0;
  private depth = 0;
  private conditions = 0;
  problem: ExprProblem | undefined;
  partial: Expr | undefined;
  /** parseArg's problem whose fix moves the call's ")" (known once the call is read) to `at`. */
  private closeAfter: { problem: ExprProblem; at: number; fn: string } | undefined;
  /** Warnings on the short IPv4 forms a set took (looseIpv4). */
  readonly looseIps: ExprProblem[] = [];
  /** The words read as an operator and the rest (splitWord): `offset` is where the rest starts. */
  readonly splits: WordSplit[] = [];
  /**
   * The lexer's problems, in two parts so that an unquoted byte string replaces those under it in time proportional to them, not
   * to the whole list (a set of thousands of byte strings was quadratic): `settled`, before the last byte string taken (the parse
   * goes left to right, so none of them is replaced again), and `ahead`, the others by offset from the last to the first (a stack).
   */
  private settled: LexProblem[] = [];
  private ahead: LexProblem[];
  constructor(private tokens: Token[], private readonly src: string, lexProblems: LexProblem[],
    private readonly leftKind?: (left: Expr) => LeftKind, private readonly fields?: FieldNames) {
    this.ahead = [...lexProblems].sort((a, b) => a.offset - b.offset).reverse();
  }

  get lexProblems(): LexProblem[] { return [...this.settled, ...[...this.ahead].reverse()]; }
  set lexProblems(problems: LexProblem[]) { this.settled = []; this.ahead = [...problems].sort((a, b) => a.offset - b.offset).reverse(); }

  /** The lexer's problems at offsets in [from, to) are replaced by `fresh` (sorted, all in that range). */
  private replaceLexProblems(from: number, to: number, fresh: LexProblem[]): void {
    const ahead = this.ahead;
    while (ahead.length > 0 && ahead[ahead.length - 1].offset < from) this.settled.push(ahead.pop()!);
    while (ahead.length > 0 && ahead[ahead.length - 1].offset < to) ahead.pop();
    for (let k = fresh.length - 1; k >= 0; k--) ahead.push(fresh[k]);
  }

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
    return (t.kind === 'ident' || t.kind === 'punct') && t.text.length <= 3 ? logicalOf(t.text) : undefined;
  }

  /**
   * The operator word an identifier starts with, where wirefilter reads one: its lex_enum! operators are matched as prefixes
   * (lex.rs `expect` is `strip_prefix`), so at the start of a simple expression "notssl" is `not ssl` (UnaryOp::lex is tried
   * first), after an operand "andssl" is `and ssl` (LogicalOp::lex, in its order: or, xor, and) and after a left side "eq80" is
   * `eq 80` (ComparisonOp::lex: in, then eq ne ge le gt lt, contains, matches, wildcard). Undefined for a whole word.
   */
  private prefixWord(t: Token, words: readonly string[]): string | undefined {
    if (t.kind !== 'ident') return undefined;
    const text = t.text;
    // Asked at every operand and operator: a word of two letters or fewer starts with no longer one (the shortest operator words
    // have two), and a loop rather than find() with a closure
    if (text.length <= 2) return undefined;
    for (let k = 0; k < words.length; k++) {
      const w = words[k];
      if (text.length > w.length && text.charCodeAt(0) === w.charCodeAt(0) && text.startsWith(w)) return w;
    }
    return undefined;
  }

  /** The identifier at the cursor, which starts with `word`, becomes `word` and the tokens of the rest (splitTokenAt). */
  private splitWord(word: string): void {
    const whole = this.peek().text;
    const r = splitTokenAt(this.src, this.tokens, this.i, word);
    this.replaceLexProblems(r.from, r.to, r.problems);
    this.splits.push({ offset: r.from, word, whole });
  }

  parseOr(): Expr { return this.binary(0); }

  /**
   * Operands joined by logical operators that bind at least as tightly as `min` (PRECEDENCE: "or" loosest, then "xor", then
   * "and"), left-associative: one loop that reads each operator once, where three nested levels (or, xor, and) asked each token
   * three times.
   */
  private binary(min: number): Expr {
    let left = this.parseUnary();
    for (;;) {
      const t = this.peek();
      const prefix = this.prefixWord(t, PREFIX_LOGICAL);
      const op = this.logicalOp(t) ?? (prefix === undefined ? undefined : logicalOf(prefix));
      if (op === undefined || PRECEDENCE[op] < min) return left;
      if (prefix) this.splitWord(prefix);
      if (++this.conditions > MAX_EXPR_CONDITIONS) {
        this.problem = {
          code: 'limits/too-deep', offset: t.offset, length: t.length,
          message: `The expression chains more than ${MAX_EXPR_CONDITIONS} "and", "or" and "xor" operators (at ${describe(t)}); it is not checked further.`,
        };
        throw new SyntaxStop();
      }
      this.next();
      this.partial = left;
      const right = this.binary(PRECEDENCE[op] + 1);
      left = { type: 'logical', op, opSpan: { offset: t.offset, length: t.length }, left, right, offset: left.offset, length: right.offset + right.length - left.offset };
    }
  }

  private parseUnary(): Expr {
    let t = this.peek();
    if (this.prefixWord(t, PREFIX_NOT)) {
      this.splitWord('not');
      t = this.peek();
    }
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
    const prefix = this.prefixWord(opTok, PREFIX_COMPARE);
    if (prefix && this.leftKind?.(left) === 'bool') {
      // wirefilter reads no operator after a Boolean (lex_with_lhs: IsTrue, the input untouched), so "eq80" is not split there: the
      // platform refuses the word where it expects "and", "or", "xor" or the end
      const text = this.src.slice(left.offset, left.offset + left.length);
      const named = left.type === 'field' ? `Field "${text}" is` : `${text} gives`;
      this.fail(opTok, `${named} a Boolean and takes no operator, so the platform refuses "${opTok.text}" after it (no operator is read off the front of a word there): write ${text} alone to match when it is true, or not ${text} when it is false.`);
    }
    const op = this.compareOp(prefix);
    if (!op) return left;
    const right = this.parseRhs(op, opTok, left);
    return { type: 'compare', left, op: op.op, opSpan: op.span, right, offset: left.offset, length: right.offset + right.length - left.offset };
  }

  /** A comparison operator at the cursor (consumed), or undefined; `prefix`, the operator word its identifier starts with. */
  private compareOp(prefix: string | undefined): { op: CompareOp; span: Node } | undefined {
    if (prefix) this.splitWord(prefix);
    const t = this.peek();
    const symbol = t.kind === 'punct' ? COMPARE_SYMBOLS.get(t.text) : undefined;
    if (symbol) { this.next(); return { op: symbol, span: t }; }
    if (t.kind !== 'ident') return undefined;
    if (t.text === 'strict') {
      const w = this.peek(1);
      if (w.kind === 'ident' && w.text === 'wildcard') {
        this.next(); this.next();
        // One literal to wirefilter (lex_enum's expect(input, "strict wildcard")): one space between the two words, nothing else
        const gap = t.offset + t.length;
        if (this.src.slice(gap, w.offset) !== ' ') {
          this.noSpace(gap, w.offset, '"strict wildcard" is one operator to the platform, written with exactly one space between its words.', ' ');
        }
        return { op: 'strict wildcard', span: { offset: t.offset, length: w.offset + w.length - t.offset } };
      }
      this.fail(w, `Expected "wildcard" after "strict", found ${describe(w)}.`);
    }
    const word = t.text.length <= WORD_MAX ? compareWordOf(t.text) : undefined;
    if (word) { this.next(); return { op: word, span: t }; }
    return undefined;
  }

  /** A field (with indexes), a function call, or a literal (inside function arguments). */
  private parseTerm(): Expr {
    const t = this.peek();
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') { this.next(); return { type: 'bool', value: t.text === 'true', offset: t.offset, length: t.length }; }
      if (isKeyword(t.text)) this.fail(t, `Expected a field, a function or "(", found the operator ${describe(t)}.`);
      this.next();
      if (this.isPunct(this.peek(), '(')) return this.parseCall(t);
      return this.parseIndexes({ type: 'field', name: t.text, nameSpan: { offset: t.offset, length: t.length }, index: [], offset: t.offset, length: t.length });
    }
    if (t.kind === 'string') { this.next(); return stringNode(t); }
    if (t.kind === 'int') { this.next(); return { type: 'int', value: Number(t.value), big: t.big, offset: t.offset, length: t.length }; }
    if (t.kind === 'ip' || t.kind === 'cidr') { this.next(); return { type: 'ip', text: t.text, cidr: t.kind === 'cidr', family: t.family ?? 4, offset: t.offset, length: t.length }; }
    this.fail(t, `Expected a field, a function or "(", found ${describe(t)}.`, hintFor(t));
  }

  private parseCall(name: Token): CallNode {
    this.enter(this.next()); // (
    const args: Expr[] = [];
    if (!this.isPunct(this.peek(), ')')) {
      for (;;) {
        args.push(this.argByteString() ?? this.parseArg(name));
        const sep = this.peek();
        if (this.isPunct(sep, ',')) { this.next(); continue; }
        if (this.isPunct(sep, ')')) break;
        this.fail(sep, `Expected "," or ")" in the arguments of ${name.text}(), found ${describe(sep)}.`, hintFor(sep));
      }
    }
    const close = this.next();
    this.depth--;
    if (this.closeAfter && this.closeAfter.problem === this.problem && this.isPunct(close, ")") && args.length === 1) {
      // parseArg's fix for any(a[*] eq "x" and ssl): its ")" moves to the end of the "[*]" comparison
      const { at, fn } = this.closeAfter;
      this.problem.fixes = [{ title: `Close ${fn}() after the comparison with "[*]"`, preferred: true,
        edits: [{ offset: at, length: 0, newText: ')' }, { offset: close.offset, length: 1, newText: '' }] }];
      this.closeAfter = undefined;
    }
    const call: CallNode = { type: 'call', name: name.text, nameSpan: { offset: name.offset, length: name.length }, args, index: [], offset: name.offset, length: close.offset + 1 - name.offset };
    return this.parseIndexes(call);
  }

  /**
   * One argument of a call, as wirefilter's FunctionCallArgExpr::lex_with reads it: one that starts with "(" or "not"/"!" is a
   * whole logical expression; one that starts with a field or a call (any() and all() included: lex_with has no case for them) is
   * that, with at most one comparison after it, and the argument ends there. So any(a[*] eq "x" and b[*] eq "y") is refused at "and" (the platform expects "," or ")");
   * any((a[*] eq "x" and b[*] eq "y")) is taken. The argument is still parsed whole here, so that the rest is checked as meant:
   * the problem (a syntax error, with the parentheses as its fix) does not stop the parse.
   */
  private parseArg(fn: Token): Expr {
    const t = this.peek();
    const logical = this.isPunct(t, '(') || this.isPunct(t, '!') || (t.kind === 'ident' && t.text.startsWith('not'));
    const arg = this.parseOr();
    if (logical || arg.type !== 'logical' || this.problem) return arg;
    let first = arg;
    while (first.left.type === 'logical') first = first.left;
    const op = this.src.slice(first.opSpan.offset, first.opSpan.offset + first.opSpan.length);
    const refused = `In the arguments of ${fn.text}(), an argument that starts with a field or a function ends after its comparison, so the platform refuses "${op}" here (it expects "," or ")")`;
    // In any()/all(), a condition with "[*]" and one without cannot be combined (one boolean per element and a single one): the
    // parentheses would give that type error, so the fix closes the call after the "[*]" comparison when it comes first and the
    // rest has no "[*]" (what any(a[*] eq "x" and ssl) means), and there is no fix for the other mixes
    const leaves = logicalLeaves(arg);
    const each = leaves.map(perElement);
    if ((fn.text === 'any' || fn.text === 'all') && each.some((e) => e) && !each.every((e) => e)) {
      if (each[0] && !each.slice(1).some((e) => e)) {
        this.problem = { code: 'ruleset/expr-syntax', offset: first.opSpan.offset, length: first.opSpan.length,
          message: `${refused}; close ${fn.text}() after the comparison with "[*]": ${fn.text}(...) ${op} ...` };
        this.closeAfter = { problem: this.problem, at: leaves[0].offset + leaves[0].length, fn: fn.text };
      } else {
        this.problem = { code: 'ruleset/expr-syntax', offset: first.opSpan.offset, length: first.opSpan.length,
          message: `${refused}; a condition on each element ("[*]") and one on the whole request cannot be combined inside ${fn.text}(): keep ${fn.text}() around the comparisons with "[*]" and combine the others outside it.` };
      }
      return arg;
    }
    this.problem = { code: 'ruleset/expr-syntax', offset: first.opSpan.offset, length: first.opSpan.length,
      message: `${refused}; put the whole condition in parentheses: ${fn.text}((...)).`,
      fixes: [{ title: 'Put the condition in parentheses', preferred: true,
        edits: [{ offset: arg.offset, length: 0, newText: '(' }, { offset: arg.offset + arg.length, length: 0, newText: ')' }] }] };
    return arg;
  }

  private parseIndexes<N extends FieldNode | CallNode>(node: N): N {
    while (this.isPunct(this.peek(), '[')) {
      const open = this.next();
      // IndexExpr::lex_with expects "[" right after the field, the call or the previous "]": no space
      this.noSpace(node.offset + node.length, open.offset,
        `A space before "[": the platform reads an index only right after ${node.type === 'field' ? 'the field' : 'the call'} or the previous "]", and refuses the expression here; remove the space.`);
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

  private parseRhs(op: { op: CompareOp; span: Node }, opTok: Token, left: Expr): Literal | SetNode | ListNode | DynamicValue {
    const t = this.peek();
    if (op.op === 'in') {
      if (t.kind === 'list') { this.next(); return { type: 'list', name: String(t.value), offset: t.offset, length: t.length }; }
      if (this.isPunct(t, '{')) return this.parseSet(left);
      const dynamic = this.dynamicWord(t);
      this.fail(t, `Expected a set "{...}" or a list "$name" after "in", found ${dynamic ? `${dynamic}: "in" takes a set or a list only (a field or function result on the right-hand side is taken after eq, ne, lt, le, gt or ge only)` : describe(t)}.`);
    }
    // An unquoted byte string first (c2:b4; byteString() leaves a word that goes on past one, as every field name does), then a field
    // or a call: a dynamic value (the platform since 2026-10-01), after equality and ordering only (literal() refuses the others,
    // naming the operator)
    const bytes = BYTES_OPS.has(op.op) ? this.byteString(left, false) : this.notRegexBytes(op, left);
    if (bytes) return bytes;
    if (DYNAMIC_OPS.has(op.op) && this.dynamicWord(t)) return this.parseTerm() as DynamicValue;
    const lit = this.literal(t, opTok, op);
    this.next();
    return lit;
  }

  /**
   * How messages name the field or call at the cursor, when the right side of a comparison is one: a call (a word before "("), a
   * field the catalogue knows, or a word with an index right after it (an unknown field, which the checker reports with its nearest
   * names); else undefined. A bare unknown word stays a string without its quotes (literal()'s fix).
   */
  private dynamicWord(t: Token): string | undefined {
    if (t.kind !== 'ident' || isKeyword(t.text)) return undefined;
    const next = this.peek(1);
    if (this.isPunct(next, '(')) return `the function ${t.text}()`;
    const known = this.fields ? this.fields.has(t.text) : !!this.leftKind && this.leftKind(fieldNode(t)) !== 'unknown';
    if (known || (this.isPunct(next, '[') && next.offset === t.offset + t.length)) return `the field "${t.text}"`;
    return undefined;
  }

  /** A literal value at `t` (not consumed), after the operator `op`, or in a set (no `op`, `after` its "{"). */
  private literal(t: Token, after: Token, op?: { op: CompareOp; span: Node }): Literal {
    switch (t.kind) {
      case 'string': return stringNode(t);
      case 'int': return { type: 'int', value: Number(t.value), big: t.big, offset: t.offset, length: t.length };
      case 'ip': case 'cidr': return { type: 'ip', text: t.text, cidr: t.kind === 'cidr', family: t.family ?? 4, offset: t.offset, length: t.length };
      case 'ident': {
        if (t.text === 'true' || t.text === 'false') return { type: 'bool', value: t.text === 'true', offset: t.offset, length: t.length };
        const dynamic = this.dynamicWord(t);
        if (dynamic) {
          // contains, matches, wildcard, strict wildcard: the changelog names equality and ordering only for a dynamic value
          if (!op) this.fail(t, `Expected a value in the set, found ${dynamic}: a set holds literal values only.`);
          const written = this.src.slice(op.span.offset, op.span.offset + op.span.length);
          this.fail(t, `Expected a value after "${written}", found ${dynamic}: "${written}" takes a literal value only (a field or function result on the right-hand side is taken after eq, ne, lt, le, gt or ge only).`);
        }
        if (!isKeyword(t.text)) {
          // An unquoted word: most often a string that lost its quotes. Quote it, up to the next space. After equality and ordering
          // a word near a field's name (http.referr) is more likely that field misspelt: offered first
          const quote = { title: `Quote "${t.text}"`, edits: [{ offset: t.offset, length: t.length, newText: `"${t.text}"` }] };
          const near = op && DYNAMIC_OPS.has(op.op) && this.fields ? this.fields.near(t.text) : [];
          if (near.length) {
            this.fail(t, `Expected a value after "${after.text}", found ${describe(t)}: did you mean the field ${quoteList(near)}? Otherwise strings must be in double quotes.`, {
              fixes: [...near.map((n, k) => ({ title: `Change to "${n}"`, edits: [{ offset: t.offset, length: t.length, newText: n }], preferred: k === 0 })), { ...quote, preferred: false }],
            });
          }
          this.fail(t, `Expected a value after "${after.text}", found ${describe(t)}; strings must be in double quotes.`, { fixes: [{ ...quote, preferred: true }] });
        }
        break;
      }
      default:
        break;
    }
    this.fail(t, `Expected a value after "${after.text}", found ${describe(t)}.`);
  }

  /**
   * An unquoted byte string at the cursor, on the right of a comparison whose left side is textual (or unknown), consumed; else
   * undefined and nothing consumed. wirefilter lexes such a right side as bytes (BytesExpr::lex), so "10.20.30.40" there is four
   * bytes, not an address. Only a text that starts as one (a byte and a separator) is read so: "foo" or "41" keep the checker's own
   * messages (quotes; the type), which refuse them as the platform does.
   */
  private byteString(left: Expr, inSet: boolean): StringNode | undefined {
    const t = this.peek();
    const from = this.valueStart();
    if (t.kind === 'string' || !startsByteString(this.src, from)) return undefined;
    const kind = this.leftKind ? this.leftKind(left) : 'unknown';
    if (kind === 'other' || kind === 'ip' || kind === 'bool') return undefined;
    const r = readByteString(this.src, from);
    // A word that goes on past the byte string ("ad.example.com", "cf.edge") is a string without its quotes: the checker's message,
    // with the fix that quotes it (the platform refuses both readings). Not in a set, where the rest of the word is the next item
    // ("{a7.5aeb:df}" is a7:5a and eb:df), nor before "and"/"or"/"xor" ("41:42and ssl" reads on)
    if (t.kind === 'ident' && t.offset === from && t.offset + t.length > ('error' in r ? r.offset : r.end)
      && ('error' in r || (!inSet && !/^(?:and|or|xor)/.test(this.src.slice(r.end))))) return undefined;
    if ('error' in r) {
      if (kind === 'unknown') return undefined;
      // The lexer's reading of the same characters (an IPv6 address, an unexpected ":") is not the platform's, and the parse stops
      // here: this error replaces them, and the lexer's syntax errors after it (a consequence, as after any first syntax error)
      const end = r.offset + Math.max(r.length, 1);
      this.lexProblems = this.lexProblems.filter((q) => q.offset < from || (q.offset >= end && q.code !== 'ruleset/expr-syntax'));
      this.fail(r, r.error);
    }
    return this.takeBytes(from, r.bytes, r.end);
  }

  /** A byte string after "matches" or "wildcard" (their Regex/Wildcard::lex_with take a quote or r only): an error saying so,
   * instead of the lexer's reading of its characters. */
  private notRegexBytes(op: { op: CompareOp; span: Node }, left: Expr): undefined {
    const from = this.valueStart();
    if (this.peek().kind === 'string' || !startsByteString(this.src, from) || !this.leftKind || this.leftKind(left) !== 'textual') return undefined;
    const r = readByteString(this.src, from);
    const end = 'error' in r ? r.offset : r.end;
    const written = this.src.slice(op.span.offset, op.span.offset + op.span.length);
    this.lexProblems = this.lexProblems.filter((q) => q.offset < from || (q.offset >= end && q.code !== 'ruleset/expr-syntax'));
    this.fail({ offset: from, length: end - from }, `"${written}" takes ${op.op === 'matches' ? 'a regex' : 'a pattern'} in double quotes or a raw string r"...", not the unquoted byte string "${this.src.slice(from, end)}".`);
  }

  /**
   * Whitespace from `from` to `to` where wirefilter takes none (or, with `newText`, only that): an expr-whitespace problem with the
   * fix, in place of the lexer's tab problems there. Not a syntax error: the parse and the checks go on.
   */
  private noSpace(from: number, to: number, message: string, newText = ''): void {
    if (to <= from) return;
    const fresh: LexProblem = { code: 'ruleset/expr-whitespace', offset: from, length: to - from, message,
      fixes: [{ title: newText ? 'Write one space' : 'Remove the space', edits: [{ offset: from, length: to - from, newText }], preferred: true }] };
    // In the two-part list (see `settled`), near its top: the problems that end before `from` are settled (the parse is past them),
    // those that start before `to` are taken off, the lexer's tab problems among them dropped, and the rest put back in order with
    // this one. A set of thousands of spaced ranges costs each gap its own few problems, not the whole list.
    const ahead = this.ahead;
    while (ahead.length > 0 && ahead[ahead.length - 1].offset + ahead[ahead.length - 1].length <= from) this.settled.push(ahead.pop()!);
    const near: LexProblem[] = [];
    while (ahead.length > 0 && ahead[ahead.length - 1].offset < to) near.push(ahead.pop()!);
    const kept = near.filter((q) => q.code !== 'ruleset/expr-whitespace' || q.offset + q.length <= from || q.offset >= to);
    const merged = [...kept, fresh].sort((a, b) => a.offset - b.offset);
    for (let k = merged.length - 1; k >= 0; k--) ahead.push(merged[k]);
  }

  /** Where the value at the cursor starts: after the previous token and spaces (the lexer skips a character it refuses, "+"). */
  private valueStart(): number {
    const prev = this.tokens[this.i - 1];
    let j = prev ? prev.offset + prev.length : 0;
    for (let c = this.src.charCodeAt(j); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = this.src.charCodeAt(++j)); // the lexer's spaces
    return j;
  }

  /**
   * A function argument that wirefilter reads as a byte string (FunctionCallArgExpr::lex_with): its literal is tried as an IP address,
   * then as an integer, then as bytes, so a byte string is an argument only where the first two fail: "0a:0b" (no octal integer),
   * "aa:bb", not "41:42" (the integer 41, then ":") nor "ab:cd:ef:01:23:45:67:89" (an IPv6 address).
   */
  private argByteString(): StringNode | undefined {
    const t = this.peek();
    const from = this.valueStart();
    if (t.kind === 'string' || !startsByteString(this.src, from)) return undefined;
    const r = readByteString(this.src, from);
    if ('error' in r) return undefined;
    // A field comes first (the blind IndexExpr::lex_with): "cf.edge.client_port" is one, "ab.cd.ef" is no field and so bytes
    if (t.kind === 'ident' && t.offset === from && (t.offset + t.length > r.end || (this.leftKind && this.leftKind(fieldNode(t)) !== 'unknown'))) return undefined;
    const rest = this.src.slice(from, r.end + 64);
    const ip = /^[0-9A-Fa-f:./]*/.exec(rest)![0];
    if (validIp(ip)) return undefined;
    // i64::lex: "0x" and hex digits, or a run of hex digits read as octal (a leading 0) or decimal; a "+" starts none of them
    const int = /^(?:0x)?[0-9A-Fa-f]*/.exec(rest)![0];
    if (int !== '' && int !== '0x' && !('error' in readInt(int))) return undefined;
    return this.takeBytes(from, r.bytes, r.end);
  }

  /** The byte string from token t to end as a string node; the tokens it covers are dropped (the rest is lexed again when it ends
   * inside one, "c2:b4710c" ends after "b4"), and so are the lexer's problems on them. */
  private takeBytes(from: number, bytes: number[], end: number): StringNode {
    const value = bytesText(Uint8Array.from(bytes));
    // One string token stands for the byte string, consumed: what follows is read after it
    this.takeSpan(from, end, { kind: 'string', text: this.src.slice(from, end), offset: from, length: end - from, value, big: undefined, family: undefined, raw: false, bytes: undefined });
    const exact = lossyBytes(Uint8Array.from(bytes));
    return { type: 'string', value, raw: false, bytes: true, offset: from, length: end - from, ...(exact ? { exact } : {}) };
  }

  /** The text from `from` to `end` as the one token `own`, consumed: the lexer's tokens and problems under it are replaced (see
   * takeBytes). */
  private takeSpan(from: number, end: number, own: Token): void {
    let k = this.i;
    while (k < this.tokens.length - 1 && this.tokens[k].offset < end) k++;
    const straddles = this.tokens[k - 1].offset + this.tokens[k - 1].length > end;
    let seq: Token[] = [own];
    let to = end;
    if (straddles) {
      // The rest is lexed again from the byte string's end only until a token starts where one of the lexer's own did, after a
      // token that reads a string the same way (a regex after "matches"): from there the lexer's tokens are what it reads again
      let m = k;
      const rest = tokenize(this.src, end, (at, last) => {
        while (this.tokens[m].offset < at && m < this.tokens.length - 1) m++;
        return this.tokens[m].offset === at && this.tokens[m].kind !== 'eof' && isRegexOperator(last ?? own) === isRegexOperator(this.tokens[m - 1]);
      });
      if (rest.stopped === undefined) m = this.tokens.length;
      seq = [own, ...rest.tokens];
      k = m;
      to = rest.stopped ?? this.src.length + 1;
      this.replaceLexProblems(from, to, rest.problems);
    } else this.replaceLexProblems(from, to, []);
    // The tokens from the cursor to k become seq, written so that they end at k: the tokens before the cursor are read no more
    // (only the one just before it, which becomes the byte string's), so their places can be taken (splicing moved the whole tail
    // for each byte string)
    const start = k - seq.length;
    if (start >= 0) {
      for (let q = 0; q < seq.length; q++) this.tokens[start + q] = seq[q];
      this.i = start;
    } else this.tokens.splice(this.i, k - this.i, ...seq);
    this.next();
  }

  /**
   * An IPv4 address or CIDR in a set of an IP field, in a form only a set takes: wirefilter reads a set's address with the cidr
   * crate (0.2), whose IpCidr::from_str falls back to a loose IPv4 reading when Rust's strict one fails: one to four decimal parts
   * 0-255, leading zeros allowed ("010" is 10, not octal 8), the missing parts 0 ("10.1" is 10.1.0.0, "10" is 10.0.0.0); with a
   * "/len", that address is the network. A range's two ends and a comparison's address are strict. The node holds the full form,
   * and a warning (ruleset/expr-ip-short-form) offers it; undefined (nothing consumed) for any other value.
   */
  private looseIpv4(ipLeft: () => boolean): IpNode | undefined {
    const t = this.peek();
    if (t.kind !== 'int' && t.kind !== 'ip' && t.kind !== 'cidr' || !ipLeft()) return undefined;
    // Four parts without a leading zero (what most sets hold): the loose reading is the strict one, or refuses it too (a part over
    // 255); an IPv6 token is never loose. Decided on the token's text, before the regex and splits below (a third of a parse)
    if (t.kind !== 'int' && (t.family === 6 || FOUR_PLAIN_PARTS.test(t.text))) return undefined;
    const from = this.valueStart();
    const chunk = /^[0-9a-fA-F:./]*/.exec(this.src.slice(from, from + 64))![0]; // IpRange::lex's match_addr_or_cidr
    if (chunk.includes('..') || chunk.includes(':')) return undefined;
    const slash = chunk.indexOf('/');
    const addr = slash < 0 ? chunk : chunk.slice(0, slash);
    const prefix = slash < 0 ? undefined : chunk.slice(slash + 1);
    if (validIp(addr)) return undefined;
    const parts = addr.split('.');
    if (parts.length > 4 || !parts.every((q) => /^\d{1,3}$/.test(q) && Number(q) <= 255)) return undefined;
    if (prefix !== undefined && !(/^\d{1,2}$/.test(prefix) && Number(prefix) <= 32)) return undefined;
    const full = [...parts.map(Number), 0, 0, 0].slice(0, 4);
    if (prefix !== undefined) {
      const bits = Number(prefix);
      const n = ((full[0] << 24) | (full[1] << 16) | (full[2] << 8) | full[3]) >>> 0;
      if (bits < 32 && (n & (2 ** (32 - bits) - 1)) !== 0) return undefined; // host bits set: the lexer's reading reports it
    }
    const text = full.join('.') + (prefix === undefined ? '' : `/${Number(prefix)}`);
    const end = from + chunk.length;
    this.takeSpan(from, end, { kind: prefix === undefined ? 'ip' : 'cidr', text, offset: from, length: end - from, value: undefined, big: undefined, family: 4, raw: undefined, bytes: undefined });
    this.looseIps.push({ code: 'ruleset/expr-ip-short-form', offset: from, length: end - from,
      message: `"${chunk}" is read in a set as ${text} (decimal parts, the missing ones 0), and refused outside a set; write ${text}.`,
      fixes: [{ title: `Write ${text}`, preferred: true, edits: [{ offset: from, length: end - from, newText: text }] }] });
    return { type: 'ip', text, cidr: prefix !== undefined, family: 4, offset: from, length: end - from };
  }

  private parseSet(left: Expr): SetNode {
    const open = this.next();
    // Whether the left side is an IP, asked once per set (the checker types it) and only when an item may be a short form
    let isIp: boolean | undefined;
    const ipLeft = (): boolean => (isIp ??= !!this.leftKind && this.leftKind(left) === 'ip');
    const items: (Literal | RangeNode)[] = [];
    for (;;) {
      const t = this.peek();
      if (this.isPunct(t, '}')) { this.next(); break; }
      if (t.kind === 'eof') this.fail(t, `Expected "}" to close the set opened at ${open.offset + 1}.`);
      const bytes = this.byteString(left, true);
      if (bytes) { items.push(bytes); continue; }
      const loose = this.looseIpv4(ipLeft);
      if (loose) {
        if (this.isPunct(this.peek(), '..')) this.fail(this.peek(), `A range's ends are two full addresses (a.b.c.d); "${this.src.slice(loose.offset, loose.offset + loose.length)}" is a form only a set's single address takes.`);
        items.push(loose);
        continue;
      }
      if (this.isPunct(t, ',')) this.fail(t, 'Set elements are separated by spaces, not commas.', { fixes: [{ title: 'Replace the comma with a space', edits: [{ offset: t.offset, length: 1, newText: ' ' }], preferred: true }] });
      const from = this.literal(t, open);
      this.next();
      if (this.isPunct(this.peek(), '..')) {
        const dots = this.next();
        const toTok = this.peek();
        // IntRange::lex expects ".." right after the integer and the integer right after it; IpRange::lex reads one chunk
        const range = 'the platform reads a range only without spaces (1..5, 198.51.100.3..198.51.100.7) and refuses it here; remove the space.';
        this.noSpace(from.offset + from.length, dots.offset, `A space before "..": ${range}`);
        this.noSpace(dots.offset + dots.length, toTok.offset, `A space after "..": ${range}`);
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

/** An IPv4 address or CIDR of four decimal parts, none with a leading zero (010), as the lexer's IPv4 token holds it. */
const FOUR_PLAIN_PARTS = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}(?:\/\d+)?$/;

/** The operands of a chain of and/or/xor, in order (a group or a "not" is one operand). */
function logicalLeaves(e: Expr): Expr[] {
  return e.type === 'logical' ? [...logicalLeaves(e.left), ...logicalLeaves(e.right)] : [e];
}

/** Whether a condition gives one boolean per element: a "[*]" in it outside any() and all() (the checker's "each" types). */
function perElement(e: Expr): boolean {
  switch (e.type) {
    case 'field': return e.index.some((s) => s.kind === 'star');
    case 'call': return e.name !== 'any' && e.name !== 'all' && (e.index.some((s) => s.kind === 'star') || e.args.some(perElement));
    case 'compare': return perElement(e.left) || ((e.right.type === 'field' || e.right.type === 'call') && perElement(e.right));
    case 'logical': return perElement(e.left) || perElement(e.right);
    case 'not': return perElement(e.operand);
    case 'group': return perElement(e.inner);
    default: return false;
  }
}

/** A string token's node; `exact` holds its bytes when its text cannot stand for them (a lone \xe0). */
function stringNode(t: Token): StringNode {
  const node: StringNode = { type: 'string', value: String(t.value ?? ''), raw: !!t.raw, offset: t.offset, length: t.length };
  if (t.bytes) node.exact = t.bytes;
  return node;
}

/** The field an identifier token names, as the parser builds it. */
function fieldNode(t: Token): FieldNode {
  return { type: 'field', name: t.text, nameSpan: { offset: t.offset, length: t.length }, index: [], offset: t.offset, length: t.length };
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
