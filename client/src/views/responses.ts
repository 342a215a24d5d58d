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

/** Code points an editor shows two columns wide (Unicode's East Asian Wide and Fullwidth: CJK, kana, Hangul, fullwidth forms). */
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4], [0x17000, 0x18aff], [0x1b000, 0x1b2ff], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];
const isWide = (cp: number) => WIDE.some(([lo, hi]) => cp >= lo && cp <= hi);
/** An emoji shown as one (a ZWJ sequence, a flag, a pictograph with its emoji variation selector, a keycap: a digit, `#` or `*`
 * with U+20E3, the variation selector or not): two columns. */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f|\p{Regional_Indicator}|\u20e3/u;
/** Nothing on screen: combining marks alone, format characters (a zero-width space or joiner), controls. */
const INVISIBLE = /^[\p{M}\p{Cf}\p{Cc}]*$/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** The text Intl.Segmenter is given at a time: stepping through its segments slows with the length of the whole text (V8, Node 20:
 * 100 000 characters took 4 to 18 s, a header line the gateway sent is any length). */
const WINDOW = 512;

/**
 * A text's grapheme clusters (user-perceived characters), as Intl.Segmenter finds them in the whole text, found a window at a
 * time: each window starts at a cluster's start, and its last cluster (which the window's end may have cut) is found again at the
 * start of the next; a cluster longer than the window (a run of combining marks) doubles it.
 */
export function* graphemeClusters(s: string): Generator<string> {
  let start = 0;
  let size = WINDOW;
  while (start < s.length) {
    const end = Math.min(s.length, start + size);
    const found = [...graphemes.segment(s.slice(start, end))].map((g) => g.segment);
    if (end === s.length) { yield* found; return; }
    if (found.length < 2) { size *= 2; continue; }
    found.pop();
    for (const g of found) { yield g; start += g.length; }
    size = WINDOW;
  }
}

/** The columns one user-perceived character (a grapheme cluster) takes in the editor: 0, 1 or 2. */
function clusterWidth(g: string): number {
  if (EMOJI.test(g) || isWide(g.codePointAt(0)!)) return 2;
  return INVISIBLE.test(g) ? 0 : 1;
}

/** The columns a text takes in the editor (a monospace font): a CJK character or an emoji takes two, a combining mark none. */
export function displayWidth(s: string): number {
  // ASCII, the usual header, in one step.
  if (/^[\x20-\x7e]*$/.test(s)) return s.length;
  let w = 0;
  for (const g of graphemeClusters(s)) w += clusterWidth(g);
  return w;
}

/** Kinsoku (JIS X 4051): closing punctuation, the prolonged sound mark and small kana never start a line; opening brackets never
 * end one. The ASCII ones too, as UAX #14 keeps them (CL, CP, IS, EX: no break before; OP: none after), and a straight quote,
 * whether it opens or closes, is kept with both neighbours (QU). */
const NO_BREAK_BEFORE = '、。，．・：；？！ー）」』】〕〉》〙〗｝］ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ)]},.!?;:"\'';
const NO_BREAK_AFTER = '（「『【〔〈《〘〖｛［([{"\'';

/**
 * The pieces a line may break between: its words, and within a word the boundaries beside a wide character (CJK text has no spaces
 * and breaks between its characters, as UAX #14 lets ideographs, kinsoku kept). Each piece with what joins it to the one before (' ' or '').
 */
function breakable(line: string): { piece: string; join: string; width: number }[] {
  const out: { piece: string; join: string; width: number }[] = [];
  for (const word of line.split(' ').filter((w) => w !== '')) {
    // An ASCII word (the usual header) is one piece.
    if (/^[\x21-\x7e]*$/.test(word)) { out.push({ piece: word, join: ' ', width: word.length }); continue; }
    let piece = '';
    let width = 0;
    let wideBefore = false;
    let first = true;
    for (const segment of graphemeClusters(word)) {
      const wide = isWide(segment.codePointAt(0)!);
      if (piece !== '' && (wide || wideBefore) && !NO_BREAK_BEFORE.includes(segment) && !NO_BREAK_AFTER.includes(piece.slice(-1))) {
        out.push({ piece, join: first ? ' ' : '', width });
        first = false;
        piece = '';
        width = 0;
      }
      piece += segment;
      width += clusterWidth(segment);
      wideBefore = wide;
    }
    out.push({ piece, join: first ? ' ' : '', width });
  }
  return out;
}

/**
 * The response document's header: each line a `//` comment, broken at `width` columns of the editor (display width: a CJK
 * character or an emoji takes two) between words, or beside a CJK character (the document opens in a column beside the
 * request, often 60 to 80 wide, and a batch's summary runs to hundreds), its continuation lines indented. A word longer than the
 * width (a URL) stays whole, on a line of its own; a "·" separator ends its line, two columns past the width at most. A line break
 * in a line (\r too) starts a comment line.
 */
export function responseHeader(lines: readonly string[], width = 80): string {
  const out: string[] = [];
  // A line break inside a line (the gateway's own message) starts a line of its own: the editor breaks at \r as at \n.
  // A tab is a space: the editor shows it up to the next tab stop (its width unknown here), and a line breaks there as at a space.
  for (const line of lines.flatMap((l) => l.replace(/\t/g, ' ').split(/\r\n|\r|\n/))) {
    let current = '//';
    let columns = 2;
    for (const { piece, join, width: w } of breakable(line)) {
      if (current === '//') {
        current = `// ${piece}`;
        columns = 3 + w;
      // A "·" separator stays at the end of the line it follows: a continuation line began "//   · 2:13:15 PM".
      } else if (columns + join.length + w > width && piece !== '·') {
        out.push(current);
        current = `//   ${piece}`;
        columns = 5 + w;
      } else {
        current = `${current}${join}${piece}`;
        columns += join.length + w;
      }
    }
    out.push(current);
  }
  return out.join('\n');
}

const MAX_HISTORY = 50;

/**
 * The editor group for a response: the one that has this response already, else one that shows a response, other than its
 * request's group; else, when the request's group shows them (a request opened there), another group there is; else the group
 * right of the request's (new if there is none). "Beside" the active editor alone made a new column whenever the active editor
 * was the rightmost one (after a few sends, four columns too narrow to read), and put the response over its request when the
 * focus was still elsewhere (the walkthrough, whose button opened the request beside it). The request's group is the one whose
 * active tab it is, else one that has it, else the active group.
 */
function responseColumn(uri: vscode.Uri, source?: string): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all;
  const isText = (u: string) => (t: vscode.Tab | undefined) => t?.input instanceof vscode.TabInputText && t.input.uri.toString() === u;
  const has = (g: vscode.TabGroup, u: string) => g.tabs.some(isText(u));
  const showsResponse = (g: vscode.TabGroup) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === RESPONSE_SCHEME);
  const home = (source ? groups.find((g) => isText(source)(g.activeTab)) ?? groups.find((g) => has(g, source)) : undefined)
    ?? vscode.window.tabGroups.activeTabGroup;
  const others = groups.filter((g) => g !== home);
  const target = others.find((g) => has(g, uri.toString())) ?? others.find(showsResponse) ?? (home && showsResponse(home) ? others[0] : undefined);
  if (target) return target.viewColumn;
  return home ? home.viewColumn + 1 : vscode.ViewColumn.Beside;
}

/**
 * The response document of a request file: one per file, in its folder, named after it (`balance.rpc.json` →
 * `balance.rpc.response.jsonc`), as REST Client keeps one response tab. A body with no file (a history entry of an older version,
 * sent again) gets one of its own per send, named after its methods.
 */
export function responseUriOf(sourceUri: string | undefined, id: number, label: string): vscode.Uri {
  if (sourceUri) {
    const path = vscode.Uri.parse(sourceUri).path;
    const slash = path.lastIndexOf('/');
    const name = path.slice(slash + 1).replace(/\.json$/i, '') || 'request';
    return vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `${slash > 0 ? path.slice(0, slash) : ''}/${name}.response.jsonc` });
  }
  // The label's punctuation and spaces as "_", none at either end ("batch of 2 (eth_blockNumber, eth_call)" ended in "_").
  const name = label.replace(/[^\w.-]+/g, '_').slice(0, 40).replace(/^_+|_+$/g, '') || 'request';
  return vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/response-${id}-${name}.jsonc` });
}

export class Responses implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** The text each response document shows now, by URI. */
  private readonly contents = new Map<string, string>();
  /** Each history entry's response text, by id, while the entry is in the history (this window only). */
  private readonly texts = new Map<number, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly recorded = new vscode.EventEmitter<HistoryEntry>();
  /** A request was sent and its response (or the failure) recorded in the history. */
  readonly onDidRecord = this.recorded.event;
  private seq = 0;
  private readonly registration: vscode.Disposable;

  constructor(private readonly state: vscode.Memento) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);
    this.seq = this.history().reduce((m, h) => Math.max(m, h.id), 0);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const kept = this.contents.get(uri.toString());
    if (kept !== undefined) return kept;
    // The newest response of the document (the history is newest first), of an earlier session.
    return this.goneText(this.history().find((x) => x.responseUri === uri.toString()));
  }

  /**
   * A response of an earlier session: the history keeps what was sent and the summary, not the body. Comment lines only, as the
   * header of a kept response: the document is JSONC, and a bare sentence was a syntax error in the Problems view.
   */
  private goneText(h: HistoryEntry | undefined): string {
    const gone = 'The response body is no longer in memory (it is kept for this window only); send the request again from "EdgeKit: Show Sent Requests…".';
    if (!h) return `${responseHeader([gone])}\n`;
    const lines = [`POST ${h.url}`, `${h.status !== undefined ? `HTTP ${h.status}` : 'No response'}${h.ms !== undefined ? ` · ${h.ms} ms` : ''} · ${h.label} · ${h.time}`, ...h.summary.split('\n')];
    return `${responseHeader([...lines, gone])}\n`;
  }

  /** The document at uri shows text now (an open one is read again). */
  private show(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  history(): HistoryEntry[] {
    return this.state.get<HistoryEntry[]>('edgekit.gateway.history', []);
  }

  /**
   * Stores a response text, shows it in its request file's response document (responseUriOf) and records the request in the
   * history; returns the document's URI.
   */
  async record(entry: Omit<HistoryEntry, 'id' | 'time' | 'responseUri'> & { time?: string }, text: string): Promise<vscode.Uri> {
    const id = ++this.seq;
    const uri = responseUriOf(entry.sourceUri, id, entry.label);
    this.texts.set(id, text);
    this.show(uri, text);
    const full: HistoryEntry = { ...entry, id, time: entry.time ?? new Date().toISOString(), responseUri: uri.toString() };
    const all = [full, ...this.history()];
    const kept = all.slice(0, MAX_HISTORY);
    // Responses that leave the history are freed, and a document no entry shows any more.
    for (const gone of all.slice(MAX_HISTORY)) this.texts.delete(gone.id);
    const shown = new Set(kept.map((h) => h.responseUri));
    for (const u of [...this.contents.keys()]) if (!shown.has(u)) this.contents.delete(u);
    await this.state.update('edgekit.gateway.history', kept);
    this.recorded.fire(full);
    return uri;
  }

  /** A history entry's response, shown in its document (its request file's: an older response replaces the newer there) with the focus. */
  async openEntry(entry: HistoryEntry): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.parse(entry.responseUri);
    this.show(uri, this.texts.get(entry.id) ?? this.goneText(entry));
    return this.open(uri, { focus: true, source: entry.sourceUri });
  }

  /**
   * Shows a response where the earlier ones are, else beside its request (`source`, a URI) or the active editor. `focus`: the
   * response takes the focus (opened from the history); a response to a send leaves it on the request, so that the next file
   * opened lands beside the request, not among the responses.
   */
  async open(uri: vscode.Uri, { focus = false, source }: { focus?: boolean; source?: string } = {}): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'jsonc');
    return vscode.window.showTextDocument(doc, { viewColumn: responseColumn(uri, source), preview: false, preserveFocus: !focus });
  }

  textOf(uri: vscode.Uri): string | undefined {
    return this.contents.get(uri.toString());
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.recorded.dispose();
  }
}
