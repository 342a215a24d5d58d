// Every command runs through runCommand: errors are logged with their stack and shown once with a "Show Log" action.
import * as vscode from 'vscode';
import { log, redact } from '../log';

/** Marks a UserError from either bundle: dist/commands.js (commands/table.ts) has its own copy of this class, so `instanceof` from
 * dist/client.js would not know its errors (nor the commands bundle the errors of backend.ts). */
const USER_ERROR = Symbol.for('edgekit.userError');

/** What went wrong, in words for the user; `actions` are commands offered beside the message (e.g. start the mock). */
export class UserError extends Error {
  readonly [USER_ERROR] = true;
  constructor(message: string, readonly actions: { title: string; command: string; args?: unknown[] }[] = []) {
    super(message);
  }
}

/** Whether `err` is a UserError, made by this copy of the class or by the other bundle's. */
export function isUserError(err: unknown): err is UserError {
  return typeof err === 'object' && err !== null && (err as { [USER_ERROR]?: unknown })[USER_ERROR] === true;
}

export async function runCommand<T>(id: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof vscode.CancellationError) return undefined;
    const message = redact((err as Error)?.message ?? String(err));
    log.error(`Command ${id} failed`, err);
    // Not awaited: the command finishes now; the message stays until the user dismisses it.
    const actions = isUserError(err) ? err.actions : [];
    void vscode.window.showErrorMessage(`EdgeKit: ${message}`, ...actions.map((a) => a.title), 'Show Log').then((pick) => {
      if (pick === 'Show Log') log.show();
      const action = actions.find((a) => a.title === pick);
      if (action) void vscode.commands.executeCommand(action.command, ...(action.args ?? []));
    });
    return undefined;
  }
}
