// The context key `edgekit.logpushJobHasId`: whether the active editor's Logpush job document has a numeric "id", i.e. names a job
// on the backend (as "Open Job Configuration" writes it). The editor title then offers "Update Logpush Job" in place of "Create
// Logpush Job", which would make a second job with the same configuration.
import * as vscode from 'vscode';

export const JOB_HAS_ID = 'edgekit.logpushJobHasId';
/** Larger documents are not read for it (a job file is a few KB). */
const MAX_CHARS = 256 * 1024;

/** Whether `text` is a JSON object with a whole-number "id"; undefined when it cannot be told (not JSON while being typed). */
export function jobHasId(text: string): boolean | undefined {
  if (text.length > MAX_CHARS) return false;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) && Number.isInteger((v as { id?: unknown }).id);
  } catch {
    return undefined;
  }
}

export function trackJobContext(): vscode.Disposable {
  let last: boolean | undefined;
  // Each document's last answer its text could give: half-typed JSON keeps its own, never the one of the document shown before.
  const known = new WeakMap<vscode.TextDocument, boolean>();
  const set = (value: boolean) => {
    if (value === last) return;
    last = value;
    void vscode.commands.executeCommand('setContext', JOB_HAS_ID, value);
  };
  const update = (doc: vscode.TextDocument | undefined) => {
    if (!doc || doc.languageId !== 'logpush-job') return set(false);
    // Half-typed JSON keeps what the document last said; one never read whole names no job.
    const has = jobHasId(doc.getText()) ?? known.get(doc) ?? false;
    known.set(doc, has);
    set(has);
  };
  update(vscode.window.activeTextEditor?.document);
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor((e) => update(e?.document)),
    vscode.workspace.onDidChangeTextDocument((e) => { if (e.document === vscode.window.activeTextEditor?.document) update(e.document); }),
    vscode.workspace.onDidOpenTextDocument((d) => { if (d === vscode.window.activeTextEditor?.document) update(d); }),
  );
}
