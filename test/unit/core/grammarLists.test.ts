// The TextMate grammars (syntaxes/) spell out names that the catalogues own: rule actions and rules-language functions and
// operators, Logpush filter operators and job members, the gateway's supported and unsupported methods. A name the grammar lacks
// is painted as plain text (sha256(...) or "transform_response_html" looked unlike their neighbours), one it has too many is
// painted as if valid. Each alternation is compared with the list the checker uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FUNCTION_NAMES, RULE_ACTIONS } from '../../../server/src/core/rules/ruleset/catalog';
import { KEYWORDS } from '../../../server/src/core/rules/ruleset/exprParser';
import { OPERATOR_NAMES } from '../../../server/src/core/rules/logpush/catalogue';
import { SUPPORTED_METHODS, UNSUPPORTED_METHODS } from '../../../server/src/core/rules/jsonrpc/catalogue';

const root = path.resolve(__dirname, '../../..');
const json = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const grammar = (kind: string) => json(`syntaxes/${kind}.tmLanguage.json`).repository;
const sorted = (xs: Iterable<string>) => [...xs].sort();

/** The names of the first group "(a|b|c)" of a match (the first one that is an alternation of plain names). */
function alternation(match: string): string[] {
  for (const m of match.matchAll(/\((?!\?)([^()]*\|[^()]*)\)/g)) {
    const names = m[1].split('|');
    if (names.every((n) => /^[!\w-]+$/.test(n))) return names;
  }
  throw new Error(`no alternation of names in ${match}`);
}

test('waf-ruleset grammar: rule actions and functions are the catalogue\'s, operator words the parser\'s', () => {
  const g = grammar('waf-ruleset');
  assert.deepEqual(sorted(alternation(g['action-pair'].patterns[0].match)), sorted(RULE_ACTIONS));
  assert.deepEqual(sorted(alternation(g['expr-function'].match)), sorted(FUNCTION_NAMES));
  const words = [g['expr-operator'].patterns[0].match, g['expr-operator'].patterns[1].match].flatMap((m: string) => /\(\?:([\w|]+)\)\\b/.exec(m)![1].split('|'));
  assert.deepEqual(sorted(words), sorted([...KEYWORDS].filter((k) => k !== 'true' && k !== 'false')));
});

test('Logpush grammars: the filter operators are the catalogue\'s, the job members the schema\'s', () => {
  assert.deepEqual(sorted(alternation(grammar('logpush-filter')['operator-pair'].patterns[0].match)), sorted(OPERATOR_NAMES));
  const job = grammar('logpush-job');
  assert.deepEqual(sorted(alternation(job['filter-string'].patterns[1].match.replace(/^.*?:\\s\*/, ''))), sorted(OPERATOR_NAMES));
  const schema = json('schemas/logpush-job.schema.json');
  const members = [...Object.keys(schema.properties), ...Object.keys(schema.properties.output_options.properties)].filter((k) => k !== '$schema' && k !== 'output_options');
  const painted = alternation(job['job-key'].match);
  assert.deepEqual(sorted(painted.filter((k) => k !== 'output_options')), sorted(members));
});

test('jsonrpc grammar: supported and unsupported methods are the catalogue\'s', () => {
  const g = grammar('jsonrpc-request');
  assert.deepEqual(sorted(alternation(g['method-pair'].patterns[0].match)), sorted(SUPPORTED_METHODS));
  assert.deepEqual(sorted(alternation(g['method-pair'].patterns[1].match)), sorted(UNSUPPORTED_METHODS));
});
