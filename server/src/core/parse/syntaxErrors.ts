// jsonc-parser's syntax errors as our problems: only the first one (what follows a break is nearly always a consequence of it),
// in our wording, at the real spot (a trailing comma on the comma, a missing value after the last token).
import { createScanner, getLocation, parse as jsoncParse, ParseErrorCode, SyntaxKind, type ParseError } from 'jsonc-parser';
import type { Problem } from '../types';
import { codeInfo } from '../codes';
import { printable, THE_DOCUMENT } from '../messages';
import { cap } from '../text';
import { isEscaped, PARSE_OPTIONS } from './scanner';

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
    const cut = e.error === ParseErrorCode.InvalidCommentToken ? undefined : cutString(text, offset);
    if (cut) {
      code = 'syntax/unescaped-quote';
      offset = cut.cut;
      length = 1;
      message = `This quote ends the string ${quote(text.slice(cut.start, cut.cut + 1))} early: a quote inside a JSON string is written \\".`;
      const n = cut.quotes.length;
      // The string's text is one JSON string with its quotes (""kp"", a job string pasted between the quotes of "filter"): the
      // quotes came with it, and escaping them would keep them in the value.
      const doubled = n === 2 && cut.quotes[0] === cut.start + 1 && cut.quotes[1] === cut.end - 1;
      fixes = [
        ...(doubled ? [{ title: 'Remove the doubled quotes (the text between them is a JSON string already)', preferred: true,
          edits: cut.quotes.map((q) => ({ offset: q, length: 1, newText: '' })) }] : []),
        { title: n === 1 ? 'Escape the quote inside the string' : `Escape the ${n} quotes inside the string`, preferred: !doubled,
          edits: cut.quotes.map((q) => ({ offset: q, length: 0, newText: '\\' })) }];
      out.push({ code, severity: codeInfo(code).severity, message, offset, length, fixes,
        related: [{ offset: cut.start, length: cut.end + 1 - cut.start, message: 'The whole string, once the quotes inside it are escaped.' }] });
      break;
    }
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

/** Lines longer than this are not searched for a cut string (a minified document's one line); nor documents larger than
 * CUT_TEXT_MAX, since each candidate is proved by a parse of the document (a large batch while it is being typed in). */
const CUT_LINE_MAX = 16 * 1024;
const CUT_TEXT_MAX = 256 * 1024;
/** Candidate ends tried (each is a parse of the fixed text), and looked at (each a pass over the line). */
const CUT_TRIES = 4;
const CUT_CANDIDATES = 64;

/**
 * A string cut short by a quote typed inside it ("expression": "http.host eq "a.example"", a filter value pasted with its quotes):
 * the syntax error at `offset` follows a string, and a later quote on the same line would close that string as meant if the quotes
 * in between were escaped. Taken only when it is proved: the literal with the quotes escaped is a JSON string, what follows its end
 * is "," "}" "]" or the end of the line (a ":" would make it a key: a lost quote before the next member, not a quote inside a
 * string), and the document with the fix has no syntax error on that line or before. JSON strings cannot span lines, so the string
 * starts on the line of its quote, and a line starts outside any string.
 * start: the string's opening quote; cut: the quote that ended it; end: the quote that ends it once fixed; quotes: the offsets of
 * the quotes to escape.
 */
export function cutString(text: string, offset: number): { start: number; cut: number; end: number; quotes: number[] } | undefined {
  if (text.length > CUT_TEXT_MAX) return undefined;
  const cut = precedingNonSpace(text, offset);
  if (cut < 0 || text[cut] !== '"') return undefined;
  const lineStart = text.lastIndexOf('\n', cut) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  if (lineEnd - lineStart > CUT_LINE_MAX) return undefined;
  // The string token that ends at the cut quote.
  const scanner = createScanner(text.slice(lineStart, cut + 1), false);
  let start = -1;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.StringLiteral && lineStart + scanner.getTokenOffset() + scanner.getTokenLength() === cut + 1) start = lineStart + scanner.getTokenOffset();
  }
  if (start < 0) return undefined;
  // A property name followed by a string ("value" "x", its colon left out) is not a value cut short: escaping would make it a longer
  // name, with the colon still missing on the next line. Where the string is decides what an escaped quote may not stand before.
  const where = getLocation(text, start + 1);
  if (where.isAtPropertyKey) return undefined;
  const inArray = typeof where.path[where.path.length - 1] === 'number';
  // A comma left out between two values ("operator": "eq" "value": "us") also reads as a quoted run up to a later quote: when a comma
  // after the string makes the line valid, that is the mistake (the schema-like members after it say so), not a quote inside it.
  if (firstErrorAfter(text.slice(0, cut + 1) + ',' + text.slice(cut + 1), lineEnd + 1)) return undefined;
  const json = /^[\s[{]*\{\s*$/.test(text.slice(start + 1, cut));
  let tries = 0, candidates = 0;
  for (let end = text.indexOf('"', offset); end >= 0 && end < lineEnd && tries < CUT_TRIES && candidates < CUT_CANDIDATES; end = text.indexOf('"', end + 1)) {
    // An escaped quote cannot end the string: not a candidate, and not counted among the parses tried.
    if (isEscaped(text, end) || !/^[ \t\r]*(?:[,}\]]|$)/.test(text.slice(end + 1, lineEnd))) continue;
    candidates++;
    const quotes: number[] = [];
    for (let i = text.indexOf('"', start + 1); i >= 0 && i < end; i = text.indexOf('"', i + 1)) {
      if (!isEscaped(text, i)) quotes.push(i);
    }
    // Escaping a quote that ends a word before a ":" would take the next member into the string ("2.0"method": "x" is a closing
    // quote and a comma left out, not "2.0\"method\": \"x"), unless the string opens a JSON object (a JSON text pasted in a string:
    // a job's filter, an error page's content); a quote after a space or an opening bracket before a ":" opens a literal
    // (contains ":8443"). In an array, a quote before another (a comma between them or not) ends an element ("x" "y" "z" are
    // strings whose commas were left out; "a "b" c", "d "e" f" two cut strings). Further ends only take in more.
    if (quotes.some((q) => (!json && !OPENS_BEFORE.test(text[q - 1]) && MEMBER_AFTER.test(text.slice(q + 1, q + 64)))
      || (inArray && ELEMENT_AFTER.test(text.slice(q + 1, q + 64))))) return undefined;
    // In an array, quotes pasted in a string come in pairs ("a "b" c"); one ("0x4"latest") is a closing quote and a comma left out.
    if (inArray && quotes.length % 2 === 1) continue;
    const escaped = (from: number, to: number) => {
      let out = '';
      let at = from;
      for (const q of quotes) { if (q >= from && q < to) { out += text.slice(at, q) + '\\'; at = q; } }
      return out + text.slice(at, to);
    };
    // The literal must be a JSON string, and one that opened a JSON object must decode to JSON (a job's filter pasted whole has
    // a quote before "," "]" or "}" at each of its members: only its end gives JSON). Neither is a parse of the document.
    try {
      const value: unknown = JSON.parse(escaped(start, end + 1));
      if (typeof value !== 'string') continue;
      if (json) JSON.parse(value);
    } catch {
      continue;
    }
    tries++;
    if (firstErrorAfter(text.slice(0, start) + escaped(start, end + 1) + text.slice(end + 1), lineEnd + quotes.length)) return { start, cut, end, quotes };
  }
  return undefined;
}

const MEMBER_AFTER = /^\s*:/;
const OPENS_BEFORE = /[\s({[,]/;
const ELEMENT_AFTER = /^\s*,?\s*"/;

/** Whether `text` parses with no syntax error at or before `offset`. */
function firstErrorAfter(text: string, offset: number): boolean {
  const errors: ParseError[] = [];
  jsoncParse(text, errors, PARSE_OPTIONS);
  return errors.length === 0 || errors[0].offset > offset;
}
