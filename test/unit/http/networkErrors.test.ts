// What a user behind a corporate network reads when a request fails: the real errors of Node's fetch, produced here by local servers
// (TLS with certificates from certs.ts, a proxy that answers 407, a closed port, a .invalid host). A remote host name is mapped to
// 127.0.0.1 by the connection's own lookup (undici's Agent, installed as fetch's global dispatcher, as VS Code installs its own), so
// the TLS checks and the messages see a name that is not loopback. A proxy is undici's ProxyAgent: the agent VS Code's proxy support
// hands to fetch (@vscode/proxy-agent's createProxyAgent).
import { test, describe, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { isLoopbackHost, request } from '../../../client/src/http/request';
import type { HttpResult } from '../../../client/src/http/request';
import { makeCert } from './certs';
import type { Issued } from './certs';
import { startServer } from './server';
import { redact } from '../../../client/src/http/redact';
import * as net from 'node:net';

const HOST = 'api.edgekit.test';

function failure(r: HttpResult) {
  assert.equal(r.ok, false, `expected a failure, got ${JSON.stringify(r)}`);
  return r as Extract<HttpResult, { ok: false }>;
}

/** Resolves every name to 127.0.0.1, for tls.connect (whose lookup may be asked for all addresses). */
function toLoopback(_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void): void {
  if (opts.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
}

function loopbackAgent(ca?: string): Agent {
  return new undici.Agent({ connect: { lookup: toLoopback as never, ...(ca ? { ca } : {}) } });
}

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: http.Server | https.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** A port nothing listens on: one a server just gave back. */
async function closedPort(): Promise<number> {
  const s = http.createServer();
  const port = await listen(s);
  await close(s);
  return port;
}

// A .invalid name is looked up with a 60 s request timeout: a resolver that never answers (5 s a try, two tries by default) gives
// EAI_AGAIN after it gives up, which a 10 s timeout could beat, turning the expected DNS failure into a timeout (rv43).
// fetch's global dispatcher lives on globalThis, shared by every test file of a shard's process; and loading undici installs one when
// there is none. So undici is loaded in `before`, after Node's fetch has made its own, and every test puts that one back.
const V1 = Symbol.for('undici.globalDispatcher.1');
const V2 = Symbol.for('undici.globalDispatcher.2');
const slots = globalThis as unknown as Record<symbol, unknown>;
let undici: typeof import('undici');
const opened: Dispatcher[] = [];
function useDispatcher(d: Dispatcher): void {
  opened.push(d);
  undici.setGlobalDispatcher(d);
}

describe('network errors', () => {
  const saved: { v1?: unknown; v2?: unknown } = {};
  before(async () => {
    await fetch('data:,'); // loads Node's own undici, which installs fetch's dispatcher once, as it loads: that is the one to keep
    saved.v1 = slots[V1];
    saved.v2 = slots[V2];
    undici = await import('undici');
    slots[V1] = saved.v1;
    slots[V2] = saved.v2;
  });
  afterEach(async () => {
    slots[V1] = saved.v1;
    slots[V2] = saved.v2;
    // destroy, not close: close waits for the requests still under way, and one a failed or cancelled test left pending would hold
    // this hook, and the shard's process with it, for good (rv43).
    await Promise.all(opened.splice(0).map((d) => d.destroy()));
  });

  describe('network errors: certificates a TLS-inspecting proxy presents', () => {
    let root: Issued;
    let intermediate: Issued;
    before(() => {
      root = makeCert({ name: 'Corp Inspection Root CA', ca: true });
      intermediate = makeCert({ name: 'Corp Inspection Issuing CA', ca: true, issuer: root });
    });

    async function fetchFrom(options: https.ServerOptions, ca?: string) {
      const server = https.createServer(options, (_req, res) => res.end('{}'));
      const port = await listen(server);
      try {
        useDispatcher(loopbackAgent(ca));
        return { r: await request({ method: 'GET', url: `https://${HOST}:${port}/client/v4/zones?token=x`, timeoutMs: 10_000 }), origin: `https://${HOST}:${port}` };
      } finally {
        await close(server);
      }
    }

    test('a chain whose root is not trusted here (UNABLE_TO_GET_ISSUER_CERT_LOCALLY) names the origin and the certificate settings', async () => {
      const leaf = makeCert({ name: HOST, issuer: intermediate });
      const { r, origin } = await fetchFrom({ cert: leaf.cert + intermediate.cert, key: leaf.key });
      const f = failure(r);
      assert.equal(f.kind, 'network');
      assert.equal(f.code, 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY');
      assert.ok(f.error.startsWith(`GET ${HOST}:`), f.error);
      assert.ok(f.error.includes('not trusted'), f.error);
      assert.ok(f.error.includes(`${origin} presented a certificate`), f.error);
      for (const hint of ['"http.systemCertificates"', '"http.fetchAdditionalSupport"', 'NODE_EXTRA_CA_CERTS']) assert.ok(f.error.includes(hint), `${hint} in ${f.error}`);
      assert.ok(!f.error.includes('token'), 'no query string in the message');
    });

    test('a chain that carries its self-signed root (SELF_SIGNED_CERT_IN_CHAIN) and a self-signed certificate get the same advice', async () => {
      const leaf = makeCert({ name: HOST, issuer: root });
      const inChain = failure((await fetchFrom({ cert: leaf.cert + root.cert, key: leaf.key })).r);
      assert.equal(inChain.code, 'SELF_SIGNED_CERT_IN_CHAIN');
      const self = makeCert({ name: HOST });
      const alone = failure((await fetchFrom({ cert: self.cert, key: self.key })).r);
      assert.equal(alone.code, 'DEPTH_ZERO_SELF_SIGNED_CERT');
      for (const f of [inChain, alone]) assert.ok(f.error.includes('"http.systemCertificates"') && f.error.includes('NODE_EXTRA_CA_CERTS'), f.error);
    });

    test('an expired certificate (CERT_HAS_EXPIRED) says to check the clock, then the certificate', async () => {
      const day = 86_400_000;
      const old = makeCert({ name: HOST, notBefore: new Date(Date.now() - 30 * day), notAfter: new Date(Date.now() - day) });
      const f = failure((await fetchFrom({ cert: old.cert, key: old.key }, old.cert)).r);
      assert.equal(f.code, 'CERT_HAS_EXPIRED');
      assert.match(f.error, /has expired \(CERT_HAS_EXPIRED\)\. Check this computer's date and time; if they are right, https:\/\/api\.edgekit\.test:\d+ /);
    });

    test('a trusted certificate for another name (ERR_TLS_CERT_ALTNAME_INVALID) says the certificate is for another host', async () => {
      const other = makeCert({ name: 'other.example', issuer: root });
      const f = failure((await fetchFrom({ cert: other.cert, key: other.key }, root.cert)).r);
      assert.equal(f.code, 'ERR_TLS_CERT_ALTNAME_INVALID');
      assert.match(f.error, /does not match the host name \(ERR_TLS_CERT_ALTNAME_INVALID\)\. The certificate is for another host: check the host name in https:\/\/api\.edgekit\.test:\d+;/);
    });

    test('the same server with its root trusted answers: the failures above are the certificates, not the set-up', async () => {
      const leaf = makeCert({ name: HOST, issuer: intermediate });
      const { r } = await fetchFrom({ cert: leaf.cert + intermediate.cert, key: leaf.key }, root.cert);
      assert.equal(r.ok, true, JSON.stringify(r));
    });
  });

  describe('network errors: a proxy that wants credentials', () => {
    let proxy: http.Server;
    let proxyUrl: string;
    before(async () => {
      // Answers every CONNECT and every forwarded request with 407, as a proxy does before it has credentials.
      proxy = http.createServer((_req, res) => {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"', 'content-type': 'text/plain' });
        res.end('Proxy authentication required');
      });
      proxy.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
        socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n');
      });
      proxyUrl = `http://127.0.0.1:${await listen(proxy)}`;
    });
    after(() => close(proxy));

    test('a tunnel refused with 407 says so and where the credentials go (it used to say "failed: 0.")', async () => {
      useDispatcher(new undici.ProxyAgent(proxyUrl));
      const f = failure(await request({ method: 'GET', url: 'https://api.cloudflare.com/client/v4/zones', timeoutMs: 10_000 }));
      assert.equal(f.kind, 'network');
      assert.notEqual(f.code, '0', 'a DOMException\'s numeric code is not a socket code');
      assert.ok(f.error.startsWith('GET api.cloudflare.com/client/v4/zones failed: the proxy refused to open a connection to the server (HTTP 407 Proxy Authentication Required).'), f.error);
      assert.ok(f.error.includes('"http.proxy"') && f.error.includes('HTTPS_PROXY'), f.error);
    });

    test('a 407 answered as a response (a proxy that forwards plain HTTP), which fetch turns into a bare network error, is named (it used to say "unknown network error")', async () => {
      const srv = await startServer((_req, res) => {
        res.writeHead(407, { 'proxy-authenticate': 'Basic realm="corp"' });
        res.end();
      });
      try {
        const f = failure(await request({ method: 'GET', url: `${srv.url}/zones`, timeoutMs: 10_000 }));
        assert.equal(f.kind, 'network');
        assert.equal(f.code, undefined);
        assert.ok(f.error.includes('failed: no usable answer, most likely a proxy\'s HTTP 407 Proxy Authentication Required'), f.error);
        assert.ok(f.error.includes('"http.proxy"'), f.error);
      } finally {
        await srv.close();
      }
    });

    test('a proxy that is not listening: the refused address is the proxy\'s, and the message says so', async () => {
      const port = await closedPort();
      useDispatcher(new undici.ProxyAgent(`http://127.0.0.1:${port}`));
      const f = failure(await request({ method: 'GET', url: 'https://api.cloudflare.com/client/v4/zones', timeoutMs: 10_000 }));
      assert.equal(f.code, 'ECONNREFUSED');
      assert.ok(f.error.includes(`The refused connection was to 127.0.0.1:${port}, not to https://api.cloudflare.com: check the proxy ("http.proxy", or HTTPS_PROXY).`), f.error);
    });
    test('a tunnel refused with 502 (the proxy could not reach the server) says the server may be down, not that the proxy blocks it (rv43)', async () => {
      const down = http.createServer();
      down.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
        socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      });
      const port = await listen(down);
      try {
        useDispatcher(new undici.ProxyAgent(`http://127.0.0.1:${port}`));
        const f = failure(await request({ method: 'GET', url: 'https://api.cloudflare.com/client/v4/zones', timeoutMs: 10_000 }));
        assert.ok(f.error.includes('failed: the proxy could not reach the server (HTTP 502 Bad Gateway).'), f.error);
        assert.ok(f.error.includes('https://api.cloudflare.com may be down'), f.error);
        assert.ok(!f.error.includes('refused'), f.error);
      } finally {
        await close(down);
      }
    });

    test('a proxy whose own host name does not resolve names the proxy\'s host, not the server\'s (rv43)', async () => {
      useDispatcher(new undici.ProxyAgent('http://proxy.edgekit.invalid:3128'));
      const f = failure(await request({ method: 'GET', url: 'https://api.cloudflare.com/client/v4/zones', timeoutMs: 60_000 }));
      assert.ok(f.code === 'ENOTFOUND' || f.code === 'EAI_AGAIN', `code ${f.code}`);
      assert.ok(f.error.includes('The host name that failed was proxy.edgekit.invalid, not api.cloudflare.com: check the proxy ("http.proxy", or HTTPS_PROXY).'), f.error);
      assert.ok(!f.error.includes('Check the host name in https://api.cloudflare.com'), f.error);
    });

    test('no message names a proxy\'s user or password, whatever the proxy does (rv43)', async () => {
      const refusedPort = await closedPort();
      for (const proxy of [proxyUrl, `http://127.0.0.1:${refusedPort}`, 'http://proxy.edgekit.invalid:3128']) {
        const withCredentials = proxy.replace('://', '://corp-user:s3cr3t-pw@');
        useDispatcher(new undici.ProxyAgent(withCredentials));
        const f = failure(await request({ method: 'GET', url: 'https://api.cloudflare.com/client/v4/zones', timeoutMs: 60_000 }));
        assert.equal(f.kind, 'network', f.error);
        assert.ok(!f.error.includes('corp-user') && !f.error.includes('s3cr3t-pw'), f.error);
      }
    });

    test('the 407 advice keeps its form of a proxy URL with credentials through redact(), which logs and messages pass (rv43)', async () => {
      useDispatcher(new undici.ProxyAgent(proxyUrl));
      const f = failure(await request({ method: 'GET', url: 'https://api.cloudflare.com/client/v4/zones', timeoutMs: 10_000 }));
      assert.equal(redact(f.error), f.error);
      assert.ok(f.error.includes('"http.proxy"'), f.error);
    });
  });

  describe('network errors: addresses', () => {
    test('a server that never finishes the connection (UND_ERR_CONNECT_TIMEOUT, a firewall dropping packets) has words and advice (rv43)', async () => {
      const sockets: Socket[] = [];
      const silent = net.createServer((s) => sockets.push(s)); // accepts TCP, never answers the TLS handshake
      const port = await listen(silent as unknown as http.Server);
      try {
        useDispatcher(new undici.Agent({ connect: { lookup: toLoopback as never, timeout: 200 } }));
        const f = failure(await request({ method: 'GET', url: `https://${HOST}:${port}/zones`, timeoutMs: 10_000 }));
        assert.equal(f.kind, 'network');
        assert.equal(f.code, 'UND_ERR_CONNECT_TIMEOUT');
        assert.ok(f.error.includes('failed: the connection could not be opened in time (UND_ERR_CONNECT_TIMEOUT).'), f.error);
        assert.ok(f.error.includes(`https://${HOST}:${port}`) && f.error.includes('"http.proxy"'), f.error);
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    });

    test('a closed port on a remote name: check the address, or the proxy a network may need', async () => {
      const port = await closedPort();
      useDispatcher(loopbackAgent());
      const f = failure(await request({ method: 'POST', url: `http://${HOST}:${port}/rpc`, body: {}, timeoutMs: 10_000 }));
      assert.equal(f.code, 'ECONNREFUSED');
      assert.ok(f.error.includes(`Check the address and port of http://${HOST}:${port};`) && f.error.includes('"http.proxy"'), f.error);
    });

    test('a closed port on the loopback mock gets no proxy advice: VS Code never sends loopback through a proxy', async () => {
      const port = await closedPort();
      const f = failure(await request({ method: 'GET', url: `http://127.0.0.1:${port}/zones`, timeoutMs: 10_000 }));
      assert.equal(f.code, 'ECONNREFUSED');
      assert.ok(!f.error.includes('proxy'), f.error);
    });

    test('loopback is told one way, as VS Code\'s proxy resolver tells it: 127.0.0.2 is no loopback origin (rv45)', async () => {
      // request.ts knew localhost, 127.0.0.1 and [::1]; commands/backend.ts (the http:// Set API Credentials takes) all of
      // 127.0.0.0/8, though VS Code sends 127.0.0.2 through a configured proxy, the token in the clear to it.
      assert.ok(isLoopbackHost('localhost') && isLoopbackHost('127.0.0.1') && isLoopbackHost('[::1]'));
      assert.ok(!isLoopbackHost('127.0.0.2') && !isLoopbackHost('127.0.0.1.example'));
      const port = await closedPort();
      const f = failure(await request({ method: 'GET', url: `http://127.0.0.2:${port}/zones`, timeoutMs: 10_000 }));
      assert.equal(f.code, 'ECONNREFUSED');
      assert.ok(f.error.includes(`Check the address and port of http://127.0.0.2:${port};`), f.error);
    });

    test('a host name that does not resolve (.invalid, RFC 6761) names the origin and the proxy setting', async () => {
      const f = failure(await request({ method: 'GET', url: 'https://gateway.edgekit.invalid/v1/rpc', timeoutMs: 60_000 }));
      assert.ok(f.code === 'ENOTFOUND' || f.code === 'EAI_AGAIN', `code ${f.code}`); // EAI_AGAIN where no DNS server answers at all
      assert.ok(f.error.includes('Check the host name in https://gateway.edgekit.invalid and this computer\'s network;') && f.error.includes('"http.proxy"'), f.error);
    });
  });
});
