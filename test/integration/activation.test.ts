// Runs first (alphabetical): the language server starts with the first EdgeKit document, not at activation. Then LanguageServer's
// own contract (one shared start, failures, restart) on a fake LanguageClient.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { LanguageServer, type ServerState } from '../../client/src/languageServer';
import { isEdgeKitDocument } from '../../client/src/languages';
import { DocumentInfoRequest } from '../../server/src/protocol';
import { DocumentStatus } from '../../client/src/statusBar';
import { api, codeOf, openFile, removeFolder, waitForDiagnostics } from './helpers';

function stateReached(server: { onDidChangeState: vscode.Event<ServerState> }, want: ServerState): Promise<void> {
  return new Promise((resolve) => {
    const sub = server.onDidChangeState((s) => { if (s === want) { sub.dispose(); resolve(); } });
  });
}

/**
 * A LanguageClient that records what it is asked and moves through vscode-languageclient's public states (Stopped 1, Running 2,
 * Starting 3, StartFailed 4) firing onDidChangeState as the real one does; start() waits for the test to say how it ends.
 */
class FakeClient {
  starts = 0;
  restarts = 0;
  stops = 0;
  requests: string[] = [];
  state = 1;
  private readonly stateChanged = new vscode.EventEmitter<{ oldState: number; newState: number }>();
  onDidChangeState = this.stateChanged.event;
  private settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private move(newState: number): void {
    const oldState = this.state;
    this.state = newState;
    this.stateChanged.fire({ oldState, newState });
  }
  start(): Promise<void> {
    this.starts++;
    this.move(3);
    return new Promise((resolve, reject) => { this.settle = { resolve, reject }; });
  }
  finishStart(error?: Error): void {
    this.move(error ? 4 : 2);
    if (error) this.settle!.reject(error);
    else this.settle!.resolve();
  }
  /** The server process dies; the client's error handler restarts it (ending as `then`) or gives up (Stopped). */
  crash(then: 'running' | 'start failed' | 'not restarted'): void {
    this.move(1);
    if (then === 'not restarted') return;
    this.move(3);
    this.move(then === 'running' ? 2 : 4);
  }
  async restart(): Promise<void> { this.restarts++; }
  async stop(): Promise<void> {
    if (this.state !== 2) throw new Error(`Client is not running and can't be stopped (state ${this.state}).`);
    this.stops++;
    this.move(1);
  }
  async dispose(): Promise<void> { if (this.state === 2) await this.stop(); }
  async sendRequest(method: string, params: unknown): Promise<unknown> {
    if (this.state !== 2) throw new Error('Client is not running');
    this.requests.push(method);
    return { method, params };
  }
}

/** A LanguageServer over FakeClients, with the clients it made and a promise for the next one. */
function fakeServer(): { server: LanguageServer; clients: FakeClient[]; next: () => Promise<FakeClient>; dispose: () => void } {
  const clients: FakeClient[] = [];
  const created = new vscode.EventEmitter<FakeClient>();
  const next = () => new Promise<FakeClient>((resolve) => { const sub = created.event((c) => { sub.dispose(); resolve(c); }); });
  const server = new LanguageServer(() => { const c = new FakeClient(); clients.push(c); created.fire(c); return c as unknown as LanguageClient; });
  return { server, clients, next, dispose: () => created.dispose() };
}

/** The restart command on a server whose client cannot start again: a new client is made, its start succeeds, the server runs. */
async function restartWithNewClient(server: LanguageServer, next: () => Promise<FakeClient>): Promise<void> {
  const second = next();
  const restarted = server.restart();
  (await second).finishStart();
  await restarted;
  assert.equal(server.state, 'running');
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
    const { server, clients, dispose } = fakeServer();
    try {
      assert.equal(server.state, 'not started');
      const a = server.request(DocumentInfoRequest.type, { uri: 'file:///a.rpc.json' });
      const b = server.request(DocumentInfoRequest.type, { uri: 'file:///b.rpc.json' });
      assert.equal(server.state, 'starting');
      const fake = clients[0];
      assert.deepEqual(fake.requests, [], 'nothing is sent before the server runs');
      fake.finishStart();
      await Promise.all([a, b]);
      assert.equal(clients.length, 1, 'one client');
      assert.equal(fake.starts, 1, 'one start');
      assert.deepEqual(fake.requests, ['edgekit/documentInfo', 'edgekit/documentInfo']);
      assert.equal(server.state, 'running');
      assert.equal(server.startedFor, 'the request edgekit/documentInfo');
      await server.restart();
      assert.equal(fake.restarts, 1, 'a running server is restarted in place');
      await server.stop();
      assert.equal(fake.stops, 1);
      assert.equal(server.state, 'stopped');
      await assert.rejects(server.request(DocumentInfoRequest.type, { uri: 'file:///c.rpc.json' }), /shut down/);
    } finally {
      dispose();
    }
  });

  test('a failed start is reported, stays failed for later requests, and the restart command starts a new client', async () => {
    const { server, clients, next, dispose } = fakeServer();
    try {
      const first = server.request(DocumentInfoRequest.type, { uri: 'file:///a.rpc.json' });
      clients[0].finishStart(new Error('spawn node ENOENT'));
      await assert.rejects(first, /failed to start: spawn node ENOENT\. See the EdgeKit log/);
      assert.equal(server.state, 'failed');
      await assert.rejects(server.request(DocumentInfoRequest.type, { uri: 'file:///a.rpc.json' }), /failed to start/);
      assert.equal(clients.length, 1, 'no new attempt on every request');
      await restartWithNewClient(server, next);
      assert.equal(clients.length, 2);
    } finally {
      await server.stop();
      dispose();
    }
  });

  test('crashes: a restart that fails leaves it failed (restart makes a new client); one not restarted is started again', async () => {
    const { server, clients, next, dispose } = fakeServer();
    try {
      const started = server.start();
      clients[0].finishStart();
      await started;
      clients[0].crash('running');
      assert.equal(server.state, 'running', 'an automatic restart that works');
      clients[0].crash('start failed');
      assert.equal(server.state, 'failed', 'StartFailed after a crash');
      await restartWithNewClient(server, next);
      assert.equal(clients.length, 2, 'a client whose start failed is replaced');
      clients[0].crash('running');
      assert.equal(server.state, 'running', 'the replaced client is not listened to any more');
      clients[1].crash('not restarted');
      assert.equal(server.state, 'stopped');
      await assert.rejects(server.request(DocumentInfoRequest.type, { uri: 'file:///a.rpc.json' }), /not running .*Restart Language Server/);
      const starting = new Promise<void>((resolve) => {
        const sub = clients[1].onDidChangeState((e) => { if (e.newState === 3) { sub.dispose(); resolve(); } });
      });
      const again = server.restart();
      await starting;
      assert.equal(clients[1].starts, 2, 'a stopped client is started again, not replaced');
      clients[1].finishStart();
      await again;
      assert.equal(server.state, 'running');
      assert.equal(clients.length, 2);
    } finally {
      await server.stop();
      dispose();
    }
  });

  test('stopping while the server starts waits for the start, then stops it', async () => {
    const { server, clients, dispose } = fakeServer();
    try {
      const request = server.request(DocumentInfoRequest.type, { uri: 'file:///a.rpc.json' });
      const stopped = server.stop();
      clients[0].finishStart();
      await stopped;
      assert.equal(server.state, 'stopped');
      assert.equal(clients[0].stops, 1, 'the started client was stopped');
      await assert.rejects(request, /shut down/);
    } finally {
      dispose();
    }
  });

  test('the status bar shows a server that is starting, stopped or failed, and a click on the latter restarts it', async () => {
    const changed = new vscode.EventEmitter<ServerState>();
    const fake = {
      state: 'starting' as ServerState,
      onDidChangeState: changed.event,
      requests: 0,
      async request() {
        this.requests++;
        return { kind: 'jsonrpc-request', problems: { errors: 0, warnings: 0, information: 0 } };
      },
    };
    const status = new DocumentStatus(fake as unknown as LanguageServer);
    try {
      await openFile('activation/status.rpc.json', '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"}\n');
      await status.update();
      assert.match(status.lastText, /starting/);
      fake.state = 'failed';
      await status.update();
      assert.match(status.lastText, /server failed/);
      assert.equal((status as any).item.command, 'edgekit.restartServer', 'a click runs the restart command');
      assert.equal(fake.requests, 0, 'nothing is asked of a server that is not running');
      fake.state = 'running';
      await status.update();
      assert.equal(fake.requests, 1);
      assert.match(status.lastText, /^EdgeKit \$\(check\)/);
      assert.equal((status as any).item.command, 'workbench.actions.view.problems');
    } finally {
      status.dispose();
      changed.dispose();
    }
  });
});
