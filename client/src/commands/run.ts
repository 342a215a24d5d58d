// Every command runs through runCommand: errors are logged with their stack and shown once with a "Show Log" action.
import * as vscode from 'vscode';
import { log, redact } from '../log';

/** What went wrong, in words for the user; `actions` are commands offered beside the message (e.g. start the mock). */
export class UserError extends Error {
  constructor(message: string, readonly actions: { title: string; command: string; args?: unknown[] }[] = []) {
    super(message);
  }
}

export async function runCommand<T>(id: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof vscode.CancellationError) return undefined;
    const message = redact((err as Error)?.message ?? String(err));
    log.error(`Command ${id} failed`, err);
    // Not awaited: the command finishes now; the message stays until the user dismisses it.
    const actions = err instanceof UserError ? err.actions : [];
    void vscode.window.showErrorMessage(`EdgeKit: ${message}`, ...actions.map((a) => a.title), 'Show Log').then((pick) => {
      if (pick === 'Show Log') log.show();
      const action = actions.find((a) => a.title === pick);
      if (action) void vscode.commands.executeCommand(action.command, ...(action.args ?? []));
    });
    return undefined;
  }
}
