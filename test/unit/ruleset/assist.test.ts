// Hovers, completions and lenses of ruleset bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/core/parse';
import { DEFAULT_OPTIONS } from '../../../server/src/core/types';
import { rulesetPlugin } from '../../../server/src/core/rules/ruleset';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';

const BODY = `{
  "name": "default",
  "rules": [
    {
      "id": "", "version": "", "ref": "",
      "action": "execute",
      "expression": "http.user_agent eq \\"a\\\\\\"b\\" and lower(http.host) eq \\"x\\"",
      "action_parameters": {
        "id": "4814384a9e5d4991b9815dcfc25d2f1f",
        "overrides": {
          "action": "simulate",
          "sensitivity_level": "high",
          "rules": [{ "id": "6179ae15870a4bb7b2d480d4843b323c", "score_threshold": 40 }]
        }
      }
    }
  ]
}`;

const doc = parseDocument(BODY);
const hoverAt = (needle: string, delta = 1, nth = 1) => {
  let i = -1;
  for (let k = 0; k < nth; k++) i = BODY.indexOf(needle, i + 1);
  assert.ok(i >= 0, needle);
  return rulesetPlugin.hover!(doc, i + delta, DEFAULT_OPTIONS);
};

test('the fixture parses as JSON and validates without syntax errors', () => {
  assert.deepEqual(doc.syntax, []);
});

test('hover on action_parameters.id names the managed ruleset', () => {
  const h = hoverAt('"4814384a9e5d4991b9815dcfc25d2f1f"')!;
  assert.match(h.markdown, /Cloudflare OWASP Core Ruleset/);
  assert.equal(BODY.substr(h.offset, h.length), '"4814384a9e5d4991b9815dcfc25d2f1f"');
});

test('hover on a field inside an expression gives its type, on the exact source characters', () => {
  const h = hoverAt('http.host', 3)!;
  assert.match(h.markdown, /\*\*http\.host\*\*: `String`/);
  assert.equal(BODY.substr(h.offset, h.length), 'http.host');
  const fn = hoverAt('lower(', 2)!;
  assert.match(fn.markdown, /^`lower\(String\): String`\n\nConverts a string to lowercase/);
  // after the escaped quotes the mapping still lands right
  const ua = hoverAt('http.user_agent', 4)!;
  assert.equal(BODY.substr(ua.offset, ua.length), 'http.user_agent');
});

test('hover on override values explains the old -> new mapping', () => {
  const score = hoverAt('40 }', 0)!;
  assert.match(score.markdown, /Score threshold 40/);
  assert.match(score.markdown, /`high`, `low`, `default`/);
  assert.match(score.markdown, /Old → new core rule set/);
  const sens = hoverAt('"high"')!;
  assert.match(sens.markdown, /\| High \| PL2 \| Medium, 40 or higher \| \*\*←\*\*/);
  const action = hoverAt('"simulate"')!;
  assert.match(action.markdown, /`simulate` → new action `log`/);
});

test('hover on "rules" says what the rules are in the lens\'s words, and the API\'s terms last, for a body sent by hand', () => {
  const h = hoverAt('"rules"', 1, 1)!;
  const [first, ...rest] = h.markdown.split('\n\n');
  assert.equal(first, '**1 rule**, with ids (as the migration configured it): it carries its id, version and ref.');
  assert.doesNotMatch(rest.slice(0, -1).join(' '), /\bbody\b|pending|waf_migration/);
  assert.match(rest.at(-1)!, /^Sent through the API yourself: a pending \(config\) body, with `waf_migration=pending`\.$/);
  const v = parseDocument('{"rules":[{"action":"execute","expression":"true"},{"action":"execute","expression":"true"}]}');
  const vh = rulesetPlugin.hover!(v, 3, DEFAULT_OPTIONS)!.markdown.split('\n\n');
  assert.equal(vh[0], '**2 rules**, without ids (new rules): none carries an id, version or ref.');
  assert.match(vh.at(-1)!, /validation body/);
  // Ids on some rules only: the hover says how many, and what to do.
  const mixed = parseDocument('{"rules":[{"action":"execute","expression":"true"},{"action":"execute","expression":"true"},{"ref":"x","action":"execute","expression":"true"}]}');
  const mh = rulesetPlugin.hover!(mixed, 3, DEFAULT_OPTIONS)!.markdown.split('\n\n');
  assert.equal(mh[0], '**3 rules**, most without ids (new rules): 1 of 3 rules has an id, version or ref. Remove id, version and ref from every rule, or give every rule all three.');
});

test('completion of managed ruleset ids and actions replaces the whole string', () => {
  const text = '{"rules":[{"action":"ex","expression":"true","action_parameters":{"id":""}}]}';
  const d = parseDocument(text);
  const ids = rulesetPlugin.complete!(d, text.indexOf('"id":""') + 6, DEFAULT_OPTIONS);
  assert.ok(ids.some((c) => c.label === 'efb7b8c949ac4650a09736fc376e9aee' && c.detail === 'Cloudflare Managed Ruleset' && c.insertText === '"efb7b8c949ac4650a09736fc376e9aee"'));
  assert.deepEqual(ids[0].replace, { offset: text.indexOf('"id":""') + 5, length: 2 });
  // A body with no phase is the managed entry point, whose rules take execute and skip only (ruleset/action-phase): completion
  // offered every action, "block" included, which the check then refuses
  const actions = rulesetPlugin.complete!(d, text.indexOf('"ex"') + 2, DEFAULT_OPTIONS);
  assert.deepEqual(actions.map((c) => c.label).sort(), ['execute', 'skip']);
  // In custom rules: the terminating actions say so (the actions reference's "Terminating action?" column); the others do not.
  const custom = '{"phase":"http_request_firewall_custom","rules":[{"action":"bl","expression":"true"}]}';
  const inCustom = rulesetPlugin.complete!(parseDocument(custom), custom.indexOf('"bl"') + 2, DEFAULT_OPTIONS);
  assert.match(inCustom.find((c) => c.label === 'block')!.detail!, /terminating: the rules after it do not run/);
  assert.doesNotMatch(inCustom.find((c) => c.label === 'log')!.detail!, /terminating/);
  // Actions the actions reference ties to other phases are not offered (route: origin rules; set_config: configuration rules)
  assert.ok(!inCustom.some((c) => c.label === 'route' || c.label === 'set_config' || c.label === 'redirect'));
  const cache = '{"phase":"http_request_cache_settings","rules":[{"action":"se","expression":"true"}]}';
  const inCache = rulesetPlugin.complete!(parseDocument(cache), cache.indexOf('"se"') + 2, DEFAULT_OPTIONS).map((c) => c.label);
  assert.ok(inCache.includes('set_cache_settings') && !inCache.includes('set_config') && !inCache.includes('serve_error'));
});

test('completion inside an expression: fields and functions, then operators after a field', () => {
  const text = '{"rules":[{"action":"skip","expression":"ssl and http.ho"}]}';
  const d = parseDocument(text);
  const at = text.indexOf('http.ho') + 'http.ho'.length;
  const items = rulesetPlugin.complete!(d, at, DEFAULT_OPTIONS);
  const host = items.find((c) => c.label === 'http.host')!;
  assert.equal(host.kind, 'field');
  assert.equal(host.detail, 'String');
  assert.equal(text.substr(host.replace!.offset, host.replace!.length), 'http.ho');
  assert.ok(items.some((c) => c.label === 'lower' && c.kind === 'method'));
  const text2 = '{"rules":[{"action":"skip","expression":"http.host "}]}';
  const ops = rulesetPlugin.complete!(parseDocument(text2), text2.indexOf('host ') + 5, DEFAULT_OPTIONS).map((c) => c.label);
  assert.ok(ops.includes('eq') && ops.includes('wildcard') && ops.includes('in'));
  assert.ok(!ops.includes('http.host'));
});

test('lenses: rule count and body kind over "rules", and the executed ruleset per rule', () => {
  // In the user's words (ui6's walk): "pending body" is the API's jargon for a body whose rules carry id/version/ref (the hover
  // gives it last, for a body sent through the API by hand).
  const lenses = rulesetPlugin.lenses!(doc, DEFAULT_OPTIONS);
  assert.equal(lenses[0].title, '1 rule · with ids (as the migration configured it)');
  assert.equal(BODY.substr(lenses[0].offset, lenses[0].length), '"rules"');
  assert.equal(lenses[1].title, 'executes Cloudflare OWASP Core Ruleset');
  assert.equal(lenses.every((l) => l.command === undefined), true);
});

test('function signatures as hovers and completion details show them, from the one signature table', async () => {
  const { FUNCTIONS, signature } = await import('../../../server/src/core/rules/ruleset/catalog');
  const sig = (name: string) => signature(FUNCTIONS.get(name)!);
  // Each parameter by the functions reference's name for it, where it has one (ui13: signature help showed the types alone)
  assert.equal(sig('substring'), 'substring(field: String, start: Integer, end?: Integer): String');
  assert.equal(sig('has_value'), 'has_value(Map | Array, Boolean | Integer | String | Bytes | IP): Boolean');
  assert.equal(sig('lookup_json_string'), 'lookup_json_string(field: String, key: String | Integer, ...): String');
  assert.equal(sig('concat'), "concat(String | Bytes | Array, String | Bytes | Array, ...): the first argument's type");
  assert.equal(sig('split'), 'split(input: String, separator: String, limit: Integer): Array<String>');
  assert.equal(sig('starts_with'), 'starts_with(source: String, substring: String): Boolean');
  assert.equal(sig('regex_replace'), 'regex_replace(source: String, regular_expression: String, replacement: String): String');
  assert.equal(sig('wildcard_replace'), 'wildcard_replace(source: String, wildcard_pattern: String, replacement: String, flags?: String): String');
  assert.equal(sig('is_timed_hmac_valid_v0'), 'is_timed_hmac_valid_v0(Key: String, MessageMAC: String, ttl: Integer, currentTimeStamp: Integer, lengthOfSeparator?: Integer, flags?: String): Boolean');
  assert.equal(sig('lower'), 'lower(String): String');
  const text = '{"rules":[{"action":"skip","expression":"split(http.host, \\",\\", 2)[0] eq \\"a\\""}]}';
  const h = rulesetPlugin.hover!(parseDocument(text), text.indexOf('split') + 2, DEFAULT_OPTIONS)!;
  assert.match(h.markdown, /^`split\(input: String, separator: String, limit: Integer\): Array<String>`/);
  assert.match(h.markdown, /Available in http_response_headers_transform, http_custom_errors, http_response_cache_settings\./);
});

test('a ruleset of another phase is not a migration body: the hover and the lens name its phase, not pending/validation', () => {
  const text = '{"phase":"http_request_firewall_custom","rules":[{"ref":"a","action":"block","expression":"true"},{"action":"block","expression":"ssl"}]}';
  const d = parseDocument(text);
  const h = rulesetPlugin.hover!(d, text.indexOf('"rules"') + 2, DEFAULT_OPTIONS)!;
  assert.match(h.markdown, /^\*\*2 rules\*\* of a ruleset in phase `http_request_firewall_custom`/);
  assert.equal(rulesetPlugin.lenses!(d, DEFAULT_OPTIONS)[0].title, '2 rules · http_request_firewall_custom');
  const managed = parseDocument(text.replace('http_request_firewall_custom', 'http_request_firewall_managed'));
  assert.equal(rulesetPlugin.lenses!(managed, DEFAULT_OPTIONS)[0].title, '2 rules · with ids (as the migration configured them)');
});

test('in a Network Firewall phase, completion offers the packet fields and hover describes them', () => {
  const text = '{"phase":"magic_transit","rules":[{"action":"block","expression":"tcp.dstport eq 22 and "}]}';
  const d = parseDocument(text);
  const labels = rulesetPlugin.complete!(d, text.indexOf('and ') + 4, DEFAULT_OPTIONS).map((c) => c.label);
  assert.ok(labels.includes('tcp.dstport') && labels.includes('ip.proto') && labels.includes('bit_slice'), labels.join(' '));
  assert.ok(!labels.includes('http.host'), 'no HTTP fields in a packet phase');
  const h = rulesetPlugin.hover!(d, text.indexOf('tcp.dstport') + 2, DEFAULT_OPTIONS)!;
  assert.match(h.markdown, /\*\*tcp\.dstport\*\*: `Integer`/);
  const foreign = '{"phase":"magic_transit","rules":[{"action":"block","expression":"http.host eq \\"a\\""}]}';
  const fh = rulesetPlugin.hover!(parseDocument(foreign), foreign.indexOf('http.host') + 2, DEFAULT_OPTIONS)!;
  assert.match(fh.markdown, /An HTTP field: \*\*not read in phase `magic_transit`\*\*\.$/);
  assert.doesNotMatch(h.markdown, /not read/);
  const http = parseDocument(text.replace('magic_transit', 'http_request_firewall_custom'));
  const httpLabels = rulesetPlugin.complete!(http, text.indexOf('and ') + 4 + 'http_request_firewall_custom'.length - 'magic_transit'.length, DEFAULT_OPTIONS).map((c) => c.label);
  assert.ok(httpLabels.includes('http.host') && !httpLabels.includes('tcp.dstport'));
});

test('completion offers only the functions the body\'s phase may call, as the checker allows them', () => {
  const text = '{"phase":"magic_transit","rules":[{"action":"block","expression":"tcp.dstport eq 22 and "}]}';
  const at = (t: string) => rulesetPlugin.complete!(parseDocument(t), t.indexOf('and ') + 4, DEFAULT_OPTIONS).map((c) => c.label);
  const packet = at(text);
  assert.ok(packet.includes('bit_slice') && !packet.includes('regex_replace') && !packet.includes('cidr'), packet.join(' '));
  const http = at(text.replace('magic_transit', 'http_request_firewall_custom'));
  assert.ok(!http.includes('bit_slice') && http.includes('cidr') && http.includes('lower'), http.join(' '));
});

test('hover on every comparison and logical operator, C-like or English, explains it (the symbols <, <=, >, >= had none)', () => {
  // operators.mdx of the rules language: eq ==, ne !=, lt <, le <=, gt >, ge >=, contains, matches ~, in; not !, and &&, xor ^^, or ||.
  const ops = ['eq', '==', 'ne', '!=', 'lt', '<', 'le', '<=', 'gt', '>', 'ge', '>=', 'matches', '~', 'and', '&&', 'xor', '^^', 'or', '||'];
  for (const op of ops) {
    const text = `{"phase":"http_request_firewall_custom","rules":[{"action":"block","expression":"cf.threat_score ${op} 10 and true"}]}`;
    const h = rulesetPlugin.hover!(parseDocument(text), text.indexOf(` ${op} `) + 1, DEFAULT_OPTIONS);
    assert.ok(h, `no hover on ${op}`);
    assert.equal(text.slice(h.offset, h.offset + h.length), op);
    assert.ok(h.markdown.includes(`\`${op}\``), `${op}: ${h.markdown}`);
  }
  const text = '{"rules":[{"action":"block","expression":"cf.threat_score < 10 and cf.threat_score >= 3"}]}';
  const h = rulesetPlugin.hover!(parseDocument(text), text.indexOf('<'), DEFAULT_OPTIONS)!;
  assert.match(h.markdown, /less than/);
  assert.match(rulesetPlugin.hover!(parseDocument(text), text.indexOf('>=') + 1, DEFAULT_OPTIONS)!.markdown, /greater or equal/);
});

test('after a comparison operator, completion offers no fields or functions where the checker wants a literal, only those of the left side\'s type after equality and ordering, after "in" a set', () => {
  // "http.host eq |" offered every field and function; picking one gave ruleset/expr-syntax ("Expected a value after \"eq\"").
  // Since the platform compares two fields (changelog 2026-10-01) those of the left side's type are offered after eq...ge.
  const labelsAt = (expr: string) => {
    const text = `{"phase":"http_request_firewall_custom","rules":[{"action":"block","expression":"${expr}"}]}`;
    const at = text.indexOf('|');
    return rulesetPlugin.complete!(parseDocument(text.replace('|', '')), at, DEFAULT_OPTIONS).map((c) => c.label);
  };
  for (const op of ['contains', 'matches', '~', 'wildcard']) assert.deepEqual(labelsAt(`http.host ${op} |`), [], op);
  for (const op of ['eq', '==', 'ne', '!=', 'lt', '<', 'le', '<=', 'gt', '>', 'ge', '>=']) {
    const labels = labelsAt(`http.host ${op} |`);
    assert.ok(labels.includes('http.referer') && !labels.includes('cf.waf.score') && !labels.includes('not'), op);
  }
  assert.deepEqual(labelsAt('ip.src in |'), ['{ }']);
  assert.deepEqual(labelsAt('http.host strict |'), ['wildcard']);
  // Where an operand starts, fields and functions stay.
  for (const expr of ['|', 'not |', 'http.host eq \\"a\\" and |', 'lower(|']) assert.ok(labelsAt(expr).includes('http.host'), expr);
});

test('expression completion: nothing inside a string literal or a set, and only the operators the field\'s type takes', () => {
  // Inside "ab|" it offered and/or/xor replacing the string's text; inside {"a" |} and/or/xor; after a Boolean field (ssl)
  // contains/matches/lt..., after an IP field contains/matches/lt (operators.mdx: lt..ge take String and Number, contains and
  // matches String), each refused by the checker (ruleset/expr-type-mismatch).
  const labelsAt = (expr: string) => {
    const text = `{"phase":"http_request_firewall_custom","rules":[{"action":"block","expression":"${expr}"}]}`;
    const at = text.indexOf('|');
    return rulesetPlugin.complete!(parseDocument(text.replace('|', '')), at, DEFAULT_OPTIONS).map((c) => c.label);
  };
  assert.deepEqual(labelsAt('http.host eq \\"ab|\\"'), []);
  assert.deepEqual(labelsAt('http.host eq \\"ab|'), [], 'an unterminated string');
  assert.deepEqual(labelsAt('http.host eq r\\"ab|\\"'), [], 'a raw string');
  assert.deepEqual(labelsAt('http.host in {\\"a\\" |}'), []);
  assert.deepEqual(labelsAt('ssl |'), ['and', 'or', 'xor'], 'a Boolean takes no comparison operator (wirefilter IsTrue)');
  assert.deepEqual(labelsAt('http.request.headers.names |'), [], 'an array field takes no operator before [0] or [*]');
  assert.deepEqual(labelsAt('ip.src |'), ['eq', 'ne', 'in']);
  assert.deepEqual(labelsAt('cf.threat_score |'), ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in']);
  assert.ok(labelsAt('http.host |').includes('contains') && labelsAt('http.host |').includes('wildcard'));
  assert.ok(labelsAt('http.host eq \\"ab\\" |').includes('and'), 'after a closed string: logical operators');
});

test('an empty rules list reads as a validation body (nothing carries ids); a "rules" that is not an array counts no rule', () => {
  const empty = parseDocument('{"rules":[]}');
  assert.equal(rulesetPlugin.lenses!(empty, DEFAULT_OPTIONS)[0].title, '0 rules · without ids (new rules)');
  const onlyScalars = parseDocument('{"rules":[1,"x"]}');
  assert.equal(rulesetPlugin.lenses!(onlyScalars, DEFAULT_OPTIONS)[0].title, '2 rules · without ids (new rules)');
  // A tie reads as pending (the config operation's body); an item that is not an object is the schema's, not a deviation.
  assert.equal(rulesetPlugin.lenses!(parseDocument('{"rules":[{"ref":"a"},{}]}'), DEFAULT_OPTIONS)[0].title, '2 rules · with ids (as the migration configured them)');
  assert.equal(rulesetPlugin.lenses!(parseDocument('{"rules":[1,{"id":"","version":"","ref":""}]}'), DEFAULT_OPTIONS)[0].title, '2 rules · with ids (as the migration configured them)');
  for (const text of ['{"rules":"x"}', '{"rules":{"id":"a"}}']) {
    const d = parseDocument(text);
    const h = rulesetPlugin.hover!(d, text.indexOf('"rules"') + 2, DEFAULT_OPTIONS)!;
    assert.match(h.markdown, /^\*\*0 rules\*\*, without ids \(new rules\)/, text);
  }
});

test('a comparison of two fields (changelog 2026-10-01): hover on the right-hand field and function, completion of same-type fields and functions after an operator', () => {
  const text = '{"phase":"http_request_firewall_custom","rules":[{"action":"block","expression":"http.request.uri.path ne raw.http.request.uri.path and http.host eq lower(http.referer)"}]}';
  const d = parseDocument(text);
  const h = rulesetPlugin.hover!(d, text.indexOf('raw.http') + 5, DEFAULT_OPTIONS)!;
  assert.match(h.markdown, /^\*\*raw\.http\.request\.uri\.path\*\*: `String`/);
  assert.equal(text.substr(h.offset, h.length), 'raw.http.request.uri.path');
  assert.match(rulesetPlugin.hover!(d, text.indexOf('lower(') + 2, DEFAULT_OPTIONS)!.markdown, /^`lower\(String\): String`/);
  assert.match(rulesetPlugin.hover!(d, text.indexOf('http.referer') + 2, DEFAULT_OPTIONS)!.markdown, /^\*\*http\.referer\*\*: `String`/);
  // After "eq" with a String field on the left: the String (and Bytes) fields and the functions that give one, not the others
  const after = (expr: string) => {
    const t = `{"phase":"http_request_firewall_custom","rules":[{"action":"block","expression":"${expr}"}]}`;
    return rulesetPlugin.complete!(parseDocument(t), t.indexOf(expr) + expr.length, DEFAULT_OPTIONS);
  };
  const labels = after('http.host eq ').map((c) => c.label);
  assert.ok(labels.includes('http.referer') && labels.includes('raw.http.request.uri.path') && labels.includes('cf.random_seed'), labels.join());
  assert.ok(labels.includes('lower') && labels.includes('coalesce'), 'functions of that result type, and those of their argument\'s type');
  assert.ok(!labels.includes('cf.waf.score') && !labels.includes('ip.src') && !labels.includes('ssl') && !labels.includes('len'), labels.join());
  assert.ok(!labels.includes('ip.geoip.country'), 'no deprecated field');
  const ints = after('cf.waf.score < ').map((c) => c.label);
  assert.ok(ints.includes('cf.bot_management.score') && ints.includes('len') && !ints.includes('http.host'), ints.join());
  // The operators that take a literal only, and an ordering on IP, offer no field
  assert.deepEqual(after('http.host contains ').map((c) => c.label), []);
  assert.deepEqual(after('ip.src lt ').map((c) => c.label), []);
  assert.ok(after('ip.src eq ').some((c) => c.label === 'cf.edge.server_ip'));
  // A phase's functions only (cidr() in custom and rate limiting rules)
  assert.ok(after('ip.src eq ').some((c) => c.label === 'cidr'));
});

test('hover on an equality or ordering operator says its right side may be a field or a function result of the same type; on contains, a literal', () => {
  const text = '{"rules":[{"action":"block","expression":"http.host eq http.referer and http.host >= http.referer and http.host contains \\"a\\""}]}';
  const d = parseDocument(text);
  for (const op of [' eq ', ' >= ']) {
    assert.match(rulesetPlugin.hover!(d, text.indexOf(op) + 1, DEFAULT_OPTIONS)!.markdown, /a field or a function result of the same type/, op);
  }
  assert.doesNotMatch(rulesetPlugin.hover!(d, text.indexOf('contains') + 1, DEFAULT_OPTIONS)!.markdown, /a field or a function result/);
});

test('completion after eq...ge with a call or an indexed field on the left: the fields and functions of its type', () => {
  const after = (expr: string) => {
    const t = `{"phase":"http_request_firewall_custom","rules":[{"action":"block","expression":"${expr}"}]}`;
    return rulesetPlugin.complete!(parseDocument(t), t.indexOf(expr) + expr.length, DEFAULT_OPTIONS).map((c) => c.label);
  };
  const len = after('ssl and len(http.request.uri.path) gt ');
  assert.ok(len.includes('cf.waf.score') && len.includes('len') && !len.includes('http.host'), len.join());
  const header = after('http.request.headers[\\"x-a\\"][0] == ');
  assert.ok(header.includes('http.host') && header.includes('lower') && !header.includes('cf.waf.score'), header.join());
  const each = after('any(lower(http.request.headers.names[*])[*] eq ');
  assert.ok(each.includes('http.host') && !each.includes('cf.waf.score'), each.join());
  // A group is no operand; an array without an element picked takes no comparison
  assert.deepEqual(after('(ssl) eq '), []);
  assert.deepEqual(after('http.request.headers.names eq '), []);
});

test('expression completion offers only what the body\'s phase can see, by the checker\'s own verdict (ruleset/expr-phase), after an operator and where an operand starts', () => {
  // "http.host eq |" in http_request_firewall_custom offered http.response.headers... and the start of an expression offered
  // http.response.code, ip.src.timezone.name (Transform Rules only) and cf.appsec.request.failed_detections' kin, each a warning
  // once picked.
  const labelsAt = (expr: string, phase = 'http_request_firewall_custom', at: (t: string) => string = (t) => t) => {
    const text = `{"phase":"${phase}","rules":[{"action":"block","expression":"${at(expr)}"}]}`;
    const offset = text.indexOf('|');
    return rulesetPlugin.complete!(parseDocument(text.replace('|', '')), offset, DEFAULT_OPTIONS).map((c) => c.label);
  };
  // Every field and function offered in a phase checks clean there
  const phaseProblems = (phase: string, expr: string) => analyzeExpression(expr, phase).problems.filter((p) => p.code === 'ruleset/expr-phase');
  const request = labelsAt('http.host eq |');
  assert.ok(request.includes('http.referer'), request.join());
  assert.ok(!request.some((l) => l.startsWith('http.response.') || l.startsWith('raw.http.response.') || l.startsWith('cf.response.')), request.join());
  assert.ok(!request.includes('ip.src.timezone.name'), 'Transform Rules only');
  const start = labelsAt('|');
  assert.ok(start.includes('http.host') && !start.includes('http.response.code') && !start.includes('ip.src.timezone.name'), start.join());
  assert.ok(labelsAt('|', 'http_request_late_transform').includes('cf.appsec.request.failed_detections'));
  assert.ok(!labelsAt('|', 'http_request_dynamic_redirect').includes('cf.appsec.request.failed_detections'));
  // In a response phase they are offered
  const response = labelsAt('http.host eq |', 'http_response_headers_transform');
  assert.ok(response.includes('http.response.headers.names') || response.some((l) => l.startsWith('raw.http.response.')) || response.includes('cf.response.error_type'), response.join());
  assert.ok(labelsAt('|', 'http_response_headers_transform').includes('http.response.code'));
  for (const [phase, expr] of [['http_request_firewall_custom', 'http.host eq |'], ['http_request_firewall_custom', '|'], ['http_request_dynamic_redirect', 'cf.waf.score eq |']] as const) {
    const fields = labelsAt(expr, phase).filter((l) => l.includes('.'));
    assert.ok(fields.length > 10, `${phase} ${expr}`);
    for (const f of fields) {
      const probe = expr === '|' ? `${f} eq ${f}` : expr.replace('|', f);
      assert.deepEqual(phaseProblems(phase, probe), [], `${phase}: ${probe}`);
    }
  }
  // A rate limiting rule's counting expression sees the response (parameters.mdx): the response fields are offered there
  const counting = '{"phase":"http_ratelimit","rules":[{"action":"block","expression":"true","ratelimit":{"counting_expression":"http.host eq |"}}]}';
  const countLabels = rulesetPlugin.complete!(parseDocument(counting.replace('|', '')), counting.indexOf('|'), DEFAULT_OPTIONS).map((c) => c.label);
  assert.ok(countLabels.some((l) => l.startsWith('http.response.')), countLabels.join());
  const matchLabels = labelsAt('http.host eq |', 'http_ratelimit');
  assert.ok(!matchLabels.some((l) => l.startsWith('http.response.')), matchLabels.join());
});

test('hover on a "matches" regex or a wildcard pattern says how the platform reads it, and what this one does', () => {
  const body = JSON.stringify({ rules: [
    { action: 'block', expression: 'http.request.uri.path matches r"^/api/v[0-9]+/"' },
    { action: 'block', expression: 'http.host ~ "(?i)admin"' },
    { action: 'block', expression: 'http.request.uri.path wildcard "/admin/*"' },
    { action: 'block', expression: 'http.request.uri.path strict wildcard "/Admin/*"' },
    { action: 'block', expression: 'http.host eq "admin"' },
  ] }, null, 2);
  const d = parseDocument(body);
  const at = (needle: string) => rulesetPlugin.hover!(d, body.indexOf(needle) + 2, DEFAULT_OPTIONS);
  const re = at('r\\"^/api')!;
  assert.equal(body.substr(re.offset, re.length), 'r\\"^/api/v[0-9]+/\\"');
  assert.match(re.markdown, /^\*\*Rust regex\*\*/);
  assert.match(re.markdown, /anchored at the start \(`\^`\), not at the end: it matches a value that starts so/);
  assert.match(re.markdown, /case-sensitive/);
  assert.match(re.markdown, /no look-around/);
  const ci = at('\\"(?i)admin')!;
  assert.match(ci.markdown, /not anchored: it matches anywhere in the value/);
  assert.match(ci.markdown, /case-insensitive \(`\(\?i\)`\)/);
  const wc = at('\\"/admin/*')!;
  assert.match(wc.markdown, /^\*\*Wildcard\*\*/);
  assert.match(wc.markdown, /the whole value/);
  assert.match(wc.markdown, /case-insensitive/);
  const strict = at('\\"/Admin/*')!;
  assert.match(strict.markdown, /case-sensitive/);
  // a string compared with eq is a value: no pattern hover
  assert.equal(at('\\"admin\\"'), undefined);
});

// The walk of ui13: hovering "managed_challenge" showed only the "action" property's text, the same over every action, and
// completion offered the actions with a one-word detail and no documentation; in a custom rules phase execute and skip (the
// managed entry point's two) came first.
test('a rule action says what it does: in its hover, in its completion item; the phase\'s own actions come first', async () => {
  const { hover, complete } = await import('../../../server/src/core/assist');
  const text = '{"phase":"http_request_firewall_custom","rules":[{"action":"managed_challenge","expression":"true"}]}';
  const d = parseDocument(text);
  const h = hover('waf-ruleset', d, text.indexOf('"managed_challenge"') + 3)!;
  assert.match(h.markdown, /`"managed_challenge"`: Managed Challenge/);
  const items = complete('waf-ruleset', d, text.indexOf('"managed_challenge"') + 3);
  const block = items.find((c) => c.label === 'block')!;
  assert.match(block.documentation ?? '', /^Denies the request/);
  // Alphabetical in a custom rules phase: block first, execute among the others
  assert.equal(items[0].label, 'block');
  // The managed entry point (no phase) takes execute and skip only
  const managed = '{"rules":[{"action":"ex","expression":"true"}]}';
  const inManaged = complete('waf-ruleset', parseDocument(managed), managed.indexOf('"ex"') + 2);
  assert.deepEqual(inManaged.map((c) => c.label), ['execute', 'skip']);
  assert.ok(inManaged.every((c) => c.documentation), 'each action is documented');
});

test('the schema describes every rule action, the terminating ones as terminating', async () => {
  const { TERMINATING_ACTIONS } = await import('../../../server/src/core/rules/ruleset/catalog');
  const { SCHEMAS } = await import('../../../server/src/core/schema/registry');
  const action = (SCHEMAS['waf-ruleset'] as { $defs: { rule: { properties: { action: { enum: string[]; enumDescriptions?: string[] } } } } }).$defs.rule.properties.action;
  assert.equal(action.enumDescriptions?.length, action.enum.length);
  action.enum.forEach((a, i) => assert.equal(/[Tt]erminating/.test(action.enumDescriptions![i]), TERMINATING_ACTIONS.has(a), `${a}: ${action.enumDescriptions![i]}`));
});

// The walk of ui13: an empty *.ruleset.json offered one start, the managed entry point that executes the Cloudflare Managed
// Ruleset; a newcomer writing custom rules had to learn the phase's name elsewhere.
test('an empty ruleset offers a managed entry point and a custom rules ruleset, each valid as its placeholders stand', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const items = rulesetPlugin.complete!(parseDocument(''), 0, DEFAULT_OPTIONS);
  assert.deepEqual(items.map((c) => c.label), ['entry point ruleset', 'custom rules ruleset']);
  for (const c of items) {
    // A snippet's ${n:default} as its default, ${n|first,...|} as its first choice, $n as nothing; \\, \$ and \} unescaped
    const text = c.insertText!.replace(/\$\{\d+:((?:[^}\\]|\\.)*)\}/g, '$1').replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1').replace(/\$\d+/g, '')
      .replace(/\\([\\$}])/g, '$1');
    assert.deepEqual(validateText(text, 'waf-ruleset').map((p) => `${p.code} ${p.message}`), [], c.label);
  }
  assert.match(items[1].insertText!, /"phase": "http_request_firewall_custom"/);
});

// The walk of ui13: a new, empty my.ruleset.json was underlined "The document is empty; expected a JSON value." with no quick
// fix, where an empty request file says what it expects and offers one.
test('an empty ruleset says what it expects, with a fix that writes a first one (not preferred)', async () => {
  const { validateText } = await import('../../../server/src/core/validate');
  const [p] = validateText('\n', 'waf-ruleset');
  assert.equal(p.code, 'syntax/empty-document');
  assert.match(p.message, /^The document is empty; expected a ruleset \{"name": …, "rules": \[/);
  assert.equal(p.fixes?.length, 1);
  assert.equal(p.fixes![0].preferred, undefined);
  const text = p.fixes![0].edits[0].newText;
  assert.deepEqual(validateText(text, 'waf-ruleset'), []);
  assert.match(text, /"phase": "http_request_firewall_custom"/);
});

// The walk of ui13: hovering a phase value said only "Phase the ruleset runs in; managed WAF rules run in
// http_request_firewall_managed", whatever the phase; which product a phase belongs to was not said.
test('a phase value names its product, in the hover and the completion item; action documentation is markdown-escaped', async () => {
  const { hover, complete, plainToMarkdown } = await import('../../../server/src/core/assist');
  const { SCHEMAS } = await import('../../../server/src/core/schema/registry');
  const text = '{"phase":"http_request_firewall_custom","rules":[{"action":"log_custom_field","expression":"true"}]}';
  const d = parseDocument(text);
  assert.match(hover('waf-ruleset', d, text.indexOf('firewall_custom'))!.markdown, /`"http_request_firewall_custom"`: Custom rules of the WAF/);
  const phases = complete('waf-ruleset', d, text.indexOf('firewall_custom'));
  assert.match(phases.find((c) => c.label === '"http_ratelimit"')?.documentation ?? '', /Rate limiting rules/);
  const phase = (SCHEMAS['waf-ruleset'] as { properties: { phase: { enum: string[]; enumDescriptions?: string[] } } }).properties.phase;
  assert.equal(phase.enumDescriptions?.length, phase.enum.length);
  // The plugin's action items carry the schema's plain text as markdown, as the schema's own items do ("*_fields" is no emphasis)
  const logs = '{"phase":"http_log_custom_fields","rules":[{"action":"lo","expression":"true"}]}';
  const item = complete('waf-ruleset', parseDocument(logs), logs.indexOf('"lo"') + 2).find((c) => c.label === 'log_custom_field')!;
  const action = (SCHEMAS['waf-ruleset'] as { $defs: { rule: { properties: { action: { enum: string[]; enumDescriptions: string[] } } } } }).$defs.rule.properties.action;
  assert.equal(item.documentation, plainToMarkdown(action.enumDescriptions[action.enum.indexOf('log_custom_field')]));
  assert.match(item.documentation!, /\\\*\\_fields/);
});

// Review rv23, against the Rulesets actions reference, the phases list and the products' pages: block said "a 403 page" (rate
// limiting rules block with 429), execute "a managed ruleset" (a custom one too), js_challenge "JS Challenge" (the reference's
// Non-Interactive Challenge), log "the security events" (the reference: Cloudflare Logs), managed_challenge "often one the visitor
// does not have to solve" (no such claim there); the actions the reference does not list claimed "The next rules run", which no
// page says (ddos_dynamic's own page: a block or an undisclosed mitigation).
test('the action and phase descriptions say what the docs say, and no more', async () => {
  const { SCHEMAS } = await import('../../../server/src/core/schema/registry');
  type Enum = { enum: string[]; enumDescriptions: string[] };
  const schema = SCHEMAS['waf-ruleset'] as { properties: { phase: Enum }; $defs: { rule: { properties: { action: Enum } } } };
  const said = (e: Enum) => (v: string) => e.enumDescriptions[e.enum.indexOf(v)];
  const action = said(schema.$defs.rule.properties.action);
  assert.match(action('block'), /403.*429 (for|in) rate limiting rules/);
  assert.match(action('execute'), /managed or custom/);
  assert.match(action('js_challenge'), /^Non-Interactive Challenge/);
  assert.match(action('log'), /Cloudflare Logs/);
  assert.doesNotMatch(action('managed_challenge'), /often/);
  assert.match(action('ddos_dynamic'), /undisclosed/);
  for (const unlisted of ['ddos_dynamic', 'force_connection_close', 'score', 'set_cache_control', 'set_cache_tags', 'transform_response_html']) {
    assert.doesNotMatch(action(unlisted), /next rules|[Tt]erminating/, unlisted);
  }
  const phase = said(schema.properties.phase);
  assert.match(phase('http_request_late_transform'), /^Request Header Transform Rules/);
  assert.match(phase('http_response_cache_settings'), /^Cache Response Rules/);
  assert.match(phase('ddos_l7'), /configuration only/);
});
