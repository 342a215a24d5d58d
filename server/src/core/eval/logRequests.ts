// Test Rules on Logpush logs. A user's real traffic is in their http_requests logs, not in request records: a line with Logpush's
// field names (ClientIP, ClientRequestPath, ...) is read as the request it logs (sample.ts toRequestRecord, the mapping the sample
// and the mock's traffic use), and a record with the rules language's names as it is, checked as before (records.ts). A job writes
// only its output_options.field_names, and no log carries most headers, cookies or bodies: the fields the rules read that no line
// gave a value for are named, with the log field each comes from, so that counts on such a field are not taken for real ones.
import { datasetFields } from '../rules/logpush/catalogue';
import { FIELDS, NETWORK_FIELDS } from '../rules/ruleset/catalog';
import { rulesOf } from '../rules/ruleset/body';
import { expressionsOf } from '../rules/ruleset/valueExpressions';
import { parseExpression, walk } from '../rules/ruleset/exprParser';
import type { LogRecord } from './filter';
import { isObj } from '../json';
import { eachSampleHttpRequest, toRequestRecord } from './sample';
import { emptyValue } from './sampleDetails';
import { collector, requestRecordChecker, type RecordProblems } from './records';
import { suggest } from '../suggest';

/** What was read as log lines: how many, the first one's line, and the fields the rules read that none gave a value for (`from`:
 * the http_requests field it would come from, when one alone gives it). */
export interface LogLinesRead { lines: number; first: number; missing: { field: string; from?: string }[] }

let logNames: ReadonlySet<string> | undefined;
/** The http_requests fields of type int, and an integer's text that a double holds exactly. */
let intNames: ReadonlySet<string> | undefined;
const INTEGER_TEXT = /^-?\d{1,15}$/;

/** A log line: a member named as an http_requests field and none named as a rules-language field. */
function isLogLine(record: LogRecord): boolean {
  logNames ??= new Set((datasetFields('http_requests') ?? []).map((f) => f.name));
  intNames ??= new Set((datasetFields('http_requests') ?? []).filter((f) => f.type === 'int').map((f) => f.name));
  let log = false;
  for (const k in record) {
    if (FIELDS.has(k) || NETWORK_FIELDS.has(k)) return false;
    if (logNames.has(k)) log = true;
  }
  return log;
}

let sources: ReadonlyMap<string, readonly string[]> | undefined;

/** The http_requests fields that each give a request field on their own (each field of a full sample line converted alone), in
 * the order first seen; ssl is ClientRequestScheme's (without it a line reads as https, which the line does not tell). */
function sourcesOf(field: string): readonly string[] | undefined {
  if (!sources) {
    const map = new Map<string, string[]>([['ssl', ['ClientRequestScheme']]]);
    // The sample's lines, then a line of each custom field (the sample has none)
    const custom = [{ RequestHeaders: { 'x-a': '1' } }, { Cookies: { a: '1' } }, { ResponseHeaders: { 'x-a': '1' } }];
    for (const line of [...eachSampleHttpRequest(50), ...custom]) {
      for (const [k, v] of Object.entries(line)) {
        for (const [f, x] of Object.entries(toRequestRecord({ [k]: v }))) {
          if (f === 'ssl' || emptyValue(x)) continue;
          const from = map.get(f);
          if (!from) map.set(f, [k]); else if (!from.includes(k)) from.push(k);
        }
      }
    }
    sources = map;
  }
  return sources.get(field);
}

/** The request fields that two log fields give together (the full URI is the host and the URI). */
const TWO_SOURCES: Readonly<Record<string, string>> = {
  'http.request.full_uri': 'ClientRequestHost and ClientRequestURI', 'raw.http.request.full_uri': 'ClientRequestHost and ClientRequestURI',
};

/** The log field named for a field no line gives: the custom field of a header or cookie read by name, else its first source. */
function sourceOf(field: string): string | undefined {
  const m = KEYED_READ.exec(field);
  const from = m && KEYED.has(m[1]) ? KEYED.get(m[1]) : sourcesOf(field)?.[0] ?? TWO_SOURCES[field];
  return from && CUSTOM.has(from) ? `${from}, a Logpush custom field` : from;
}

/** Whether a log line gives a read: a field a log field gives, when the line has one of those, not null (an empty query, referer
 * or extension is the platform's value too); a header or cookie read by name, the request time, or a field no log field gives
 * alone (the full URI), when its value on the line is not its type's empty value. */
function givenBy(read: string): (line: LogRecord, request: LogRecord) => boolean {
  const m = KEYED_READ.exec(read);
  // The request time is no logged value but one read from EdgeStartTimestamp, which may fail ('yesterday'), and 0 is none: a
  // timestamp_format of whole seconds (unix, rfc3339) gives no milliseconds
  const from = (m && KEYED.has(m[1])) || read.startsWith('http.request.timestamp.') ? undefined : sourcesOf(read);
  if (from) return (line) => from.some((k) => line[k] !== undefined && line[k] !== null);
  const value = lookup(read);
  return (_line, request) => !emptyValue(value(request));
}

/**
 * Reads a file's records for a rules run: read() gives the request record to run the rules on. `reads` are the fields the rules
 * read (rulesetFields). problems() is the request records' check and the log lines' members no http_requests field names; logLines() says what was read as log lines, undefined for none.
 */
export function requestReader(reads: readonly string[]): { read(record: LogRecord, line: number): LogRecord; problems(): RecordProblems | undefined; logLines(): LogLinesRead | undefined } {
  const checker = requestRecordChecker();
  // A log line's members that are no http_requests field: toRequestRecord leaves them out
  const unread = collector();
  // The reads no line has given yet, each with its test: a line tests only those
  let absent = reads.map((read) => ({ read, given: givenBy(read) }));
  let lines = 0, first = 0;
  return {
    read(record, line) {
      if (!isLogLine(record)) { checker.take(record, line); return record; }
      if (lines++ === 0) first = line;
      let numbers: LogRecord | undefined;
      for (const k in record) {
        // An integer field written as text by a tool other than Logpush ("BotScore": "5") is read as its number, as the platform logs
        // it: as text it would equal no integer of the rules
        const v = record[k];
        if (typeof v === 'string' && intNames!.has(k) && INTEGER_TEXT.test(v)) (numbers ??= { ...record })[k] = Number(v);
        if (logNames!.has(k)) continue;
        unread.note(`log ${k}`, () => {
          const near = suggest(k, [...logNames!]);
          return `"${k}" is not an http_requests log field${near.length ? ` (did you mean "${near[0]}"?)` : ''}; Test Rules does not read it (a line of another dataset?)`;
        }, line);
      }
      unread.endRecord();
      const r = toRequestRecord(numbers ?? record);
      if (absent.length && absent.some((a) => a.given(record, r))) absent = absent.filter((a) => !a.given(record, r));
      return r;
    },
    problems() {
      const a = checker.result(), b = unread.result();
      return a && b ? { records: a.records + b.records, examples: [...a.examples, ...b.examples] } : a ?? b;
    },
    logLines() {
      if (!lines) return undefined;
      const missing = absent.map(({ read: field }) => { const from = sourceOf(field); return from ? { field, from } : { field }; });
      return { lines, first, missing };
    },
  };
}

/** The maps a read by name is told apart for, and the Logpush custom field that gives each. */
const KEYED: ReadonlyMap<string, string> = new Map([
  ['http.request.headers', 'RequestHeaders'], ['raw.http.request.headers', 'RequestHeaders'],
  ['http.request.cookies', 'Cookies'], ['http.response.headers', 'ResponseHeaders'], ['raw.http.response.headers', 'ResponseHeaders'],
]);
/** Logpush's custom fields (a zone's http_log_custom_fields rules choose what they carry). */
const CUSTOM: ReadonlySet<string> = new Set(KEYED.values());
const keyed = (field: string, key: string) => `${field}[${JSON.stringify(key)}]`;
const KEYED_READ = /^([a-z._]+)\[("(?:[^"\\]|\\.)*")\]$/;

/** A read as a record is looked up by: a field, or a map's key (`http.request.headers["x-api-key"]`). */
function lookup(read: string): (record: LogRecord) => unknown {
  const m = KEYED_READ.exec(read);
  if (!m) return (record) => record[read];
  const [field, key] = [m[1], JSON.parse(m[2]) as string];
  return (record) => { const map = record[field]; return isObj(map) && Object.hasOwn(map, key) ? map[key] : undefined; };
}

/** The fields a ruleset's expressions read (match, rate limit and value expressions), each once, by rule and by expression place
 * (valueExpressions.ts' table); an expression that does not parse reads none. */
export function rulesetFields(value: unknown): string[] {
  const out = new Set<string>();
  rulesOf(value).forEach((rule, i) => {
    for (const { src } of expressionsOf(rule, i)) {
      const { ast } = parseExpression(src);
      if (!ast) continue;
      walk(ast, (n) => {
        if (n.type !== 'field') return;
        // A header or cookie read by name is a read of that name: a line has the map (host, user-agent) without it
        const first = n.index[0];
        out.add(first?.kind === 'key' && KEYED.has(n.name) ? keyed(n.name, n.name.startsWith('http.request.headers') || n.name.startsWith('http.response.headers') ? first.key.toLowerCase() : first.key) : n.name);
      });
    }
  });
  return [...out];
}
