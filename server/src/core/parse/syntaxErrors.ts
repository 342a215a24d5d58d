// jsonc-parser's syntax errors as our problems: the first one, and the next ones only when a repair of the one before proves them
// its own (what follows a break is nearly always a consequence of it), in our wording, at the real spot (a trailing comma on the
// comma, a missing value after the last token).
import { createScanner, getLocation, ParseErrorCode, ScanError, SyntaxKind, type ParseError } from 'jsonc-parser';
import type { Problem } from '../types';
import { BASE_CODES } from '../baseCodes';
import { printable, THE_DOCUMENT } from '../messages';
import { applyEdits, cap, headOf } from '../text';
import { LineTable } from '../lines';
import { moveFix } from '../fix';
import { editDistance, suggest } from '../suggest';
import { isEscaped, parseErrors } from './scanner';
import { bracketBalance, emptyOpenerLeftOut, nameBefore, removed, unopened } from './unopened';

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

export function quote(s: string): string {
  const t = printable(s.length > 40 ? headOf(s, 40) + '…' : s);
  return t.startsWith('"') ? t : `"${t}"`;
}

/** The message of a jsonc-parser error, naming the parsed text `root` where it needs to (EndOfFileExpected). */
function syntaxMessage(error: ParseErrorCode, root: string): string {
  return error === ParseErrorCode.EndOfFileExpected ? `Expected the end of ${root}` : SYNTAX_MESSAGES[error] ?? 'Invalid JSON';
}

/** At most this many syntax problems, and at most this many characters parsed again to prove them (see syntaxProblems; more for
 * a large document, repairBudget). */
export const MAX_SYNTAX_PROBLEMS = 50;
const REPAIR_BUDGET = 1024 * 1024;

/** What the repairs may still parse, in characters; each parse, proved or refused, is taken from it (proved). */
export interface Budget { left: number }

/** The characters the repairs of a text's syntax problems may parse: REPAIR_BUDGET, or the parses one problem's whole search may
 * take when that is more (the cut string's comma check and its ends tried, the error's own repair, the quotes tried as typed by
 * mistake, a closer left out), so that the first problem of a large document is searched as fully as a small one's; none above CUT_TEXT_MAX. Every
 * parse counts, a refused candidate's too. */
export function repairBudget(length: number): number {
  return length > CUT_TEXT_MAX ? 0 : Math.max(REPAIR_BUDGET, (1 + CUT_TRIES + 1 + STRAY_TRIES + 1) * length);
}

/**
 * The syntax problems of a text, from jsonc-parser's errors: the first, and each next one only when it is proved not to be a
 * consequence of the one before (docs/architecture.md): the error is repaired (a comma inserted, a trailing comma removed, the
 * quotes of a cut string escaped, a quote typed by mistake removed, a comment read as space), the repaired text parsed again, and its first error counts only when it
 * lies past the repaired spot (an inserted comma: past the first token after it). What follows a break that has no such repair (a lost quote, a bracket left out) is
 * nearly always a consequence of it, so nothing after it is reported. Offsets are the text's: every later error lies past every
 * earlier repair, so a repaired text's offsets are the text's moved by what the repairs inserted and removed.
 * root: what the messages call the parsed text (ParseOptions.rootName). bom: the text's first character is a byte order mark read
 * as a space (parseDocument): the problems are those of the text after it, one character on, so that the first line is not read
 * as indented by one space (a closer at the start of a line would close the document's own container too; rv15).
 */
export function syntaxProblems(text: string, errors: ParseError[], root = THE_DOCUMENT, bom = false): Problem[] {
  if (text.trim() === '') {
    return [{ code: 'syntax/empty-document', severity: BASE_CODES['syntax/empty-document'].severity, message: `${cap(root)} is empty; expected a JSON value.`, offset: 0, length: 0 }];
  }
  if (bom) return syntaxProblems(text.slice(1), errors.map((e) => ({ ...e, offset: e.offset - 1 })), root).map((p) => moved(p, 1));
  const out: Problem[] = [];
  let current = text;
  let pending = errors;
  const budget: Budget = { left: repairBudget(text.length) };
  // Whether a repair made so far is one Fix all does not apply (a word quoted, a misspelt literal spelt): the fixes proved after it
  // hold for the repaired text, not the document, so none is preferred but a trailing comma's removal, which is right whatever the
  // word was meant to be (a key that lost its opening quote, `id": "2"`, read as a word, had a colon inserted and its quotes escaped).
  let tentative = false;
  let carried: Repair['next'];
  // The openers less the closers of `current`, when a repair said it (an opener inserted): not scanned again (syn11).
  let balance: number | undefined;
  // What each repair so far changed, in order: a closer left out is placed where the indentation says, which may lie before an
  // earlier repair (a trailing comma jsonc-parser met first, in the request read into the container), and its openers may lie
  // before or between the repairs when it is placed after them (a word repaired, then the end of the document; a comma inserted,
  // then a trailing comma removed, which leaves the length as it was): each of its offsets is taken back through them (textOffset).
  const changes: Change[] = [];
  while (pending.length && out.length < MAX_SYNTAX_PROBLEMS) {
    const found = carried ?? firstProblem(current, pending[0], root, budget, pending[1], balance);
    const { repair } = found;
    const problem = tentative && found.problem.code !== 'syntax/trailing-comma' ? notPreferred(found.problem) : found.problem;
    const shift = current.length - text.length;
    if (changes.length && (problem.code === 'syntax/unclosed-bracket' || problem.code === 'syntax/unopened-bracket')) {
      const placed = mapOffsets(problem, (o) => textOffset(changes, o));
      if (!placed) break;
      out.push(placed);
    } else {
      // A problem of the repaired text that lies in what a repair put in (a quote the repair inserted, read as one typed by mistake:
      // `{f/*ilter": {}`, its string at offset -1) is the repair's consequence, not the text's: nothing more is said (stress fuzz)
      if (changes.length && !mapOffsets(problem, (o) => textOffset(changes, o))) break;
      out.push(shift === 0 ? problem : moved(problem, -shift));
    }
    if (!repair) break;
    if (problem.code !== 'syntax/comment' && !problem.fixes?.some((f) => f.preferred)) tentative = true;
    const change = changeBetween(current, repair.text);
    changes.push(change);
    current = repair.text;
    // A repair that was not parsed keeps the text's errors after the one repaired, moved by what it took out (a comment before
    // the first token of its line).
    const moveBy = change.added - change.removed;
    pending = repair.errors ?? pending.slice(1).map((p) => (moveBy && p.offset >= change.at ? { ...p, offset: p.offset + moveBy } : p));
    carried = repair.next;
    balance = repair.balance;
  }
  return out;
}

/** What a repair changed: `removed` characters of the text before it at `at`, replaced by `added` characters. */
interface Change { at: number; removed: number; added: number }

/** The one span where two texts differ (a repair's: one edit, or a few on one line, taken as one). */
function changeBetween(before: string, after: string): Change {
  let at = 0;
  while (at < before.length && at < after.length && before.charCodeAt(at) === after.charCodeAt(at)) at++;
  let same = 0;
  const max = Math.min(before.length, after.length) - at;
  while (same < max && before.charCodeAt(before.length - 1 - same) === after.charCodeAt(after.length - 1 - same)) same++;
  return { at, removed: before.length - same - at, added: after.length - same - at };
}

/** An offset of the text the repairs `changes` made, as the text before them has it: undefined inside what a repair put in. An
 * offset where a repair inserted text stays before it; where one removed text only, it goes past what was removed (a closer
 * placed where a trailing comma was removed goes after the comma, whose own fix removes it). */
function textOffset(changes: readonly Change[], offset: number): number | undefined {
  let o = offset;
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i];
    if (o < c.at || (o === c.at && c.added > 0)) continue;
    if (o < c.at + c.added) return undefined;
    o += c.removed - c.added;
  }
  return o;
}

/** A repair of a syntax error that is proved: the repaired text and its errors, all past the repaired spot (none when they are
 * the text's errors after the one repaired); next: the repaired text's first problem, when finding it was the proof. */
export interface Repair { text: string; errors?: ParseError[]; next?: { problem: Problem; repair: Parsed }; balance?: number }

/** A repair whose text was parsed: its errors are known. */
export type Parsed = Repair & { errors: ParseError[] };

/** budget: what the repairs may still parse (each proof takes its parse from it); nextError: the text's error after `e`; balance:
 * the text's openers less its closers, when known (bracketBalance). */
function firstProblem(text: string, e: ParseError, root: string, budget: Budget, nextError?: ParseError, balance?: number): { problem: Problem; repair?: Repair } {
  const mayParse = budget.left >= text.length;
  let code = 'syntax/invalid-json';
  let offset = e.offset;
  let length = Math.max(e.length, 0);
  const token = text.substr(offset, Math.max(length, 1));
  let message: string;
  let fixes: Problem['fixes'];
  let repair: Repair | undefined;
  const cut = e.error === ParseErrorCode.InvalidCommentToken ? undefined : cutString(text, offset, budget);
  if (cut) {
    code = 'syntax/unescaped-quote';
    const n = cut.quotes.length;
    const edits = cut.quotes.map((q) => ({ offset: q, length: 0, newText: '\\' }));
    // The string's text is one JSON string with its quotes (""kp"", a job string pasted between the quotes of "filter"): the
    // quotes came with it, and escaping them would keep them in the value (ui5).
    const doubled = n === 2 && cut.quotes[0] === cut.start + 1 && cut.quotes[1] === cut.end - 1;
    // cutString proved the repaired text has no error on the string's line or before, and parsed it (within the budget).
    const repaired = cut.repaired;
    return {
      problem: {
        code, severity: BASE_CODES[code as keyof typeof BASE_CODES].severity, offset: cut.cut, length: 1,
        message: `This quote ends the string ${quote(text.slice(cut.start, cut.cut + 1))} early: a quote inside a JSON string is written \\".`,
        fixes: [
          ...(doubled ? [{ title: 'Remove the doubled quotes (the text between them is a JSON string already)', preferred: true,
            edits: cut.quotes.map((q) => ({ offset: q, length: 1, newText: '' })) }] : []),
          { title: n === 1 ? 'Escape the quote inside the string' : `Escape the ${n} quotes inside the string`, preferred: !doubled, edits },
          // One quote may as well have been typed by mistake: its removal gives the same shape (a string one character shorter), so
          // it needs no proof of its own; with two fixes, Fix all leaves the choice to the user.
          ...(n === 1 ? [removeQuote(cut.quotes[0])] : [])],
        related: [{ offset: cut.start, length: cut.end + 1 - cut.start, message: 'The whole string, once the quotes inside it are escaped.' }],
      },
      repair: repaired,
    };
  }
  if (e.error === ParseErrorCode.InvalidCommentToken) {
    code = 'syntax/comment';
    message = 'Comments are not allowed in JSON.';
    // jsonc-parser reads the comment as space and goes on, so the errors after it are what they would be without it; the repaired
    // text has it as space (line breaks kept), so that no later repair's parse meets it again.
    fixes = [{ title: 'Remove the comment', edits: [commentRemoval(text, offset, length)] }];
    const end = Math.min(offset + length, text.length);
    // A comment before the first token of its line (`/* c */ "and": ...`) is taken out with the space after it: read as space, it
    // made the line indented deeper than it is, and the bracket diagnosis read the indentation wrong (syn12). The errors after it
    // are moved back with it (syntaxProblems).
    let after = end;
    while (text[after] === ' ' || text[after] === '\t') after++;
    const leads = /^[ \t]*$/.test(text.slice(lineStartAt(text, offset), offset)) && !/[\r\n]/.test(text.slice(offset, end))
      && after < text.length && text[after] !== '\n' && text[after] !== '\r';
    repair = { text: leads ? text.slice(0, offset) + text.slice(after)
      : text.slice(0, offset) + text.slice(offset, end).replace(/[^\r\n]/g, ' ') + text.slice(end) };
  } else if ((e.error === ParseErrorCode.ValueExpected || e.error === ParseErrorCode.PropertyNameExpected) && (text[offset] === ']' || text[offset] === '}')) {
    const comma = precedingNonSpace(text, offset);
    if (comma >= 0 && text[comma] === ',') {
      code = 'syntax/trailing-comma';
      message = `Trailing comma before "${text[offset]}".`;
      fixes = [{ title: 'Remove the trailing comma', edits: [{ offset: comma, length: 1, newText: '' }], preferred: true }];
      if (mayParse) repair = withoutTrailingComma(text, comma, offset, root, budget);
      // The opener of an empty last item left out after the comma (`"latest", ]]`; syn13): when the text without the comma still
      // breaks by the end of the line (a closer too many: the comma alone is no answer; `[["0xa", ]]` in getLogs' topics is).
      const first = repair ? firstBreak(repair.errors ?? []) : undefined;
      const empty = mayParse && (!repair || (first && first.offset <= lineEndAt(text, offset))) ? emptyOpenerLeftOut(text, e, root, budget) : undefined;
      if (empty) return empty;
      offset = comma;
      length = 1;
    } else {
      message = `${syntaxMessage(e.error, root)} before "${text[offset]}".`;
    }
  } else if (offset >= text.length) {
    message = `${syntaxMessage(e.error, root)} at the end of ${root}.`;
    offset = text.length;
    length = 0;
  } else {
    message = `${syntaxMessage(e.error, root)} ${e.error === ParseErrorCode.CommaExpected || e.error === ParseErrorCode.ColonExpected ? 'before' : 'at'} ${quote(token)}.`;
    if ((e.error === ParseErrorCode.CommaExpected || e.error === ParseErrorCode.ColonExpected) && mayParse) {
      // Right after the value (or property name) before, as one writes it (not before the next value on its own line).
      const at = precedingNonSpace(text, offset) + 1;
      const mark = e.error === ParseErrorCode.CommaExpected ? ',' : ':';
      // Proved when the parser gets past the value's first token with the comma: a "}" left out before it (`[{"a": 1 {"b": 2}]`)
      // still fails there, on the "{" taken for a property name. An error inside that value is its own, and is reported next.
      const withMark = text.slice(0, at) + mark + text.slice(at);
      // A colon's value ends its member, so the parser must get past the token after it too: a name that lost its closing quote
      // ("jsonrpc: "2.0", ...) has the rest of its string after the value, and a name before a name ("b" "c": 2) a colon.
      const after = mark === ':' ? nextTokenEnd(withMark, nextTokenEnd(withMark, offset + 1)) - 1 : offset + 1;
      const marked = startsValue(text, offset) && !brokenTokenAfter(text, offset) ? proved(withMark, after, budget) : undefined;
      repair = marked;
      if (repair) fixes = [{ title: mark === ',' ? 'Insert the missing comma' : 'Insert the missing colon', edits: [{ offset: at, length: 0, newText: mark }], preferred: true }];
      // A comma before the first token of a line where the indentation says a container ended (`"RayID"` then, at the array's
      // indentation, `"timestamp_format": ...`): the closer was left out with it, when closing the container there (and the comma
      // after it) gets the parser further than the comma alone, which put the member in the array. Looked at only after a line
      // indented deeper or one that leaves a container open (a comma left out between two siblings is neither), and the scan up to
      // the error is taken from the budget: a document of many commas left out is not scanned once for each.
      if (marked && mark === ',' && lineStartAt(text, offset) + indentAt(text, offset).length === offset && afterOpenLine(text, offset)
        && budget.left >= text.length + offset) {
        const open = unclosed(text, e, root, budget);
        if (open && reach(text, open.repair) > reach(text, marked)) return open;
      }
    } else if (e.error === ParseErrorCode.InvalidSymbol) {
      const js = javaScriptToken(text, offset, length);
      if (js) {
        message = js.message;
        length = js.length;
        if (js.edits && mayParse) {
          repair = proved(applyEdits(text, js.edits), offset + js.length + js.past - 1, budget);
          if (repair) fixes = [{ title: js.title!, edits: js.edits, ...(js.preferred === false ? {} : { preferred: true }) }];
        } else if (!js.edits) {
          repair = undefined;
        }
      }
    }
  }
  // A quote typed by mistake inside a string: what follows it is read as tokens, and what this error's repair proves (a comma before
  // the string's rest, a comment from "https:"//) still breaks on the same line, or later than the quote's removal would.
  const weak = !repair || reachedBefore(repair, nextError, lineEndAt(text, e.offset))
    || (code === 'syntax/comment' && text[offset - 1] === '"');
  if (mayParse && weak) {
    const stray = strayQuote(text, e.offset, budget);
    if (stray) return { problem: strayProblem(text, stray), repair: stray.repaired };
  }
  // A bracket or brace left out: where the indentation says the container ended, when closing it there gets the parser past the error;
  // an opener left out instead, when the text has more closers than openers (unopened.ts).
  // Whether the text has more closers than openers is a scan of all of it, paid from the budget as a parse is (syn11): a problem is
  // said only when a parse paid for it, so the scans were bounded, but they came on top of the budget (0.2-0.4 times it again for a
  // batch whose every request lost its "{"). Not scanned when the repair before said it; neither reading when it cannot be paid.
  if (mayParse && !repair && code === 'syntax/invalid-json') {
    const known = balance ?? (paidScan(budget, text.length) ? bracketBalance(text) : undefined);
    const open = known === undefined ? undefined : known < 0 ? unopened(text, e, root, budget, known)
      : unclosed(text, e, root, budget) ?? (known > 0 ? openedTwice(text, e, budget) : undefined);
    if (open) return open;
  }
  if (length === 0 && offset < text.length) length = 1;
  // jsonc-parser's scanner runs one past the end of an unterminated block comment ("0/*" reports 1+3 in 3 characters).
  offset = Math.min(offset, text.length);
  length = Math.min(length, text.length - offset);
  return { problem: { code, severity: BASE_CODES[code as keyof typeof BASE_CODES].severity, message, offset, length, ...(fixes ? { fixes } : {}) }, repair };
}

/** The fix that removes a quote: offered, never applied by Fix all (the quote may be meant, and escaping it the fix). */
function removeQuote(at: number): { title: string; edits: { offset: number; length: number; newText: string }[] } {
  return { title: 'Remove the quote', edits: [{ offset: at, length: 1, newText: '' }] };
}

/** The end of the line of `offset`: its "\n" (of a "\r\n" too), a lone "\r" (lines as LSP counts them: in a document of old Mac
 * line breaks the line was the rest of the text, and a quote's proof asked all of it to parse; rv15), or the text's end. */
export function lineEndAt(text: string, offset: number): number {
  for (let i = Math.max(offset, 0); i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) return i;
  }
  return text.length;
}

/** Whether a repair leaves a syntax error at or before `limit` (next: the text's next error, for a repair that keeps the text's
 * errors after the one repaired). */
function reachedBefore(repair: Repair, next: ParseError | undefined, limit: number): boolean {
  const first = repair.errors ? repair.errors[0] : next;
  return first !== undefined && first.offset <= limit;
}

/** Spellings of JavaScript and Python that JSON writes otherwise, in a value. */
const LITERALS: Record<string, { json: string; message: string }> = {
  true: { json: 'true', message: 'JSON writes true in lower case' },
  false: { json: 'false', message: 'JSON writes false in lower case' },
  null: { json: 'null', message: 'JSON writes null in lower case' },
  none: { json: 'null', message: 'JSON writes null for nothing' },
};

/**
 * What JavaScript (or Python) writes where JSON has a quoted name, a double-quoted string or a lower-case literal, at a token
 * jsonc-parser found no JSON in: the message, the span, and the edits that write it as JSON (none when JSON has no spelling for
 * it: undefined). past: how far past the token's end, in the repaired text, the parse must get to prove the edits (what they add,
 * and a property name's colon).
 */
function javaScriptToken(text: string, offset: number, length: number):
  { message: string; length: number; title?: string; preferred?: boolean; edits?: { offset: number; length: number; newText: string }[]; past: number } | undefined {
  const token = text.substr(offset, length);
  if (token.startsWith("'")) {
    // A single-quoted string: jsonc-parser's token stops at a space or a bracket, so its end is looked for on the line.
    let close = -1;
    for (let i = offset + 1; i < text.length && text[i] !== '\n' && text[i] !== '\r'; i++) {
      if (text[i] === '\\') i++;
      else if (text[i] === "'") { close = i; break; }
    }
    // Its end is a string's only where a separator follows (the quote of "don't" is followed by "t": not proved by the parse,
    // whose first error would lie just past the repaired span).
    if (close < 0 || !/^[ \t]*(?:[,:}\]\r\n]|\/[/*]|$)/.test(text.slice(close + 1, close + 3 + 64))) return undefined;
    let body = '';
    for (let i = offset + 1; i < close; i++) {
      const c = text[i];
      if (c === '\\' && text[i + 1] === "'") { body += "'"; i++; } else if (c === '\\') { body += c + (text[i + 1] ?? ''); i++; } else if (c === '"') body += '\\"'; else body += c;
    }
    const json = `"${body}"`;
    return { message: `A string is written in double quotes: ${quote(json)}.`, length: close + 1 - offset, title: 'Use double quotes',
      edits: [{ offset, length: close + 1 - offset, newText: json }], past: json.length - (close + 1 - offset) };
  }
  if (!/^[A-Za-z_$][\w$]*$/.test(token)) return undefined;
  // Only inside an object or an array: a text that starts with a word is not JSON written the JavaScript way (a filter written in
  // the rules language, "ClientCountry eq us"), and quoting its words one by one would be a cascade.
  const before = text[precedingNonSpace(text, offset)];
  if (before !== '{' && before !== '[' && before !== ',' && before !== ':') return undefined;
  const colon = /^\s*:/.exec(text.slice(offset + length, offset + length + 64));
  if ((before === '{' || before === ',') && colon) {
    // The proof runs past the colon: in an array ([1, b: 2]) the colon is the error.
    return { message: `A property name is written in double quotes: "${token}".`, length, title: 'Quote the property name',
      edits: [{ offset, length: 0, newText: '"' }, { offset: offset + length, length: 0, newText: '"' }], past: 2 + colon[0].length };
  }
  // A word's repair is proved past the token after it: a key that lost its opening quote (`jsonrpc": "2.0"`) read as a word
  // has a quote after it, and what follows would be a cascade of its consequences.
  const next = nextTokenEnd(text, offset + length) - (offset + length);
  // Own names only: a word such as __proto__ or constructor is not a literal (LITERALS' prototype had them, and no json).
  const literal = Object.hasOwn(LITERALS, token.toLowerCase()) ? LITERALS[token.toLowerCase()] : undefined;
  if (literal) {
    return { message: `${literal.message}: "${token}".`, length, title: `Write ${literal.json}`,
      edits: [{ offset, length, newText: literal.json }], past: literal.json.length - length + next };
  }
  if (token === 'undefined') return { message: 'JSON has no undefined: leave the member out, or write null: "undefined".', length, past: 0 };
  // One slip from a literal (tru, flase, nul); "value" is two from false, and a word, not a misspelt literal.
  const near = suggest(token.toLowerCase(), ['true', 'false', 'null'], { max: 1 })[0];
  if (near && token.length >= 3 && editDistance(token.toLowerCase(), near) <= 1) {
    return { message: `Unexpected word "${token}"; did you mean ${near}?`, length, title: `Write ${near}`, preferred: false,
      edits: [{ offset, length, newText: near }], past: near.length - length + next };
  }
  // A word where a value goes: a string without its quotes, most likely (`"operator": eq`), but not surely (a misspelt true), so
  // its fix is offered, not applied by Fix all.
  return { message: `Unexpected word "${token}": a string is written in double quotes, and true, false and null in lower case.`, length,
    title: `Write it as the string "${token}"`, preferred: false,
    edits: [{ offset, length: 0, newText: '"' }, { offset: offset + length, length: 0, newText: '"' }], past: 2 + next };
}

/** The repaired text, when its first error (if any) lies past `after`: the repair got the parser past the spot. Its parse is taken
 * from the budget, proved or not; none is made when the budget cannot pay for it (not proved). */
export function proved(text: string, after: number, budget: Budget): Parsed | undefined {
  const r = paidParse(text, budget);
  const first = r && firstBreak(r.errors);
  return r && (!first || first.offset > after) ? r : undefined;
}

/** The first of a repaired text's errors that stops the parser: a comment is read as space, and said as a problem of its own
 * (rv19: one after the error, at its line's end or before the next line's first token, was where a proof or a reading's parse
 * "stopped": a closer typed for another had its replacement lose to an insertion that broke further on, and the opener that
 * left too few was named next, the two fixes giving another value). */
export function firstBreak(errors: readonly ParseError[]): ParseError | undefined {
  return errors.find((e) => e.error !== ParseErrorCode.InvalidCommentToken);
}

/** Takes a scan of `chars` characters from the budget (the bracket diagnosis' scans of the text, paid as parses are); false, and
 * nothing taken, when it cannot pay for it. */
export function paidScan(budget: Budget, chars: number): boolean {
  if (budget.left < chars) return false;
  budget.left -= chars;
  return true;
}

/** The text with its syntax errors, the parse taken from the budget; none when the budget cannot pay for it. */
export function paidParse(text: string, budget: Budget): Parsed | undefined {
  if (budget.left < text.length) return undefined;
  budget.left -= text.length;
  return parsed(text);
}

/**
 * The text without the trailing comma at `comma` before the closer at `closer`, when that gets the parser past the closer; or when
 * the container around was left open too (`{...},` then the "}" of the object around an array): the text without the comma then
 * fails at the closer, and a closer left out there (unclosed) gets the parser past it. That problem is the repaired text's first,
 * carried to be reported next. The comma trails in either reading.
 */
function withoutTrailingComma(text: string, comma: number, closer: number, root: string, budget: Budget): Parsed | undefined {
  const without = text.slice(0, comma) + text.slice(comma + 1);
  const r = paidParse(without, budget);
  if (!r) return undefined;
  const first = firstBreak(r.errors);
  if (!first || first.offset > closer - 1) return r;
  if (first.offset !== closer - 1) return undefined;
  const next = unclosed(without, first, root, budget);
  return next ? { ...r, next } : undefined;
}

/** Whether the line before the line of `offset` (blank lines skipped) is indented deeper than it, or opens more containers than it
 * closes: where a container open at `offset` may have been opened on a line indented as deep or deeper (indentationEnd's line B). */
function afterOpenLine(text: string, offset: number): boolean {
  const own = indentAt(text, offset);
  let start = lineStartAt(text, offset);
  let line = '';
  while (start > 0 && line.trim() === '') {
    const end = start;
    start = lineStartAt(text, end - 1);
    line = text.slice(start, end);
  }
  const indent = indentAt(text, start);
  if (indent.length > own.length && indent.startsWith(own)) return true;
  let depth = 0;
  const scanner = createScanner(line, true);
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) depth++;
    else if ((k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) && depth > 0) depth--;
  }
  return depth > 0;
}

/** The text with its syntax errors. */
function parsed(text: string): Parsed {
  return { text, errors: parseErrors(text) };
}

/** Whether a value (or a property name) starts at `offset`: what a comma before it could separate from the value before. */
function startsValue(text: string, offset: number): boolean {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  switch (scanner.scan()) {
    case SyntaxKind.StringLiteral: case SyntaxKind.NumericLiteral: case SyntaxKind.OpenBraceToken: case SyntaxKind.OpenBracketToken:
    case SyntaxKind.TrueKeyword: case SyntaxKind.FalseKeyword: case SyntaxKind.NullKeyword:
      return scanner.getTokenOffset() === offset;
    default:
      return false;
  }
}

/** The end of the token after `offset` (comments and space skipped), or `offset` at the end of the text. */
function nextTokenEnd(text: string, offset: number): number {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  return scanner.scan() === SyntaxKind.EOF ? offset : scanner.getTokenOffset() + scanner.getTokenLength();
}

/** Whether a number, string or literal starts at `offset` and a token the scanner cannot read (a word, a string left open) follows
 * it: the value is the rest of a string cut short ("0x12, "0x0010" read as "0x12, " then 0), not one a comma was left out before. */
function brokenTokenAfter(text: string, offset: number): boolean {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  const kind = scanner.scan();
  if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) return false;
  const next = scanner.scan();
  return next === SyntaxKind.Unknown || (next !== SyntaxKind.EOF && scanner.getTokenError() !== ScanError.None);
}

/** The edit that removes a comment: with the space before it on its line, its whole line when it stands alone there, and the space
 * after it when it comes before the first token of its line (the line keeps its own indentation; syn14: `  /* c *\/ "and"` became
 * ` "and"`, and a comment at the margin left a space before the line's first token). */
function commentRemoval(text: string, offset: number, length: number): { offset: number; length: number; newText: string } {
  const end = Math.min(offset + length, text.length);
  let from = offset;
  while (from > 0 && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
  const lineStart = from === 0 || text[from - 1] === '\n' || text[from - 1] === '\r';
  const rest = /^[ \t]*(\r\n|\n|\r|$)/.exec(text.slice(end, end + 256));
  if (lineStart && rest) return { offset: from, length: end + rest[0].length - from, newText: '' };
  if (lineStart) {
    let to = end;
    while (text[to] === ' ' || text[to] === '\t') to++;
    return { offset, length: to - offset, newText: '' };
  }
  return { offset: from, length: end - from, newText: '' };
}

/** A problem whose fixes are offered, none applied by Fix all. */
function notPreferred(p: Problem): Problem {
  return p.fixes ? { ...p, fixes: p.fixes.map(({ preferred: _, ...f }) => f) } : p;
}

/** A problem with each of its spans (its own, its fixes' edits', its related spans') mapped, start and end, or undefined when one
 * cannot be (a span's length is the mapped text's: a word a repair quoted is two characters longer there), or is text a repair
 * put in (a comma inserted before line B, the token the closers go before: it would be an empty span quoting a comma; rv15). */
function mapOffsets(p: Problem, map: (offset: number) => number | undefined): Problem | undefined {
  let lost = false;
  const span = <T extends { offset: number; length: number }>(x: T): T => {
    const start = map(x.offset);
    const end = x.length === 0 ? start : map(x.offset + x.length);
    if (start === undefined || end === undefined || end < start || (x.length > 0 && end === start)) lost = true;
    return start === undefined || end === undefined ? x : { ...x, offset: start, length: end - start };
  };
  const mapped: Problem = {
    ...span(p),
    ...(p.fixes ? { fixes: p.fixes.map((f) => moveFix(f, span)) } : {}),
    ...(p.related ? { related: p.related.map(span) } : {}),
  };
  return lost ? undefined : mapped;
}

/** A problem moved by delta characters, with its fixes and related spans. */
function moved(p: Problem, delta: number): Problem {
  return {
    ...p, offset: p.offset + delta,
    ...(p.fixes ? { fixes: p.fixes.map((f) => moveFix(f, (x) => ({ ...x, offset: x.offset + delta }))) } : {}),
    ...(p.related ? { related: p.related.map((r) => ({ ...r, offset: r.offset + delta })) } : {}),
  };
}

export function precedingNonSpace(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}

/** Lines longer than this are not searched for a cut string (a minified document's one line); nor documents larger than
 * CUT_TEXT_MAX, since each candidate is proved by a parse of the document (a large batch while it is being typed in). */
const CUT_LINE_MAX = 16 * 1024;
export const CUT_TEXT_MAX = 256 * 1024;
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
 * the quotes to escape; repaired: the text with them escaped, and its syntax errors (the proof's parse).
 */
export function cutString(text: string, offset: number, budget: Budget): { start: number; cut: number; end: number; quotes: number[]; repaired: Parsed } | undefined {
  if (text.length > CUT_TEXT_MAX || budget.left < text.length) return undefined;
  const cut = precedingNonSpace(text, offset);
  if (cut < 0 || text[cut] !== '"') return undefined;
  const lineStart = lineStartAt(text, cut);
  const lineEnd = lineEndAt(text, offset);
  if (lineEnd - lineStart > CUT_LINE_MAX) return undefined;
  // The string token that ends at the cut quote: a scan of the line up to it, paid from the budget (the budget could pay for the
  // text on entry; syn11: a minified batch's line is the text, read once per problem).
  const scanner = createScanner(text.slice(lineStart, cut + 1), false);
  budget.left -= cut + 1 - lineStart;
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
  // A comma before a colon (the error's token; only space between) cannot mend the line: no parse for it (syn11).
  if (text[offset] !== ':' && proved(text.slice(0, cut + 1) + ',' + text.slice(cut + 1), lineEnd + 1, budget)) return undefined;
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
    const repaired = proved(text.slice(0, start) + escaped(start, end + 1) + text.slice(end + 1), lineEnd + quotes.length, budget);
    if (repaired) return { start, cut, end, quotes, repaired };
  }
  return undefined;
}

/** Quotes tried as typed by mistake (each is a parse of the document without it), nearest the error first. */
const STRAY_TRIES = 3;

/**
 * A quote typed by mistake inside a string, at or before the syntax error at `offset` on its line: the document without it has no
 * syntax error on that line or before (a parse). Not a quote after a separator (spaces between or not), which opens a string as
 * written: that is a closing quote left out before it ("0x12, "0x0010"), and removing it would merge two values (opensValue). The
 * string is the one the quote is in (start, end: its quotes in the text), which the quote ended early or followed.
 */
function strayQuote(text: string, offset: number, budget: Budget): { quote: number; start: number; end: number; repaired: Parsed } | undefined {
  if (text.length > CUT_TEXT_MAX) return undefined;
  const lineStart = lineStartAt(text, offset);
  const lineEnd = lineEndAt(text, offset);
  if (lineEnd - lineStart > CUT_LINE_MAX) return undefined;
  // A word after a separator is a name or value that lost its opening quote ("a": 1, b": 2), not the rest of a string cut by a
  // stray quote before the separator: a removal would merge them into one name. No quote before the separator is tried then.
  const from = WORD_START.test(text[offset] ?? '') ? Math.max(lineStart, text.lastIndexOf(':', offset - 1), text.lastIndexOf(',', offset - 1)) : lineStart;
  let tries = 0;
  for (let q = text.lastIndexOf('"', Math.min(offset, text.length - 1)); q >= from && tries < STRAY_TRIES; q = q > 0 ? text.lastIndexOf('"', q - 1) : -1) {
    if (isEscaped(text, q) || opensValue(text, lineStart, q)) continue;
    if (budget.left < text.length) break;
    tries++;
    const without = text.slice(0, q) + text.slice(q + 1);
    const repaired = proved(without, lineEnd - 1, budget);
    if (!repaired) continue;
    // The string of the repaired text that holds the quote's place.
    const scanner = createScanner(without.slice(lineStart, lineEnd - 1), false);
    for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
      const start = lineStart + scanner.getTokenOffset();
      const end = start + scanner.getTokenLength();
      if (kind === SyntaxKind.StringLiteral && start < q && q <= end) return { quote: q, start, end, repaired };
      if (start >= q) break;
    }
  }
  return undefined;
}

/** Whether the quote at `q` opens a value as written: it follows a comma, or space at the start of its line or after a separator
 * ("," ":" "[" "{"). A quote after a space that follows a word ("a "b") is tried: one quote typed by mistake ("a b") is one slip, a
 * closing quote and a comma both left out ("a", "b") two. Right after "[" "{" or ":" it is tried, as it always was ("{"}"). */
function opensValue(text: string, lineStart: number, q: number): boolean {
  if (q === lineStart || text[q - 1] === ',') return true;
  let i = q - 1;
  while (i >= lineStart && /\s/.test(text[i])) i--;
  return i < q - 1 && (i < lineStart || SEPARATOR.test(text[i]));
}

const SEPARATOR = /[,:[{]/;
const WORD_START = /[A-Za-z_$]/;

/** The problem of a quote typed by mistake (strayQuote). */
function strayProblem(text: string, stray: { quote: number; start: number; end: number }): Problem {
  const code = 'syntax/unescaped-quote';
  return {
    code, severity: BASE_CODES[code].severity, offset: stray.quote, length: 1,
    message: `Stray quote in the string ${quote(text.slice(stray.start, stray.end + 1))}: remove it if it was typed by mistake; a quote inside a JSON string is written \\".`,
    fixes: [removeQuote(stray.quote)],
    related: [{ offset: stray.start, length: stray.end + 1 - stray.start, message: 'The whole string, with the quote in it.' }],
  };
}

const MEMBER_AFTER = /^\s*:/;
const OPENS_BEFORE = /[\s({[,]/;
const ELEMENT_AFTER = /^\s*,?\s*"/;


/** An array or object open at a point of the text: its opener's offset, its kind, the property name it is the value of, the
 * indentation of its opener's line, whether the opener is the last token there, and whether it is written flat (its first line
 * after the opener's is indented as deep; undefined until that line is read). */
export interface Opener { offset: number; kind: '{' | '['; name?: string; indent: string; lineStart: number; endsLine: boolean; flat?: boolean }

/** Where the line of `offset` starts: after a "\n", "\r\n" or lone "\r" (old Mac line breaks), as LSP and core/lines.ts count lines.
 * Read back to the line's break only: the last "\r" of an LF document (or "\n" of a lone-CR one) is none, and looking for it read
 * back to the text's start at every line of a scan (quadratic: 3.5 s for a 220 KB batch; rv15). */
export function lineStartAt(text: string, offset: number): number {
  let i = Math.min(offset, text.length) - 1;
  while (i >= 0 && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i--;
  return i + 1;
}

/** The spaces and tabs that start the line of `offset`. */
export function indentAt(text: string, offset: number): string {
  const start = lineStartAt(text, offset);
  return /^[ \t]*/.exec(text.slice(start, start + 256))![0];
}

/**
 * The first line, up to the token at `limit`, where the indentation says a container should have closed (line B): its first token
 * is indented no deeper than the line the innermost open container opened on, and starts a member or an item, or is a closer while
 * that line is indented deeper (a closer of an outer container). A container whose opener ends its line and whose next line is
 * indented as deep is written flat (`[` then items at its own indentation): it says nothing; not when a container around it opened
 * on the same line is still open (`{"id": 1, "params": [`): that one does not end its line, so a line as deep starts its next
 * sibling, and the inner one ended with it. B's start, and the containers open there (outermost first); b is -1 when no line is
 * such up to `limit` (the stack is then the containers open there), or when findB is false. Undefined when a closer of another
 * kind than the innermost's comes first, or when the budget cannot pay for the scan (rv19: it was paid only on the comma path, a
 * batch of closers left out read up to 1.6 texts past the budget and one text).
 */
function indentationEnd(text: string, limit: number, budget: Budget, findB = true, siblings = false): { b: number; stack: Opener[] } | undefined {
  if (!paidScan(budget, Math.min(limit, text.length))) return undefined;
  const stack: Opener[] = [];
  const scanner = createScanner(text, true);
  let line = -1;
  let prev = SyntaxKind.Unknown;
  let key: string | undefined;
  let lastOffset = -1;
  // The start and indentation of the line of the token read, found at its first token (read back over the space and comments
  // before it only): an opener's are its line's, not looked for again from it (a line of thousands of openers; rv15).
  let lineStart = 0;
  let own = '';
  for (let k = scanner.scan(); k !== SyntaxKind.EOF && scanner.getTokenOffset() <= limit; k = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    if (scanner.getTokenStartLine() !== line) {
      line = scanner.getTokenStartLine();
      const top = stack.at(-1);
      if (top && top.offset === lastOffset) top.endsLine = true;
      lineStart = lineStartAt(text, offset);
      own = indentAt(text, lineStart);
      if (findB && top && top.offset < offset && lineStart > top.offset) {
        const closer = k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken;
        const starts = !closer && (k === SyntaxKind.StringLiteral || k === SyntaxKind.NumericLiteral || k === SyntaxKind.OpenBraceToken
          || k === SyntaxKind.OpenBracketToken || k === SyntaxKind.TrueKeyword || k === SyntaxKind.FalseKeyword || k === SyntaxKind.NullKeyword || k === SyntaxKind.CommaToken);
        const around = stack.at(-2);
        top.flat ??= top.endsLine && own === top.indent && !(around && around.offset >= top.lineStart)
          && !(siblings && around !== undefined && around.endsLine && around.flat === false);
        if (top.indent.startsWith(own) && ((starts && !top.flat) || (closer && own !== top.indent))) return { b: lineStart, stack };
      }
    }
    if (offset === limit) break;
    if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) {
      stack.push({ offset, kind: k === SyntaxKind.OpenBraceToken ? '{' : '[', indent: own, lineStart, endsLine: false,
        ...(prev === SyntaxKind.ColonToken && key !== undefined ? { name: key } : {}) });
    } else if (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) {
      if (stack.at(-1)?.kind !== (k === SyntaxKind.CloseBraceToken ? '{' : '[')) return undefined;
      stack.pop();
    }
    if (k === SyntaxKind.StringLiteral) key = scanner.getTokenValue();
    else if (k !== SyntaxKind.ColonToken) key = undefined;
    prev = k;
    lastOffset = offset;
  }
  return { b: -1, stack };
}

/** The line break of the line of `offset`, the one a fix inserting a line there breaks (a CRLF line gets no lone LF from a fix,
 * whatever the other lines of a document of mixed breaks end with; an old Mac line a lone CR); on the last line, with none, the
 * line break before it. */
export function eolAt(text: string, offset: number): string {
  const after = /\r\n?|\n/.exec(text.slice(offset));
  if (after) return after[0];
  const start = lineStartAt(text, offset);
  if (start === 0) return '\n';
  return text[start - 1] === '\r' ? '\r' : text[start - 2] === '\r' ? '\r\n' : '\n';
}

/** The character that closes a container. */
function closerOf(o: Opener): '}' | ']' {
  return o.kind === '{' ? '}' : ']';
}

/** How a container is named in a message: the array "and", the object (an item, or the document). */
export function containerName(o: Opener): string {
  return `the ${o.kind === '{' ? 'object' : 'array'}${o.name !== undefined ? ` ${quote(o.name)}` : ''}`;
}

/** The 1-based line of `offset` as the editor counts lines, named as a line of `root` when that is a text parsed as one of its own
 * (a job's filter string, whose lines are \n escapes on one line of the job). */
export function lineName(text: string, offset: number, root: string): string {
  return `line ${new LineTable(text).position(offset).line + 1}${root === THE_DOCUMENT ? '' : ` of ${root}`}`;
}

/** How far a repaired text gets the parser, in the text's offsets (its first error moved back by what the repair added), or
 * Infinity when it parses. Every repair compared with it changes the text before that error. */
function reach(text: string, r: Parsed): number {
  const first = firstBreak(r.errors);
  return first ? first.offset - (r.text.length - text.length) : Infinity;
}

/**
 * A closing bracket or brace left out before the syntax error `e` (docs/architecture.md, "Unclosed brackets (syn8)"): the first
 * line B where the indentation says a container should have closed (indentationEnd); the containers open there whose opener's line
 * is indented deeper than B, or as deep when B does not start with a closer (which closes that one), are closed right after the
 * last token before B (before its comma, which then separates the outer container's members; with one when there is none and B
 * starts a member or an item: that was left out too). At the end of the text with no line B (every line after the innermost's
 * opener indented deeper than it), the containers still open are closed at the end, each on a line of its own at its opener's
 * indentation. A closer of another kind than the innermost container's at the error, with no line B or none that mends it, is
 * wrongCloser's. Taken only when the repair gets the parser past the error (a parse); an indentation that says nothing (one line,
 * no such line before the error) leaves the error as it was.
 * root: what the messages call the parsed text.
 */
function unclosed(text: string, e: ParseError, root: string, budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  if (text.length > CUT_TEXT_MAX || budget.left < text.length) return undefined;
  const end = indentationEnd(text, e.offset, budget);
  if (!end) return undefined;
  // A container read flat (its opener ends its line, the next line as deep) inside one written indented (its opener ends its line,
  // the next line deeper): by the document's own layout, the line as deep starts its next sibling, and the container ended right
  // after its opener (`"__proto__": {` with its "}" and comma left out, before `"constructor": 1,`; syn11: its members were read into
  // it, and their problems hidden). Read so when that gets the parser as far as the flat reading (both mend the text there); else
  // flat, as before (a "[" whose items follow at its line's indentation: closed right after it, the items would be members).
  const flat = endRead(text, e, root, end, budget);
  if (end.stack.some((o) => o.flat)) {
    const siblings = indentationEnd(text, e.offset, budget, true, true);
    const read = siblings && siblings.b !== end.b ? endRead(text, e, root, siblings, budget) : undefined;
    if (read && (!flat || reach(text, read.repair) >= reach(text, flat.repair))) return read;
  }
  return flat ?? (end.b < 0 ? onItsLine(text, e, root, end.stack, budget) : undefined);
}

/**
 * A container opened and closed on one line whose closer was left out, where the tokens at the error say where it ended (syn12):
 * a member of the object around an array (`"params": ["0x1", "latest", "id": 1}`: a comma expected before ":"), an item of the
 * array around an object (`{"to": "0x1", "input": "0x2", "latest"]`: a colon expected; `..., {"key": ...}`: a property name
 * expected at a value that is no string), or a comma right after the opener
 * (`"params": [, "id": 1}`). The closer goes before the comma before that member or item (after the opener): a place before it
 * leaves an item among the members (or a member among the items), one after it a member in the array; so the place is known when
 * only the innermost is closed, the container around it is of the other kind (any, for a comma after the opener: no container has
 * a leading comma), and no container of the innermost's kind inside it leaves another place (`[25, 75]` in the params: `[25], 75]`
 * mends the text too; containerScan). Taken when the text with the closer has no error up to the end of the error's line (a
 * parse, from the budget).
 */
function onItsLine(text: string, e: ParseError, root: string, stack: Opener[], budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  const inner = stack.at(-1);
  const around = stack.at(-2);
  if (!inner || !around || e.offset >= text.length) return undefined;
  const c = text[e.offset];
  // A comma right after the opener: no container has a leading comma, so the closer goes before it whatever the kind around.
  const afterOpener = c === ',' && precedingNonSpace(text, e.offset) === inner.offset
    && (e.error === ParseErrorCode.ValueExpected || e.error === ParseErrorCode.PropertyNameExpected);
  if (!afterOpener && around.kind === inner.kind) return undefined;
  const member = inner.kind === '[' && e.error === ParseErrorCode.CommaExpected && c === ':';
  const item = inner.kind === '{' && e.error === ParseErrorCode.ColonExpected && (c === ']' || c === ',');
  // An item that is no string after a comma in an object (`{"value": "1.2.3.5", {"key": ...}]`): the comma is the last token.
  const value = inner.kind === '{' && e.error === ParseErrorCode.PropertyNameExpected && /[[{\d-]|true|false|null/y.test(text.slice(e.offset, e.offset + 5));
  if (!afterOpener && !member && !item && !value) return undefined;
  // The tokens of the innermost up to the error, paid from the budget: the comma before the string the error follows.
  if (!paidScan(budget, e.offset - inner.offset)) return undefined;
  const scan = containerScan(text, inner, e.offset, false);
  let at: number;
  if (afterOpener) at = inner.offset + 1;
  else if (value) {
    const comma = scan.tokens.at(-1);
    if (comma?.kind !== SyntaxKind.CommaToken) return undefined;
    at = precedingNonSpace(text, comma.offset) + 1;
  } else {
    const [comma, last] = scan.tokens.slice(-2);
    if (comma?.kind !== SyntaxKind.CommaToken || last?.kind !== SyntaxKind.StringLiteral) return undefined;
    at = precedingNonSpace(text, comma.offset) + 1;
  }
  if (scan.loose !== undefined && scan.loose < at) return undefined;
  const closer = closerOf(inner);
  const repaired = proved(text.slice(0, at) + closer + text.slice(at), lineEndAt(text, e.offset) + closer.length, budget);
  return repaired && { problem: unclosedProblem(text, root, [inner], at, closer, false, budget), repair: repaired };
}

/** The tokens of the container `inner` (at its own level) from its opener up to `to`, and where its closer's place becomes unknown
 * (`loose`): a comma after a container of its kind opened in it through containers of its kind only, at a level of those. The
 * closer left out may be that container's (`{"a": 1, "b": 2}` in an object: `{"a": 1}, "b": 2}` gives an object too; `[25, 75]` in
 * an array: `[25], 75]`), and what follows it in that container then goes one level out. A comma at the innermost's own level
 * counts only when what follows it may go out of the innermost (`outward`: the container around it is of its kind): the closer
 * of `"params": {"x": 1}, "id": 2` in a batch is the request's, since `{"x": 1}}, "id": 2` puts a member in the array. Without
 * such a comma, every place gives the same value (the closer goes right before a closer of its kind, or at the place found:
 * `"action_parameters": { "ruleset": "current" }` then the rule's "}" left out). */
function containerScan(text: string, inner: Opener, to: number, outward: boolean): { loose?: number; commas: number[]; tokens: { kind: SyntaxKind; offset: number }[] } {
  const scanner = createScanner(text.slice(inner.offset + 1, to), true);
  const open: Opener['kind'][] = [];
  const tokens: { kind: SyntaxKind; offset: number }[] = [];
  // Every such comma (onePlace tries a closer before each); `loose`, the first, where the tokens read stop (as they did).
  const commas: number[] = [];
  let nested = false;
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    const kind = k === SyntaxKind.OpenBraceToken ? '{' : k === SyntaxKind.OpenBracketToken ? '[' : undefined;
    const offset = inner.offset + 1 + scanner.getTokenOffset();
    if (!open.length && !commas.length) tokens.push({ kind: k, offset });
    const chain = open.every((o) => o === inner.kind);
    if (kind) {
      if (kind === inner.kind && chain) nested = true;
      open.push(kind);
    } else if (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) open.pop();
    else if (k === SyntaxKind.CommaToken && nested && chain && (open.length > 0 || outward)) commas.push(offset);
  }
  return { ...(commas.length ? { loose: commas[0] } : {}), commas, tokens };
}

/** Whether containerScan says the closer's place before `at` is unknown. */
function loose(text: string, inner: Opener, at: number, outward: boolean): boolean {
  const l = containerScan(text, inner, at, outward).loose;
  return l !== undefined && l < at;
}

/** The containers left open that line B of `end` says ended (or the end of the text, or a closer of the other kind), closed. */
function endRead(text: string, e: ParseError, root: string, end: { b: number; stack: Opener[] }, budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  const { b, stack } = end;
  if (b < 0) return atTheEnd(text, e, root, stack, budget) ?? wrongCloser(text, e, root, stack, budget);
  return atLineB(text, e, root, b, stack, budget)
    ?? (/[\]}]/.test(text[e.offset] ?? '') ? wrongCloser(text, e, root, indentationEnd(text, e.offset, budget, false)?.stack ?? [], budget) : undefined);
}

/** The containers of `stack` that line B (at `b`) says ended before it, closed after the last token before B (unclosed). */
function atLineB(text: string, e: ParseError, root: string, b: number, stack: Opener[], budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  const bIndent = indentAt(text, b);
  const first = text[b + bIndent.length];
  const closesOwn = first === ']' || first === '}';
  let at = precedingNonSpace(text, b) + 1;
  // B starts the next member or item of the container around those closed: a comma separates it from them, the one before B (the
  // closers go before it) or a leading one; with none, it was left out with the closers (`"RayID"` then `"timestamp_format": ...`).
  const comma = !closesOwn && first !== ',' && text[at - 1] !== ',';
  if (text[at - 1] === ',') at--;
  const close: Opener[] = [];
  for (let i = stack.length - 1; i >= 0 && stack[i].offset < at; i--) {
    if (!stack[i].indent.startsWith(bIndent) || (stack[i].indent === bIndent && closesOwn)) break;
    close.push(stack[i]);
  }
  if (!close.length) return undefined;
  const inner = close[0];
  // Another container of the innermost's kind opened after it on the line before B, the innermost's own line
  // (`{"jsonrpc": "2.0", "params": {"x": 1, "id": 2}` with one "}" left out): which of the two lost its closer, the indentation
  // cannot say. (Opened on a line of its own, the innermost's closer would have had one too: the "}" on that line is the other's.)
  // Not one inside a container of the other kind (`"params": [{"fromBlock": "0x1"}], "id": 1` then the next request: its "}" goes
  // before the "]"; syn12), which containerScan skips. The scan is paid from the budget.
  const sameLine = inner.offset >= lineStartAt(text, at);
  const around = stack[stack.length - close.length - 1];
  if (sameLine && (!paidScan(budget, at - inner.offset) || loose(text, inner, at, close.length > 1 || around?.kind === inner.kind))) return undefined;
  const closers = close.map(closerOf).join('');
  const outer = close[close.length - 1];
  const newText = (sameLine ? closers : `${eolAt(text, at)}${outer.indent}${closers}`) + (comma ? ',' : '');
  return closedAt(text, e, root, close, at, newText, budget, comma);
}

/** At the end of the text, no line saying where a container ended: the containers open there, when the text has a line break
 * after the innermost's opener (on one line, the indentation says nothing), closed at the end. */
function atTheEnd(text: string, e: ParseError, root: string, stack: Opener[], budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  if (e.offset < text.length || (e.error !== ParseErrorCode.CloseBraceExpected && e.error !== ParseErrorCode.CloseBracketExpected)) return undefined;
  const close = [...stack].reverse();
  if (!close.length) return undefined;
  const at = precedingNonSpace(text, text.length) + 1;
  if (!/[\r\n]/.test(text.slice(close[0].offset).trimEnd())) {
    // On one line (syn12): the closers go after the last token when no other place mends the text. One of a kind inside a
    // container of its kind may go before any of the inner one's later items (`[[1, 2`: `[[1], 2]` too), and one may go inside a
    // container of its kind closed before it (containerScan; each scan paid from the budget).
    for (let i = 0; i < close.length; i++) {
      if (close[i + 1]?.kind === close[i].kind || !paidScan(budget, text.length - close[i].offset) || loose(text, close[i], text.length, false)) return undefined;
    }
    return closedAt(text, e, root, close, at, close.map(closerOf).join(''), budget);
  }
  const eol = eolAt(text, at);
  const newText = close.map((o) => `${eol}${o.indent}${closerOf(o)}`).join('');
  return closedAt(text, e, root, close, at, newText, budget);
}

/**
 * A closer of another kind than the innermost open container's at the error `e` (`"params": [}`, `[1, 2}`, a "}" under `"and": [`):
 * either the closers of the containers inside the one it closes were left out before it (inserted right before it; none when no
 * container of its kind is open), or it was typed for the innermost's closer (replaced). The one that gets the parser further is
 * taken (a parse each); on a tie, the replacement when the closer starts its line at the innermost's opener line's indentation
 * (where its own closer goes), else the insertion. Neither, when neither gets the parser past the closer.
 */
function wrongCloser(text: string, e: ParseError, root: string, stack: Opener[], budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  const c = text[e.offset];
  const inner = stack.at(-1);
  if ((c !== '}' && c !== ']') || !inner || closerOf(inner) === c) return undefined;
  let k = stack.length - 1;
  while (k >= 0 && closerOf(stack[k]) !== c) k--;
  const close = k < 0 ? [] : stack.slice(k + 1).reverse();
  // A container of the kind of one to close opened after it and closed before the error (`"params": {"x": 1, "id": 2}` then "]"):
  // its closer may be the one left out (before `, "id"`), so where the closer goes is unknown.
  // (Each opener is looked up in a set, and compared with the first container of its kind to close: hundreds of containers left
  // open were each asked at every opener in between; rv15.)
  const scan = createScanner(close.length ? text.slice(close[close.length - 1].offset, e.offset) : '', true);
  const closing = new Set(close.map((o) => o.offset));
  const firstOf = (kind: Opener['kind']) => Math.min(...close.filter((o) => o.kind === kind).map((o) => o.offset));
  const first = { '{': firstOf('{'), '[': firstOf('[') };
  let known = true;
  for (let t = scan.scan(); t !== SyntaxKind.EOF && known; t = scan.scan()) {
    const at = close[close.length - 1].offset + scan.getTokenOffset();
    const kind = t === SyntaxKind.OpenBraceToken ? '{' : t === SyntaxKind.OpenBracketToken ? '[' : undefined;
    if (kind && !closing.has(at) && first[kind] < at) known = false;
  }
  // One container to close (syn13; rv19: `[{"ap": {"id": "y"}]` was not named): the closer left out may be an inner one's only
  // before a comma after it that would move what follows one level out (containerScan, paid); the place is known when there is
  // none, or when no place before such a comma mends the text (a parse each, from the budget, at most SAME_PLACE_TRIES).
  if (!known && close.length === 1 && paidScan(budget, e.offset - close[0].offset)) known = onePlace(text, close[0], e.offset, budget);
  const ownLine = lineStartAt(text, e.offset) > inner.offset && indentAt(text, e.offset) === inner.indent && lineStartAt(text, e.offset) + inner.indent.length === e.offset;
  // The closer first on its line at the innermost's line's indentation, which the container it closes opened at too (on that line:
  // `{"a": [[1, 2],` then ` [3, 4]` then `}`; syn14): the layout says it may be either's. The closer left out right before it is
  // tried then though another place mends the text as well (`[3], 4]`, splitting an item closed on its line), and taken when it
  // gets further than the replacement (one slip; the replacement leaves the outer's closer missing too: two).
  const shared = ownLine && close.length === 1 && stack[k].indent === inner.indent;
  const closers = close.map(closerOf).join('');
  const inserted = close.length && (known || shared) ? proved(text.slice(0, e.offset) + closers + text.slice(e.offset), e.offset + closers.length, budget) : undefined;
  const own = closerOf(inner);
  const replaced = proved(text.slice(0, e.offset) + own + text.slice(e.offset + 1), e.offset, budget);
  const insert = inserted && (!replaced || (reach(text, inserted) > reach(text, replaced) && !layoutSaysInner(text, e.offset, inner, stack[k], budget))
    || (reach(text, inserted) === reach(text, replaced) && !ownLine));
  // A closer typed twice (`...}}` then the array's "]"): the text without it parses, and the reading's does not (it leaves a closer
  // too many, with a cascade after it; rv15: 1 159 of the valid fixtures' closers doubled were named so). Neither is said then.
  // Only a removal that mends the whole text: one that merely parses further reads the next request into the params (`[}`). A
  // third parse, from the budget; none when it cannot pay (the reading stands, as before).
  const removed = (insert || replaced) ? paidParse(text.slice(0, e.offset) + text.slice(e.offset + 1), budget) : undefined;
  if (removed && !firstBreak(removed.errors) && reach(text, insert ? inserted! : replaced!) !== Infinity) return undefined;
  if (insert) return { problem: unclosedProblem(text, root, close, e.offset, closers, false, budget), repair: inserted! };
  // Where a closer left out would go unknown, the replacement is as unsure (it mends `"params": {"x": 1, "id": 2}` then "]" as
  // `{"x": 1, "id": 2}}`), but for a closer at the innermost's own indentation, where its own closer goes.
  if (!replaced || (!known && !ownLine)) return undefined;
  const code = 'syntax/unclosed-bracket';
  return {
    problem: {
      code, severity: BASE_CODES[code].severity, offset: e.offset, length: 1,
      message: `${cap(containerName(inner))} opened on ${lineName(text, inner.offset, root)} is closed with ${quote(c)}: expected ${quote(own)}.`,
      fixes: [{ title: `Replace ${quote(c)} with ${quote(own)} to close ${containerName(inner)}`, edits: [{ offset: e.offset, length: 1, newText: own }] },
        // An empty container (`"params": {]`): its opener may as well be the one mistyped (rv19: the closer's was the only fix, and
        // Fix all made the params an object).
        ...(precedingNonSpace(text, e.offset) === inner.offset ? [{ title: `Replace ${quote(inner.kind)} with ${quote(c === ']' ? '[' : '{')} to open ${c === ']' ? 'an array' : 'an object'}`,
          edits: [{ offset: inner.offset, length: 1, newText: c === ']' ? '[' : '{' }] }] : [])],
      related: [{ offset: inner.offset, length: 1, message: `${cap(containerName(inner))} opens here.` }],
    },
    repair: replaced,
  };
}

/** At most this many places before a comma inside containers of the innermost's kind are tried for its closer (onePlace). */
const SAME_PLACE_TRIES = 4;

/** Whether the closer of `inner`, left out before the closer of the other kind at `to`, goes right before it and nowhere else: no
 * comma inside a container of its kind in it would move what follows one level out (containerScan), or the closer put before
 * each such comma (at most SAME_PLACE_TRIES) leaves an error up to `to` (a parse each, from the budget; none paid: unknown). */
function onePlace(text: string, inner: Opener, to: number, budget: Budget): boolean {
  const commas = containerScan(text, inner, to, false).commas;
  if (commas.length > SAME_PLACE_TRIES) return false;
  const closer = closerOf(inner);
  for (const comma of commas) {
    const at = precedingNonSpace(text, comma) + 1;
    if (budget.left < text.length) return false;
    if (proved(text.slice(0, at) + closer + text.slice(at), to + 1, budget)) return false;
  }
  return true;
}

/**
 * Whether the layout says the closer at `offset` (of the other kind than the innermost `inner`'s) was typed for the innermost's
 * closer, not for that of `outer`, the container of its kind the insertion of the innermost's closer before it would close with
 * it (syn12): the next line starts a member or an item at the innermost's opener line's indentation, not at `outer`'s (a sibling
 * of the innermost, which the insertion would put among `outer`'s siblings). Then the replacement is taken even when the
 * insertion gets the parser further: a closer left out further on mends the insertion's text into another value
 * (`"field_names": [` ... `    },` with the "}" of "output_options" left out read the members after it into the job). With
 * nothing after it (the document's last closer), the insertion, one slip where the replacement is two, stays. The line after it
 * is read from the budget.
 */
function layoutSaysInner(text: string, offset: number, inner: Opener, outer: Opener | undefined, budget: Budget): boolean {
  if (!outer || inner.indent === outer.indent) return false;
  const end = lineEndAt(text, offset);
  if (end >= text.length || !paidScan(budget, end + 1 - offset + 256)) return false;
  const next = end + 1;
  const indent = indentAt(text, next);
  return indent === inner.indent && /^["\d[{tfn-]/.test(text[next + indent.length] ?? '');
}

/** The problem of the containers `close` (innermost first) left open before the error `e`, whose closers the fix inserts at `at`
 * (newText: laid out as the indentation says; with a comma after them when `comma`), when that gets the parser past the error (a
 * parse). The repaired text has the closers (and the comma) alone, no line break added, so that the lines the next problems'
 * messages name are the text's. */
function closedAt(text: string, e: ParseError, root: string, close: Opener[], at: number, newText: string, budget: Budget, comma = false): { problem: Problem; repair: Parsed } | undefined {
  const inserted = close.map(closerOf).join('') + (comma ? ',' : '');
  const repaired = proved(text.slice(0, at) + inserted + text.slice(at), e.offset + inserted.length - (e.offset >= text.length ? 1 : 0), budget);
  if (!repaired) return undefined;
  return { problem: unclosedProblem(text, root, close, at, newText, comma, budget), repair: repaired };
}

/** The problem of the containers `close` (innermost first) whose closers (and a comma, when `comma`) are left out at `at`: on the
 * token the closer(s) go before (the comma or closer after them, or the next member's first token), naming the innermost's opener
 * and its line, related information at each opener, a fix (offered, not preferred) that inserts newText at `at`. */
function unclosedProblem(text: string, root: string, close: Opener[], at: number, newText: string, comma: boolean, budget: Budget): Problem {
  const closers = close.map(closerOf).join('');
  const inner = close[0];
  const outer = close[close.length - 1];
  const scanner = createScanner(text, true);
  scanner.setPosition(at);
  const kind = scanner.scan();
  const offset = kind === SyntaxKind.EOF ? text.length : scanner.getTokenOffset();
  const length = kind === SyntaxKind.EOF ? 0 : scanner.getTokenLength();
  const twice = close.length === 1 ? typedTwice(text, inner.offset, at, budget) : undefined;
  const around = close.length === 1 ? '' : close.length === 2 ? `the ${outer.kind === '{' ? 'object' : 'array'} around it` : `the ${close.length - 1} containers around it`;
  const code = 'syntax/unclosed-bracket';
  return {
    code, severity: BASE_CODES[code].severity, offset, length,
    // The closers quoted as any long token (cut short past 40): hundreds of containers left open are counted in `around`.
    message: `${cap(containerName(inner))} opened on ${lineName(text, inner.offset, root)} is not closed${around ? `, nor ${around}` : ''}: expected ${quote(closers)}${comma ? ' and a comma' : ''} ${kind === SyntaxKind.EOF ? `at the end of ${root}` : `before ${quote(text.slice(offset, offset + length))}`}.`,
    fixes: [{ title: `Insert ${quote(closers + (comma ? ',' : ''))} to close ${containerName(inner)}${around ? ` and ${around}` : ''}`, edits: [{ offset: at, length: 0, newText }] },
      ...(twice !== undefined ? [{ title: `Remove the second ${quote(text[twice])}`, edits: [{ offset: twice, length: 1, newText: '' }] }] : [])],
    related: close.map((o) => ({ offset: o.offset, length: 1, message: `${cap(containerName(o))} opens here; its "${closerOf(o)}" is missing.` })),
  };
}

/** An opener typed twice, as likely as the closer of the container opened at `o` left out (rv19: the closer's insertion was the
 * only fix, and Fix all put the batch in an array): the one at `o` when next to one of its kind (`[[`), else the second of the
 * last such pair inside the container before the closer's place `at` (syn13: `"params": ["0x1", [[]}`; the scan paid), when the
 * text without it parses (a parse, from the budget). */
function typedTwice(text: string, o: number, at: number, budget: Budget): number | undefined {
  let next = o + 1;
  while (/\s/.test(text[next] ?? '')) next++;
  const before = precedingNonSpace(text, o);
  const pair = text[next] === text[o] || (before >= 0 && text[before] === text[o]) ? o : lastPair(text, o + 1, at, false, budget);
  if (pair === undefined) return undefined;
  const without = paidParse(text.slice(0, pair) + text.slice(pair + 1), budget);
  return without !== undefined && !firstBreak(without.errors) ? pair : undefined;
}

/**
 * An opener typed twice where no closer's place is the one (syn14: `"params": [["0x1", "latest"]}`, the "]" left out before the "}"
 * or after "0x1"; 'Expected a comma before "}"'): the second of the last pair of openers of one kind (`[[`, `{{`; tokens) up to the
 * error's token, when the text without it has no syntax error up to the end of the error's line (a scan and a parse, paid; a slip
 * further on is said next). Said on it, "The array "params" is opened
 * twice", related at the first, the removal its one fix: preferred for a "{" (a "{" where a member goes, which no "}" inserted
 * before it mends: that takes a comma too), offered for a "[" (a "]" inserted after the items mends the text as well).
 */
function openedTwice(text: string, e: ParseError, budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  const pair = lastPair(text, 0, Math.min(text.length, e.offset + 1), false, budget);
  const without = pair === undefined ? undefined : removed(text, pair, lineEndAt(text, e.offset), budget);
  if (pair === undefined || !without) return undefined;
  const first = precedingNonSpace(text, pair);
  const kind = text[pair] === '{' ? '{' : '[';
  const name = containerName({ offset: first, kind, indent: '', lineStart: 0, endsLine: false, ...nameBefore(text, first, budget) });
  const code = 'syntax/unclosed-bracket';
  return {
    problem: {
      code, severity: BASE_CODES[code].severity, offset: pair, length: 1,
      message: `${cap(name)} is opened twice: one ${quote(kind)} is not closed.`,
      fixes: [{ title: `Remove the second ${quote(kind)}`, edits: [{ offset: pair, length: 1, newText: '' }], ...(kind === '{' ? { preferred: true } : {}) }],
      related: [{ offset: first, length: 1, message: `${cap(name)} opens here.` }],
    },
    repair: without,
  };
}

/** The second of the last pair of openers (or, `closers`, of closers) of one kind next to each other (`[[`, `}}`; tokens only, not
 * in a string or comment) from `from` up to `to`: a bracket typed twice. The scan paid from the budget (none: undefined). */
export function lastPair(text: string, from: number, to: number, closers: boolean, budget: Budget): number | undefined {
  if (!paidScan(budget, to - from)) return undefined;
  const scanner = createScanner(text.slice(from, to), true);
  let prev = SyntaxKind.Unknown;
  let found: number | undefined;
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    const bracket = closers ? k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken : k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken;
    if (k === prev && bracket) found = from + scanner.getTokenOffset();
    prev = k;
  }
  return found;
}
