// A stand-in for the `vscode` module, so that the client's commands can be unit-tested in plain Node (the extension-host tests need a
// VS Code download and a display). Importing this file makes `require('vscode')` resolve to it; import it before any client module.
// It holds only what the commands tested here touch, and records what they asked and showed in `fake`, reset by each test.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === 'vscode' ? __filename : resolve.call(this, request, ...rest);
};

export class Uri {
  private constructor(readonly scheme: string, readonly path: string, readonly query = '') {}
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):(?:\/\/)?([^?]*)(?:\?(.*))?$/i.exec(s);
    if (!m) throw new Error(`not a URI: ${s}`);
    return new Uri(m[1], m[2].startsWith('/') ? m[2] : `/${m[2]}`, m[3] ?? '');
  }
  static file(p: string): Uri { return new Uri('file', p); }
  static from(c: { scheme: string; path?: string; query?: string }): Uri { return new Uri(c.scheme, c.path ?? '', c.query ?? ''); }
  static joinPath(u: Uri, ...parts: string[]): Uri { return new Uri(u.scheme, [u.path, ...parts].join('/'), u.query); }
  get fsPath(): string { return this.path; }
  with(c: { scheme?: string; path?: string }): Uri { return new Uri(c.scheme ?? this.scheme, c.path ?? this.path, this.query); }
  toString(): string { return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ''}`; }
}

export class CancellationError extends Error {}
export class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...ds: { dispose(): unknown }[]): Disposable { return new Disposable(() => { for (const d of ds) d.dispose(); }); }
  dispose(): void { this.fn(); }
}
/** Listeners told of each change the stand-in sees: an event fired (a code lens provider's change, any of the client's), a command
 * run (setContext), a document added or removed, a progress report, a message shown. A test's wait (migrationCtx's until) checks
 * again on each, after the change's synchronous run, instead of every few milliseconds. */
export const changes = new Set<() => void>();
function changed(): void { for (const l of [...changes]) l(); }
/** The documents by URI string: a Map that tells `changes` of each document added or removed. */
class Documents extends Map<string, FakeDocument> {
  override set(k: string, v: FakeDocument): this { super.set(k, v); changed(); return this; }
  override delete(k: string): boolean { const had = super.delete(k); if (had) changed(); return had; }
}

export class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  readonly event = (l: (e: T) => void) => { this.listeners.push(l); return new Disposable(() => { this.listeners = this.listeners.filter((x) => x !== l); }); };
  fire(e: T): void { for (const l of this.listeners) l(e); changed(); }
  dispose(): void { this.listeners = []; }
}
export class ThemeIcon { constructor(readonly id: string) {} }
export class ThemeColor { constructor(readonly id: string) {} }
export class MarkdownString { value = ''; supportThemeIcons = false; constructor(v = '') { this.value = v; } appendMarkdown(s: string): this { this.value += s; return this; } }
export class TreeItem { [k: string]: unknown; constructor(readonly label: string, readonly collapsibleState?: number) {} }
export class Range {
  readonly start: unknown;
  readonly end: unknown;
  /** (start, end) positions, or (startLine, startCharacter, endLine, endCharacter) as VS Code's Range takes them too. */
  constructor(...args: unknown[]) {
    if (args.length === 4) [this.start, this.end] = [{ line: args[0], character: args[1] }, { line: args[2], character: args[3] }];
    else [this.start, this.end] = args;
  }
}
export class Diagnostic {
  source?: string;
  code?: string | number;
  constructor(readonly range: Range, readonly message: string, readonly severity = 0) {}
}
/** A diagnostic collection (languages.createDiagnosticCollection): its entries by URI string, in fake.collections by name. */
export class DiagnosticCollection {
  readonly entries = new Map<string, { uri: Uri; diagnostics: Diagnostic[] }>();
  constructor(readonly name: string) {}
  set(uri: Uri, diagnostics: readonly Diagnostic[]): void { this.entries.set(uri.toString(), { uri, diagnostics: [...diagnostics] }); }
  get(uri: Uri): readonly Diagnostic[] | undefined { return this.entries.get(uri.toString())?.diagnostics; }
  delete(uri: Uri): void { this.entries.delete(uri.toString()); }
  forEach(cb: (uri: Uri, diagnostics: readonly Diagnostic[]) => void): void { for (const e of [...this.entries.values()]) cb(e.uri, e.diagnostics); }
  dispose(): void { this.entries.clear(); }
}
/** A code lens; `command` with an empty id is a lens shown without an action. */
export class CodeLens { constructor(readonly range: Range, public command?: { title: string; command: string; arguments?: unknown[] }) {} }
export class WorkspaceEdit {
  readonly edits: { uri: Uri; range: Range; text: string }[] = [];
  replace(uri: Uri, range: Range, text: string): void { this.edits.push({ uri, range, text }); }
}
export class TabInputText { constructor(readonly uri: Uri) {} }
export const TaskScope = { Global: 1, Workspace: 2 };
export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 };
export const TaskRevealKind = { Always: 1, Silent: 2, Never: 3 };
export class ProcessExecution { constructor(readonly process: string, readonly args: string[], readonly options?: { cwd?: string; env?: Record<string, string> }) {} }
/** A pseudoterminal as the task system drives it: open(), then what it wrote and the code it closed with. */
export interface FakePty { onDidWrite(l: (s: string) => void): unknown; onDidClose?(l: (code: number | void) => void): unknown; open(): void; close(): void }
export class CustomExecution { constructor(readonly callback: () => Promise<FakePty>) {} }
export class Task {
  detail?: string;
  presentationOptions?: unknown;
  constructor(readonly definition: { type: string; [k: string]: unknown }, readonly scope: unknown, readonly name: string, readonly source: string,
    readonly execution?: ProcessExecution | CustomExecution, readonly problemMatchers: string[] = []) {}
}
export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };
export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 };
export const ViewColumn = { Active: -1, Beside: -2, One: 1 };
export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 };
export const StatusBarAlignment = { Left: 1, Right: 2 };

export class Position { constructor(readonly line: number, readonly character: number) {} }
export const TextEditorRevealType = { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 };
export interface FakeDocument { uri: Uri; languageId: string; getText(): string; isClosed: boolean; isDirty?: boolean; offsetAt(p: Position): number; positionAt(o: number): Position }

/** offsetAt and positionAt over a text (lines end in \n). */
function positions(text: string): Pick<FakeDocument, 'offsetAt' | 'positionAt'> {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return {
    offsetAt: (p) => Math.min(text.length, (starts[p.line] ?? text.length) + p.character),
    positionAt: (o) => {
      let line = 0;
      while (line + 1 < starts.length && starts[line + 1] <= o) line++;
      return { line, character: o - starts[line] };
    },
  };
}

/** What a test sets up, and what the code under test did. */
export const fake = {
  /** Settings: section "edgekit" values by key, for the window (scope undefined) and per folder path (a resource in it). */
  settings: new Map<string, unknown>(),
  folderSettings: new Map<string, Map<string, unknown>>(),
  /** Workspace settings of a window with a workspace file (its "settings"), between the user's and a folder's. */
  workspaceSettings: new Map<string, unknown>(),
  /** Documents by URI string. */
  documents: new Documents() as Map<string, FakeDocument>,
  activeUri: undefined as Uri | undefined,
  /** Answers to the quick picks, in order (a label, or undefined for dismissed); each question asked is recorded. */
  quickPickAnswers: [] as Answer[],
  quickPicks: [] as QuickPickShown[],
  /** Answers to the input boxes, in order (the text entered and Enter, or undefined for Escape); each box shown is recorded. */
  inputBoxAnswers: [] as Answer[],
  inputBoxes: [] as InputBoxShown[],
  /** The validation message under an input box after each text typed without Enter (typed(), an answer), in order. */
  validationWhileTyping: [] as (string | undefined)[],
  /** The quick inputs made by createQuickPick and createInputBox that are on screen now (shown, not hidden nor disposed). */
  quickInputs: [] as (FakeQuickPick<{ label: string }> | FakeInputBox)[],
  /** Every quick input createQuickPick and createInputBox made (a command done with its question disposes each: its `disposed`). */
  madeQuickInputs: [] as (FakeQuickPick<{ label: string }> | FakeInputBox)[],
  /** items: the buttons offered beside the message, when there are any; modal and detail: a modal dialog's (its detail wraps under it). */
  messages: [] as { kind: 'info' | 'warning' | 'error'; text: string; items?: string[]; modal?: true; detail?: string }[],
  /** window.setStatusBarMessage's texts. */
  statusMessages: [] as string[],
  /** Answers a message that offers buttons (a button's title, or undefined: dismissed), perhaps later; none: every message is dismissed. */
  answerMessage: undefined as ((text: string, items: string[]) => string | undefined | Promise<string | undefined>) | undefined,
  /** The Cancel buttons of the progress notifications running (withProgress). */
  progressCancels: [] as (() => void)[],
  /** The progress shown (withProgress) and not ended yet: its location and title, outermost first. */
  progressRunning: [] as { location: unknown; title?: string }[],
  /** The messages reported to progress notifications (withProgress), in order. */
  progressReports: [] as string[],
  cancelProgress(): void { for (const c of [...fake.progressCancels]) c(); },
  opened: [] as { language?: string; content?: string }[],
  clipboard: '',
  /** Diagnostics by URI string (languages.getDiagnostics). */
  diagnostics: new Map<string, unknown[]>(),
  /** The workspace's files (URI strings) workspace.findFiles searches, and the globs it was asked. */
  files: [] as string[],
  globs: [] as string[],
  /** Documents (URI strings) of fake.documents that VS Code has not resolved yet (a background tab restored from a hot-exit
   * backup): openTextDocument returns them with their text, workspace.textDocuments does not list them. */
  unresolved: new Set<string>(),
  /** What was written to output channels ("error: ..."). */
  logged: [] as string[],
  workspaceFile: undefined as Uri | undefined,
  /** The documents of the editors on screen (window.visibleTextEditors); showEditors() changes them. */
  visible: [] as FakeDocument[],
  /** The language ids VS Code knows besides plaintext (languages.getLanguages: other extensions' languages). */
  languages: [] as string[],
  /** The code lens providers registered (languages.registerCodeLensProvider) and not disposed. */
  codeLensProviders: [] as { selector: unknown; provider: { provideCodeLenses(doc: FakeDocument, token: unknown): CodeLens[] | undefined | Promise<CodeLens[] | undefined>; onDidChangeCodeLenses?: unknown } }[],
  /** What window.showTextDocument was asked: the document's URI and its options (viewColumn, preserveFocus, preview). */
  shown: [] as { uri: string; viewColumn?: number; preserveFocus?: boolean; preview?: boolean; selection?: Range }[],
};

/** The lenses every registered provider gives `doc` (the selectors are not matched: the providers here filter for themselves). */
export async function codeLenses(doc: FakeDocument): Promise<CodeLens[]> {
  const all = await Promise.all(fake.codeLensProviders.map((p) => p.provider.provideCodeLenses(doc, { isCancellationRequested: false })));
  return all.flatMap((l) => l ?? []);
}

/** Listeners of window.onDidChangeActiveTextEditor and workspace.onDidChangeTextDocument (reset by each test). */
const activeEditorListeners: ((e: { document: FakeDocument } | undefined) => void)[] = [];
const changeListeners: ((e: { document: FakeDocument }) => void)[] = [];
const visibleListeners: ((e: { document: FakeDocument }[]) => void)[] = [];
/** Listeners of workspace.onDidOpenTextDocument, onDidSaveTextDocument and onDidCloseTextDocument. */
const openListeners: ((d: FakeDocument) => void)[] = [];
const saveListeners: ((d: FakeDocument) => void)[] = [];
/** Listeners of workspace.onDidChangeConfiguration: told by a settings update() (a test's own writes to fake.settings are not). */
const configurationListeners: ((e: { affectsConfiguration(section: string): boolean }) => void)[] = [];
const closeListeners: ((d: FakeDocument) => void)[] = [];

function listen<T>(list: ((e: T) => void)[], l: (e: T) => void): Disposable {
  list.push(l);
  return new Disposable(() => { const i = list.indexOf(l); if (i >= 0) list.splice(i, 1); });
}

/** Makes `doc` the active editor's document and tells the listeners, as VS Code does on switching editors. */
export function activate(doc: FakeDocument | undefined): void {
  fake.activeUri = doc?.uri;
  for (const l of [...activeEditorListeners]) l(doc ? { document: doc } : undefined);
}

/** Replaces `doc`'s text and tells the listeners, as an edit does (the document is then dirty: not saved). */
export function editDocument(doc: FakeDocument, text: string): void {
  Object.assign(doc, { getText: () => text, isDirty: true }, positions(text));
  for (const l of [...changeListeners]) l({ document: doc });
}

/** The editors on screen become those of `docs`, and the listeners are told, as VS Code does on opening, closing or splitting. */
export function showEditors(...docs: FakeDocument[]): void {
  fake.visible = docs;
  for (const l of [...visibleListeners]) l(window.visibleTextEditors);
}

/** The text of each file as last saved (URI string -> text and language), for a file's document opened again once closed. */
const disk = new Map<string, { text: string; languageId: string }>();

/**
 * Save As of a document (or Save of an untitled one with a path) to the file `to`, as VS Code does it (textFileService.saveAs): the
 * file's document is opened with the source's text and saved, then the source is reverted: an untitled one is closed (a closed
 * TextDocument keeps its last text), a file's is given its saved text back when it was dirty (and closed here: its editor is
 * replaced by the target's). The source's `uri` does not change: it is another document from then on. `languageId`: the language
 * VS Code gives the file by its name (default the source's, as for a name that no language claims).
 */
export function saveAs(doc: FakeDocument, to: string, opts: { languageId?: string } = {}): FakeDocument {
  const saved = addDocument(to, opts.languageId ?? doc.languageId, doc.getText(), false);
  for (const l of [...openListeners]) l(saved);
  saveDocument(saved);
  const before = disk.get(doc.uri.toString());
  // A revert: the document is no longer dirty when its change is told (TextFileEditorModel.revert unsets the flag first).
  if (doc.uri.scheme !== 'untitled' && before && doc.isDirty) {
    Object.assign(doc, { getText: () => before.text, isDirty: false }, positions(before.text));
    for (const l of [...changeListeners]) l({ document: doc });
  }
  if (doc.isDirty !== undefined) doc.isDirty = false;
  closeDocument(doc);
  if (fake.activeUri?.toString() === doc.uri.toString()) activate(saved);
  return saved;
}

/** Save of a file's document: its text is the file's, and the listeners are told. */
export function saveDocument(doc: FakeDocument): void {
  disk.set(doc.uri.toString(), { text: doc.getText(), languageId: doc.languageId });
  doc.isDirty = false;
  for (const l of [...saveListeners]) l(doc);
}

/** Closes `doc` (its tab closed with Don't Save, or reverted), and tells the listeners. */
export function closeDocument(doc: FakeDocument): void {
  doc.isClosed = true;
  fake.documents.delete(doc.uri.toString());
  for (const l of [...closeListeners]) l(doc);
}

export function resetFake(): void {
  disk.clear();
  openListeners.length = 0;
  saveListeners.length = 0;
  configurationListeners.length = 0;
  closeListeners.length = 0;
  activeEditorListeners.length = 0;
  changeListeners.length = 0;
  visibleListeners.length = 0;
  fake.visible = [];
  fake.languages = [];
  fake.codeLensProviders = [];
  fake.shown = [];
  window.tabGroups.all = [];
  window.tabGroups.activeTabGroup = undefined;
  fake.settings.clear();
  fake.folderSettings.clear();
  fake.workspaceSettings.clear();
  fake.workspaceFile = undefined;
  fake.documents.clear();
  fake.activeUri = undefined;
  fake.quickPickAnswers = [];
  fake.quickPicks = [];
  fake.inputBoxAnswers = [];
  fake.inputBoxes = [];
  fake.validationWhileTyping = [];
  fake.quickInputs = [];
  fake.madeQuickInputs = [];
  fake.messages = [];
  fake.statusMessages = [];
  fake.progressCancels = [];
  fake.progressRunning = [];
  fake.answerMessage = undefined;
  fake.progressReports = [];
  fake.opened = [];
  fake.clipboard = '';
  fake.diagnostics.clear();
  fake.files = [];
  fake.globs = [];
  fake.logged = [];
  fake.unresolved.clear();
  commands.executed.length = 0;
  commands.registered.clear();
}

/** A document the fake workspace holds (and, with `active`, the active editor's). */
export function addDocument(uri: string, languageId: string, text: string, active = true): FakeDocument {
  const doc: FakeDocument = { uri: Uri.parse(uri), languageId, getText: () => text, isClosed: false, ...positions(text) };
  fake.documents.set(doc.uri.toString(), doc);
  if (active) fake.activeUri = doc.uri;
  return doc;
}

function message(kind: 'info' | 'warning' | 'error') {
  return async (text: string, ...rest: unknown[]): Promise<unknown> => {
    // The buttons (strings or MessageItems); an options object ({ modal }) is none.
    const items = rest.flatMap((i) => (typeof i === 'string' ? [i] : typeof (i as { title?: unknown })?.title === 'string' ? [(i as { title: string }).title] : []));
    const options = rest.find((i): i is { modal?: boolean; detail?: string } => !!i && typeof i === 'object' && !('title' in i));
    fake.messages.push({ kind, text, ...(items.length ? { items } : {}), ...(options?.modal ? { modal: true as const, ...(options.detail !== undefined ? { detail: options.detail } : {}) } : {}) });
    changed();
    if (!items.length || !fake.answerMessage) return undefined;
    const title = await fake.answerMessage(text, items);
    if (title === undefined) return undefined;
    // The item given (a MessageItem is answered with itself), as VS Code answers.
    return rest.find((i) => i === title || (i as { title?: unknown })?.title === title);
  };
}

/** An answer the stand-in's user gives a question: a label or a text (and Enter), undefined (Escape) or BACK (the Back button). */
export const BACK = Symbol('Back');
/** An answer that types `text` into an input box without pressing Enter (the box's onDidChangeValue fires; the user stays). */
export const typed = (text: string) => ({ typed: text });
type Answer = string | undefined | typeof BACK | { typed: string };
/** As VS Code's: the Back button a multi-step input shows in its title bar. */
export const QuickInputButtons = { Back: { iconPath: new ThemeIcon('arrow-left'), tooltip: 'Back' } };

/** A quick pick as it was shown: by showQuickPick, or by createQuickPick (then also its step, buttons, busy state and item highlighted,
 * kept up to date with its items and placeholder while it is on screen). */
export interface QuickPickShown {
  title?: string; placeHolder?: string; matchOnDescription?: boolean; labels: string[]; descriptions: (string | undefined)[]; details: (string | undefined)[];
  step?: number; totalSteps?: number; buttons?: string[]; busy?: boolean; active?: string;
}
/** An input box as it was shown (its value: the text it opened with). */
export interface InputBoxShown {
  title?: string; placeHolder?: string; step?: number; totalSteps?: number; buttons?: string[]; value?: string; prompt?: string; password?: boolean;
  /** showInputBox's: the validation messages its answers met (each answer refused, in order). */
  refused?: string[];
  /** Kept open when the user looks elsewhere (to copy a key from another window). */
  ignoreFocusOut?: boolean;
}

function itemFields(items: readonly ({ label: string; description?: string; detail?: string } | string)[]): Pick<QuickPickShown, 'labels' | 'descriptions' | 'details'> {
  const field = (k: 'description' | 'detail') => items.map((i) => (typeof i === 'string' ? undefined : i[k]));
  return { labels: items.map((i) => (typeof i === 'string' ? i : i.label)), descriptions: field('description'), details: field('detail') };
}

/**
 * What createQuickPick's and createInputBox's objects share, as the extension host's quick inputs behave: properties set before or
 * after show(); onDidAccept when the user presses Enter, onDidTriggerButton when a title button (Back) is clicked, onDidHide once it is
 * hidden (Escape, hide(), or dispose() of one on screen), onDidChangeValue as text is typed. The stand-in's user answers from
 * fake.quickPickAnswers / fake.inputBoxAnswers once the input is on screen: Escape (undefined) and Back at once, even while it is
 * busy; a text when the box takes input (not busy, enabled); a label once a pick is not busy, the item picked if it is listed (else
 * Escape). A box that shows a validation message after Enter is answered again (the user types anew). With no answer left the user
 * waits while the input is busy, and presses Escape once it is not.
 */
abstract class FakeQuickInput {
  title?: string;
  step?: number;
  totalSteps?: number;
  enabled = true;
  ignoreFocusOut = false;
  buttons: readonly { tooltip?: string }[] = [];
  visible = false;
  disposed = false;
  private _busy = false;
  private _placeholder?: string;
  protected readonly accepted = new EventEmitter<void>();
  private readonly buttonTriggered = new EventEmitter<unknown>();
  private readonly hidden = new EventEmitter<void>();
  protected readonly valueChanged = new EventEmitter<string>();
  readonly onDidAccept = this.accepted.event;
  readonly onDidTriggerButton = this.buttonTriggered.event;
  readonly onDidHide = this.hidden.event;
  readonly onDidChangeValue = this.valueChanged.event;
  get busy(): boolean { return this._busy; }
  set busy(v: boolean) { this._busy = v; this.updated(); }
  get placeholder(): string | undefined { return this._placeholder; }
  set placeholder(v: string | undefined) { this._placeholder = v; this.updated(); }
  protected abstract answers(): Answer[];
  /** Records the input as shown (fake.quickPicks / fake.inputBoxes). */
  protected abstract record(): void;
  /** The user's move with `answer` when the input is ready for it (false: not yet, wait for the next change). */
  protected abstract give(answer: string): boolean;
  /** The record kept up to date while on screen (a pick's items, busy state and placeholder). */
  protected refresh(): void {}
  protected shownFields(): Pick<QuickPickShown & InputBoxShown, 'title' | 'step' | 'totalSteps' | 'buttons' | 'placeHolder'> {
    return { title: this.title, placeHolder: this.placeholder, ...(this.step !== undefined ? { step: this.step, totalSteps: this.totalSteps } : {}),
      buttons: this.buttons.map((b) => b.tooltip ?? '') };
  }
  show(): void {
    if (this.disposed || this.visible) return;
    // VS Code shows one quick input at a time: the one on screen is hidden (its onDidHide fires), as another command's pick hides it.
    hideQuickInputs();
    this.visible = true;
    fake.quickInputs.push(this as unknown as FakeInputBox);
    this.record();
    changed();
    this.answerSoon();
  }
  hide(): void {
    if (!this.visible) return;
    this.visible = false;
    fake.quickInputs.splice(fake.quickInputs.indexOf(this as unknown as FakeInputBox), 1);
    this.hidden.fire();
  }
  dispose(): void {
    if (this.disposed) return;
    this.hide();
    this.disposed = true;
  }
  protected updated(): void {
    if (!this.visible) return;
    this.refresh();
    this.answerSoon();
  }
  private waiting = false;
  /** The user acts after the code's synchronous run (it sets its listeners and properties around show()). */
  protected answerSoon(): void {
    if (this.waiting) return;
    this.waiting = true;
    queueMicrotask(() => { this.waiting = false; this.answer(); });
  }
  private answer(): void {
    if (!this.visible) return;
    const queue = this.answers();
    const next = queue[0];
    // Nothing left to say: the user waits while the input is busy, then leaves (Escape).
    if (!queue.length) {
      if (!this.busy) this.hide();
    } else if (next === BACK) {
      queue.shift();
      const back = this.buttons.find((b) => b === QuickInputButtons.Back);
      if (!back) throw new Error(`the stand-in was told to press Back on "${this.title}", which shows no Back button`);
      this.buttonTriggered.fire(back);
    } else if (next === undefined) {
      queue.shift();
      this.hide();
    } else if (typeof next === 'object') {
      if (!(this instanceof FakeInputBox)) throw new Error(`the stand-in was told to type into "${this.title}", which is not an input box`);
      queue.shift();
      this.value = next.typed;
      this.valueChanged.fire(next.typed);
      fake.validationWhileTyping.push(this.validationMessage);
      this.answerSoon();
    } else if (this.give(next)) queue.shift();
  }
}

function made<Q extends FakeQuickInput>(q: Q): Q {
  fake.madeQuickInputs.push(q as unknown as FakeInputBox);
  return q;
}

/** Hides the quick inputs on screen, as VS Code does when another one (or showQuickPick's, showInputBox's) is shown. */
function hideQuickInputs(): void {
  for (const q of [...fake.quickInputs]) q.hide();
}

export class FakeInputBox extends FakeQuickInput {
  value = '';
  prompt?: string;
  password = false;
  validationMessage?: string;
  protected answers(): Answer[] { return fake.inputBoxAnswers; }
  private shown?: InputBoxShown;
  protected record(): void {
    this.shown = { ...this.shownFields(), value: this.value, prompt: this.prompt, password: this.password, ignoreFocusOut: this.ignoreFocusOut };
    fake.inputBoxes.push(this.shown);
  }
  protected give(text: string): boolean {
    if (this.busy || !this.enabled) return false;
    this.value = text;
    this.valueChanged.fire(text);
    this.accepted.fire();
    // Refused (the message shows under the box; recorded in `refused`, as showInputBox's): the user types again, or presses Escape.
    if (this.visible && this.validationMessage) {
      if (this.shown) (this.shown.refused ??= []).push(this.validationMessage);
      queueMicrotask(() => this.answerSoon());
    }
    return true;
  }
}

export class FakeQuickPick<T extends { label: string }> extends FakeQuickInput {
  value = '';
  matchOnDescription = false;
  matchOnDetail = false;
  canSelectMany = false;
  private _items: readonly T[] = [];
  activeItems: readonly T[] = [];
  selectedItems: readonly T[] = [];
  private readonly selectionChanged = new EventEmitter<readonly T[]>();
  readonly onDidChangeSelection = this.selectionChanged.event;
  readonly onDidChangeActive = new EventEmitter<readonly T[]>().event;
  private shown?: QuickPickShown;
  get items(): readonly T[] { return this._items; }
  set items(v: readonly T[]) { this._items = v; this.activeItems = v.slice(0, 1); this.updated(); }
  protected answers(): Answer[] { return fake.quickPickAnswers; }
  protected record(): void {
    this.shown = { labels: [], descriptions: [], details: [] };
    fake.quickPicks.push(this.shown);
    this.refresh();
  }
  protected override refresh(): void {
    if (!this.shown) return;
    Object.assign(this.shown, { ...this.shownFields(), ...(this.matchOnDescription ? { matchOnDescription: true } : {}), ...itemFields(this.items),
      busy: this.busy, active: this.activeItems[0]?.label });
  }
  protected give(label: string): boolean {
    if (this.busy) return false;
    const item = this.items.find((i) => i.label === label);
    if (!item) { this.hide(); return true; }
    this.activeItems = [item];
    this.selectedItems = [item];
    this.selectionChanged.fire(this.selectedItems);
    this.accepted.fire();
    return true;
  }
}

export const window = {
  get activeTextEditor() {
    const doc = fake.activeUri && fake.documents.get(fake.activeUri.toString());
    return doc ? { document: doc } : undefined;
  },
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  async showQuickPick<T extends { label: string }>(items: T[] | string[], opts?: { title?: string; placeHolder?: string; matchOnDescription?: boolean }): Promise<T | string | undefined> {
    hideQuickInputs();
    fake.quickPicks.push({ title: opts?.title, placeHolder: opts?.placeHolder, ...(opts?.matchOnDescription !== undefined ? { matchOnDescription: opts.matchOnDescription } : {}),
      ...itemFields(items) });
    const answer = fake.quickPickAnswers.shift();
    if (answer === BACK) throw new Error('the stand-in was told to press Back on a showQuickPick, which has no Back button');
    return items.find((i) => (typeof i === 'string' ? i : i.label) === answer);
  },
  /** As VS Code's: an answer validateInput refuses is not taken (its message shows under the box; recorded in `refused`), and the
   * user types the next answer, or presses Escape when none is left. */
  async showInputBox(opts?: { title?: string; placeHolder?: string; ignoreFocusOut?: boolean; validateInput?: (v: string) => string | undefined | null }): Promise<string | undefined> {
    hideQuickInputs();
    const shown: InputBoxShown = { title: opts?.title, placeHolder: opts?.placeHolder, ignoreFocusOut: opts?.ignoreFocusOut };
    fake.inputBoxes.push(shown);
    for (;;) {
      const answer = fake.inputBoxAnswers.shift();
      if (answer === BACK) throw new Error('the stand-in was told to press Back on a showInputBox, which has no Back button');
      if (typeof answer === 'object') throw new Error('the stand-in was told to type into a showInputBox without Enter, which only createInputBox\'s box shows');
      const problem = answer === undefined ? undefined : opts?.validateInput?.(answer);
      if (!problem) return answer;
      (shown.refused ??= []).push(problem);
    }
  },
  createInputBox: () => made(new FakeInputBox()),
  createQuickPick: <T extends { label: string }>() => made(new FakeQuickPick<T>()),
  async showOpenDialog(): Promise<Uri[] | undefined> { return undefined; },
  async withProgress<R>(opts: { location: unknown; title?: string }, task: (p: { report(v: { message?: string }): void }, token: { isCancellationRequested: boolean; onCancellationRequested(l: () => void): Disposable }) => Promise<R>): Promise<R> {
    // The notification's Cancel button: fake.cancelProgress() presses it on every progress still running.
    const listeners: (() => void)[] = [];
    const token = { isCancellationRequested: false, onCancellationRequested: (l: () => void) => listen(listeners, l) };
    const cancel = () => { token.isCancellationRequested = true; for (const l of [...listeners]) l(); };
    fake.progressCancels.push(cancel);
    const shown = { location: opts.location, title: opts.title };
    fake.progressRunning.push(shown);
    try {
      return await task({ report: (v) => { if (v.message !== undefined) { fake.progressReports.push(v.message); changed(); } } }, token);
    } finally {
      fake.progressCancels.splice(fake.progressCancels.indexOf(cancel), 1);
      fake.progressRunning.splice(fake.progressRunning.indexOf(shown), 1);
    }
  },
  async showTextDocument(arg: FakeDocument | Uri, opts?: { viewColumn?: number; preserveFocus?: boolean; preview?: boolean; selection?: Range }) {
    const doc = arg instanceof Uri ? fake.documents.get(arg.toString()) ?? addDocument(arg.toString(), 'plaintext', '', false) : arg;
    fake.shown.push({ uri: doc.uri.toString(), ...opts });
    fake.unresolved.delete(doc.uri.toString());
    // edit(): the whole text replaced, as the callers tested here replace it.
    return { document: doc, options: {}, revealRange() {}, edit: async (cb: (b: { replace(r: unknown, text: string): void }) => void) => { cb({ replace: (_r, text) => editDocument(doc, text) }); return true; } };
  },
  setStatusBarMessage: (text: string) => { fake.statusMessages.push(text); return new Disposable(); },
  createStatusBarItem: () => ({ visible: false, text: '', show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} }),
  onDidChangeActiveTextEditor: (l: (e: { document: FakeDocument } | undefined) => void) => listen(activeEditorListeners, l),
  /** The editors of fake.visible, in columns 1, 2, ... in that order. */
  get visibleTextEditors(): { document: FakeDocument; viewColumn: number }[] { return fake.visible.map((document, i) => ({ document, viewColumn: i + 1 })); },
  onDidChangeVisibleTextEditors: (l: (e: { document: FakeDocument }[]) => void) => listen(visibleListeners, l),
  createOutputChannel: () => ({
    info: (m: string) => fake.logged.push(`info: ${m}`), warn: (m: string) => fake.logged.push(`warn: ${m}`),
    error: (m: string) => fake.logged.push(`error: ${m}`), show() {}, dispose() {},
  }),
  /** The editor groups: set `all` (and `activeTabGroup`, one of them) to { viewColumn, tabs: [{ input: new TabInputText(uri) }] }. */
  tabGroups: { all: [] as unknown[], activeTabGroup: undefined as unknown, close: async () => true },
};

let untitled = 0;
const trustListeners: (() => void)[] = [];
/** The user trusts the workspace (VS Code fires onDidGrantWorkspaceTrust; the extension host goes on running). */
export function grantTrust(): void { workspace.isTrusted = true; for (const l of [...trustListeners]) l(); }
const providers = new Map<string, { provideTextDocumentContent(u: Uri): string | Promise<string> }>();

export const workspace = {
  /** The .code-workspace file of a multi-root window (fake.workspaceFile), undefined otherwise. */
  get workspaceFile(): Uri | undefined { return fake.workspaceFile; },
  get workspaceFolders() {
    return [...fake.folderSettings.keys()].map((p, index) => ({ uri: Uri.file(p), name: p.split('/').pop(), index }));
  },
  isTrusted: true,
  /** stat: a file of fake.files, otherwise "not found" (as VS Code's FileSystemError.FileNotFound). */
  fs: {
    async stat(uri: Uri): Promise<{ type: number }> {
      if (fake.files.includes(Uri.file(uri.path).toString())) return { type: 1 };
      throw new Error(`${uri.toString()} not found`);
    },
  },
  get textDocuments(): FakeDocument[] { return [...fake.documents.values()].filter((d) => !fake.unresolved.has(d.uri.toString())); },
  getConfiguration(section: string, scope?: Uri) {
    if (section !== 'edgekit') throw new Error(`unexpected configuration section ${section}`);
    const folder = scope && [...fake.folderSettings.keys()].find((p) => scope.path === p || scope.path.startsWith(`${p}/`));
    const own = folder ? fake.folderSettings.get(folder) : undefined;
    return {
      get<T>(key: string): T | undefined {
        return (own?.has(key) ? own.get(key) : fake.workspaceSettings.has(key) ? fake.workspaceSettings.get(key) : fake.settings.get(key)) as T | undefined;
      },
      /** The window's settings are the User settings here, a folder's are its .vscode/settings.json. */
      inspect(key: string) {
        return { key, globalValue: fake.settings.get(key), workspaceValue: fake.workspaceSettings.get(key), workspaceFolderValue: own?.get(key) };
      },
      /** The User settings (ConfigurationTarget.Global, 1) or the workspace's (2); a folder's (3) is not written here. */
      async update(key: string, value: unknown, target?: number): Promise<void> {
        const into = target === 2 ? fake.workspaceSettings : target === 1 || target === undefined ? fake.settings : undefined;
        if (!into) throw new Error(`the stand-in writes User or Workspace settings only, not target ${target}`);
        if (value === undefined) into.delete(key); else into.set(key, value);
        // As VS Code: the change is told after the write (a section affects itself and every section it is inside).
        const changed = `edgekit.${key}`;
        const e = { affectsConfiguration: (section: string) => changed === section || changed.startsWith(`${section}.`) };
        for (const l of [...configurationListeners]) l(e);
      },
    };
  },
  async openTextDocument(arg: Uri | { language?: string; content?: string }): Promise<FakeDocument> {
    if (arg instanceof Uri) {
      const provider = providers.get(arg.scheme);
      if (provider && !fake.documents.has(arg.toString())) {
        const text = await provider.provideTextDocumentContent(arg);
        fake.documents.set(arg.toString(), { uri: arg, languageId: /\.json$/.test(arg.path) ? 'json' : /\.md$/.test(arg.path) ? 'markdown' : 'plaintext', getText: () => text, isClosed: false, ...positions(text) });
      }
      // An untitled URI with a path names a new empty document until one is open there; VS Code refuses one where a file is.
      if (arg.scheme === 'untitled' && !fake.documents.has(arg.toString())) {
        if (fake.files.includes(Uri.file(arg.path).toString())) throw new Error(`cannot open ${arg.toString()}. Detail: file already exists`);
        addDocument(arg.toString(), 'plaintext', '', false);
      }
      const saved = disk.get(arg.toString());
      if (saved && !fake.documents.has(arg.toString())) {
        for (const l of [...openListeners]) l(addDocument(arg.toString(), saved.languageId, saved.text, false));
      }
      const doc = fake.documents.get(arg.toString());
      if (!doc) throw new Error(`cannot open ${arg.toString()}`);
      fake.unresolved.delete(arg.toString());
      return doc;
    }
    fake.opened.push(arg);
    const content = arg.content ?? '';
    return addDocument(`untitled:Untitled-${++untitled}`, arg.language ?? 'plaintext', content, false);
  },
  /** The files of fake.files whose path matches the glob (its "**" / "*" / "{a,b}" forms). */
  async findFiles(include: string): Promise<Uri[]> {
    fake.globs.push(include);
    const re = new RegExp(`^/${include.replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*')
      .replace(/\u0000/g, '(?:.*/)?').replace(/\{([^}]*)\}/g, (_m, alts: string) => `(?:${alts.split(',').join('|')})`)}$`);
    return fake.files.map((f) => Uri.parse(f)).filter((u) => re.test(u.path));
  },
  asRelativePath(u: Uri | string): string {
    const p = typeof u === 'string' ? u : u.path;
    // As VS Code's: an untitled document is in no workspace folder (their scheme is file), so its whole path comes back
    if (typeof u !== 'string' && u.scheme === 'untitled') return p;
    const folder = [...fake.folderSettings.keys()].find((f) => p.startsWith(`${f}/`));
    return folder ? p.slice(folder.length + 1) : p;
  },
  /** Applies the replacements to the fake documents (all of them, last first, as VS Code applies one edit's changes). */
  async applyEdit(we: WorkspaceEdit): Promise<boolean> {
    const byDoc = new Map<FakeDocument, { start: number; end: number; text: string }[]>();
    for (const e of we.edits) {
      const doc = fake.documents.get(e.uri.toString());
      if (!doc) return false;
      const list = byDoc.get(doc) ?? [];
      list.push({ start: doc.offsetAt(e.range.start as Position), end: doc.offsetAt(e.range.end as Position), text: e.text });
      byDoc.set(doc, list);
    }
    for (const [doc, list] of byDoc) {
      let text = doc.getText();
      for (const c of list.sort((a, b) => b.start - a.start)) text = text.slice(0, c.start) + c.text + text.slice(c.end);
      editDocument(doc, text);
    }
    return true;
  },
  onDidChangeTextDocument: (l: (e: { document: FakeDocument }) => void) => listen(changeListeners, l),
  onDidOpenTextDocument: (l: (d: FakeDocument) => void) => listen(openListeners, l),
  onDidSaveTextDocument: (l: (d: FakeDocument) => void) => listen(saveListeners, l),
  onDidChangeConfiguration: (l: (e: { affectsConfiguration(section: string): boolean }) => void) => listen(configurationListeners, l),
  onDidCloseTextDocument: (l: (d: FakeDocument) => void) => listen(closeListeners, l),
  onDidGrantWorkspaceTrust: (listener: () => void) => { trustListeners.push(listener); return new Disposable(() => trustListeners.splice(trustListeners.indexOf(listener), 1)); },
  /** As VS Code: the provider's onDidChange has an open document of that URI read again (later, not within the fire). */
  registerTextDocumentContentProvider(scheme: string, provider: { provideTextDocumentContent(u: Uri): string | Promise<string>; onDidChange?: (l: (u: Uri) => void) => Disposable }) {
    providers.set(scheme, provider);
    const changes = provider.onDidChange?.((u) => {
      setImmediate(async () => {
        const doc = fake.documents.get(u.toString());
        if (doc && !doc.isClosed) { editDocument(doc, await provider.provideTextDocumentContent(u)); doc.isDirty = false; }
      });
    });
    return new Disposable(() => { providers.delete(scheme); changes?.dispose(); });
  },
};

export const languages = {
  createDiagnosticCollection: (name: string) => new DiagnosticCollection(name),
  getDiagnostics: (uri: Uri): unknown[] => fake.diagnostics.get(uri.toString()) ?? [],
  onDidChangeDiagnostics: () => new Disposable(),
  /** As the extension host tells it: the same document closed, its language changed, and opened (it stays open: isClosed false). */
  async setTextDocumentLanguage(doc: FakeDocument, languageId: string) {
    if (doc.languageId === languageId) return doc;
    for (const l of [...closeListeners]) l(doc);
    doc.languageId = languageId;
    for (const l of [...openListeners]) l(doc);
    return doc;
  },
  async getLanguages(): Promise<string[]> { return ['plaintext', ...fake.languages]; },
  registerCodeLensProvider(selector: unknown, provider: (typeof fake.codeLensProviders)[number]['provider']): Disposable {
    const entry = { selector, provider };
    fake.codeLensProviders.push(entry);
    return new Disposable(() => { fake.codeLensProviders = fake.codeLensProviders.filter((e) => e !== entry); });
  },
};

export const commands = {
  executed: [] as unknown[][],
  async executeCommand(...args: unknown[]): Promise<undefined> { commands.executed.push(args); changed(); return undefined; },
  /** The handlers registered, by command id. */
  registered: new Map<string, (...args: unknown[]) => unknown>(),
  registerCommand(id: string, handler: (...args: unknown[]) => unknown): Disposable {
    commands.registered.set(id, handler);
    return new Disposable(() => commands.registered.delete(id));
  },
};

export const env = { clipboard: { writeText: async (s: string) => { fake.clipboard = s; } } };

/** A vscode.Memento (an ExtensionContext's globalState or workspaceState) over a Map; values are stored as copies, as VS Code does. */
export function memento(): { values: Map<string, unknown>; get<T>(key: string, fallback?: T): T | undefined; update(key: string, value: unknown): Promise<void> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: <T>(key: string, fallback?: T) => (values.has(key) ? structuredClone(values.get(key)) as T : fallback),
    update: async (key: string, value: unknown) => { if (value === undefined) values.delete(key); else values.set(key, structuredClone(value)); },
  };
}

/**
 * VS Code's global storage as several windows see it, each window with its own extension host and so its own globalState. As
 * VS Code keeps it (extHostMemento.ts ExtensionMemento): the whole of one extension's globalState is a single storage item (its
 * key is the extension's id); a window holds a copy of that object, and update(key) sets the key in its copy and writes the whole
 * copy (on a timer, 0 ms); the other windows replace their copy when told of the change, later (the workbench passes storage
 * changes between windows through the main process). Two windows updating at the same time, even different keys, so write two
 * objects that each lack the other's key, and the last write wins.
 */
export function sharedGlobalStorage(): { item(): Record<string, unknown>; window(): { get<T>(key: string, fallback?: T): T | undefined; update(key: string, value: unknown): Promise<void>; keys(): readonly string[] } } {
  let item = '{}';
  const windows: { value: Record<string, unknown> }[] = [];
  return {
    item: () => JSON.parse(item) as Record<string, unknown>,
    window() {
      const w = { value: JSON.parse(item) as Record<string, unknown> };
      windows.push(w);
      let pending: (() => void)[] = [];
      return {
        get: <T>(key: string, fallback?: T) => (w.value[key] !== undefined ? structuredClone(w.value[key]) as T : fallback),
        keys: () => Object.keys(w.value).filter((k) => w.value[k] !== undefined),
        update(key: string, value: unknown): Promise<void> {
          w.value[key] = value === undefined ? undefined : structuredClone(value);
          const done = new Promise<void>((resolve) => { pending.push(resolve); });
          if (pending.length === 1) {
            setTimeout(() => {
              const settle = pending;
              pending = [];
              item = JSON.stringify(w.value);
              const written = item;
              // The other windows hear of it after this one's update has resolved.
              setImmediate(() => { for (const other of windows) if (other !== w) other.value = JSON.parse(written) as Record<string, unknown>; });
              for (const r of settle) r();
            }, 0);
          }
          return done;
        },
      };
    },
  };
}
