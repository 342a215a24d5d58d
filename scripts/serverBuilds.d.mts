import type { BuildOptions } from 'esbuild';
/** The language server's Node bundles (server.js, serverMain.js, serverCore.js): see serverBuilds.mjs. */
export function serverBuilds(common: BuildOptions, outdir: string, root?: string): BuildOptions[];
