// The extension-host tests' scripted answers (test/integration/scriptedUi.ts, behind helpers.ts scriptUi): an answer that fails an
// assertion, or a question nobody scripted, fails the test at once with that error, where it used to leave the command waiting on
// its question until mocha's 60 s timeout (a non-modal question's wait was never answered).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scriptedUi } from '../../integration/scriptedUi';

/** A command that asks `ui` a question and then waits for ever, as the migration did when its notification failed. */
const hangsAfterAsking = (ui: { ask(q: string, o: string[]): Promise<string | undefined> }) =>
  new Promise<string>(() => { void ui.ask('Zone "x" is in validation mode. Finish the migration now?', ['Inspect', 'Later']).catch(() => undefined); });

const soon = <T>(p: Promise<T>) => Promise.race([p, new Promise<never>((_r, reject) => setTimeout(() => reject(new Error('still waiting')), 500).unref())]);

test('an answer that fails an assertion rejects settle() at once with the assertion\'s own error', async () => {
  const s = scriptedUi([(_q, o) => (o.includes('Review and Finish') ? 'Review and Finish' : assert.fail(`options: ${o.join()}`))]);
  await assert.rejects(soon(s.settle(hangsAfterAsking(s.ui))), (e: Error) => e instanceof assert.AssertionError && e.message === 'options: Inspect,Later');
  assert.deepEqual(s.asked, ['Zone "x" is in validation mode. Finish the migration now?']);
});

test('an async answer that rejects, and a question nobody scripted, reject settle() at once too', async () => {
  const a = scriptedUi([async () => { await Promise.resolve(); throw new Error('the view held no summary'); }]);
  await assert.rejects(soon(a.settle(hangsAfterAsking(a.ui))), /^Error: the view held no summary$/);
  const b = scriptedUi([]);
  await assert.rejects(soon(b.settle(hangsAfterAsking(b.ui))), /^Error: Unexpected question: Zone "x" is in validation mode/);
});

test('the question itself still gets the error (the command fails as before), and a run whose answers pass settles with its result', async () => {
  const s = scriptedUi([() => assert.fail('no')]);
  await assert.rejects(s.ui.ask('q', []), /no/);
  const ok = scriptedUi([(_q, o) => o[1], async () => undefined]);
  const run = async () => [await ok.ui.ask('a', ['x', 'y']), await ok.ui.ask('b', [])];
  assert.deepEqual(await ok.settle(run()), ['y', undefined]);
  // A failure after the command has settled is not lost: the next settle() says it.
  const late = scriptedUi([() => assert.fail('late')]);
  assert.equal(await late.settle(Promise.resolve(1)), 1);
  await late.ui.ask('q', []).catch(() => undefined);
  await assert.rejects(late.settle(Promise.resolve(2)), /late/);
});
