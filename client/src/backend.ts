// Where commands send requests: the embedded mock backend (started on demand) or the configured real endpoints with credentials
// from SecretStorage. A saved credential is sent only to the host it was saved for; a new host needs the user's confirmation.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Config } from './config';
import { log } from './log';
import type { MockBackend, startMockBackend as StartMockBackend } from './mock/backend';
import { UserError } from './commands/run';
import type { Ui } from './ui';

export interface Endpoints {
  embedded: boolean;
  gatewayUrl: string;
  apiBaseUrl: string;
  apiToken?: string;
  apiKey?: string;
  apiEmail?: string;
}

interface SavedCredentials { host: string; apiToken?: string; apiKey?: string; apiEmail?: string }

const SECRET_KEY = 'edgekit.api.credentials';

export class Backend implements vscode.Disposable {
  private mock: MockBackend | undefined;
  private starting: Promise<MockBackend> | undefined;
  private readonly item = vscode.window.createStatusBarItem('edgekit.mockStatus', vscode.StatusBarAlignment.Left, 10);
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly context: vscode.ExtensionContext, private readonly ui: () => Ui) {
    this.item.name = 'EdgeKit mock backend';
    this.render();
  }

  get running(): MockBackend | undefined { return this.mock; }

  private render(): void {
    if (this.mock) {
      const u = new URL(this.mock.url);
      this.item.text = `$(server-process) EdgeKit mock :${u.port}`;
      this.item.tooltip = new vscode.MarkdownString(`**EdgeKit mock backend** is running on loopback.\n\n- Gateway: \`${this.mock.gatewayUrl}\`\n- API: \`${this.mock.apiBaseUrl}\`\n\nClick to stop it.`);
      this.item.command = 'edgekit.mock.stop';
      this.item.show();
    } else if (Config.backend() === 'embedded') {
      this.item.text = '$(circle-slash) EdgeKit mock';
      this.item.tooltip = 'The EdgeKit mock backend is stopped; it starts on demand. Click to start it now.';
      this.item.command = 'edgekit.mock.start';
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  /** Starts the embedded mock backend if it is not running (concurrent callers share one start). */
  async startMock(): Promise<MockBackend> {
    if (this.mock) return this.mock;
    if (!this.starting) {
      const stateDir = this.context.globalStorageUri.fsPath;
      await vscode.workspace.fs.createDirectory(this.context.globalStorageUri);
      this.starting = loadMock(this.context)({
        host: '127.0.0.1', port: Config.mockPort(), stateFile: path.join(stateDir, 'mock-state.json'),
        log: (line) => log.info(`[mock] ${line}`),
      }).then((m) => {
        this.mock = m;
        log.info(`Mock backend started: gateway ${m.gatewayUrl}, API ${m.apiBaseUrl}.`);
        this.render();
        this.changed.fire();
        return m;
      }).finally(() => { this.starting = undefined; });
    }
    return this.starting;
  }

  async stopMock(): Promise<void> {
    const m = this.mock ?? (this.starting ? await this.starting : undefined);
    if (!m) return;
    this.mock = undefined;
    await m.close();
    log.info('Mock backend stopped.');
    this.render();
    this.changed.fire();
  }

  async resetMock(): Promise<void> {
    const m = await this.startMock();
    await m.reset();
    log.info('Mock backend reset to its initial state.');
    this.changed.fire();
  }

  /** The endpoints and credentials for the next request; starts the mock when it is the chosen backend. */
  async endpoints(need: 'gateway' | 'api'): Promise<Endpoints> {
    if (Config.backend() === 'embedded') {
      const m = await this.startMock();
      return { embedded: true, gatewayUrl: m.gatewayUrl, apiBaseUrl: m.apiBaseUrl, ...m.credentials };
    }
    if (!vscode.workspace.isTrusted) throw new UserError('Requests to real endpoints are disabled in an untrusted workspace.');
    const gatewayUrl = Config.gatewayUrl();
    const apiBaseUrl = Config.apiBaseUrl();
    if (need === 'gateway') {
      if (!gatewayUrl) throw new UserError('Setting "edgekit.gateway.url" is empty; set it to your gateway URL (…/v1/<network>) or switch "edgekit.backend" to embedded.');
      return { embedded: false, gatewayUrl, apiBaseUrl };
    }
    if (!apiBaseUrl) throw new UserError('Setting "edgekit.api.baseUrl" is empty; set it to the management API base (…/client/v4) or switch "edgekit.backend" to embedded.');
    const host = hostOf(apiBaseUrl, 'edgekit.api.baseUrl');
    const saved = await this.savedCredentials();
    if (!saved) throw new UserError('No API credentials saved; run "EdgeKit: Set API Credentials" first.');
    if (saved.host !== host) {
      const ok = await this.ui().ask(
        `Your EdgeKit API credentials were saved for ${saved.host}. Send them to ${host}?`, ['Send to this host'],
        { modal: true, detail: `"edgekit.api.baseUrl" now points at ${host}. Only confirm if you trust that host with your API token.` });
      if (ok !== 'Send to this host') throw new vscode.CancellationError();
      await this.saveCredentials({ ...saved, host });
    }
    return { embedded: false, gatewayUrl, apiBaseUrl, apiToken: saved.apiToken, apiKey: saved.apiKey, apiEmail: saved.apiEmail };
  }

  async savedCredentials(): Promise<SavedCredentials | undefined> {
    const raw = await this.context.secrets.get(SECRET_KEY);
    if (!raw) return undefined;
    try {
      const v = JSON.parse(raw) as SavedCredentials;
      return typeof v.host === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }

  async saveCredentials(c: SavedCredentials): Promise<void> {
    await this.context.secrets.store(SECRET_KEY, JSON.stringify(c));
  }

  async clearCredentials(): Promise<void> {
    await this.context.secrets.delete(SECRET_KEY);
  }

  async dispose(): Promise<void> {
    this.item.dispose();
    this.changed.dispose();
    await this.stopMock();
  }
}

/** The mock backend is its own bundle (dist/mock.js), loaded on first use: it carries the checking core and the synthetic chain,
 * which the extension's start-up does not need. */
function loadMock(context: vscode.ExtensionContext): typeof StartMockBackend {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(context.asAbsolutePath(path.join('dist', 'mock.js'))) as { startMockBackend: typeof StartMockBackend };
  return mod.startMockBackend;
}

export function hostOf(url: string, setting: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    return u.host;
  } catch {
    throw new UserError(`Setting "${setting}" is not a valid http(s) URL: "${url}".`);
  }
}
