import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { complete } from '../../../server/src/core/assist';

test('operator completion offers only what the field type allows (schema enum values do not leak back in)', () => {
  const text = '{"where":{"and":[{"key":"BotScore","operator":"lt","value":30},{"key":"ClientCountry","operator":"eq","value":"ca"}]}}';
  const labels = (at: number) => complete('logpush-filter', parseDocument(text), at).map((e) => e.label.replace(/^"(.*)"$/, '$1'));
  const intOps = labels(text.indexOf('"lt"') + 2);
  assert.ok(intOps.includes('gt') && !intOps.includes('startsWith') && !intOps.includes('contains'), intOps.join());
  assert.equal(new Set(intOps).size, intOps.length, 'no duplicates');
  const strOps = labels(text.indexOf('"eq"') + 2);
  assert.ok(strOps.includes('startsWith') && !strOps.includes('lt'), strOps.join());
});

test('schema-driven property completion still works next to a kind\'s own entries', () => {
  const text = '{\n  \n}';
  const labels = complete('jsonrpc-request', parseDocument(text), 4).map((e) => e.label);
  for (const k of ['jsonrpc', 'method', 'params', 'id']) assert.ok(labels.includes(k), labels.join());
});

test('no hover between tokens: whitespace, a colon or a comma inside an object or array shows nothing, a token its own text', async () => {
  // The whole document's description popped up over the whole document for a mouse resting on a blank line or a colon.
  // vscode-json-languageservice's jsonHover.ts returns null inside an object or array, away from its brackets.
  const { hover } = await import('../../../server/src/core/assist');
  const text = '{\n  "name": "x",\n  "rules": [\n    {"action": "execute",   "expression": "true"}\n  ]\n}';
  const d = parseDocument(text);
  const at = (probe: string, delta: number) => hover('waf-ruleset', d, text.indexOf(probe) + delta);
  assert.equal(at('{\n ', 2), undefined, 'indentation');
  assert.equal(at('"name":', 6), undefined, 'the colon');
  assert.equal(at('"x",', 3), undefined, 'the comma');
  assert.equal(at('[\n ', 3), undefined, 'inside the rules array');
  assert.equal(at('"execute",   ', 11), undefined, 'between members of a rule');
  const key = at('"name"', 2)!;
  assert.equal(text.slice(key.offset, key.offset + key.length), '"name"');
  const brace = hover('waf-ruleset', d, 0)!;
  assert.match(brace.markdown, /^\*\*Ruleset\*\*/, 'the opening bracket still describes the document');
});

test('an empty document of every kind offers a skeleton whose placeholders, as written, check clean', async () => {
  // A filter and a request had one; an empty job or ruleset file offered nothing at all.
  const { validateText } = await import('../../../server/src/core/validate');
  const { snippetToText } = await import('../../../server/src/lsp/features');
  for (const kind of ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'] as const) {
    for (const text of ['', '\n  \n']) {
      const items = complete(kind, parseDocument(text), text.length);
      assert.ok(items.length > 0 && items[0].kind === 'snippet', `${kind}: ${items.map((i) => i.label).join()}`);
      if (kind === 'logpush-filter') continue; // its skeleton leaves the field to the user: "key": ""
      const filled = snippetToText(items[0].insertText!);
      assert.deepEqual(validateText(filled, kind).map((p) => `${p.code} ${p.message}`), [], `${kind}: ${filled}`);
    }
  }
});

test('hover on the character after a string (its comma, colon or brace) is not the string\'s hover; its first and last are', async () => {
  // LSP positions name the character right of the caret: on the "," after "ClientCountry" the field's hover showed, while the
  // request's method hover (no right bound) already stopped at the quote.
  const { hover } = await import('../../../server/src/core/assist');
  const cases: [Parameters<typeof hover>[0], string, string][] = [
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}', '"ClientCountry"'],
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}', '"eq"'],
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}', '"where"'],
    ['logpush-job', '{"dataset": "http_requests", "output_options": {"field_names": ["ClientIP", "RayID"]}}', '"ClientIP"'],
    ['logpush-job', '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"key\\": \\"ClientIP\\", \\"operator\\": \\"eq\\", \\"value\\": \\"x\\"}}"}', '\\"ClientIP\\"'],
    ['waf-ruleset', '{"rules": [{"action": "execute", "expression": "true", "action_parameters": {"id": "efb7b8c949ac4650a09736fc376e9aee"}}]}', '"efb7b8c949ac4650a09736fc376e9aee"'],
    ['jsonrpc-request', '{"jsonrpc": "2.0", "method": "eth_getBalance", "id": 1}', '"eth_getBalance"'],
  ];
  for (const [kind, text, needle] of cases) {
    const d = parseDocument(text);
    const start = text.indexOf(needle), end = start + needle.length;
    for (const at of [start, end - 1]) {
      const h = hover(kind, d, at);
      assert.ok(h && text.slice(h.offset, h.offset + h.length) === needle, `${kind} ${needle} at ${at}: ${JSON.stringify(h)}`);
    }
    const after = hover(kind, d, end);
    assert.ok(!after || text.slice(after.offset, after.offset + after.length) !== needle, `${kind}: the ${JSON.stringify(text[end])} after ${needle}`);
  }
});

test('completing a key that already has its colon and value writes the name only, so the document stays valid JSON', async () => {
  // '{"na|me": "x"}' -> '{"$schema": "$1": "x"}': the property entries wrote a whole member over the key (the same in a request's
  // param object and inside a job's filter string). vscode-json-languageservice adds the value only where there is none.
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const cases: [Parameters<typeof complete>[0], string][] = [
    ['logpush-job', '{"na|me": "x"}'],
    ['logpush-job', '{"na|me" : }'],
    ['waf-ruleset', '{"rules": [{"act|ion": "block"}]}'],
    ['logpush-filter', '{"wh|ere": {}}'],
    ['jsonrpc-request', '{"jsonrpc": "2.0", "method": "trace_filter", "params": [{"fromBl|ock": "0x1"}], "id": 1}'],
    ['logpush-job', '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"key\\": \\"ClientCountry\\", \\"oper|ator\\": \\"eq\\"}}"}'],
  ];
  for (const [kind, marked] of cases) {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const props = complete(kind, parseDocument(text), offset).filter((e) => e.kind === 'property');
    assert.ok(props.length > 0, `${kind} ${marked}: no property entries`);
    for (const e of props) {
      const out = text.slice(0, e.replace!.offset) + snippetToText(e.insertText!) + text.slice(e.replace!.offset + e.replace!.length);
      const valid = (s: string) => { try { JSON.parse(s); return true; } catch { return false; } };
      if (valid(text)) assert.ok(valid(out), `${kind}: ${e.label} gives ${out}`);
      assert.ok(!/:\s*("[^"]*"|\{\}|\[\]|\d+|true)\s*:/.test(out.replace(/\\"/g, '"')), `${kind}: ${e.label} gives ${out}`);
    }
  }
  // Without a colon yet, the whole member is still written.
  const fresh = complete('logpush-job', parseDocument('{"na"}'), 3).find((e) => e.label === 'name')!;
  assert.equal(fresh.insertText, '"name": "$1"');
});

test('a member completed before another member gets the comma that separates them', async () => {
  // Adding a member above an existing one ({"d|" on its own line, then "name": ...) gave {"dataset": "" "name": "x"}: no comma.
  // vscode-json-languageservice appends one when a member follows (evaluateSeparatorAfter).
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const cases: [Parameters<typeof complete>[0], string, string][] = [
    ['logpush-job', '{\n  "d|"\n  "name": "x"\n}', 'dataset'],
    ['logpush-job', '{|"name": "x"}', 'dataset'],
    ['waf-ruleset', '{"rules": [{\n  "ex|"\n  "action": "block"}]}', 'expression'],
    ['jsonrpc-request', '{"jsonrpc": "2.0", "method": "trace_filter", "params": [{"c|" "fromBlock": "0x1"}], "id": 1}', 'count'],
  ];
  for (const [kind, marked, label] of cases) {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const e = complete(kind, parseDocument(text), offset).find((x) => x.label === label)!;
    assert.ok(e, `${kind} ${marked}`);
    const at = e.replace ?? { offset, length: 0 };
    const out = text.slice(0, at.offset) + snippetToText(e.insertText!) + text.slice(at.offset + at.length);
    assert.doesNotThrow(() => JSON.parse(out), `${kind}: ${out}`);
  }
  // Before the closing brace, no comma.
  const last = complete('logpush-job', parseDocument('{"name": "x", "d"}'), 16).find((x) => x.label === 'dataset')!;
  assert.equal(last.insertText, '"dataset": "$1"');
});

test('a condition or a request inserted in front of another array item gets the separating comma', async () => {
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const cases: [Parameters<typeof complete>[0], string][] = [
    ['logpush-filter', '{"where": {"and": [|{"key": "ClientCountry", "operator": "eq", "value": "ca"}]}}'],
    ['logpush-filter', '{"where": {"or": [\n  |\n  {"key": "ClientCountry", "operator": "eq", "value": "ca"}]}}'],
    ['jsonrpc-request', '[|{"jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 1}]'],
    ['jsonrpc-request', '[\n  |\n  {"jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 1}]'],
    ['logpush-job', '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"and\\": [|{\\"key\\": \\"ClientCountry\\", \\"operator\\": \\"eq\\", \\"value\\": \\"ca\\"}]}}"}'],
  ];
  for (const [kind, marked] of cases) {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const snippets = complete(kind, parseDocument(text), offset).filter((e) => e.kind === 'snippet');
    assert.ok(snippets.length > 0, marked);
    for (const e of snippets) {
      const out = text.slice(0, offset) + snippetToText(e.insertText!) + text.slice(offset);
      assert.doesNotThrow(() => JSON.parse(out), `${kind} ${e.label}: ${out}`);
    }
  }
  const end = '{"where": {"and": [{"key": "ClientCountry", "operator": "eq", "value": "ca"}, ]}}';
  assert.ok(!complete('logpush-filter', parseDocument(end), end.indexOf(', ]') + 2)[0].insertText!.endsWith(','), 'no comma before "]"');
});

test('a value completed in front of another member or item gets the separating comma, one inside a string none', async () => {
  // {"key": "ClientCountry", "operator": | "value": "ca"}: completing "eq" gave "operator": "eq" "value": ..., invalid JSON.
  // vscode-json-languageservice's value proposals end with evaluateSeparatorAfter's comma when the next token is not , } or ].
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const apply = (text: string, offset: number, e: ReturnType<typeof complete>[number]) => {
    const at = e.replace ?? { offset, length: 0 };
    return text.slice(0, at.offset) + snippetToText(e.insertText ?? e.label) + text.slice(at.offset + at.length);
  };
  const cases: [Parameters<typeof complete>[0], string, string][] = [
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator": | "value": "ca"}}', 'eq'],
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator":\n  |\n  "value": "ca"}}', 'eq'],
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator": "e|" "value": "ca"}}', 'eq'],
    ['logpush-filter', '{"where": {"key": | "operator": "eq", "value": "ca"}}', 'ClientCountry'],
    ['logpush-filter', '{"$dataset": | "where": {"key": "ClientCountry", "operator": "eq", "value": "ca"}}', 'http_requests'],
    ['logpush-job', '{"dataset": | "name": "x"}', 'http_requests'],
    ['logpush-job', '{"dataset": "http_requests", "output_options": {"field_names": [| "RayID"]}}', 'ClientIP'],
    ['waf-ruleset', '{"rules": [{"action": | "expression": "true"}]}', 'block'],
    ['jsonrpc-request', '{"jsonrpc": "2.0", "method": | "params": [], "id": 1}', 'eth_blockNumber'],
  ];
  for (const [kind, marked, label] of cases) {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const all = complete(kind, parseDocument(text), offset);
    const e = all.find((x) => x.label.replace(/^"(.*)"$/, '$1') === label);
    assert.ok(e, `${kind} ${marked}: ${all.map((x) => x.label).join()}`);
    const out = apply(text, offset, e!);
    assert.doesNotThrow(() => JSON.parse(out), `${kind} ${label}: ${out}`);
  }
  // Before a comma, "}" or "]" (or an existing comma after the literal), none.
  for (const [kind, marked, label] of [
    ['logpush-filter', '{"where": {"key": "ClientCountry", "operator": "e|", "value": "ca"}}', 'eq'],
    ['logpush-filter', '{"where": {"key": "ClientCountry", "value": "ca", "operator": |}}', 'eq'],
    ['logpush-job', '{"name": "x", "dataset": |\n}', 'http_requests'],
  ] as [Parameters<typeof complete>[0], string, string][]) {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const e = complete(kind, parseDocument(text), offset).find((x) => x.label.replace(/^"(.*)"$/, '$1') === label)!;
    assert.ok(!(e.insertText ?? e.label).endsWith(','), `${kind} ${marked}: ${e.insertText}`);
  }
  // Inside a string (a rules expression, a job's filter string) the text is not JSON members: no comma.
  const rules = '{"rules": [{"expression": "http.host eq \\"x\\" an", "action": "block"}]}';
  const inExpr = complete('waf-ruleset', parseDocument(rules), rules.indexOf(' an"') + 3);
  assert.ok(inExpr.length > 0 && inExpr.every((e) => !(e.insertText ?? e.label).endsWith(',')), JSON.stringify(inExpr.map((e) => e.insertText ?? e.label)));
  const job = '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"key\\": \\"ClientCountry\\", \\"operator\\": \\"e\\"}}", "name": "x"}';
  const inJob = complete('logpush-job', parseDocument(job), job.indexOf('\\"e\\"') + 3);
  assert.ok(inJob.length > 0 && inJob.every((e) => !(e.insertText ?? e.label).endsWith(',')), JSON.stringify(inJob.map((e) => e.insertText ?? e.label)));
});

test('a property name with "$" ($dataset, $schema) is escaped in its snippet, not read as a snippet variable', async () => {
  // "$dataset": "$1" as a snippet: VS Code reads $dataset as an unknown variable and inserts "dataset" (a placeholder), so the
  // member became "dataset", an unknown property of a filter.
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const items = complete('logpush-filter', parseDocument('{}'), 1);
  for (const label of ['$dataset', '$schema']) {
    const e = items.find((i) => i.label === label)!;
    assert.equal(e.snippet, true);
    assert.ok(e.insertText!.startsWith(`"\\${label}"`), e.insertText);
    assert.ok(!/(^|[^\\])\$[A-Za-z_]/.test(e.insertText!), `no unescaped variable in ${e.insertText}`);
    assert.equal(snippetToText(e.insertText!), `"${label}": ""`);
  }
});

test('snippetText escapes exactly "$", "}" and "\\", which a client without snippets reads back as the text', async () => {
  const { snippetText } = await import('../../../server/src/core/text');
  const { snippetToText } = await import('../../../server/src/lsp/features');
  assert.equal(snippetText('$dataset {x} C:\\dir 0x1'), '\\$dataset {x\\} C:\\\\dir 0x1');
  for (const s of ['$schema', 'a}b', 'back\\slash', '{"k": "$x"}']) assert.equal(snippetToText(snippetText(s)), s);
});

test('schema descriptions are plain text: hover and completion escape what markdown would swallow or restyle', async () => {
  // The job schema's destination_conf says "Where logs go: <scheme>://<address>, ..."; sent as markdown unescaped, VS Code took
  // <scheme> and <address> for HTML and showed "Where logs go: ://, with scheme ...". JSON Schema's description is plain text
  // (markdownDescription is the markdown one); vscode-json-languageservice's jsonHover.ts escapes it the same way.
  const { hover } = await import('../../../server/src/core/assist');
  const { markdownToPlain } = await import('../../../server/src/lsp/features');
  const schema = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '../../../schemas/logpush-job.schema.json'), 'utf8'));
  const description: string = schema.properties.destination_conf.description;
  assert.match(description, /<scheme>/, 'the case this test is about');
  const text = '{"destination_conf": "s3://b/p?region=us-east-1"}';
  const d = parseDocument(text);
  const h = hover('logpush-job', d, text.indexOf('destination_conf') + 2)!;
  assert.ok(h, 'a hover');
  assert.doesNotMatch(h.markdown, /(^|[^\\])<[a-z]/, 'no raw tag-like text in the markdown');
  assert.ok(markdownToPlain(h.markdown).includes(description), `plain clients get the description as written: ${markdownToPlain(h.markdown)}`);
  // Completion documentation of the same member.
  const c = complete('logpush-job', parseDocument('{\n  \n}'), 4).find((e) => e.label === 'destination_conf')!;
  assert.ok(c?.documentation, 'completion documents the member');
  assert.doesNotMatch(String(c.documentation), /(^|[^\\])<[a-z]/);
  assert.ok(markdownToPlain(String(c.documentation)).includes(description));
});

test('plain text survives plainToMarkdown then markdownToPlain, and markdown renders none of it as markup', async () => {
  const { plainToMarkdown } = await import('../../../server/src/core/assist');
  const { markdownToPlain } = await import('../../../server/src/lsp/features');
  for (const t of ['Use `where` at the top', 'a **b** and __c__', '\\d+ and C:\\logs', 'Tags: &lt;b&gt; &amp; &#60;', 'Heading?\n===', 'Heading?\n---',
    'x\n  ==', '1. first\n2) second', '- item', '# not a heading', '> not a quote', 'a | b', '~~gone~~', '<scheme>://<address>']) {
    const md = plainToMarkdown(t);
    assert.equal(markdownToPlain(md), t, `round trip of ${JSON.stringify(t)} via ${JSON.stringify(md)}`);
    // What would turn into markup: an unescaped backtick, an entity reference, a setext underline after a line of text.
    assert.doesNotMatch(md, /(^|[^\\])`/, md);
    assert.doesNotMatch(md, /(^|[^\\])&(#\d+|#x[0-9a-f]+|[a-z]+);/i, md);
    assert.doesNotMatch(md, /\n[ \t]*[=-]+[ \t]*$/, md);
  }
});

test('a completion\'s edit contains the offset asked at, everywhere in the fixtures\' strings with escapes (LSP: the range must hold the position)', async () => {
  // Between the backslash and the quote of a \" in a rule's expression (typing `eq \` before the quote), the offset maps to the
  // escape's start: fields were offered with an edit before the cursor, which VS Code drops and Neovim's omnifunc applies there.
  // Every offset of every JSON string holding an escape (where document and decoded offsets differ) of every fixture.
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = join(__dirname, '../../fixtures');
  const bad: string[] = [];
  let asked = 0;
  for (const kind of ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'] as const) {
    for (const f of readdirSync(join(root, kind)).filter((x) => x.endsWith('.json'))) {
      const text = readFileSync(join(root, kind, f), 'utf8');
      if (text.length > 1500) continue;
      const d = parseDocument(text);
      for (const m of text.matchAll(/"(?:[^"\\\n]|\\.)*\\(?:[^"\\\n]|\\.)*"/g)) {
        for (let at = m.index + 1; at < m.index + m[0].length; at++) {
          asked++;
          const e = complete(kind, d, at).find((x) => x.replace && !(x.replace.offset <= at && at <= x.replace.offset + x.replace.length));
          if (e) bad.push(`${kind}/${f} at ${at} (${JSON.stringify(text.slice(at - 12, at))}|${JSON.stringify(text.slice(at, at + 6))}): "${e.label}" replaces ${e.replace!.offset}-${e.replace!.offset + e.replace!.length}`);
        }
      }
    }
  }
  assert.ok(asked > 5000, `offsets asked: ${asked}`);
  assert.deepEqual(bad.slice(0, 10), [], `${bad.length} offsets`);
});

test('a string completed over a string literal edits between its quotes, so a snippet placeholder there survives it', async () => {
  // The filter, job and request snippets put their placeholders between quotes ("key": "$1", "operator": "${2:eq}",
  // "params": ["${1:latest}", ${2:false}]). A completion there replaced the literal with its quotes; VS Code ends a snippet when a
  // completion's edit reaches past the placeholder, so after picking a field Tab inserted spaces instead of going on to the
  // operator (ui5's walk). The text each completion leaves is the same.
  const { snippetToText } = await import('../../../server/src/lsp/features');
  const cases: [Parameters<typeof complete>[0], string, string, string][] = [
    ['logpush-filter', '{"where": {"key": "|", "operator": "eq", "value": ""}}', 'ClientCountry', 'ClientCountry'],
    ['logpush-filter', '{"where": {"key": "BotScore", "operator": "e|q", "value": 1}}', 'lt', 'lt'],
    ['logpush-filter', '{"$dataset": "|", "where": {"key": "BotScore", "operator": "lt", "value": 1}}', 'firewall_events', 'firewall_events'],
    ['logpush-job', '{"name": "x", "dataset": "|", "enabled": true}', 'dns_logs', 'dns_logs'],
    ['logpush-job', '{"dataset": "http_requests", "filter": "{\\"where\\": {\\"key\\": \\"|\\", \\"operator\\": \\"eq\\"}}"}', 'ClientCountry', 'ClientCountry'],
    ['jsonrpc-request', '{"jsonrpc": "2.0", "method": "eth_getBlockByNumber", "params": ["fin|", false], "id": 1}', '"finalized"', 'finalized'],
    ['jsonrpc-request', '{"jsonrpc": "2.0", "method": "eth_get|", "params": [], "id": 1}', 'eth_getBalance', 'eth_getBalance'],
  ];
  for (const [kind, marked, label, inserted] of cases) {
    const offset = marked.indexOf('|');
    const text = marked.replace('|', '');
    const all = complete(kind, parseDocument(text), offset);
    const e = all.find((x) => x.label === label);
    assert.ok(e, `${kind} ${marked}: ${all.map((x) => x.label).join()}`);
    assert.equal(e!.insertText, inserted, `${kind} ${marked}`);
    const r = e!.replace!;
    const quote = text[r.offset - 1] === '"' && (text[r.offset + r.length] === '"' || text.startsWith('\\"', r.offset + r.length));
    assert.ok(quote && r.offset <= offset && offset <= r.offset + r.length, `${kind} ${marked}: replaces ${JSON.stringify(text.slice(r.offset, r.offset + r.length))}`);
    const out = text.slice(0, r.offset) + snippetToText(e!.insertText!) + text.slice(r.offset + r.length);
    assert.ok(out.includes(kind === 'logpush-job' && marked.includes('filter') ? `\\"${inserted}\\"` : `"${inserted}"`), out);
    assert.equal(e!.filterText ?? e!.label, inserted, `${kind} ${marked}: filters on the text between the quotes`);
  }
  // A string with no closing quote, or a value that needs a comma after its closing quote, is still replaced whole.
  const open = '{"where": {"key": "Cli';
  const cc = complete('logpush-filter', parseDocument(open), open.length).find((x) => x.label === 'ClientCountry')!;
  assert.equal(cc.insertText, '"ClientCountry"');
  assert.equal(open.slice(cc.replace!.offset), '"Cli');
  const comma = '{"where": {"key": "ClientCountry", "operator": "e" "value": "ca"}}';
  const eq = complete('logpush-filter', parseDocument(comma), comma.indexOf('"e"') + 2).find((x) => x.label === 'eq')!;
  assert.equal(eq.insertText, '"eq",');
});

// rv23 left it: the empty ruleset's starter (and every other multi-line text a fix or a completion writes) came with LF line ends
// into a CRLF document. Other clients than VS Code insert the text as sent, so the document got mixed line ends.
test('multi-line completions and fixes are written with the document\'s own line break', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const loneLf = (s: string) => /(^|[^\r])\n/.test(s);
  const kinds = ['waf-ruleset', 'jsonrpc-request', 'logpush-job', 'logpush-filter'] as const;
  for (const kind of kinds) {
    for (const text of ['\r\n', '  \r\n\r\n']) {
      const items = complete(kind, parseDocument(text), 0).filter((e) => (e.insertText ?? '').includes('\n'));
      for (const e of items) assert.ok(!loneLf(e.insertText!), `${kind} ${e.label}: ${JSON.stringify(e.insertText)}`);
      for (const p of validateText(text, kind)) {
        for (const f of p.fixes ?? []) for (const ed of f.edits) assert.ok(!loneLf(ed.newText), `${kind} ${f.title}: ${JSON.stringify(ed.newText)}`);
      }
    }
  }
  const [empty] = validateText('\r\n', 'waf-ruleset');
  assert.match(empty.fixes![0].edits[0].newText, /^\{\r\n {2}"name"/);
  // A document with LF line breaks, or none yet, gets LF
  assert.match(validateText('\n', 'waf-ruleset')[0].fixes![0].edits[0].newText, /^\{\n {2}"name"/);
  assert.match(complete('waf-ruleset', parseDocument(''), 0)[1].insertText!, /^\{\n\t"name"/);
  // A snippet inside a CRLF document with content: a request in a batch, a condition group in a filter
  const batch = '[\r\n  \r\n]';
  const requests = complete('jsonrpc-request', parseDocument(batch), 5).filter((e) => (e.insertText ?? '').includes('\n'));
  assert.ok(requests.length > 0);
  for (const e of requests) assert.ok(!loneLf(e.insertText!), `${e.label}: ${JSON.stringify(e.insertText)}`);
  const filter = '{\r\n  "where": \r\n}';
  const groups = complete('logpush-filter', parseDocument(filter), filter.indexOf(': ') + 2).filter((e) => (e.insertText ?? '').includes('\n'));
  assert.ok(groups.length > 0, 'a condition group offered');
  for (const e of groups) assert.ok(!loneLf(e.insertText!), `${e.label}: ${JSON.stringify(e.insertText)}`);
});
