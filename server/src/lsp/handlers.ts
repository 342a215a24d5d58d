// The editor features over the shared parse: completion, hover, quick fixes, code lenses, outline, folding and formatting.
import type { CodeAction, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { Problem } from '../core';
import { CodeActionKind } from './library';
import { core, coreOptions, featureTarget, kindOf, safe, tooLarge, type ServerContext } from './context';
import { toTextEdit, type DiagnosticData } from './convert';
import type { Diagnostics } from './diagnostics';
import { documentSymbols, foldingRanges, formatDocument, toCodeLens, toCompletionItem, toHover } from './features';
import { sampleLens } from './filterSample';

export function registerFeatures(ctx: ServerContext, diagnostics: Diagnostics): void {
  const { connection, documents, parses, settings, caps } = ctx;

  connection.onCompletion(async (params) => {
    const t = await featureTarget(ctx, params.textDocument.uri);
    if (!t) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Completion', doc.uri, [], () =>
      core().complete(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s)).map((e) => toCompletionItem(doc, e, caps)));
  });

  connection.onHover(async (params) => {
    const t = await featureTarget(ctx, params.textDocument.uri);
    if (!t) return null;
    const { doc, kind, s } = t;
    return safe(ctx, 'Hover', doc.uri, null, () => {
      const h = core().hover(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s));
      return h ? toHover(doc, h, caps) : null;
    });
  });

  // Quick fixes travel in each diagnostic's data with the version they were made for: no state, no second check. A client that
  // does not send data back, or sends a diagnostic of an older version (its markers moved with an edit before the next pull),
  // gets them from this version's check, matched by code and the diagnostic's start: old offsets are never applied to new text.
  // With documentChanges, an edit names the version it was made for (a stale one is refused).
  connection.onCodeAction(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    const kind = doc && kindOf(doc);
    if (!doc || !kind) return [];
    const edit = (edits: TextEdit[]): WorkspaceEdit => (caps.documentChanges
      ? { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits }] }
      : { changes: { [doc.uri]: edits } });
    let current: Problem[] | undefined;
    const currentFixes = async (code: string, offset: number) => {
      current ??= await safe(ctx, 'Code actions', doc.uri, [] as Problem[], async () => diagnostics.problemsOf(doc, kind, await settings.get(doc.uri, doc.languageId)));
      return current.find((p) => p.code === code && p.offset === offset)?.fixes
        ?.map((f) => ({ title: f.title, preferred: f.preferred, edits: f.edits.map((e) => toTextEdit(doc, e)) }));
    };
    const actions: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      const code = typeof d.code === 'string' ? d.code : undefined;
      const data = d.data as DiagnosticData | undefined;
      const fixes = data?.fixes && (data.version === undefined || data.version === doc.version) ? data.fixes
        : code ? await currentFixes(code, doc.offsetAt(d.range.start)) : undefined;
      for (const f of fixes ?? []) {
        actions.push({ title: f.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: f.preferred, edit: edit(f.edits) });
      }
    }
    return actions;
  });

  connection.onCodeLens(async (params) => {
    const t = await featureTarget(ctx, params.textDocument.uri);
    if (!t || !t.s.codeLens.enabled) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Code lenses', doc.uri, [], () => {
      const parsed = parses.get(doc);
      // A lens that runs one of EdgeKit's commands only for a client that has them; the others are plain facts.
      const lenses = core().lenses(kind, parsed, coreOptions(s)).filter((l) => !l.command || caps.commands).map((l) => toCodeLens(doc, l, caps.textLenses));
      const sample = sampleLens(ctx, doc, kind, parsed, coreOptions(s).logpushDataset);
      return sample ? [...lenses, sample] : lenses;
    });
  });

  connection.onDocumentSymbol(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !kindOf(doc) || tooLarge(doc, await settings.get(doc.uri, doc.languageId))) return [];
    return safe(ctx, 'Outline', doc.uri, [], () => documentSymbols(doc, parses.get(doc)));
  });

  connection.onFoldingRanges(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !kindOf(doc) || tooLarge(doc, await settings.get(doc.uri, doc.languageId))) return [];
    return safe(ctx, 'Folding', doc.uri, [], () => foldingRanges(doc, parses.get(doc)));
  });

  connection.onDocumentFormatting((params) => {
    const doc = documents.get(params.textDocument.uri);
    return doc && kindOf(doc) ? safe(ctx, 'Formatting', doc.uri, [], () => formatDocument(doc, params.options)) : [];
  });

  connection.onDocumentRangeFormatting((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !kindOf(doc)) return [];
    const start = doc.offsetAt(params.range.start);
    return safe(ctx, 'Formatting', doc.uri, [], () => formatDocument(doc, params.options, { offset: start, length: doc.offsetAt(params.range.end) - start }));
  });
}
