// The language server entry: glue only. Checking lives in core/, conversions in lsp/.
import {
  CodeActionKind, createConnection, DocumentDiagnosticReportKind, ProposedFeatures, RequestType, TextDocuments, TextDocumentSyncKind,
  type CodeAction, type Diagnostic, type DocumentDiagnosticReport, type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  DocumentInfoRequest, FilterToJobStringRequest, JobStringToFilterRequest, ToTerraformRequest,
  type ConvertResult, type CustomRequest, type DocumentInfoResult, type InitOptions, type Settings,
} from './protocol';
import { filterToJobString, jobStringToFilter } from './core/rules/logpush';
import { toTerraform } from './core/rules/ruleset';
import { isDocKind } from './core/kinds';
import type { CoreOptions, DocKind } from './core/types';
import { Cancelled, validateText } from './core/validate';
import { complete, hover, lenses } from './core/assist';
import { filterUsageOf } from './core/usage';
import { SettingsCache } from './lsp/settings';
import { ParseCache } from './lsp/parseCache';
import { toDiagnostic, type DiagnosticData } from './lsp/convert';
import { documentSymbols, foldingRanges, formatDocument, toCodeLens, toCompletionItem, toHover } from './lsp/features';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const parses = new ParseCache((d) => documents.get(d.uri) === d);
let hasConfiguration = false;
let hasRelatedInformation = false;
let docsUri: string | undefined;
const settings = new SettingsCache(connection, () => hasConfiguration);

process.on('uncaughtException', (err) => connection.console.error(`Uncaught exception: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => connection.console.error(`Unhandled rejection: ${(err as Error)?.stack ?? err}`));

connection.onInitialize((params): InitializeResult => {
  const caps = params.capabilities;
  hasConfiguration = !!caps.workspace?.configuration;
  hasRelatedInformation = !!caps.textDocument?.publishDiagnostics?.relatedInformation || !!caps.textDocument?.diagnostic;
  docsUri = (params.initializationOptions as InitOptions | undefined)?.docsUri;
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false },
      completionProvider: { triggerCharacters: ['"', ':', ' ', '.'], resolveProvider: false },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      codeLensProvider: { resolveProvider: false },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      documentFormattingProvider: true,
      documentRangeFormattingProvider: true,
    },
  };
});

connection.onDidChangeConfiguration(() => {
  settings.clear();
  connection.languages.diagnostics.refresh().catch((err) => connection.console.error(`Diagnostics refresh failed: ${err}`));
  connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
});

documents.onDidClose((e) => {
  settings.drop(e.document.uri);
  parses.drop(e.document.uri);
});

function kindOf(doc: TextDocument): DocKind | undefined {
  return isDocKind(doc.languageId) ? doc.languageId : undefined;
}

function coreOptions(s: Settings): CoreOptions {
  return { logpushDataset: s.logpush.dataset, maxProblems: s.maxProblems, maxFileSizeKB: s.maxFileSizeKB };
}

/** Run a handler; never throw to the client: log URI + error and return the fallback (vscode-eslint's pattern). */
async function safe<T>(what: string, uri: string, fallback: T, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Cancelled) throw err;
    connection.console.error(`${what} failed for ${uri}: ${(err as Error).stack ?? err}`);
    return fallback;
  }
}

/** Above edgekit.maxFileSizeKB a document is not parsed at all: one information diagnostic, no outline/completion/hover/lenses. */
function tooLarge(doc: TextDocument, s: Settings): boolean {
  return doc.getText().length > s.maxFileSizeKB * 1024;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

connection.languages.diagnostics.on(async (params, token): Promise<DocumentDiagnosticReport> => {
  const empty: DocumentDiagnosticReport = { kind: DocumentDiagnosticReportKind.Full, items: [] };
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return empty;
  const kind = kindOf(doc);
  if (!kind) return empty;
  const s = await settings.get(doc.uri);
  // Let a newer edit's cancellation arrive before heavy work.
  await yieldToEventLoop();
  if (token.isCancellationRequested) return empty;
  try {
    return await safe('Diagnostics', doc.uri, empty, () => {
      const problems = validateText(doc.getText(), kind, { ...coreOptions(s), parsed: tooLarge(doc, s) ? undefined : parses.get(doc), isCancelled: () => token.isCancellationRequested });
      const items: Diagnostic[] = problems.map((p) => toDiagnostic(doc, p, { relatedInformation: hasRelatedInformation, docsUri }));
      return { kind: DocumentDiagnosticReportKind.Full, items };
    });
  } catch (err) {
    if (err instanceof Cancelled) return empty;
    throw err;
  }
});

/** A request's document with its kind and settings, when the parse-driven features run on it (one of ours, under maxFileSizeKB). */
async function featureTarget(uri: string): Promise<{ doc: TextDocument; kind: DocKind; s: Settings } | undefined> {
  const doc = documents.get(uri);
  const kind = doc && kindOf(doc);
  if (!doc || !kind) return undefined;
  const s = await settings.get(doc.uri);
  return tooLarge(doc, s) ? undefined : { doc, kind, s };
}

connection.onCompletion(async (params) => {
  const t = await featureTarget(params.textDocument.uri);
  if (!t) return [];
  const { doc, kind, s } = t;
  return safe('Completion', doc.uri, [], () =>
    complete(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s)).map((e) => toCompletionItem(doc, e)));
});

connection.onHover(async (params) => {
  const t = await featureTarget(params.textDocument.uri);
  if (!t) return null;
  const { doc, kind, s } = t;
  return safe('Hover', doc.uri, null, () => {
    const h = hover(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s));
    return h ? toHover(doc, h) : null;
  });
});

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
  const t = await featureTarget(params.textDocument.uri);
  if (!t || !t.s.codeLens.enabled) return [];
  const { doc, kind, s } = t;
  return safe('Code lenses', doc.uri, [], () => lenses(kind, parses.get(doc), coreOptions(s)).map((l) => toCodeLens(doc, l)));
});

connection.onDocumentSymbol(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc || tooLarge(doc, await settings.get(doc.uri))) return [];
  return safe('Outline', doc.uri, [], () => documentSymbols(doc, parses.get(doc)));
});

connection.onFoldingRanges(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc || tooLarge(doc, await settings.get(doc.uri))) return [];
  return safe('Folding', doc.uri, [], () => foldingRanges(doc, parses.get(doc)));
});

connection.onDocumentFormatting((params) => {
  const doc = documents.get(params.textDocument.uri);
  return doc ? safe('Formatting', doc.uri, [], () => formatDocument(doc, params.options)) : [];
});

connection.onDocumentRangeFormatting((params) => {
  const doc = documents.get(params.textDocument.uri);
  if (!doc) return [];
  const start = doc.offsetAt(params.range.start);
  return safe('Formatting', doc.uri, [], () => formatDocument(doc, params.options, { offset: start, length: doc.offsetAt(params.range.end) - start }));
});

function firstError(doc: TextDocument, problems: { severity: string; offset: number; message: string }[]) {
  const e = problems.find((p) => p.severity === 'error');
  return e ? { line: doc.positionAt(e.offset).line, message: e.message } : undefined;
}

/** The typed jsonrpc request of one of protocol.ts's custom requests. */
function requestType<P, R>(r: CustomRequest<P, R>): RequestType<P, R, void> {
  return new RequestType<P, R, void>(r.method);
}

connection.onRequest(requestType(DocumentInfoRequest.type), async (params): Promise<DocumentInfoResult> => {
  const doc = documents.get(params.uri);
  const kind = doc && kindOf(doc);
  if (!doc || !kind) return { kind: null, problems: { errors: 0, warnings: 0 } };
  const s = await settings.get(doc.uri);
  return safe<DocumentInfoResult>('Document info', doc.uri, { kind, problems: { errors: 0, warnings: 0 } }, () => {
    const parsed = tooLarge(doc, s) ? undefined : parses.get(doc);
    const problems = validateText(doc.getText(), kind, { ...coreOptions(s), parsed });
    return {
      kind,
      usage: parsed && filterUsageOf(kind, parsed),
      problems: {
        errors: problems.filter((p) => p.severity === 'error').length,
        warnings: problems.filter((p) => p.severity === 'warning').length,
        firstError: firstError(doc, problems),
      },
    };
  });
});

connection.onRequest(requestType(FilterToJobStringRequest.type), (params): ConvertResult => {
  const doc = documents.get(params.uri);
  if (!doc) return { error: `${params.uri} is not open.` };
  try {
    return { text: filterToJobString(doc.getText()) };
  } catch (err) {
    return { error: `The filter in ${doc.uri.split('/').pop()} is not valid JSON (${(err as Error).message}); fix the syntax error first.` };
  }
});

connection.onRequest(requestType(JobStringToFilterRequest.type), (params): ConvertResult => {
  const doc = documents.get(params.uri);
  if (!doc) return { error: `${params.uri} is not open.` };
  const name = doc.uri.split('/').pop();
  const value = parses.get(doc).value as Record<string, unknown> | undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: `${name} is not a Logpush job object.` };
  if (typeof value.filter !== 'string') return { error: `${name} has no "filter" string member.` };
  try {
    const text = jobStringToFilter(value.filter);
    const dataset = typeof value.dataset === 'string' ? value.dataset : undefined;
    return { text, dataset };
  } catch (err) {
    return { error: `The "filter" string in ${name} is not valid JSON (${(err as Error).message}).` };
  }
});

connection.onRequest(requestType(ToTerraformRequest.type), (params) => toTerraform(params.ruleset, params.zoneId, params.rulesetId));

documents.listen(connection);
connection.listen();
