// edgekit/testFilter, in the Node entry only (it reads log files: server.ts registers it; start.ts, shared with the browser
// build, must not): the document's filter evaluated on an NDJSON log file (gzip or
// not, streamed) or the generated sample; the first SAMPLE_KEEP lines are kept for the document's code lens.
import { RequestType } from './library';
import type { FilterNode, LogRecord, TextFieldValues } from '../core';
import { SAMPLE_LOGS_DATASET, SAMPLE_SIZE, en, TestFilterRequest, TestRulesRequest, type FilterBranch, type SkippedLines, type TestFilterParams, type TestFilterResult, type TestRulesParams, type TestRulesResult } from '../protocol';
import { core, coreModule, docName, coreOptions, kindOf, refreshCodeLenses, type ServerContext } from './context';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocKind } from '../core';
import type { Settings } from '../protocol';
import { filterOf, KeptRecords, SAMPLE_KEEP } from './filterSample';
import type * as Ndjson from '../eval/ndjson';

/** The NDJSON reader (node:fs, zlib, readline) is loaded with the first test, not with the server (cold start, issue 18). */
const ndjson = (): typeof Ndjson => require('../eval/ndjson') as typeof Ndjson;

/** A record's size as the budget of kept records counts it: the characters of its JSON (a file's line, when it was not read from one). */
const jsonChars = (record: LogRecord): number => coreModule().stringifyExact(record).length;

/**
 * Each record of the file to `take`; the lines it skipped (the first three named by number) and, when reading stopped before the end,
 * why. An error when nothing could be read (no such file, a directory, gzip cut inside its header), or when cancelled.
 */
async function readRecords(file: string, token: { isCancellationRequested: boolean }, take: (line: number, record: LogRecord, size: () => number) => void): Promise<SkippedLines | { error: string }> {
  const skipped: SkippedLines & { badLines: number; badLineErrors: string[] } = { badLines: 0, badLineErrors: [] };
  let read = 0;
  for await (const item of ndjson().readNdjson(file, () => token.isCancellationRequested)) {
    if (token.isCancellationRequested) return { error: 'Cancelled.' };
    if ('record' in item) { read++; take(item.line, item.record, () => item.chars ?? jsonChars(item.record)); continue; }
    if (item.fatal) {
      if (read === 0 && skipped.badLines === 0) return { error: `${item.error[0].toUpperCase()}${item.error.slice(1)}.` };
      skipped.readError = item.error;
      break;
    }
    skipped.badLines++;
    if (skipped.badLineErrors.length < 3) skipped.badLineErrors.push(item.error);
  }
  // The reader stops inside a line when cancelled: its items end without one to look at.
  if (token.isCancellationRequested) return { error: 'Cancelled.' };
  return skipped;
}

/**
 * Why the document is not evaluated: it has errors (as edgekit test-filter and test-rules refuse it, so a result is never shown for a
 * filter or ruleset the platform would refuse), the first one named; undefined when it has none. Warnings do not stop it.
 */
function documentErrors(ctx: ServerContext, doc: TextDocument, kind: DocKind, s: Settings): string | undefined {
  // Every problem (no cap): an error after maxProblems warnings still counts
  const errors = core().validate(doc.getText(), kind, { ...coreOptions(s), maxProblems: Number.MAX_SAFE_INTEGER, maxFileSizeKB: Number.MAX_SAFE_INTEGER, parsed: ctx.parses.get(doc) })
    .filter((p) => p.severity === 'error');
  if (!errors.length) return undefined;
  return `Cannot test ${docName(doc.uri)}: it has ${coreModule().plural(errors.length, 'error')}, e.g. line ${doc.positionAt(errors[0].offset).line + 1}: ${errors[0].message} (${errors[0].code}); fix them first.`;
}

/** The generated sample's size, or why the one asked for is refused (it is built in memory before it is counted). */
export const MAX_SAMPLE = 100_000;
function sampleSize(sample: unknown): number | { error: string } {
  if (sample === undefined) return SAMPLE_SIZE;
  return Number.isInteger(sample) && (sample as number) >= 1 && (sample as number) <= MAX_SAMPLE ? sample as number
    : { error: `The sample size ${JSON.stringify(sample)} is not a whole number from 1 to ${MAX_SAMPLE}.` };
}

/** A first match as JSON-RPC can send it: a record holding a bigint (an integer past 2^53 as its line writes it: readNdjson) goes with
 * its nearest doubles, and its text with the digits (JSON.stringify, as JSON-RPC writes a message, throws on a bigint). */
function wireMatch(line: number, record: LogRecord): { line: number; record: LogRecord; text?: string } {
  let big = false;
  const doubles = JSON.stringify(record, (_k, v: unknown) => (typeof v === 'bigint' ? (big = true, Number(v)) : v));
  return big ? { line, record: JSON.parse(doubles) as LogRecord, text: coreModule().stringifyExact(record) } : { line, record };
}

/** The zone the generated sample's requests go to: the one the client named, else example.com; or why the name is refused. */
function sampleZone(zone: unknown): string | { error: string } {
  if (zone === undefined) return coreModule().SAMPLE_ZONE;
  const name = typeof zone === 'string' ? coreModule().asciiHost(zone) : undefined;
  return name !== undefined && name.length <= 253 && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i.test(name) ? name.toLowerCase()
    : { error: `The zone name ${coreModule().headOf(JSON.stringify(zone) ?? String(zone), 80)} is not a host name (letters, digits and hyphens, in labels joined by dots).` };
}

/** The tree's counts; a comparison of text that matched no line of the generated sample names the sample's values of its field. */
function branches(n: FilterNode, sample?: TextFieldValues): FilterBranch {
  const values = sample && n.textField && n.matched === 0 ? sample.line(n.textField) : undefined;
  return { label: n.label, matched: n.matched, ...(values ? { sampleValues: values } : {}), children: n.children.map((c) => branches(c, sample)) };
}

export function registerTestFilter(ctx: ServerContext): void {
  ctx.connection.onRequest(new RequestType<TestFilterParams, TestFilterResult, void>(TestFilterRequest.method), async (params, token): Promise<TestFilterResult> => {
    const doc = ctx.documents.get(params.uri);
    const kind = doc && kindOf(doc);
    if (!doc || (kind !== 'logpush-filter' && kind !== 'logpush-job')) return { error: 'Open a Logpush filter (*.filter.json) or job (*.logpush.json) first.' };
    const s = await ctx.settings.get(doc.uri, doc.languageId);
    const parsed = ctx.parses.get(doc);
    const f = filterOf(kind, parsed.value, coreOptions(s).logpushDataset, parsed.text);
    if ('error' in f) return { error: `Cannot test ${docName(doc.uri)}: ${f.error}.` };
    const invalid = documentErrors(ctx, doc, kind, s);
    if (invalid) return { error: invalid };
    // None of the sample's lines has another dataset's fields: its positive comparisons would match none, its negated ones all.
    if (!params.logs && f.dataset !== SAMPLE_LOGS_DATASET) {
      return { error: `The generated sample holds ${SAMPLE_LOGS_DATASET} log lines, and ${docName(doc.uri)} is a filter of the ${f.dataset} dataset, whose fields they do not have; test it on a ${f.dataset} log file (NDJSON, as Logpush delivers it).` };
    }
    const c = coreModule().compileFilter(f.filter, f.dataset);
    if (!c.ok) return { error: `${c.error} (${docName(doc.uri)})` };
    const kept = new KeptRecords<LogRecord>();
    const firstMatches: { line: number; record: LogRecord; text?: string }[] = [];
    let total = 0, matched = 0;
    // Real logs only: the generated sample is ours, and has the fields it has.
    const records = params.logs ? coreModule().logRecordChecker(coreModule().filterKeys(f.filter), coreModule().filterValueReaders(f.filter, f.dataset)) : undefined;
    // The generated sample only: a log file's values are the user's data
    const sampleValues = params.logs ? undefined : new (coreModule().TextFieldValues)(c.filter.root);
    const take = (line: number, record: LogRecord, size: () => number) => {
      total++;
      records?.take(record, line);
      sampleValues?.take(record);
      kept.add(record, size);
      if (c.filter.testCounting(record)) { matched++; if (firstMatches.length < 5) firstMatches.push(wireMatch(line, record)); }
    };
    let skipped: SkippedLines = {};
    let sampleTo = '';
    if (params.logs) {
      const r = await readRecords(params.logs, token, take);
      if ('error' in r) return r;
      skipped = r;
    } else {
      const size = sampleSize(params.sample);
      if (typeof size !== 'number') return size;
      const zone = sampleZone(params.zone);
      if (typeof zone !== 'string') return zone;
      if (params.zone !== undefined) sampleTo = zone;
      let i = 0;
      // A generated record is kept within the same budget of characters as a file's line
      for (const r of coreModule().eachSampleHttpRequest(size, 1, 0.1, false, zone)) take(++i, r, () => jsonChars(r));
    }
    const label = params.logs ? `lines of ${params.logs.split(/[\\/]/).pop()}` : 'sample lines';
    ctx.samples.set(doc.uri, { records: kept.records, label, total, dataset: f.dataset });
    refreshCodeLenses(ctx);
    const recordProblems = records?.result();
    return { source: params.logs ?? `the generated sample (${en(total)} ${SAMPLE_LOGS_DATASET} lines${sampleTo ? ` to ${sampleTo} and its subdomains` : ''})`, dataset: f.dataset, total, matched, badLines: 0, ...skipped,
      ...(recordProblems ? { recordProblems } : {}), branches: branches(c.filter.root, sampleValues), firstMatches };
  });
}

/** edgekit/testRules: the document's ruleset on an NDJSON file of request records or the generated sample requests (to the zone
 * the client names, checked as testFilter checks it, else example.com). */
export function registerTestRules(ctx: ServerContext): void {
  ctx.connection.onRequest(new RequestType<TestRulesParams, TestRulesResult, void>(TestRulesRequest.method), async (params, token): Promise<TestRulesResult> => {
    const doc = ctx.documents.get(params.uri);
    if (!doc || kindOf(doc) !== 'waf-ruleset') return { error: 'Open a ruleset (*.ruleset.json) first.' };
    const invalid = documentErrors(ctx, doc, 'waf-ruleset', await ctx.settings.get(doc.uri, doc.languageId));
    if (invalid) return { error: invalid };
    const ruleset = ctx.parses.get(doc).value;
    const run = coreModule().compileRuleset(ruleset);
    if (!run.ok) return { error: `Cannot test ${docName(doc.uri)}: ${run.error}` };
    let skipped: SkippedLines = {};
    let sampleTo = '';
    // Request records, or http_requests log lines read as the requests they log
    const records = coreModule().requestReader(coreModule().rulesetFields(ruleset));
    // The first SAMPLE_KEEP requests are kept for the rules' code lenses, which count them again as the document changes.
    // Each rule's match of them is remembered, so that the lenses test only the rules an edit changes.
    const kept = new KeptRecords<LogRecord>();
    const remembered = new (coreModule().RememberedMatches)(SAMPLE_KEEP);
    const take = (record: LogRecord, line: number, size: () => number) => { kept.add(record, size); run.take(record, line, remembered); };
    if (params.requests) {
      const r = await readRecords(params.requests, token, (line, record, size) => {
        // A line whose RayID an earlier line of either dataset had (another firewall_events event, or the http_requests line of a
        // request already taken from firewall_events) is a request already taken: records.read gives nothing for it.
        const request = records.read(record, line);
        if (request) take(request, line, size);
      });
      if ('error' in r) return r;
      skipped = r;
    } else {
      const size = sampleSize(params.sample);
      if (typeof size !== 'number') return size;
      const zone = sampleZone(params.zone);
      if (typeof zone !== 'string') return zone;
      if (params.zone !== undefined) sampleTo = zone;
      let i = 0;
      // A sample request carries headers, cookies and a body (about 7 KB): kept within the same budget as a file's line
      for (const r of coreModule().eachSampleRequest(size, 1, 0.1, zone)) take(r, ++i, () => jsonChars(r));
    }
    ctx.samples.set(doc.uri, { records: kept.records, label: params.requests ? `requests of ${params.requests.split(/[\\/]/).pop()}` : 'sample requests', total: run.total(), remembered });
    refreshCodeLenses(ctx);
    const recordProblems = records.problems();
    const logLines = records.logLines();
    return { source: params.requests ?? `the generated sample (${en(run.total())} requests${sampleTo ? ` to ${sampleTo} and its subdomains` : ''})`, total: run.total(), ...skipped, ...(recordProblems ? { recordProblems } : {}),
      ...(logLines ? { logLines } : {}), undecided: run.undecided(), executed: run.executed(), rules: run.rules };
  });
}
