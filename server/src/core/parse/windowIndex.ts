// The incremental index of a large valid document whose bulk is one array (a batch, a ruleset's "rules"): the items' spans,
// positions found item by item on demand (a problem's span by scanning its item along the path, a tree of the item when a feature
// needs nodes), and an edit inside one item (or of whitespace) applied by shifting the previous index instead of scanning the whole
// text again.
import { createScanner, parseTree, SyntaxKind, type JSONScanner, type Node as JsonNode } from 'jsonc-parser';
import type { JsonPath, Span } from '../types';
import { nodeAt } from './duplicates';
import { PARSE_OPTIONS, MAX_NESTING, deeperThan, itemSpans, commonPrefix, commonSuffix, isSpace, isOneValue, firstNonSpace, largestArrayMember } from './scanner';

/**
 * A tree of a valid JSON document whose one large array (the root, or the root object's member `prefix[0]`) has its items parsed
 * one at a time: `array.children[i]` is a childless stub (type, offset and length only) until item(i) replaces it with the item's
 * complete subtree, parsed from the item's slice of the text. Everything outside the array is complete.
 */
export class Window {
  /** The items parsed so far (shifted to document offsets); `items[i].parent` is set once the tree exists. */
  private readonly items: (JsonNode | undefined)[];
  /**
   * The spans scanLocate found in each item, by part and path, relative to the item's start: an item's text is the same in the
   * windows of later edits that did not touch it, so are these spans (issue 18: each edit of the batch with 100 errors scanned the
   * same 100 items again to place the same problems).
   */
  private readonly located: (Map<string, Span> | undefined)[];
  private skeleton: { root: JsonNode; array: JsonNode } | undefined;
  /** jsonc-parser's scanner over the text, for locate() on items that have no tree (made on first use, then repositioned). */
  private scanner: JSONScanner | undefined;

  /** The window of a valid document whose root is an array, or an object with an array member over half the text; else undefined. */
  static of(text: string): Window | undefined {
    const open = firstNonSpace(text);
    if (text.charCodeAt(open) === 0x5b /* [ */) {
      const { spans, close } = itemSpans(text, open);
      return new Window(text, [], open, close, spans);
    }
    const member = largestArrayMember(text, open);
    if (!member || member.close - member.open < text.length / 2) return undefined;
    return new Window(text, [member.key], member.open, member.close, itemSpans(text, member.open).spans);
  }

  /**
   * @param prefix path of the windowed array ([] or [key]); open, close: its brackets.
   * @param spans start, end (exclusive) of each item, interleaved.
   */
  private constructor(private readonly text: string, readonly prefix: JsonPath, private readonly open: number, private readonly close: number,
    readonly spans: Int32Array, carried?: Carried) {
    this.items = carried?.items ?? new Array<JsonNode | undefined>(spans.length / 2);
    this.located = carried?.located ?? new Array<Map<string, Span> | undefined>(spans.length / 2);
  }

  /**
   * The items parsed so far, for the window of an edit of this text that replaced [p, oldEnd) and moved what follows by delta: an item
   * before the edit keeps its subtree (the same nodes: nothing in them changed), an item after it gets a copy moved by delta, the item
   * the edit touched is parsed again on demand. Issue 18: each edit of the batch with 100 errors parsed the same 100 items again.
   * The spans located in an item the edit did not touch are kept as they are (they are relative to the item's start).
   */
  private carried(p: number, oldEnd: number, delta: number): Carried {
    const items = new Array<JsonNode | undefined>(this.items.length);
    const located = new Array<Map<string, Span> | undefined>(this.items.length);
    for (let k = 0; k < this.items.length; k++) {
      const node = this.items[k];
      const spans = this.located[k];
      if (!node && !spans) continue;
      if (this.spans[2 * k + 1] <= p) {
        items[k] = node;
        located[k] = spans;
      } else if (this.spans[2 * k] >= oldEnd) {
        if (node) items[k] = movedCopy(node, delta, undefined);
        located[k] = spans;
      }
    }
    return { items, located };
  }

  /**
   * This window for `text`, an edit of `oldText` (this window's text), when the edit provably moves no item boundary, else
   * undefined. Two cases: (1) only whitespace changes (valid JSON before and after, so it is between tokens or a space inside a
   * string): every offset after the edit moves by the change in length; (2) the edit lies strictly inside one item whose new text is
   * still one complete value: the text before is the same and the scan state after it is the same (outside any string, at the
   * array's level), so the items after it move by the change in length.
   */
  shifted(oldText: string, text: string): Window | undefined {
    const delta = text.length - oldText.length;
    const p = commonPrefix(oldText, text);
    const oldEnd = oldText.length - commonSuffix(oldText, text, Math.min(oldText.length, text.length) - p);
    const s = this.spans;
    if (isSpace(oldText, p, oldEnd) && isSpace(text, p, oldEnd + delta)) {
      const spans = Int32Array.from(s);
      for (let k = 0; k < spans.length; k += 2) {
        if (spans[k] >= oldEnd) spans[k] += delta;
        if (spans[k + 1] > oldEnd) spans[k + 1] += delta;
      }
      const move = (x: number): number => (x >= oldEnd ? x + delta : x);
      return new Window(text, this.prefix, move(this.open), move(this.close), spans, this.carried(p, oldEnd, delta));
    }
    const i = this.itemAt(p);
    if (i < 0 || p <= s[2 * i] || oldEnd >= s[2 * i + 1] || !isOneValue(text, s[2 * i], s[2 * i + 1] + delta)) return undefined;
    const spans = Int32Array.from(s);
    spans[2 * i + 1] += delta;
    for (let k = 2 * i + 2; k < spans.length; k++) spans[k] += delta;
    return new Window(text, this.prefix, this.open, this.close + delta, spans, this.carried(p, oldEnd, delta));
  }

  /**
   * The window and value of `text`, an edit of `oldText` (this window's text, whose parsed value is oldValue), when the edit lies
   * strictly inside item i and JSON.parse accepts the item's new text (then the whole text is valid JSON: the same tokens around one
   * valid value), or when it only changes whitespace between two items (the value is unchanged). Else undefined.
   */
  edited(oldText: string, text: string, oldValue: object): { window: Window; value: unknown } | undefined {
    const delta = text.length - oldText.length;
    const p = commonPrefix(oldText, text);
    const oldEnd = oldText.length - commonSuffix(oldText, text, Math.min(oldText.length, text.length) - p);
    const s = this.spans;
    const count = s.length / 2;
    const i = this.itemAt(p);
    const array = this.prefix.length === 0 ? oldValue : (oldValue as Record<string, unknown>)[this.prefix[0] as string];
    if (!Array.isArray(array) || array.length !== count) return undefined;
    if (i >= 0 && p > s[2 * i] && oldEnd < s[2 * i + 1]) {
      let item: unknown;
      try {
        item = JSON.parse(text.slice(s[2 * i], s[2 * i + 1] + delta));
      } catch {
        return undefined;
      }
      // The rest of the document was measured before; only the new item can be too deep (the full parse then reports where).
      if (deeperThan(item, MAX_NESTING - 1 - this.prefix.length)) return undefined;
      const spans = Int32Array.from(s);
      spans[2 * i + 1] += delta;
      for (let k = 2 * i + 2; k < spans.length; k++) spans[k] += delta;
      const items = array.slice();
      items[i] = item;
      const value = this.prefix.length === 0 ? items : { ...(oldValue as Record<string, unknown>), [this.prefix[0]]: items };
      return { window: new Window(text, this.prefix, this.open, this.close + delta, spans, this.carried(p, oldEnd, delta)), value };
    }
    // Whitespace between items: j is the first item after the gap (p at an item's first character inserts before it).
    const j = i < 0 ? 0 : p >= s[2 * i + 1] ? i + 1 : p === s[2 * i] ? i : -1;
    if (j < 0) return undefined;
    const gapStart = j === 0 ? this.open + 1 : s[2 * j - 1];
    const gapEnd = j < count ? s[2 * j] : this.close;
    if (p < gapStart || oldEnd > gapEnd || !isSpace(oldText, p, oldEnd) || !isSpace(text, p, oldEnd + delta)) return undefined;
    const spans = Int32Array.from(s);
    for (let k = 2 * j; k < spans.length; k++) spans[k] += delta;
    return { window: new Window(text, this.prefix, this.open, this.close + delta, spans, this.carried(p, oldEnd, delta)), value: oldValue };
  }

  /** The index of the last item starting at or before offset (-1 before the first). */
  itemAt(offset: number): number {
    let lo = 0;
    let hi = this.spans.length / 2 - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.spans[2 * mid] <= offset) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  /** The complete subtree of item i (undefined when there is no such item). */
  item(i: number): JsonNode | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.items.length) return undefined;
    let node = this.items[i];
    if (node) return node;
    const start = this.spans[2 * i];
    node = parseTree(this.text.slice(start, this.spans[2 * i + 1]), [], PARSE_OPTIONS);
    if (!node) return undefined;
    shift(node, start);
    this.items[i] = node;
    if (this.skeleton) {
      (node as Mutable<JsonNode>).parent = this.skeleton.array;
      this.skeleton.array.children![i] = node;
    }
    return node;
  }

  /**
   * The span locate(path, part) gives, computed on the item that path enters alone (no tree of the rest is built: this is the
   * diagnostics path); undefined when path does not enter an item (then the caller uses root()).
   */
  locate(path: JsonPath, part: 'key' | 'value'): Span | undefined {
    const at = this.prefix.length;
    if (path.length <= at || (at === 1 && path[0] !== this.prefix[0])) return undefined;
    const i = path[at] as number;
    if (!Number.isInteger(i) || i < 0 || i >= this.items.length) return undefined;
    const node = this.items[i];
    if (node) return locateInTree(node, path.slice(at + 1), part);
    const rel = path.slice(at + 1);
    const key = part + JSON.stringify(rel);
    const start = this.spans[2 * i];
    const known = this.located[i]?.get(key);
    if (known) return { offset: start + known.offset, length: known.length };
    const span = this.scanLocate(i, rel, part);
    (this.located[i] ??= new Map()).set(key, { offset: span.offset - start, length: span.length });
    return span;
  }

  /**
   * locate() in item i without building its tree (issue 18: the trees of the 100 items with a problem in the batch with errors took
   * 0.35-0.6 ms and 0.9 MB an open, and jsonc-parser's tree building stayed unoptimized for its first opens): jsonc-parser's scanner
   * reads the item's tokens along `rel`, the path inside the item, and stops where the path ends or leaves the document. The same
   * span as locateInTree: the node nodeAt finds (its key's span for part 'key' when it is a property's value), or for a
   * path that does not exist, the anchor of the deepest node that does (parentAnchor).
   */
  private scanLocate(i: number, rel: JsonPath, part: 'key' | 'value'): Span {
    const s = (this.scanner ??= createScanner(this.text, true));
    s.setPosition(this.spans[2 * i]);
    let token = s.scan();
    let key: Span | undefined;
    for (const segment of rel) {
      const child = typeof segment === 'string' ? enterMember(s, token, segment) : enterElement(s, token, segment);
      if (!child) return key ?? { offset: s.getTokenOffset(), length: 1 };
      token = child.token;
      key = child.key;
    }
    if (part === 'key' && key) return key;
    const offset = s.getTokenOffset();
    skipValue(s, token);
    return { offset, length: s.getTokenOffset() + s.getTokenLength() - offset };
  }

  /**
   * The document's tree with the array's items as childless stubs (type, offset and length only) but those parsed so far; for an
   * object root, everything outside the array comes from parsing the text with the items blanked out (offsets unchanged).
   */
  root(): JsonNode {
    if (!this.skeleton) {
      let root: JsonNode | undefined;
      let array: JsonNode | undefined;
      if (this.prefix.length === 0) {
        root = array = { type: 'array', offset: this.open, length: this.close + 1 - this.open };
      } else {
        const blanked = this.text.slice(0, this.open + 1) + ' '.repeat(this.close - this.open - 1) + this.text.slice(this.close);
        root = parseTree(blanked, [], PARSE_OPTIONS);
        array = root && nodeAt(root, this.prefix);
        if (!root || !array || array.type !== 'array' || array.offset !== this.open) throw new Error('the windowed array was not found');
      }
      const children: JsonNode[] = [];
      for (let i = 0, s = this.spans; i < s.length; i += 2) {
        const item = this.items[i / 2];
        if (item) (item as Mutable<JsonNode>).parent = array;
        children.push(item ?? { type: stubType(this.text.charCodeAt(s[i])), offset: s[i], length: s[i + 1] - s[i], parent: array });
      }
      (array as Mutable<JsonNode>).children = children;
      this.skeleton = { root, array };
    }
    return this.skeleton.root;
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What a window hands to the window of an edit: the item trees and the located spans of the items the edit did not touch. */
interface Carried { items: (JsonNode | undefined)[]; located: (Map<string, Span> | undefined)[] }

function stubType(c: number): JsonNode['type'] {
  switch (c) {
    case 0x7b: return 'object';
    case 0x5b: return 'array';
    case 0x22: return 'string';
    case 0x74: case 0x66: return 'boolean';
    case 0x6e: return 'null';
    default: return 'number';
  }
}

/** A copy of the subtree at node, every offset moved by delta, its root's parent `parent`. */
function movedCopy(node: JsonNode, delta: number, parent: JsonNode | undefined): JsonNode {
  const copy: Mutable<JsonNode> = { type: node.type, offset: node.offset + delta, length: node.length, parent };
  if (node.colonOffset !== undefined) copy.colonOffset = node.colonOffset + delta;
  if (node.value !== undefined) copy.value = node.value;
  if (node.children) copy.children = node.children.map((c) => movedCopy(c, delta, copy));
  return copy;
}

function shift(root: JsonNode, by: number): void {
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const n = stack.pop()! as Mutable<JsonNode>;
    n.offset += by;
    if (n.colonOffset !== undefined) n.colonOffset += by;
    if (n.children) for (const c of n.children) stack.push(c);
  }
}

/** Window.locate in an item's tree (`rel` is the path inside the item, the item's node is its root). */
function locateInTree(node: JsonNode, rel: JsonPath, part: 'key' | 'value'): Span {
  for (let n = rel.length; n > 0; n--) {
    const found = nodeAt(node, rel.slice(0, n));
    if (!found) continue;
    if (n < rel.length) return parentAnchor(found);
    if (part === 'key' && found.parent?.type === 'property') {
      const key = found.parent.children![0];
      return { offset: key.offset, length: key.length };
    }
    return { offset: found.offset, length: found.length };
  }
  // The item's own node is a value of the array (never a property's): its key part is its value.
  return rel.length === 0 ? { offset: node.offset, length: node.length } : parentAnchor(node);
}

// The scanner steps of Window.scanLocate, on VALID JSON with trivia skipped. Each starts with `token` the current token (the first
// token of a value) and, when it finds the child, leaves the scanner on the child's first token.

/**
 * The last member named `name` of the object whose `{` is the current token (the one JSON.parse keeps, as nodeAt takes it), with
 * its key's span.
 */
function enterMember(s: JSONScanner, token: SyntaxKind, name: string): { token: SyntaxKind; key: Span } | undefined {
  if (token !== SyntaxKind.OpenBraceToken) return undefined;
  const open = s.getTokenOffset();
  let found: { key: Span; value: number } | undefined;
  for (let t = s.scan(); t === SyntaxKind.StringLiteral; t = s.scan()) {
    const key = { offset: s.getTokenOffset(), length: s.getTokenLength() };
    const match = s.getTokenValue() === name;
    s.scan(); // the colon
    const value = s.scan();
    if (match) found = { key, value: s.getTokenOffset() };
    skipValue(s, value);
    if (s.scan() !== SyntaxKind.CommaToken) break;
  }
  // Back to the member's value (a later duplicate may have been looked for), or to the object's `{` when it has no such member (the
  // object is then the deepest node).
  s.setPosition(found ? found.value : open);
  const t = s.scan();
  return found ? { token: t, key: found.key } : undefined;
}

/** Element `index` of the array whose `[` is the current token. */
function enterElement(s: JSONScanner, token: SyntaxKind, index: number): { token: SyntaxKind; key: undefined } | undefined {
  if (token !== SyntaxKind.OpenBracketToken) return undefined;
  const open = s.getTokenOffset();
  if (Number.isInteger(index) && index >= 0) {
    for (let k = 0, t = s.scan(); t !== SyntaxKind.CloseBracketToken && t !== SyntaxKind.EOF; k++, t = s.scan()) {
      if (k === index) return { token: t, key: undefined };
      skipValue(s, t);
      if (s.scan() !== SyntaxKind.CommaToken) break;
    }
  }
  s.setPosition(open);
  s.scan();
  return undefined;
}

/** Moves the scanner to the last token of the value whose first token is the current one (its closing bracket for a container). */
function skipValue(s: JSONScanner, token: SyntaxKind): void {
  if (token !== SyntaxKind.OpenBraceToken && token !== SyntaxKind.OpenBracketToken) return;
  for (let depth = 1; depth > 0;) {
    const t = s.scan();
    if (t === SyntaxKind.EOF) return;
    if (t === SyntaxKind.OpenBraceToken || t === SyntaxKind.OpenBracketToken) depth++;
    else if (t === SyntaxKind.CloseBraceToken || t === SyntaxKind.CloseBracketToken) depth--;
  }
}

/** For a missing property: the key of the object's own property if it has one, else its `{` (length 1). */
export function parentAnchor(node: JsonNode): Span {
  if (node.parent?.type === 'property') {
    const key = node.parent.children![0];
    return { offset: key.offset, length: key.length };
  }
  return { offset: node.offset, length: 1 };
}
