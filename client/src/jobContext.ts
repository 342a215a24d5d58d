// The context key `edgekit.logpushJobHasId`: whether the active editor's Logpush job document has a numeric "id", i.e. names a job
// on the backend (as "Open Logpush Job Configuration" writes it). The editor title then offers "Update Logpush Job" in place of "Create
// Logpush Job", which would make a second job with the same configuration.
import * as vscode from 'vscode';
import { jobIdOf } from './jobText';

export const JOB_HAS_ID = 'edgekit.logpushJobHasId';
/**
 * Whether `text` is a JSON object with a whole-number top-level "id". Half-typed or broken text is read as far as it goes
 * (jsonc-parser with the language server's options, as the editor shows it): a job document restored with a typing slip in it
 * still names its job.
 */
export function jobHasId(text: string): boolean {
  return Number.isInteger(jobIdOf(text));
}

export function trackJobContext(): vscode.Disposable {
  let last: boolean | undefined;
  const set = (value: boolean) => {
    if (value === last) return;
    last = value;
    void vscode.commands.executeCommand('setContext', JOB_HAS_ID, value);
  };
  const update = (doc: vscode.TextDocument | undefined) => set(!!doc && doc.languageId === 'logpush-job' && jobHasId(doc.getText()));
  update(vscode.window.activeTextEditor?.document);
  return vscode.Disposable.from(
    vscode.window.onDidChangeActiveTextEditor((e) => update(e?.document)),
    vscode.workspace.onDidChangeTextDocument((e) => { if (e.document === vscode.window.activeTextEditor?.document) update(e.document); }),
    vscode.workspace.onDidOpenTextDocument((d) => { if (d === vscode.window.activeTextEditor?.document) update(d); }),
  );
}
