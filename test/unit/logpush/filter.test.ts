import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterToJobString, filterUsage, jobStringToFilter, stripFilterHints } from '../../../server/src/core/rules/logpush';
import { filterNumber, utf8Length } from '../../../server/src/core/rules/logpush/filter';
import { compactJsonBytes } from '../../../server/src/core/text';
import { className, operatorsFor, typeClasses } from '../../../server/src/core/rules/logpush/catalogue';
import { LOGPUSH_CODES } from '../../../server/src/core/rules/logpush/codes';
import { applyEdits, check, cmp, codes, filterText, jobText, only } from './helpers';
import { validateText } from '../../../server/src/core/validate';

test('operator table: each type column accepts exactly the operators of the spec', () => {
  const names = (t: string): string[] => operatorsFor(t).map((o) => o.name);
  assert.deepEqual(names('string'), ['eq', '!eq', 'startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains', 'in', '!in']);
  assert.deepEqual(names('int'), ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'in', '!in']);
  assert.deepEqual(names('float'), names('int'));
  assert.deepEqual(names('bool'), ['eq', '!eq']);
  assert.deepEqual(names('array[string]'), ['contains', '!contains', 'in', '!in']);
  assert.deepEqual(names('object'), []);
  assert.deepEqual(names('array[object]'), []);
  assert.deepEqual(typeClasses('int or string'), ['int', 'string']);
  // Object types are a column of their own, which no operator accepts (not "array" for array[object]).
  assert.deepEqual(typeClasses('object'), ['object']);
  assert.deepEqual(typeClasses('array[object]'), ['object']);
  assert.deepEqual(['string', 'int', 'bool', 'array', 'object'].map((c) => className(c as never)), ['String', 'Int', 'Bool', 'Array', 'Object']);
  assert.equal(names('int or string').length, 14); // the union of the Int and String columns
});

test('every code the rules can report is registered', () => {
  for (const code of Object.keys(LOGPUSH_CODES)) assert.match(code, /^logpush\/[a-z0-9-]+$/);
});

test('filterUsage counts one operator per comparison and the UTF-8 bytes of the compact JSON without hints', () => {
  const value = { $dataset: 'http_requests', where: { and: [cmp('ClientCity', 'eq', 'Zürich'), { or: [cmp('BotScore', 'lt', '30'), cmp('BotScore', 'gt', 90)] }] } };
  const u = filterUsage(value);
  assert.equal(u.operators, 3);
  assert.equal(u.bytes, Buffer.byteLength(JSON.stringify({ where: value.where })));
  assert.equal(u.maxOperators, 30);
  assert.equal(u.maxBytes, 1000);
  assert.deepEqual(filterUsage({ where: cmp('a', 'eq', 'b') }).operators, 1);
  assert.equal(utf8Length('a\u00e9\u65e5\ud83d\ude00'), 1 + 2 + 3 + 4);
});

test('compactJsonBytes is the UTF-8 length of JSON.stringify, for generated values of every kind JSON.parse gives', () => {
  const chars = ['a', ' ', '"', '\\', '/', '\n', '\t', '\b', '\f', '\r', '\u0000', '\u001f', '\u007f', '\u0080', 'é', '日', '\u2028', '\ud83d\ude00', '\ud83d', '\ude00', '\uffff'];
  const numbers = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789.125, Number.MAX_SAFE_INTEGER, 5e-324, -1.5e300];
  let seed = 5;
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const str = (): string => { let t = ''; for (let i = rnd(8); i > 0; i--) t += chars[rnd(chars.length)]; return t; };
  const gen = (depth: number): unknown => {
    switch (rnd(depth > 3 ? 5 : 7)) {
      case 0: return str();
      case 1: return numbers[rnd(numbers.length)];
      case 2: return rnd(2) === 0;
      case 3: return null;
      case 4: return rnd(1000) - 500;
      case 5: return Array.from({ length: rnd(4) }, () => gen(depth + 1));
      default: { const o: Record<string, unknown> = {}; for (let i = rnd(4); i > 0; i--) o[rnd(3) ? str() : '__proto__'] = gen(depth + 1); return o; }
    }
  };
  for (let round = 0; round < 3000; round++) {
    const value = JSON.parse(JSON.stringify(gen(0))) as unknown; // as a document's parse gives it
    assert.equal(compactJsonBytes(value), Buffer.byteLength(JSON.stringify(value)), JSON.stringify(value));
  }
  const own = JSON.parse('{"__proto__":{"a":"é"},"b":[1,null]}') as unknown; // JSON.parse makes "__proto__" an own member
  assert.equal(compactJsonBytes(own), Buffer.byteLength(JSON.stringify(own)));
  assert.equal(compactJsonBytes(undefined), 0);
});

test('filterToJobString strips hints and compacts; jobStringToFilter pretty-prints, and both round-trip', () => {
  const text = filterText(cmp('ClientCountry', 'eq', 'us'), { $dataset: 'http_requests', $schema: 'x' });
  const s = filterToJobString(text);
  assert.equal(s, '{"where":{"key":"ClientCountry","operator":"eq","value":"us"}}');
  assert.equal(jobStringToFilter(s), JSON.stringify(JSON.parse(s), null, 2));
  assert.equal(jobStringToFilter(JSON.stringify(s)), jobStringToFilter(s)); // the quoted literal is accepted too
  assert.equal(jobStringToFilter(''), '');
  assert.throws(() => filterToJobString('{"where": '));
  // "\😀" is no JSON escape: refused as JSON.parse refuses it, never written with the half emoji jsonc-parser's tree keeps (syn7).
  const astral = '{"where":{"key":"ClientRequestPath","operator":"eq","value":"/\\😀"}}';
  assert.throws(() => filterToJobString(astral), SyntaxError);
  assert.throws(() => jobStringToFilter(astral), SyntaxError);
  assert.deepEqual(stripFilterHints({ $dataset: 'a', where: 1 }), { where: 1 });
  assert.equal(stripFilterHints('x'), 'x');
});

test('a bare comparison gets missing-where with a fix that wraps it, and the result is clean', () => {
  const text = JSON.stringify(cmp('ClientCountry', 'eq', 'us'));
  const p = only(check(text), 'logpush/missing-where');
  assert.deepEqual({ offset: p.offset, length: p.length }, { offset: 0, length: 1 });
  assert.equal(p.fixes?.length, 1);
  assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), []);
  assert.equal(only(check('{"foo": 1}'), 'logpush/missing-where').fixes, undefined);
});

test('unknown field: error on the key value with one fix per suggestion', () => {
  const text = filterText(cmp('ClientCountyr', 'eq', 'us'));
  const p = only(check(text), 'logpush/unknown-field');
  assert.equal(text.substr(p.offset, p.length), '"ClientCountyr"');
  assert.equal(p.fixes?.[0].title, 'Change to "ClientCountry"');
  assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), []);
});

test('unknown field that is a word-aligned part of field names (a qualifier left out): those names offered, no fix preferred', () => {
  // "CategoryIDs" is no typo of any gateway_dns field, so it got no suggestion at all.
  const text = filterText(cmp('CategoryIDs', 'contains', 5));
  const p = only(check(text, 'logpush-filter', { logpushDataset: 'gateway_dns' }), 'logpush/unknown-field');
  assert.equal(p.message, 'Unknown field "CategoryIDs" in this dataset: it is a field of gateway_http and gateway_network. Did you mean "CNAMECategoryIDs", "QueryCategoryIDs" or "InitialCategoryIDs"?');
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [['Change to "CNAMECategoryIDs"', undefined], ['Change to "QueryCategoryIDs"', undefined], ['Change to "InitialCategoryIDs"', undefined]]);
  // In a job's output fields too, and one match alone is not applied by Fix all either.
  const job = JSON.stringify({ dataset: 'http_requests', destination_conf: 's3://b/p?region=us-east-1', output_options: { field_names: ['ClientIP', 'RequestPath'] } });
  const q = only(check(job, 'logpush-job'), 'logpush/unknown-field');
  assert.match(q.message, /^Unknown field "RequestPath"; did you mean "ClientRequestPath"/);
  assert.ok(q.fixes?.length && q.fixes.every((f) => !f.preferred), 'no preferred fix');
});

test('a field of other datasets, not this one: the message names them, in a filter and in a job\'s output fields', () => {
  // Walked in the workbench (ui14): QueryName (a DNS field) in an http_requests job, and ClientRequestHost in a gateway_dns job,
  // were "Unknown field", which sends the user looking for a typo in a name that is right, for another dataset.
  const text = filterText(cmp('QueryName', 'eq', 'example.com'));
  const p = only(check(text), 'logpush/unknown-field');
  assert.equal(text.substr(p.offset, p.length), '"QueryName"');
  assert.equal(p.message, 'Unknown field "QueryName" in this dataset: it is a field of dns_logs, dns_firewall_logs and gateway_dns.');
  assert.equal(p.fixes?.length ?? 0, 0);
  const job = JSON.stringify({ dataset: 'gateway_dns', destination_conf: 's3://b/p?region=us-east-1', output_options: { field_names: ['QueryName', 'ClientRequestHost'] } });
  const q = only(check(job, 'logpush-job'), 'logpush/unknown-field');
  assert.match(q.message, /^Unknown field "ClientRequestHost" in this dataset: it is a field of [a-z_, ]*http_requests/);
  // A near name of this dataset is still offered after it.
  // A near name of this dataset is offered after them, and not applied by Fix all: the dataset may be what is wrong.
  const r = only(check(filterText(cmp('ColoCode', 'eq', 'x'))), 'logpush/unknown-field');
  assert.equal(r.message, 'Unknown field "ColoCode" in this dataset: it is a field of dns_logs, spectrum_events, dns_firewall_logs, gateway_dns and 3 more datasets. Did you mean "EdgeColoCode"?');
  assert.deepEqual(r.fixes?.map((f) => [f.title, f.preferred]), [['Change to "EdgeColoCode"', undefined]]);
  // Five datasets are all named ("and 1 more datasets" said the fifth as a count).
  const five = only(check(filterText(cmp('RayID', 'eq', 'x')), 'logpush-filter', { logpushDataset: 'gateway_dns' }), 'logpush/unknown-field');
  assert.equal(five.message, 'Unknown field "RayID" in this dataset: it is a field of http_requests, firewall_events, access_requests, account_abuse_protection_events and websocket_analytics.');
  // A name no dataset has is said as before.
  assert.equal(only(check(filterText(cmp('NoSuchFieldAnywhere', 'eq', 'x'))), 'logpush/unknown-field').message, 'Unknown field "NoSuchFieldAnywhere".');
});

test('operator not allowed: one fix per allowed operator, each of which clears the problem', () => {
  const text = filterText(cmp('CacheTieredFill', 'gt', true));
  const p = only(check(text), 'logpush/operator-not-allowed');
  assert.deepEqual(p.fixes?.map((f) => f.title), ['Use "eq"', 'Use "!eq"']);
  for (const f of p.fixes!) assert.deepEqual(check(applyEdits(text, f.edits)), []);
});

test('operator not allowed: a fix to a set operator makes the value an array, and back, so no fix leaves a new problem', () => {
  // "Use \"in\"" on "value": "us" used to change the operator alone, and the result was logpush/set-needs-array.
  const scalar = filterText(cmp('ClientCountry', 'gt', 'us'));
  const p = only(check(scalar), 'logpush/operator-not-allowed');
  assert.ok(p.fixes!.some((f) => f.title.startsWith('Use "in"')));
  for (const f of p.fixes!) assert.deepEqual(codes(applyEdits(scalar, f.edits)), [], f.title);
  const inFix = p.fixes!.find((f) => f.title.startsWith('Use "in"'))!;
  assert.equal(JSON.parse(applyEdits(scalar, inFix.edits)).where.value[0], 'us');
  const status = filterText(cmp('EdgeResponseStatus', 'contains', '403'));
  for (const f of only(check(status), 'logpush/operator-not-allowed').fixes!) assert.deepEqual(codes(applyEdits(status, f.edits)), [], f.title);
  // A one-element set given to a scalar operator is unwrapped; a longer one gets no scalar fix (which element would it keep?).
  const one = filterText(cmp('CacheTieredFill', 'in', [true]));
  const q = only(check(one), 'logpush/operator-not-allowed');
  assert.deepEqual(q.fixes?.map((f) => f.title), ['Use "eq" (value true)', 'Use "!eq" (value true)']);
  for (const f of q.fixes!) assert.deepEqual(codes(applyEdits(one, f.edits)), [], f.title);
  const two = filterText(cmp('CacheTieredFill', 'in', [true, false]));
  assert.deepEqual(only(check(two), 'logpush/operator-not-allowed').fixes ?? [], []);
});

test('in with a comma-separated string: the fix splits it into a typed array', () => {
  const text = filterText(cmp('EdgeResponseStatus', 'in', '200, 201'));
  const p = only(check(text), 'logpush/set-needs-array');
  assert.equal(p.fixes?.[0].edits[0].newText, '[200, 201]');
  assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), []);
  const s = only(check(filterText(cmp('ClientCountry', 'in', 'us'))), 'logpush/set-needs-array');
  assert.equal(s.fixes?.[0].edits[0].newText, '["us"]');
});

test('numbers written as strings are fine for single values but not inside an int set', () => {
  assert.deepEqual(codes(filterText(cmp('BotScore', 'lt', '30'))), []);
  const text = filterText(cmp('BotScore', 'in', ['30', 31]));
  const p = only(check(text), 'logpush/value-type');
  assert.equal(p.fixes?.[0].edits[0].newText, '30');
  assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), []);
});

test('value types: wrong JSON type for the field is one error; "true" for a bool is a warning with a fix', () => {
  assert.deepEqual(codes(filterText(cmp('BotScore', 'eq', 'high'))), ['logpush/value-type']);
  assert.deepEqual(codes(filterText(cmp('ClientCountry', 'eq', 1))), ['logpush/value-type']);
  assert.deepEqual(codes(filterText(cmp('BotTags', 'contains', 3))), ['logpush/value-type']);
  assert.deepEqual(codes(filterText(cmp('BotDetectionIDs', 'contains', '3'))), []);
  const text = filterText(cmp('CacheTieredFill', 'eq', 'false'));
  const p = only(check(text), 'logpush/quoted-boolean');
  assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), []);
});

test('an "int or string" field (a timestamp): eq/in take a number or RFC 3339 text, lt/leq/gt/geq (Int column only) a number', () => {
  assert.deepEqual(codes(filterText(cmp('EdgeStartTimestamp', 'eq', '2026-11-24T00:00:05Z'))), []);
  assert.deepEqual(codes(filterText(cmp('EdgeStartTimestamp', 'in', ['2026-11-24T00:00:05Z', 1764000000]))), []);
  assert.deepEqual(codes(filterText(cmp('EdgeStartTimestamp', 'gt', '1764000000'))), []);
  assert.deepEqual(codes(filterText(cmp('EdgeStartTimestamp', 'gt', 1764000000))), []);
  const text = filterText(cmp('EdgeStartTimestamp', 'gt', '2026-11-24T00:00:05Z'));
  const p = only(check(text), 'logpush/value-type');
  assert.equal(text.substr(p.offset, p.length), '"2026-11-24T00:00:05Z"');
  assert.deepEqual(codes(filterText(cmp('EdgeStartTimestamp', 'leq', 'yesterday'))), ['logpush/value-type']);
});

test('an array for a single-value operator suggests "in" when the field allows it', () => {
  const text = filterText(cmp('ClientCountry', 'eq', ['us', 'ca']));
  const p = only(check(text), 'logpush/value-type');
  assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), []);
});

test('one mistake, one diagnostic: misspelled member, unknown operator, wrong value type', () => {
  assert.equal(check(filterText({ kye: 'ClientCountry', operator: 'eq', value: 'us' })).length, 1);
  assert.equal(check(filterText(cmp('ClientCountry', 'equals', 'us'))).length, 1);
  assert.equal(check(filterText({ and: [cmp('ClientCountry', 'eq', null)] })).length, 1);
  assert.equal(check(filterText({ and: [cmp('ClientCountry', 'eq', 'us')], or: [cmp('BotScore', 'lt', 3)] })).length, 1);
  assert.equal(check(filterText({ AND: [cmp('ClientCountry', 'eq', 'us')] })).length, 1);
});

test('group shape: both and/or, and comparison members inside a group', () => {
  assert.deepEqual(codes(filterText({ and: [cmp('ClientCountry', 'eq', 'us')], or: [cmp('ClientCountry', 'eq', 'ca')] })), ['logpush/group-shape']);
  assert.deepEqual(codes(filterText({ or: [cmp('ClientCountry', 'eq', 'us')], value: 'x' })), ['logpush/group-shape']);
});

test('limits: warning from 90 %, error above the limit, located on the "where" key', () => {
  const many = (n: number) => ({ or: Array.from({ length: n }, (_, i) => cmp('RayID', 'eq', String(i % 10))) });
  const atLimit = check(filterText(many(30)));
  assert.ok(atLimit.some((p) => p.code === 'logpush/operator-limit-near'));
  assert.ok(!atLimit.some((p) => p.code === 'logpush/operator-limit'));
  const over = check(filterText(many(31)));
  const p = only(over, 'logpush/operator-limit');
  assert.equal(filterText(many(31)).substr(p.offset, p.length), '"where"');
  const value = (n: number) => ({ where: cmp('ClientRequestPath', 'in', Array.from({ length: n }, () => 'x'.repeat(10))) });
  const bytes = (n: number): number => filterUsage(value(n)).bytes;
  let n = 1;
  while (bytes(n) < 899) n++; // 899 bytes: still below 90 %
  assert.deepEqual(codes(filterText(value(n - 1).where)), []);
  while (bytes(n) < 900) n++;
  assert.deepEqual(codes(filterText(value(n).where)), ['logpush/size-limit-near']);
  while (bytes(n + 1) <= 1000) n++; // the largest filter within the limit
  assert.deepEqual(codes(filterText(value(n).where)), ['logpush/size-limit-near']);
  assert.deepEqual(codes(filterText(value(n + 1).where)), ['logpush/size-limit']);
});

test('the dataset: "$dataset" wins over the option, which defaults to http_requests', () => {
  const fw = cmp('ClientRefererHost', 'eq', 'example.com');
  assert.deepEqual(codes(filterText(fw)), ['logpush/unknown-field']);
  assert.deepEqual(codes(filterText(fw), 'logpush-filter', { logpushDataset: 'firewall_events' }), []);
  assert.deepEqual(codes(filterText(fw, { $dataset: 'firewall_events' }), 'logpush-filter', { logpushDataset: 'dns_logs' }), []);
  // An account dataset has its own catalogue: http_requests' fields are unknown there.
  assert.deepEqual(codes(filterText(fw), 'logpush-filter', { logpushDataset: 'gateway_http' }), ['logpush/unknown-field']);
  assert.deepEqual(codes(filterText(cmp('HTTPHost', 'eq', 'example.com')), 'logpush-filter', { logpushDataset: 'gateway_http' }), []);
  const bad = check(filterText(fw), 'logpush-filter', { logpushDataset: 'nope' });
  assert.deepEqual(bad.map((p) => p.code), ['logpush/unknown-dataset']);
  assert.match(bad[0].message, /edgekit\.logpush\.dataset/);
});

test('not filterable: object fields and fields marked so in the reference', () => {
  assert.deepEqual(codes(filterText(cmp('RequestHeaders', 'eq', 'x'))), ['logpush/field-not-filterable']);
  assert.deepEqual(codes(filterText(cmp('RuleID', 'eq', 'x'), { $dataset: 'firewall_events' })), ['logpush/field-not-filterable']);
  assert.deepEqual(codes(filterText(cmp('Logs', 'contains', 'x'), { $dataset: 'workers_trace_events' })), ['logpush/field-not-filterable']);
});

test('after a syntax error only the syntax problem is reported for a cut-short comparison', () => {
  assert.deepEqual(codes('{"where": {"key": "ClientCountry" "operator": "eq"}}'), ['syntax/invalid-json']);
});

// JSON.parse then JSON.stringify rounded every number to a double: a unixnano timestamp (the default timestamp_format, as
// log-output-options.mdx's examples write EdgeStartTimestamp: 1506702504433000200) past 2^53 changed in both conversions.
test('the conversions keep numbers as written: a unixnano past 2^53, 1.50, 1e3 and -0', () => {
  const where = '{"and":[{"key":"EdgeStartTimestamp","operator":"geq","value":1700000000123456789},' +
    '{"key":"EdgeResponseCompressionRatio","operator":"in","value":[1.50,1e3,-0]}]}';
  const file = `{\n  "$dataset": "http_requests",\n  "where": ${where}\n}`;
  const s = filterToJobString(file);
  assert.equal(s, `{"where":${where}}`);
  const back = jobStringToFilter(s, 'http_requests');
  assert.match(back, /"value": 1700000000123456789\n/);
  assert.match(back, /\[\n {10}1\.50,\n {10}1e3,\n {10}-0\n {8}\]/);
  assert.equal(filterToJobString(back), s);
  assert.equal(jobStringToFilter(JSON.stringify(s)), jobStringToFilter(s)); // the quoted literal too
});

test('the conversions write what JSON.stringify writes for any other JSON, and round-trip generated filters', () => {
  let seed = 11;
  const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const strings = ['us', 'é', '日本', '\ud83d\ude00', '\ud83d', 'a"b\\c', '\n\t\u0001', '\u2028', '', '$dataset'];
  const gen = (depth: number): unknown => {
    switch (rnd(depth > 3 ? 5 : 7)) {
      case 0: return strings[rnd(strings.length)];
      case 1: return [0, -1, 30, 1.5, 1e21, 2 ** 53 + 2][rnd(6)];
      case 2: return rnd(2) === 0;
      case 3: return null;
      case 4: return rnd(1000);
      case 5: return Array.from({ length: rnd(4) }, () => gen(depth + 1));
      default: { const o: Record<string, unknown> = {}; for (let i = rnd(4); i > 0; i--) o[strings[rnd(strings.length)]] = gen(depth + 1); return o; }
    }
  };
  for (let round = 0; round < 2000; round++) {
    const value = { where: gen(0) };
    const pretty = JSON.stringify(value, null, rnd(2) ? 2 : 4);
    const compact = JSON.stringify(value);
    assert.equal(filterToJobString(pretty), compact);
    assert.equal(jobStringToFilter(compact), JSON.stringify(value, null, 2));
    assert.equal(jobStringToFilter(compact, 'dns_logs'), JSON.stringify({ $dataset: 'dns_logs', ...value }, null, 2));
    assert.equal(filterToJobString(jobStringToFilter(compact, 'dns_logs')), compact);
  }
  // Duplicate keys as JSON.parse reads them: the first place, the last value; hints only at the root.
  assert.equal(filterToJobString('{"where": {"key": "a", "key": "b"}, "$schema": "x", "w": {"$dataset": 1}}'), '{"where":{"key":"b"},"w":{"$dataset":1}}');
  // A filter object that has its own "$dataset" keeps it; a filter that is no object opens as it is.
  assert.equal(jobStringToFilter('{"$dataset":"dns_logs","where":{}}', 'http_requests'), '{\n  "$dataset": "dns_logs",\n  "where": {}\n}');
  assert.equal(jobStringToFilter('[1,{"a":[]}]', 'http_requests'), '[\n  1,\n  {\n    "a": []\n  }\n]');
  assert.equal(jobStringToFilter('42', 'http_requests'), '42');
  assert.equal(jobStringToFilter('{}', 'http_requests'), '{\n  "$dataset": "http_requests"\n}');
  assert.throws(() => jobStringToFilter('{"where": 1,}'), SyntaxError);
  assert.throws(() => filterToJobString('{"where": 1} // c'), SyntaxError);
});

test('a value past 2^53 is quoted and fixed with the digits the filter writes, not the double JSON.parse gave', () => {
  const big = '12345678901234567891';
  const text = `{"where": {"and": [
    {"key": "EdgeResponseStatus", "operator": "in", "value": ${big}},
    {"key": "ClientCountry", "operator": "eq", "value": ${big}},
    {"key": "EdgeResponseStatus", "operator": "startsWith", "value": ${big}},
    {"key": "EdgeResponseStatus", "operator": "eq", "value": "x${big}"}
  ]}}`;
  const ps = check(text);
  const setP = only(ps, 'logpush/set-needs-array');
  assert.equal(setP.message, `The operator "in" needs an array of values, not ${big}.`);
  assert.deepEqual(setP.fixes?.map((f) => f.edits.map((e) => e.newText)), [[`[${big}]`]]);
  const str = ps.find((p) => p.code === 'logpush/value-type' && p.message.includes('ClientCountry'))!;
  assert.equal(str.message, `The field "ClientCountry" (string) takes strings, not ${big}.`);
  const op = only(ps, 'logpush/operator-not-allowed');
  assert.ok(op.fixes?.some((f) => f.title === `Use "in" (value [${big}])` && f.edits[1].newText === `[${big}]`), JSON.stringify(op.fixes?.map((f) => f.title)));
  // Inside a job's filter string too.
  const job = JSON.stringify({ dataset: 'http_requests', destination_conf: 's3://b/p?region=us-east-1', filter: `{"where": {"key": "EdgeResponseStatus", "operator": "in", "value": ${big}}}` });
  const jp = only(check(job, 'logpush-job'), 'logpush/set-needs-array');
  assert.equal(jp.message, `The operator "in" needs an array of values, not ${big}.`);
  assert.deepEqual(jp.fixes?.map((f) => f.edits.map((e) => e.newText)), [[`[${big}]`]]);
});

// Cases from a mutation sample of the filter rule (docs/architecture.md, "Mutation sample").
test('the "where" wrap inserts around the root and keeps what follows it; a cut-short text without "where" gets no missing-where', () => {
  const text = JSON.stringify(cmp('ClientCountry', 'eq', 'us')) + '\n';
  const p = only(check(text), 'logpush/missing-where');
  assert.equal(applyEdits(text, p.fixes![0].edits), `{ "where": ${text.trimEnd()} }\n`);
  const cut = codes('{"foo": 1, ');
  assert.ok(cut.length > 0 && !cut.includes('logpush/missing-where'), JSON.stringify(cut));
});

test('operator fixes of a comparison without a value change only the operator', () => {
  const text = filterText({ key: 'ClientCountry', operator: 'lt' });
  const p = only(check(text), 'logpush/operator-not-allowed');
  assert.ok(p.fixes!.some((f) => f.title === 'Use "in"'));
  for (const f of p.fixes!) {
    assert.equal(f.edits.length, 1, f.title);
    assert.equal(text.slice(f.edits[0].offset, f.edits[0].offset + f.edits[0].length), '"lt"', f.title);
  }
});

test('filterNumber reads numbers and numeric strings only', () => {
  assert.equal(filterNumber(1.5), 1.5);
  assert.equal(filterNumber(' 30 '), 30);
  assert.equal(filterNumber('-1e3'), -1000);
  for (const v of [true, null, undefined, {}, [], ['1'], '', 'abc', '0x10', '1.']) assert.ok(Number.isNaN(filterNumber(v)), JSON.stringify(v));
});

test('the quoted-boolean fix is the preferred one (Fix all applies it)', () => {
  const text = filterText(cmp('CacheTieredFill', 'eq', 'true'));
  const p = only(check(text), 'logpush/quoted-boolean');
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred, f.edits.map((e) => e.newText)]), [['Use true', true, ['true']]]);
});

// A dataset known by name only (dex_application_tests, audit_logs_v2, mnm_flow_logs, ...) has no field types to check values against,
// but "in" takes a set and "lt" a number whatever the field: lint passed {"operator": "in", "value": "a"} and test-filter then
// refused it ("cannot be evaluated: ... needs an array of values").
test('a dataset without a field list: the operators\' own value shapes are still checked (a set for in, a number for lt, one value for eq)', async () => {
  const { compileFilter } = await import('../../../server/src/core/eval/filter');
  const text = (where: unknown) => filterText(where, { $dataset: 'dex_application_tests' });
  const set = check(text(cmp('TestName', 'in', 'a,b')));
  const p = only(set, 'logpush/set-needs-array');
  assert.equal(p.severity, 'error');
  assert.equal(applyEdits(text(cmp('TestName', 'in', 'a,b')), p.fixes![0].edits), text(cmp('TestName', 'in', ['a', 'b'])).replace('[\n      "a",\n      "b"\n    ]', '["a", "b"]'));
  assert.equal(only(check(text(cmp('Duration', 'lt', 'soon'))), 'logpush/value-type').severity, 'error');
  assert.equal(only(check(text(cmp('Duration', 'gt', true))), 'logpush/value-type').severity, 'error');
  assert.equal(only(check(text(cmp('TestName', 'eq', ['a']))), 'logpush/value-type').severity, 'error');
  assert.equal(only(check(text(cmp('TestName', 'startsWith', ['a']))), 'logpush/value-type').severity, 'error');
  // What the platform may take is not guessed at: a number or a string for eq, a numeric string for lt, any set
  for (const c of [cmp('TestName', 'eq', 'a'), cmp('Code', 'eq', 5), cmp('Ok', 'eq', true), cmp('Duration', 'lt', '30'), cmp('Duration', 'geq', 2.5),
    cmp('TestName', 'in', ['a', 1]), cmp('TestName', '!in', []), cmp('TestName', 'contains', 'x')]) {
    assert.deepEqual(check(text(c)).filter((q) => q.severity === 'error').map((q) => q.code), [], JSON.stringify(c));
  }
  // What lint passes, test-filter evaluates; what it refuses, lint reports as an error
  const values: unknown[] = ['a', '30', ' 7 ', 5, -1.5, true, false, ['a'], [1, 'b'], [], 'a,b'];
  for (const op of ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains', 'in', '!in']) {
    for (const value of values) {
      const errors = check(text(cmp('F', op, value))).filter((q) => q.severity === 'error');
      const compiled = compileFilter({ where: cmp('F', op, value) }, 'dex_application_tests');
      assert.equal(compiled.ok, errors.length === 0, `${op} ${JSON.stringify(value)}: lint ${errors.map((q) => q.code).join(',') || 'clean'}, evaluator ${compiled.ok ? 'runs' : (compiled as { error: string }).error}`);
    }
  }
});

test('operator-not-allowed names the operator matrix\'s column only when it is not the field\'s type ("float, Int column", not "int, Int column")', () => {
  const msg = (key: string, operator: string, value: unknown) => validateText(JSON.stringify({ where: { key, operator, value } }), 'logpush-filter')
    .find((p) => p.code === 'logpush/operator-not-allowed')?.message;
  assert.match(msg('BotScore', 'startsWith', '3') ?? '', /^The operator "startsWith" does not apply to "BotScore" \(int\); use /);
  assert.match(msg('EdgeResponseCompressionRatio', 'contains', '1') ?? '', /\(float, Int column\)/);
  assert.match(msg('BotTags', 'lt', 1) ?? '', /\(array\[string\], Array column\)/);
});

test('an operator written as in other languages ("==", ">=", "ne", "not in", ...) is named with the filter\'s own, and fixed by Fix all', () => {
  // It said only 'expected one of "eq", "!eq", ...' for "==", "!=", ">=", "equals": the user had to find which one was meant.
  const cases: [string, unknown, string][] = [
    ['==', 'example.com', 'eq'], ['=', 'example.com', 'eq'], ['equals', 'example.com', 'eq'], ['!=', 'example.com', '!eq'],
    ['<>', 'example.com', '!eq'], ['ne', 'example.com', '!eq'], ['neq', 'example.com', '!eq'], ['not in', ['a.example'], '!in'],
    ['nin', ['a.example'], '!in'], ['not_in', ['a.example'], '!in'], ['not contains', 'x', '!contains'], ['includes', 'x', 'contains'],
  ];
  for (const [written, value, meant] of cases) {
    const text = filterText(cmp('ClientRequestHost', written, value));
    const p = only(check(text), 'schema/enum');
    assert.match(p.message, new RegExp(`^"operator" is the string ${JSON.stringify(JSON.stringify(written)).slice(1, -1)}; did you mean "${meant}"\\?`), written);
    assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [[`Change to "${meant}"`, true]], written);
    assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), [], written);
  }
  for (const [written, meant] of [['<', 'lt'], ['<=', 'leq'], ['le', 'leq'], ['lte', 'leq'], ['>', 'gt'], ['>=', 'geq'], ['ge', 'geq'], ['gte', 'geq']]) {
    const p = only(check(filterText(cmp('EdgeResponseStatus', written, 500))), 'schema/enum');
    assert.match(p.message, new RegExp(`did you mean "${meant}"\\?`), written);
    assert.equal(p.fixes?.length, 1, written);
  }
  // In a job's filter string, the fix writes inside the string
  const job = jobText({ filter: JSON.stringify({ where: cmp('ClientRequestHost', '==', 'example.com') }) });
  const q = only(check(job, 'logpush-job'), 'schema/enum');
  assert.match(q.message, /did you mean "eq"\?/);
  assert.deepEqual(JSON.parse(JSON.parse(applyEdits(job, q.fixes![0].edits)).filter).where.operator, 'eq');
});

test('an operator alias or an operator is known whatever its case, spaces and "_" ("NOT IN", "Not In", " eq"), one fix', () => {
  // "NOT IN" (SQL's spelling), "NE" and "Equals" got no suggestion at all (the aliases were matched exactly), and " eq" (a space
  // pasted in) got "!eq", "eq" and "geq" as equally near, "!eq" preferred: the editor's Auto Fix turned "equal" into "not equal".
  const cases: [string, unknown, string][] = [
    ['NOT IN', ['a.example'], '!in'], ['Not In', ['a.example'], '!in'], ['notIn', ['a.example'], '!in'], ['NE', 'example.com', '!eq'],
    ['Equals', 'example.com', 'eq'], ['NOT EQUALS', 'example.com', '!eq'], [' eq', 'example.com', 'eq'], ['ne ', 'example.com', '!eq'],
    ['starts_with', 'x', 'startsWith'], ['Not StartsWith', 'x', '!startsWith'], ['!EndsWith', 'x', '!endsWith'], ['IN', ['a.example'], 'in'],
    ['not equal', 'example.com', '!eq'], ['Is Not', 'example.com', '!eq'], ['≠', 'example.com', '!eq'],
  ];
  for (const [written, value, meant] of cases) {
    const text = filterText(cmp('ClientRequestHost', written, value));
    const p = only(check(text), 'schema/enum');
    assert.match(p.message, new RegExp(`did you mean "${meant}"\\?`), written);
    assert.deepEqual(p.fixes?.map((f) => [f.title, f.preferred]), [[`Change to "${meant}"`, true]], written);
    assert.deepEqual(check(applyEdits(text, p.fixes![0].edits)), [], written);
  }
});
