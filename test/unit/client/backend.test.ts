// The backend as the views see it: what makes them read again.
import { fake, resetFake, grantTrust, workspace } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { Backend } from '../../../client/src/backend';
import { backendCommands } from '../../../client/src/commands/backend';
import type { Ctx } from '../../../client/src/ctx';

beforeEach(() => resetFake());

function backend(): Backend {
  const context = { globalStorageUri: { fsPath: '/nonexistent' }, secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined } };
  return new Backend(context as never, () => ({ ask: async () => undefined }));
}

test('trusting the workspace tells the views to read again (they said "disabled in an untrusted workspace")', async () => {
  // With the remote backend, an untrusted workspace refuses requests to real endpoints, and the views say so. Granting trust
  // changes no setting (the backend is the user's), so nothing else makes them read again.
  fake.settings.set('backend', 'remote');
  workspace.isTrusted = false;
  const b = backend();
  try {
    await assert.rejects(b.endpoints('api', false), /untrusted workspace/);
    let changes = 0;
    b.onDidChange(() => changes++);
    grantTrust();
    assert.equal(changes, 1);
  } finally {
    await b.dispose();
    workspace.isTrusted = true;
  }
});

test('Stop Mock Backend with no mock running says so instead of doing nothing', async () => {
  const b = backend();
  try {
    await backendCommands['edgekit.mock.stop']({ backend: b } as unknown as Ctx)();
    assert.deepEqual(fake.messages, [{ kind: 'info', text: 'EdgeKit: the embedded mock backend is not running.' }]);
  } finally {
    await b.dispose();
  }
});
