// A real second editor: Neovim (Debian's package, 0.7) headless, its built-in LSP client over the bundled server, with "json" as
// the filetype: diagnostics on all four kinds, completion, hover, a quick fix applied and the selection ranges inside an expression (test/nvim/drive.lua does the editing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { serverJs } from '../../unit/reliability/soak';
import { FILES, ROOT, editorBlock, serverOnPath } from '../../unit/lsp/editors';

function nvimVersion(): string | undefined {
  try { return execFileSync('nvim', ['--version'], { encoding: 'utf8' }).split('\n')[0]; } catch { return undefined; }
}


const version = nvimVersion();

test(`Neovim's LSP client on the four kinds with "json" as filetype (${version ?? 'nvim not installed'})`, { skip: version ? false : 'nvim is not installed (.ci/run installs Debian\'s neovim)', timeout: 90_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-nvim-'));
  const out = path.join(dir, 'results.json');
  for (const [name, text] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), text);
  // A misspelt key after "日本" on its line: Neovim 0.7 sends the diagnostic back with byte columns (rv27)
  fs.writeFileSync(path.join(dir, 'utf8.filter.json'), `{"where": {"and": [{"key": "ClientRequestHost", "operator": "eq", "value": "日本.example"}, {"key": "ClientCountyr", "operator": "eq", "value": "jp"}]}}\n`);
  // The Neovim 0.7 block of docs/editors.md, as a user copies it into init.lua.
  const config = path.join(dir, 'init.lua');
  fs.writeFileSync(config, editorBlock('Neovim', 'lua', 0));
  const bin = serverOnPath(dir, serverJs());
  try {
    const child = spawn('nvim', ['--headless', '--clean', '-c', `luafile ${path.join(ROOT, 'test/nvim/drive.lua')}`], {
      cwd: dir,
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, EDGEKIT_CONFIG: config, EDGEKIT_OUT: out, EDGEKIT_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0, `nvim exited with ${code}: ${stderr}`);
    const r = JSON.parse(fs.readFileSync(out, 'utf8')) as { filetypes: Record<string, string>; diagnostics: Record<string, string[]>; errors: string[]; completionItems: number; hover?: string; fixTitle?: string; textAfterFix: string; clients: number; selection: string[]; utf8FixTitles: string[] };
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.filetypes, Object.fromEntries([...Object.keys(FILES), 'utf8.filter.json'].map((n) => [n, 'json'])), 'Neovim opened them as json');
    assert.deepEqual(r.diagnostics['bad.filter.json'], ['logpush/unknown-field']);
    assert.ok(r.diagnostics['bad.logpush.json'].includes('logpush/invalid-job-name'), JSON.stringify(r.diagnostics));
    assert.ok(r.diagnostics['bad.rpc.json'].some((c) => c.startsWith('jsonrpc/')), JSON.stringify(r.diagnostics));
    assert.ok(r.diagnostics['bad.ruleset.json'].includes('ruleset/expr-unknown-field'), JSON.stringify(r.diagnostics));
    assert.ok(r.completionItems > 0, 'completion answered');
    assert.match(String(r.hover), /ClientCountyr|field|Unknown/i);
    assert.match(String(r.fixTitle), /ClientCountry/);
    assert.match(r.textAfterFix, /"key": "ClientCountry"/, 'the quick fix was applied to the buffer');
    assert.deepEqual(r.selection, ['http.hots', 'http.hots eq \\"x\\"', '"http.hots eq \\"x\\""'], 'Expand Selection inside the expression');
    assert.ok(r.utf8FixTitles.includes('Change to "ClientCountry"'), `the fixes of a diagnostic after letters outside ASCII: ${JSON.stringify(r.utf8FixTitles)}`);
    assert.equal(r.clients, 1, 'one server for the four documents, not one per file opened');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
