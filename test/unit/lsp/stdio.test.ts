// The --stdio message reader and writer (server/src/lsp/stdio.ts): the LSP base protocol however the pipe cuts it, bad input reported
// by name without losing the messages after it, one write per message, and what the library's own stdio start did besides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants } from 'node:buffer';
import { PassThrough, Writable } from 'node:stream';
import { StdioMessageReader, StdioMessageWriter, wireStdioProcess } from '../../../server/src/lsp/stdio';
import type { Connection } from '../../../server/src/lsp/context';

const frame = (body: string, header = `Content-Length: ${Buffer.byteLength(body, 'utf8')}`) => Buffer.from(`${header}\r\n\r\n${body}`, 'utf8');

/** Feeds the chunks to a reader; returns the messages and the errors it gave, in order. */
function read(chunks: (Buffer | string)[]): { messages: unknown[]; errors: string[]; reader: StdioMessageReader } {
  const input = new PassThrough();
  const reader = new StdioMessageReader(input);
  const messages: unknown[] = [];
  const errors: string[] = [];
  reader.onError((e) => errors.push(e.message));
  reader.listen((m) => messages.push(m));
  // PassThrough delivers asynchronously; the reader's own handler is called directly so the test stays synchronous.
  for (const c of chunks) input.listeners('data').forEach((l) => (l as (c: Buffer | string) => void)(c));
  return { messages, errors, reader };
}

const messages = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null } },
  { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///é.json', text: '{"a": "ü € 𝄞 \\" \\u0000"}' } } },
  { jsonrpc: '2.0', id: 2, method: 'textDocument/diagnostic', params: { textDocument: { uri: 'file:///é.json' } } },
];
const stream = Buffer.concat(messages.map((m) => frame(JSON.stringify(m))));

test('messages come out whole and in order wherever the pipe cuts the bytes (inside a header, a body, a UTF-8 character)', () => {
  assert.deepEqual(read([stream]).messages, messages);
  for (let cut = 1; cut < stream.length; cut++) {
    assert.deepEqual(read([stream.subarray(0, cut), stream.subarray(cut)]).messages, messages, `cut at byte ${cut}`);
  }
  const bytes = [...stream].map((b) => Buffer.from([b]));
  assert.deepEqual(read(bytes).messages, messages, 'one byte at a time');
});

test('a long body arriving in 64 KB chunks is one message', () => {
  const text = 'x'.repeat(1_000_000);
  const big = frame(JSON.stringify({ jsonrpc: '2.0', method: 'big', params: { text } }));
  const chunks: Buffer[] = [];
  for (let i = 0; i < big.length; i += 65536) chunks.push(big.subarray(i, i + 65536));
  const r = read([...chunks, frame('{"jsonrpc":"2.0","method":"after"}')]);
  assert.equal(r.messages.length, 2);
  assert.equal((r.messages[0] as { params: { text: string } }).params.text, text);
  assert.equal((r.messages[1] as { method: string }).method, 'after');
});

test('header forms the protocol allows: any case, leading zeros, a Content-Type with charset utf-8 or utf8, spaces around the value', () => {
  const body = '{"jsonrpc":"2.0","method":"m"}';
  for (const header of [
    `content-length: ${body.length}`,
    `Content-Length:${body.length}`,
    `Content-Length: 0${body.length}`,
    `Content-Length: 000000000000${body.length}`,
    `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: ${body.length}`,
    `Content-Length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset="UTF8"`,
  ]) {
    const r = read([frame(body, header)]);
    assert.deepEqual(r.errors, [], header);
    assert.deepEqual(r.messages, [{ jsonrpc: '2.0', method: 'm' }], header);
  }
});

test('bad input is reported by name and skipped; the next message is still read', () => {
  const good = frame('{"jsonrpc":"2.0","method":"next"}');
  const cases: [Buffer, RegExp][] = [
    [frame('{}', 'Content-Type: application/vscode-jsonrpc'), /without Content-Length.*Content-Type/],
    [frame('{}', 'Content-Length: twelve'), /Content-Length is not a number: "twelve"/],
    [frame('{}', 'Content-Length: 2\r\nContent-Type: application/json; charset=latin1'), /Unsupported charset "latin1"/],
    [frame('{}', 'Content-Length 2'), /header line without a name: "Content-Length 2"/],
    [frame('{"jsonrpc": tru}'), /body is not JSON: .*body starts "\{\\"jsonrpc\\": tru\}"/],
  ];
  for (const [bad, message] of cases) {
    for (const chunks of [[bad, good], [Buffer.concat([bad, good])], [...Buffer.concat([bad, good])].map((b) => Buffer.from([b]))]) {
      const r = read(chunks);
      assert.equal(r.errors.length, 1, `${message} in ${chunks.length} chunks: ${r.errors.join('; ')}`);
      assert.match(r.errors[0], message);
      assert.deepEqual(r.messages, [{ jsonrpc: '2.0', method: 'next' }], `${message} in ${chunks.length} chunks`);
    }
  }
});

test('a body that is JSON but not an object goes to the connection (which names it), and the messages after it are read', () => {
  for (const body of ['null', '42', '"text"', '[]']) {
    const r = read([Buffer.concat([frame(body), frame('{"jsonrpc":"2.0","method":"next"}')])]);
    assert.deepEqual(r.messages, [JSON.parse(body), { jsonrpc: '2.0', method: 'next' }], body);
  }
});

test('a message the connection throws on is reported, and the messages after it in the same chunk are still read', () => {
  // vscode-jsonrpc's callback throws on some messages (a $/cancelRequest without params reads params.id); the library's reader
  // caught that in its decode promise. Thrown here, the rest of the chunk would wait for the client's next write.
  const input = new PassThrough();
  const reader = new StdioMessageReader(input);
  const seen: string[] = [];
  const errors: string[] = [];
  reader.onError((e) => errors.push(e.message));
  reader.listen((m) => {
    const { method } = m as unknown as { method: string };
    seen.push(method);
    if (method === '$/cancelRequest') throw new TypeError("Cannot read properties of undefined (reading 'id')");
  });
  const chunk = Buffer.concat([frame('{"jsonrpc":"2.0","method":"$/cancelRequest"}'), frame('{"jsonrpc":"2.0","id":1,"method":"next"}')]);
  input.listeners('data').forEach((l) => (l as (c: Buffer) => void)(chunk));
  assert.deepEqual(seen, ['$/cancelRequest', 'next']);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /\$\/cancelRequest.*reading 'id'/);
});

test('the start of a body quoted in an error is cut between characters, never inside an emoji (no \\ud83d in the log)', () => {
  // The body's first 80 characters end inside the emoji: JSON.stringify wrote its lone half as the text \ud83d.
  const head = 'x'.repeat(79);
  const notJson = read([frame(`${head}😀 and more`)]);
  assert.equal(notJson.errors.length, 1);
  assert.ok(!/\\ud8/i.test(notJson.errors[0]), notJson.errors[0]);
  assert.ok(notJson.errors[0].includes(`body starts "${head}"`), notJson.errors[0]);
  // A message the connection throws on, named by its body's start when it has no method.
  const input = new PassThrough();
  const reader = new StdioMessageReader(input);
  const errors: string[] = [];
  reader.onError((e) => errors.push(e.message));
  reader.listen(() => { throw new Error('no method'); });
  const body = `["${'y'.repeat(77)}😀"]`;
  input.listeners('data').forEach((l) => (l as (c: Buffer) => void)(frame(body)));
  assert.equal(errors.length, 1);
  assert.ok(!/\\ud8/i.test(errors[0]), errors[0]);
  assert.ok(errors[0].includes(JSON.stringify(body.slice(0, 79))), errors[0]);
});

test('a body longer than the longest string is reported and skipped, not retried on every chunk after it', () => {
  // Node cannot make a string of more than 2^29 - 24 characters; before, the reader threw with its state unchanged, and every later
  // chunk joined the 512 MB again and threw again: nothing after it was read.
  const length = constants.MAX_STRING_LENGTH + 1;
  const r = read([Buffer.from(`Content-Length: ${length}\r\n\r\n`), Buffer.alloc(length, 0x20), frame('{"jsonrpc":"2.0","method":"next"}')]);
  assert.equal(r.errors.length, 1, r.errors.join('; '));
  assert.match(r.errors[0], new RegExp(`body of ${length} bytes cannot be decoded`));
  assert.deepEqual(r.messages, [{ jsonrpc: '2.0', method: 'next' }]);
});

test('a header that never ends is reported once it passes 8 KB, not buffered forever', () => {
  const r = read([Buffer.from(`Content-Length: 2\r\nX-Junk: ${'j'.repeat(9000)}`)]);
  assert.equal(r.errors.length, 1);
  assert.match(r.errors[0], /No blank line after 8192 bytes of header/);
  const after = read([Buffer.from('j'.repeat(9000)), frame('{"jsonrpc":"2.0","method":"next"}')]);
  assert.equal(after.errors.length, 1);
  assert.deepEqual(after.messages, [{ jsonrpc: '2.0', method: 'next' }], 'the junk is dropped; the message after it is read');
});

test('the reader notes a shutdown request (the exit code when stdin ends)', () => {
  assert.equal(read([stream]).reader.shutdownRequested, false);
  assert.equal(read([stream, frame('{"jsonrpc":"2.0","id":9,"method":"shutdown"}')]).reader.shutdownRequested, true);
});

test('the writer sends each message in one write, its Content-Length the UTF-8 byte count, and the reader reads it back', async () => {
  const writes: Buffer[] = [];
  const out = new Writable({ write(chunk: Buffer, _enc, cb) { writes.push(Buffer.from(chunk)); cb(); } });
  const writer = new StdioMessageWriter(out);
  for (const m of messages) await writer.write(m as never);
  assert.equal(writes.length, messages.length);
  for (const w of writes) {
    const [header, body] = [w.toString('latin1', 0, w.indexOf('\r\n\r\n')), w.subarray(w.indexOf('\r\n\r\n') + 4)];
    assert.equal(header, `Content-Length: ${body.length}`);
  }
  assert.deepEqual(read(writes).messages, messages);
});

test('the writer sends a lone surrogate as U+FFFD: clients decoding into UTF-8 strings (serde_json: Helix, Zed) refuse the escape', async () => {
  // JSON.stringify writes a lone surrogate as the escape \ud83d; serde_json fails the whole message on it ("lone leading surrogate
  // in hex escape", serde-rs/json#495 and #827). An outline name cut at 60 code units inside an emoji made one. A pair, and an
  // escaped backslash followed by "ud83d" (text, not an escape), are sent as they are.
  const writes: Buffer[] = [];
  const out = new Writable({ write(chunk: Buffer, _enc, cb) { writes.push(Buffer.from(chunk)); cb(); } });
  const writer = new StdioMessageWriter(out);
  const lone = { high: String.fromCharCode(0xd83d), low: String.fromCharCode(0xdc00) };
  const item = { name: `0: ${lone.high}`, detail: 'x\\ud83d', pair: '😀', low: `${lone.low}a${lone.high}${lone.high}\\${lone.high}` };
  await writer.write({ jsonrpc: '2.0', id: 1, result: [item] } as never);
  const w = writes[0];
  const body = w.subarray(w.indexOf('\r\n\r\n') + 4).toString('utf8');
  assert.ok(!/(^|[^\\])(\\\\)*\\ud[89a-f]/i.test(body), body);
  assert.equal(w.toString('latin1', 0, w.indexOf('\r\n\r\n')), `Content-Length: ${Buffer.byteLength(body, 'utf8')}`);
  const [back] = read(writes).messages as { result: typeof item[] }[];
  assert.deepEqual(back.result[0], { name: '0: \ufffd', detail: 'x\\ud83d', pair: '😀', low: '\ufffda\ufffd\ufffd\\\ufffd' });
});

test('the writer reports a message it cannot encode and a failed write, naming the message', async () => {
  const errors: string[] = [];
  const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'loop' };
  cyclic.params = cyclic;
  const okOut = new Writable({ write(_c, _e, cb) { cb(); } });
  const w1 = new StdioMessageWriter(okOut);
  w1.onError(([e, m]) => errors.push(`${e.message} / ${(m as { method?: string })?.method}`));
  await assert.rejects(w1.write(cyclic as never), /circular/);
  const badOut = new Writable({ write(_c, _e, cb) { cb(new Error('EPIPE: the client is gone')); } });
  badOut.on('error', () => { /* the writer reports it */ });
  const w2 = new StdioMessageWriter(badOut);
  w2.onError(([e, m]) => errors.push(`${e.message} / ${(m as { method?: string })?.method}`));
  await assert.rejects(w2.write({ jsonrpc: '2.0', method: 'gone' } as never), /EPIPE/);
  assert.ok(errors.some((e) => /circular.* \/ loop$/s.test(e)), errors.join('\n'));
  assert.ok(errors.some((e) => /EPIPE.* \/ gone$/.test(e)), errors.join('\n'));
});

/**
 * Runs body with wireStdioProcess on a fake connection (its console lines collected as "kind: text"), fake stdin and stdout, and
 * process.exit recorded instead of ending the test; everything it replaced is put back afterwards.
 */
function wired(body: (w: { reader: StdioMessageReader; input: PassThrough; output: PassThrough; exits: (number | undefined)[] }) => void): string[] {
  const saved = { ...console };
  const exit = process.exit;
  const logged: string[] = [];
  const exits: (number | undefined)[] = [];
  const sink = (kind: string) => (t: string) => logged.push(`${kind}: ${t}`);
  const connection = { console: { log: sink('log'), info: sink('info'), warn: sink('warn'), error: sink('error') } } as unknown as Connection;
  const input = new PassThrough();
  const output = new PassThrough();
  const reader = new StdioMessageReader(input);
  try {
    process.exit = ((code?: number) => { exits.push(code); }) as typeof process.exit;
    wireStdioProcess(connection, input, reader, output);
    body({ reader, input, output, exits });
  } finally {
    process.exit = exit;
    Object.assign(console, saved);
    input.removeAllListeners();
    output.removeAllListeners();
  }
  return logged;
}

test('console output goes to the client\'s log, not into the protocol stream', () => {
  const logged = wired(() => {
    console.log('checked %d documents', 3);
    console.warn({ a: 1 });
    console.error('bad');
  });
  assert.deepEqual(logged, ['log: checked 3 documents', 'warn: { a: 1 }', 'error: bad']);
});

test('console.dir and console.dirxml, which Node writes straight to stdout, go to the client\'s log too; console.trace with its stack', () => {
  const stdoutWrite = process.stdout.write;
  const stdout: string[] = [];
  const logged = wired(() => {
    process.stdout.write = ((chunk: string) => { stdout.push(String(chunk)); return true; }) as typeof process.stdout.write;
    try {
      console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
      console.dirxml('x', 2);
      console.trace('here');
    } finally {
      process.stdout.write = stdoutWrite;
    }
  });
  assert.deepEqual(stdout, [], 'nothing written to stdout');
  assert.deepEqual(logged.slice(0, 2), ['log: { a: [Object] }', 'log: x 2']);
  assert.match(logged[2], /^log: Trace: here\n\s+at /);
});

test('what the reader reports reaches the client\'s log (neither vscode-jsonrpc nor vscode-languageserver listens to read errors)', () => {
  const logged = wired(({ reader, input }) => {
    reader.listen(() => {});
    input.listeners('data').forEach((l) => (l as (c: Buffer) => void)(frame('{}', 'Content-Length: twelve')));
  });
  assert.equal(logged.length, 1);
  assert.match(logged[0], /^error: .*Content-Length is not a number: "twelve"/);
});

test('the process ends when stdout closes (the client is gone: EPIPE), as when stdin ends, not on the next send through the closed connection', () => {
  let codes: (number | undefined)[] = [];
  wired(({ reader, input, output, exits }) => {
    output.emit('close');
    reader.shutdownRequested = true;
    output.emit('close');
    input.emit('end');
    codes = exits;
  });
  assert.deepEqual(codes, [1, 0, 0]);
});
