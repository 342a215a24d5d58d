// Settings. With workspace/configuration (VS Code, and clients that support it): per URI, the promise cached per document and
// dropped when it closes or settings change. Without it (many editors): the "edgekit" section of initializationOptions, then of
// each workspace/didChangeConfiguration, else the defaults.
import type { Connection } from './context';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../protocol';

export class SettingsCache {
  private readonly cache = new Map<string, Promise<Settings>>();
  /** The settings pushed by a client without workspace/configuration. */
  private global: Settings = DEFAULT_SETTINGS;

  constructor(private readonly connection: Connection, private readonly supportsConfiguration: () => boolean) {}

  get(uri: string): Promise<Settings> {
    if (!this.supportsConfiguration()) return Promise.resolve(this.global);
    const cached = this.cache.get(uri);
    if (cached) return cached;
    const p: Promise<Settings> = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'edgekit' })
      .then(normalizeSettings, () => DEFAULT_SETTINGS);
    this.cache.set(uri, p);
    return p;
  }

  /** Settings a client sent itself (initializationOptions.settings, or didChangeConfiguration's settings): `{ edgekit: {...} }`,
   * or the section alone. */
  pushed(raw: unknown): void {
    const r = raw && typeof raw === 'object' ? raw as Record<string, unknown> : {};
    this.global = normalizeSettings('edgekit' in r ? r.edgekit : r);
  }

  drop(uri: string): void { this.cache.delete(uri); }
  clear(): void { this.cache.clear(); }
}
