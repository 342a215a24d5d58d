// Completion, hover and lenses of the jsonrpc-request plugin. `|` marks the cursor in the test texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS } from '../../../server/src/core/types';
import { jsonrpcPlugin } from '../../../server/src/core/rules/jsonrpc';
import { requestSnippet, sendInfo } from '../../../server/src/core/rules/jsonrpc/features';
import { METHODS, SUPPORTED_METHODS, UNSUPPORTED_METHODS, UNSUPPORTED_WHY } from '../../../server/src/core/rules/jsonrpc/catalogue';

function at(textWithCursor: string) {
  const offset = textWithCursor.indexOf('|');
  const text = textWithCursor.slice(0, offset) + textWithCursor.slice(offset + 1);
  return { doc: parseDocument(text), offset, text };
}
const complete = (t: string) => { const { doc, offset } = at(t); return jsonrpcPlugin.complete!(doc, offset, DEFAULT_OPTIONS); };
const hover = (t: string) => { const { doc, offset } = at(t); return jsonrpcPlugin.hover!(doc, offset, DEFAULT_OPTIONS); };

test('method completion offers every supported method with its signature, and no unsupported one', () => {
  const items = complete('{"jsonrpc":"2.0","method":"eth_get|","id":1}');
  const labels = items.map((i) => i.label);
  assert.deepEqual([...labels].sort(), [...SUPPORTED_METHODS].sort());
  assert.ok(!labels.some((l) => UNSUPPORTED_METHODS.includes(l)));
  const bal = items.find((i) => i.label === 'eth_getBalance')!;
  assert.equal(bal.kind, 'method');
  assert.match(bal.detail!, /^eth_getBalance\(Address: /);
  assert.match(bal.documentation!, /\*\*Result\*\*/);
  assert.equal(bal.insertText, '"eth_getBalance"');
  assert.deepEqual(bal.replace, { offset: 26, length: 9 }); // the whole "eth_get" string
});

test('method completion also works in a batch item and after the colon with no value yet', () => {
  assert.equal(complete('[{"jsonrpc":"2.0","method":"|"}]').length, SUPPORTED_METHODS.length);
  const items = complete('{"jsonrpc":"2.0","method": |}');
  assert.equal(items.length, SUPPORTED_METHODS.length);
  assert.equal(items[0].replace, undefined);
});

test('param object keys: trace_filter, eth_getLogs filter and call objects, without keys already there', () => {
  const trace = complete('{"method":"trace_filter","params":[{"fromBlock":"0x1", "|"}]}').map((i) => i.label);
  assert.deepEqual(trace, ['toBlock', 'fromAddress', 'toAddress', 'after', 'count', 'mode', 'blockHash']);
  const logs = complete('{"method":"eth_getLogs","params":[{ | }]}').map((i) => i.label);
  assert.deepEqual(logs, ['fromBlock', 'toBlock', 'blockHash', 'address', 'topics']);
  const call = complete('[{"method":"eth_call","params":[{"to":"0x0000000000000000000000000000000000000000", |}]}]');
  assert.ok(call.some((i) => i.label === 'input' && i.snippet && i.insertText!.startsWith('"input": ')));
  assert.ok(!call.some((i) => i.label === 'to'));
  assert.deepEqual(complete('{"method":"eth_getBalance","params":[{ | }]}'), []);
});

test('block tags where a block goes; no "pending" in eth_getLogs ranges', () => {
  const bal = complete('{"method":"eth_getBalance","params":["0x0000000000000000000000000000000000000000", "|"]}').map((i) => i.label);
  assert.deepEqual(bal, ['"latest"', '"earliest"', '"pending"', '"safe"', '"finalized"']);
  const logs = complete('{"method":"eth_getLogs","params":[{"fromBlock": |}]}').map((i) => i.label);
  assert.deepEqual(logs, ['"latest"', '"earliest"', '"safe"', '"finalized"']);
  const trace = complete('{"method":"trace_filter","params":[{"toBlock":"|"}]}').map((i) => i.label);
  assert.ok(trace.includes('"pending"'));
  assert.deepEqual(complete('{"method":"eth_getBalance","params":["|"]}'), []);
});

test('request snippets in an empty document and in a batch item position; they validate once filled', () => {
  const empty = complete('|');
  assert.equal(empty.length, METHODS.length);
  assert.ok(empty.every((i) => i.kind === 'snippet' && i.snippet));
  assert.ok(complete('[ | ]').some((i) => i.label === 'trace_filter request'));
  assert.deepEqual(complete('{"jsonrpc": "2.0", |}').filter((i) => i.kind === 'snippet'), []);
  const snippet = requestSnippet(METHODS.find((m) => m.name === 'trace_filter')!);
  // Take each placeholder's default text: the result is a valid request.
  const filled = snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1');
  assert.deepEqual(JSON.parse(filled).method, 'trace_filter');
});

test('a request snippet added to a batch takes the next free id, so it is no duplicate of one already there', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const fill = (snippet: string) => snippet.replace(/\$\{\d+:([^}]*)\}/g, '$1');
  const cases: [string, number][] = [
    ['[\n  {"jsonrpc":"2.0","method":"eth_chainId","id":1},\n  |\n]', 2],
    ['[{"jsonrpc":"2.0","method":"eth_chainId","id":7}, {"jsonrpc":"2.0","method":"eth_chainId","id":"x"}, |]', 8],
    ['[ | ]', 1],
  ];
  for (const [t, id] of cases) {
    const item = complete(t).find((i) => i.label === 'eth_blockNumber request')!;
    const filled = fill(item.insertText!);
    assert.equal(JSON.parse(filled.replace(/,$/, '')).id, id, t);
    const { text, offset } = at(t);
    const after = text.slice(0, offset) + filled + text.slice(offset);
    assert.deepEqual(validateText(after, 'jsonrpc-request').filter((p) => p.code !== 'jsonrpc/string-id').map((p) => p.code), [], after);
  }
});

test('hover on a method: description, params, result and limits; unsupported ones say 403', () => {
  const h = hover('{"jsonrpc":"2.0","method":"eth_get|Logs","params":[{}],"id":1}')!;
  assert.equal(h.offset, 26);
  assert.match(h.markdown, /Returns the logs matching a filter/);
  assert.match(h.markdown, /\*\*Params\*\*/);
  assert.match(h.markdown, /\*\*Result\*\*/);
  assert.match(h.markdown, /800 blocks/);
  // What the method does on a node, and that the gateway refuses it; the why and what to ask instead are the diagnostic's, which
  // VS Code shows in the same hover (ui7: the hover repeated it almost word for word).
  assert.equal(hover('{"method":"eth_acc|ounts"}')!.markdown, '`eth_accounts`: the addresses a node holds private keys for.\n\nThe gateway does not support it: it refuses a request for it with HTTP 403.');
  for (const name of UNSUPPORTED_METHODS) {
    const md = hover(`{"method":"${name.slice(0, 2)}|${name.slice(2)}"}`)!.markdown;
    assert.ok(md.startsWith(`\`${name}\`: `) && md.endsWith('with HTTP 403.'), md);
    assert.ok(!md.includes(UNSUPPORTED_WHY[name]), `${name}: the hover repeats the diagnostic's why`);
  }
  assert.equal(hover('{"method":"foo|_bar"}'), undefined);
});

test('hover on param object keys and positional params', () => {
  assert.match(hover('{"method":"trace_filter","params":[{"co|unt":5}]}')!.markdown, /at most 200/);
  assert.match(hover('{"method":"eth_call","params":[{"to":"0x0000000000000000000000000000000000000000"}, "lat|est"]}')!.markdown, /\*\*Block\*\*.*\n\n[\s\S]*`latest`:/);
  assert.equal(hover('{"method":"eth_getBalance","params":["0x1", "latest", "ext|ra"]}'), undefined);
  // A tag as the value of a filter member is explained as it is in a positional param; the key itself is not.
  assert.match(hover('{"method":"eth_getLogs","params":[{"fromBlock":"fina|lized"}]}')!.markdown, /\*\*fromBlock\*\*[\s\S]*`finalized`: The most recent block accepted as final/);
  assert.match(hover('{"method":"trace_filter","params":[{"toBlock":"pen|ding"}]}')!.markdown, /`pending`:/);
  assert.doesNotMatch(hover('{"method":"eth_getLogs","params":[{"from|Block":"finalized"}]}')!.markdown, /`finalized`:/);
});

test('hover reads own names only: a member or tag named like an Object.prototype property is not documented with its function', () => {
  assert.equal(hover('{"method":"eth_call","params":[{"constr|uctor":1}]}'), undefined);
  assert.equal(hover('{"method":"eth_call","params":[{"__proto__|":1}]}'), undefined);
  const tag = hover('{"method":"eth_getBlockByNumber","params":["constr|uctor", false]}')!.markdown;
  assert.match(tag, /\*\*Block\*\*/);
  assert.doesNotMatch(tag, /native code|`constructor`/);
});

test('lenses: one per request, plus one for the batch', () => {
  const single = parseDocument('{"jsonrpc":"2.0","method":"eth_chainId","id":1}');
  assert.deepEqual(jsonrpcPlugin.lenses!(single, DEFAULT_OPTIONS).map((l) => [l.title, l.command, l.args]),
    [['Send request', 'edgekit.gateway.send', [{ index: null }]]]);
  const batch = parseDocument('[\n {"jsonrpc":"2.0","method":"eth_chainId","id":1},\n 7,\n {"jsonrpc":"2.0","method":"eth_blockNumber","id":2}\n]');
  const ls = jsonrpcPlugin.lenses!(batch, DEFAULT_OPTIONS);
  assert.deepEqual(ls.map((l) => [l.title, l.args]), [
    ['Send batch (2 requests)', [{ index: null }]], ['Send request', [{ index: 0 }]], ['Send request', [{ index: 2 }]],
  ]);
  assert.equal(ls[1].offset, 3);
  assert.deepEqual(jsonrpcPlugin.lenses!(parseDocument('42'), DEFAULT_OPTIONS), []);
});

test('the send lenses say which methods the gateway will refuse (ui7: a batch with eth_sign was sent from a lens that said nothing)', () => {
  const titles = (text: string) => jsonrpcPlugin.lenses!(parseDocument(text), DEFAULT_OPTIONS).map((l) => l.title);
  const req = (method: string, id: number) => `{"jsonrpc":"2.0","method":"${method}","params":[],"id":${id}}`;
  assert.deepEqual(titles(`[${req('eth_chainId', 1)}, ${req('eth_sign', 2)}]`),
    ['Send batch (2 requests, 1 refused: "eth_sign")', 'Send request', 'Send request (the gateway refuses "eth_sign")']);
  // A misspelt method is refused too; past two names, the count says the rest.
  assert.deepEqual(titles(`[${req('eth_sign', 1)}, ${req('eth_blockNumbr', 2)}, ${req('eth_accounts', 3)}, ${req('eth_sign', 4)}]`)[0],
    'Send batch (4 requests, 4 refused: "eth_sign", "eth_blockNumbr"…)');
  assert.deepEqual(titles(req('eth_coinbase', 1)), ['Send request (the gateway refuses "eth_coinbase")']);
});

test('a refused method is named on the send lenses as the diagnostics name it: one printable line, a long name cut (review rv11)', () => {
  // The lenses quoted the method as it is: a line break in it broke the lens title, and a request pasted into "method" made one of
  // thousands of characters, where the diagnostic's message (tidyMessage) says it in one short line.
  const titles = (text: string) => jsonrpcPlugin.lenses!(parseDocument(text), DEFAULT_OPTIONS).map((l) => l.title);
  const long = `eth_sign\n${'x'.repeat(5000)}`;
  const batch = JSON.stringify([{ jsonrpc: '2.0', method: long, params: [], id: 1 }, { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 2 }]);
  for (const title of [...titles(batch), ...titles(JSON.stringify({ jsonrpc: '2.0', method: long, params: [], id: 1 }))]) {
    assert.ok(!/[\u0000-\u001f]/.test(title) && title.length < 200, JSON.stringify(title.slice(0, 300)));
  }
  assert.match(titles(batch)[0], /^Send batch \(2 requests, 1 refused: "eth_sign\\u000axxx+…"\)$/);
});

// ui7's walk: a batch of three with a syntax error in its second member said "Send batch (2 requests)": jsonc-parser's tolerant
// reading had lost the third (eth_sign) in the error. A document with a syntax error cannot be sent as it is (the gateway refuses
// the whole body, and a lens over one member sends nothing until the document parses): one lens says so, and where.
test('the send lens of a document with a syntax error says it cannot be sent and on which line, not a count of what parsed', () => {
  const lenses = (text: string) => jsonrpcPlugin.lenses!(parseDocument(text), DEFAULT_OPTIONS).map((l) => [l.title, l.command, l.offset]);
  const batch = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber"},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": [}\n'
    + '  {"jsonrpc": "2.0", "id": 3, "method": "eth_sign", "params": []}\n]';
  // (The "]" left out before "}", and the comma after it: two.) A click goes to the error (the VS Code client's command; other
  // clients show the sentence as text: test/unit/lsp/clientCaps).
  assert.deepEqual(lenses(batch), [['Cannot send: 2 syntax errors, the first on line 3', 'edgekit.gateway.showSyntaxError', 0]]);
  assert.deepEqual(lenses(batch.replace('[}\n', '[},\n')), [['Cannot send: syntax error on line 3', 'edgekit.gateway.showSyntaxError', 0]]);
  // Two errors: the first's line, and how many there are.
  assert.deepEqual(lenses('{"jsonrpc": "2.0",\n "id": 1,\n "method": "eth_chainId", params: [],\n}'), [['Cannot send: 2 syntax errors, the first on line 3', 'edgekit.gateway.showSyntaxError', 0]]);
  // An empty document says what goes in it through its own problem (with a fix that writes a request): no lens.
  assert.deepEqual(lenses(''), []);
  assert.deepEqual(lenses('  \n'), []);
  // What Send Request says (ui9): the same sentence and where the first error is; nothing of the kind for an empty document, whose
  // own problem ("The document is empty; expected a request object ...") is its question.
  assert.deepEqual(sendInfo(parseDocument(batch)).cannotSend, { title: 'Cannot send: 2 syntax errors, the first on line 3', offset: batch.indexOf('}\n  {"jsonrpc": "2.0", "id": 3'), length: 1, message: sendInfo(parseDocument(batch)).cannotSend!.message });
  assert.deepEqual(sendInfo(parseDocument('  \n')), { refused: [] });
});

test('a boolean param (eth_getBlockByNumber\'s "full transactions") completes true and false', () => {
  // It offered nothing there, while the block tag before it completed.
  const labels = complete('{"jsonrpc":"2.0","method":"eth_getBlockByNumber","params":["latest", |],"id":1}').map((i) => i.label);
  assert.deepEqual(labels, ['true', 'false']);
  const replaced = complete('{"jsonrpc":"2.0","method":"eth_getBlockByHash","params":["0x' + '0'.repeat(64) + '", tr|ue],"id":1}');
  assert.deepEqual(replaced.map((i) => i.label), ['true', 'false']);
  const { text } = at('{"jsonrpc":"2.0","method":"eth_getBlockByHash","params":["0x' + '0'.repeat(64) + '", tr|ue],"id":1}');
  assert.equal(text.slice(replaced[0].replace!.offset, replaced[0].replace!.offset + replaced[0].replace!.length), 'true');
});

test('no hover between the members of a param object or the items of params (only on a token or a bracket)', () => {
  // Whitespace and commas inside the trace_filter object showed the param's description over the whole object.
  const text = '{"jsonrpc":"2.0","method":"trace_filter","params":[ {"fromBlock": "0x1",  "count": 5} ],"id":1}';
  const doc = parseDocument(text);
  const h = (i: number) => jsonrpcPlugin.hover!(doc, i, DEFAULT_OPTIONS);
  assert.equal(h(text.indexOf(',  "count"') + 2), undefined, 'between members');
  assert.equal(h(text.indexOf('[ {') + 1), undefined, 'inside params before the object');
  assert.ok(h(text.indexOf('{"fromBlock"')), 'on the opening brace: the param');
  assert.ok(h(text.indexOf('"count"') + 1), 'on a key');
});

test('hover on a call\'s data with a known selector: the function, its interface and each argument decoded', () => {
  const data = `0xa9059cbb000000000000000000000000${'ab'.repeat(20)}${(1_500_000).toString(16).padStart(64, '0')}`;
  const h = hover(`{"method":"eth_call","params":[{"to":"0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48","data":"0xa9|${data.slice(4)}"},"latest"]}`)!;
  assert.match(h.markdown, /^\*\*data\*\*/);
  assert.match(h.markdown, /\*\*transfer\(address,uint256\)\*\* \(ERC-20\), selector `0xa9059cbb`/);
  assert.match(h.markdown, /- `to` \(address\): 0x(ab){20}\n- `amount` \(uint256\): 1,500,000 \(0x16e360\)/);
  assert.doesNotMatch(hover('{"method":"eth_call","params":[{"da|ta":"0xa9059cbb"},"latest"]}')!.markdown, /transfer/, 'not on the key');
  assert.doesNotMatch(hover('{"method":"eth_call","params":[{"data":"0xdead|beef"},"latest"]}')!.markdown, /selector/);
});

test('hover on a Multicall3 aggregate3 call: each call of the array, its callData\'s function named; a wrong offset said on its argument', () => {
  const w = (n: number) => n.toString(16).padStart(64, '0');
  // calls: offset 32; 1 item; its offset 32 (from the items' start); the tuple: target, allowFailure, callData's offset 96; 4 bytes.
  const item = `${'0'.repeat(24)}${'cd'.repeat(20)}${w(1)}${w(96)}${w(4)}18160ddd${'0'.repeat(56)}`;
  const data = `0x82ad56cb${w(32)}${w(1)}${w(32)}${item}`;
  const h = hover(`{"method":"eth_call","params":[{"to":"0xca11bde05977b3631167028862be2a173976ca11","data":"0x82|${data.slice(4)}"},"latest"]}`)!;
  assert.match(h.markdown, /- `calls` \(\(address,bool,bytes\)\[\]\): 1 item\n {2}- \[0\] \(target: 0x(cd){20}, allowFailure: true, callData: 0x18160ddd \(4 bytes: totalSupply\(\)\)\)/);
  const bad = data.replace(`${w(32)}${w(1)}`, `${w(4096)}${w(1)}`);
  const b = hover(`{"method":"eth_call","params":[{"data":"0x82|${bad.slice(4)}"},"latest"]}`)!;
  assert.match(b.markdown, /- `calls` \(\(address,bool,bytes\)\[\]\): _the offset of "calls", 4096, points past the end of the arguments \(256 bytes\); the contract reverts when it decodes it_/);
});

test('only a request\'s params have param types: no true/false in another member\'s array, no hover or completion inside an array param', () => {
  assert.deepEqual(complete('{"method":"eth_getBlockByNumber","params":["latest", |]}').map((i) => i.label), ['true', 'false']);
  assert.deepEqual(complete('{"method":"eth_getBlockByNumber","foo":["latest", |]}'), []);
  // eth_feeHistory's rewardPercentiles is an array of numbers: its items are no object members (and nothing to look up).
  assert.equal(hover('{"method":"eth_feeHistory","params":["0x4","latest",[2|5]]}'), undefined);
  assert.deepEqual(complete('{"method":"eth_feeHistory","params":["0x4","latest",[|]]}'), []);
});

test('snippets: an address param gets the zero address, an integer member a bare number, a tag member a quoted one', () => {
  assert.match(requestSnippet(METHODS.find((m) => m.name === 'eth_getBalance')!, 1), /"params": \["\$\{1:0x0{40}\}"\],/);
  const keys = new Map(complete('{"method":"trace_filter","params":[{"|"}]}').map((i) => [i.label, i.insertText]));
  assert.equal(keys.get('count'), '"count": ${1:100}');
  assert.equal(keys.get('after'), '"after": ${1:0}');
  assert.equal(keys.get('toBlock'), '"toBlock": "${1:latest}"');
  assert.equal(keys.get('fromAddress'), '"fromAddress": [$1]');
});

test('signature help: none for a method the catalogue does not know, the signature for one it knows', () => {
  const sig = (t: string) => { const { doc, offset } = at(t); return jsonrpcPlugin.signatureHelp!(doc, offset, DEFAULT_OPTIONS); };
  assert.equal(sig('{"method":"eth_nope","params":[|]}'), undefined);
  assert.equal(sig('{"method":"eth_nope","params":["0x1",|]}'), undefined);
  assert.equal(sig('{"params":["0x1", |]}'), undefined);
  assert.equal(sig('{"method":"eth_getBalance","foo":["0x1",|]}'), undefined, 'only in params');
  const known = sig('{"method":"eth_getBalance","params":["0x1",|]}')!;
  assert.match(known.label, /^eth_getBalance\(Address: /);
  assert.equal(known.activeParameter, 1);
});

test('inlay hints: positional param names, hex numbers in decimal, only for the nodes the range touches (its ends included)', () => {
  const hints = (text: string, offset: number, length: number) => jsonrpcPlugin.inlayHints!(parseDocument(text), { offset, length }, DEFAULT_OPTIONS)
    .map((h) => `${h.offset}:${h.label}`);
  const bal = '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0x0000000000000000000000000000000000000000","0x10"],"id":1}';
  const addr = bal.indexOf('"0x00'), block = bal.indexOf('"0x10"');
  assert.deepEqual(hints(bal, 0, bal.length), [`${addr}:Address:`, `${block}:Block:`, `${block + 6}:= 16`]);
  const logs = '{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x10","toBlock":"0x1f"}],"id":1}';
  const to = logs.indexOf('"0x1f"');
  assert.deepEqual(hints(logs, 0, logs.length), [`${logs.indexOf('"0x10"') + 6}:= 16`, `${to + 6}:= 31`]);
  assert.deepEqual(hints(logs, to - 3, 3), [`${to + 6}:= 31`], 'a range that ends where the value starts touches it');
  assert.deepEqual(hints(logs, to + 6, 0), [`${to + 6}:= 31`], 'a range that starts where the value ends touches it');
  // A call object's data with a known selector: the function's signature after it.
  const call = '{"jsonrpc":"2.0","method":"eth_call","params":[{"to":"0x0000000000000000000000000000000000000001","data":"0x95d89b41"},"latest"],"id":1}';
  const data = call.indexOf('"0x95d89b41"');
  assert.deepEqual(hints(call, 0, call.length), [`${call.indexOf('{"to"')}:Transaction:`, `${data + 12}:symbol()`, `${data + 14}:Block:`]);
});

test('trace_filter\'s fromBlock and toBlock say their defaults (genesis, "latest"); the completed fromBlock is not the genesis block', () => {
  assert.match(hover('{"jsonrpc":"2.0","method":"trace_filter","params":[{"from|Block":"0x1"}],"id":1}')!.markdown, /default 0, the genesis block/);
  assert.match(hover('{"jsonrpc":"2.0","method":"trace_filter","params":[{"to|Block":"0x1"}],"id":1}')!.markdown, /default "latest"/);
  const from = complete('{"jsonrpc":"2.0","method":"trace_filter","params":[{"|"}],"id":1}').find((i) => i.label === 'fromBlock')!;
  assert.ok(!/0x0/.test(from.insertText ?? ''), from.insertText);
});
