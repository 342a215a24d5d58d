// `edgekit test-filter`: what a Logpush filter (a *.filter.json, or the `filter` of a job) matches in a log file as Logpush delivers
// it (NDJSON, optionally gzip), streamed in constant memory: matched/total, each branch's count, the first matching lines.
import * as fs from 'node:fs';
import { catalogue, compileFilter, compileRuleset, filterKeys, filterValueReaders, getLanguageService, kinds, logRecordChecker, plural, requestReader, rulesetFields, stringifyExact, tidyMessage, withExactIntegers, type FilterNode, type RecordProblems, type ValueTally } from './core';
import { readNdjson } from './eval/ndjson';
import { readFileWhole } from './eval/readWhole';
import { jobScopeOf, logLinesLine, overwrittenLine, rateLimitLines, type JobScope } from './protocol';
import { OptionsError, parseOptions } from '../../mock/src/options';

/** test-filter's options as its parser takes them; TEST_FILTER_USAGE names each (a unit test holds the two equal). */
export const TEST_FILTER_OPTIONS = { dataset: { type: 'string' }, scope: { type: 'string' }, format: { type: 'string' }, show: { type: 'string' } } as const;

export const TEST_FILTER_USAGE = `Usage: edgekit test-filter FILTER_OR_JOB LOGS.ndjson[.gz] [--dataset NAME] [--scope zone|account] [--format text|json] [--show N]
Evaluates a Logpush filter (a *.filter.json, or a *.logpush.json job's "filter") on every line of an NDJSON log file (gzip or not;
a pipe too: <(zcat logs.gz), /dev/stdin) and prints how many lines it lets through, each and/or branch's count, and the first N matching lines (default 5).
A field the filter compares that no line has is named (its comparisons match nothing, or everything when negated).
--scope says where the job is created, as lint's does: a field of the other scope's jobs only (ZoneName) is then an error.
Exit codes: 0 evaluated, 1 the filter or the job has errors, or the log file cannot be read, 2 usage.`;

export interface Io { stdout(s: string): void; stderr(s: string): void; /** The most read of the filter, job or ruleset (readWhole.ts; tests). */ maxDocumentBytes?: number }

/** `overrode`: where the file names the dataset that --dataset, given, did not set. */
interface Source { filter: unknown; dataset: string; what: string; overrode?: string }

/** Why a log or request file cannot be read (missing, a directory, no permission), or undefined when it can. */
function unreadable(file: string): string | undefined {
  try {
    if (fs.statSync(file).isDirectory()) return 'it is a directory';
    fs.accessSync(file, fs.constants.R_OK);
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
  }
}

/** A UTF-8 byte order mark is not part of the JSON (lint ignores it too). */
const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The filter to evaluate and its dataset, from a filter file or a job file; a string names what is wrong. */
function loadFilter(file: string, datasetOption: string | undefined, scope: JobScope | undefined, maxBytes?: number): Source | string {
  const named = kinds.detectKind(file);
  if (named && named !== 'logpush-filter' && named !== 'logpush-job') {
    return `${file} is a ${named} document; test-filter takes a Logpush filter or job${named === 'waf-ruleset' ? ' (for a ruleset, use edgekit test-rules)' : ''}`;
  }
  let text: string;
  try { text = withoutBom(readFileWhole(file, maxBytes).toString('utf8')); } catch (err) { return `cannot read ${file}: ${(err as Error).message}`; }
  let value: unknown;
  try { value = JSON.parse(text); } catch (err) { return `${file} is not valid JSON (${(err as Error).message})`; }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${file} is not a JSON object`;
  const v = value as Record<string, unknown>;
  const isJob = kinds.detectKind(file) === 'logpush-job' || (!('where' in v) && ('dataset' in v || 'filter' in v));
  const kind = isJob ? 'logpush-job' : 'logpush-filter';
  // As the check decides it (README, "Which dataset checks a standalone filter"): the file's "$dataset" wins, else --dataset.
  const dataset = isJob ? String(v.dataset ?? 'http_requests') : typeof v.$dataset === 'string' ? v.$dataset : datasetOption ?? 'http_requests';
  const errors = getLanguageService().validate(text, kind, { logpushDataset: dataset, logpushScope: scope, ...ALL })
    .filter((p) => p.severity === 'error');
  if (errors.length) return `${file} has ${plural(errors.length, 'error')}, e.g. ${errors[0].message} (${errors[0].code}); fix them first (edgekit lint ${file})`;
  const overrode = datasetOption === undefined || datasetOption === dataset ? undefined
    : isJob ? `the job in ${file} names its dataset` : typeof v.$dataset === 'string' ? `${file} names its dataset in "$dataset"` : undefined;
  const given = overrode ? { overrode } : {};
  // Integers past 2^53 keep the digits the file writes, as the editor's Test Filter reads them (lsp/filterSample.ts filterOf)
  if (!isJob) return { filter: withExactIntegers(text, v), dataset, what: file, ...given };
  if (typeof v.filter !== 'string' || v.filter.trim() === '') return { filter: { where: { and: [] } }, dataset, what: `${file} (no filter: every line)`, ...given };
  return { filter: withExactIntegers(v.filter, JSON.parse(v.filter)), dataset, what: `the filter of ${file}`, ...given };
}

/** The checks before a test see every problem: with the editor's cap (maxProblems, 1000), a file with more errors was said to have
 * 1000, and one whose first 1000 problems were warnings went on to be tested with its errors unseen. */
const ALL = { maxProblems: Number.MAX_SAFE_INTEGER, maxFileSizeKB: Number.MAX_SAFE_INTEGER };

function branchLines(node: FilterNode, total: number, depth = 0, out: string[] = []): string[] {
  const pct = total ? ` (${((100 * node.matched) / total).toFixed(1)} %)` : '';
  out.push(`${'  '.repeat(depth + 1)}${node.label}: ${node.matched}${pct}`);
  for (const c of node.children) branchLines(c, total, depth + 1, out);
  return out;
}

function branchJson(node: FilterNode): unknown {
  return { label: node.label, path: node.path, matched: node.matched, children: node.children.map(branchJson) };
}

export async function testFilterCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions(argv, TEST_FILTER_OPTIONS);
  } catch (err) {
    if (err instanceof OptionsError) { io.stderr(`edgekit: ${err.message}\n\n${TEST_FILTER_USAGE}\n`); return 2; }
    throw err;
  }
  const { values, positionals } = parsed;
  const format = values.format ?? 'text';
  const show = values.show === undefined ? 5 : Number(values.show);
  const problems = [
    positionals.length !== 2 && `expected FILTER_OR_JOB and LOGS, got ${plural(positionals.length, 'argument')}`,
    format !== 'text' && format !== 'json' && `unknown format "${format}"; use text or json`,
    (!Number.isInteger(show) || show < 0) && `--show needs a whole number, not "${values.show}"`,
    values.dataset !== undefined && !catalogue.logpush.datasetInfo(values.dataset) && `unknown dataset "${values.dataset}"`,
    values.scope !== undefined && !jobScopeOf(values.scope) && `unknown scope "${values.scope}"; use zone or account`,
  ].filter(Boolean);
  if (problems.length) { io.stderr(`edgekit: ${problems.join('; ')}.\n\n${TEST_FILTER_USAGE}\n`); return 2; }
  const [filterFile, logFile] = positionals;
  const source = loadFilter(filterFile, values.dataset, jobScopeOf(values.scope), io.maxDocumentBytes);
  if (typeof source === 'string') { io.stderr(`edgekit: ${source}.\n`); return 1; }
  if (source.overrode) io.stderr(`edgekit: --dataset ${values.dataset} is not used: ${source.overrode}, ${source.dataset}.\n`);
  const compiled = compileFilter(source.filter, source.dataset);
  if (!compiled.ok) { io.stderr(`edgekit: ${compiled.error}\n`); return 1; }
  const logProblem = unreadable(logFile);
  if (logProblem) { io.stderr(`edgekit: cannot read ${logFile}: ${logProblem}.\n`); return 1; }
  let total = 0, matched = 0, bad = 0;
  let unit: 'line' | 'item' = 'line'; // a JSON array file's records are its items
  const firstBad: string[] = [];
  let readError: string | undefined;
  const firstMatches: { line: number; record: Record<string, unknown> }[] = [];
  const records = logRecordChecker(filterKeys(source.filter), filterValueReaders(source.filter, source.dataset));
  for await (const item of readNdjson(logFile)) {
    if ('error' in item) {
      if (item.fatal) { readError = item.error; break; }
      if (item.item) unit = 'item';
      bad++; if (firstBad.length < 3) firstBad.push(tidyMessage(item.error)); continue;
    }
    total++;
    records.take(item.record, item.line);
    if (compiled.filter.testCounting(item.record)) {
      matched++;
      if (firstMatches.length < show) firstMatches.push(item);
    }
  }
  // Nothing read: the file cannot be read. Else the counts so far, said to be partial, and exit 1 all the same.
  if (readError && total === 0 && bad === 0) { io.stderr(`edgekit: ${readError}.\n`); return 1; }
  const wrongFile = notNdjson(logFile, total, bad, readError, unit);
  if (format === 'json') {
    if (wrongFile) io.stderr(`edgekit: ${wrongFile}.\n`);
    // stringifyExact: a record's integer past 2^53 is a bigint of the line's digits (readNdjson), written as that JSON number
    io.stdout(stringifyExact({ filter: source.what, dataset: source.dataset, logs: logFile, total, matched, badLines: bad, badLineErrors: firstBad,
      ...(readError ? { readError } : {}), ...(records.result() ? { recordProblems: records.result() } : {}), branches: branchJson(compiled.filter.root), firstMatches }) + '\n');
    return readError || wrongFile ? 1 : 0;
  }
  const pct = total ? ` (${((100 * matched) / total).toFixed(1)} %)` : '';
  const lines = [
    `${source.what} on ${logFile} (dataset ${source.dataset}): matches ${matched} of ${total} lines${pct}${readError ? ', before reading stopped' : ''}.`,
    ...(bad ? [skippedLine(bad, firstBad, unit)] : []),
    ...recordLines(records.result(), 'line'),
    'Branches:',
    ...branchLines(compiled.filter.root, total),
    ...(firstMatches.length ? ['First matching lines:', ...firstMatches.map((m) => `  ${m.line}: ${stringifyExact(m.record)}`)] : []),
  ];
  io.stdout(lines.join('\n') + '\n');
  if (readError) { io.stderr(`edgekit: ${readError}; the counts above cover the lines before it.\n`); return 1; }
  if (wrongFile) { io.stderr(`edgekit: ${wrongFile}.\n`); return 1; }
  return 0;
}

/** The records a run could not read as the platform would (core/eval/records.ts), under the counts. */
function recordLines(r: RecordProblems | undefined, unit: 'line' | 'request'): string[] {
  if (!r) return [];
  return [`${plural(r.records, unit)} not read as on the platform: ${r.examples.join('; ')}.`];
}

/**
 * Lines were read and none of them was a record: a file that is not NDJSON (binary, text, one JSON document over several lines), which
 * "matches 0 of 0 lines" with exit 0 let a pipeline given the wrong file pass. An empty file is an empty log, not this. A JSON array
 * (read too: readNdjson) none of whose items is an object is named by its items.
 */
function notNdjson(file: string, total: number, bad: number, readError: string | undefined, unit: 'line' | 'item'): string | undefined {
  if (total > 0 || bad === 0 || readError) return undefined;
  return unit === 'item' ? `no item of the JSON array in ${file} is a JSON object (${plural(bad, 'item')} skipped); records are JSON objects, one per line (NDJSON) or as the items of an array`
    : `no line of ${file} is a JSON object (${plural(bad, 'line')} skipped); the file must be NDJSON, one JSON object per line`;
}

function skippedLine(bad: number, firstBad: string[], unit: 'line' | 'item'): string {
  return `${plural(bad, unit)} skipped: ${firstBad.join('; ')}${bad > firstBad.length ? '; …' : ''}.`;
}

/** test-rules' options as its parser takes them; TEST_RULES_USAGE names each (a unit test holds the two equal). */
export const TEST_RULES_OPTIONS = { format: { type: 'string' } } as const;

export const TEST_RULES_USAGE = `Usage: edgekit test-rules RULESET REQUESTS.ndjson[.gz] [--format text|json]
Evaluates each rule of a ruleset (a *.ruleset.json entry point) on every request of an NDJSON file, gzip or not, a pipe too (one
request record per line: {"http.host": "...", "ip.src": "...", ...}; a JSON array of records is read too; or your http_requests or
firewall_events Logpush logs: a line with Logpush's field names, {"ClientIP": "...", "ClientRequestPath": "...", ...}, is read as
the request it logs, as a line of the dataset its names tell (http_requests when they cannot tell; a line with the RayID of an
earlier line of either dataset logs a request already read, and is not read again, except a repeat within http_requests), and the
dataset and the fields the rules read that no line gives are named) and prints, per rule, how many requests its expression
matches, how many its action applies to, and how many it decides. The rules run in order, as on the platform: a
matching rule with a terminating action (block, challenge, js_challenge, managed_challenge, redirect, serve_error, log_custom_field)
decides the request and later rules do not run, as does a skip of the remaining rules: the API's "ruleset": "current" ("A
ruleset to skip the execution of") or "phase": "current" ("A phase to skip the execution of"), which in a run of one ruleset
both skip the rules after it. Execute, log, a skip of "phases", "rulesets", "rules" or "products" and the other actions let the
next rules run. An execute rule hands the request to a managed ruleset whose own rules this run does not have.
For a rule that sets something (a header, a URL rewrite, a redirect target), the values its expressions give on the first 3
requests it matches and how many distinct values they gave; static values as they are; and which later rule set the same
thing again (later rules overwrite earlier ones). A rate limiting rule (phase http_ratelimit) applies its action only once the
requests with the same values of its characteristics pass its threshold in its period, counted from the requests'
http.request.timestamp.sec as one data center's.
A record's map of arrays ("http.request.headers": {"x-a": ["1"]}) gives the .names and .values fields the record leaves out.
Records the platform would not read so (a field the rules language does not have, a value of the wrong type) are named.
Exit codes: 0 evaluated, 1 the ruleset has errors or the requests cannot be read, 2 usage.`;

/** A value a rule sets, as a line shows it: as it is, or as a JSON string when it is empty, has spaces at an end or control characters
 * (a request's header can hold a newline); "(no value)" for none (a missing header). */
function shownValue(v: string | null): string {
  if (v === null) return '(no value)';
  // eslint-disable-next-line no-control-regex
  return v === '' || /^\s|\s$|[\u0000-\u001f\u007f\u2028\u2029]/.test(v) ? JSON.stringify(v) : v;
}

/** What one thing a rule sets gave, under the rule's counts: a value expression's first values on matching requests. */
function valueLines(v: ValueTally): string[] {
  const over = overwrittenLine(v);
  return [...valueHead(v), ...(over ? [`      ${over}`] : [])];
}

function valueHead(v: ValueTally): string[] {
  const name = v.operation === 'add' ? `${v.name} (add)` : v.name;
  if (v.expression === undefined) return [`    ${name}: ${v.value !== undefined ? `${shownValue(v.value)} (a static value)` : 'removed'}`];
  const head = `    ${name} = ${v.expression.replace(/\s*[\r\n]+\s*/g, ' ')}`;
  if (v.error) return [`${head}: not evaluated: ${v.error}`];
  if (!v.examples.length) return [`${head}: no request matched the rule`];
  return [`${head}: ${v.distinctMore ? 'at least ' : ''}${plural(v.distinct, 'distinct value')} on the requests it matches, the first:`,
    ...v.examples.map((e) => `      line ${e.line}: ${v.name}: ${shownValue(e.value)}`)];
}

export async function testRulesCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions(argv, TEST_RULES_OPTIONS);
  } catch (err) {
    if (err instanceof OptionsError) { io.stderr(`edgekit: ${err.message}\n\n${TEST_RULES_USAGE}\n`); return 2; }
    throw err;
  }
  const { values, positionals } = parsed;
  const format = values.format ?? 'text';
  if (positionals.length !== 2 || (format !== 'text' && format !== 'json')) {
    io.stderr(`edgekit: ${positionals.length !== 2 ? `expected RULESET and REQUESTS, got ${plural(positionals.length, 'argument')}` : `unknown format "${format}"; use text or json`}.\n\n${TEST_RULES_USAGE}\n`);
    return 2;
  }
  const [rulesetFile, requestsFile] = positionals;
  const named = kinds.detectKind(rulesetFile);
  if (named && named !== 'waf-ruleset') {
    io.stderr(`edgekit: ${rulesetFile} is a ${named} document; test-rules takes a ruleset${named.startsWith('logpush') ? ' (for a filter or job, use edgekit test-filter)' : ''}.\n`);
    return 1;
  }
  let text: string;
  try { text = withoutBom(readFileWhole(rulesetFile, io.maxDocumentBytes).toString('utf8')); } catch (err) { io.stderr(`edgekit: cannot read ${rulesetFile}: ${(err as Error).message}.\n`); return 1; }
  const errors = getLanguageService().validate(text, 'waf-ruleset', ALL).filter((p) => p.severity === 'error');
  if (errors.length) { io.stderr(`edgekit: ${rulesetFile} has ${plural(errors.length, 'error')}, e.g. ${errors[0].message} (${errors[0].code}); fix them first (edgekit lint ${rulesetFile}).\n`); return 1; }
  const ruleset: unknown = JSON.parse(text);
  const run = compileRuleset(ruleset);
  if (!run.ok) { io.stderr(`edgekit: ${rulesetFile}, ${run.error}\n`); return 1; }
  const requestsProblem = unreadable(requestsFile);
  if (requestsProblem) { io.stderr(`edgekit: cannot read ${requestsFile}: ${requestsProblem}.\n`); return 1; }
  let bad = 0;
  let unit: 'line' | 'item' = 'line'; // a JSON array file's records are its items
  const firstBad: string[] = [];
  let readError: string | undefined;
  const records = requestReader(rulesetFields(ruleset));
  for await (const item of readNdjson(requestsFile)) {
    if ('error' in item) {
      if (item.fatal) { readError = item.error; break; }
      if (item.item) unit = 'item';
      bad++; if (firstBad.length < 3) firstBad.push(tidyMessage(item.error));
    } else {
      // A line whose request was read already (another security event of it, or its line in the other dataset) is not taken again
      const request = records.read(item.record, item.line);
      if (request) run.take(request, item.line);
    }
  }
  const logLines = records.logLines();
  const total = run.total(), undecided = run.undecided(), executed = run.executed();
  if (readError && total === 0 && bad === 0) { io.stderr(`edgekit: ${readError}.\n`); return 1; }
  const wrongFile = notNdjson(requestsFile, total, bad, readError, unit);
  const compiled = run.rules;
  if (format === 'json') {
    if (wrongFile) io.stderr(`edgekit: ${wrongFile}.\n`);
    io.stdout(JSON.stringify({
      ruleset: rulesetFile, requests: requestsFile, total, badLines: bad, badLineErrors: firstBad, ...(readError ? { readError } : {}),
      ...(records.problems() ? { recordProblems: records.problems() } : {}), ...(logLines ? { logLines } : {}), undecided, executed,
      rules: compiled.map(({ label, action, enabled, terminating, matched, applied, decided, skipped, firstMatches, values, ratelimit }) =>
        ({ label, action, enabled, terminating, matched, applied, decided, skipped, firstMatches, ...(values ? { values } : {}), ...(ratelimit ? { ratelimit } : {}) })),
    }) + '\n');
    return readError || wrongFile ? 1 : 0;
  }
  const lines = [
    `${rulesetFile} on ${plural(total, 'request')} of ${requestsFile}${readError ? ', before reading stopped' : ''}:`,
    ...(bad ? [skippedLine(bad, firstBad, unit)] : []),
    ...(logLines ? [`  ${logLinesLine(logLines)}`] : []),
    ...recordLines(records.problems(), 'request'),
    ...compiled.flatMap((c) => [`  rule ${c.label}${c.enabled ? '' : ' [disabled]'}: matches ${c.matched}, applies to ${c.applied}, decides ${c.decided}` +
      `${c.skipped ? `, skipped for ${c.skipped}` : ''}`, ...(c.ratelimit ? rateLimitLines(c.ratelimit).map((l) => `    ${l}`) : []), ...(c.values ?? []).flatMap(valueLines)]),
    `  no rule decides ${plural(undecided, 'request')}${executed ? `; ${executed} went through an execute rule, to managed rules this run does not evaluate` : ''}.`,
  ];
  io.stdout(lines.join('\n') + '\n');
  if (readError) { io.stderr(`edgekit: ${readError}; the counts above cover the requests before it.\n`); return 1; }
  if (wrongFile) { io.stderr(`edgekit: ${wrongFile}.\n`); return 1; }
  return 0;
}
