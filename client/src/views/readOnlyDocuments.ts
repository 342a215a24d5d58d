// A store of read-only text documents of one URI scheme, for the views and commands that show generated text (a Security Events
// record, a Test Filter report): a TextDocumentContentProvider, so the document is never an untitled buffer, which is dirty from the
// start, so VS Code keeps its tab pinned and asks "Save changes?" when it is closed. The owner registers it for its scheme.
import * as vscode from 'vscode';

export interface ReadOnlyDocumentsOptions {
  /** Documents kept for reopening (a tab restored or reopened); the oldest go first. */
  kept: number;
  /** The text of a document no longer kept (or of an earlier session): valid in the document's language. */
  gone: string;
}

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider {
  /** Texts by URI string, and the key each was added under; a Map keeps insertion order: the oldest is first. */
  private readonly texts = new Map<string, { text: string; key?: string }>();
  private readonly byKey = new Map<string, vscode.Uri>();
  private seq = 0;

  constructor(readonly scheme: string, private readonly options: ReadOnlyDocumentsOptions) {}

  /**
   * A document holding `text`, at the path `path(n)` (n: a number unique in this store, so that two documents never share a URI).
   * With a `key`, the document already added under that key while it is kept: reopening an item shows its document, not a new one.
   */
  add(path: (n: number) => string, text: string, key?: string): vscode.Uri {
    const known = key === undefined ? undefined : this.byKey.get(key);
    if (known) return known;
    const uri = vscode.Uri.from({ scheme: this.scheme, path: path(++this.seq) });
    this.texts.set(uri.toString(), key === undefined ? { text } : { text, key });
    if (key !== undefined) this.byKey.set(key, uri);
    if (this.texts.size > this.options.kept) {
      const [oldest, { key: oldKey }] = this.texts.entries().next().value as [string, { key?: string }];
      this.texts.delete(oldest);
      if (oldKey !== undefined) this.byKey.delete(oldKey);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString())?.text ?? this.options.gone;
  }
}

