// The language server entry in Node: VS Code starts it over IPC, other editors run `edgekit-language-server --stdio`. Glue only:
// the server itself is lsp/start.ts (shared with the browser entry, browserServer.ts).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { whenCoreFails } from './lsp/context';
import { startServer } from './lsp/start';
import { registerTestFilter, registerTestRules } from './lsp/testFilterRequest';
import { coalesceMessageWrites } from './stdioWrites';

if (process.argv.includes('--stdio')) coalesceMessageWrites(process.stdout);

const connection = createConnection(ProposedFeatures.all);
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
