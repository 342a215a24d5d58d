// Cancellation of the editor features' requests, over real LSP messages: the server (lsp/start.ts) runs in this process on a
// vscode-languageserver connection over in-memory streams, and a vscode-languageserver-protocol client drives it, so the test can
// hold the server's workspace/configuration round trip (the one await before the work starts) and count the core's steps.
// - a request the client cancels before its work starts is answered RequestCancelled (-32800), as VS Code's JSON server does;
// - a request whose document changed before its work starts is answered ContentModified (-32801);
// - a long semantic-tokens request cancelled mid-way stops at its next look at the token (a count of the core's steps, not time).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node';
import { core } from '../../../server/src/lsp/context';
import { rulesetDoc } from '../../../bench/docs';
import { inProcessServer as harness } from './inProcess';

const outcome = (p: Promise<unknown>) => p.then(() => 'answered', (e: { code?: number; message?: string }) => e.code ?? e.message);

const RULESET = JSON.stringify({
  name: 'r', kind: 'zone', phase: 'http_request_firewall_custom',
  rules: [{ action: 'block', expression: 'http.host eq "a" and ip.src in {192.0.2.0/24}' }, { action: 'log', expression: 'ssl' }],
}, null, 2);
const AT = { line: 5, character: 25 };
const RANGE = { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } };

/** Every feature request the server handles on a document, with params for the ruleset above. */
const REQUESTS: [method: string, params: Record<string, unknown>][] = [
  ['textDocument/semanticTokens/full', {}],
  ['textDocument/semanticTokens/range', { range: RANGE }],
  ['textDocument/hover', { position: AT }],
  ['textDocument/completion', { position: AT }],
  ['textDocument/signatureHelp', { position: AT }],
  ['textDocument/inlayHint', { range: RANGE }],
  ['textDocument/codeAction', { range: RANGE, context: { diagnostics: [{ range: RANGE, message: 'm', code: 'schema/required' }] } }],
  ['textDocument/codeLens', {}],
  ['textDocument/documentSymbol', {}],
  ['textDocument/foldingRange', {}],
  ['textDocument/selectionRange', { positions: [AT] }],
  ['textDocument/formatting', { options: { tabSize: 2, insertSpaces: true } }],
  ['textDocument/rangeFormatting', { range: RANGE, options: { tabSize: 2, insertSpaces: true } }],
];

test('a feature request cancelled before its work starts is answered RequestCancelled; one whose document changed, ContentModified', { timeout: 60_000 }, async () => {
  const h = await harness();
  try {
    const uri = 'file:///w/cancel.ruleset.json';
    await h.client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text: RULESET } });
    let version = 1;
    for (const [method, params] of REQUESTS) {
      // Answered in full when nothing happens (the settings are cached after the first round trip).
      assert.equal(await outcome(h.client.sendRequest(method, { textDocument: { uri }, ...params })), 'answered', method);
      // A settings change drops the cache: the next request waits for workspace/configuration, and the client cancels it meanwhile.
      await h.client.sendNotification('workspace/didChangeConfiguration', { settings: null });
      const source = new CancellationTokenSource();
      h.beforeSettings(() => source.cancel());
      const asked = h.configurationRequests();
      const cancelled = outcome(h.client.sendRequest(method, { textDocument: { uri }, ...params }, source.token));
      assert.equal(await cancelled, -32800, `${method} cancelled while it waited for its settings`);
      assert.equal(h.configurationRequests(), asked + 1, `${method} waited for the settings`);
      // The same, but the document changes while the request waits: its positions were the old version's.
      await h.client.sendNotification('workspace/didChangeConfiguration', { settings: null });
      h.beforeSettings(() => h.client.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: ' ' }],
      }));
      assert.equal(await outcome(h.client.sendRequest(method, { textDocument: { uri }, ...params })), -32801, `${method} on a document changed while it waited`);
    }
  } finally {
    h.close();
  }
});

test('a full semantic-tokens request on a large ruleset cancelled mid-way stops at its next look at the token', { timeout: 60_000 }, async (t) => {
  const h = await harness();
  const service = core();
  const steps = service.semanticTokenSteps;
  try {
    const base = JSON.parse(rulesetDoc('valid').text) as { rules: unknown[] };
    const rules: unknown[] = [];
    for (let i = 0; i < 10; i++) rules.push(...base.rules); // 2 000 expressions, about 1.2 MB
    const text = JSON.stringify({ ...base, rules }, null, 2);
    const uri = 'file:///w/large.ruleset.json';
    await h.client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'waf-ruleset', version: 1, text } });
    let pulled = 0;
    let onStep: ((n: number) => void) | undefined;
    service.semanticTokenSteps = function* (...args) {
      for (const step of steps.apply(service, args)) {
        pulled++;
        onStep?.(pulled);
        yield step;
      }
    };
    // Uncancelled: every expression's step.
    const full = await h.client.sendRequest<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri } });
    assert.equal(pulled, rules.length);
    assert.ok(full.data.length > 100_000, `${full.data.length / 5} tokens`);
    // Cancelled by the client at the 100th expression: the server stops within a few of its looks at the token.
    pulled = 0;
    const source = new CancellationTokenSource();
    onStep = (n) => { if (n === 100) source.cancel(); };
    const r = await outcome(h.client.sendRequest('textDocument/semanticTokens/full', { textDocument: { uri } }, source.token));
    assert.equal(r, -32800);
    t.diagnostic(`stopped after ${pulled} of ${rules.length} expressions`);
    assert.ok(pulled >= 100 && pulled < rules.length / 4, `stopped after ${pulled} of ${rules.length} expressions`);
    // The next request is answered in full.
    onStep = undefined;
    pulled = 0;
    const again = await h.client.sendRequest<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri } });
    assert.deepEqual([pulled, again.data.length], [rules.length, full.data.length]);
  } finally {
    service.semanticTokenSteps = steps;
    h.close();
  }
});
