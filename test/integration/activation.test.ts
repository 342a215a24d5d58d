// Runs first (alphabetical): the language server starts with the first EdgeKit document, not at activation. Then LanguageServer's
// own contract (one shared start, failures, restart) on a fake LanguageClient.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LanguageServer, type ServerState } from '../../client/src/languageServer';
import { isEdgeKitDocument } from '../../client/src/languages';
import { DocumentInfoRequest } from '../../server/src/protocol';
import { api, codeOf, openFile, removeFolder, waitForDiagnostics } from './helpers';

function stateReached(server: { onDidChangeState: vscode.Event<ServerState> }, want: ServerState): Promise<void> {
  return new Promise((resolve) => {
    const sub = server.onDidChangeState((s) => { if (s === want) { sub.dispose(); resolve(); } });
  });
}

/** A LanguageClient that records what it is asked; start() waits for the test to say how it ends. */
class FakeClient {
  starts = 0;
  restarts = 0;
  stops = 0;
  requests: string[] = [];
  private readonly stateChanged = new vscode.EventEmitter<{ oldState: number; newState: number }>();
  onDidChangeState = this.stateChanged.event;
  private settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
  start(): Promise<void> {
    this.starts++;
    return new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
  }
  finishStart(error?: Error): void {
    if (error) this.settle!.reject(error);
    else this.settle!.resolve();
  }
  async restart(): Promise<void> { this.restarts++; }
  async stop(): Promise<void> { this.stops++; }
  async dispose(): Promise<void> { /* nothing held */ }
  async sendRequest(method: string, params: unknown): Promise<unknown> {
    this.requests.push(method);
    return { method, params };
  }
}

suite('Activation and the language server start', () => {
  suiteTeardown(() => removeFolder('activation'));

  test('activation starts no language server; the first EdgeKit document opened does', async () => {
    const { ctx } = await api();
    assert.ok(!vscode.workspace.textDocuments.some(isEdgeKitDocument), 'precondition: no EdgeKit document is open before this suite');
    assert.equal(ctx.server.state, 'not started');
    assert.equal(ctx.server.languageClient, undefined, 'vscode-languageclient is not even loaded');
    const running = stateReached(ctx.server, 'running');
    const editor = await openFile('activation/first.rpc.json', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumbr"}\n');
    await running;
    assert.match(ctx.server.startedFor, /first\.rpc\.json was opened/);
    await waitForDiagnostics(editor.document.uri, (d) => d.some((x) => codeOf(x) === 'jsonrpc/unknown-method'), 'diagnostics from the started server');
  });

  test('concurrent requests share one start; the request goes out once the server runs', async () => {
    let made = 0;
    const fake = new FakeClient();
    const server = new LanguageServer(() => { made++; return fake as unknown as LanguageClient; });
    try {
      assert.equal(server.state, 'not started');
      const a = server.request(DocumentInfoRequest, { uri: 'file:///a.rpc.json' });
      const b = server.request(DocumentInfoRequest, { uri: 'file:///b.rpc.json' });
      assert.equal(server.state, 'starting');
      assert.deepEqual(fake.requests, [], 'nothing is sent before the server runs');
      fake.finishStart();
      await Promise.all([a, b]);
      assert.equal(made, 1, 'one client');
      assert.equal(fake.starts, 1, 'one start');
      assert.deepEqual(fake.requests, ['edgekit/documentInfo', 'edgekit/documentInfo']);
      assert.equal(server.state, 'running');
      assert.equal(server.startedFor, 'the request edgekit/documentInfo');
      await server.restart();
      assert.equal(fake.restarts, 1, 'a running server is restarted in place');
    } finally {
      await server.stop();
    }
    assert.equal(fake.stops, 1);
    assert.equal(server.state, 'stopped');
    await assert.rejects(server.request(DocumentInfoRequest, { uri: 'file:///c.rpc.json' }), /shut down/);
  });

  test('a failed start is reported, stays failed for later requests, and the restart command starts a new client', async () => {
    const clients: FakeClient[] = [];
    const created = new vscode.EventEmitter<FakeClient>();
    const next = () => new Promise<FakeClient>((resolve) => { const sub = created.event((c) => { sub.dispose(); resolve(c); }); });
    const server = new LanguageServer(() => { const c = new FakeClient(); clients.push(c); created.fire(c); return c as unknown as LanguageClient; });
    try {
      const first = server.request(DocumentInfoRequest, { uri: 'file:///a.rpc.json' });
      clients[0].finishStart(new Error('spawn node ENOENT'));
      await assert.rejects(first, /failed to start: spawn node ENOENT\. See the EdgeKit log/);
      assert.equal(server.state, 'failed');
      await assert.rejects(server.request(DocumentInfoRequest, { uri: 'file:///a.rpc.json' }), /failed to start/);
      assert.equal(clients.length, 1, 'no new attempt on every request');
      const second = next();
      const restarted = server.restart();
      (await second).finishStart();
      await restarted;
      assert.equal(server.state, 'running');
      assert.equal(clients.length, 2);
    } finally {
      await server.stop();
      created.dispose();
    }
  });
});
