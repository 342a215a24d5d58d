// activate/deactivate: composition only.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient } from './client';
import { log, logChannel } from './log';
import { DocumentStatus } from './statusBar';
import { registerCommands } from './commands/registry';
import type { Ctx } from './ctx';

let client: LanguageClient | undefined;

/** Returned to tests (and other extensions) as the extension's exports. */
export interface EdgeKitApi { ctx: Ctx }

export async function activate(context: vscode.ExtensionContext): Promise<EdgeKitApi> {
  context.subscriptions.push(logChannel());
  client = createLanguageClient(context);
  const status = new DocumentStatus(client);
  const ctx: Ctx = { extension: context, client, log, status };
  context.subscriptions.push(status, ...registerCommands(ctx));
  await client.start();
  log.info(`EdgeKit ${context.extension.packageJSON.version} started.`);
  void status.update();
  return { ctx };
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}
