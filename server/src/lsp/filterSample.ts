// "Test Filter on Logs": the filter of a document (a filter file, or a job's `filter` string) with its dataset, and the code lens
// that shows what it matches in the log lines it was last tested on (kept per document by the Node entry's request handler).
// "Test Rules on Requests" likewise: a lens on each rule with what it matches, applies to and decides in the requests last tested.
// Both are counted again on the document as it is now, so they follow every edit.
import type { CodeLens } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocKind, ParsedDoc } from '../core';
import { range } from './convert';
import { infoCommand } from './features';
import { coreModule, type ServerContext, type TestSample } from './context';

/** At most this many lines are kept per document for its lens (a bigger log is counted once, when tested). */
export const SAMPLE_KEEP = 10_000;
/** And at most this many characters of them: 10 000 lines near the reader's 1 MiB line limit would be 10 GB kept. */
export const SAMPLE_KEEP_CHARS = 16 * 1024 * 1024;

/** The first records of a test, kept for the lenses while they are within SAMPLE_KEEP and SAMPLE_KEEP_CHARS; later ones are not. */
export class KeptRecords<T> {
  readonly records: T[] = [];
  private chars = 0;
  private full = false;
  /** Keeps `record` (its line `size()` characters long, asked only while records are kept) unless a limit is reached. */
  add(record: T, size: () => number): void {
    if (this.full) return;
    const chars = this.records.length < SAMPLE_KEEP ? size() : Infinity;
    if (this.chars + chars > SAMPLE_KEEP_CHARS) { this.full = true; return; }
    this.chars += chars;
    this.records.push(record);
  }
}

/** The document's filter and dataset, or what keeps it from being evaluated. Integers past 2^53 keep the digits written (as bigints:
 * core withExactIntegers): in a job's filter string, and in a filter file when its text is given. */
export function filterOf(kind: DocKind, value: unknown, settingsDataset: string, text?: string): { filter: unknown; dataset: string; path: string[] } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'the document is not a JSON object' };
  const v = value as Record<string, unknown>;
  if (kind === 'logpush-filter') {
    return { filter: text === undefined ? v : coreModule().withExactIntegers(text, v), dataset: typeof v.$dataset === 'string' ? v.$dataset : settingsDataset, path: ['where'] };
  }
  if (kind !== 'logpush-job') return { error: 'only a Logpush filter or job has a filter to test' };
  const dataset = typeof v.dataset === 'string' ? v.dataset : 'http_requests';
  if (v.filter === undefined || v.filter === null || v.filter === '') return { filter: { where: { and: [] } }, dataset, path: ['dataset'] };
  if (typeof v.filter !== 'string') return { error: 'the job\'s "filter" is not a string' };
  try {
    return { filter: coreModule().withExactIntegers(v.filter, JSON.parse(v.filter)), dataset, path: ['filter'] };
  } catch (err) {
    return { error: `the job's "filter" string is not valid JSON (${(err as Error).message})` };
  }
}

/** "1,000", or "the first 10,000" when the file tested had more than the records kept for the lenses. */
function keptCount(sample: { records: unknown[]; total: number }): string {
  const n = sample.records.length.toLocaleString('en');
  return sample.total > sample.records.length ? `the first ${n}` : n;
}

/**
 * The lenses of the records a document was last tested on: the filter's, or each rule's. Counted once per text of the document
 * (kept with the sample, so a new test or closing the document drops them): the same text asked again is a lookup.
 */
export function sampleLenses(ctx: ServerContext, doc: TextDocument, kind: DocKind, parsed: ParsedDoc, settingsDataset: string): CodeLens[] {
  const sample = ctx.samples.get(doc.uri);
  if (!sample) return [];
  const hit = sample.lenses;
  if (hit && hit.text === doc.getText() && hit.dataset === settingsDataset) return hit.lenses;
  let lenses: CodeLens[];
  if (kind === 'waf-ruleset') lenses = ruleLenses(ctx, doc, parsed, sample);
  else {
    const lens = sampleLens(ctx, doc, kind, parsed, settingsDataset, sample);
    lenses = lens ? [lens] : [];
  }
  sample.lenses = { text: doc.getText(), dataset: settingsDataset, lenses };
  return lenses;
}

/**
 * `matches 12 · applies to 10 · decides 8 of 1,000 sample requests` on each rule, when the ruleset was tested and still compiles: the
 * rules run in order over the kept requests, as the report counts them (core/eval/rules.ts rulesetLensCounts).
 */
function ruleLenses(ctx: ServerContext, doc: TextDocument, parsed: ParsedDoc, sample: TestSample): CodeLens[] {
  if (!sample.remembered) return [];
  // Only a rule whose expression is new since the last count is tested again, and only the rules from the first one the edit changed
  // are counted again: a lens after each edit stays cheap on a large ruleset.
  const run = coreModule().rulesetLensCounts(parsed.value, sample.records, sample.remembered);
  if (!run.ok) return [];
  const of = `of ${keptCount(sample)} ${sample.label}`;
  return run.rules.map((t) => {
    const counts = !t.enabled ? `matches ${t.matched.toLocaleString('en')} ${of} · disabled`
      : `matches ${t.matched.toLocaleString('en')} · applies to ${t.applied.toLocaleString('en')}${t.skipped ? ` (skipped for ${t.skipped.toLocaleString('en')})` : ''}` +
        ` · decides ${t.decided.toLocaleString('en')} ${of}`;
    const at = parsed.locate(['rules', t.index], 'value');
    return { range: range(doc, { offset: at.offset, length: Math.min(1, at.length) }), command: infoCommand(counts, ctx.caps.textLenses) };
  });
}

/** `matches 132 of 1 000 sample lines` on the filter, when the document's filter was tested and still compiles. */
function sampleLens(ctx: ServerContext, doc: TextDocument, kind: DocKind, parsed: ParsedDoc, settingsDataset: string, sample: TestSample): CodeLens | undefined {
  const f = filterOf(kind, parsed.value, settingsDataset, parsed.text);
  if ('error' in f) return undefined;
  const at = parsed.locate(f.path, 'key');
  // Another dataset's lines have none of its fields: the count would be 0, or every line for a negated comparison (edgekit/testFilter
  // refuses the generated sample for the same reason). Short: it follows the job's size lens, and the report beside halves the editor.
  if (sample.dataset !== undefined && sample.dataset !== f.dataset) {
    return { range: range(doc, at), command: infoCommand(`test again: was ${sample.dataset}`, ctx.caps.textLenses) };
  }
  const c = coreModule().compileFilter(f.filter, f.dataset);
  if (!c.ok) return undefined;
  let n = 0;
  for (const r of sample.records) if (c.filter.test(r)) n++;
  return { range: range(doc, at), command: infoCommand(`matches ${n.toLocaleString('en')} of ${keptCount(sample)} ${sample.label}`, ctx.caps.textLenses) };
}
