// The editor features over the shared parse: completion, hover, quick fixes, code lenses, outline, folding and formatting.
import { CodeActionKind, type CodeAction } from 'vscode-languageserver/node';
import { core, coreOptions, featureTarget, safe, tooLarge, type ServerContext } from './context';
import type { DiagnosticData } from './convert';
import { documentSymbols, foldingRanges, formatDocument, toCodeLens, toCompletionItem, toHover } from './features';

export function registerFeatures(ctx: ServerContext): void {
  const { connection, documents, parses, settings } = ctx;

  connection.onCompletion(async (params) => {
    const t = await featureTarget(ctx, params.textDocument.uri);
    if (!t) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Completion', doc.uri, [], () =>
      core.complete(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s)).map((e) => toCompletionItem(doc, e)));
  });

  connection.onHover(async (params) => {
    const t = await featureTarget(ctx, params.textDocument.uri);
    if (!t) return null;
    const { doc, kind, s } = t;
    return safe(ctx, 'Hover', doc.uri, null, () => {
      const h = core.hover(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s));
      return h ? toHover(doc, h) : null;
    });
  });

  // Quick fixes travel in each diagnostic's data: no state, no second check.
  connection.onCodeAction((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const actions: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      const data = d.data as DiagnosticData | undefined;
      if (!data?.fixes) continue;
      for (const f of data.fixes) {
        actions.push({ title: f.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: f.preferred, edit: { changes: { [doc.uri]: f.edits } } });
      }
    }
    return actions;
  });

  connection.onCodeLens(async (params) => {
    const t = await featureTarget(ctx, params.textDocument.uri);
    if (!t || !t.s.codeLens.enabled) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Code lenses', doc.uri, [], () => core.lenses(kind, parses.get(doc), coreOptions(s)).map((l) => toCodeLens(doc, l)));
  });

  connection.onDocumentSymbol(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || tooLarge(doc, await settings.get(doc.uri))) return [];
    return safe(ctx, 'Outline', doc.uri, [], () => documentSymbols(doc, parses.get(doc)));
  });

  connection.onFoldingRanges(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc || tooLarge(doc, await settings.get(doc.uri))) return [];
    return safe(ctx, 'Folding', doc.uri, [], () => foldingRanges(doc, parses.get(doc)));
  });

  connection.onDocumentFormatting((params) => {
    const doc = documents.get(params.textDocument.uri);
    return doc ? safe(ctx, 'Formatting', doc.uri, [], () => formatDocument(doc, params.options)) : [];
  });

  connection.onDocumentRangeFormatting((params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const start = doc.offsetAt(params.range.start);
    return safe(ctx, 'Formatting', doc.uri, [], () => formatDocument(doc, params.options, { offset: start, length: doc.offsetAt(params.range.end) - start }));
  });
}
