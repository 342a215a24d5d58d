// After `shutdown`, a request is refused with InvalidRequest and only `exit` is left to the client (LSP 3.17, "Shutdown Request").
// vscode-languageserver does not do it: its shutdown handler records the request for the exit code and every handler keeps
// answering. The requests are sorted here, in vscode-jsonrpc's message strategy (the one hook every message goes through before its
// handler, whatever the transport: stdio, IPC, a browser worker): one that arrives after the shutdown request is handed to the
// connection as a request of REFUSED_METHOD, with the method it named, whose handler (registerShutdownGate) answers the error under
// the request's id. Notifications pass: `exit` must, and a didClose changes nothing the client can see.
import type { ConnectionOptions, Message } from 'vscode-languageserver';
import type { Connection } from './context';
import { ErrorCodes, ResponseError } from './library';

/** The method a request after shutdown is handed to the connection as (its params: the method the client named). */
const REFUSED_METHOD = '$/edgekit/afterShutdown';

interface RequestLike { jsonrpc: string; id?: number | string | null; method?: unknown }

/** The options for createConnection in every entry (server.ts, browserServer.ts): the gate that refuses requests after `shutdown`. */
export function shutdownGate(): ConnectionOptions {
  let down = false;
  return {
    messageStrategy: {
      handleMessage(message: Message, next) {
        const m = message as RequestLike;
        const isRequest = typeof m.method === 'string' && m.id !== undefined;
        if (!isRequest) return next(message);
        if (down) return next({ jsonrpc: m.jsonrpc, id: m.id, method: REFUSED_METHOD, params: { method: m.method } } as Message);
        if (m.method === 'shutdown') down = true;
        return next(message);
      },
    },
  };
}

/** The handler of the refused requests: InvalidRequest, naming the method. */
export function registerShutdownGate(connection: Connection): void {
  connection.onRequest(REFUSED_METHOD, (params: { method?: unknown }) => {
    throw new ResponseError(ErrorCodes.InvalidRequest, `The server is shut down: "${String(params?.method)}" is refused (only "exit" is accepted after "shutdown").`);
  });
}
