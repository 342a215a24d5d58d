// Status bar for the active EdgeKit document: its kind, problems, and a filter's live usage against the platform's limits; or,
// while the language server is not running, that state (starting, or stopped/failed with a click to restart it).
import * as vscode from 'vscode';
import type { LanguageServer } from './languageServer';
import { DocumentInfoRequest, SOURCE, type DocumentInfoResult } from '../../server/src/protocol';
import { isServedDocument } from './languages';

/** The document kinds in words, for the tooltip (the server's kind, or the editor's language id before the server knows the document). */
const KIND_WORDS: Record<string, string> = {
  'logpush-filter': 'a Logpush filter', 'logpush-job': 'a Logpush job', 'jsonrpc-request': 'a gateway JSON-RPC request',
  'waf-ruleset': 'a ruleset (managed rules, expressions)',
};

/** Which of a filter's limits its usage is over, in words ("over the limit of 30 operators"); undefined within both. */
function overWords(u: { operators: number; maxOperators: number; bytes: number; maxBytes: number }): string | undefined {
  const over = [...(u.operators > u.maxOperators ? [`${u.maxOperators} operators`] : []), ...(u.bytes > u.maxBytes ? [`${u.maxBytes} bytes`] : [])];
  return over.length ? `over the limit of ${over.join(' and of ')}` : undefined;
}

export class DocumentStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('edgekit.documentStatus', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [];
  private seq = 0;
  /** The last text shown, for tests. */
  lastText = '';

  constructor(private readonly server: LanguageServer) {
    this.item.name = 'EdgeKit document';
    this.item.command = 'workbench.actions.view.problems';
    this.disposables.push(
      server.onDidChangeState(() => this.update()),
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) void this.update();
      }),
    );
  }

  /** Shows the active editor's state; resolves once the item shows the newest state asked for, so an update a newer one
   * supersedes (an edit's own diagnostics change) resolves with that newer one, not before it. */
  update(): Promise<void> {
    // Counted on every update, not only those that ask the server: an answer about the previous editor's document that arrives
    // after the item was hidden (or showed the server's state) is dropped.
    const newest = this.show(++this.seq);
    this.newest = newest;
    return newest;
  }

  private newest?: Promise<void>;

  private async show(seq: number): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isServedDocument(editor.document)) {
      this.item.hide();
      return;
    }
    const state = this.server.state;
    if (state === 'starting' || state === 'stopped' || state === 'failed') {
      this.showServerState(state);
      return;
    }
    let info: DocumentInfoResult;
    try {
      info = await this.server.request(DocumentInfoRequest.type, { uri: editor.document.uri.toString() });
    } catch {
      return seq !== this.seq ? this.newest : undefined;
    }
    if (seq !== this.seq) return this.newest;
    const usage = info.usage?.text;
    // Counted here, from the diagnostics the editor already holds: the server does not check the text a second time for this.
    const ours = vscode.languages.getDiagnostics(editor.document.uri).filter((d) => d.source === SOURCE);
    const errors = ours.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    const warnings = ours.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
    const problems = errors + warnings === 0 ? '$(check)' : `$(error) ${errors} $(warning) ${warnings}`;
    // A separator after the counts: "$(warning) 0 3/30 operators" read as one number
    this.lastText = usage ? `EdgeKit ${problems}${errors + warnings === 0 ? ' ' : ' · '}${usage}` : `EdgeKit ${problems}`;
    this.item.text = this.lastText;
    this.item.command = 'workbench.actions.view.problems';
    const counts = errors + warnings === 0 ? 'no errors or warnings'
      : `${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`;
    // The red background says "over a limit" to those who see it; the words say it to everyone else (colour alone is not enough).
    const over = info.usage ? overWords(info.usage) : undefined;
    this.item.tooltip = `${usage ? `Filter usage against the platform limits (about 30 operators, about 1000 bytes compact): ${usage}${over ? `, ${over}` : ''}`
      : `EdgeKit: ${KIND_WORDS[info.kind ?? editor.document.languageId] ?? 'checking this document'}`}; ${counts}. Click to show the Problems panel.`;
    this.item.backgroundColor = over ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.showItem();
  }

  /** Shows the item, read by a screen reader as its tooltip's words: without it VS Code reads the text's icon names ("EdgeKit
   * error 3 warning 0") and then the tooltip. */
  private showItem(): void {
    this.item.accessibilityInformation = { label: typeof this.item.tooltip === 'string' ? this.item.tooltip : this.item.text };
    this.item.show();
  }

  private showServerState(state: 'starting' | 'stopped' | 'failed'): void {
    const starting = state === 'starting';
    this.lastText = starting ? 'EdgeKit $(sync~spin) starting' : `EdgeKit $(error) server ${state}`;
    this.item.text = this.lastText;
    this.item.tooltip = starting
      ? 'The EdgeKit language server is starting.'
      : `The EdgeKit language server ${state === 'failed' ? 'failed to start' : 'stopped after repeated crashes'}: no checks run. Click to restart it (the EdgeKit log says why).`;
    this.item.command = starting ? undefined : 'edgekit.restartServer';
    this.item.backgroundColor = starting ? undefined : new vscode.ThemeColor('statusBarItem.errorBackground');
    this.showItem();
  }

  dispose(): void {
    this.item.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
