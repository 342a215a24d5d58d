// Where commands send requests: the embedded mock backend (started on demand) or the configured real endpoints with credentials
// from SecretStorage. A saved credential is sent only to the host it was saved for; a new host needs the user's confirmation.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Config } from './config';
import { log, redact } from './log';
import type * as MockModule from '../../mock/src/index';
import type { Credentials, MockBackend } from '../../mock/src/index';
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

/** host: the origin (scheme://host:port) the credentials were saved for. */
interface SavedCredentials { host: string; apiToken?: string; apiKey?: string; apiEmail?: string }

const SECRET_KEY = 'edgekit.api.credentials';
/** The embedded mock's S3 keys (for "edgekit.mock.s3Endpoint"), kept for the endpoint they were given for. */
const S3_SECRET_KEY = 'edgekit.mock.s3Credentials';
export interface MockS3Credentials { endpoint: string; accessKeyId: string; secretAccessKey: string }
/** A mock start (files, port, asking another window's mock) that takes longer than this has failed. */
const START_TIMEOUT_MS = 20_000;
/** Offered when the remote backend lacks a URL: set it, or go back to the embedded mock. */
export const SETTINGS_ACTIONS = (setting: string) => [
  { title: `Set ${setting}`, command: 'workbench.action.openSettings', args: [setting] },
  { title: 'Use the Embedded Mock', command: 'workbench.action.openSettings', args: ['edgekit.backend'] },
];

/** A warning about a setting's value with the way out it names: a button that opens the Settings editor on the setting (as
 * SETTINGS_ACTIONS offer beside an error). */
function warnOfSetting(setting: string, text: string): void {
  const title = `Set ${setting}`;
  void vscode.window.showWarningMessage(`EdgeKit: ${text}`, title).then((pick) => {
    if (pick === title) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
  });
}

/** A view refreshing on its own found the embedded mock stopped: its welcome content (Start Mock Backend) says what to do. */
export class MockNotRunning extends UserError {
  constructor() {
    super('The embedded mock backend is not running.', [{ title: 'Start Mock Backend', command: 'edgekit.mock.start' }]);
  }
}

/** The context key that is true while this window has a mock backend (its own or another window's). */
export const MOCK_RUNNING = 'edgekit.mockRunning';

export class Backend implements vscode.Disposable {
  private mock: MockBackend | undefined;
  /** The mock serving this window runs in another window's extension host. */
  private shared = false;
  private starting: Promise<MockBackend> | undefined;
  /** The close of the mock last stopped, until it has closed (it waits for the requests it is answering, then saves its state). */
  private stopping: Promise<void> | undefined;
  private readonly item = vscode.window.createStatusBarItem('edgekit.mockStatus', vscode.StatusBarAlignment.Left, 10);
  private readonly changed = new vscode.EventEmitter<void>();
  /** The value last given to the `edgekit.mockRunning` context key. */
  private runningContext: boolean | undefined;
  readonly onDidChange = this.changed.event;
  /** Trust granted: real endpoints may be reached now (no setting changes, so nothing else tells the views to read again). */
  private readonly trusted = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());

  constructor(private readonly context: vscode.ExtensionContext, private readonly ui: () => Ui) {
    this.item.name = 'EdgeKit mock backend';
    this.render();
  }

  get running(): MockBackend | undefined { return this.mock; }
  /** Whether the running mock is another window's. */
  get isShared(): boolean { return this.shared; }

  private render(): void {
    // Menus read it: Start or Stop in the palette. (The walkthrough reads walkthrough.ts edgekit.mockStarted, which stays true.)
    const running = this.mock !== undefined;
    if (running !== this.runningContext) {
      this.runningContext = running;
      void vscode.commands.executeCommand('setContext', MOCK_RUNNING, running);
    }
    if (this.mock) {
      const u = new URL(this.mock.url);
      this.item.text = `$(server-process) EdgeKit mock :${u.port}${this.shared ? ' (shared)' : ''}`;
      const whose = this.shared ? 'is running in another window, and this window uses it' : 'is running on loopback';
      const click = this.shared ? 'Click to stop using it (the other window keeps it running).' : 'Click to stop it.';
      // The gateway's address is what the user's own code (ethers, viem) needs: a link copies it (clicking the item stops the mock).
      const tooltip = new vscode.MarkdownString(`**EdgeKit mock backend** ${whose}.\n\n- Gateway: \`${this.mock.gatewayUrl}\` [Copy](command:edgekit.gateway.copyUrl)\n- API: \`${this.mock.apiBaseUrl}\`\n\n${click}`);
      tooltip.isTrusted = { enabledCommands: ['edgekit.gateway.copyUrl'] };
      this.item.tooltip = tooltip;
      // Read by a screen reader instead of the icon's name and the tooltip's Markdown source (its "**", backticks and command: link).
      this.item.accessibilityInformation = { label: `EdgeKit mock backend ${whose}, port ${u.port}: gateway ${this.mock.gatewayUrl}, API ${this.mock.apiBaseUrl}. ${click}` };
      this.item.command = 'edgekit.mock.stop';
      this.item.show();
    } else if (Config.backend() === 'embedded') {
      this.item.text = '$(circle-slash) EdgeKit mock';
      this.item.tooltip = 'The EdgeKit mock backend is stopped; it starts on demand. Click to start it now.';
      this.item.accessibilityInformation = { label: this.item.tooltip };
      this.item.command = 'edgekit.mock.start';
      this.item.show();
    } else {
      this.item.hide();
    }
  }

  /**
   * Starts the embedded mock backend if it is not running (concurrent callers share one start). On a port another window's
   * EdgeKit mock already serves, that mock is used; on a port held by anything else, the mock starts on a free port and says so.
   */
  startMock(): Promise<MockBackend> {
    if (this.mock) return Promise.resolve(this.mock);
    // Set in the same tick as the check: concurrent callers (auto-start, a command, the Zones view) share one start.
    this.starting ??= (async () => {
      // Each step is named, so that a start that never finishes says where it stopped instead of leaving commands waiting.
      let stage = 'creating the storage folder';
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${START_TIMEOUT_MS / 1000} s while ${stage}`)), START_TIMEOUT_MS);
      });
      try {
        const work = (async () => {
          // Node's fs, not workspace.fs: the storage folder is local to this extension host, and workspace.fs goes through the
          // workbench (in code-server, the browser tab), which may not answer yet while a window is still loading.
          await fs.mkdir(this.context.globalStorageUri.fsPath, { recursive: true });
          stage = 'reading the mock credentials';
          const credentials = await this.mockCredentials();
          stage = 'reading the mock\'s S3 keys from secret storage';
          const s3 = await this.mockS3();
          const rateLimit = this.mockRateLimit();
          // A mock being stopped holds its port and state file until it has closed: a start meanwhile (Stop then Start, a command
          // that needs the mock) was refused as "in use" by it.
          stage = 'waiting for the mock being stopped to close';
          await this.stopping?.catch(() => undefined);
          stage = `starting on port ${Config.mockPort() || '(free port)'}`;
          return this.mockModule().acquireMockBackend({
            host: '127.0.0.1', port: Config.mockPort(), stateFile: path.join(this.context.globalStorageUri.fsPath, 'mock-state.json'),
            credentials, log: (line) => log.info(`[mock] ${line}`), ...(s3 ? { delivery: { s3 } } : {}), ...(rateLimit === undefined ? {} : { rateLimit }),
          });
        })();
        // A start that finishes after the timeout is closed again: nobody holds it.
        stuck.catch(() => work.then((late) => late.backend.close(), () => undefined));
        const got = await Promise.race([stuck, work]);
        this.mock = got.backend;
        this.shared = got.shared;
        if (got.note) {
          log.info(got.note);
          // Not shared: the port was taken and the mock moved (the only note of a start of its own).
          if (!got.shared) warnOfSetting('edgekit.mock.port', got.note);
        }
        log.info(`Mock backend ${got.shared ? 'shared with another window' : 'started'}: gateway ${got.backend.gatewayUrl}, API ${got.backend.apiBaseUrl}.`);
        this.render();
        this.changed.fire();
        return got.backend;
      } catch (err) {
        throw new UserError(`The embedded mock backend did not start on 127.0.0.1:${Config.mockPort() || '(free port)'}: ${(err as Error).message}`,
          [{ title: 'Start Mock Backend', command: 'edgekit.mock.start' }]);
      } finally {
        clearTimeout(timer);
        this.starting = undefined;
      }
    })();
    return this.starting;
  }

  /** edgekit.mock.rateLimit as the mock takes it (false: off); undefined, with a warning naming the setting, when it is not `N/S`
   * or `off`: the mock then keeps the platform's limits. */
  private mockRateLimit(): { perUser: { limit: number; windowSeconds: number } } | false | undefined {
    const parsed = this.mockModule().parseRateLimit(Config.mockRateLimit());
    if (typeof parsed === 'string') {
      const why = `The setting "edgekit.mock.rateLimit" needs N/S (N requests per S seconds per user, e.g. 1200/300) or "off", not "${Config.mockRateLimit()}"; the mock keeps the platform's limits.`;
      log.warn(why);
      warnOfSetting('edgekit.mock.rateLimit', why);
      return undefined;
    }
    return parsed && { perUser: parsed };
  }

  /**
   * The embedded mock's own credentials, made on first use and kept beside its state file (owner-only file mode): every window of
   * this user reads the same ones, so a window can use the mock another window started. They guard a loopback mock's synthetic
   * data only; the user's real API credentials stay in secret storage (which code-server keeps per browser tab, and which did
   * not answer during activation there).
   */
  private async mockCredentials(): Promise<Credentials> {
    const file = path.join(this.context.globalStorageUri.fsPath, 'mock-credentials.json');
    const read = async (): Promise<Credentials | undefined> => {
      try {
        const v = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<Credentials>;
        return typeof v.apiToken === 'string' && typeof v.apiKey === 'string' && typeof v.apiEmail === 'string' ? v as Credentials : undefined;
      } catch {
        return undefined;
      }
    };
    const saved = await read();
    if (saved) return saved;
    const made = this.mockModule().randomCredentials();
    try {
      await fs.writeFile(file, JSON.stringify(made), { mode: 0o600, flag: 'wx' });
      return made;
    } catch {
      // Another window wrote it first (or the file is unreadable junk, which this replaces).
      const theirs = await read();
      if (theirs) return theirs;
      await fs.writeFile(file, JSON.stringify(made), { mode: 0o600 });
      return made;
    }
  }

  /** The mock module (dist/mock.js); a method so that a test can put a probe of its own in front of it. */
  private mockModule(): typeof MockModule {
    return loadMock(this.context);
  }

  /**
   * A shared mock goes away with the window that runs it: then this window starts its own (on the same port, now free). Several
   * callers check at once (a command, the views refreshing): only the mock that was probed is dropped, so a probe that fails late
   * (a dying window's socket) does not drop the mock another caller has started meanwhile.
   */
  private async liveMock(): Promise<MockBackend> {
    const probed = this.mock;
    if (probed && this.shared && !(await this.mockModule().probeMock(probed.url)) && this.mock === probed) {
      log.info(`The shared mock backend at ${probed.url} stopped answering; starting this window's own.`);
      this.mock = undefined;
      this.shared = false;
      // Said now (status bar, edgekit.mockRunning): the start below may fail and leave no mock.
      this.render();
    }
    return this.startMock();
  }

  /** Settings changed: show the right status, stop the mock when it is no longer the backend, move it to a new port. */
  async configurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
    if (e.affectsConfiguration('edgekit.backend') && Config.backend() !== 'embedded') await this.stopMock();
    else if (e.affectsConfiguration('edgekit.mock.autoStart') && Config.mockAutoStart() && Config.backend() === 'embedded' && !this.mock) {
      // Also the case of a window whose user settings arrive after activation (code-server's first load of a profile): the
      // setting read false when the extension activated.
      await this.startMock();
    } else if (e.affectsConfiguration('edgekit.mock.port') && this.mock && Config.mockPort() !== 0 && new URL(this.mock.url).port !== String(Config.mockPort())) {
      await this.stopMock();
      await this.startMock();
    }
    this.render();
    if (e.affectsConfiguration('edgekit.backend') || e.affectsConfiguration('edgekit.api.baseUrl')) this.changed.fire();
  }

  /** Stops (or stops using) the mock; false when none was running or starting. */
  async stopMock(): Promise<boolean> {
    // Stopped again while the last one closes (a second click): that close is this stop too, not "not running".
    if (!this.mock && !this.starting && this.stopping) {
      await this.stopping;
      return true;
    }
    const m = this.mock ?? (this.starting ? await this.starting : undefined);
    if (!m) return false;
    const shared = this.shared;
    this.mock = undefined;
    this.shared = false;
    const closing: Promise<void> = this.stopping = m.close().finally(() => { if (this.stopping === closing) this.stopping = undefined; });
    await closing;
    log.info(shared ? 'Stopped using the mock backend of another window (it keeps running there).' : 'Mock backend stopped.');
    this.render();
    this.changed.fire();
    return true;
  }

  async resetMock(): Promise<void> {
    const m = await this.liveMock();
    await m.reset();
    log.info('Mock backend reset to its initial state.');
    this.changed.fire();
  }

  /**
   * The endpoints and credentials for the next request; starts the mock when it is the chosen backend. With interactive false
   * (views refreshing on their own), nothing is started and nobody is asked: a UserError says what is missing instead.
   */
  async endpoints(need: 'gateway' | 'api', interactive = true): Promise<Endpoints> {
    if (Config.backend() === 'embedded') {
      if (!interactive && !this.mock) throw new MockNotRunning();
      const m = await this.liveMock();
      return { embedded: true, gatewayUrl: m.gatewayUrl, apiBaseUrl: m.apiBaseUrl, ...m.credentials };
    }
    if (!vscode.workspace.isTrusted) throw new UserError('Requests to real endpoints are disabled in an untrusted workspace.');
    const gatewayUrl = Config.gatewayUrl();
    const apiBaseUrl = Config.apiBaseUrl();
    if (need === 'gateway') {
      if (!gatewayUrl) throw new UserError('Setting "edgekit.gateway.url" is empty; set it to your gateway URL (…/v1/<network>) or switch "edgekit.backend" to embedded.', SETTINGS_ACTIONS('edgekit.gateway.url'));
      // Checked here, not by the request: "Send" names the URL's host in its progress (new URL threw "Invalid URL", naming nothing),
      // and "Copy as curl" would copy a command curl cannot run.
      originOf(gatewayUrl, 'edgekit.gateway.url');
      return { embedded: false, gatewayUrl, apiBaseUrl };
    }
    if (!apiBaseUrl) throw new UserError('Setting "edgekit.api.baseUrl" is empty; set it to the management API base (…/client/v4) or switch "edgekit.backend" to embedded.', SETTINGS_ACTIONS('edgekit.api.baseUrl'));
    const host = originOf(apiBaseUrl, 'edgekit.api.baseUrl');
    const saved = await this.savedCredentials();
    if (!saved) throw new UserError('No API credentials saved; run "EdgeKit: Set API Credentials…" first.', [{ title: 'Set API Credentials…', command: 'edgekit.setApiCredentials' }]);
    if (saved.host !== host) {
      if (!interactive) throw new UserError(`The saved API credentials are for ${saved.host}, not ${host}; run a command to confirm the new host.`);
      const ok = await this.ui().ask(
        `Your EdgeKit API credentials were saved for ${saved.host}. Send them to ${host}?`, ['Send to this host'],
        { modal: true, detail: `"edgekit.api.baseUrl" now points at ${host}. Only confirm if you trust that host with your API token.` });
      if (ok !== 'Send to this host') throw new vscode.CancellationError();
      await this.saveCredentials({ ...saved, host });
    }
    return { embedded: false, gatewayUrl, apiBaseUrl, apiToken: saved.apiToken, apiKey: saved.apiKey, apiEmail: saved.apiEmail };
  }

  /**
   * Where the embedded mock uploads s3:// and r2:// Logpush destinations: "edgekit.mock.s3Endpoint" with the keys saved for that
   * endpoint ("EdgeKit: Set Mock S3 Credentials…"). Without an endpoint, or without keys for it (said in the log and once in a
   * warning), buckets are folders of the mock's local delivery folder.
   */
  private async mockS3(): Promise<{ endpoint: string; accessKeyId: string; secretAccessKey: string } | undefined> {
    const endpoint = Config.mockS3Endpoint();
    if (!endpoint) return undefined;
    let origin: string;
    try {
      origin = originOf(endpoint, 'edgekit.mock.s3Endpoint');
    } catch (err) {
      log.warn(`${(err as Error).message} The mock delivers s3:// and r2:// destinations to its local folder.`);
      warnOfSetting('edgekit.mock.s3Endpoint', `${(err as Error).message} The mock delivers s3:// and r2:// destinations to its local folder.`);
      return undefined;
    }
    const saved = await this.savedMockS3();
    if (!saved || saved.endpoint !== origin) {
      const text = `"edgekit.mock.s3Endpoint" is ${origin}, but no S3 keys are saved for it; the mock delivers s3:// and r2:// destinations to its local folder. Run "EdgeKit: Set Mock S3 Credentials…", then restart the mock.`;
      log.warn(text);
      void vscode.window.showWarningMessage(`EdgeKit: ${text}`, 'Set Mock S3 Credentials…').then((pick) => {
        if (pick) void vscode.commands.executeCommand('edgekit.mock.setBucketCredentials');
      });
      return undefined;
    }
    return { endpoint, accessKeyId: saved.accessKeyId, secretAccessKey: saved.secretAccessKey };
  }

  savedMockS3(): Promise<MockS3Credentials | undefined> {
    return this.secretJson<MockS3Credentials>(S3_SECRET_KEY, (v) => typeof v.endpoint === 'string' && typeof v.accessKeyId === 'string' && typeof v.secretAccessKey === 'string');
  }

  /** A JSON object kept in secret storage, or undefined when there is none or it is not what `valid` expects. */
  private async secretJson<T>(key: string, valid: (v: Record<string, unknown>) => boolean): Promise<T | undefined> {
    const raw = await this.context.secrets.get(key);
    if (!raw) return undefined;
    try {
      const v = JSON.parse(raw) as unknown;
      return v !== null && typeof v === 'object' && valid(v as Record<string, unknown>) ? v as T : undefined;
    } catch {
      return undefined;
    }
  }

  async saveMockS3(c: MockS3Credentials | undefined): Promise<void> {
    if (c) await this.context.secrets.store(S3_SECRET_KEY, JSON.stringify(c));
    else await this.context.secrets.delete(S3_SECRET_KEY);
  }

  savedCredentials(): Promise<SavedCredentials | undefined> {
    return this.secretJson<SavedCredentials>(SECRET_KEY, (v) => typeof v.host === 'string');
  }

  /** Saving or clearing them changes what the views can read: they refresh (onDidChange). */
  async saveCredentials(c: SavedCredentials): Promise<void> {
    await this.context.secrets.store(SECRET_KEY, JSON.stringify(c));
    this.changed.fire();
  }

  async clearCredentials(): Promise<void> {
    await this.context.secrets.delete(SECRET_KEY);
    this.changed.fire();
  }

  async dispose(): Promise<void> {
    this.trusted.dispose();
    this.item.dispose();
    this.changed.dispose();
    await this.stopMock();
  }
}

/** The mock backend is its own bundle (dist/mock.js), loaded on first use: it carries the checking core and the synthetic chain,
 * which the extension's start-up does not need. */
function loadMock(context: vscode.ExtensionContext): typeof MockModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(context.asAbsolutePath(path.join('dist', 'mock.js'))) as typeof MockModule;
}

/** Scheme + host + port: credentials saved for https://h are not sent to http://h without asking. */
export function originOf(url: string, setting: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    return u.origin;
  } catch {
    // Quoted through redact(): a pasted http://KEY:SECRET@host with a typo goes to a notification as it is (sec5).
    throw new UserError(`Setting "${setting}" is not a valid http(s) URL: "${redact(url)}".`, [{ title: `Set ${setting}`, command: 'workbench.action.openSettings', args: [setting] }]);
  }
}
