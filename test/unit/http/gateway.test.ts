import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { describeRpcResponse, requestMethods, sendJsonRpc, withoutEditorHints } from '../../../client/src/http/gateway';
import { startMockBackend } from '../../../mock/src/backend';
import type { MockBackend } from '../../../mock/src/backend';
import { startServer } from './server';
import { describeHttpError } from '../../../client/src/http/request';

describe('sendJsonRpc against the embedded mock gateway', () => {
  let mock: MockBackend;
  before(async () => {
    mock = await startMockBackend({ port: 0 });
  });
  after(() => mock.close());

  test('a supported method: the result, the time and a summary', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
    const r = await sendJsonRpc(mock.gatewayUrl, body, { timeoutMs: 5000 });
    assert.ok(r.ok);
    assert.equal(r.status, 200);
    assert.equal(r.success, true);
    assert.equal(typeof (r.body as { result: unknown }).result, 'string');
    assert.match(r.summary, /^OK: result "0x[0-9a-f]+" = [0-9,]+ \(id 1\)\.$/);
    assert.ok(r.curl.includes(`--data-raw '${body}'`));
  });

  test('an unsupported method: HTTP 403 named in words', async () => {
    const r = await sendJsonRpc(mock.gatewayUrl, '{"jsonrpc":"2.0","id":7,"method":"eth_accounts","params":[]}', { timeoutMs: 5000 });
    assert.ok(r.ok);
    assert.equal(r.status, 403);
    assert.equal(r.success, false);
    assert.match(r.summary, /^HTTP 403: the gateway refuses method "eth_accounts"; it is not supported there\./);
  });

  test('a batch with one bad item: counts and the failing item', async () => {
    const r = await sendJsonRpc(mock.gatewayUrl, JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_getBalance', params: ['nope', 'latest'] },
    ]), { timeoutMs: 5000 });
    assert.ok(r.ok);
    assert.equal(r.success, false);
    assert.match(r.summary, /^Batch of 2: 1 result, 1 error: error -32602 \(invalid params: the method parameters are wrong\): .* \(id 2\)\.$/);
  });

  test('the text is sent as is, and a parse error comes back as -32700', async () => {
    const r = await sendJsonRpc(mock.gatewayUrl, '{"jsonrpc":', { timeoutMs: 5000 });
    assert.ok(r.ok);
    assert.match(r.summary, /^JSON-RPC error -32700 \(parse error: the request body is not valid JSON\): /);
  });
});

describe('sendJsonRpc transport', () => {
  test('a gateway that never answers times out', async () => {
    const srv = await startServer(() => undefined);
    try {
      // Long enough for the server to have read the request on a loaded machine (with 40 ms, the client sometimes gave up before the
      // body arrived and `received` was still empty); the handler never answers, so the request times out all the same.
      const r = await sendJsonRpc(`${srv.url}/v1/mainnet`, '{}', { timeoutMs: 400 });
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.kind === 'timeout');
      assert.equal(srv.received[0].headers['content-type'], 'application/json');
    } finally {
      await srv.close();
    }
  });
});

describe('describeRpcResponse', () => {
  test('403 without the request names no method; with a batch it lists them', () => {
    assert.equal(describeRpcResponse(403, ''), 'HTTP 403: the gateway refuses this method; it is not supported there.');
    assert.equal(describeRpcResponse(403, { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Unsupported.' } }, '[{"method":"eth_sign"},{"method":"eth_coinbase"}]'),
      'HTTP 403: the gateway refuses one of the methods "eth_sign", "eth_coinbase"; it is not supported there. JSON-RPC error -32601 (method not found: the method does not exist or is not available): Unsupported.');
  });

  test('a JSON-RPC error message that ends in "?" or "!" gets no "." after it', () => {
    // Seen sending a misspelt method to the mock: "…; did you mean "eth_getBalance"?." in the response's summary line.
    const err = { code: -32004, message: 'Method "eth_getBalanc" is not supported by the gateway; did you mean "eth_getBalance"?' };
    assert.match(describeRpcResponse(403, { jsonrpc: '2.0', id: 1, error: err }, '{"method":"eth_getBalanc"}'), /did you mean "eth_getBalance"\?$/);
    assert.match(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, error: err }), /did you mean "eth_getBalance"\? \(id 1\)\.$/);
    assert.match(describeHttpError(500, { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Out of gas!' } }), /: Out of gas!$/);
  });

  test('a long array result is counted, not only cut (trace_filter, eth_getLogs)', () => {
    // Seen sending examples/trace-filter.rpc.json: "OK: result [{"action":{"from":"0x8176…","callType":"cal… (id 1)." said nothing of
    // the 20 traces; the history's quick pick shows that line too.
    const traces = Array.from({ length: 20 }, (_, i) => ({ action: { from: '0x8176be10b03199fde664fbb90a474c2a341521c3', callType: 'call' }, subtraces: i }));
    const s = describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: traces });
    assert.ok(s.startsWith('OK: result, 20 items: [{"action":'), s);
    assert.ok(s.endsWith('… (id 1).'), s);
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: [{ a: 'x'.repeat(100) }] }).slice(0, 22), 'OK: result, 1 item: [{');
    // A short one reads whole, as before.
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: [] }), 'OK: result [] (id 1).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: ['0x1', '0x2'] }), 'OK: result ["0x1","0x2"] (id 1).');
  });

  test('single responses', () => {
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 'a', result: { big: 'x'.repeat(100) } }), `OK: result ${JSON.stringify({ big: 'x'.repeat(100) }).slice(0, 79)}… (id "a").`);
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: "jsonrpc" must be "2.0".' } }),
      'JSON-RPC error -32600 (invalid request: the body is not a valid JSON-RPC request object): Invalid request: "jsonrpc" must be "2.0" (id null).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 3, error: { code: -32603, message: '' } }), 'JSON-RPC error -32603 (internal error: the server failed while handling the request) (id 3).');
    assert.equal(describeRpcResponse(200, { id: 1 }), 'HTTP 200, but the body is not a JSON-RPC response (no "result" or "error").');
    assert.equal(describeRpcResponse(200, 'plain\ntext'), 'HTTP 200, but the body is not JSON: "plain text".');
  });

  // ui7's walk: "OK: result "0xfff" (id 1)." left a newcomer to convert hex in their head; the request editor shows "= 4,095".
  test('a method that answers a quantity: its result in decimal too; any other result as it is', () => {
    const req = (method: string) => JSON.stringify({ jsonrpc: '2.0', method, params: [], id: 1 });
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: '0xfff' }, req('eth_blockNumber')), 'OK: result "0xfff" = 4,095 (id 1).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: '0x1bc16d674ec80000' }, req('eth_getBalance')), 'OK: result "0x1bc16d674ec80000" = 2,000,000,000,000,000,000 (id 1).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: '0x0' }, req('eth_getBalance')), 'OK: result "0x0" = 0 (id 1).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: '0x00ff' }, req('eth_getStorageAt')), 'OK: result "0x00ff" (id 1).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: '0xfff' }), 'OK: result "0xfff" (id 1).');
    assert.equal(describeRpcResponse(200, { jsonrpc: '2.0', id: 1, result: 'oops' }, req('eth_blockNumber')), 'OK: result "oops" (id 1).');
  });

  test('notifications, batches and HTTP errors', () => {
    assert.match(describeRpcResponse(204, ''), /^HTTP 204: no response body \(a notification/);
    assert.equal(describeRpcResponse(200, [{ jsonrpc: '2.0', id: 1, result: '0x1' }, { jsonrpc: '2.0', id: 2, result: '0x2' }]), 'Batch of 2: 2 results, 0 errors.');
    const many = Array.from({ length: 7 }, (_, i) => ({ jsonrpc: '2.0', id: i, error: { code: -32602, message: 'bad' } }));
    assert.match(describeRpcResponse(200, many), /^Batch of 7: 0 results, 7 errors: .*\(id 4\); and 2 more\.$/);
    assert.equal(describeRpcResponse(200, [42]), 'Batch of 1: 0 results, 1 error: not a JSON-RPC response: 42.');
    assert.match(describeRpcResponse(413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Too big.' } }), /^HTTP 413 Payload Too Large: .* JSON-RPC error -32600 .*: Too big\.$/);
    assert.match(describeRpcResponse(429, ''), /^HTTP 429 Too Many Requests/);
  });

  test('requestMethods reads single and batch bodies and ignores non-JSON', () => {
    assert.deepEqual(requestMethods('{"method":"a"}'), ['a']);
    assert.deepEqual(requestMethods('[{"method":"a"},{"x":1},{"method":"b"}]'), ['a', 'b']);
    assert.deepEqual(requestMethods('{oops'), []);
    assert.deepEqual(requestMethods(undefined), []);
  });
});

describe('withoutEditorHints', () => {
  test('removes "$schema" from a request and from each batch item, and leaves the rest of the text as it was', () => {
    const single = '{\n  "$schema": "https://edgekit.dev/schemas/jsonrpc-request.schema.json",\n  "jsonrpc": "2.0",\n  "method": "eth_chainId",\n  "params": [],\n  "id": 1\n}';
    const out = withoutEditorHints(single);
    assert.deepEqual(JSON.parse(out), { jsonrpc: '2.0', method: 'eth_chainId', params: [], id: 1 });
    assert.ok(out.includes('\n  "jsonrpc": "2.0",\n  "method": "eth_chainId",'));
    const batch = '[{"jsonrpc":"2.0","method":"eth_chainId","id":1,"$schema":"x"},{"jsonrpc":"2.0","method":"eth_blockNumber","id":2},{"$schema":"y","jsonrpc":"2.0","method":"net_version","id":3}]';
    assert.deepEqual(JSON.parse(withoutEditorHints(batch)), [
      { jsonrpc: '2.0', method: 'eth_chainId', id: 1 }, { jsonrpc: '2.0', method: 'eth_blockNumber', id: 2 }, { jsonrpc: '2.0', method: 'net_version', id: 3 },
    ]);
  });

  test('a body without the hint, a nested "$schema" or text that is not JSON is sent unchanged', () => {
    const plain = '{"jsonrpc":"2.0","method":"eth_chainId","params":[],"id":1}';
    assert.equal(withoutEditorHints(plain), plain);
    const nested = '{"jsonrpc":"2.0","method":"eth_call","params":[{"$schema":"z"}],"id":1}';
    assert.equal(withoutEditorHints(nested), nested);
    assert.equal(withoutEditorHints('{oops'), '{oops');
  });

  test('the stripped request is one the mock gateway answers', async () => {
    const mock = await startMockBackend({ port: 0 });
    try {
      const body = '{"$schema":"../jsonrpc-request.schema.json","jsonrpc":"2.0","method":"eth_chainId","params":[],"id":1}';
      const r = await sendJsonRpc(mock.gatewayUrl, withoutEditorHints(body), { timeoutMs: 5000 });
      assert.ok(r.ok);
      assert.equal(r.success, true, r.summary);
    } finally {
      await mock.close();
    }
  });
});

describe('redirects', () => {
  // Not followed (request() uses redirect: 'manual', so neither credentials nor the body go to another host): the message says
  // where the server points, without the query, so the user can correct the setting (an http:// URL a server moves to https://).
  test('a gateway URL that redirects: the summary names the target, and no query of it', async () => {
    const srv = await startServer((_req, res) => {
      res.writeHead(308, { Location: 'https://gateway.example/v1/mainnet?token=s3cr3t' });
      res.end();
    });
    try {
      const r = await sendJsonRpc(`${srv.url}/v1/mainnet`, '{"jsonrpc":"2.0","method":"eth_blockNumber","params":[],"id":1}', { timeoutMs: 2000 });
      assert.equal(r.ok, true);
      if (!r.ok) return;
      assert.equal(r.success, false);
      assert.match(r.summary, /^HTTP 308: an unfollowed redirect to https:\/\/gateway\.example\/v1\/mainnet\b/);
      assert.doesNotMatch(r.summary, /s3cr3t/);
      assert.equal(srv.received.length, 1, 'not followed');
    } finally {
      await srv.close();
    }
  });
});
