// The Security Events view follows the backend: what it shows is the backend's as it is now, after a reset, a stop or a switch to
// another backend, without the user pressing Refresh.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, setSetting } from './helpers';

/** Resolves with the next change of the view's tree (a refresh has loaded), or fails after a while. */
function nextChange(view: any, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { sub.dispose(); reject(new Error(`the Security Events view did not change after ${what}`)); }, 10_000);
    const sub = view.onDidChangeTreeData(() => { clearTimeout(timer); sub.dispose(); resolve(); });
  });
}

suite('Security Events view follows the backend', () => {
  let ctx: any;

  suiteSetup(async () => {
    ctx = (await api()).ctx;
    await vscode.commands.executeCommand('edgekit.mock.reset');
    await vscode.commands.executeCommand('edgekit.mock.traffic', { paused: true });
  });

  suiteTeardown(async () => {
    await setSetting('backend', undefined, vscode.ConfigurationTarget.Global);
    await setSetting('api.baseUrl', undefined, vscode.ConfigurationTarget.Global);
  });

  test('after a reset, a stop and a switch to the remote backend, the view shows the backend as it is now', async () => {
    const shown = await vscode.commands.executeCommand<any>('edgekit.securityEvents.show', 'pro.example');
    assert.equal(shown.error, undefined);
    const sent = await vscode.commands.executeCommand<any>('edgekit.mock.sendTraffic', 1000, ctx.securityEvents.zone.id);
    assert.ok(sent.events > 0, 'the rules acted on some requests');
    assert.ok(ctx.securityEvents.events.length > 0, 'the view lists them');

    // Reset: the mock has no events any more, and the view says so.
    let changed = nextChange(ctx.securityEvents, 'the reset');
    await vscode.commands.executeCommand('edgekit.mock.reset');
    await changed;
    assert.equal(ctx.securityEvents.events.length, 0, 'the events of before the reset are gone');
    assert.equal(ctx.securityEvents.lastError, undefined);

    // Stop: nothing to read; the view says why instead of showing what it read last.
    await vscode.commands.executeCommand('edgekit.mock.sendTraffic', 1000, ctx.securityEvents.zone.id);
    assert.ok(ctx.securityEvents.events.length > 0);
    changed = nextChange(ctx.securityEvents, 'the stop');
    await vscode.commands.executeCommand('edgekit.mock.stop');
    await changed;
    assert.equal(ctx.securityEvents.events.length, 0);
    assert.equal(ctx.securityEvents.summary, undefined);
    assert.match(String(ctx.securityEvents.lastError), /not running/);

    // Another backend: the mock's zone is not one of its zones; the view forgets it.
    await vscode.commands.executeCommand('edgekit.securityEvents.show', 'pro.example');
    assert.ok(ctx.securityEvents.zone);
    // With the embedded mock, the API base setting is not the backend: the zone stays.
    const applied = new Promise<void>((resolve) => { const sub = vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('edgekit.api.baseUrl')) { sub.dispose(); resolve(); } }); });
    await setSetting('api.baseUrl', 'https://api.example.com/client/v4', vscode.ConfigurationTarget.Global);
    await applied;
    assert.ok(ctx.securityEvents.zone, 'the zone stays');
    changed = nextChange(ctx.securityEvents, 'the switch to the remote backend');
    await setSetting('backend', 'remote', vscode.ConfigurationTarget.Global);
    await changed;
    assert.equal(ctx.securityEvents.zone, undefined);
    assert.deepEqual(ctx.securityEvents.getChildren(), []);
    assert.equal(ctx.securityEvents.lastError, undefined);
  });

  test('an event opens read-only as JSON, the same document each time (no untitled buffer asking to be saved)', async () => {
    await setSetting('backend', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('edgekit.securityEvents.show', 'pro.example');
    assert.ok(ctx.securityEvents.zone, `the zone shown (the view's last error: ${ctx.securityEvents.lastError})`);
    await vscode.commands.executeCommand('edgekit.mock.sendTraffic', 1000, ctx.securityEvents.zone.id);
    const event = ctx.securityEvents.events[0];
    assert.ok(event, 'an event to open');
    const uri = await vscode.commands.executeCommand<string>('edgekit.securityEvents.openEvent', event);
    const again = await vscode.commands.executeCommand<string>('edgekit.securityEvents.openEvent', { ...event });
    assert.equal(again, uri);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.equal(doc.uri.scheme, 'edgekit-event');
    assert.equal(doc.isDirty, false);
    assert.equal(doc.languageId, 'json');
    assert.deepEqual(JSON.parse(doc.getText()), event);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
