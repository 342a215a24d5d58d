// Smart selection inside a job's `filter` string: the embedded filter's JSON expands as a filter file does (a literal, a
// comparison, its "and"/"or" group, "where"), mapped through the string's escapes onto the job (core/selection.ts adds the job's
// own JSON around it).
import type { ParsedDoc, Span } from '../../types';
import { isTooDeep } from '../../parse';
import { jsonSelection } from '../../jsonTree';
import { embeddedFilterAt } from './assist';

export function selectionRangesJobDoc(doc: ParsedDoc, offset: number): Span[] {
  const at = embeddedFilterAt(doc, offset);
  if (!at || isTooDeep(at.inner)) return [];
  return jsonSelection(at.inner.tree(), at.inner.text, at.decoded).map((s) => at.map.spanToSource(s));
}
