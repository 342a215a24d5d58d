// The base diagnostic codes (syntax/, schema/, limits/), in a module of their own so that the syntax messages
// (parse/syntaxErrors.ts) need no area's table: the extension's commands use them to word a syntax error as the editor does.
import type { Severity } from './types';

export interface CodeInfo {
  severity: Severity;
  /** One line for the README table and hovers. */
  description: string;
}

export type CodeTable = Record<string, CodeInfo>;

export const BASE_CODES = {
  'syntax/invalid-json': { severity: 'error', description: 'The text is not valid JSON (unexpected token, missing value, unclosed string...). A comma or colon left out has a quick fix that inserts it; JavaScript\'s unquoted property names, single-quoted strings and True/None have one that writes them as JSON. After a break that has no certain repair (a lost quote; a bracket left out where the indentation does not say where, else `syntax/unclosed-bracket`) nothing further is reported, since it would be a consequence of it.' },
  'syntax/unescaped-quote': { severity: 'error', description: 'A double quote typed inside a string (a rules expression or a filter value pasted with its quotes) ends the string early; inside a JSON string it is written `\\"`. The quick fix escapes the quotes, when escaping them makes the line valid JSON; a single quote, which may have been typed by mistake, can be removed instead (offered, not applied by Fix all).' },
  'syntax/unclosed-bracket': { severity: 'error', description: 'A closing bracket or brace left out: shown where the indentation says the array or object ended (the first later line indented no deeper than the line it opened on, or the end of the document), naming it and the line it opened on; or a closer of the other kind where the array or object is still open (`"params": [}`: the "]" left out before it, or a "}" typed for "]" at the array\'s own indentation). The quick fix inserts the closer there, with the comma after it when that was left out too, or replaces the closer of the wrong kind (offered, not applied by Fix all: the indentation is a guess), and the schema and the rules check the text it makes. An opener typed twice (`[[`, `{{`) where no closer\'s place is the one, whose removal makes valid JSON, is said as the container opened twice, the quick fix removing it (applied by Fix all for a "{", which no "}" inserted would mend; offered for a "[").' },
  'syntax/unopened-bracket': { severity: 'error', description: 'An opening bracket or brace left out: a closer that closes nothing (or a container of the other kind, or one opened on a line indented otherwise), in a text of more closers than openers. Shown where the indentation says the container started (the line the closer\'s line is indented as, blank or ending where a value goes), or on one line at the one place a value or an item goes, on the token the opener goes before, with the closer as related information; the quick fix inserts the opener (offered, not applied by Fix all), and the schema and the rules check the text it makes. Where two places would do, today\'s wording; but a closer right after one of its kind (`]]`, `}}`) whose removal makes valid JSON is said as the container closed twice, the quick fix removing it (applied by Fix all for a "}", where no "{" would mend the text; offered for a "]", where a "[" inside could).' },
  'syntax/trailing-comma': { severity: 'error', description: 'A comma before a closing bracket or brace; JSON does not allow it.' },
  'syntax/comment': { severity: 'error', description: 'A comment; the platform expects plain JSON. A quick fix removes it (not applied by Fix all).' },
  'syntax/empty-document': { severity: 'error', description: 'The document is empty.' },
  'syntax/duplicate-key': { severity: 'warning', description: 'The same key twice in one object: only the last counts (JSON parsers, the platform\'s included, keep the last). Not searched for in documents of 64 KB or more.' },
  'schema/required': { severity: 'error', description: 'A required property is missing.' },
  'schema/unknown-property': { severity: 'error', description: 'A property the format does not define.' },
  'schema/type': { severity: 'error', description: 'A value has the wrong JSON type.' },
  'schema/enum': { severity: 'error', description: 'A value is not one of the allowed values.' },
  'schema/const': { severity: 'error', description: 'A value must be exactly the given constant.' },
  'schema/pattern': { severity: 'error', description: 'A string does not have the required form.' },
  'schema/format': { severity: 'error', description: 'A string does not have the required format.' },
  'schema/range': { severity: 'error', description: 'A number or length is outside the allowed range.' },
  'schema/count': { severity: 'error', description: 'An array or object has too few or too many items.' },
  'schema/shape': { severity: 'error', description: 'A value matches none of the allowed shapes.' },
  'schema/invalid': { severity: 'error', description: 'A value violates the schema.' },
  'limits/file-too-large': { severity: 'information', description: 'The file is larger than edgekit.maxFileSizeKB (CLI: --max-file-size), in KB of UTF-8 as on disk; it is not checked at all, not even its syntax.' },
  'limits/too-deep': { severity: 'error', description: 'Arrays and objects nested more than 512 levels deep, or a rules expression nested more than 100 levels or chaining more than 2000 conditions; not checked further.' },
  'limits/too-many-problems': { severity: 'information', description: 'More problems than edgekit.maxProblems (CLI: --max-problems); the rest are not shown.' },
  'cli/not-checked': { severity: 'error', description: 'Only from `edgekit lint --format line` (as a VS Code task runs it), on stderr at line 1 of the path: the path was not checked (it does not exist, cannot be read, is a link to nothing, or is not a kind EdgeKit checks). The other formats say it as a message on stderr; either way the exit code is 2.' },
  'cli/not-fixed': { severity: 'error', description: 'Only from `edgekit lint --fix --format line`, on stderr at line 1 of the file: its fixes were not written (it is read-only, not UTF-8, changed while it was being fixed, reached through a link from outside the paths given, or the write failed); the file is unchanged and its problems are listed as they are. Exit code 2.' },
  'task/cannot-run': { severity: 'error', description: 'Only from the VS Code task of type "edgekit", in the Problems panel: its tasks.json definition cannot run (an unknown "command", a "fix" that is not true or false, "paths" that is not a list of names, or no folder to run in); shown at that member of tasks.json, and nothing is checked. (A dataset setting the CLI does not know is `logpush/unknown-dataset`, shown at the setting.)' },
  'kind/unknown': { severity: 'error', description: 'Never reported: a file whose kind cannot be told (no known file pattern, no --kind) is named on stderr by the CLI (exit 2), and the editor checks documents of a known kind only. Kept so that the code is not reused.' },
} as const satisfies CodeTable;
