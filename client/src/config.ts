// Typed getters over workspace.getConfiguration, read on every access (no cache).
import * as vscode from 'vscode';

function get<T>(key: string, def: T, scope?: vscode.Uri): T {
  const v = vscode.workspace.getConfiguration('edgekit', scope).get<T>(key);
  return v === undefined || v === null ? def : v;
}

export const Config = {
  /** 'embedded' uses the mock backend started by the extension; 'remote' uses the URLs below. */
  backend: (): 'embedded' | 'remote' => (get<string>('backend', 'embedded') === 'remote' ? 'remote' : 'embedded'),
  gatewayUrl: (): string => get<string>('gateway.url', '').trim(),
  apiBaseUrl: (): string => get<string>('api.baseUrl', '').trim(),
  /** Start the embedded mock backend when the extension activates (npm start sets it). */
  mockAutoStart: (): boolean => get<boolean>('mock.autoStart', false),
  mockPort: (): number => { const p = get<number>('mock.port', 0); return Number.isInteger(p) && p >= 0 && p < 65536 ? p : 0; },
  /** The embedded mock's rate limit as the setting has it: `N/S` or `off` (mock/src/rateLimit.ts parseRateLimit reads it). */
  /** Another JSON value (settings.json takes any: 1200, false) is written as JSON, which parseRateLimit refuses with its message. */
  mockRateLimit: (): string => { const v = get<unknown>('mock.rateLimit', '1200/300'); return typeof v === 'string' ? v.trim() : JSON.stringify(v); },
  /** The S3-compatible endpoint the embedded mock delivers s3:// and r2:// Logpush destinations to ('' = its local folder). */
  mockS3Endpoint: (): string => get<string>('mock.s3Endpoint', '').trim(),
  requestTimeoutMs: (): number => { const t = get<number>('http.timeoutSeconds', 30); return (Number.isFinite(t) && t > 0 ? t : 30) * 1000; },
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
