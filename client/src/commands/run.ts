// Every command runs through runCommand: errors are logged with their stack and shown once with a "Show Log" action.
import * as vscode from 'vscode';
import { log, redact } from '../log';

export class UserError extends Error {}

export async function runCommand<T>(id: string, fn: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof vscode.CancellationError) return undefined;
    const message = redact((err as Error)?.message ?? String(err));
    log.error(`Command ${id} failed`, err);
    // Not awaited: the command finishes now; the message stays until the user dismisses it.
    void vscode.window.showErrorMessage(`EdgeKit: ${message}`, 'Show Log').then((pick) => { if (pick === 'Show Log') log.show(); });
    return undefined;
  }
}
