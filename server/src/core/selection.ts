// Smart selection (LSP textDocument/selectionRange: VS Code's Expand Selection, Shift+Alt+Right): from the caret outwards, the
// spans a user would select one after the other. The JSON part follows vscode-json-languageservice's getSelectionRanges (a
// literal; a string's, object's or array's contents, then the whole of it; a member; a member or an item with its comma), so
// that EdgeKit's documents expand as the JSON editor's do; a kind adds the spans inside a string that it understands (a rule's
// expression, a job's filter string) in front of them.
import type { DocKind, ParsedDoc, Span } from './types';
import { PLUGINS } from './plugins';
import { isTooDeep } from './parse';
import { jsonSelection } from './jsonTree';

/** The spans around each offset, innermost first, each containing the one before it (an offset outside every value: the whole
 * text, or nothing in an empty one). */
export function selectionRanges(kind: DocKind, doc: ParsedDoc, offsets: readonly number[]): Span[][] {
  const deep = isTooDeep(doc); // jsonc-parser's findNodeAtOffset recurses through every level
  return offsets.map((offset) => {
    const inner = deep ? [] : PLUGINS[kind].selectionRanges?.(doc, offset) ?? [];
    const json = deep ? [] : jsonSelection(doc.treeAround(offset), doc.text, offset);
    return nested([...inner, ...json, { offset: 0, length: doc.text.length }], offset);
  });
}

/**
 * Drops the spans equal to the one before them or not containing it: each must contain its child (LSP requires it), and the first
 * the caret (VS Code's SelectionRangeAdapter refuses the whole answer otherwise). A caret inside an escape sequence (between the
 * "\" and the '"' of \") maps to a decoded offset whose spans can end before it.
 */
function nested(spans: Span[], offset: number): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    const prev = out[out.length - 1];
    if (s.length < 0) continue;
    if (!prev && !(s.offset <= offset && offset <= s.offset + s.length)) continue;
    if (prev && !(s.offset <= prev.offset && s.offset + s.length >= prev.offset + prev.length && s.length > prev.length)) continue;
    out.push(s);
  }
  return out;
}
