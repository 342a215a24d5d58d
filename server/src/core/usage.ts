// Live usage of a filter against the platform's limits, for the status bar (edgekit/documentInfo).
import type { DocKind, ParsedDoc } from './types';
import { filterUsage } from './rules/logpush/filter';

export interface Usage { operators: number; maxOperators: number; bytes: number; maxBytes: number }

export function filterUsageOf(kind: DocKind, doc: ParsedDoc): Usage | undefined {
  const v = doc.value as Record<string, unknown> | undefined;
  // With a syntax error the value is the parser's recovery: no usage of it is the filter's (the lens says why).
  if (!v || typeof v !== 'object' || Array.isArray(v) || doc.syntax.length > 0) return undefined;
  if (kind === 'logpush-filter') return filterUsage(v);
  if (kind === 'logpush-job' && typeof v.filter === 'string' && v.filter.trim() !== '') {
    try {
      return filterUsage(JSON.parse(v.filter), v.filter);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
