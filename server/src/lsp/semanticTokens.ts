// textDocument/semanticTokens/full and /range: the embedded languages' colours (core/semanticTokens.ts) for editors that colour
// by the server (Neovim >= 0.9, Emacs lsp-mode, Zed). The VS Code extension colours them with its TextMate grammars and says so
// (initializationOptions.semanticTokens: false): the capability is left out for it. Computed only on request, from the parse the
// other features share. Decisions in docs/architecture.md, "Semantic tokens".
import type { CancellationToken, Range, SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { SemanticModifier, SemanticToken, SemanticType } from '../core';
import { core, featureTarget, safe, yieldToEventLoop, type ServerContext } from './context';

// The legend is declared here, not imported from the core: initialize is answered before the core is loaded (context.ts).
const TYPES: readonly SemanticType[] = ['keyword', 'operator', 'function', 'variable', 'property', 'string', 'regexp', 'number'];
const MODIFIERS: readonly SemanticModifier[] = ['defaultLibrary', 'readonly'];
export const SEMANTIC_LEGEND: SemanticTokensLegend = { tokenTypes: [...TYPES], tokenModifiers: [...MODIFIERS] };

/** LSP's relative encoding (line delta, start delta, length, type, modifier bits), five numbers a token, added one token at a time.
 * A token that crosses a line end (only in a JSON string left open, which jsonc-parser ends at its line) is cut at it: LSP tokens
 * are single-line. */
class TokenEncoder {
  readonly data: number[] = [];
  private line = 0;
  private char = 0;
  constructor(private readonly doc: TextDocument) {}

  add(t: SemanticToken): void {
    const { doc } = this;
    const type = TYPES.indexOf(t.type);
    let bits = 0;
    for (const m of t.modifiers ?? []) bits |= 1 << MODIFIERS.indexOf(m);
    const start = doc.positionAt(t.offset);
    const end = doc.positionAt(t.offset + t.length);
    for (let l = start.line; l <= end.line; l++) {
      const from = l === start.line ? start.character : 0;
      const to = l === end.line ? end.character : lineLength(doc, l);
      if (to <= from) continue;
      this.data.push(l - this.line, l === this.line ? from - this.char : from, to - from, type, bits);
      this.line = l;
      this.char = from;
    }
  }
}

export function encodeTokens(doc: TextDocument, tokens: readonly SemanticToken[]): number[] {
  const e = new TokenEncoder(doc);
  for (const t of tokens) e.add(t);
  return e.data;
}

/** The characters of line l without its line break. */
function lineLength(doc: TextDocument, l: number): number {
  const text = doc.getText({ start: { line: l, character: 0 }, end: { line: l + 1, character: 0 } });
  return text.replace(/\r?\n$|\r$/, '').length;
}

/** Embedded strings (a ruleset's expressions) between two looks at the request: about 5 ms of a 1.2 MB ruleset's 0.3 s. A document
 * with fewer never yields, so a screenful of a small ruleset costs what it did. */
const STEPS_PER_LOOK = 32;
/** Tokens encoded between two looks (about 5 ms; the 1.2 MB ruleset has 107 000). */
const TOKENS_PER_LOOK = 4096;

export function registerSemanticTokens(ctx: ServerContext): void {
  // Cancellable: VS Code and Neovim cancel a stale request on every keystroke, and a full request on a 1.2 MB ruleset is 0.3 s of
  // lexing and 0.1 s of encoding. The loop yields to the event loop every few steps, so that a $/cancelRequest (or a didChange)
  // is read, and answers RequestCancelled (or ContentModified) there (stillWanted).
  const tokens = async (uri: string, token: CancellationToken, range?: Range): Promise<SemanticTokens> => {
    const t = await featureTarget(ctx, uri, token);
    if (!t) return { data: [] };
    const { doc, kind, check } = t;
    return safe(ctx, 'Semantic tokens', doc.uri, { data: [] }, async () => {
      const span = range && { offset: doc.offsetAt(range.start), length: doc.offsetAt(range.end) - doc.offsetAt(range.start) };
      const all: SemanticToken[] = [];
      let steps = 0;
      for (const step of core().semanticTokenSteps(kind, ctx.parses.get(doc), span)) {
        for (const x of step) all.push(x);
        if (++steps % STEPS_PER_LOOK === 0) {
          await yieldToEventLoop();
          check();
        }
      }
      all.sort((a, b) => a.offset - b.offset);
      const encoder = new TokenEncoder(doc);
      for (let i = 0; i < all.length; i++) {
        encoder.add(all[i]);
        if ((i + 1) % TOKENS_PER_LOOK === 0 && i + 1 < all.length) {
          await yieldToEventLoop();
          check();
        }
      }
      return { data: encoder.data };
    });
  };
  ctx.connection.languages.semanticTokens.on((params, token) => tokens(params.textDocument.uri, token));
  ctx.connection.languages.semanticTokens.onRange((params, token) => tokens(params.textDocument.uri, token, params.range));
}
