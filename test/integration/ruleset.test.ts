import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, openFile, setText, waitForDiagnostics, removeFolder, hoverText, findDiagnostic } from './helpers';

/** The position of the first occurrence of `text` in the document (plus `delta` characters). */
function at(doc: vscode.TextDocument, text: string, delta = 0): vscode.Position {
  const i = doc.getText().indexOf(text);
  assert.ok(i >= 0, `${text} is in the document`);
  return doc.positionAt(i + delta);
}

const labelOf = (i: vscode.CompletionItem): string => (typeof i.label === 'string' ? i.label : i.label.label);

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const skip = (expression: string) => ({ action: 'skip', expression, action_parameters: { ruleset: 'current' } });
const body = (rules: unknown[]) => JSON.stringify({ name: 'default', rules }, null, 2) + '\n';

suite('Ruleset: expressions and bodies in the extension host', () => {
  suiteSetup(async () => {
    await api();
  });

  suiteTeardown(() => removeFolder('rs'));

  test('expression problems land on the exact characters inside the JSON string, after an escaped quote too', async () => {
    const editor = await openFile('rs/expr.ruleset.json', body([
      skip('http.user_agent eq "a\\"b" and http.hots eq "c"'),
      skip('http.user_agent eq "a\\"b" AND ssl'),
      skip('ip.src contains "x"'),
      skip('http.host eq 3'),
    ]));
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (d) => ['ruleset/expr-unknown-field', 'ruleset/expr-syntax', 'ruleset/expr-type-mismatch'].every((c) => d.some((x) => codeOf(x) === c))
      && d.filter((x) => codeOf(x) === 'ruleset/expr-type-mismatch').length === 2, 'the expression problems');
    assert.ok(doc.getText().includes('"http.user_agent eq \\"a\\\\\\"b\\" and http.hots eq \\"c\\""'), 'the escaped quote is in the file');

    const unknown = findDiagnostic(ds, 'ruleset/expr-unknown-field');
    assert.equal(unknown.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(doc.getText(unknown.range), 'http.hots');
    assert.equal(unknown.range.start.line, at(doc, 'http.hots').line);
    assert.match(unknown.message, /Unknown field "http\.hots"; did you mean "http\.host"\?/);

    const syntax = findDiagnostic(ds, 'ruleset/expr-syntax');
    assert.equal(syntax.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(doc.getText(syntax.range), 'AND');
    assert.match(syntax.message, /"AND" must be lowercase/);

    const mismatches = ds.filter((x) => codeOf(x) === 'ruleset/expr-type-mismatch').sort((a, b) => a.range.start.line - b.range.start.line);
    assert.deepEqual(mismatches.map((d) => doc.getText(d.range)), ['contains', '3']);
    for (const d of mismatches) assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(mismatches[0].message, /"contains" does not apply to field "ip\.src"/);
    assert.match(mismatches[1].message, /"http\.host" is a String/);

    // live: fixing the field name in the editor clears the diagnostic
    await setText(editor, doc.getText().replace('http.hots', 'http.host'));
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => codeOf(x) === 'ruleset/expr-unknown-field') && d.some((x) => codeOf(x) === 'ruleset/expr-syntax'), 'the unknown field to clear');
  });

  test('hover on a field inside an expression and on action_parameters.id', async () => {
    const editor = await openFile('rs/hover.ruleset.json', body([
      { action: 'execute', expression: 'http.user_agent contains "bot" and ip.src in {10.0.0.0/8}', action_parameters: { id: MANAGED } },
    ]));
    const doc = editor.document;
    const field = await hoverText(doc.uri, at(doc, 'http.user_agent', 5));
    assert.match(field, /\*\*http\.user_agent\*\*/);
    assert.match(field, /String/);
    const ip = await hoverText(doc.uri, at(doc, 'ip.src', 3));
    assert.match(ip, /\*\*ip\.src\*\*/);
    assert.match(ip, /IP/);
    const managed = await hoverText(doc.uri, at(doc, MANAGED, 5));
    assert.match(managed, /Cloudflare Managed Ruleset/);
    assert.match(managed, /http_request_firewall_managed/);
  });

  test('signature help inside a function call of an expression: the outer call, then the inner one', async () => {
    const editor = await openFile('rs/sig.ruleset.json', body([skip('starts_with(lower(http.host), "a")')]));
    const doc = editor.document;
    const help = await vscode.commands.executeCommand<vscode.SignatureHelp>('vscode.executeSignatureHelpProvider', doc.uri, at(doc, ', \\"a', 2));
    assert.ok(help?.signatures.length, 'signature help');
    assert.match(help.signatures[0].label, /^starts_with\(source: String, substring: String\)/);
    assert.equal(help.activeParameter, 1);
    const inner = await vscode.commands.executeCommand<vscode.SignatureHelp>('vscode.executeSignatureHelpProvider', doc.uri, at(doc, 'http.host', 2), '(');
    assert.match(inner.signatures[0].label, /^lower\(/);
  });

  test('Expand Selection inside an expression: the field, its call, the comparison, the whole expression, then the JSON', async () => {
    const editor = await openFile('rs/select.ruleset.json', body([skip('http.host eq "a" and lower(http.request.uri.path) contains "/x"')]));
    const doc = editor.document;
    const [sel] = await vscode.commands.executeCommand<vscode.SelectionRange[]>('vscode.executeSelectionRangeProvider', doc.uri, [at(doc, 'uri.path', 0)]);
    const texts: string[] = [];
    for (let r: vscode.SelectionRange | undefined = sel; r; r = r.parent) texts.push(doc.getText(r.range));
    // VS Code merges in its word ranges ("uri", "uri.path"): ours must appear in order among them.
    const ours = ['http.request.uri.path', 'lower(http.request.uri.path)', 'lower(http.request.uri.path) contains \\"/x\\"',
      'http.host eq \\"a\\" and lower(http.request.uri.path) contains \\"/x\\"'];
    const where = ours.map((t) => texts.indexOf(t));
    assert.ok(where.every((i, k) => i >= 0 && (k === 0 || i > where[k - 1])), texts.join(' | '));
    assert.ok(texts.some((t) => t.startsWith('"expression": ')), texts.join(' | '));
  });

  test('pending vs validation body: information, lens and hover, and they follow edits', async () => {
    const rules = [
      { action: 'execute', expression: 'true', action_parameters: { id: MANAGED } },
      { action: 'execute', expression: 'true', action_parameters: { id: '4814384a9e5d4991b9815dcfc25d2f1f' } },
      { ref: 'old-ref', action: 'execute', expression: 'true', action_parameters: { id: '77454fe2d30c4220b5701f6fdfb893ba' } },
    ];
    const editor = await openFile('rs/kind.ruleset.json', body(rules));
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'ruleset/body-kind') && d.some((x) => codeOf(x) === 'ruleset/inconsistent-rule-ids'), 'body-kind');
    const info = findDiagnostic(ds, 'ruleset/body-kind');
    assert.equal(info.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(doc.getText(info.range), '"rules"');
    assert.match(info.message, /new rules, without ids/);
    assert.match(info.message, /1 of 3 rules has ids/);
    const odd = findDiagnostic(ds, 'ruleset/inconsistent-rule-ids');
    assert.equal(odd.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(doc.getText(odd.range), '"ref"');
    const rulesLens = async (): Promise<string> => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      const l = lenses.filter((x) => doc.getText(x.range) === '"rules"');
      assert.equal(l.length, 1, JSON.stringify(lenses.map((x) => x.command?.title)));
      return l[0].command!.title;
    };
    assert.equal(await rulesLens(), '3 rules · without ids (new rules)');
    assert.match(await hoverText(doc.uri, at(doc, '"rules"', 2)), /without ids \(new rules\)/);

    // every rule carries id/version/ref: a consistent pending body, nothing to report
    const pending = rules.map(({ ref: _ref, ...r }, i) => ({ id: `${'0'.repeat(31)}${i + 1}`, version: '1', ref: `r${i}`, ...r }));
    await setText(editor, body(pending));
    await waitForDiagnostics(doc.uri, (d) => d.length === 0, 'a clean pending body');
    assert.equal(await rulesLens(), '3 rules · with ids (as the migration configured them)');
    assert.match(await hoverText(doc.uri, at(doc, '"rules"', 2)), /pending \(config\) body/);
  });

  test('more than 200 rules are flagged on "rules", live', async () => {
    const editor = await openFile('rs/many.ruleset.json', body(Array.from({ length: 201 }, () => skip('true'))));
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'ruleset/too-many-rules'), 'too-many-rules');
    assert.equal(ds.filter((x) => x.source === 'edgekit').length, 1);
    const d = findDiagnostic(ds, 'ruleset/too-many-rules');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(doc.getText(d.range), '"rules"');
    assert.match(d.message, /201 skip rules \(exceptions\); the migration converts at most 200/);
    await setText(editor, body(Array.from({ length: 200 }, () => skip('true'))));
    await waitForDiagnostics(doc.uri, (x) => x.length === 0, '200 rules are fine');
  });

  test('completion inside the expression string: fields, then comparison operators', async () => {
    const editor = await openFile('rs/complete.ruleset.json', body([skip('ip.src eq 10.0.0.1 and http.ho'), skip('http.host ')]));
    const doc = editor.document;
    const end = at(doc, 'http.ho"', 'http.ho'.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, end);
    const labels = list.items.map(labelOf);
    for (const f of ['http.host', 'http.user_agent', 'ip.src', 'http.request.uri.path']) assert.ok(labels.includes(f), `${f} offered`);
    assert.ok(!labels.includes('eq'), 'no comparison operator where an operand is expected');
    const host = list.items.find((i) => labelOf(i) === 'http.host')!;
    const r = host.range instanceof vscode.Range ? host.range : host.range!.replacing;
    assert.equal(doc.getText(r), 'http.ho', 'the completion replaces the word typed so far');

    const afterField = at(doc, '"http.host "', 'http.host '.length + 1);
    const ops = (await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, afterField)).items.map(labelOf);
    for (const o of ['eq', 'ne', 'contains', 'matches', 'in']) assert.ok(ops.includes(o), `${o} offered after a field: ${ops.join(' ')}`);
    assert.ok(!ops.includes('http.host'), 'no field after a field');
  });
});
