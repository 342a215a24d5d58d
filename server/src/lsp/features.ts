// Editor features that need only the parse: outline, folding, formatting, and the conversions of core completions/hovers/lenses.
import type { CodeLens, Command, CompletionItem, DocumentSymbol, FoldingRange, Hover, MarkupContent, SignatureHelp, SymbolInformation, TextEdit } from 'vscode-languageserver';
import { CompletionItemKind, InsertTextFormat, MarkupKind, SymbolKind } from './library';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { format, type Node as JsonNode } from 'jsonc-parser';
import type { CompletionEntry, HoverInfo, Lens, ParsedDoc, SignatureInfo } from '../core';
import { LENS_TEXT_COMMAND } from '../protocol';
import { range } from './convert';
import { coreModule } from './context';

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  property: CompletionItemKind.Property, value: CompletionItemKind.Value, field: CompletionItemKind.Field,
  operator: CompletionItemKind.Operator, method: CompletionItemKind.Method, keyword: CompletionItemKind.Keyword,
  snippet: CompletionItemKind.Snippet, enum: CompletionItemKind.EnumMember, constant: CompletionItemKind.Constant,
};

/** The kinds a client that declares no valueSet takes: LSP 1.0's CompletionItemKind Text..Reference and SymbolKind File..Array. */
const BASE_KINDS: ReadonlySet<number> = new Set(Array.from({ length: 18 }, (_, i) => i + 1));

/** The kinds a client declares it takes (completion.completionItemKind.valueSet, documentSymbol.symbolKind.valueSet), else LSP
 * 1.0's. */
export function kindSet(valueSet: readonly number[] | undefined): ReadonlySet<number> {
  return Array.isArray(valueSet) ? new Set(valueSet) : BASE_KINDS;
}

/** Instead of a kind of LSP 3.x (after Reference, after Array) for a client that does not take it: an operator is a keyword, an
 * enum's value or a constant a value; a null in the outline a variable (as vscode-json-languageservice's outline names it). */
const COMPLETION_FALLBACK: Partial<Record<CompletionItemKind, CompletionItemKind>> = {
  [CompletionItemKind.Operator]: CompletionItemKind.Keyword, [CompletionItemKind.EnumMember]: CompletionItemKind.Value,
  [CompletionItemKind.Constant]: CompletionItemKind.Value,
};
const SYMBOL_FALLBACK: Partial<Record<SymbolKind, SymbolKind>> = { [SymbolKind.Null]: SymbolKind.Variable };

/** The kind itself when the client takes it (or takes any: no set), else its fallback when it takes that, else undefined. */
function kindFor<K extends number>(kind: K, taken: ReadonlySet<number> | undefined, fallback: Partial<Record<K, K>>): K | undefined {
  if (!taken || taken.has(kind)) return kind;
  const f = fallback[kind];
  return f !== undefined && taken.has(f) ? f : undefined;
}

/** The outline with each symbol's kind one the client takes: its fallback, else (a client whose own set has neither; it promised to
 * take an unknown kind gracefully) the fallback anyway, one of LSP 1.0's. */
export function withSymbolKinds(symbols: DocumentSymbol[], taken: ReadonlySet<number> | undefined): DocumentSymbol[] {
  if (!taken) return symbols;
  const walk = (list: DocumentSymbol[]): void => {
    for (const s of list) {
      if (!taken.has(s.kind)) s.kind = kindFor(s.kind, taken, SYMBOL_FALLBACK) ?? SYMBOL_FALLBACK[s.kind] ?? s.kind;
      if (s.children) walk(s.children);
    }
  };
  walk(symbols);
  return symbols;
}

/** What the client renders: snippets, markdown (from initialize; VS Code takes both), and the completion kinds it takes. */
export interface RenderCaps { snippets: boolean; markdownDocs: boolean; markdownHover: boolean; rangeFilter: boolean; completionKinds?: ReadonlySet<number> }
const FULL: RenderCaps = { snippets: true, markdownDocs: true, markdownHover: true, rangeFilter: true };

/** A JSON string's filterText ("ClientCountry", or \"ClientCountry\" inside a job's filter string) as a client that filters by the
 * word before the cursor matches it: unquoted. */
function wordFilterText(filterText: string | undefined): string | undefined {
  if (!filterText) return filterText;
  const m = /^(\\?)"([^"\\]*)\1"$/.exec(filterText);
  return m ? m[2] : filterText;
}

/** A snippet as the plain text it inserts for a client without snippets: placeholders keep their default text, a choice its first
 * option, tab stops go. One left-to-right pass over the LSP snippet syntax, so escapes (\$ \} \\ in text and defaults, \, \| \\ in
 * a choice) are read where they stand: "\$1" is the text "$1", and "${1:a\}b}" holds the default "a}b". A "$" that starts no tab
 * stop, placeholder or choice (a variable, or one left open) is kept as text, as VS Code's snippet parser does, in one pass. */
export function snippetToText(snippet: string): string {
  const n = snippet.length;
  let i = 0;
  const TABSTOP = /\$(\d+)/y;
  const OPEN = /\$\{(\d+)([}:|])/y;
  /** The first option of a choice "a,b|" (after "${1|"), with i left on the "}" after the closing "|"; undefined when malformed. */
  const choice = (): string | undefined => {
    const options: string[] = [''];
    while (i < n) {
      const c = snippet[i];
      const next = snippet[i + 1];
      if (c === '\\' && (next === ',' || next === '|' || next === '\\')) { options[options.length - 1] += next; i += 2; continue; }
      if (c === ',') { options.push(''); i++; continue; }
      if (c === '|') { i++; return snippet[i] === '}' ? options[0] : undefined; }
      options[options.length - 1] += c;
      i++;
    }
    return undefined;
  };
  // One frame per placeholder open at i: its opening "${1:" and the text of its default so far; the first frame is the snippet.
  const frames: { open: string; out: string }[] = [{ open: '', out: '' }];
  const text = (t: string): void => { frames[frames.length - 1].out += t; };
  while (i < n) {
    const c = snippet[i];
    const next = snippet[i + 1];
    if (c === '\\' && (next === '$' || next === '}' || next === '\\')) { text(next); i += 2; continue; }
    if (c === '}' && frames.length > 1) { const done = frames.pop()!; text(done.out); i++; continue; }
    if (c === '$') {
      TABSTOP.lastIndex = i;
      const stop = TABSTOP.exec(snippet);
      if (stop) { i += stop[0].length; continue; }
      OPEN.lastIndex = i;
      const open = OPEN.exec(snippet);
      if (open) {
        const start = i;
        i += open[0].length;
        if (open[2] === '}') continue;
        if (open[2] === ':') { frames.push({ open: open[0], out: '' }); continue; }
        const first = choice();
        if (first !== undefined) { text(first); i++; continue; }
        i = start; // a malformed choice: its "$" is text
      }
    }
    text(c);
    i++;
  }
  // Only the end of the snippet leaves a default without its "}", and the text up to there reads the same outside a placeholder:
  // a placeholder left open is its opening, as text, and what followed.
  while (frames.length > 1) { const open = frames.pop()!; text(open.open + open.out); }
  return frames[0].out;
}

/** Markdown as the plain text a client without markdown shows: code fences, bold and code marks and backslash escapes removed. */
export function markdownToPlain(md: string): string {
  return md
    .replace(/^```[^\n]*\n([\s\S]*?)\n```$/gm, '$1')
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    // A code span's backticks are not escaped ones: plainToMarkdown writes a plain backtick as \`.
    .replace(/(?<!\\)`([^`\n]+)(?<!\\)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()<>#+\-.!|~&=])/g, '$1');
}

export function toCompletionItem(doc: TextDocument, e: CompletionEntry, caps: RenderCaps = FULL): CompletionItem {
  // A kind the client does not take, and whose fallback it does not take either, is left out (CompletionItem.kind is optional).
  const item: CompletionItem = { label: e.label, kind: kindFor(KIND[e.kind], caps.completionKinds, COMPLETION_FALLBACK), detail: e.detail, sortText: e.sortText,
    filterText: caps.rangeFilter ? e.filterText : wordFilterText(e.filterText) };
  if (item.kind === undefined) delete item.kind;
  if (e.documentation) item.documentation = caps.markdownDocs ? { kind: MarkupKind.Markdown, value: e.documentation } : markdownToPlain(e.documentation);
  let text = e.insertText ?? e.label;
  if (e.snippet && caps.snippets) item.insertTextFormat = InsertTextFormat.Snippet;
  else if (e.snippet) text = snippetToText(text);
  if (e.replace) item.textEdit = { range: range(doc, e.replace), newText: text };
  else item.insertText = text;
  return item;
}

/** Signature help as LSP has it: parameters by offsets for clients that take them (else by their text), documentation in markdown
 * or plain text as the client reads it. */
export function toSignatureHelp(s: SignatureInfo, caps: { markdownSignature: boolean; labelOffsets: boolean }): SignatureHelp {
  const docOf = (md: string | undefined): MarkupContent | undefined => md === undefined ? undefined
    : caps.markdownSignature ? { kind: MarkupKind.Markdown, value: md } : { kind: MarkupKind.PlainText, value: markdownToPlain(md) };
  return {
    signatures: [{
      label: s.label, documentation: docOf(s.documentation),
      parameters: s.parameters.map((p) => ({ label: caps.labelOffsets ? p.label : s.label.slice(p.label[0], p.label[1]), documentation: docOf(p.documentation) })),
    }],
    activeSignature: 0,
    activeParameter: s.activeParameter,
  };
}

export function toHover(doc: TextDocument, h: HoverInfo, caps: RenderCaps = FULL): Hover {
  return { contents: caps.markdownHover ? { kind: MarkupKind.Markdown, value: h.markdown } : { kind: MarkupKind.PlainText, value: markdownToPlain(h.markdown) }, range: range(doc, h) };
}

export function toCodeLens(doc: TextDocument, l: Lens, plainText: boolean): CodeLens {
  return { range: range(doc, l), command: l.command ? { title: l.title, command: l.command, arguments: [doc.uri, ...(l.args ?? [])] } : infoCommand(l.title, plainText) };
}

/** An informational lens's command: "" for VS Code (plainText: it shows the title as text), else the server's own LENS_TEXT_COMMAND
 * with the title, which a client may run (protocol.ts). */
export function infoCommand(title: string, plainText: boolean): Command {
  return plainText ? { title, command: '' } : { title, command: LENS_TEXT_COMMAND, arguments: [title] };
}

/** The first n UTF-16 code units of s, never half an emoji (core/text.ts headOf). */
const cut = (s: string, n: number): string => coreModule().headOf(s, n);

/** An outline item's label: its index, and the first non-empty string of these members (a request's method, a rule's description...). */
const LABEL_KEYS = ['method', 'name', 'key', 'description', 'id'];

/** Text shown as a symbol name on one line: a line break as "↵" (vscode-json-languageservice's getKeyLabel does the same). */
const oneLine = (s: string): string => s.replace(/\r\n|[\r\n]/g, '↵');

/** A key as a symbol name: VS Code refuses a DocumentSymbol whose name is empty (and the whole outline with it), so an empty or
 * blank key is shown quoted, as vscode-json-languageservice's getKeyLabel shows it. */
function keyLabel(key: unknown): string {
  const name = oneLine(String(key));
  return name.trim() ? name : `"${name}"`;
}

function labelOf(index: number, member: (key: string) => unknown): string {
  for (const key of LABEL_KEYS) {
    const x = member(key);
    if (typeof x === 'string' && x.length > 0) return `${index}: ${oneLine(cut(x, 60))}`;
  }
  return String(index);
}

function symbolName(node: JsonNode, index: number): string {
  if (node.type !== 'object') return String(index);
  return labelOf(index, (key) => {
    // The last member with the key: the one JSON.parse keeps, as itemName reads it.
    let v: JsonNode | undefined;
    for (const p of node.children ?? []) if (p.children?.[0]?.value === key) v = p.children[1];
    return v?.type === 'string' ? v.value : undefined;
  });
}

const SYMBOL_KIND: Record<string, SymbolKind> = {
  object: SymbolKind.Module, array: SymbolKind.Array, string: SymbolKind.String, number: SymbolKind.Number,
  boolean: SymbolKind.Boolean, null: SymbolKind.Null,
};

/** Above this size the outline and folding list the top-level items only (from the item index: no full tree per edit). */
const SHALLOW_FROM = 256 * 1024;

function shallowRoot(parsed: ParsedDoc): JsonNode | undefined {
  return parsed.text.length >= SHALLOW_FROM ? parsed.treeAround(0) : parsed.tree();
}

function itemName(value: unknown, index: number): string {
  const v = Array.isArray(value) ? value[index] : undefined;
  return v && typeof v === 'object' && !Array.isArray(v) ? labelOf(index, (key) => (v as Record<string, unknown>)[key]) : String(index);
}

export function documentSymbols(doc: TextDocument, parsed: ParsedDoc, limit = 5000): DocumentSymbol[] {
  const root = shallowRoot(parsed);
  if (!root) return [];
  let budget = limit;
  const walk = (node: JsonNode): DocumentSymbol[] => {
    const out: DocumentSymbol[] = [];
    if (node.type === 'object') {
      for (const prop of node.children ?? []) {
        if (budget-- <= 0) break;
        const [k, v] = prop.children ?? [];
        if (!k || !v) continue;
        out.push({
          name: keyLabel(k.value), kind: SYMBOL_KIND[v.type] ?? SymbolKind.Property, range: range(doc, prop),
          selectionRange: range(doc, k), detail: v.type === 'string' || v.type === 'number' || v.type === 'boolean' ? cut(String(v.value), 60) : undefined,
          children: v.type === 'object' || v.type === 'array' ? walk(v) : undefined,
        });
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((item, i) => {
        if (budget-- <= 0) return;
        out.push({
          name: node === root && item.children === undefined ? itemName(parsed.value, i) : symbolName(item, i), kind: SYMBOL_KIND[item.type] ?? SymbolKind.Field, range: range(doc, item), selectionRange: range(doc, item),
          children: item.type === 'object' || item.type === 'array' ? walk(item) : undefined,
        });
      });
    }
    return out;
  };
  if (root.type === 'object' || root.type === 'array') return walk(root);
  return [];
}

/** The outline as SymbolInformation[] (LSP's shape for a client without hierarchicalDocumentSymbolSupport): each symbol in the
 * order of the nested outline, with its whole range as location and its parent's name as containerName. */
export function symbolInformation(uri: string, symbols: DocumentSymbol[]): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  const walk = (list: DocumentSymbol[], containerName?: string): void => {
    for (const s of list) {
      out.push({ name: s.name, kind: s.kind, location: { uri, range: s.range }, ...(containerName === undefined ? {} : { containerName }) });
      if (s.children) walk(s.children, s.name);
    }
  };
  walk(symbols);
  return out;
}

export function foldingRanges(doc: TextDocument, parsed: ParsedDoc, limit = 5000): FoldingRange[] {
  const root = shallowRoot(parsed);
  if (!root) return [];
  const out: FoldingRange[] = [];
  const starts = new Set<number>();
  const walk = (node: JsonNode) => {
    if (out.length >= limit) return;
    if (node.type === 'object' || node.type === 'array') {
      const start = doc.positionAt(node.offset).line;
      const end = doc.positionAt(node.offset + node.length).line;
      // The fold hides the lines after start up to the one before the closing bracket: none when the bracket is on the next line.
      // A line starts one range, the outer one (a walk visits it first), as in vscode-json-languageservice's jsonFolding.ts.
      if (end > start + 1 && !starts.has(start)) {
        starts.add(start);
        out.push({ startLine: start, endLine: end - 1 });
      }
    }
    for (const c of node.children ?? []) walk(c);
  };
  walk(root);
  return out;
}

export function formatDocument(doc: TextDocument, options: { tabSize: number; insertSpaces: boolean; insertFinalNewline?: boolean }, span?: { offset: number; length: number }): TextEdit[] {
  // The client's insertFinalNewline when it sends one (VS Code sends files.insertFinalNewline), else a final newline.
  const edits = format(doc.getText(), span, { tabSize: options.tabSize, insertSpaces: options.insertSpaces, eol: '\n', insertFinalNewline: options.insertFinalNewline ?? true });
  return edits.map((e) => ({ range: range(doc, e), newText: e.content }));
}
