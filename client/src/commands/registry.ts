// The one table of commands (rust-analyzer's createCommands). package.json's contributes.commands must list exactly these ids
// (a unit test checks it).
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { runCommand } from './run';
import { backendCommands } from './backend';
import { logpushCommands, logpushJobCommands, logpushTestCommands } from './logpush';
import { gatewayCommands } from './gateway';
import { logpushJobLifecycleCommands } from './logpushJobs';
import { migrationCommands } from './migration';
import { trafficCommands } from './traffic';

export type CommandHandler = (ctx: Ctx) => (...args: unknown[]) => unknown;

export const COMMANDS: Record<string, CommandHandler> = {
  'edgekit.showLog': (ctx) => () => ctx.log.show(),
  'edgekit.restartServer': (ctx) => async () => {
    await ctx.server.restart();
    ctx.log.info('Language server restarted.');
  },
  ...backendCommands,
  ...logpushCommands,
  ...logpushJobCommands,
  ...logpushJobLifecycleCommands,
  ...logpushTestCommands,
  ...gatewayCommands,
  ...migrationCommands,
  ...trafficCommands,
};

export function registerCommands(ctx: Ctx): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, factory]) => {
    const fn = factory(ctx);
    return vscode.commands.registerCommand(id, (...args: unknown[]) => runCommand(id, () => fn(...args)));
  });
}
