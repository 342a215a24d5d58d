// Read-only reports of "Test Filter on Logs…" and "Test Rules on Requests…" (scheme edgekit-report, markdown): a preview tab that
// the next report replaces. An untitled document opened with content is dirty, and VS Code keeps dirty editors pinned, so each run
// left a tab that asked to be saved when closed.
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'edgekit-report';
/** Reports kept for reopening (a tab restored or reopened); the oldest go first. */
const REPORTS_KEPT = 20;

export class Reports implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private seq = 0;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this);

  /** A new report document about `subject` (a file name), holding `markdown`. */
  add(subject: string, markdown: string): vscode.Uri {
    const name = (subject.split('/').pop() ?? subject).replace(/[^\w.-]+/g, '_').slice(0, 60);
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${name} report ${++this.seq}.md` });
    this.texts.set(uri.toString(), markdown);
    if (this.texts.size > REPORTS_KEPT) this.texts.delete(this.texts.keys().next().value as string);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This report is no longer kept; run the test again.\n';
  }

  dispose(): void {
    this.registration.dispose();
  }
}
