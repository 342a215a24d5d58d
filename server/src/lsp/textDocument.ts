// The documents TextDocuments keeps: vscode-languageserver-textdocument's own, with one change. The library computes a document's
// line offsets, at the first position asked of it, by testing every character; for the 0.8 MB batch that is 2.7-7 ms, and the
// first diagnostics of a document with problems wait for it (issue 18, docs/benchmarks.md). Here they come from the core's
// lineStarts (an indexOf from one line break to the next, 5-15 times faster); the library keeps them up to date through edits as
// before. Everything else (update, offsetAt, positionAt, getText) is the library's.
//
// The library exports no class, only TextDocument.create; the subclass extends the class of a document it made, and reads the two
// fields its getLineOffsets reads. A version of the library without them gets the library's documents unchanged (the unit test
// test/unit/lsp/textDocument.test.ts then fails, so that an upgrade is noticed).
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import type { TextDocumentsConfiguration } from 'vscode-languageserver';
import { coreModule } from './context';

interface LibraryFields { _content: string; _lineOffsets: number[] | undefined; getLineOffsets(): number[] }
type DocumentClass = new (uri: string, languageId: string, version: number, content: string) => TextDocument;

const sample = TextDocument.create('file:///', 'json', 0, '') as unknown as LibraryFields & { constructor: DocumentClass };
const Library = sample.constructor;

/** Whether the library's documents still have the fields the subclass relies on. */
export const FAST_LINE_OFFSETS = typeof sample.getLineOffsets === 'function' && '_content' in sample && '_lineOffsets' in sample;

class Document extends Library {
  getLineOffsets(this: LibraryFields): number[] {
    if (this._lineOffsets === undefined) this._lineOffsets = coreModule().lineStarts(this._content);
    return this._lineOffsets;
  }
}

/**
 * Forgets a document's line offsets, for a document not checked for a while (diagnostics.ts, when its problems leave the cache of
 * recent checks): for the 0.8 MB batch with problems they are an array of 5 000 numbers, 54 KB, kept with the text
 * until the document closes. The next position asked of it finds them again (lineStarts: for the batch 0.07 ms fastest of 50, up
 * to 1.5 ms on a string not read before), and so does its next edit (the library reads an edit's range through them). A document
 * the library made (FAST_LINE_OFFSETS false) keeps its own.
 */
export function releaseLineOffsets(doc: TextDocument): void {
  if (doc instanceof Document) (doc as unknown as LibraryFields)._lineOffsets = undefined;
}

/** TextDocuments' configuration: the library's update, and documents whose line offsets are found quickly. */
export const DOCUMENTS: TextDocumentsConfiguration<TextDocument> = {
  create: (uri: string, languageId: string, version: number, content: string): TextDocument =>
    FAST_LINE_OFFSETS ? new Document(uri, languageId, version, content) : TextDocument.create(uri, languageId, version, content),
  update: (doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument => TextDocument.update(doc, changes, version),
};
