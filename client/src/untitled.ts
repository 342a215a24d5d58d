// JSON opened as an untitled document of one of EdgeKit's languages (checked live by the language server): a migration's review
// configuration, a Logpush job read from the backend; and other text EdgeKit writes for the user (a Terraform export). Named after
// what it holds, in the first workspace folder, so that Save offers that folder and that name.
import * as vscode from 'vscode';
import { asciiHost, WINDOWS_DEVICE_NAME } from '../../server/src/core/hostName';
import { UserError } from './commands/run';

/**
 * The name a message gives a document: its tab's title when it is untitled (a job read from the backend is
 * untitled:/folder/name-id.logpush.json, which asRelativePath, finding no workspace folder of that scheme, gave as the whole path:
 * "/home/me/project/dns-2.logpush.json was read", as if a file had been written there), else its path in the workspace.
 */
export function documentName(uri: vscode.Uri): string {
  return uri.scheme === 'untitled' ? uri.path.split('/').pop() || uri.path : vscode.workspace.asRelativePath(uri);
}

/** A name safe as a file name on every platform: what is not a word character, "." or "-" becomes "_", and a name that Windows reads
 * as a device (CON, AUX, NUL, COM1, ... alone or before a dot: "aux.io.ruleset.json", a zone's document) gets a "_" before it (pt1:
 * VS Code saves an untitled document that has a path to it without asking, through Node's fs, which makes a file of that literal
 * name; Explorer and cmd then cannot open or delete it, and Git for Windows refuses to add it; rv40: it said "wrote to the device"). The
 * same name on every platform, so that a folder shared with Windows holds the same documents. */
export function fileSafe(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').replace(WINDOWS_DEVICE_NAME, '_$&');
}

/**
 * A zone's name as its documents' names start (`<zone>.ruleset.json`, `<zone>.managed-rules.tf`): an internationalised name as its
 * A-labels ("bücher.x" → "xn--bcher-kva.x"), so that two zones never share a document (rv29: through fileSafe "bücher.x" and
 * "bächer.x" were both "b_cher.x", and a migration's review of one took the other's document). An ASCII name is as fileSafe makes
 * it; so is a name with no A-label form (a space, a label IDNA refuses).
 */
export function zoneFileSafe(zoneName: string): string {
  return fileSafe(asciiHost(zoneName) ?? zoneName);
}

/**
 * The untitled document name of a Logpush job read from the backend: `<name>-<id>.logpush.json`, the name ("job" when it has none)
 * and the id both through fileSafe (sec5: the id went in as the backend wrote it; a number such as 1e21 is written "1e+21").
 */
export function jobDocumentName(name: unknown, id: number | string): string {
  return `${fileSafe(typeof name === 'string' && name ? name : 'job')}-${fileSafe(String(id))}.logpush.json`;
}

/** How many names freeUntitledUri tries ("name", then "name-2" … "name-100"): a bound, so that a file system that says every
 * name exists cannot keep it looking. */
const UNTITLED_NAMES = 100;

/**
 * An untitled document named `fileName` in the first workspace folder; when a file of that name is in the folder (the user saved
 * the document under the name offered), "name-2.kind.json", "name-3.kind.json", ...: VS Code refuses to open an untitled document
 * where a file is ("file already exists"). The same name as long as the files stay, so that opening the same thing again finds the
 * document already open. `free`, when given, may pass over a name for the next one too (untitledUriFor). When all
 * UNTITLED_NAMES names are taken, a UserError naming the first and the last: the hundredth was once taken whatever it held, and an
 * export replaced the user's text there.
 */
export async function freeUntitledUri(fileName: string, free?: (uri: vscode.Uri) => Promise<boolean>): Promise<vscode.Uri> {
  const [, stem, ext] = /^(.+?)((?:\.(?:logpush|ruleset|filter|rpc))?\.[^.]+)?$/.exec(fileName) ?? [fileName, fileName, ''];
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const nameOf = (n: number) => (n === 1 ? fileName : `${stem}-${n}${ext ?? ''}`);
  for (let n = 1; n <= UNTITLED_NAMES; n++) {
    // The folder's own scheme (file, or vscode-remote in a remote window) for the file; untitled for the document.
    const file = folder && vscode.Uri.joinPath(folder, nameOf(n));
    const uri = file ? file.with({ scheme: 'untitled' }) : vscode.Uri.parse(`untitled:${nameOf(n)}`);
    if ((!file || !await fileExists(file)) && (!free || await free(uri))) return uri;
  }
  // With no folder open only the documents take names (rv36: it said "files in the folder" there too).
  throw new UserError(free && !folder
    ? `Nothing was opened: ${fileName} to ${nameOf(UNTITLED_NAMES)} are all untitled documents holding text of yours. Close some of those documents and run the command again.`
    : free
    ? `Nothing was opened: ${fileName} to ${nameOf(UNTITLED_NAMES)} are all files in the folder or untitled documents holding text of yours. Close some of those documents (or move some of the files) and run the command again.`
    : `Nothing was opened: ${fileName} to ${nameOf(UNTITLED_NAMES)} are all files in the folder. Move some of them and run the command again.`);
}

/** The text EdgeKit last wrote into an untitled document (by URI) with showUntitledText: a document that still holds it has no
 * edit of the user's. */
const written = new Map<string, string>();

/**
 * Where `text` (an export) may be shown under `fileName` without writing over anything of the user's: freeUntitledUri, passing over
 * a name whose untitled document holds text EdgeKit did not write there (the user's edits of an earlier export, a tab restored from
 * a hot-exit backup) for "name-2", "name-3"... A document that is empty, holds `text`, or holds EdgeKit's own last text is reused.
 * Opened, not looked up among workspace.textDocuments: a restored tab is not listed there until it is shown.
 */
export function untitledUriFor(fileName: string, text: string): Promise<vscode.Uri> {
  return freeUntitledUri(fileName, async (uri) => {
    const now = (await vscode.workspace.openTextDocument(uri)).getText();
    return now === '' || now === text || now === written.get(uri.toString());
  });
}

async function fileExists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** The text showUntitledJson writes for `value`: 2-space JSON and a final newline. */
export function untitledJsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** Shows `uri` (an untitled document) holding `value` as 2-space JSON in `languageId` (one of EdgeKit's), replacing whatever text it had. */
export async function showUntitledJson(uri: vscode.Uri, value: unknown, languageId: string): Promise<vscode.TextDocument> {
  const doc = await showUntitledText(uri, untitledJsonText(value));
  if (doc.languageId !== languageId) await vscode.languages.setTextDocumentLanguage(doc, languageId);
  return doc;
}

/**
 * Shows `uri` (an untitled document) holding `text`, replacing whatever text it had, in the first of `otherLanguages` that VS Code
 * knows (Terraform's comes from another extension, if any: "terraform", else an HCL extension's "hcl"), otherwise in the one its
 * file name gives.
 */
export async function showUntitledText(uri: vscode.Uri, text: string, otherLanguages: readonly string[] = []): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  if (await editor.edit((b) => b.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text))) written.set(doc.uri.toString(), text);
  // VS Code guessed the indentation when the document was still empty (4 spaces, or the user's default): make it the text's own, so
  // typing and Format Document keep its 2-space layout instead of re-indenting the whole document.
  editor.options = { insertSpaces: true, tabSize: 2 };
  if (otherLanguages.length && !otherLanguages.includes(doc.languageId)) {
    const known = new Set(await vscode.languages.getLanguages());
    const language = otherLanguages.find((l) => known.has(l));
    if (language) await vscode.languages.setTextDocumentLanguage(doc, language);
  }
  return doc;
}
