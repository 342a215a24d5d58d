// Semantic tokens at the LSP level, over the real server (bench/lspClient.ts): the legend in initialize, the token array decoded
// back into (text, type) pairs for a ruleset's expressions, a job's filter string and a filter file, through JSON escapes and over
// several lines; none for a JSON-RPC batch; none announced to a client that colours with the grammars (the VS Code extension).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver-protocol';
import { startServer, type ServerHandle } from '../../../bench/lspClient';
import { serverJs } from '../reliability/soak';
import { encodeTokens } from '../../../server/src/lsp/semanticTokens';
import { expressionTokens, semanticTokenSteps } from '../../../server/src/core/semanticTokens';
import { parseDocument } from '../../../server/src/core/parse';
import { JsonStringMap } from '../../../server/src/core/jsonString';

type Decoded = [text: string, type: string, ...modifiers: string[]];

function decode(text: string, legend: SemanticTokensLegend, data: readonly number[]): Decoded[] {
  assert.equal(data.length % 5, 0);
  const doc = TextDocument.create('file:///x', 'json', 1, text);
  const out: Decoded[] = [];
  let line = 0;
  let char = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dl, dc, len, type, bits] = data.slice(i, i + 5);
    line += dl;
    char = dl === 0 ? char + dc : dc;
    const mods = legend.tokenModifiers.filter((_, k) => bits & (1 << k));
    out.push([doc.getText({ start: { line, character: char }, end: { line, character: char + len } }), legend.tokenTypes[type], ...mods]);
  }
  return out;
}

const SEMANTIC_CLIENT = { textDocument: { semanticTokens: { requests: { full: true, range: true }, tokenTypes: [], tokenModifiers: [], formats: ['relative'] } } };

async function withServer(fn: (s: ServerHandle, legend: SemanticTokensLegend) => Promise<void>, initializationOptions?: object, capabilities: Record<string, unknown> = SEMANTIC_CLIENT): Promise<void> {
  const server = await startServer(serverJs(), { capabilities, initializationOptions });
  try {
    const provider = server.serverCapabilities.semanticTokensProvider as { legend: SemanticTokensLegend } | undefined;
    await fn(server, provider?.legend ?? { tokenTypes: [], tokenModifiers: [] });
  } finally {
    await server.stop();
  }
}

let version = 0;
async function tokensOf(s: ServerHandle, legend: SemanticTokensLegend, name: string, text: string, range?: object): Promise<Decoded[]> {
  const uri = `file:///w/${++version}-${name}`;
  await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'json', version: 1, text } });
  const r: SemanticTokens = range
    ? await s.conn.sendRequest('textDocument/semanticTokens/range', { textDocument: { uri }, range })
    : await s.conn.sendRequest('textDocument/semanticTokens/full', { textDocument: { uri } });
  return decode(text, legend, r.data);
}

const RULESET = JSON.stringify({
  name: 'zone', kind: 'zone', phase: 'http_request_firewall_custom',
  rules: [
    { action: 'block', expression: 'http.request.uri.query contains "a\\"b" and lower(http.host) eq "x"' },
    { action: 'log', expression: '(ip.src in {192.0.2.0/24 2001:db8::/32})\nor\nhttp.request.uri.path matches "^/wp-" and ip.src in $office_ips\r\nand cf.waf.score lt 20 && not ssl' },
  ],
}, null, 2).replace(/\n/g, '\r\n');

test('semantic tokens: the legend is announced (standard types), full and range, to a client other than the VS Code extension', { timeout: 60_000 }, async () => {
  await withServer(async (s, legend) => {
    const p = s.serverCapabilities.semanticTokensProvider as { full?: unknown; range?: unknown } | undefined;
    assert.ok(p, 'semanticTokensProvider');
    assert.deepEqual(p.full, true);
    assert.equal(p.range, true);
    for (const t of ['keyword', 'operator', 'function', 'variable', 'string', 'regexp', 'number']) assert.ok(legend.tokenTypes.includes(t), t);
  });
  await withServer(async (s) => {
    assert.equal(s.serverCapabilities.semanticTokensProvider, undefined, 'the VS Code extension colours with its grammars');
  }, { semanticTokens: false });
});

test('semantic tokens: not announced to a client that does not say it takes them (no textDocument.semanticTokens, or no relative format)', { timeout: 60_000 }, async () => {
  // LSP 3.17: the server capability answers the client's; eglot 1.9, Helix and Neovim 0.7/0.8 send none
  await withServer(async (s) => {
    assert.equal(s.serverCapabilities.semanticTokensProvider, undefined, 'no semanticTokens client capability');
  }, undefined, {});
  await withServer(async (s) => {
    assert.equal(s.serverCapabilities.semanticTokensProvider, undefined, 'formats without "relative"');
  }, undefined, { textDocument: { semanticTokens: { requests: { full: true }, tokenTypes: [], tokenModifiers: [], formats: [] } } });
});

test('semantic tokens: a ruleset\'s expressions, at their offsets through JSON escapes, on CRLF lines', { timeout: 60_000 }, async () => {
  await withServer(async (s, legend) => {
    const got = await tokensOf(s, legend, 'r.ruleset.json', RULESET);
    assert.deepEqual(got, [
      ['http.request.uri.query', 'variable'], ['contains', 'operator'], ['\\"a\\\\\\"b\\"', 'string'], ['and', 'keyword'],
      ['lower', 'function', 'defaultLibrary'], ['http.host', 'variable'], ['eq', 'operator'], ['\\"x\\"', 'string'],
      ['ip.src', 'variable'], ['in', 'operator'], ['192.0.2.0/24', 'number'], ['2001:db8::/32', 'number'],
      ['or', 'keyword'],
      ['http.request.uri.path', 'variable'], ['matches', 'operator'], ['\\"^/wp-\\"', 'regexp'], ['and', 'keyword'],
      ['ip.src', 'variable'], ['in', 'operator'], ['$office_ips', 'variable', 'readonly'],
      ['and', 'keyword'], ['cf.waf.score', 'variable'], ['lt', 'operator'], ['20', 'number'], ['&&', 'operator'], ['not', 'keyword'], ['ssl', 'variable'],
    ]);
    // No token for plain JSON: the keys, "block", the names
    assert.ok(!got.some(([t]) => t.includes('action') || t === '"block"'));
  });
});

test('semantic tokens: /range gives the expressions that reach into the range only', { timeout: 60_000 }, async () => {
  await withServer(async (s, legend) => {
    const doc = TextDocument.create('file:///x', 'json', 1, RULESET);
    const line = doc.positionAt(RULESET.indexOf('lower(')).line;
    const got = await tokensOf(s, legend, 'r.ruleset.json', RULESET, { start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
    assert.deepEqual(got.map(([t]) => t), ['http.request.uri.query', 'contains', '\\"a\\\\\\"b\\"', 'and', 'lower', 'http.host', 'eq', '\\"x\\"']);
  });
});

test('semantic tokens: a job\'s filter string is read as the filter it holds; a filter file gets its own accents only', { timeout: 60_000 }, async () => {
  await withServer(async (s, legend) => {
    const filter = { where: { and: [{ key: 'ClientCountry', operator: 'eq', value: 'ca' }, { key: 'EdgeResponseStatus', operator: 'geq', value: 500 }] } };
    const job = JSON.stringify({ name: 'j', dataset: 'http_requests', destination_conf: 's3://b/p?region=us-east-1', filter: JSON.stringify(filter) }, null, 2);
    assert.deepEqual(await tokensOf(s, legend, 'j.logpush.json', job), [
      ['where', 'keyword'], ['and', 'keyword'],
      ['key', 'property'], ['ClientCountry', 'variable'], ['operator', 'property'], ['eq', 'operator'], ['value', 'property'],
      ['key', 'property'], ['EdgeResponseStatus', 'variable'], ['operator', 'property'], ['geq', 'operator'], ['value', 'property'],
    ]);
    // A filter file: JSON's own colours for the member names; the logical keys, the field and the operator stand out
    assert.deepEqual(await tokensOf(s, legend, 'f.filter.json', JSON.stringify(filter, null, 2)), [
      ['where', 'keyword'], ['and', 'keyword'], ['ClientCountry', 'variable'], ['eq', 'operator'], ['EdgeResponseStatus', 'variable'], ['geq', 'operator'],
    ]);
    // While typing: the filter string and the field in it not closed yet; the field is the word typed so far
    assert.deepEqual(await tokensOf(s, legend, 'open.logpush.json', '{"filter": "{\\"where\\": {\\"key\\": \\"Cl'),
      [['where', 'keyword'], ['key', 'property'], ['Cl', 'variable']]);
    // A JSON-RPC request has no embedded language
    assert.deepEqual(await tokensOf(s, legend, 'b.rpc.json', '[{"jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 1}]'), []);
  });
});

test('semantic tokens: a token that crosses a line end (a string left open) is cut at it, as LSP tokens are single-line', () => {
  const doc = TextDocument.create('file:///x', 'json', 1, 'ab\r\ncd\nef');
  const data = encodeTokens(doc, [{ offset: 1, length: 7, type: 'string' }, { offset: 8, length: 1, type: 'number' }]);
  assert.deepEqual(decode(doc.getText(), { tokenTypes: ['keyword', 'operator', 'function', 'variable', 'property', 'string', 'regexp', 'number'], tokenModifiers: [] }, data),
    [['b', 'string'], ['cd', 'string'], ['e', 'string'], ['f', 'number']]);
});

test('semantic tokens: an unquoted byte string is one number token where the parser reads one, not the lexer\'s pieces (a field, two integers)', () => {
  const tokensOf = (expr: string) => {
    const src = JSON.stringify(expr);
    return expressionTokens(new JsonStringMap(src, 0, src.length)).map((t) => [src.substr(t.offset, t.length), t.type]);
  };
  // The parser reads a7.5a and eb:df (two byte strings) and 01:02; the lexer had a7.5aeb (a field), df (a field), 01 and 02
  assert.deepEqual(tokensOf('http.request.body.raw in {a7.5aeb:df 01:02}'), [
    ['http.request.body.raw', 'variable'], ['in', 'operator'], ['a7.5a', 'number'], ['eb:df', 'number'], ['01:02', 'number'],
  ]);
  assert.deepEqual(tokensOf('http.request.body.raw eq 2f:61:62 and ssl'), [
    ['http.request.body.raw', 'variable'], ['eq', 'operator'], ['2f:61:62', 'number'], ['and', 'keyword'], ['ssl', 'variable'],
  ]);
});

test('semantic tokens: an operator word the parser reads off the front of a longer word is coloured as the operator, the rest as what it is', () => {
  const tokensOf = (expr: string) => {
    const src = JSON.stringify(expr);
    return expressionTokens(new JsonStringMap(src, 0, src.length)).map((t) => [src.substr(t.offset, t.length), t.type]);
  };
  // the parser reads notssl as `not ssl`, andssl as `and ssl`, eq80 as `eq 80` (ruleset/expr-joined-word)
  assert.deepEqual(tokensOf('notssl'), [['not', 'keyword'], ['ssl', 'variable']]);
  assert.deepEqual(tokensOf('ssl andssl'), [['ssl', 'variable'], ['and', 'keyword'], ['ssl', 'variable']]);
  assert.deepEqual(tokensOf('cf.edge.server_port eq80 orssl'), [
    ['cf.edge.server_port', 'variable'], ['eq', 'operator'], ['80', 'number'], ['or', 'keyword'], ['ssl', 'variable'],
  ]);
  // nested (not, then notssl again) and followed by a regex: matches"…" stays a regexp after the split
  assert.deepEqual(tokensOf('notnotssl'), [['not', 'keyword'], ['not', 'keyword'], ['ssl', 'variable']]);
  assert.deepEqual(tokensOf('http.host matchesr"^a" and http.host containsx'), [
    ['http.host', 'variable'], ['matches', 'operator'], ['r\\"^a\\"', 'regexp'], ['and', 'keyword'], ['http.host', 'variable'], ['contains', 'operator'], ['x', 'variable'],
  ]);
  // names that only start like an operator are not split: len(), wildcard_replace(), and a word after a Boolean (no operator there)
  assert.deepEqual(tokensOf('len(http.host) gt 3'), [['len', 'function'], ['http.host', 'variable'], ['gt', 'operator'], ['3', 'number']]);
  assert.deepEqual(tokensOf('ssl eq80'), [['ssl', 'variable'], ['eq80', 'variable']]);
});

test('semantic tokens: a field or a call on the right of a comparison is coloured as a field or a function', () => {
  const tokensOf = (expr: string) => {
    const src = JSON.stringify(expr);
    return expressionTokens(new JsonStringMap(src, 0, src.length)).map((t) => [src.substr(t.offset, t.length), t.type]);
  };
  assert.deepEqual(tokensOf('http.request.uri.path ne raw.http.request.uri.path'), [
    ['http.request.uri.path', 'variable'], ['ne', 'operator'], ['raw.http.request.uri.path', 'variable'],
  ]);
  assert.deepEqual(tokensOf('len(http.host) >= len(http.request.headers["host"][0])'), [
    ['len', 'function'], ['http.host', 'variable'], ['>=', 'operator'], ['len', 'function'], ['http.request.headers', 'variable'], ['\\"host\\"', 'string'], ['0', 'number'],
  ]);
});

test('semantic tokens read fields in the ruleset\'s phase: after a Network Firewall Boolean field no operator word is split, as the parser reads it there', () => {
  const tokensOf = (expr: string, phase?: string) => {
    const src = JSON.stringify(expr);
    return expressionTokens(new JsonStringMap(src, 0, src.length), phase).map((t) => [src.substr(t.offset, t.length), t.type]);
  };
  // tcp.flags.syn is a Boolean of the Network Firewall's catalogue: the parser takes no operator after it there, so eq80 is one word
  assert.deepEqual(tokensOf('tcp.flags.syn eq80', 'magic_transit'), [['tcp.flags.syn', 'variable'], ['eq80', 'variable']]);
  // In an HTTP phase the field is unknown, and the parser reads eq80 as `eq 80`
  assert.deepEqual(tokensOf('tcp.flags.syn eq80', 'http_request_firewall_custom'), [['tcp.flags.syn', 'variable'], ['eq', 'operator'], ['80', 'number']]);
  // Through the document: the body's phase is read
  const text = JSON.stringify({ name: 'n', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'tcp.flags.syn eq80' }] });
  const doc = parseDocument(text);
  const types = [...semanticTokenSteps('waf-ruleset', doc)].flat().map((t) => [text.substr(t.offset, t.length), t.type]);
  assert.deepEqual(types, [['tcp.flags.syn', 'variable'], ['eq80', 'variable']]);
});
