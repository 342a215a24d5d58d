// The language server as the rest of the extension sees it: started on first need, not at activation. The extension activates for
// a workspace that merely contains EdgeKit files, for the Zones view and for any command; only an open EdgeKit document (or a command
// that asks the server something) is worth a server process. Until then neither the process nor vscode-languageclient (a bundle of
// its own, dist/languageClient.js, about three quarters of the client's code) is loaded.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { CustomNotification, CustomRequest } from '../../server/src/protocol';
import type { createLanguageClient as CreateLanguageClient } from './languageClient';
import { isServedDocument } from './languages';
import { log, logChannel } from './log';

export type ServerState = 'not started' | 'starting' | 'running' | 'stopped' | 'failed';

// vscode-languageclient's State enum (State.Stopped, Running, Starting, StartFailed), by value: importing it would load the library.
const CLIENT_STOPPED = 1;
const CLIENT_RUNNING = 2;
const CLIENT_STARTING = 3;
const CLIENT_START_FAILED = 4;

/** Makes the LanguageClient; the default loads dist/languageClient.js. Tests pass their own. */
export type ClientFactory = () => LanguageClient;

export class LanguageServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private starting: Promise<LanguageClient> | undefined;
  private current: ServerState = 'not started';
  private disposed = false;
  private readonly changed = new vscode.EventEmitter<ServerState>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Fires on every state change. */
  readonly onDidChangeState = this.changed.event;
  /** Why the server was started, for the log and for tests. */
  startedFor: string | undefined;

  constructor(private readonly factory: ClientFactory) {}

  /** The default factory: the LanguageClient bundle, required on first use. */
  static fromBundle(context: vscode.ExtensionContext): LanguageServer {
    return new LanguageServer(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(context.asAbsolutePath(path.join('dist', 'languageClient.js'))) as { createLanguageClient: typeof CreateLanguageClient };
      return mod.createLanguageClient(context, log, logChannel());
    });
  }

  get state(): ServerState {
    return this.current;
  }

  /** The LanguageClient once the server was started (tests reach its process through it). */
  get languageClient(): LanguageClient | undefined {
    return this.client;
  }

  /** Start the server when an EdgeKit document is open now or opens later (a language change counts as an open). */
  startWithFirstDocument(): void {
    const open = vscode.workspace.textDocuments.find(isServedDocument);
    if (open) {
      this.startQuietly(`${path.basename(open.uri.path)} is open`);
      return;
    }
    const sub = vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!isServedDocument(doc)) return;
      sub.dispose();
      this.startQuietly(`${path.basename(doc.uri.path)} was opened`);
    });
    this.disposables.push(sub);
  }

  /** Start (once; every caller shares the same start). Rejects when the server cannot start, until restart() is run. */
  start(reason = 'a request'): Promise<LanguageClient> {
    if (this.disposed) return Promise.reject(new Error('The EdgeKit language server is shut down (the extension is deactivating).'));
    if (!this.starting) {
      this.startedFor = reason;
      this.starting = this.launch(reason);
    }
    return this.starting;
  }

  /** A custom request (protocol.ts), starting the server first if needed. */
  async request<P, R>(type: CustomRequest<P, R>, params: P, token?: vscode.CancellationToken): Promise<R> {
    const client = await this.start(`the request ${type.method}`);
    if (this.current === 'stopped' && !this.disposed) {
      throw new Error('The EdgeKit language server is not running (it stopped after repeated crashes; see the EdgeKit log). Run "EdgeKit: Restart Language Server".');
    }
    return token ? client.sendRequest<R>(type.method, params, token) : client.sendRequest<R>(type.method, params);
  }

  /** A custom notification (protocol.ts) to the server once it runs; a server not started is not started for it (the caller tells a
   * server what it needs to know when it runs: onDidChangeState). */
  notify<P>(type: CustomNotification<P>, params: P): void {
    this.starting?.then((client) => client.sendNotification(type.method, params))
      .catch((err) => log.warn(`The notification ${type.method} did not reach the EdgeKit language server: ${(err as Error)?.message ?? err}`));
  }

  /**
   * Restart a running server, start a stopped one again, or start one that never ran or failed to (a client whose start failed
   * cannot start again: a new one is made). Decided on the client's own state, which a crash and its restarts move.
   */
  async restart(): Promise<void> {
    if (this.disposed) throw new Error('The EdgeKit language server is shut down (the extension is deactivating).');
    if (this.starting) await this.starting.catch(() => undefined);
    const client = this.client;
    // In the middle of an automatic restart after a crash: wait for where it lands.
    if (client && client.state === CLIENT_STARTING) await settled(client);
    const state = client?.state;
    if (client && state === CLIENT_RUNNING) {
      await client.restart();
      return;
    }
    if (client && state === CLIENT_STOPPED && this.current !== 'failed') {
      this.setState('starting');
      await client.start();
      return;
    }
    // Never started, or the start failed (ours or the client's StartFailed).
    this.client = undefined;
    this.starting = undefined;
    await client?.dispose().catch(() => undefined);
    await this.start('the restart command');
  }

  /** Stop the server for good (deactivation). A start under way is waited for, then stopped. */
  async stop(): Promise<void> {
    this.disposed = true;
    if (this.starting) await this.starting.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    try {
      if (client && client.state === CLIENT_RUNNING) await client.stop();
    } catch (err) {
      log.error('Stopping the EdgeKit language server failed', err);
    } finally {
      await client?.dispose().catch(() => undefined);
      this.setState('stopped');
    }
  }

  dispose(): void {
    this.stop().catch((err) => log.error('Stopping the EdgeKit language server failed', err));
    for (const d of this.disposables) d.dispose();
  }

  private startQuietly(reason: string): void {
    // The client's initializationFailedHandler already told the user; the log has the rest.
    this.start(reason).catch((err) => log.error('The EdgeKit language server did not start', err));
  }

  private async launch(reason: string): Promise<LanguageClient> {
    this.setState('starting');
    log.info(`Starting the EdgeKit language server (${reason}).`);
    let client: LanguageClient;
    try {
      client = this.factory();
      this.client = client;
      client.onDidChangeState((e) => {
        // A crash and its automatic restarts move the client through these; a client we replaced says nothing any more.
        if (client !== this.client || this.disposed) return;
        if (e.newState === CLIENT_RUNNING) this.setState('running');
        else if (e.newState === CLIENT_STARTING) this.setState('starting');
        else if (e.newState === CLIENT_START_FAILED) this.setState('failed');
        else if (e.newState === CLIENT_STOPPED) this.setState('stopped');
      });
      await client.start();
    } catch (err) {
      this.setState('failed');
      throw new Error(`The EdgeKit language server failed to start: ${(err as Error)?.message ?? String(err)}. See the EdgeKit log.`);
    }
    if (this.disposed) {
      await client.stop().catch(() => undefined);
      throw new Error('The EdgeKit language server is shut down (the extension is deactivating).');
    }
    this.setState('running');
    return client;
  }

  private setState(s: ServerState): void {
    if (s === this.current) return;
    this.current = s;
    this.changed.fire(s);
  }
}

/** Resolves on the client's next state other than Starting. */
function settled(client: LanguageClient): Promise<void> {
  return new Promise((resolve) => {
    const sub = client.onDidChangeState((e) => {
      if (e.newState !== CLIENT_STARTING) { sub.dispose(); resolve(); }
    });
  });
}
