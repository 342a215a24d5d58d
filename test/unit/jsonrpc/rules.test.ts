// The jsonrpc rules through validateText: codes, severities, ranges, related information and quick fixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { codeInfo } from '../../../server/src/core/codes';
import { JSONRPC_CODES } from '../../../server/src/core/rules/jsonrpc/codes';
import type { Fix, Problem } from '../../../server/src/core/types';

const check = (text: string) => validateText(text, 'jsonrpc-request');
const only = (text: string, code: string): Problem => {
  const ps = check(text).filter((p) => p.code === code);
  assert.equal(ps.length, 1, `expected one ${code} in ${JSON.stringify(check(text).map((p) => p.code))}`);
  return ps[0];
};
const at = (text: string, p: Problem) => text.slice(p.offset, p.offset + p.length);
function apply(text: string, fix: Fix): string {
  let out = text;
  for (const e of [...fix.edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  return out;
}

test('a valid request and a valid batch have no problems', () => {
  assert.deepEqual(check('{"jsonrpc":"2.0","method":"eth_getBalance","params":["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae","latest"],"id":1}'), []);
  assert.deepEqual(check('[{"jsonrpc":"2.0","method":"eth_blockNumber","id":1},{"jsonrpc":"2.0","method":"eth_chainId","params":[],"id":2}]'), []);
});

test('missing "jsonrpc": error at the {, fix inserts it in the object layout', () => {
  const text = '{\n  "method": "eth_blockNumber",\n  "id": 1\n}';
  const p = only(text, 'jsonrpc/missing-version');
  assert.equal(p.severity, 'error');
  assert.equal(at(text, p), '{');
  const fixed = apply(text, p.fixes![0]);
  assert.equal(fixed, '{\n  "jsonrpc": "2.0",\n  "method": "eth_blockNumber",\n  "id": 1\n}');
  assert.deepEqual(check(fixed), []);
});

test('missing "jsonrpc" on one line and in an empty object', () => {
  const text = '[{ "method": "eth_chainId", "id": 1 }, {}]';
  const ps = check(text).filter((p) => p.code === 'jsonrpc/missing-version');
  assert.equal(ps.length, 2);
  assert.equal(apply(text, ps[0].fixes![0]), '[{ "jsonrpc": "2.0", "method": "eth_chainId", "id": 1 }, {}]');
  assert.equal(apply(text, ps[1].fixes![0]), '[{ "method": "eth_chainId", "id": 1 }, {"jsonrpc": "2.0"}]');
});

test('wrong version: error on the value, fix replaces it', () => {
  const text = '{"jsonrpc":"1.0","method":"eth_chainId","id":1}';
  const p = only(text, 'jsonrpc/wrong-version');
  assert.equal(at(text, p), '"1.0"');
  assert.deepEqual(check(apply(text, p.fixes![0])), []);
});

test('a version written as a number (or null) is one wrong-version problem with the same fix, not two schema errors', () => {
  for (const v of ['2.0', '2', 'null']) {
    const text = `{"jsonrpc":${v},"method":"eth_chainId","id":1}`;
    const ps = check(text);
    assert.deepEqual(ps.map((p) => p.code), ['jsonrpc/wrong-version'], v);
    assert.equal(at(text, ps[0]), v);
    assert.deepEqual(check(apply(text, ps[0].fixes![0])), []);
  }
});

test('a missing method is an error; a missing id (a notification) and a string id are warnings, the latter with an integer fix when numeric', () => {
  assert.equal(only('{"jsonrpc":"2.0","id":1}', 'jsonrpc/missing-method').severity, 'error');
  // JSON-RPC 2.0 section 4.1: a request without "id" is a valid notification; the server sends no response (not even an error).
  // An error would have the send command warn that "the gateway will probably refuse it", which it does not.
  for (const text of ['{"jsonrpc":"2.0","method":"eth_chainId"}', '[{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_blockNumber","id":1}]']) {
    const p = only(text, 'jsonrpc/missing-id');
    assert.equal(p.severity, 'warning');
    assert.match(p.message, /notification/);
    assert.ok(!check(text).some((x) => x.severity === 'error'), text);
  }
  const text = '{"jsonrpc":"2.0","method":"eth_chainId","id":"7"}';
  const p = only(text, 'jsonrpc/string-id');
  assert.equal(p.severity, 'warning');
  assert.equal(at(text, p), '"7"');
  assert.deepEqual(check(apply(text, p.fixes![0])), []);
  assert.equal(only('{"jsonrpc":"2.0","method":"eth_chainId","id":"abc"}', 'jsonrpc/string-id').fixes, undefined);
});

test('"id": null is a warning, not a schema error: JSON-RPC 2.0 allows it (section 4: String, Number or NULL; "SHOULD NOT" be null)', () => {
  // The node answers it (with "id": null, as it does an error whose request id it could not read), so the request is not refused.
  for (const text of ['{"jsonrpc":"2.0","method":"eth_chainId","id":null}', '[{"jsonrpc":"2.0","method":"eth_chainId","id":null}]']) {
    const ps = check(text);
    assert.deepEqual(ps.map((p) => `${p.code} ${p.severity}`), ['jsonrpc/null-id warning'], text);
    assert.equal(at(text, ps[0]), 'null');
  }
  // Not a JSON-RPC id at all: still an error.
  for (const id of ['true', '{}', '[1]']) {
    assert.ok(check(`{"jsonrpc":"2.0","method":"eth_chainId","id":${id}}`).some((p) => p.severity === 'error'), id);
  }
});

test('no absence reports after a syntax error', () => {
  const codes = check('{"method": "eth_chainId" "id": 1').map((p) => p.code);
  assert.ok(codes.includes('syntax/invalid-json'));
  assert.ok(!codes.includes('jsonrpc/missing-version'));
});

test('duplicate ids in a batch point at the first use', () => {
  const text = '[{"jsonrpc":"2.0","method":"eth_chainId","id":5},{"jsonrpc":"2.0","method":"eth_chainId","id":5}]';
  const p = only(text, 'jsonrpc/duplicate-id');
  assert.equal(p.offset, text.lastIndexOf('5'));
  assert.equal(p.related?.length, 1);
  assert.equal(p.related![0].offset, text.indexOf('5'));
});

test('duplicate string ids are found among increasing number ids; 1 and "1" are different ids', () => {
  // A mutation sample found string ids held by no test: the batch below skips the map of numbers (they increase) but not strings.
  const req = (id: unknown) => `{"jsonrpc":"2.0","method":"eth_chainId","id":${JSON.stringify(id)}}`;
  const text = `[${[1, 'a', 2, 'a', '1'].map(req).join(',')}]`;
  const p = only(text, 'jsonrpc/duplicate-id');
  assert.equal(p.offset, text.lastIndexOf('"a"'));
  assert.equal(p.related![0].offset, text.indexOf('"a"'));
  assert.match(p.message, /The id "a" is already used by request 1/);
});

test('unsupported method: error naming HTTP 403, why and what to do instead, no fix', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_sign","params":[],"id":1}';
  const p = only(text, 'jsonrpc/unsupported-method');
  assert.equal(p.severity, 'error');
  assert.equal(at(text, p), '"eth_sign"');
  assert.match(p.message, /403/);
  // ui7's walk: "does not support eth_sign" and nothing else; the newcomer did not know where signing happens instead.
  assert.match(p.message, /HTTP 403\. It holds no private keys: sign in your wallet or client/);
  assert.equal(p.fixes, undefined);
});

test('eth_newFilter: a fix asks eth_getLogs with the same filter, offered but not applied by Fix all (it changes what is asked)', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_newFilter","params":[{"fromBlock":"0x1","toBlock":"0x2"}],"id":1}';
  const p = only(text, 'jsonrpc/unsupported-method');
  assert.match(p.message, /keeps no filter between requests: ask "eth_getLogs"/);
  assert.equal(p.fixes?.length, 1);
  assert.equal(p.fixes![0].title, 'Ask "eth_getLogs" for the logs the filter matches now');
  assert.notEqual(p.fixes![0].preferred, true);
  assert.deepEqual(check(apply(text, p.fixes![0])), []);
});

test('unknown method: nearest names, one fix per suggestion, the first preferred', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_getBlockByNumbr","params":["latest",false],"id":1}';
  const p = only(text, 'jsonrpc/unknown-method');
  assert.ok(p.fixes!.length >= 1);
  assert.equal(p.fixes![0].preferred, true);
  assert.equal(p.fixes![0].title, 'Change to "eth_getBlockByNumber"');
  assert.deepEqual(check(apply(text, p.fixes![0])), []);
});

test('param issues are located under params, keys on the key node, with fixes from replacements', () => {
  const text = '{"jsonrpc":"2.0","method":"trace_filter","params":[{"fromBlock":"0x0010","toBlock":"0x20","countt":5}],"id":1}';
  const q = only(text, 'jsonrpc/invalid-quantity');
  assert.equal(at(text, q), '"0x0010"');
  const k = only(text, 'jsonrpc/unknown-key');
  assert.equal(at(text, k), '"countt"');
  assert.equal(k.fixes![0].title, 'Rename to "count"');
  assert.deepEqual(check(apply(apply(text, k.fixes![0]), q.fixes![0])), []);
});

test('missing params are reported at the request, params-not-array at the value', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_getCode","id":1}';
  assert.equal(at(text, only(text, 'jsonrpc/missing-param')), '{');
  const t2 = '{"jsonrpc":"2.0","method":"eth_getCode","params":{"a":1},"id":1}';
  assert.equal(at(t2, only(t2, 'jsonrpc/params-not-array')), '{"a":1}');
});

test('limits are errors on numbers; tag ranges get an information note', () => {
  const over = '{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"0x400"}],"id":1}';
  const p = only(over, 'jsonrpc/block-range-too-large');
  assert.equal(p.severity, 'error');
  assert.equal(at(over, p), '"0x400"');
  const tags = '{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"latest"}],"id":1}';
  const n = only(tags, 'jsonrpc/range-checked-at-runtime');
  assert.equal(n.severity, 'information');
  assert.equal(at(tags, n), '"latest"');
  assert.equal(only('{"jsonrpc":"2.0","method":"eth_feeHistory","params":["0x14","latest",[]],"id":1}', 'jsonrpc/block-count-too-large').severity, 'error');
  assert.equal(only('{"jsonrpc":"2.0","method":"trace_filter","params":[{"count":500}],"id":1}', 'jsonrpc/trace-count-too-large').severity, 'error');
});

test('every jsonrpc code is registered with a description, and the codes follow area/kebab-name', () => {
  for (const [code, info] of Object.entries(JSONRPC_CODES)) {
    assert.match(code, /^jsonrpc\/[a-z]+(-[a-z]+)*$/);
    assert.ok(info.description.length > 10);
    assert.equal(codeInfo(code), info);
  }
});

test('call data with a known selector but too short for its arguments: a warning on the data naming the function and what is missing', () => {
  const to = '"to": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"';
  const addr = `000000000000000000000000${'ab'.repeat(20)}`;
  const short = check(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{${to}, "data": "0xa9059cbb${addr}"}, "latest"]}`);
  const p = short.find((x) => x.code === 'jsonrpc/call-data-short')!;
  assert.ok(p, JSON.stringify(short));
  assert.equal(p.severity, 'warning');
  assert.equal(p.message, 'params[0].data calls transfer(address,uint256) (ERC-20) but is 32 bytes short of its arguments ("amount" missing or cut); the contract reverts when it decodes them.');
  const text = `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{${to}, "data": "0xa9059cbb${addr}"}, "latest"]}`;
  assert.equal(text.slice(p.offset, p.offset + p.length), `"0xa9059cbb${addr}"`);
  // Whole: nothing; an unknown selector: nothing; eth_estimateGas's "input" too; a batch, the same per request.
  assert.deepEqual(check(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{${to}, "data": "0xa9059cbb${addr}${'0'.repeat(64)}"}, "latest"]}`), []);
  assert.deepEqual(check(`{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{${to}, "data": "0xdeadbeef"}, "latest"]}`), []);
  assert.ok(check(`{"jsonrpc":"2.0","id":1,"method":"eth_estimateGas","params":[{${to}, "input": "0x70a08231"}]}`).some((x) => x.code === 'jsonrpc/call-data-short'));
});

test('call data of a known function whose dynamic argument\'s offset or length is wrong: a warning naming it, on its word in the hex', () => {
  const to = '"to": "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48"';
  const w = (n: number) => n.toString(16).padStart(64, '0');
  // isValidSignature(bytes32 hash, bytes signature): the hash, the offset (64), the length (2), the content padded.
  const good = `0x1626ba7e${'11'.repeat(32)}${w(64)}${w(2)}1234${'0'.repeat(60)}`;
  const req = (data: string, key = 'data') => `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{${to}, "${key}": "${data}"}, "latest"]}`;
  assert.deepEqual(check(req(good)), []);
  const past = req(`0x1626ba7e${'11'.repeat(32)}${w(4096)}${w(2)}1234${'0'.repeat(60)}`);
  const p = only(past, 'jsonrpc/call-data-bad-offset');
  assert.equal(p.severity, 'warning');
  assert.equal(p.message, 'params[0].data calls isValidSignature(bytes32,bytes) (ERC-1271): the offset of "signature", 4096, points past the end of the arguments (128 bytes); the contract reverts when it decodes it.');
  assert.equal(at(past, p), w(4096), 'the offset word');
  const long = req(`0x1626ba7e${'11'.repeat(32)}${w(64)}${w(40)}1234${'0'.repeat(60)}`, 'input');
  const l = only(long, 'jsonrpc/call-data-bad-offset');
  assert.equal(l.message, 'params[0].input calls isValidSignature(bytes32,bytes) (ERC-1271): the length of "signature", 40 bytes, runs past the end of the arguments: its content would end at byte 136 of 128; the contract reverts when it decodes it.');
  assert.equal(at(long, l), w(40), 'the length word');
  const odd = req(`0x1626ba7e${'11'.repeat(32)}${w(65)}${w(2)}1234${'0'.repeat(60)}`);
  assert.match(only(odd, 'jsonrpc/call-data-bad-offset').message, /: the offset of "signature", 65, is not a multiple of 32: an ABI encoder never writes one, so what is read from there is likely not what was meant\.$/);
  // Short data is call-data-short's alone; digits that are not hex are invalid-data's; an escape in the JSON string puts the warning on the whole string (its digits are not where they seem).
  assert.deepEqual(check(req(`0x1626ba7e${'11'.repeat(32)}`)).map((x) => x.code), ['jsonrpc/call-data-short']);
  assert.deepEqual(check(req(`0x1626ba7e${'11'.repeat(32)}${w(64)}${'zz'.repeat(32)}`)).map((x) => x.code), ['jsonrpc/invalid-data']);
  const escaped = past.replace('"0x1626ba7e', '"\\u0030x1626ba7e');
  const e = at(escaped, only(escaped, 'jsonrpc/call-data-bad-offset'));
  assert.equal(e, `"\\u0030${(JSON.parse(escaped) as { params: { data: string }[] }).params[0].data.slice(1)}"`);
});

test('the mock gateway takes a call whose data is short for its function (the platform passes it on; the contract reverts)', async () => {
  const { checkParamValues } = await import('../../../server/src/core/rules/jsonrpc/params');
  assert.deepEqual(checkParamValues('eth_call', [{ to: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', data: '0xa9059cbb' }, 'latest']), []);
});

test('"data" and "input" that differ only in letter case are the same bytes (go-ethereum compares the bytes): no conflict, and the mock gateway takes them', async () => {
  const { checkParamValues } = await import('../../../server/src/core/rules/jsonrpc/params');
  const to = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
  const data = `0x70a08231${'0'.repeat(24)}${'ab'.repeat(20)}`;
  assert.deepEqual(checkParamValues('eth_call', [{ to, data, input: data.toUpperCase().replace(/^0X/, '0x') }, 'latest']), []);
  const differing = checkParamValues('eth_call', [{ to, data, input: '0x18160ddd' }, 'latest']);
  assert.deepEqual(differing.map((i) => i.code), ['jsonrpc/conflicting-keys']);
});

test('an integer id past 2^53: a warning quoting its digits (JSON.parse reads it rounded), with a fix that writes it as a string', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_blockNumber","id":12345678901234567891}';
  const p = only(text, 'jsonrpc/inexact-id');
  assert.equal(p.severity, 'warning');
  assert.equal(at(text, p), '12345678901234567891');
  assert.match(p.message, /12345678901234567891/);
  assert.match(p.message, /12345678901234567000/, 'names the value a double-based reader sees');
  assert.deepEqual(p.fixes?.map((f) => apply(text, f)), ['{"jsonrpc":"2.0","method":"eth_blockNumber","id":"12345678901234567891"}']);
  // Exact as a double (2^53, 2^60), or within it, or not an integer text: nothing to say.
  for (const id of ['9007199254740991', '9007199254740992', '1152921504606846976', '1e20', '-42']) {
    assert.deepEqual(check(`{"jsonrpc":"2.0","method":"eth_blockNumber","id":${id}}`).map((x) => x.code), [], id);
  }
  // In a batch, each one.
  const batch = `[${text},{"jsonrpc":"2.0","method":"eth_chainId","id":-98765432109876543210}]`;
  assert.deepEqual(check(batch).filter((x) => x.code === 'jsonrpc/inexact-id').map((x) => at(batch, x)), ['12345678901234567891', '-98765432109876543210']);
});

test('a number past 2^53 where a QUANTITY goes: the message quotes its digits and the fix is its exact hex', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0x0000000000000000000000000000000000000000",12345678901234567891],"id":1}';
  const p = only(text, 'jsonrpc/invalid-quantity');
  assert.equal(at(text, p), '12345678901234567891');
  assert.match(p.message, /not the number 12345678901234567891\./);
  assert.deepEqual(p.fixes?.map((f) => apply(text, f)), [text.replace('12345678901234567891', '"0xab54a98ceb1f0ad3"')]);
  assert.equal(BigInt('0xab54a98ceb1f0ad3'), 12345678901234567891n);
  const tx = '{"jsonrpc":"2.0","method":"eth_getTransactionCount","params":["0x0000000000000000000000000000000000000000","latest"],"id":1}';
  assert.deepEqual(check(tx), []);
  const big = '{"jsonrpc":"2.0","method":"eth_getBlockByNumber","params":[98765432109876543210,false],"id":1}';
  const q = only(big, 'jsonrpc/invalid-quantity');
  assert.match(q.message, /98765432109876543210/);
  assert.deepEqual(q.fixes?.map((f) => apply(big, f)), [big.replace('98765432109876543210', `"0x${(98765432109876543210n).toString(16)}"`)]);
});

test('ids past 2^53 are told apart, and quoted, by their digits: two that JSON.parse reads as one double are no duplicates', () => {
  const req = (id: string) => `{"jsonrpc":"2.0","method":"eth_blockNumber","id":${id}}`;
  const two = `[${req('12345678901234567891')},${req('12345678901234567892')}]`;
  assert.deepEqual(check(two).map((p) => p.code), ['jsonrpc/inexact-id', 'jsonrpc/inexact-id']);
  const same = `[${req('12345678901234567891')},${req('12345678901234567891')}]`;
  const d = only(same, 'jsonrpc/duplicate-id');
  assert.equal(d.message, 'The id 12345678901234567891 is already used by request 0; responses are matched by id.');
  const first = d.related![0];
  assert.equal(same.slice(first.offset, first.offset + first.length), '12345678901234567891');
});

test('unknown method that differs from a supported one in case only: that one alone, so Fix all applies it', () => {
  for (const [typed, meant] of [['eth_getblockbynumber', 'eth_getBlockByNumber'], ['eth_blocknumber', 'eth_blockNumber'], ['ETH_CHAINID', 'eth_chainId']]) {
    const text = `{"jsonrpc":"2.0","method":"${typed}","id":1}`;
    const p = only(text, 'jsonrpc/unknown-method');
    assert.deepEqual(p.fixes!.map((f) => [f.title, f.preferred]), [[`Change to "${meant}"`, true]], typed);
    assert.match(p.message, new RegExp(`did you mean "${meant}"\\?`), typed);
  }
});

test('params given as the object itself, for a method whose first param is an object: the fix wraps it in [ ], the text kept', () => {
  for (const method of ['eth_getLogs', 'trace_filter', 'eth_call']) {
    const text = `{"jsonrpc":"2.0","method":"${method}","params": {\n  "toBlock": "0x2"\n},"id":1}`.replace('"toBlock": "0x2"', method === 'eth_call' ? '"to": "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae"' : '"fromBlock": "0x1", "toBlock": "0x2"');
    const p = only(text, 'jsonrpc/params-not-array');
    assert.equal(p.fixes?.length, 1, method);
    assert.equal(p.fixes![0].preferred, true);
    assert.equal(p.fixes![0].title, 'Wrap in [ ]');
    const fixed = apply(text, p.fixes![0]);
    assert.equal(fixed, text.replace('{\n', '[{\n').replace('\n},', '\n}],'), method);
    assert.deepEqual(check(fixed), [], method);
  }
  // A method whose first param is not an object: an object there is no wrapped param, so no fix.
  assert.equal(only('{"jsonrpc":"2.0","method":"eth_getBalance","params":{"a":1},"id":1}', 'jsonrpc/params-not-array').fixes, undefined);
});

test('eth_getLogs topics given as one topic string: the fix makes it the first position, as toAddress gets its array', () => {
  const t = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
  const text = `{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x1","toBlock":"0x2","topics":"${t}"}],"id":1}`;
  const p = only(text, 'jsonrpc/invalid-param');
  assert.deepEqual(p.fixes!.map((f) => [f.title, f.preferred]), [[`Replace with ["${t}"]`, true]]);
  assert.deepEqual(check(apply(text, p.fixes![0])), []);
});

test('over a gateway limit: a quick fix to the limit, in the value\'s own form, offered but not applied by Fix all (it changes what is asked)', () => {
  const cases: [string, string, string][] = [
    ['{"jsonrpc":"2.0","method":"eth_feeHistory","params":[20,"latest",[]],"id":1}', 'jsonrpc/block-count-too-large', '10'],
    ['{"jsonrpc":"2.0","method":"eth_feeHistory","params":["0x14","latest",[]],"id":1}', 'jsonrpc/block-count-too-large', '"0xa"'],
    ['{"jsonrpc":"2.0","method":"trace_filter","params":[{"fromBlock":"0x1","toBlock":"0x2","count":500}],"id":1}', 'jsonrpc/trace-count-too-large', '200'],
    ['{"jsonrpc":"2.0","method":"trace_filter","params":[{"fromBlock":"0x1","toBlock":"0x2","count":"0x1f4"}],"id":1}', 'jsonrpc/trace-count-too-large', '"0xc8"'],
    // toBlock moved to the last block the limit allows from fromBlock: 0x1000 + 799 = 0x131f.
    ['{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x1000","toBlock":"0x2000"}],"id":1}', 'jsonrpc/block-range-too-large', '"0x131f"'],
    ['{"jsonrpc":"2.0","method":"trace_filter","params":[{"toBlock":"0x2000"}],"id":1}', 'jsonrpc/block-range-too-large', '"0x31f"'],
  ];
  for (const [text, code, to] of cases) {
    const p = only(text, code);
    assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [[`Replace with ${to}`, false]], text);
    assert.deepEqual(check(apply(text, p.fixes![0])).map((x) => x.code), [], text);
  }
});

test('a missing trailing boolean or percentiles param: a quick fix appends false or [] after the last param, not applied by Fix all', () => {
  const cases: [string, string, string][] = [
    ['{"jsonrpc":"2.0","method":"eth_getBlockByNumber","params":["latest"],"id":1}', 'Add false', '{"jsonrpc":"2.0","method":"eth_getBlockByNumber","params":["latest", false],"id":1}'],
    ['{"jsonrpc":"2.0","method":"eth_getBlockByHash","params":[\n  "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b"\n],"id":1}', 'Add false',
      '{"jsonrpc":"2.0","method":"eth_getBlockByHash","params":[\n  "0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b", false\n],"id":1}'],
    ['{"jsonrpc":"2.0","method":"eth_feeHistory","params":["0x4","latest"],"id":1}', 'Add []', '{"jsonrpc":"2.0","method":"eth_feeHistory","params":["0x4","latest", []],"id":1}'],
  ];
  for (const [text, title, fixed] of cases) {
    const p = only(text, 'jsonrpc/missing-param');
    assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [[title, false]], text);
    assert.equal(apply(text, p.fixes![0]), fixed);
    assert.deepEqual(check(fixed), []);
  }
  // A missing param with no neutral value (a block, a hash): no fix.
  assert.equal(only('{"jsonrpc":"2.0","method":"eth_getBlockByNumber","params":[],"id":1}', 'jsonrpc/missing-param').fixes, undefined);
});

test('"pending" in an eth_getLogs range: a quick fix to "latest", offered but not applied by Fix all (the pending block is not the latest)', () => {
  const text = '{"jsonrpc":"2.0","method":"eth_getLogs","params":[{"fromBlock":"0x10","toBlock":"pending"}],"id":1}';
  const p = only(text, 'jsonrpc/invalid-block');
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [['Replace with "latest"', false]]);
  assert.deepEqual(check(apply(text, p.fixes![0])).map((x) => x.code), ['jsonrpc/range-checked-at-runtime']);
});

test('a mixed-case address whose EIP-55 checksum does not match is a warning (a character may be mistyped); all-lower or all-upper is not checked', async () => {
  const { getAddress } = await import('ethers');
  const good = getAddress('0x6b175474e89094c44da98b954eedeac495271d0f'); // DAI, checksummed
  const bad = good.slice(0, -1) + (good.endsWith('F') ? 'E' : 'F'); // one character off: the checksum no longer matches
  const req = (params: unknown[], method = 'eth_getBalance') => JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 });
  assert.deepEqual(check(req([good, 'latest'])), []);
  assert.deepEqual(check(req([good.toLowerCase(), 'latest'])), []);
  assert.deepEqual(check(req(['0x' + good.slice(2).toUpperCase(), 'latest'])), []);
  const text = req([bad, 'latest']);
  const p = only(text, 'jsonrpc/address-checksum');
  assert.equal(p.severity, 'warning');
  assert.equal(at(text, p), JSON.stringify(bad));
  assert.match(p.message, new RegExp(`^params\\[0\\] ${bad} is mixed-case but not EIP-55 checksummed`));
  // Inside objects and lists: a call's "to", a log filter's address list, a trace filter's fromAddress.
  const nested = req([{ fromBlock: '0x1', toBlock: '0x2', address: [good, bad] }], 'eth_getLogs');
  assert.equal(at(nested, only(nested, 'jsonrpc/address-checksum')), JSON.stringify(bad));
  const call = req([{ to: bad, input: '0x' }], 'eth_call');
  assert.equal(at(call, only(call, 'jsonrpc/address-checksum')), JSON.stringify(bad));
  const trace = req([{ fromBlock: '0x1', toBlock: '0x2', fromAddress: [bad] }], 'trace_filter');
  assert.equal(at(trace, only(trace, 'jsonrpc/address-checksum')), JSON.stringify(bad));
  // An access list's entry and an authorization's address; and one note per address, as many as there are.
  const access = req([{ to: good, input: '0x', accessList: [{ address: bad, storageKeys: [] }] }], 'eth_call');
  assert.equal(at(access, only(access, 'jsonrpc/address-checksum')), JSON.stringify(bad));
  const auth = req([{ to: good, input: '0x', authorizationList: [{ chainId: '0x1', nonce: '0x0', address: bad, yParity: '0x0', r: '0x1', s: '0x1' }] }], 'eth_call');
  assert.equal(at(auth, only(auth, 'jsonrpc/address-checksum')), JSON.stringify(bad));
  const two = req([{ fromBlock: '0x1', toBlock: '0x2', fromAddress: [bad, good, bad], toAddress: [bad] }], 'trace_filter');
  assert.deepEqual(check(two).filter((x) => x.code === 'jsonrpc/address-checksum').map((x) => at(two, x)), [JSON.stringify(bad), JSON.stringify(bad), JSON.stringify(bad)]);
  // An invalid address is an error alone, with no checksum note: 39 digits, mixed case.
  const short = req([bad.slice(0, -1), 'latest']);
  assert.deepEqual(check(short).map((x) => x.code), ['jsonrpc/invalid-address']);
  // One address where a list is expected: the error (its fix puts it in the array) and the note, as before the note was taken
  // inside the value check; the fix keeps the digits, so the note is said at once rather than after it.
  const single = req([{ fromBlock: '0x1', toBlock: '0x2', toAddress: bad }], 'trace_filter');
  assert.deepEqual(check(single).map((x) => [x.code, at(single, x)]), [['jsonrpc/invalid-param', JSON.stringify(bad)], ['jsonrpc/address-checksum', JSON.stringify(bad)]]);
  const wrapped = apply(single, only(single, 'jsonrpc/invalid-param').fixes![0]);
  assert.deepEqual(check(wrapped).map((x) => x.code), ['jsonrpc/address-checksum']);
});

// ui7's walk: a new, empty *.rpc.json showed "The document is empty; expected a JSON value." and nothing on how to begin.
test('an empty request document says what goes in it and offers to insert a request, which Fix all leaves to the user', () => {
  for (const text of ['', '  \n']) {
    const p = only(text, 'syntax/empty-document');
    assert.match(p.message, /^The document is empty; expected a request object \{"jsonrpc": "2\.0", "method": …, "params": \[…\], "id": 1\}, or an array of them for a batch\.$/);
    assert.equal(p.fixes?.length, 1);
    assert.equal(p.fixes![0].title, 'Insert a request (eth_blockNumber)');
    assert.notEqual(p.fixes![0].preferred, true);
    assert.deepEqual(check(apply(text, p.fixes![0])), []);
  }
  // The other kinds keep the plain message, with no fix.
  const filter = validateText('', 'logpush-filter');
  assert.deepEqual(filter.map((p) => [p.code, p.message, p.fixes]), [['syntax/empty-document', 'The document is empty; expected a JSON value.', undefined]]);
});
