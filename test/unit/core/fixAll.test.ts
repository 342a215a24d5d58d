import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixAll, autoFixOf, autoFixes, MAX_PASSES } from '../../../server/src/core/fixAll';
import { applyEdits } from '../../../server/src/core/text';
import { validateText } from '../../../server/src/core/validate';
import { isDocKind } from '../../../server/src/core/kinds';
import type { DocKind } from '../../../server/src/core';

const codes = (text: string, kind: DocKind) => validateText(text, kind).map((p) => p.code);

test('a filter with several unambiguous mistakes comes back clean in one call', () => {
  // "in" with a scalar (Use [403]), "startswith" (the operator's spelling), a trailing comma: each has one preferred fix.
  const text = '{"where": {"and": [\n  {"key": "EdgeResponseStatus", "operator": "in", "value": 403},\n  {"key": "ClientRequestPath", "operator": "startswith", "value": "/api"},\n]}}';
  const before = codes(text, 'logpush-filter');
  assert.ok(before.length >= 3, before.join());
  const r = fixAll(text, 'logpush-filter');
  assert.deepEqual(r.problems, [], r.text);
  assert.equal(r.fixed, before.length);
  assert.match(r.text, /"value": \[403\]/);
  assert.match(r.text, /"operator": "startsWith"/);
});

test('an ambiguous fix (two did-you-mean candidates) is left for the user; the others are applied', () => {
  const text = '{"where": {"and": [{"key": "ClientCountyr", "operator": "eq", "value": "ca"}, {"key": "EdgeResponseStatus", "operator": "in", "value": 403}]}}';
  const p = validateText(text, 'logpush-filter').find((x) => x.code === 'logpush/unknown-field')!;
  assert.ok(p.fixes && p.fixes.length > 1, 'the case: more than one candidate');
  assert.equal(autoFixOf(p), undefined);
  const r = fixAll(text, 'logpush-filter');
  assert.deepEqual(r.problems.map((x) => x.code), ['logpush/unknown-field']);
  assert.ok(r.text.includes('ClientCountyr') && r.text.includes('[403]'), r.text);
});

test('a fix revealed by another is applied in a later pass; the result is stable', () => {
  // Without "where" the conditions are not checked, so the operator's spelling is found only once the filter is wrapped; "In"
  // must become "in" before the scalar value is known to need an array.
  for (const [text, fixes] of [
    ['{"key": "ClientRequestPath", "operator": "startswith", "value": "/a"}', 2],
    ['{"where": {"key": "EdgeResponseStatus", "operator": "In", "value": 403}}', 2],
  ] as const) {
    assert.equal(codes(text, 'logpush-filter').length, 1, 'the case: one problem at first');
    const r = fixAll(text, 'logpush-filter');
    assert.deepEqual(r.problems, [], r.text);
    assert.equal(r.fixed, fixes, r.text);
    const again = fixAll(r.text, 'logpush-filter');
    assert.equal(again.fixed, 0);
    assert.equal(again.text, r.text);
  }
});

test('applyEdits applies from the end; fixAll never applies two edits at one place in one pass', () => {
  assert.equal(applyEdits('abcdef', [{ offset: 1, length: 1, newText: 'X' }, { offset: 4, length: 2, newText: 'YZW' }]), 'aXcdYZW');
  // Two rules with the same unknown-member typo: separate places, both fixed in one pass.
  const text = '{"rules": [{"action": "block", "expression": "http.host eq \\"a\\"", "enabeld": true}, {"action": "block", "expression": "http.host eq \\"b\\"", "enabeld": false}]}';
  const r = fixAll(text, 'waf-ruleset');
  assert.equal((r.text.match(/"enabled"/g) ?? []).length, 2, r.text);
});

test(`every golden fixture: fixAll ends within ${MAX_PASSES} passes, adds no syntax error, is stable, and leaves no auto-fix behind`, () => {
  const root = path.resolve(__dirname, '../../fixtures');
  let fixedFiles = 0;
  for (const kind of fs.readdirSync(root).filter(isDocKind)) {
    for (const file of fs.readdirSync(path.join(root, kind)).filter((f) => f.endsWith('.json'))) {
      const text = fs.readFileSync(path.join(root, kind, file), 'utf8');
      const syntaxBefore = validateText(text, kind).filter((p) => p.code.startsWith('syntax/')).length;
      const r = fixAll(text, kind);
      const where = `${kind}/${file}`;
      assert.ok(r.problems.filter((p) => p.code.startsWith('syntax/')).length <= syntaxBefore, `${where}: a fix broke the JSON:\n${r.text}`);
      if (r.fixed > 0) fixedFiles++;
      // Stable: what is left has no auto-fix (unless the passes ran out, which no fixture should need), but in a text still broken
      // by a problem with none, whose auto-fixes together do not make it parse (a trailing comma beside a closer left out): those
      // are left to the user (autoFixes), and the text has such a problem.
      const left = r.problems.filter((p) => autoFixOf(p)).map((p) => `${p.code}: ${p.message}`);
      if (left.length) {
        assert.equal(autoFixes(r.problems, r.text).count, 0, `${where}: auto-fixes left that Fix all would apply:\n${left.join('\n')}`);
        assert.ok(r.problems.some((p) => p.code.startsWith('syntax/') && p.severity === 'error' && !autoFixOf(p)), `${where}:\n${left.join('\n')}`);
      }
      assert.equal(fixAll(r.text, kind).fixed, 0, `${where}: a second run still fixed something`);
    }
  }
  assert.ok(fixedFiles > 20, `fixtures with auto-fixes: ${fixedFiles}`);
});

test('a misspelling as near to two allowed values is left for the user: both are offered, neither is auto-fixed', () => {
  // "!n" is one edit from "!in" and from "in" (opposite meanings), "lq" from "eq", "leq" and "lt", "ddos_l" from ddos_l4 and ddos_l7,
  // "rfc3339m" from rfc3339 and rfc3339ms: picking one would change what the document means.
  const filter = (op: string) => `{"where": {"key": "EdgeResponseStatus", "operator": "${op}", "value": [403]}}`;
  const cases: [string, DocKind, string[]][] = [
    [filter('!n'), 'logpush-filter', ['"!in"', '"in"']],
    [filter('lq'), 'logpush-filter', ['"eq"', '"leq"', '"lt"']],
    ['{"name": "x", "kind": "zone", "phase": "ddos_l", "rules": []}', 'waf-ruleset', ['"ddos_l4"', '"ddos_l7"']],
    ['{"name": "j", "dataset": "http_requests", "destination_conf": "s3://b?region=us-east-1", "output_options": {"timestamp_format": "rfc3339m"}}',
      'logpush-job', ['"rfc3339"', '"rfc3339ms"']],
  ];
  // ("ge" was one of them; it is wirefilter's word for "geq", named as such since x-edgekit-aliases: logpush/filter.test.ts.)
  for (const [text, kind, choices] of cases) {
    const p = validateText(text, kind).find((x) => x.code === 'schema/enum')!;
    assert.ok(p, text);
    assert.deepEqual(p.fixes?.map((f) => f.edits[0].newText), choices, p.message);
    for (const c of choices) assert.ok(p.message.includes(c), p.message);
    assert.equal(autoFixOf(p), undefined, p.message);
    assert.equal(fixAll(text, kind).text, text);
  }
  // One nearest value is still fixed: "blok" is one edit from "block" and further from every other action.
  const r = fixAll('{"name": "x", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "blok", "expression": "true"}]}', 'waf-ruleset');
  assert.match(r.text, /"action": "block"/);
});

test('an unknown function with two near names is left for the user (encode_base64 or decode_base64)', () => {
  const text = (fn: string) => JSON.stringify({ name: 'x', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: `${fn}(http.request.uri.path) eq "a"` }] });
  const p = validateText(text('ecode_base64'), 'waf-ruleset').find((x) => x.code === 'ruleset/expr-unknown-function')!;
  assert.match(p.message, /"decode_base64" or "encode_base64"/);
  assert.deepEqual(p.fixes?.map((f) => f.edits[0].newText), ['decode_base64', 'encode_base64']);
  assert.equal(autoFixOf(p), undefined);
  assert.equal(fixAll(text('ecode_base64'), 'waf-ruleset').fixed, 0);
  // One near name: fixed.
  assert.match(fixAll(text('url_decod'), 'waf-ruleset').text, /url_decode\(/);
});

test('maxProblems caps the problems returned, not the fixes applied', () => {
  // 50 requests without "jsonrpc": each has one auto-fix; with maxProblems 2 only 2 are reported per check, yet all 50 are fixed.
  const batch = `[${Array.from({ length: 50 }, (_, i) => `{"method": "eth_blockNumber", "params": [], "id": ${i + 1}}`).join(',\n')}]`;
  const r = fixAll(batch, 'jsonrpc-request', { maxProblems: 2 });
  assert.equal(r.fixed, 50);
  assert.deepEqual(r.problems, []);
  // What is left is capped as validate caps it.
  const broken = `[${Array.from({ length: 5 }, (_, i) => `{"jsonrpc": "2.0", "method": "eth_nope${i}", "params": [], "id": ${i + 1}}`).join(',')}]`;
  const left = fixAll(broken, 'jsonrpc-request', { maxProblems: 2 });
  assert.deepEqual(left.problems, validateText(broken, 'jsonrpc-request', { maxProblems: 2 }));
});

test('a CRLF document keeps CRLF: a fix that adds a member on its own line uses the document\'s line break', () => {
  const text = '[\r\n  {\r\n    "method": "eth_blockNumber",\r\n    "params": [],\r\n    "id": 1\r\n  }\r\n]\r\n';
  const r = fixAll(text, 'jsonrpc-request');
  assert.equal(r.fixed, 1);
  assert.match(r.text, /"jsonrpc": "2\.0",\r\n {4}"method"/, JSON.stringify(r.text));
  assert.doesNotMatch(r.text, /[^\r]\n/, `no lone LF: ${JSON.stringify(r.text)}`);
  // LF documents are unchanged in kind.
  const lf = fixAll(text.replace(/\r\n/g, '\n'), 'jsonrpc-request');
  assert.equal(lf.text, r.text.replace(/\r\n/g, '\n'));
});

test('an array compared with "ne" is not rewritten to any(...) by Fix all: all(...) and any(...) are offered, the choice left to the user', () => {
  // any(http.request.headers.names[*] ne "x-debug") is true for nearly every request (some header is not x-debug): written
  // into a block rule on save, it would block all traffic. "No header is x-debug" is all(...[*] ne ...).
  const rs = (expr: string) => JSON.stringify({ name: 'x', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action: 'block', expression: expr }] });
  for (const op of ['ne', '!=']) {
    const text = rs(`http.request.headers.names ${op} "x-debug"`);
    const p = validateText(text, 'waf-ruleset').find((x) => x.code === 'ruleset/expr-type-mismatch')!;
    const fixed = p.fixes!.map((f) => JSON.parse(applyEdits(text, f.edits)).rules[0].expression);
    assert.deepEqual(fixed, [`all(http.request.headers.names[*] ${op} "x-debug")`, `any(http.request.headers.names[*] ${op} "x-debug")`]);
    assert.equal(autoFixOf(p), undefined);
    assert.equal(fixAll(text, 'waf-ruleset').text, text);
  }
  // "eq": any element equal, one fix, applied; inside any() already, "[*]" alone.
  assert.equal(JSON.parse(fixAll(rs('http.request.headers.names eq "x-debug"'), 'waf-ruleset').text).rules[0].expression, 'any(http.request.headers.names[*] eq "x-debug")');
  assert.equal(JSON.parse(fixAll(rs('all(http.request.headers.names ne "x-debug")'), 'waf-ruleset').text).rules[0].expression, 'all(http.request.headers.names[*] ne "x-debug")');
});

test('a number written as a string keeps its digits when a fix writes it as a number (past 2^53 too)', () => {
  // The platform reads a set of an integer field as []uint64 (exact to 2^64); Number("9007199254740993") is 9007199254740992.
  const filter = (value: string) => `{"where": {"key": "EdgeResponseBytes", "operator": "in", "value": ${value}}}`;
  for (const [value, want] of [
    ['["9007199254740993"]', '[9007199254740993]'],
    ['"9007199254740993"', '[9007199254740993]'],
    ['"18446744073709551615, 2"', '[18446744073709551615, 2]'],
    ['[" 12 "]', '[12]'],
  ] as const) {
    const r = fixAll(filter(value), 'logpush-filter');
    assert.deepEqual(r.problems, [], r.text);
    assert.equal(r.text, filter(want));
  }
  // An operator fix that takes the one element out of its array writes the number as written too.
  const text = '{"where": {"key": "EdgeResponseBytes", "operator": "contains", "value": [9007199254740993]}}';
  const p = validateText(text, 'logpush-filter').find((x) => x.code === 'logpush/operator-not-allowed')!;
  const eq = p.fixes!.find((f) => f.title.includes('"eq"'))!;
  assert.match(applyEdits(text, eq.edits), /"operator": "eq", "value": 9007199254740993\}/);
});

test('Fix all on a batch of 40,000 requests without "jsonrpc" (2.3 MB) fixes every one (its growth: npm run bench, section 8)', () => {
  // applyEdits spliced the whole text once per edit and autoFixes compared every edit with every one taken: 78 s here (23 s for
  // the first 10,000 while maxProblems capped each pass), holding the language server on save.
  const n = 40_000;
  const batch = `[${Array.from({ length: n }, (_, i) => `{"method": "eth_blockNumber", "params": [], "id": ${i + 1}}`).join(',\n')}]`;
  const r = fixAll(batch, 'jsonrpc-request');
  assert.equal(r.fixed, n);
  assert.deepEqual(r.problems, []);
});

test('applyEdits and autoFixes: edits in any order, adjacent ones, insertions at one place', () => {
  assert.equal(applyEdits('abcdef', [{ offset: 4, length: 2, newText: 'YZ' }, { offset: 0, length: 0, newText: '>' }, { offset: 1, length: 1, newText: '' }, { offset: 2, length: 2, newText: 'CD!' }]), '>aCD!YZ');
  const p = (offset: number, length: number, extra?: number) => ({ code: 'syntax/trailing-comma' as const, severity: 'error' as const, message: 'm', offset, length,
    fixes: [{ title: 't', preferred: true, edits: [{ offset, length, newText: 'x' }, ...(extra === undefined ? [] : [{ offset: extra, length: 0, newText: ')' }])] }] });
  // Taken: 10-12, 20 (insertion) and 5 (insertion) with 30; refused: 11-13 (overlaps 10-12), 20 (same place), 29-31 (overlaps 30?
  // no: 30 is an insertion inside 29-31), 0-6 (holds 5).
  const r = autoFixes([p(10, 2), p(11, 2), p(20, 0), p(20, 0), p(5, 0, 30), p(29, 2), p(0, 6), p(40, 1)]);
  assert.equal(r.count, 4);
  assert.deepEqual(r.edits.map((e) => e.offset).sort((a, b) => a - b), [5, 10, 20, 30, 40]);
});

test('a number given to a string field is quoted as written: 1.50, 1e3 and 20 digits keep their text', () => {
  const filter = (op: string, value: string) => `{"where": {"key": "ClientRequestPath", "operator": "${op}", "value": ${value}}}`;
  for (const [op, value, want] of [
    ['eq', '1.50', '"1.50"'], ['eq', '1e3', '"1e3"'], ['eq', '12345678901234567890', '"12345678901234567890"'],
    ['in', '[12345678901234567890, 7]', '["12345678901234567890", "7"]'], ['eq', 'true', '"true"'],
  ]) {
    assert.equal(fixAll(filter(op, value), 'logpush-filter').text, filter(op, want));
  }
});

test('while the document has a syntax error, a pass applies its syntax fixes only: the checks\' fixes were found in a tree the parser guessed', () => {
  const root = path.join(__dirname, '../../fixtures/waf-ruleset');
  // An unquoted name: the parser's tree put "bic" (of action_parameters) in the rule, whose "did you mean id" renamed it.
  // A single-quoted element: the rate limit's characteristics lacked "cf.colo.id", which was added as the quotes were mended.
  for (const [file, from, to] of [['ap-set-config.json', '"action_parameters":', 'action_parameters:'], ['custom-phase.json', '"cf.colo.id",', "'cf.colo.id',"]]) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const broken = text.replace(from, to);
    assert.notEqual(broken, text);
    assert.deepEqual(JSON.parse(fixAll(broken, 'waf-ruleset').text), JSON.parse(fixAll(text, 'waf-ruleset').text), file);
  }
});
