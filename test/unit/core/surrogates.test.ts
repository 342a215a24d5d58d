// Messages that quote a user's text never hold half of a surrogate pair: an emoji in a value cut at a message's limit, or an escape
// JSON does not have written before one ("\😀", which jsonc-parser read as the escape of its high surrogate alone, leaving the low
// one in the value). Either showed up as "\ud83d" or "\ude00" in the message (tidyMessage writes a lone surrogate so).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, headOf, type DocKind } from '../../../server/src/core';

const E = '😀';
/** A lone surrogate, or one written as an escape by tidyMessage/printable. */
const HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\\ud[89a-f][0-9a-f]{2}/i;

test('headOf cuts at n code units, one less when the cut would split a surrogate pair', () => {
  for (let n = 0; n <= 12; n++) {
    for (const s of ['abc' + E.repeat(4), E.repeat(6), 'a' + E + 'b' + E, '\ud83d' + 'abcdefghijk', 'abcdefghij\ude00x']) {
      const h = headOf(s, n);
      assert.ok(s.startsWith(h), `${n}: a prefix`);
      assert.ok(h.length === Math.min(n, s.length) || (h.length === n - 1 && s.charCodeAt(n - 1) >= 0xd800 && s.charCodeAt(n - 1) <= 0xdbff), `${n}: ${h.length}`);
      if (h.length < s.length) assert.ok(!(/[\ud800-\udbff]$/.test(h) && /^[\udc00-\udfff]/.test(s.slice(h.length))), `${n}: a pair split`);
    }
  }
  assert.equal(headOf('\ud83dabc', 1), '\ud83d', 'a lone high surrogate is no pair: cut as it is');
});

test('no message quotes half of an emoji: an escaped emoji, or an emoji at a quoting limit', () => {
  const ls = getLanguageService();
  const cases: [DocKind, string][] = [];
  const ruleset = (expression: string, action = 'block') => JSON.stringify({ name: 'r', kind: 'zone', phase: 'http_request_firewall_custom', rules: [{ action, expression }] });
  for (const v of ['\\' + E, 'x\\' + E + 'y']) {
    cases.push(['logpush-filter', `{"where": {"key": "ClientCountry", "operator": "eq", "value": "${v}"}}`]);
    cases.push(['logpush-filter', `{"where": {"key": "${v}", "operator": "eq", "value": "x"}}`]);
    cases.push(['logpush-filter', `{"where": {"key": "ClientCountry", "operator": "${v}", "value": "x"}}`]);
    cases.push(['logpush-job', `{"destination_conf": "gs://b", "logpull_options": "fields=ClientIP${v}&timestamps=x"}`]);
    cases.push(['logpush-job', `{"destination_conf": "gs://b", "filter": "{\\"where\\": {\\"key\\": \\"${v.replace(/\\/g, '\\\\')}\\", \\"operator\\": \\"eq\\", \\"value\\": \\"x\\"}}"}`]);
    cases.push(['jsonrpc-request', `{"jsonrpc": "2.0", "method": "${v}", "params": [], "id": 1}`]);
    cases.push(['waf-ruleset', ruleset(`http.host eq "${v}"`)]);
  }
  for (let k = 0; k < 80; k++) {
    const v = 'a'.repeat(k) + E.repeat(50);
    cases.push(['logpush-filter', `{"where": {"key": "ClientCountry", "operator": "${v}", "value": "x"}}`]);
    cases.push(['logpush-filter', `{"where": {"key": "EdgeResponseStatus", "operator": "eq", "value": "${v}"}}`]);
    cases.push(['logpush-filter', `{"where": {"key": "ClientCountry", "operator": "eq", "value": "x"}} "${v}"`]);
    cases.push(['logpush-job', JSON.stringify({ destination_conf: 'gs://b', output_options: { record_template: `{{ ${v} }}` } })]);
    cases.push(['jsonrpc-request', JSON.stringify({ jsonrpc: '2.0', method: 'eth_getBalance', params: [v, 'latest'], id: 1 })]);
    cases.push(['waf-ruleset', ruleset(`http.host eq ${v}`)]);
    cases.push(['waf-ruleset', ruleset(`http.host matches "\\b{${v}"`)]);
    cases.push(['waf-ruleset', ruleset('true', v)]);
  }
  const halves: string[] = [];
  for (const [kind, text] of cases) {
    for (const p of ls.validate(text, kind)) {
      for (const m of [p.message, ...(p.related ?? []).map((r) => r.message), ...(p.fixes ?? []).map((f) => f.title)]) {
        if (HALF.test(m) && halves.length < 10) halves.push(`${kind} ${p.code}: ${m.slice(0, 200)}`);
      }
    }
  }
  assert.deepEqual(halves, []);
});
