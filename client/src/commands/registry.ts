// Every command is registered at activation, by the ids package.json declares (contributes.commands, which a unit test holds equal
// to the table); its implementation is loaded when it first runs. The table (table.ts) and all it imports (the commands, the flow,
// the HTTP layer) are a bundle of their own, dist/commands.js, so that activation loads neither (docs/architecture.md, "The commands
// bundle"): esbuild.mjs turns the require('./table') below into a require of ./commands.js, beside dist/client.js.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import type * as Table from './table';
import { runCommand } from './run';

export type CommandsModule = typeof Table;

let loaded: CommandsModule | undefined;

/** The commands bundle, loaded on first use; an error that names it when it cannot be (a broken or partial install). */
export function commandsModule(): CommandsModule {
  if (loaded) return loaded;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (loaded = require('./table') as CommandsModule);
  } catch (err) {
    throw new Error(`EdgeKit's commands could not be loaded (dist/commands.js, beside dist/client.js; reinstalling the extension restores it): ${(err as Error)?.message ?? err}`);
  }
}

/** The command ids the extension declares (package.json contributes.commands). */
export function declaredCommands(extension: vscode.ExtensionContext): string[] {
  const declared = (extension.extension.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
  return declared.map((c) => c.command);
}

export function registerCommands(ctx: Ctx): vscode.Disposable[] {
  return declaredCommands(ctx.extension).map((id) => {
    let fn: ((...args: unknown[]) => unknown) | undefined;
    const run = (...args: unknown[]) => {
      if (!fn) {
        const factory = commandsModule().COMMANDS[id];
        if (!factory) throw new Error(`The command ${id} is declared in package.json but has no implementation in the commands bundle.`);
        fn = factory(ctx);
      }
      return fn(...args);
    };
    return vscode.commands.registerCommand(id, (...args: unknown[]) => runCommand(id, () => run(...args)));
  });
}
