// What each LSP client declares, honoured over real LSP messages (the server in this process, inProcess.ts), and answers that
// follow the text a client sent whatever version number it put on it:
// - a didChange that repeats a version, or a second didOpen of an open document, is checked as the text it carries (the parse
//   cache, the last problems, the size check and the quick fixes' data are per text, not per version);
// - completion and symbol kinds stay in the client's valueSet (LSP 1.0's kinds when it declares none);
// - related information goes to a pull client that declares textDocument.diagnostic.relatedInformation;
// - a client without codeActionLiteralSupport gets Command[] it runs through workspace/executeCommand (workspace/applyEdit).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic, DocumentSymbol, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { inProcessServer, publishes, type InProcessServer } from './inProcess';
import { tooLarge } from '../../../server/src/lsp/context';
import { DEFAULT_SETTINGS } from '../../../server/src/protocol';

const BAD = '{"where": {"key": "ClientCountyr", "operator": "eq", "value": "ca"}}';
const GOOD = '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}';
const OTHER = '{"where": {"key": "EdgeResponseStatus", "operator": "eq", "value": 403}}';

const pull = async (s: InProcessServer, uri: string) =>
  (await s.client.sendRequest<{ items: Diagnostic[] }>('textDocument/diagnostic', { textDocument: { uri } })).items;
const codes = (items: Diagnostic[]) => items.map((d) => d.code);
const names = (symbols: DocumentSymbol[]): string[] => symbols.flatMap((x) => [x.name, ...names(x.children ?? [])]);

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
    const { next } = publishes({ conn: s.client });
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

/** Completion at every offset of a few documents, and the outline of one with a null, for the kinds each client is sent. */
async function kindsSent(capabilities: Record<string, unknown>): Promise<{ completion: Set<number>; symbols: Set<number> }> {
  const s = await inProcessServer({ capabilities });
  try {
    const docs: [string, string, string][] = [
      ['file:///w/k.filter.json', 'logpush-filter', '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}, "x": null}'],
      ['file:///w/k.ruleset.json', 'waf-ruleset', '{"name": "r", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "block", "expression": "http.host eq \\"a\\" and lower(http.host) in {\\"b\\"} or ip.src in $list"}]}'],
    ];
    const completion = new Set<number>();
    const symbols = new Set<number>();
    for (const [uri, languageId, text] of docs) {
      await s.open(uri, languageId, 1, text);
      for (let at = 0; at <= text.length; at += 3) {
        const r = await s.client.sendRequest<{ kind?: number }[] | { items: { kind?: number }[] }>('textDocument/completion', { textDocument: { uri }, position: { line: 0, character: at } });
        for (const item of Array.isArray(r) ? r : r.items) if (item.kind !== undefined) completion.add(item.kind);
      }
      const walk = (list: { kind: number; children?: unknown[] }[]): void => {
        for (const x of list) { symbols.add(x.kind); walk((x.children ?? []) as never); }
      };
      walk(await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }));
    }
    return { completion, symbols };
  } finally {
    s.close();
  }
}

const ALL_COMPLETION_KINDS = Array.from({ length: 25 }, (_, i) => i + 1);
const ALL_SYMBOL_KINDS = Array.from({ length: 26 }, (_, i) => i + 1);

test('completion and symbol kinds: all of them to a client that declares them all (VS Code), LSP 1.0\'s to one that declares none', { timeout: 120_000 }, async () => {
  const vscode = await kindsSent({
    workspace: { configuration: true },
    textDocument: {
      completion: { completionItemKind: { valueSet: ALL_COMPLETION_KINDS } },
      documentSymbol: { hierarchicalDocumentSymbolSupport: true, symbolKind: { valueSet: ALL_SYMBOL_KINDS } },
    },
  });
  assert.ok([...vscode.completion].some((k) => k > 18), `VS Code gets the kinds after Reference: ${[...vscode.completion]}`);
  assert.ok(vscode.symbols.has(21), `VS Code gets SymbolKind.Null for a null: ${[...vscode.symbols]}`);
  const plain = await kindsSent({ workspace: { configuration: true }, textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true } } });
  assert.ok(plain.completion.size > 3 && plain.symbols.size > 3);
  assert.deepEqual([...plain.completion].filter((k) => k > 18), [], 'CompletionItemKind Text..Reference only');
  assert.deepEqual([...plain.symbols].filter((k) => k > 18), [], 'SymbolKind File..Array only');
  // A client that declares its own set gets kinds of that set only.
  const own = await kindsSent({ workspace: { configuration: true }, textDocument: { completion: { completionItemKind: { valueSet: [1, 10, 12, 14, 15] } }, documentSymbol: { symbolKind: { valueSet: [2, 7, 13, 15, 16, 17, 18] } } } });
  assert.deepEqual([...own.completion].filter((k) => ![1, 10, 12, 14, 15].includes(k)), []);
  assert.deepEqual([...own.symbols].filter((k) => ![2, 7, 13, 15, 16, 17, 18].includes(k)), []);
});

const DUPLICATE_IDS = '[{"jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 1}, {"jsonrpc": "2.0", "method": "eth_chainId", "params": [], "id": 1}]';

test('related information goes to a pull client that declares textDocument.diagnostic.relatedInformation (VS Code), to no other', { timeout: 60_000 }, async () => {
  for (const [diagnostic, sent] of [[{ relatedInformation: true }, true], [{}, false], [{ relatedInformation: false }, false]] as const) {
    const s = await inProcessServer({ capabilities: { workspace: { configuration: true }, textDocument: { diagnostic, publishDiagnostics: { relatedInformation: true } } } });
    try {
      const uri = 'file:///w/dup.rpc.json';
      await s.open(uri, 'jsonrpc-request', 1, DUPLICATE_IDS);
      const items = await pull(s, uri);
      const dup = items.find((d) => d.relatedInformation !== undefined || /id/i.test(String(d.code)));
      assert.ok(dup, JSON.stringify(items));
      assert.equal(items.some((d) => d.relatedInformation?.length), sent, JSON.stringify(diagnostic));
    } finally {
      s.close();
    }
  }
});

/** A push client's quick fixes for BAD, as it asks for them: the diagnostic as published (without data: a client may drop it). */
async function quickFixes(capabilities: Record<string, unknown>) {
  const s = await inProcessServer({ capabilities });
  const { next } = publishes({ conn: s.client });
  const uri = 'file:///w/q.filter.json';
  const p = next(uri);
  await s.open(uri, 'logpush-filter', 1, BAD);
  const [d] = (await p).diagnostics;
  const ask = () => s.client.sendRequest<unknown[]>('textDocument/codeAction', { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } });
  return { s, uri, ask, next };
}

test('code actions: Command[] to a client without codeActionLiteralSupport, run through workspace/executeCommand and applied with workspace/applyEdit', { timeout: 60_000 }, async () => {
  const { s, uri, ask, next } = await quickFixes({ workspace: { applyEdit: true } });
  try {
    const provider = s.initialized.capabilities.executeCommandProvider;
    const actions = await ask() as { title: string; command: string; arguments?: unknown[]; kind?: string; edit?: unknown }[];
    assert.ok(actions.length > 0);
    for (const a of actions) {
      assert.equal(typeof a.command, 'string', `a Command, not a CodeAction literal: ${JSON.stringify(a)}`);
      assert.equal(a.kind, undefined);
      assert.ok(provider?.commands.includes(a.command), `${a.command} is announced in executeCommandProvider`);
    }
    const fix = actions.find((a) => a.title === 'Change to "ClientCountry"');
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    const applied: { edit: { changes?: Record<string, TextEdit[]> } }[] = [];
    s.client.onRequest('workspace/applyEdit', (p: { edit: { changes?: Record<string, TextEdit[]> } }) => { applied.push(p); return { applied: true }; });
    await s.client.sendRequest('workspace/executeCommand', { command: fix.command, arguments: fix.arguments });
    assert.equal(applied.length, 1);
    const doc = TextDocument.create(uri, 'json', 1, BAD);
    assert.equal(TextDocument.applyEdits(doc, applied[0].edit.changes?.[uri] ?? []), GOOD);
    // Run after the text changed: not applied (its offsets were the old text's), whatever the version says.
    const published = next(uri);
    await s.change(uri, 1, `  ${BAD}`);
    await published; // (nothing is left pending when the server is closed)
    await s.client.sendRequest('workspace/executeCommand', { command: fix.command, arguments: fix.arguments });
    assert.equal(applied.length, 1, 'a stale fix is not applied');
  } finally {
    s.close();
  }
});

test('code actions: none to a client that takes neither CodeAction literals nor workspace/applyEdit; literals to one that declares them', { timeout: 60_000 }, async () => {
  const none = await quickFixes({});
  try {
    assert.deepEqual(await none.ask(), []);
  } finally {
    none.s.close();
  }
  const literals = await quickFixes({ textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } });
  try {
    const actions = await literals.ask() as CodeAction[];
    assert.ok(actions.some((a) => a.kind === 'quickfix' && a.edit), JSON.stringify(actions));
  } finally {
    literals.s.close();
  }
});

/** A client without CodeAction literals that records what the server asks it to apply, shows and logs. */
async function commandClient(capabilities: Record<string, unknown> = { workspace: { applyEdit: true } }) {
  const q = await quickFixes(capabilities);
  const applied: unknown[] = [];
  const shown: string[] = [];
  const logged: string[] = [];
  q.s.client.onRequest('workspace/applyEdit', (p: unknown) => { applied.push(p); return { applied: true }; });
  q.s.client.onNotification('window/showMessage', (p: { message: string }) => { shown.push(p.message); });
  q.s.client.onNotification('window/logMessage', (p: { message: string }) => { logged.push(p.message); });
  const run = (args: unknown) => q.s.client.sendRequest('workspace/executeCommand', { command: 'edgekit.applyFix', arguments: args });
  const fix = async () => {
    const actions = await q.ask() as { title: string; command: string; arguments: unknown[] }[];
    const f = actions.find((a) => a.title === 'Change to "ClientCountry"');
    assert.ok(f, JSON.stringify(actions));
    return f;
  };
  return { ...q, applied, shown, logged, run, fix };
}

test('edgekit.applyFix with missing or bad arguments is an InvalidParams error naming them; nothing is applied', { timeout: 60_000 }, async () => {
  const c = await commandClient();
  try {
    const f = await c.fix();
    const [edit, uri, version, stamp] = f.arguments;
    const bad: unknown[] = [undefined, [], [edit], [null, uri, version, stamp], ['edit', uri, version, stamp], [edit, 42, version, stamp]];
    for (const args of bad) {
      await assert.rejects(c.run(args), (e: { code?: number; message?: string }) => e.code === -32602 && /edgekit\.applyFix/.test(e.message ?? ''), JSON.stringify(args));
    }
    // An edit of another document than the one it names is not the server's fix.
    const elsewhere = { changes: { 'file:///etc/passwd': [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'x' }] } };
    await assert.rejects(c.run([elsewhere, uri, version, stamp]), (e: { code?: number }) => e.code === -32602);
    assert.equal(c.applied.length, 0);
  } finally {
    c.s.close();
  }
});

test('edgekit.applyFix after the document closed, or with a stamp of another server process, says so and applies nothing', { timeout: 60_000 }, async () => {
  const c = await commandClient();
  const other = await commandClient();
  try {
    const f = await c.fix();
    const g = await other.fix();
    // The same URI, version and text in another server (a restarted one): its stamp is not this server's.
    assert.equal(g.arguments[1], f.arguments[1]);
    await c.run(g.arguments);
    assert.equal(c.applied.length, 0, 'a stamp of another server process');
    assert.match(c.shown.at(-1) ?? '', /earlier text/);
    await c.s.client.sendNotification('textDocument/didClose', { textDocument: { uri: c.uri } });
    await c.run(f.arguments);
    assert.equal(c.applied.length, 0, 'the document is closed');
    assert.match(c.shown.at(-1) ?? '', /not open/);
  } finally {
    c.s.close();
    other.s.close();
  }
});

test('edgekit.applyFix is refused to a client it was not announced to (one that takes CodeAction literals, or no workspace/applyEdit)', { timeout: 60_000 }, async () => {
  for (const capabilities of [{ workspace: { applyEdit: true }, textDocument: { codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } } }, {}]) {
    const c = await commandClient(capabilities);
    try {
      assert.ok(!c.s.initialized.capabilities.executeCommandProvider?.commands.includes('edgekit.applyFix'));
      const edit = { changes: { [c.uri]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: ' ' }] } };
      await assert.rejects(c.run([edit, c.uri, 1, 'x']), (e: { code?: number; message?: string }) => e.code === -32602 && /Unknown command/.test(e.message ?? ''));
      assert.equal(c.applied.length, 0);
    } finally {
      c.s.close();
    }
  }
});

test('edgekit.applyFix: a client that answers workspace/applyEdit with an error gets a logged error, not an internal error', { timeout: 60_000 }, async () => {
  const q = await quickFixes({ workspace: { applyEdit: true } });
  try {
    const logged: string[] = [];
    q.s.client.onNotification('window/logMessage', (p: { message: string }) => { logged.push(p.message); });
    q.s.client.onRequest('workspace/applyEdit', () => { throw new Error('the buffer is read-only'); });
    const actions = await q.ask() as { command: string; arguments: unknown[] }[];
    assert.equal(await q.s.client.sendRequest('workspace/executeCommand', { command: actions[0].command, arguments: actions[0].arguments }), null);
    assert.ok(logged.some((m) => /edgekit\.applyFix/.test(m) && /read-only/.test(m)), JSON.stringify(logged));
  } finally {
    q.s.close();
  }
});

test('edgekit.applyFix for a client with workspaceEdit.documentChanges: the versioned edit its code action gave is applied', { timeout: 60_000 }, async () => {
  const c = await commandClient({ workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } });
  try {
    const f = await c.fix();
    assert.ok((f.arguments[0] as { documentChanges?: unknown[] }).documentChanges, JSON.stringify(f.arguments[0]));
    await c.run(f.arguments);
    assert.equal(c.applied.length, 1);
  } finally {
    c.s.close();
  }
});

test('a client that declares nothing at all: every feature answers in LSP 1.0\'s terms (plain text, SymbolInformation, kinds 1..18), none fails', { timeout: 120_000 }, async () => {
  const s = await inProcessServer({ capabilities: {} });
  try {
    const { next } = publishes({ conn: s.client });
    const failures: string[] = [];
    s.client.onNotification('window/logMessage', (p: { type: number; message: string }) => { if (p.type === 1) failures.push(p.message); });
    const docs: [string, string, string][] = [
      ['file:///n/a.filter.json', 'logpush-filter', BAD],
      ['file:///n/j.logpush.json', 'logpush-job', '{"dataset": "http_requests", "output_options": {"field_names": ["ClientIP", "ClientCountyr"]}, "filter": "{\\"where\\": {\\"key\\": \\"ClientCountry\\", \\"operator\\": \\"eq\\", \\"value\\": \\"ca\\"}}", "x": null}'],
      ['file:///n/r.rpc.json', 'jsonrpc-request', DUPLICATE_IDS],
      ['file:///n/w.ruleset.json', 'waf-ruleset', '{"name": "r", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "block", "expression": "http.host eq \\"a\\" and lower(http.host) in {\\"b\\"}"}]}'],
    ];
    const kinds = new Set<number>();
    for (const [uri, languageId, text] of docs) {
      const published = next(uri);
      await s.open(uri, languageId, 1, text);
      const diagnostics = (await published).diagnostics;
      assert.ok(diagnostics.every((d) => d.relatedInformation === undefined), 'no related information without the flag');
      const td = { textDocument: { uri } };
      for (let at = 0; at <= text.length; at += 7) {
        const position = { line: 0, character: at };
        const items = await s.client.sendRequest<{ kind?: number; insertTextFormat?: number; documentation?: unknown }[] | { items: { kind?: number; insertTextFormat?: number; documentation?: unknown }[] } | null>('textDocument/completion', { ...td, position });
        for (const item of (Array.isArray(items) ? items : items?.items ?? [])) {
          if (item.kind !== undefined) kinds.add(item.kind);
          assert.notEqual(item.insertTextFormat, 2, 'no snippets');
          assert.ok(item.documentation === undefined || typeof item.documentation === 'string', 'plain documentation');
        }
        const hover = await s.client.sendRequest<{ contents: unknown } | null>('textDocument/hover', { ...td, position });
        assert.ok(hover === null || (hover.contents as { kind?: string }).kind !== 'markdown', JSON.stringify(hover));
        await s.client.sendRequest('textDocument/signatureHelp', { ...td, position });
      }
      assert.deepEqual(await s.client.sendRequest('textDocument/codeAction', { ...td, range: { start: { line: 0, character: 0 }, end: { line: 0, character: text.length } }, context: { diagnostics } }), [], 'nothing it could run');
      const symbols = await s.client.sendRequest<{ kind: number; location?: unknown; children?: unknown }[]>('textDocument/documentSymbol', td);
      assert.ok(symbols.length > 0 && symbols.every((x) => x.location && x.children === undefined && x.kind >= 1 && x.kind <= 18), JSON.stringify(symbols));
      for (const method of ['textDocument/codeLens', 'textDocument/foldingRange', 'textDocument/formatting', 'textDocument/inlayHint']) {
        await s.client.sendRequest(method, { ...td, options: { tabSize: 2, insertSpaces: true }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: text.length } } });
      }
      await s.client.sendRequest('textDocument/selectionRange', { ...td, positions: [{ line: 0, character: 5 }] });
    }
    assert.ok(kinds.size > 2 && [...kinds].every((k) => k >= 1 && k <= 18), `completion kinds ${[...kinds]}`);
    assert.deepEqual(failures, []);
    assert.equal(s.configurationRequests(), 0, 'no workspace/configuration asked of a client without it');
  } finally {
    s.close();
  }
});

test('edgekit.applyFix after an undo brings the fix\'s text back: applied only to that text (same version), refused under a new version', { timeout: 60_000 }, async () => {
  const c = await commandClient();
  try {
    const f = await c.fix();
    // The same version throughout (a client that repeats it): BAD, another text, BAD again. The fix is for that very text, and is
    // applied, while no other text got a stamp meanwhile; once one did (its fixes were made), it is refused: never applied elsewhere.
    for (const [text, expectApplied] of [[GOOD, true], [`  ${BAD}`, false]] as const) {
      const published = c.next(c.uri);
      await c.s.change(c.uri, 1, text);
      const { diagnostics } = await published;
      if (text !== GOOD) { // the other text's fixes were made (a stamp for it)
        const made = await c.s.client.sendRequest<unknown[]>('textDocument/codeAction', { textDocument: { uri: c.uri }, range: diagnostics[0].range, context: { diagnostics } });
        assert.ok(made.length > 0, 'fixes for the other text');
      }
      const back = c.next(c.uri);
      await c.s.change(c.uri, 1, BAD);
      await back;
      const before = c.applied.length;
      await c.run(f.arguments);
      const applied = c.applied.slice(before) as { edit: { changes: Record<string, TextEdit[]> } }[];
      for (const a of applied) assert.equal(TextDocument.applyEdits(TextDocument.create(c.uri, 'json', 1, BAD), a.edit.changes[c.uri]), GOOD);
      assert.equal(applied.length, expectApplied ? 1 : 0, `after ${text}`);
    }
    // Undone under a new version: the version the fix names is not the document's.
    await c.s.change(c.uri, 2, GOOD);
    const back = c.next(c.uri);
    await c.s.change(c.uri, 3, BAD);
    await back;
    const before = c.applied.length;
    await c.run(f.arguments);
    assert.equal(c.applied.length, before);
    assert.match(c.shown.at(-1) ?? '', /earlier text/);
  } finally {
    c.s.close();
  }
});

// ui9: the "Cannot send: syntax error on line N" lens goes to the error in VS Code (a command of the extension's); a client that
// runs no EdgeKit commands still gets the sentence, as text, not no lens at all.
test('the "Cannot send" lens runs the go-to-error command for the VS Code client and is text for any other', { timeout: 60_000 }, async () => {
  const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": [}\n]';
  for (const [initializationOptions, command] of [[{ commands: true }, 'edgekit.gateway.showSyntaxError'], [{ textLenses: true }, ''], [{}, 'edgekit.showLensText']] as const) {
    const s = await inProcessServer({ initializationOptions });
    try {
      const uri = 'file:///w/a.rpc.json';
      await s.open(uri, 'jsonrpc-request', 1, text);
      const lenses = await s.client.sendRequest<{ command?: { title: string; command: string; arguments?: unknown[] } }[]>('textDocument/codeLens', { textDocument: { uri } });
      assert.deepEqual(lenses.map((l) => [l.command?.title, l.command?.command]), [['Cannot send: syntax error on line 2', command]], JSON.stringify(initializationOptions));
      if (command === 'edgekit.gateway.showSyntaxError') assert.deepEqual(lenses[0].command?.arguments, [uri]);
    } finally {
      s.close();
    }
  }
});
