import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, createOnMock, openFile, removeFolder, revertAndClose, scriptUi, setSetting, setText, waitForDiagnostics } from './helpers';

suite('Commands against the embedded mock backend', () => {
  let ctx: any;
  const original: { ui?: unknown } = {};

  suiteSetup(async () => {
    ctx = (await api()).ctx;
    original.ui = ctx.ui;
    await setSetting('gateway.confirmSendWithErrors', false, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('edgekit.mock.reset');
  });

  suiteTeardown(async () => {
    ctx.ui = original.ui;
    await setSetting('gateway.confirmSendWithErrors', undefined, vscode.ConfigurationTarget.Workspace);
    await removeFolder('cmd');
  });

  test('the mock starts on demand on loopback and the status bar says where', async () => {
    const r = await vscode.commands.executeCommand<{ gatewayUrl: string; apiBaseUrl: string }>('edgekit.mock.start');
    assert.match(r.gatewayUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1\/mainnet$/);
    assert.match(r.apiBaseUrl, /^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
    assert.ok(ctx.backend.running, 'mock is running');
  });

  test('send a request: the response opens beside it with status and result', async () => {
    const editor = await openFile('cmd/block.rpc.json', '{"jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 7}\n');
    const r = await vscode.commands.executeCommand<any>('edgekit.gateway.send', editor.document.uri);
    assert.equal(r.status, 200);
    assert.equal(r.success, true);
    assert.match(String(r.body.result), /^0x[0-9a-f]+$/);
    const shown = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === r.responseUri);
    assert.ok(shown, 'response document is visible');
    const text = shown!.document.getText();
    assert.match(text, /^\/\/ POST http:\/\/127\.0\.0\.1:\d+\/v1\/mainnet/);
    assert.match(text, /\/\/ HTTP 200 · \d+ ms · eth_blockNumber/);
    assert.match(text, /"id": 7/);
  });

  test('an unsupported method is flagged before sending and refused with HTTP 403 after', async () => {
    const editor = await openFile('cmd/sign.rpc.json', '{"jsonrpc": "2.0", "method": "eth_sign", "params": ["0x9b2055d370f73ec7d8a03e965129118dc8f5bf83", "0xdeadbeef"], "id": 1}\n');
    const ds = await waitForDiagnostics(editor.document.uri, (d) => d.some((x) => codeOf(x).startsWith('jsonrpc/') && /403/.test(x.message)), 'the 403 diagnostic');
    const d = ds.find((x) => /403/.test(x.message))!;
    assert.equal(editor.document.getText(d.range), '"eth_sign"');
    const r = await vscode.commands.executeCommand<any>('edgekit.gateway.send', editor.document.uri);
    assert.equal(r.status, 403);
    assert.equal(r.success, false);
    assert.match(r.summary, /403/);
    const doc = vscode.workspace.textDocuments.find((x) => x.uri.toString() === r.responseUri)!;
    assert.match(doc.getText(), /HTTP 403/);
  });

  test('an over-limit trace_filter is flagged before sending and refused by the backend after', async () => {
    const editor = await openFile('cmd/trace.rpc.json', JSON.stringify({ jsonrpc: '2.0', method: 'trace_filter', params: [{ fromBlock: '0x1', toBlock: '0x3e9', count: 10 }], id: 3 }, null, 2));
    const ds = await waitForDiagnostics(editor.document.uri, (d) => d.some((x) => /800/.test(x.message)), 'the 800-block diagnostic');
    const d = ds.find((x) => /800/.test(x.message))!;
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    const r = await vscode.commands.executeCommand<any>('edgekit.gateway.send', editor.document.uri);
    assert.equal(r.success, false);
    assert.ok(r.body.error, 'JSON-RPC error from the backend');
    assert.match(r.body.error.message, /800/);
  });

  test('a batch item is sent on its own from its code lens arguments', async () => {
    const editor = await openFile('cmd/batch.rpc.json', JSON.stringify([
      { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 1 },
      { jsonrpc: '2.0', method: 'net_version', params: [], id: 2 },
    ], null, 2));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri);
    const sendItem = lenses.find((l) => l.command?.command === 'edgekit.gateway.send' && (l.command.arguments?.[1] as { index?: number })?.index === 1);
    assert.ok(sendItem, `a send lens for item 1: ${JSON.stringify(lenses.map((l) => l.command?.title))}`);
    const r = await vscode.commands.executeCommand<any>(sendItem!.command!.command, ...sendItem!.command!.arguments!);
    assert.equal(r.status, 200);
    assert.equal(r.body.id, 2);
    assert.equal(r.body.result, '1');
    const history = ctx.responses.history();
    assert.ok(history.length >= 4 && history[0].label === 'net_version');
  });

  test('a response of an earlier session (not in memory) reopens as comments: its request, status and summary', async () => {
    const entry = ctx.responses.history()[0];
    const uri = vscode.Uri.parse(entry.responseUri);
    const kept = ctx.responses.textOf(uri);
    assert.ok(kept, 'the response is in memory');
    ctx.responses.contents.delete(uri.toString()); // as after a window reload: the history persists, the bodies do not
    try {
      const text: string = ctx.responses.provideTextDocumentContent(uri);
      const lines = text.split('\n').filter((l) => l.trim());
      assert.deepEqual(lines.filter((l) => !l.startsWith('//')), [], `a JSONC document of comments only: ${text}`);
      assert.match(text, new RegExp(`^// POST ${entry.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n// HTTP 200 · \\d+ ms · net_version`));
      assert.ok(text.includes(`// ${entry.summary.split('\n')[0]}`), text);
      assert.match(text, /no longer in memory/);
    } finally {
      ctx.responses.contents.set(uri.toString(), kept);
    }
  });

  test('create a Logpush job from a job file; a refused job says why', async () => {
    const good = await openFile('cmd/ok.logpush.json', JSON.stringify({
      name: 'edgekit-test', dataset: 'http_requests', logpull_options: 'fields=ClientIP,EdgeStartTimestamp&timestamps=rfc3339',
      filter: JSON.stringify({ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }),
      destination_conf: 's3://bucket/logs?region=us-east-1',
    }, null, 2));
    const zones = await (await fetch(`${ctx.backend.running.apiBaseUrl}/zones`, { headers: { Authorization: `Bearer ${ctx.backend.running.credentials.apiToken}` } })).json() as { result: { id: string; name: string }[] };
    const pro = zones.result.find((z) => z.name === 'pro.example')!;
    const job = await createOnMock(ctx, good.document.uri, pro.id);
    assert.ok(job && job.id !== undefined, 'job created');
    // The checker flags the missing region first; sent anyway, the API refuses it.
    const bad = await openFile('cmd/bad.logpush.json', JSON.stringify({ name: 'x', dataset: 'http_requests', destination_conf: 's3://bucket/logs' }));
    const { asked, settle } = scriptUi(ctx, [(_q, options) => options[0], (_q, options) => (options.includes('Create on the Mock Anyway') ? 'Create on the Mock Anyway' : assert.fail(options.join()))]);
    const refused = await settle(vscode.commands.executeCommand<any>('edgekit.logpush.createJob', bad.document.uri, pro.id));
    assert.equal(refused, undefined, 'runCommand shows the error and returns undefined');
    assert.match(asked.join('\n'), /bad\.logpush\.json has 1 error, e\.g\. line 1: The s3 destination needs the parameter "region"\. The API will probably refuse the job\. Create it anyway\?/);
  });

  test('filter <-> job string conversion', async () => {
    const filter = await openFile('cmd/conv.filter.json', '{\n  "where": {"key": "BotScore", "operator": "lt", "value": "30"}\n}\n');
    const literal = await vscode.commands.executeCommand<string>('edgekit.logpush.filterToString', filter.document.uri);
    assert.equal(JSON.parse(literal), '{"where":{"key":"BotScore","operator":"lt","value":"30"}}');
    const job = await openFile('cmd/conv.logpush.json', JSON.stringify({ name: 'j', dataset: 'firewall_events', filter: JSON.parse(literal), destination_conf: 's3://b/p?region=eu-west-1' }));
    const uri = await vscode.commands.executeCommand<string>('edgekit.logpush.stringToFilter', job.document.uri);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.equal(doc.languageId, 'logpush-filter');
    assert.deepEqual(JSON.parse(doc.getText()), { $dataset: 'firewall_events', where: { key: 'BotScore', operator: 'lt', value: '30' } });
    await revertAndClose(doc); // an untitled filter: discarded, not left for a later closeAllEditors to ask "Save changes?" of
    // A filter string that holds no object opens as it is, for the user to see and fix (the dataset hint is for an object only).
    for (const [i, [filter, value]] of ([['[{"key":"BotScore"}]', [{ key: 'BotScore' }]], ['null', null], ['42', 42]] as const).entries()) {
      const odd = await openFile(`cmd/odd${i}.logpush.json`, JSON.stringify({ name: 'j', dataset: 'firewall_events', filter, destination_conf: 's3://b/p?region=eu-west-1' }));
      const oddUri = await vscode.commands.executeCommand<string>('edgekit.logpush.stringToFilter', odd.document.uri);
      const oddDoc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === oddUri);
      assert.ok(oddDoc, `the filter ${filter} opens`);
      assert.deepEqual(JSON.parse(oddDoc!.getText()), value, filter);
      await revertAndClose(oddDoc!);
    }
  });

  test('migrate a Pro zone: check, review, confirm, pending, migrated; the tree shows it', async () => {
    let review: vscode.TextDocument | undefined;
    const { asked, settle } = scriptUi(ctx, [
      (q, o) => {
        review = vscode.workspace.textDocuments.find((d) => d.uri.path.endsWith('pro.example.ruleset.json') && !d.isClosed);
        const shown = vscode.window.visibleTextEditors.find((e) => e.document === review);
        assert.deepEqual([shown?.options.insertSpaces, shown?.options.tabSize], [true, 2], 'the review editor indents as its text does (2 spaces)');
        return /Review/.test(q) ? 'Continue' : assert.fail(`expected the review, got ${q} ${o}`);
      },
      (q, o) => (o.includes('Migrate') && !o.includes('Validation Mode') ? 'Migrate' : assert.fail(`expected the confirmation, got ${q} ${o}`)),
    ]);
    const final = await settle(vscode.commands.executeCommand<any>('edgekit.migration.start', 'pro.example'));
    assert.equal(final.name, 'migrated', JSON.stringify(final));
    assert.equal(asked.length, 2);
    assert.ok(review && review.languageId === 'waf-ruleset', 'the config was opened as a ruleset document');
    assert.ok(review.isClosed, 'once deployed, the untitled review document is closed (no "Save changes?" left behind)');
    await ctx.zones.getChildren();
    const item = ctx.zones.items.find((i: any) => i.zone.name === 'pro.example');
    assert.equal(item.status.migration_state, 'migrated');
    assert.equal(item.status.old_rules_enabled, false);
    assert.equal(item.status.new_rules_enabled, true);
    // irreversible: a second run finds it migrated and sends nothing
    const none = scriptUi(ctx, []);
    const again = await none.settle(vscode.commands.executeCommand<any>('edgekit.migration.start', 'pro.example'));
    assert.equal(again.name, 'migrated');
    assert.equal(again.already, true);
    const tf = await vscode.commands.executeCommand<any>('edgekit.migration.exportTerraform', 'pro.example');
    assert.match(tf.importId, /^zone\/[0-9a-f]{32}\/[0-9a-f]+$/);
    assert.match(tf.hcl, /resource "svc_ruleset"/);
    assert.equal(tf.address, 'svc_ruleset.default', 'the import command names the resource the HCL declares');
    assert.match(tf.hcl, /phase\s*=\s*"http_request_firewall_managed"/);
    // An untitled document named after the zone, in .tf, so that its tab says what it is and Save offers that name (it was named
    // after its first comment line, as Plain Text).
    const doc = vscode.window.activeTextEditor?.document;
    assert.ok(doc && doc.isUntitled, 'the export is shown in an untitled document');
    assert.equal(doc.uri.path.split('/').pop(), 'pro.example.managed-rules.tf');
    assert.match(doc.getText(), /^# Managed rules of pro\.example/);
    assert.ok(doc.getText().includes(tf.hcl));
    await revertAndClose(doc);
  });

  test('migrate an Enterprise zone: validation first, then pending', async () => {
    const toValidation = scriptUi(ctx, [
      (q) => (/Review/.test(q) ? 'Continue' : assert.fail(q)),
      (_q, o) => (o.includes('Validation Mode') ? 'Validation Mode' : assert.fail(o.join())),
      (_q, o) => (o.includes('Later') ? 'Later' : assert.fail(o.join())),
    ]);
    const first = await toValidation.settle(vscode.commands.executeCommand<any>('edgekit.migration.start', 'enterprise.example'));
    assert.equal(first.name, 'cancelled', JSON.stringify(first));
    assert.equal(first.zoneState, 'validation');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.path.endsWith('enterprise.example.ruleset.json') && !d.isClosed),
      'the review deployed in validation mode is closed');
    await ctx.zones.getChildren();
    assert.equal(ctx.zones.items.find((i: any) => i.zone.name === 'enterprise.example').status.migration_state, 'validation');
    const toMigrated = scriptUi(ctx, [
      (_q, o) => (o.includes('Review and Finish') ? 'Review and Finish' : assert.fail(o.join())),
      (q) => (/Review/.test(q) ? 'Continue' : assert.fail(q)),
      (_q, o) => (o.includes('Migrate') ? 'Migrate' : assert.fail(o.join())),
    ]);
    const second = await toMigrated.settle(vscode.commands.executeCommand<any>('edgekit.migration.start', 'enterprise.example'));
    assert.equal(second.name, 'migrated', JSON.stringify(second));
  });

  test('a review declined at the confirmation stays open with the user\'s edits', async () => {
    let review: vscode.TextDocument | undefined;
    const { settle } = scriptUi(ctx, [
      async (q) => {
        assert.match(q, /Review/);
        review = vscode.workspace.textDocuments.find((d) => d.uri.path.endsWith('business.example.ruleset.json') && !d.isClosed);
        // Test Rules on the review: its sample goes to the zone (tz17; it went to example.com)
        const tested = await vscode.commands.executeCommand<any>('edgekit.ruleset.testRules', review!.uri, 'sample');
        assert.equal(tested.source, 'the generated sample (1,000 requests to business.example and its subdomains)');
        const editor = await vscode.window.showTextDocument(review!);
        await editor.edit((b) => b.insert(new vscode.Position(1, 0), '  "description": "edited in review",\n'));
        return 'Continue';
      },
      (_q, o) => (o.includes('Migrate') ? undefined : assert.fail(o.join())), // dismissed: nothing is sent
    ]);
    const final = await settle(vscode.commands.executeCommand<any>('edgekit.migration.start', 'business.example'));
    assert.equal(final.name, 'cancelled', JSON.stringify(final));
    assert.equal(final.zoneState, 'start');
    assert.ok(review && !review.isClosed, 'the review document is kept');
    assert.match(review.getText(), /edited in review/);
    await revertAndClose(review);
  });

  test('in one run: the review deployed in validation mode, then a second review edited and not deployed stays open', async () => {
    const zone = 'enterprise-b.example';
    const reviewDoc = () => vscode.workspace.textDocuments.find((d) => d.uri.path.endsWith(`${zone}.ruleset.json`) && !d.isClosed);
    let second: vscode.TextDocument | undefined;
    const { settle } = scriptUi(ctx, [
      (q) => (/Review/.test(q) ? 'Continue' : assert.fail(q)),
      (_q, o) => (o.includes('Validation Mode') ? 'Validation Mode' : assert.fail(o.join())),
      (_q, o) => (o.includes('Review and Finish') ? 'Review and Finish' : assert.fail(o.join())),
      async (q) => {
        assert.match(q, /Review/);
        second = reviewDoc();
        const editor = await vscode.window.showTextDocument(second!);
        await editor.edit((b) => b.insert(new vscode.Position(1, 0), '  "description": "second review",\n'));
        return 'Continue';
      },
      (_q, o) => (o.includes('Migrate') ? undefined : assert.fail(o.join())), // the final confirmation is dismissed
    ]);
    const final = await settle(vscode.commands.executeCommand<any>('edgekit.migration.start', zone));
    assert.equal(final.name, 'cancelled', JSON.stringify(final));
    assert.equal(final.zoneState, 'validation', 'the first review was deployed in validation mode');
    assert.ok(second && !second.isClosed, 'the second review, which no update carried, is kept');
    assert.match(second.getText(), /second review/);
    await revertAndClose(second);
  });

  test('Test Rules on a zone\'s configuration opened from the Zones view: the sample goes to that zone until the document closes (tz17)', async () => {
    // (business.example: not migrated, its review declined above, so its configuration is derived afresh, with no errors)
    const uri = await vscode.commands.executeCommand<string>('edgekit.migration.openConfig', 'business.example');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    const editor = await vscode.window.showTextDocument(doc);
    // A rule on one of the zone's own hosts, first: it matched none of example.com's sample
    const cfg = JSON.parse(doc.getText());
    const skip = { action: 'skip', expression: 'http.host eq "shop.business.example"', enabled: true, action_parameters: { ruleset: 'current' } };
    await setText(editor, JSON.stringify({ ...cfg, rules: [skip, ...cfg.rules] }, null, 2) + '\n');
    const r = await vscode.commands.executeCommand<any>('edgekit.ruleset.testRules', doc.uri, 'sample');
    assert.equal(r.source, 'the generated sample (1,000 requests to business.example and its subdomains)');
    assert.ok(r.rules[0].matched > 0 && r.rules[0].matched < 1000, JSON.stringify(r.rules[0]));
    assert.equal(ctx.rulesetZones.zoneOf(uri), 'business.example');
    const closed = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.toString() === uri) { sub.dispose(); resolve(); } });
    });
    await revertAndClose(doc);
    await closed;
    assert.equal(ctx.rulesetZones.zoneOf(uri), undefined, 'forgotten once closed');
  });

  test('a zone that cannot migrate stops with the reason and nothing is sent', async () => {
    const { settle } = scriptUi(ctx, []);
    const final = await settle(vscode.commands.executeCommand<any>('edgekit.migration.start', 'uri-overrides.example'));
    assert.equal(final.name, 'not-eligible');
    assert.match(final.reason, /URI/i);
  });
});
