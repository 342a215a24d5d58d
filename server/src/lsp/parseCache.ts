// One parse per document text, shared by diagnostics, completion, hover, lenses and symbols (VS Code's languageModelCache).
// Memory is bounded with many large documents open: only the most recently used documents keep their position trees (a full tree
// of a 0.8 MB batch is about 16 MB), and parses (the JSON value is about 1.5 times the text) are kept for recent documents up to a
// text budget; anything dropped is rebuilt on demand (JSON.parse of a 0.8 MB batch takes about 2 ms).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParsedDoc } from '../core';
import { core } from './context';

export interface ParseCacheLimits {
  /** How many of the most recently used documents keep their trees. */
  trees: number;
  /** How many of the most recently used documents keep their parse whatever their size. */
  parses: number;
  /** Beyond those, parses are kept, most recent first, until the texts of the documents so far total more than this (characters). */
  textBudget: number;
}

export const DEFAULT_LIMITS: ParseCacheLimits = { trees: 1, parses: 1, textBudget: 256 * 1024 };

export class ParseCache {
  /** In order of use, least recent first (a Map iterates in insertion order; get() re-inserts). */
  private readonly entries = new Map<string, ParsedDoc>();
  /** isOpen: a request that resumes after its document was closed must not re-cache it (the entry would never be dropped). */
  constructor(private readonly isOpen: (document: TextDocument) => boolean = () => true, private readonly limits: ParseCacheLimits = DEFAULT_LIMITS) {}

  get(document: TextDocument): ParsedDoc {
    const open = this.isOpen(document);
    const e = this.entries.get(document.uri);
    const text = document.getText();
    let doc: ParsedDoc;
    // Keyed by the text, not the version: a client that repeats a version in didChange, or opens the document again without
    // closing it, sends another text under the same number. The same text is the same string (a pointer compare).
    if (e && e.text === text && open) {
      doc = e;
    } else {
      // The previous version lets a large batch keep its item positions across a small edit (parse.ts Window.shifted).
      doc = core().parse(text, e && open ? { previous: e } : {});
      if (!open) return doc;
    }
    const wasRecent = e !== undefined && this.isRecent(document.uri);
    this.entries.delete(document.uri);
    this.entries.set(document.uri, doc);
    // A new text of a recent document changes no one's rank but may change the text total (a document that grew): trimmed too.
    if (!wasRecent || doc !== e) this.trim();
    return doc;
  }

  drop(uri: string): void { this.entries.delete(uri); }

  /** Whether uri is among the most recently used `trees` entries (then moving it to the front changes no one's status). */
  private isRecent(uri: string): boolean {
    let i = this.entries.size;
    for (const k of this.entries.keys()) if (--i < this.limits.trees && k === uri) return true;
    return false;
  }

  private trim(): void {
    const all = [...this.entries];
    let text = 0;
    for (let i = all.length - 1, rank = 0; i >= 0; i--, rank++) {
      const [uri, doc] = all[i];
      text += doc.text.length;
      if (rank >= this.limits.parses && text > this.limits.textBudget) this.entries.delete(uri);
      else if (rank >= this.limits.trees) doc.release();
    }
  }
}
