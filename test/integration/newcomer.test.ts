// The README's first five minutes in the editor, on the shipped example files: the example request sent from its own text, and
// the first migration step on a zone the Zones view lists. (npm start itself: scripts/smoke-start.mjs; the CLI: test/system/cli/newcomer.test.ts.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, openFile, removeFolder } from './helpers';

const examples = (name: string) => {
  const ext = vscode.extensions.getExtension('edgekit.edgekit')!;
  return fs.readFileSync(path.join(ext.extensionPath, 'examples', name), 'utf8');
};

suite('A newcomer\'s first five minutes', () => {
  let ctx: any;
  suiteSetup(async () => {
    ctx = (await api()).ctx;
  });
  suiteTeardown(() => removeFolder('newcomer'));

  test('examples/balance.rpc.json, sent as it is, gets a balance from the embedded mock', async () => {
    const editor = await openFile('newcomer/balance.rpc.json', examples('balance.rpc.json'));
    const r = await vscode.commands.executeCommand<any>('edgekit.gateway.send', editor.document.uri);
    assert.equal(r.status, 200);
    assert.match(String(r.body.result), /^0x[0-9a-f]+$/);
  });

  test('the first migration step: the Zones view lists the mock\'s zones and a zone\'s check says it can move', async () => {
    await vscode.commands.executeCommand('edgekit.mock.reset'); // earlier suites migrate zones; a newcomer starts from the initial state
    const zones = await ctx.zones.getChildren();
    const pro = zones.find((z: vscode.TreeItem) => String(z.label).startsWith('pro.example'));
    assert.ok(pro, `pro.example is listed among ${zones.map((z: vscode.TreeItem) => z.label).join(', ')}`);
    const check = await vscode.commands.executeCommand<any>('edgekit.migration.check', pro);
    assert.deepEqual(check, { compatible: true, migration_state: 'start' });
  });
});
