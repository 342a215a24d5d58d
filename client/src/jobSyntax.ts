// What the commands that send a Logpush job (Create, Update, Prove Ownership) refuse: a job document with a syntax error, named by
// file, line and column in the words the editor shows, since they come from the same function (the language server's
// syntaxProblems, server/src/core/parse/syntaxErrors.ts, which has no dependency outside the pure core). In the commands bundle,
// not the activation bundle. Pure: no vscode.
import { parse, type ParseError } from 'jsonc-parser';
import { syntaxProblems } from '../../server/src/core/parse/syntaxErrors';
import { JOB_PARSE_OPTIONS } from './jobText';

/** The first syntax error: its offset, 1-based line and column (in UTF-16 code units, as the editor counts), and the server's words. */
export interface JobSyntaxError { offset: number; line: number; column: number; message: string }

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
  // A UTF-8 byte order mark is no JSON; the server reads it as a space (parse/document.ts), and so does this, keeping every offset.
  if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    const errors: ParseError[] = [];
    if (text.trim() !== '') parse(text, errors, JOB_PARSE_OPTIONS);
    const first = text.trim() === '' || errors.length ? syntaxProblems(text, errors)[0] : undefined;
    const offset = Math.min(first?.offset ?? 0, text.length);
    return { error: { offset, ...lineColumn(text, offset), message: first?.message ?? (err as Error).message } };
  }
}
