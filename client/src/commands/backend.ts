// Commands: the embedded mock backend and the API credentials.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { originOf } from '../backend';
import { Config } from '../config';
import { UserError } from './run';

export const backendCommands = {
  'edgekit.mock.start': (ctx: Ctx) => async () => {
    const m = await ctx.backend.startMock();
    void vscode.window.showInformationMessage(`EdgeKit mock backend: gateway ${m.gatewayUrl} · API ${m.apiBaseUrl}`);
    return { gatewayUrl: m.gatewayUrl, apiBaseUrl: m.apiBaseUrl };
  },
  'edgekit.mock.stop': (ctx: Ctx) => async () => {
    await ctx.backend.stopMock();
  },
  'edgekit.mock.reset': (ctx: Ctx) => async () => {
    await ctx.backend.resetMock();
    void vscode.window.showInformationMessage('EdgeKit mock backend reset: zones not migrated, no Logpush jobs.');
  },
  'edgekit.setApiCredentials': (ctx: Ctx) => async () => {
    const baseUrl = Config.apiBaseUrl();
    if (!baseUrl) throw new UserError('Set "edgekit.api.baseUrl" first; credentials are saved for that host only.');
    const host = originOf(baseUrl, 'edgekit.api.baseUrl');
    const apiToken = await vscode.window.showInputBox({ title: `API token for ${host} (migration operations)`, password: true, ignoreFocusOut: true, prompt: 'Sent as "Authorization: Bearer …". Stored in VS Code secret storage.' });
    if (apiToken === undefined) return;
    const apiKey = await vscode.window.showInputBox({ title: `API key for ${host} (Logpush, optional)`, password: true, ignoreFocusOut: true, prompt: 'Sent as X-Auth-Key. Leave empty to skip.' });
    if (apiKey === undefined) return;
    const apiEmail = apiKey ? await vscode.window.showInputBox({ title: `Account email for ${host}`, ignoreFocusOut: true, prompt: 'Sent as X-Auth-Email with the API key.' }) : '';
    if (apiEmail === undefined) return;
    await ctx.backend.saveCredentials({ host, apiToken: apiToken || undefined, apiKey: apiKey || undefined, apiEmail: apiEmail || undefined });
    void vscode.window.showInformationMessage(`EdgeKit API credentials saved for ${host}.`);
  },
  'edgekit.clearApiCredentials': (ctx: Ctx) => async () => {
    await ctx.backend.clearCredentials();
    void vscode.window.showInformationMessage('EdgeKit API credentials removed from secret storage.');
  },
};
