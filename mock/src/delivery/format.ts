// What a Logpush job pushes and how the object is named (docs/mock-backend.md, "Logpush delivery"): the job's filter (the core's
// evaluator), its deterministic sample, its field selection and timestamp format (output_options, or the legacy logpull_options
// string), the NDJSON (or CSV) text of a batch, and the object key `<path>/<start>_<end>_<random>.log.gz` with `{DATE}` replaced
// by YYYYMMDD. Pure: no I/O.
import { createHash } from 'node:crypto';
import { catalogue, compileFilter, filterKeys, isObj, stringifyExact, withExactIntegers, type CompiledFilter } from '../../../server/src/core';
import type { FeedRecord } from '../feed';

export type TimestampFormat = 'unixnano' | 'unix' | 'rfc3339' | 'rfc3339ms' | 'rfc3339ns';
const TIMESTAMP_FORMATS: readonly TimestampFormat[] = ['unixnano', 'unix', 'rfc3339', 'rfc3339ms', 'rfc3339ns'];

/** How a job writes its records: what output_options / logpull_options say, with the platform's defaults. */
export interface OutputSpec {
  /** The fields, in order; null: every platform field of the record (a job without a field list). */
  fields: string[] | null;
  timestamps: TimestampFormat;
  /** 0 < sample <= 1. */
  sample: number;
  /** output_options "CVE-2021-44228" / logpull_options `CVE-2021-44228=true`: `${` is written `x{`. */
  cve: boolean;
  outputType: 'ndjson' | 'csv';
  batchPrefix: string;
  batchSuffix: string;
  recordPrefix: string;
  recordSuffix: string;
  recordDelimiter: string;
  fieldDelimiter: string;
}

/** The job's output spec, or a message naming what the mock cannot write (e.g. record_template). */
export function outputSpec(job: Record<string, unknown>): OutputSpec | string {
  const spec: OutputSpec = {
    fields: null, timestamps: 'unixnano', sample: 1, cve: false, outputType: 'ndjson',
    batchPrefix: '', batchSuffix: '', recordPrefix: '{', recordSuffix: '}\n', recordDelimiter: '', fieldDelimiter: ',',
  };
  const oo = job.output_options;
  if (isObj(oo)) {
    if (oo.output_type === 'csv') {
      spec.outputType = 'csv';
      spec.recordPrefix = '';
      spec.recordSuffix = '\n';
    }
    if (typeof oo.record_template === 'string' && oo.record_template) return 'output_options.record_template is not written by the mock; leave it out.';
    if (Array.isArray(oo.field_names)) spec.fields = oo.field_names.filter((f): f is string => typeof f === 'string');
    if (typeof oo.timestamp_format === 'string') {
      if (!TIMESTAMP_FORMATS.includes(oo.timestamp_format as TimestampFormat)) return `output_options.timestamp_format "${oo.timestamp_format}" is not one of ${TIMESTAMP_FORMATS.join(', ')}.`;
      spec.timestamps = oo.timestamp_format as TimestampFormat;
    }
    if (typeof oo.sample_rate === 'number') spec.sample = oo.sample_rate;
    if (oo['CVE-2021-44228'] === true) spec.cve = true;
    const strings = { batch_prefix: 'batchPrefix', batch_suffix: 'batchSuffix', record_prefix: 'recordPrefix', record_suffix: 'recordSuffix', record_delimiter: 'recordDelimiter', field_delimiter: 'fieldDelimiter' } as const;
    for (const [k, to] of Object.entries(strings)) if (typeof oo[k] === 'string') spec[to] = oo[k] as string;
  } else if (typeof job.logpull_options === 'string' && job.logpull_options) {
    const q = new URLSearchParams(job.logpull_options);
    const fields = q.get('fields');
    if (fields) spec.fields = fields.split(',').map((f) => f.trim()).filter(Boolean);
    const ts = q.get('timestamps');
    if (ts) {
      if (!TIMESTAMP_FORMATS.includes(ts as TimestampFormat)) return `logpull_options timestamps "${ts}" is not one of ${TIMESTAMP_FORMATS.join(', ')}.`;
      spec.timestamps = ts as TimestampFormat;
    }
    const sample = q.get('sample');
    if (sample) spec.sample = Number(sample);
    if (q.get('CVE-2021-44228') === 'true') spec.cve = true;
  }
  if (!(spec.sample > 0 && spec.sample <= 1)) return `The sample rate must be above 0 and at most 1, not ${spec.sample}.`;
  return spec;
}

/** A job's filter as delivery applies it to a feed record. */
export interface JobFilter { test(record: FeedRecord): boolean }

/** The job's filter compiled by the core's evaluator (null: no filter, everything passes), or the error. The feed holds times as
 * ISO 8601 text, but a filter compares a timestamp field (the catalogue's "int or string") as the platform's integer time, the
 * unixnano of the default output (the evaluator refuses a string for lt/gt): such fields are given to the filter in unixnano, so
 * delivery keeps the records that `edgekit test-filter` matches on the delivered lines, whatever the job's timestamp_format. */
export function jobFilter(job: Record<string, unknown>, dataset: string): JobFilter | null | string {
  const f = job.filter;
  if (f === undefined || f === null || f === '') return null;
  let parsed: unknown = f;
  if (typeof f === 'string') {
    // An integer past 2^53 (a unixnano time) with the digits the string writes, as edgekit test-filter reads the job's filter
    try { parsed = withExactIntegers(f, JSON.parse(f)); } catch (err) { return `The job's filter is not JSON: ${(err as Error).message}.`; }
  }
  const compiled = compileFilter(parsed, dataset);
  if (!compiled.ok) return `The job's filter cannot be evaluated: ${compiled.error}`;
  const filter: CompiledFilter = compiled.filter;
  const times = filterKeys(parsed).filter((k) => timestampFields(dataset).has(k));
  if (times.length === 0) return filter;
  return {
    test(record: FeedRecord): boolean {
      let view = record;
      for (const k of times) {
        const v = record[k];
        if (typeof v !== 'string') continue;
        // Exactly (a bigint): a unixnano time is past 2^53, where a double holds one integer in 256
        const nano = unixnano(v);
        if (nano !== undefined) view = view === record ? { ...record, [k]: nano } : Object.assign(view, { [k]: nano });
      }
      return filter.test(view);
    },
  };
}

/** Whether a record is in the job's sample: a pure function of the job and the record's RayID, so a replay keeps the same ones. */
export function sampled(jobId: number, record: FeedRecord, rate: number): boolean {
  if (rate >= 1) return true;
  const h = createHash('sha256').update(`${jobId}|${String(record.RayID ?? JSON.stringify(record))}`).digest();
  return h.readUInt32BE(0) / 0x1_0000_0000 < rate;
}

const timestampFieldsCache = new Map<string, Set<string>>();

/** The dataset's timestamp fields (the catalogue's "int or string" type: written per timestamp_format). */
export function timestampFields(dataset: string): Set<string> {
  let s = timestampFieldsCache.get(dataset);
  if (!s) {
    s = new Set((catalogue.logpush.datasetFields(dataset) ?? []).filter((f) => f.type === 'int or string').map((f) => f.name));
    timestampFieldsCache.set(dataset, s);
  }
  return s;
}

/** An ISO 8601 time as nanoseconds since the epoch, exactly; undefined for a text that is no time. */
function unixnano(iso: string): bigint | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const nanos = ((/\.(\d+)/.exec(iso)?.[1] ?? '') + '000000000').slice(0, 9);
  return BigInt(Math.floor(ms / 1000)) * 1_000_000_000n + BigInt(nanos);
}

/** An ISO 8601 time written in `format`: unix is a number, unixnano the exact integer (a bigint: past 2^53 a double keeps one
 * integer in 256, and its shortest text loses the last digits of a time with nanoseconds); rfc3339 to the second, rfc3339ms/ns
 * with fractions. */
export function formatTimestamp(iso: string, format: TimestampFormat): string | number | bigint {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const frac = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const nanos = (frac + '000000000').slice(0, 9);
  const secs = Math.floor(ms / 1000);
  const base = new Date(secs * 1000).toISOString().slice(0, 19);
  switch (format) {
    case 'unix': return secs;
    case 'unixnano': return unixnano(iso)!;
    case 'rfc3339': return `${base}Z`;
    case 'rfc3339ms': return `${base}.${nanos.slice(0, 3)}Z`;
    case 'rfc3339ns': return `${base}.${nanos}Z`;
  }
}

const platformFieldsCache = new Map<string, Set<string>>();

/** The dataset's fields as the platform lists them (logs/reference; the catalogue). The feed's records also carry EdgeKit's own
 * members (EdgeKitMode, EdgeKitWouldAction, ClientRequestQuery), which the platform never writes. */
export function platformFields(dataset: string): Set<string> {
  let s = platformFieldsCache.get(dataset);
  if (!s) {
    s = new Set((catalogue.logpush.datasetFields(dataset) ?? []).map((f) => f.name));
    platformFieldsCache.set(dataset, s);
  }
  return s;
}

/** The record as the job writes it: its fields (in the job's order; missing ones are left out), timestamps formatted. Without a
 * field list, the record's members that are fields of the dataset (`known`), never EdgeKit's own. */
export function project(record: FeedRecord, spec: OutputSpec, tsFields: Set<string>, known?: Set<string>): [string, unknown][] {
  const names = spec.fields ?? Object.keys(record).filter((n) => !known || known.has(n));
  const out: [string, unknown][] = [];
  for (const name of names) {
    if (!(name in record)) continue;
    let v = record[name];
    if (tsFields.has(name) && typeof v === 'string') v = formatTimestamp(v, spec.timestamps);
    out.push([name, v]);
  }
  return out;
}

function jsonText(v: unknown, cve: boolean): string {
  // A bigint (a unixnano time) as its digits, where JSON.stringify throws
  const t = stringifyExact(v) ?? 'null';
  return cve ? t.replace(/\$\{/g, 'x{') : t;
}

/** A CSV cell: numbers and booleans bare, null empty, strings (and arrays and objects, as their JSON text) always in double quotes
 * with inner quotes doubled, as the docs' CSV and TSV examples write them ("89.163.242.206",1506702504433000200,"3a6050bcbe121a87"),
 * so a cell holding the field delimiter (a comma, or a tab in TSV) or a line break stays one cell. */
function csvCell(v: unknown, cve: boolean): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  const t = typeof v === 'string' ? v : JSON.stringify(v);
  const s = cve ? t.replace(/\$\{/g, 'x{') : t;
  return `"${s.replace(/"/g, '""')}"`;
}

/** One record's text: record prefix, its fields, record suffix. */
export function renderRecord(fields: [string, unknown][], spec: OutputSpec): string {
  return spec.recordPrefix + fields.map(([k, v]) => (spec.outputType === 'csv' ? csvCell(v, spec.cve) : `${JSON.stringify(k)}:${jsonText(v, spec.cve)}`)).join(spec.fieldDelimiter) + spec.recordSuffix;
}

/** The batch's text from its records' texts (renderRecord): batch prefix, the records joined by the record delimiter, batch suffix. */
export function joinBatch(records: string[], spec: OutputSpec): string {
  return spec.batchPrefix + records.join(spec.recordDelimiter) + spec.batchSuffix;
}

/** The batch's text: batch prefix, the records (prefix, fields, suffix) joined by the record delimiter, batch suffix. */
export function renderBatch(rows: [string, unknown][][], spec: OutputSpec): string {
  return joinBatch(rows.map((fields) => renderRecord(fields, spec)), spec);
}

/** 2018-05-03T17:45:00.123Z → 20180503T174500Z (the platform's object names). */
export function compactTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/** The object key of a batch below the destination's path: `{DATE}` in the path becomes the batch's day (YYYYMMDD), then
 * `<start>_<end>_<random>.log.gz` (the platform's names: e.g. 20180503T174500Z_20180503T175000Z_3b6a4f2e.log.gz). */
export function objectKey(pathPrefix: string, startMs: number, endMs: number, random: string): string {
  const day = compactTime(startMs).slice(0, 8);
  const dir = pathPrefix.replace(/\{DATE\}/g, day).replace(/^\/+|\/+$/g, '');
  const name = `${compactTime(startMs)}_${compactTime(endMs)}_${random}.log.gz`;
  return dir ? `${dir}/${name}` : name;
}
