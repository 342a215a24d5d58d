// A document's name and place in the server's messages are what the user sees in the editor, not its URI's escapes: a file named
// "My Filter.filter.json" was "My%20Filter.filter.json" in "Cannot test …" and the conversions' errors (pt1's audit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { docName, docPlace } from '../../../server/src/lsp/context';

test('docName: the last segment, decoded; an untitled document without its scheme', () => {
  assert.equal(docName('file:///home/u/My%20Dir/My%20Filter.filter.json'), 'My Filter.filter.json');
  assert.equal(docName('file:///c%3A/Users/%C3%A9/caf%C3%A9.rpc.json'), 'café.rpc.json');
  assert.equal(docName('untitled:Untitled-1'), 'Untitled-1');
  assert.equal(docName('file:///w/100%25.filter.json'), '100%.filter.json');
  // Not a valid escape: the segment as it is, never a throw
  assert.equal(docName('file:///w/bad%E0%A4%A.filter.json'), 'bad%E0%A4%A.filter.json');
  assert.equal(docName('file:///w/'), 'file:///w/');
});

test('docPlace: a file URI as its decoded path; other schemes as they are', () => {
  assert.equal(docPlace('file:///home/u/My%20Dir/a.filter.json'), '/home/u/My Dir/a.filter.json');
  assert.equal(docPlace('untitled:Untitled-1'), 'untitled:Untitled-1');
  assert.equal(docPlace('vscode-vfs://github/o/r/a.filter.json'), 'vscode-vfs://github/o/r/a.filter.json');
});
