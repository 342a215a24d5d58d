// "Test Filter on Logs": the filter of a document (a filter file, or a job's `filter` string) with its dataset, and the code lens
// that shows what it matches in the log lines it was last tested on (kept per document by the Node entry's request handler).
import type { CodeLens } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocKind, ParsedDoc } from '../core';
import { range } from './convert';
import { infoCommand } from './features';
import { coreModule, type ServerContext } from './context';

/** At most this many lines are kept per document for its lens (a bigger log is counted once, when tested). */
export const SAMPLE_KEEP = 10_000;

/** The document's filter and dataset, or what keeps it from being evaluated. */
export function filterOf(kind: DocKind, value: unknown, settingsDataset: string): { filter: unknown; dataset: string; path: string[] } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'the document is not a JSON object' };
  const v = value as Record<string, unknown>;
  if (kind === 'logpush-filter') return { filter: v, dataset: typeof v.$dataset === 'string' ? v.$dataset : settingsDataset, path: ['where'] };
  if (kind !== 'logpush-job') return { error: 'only a Logpush filter or job has a filter to test' };
  const dataset = typeof v.dataset === 'string' ? v.dataset : 'http_requests';
  if (v.filter === undefined || v.filter === null || v.filter === '') return { filter: { where: { and: [] } }, dataset, path: ['dataset'] };
  if (typeof v.filter !== 'string') return { error: 'the job\'s "filter" is not a string' };
  try {
    return { filter: JSON.parse(v.filter), dataset, path: ['filter'] };
  } catch (err) {
    return { error: `the job's "filter" string is not valid JSON (${(err as Error).message})` };
  }
}

/** `matches 132 of 1 000 sample lines` on the filter, when the document's filter was tested and still compiles. */
export function sampleLens(ctx: ServerContext, doc: TextDocument, kind: DocKind, parsed: ParsedDoc, settingsDataset: string): CodeLens | undefined {
  const sample = ctx.samples.get(doc.uri);
  if (!sample) return undefined;
  const f = filterOf(kind, parsed.value, settingsDataset);
  if ('error' in f) return undefined;
  const c = coreModule().compileFilter(f.filter, f.dataset);
  if (!c.ok) return undefined;
  let n = 0;
  for (const r of sample.records) if (c.filter.test(r)) n++;
  const at = parsed.locate(f.path, 'key');
  return { range: range(doc, at), command: infoCommand(`matches ${n.toLocaleString('en')} of ${sample.records.length.toLocaleString('en')} ${sample.label}`, ctx.caps.textLenses) };
}
