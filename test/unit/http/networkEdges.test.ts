// Edges of request.ts's network failures (client/src/http/request.ts) that the mutation sample mt6 found unpinned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { request } from '../../../client/src/http/request';
import { makeCert } from './certs';

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

/** A GET of https://host:port/zones from a server with `cert` listening on `host`. */
async function getFromTls(host: string, cert: { cert: string; key: string }) {
  const server = https.createServer(cert, (_req, res) => res.end('{}'));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  try {
    return await request({ method: 'GET', url: `https://${host}:${(server.address() as AddressInfo).port}/zones`, timeoutMs: 5000 });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test('a certificate failure on loopback (the mock) gets no advice of a TLS-inspecting proxy: none is between', async () => {
  const r = await getFromTls('127.0.0.1', makeCert({ name: '127.0.0.1' }));
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.error.endsWith('failed: the server certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT).'), JSON.stringify(r));
});

test('a certificate not valid yet gets the advice of an expired one: check the date and time', async () => {
  // 127.0.0.2: a remote origin as the advice tells them (isLoopbackHost), still this machine (Linux routes 127.0.0.0/8 to lo).
  const r = await getFromTls('127.0.0.2', makeCert({ name: '127.0.0.2', notBefore: new Date(Date.now() + 10 * 86_400_000) }));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.code, 'CERT_NOT_YET_VALID');
  assert.ok(r.error.includes("Check this computer's date and time; if they are right, https://127.0.0.2:"), r.error);
});
