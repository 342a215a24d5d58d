// A real third editor: Emacs (Debian's emacs-nox, 28) in batch mode with eglot (Debian's elpa-eglot), configured by the ```elisp
// block of docs/editors.md as it is, over the bundled server: diagnostics on all four kinds through flymake, completion through
// completion-at-point, hover, and a quick fix applied (test/emacs/drive.el does the editing and prints JSON lines).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { kinds } from '../../../server/src/core';
import { FILES } from '../../unit/lsp/editors';
import { runEmacs, type Event } from './emacsRun';

function emacsVersion(): string | undefined {
  try { return execFileSync('emacs', ['--version'], { encoding: 'utf8' }).split('\n')[0]; } catch { return undefined; }
}


const version = emacsVersion();
const PATTERN_NAMES = Object.values(kinds.patterns).flat().map((p) => p.replace('*', 'x'));

test(`Emacs's eglot on the four kinds, configured as docs/editors.md says (${version ?? 'emacs not installed'})`, { skip: version ? false : 'emacs is not installed (npm test\'s setup:host installs Debian\'s emacs-nox and elpa-eglot)', timeout: 90_000 }, async () => {
  const { code, stdout, stderr, all } = await runEmacs('drive.el', 'Emacs (eglot)', FILES, { EDGEKIT_NAMES: PATTERN_NAMES.join(',') });
  const one = (name: string) => { const e = all(name); assert.equal(e.length, 1, `one "${name}" line in:\n${stdout}\n${stderr}`); return e[0]; };
  assert.deepEqual(all('error'), [], stderr);
  assert.equal(code, 0, `emacs exited with ${code}: ${stderr}`);
  one('done');

  // The docs' auto-mode-alist entry claims exactly the server's own patterns, and leaves other JSON files to Emacs's mode.
  const v = one('versions');
  assert.match(String(v.emacs), /^\d+\.\d+/);
  assert.match(String(v.eglot), /eglot/);
  assert.deepEqual(v.modes, PATTERN_NAMES.map(() => 'edgekit-json-mode'), `${PATTERN_NAMES.join(', ')}`);
  assert.notEqual(v.plainJsonMode, 'edgekit-json-mode');

  const diags = Object.fromEntries(all('diagnostics').map((e) => [e.file as string, e as Event & { codes: string[]; messages: string[]; languageId: string; mode: string }]));
  assert.deepEqual(Object.keys(diags).sort(), Object.keys(FILES).sort());
  for (const d of Object.values(diags)) { assert.equal(d.mode, 'edgekit-json-mode'); assert.equal(d.languageId, 'json'); }
  assert.deepEqual(diags['bad.filter.json'].codes, ['logpush/unknown-field']);
  assert.match(diags['bad.filter.json'].messages[0], /Unknown field "ClientCountyr"; did you mean "ClientCountry"/);
  assert.deepEqual(diags['bad.logpush.json'].codes, ['logpush/invalid-job-name']);
  assert.deepEqual(diags['bad.rpc.json'].codes, ['jsonrpc/unsupported-method']);
  assert.match(diags['bad.rpc.json'].messages[0], /eth_accounts/);
  assert.deepEqual(diags['bad.ruleset.json'].codes, ['ruleset/expr-unknown-field']);
  assert.match(diags['bad.ruleset.json'].messages[0], /"http\.hots"; did you mean "http\.host"/);

  // Completion right after the opening quote, and after typing "Client: the log fields, eglot's own filtering applied.
  const [atQuote, afterClient] = all('completion') as (Event & { typed: string; labels: string[] })[];
  assert.equal(atQuote.typed, '');
  assert.ok(atQuote.labels.includes('ClientCountry') && atQuote.labels.includes('BotScore'), JSON.stringify(atQuote.labels));
  assert.equal(afterClient.typed, 'Client');
  assert.ok(afterClient.labels.includes('ClientCountry'), JSON.stringify(afterClient.labels));
  assert.ok(afterClient.labels.every((l) => l.startsWith('Client')), JSON.stringify(afterClient.labels));

  assert.match(String(one('hover').text), /Field[\s\S]*Name of a log field/);

  const fix = one('quickfix');
  assert.deepEqual(fix.titles, ['Change to "ClientCountry"', 'Change to "ClientCity"']);
  assert.equal(fix.applied, 'Change to "ClientCountry"');
  assert.equal(fix.text, FILES['bad.filter.json'].replace('ClientCountyr', 'ClientCountry'), 'the quick fix was applied to the buffer');
  assert.equal(one('afterFix').diagnostics, 0, 'the server re-checked the edited buffer and cleared its diagnostic');
});
