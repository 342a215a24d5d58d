// A Logpush job document's text as the commands that send it read it: the way the language server reads it (JSON.parse for valid
// JSON, jsonc-parser with the server's options to find the first syntax error), so that a command refuses exactly what the editor
// marks, at the place it marks it. Pure: no vscode.
import { parse, ParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * The language server's jsonc-parser options (server/src/core/parse/scanner.ts PARSE_OPTIONS; the client imports nothing of the
 * server but protocol.ts, and a unit test holds the two equal). Comments and trailing commas are syntax errors there
 * (syntax/comment, syntax/trailing-comma): the platform takes plain JSON, and the commands send the document as JSON.
 */
export const JOB_PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/** The first syntax error: its offset, 1-based line and column (in UTF-16 code units, as the editor counts), and the server's words. */
export interface JobSyntaxError { offset: number; line: number; column: number; message: string }

/** The server's words for each jsonc-parser error (server/src/core/parse/syntaxErrors.ts). */
const WORDS: Record<number, string> = {
  [ParseErrorCode.InvalidSymbol]: 'Unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'Invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'Expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'Expected a value',
  [ParseErrorCode.ColonExpected]: 'Expected ":" after the property name',
  [ParseErrorCode.CommaExpected]: 'Expected a comma',
  [ParseErrorCode.CloseBraceExpected]: 'Expected "}" to close the object',
  [ParseErrorCode.CloseBracketExpected]: 'Expected "]" to close the array',
  [ParseErrorCode.EndOfFileExpected]: 'Expected the end of the document',
  [ParseErrorCode.UnexpectedEndOfComment]: 'Unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'Unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'Unexpected end of number',
  [ParseErrorCode.InvalidUnicode]: 'Invalid unicode escape sequence',
  [ParseErrorCode.InvalidEscapeCharacter]: 'Invalid escape character in string',
  [ParseErrorCode.InvalidCharacter]: 'Invalid character in string (control characters must be escaped)',
};

const UNPRINTABLE = /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function quoted(s: string): string {
  const t = (s.length > 40 ? s.slice(0, 40) + '…' : s).replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return t.startsWith('"') ? t : `"${t}"`;
}

/** The first of jsonc-parser's errors as the server reports it (syntaxProblems: a trailing comma on the comma, the end of the text
 * for what is missing there). */
function firstError(text: string, e: ParseError): { offset: number; message: string } {
  const words = WORDS[e.error] ?? 'Invalid JSON';
  if (e.error === ParseErrorCode.InvalidCommentToken) return { offset: e.offset, message: 'Comments are not allowed in JSON.' };
  if ((e.error === ParseErrorCode.ValueExpected || e.error === ParseErrorCode.PropertyNameExpected) && (text[e.offset] === ']' || text[e.offset] === '}')) {
    let i = e.offset - 1;
    while (i >= 0 && /\s/.test(text[i])) i--;
    return i >= 0 && text[i] === ','
      ? { offset: i, message: `Trailing comma before "${text[e.offset]}".` }
      : { offset: e.offset, message: `${words} before "${text[e.offset]}".` };
  }
  if (e.offset >= text.length) return { offset: text.length, message: `${words} at the end of the document.` };
  const token = text.substr(e.offset, Math.max(e.length, 1));
  const where = e.error === ParseErrorCode.CommaExpected || e.error === ParseErrorCode.ColonExpected ? 'before' : 'at';
  return { offset: e.offset, message: `${words} ${where} ${quoted(token)}.` };
}

/** Line and column (1-based) of an offset; a line ends at \r\n, \r or \n, as the editor splits lines. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) { line++; start = i + 1; }
  }
  return { line, column: offset - start + 1 };
}

/** What a command says of a job document it will not send: the file, line and column of its first syntax error, in the server's words. */
export function syntaxRefusal(name: string, e: JobSyntaxError): string {
  return `${name}:${e.line}:${e.column}: ${e.message} Fix it first (the editor marks it).`;
}

/**
 * The value of a job document's text, or its first syntax error. Valid JSON is read by JSON.parse, as the server reads it (and as
 * the backend will: the last of a duplicated key counts, "__proto__" is a member); only broken text goes through jsonc-parser.
 */
export function readJobText(text: string): { value: unknown } | { error: JobSyntaxError } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    const at = (offset: number, message: string) => ({ error: { offset, ...lineColumn(text, offset), message } });
    if (text.trim() === '') return at(0, 'The document is empty; expected a JSON value.');
    const errors: ParseError[] = [];
    parse(text, errors, JOB_PARSE_OPTIONS);
    if (errors.length === 0) return at(0, (err as Error).message);
    const first = firstError(text, errors[0]);
    return at(Math.min(first.offset, text.length), first.message);
  }
}

/**
 * A document's value as the language server checks it: JSON.parse's, else, while the text has a syntax error, jsonc-parser's read
 * of it as far as it goes (the server checks a filter being edited against its "$dataset" all the same). For what a document
 * decides on screen (its dataset), not for what a command sends (readJobText).
 */
export function valueAsChecked(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return parse(text, [], JOB_PARSE_OPTIONS) as unknown;
  }
}

/** Larger documents are not read for their job's "id" (a job document is a few KB; these reads run on every edit). */
export const MAX_ID_CHARS = 256 * 1024;

/** The top-level "id" of a job document as the server reads it (half-typed text as far as it goes); undefined when it has none, is
 * not an object, or is larger than a job document. */
export function jobIdOf(text: string): unknown {
  if (text.length > MAX_ID_CHARS) return undefined;
  const v = valueAsChecked(text);
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as { id?: unknown }).id : undefined;
}
