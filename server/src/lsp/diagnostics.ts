// Diagnostics: the pull handler (textDocument/diagnostic), and the last result per document version, which other requests (the
// migration's review check) read instead of validating the same text again.
import { DocumentDiagnosticReportKind, type Diagnostic, type DocumentDiagnosticReport } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Cancelled, type DocKind, type Problem } from '../core';
import type { Settings } from '../protocol';
import { core, coreOptions, kindOf, safe, tooLarge, type ServerContext } from './context';
import { toDiagnostic } from './convert';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Diagnostics {
  /** The problems of the last version checked, per URI. */
  private readonly last = new Map<string, { version: number; problems: Problem[] }>();

  constructor(private readonly ctx: ServerContext) {}

  register(): void {
    this.ctx.connection.languages.diagnostics.on(async (params, token): Promise<DocumentDiagnosticReport> => {
      const empty: DocumentDiagnosticReport = { kind: DocumentDiagnosticReportKind.Full, items: [] };
      const doc = this.ctx.documents.get(params.textDocument.uri);
      const kind = doc && kindOf(doc);
      if (!doc || !kind) return empty;
      const s = await this.ctx.settings.get(doc.uri);
      // Let a newer edit's cancellation arrive before heavy work.
      await yieldToEventLoop();
      if (token.isCancellationRequested) return empty;
      try {
        return await safe(this.ctx, 'Diagnostics', doc.uri, empty, () => {
          const problems = this.check(doc, kind, s, () => token.isCancellationRequested);
          const { relatedInformation, docsUri } = this.ctx.caps;
          const items: Diagnostic[] = problems.map((p) => toDiagnostic(doc, p, { relatedInformation, docsUri }));
          return { kind: DocumentDiagnosticReportKind.Full, items };
        });
      } catch (err) {
        if (err instanceof Cancelled) return empty;
        throw err;
      }
    });
  }

  /** The document's problems: from the last check when the version is the same, else checked now. */
  problemsOf(doc: TextDocument, kind: DocKind, s: Settings): Problem[] {
    const hit = this.last.get(doc.uri);
    return hit && hit.version === doc.version ? hit.problems : this.check(doc, kind, s);
  }

  drop(uri: string): void { this.last.delete(uri); }
  clear(): void { this.last.clear(); }

  private check(doc: TextDocument, kind: DocKind, s: Settings, isCancelled?: () => boolean): Problem[] {
    const problems = core.validate(doc.getText(), kind, { ...coreOptions(s), parsed: tooLarge(doc, s) ? undefined : this.ctx.parses.get(doc), isCancelled });
    this.last.set(doc.uri, { version: doc.version, problems });
    return problems;
  }
}
