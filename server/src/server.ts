// The language server entry in Node: VS Code starts it over IPC, other editors run `edgekit-language-server --stdio`. Glue only:
// the server itself is lsp/start.ts (shared with the browser entry, browserServer.ts).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { whenCoreFails } from './lsp/context';
import { startServer } from './lsp/start';
import { registerTestFilter, registerTestRules } from './lsp/testFilterRequest';
import { StdioMessageReader, StdioMessageWriter, wireStdioProcess } from './lsp/stdio';

// --stdio with EdgeKit's reader and writer (stdio.ts); VS Code's --node-ipc and the library's --socket and --pipe as the library makes them.
const stdioReader = process.argv.includes('--stdio') ? new StdioMessageReader(process.stdin) : undefined;
const connection = stdioReader
  ? createConnection(ProposedFeatures.all, stdioReader, new StdioMessageWriter(process.stdout))
  : createConnection(ProposedFeatures.all);
if (stdioReader) wireStdioProcess(connection, process.stdin, stdioReader);
process.on('uncaughtException', (err) => connection.console.error(`Uncaught exception: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => connection.console.error(`Unhandled rejection: ${(err as Error)?.stack ?? err}`));
// A server without its core can check nothing: it ends, as it did when the core loaded with it, and the client reports the crash
// with this message in its log (stderr writes to a pipe are synchronous here, so the message is out before the exit).
whenCoreFails((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
// The requests that read files live in the Node entry only (the browser build has no file system).
const ctx = startServer(connection);
registerTestFilter(ctx);
registerTestRules(ctx);
