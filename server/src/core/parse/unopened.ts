// An opening bracket or brace left out (syntax/unopened-bracket; docs/architecture.md, "Unopened brackets (syn10)"): the
// opposite of syntaxErrors.ts's `unclosed`. Its closer closes nothing, or a container of the other kind, or one opened on a line
// indented otherwise than its own; the indentation says where the container started, and the opener goes there.
import { createScanner, ParseErrorCode, SyntaxKind, type ParseError } from 'jsonc-parser';
import type { Problem } from '../types';
import { BASE_CODES } from '../baseCodes';
import { cap } from '../text';
import { CUT_TEXT_MAX, containerName, eolAt, firstBreak, indentAt, lineEndAt, lineName, lastPair, lineStartAt, paidParse, precedingNonSpace, quote, type Budget, type Opener, type Parsed } from './syntaxErrors';

/** At most this many places on the closer's own line are tried (each a parse; a place past the error's token is none, as it cannot
 * mend the text); more than one that mends the text is no answer. */
const SAME_LINE_TRIES = 6;

/**
 * An opening bracket or brace left out before the syntax error `e` or the closer it leads to, in a text of more closers than
 * openers (the caller has asked bracketBalance, or a repair before said it: one scan of the text at most, not two). The closer C is the first one that
 * closes nothing or a container of the other kind (at or after the error), or, first on its line, one opened on a line indented
 * otherwise than C's (before the error too). Where the opener goes:
 * - C first on its line: the nearest line before it not indented deeper, when it is indented as deep as C's line (a shallower one
 *   says nothing) and ends where a value or an item goes (":", ",", "["): at its end; each run of blank lines indented as C's,
 *   those before that line first, then those among the items (the opener was all the line had; rv17); when every line before C's
 *   is indented deeper, the document's start (its first line, the opener's, deleted whole; C's line indented too in a document
 *   indented whole), the fix writing the opener on a line of its own, indented as C's; when none of those mends the text,
 *   after each ":" or "," on the nearest line before C's that is not blank (syn11: a closer at its end read as the one around
 *   it's, `"ruleset": "current" }` then `},`), as the places inside containers closed on C's own line below;
 * - C after other tokens on its line: before the first token after a ":" or "," of C's container on that line (nearest first),
 *   then after the opener of the container around it, or before the line's first token; right before C for an empty container;
 *   for "[", not before an array (its own "[" may be the one meant, and the one left out inside it). When none of those mends
 *   the text, inside the containers closed on C's line before it (after each ":" or ",", and an array's "["; syn11): the closer
 *   whose opener is missing may be one of theirs, read as the one around it's (`"action_parameters":  "id": "x" } },`, the first
 *   "}" read as the rule's and the rule's as the rules array's), and the closer named is the one the opener pairs with. Taken only
 *   when every such place was tried within the cap.
 * A closer right after a whole value (`{...}]`, the error at the closer) says nothing: it may as well be typed by mistake.
 * Each place is taken only when the text after it is what the opener opens (a member, `"name":`, for "{"; an item for "[") and the
 * text with the opener inserted has no syntax error up to C and past the error (a parse, from the budget), but for a trailing
 * comma whose removal gets it there (a second parse; the comma is said next, syn11); two such places are no answer. Else
 * undefined: today's wording. A place at a line's end is after its last token and one space, before a comment there.
 * root: what the messages call the parsed text.
 */
export function unopened(text: string, e: ParseError, root: string, budget: Budget, balance: number): { problem: Problem; repair: Parsed } | undefined {
  if (text.length > CUT_TEXT_MAX || budget.left < text.length) return undefined;
  // The scans for the closer and the opener's places are paid from the budget as the parses are (syn11), each after it is made:
  // the budget could pay for the whole text before each.
  const closer = strayCloser(text, e.offset);
  budget.left -= closer?.scanned ?? text.length;
  if (!closer || budget.left < text.length) return undefined;
  const { offset: c, kind, after, pair } = closer;
  const mends = (at: number) => removed(text, at, text.length + 1, budget);
  // A closer after a whole value (`{...}]`): as likely typed by mistake as a "[" left out before the value; when it follows a
  // closer of its kind, said as typed twice (syn14).
  if (c === e.offset && e.error === ParseErrorCode.EndOfFileExpected) return closedTwice(text, e, c, after, balance, budget);
  const { places: tried, inner, read } = places(text, c, kind);
  budget.left -= read;
  const at = (list: number[], sure: boolean) => place(text, e, root, budget, balance, c, kind, list, sure);
  // Inside a container closed on C's line before C (`"action_parameters":  "id": "x" } },`: the first "}" is the one whose opener
  // is missing, read as the rule's), only when no place around C mends the text, and only when every place there was tried.
  const found = at(tried, false) ?? at(inner, true);
  // C right after a closer of its kind (`"params": []]`): typed twice as likely, when the text without it parses as well (a parse,
  // from the budget; rv19: the opener's fix, `[[]]`, was the only one, and Fix all nested the value). Both fixes are offered.
  // Likewise a closer typed twice before C (`{"x": 1}}, "id": 2}`; syn13: read as a "{" left out before "id", one fix making the
  // request's last member an object of its own): its removal keeps the containers as written, and is offered first.
  // C's own removal first; when it breaks the text, the pair before it (rv21: `[[1]], [2]]` gave only `[[[1]], [2]]`).
  // No opener's place the one (none, or two: `"params": ["0x1", "latest"]]}`, a "[" before either item): C after a closer of its
  // kind is said as typed twice, its removal the one fix (syn14: 'Expected a comma before "]"', no fix).
  // Else the second of a pair that closed the document early (`"where": {...}},` then more members; the error right after it): the
  // last closer, which closes nothing, is no slip of its own.
  if (!found) {
    const twice = closedTwice(text, e, c, after, balance, budget);
    if (twice || !pair || e.error !== ParseErrorCode.EndOfFileExpected || precedingNonSpace(text, e.offset) !== pair.offset) return twice;
    return closedTwice(text, e, pair.offset, pair.after, balance, budget, root);
  }
  const p = precedingNonSpace(text, c);
  let extra: number | undefined = p >= 0 && text[p] === text[c] && mends(c) ? c : undefined;
  if (extra === undefined) {
    const pair = lastPair(text, Math.min(lineStartAt(text, found.problem.offset), lineStartAt(text, c)), c, true, budget);
    if (pair === undefined || !mends(pair)) return found;
    extra = pair;
  }
  const removal = { title: `Remove the second ${quote(text[extra])}`, edits: [{ offset: extra, length: 1, newText: '' }] };
  const fixes = extra === c ? [...found.problem.fixes!, removal] : [removal, ...found.problem.fixes!];
  return { ...found, problem: { ...found.problem, fixes } };
}

/** The text without the bracket at `at`, when its parse (from the budget) has no syntax error (a comment is none) at or before
 * `past`, an offset of the text: the bracket typed twice. */
export function removed(text: string, at: number, past: number, budget: Budget): Parsed | undefined {
  const without = paidParse(text.slice(0, at) + text.slice(at + 1), budget);
  const first = without && firstBreak(without.errors);
  return without && (!first || first.offset + (first.offset >= at ? 1 : 0) > past) ? without : undefined;
}

/**
 * The opener of an empty container left out after a comma (`"params": ["latest", ]]`, the "[" of `[]` deleted): the error `e` is a
 * closer after a comma (read as a trailing comma) and another closer follows it. When the opener of the closer's kind inserted right
 * before it leaves no error up to the end of the line of the closer after it (a parse, from the budget), that is the reading: one slip, where a trailing
 * comma and a closer typed twice are two, and the trailing comma's removal (which Fix all applied) gives another value (rv19:
 * `["latest" ]]`, then a "[" said before "latest"). Undefined otherwise (the trailing comma, as before).
 */
export function emptyOpenerLeftOut(text: string, e: ParseError, root: string, budget: Budget): { problem: Problem; repair: Parsed } | undefined {
  const c = text[e.offset];
  if ((c !== ']' && c !== '}') || text[precedingNonSpace(text, e.offset)] !== ',') return undefined;
  const next = /\S/.exec(text.slice(e.offset + 1, e.offset + 1 + 256));
  if (!next || (next[0] !== ']' && next[0] !== '}')) return undefined;
  const kind = c === ']' ? '[' : '{';
  // No error up to the end of the line of the closer after it, in the repaired text (`[[1, ]]}`: `[[1, []]}` breaks at the "}").
  const r = paidParse(text.slice(0, e.offset) + kind + text.slice(e.offset), budget);
  const first = r && firstBreak(r.errors);
  if (!r || (first && first.offset <= lineEndAt(text, e.offset + 1 + next.index) + 1)) return undefined;
  return { problem: unopenedProblem(text, root, kind, e.offset, e.offset), repair: r };
}

/**
 * The closer at `c` typed twice, right after the closer of the container opened at `after` (the token before C, one of its kind),
 * when the text without it has no syntax error up to the end of C's line (a parse, from the budget; a slip further on is said
 * next, as after any repair): "The array "params" is closed twice", on C, related at the first closer, the removal its one fix.
 * early: C is the pair's second that closed the document (`early`, what the messages call it) before the members after it.
 * Preferred (Fix all applies it) for a "}" (the text before it is whole, its first error at or after C): no "{" inserted before C
 * mends such a text (a "{" goes before a member's name, and a whole text has one only where a member goes, not a value), so the
 * removal is the one reading. Not for a "]": a "[" after the array's own "[" mends the text too (`[["0x1", "latest"]]`).
 * Undefined otherwise (today's wording).
 */
function closedTwice(text: string, e: ParseError, c: number, after: number | undefined, balance: number, budget: Budget, early?: string):
  { problem: Problem; repair: Parsed } | undefined {
  const without = after === undefined ? undefined : removed(text, c, lineEndAt(text, c), budget);
  if (after === undefined || !without) return undefined;
  const name = containerName({ offset: after, kind: text[after] === '{' ? '{' : '[', indent: '', lineStart: 0, endsLine: false, ...nameBefore(text, after, budget) });
  const code = 'syntax/unopened-bracket';
  const preferred = text[c] === '}' && e.offset >= c;
  return {
    problem: {
      code, severity: BASE_CODES[code].severity, offset: c, length: 1,
      message: `${cap(name)} is closed twice: the second ${quote(text[c])} ${early ? `ends ${early} early` : 'closes nothing'}.`,
      fixes: [{ title: `Remove the second ${quote(text[c])}`, edits: [{ offset: c, length: 1, newText: '' }], ...(preferred ? { preferred } : {}) }],
      related: [{ offset: precedingNonSpace(text, c), length: 1, message: `${cap(name)} closes here.` }],
    },
    // One closer fewer: the repaired text's balance, said so that it is not scanned again.
    repair: { ...without, balance: balance + 1 },
  };
}

/** The one place of `list` where an opener of `kind` mends the text (see unopened), C at `c`: each tried in turn, at most
 * SAME_LINE_TRIES parses; undefined when none or two mend it, or (sure) when the tries ran out before the list did. */
function place(text: string, e: ParseError, root: string, budget: Budget, balance: number, c: number, kind: '{' | '[', list: number[], sure: boolean):
  { problem: Problem; repair: Parsed } | undefined {
  let found: { problem: Problem; repair: Parsed } | undefined;
  let tries = 0;
  for (const at of list) {
    // Past the error's token the text before the opener is the text's, which breaks there (the error is its first): no parse can
    // prove the place (syn11: of six places tried for a request that lost its "{", the five after its first member's colon), and
    // it is not counted among the tries (a params object's members after its first one hid the place before it).
    if (at > e.offset + e.length || !opens(text, at, kind, budget)) continue;
    if (tries === SAME_LINE_TRIES) return sure ? undefined : found;
    tries++;
    if (budget.left < text.length + 3) return undefined;
    // At the start of a line indented deeper than C's (the document's first line, its opener's line deleted whole): the opener on
    // a line of its own, as it was, indented as C's line.
    const own = indentAt(text, c);
    const insert = at === lineStartAt(text, at) && indentAt(text, at).length > own.length ? own + kind + eolAt(text, 0) : kind;
    const repaired = provedBut(text.slice(0, at) + insert + text.slice(at), Math.max(c, e.offset) + insert.length, budget);
    if (!repaired) continue;
    // Two places that both mend the text: which one lost the opener is unknown.
    if (found) return undefined;
    // One opener more, a token of its own where a token starts or a line ends (proved: not in a comment): the repaired text's
    // balance, said so that it is not scanned again.
    const closer = sure ? closing(text, at) : c;
    found = { problem: unopenedProblem(text, root, kind, at, closer, insert), repair: { ...repaired, balance: balance + 1 } };
    // The name read before the place (nameBefore) and the text up to its closer (closing), paid after they are read: once per
    // place proved.
    budget.left -= at - nameFrom(text, at) + (sure ? closer - at : 0);
  }
  return found;
}

/** In a text of more closers than openers, the first closer whose opener is not there (see unopened), with the kind of opener it
 * takes: one that closes nothing or a container of the other kind at or after `from` (one before it: undefined, what is broken
 * there is something else), or one first on its line indented otherwise than its opener's line, before `from` too. */
function strayCloser(text: string, from: number): { offset: number; kind: '{' | '['; scanned: number; after?: number; pair?: { offset: number; after: number } } | undefined {
  const stack: { offset: number; kind: '{' | '[' }[] = [];
  const scanner = createScanner(text, true);
  let line = -1;
  // The token before (comments and space are skipped) and the opener of the container the last closer closed.
  let prev = SyntaxKind.Unknown;
  let closed: number | undefined;
  // The last closer right after one of its kind, and the opener of the container that one closed.
  let pair: { offset: number; after: number } | undefined;
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; prev = k, k = scanner.scan()) {
    const offset = scanner.getTokenOffset();
    const first = scanner.getTokenStartLine() !== line;
    line = scanner.getTokenStartLine();
    if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) stack.push({ offset, kind: k === SyntaxKind.OpenBraceToken ? '{' : '[' });
    else if (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) {
      const kind = k === SyntaxKind.CloseBraceToken ? '{' : '[';
      const top = stack.pop();
      const other = !top || top.kind !== kind;
      if (other && offset < from) return undefined;
      // Right after a closer of its kind, closing nothing or a container of the other kind: maybe typed twice (closedTwice; syn14).
      if (other) return { offset, kind, scanned: offset + 1, ...(prev === k ? { after: closed } : {}), ...(pair ? { pair } : {}) };
      // Indented otherwise than its opener's line: before the error too (a "]" that closed the "params" around the array that lost
      // its "[", read as the array's, and the error only at the next closer).
      if (first && indentAt(text, offset) !== indentAt(text, top!.offset)) return { offset, kind, scanned: offset + 1 };
      if (prev === k && closed !== undefined) pair = { offset, after: closed };
      closed = top!.offset;
    }
  }
  return undefined;
}

/** A text's openers less its closers. Below 0, more closers than openers: one closes nothing. An opener left out is the answer then,
 * or none: a closer left out as well is no answer, and a closer left out alone leaves more openers (a closer inserted, or one
 * replaced by the other kind, would leave the one that closes nothing, read next as an opener left out, a guess upon a guess). */
export function bracketBalance(text: string): number {
  const scanner = createScanner(text, true);
  let balance = 0;
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) balance++;
    else if (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) balance--;
  }
  return balance;
}

/** The places the opener of the container the closer at `c` closes may go, most likely first (see unopened), and how many characters
 * before the closer were read to find them (paid from the budget). */
function places(text: string, c: number, kind: '{' | '['): { places: number[]; inner: number[]; read: number } {
  const lineStart = lineStartAt(text, c);
  const own = indentAt(text, c);
  if (lineStart + own.length === c) {
    // Blank lines indented as C's: after a line not indented deeper (the container's opener was all the line had) first, then
    // those after a deeper one (a blank line among the items, kept at that indentation or empty for C at the margin; or the
    // opener's after an item ending `1],`): the proof takes the one that mends the text, and two that do are no answer.
    const first: number[] = [];
    const among: number[] = [];
    let blanks: number[] = [];
    // Blank lines in a row give one place (only white space between): the last of them indented as C's, first met going back.
    let run = false;
    let start = lineStart;
    // The places on the nearest line before C's that is not blank, inside what closed there (syn11: `"action_parameters":  "ruleset":
    // "current" }` then `},`, the first "}" read as the rule's): tried when no place above mends the text.
    let inner: number[] | undefined;
    while (start > 0) {
      // The line before: its start, past its line break (both characters of a CRLF).
      start = previousLineStart(text, start);
      const end = lineEnd(text, start);
      const line = text.slice(start, end);
      const indent = indentAt(text, start);
      if (line.trim() === '') {
        if (indent === own && !run) {
          blanks.push(end);
          run = true;
        }
        continue;
      }
      run = false;
      inner ??= separators(text, start, end, kind);
      const deeper = indent.length > own.length && indent.startsWith(own);
      (deeper ? among : first).push(...blanks);
      blanks = [];
      if (deeper) continue;
      // At the line's end: after its last token and the space after it, before a comment there (read as space in this text; syn11:
      // the opener went after `// all of them`, inside the comment, and the fix gave no JSON).
      const last = line.trimEnd().length;
      if (indent === own && /[:,[]$/.test(line.slice(0, last))) first.push(start + last + (last < line.length ? 1 : 0));
      return { places: apart(text, [...first, ...among]), inner, read: c - start };
    }
    first.push(...blanks);
    // Every line before C's indented deeper (or none): the container started at the document's start, its opener's line deleted
    // whole, or the opener written on C's line; C's line indented too when the whole document is (pasted from inside another).
    first.push(0);
    return { places: apart(text, [...first, ...among]), inner: inner ?? [], read: c };
  }
  // On the closer's own line: before the token after each ":" or "," of C's container (nearest first), then after the opener of
  // the container C's is inside, when the line has it, else before the line's first token. Right before C when nothing is between
  // (an empty container: `"params": ]`).
  const tokens: { offset: number; kind: SyntaxKind }[] = [];
  const scanner = createScanner(text, true);
  scanner.setPosition(lineStart);
  for (let k = scanner.scan(); k !== SyntaxKind.EOF && scanner.getTokenOffset() < c; k = scanner.scan()) tokens.push({ offset: scanner.getTokenOffset(), kind: k });
  const out: number[] = [];
  // Inside containers closed on the line before C: after each ":" or "," there, and after an array's "[" (for a "[").
  const inner: number[] = [];
  let depth = 0;
  let around = false;
  for (let i = tokens.length - 1; i >= 0 && !around; i--) {
    const k = tokens[i].kind;
    const next = i + 1 < tokens.length ? tokens[i + 1].offset : c;
    if (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) depth++;
    else if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) {
      if (--depth < 0) { out.push(next); around = true; }
      // An array's first item, inside one closed on the line: as likely the place as any other item's (`["0xa", "latest"]]`).
      else if (kind === '[' && k === SyntaxKind.OpenBracketToken) inner.push(next);
    } else if (k === SyntaxKind.ColonToken || k === SyntaxKind.CommaToken) (depth === 0 ? out : inner).push(next);
  }
  if (tokens.length && !around) out.push(tokens[0].offset);
  // An array's "[" left out before an array ("params": ["a", "b"], "c"]): the "[" there may be the one left out's, and the one
  // left out any of that array's items' (["a", ["b"], "c"] as well): no answer.
  const notArray = (p: number) => text[p] !== '[';
  return { places: kind === '[' ? out.filter(notArray) : out, inner: kind === '[' ? inner.filter(notArray) : inner, read: c - lineStart };
}

/** The places after each ":" or "," (and "[", for a "[") of the line from `start` to `end`; for a "[", not before an array. */
function separators(text: string, start: number, end: number, kind: '{' | '['): number[] {
  const out: number[] = [];
  const scanner = createScanner(text, true);
  scanner.setPosition(start);
  let after = false;
  for (let k = scanner.scan(); k !== SyntaxKind.EOF && scanner.getTokenOffset() < end; k = scanner.scan()) {
    if (after && !(kind === '[' && k === SyntaxKind.OpenBracketToken)) out.push(scanner.getTokenOffset());
    after = k === SyntaxKind.ColonToken || k === SyntaxKind.CommaToken || (kind === '[' && k === SyntaxKind.OpenBracketToken);
  }
  return out;
}

/** The places, each once: two with only white space between give the same text (a line's end and the blank line after it). */
function apart(text: string, places: number[]): number[] {
  const seen = new Set<number>();
  return places.filter((p) => {
    let k = p;
    while (k > 0 && /\s/.test(text[k - 1])) k--;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The end of the line that starts at `start`, before its line break. */
function lineEnd(text: string, start: number): number {
  const m = /\r|\n/.exec(text.slice(start));
  return m ? start + m.index : text.length;
}

/** Whether the text after `at` is what an opener of `kind` opens: a member (a string and a colon) for "{", an item (a value not
 * followed by a colon) for "[", or its closer (an empty container). */
function opens(text: string, at: number, kind: '{' | '[', budget: Budget): boolean {
  const scanner = createScanner(text, true);
  scanner.setPosition(at);
  const first = scanner.scan();
  const second = scanner.scan();
  budget.left -= scanner.getPosition() - at;
  // An empty container: its closer right after the place.
  if (first === (kind === '{' ? SyntaxKind.CloseBraceToken : SyntaxKind.CloseBracketToken)) return true;
  if (kind === '{') return first === SyntaxKind.StringLiteral && second === SyntaxKind.ColonToken;
  const value = first === SyntaxKind.StringLiteral || first === SyntaxKind.NumericLiteral || first === SyntaxKind.OpenBraceToken
    || first === SyntaxKind.OpenBracketToken || first === SyntaxKind.TrueKeyword || first === SyntaxKind.FalseKeyword || first === SyntaxKind.NullKeyword;
  return value && second !== SyntaxKind.ColonToken;
}

/** The problem of an opener of `kind` left out at `at`, its closer at `c`: on the token the opener goes before, naming the
 * container (by the property it is the value of) and the closer's line, related information at the closer, a fix (offered, not
 * preferred: the indentation is a guess) that inserts the opener. */
function unopenedProblem(text: string, root: string, kind: '{' | '[', at: number, c: number, insert: string = kind): Problem {
  const scanner = createScanner(text, true);
  scanner.setPosition(at);
  scanner.scan();
  const offset = scanner.getTokenOffset();
  const length = scanner.getTokenLength();
  const container: Opener = { offset: at, kind, indent: '', lineStart: lineStartAt(text, at), endsLine: false, ...nameBefore(text, at) };
  const name = containerName(container);
  const code = 'syntax/unopened-bracket';
  return {
    code, severity: BASE_CODES[code].severity, offset, length,
    message: `${cap(name)} closed on ${lineName(text, c, root)} is not opened: expected "${kind}" before ${quote(text.slice(offset, offset + length))}.`,
    fixes: [{ title: `Insert "${kind}" to open ${name}`, edits: [{ offset: at, length: 0, newText: insert }] }],
    related: [{ offset: c, length: 1, message: `${cap(name)} closes here; its "${kind}" is missing.` }],
  };
}

/** The property whose value starts at `at` (`"and": ` before it), as Opener.name. */
export function nameBefore(text: string, at: number, budget?: Budget): { name?: string } {
  // What it reads, paid when a budget is given (a place's name is paid by `place` once the place is proved).
  if (budget) budget.left -= at - nameFrom(text, at);
  const scanner = createScanner(text, true);
  let key: string | undefined;
  let prev: SyntaxKind = SyntaxKind.Unknown;
  let name: string | undefined;
  scanner.setPosition(nameFrom(text, at));
  for (let k = scanner.scan(); k !== SyntaxKind.EOF && scanner.getTokenOffset() < at; k = scanner.scan()) {
    name = k === SyntaxKind.ColonToken && prev === SyntaxKind.StringLiteral ? key : undefined;
    if (k === SyntaxKind.StringLiteral) key = scanner.getTokenValue();
    prev = k;
  }
  return name !== undefined ? { name } : {};
}

/** Where nameBefore reads from: the line of `at` and the one before suffice, a name and its colon being written together. The line
 * before is read past both characters of a CRLF (syn11: from its "\n" only, so a CRLF document's opener on the line after its name
 * was named as no property's, 'The object closed on ...' where an LF one said 'The object "and" closed on ...'). */
function nameFrom(text: string, at: number): number {
  const start = lineStartAt(text, at);
  return start === 0 ? 0 : previousLineStart(text, start);
}

/** The start of the line before the one starting at `start` (> 0), read back past its line break, both characters of a CRLF. */
function previousLineStart(text: string, start: number): number {
  return lineStartAt(text, start - (text[start - 1] === '\n' && text[start - 2] === '\r' ? 2 : 1));
}

/** The closer an opener inserted at `at` would pair with: the first closer after it that closes no container opened after it. */
function closing(text: string, at: number): number {
  const scanner = createScanner(text, true);
  scanner.setPosition(at);
  let depth = 0;
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) depth++;
    else if ((k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) && depth-- === 0) return scanner.getTokenOffset();
  }
  return text.length;
}

/** The text with the opener (`text`), when its first syntax error lies past `after`, or is a trailing comma before a closer at or
 * before it whose removal gets the parser past `after` (a second parse, from the budget): a comma left after the container's last
 * member, in the container that lost its opener (syn11: `"params": [],}`; the proof failed at the comma, and the opener was not
 * named). The repaired text keeps the comma: its problem is said next, with its own fix. */
function provedBut(text: string, after: number, budget: Budget): Parsed | undefined {
  const r = paidParse(text, budget);
  const first = r && firstBreak(r.errors);
  if (!r || !first || first.offset > after) return r;
  const comma = precedingNonSpace(text, first.offset);
  if ((first.error !== ParseErrorCode.ValueExpected && first.error !== ParseErrorCode.PropertyNameExpected) || !/[\]}]/.test(text[first.offset] ?? '')
    || text[comma] !== ',') return undefined;
  const without = paidParse(text.slice(0, comma) + text.slice(comma + 1), budget);
  const next = without && firstBreak(without.errors);
  return without && (!next || next.offset > after - 1) ? r : undefined;
}
