// Commands: the embedded mock backend and the API credentials.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { originOf } from '../backend';
import { Config } from '../config';
import { UserError } from './run';
import { MultiStepInput, type Step } from '../multiStep';
import { checkCredentials, type CredentialCheck } from '../http/api';
import { isLoopbackHost } from '../http/request';

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
  // The credentials asked next are sent to this address at once (the check) and with every request: over plain HTTP only to this
  // machine (a local mock or proxy), never across a network in the clear, where "http" for "https" is an easy slip (rv44).
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    return `https:// for ${u.host}: the API token or key would cross the network unencrypted (http:// only to this machine: localhost, 127.0.0.1, [::1]). `
      + 'An API reachable only over http:// can be set as "edgekit.api.baseUrl" in the settings.';
  }
  return undefined;
}

/** What Set API Credentials… says when secret storage refused the credentials (`err`), once `putBack` (the address written before
 * them, set back as it was) has run. */
async function credentialsNotStored(ctx: Ctx, err: unknown, putBack?: () => Thenable<void>): Promise<string> {
  let said = `Nothing was saved: storing the credentials in VS Code's secret storage failed (${err instanceof Error ? err.message : String(err)})`;
  if (putBack) {
    try {
      await putBack();
      said += ', so "edgekit.api.baseUrl" was put back as it was.';
    } catch (again) {
      said += `, and putting "edgekit.api.baseUrl" back as it was failed too (${again instanceof Error ? again.message : String(again)}): it names the new address, with the credentials saved before.`;
    }
  } else said += '.';
  // Whatever was saved before is kept; what it was is said when the store can be read (rv40: one that could not be read either was
  // said to hold none).
  const kept = await ctx.backend.savedCredentials().then((saved) => (saved ? `The credentials saved before (for ${saved.host}) are kept.` : 'No credentials are saved.'),
    () => 'The credentials saved before (if any) are kept.');
  return `${said} ${kept}`;
}

/** The answers of Set API Credentials…, kept between its steps (a step gone Back to shows its answer again). */
interface CredentialAnswers {
  /** "edgekit.api.baseUrl" when it is set (the address is not asked then). */
  setBaseUrl?: string;
  /** The address entered, kept in the user settings once the last step is answered. */
  baseUrl?: string;
  apiToken?: string;
  apiKey?: string;
  apiEmail?: string;
  /** What the check of the last answers found (undefined: nothing was checked, as nothing was entered or `unchecked` says why). */
  checked?: CredentialCheck;
  /** Why the answers were not checked, said when they are saved (an untrusted workspace sends no request to a real endpoint). */
  unchecked?: string;
}

/** The steps the answers so far lead to: the address when unset, the token, the key, and the email once a key was entered. */
const credentialSteps = (s: CredentialAnswers) => (s.setBaseUrl ? 0 : 1) + 2 + (s.apiKey ? 1 : 0);
const hostOf = (s: CredentialAnswers) => originOf(s.setBaseUrl || s.baseUrl || '', 'edgekit.api.baseUrl');

const askBaseUrl: Step<CredentialAnswers> = async (input, s) => {
  s.baseUrl = (await input.showInputBox({
    title: 'Management API base URL ("edgekit.api.baseUrl")', totalSteps: credentialSteps(s), value: s.baseUrl ?? PLATFORM_API, ignoreFocusOut: true,
    prompt: 'The API these credentials are for, ending in /client/v4; saved in your user settings. The embedded mock needs none.',
    placeholder: `The API's address, such as ${PLATFORM_API}`, validate: baseUrlProblem,
  })).trim();
  return askToken;
};
const askToken: Step<CredentialAnswers> = async (input, s) => {
  // Trimmed, as a pasted one often ends in a space or newline: one of spaces alone is none (rv47: it passed as given, went
  // unchecked, since checkCredentials trims, and was saved as "   ", with "saved for <host>.").
  s.apiToken = (await input.showInputBox({
    title: `API token for ${hostOf(s)} (migration operations)`, totalSteps: credentialSteps(s), value: s.apiToken, password: true, ignoreFocusOut: true,
    prompt: 'Sent as "Authorization: Bearer …". Stored in VS Code secret storage. Leave empty to use an API key and email instead.',
    placeholder: 'Paste an API token, or press Enter to use an API key instead',
  })).trim();
  return askKey;
};
const askKey: Step<CredentialAnswers> = async (input, s) => {
  s.apiKey = (await input.showInputBox({
    title: `API key for ${hostOf(s)} (Logpush, optional)`, totalSteps: credentialSteps(s), value: s.apiKey, password: true, ignoreFocusOut: true,
    prompt: 'Sent as X-Auth-Key. Leave empty to skip.',
    placeholder: 'Paste the Global API Key, or press Enter to skip',
  })).trim();
  return s.apiKey ? askEmail : checkEntered;
};
const askEmail: Step<CredentialAnswers> = async (input, s) => {
  s.apiEmail = await input.showInputBox({
    title: `Account email for ${hostOf(s)}`, totalSteps: credentialSteps(s), value: s.apiEmail, ignoreFocusOut: true,
    prompt: 'Sent as X-Auth-Email with the API key.', placeholder: 'The account\'s email, such as you@example.com',
    validate: (v) => (v.trim() ? undefined : 'The API key is sent with the account\'s email.'),
  });
  return checkEntered;
};
/** The last step: the credentials entered are checked against the API before anything is saved (a pick shown busy meanwhile: Back
 * returns to the step before, Escape aborts the request); when the check fails, a modal warning says why in full and asks: re-enter
 * them (back to the first step, every answer kept) or save them anyway; Cancel or Escape saves nothing (ux3: the reason was a
 * quick pick's placeholder, cut at the widget's width before the cause). */
const checkEntered: Step<CredentialAnswers> = async (input, s) => {
  s.checked = undefined;
  s.unchecked = undefined;
  if (!s.apiToken && !s.apiKey) return undefined;
  // The address is the user's (VS Code ignores a workspace's "edgekit.api.baseUrl" there), but EdgeKit promises an untrusted
  // workspace no request to a real endpoint (package.json's untrustedWorkspaces): the check is not sent, and that is said (rv44).
  if (!vscode.workspace.isTrusted) {
    s.unchecked = 'They were not checked with the API: requests to real endpoints are disabled in an untrusted workspace.';
    return undefined;
  }
  const host = hostOf(s);
  const checked = await input.showBusy({ title: `Checking the credentials with ${host}`, totalSteps: credentialSteps(s), placeholder: 'Asking the API whether it accepts them…' },
    (signal) => checkCredentials({ baseUrl: s.setBaseUrl || s.baseUrl || '', token: s.apiToken, apiKey: s.apiKey, apiEmail: s.apiEmail,
      timeoutMs: Config.requestTimeoutMs() }, { signal }));
  s.checked = checked;
  if (checked.ok) return undefined;
  // Re-enter first: the dialog's default, so Enter on a failed check saves nothing.
  // Not reached: nothing is known of them, and "did not pass" would send the user to re-enter good ones (rv47).
  const chosen = await input.askModal(`The credentials for ${host} ${checked.unreached ? 'could not be checked' : 'did not pass the check'}. Save them anyway?`,
    `${checked.words}\n\nRe-enter goes back to the first step with what was entered; Save anyway keeps them as entered.`, ['Re-enter', 'Save anyway']);
  return chosen === 'Re-enter' ? (s.setBaseUrl ? askToken : askBaseUrl) : undefined;
};

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
    // The walkthrough's "Use a real account" runs this on a fresh install: with no "edgekit.api.baseUrl" the API's address is asked
    // first (the platform's own is offered), rather than a refusal that sends the user to the settings first.
    const state: CredentialAnswers = { setBaseUrl: Config.apiBaseUrl() };
    if (!(await MultiStepInput.run(state.setBaseUrl ? askToken : askBaseUrl, state))) return;
    const { apiToken = '', apiKey = '', apiEmail = '' } = state;
    // Saving would replace what is saved with credentials that cannot authenticate (and say "saved").
    if (!apiToken && !apiKey) throw new UserError(`Nothing was saved: neither an API token nor an API key was entered. The credentials saved before (if any) are kept; "EdgeKit: Clear API Credentials" removes them.`);
    if (apiKey && !apiEmail) throw new UserError('Nothing was saved: the API key needs the account\'s email (X-Auth-Key is sent with X-Auth-Email). Run "EdgeKit: Set API Credentials…" again.');
    // Kept only now, with the credentials: a flow ended at any step (or refused above) leaves the settings as they were. (A failed
    // write of the address is VS Code's error, which names the settings file; nothing else was written yet.)
    const settings = vscode.workspace.getConfiguration('edgekit');
    const before = settings.inspect<string>('api.baseUrl')?.globalValue;
    if (!state.setBaseUrl) await settings.update('api.baseUrl', state.baseUrl, vscode.ConfigurationTarget.Global);
    const host = hostOf(state);
    try {
      await ctx.backend.saveCredentials({ host, apiToken: apiToken || undefined, apiKey: apiKey || undefined, apiEmail: apiEmail || undefined });
    } catch (err) {
      // Secret storage refused (no keyring on Linux, a locked one): the address written above would point at the backend with the
      // credentials saved before (another host's) or none; it is put back, and the step that failed is said.
      throw new UserError(await credentialsNotStored(ctx, err, state.setBaseUrl ? undefined : () => settings.update('api.baseUrl', before, vscode.ConfigurationTarget.Global)));
    }
    const used = Config.backend() === 'remote' ? '' : ' They are used once "edgekit.backend" is "remote"; the embedded mock is in use now.';
    const checked = state.checked;
    if (checked && !checked.ok) void vscode.window.showWarningMessage(`EdgeKit API credentials saved for ${host} as entered, though the check failed: ${checked.words}${used}`);
    else void vscode.window.showInformationMessage(`EdgeKit API credentials saved for ${host}.${checked ? ` ${checked.words}` : state.unchecked ? ` ${state.unchecked}` : ''}${used}`);
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
      const asked: { accessKeyId?: string; secretAccessKey?: string } = {};
      const askSecret: Step<typeof asked> = async (input) => {
        asked.secretAccessKey = await input.showInputBox({ title: `S3 secret access key for ${origin}`, totalSteps: 2, value: asked.secretAccessKey, password: true, ignoreFocusOut: true,
          prompt: 'Stored in VS Code secret storage.', placeholder: 'Paste the secret access key (minioadmin for a local MinIO)',
          validate: (v) => (v ? undefined : 'A secret access key.') });
        return undefined;
      };
      const askId: Step<typeof asked> = async (input) => {
        asked.accessKeyId = await input.showInputBox({ title: `S3 access key id for ${origin}`, totalSteps: 2, value: asked.accessKeyId, ignoreFocusOut: true,
          prompt: 'The embedded mock signs its Logpush uploads with it. Stored in VS Code secret storage.',
          placeholder: 'An access key id, such as AKIAIOSFODNN7EXAMPLE (or minioadmin for a local MinIO)', validate: (v) => (v.trim() ? undefined : 'An access key id.') });
        return askSecret;
      };
      if (!(await MultiStepInput.run(askId, asked)) || asked.accessKeyId === undefined || asked.secretAccessKey === undefined) throw new vscode.CancellationError();
      keys = { accessKeyId: asked.accessKeyId.trim(), secretAccessKey: asked.secretAccessKey };
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
