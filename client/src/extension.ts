// activate/deactivate: composition only.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient } from './client';
import { log, logChannel } from './log';
import { DocumentStatus } from './statusBar';
import { registerCommands } from './commands/registry';
import type { Ctx } from './ctx';
import { Backend } from './backend';
import { Config } from './config';
import { Responses } from './views/responses';
import { ZonesView } from './views/zones';
import { vscodeUi } from './ui';
import { apiFor } from './commands/api';

let client: LanguageClient | undefined;
let backend: Backend | undefined;

/** Returned to tests (and other extensions) as the extension's exports. */
export interface EdgeKitApi { ctx: Ctx }

export async function activate(context: vscode.ExtensionContext): Promise<EdgeKitApi> {
  context.subscriptions.push(logChannel());
  client = createLanguageClient(context);
  const status = new DocumentStatus(client);
  const responses = new Responses(context.workspaceState);
  const ctx = { extension: context, client, log, status, responses, ui: vscodeUi } as Ctx;
  backend = ctx.backend = new Backend(context, () => ctx.ui);
  ctx.zones = new ZonesView(() => apiFor(ctx, false));
  context.subscriptions.push(
    status, responses, ctx.zones, ...registerCommands(ctx),
    (ctx.zones.view = vscode.window.createTreeView('edgekit.zones', { treeDataProvider: ctx.zones, showCollapseAll: false })),
    backend.onDidChange(() => ctx.zones.refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('edgekit')) backend?.configurationChanged(e).catch((err) => log.error('Applying EdgeKit settings failed', err));
    }),
  );
  try {
    await client.start();
  } catch (err) {
    // Commands, the mock and the Zones view still work; the client's initializationFailedHandler already told the user.
    log.error('The EdgeKit language server did not start', err);
  }
  if (Config.mockAutoStart() && Config.backend() === 'embedded') {
    backend.startMock().catch((err) => log.error('The embedded mock backend did not start', err));
  }
  log.info(`EdgeKit ${context.extension.packageJSON.version} started.`);
  void status.update();
  return { ctx };
}

export async function deactivate(): Promise<void> {
  await Promise.allSettled([client?.stop(), backend?.dispose()]);
  client = undefined;
  backend = undefined;
}
