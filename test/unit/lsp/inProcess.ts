// The language server (lsp/start.ts) in this process on a vscode-languageserver connection over in-memory streams, driven by a
// vscode-languageserver-protocol client with the capabilities a test chooses: real LSP messages, no child process, and the test can
// hold the server's workspace/configuration round trip (the one await before a feature's work starts) or wrap the core.
import { PassThrough } from 'node:stream';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { ConfigurationRequest, createProtocolConnection, PublishDiagnosticsNotification, type PublishDiagnosticsParams, StreamMessageReader, StreamMessageWriter, type InitializeResult, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { startServer } from '../../../server/src/lsp/start';

export interface InProcessServer {
  client: ProtocolConnection;
  /** The server's answer to initialize. */
  initialized: InitializeResult;
  /** What the client does when the server asks for settings, before it answers (once; then it answers at once again). */
  beforeSettings(fn: () => Promise<void> | void): void;
  configurationRequests(): number;
  /** Every window/logMessage the server sent, from its start (initialize's own included). */
  logged: { type: number; message: string }[];
  open(uri: string, languageId: string, version: number, text: string): Promise<void>;
  /** A full-text didChange. */
  change(uri: string, version: number, text: string): Promise<void>;
  close(): void;
}

/** VS Code-like by default: pull diagnostics, workspace/configuration, semantic tokens; `capabilities` replaces them whole. */
export async function inProcessServer(opts: { capabilities?: Record<string, unknown>; initializationOptions?: unknown; /** The "edgekit" section workspace/configuration answers ({} by default), for the scope asked. */ section?: (scopeUri?: string) => unknown;
  /** initialize's workspaceFolders (null by default). */ workspaceFolders?: { uri: string; name: string }[] } = {}): Promise<InProcessServer> {
  const up = new PassThrough();
  const down = new PassThrough();
  const server = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down));
  startServer(server);
  const client = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  let hook: (() => Promise<void> | void) | undefined;
  let asked = 0;
  const logged: { type: number; message: string }[] = [];
  client.onNotification('window/logMessage', (p: { type: number; message: string }) => { logged.push(p); });
  client.onRequest(ConfigurationRequest.type, async (p) => {
    asked++;
    const h = hook;
    hook = undefined;
    await h?.();
    return p.items.map((i) => opts.section?.(i.scopeUri) ?? {});
  });
  client.listen();
  const initialized = await client.sendRequest<InitializeResult>('initialize', {
    processId: null, rootUri: null, workspaceFolders: opts.workspaceFolders ?? null, initializationOptions: opts.initializationOptions,
    capabilities: opts.capabilities ?? {
      workspace: { configuration: true },
      textDocument: {
        diagnostic: { dynamicRegistration: false },
        semanticTokens: { requests: { full: true, range: true }, tokenTypes: [], tokenModifiers: [], formats: ['relative'] },
      },
    },
  });
  await client.sendNotification('initialized', {});
  return {
    client,
    initialized,
    beforeSettings: (fn) => { hook = fn; },
    configurationRequests: () => asked,
    logged,
    open: (uri, languageId, version, text) => client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } }),
    change: (uri, version, text) => client.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] }),
    close: () => { client.dispose(); server.dispose(); up.end(); down.end(); },
  };
}

/** Every publishDiagnostics, and a wait for the next one of a URI that satisfies a predicate (an event, never a sleep). */
export function publishes(server: { conn: ProtocolConnection }) {
  const seen: PublishDiagnosticsParams[] = [];
  const waiters: { uri: string; ok: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  server.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    seen.push(p);
    for (const w of [...waiters]) if (w.uri === p.uri && w.ok(p)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(p); }
  });
  return {
    seen,
    next: (uri: string, ok: (p: PublishDiagnosticsParams) => boolean = () => true) => new Promise<PublishDiagnosticsParams>((resolve) => waiters.push({ uri, ok, resolve })),
  };
}
