// The editor features over the shared parse: completion, hover, quick fixes, code lenses, outline, smart selection, folding and
// formatting.
import type { CancellationToken, CodeAction, CodeActionParams, Command, Diagnostic, SelectionRange, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { APPLY_FIX_COMMAND } from '../protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Problem } from '../core';
import { CodeActionKind, ErrorCodes, InlayHintKind, MessageType, ResponseError, ShowMessageNotification } from './library';
import { core, coreModule, coreOptions, docPlace, featureTarget, kindOf, safe, stillWanted, textStamp, tooLarge, type ServerContext } from './context';
import { range, toTextEdit, utf8ColumnOffset } from './convert';
import type { Diagnostics } from './diagnostics';
import { documentSymbols, foldingRanges, symbolInformation, withSymbolKinds, formatDocument, toCodeLens, toCompletionItem, toHover, toSignatureHelp } from './features';
import { sampleLenses } from './filterSample';

/** The Fix All source action's kind, for editor.codeActionsOnSave: { "source.fixAll.edgekit": "explicit" } (or "source.fixAll"). */
export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.edgekit`;
const FIX_ALL_TITLE = 'Fix all auto-fixable problems (EdgeKit)';

/** One edit that turns the document's text into `next`: the span between their common prefix and suffix (the cursor and the
 * markers outside it stay where they are). */
function changedRegion(doc: TextDocument, next: string): TextEdit {
  const text = doc.getText();
  const start = coreModule().commonPrefix(text, next);
  const end = coreModule().commonSuffix(text, next, Math.min(text.length, next.length) - start);
  return { range: { start: doc.positionAt(start), end: doc.positionAt(text.length - end) }, newText: next.slice(start, next.length - end) };
}

/**
 * The code actions as the client takes them (LSP 3.8, codeActionLiteralSupport): CodeAction literals (VS Code, and every editor of
 * docs/editors.md); else Command[], each running APPLY_FIX_COMMAND with its edit and the text it was made for, when the client
 * applies edits the server sends (workspace.applyEdit); else none (vscode-eslint's server applies its fixes through commands and
 * workspace/applyEdit the same way).
 */
function asClientTakes(ctx: ServerContext, actions: CodeAction[]): (CodeAction | Command)[] {
  if (ctx.caps.codeActionLiterals) return actions;
  if (!announcesApplyFix(ctx.caps)) return [];
  return actions.flatMap((a) => {
    const uri = a.edit && (a.edit.changes ? Object.keys(a.edit.changes)[0] : (a.edit.documentChanges?.[0] as { textDocument?: { uri: string } } | undefined)?.textDocument?.uri);
    const doc = uri === undefined ? undefined : ctx.documents.get(uri);
    return doc ? [{ title: a.title, command: APPLY_FIX_COMMAND, arguments: [a.edit, doc.uri, doc.version, textStamp(doc)] }] : [];
  });
}

/** APPLY_FIX_COMMAND: asks the client to apply the fix's edit, when its document still has the text the fix was made for (a client
 * may run a command it was given long ago); else says so. Refused (InvalidParams, as an unknown command) to a client it was not
 * announced to, and for arguments that are not [an edit of the named document only, its URI, version, stamp]: the server
 * forwards only an edit of the kind it made. */
export async function applyFix(ctx: ServerContext, args: unknown[] | undefined): Promise<null> {
  if (!announcesApplyFix(ctx.caps)) throw new ResponseError(ErrorCodes.InvalidParams, `Unknown command "${APPLY_FIX_COMMAND}" (this client takes code actions as CodeAction literals, or does not apply edits: the command was not announced to it).`);
  const [edit, uri, version, stamp] = args ?? [];
  if (typeof uri !== 'string' || !editsOnly(edit, uri)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `${APPLY_FIX_COMMAND}: its arguments must be [an edit of one document, that document's URI, its version, a stamp], as its code action gave them, not ${coreModule().headOf(JSON.stringify(args) ?? 'undefined', 200)}.`);
  }
  const doc = ctx.documents.get(uri);
  if (!doc) {
    void ctx.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `The fix was made for ${docPlace(uri)}, which is not open any more: open it and ask for its code actions again.` });
    return null;
  }
  if (doc.version !== version || textStamp(doc) !== stamp) {
    void ctx.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `The fix was made for an earlier text of ${docPlace(doc.uri)}: ask for the document's code actions again.` });
    return null;
  }
  try {
    const r = await ctx.connection.workspace.applyEdit({ edit: edit as WorkspaceEdit });
    if (!r.applied) ctx.connection.console.error(`${APPLY_FIX_COMMAND}: the client did not apply the edit to ${doc.uri}${r.failureReason ? `: ${r.failureReason}` : ''}.`);
  } catch (err) {
    ctx.connection.console.error(`${APPLY_FIX_COMMAND}: the client answered workspace/applyEdit for ${doc.uri} with an error: ${(err as Error).message}`);
  }
  return null;
}

/** Whether APPLY_FIX_COMMAND is the client's way to run quick fixes (start.ts announces it then only). */
export function announcesApplyFix(caps: ServerContext['caps']): boolean {
  return !caps.codeActionLiterals && caps.applyEdit;
}

/** Whether edit is a WorkspaceEdit of text edits to uri's document only (changes, or documentChanges as asClientTakes gets them). */
function editsOnly(edit: unknown, uri: string): boolean {
  if (!edit || typeof edit !== 'object') return false;
  const { changes, documentChanges, ...rest } = edit as WorkspaceEdit;
  if (Object.keys(rest).length > 0 || (changes === undefined) === (documentChanges === undefined)) return false;
  const textEdits = (list: unknown) => Array.isArray(list) && list.every((e) => !!e && typeof e === 'object' && typeof (e as TextEdit).newText === 'string' && !!(e as TextEdit).range);
  if (changes !== undefined) {
    const uris = changes && typeof changes === 'object' ? Object.keys(changes) : [];
    return uris.length === 1 && uris[0] === uri && textEdits(changes[uri]);
  }
  return Array.isArray(documentChanges) && documentChanges.length === 1
    && (documentChanges[0] as { textDocument?: { uri?: unknown } }).textDocument?.uri === uri && textEdits((documentChanges[0] as { edits?: unknown }).edits);
}

export function registerFeatures(ctx: ServerContext, diagnostics: Diagnostics): void {
  const { connection, documents, parses, settings, caps } = ctx;

  connection.onCompletion(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Completion', doc.uri, [], () =>
      core().complete(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s)).map((e) => toCompletionItem(doc, e, caps)));
  });

  connection.onHover(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t) return null;
    const { doc, kind, s } = t;
    return safe(ctx, 'Hover', doc.uri, null, () => {
      const h = core().hover(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s));
      return h ? toHover(doc, h, caps) : null;
    });
  });

  connection.languages.inlayHint.on(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Inlay hints', doc.uri, [], () => {
      const start = doc.offsetAt(params.range.start);
      const hints = core().inlayHints(kind, parses.get(doc), { offset: start, length: doc.offsetAt(params.range.end) - start }, coreOptions(s));
      return hints.map((h) => ({ position: doc.positionAt(h.offset), label: h.label, kind: h.kind === 'parameter' ? InlayHintKind.Parameter : InlayHintKind.Type,
        paddingLeft: h.paddingLeft, paddingRight: h.paddingRight }));
    });
  });

  connection.onSignatureHelp(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t) return null;
    const { doc, kind, s } = t;
    return safe(ctx, 'Signature help', doc.uri, null, () => {
      const sig = core().signatureHelp(kind, parses.get(doc), doc.offsetAt(params.position), coreOptions(s));
      return sig ? toSignatureHelp(sig, caps) : null;
    });
  });

  // Quick fixes are not in the diagnostics (issue 18): each diagnostic's come from the problems kept for the current text
  // (Diagnostics.problemsOf), matched by code and place (currentFixes below). A diagnostic of an older version (its markers moved
  // with an edit before the next pull) gets this text's fixes or none: old offsets are never applied to new text.
  // With documentChanges, an edit names the version it was made for (a stale one is refused).
  connection.onCodeAction(async (params, token) => asClientTakes(ctx, await codeActions(params, token)));

  async function codeActions(params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
    const check = stillWanted(ctx, params.textDocument.uri, token);
    check();
    const doc = documents.get(params.textDocument.uri);
    const kind = doc && kindOf(doc);
    if (!doc || !kind) return [];
    const edit = (edits: TextEdit[]): WorkspaceEdit => (caps.documentChanges
      ? { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits }] }
      : { changes: { [doc.uri]: edits } });
    let current: Problem[] | undefined;
    // A diagnostic's fixes are those of the problem it reports in the current text's check (kept from the last check of the same
    // text, so usually no check runs): the one with its code, place and message, else its code and start (a client may have moved
    // a diagnostic of an older text, or reworded it), else, on the line before a final line break, the one with its code and message
    // on the line after it (a client clamped its range there).
    // A diagnostic made for another text finds the current text's fixes or none, never edits at stale offsets.
    const currentFixes = async (d: Diagnostic, code: string) => {
      current ??= await safe(ctx, 'Code actions', doc.uri, [] as Problem[], async () => {
        const s = await settings.get(doc.uri, doc.languageId);
        check();
        return diagnostics.problemsOf(doc, kind, s);
      });
      const problemAt = (offset: number, end: number | undefined, sameMessage = false) => {
        const atStart = current!.filter((p) => p.code === code && p.offset === offset && (!sameMessage || p.message === d.message));
        return atStart.find((q) => q.offset + q.length === end && q.message === d.message) ?? atStart[0];
      };
      // Neovim 0.7-0.9 send back vim.diagnostic's byte columns as characters (diagnostic_vim_to_lsp): read so when the characters
      // find nothing, or a line with letters outside ASCII before the diagnostic lost its fixes (rv27); its message unchanged, so
      // a problem with another message there is not the one it reports (an older text's diagnostic whose columns, read as bytes,
      // land on it)
      const bytes = () => { const start = utf8ColumnOffset(doc, d.range.start); return start === undefined ? undefined : problemAt(start, utf8ColumnOffset(doc, d.range.end), true); };
      // Last, a diagnostic on the line before a final line break: a problem at the end of such a text is sent on the LSP document's
      // last line, the empty one after it, which a client whose lines end at the line break (Neovim 0.7's buffer) has not, and its
      // get_next/get_prev clamp it to this line (lf17). The one problem of the code and message that starts on that empty line.
      const clamped = () => {
        const last = doc.lineCount - 2;
        if (d.range.start.line !== last || doc.positionAt(doc.getText().length).character !== 0) return undefined;
        const same = current!.filter((q) => q.code === code && q.message === d.message && doc.positionAt(q.offset).line > last);
        return same.length === 1 ? same[0] : undefined;
      };
      const p = problemAt(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)) ?? bytes() ?? clamped();
      return p?.fixes?.map((f) => ({ title: f.title, preferred: f.preferred, edits: f.edits.map((e) => toTextEdit(doc, e)) }));
    };
    const only = params.context.only;
    const wants = (k: string) => !only || only.some((o) => k === o || k.startsWith(o + '.'));
    const actions: CodeAction[] = [];
    // Fix all (ESLint's source.fixAll.eslint): asked for by kind, as editor.codeActionsOnSave and the Source Action menu do. Every
    // unambiguous fix, pass after pass (core fixAll), as one edit of the part of the text that changes.
    if (only && wants(FIX_ALL_KIND)) {
      const t = await featureTarget(ctx, doc.uri, token);
      const r = t && await safe(ctx, 'Fix all', doc.uri, undefined, () => core().fixAll(doc.getText(), kind, { ...coreOptions(t.s), parsed: parses.get(doc) }));
      if (r && r.fixed > 0) actions.push({ title: FIX_ALL_TITLE, kind: FIX_ALL_KIND, edit: edit([changedRegion(doc, r.text)]) });
    }
    if (!wants(CodeActionKind.QuickFix)) return actions;
    for (const d of params.context.diagnostics) {
      // A diagnostic without a range names no place to fix (Neovim 0.7's user_data.lsp keeps only code and data): skipped, not an
      // internal error for the whole request
      if (!d?.range?.start) continue;
      const code = typeof d.code === 'string' ? d.code : undefined;
      const fixes = code ? await currentFixes(d, code) : undefined;
      for (const f of fixes ?? []) {
        actions.push({ title: f.title, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: f.preferred, edit: edit(f.edits) });
      }
    }
    // Beside a problem's own fixes, when the document has two or more auto-fixable problems: fix them all (the fixes of this check
    // that do not overlap; the Fix All source action also runs the passes they reveal).
    if (params.context.diagnostics.length > 0) {
      const s = await settings.get(doc.uri, doc.languageId);
      check();
      current ??= tooLarge(doc, s) ? [] : await safe(ctx, 'Code actions', doc.uri, [] as Problem[], () => diagnostics.problemsOf(doc, kind, s));
      const fixes = core().autoFixes(current, doc.getText());
      if (fixes.count >= 2) actions.push({ title: FIX_ALL_TITLE, kind: CodeActionKind.QuickFix, edit: edit(fixes.edits.map((e) => toTextEdit(doc, e))) });
    }
    return actions;
  }

  connection.onCodeLens(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t || !t.s.codeLens.enabled) return [];
    const { doc, kind, s } = t;
    return safe(ctx, 'Code lenses', doc.uri, [], () => {
      const parsed = parses.get(doc);
      // A lens that runs one of EdgeKit's commands only for a client that has them; the others are plain facts.
      const lenses = core().lenses(kind, parsed, coreOptions(s)).flatMap((l) => (!l.command || caps.commands ? [l] : l.orText ? [{ ...l, command: undefined, args: undefined }] : []))
        .map((l) => toCodeLens(doc, l, caps.textLenses));
      return [...lenses, ...sampleLenses(ctx, doc, kind, parsed, coreOptions(s).logpushDataset)];
    });
  });

  // The nested outline for a client that declares it takes one (VS Code's JSON server chooses the same way), else the flat list.
  connection.onDocumentSymbol(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t) return [];
    return safe(ctx, 'Outline', t.doc.uri, [], () => {
      const symbols = withSymbolKinds(documentSymbols(t.doc, parses.get(t.doc)), caps.symbolKinds);
      return caps.hierarchicalSymbols ? symbols : symbolInformation(t.doc.uri, symbols);
    });
  });

  // Smart selection (Expand Selection): the JSON around the caret as VS Code's JSON editor expands it, and inside a rule's
  // expression or a job's filter string, their own structure first. One SelectionRange chain per position, innermost first.
  connection.onSelectionRanges(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    if (!t) return null;
    const { doc, kind } = t;
    return safe(ctx, 'Selection ranges', doc.uri, null, () => {
      const chains = core().selectionRanges(kind, parses.get(doc), params.positions.map((p) => doc.offsetAt(p)));
      return chains.map((spans, i) => spans.reduceRight<SelectionRange | undefined>((parent, s) => ({ range: range(doc, s), parent }), undefined)
        ?? { range: { start: params.positions[i], end: params.positions[i] } });
    });
  });

  connection.onFoldingRanges(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    return t ? safe(ctx, 'Folding', t.doc.uri, [], () => foldingRanges(t.doc, parses.get(t.doc))) : [];
  });

  // Formatting scans the whole text, so a document over edgekit.maxFileSizeKB gets no edits, as it gets no other feature.
  connection.onDocumentFormatting(async (params, token) => {
    const t = await featureTarget(ctx, params.textDocument.uri, token);
    return t ? safe(ctx, 'Formatting', t.doc.uri, [], () => formatDocument(t.doc, params.options)) : [];
  });

  connection.onDocumentRangeFormatting(async (params, token) => {
    const doc = (await featureTarget(ctx, params.textDocument.uri, token))?.doc;
    if (!doc) return [];
    const start = doc.offsetAt(params.range.start);
    return safe(ctx, 'Formatting', doc.uri, [], () => formatDocument(doc, params.options, { offset: start, length: doc.offsetAt(params.range.end) - start }));
  });
}
