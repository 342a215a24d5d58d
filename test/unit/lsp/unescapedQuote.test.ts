// syntax/unescaped-quote over LSP: the client gets the quote's range, the whole string as related information when it advertises
// support, and the quick fix (preferred) whose edits, applied by the client, give the value meant; in a Logpush job's filter string
// too, where the quote is in the filter and the fix is written for the job's JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, DocumentDiagnosticReport, TextEdit } from 'vscode-languageserver-protocol';
import { startServer } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';

/** The two documents' members read here. */
type Job = { rules?: { expression: string }[]; filter?: string };

test('unescaped quote over LSP: range, relatedInformation, and a quick fix that gives the value meant', { timeout: 60_000 }, async () => {
  const server = await startServer(serverJs());
  try {
    const cases = [
      { uri: 'file:///w/r.ruleset.json', languageId: 'waf-ruleset',
        text: '{\n  "rules": [\n    { "action": "block", "expression": "http.host eq "a.example"" }\n  ]\n}\n',
        value: (v: Job) => v.rules![0].expression, meant: 'http.host eq "a.example"', related: '"http.host eq "a.example""', quoteAt: { line: 2, character: '    { "action": "block", "expression": "http.host eq '.length } },
      { uri: 'file:///w/j.logpush.json', languageId: 'logpush-job',
        text: `{\n  "name": "x", "dataset": "http_requests", "destination_conf": "s3://b/l?region=us-east-1",\n  "filter": ${JSON.stringify('{"where":{"key":"ClientRequestPath","operator":"eq","value":"/a"b"}}')}\n}\n`,
        value: (v: Job) => (JSON.parse(v.filter!) as { where: { value: string } }).where.value, meant: '/a"b', related: '\\"/a\\"b\\"', quoteAt: undefined },
    ];
    for (const c of cases) {
      await server.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: c.uri, languageId: c.languageId, version: 1, text: c.text } });
      const report = await server.conn.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: c.uri } });
      const diags = (report as { items: Diagnostic[] }).items;
      const d = diags.find((x) => x.code === 'syntax/unescaped-quote');
      assert.ok(d, `${c.uri}: ${JSON.stringify(diags)}`);
      const doc = TextDocument.create(c.uri, c.languageId, 1, c.text);
      if (c.quoteAt) assert.deepEqual(d.range.start, c.quoteAt);
      assert.match(doc.getText(d.range), /^\\?"$/, 'the range is the quote');
      assert.equal(d.relatedInformation?.length, 1, JSON.stringify(d));
      assert.equal(doc.getText(d.relatedInformation![0].location.range), c.related, 'the whole string, in the document');
      const actions = await server.conn.sendRequest<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: c.uri }, range: d.range, context: { diagnostics: [d] } });
      const fix = actions.find((a) => a.isPreferred && a.kind === 'quickfix');
      assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
      const edits = (fix.edit!.documentChanges?.[0] as { edits: TextEdit[] } | undefined)?.edits ?? fix.edit!.changes![c.uri];
      assert.equal(c.value(JSON.parse(TextDocument.applyEdits(doc, edits)) as Job), c.meant);
    }
  } finally {
    await server.stop();
  }
});
