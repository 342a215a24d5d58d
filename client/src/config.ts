// Typed getters over workspace.getConfiguration, read on every access (no cache).
import * as vscode from 'vscode';
import { refusedSettingSentence } from '../../server/src/protocol';

function get<T>(key: string, def: T, scope?: vscode.Uri): T {
  const v = vscode.workspace.getConfiguration('edgekit', scope).get<T>(key);
  return v === undefined || v === null ? def : v;
}

/** The number settings the client reads, with their default and what package.json's schema takes (settings.json takes any JSON
 * value: the schema is a hint there). */
const NUMBER_SETTINGS = {
  'mock.port': { def: 0, ok: (p: number) => Number.isInteger(p) && p >= 0 && p <= 65535, takes: 'a whole number from 0 to 65535' },
  // 0.5 was once taken as half a second (only `t > 0` was checked), where the schema says "minimum": 1
  'http.timeoutSeconds': { def: 30, ok: (t: number) => Number.isFinite(t) && t >= 1, takes: 'a number of seconds of at least 1' },
} as const;
type NumberKey = keyof typeof NUMBER_SETTINGS;

/** A number setting's value, or its default when the schema refuses the value (`refused`): never a value near it, as
 * normalizeSettings does for the server's numbers. */
function numberSetting(key: NumberKey): { value: number; refused?: unknown } {
  const { def, ok } = NUMBER_SETTINGS[key];
  const v = get<unknown>(key, def);
  return typeof v === 'number' && ok(v) ? { value: v } : { value: def, refused: v };
}

/** Says in the log, through `warn`, each number setting whose value is not used and what is: now, and again when one is changed
 * to another such value. Once, not on every read: the getters run on every request, and the commands bundle has no log of its own
 * (its copy of a module that logged would open a second output channel). */
export function reportUnusedNumberSettings(warn: (message: string) => void): vscode.Disposable {
  const report = (changed: (key: NumberKey) => boolean) => {
    for (const key of Object.keys(NUMBER_SETTINGS) as NumberKey[]) {
      const read = numberSetting(key);
      if (changed(key) && 'refused' in read) {
        warn(refusedSettingSentence({ key, value: read.refused, takes: NUMBER_SETTINGS[key].takes, used: read.value }));
      }
    }
  };
  report(() => true);
  return vscode.workspace.onDidChangeConfiguration((e) => report((key) => e.affectsConfiguration(`edgekit.${key}`)));
}

export const Config = {
  /** 'embedded' uses the mock backend started by the extension; 'remote' uses the URLs below. */
  backend: (): 'embedded' | 'remote' => (get<string>('backend', 'embedded') === 'remote' ? 'remote' : 'embedded'),
  gatewayUrl: (): string => get<string>('gateway.url', '').trim(),
  apiBaseUrl: (): string => get<string>('api.baseUrl', '').trim(),
  /** Start the embedded mock backend when the extension activates (npm start sets it). */
  mockAutoStart: (): boolean => get<boolean>('mock.autoStart', false),
  mockPort: (): number => numberSetting('mock.port').value,
  /** The embedded mock's rate limit as the setting has it: `N/S` or `off` (mock/src/rateLimit.ts parseRateLimit reads it). */
  /** Another JSON value (settings.json takes any: 1200, false) is written as JSON, which parseRateLimit refuses with its message. */
  mockRateLimit: (): string => { const v = get<unknown>('mock.rateLimit', '1200/300'); return typeof v === 'string' ? v.trim() : JSON.stringify(v); },
  /** The S3-compatible endpoint the embedded mock delivers s3:// and r2:// Logpush destinations to ('' = its local folder). */
  mockS3Endpoint: (): string => get<string>('mock.s3Endpoint', '').trim(),
  requestTimeoutMs: (): number => numberSetting('http.timeoutSeconds').value * 1000,
  /** Ask before sending a request whose document has errors (a resource setting: pass the request's URI). */
  confirmSendWithErrors: (scope?: vscode.Uri): boolean => get<boolean>('gateway.confirmSendWithErrors', true, scope),
  confirmJobWithErrors: (scope?: vscode.Uri): boolean => get<boolean>('logpush.confirmSendWithErrors', true, scope),
  /** The dataset of a standalone filter without a "$dataset" hint (a resource setting: pass the filter's URI, as the server reads it
   * per document). */
  logpushDataset: (scope?: vscode.Uri): string => get<string>('logpush.dataset', 'http_requests', scope),
};

/** The sentence a question adds to say which setting turns it off, by the setting's id (what the Settings editor's search and
 * settings.json take). */
export function turnsOffQuestion(key: string): string {
  return `The setting "edgekit.${key}" turns this question off.`;
}
