// Settings. With workspace/configuration (VS Code, and clients that support it): asked once per workspace folder and language
// (resource-scoped settings resolve per folder, and a "[language]" block can differ), the promise cached until settings change;
// the documents outside every folder (or every document when the client named no folder) share one scope per language, as a
// folder's documents do: no folder's settings apply to any of them, so they all resolve the same way (user settings, the
// workspace's, the language's block). Asking for each such document would put a round trip to the client in front of every
// newly opened document's diagnostics (issue 18: the largest share of a small document's open → diagnostics time). A client that
// answers null (it has no "edgekit" section) gets the settings it pushed. Without workspace/configuration (many editors): the
// "edgekit" section of initializationOptions (under "settings" or at its top), then of each workspace/didChangeConfiguration,
// else the defaults. A notification changes only the keys it carries (yaml-language-server's setConfiguration does the same): an
// empty one ({}, null, {"edgekit": {}}: eglot sends {} right after initialized, Helix its `config`, which may be empty) keeps
// what initializationOptions said instead of putting the defaults back. Over a document's settings, the scope of its Logpush job
// when the client knows it (edgekit/setJobScope), which wins over edgekit.logpush.scope.
import type { Connection } from './context';
import { DEFAULT_SETTINGS, normalizeSettings, refusedSettingSentence, type JobScope, type RefusedSetting, type Settings } from '../protocol';

/** How many refused settings' sentences SettingsCache remembers as said (two keys, each with a value per folder and a few more). */
const SAID_REFUSED = 32;

/** The cache key's scope of the documents outside every workspace folder. */
const OUTSIDE = '<outside every folder>';

export class SettingsCache {
  private readonly cache = new Map<string, Promise<Settings>>();
  /** The settings pushed by a client without workspace/configuration. */
  private global: Settings = DEFAULT_SETTINGS;
  /** The "edgekit" section as pushed so far, each push merged over the ones before it (normalized into global). */
  private raw: Record<string, unknown> = {};

  /** Where each document's job lives, as the client said (edgekit/setJobScope), by URI: kept until it says otherwise, through
   * settings changes and the document's closing (the client keeps its places as long; a reopened document is the same job). */
  private readonly jobScopes = new Map<string, JobScope>();

  /** The workspace folders' URIs (ending in "/"), longest first, and names (initialize's workspaceFolders, then each
   * didChangeWorkspaceFolders). */
  private folders: { uri: string; name: string }[] = [];

  /** The refused number settings said in the log, as their sentences: each once, however many folders, languages and settings
   * changes read it again (a change of another key asks for the whole section anew, and a push keeps the keys it does not carry).
   * The SAID_REFUSED latest only (rv36: a client pushing value after value grew the set without bound): one forgotten is said again. */
  private readonly saidRefused = new Set<string>();

  constructor(private readonly connection: Connection, private readonly supportsConfiguration: () => boolean) {}

  /** normalizeSettings, saying in the client's log (window/logMessage) a number setting whose value is not used, once per value;
   * `scope`: whose value it is (a folder of several), said with it. */
  private normalize(raw: unknown, scope?: string): Settings {
    return normalizeSettings(raw, (r: RefusedSetting) => {
      const said = refusedSettingSentence({ ...r, scope });
      if (this.saidRefused.has(said)) return;
      if (this.saidRefused.size >= SAID_REFUSED) this.saidRefused.delete(this.saidRefused.values().next().value as string);
      this.saidRefused.add(said);
      this.connection.console.warn(said);
    });
  }

  setFolders(folders: { uri: string; name: string }[]): void {
    this.folders = folders.map((f) => ({ uri: f.uri.endsWith('/') ? f.uri : `${f.uri}/`, name: f.name })).sort((a, b) => b.uri.length - a.uri.length);
    this.cache.clear();
  }

  /** Whose settings a refused value's line names: the documents outside the folders when there is a folder (rv40: with one, its
   * line and theirs were alike but for the value); a folder when there are several (its URI too when another folder has its name);
   * else none. */
  private scopeWords(folder: { uri: string; name: string } | undefined): string | undefined {
    if (!folder) return this.folders.length ? `the documents outside the workspace folder${this.folders.length > 1 ? 's' : ''}` : undefined;
    if (this.folders.length < 2) return undefined;
    const twin = this.folders.some((f) => f !== folder && f.name === folder.name);
    return `the workspace folder "${folder.name}"${twin || !folder.name ? ` (${folder.uri.replace(/\/$/, '')})` : ''}`;
  }

  /** The settings for a document: its folder's, with the scope of its job when the client said where the job lives. */
  get(uri: string, languageId = ''): Promise<Settings> {
    const scope = this.jobScopes.get(uri);
    const settings = this.folderSettings(uri, languageId);
    return scope === undefined ? settings : settings.then((s) => ({ ...s, logpush: { ...s.logpush, scope } }));
  }

  /** Where the document's job lives (undefined: no longer known); whether that changed what it is checked with. */
  setJobScope(uri: string, scope: JobScope | undefined): boolean {
    if (this.jobScopes.get(uri) === scope) return false;
    if (scope === undefined) this.jobScopes.delete(uri);
    else this.jobScopes.set(uri, scope);
    return true;
  }

  /** One workspace/configuration round trip per folder (or outside them all) and language, not one per document. The request
   * names the first document of its scope (scopeUri), as VS Code's own clients do. */
  private folderSettings(uri: string, languageId: string): Promise<Settings> {
    if (!this.supportsConfiguration()) return Promise.resolve(this.global);
    const folder = this.folders.find((f) => uri.startsWith(f.uri));
    const key = `${folder?.uri ?? OUTSIDE}|${languageId}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    // A client can support workspace/configuration and still have no "edgekit" section (Neovim, Zed and Sublime Text answer
    // null for a section their configuration lacks): then the settings it sent in initializationOptions count.
    const p: Promise<Settings> = this.connection.workspace.getConfiguration({ scopeUri: uri, section: 'edgekit' })
      .then((raw: unknown) => (raw === null || raw === undefined ? this.global : this.normalize(raw, this.scopeWords(folder))), () => this.global);
    this.cache.set(key, p);
    return p;
  }

  /** Settings a client sent itself (initializationOptions, or didChangeConfiguration's settings): `{ edgekit: {...} }`, or the
   * section alone. The keys sent replace the ones pushed before (nested objects key by key); the keys not sent keep their values. */
  pushed(raw: unknown): void {
    const r = isPlainObject(raw) ? raw : {};
    const section = 'edgekit' in r ? r.edgekit : r;
    if (!isPlainObject(section)) return;
    this.raw = merge(this.raw, section);
    this.global = this.normalize(this.raw);
  }

  clear(): void { this.cache.clear(); }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** over's keys over base's: objects merged key by key, anything else (an array, a number, null) replaces. */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (k === '__proto__') continue;
    const b = out[k];
    out[k] = isPlainObject(v) && isPlainObject(b) ? merge(b, v) : v;
  }
  return out;
}
