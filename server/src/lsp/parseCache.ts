// One parse per document version, shared by diagnostics, completion, hover, lenses and symbols (VS Code's languageModelCache).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseDocument } from '../core/parse';
import type { ParsedDoc } from '../core/types';

export class ParseCache {
  private readonly entries = new Map<string, { version: number; doc: ParsedDoc }>();
  /** isOpen: a request that resumes after its document was closed must not re-cache it (the entry would never be dropped). */
  constructor(private readonly isOpen: (document: TextDocument) => boolean = () => true) {}
  get(document: TextDocument): ParsedDoc {
    const open = this.isOpen(document);
    const e = this.entries.get(document.uri);
    if (e && e.version === document.version && open) return e.doc;
    const doc = parseDocument(document.getText());
    if (open) this.entries.set(document.uri, { version: document.version, doc });
    return doc;
  }
  drop(uri: string): void { this.entries.delete(uri); }
}
