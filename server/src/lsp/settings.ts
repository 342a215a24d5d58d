// Settings. With workspace/configuration (VS Code, and clients that support it): asked once per workspace folder and language
// (resource-scoped settings resolve per folder, and a "[language]" block can differ), the promise cached until settings change;
// a document outside every folder is asked for on its own and forgotten when it closes; a client that answers null (it has no
// "edgekit" section) gets the settings it pushed. Without it (many editors): the "edgekit" section of initializationOptions (under
// "settings" or at its top), then of each workspace/didChangeConfiguration, else the defaults.
import type { Connection } from './context';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../protocol';

export class SettingsCache {
  private readonly cache = new Map<string, Promise<Settings>>();
  /** The settings pushed by a client without workspace/configuration. */
  private global: Settings = DEFAULT_SETTINGS;

  /** The workspace folders' URIs, longest first (initialize's workspaceFolders). */
  private folders: string[] = [];

  constructor(private readonly connection: Connection, private readonly supportsConfiguration: () => boolean) {}

  setFolders(uris: string[]): void {
    this.folders = uris.map((u) => (u.endsWith('/') ? u : `${u}/`)).sort((a, b) => b.length - a.length);
    this.cache.clear();
  }

  /** The settings for a document: one workspace/configuration round trip per folder and language, not one per document. */
  get(uri: string, languageId = ''): Promise<Settings> {
    if (!this.supportsConfiguration()) return Promise.resolve(this.global);
    const folder = this.folders.find((f) => uri.startsWith(f));
    const key = `${folder ?? uri}|${languageId}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    // A client can support workspace/configuration and still have no "edgekit" section (Neovim, Zed and Sublime Text answer
    // null for a section their configuration lacks): then the settings it sent in initializationOptions count.
    const p: Promise<Settings> = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'edgekit' })
      .then((raw: unknown) => (raw === null || raw === undefined ? this.global : normalizeSettings(raw)), () => this.global);
    this.cache.set(key, p);
    return p;
  }

  /** Settings a client sent itself (initializationOptions, or didChangeConfiguration's settings): `{ edgekit: {...} }`, or the
   * section alone. */
  pushed(raw: unknown): void {
    const r = raw && typeof raw === 'object' ? raw as Record<string, unknown> : {};
    this.global = normalizeSettings('edgekit' in r ? r.edgekit : r);
  }

  /** A closed document outside every folder: its entries go (a folder's stay for the next document there). */
  drop(uri: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(`${uri}|`)) this.cache.delete(key);
  }
  clear(): void { this.cache.clear(); }
}
