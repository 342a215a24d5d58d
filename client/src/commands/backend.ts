// Commands: the embedded mock backend and the API credentials.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { originOf } from '../backend';
import { Config } from '../config';
import { UserError } from './run';

/** The platform's management API, offered when no base URL is set. */
const PLATFORM_API = 'https://api.cloudflare.com/client/v4';

/** Why `value` cannot be kept as "edgekit.api.baseUrl" (undefined: it can). The settings file is plain text: a user name, password
 * or query (where a pasted token would ride) is refused, since the credentials are asked next and kept in secret storage. */
export function baseUrlProblem(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    u = new URL('invalid:');
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || !/^\s*https?:\/\/\S+\s*$/i.test(value)) return `An http:// or https:// URL, such as ${PLATFORM_API}.`;
  if (u.username || u.password) return 'No user name or password in the address: it is kept in your settings file; the credentials are asked next and kept in secret storage.';
  if (/[?#]/.test(value)) return `No query or "#" in the address (the API's paths are added to its end), such as ${PLATFORM_API}.`;
  return undefined;
}

export const backendCommands = {
  'edgekit.mock.start': (ctx: Ctx) => async () => {
    const m = await ctx.backend.startMock();
    void vscode.window.showInformationMessage(`EdgeKit mock backend: gateway ${m.gatewayUrl} · API ${m.apiBaseUrl}`);
    return { gatewayUrl: m.gatewayUrl, apiBaseUrl: m.apiBaseUrl };
  },
  'edgekit.mock.stop': (ctx: Ctx) => async () => {
    if (!(await ctx.backend.stopMock())) void vscode.window.showInformationMessage('EdgeKit: the embedded mock backend is not running.');
  },
  'edgekit.mock.reset': (ctx: Ctx) => async () => {
    await ctx.backend.resetMock();
    void vscode.window.showInformationMessage('EdgeKit mock backend reset: zones not migrated, no Logpush jobs.');
  },
  'edgekit.setApiCredentials': (ctx: Ctx) => async () => {
    let baseUrl = Config.apiBaseUrl();
    if (!baseUrl) {
      // The walkthrough's "Use a real account" runs this on a fresh install: the API's address is asked (the platform's own is
      // offered) and kept in the user settings, rather than a refusal that sends the user to the settings first.
      const entered = await vscode.window.showInputBox({
        title: 'Management API base URL ("edgekit.api.baseUrl")', value: PLATFORM_API, ignoreFocusOut: true,
        prompt: 'The API these credentials are for, ending in /client/v4; saved in your user settings. The embedded mock needs none.',
        validateInput: baseUrlProblem,
      });
      if (entered === undefined) return;
      baseUrl = entered.trim();
      await vscode.workspace.getConfiguration('edgekit').update('api.baseUrl', baseUrl, vscode.ConfigurationTarget.Global);
    }
    const host = originOf(baseUrl, 'edgekit.api.baseUrl');
    const apiToken = await vscode.window.showInputBox({ title: `API token for ${host} (migration operations)`, password: true, ignoreFocusOut: true, prompt: 'Sent as "Authorization: Bearer …". Stored in VS Code secret storage. Leave empty to use an API key and email instead.' });
    if (apiToken === undefined) return;
    const apiKey = await vscode.window.showInputBox({ title: `API key for ${host} (Logpush, optional)`, password: true, ignoreFocusOut: true, prompt: 'Sent as X-Auth-Key. Leave empty to skip.' });
    if (apiKey === undefined) return;
    const apiEmail = apiKey ? await vscode.window.showInputBox({ title: `Account email for ${host}`, ignoreFocusOut: true, prompt: 'Sent as X-Auth-Email with the API key.', validateInput: (v) => (v.trim() ? undefined : 'The API key is sent with the account\'s email.') }) : '';
    if (apiEmail === undefined) return;
    // Saving would replace what is saved with credentials that cannot authenticate (and say "saved").
    if (!apiToken && !apiKey) throw new UserError(`Nothing was saved: neither an API token nor an API key was entered. The credentials saved before (if any) are kept; "EdgeKit: Clear API Credentials" removes them.`);
    if (apiKey && !apiEmail) throw new UserError('Nothing was saved: the API key needs the account\'s email (X-Auth-Key is sent with X-Auth-Email). Run "EdgeKit: Set API Credentials…" again.');
    await ctx.backend.saveCredentials({ host, apiToken: apiToken || undefined, apiKey: apiKey || undefined, apiEmail: apiEmail || undefined });
    const used = Config.backend() === 'remote' ? '' : ' They are used once "edgekit.backend" is "remote"; the embedded mock is in use now.';
    void vscode.window.showInformationMessage(`EdgeKit API credentials saved for ${host}.${used}`);
  },
  /** The keys of "edgekit.mock.s3Endpoint" for the embedded mock's s3:// and r2:// deliveries; `{ accessKeyId, secretAccessKey }`
   * as an argument (tests, other extensions) or asked; `null` removes them. A running mock this window started restarts with them. */
  'edgekit.mock.setBucketCredentials': (ctx: Ctx) => async (given?: unknown) => {
    const endpoint = Config.mockS3Endpoint();
    if (!endpoint) throw new UserError('Set "edgekit.mock.s3Endpoint" first (e.g. http://127.0.0.1:9000): the keys are saved for that endpoint only.',
      [{ title: 'Open Settings', command: 'workbench.action.openSettings', args: ['edgekit.mock.s3Endpoint'] }]);
    const origin = originOf(endpoint, 'edgekit.mock.s3Endpoint');
    let keys: { accessKeyId: string; secretAccessKey: string } | undefined;
    if (given === null) keys = undefined;
    else if (given && typeof given === 'object') {
      const g = given as Record<string, unknown>;
      if (typeof g.accessKeyId !== 'string' || !g.accessKeyId || typeof g.secretAccessKey !== 'string' || !g.secretAccessKey) {
        throw new UserError('edgekit.mock.setBucketCredentials takes { accessKeyId, secretAccessKey }, two non-empty strings.');
      }
      keys = { accessKeyId: g.accessKeyId, secretAccessKey: g.secretAccessKey };
    } else {
      const accessKeyId = await vscode.window.showInputBox({ title: `S3 access key id for ${origin}`, ignoreFocusOut: true, prompt: 'The embedded mock signs its Logpush uploads with it. Stored in VS Code secret storage.', validateInput: (v) => (v.trim() ? undefined : 'An access key id.') });
      if (accessKeyId === undefined) throw new vscode.CancellationError();
      const secretAccessKey = await vscode.window.showInputBox({ title: `S3 secret access key for ${origin}`, password: true, ignoreFocusOut: true, validateInput: (v) => (v ? undefined : 'A secret access key.') });
      if (secretAccessKey === undefined) throw new vscode.CancellationError();
      keys = { accessKeyId: accessKeyId.trim(), secretAccessKey };
    }
    await ctx.backend.saveMockS3(keys && { endpoint: origin, ...keys });
    // The mock reads them when it starts: restart one this window runs (a shared one belongs to another window).
    const restarted = !!ctx.backend.running && !ctx.backend.isShared;
    if (restarted) {
      await ctx.backend.stopMock();
      await ctx.backend.startMock();
    }
    const what = keys ? `S3 keys saved for ${origin}` : `S3 keys for ${origin} removed`;
    void vscode.window.showInformationMessage(`EdgeKit: ${what}${restarted ? '; the mock backend restarted with them' : '; the mock uses them from its next start'}.`);
    return { endpoint: origin, saved: !!keys, restarted };
  },
  'edgekit.clearApiCredentials': (ctx: Ctx) => async () => {
    const saved = await ctx.backend.savedCredentials();
    await ctx.backend.clearCredentials();
    void vscode.window.showInformationMessage(saved ? `EdgeKit API credentials for ${saved.host} removed from secret storage.`
      : 'EdgeKit: no API credentials are saved; there was nothing to remove.');
  },
};
