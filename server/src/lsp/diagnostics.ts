// Diagnostics, pulled or pushed as the client can take them: the pull handler (textDocument/diagnostic) for clients with
// textDocument.diagnostic (VS Code), else textDocument/publishDiagnostics after each change, debounced per document and dropped when
// a newer version arrives (VS Code's JSON server does the same for push clients). The last result per document text is kept for the
// documents checked most recently: other requests (the migration's review check, the code actions, which find a
// diagnostic's fixes there) read it instead of checking the same text again.
import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver';
import { DocumentDiagnosticReportKind, LSPErrorCodes, ResponseError } from './library';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocKind, Problem } from '../core';
import type { Settings } from '../protocol';
import { core, coreOptions, isCancellation, kindOf, safe, tooLarge, yieldToEventLoop, type ServerContext } from './context';
import { toDiagnostic } from './convert';
import { releaseLineOffsets } from './textDocument';

/**
 * How many documents keep their last problems: the ones checked most recently (the document being typed in, those beside it). An
 * older document's problems are found again if asked for (the same text gives the same problems), and its line offsets are dropped
 * with them (textDocument.ts). With 100 documents open, 12 of them the 0.8 MB batch with 100 errors, the problems and line offsets
 * kept for all of them were 3.1 MB of heap; the server's RSS after them fell by 4.5 MB at the median (docs/architecture.md,
 * "Server memory with large documents").
 */
export const RECENT_CHECKS = 4;

/** Characters under which a pulled check runs without yielding first (a 30 KB document checks in well under a millisecond). */
const SMALL_TEXT = 30_000;

/** The answer to a cancelled pull: an empty report would say the document has no problems (a client that takes the answer of a
 * request it cancelled would clear them). VS Code's JSON server answers RequestCancelled (utils/runner.ts, cancelValue), as LSP
 * advises for a cancelled request that returns an error. */
const cancelled = () => new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled: a newer pull of the document follows');

export class Diagnostics {
  /** The problems of the last text checked, per URI (the text, not the version: a client may repeat a version with another text),
   * for the `recent` documents checked or asked about last, least recent first (a Map iterates in insertion order). */
  private readonly last = new Map<string, { text: string; problems: Problem[] }>();
  /** Push mode: the pending check per URI. */
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Push mode: the URIs whose last publish was not empty (cleared on close, or when the document stops being one of ours). */
  private readonly published = new Set<string>();

  constructor(private readonly ctx: ServerContext, private readonly debounceMs = 300, private readonly recent = RECENT_CHECKS) {}

  register(): void {
    if (this.ctx.caps.pullDiagnostics) this.registerPull();
    else this.registerPush();
  }

  /** Settings changed (for the document `uri` only, when given): the client pulls again (when it takes
   * workspace/diagnostic/refresh, which is for every document; else at its next pull), or the open documents are pushed again. */
  refresh(uri?: string): void {
    if (this.ctx.caps.pullDiagnostics) {
      if (this.ctx.caps.diagnosticRefresh) this.ctx.connection.languages.diagnostics.refresh().catch((err) => this.ctx.connection.console.error(`Diagnostics refresh failed: ${err}`));
    } else {
      for (const doc of this.ctx.documents.all()) if (uri === undefined || doc.uri === uri) this.schedule(doc.uri, 0);
    }
  }

  private registerPush(): void {
    const { documents } = this.ctx;
    documents.onDidChangeContent((e) => this.schedule(e.document.uri, e.document.version <= 1 ? 0 : this.debounceMs));
    documents.onDidClose((e) => {
      clearTimeout(this.timers.get(e.document.uri));
      this.timers.delete(e.document.uri);
      this.unpublish(e.document.uri);
    });
  }

  private schedule(uri: string, delayMs: number): void {
    clearTimeout(this.timers.get(uri));
    this.timers.set(uri, setTimeout(() => {
      this.timers.delete(uri);
      this.push(uri).catch((err) => this.ctx.connection.console.error(`Diagnostics failed for ${uri}: ${(err as Error).stack ?? err}`));
    }, delayMs));
  }

  /** Clears what was published for uri, if anything was. */
  private unpublish(uri: string): void {
    if (!this.published.delete(uri)) return;
    this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] }).catch(() => undefined);
  }

  private async push(uri: string): Promise<void> {
    const doc = this.ctx.documents.get(uri);
    const kind = doc && kindOf(doc);
    // No longer ours (its "$schema" was removed, say): what was published for it goes.
    if (doc && !kind) this.unpublish(uri);
    if (!doc || !kind) return;
    const s = await this.ctx.settings.get(uri, doc.languageId);
    // A newer text arrived while the settings were asked for (a new version, the same version again, or a second didOpen): its own
    // check is scheduled.
    const version = doc.version;
    const text = doc.getText();
    const stale = () => this.ctx.documents.get(uri) !== doc || doc.version !== version || doc.getText() !== text;
    if (stale()) return;
    let problems: Problem[];
    try {
      problems = this.check(doc, kind, s, stale);
    } catch (err) {
      if (isCancellation(err)) return; // a newer version's check is scheduled
      throw err;
    }
    const { relatedInformation, docsUri } = this.ctx.caps;
    if (problems.length) this.published.add(uri);
    else this.published.delete(uri);
    await this.ctx.connection.sendDiagnostics({ uri, version: doc.version, diagnostics: problems.map((p) => toDiagnostic(doc, p, { relatedInformation, docsUri })) });
  }

  private registerPull(): void {
    this.ctx.connection.languages.diagnostics.on(async (params, token): Promise<DocumentDiagnosticReport> => {
      const empty: DocumentDiagnosticReport = { kind: DocumentDiagnosticReportKind.Full, items: [] };
      const doc = this.ctx.documents.get(params.textDocument.uri);
      const kind = doc && kindOf(doc);
      if (!doc || !kind) return empty;
      const s = await this.ctx.settings.get(doc.uri, doc.languageId);
      // Let a newer edit's cancellation arrive before heavy work. A small document's check takes less than that event-loop turn
      // (issue 18's profile), so it runs at once.
      if (doc.getText().length > SMALL_TEXT) {
        await yieldToEventLoop();
        if (token.isCancellationRequested) throw cancelled();
      }
      try {
        return await safe(this.ctx, 'Diagnostics', doc.uri, empty, () => {
          const problems = this.check(doc, kind, s, () => token.isCancellationRequested);
          const { relatedInformation, docsUri } = this.ctx.caps;
          const items: Diagnostic[] = problems.map((p) => toDiagnostic(doc, p, { relatedInformation, docsUri }));
          return { kind: DocumentDiagnosticReportKind.Full, items };
        });
      } catch (err) {
        if (isCancellation(err)) throw cancelled();
        throw err;
      }
    });
  }

  /** The document's problems: from the last check when the text is the same, else checked now. */
  problemsOf(doc: TextDocument, kind: DocKind, s: Settings): Problem[] {
    const hit = this.last.get(doc.uri);
    if (!hit || hit.text !== doc.getText()) return this.check(doc, kind, s);
    this.keep(doc.uri, hit);
    return hit.problems;
  }

  drop(uri: string): void { this.last.delete(uri); }
  clear(): void { this.last.clear(); }

  /** The URIs whose last problems are kept, least recent first. */
  kept(): string[] { return [...this.last.keys()]; }

  /** Keeps uri's result as the most recent; the least recent beyond `recent` go, and their documents' line offsets with them. */
  private keep(uri: string, result: { text: string; problems: Problem[] }): void {
    this.last.delete(uri);
    this.last.set(uri, result);
    for (const old of this.last.keys()) {
      if (this.last.size <= this.recent) break;
      this.last.delete(old);
      const doc = this.ctx.documents.get(old);
      if (doc) releaseLineOffsets(doc);
    }
  }

  private check(doc: TextDocument, kind: DocKind, s: Settings, isCancelled?: () => boolean): Problem[] {
    const text = doc.getText();
    const problems = core().validate(text, kind, { ...coreOptions(s), parsed: tooLarge(doc, s) ? undefined : this.ctx.parses.get(doc), isCancelled });
    this.keep(doc.uri, { text, problems });
    return problems;
  }
}
