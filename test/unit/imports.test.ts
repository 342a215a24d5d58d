// The import rules of docs/architecture.md and STYLE §2, checked on every source file (a test instead of an ESLint plugin: the
// rules are few, and this keeps the dev dependencies to what the build needs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT as root, sources } from './support/sources';

interface Import { file: string; spec: string; typeOnly: boolean; line: number }

/** Every module a file imports or re-exports (static, dynamic, require), with whether it is `import type` only. */
export function importsOf(file: string, text: string): Import[] {
  const out: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[3] ?? m[4] ?? m[5];
    const line = text.slice(0, m.index).split('\n').length;
    out.push({ file, spec, typeOnly: !!m[2], line });
  }
  return out;
}

/** The file an import of `spec` from `file` resolves to, relative to the root (undefined for a package). */
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
}

const all = [...sources('server/src'), ...sources('client/src'), ...sources('mock/src'), ...sources('bench')].map((f) => ({ f, imports: importsOf(f, fs.readFileSync(path.join(root, f), 'utf8')) }));
const where = (i: Import) => `${i.file}:${i.line} imports "${i.spec}"`;

test('the import scanner sees static, type-only, re-exported, dynamic and required modules', () => {
  const found = importsOf('x.ts', [
    "import * as a from 'vscode';", "import type { B } from './b';", "export { c } from '../c';", "import './side';",
    "const d = await import('node:fs');", "const e = require('net');", "import {\n  f,\n  g,\n} from 'jsonc-parser';",
  ].join('\n'));
  assert.deepEqual(found.map((i) => [i.spec, i.typeOnly]), [
    ['vscode', false], ['./b', true], ['../c', false], ['./side', false], ['node:fs', false], ['net', false], ['jsonc-parser', false],
  ]);
});

test('the checking core is pure: no vscode, no LSP library, no file system, network or process access', () => {
  const banned = /^(vscode|vscode-languageserver.*|vscode-languageclient.*|vscode-jsonrpc.*|(node:)?(fs|fs\/promises|net|http|https|child_process|os|worker_threads|dgram|tls))$/;
  const bad = all.filter(({ f }) => f.startsWith('server/src/core/')).flatMap(({ imports }) => imports.filter((i) => banned.test(i.spec)));
  assert.deepEqual(bad.map(where), []);
  const outside = all.filter(({ f }) => f.startsWith('server/src/core/')).flatMap(({ imports }) => imports)
    .filter((i) => target(i.file, i.spec) !== undefined && !/^(server\/src\/core|schemas)\//.test(target(i.file, i.spec)!));
  assert.deepEqual(outside.map(where), [], 'the core imports only the core and the shipped schemas');
});

test('flow/, http/ and the mock never import vscode or an LSP library (they run in plain Node and in the standalone mock)', () => {
  const bad = all.filter(({ f }) => /^(client\/src\/(flow|http)|mock\/src)\//.test(f))
    .flatMap(({ imports }) => imports.filter((i) => /^(vscode|vscode-languageserver.*|vscode-languageclient.*|vscode-jsonrpc.*)$/.test(i.spec)));
  assert.deepEqual(bad.map(where), []);
});

test('the mock is a program of its own: it imports only itself and the core', () => {
  const bad = all.filter(({ f }) => f.startsWith('mock/src/')).flatMap(({ imports }) => imports)
    .filter((i) => target(i.file, i.spec) !== undefined && !/^(mock\/src\/|server\/src\/core(\/|$)|schemas\/)/.test(target(i.file, i.spec)!));
  assert.deepEqual(bad.map(where), []);
});

/** What the extension may import of the server: the protocol, the syntax messages (the commands that send a job refuse one with
 * a syntax error in the editor's words; client/src/jobSyntax.ts), a destination shown without its credentials (the mock's too) and
 * a host name's A-labels and Windows' device names (a zone's document names, client/src/untitled.ts; the server's sample zone too). */
const CLIENT_MAY_IMPORT = new Set(['server/src/protocol', 'server/src/core/parse/syntaxErrors', 'server/src/core/rules/logpush/shownDestination', 'server/src/core/hostName']);

test('the extension imports only protocol.ts and the syntax messages of the server, and the mock only as types (it loads dist/mock.js at run time)', () => {
  const client = all.filter(({ f }) => f.startsWith('client/src/')).flatMap(({ imports }) => imports);
  const bad = client.filter((i) => target(i.file, i.spec)?.startsWith('server/src/') && !CLIENT_MAY_IMPORT.has(target(i.file, i.spec)!));
  assert.deepEqual(bad.map(where), []);
  const mock = client.filter((i) => target(i.file, i.spec)?.startsWith('mock/src/') && !i.typeOnly);
  assert.deepEqual(mock.map(where), []);
});

test('outside the core, the server, the CLI, the mock and the bench use its one entry point (core/index.ts), never its inner modules', () => {
  const bad = all.filter(({ f }) => !f.startsWith('server/src/core/')).flatMap(({ imports }) => imports)
    .filter((i) => target(i.file, i.spec)?.startsWith('server/src/core/') && target(i.file, i.spec) !== 'server/src/core/index'
      && !(i.file.startsWith('client/src/') && CLIENT_MAY_IMPORT.has(target(i.file, i.spec)!)));
  assert.deepEqual(bad.map(where), []);
});

test('the syntax messages the extension imports reach no area of the core (its code tables, rules or schemas): the commands bundle stays small', () => {
  const byFile = new Map(all.map(({ f, imports }) => [f.replace(/\.ts$/, ''), imports]));
  const seen = new Set<string>();
  const walk = (m: string) => {
    if (seen.has(m)) return;
    seen.add(m);
    for (const i of byFile.get(m) ?? []) if (!i.typeOnly && target(i.file, i.spec)) walk(target(i.file, i.spec)!);
  };
  walk('server/src/core/parse/syntaxErrors');
  assert.deepEqual([...seen].filter((m) => /core\/(codes|rules\/|schema\/|validate|plugins)|^schemas\//.test(m)), []);
  assert.ok(seen.has('server/src/core/baseCodes'), [...seen].join(', '));
});

test('of the server, only the CLI imports the mock; the language server never does', () => {
  const bad = all.filter(({ f }) => f.startsWith('server/src/') && !/^server\/src\/cli\w*\.ts$/.test(f)).flatMap(({ imports }) => imports)
    .filter((i) => target(i.file, i.spec)?.startsWith('mock/src/'));
  assert.deepEqual(bad.map(where), []);
});

test('only the server entries (server.ts, browserServer.ts) import lsp/; only languageClient.ts loads vscode-languageclient at run time', () => {
  const lsp = all.filter(({ f }) => f.startsWith('server/src/') && f !== 'server/src/server.ts' && f !== 'server/src/browserServer.ts' && !f.startsWith('server/src/lsp/'))
    .flatMap(({ imports }) => imports).filter((i) => target(i.file, i.spec)?.startsWith('server/src/lsp/'));
  assert.deepEqual(lsp.map(where), []);
  const client = all.filter(({ f }) => f.startsWith('client/src/') && f !== 'client/src/languageClient.ts' && f !== 'client/src/browserExtension.ts').flatMap(({ imports }) => imports)
    .filter((i) => !i.typeOnly && /^vscode-languageclient/.test(i.spec));
  assert.deepEqual(client.map(where), []);
});
