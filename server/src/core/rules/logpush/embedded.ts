// A JSON string member whose content is checked on its own (a job's `filter`, `logpull_options`, `destination_conf`): decoded
// value plus a lazily built map from decoded offsets to the document's text.
import type { JsonPath, ParsedDoc, Problem, Span } from '../../types';
import { JsonStringMap } from '../../jsonString';
import { nodeAt } from '../../parse';
import { moveFix, withFixes } from '../../fix';

export class EmbeddedString {
  private map: JsonStringMap | undefined | null = null;
  constructor(private readonly doc: ParsedDoc, readonly path: JsonPath, readonly value: string) {}

  /** The map of the literal in the document (undefined when the node cannot be found, which a valid document never hits, or when
   *  the map's decoded value is not the value checked). */
  stringMap(): JsonStringMap | undefined {
    if (this.map === null && this.path.length === 1 && this.doc.syntax.length === 0) {
      // A member of the root object of valid JSON (a job's "filter"): its key located without the whole position tree
      // (ParsedDoc.locate), the literal read from the quote after the colon (a scan of the whole value would decode its 10 KB once
      // more).
      const open = literalAfter(this.doc.text, this.doc.locate(this.path, 'key'));
      if (open >= 0) this.map = JsonStringMap.at(this.doc.text, open);
    }
    if (this.map === null) {
      const root = this.doc.tree();
      const node = root && nodeAt(root, this.path);
      const map = node && node.type === 'string' ? new JsonStringMap(this.doc.text, node.offset, node.length) : undefined;
      // A document with syntax errors may have an escape JSON does not have (\d) in the string: the parser's value drops it, the
      // map keeps it as written, and the offsets after it would not match. Then the whole string is the place, as for a rule's
      // expression (ruleset/expression.ts).
      this.map = map && map.value === this.value ? map : undefined;
    }
    return this.map;
  }

  /** A span of the decoded value as a span of the document. */
  span(decoded: Span): Span {
    const m = this.stringMap();
    return m ? m.spanToSource(decoded) : this.doc.locate(this.path);
  }

  /** A problem computed on the decoded value, moved into the document (range, fixes, related). */
  problem(p: Problem): Problem {
    const m = this.stringMap();
    if (!m) {
      // Nor its related spans, which are the decoded value's offsets (an opener "opens here" on another line of the job; rv15).
      const at = this.doc.locate(this.path);
      return withFixes(p, { offset: at.offset, length: at.length, fixes: undefined, related: undefined });
    }
    const at = m.spanToSource(p);
    return withFixes(p, {
      offset: at.offset, length: at.length,
      ...(p.related ? { related: p.related.map((r) => ({ ...r, ...m.spanToSource(r) })) } : {}),
    }, (f) => moveFix(f, (e) => m.editToSource(e)));
  }
}

/** The offset of the string literal that follows a member's key (`"key": "..."`, JSON whitespace around the colon), or -1. */
function literalAfter(text: string, key: Span): number {
  let i = key.offset + key.length;
  const skip = () => { while (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t') i++; };
  if (text[key.offset] !== '"') return -1;
  skip();
  if (text[i++] !== ':') return -1;
  skip();
  return text[i] === '"' ? i : -1;
}

export interface QueryParam {
  key: string;
  value: string;
  /** Offsets in the decoded string. */
  keySpan: Span;
  valueSpan: Span;
}

/** The parameters of a query string ("a=1&b=2", with or without a leading URL and "?"); offsets relative to `text`. */
export function parseQuery(text: string, start = 0): QueryParam[] {
  const out: QueryParam[] = [];
  let pos = start;
  for (const part of text.slice(start).split('&')) {
    if (part !== '') {
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? '' : part.slice(eq + 1);
      out.push({ key, value, keySpan: { offset: pos, length: key.length }, valueSpan: { offset: eq < 0 ? pos + part.length : pos + eq + 1, length: value.length } });
    }
    pos += part.length + 1;
  }
  return out;
}
