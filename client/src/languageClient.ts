// The LanguageClient itself: our four language ids, IPC transport, the shared output channel, bounded restarts. This module and
// vscode-languageclient are their own bundle (dist/languageClient.js), loaded by LanguageServer when the first EdgeKit document
// opens (or a command needs the server): an activation without one loads and spawns nothing of the language server.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  CloseAction, ErrorAction, LanguageClient, RevealOutputChannelOn, TransportKind,
  type ErrorHandler, type LanguageClientOptions, type ServerOptions,
} from 'vscode-languageclient/node';
import type { InitOptions } from '../../server/src/protocol';
import type { log as Log } from './log';
import { LANGUAGE_IDS, SERVED_SCHEMES } from './languages';

/** Restart a crashed server up to 4 times in 3 minutes, then stop and tell the user once, with the log. */
export class RestartingErrorHandler implements ErrorHandler {
  private restarts: number[] = [];
  constructor(private readonly log: typeof Log, private readonly max = 4, private readonly windowMs = 3 * 60_000) {}
  error() { return { action: ErrorAction.Continue }; }
  closed() {
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < this.windowMs);
    if (this.restarts.length < this.max) {
      this.restarts.push(now);
      this.log.warn(`The EdgeKit language server stopped; restarting (${this.restarts.length}/${this.max}).`);
      return { action: CloseAction.Restart };
    }
    this.log.error(`The EdgeKit language server stopped ${this.max} times in ${this.windowMs / 60000} minutes; not restarting.`);
    void vscode.window.showErrorMessage('EdgeKit: the language server keeps stopping and was not restarted. Run "EdgeKit: Restart Language Server" after checking the log.', 'Show Log')
      .then((pick) => { if (pick === 'Show Log') this.log.show(); });
    return { action: CloseAction.DoNotRestart };
  }
}

function traceChannel(context: vscode.ExtensionContext): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel('EdgeKit Language Server Trace', { log: true });
  context.subscriptions.push(channel);
  return channel;
}

/**
 * The client, not started. The log comes from the caller: this module is a bundle of its own, and a log module of its own would
 * open a second "EdgeKit" output channel.
 */
export function createLanguageClient(context: vscode.ExtensionContext, log: typeof Log, logChannel: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const initializationOptions: InitOptions = {
    // This client registers EdgeKit's commands, so the server sends the lenses that run them (Send request).
    commands: true,
    // VS Code filters completions from the start of the edit range ("Client...), so filterText keeps its quotes.
    rangeFilter: true,
    // The TextMate grammars colour the embedded languages here, tuned for VS Code; semantic tokens would override them.
    semanticTokens: false,
    // vsce packs the README as readme.md; a development host has README.md.
    docsUri: vscode.Uri.joinPath(context.extensionUri, fs.existsSync(context.asAbsolutePath('readme.md')) ? 'readme.md' : 'README.md').toString(),
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: LANGUAGE_IDS.flatMap((language) => SERVED_SCHEMES.map((scheme) => ({ scheme, language }))),
    outputChannel: logChannel,
    traceOutputChannel: traceChannel(context),
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions,
    errorHandler: new RestartingErrorHandler(log),
    initializationFailedHandler: (err) => {
      log.error('The EdgeKit language server failed to start', err);
      void vscode.window.showErrorMessage('EdgeKit: the language server failed to start.', 'Show Log').then((p) => { if (p === 'Show Log') log.show(); });
      return false;
    },
    synchronize: { configurationSection: 'edgekit' },
  };
  return new LanguageClient('edgekit', 'EdgeKit Language Server', serverOptions, clientOptions);
}
