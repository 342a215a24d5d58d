// Commands that overlap on one thing (a Logpush job, a job document): a second one started before the first ends (a double click on
// the Zones view's inline action, Enter pressed twice, Enable while Delete waits for its answer) is not run; it says what is still
// running instead (docs/architecture.md, "Commands that overlap (cc1)").
import * as vscode from 'vscode';

/** What runs on each key now, in words ("Deleting Logpush job 5 of zone a.example"). */
const running = new Map<string, string>();

/**
 * Runs `fn` unless a command runs on `key` already: then says so (`doing`, the running one's words, "is still under way") and
 * returns undefined without running it. The key is held until `fn` settles, whatever it asks the user meanwhile.
 */
export async function exclusive<T>(key: string, doing: string, fn: () => Promise<T>): Promise<T | undefined> {
  const other = running.get(key);
  if (other !== undefined) {
    void vscode.window.showInformationMessage(`${other} is still under way; wait for it to end.`);
    return undefined;
  }
  running.set(key, doing);
  try {
    return await fn();
  } finally {
    running.delete(key);
  }
}
