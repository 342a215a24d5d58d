// The migration command's review step (client/src/commands/migration.ts) with the stand-in `vscode` module: what it accepts as the
// configuration to deploy.
import './vscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewedConfig } from '../../../client/src/commands/migration';

const EXECUTE = { action: 'execute', expression: 'true', enabled: false, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } };
const SKIP = { action: 'skip', expression: '(ip.src in {203.0.113.0/24})', enabled: true, action_parameters: { ruleset: 'current' } };

test('a reviewed configuration that executes no managed ruleset is not deployed, and the review says why', () => {
  // Every update the flow sends is a migration step (validation or pending); with nothing to execute it would turn the previous
  // managed rules off for good (pending) or validate nothing (the mock refuses both with 10508).
  for (const rules of [[], [SKIP]]) {
    const r = reviewedConfig(JSON.stringify({ name: 'default', rules }));
    assert.equal(typeof r, 'string', JSON.stringify(rules));
    assert.match(r as string, /^its "rules" execute no managed ruleset/);
    assert.match(r as string, /previous managed rules/);
  }
  // Disabled execute rules are what the config operation gives a zone whose WAF was off: accepted.
  assert.deepEqual(reviewedConfig(JSON.stringify({ name: 'default', rules: [SKIP, EXECUTE] })), { name: 'default', rules: [SKIP, EXECUTE] });
});

test('a reviewed text that is not a configuration names what is wrong', () => {
  assert.match(reviewedConfig('{') as string, /^it is not valid JSON/);
  assert.equal(reviewedConfig('[]'), 'it must be a JSON object with "name" and "rules"');
  assert.equal(reviewedConfig('{"rules": []}'), 'its "name" must be a string');
  assert.equal(reviewedConfig('{"name": "default", "rules": {}}'), 'its "rules" must be an array');
});
