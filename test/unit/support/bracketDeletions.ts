// The valid fixtures with one bracket or brace deleted, as the bracket measures of unclosedBracket.test.ts and
// unopenedBracket.test.ts read each: its problems beside the fixture's own, and what a problem's fix makes of it.
import { createScanner, SyntaxKind } from 'jsonc-parser';
import { validateText } from '../../../server/src/core/validate';
import { applyEdits } from '../../../server/src/core/text';
import { fixAll } from '../../../server/src/core/fixAll';
import type { DocKind, Problem } from '../../../server/src/core/types';
import { validFixtures } from './fixtures';

/** The 1-based line of an offset (LF lines). */
export function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** A bracket or brace of a text: its offset, and for a closer its opener's. */
export interface Bracket { at: number; opens: boolean; opener?: number }

export function brackets(text: string): Bracket[] {
  const out: Bracket[] = [];
  const stack: number[] = [];
  const scanner = createScanner(text, false);
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    if (k === SyntaxKind.OpenBraceToken || k === SyntaxKind.OpenBracketToken) {
      stack.push(scanner.getTokenOffset());
      out.push({ at: scanner.getTokenOffset(), opens: true });
    }
    if (k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) out.push({ at: scanner.getTokenOffset(), opens: false, opener: stack.pop()! });
  }
  return out;
}

export interface Deletion {
  /** "<fixture> at <line>". */
  where: string;
  /** The fixture's text. */
  text: string;
  bracket: Bracket;
  broken: string;
  problems: Problem[];
  /** Its syntax problems (a duplicate key is not one). */
  syntax: Problem[];
  /** The fixture's own syntax problems (a job's filter string with one of its own keeps it). */
  ownSyntax: number;
  /** Its other problems that the fixture lacks ("code message"). */
  extra: string[];
  /** What a problem's first fix makes of it: the fixture's value, another value, or text that does not parse. */
  mend(p: Problem): 'restored' | 'another value' | 'not JSON';
}

/** Each valid fixture with each of its brackets that `pick` takes deleted. */
export function* deletions(pick: (b: Bracket) => boolean): Generator<Deletion> {
  for (const { file, kind, text } of validFixtures()) {
    const all = validateText(text, kind);
    const own = all.map((p) => `${p.code} ${p.message}`);
    const isSyntax = (p: Problem) => p.code.startsWith('syntax/') && p.code !== 'syntax/duplicate-key';
    const ownSyntax = all.filter(isSyntax).length;
    const value = JSON.stringify(JSON.parse(text));
    for (const bracket of brackets(text).filter(pick)) {
      const broken = text.slice(0, bracket.at) + text.slice(bracket.at + 1);
      const problems = validateText(broken, kind as DocKind);
      yield {
        where: `${file} at ${lineOf(text, bracket.at)}`, text, bracket, broken, problems, syntax: problems.filter(isSyntax), ownSyntax,
        extra: problems.filter((q) => !q.code.startsWith('syntax/')).map((q) => `${q.code} ${q.message}`).filter((o) => !own.includes(o)),
        mend(p) {
          let v: string;
          try { v = JSON.stringify(JSON.parse(applyEdits(broken, p.fixes![0].edits))); } catch { return 'not JSON'; }
          return v === value ? 'restored' : 'another value';
        },
      };
    }
  }
}

/** The value a text holds (JSON.stringify of its parse), or undefined when it is no JSON. */
export function valueOf(text: string): string | undefined {
  try { return JSON.stringify(JSON.parse(text)); } catch { return undefined; }
}

/** Each opener (or closer) of the valid fixtures typed twice: how many are said by the problem `said` picks, how many of those have
 * their fix preferred, and each whose fix (or, preferred, Fix all) gives another value than the fixture's (Fix all's on it). */
export function typedTwice(opens: boolean, said: (p: Problem) => boolean): { total: number; twice: number; preferred: number; bad: string[] } {
  let total = 0;
  let twice = 0;
  let preferred = 0;
  const bad: string[] = [];
  for (const { file, kind, text: valid } of validFixtures()) {
    for (const { at } of brackets(valid).filter((b) => b.opens === opens)) {
      const text = valid.slice(0, at + 1) + valid.slice(at);
      total++;
      const p = validateText(text, kind).find(said);
      if (!p) continue;
      twice++;
      if (valueOf(applyEdits(text, p.fixes![0].edits)) !== valueOf(valid)) bad.push(`${file} at ${lineOf(valid, at)}: ${p.message}`);
      if (p.fixes![0].preferred) {
        preferred++;
        if (valueOf(fixAll(text, kind).text) !== valueOf(fixAll(valid, kind).text)) bad.push(`${file} at ${lineOf(valid, at)}: Fix all`);
      }
    }
  }
  return { total, twice, preferred, bad };
}
