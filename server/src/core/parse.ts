// One parse per document version. Valid JSON takes the fast path (JSON.parse, no tree); the jsonc-parser tree is built
// lazily, only when something must be located (a problem to report, a hover, a completion).
import { findNodeAtLocation, parse as jsoncParse, parseTree, ParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { JsonPath, ParsedDoc, Problem, Span } from './types';
import { codeInfo } from './codes';
import { printable } from './messages';

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * The deepest nesting of arrays and objects the core checks. jsonc-parser, the schema validator and the rules all recurse once
 * per level, so a deeper document (`[[[[...` 100 000 times) would overflow the stack; it gets one limits/too-deep problem instead.
 */
export const MAX_NESTING = 512;

export function parseDocument(text: string): ParsedDoc {
  const deep = text.length > MAX_NESTING ? tooDeepAt(text, MAX_NESTING) : -1;
  if (deep >= 0) {
    const problem: Problem = {
      code: 'limits/too-deep', severity: codeInfo('limits/too-deep').severity, offset: deep, length: 1,
      message: `The document nests arrays and objects more than ${MAX_NESTING} levels deep at "${text[deep]}"; it is not checked further.`,
    };
    return new Doc(text, undefined, [problem], true);
  }
  let value: unknown;
  let syntax: Problem[] = [];
  let fastOk = false;
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
      fastOk = true;
    } catch {
      /* fall through to the tolerant parser for errors and a recovered value */
    }
  }
  if (!fastOk) {
    const errors: ParseError[] = [];
    value = jsoncParse(text, errors, PARSE_OPTIONS);
    syntax = syntaxProblems(text, errors);
  }
  return new Doc(text, value, syntax);
}

/** Whether the document was too deep to parse (see MAX_NESTING): it has no value and no tree, and no feature may walk its text. */
export function isTooDeep(doc: ParsedDoc): boolean {
  return doc.syntax.some((p) => p.code === 'limits/too-deep');
}

/**
 * The offset of the first "[" or "{" that opens a level deeper than limit, or -1. A linear scan that skips strings and comments as
 * jsonc-parser's scanner does (a string ends at an unescaped quote or at a line break). It never undercounts what jsonc-parser
 * recurses into: a closer pops a level only when it matches the innermost opener, and openers the parser would skip still count.
 */
export function tooDeepAt(text: string, limit: number): number {
  const stack: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      stack.push(c);
      if (stack.length > limit) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (stack.length > 0 && stack[stack.length - 1] === c - 2) stack.pop();
    } else if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22 || d === 0x0a || d === 0x0d) break;
        if (d === 0x5c /* \ */) i++;
      }
    } else if (c === 0x2f /* / */ && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === 0x2f) {
        for (i += 2; i < n && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d; i++) { /* line comment */ }
      } else if (d === 0x2a /* * */) {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 1;
      }
    }
  }
  return -1;
}

class Doc implements ParsedDoc {
  private _tree: JsonNode | undefined | null = null;
  constructor(readonly text: string, readonly value: unknown, readonly syntax: Problem[], private readonly tooDeep = false) {}

  tree(): JsonNode | undefined {
    if (this._tree === null) {
      this._tree = this.tooDeep ? undefined : parseTree(this.text, [], PARSE_OPTIONS);
      if (this._tree && this.syntax.length > 0) clampToText(this._tree, this.text.length);
    }
    return this._tree;
  }

  locate(path: JsonPath, part: 'key' | 'value' = 'value'): Span {
    const root = this.tree();
    if (!root) return { offset: 0, length: Math.min(1, this.text.length) };
    for (let n = path.length; n >= 0; n--) {
      const node = findNodeAtLocation(root, path.slice(0, n));
      if (!node) continue;
      if (n < path.length) {
        // The path does not exist (a missing property): point at the parent's key, or at its opening bracket.
        return parentAnchor(node);
      }
      if (part === 'key' && node.parent?.type === 'property') {
        const key = node.parent.children![0];
        return { offset: key.offset, length: key.length };
      }
      return { offset: node.offset, length: node.length };
    }
    return { offset: root.offset, length: 1 };
  }
}

/**
 * jsonc-parser gives a container left open at the end of the text one code unit too many when trivia follows its last child
 * (`[1 /*` is 6 long in a 5-character text); no span may leave the text.
 */
function clampToText(root: JsonNode, length: number): void {
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.offset + n.length > length) (n as { length: number }).length = Math.max(0, length - n.offset);
    for (const c of n.children ?? []) stack.push(c);
  }
}

/** For a missing property: the key of the object's own property if it has one, else its `{` (length 1). */
export function parentAnchor(node: JsonNode): Span {
  if (node.parent?.type === 'property') {
    const key = node.parent.children![0];
    return { offset: key.offset, length: key.length };
  }
  return { offset: node.offset, length: 1 };
}

const SYNTAX_MESSAGES: Record<number, string> = {
  [ParseErrorCode.InvalidSymbol]: 'Unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'Invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'Expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'Expected a value',
  [ParseErrorCode.ColonExpected]: 'Expected ":" after the property name',
  [ParseErrorCode.CommaExpected]: 'Expected a comma',
  [ParseErrorCode.CloseBraceExpected]: 'Expected "}" to close the object',
  [ParseErrorCode.CloseBracketExpected]: 'Expected "]" to close the array',
  [ParseErrorCode.EndOfFileExpected]: 'Expected the end of the document',
  [ParseErrorCode.InvalidCommentToken]: 'Comments are not allowed in JSON',
  [ParseErrorCode.UnexpectedEndOfComment]: 'Unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'Unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'Unexpected end of number',
  [ParseErrorCode.InvalidUnicode]: 'Invalid unicode escape sequence',
  [ParseErrorCode.InvalidEscapeCharacter]: 'Invalid escape character in string',
  [ParseErrorCode.InvalidCharacter]: 'Invalid character in string (control characters must be escaped)',
};

function quote(s: string): string {
  const t = printable(s.length > 40 ? s.slice(0, 40) + '…' : s);
  return t.startsWith('"') ? t : `"${t}"`;
}

function syntaxProblems(text: string, errors: ParseError[]): Problem[] {
  if (text.trim() === '') {
    return [{ code: 'syntax/empty-document', severity: codeInfo('syntax/empty-document').severity, message: 'The document is empty; expected a JSON value.', offset: 0, length: 0 }];
  }
  const out: Problem[] = [];
  for (const e of errors) {
    let code = 'syntax/invalid-json';
    let offset = e.offset;
    let length = Math.max(e.length, 0);
    const token = text.substr(offset, Math.max(length, 1));
    let message: string;
    if (e.error === ParseErrorCode.InvalidCommentToken) {
      code = 'syntax/comment';
      message = 'Comments are not allowed in JSON.';
    } else if ((e.error === ParseErrorCode.ValueExpected || e.error === ParseErrorCode.PropertyNameExpected) && (text[offset] === ']' || text[offset] === '}')) {
      const comma = precedingNonSpace(text, offset);
      if (comma >= 0 && text[comma] === ',') {
        code = 'syntax/trailing-comma';
        message = `Trailing comma before "${text[offset]}".`;
        offset = comma;
        length = 1;
      } else {
        message = `${SYNTAX_MESSAGES[e.error]} before "${text[offset]}".`;
      }
    } else if (offset >= text.length) {
      message = `${SYNTAX_MESSAGES[e.error] ?? 'Invalid JSON'} at the end of the document.`;
      offset = text.length;
      length = 0;
    } else {
      message = `${SYNTAX_MESSAGES[e.error] ?? 'Invalid JSON'} ${e.error === ParseErrorCode.CommaExpected || e.error === ParseErrorCode.ColonExpected ? 'before' : 'at'} ${quote(token)}.`;
    }
    if (length === 0 && offset < text.length) length = 1;
    // jsonc-parser's scanner runs one past the end of an unterminated block comment ("0/*" reports 1+3 in 3 characters).
    offset = Math.min(offset, text.length);
    length = Math.min(length, text.length - offset);
    out.push({ code, severity: codeInfo(code).severity, message, offset, length });
    // Decision (docs/architecture.md): only the first syntax error is reported. jsonc-parser recovers, but what it reports after a
    // break (a lost quote, a missing bracket) is almost always a consequence of it, and a cascade of squiggles hides the real spot.
    break;
  }
  return out;
}

function precedingNonSpace(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}
