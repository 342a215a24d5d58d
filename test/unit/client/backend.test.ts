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

test('edgekit.mock.rateLimit written as a number (or anything but a string) is refused with the setting\'s warning, not a TypeError', async () => {
  // settings.json takes any JSON value; "edgekit.mock.rateLimit": 1200 made Config's .trim() throw, and the mock's start failed
  // with "...: get(...).trim is not a function" instead of warning and keeping the platform's limits.
  const { Config } = await import('../../../client/src/config');
  const { parseRateLimit } = await import('../../../mock/src/rateLimit');
  for (const value of [1200, false, ['1200/300'], { limit: 1 }]) {
    fake.settings.set('mock.rateLimit', value);
    const text = Config.mockRateLimit();
    assert.equal(typeof text, 'string', JSON.stringify(value));
    assert.equal(typeof parseRateLimit(text), 'string', `${JSON.stringify(value)} read as a limit`);
  }
  fake.settings.set('mock.rateLimit', ' off ');
  assert.equal(parseRateLimit(Config.mockRateLimit()), false);
});
