// Inlay hints: a gateway request's positional params named (methods with two or more), hex quantities and block numbers with their
// decimal value, managed ruleset ids in a skip rule with their names; only inside the range asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { inlayHints } from '../../../server/src/core/assist';
import type { DocKind } from '../../../server/src/core';

const hints = (kind: DocKind, text: string, range = { offset: 0, length: text.length }) =>
  inlayHints(kind, parseDocument(text), range).map((h) => ({ at: text.slice(h.offset, h.offset + 12), label: h.label, kind: h.kind }));

test('gateway: param names before each positional param; decimal values after hex quantities and block numbers', () => {
  const text = '{"jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["0x1312d00", true], "id": 1}';
  assert.deepEqual(hints('jsonrpc-request', text), [
    { at: '"0x1312d00",', label: 'Block:', kind: 'parameter' },
    { at: ', true], "id', label: '= 20,000,000', kind: 'type' },
    { at: 'true], "id":', label: 'Hydrated transactions:', kind: 'parameter' },
  ]);
});

test('gateway: members of a param object (a log filter\'s block range), tags and small numbers without a hint, one-param methods unnamed', () => {
  const text = '{"method": "eth_getLogs", "params": [{"fromBlock": "0xf00", "toBlock": "latest", "address": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"}]}';
  assert.deepEqual(hints('jsonrpc-request', text).map((h) => h.label), ['= 3,840']);
  const fee = '{"method": "eth_feeHistory", "params": ["0x4", "0x1312d00", [25, 75]]}';
  assert.deepEqual(hints('jsonrpc-request', fee).map((h) => h.label), ['blockCount:', 'newestBlock:', '= 20,000,000', 'rewardPercentiles:']);
  // A block hash is not a number; a quantity past 2^53 is shown exactly.
  const big = '{"method": "eth_getBalance", "params": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "0x88e7e1c8c4d8bc1c4a5b6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f70"]}';
  assert.deepEqual(hints('jsonrpc-request', big).map((h) => h.label), ['Address:', 'Block:']);
  const wei = '{"method": "eth_call", "params": [{"to": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "value": "0xde0b6b3a7640000"}, "latest"]}';
  assert.ok(hints('jsonrpc-request', wei).some((h) => h.label === '= 1,000,000,000,000,000,000'), JSON.stringify(hints('jsonrpc-request', wei)));
});

test('gateway: a batch gives hints only for the requests inside the range', () => {
  const reqs = Array.from({ length: 50 }, (_, i) => `{"jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["0x${(1000 + i).toString(16)}", false], "id": ${i}}`);
  const text = `[\n${reqs.join(',\n')}\n]`;
  const start = text.indexOf('"id": 10}');
  const end = text.indexOf('"id": 12}');
  const got = hints('jsonrpc-request', text, { offset: start, length: end - start });
  // Requests 11 and 12 (the range starts inside request 10, after its params).
  assert.deepEqual(got.filter((h) => h.kind === 'type').map((h) => h.label), ['= 1,011', '= 1,012']);
  assert.equal(hints('jsonrpc-request', text).filter((h) => h.kind === 'parameter').length, 100);
});

test('ruleset: a skip rule\'s managed ruleset ids named after the id; unknown ids, and execute ids (the lens names them), get nothing', () => {
  const text = JSON.stringify({ rules: [
    { action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
    { action: 'skip', expression: 'true', action_parameters: { rulesets: ['4814384a9e5d4991b9815dcfc25d2f1f', 'efb7b8c949ac4650a09736fc376e9aee', 'nope'] } },
    { action: 'execute', expression: 'true', action_parameters: { id: '00000000000000000000000000000000' } },
  ] });
  const got = hints('waf-ruleset', text);
  assert.deepEqual(got.map((h) => h.label), ['Cloudflare OWASP Core Ruleset', 'Cloudflare Managed Ruleset']);
  assert.ok(got.every((h) => h.at.startsWith(',') || h.at.startsWith('}') || h.at.startsWith(']')), JSON.stringify(got));
});

test('a member written twice: the hints follow the last one, as JSON.parse, the gateway, hover and signature help do', () => {
  const text = '{"jsonrpc": "2.0", "method": "eth_getBalance", "method": "eth_getBlockByNumber", "params": ["0x10", true], "id": 1}';
  assert.deepEqual(hints('jsonrpc-request', text).map((h) => h.label), ['Block:', '= 16', 'Hydrated transactions:']);
  const params = '{"jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["0x1", false], "params": ["0x20", true], "id": 1}';
  assert.deepEqual(hints('jsonrpc-request', params).filter((h) => h.kind === 'type').map((h) => h.label), ['= 32']);
  const skip = (first: string, last: string) => JSON.stringify({ rules: [{ action: 'skip', expression: 'true',
    action_parameters: { rulesets: [first] } }] }).replace(/"rulesets":\["[^"]*"\]/, `"rulesets": ["${first}"], "rulesets": ["${last}"]`);
  const h = hints('waf-ruleset', skip('not-a-ruleset', 'efb7b8c949ac4650a09736fc376e9aee'));
  assert.deepEqual(h.map((x) => x.label), ['Cloudflare Managed Ruleset']);
});

test('gateway: a call\'s data with a known selector gets the function it calls; other data and selectors none', () => {
  const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
  const data = `0x70a08231000000000000000000000000${'ab'.repeat(20)}`;
  const text = `{"method": "eth_call", "params": [{"to": "${usdc}", "data": "${data}"}, "latest"]}`;
  const got = hints('jsonrpc-request', text);
  assert.deepEqual(got.filter((h) => h.label === 'balanceOf(address)').map((h) => h.at), ['}, "latest"]']);
  const input = hints('jsonrpc-request', `{"method": "eth_estimateGas", "params": [{"to": "${usdc}", "input": "0xa9059cbb"}]}`);
  assert.ok(input.some((h) => h.label === 'transfer(address,uint256)'), JSON.stringify(input));
  assert.ok(!hints('jsonrpc-request', `{"method": "eth_call", "params": [{"to": "${usdc}", "data": "0xdeadbeef"}, "latest"]}`).some((h) => h.label.includes('(')));
});
