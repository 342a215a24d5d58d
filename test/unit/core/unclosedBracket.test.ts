// A closing bracket or brace left out: diagnosed where the container should have closed (the first later line indented no deeper
// than its opener's line), naming the opener and its line, with related information at the opener and a fix that inserts the
// closer(s) there; the schema and the rules check the text that fix makes, so a member read into the wrong object is not reported.
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createScanner, SyntaxKind } from 'jsonc-parser';
import { validateText } from '../../../server/src/core/validate';
import { applyEdits } from '../../../server/src/core/text';
import { fixAll } from '../../../server/src/core/fixAll';
import type { DocKind, Problem } from '../../../server/src/core/types';
import { brackets, deletions, lineOf, typedTwice, valueOf } from '../support/bracketDeletions';
import { validFixtures } from '../support/fixtures';

function brief(text: string, ps: Problem[]) {
  return ps.map((p) => ({ code: p.code, line: lineOf(text, p.offset), at: text.slice(p.offset, p.offset + p.length), message: p.message,
    related: p.related?.map((r) => [lineOf(text, r.offset), text.slice(r.offset, r.offset + r.length)]), fixes: p.fixes?.map((f) => f.title) }));
}

/** A text's tokens, space and comments left out. */
function tokens(text: string): string {
  const out: string[] = [];
  const scanner = createScanner(text, true);
  for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) out.push(scanner.getTokenValue());
  return out.join('\u0000');
}

/** The text the problem's only fix makes. */
function fixed(text: string, p: Problem): string {
  assert.equal(p.fixes?.length, 1, `one fix: ${JSON.stringify(p.fixes)}`);
  return applyEdits(text, p.fixes![0].edits);
}

test('a "}" where the "]" of an array was expected (the "]" of "and" left out): named with its line, the fix inserts "]"', () => {
  const text = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n  }\n}\n';
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unclosed-bracket', line: 6, at: '}', message: 'The array "and" opened on line 3 is not closed: expected "]" before "}".',
    related: [[3, '[']], fixes: ['Insert "]" to close the array "and"'],
  }]);
  const meant = fixed(text, ps[0]);
  assert.equal(meant, '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n');
  assert.deepEqual(validateText(meant, 'logpush-filter'), []);
});

test('a job whose "output_options" lost its "}": the next member, indented as the job\'s, is not called unknown in it', () => {
  const text = '{\n  "name": "x",\n  "dataset": "http_requests",\n  "output_options": {\n    "field_names": ["ClientIP", "RayID"],\n  "destination_conf": "s3://b/l?region=us-east-1"\n}\n';
  const ps = validateText(text, 'logpush-job');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unclosed-bracket', line: 5, at: ',', message: 'The object "output_options" opened on line 4 is not closed: expected "}" before ",".',
    related: [[4, '{']], fixes: ['Insert "}" to close the object "output_options"'],
  }]);
  const meant = fixed(text, ps[0]);
  assert.equal(meant, '{\n  "name": "x",\n  "dataset": "http_requests",\n  "output_options": {\n    "field_names": ["ClientIP", "RayID"]\n  },\n  "destination_conf": "s3://b/l?region=us-east-1"\n}\n');
  assert.deepEqual(JSON.parse(meant).destination_conf, 's3://b/l?region=us-east-1');
});

test('a batch whose request lost "]}" after its params: the next request is not read as a param', () => {
  const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x0000000000000000000000000000000000000001", \n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}\n]\n';
  const ps = validateText(text, 'jsonrpc-request');
  const syntax = ps.filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, syntax), [{
    code: 'syntax/unclosed-bracket', line: 2, at: ',', message: 'The array "params" opened on line 2 is not closed, nor the object around it: expected "]}" before ",".',
    related: [[2, '['], [2, '{']], fixes: ['Insert "]}" to close the array "params" and the object around it'],
  }]);
  const meant = fixed(text, syntax[0]);
  assert.equal(meant, '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x0000000000000000000000000000000000000001"]}, \n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}\n]\n');
  // What the rules say is said of the request as meant (its block parameter is missing), not of the next request read as a param.
  assert.ok(ps.every((p) => lineOf(text, p.offset) === 2), JSON.stringify(brief(text, ps)));
  assert.ok(!ps.some((p) => /not an object/.test(p.message)), JSON.stringify(brief(text, ps)));
});

test('no clear answer from the indentation (all on one line): today\'s wording, no fix', () => {
  // (A closer of the wrong kind says which container is open: syn9's tests below.) Two objects, either of which lost its "}".
  const oneLine = '[{"jsonrpc": "2.0", "method": "eth_chainId", "params": {"x": 1, "id": 2}]';
  const ps = validateText(oneLine, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.message, p.fixes]), [['syntax/invalid-json', 'Expected a comma before "]".', undefined]]);
  // At the end of one line, a container of the other's kind closed inside the one left open, one of its own kind as the inner one
  // (either may lose its closer: `[[1], 2]` or `[[1, 2]]`), or one of its kind closed with more after it (syn12).
  for (const [text, kind] of [['[[1, 2\n', 'jsonrpc-request'], ['{"a": {"b": 1, "c": 2\n', 'logpush-filter'], ['{"a": {"b": 1, "c": 2}, "d": 3\n', 'logpush-filter']] as const) {
    assert.deepEqual(validateText(text, kind).filter((p) => p.code.startsWith('syntax/')).map((p) => [p.code, p.fixes]), [['syntax/invalid-json', undefined]], text);
  }
});

test('a container opened and closed on one line, its closer left out where the tokens say where it ended: named, the fix inserts it there (syn12)', () => {
  const cases: [string, DocKind, string, string][] = [
    // A member of the request in its params: the "]" goes before the comma before it.
    ['[\n  {"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0x1", "latest", "id": 1},\n  {"jsonrpc": "2.0", "method": "eth_chainId", "id": 2}\n]\n', 'jsonrpc-request',
      'The array "params" opened on line 2 is not closed: expected "]" before ",".', '["0x1", "latest"], "id"'],
    // An item of the params in the call object: a colon expected after "latest".
    ['[\n  {"jsonrpc": "2.0", "method": "eth_call", "params": [{"to": "0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "input": "0x70a08231", "latest"], "id": 1}\n]\n', 'jsonrpc-request',
      'The object opened on line 2 is not closed: expected "}" before ",".', '"0x70a08231"}, "latest"]'],
    // A comma right after the opener.
    ['[\n  {"jsonrpc": "2.0", "method": "eth_chainId", "params": [, "id": 1},\n  {"jsonrpc": "2.0", "method": "eth_chainId", "id": 2}\n]\n', 'jsonrpc-request',
      'The array "params" opened on line 2 is not closed: expected "]" before ",".', '"params": [], "id"'],
    // An object after a comma in an object, all on one line (a minified filter).
    ['{"where": {"and": [{"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}, {"key": "ClientIP", "operator": "eq", "value": "1.2.3.5", {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}]}}\n', 'logpush-filter',
      'The object opened on line 1 is not closed: expected "}" before ",".', '"1.2.3.5"}, {'],
    // The next line starts the next request: an object inside an array on the line is no other candidate (its "}" goes before
    // the "]"), and one of its kind with nothing after it gives the same value wherever the "}" goes.
    ['[\n  {"jsonrpc": "2.0", "method": "eth_getLogs", "params": [{"fromBlock": "0x1"}], "id": 1,\n  {"jsonrpc": "2.0", "method": "eth_chainId", "id": 2}\n]\n', 'jsonrpc-request',
      'The object opened on line 2 is not closed: expected "}" before ",".', '"id": 1},'],
    ['{\n  "rules": [\n    { "action": "skip", "expression": "true", "action_parameters": { "ruleset": "current" } ,\n    { "action": "block", "expression": "true" }\n  ]\n}\n', 'waf-ruleset',
      'The object opened on line 3 is not closed: expected "}" before ",".', '"current" } },'],
    ['[\n  {"jsonrpc": "2.0", "method": "eth_mining", "params": {"x": 1}, "id": 2\n]\n', 'jsonrpc-request',
      'The object opened on line 2 is not closed: expected "}" before "]".', '"id": 2}\n]'],
    // A comma right after the opener, in an object of its kind: no container has a leading comma.
    ['{\n  "name": "x",\n  "output_options": {,\n  "dataset": "http_requests"\n}\n', 'logpush-job',
      'The object "output_options" opened on line 3 is not closed: expected "}" before ",".', '"output_options": {},'],
    // The end of a one-line document.
    ['{ "jsonrpc": "2.0", "method": "eth_chainId", "id": 1 \n', 'jsonrpc-request', 'The object opened on line 1 is not closed: expected "}" at the end of the document.', '"id": 1} \n'],
    ['{"name": "x", "output_options": {"field_names": ["ClientIP"]}', 'logpush-job', 'The object opened on line 1 is not closed: expected "}" at the end of the document.', '["ClientIP"]}}'],
  ];
  for (const [text, kind, message, mended] of cases) {
    const ps = validateText(text, kind).filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(ps.map((p) => [p.code, p.message]), [['syntax/unclosed-bracket', message]], text);
    const meant = fixed(text, ps[0]);
    assert.ok(meant.includes(mended), meant);
    JSON.parse(meant);
    assert.equal(ps[0].fixes![0].preferred, undefined);
  }
  // Two places mend it: an array of its kind inside the params (`[25], 75]`), an object of its kind with a member after the one
  // that may end it (`{"x": 1}, "id": 2}`).
  for (const text of ['[\n  {"jsonrpc": "2.0", "method": "eth_feeHistory", "params": ["0x4", "latest", [25, 75], "id": 1}\n]\n',
    '[\n  {"jsonrpc": "2.0", "method": "eth_mining", "params": {"x": 1, "id": 2}\n]\n']) {
    assert.deepEqual(validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/')).map((p) => [p.code, p.fixes]), [['syntax/invalid-json', undefined]], text);
  }
});

test('at the end of the document, every line after the opener indented deeper: the closers go at the end, each on its own line', () => {
  const text = '{\n  "name": "x",\n  "dataset": "http_requests",\n  "destination_conf": "s3://b/l?region=us-east-1",\n  "output_options": {\n    "field_names": ["ClientIP"]\n';
  const ps = validateText(text, 'logpush-job');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unclosed-bracket', line: 7, at: '', message: 'The object "output_options" opened on line 5 is not closed, nor the object around it: expected "}}" at the end of the document.',
    related: [[5, '{'], [1, '{']], fixes: ['Insert "}}" to close the object "output_options" and the object around it'],
  }]);
  assert.equal(fixed(text, ps[0]), text.trimEnd() + '\n  }\n}\n');
  // Two closers left out: both reported, the second's line as the text has it (the first's repair adds no line break).
  const two = '{\n  "a": [\n    1,\n  "b": {\n    "c": 1,\n  "d": 2\n}\n';
  assert.deepEqual(validateText(two, 'logpush-filter').filter((p) => p.code.startsWith('syntax/')).map((p) => [lineOf(two, p.offset), p.message]), [
    [3, 'The array "a" opened on line 2 is not closed: expected "]" before ",".'],
    [5, 'The object "b" opened on line 4 is not closed: expected "}" before ",".'],
  ]);
});

test('in a job\'s filter string written on several lines (\\n escapes): the line named is the filter string\'s, the related span the opener', () => {
  const filter = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n  }\n}';
  const text = JSON.stringify({ name: 'x', dataset: 'http_requests', destination_conf: 's3://b/l?region=us-east-1', filter }, null, 2);
  const ps = validateText(text, 'logpush-job').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.message, text.slice(p.related![0].offset, p.related![0].offset + 1)]),
    [['syntax/unclosed-bracket', 'The array "and" opened on line 3 of the filter string is not closed: expected "]" before "}".', '[']]);
  assert.equal(JSON.parse(JSON.parse(fixed(text, ps[0])).filter).where.and.length, 2);
});

test('a container written flat (its items at its own indentation) says nothing until its end: the "]" left out goes at the end', () => {
  const text = '[\n{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"},\n{"jsonrpc": "2.0", "id": 2, "method": "eth_chainId"},\n{"jsonrpc": "2.0", "id": 3, "method": "eth_chainId"}\n';
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.message]), [['syntax/unclosed-bracket', 'The array opened on line 1 is not closed: expected "]" at the end of the document.']]);
  assert.equal(JSON.parse(fixed(text, ps[0])).length, 3);
});

test('a CRLF document: the closer goes on a line of its own after a CRLF, not a lone LF', () => {
  const text = '{\r\n  "where": {\r\n    "and": [\r\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}\r\n  }\r\n}\r\n';
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(ps.map((p) => p.code), ['syntax/unclosed-bracket']);
  assert.equal(fixed(text, ps[0]), text.replace('"1.2.3.4"}\r\n', '"1.2.3.4"}\r\n    ]\r\n'));
  const atEnd = '[\r\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}\r\n';
  const end = validateText(atEnd, 'jsonrpc-request');
  assert.equal(fixed(atEnd, end[0]), '[\r\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}\r\n]\r\n');
});

test('a document of mixed line breaks: the line the fix breaks keeps its own break (a CRLF line gets no lone LF from an LF opener line)', () => {
  // The opener's line ends with LF (a line pasted in), the line the closer goes after with CRLF, as the rest of the document.
  const text = '{\r\n  "where": {\r\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}\r\n  }\r\n}\r\n';
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(ps.map((p) => p.code), ['syntax/unclosed-bracket']);
  assert.equal(fixed(text, ps[0]), text.replace('"1.2.3.4"}\r\n', '"1.2.3.4"}\r\n    ]\r\n'));
  // And the other way round: a CRLF opener line, the broken line and the rest LF.
  const lf = '{\n  "where": {\n    "and": [\r\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}\n  }\n}\n';
  const other = validateText(lf, 'logpush-filter');
  assert.equal(fixed(lf, other[0]), lf.replace('"1.2.3.4"}\n', '"1.2.3.4"}\n    ]\n'));
  // At the end of a CRLF document whose last line has no line break: the break before it.
  const atEnd = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"},\r\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId"}';
  const end = validateText(atEnd, 'jsonrpc-request');
  assert.equal(fixed(atEnd, end[0]), atEnd + '\r\n]');
});

test('hundreds of containers left open: the message and the fix\'s title quote the closers cut short, as any long token; the fix inserts them all', () => {
  const depth = 400;
  const text = Array.from({ length: depth }, (_, i) => ' '.repeat(i) + '[').join('\n') + '\n' + ' '.repeat(depth) + '1\n';
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => p.code), ['syntax/unclosed-bracket']);
  assert.ok(ps[0].message.length < 200, ps[0].message);
  assert.ok(ps[0].fixes![0].title.length < 200, ps[0].fixes![0].title);
  assert.match(ps[0].message, /nor the 399 containers around it/);
  let v: unknown = JSON.parse(fixed(text, ps[0]));
  for (let i = 0; i < depth - 1; i++) v = (v as unknown[])[0];
  assert.deepEqual(v, [1]);
});

test('a closer left out before a syntax error jsonc-parser meets first (a trailing comma in the next request): the problem and its fix stay where they are, not moved by that repair', () => {
  const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x0000000000000000000000000000000000000001", \n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": [],}\n]\n';
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.line, p.at]), [['syntax/unclosed-bracket', 2, ','], ['syntax/trailing-comma', 3, ',']]);
  const closer = ps.find((p) => p.code === 'syntax/unclosed-bracket')!;
  assert.equal(fixed(text, closer), text.replace('0001", \n', '0001"]}, \n'));
});

test('a closer left out and another syntax problem (a trailing comma): the schema and the rules still check the text as meant, the next request not read as a param', () => {
  const text = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x0000000000000000000000000000000000000001", \n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": [],}\n]\n';
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.line, p.at]), [['syntax/unclosed-bracket', 2, ','], ['syntax/trailing-comma', 3, ',']]);
  // What they say of the text as meant still counts, moved back: a method unknown in the second request.
  const unknown = text.replace('"eth_chainId"', '"eth_nope"');
  assert.deepEqual(validateText(unknown, 'jsonrpc-request').map((p) => [p.code, lineOf(unknown, p.offset), unknown.slice(p.offset, p.offset + p.length)]),
    [['syntax/unclosed-bracket', 2, ','], ['jsonrpc/unknown-method', 3, '"eth_nope"'], ['syntax/trailing-comma', 3, ',']]);
});

test('each closing bracket or brace of the valid fixtures left out: one syntax problem, no cascade; named and mended where the indentation says', () => {
  let documents = 0;
  let named = 0;
  let restored = 0;
  const cascades: string[] = [];
  const wrong: string[] = [];
  const badFixes: string[] = [];
  const unnamed: string[] = [];
  for (const d of deletions((b) => !b.opens)) {
    documents++;
    const { at, opener } = { at: d.bracket.at, opener: d.bracket.opener! };
    if (d.syntax.length !== 1 + d.ownSyntax) cascades.push(`${d.where}: ${JSON.stringify(brief(d.broken, d.syntax))}`);
    const p = d.syntax.find((q) => q.code === 'syntax/unclosed-bracket') ?? d.syntax[0];
    if (p?.code !== 'syntax/unclosed-bracket') { unnamed.push(d.where); continue; }
    named++;
    // The opener named is one whose closer was left out: the one deleted, or (where indentation says so) one inside it, or one
    // whose closer's deletion gives the same tokens (`{ "ruleset": "current" } }` on one line: either "}" of the two; syn12).
    const named0 = p.related![0].offset;
    const itsCloser = brackets(d.text).find((b) => b.opener === named0)?.at;
    const same = itsCloser !== undefined && tokens(d.text.slice(0, itsCloser) + d.text.slice(itsCloser + 1)) === tokens(d.broken);
    if ((named0 < opener || named0 > at) && !same) wrong.push(`${d.where}: names line ${lineOf(d.broken, named0)}`);
    // The schema and the rules say of the text as meant what they say of the fixture.
    const mended = d.mend(p);
    if (mended === 'not JSON') badFixes.push(`${d.where}: not JSON`);
    else if (mended === 'restored') restored++;
    if (mended === 'restored' && d.extra.length) cascades.push(`${d.where}: ${d.extra.join('; ')}`);
  }
  assert.ok(documents > 1000, `${documents} documents`);
  console.log(`unclosed brackets: ${documents} documents, ${named} named as such (${(100 * named / documents).toFixed(1)}%), ${restored} restored to the fixture's value by the fix (${(100 * restored / documents).toFixed(1)}%)`);
  // syn8: 1401 of 1688 named and mended (83.0%), every fix giving back the fixture's value; the rest are closers of containers
  // opened and closed on one line (where the indentation says nothing) and the last closer of a one-line document.
  // syn9: 1442 (85.4%): a closer of the other kind after the one left out on its line says which container is open.
  // syn12: 1672 (98.9%): a container opened and closed on one line, where the tokens at the error or the line's end say where.
  // The closers left out whose opener is not named (1683 of 1703 are, in 2026-11-28's fixtures), held by name rather than by count:
  // a fixture added or changed moves the counts, and only a bracket it does not name belongs here (look at it first). These are
  // closers of containers opened and closed on one line whose next token fits either reading, and a one-line document's last.
  assert.deepEqual(unnamed, [
    'jsonrpc-request/limit-feehistory.json at 4',
    'jsonrpc-request/limit-feehistory.json at 4',
    'jsonrpc-request/method-eth_feeHistory.json at 2',
    'jsonrpc-request/method-eth_feeHistory.json at 2',
    'jsonrpc-request/method-eth_feeHistory.json at 3',
    'jsonrpc-request/method-eth_feeHistory.json at 3',
    'jsonrpc-request/method-eth_getLogs.json at 2',
    'jsonrpc-request/method-eth_getLogs.json at 2',
    'jsonrpc-request/method-eth_getProof.json at 2',
    'jsonrpc-request/method-eth_getProof.json at 2',
    'jsonrpc-request/method-eth_mining.json at 3',
    'jsonrpc-request/params-object.json at 1',
    'waf-ruleset/kind-phase.json at 9',
    'waf-ruleset/kind-phase.json at 9',
    'waf-ruleset/schema-shapes.json at 6',
    'waf-ruleset/schema-shapes.json at 6',
    'waf-ruleset/schema-shapes.json at 6',
    'waf-ruleset/schema-shapes.json at 8',
    'waf-ruleset/schema-shapes.json at 8',
    'waf-ruleset/schema-shapes.json at 8',
  ]);
  assert.equal(restored, named, 'every fix offered gives back the fixture\'s value');
  assert.deepEqual({ cascades: cascades.length, wrong: wrong.length, badFixes: badFixes.length }, { cascades: 0, wrong: 0, badFixes: 0 },
    [...cascades.slice(0, 10), ...wrong.slice(0, 10), ...badFixes.slice(0, 10)].join('\n'));
});

test('after an earlier repair (a word, a missing colon), the openers of containers left open at the end are where they are written (the stress fuzz: related spans at -1 and -2)', () => {
  const cases: [string, DocKind][] = [
    ['{\n  "where": {\n    "and":N', 'logpush-filter'],
    ['{\n  "where":""ClientCountry eq us"\n', 'logpush-filter'],
    ['{\n  "name": "example.com",\n  "dataset": "http_requests",\n  "enabled": t', 'logpush-job'],
    ['{\n  "name""example.com"', 'logpush-job'],
    ['{\n  "jsonrpc":j', 'jsonrpc-request'],
    ['{\n "\\u0000":d', 'waf-ruleset'],
    // syn9's npm run stress (seed 1001526748): a word quoted by the repair before, B's first token: its length was the quoted
    // word's, past the end of the text.
    ['{\n  "name": "default",\n  "phase": "http_request_late_transform",\n  "rules": [\n    {\n      "a      "action": "rewrite",\n      "expression": "true",\n      "description": "to_string: argument types as its signature takes them (in a rewrite expression, the only place it is available)",\n      "action_parameters": {\n header', 'waf-ruleset'],
  ];
  for (const [text, kind] of cases) {
    const ps = validateText(text, kind);
    const unclosed = ps.filter((p) => p.code === 'syntax/unclosed-bracket');
    for (const p of ps) {
      const spans = [p, ...(p.related ?? []), ...(p.fixes ?? []).flatMap((f) => f.edits)];
      for (const s of spans) assert.ok(s.offset >= 0 && s.offset + s.length <= text.length, `${JSON.stringify(text)}: ${p.code} span ${s.offset}+${s.length}`);
    }
    for (const p of unclosed) {
      for (const r of p.related ?? []) assert.match(text[r.offset], /[[{]/, `${JSON.stringify(text)}: the opener at ${r.offset}`);
    }
  }
});

// syn9: the cases left by syn8 and rv13.

test('a closer of the wrong kind where a value goes ("params": [} in a batch): the "]" left out before it, named there, the next request not read as a param', () => {
  const text = '[\n  {"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params": [},\n  {"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]}\n]\n';
  const ps = validateText(text, 'jsonrpc-request');
  const syntax = ps.filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, syntax), [{
    code: 'syntax/unclosed-bracket', line: 2, at: '}', message: 'The array "params" opened on line 2 is not closed: expected "]" before "}".',
    related: [[2, '[']], fixes: ['Insert "]" to close the array "params"'],
  }]);
  assert.equal(fixed(text, syntax[0]), text.replace('[},', '[]},'));
  // What the rules say is said of request 1 as meant (its params are empty), nothing of request 2 read into them.
  assert.ok(ps.every((p) => lineOf(text, p.offset) === 2), JSON.stringify(brief(text, ps)));
  assert.ok(!ps.some((p) => /too many|not an object/.test(p.message)), JSON.stringify(brief(text, ps)));
  // One request on one line, and a filter: the same.
  const one = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params": [}';
  assert.deepEqual(brief(one, validateText(one, 'jsonrpc-request')).map((p) => [p.code, p.message]),
    [['syntax/unclosed-bracket', 'The array "params" opened on line 1 is not closed: expected "]" before "}".']]);
  const filter = '{"where": {"and": [{"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}}}';
  const f = validateText(filter, 'logpush-filter');
  assert.deepEqual(brief(filter, f).map((p) => [p.code, p.message]),
    [['syntax/unclosed-bracket', 'The array "and" opened on line 1 is not closed: expected "]" before "}".']]);
  assert.equal(JSON.parse(fixed(filter, f[0])).where.and.length, 1);
});

test('a closer of the wrong kind that closes the container it stands for ("}" typed for "]"): named, with a fix that replaces it', () => {
  // At the array's own indentation: typed for its "]".
  const text = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    }\n  }\n}\n';
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unclosed-bracket', line: 6, at: '}', message: 'The array "and" opened on line 3 is closed with "}": expected "]".',
    related: [[3, '[']], fixes: ['Replace "}" with "]" to close the array "and"'],
  }]);
  assert.equal(fixed(text, ps[0]), text.replace('200}\n    }', '200}\n    ]'));
  assert.deepEqual(validateText(fixed(text, ps[0]), 'logpush-filter'), []);
  // On one line, where inserting the "]" would leave a "}" too many: replaced.
  const one = '{"where": {"and": [{"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}}}}';
  const o = validateText(one, 'logpush-filter');
  assert.deepEqual(brief(one, o).map((p) => [p.code, p.at, p.message]), [['syntax/unclosed-bracket', '}', 'The array "and" opened on line 1 is closed with "}": expected "]".']]);
  assert.equal(JSON.parse(fixed(one, o[0])).where.and.length, 1);
  // A "]" typed for an object's "}": the same, the other way round.
  const obj = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId",\n   "params": []\n  ]\n]\n';
  const b = validateText(obj, 'jsonrpc-request');
  assert.deepEqual(brief(obj, b).map((p) => [p.code, p.line, p.message]), [['syntax/unclosed-bracket', 4, 'The object opened on line 2 is closed with "]": expected "}".']]);
  assert.equal(JSON.parse(fixed(obj, b[0]))[0].id, 1);
  // The closer of the array around it at the end, a "}" left out before it is one slip where a "]" typed for "}" is two (the
  // array's "]" left out too): the insertion, which mends the whole, is taken.
  const last = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId",\n   "params": []\n  ]\n';
  assert.deepEqual(brief(last, validateText(last, 'jsonrpc-request')).map((p) => [p.code, p.line, p.message]),
    [['syntax/unclosed-bracket', 4, 'The object opened on line 2 is not closed: expected "}" before "]".']]);
});

test('a trailing comma before the closer of the container around an unclosed one: both said, the two fixes together give the value', () => {
  const text = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200},\n  }\n}\n';
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(brief(text, ps), [
    { code: 'syntax/trailing-comma', line: 5, at: ',', message: 'Trailing comma before "}".', related: undefined, fixes: ['Remove the trailing comma'] },
    { code: 'syntax/unclosed-bracket', line: 6, at: '}', message: 'The array "and" opened on line 3 is not closed: expected "]" before "}".',
      related: [[3, '[']], fixes: ['Insert "]" to close the array "and"'] },
  ]);
  const both = applyEdits(text, [...ps[0].fixes![0].edits, ...ps[1].fixes![0].edits]);
  assert.equal(both, '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n');
  // On one line: the same two.
  const one = '{"where": {"and": [{"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},}}';
  assert.deepEqual(validateText(one, 'logpush-filter').map((p) => p.code), ['syntax/trailing-comma', 'syntax/unclosed-bracket']);
});

test('old Mac line breaks (a lone CR): the indentation is read by lines as LSP counts them, the line named is the editor\'s, the fix breaks with CR', () => {
  const lf = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n  }\n}\n';
  const text = lf.replace(/\n/g, '\r');
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(ps.map((p) => [p.code, p.message, text.slice(p.offset, p.offset + p.length)]),
    [['syntax/unclosed-bracket', 'The array "and" opened on line 3 is not closed: expected "]" before "}".', '}']]);
  assert.equal(fixed(text, ps[0]), text.replace('200}\r', '200}\r    ]\r'));
  const two = '{\r  "a": [\r    1,\r  "b": {\r    "c": 1,\r  "d": 2\r}\r';
  assert.deepEqual(validateText(two, 'logpush-filter').filter((p) => p.code.startsWith('syntax/')).map((p) => p.message), [
    'The array "a" opened on line 2 is not closed: expected "]" before ",".',
    'The object "b" opened on line 4 is not closed: expected "}" before ",".',
  ]);
  const atEnd = '[\r  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}\r';
  assert.equal(fixed(atEnd, validateText(atEnd, 'jsonrpc-request')[0]), '[\r  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}\r]\r');
});

test('"params": [ ending its line and the next request at that line\'s indentation: the request opened on that line ended there; "]}" and the comma go after "["', () => {
  const text = '[\n  {"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params": [\n  {"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]}\n]\n';
  const ps = validateText(text, 'jsonrpc-request');
  const syntax = ps.filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, syntax), [{
    code: 'syntax/unclosed-bracket', line: 3, at: '{', message: 'The array "params" opened on line 2 is not closed, nor the object around it: expected "]}" and a comma before "{".',
    related: [[2, '['], [2, '{']], fixes: ['Insert "]}," to close the array "params" and the object around it'],
  }]);
  assert.equal(fixed(text, syntax[0]), text.replace('[\n  {"jsonrpc":"2.0","id":2', '[]},\n  {"jsonrpc":"2.0","id":2'));
  assert.ok(!ps.some((p) => !p.code.startsWith('syntax/') && lineOf(text, p.offset) === 3), JSON.stringify(brief(text, ps)));
  // A container written flat under a line that opens nothing else still says nothing until its end.
  const flat = '{\n  "jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": [\n  "0x0000000000000000000000000000000000000001",\n  "latest"\n';
  assert.equal(fixed(flat, validateText(flat, 'jsonrpc-request').find((p) => p.code === 'syntax/unclosed-bracket')!), flat + '  ]\n}\n');
});

test('a "]" and the comma after it both left out before a member: the bracket reading wins over a comma that would put the member in the array', () => {
  const text = '{\n  "name": "x",\n  "dataset": "http_requests",\n  "destination_conf": "s3://b/l?region=us-east-1",\n  "output_options": {\n    "field_names": [\n      "ClientIP",\n      "RayID"\n    "timestamp_format": "rfc3339"\n  }\n}\n';
  const ps = validateText(text, 'logpush-job');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unclosed-bracket', line: 9, at: '"timestamp_format"', message: 'The array "field_names" opened on line 6 is not closed: expected "]" and a comma before "timestamp_format".',
    related: [[6, '[']], fixes: ['Insert "]," to close the array "field_names"'],
  }]);
  assert.equal(fixed(text, ps[0]), text.replace('"RayID"\n', '"RayID"\n    ],\n'));
  // A comma left out alone, the indentation saying nothing of a container's end: the comma, as before.
  const comma = '{\n  "output_options": {\n    "field_names": [\n      "ClientIP"\n      "RayID"\n    ]\n  }\n}\n';
  assert.deepEqual(validateText(comma, 'logpush-job').filter((p) => p.code.startsWith('syntax/')).map((p) => [p.code, p.message]),
    [['syntax/invalid-json', 'Expected a comma before "RayID".']]);
});

test('an unclosed container\'s opener between two earlier repairs whose lengths cancel (a comma inserted, a trailing comma removed): named where it is written', () => {
  // Found by a fuzz of this session: with the text's length back as it was, the openers were left in the repaired text's offsets,
  // one character off ("opens here" on the quote before "[").
  const cases: [string, DocKind][] = [
    ['{\n  "a": 1\n  "b": {\n    "c": [1,]\n', 'logpush-filter'],
    ['{\r  "$schema": "https://edgekit.dev/schemas/jsonrpc-request.schema.json"\r  "jsonrpc": "2.0",\r  "method": "eth_getBlockByNumber",\r  "params": ["0x2244", true,},\r  "id": 1\r}\r', 'jsonrpc-request'],
  ];
  for (const [text, kind] of cases) {
    const ps = validateText(text, kind).filter((p) => p.code === 'syntax/unclosed-bracket');
    assert.ok(ps.length, JSON.stringify(text));
    for (const p of ps) for (const r of p.related ?? []) assert.match(text[r.offset], /[[{]/, `${JSON.stringify(text)}: ${p.message} at ${r.offset}`);
  }
});

// rv15: syn9 read each line's start as the last "\n" or "\r" before it, and an LF document has no "\r": every line of the scan
// looked back to the start of the text. A 220 KB pretty-printed batch with its last "]" wrong or left out took 3.5 s (CRLF: 25 ms).
// Its growth is measured by npm run bench (section 8, "a pretty-printed batch whose last \"]\" is a \"}\""), not here: tests never time.
test('a large pretty-printed document of LF or lone CR lines with its last closer wrong or left out: named', () => {
  const batch = JSON.stringify(Array.from({ length: 1300 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', 'latest'] })), null, 2);
  for (const eol of ['\n', '\r']) {
    const text = batch.replace(/\n/g, eol);
    assert.ok(text.length > 200_000);
    const wrong = validateText(text.replace(/\]$/, '}'), 'jsonrpc-request');
    const left = validateText(text.replace(/\]$/, ''), 'jsonrpc-request');
    assert.deepEqual([...wrong, ...left].map((p) => [p.code, p.message]), [
      ['syntax/unclosed-bracket', 'The array opened on line 1 is closed with "}": expected "]".'],
      ['syntax/unclosed-bracket', 'The array opened on line 1 is not closed: expected "]" at the end of the document.'],
    ]);
  }
});

// rv15: a closer of the other kind under hundreds of containers left open: whether a container of a kind to close was opened
// after them was asked of every one of them at each opener of the text in between (8 s for 180 KB).
// Its growth is measured by npm run bench (section 8), not here.
// syn12 (rv15's leftover): a closer of the other kind and another closer left out further on cancel out. The insertion reading
// ("]" left out before the "}") mended the text whole, into a value with the members after the "}" read into the job; the
// replacement only got the parser to the second mistake, so the insertion won though the layout said otherwise.
test('a closer of the other kind where the layout says the innermost\'s closer, another closer left out further on: both named, the fixes give the value', () => {
  const lines = '{\n  "name": "x",\n  "output_options": {\n    "field_names": [\n      "ClientIP",\n      "RayID"\n    ],\n    "output_type": "ndjson",\n    "timestamp_format": "rfc3339"\n  },\n  "destination_conf": "s3://b/l?region=us-east-1"\n}\n';
  const oneLine = '{\n  "name": "x",\n  "output_options": {\n    "field_names": ["ClientIP", "RayID"],\n    "output_type": "ndjson",\n    "timestamp_format": "rfc3339"\n  },\n  "destination_conf": "s3://b/l?region=us-east-1"\n}\n';
  for (const valid of [lines, oneLine]) {
    const text = valid.replace(']', '}').replace('"rfc3339"\n  },', '"rfc3339"\n  ,');
    const ps = validateText(text, 'logpush-job');
    assert.deepEqual(ps.map((p) => p.message), ['The array "field_names" opened on line 4 is closed with "}": expected "]".',
      'The object "output_options" opened on line 3 is not closed: expected "}" before ",".']);
    assert.deepEqual(JSON.parse(applyEdits(text, ps.flatMap((p) => p.fixes![0].edits))), JSON.parse(valid));
  }
});

test('a closer of the other kind under 500 arrays left open, with 60 000 objects inside them: named', () => {
  const text = '{"a": ' + '['.repeat(500) + Array(60_000).fill('{}').join(',') + '}';
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.offset, p.fixes?.[0].edits]), [['syntax/unclosed-bracket', text.length - 1, [{ offset: text.length - 1, length: 0, newText: ']'.repeat(500) }]]]);
});

// rv15: the token a closer left out goes before may be one an earlier repair put in (the comma inserted at the end of the line
// before B): its span was mapped to an empty one at the comma's place, and the message quoted a comma the document has not.
test('a closer left out before a comma an earlier repair inserted: not said (nothing in the text to point at), not a problem on an empty span quoting a comma', () => {
  const cases = ['[\n  [\n    25,\n    75\n  {\n]\n', '{\n  "jsonrpc": "2.0",\n  "method": "eth_feeHistory",\n  "params": [\n    "0x4",\n    "latest",\n    [\n      25,\n      75\n    {\n  ]\n  "id": 8\n}\n'];
  for (const text of cases) {
    const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
    assert.ok(ps.length > 0, JSON.stringify(text));
    for (const p of ps) {
      assert.ok(p.length > 0 || p.offset === text.length, `${JSON.stringify(text)}: an empty span at ${p.offset}: ${p.message}`);
      // The token quoted is the one the problem is on (a string quoted as it is written).
      const before = p.code === 'syntax/unclosed-bracket' ? /before "(.*)"\.$/.exec(p.message)?.[1] : undefined;
      const at = text.slice(p.offset, p.offset + p.length);
      if (before !== undefined) assert.ok(at === before || at === `"${before}"`, `${p.message} on ${JSON.stringify(at)}`);
    }
  }
});

// rv15: a byte order mark is read as a space (parse/document.ts), so the first line was indented by one space: a closer at the
// start of a line closed the document's own container too, and the closer left out was not named (61 of the 1 688 closers of the
// valid fixtures left out).
test('a document that starts with a byte order mark: a closer left out is named as without it, its spans one character on', () => {
  const cases: [string, DocKind][] = [
    ['{\n  "where": {\n    "and": []\n  \n}\n', 'logpush-filter'],
    ['[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x0000000000000000000000000000000000000001", "latest"\n  },\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId"}\n]\n', 'jsonrpc-request'],
  ];
  for (const [text, kind] of cases) {
    const plain = validateText(text, kind).filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(plain.map((p) => p.code), ['syntax/unclosed-bracket'], JSON.stringify(text));
    const bom = validateText('\uFEFF' + text, kind).filter((p) => p.code.startsWith('syntax/'));
    const on = (p: Problem) => ({ ...p, offset: p.offset + 1, fixes: p.fixes?.map((f) => ({ ...f, edits: f.edits.map((e) => ({ ...e, offset: e.offset + 1 })) })),
      related: p.related?.map((r) => ({ ...r, offset: r.offset + 1 })) });
    assert.deepEqual(bom, plain.map(on), JSON.stringify(text));
  }
});

// rv15: a closer typed twice (a slip, not a closer left out) met syn9's closer of the other kind: "]" inserted before it or it
// replaced, either of which left a closer too many, with a cascade after it (1 159 of the valid fixtures' closers doubled).
test('a closer typed twice is not read as a closer left out or of the wrong kind: one syntax problem, no fix that leaves a closer too many', () => {
  const text = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}}\n    ]\n  }\n}\n';
  // syn14: said as the object closed twice, the removal its one fix (preferred: no "{" mends a text whole up to the second "}").
  assert.deepEqual(validateText(text, 'logpush-filter').map((p) => [p.code, lineOf(text, p.offset), p.message, p.fixes?.map((f) => [f.title, f.preferred])]),
    [['syntax/unopened-bracket', 4, 'The object is closed twice: the second "}" closes nothing.', [['Remove the second "}"', true]]]]);
  const named: string[] = [];
  for (const { file, kind, text: valid } of validFixtures()) {
    for (const { at } of brackets(valid).filter((b) => !b.opens)) {
      const doubled = valid.slice(0, at + 1) + valid.slice(at);
      const ps = validateText(doubled, kind).filter((p) => p.code === 'syntax/unclosed-bracket');
      if (ps.length) named.push(`${file} at ${lineOf(valid, at)}: ${ps[0].message}`);
    }
  }
  assert.deepEqual(named.slice(0, 5), [], `${named.length} named`);
});

// rv15: a job whose filter string is cut by a raw line break has its filter's problems placed on the whole string (its offsets
// cannot be mapped), but their related spans were kept in the filter's own offsets: "The array "and" opens here" on line 2 of the job.
test('a filter string that cannot be mapped into the job (cut by a line break): its problems on the whole string, no related span elsewhere', () => {
  const text = '{\n  "name": "x",\n  "dataset": "http_requests",\n  "destination_conf": "s3://b/l?region=us-east-1",\n  "filter": "{\\"where\\":{\\"and\\":[{\\"key\\":\\"ClientIP\\",\\"operator\\":\\"eq\\",\\"value\\":\\"1.2.3.4\\"},}{\\"key\\":\\"ClientIP\\",\\"operator\\":\\"eq\\",\\"value\\,\n":\\"1\\"}]}}"\n}\n';
  const ps = validateText(text, 'logpush-job');
  const unclosed = ps.find((p) => p.code === 'syntax/unclosed-bracket' && /of the filter string/.test(p.message));
  assert.ok(unclosed, JSON.stringify(ps.map((p) => p.message)));
  for (const p of ps) {
    for (const r of p.related ?? []) assert.ok(r.offset >= p.offset && r.offset + r.length <= p.offset + p.length, `${p.message}: related at ${r.offset} outside ${p.offset}+${p.length}`);
  }
});

// syn11 (rv15's leftover): `"__proto__": {` with its "}" and comma left out, the next member at its line's indentation, was read
// as an object written flat: its "}" went before the request's, the members after it were read into it, and the fix's text hid
// their problems (no "constructor" nor "toString" unknown). In a container written indented (its members deeper than its opener's
// line), a line as deep as the opener's starts its next sibling: the object ended right after its opener, with the comma.
test('an object opened at the end of a line, the next member at that line\'s indentation, in an object written indented: closed right after its opener', () => {
  const valid = readFileSync(path.join(__dirname, '../../fixtures/jsonrpc-request/fuzz-proto-key.json'), 'utf8');
  for (const name of ['__proto__', 'other']) {
    const whole = valid.replace('"__proto__"', `"${name}"`);
    const text = whole.replace(`"${name}": {},`, `"${name}": {`);
    const ps = validateText(text, 'jsonrpc-request');
    const syntax = ps.filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(brief(text, syntax), [{
      code: 'syntax/unclosed-bracket', line: 10, at: '"constructor"', message: `The object "${name}" opened on line 9 is not closed: expected "}" and a comma before "constructor".`,
      related: [[9, '{']], fixes: [`Insert "}," to close the object "${name}"`],
    }]);
    assert.equal(fixed(text, syntax[0]), whole);
    // What the checker says of the text as meant is what it says of the fixture.
    const said = (ps: Problem[]) => ps.filter((p) => !p.code.startsWith('syntax/')).map((p) => p.message);
    assert.deepEqual(said(ps), said(validateText(whole, 'jsonrpc-request')), name);
  }
  // A document written flat (its members at its opener's indentation) gives no such evidence: still read flat, closed at the end.
  const flat = '{\n"name": "x",\n"output_options": {\n"field_names": ["ClientIP"]\n}\n';
  const fps = validateText(flat, 'logpush-job').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(fps.map((p) => p.message), ['The object opened on line 1 is not closed: expected "}" at the end of the document.']);
});

test('a comment after the error (at its line\'s end, or before the next line\'s first token) is no place the parser stops: the readings are compared, and proved, past it', () => {
  // A "]" typed for an object's "}": the replacement mends the text; the insertion of "}" before the "]" breaks at the next item.
  // rv19: the replacement's parse met the comment first and counted it as where it stopped, so the insertion won, and the "["
  // it left too few was named next: the two fixes nested the items in an array of their own (Fix all: another value).
  const valid = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},@\n      #{"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  for (const [after, before] of [[' // c', ''], ['', '/* c */ ']]) {
    const meant = valid.replace('@', after).replace('#', before);
    const text = meant.replace('"1.2.3.4"}', '"1.2.3.4"]');
    const ps = validateText(text, 'logpush-filter');
    assert.deepEqual(ps.map((p) => [p.code, lineOf(text, p.offset), p.message]), [
      ['syntax/unclosed-bracket', 4, 'The object opened on line 4 is closed with "]": expected "}".'],
      ['syntax/comment', after ? 4 : 5, 'Comments are not allowed in JSON.']], JSON.stringify(text));
    assert.equal(fixed(text, ps[0]), meant);
  }
  // A closer left out of a container on one line whose line ends with a comment: the proof gets to the line's end past it.
  const batch = '[\n  {"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0x1", "latest", "id": 1}, // the first\n  {"jsonrpc": "2.0", "method": "eth_chainId", "id": 2}\n]\n';
  const b = validateText(batch, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(b.map((p) => [p.code, p.message]), [
    ['syntax/unclosed-bracket', 'The array "params" opened on line 2 is not closed: expected "]" before ",".'],
    ['syntax/comment', 'Comments are not allowed in JSON.']]);
  assert.equal(fixed(batch, b[0]), batch.replace('"latest", "id"', '"latest"], "id"'));
});

test('an opener typed twice (`[[`), whose removal mends the text as well as the closer inserted: both fixes offered, neither applied by Fix all', () => {
  // rv19: the closer's insertion was the only fix; Fix all made the batch an array in an array, and the "and" group's items one item.
  const batch = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}\n]\n';
  const filter = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  for (const [meant, kind, text] of [[batch, 'jsonrpc-request', `[${batch}`], [filter, 'logpush-filter', filter.replace('"and": [', '"and": [[')]] as [string, DocKind, string][]) {
    const ps = validateText(text, kind).filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(ps.map((p) => [p.code, p.fixes?.map((f) => f.title.replace(/ to close.*/, ''))]), [['syntax/unclosed-bracket', ['Insert "]"', 'Remove the second "["']]]);
    assert.equal(applyEdits(text, ps[0].fixes![1].edits), meant);
  }
  // A pair inside the container left open (`"params": ["0x1", [[]}`): the removal offered too (rv19: the "]" was the only fix, and
  // Fix all nested the empty array).
  const params = '{"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x1", []]}';
  for (const [meant, text] of [[params, params.replace('[]]', '[[]]')], [batch.replace('"params": []', '"params": ["0x1", []]'), batch.replace('"params": []', '"params": ["0x1", [[]]')]]) {
    const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(ps.map((p) => [p.code, p.fixes?.map((f) => f.title.replace(/ to close.*/, ''))]), [['syntax/unclosed-bracket', ['Insert "]"', 'Remove the second "["']]], text);
    assert.equal(applyEdits(text, ps[0].fixes![1].edits), meant);
  }
  // An array of arrays that lost its own closer is no opener typed twice (the text without its "[" breaks): one fix.
  const nested = '{\n  "a": [[1, 2],\n    [3, 4]\n}\n';
  assert.deepEqual(validateText(nested, 'logpush-filter').filter((p) => p.code.startsWith('syntax/')).map((p) => [p.code, p.fixes?.length]), [['syntax/unclosed-bracket', 1]]);
});

test('an empty container whose opener and closer differ (`"params": {]`): either may be the one mistyped, both replacements offered', () => {
  // rv19: the closer's replacement was the only fix, and Fix all made the params an empty object.
  const meant = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}\n]\n';
  const text = meant.replace('"params": []', '"params": {]');
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.message, p.fixes?.map((f) => f.title)]), [['syntax/unclosed-bracket', 'The object "params" opened on line 2 is closed with "]": expected "}".',
    ['Replace "]" with "}" to close the object "params"', 'Replace "{" with "[" to open an array']]]);
  assert.equal(applyEdits(text, ps[0].fixes![1].edits), meant);
});

test('a closer left out before a closer of the other kind, an object of its kind inside: named when only one place mends the text', () => {
  // rv19: `[{"ap": {"id": "y"}]` said 'Expected a comma before "]"': wrongCloser refused whenever a container of the kind to close
  // opened inside it. Where no comma follows the inner one (containerScan), or no place before such a comma mends the text (a
  // parse each), the insertion before the closer is the one place.
  const meant = '{"rules": [{"action": "execute", "action_parameters": {"id": "y"}}]}';
  const text = meant.replace('}}]', '}]');
  const ps = validateText(text, 'waf-ruleset').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.message, p.fixes?.map((f) => f.title)]), [['syntax/unclosed-bracket',
    'The object opened on line 1 is not closed: expected "}" before "]".', ['Insert "}" to close the object']]]);
  assert.equal(fixed(text, ps[0]), meant);
  // A member after the inner object's first (`{"id": "y"}, "x": 1}` mends it too): which object lost its "}" is unknown.
  const two = '{"rules": [{"action": "execute", "action_parameters": {"id": "y", "enabled": true}]}';
  assert.deepEqual(validateText(two, 'waf-ruleset').filter((p) => p.code.startsWith('syntax/')).map((p) => p.code), ['syntax/invalid-json']);
  // An array of its kind closed inside, items after it at the innermost's own level (they stay in it wherever the "]" goes).
  const arr = '{"jsonrpc": "2.0", "id": 1, "method": "x", "params": [["0x1"], "latest"}';
  assert.deepEqual(validateText(arr, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/')).map((p) => [p.code, p.fixes?.[0].edits[0].newText]), [['syntax/unclosed-bracket', ']']]);
});

// syn14 (syn13's leftover): `"params": [["0x…", "latest"]}` said 'Expected a comma before "}"' with the schema on the array read as
// params[0] ('must be a 20-byte address ..., not an array'): the "]" left out has two places (`[["0x…"], "latest"]` too), so no
// closer was named, and the "[" typed twice was offered only beside one. It is said alone now, its removal the fix.
test('an opener typed twice inside a container with items, no closer\'s place the one: the container opened twice, the removal its fix', () => {
  const request = '{"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x407d73d8a49eeb85d32cf465507dd71d507100c1", "latest"]}';
  const other = '{"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}';
  for (const meant of [request, `[\n  ${request},\n  ${other}\n]\n`, `[${request}, ${other}]`, request.replace('"id": 1, ', '').replace(']}', '], "id": 1}')]) {
    const text = meant.replace('"params": [', '"params": [[');
    const line = lineOf(text, text.indexOf('[['));
    const ps = validateText(text, 'jsonrpc-request');
    assert.deepEqual(brief(text, ps), [{
      code: 'syntax/unclosed-bracket', line, at: '[', message: 'The array "params" is opened twice: one "[" is not closed.',
      related: [[line, '[']], fixes: ['Remove the second "["'],
    }], text);
    assert.equal(ps[0].offset, text.indexOf('[[') + 1);
    assert.equal(fixed(text, ps[0]), meant);
    // A "]" inserted mends the text too (after the items: `[["0x…", "latest"]]`): Fix all leaves the choice.
    assert.equal(ps[0].fixes![0].preferred, undefined);
    assert.equal(fixAll(text, 'jsonrpc-request').text, text);
  }
  // A batch's own "[" typed twice at its start (the "]" at its end, or after the first request, would mend it as well).
  const batch = `[${other}, ${other.replace('"id": 2', '"id": 3')}]`;
  const b = validateText(`[${batch}`, 'jsonrpc-request');
  assert.deepEqual(b.map((p) => [p.code, p.message, p.fixes?.map((f) => f.title)]), [['syntax/unclosed-bracket', 'The array is opened twice: one "[" is not closed.', ['Remove the second "["']]]);
  assert.equal(fixed(`[${batch}`, b[0]), batch);
});

test('a "{" typed twice (`{{`): the object opened twice, the removal its one fix, applied by Fix all (no "}" inserted mends the text)', () => {
  const call = '{"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": "0x407d73d8a49eeb85d32cf465507dd71d507100c1"}, "latest"]}';
  for (const [meant, at] of [[call, '[{'], [call, '{"jsonrpc"'], [`[\n  ${call},\n  ${call.replace('"id": 1', '"id": 2')}\n]\n`, '{"to"']]) {
    const text = meant.replace(at, at.replace('{', '{{'));
    const ps = validateText(text, 'jsonrpc-request');
    assert.deepEqual(ps.map((p) => [p.code, p.offset, p.message, p.fixes?.map((f) => [f.title, f.preferred])]),
      [['syntax/unclosed-bracket', text.indexOf('{{') + 1, 'The object is opened twice: one "{" is not closed.', [['Remove the second "{"', true]]]], text);
    assert.equal(fixAll(text, 'jsonrpc-request').text, meant);
  }
});

test('each opener of the valid fixtures typed twice: said as opened twice where the removal is the fix, every removal giving the fixture\'s value', () => {
  const { total, twice, preferred, bad } = typedTwice(true, (q) => q.code === 'syntax/unclosed-bracket' && / is opened twice: /.test(q.message));
  // syn14: 1 339 of 1 690 said 'Expected a property name in double quotes at "{"' (or a comma expected) with no fix before.
  // 2026-11-28: 1 342 of 1 690, 1 297 of them with the removal preferred. Held as shares (a fixture added moves the counts; ux14's two
  // were dropped for it), a little under those (about 20 documents of room): a change that says fewer of them fails.
  assert.deepEqual(bad, []);
  assert.ok(total > 1000 && twice / total >= 0.78 && preferred / twice >= 0.95, `${twice} of ${total} said, ${preferred} preferred`);
});

// syn14 (rv19's leftover): `{"a": [[1, 2],` then ` [3, 4]` then `}` at the margin was read as the "}" typed for the array's "]" (at
// the array's line's indentation), with the object's "}" said missing at the end next: two slips, and the two fixes put the "}" after
// a "]" (`[3, 4]\n]\n}`). The object around the array opened on that line too, so the indentation says the "}" may be either's: the
// "]" left out before it is one slip, and the one problem.
test('a closer of the other kind at the indentation of a line that opened both the array and the object around it: the "]" left out before it', () => {
  for (const eol of ['\n', '\r\n']) {
    const text = `{"a": [[1, 2],${eol} [3, 4]${eol}}${eol}`;
    const ps = validateText(text, 'logpush-filter').filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(brief(text, ps), [{
      code: 'syntax/unclosed-bracket', line: 3, at: '}', message: 'The array "a" opened on line 1 is not closed: expected "]" before "}".',
      related: [[1, '[']], fixes: ['Insert "]" to close the array "a"'],
    }], JSON.stringify(eol));
    assert.equal(valueOf(fixed(text, ps[0])), valueOf('{"a": [[1, 2], [3, 4]]}'));
  }
  // An object written flat (its members at its opener's indentation): the "}" at the margin may be either's too.
  const flat = '{"x": 1,\n"a": [[1, 2],\n [3, 4]\n}\n';
  const f = validateText(flat, 'logpush-filter').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(f.map((p) => p.message), ['The array "a" opened on line 2 is not closed: expected "]" before "}".']);
  assert.equal(valueOf(fixed(flat, f[0])), valueOf('{"x": 1, "a": [[1, 2], [3, 4]]}'));
  // The array on a line of its own, deeper than the object's: the "}" at the array's line's indentation is its closer typed wrong
  // (as before).
  const own = '{\n  "a":\n  [[1, 2],\n   [3, 4]\n  }\n}\n';
  assert.deepEqual(validateText(own, 'logpush-filter').filter((p) => p.code.startsWith('syntax/')).map((p) => p.message), ['The array "a" opened on line 3 is closed with "}": expected "]".']);
});
