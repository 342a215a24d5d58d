// The editor title's Create/Update choice for a Logpush job document (client/src/jobContext.ts): a job that names a backend job by a
// whole-number "id" is updated, one without is created; half-typed JSON keeps the last answer.
import './vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jobHasId } from '../../../client/src/jobContext';

test('a whole-number "id" at the top level names a job on the backend', () => {
  assert.equal(jobHasId('{"id": 12, "name": "x"}'), true);
  assert.equal(jobHasId('{"name": "x"}'), false);
  assert.equal(jobHasId('{"id": "12"}'), false, 'the API\'s ids are numbers');
  assert.equal(jobHasId('{"id": 1.5}'), false);
  assert.equal(jobHasId('{"output_options": {"id": 3}}'), false, 'only the job\'s own id');
  assert.equal(jobHasId('[{"id": 1}]'), false);
  assert.equal(jobHasId('null'), false);
});

test('text that is not JSON yet cannot tell; a huge document is not read', () => {
  assert.equal(jobHasId('{"id": 12,'), undefined);
  assert.equal(jobHasId(`{"id": 1, "pad": "${'x'.repeat(300_000)}"}`), false);
});

test('what the backend notes about a created or updated job is said, not dropped', async () => {
  const { withNotes } = await import('../../../client/src/commands/logpush');
  assert.equal(withNotes('Created Logpush job 1 "x" in zone a.example.', []), 'Created Logpush job 1 "x" in zone a.example.');
  assert.equal(withNotes('Created Logpush job 1 "x" in zone a.example.', [{ code: 10520, message: 'The platform asks for "ownership_challenge" with this destination.' }, { message: ' ' }]),
    'Created Logpush job 1 "x" in zone a.example. The backend notes: The platform asks for "ownership_challenge" with this destination.');
});
