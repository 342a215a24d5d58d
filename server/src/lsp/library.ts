// The values the server's files take from vscode-languageserver, imported here once. The library is CommonJS: the bundle gives each
// file that imports it a copy of its 321 exports (esbuild's __toESM), about 0.2-0.7 ms each at a cold start (issue 18,
// docs/benchmarks.md); through this module there is one copy. Types are imported from the library itself (`import type`).
export {
  AbstractMessageReader, AbstractMessageWriter, Disposable,
  CodeActionKind, CompletionItemKind, DiagnosticSeverity, DiagnosticTag, DocumentDiagnosticReportKind, InlayHintKind, InsertTextFormat, MarkupKind,
  ErrorCodes, LSPErrorCodes, MessageType, RequestType, ResponseError, ShowMessageNotification, SymbolKind, TextDocuments, TextDocumentSyncKind,
} from 'vscode-languageserver';
