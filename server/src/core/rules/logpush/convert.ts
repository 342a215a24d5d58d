// A JSON text written again, compact or indented, with its numbers as they are written. JSON.parse then JSON.stringify rounds a
// number to a double: a unixnano timestamp (1700000000123456789, past 2^53) came back as 1700000000123456800, so "Copy as Job
// Filter String" and "Open Job Filter as Filter Document" changed the filter they converted. Everything else is written as
// JSON.stringify(JSON.parse(text), null, indent) writes it: strings and keys re-escaped, of duplicate keys the last value at the
// first key's place.
import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import { PARSE_OPTIONS } from '../../parse/scanner';

export interface RewriteOptions {
  /** Spaces per level; 0 writes compact JSON. */
  indent: number;
  /** Root members left out (editor hints). */
  omit?: readonly string[];
  /** Members written first in a root object that has none of that name: [key, value]. */
  prepend?: readonly [string, unknown][];
}

/** The JSON text written again (see the file's comment). Throws, as JSON.parse does, on text that is not JSON. */
export function rewriteJson(text: string, opts: RewriteOptions): string {
  JSON.parse(text); // the same errors (and messages) as before for text that is not strict JSON
  // Strict JSON only (JSON.parse above threw otherwise): no "\😀", which jsonc-parser reads as half an emoji (parse/document.ts
  // ESCAPED_ASTRAL), reaches the tree.
  const root = parseTree(text, [], PARSE_OPTIONS);
  if (!root) throw new SyntaxError('Unexpected end of JSON input');
  const pad = (level: number): string => (opts.indent ? '\n' + ' '.repeat(opts.indent * level) : '');
  const colon = opts.indent ? ': ' : ':';
  const write = (node: JsonNode, level: number, isRoot: boolean): string => {
    switch (node.type) {
      case 'number': return text.slice(node.offset, node.offset + node.length);
      case 'string': return JSON.stringify(node.value);
      case 'boolean': return node.value ? 'true' : 'false';
      case 'null': return 'null';
      case 'array': {
        const items = (node.children ?? []).map((c) => pad(level + 1) + write(c, level + 1, false));
        return items.length ? `[${items.join(',')}${pad(level)}]` : '[]';
      }
      case 'object': {
        // JSON.parse: a key's first occurrence keeps its place, its last occurrence gives the value.
        const members = new Map<string, string>();
        for (const p of node.children ?? []) {
          const [k, v] = p.children ?? [];
          if (!k || !v || (isRoot && opts.omit?.includes(k.value as string))) continue;
          members.set(k.value as string, write(v, level + 1, false));
        }
        const first = isRoot ? (opts.prepend ?? []).filter(([k]) => !members.has(k)).map(([k, v]) => [k, JSON.stringify(v)] as const) : [];
        const all = [...first, ...members].map(([k, v]) => pad(level + 1) + JSON.stringify(k) + colon + v);
        return all.length ? `{${all.join(',')}${pad(level)}}` : '{}';
      }
      default: return JSON.stringify(node.value);
    }
  };
  return write(root, 0, true);
}
