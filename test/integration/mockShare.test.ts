// A second window, or a reloaded one whose previous extension host still holds the port: the mock that already serves the port
// is used; a port held by another program moves the mock to a free port; a shared mock that goes away is replaced.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { api, setSetting } from './helpers';

type Backend = { url: string; gatewayUrl: string; credentials: Record<string, string>; close(): Promise<void> };

function mockModule(): { startMockBackend(o: object): Promise<Backend> } {
  const ext = vscode.extensions.getExtension('edgekit.edgekit')!;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(ext.extensionPath, 'dist', 'mock.js'));
}

async function setPort(port: number | undefined): Promise<void> {
  await setSetting('mock.port', port, vscode.ConfigurationTarget.Global);
}

const portOf = (url: string) => Number(new URL(url).port);

suite('One mock per port, across windows', () => {
  let ctx: any;

  suiteSetup(async () => {
    ctx = (await api()).ctx;
  });

  suiteTeardown(async () => {
    await ctx.backend.stopMock();
    await setPort(undefined);
  });

  test('the mock another window runs on the port is used, and replaced by our own when that window goes away', async () => {
    // Our credentials (kept beside the mock's state file) are the ones every window of this user reads.
    const own = await ctx.backend.startMock();
    const credentials = own.credentials;
    await ctx.backend.stopMock();
    const otherWindow = await mockModule().startMockBackend({ port: 0, ...credentials });
    const port = portOf(otherWindow.url);
    try {
      await setPort(port);
      const r = await vscode.commands.executeCommand<{ gatewayUrl: string }>('edgekit.mock.start');
      assert.equal(portOf(r.gatewayUrl), port, 'the window uses the port the other window serves');
      assert.equal(ctx.backend.shared, true);
      const zones = await ctx.zones.getChildren();
      assert.ok(zones.length > 0, 'the Zones view lists the shared mock\'s zones');
    } finally {
      await otherWindow.close();
    }
    // The other window is gone: the next command starts this window's own mock, on the same port.
    await vscode.commands.executeCommand('edgekit.mock.reset');
    assert.equal(ctx.backend.shared, false);
    assert.equal(portOf(ctx.backend.running.url), port);
  });

  test('a late failed probe of the shared mock does not drop the mock another caller started meanwhile', async () => {
    // A view refreshing on its own probes the shared mock just as its window goes away; its probe fails only after the command
    // the user ran has already replaced the shared mock with this window's own. The late answer must leave that one in place.
    await ctx.backend.stopMock();
    const own = await ctx.backend.startMock();
    const credentials = own.credentials;
    await ctx.backend.stopMock();
    const otherWindow = await mockModule().startMockBackend({ port: 0, ...credentials });
    const port = portOf(otherWindow.url);
    await setPort(port);
    await vscode.commands.executeCommand('edgekit.mock.start');
    assert.equal(ctx.backend.shared, true);
    const real = ctx.backend.mockModule.bind(ctx.backend);
    let releaseLate!: () => void;
    const late = new Promise<void>((resolve) => { releaseLate = resolve; });
    let probes = 0;
    ctx.backend.mockModule = () => {
      const m = real();
      return { ...m, probeMock: async (url: string) => {
        if (++probes > 1) return m.probeMock(url);
        // The view's probe went to the dying window: it fails, and its answer arrives after the command below.
        await late;
        return undefined;
      } };
    };
    try {
      const view = ctx.backend.endpoints('api', false);
      await otherWindow.close();
      await vscode.commands.executeCommand('edgekit.mock.reset');
      const replaced = ctx.backend.running;
      assert.ok(replaced && ctx.backend.shared === false, 'the reset started this window\'s own mock');
      releaseLate();
      const seen = await view;
      assert.equal(ctx.backend.running, replaced, 'the late probe left the running mock in place');
      assert.equal(seen.apiBaseUrl, replaced.apiBaseUrl);
      assert.equal(ctx.backend.shared, false);
      assert.equal(portOf(replaced.url), port);
    } finally {
      ctx.backend.mockModule = real;
      releaseLate();
      await otherWindow.close();
    }
  });

  test('turning edgekit.mock.autoStart on starts the mock (settings that arrive after activation do too)', async () => {
    await ctx.backend.stopMock();
    await setPort(undefined);
    const started = new Promise<void>((resolve) => {
      const sub = ctx.backend.onDidChange(() => { if (ctx.backend.running) { sub.dispose(); resolve(); } });
    });
    await setSetting('mock.autoStart', true, vscode.ConfigurationTarget.Global);
    try {
      await started;
      assert.ok(ctx.backend.running, 'the mock runs');
    } finally {
      await setSetting('mock.autoStart', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a port held by another program: the mock starts on a free port instead of failing', async () => {
    await ctx.backend.stopMock();
    const other = http.createServer((_req, res) => res.end('someone else'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const port = (other.address() as AddressInfo).port;
    try {
      await setPort(port);
      const r = await vscode.commands.executeCommand<{ gatewayUrl: string }>('edgekit.mock.start');
      assert.ok(r, 'the start command answered (it failed before)');
      assert.notEqual(portOf(r.gatewayUrl), port);
      assert.equal(ctx.backend.shared, false);
      const zones = await ctx.zones.getChildren();
      assert.ok(zones.length > 0, 'the Zones view lists zones');
    } finally {
      await ctx.backend.stopMock();
      other.close();
    }
  });
});
