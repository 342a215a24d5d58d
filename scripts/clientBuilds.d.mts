import type { BuildOptions } from 'esbuild';
/** The extension's Node bundles (client.js at activation, commands.js on first use): see clientBuilds.mjs. */
export function clientBuilds(common: BuildOptions, outdir: string, root?: string): BuildOptions[];
