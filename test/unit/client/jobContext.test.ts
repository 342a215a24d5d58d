// The editor title's Create/Update choice for a Logpush job document (client/src/jobContext.ts): a job that names a backend job by a
// whole-number "id" is updated, one without is created; half-typed JSON is read as far as it goes.
import { activate, addDocument, commands, editDocument, resetFake } from './vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_HAS_ID, jobHasId, trackJobContext } from '../../../client/src/jobContext';

test('a whole-number "id" at the top level names a job on the backend', () => {
  assert.equal(jobHasId('{"id": 12, "name": "x"}'), true);
  assert.equal(jobHasId('{"name": "x"}'), false);
  assert.equal(jobHasId('{"id": "12"}'), false, 'the API\'s ids are numbers');
  assert.equal(jobHasId('{"id": 1.5}'), false);
  assert.equal(jobHasId('{"output_options": {"id": 3}}'), false, 'only the job\'s own id');
  assert.equal(jobHasId('[{"id": 1}]'), false);
  assert.equal(jobHasId('null'), false);
});

test('half-typed JSON is read as far as it goes (as the editor reads it); a huge document is not read', () => {
  assert.equal(jobHasId('{"id": 12,'), true);
  assert.equal(jobHasId('{"name": "x", '), false);
  // A job document restored after a reload with a typing slip in it, which this window never saw whole: it still names job 1 (the
  // title offered "Create Logpush Job", a second job, seen in the workbench).
  assert.equal(jobHasId('{\n  "id": 1,\n  "name": "api-renamed","\n  "dataset": "http_requests"\n}\n'), true);
  assert.equal(jobHasId(`{"id": 1, "pad": "${'x'.repeat(300_000)}"}`), false);
});

test('what the backend notes about a created or updated job is said, not dropped', async () => {
  const { withNotes } = await import('../../../client/src/commands/logpush');
  assert.equal(withNotes('Created Logpush job 1 "x" in zone a.example.', []), 'Created Logpush job 1 "x" in zone a.example.');
  assert.equal(withNotes('Created Logpush job 1 "x" in zone a.example.', [{ code: 10520, message: 'The platform asks for "ownership_challenge" with this destination.' }, { message: ' ' }]),
    'Created Logpush job 1 "x" in zone a.example. The backend notes: The platform asks for "ownership_challenge" with this destination.');
});

test('a document whose text cannot tell keeps its own last answer, not the one of the document shown before it', () => {
  // One answer was kept for every document: after a job with an "id", a new job document being typed ("{" unclosed) showed
  // "Update Logpush Job", which names no job, in place of "Create Logpush Job".
  resetFake();
  commands.executed.length = 0;
  const said = () => commands.executed.filter((c) => c[0] === 'setContext' && c[1] === JOB_HAS_ID).map((c) => c[2]);
  const old = addDocument('untitled:/ws/old-7.logpush.json', 'logpush-job', '{"id": 7, "name": "old"}');
  const tracking = trackJobContext();
  try {
    assert.deepEqual(said(), [true]);
    const fresh = addDocument('untitled:/ws/new.logpush.json', 'logpush-job', '{"name": "new", ', false);
    activate(fresh);
    assert.deepEqual(said(), [true, false], 'a document never read whole has no "id" to update');
    editDocument(fresh, '{"name": "new", "id": 9}');
    editDocument(fresh, '{"name": "new", "id": 9, ');
    activate(old);
    activate(fresh);
    assert.deepEqual(said(), [true, false, true], 'half-typed again: its own last answer (it has an id), and no change between the two');
  } finally {
    tracking.dispose();
  }
});
