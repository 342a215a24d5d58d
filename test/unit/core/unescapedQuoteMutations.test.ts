// One quote typed inside a string of each valid fixture (review of 2026-11-27: 237 of them still gave more than one syntax problem,
// `["0x"00b", "latest"]` among them). A user who types one stray quote sees one problem, on or next to the quote, and no problem after
// it that is only its consequence; Fix all never writes a text that is still broken, nor one whose value is not the fixture's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScanner, getLocation, SyntaxKind } from 'jsonc-parser';
import { parseDocument } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import { fixAll } from '../../../server/src/core/fixAll';
import type { Problem } from '../../../server/src/core/types';
import { validFixtures } from '../support/fixtures';

/** Where a quote is typed in each string token (its name or value): right after the opening quote, in the middle, right before
 * the closing quote, and right after the first space that follows a word (`"a "b"`; after "{ " or ", " a quote opens a value as written,
 * see strayQuote). In an array's string, a space and a quote typed in its middle (`["0x "00b"]`: the fixture's value, once the quote
 * is removed, has the space). Deterministic; every position (128 431 documents) took a minute. */
function spots(text: string): { start: number; end: number; at: number; typed: string }[] {
  const out: { start: number; end: number; at: number; typed: string }[] = [];
  const scanner = createScanner(text, false);
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
    if (k !== SyntaxKind.StringLiteral) continue;
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength() - 1;
    const at = new Set([start + 1, (start + end + 1) >> 1, end]);
    const space = text.slice(start + 1, end).search(/[^,:[{\s] /) + start + 2;
    if (space > start + 1) at.add(space + 1);
    for (const a of at) if (a > start && a <= end) out.push({ start, end, at: a, typed: '"' });
    const mid = (start + end + 1) >> 1;
    if (end - start > 2 && typeof getLocation(text, start + 1).path.at(-1) === 'number') out.push({ start, end, at: mid, typed: ' "' });
  }
  return out;
}

/** The syntax problems of `broken` that the fixture does not have itself (a job's filter string with its own syntax error, a
 * duplicate key), by code and message. */
function added(broken: Problem[], own: Problem[]): Problem[] {
  const left = own.map((p) => `${p.code} ${p.message}`);
  return broken.filter((p) => {
    const i = left.indexOf(`${p.code} ${p.message}`);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** The end of the token after `offset`. */
function tokenEndAfter(text: string, offset: number): number {
  const scanner = createScanner(text, true);
  scanner.setPosition(offset);
  return scanner.scan() === SyntaxKind.EOF ? text.length : scanner.getTokenOffset() + scanner.getTokenLength();
}

test('a quote typed inside any string of the valid fixtures: one problem, on the quote\'s string, and Fix all writes no broken or other value', () => {
  const cascades: string[] = [];
  const elsewhere: string[] = [];
  const unnamed: string[] = [];
  const badFixes: string[] = [];
  const misread: string[] = [];
  let documents = 0;
  let broken = 0;
  for (const { file, kind, text } of validFixtures()) {
    const all = validateText(text, kind);
    const own = all.filter((p) => p.code.startsWith('syntax/'));
    const ownCodes = new Set(all.map((p) => p.code));
    const fixture = JSON.stringify(JSON.parse(fixAll(text, kind).text));
    for (const { start, end, at, typed: quote } of spots(text)) {
      const typed = text.slice(0, at) + quote + text.slice(at);
      // The value meant: the fixture's, with the space typed before the quote.
      const meant = quote === '"' ? fixture : JSON.stringify(JSON.parse(fixAll(text.slice(0, at) + ' ' + text.slice(at), kind).text));
      documents++;
      // Fix all's problems are the text's own when it applies nothing (one check instead of two).
      const r = fixAll(typed, kind);
      const problems = r.text === typed ? r.problems : validateText(typed, kind);
      const syntax = added(problems.filter((p) => p.code.startsWith('syntax/')), own);
      const where = `${file} ${JSON.stringify(typed.slice(start, end + 1 + quote.length))} at ${at - start}`;
      if (!syntax.length) continue;
      broken++;
      if (syntax.length > 1) cascades.push(`${where}: ${JSON.stringify(syntax.map((p) => [p.code, typed.slice(p.offset, p.offset + Math.max(p.length, 1))]))}`);
      // On the string the quote was typed in (start to its closing quote, one further now), or on the token right after it.
      if (syntax[0].offset < start || syntax[0].offset >= tokenEndAfter(typed, end + 1 + quote.length)) elsewhere.push(`${where}: ${syntax[0].offset - start} ${syntax[0].message}`);
      // Named as a quote inside a string, with a fix (not "Unexpected character", which leaves the user to find the quote).
      if (syntax[0].code !== 'syntax/unescaped-quote' || !syntax[0].fixes?.length) unnamed.push(`${where}: ${syntax[0].code} ${syntax[0].message}`);
      // A rule's expression is read as the quote's fix makes it only when it then parses: else what its parse says there is the
      // fix's guess ("Unterminated string"), not the user's (review rv11).
      const cut = syntax[0].related?.[0];
      const guess = cut && problems.find((p) => p.code.startsWith('ruleset/expr-') && !ownCodes.has(p.code) && p.offset >= cut.offset && p.offset < cut.offset + cut.length);
      if (guess) misread.push(`${where}: ${guess.code} ${guess.message}`);
      if (r.text !== typed) {
        const left = parseDocument(r.text).syntax.filter((p) => p.severity === 'error' && p.code !== 'syntax/comment');
        let value: string | undefined;
        try { value = JSON.stringify(JSON.parse(r.text)); } catch { /* reported below */ }
        if (left.length || value !== meant) badFixes.push(`${where}: wrote ${JSON.stringify(r.text.slice(start, end + 12))}`);
      }
    }
  }
  assert.ok(documents > 20_000 && broken > 20_000, `${documents} documents, ${broken} with a syntax problem`);
  // More than one syntax problem; the first elsewhere than on the quote's string or the token after it, or not named a quote in a
  // string with a fix; Fix all writing a broken text or another value than the fixture's. Before syn7 the quotes after a space gave
  // Before syn7 these spots gave 436 documents whose problem was "Unexpected character" with no fix and 214 with more than one syntax
  // problem (of 20 225), all but one a quote after a space in an array's string.
  assert.deepEqual({ cascades: cascades.length, elsewhere: elsewhere.length, unnamed: unnamed.length, badFixes: badFixes.length, misread: misread.length },
    { cascades: 0, elsewhere: 0, unnamed: 0, badFixes: 0, misread: 0 },
    `of ${broken} documents with a syntax problem:\n${[...cascades.slice(0, 10), ...elsewhere.slice(0, 10), ...unnamed.slice(0, 10), ...badFixes.slice(0, 10), ...misread.slice(0, 10)].join('\n')}`);
});
