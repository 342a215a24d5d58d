// Per-URI settings: the promise is cached per document and dropped when it closes or settings change.
import type { Connection } from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, normalizeSettings, type Settings } from '../protocol';

export class SettingsCache {
  private readonly cache = new Map<string, Promise<Settings>>();
  constructor(private readonly connection: Connection, private readonly supportsConfiguration: () => boolean) {}

  get(uri: string): Promise<Settings> {
    if (!this.supportsConfiguration()) return Promise.resolve(DEFAULT_SETTINGS);
    const cached = this.cache.get(uri);
    if (cached) return cached;
    const p: Promise<Settings> = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'edgekit' })
      .then(normalizeSettings, () => DEFAULT_SETTINGS);
    this.cache.set(uri, p);
    return p;
  }
  drop(uri: string): void { this.cache.delete(uri); }
  clear(): void { this.cache.clear(); }
}
