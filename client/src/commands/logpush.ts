// Commands: a filter file <-> the escaped string of a job's `filter` member, and creating a job on the backend.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { DocumentInfoRequest, SAMPLE_LOGS_DATASET, SAMPLE_SIZE, en, logLinesLine, overwrittenLine, plural, rateLimitLines, FilterToJobStringRequest, JobStringToFilterRequest, TestFilterRequest, TestRulesRequest, type FilterBranch, type SkippedLines, type TestFilterResult, type TestRulesResult, type TestRulesValue } from '../../../server/src/protocol';
import { UserError } from './run';
import { exclusive } from './inFlight';
import { apiFor, apiRefusedHere, pickAccount, pickZone, pickZoneOrAccount, zoneHints } from './api';
import type { Api, JobPlace } from '../http/api';
import { lastDeliveredFile, MOCK_DELIVERED_DATASETS, nothingDelivered } from './traffic';
import { Config, turnsOffQuestion } from '../config';
import { isServedDocument } from '../languages';
import { codeSpan, mdSourceText } from '../markdown';
import { readJobText, syntaxRefusal } from '../jobSyntax';
import { valueAsChecked } from '../jobText';
import { confirmOwnership } from './ownership';
import { documentName } from '../untitled';

/** The name endings of each kind (package.json "contributes.languages" extensions), for finding its files in the workspace. */
export const KIND_SUFFIXES: Record<string, string[]> = {
  'logpush-filter': ['filter'], 'logpush-job': ['logpush'], 'jsonrpc-request': ['rpc', 'jsonrpc'], 'waf-ruleset': ['ruleset'],
};

/**
 * The document a command works on: the one it is given, else the active editor's, else, when no text editor is active (the
 * walkthrough's buttons, the palette over the Welcome page), one of the workspace's files of those kinds, picked. Those buttons
 * said "Open a gateway request first." and did nothing, though the workspace had one.
 */
export async function targetUri(arg: unknown, kinds: string[], what: string): Promise<vscode.Uri> {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string') return vscode.Uri.parse(arg);
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active) return active;
  const suffixes = kinds.flatMap((k) => KIND_SUFFIXES[k] ?? []);
  const glob = suffixes.length === 1 ? `**/*.${suffixes[0]}.json` : `**/*.{${suffixes.join(',')}}.json`;
  const files = (await vscode.workspace.findFiles(glob, '**/node_modules/**', 200))
    .sort((a, b) => vscode.workspace.asRelativePath(a).localeCompare(vscode.workspace.asRelativePath(b)));
  if (files.length === 0) {
    // A request to send is offered (the walkthrough's "Send a gateway request" in any workspace); the filter example is the
    // walkthrough's first step, and a ruleset or job means little without the zone or account it belongs to.
    throw new UserError(`Open a ${what} first; this workspace has none.`,
      kinds.includes('jsonrpc-request') ? [{ title: 'Open an Example Request', command: 'edgekit.openExample', args: ['jsonrpc-request'] }] : []);
  }
  const pick = await vscode.window.showQuickPick(files.map((uri) => ({ label: documentName(uri), uri })), { title: `Which ${what}?` });
  if (!pick) throw new vscode.CancellationError();
  // Shown, so that what the command sends or tests (and its code lenses) is on screen beside the result; beside what the active
  // group shows (the walkthrough whose button ran the command: opened over it, its steps went out of sight), in an empty one there.
  const showing = vscode.window.tabGroups.activeTabGroup?.activeTab !== undefined;
  await vscode.window.showTextDocument(pick.uri, { preview: true, viewColumn: showing ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active });
  return pick.uri;
}

/**
 * Whether a command was run from the Explorer's context menu: VS Code passes the file clicked and the files selected, `(uri, uris[])`
 * (the editor title passes `(uri, { groupId })`, the editor's context menu the URI alone).
 */
export function fromExplorer(arg: unknown, second: unknown): arg is vscode.Uri {
  return arg instanceof vscode.Uri && Array.isArray(second) && second.length > 0 && second.every((u) => u instanceof vscode.Uri);
}

/**
 * A file a test was run on from the Explorer, shown first (in the active group, as a click there opens it) unless an editor shows it
 * already: its lenses (the counts the test writes there) and the report opened beside it are then on screen, as for a file picked
 * (targetUri). Without it the report opened beside whatever editor was active, or beside an empty group in a window with none.
 */
async function showExplorerFile(arg: unknown, second: unknown): Promise<void> {
  if (!fromExplorer(arg, second)) return;
  if (vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === arg.toString())) return;
  await vscode.window.showTextDocument(arg, { preview: true });
}

export async function documentOf(kind: string, arg: unknown, what: string): Promise<vscode.TextDocument> {
  const uri = await targetUri(arg, [kind], what);
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== kind) throw new UserError(`${documentName(uri)} is not a ${what} (its language is "${doc.languageId}").`);
  return doc;
}

/**
 * For the commands the language server answers: a document it is given (a file or an untitled one). Another scheme's (the older side
 * of a diff, git:) has the language but the server never sees it, and said "not open" or "open a filter first" of the open document.
 * A notebook cell (its editor's key and context menu reach it since kb1) is said as one: it was "nb.ipynb is an
 * "vscode-notebook-cell:" document (e.g. the older side of a diff) …; open the file itself", a file it is not.
 */
export function servedByServer(doc: vscode.TextDocument): vscode.TextDocument {
  if (isServedDocument(doc)) return doc;
  const name = doc.uri.path.split('/').pop() || doc.uri.toString();
  if (doc.uri.scheme === 'vscode-notebook-cell') {
    throw new UserError(`A cell of the notebook ${name} is not a document EdgeKit's language server reads; copy its text into a file or an untitled document of its own.`);
  }
  throw new UserError(`${name} is opened through "${doc.uri.scheme}:" (the older side of a diff, a file of a virtual workspace), which EdgeKit's language server does not read; open the file on disk itself.`);
}

export const logpushCommands = {
  'edgekit.logpush.filterToString': (ctx: Ctx) => async (arg?: unknown) => {
    const doc = servedByServer(await documentOf('logpush-filter', arg, 'Logpush filter (*.filter.json)'));
    const r = await ctx.server.request(FilterToJobStringRequest.type, { uri: doc.uri.toString() });
    if (r.error || r.text === undefined) throw new UserError(r.error ?? 'The filter could not be converted.');
    // As it appears inside a job file: a JSON string literal.
    const literal = JSON.stringify(r.text);
    await vscode.env.clipboard.writeText(literal);
    const copied = `Copied the filter as a job "filter" string (${Buffer.byteLength(r.text, 'utf8')} bytes compact)`;
    // Copied all the same (the user may mean to fix it in the job), but not in silence: a job with it will be refused
    const errors = await errorsSentence(ctx, doc.uri);
    if (errors) void vscode.window.showWarningMessage(`${copied}, with its errors: ${errors} A job with it will probably be refused.`);
    else void vscode.window.showInformationMessage(`${copied}.`);
    return literal;
  },
  'edgekit.logpush.stringToFilter': (ctx: Ctx) => async (arg?: unknown) => {
    const doc = servedByServer(await documentOf('logpush-job', arg, 'Logpush job (*.logpush.json)'));
    const r = await ctx.server.request(JobStringToFilterRequest.type, { uri: doc.uri.toString() });
    if (r.error || r.text === undefined) throw new UserError(r.error ?? 'The filter could not be extracted.');
    if (r.text === '') throw new UserError(`The job in ${documentName(doc.uri)} has an empty filter (it pushes every log line).`);
    // The server's text as it is: it carries the job's dataset as "$dataset" (in an object only: a filter string holding an array,
    // null or a number opens as it is), and numbers as the job writes them (parsed and written again here, a unixnano timestamp
    // past 2^53 was rounded).
    const out = await vscode.workspace.openTextDocument({ language: 'logpush-filter', content: r.text + '\n' });
    await vscode.window.showTextDocument(out, { viewColumn: vscode.ViewColumn.Beside });
    return out.uri.toString();
  },
};

/** The lines a run skipped, the first ones named by number, and where reading stopped when it did (paragraphs, or none). */
function skippedText(r: SkippedLines): string[] {
  const out: string[] = [];
  if (r.readError) out.push(`**Reading stopped before the end of the file**: ${mdSourceText(r.readError)}. The counts cover the lines before it.`, '');
  if (r.badLines) {
    const more = r.badLines > (r.badLineErrors?.length ?? 0) ? ['- …'] : [];
    out.push(`${plural(r.badLines, 'line', undefined, en)} skipped:`, '', ...(r.badLineErrors ?? []).map((e) => `- ${mdSourceText(e)}`), ...more, '');
  }
  if (r.recordProblems) {
    out.push(`**${plural(r.recordProblems.records, 'record', undefined, en)} not read as on the platform**, so the counts below may not be what the platform would give:`, '',
      ...r.recordProblems.examples.map((e) => `- ${mdSourceText(e)}`), '');
  }
  return out;
}

/** The result of "Test Filter on Logs" as a short report: counts, each branch's, the first matching lines. */
export function testReport(name: string, r: TestFilterResult): string {
  const pct = (n: number) => (r.total ? ` (${((100 * n) / r.total).toFixed(1)} %)` : '');
  // A comparison of text that matched none of the generated sample: the sample's values of its field, on a line under it
  const tree = (b: FilterBranch, depth: number): string[] => [`${'  '.repeat(depth)}- ${codeSpan(b.label)}: ${en(b.matched)}${pct(b.matched)}`,
    ...(b.sampleValues ? [`${'  '.repeat(depth + 1)}- ${mdSourceText(b.sampleValues)}`] : []), ...b.children.flatMap((c) => tree(c, depth + 1))];
  return [
    `# ${name}: matches ${en(r.matched ?? 0)} of ${plural(r.total ?? 0, 'line', undefined, en)}${pct(r.matched ?? 0)}`, '',
    `Logs: ${r.source} · dataset \`${r.dataset}\``, '', ...skippedText(r),
    '## Branches', '', ...(r.branches ? tree(r.branches, 0) : []), '',
    '## First matching lines', '',
    ...(r.firstMatches?.length ? r.firstMatches.map((m) => `- line ${m.line}: ${codeSpan(m.text ?? JSON.stringify(m.record))}`)
      : [r.total ? `None of the ${en(r.total)} lines matched; the branches above show which comparison let none through.` : 'No log line was read.']), '',
  ].join('\n');
}

/**
 * The result of "Test Rules on Requests" as a short report: per rule, the requests it matches, those its action applies to (the rules
 * run in order; a terminating action or a skip of the remaining rules ends the evaluation) and those it decides.
 */
export function rulesReport(name: string, r: TestRulesResult): string {
  const rules = r.rules ?? [];
  // A skip of the remaining rules ends the evaluation too: it said "goes on" beside its own "decides" count.
  const effect = (x: (typeof rules)[number]) => !x.enabled ? 'disabled' : x.terminating ? 'terminating' : x.skipsRest ? 'skips the remaining rules'
    : x.action === 'execute' ? 'runs a ruleset' : 'goes on';
  // A list per rule, not a table of six columns: the report opens as markdown source beside the ruleset, where a table's rows are
  // single lines as wide as their longest label, hard to read in a half-width column; a list reads the same as source and previewed.
  const rule = (x: (typeof rules)[number]) => [
    `- ${codeSpan(x.label)} (${effect(x)})`,
    `  - matches ${en(x.matched)} · applies to ${en(x.applied)}${x.skipped ? ` (skipped for ${en(x.skipped)})` : ''} · decides ${en(x.decided)}`,
    ...(x.firstMatches.length ? [`  - first matching requests: ${x.firstMatches.join(', ')}`] : []),
  ];
  const undecided = r.undecided ?? 0;
  const end = `${plural(undecided, 'request', undefined, en)} ${undecided === 1 ? 'reaches' : 'reach'} the end of the rules without a terminating action or a skip of the remaining rules.`;
  const executed = r.executed ? ` ${en(r.executed)} of the ${en(r.total ?? 0)} requests went through an execute rule: the managed ruleset it runs decides them with its own ` +
    'rules, which this run does not evaluate.' : '';
  return [
    `# ${name} on ${plural(r.total ?? 0, 'request', undefined, en)}`, '', `Requests: ${r.source}`, '', ...(r.logLines ? [logLinesLine(r.logLines, (x) => codeSpan(x)), ''] : []), ...skippedText(r),
    '## Rules', '', ...rules.flatMap(rule), '', end + executed, '',
    'The rules run in order, as on the platform: a matching rule with a terminating action (block, a challenge, redirect, serve_error) ' +
    'decides the request and the rules after it do not run; so does a skip of the remaining rules: the API\'s "ruleset": "current" ' +
    '("A ruleset to skip the execution of") or "phase": "current" ("A phase to skip the execution of"), which in a run of one ruleset ' +
    'both skip the rules after it. Execute, log, a skip of "phases", "rulesets", "rules" or "products" and the other actions let the ' +
    'next rules run.', '', ...limitsText(rules), ...setsText(rules),
  ].join('\n');
}

/** "Rate limits": per rate limiting rule, what its counters did; its "applies to" counts only the requests over its threshold. */
function limitsText(rules: NonNullable<TestRulesResult['rules']>): string[] {
  const limited = rules.filter((x) => x.ratelimit);
  if (!limited.length) return [];
  return ['## Rate limits', '', 'A rate limiting rule applies its action only to the requests over its threshold, not to every request it matches.', '',
    ...limited.flatMap((x) => [`- ${codeSpan(x.label, true)}`, ...rateLimitLines(x.ratelimit!).map((l) => `  - ${l}`)]), ''];
}

/** A value a rule set, as a code span: as JSON when it is empty, has spaces at an end or control characters (a newline in a
 * request's header), which a code span would not show; "no value" for none (a missing header). */
function valueSpan(v: string | null): string {
  if (v === null) return '*no value*';
  // eslint-disable-next-line no-control-regex
  return codeSpan(v === '' || /^\s|\s$|[\u0000-\u001f\u007f\u2028\u2029]/.test(v) ? JSON.stringify(v) : v);
}

/** "What the rules set": per rule that sets headers, a URL rewrite or a redirect target, what each value gave (none from an older
 * server, which sends no values). */
function setsText(rules: NonNullable<TestRulesResult['rules']>): string[] {
  const setting = rules.filter((x) => x.values?.length);
  if (!setting.length) return [];
  const one = (v: TestRulesValue): string[] => {
    const over = overwrittenLine(v);
    return [...head(v), ...(over ? [`    - ${over}`] : [])];
  };
  const head = (v: TestRulesValue): string[] => {
    const name = `${codeSpan(v.name)}${v.operation === 'add' ? ' (add)' : ''}`;
    if (v.expression === undefined) return [`  - ${name}: ${v.value !== undefined ? `${valueSpan(v.value)} (a static value)` : 'removed'}`];
    const head = `  - ${name} = ${codeSpan(v.expression)}`;
    if (v.error) return [`${head}: not evaluated: ${mdSourceText(v.error)}`];
    if (!v.examples.length) return [`${head}: no request matched the rule`];
    return [`${head}: ${v.distinctMore ? 'at least ' : ''}${plural(v.distinct, 'distinct value')} on the requests it matches, the first:`,
      ...v.examples.map((e) => `    - request ${e.line}: ${valueSpan(e.value)}`)];
  };
  return ['## What the rules set', '',
    'For each rule that sets headers, a URL rewrite or a redirect target: each value expression\'s result on the first requests the rule ' +
    'matches, computed on the request as it came: within a phase the platform\'s fields keep their values, and a later rule that sets ' +
    'the same thing overwrites what an earlier one set.', '',
    ...setting.flatMap((x) => [`- rule ${codeSpan(x.label)}:`, ...x.values!.flatMap(one)]), ''];
}

/** A request the progress notification can cancel: the server stops reading, and the command ends quietly. */
async function cancellable<R>(token: vscode.CancellationToken, run: () => Promise<R>): Promise<R> {
  try {
    const r = await run();
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    return r;
  } catch (err) {
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    throw err;
  }
}

/** What "Test Filter on Logs…" and "Test Rules on Requests…" ask: the records to test on. */
interface RecordsQuestion {
  title: string;
  sample: string;
  file: { label: string; description: string; openLabel: string; filters: Record<string, string[]> };
  delivered: string;
  /** The dataset of the records (asked once), or the datasets whose lines will do (Test Rules reads both request datasets'): the
   * mock's batch to test on is of it, and the mock delivers some datasets only. */
  dataset(): Promise<string | readonly string[]>;
  /** The only dataset the generated sample is offered for (its records are of it); undefined: offered always. */
  sampleDataset?: string;
  /** The zone the sample's requests go to, when the client knows the document's; unknown, the question also offers the sample for a
   * zone the user picks (its hosts the zone's), where the backend's zones can be read. */
  zone: string | undefined;
}

/** Why the question leaves out the generated sample (`noSample`) or the mock's delivered batch (`noDelivered`) for records of
 * `names`, short enough for the question's input line; undefined when it leaves out neither. */
function leftOutReason(names: readonly string[], noSample: boolean, noDelivered: boolean): string | undefined {
  const which = names.join(' or ');
  if (noSample && noDelivered) return `The generated sample and the mock's batches hold no ${which} lines`;
  // (the sample's dataset is one the mock delivers: the batch alone is never left out)
  return noSample ? `The generated sample holds ${SAMPLE_LOGS_DATASET} lines, not ${which}` : undefined;
}

/** The records to test on: `file` undefined for the generated sample (with `zone` when the user picked the zone its requests go
 * to), else a file (chosen, or the mock's last delivered batch of the question's dataset, then with `source`, the words the report
 * names it by in place of the path of its copy). `given`
 * ('sample', 'delivered' or a path) skips the question; anything else asks (from the editor title VS Code passes the editor group,
 * { groupId }, after the resource, and from the Explorer the files selected). */
async function chooseRecords(ctx: Ctx, given: unknown, q: RecordsQuestion): Promise<{ file?: string; source?: string; zone?: string }> {
  let choice = typeof given === 'string' ? (given === 'sample' || given === 'delivered' ? given : 'path') : undefined;
  // The question's datasets, asked once
  let asked: Promise<readonly string[]> | undefined;
  const datasets = (): Promise<readonly string[]> => (asked ??= q.dataset().then((w) => (typeof w === 'string' ? [w] : w)));
  if (!choice) {
    const names = await datasets();
    const sample = q.sampleDataset === undefined || names.includes(q.sampleDataset);
    const embedded = Config.backend() === 'embedded';
    const delivered = embedded && names.some((d) => MOCK_DELIVERED_DATASETS.includes(d));
    // A document of no known zone (a filter file, a ruleset the user wrote): the sample for a zone of the backend's, whose hosts the
    // document may name; not where the backend's zones cannot be read (a remote backend in an untrusted window).
    const forZone = sample && q.zone === undefined && !apiRefusedHere();
    const pick = await vscode.window.showQuickPick([
      ...(sample ? [{ label: 'Generated sample', description: q.sample, value: 'sample' }] : []),
      ...(forZone ? [{ label: 'Generated sample for a zone…', description: 'the sample\'s hosts are the zone\'s', value: 'zoneSample' }] : []),
      { label: q.file.label, description: q.file.description, value: 'file' },
      ...(delivered ? [{ label: 'Last delivered batch', description: q.delivered, value: 'delivered' }] : []),
    ], { title: q.title, placeHolder: leftOutReason(names, !sample, embedded && !delivered) });
    if (!pick) throw new vscode.CancellationError();
    choice = pick.value;
  }
  if (choice === 'sample') return {};
  if (choice === 'zoneSample') {
    const zone = await pickZone(await apiFor(ctx), undefined, 'Generate the sample for which zone?', undefined, zoneHints(ctx));
    return { zone: zone.name };
  }
  if (choice === 'path') return { file: given as string };
  if (choice === 'delivered') {
    const names = await datasets();
    const delivered = names.filter((d) => MOCK_DELIVERED_DATASETS.includes(d));
    if (!delivered.length) {
      throw new UserError(`The mock's traffic makes ${MOCK_DELIVERED_DATASETS.join(' and ')} lines only, so its Logpush jobs deliver no ${names.join(' or ')} lines; test on a ${names.join(' or ')} log file.`);
    }
    const last = await lastDeliveredFile(ctx, delivered);
    if (!last) throw new UserError(nothingDelivered(delivered));
    const d = last.delivery;
    return { file: last.file, source: `the batch Logpush job ${d.job} delivered at ${d.at} (${mdSourceText(d.object)})` };
  }
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: q.file.openLabel, filters: q.file.filters });
  if (!chosen?.[0]) throw new vscode.CancellationError();
  return { file: chosen[0].fsPath };
}

/** "x has N errors, e.g. line L: message", or undefined when the document has none: asked of the server, which has every edit
 * (published diagnostics may lag behind). The first error is named with its line, as Send Request's question does. */
async function errorsSentence(ctx: Ctx, uri: vscode.Uri): Promise<string | undefined> {
  const info = await ctx.server.request(DocumentInfoRequest.type, { uri: uri.toString(), problems: true });
  if (!info.problems || info.problems.errors === 0) return undefined;
  const e = info.problems.firstError;
  return `${documentName(uri)} has ${plural(info.problems.errors, 'error')}${e ? `, e.g. line ${e.line + 1}: ${e.message}` : '.'}`;
}

/** Refuses, before asking which records, a document the server would refuse to test: it has errors. */
async function refuseWithErrors(ctx: Ctx, uri: vscode.Uri): Promise<void> {
  const errors = await errorsSentence(ctx, uri);
  if (errors) throw new UserError(`${errors} Fix them, then test again.`, [{ title: 'Show Problems', command: 'workbench.actions.view.problems' }]);
}

/** Before a job document with errors is sent (Create, Update): whether to send it anyway (`action`, e.g. "Update Anyway"). Asked
 * first, before which zone: the API will most likely refuse what the checker flags. "edgekit.logpush.confirmSendWithErrors" off:
 * not asked. */
export async function sendDespiteErrors(ctx: Ctx, uri: vscode.Uri, refused: string, question: string, action: string): Promise<boolean> {
  if (!Config.confirmJobWithErrors(uri)) return true;
  const errors = await errorsSentence(ctx, uri);
  if (!errors) return true;
  return await ctx.ui.ask(`${errors} The API will probably refuse ${refused}. ${question}`, [action],
    { modal: true, detail: turnsOffQuestion('logpush.confirmSendWithErrors') }) === action;
}

const NDJSON_FILES = ['ndjson', 'json', 'log', 'gz', 'txt'];

/** A filter document's "$dataset" (the editor's hint), else the setting, as the language server decides it. */
export function datasetOfFilter(text: string, fallback: string): string {
  const v = valueAsChecked(text) as { $dataset?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.$dataset === 'string' ? v.$dataset : fallback;
}

export const logpushTestCommands = {
  /** "Test Rules on Requests…": each rule of a ruleset on request records or http_requests or firewall_events log lines (an NDJSON file, the mock's last
   * delivered batch, or the generated sample). `requests` ('sample', 'delivered' or a path) skips the question. */
  'edgekit.ruleset.testRules': (ctx: Ctx) => async (arg?: unknown, requests?: unknown) => {
    const uri = await targetUri(arg, ['waf-ruleset'], 'ruleset (*.ruleset.json)');
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'waf-ruleset') throw new UserError(`${documentName(uri)} is not a ruleset (*.ruleset.json).`);
    servedByServer(doc);
    await showExplorerFile(arg, requests);
    await refuseWithErrors(ctx, uri);
    // The sample's requests go to the zone the ruleset is the configuration of when the client knows it (a migration's review, a
    // zone's configuration opened from the Zones view), as Test Filter's go to a job's zone.
    const known = ctx.rulesetZones.zoneOf(uri.toString());
    const { file, source, zone = known } = await chooseRecords(ctx, requests, {
      title: 'Test on which requests?', sample: `${en(SAMPLE_SIZE)} requests${known ? ` to ${known}` : ''}, about a tenth of them hostile`, zone: known,
      file: { label: 'Choose a file…', description: 'NDJSON, gzip or not: request records, or http_requests or firewall_events Logpush logs', openLabel: 'Test', filters: { NDJSON: NDJSON_FILES } },
      // Test Rules reads both datasets' lines (the server tells them apart); http_requests first: every request, where a
      // firewall_events batch has only those rules acted on
      delivered: 'the newest http_requests batch a Logpush job of the mock delivered, else the newest firewall_events one', dataset: async () => ['http_requests', 'firewall_events'],
    });
    const name = documentName(uri);
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `EdgeKit: testing ${name}`, cancellable: true },
      async (_p, token) => cancellable(token, () => ctx.server.request(TestRulesRequest.type, { uri: uri.toString(), requests: file, ...(file === undefined && zone ? { zone } : {}) }, token)));
    if (r.error) throw new UserError(r.error);
    const report = await vscode.workspace.openTextDocument(ctx.reports.add(name, rulesReport(name, source ? { ...r, source } : r)));
    await vscode.window.showTextDocument(report, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    return r;
  },

  /** "Test Filter on Logs…": the filter (or a job's filter) on an NDJSON log file or the generated sample; the report opens beside
   * it and the filter gets a code lens with the count. `logs` ('sample', 'delivered' or a path) skips the question (tests, other
   * commands); any other value asks. */
  'edgekit.logpush.testFilter': (ctx: Ctx) => async (arg?: unknown, logs?: unknown) => {
    const uri = await targetUri(arg, ['logpush-filter', 'logpush-job'], 'Logpush filter (*.filter.json) or job (*.logpush.json)');
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'logpush-filter' && doc.languageId !== 'logpush-job') throw new UserError(`${documentName(uri)} is not a Logpush filter or job.`);
    servedByServer(doc);
    await showExplorerFile(arg, logs);
    await refuseWithErrors(ctx, uri);
    // The sample's requests go to the zone of the job when the client knows it (opened from the Zones view, created or updated there).
    const known = ctx.jobScopes.zoneOf(uri.toString());
    const { file, source, zone = known } = await chooseRecords(ctx, logs, {
      title: 'Test the filter on which logs?', sample: `${en(SAMPLE_SIZE)} ${SAMPLE_LOGS_DATASET} lines${known ? ` to ${known}` : ''}, about a tenth of them hostile`, sampleDataset: SAMPLE_LOGS_DATASET, zone: known,
      file: { label: 'Choose a log file…', description: 'NDJSON as Logpush delivers it, gzip or not', openLabel: 'Test the filter', filters: { 'Logpush logs': NDJSON_FILES } },
      delivered: 'the newest batch a Logpush job of the mock delivered',
      // The job's own dataset when the document is a job; a filter's dataset is its $dataset (default http_requests).
      dataset: async () => (await ctx.server.request(DocumentInfoRequest.type, { uri: uri.toString() })).job?.dataset ?? datasetOfFilter(doc.getText(), Config.logpushDataset(doc.uri)),
    });
    const name = documentName(uri);
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `EdgeKit: testing ${name}`, cancellable: true },
      async (_p, token) => cancellable(token, () => ctx.server.request(TestFilterRequest.type, { uri: uri.toString(), logs: file, ...(file === undefined && zone ? { zone } : {}) }, token)));
    if (r.error) throw new UserError(r.error);
    const report = await vscode.workspace.openTextDocument(ctx.reports.add(name, testReport(name, source ? { ...r, source } : r)));
    await vscode.window.showTextDocument(report, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    return r;
  },
};

/** The Logpush job document a command works on (see documentOf), its name as the workspace shows it, and its JSON value. */
export async function jobDocument(arg: unknown): Promise<{ doc: vscode.TextDocument; name: string; job: unknown }> {
  const doc = await documentOf('logpush-job', arg, 'Logpush job (*.logpush.json)');
  const name = documentName(doc.uri);
  // Read as the language server reads it: what it marks as a syntax error (a comment, a trailing comma: the platform takes plain
  // JSON) is refused at the place it marks, the rest is the value JSON.parse gives.
  const read = readJobText(doc.getText());
  if ('error' in read) throw new UserError(syntaxRefusal(name, read.error));
  return { doc, name, job: read.value };
}

/**
 * Where a job document's job goes: its dataset decides (a zone dataset's job under a zone, an account dataset's, gateway_dns or
 * audit_logs, under the account, and one the platform takes under either, firewall_events, under the zone or account picked);
 * `arg` names the zone or account (tests, the Zones view), else the user picks with `question`.
 */
export async function pickJobPlace(ctx: Ctx, api: Api, doc: vscode.TextDocument, arg: unknown,
  question: { zone: string; account: (dataset: string) => string; either: (dataset: string) => string }): Promise<JobPlace & { why?: string }> {
  const info = await ctx.server.request(DocumentInfoRequest.type, { uri: doc.uri.toString() });
  if (info.job?.scope === 'both') return pickZoneOrAccount(api, arg, question.either(info.job.dataset), zoneHints(ctx));
  const dataset = info.job?.dataset ?? 'http_requests';
  if (info.job?.scope === 'account') {
    // A job of a dataset of both scopes that names a field of account jobs only (ZoneName): the zones are not offered, and with
    // one account nothing is asked, so the question and the command's message say why
    const why = info.job.scopeField ? `${info.job.scopeField} is a field of account-level ${dataset} jobs only` : undefined;
    const a = await pickAccount(api, arg, why ? `${question.account(dataset)} (${why})` : question.account(dataset), why ?? `a ${dataset} job belongs to an account`, zoneHints(ctx));
    return { owner: { account: a.id }, ownerName: a.name, ...(why ? { why } : {}) };
  }
  const z = await pickZone(api, arg, question.zone, `${/^(http|[aeiou])/.test(dataset) ? 'an' : 'a'} ${dataset} job belongs to a zone`, zoneHints(ctx));
  return { owner: { zone: z.id }, ownerName: z.name };
}

/** A job request the backend refused: logged with the API's error codes, thrown in words (`what` was refused: ...). */
export function refused(ctx: Ctx, api: Api, r: { error: string; errors: { code: number; message: string }[] }, logWhat: string, what: string): never {
  const details = r.errors.map((e) => `${e.code}: ${e.message}`).join('; ');
  ctx.log.warn(`${logWhat} refused by ${api.baseUrl}: ${r.error}${details ? ` (${details})` : ''}`);
  throw new UserError(`${what} was refused: ${r.error}`);
}

/** A sentence followed by what the backend noted about the request (the envelope's messages, e.g. the mock's note that the
 * platform would ask for an ownership challenge), which an information message would otherwise drop. */
export function withNotes(text: string, messages: { code?: number; message: string }[]): string {
  const notes = messages.map((m) => m.message.trim()).filter(Boolean);
  return notes.length ? `${text} The backend notes: ${notes.join(' ')}` : text;
}

/** The button of a message with the backend's notes that opens them whole in the output channel. */
export const SHOW_DETAILS = 'Show Details';

/**
 * Shows `text` with what the backend noted about the request (withNotes). A notification cuts a long text off, so with notes the
 * whole text also goes to the EdgeKit output channel, and the message offers "Show Details", which opens it there (ui14).
 */
export function showWithNotes(ctx: Ctx, kind: 'info' | 'warning', text: string, messages: { code?: number; message: string }[]): void {
  const said = withNotes(text, messages);
  const show = (...items: string[]) => (kind === 'info' ? vscode.window.showInformationMessage(said, ...items) : vscode.window.showWarningMessage(said, ...items));
  if (said === text) {
    void show();
    return;
  }
  ctx.log.info(said);
  void Promise.resolve(show(SHOW_DETAILS)).then((b) => { if (b === SHOW_DETAILS) ctx.log.show(); });
}

/**
 * Whether to create the document's job where a job of the same name and destination already is: asked, modal. A created job's
 * document keeps no "id" and its title button stays "Create", so a second click made a second job pushing the same logs to the
 * same place. The jobs not listed (an error) ask nothing: the create goes on and says what the backend answers.
 */
async function confirmAnotherJob(ctx: Ctx, api: Api, job: unknown, place: JobPlace): Promise<boolean> {
  const { name, destination_conf: destination } = (job ?? {}) as { name?: unknown; destination_conf?: unknown };
  if (typeof destination !== 'string') return true;
  const jobs = await api.logpushJobs(place.owner);
  const twin = jobs.ok ? jobs.result.find((j) => j.name === name && j.destination_conf === destination) : undefined;
  if (!twin) return true;
  const where = `${'zone' in place.owner ? 'Zone' : 'Account'} ${place.ownerName}`;
  const answer = await ctx.ui.ask(`${where} already has Logpush job ${String(twin.id)}${typeof name === 'string' && name ? ` "${name}"` : ''} with this destination. Create another job?`,
    ['Create Another'], { modal: true, detail: 'Both would push the same logs to the same place. To change that job, open it from the Zones view ("Open Logpush Job Configuration") and use "Update Logpush Job".' });
  return answer === 'Create Another';
}

export const logpushJobCommands = {
  'edgekit.logpush.createJob': (ctx: Ctx) => async (arg?: unknown, zoneArg?: unknown) => {
    const { doc, name, job: read } = await jobDocument(arg);
    // Run again on the document before the first ends (its title button clicked twice): both listed the zone's jobs before either
    // was created, so confirmAnotherJob found no twin and two jobs were created. One run at a time per document.
    return exclusive(`create ${doc.uri.toString()}`, `Creating a Logpush job from ${name}`, async () => {
      if (!await sendDespiteErrors(ctx, doc.uri, 'the job', 'Create it anyway?', 'Create Anyway')) return undefined;
      const api = await apiFor(ctx);
      const place = await pickJobPlace(ctx, api, doc, zoneArg, { zone: 'Create the Logpush job in which zone?', account: (d) => `Create the ${d} job in which account?`,
        either: (d) => `Create the ${d} job in which zone or account?` });
      if (!await confirmAnotherJob(ctx, api, read, place)) return undefined;
      // Its ownership challenge token, when EdgeKit proved it, still holds here (the zone or account, the destination, 7 days); none,
      // where the platform asks for one, is said before anything is sent, with the proof offered (ui14: the mock's note was cut off
      // in the notification, and the platform refuses the job).
      const job = await confirmOwnership(ctx, api, doc, name, read, place, 'create');
      if (job === undefined) return undefined;
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `EdgeKit: creating Logpush job in ${place.ownerName}` },
        () => ('account' in place.owner ? api.createAccountLogpushJob(place.owner.account, job) : api.createLogpushJob(place.owner.zone, job)));
      if (!r.ok) refused(ctx, api, r, `Logpush job from ${documentName(doc.uri)}`, `The job in ${documentName(doc.uri)}`);
      const id = (r.result as { id?: unknown }).id;
      // The document's job now lives there: checked as a job of that scope from now on.
      ctx.jobScopes.set(doc.uri.toString(), place, (read as { id?: unknown }).id);
      showWithNotes(ctx, 'info', `Created Logpush job ${id ?? ''} "${(r.result as { name?: string }).name ?? ''}" in ${'account' in place.owner ? 'account' : 'zone'} ${place.ownerName}${place.why ? ` (${place.why})` : ''}.`, r.messages);
      ctx.zones.refresh({ owner: place.owner, source: api.source });
      return r.result;
    });
  },
};
