// A list in an expression ($name): cloudflare/cloudflare-docs, the Rules language's lists section: "Note that names for Rules Lists can
// only include lowercase letters, numbers, and the underscore (`_`) character", and managed lists are written $cf.<name>
// ("(ip.src in $cf.open_proxies)"). But the Lists API's JSON object page (waf/tools/lists/lists-api/json-object.mdx) gives the name
// as "Only alphanumeric and underscore (_) characters are valid ... ^[a-zA-Z0-9_]+$", maximum length 50: a list created through the
// API may have capitals, so they are a warning (ruleset/expr-list-name-case); other characters and over 50 are errors on both pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeExpression } from '../../../server/src/core/rules/ruleset/expression';

const problems = (src: string) => analyzeExpression(src).problems.map((p) => [p.code, src.slice(p.offset, p.offset + p.length)]);

test('list names: lowercase letters, digits and "_", or a managed list $cf.<name>', () => {
  for (const ok of ['ip.src in $office_network', 'ip.src in $list2', 'ip.src in $cf.open_proxies', 'ip.src in $cf.malware', 'http.host in $hosts'])
    assert.deepEqual(problems(ok), [], ok);
  assert.deepEqual(problems('ip.src in $Office'), [['ruleset/expr-list-name-case', '$Office']]);
  assert.deepEqual(problems('ip.src in $Office_Net2'), [['ruleset/expr-list-name-case', '$Office_Net2']]);
  assert.deepEqual(problems(`ip.src in $${'a'.repeat(50)}`), []);
  assert.deepEqual(problems(`ip.src in $${'a'.repeat(51)}`), [['ruleset/expr-list-name', `$${'a'.repeat(51)}`]]);
  assert.deepEqual(problems('ip.src in $office.net'), [['ruleset/expr-list-name', '$office.net']]);
  assert.deepEqual(problems('ip.src in $cf.Open_Proxies'), [['ruleset/expr-list-name', '$cf.Open_Proxies']]);
  const p = analyzeExpression('ip.src in $Office').problems[0];
  assert.match(p.message, /"\$Office" has capitals/);
  assert.deepEqual(p.fixes?.map((f) => [f.title, f.edits.map((e) => e.newText)]), [['Change to $office', ['$office']]]);
  assert.equal(p.fixes?.[0].preferred, false, 'a list created through the API may be named so: no automatic fix');
  assert.equal(analyzeExpression('ip.src in $CF.open_proxies').problems[0].fixes?.[0].preferred, true, 'no list can be named so');
  assert.equal(analyzeExpression('ip.src in $office.net').problems[0].fixes, undefined, 'no name to offer');
});
