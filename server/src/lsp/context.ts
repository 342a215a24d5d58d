// What every handler of the language server shares: the connection, the open documents, their parses and settings, the client's
// capabilities, and the small helpers that decide whether a handler runs on a document at all.
import type { CancellationToken, CodeLens, ProposedFeatures, TextDocuments } from 'vscode-languageserver';
import { LSPErrorCodes, ResponseError } from './library';

/** The connection of either entry (Node's stdio/IPC, or a browser's Web Worker). */
export type Connection = ProposedFeatures.Connection;
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type * as CoreModule from '../core';
import type { CoreOptions, DocKind, LanguageService } from '../core';
import type { Settings } from '../protocol';
import type { ParseCache } from './parseCache';
import type { SettingsCache } from './settings';

let loaded: typeof CoreModule | undefined;
let failed: Error | undefined;
let onFailure: ((err: Error) => void) | undefined;
let service: LanguageService | undefined;

/**
 * The checking core (ajv, the schemas, the rules, the evaluators), loaded at its first use rather than with the server: a cold start
 * answers `initialize` with the message layer alone, and the server loads the core when the client says `initialized`, before the
 * first document arrives (issue 18, docs/benchmarks.md). The bundle keeps the core's modules uninitialized until this `require`.
 * A core that cannot load (a broken or partial install) is tried once: every later call throws the same error, which names it.
 */
export function coreModule(): typeof CoreModule {
  if (loaded) return loaded;
  if (failed) throw failed;
  try {
    return (loaded = require('../core') as typeof CoreModule);
  } catch (err) {
    failed = new Error(`EdgeKit's checking core could not be loaded (dist/serverCore.js next to the server): ${(err as Error).stack ?? err}`);
    onFailure?.(failed);
    throw failed;
  }
}

/** What the entry does when the core cannot be loaded (the Node entry ends the server, so that the client says so once). */
export function whenCoreFails(handler: (err: Error) => void): void {
  onFailure = handler;
}

/** Whether an error is the core's Cancelled (a newer version's check is scheduled); never loads the core to find out. */
export function isCancellation(err: unknown): boolean {
  return loaded !== undefined && err instanceof loaded.Cancelled;
}

/** The core's language service (parse, validate, complete, hover, lenses, conversions). */
export function core(): LanguageService {
  return (service ??= coreModule().getLanguageService());
}

/** What the client said it can do (initialize), read by the handlers that adapt to it. */
export interface ClientCaps {
  configuration: boolean;
  relatedInformation: boolean;
  /** textDocument.diagnostic: the client pulls; else the server pushes (publishDiagnostics). */
  pullDiagnostics: boolean;
  /** completionItem.snippetSupport: else snippets are sent as plain text. */
  snippets: boolean;
  /** hover.contentFormat includes markdown: else hovers are plain text. */
  markdownHover: boolean;
  /** completionItem.documentationFormat includes markdown. */
  markdownDocs: boolean;
  /** signatureHelp.signatureInformation: documentation in markdown; parameters labelled by offsets (else by their text). */
  markdownSignature: boolean;
  labelOffsets: boolean;
  /** workspace.workspaceEdit.documentChanges: quick fixes carry the document version they were made for. */
  documentChanges: boolean;
  /** textDocument.codeAction.codeActionLiteralSupport: code actions are CodeAction literals (else Command[], see APPLY_FIX_COMMAND). */
  codeActionLiterals: boolean;
  /** workspace.applyEdit: the server may ask the client to apply an edit (the quick fixes of a client without code action literals). */
  applyEdit: boolean;
  /** documentSymbol.hierarchicalDocumentSymbolSupport: the outline is DocumentSymbol[] (else SymbolInformation[]). */
  hierarchicalSymbols: boolean;
  /** The completion item kinds and symbol kinds the client takes (its valueSet, else LSP 1.0's 1..18); undefined: any. */
  completionKinds?: ReadonlySet<number>;
  symbolKinds?: ReadonlySet<number>;
  /** initializationOptions.commands: the client runs EdgeKit's commands (the VS Code extension), so lenses may name them. */
  commands: boolean;
  /** initializationOptions.textLenses (or commands): the client shows a lens with an empty command id as text (VS Code). */
  textLenses: boolean;
  /** initializationOptions.rangeFilter: the client filters from the edit range's start (VS Code), else by the word at the cursor. */
  rangeFilter: boolean;
  /** Semantic tokens are announced (the client takes them in the relative format, and initializationOptions.semanticTokens is not false). */
  semanticTokens: boolean;
  /** workspace.codeLens.refreshSupport: the client handles workspace/codeLens/refresh (LSP 3.16: send it only then). */
  codeLensRefresh: boolean;
  /** workspace.diagnostics.refreshSupport: the client handles workspace/diagnostic/refresh (LSP 3.17: send it only then). */
  diagnosticRefresh: boolean;
  /** Base of the diagnostic codes' documentation links (initializationOptions.docsUri). */
  docsUri?: string;
}

export const DEFAULT_CAPS: ClientCaps = {
  configuration: false, relatedInformation: false, pullDiagnostics: false, snippets: false, markdownHover: false, markdownDocs: false,
  markdownSignature: false, labelOffsets: false, documentChanges: false, codeActionLiterals: false, applyEdit: false, hierarchicalSymbols: false, commands: false, textLenses: false, rangeFilter: false, semanticTokens: false, codeLensRefresh: false, diagnosticRefresh: false,
};

/** The records a document was last tested on, and the lenses last counted on them (filterSample.ts). */
export interface TestSample {
  records: import('../core').LogRecord[];
  label: string;
  total: number;
  /** A filter's test: the dataset its lines were tested as (the lens does not count a filter of another dataset on them). */
  dataset?: string;
  remembered?: import('../core').RememberedMatches;
  /** The lenses of one text of the document (and the setting they read): VS Code asks again for the same version on scrolling,
   * focus and other providers' refreshes, and that is a lookup. One text only: the next one replaces it. Per text, not version: a
   * client may repeat a version with another text. */
  lenses?: { text: string; dataset: string; lenses: CodeLens[] };
}

export interface ServerContext {
  connection: Connection;
  /** The records a document was last tested on (Test Filter, Test Rules; the first SAMPLE_KEEP of `total`), for its lenses; a ruleset's
   * with its rules' matches. Dropped when the document closes, replaced by the next test. */
  samples: Map<string, TestSample>;
  documents: TextDocuments<TextDocument>;
  parses: ParseCache;
  settings: SettingsCache;
  caps: ClientCaps;
}

/**
 * The document's kind: its language id when it is one of ours (VS Code), else (other editors send "json" or "jsonc") the file
 * name's pattern (*.filter.json, *.logpush.json, *.rpc.json, *.jsonrpc.json, *.ruleset.json, as the CLI), else a "$schema" naming
 * one of our schemas. Any other document is not ours: no diagnostics, no completion.
 */
export function kindOf(doc: TextDocument): DocKind | undefined {
  const { kinds } = coreModule();
  if (kinds.isDocKind(doc.languageId)) return doc.languageId;
  let path = doc.uri;
  try { path = decodeURIComponent(new URL(doc.uri).pathname); } catch { /* not a URL: the uri as it is */ }
  return kinds.detectKind(path) ?? kinds.kindFromSchemaRef(doc.getText());
}

/** A document's name as the editor's tab shows it, for messages: the URI's last segment, decoded ("My Filter.filter.json", not
 * "My%20Filter.filter.json"); an untitled document's name without its scheme ("Untitled-1"). A query or fragment is no part of
 * the name (a "#" or "?" in a file's name is escaped in its URI): a notebook cell's fragment held a "/" and the name was its tail. */
export function docName(uri: string): string {
  const bare = withoutQuery(uri);
  const slash = bare.lastIndexOf('/');
  const last = slash >= 0 ? bare.slice(slash + 1) : bare.slice(bare.indexOf(':') + 1);
  try { return decodeURIComponent(last) || uri; } catch { return last || uri; }
}

/** Where a document is, for messages: a file's path, decoded (a UNC file's with its host, "//server/share/a.filter.json": the URL's
 * pathname alone dropped the server); another scheme's URI as it is (untitled:Untitled-1). */
export function docPlace(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    const u = new URL(uri);
    return `${u.host ? `//${u.host}` : ''}${decodeURIComponent(u.pathname)}`;
  } catch { return uri; }
}

/** A URI without its query and fragment (the first literal "?" or "#" starts them). */
const withoutQuery = (uri: string): string => uri.replace(/[?#].*$/s, '');

export function coreOptions(s: Settings): CoreOptions {
  return { logpushDataset: s.logpush.dataset, logpushScope: s.logpush.scope, maxProblems: s.maxProblems, maxFileSizeKB: s.maxFileSizeKB };
}

/** The last answer of tooLarge per document and text: between a third of the limit and the limit (in UTF-16 code units) it counts
 * bytes. Per text, not version: a client may repeat a version with another text (the same text is the same string: a pointer
 * compare). */
const sizeChecked = new WeakMap<TextDocument, { text: string; kb: number; over: boolean }>();

/** Above edgekit.maxFileSizeKB (KB of UTF-8, as the core's check counts it) a document is not parsed at all: one information
 * diagnostic, no outline/completion/hover/lenses. */
export function tooLarge(doc: TextDocument, s: Settings): boolean {
  const hit = sizeChecked.get(doc);
  const text = doc.getText();
  if (hit && hit.text === text && hit.kb === s.maxFileSizeKB) return hit.over;
  const over = coreModule().overSizeLimit(text, s.maxFileSizeKB);
  sizeChecked.set(doc, { text, kb: s.maxFileSizeKB, over });
  return over;
}

/** Asks the client to ask for code lenses again (a setting or a document's test sample changed), when it says it can. */
export function refreshCodeLenses(ctx: ServerContext): void {
  if (ctx.caps.codeLensRefresh) ctx.connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
}

/** Run a handler; never throw to the client: log URI + error and return the fallback (vscode-eslint's pattern). A cancelled or
 * outdated request's answer (stillWanted) and the core's Cancelled go through. */
export async function safe<T>(ctx: ServerContext, what: string, uri: string, fallback: T, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isCancellation(err) || isUnwanted(err)) throw err;
    ctx.connection.console.error(`${what} failed for ${uri}: ${(err as Error).stack ?? err}`);
    return fallback;
  }
}

// setImmediate in Node; a browser's worker has none, and a zero timeout does the same there.
export const yieldToEventLoop: () => Promise<void> = typeof setImmediate === 'function'
  ? () => new Promise<void>((resolve) => setImmediate(resolve))
  : () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The answer to a request the client cancelled ($/cancelRequest), as VS Code's JSON server gives it (utils/runner.ts, cancelValue)
 * and LSP asks for: vscode-jsonrpc cancels the token, and the handler answers. */
export const requestCancelled = (): ResponseError => new ResponseError(LSPErrorCodes.RequestCancelled, 'Request cancelled');

/** The answer to a request whose document changed (or closed) after it arrived and before it was done: its positions were the
 * old text's. LSP's ContentModified: vscode-languageclient asks again for the requests in its staleRequestSupport
 * retryOnContentModified (semantic tokens) and drops the others quietly. */
const contentModified = (uri: string): ResponseError => new ResponseError(LSPErrorCodes.ContentModified, `The document changed before the request was answered: ${uri}`);

function isUnwanted(err: unknown): boolean {
  return err instanceof ResponseError && (err.code === LSPErrorCodes.RequestCancelled || err.code === LSPErrorCodes.ContentModified);
}

/**
 * Whether a request is still wanted, as it was when it arrived: called in the handler's first, synchronous part (the document's
 * version is then the one the request's positions are in), it returns a check that throws RequestCancelled once the client has
 * cancelled the request, and ContentModified once the document has changed or closed. Handlers call it after each await (a
 * settings round trip, a yield in a long loop): two field reads, nothing on the diagnostics path.
 */
export function stillWanted(ctx: ServerContext, uri: string, token: CancellationToken | undefined): () => void {
  const doc = ctx.documents.get(uri);
  const version = doc?.version;
  const text = doc?.getText();
  return () => {
    if (token?.isCancellationRequested) throw requestCancelled();
    const now = ctx.documents.get(uri);
    // The text too: a didChange may repeat the version (the document object is updated in place).
    if (now !== doc || now?.version !== version || now?.getText() !== text) throw contentModified(uri);
  };
}

/** Per document object, its current text and that text's stamp. */
const stamps = new WeakMap<TextDocument, { text: string; stamp: string }>();
/** Ties stamps to this server process: data made by another (a restarted server) never matches. */
const STAMP_PREFIX = Math.random().toString(36).slice(2, 8);
let stampCount = 0;

/**
 * A stamp of the document's text as this server saw it, for what travels through the client and comes back (a diagnostic's quick
 * fixes): the version alone does not say the text is the same, as a client may send another text under the same version (a
 * repeated didChange version, a second didOpen). The same text keeps its stamp (a pointer compare), any change gets a new one.
 */
export function textStamp(doc: TextDocument): string {
  const text = doc.getText();
  const hit = stamps.get(doc);
  if (hit && hit.text === text) return hit.stamp;
  const stamp = `${STAMP_PREFIX}.${++stampCount}`;
  stamps.set(doc, { text, stamp });
  return stamp;
}

export interface FeatureTarget { doc: TextDocument; kind: DocKind; s: Settings; check: () => void }

/** A request's document with its kind and settings, when the parse-driven features run on it (one of ours, under maxFileSizeKB).
 * With the request's token: throws RequestCancelled or ContentModified (stillWanted) instead of starting work nobody wants. */
export async function featureTarget(ctx: ServerContext, uri: string, token?: CancellationToken): Promise<FeatureTarget | undefined> {
  const check = stillWanted(ctx, uri, token);
  check();
  const doc = ctx.documents.get(uri);
  const kind = doc && kindOf(doc);
  if (!doc || !kind) return undefined;
  const s = await ctx.settings.get(doc.uri, doc.languageId);
  check();
  return tooLarge(doc, s) ? undefined : { doc, kind, s, check };
}
