// A count is written in proper English ("1 error", "2 errors", as ESLint writes "6 problems (6 errors, 0 warnings)"), never as
// "1 error(s)" or "1 batch(es)": the messages take plural() (server/src/core/text.ts for the core, the CLI, the language server and
// the mock; server/src/protocol.ts for the lines shared with the extension, and for the extension). This finds a "(s)" or "(es)"
// after a word, or after a template's substitution (`${unit}(s)`), in any string literal or template text of the sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { plural } from '../../server/src/core';
import { plural as protocolPlural, rateLimitLines, overwrittenLine } from '../../server/src/protocol';
import { ROOT as root, sources } from './support/sources';


/** "(s)"/"(es)" that may stay, with why: not a count of things. */
const ALLOWED: { text: RegExp; why: string }[] = [
  { text: /\bhttp\(s\)/, why: 'the URL schemes http and https (client/src/backend.ts\'s setting check), not a count' },
];

const COUNT_WORD = /(?:[A-Za-z]|^)\((?:s|es)\)(?![A-Za-z])/;

/** Each string literal's and template text's "(s)"/"(es)" count word in a source text, as "file:line: text". */
export function countWords(file: string, text: string): string[] {
  const out: string[] = [];
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const visit = (node: ts.Node) => {
    let pieces: string[] = [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) pieces = [node.text];
    else if (ts.isTemplateExpression(node)) pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    for (const [i, p] of pieces.entries()) {
      // Only a piece after a substitution may start with its count word; a literal's own start is not after a word.
      const piece = i === 0 ? ` ${p}` : p;
      if (COUNT_WORD.test(piece) && !ALLOWED.some((a) => a.text.test(p))) {
        out.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${p.trim()}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

test('the scanner finds "(s)" and "(es)" count words in strings and templates, not in code, comments or the allowed', () => {
  const found = countWords('x.ts', [
    "const a = `${n} error(s)`;", "const b = '2 batch(es) delivered';", "const c = `${n} ${unit}(s) skipped`;",
    "const d = \"line(s)\";", "// a comment with error(s)", "f(s); g(es);", "const e = 'not http(s)';", "const f = `${n} errors (see below)`;",
    "const g = `${x}(es) wait`;",
  ].join('\n'));
  assert.deepEqual(found, ['x.ts:1: error(s)', 'x.ts:2: 2 batch(es) delivered', 'x.ts:3: (s) skipped', 'x.ts:4: line(s)', 'x.ts:9: (es) wait']);
});

test('no message of the extension, the server, the CLI or the mock writes a count as "word(s)" or "word(es)"', () => {
  const found = ['client/src', 'server/src', 'mock/src'].flatMap(sources)
    .flatMap((f) => countWords(f, fs.readFileSync(path.join(root, f), 'utf8')));
  assert.deepEqual(found, [], 'write plural(n, "error") ("1 error", "2 errors") instead');
});

test('plural writes the noun in the number it needs, in the core and in protocol.ts alike', () => {
  for (const p of [plural, protocolPlural]) {
    assert.deepEqual([0, 1, 2].map((n) => p(n, 'error')), ['0 errors', '1 error', '2 errors']);
    assert.deepEqual([1, 3].map((n) => p(n, 'batch', 'batches')), ['1 batch', '3 batches']);
  }
  assert.equal(protocolPlural(12345, 'request', undefined, (n) => n.toLocaleString('en')), '12,345 requests');
});

test('the sentences shared by the CLI and the editor agree with one and with many (verbs too)', () => {
  const one = { limit: '2 requests in 10 s', counted: 1, acted: 1, firstActed: [4], keys: 1, untimed: 1, notes: [] };
  assert.deepEqual(rateLimitLines(one), [
    'rate limit 2 requests in 10 s: 1 request counted in 1 counter (one per value of the characteristics); the action applied to 1, first on line 4.',
    '1 matching request has no http.request.timestamp.sec and was not counted.',
  ]);
  const many = { ...one, counted: 1500, keys: 2, acted: 2, firstActed: [4, 5], untimed: 2 };
  assert.deepEqual(rateLimitLines(many), [
    'rate limit 2 requests in 10 s: 1,500 requests counted in 2 counters (one per value of the characteristics); the action applied to 2, first on lines 4, 5.',
    '2 matching requests have no http.request.timestamp.sec and were not counted.',
  ]);
  assert.equal(overwrittenLine({ overwritten: [{ by: 3, requests: 1 }, { by: 5, requests: 2 }] }), 'overwritten by rule 3 on 1 request, rule 5 on 2 requests: later rules of the phase win');
});
