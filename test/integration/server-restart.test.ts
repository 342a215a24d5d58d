// Runs after the other suites (alphabetical): kills the language server and checks that the client brings it back.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CloseAction } from 'vscode-languageclient/node';
import { RestartingErrorHandler } from '../../client/src/languageClient';
import { log } from '../../client/src/log';
import { api, codeOf, openFile, removeFolder, setText, waitForDiagnostics } from './helpers';

suite('Language server crash and restart', () => {
  let ctx: any;
  suiteSetup(async () => { ctx = (await api()).ctx; });
  suiteTeardown(() => removeFolder('restart'));

  test('a killed server is restarted and diagnostics keep coming', async () => {
    const editor = await openFile('restart/a.filter.json', '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}\n');
    await waitForDiagnostics(editor.document.uri, (d) => d.some((x) => codeOf(x) === 'logpush/unknown-field'), 'the first diagnostic');
    const proc = ctx.server.languageClient._serverProcess as { pid: number; kill(sig: string): boolean } | undefined;
    assert.ok(proc && proc.pid > 0, 'the client exposes its server process');
    const running = new Promise<void>((resolve) => {
      const sub = ctx.server.languageClient.onDidChangeState((e: { newState: number }) => { if (e.newState === 2 /* Running */) { sub.dispose(); resolve(); } });
    });
    proc!.kill('SIGKILL');
    await running;
    assert.notEqual((ctx.server.languageClient._serverProcess as { pid: number }).pid, proc!.pid, 'a new server process');
    await setText(editor, '{"where": {"key": "BotScore", "operator": "startsWith", "value": "1"}}\n');
    await waitForDiagnostics(editor.document.uri, (d) => d.some((x) => codeOf(x) === 'logpush/operator-not-allowed'), 'diagnostics from the new server');
  });

  test('after repeated crashes the handler stops restarting (the user is told, with the log)', () => {
    const handler = new RestartingErrorHandler(log, 3, 60_000);
    const actions = [1, 2, 3, 4].map(() => handler.closed().action);
    assert.deepEqual(actions, [CloseAction.Restart, CloseAction.Restart, CloseAction.Restart, CloseAction.DoNotRestart]);
    void vscode.commands.executeCommand('notifications.clearAll');
  });
});
