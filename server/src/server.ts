// The language server entry: glue only. It creates the connection and the shared state, says what the server can do, and wires
// the handlers of lsp/ (diagnostics, features, custom requests). Checking lives in core/ (through core/index.ts).
import {
  CodeActionKind, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { InitOptions } from './protocol';
import type { ServerContext } from './lsp/context';
import { Diagnostics } from './lsp/diagnostics';
import { registerFeatures } from './lsp/handlers';
import { ParseCache } from './lsp/parseCache';
import { registerRequests } from './lsp/requests';
import { SettingsCache } from './lsp/settings';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const caps: ServerContext['caps'] = { configuration: false, relatedInformation: false };
const ctx: ServerContext = {
  connection, documents, caps,
  parses: new ParseCache((d) => documents.get(d.uri) === d),
  settings: new SettingsCache(connection, () => caps.configuration),
};
const diagnostics = new Diagnostics(ctx);

process.on('uncaughtException', (err) => connection.console.error(`Uncaught exception: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => connection.console.error(`Unhandled rejection: ${(err as Error)?.stack ?? err}`));

connection.onInitialize((params): InitializeResult => {
  const c = params.capabilities;
  caps.configuration = !!c.workspace?.configuration;
  caps.relatedInformation = !!c.textDocument?.publishDiagnostics?.relatedInformation || !!c.textDocument?.diagnostic;
  caps.docsUri = (params.initializationOptions as InitOptions | undefined)?.docsUri;
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
  ctx.settings.clear();
  diagnostics.clear();
  connection.languages.diagnostics.refresh().catch((err) => connection.console.error(`Diagnostics refresh failed: ${err}`));
  connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
});

documents.onDidClose((e) => {
  ctx.settings.drop(e.document.uri);
  ctx.parses.drop(e.document.uri);
  diagnostics.drop(e.document.uri);
});

diagnostics.register();
registerFeatures(ctx);
registerRequests(ctx, diagnostics);

documents.listen(connection);
connection.listen();
