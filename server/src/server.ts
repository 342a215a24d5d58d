// The language server entry in Node: VS Code starts it over IPC, other editors run `edgekit-language-server --stdio`. Glue only:
// the server itself is lsp/start.ts (shared with the browser entry, browserServer.ts).
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './lsp/start';
import { registerTestFilter, registerTestRules } from './lsp/testFilterRequest';
import { coalesceMessageWrites } from './stdioWrites';

if (process.argv.includes('--stdio')) coalesceMessageWrites(process.stdout);

const connection = createConnection(ProposedFeatures.all);
process.on('uncaughtException', (err) => connection.console.error(`Uncaught exception: ${err.stack ?? err}`));
process.on('unhandledRejection', (err) => connection.console.error(`Unhandled rejection: ${(err as Error)?.stack ?? err}`));
// The requests that read files live in the Node entry only (the browser build has no file system).
const ctx = startServer(connection);
registerTestFilter(ctx);
registerTestRules(ctx);
