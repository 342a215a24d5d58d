// A reference for bench/lspFloor.ts: vscode-languageserver alone, as any server built on it starts: createConnection over stdio,
// TextDocuments, and a pull-diagnostics handler that answers an empty report without looking at the document. With
// EDGEKIT_STDIO=1 it reads and writes with EdgeKit's StdioMessageReader/Writer (dist/stdioTransport.js, made by bench/lspFloor.ts).
const { createConnection, ProposedFeatures, TextDocuments } = require('vscode-languageserver/node');
const { TextDocument } = require('vscode-languageserver-textdocument');
let connection;
if (process.env.EDGEKIT_STDIO) {
  const { StdioMessageReader, StdioMessageWriter } = require(process.env.EDGEKIT_STDIO);
  connection = createConnection(ProposedFeatures.all, new StdioMessageReader(process.stdin), new StdioMessageWriter(process.stdout));
} else {
  connection = createConnection(ProposedFeatures.all);
}
const documents = new TextDocuments(TextDocument);
documents.listen(connection);
connection.onInitialize(() => ({ capabilities: { textDocumentSync: 1, diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } }));
connection.languages.diagnostics.on(() => ({ kind: 'full', items: [] }));
connection.listen();
process.stdin.on('end', () => process.exit(0));
