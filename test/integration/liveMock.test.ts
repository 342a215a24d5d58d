// The mock as a small live platform, seen from the editor: sample traffic, the Security Events view and the migration's inspect
// step in validation mode, and a Logpush job that delivers (the Zones view shows the delivery, it opens, and "Test Filter on Logs"
// runs on it). Traffic is paused and sent in bursts by command, so every count is deterministic and nothing waits on a timer.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, removeFolder, scriptUi } from './helpers';

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
    removeFolder('live');
  });

  test('validation mode: the inspect step shows both rule sets\' events side by side before the pending update', async () => {
    const zoneName = 'enterprise.example';
    const { asked } = scriptUi(ctx, [
      (q) => (/Review/.test(q) ? 'Continue' : assert.fail(q)),
      (_q, o) => (o.includes('Validation Mode') ? 'Validation Mode' : assert.fail(o.join())),
      async (_q: string, o: string[]) => {
        assert.ok(o.includes('Inspect Security Events'), o.join());
        // Traffic while both rule sets run: a burst now, instead of waiting for the timer.
        const sent = await vscode.commands.executeCommand<any>('edgekit.mock.sendTraffic', 2000, ctx.securityEvents.zone?.id ?? (await zoneId(ctx, zoneName)));
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
        for (const line of s.sentences) assert.ok(q.includes(line), `the question carries "${line}": ${q}`);
        return 'Later';
      },
    ]);
    const final = await vscode.commands.executeCommand<any>('edgekit.migration.start', zoneName);
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
    assert.ok(events.some((e) => e.event.Source === 'waf') && events.some((e) => e.event.Source === 'firewallManaged'), 'both sources appear');
    const uri = await vscode.commands.executeCommand<string>(events[0].command.command, ...events[0].command.arguments);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.equal(JSON.parse(doc.getText()).RayID, events[0].event.RayID);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

});

async function zoneId(ctx: any, name: string): Promise<string> {
  const zones = await ctx.zones.getChildren();
  const z = zones.find((i: any) => i.zone?.name === name);
  assert.ok(z, `zone ${name}`);
  return z.zone.id;
}
