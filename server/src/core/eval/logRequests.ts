// Test Rules on Logpush logs. A user's real traffic is in their http_requests logs, and a WAF user's in their firewall_events logs
// (one line per security event, a request a rule acted on or logged), not in request records: a line with Logpush's field names
// (ClientIP, ClientRequestPath, ...) is read as the request it logs (sample.ts toRequestRecord, the mapping the sample and the
// mock's traffic use, or firewallEventToRequestRecord), and a record with the rules language's names as it is, checked as before
// (records.ts). Which dataset a line is, its members tell: a name only one of the two has (ClientRequestURI, EdgeStartTimestamp;
// ClientRequestQuery, Datetime, Action); a line of names both have is read as the file's other lines tell, or as http_requests
// when none does (the two readings of those names are the same; only what the report names differs), and as firewall_events when
// it repeats an earlier line's RayID (http_requests has one line a request). A job writes only its output_options.field_names, and
// no log carries most headers, cookies or bodies: the fields the rules read that no line gave a value for are named, with the log
// field each comes from, so that counts on such a field are not taken for real ones.
import { datasetFields } from '../rules/logpush/catalogue';
import { FIELDS, NETWORK_FIELDS } from '../rules/ruleset/catalog';
import { rulesOf } from '../rules/ruleset/body';
import { expressionsOf } from '../rules/ruleset/valueExpressions';
import { parseExpression, walk } from '../rules/ruleset/exprParser';
import type { LogRecord } from './filter';
import { isObj } from '../json';
import { eachSampleHttpRequest, firewallEventToRequestRecord, toRequestRecord } from './sample';
import { emptyValue } from './sampleDetails';
import { collector, pairedFields, requestRecordChecker, type RecordProblems } from './records';
import { suggest } from '../suggest';

/** The Logpush datasets whose lines Test Rules reads as the requests they log. */
export type LogDataset = 'http_requests' | 'firewall_events';

/** What was read as log lines: how many, the first one's line, the dataset they were read as (`assumed` when no line's members
 * told: http_requests, Logpush's default), the lines of the other dataset when a file has both (`other`), and the fields the rules
 * read that none gave a value for (`from`: the log field it would come from, when one alone gives it, or the log fields together). */
export interface LogLinesRead {
  lines: number; first: number; dataset: LogDataset; assumed?: true; other?: { dataset: LogDataset; lines: number; first: number };
  /** firewall_events lines, one per security event: those not read again for repeating an earlier line's RayID (another event of
   * the same request; a line of shared names that does is one), and those without a RayID (whose events of one request are each
   * read; lines of shared names among them when the file is read as firewall_events); absent when both are 0. */
  events?: { repeated: number; unjoined: number };
  /** A file of both datasets (or a line repeating a RayID of the other's): the lines not read because a line of the other dataset
   * with their RayID was (a request is read once, from the first of its lines), the http_requests lines without a RayID (whose
   * requests are read again from their firewall_events lines), and when RayIDs were forgotten, how many are `remembered` at least
   * (RAY_IDS: lines of one request further apart than that are each read). */
  joined?: { lines: number; noRayID: number; remembered?: number };
  missing: { field: string; from?: string }[];
}

/** The RayIDs of the lines seen, in two generations of this many each: a request's events are written together (the same batch), so
 * a repeat further back than that is not looked for, and a file of millions of lines keeps no more. Two jobs' files put together
 * (http_requests, then firewall_events) are joined within that distance, and the report says when ids were forgotten. */
const RAY_IDS = 100_000;

/** A line's RayID as the platform writes it (text, 16 hex digits), or undefined for none; `odd`: a number that cannot be one's digits
 * (a fraction, a negative number, a double past 2^53, whose digits are lost: readNdjson gives a bigint for the line's digits). A tool
 * that rewrote an all-digit RayID as a JSON number dropped its leading zeros: they are put back. */
function rayOf(v: unknown): { ray?: string; odd?: true } {
  if (typeof v === 'string') return v ? { ray: v } : {};
  if ((typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n)) return { ray: String(v).padStart(16, '0') };
  return typeof v === 'number' || typeof v === 'bigint' ? { odd: true } : {};
}

/** How one dataset's lines are read: its field names (`own`: those the other dataset has not, which tell a line), the names of its
 * integer fields, the conversion, and lines to find which log field gives which request field (sourcesOf). */
interface Reading {
  name: LogDataset; names: ReadonlySet<string>; own: ReadonlySet<string>; ints: ReadonlySet<string>;
  convert(line: LogRecord): LogRecord; samples(): Iterable<LogRecord>;
  sources?: Map<string, readonly (readonly string[])[] | undefined>; lines?: readonly LogRecord[];
}

/** The readings, and what each name tells of a record (one lookup a member: a file has hundreds of thousands of lines): a
 * rules-language field (0: a request record), a name of http_requests only (1), of firewall_events only (2), or of both (3). */
interface Readings { http: Reading; firewall: Reading; kinds: ReadonlyMap<string, 0 | 1 | 2 | 3> }
let readings: Readings | undefined;
/** A dataset's name after "a" or "an", as it is read: "an http_requests line", "a firewall_events line". */
const an = (d: LogDataset) => `${d === 'http_requests' ? 'an' : 'a'} ${d}`;
/** An integer's text that a double holds exactly. */
const INTEGER_TEXT = /^-?\d{1,15}$/;

function readingsOf(): Readings {
  if (readings) return readings;
  const names = (d: LogDataset) => new Set((datasetFields(d) ?? []).map((f) => f.name));
  const ints = (d: LogDataset) => new Set((datasetFields(d) ?? []).filter((f) => f.type === 'int').map((f) => f.name));
  const h = names('http_requests'), f = names('firewall_events');
  const only = (a: ReadonlySet<string>, b: ReadonlySet<string>) => new Set([...a].filter((n) => !b.has(n)));
  // The sample's lines, then a line of each custom field (the sample has none)
  const custom = [{ RequestHeaders: { 'x-a': '1' } }, { Cookies: { a: '1' } }, { ResponseHeaders: { 'x-a': '1' } }];
  const http: Reading = { name: 'http_requests', names: h, own: only(h, f), ints: ints('http_requests'), convert: toRequestRecord,
    samples: () => [...eachSampleHttpRequest(50), ...custom] };
  const firewall: Reading = { name: 'firewall_events', names: f, own: only(f, h), ints: ints('firewall_events'), convert: firewallEventToRequestRecord,
    samples: () => [...eachSampleHttpRequest(50)].map((l) => firewallEventOf(l, f)) };
  const kinds = new Map<string, 0 | 1 | 2 | 3>();
  for (const n of h) kinds.set(n, f.has(n) ? 3 : 1);
  for (const n of firewall.own) kinds.set(n, 2);
  for (const n of [...FIELDS.keys(), ...NETWORK_FIELDS.keys()]) kinds.set(n, 0);
  return (readings = { http, firewall, kinds });
}

/** A sample http_requests line as the firewall_events line of an event on the same request: the members the datasets share as they
 * are, the URI as its path and query, the referer in its parts, the time as Datetime. */
function firewallEventOf(l: LogRecord, names: ReadonlySet<string>): LogRecord {
  const out: LogRecord = {};
  for (const k in l) if (names.has(k)) out[k] = l[k];
  const uri = String(l.ClientRequestURI), q = uri.indexOf('?');
  out.ClientRequestQuery = q < 0 ? '' : uri.slice(q);
  const referer = l.ClientRequestReferer ? new URL(String(l.ClientRequestReferer)) : undefined;
  Object.assign(out, { ClientRefererScheme: referer?.protocol.slice(0, -1) ?? '', ClientRefererHost: referer?.host ?? '',
    ClientRefererPath: referer?.pathname ?? '', ClientRefererQuery: referer?.search ?? '', Datetime: l.EdgeStartTimestamp, Action: 'log' });
  return out;
}

/** Which dataset a record's members tell (the one with more names the other has not), undefined for a log line of shared names
 * only (or on a tie), or null for no log line: a member named as a rules-language field, or none named as a log field. */
function datasetOf(record: LogRecord, r: Readings): Reading | undefined | null {
  let http = 0, firewall = 0, log = false;
  for (const k in record) {
    const kind = r.kinds.get(k);
    if (kind === 0) return null;
    if (kind === 1) http++;
    else if (kind === 2) firewall++;
    else if (kind === 3) log = true;
  }
  return http > firewall ? r.http : firewall > http ? r.firewall : log || http ? undefined : null;
}

/** The log fields that each give a request field on their own (each field of a full sample line converted alone), in the order
 * first seen, one alternative each; a field no log field gives alone, the log fields it needs together (those whose removal from a
 * full line takes it away: the host and the URI for the full URI). ssl is ClientRequestScheme's (without it a line reads as https,
 * which the line does not tell). */
function sourcesOf(r: Reading, field: string): readonly (readonly string[])[] | undefined {
  if (!r.sources) {
    const map = new Map<string, string[][]>([['ssl', [['ClientRequestScheme']]]]);
    const lines = (r.lines = [...r.samples()]);
    for (const line of lines) {
      for (const [k, v] of Object.entries(line)) {
        for (const [f, x] of Object.entries(r.convert({ [k]: v }))) {
          if (f === 'ssl' || emptyValue(x)) continue;
          const from = map.get(f);
          if (!from) map.set(f, [[k]]); else if (!from.some((a) => a[0] === k)) from.push([k]);
        }
      }
    }
    r.sources = map;
  }
  if (r.sources.has(field)) return r.sources.get(field);
  // Not given by one log field: by those it needs together, from the first full line that gives it (asked once a field)
  let together: string[] | undefined;
  for (const line of r.lines!) {
    if (emptyValue(r.convert(line)[field])) continue;
    together = Object.keys(line).filter((k) => { const { [k]: _, ...rest } = line; return emptyValue(r.convert(rest)[field]); });
    break;
  }
  const from = together?.length ? [together] : undefined;
  r.sources.set(field, from);
  return from;
}

/** The log field named for a field no line gives: the custom field of a header or cookie read by name, else its first source; for
 * a firewall_events line, a field only http_requests gives is named with that dataset's field. */
function sourceOf(field: string, r: Reading): string | undefined {
  const m = KEYED_READ.exec(field);
  const from = m && KEYED.has(m[1]) ? (r.name === 'http_requests' ? KEYED.get(m[1]) : undefined) : sourcesOf(r, field)?.[0].join(' and ');
  if (from) return CUSTOM.has(from) ? `${from}, a Logpush custom field` : from;
  if (r.name === 'http_requests') return undefined;
  const http = sourceOf(field, readingsOf().http);
  return http && (http.endsWith(', a Logpush custom field') ? `${http} of http_requests` : `${http}, an http_requests field`);
}

/** Whether a log line gives a read: a field log fields give, when the line has one of them (or all of those it needs together),
 * not null (an empty query, referer or extension is the platform's value too); a header or cookie read by name, or the request
 * time, when its value on the line is not its type's empty value. */
function givenBy(read: string, r: Reading): (line: LogRecord, request: LogRecord) => boolean {
  const m = KEYED_READ.exec(read);
  // The request time is no logged value but one read from EdgeStartTimestamp or Datetime, which may fail ('yesterday'), and 0 is
  // none: a timestamp_format of whole seconds (unix, rfc3339) gives no milliseconds
  const from = (m && KEYED.has(m[1])) || read.startsWith('http.request.timestamp.') ? undefined : sourcesOf(r, read);
  if (from) return (line) => from.some((ks) => ks.every((k) => line[k] !== undefined && line[k] !== null));
  const value = lookup(read);
  return (_line, request) => !emptyValue(value(request));
}

/**
 * Reads a file's records for a rules run: read() gives the request record to run the rules on, or undefined for a firewall_events
 * line that repeats an earlier line's RayID (another event of a request already read), and for a line of either dataset whose RayID
 * a line of the other had (two jobs' files put together: a request is read once, from the first of its lines). `reads` are the fields the rules read
 * (rulesetFields). problems() is the request records' check and the log lines' members that are no field of their dataset;
 * logLines() says what was read as log lines, undefined for none.
 */
export function requestReader(reads: readonly string[]): { read(record: LogRecord, line: number): LogRecord | undefined; problems(): RecordProblems | undefined; logLines(): LogLinesRead | undefined } {
  const r = readingsOf();
  const checker = requestRecordChecker();
  // A log line's members that are no field of its dataset: the conversion leaves them out
  const unread = collector();
  // The reads no line has given yet, each with its test by dataset (made when a line of that dataset is read): a line tests only those
  type Given = (line: LogRecord, request: LogRecord) => boolean;
  let absent = reads.map((read) => ({ read, http: undefined as Given | undefined, firewall: undefined as Given | undefined }));
  // Lines told as each dataset, and the lines no member told, with the first of each
  const told = { http: { lines: 0, first: 0 }, firewall: { lines: 0, first: 0 } };
  const untold = { lines: 0, first: 0 };
  const count = (c: { lines: number; first: number }, line: number) => { if (c.lines++ === 0) c.first = line; };
  // The dataset the file's lines told most so far: the one a line of shared names is read as
  const main = () => (told.firewall.lines > told.http.lines ? r.firewall : r.http);
  const events = { repeated: 0, unjoined: 0 };
  // Lines no member told without a RayID: firewall_events lines that cannot be joined when the file is read as that dataset, else
  // http_requests lines
  let untoldUnjoined = 0;
  // Lines not read for a line of the other dataset with their RayID, and http_requests lines without one
  const joined = { lines: 0, httpNoRay: 0, forgotten: false };
  // Each RayID seen, with whether an http_requests line had it (true) or a line that may be firewall_events (false)
  let rays = new Map<string, boolean>(), older = new Map<string, boolean>();
  return {
    read(record, line) {
      const tells = datasetOf(record, r);
      if (tells === null) { checker.take(record, line); return pairedFields(record); }
      let read: LogRecord | undefined;
      const { ray, odd } = rayOf(record.RayID);
      if (ray !== undefined && ray !== record.RayID) read = { ...record, RayID: ray };
      if (odd) unread.note('log RayID number', () => `"RayID" is the number ${String(record.RayID)}, which is no RayID (the platform writes one as text: 16 hex digits); the line is not joined with its request's other lines`, line);
      // A request is read once. A line that may be firewall_events (told so, or by no member, whatever the file's lines tell so
      // far) repeating a RayID is another event of a request already read, and a firewall_events line (an http_requests line is one
      // a request), even when its members cannot tell; a line repeating the RayID of a line of the other dataset (two jobs' files
      // put together) logs a request read from that line. Within http_requests a repeat is read again (one line a request).
      const http = tells === r.http;
      if (ray === undefined) {
        if (http) joined.httpNoRay++; else if (tells) events.unjoined++; else untoldUnjoined++;
      } else {
        const seen = rays.get(ray) ?? older.get(ray);
        if (seen === undefined) {
          if (rays.size >= RAY_IDS) { if (older.size) joined.forgotten = true; older = rays; rays = new Map(); }
          rays.set(ray, http);
        } else if (seen !== http) {
          joined.lines++; count(http ? told.http : told.firewall, line); return undefined;
        } else if (!http) {
          events.repeated++; count(told.firewall, line); return undefined;
        }
      }
      if (tells) count(http ? told.http : told.firewall, line); else count(untold, line);
      const d = tells ?? main();
      const other = d === r.http ? r.firewall : r.http;
      for (const k in record) {
        // An integer field written as text by a tool other than Logpush ("BotScore": "5") is read as its number, as the platform logs
        // it: as text it would equal no integer of the rules
        const v = record[k];
        if (typeof v === 'string' && d.ints.has(k) && INTEGER_TEXT.test(v)) (read ??= { ...record })[k] = Number(v);
        if (d.names.has(k)) continue;
        // Not read: the other dataset's (on a line its members told as this one's), or neither's
        if (other.names.has(k)) {
          (read ??= { ...record }); delete read[k];
          unread.note(`log ${k}`, () => `"${k}" is ${an(other.name)} log field, not ${an(d.name)} one; Test Rules does not read it on ${an(d.name)} line (a line of two datasets?)`, line);
          continue;
        }
        unread.note(`log ${k}`, () => {
          const near = suggest(k, tells ? [...d.names] : [...r.http.names, ...r.firewall.own]);
          const what = tells ? `not ${an(d.name)} log field` : 'no field of http_requests or firewall_events logs';
          return `"${k}" is ${what}${near.length ? ` (did you mean "${near[0]}"?)` : ''}; Test Rules does not read it (a line of another dataset?)`;
        }, line);
      }
      unread.endRecord();
      const request = d.convert(read ?? record);
      const key = d === r.http ? 'http' : 'firewall';
      const given = (a: (typeof absent)[number]) => (a[key] ??= givenBy(a.read, d))(record, request);
      if (absent.length && absent.some(given)) absent = absent.filter((a) => !given(a));
      return request;
    },
    problems() {
      const a = checker.result(), b = unread.result();
      return a && b ? { records: a.records + b.records, examples: [...a.examples, ...b.examples] } : a ?? b;
    },
    logLines() {
      if (!told.http.lines && !told.firewall.lines && !untold.lines) return undefined;
      const d = main();
      const [mine, theirs] = d === r.http ? [told.http, told.firewall] : [told.firewall, told.http];
      const first = !mine.lines ? untold.first : !untold.lines ? mine.first : Math.min(mine.first, untold.first);
      const unjoined = events.unjoined + (d === r.firewall ? untoldUnjoined : 0);
      const noRayID = joined.httpNoRay + (d === r.http ? untoldUnjoined : 0);
      const missing = absent.map(({ read: field }) => { const from = sourceOf(field, d); return from ? { field, from } : { field }; });
      return { lines: mine.lines + untold.lines, first, dataset: d.name, ...(mine.lines || theirs.lines ? {} : { assumed: true as const }),
        ...(theirs.lines ? { other: { dataset: (d === r.http ? r.firewall : r.http).name, ...theirs } } : {}),
        ...(events.repeated || unjoined ? { events: { repeated: events.repeated, unjoined } } : {}),
        ...(theirs.lines || joined.lines ? { joined: { lines: joined.lines, noRayID: theirs.lines ? noRayID : 0, ...(joined.forgotten ? { remembered: RAY_IDS } : {}) } } : {}), missing };
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
