// fixAll: every problem's unambiguous fix applied at once, as ESLint's `--fix` and its `source.fixAll.eslint` code action do. A fix is
// applied when it is the only fix of its problem and marked preferred: a did-you-mean with two candidates, or a choice between two
// rewrites, is left for the user. Fixes whose edits overlap one already taken wait for the next pass; passes repeat on the new text
// until none applies, at most MAX_PASSES times (ESLint's limit), since one fix can reveal another (a trailing comma removed lets
// the schema check run). Pure.
import type { DocKind, Edit, Fix, Problem } from './types';
import { capProblems, validateText, type ValidateOptions } from './validate';
import { DEFAULT_OPTIONS } from './types';
import { parseDocument } from './parse';
import { PARSE_OPTIONS, parseErrors } from './parse/scanner';
import { MAX_SYNTAX_PROBLEMS } from './parse/syntaxErrors';
import { applyEdits } from './text';
import { noAutoFixUnread } from './fix';

export const MAX_PASSES = 10;

export interface FixAllResult {
  /** The text with the fixes applied (the input when none applied). */
  text: string;
  /** How many fixes were applied, over all passes. */
  fixed: number;
  /** The problems of the returned text. */
  problems: Problem[];
}

/** The fix that fixAll applies for a problem, if any: its only fix, when marked preferred. */
export function autoFixOf(p: Problem): Fix | undefined {
  if (noAutoFixUnread(p)) return undefined; // not worked out for nothing
  return p.fixes?.length === 1 && p.fixes[0].preferred ? p.fixes[0] : undefined;
}

/**
 * The problems whose auto-fixes a pass may apply: all of them, or the syntax problems only while the text has a syntax error
 * (other than a comment, which jsonc-parser reads as space): the checks' fixes were found in the tree jsonc-parser guessed (a
 * member of an object whose name lost its quotes read into the object around it, "bic" renamed "id" there), so they wait for a
 * text that parses. syntax: the text's own syntax problems (ParsedDoc.syntax).
 */
export function fixableNow(problems: readonly Problem[], syntax: readonly Problem[]): readonly Problem[] {
  return isBroken(syntax) ? problems.filter((p) => p.code.startsWith('syntax/')) : problems;
}

/** Whether syntax problems leave the text unparsed: an error other than a comment (jsonc-parser reads a comment as space). */
function isBroken(syntax: readonly Problem[]): boolean {
  return syntax.some((p) => p.severity === 'error' && p.code !== 'syntax/comment');
}

/** Whether two edits touch the same text; two insertions at one offset count as touching (their order would be a guess). */
function overlaps(a: Edit, b: Edit): boolean {
  if (a.offset === b.offset) return true;
  return a.offset < b.offset + b.length && b.offset < a.offset + a.length;
}


/** The edits taken so far, sorted by offset and never overlapping, so that a new edit is checked against its two neighbours only. */
class TakenEdits {
  readonly sorted: Edit[] = [];

  /** The index of the first taken edit at or after offset. */
  private at(offset: number): number {
    let lo = 0, hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid].offset < offset) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  touches(e: Edit): boolean {
    const i = this.at(e.offset);
    return (i < this.sorted.length && overlaps(e, this.sorted[i])) || (i > 0 && overlaps(e, this.sorted[i - 1]));
  }

  add(e: Edit): void {
    const n = this.sorted.length;
    if (n === 0 || this.sorted[n - 1].offset < e.offset) this.sorted.push(e); // in order, as problems come: no search
    else this.sorted.splice(this.at(e.offset), 0, e);
  }
}

/**
 * The auto-fixes of one check that can be applied together: each problem's auto-fix whose edits touch no edit taken before it;
 * while the text has a syntax error, its syntax fixes only (fixableNow). With `text` (the checked text), a broken text's fixes are
 * kept only when together they make it parse (comments aside): a partial repair would turn one broken text into another
 * (["0x"00b", ...] into ["0x",0,0b", ...]), which `lint --fix` would write over the file; that is left to the user.
 */
export function autoFixes(problems: readonly Problem[], text?: string): { count: number; edits: Edit[] } {
  const syntax = problems.filter((p) => p.code.startsWith('syntax/'));
  const edits: Edit[] = [];
  const taken = new TakenEdits();
  let count = 0;
  for (const p of fixableNow(problems, syntax)) {
    const f = autoFixOf(p);
    if (!f || f.edits.some((e) => taken.touches(e))) continue;
    for (const e of f.edits) { taken.add(e); edits.push(e); }
    count++;
  }
  if (text !== undefined && count > 0 && isBroken(syntax)) {
    const errors = parseErrors(applyEdits(text, edits), COMMENTS_AS_SPACE);
    // More syntax problems than one check reports (MAX_SYNTAX_PROBLEMS): mended that many at a time, while the text up to the
    // last one mended then parses.
    // (The last edit's end in the edited text: every edit before it moved it by what it added or removed.)
    const last = edits.reduce((m, e) => Math.max(m, e.offset), 0)
      + edits.reduce((d, e) => d + e.newText.length - e.length, 0);
    const partialOk = syntax.length >= MAX_SYNTAX_PROBLEMS && errors[0]?.offset > last;
    if (errors.length && !partialOk) return { count: 0, edits: [] };
  }
  return { count, edits };
}

/** The checker's parse options but comments, which a repaired text may keep (their removal is never applied by Fix all). */
const COMMENTS_AS_SPACE = { ...PARSE_OPTIONS, disallowComments: false };

export function fixAll(text: string, kind: DocKind, opts: ValidateOptions = {}): FixAllResult {
  // maxProblems caps what is reported, not what is fixed: each pass sees every problem (with the cap, a batch of 5000 requests
  // without "jsonrpc" got 1000 fixes per pass), and the problems returned are capped at the end.
  const max = opts.maxProblems ?? DEFAULT_OPTIONS.maxProblems;
  const options: ValidateOptions = { ...opts, maxProblems: Number.MAX_SAFE_INTEGER };
  let doc = opts.parsed ?? parseDocument(text);
  let problems = validateText(text, kind, { ...options, parsed: doc });
  let fixed = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const { count, edits } = autoFixes(problems, text);
    if (count === 0) break;
    const next = applyEdits(text, edits);
    if (next === text) break;
    text = next;
    fixed += count;
    // options.parsed is the first text's parse; the new text gets its own.
    doc = parseDocument(text);
    problems = validateText(text, kind, { ...options, parsed: doc });
  }
  return { text, fixed, problems: capProblems(problems, max, opts.limitNames) };
}
