// The server's documents (server/src/lsp/textDocument.ts): vscode-languageserver-textdocument's, with line offsets from the core's
// lineStarts. Every position, offset and line count must be the library's own, for every kind of line break, before and after edits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { DOCUMENTS, FAST_LINE_OFFSETS, releaseLineOffsets } from '../../../server/src/lsp/textDocument';
import { lineStarts, LineTable } from '../../../server/src/core/lines';

/** The library's own line offsets, by its own method on its own document. */
const libraryStarts = (text: string): number[] => (TextDocument.create('file:///x', 'json', 0, text) as unknown as { getLineOffsets(): number[] }).getLineOffsets();

const EDGE_CASES = ['', 'a', '\n', '\r', '\r\n', '\n\r', '\r\r\n', '\r\n\r\n', '\n\n', 'a\rb\r\nc\nd', 'x\r', 'x\r\n', '\r\ny', '€\r\n😀\n\rz'];

/** A text of the given length from a small alphabet rich in line breaks. */
function randomText(seed: number, length: number): string {
  let s = seed >>> 0;
  const next = () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 16);
  const alphabet = ['a', '"', ' ', '\n', '\r', '\r\n', '{', '😀'];
  let out = '';
  while (out.length < length) out += alphabet[next() % alphabet.length];
  return out;
}

test('lineStarts finds the line starts the library finds, for every kind of line break', () => {
  const texts = [...EDGE_CASES, ...Array.from({ length: 300 }, (_, i) => randomText(i, 1 + (i % 60)))];
  for (const text of texts) assert.deepEqual(lineStarts(text), libraryStarts(text), JSON.stringify(text));
});

test('LineTable gives the library\'s positions', () => {
  for (let i = 0; i < 50; i++) {
    const text = randomText(1000 + i, 80);
    const table = new LineTable(text);
    const lib = TextDocument.create('file:///x', 'json', 0, text);
    for (let o = 0; o <= text.length; o++) {
      // The library moves an offset inside a "\r\n" back before it; the table does not (the core's offsets never split one).
      if (text[o - 1] === '\r' && text[o] === '\n') continue;
      assert.deepEqual(table.position(o), lib.positionAt(o), `${JSON.stringify(text)} at ${o}`);
    }
  }
});

test('the server\'s documents find their line offsets with lineStarts (the library\'s fields are still there)', () => {
  assert.ok(FAST_LINE_OFFSETS, 'vscode-languageserver-textdocument no longer has _content, _lineOffsets and getLineOffsets: textDocument.ts needs a look');
  const doc = DOCUMENTS.create('file:///x', 'json', 1, 'a\nb');
  const lib = TextDocument.create('file:///x', 'json', 1, 'a\nb');
  assert.notEqual((doc as unknown as { getLineOffsets: unknown }).getLineOffsets, (lib as unknown as { getLineOffsets: unknown }).getLineOffsets);
});

test('the server\'s documents agree with the library\'s on every position and offset, before and after random edits', () => {
  for (let seed = 0; seed < 40; seed++) {
    const text = randomText(seed * 7 + 1, 120);
    let ours = DOCUMENTS.create('file:///x', 'json', 1, text);
    let lib = TextDocument.create('file:///x', 'json', 1, text);
    let s = seed + 1;
    const next = (n: number) => { s = (s * 69069 + 1) >>> 0; return s % n; };
    for (let version = 2; version < 12; version++) {
      const content = lib.getText();
      const a = next(content.length + 1);
      const b = a + next(Math.min(6, content.length - a + 1));
      const change: TextDocumentContentChangeEvent = version % 5 === 0
        ? { text: randomText(seed + version, 30) }
        : { range: { start: lib.positionAt(a), end: lib.positionAt(b) }, text: randomText(seed * 31 + version, next(8)) };
      ours = DOCUMENTS.update(ours, [change], version);
      lib = TextDocument.update(lib, [change], version);
      assert.equal(ours.getText(), lib.getText());
      assert.equal(ours.lineCount, lib.lineCount);
      assert.equal(ours.version, version);
      const after = lib.getText();
      for (let o = 0; o <= after.length; o++) {
        const p = lib.positionAt(o);
        assert.deepEqual(ours.positionAt(o), p, `seed ${seed} version ${version} offset ${o}`);
        assert.equal(ours.offsetAt(p), lib.offsetAt(p));
      }
    }
  }
});

test('edits that make or unmake a "\\r\\n" at their edge, several changes in one update, a full sync, and positions out of range are the library\'s', () => {
  type Change = TextDocumentContentChangeEvent;
  const at = (line: number, character: number) => ({ line, character });
  const steps: [string, Change[]][] = [
    ['a\rb\nc\r\nd', []],
    // "\n" inserted after a lone "\r" (at the next line's start): one line break where there were two
    ['CRLF made at the start', [{ range: { start: at(1, 0), end: at(1, 0) }, text: '\n' }]],
    // "\r" inserted before a "\n": the same, from the other side
    ['CRLF made at the end', [{ range: { start: at(1, 1), end: at(1, 1) }, text: '\r' }]],
    // what stood between a "\r" and a "\n" deleted (two changes in one update)
    ['CRLF made by a deletion', [{ range: { start: at(0, 1), end: at(0, 1) }, text: '\rY\nQ' }, { range: { start: at(1, 0), end: at(1, 1) }, text: '' }]],
    // a position past a line's end (the library puts it before the break)
    ['past the end of a line', [{ range: { start: at(0, 99), end: at(0, 99) }, text: '\r' }, { range: { start: at(1, 0), end: at(1, 0) }, text: '\n\r\r' }]],
    ['a full sync', [{ text: '\r\r\n\n\r' }]],
    ['then an edit', [{ range: { start: at(2, 0), end: at(9, 9) }, text: 'z\r' }]],
  ];
  let ours = DOCUMENTS.create('file:///x', 'json', 1, steps[0][0]);
  let lib = TextDocument.create('file:///x', 'json', 1, steps[0][0]);
  for (const [i, [what, changes]] of steps.entries()) {
    if (i > 0) {
      ours = DOCUMENTS.update(ours, changes, i + 1);
      lib = TextDocument.update(lib, changes, i + 1);
    }
    const text = lib.getText();
    assert.equal(ours.getText(), text, what);
    assert.equal(ours.lineCount, lib.lineCount, what);
    for (let o = -2; o <= text.length + 2; o++) assert.deepEqual(ours.positionAt(o), lib.positionAt(o), `${what}: offset ${o}`);
    for (let line = -1; line <= lib.lineCount + 1; line++) {
      for (let character = -1; character <= 4; character++) assert.equal(ours.offsetAt(at(line, character)), lib.offsetAt(at(line, character)), `${what}: ${line}:${character}`);
    }
  }
});

test('a long document of one line, and one of many short lines, are the library\'s', () => {
  for (const text of ['x'.repeat(1 << 20), 'ab\n'.repeat(100_000), 'ab\r'.repeat(50_000) + 'ab\r\n'.repeat(50_000)]) {
    const ours = DOCUMENTS.create('file:///x', 'json', 1, text);
    const lib = TextDocument.create('file:///x', 'json', 1, text);
    assert.equal(ours.lineCount, lib.lineCount);
    for (const o of [0, 1, 2, 3, text.length >> 1, text.length - 1, text.length, text.length + 1]) assert.deepEqual(ours.positionAt(o), lib.positionAt(o));
  }
});

test('a document whose line offsets were released finds them again: its edits and positions are the library\'s', () => {
  const lineOffsets = (d: TextDocument) => (d as unknown as { _lineOffsets?: number[] })._lineOffsets;
  for (let seed = 0; seed < 20; seed++) {
    const text = randomText(seed * 13 + 5, 100);
    let ours = DOCUMENTS.create('file:///x', 'json', 1, text);
    let lib = TextDocument.create('file:///x', 'json', 1, text);
    ours.positionAt(text.length);
    assert.ok(lineOffsets(ours));
    releaseLineOffsets(ours);
    assert.equal(lineOffsets(ours), undefined);
    for (let version = 2; version < 8; version++) {
      const content = lib.getText();
      const a = (seed * 7 + version * 11) % (content.length + 1);
      const change: TextDocumentContentChangeEvent = { range: { start: lib.positionAt(a), end: lib.positionAt(Math.min(content.length, a + 3)) }, text: randomText(seed + version, 5) };
      ours = DOCUMENTS.update(ours, [change], version);
      lib = TextDocument.update(lib, [change], version);
      assert.equal(ours.getText(), lib.getText());
      if (version % 2 === 0) releaseLineOffsets(ours);
      for (let o = 0; o <= lib.getText().length; o++) assert.deepEqual(ours.positionAt(o), lib.positionAt(o), `seed ${seed} version ${version} offset ${o}`);
    }
  }
});
