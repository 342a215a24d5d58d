// A reference for bench/lspFloor.ts: the least a Node LSP server can do for open → pull diagnostics over stdio. No library: it
// splits the stream on Content-Length, JSON.parses each message, answers initialize, shutdown and textDocument/diagnostic (an empty
// report) in one write each, and ignores notifications. What the bench's client and the pipe cost with nothing else in the way.
let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  for (;;) {
    const blank = pending.indexOf('\r\n\r\n');
    if (blank < 0) return;
    const length = Number(/Content-Length:\s*(\d+)/i.exec(pending.toString('latin1', 0, blank))[1]);
    if (pending.length < blank + 4 + length) return;
    const msg = JSON.parse(pending.toString('utf8', blank + 4, blank + 4 + length));
    pending = pending.subarray(blank + 4 + length);
    if (msg.id === undefined) {
      if (msg.method === 'exit') process.exit(0);
      continue;
    }
    let result = null;
    if (msg.method === 'initialize') result = { capabilities: { textDocumentSync: 1, diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } };
    else if (msg.method === 'textDocument/diagnostic') result = { kind: 'full', items: [] };
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result });
    process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
});
