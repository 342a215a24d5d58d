// Commands that overlap on one thing (a Logpush job, a job document, a request document): a second one started before the first
// ends (a double click on the Zones view's inline action or on a lens, Enter pressed twice, Enable while Delete waits for its
// answer) is not run; it says what is still running instead (docs/architecture.md, "Commands that overlap (cc1)").
import * as vscode from 'vscode';

/** What runs on each key now, in words ("Deleting Logpush job 5 of zone a.example"). */
const running = new Map<string, string>();

/**
 * Runs `fn` unless a command runs on `key` already: then says so (`doing`, the running one's words, "is still under way") and
 * ends quietly (a CancellationError, which runCommand does not show), with nothing run. The key is held until `fn` settles,
 * whatever it asks the user meanwhile.
 */
export async function exclusive<T>(key: string, doing: string, fn: () => Promise<T>): Promise<T> {
  const other = running.get(key);
  if (other !== undefined) {
    void vscode.window.showInformationMessage(`${other} is still under way; wait for it to end.`);
    throw new vscode.CancellationError();
  }
  running.set(key, doing);
  try {
    return await fn();
  } finally {
    running.delete(key);
  }
}
