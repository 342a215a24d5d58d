// A Logpush job's life after "Create Logpush Job", from the Zones view and the editor: open its configuration as a document, edit
// and update it, disable and enable it, delete it (modal, cancellable). A saved job file with an "id" updates its job too: the
// job is looked for in the backend's zones. Everything against the embedded mock, read back through the API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, openFile, removeFolder, scriptUi } from './helpers';

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
    for (const d of vscode.workspace.textDocuments.filter((x) => x.uri.scheme === 'untitled' && x.uri.path.endsWith('.logpush.json'))) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
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
    const created = await vscode.commands.executeCommand<any>('edgekit.logpush.createJob', editor.document.uri, zoneId);
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
    const { asked } = scriptUi(ctx, [() => undefined, (_q, o) => (o.includes('Delete') ? 'Delete' : assert.fail(o.join()))]);
    assert.equal(await vscode.commands.executeCommand('edgekit.logpush.deleteJob', item), undefined);
    assert.ok(await jobItem(zoneName, id), 'kept when the question was dismissed');
    assert.deepEqual(await vscode.commands.executeCommand<any>('edgekit.logpush.deleteJob', item), { id });
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
    const created = await vscode.commands.executeCommand<any>('edgekit.logpush.createJob', fresh.document.uri, zoneId);
    // The file as a repository keeps it: the job's id written into it, then a change.
    const editor = await openFile('jobs/saved-with-id.logpush.json', JSON.stringify({ id: created.id, ...job, enabled: false }, null, 2));
    const updated = await vscode.commands.executeCommand<any>('edgekit.logpush.updateJob', editor.document.uri);
    assert.equal(updated.id, created.id);
    assert.equal(updated.enabled, false);
    assert.equal((await jobItem(zoneName, created.id)).contextValue, 'logpushJob.disabled');
    // Without an id it names no job: refused (the error says to create it or open one from the view), nothing sent.
    assert.equal(await vscode.commands.executeCommand('edgekit.logpush.updateJob', fresh.document.uri), undefined);
    assert.equal((await jobItem(zoneName, created.id)).job.enabled, false);
  });
});
