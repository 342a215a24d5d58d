// Read-only reports of "Test Filter on Logs…" and "Test Rules on Requests…" (scheme edgekit-report, markdown): a preview tab that
// the next report replaces. An untitled document opened with content is dirty, and VS Code keeps dirty editors pinned, so each run
// left a tab that asked to be saved when closed.
import * as vscode from 'vscode';
import { ReadOnlyDocuments } from './readOnlyDocuments';

export const REPORT_SCHEME = 'edgekit-report';

export class Reports implements vscode.Disposable {
  /** Each run is a new report; 20 are kept for reopening (a tab restored or reopened). */
  private readonly documents = new ReadOnlyDocuments(REPORT_SCHEME, { kept: 20, gone: 'This report is no longer kept; run the test again.\n' });
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this.documents);

  /** A new report document about `subject` (a file name), holding `markdown`. */
  add(subject: string, markdown: string): vscode.Uri {
    const name = (subject.split('/').pop() ?? subject).replace(/[^\w.-]+/g, '_').slice(0, 60);
    return this.documents.add((n) => `/${name} report ${n}.md`, markdown);
  }

  dispose(): void {
    this.registration.dispose();
  }
}
