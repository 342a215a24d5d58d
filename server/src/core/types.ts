// The checking core's vocabulary. PURE: nothing here may import vscode, vscode-languageserver, fs or net.
// Everything speaks offsets into the document text (UTF-16 code units, as JS strings and jsonc-parser do).
import type { Node as JsonNode, Location as JsonLocation } from 'jsonc-parser';
import type { Code } from './codes';

export type DocKind = 'logpush-filter' | 'logpush-job' | 'jsonrpc-request' | 'waf-ruleset';
export const DOC_KINDS: readonly DocKind[] = ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'];

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A path into a JSON value, as jsonc-parser's JSONPath: property names and array indices. */
export type JsonPath = (string | number)[];

export interface Span { offset: number; length: number }

/** A text edit in offsets. */
export interface Edit { offset: number; length: number; newText: string }

/** A quick fix attached to a problem. Computed by the rule that reports the problem (stateless code actions). */
export interface Fix { title: string; edits: Edit[]; preferred?: boolean }

export interface Problem extends Span {
  code: Code;
  severity: Severity;
  /** One sentence that quotes the offending name or value. */
  message: string;
  related?: (Span & { message: string })[];
  tags?: ('deprecated' | 'unnecessary')[];
  fixes?: Fix[];
}

/** One parse per document version; shared by every rule and language feature. */
export interface ParsedDoc {
  readonly text: string;
  /** Plain JSON value (undefined when the text is not JSON at all). With syntax errors, the value jsonc-parser recovered. */
  readonly value: unknown;
  /** Syntax problems (empty for valid JSON). */
  readonly syntax: Problem[];
  /**
   * Full jsonc-parser tree, built lazily on first use: positions are needed only where there is something to report or show.
   * On a large batch this costs tens of milliseconds and megabytes: prefer treeAlong / treeAround, which give the same nodes.
   */
  tree(): JsonNode | undefined;
  /**
   * A tree in which every node along path is complete. In a large valid batch (parse.ts WINDOW_FROM) the root's other items may be
   * stubs (type, offset and length, no children or value); otherwise it is tree().
   */
  treeAlong(path: JsonPath): JsonNode | undefined;
  /** A tree in which the nodes around offset (the root's item that contains it, and its ancestors) are complete; see treeAlong. */
  treeAround(offset: number): JsonNode | undefined;
  /** jsonc-parser's getLocation(text, offset), computed on the item under offset alone in a large batch. */
  locationAt(offset: number): JsonLocation;
  /** Forget the trees built so far (memory); value and syntax stay, and trees are rebuilt on demand. */
  release(): void;
  /**
   * A warning (syntax/duplicate-key, with a fix) on each member that a later member of the same object overrides: JSON.parse keeps
   * the last, and locate() finds the last. Empty for invalid JSON and for documents positioned item by item (parse/duplicates.ts).
   */
  duplicateKeys(): Problem[];
  /** Span of the value (part 'value') or of the property key (part 'key') at path; falls back to the nearest existing ancestor. Of duplicate keys, the last (the one JSON.parse keeps). */
  locate(path: JsonPath, part?: 'key' | 'value'): Span;
  /**
   * Parsed with the previous version's parse (ParseOptions.previous: the editor's document was edited). More edits are likely, and
   * an edit inside one item of a large document keeps the other items' values: a rule may remember results per value object then.
   */
  readonly edit?: boolean;
  /**
   * A result computed from part of the document, by a key that holds everything it depends on: computed once per version, and
   * taken from the previous version's parse (ParseOptions.previous) when that computed the same key. An edit of one rule of a
   * ruleset then checks that rule's expressions alone. The key is a list of parts of any text (two lists never share a key), the
   * first naming the result. The value must not be changed by its users.
   */
  reuse<T>(key: readonly string[], compute: () => T): T;
}

export interface CoreOptions {
  /** Dataset assumed for a standalone filter with no other hint. */
  logpushDataset: string;
  /** Where the Logpush job being checked is created, when the caller knows it (the mock does; the editor when the client says or
   * edgekit.logpush.scope does, the CLI with --scope): a dataset of both scopes has fields of one scope only (firewall_events'
   * ZoneName). Not known: a field of either is accepted. */
  logpushScope?: 'zone' | 'account';
  maxProblems: number;
  maxFileSizeKB: number;
}

export const DEFAULT_OPTIONS: CoreOptions = { logpushDataset: 'http_requests', maxProblems: 1000, maxFileSizeKB: 5120 };

export interface RuleContext {
  kind: DocKind;
  options: CoreOptions;
  /** Build a problem with the code's default severity, located at path. */
  report(code: Code, message: string, at: Span, extra?: Partial<Omit<Problem, 'code' | 'message' | 'offset' | 'length'>>): Problem;
}

export interface Rule {
  id: string;
  kinds: DocKind[];
  check(doc: ParsedDoc, ctx: RuleContext): Problem[];
}

// ---- language features (core side; lsp/ converts them) ----

export type CompletionKind = 'property' | 'value' | 'field' | 'operator' | 'method' | 'keyword' | 'snippet' | 'enum' | 'constant';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Text to insert; a snippet (with $1, ${1:x}) when snippet is true. Defaults to label. */
  insertText?: string;
  snippet?: boolean;
  /** Range replaced by insertText; defaults to the word at the cursor. */
  replace?: Span;
  sortText?: string;
  filterText?: string;
}

export interface HoverInfo extends Span { markdown: string }

/** An inlay hint: a label shown at offset in the text (a parameter's name before its value, a value's meaning after it). */
export interface InlayHintInfo {
  offset: number;
  label: string;
  kind: 'parameter' | 'type';
  /** A space between the hint and the text before it (a hint after a value) or after it (a hint before a value). */
  paddingLeft?: boolean;
  paddingRight?: boolean;
}

/** Signature help: a call's signature, its parameters as [start, end) offsets into the label, and the parameter the caret is in
 * (LSP's SignatureInformation with label offsets). Documentation is markdown. */
export interface SignatureInfo {
  label: string;
  documentation?: string;
  parameters: { label: [number, number]; documentation?: string }[];
  activeParameter: number;
}

export interface Lens extends Span {
  title: string;
  /** Command id (edgekit.*) and arguments; without command the lens is informational. */
  command?: string;
  args?: unknown[];
  /** With command: a client that runs no EdgeKit commands shows the title as text (an informational lens), instead of no lens. */
  orText?: boolean;
}

/** Everything one document kind contributes beyond JSON syntax and its JSON Schema. */
export interface KindPlugin {
  kind: DocKind;
  rules: Rule[];
  /** Extra completions at offset (merged after schema-driven ones; an entry with the same label replaces the schema one). */
  complete?(doc: ParsedDoc, offset: number, options: CoreOptions): CompletionEntry[];
  /** True where the kind knows which values fit (a Logpush comparison on a known field) and the schema's generic values
   * (enum members, true/false) would offer what the rules refuse; complete() then keeps the plugin's values only. */
  ownsValuesAt?(doc: ParsedDoc, offset: number, options: CoreOptions): boolean;
  /** A hover at offset; when it returns something, it wins over the schema's title/description. */
  hover?(doc: ParsedDoc, offset: number, options: CoreOptions): HoverInfo | undefined;
  /** The call around offset (a request's params, a function's arguments), if any. */
  signatureHelp?(doc: ParsedDoc, offset: number, options: CoreOptions): SignatureInfo | undefined;
  lenses?(doc: ParsedDoc, options: CoreOptions): Lens[];
  /** Inlay hints for the part of the document in range. */
  inlayHints?(doc: ParsedDoc, range: Span, options: CoreOptions): InlayHintInfo[];
  /** Smart selection inside a string the kind understands (a rule's expression, a job's filter): spans around offset, innermost
   * first; core/selection.ts adds the JSON around them. */
  selectionRanges?(doc: ParsedDoc, offset: number): Span[];
  /** What an empty document of the kind is expected to hold (words for its message), and the fix that writes a first one. */
  starter?: { expected: string; title: string; text: string };
}
