// The context keys the walkthrough's twin steps are shown by (client/src/walkthrough.ts; package.json "walkthroughs"). VS Code keeps
// a step's tick across sessions, by step id; a twin ticked by selection (its key already true when the walkthrough registered) must
// stay the one shown, or its unticked original comes back: in the next session before an EdgeKit document is shown, or once the mock
// stops (Stop, the backend switched to remote).
import { addDocument, commands, EventEmitter, memento, resetFake, showEditors } from './vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DOCUMENT_SHOWN, MOCK_STARTED, REQUEST_SENT, trackDocumentShown, trackMockStarted, trackRequestSent } from '../../../client/src/walkthrough';
import { Responses } from '../../../client/src/views/responses';

const said = (key: string) => commands.executed.filter((c) => c[0] === 'setContext' && c[1] === key).map((c) => c[2]);

test('"an EdgeKit document was shown" holds from then on, in the sessions after too, and is never said false', () => {
  resetFake();
  const state = memento();
  const first = trackDocumentShown(state);
  try {
    assert.deepEqual(said(DOCUMENT_SHOWN), [], 'nothing shown yet: the key stays unset (false)');
    showEditors(addDocument('file:///ws/notes.json', 'json', '{}', false));
    assert.deepEqual(said(DOCUMENT_SHOWN), []);
    const filter = addDocument('file:///ws/a.filter.json', 'logpush-filter', '{}', false);
    showEditors(filter);
    showEditors();
    showEditors(filter);
    assert.deepEqual(said(DOCUMENT_SHOWN), [true], 'said once');
  } finally {
    first.dispose();
  }
  // The next session (a reload, another window of the profile): no EdgeKit document on screen, and the key holds at once.
  resetFake();
  const next = trackDocumentShown(state);
  try {
    assert.deepEqual(said(DOCUMENT_SHOWN), [true]);
  } finally {
    next.dispose();
  }
});

test('"the mock backend has run" holds once it started, after it stops, and in the sessions after', () => {
  resetFake();
  const state = memento();
  const changed = new EventEmitter<void>();
  const backend = { running: undefined as object | undefined, onDidChange: changed.event };
  const first = trackMockStarted(state, backend);
  try {
    assert.deepEqual(said(MOCK_STARTED), []);
    backend.running = {};
    changed.fire();
    backend.running = undefined;
    changed.fire();
    assert.deepEqual(said(MOCK_STARTED), [true], 'not said false when it stops (Stop, the backend switched to remote)');
  } finally {
    first.dispose();
  }
  resetFake();
  const next = trackMockStarted(state, { running: undefined, onDidChange: new EventEmitter<void>().event });
  try {
    assert.deepEqual(said(MOCK_STARTED), [true], 'the next session, the mock not started (yet)');
  } finally {
    next.dispose();
  }
});

test('a mock already running when tracking starts (auto-start) holds the key at once', () => {
  resetFake();
  const tracking = trackMockStarted(memento(), { running: {}, onDidChange: new EventEmitter<void>().event });
  try {
    assert.deepEqual(said(MOCK_STARTED), [true]);
  } finally {
    tracking.dispose();
  }
});

// ui9: "Send a gateway request" ticked on onCommand:edgekit.gateway.send only, which VS Code hears once the walkthrough has
// registered (late: after an experiment lookup of up to 5 s); a request sent before then, or in an earlier session, left it unticked.
// Now it is keyed as the other two: edgekit.requestSent, true once a request was sent (its response recorded), remembered.
test('"a gateway request was sent" holds once a send is recorded, in the sessions after too, and is never said false', async () => {
  resetFake();
  const state = memento();
  const responses = new Responses(memento() as never);
  const first = trackRequestSent(state, responses);
  try {
    assert.deepEqual(said(REQUEST_SENT), [], 'nothing sent yet');
    await responses.record({ url: 'http://127.0.0.1:1/v1/mainnet', body: '{}', label: 'eth_chainId', summary: 'Result: 0x1', sourceUri: 'file:///ws/a.rpc.json' }, '// x\n');
    assert.deepEqual(said(REQUEST_SENT), [true]);
    await responses.record({ url: 'http://127.0.0.1:1/v1/mainnet', body: '{}', label: 'eth_chainId', summary: 'No response', sourceUri: 'file:///ws/a.rpc.json' }, '// x\n');
    assert.deepEqual(said(REQUEST_SENT), [true], 'said once');
  } finally {
    first.dispose();
    responses.dispose();
  }
  // The next session (another workspace: an empty history): the key holds at once.
  resetFake();
  const other = new Responses(memento() as never);
  const next = trackRequestSent(state, other);
  try {
    assert.deepEqual(said(REQUEST_SENT), [true]);
  } finally {
    next.dispose();
    other.dispose();
  }
  // A workspace whose history has a request sent before the key existed (an earlier version): it holds at once too.
  resetFake();
  const older = memento();
  await older.update('edgekit.gateway.history', [{ id: 1, time: '2026-11-01T00:00:00Z', url: 'u', body: '{}', label: 'eth_chainId', summary: '', responseUri: 'edgekit-response:/a' }]);
  const kept = new Responses(older as never);
  const third = trackRequestSent(memento(), kept);
  try {
    assert.deepEqual(said(REQUEST_SENT), [true]);
  } finally {
    third.dispose();
    kept.dispose();
  }
});
