import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { scriptedUi, type Answer, type ScriptedUi } from './scriptedUi';

export const WORKSPACE = vscode.workspace.workspaceFolders![0].uri;

export function wsUri(name: string): vscode.Uri {
  return vscode.Uri.joinPath(WORKSPACE, name);
}

export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'edgekit');
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' && d.code !== null ? String(d.code.value) : String(d.code);
}

/** Resolves with the uri's diagnostics once predicate holds on EdgeKit's; waits for diagnostics events, never sleeps. */
export function waitForDiagnostics(uri: vscode.Uri, predicate: (d: vscode.Diagnostic[]) => boolean, what = 'diagnostics', timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  return waitForAnyDiagnostics(uri, (all) => predicate(all.filter((d) => d.source === 'edgekit')), what, timeoutMs);
}

/** waitForDiagnostics over every source's diagnostics (VS Code's JSON service reports as "json"). */
export function waitForAnyDiagnostics(uri: vscode.Uri, predicate: (d: vscode.Diagnostic[]) => boolean, what = 'diagnostics', timeoutMs = 30_000): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void) => { if (done) return; done = true; sub.dispose(); clearTimeout(timer); fn(); };
    const check = () => {
      const all = vscode.languages.getDiagnostics(uri);
      if (predicate(all)) finish(() => resolve(all));
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => { if (e.uris.some((u) => u.toString() === uri.toString())) check(); });
    const timer = setTimeout(() => finish(() => reject(new Error(`Timed out waiting for ${what} on ${path.basename(uri.path)}; have: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((d) => `${d.source}:${codeOf(d)}@${d.range.start.line}:${d.range.start.character}`))}`))), timeoutMs);
    check();
  });
}

/** Creates a file in the workspace (overwriting) and opens it in an editor. */
export async function openFile(name: string, text: string): Promise<vscode.TextEditor> {
  const uri = wsUri(name);
  fs.mkdirSync(path.dirname(uri.fsPath), { recursive: true });
  fs.writeFileSync(uri.fsPath, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc);
}

export async function setText(editor: vscode.TextEditor, text: string): Promise<void> {
  const doc = editor.document;
  await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text));
}

export function rangeText(doc: vscode.TextDocument, r: vscode.Range): string {
  return doc.getText(r);
}

export async function api(): Promise<{ ctx: any }> {
  const ext = vscode.extensions.getExtension('edgekit.edgekit')!;
  return (ext.isActive ? ext.exports : await ext.activate()) as { ctx: any };
}

/** Closes the document's editor without saving: its edits are reverted, an untitled document is discarded (no "Save changes?").
 * A document VS Code no longer opens ("Could NOT open editor": already closed and disposed) has no editor to close. */
export async function revertAndClose(doc: vscode.TextDocument): Promise<void> {
  const shown = await vscode.window.showTextDocument(doc).then(() => true, () => false);
  if (shown) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

/** Reverts and closes the editors of a workspace subfolder, then deletes it (a dirty document whose file is gone makes the
 * workbench log save errors). The dirty ones are reverted one by one (shown, then reverted and closed); the others are closed in
 * one call, which takes a fraction of showing each (0.3-0.5 s a document under load: 10 s for one suite's twenty). */
export async function removeFolder(name: string): Promise<void> {
  const dir = path.join(WORKSPACE.fsPath, name);
  const inside = (uri: vscode.Uri) => uri.scheme === 'file' && uri.fsPath.startsWith(dir + path.sep);
  for (const d of vscode.workspace.textDocuments.filter((x) => x.isDirty && inside(x.uri))) await revertAndClose(d);
  await vscode.window.tabGroups.close(vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && inside(t.input.uri)));
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The first of our diagnostics with this code (and, given doc, on exactly this text); fails the test listing what there is. */
export function findDiagnostic(ds: vscode.Diagnostic[], code: string, text?: string, doc?: vscode.TextDocument): vscode.Diagnostic {
  const d = ds.find((x) => x.source === 'edgekit' && codeOf(x) === code && (text === undefined || doc!.getText(x.range) === text));
  if (!d) throw new Error(`no ${code} diagnostic${text ? ` on ${text}` : ''} among ${JSON.stringify(ds.map((x) => `${codeOf(x)}: ${x.message}`))}`);
  return d;
}

/** Runs the quick fix titled `title` offered for the diagnostic; resolves once the edit is applied. */
export async function applyFix(doc: vscode.TextDocument, d: vscode.Diagnostic, title: string): Promise<void> {
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, d.range, vscode.CodeActionKind.QuickFix.value);
  const action = actions.find((a) => a.title === title);
  if (!action?.edit) throw new Error(`no quick fix "${title}" among ${JSON.stringify(actions.map((a) => a.title))}`);
  if (!(await vscode.workspace.applyEdit(action.edit))) throw new Error(`the quick fix "${title}" did not apply`);
}

/** All hover text at a position, as one markdown string. */
export async function hoverText(uri: vscode.Uri, pos: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos);
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value))).join('\n');
}

/**
 * Scripted answers for the questions commands ask (dialogs cannot be clicked in the test host), in order; an unexpected question
 * fails. Await the command through the returned settle(): an answer that fails an assertion then fails the test at once with that
 * assertion, instead of leaving a question that is not modal waiting until the 60 s timeout (scriptedUi.ts).
 */
export function scriptUi(ctx: any, answers: Answer[]): ScriptedUi {
  const scripted = scriptedUi(answers);
  ctx.ui = scripted.ui;
  return scripted;
}

/**
 * "Create Logpush Job" on a job document whose destination the platform challenges and which has no "ownership_challenge", on the
 * embedded mock: Create asks first (cl14), and this answers "Create on the Mock Anyway" (the mock creates the job, with a note).
 * ctx.ui is put back after.
 */
export async function createOnMock(ctx: any, uri: vscode.Uri, owner?: string): Promise<any> {
  const kept = ctx.ui;
  const { asked, settle } = scriptUi(ctx, [(q, options) => {
    assert.match(q, /has no "ownership_challenge": the platform refuses a job to .* without one\.$/);
    assert.ok(options.includes('Create on the Mock Anyway'), options.join());
    return 'Create on the Mock Anyway';
  }]);
  try {
    const job = await settle(vscode.commands.executeCommand<any>('edgekit.logpush.createJob', uri, owner));
    assert.equal(asked.length, 1, 'asked about the missing ownership challenge');
    return job;
  } finally {
    ctx.ui = kept;
  }
}

/**
 * Sets an "edgekit.*" setting and resolves once this extension host reads the new value. WorkspaceConfiguration.update resolves when
 * the setting is written, which can be before the host's configuration model has it (seen under load: the next read still gave the
 * old value); then this waits for the onDidChangeConfiguration event that brings it.
 */
export async function setSetting(key: string, value: unknown, target = vscode.ConfigurationTarget.Global): Promise<void> {
  const field = target === vscode.ConfigurationTarget.Global ? 'globalValue' : target === vscode.ConfigurationTarget.Workspace ? 'workspaceValue' : 'workspaceFolderValue';
  const visible = () => JSON.stringify((vscode.workspace.getConfiguration('edgekit').inspect(key) as Record<string, unknown> | undefined)?.[field]) === JSON.stringify(value);
  let sub: vscode.Disposable | undefined;
  const seen = new Promise<void>((resolve) => {
    sub = vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(`edgekit.${key}`) && visible()) resolve(); });
  });
  // A change is done when its onDidChangeConfiguration has been delivered, not when inspect() shows it: the value can be visible
  // before the event, and the extension's listener (which clears the Security Events view on a backend switch) would then run
  // during the next test. A value already in place fires no event.
  const changes = !visible();
  try {
    await vscode.workspace.getConfiguration('edgekit').update(key, value, target);
    if (changes) await seen;
  } finally {
    sub?.dispose();
  }
}
