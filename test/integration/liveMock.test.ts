// The mock as a small live platform, seen from the editor: sample traffic, the Security Events view and the migration's inspect
// step in validation mode, and a Logpush job that delivers (the Zones view shows the delivery, it opens, and "Test Filter on Logs"
// runs on it). Traffic is paused and sent in bursts by command, so every count is deterministic and nothing waits on a timer.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { createRequire } from 'node:module';
import * as vscode from 'vscode';
import { api, createOnMock, openFile, removeFolder, scriptUi, setSetting } from './helpers';

suite('Live mock: traffic, security events, Logpush delivery', () => {
  let ctx: any;
  let ui: unknown;
  suiteSetup(async () => {
    ctx = (await api()).ctx;
    ui = ctx.ui;
    await vscode.commands.executeCommand('edgekit.mock.reset');
    await vscode.commands.executeCommand('edgekit.mock.traffic', { paused: true });
  });
  suiteTeardown(async () => {
    ctx.ui = ui;
    await vscode.commands.executeCommand('edgekit.mock.traffic', { paused: false });
    await removeFolder('live'); // awaited: its editor work ran on into the next suites (and its failure went unhandled)
  });

  test('validation mode: the inspect step shows both rule sets\' events side by side before the pending update', async () => {
    const zoneName = 'enterprise.example';
    const { asked, settle } = scriptUi(ctx, [
      (q) => (/Review/.test(q) ? 'Continue' : assert.fail(q)),
      (_q, o) => (o.includes('Validation Mode') ? 'Validation Mode' : assert.fail(o.join())),
      async (_q: string, o: string[]) => {
        assert.ok(o.includes('Inspect Security Events'), o.join());
        // Traffic while both rule sets run: a burst now, instead of waiting for the timer.
        // To the zone being migrated by its id: the view may still show the zone an earlier test left there (the view is shown
        // on this zone only after this answer).
        const sent = await vscode.commands.executeCommand<any>('edgekit.mock.sendTraffic', 2000, await zoneId(ctx, zoneName));
        assert.equal(sent.requests, 2000);
        assert.ok(sent.events > 0, 'the rules acted on some of the hostile requests');
        return 'Inspect Security Events';
      },
      (q: string, o: string[]) => {
        assert.deepEqual(o, ['Inspect Again', 'Review and Finish', 'Later']);
        const s = ctx.securityEvents.summary;
        assert.ok(s, `the view holds the summary (error: ${ctx.securityEvents.lastError})`);
        assert.equal(s.state, 'validation');
        assert.ok(s.previous.acted > 0 && s.new.acted > 0, JSON.stringify(s));
        // The question says the summary in one sentence of the counts that are not zero; the view lists every count.
        assert.ok(q.includes(`Of ${s.requests} requests, `), `the question says how many requests were compared: ${q}`);
        assert.match(q, /every count is in the Security Events view/);
        return 'Later';
      },
    ]);
    const final = await settle(vscode.commands.executeCommand<any>('edgekit.migration.start', zoneName));
    assert.equal(final.name, 'cancelled', JSON.stringify(final));
    assert.equal(final.zoneState, 'validation');
    assert.equal(asked.length, 4);
    // The view shows the zone, the summary lines and the latest events; an event opens as JSON.
    assert.equal(ctx.securityEvents.zone.name, zoneName);
    const roots: vscode.TreeItem[] = ctx.securityEvents.getChildren();
    assert.equal(roots[0].label, zoneName);
    assert.ok(roots.some((r) => r.label === 'Previous rules') && roots.some((r) => r.label === 'New rules'));
    const list = roots.find((r: any) => r.kind === 'events')!;
    const events: any[] = ctx.securityEvents.getChildren(list);
    assert.ok(events.length > 0);
    assert.ok(events.some((e) => e.event.Source === 'waf') && events.some((e) => e.event.Source === 'firewallmanaged'), 'both sources appear');
    const uri = await vscode.commands.executeCommand<string>(events[0].command.command, ...events[0].command.arguments);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.equal(JSON.parse(doc.getText()).RayID, events[0].event.RayID);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('a Logpush job delivers: the Zones view shows the delivery, it opens, and "Test Filter on Logs" runs on the delivered lines', async () => {
    const zoneName = 'pro.example';
    const id = await zoneId(ctx, zoneName);
    const filter = JSON.stringify({ where: { key: 'ClientRequestMethod', operator: 'eq', value: 'GET' } });
    const editor = await openFile('live/requests.logpush.json', JSON.stringify({
      name: 'live-requests', dataset: 'http_requests', enabled: true,
      destination_conf: 's3://edgekit-live/http?region=us-east-1', filter,
      output_options: { field_names: ['ClientRequestMethod', 'ClientRequestHost', 'EdgeStartTimestamp', 'RayID'], timestamp_format: 'rfc3339' },
    }, null, 2));
    const job = await createOnMock(ctx, editor.document.uri, id);
    assert.equal(job.dataset, 'http_requests');
    const sent = await vscode.commands.executeCommand<any>('edgekit.mock.sendTraffic', 300, id);
    assert.equal(sent.requests, 300);
    const flushed = await vscode.commands.executeCommand<any>('edgekit.logpush.deliverNow', job.id);
    assert.ok(flushed.delivered >= 1 && flushed.failed === 0, JSON.stringify(flushed));
    // The zone's children are its jobs, each with its last delivery.
    const zones = await ctx.zones.getChildren();
    const zone = zones.find((i: any) => i.zone?.name === zoneName);
    const jobs: any[] = await ctx.zones.getChildren(zone);
    const item = jobs.find((j) => j.job?.id === job.id);
    assert.ok(item, `job ${job.id} under ${zoneName}: ${jobs.map((j) => j.label).join(', ')}`);
    assert.match(String(item.description), /^http_requests · delivered .* · \d+ lines?$/);
    assert.equal(item.contextValue, 'logpushJob.delivered');
    // Its children are the batches it delivered, newest first, each openable.
    const batches: any[] = await ctx.zones.getChildren(item);
    assert.ok(batches.length >= 1);
    assert.match(String(batches[0].label), / · \d+ lines?$/);
    assert.equal(batches[0].description, batches[0].delivery.object.split('/').pop());
    assert.equal(batches[0].command.command, 'edgekit.logpush.openDelivery');
    const byItem = await vscode.commands.executeCommand<any>(batches[0].command.command, ...batches[0].command.arguments);
    assert.equal(byItem.delivery.id, batches[0].delivery.id);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // It opens: the lines are the job's filter and field selection applied to the traffic.
    const opened = await vscode.commands.executeCommand<any>('edgekit.logpush.openDelivery', job.id);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === opened.uri)!;
    const lines = doc.getText().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.equal(lines.length, opened.delivery.records);
    assert.ok(lines.length > 0 && lines.length < 300, `some but not all of the 300 requests are GETs: ${lines.length}`);
    for (const l of lines) {
      assert.deepEqual(Object.keys(l).sort(), ['ClientRequestHost', 'ClientRequestMethod', 'EdgeStartTimestamp', 'RayID']);
      assert.equal(l.ClientRequestMethod, 'GET');
      assert.equal(l.ClientRequestHost, zoneName);
    }
    // A read-only document named after the object, with nothing to save on close; the same lines when it is opened again.
    assert.equal(doc.uri.scheme, 'edgekit-delivery');
    assert.ok(doc.uri.path.endsWith(`${opened.delivery.object.split('/').pop().replace(/\.log\.gz$/, '')}.ndjson`), doc.uri.path);
    assert.equal(doc.isDirty, false);
    const text = doc.getText();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const again = await vscode.workspace.openTextDocument(vscode.Uri.parse(`${opened.uri}`));
    assert.equal(again.getText(), text);
    // "Test Filter on Logs" on the last delivered batch: the job's own filter lets every delivered line through.
    const r = await vscode.commands.executeCommand<any>('edgekit.logpush.testFilter', editor.document.uri, 'delivered');
    assert.equal(r.total, lines.length, JSON.stringify(r).slice(0, 300));
    assert.equal(r.matched, lines.length);
    // "Test Rules on Requests" on the same batch: each log line is the request it logs; the job left out ClientIP, and the run says so.
    const rules = await openFile('live/waf.ruleset.json', JSON.stringify({ name: 'waf', kind: 'zone', phase: 'http_request_firewall_custom', rules: [
      { action: 'block', expression: `http.request.method eq "GET" and http.host eq "${zoneName}"` },
      { action: 'log', expression: 'ip.src in {192.0.2.0/24}' },
    ] }, null, 2));
    const t = await vscode.commands.executeCommand<any>('edgekit.ruleset.testRules', rules.document.uri, 'delivered');
    assert.equal(t.total, lines.length, JSON.stringify(t).slice(0, 300));
    assert.deepEqual(t.rules.map((x: any) => x.matched), [lines.length, 0]);
    assert.equal(t.recordProblems, undefined);
    assert.deepEqual(t.logLines, { lines: lines.length, first: 1, dataset: 'http_requests', missing: [{ field: 'ip.src', from: 'ClientIP' }] });
    const report = vscode.workspace.textDocuments.find((d) => d.getText().startsWith('# live/waf.ruleset.json on'));
    assert.ok(report && /are `http_requests` log lines/.test(report.getText()), report?.getText().slice(0, 500));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('with "edgekit.mock.s3Endpoint" and keys in secret storage, an s3:// job uploads to that S3 server (a real one on loopback)', async () => {
    // s3rver, the S3-compatible server of the unit tests, from the repository's node_modules (not bundled into the test).
    const S3rver = createRequire(__filename)('s3rver') as new (o: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-host-s3-'));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: 'edgekit-host', configs: [] }] });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    try {
      await setSetting('mock.s3Endpoint', endpoint, vscode.ConfigurationTarget.Global);
      const set = await vscode.commands.executeCommand<any>('edgekit.mock.setBucketCredentials', { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
      assert.deepEqual(set, { endpoint, saved: true, restarted: true });
      await vscode.commands.executeCommand('edgekit.mock.traffic', { paused: true });
      const id = await zoneId(ctx, 'business.example');
      const editor = await openFile('live/bucket.logpush.json', JSON.stringify({
        name: 'to-bucket', dataset: 'http_requests', enabled: true, destination_conf: 's3://edgekit-host/edge/{DATE}?region=us-east-1',
        output_options: { field_names: ['RayID', 'ClientRequestHost'] },
      }, null, 2));
      const job = await createOnMock(ctx, editor.document.uri, id);
      await vscode.commands.executeCommand<any>('edgekit.mock.sendTraffic', 25, id);
      const flushed = await vscode.commands.executeCommand<any>('edgekit.logpush.deliverNow', job.id);
      assert.deepEqual(flushed, { delivered: 1, failed: 0 });
      const opened = await vscode.commands.executeCommand<any>('edgekit.logpush.openDelivery', job.id);
      assert.equal(opened.delivery.localPath, undefined, 'not in the local folder');
      // The object is in the bucket, under the delivery's name, with the job's 25 lines.
      const list = await (await fetch(`${endpoint}/edgekit-host?list-type=2`)).text();
      assert.deepEqual([...list.matchAll(/<Key>([^<]+)<\/Key>/g)].map((x) => x[1]), [opened.delivery.object]);
      const body = Buffer.from(await (await fetch(`${endpoint}/edgekit-host/${opened.delivery.object}`)).arrayBuffer());
      const rows = zlib.gunzipSync(body).toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      assert.equal(rows.length, 25);
      assert.ok(rows.every((r) => r.ClientRequestHost === 'business.example'));
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await setSetting('mock.s3Endpoint', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('edgekit.mock.setBucketCredentials', null).then(undefined, () => undefined);
      await vscode.commands.executeCommand('edgekit.mock.stop');
      await vscode.commands.executeCommand('edgekit.mock.start');
      await vscode.commands.executeCommand('edgekit.mock.traffic', { paused: true });
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function zoneId(ctx: any, name: string): Promise<string> {
  const zones = await ctx.zones.getChildren();
  const z = zones.find((i: any) => i.zone?.name === name);
  assert.ok(z, `zone ${name}`);
  return z.zone.id;
}
