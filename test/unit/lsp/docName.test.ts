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

// rv41: the query and fragment were read as part of the last segment; a notebook cell's fragment may hold a "/".
test('docName: a query or fragment is no part of the name; an escaped "#" or "?" in the name is', () => {
  assert.equal(docName('vscode-notebook-cell:/w/nb.ipynb#W1sZmlsZQ%3D%3D'), 'nb.ipynb');
  assert.equal(docName('vscode-notebook-cell:/w/nb.ipynb#ab/cd'), 'nb.ipynb');
  assert.equal(docName('git:/w/a.filter.json?%7B%22ref%22%3A%22HEAD%22%7D'), 'a.filter.json');
  assert.equal(docName('file:///w/a%23b%3F.filter.json'), 'a#b?.filter.json');
  assert.equal(docName('untitled:/w/My%20Zone.ruleset.json'), 'My Zone.ruleset.json');
});

test('docPlace: a file URI as its decoded path; other schemes as they are', () => {
  assert.equal(docPlace('file:///home/u/My%20Dir/a.filter.json'), '/home/u/My Dir/a.filter.json');
  assert.equal(docPlace('untitled:Untitled-1'), 'untitled:Untitled-1');
  assert.equal(docPlace('vscode-vfs://github/o/r/a.filter.json'), 'vscode-vfs://github/o/r/a.filter.json');
  assert.equal(docPlace('file:///w/a%23b%3F.filter.json'), '/w/a#b?.filter.json');
  // rv41: a UNC file (Windows' \\server\share) lost its server: "/share/a.filter.json"
  assert.equal(docPlace('file://server/share/My%20a.filter.json'), '//server/share/My a.filter.json');
});
