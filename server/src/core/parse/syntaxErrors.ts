// jsonc-parser's syntax errors as our problems: only the first one (what follows a break is nearly always a consequence of it),
// in our wording, at the real spot (a trailing comma on the comma, a missing value after the last token).
import { ParseErrorCode, type ParseError } from 'jsonc-parser';
import type { Problem } from '../types';
import { codeInfo } from '../codes';
import { printable, THE_DOCUMENT } from '../messages';
import { cap } from '../text';

const SYNTAX_MESSAGES: Record<number, string> = {
  [ParseErrorCode.InvalidSymbol]: 'Unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'Invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'Expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'Expected a value',
  [ParseErrorCode.ColonExpected]: 'Expected ":" after the property name',
  [ParseErrorCode.CommaExpected]: 'Expected a comma',
  [ParseErrorCode.CloseBraceExpected]: 'Expected "}" to close the object',
  [ParseErrorCode.CloseBracketExpected]: 'Expected "]" to close the array',
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

/** The message of a jsonc-parser error, naming the parsed text `root` where it needs to (EndOfFileExpected). */
function syntaxMessage(error: ParseErrorCode, root: string): string {
  return error === ParseErrorCode.EndOfFileExpected ? `Expected the end of ${root}` : SYNTAX_MESSAGES[error] ?? 'Invalid JSON';
}

/** root: what the messages call the parsed text (ParseOptions.rootName). */
export function syntaxProblems(text: string, errors: ParseError[], root = THE_DOCUMENT): Problem[] {
  if (text.trim() === '') {
    return [{ code: 'syntax/empty-document', severity: codeInfo('syntax/empty-document').severity, message: `${cap(root)} is empty; expected a JSON value.`, offset: 0, length: 0 }];
  }
  const out: Problem[] = [];
  for (const e of errors) {
    let code = 'syntax/invalid-json';
    let offset = e.offset;
    let length = Math.max(e.length, 0);
    const token = text.substr(offset, Math.max(length, 1));
    let message: string;
    let fixes: Problem['fixes'];
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
        fixes = [{ title: 'Remove the trailing comma', edits: [{ offset: comma, length: 1, newText: '' }], preferred: true }];
      } else {
        message = `${syntaxMessage(e.error, root)} before "${text[offset]}".`;
      }
    } else if (offset >= text.length) {
      message = `${syntaxMessage(e.error, root)} at the end of ${root}.`;
      offset = text.length;
      length = 0;
    } else {
      message = `${syntaxMessage(e.error, root)} ${e.error === ParseErrorCode.CommaExpected || e.error === ParseErrorCode.ColonExpected ? 'before' : 'at'} ${quote(token)}.`;
    }
    if (length === 0 && offset < text.length) length = 1;
    // jsonc-parser's scanner runs one past the end of an unterminated block comment ("0/*" reports 1+3 in 3 characters).
    offset = Math.min(offset, text.length);
    length = Math.min(length, text.length - offset);
    out.push({ code, severity: codeInfo(code).severity, message, offset, length, ...(fixes ? { fixes } : {}) });
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
