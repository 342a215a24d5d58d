// Read-only response documents (scheme edgekit-response) and the history of sent gateway requests.
import * as vscode from 'vscode';

export const RESPONSE_SCHEME = 'edgekit-response';

export interface HistoryEntry {
  id: number;
  time: string;
  url: string;
  /** The exact body that was sent. */
  body: string;
  /** Label: method name(s). */
  label: string;
  status?: number;
  ms?: number;
  summary: string;
  responseUri: string;
  sourceUri?: string;
}

/**
 * The response document's header: each line a `//` comment, broken between words at `width` characters (the document opens in a
 * column beside the request, often 60 to 80 wide, and a batch's summary runs to hundreds), its continuation lines indented. A word
 * longer than the width (a URL) stays whole, on a line of its own. A line break in a line (\r too) starts a comment line.
 */
export function responseHeader(lines: readonly string[], width = 80): string {
  const out: string[] = [];
  // A line break inside a line (the gateway's own message) starts a line of its own: the editor breaks at \r as at \n.
  for (const line of lines.flatMap((l) => l.split(/\r\n|\r|\n/))) {
    let current = '//';
    for (const word of line.split(' ').filter((w) => w !== '')) {
      if (current === '//') current = `// ${word}`;
      else if (current.length + 1 + word.length > width) {
        out.push(current);
        current = `//   ${word}`;
      } else current = `${current} ${word}`;
    }
    out.push(current);
  }
  return out.join('\n');
}

const MAX_HISTORY = 50;

/**
 * The editor group for a response: one that shows a response already, other than the active editor's; else, when the active group
 * shows them (a request opened there), another group there is; else beside. "Beside" alone made a new column whenever the
 * active editor was the rightmost one: after a few sends, four columns too narrow to read.
 */
function responseColumn(): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all;
  const active = vscode.window.tabGroups.activeTabGroup;
  const showsResponse = (g: vscode.TabGroup) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === RESPONSE_SCHEME);
  const others = groups.filter((g) => g !== active);
  const target = others.find(showsResponse) ?? (active && showsResponse(active) ? others[0] : undefined);
  return target?.viewColumn ?? vscode.ViewColumn.Beside;
}

export class Responses implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private seq = 0;
  private readonly registration: vscode.Disposable;

  constructor(private readonly state: vscode.Memento) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);
    this.seq = this.history().reduce((m, h) => Math.max(m, h.id), 0);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const kept = this.contents.get(uri.toString());
    if (kept !== undefined) return kept;
    // A response of an earlier session: the history keeps what was sent and the summary, not the body. Comment lines only, as the
    // header of a kept response: the document is JSONC, and a bare sentence was a syntax error in the Problems view.
    const gone = 'The response body is no longer in memory (it is kept for this window only); send the request again from "EdgeKit: Show Sent Requests".';
    const h = this.history().find((x) => x.responseUri === uri.toString());
    if (!h) return `${responseHeader([gone])}\n`;
    const lines = [`POST ${h.url}`, `${h.status !== undefined ? `HTTP ${h.status}` : 'No response'}${h.ms !== undefined ? ` · ${h.ms} ms` : ''} · ${h.label} · ${h.time}`, ...h.summary.split('\n')];
    return `${responseHeader([...lines, gone])}\n`;
  }

  history(): HistoryEntry[] {
    return this.state.get<HistoryEntry[]>('edgekit.gateway.history', []);
  }

  /** Stores a response text and records the request in the history; returns the response document's URI. */
  async record(entry: Omit<HistoryEntry, 'id' | 'time' | 'responseUri'>, text: string): Promise<vscode.Uri> {
    const id = ++this.seq;
    // The label's punctuation and spaces as "_", none at either end ("batch of 2 (eth_blockNumber, eth_call)" ended in "_").
    const name = entry.label.replace(/[^\w.-]+/g, '_').slice(0, 40).replace(/^_+|_+$/g, '') || 'request';
    const uri = vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/response-${id}-${name}.jsonc` });
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
    const full: HistoryEntry = { ...entry, id, time: new Date().toISOString(), responseUri: uri.toString() };
    const all = [full, ...this.history()];
    // Responses that leave the history are freed.
    for (const gone of all.slice(MAX_HISTORY)) this.contents.delete(gone.responseUri);
    await this.state.update('edgekit.gateway.history', all.slice(0, MAX_HISTORY));
    return uri;
  }

  /**
   * Shows a response where the earlier ones are, else beside the active editor. `focus`: the response takes the focus (opened from
   * the history); a response to a send leaves it on the request, so that the next file opened lands beside the request, not among
   * the responses.
   */
  async open(uri: vscode.Uri, { focus = false }: { focus?: boolean } = {}): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'jsonc');
    return vscode.window.showTextDocument(doc, { viewColumn: responseColumn(), preview: false, preserveFocus: !focus });
  }

  textOf(uri: vscode.Uri): string | undefined {
    return this.contents.get(uri.toString());
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
