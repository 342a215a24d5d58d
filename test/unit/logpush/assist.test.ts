import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS } from '../../../server/src/core/types';
import { logpushFilterPlugin as F, logpushJobPlugin as J } from '../../../server/src/core/rules/logpush';

/** Text and offset from a template with one "|" marking the cursor. */
function at(template: string): { doc: ReturnType<typeof parseDocument>; offset: number } {
  const offset = template.indexOf('|');
  return { doc: parseDocument(template.slice(0, offset) + template.slice(offset + 1)), offset };
}
const complete = (plugin: typeof F, template: string, options = DEFAULT_OPTIONS) => {
  const { doc, offset } = at(template);
  return plugin.complete!(doc, offset, options);
};
const hover = (plugin: typeof F, template: string) => {
  const { doc, offset } = at(template);
  return plugin.hover!(doc, offset, DEFAULT_OPTIONS);
};

test('key values complete the filterable fields of the dataset, replacing the whole string', () => {
  const items = complete(F, '{"where": {"key": "Cli|", "operator": "eq", "value": "x"}}');
  const c = items.find((i) => i.label === 'ClientCountry')!;
  assert.equal(c.kind, 'field');
  assert.equal(c.detail, 'string');
  assert.equal(c.insertText, '"ClientCountry"');
  assert.deepEqual(c.replace, { offset: 18, length: 5 });
  assert.ok(!items.some((i) => i.label === 'Cookies')); // object: not filterable
  const fw = complete(F, '{"$dataset": "firewall_events", "where": {"key": "|"}}');
  assert.ok(fw.some((i) => i.label === 'ClientRefererHost'));
  assert.ok(!fw.some((i) => i.label === 'RuleID'));
});

test('operator values complete only the operators of the field type', () => {
  const labels = complete(F, '{"where": {"and": [{"key": "CacheTieredFill", "operator": "|"}]}}').map((i) => i.label);
  assert.deepEqual(labels, ['eq', '!eq']);
  const int = complete(F, '{"where": {"key": "BotScore", "operator": "e|q"}}');
  assert.deepEqual(int.map((i) => i.label), ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'in', '!in']);
  assert.equal(int[2].kind, 'operator');
  assert.equal(int[2].detail, 'less than');
});

test('value completes booleans and the values listed in a field description', () => {
  assert.deepEqual(complete(F, '{"where": {"key": "CacheTieredFill", "operator": "eq", "value": |}}').map((i) => i.label), ['true', 'false']);
  const status = complete(F, '{"where": {"key": "CacheCacheStatus", "operator": "eq", "value": "|"}}');
  assert.ok(status.some((i) => i.label === 'hit' && i.insertText === '"hit"'));
  const set = complete(F, '{"where": {"key": "CacheCacheStatus", "operator": "in", "value": |}}');
  assert.equal(set.find((i) => i.label === 'hit')?.insertText, '["hit"]');
});

test('snippets are offered where a condition is expected', () => {
  const labels = complete(F, '{"where": {"and": [|]}}').map((i) => i.label);
  assert.deepEqual(labels, ['comparison', 'and group', 'or group']);
  assert.deepEqual(complete(F, '{"where": |}').map((i) => i.label), ['comparison', 'and group', 'or group']);
  assert.equal(complete(F, '|')[0].label, 'filter');
});

test('in a job: dataset names, field_names and completion inside the filter string (escaped)', () => {
  assert.ok(complete(J, '{"dataset": "|"}').some((i) => i.label === 'firewall_events'));
  assert.ok(complete(J, '{"dataset": "dns_logs", "output_options": {"field_names": ["|"]}}').some((i) => i.label === 'QueryName'));
  const text = '{"dataset": "dns_logs", "filter": "{\\"where\\": {\\"key\\": \\"Qu|\\"}}"}';
  const items = complete(J, text);
  const q = items.find((i) => i.label === 'QueryName')!;
  assert.equal(q.insertText, '\\"QueryName\\"');
  const src = text.replace('|', '');
  assert.equal(src.substr(q.replace!.offset, q.replace!.length), '\\"Qu\\"');
});

test('hover: field, operator, where with the current usage, and inside a job filter string', () => {
  const f = hover(F, '{"where": {"key": "Bot|Score", "operator": "lt", "value": "30"}}')!;
  assert.match(f.markdown, /\*\*BotScore\*\* · `int`/);
  assert.match(hover(F, '{"where": {"key": "BotScore", "operator": "l|t", "value": "30"}}')!.markdown, /less than[\s\S]*Int/);
  const w = hover(F, '{"wh|ere": {"key": "BotScore", "operator": "lt", "value": "30"}}')!;
  assert.match(w.markdown, /1\/30 operators · \d+\/1000 bytes/);
  const j = hover(J, '{"filter": "{\\"where\\": {\\"key\\": \\"Client|Country\\", \\"operator\\": \\"eq\\", \\"value\\": \\"us\\"}}"}')!;
  assert.match(j.markdown, /ClientCountry/);
  assert.match(hover(J, '{"fil|ter": "{\\"where\\": {\\"key\\": \\"ClientCountry\\", \\"operator\\": \\"eq\\", \\"value\\": \\"us\\"}}"}')!.markdown, /1\/30 operators/);
});

test('lenses show the live usage on "where" and on a job\'s "filter"', () => {
  const doc = parseDocument('{"where": {"or": [{"key": "BotScore", "operator": "lt", "value": "30"}, {"key": "BotScore", "operator": "gt", "value": "90"}]}}');
  const [l] = F.lenses!(doc, DEFAULT_OPTIONS);
  assert.equal(l.title, `2/30 operators · ${JSON.stringify(doc.value).length}/1000 bytes`);
  assert.deepEqual({ offset: l.offset, length: l.length }, { offset: 1, length: 7 });
  const job = parseDocument(JSON.stringify({ filter: JSON.stringify({ where: { key: 'a', operator: 'eq', value: 'b' } }) }));
  assert.equal(J.lenses!(job, DEFAULT_OPTIONS)[0].title, `1/30 operators · ${(job.value as { filter: string }).filter.length}/1000 bytes`);
  assert.equal(J.lenses!(parseDocument('{"filter": ""}'), DEFAULT_OPTIONS)[0].title, 'no filter');
});

test('a job\'s null filter (no filter, as the API takes it) reads as no filter in the lens and the hover', () => {
  assert.equal(J.lenses!(parseDocument('{"filter": null}'), DEFAULT_OPTIONS)[0]?.title, 'no filter');
  assert.match(hover(J, '{"fil|ter": null}')!.markdown, /No filter: every log line is pushed/);
});

test('hover on "where" inside a job\'s filter string counts the bytes of the string as sent, as the diagnostics do', () => {
  const filter = JSON.stringify({ where: { key: 'ClientCountry', operator: 'eq', value: 'ca' } }, null, 2);
  const text = JSON.stringify({ destination_conf: 'gs://b/x', filter });
  const offset = text.indexOf('where') + 2;
  const h = J.hover!(parseDocument(text), offset, DEFAULT_OPTIONS);
  assert.match(h!.markdown, new RegExp(`${Buffer.byteLength(filter)}/1000 bytes`));
  assert.match(h!.markdown, /bytes of the string as sent/);
});

test('a dataset named like an Object member ("constructor", "__proto__", "toString") has no fields: hover and completion answer without throwing', () => {
  for (const dataset of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const job = `{"dataset": "${dataset}", "output_options": {"field_names": ["Client|IP"]}, "filter": "{\\"where\\": {\\"key\\": \\"ClientIP\\", \\"operator\\": \\"eq\\", \\"value\\": \\"1\\"}}"}`;
    assert.doesNotThrow(() => hover(J, job), dataset);
    assert.doesNotThrow(() => complete(J, job), dataset);
  }
});

test('the value of a comparison on a string or int field is not offered true/false (the checker refuses them there)', async () => {
  // The schema's "value" allows booleans, and its generic true/false came back wherever the filter offered nothing of its own.
  const { getLanguageService } = await import('../../../server/src/core');
  const ls = getLanguageService();
  const labels = (template: string) => {
    const { doc, offset } = at(template);
    return ls.complete('logpush-filter', doc, offset).map((i) => i.label);
  };
  assert.deepEqual(labels('{"where": {"key": "ClientCountry", "operator": "eq", "value": "|"}}'), []);
  assert.deepEqual(labels('{"where": {"key": "EdgeResponseStatus", "operator": "eq", "value": |}}'), []);
  assert.deepEqual(labels('{"where": {"key": "ClientRequestMethod", "operator": "in", "value": ["|"]}}'), []);
  assert.deepEqual(labels('{"where": {"key": "CacheTieredFill", "operator": "eq", "value": |}}'), ['true', 'false']);
  // A key the catalogue does not know (or none yet): the schema's values stay.
  assert.deepEqual(labels('{"where": {"operator": "eq", "value": |}}'), ['true', 'false']);
});

test('inside a job\'s filter string, member names complete as they do in a filter file, escaped for the string', () => {
  // A job's filter got value completions but none at a member name: "{|}" and {"where": {"|"}} offered nothing.
  const root = complete(J, '{"dataset": "http_requests", "filter": "{|}"}');
  assert.deepEqual(root.map((i) => i.label), ['where'], 'no editor hints ($dataset, $schema) in a job string');
  assert.equal(root[0].insertText, '\\"where\\": {$1}');
  assert.equal(root[0].snippet, true);
  const text = '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"key\\": \\"ClientCountry\\", \\"|\\"}}"}';
  const cond = complete(J, text);
  assert.deepEqual(cond.map((i) => i.label).sort(), ['and', 'operator', 'or', 'value']);
  const op = cond.find((i) => i.label === 'operator')!;
  assert.equal(op.insertText, '\\"operator\\": \\"${1:eq}\\"');
  const { offset } = at(text);
  const plain = text.replace('|', '');
  assert.equal(plain.slice(op.replace!.offset, op.replace!.offset + op.replace!.length), '\\"\\"', 'replaces the empty key, quotes and escapes included');
  assert.equal(op.replace!.offset, offset - 2);
});

test('hover on a member name inside a job\'s filter string describes that member, as in a filter file, on its own characters', () => {
  // It fell back to the description of the whole "filter" string, over the whole string.
  const text = '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"and\\": [{\\"key\\": \\"ClientCountry\\", \\"oper|ator\\": \\"eq\\", \\"value\\": \\"ca\\"}]}}"}';
  const h = hover(J, text)!;
  const src = text.replace('|', '');
  assert.equal(src.slice(h.offset, h.offset + h.length), '\\"operator\\"');
  assert.match(h.markdown, /^\*\*Operator\*\*/);
  const and = hover(J, text.replace('|', '').replace('\\"and', '\\"a|nd'))!;
  assert.match(and.markdown, /^\*\*And\*\*/);
  // The top-level "where" keeps its own hover with the current usage.
  assert.match(hover(J, text.replace('|', '').replace('\\"where', '\\"wh|ere'))!.markdown, /1\/30 operators/);
});

test('value completion in an account dataset\'s job offers the values its description lists, not the sentence\'s full stop', () => {
  const labels = complete(J, '{"dataset": "access_requests", "filter": "{\\"where\\": {\\"key\\": \\"Action\\", \\"operator\\": \\"eq\\", \\"value\\": \\"|\\"}}"}').map((i) => i.label);
  assert.deepEqual(labels, ['login', 'logout']);
});

test('hover and completion of a dataset name give each scope the platform takes its jobs under (firewall_events: zone or account)', () => {
  const h = hover(J, '{"dataset": "firewall_ev|ents"}')!.markdown;
  assert.match(h, /zone or account scope · `\/zones\/\{zone_id\}\/logpush\/jobs` or `\/accounts\/\{account_id\}\/logpush\/jobs`/);
  assert.match(hover(J, '{"dataset": "gateway_d|ns"}')!.markdown, /^\*\*gateway_dns\*\* · account scope · `\/accounts\/\{account_id\}\/logpush\/jobs`$/m);
  const items = complete(J, '{"dataset": "|"}');
  assert.equal(items.find((i) => i.label === 'firewall_events')?.detail, 'zone or account dataset');
  assert.equal(items.find((i) => i.label === 'http_requests')?.detail, 'zone dataset');
  assert.equal(items.find((i) => i.label === 'websocket_analytics')?.detail, 'zone or account dataset');
  assert.equal(items.find((i) => i.label === 'mcp_portal_logs')?.detail, 'account dataset (no field list)');
});

// A filter whose "and" lost its "[" showed "0/30 operators · 159/1000 bytes" on its lens and in the status bar, counted from the
// value the parser recovered (seen in code-server and headless Neovim beside the syntax problem): a count of nothing meant.
test('a filter with a syntax error: the lens says the usage is not counted and where the error is; no usage for the status bar', async () => {
  const { getLanguageService } = await import('../../../server/src/core');
  const valid = '{\n  "where": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  const broken = parseDocument(valid.replace('"and": [', '"and": '));
  assert.deepEqual(F.lenses!(broken, DEFAULT_OPTIONS).map((l) => l.title), ['Usage not counted: syntax error on line 4']);
  assert.equal(getLanguageService().filterUsage('logpush-filter', broken), undefined);
  const two = parseDocument(valid.replace('"and": [', '"and": ').replace('"eq",', '"eq"'));
  assert.deepEqual(F.lenses!(two, DEFAULT_OPTIONS).map((l) => l.title), ['Usage not counted: 2 syntax errors, the first on line 4']);
  // A job document with a syntax error: its filter string's usage is not counted either.
  const job = parseDocument('{"name": "j" "filter": "{\\"where\\": {\\"key\\": \\"a\\", \\"operator\\": \\"eq\\", \\"value\\": \\"b\\"}}"}');
  assert.equal(getLanguageService().filterUsage('logpush-job', job), undefined);
  // Valid ones as before.
  assert.equal(getLanguageService().filterUsage('logpush-filter', parseDocument(valid))?.operators, 2);
});

// The lens and the status bar said "Usage not counted" for a filter with a syntax error (984c407); the hover on "where" still
// counted the parser's recovery ("Current: 0/30 operators · 98/1000 bytes" for an "and" that lost its "[").
test('a filter with a syntax error: the hover on "where" says the usage is not counted, as the lens does; a job\'s broken filter string too', () => {
  const valid = '{\n  "w|here": {\n    "and": [\n      {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"},\n      {"key": "EdgeResponseStatus", "operator": "eq", "value": 200}\n    ]\n  }\n}\n';
  assert.match(hover(F, valid)!.markdown, /Current: 2\/30 operators/);
  assert.match(hover(F, valid.replace('"and": [', '"and": '))!.markdown, /Current: not counted: syntax error on line 4$/);
  // In a job's filter string: its lines are not the document's
  const job = (filter: string) => `{"dataset": "http_requests", "filter": ${JSON.stringify(filter).replace('where', 'w|here')}}`;
  assert.match(hover(J, job('{"where": {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}}'))!.markdown, /Current: 1\/30 operators/);
  assert.match(hover(J, job('{"where": {"and": {"key": "ClientIP", "operator": "eq", "value": "1.2.3.4"}]}}'))!.markdown, /Current: not counted: the filter string has a syntax error$/);
});

// A job with a syntax error shows no usage in the status bar (984c407's usage.ts); its lens still counted the filter string of
// the value the parser recovered ("1/30 operators"), and so did the hover on "filter".
test('a job with a syntax error: its lens and the hover on "filter" say the usage is not counted, as the status bar shows none', async () => {
  const { getLanguageService } = await import('../../../server/src/core');
  const text = '{\n  "name": "j"\n  "dataset": "http_requests",\n  "filter": "{\\"where\\": {\\"key\\": \\"ClientIP\\", \\"operator\\": \\"eq\\", \\"value\\": \\"b\\"}}"\n}\n';
  const doc = parseDocument(text);
  assert.equal(getLanguageService().filterUsage('logpush-job', doc), undefined);
  assert.deepEqual(J.lenses!(doc, DEFAULT_OPTIONS).map((l) => l.title), ['Usage not counted: syntax error on line 3']);
  assert.match(hover(J, text.replace('"filter"', '"fi|lter"'))!.markdown, /Current: not counted: syntax error on line 3$/);
  const valid = parseDocument(text.replace('"j"\n', '"j",\n'));
  assert.deepEqual(J.lenses!(valid, DEFAULT_OPTIONS).map((l) => l.title), ['1/30 operators · 62/1000 bytes']);
});

test('a new job\'s starter writes fields of the dataset it writes: the setting\'s dataset, or a job\'s own after "dataset"', async () => {
  // The starter wrote http_requests' ClientIP, ClientRequestHost, EdgeResponseStatus and RayID whatever the dataset: a gateway_dns
  // job started so had four logpush/unknown-field errors.
  const { validateText } = await import('../../../server/src/core/validate');
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const { DATASETS, datasetFields, datasetScopes, fieldNamed, starterFields } = await import('../../../server/src/core/rules/logpush/catalogue');
  const gw = { ...DEFAULT_OPTIONS, logpushDataset: 'gateway_dns' };
  const started = snippetToText(complete(J, '|', gw)[0].insertText!);
  assert.equal(JSON.parse(started).dataset, 'gateway_dns');
  assert.deepEqual(JSON.parse(started).output_options.field_names, ['Datetime', 'QueryID', 'QueryName', 'ResolverDecision', 'SrcIP']);
  assert.deepEqual(validateText(started, 'logpush-job', gw).map((p) => `${p.code} ${p.message}`), []);
  // Every dataset with a catalogue, in each scope its jobs take: a set of four or five that it has, checked clean as started.
  for (const d of DATASETS.filter((x) => x.hasFields)) {
    for (const scope of [undefined, ...datasetScopes(d.name)]) {
      const fields = starterFields(d.name, scope);
      assert.ok(fields.length >= 4 && fields.length <= 5, `${d.name} ${scope}: ${fields.join()}`);
      for (const f of fields) assert.ok(fieldNamed(datasetFields(d.name, scope)!, f), `${d.name} ${scope}: ${f}`);
      const o = { ...DEFAULT_OPTIONS, logpushDataset: d.name, ...(scope ? { logpushScope: scope } : {}) };
      const text = snippetToText(complete(J, '|', o)[0].insertText!);
      assert.deepEqual(JSON.parse(text).output_options.field_names, fields);
      assert.deepEqual(validateText(text, 'logpush-job', o).filter((p) => p.code === 'logpush/unknown-field'), [], `${d.name} ${scope}`);
    }
  }
  assert.deepEqual(starterFields('websocket_analytics', 'account'), ['timestampStartNanos', 'rayId', 'clientIP', 'clientRequestHTTPHost', 'connectionCloseReason']);
  // A dataset without a catalogue: no field_names (the platform writes all); a name that is no dataset: http_requests' starter.
  assert.equal(JSON.parse(snippetToText(complete(J, '|', { ...DEFAULT_OPTIONS, logpushDataset: 'audit_logs_v2' })[0].insertText!)).output_options.field_names, undefined);
  const typo = JSON.parse(snippetToText(complete(J, '|', { ...DEFAULT_OPTIONS, logpushDataset: 'gateway_dsn' })[0].insertText!));
  assert.deepEqual([typo.dataset, typo.output_options.field_names], ['http_requests', starterFields('http_requests')]);
  // After a job's "dataset", an empty field_names offers that dataset's set first; a list with a field in it does not.
  const first = complete(J, '{"dataset": "gateway_dns", "output_options": {"field_names": [|]}}')[0];
  assert.equal(first.label, 'fields of gateway_dns');
  const filled = '{"dataset": "gateway_dns", "output_options": {"field_names": [' + first.insertText + ']}}';
  assert.deepEqual(validateText(filled, 'logpush-job').filter((p) => p.code === 'logpush/unknown-field'), []);
  assert.ok(!complete(J, '{"dataset": "gateway_dns", "output_options": {"field_names": ["QueryName", |]}}').some((e) => e.label.startsWith('fields of')));
});
