// A Logpush job's life after "Create Logpush Job", from the Zones view and the editor: open its configuration as a document, edit
// and update it, disable and enable it, delete it (modal, cancellable). A saved job file with an "id" updates its job too: the
// job is looked for in the backend's zones. Everything against the embedded mock, read back through the API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, createOnMock, openFile, removeFolder, revertAndClose, scriptUi, setText, waitForDiagnostics } from './helpers';

suite('Logpush jobs: open, update, disable, enable, delete', () => {
  let ctx: any;
  let ui: unknown;
  suiteSetup(async () => {
    ctx = (await api()).ctx;
    ui = ctx.ui;
    await vscode.commands.executeCommand('edgekit.mock.reset');
  });
  suiteTeardown(async () => {
    ctx.ui = ui;
    for (const d of vscode.workspace.textDocuments.filter((x) => x.uri.scheme === 'untitled' && x.uri.path.endsWith('.logpush.json'))) await revertAndClose(d);
    await removeFolder('jobs');
  });

  async function jobItem(zoneName: string, id: number): Promise<any> {
    const zones = await ctx.zones.getChildren();
    const zone = zones.find((i: any) => i.zone?.name === zoneName);
    assert.ok(zone, `zone ${zoneName}`);
    const jobs: any[] = await ctx.zones.getChildren(zone);
    return jobs.find((j) => j.job?.id === id);
  }

  test('from the Zones view: open the configuration, edit, update; disable, enable; delete after the modal question', async () => {
    const zoneName = 'pro.example';
    const editor = await openFile('jobs/lifecycle.logpush.json', JSON.stringify({
      name: 'lifecycle', dataset: 'http_requests', enabled: true, destination_conf: 's3://edgekit-jobs/http?region=us-east-1',
      output_options: { field_names: ['ClientIP', 'EdgeStartTimestamp', 'RayID'], timestamp_format: 'rfc3339' },
    }, null, 2));
    const zones = await ctx.zones.getChildren();
    const zoneId = zones.find((i: any) => i.zone?.name === zoneName).zone.id;
    const created = await createOnMock(ctx, editor.document.uri, zoneId);
    const id: number = created.id;
    let item = await jobItem(zoneName, id);
    assert.equal(item.contextValue, 'logpushJob', 'enabled, nothing delivered');

    // Open: an untitled *.logpush.json named after the job, with its id and configuration and without the delivery status members.
    const opened = await vscode.commands.executeCommand<any>('edgekit.logpush.openJob', item);
    assert.equal(opened.reused, false);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === opened.uri)!;
    assert.equal(doc.uri.scheme, 'untitled');
    assert.ok(doc.uri.path.endsWith(`/lifecycle-${id}.logpush.json`), doc.uri.path);
    assert.equal(doc.languageId, 'logpush-job');
    const config = JSON.parse(doc.getText());
    assert.equal(config.id, id);
    assert.equal(config.destination_conf, 's3://edgekit-jobs/http?region=us-east-1');
    for (const k of ['last_complete', 'last_error', 'error_message']) assert.ok(!(k in config), `${k} left out`);
    // Opening it again shows the same document, never replacing its text.
    const shown = vscode.window.activeTextEditor!;
    await shown.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)),
      JSON.stringify({ ...config, name: 'lifecycle-renamed', output_options: { ...config.output_options, field_names: ['ClientIP', 'RayID'] } }, null, 2)));
    const again = await vscode.commands.executeCommand<any>('edgekit.logpush.openJob', item);
    assert.equal(again.reused, true);
    assert.match(doc.getText(), /lifecycle-renamed/);

    // Update from the edited document: the backend's job changes.
    const updated = await vscode.commands.executeCommand<any>('edgekit.logpush.updateJob', doc.uri);
    assert.equal(updated.id, id);
    assert.equal(updated.name, 'lifecycle-renamed');
    assert.deepEqual(updated.output_options.field_names, ['ClientIP', 'RayID']);

    // Disable, then enable: the view's item says which it is (its menus offer the other).
    const disabled = await vscode.commands.executeCommand<any>('edgekit.logpush.disableJob', item);
    assert.equal(disabled.enabled, false);
    item = await jobItem(zoneName, id);
    assert.equal(item.contextValue, 'logpushJob.disabled');
    assert.match(String(item.description), /disabled/);
    assert.equal((await vscode.commands.executeCommand<any>('edgekit.logpush.enableJob', item)).enabled, true);
    item = await jobItem(zoneName, id);
    assert.equal(item.contextValue, 'logpushJob');

    // Delete: asked first (modal); "no" keeps the job, "Delete" removes it.
    const { asked, settle } = scriptUi(ctx, [() => undefined, (_q, o) => (o.includes('Delete') ? 'Delete' : assert.fail(o.join()))]);
    assert.equal(await settle(vscode.commands.executeCommand('edgekit.logpush.deleteJob', item)), undefined);
    assert.ok(await jobItem(zoneName, id), 'kept when the question was dismissed');
    assert.deepEqual(await settle(vscode.commands.executeCommand<any>('edgekit.logpush.deleteJob', item)), { id });
    assert.equal(asked.length, 2);
    assert.match(asked[0], new RegExp(`^Delete Logpush job ${id} "lifecycle-renamed" of zone ${zoneName.replace('.', '\\.')}\\?$`));
    assert.equal(await jobItem(zoneName, id), undefined, 'gone from the view');
    // The opened document now names a deleted job: its update fails (the command shows the error) and changes nothing.
    assert.equal(await vscode.commands.executeCommand('edgekit.logpush.updateJob', doc.uri), undefined);
  });

  test('a saved job file with an "id" updates its job, found among the zones; one without an id is refused', async () => {
    const zoneName = 'business.example';
    const zones = await ctx.zones.getChildren();
    const zoneId = zones.find((i: any) => i.zone?.name === zoneName).zone.id;
    const job = { name: 'saved', dataset: 'firewall_events', enabled: true, destination_conf: 's3://edgekit-jobs/fw?region=us-east-1' };
    const fresh = await openFile('jobs/saved.logpush.json', JSON.stringify(job, null, 2));
    const created = await createOnMock(ctx, fresh.document.uri, zoneId);
    // The file as a repository keeps it: the job's id written into it, then a change.
    const editor = await openFile('jobs/saved-with-id.logpush.json', JSON.stringify({ id: created.id, ...job, enabled: false }, null, 2));
    // Not read from the backend here, the file's "enabled": false would stop the running job: asked first (modal), answered.
    const { asked, settle } = scriptUi(ctx, [(_q, o) => (assert.deepEqual(o, ['Disable It', 'Keep It Enabled']), 'Disable It')]);
    const updated = await settle(vscode.commands.executeCommand<any>('edgekit.logpush.updateJob', editor.document.uri));
    assert.equal(asked.length, 1);
    assert.match(asked[0], /is enabled on the backend, and jobs\/saved-with-id\.logpush\.json says "enabled": false\. Disable it with this update\?$/);
    assert.equal(updated.id, created.id);
    assert.equal(updated.enabled, false);
    assert.equal((await jobItem(zoneName, created.id)).contextValue, 'logpushJob.disabled');
    // Without an id it names no job: refused (the error says to create it or open one from the view), nothing sent.
    assert.equal(await vscode.commands.executeCommand('edgekit.logpush.updateJob', fresh.document.uri), undefined);
    assert.equal((await jobItem(zoneName, created.id)).job.enabled, false);
  });

  test('the destination ownership challenge: asked for, confirmed by the backend, written into the document; a wrong token is refused', async () => {
    const zoneName = 'enterprise.example';
    const editor = await openFile('jobs/proved.logpush.json', JSON.stringify({
      name: 'proved', dataset: 'http_requests', destination_conf: 's3://edgekit-proof/http?region=us-east-1',
    }, null, 2) + '\n');
    const doc = editor.document;
    const before = doc.getText();
    // A wrong token: the backend says no, the document is unchanged.
    assert.equal(await vscode.commands.executeCommand('edgekit.logpush.proveOwnership', doc.uri, zoneName, 'not-the-token'), undefined);
    assert.equal(doc.getText(), before);
    // The embedded mock says the token in its reply (the platform writes it only into the bucket's file): read it as a user would
    // read the file, through the API, then give it to the command.
    const ctxApi = await ctx.backend.endpoints('api', false);
    const zones = await ctx.zones.getChildren();
    const zoneId = zones.find((i: any) => i.zone?.name === zoneName).zone.id;
    const res = await fetch(`${ctxApi.apiBaseUrl}/zones/${zoneId}/logpush/ownership`, {
      method: 'POST', headers: { Authorization: `Bearer ${ctxApi.apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ destination_conf: 's3://edgekit-proof/http?region=us-east-1' }),
    });
    const token = /the token is ([A-Za-z0-9_-]+)\./.exec(((await res.json()) as { result: { message: string } }).result.message)![1];
    const proved = await vscode.commands.executeCommand<any>('edgekit.logpush.proveOwnership', doc.uri, zoneName, token);
    assert.equal(proved.token, token);
    assert.equal(JSON.parse(doc.getText()).ownership_challenge, token);
    assert.match(doc.getText(), /\n  "ownership_challenge": "[^"]+"\n\}/, 'added as the last member, in the file\'s layout');
    // Created with it: the backend has nothing to note.
    const job = await vscode.commands.executeCommand<any>('edgekit.logpush.createJob', doc.uri, zoneId);
    assert.equal(job.name, 'proved');
    assert.ok(!('ownership_challenge' in job), 'the platform\'s job record does not carry it');
    // The token holds in that zone only: creating the job in another one asks first (modal), and dismissed sends nothing.
    const { asked, settle } = scriptUi(ctx, [(_q, o) => (assert.deepEqual(o, ['Prove Ownership Again', 'Send As It Is']), undefined)]);
    assert.equal(await settle(vscode.commands.executeCommand('edgekit.logpush.createJob', doc.uri, 'pro.example')), undefined);
    ctx.ui = ui;
    assert.equal(asked.length, 1);
    assert.match(asked[0], /may be refused: it was proven in zone enterprise\.example, and this job goes to zone pro\.example\.$/);
    // An https destination needs no challenge: refused before anything is asked.
    const https = await openFile('jobs/https.logpush.json', JSON.stringify({ name: 'h', dataset: 'http_requests', destination_conf: 'https://logs.example/ingest' }, null, 2));
    assert.equal(await vscode.commands.executeCommand('edgekit.logpush.proveOwnership', https.document.uri, zoneName, token), undefined);
  });

  test('a job opened from a zone is checked as the zone\'s: ZoneName (account-level firewall_events jobs only) is an error, also after a server restart', async () => {
    const zoneName = 'business.example';
    const zones = await ctx.zones.getChildren();
    const zoneId = zones.find((i: any) => i.zone?.name === zoneName).zone.id;
    const file = await openFile('jobs/fw-scope.logpush.json', JSON.stringify({ name: 'fw-scope', dataset: 'firewall_events', destination_conf: 's3://edgekit-jobs/fw-scope?region=us-east-1' }, null, 2));
    const created = await createOnMock(ctx, file.document.uri, zoneId);
    const opened = await vscode.commands.executeCommand<any>('edgekit.logpush.openJob', await jobItem(zoneName, created.id));
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === opened.uri)!;
    const editor = await vscode.window.showTextDocument(doc);
    const withFilter = (where: unknown) => JSON.stringify({ ...JSON.parse(doc.getText()), filter: JSON.stringify({ where }) }, null, 2);
    const zoneNameAt = (ds: vscode.Diagnostic[]) => ds.filter((d) => codeOf(d) === 'logpush/unknown-field' && /"ZoneName" is a field of account-level firewall_events jobs only; this job is a zone's\./.test(d.message));
    await setText(editor, withFilter({ key: 'ZoneName', operator: 'eq', value: zoneName }));
    const first = zoneNameAt(await waitForDiagnostics(doc.uri, (ds) => zoneNameAt(ds).length === 1, 'ZoneName in a zone\'s job'))[0];
    // In a file whose place is not known, ZoneName is accepted (the scope is the document's, not the text's); a misspelt field
    // beside it says when the file was checked.
    const elsewhere = await openFile('jobs/fw-unknown.logpush.json', withFilter({ and: [{ key: 'ZoneName', operator: 'eq', value: zoneName }, { key: 'ClientCountyr', operator: 'eq', value: 'ca' }] }));
    const other = await waitForDiagnostics(elsewhere.document.uri, (ds) => ds.some((d) => codeOf(d) === 'logpush/unknown-field'), 'the misspelt field');
    assert.deepEqual(other.filter((d) => codeOf(d) === 'logpush/unknown-field').map((d) => d.message).filter((m) => m.includes('ZoneName')), [], 'not known there');
    // A restarted server knows nothing until the client tells it again: ZoneName, moved, is reported at its new place.
    await vscode.commands.executeCommand('edgekit.restartServer');
    await vscode.window.showTextDocument(doc);
    await setText(vscode.window.activeTextEditor!, withFilter({ and: [{ key: 'ClientIP', operator: 'eq', value: '192.0.2.1' }, { key: 'ZoneName', operator: 'eq', value: zoneName }] }));
    await waitForDiagnostics(doc.uri, (ds) => zoneNameAt(ds).some((d) => !d.range.isEqual(first.range)), 'ZoneName after the restart');
  });
});
