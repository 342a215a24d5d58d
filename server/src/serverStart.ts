// dist/server.js, the language server's Node start (VS Code over IPC, other editors `edgekit-language-server --stdio`): it runs the
// server bundle, dist/serverMain.js (server/src/server.ts), through V8's code cache, and the core's bundle, dist/serverCore.js, the
// same way when the server requires it (once initialized: lsp/context.ts, coreModule; scripts/serverBuilds.mjs makes the bundles).
// Compiling the bundle and the functions that initialize runs took about 30 ms of a cold start of about 140 ms, over a bare node's
// 65 ms (issue 18, docs/benchmarks.md); from the cache V8 reads them back instead. Each cache is made the first time its bundle runs
// (when the process exits, with every function that session compiled), written next to the bundle, and named by the bundle's size
// and modification time and by the V8 version and architecture: a rebuilt or updated bundle, or another runtime (VS Code's Electron,
// a different node), makes its own. V8 itself rejects a cache that does not fit (then the bundle compiles as usual and a new cache is
// written); a folder that cannot be written only means no cache. Node 22's module.enableCompileCache() does the same, and node 20,
// which the extension supports, lacks it.
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { serverCommandLine } from './serverArgs';

/** What a bundle's require gives for the core's bundle (scripts/serverBuilds.mjs turns the server's require('../core') into it). */
const CORE = './serverCore.js';

/** Runs a bundle of this folder as node's CommonJS loader would, compiled from (or into) its code cache; returns its exports. */
function runCached(name: string): unknown {
  const file = path.join(__dirname, name);
  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const prefix = `${name}.`;
  const suffix = `-${process.versions.v8}-${process.arch}.v8cache`;
  const cacheFile = path.join(__dirname, `${prefix}${stat.size}-${Math.floor(stat.mtimeMs)}${suffix}`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    /* no cache yet */
  }
  // The same wrapper and arguments as node's own CommonJS loader, so that the bundle cannot tell the difference.
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.loaded = true;
  const base = Module.createRequire(file);
  let core: unknown;
  const req = Object.assign((id: string) => (id === CORE ? (core ??= runCached(CORE.slice(2))) : base(id)), base) as NodeJS.Require;
  (script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void)
    .call(mod.exports, mod.exports, req, mod, file, __dirname);
  // Written at exit, with every function the session compiled; a bundle that failed to run leaves no cache.
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once('exit', () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
        // The caches of earlier bundles (a rebuild, another runtime's stay: VS Code's and a terminal's node may alternate).
        for (const f of fs.readdirSync(__dirname)) {
          if (f.startsWith(prefix) && f.endsWith(suffix) && path.join(__dirname, f) !== cacheFile) fs.rmSync(path.join(__dirname, f), { force: true });
        }
      } catch {
        /* a read-only folder: no cache */
      }
    });
  }
  return mod.exports;
}

// Run by hand without a transport (or with --help, --version): say so, and start nothing.
const instead = serverCommandLine(process.argv.slice(2));
if (instead) {
  if (instead.stdout) process.stdout.write(instead.stdout);
  if (instead.stderr) process.stderr.write(instead.stderr);
  process.exitCode = instead.exit;
} else {
  runCached('serverMain.js');
}
