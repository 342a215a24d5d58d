// The one table of commands (rust-analyzer's createCommands), and the entry of the commands bundle (dist/commands.js): activation
// registers every id (registry.ts) and loads this bundle when a command first runs or a view first asks a backend something.
// package.json's contributes.commands must list exactly these ids (a unit test checks it).
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { backendCommands } from './backend';
import { exampleCommands } from './example';
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
    void vscode.window.setStatusBarMessage('$(check) EdgeKit: language server restarted', 5000);
  },
  ...backendCommands,
  ...exampleCommands,
  ...logpushCommands,
  ...logpushJobCommands,
  ...logpushJobLifecycleCommands,
  ...logpushTestCommands,
  ...gatewayCommands,
  ...migrationCommands,
  ...trafficCommands,
};

// What the Zones, Security Events and Deliveries views read through (the HTTP layer comes with them).
export { apiFor } from './api';
export { eventSources, mockControlFor } from './traffic';
