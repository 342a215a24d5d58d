// The language server's Node bundles, shared by esbuild.mjs and the bench's own builds (bench/size.ts), so that what is measured is
// what ships (issue 18, cold start):
//   dist/server.js      the start (server/src/serverStart.ts): runs the two below through V8's code cache;
//   dist/serverMain.js  the server (server/src/server.ts): the message layer and the handlers, what answers `initialize`;
//   dist/serverCore.js  the checking core (server/src/core/index.ts: ajv, the schemas, the rules, the evaluators), loaded by the
//                       server when the client says `initialized` (lsp/context.ts, coreModule), with its own code cache.
// The server reaches the core only through coreModule()'s require('../core'), which becomes a require of ./serverCore.js here; any
// other import of the core's values into the server bundle would make a second copy of it, so it fails the build.
import * as path from 'node:path';

/** @type {import('esbuild').Plugin} */
const coreApart = {
  name: 'edgekit-core-apart',
  setup(build) {
    build.onResolve({ filter: /^(\.\.?\/)+core(\/index(\.ts)?)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path).replace(/[\\/]index(\.ts)?$/, '');
      if (!target.endsWith(path.join('server', 'src', 'core'))) return undefined;
      if (args.kind === 'require-call') return { path: './serverCore.js', external: true };
      return { errors: [{ text: `${path.relative(process.cwd(), args.importer)} imports the core's values: the server reaches the core through coreModule() (lsp/context.ts) only` }] };
    });
  },
};

/**
 * The message layer's Node built-ins that the stdio and IPC transports never use, loaded at their first use instead of with the
 * server: vscode-languageserver's `Files` helpers spawn npm and yarn (child_process), vscode-jsonrpc names pipes with random bytes
 * (crypto). Loading them took 4-5 ms of a cold start (docs/benchmarks.md). Both libraries only call functions of these modules.
 * @type {import('esbuild').Plugin}
 */
const lazyBuiltins = {
  name: 'edgekit-lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^(child_process|crypto)$/ }, (args) =>
      /[\\/]node_modules[\\/]vscode-/.test(args.importer) ? { path: args.path, namespace: 'edgekit-lazy-builtin' } : undefined);
    build.onLoad({ filter: /.*/, namespace: 'edgekit-lazy-builtin' }, (args) => ({
      loader: 'js',
      contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, key) => (m ??= require('node:${args.path}'))[key] });\n`,
    }));
  },
};

/**
 * The three bundles' esbuild options.
 * @param {import('esbuild').BuildOptions} common options of every Node bundle (esbuild.mjs's)
 * @param {string} outdir where the bundles go
 * @param {string} [root] the repository's root, when the caller's working folder is another
 * @returns {import('esbuild').BuildOptions[]}
 */
export function serverBuilds(common, outdir, root = '.') {
  const src = (f) => path.join(root, 'server/src', f);
  return [
    { ...common, entryPoints: [src('serverStart.ts')], outfile: path.join(outdir, 'server.js'), banner: { js: '#!/usr/bin/env node' } },
    { ...common, entryPoints: [src('server.ts')], outfile: path.join(outdir, 'serverMain.js'), plugins: [coreApart, lazyBuiltins] },
    { ...common, entryPoints: [src('core/index.ts')], outfile: path.join(outdir, 'serverCore.js') },
  ];
}

/**
 * The browser build's language server (server/src/browserServer.ts, run by dist/browser/extension.js in a Web Worker): no Node
 * built-ins, and packages resolve their "browser" entries (vscode-languageserver/browser). Shared by esbuild.mjs and the unit test
 * that runs it in a worker-like context (test/unit/lsp/browserWorker.test.ts).
 * @param {import('esbuild').BuildOptions} common options of every bundle (esbuild.mjs's)
 * @param {string} outfile where the bundle goes
 * @param {string} [root] the repository's root, when the caller's working folder is another
 * @returns {import('esbuild').BuildOptions}
 */
export function browserServerBuild(common, outfile, root = '.') {
  return { ...common, platform: 'browser', target: 'es2022', mainFields: ['browser', 'module', 'main'], format: 'iife', entryPoints: [path.join(root, 'server/src/browserServer.ts')], outfile };
}
