// The extension's Node bundles, shared by esbuild.mjs and the unit test that holds their split (test/unit/client/commandsBundle.test.ts):
//   dist/client.js    what activation loads (client/src/extension.ts): the registration of every command by its id, the views, the
//                     status bar, the tasks, the language server's and the mock's loaders;
//   dist/commands.js  the commands' implementations (client/src/commands/table.ts) with all they import (the flow, the HTTP layer),
//                     loaded by commands/registry.ts's commandsModule() when a command first runs or a view first refreshes.
// Activation reaches the table only through commandsModule()'s require('./table'), which becomes a require of ./commands.js here; any
// other import of the table's values into dist/client.js would make a second copy of it, so it fails the build.
import * as path from 'node:path';

/** @type {import('esbuild').Plugin} */
const commandsApart = {
  name: 'edgekit-commands-apart',
  setup(build) {
    build.onResolve({ filter: /(^|\/)table(\.ts)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path).replace(/\.ts$/, '');
      if (!target.endsWith(path.join('client', 'src', 'commands', 'table'))) return undefined;
      if (args.kind === 'require-call') return { path: './commands.js', external: true };
      return { errors: [{ text: `${path.relative(process.cwd(), args.importer)} imports the command table's values: activation reaches it through commandsModule() (client/src/commands/registry.ts) only` }] };
    });
  },
};

/**
 * The two bundles' esbuild options.
 * @param {import('esbuild').BuildOptions} common options of every Node bundle (esbuild.mjs's)
 * @param {string} outdir where the bundles go
 * @param {string} [root] the repository's root, when the caller's working folder is another
 * @returns {import('esbuild').BuildOptions[]}
 */
export function clientBuilds(common, outdir, root = '.') {
  const src = (f) => path.join(root, 'client/src', f);
  return [
    { ...common, entryPoints: [src('extension.ts')], outfile: path.join(outdir, 'client.js'), external: ['vscode'], plugins: [commandsApart] },
    { ...common, entryPoints: [src('commands/table.ts')], outfile: path.join(outdir, 'commands.js'), external: ['vscode'] },
  ];
}
