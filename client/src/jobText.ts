// A Logpush job document's text as the language server reads it: JSON.parse for valid JSON, else jsonc-parser with the server's
// options, as far as the text goes (its "id" for the job scopes and the title context; its dataset). What the commands that send a
// job refuse is in jobSyntax.ts (not in the activation bundle). Pure: no vscode.
import { parse } from 'jsonc-parser';

/**
 * The language server's jsonc-parser options (server/src/core/parse/scanner.ts PARSE_OPTIONS; the client imports nothing of the
 * server but protocol.ts, and a unit test holds the two equal). Comments and trailing commas are syntax errors there
 * (syntax/comment, syntax/trailing-comma): the platform takes plain JSON, and the commands send the document as JSON.
 */
export const JOB_PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

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
