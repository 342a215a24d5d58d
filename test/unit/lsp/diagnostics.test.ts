// One validation per document version: the pull handler's result is what the migration's review check (edgekit/documentInfo with
// problems) reads, and the status bar asks for usage only. Counted by wrapping the core's validate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';
import { core, DEFAULT_CAPS, type ServerContext } from '../../../server/src/lsp/context';
import { Diagnostics } from '../../../server/src/lsp/diagnostics';
import { ParseCache } from '../../../server/src/lsp/parseCache';

type Handler = (params: { textDocument: { uri: string } }, token: { isCancellationRequested: boolean }) => Promise<{ items: unknown[] }>;

function harness(doc: () => TextDocument) {
  let pull: Handler | undefined;
  const ctx = {
    connection: { languages: { diagnostics: { on: (h: Handler) => { pull = h; } } }, console: { error: () => undefined } },
    documents: { get: () => doc() },
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
