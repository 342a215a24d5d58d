// The language server, whatever carries its messages: it creates the shared state, says what it can do for this client, and wires
// the handlers of lsp/ (diagnostics, features, custom requests). The entries are server/src/server.ts (Node: stdio or IPC) and
// server/src/browserServer.ts (a browser's Web Worker: vscode.dev, github.dev).
import type { InitializeResult } from 'vscode-languageserver';
import { CodeActionKind, ErrorCodes, MessageType, ResponseError, ShowMessageNotification, TextDocuments, TextDocumentSyncKind } from './library';
import { APPLY_FIX_COMMAND, jobScopeOf, LENS_TEXT_COMMAND, SetJobScopeNotification, type InitOptions } from '../protocol';
import { coreModule, DEFAULT_CAPS, refreshCodeLenses, type Connection, type ServerContext } from './context';
import { Diagnostics } from './diagnostics';
import { announcesApplyFix, applyFix, FIX_ALL_KIND, registerFeatures } from './handlers';
import { ParseCache } from './parseCache';
import { registerRequests } from './requests';
import { registerSemanticTokens, SEMANTIC_LEGEND } from './semanticTokens';
import { SettingsCache } from './settings';
import { DOCUMENTS } from './textDocument';
import { kindSet } from './features';
import { registerShutdownGate } from './shutdown';

/** Starts the server on the connection; the shared state is returned for the entry's own handlers (server.ts adds the Node-only ones). */
export function startServer(connection: Connection): ServerContext {
  const documents = new TextDocuments(DOCUMENTS);
  const caps: ServerContext['caps'] = { ...DEFAULT_CAPS };
  const ctx: ServerContext = {
    connection, documents, caps, samples: new Map(),
    parses: new ParseCache((d) => documents.get(d.uri) === d),
    settings: new SettingsCache(connection, () => caps.configuration),
  };
  const diagnostics = new Diagnostics(ctx);
  /** The workspace folders' URIs and names, and whether the client sends their changes (workspace.workspaceFolders). */
  let folders: { uri: string; name: string }[] = [];
  let folderChanges = false;

  // What the client can take decides how each feature answers (lsp-sample and VS Code's JSON server negotiate the same way): pulled
  // or pushed diagnostics, settings asked for or sent by the client, snippets, markdown, versioned edits.
  connection.onInitialize((params): InitializeResult => {
    const c = params.capabilities;
    const init = params.initializationOptions as InitOptions | undefined;
    caps.configuration = !!c.workspace?.configuration;
    caps.pullDiagnostics = !!c.textDocument?.diagnostic;
    // Each way of sending diagnostics has its own flag (LSP 3.17: textDocument.diagnostic.relatedInformation for pulled ones;
    // vscode-languageclient declares both).
    caps.relatedInformation = !!(caps.pullDiagnostics ? c.textDocument?.diagnostic?.relatedInformation : c.textDocument?.publishDiagnostics?.relatedInformation);
    caps.snippets = !!c.textDocument?.completion?.completionItem?.snippetSupport;
    caps.markdownHover = !!c.textDocument?.hover?.contentFormat?.includes('markdown');
    caps.markdownDocs = !!c.textDocument?.completion?.completionItem?.documentationFormat?.includes('markdown');
    caps.documentChanges = !!c.workspace?.workspaceEdit?.documentChanges;
    caps.codeActionLiterals = !!c.textDocument?.codeAction?.codeActionLiteralSupport;
    caps.applyEdit = !!c.workspace?.applyEdit;
    caps.hierarchicalSymbols = !!c.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport;
    caps.completionKinds = kindSet(c.textDocument?.completion?.completionItemKind?.valueSet);
    caps.symbolKinds = kindSet(c.textDocument?.documentSymbol?.symbolKind?.valueSet);
    const sigInfo = c.textDocument?.signatureHelp?.signatureInformation;
    caps.markdownSignature = !!sigInfo?.documentationFormat?.includes('markdown');
    caps.labelOffsets = !!sigInfo?.parameterInformation?.labelOffsetSupport;
    caps.codeLensRefresh = !!c.workspace?.codeLens?.refreshSupport;
    caps.diagnosticRefresh = !!c.workspace?.diagnostics?.refreshSupport;
    caps.docsUri = init?.docsUri;
    caps.commands = init?.commands === true;
    caps.rangeFilter = init?.rangeFilter === true;
    caps.textLenses = caps.commands || init?.textLenses === true;
    // The commands the server runs: an informational lens's text (not for the extension, which shows it as text), and the quick
    // fixes of a client that takes no CodeAction literals but applies edits.
    const commands = [...(caps.textLenses ? [] : [LENS_TEXT_COMMAND]), ...(announcesApplyFix(caps) ? [APPLY_FIX_COMMAND] : [])];
    // Only to a client that says it takes them, in the one format the server writes (LSP 3.17: formats holds 'relative'); eglot
    // 1.9, Helix and Neovim before 0.9 send no semanticTokens capability and are not offered the provider
    caps.semanticTokens = init?.semanticTokens !== false && !!c.textDocument?.semanticTokens?.formats?.includes('relative');
    // Settings under initializationOptions.settings (documented), or the "edgekit" section at its top (Helix sends its `config`).
    if (init?.settings !== undefined) ctx.settings.pushed(init.settings);
    else if (init?.edgekit !== undefined) ctx.settings.pushed({ edgekit: init.edgekit });
    // The folders, else (a client of LSP before 3.6, or one that sends null) the root it names: the documents under it share a scope.
    folders = (params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: '' }] : [])).map((f) => ({ uri: f.uri, name: f.name }));
    ctx.settings.setFolders(folders);
    folderChanges = !!c.workspace?.workspaceFolders;
    diagnostics.register(); // pull or push: known only now
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        ...(caps.pullDiagnostics ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {}),
        completionProvider: { triggerCharacters: ['"', ':', ' ', '.'], resolveProvider: false },
        hoverProvider: true,
        inlayHintProvider: true,
        // "(" and "," in a function call of an expression; "[" and "," in a request's params.
        signatureHelpProvider: { triggerCharacters: ['(', ',', '['], retriggerCharacters: [')', ']'] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        codeLensProvider: { resolveProvider: false },
        ...(commands.length ? { executeCommandProvider: { commands } } : {}),
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        selectionRangeProvider: true,
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        // The embedded languages' colours for editors that colour by the server; not for the VS Code extension (its grammars).
        ...(caps.semanticTokens ? { semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true, range: true } } : {}),
        // Folders added or removed later change which settings a document gets (settings.ts asks per folder).
        ...(folderChanges ? { workspace: { workspaceFolders: { supported: true, changeNotifications: true } } } : {}),
      },
    };
  });

  // The core is loaded now, between the reply to initialize and the first document (context.ts, coreModule). A core that cannot
  // load is logged once; what follows is the entry's choice (whenCoreFails).
  connection.onInitialized(() => {
    if (folderChanges) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        const removed = new Set(e.removed.map((f) => f.uri));
        folders = [...folders.filter((f) => !removed.has(f.uri)), ...e.added.map((f) => ({ uri: f.uri, name: f.name }))];
        ctx.settings.setFolders(folders);
        diagnostics.clear();
        diagnostics.refresh();
        refreshCodeLenses(ctx);
      });
    }
    try {
      coreModule();
    } catch (err) {
      connection.console.error((err as Error).message);
    }
  });

  connection.onDidChangeConfiguration((params) => {
    // A client without workspace/configuration sends the settings themselves (VS Code sends null and is asked again); one with it
    // may send an "edgekit" section too (Neovim sends its `settings`), which counts where its answer to the request is null.
    const sent = params.settings as unknown;
    if (!caps.configuration || (sent && typeof sent === 'object' && 'edgekit' in sent)) ctx.settings.pushed(sent);
    ctx.settings.clear();
    diagnostics.clear();
    diagnostics.refresh();
    refreshCodeLenses(ctx);
  });

  // Where a job document's job lives, as the client knows it: the document is checked again as a job of that scope (or of none).
  connection.onNotification(SetJobScopeNotification.method, (params: unknown) => {
    const p = (params && typeof params === 'object' ? params : {}) as { uri?: unknown; scope?: unknown };
    const scope = jobScopeOf(p.scope);
    if (typeof p.uri !== 'string' || (scope === undefined && p.scope !== null)) {
      connection.console.error(`${SetJobScopeNotification.method} ignored: its params must be { "uri": string, "scope": "zone", "account" or null }, not ${coreModule().headOf(JSON.stringify(params) ?? 'undefined', 200)}.`);
      return;
    }
    if (!ctx.settings.setJobScope(p.uri, scope)) return;
    diagnostics.drop(p.uri);
    diagnostics.refresh(p.uri);
  });

  // Running an informational lens shows its text (Neovim's codelens.run() on the lens's line); running a quick fix's command
  // applies its edit (handlers.ts, applyFix).
  connection.onExecuteCommand((params) => {
    if (params.command === APPLY_FIX_COMMAND) return applyFix(ctx, params.arguments);
    if (params.command !== LENS_TEXT_COMMAND) throw new ResponseError(ErrorCodes.InvalidParams, `Unknown command "${params.command}" (EdgeKit's server runs ${LENS_TEXT_COMMAND} and ${APPLY_FIX_COMMAND} only).`);
    const text = params.arguments?.[0];
    // A notification: window.showInformationMessage would send window/showMessageRequest, which waits for an answer.
    if (typeof text === 'string' && text) void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message: text });
    return null;
  });

  documents.onDidClose((e) => {
    ctx.parses.drop(e.document.uri);
    ctx.samples.delete(e.document.uri);
    diagnostics.drop(e.document.uri);
  });

  registerFeatures(ctx, diagnostics);
  registerRequests(ctx, diagnostics);
  registerSemanticTokens(ctx);
  registerShutdownGate(connection);

  documents.listen(connection);
  connection.listen();
  return ctx;
}
