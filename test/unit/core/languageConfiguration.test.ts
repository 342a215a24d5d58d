// language-configuration.json, shared by the four languages (package.json contributes.languages): what VS Code does on
// "Toggle Line Comment" and "Toggle Block Comment".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText } from '../../../server/src/core/validate';

const root = path.resolve(__dirname, '../../..');
const config = JSON.parse(fs.readFileSync(path.join(root, 'language-configuration.json'), 'utf8'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

test('every language uses this configuration, which declares no comment tokens: the checker refuses comments', () => {
  // "Toggle Line Comment" inserts the declared token; the document would then fail with syntax/comment.
  for (const l of pkg.contributes.languages) assert.equal(l.configuration, './language-configuration.json', l.id);
  assert.equal(config.comments, undefined);
  assert.deepEqual(validateText('{"name": "x", "rules": [] // c\n}', 'waf-ruleset').map((p) => p.code), ['syntax/comment']);
});


test('completion pops up while typing inside strings, where nearly everything in these languages is typed', () => {
  // editor.quickSuggestions defaults to strings: "off", and the grammars scope keys, values, expressions and filter strings as
  // strings, so typing "ht" in an expression or "eth_" in a method value showed no completion until a trigger character. VS Code's
  // JSON extension (json-language-features package.json, configurationDefaults) turns strings on for [json] and [jsonc].
  const defaults = pkg.contributes.configurationDefaults ?? {};
  for (const l of pkg.contributes.languages) {
    assert.equal(defaults[`[${l.id}]`]?.['editor.quickSuggestions']?.strings, 'on', l.id);
  }
});

test('no word-based suggestions: in a value EdgeKit completes nothing for (a job\'s name), the document\'s own words are noise', () => {
  // Seen in the workbench (ui14): typing "gw-dns" as a new job's name, VS Code offered the document's words ("dataset",
  // "destination_conf", "DATE"), which it shows when no provider has an item, and Tab, meant for the starter's next placeholder,
  // accepted one: the name became "gw-destination_conf". Dart-Code and Pylance turn them off for their languages the same way.
  const defaults = pkg.contributes.configurationDefaults ?? {};
  for (const l of pkg.contributes.languages) {
    assert.equal(defaults[`[${l.id}]`]?.['editor.wordBasedSuggestions'], 'off', l.id);
  }
});
