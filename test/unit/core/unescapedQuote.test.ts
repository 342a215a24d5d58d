// A quote typed inside a JSON string ends the string: a rules expression or a filter value pasted with its quotes
// ("expression": "http.host eq "a.example"") gave "Unexpected character" somewhere after it, and the expression's own syntax error
// on what was left of the string. The first syntax error now says which quote ended which string, with a fix that escapes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { validateText } from '../../../server/src/core/validate';
import type { Problem } from '../../../server/src/core/types';

function applyFix(text: string, p: Problem): string {
  const edits = [...p.fixes![0].edits].sort((a, b) => b.offset - a.offset);
  let out = text;
  for (const e of edits) out = out.slice(0, e.offset) + e.newText + out.slice(e.offset + e.length);
  return out;
}

test('a rules expression with unescaped quotes: one problem on the quote that ended the string, and its fix', () => {
  const text = '{\n  "rules": [\n    { "action": "execute", "expression": "http.request.uri.path contains "/admin" and ip.src in {10.0.0.0/8}", "action_parameters": { "id": "efb7b8c949ac4650a09736fc376e9aee" } }\n  ]\n}\n';
  const problems = validateText(text, 'waf-ruleset');
  assert.deepEqual(problems.map((p) => p.code), ['syntax/unescaped-quote'], JSON.stringify(problems.map((p) => p.message)));
  const p = problems[0];
  const cut = text.indexOf('"/admin');
  assert.equal(p.offset, cut, 'on the quote before /admin');
  assert.equal(p.length, 1);
  assert.equal(p.message, 'This quote ends the string "http.request.uri.path contains " early: a quote inside a JSON string is written \\".');
  const start = text.indexOf('"http.request');
  assert.deepEqual(p.related?.map((r) => [r.offset, r.length]), [[start, text.indexOf('", "action_parameters') + 1 - start]]);
  assert.equal(p.fixes?.[0].title, 'Escape the 2 quotes inside the string');
  assert.equal(p.fixes?.[0].preferred, true);
  const fixed = applyFix(text, p);
  assert.equal(JSON.parse(fixed).rules[0].expression, 'http.request.uri.path contains "/admin" and ip.src in {10.0.0.0/8}');
  assert.deepEqual(validateText(fixed, 'waf-ruleset'), []);
});

test('a filter value with a quote in it, and quotes already escaped in the same string', () => {
  const text = '{ "where": { "key": "ClientRequestPath", "operator": "eq", "value": "/a\\"b"c" } }';
  const [p] = parseDocument(text).syntax;
  assert.equal(p.code, 'syntax/unescaped-quote');
  assert.equal(p.fixes?.[0].title, 'Escape the quote inside the string');
  assert.equal(JSON.parse(applyFix(text, p)).where.value, '/a"b"c');
});

test('a lost closing quote is not taken for a quote inside a string', () => {
  // "abc, is missing its quote: the quote that ends the string opens the next key. Escaping would make "abc, \"b" a value followed
  // by ": 1": not a fix.
  for (const text of ['{"a":"abc, "b": 1, "c": [}', '{"a": "abc, "b": 1}', '{\n"a": "x "y\n}']) {
    const [p] = parseDocument(text).syntax;
    assert.equal(p.code, 'syntax/invalid-json', text);
  }
});

test('a comma left out between two strings is not taken for quotes inside one', () => {
  // "eq\" \"value\": \"us" would parse too: the comma reading comes first.
  for (const text of ['{ "where": { "key": "ClientCountry", "operator": "eq" "value": "us" } }', '["a" "b", "c"]']) {
    assert.equal(parseDocument(text).syntax[0].code, 'syntax/invalid-json', text);
  }
});

test('other syntax errors keep their message', () => {
  assert.equal(parseDocument('{"a": "b" "c": 1}').syntax[0].code, 'syntax/invalid-json');
  assert.equal(parseDocument('{"a": "b",}').syntax[0].code, 'syntax/trailing-comma');
});

test('in a Logpush job\'s filter string, the quote is found in the filter and the fix escapes it for the job', () => {
  const filter = '{"where":{"key":"ClientRequestPath","operator":"eq","value":"/a"b"}}';
  const text = `{"name":"x","dataset":"http_requests","destination_conf":"s3://b/l?region=us-east-1","filter":${JSON.stringify(filter)}}`;
  const problems = validateText(text, 'logpush-job');
  const p = problems.find((x) => x.code === 'syntax/unescaped-quote');
  assert.ok(p, JSON.stringify(problems));
  // In the job's text the filter string's quote is written \\\" (rv6: it said \" only, which the job's text does not take).
  assert.equal(p.message, 'This quote ends the string "/a" early: a quote inside a JSON string is written \\", which a job\'s "filter" string writes \\\\\\".');
  assert.deepEqual(validateText(applyFix(text, p), 'logpush-job'), []);
  assert.equal(JSON.parse(JSON.parse(applyFix(text, p)).filter).where.value, '/a"b');
});

test('a document over 256 KB is not searched (each candidate is a parse of the document): the plain syntax error', () => {
  const pad = `{"pad": "${'x'.repeat(256 * 1024)}",\n "expression": "http.host eq "a.example""}`;
  assert.equal(parseDocument(pad).syntax[0].code, 'syntax/invalid-json');
  assert.equal(parseDocument(pad.replace('x'.repeat(256 * 1024), 'x')).syntax[0].code, 'syntax/unescaped-quote');
});

test('a closing quote and comma left out before the next member is not taken for quotes inside a string (found by deleting `",`)', () => {
  // Escaping would swallow the next member into the string ("2.0\"method\": \"eth_gasPrice"): valid JSON, another meaning.
  for (const text of [
    '{"jsonrpc":"2.0"method":"net_listening","id":1}',
    '{ "jsonrpc": "2.0"method": "eth_gasPrice", "id": 1 }',
    '{"jsonrpc":"2.0,"id":1,"method":"eth_getBalance","params":[]}',
    '{"a": "x "key": "v", "b": 1}',
  ]) {
    assert.equal(parseDocument(text).syntax[0].code, 'syntax/invalid-json', text);
  }
});

test('a colon left out after a property name is not taken for quotes inside it', () => {
  const text = '{\n  "key": "ClientCountry",\n  "operator": "eq",\n  "value" "x"\n}\n';
  assert.equal(parseDocument(text).syntax[0].code, 'syntax/invalid-json');
});

test('strings of an array: commas left out, or two strings cut on one line, are not merged into one string', () => {
  for (const text of ['{"params": ["x" "y" "z"]}', '["a "b" c", "d "e" f"]']) {
    const [p] = parseDocument(text).syntax;
    assert.equal(p.code, 'syntax/invalid-json', `${text}: ${JSON.stringify(p.fixes)}`);
  }
  // One cut string in an array is still found.
  assert.equal(parseDocument('["a "b" c", "d"]').syntax[0].code, 'syntax/unescaped-quote');
});

test('two strings cut on one line of an object are not merged into one string', () => {
  const [p] = parseDocument('{"a": "x "y" z", "b": "p "q" r"}').syntax;
  assert.ok(p.code !== 'syntax/unescaped-quote' || p.fixes?.[0].edits.length === 2, JSON.stringify(p));
});

test('escaped quotes followed by "," "]" or "}" after the cut are not counted among the ends tried', () => {
  const text = '{\n  "expression": "http.host eq "a" or http.request.headers[\\"x\\"][0] eq \\"1\\" or http.request.headers[\\"y\\"][0] eq \\"2\\" or http.request.headers[\\"z\\"][0] eq \\"3\\" or http.request.headers[\\"w\\"][0] eq \\"4\\"",\n  "action": "block"\n}';
  const [p] = parseDocument(text).syntax;
  assert.equal(p.code, 'syntax/unescaped-quote');
  assert.match(JSON.parse(applyFix(text, p)).expression, /^http.host eq "a" or .* eq "4"$/);
});

test('JSON pasted in a string with its quotes (an error page\'s content, a job\'s filter) is still found', () => {
  const text = '{"action": "serve_error", "action_parameters": {"content": "{"message": "A server error occurred."}", "content_type": "application/json"}}';
  const [p] = parseDocument(text).syntax;
  assert.equal(p.code, 'syntax/unescaped-quote');
  assert.equal(JSON.parse(applyFix(text, p)).action_parameters.content, '{"message": "A server error occurred."}');
});

test('in an array, one quote left in a string may be a closing quote and a comma left out: not escaped; removed only by hand', () => {
  // Escaping would make one element of two ("0x4", "latest"); removing the quote is offered (it may have been typed by mistake,
  // "0x"00b"), not preferred, so Fix all leaves the text as it is.
  const text = '{"params": ["0x4"latest", [25, 75]]}';
  const [p] = parseDocument(text).syntax;
  assert.equal(p.offset, text.indexOf('"latest'));
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred ?? false]), [['Remove the quote', false]]);
  // A quote after a comma opens the next string as written: a closing quote left out before it, nothing to remove.
  assert.deepEqual(parseDocument('{"params": ["0x12, "0x0010"]}').syntax.map((x) => [x.code, x.fixes]), [['syntax/invalid-json', undefined]]);
});

test('in an array, a quote after a space inside a string is a stray quote: one problem on it, its removal offered (syn7)', async () => {
  const { fixAll } = await import('../../../server/src/core/fixAll');
  // One quote typed by mistake ("a b") is one slip; a closing quote and a comma both left out ("a", "b") would be two. Before, the
  // word after the quote was "Unexpected character" with no fix, and "0x "12" gave three problems.
  for (const [text, kind, removed] of [['["a "b"]', 'jsonrpc-request', ['a b']], ['{"k": ["x "y", "z"]}', 'logpush-filter', { k: ['x y', 'z'] }],
    ['{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x "12", "latest"]}', 'jsonrpc-request', null],
    ['{"params": ["0x12 "0x0010"]}', 'jsonrpc-request', { params: ['0x12 0x0010'] }]] as const) {
    const ps = parseDocument(text).syntax;
    const q = text.indexOf(' "') + 1;
    assert.deepEqual(ps.map((p) => [p.code, p.offset, p.fixes?.map((f) => [f.title, f.preferred ?? false])]),
      [['syntax/unescaped-quote', q, [['Remove the quote', false]]]], text);
    if (removed) assert.deepEqual(JSON.parse(applyFix(text, ps[0])), removed);
    assert.equal(fixAll(text, kind).text, text, 'Fix all leaves the choice');
  }
});

test('in a Logpush job\'s filter string, what the rules say of the cut string is dropped, as in a filter document', () => {
  const filter = '{"where":{"key":"EdgeResponseStatus","operator":"in","value":"[200 "x"]"}}';
  assert.deepEqual(validateText(filter, 'logpush-filter').map((p) => p.code), ['syntax/unescaped-quote']);
  const job = `{"name":"x","dataset":"http_requests","destination_conf":"s3://b/l?region=us-east-1","filter":${JSON.stringify(filter)}}`;
  assert.deepEqual(validateText(job, 'logpush-job').map((p) => p.code), ['syntax/unescaped-quote']);
});

test('a filter pasted in a job\'s "filter" with its quotes is found however many members it has (ends tried only where it decodes to JSON)', () => {
  const filter = '{"where":{"and":[{"key":"ClientRequestPath","operator":"startsWith","value":"/api"},{"key":"ClientCountry","operator":"eq","value":"us"},{"key":"EdgeResponseStatus","operator":"geq","value":500}]}}';
  const text = `{\n  "name": "x",\n  "dataset": "http_requests",\n  "destination_conf": "s3://b/l?region=us-east-1",\n  "filter": "${filter}"\n}\n`;
  const [p] = parseDocument(text).syntax;
  assert.equal(p.code, 'syntax/unescaped-quote');
  assert.equal(JSON.parse(applyFix(text, p)).filter, filter);
});

test('a quoted literal that starts with a colon is not taken for a property name', () => {
  const text = '{\n  "rules": [\n    { "action": "block", "expression": "http.request.uri contains ":8443" or http.host eq ":x"" }\n  ]\n}\n';
  const [p] = parseDocument(text).syntax;
  assert.equal(p.code, 'syntax/unescaped-quote');
  assert.equal(JSON.parse(applyFix(text, p)).rules[0].expression, 'http.request.uri contains ":8443" or http.host eq ":x"');
});

test('a Logpush job\'s filter pasted whole with its quotes: the quote only, not what the filter\'s own parse says of the "{" left', () => {
  const filter = '{"where":{"key":"ClientRequestPath","operator":"contains","value":"/admin"}}';
  const job = `{"name":"x","dataset":"http_requests","destination_conf":"s3://b/l?region=us-east-1","filter":"${filter}"}`;
  assert.deepEqual(validateText(job, 'logpush-job').map((p) => p.code), ['syntax/unescaped-quote']);
});

test('a JSON string pasted with its quotes between a string\'s quotes ("Copy Filter as Job String" into "filter": ""): the fix removes the doubled quotes', () => {
  // Completing "filter" leaves the cursor between "" and the job string comes with its quotes: "filter": ""{\"where\":…}"". The
  // one fix escaped the pasted quotes, giving a filter string that holds a JSON string, not a filter: the filter's own parse then
  // said 'This quote ends the string "{" early' (ui5's walk).
  const filter = '{"where":{"key":"ClientCountry","operator":"in","value":["nl","de"]}}';
  const text = `{\n  "name": "x",\n  "dataset": "http_requests",\n  "filter": "${JSON.stringify(filter)}",\n  "destination_conf": "s3://b/l?region=us-east-1"\n}\n`;
  const [p] = parseDocument(text).syntax;
  assert.equal(p.code, 'syntax/unescaped-quote');
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [
    ['Remove the doubled quotes (the text between them is a JSON string already)', true],
    ['Escape the 2 quotes inside the string', false],
  ]);
  const fixed = applyFix(text, p);
  assert.equal(JSON.parse(fixed).filter, filter);
  assert.deepEqual(validateText(fixed, 'logpush-job'), []);
  // A value pasted with its quotes.
  const value = '{"where": {"key": "ClientCountry", "operator": "eq", "value": ""kp""}}';
  const [v] = parseDocument(value).syntax;
  assert.equal(JSON.parse(applyFix(value, v)).where.value, 'kp');
  // Quotes inside the text, not around all of it: escaping is the one fix.
  const inside = '{"where": {"key": "ClientRequestPath", "operator": "eq", "value": ""a" and "b""}}';
  const [i] = parseDocument(inside).syntax;
  assert.deepEqual(i.fixes?.map((f) => f.title), ['Escape the 4 quotes inside the string']);
});

test('after a syntax error, a member the parser\'s recovery put in another object is not called unknown there; one before the error still is', () => {
  // The job string pasted with its quotes into "filter": "" left a "{" open in the parser's reading: "timestamp_format" of
  // output_options, four lines down, was reported as an unknown property of the job (ui5's walk).
  const filter = '{"where":{"key":"ClientCountry","operator":"in","value":["nl","de"]}}';
  const text = `{\n  "name": "x",\n  "dataset": "http_requests",\n  "filter": "${JSON.stringify(filter)}",\n  "output_options": {\n    "field_names": ["ClientIP", "RayID"],\n    "timestamp_format": "rfc3339"\n  },\n  "destination_conf": "s3://b/l?region=us-east-1"\n}\n`;
  assert.deepEqual(validateText(text, 'logpush-job').map((p) => p.code), ['syntax/unescaped-quote']);
  const before = '{\n  "name": "x",\n  "dataset": "http_requests",\n  "colour": "red",\n  "destination_conf": "s3://b/l?region=us-east-1",\n}\n';
  assert.deepEqual(validateText(before, 'logpush-job').map((p) => p.code), ['schema/unknown-property', 'syntax/trailing-comma']);
});

test('one quote typed in a string: one problem on it, the escape first and its removal second, and Fix all leaves the choice', async () => {
  const { fixAll } = await import('../../../server/src/core/fixAll');
  // rv8's `["0x"00b", "latest"]`: two problems, on 0 and 0 (the comma proved before the second); now the quote, and its removal
  // (not preferred).
  const params = '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x"00b", "latest"]}';
  const ps = parseDocument(params).syntax;
  assert.deepEqual(ps.map((p) => [p.code, p.offset, p.fixes?.map((f) => [f.title, f.preferred ?? false])]),
    [['syntax/unescaped-quote', params.indexOf('"00b'), [['Remove the quote', false]]]]);
  assert.equal(ps[0].message, 'Stray quote in the string "0x"00b": remove it if it was typed by mistake; a quote inside a JSON string is written \\".');
  assert.equal(JSON.parse(applyFix(params, ps[0])).params[0], '0x00b');
  // In an object, where escaping the quote is proved: both fixes, the escape preferred in the editor; Fix all applies neither.
  const value = '{"where": {"key": "ClientRequestPath", "operator": "eq", "value": "/a"b"}}';
  const [v] = parseDocument(value).syntax;
  assert.deepEqual(v.fixes?.map((f) => [f.title, f.preferred ?? false]), [['Escape the quote inside the string', true], ['Remove the quote', false]]);
  assert.equal(JSON.parse(applyFix(value, v)).where.value, '/a"b');
  for (const [text, kind] of [[params, 'jsonrpc-request'], [value, 'logpush-filter']] as const) {
    const r = fixAll(text, kind);
    assert.deepEqual([r.text, r.fixed], [text, 0], text);
  }
  // In a Logpush job's filter string: the quote is \" in the job's text, and the removal takes both characters.
  const filter = '{"where":{"key":"ClientRequestPath","operator":"in","value":["/a"b", "/c"]}}';
  const job = `{"name":"x","dataset":"http_requests","destination_conf":"s3://b/l?region=us-east-1","filter":${JSON.stringify(filter)}}`;
  const [j] = validateText(job, 'logpush-job');
  assert.deepEqual([j.code, job.slice(j.offset, j.offset + j.length), j.fixes?.map((f) => f.title)], ['syntax/unescaped-quote', '\\"', ['Remove the quote']]);
  const fixed = applyFix(job, j);
  assert.deepEqual(JSON.parse(JSON.parse(fixed).filter).where.value, ['/ab', '/c']);
  assert.deepEqual(validateText(fixed, 'logpush-job'), []);
});

test('a quote typed in a property name, after a string, and before "//": one problem on the quote, nothing after it', () => {
  const cases: [string, string][] = [
    ['{\n  "jsonrpc": "2.0",\n  "me"thod": "eth_chainId",\n  "id": 1\n}\n', '"thod'],
    ['{\n  "jsonrpc": "2.0"",\n  "method": "eth_chainId",\n  "id": 1\n}\n', '"",\n  "method'],
    ['{\n  "$schema": "https:"//edgekit.dev/schemas/jsonrpc-request.schema.json",\n  "jsonrpc": "2.0"\n}\n', '"//'],
    ['{"a": [1,], "b": "x"y", "c": 1}', ',]'],
  ];
  for (const [text, at] of cases) {
    const ps = parseDocument(text).syntax;
    assert.equal(ps[0].offset, text.indexOf(at), `${JSON.stringify(text)}: ${JSON.stringify(ps.map((p) => p.message))}`);
  }
  assert.deepEqual(cases.map(([text]) => parseDocument(text).syntax.map((p) => p.code)), [
    ['syntax/unescaped-quote'], ['syntax/unescaped-quote'], ['syntax/unescaped-quote'],
    // An error of its own before the quote is still reported first, and the quote after it.
    ['syntax/trailing-comma', 'syntax/unescaped-quote']]);
});

test('a key that lost its opening quote is not a stray quote after the value before it (a removal would merge them into one name)', () => {
  for (const text of ['{"a": 1, b": 2}', '{"a": "x", method": "y"}']) {
    const ps = parseDocument(text).syntax;
    assert.ok(ps.every((p) => p.code !== 'syntax/unescaped-quote'), `${text}: ${JSON.stringify(ps.map((p) => p.message))}`);
  }
});

test('the rules check what the stray quote\'s fix makes of the text, so the one quote is the one problem, and theirs land where they belong', () => {
  // Seen in headless Neovim: a quote typed into a request's param gave the quote's problem and "params[2] is one param too many"
  // at the end of the line, a reading of jsonc-parser's recovered value (["a ", ", ", "], "]) that the user never wrote.
  const stray = '{"jsonrpc": "2.0", "method": "eth_getBalance", "params": ["a "b", "latest"], "id": 2}';
  assert.deepEqual(validateText(stray, 'jsonrpc-request').map((p) => p.code), ['jsonrpc/invalid-address', 'syntax/unescaped-quote']);
  // Its own problems are still found, on the text as the user wrote it: a wrong version after the quote, a bad tag.
  const more = '{"jsonrpc": "1.0", "method": "eth_getBalance", "params": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "lat"st"], "id": 2}';
  const ps = validateText(more, 'jsonrpc-request');
  assert.deepEqual(ps.map((p) => p.code), ['jsonrpc/wrong-version', 'jsonrpc/invalid-block', 'syntax/unescaped-quote']);
  const tag = ps.find((p) => p.code === 'jsonrpc/invalid-block')!;
  assert.equal(more.slice(tag.offset, tag.offset + tag.length), '"lat"st"', 'the squiggle covers the string as written, the quote in it');
  const version = ps.find((p) => p.code === 'jsonrpc/wrong-version')!;
  assert.equal(more.slice(version.offset, version.offset + version.length), '"1.0"');
  // Its fix, applied to the text as written, gives what the fix says.
  assert.equal(applyFix(more, version), more.replace('"1.0"', '"2.0"'));
});

test('a stray quote in a string that is read as a language of its own (a rule\'s expression, a job\'s filter): the quote alone, not that language\'s reading of the fix\'s guess', () => {
  // Review rv11: the text the quote's fix makes escapes the quote into the expression or the filter, where it is a quote of that
  // language and ends one of its strings: "Unterminated string" at the end of the expression, or "The filter string must be an
  // object, not the string "{"", said of what the user never wrote (the mutations of the fixtures: 1 420 such expr-syntax).
  const rule = (e: string) => `{"name": "default", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"expression": "${e}", "action": "block"}]}`;
  for (const text of [rule('http.host eq \\"a\\" and http.request.uri.path contains \\"a"b\\"'), rule('http.request.uri.path contains "/x'),
    rule('ip.src in {1"92.0.2.0/24}'), rule('"is_jwt_present(\\"51231d16-01f1-48e3-93f8-91c99e81288e\\")')]) {
    const ps = validateText(text, 'waf-ruleset');
    assert.deepEqual(ps.map((p) => p.code), ['syntax/unescaped-quote'], `${text}: ${JSON.stringify(ps.map((p) => p.message))}`);
  }
  const job = (name: string, filter: string) => `{"name": "${name}", "dataset": "http_requests", "destination_conf": "r2://b/p?account-id=0123456789abcdef0123456789abcdef&access-key-id=a", "filter": "${filter}"}`;
  const filter = '{\\"where\\":{\\"key\\":\\"ClientRequestHost\\",\\"operator\\":\\"eq\\",\\"value\\":\\"x\\"}}';
  for (const text of [job('job', `"${filter}`), job('job', filter.replace('x\\"', 'x"'))]) {
    const ps = validateText(text, 'logpush-job');
    assert.deepEqual(ps.map((p) => p.code), ['logpush/destination-missing-param', 'syntax/unescaped-quote'], `${text}: ${JSON.stringify(ps.map((p) => p.message))}`);
  }
});

test('a stray quote in one string leaves what is said of another string cut by a quote as it was: a job\'s filter keeps its own quote\'s problem', () => {
  // Review rv11: with the job's name checked as meant, every cut string's syntax problems were dropped, the filter's own quote among
  // them, and "Unknown field "Client"" (the filter as jsonc-parser recovered it) was shown in its place.
  const filter = '{\\"where\\":{\\"key\\":\\"Client\\"RequestHost\\",\\"operator\\":\\"eq\\",\\"value\\":\\"x\\"}}';
  const job = (name: string) => `{"name": "${name}", "dataset": "http_requests", "destination_conf": "r2://b/p?account-id=0123456789abcdef0123456789abcdef&access-key-id=a", "filter": "${filter}"}`;
  const own = validateText(job('job'), 'logpush-job');
  assert.deepEqual(own.map((p) => p.code), ['logpush/destination-missing-param', 'syntax/unescaped-quote']);
  const text = job('jo"b');
  const ps = validateText(text, 'logpush-job');
  assert.deepEqual(ps.map((p) => p.code), ['logpush/invalid-job-name', 'syntax/unescaped-quote', 'logpush/destination-missing-param', 'syntax/unescaped-quote'],
    JSON.stringify(ps.map((p) => p.message)));
  assert.equal(ps[3].offset, own[1].offset + 1, 'the filter\'s quote, one further on for the quote typed in the name');
  assert.equal(ps[3].message, own[1].message);
});

// rv15: the line of a quote typed in a string was read up to the next "\n": in a document of lone CR line breaks it was the rest
// of the text, so the proof asked the whole rest to parse, and a later error (a trailing comma) left the quote unsaid, with
// "Unexpected character" or two commas to insert in its place.
test('a document of lone CR line breaks: a quote inside a string is found as in LF lines, a later syntax error notwithstanding', () => {
  const cases = [
    '{\n  "jsonrpc": "2.0",\n  "method": "eth_getBalance",\n  "params": ["a "b", "latest"],\n  "id": 2,\n}\n',
    '{\n  "jsonrpc": "2.0",\n  "method": "eth_getBalance",\n  "params": ["0x"00b", "latest"],\n  "id": 2,\n}\n',
    '{\n  "jsonrpc": "2.0",\n  "method": "eth_call",\n  "params": [{"to": "0x1", "data": "0x"12"}, "latest"],\n  "id": 1,\n}\n',
  ];
  for (const lf of cases) {
    const syntax = (text: string) => validateText(text, 'jsonrpc-request').filter((p) => p.code.startsWith('syntax/'))
      .map((p) => [p.code, p.offset, p.length, p.message, p.fixes?.map((f) => f.edits)]);
    const want = syntax(lf);
    assert.deepEqual(want.map((p) => p[0]), ['syntax/unescaped-quote', 'syntax/trailing-comma'], lf);
    assert.deepEqual(syntax(lf.replace(/\n/g, '\r')), want, JSON.stringify(lf));
  }
});

test('a problem found in a repaired text that is about what the repair put in is not said (stress fuzz: a quote the repair inserted was called stray, its string at offset -1)', () => {
  // `f` lost its quotes: the repair quotes it ("f"), and the repaired text's next error was read as the quote the repair put after f
  const text = '{f/*ilter": {}\n}\n';
  const problems = validateText(text, 'logpush-filter');
  for (const p of problems) {
    for (const s of [p, ...(p.related ?? []), ...(p.fixes ?? []).flatMap((f) => f.edits)]) {
      assert.ok(s.offset >= 0 && s.offset + s.length <= text.length, `${p.code} span ${s.offset}+${s.length} outside 0..${text.length}: ${p.message}`);
    }
  }
  assert.deepEqual(problems.map((p) => p.code), ['syntax/invalid-json']);
  assert.match(problems[0].message, /Unexpected word "f"/);
});
