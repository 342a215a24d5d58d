// The read-only document store behind the Security Events documents and the Test Filter / Test Rules reports, in plain Node with
// the stand-in `vscode` module (./vscode.ts).
import { fake, resetFake, Uri, workspace } from './vscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { ReadOnlyDocuments } from '../../../client/src/views/readOnlyDocuments';
import { Reports } from '../../../client/src/views/reports';
import { SecurityEventsView } from '../../../client/src/views/securityEvents';

beforeEach(() => resetFake());

const GONE = 'no longer kept\n';

test('a document is served by URI, in the store\'s scheme at the path asked for, each with its own number', () => {
  const store = new ReadOnlyDocuments('edgekit-test', { kept: 10, gone: GONE });
  const a = store.add((n) => `/a-${n}.txt`, 'A');
  const b = store.add((n) => `/b-${n}.txt`, 'B');
  assert.equal(a.toString(), Uri.from({ scheme: 'edgekit-test', path: '/a-1.txt' }).toString());
  assert.equal(b.toString(), Uri.from({ scheme: 'edgekit-test', path: '/b-2.txt' }).toString());
  assert.equal(store.provideTextDocumentContent(a as never), 'A');
  assert.equal(store.provideTextDocumentContent(b as never), 'B');
  assert.equal(store.provideTextDocumentContent(Uri.parse('edgekit-test:/never-added.txt') as never), GONE);
});

test('added under a key, an item gets the same document each time; without one, each add is a new document', () => {
  const store = new ReadOnlyDocuments('edgekit-test', { kept: 10, gone: GONE });
  const first = store.add((n) => `/k-${n}`, 'same', 'key-1');
  assert.equal(store.add((n) => `/k-${n}`, 'same', 'key-1').toString(), first.toString());
  assert.notEqual(store.add((n) => `/k-${n}`, 'same', 'key-2').toString(), first.toString(), 'another key, another document');
  const r1 = store.add((n) => `/r-${n}`, 'report');
  const r2 = store.add((n) => `/r-${n}`, 'report');
  assert.notEqual(r1.toString(), r2.toString(), 'no key: a new document even for the same text');
});

test('past `kept` the oldest document goes, and its key with it: the item then opens as a new document', () => {
  const store = new ReadOnlyDocuments('edgekit-test', { kept: 2, gone: GONE });
  const a = store.add((n) => `/${n}`, 'A', 'a');
  const b = store.add((n) => `/${n}`, 'B', 'b');
  const c = store.add((n) => `/${n}`, 'C');
  assert.equal(store.provideTextDocumentContent(a as never), GONE);
  assert.equal(store.provideTextDocumentContent(b as never), 'B');
  assert.equal(store.provideTextDocumentContent(c as never), 'C');
  assert.equal(store.add((n) => `/${n}`, 'B', 'b').toString(), b.toString(), 'a kept key still opens its document');
  const again = store.add((n) => `/${n}`, 'A', 'a');
  assert.notEqual(again.toString(), a.toString());
  assert.equal(store.provideTextDocumentContent(again as never), 'A');
  assert.equal(store.provideTextDocumentContent(b as never), GONE, 'the re-added item pushed out the oldest');
});

test('reports: each run is a new markdown document named after its file, served read-only through the edgekit-report scheme', async () => {
  const reports = new Reports();
  try {
    const one = reports.add('/ws/a b.filter.json', '# one\n');
    const two = reports.add('/ws/a b.filter.json', '# one\n');
    assert.equal(one.toString(), 'edgekit-report:///a_b.filter.json report 1.md');
    assert.notEqual(two.toString(), one.toString());
    const doc = await workspace.openTextDocument(one);
    assert.equal(doc.languageId, 'markdown');
    assert.equal(doc.getText(), '# one\n');
    assert.deepEqual(fake.opened, [], 'no untitled document');
    const gone = await workspace.openTextDocument(Uri.parse('edgekit-report:/x report 99.md'));
    assert.match(gone.getText(), /no longer kept; run the test again/);
  } finally {
    reports.dispose();
  }
});

test('security events: the same record is the same edgekit-event document, named after its RayID', () => {
  const view = new SecurityEventsView(async () => { throw new Error('not read here'); });
  try {
    const event = { RayID: '8a1b/2c', Action: 'block' };
    const uri = view.eventDocument(event);
    assert.equal(uri.toString(), 'edgekit-event:///8a1b_2c-1.json');
    assert.equal(view.eventDocument({ ...event }).toString(), uri.toString());
    assert.notEqual(view.eventDocument({ ...event, Action: 'log' }).toString(), uri.toString());
  } finally {
    view.dispose();
  }
});
