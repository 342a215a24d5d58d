// Account-scoped Logpush jobs in the editor: a job file whose dataset is an account dataset is created under the account (no zone
// is asked for), and the Zones view's Accounts level lists it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, createOnMock, openFile, removeFolder } from './helpers';

suite('Account-scoped Logpush jobs', () => {
  let ctx: any;
  suiteSetup(async () => {
    ctx = (await api()).ctx;
    await vscode.commands.executeCommand('edgekit.mock.reset');
  });
  suiteTeardown(() => removeFolder('accounts'));

  test('a gateway_dns job goes to the account, and the Accounts level of the view lists it', async () => {
    const file = await openFile('accounts/dns.logpush.json', JSON.stringify({
      name: 'gateway-dns', dataset: 'gateway_dns', destination_conf: 's3://bucket/dns?region=us-east-1',
      filter: JSON.stringify({ where: { key: 'QueryName', operator: 'endsWith', value: '.example' } }),
    }, null, 2));
    const job = await createOnMock(ctx, file.document.uri);
    assert.ok(job && job.id !== undefined, 'the job was created without asking for a zone');
    assert.equal(job.dataset, 'gateway_dns');
    const top = await ctx.zones.getChildren();
    const account = top.find((i: vscode.TreeItem) => i.contextValue === 'account');
    assert.ok(account, `an account is listed among ${top.map((i: vscode.TreeItem) => i.label).join(', ')}`);
    const jobs = await ctx.zones.getChildren(account);
    assert.deepEqual(jobs.map((j: vscode.TreeItem) => j.label), ['gateway-dns']);
    assert.match(String(jobs[0].description), /gateway_dns/);
  });
});
