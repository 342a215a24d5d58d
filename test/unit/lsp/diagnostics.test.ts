// One validation per document version: the pull handler's result is what the migration's review check (edgekit/documentInfo with
// problems) reads, and the status bar asks for usage only. Counted by wrapping the core's validate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';
import { core, DEFAULT_CAPS, type ServerContext } from '../../../server/src/lsp/context';
import { Diagnostics, RECENT_CHECKS } from '../../../server/src/lsp/diagnostics';
import { DOCUMENTS } from '../../../server/src/lsp/textDocument';
import { ParseCache } from '../../../server/src/lsp/parseCache';

type Handler = (params: { textDocument: { uri: string } }, token: { isCancellationRequested: boolean }) => Promise<{ items: unknown[] }>;

/** The pull handler and its Diagnostics over the documents `doc` gives by URI. */
function harness(doc: (uri: string) => TextDocument | undefined) {
  let pull: Handler | undefined;
  const ctx = {
    connection: { languages: { diagnostics: { on: (h: Handler) => { pull = h; } } }, console: { error: () => undefined } },
    documents: { get: doc },
    parses: new ParseCache(() => true),
    settings: { get: async () => DEFAULT_SETTINGS, drop: () => undefined, clear: () => undefined },
    caps: { ...DEFAULT_CAPS, pullDiagnostics: true, relatedInformation: true },
  } as unknown as ServerContext;
  const diagnostics = new Diagnostics(ctx);
  diagnostics.register();
  return { diagnostics, pull: (uri: string) => pull!({ textDocument: { uri } }, { isCancellationRequested: false }) };
}

test('a pull checks the text once; the same version\'s problems come from it, a new version is checked again', async (t) => {
  const service = core();
  const validate = service.validate;
  let calls = 0;
  service.validate = (...args) => { calls++; return validate(...args); };
  t.after(() => { service.validate = validate; });

  const uri = 'file:///a.filter.json';
  let current = TextDocument.create(uri, 'logpush-filter', 1, '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}');
  const { diagnostics, pull } = harness(() => current);
  const report = await pull(uri);
  assert.equal(report.items.length, 1);
  assert.equal(calls, 1);
  const problems = diagnostics.problemsOf(current, 'logpush-filter', DEFAULT_SETTINGS);
  assert.equal(problems.length, 1);
  assert.equal(calls, 1, 'the same version is not validated again');

  current = TextDocument.update(current, [{ text: '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}' }], 2);
  assert.equal(diagnostics.problemsOf(current, 'logpush-filter', DEFAULT_SETTINGS).length, 0);
  assert.equal(calls, 2, 'a new version is validated');
  diagnostics.drop(uri);
  diagnostics.problemsOf(current, 'logpush-filter', DEFAULT_SETTINGS);
  assert.equal(calls, 3, 'a dropped document is validated again');
});

test('only the documents checked last keep their problems and line offsets; an older one\'s are found again, the same', async () => {
  const docs = new Map<string, TextDocument>();
  const { diagnostics, pull } = harness((uri) => docs.get(uri));
  const lineOffsets = (d: TextDocument) => (d as unknown as { _lineOffsets?: number[] })._lineOffsets;
  const uris = Array.from({ length: RECENT_CHECKS + 2 }, (_, i) => `file:///${i}.filter.json`);
  const first: unknown[][] = [];
  for (const [i, uri] of uris.entries()) {
    docs.set(uri, DOCUMENTS.create(uri, 'logpush-filter', 1, `{\n  "where": {"key": "ClientCountyr${i}", "operator": "eq", "value": "ca"}\n}`));
    first.push((await pull(uri)).items);
    assert.ok(lineOffsets(docs.get(uri)!), 'the report\'s ranges read the line offsets');
  }
  assert.deepEqual(diagnostics.kept(), uris.slice(2), `the ${RECENT_CHECKS} documents checked last`);
  for (const uri of uris.slice(0, 2)) assert.equal(lineOffsets(docs.get(uri)!), undefined, `${uri}: its line offsets went with its problems`);
  for (const uri of uris.slice(2)) assert.ok(lineOffsets(docs.get(uri)!), `${uri} keeps its line offsets`);

  // Asked for again: the same problems, and the same report, as at its first check.
  const d0 = docs.get(uris[0])!;
  assert.equal(diagnostics.problemsOf(d0, 'logpush-filter', DEFAULT_SETTINGS).length, 1);
  assert.deepEqual(diagnostics.kept(), [...uris.slice(3), uris[0]]);
  assert.deepEqual((await pull(uris[0])).items, first[0]);
  // A hit is a use: the document asked about last stays.
  diagnostics.problemsOf(docs.get(uris[3])!, 'logpush-filter', DEFAULT_SETTINGS);
  assert.deepEqual(diagnostics.kept(), [...uris.slice(4), uris[0], uris[3]]);
});
