// The questions commands ask. One object on Ctx so extension-host tests can answer them (dialogs cannot be clicked there).
import * as vscode from 'vscode';

export interface Ui {
  /** Resolves with the chosen option or undefined when dismissed. Modal for irreversible steps. */
  ask(question: string, options: string[], opts: { modal: boolean; detail?: string }): Promise<string | undefined>;
}

export const vscodeUi: Ui = {
  async ask(question, options, opts) {
    if (opts.modal) return vscode.window.showWarningMessage(question, { modal: true, detail: opts.detail }, ...options);
    return vscode.window.showInformationMessage(opts.detail ? `${question} ${opts.detail}` : question, ...options);
  },
};
