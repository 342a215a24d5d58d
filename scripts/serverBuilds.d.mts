import type { BuildOptions } from 'esbuild';
/** The language server's Node bundles (server.js, serverMain.js, serverCore.js): see serverBuilds.mjs. */
export function serverBuilds(common: BuildOptions, outdir: string, root?: string): BuildOptions[];
/** The browser build's language server (dist/browser/server.js, in a Web Worker): see serverBuilds.mjs. */
export function browserServerBuild(common: BuildOptions, outfile: string, root?: string): BuildOptions;
