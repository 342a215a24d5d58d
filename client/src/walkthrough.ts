// The context keys the walkthrough's twin steps are shown by: `edgekit.documentShown`, true once an EdgeKit document has been shown
// in an editor, `edgekit.mockStarted`, true once the mock backend has run, and `edgekit.requestSent`, true once a gateway request
// was sent (its response recorded). Each is kept in globalState and set again at every
// activation: it never turns false. See package.json "walkthroughs" and docs/architecture.md ("Walkthrough steps completed by a
// context key") for why each such step has a twin shown while its key holds, and why the key must not turn false again.
import * as vscode from 'vscode';
import { isEdgeKitDocument } from './languages';

export const DOCUMENT_SHOWN = 'edgekit.documentShown';
export const MOCK_STARTED = 'edgekit.mockStarted';
export const REQUEST_SENT = 'edgekit.requestSent';

/** Where the keys are remembered: the extension's globalState. */
type State = Pick<vscode.Memento, 'get' | 'update'>;

/** Sets the context key `key` (true) now if globalState has it or `holds()`, else the first time `holds()` after `changed` fires;
 * remembers it in `state`. */
function rememberedKey(state: State, key: string, holds: () => boolean, changed: vscode.Event<unknown>): vscode.Disposable {
  const now = () => {
    if (state.get(key) !== true && !holds()) return false;
    void vscode.commands.executeCommand('setContext', key, true);
    if (state.get(key) !== true) void state.update(key, true);
    return true;
  };
  if (now()) return new vscode.Disposable(() => undefined);
  const watch = changed(() => { if (now()) watch.dispose(); });
  return watch;
}

export function trackDocumentShown(state: State): vscode.Disposable {
  return rememberedKey(state, DOCUMENT_SHOWN, () => vscode.window.visibleTextEditors.some((e) => isEdgeKitDocument(e.document)),
    vscode.window.onDidChangeVisibleTextEditors);
}

export function trackMockStarted(state: State, backend: { readonly running: unknown; readonly onDidChange: vscode.Event<void> }): vscode.Disposable {
  return rememberedKey(state, MOCK_STARTED, () => backend.running !== undefined, backend.onDidChange);
}

/** A request sent: one recorded now, or one the workspace's history holds (sent before the key existed). */
export function trackRequestSent(state: State, responses: { history(): readonly unknown[]; readonly onDidRecord: vscode.Event<unknown> }): vscode.Disposable {
  return rememberedKey(state, REQUEST_SENT, () => responses.history().length > 0, responses.onDidRecord);
}
