// Semantic tokens: what the TextMate grammars (syntaxes/) colour inside JSON strings, for editors that colour by the language
// server instead (Neovim >= 0.9, Emacs lsp-mode, Zed...). A rule's expression is read by the checker's own lexer (exprLexer), a
// job's `filter` string and a filter file by jsonc-parser's visitor; offsets inside a JSON string are mapped onto the document
// through its escapes (jsonString.ts). Plain JSON (keys, strings, numbers) gets no token: every editor colours JSON itself.
// Decisions in docs/architecture.md, "Semantic tokens".
import { visit } from 'jsonc-parser';
import type { DocKind, JsonPath, ParsedDoc, Span } from './types';
import { isObj } from './json';
import { JsonStringMap } from './jsonString';
import { tokenize, type Token } from './rules/ruleset/exprLexer';
import { PREFIX_WORDS, parseExpression, splitTokenAt, type WordSplit } from './rules/ruleset/exprParser';
import { fieldNames, leftKindOf } from './rules/ruleset/exprCheck';
import { FUNCTIONS } from './rules/ruleset/catalog';
import { stringAt } from './rules/ruleset/expression';
import { expressionsOf } from './rules/ruleset/valueExpressions';
import { phaseOf, rulesOf } from './rules/ruleset/body';
import { EmbeddedString } from './rules/logpush/embedded';

/** The standard LSP token types used (SemanticTokenTypes), so that themes colour them without configuration. */
export const SEMANTIC_TYPES = ['keyword', 'operator', 'function', 'variable', 'property', 'string', 'regexp', 'number'] as const;
export type SemanticType = typeof SEMANTIC_TYPES[number];
/** Standard modifiers: a rules-language function is a built-in (defaultLibrary), a `$list` a named constant (readonly). */
export const SEMANTIC_MODIFIERS = ['defaultLibrary', 'readonly'] as const;
export type SemanticModifier = typeof SEMANTIC_MODIFIERS[number];

export interface SemanticToken { offset: number; length: number; type: SemanticType; modifiers?: SemanticModifier[] }

/** Word operators of the rules language (wirefilter): comparisons, and the logical ones. */
const COMPARISON_WORDS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'in', 'wildcard', 'strict']);
const LOGICAL_WORDS = new Set(['not', 'and', 'xor', 'or']);
const OPERATOR_PUNCT = new Set(['==', '!=', '<=', '>=', '<', '>', '~', '!', '&&', '||', '^^', '===']);

const intersects = (a: Span, r: Span | undefined): boolean => !r || (a.offset < r.offset + r.length && r.offset < a.offset + a.length) || (a.length === 0 && a.offset === r.offset);

/** The tokens of the document, in document order, none overlapping; with a range, those of the strings that reach into it. */
export function semanticTokens(kind: DocKind, doc: ParsedDoc, range?: Span): SemanticToken[] {
  const out: SemanticToken[] = [];
  for (const step of semanticTokenSteps(kind, doc, range)) for (const t of step) out.push(t);
  return kind === 'waf-ruleset' ? out.sort(byOffset) : out;
}

export const byOffset = (a: SemanticToken, b: SemanticToken): number => a.offset - b.offset;

/**
 * The same tokens in steps, one per embedded string (each expression of a ruleset; a job's filter or a filter file is one step), so
 * that a caller that must stay responsive pulls them one at a time and may stop between two (the LSP layer answers a cancelled
 * request there: a full request on a 1.2 MB ruleset is 2 000 steps and about 0.3 s). A ruleset's steps come in the order of its
 * members, not always the document's (an object's integer-like keys come first): sort them by offset (byOffset) when they are
 * all in.
 */
export function* semanticTokenSteps(kind: DocKind, doc: ParsedDoc, range?: Span): Generator<SemanticToken[], void, undefined> {
  const inRange = (tokens: SemanticToken[]) => (range ? tokens.filter((t) => intersects(t, range)) : tokens);
  if (kind === 'waf-ruleset') {
    // The strings the checker reads as expressions (valueExpressions.ts: match expressions, header values, redirect targets, ...)
    const paths: JsonPath[] = rulesOf(doc.value).flatMap((rule, i) => expressionsOf(rule, i).map((u) => u.path));
    // The fields of the body's phase, as the checker reads them (the Network Firewall's catalogue in its phases)
    const phase = phaseOf(doc.value);
    for (const path of paths) {
      if (range && !intersects(doc.locate(path), range)) continue;
      const map = stringAt(doc, path);
      if (map) yield inRange(expressionTokens(map, phase));
    }
  } else if (kind === 'logpush-job') yield inRange(jobTokens(doc));
  else if (kind === 'logpush-filter') yield inRange(filterTokens(doc.text, undefined, false));
  // a JSON-RPC request holds no embedded language: a 0.8 MB batch costs nothing here
}

// ---------------- rules language ----------------

const MAY_HOLD_BYTES = /(?<![\w.:-])[0-9a-fA-F]{2}[:.-][0-9a-fA-F]{2}/;

/** The unquoted byte strings the parser read (2f:61:62, a7.5a), in order: the lexer reads them as other tokens. */
function byteStrings(node: unknown, out: Span[]): void {
  if (Array.isArray(node)) { for (const n of node) byteStrings(n, out); return; }
  if (!isObj(node)) return;
  if (node.type === 'string' && node.bytes === true) { out.push({ offset: node.offset as number, length: node.length as number }); return; }
  for (const v of Object.values(node)) if (typeof v === 'object' && v !== null) byteStrings(v, out);
}

const JOINED_CANDIDATE = /^(?:not|and|x?or|in|eq|ne|[gl][et]|contains|matches|wildcard)./;

/** An identifier the parser may split (`notssl`, `eq80`): one that starts with an operator word and is not a function's name
 * (`len`, `wildcard_replace`; no field starts with one). */
const mayBeJoined = (t: Token): boolean => t.kind === 'ident' && JOINED_CANDIDATE.test(t.text) && !FUNCTIONS.has(t.text) && !PREFIX_WORDS.includes(t.text);

/** The lexer's tokens with the parser's word splits applied, each as the parser makes it (splitTokenAt). A split inside the rest of
 * another (`notnotssl`) is applied when its token is reached. */
function applySplits(src: string, tokens: Token[], splits: readonly WordSplit[]): Token[] {
  const at = new Map(splits.map((s) => [s.offset - s.word.length, s.word]));
  const out = [...tokens];
  for (let i = 0; i < out.length; i++) {
    const t = out[i];
    const word = t.kind === 'ident' ? at.get(t.offset) : undefined;
    if (word && t.text.length > word.length && t.text.startsWith(word)) splitTokenAt(src, out, i, word);
  }
  return out;
}

/** One expression's tokens, mapped from the decoded value onto the document. */
export function expressionTokens(map: JsonStringMap, phase?: string): SemanticToken[] {
  let { tokens } = tokenize(map.value);
  // The parser relexes an unquoted byte string (a7.5aeb:df is a7.5a and eb:df; 01:02 is no two integers): its span replaces the
  // lexer's tokens under it, as one number token. It reads an operator word off the front of a longer word (notssl is `not ssl`):
  // that word is split as the parser splits it. Parsed only when the expression may hold either (two hex digits, a separator, two
  // hex digits, at the start of a word; an identifier that starts with an operator word): with every expression parsed, a full
  // request on a 1.2 MB ruleset took about twice as long.
  const bytes: Span[] = [];
  if (MAY_HOLD_BYTES.test(map.value) || tokens.some(mayBeJoined)) {
    const parsed = parseExpression(map.value, leftKindOf(phase), fieldNames(phase));
    byteStrings(parsed.ast, bytes);
    if (parsed.splits) tokens = applySplits(map.value, tokens, parsed.splits);
  }
  bytes.sort((a, b) => a.offset - b.offset);
  const out: SemanticToken[] = [];
  let prev: Token | undefined;
  let b = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    while (b < bytes.length && bytes[b].offset + bytes[b].length <= t.offset) out.push({ ...map.spanToSource(bytes[b++]), type: 'number' });
    if (b < bytes.length && bytes[b].offset < t.offset + t.length) { prev = t; continue; } // under a byte string
    const kind = tokenType(t, prev, tokens[i + 1]);
    prev = t;
    if (!kind) continue;
    const at = map.spanToSource(t);
    out.push(kind.modifiers ? { ...at, type: kind.type, modifiers: kind.modifiers } : { ...at, type: kind.type });
  }
  while (b < bytes.length) out.push({ ...map.spanToSource(bytes[b++]), type: 'number' });
  return out.filter((t) => t.length > 0);
}

function tokenType(t: Token, prev: Token | undefined, next: Token | undefined): { type: SemanticType; modifiers?: SemanticModifier[] } | undefined {
  switch (t.kind) {
    case 'ident':
      if (next?.kind === 'punct' && next.text === '(') return { type: 'function', modifiers: ['defaultLibrary'] };
      if (COMPARISON_WORDS.has(t.text)) return { type: 'operator' };
      if (LOGICAL_WORDS.has(t.text) || t.text === 'true' || t.text === 'false') return { type: 'keyword' };
      return { type: 'variable' }; // a field (http.request.uri.path, ssl)
    case 'string': {
      // The regex of "matches" or "~" (the lexer's regexString): a regexp, whether quoted or raw.
      const regex = (prev?.kind === 'ident' && prev.text === 'matches') || (prev?.kind === 'punct' && prev.text === '~');
      return { type: regex ? 'regexp' : t.text.startsWith('"') || t.raw ? 'string' : 'number' }; // unquoted: a byte string (01:02:03)
    }
    case 'int': case 'ip': case 'cidr': return { type: 'number' };
    case 'list': return { type: 'variable', modifiers: ['readonly'] };
    case 'punct': return OPERATOR_PUNCT.has(t.text) ? { type: 'operator' } : undefined;
    default: return undefined;
  }
}

// ---------------- Logpush filters ----------------

const LOGICAL_KEYS = new Set(['where', 'and', 'or']);
const COMPARISON_KEYS = new Set(['key', 'operator', 'value']);

/**
 * A filter's tokens: the keys "where", "and", "or" (keyword), a comparison's field (the value of "key": variable) and operator (the
 * value of "operator"). Inside a job's filter string (map given) the comparison's member names are properties too, as nothing else
 * colours them there; in a filter file the editor's JSON colouring does.
 */
function filterTokens(text: string, map: JsonStringMap | undefined, embedded: boolean): SemanticToken[] {
  const out: SemanticToken[] = [];
  const push = (offset: number, length: number, type: SemanticType) => {
    // The name inside its quotes ("where" -> where): in a job, its \" escapes stay the string's. A string left open (while
    // typing) has no closing quote.
    const closed = length >= 2 && text[offset + length - 1] === '"';
    const inner = { offset: offset + 1, length: Math.max(0, length - (closed ? 2 : 1)) };
    out.push({ ...(map ? map.spanToSource(inner) : inner), type });
  };
  visit(text, {
    onObjectProperty(name, offset, length) {
      if (LOGICAL_KEYS.has(name)) push(offset, length, 'keyword');
      else if (embedded && COMPARISON_KEYS.has(name)) push(offset, length, 'property');
    },
    onLiteralValue(value, offset, length, _line, _col, pathSupplier) {
      if (typeof value !== 'string' || text[offset] !== '"') return;
      const path = pathSupplier();
      const last = path[path.length - 1];
      if (last === 'key') push(offset, length, 'variable');
      else if (last === 'operator') push(offset, length, 'operator');
    },
  });
  return out;
}

/** A job's `filter` string, read as the filter it holds. */
function jobTokens(doc: ParsedDoc): SemanticToken[] {
  if (!isObj(doc.value) || typeof doc.value.filter !== 'string') return [];
  const map = new EmbeddedString(doc, ['filter'], doc.value.filter).stringMap();
  if (!map || map.value !== doc.value.filter) return [];
  return filterTokens(map.value, map, true);
}
