// One parse per document version. Valid JSON takes the fast path (JSON.parse, no tree); the jsonc-parser tree is built
// lazily, only when something must be located (a problem to report, a hover, a completion). In a large valid document whose bulk
// is one array (a batch, a ruleset's "rules"), positions come item by item (Window): locating a problem, a hover or a completion
// parses only the item concerned, and an edit inside an item (or of whitespace) keeps the other items' positions.
import {
  findNodeAtLocation, getLocation, parse as jsoncParse, parseTree, ParseErrorCode, type Location, type Node as JsonNode, type ParseError,
} from 'jsonc-parser';
import type { JsonPath, ParsedDoc, Problem, Span } from './types';
import { codeInfo } from './codes';
import { printable } from './messages';

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * The deepest nesting of arrays and objects the core checks. jsonc-parser, the schema validator and the rules all recurse once
 * per level, so a deeper document (`[[[[...` 100 000 times) would overflow the stack; it gets one limits/too-deep problem instead.
 */
export const MAX_NESTING = 512;

/**
 * Valid documents at least this long are positioned item by item (see Window) when their root is an array (a batch) or an object
 * with one array member holding most of the text (a ruleset's "rules").
 */
export const WINDOW_FROM = 64 * 1024;

export interface ParseOptions {
  /** Override WINDOW_FROM (tests use 0 to run every document through the item-by-item path). */
  windowFrom?: number;
  /**
   * The parse of an earlier version of the same document (the LSP cache passes it on an edit): when the edit stays inside one item
   * of its window, the item positions are shifted instead of scanning the whole text again. Nothing of it is kept.
   */
  previous?: ParsedDoc;
}

export function parseDocument(text: string, opts: ParseOptions = {}): ParsedDoc {
  // An edit inside one item of a large valid document re-parses that item alone (see Doc.edited).
  if (opts.previous instanceof Doc && text.length >= (opts.windowFrom ?? WINDOW_FROM)) {
    const edited = opts.previous.edited(text);
    if (edited) return edited;
  }
  let value: unknown;
  let fastOk = false;
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text);
      fastOk = true;
    } catch {
      /* fall through to the tolerant parser for errors and a recovered value */
    }
  }
  // V8's JSON.parse does not recurse on the native stack, so valid JSON is measured on its value (cheaper than scanning the text);
  // only a document that is too deep pays for the text scan that finds where. Invalid JSON is scanned before jsonc-parser recurses.
  const deep = fastOk
    ? (deeperThan(value, MAX_NESTING) ? Math.max(0, tooDeepAt(text, MAX_NESTING)) : -1)
    : text.length > MAX_NESTING ? tooDeepAt(text, MAX_NESTING) : -1;
  if (deep >= 0) {
    const problem: Problem = {
      code: 'limits/too-deep', severity: codeInfo('limits/too-deep').severity, offset: deep, length: 1,
      message: `The document nests arrays and objects more than ${MAX_NESTING} levels deep at "${text[deep]}"; it is not checked further.`,
    };
    return new Doc(text, undefined, [problem], true);
  }
  let syntax: Problem[] = [];
  if (!fastOk) {
    const errors: ParseError[] = [];
    value = jsoncParse(text, errors, PARSE_OPTIONS);
    syntax = syntaxProblems(text, errors);
  }
  const windowed = fastOk && typeof value === 'object' && value !== null && text.length >= (opts.windowFrom ?? WINDOW_FROM);
  const doc = new Doc(text, value, syntax, false, windowed);
  if (windowed && opts.previous instanceof Doc) doc.reuseWindow(opts.previous);
  return doc;
}

/** Whether a parsed JSON value nests arrays and objects more than limit levels deep (the root container is level 1). */
export function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return limit < 1 || exceeds(value, limit - 1);
}

/** Whether a container whose children may open `room` more levels has a descendant deeper than that. Recurses at most room times. */
function exceeds(v: object, room: number): boolean {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object' && x !== null && (room === 0 || exceeds(x, room - 1))) return true;
    }
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'object' && x !== null && (room === 0 || exceeds(x, room - 1))) return true;
  }
  return false;
}

/** Whether the document was too deep to parse (see MAX_NESTING): it has no value and no tree, and no feature may walk its text. */
export function isTooDeep(doc: ParsedDoc): boolean {
  return doc.syntax.some((p) => p.code === 'limits/too-deep');
}

/**
 * The offset of the first "[" or "{" that opens a level deeper than limit, or -1. A linear scan that skips strings and comments as
 * jsonc-parser's scanner does (a string ends at an unescaped quote or at a line break). It never undercounts what jsonc-parser
 * recurses into: a closer pops a level only when it matches the innermost opener, and openers the parser would skip still count.
 */
export function tooDeepAt(text: string, limit: number): number {
  const stack: number[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      stack.push(c);
      if (stack.length > limit) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      if (stack.length > 0 && stack[stack.length - 1] === c - 2) stack.pop();
    } else if (c === 0x22 /* " */) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22 || d === 0x0a || d === 0x0d) break;
        if (d === 0x5c /* \ */) i++;
      }
    } else if (c === 0x2f /* / */ && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d === 0x2f) {
        for (i += 2; i < n && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d; i++) { /* line comment */ }
      } else if (d === 0x2a /* * */) {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 1;
      }
    }
  }
  return -1;
}

class Doc implements ParsedDoc {
  private _tree: JsonNode | undefined | null = null;
  /** Item by item positions of a large document (see WINDOW_FROM); undefined when it has no array to window. */
  private _window: Window | undefined | null = null;
  constructor(readonly text: string, readonly value: unknown, readonly syntax: Problem[], private readonly tooDeep = false,
    private readonly windowed = false) {}

  tree(): JsonNode | undefined {
    if (this._tree === null) {
      this._tree = this.tooDeep ? undefined : parseTree(this.text, [], PARSE_OPTIONS);
      if (this._tree && this.syntax.length > 0) clampToText(this._tree, this.text.length);
    }
    return this._tree;
  }

  treeAlong(path: JsonPath): JsonNode | undefined {
    const w = this.window();
    if (!w) return this.tree();
    const root = w.root();
    const at = w.prefix.length;
    if (path.length > at && typeof path[at] === 'number' && (at === 0 || path[0] === w.prefix[0])) w.item(path[at] as number);
    return root;
  }

  treeAround(offset: number): JsonNode | undefined {
    const w = this.window();
    if (!w) return this.tree();
    const root = w.root();
    const i = w.itemAt(offset);
    if (i >= 0) w.item(i);
    return root;
  }

  locationAt(offset: number): Location {
    const w = this.window();
    if (w) {
      const i = w.itemAt(offset);
      // Strictly inside an item, the location depends on that item's text only; elsewhere (between items) scan the whole text.
      if (i >= 0 && offset > w.spans[2 * i] && offset < w.spans[2 * i + 1]) {
        const start = w.spans[2 * i];
        const loc = getLocation(this.text.slice(start, w.spans[2 * i + 1]), offset - start);
        const previousNode = loc.previousNode ? { ...loc.previousNode, offset: loc.previousNode.offset + start } : undefined;
        const path: JsonPath = [...w.prefix, i, ...loc.path];
        return {
          path, previousNode, isAtPropertyKey: loc.isAtPropertyKey,
          matches: (pattern) => matchesPath(path, pattern),
        };
      }
    }
    return getLocation(this.text, offset);
  }

  release(): void {
    this._tree = null;
    this._window = null;
  }

  locate(path: JsonPath, part: 'key' | 'value' = 'value'): Span {
    const inItem = this.window()?.locate(path, part);
    if (inItem) return inItem;
    const root = this.treeAlong(path);
    if (!root) return { offset: 0, length: Math.min(1, this.text.length) };
    for (let n = path.length; n >= 0; n--) {
      const node = findNodeAtLocation(root, n === path.length ? path : path.slice(0, n));
      if (!node) continue;
      if (n < path.length) {
        // The path does not exist (a missing property): point at the parent's key, or at its opening bracket.
        return parentAnchor(node);
      }
      if (part === 'key' && node.parent?.type === 'property') {
        const key = node.parent.children![0];
        return { offset: key.offset, length: key.length };
      }
      return { offset: node.offset, length: node.length };
    }
    return { offset: root.offset, length: 1 };
  }

  /**
   * The parse of `text`, an edit of this document, made without parsing all of it: when this version is valid and windowed and the
   * edit lies strictly inside one item whose new text JSON.parse accepts, or is whitespace between items. Undefined otherwise (the
   * caller parses the whole text). The value is this version's with the one item replaced (containers copied, nothing mutated).
   */
  edited(text: string): Doc | undefined {
    if (!this.windowed || this.tooDeep || this.syntax.length > 0 || typeof this.value !== 'object' || this.value === null) return undefined;
    // null: not looked for yet; undefined: this document has no array to window (then there is nothing to reuse either).
    const w = this._window === null ? Window.of(this.text) : this._window;
    const r = w?.edited(this.text, text, this.value);
    if (!r) return undefined;
    const doc = new Doc(text, r.value, [], false, true);
    doc._window = r.window;
    return doc;
  }

  /** Take over the item positions of an earlier version's window when they still hold (see Window.shifted). */
  reuseWindow(previous: Doc): void {
    const old = previous._window;
    if (old) this._window = old.shifted(previous.text, this.text) ?? null;
  }

  /** The window, unless the full tree exists already (it serves everything) or the document has none. */
  private window(): Window | undefined {
    if (this._tree !== null || !this.windowed) return undefined;
    if (this._window === null) this._window = Window.of(this.text);
    return this._window;
  }
}

/** jsonc-parser's Location.matches, for a path built here. */
function matchesPath(path: JsonPath, pattern: JsonPath): boolean {
  let k = 0;
  for (let i = 0; k < pattern.length && i < path.length; i++) {
    if (pattern[k] === path[i] || pattern[k] === '*') k++;
    else if (pattern[k] !== '**') return false;
  }
  return k === pattern.length;
}

/**
 * A tree of a valid JSON document whose one large array (the root, or the root object's member `prefix[0]`) has its items parsed
 * one at a time: `array.children[i]` is a childless stub (type, offset and length only) until item(i) replaces it with the item's
 * complete subtree, parsed from the item's slice of the text. Everything outside the array is complete.
 */
class Window {
  /** The items parsed so far (shifted to document offsets); `items[i].parent` is set once the tree exists. */
  private readonly items: (JsonNode | undefined)[];
  private skeleton: { root: JsonNode; array: JsonNode } | undefined;

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
    readonly spans: Int32Array) {
    this.items = new Array<JsonNode | undefined>(spans.length / 2);
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
      return new Window(text, this.prefix, move(this.open), move(this.close), spans);
    }
    const i = this.itemAt(p);
    if (i < 0 || p <= s[2 * i] || oldEnd >= s[2 * i + 1] || !isOneValue(text, s[2 * i], s[2 * i + 1] + delta)) return undefined;
    const spans = Int32Array.from(s);
    spans[2 * i + 1] += delta;
    for (let k = 2 * i + 2; k < spans.length; k++) spans[k] += delta;
    return new Window(text, this.prefix, this.open, this.close + delta, spans);
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
      return { window: new Window(text, this.prefix, this.open, this.close + delta, spans), value };
    }
    // Whitespace between items: j is the first item after the gap (p at an item's first character inserts before it).
    const j = i < 0 ? 0 : p >= s[2 * i + 1] ? i + 1 : p === s[2 * i] ? i : -1;
    if (j < 0) return undefined;
    const gapStart = j === 0 ? this.open + 1 : s[2 * j - 1];
    const gapEnd = j < count ? s[2 * j] : this.close;
    if (p < gapStart || oldEnd > gapEnd || !isSpace(oldText, p, oldEnd) || !isSpace(text, p, oldEnd + delta)) return undefined;
    const spans = Int32Array.from(s);
    for (let k = 2 * j; k < spans.length; k++) spans[k] += delta;
    return { window: new Window(text, this.prefix, this.open, this.close + delta, spans), value: oldValue };
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
    const node = this.item(path[at] as number);
    if (!node) return undefined;
    for (let n = path.length; n > at; n--) {
      const found = findNodeAtLocation(node, path.slice(at + 1, n));
      if (!found) continue;
      if (n < path.length) return parentAnchor(found);
      // The item's own node is a value of the array (never a property's): its key part is its value.
      if (part === 'key' && found.parent?.type === 'property') {
        const key = found.parent.children![0];
        return { offset: key.offset, length: key.length };
      }
      return { offset: found.offset, length: found.length };
    }
    return undefined;
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
        array = root && findNodeAtLocation(root, this.prefix);
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

function shift(root: JsonNode, by: number): void {
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const n = stack.pop()! as Mutable<JsonNode>;
    n.offset += by;
    if (n.colonOffset !== undefined) n.colonOffset += by;
    if (n.children) for (const c of n.children) stack.push(c);
  }
}

/**
 * The spans of the items of the array opened at `open` in VALID JSON, and the offset of its closing bracket. One linear scan that
 * jumps over strings with indexOf (in a batch most of the text is inside strings).
 */
export function itemSpans(text: string, open: number): { spans: Int32Array; close: number } {
  const out: number[] = [];
  const n = text.length;
  let depth = 0;
  let start = -1;
  let end = -1;
  let i = open + 1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x22 /* " */) {
      if (depth === 0 && start < 0) start = i;
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      i = q < 0 ? n : q;
      if (depth === 0) end = i + 1;
      continue;
    }
    if (depth === 0) {
      if (c === 0x2c /* , */) { out.push(start, end); start = -1; continue; }
      if (c === 0x5d /* ] */) { if (start >= 0) out.push(start, end); break; }
      if (start < 0) start = i;
    }
    if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) { if (--depth === 0) end = i + 1; }
    else if (depth === 0) end = i + 1;
  }
  return { spans: Int32Array.from(out), close: Math.min(i, n - 1) };
}

/** The length of the longest common prefix of a and b (binary search over slice comparisons, which run at memory speed). */
export function commonPrefix(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The length of the longest common suffix of a and b, at most max. */
export function commonSuffix(a: string, b: string, max: number): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Whether text[from, to) is JSON whitespace only (or empty). */
function isSpace(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** Whether text[from, to) (inside valid JSON) is exactly one value: brackets balanced, strings closed, no comma at its own level. */
function isOneValue(text: string, from: number, to: number): boolean {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      if (q < 0 || q >= to) return false;
      i = q;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth < 0) return false;
    } else if (c === 0x2c && depth === 0) {
      return false;
    }
  }
  return depth === 0;
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x0a || text.charCodeAt(i) === 0x0d || text.charCodeAt(i) === 0x09)) i++;
  return i;
}

/**
 * The largest array member of the object opened at `open` in VALID JSON: its key and the offsets of its brackets. Undefined when
 * there is none or when its key occurs twice (JSON.parse keeps the last duplicate, jsonc-parser's paths find the first).
 */
export function largestArrayMember(text: string, open: number): { key: string; open: number; close: number } | undefined {
  const n = text.length;
  const keys = new Set<string>();
  const duplicates = new Set<string>();
  let best: { key: string; open: number; close: number } | undefined;
  let depth = 0;
  let lastString = -1;
  let lastStringEnd = -1;
  let key = '';
  let arrayOpen = -1;
  for (let i = open + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let q = text.indexOf('"', i + 1);
      while (q > 0 && isEscaped(text, q)) q = text.indexOf('"', q + 1);
      if (depth === 0) { lastString = i; lastStringEnd = q; }
      i = q < 0 ? n : q;
      continue;
    }
    if (depth === 0 && c === 0x3a /* : */) {
      key = JSON.parse(text.slice(lastString, lastStringEnd + 1)) as string;
      if (keys.has(key)) duplicates.add(key);
      keys.add(key);
    } else if (c === 0x5b || c === 0x7b) {
      if (depth === 0 && c === 0x5b) arrayOpen = i;
      depth++;
    } else if (c === 0x5d || c === 0x7d) {
      if (depth === 0) break;
      if (--depth === 0 && arrayOpen >= 0) {
        if (!best || i - arrayOpen > best.close - best.open) best = { key, open: arrayOpen, close: i };
        arrayOpen = -1;
      }
    }
  }
  return best && !duplicates.has(best.key) ? best : undefined;
}

/** Whether the quote at q is escaped (preceded by an odd number of backslashes). */
function isEscaped(text: string, q: number): boolean {
  let k = 0;
  while (text.charCodeAt(q - 1 - k) === 0x5c) k++;
  return k % 2 === 1;
}

/**
 * jsonc-parser gives a container left open at the end of the text one code unit too many when trivia follows its last child
 * (`[1 /*` is 6 long in a 5-character text); no span may leave the text.
 */
function clampToText(root: JsonNode, length: number): void {
  const stack: JsonNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.offset + n.length > length) (n as { length: number }).length = Math.max(0, length - n.offset);
    for (const c of n.children ?? []) stack.push(c);
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

const SYNTAX_MESSAGES: Record<number, string> = {
  [ParseErrorCode.InvalidSymbol]: 'Unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'Invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'Expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'Expected a value',
  [ParseErrorCode.ColonExpected]: 'Expected ":" after the property name',
  [ParseErrorCode.CommaExpected]: 'Expected a comma',
  [ParseErrorCode.CloseBraceExpected]: 'Expected "}" to close the object',
  [ParseErrorCode.CloseBracketExpected]: 'Expected "]" to close the array',
  [ParseErrorCode.EndOfFileExpected]: 'Expected the end of the document',
  [ParseErrorCode.InvalidCommentToken]: 'Comments are not allowed in JSON',
  [ParseErrorCode.UnexpectedEndOfComment]: 'Unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'Unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'Unexpected end of number',
  [ParseErrorCode.InvalidUnicode]: 'Invalid unicode escape sequence',
  [ParseErrorCode.InvalidEscapeCharacter]: 'Invalid escape character in string',
  [ParseErrorCode.InvalidCharacter]: 'Invalid character in string (control characters must be escaped)',
};

function quote(s: string): string {
  const t = printable(s.length > 40 ? s.slice(0, 40) + '…' : s);
  return t.startsWith('"') ? t : `"${t}"`;
}

function syntaxProblems(text: string, errors: ParseError[]): Problem[] {
  if (text.trim() === '') {
    return [{ code: 'syntax/empty-document', severity: codeInfo('syntax/empty-document').severity, message: 'The document is empty; expected a JSON value.', offset: 0, length: 0 }];
  }
  const out: Problem[] = [];
  for (const e of errors) {
    let code = 'syntax/invalid-json';
    let offset = e.offset;
    let length = Math.max(e.length, 0);
    const token = text.substr(offset, Math.max(length, 1));
    let message: string;
    if (e.error === ParseErrorCode.InvalidCommentToken) {
      code = 'syntax/comment';
      message = 'Comments are not allowed in JSON.';
    } else if ((e.error === ParseErrorCode.ValueExpected || e.error === ParseErrorCode.PropertyNameExpected) && (text[offset] === ']' || text[offset] === '}')) {
      const comma = precedingNonSpace(text, offset);
      if (comma >= 0 && text[comma] === ',') {
        code = 'syntax/trailing-comma';
        message = `Trailing comma before "${text[offset]}".`;
        offset = comma;
        length = 1;
      } else {
        message = `${SYNTAX_MESSAGES[e.error]} before "${text[offset]}".`;
      }
    } else if (offset >= text.length) {
      message = `${SYNTAX_MESSAGES[e.error] ?? 'Invalid JSON'} at the end of the document.`;
      offset = text.length;
      length = 0;
    } else {
      message = `${SYNTAX_MESSAGES[e.error] ?? 'Invalid JSON'} ${e.error === ParseErrorCode.CommaExpected || e.error === ParseErrorCode.ColonExpected ? 'before' : 'at'} ${quote(token)}.`;
    }
    if (length === 0 && offset < text.length) length = 1;
    // jsonc-parser's scanner runs one past the end of an unterminated block comment ("0/*" reports 1+3 in 3 characters).
    offset = Math.min(offset, text.length);
    length = Math.min(length, text.length - offset);
    out.push({ code, severity: codeInfo(code).severity, message, offset, length });
    // Decision (docs/architecture.md): only the first syntax error is reported. jsonc-parser recovers, but what it reports after a
    // break (a lost quote, a missing bracket) is almost always a consequence of it, and a cascade of squiggles hides the real spot.
    break;
  }
  return out;
}

function precedingNonSpace(text: string, offset: number): number {
  let i = offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}
