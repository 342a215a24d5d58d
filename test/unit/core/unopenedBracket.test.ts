// An opening bracket or brace left out: named where the indentation says the container started (the line whose indentation the
// closer's line has, ending where a value is expected), on the token the opener goes before, related information at the closer,
// a fix (offered, not preferred) that inserts the opener; the schema and the rules check the text that fix makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateText } from '../../../server/src/core/validate';
import { applyEdits } from '../../../server/src/core/text';
import { fixAll } from '../../../server/src/core/fixAll';
import type { DocKind, Problem } from '../../../server/src/core/types';
import { deletions, lineOf, typedTwice } from '../support/bracketDeletions';

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

// syn11: the first "}" after the members closes the action parameters, but was read as the rule's, and the rule's "}" as the
// rules array's (the closer of the other kind, C): no place around C, the places inside the container closed on C's line before
// it are tried, and the one that mends the text is named, with the closer it pairs with related (it said 'Expected a comma before
// ":"', and the schema then said the rule's "id" was not a rule id).
test('on one line, a container whose closer was read as the one around it\'s: the place inside it is named, its own closer related', () => {
  const valid = '{\n  "name": "r",\n  "kind": "zone",\n  "phase": "http_request_firewall_custom",\n  "rules": [\n    { "action": "skip", "expression": "true", "action_parameters": { "ruleset": "current" } },\n    { "action": "log", "expression": "true" }\n  ]\n}\n';
  const text = valid.replace('"action_parameters": { "ruleset"', '"action_parameters": "ruleset"');
  const ps = validateText(text, 'waf-ruleset');
  const first = text.indexOf('} },');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 6, at: '"ruleset"', message: 'The object "action_parameters" closed on line 6 is not opened: expected "{" before "ruleset".',
    related: [[6, '}']], fixes: ['Insert "{" to open the object "action_parameters"'], preferred: false,
  }]);
  assert.equal(ps[0].related![0].offset, first);
  assert.equal(fixed(text, ps[0]), valid.replace('{ "ruleset"', '{"ruleset"'));
  // A params object on one line whose "{" was left out: its members after the first are no longer counted among the places tried
  // (each a parse), which hid the place after "[" (the sixth try's cap).
  const request = '{"jsonrpc": "2.0", "method": "trace_filter", "params": [{"fromBlock": "0x1", "toBlock": "0x10", "fromAddress": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae"], "toAddress": ["0x00000000219ab540356cbb839cbe05303d7705fa"], "after": 0, "count": 10}], "id": 1}\n';
  const broken = request.replace('[{', '[');
  const rps = validateText(broken, 'jsonrpc-request');
  assert.deepEqual(brief(broken, rps).map((b) => [b.code, b.at]), [['syntax/unopened-bracket', '"fromBlock"']]);
  assert.equal(fixed(broken, rps[0]), request);
});

// syn11: the same, the closer on the line before C's (`"ruleset": "current" }` then the rule's `},`, read as the rules array's
// closer of the other kind): the places on that line are tried when no place above C mends the text.
test('a container closed at the end of the line before the closer with no opener: the place on that line is named', () => {
  const valid = '{\n  "name": "r",\n  "kind": "zone",\n  "phase": "http_request_firewall_custom",\n  "rules": [\n    {\n      "action": "skip",\n      "expression": "true",\n      "action_parameters": { "ruleset": "current" }\n    },\n    {\n      "action": "log",\n      "expression": "true"\n    }\n  ]\n}\n';
  const text = valid.replace('"action_parameters": { "ruleset"', '"action_parameters": "ruleset"');
  const ps = validateText(text, 'waf-ruleset');
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 9, at: '"ruleset"', message: 'The object "action_parameters" closed on line 9 is not opened: expected "{" before "ruleset".',
    related: [[9, '}']], fixes: ['Insert "{" to open the object "action_parameters"'], preferred: false,
  }]);
  assert.equal(fixed(text, ps[0]), valid.replace('{ "ruleset"', '{"ruleset"'));
  // An empty object's "{" left out before its "}" on a line of its own: the closer is read as the one around it's.
  const filter = '{\n  "where": {\n    "key": "ClientRequestHost",\n    "operator": "in",\n    "value": [\n      "a.example",\n      {\n        "x": {}\n      }\n    ]\n  }\n}\n';
  const broken = filter.replace('"x": {}', '"x": }');
  const fps = validateText(broken, 'logpush-filter').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(fps.map((p) => p.message), ['The object "x" closed on line 8 is not opened: expected "{" before "}".']);
  assert.equal(fixed(broken, fps[0]), filter);
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
  // ["0x4", "latest", [25, 75]] with its inner "[" left out: before 25 or 75 (or "latest") mends it as well, so no opener is named;
  // the "]" after the params' own closes nothing (syn14): its removal offered, not preferred, and the schema on that text names the
  // param that should be an array.
  const inner = '{"jsonrpc": "2.0", "id": 1, "method": "eth_feeHistory", "params": ["0x4", "latest", 25, 75]]}\n';
  assert.deepEqual(validateText(inner, 'jsonrpc-request').map((p) => [p.code, p.message, p.fixes?.map((f) => [f.title, f.preferred ?? false])]), [
    ['jsonrpc/invalid-param', 'params[2] must be an array of increasing percentiles between 0 and 100, not the number 25.', undefined],
    ['jsonrpc/extra-param', 'params[3] is one param too many; eth_feeHistory takes at most 3 [blockCount, newestBlock, rewardPercentiles].', undefined],
    ['syntax/unopened-bracket', 'The array "params" is closed twice: the second "]" closes nothing.', [['Remove the second "]"', false]]]]);
});

test('each opening bracket or brace of the valid fixtures left out: one syntax problem, no cascade; named ones mended to the fixture\'s value', () => {
  let documents = 0;
  let named = 0;
  let restored = 0;
  const twice: string[] = [];
  const cascades: string[] = [];
  const badFixes: string[] = [];
  const unnamed: string[] = [];
  for (const d of deletions((b) => b.opens)) {
    documents++;
    const p = d.problems.find((q) => q.code === 'syntax/unopened-bracket');
    if (!p) { unnamed.push(d.where); continue; }
    // syn14: a "[" left out of an array after the params' own "[" (`["0x4", "latest", 25, 75]]`), where several places mend the text,
    // is read as the params' "]" typed twice: that "]" closes nothing as written, its removal (another value) offered, never applied
    // by Fix all; the schema on that text says what is wrong ("params[2] must be an array ..., not the number 25").
    if (/ is closed twice: /.test(p.message)) {
      twice.push(`${d.where}: ${p.message}`);
      assert.ok(!p.fixes?.some((f) => f.preferred), `${d.where}: a removal preferred`);
      continue;
    }
    named++;
    if (d.syntax.length !== 1 + d.ownSyntax) cascades.push(`${d.where}: ${JSON.stringify(brief(d.broken, d.syntax))}`);
    const mended = d.mend(p);
    if (mended === 'restored') restored++;
    else badFixes.push(`${d.where}: ${mended}`);
    if (mended === 'restored' && d.extra.length) cascades.push(`${d.where}: ${d.extra.join('; ')}`);
  }
  assert.ok(documents > 1000, `${documents} documents`);
  console.log(`unopened brackets: ${documents} documents, ${named} named as such (${(100 * named / documents).toFixed(1)}%), ${restored} restored to the fixture's value by the fix (${(100 * restored / documents).toFixed(1)}%)`);
  // syn10: 0 -> 1634 of 1690 (96.7%) named and mended, every fix giving back the fixture's value. syn11: 1678 (99.3%): a container
  // on one line whose closer was read as the one around it's (`"action_parameters":  "id": "x" } },`, or `... "current" }` then
  // `},` on the next line, or `"filter": }`), a params object whose members before the error hid its place (the tries' cap). The
  // rest (12): an array's "[" left out before an array or inside one on one line (["0x4", 25, 75]]: which item it went before is
  // unknown, several mend it), `"__proto__": },` (its closer read as the object's, the next member's line says nothing).
  // syn13: 1682 (99.5%): the opener of an empty last item after its comma (`"latest", ]]`, read as a trailing comma before).
  // Every opener left out is named or read as a bracket typed twice (below) but these (1695 of 1703 named, and every fix restoring the
  // fixture, in 2026-11-28's fixtures), held by name rather than by count: a fixture added or changed moves the counts, and only a
  // bracket it does not name belongs here (look at it first).
  assert.equal(restored, named, 'every fix offered gives back the fixture\'s value');
  assert.deepEqual(unnamed, [
    'jsonrpc-request/fuzz-proto-key.json at 9',
    'jsonrpc-request/method-eth_getProof.json at 2',
    'logpush-filter/empty-condition.json at 4',
    'logpush-filter/not-an-object.json at 1',
  ]);
  assert.deepEqual(twice, [
    'jsonrpc-request/limit-feehistory.json at 4: The array "params" is closed twice: the second "]" closes nothing.',
    'jsonrpc-request/method-eth_feeHistory.json at 2: The array "params" is closed twice: the second "]" closes nothing.',
    'jsonrpc-request/method-eth_feeHistory.json at 3: The array "params" is closed twice: the second "]" closes nothing.',
    'jsonrpc-request/method-eth_getLogs.json at 2: The array "topics" is closed twice: the second "]" closes nothing.']);
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

// syn11: a member named as Object.prototype's own (__proto__, constructor, toString, hasOwnProperty) is read by the bracket
// diagnosis as any other name (no plain object is keyed by document text there): its container left unopened or unclosed is
// named, and mended, as "other"'s is. (`"__proto__": {` with its "}" and comma left out was read flat, as `"other": {` was: the
// flat reading is the indentation's, not the name's; unclosedBracket.test.ts has it now.)
test('a container named __proto__, constructor, toString or hasOwnProperty: named and mended as any other name\'s', () => {
  const valid = (name: string) => `{\n  "jsonrpc": "2.0",\n  "method": "trace_filter",\n  "id": 1,\n  "params": [\n    {\n      "fromBlock": "0x1",\n      "${name}": {\n        "a": [1, 2]\n      },\n      "toBlock": "0x2"\n    }\n  ]\n}\n`;
  const said = (name: string, broken: (v: string) => string) => {
    const text = broken(valid(name));
    const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
    const mended = ps.length === 1 && ps[0].fixes?.length === 1 && JSON.stringify(JSON.parse(applyEdits(text, ps[0].fixes[0].edits))) === JSON.stringify(JSON.parse(valid(name)));
    return JSON.stringify({ said: ps.map((p) => [p.code, p.message.replace(name, 'NAME'), p.offset - text.indexOf(`"${name}"`) - name.length]), mended });
  };
  const unopenedOf = (v: string) => v.replace(/": \{\n {8}"a"/, '": \n        "a"');
  const unclosedOf = (v: string) => v.replace('[1, 2]\n      },', '[1, 2]\n      ,');
  for (const broken of [unopenedOf, unclosedOf]) {
    const other = said('other', broken);
    assert.match(other, /"mended":true/);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) assert.equal(said(name, broken), other, name);
  }
});

// syn11: the docs are JSONC. The opener's line ended with a comment (read as space by the comment's repair): the opener was placed
// at the line's end, inside the comment, and the fix gave text that is no JSON (nor JSONC).
test('a comment after the place where the opener goes: the fix inserts it before the comment', () => {
  const valid = '{\n  "where": {\n    "and": [ // all of them\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  for (const comment of ['// all of them', '/* all of them */']) {
    const whole = valid.replace('// all of them', comment);
    const text = whole.replace('"and": [ ', '"and": ');
    const ps = validateText(text, 'logpush-filter');
    assert.deepEqual(brief(text, ps).map((b) => [b.code, b.line, b.at]), [['syntax/comment', 3, comment], ['syntax/unopened-bracket', 4, '{']], comment);
    assert.equal(fixed(text, ps[1]), whole.replace('"and": [ ', '"and": ['), comment);
  }
});

// syn12: a comment before the first token of the opener's line was read as space by the comment's repair, so that line read as
// indented deeper than the closer's, and no place was found (the schema on the members read into "where"). It is taken out of
// the repaired text with the space after it, the errors after it moved back.
test('a comment before the first token of the opener\'s line: the opener is named and placed, the line\'s own indentation read', () => {
  const valid = '{\n  "where": {\n    /* c */ "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  for (const comment of ['/* c */ ', '/* c */', '/* a */ /* b */ ']) {
    const whole = valid.replace('/* c */ ', comment);
    const text = whole.replace('"and": [', '"and": ');
    const ps = validateText(text, 'logpush-filter');
    assert.deepEqual(ps.map((p) => p.code), [...comment.match(/\/\*/g)!.map(() => 'syntax/comment'), 'syntax/unopened-bracket'], comment);
    assert.equal(ps.at(-1)!.message, 'The array "and" closed on line 6 is not opened: expected "[" before "{".');
    assert.equal(fixed(text, ps.at(-1)!), whole.replace('"and": [', '"and": ['), comment);
  }
  // Its closer left out: the closer goes on a line of its own at the opener line's indentation (the comment's was added to it).
  const text = valid.replace('    ]\n', '');
  const ps = validateText(text, 'logpush-filter');
  assert.deepEqual(ps.map((p) => p.code), ['syntax/comment', 'syntax/unclosed-bracket']);
  assert.equal(fixed(text, ps[1]), valid);
});

// syn11: the container that lost its opener also has a comma after its last member (common while typing): the proof failed at
// the comma, and nothing was named ('Expected a property name in double quotes at "{"', the schema on the members read flat).
// Both are said now, the opener first; the two fixes together give the value.
test('an opener left out and a trailing comma in the same container: both said, the two fixes together give the value', () => {
  const filter = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  const batch = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_blockNumber", "params": []}\n]\n';
  const cases: [string, string, DocKind][] = [
    [filter, filter.replace('"and": [', '"and": ').replace('200}\n', '200},\n'), 'logpush-filter'],
    [batch, batch.replace('  {"jsonrpc": "2.0", "id": 2', '  "jsonrpc": "2.0", "id": 2').replace('[]}\n]', '[],}\n]'), 'jsonrpc-request'],
  ];
  for (const [valid, text, kind] of cases) {
    const ps = validateText(text, kind);
    assert.deepEqual(ps.map((p) => p.code), ['syntax/unopened-bracket', 'syntax/trailing-comma'], JSON.stringify(brief(text, ps)));
    assert.deepEqual(JSON.parse(applyEdits(text, [...ps[0].fixes![0].edits, ...ps[1].fixes![0].edits])), JSON.parse(valid));
  }
});

// syn11 (a fuzz in LF, CRLF and lone CR): the line before the opener's place was read from its CRLF's "\n" only, so a CRLF
// document's container whose opener had a line of its own after its name was named as no property's.
test('an opener on the line after its property\'s name: the container is named by it in LF, CRLF and lone-CR documents alike', () => {
  const valid = '{\n  "where": {\n    "and":\n    [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  for (const eol of ['\n', '\r\n', '\r']) {
    const whole = valid.replace(/\n/g, eol);
    const text = whole.replace(`${eol}    [${eol}`, `${eol}    ${eol}`);
    const ps = validateText(text, 'logpush-filter');
    assert.deepEqual(ps.map((p) => p.message), ['The array "and" closed on line 7 is not opened: expected "[" before "{".'], JSON.stringify(eol));
    assert.equal(fixed(text, ps[0]), whole, JSON.stringify(eol));
  }
});

test('a closer typed twice right after a closer of its kind, where an opener left out mends the text as well: both fixes offered, neither applied by Fix all', () => {
  // rv19: `"params": []]` was 'The array ... is not opened' with one fix, `[[]]`: Fix all made the params an array in an array.
  const meant = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}\n]\n';
  const text = meant.replace('"params": []', '"params": []]');
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.fixes?.map((f) => f.title)]), [['syntax/unopened-bracket', ['Insert "[" to open the array', 'Remove the second "]"']]]);
  assert.equal(applyEdits(text, ps[0].fixes![1].edits), meant);
  // After a whole value of the other kind, the opener's place stays the one answer (`"and": {...}, {...}]`).
  const filter = '{"where": {"and": {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}, {"key": "ClientIP", "operator": "eq", "value": "1.2.3.5"}]}}';
  const f = validateText(filter, 'logpush-filter');
  assert.deepEqual(f.map((p) => [p.code, p.fixes?.length]), [['syntax/unopened-bracket', 1]]);
});

test('the "[" of an empty last item deleted after its comma (`"latest", ]]`): one problem, the opener before the "]", not a trailing comma', () => {
  // rv19: a trailing comma (its removal preferred, and wrong: `["latest" ]]`) and then a "[" before "latest" (`[["latest"]]`).
  const meant = '[\n  {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["latest", []]},\n  {"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}\n]\n';
  const text = meant.replace('[]]}', ']]}');
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 2, at: ']', message: 'The array closed on line 2 is not opened: expected "[" before "]".',
    related: [[2, ']']], fixes: ['Insert "[" to open the array'], preferred: false,
  }]);
  assert.equal(fixed(text, ps[0]), meant);
  // An object's "{" likewise (`[1, }]`); a trailing comma before two closers that no opener mends stays a trailing comma.
  const obj = '{"jsonrpc": "2.0", "id": 1, "method": "x", "params": [1, {}]}';
  const o = validateText(obj.replace('{}]', '}]'), 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(o.map((p) => [p.code, p.message]), [['syntax/unopened-bracket', 'The object closed on line 1 is not opened: expected "{" before "}".']]);
  assert.equal(fixed(obj.replace('{}]', '}]'), o[0]), obj);
  // Nor when the text without the comma parses (`["0xa",` then `]`, `]`: an empty array after it gets as far, but the comma alone is
  // one slip; the random-commas fuzz found it in getLogs' topics: the opener's text broke only at the `}` after).
  for (const trailing of ['{"jsonrpc": "2.0", "id": 1, "method": "x", "params": [[1, ]]}', '{"jsonrpc": "2.0", "id": 1, "method": "x", "params": [\n  [\n    "0xa",\n  ]\n]\n}\n']) {
    assert.deepEqual(validateText(trailing, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/')).map((p) => [p.code, p.fixes?.[0].preferred]), [['syntax/trailing-comma', true]]);
  }
});

test('a closer typed twice before the one left without an opener (`{"x": 1}}, "id": 2}`): the removal offered first, the opener\'s place too', () => {
  // rv19: read as a "{" left out before "id" (`{"x": 1}}, {"id": 2}`), its one fix making the request's last member an object of
  // its own in the batch. The text without the second "}" mends it as well: both fixes, neither applied by Fix all.
  const meant = '[\n  {"jsonrpc": "2.0", "method": "eth_getBalance", "params": {"x": 1}, "id": 2},\n  {"jsonrpc": "2.0", "id": 3, "method": "eth_chainId", "params": []}\n]\n';
  const text = meant.replace('{"x": 1}', '{"x": 1}}');
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(brief(text, ps), [{
    code: 'syntax/unopened-bracket', line: 2, at: '"id"', message: 'The object closed on line 2 is not opened: expected "{" before "id".',
    related: [[2, '}']], fixes: ['Remove the second "}"', 'Insert "{" to open the object'], preferred: false,
  }]);
  assert.equal(applyEdits(text, ps[0].fixes![0].edits), meant);
});

test('a closer typed twice earlier on the line, the one left without an opener right after a closer of its kind (`[[1]], [2]]`): the earlier pair\'s removal is tried too', () => {
  // rv21: C right after a "]" (`[2]]`) was taken for the closer typed twice, and when the text without C broke, the "]]" before it
  // was not tried: the one fix made the params `[[[1]], [2]]`.
  const meant = '{"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": [[1], [2]]}';
  const text = meant.replace('[[1]', '[[1]]');
  const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, p.fixes?.map((f) => f.title)]), [['syntax/unopened-bracket', ['Remove the second "]"', 'Insert "[" to open the array']]]);
  assert.equal(applyEdits(text, ps[0].fixes![0].edits), meant);
});

// syn14 (syn13's leftover): a closer typed twice after a whole container, where no opener's place is the one, said only 'Expected a
// comma before "]"' (two places for a "[" mend `"params": ["0x…", "latest"]]}`: before either item), and the removal was offered
// only beside an opener named. It is said alone now: the container closed twice, the removal its one fix.
test('a "]" typed twice after a whole array, no opener\'s place the one: the array closed twice, the removal offered, not applied by Fix all', () => {
  const request = '{"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x407d73d8a49eeb85d32cf465507dd71d507100c1", "latest"]}';
  const other = '{"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}';
  for (const meant of [`${request}\n`, `[\n  ${request},\n  ${other}\n]\n`, `[${request}, ${other}]\n`, `{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "eth_getBalance",\n  "params": ["0x407d73d8a49eeb85d32cf465507dd71d507100c1", "latest"]\n}\n`]) {
    const text = meant.replace('"latest"]', '"latest"]]');
    const line = lineOf(text, text.indexOf(']]'));
    const ps = validateText(text, 'jsonrpc-request');
    assert.deepEqual(brief(text, ps), [{
      code: 'syntax/unopened-bracket', line, at: ']', message: 'The array "params" is closed twice: the second "]" closes nothing.',
      related: [[line, ']']], fixes: ['Remove the second "]"'], preferred: false,
    }], text);
    assert.equal(ps[0].offset, text.indexOf(']]') + 1);
    assert.equal(fixed(text, ps[0]), meant);
    // "[" inserted after the array's own "[" mends the text too (`[["0x…", "latest"]]`): Fix all leaves the choice.
    assert.equal(fixAll(text, 'jsonrpc-request').text, text);
  }
});

test('a "}" typed twice after a whole object: the object closed twice, the removal its one fix, applied by Fix all (no "{" mends the text)', () => {
  const call = '{"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": "0x407d73d8a49eeb85d32cf465507dd71d507100c1"}, "latest"]}';
  const other = '{"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": []}';
  const cases: [string, string, string][] = [
    [`${call}\n`, '"0x407d73d8a49eeb85d32cf465507dd71d507100c1"}', 'The object is closed twice'],
    [`[\n  ${other},\n  ${call}\n]\n`, '"params": []}', 'The object is closed twice'],
    [`[${other}, ${call}]`, '"params": []}', 'The object is closed twice'],
    // At the document's end (it said 'Expected the end of the document at "}"').
    [`${other}\n`, '"params": []}', 'The object is closed twice'],
  ];
  for (const [meant, at, said] of cases) {
    const text = meant.replace(at, `${at}}`);
    const c = text.indexOf(at) + at.length;
    const ps = validateText(text, 'jsonrpc-request');
    assert.deepEqual(ps.map((p) => [p.code, p.offset, p.message, p.fixes?.map((f) => [f.title, f.preferred])]),
      [['syntax/unopened-bracket', c, `${said}: the second "}" closes nothing.`, [['Remove the second "}"', true]]]], text);
    assert.equal(fixAll(text, 'jsonrpc-request').text, meant);
  }
});

test('each closer of the valid fixtures typed twice: said as closed twice where the removal is the fix, every removal giving the fixture\'s value', () => {
  // (`  }}` then `}` at the end: the last "}" removed, the same value in another layout.)
  const { total, twice, preferred, bad } = typedTwice(false, (q) => q.code === 'syntax/unopened-bracket' && / is closed twice: /.test(q.message));
  // syn14: before, 'Expected a comma before "]"' (or the end of the document expected) with no fix. 1 450 where the closer typed
  // twice closes nothing; 5 more where it closes the document early (`"where": {...}},` then more members).
  // 2026-11-28: 1 455 of 1 690, 1 163 of them with the removal preferred. Held as shares (a fixture added moves the counts; ux14's two
  // were dropped for it), a little under those (about 20 documents of room): a change that says fewer of them fails.
  assert.deepEqual(bad, []);
  assert.ok(total > 1000 && twice / total >= 0.84 && preferred / twice >= 0.78, `${twice} of ${total} said, ${preferred} preferred`);
});

// The pair's second closer closing the document early (`"where": {...}},` then more members): it said 'Expected the end of the
// document at ","', no fix; the last "}" closes nothing, and no "{" is named for it.
test('a "}" typed twice that closes the document early (members after it): the object closed twice, the removal its one fix, applied by Fix all', () => {
  const filter = '{\n  "where": {\n    "key": "ClientCountry",\n    "operator": "eq",\n    "value": "us"\n  },\n  "dataset": "http_requests"\n}\n';
  const request = '{"jsonrpc": "2.0", "method": "eth_getBalance", "params": {"address": "0x407d73d8a49eeb85d32cf465507dd71d507100c1"}, "id": 1}';
  for (const [meant, kind, at, said] of [[filter, 'logpush-filter', '"us"\n  }', 'The object "where"'], [request, 'jsonrpc-request', '"}', 'The object "params"']] as [string, DocKind, string, string][]) {
    const text = meant.replace(at, `${at}}`);
    const c = text.indexOf(at) + at.length;
    const ps = validateText(text, kind).filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(ps.map((p) => [p.code, p.offset, p.message, p.fixes?.map((f) => [f.title, f.preferred])]),
      [['syntax/unopened-bracket', c, `${said} is closed twice: the second "}" ends the document early.`, [['Remove the second "}"', true]]]], text);
    // (The filter's "dataset" is unknown: Fix all renames it in either.)
    assert.equal(fixAll(text, kind).text, fixAll(meant, kind).text);
  }
  // A "]" likewise, its removal offered only (a "[" after the document's own mends it too: `[[[1, 2]], [3, 4]]`).
  const batch = '[[1, 2]], [3, 4]]';
  const b = validateText(batch, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(b.map((p) => [p.code, p.message, p.fixes?.map((f) => [f.title, f.preferred ?? false])]),
    [['syntax/unopened-bracket', 'The array is closed twice: the second "]" ends the document early.', [['Remove the second "]"', false]]]]);
});

test('a bracket typed twice with another slip on a later line: the bracket said first, the other slip next (the removal proved to its line\'s end)', () => {
  const first = '{"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": ["0x407d73d8a49eeb85d32cf465507dd71d507100c1", "latest"]}';
  const second = '{"jsonrpc": "2.0", "id": 2, "method": "eth_chainId", "params": [],}';
  for (const [typo, said] of [['"latest"]]', 'The array "params" is closed twice: the second "]" closes nothing.'], ['[["0x407d', 'The array "params" is opened twice: one "[" is not closed.']]) {
    const text = `[\n  ${first},\n  ${second}\n]\n`.replace(typo.replace(']]', ']').replace('[[', '['), typo);
    const ps = validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'));
    assert.deepEqual(ps.map((p) => [p.code, lineOf(text, p.offset), p.message]), [
      [said.includes('closed twice') ? 'syntax/unopened-bracket' : 'syntax/unclosed-bracket', 2, said],
      ['syntax/trailing-comma', 3, 'Trailing comma before "}".']], text);
  }
});
