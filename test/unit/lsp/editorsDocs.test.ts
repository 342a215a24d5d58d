// docs/editors.md's configuration blocks, machine-checked. Neovim's and Emacs's blocks are run as they are by neovim.test.ts and
// emacs.test.ts; Helix, Zed and Sublime Text are not packaged for this machine, so their blocks are parsed (TOML, JSON) and held to
// the keys each editor's documented format requires, and every block to the one command (`edgekit-language-server --stdio`), the
// server's own file patterns (imported from its kind detection) and the settings shape the server reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { kinds } from '../../../server/src/core';
import { EDITORS_MD, ROOT, editorBlock, editorBlocks } from './editors';

const PATTERNS = Object.values(kinds.patterns).flat();
const sorted = (xs: Iterable<string>) => [...xs].sort();
type Obj = Record<string, unknown>;
const obj = (x: unknown, what: string): Obj => {
  assert.ok(x !== null && typeof x === 'object' && !Array.isArray(x), `${what} is a table/object: ${JSON.stringify(x)}`);
  return x as Obj;
};

/** The server's settings as a client sends them, `{ edgekit: { maxProblems: n } }` (InitOptions.settings / the section itself). */
function assertSettings(settings: unknown, what: string): void {
  assert.equal(typeof obj(obj(settings, what).edgekit, `${what}.edgekit`).maxProblems, 'number', what);
}

test('docs/editors.md has a block per editor, each in a language this test checks', () => {
  const bySection = editorBlocks().map((b) => `${b.section.split(' ')[0]}:${b.lang}`);
  assert.deepEqual(bySection, ['Neovim:lua', 'Neovim:lua', 'Neovim:lua', 'Helix:toml', 'Emacs:elisp', 'Emacs:elisp', 'Zed:json', 'Sublime:json']);
});

test('every block starts the server as `edgekit-language-server --stdio`, and nothing else', () => {
  for (const b of editorBlocks()) {
    const named = b.text.match(/['"]edgekit-language-server['"]/g) ?? [];
    assert.ok(named.length > 0, `${b.section} (${b.lang}) names the server`);
    assert.equal((b.text.match(/edgekit-language-server/g) ?? []).length, named.length, `${b.section}: the name alone, quoted`);
    assert.equal((b.text.match(/['"]--stdio['"]/g) ?? []).length, named.length, `${b.section}: --stdio with each`);
    // Where the command is one list (Lua's cmd, eglot's contact, Sublime's command), --stdio follows the name in it.
    if (b.lang !== 'toml' && !b.section.startsWith('Zed')) {
      for (const n of b.text.match(/edgekit-language-server['"][\s,]*['"]?[-\w]*/g)!) assert.match(n, /^edgekit-language-server['"][\s,]*['"]--stdio$/, `${b.section}: ${n}`);
    }
    assert.doesNotMatch(b.text, /\bnode\b|dist\/server\.js|server\.js/, `${b.section} runs the installed command, not a path`);
  }
});

test('the file patterns the docs list are the server\'s own (kind detection)', () => {
  const md = fs.readFileSync(EDITORS_MD, 'utf8');
  // The prose: the "document kind" bullet.
  const bullet = /\*\*The document kind\*\*[\s\S]*?(?=\n- \*\*)/.exec(md)![0];
  assert.deepEqual(sorted(new Set(bullet.match(/\*\.[\w.]+\.json/g))), sorted(PATTERNS));
  // Neovim 0.7: the autocmd's patterns.
  const lua = editorBlock('Neovim', 'lua', 0);
  assert.deepEqual(sorted(/local edgekit = \{([^}]*)\}/.exec(lua)![1].match(/\*[^']+/g)!), sorted(PATTERNS));
  // Emacs: the auto-mode-alist regexp, read as Emacs reads it (the string's escapes, then \( \| \) and \' as an end anchor). The
  // Emacs test checks the same in Emacs itself.
  const elisp = editorBlock('Emacs (eglot)', 'elisp');
  const literal = /'\("((?:[^"\\]|\\.)*)" \. edgekit-json-mode\)/.exec(elisp)![1].replace(/\\\\/g, '\\');
  const re = new RegExp(literal.replace(/\\([(|)])/g, '$1').replace(/\\'$/, '$'));
  for (const p of PATTERNS) assert.match(`dir/x${p.slice(1)}`, re, p);
  for (const other of ['x.json', 'package.json', 'x.filter.json.bak', 'x.filterjson']) assert.doesNotMatch(other, re, other);
});

test('Helix: languages.toml has [language-server.edgekit] command/args and a [[language]] json that lists it', () => {
  const toml = parseToml(editorBlock('Helix', 'toml'));
  const server = obj(obj(toml['language-server'], 'language-server').edgekit, 'language-server.edgekit');
  assert.equal(server.command, 'edgekit-language-server');
  assert.deepEqual(server.args, ['--stdio']);
  // Helix sends `config` as initializationOptions: the server reads the "edgekit" section at its top (InitOptions.edgekit).
  assertSettings(server.config, 'language-server.edgekit.config');
  const languages = toml.language as Obj[];
  assert.ok(Array.isArray(languages), '[[language]] is an array of tables');
  const json = languages.find((l) => l.name === 'json');
  assert.ok(json, '[[language]] name = "json"');
  assert.ok(Array.isArray(json['language-servers']) && json['language-servers'].includes('edgekit'), JSON.stringify(json));
});

test('Zed: settings.json has lsp.edgekit.binary.path/arguments and languages.JSON.language_servers', () => {
  const zed = obj(JSON.parse(editorBlock('Zed', 'json')), 'settings.json');
  const server = obj(obj(zed.lsp, 'lsp').edgekit, 'lsp.edgekit');
  const binary = obj(server.binary, 'lsp.edgekit.binary');
  assert.equal(binary.path, 'edgekit-language-server');
  assert.deepEqual(binary.arguments, ['--stdio']);
  assertSettings(obj(server.initialization_options, 'initialization_options').settings, 'initialization_options.settings');
  const servers = obj(obj(zed.languages, 'languages').JSON, 'languages.JSON').language_servers;
  assert.ok(Array.isArray(servers) && servers.includes('edgekit'), JSON.stringify(servers));
});

test('Sublime LSP: LSP.sublime-settings has clients.edgekit command/selector/enabled', () => {
  const sublime = obj(JSON.parse(editorBlock('Sublime', 'json')), 'LSP.sublime-settings');
  const client = obj(obj(sublime.clients, 'clients').edgekit, 'clients.edgekit');
  assert.equal(client.enabled, true);
  assert.deepEqual(client.command, ['edgekit-language-server', '--stdio']);
  assert.equal(typeof client.selector, 'string');
  assert.match(client.selector as string, /\bsource\.json\b/);
  assertSettings(obj(client.initializationOptions, 'initializationOptions').settings, 'initializationOptions.settings');
});

test('Neovim\'s and Emacs\'s blocks are the ones their editor tests run (the drivers carry no configuration of their own)', () => {
  const drive = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8').split('\n').filter((l) => !/^\s*(--|;)/.test(l)).join('\n');
  assert.doesNotMatch(drive('test/nvim/drive.lua'), /start_client|buf_attach_client/);
  assert.doesNotMatch(drive('test/emacs/drive.el'), /eglot-server-programs|add-to-list 'auto-mode-alist|define-derived-mode/);
  assert.doesNotMatch(drive('test/emacs/lspMode.el'), /lsp-register-client|lsp-semantic-tokens-enable|add-to-list 'auto-mode-alist|define-derived-mode/);
  // Neovim's test reads its block itself; the Emacs tests name theirs to runEmacs (test/system/lsp/emacsRun.ts), which reads it.
  assert.match(fs.readFileSync(path.join(ROOT, 'test/system/lsp/neovim.test.ts'), 'utf8'), /editorBlock\('Neovim'/);
  assert.match(fs.readFileSync(path.join(ROOT, 'test/system/lsp/emacsRun.ts'), 'utf8'), /editorBlock\(block, 'elisp'\)/);
  assert.match(fs.readFileSync(path.join(ROOT, 'test/system/lsp/emacs.test.ts'), 'utf8'), /runEmacs\('drive\.el', 'Emacs \(eglot\)'/);
  assert.match(fs.readFileSync(path.join(ROOT, 'test/system/lsp/emacsLspMode.test.ts'), 'utf8'), /runEmacs\('lspMode\.el', 'Emacs \(lsp-mode\)'/);
  // The lspconfig-style block's settings go where the server reads them (initializationOptions.settings).
  assert.match(editorBlock('Neovim', 'lua', 2), /init_options = \{ settings = \{ edgekit = \{ maxProblems = \d+ \} \} \}/);
  assert.match(editorBlock('Emacs (eglot)', 'elisp'), /eglot-workspace-configuration '\(:edgekit \(:maxProblems \d+\)\)/);
  assert.match(editorBlock('Emacs (lsp-mode)', 'elisp'), /:initialization-options '\(:settings \(:edgekit \(:maxProblems \d+\)\)\)/);
  // The two Emacs blocks give the same files the same mode (a user moving from one client to the other keeps it).
  const mode = (b: string) => /\(add-to-list 'auto-mode-alist[\s\S]*?edgekit-json-mode\)\)/.exec(b)?.[0];
  assert.ok(mode(editorBlock('Emacs (eglot)', 'elisp')));
  assert.equal(mode(editorBlock('Emacs (lsp-mode)', 'elisp')), mode(editorBlock('Emacs (eglot)', 'elisp')));
});

test('the lspconfig-style block uses no deprecated lspconfig helper and starts for a file outside any repository', () => {
  const block = editorBlock('Neovim', 'lua', 2);
  // util.find_git_ancestor is deprecated (neovim/nvim-lspconfig#3507, Dec 2024: "use vim.fs.find('.git', ...) instead"); a root_dir
  // that finds no root leaves the server unstarted unless single_file_support is set, so a lone *.filter.json got nothing.
  assert.doesNotMatch(block, /find_git_ancestor/);
  assert.match(block, /single_file_support = true/);
});
