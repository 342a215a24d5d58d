import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, codeOf, openFile, setText, waitForDiagnostics, removeFolder, applyFix, hoverText, findDiagnostic } from './helpers';

const { Error: ERROR, Warning: WARNING } = vscode.DiagnosticSeverity;

function insertedText(item: vscode.CompletionItem): string {
  const t = item.insertText;
  if (t === undefined) return typeof item.label === 'string' ? item.label : item.label.label;
  return typeof t === 'string' ? t : t.value;
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

/** The position just inside the first string literal `"literal"` (after its opening quote), optionally after `after`. */
function inside(doc: vscode.TextDocument, literal: string, after = 0): vscode.Position {
  const at = doc.getText().indexOf(`"${literal}"`, after);
  assert.ok(at >= 0, `"${literal}" is in the document`);
  return doc.positionAt(at + 1);
}

function usageOf(filter: unknown): { operators: number; bytes: number } {
  let operators = 0;
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object' || Array.isArray(n)) return;
    const o = n as Record<string, unknown>;
    const group = [o.and, o.or].filter(Array.isArray) as unknown[][];
    if (group.length === 0) { operators++; return; }
    for (const items of group) for (const i of items) walk(i);
  };
  walk((filter as { where: unknown }).where);
  return { operators, bytes: Buffer.byteLength(JSON.stringify(filter), 'utf8') };
}

const cmp = (key: string, operator: string, value: unknown) => ({ key, operator, value });

suite('Logpush: live diagnostics and editing help in the extension host', () => {
  let ctx: any;

  suiteSetup(async () => {
    ctx = (await api()).ctx;
  });

  suiteTeardown(() => removeFolder('lp'));

  test('a filter file: unknown field with the nearest name, operator not allowed for the type, "in" with a scalar', async () => {
    const editor = await openFile('lp/diag.filter.json', JSON.stringify({ where: { and: [
      cmp('ClientCountyr', 'eq', 'ca'), cmp('BotScore', 'startsWith', '1'), cmp('ClientCountry', 'in', 'ca'),
    ] } }, null, 2) + '\n');
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (d) => ['logpush/unknown-field', 'logpush/operator-not-allowed', 'logpush/set-needs-array'].every((c) => d.some((x) => codeOf(x) === c)), 'the three filter problems');
    const unknown = findDiagnostic(ds, 'logpush/unknown-field');
    assert.equal(unknown.severity, ERROR);
    assert.equal(doc.getText(unknown.range), '"ClientCountyr"');
    assert.match(unknown.message, /Unknown field "ClientCountyr"; did you mean "ClientCountry"/);
    const op = findDiagnostic(ds, 'logpush/operator-not-allowed');
    assert.equal(op.severity, ERROR);
    assert.equal(doc.getText(op.range), '"startsWith"');
    assert.match(op.message, /"startsWith".*"BotScore".*int/);
    const set = findDiagnostic(ds, 'logpush/set-needs-array');
    assert.equal(set.severity, ERROR);
    assert.equal(doc.getText(set.range), '"ca"');
    assert.equal(doc.getText(set.range.with({ start: set.range.start.translate(0, -9) })), '"value": "ca"', 'the value of the "in" comparison');
  });

  test('a job\'s embedded filter: the diagnostic lands on the escaped characters inside the string', async () => {
    const filter = JSON.stringify({ where: { and: [cmp('ClientRequestHost', 'eq', 'example.com'), cmp('ClientCountyr', 'eq', 'us'), cmp('EdgeResponseStatus', 'in', 404)] } });
    const editor = await openFile('lp/jobs/embedded.logpush.json', JSON.stringify({
      name: 'example.com', dataset: 'http_requests', destination_conf: 's3://logs/http?region=us-east-1', filter,
    }, null, 2) + '\n');
    const doc = editor.document;
    const ds = await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'logpush/unknown-field') && d.some((x) => codeOf(x) === 'logpush/set-needs-array'), 'the embedded filter problems');
    const unknown = findDiagnostic(ds, 'logpush/unknown-field');
    assert.equal(unknown.severity, ERROR);
    assert.equal(doc.getText(unknown.range), '\\"ClientCountyr\\"');
    const line = doc.lineAt(unknown.range.start.line).text;
    assert.ok(line.trimStart().startsWith('"filter": "{'), `the range is inside the filter string: ${line}`);
    const set = findDiagnostic(ds, 'logpush/set-needs-array');
    assert.equal(doc.getText(set.range), '404');
    // the fix edits the escaped text
    await applyFix(doc, unknown, 'Change to "ClientCountry"');
    await waitForDiagnostics(doc.uri, (d) => !d.some((x) => codeOf(x) === 'logpush/unknown-field'), 'the unknown field to clear');
    assert.ok(doc.getText().includes('\\"key\\":\\"ClientCountry\\"'), doc.getText());
    const value = JSON.parse(doc.getText()) as { filter: string };
    assert.equal((JSON.parse(value.filter) as { where: { and: { key: string }[] } }).where.and[1].key, 'ClientCountry', 'the filter string still decodes');
  });

  test('quick fixes: rename a misspelt field, then turn an "in" scalar into an array', async () => {
    const editor = await openFile('lp/fix.filter.json', JSON.stringify({ where: { and: [cmp('ClientCountyr', 'eq', 'ca'), cmp('EdgeResponseStatus', 'in', '200,201')] } }, null, 2) + '\n');
    const doc = editor.document;
    let ds = await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'logpush/unknown-field') && d.some((x) => codeOf(x) === 'logpush/set-needs-array'), 'both problems');
    await applyFix(doc, findDiagnostic(ds, 'logpush/unknown-field'), 'Change to "ClientCountry"');
    ds = await waitForDiagnostics(doc.uri, (d) => !d.some((x) => codeOf(x) === 'logpush/unknown-field'), 'the unknown field to clear');
    assert.match(doc.getText(), /"key": "ClientCountry"/);
    const set = findDiagnostic(ds, 'logpush/set-needs-array');
    assert.equal(doc.getText(set.range), '"200,201"');
    await applyFix(doc, set, 'Use [200, 201]');
    await waitForDiagnostics(doc.uri, (d) => d.length === 0, 'no problem left');
    assert.match(doc.getText(), /"value": \[200, 201\]/);
  });

  test('fix all: the source action applies every unambiguous fix; on save with editor.codeActionsOnSave too', async () => {
    const text = JSON.stringify({ where: { and: [cmp('ClientCountyr', 'eq', 'ca'), cmp('EdgeResponseStatus', 'In', 403), cmp('ClientRequestPath', 'startswith', '/a')] } }, null, 2) + '\n';
    const editor = await openFile('lp/fixall.filter.json', text);
    const doc = editor.document;
    await waitForDiagnostics(doc.uri, (d) => d.length === 3, 'three problems');
    const whole = new vscode.Range(0, 0, doc.lineCount, 0);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, whole, 'source.fixAll');
    const fixAll = actions.find((a) => a.kind?.value === 'source.fixAll.edgekit');
    assert.ok(fixAll?.edit, JSON.stringify(actions.map((a) => [a.title, a.kind?.value])));
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit));
    // "In" → "in", then 403 → [403] (revealed by the first), "startswith" → "startsWith"; the field with two candidates stays.
    await waitForDiagnostics(doc.uri, (d) => d.length === 1 && codeOf(d[0]) === 'logpush/unknown-field', 'only the misspelt field');
    assert.match(doc.getText(), /"operator": "in",\s*"value": \[\s*403\s*\]/);
    assert.match(doc.getText(), /"operator": "startsWith"/);

    // On save: the same action runs as a save participant.
    const editorConfig = vscode.workspace.getConfiguration('editor');
    await editorConfig.update('codeActionsOnSave', { 'source.fixAll.edgekit': 'explicit' }, vscode.ConfigurationTarget.Global);
    try {
      await setText(editor, text);
      await waitForDiagnostics(doc.uri, (d) => d.length === 3, 'three problems again');
      assert.ok(await doc.save(), 'saved');
      assert.match(doc.getText(), /"operator": "startsWith"/, 'fixed by the save participant');
      assert.ok(!doc.isDirty, 'the fixes were saved');
    } finally {
      await editorConfig.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('completion inside "operator" offers only the operators allowed for the field\'s type', async () => {
    const editor = await openFile('lp/complete.filter.json', JSON.stringify({ where: { and: [cmp('BotScore', 'lt', 30), cmp('ClientCountry', 'eq', 'ca')] } }, null, 2) + '\n');
    const doc = editor.document;
    const operators = async (pos: vscode.Position): Promise<{ labels: string[]; inserted: string[] }> => {
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, pos);
      return { labels: list.items.map(labelOf), inserted: list.items.map(insertedText) };
    };
    const int = await operators(inside(doc, 'lt'));
    const str = await operators(inside(doc, 'eq'));
    for (const op of ['lt', 'gt', 'leq', 'geq', 'eq', 'in']) assert.ok(int.labels.includes(op), `int field: ${op} offered in ${int.labels.join(' ')}`);
    for (const op of ['startsWith', 'contains', 'eq', 'in']) assert.ok(str.labels.includes(op), `string field: ${op} offered in ${str.labels.join(' ')}`);
    // Nothing else may offer a disallowed operator, under any label (e.g. a quoted "startsWith") or insert text.
    const offered = (c: { labels: string[]; inserted: string[] }, op: string) =>
      c.labels.some((l) => l.replace(/"/g, '') === op) || c.inserted.some((t) => t === op || t.includes(`"${op}"`));
    const wrong = [
      ...['startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains'].filter((op) => offered(int, op)).map((op) => `int BotScore: ${op}`),
      ...['lt', 'gt', 'leq', 'geq'].filter((op) => offered(str, op)).map((op) => `string ClientCountry: ${op}`),
    ];
    assert.deepEqual(wrong, [], `disallowed operators offered; labels for BotScore: ${int.labels.join(' ')}; for ClientCountry: ${str.labels.join(' ')}`);
  });

  test('hover on a field name shows its type', async () => {
    const editor = await openFile('lp/hover.filter.json', JSON.stringify({ where: { and: [cmp('BotScore', 'lt', 30), cmp('ClientCountry', 'eq', 'ca')] } }, null, 2) + '\n');
    const doc = editor.document;
    const bot = await hoverText(doc.uri, inside(doc, 'BotScore').translate(0, 2));
    assert.match(bot, /BotScore/);
    assert.match(bot, /`int`/);
    const country = await hoverText(doc.uri, inside(doc, 'ClientCountry').translate(0, 2));
    assert.match(country, /ClientCountry/);
    assert.match(country, /`string`/);
  });

  test('the usage code lens on "where" and the status bar follow edits', async () => {
    const first = { where: { and: [cmp('BotScore', 'lt', 30), cmp('ClientCountry', 'eq', 'ca')] } };
    const editor = await openFile('lp/usage.filter.json', JSON.stringify(first, null, 2) + '\n');
    const doc = editor.document;
    await waitForDiagnostics(doc.uri, (d) => d.length === 0, 'a clean filter');
    const lensTitle = async (): Promise<string> => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      const onWhere = lenses.filter((l) => doc.getText(l.range) === '"where"');
      assert.equal(onWhere.length, 1, JSON.stringify(lenses.map((l) => [doc.getText(l.range), l.command?.title])));
      return onWhere[0].command!.title;
    };
    const u1 = usageOf(first);
    assert.equal(u1.operators, 2);
    const expected1 = `2/30 operators · ${u1.bytes}/1000 bytes`;
    assert.equal(await lensTitle(), expected1);
    await ctx.status.update();
    assert.ok(String(ctx.status.lastText).includes(expected1), `status bar: ${ctx.status.lastText}`);

    const second = { where: { and: [...first.where.and, cmp('EdgeResponseStatus', 'in', [403, 404]), cmp('ClientRequestHost', 'endsWith', '.example.com')] } };
    await setText(editor, JSON.stringify(second, null, 2) + '\n');
    const u2 = usageOf(second);
    const expected2 = `4/30 operators · ${u2.bytes}/1000 bytes`;
    assert.notEqual(expected2, expected1);
    assert.equal(await lensTitle(), expected2);
    await ctx.status.update();
    assert.ok(String(ctx.status.lastText).includes(expected2), `status bar after the edit: ${ctx.status.lastText}`);
    assert.match(String(ctx.status.lastText), /operators/);
    assert.match(String(ctx.status.lastText), /bytes/);
  });

  test('a limits warning appears live when the filter reaches 27 of 30 operators', async () => {
    const many = (n: number) => ({ where: { or: Array.from({ length: n }, (_, i) => cmp('EdgeResponseStatus', 'eq', 200 + i)) } });
    const editor = await openFile('lp/limits.filter.json', JSON.stringify(many(26)) + '\n');
    const doc = editor.document;
    await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'logpush/size-limit-near' || codeOf(x) === 'logpush/size-limit'), 'the size diagnostic');
    assert.ok(!vscode.languages.getDiagnostics(doc.uri).some((x) => codeOf(x).startsWith('logpush/operator-limit')), '26 operators: no operator warning');
    await setText(editor, JSON.stringify(many(27)) + '\n');
    const ds = await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'logpush/operator-limit-near'), 'the operator-limit-near warning');
    const near = findDiagnostic(ds, 'logpush/operator-limit-near');
    assert.equal(near.severity, WARNING);
    assert.equal(doc.getText(near.range), '"where"');
    assert.match(near.message, /27 of at most 30 operators/);
    await setText(editor, JSON.stringify(many(31)) + '\n');
    const over = findDiagnostic(await waitForDiagnostics(doc.uri, (d) => d.some((x) => codeOf(x) === 'logpush/operator-limit'), 'the operator-limit error'), 'logpush/operator-limit');
    assert.equal(over.severity, ERROR);
    assert.match(over.message, /31 operators, over the limit of 30/);
  });

  test('no problem is reported twice, on any of the four kinds', async () => {
    const samples: [string, string, string[]][] = [
      ['lp/dup/a.filter.json', JSON.stringify({ where: { and: [
        cmp('BotScore', 'startsWith', 'x'), cmp('ClientCountyr', 'eq', 'ca'), cmp('ClientCountry', 'in', 'ca'), cmp('EdgeResponseStatus', 'eq', [1]),
        cmp('ClientCountry', 'eqq', 'x'), { operator: 'eq' },
      ] }, extra: 1 }, null, 2), ['logpush/unknown-field', 'schema/enum', 'logpush/missing-member']],
      ['lp/dup/b.logpush.json', JSON.stringify({
        name: 'bad name!', dataset: 'http_requests', frequency: 'high', logpull_options: 'fields=ClientIP,ClientIP,Nope&timestamps=bogus&foo=1',
        filter: JSON.stringify({ where: { and: [cmp('ClientCountyr', 'eq', 'ca'), cmp('BotScore', 'contains', 1), cmp('ClientCountry', 'in', 'ca')] } }),
        destination_conf: 's3://bucket/path', unknown: true,
      }, null, 2), ['logpush/invalid-job-name', 'logpush/unknown-field', 'logpush/destination-missing-param']],
      ['lp/dup/c.rpc.json', JSON.stringify([
        { jsonrpc: '1.0', method: 'eth_getbalance', params: [], id: 1 },
        { method: 'eth_getBalance', params: ['0x12', '0x0010', 3], id: '1' },
        { jsonrpc: '2.0', method: 'eth_sign', id: 1, extra: 2 },
        { jsonrpc: '2.0', method: 'eth_getLogs', params: [{ fromBlock: '0x1', toBlock: '0x400', foo: 1 }], id: 4 },
      ], null, 2), ['jsonrpc/unknown-method', 'jsonrpc/duplicate-id', 'jsonrpc/block-range-too-large']],
      ['lp/dup/d.ruleset.json', JSON.stringify({ name: 'default', extra: 1, rules: [
        { action: 'execute', expression: 'http.hots eq "a" AND ip.src contains "x"', action_parameters: { id: '0123456789abcdef0123456789abcdef' } },
        { id: 'a', action: 'execute', expression: 'http.host eq 3' },
        { id: 'a', ref: 'r', action: 'bogus', expression: '(' },
      ] }, null, 2), ['ruleset/expr-syntax', 'ruleset/duplicate-rule-id', 'ruleset/expr-type-mismatch']],
    ];
    for (const [name, text, expect] of samples) {
      const editor = await openFile(name, text + '\n');
      const doc = editor.document;
      const all = await waitForDiagnostics(doc.uri, (d) => expect.every((c) => d.some((x) => codeOf(x) === c)), `${expect.join(', ')} on ${name}`);
      assert.ok(all.length >= 5, `${name}: several problems, got ${all.length}`);
      for (const d of all) assert.equal(d.source, 'edgekit', `${name}: ${d.source} ${codeOf(d)} ${d.message}`);
      const seen = new Map<string, string>();
      for (const d of all) {
        const key = `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${codeOf(d)}`;
        assert.ok(!seen.has(key), `${name}: reported twice: ${key} "${seen.get(key)}" and "${d.message}"`);
        seen.set(key, d.message);
      }
    }
  });
});
