// Schema-driven completion and hover (titles, descriptions, enums), merged with each kind's own (plugins.ts).
import { findNodeAtOffset, getNodePath } from 'jsonc-parser';
import type { CompletionEntry, CoreOptions, DocKind, HoverInfo, InlayHintInfo, JsonPath, Lens, ParsedDoc, SignatureInfo, Span } from './types';
import { DEFAULT_OPTIONS } from './types';
import { SCHEMAS, type JsonSchema } from './schema/registry';
import { PLUGINS } from './plugins';
import { isTooDeep } from './parse';
import { colonAfter, memberFollows, objectAt, valueFollows } from './jsonTree';
import { plainToMarkdown, snippetText, withLineBreak } from './text';
import { eolAt } from './parse/syntaxErrors';

type S = JsonSchema & {
  $ref?: string; properties?: Record<string, S>; items?: S | boolean; prefixItems?: S[]; oneOf?: S[]; anyOf?: S[]; allOf?: S[];
  enum?: unknown[]; const?: unknown; type?: string | string[]; title?: string; description?: string; markdownDescription?: string;
  enumDescriptions?: string[]; required?: string[]; default?: unknown; additionalProperties?: S | boolean; $defs?: Record<string, S>;
  doNotSuggest?: boolean;
};

function resolveRef(root: S, s: S): S {
  let cur = s;
  for (let i = 0; cur.$ref && i < 16; i++) {
    if (!cur.$ref.startsWith('#/')) break;
    let target: unknown = root;
    for (const seg of cur.$ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[seg.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!target || typeof target !== 'object') break;
    cur = { ...(target as S), ...withoutRef(cur) };
  }
  return cur;
}

function withoutRef(s: S): S {
  const { $ref: _ignored, ...rest } = s;
  return rest as S;
}

/** Every alternative schema that applies to a value (oneOf/anyOf/allOf flattened, refs resolved). */
function alternatives(root: S, s: S | undefined, depth = 0): S[] {
  if (!s || depth > 8) return [];
  const r = resolveRef(root, s);
  const out: S[] = [r];
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) for (const sub of r[k] ?? []) out.push(...alternatives(root, sub, depth + 1));
  return out;
}

/** Schemas for the value at path (union over alternatives). */
export function schemasAt(kind: DocKind, path: JsonPath): S[] {
  const root = SCHEMAS[kind] as S;
  let current = alternatives(root, root);
  for (const seg of path) {
    const next: S[] = [];
    for (const s of current) {
      if (typeof seg === 'number') {
        if (s.prefixItems && s.prefixItems[seg]) next.push(...alternatives(root, s.prefixItems[seg]));
        else if (s.items && typeof s.items === 'object') next.push(...alternatives(root, s.items));
      } else {
        if (s.properties?.[seg]) next.push(...alternatives(root, s.properties[seg]));
        else if (s.additionalProperties && typeof s.additionalProperties === 'object') next.push(...alternatives(root, s.additionalProperties));
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return current;
}

/** plainToMarkdown lives in text.ts, where a kind's own features (rules/ruleset/assist.ts) import it without a cycle through the plugins. */
export { plainToMarkdown };

function doc(s: S): string | undefined {
  const text = s.markdownDescription ?? (s.description === undefined ? undefined : plainToMarkdown(s.description));
  const title = s.title === undefined ? undefined : plainToMarkdown(s.title);
  if (title && text) return `**${title}**\n\n${text}`;
  return title ?? text;
}

function typeName(s: S): string | undefined {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  return Array.isArray(s.type) ? s.type.join(' | ') : s.type;
}

function valueSnippet(s: S | undefined): string {
  if (!s) return '$1';
  if (s.const !== undefined) return JSON.stringify(s.const);
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  if (s.enum && s.enum.length) return JSON.stringify(s.enum[0]).replace(/\$/g, '\\$');
  switch (t) {
    case 'string': return '"$1"';
    case 'object': return '{$1}';
    case 'array': return '[$1]';
    case 'boolean': return '${1:true}';
    case 'integer': case 'number': return '${1:0}';
    default: return '$1';
  }
}

/** The string/number/keyword node under the cursor, to replace whole. */
function replaceSpan(doc: ParsedDoc, offset: number): Span | undefined {
  const root = doc.treeAround(offset);
  if (!root) return undefined;
  const node = findNodeAtOffset(root, offset, true);
  if (node && (node.type === 'string' || node.type === 'number' || node.type === 'boolean' || node.type === 'null')
      && offset >= node.offset && offset <= node.offset + node.length) return { offset: node.offset, length: node.length };
  return undefined;
}

function schemaCompletions(kind: DocKind, d: ParsedDoc, offset: number): CompletionEntry[] {
  const loc = d.locationAt(offset);
  const out: CompletionEntry[] = [];
  const replace = replaceSpan(d, offset);
  if (loc.isAtPropertyKey) {
    const objPath = loc.path.slice(0, -1);
    const existing = new Set<string>();
    const root = d.treeAlong(objPath);
    const objNode = root && objectAt(root, objPath, offset);
    for (const p of objNode?.children ?? []) if (p.children?.[0]) existing.add(String(p.children[0].value));
    const seen = new Set<string>();
    const nameOnly = !!replace && colonAfter(d.text, replace);
    const comma = !nameOnly && memberFollows(d.text, replace ? replace.offset + replace.length : offset) ? ',' : '';
    for (const s of schemasAt(kind, objPath)) {
      for (const [name, sub] of Object.entries(s.properties ?? {})) {
        if (seen.has(name) || existing.has(name) || (sub as S).doNotSuggest) continue;
        seen.add(name);
        const subAlt = alternatives(SCHEMAS[kind] as S, sub as S)[0];
        out.push({
          label: name, kind: 'property', detail: typeName(subAlt), documentation: doc(subAlt),
          // In the snippet the name is text, or "$dataset" would be a snippet variable.
          insertText: nameOnly ? `"${name}"` : `"${snippetText(name)}": ${valueSnippet(subAlt)}${comma}`, snippet: !nameOnly, replace, filterText: `"${name}"`,
          sortText: (s.required ?? []).includes(name) ? `0${name}` : `1${name}`,
        });
      }
    }
    return out;
  }
  const seen = new Set<string>();
  for (const s of schemasAt(kind, loc.path)) {
    const values: unknown[] = s.const !== undefined ? [s.const] : s.enum ?? ((Array.isArray(s.type) ? s.type : [s.type]).includes('boolean') ? [true, false] : []);
    values.forEach((v, i) => {
      const label = JSON.stringify(v);
      if (seen.has(label)) return;
      seen.add(label);
      out.push({ label, kind: 'enum', insertText: label, replace, documentation: s.enumDescriptions?.[i] !== undefined ? plainToMarkdown(s.enumDescriptions[i]) : doc(s), filterText: label });
    });
  }
  return out;
}


export function complete(kind: DocKind, d: ParsedDoc, offset: number, options: CoreOptions = DEFAULT_OPTIONS): CompletionEntry[] {
  // A document past MAX_NESTING has no tree, and jsonc-parser's getLocation would recurse through every level of its text.
  if (isTooDeep(d)) return [];
  const own = PLUGINS[kind].complete?.(d, offset, options) ?? [];
  // The kind's own values know the context (e.g. only the operators a field's type allows): where it offers values, the schema's
  // generic enum values would only re-add what it filtered out.
  const ownValues = own.some((e) => e.kind !== 'snippet' && e.kind !== 'property') || !!PLUGINS[kind].ownsValuesAt?.(d, offset, options);
  const unquote = (l: string) => l.replace(/^"(.*)"$/, '$1');
  const ownLabels = new Set(own.map((e) => unquote(e.label)));
  const schema = schemaCompletions(kind, d, offset).filter((e) => (e.kind === 'property' || !ownValues) && !ownLabels.has(unquote(e.label)));
  const literals = new Map<string, boolean>();
  // Snippets and starters are written with LF: in the document's own line break (that of the caret's line)
  const eol = eolAt(d.text, offset);
  return withValueSeparator(d, offset, [...own, ...schema]).map((e) => {
    const out = betweenQuotes(d.text, offset, e, literals);
    return out.insertText?.includes('\n') ? { ...out, insertText: withLineBreak(out.insertText, eol) } : out;
  });
}

/** The text between the quotes of `s` when it is one whole JSON string literal quoted with `q` (`"`, or `\"` inside a job's filter
 * string), else undefined. */
function quotedContent(s: string, q: '"' | '\\"'): string | undefined {
  if (s.length < 2 * q.length || !s.startsWith(q) || !s.endsWith(q)) return undefined;
  try {
    const v: unknown = JSON.parse(q === '"' ? s : JSON.parse(`"${s}"`) as string);
    return typeof v === 'string' ? s.slice(q.length, -q.length) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A completion that writes a string literal over the string literal at the cursor ("lt" over "eq", \"ClientCountry\" over \"\"
 * in a job's filter string) edits between the quotes only: the same text, but VS Code ends a snippet when a completion's edit
 * reaches past the placeholder, and the filter, job and request snippets put theirs between quotes ("key": "$1",
 * "params": ["${1:latest}", ${2:false}]): after a completion there, Tab inserted spaces instead of going on to the next one.
 */
function betweenQuotes(text: string, offset: number, e: CompletionEntry, literals: Map<string, boolean>): CompletionEntry {
  if (!e.replace || e.snippet) return e;
  const { offset: start, length } = e.replace;
  for (const q of ['"', '\\"'] as const) {
    const insert = quotedContent(e.insertText ?? e.label, q);
    if (insert === undefined) continue;
    // Whether the text replaced is a string literal: the same span for most entries of a list, so read once (literals).
    const key = `${start}:${length}:${q}`;
    let literal = literals.get(key);
    if (literal === undefined) literals.set(key, literal = quotedContent(text.slice(start, start + length), q) !== undefined);
    if (!literal) continue;
    if (offset < start + q.length || offset > start + length - q.length) return e; // the cursor at a quote: the edit must hold it
    const filterText = e.filterText === undefined ? undefined : quotedContent(e.filterText, q) ?? e.filterText;
    return { ...e, insertText: insert, ...(filterText !== undefined ? { filterText } : {}), replace: { offset: start + q.length, length: length - 2 * q.length } };
  }
  return e;
}

/**
 * A value completed in front of another member (or an array item in front of another item) ends with the comma that separates
 * them, as vscode-json-languageservice's value proposals do (evaluateSeparatorAfter: a comma unless the next token is `,`, `}`,
 * `]` or the end): `"operator": | "value": "ca"` became `"operator": "eq" "value": "ca"`. Only entries that write a whole JSON
 * value get one: those inserted outside any literal, or replacing the literal under the cursor whole; text inserted inside a
 * string (a rules expression, a job's filter string) is not a JSON value of this document.
 */
function withValueSeparator(d: ParsedDoc, offset: number, entries: CompletionEntry[]): CompletionEntry[] {
  if (entries.length === 0) return entries;
  const loc = d.locationAt(offset);
  const last = loc.path[loc.path.length - 1];
  if (loc.isAtPropertyKey || last === undefined) return entries;
  const root = d.treeAround(offset);
  const node = root && findNodeAtOffset(root, offset, true);
  const isKey = !!node && node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const lit = node && !isKey && (node.type === 'string' || node.type === 'number' || node.type === 'boolean' || node.type === 'null') ? node : undefined;
  return entries.map((e) => {
    const text = e.insertText ?? e.label;
    if (text.endsWith(',')) return e; // a snippet that placed its own separator
    if (e.replace ? !(lit && e.replace.offset === lit.offset && e.replace.length === lit.length) : lit && offset > lit.offset) return e;
    const end = e.replace ? e.replace.offset + e.replace.length : offset;
    const follows = typeof last === 'number' ? valueFollows(d.text, end) : memberFollows(d.text, end);
    return follows ? { ...e, insertText: `${text},` } : e;
  });
}

export function hover(kind: DocKind, d: ParsedDoc, offset: number, options: CoreOptions = DEFAULT_OPTIONS): HoverInfo | undefined {
  if (isTooDeep(d)) return undefined;
  const own = PLUGINS[kind].hover?.(d, offset, options);
  if (own) return own;
  const root = d.treeAround(offset);
  if (!root) return undefined;
  const node = findNodeAtOffset(root, offset);
  if (!node) return undefined;
  // Between tokens (indentation, a colon, a comma) there is nothing to describe: no hover, as vscode-json-languageservice's
  // jsonHover.ts does inside an object or array away from its brackets (it used to be the container's text over all of it).
  if (node.type === 'property') return undefined;
  if ((node.type === 'object' || node.type === 'array') && offset > node.offset + 1 && offset < node.offset + node.length - 1) return undefined;
  const path = getNodePath(node);
  const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const schemas = schemasAt(kind, path);
  const parts: string[] = [];
  for (const s of schemas) {
    const text = doc(s);
    if (text && !parts.includes(text)) parts.push(text);
    if (!isKey && s.enum && s.enumDescriptions) {
      const i = s.enum.indexOf(node.value);
      if (i >= 0 && s.enumDescriptions[i]) parts.push(`\`${JSON.stringify(node.value)}\`: ${plainToMarkdown(s.enumDescriptions[i])}`);
    }
  }
  if (parts.length === 0) return undefined;
  return { offset: node.offset, length: node.length, markdown: parts.join('\n\n---\n\n') };
}

export function signatureHelp(kind: DocKind, d: ParsedDoc, offset: number, options: CoreOptions = DEFAULT_OPTIONS): SignatureInfo | undefined {
  if (isTooDeep(d)) return undefined;
  return PLUGINS[kind].signatureHelp?.(d, offset, options);
}

export function inlayHints(kind: DocKind, d: ParsedDoc, range: Span, options: CoreOptions = DEFAULT_OPTIONS): InlayHintInfo[] {
  if (isTooDeep(d)) return [];
  return PLUGINS[kind].inlayHints?.(d, range, options) ?? [];
}

export function lenses(kind: DocKind, d: ParsedDoc, options: CoreOptions = DEFAULT_OPTIONS): Lens[] {
  if (isTooDeep(d)) return [];
  return PLUGINS[kind].lenses?.(d, options) ?? [];
}
