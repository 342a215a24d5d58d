// Edges of request.ts's network failures (client/src/http/request.ts) that the mutation sample mt6 found unpinned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from '../../../client/src/http/request';

test('a GET that fails other than by a closed kept-alive connection (an answer that is not HTTP) is not sent again', async () => {
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    s.on('error', () => {});
    s.on('data', () => s.end('NOT HTTP AT ALL\r\n\r\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const r = await request({ method: 'GET', url: `http://127.0.0.1:${port}/zones`, timeoutMs: 5000 });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.kind, 'network');
    assert.equal(!r.ok && r.code, 'HPE_INVALID_CONSTANT');
    assert.equal(connections, 1);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
