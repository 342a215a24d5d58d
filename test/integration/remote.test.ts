// The remote backend set up wrong, as a user meets it: the error names the setting or the missing step, and the Zones view says
// why it is empty instead of offering to start the mock.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, openFile, WORKSPACE, setSetting } from './helpers';

suite('Remote backend misconfigured', () => {
  let ctx: any;
  const cfg = () => vscode.workspace.getConfiguration('edgekit');
  /** What runCommand reported (it logs every failed command before showing it). */
  const failures: string[] = [];
  let logError: (msg: string, err?: unknown) => void;

  suiteSetup(async () => {
    ctx = (await api()).ctx;
    logError = ctx.log.error;
    ctx.log.error = (msg: string, err?: unknown) => {
      failures.push(`${msg}: ${(err as Error)?.message ?? ''}`);
      logError(msg, err);
    };
  });

  setup(() => { failures.length = 0; });

  suiteTeardown(async () => {
    ctx.log.error = logError;
    for (const key of ['backend', 'gateway.url', 'api.baseUrl']) await cfg().update(key, undefined, vscode.ConfigurationTarget.Global);
    await ctx.backend.clearCredentials();
    fs.rmSync(path.join(WORKSPACE.fsPath, 'remote'), { recursive: true, force: true });
  });

  test('a gateway URL that is not a URL: Send and Copy as curl name the setting', async () => {
    await setSetting('backend', 'remote', vscode.ConfigurationTarget.Global);
    await setSetting('gateway.url', 'gateway.example/v1/mainnet', vscode.ConfigurationTarget.Global);
    const editor = await openFile('remote/block.rpc.json', '{"jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 1}\n');
    const sent = await vscode.commands.executeCommand('edgekit.gateway.send', editor.document.uri);
    assert.equal(sent, undefined);
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.match(failures[0], /"edgekit\.gateway\.url" is not a valid http\(s\) URL: "gateway\.example\/v1\/mainnet"/);
    const curl = await vscode.commands.executeCommand('edgekit.gateway.copyAsCurl', editor.document.uri);
    assert.equal(curl, undefined, 'no curl command for a URL curl cannot reach');
    assert.match(failures[1] ?? '', /"edgekit\.gateway\.url" is not a valid http\(s\) URL/);
  });

  test('the Zones view says why it is empty: no credentials, then an API base that is not a URL', async () => {
    // What one read of the view finds (ZonesView.read, which getChildren applies), asked directly: VS Code reads the view on its own
    // too (each settings change refreshes it), and whichever read started last sets the view's message, so the message is checked
    // to be the last read's, and the reasons on reads of our own.
    const reason = async () => ((await ctx.zones.read()) as { error?: string }).error;
    const diag = () => `(edgekit.api.baseUrl: ${JSON.stringify(cfg().inspect('api.baseUrl'))})`;
    await ctx.backend.clearCredentials();
    await setSetting('backend', 'remote', vscode.ConfigurationTarget.Global);
    await setSetting('api.baseUrl', 'http://127.0.0.1:9/client/v4', vscode.ConfigurationTarget.Global);
    assert.match(String(await reason()), /No API credentials saved; run "EdgeKit: Set API Credentials…"/, diag());
    assert.deepEqual(await ctx.zones.getChildren(), []);
    assert.equal(ctx.zones.view.message, ctx.zones.lastError);
    assert.ok(ctx.zones.lastError, 'the view has a message, not the welcome content alone');
    // A command meeting the same says it with the step as a button.
    const err = await ctx.backend.endpoints('api').then(() => undefined, (e: any) => e);
    assert.deepEqual(err?.actions?.map((a: any) => a.command), ['edgekit.setApiCredentials']);
    await setSetting('api.baseUrl', 'api.example/client/v4', vscode.ConfigurationTarget.Global);
    assert.match(String(await reason()), /"edgekit\.api\.baseUrl" is not a valid http\(s\) URL/, diag());
    // The embedded mock, stopped: the view's welcome content (Start Mock Backend) is the answer, without a message.
    await setSetting('backend', undefined, vscode.ConfigurationTarget.Global);
    await ctx.backend.stopMock();
    assert.equal(await reason(), undefined);
    assert.deepEqual(await ctx.zones.getChildren(), []);
    assert.equal(ctx.zones.view.message, ctx.zones.lastError);
  });

  test('saving or clearing the API credentials refreshes the Zones view', async () => {
    let fired = 0;
    const sub = ctx.zones.onDidChangeTreeData(() => { fired++; });
    try {
      await ctx.backend.saveCredentials({ host: 'http://127.0.0.1:9', apiToken: 'remote-test-token' });
      assert.equal(fired, 1, 'saved');
      await ctx.backend.clearCredentials();
      assert.equal(fired, 2, 'cleared');
    } finally {
      sub.dispose();
    }
  });
});

suite('Zones view: overlapping refreshes', () => {
  test('a refresh that ends after a newer one (the mock stopped mid-refresh) does not put its error back', async () => {
    const ctx = (await api()).ctx;
    const zone = { id: 'z1', name: 'late.example', plan: { legacy_id: 'pro' } };
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    // The first refresh's zone list fails, late (its connection went away); the second one, started after, reads the zones.
    const failing = { baseUrl: 'http://127.0.0.1:9/client/v4', listZones: async () => { await held; return { ok: false, error: 'Cannot list zones: connection refused (ECONNREFUSED).' }; } };
    const working = {
      baseUrl: 'http://127.0.0.1:9/client/v4',
      listZones: async () => ({ ok: true, result: [zone] }),
      status: async () => ({ ok: true, result: { migration_state: 'start', old_rules_enabled: true, new_rules_enabled: false } }),
      listAccounts: async () => ({ ok: true, result: [] }),
    };
    const apis = [failing, working];
    const view = new ctx.zones.constructor(async () => apis.shift());
    try {
      const first = view.getChildren();
      const second = await view.getChildren();
      assert.deepEqual(second.map((i: vscode.TreeItem) => i.label), ['late.example']);
      release();
      await first;
      assert.equal(view.lastError, undefined, 'the newer refresh decides the message');
      assert.deepEqual(view.items.map((i: vscode.TreeItem) => i.label), ['late.example']);
    } finally {
      release();
      view.dispose();
    }
  });
});

suite('Commands on a document the language server is not given', () => {
  test('a filter or ruleset shown from another scheme (the older side of a diff): the commands say so, not "open a filter first"', async () => {
    const ctx = (await api()).ctx;
    const failures: string[] = [];
    const logError = ctx.log.error;
    ctx.log.error = (msg: string, err?: unknown) => { failures.push(`${msg}: ${(err as Error)?.message ?? ''}`); logError(msg, err); };
    try {
      // A read-only document of a scheme of EdgeKit's own (as git: is for a diff), given the filter and ruleset languages.
      const filterUri = await ctx.responses.record({ url: 'http://127.0.0.1:9/', body: '', label: 'old.filter', summary: '' }, '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}\n');
      const filterDoc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(filterUri), 'logpush-filter');
      const rulesUri = await ctx.responses.record({ url: 'http://127.0.0.1:9/', body: '', label: 'old.ruleset', summary: '' }, '{"name": "x", "rules": []}\n');
      const rulesDoc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(rulesUri), 'waf-ruleset');
      const runs: [string, vscode.Uri, ...unknown[]][] = [
        ['edgekit.logpush.testFilter', filterDoc.uri, 'sample'],
        ['edgekit.logpush.filterToString', filterDoc.uri],
        ['edgekit.ruleset.testRules', rulesDoc.uri, 'sample'],
      ];
      for (const [id, uri, ...rest] of runs) {
        failures.length = 0;
        const got = await vscode.commands.executeCommand(id, uri, ...rest);
        assert.equal(got, undefined, `${id}: ${JSON.stringify(got)?.slice(0, 300)}`);
        assert.equal(failures.length, 1, `${id}: ${failures.join('\n')}`);
        assert.match(failures[0], /is opened through "edgekit-response:" .*open the file on disk itself/, id);
      }
    } finally {
      ctx.log.error = logError;
    }
  });
});
