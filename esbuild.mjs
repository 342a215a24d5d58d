// Bundles: client (extension host), server (LSP over IPC), CLI. `--production` minifies, `--watch` rebuilds.
import * as esbuild from 'esbuild';
import { browserServerBuild, serverBuilds } from './scripts/serverBuilds.mjs';
import { clientBuilds } from './scripts/clientBuilds.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // jsonc-parser's UMD build uses dynamic requires esbuild cannot follow; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

/** The browser builds: no Node built-ins; packages resolve their "browser" entries (vscode-languageserver/browser). */
const browser = { ...common, platform: 'browser', target: 'es2022', mainFields: ['browser', 'module', 'main'] };

const builds = [
  // What activation loads (dist/client.js) and the commands' implementations, loaded when one first runs (dist/commands.js).
  ...clientBuilds(common, 'dist'),
  // vscode-languageclient and our LanguageClient options, loaded when the server starts (client/src/languageServer.ts).
  { ...common, entryPoints: ['client/src/languageClient.ts'], outfile: 'dist/languageClient.js', external: ['vscode'] },
  // Also the standalone language server for other editors: `edgekit-language-server --stdio` (package.json bin). dist/server.js
  // starts dist/serverMain.js (the server) and, once initialized, dist/serverCore.js (the core) through V8's code cache.
  ...serverBuilds(common, 'dist'),
  { ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // The embedded mock backend, loaded by the client on first use (keeps the client bundle small).
  { ...common, entryPoints: ['mock/src/index.ts'], outfile: 'dist/mock.js' },
  // The browser build (package.json "browser": vscode.dev, github.dev): the extension, and the language server in a Web Worker.
  { ...browser, entryPoints: ['client/src/browserExtension.ts'], outfile: 'dist/browser/extension.js', format: 'cjs', external: ['vscode'] },
  browserServerBuild(common, 'dist/browser/server.js'),
];

if (watch) {
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('[esbuild] watching');
} else {
  const t0 = Date.now();
  await Promise.all(builds.map((b) => esbuild.build(b)));
  console.log(`[esbuild] built ${builds.length} bundles in ${Date.now() - t0} ms${production ? ' (production)' : ''}`);
}
