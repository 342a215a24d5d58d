// Shared by client and server: the diagnostic source, settings and custom LSP messages. Types and method names only: no LSP library
// is imported here, so the client's start-up bundle (which loads vscode-languageclient only when the server starts) can use it.

/**
 * A custom request's type: its method name, with its params and result types for both ends (the two fields are never set). Each
 * request is a namespace with `method` and `type`, as STYLE §12 has it, but `type` is this plain object rather than
 * vscode-jsonrpc's RequestType: the server wraps it (server.ts requestType) and the client's start-up bundle needs no LSP library.
 */
export interface CustomRequest<P, R> {
  readonly method: string;
  readonly params?: P;
  readonly result?: R;
}

/** A custom notification's type: its method name, with its params type (never set); see CustomRequest. */
export interface CustomNotification<P> {
  readonly method: string;
  readonly params?: P;
}

export const SOURCE = 'edgekit';

/** The gateway methods whose result is a QUANTITY (hex): the response's summary gives it in decimal too. The catalogue's, held
 * equal to it by a unit test: the client imports this file only. */
export const QUANTITY_RESULT_METHODS: readonly string[] = [
  'eth_gasPrice', 'eth_blockNumber', 'eth_chainId', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber', 'eth_getUncleCountByBlockHash', 'eth_getUncleCountByBlockNumber', 'eth_estimateGas',
];

/**
 * The command of an informational code lens (a filter's usage, what a tested filter matches) for clients other than the EdgeKit
 * extension: declared in executeCommandProvider and run by the server, which shows the lens's text (its argument) as a message.
 * LSP's Command.command names a handler; Neovim 0.7-0.9 runs a lens's command through workspace/executeCommand and warns about an
 * unknown "" one. The extension gets "" instead, which VS Code shows as plain text.
 */
export const LENS_TEXT_COMMAND = 'edgekit.showLensText';

/**
 * The command of a code action for a client that takes no CodeAction literals (textDocument.codeAction.codeActionLiteralSupport,
 * LSP 3.8): the code actions are then Command[], each running this through workspace/executeCommand with [the WorkspaceEdit, the
 * document's URI, its version, its text's stamp]; the server applies the edit with workspace/applyEdit. Announced only to such a
 * client, and only when it takes workspace/applyEdit (else it gets no code actions).
 */
export const APPLY_FIX_COMMAND = 'edgekit.applyFix';

/** Where a Logpush job is created: a dataset of both scopes (firewall_events) has fields of one scope's jobs only (ZoneName). */
export type JobScope = 'zone' | 'account';

/** 'zone' or 'account'; anything else (unset, "unknown") is not known. */
export function jobScopeOf(v: unknown): JobScope | undefined {
  return v === 'zone' || v === 'account' ? v : undefined;
}

export interface Settings {
  /** scope: edgekit.logpush.scope, where this folder's jobs are created (absent: not known); the place the client knows for a
   * document (SetJobScopeNotification) wins over it. */
  logpush: { dataset: string; scope?: JobScope };
  maxProblems: number;
  maxFileSizeKB: number;
  codeLens: { enabled: boolean };
}

export const DEFAULT_SETTINGS: Settings = {
  logpush: { dataset: 'http_requests' },
  maxProblems: 1000,
  maxFileSizeKB: 5120,
  codeLens: { enabled: true },
};

/** The largest values of edgekit.maxProblems and edgekit.maxFileSizeKB the server takes (package.json declares the same maximum). */
const MAX_PROBLEMS_LIMIT = 100000;
const MAX_FILE_SIZE_KB_LIMIT = 1024 * 1024;

/** A number setting whose value is not used: its key under "edgekit", the value as sent, what the schema takes, the value used. */
export interface RefusedSetting { key: string; value: unknown; takes: string; used: number;
  /** Whose value it is, when settings are read per folder and there are several ('the workspace folder "b"'). */
  scope?: string }

/** The log's sentence for a refused number setting, the client's (config.ts) and the server's alike. The value as JSON, cut to
 * REFUSED_VALUE_SHOWN characters and "…" (rv36: a pasted text was logged whole, a line of megabytes). */
export function refusedSettingSentence(r: RefusedSetting): string {
  const shown = JSON.stringify(r.value) ?? String(r.value);
  // Not between the two halves of a character beyond the BMP (a lone surrogate is written as U+FFFD).
  const cut = REFUSED_VALUE_SHOWN - (/[\ud800-\udbff]/.test(shown.charAt(REFUSED_VALUE_SHOWN - 1)) ? 1 : 0);
  const value = shown.length > REFUSED_VALUE_SHOWN ? `${shown.slice(0, cut)}…` : shown;
  return `The setting "edgekit.${r.key}"${r.scope ? ` for ${r.scope}` : ''} is ${value}, not ${r.takes}: EdgeKit uses its default, ${r.used}.`;
}
const REFUSED_VALUE_SHOWN = 80;

/** The value rounded down when it is a number from min to max, else the default; a value set and not taken is told to `refused`
 * (unset, undefined or null, is not). */
function int(r: Record<string, unknown>, key: 'maxProblems' | 'maxFileSizeKB', max: number, refused?: (r: RefusedSetting) => void): number {
  const v = r[key];
  if (typeof v === 'number' && Number.isFinite(v) && v >= 1 && v <= max) return Math.floor(v);
  const used = DEFAULT_SETTINGS[key];
  if (v !== undefined && v !== null) refused?.({ key, value: v, takes: `a number from 1 to ${max}`, used });
  return used;
}

/** Settings from whatever the client sent; every bad or missing value falls back to its default, and a number setting set to a
 * value out of its range is told to `refused`. */
export function normalizeSettings(raw: unknown, refused?: (r: RefusedSetting) => void): Settings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const logpush = (r.logpush && typeof r.logpush === 'object' ? r.logpush : {}) as Record<string, unknown>;
  const codeLens = (r.codeLens && typeof r.codeLens === 'object' ? r.codeLens : {}) as Record<string, unknown>;
  const scope = jobScopeOf(logpush.scope);
  return {
    logpush: {
      dataset: typeof logpush.dataset === 'string' && /^[a-z][a-z0-9_]*$/.test(logpush.dataset) ? logpush.dataset : DEFAULT_SETTINGS.logpush.dataset,
      ...(scope ? { scope } : {}),
    },
    maxProblems: int(r, 'maxProblems', MAX_PROBLEMS_LIMIT, refused),
    maxFileSizeKB: int(r, 'maxFileSizeKB', MAX_FILE_SIZE_KB_LIMIT, refused),
    codeLens: { enabled: typeof codeLens.enabled === 'boolean' ? codeLens.enabled : DEFAULT_SETTINGS.codeLens.enabled },
  };
}

/** Initialization options the client sends. */
export interface InitOptions {
  /** URI of the README inside the installed extension (its code table has an anchor per code), for codeDescription.href. */
  docsUri?: string;
  /** Settings, for clients without workspace/configuration: `{ "edgekit": { "maxProblems": 500, ... } }` (or the section alone). */
  settings?: unknown;
  /** The section itself at the top, for clients that send their server configuration as initializationOptions (Helix's `config`). */
  edgekit?: unknown;
  /** The client runs EdgeKit's commands (`edgekit.gateway.send`...), as the VS Code extension does: code lenses that run one are
   * sent only then (another editor would show a lens it cannot run). */
  commands?: boolean;
  /** The client filters completions by the text from the start of each item's edit range, the opening quote included, as VS Code
   * does: filterText keeps the quotes then. Other clients may filter by the word before the cursor, which has no quote (eglot
   * does: `"Client` would match nothing there), so they get filterText without them; a client that filters by the edit's newText
   * (Neovim's omnifunc) is unaffected. */
  rangeFilter?: boolean;
  /** The client shows a code lens whose command id is empty as plain text, as VS Code does: informational lenses are sent that way
   * (implied by `commands`). Other clients get a command the server runs (LENS_TEXT_COMMAND). */
  textLenses?: boolean;
  /** false: the client colours the embedded languages itself (the VS Code extension, with its TextMate grammars, which semantic
   * tokens would override), so the server does not announce semantic tokens. Other clients get them (omitted or true). */
  semanticTokens?: boolean;
}

/** problems: also count the document's problems (from the last check of this version; the status bar counts its diagnostics);
 * within: only those that lie in this span of the text (offsets: one request of a batch, which its lens sends alone). */
export interface DocumentInfoParams { uri: string; problems?: boolean; within?: { offset: number; length: number } }
export interface DocumentInfoResult {
  kind: string | null;
  /** For filters and jobs: live usage against the platform's limits, and its one-line text ("12/30 operators · 412/1000 bytes"). */
  usage?: { operators: number; maxOperators: number; bytes: number; maxBytes: number; text: string };
  /** For a Logpush job: its dataset and where the platform keeps its jobs (zone datasets under a zone, account ones under an account,
   * 'both' for a dataset it takes under either, firewall_events, unless the job names a field of one scope's jobs only, such as
   * ZoneName: then that scope). */
  job?: { dataset: string; scope: 'zone' | 'account' | 'both' | 'unknown'; /** The field that made it that scope's (ZoneName). */ scopeField?: string };
  /** With params.problems only. */
  problems?: { errors: number; warnings: number; firstError?: { line: number; message: string; code: string } };
  /** For a gateway request (jsonrpc-request), what Send can send, as the lenses say it: the text does not parse (the lens's
   * "Cannot send: syntax error on line 3", and where the first error is), or the requests whose method the gateway refuses
   * (HTTP 403), by batch index (null: a single request), with the method as a button quotes it (`quoted`: cut after 40 characters). */
  send?: {
    cannotSend?: { title: string; line: number; character: number; message: string };
    refused: { index: number | null; method: string; quoted: string }[];
  };
}

/** The status bar asks for the active document's facts. */
export namespace DocumentInfoRequest {
  export const method = 'edgekit/documentInfo';
  export const type: CustomRequest<DocumentInfoParams, DocumentInfoResult> = { method };
}

/** scope: where the document's job lives, as the client knows it (opened from a zone's or an account's jobs, or created, updated or
 * proved there); null: no longer known (its job was deleted). */
export interface SetJobScopeParams { uri: string; scope: JobScope | null }

/**
 * Client to server: where a Logpush job document's job lives. The server checks the document as a job of that scope (a field of the
 * other scope's jobs only, ZoneName in a zone's job, is an error), over the edgekit.logpush.scope setting, until told otherwise; a
 * server that restarts knows nothing, so the client tells it again. Any LSP client may send it; the setting serves those that do not.
 */
export namespace SetJobScopeNotification {
  export const method = 'edgekit/setJobScope';
  export const type: CustomNotification<SetJobScopeParams> = { method };
}

export interface ConvertParams { uri: string }
/** text on success; error names what was wrong and where. */
export interface ConvertResult { text?: string; error?: string; dataset?: string }

/** A filter document as the compact string for a job's `filter` member. */
export namespace FilterToJobStringRequest {
  export const method = 'edgekit/filterToJobString';
  export const type: CustomRequest<ConvertParams, ConvertResult> = { method };
}

/** A job document's `filter` string as a pretty filter document. */
export namespace JobStringToFilterRequest {
  export const method = 'edgekit/jobStringToFilter';
  export const type: CustomRequest<ConvertParams, ConvertResult> = { method };
}

/** zoneId: the zone's or account's id (by the ruleset's level); variable: write var.zone_id / var.account_id instead (zoneId unused);
 * scope: where a custom ruleset lives, which its body does not say (asked for with askScope). */
export interface TerraformParams { ruleset: unknown; zoneId: string; rulesetId: string; variable?: boolean; scope?: 'zone' | 'account' }
/** importId: '' for a ruleset with no id yet. error: the body's kind or phase is not one the resource takes (what and why). askScope:
 * a custom ruleset (why its level is asked): send the request again with `scope`. */
export type TerraformResult = { hcl: string; importId: string; address: string; scope: 'zone' | 'account' } | { error: string } | { askScope: string };

/** A ruleset body as the svc_ruleset infrastructure-as-code resource and its import id. */
export namespace ToTerraformRequest {
  export const method = 'edgekit/toTerraform';
  export const type: CustomRequest<TerraformParams, TerraformResult> = { method };
}

/** The dataset of the generated sample's log lines (core/eval/sample.ts): Test Filter offers the sample for its filters only. */
export const SAMPLE_LOGS_DATASET = 'http_requests';
/** The generated sample's size when Test Filter or Test Rules asks for none: the server's default, and the count the client's question names. */
export const SAMPLE_SIZE = 1000;

/** logs: an NDJSON file's path (gzip or not) on the server's machine; without it, the generated sample of `sample` lines (1 000), which
 * holds log lines of SAMPLE_LOGS_DATASET only: the server refuses it for a filter of another dataset. */
/** zone: the name of the zone the document's job lives in, when the client knows it (opened from the Zones view, created or
 * updated there): the generated sample's requests go to it and its subdomains rather than example.com's. */
export interface TestFilterParams { uri: string; logs?: string; sample?: number; zone?: string }
/** sampleValues: on the generated sample, for a comparison of text that matched none of its lines, one line naming the sample's
 * values of its field (at most 5, most common first). */
export interface FilterBranch { label: string; matched: number; sampleValues?: string; children: FilterBranch[] }
/** Lines of a log or request file that were not read: how many, the first few named by number, and why reading stopped before the
 * end (gzip cut short or corrupt) when it did, the counts then covering the lines before it. */
export interface SkippedLines {
  badLines?: number;
  badLineErrors?: string[];
  readError?: string;
  /** Records read, but not as the platform would: a field the rules language does not have, a value of the wrong type, a field the
   * filter compares that no log line has (core/eval/records.ts): how many, and the first line of each kind. */
  recordProblems?: { records: number; examples: string[] };
}

/** error names what was wrong and where; else the counts, each branch's, and the first matching lines. */
export interface TestFilterResult extends SkippedLines {
  error?: string;
  source?: string;
  dataset?: string;
  total?: number;
  matched?: number;
  branches?: FilterBranch;
  /** `text`: the record as JSON with the digits its line writes, when it holds an integer past 2^53 (whose `record` number is then
   * the nearest double: JSON-RPC sends no bigint). */
  firstMatches?: { line: number; record: Record<string, unknown>; text?: string }[];
}

/** What a filter (or a job's filter) matches in a log file or the generated sample; the document then shows it in a code lens. */
export namespace TestFilterRequest {
  export const method = 'edgekit/testFilter';
  export const type: CustomRequest<TestFilterParams, TestFilterResult> = { method };
}

/** requests: an NDJSON file of request records on the server's machine; without it, the generated sample of `sample` requests.
 * zone: the name of the zone the ruleset document is, when the client knows it (a migration's review, a zone's configuration opened
 * from the Zones view): the generated sample's requests go to it and its subdomains rather than example.com's. */
export interface TestRulesParams { uri: string; requests?: string; sample?: number; zone?: string }
/**
 * error names what was wrong; else, per rule, the requests it matched, applied its action to and ended the evaluation of (and the first
 * matching lines); undecided: the requests no rule ended; executed: those handed to at least one ruleset by an execute rule.
 */
export interface TestRulesResult extends SkippedLines {
  error?: string;
  source?: string;
  total?: number;
  undecided?: number;
  executed?: number;
  rules?: {
    index: number; label: string; action: string; enabled: boolean; terminating: boolean;
    /** A skip of the remaining rules ("ruleset": "current" or "phase": "current"), which ends the evaluation without a terminating
     * action; absent otherwise (and from servers before it). */
    skipsRest?: true;
    matched: number; applied: number; decided: number; skipped: number; firstMatches: number[];
    /** What a rule that sets something (headers, a URL rewrite, a redirect target) set on the first requests it matched; absent for
     * the other rules (and from servers before it: a client shows nothing then). */
    values?: TestRulesValue[];
    /** A rate limiting rule's counters (core/eval/rateLimit.ts): its action applies only once a count passes the threshold. */
    ratelimit?: TestRulesRateLimit;
  }[];
  /** The records read as Logpush log lines (http_requests, firewall_events); absent when none were (or from servers before it). */
  logLines?: TestRulesLogLines;
}

/** What Test Rules read as Logpush log lines (core/eval/logRequests.ts LogLinesRead): how many, from which line, as which dataset
 * (`assumed`: no line's members told it; `other`: the lines of the other dataset in a file of both), and the fields the rules read
 * that no line gave a value for, with the log field each comes from (none: no log field gives it). `dataset` is absent from servers
 * before it, which read http_requests lines only. */
export interface TestRulesLogLines {
  lines: number; first: number; dataset?: string; assumed?: boolean; other?: { dataset: string; lines: number; first: number };
  /** firewall_events lines not read again for repeating an earlier line's RayID, and those without one. */
  events?: { repeated: number; unjoined: number };
  /** A file of both datasets: the lines not read for a line of the other dataset with their RayID, the http_requests lines without
   * one, and how many RayIDs are remembered at least when some were forgotten (a file longer than that). */
  joined?: { lines: number; noRayID: number; remembered?: number };
  missing: { field: string; from?: string }[];
}

/**
 * A count with its noun in proper English: "1 error", "2 errors" (many: the plural when it is not one + "s"); `shown` writes the
 * number (the reports' en: "1,234"). For the extension's messages and the lines shared with the CLI; the core has its own
 * (core/text.ts), as it imports nothing outside itself. Never "error(s)" (test/unit/plurals.test.ts).
 */
export function plural(n: number, one: string, many = `${one}s`, shown: (n: number) => string = String): string {
  return `${shown(n)} ${n === 1 ? one : many}`;
}

/** What `edgekit lint --summary` counted, for its last line. */
export interface LintSummary {
  /** The exit code the run ends with. */
  exit: number;
  /** Files checked, and the errors and warnings found in them (warnings counted whether --quiet shows them or not). */
  files: number; errors: number; warnings: number;
  /** Paths not checked (cli/not-checked), files whose fixes were not written (cli/not-fixed), and whether --output-file could not be
   * written. */
  notChecked: number; notFixed: number; reportUnwritten: boolean;
}

const LINT_SUMMARY = /^edgekit lint: done, exit code (\d+): /;

/**
 * The line `edgekit lint --summary` writes last on standard error, once its whole report is out:
 * "edgekit lint: done, exit code 1: 3 files checked (2 errors, 1 warning), 1 path not checked." A reader of the output (the VS
 * Code lint task, client/src/tasks.ts) takes a run as finished only when the CLI exits with the code this line names: an exit 1
 * of --max-warnings is a verdict, Node's exit 1 of an uncaught error after part of the report is not.
 */
export function lintSummaryLine(s: LintSummary): string {
  const more = [
    ...(s.notChecked ? [`${plural(s.notChecked, 'path')} not checked`] : []),
    ...(s.notFixed ? [`${plural(s.notFixed, 'file')} whose fixes were not written`] : []),
    ...(s.reportUnwritten ? ['the report not written'] : []),
  ];
  return `edgekit lint: done, exit code ${s.exit}: ${plural(s.files, 'file')} checked (${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')})${more.map((m) => `, ${m}`).join('')}.`;
}

/** The exit code a line of lintSummaryLine's names, or undefined for any other line. */
export function lintSummaryExit(line: string): number | undefined {
  const m = LINT_SUMMARY.exec(line);
  return m ? Number(m[1]) : undefined;
}

/** A count as the lenses and reports write it: 1,000 (the reports wrote 1000 beside the lens's 1,000). */
export const en = (n: number): string => n.toLocaleString('en');
const lines = (n: number): string => plural(n, 'line', undefined, en);

/** The log lines read, as one sentence (the CLI and the editor's report); `code` writes a name (a field, a log field, a dataset): the
 * report makes it a code span, so that no name is read as Markdown. */
export function logLinesLine(l: TestRulesLogLines, code: (name: string) => string = (x) => x): string {
  const dataset = l.dataset ?? 'http_requests';
  const an = (name: string) => (/^(http|[aeiou])/.test(name) ? 'an' : 'a');
  // "1 line is an http_requests log line", "3 lines are firewall_events log lines": each count with its own verb and number
  const are = (n: number, name: string) => (n === 1 ? `is ${an(name)} ${code(name)} log line` : `are ${code(name)} log lines`);
  const total = l.lines + (l.other?.lines ?? 0);
  // Where the log lines start is worth saying when lines before them are not log lines, or when the file holds two datasets
  const startsAt = l.first > 1 || l.other ? `, from line ${l.first},` : '';
  const counted = l.assumed
    ? `${lines(l.lines)}${startsAt} ${l.lines === 1 ? 'is a log line' : 'are log lines'} of fields both ${code('http_requests')} and ${code('firewall_events')} have, taken for ${l.lines === 1 ? `${an(dataset)} ${code(dataset)} line` : `${code(dataset)} lines`} (assumed) and`
    : `${lines(l.lines)}${startsAt} ${are(l.lines, dataset)},${l.other ? ` and ${lines(l.other.lines)}, from line ${l.other.first}, ${are(l.other.lines, l.other.dataset)},` : ''}`;
  // One line per security event: the repeats of a RayID are not read again; without RayIDs they cannot be told
  const n = (k: number, one: string, many: string) => `${k.toLocaleString('en')} ${code('firewall_events')} ${k === 1 ? one : many}`;
  const events = [
    ...(l.events?.repeated ? [`; ${n(l.events.repeated, 'line repeats', 'lines repeat')} an earlier line's ${code('RayID')} (another security event of the same request) and ${l.events.repeated === 1 ? 'is' : 'are'} not read again`] : []),
    ...(l.events?.unjoined ? [`; ${n(l.events.unjoined, 'line has', 'lines have')} no ${code('RayID')}, so a request several rules acted on is read once per event`] : []),
  ].join('');
  // Two jobs' files put together (one zone's http_requests and firewall_events): a request a rule acted on is on lines of both, and
  // read once, as the counts are of requests; what stops the join is said
  const j = l.joined;
  const both = !j ? '' : `; a request logged in both datasets is read once, from the first of its lines (joined by ${code('RayID')})`
    + (j.lines ? `: ${lines(j.lines)} ${j.lines === 1 ? 'is' : 'are'} not read again` : '')
    + (j.noRayID ? `; ${j.noRayID.toLocaleString('en')} ${code('http_requests')} ${j.noRayID === 1 ? 'line has' : 'lines have'} no ${code('RayID')}, so the request ${j.noRayID === 1 ? 'it logs' : 'each logs'} is read again from its ${code('firewall_events')} lines` : '')
    + (j.remembered ? `; only the last ${j.remembered.toLocaleString('en')} ${code('RayID')}s or more are remembered, so lines of one request further apart are each read` : '');
  const read = `${counted} read as the ${total === 1 ? 'request it logs' : 'requests they log'}${both}${events}`;
  if (!l.missing.length) return `${read}.`;
  const one = l.missing.length === 1;
  // "ClientIP", "ClientRequestHost and ClientRequestURI", "RequestHeaders, a Logpush custom field": the field names as code;
  // "BotScore, an http_requests field" (what a firewall_events line cannot give): the dataset as code too
  const from = (f: string) => { const [fields, ...rest] = f.split(', '); return [fields.split(' and ').map(code).join(' and '), ...rest.map((x) => x.replace('http_requests', code('http_requests')))].join(', '); };
  const named = l.missing.map((m) => `${code(m.field)} (${m.from ? `from ${from(m.from)}` : 'no log field'})`);
  const names = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
  // A line without its scheme is read as https (the full URI's scheme): ssl reads true, not its type's empty value
  const ssl = l.missing.some((m) => m.field === 'ssl');
  const https = '(a line without its scheme is read as https)';
  const value = one ? (ssl ? `it reads true on every line ${https}` : 'it is its type\'s empty value on every line')
    : `each is its type's empty value on every line${ssl ? `, but ${code('ssl')} reads true ${https}` : ''}`;
  return `${read}; the rules read ${names}, which no line gives a value for (a field the job's ${code('output_options.field_names')} leave out, or one logs ` +
    `do not carry): ${value}, so what ${one ? 'it decides' : 'they decide'} may not be what the platform would.`;
}

/** What a rate limiting rule's run counted (core/eval/rateLimit.ts RateLimitTally). */
export interface TestRulesRateLimit {
  limit: string; counted: number; acted: number; firstActed: number[]; keys: number; untimed: number; notes: string[];
  /** The characteristics keying the counters, and who the action applied to most (their values, most first); absent from servers
   * before them. */
  characteristics?: string[]; top?: { values: (string | null)[]; acted: number }[];
}

/** A rate limiting rule's run in sentences, one a line, the same in the CLI and the editor's report. */
export function rateLimitLines(t: TestRulesRateLimit): string[] {
  return [
    `rate limit ${t.limit}: ${plural(t.counted, 'request', undefined, en)} counted in ${plural(t.keys, 'counter', undefined, en)} (one per value of the characteristics); ` +
      (t.acted ? `the action applied to ${en(t.acted)}, first on ${t.firstActed.length === 1 ? 'line' : 'lines'} ${t.firstActed.join(', ')}.` : 'no count passed the limit, so the action applied to none.'),
    ...(t.top?.length && t.characteristics?.length ? [`most acted on: ${t.top.map((x) => `${x.values.map((v, k) => `${t.characteristics![k]} ${v === null ? '(no value)' : v}`).join(', ')} (${en(x.acted)})`).join('; ')}.`] : []),
    ...(t.untimed ? [`${plural(t.untimed, 'matching request', undefined, en)} ${t.untimed === 1 ? 'has' : 'have'} no http.request.timestamp.sec and ${t.untimed === 1 ? 'was' : 'were'} not counted.`] : []),
    ...t.notes,
  ];
}

/**
 * One thing a rule sets (core/eval/rules.ts ValueTally): a header's name or "URI path", "URI query", "target URL"; a header's
 * operation; a static value, or an expression with its values on the first matching requests (by line; null: no value) and how
 * many distinct values it gave (distinctMore: at least that many), or why it was not evaluated. Neither: a header removed.
 */
export interface TestRulesValue {
  name: string; path: string; operation?: string; value?: string; expression?: string; error?: string;
  examples: { line: number; value: string | null }[]; distinct: number; distinctMore?: boolean;
  /** On how many requests the rule applied to a later applied rule set the same thing again, by rule index. */
  overwritten?: { by: number; requests: number }[];
}

/** What later rules overwrote of a value, as one sentence (the CLI and the editor's report), or nothing. */
export function overwrittenLine(v: Pick<TestRulesValue, 'overwritten'>): string | undefined {
  if (!v.overwritten?.length) return undefined;
  const by = v.overwritten.map((o) => `rule ${o.by} on ${plural(o.requests, 'request', undefined, en)}`).join(', ');
  return `overwritten by ${by}: later rules of the phase win`;
}

/** Which requests each rule of a ruleset matches, and which rule decides each request. */
export namespace TestRulesRequest {
  export const method = 'edgekit/testRules';
  export const type: CustomRequest<TestRulesParams, TestRulesResult> = { method };
}
