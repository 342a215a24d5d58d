// The language server entry in Node: VS Code starts it over IPC, other editors run `edgekit-language-server --stdio`. Glue only:
// the server itself is lsp/start.ts (shared with the browser entry, browserServer.ts).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { whenCoreFails } from './lsp/context';
import { shutdownGate } from './lsp/shutdown';
import { startServer } from './lsp/start';
import { registerTestFilter, registerTestRules } from './lsp/testFilterRequest';
import { StdioMessageReader, StdioMessageWriter, wireStdioProcess } from './lsp/stdio';

// --stdio with EdgeKit's reader and writer (stdio.ts); VS Code's --node-ipc and the library's --socket and --pipe as the library makes them.
const stdioReader = process.argv.includes('--stdio') ? new StdioMessageReader(process.stdin) : undefined;
const connection = stdioReader
  ? createConnection(ProposedFeatures.all, stdioReader, new StdioMessageWriter(process.stdout), shutdownGate())
  : createConnection(ProposedFeatures.all, shutdownGate());
if (stdioReader) wireStdioProcess(connection, process.stdin, stdioReader);
// An error nothing caught goes to the client's log; once the connection is closed, sending throws (and a handler that throws ends
// the process with code 7), so it goes to stderr instead.
const reportUncaught = (what: string, err: unknown) => {
  const text = `${what}: ${(err as Error)?.stack ?? err}`;
  try {
    connection.console.error(text);
  } catch {
    process.stderr.write(`${text}\n`);
  }
};
process.on('uncaughtException', (err) => reportUncaught('Uncaught exception', err));
process.on('unhandledRejection', (err) => reportUncaught('Unhandled rejection', err));
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
