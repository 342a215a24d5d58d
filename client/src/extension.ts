// activate/deactivate: composition only.
import * as vscode from 'vscode';
import { LanguageServer } from './languageServer';
import { log, logChannel } from './log';
import { DocumentStatus } from './statusBar';
import { commandsModule, registerCommands } from './commands/registry';
import type { Ctx } from './ctx';
import { Backend } from './backend';
import { Config, reportUnusedNumberSettings } from './config';
import { Responses } from './views/responses';
import { ZonesView } from './views/zones';
import { SecurityEventsView } from './views/securityEvents';
import { DeliveredBatches } from './views/deliveries';
import { Reports } from './views/reports';
import { vscodeUi } from './ui';
import { registerTasks } from './tasks';
import { trackJobContext } from './jobContext';
import { trackDocumentShown, trackMockStarted, trackRequestSent } from './walkthrough';
import { JobScopes } from './jobScopes';
import { RulesetZones } from './rulesetZones';
import { SetJobScopeNotification } from '../../server/src/protocol';

let server: LanguageServer | undefined;
let backend: Backend | undefined;

/** Returned to tests (and other extensions) as the extension's exports. */
export interface EdgeKitApi { ctx: Ctx }

export async function activate(context: vscode.ExtensionContext): Promise<EdgeKitApi> {
  context.subscriptions.push(logChannel());
  // The commands and the Zones view need Node (the mock, files, the backends): the browser build (browserExtension.ts) never sets this.
  void vscode.commands.executeCommand('setContext', 'edgekit.nodeHost', true);
  server = LanguageServer.fromBundle(context);
  const status = new DocumentStatus(server);
  const responses = new Responses(context.workspaceState);
  const ctx = { extension: context, server, log, status, responses, ui: vscodeUi } as Ctx;
  const jobScopes = ctx.jobScopes = new JobScopes((p) => ctx.server.notify(SetJobScopeNotification.type, p));
  const rulesetZones = ctx.rulesetZones = new RulesetZones();
  backend = ctx.backend = new Backend(context, () => ctx.ui);
  // The views reach the backends through the commands bundle (commands/registry.ts), loaded when one first refreshes.
  const eventSources = async () => commandsModule().eventSources(ctx);
  ctx.zones = new ZonesView(async () => commandsModule().apiFor(ctx, false), () => eventSources().then((s) => s.mock));
  // The zone the view shows is kept for the next window, with the backend it belongs to (the mock's zone ids are the same each run).
  const backendKey = () => (Config.backend() === 'remote' ? `remote:${Config.apiBaseUrl()}` : 'embedded');
  ctx.securityEvents = new SecurityEventsView(eventSources, { state: context.workspaceState, backend: backendKey });
  context.subscriptions.push(
    server, status, responses, ctx.zones, ...registerCommands(ctx),
    // A server that started (or restarted after a crash) knows no job document's place.
    server.onDidChangeState((state) => { if (state === 'running') jobScopes.resend(); }),
    // A job document edited to name another job ("id") is no longer known to be that job's scope.
    vscode.workspace.onDidChangeTextDocument((e) => { if (e.document.languageId === 'logpush-job') jobScopes.edited(e.document.uri.toString(), () => e.document.getText()); }),
    // A ruleset document closed is no longer its zone's configuration (reopened, it is a document like any other).
    rulesetZones.forgetOnClose(vscode.workspace.onDidCloseTextDocument),
    (ctx.zones.view = vscode.window.createTreeView('edgekit.zones', { treeDataProvider: ctx.zones, showCollapseAll: false })),
    ctx.securityEvents,
    registerTasks(context),
    trackJobContext(),
    trackDocumentShown(context.globalState),
    trackMockStarted(context.globalState, backend),
    trackRequestSent(context.globalState, responses),
    (ctx.deliveries = new DeliveredBatches(async () => commandsModule().mockControlFor(ctx, false))),
    (ctx.reports = new Reports()),
    (ctx.securityEvents.view = vscode.window.createTreeView('edgekit.securityEvents', { treeDataProvider: ctx.securityEvents, showCollapseAll: true })),
    // Both views show the backend as it is now: after a mock start, stop or reset, new credentials or another backend.
    backend.onDidChange(() => {
      ctx.zones.refresh();
      void ctx.securityEvents.refresh();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Another backend: the zone the Security Events view shows is not one of its zones (the view compares the backends).
      if (e.affectsConfiguration('edgekit.backend') || e.affectsConfiguration('edgekit.api.baseUrl')) ctx.securityEvents.backendChanged();
      if (e.affectsConfiguration('edgekit')) backend?.configurationChanged(e).catch((err) => log.error('Applying EdgeKit settings failed', err));
    }),
  );
  // The server starts with the first EdgeKit document (or the first command that needs it), not here: see languageServer.ts.
  server.startWithFirstDocument();
  if (Config.mockAutoStart() && Config.backend() === 'embedded') {
    backend.startMock().catch((err) => log.error('The embedded mock backend did not start', err));
  }
  log.info(`EdgeKit ${context.extension.packageJSON.version} started.`);
  // A number setting the schema refuses (a timeout of 0.5 s) is said once, not used silently
  context.subscriptions.push(reportUnusedNumberSettings((m) => log.warn(m)));
  void status.update();
  return { ctx };
}

export async function deactivate(): Promise<void> {
  await Promise.allSettled([server?.stop(), backend?.dispose()]);
  server = undefined;
  backend = undefined;
}
