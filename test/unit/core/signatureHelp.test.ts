// Signature help: a gateway request's params (positional, so which one the caret is in matters) and a rules-language function's
// arguments inside a rule's expression string, while typing (incomplete JSON and expressions included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { signatureHelp } from '../../../server/src/core/assist';
import type { DocKind } from '../../../server/src/core';

/** Signature help at the "|" in text (the bar removed). */
function at(kind: DocKind, withBar: string) {
  const offset = withBar.indexOf('|');
  assert.ok(offset >= 0);
  const text = withBar.slice(0, offset) + withBar.slice(offset + 1);
  return signatureHelp(kind, parseDocument(text), offset);
}
const paramText = (s: NonNullable<ReturnType<typeof at>>, i = s.activeParameter) => s.label.slice(...s.parameters[i].label);

test('gateway params: the method\'s signature, the parameter the caret is in', () => {
  const s = at('jsonrpc-request', '{"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "la|test"], "id": 1}')!;
  assert.ok(s, 'signature help');
  assert.match(s.label, /^eth_getBalance\(/);
  assert.equal(s.parameters.length, 2);
  assert.equal(s.activeParameter, 1);
  assert.match(paramText(s), /^block/i);
  assert.match(paramText(s, 0), /^address/i);
  assert.ok(s.parameters[1].documentation, 'each parameter is described');
  // Right after "[" and after a comma (nothing typed yet), inside a param's object, in a batch, in an unfinished document.
  assert.equal(at('jsonrpc-request', '{"method": "eth_getBalance", "params": [|]}')!.activeParameter, 0);
  assert.equal(at('jsonrpc-request', '{"method": "eth_getBalance", "params": ["0xab", |]}')!.activeParameter, 1);
  const logs = at('jsonrpc-request', '[{"method": "eth_blockNumber", "params": []}, {"method": "eth_getLogs", "params": [{"fromBlock": "0x1", "toBlock": |}]}]')!;
  assert.match(logs.label, /^eth_getLogs\(/);
  assert.equal(logs.activeParameter, 0);
  assert.equal(at('jsonrpc-request', '{"jsonrpc": "2.0", "method": "eth_call", "params": [{"to": "0xab"}, |')!.activeParameter, 1);
});

test('gateway params: nothing outside params, for an unknown method, or on the "params" key', () => {
  assert.equal(at('jsonrpc-request', '{"method": "eth_getBalance", "id": |1, "params": []}'), undefined);
  assert.equal(at('jsonrpc-request', '{"method": "eth_nope", "params": [|]}'), undefined);
  assert.equal(at('jsonrpc-request', '{"method": "eth_getBalance", "par|ams": []}'), undefined);
});

test('rules language: the function around the caret and its argument, through JSON escapes and nested calls', () => {
  const rs = (expr: string) => `{"rules": [{"action": "block", "expression": "${expr}"}]}`;
  const s = at('waf-ruleset', rs('starts_with(http.request.uri.path, |)'))!;
  assert.ok(s);
  assert.match(s.label, /^starts_with\(/);
  assert.equal(s.activeParameter, 1);
  assert.equal(s.parameters.length, 2);
  assert.ok(s.documentation);
  // Nested: inside lower(...) within starts_with's first argument.
  const inner = at('waf-ruleset', rs('starts_with(lower(http.re|), \\"/a\\")'))!;
  assert.match(inner.label, /^lower\(/);
  assert.equal(inner.activeParameter, 0);
  // After the inner call closed, back in the outer one; a comma inside a string literal is not an argument separator.
  assert.equal(at('waf-ruleset', rs('starts_with(lower(http.host), |'))!.activeParameter, 1);
  const sub = at('waf-ruleset', rs('substring(http.host, 0, |) eq \\"a,b\\"'))!;
  assert.equal(sub.activeParameter, 2);
  assert.equal(at('waf-ruleset', rs('concat(\\"a,(\\", \\"b\\", |'))!.activeParameter, 1, 'rest parameter: the last one stays active');
  // Not in a call: a parenthesised group, after the call, outside the expression.
  assert.equal(at('waf-ruleset', rs('(http.host eq |\\"a\\")')), undefined);
  assert.equal(at('waf-ruleset', rs('lower(http.host) eq |\\"a\\"')), undefined);
  assert.equal(at('waf-ruleset', '{"rules": [{"action": "bl|ock", "expression": "lower(http.host)"}]}'), undefined);
});

// Hover and completion show a signature's label, signature help marks its parameters in it: one label, each parameter's range
// exactly its own text (an optional one's "?" included, a rest function's ", ..." not).
test('signature help marks each parameter of the label hover shows', async () => {
  const { hover } = await import('../../../server/src/core/assist');
  const gateway = '{"jsonrpc": "2.0", "method": "eth_getBalance", "params": [|], "id": 1}';
  const g = at('jsonrpc-request', gateway)!;
  assert.deepEqual(g.parameters.map((_, i) => paramText(g, i)), ['Address: address (20 bytes)', 'Block?: block number, tag or block hash']);
  const gh = hover('jsonrpc-request', parseDocument(gateway.replace('|', '')), gateway.indexOf('eth_getBalance') + 1)!;
  assert.ok(gh.markdown.includes(`\`\`\`\n${g.label}\n\`\`\``), gh.markdown);
  const rs = (expr: string) => `{"rules": [{"action": "block", "expression": "${expr}"}]}`;
  for (const [expr, params] of [
    ['substring(|', ['field: String', 'start: Integer', 'end?: Integer']],
    ['concat(|', ['String | Bytes | Array', 'String | Bytes | Array']],
  ] as const) {
    const s = at('waf-ruleset', rs(expr))!;
    assert.deepEqual(s.parameters.map((_, i) => paramText(s, i)), params);
    const text = rs(expr.replace('|', ')'));
    const h = hover('waf-ruleset', parseDocument(text), text.indexOf(expr.slice(0, 3)) + 1)!;
    assert.ok(h.markdown.startsWith(`\`${s.label}\``), h.markdown);
  }
});
