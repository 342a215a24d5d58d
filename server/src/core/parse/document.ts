// The lazy document (ParsedDoc): one parse per version. Valid JSON takes the fast path (JSON.parse, no tree); the jsonc-parser tree
// is built only when something must be located (a problem to report, a hover, a completion), item by item for large documents
// (windowIndex.ts). parseDocument is the entry point.
import { createScanner, getLocation, parse as jsoncParse, parseTree, SyntaxKind, type Location, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { JsonPath, ParsedDoc, Problem, Span } from '../types';
import { codeInfo } from '../codes';
import { PARSE_OPTIONS, MAX_NESTING, deeperThan, tooDeepAt } from './scanner';
import { Window, parentAnchor } from './windowIndex';
import { syntaxProblems } from './syntaxErrors';
import { cap } from '../text';
import { THE_DOCUMENT } from '../messages';
import { duplicateMembers, mayHaveDuplicates, nodeAt, type DuplicateMember } from './duplicates';

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
   * of its window, the item positions are shifted instead of scanning the whole text again; the results it kept (ParsedDoc.reuse)
   * are looked up before computing. Nothing else of it is kept.
   */
  previous?: ParsedDoc;
  /** What problem messages call the parsed text: "the document" unless told ("the filter string" for a job's embedded filter). */
  rootName?: string;
}

export function parseDocument(text: string, opts: ParseOptions = {}): ParsedDoc {
  // A UTF-8 byte order mark is not part of the JSON (RFC 8259 §8.1 lets a parser ignore it; the CLI strips it): read as a space,
  // so that every offset stays the client's.
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = ` ${text.slice(1)}`;
  // An edit inside one item of a large valid document re-parses that item alone (see Doc.edited).
  if (opts.previous instanceof Doc && text.length >= (opts.windowFrom ?? WINDOW_FROM)) {
    const edited = opts.previous.edited(text);
    if (edited) return edited.after(opts.previous);
  }
  const doc = parseWhole(text, opts, bom);
  if (opts.previous) doc.edit = true;
  return opts.previous instanceof Doc ? doc.after(opts.previous) : doc;
}

/** bom: the text's first character, a space, stands for a byte order mark (the syntax repairs read the lines after it). */
function parseWhole(text: string, opts: ParseOptions, bom = false): Doc {
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
  const root = opts.rootName ?? THE_DOCUMENT;
  if (deep >= 0) {
    const problem: Problem = {
      code: 'limits/too-deep', severity: codeInfo('limits/too-deep').severity, offset: deep, length: 1,
      message: `${cap(root)} nests arrays and objects more than ${MAX_NESTING} levels deep at "${text[deep]}"; it is not checked further.`,
    };
    return new Doc(text, undefined, [problem], true);
  }
  let syntax: Problem[] = [];
  if (!fastOk) {
    const errors: ParseError[] = [];
    value = jsoncParse(text, errors, PARSE_OPTIONS);
    syntax = syntaxProblems(text, errors, root, bom);
    if (ESCAPED_ASTRAL.test(text)) value = jsoncParse(astralEscapesWhole(text), [], PARSE_OPTIONS);
  }
  const windowed = fastOk && typeof value === 'object' && value !== null && text.length >= (opts.windowFrom ?? WINDOW_FROM);
  const doc = new Doc(text, value, syntax, false, windowed);
  if (windowed && opts.previous instanceof Doc) doc.reuseWindow(opts.previous);
  return doc;
}

/** An escape JSON does not have before a character beyond the BMP ("\😀"): jsonc-parser reads a bad escape as nothing, but drops
 * one UTF-16 unit, so the value kept the emoji's low surrogate alone ("\ude00", which every message quoting it showed). */
const ESCAPED_ASTRAL = /\\[\ud800-\udbff][\udc00-\udfff]/;

/** The text with each such escape written "\d" (another escape JSON does not have, which jsonc-parser drops whole): what the
 * parser's value should be, the escape dropped as "\d" is. The escapes are read left to right, so "\\😀" (an escaped backslash,
 * then the emoji) stays as it is. Offsets change: for values only. */
function astralEscapesWhole(text: string): string {
  return text.replace(/\\([\ud800-\udbff][\udc00-\udfff]|[^])/g, (m: string, c: string) => (c.length === 2 ? '\\d' : m));
}

/** The tree's string values (keys too) read with such escapes dropped whole, from each string's own text. */
function wholeStringValues(node: JsonNode, text: string): void {
  if (node.type === 'string') {
    const literal = text.slice(node.offset, node.offset + node.length);
    if (ESCAPED_ASTRAL.test(literal)) (node as { value: unknown }).value = jsoncParse(astralEscapesWhole(literal), [], PARSE_OPTIONS);
  }
  for (const c of node.children ?? []) wholeStringValues(c, text);
}

/** Whether the document was too deep to parse (see MAX_NESTING): it has no value and no tree, and no feature may walk its text. */
export function isTooDeep(doc: ParsedDoc): boolean {
  return doc.syntax.some((p) => p.code === 'limits/too-deep');
}

/** Each root member located by scanning the text costs a scan up to it: many of them (an object with 100,000 unknown members) would
 * make a check quadratic, so past this many the position tree is built once instead. */
const ROOT_SCANS = 64;

class Doc implements ParsedDoc {
  private _tree: JsonNode | undefined | null = null;
  /** Item by item positions of a large document (see WINDOW_FROM); undefined when it has no array to window. */
  private _window: Window | undefined | null = null;
  /** See ParsedDoc.edit. */
  edit = false;
  /** Root members located by a scan of the text (see locate); past ROOT_SCANS, the tree is cheaper. */
  private rootScans = 0;
  /** See duplicateKeys; null until asked for. */
  private _duplicates: Problem[] | null = null;
  /** The results of reuse() for this version, and those of the version before it (none of its other state). */
  private readonly kept = new Map<string, unknown>();
  private prior: ReadonlyMap<string, unknown> | undefined;

  constructor(readonly text: string, readonly value: unknown, readonly syntax: Problem[], private readonly tooDeep = false,
    private readonly windowed = false) {}

  tree(): JsonNode | undefined {
    if (this._tree === null) {
      this._tree = this.tooDeep ? undefined : parseTree(this.text, [], PARSE_OPTIONS);
      if (this._tree && this.syntax.length > 0) clampToText(this._tree, this.text.length);
      if (this._tree && this.syntax.length > 0 && ESCAPED_ASTRAL.test(this.text)) wholeStringValues(this._tree, this.text);
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
        return keyOnlyOnProperties({
          path, previousNode, isAtPropertyKey: loc.isAtPropertyKey,
          matches: (pattern) => matchesPath(path, pattern),
        });
      }
    }
    return keyOnlyOnProperties(getLocation(this.text, offset));
  }

  release(): void {
    this._tree = null;
    this._window = null;
  }

  locate(path: JsonPath, part: 'key' | 'value' = 'value'): Span {
    const inItem = this.window()?.locate(path, part);
    if (inItem) return inItem;
    // A member of the root object (a filter's "where", a job's "filter"): found by scanning up to it, without building the whole
    // position tree that nothing else may need (issue 18: the tree was most of a 10 KB job's check). Valid text only; the same span.
    if (path.length === 1 && typeof path[0] === 'string' && this._tree === null && !this.windowed && ++this.rootScans <= ROOT_SCANS && this.syntax.length === 0 && !this.tooDeep
      && this.value !== null && typeof this.value === 'object' && !Array.isArray(this.value) && Object.prototype.hasOwnProperty.call(this.value, path[0])
      && this.duplicateKeys().length === 0) {
      const m = rootMember(this.text, path[0], part);
      if (m) return m;
    }
    const root = this.treeAlong(path);
    if (!root) return { offset: 0, length: Math.min(1, this.text.length) };
    for (let n = path.length; n >= 0; n--) {
      const node = nodeAt(root, n === path.length ? path : path.slice(0, n));
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

  duplicateKeys(): Problem[] {
    if (this._duplicates === null) {
      this._duplicates = [];
      // Valid JSON that is not windowed (duplicates.ts says why); most documents have no duplicate, which counting colons shows
      // without building the position tree.
      if (!this.windowed && !this.tooDeep && this.syntax.length === 0 && this.value !== null && typeof this.value === 'object'
        && mayHaveDuplicates(this.text, this.value)) {
        const root = this.tree();
        if (root) this._duplicates = duplicateMembers(root).map(duplicateProblem);
      }
    }
    return this._duplicates;
  }

  /** This parse, as the next version of previous: its kept results are looked up by reuse(). */
  after(previous: Doc): this {
    this.prior = previous.kept;
    return this;
  }

  reuse<T>(parts: readonly string[], compute: () => T): T {
    // Each part after its length: parts of any text (a header's name, a phase, all of them the document's) make distinct keys.
    // Joined with a separator, a name holding it took another site's result ("h\u0000x" + "e" and "h" + "x\u0000e").
    let key = '';
    for (const p of parts) key += `${p.length}:${p}`;
    if (this.kept.has(key)) return this.kept.get(key) as T;
    const v = this.prior?.has(key) ? this.prior.get(key) as T : compute();
    this.kept.set(key, v);
    return v;
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
    doc.edit = true;
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

/**
 * A location at a property key has the key's name last in its path; jsonc-parser's getLocation leaves isAtPropertyKey set after an
 * empty object (`[{}, "x"]` says the "x" is a key), so a path ending in an array index is never at a key.
 */
function keyOnlyOnProperties(loc: Location): Location {
  return loc.isAtPropertyKey && typeof loc.path[loc.path.length - 1] === 'number' ? { ...loc, isAtPropertyKey: false } : loc;
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

/**
 * The first member named `key` of the root object of a valid text (used only when the document has no duplicate key, so it is
 * also the one JSON.parse keeps): the key's span (quotes included) or its value's. The key's is found without scanning the value
 * (a filter's "where" holds all of it). Undefined when the text does not read as expected.
 */
function rootMember(text: string, key: string, part: 'key' | 'value'): Span | undefined {
  const s = createScanner(text, true);
  let depth = 0;
  let expectKey = false;
  for (let t = s.scan(); t !== SyntaxKind.EOF; t = s.scan()) {
    switch (t) {
      case SyntaxKind.OpenBraceToken:
        depth++;
        expectKey = depth === 1;
        break;
      case SyntaxKind.OpenBracketToken:
        depth++;
        expectKey = false;
        break;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        depth--;
        expectKey = false;
        break;
      case SyntaxKind.CommaToken:
        expectKey = depth === 1;
        break;
      case SyntaxKind.StringLiteral: {
        if (!(depth === 1 && expectKey)) break;
        expectKey = false;
        if (s.getTokenValue() !== key) break;
        const keySpan = { offset: s.getTokenOffset(), length: s.getTokenLength() };
        if (s.scan() !== SyntaxKind.ColonToken) return undefined;
        if (part === 'key') return keySpan;
        const v = s.scan();
        const start = s.getTokenOffset();
        if (v === SyntaxKind.OpenBraceToken || v === SyntaxKind.OpenBracketToken) {
          for (let d = 1; d > 0;) {
            const u = s.scan();
            if (u === SyntaxKind.EOF) return undefined;
            if (u === SyntaxKind.OpenBraceToken || u === SyntaxKind.OpenBracketToken) d++;
            else if (u === SyntaxKind.CloseBraceToken || u === SyntaxKind.CloseBracketToken) d--;
          }
        } else if (v === SyntaxKind.EOF || v === SyntaxKind.CommaToken || v === SyntaxKind.CloseBraceToken) {
          return undefined;
        }
        return { offset: start, length: s.getTokenOffset() + s.getTokenLength() - start };
      }
      default:
        expectKey = false;
    }
  }
  return undefined;
}

/** The warning on a member that a later one with the same key overrides, with a fix that removes it. */
function duplicateProblem(d: DuplicateMember): Problem {
  const key = d.ignored.children![0];
  const keptKey = d.kept.children![0];
  const siblings = d.ignored.parent!.children!;
  // The ignored member is never the object's last (a later one overrides it): it goes with everything up to the next member.
  const next = siblings[siblings.indexOf(d.ignored) + 1];
  const name = JSON.stringify(d.key);
  return {
    code: 'syntax/duplicate-key', severity: codeInfo('syntax/duplicate-key').severity, offset: key.offset, length: key.length,
    message: `Duplicate key ${name}: this one is ignored; the last ${name} of the object counts (JSON parsers, the platform's included, keep the last).`,
    related: [{ offset: keptKey.offset, length: keptKey.length, message: `The ${name} that counts.` }],
    tags: ['unnecessary'],
    fixes: [{ title: `Remove the ignored ${name} member`, edits: [{ offset: d.ignored.offset, length: next.offset - d.ignored.offset, newText: '' }], preferred: true }],
  };
}
