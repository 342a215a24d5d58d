// One parse per document version, shared by diagnostics, completion, hover, lenses and symbols (VS Code's languageModelCache).
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseDocument } from '../core/parse';
import type { ParsedDoc } from '../core/types';

export class ParseCache {
  private readonly entries = new Map<string, { version: number; doc: ParsedDoc }>();
  get(document: TextDocument): ParsedDoc {
    const e = this.entries.get(document.uri);
    if (e && e.version === document.version) return e.doc;
    const doc = parseDocument(document.getText());
    this.entries.set(document.uri, { version: document.version, doc });
    return doc;
  }
  drop(uri: string): void { this.entries.delete(uri); }
}
