// One parse per document version. Valid JSON takes the fast path (JSON.parse, no tree); the jsonc-parser tree is built
// lazily, only when something must be located (a problem to report, a hover, a completion).
import { findNodeAtLocation, parse as jsoncParse, parseTree, ParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { JsonPath, ParsedDoc, Problem, Span } from './types';
import { codeInfo } from './codes';

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

export function parseDocument(text: string): ParsedDoc {
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

class Doc implements ParsedDoc {
  private _tree: JsonNode | undefined | null = null;
  constructor(readonly text: string, readonly value: unknown, readonly syntax: Problem[]) {}

  tree(): JsonNode | undefined {
    if (this._tree === null) this._tree = parseTree(this.text, [], PARSE_OPTIONS);
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
  const t = s.length > 40 ? s.slice(0, 40) + '…' : s;
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
