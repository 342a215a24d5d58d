// The language server entry in a browser's Web Worker (vscode.dev, github.dev, any web editor with an LSP client): the same server
// as in Node (lsp/start.ts) over the worker's messages. The core needs no file system or network, so every check runs here too.
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import { shutdownGate } from './lsp/shutdown';
import { startServer } from './lsp/start';

/** The worker's global scope (the project's TypeScript settings carry no DOM or WebWorker library). */
declare const self: unknown;
const scope = self as ConstructorParameters<typeof BrowserMessageReader>[0];
startServer(createConnection(ProposedFeatures.all, new BrowserMessageReader(scope), new BrowserMessageWriter(scope), shutdownGate()));
