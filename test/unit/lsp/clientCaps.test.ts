// What each LSP client declares, honoured over real LSP messages (the server in this process, inProcess.ts), and answers that
// follow the text a client sent whatever version number it put on it:
// - a didChange that repeats a version, or a second didOpen of an open document, is checked as the text it carries (the parse
//   cache, the last problems, the size check and the quick fixes' data are per text, not per version);
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PublishDiagnosticsNotification, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import type { CodeAction, Diagnostic, DocumentSymbol, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { inProcessServer, type InProcessServer } from './inProcess';
import { tooLarge } from '../../../server/src/lsp/context';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';

const BAD = '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}';
const GOOD = '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}';
const OTHER = '{"where": {"key": "EdgeResponseStatus", "operator": "eq", "value": 403}}';

const pull = async (s: InProcessServer, uri: string) =>
  (await s.client.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
const codes = (items: Diagnostic[]) => items.map((d) => d.code);
const names = (symbols: DocumentSymbol[]): string[] => symbols.flatMap((x) => [x.name, ...names(x.children ?? [])]);

/** A push client's publishes, and a wait for the next one of a URI (an event, never a sleep). */
function publishes(s: InProcessServer) {
  const waiters: { uri: string; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  s.client.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const i = waiters.findIndex((w) => w.uri === p.uri);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(p);
  });
  return (uri: string) => new Promise<PublishDiagnosticsParams>((resolve) => waiters.push({ uri, resolve }));
}

test('a didChange that repeats the version, or a second didOpen, is answered from its own text (pull diagnostics, outline)', { timeout: 60_000 }, async () => {
  const s = await inProcessServer({
    capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true } } },
  });
  try {
    const uri = 'file:///w/a.filter.json';
    await s.open(uri, 'logpush-filter', 1, BAD);
    assert.deepEqual(codes(await pull(s, uri)), ['logpush/unknown-field']);
    await s.change(uri, 1, GOOD);
    assert.deepEqual(codes(await pull(s, uri)), [], 'the text changed under the same version');
    const outline = async () => names(await s.client.sendRequest<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } }));
    assert.ok((await outline()).includes('key'));
    await s.open(uri, 'logpush-filter', 1, '{"$dataset": "http_requests", "where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}');
    assert.deepEqual(codes(await pull(s, uri)), ['logpush/unknown-field'], 'a second didOpen without didClose');
    assert.ok((await outline()).includes('$dataset'), 'the outline of the reopened text');
    await s.change(uri, 1, OTHER);
    assert.deepEqual(codes(await pull(s, uri)), []);
  } finally {
    s.close();
  }
});

test('a push client gets the diagnostics of the text it sent last, whatever version it put on it', { timeout: 60_000 }, async () => {
  const s = await inProcessServer({ capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
  try {
    const next = publishes(s);
    const uri = 'file:///w/b.filter.json';
    let p = next(uri);
    await s.open(uri, 'json', 1, BAD);
    assert.deepEqual(codes((await p).diagnostics), ['logpush/unknown-field']);
    p = next(uri);
    await s.open(uri, 'json', 1, GOOD);
    assert.deepEqual(codes((await p).diagnostics), [], 'a second didOpen of the same version');
    p = next(uri);
    await s.change(uri, 1, BAD);
    assert.deepEqual(codes((await p).diagnostics), ['logpush/unknown-field'], 'a didChange that repeats the version');
  } finally {
    s.close();
  }
});

test('a diagnostic\'s quick fixes made for another text of the same version are not applied to this one', { timeout: 60_000 }, async () => {
  const s = await inProcessServer({ capabilities: { workspace: { configuration: true }, textDocument: { diagnostic: {}, codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } } });
  try {
    const uri = 'file:///w/c.filter.json';
    await s.open(uri, 'logpush-filter', 1, BAD);
    const [d] = await pull(s, uri);
    assert.ok(d.data, 'the fixes travel in the diagnostic');
    const shifted = `    ${BAD}`;
    await s.change(uri, 1, shifted);
    const actions = await s.client.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
    const doc = TextDocument.create(uri, 'json', 1, shifted);
    for (const a of actions) {
      const edits = (a.edit?.changes?.[uri] ?? []) as TextEdit[];
      const fixed = TextDocument.applyEdits(doc, edits);
      assert.doesNotThrow(() => JSON.parse(fixed), `${a.title}: ${fixed}`);
    }
  } finally {
    s.close();
  }
});

test('the size check of a document is per text: a text grown past edgekit.maxFileSizeKB under the same version is too large', () => {
  const s = { ...DEFAULT_SETTINGS, maxFileSizeKB: 1 };
  let doc = TextDocument.create('file:///w/d.filter.json', 'logpush-filter', 1, GOOD);
  assert.equal(tooLarge(doc, s), false);
  doc = TextDocument.update(doc, [{ text: `{"x": "${'y'.repeat(2000)}"}` }], 1);
  assert.equal(tooLarge(doc, s), true);
});
