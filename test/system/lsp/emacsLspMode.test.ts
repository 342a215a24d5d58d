// A second editor that colours by semantic tokens: Emacs 28 in batch mode with lsp-mode (Debian's elpa-lsp-mode, 8.0.0), set up
// by the ```elisp block under "## Emacs (lsp-mode)" of docs/editors.md as it is, over the bundled server: lsp-mode asks for
// semantic tokens on a ruleset and a job, and its own faces land on the expression's and the filter string's tokens, through the
// JSON escapes (test/emacs/lspMode.el fontifies the buffers and prints the coloured runs as JSON lines).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { runEmacs, type Event } from './emacsRun';

/** Emacs's version, and whether lsp-mode loads in it (found the way test/emacs/lspMode.el loads it). */
function lspModeEmacs(): string | undefined {
  try {
    return execFileSync('emacs', ['--batch', '-Q', '--eval',
      '(progn (add-to-list \'package-directory-list "/usr/share/emacs/site-lisp/elpa") (package-initialize) (require \'lsp-mode) (princ emacs-version))'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch { return undefined; }
}

type Runs = [text: string, face: string][];

const FILES: Record<string, string> = {
  'semantic.ruleset.json': `${JSON.stringify({
    name: 'zone', kind: 'zone', phase: 'http_request_firewall_custom',
    rules: [{ action: 'block', expression: 'http.request.uri.query contains "a\\"b" and lower(http.host) eq "x"\nor ip.src in $office_ips or http.request.uri.path matches "^/wp-" and cf.waf.score lt 20' }],
  }, null, 2)}\n`,
  'semantic.logpush.json': `${JSON.stringify({
    name: 'job', dataset: 'http_requests', destination_conf: 's3://bucket/logs?region=us-east-1',
    filter: JSON.stringify({ where: { and: [{ key: 'ClientCountry', operator: 'eq', value: 'ca' }, { key: 'EdgeResponseStatus', operator: 'geq', value: 500 }] } }),
  }, null, 2)}\n`,
};

const version = lspModeEmacs();

test(`Emacs lsp-mode colours a ruleset's expression and a job's filter by semantic tokens, set up as docs/editors.md says (${version ? `Emacs ${version}` : 'emacs or lsp-mode not installed'})`, { skip: version ? false : 'emacs or lsp-mode is not installed (npm test\'s setup:host installs Debian\'s emacs-nox and elpa-lsp-mode)', timeout: 90_000 }, async () => {
  const { code, stdout, stderr, all } = await runEmacs('lspMode.el', 'Emacs (lsp-mode)', FILES, { EDGEKIT_FILES: Object.keys(FILES).join(',') });
  assert.deepEqual(all('error'), [], `${stdout}\n${stderr}`);
  assert.equal(code, 0, `emacs exited with ${code}: ${stderr}`);
  assert.equal(all('done').length, 1, stdout);
  assert.match(String(all('versions')[0]?.lspMode), /lsp-mode/);

  const tokens = Object.fromEntries(all('tokens').map((e) => [e.file as string, e as Event & { runs: Runs; mode: string; server: string }]));
  assert.deepEqual(Object.keys(tokens).sort(), Object.keys(FILES).sort());
  for (const t of Object.values(tokens)) { assert.equal(t.mode, 'edgekit-json-mode'); assert.equal(t.server, 'edgekit'); }
  const face = (t: string) => `lsp-face-semhl-${t}`;

  // The expression, word by word, at its place in the document: the rules-language string with its \" escapes is one token.
  assert.deepEqual(tokens['semantic.ruleset.json'].runs, [
    ['http.request.uri.query', face('variable')], ['contains', face('operator')], ['\\"a\\\\\\"b\\"', face('string')], ['and', face('keyword')],
    ['lower', face('function')], ['http.host', face('variable')], ['eq', face('operator')], ['\\"x\\"', face('string')],
    ['or', face('keyword')], ['ip.src', face('variable')], ['in', face('operator')], ['$office_ips', face('variable')],
    ['or', face('keyword')], ['http.request.uri.path', face('variable')], ['matches', face('operator')], ['\\"^/wp-\\"', face('regexp')],
    ['and', face('keyword')], ['cf.waf.score', face('variable')], ['lt', face('operator')], ['20', face('number')],
  ]);
  // The job: nothing but the filter string's words (the job's own JSON keeps Emacs's colours).
  assert.deepEqual(tokens['semantic.logpush.json'].runs, [
    ['where', face('keyword')], ['and', face('keyword')],
    ['key', face('property')], ['ClientCountry', face('variable')], ['operator', face('property')], ['eq', face('operator')], ['value', face('property')],
    ['key', face('property')], ['EdgeResponseStatus', face('variable')], ['operator', face('property')], ['geq', face('operator')], ['value', face('property')],
  ]);
});
