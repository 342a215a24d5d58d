// More than the first syntax error, when what comes after it is proved not to be a consequence of it: the first error's repair (a
// comma inserted, a trailing comma removed, the quotes of a cut string escaped, a comment read as space) is applied, the text parsed
// again, and its next error is reported only when it lies past the repaired spot's next value. JSON pasted from JavaScript (trailing
// commas, commas left out between the objects of an array) shows every mistake at once, and Fix all mends them in one pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import { fixAll } from '../../../server/src/core/fixAll';
import type { DocKind, Problem } from '../../../server/src/core/types';
import { isDocKind } from '../../../server/src/core/kinds';

function syntax(text: string): Problem[] {
  return parseDocument(text).syntax;
}

function brief(text: string, ps: Problem[]) {
  return ps.map((p) => ({ code: p.code, at: text.slice(p.offset, p.offset + Math.max(p.length, 1)), offset: p.offset, fix: p.fixes?.map((f) => `${f.title}${f.preferred ? ' (preferred)' : ''}`) }));
}

test('two commas left out between the objects of an array: both reported, each with a preferred fix that inserts it', () => {
  const text = '[\n  {"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}\n  {"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]}\n  {"jsonrpc":"2.0","id":3,"method":"eth_gasPrice","params":[]}\n]\n';
  const ps = syntax(text);
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.at, p.fix]), [
    ['syntax/invalid-json', '{', ['Insert the missing comma (preferred)']],
    ['syntax/invalid-json', '{', ['Insert the missing comma (preferred)']],
  ]);
  assert.deepEqual(ps.map((p) => text.slice(0, p.offset).split('\n').length), [3, 4], 'on lines 3 and 4');
  assert.deepEqual(ps.map((p) => p.message), ['Expected a comma before "{".', 'Expected a comma before "{".']);
  // The comma goes right after the value before it, not before the next one on its own line.
  assert.deepEqual(ps.map((p) => text[p.fixes![0].edits[0].offset - 1]), ['}', '}']);
  const fixed = fixAll(text, 'jsonrpc-request');
  assert.equal(fixed.fixed, 2);
  assert.deepEqual(fixed.problems, []);
  assert.equal(JSON.parse(fixed.text).length, 3);
});

test('JavaScript pasted as JSON: trailing commas and a comma left out, on one line and on several, each at its own spot', () => {
  const text = '{\n  "where": {\n    "and": [\n      { "key": "ClientCountry", "operator": "eq", "value": "us", },\n      { "key": "EdgeResponseStatus", "operator": "geq", "value": 500 }\n      { "key": "ClientRequestHost", "operator": "eq", "value": "a.example" },\n    ],\n  },\n}\n';
  const ps = syntax(text);
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.at]), [
    ['syntax/trailing-comma', ','],
    ['syntax/invalid-json', '{'],
    ['syntax/trailing-comma', ','],
    ['syntax/trailing-comma', ','],
    ['syntax/trailing-comma', ','],
  ]);
  // Offsets are the document's own, after repairs that inserted and removed characters before them.
  assert.deepEqual(ps.map((p) => text.slice(0, p.offset).split('\n').length), [4, 6, 6, 7, 8]);
  const fixed = fixAll(text, 'logpush-filter');
  assert.deepEqual(fixed.problems.map((p) => p.code), []);
  assert.equal(JSON.parse(fixed.text).where.and.length, 3);
  const one = JSON.stringify(JSON.parse(fixed.text)).replace('},{"key":"ClientRequestHost"', '}{"key":"ClientRequestHost"').replace(/\]/, ',]');
  assert.deepEqual(brief(one, syntax(one)).map((p) => [p.code, p.at]), [['syntax/invalid-json', '{'], ['syntax/trailing-comma', ',']], 'minified, on one line');
});

test('a comma left out before a value that has an error of its own: both reported', () => {
  const text = '[\n  {"jsonrpc":"2.0","id":2,"method":"eth_blockNumber","params":[]}\n  {"jsonrpc":"2.0","id":3,"method":"eth_chainId","params":[],}\n]\n';
  const ps = syntax(text);
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.at, p.fix]), [
    ['syntax/invalid-json', '{', ['Insert the missing comma (preferred)']],
    ['syntax/trailing-comma', ',', ['Remove the trailing comma (preferred)']],
  ]);
  assert.deepEqual(fixAll(text, 'jsonrpc-request').problems, []);
  // Three values in a row: two commas.
  assert.deepEqual(brief('[1 2 3]', syntax('[1 2 3]')).map((p) => [p.at, p.fix]), [['2', ['Insert the missing comma (preferred)']], ['3', ['Insert the missing comma (preferred)']]]);
});

test('a comma that would not mend the document is not offered, and nothing after it is reported (a "}" left out)', () => {
  const text = '[{"a": 1 {"b": 2}, {"c": 3,}]';
  const ps = syntax(text);
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.at, p.fix]), [['syntax/invalid-json', '{', undefined]]);
  // On lines of their own, the indentation says where the "}" (and the comma after it) were left out (syn9): that repair proves
  // what follows it.
  const lines = '[\n  {"a": 1\n  {"b": 2},\n  {"c": 3,}\n]';
  assert.deepEqual(brief(lines, syntax(lines)).map((p) => [p.code, p.at, p.fix]),
    [['syntax/unclosed-bracket', '{', ['Insert "}," to close the object']], ['syntax/trailing-comma', ',', ['Remove the trailing comma (preferred)']]]);
  // A lost quote still gives its one error, not a cascade.
  assert.equal(syntax('{"a":"abc, "b": 1, "c": [}').length, 1);
  // A colon left out where no value follows: no repair, one error.
  const colon = '{"a" , "b": 2,}';
  assert.deepEqual(brief(colon, syntax(colon)).map((p) => [p.code, p.fix]), [['syntax/invalid-json', undefined]]);
});

test('comments are reported each, with a fix that removes one (not preferred: it deletes what you wrote), and errors after them too', () => {
  const text = '{\n  // the dataset\n  "where": { "key": "ClientCountry", "operator": "eq", "value": "us", } /* note */\n}\n';
  const ps = syntax(text);
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.at, p.fix]), [
    ['syntax/comment', '// the dataset', ['Remove the comment']],
    ['syntax/trailing-comma', ',', ['Remove the trailing comma (preferred)']],
    ['syntax/comment', '/* note */', ['Remove the comment']],
  ]);
  const first = ps[0].fixes![0].edits[0];
  assert.equal(text.slice(first.offset, first.offset + first.length), '  // the dataset\n', 'alone on its line: the line goes');
  const last = ps[2].fixes![0].edits[0];
  assert.equal(text.slice(last.offset, last.offset + last.length), ' /* note */', 'with the space before it');
});

// syn12 noticed, syn14 mended: a comment before the first token of its line was removed with the indentation before it, and the
// space after it stayed (`  /* c */ "jsonrpc"` became ` "jsonrpc"`: one space of indentation; at the margin, a stray leading space).
test('a comment before the first token of its line is removed with the space after it: the line keeps its own indentation', () => {
  const remove = (text: string) => {
    const ps = syntax(text).filter((p) => p.code === 'syntax/comment');
    assert.equal(ps.length, 1, text);
    const { offset, length } = ps[0].fixes![0].edits[0];
    return text.slice(0, offset) + text.slice(offset + length);
  };
  for (const eol of ['\n', '\r\n']) {
    const meant = '{\n  "jsonrpc": "2.0",\n  "id": 1\n}\n'.replace(/\n/g, eol);
    assert.equal(remove(meant.replace('  "jsonrpc"', '  /* c */ "jsonrpc"')), meant);
    assert.equal(remove(meant.replace('  "jsonrpc"', '  /* c */\t "jsonrpc"')), meant);
    assert.equal(remove(meant.replace('  "jsonrpc"', '\t/* c */ "jsonrpc"')), meant.replace('  "jsonrpc"', '\t"jsonrpc"'));
    // At the margin: no space left before the line's first token.
    assert.equal(remove(meant.replace('{', '/* c */ {')), meant);
    // Alone on its line, the line goes; after a token, the space before it goes (as before).
    assert.equal(remove(meant.replace('  "jsonrpc"', `  /* c */${eol}  "jsonrpc"`)), meant);
    assert.equal(remove(meant.replace('"2.0",', '"2.0", /* c */')), meant);
  }
});

test('two rules expressions pasted with their quotes, on two lines: both cut strings reported, neither expression\'s own error', () => {
  const text = '{\n  "phase": "http_request_firewall_custom",\n  "rules": [\n    { "action": "block", "expression": "http.request.uri.path contains "/admin"" },\n    { "action": "block", "expression": "http.host eq "a.example"" }\n  ]\n}\n';
  const ps = validateText(text, 'waf-ruleset');
  assert.deepEqual(brief(text, ps).map((p) => [p.code, p.at]), [['syntax/unescaped-quote', '"'], ['syntax/unescaped-quote', '"']]);
  assert.deepEqual(ps.map((p) => text.slice(0, p.offset).split('\n').length), [4, 5]);
  assert.deepEqual(ps.map((p) => text.slice(p.related![0].offset, p.related![0].offset + p.related![0].length)),
    ['"http.request.uri.path contains "/admin""', '"http.host eq "a.example""']);
  const fixed = fixAll(text, 'waf-ruleset');
  assert.deepEqual(fixed.problems, []);
  assert.deepEqual(JSON.parse(fixed.text).rules.map((r: { expression: string }) => r.expression), ['http.request.uri.path contains "/admin"', 'http.host eq "a.example"']);
});

test('a filter string in a job: its trailing commas are each reported inside the string', () => {
  const filter = '{"where":{"and":[{"key":"ClientCountry","operator":"eq","value":"us",},{"key":"EdgeResponseStatus","operator":"eq","value":200,},]}}';
  const text = JSON.stringify({ name: 'job', dataset: 'http_requests', destination_conf: 'r2://logs/{DATE}?account-id=abc&access-key-id=x&secret-access-key=y', filter }, null, 2);
  const ps = validateText(text, 'logpush-job').filter((p) => p.code.startsWith('syntax/'));
  assert.deepEqual(ps.map((p) => [p.code, text[p.offset]]), [['syntax/trailing-comma', ','], ['syntax/trailing-comma', ','], ['syntax/trailing-comma', ',']]);
  const fixed = fixAll(text, 'logpush-job');
  assert.deepEqual(fixed.problems.filter((p) => p.severity === 'error'), []);
  assert.equal(JSON.parse(JSON.parse(fixed.text).filter).where.and.length, 2);
});

test('many errors: at most 50 syntax problems, in order', () => {
  const text = '[' + Array.from({ length: 80 }, (_, i) => `[${i},]`).join(',') + ']';
  const ps = syntax(text);
  assert.equal(ps.length, 50);
  assert.ok(ps.every((p) => p.code === 'syntax/trailing-comma' && text[p.offset] === ','));
  assert.ok(ps.every((p, i) => i === 0 || p.offset > ps[i - 1].offset));
  assert.equal(fixAll(text, 'jsonrpc-request').text.includes(',]'), false, 'Fix all mends them all over its passes');
});

test('commas left out and trailing commas added at random in the fixtures: each reported, and Fix all gives back the value', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { mulberry32 } = await import('../../../server/src/core/prng');
  const root = path.join(__dirname, '../../fixtures');
  const files = fs.readdirSync(root).flatMap((d) => fs.readdirSync(path.join(root, d)).filter((f) => f.endsWith('.json')).map((f) => path.join(root, d, f)));
  const rand = mulberry32(20261127);
  let cases = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const kind = path.basename(path.dirname(file)) as DocKind;
    try { JSON.parse(text); } catch { continue; }
    if (!isDocKind(kind) || text.length > 20_000 || parseDocument(text).syntax.length) continue;
    // The commas outside strings, from jsonc-parser's scanner.
    const { createScanner, SyntaxKind } = await import('jsonc-parser');
    const scanner = createScanner(text, false);
    const commas: number[] = [];
    const closers: number[] = [];
    for (let k = scanner.scan(); k !== SyntaxKind.EOF; k = scanner.scan()) {
      if (k === SyntaxKind.CommaToken) commas.push(scanner.getTokenOffset());
      if ((k === SyntaxKind.CloseBraceToken || k === SyntaxKind.CloseBracketToken) && text[scanner.getTokenOffset() - 1] !== '{' && text[scanner.getTokenOffset() - 1] !== '[') closers.push(scanner.getTokenOffset());
    }
    if (!commas.length && !closers.length) continue;
    for (let round = 0; round < 2; round++) {
      // Up to three edits, far enough apart not to touch: a comma removed (a space left, so that no two tokens run together) or a
      // comma added before a closer.
      const picks = new Map<number, 'drop' | 'add'>();
      for (let i = 0; i < 3; i++) {
        const drop = rand() < 0.5 && commas.length;
        const at = drop ? commas[Math.floor(rand() * commas.length)] : closers[Math.floor(rand() * closers.length)];
        if (at === undefined || [...picks.keys()].some((o) => Math.abs(o - at) < 3)) continue;
        picks.set(at, drop ? 'drop' : 'add');
      }
      let broken = '';
      let from = 0;
      for (const at of [...picks.keys()].sort((a, b) => a - b)) {
        broken += text.slice(from, at) + (picks.get(at) === 'drop' ? ' ' : ',' + text[at]);
        from = at + 1;
      }
      broken += text.slice(from);
      const ps = parseDocument(broken).syntax;
      cases++;
      assert.equal(ps.length, picks.size, `${file}: ${JSON.stringify([...picks])}: ${JSON.stringify(ps.map((p) => [p.offset, p.message]))}`);
      assert.ok(ps.every((p) => p.offset >= 0 && p.offset + p.length <= broken.length));
      const fixed = fixAll(broken, kind);
      // Fix all also applies the document's other fixes (a string id made a number): as it does on the intact text.
      assert.deepEqual(JSON.parse(fixed.text), JSON.parse(fixAll(text, kind).text), `${file}: Fix all gives back the value`);
    }
  }
  assert.ok(cases > 200, `${cases} cases`);
});

test('a JavaScript object literal pasted as JSON: unquoted property names and single-quoted strings, each with its fix, all at once', () => {
  const text = "{\n  where: {\n    and: [\n      { key: 'ClientCountry', operator: 'eq', value: 'us' },\n      { key: 'EdgeResponseStatus', operator: 'geq', value: 500, },\n    ],\n  },\n}\n";
  const ps = syntax(text);
  const first = ps.slice(0, 3).map((p) => [p.code, p.message, p.fixes?.map((f) => `${f.title}${f.preferred ? ' (preferred)' : ''}`), text.slice(p.offset, p.offset + p.length)]);
  assert.deepEqual(first, [
    ['syntax/invalid-json', 'A property name is written in double quotes: "where".', ['Quote the property name (preferred)'], 'where'],
    ['syntax/invalid-json', 'A property name is written in double quotes: "and".', ['Quote the property name (preferred)'], 'and'],
    ['syntax/invalid-json', 'A property name is written in double quotes: "key".', ['Quote the property name (preferred)'], 'key'],
  ]);
  const single = ps.find((p) => text.slice(p.offset, p.offset + p.length) === "'ClientCountry'")!;
  assert.equal(single.message, 'A string is written in double quotes: "ClientCountry".');
  assert.deepEqual(single.fixes?.map((f) => [f.title, f.preferred]), [['Use double quotes', true]]);
  assert.equal(ps.length, 17, JSON.stringify(ps.map((p) => text.slice(p.offset, p.offset + p.length))));
  const fixed = fixAll(text, 'logpush-filter');
  assert.deepEqual(fixed.problems, []);
  assert.deepEqual(JSON.parse(fixed.text), { where: { and: [{ key: 'ClientCountry', operator: 'eq', value: 'us' }, { key: 'EdgeResponseStatus', operator: 'geq', value: 500 }] } });
});

test('single-quoted strings with a double quote or an escaped single quote inside, and a string that spans spaces', () => {
  const text = "{\"a\": 'say \"hi\"', \"b\": 'it\\'s', \"c\": 'two words'}";
  const fixed = fixAll(text, 'logpush-filter');
  assert.equal(parseDocument(fixed.text).syntax.length, 0, fixed.text);
  assert.deepEqual(JSON.parse(fixed.text), { a: 'say "hi"', b: "it's", c: 'two words' });
  // No closing quote on the line: no fix.
  const open = "{\"a\": 'no end}";
  assert.deepEqual(syntax(open).map((p) => p.fixes), [undefined]);
});

test('a colon left out after a property name, and Python\'s or a typo\'s True, False, None', () => {
  const text = '{"key" "ClientCountry", "operator": "eq", "value": "us", "x": True, "y": None, "z": FALSE}';
  const ps = syntax(text);
  assert.deepEqual(ps.map((p) => [p.message, p.fixes?.map((f) => `${f.title}${f.preferred ? ' (preferred)' : ''}`)]), [
    ['Expected ":" after the property name before "ClientCountry".', ['Insert the missing colon (preferred)']],
    ['JSON writes true in lower case: "True".', ['Write true (preferred)']],
    ['JSON writes null for nothing: "None".', ['Write null (preferred)']],
    ['JSON writes false in lower case: "FALSE".', ['Write false (preferred)']],
  ]);
  // (Fix all also wraps the comparison in "where".)
  assert.deepEqual(JSON.parse(fixAll(text, 'logpush-filter').text).where, { key: 'ClientCountry', operator: 'eq', value: 'us', x: true, y: null, z: false });
  // undefined has no JSON spelling: said, not fixed.
  const u = syntax('{"a": undefined}');
  assert.deepEqual(u.map((p) => [p.message, p.fixes]), [['JSON has no undefined: leave the member out, or write null: "undefined".', undefined]]);
});

test('a word where a value goes: said, with a fix that quotes it (not applied by Fix all: it may be a misspelt true), and what follows is checked', () => {
  const text = '{"where": {"key": "ClientCountry", "operator": eq, "value": "us",}}';
  const ps = syntax(text);
  assert.deepEqual(ps.map((p) => [p.message, p.fixes?.map((f) => [f.title, f.preferred ?? false])]), [
    ['Unexpected word "eq": a string is written in double quotes, and true, false and null in lower case.', [['Write it as the string "eq"', false]]],
    ['Trailing comma before "}".', [['Remove the trailing comma', true]]],
  ]);
  // The word is left for the user, and with it the trailing comma: alone, its removal would leave the text broken.
  const fixed = fixAll(text, 'logpush-filter');
  assert.deepEqual(fixed.problems.map((p) => p.code), ['syntax/invalid-json', 'syntax/trailing-comma']);
});

test('a misspelt true, false or null: did you mean, with its fix (not applied by Fix all)', () => {
  for (const [word, meant] of [['tru', 'true'], ['flase', 'false'], ['nul', 'null']]) {
    const text = `{"a": ${word}}`;
    const [p] = syntax(text);
    assert.equal(p.message, `Unexpected word "${word}"; did you mean ${meant}?`);
    assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred ?? false, f.edits]), [[`Write ${meant}`, false, [{ offset: 6, length: word.length, newText: meant }]]]);
  }
});

test('a fix proved only by a repair that Fix all does not apply is not preferred: a key that lost its opening quote is left alone', () => {
  // `id"` is read as a word (its fix, quoting it, is not preferred); the colon and the escaped quotes proved after that repair would
  // give "id":": \"2" once Fix all applied them without it.
  for (const [text, broken] of [['{"method": "net_version", id": "2"}', 'id": "2"'], ['{"fromBlock": 0x1", "toBlock": "0x2"}', '0x1", "toBlock": "0x2"'], ['[{to": "0xde"}]', 'to": "0xde"']]) {
    const ps = syntax(text);
    assert.ok(ps.length >= 1, text);
    assert.ok(ps.slice(1).every((p) => !p.fixes?.some((f) => f.preferred)), `${text}: ${JSON.stringify(brief(text, ps))}`);
    assert.ok(fixAll(text, 'jsonrpc-request').text.includes(broken), `${text}: Fix all left it alone`);
  }
  // A trailing comma removed is right whatever the word was meant to be.
  const comma = '{"where": {"key": "ClientCountry", "operator": eq, "value": "us",}}';
  assert.deepEqual(syntax(comma).map((p) => p.fixes?.[0].preferred ?? false), [false, true]);
});

test('a word that is a name of Object.prototype (__proto__, constructor, toString) where a value goes is a word, not a crash', () => {
  for (const word of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    for (const text of [`{"a": ${word}}`, `{"a": 1, ${word}": {}}`, `[${word}]`]) {
      const ps = syntax(text);
      assert.equal(ps[0].code, 'syntax/invalid-json', text);
      assert.ok(!ps[0].fixes?.some((f) => f.preferred), text);
    }
  }
});

test('a repair whose next token is still wrong is not preferred: an apostrophe in a single-quoted string, a name before a name, a name in an array', () => {
  // 'don't': the quotes of 'don' are not a string's (a "t" follows); "b" "c": 2 is not a name and its value ("c" is a name);
  // [1, b: 2] has no property names. Fix all wrote "don"t', "b": "c": 2 and [1, "b": 2], as broken as before.
  for (const [text, kind] of [["{\"a\": 'don't'}", 'logpush-filter'], ['{"a": 1, "b" "c": 2}', 'logpush-filter'], ['[1, b: 2]', 'jsonrpc-request']] as const) {
    const ps = syntax(text);
    assert.deepEqual(ps.filter((p) => p.fixes?.some((f) => f.preferred)).map((p) => text.slice(p.offset, p.offset + p.length)), [], text);
    assert.equal(fixAll(text, kind).text.includes(text.slice(1)), true, `${text}: left alone`);
  }
  // Where the next token is right, as before.
  assert.equal(fixAll("{'a': 'it\\'s', \"b\" \"c\", d: 1}", 'logpush-filter').text, '{"a": "it\'s", "b": "c", "d": 1}');
});

test('a key that lost its opening quote is one problem, not a word, a colon and a cut string: a word\'s repair is proved past the token after it', () => {
  for (const text of ['{ jsonrpc": "2.0", "method": "eth_chainId", "id": 1 }', '{"a": 1, method": "x"}', '{"a": True": 1}']) {
    assert.equal(syntax(text).length, 1, `${text}: ${JSON.stringify(brief(text, syntax(text)))}`);
  }
  // A word followed by what JSON expects there: what comes after is still checked.
  assert.deepEqual(syntax('{"a": True, "b": None, "c": [eq, 1,]}').map((p) => p.code), ['syntax/invalid-json', 'syntax/invalid-json', 'syntax/invalid-json', 'syntax/trailing-comma']);
});

test('a key that lost its closing quote is one problem with no fix: the colon\'s repair is proved past the token after the value', () => {
  // "jsonrpc: " is read as the name, a colon inserted before 2.0 and a comma before ", ": Fix all wrote "jsonrpc: ":2.0,", ...
  const text = '[{ "jsonrpc: "2.0", "method": "eth_chainId", "id": 1 }]';
  assert.deepEqual(brief(text, syntax(text)).map((p) => [p.at, p.fix]), [['2.0', undefined]]);
  assert.equal(fixAll(text, 'jsonrpc-request').text, text);
  // A colon left out before a value that ends its member, as before.
  assert.deepEqual(brief('{"a" 1, "b" "x"}', syntax('{"a" 1, "b" "x"}')).map((p) => p.fix), [['Insert the missing colon (preferred)'], ['Insert the missing colon (preferred)']]);
});

test('a comma before a value that a broken token follows is not proved: a string that lost its closing quote is one problem', () => {
  // "0x12, " is read as the string, a comma inserted before 0 and x0010 is a word; "0x2"244" a quote typed in a string, whose
  // removal is offered (not preferred: it may be a closing quote and a comma left out, "0x2", 244).
  for (const [text, fix] of [['[{"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0x12, "0x0010"], "id": 2}]', undefined],
    ['{"params": ["0x2"244", true]}', ['Remove the quote']]] as const) {
    const ps = syntax(text);
    assert.deepEqual(brief(text, ps).map((p) => p.fix), [fix], `${text}: ${JSON.stringify(brief(text, ps))}`);
  }
  assert.equal(syntax('[1 2 3 "a" true]').length, 4, 'commas left out in a row, as before');
});

test('a word two slips from a literal is a word, not a misspelt literal ("value" is not "did you mean false?")', () => {
  const [p] = syntax('{"a": value}');
  assert.equal(p.message, 'Unexpected word "value": a string is written in double quotes, and true, false and null in lower case.');
  assert.deepEqual(p.fixes?.map((f) => f.title), ['Write it as the string "value"']);
});

test('Fix all changes a broken document only when its syntax fixes together make it parse: a partial repair is left to the user', () => {
  // rv8: a quote typed in an array's string gave preferred commas that Fix all (and lint --fix, which writes the file) applied into
  // another broken text: ["0x",0,0b", "latest"].
  for (const text of ['{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x"00b", "latest"]}',
    '{"where": {"key": "ClientCountry", "operator": eq, "value": "us",}}']) {
    const r = fixAll(text, text.includes('jsonrpc') ? 'jsonrpc-request' : 'logpush-filter');
    assert.equal(r.text, text, 'unchanged');
    assert.equal(r.fixed, 0);
  }
  // Repairs that together give JSON are applied (comments aside: they are left, and read as space).
  const js = "{\n  // the filter\n  where: { key: 'ClientCountry', operator: 'eq', value: 'us', },\n}\n";
  const r = fixAll(js, 'logpush-filter');
  assert.deepEqual(r.problems.map((p) => p.code), ['syntax/comment']);
  assert.ok(r.text.includes('"where": { "key": "ClientCountry"'), r.text);
});

test('the quick fix "Fix all" beside a problem of a broken document offers its syntax fixes only, and only when they make it parse', async () => {
  const { autoFixes } = await import('../../../server/src/core/fixAll');
  // A rule's fix found in the tree jsonc-parser guessed is not offered while the document is broken.
  const broken = '{"where": {"key": "ClientCountry", "operator": "in", "value": "us"},}';
  const ps = validateText(broken, 'logpush-filter');
  assert.ok(ps.some((p) => p.code === 'logpush/set-needs-array'), JSON.stringify(ps.map((p) => p.code)));
  const fixes = autoFixes(ps, broken);
  assert.equal(fixes.count, 1, 'the trailing comma only');
  assert.deepEqual(fixes.edits, [{ offset: broken.length - 2, length: 1, newText: '' }]);
  // A partial repair: none.
  const partial = '{"where": {"key": "ClientCountry", "operator": eq, "value": "us",}}';
  assert.equal(autoFixes(validateText(partial, 'logpush-filter'), partial).count, 0);
});
