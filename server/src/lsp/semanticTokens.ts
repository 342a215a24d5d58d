// textDocument/semanticTokens/full and /range: the embedded languages' colours (core/semanticTokens.ts) for editors that colour
// by the server (Neovim >= 0.9, Emacs lsp-mode, Zed). The VS Code extension colours them with its TextMate grammars and says so
// (initializationOptions.semanticTokens: false): the capability is left out for it. Computed only on request, from the parse the
// other features share. Decisions in docs/architecture.md, "Semantic tokens".
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SemanticModifier, SemanticToken, SemanticType } from '../core';
import { core, featureTarget, safe, type ServerContext } from './context';

// The legend is declared here, not imported from the core: initialize is answered before the core is loaded (context.ts).
const TYPES: readonly SemanticType[] = ['keyword', 'operator', 'function', 'variable', 'property', 'string', 'regexp', 'number'];
const MODIFIERS: readonly SemanticModifier[] = ['defaultLibrary', 'readonly'];
export const SEMANTIC_LEGEND: SemanticTokensLegend = { tokenTypes: [...TYPES], tokenModifiers: [...MODIFIERS] };

/** LSP's relative encoding (line delta, start delta, length, type, modifier bits), five numbers a token. A token that crosses a
 * line end (only in a JSON string left open, which jsonc-parser ends at its line) is cut at it: LSP tokens are single-line. */
export function encodeTokens(doc: TextDocument, tokens: readonly SemanticToken[]): number[] {
  const data: number[] = [];
  let line = 0;
  let char = 0;
  for (const t of tokens) {
    const type = TYPES.indexOf(t.type);
    let bits = 0;
    for (const m of t.modifiers ?? []) bits |= 1 << MODIFIERS.indexOf(m);
    const start = doc.positionAt(t.offset);
    const end = doc.positionAt(t.offset + t.length);
    for (let l = start.line; l <= end.line; l++) {
      const from = l === start.line ? start.character : 0;
      const to = l === end.line ? end.character : lineLength(doc, l);
      if (to <= from) continue;
      data.push(l - line, l === line ? from - char : from, to - from, type, bits);
      line = l;
      char = from;
    }
  }
  return data;
}

/** The characters of line l without its line break. */
function lineLength(doc: TextDocument, l: number): number {
  const text = doc.getText({ start: { line: l, character: 0 }, end: { line: l + 1, character: 0 } });
  return text.replace(/\r?\n$|\r$/, '').length;
}

export function registerSemanticTokens(ctx: ServerContext): void {
  const tokens = async (uri: string, range?: { start: { line: number; character: number }; end: { line: number; character: number } }): Promise<SemanticTokens> => {
    const t = await featureTarget(ctx, uri);
    if (!t) return { data: [] };
    const { doc, kind } = t;
    return safe(ctx, 'Semantic tokens', doc.uri, { data: [] }, () => {
      const span = range && { offset: doc.offsetAt(range.start), length: doc.offsetAt(range.end) - doc.offsetAt(range.start) };
      return { data: encodeTokens(doc, core().semanticTokens(kind, ctx.parses.get(doc), span)) };
    });
  };
  ctx.connection.languages.semanticTokens.on((params) => tokens(params.textDocument.uri));
  ctx.connection.languages.semanticTokens.onRange((params) => tokens(params.textDocument.uri, params.range));
}
