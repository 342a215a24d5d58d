import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, openFile, waitForDiagnostics, waitForAnyDiagnostics, removeFolder, setText, applyFix, hoverText, findDiagnostic } from './helpers';

function inside(doc: vscode.TextDocument, literal: string): vscode.Position {
  const at = doc.getText().indexOf(`"${literal}"`);
  assert.ok(at >= 0, `"${literal}" is in the document`);
  return doc.positionAt(at + 1);
}

const labelOf = (i: vscode.CompletionItem): string => (typeof i.label === 'string' ? i.label : i.label.label);
const insertedOf = (i: vscode.CompletionItem): string => (i.insertText === undefined ? labelOf(i) : typeof i.insertText === 'string' ? i.insertText : i.insertText.value);

const ADDRESS = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';

suite('JSON-RPC: live diagnostics and editing help in the extension host', () => {
  suiteSetup(async () => {
    await api();
  });

  suiteTeardown(() => removeFolder('rpc'));

  test('inlay hints name positional params and show hex numbers in decimal', async () => {
    const editor = await openFile('rpc/hints.rpc.json', JSON.stringify({ jsonrpc: '2.0', method: 'eth_getBlockByNumber', params: ['0x1312d00', false], id: 1 }, null, 2) + '\n');
    const doc = editor.document;
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', doc.uri, new vscode.Range(0, 0, doc.lineCount, 0));
    const labels = hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));
    assert.deepEqual(labels, ['Block:', '= 20,000,000', 'Hydrated transactions:']);
    assert.equal(hints[0].kind, vscode.InlayHintKind.Parameter);
    assert.equal(doc.getText(new vscode.Range(hints[0].position, hints[0].position.translate(0, 11))), '"0x1312d00"');
  });

  test('method completion offers the supported methods and not the unsupported ones', async () => {
    const editor = await openFile('rpc/complete.rpc.json', '{"jsonrpc": "2.0", "method": "eth_", "params": [], "id": 1}\n');
    const doc = editor.document;
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, inside(doc, 'eth_').translate(0, 4));
    const labels = list.items.map(labelOf);
    for (const m of ['eth_getBalance', 'eth_blockNumber', 'eth_getLogs', 'trace_filter', 'eth_feeHistory']) assert.ok(labels.includes(m), `${m} offered: ${labels.join(' ')}`);
    for (const m of ['eth_sign', 'eth_sendTransaction']) {
      assert.ok(!list.items.some((i) => labelOf(i) === m || labelOf(i) === JSON.stringify(m) || insertedOf(i) === JSON.stringify(m)), `${m} is not offered: ${labels.join(' ')}`);
    }
    const item = list.items.find((i) => labelOf(i) === 'eth_getBalance')!;
    assert.match(String(item.detail), /eth_getBalance\(/, 'the signature is the detail');
  });

  test('hover on a method names its params and the gateway limits', async () => {
    const editor = await openFile('rpc/hover.rpc.json', JSON.stringify([
      { jsonrpc: '2.0', method: 'eth_getBalance', params: [ADDRESS, 'latest'], id: 1 },
      { jsonrpc: '2.0', method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x2' }], id: 2 },
    ], null, 2) + '\n');
    const doc = editor.document;
    const balance = await hoverText(doc.uri, inside(doc, 'eth_getBalance').translate(0, 3));
    assert.match(balance, /eth_getBalance\(/);
    assert.match(balance, /Params/);
    assert.match(balance, /Address/);
    assert.match(balance, /Block/);
    const logs = await hoverText(doc.uri, inside(doc, 'eth_getLogs').translate(0, 3));
    assert.match(logs, /Gateway limits/);
    assert.match(logs, /800/);
  });

  test('an unknown method is flagged with the nearest name, and the quick fix renames it', async () => {
    const editor = await openFile('rpc/unknown.rpc.json', `{"jsonrpc": "2.0", "method": "eth_getbalance", "params": ["${ADDRESS}", "latest"], "id": 1}\n`);
    const doc = editor.document;
    const d = findDiagnostic(await waitForDiagnostics(doc.uri, (x) => x.some((y) => codeOf(y) === 'jsonrpc/unknown-method'), 'unknown-method'), 'jsonrpc/unknown-method');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(doc.getText(d.range), '"eth_getbalance"');
    assert.match(d.message, /Unknown method "eth_getbalance"; did you mean "eth_getBalance"\?/);
    await applyFix(doc, d, 'Change to "eth_getBalance"');
    await waitForDiagnostics(doc.uri, (x) => x.length === 0, 'no problem left');
    assert.match(doc.getText(), /"method": "eth_getBalance"/);
  });

  test('a quantity with leading zeros is flagged and normalized by its quick fix', async () => {
    const editor = await openFile('rpc/quantity.rpc.json', `{"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["${ADDRESS}", "0x0010"], "id": 1}\n`);
    const doc = editor.document;
    const d = findDiagnostic(await waitForDiagnostics(doc.uri, (x) => x.some((y) => codeOf(y) === 'jsonrpc/invalid-quantity'), 'invalid-quantity'), 'jsonrpc/invalid-quantity');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(doc.getText(d.range), '"0x0010"');
    assert.match(d.message, /leading zeros/);
    await applyFix(doc, d, 'Replace with "0x10"');
    await waitForDiagnostics(doc.uri, (x) => x.length === 0, 'no problem left');
    assert.ok(doc.getText().includes('"0x10"]'), doc.getText());
  });

  test('a string id is a warning on the id', async () => {
    const editor = await openFile('rpc/string-id.rpc.json', '{ "jsonrpc": "2.0", "method": "eth_chainId", "params": [], "id": "7" }\n');
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (x) => x.some((y) => codeOf(y) === 'jsonrpc/string-id'), 'string-id');
    assert.equal(ds.filter((x) => x.source === 'edgekit').length, 1);
    const d = findDiagnostic(ds, 'jsonrpc/string-id');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(doc.getText(d.range), '"7"');
    assert.match(d.message, /"7" is a string/);
  });

  test('duplicate ids in a batch point at the other request', async () => {
    const editor = await openFile('rpc/dup.rpc.json', [
      '[',
      '  { "jsonrpc": "2.0", "method": "eth_blockNumber", "id": 11 },',
      '  { "jsonrpc": "2.0", "method": "eth_chainId", "id": 12 },',
      '  { "jsonrpc": "2.0", "method": "eth_gasPrice", "id": 11 }',
      ']', ''].join('\n'));
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (x) => x.some((y) => codeOf(y) === 'jsonrpc/duplicate-id'), 'duplicate-id');
    const dups = ds.filter((x) => codeOf(x) === 'jsonrpc/duplicate-id');
    assert.equal(dups.length, 1);
    const d = dups[0];
    assert.equal(d.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(d.range.start.line, 3);
    assert.equal(doc.getText(d.range), '11');
    assert.ok(d.relatedInformation && d.relatedInformation.length === 1, 'related information');
    const rel = d.relatedInformation![0];
    assert.equal(rel.location.uri.toString(), doc.uri.toString());
    assert.equal(rel.location.range.start.line, 1);
    assert.equal(doc.getText(rel.location.range), '11');
  });

  test('"Send request" code lenses: one per request of a batch and one for the batch', async () => {
    const editor = await openFile('rpc/lenses.rpc.json', JSON.stringify([
      { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 1 },
      { jsonrpc: '2.0', method: 'net_version', params: [], id: 2 },
      { jsonrpc: '2.0', method: 'eth_blockNumber', params: [], id: 3 },
    ], null, 2) + '\n');
    const doc = editor.document;
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const send = lenses.filter((l) => l.command?.command === 'edgekit.gateway.send');
    const titles = send.map((l) => l.command!.title);
    assert.equal(titles.filter((t) => t === 'Send request').length, 3, JSON.stringify(titles));
    assert.equal(titles.filter((t) => t === 'Send batch (3 requests)').length, 1, JSON.stringify(titles));
    assert.equal(send.length, 4);
    const lines = send.filter((l) => l.command!.title === 'Send request').map((l) => l.range.start.line).sort((a, b) => a - b);
    const starts = doc.getText().split('\n').flatMap((l, i) => (l === '  {' ? [i] : []));
    assert.equal(starts.length, 3);
    assert.deepEqual(lines, starts, 'each lens sits on its request');
    const indexes = send.map((l) => (l.command!.arguments?.[1] as { index: number | null }).index);
    assert.deepEqual([...indexes].sort(), [0, 1, 2, null].sort());

    const single = await openFile('rpc/single.rpc.json', '{"jsonrpc": "2.0", "method": "eth_chainId", "params": [], "id": 1}\n');
    const one = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', single.document.uri)).filter((l) => l.command?.command === 'edgekit.gateway.send');
    assert.deepEqual(one.map((l) => l.command!.title), ['Send request']);
  });

  test('a plain JSON file matched by contributes.jsonValidation gets the params checks from VS Code\'s own JSON service', async () => {
    // *.edgekit-rpc.json is language "json": EdgeKit's server does not check it, the built-in JSON extension does, with our schema.
    const editor = await openFile('rpc/plain.edgekit-rpc.json', `{"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0x12", "lastest"], "id": 1}\n`);
    const doc = editor.document;
    assert.equal(doc.languageId, 'json');
    const json = (ds: vscode.Diagnostic[]) => ds.filter((d) => d.source !== 'edgekit'); // the JSON service sets no source
    const ds = json(await waitForAnyDiagnostics(doc.uri, (x) => json(x).length >= 2, 'the JSON service\'s params problems'));
    const at = ds.map((d) => doc.getText(d.range)).sort();
    assert.deepEqual(at, ['"0x12"', '"lastest"'], JSON.stringify(ds.map((d) => d.message)));
    // The schema's own wording (errorMessage), not "String does not match the pattern of ...".
    const messages = ds.map((d) => d.message).join(' | ');
    assert.match(messages, /Expected a 20-byte address/);
    assert.match(messages, /Expected a block number .*"latest"/);
    assert.deepEqual(vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'edgekit'), [], 'EdgeKit leaves plain JSON to VS Code');
    await setText(editor, `{"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["${ADDRESS}", "latest"], "id": 1}\n`);
    await waitForAnyDiagnostics(doc.uri, (x) => json(x).length === 0, 'no JSON problem left once the params are right');
  });
});
