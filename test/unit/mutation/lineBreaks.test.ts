// Mutation sample, third pass (mt3; docs/architecture.md): validate.ts's inDocumentBreaks moves a fix that writes line breaks into the
// document's own (a CRLF document's fixes write CRLF); its lazy path had a test (core/lazyFix), the ordinary one none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import type { DocKind } from '../../../server/src/core/types';

test('an empty CRLF document\'s starter fix writes CRLF; an LF one\'s LF', () => {
  for (const kind of ['waf-ruleset', 'jsonrpc-request'] as DocKind[]) {
    for (const [text, eol] of [['\r\n', '\r\n'], ['\n', '\n']]) {
      const [p] = validateText(text, kind);
      assert.equal(p.code, 'syntax/empty-document');
      const written = p.fixes?.[0]?.edits[0]?.newText ?? '';
      assert.ok(written.includes('\n'), `${kind}: ${written}`);
      const breaks = written.match(/\r?\n/g) ?? [];
      assert.ok(breaks.every((b) => b === eol), `${kind}, ${JSON.stringify(text)}: ${JSON.stringify(written.slice(0, 60))}`);
    }
  }
});
