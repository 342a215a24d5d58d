// An opening bracket or brace left out: named where the indentation says the container started (the line whose indentation the
// closer's line has, ending where a value is expected), on the token the opener goes before, related information at the closer,
// a fix (offered, not preferred) that inserts the opener; the schema and the rules check the text that fix makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { applyEdits } from '../../../server/src/core/text';
import type { Problem } from '../../../server/src/core/types';
import { deletions, lineOf } from '../support/bracketDeletions';

function brief(text: string, ps: Problem[]) {
  return ps.map((p) => ({ code: p.code, line: lineOf(text, p.offset), at: text.slice(p.offset, p.offset + p.length), message: p.message,
    related: p.related?.map((r) => [lineOf(text, r.offset), text.slice(r.offset, r.offset + r.length)]), fixes: p.fixes?.map((f) => f.title),
    preferred: p.fixes?.some((f) => f.preferred) ?? false }));
}

function fixed(text: string, p: Problem): string {
  assert.equal(p.fixes?.length, 1, `one fix: ${JSON.stringify(p.fixes)}`);
  return applyEdits(text, p.fixes![0].edits);
}

test('a request document whose first "{" was left out: named before its first member, the closer related, no schema cascade', () => {
  const valid = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "eth_blockNumber",\n  "params": []\n}\n';
  const text = valid.slice(1);
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 2, at: '"jsonrpc"', message: 'The object closed on line 6 is not opened: expected "{" before "jsonrpc".',
    related: [[6, '}']], fixes: ['Insert "{" to open the object'], preferred: false,
  }]);
  assert.equal(fixed(text, ps[0]), valid);
});

// The line holding the "{" deleted whole (Ctrl+Shift+K, Vim's dd): every line before the closer is indented deeper than it, so
// the container started at the document's start. It said "The document must be an object or an array, not the string "jsonrpc""
// and "Expected the end of the document at ":"" (seen in headless Neovim).
/** A request (five lines) whose first line, the "{", is deleted: named before "jsonrpc", its fix writing the line back as it was. */
function firstLineDeleted(whole: string, label: string): void {
  const text = whole.slice(whole.indexOf('\n') + 1);
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 1, at: '"jsonrpc"', message: 'The object closed on line 5 is not opened: expected "{" before "jsonrpc".',
    related: [[5, '}']], fixes: ['Insert "{" to open the object'], preferred: false,
  }], label);
  assert.equal(fixed(text, ps[0]), whole);
}

test('a request document whose first line, the "{", was deleted: named before its first member, the fix writes the line back', () => {
  const valid = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "eth_blockNumber",\n  "params": []\n}\n';
  for (const eol of ['\n', '\r\n']) firstLineDeleted(valid.replace(/\n/g, eol), JSON.stringify(eol));
});

// The same in a document indented whole (pasted from inside another, or from a Markdown list): its closer is indented too, and
// the document's start was no place for the opener, so it said "The document must be an object or an array, not the string
// "jsonrpc"" and "Expected the end of the document at ":"" as before e775c7d.
test('a document indented whole whose first line, the "{", was deleted: named the same, the fix writes the line back indented', () => {
  const valid = '  {\n    "jsonrpc": "2.0",\n    "id": 1,\n    "method": "eth_blockNumber",\n    "params": []\n  }\n';
  for (const indent of ['  ', '\t']) firstLineDeleted(valid.replace(/^ {2}/gm, indent), JSON.stringify(indent));
});

test('a filter whose "and" lost its "[": named after "and":, the closer at the and\'s indentation related, no cascade', () => {
  const valid = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  const text = valid.replace('"and": [', '"and": ');
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 4, at: '{', message: 'The array "and" closed on line 6 is not opened: expected "[" before "{".',
    related: [[6, ']']], fixes: ['Insert "[" to open the array "and"'], preferred: false,
  }]);
  assert.equal(fixed(text, ps[0]), valid);
});

test('a batch whose request lost its "{" (one line): named before the request\'s first member; the other requests checked as they are', () => {
  const valid = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_blockNumber", "params": []}\n]\n';
  const text = valid.replace('  {"jsonrpc": "2.0", "id": 1', '  "jsonrpc": "2.0", "id": 1');
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 2, at: '"jsonrpc"', message: 'The object closed on line 2 is not opened: expected "{" before "jsonrpc".',
    related: [[2, '}']], fixes: ['Insert "{" to open the object'], preferred: false,
  }]);
  assert.equal(fixed(text, ps[0]), valid);
});

test('a ruleset\'s rule that lost its "{" (its line left blank): named before the rule\'s first member', () => {
  const valid = '{\n  "name": "default",\n  "kind": "zone",\n  "phase": "http_request_firewall_custom",\n  "rules": [\n    {\n      "action": "block",\n      "expression": "ip.src eq 1.2.3.4"\n    }\n  ]\n}\n';
  const text = valid.replace('    {\n      "action"', '    \n      "action"');
  const ps = validateText(text, 'waf-ruleset');
  const syntax = ps.filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, syntax).map((b) => [b.code, b.line, b.at, b.related]), [['syntax/unopened-bracket', 7, '"action"', [[9, '}']]]]);
  assert.equal(fixed(text, syntax[0]), valid);
  // The schema and the rules say of the text as meant what they say of the valid text (its members not read into the array).
  const said = (ps: Problem[]) => ps.filter((p) => !p.code.startsWith('syntax/')).map((p) => `${p.code} ${p.message}`);
  assert.deepEqual(said(ps), said(validateText(valid, 'waf-ruleset')));
});

test('on one line, the closer with no opener: the one place a value is expected ("and": then its items) is named', () => {
  const valid = '{"where": {"and": [{"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}, {"key": "ClientIP", "operator": "eq", "value": "1.2.3.5"}]}}';
  const text = valid.replace('[', '');
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(ps.map((p) => [p.code, text.slice(p.offset, p.offset + p.length)]), [['syntax/unopened-bracket', '{']]);
  assert.equal(fixed(text, ps[0]), valid);
});

test('no evidence (items written flat at the closer\'s indentation; an array\'s "[" before an array on one line): today\'s wording, no fix', () => {
  const flat = '{"where": {"and":\n{"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n{"key": "ClientIP", "operator": "eq", "value": "1.2.3.5"}\n]}}\n';
  // ["a", ["b", "c"], "latest"] or [["a", "b", "c"], "latest"]: the "[" left out may be any of the first array's items'.
  const nested = '{"jsonrpc": "2.0", "id": 1, "method": "eth_getProof", "params": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "0x0", "0x1"], "latest"]}\n';
  for (const [text, kind] of [[flat, 'logpush-filter'], [nested, 'jsonrpc-request']] as const) {
    const ps = validateText(text, kind);
    assert.ok(!ps.some((p) => p.code === 'syntax/unopened-bracket'), JSON.stringify(brief(text, ps)));
    assert.ok(ps.some((p) => p.code === 'syntax/invalid-json'), JSON.stringify(brief(text, ps)));
  }
});

test('each opening bracket or brace of the valid fixtures left out: one syntax problem, no cascade; named ones mended to the fixture\'s value', () => {
  let documents = 0;
  let named = 0;
  let restored = 0;
  const cascades: string[] = [];
  const badFixes: string[] = [];
  for (const d of deletions((b) => b.opens)) {
    documents++;
    const p = d.problems.find((q) => q.code === 'syntax/unopened-bracket');
    if (!p) continue;
    named++;
    if (d.syntax.length !== 1 + d.ownSyntax) cascades.push(`${d.where}: ${JSON.stringify(brief(d.broken, d.syntax))}`);
    const mended = d.mend(p);
    if (mended === 'restored') restored++;
    else badFixes.push(`${d.where}: ${mended}`);
    if (mended === 'restored' && d.extra.length) cascades.push(`${d.where}: ${d.extra.join('; ')}`);
  }
  assert.ok(documents > 1000, `${documents} documents`);
  console.log(`unopened brackets: ${documents} documents, ${named} named as such (${(100 * named / documents).toFixed(1)}%), ${restored} restored to the fixture's value by the fix (${(100 * restored / documents).toFixed(1)}%)`);
  // syn10: 0 -> 1634 of 1690 (96.7%) named and mended, every fix giving back the fixture's value. The rest: an array's "[" left out
  // before an array on one line (["a", ["b"]] or [["a", "b"]]), a "[" inside one on one line (["0x4", 25, 75]]: which item it
  // went before is unknown), items written at the closer's indentation.
  assert.ok(named >= 0.96 * documents, `${named} of ${documents} named`);
  assert.deepEqual({ cascades: cascades.length, badFixes: badFixes.length }, { cascades: 0, badFixes: 0 }, [...cascades.slice(0, 10), ...badFixes.slice(0, 10)].join('\n'));
});

test('a CRLF document and a job\'s filter string: the opener goes on the blank line before its CR; the line named is the filter string\'s', () => {
  const valid = '{\r\n  "jsonrpc": "2.0",\r\n  "id": 1,\r\n  "method": "eth_blockNumber",\r\n  "params": []\r\n}\r\n';
  const text = valid.slice(1);
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(ps.map((p) => p.code), ['syntax/unopened-bracket']);
  assert.equal(fixed(text, ps[0]), valid);
  const job = JSON.stringify({ name: 'example.com', dataset: 'http_requests', enabled: true, destination_conf: 's3://b/p?region=us-east-1',
    filter: '{"where": {"and": \n  {"key": "ClientCountry", "operator": "eq", "value": "us"},\n  {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}\n]}}' }, null, 2);
  const jps = validateText(job, 'logpush-job');
  const p = jps.find((q) => q.code === 'syntax/unopened-bracket');
  assert.ok(p, JSON.stringify(jps.map((q) => q.message)));
  assert.match(p.message, /^The array "and" closed on line \d+ of the filter string is not opened: expected "\[" before "\{"\.$/);
});

test('blank lines inside the container: an empty line between the members of a document whose first "{" was left out does not hide the opener\'s place; a blank line indented as the closer among the items is no place of its own', () => {
  const valid = '{\n  "jsonrpc": "2.0",\n\n  "id": 1,\n\n  "method": "eth_blockNumber",\n  "params": []\n}\n';
  const text = valid.slice(1);
  const ps = validateText(text, 'jsonrpc-request');
  assert.deepEqual(ps.map((p) => p.code), ['syntax/unopened-bracket']);
  assert.equal(fixed(text, ps[0]), valid);
  // "params": [["0x1", "0x2"]] with its inner "[" left out, blank lines keeping the closer's indentation: the "[" may go on
  // either blank line (both parse), so neither is named; the one between the items gave ["0x1", ["0x2"]].
  const valid2 = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "eth_call",\n  "params": [\n    [\n      "0x1",\n    \n      "0x2"\n    ]\n  ]\n}\n';
  const text2 = valid2.replace('    [\n', '    \n');
  const ps2 = validateText(text2, 'jsonrpc-request');
  const value = JSON.stringify(JSON.parse(valid2));
  for (const p of ps2.filter((q) => q.code === 'syntax/unopened-bracket')) {
    assert.equal(JSON.stringify(JSON.parse(fixed(text2, p))), value, p.message);
  }
  // Its closer's own style (`1],` ending an item's array): the only blank line at the closer's indentation still takes the "{".
  const valid3 = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "eth_call",\n  "params": [\n    {\n      "to": "0x1"\n    },\n    {\n      "a": [\n        1],\n      "b": 2\n    }\n  ]\n}\n';
  const text3 = valid3.replace('    },\n    {\n', '    },\n    \n');
  const ps3 = validateText(text3, 'jsonrpc-request').filter((q) => q.code === 'syntax/unopened-bracket');
  assert.equal(ps3.length, 1);
  assert.equal(fixed(text3, ps3[0]), valid3);
});
