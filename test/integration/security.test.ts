// Runs last (alphabetical): credentials stay in SecretStorage, go only to the host they were saved for, and never reach a log.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, openFile, WORKSPACE, setSetting } from './helpers';

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let entries: fs.Dirent[] = [];
    try { entries = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/**
 * Resolves once some file under dir contains marker (file-system events, bounded by a timeout). The watcher is in place before the
 * files are first read: read first, a write landing between that read and the watch (the log is flushed on its own, from the
 * thread pool) gave no event, and the wait ran to its timeout unless some other log line came along.
 */
function waitForText(dir: string, marker: string, timeoutMs = 20_000): Promise<string> {
  const find = () => filesUnder(dir).find((f) => { try { return fs.readFileSync(f, 'utf8').includes(marker); } catch { return false; } });
  return new Promise((resolve, reject) => {
    const done = (f: string) => { watcher.close(); clearTimeout(timer); resolve(f); };
    const watcher = fs.watch(dir, { recursive: true }, () => {
      const f = find();
      if (f) done(f);
    });
    const timer = setTimeout(() => { watcher.close(); reject(new Error(`"${marker}" never reached a log under ${dir}`)); }, timeoutMs);
    const hit = find();
    if (hit) done(hit);
  });
}

suite('Security: secrets', () => {
  let ctx: any;

  suiteSetup(async () => {
    ctx = (await api()).ctx;
  });

  let remote: { close(): Promise<void> } | undefined;

  suiteTeardown(async () => {
    await remote?.close();
    await setSetting('backend', undefined, vscode.ConfigurationTarget.Global);
    await setSetting('api.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await ctx.backend.clearCredentials();
    fs.rmSync(path.join(WORKSPACE.fsPath, 'sec'), { recursive: true, force: true });
  });

  test('a saved credential is sent only to its host; a new host needs confirmation', async () => {
    // A second, standalone mock plays the "remote" API (switching edgekit.backend to remote stops the embedded one).
    const ext = vscode.extensions.getExtension('edgekit.edgekit')!;
    const { startMockBackend } = require(path.join(ext.extensionPath, 'dist', 'mock.js'));
    const mock = await startMockBackend({ port: 0 });
    remote = mock;
    const { apiToken, apiKey, apiEmail } = mock.credentials;
    await ctx.backend.saveCredentials({ host: 'api.other-host.example', apiToken, apiKey, apiEmail });
    const stored = JSON.parse(await ctx.extension.secrets.get('edgekit.api.credentials'));
    assert.equal(stored.apiToken, apiToken);
    await setSetting('backend', 'remote', vscode.ConfigurationTarget.Global);
    await setSetting('api.baseUrl', mock.apiBaseUrl, vscode.ConfigurationTarget.Global);
    const asked: string[] = [];
    const original = ctx.ui;
    try {
      ctx.ui = { ask: async (q: string) => { asked.push(q); return undefined; } };
      const declined = await vscode.commands.executeCommand('edgekit.migration.check', 'business.example');
      assert.equal(declined, undefined, 'nothing is sent when the user declines');
      assert.equal(asked.length, 1);
      assert.match(asked[0], /api\.other-host\.example/);
      assert.match(asked[0], /127\.0\.0\.1/);
      ctx.ui = { ask: async (q: string, options: string[]) => { asked.push(q); return options[0]; } };
      const check = await vscode.commands.executeCommand<any>('edgekit.migration.check', 'business.example');
      assert.equal(check.compatible, true, 'confirmed: the request went out with the saved token');
      assert.equal(JSON.parse(await ctx.extension.secrets.get('edgekit.api.credentials')).host, new URL(mock.apiBaseUrl).origin);
      assert.equal(ctx.backend.running, undefined, 'the embedded mock stopped when the backend became remote');
      const again = await vscode.commands.executeCommand<any>('edgekit.migration.check', 'business.example');
      assert.equal(again.compatible, true);
      assert.equal(asked.length, 2, 'the same host is not asked about twice');
    } finally {
      ctx.ui = original;
    }
  });

  test('no token, key or destination secret appears in any settings file or log of the run', async () => {
    const mock = ctx.backend.running ?? (await ctx.backend.startMock());
    const secretInConf = 'wJalrXUtnFEMIK7MDENGbPxRfiCYSECRETVALUE';
    const job = await openFile('sec/secret.logpush.json', JSON.stringify({
      name: 'with-secret', dataset: 'http_requests',
      destination_conf: `s3://bucket/path?region=us-east-1&access-key-id=AKIAEXAMPLE&secret-access-key=${secretInConf}`,
    }));
    await setSetting('backend', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('edgekit.logpush.createJob', job.document.uri, 'pro.example');
    const marker = `security-check-${Date.now()}`;
    ctx.log.info(marker);
    const logsRoot = path.dirname(path.dirname(ctx.extension.logUri.fsPath));
    const logFile = await waitForText(logsRoot, marker);
    assert.ok(logFile, 'found our log');
    const secrets = [mock.credentials.apiToken, mock.credentials.apiKey, secretInConf];
    const places = [...filesUnder(logsRoot), ...filesUnder(path.join(WORKSPACE.fsPath, '.vscode'))];
    const userSettings = path.join(path.dirname(path.dirname(ctx.extension.globalStorageUri.fsPath)), 'settings.json');
    if (fs.existsSync(userSettings)) places.push(userSettings);
    for (const f of places) {
      const text = fs.readFileSync(f, 'utf8');
      for (const s of secrets) assert.ok(!text.includes(s), `${f} contains a secret`);
    }
    // the hover on the destination does not echo the secret either
    const offset = job.document.getText().indexOf(secretInConf);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', job.document.uri, job.document.positionAt(offset + 2));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
    assert.ok(!text.includes(secretInConf), 'hover does not show the secret');
  });
});
