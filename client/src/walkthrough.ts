// The context key the walkthrough's first step reads: `edgekit.documentShown`, true once an EdgeKit document has been shown in an
// editor of this window (and then for the rest of the session). See package.json "walkthroughs" and docs/architecture.md
// ("Walkthrough steps completed by a context key") for why each such step has a twin shown while its key holds.
import * as vscode from 'vscode';
import { isEdgeKitDocument } from './languages';

export const DOCUMENT_SHOWN = 'edgekit.documentShown';

export function trackDocumentShown(): vscode.Disposable {
  const shown = () => vscode.window.visibleTextEditors.some((e) => isEdgeKitDocument(e.document));
  if (shown()) {
    void vscode.commands.executeCommand('setContext', DOCUMENT_SHOWN, true);
    return new vscode.Disposable(() => undefined);
  }
  const watch = vscode.window.onDidChangeVisibleTextEditors(() => {
    if (!shown()) return;
    void vscode.commands.executeCommand('setContext', DOCUMENT_SHOWN, true);
    watch.dispose();
  });
  return watch;
}
