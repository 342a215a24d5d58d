// Semantic checks of a Logpush job (*.logpush.json): name, dataset, legacy logpull_options, output_options, upload limits,
// destination_conf (per scheme, credentials) and the embedded `filter` string, whose problems land inside the string.
import type { Fix, ParsedDoc, Problem, RuleContext, Span } from '../../types';
import { parseDocument } from '../../parse';
import { SCHEMAS, validatorFor } from '../../schema/registry';
import { ajvProblems } from '../../schema/ajvProblems';
import { namesOf, suggest } from '../../suggest';
import { DATASETS, DEFAULT_JOB_DATASET, datasetFields, datasetInfo, datasetScopes, fieldNamed, type FieldInfo, type Scope } from './catalogue';
import { filterKeys } from '../../eval/records';
import { quoteList } from '../../messages';
import { checkFilter, otherScopeField, unknownFieldProblem, type OtherScopeFields } from './filter';
import { EmbeddedString, parseQuery, type QueryParam } from './embedded';
import { isObj, type Obj } from '../../json';
import { headOf, itemRemovals } from '../../text';


/** Platform rule for job names (API schema: pattern ^[a-zA-Z0-9\-\.]*$, maxLength 512). */
const NAME_RE = /^[a-zA-Z0-9.-]*$/;
export const MAX_NAME_LENGTH = 512;
export const LOGPULL_KEYS = ['fields', 'sample', 'timestamps', 'CVE-2021-44228'];
export const LOGPULL_TIMESTAMPS = ['unixnano', 'unix', 'rfc3339'];
/** Keys of a Logpull call (logs/received) that the API's description of logpull_options lets a copied URL keep: "copy the url (full
 * url or just the query string) of your call here, and logpush will keep on making this call for you, setting start and end times
 * appropriately". */
const LOGPULL_CALL_KEYS = ['start', 'end', 'count'];
/** api-configuration.mdx's schemes, and those of destinations with their own page under enable-destinations/: ibmcl (IBM Cloud
 * Logs, ibm-cloud-logs.mdx), kinesis (Amazon Kinesis, kinesis.mdx), bq (Google BigQuery, bigquery.mdx), sentinelone (sentinelone.mdx). */
export const DESTINATION_SCHEMES = ['r2', 's3', 'gs', 'azure', 'datadog', 'splunk', 'sumo', 'https', 'ibmcl', 'kinesis', 'bq', 'sentinelone'];
/** The datasets filter_attack_traffic applies to (the API reference, as in the cloudflare SDK 7.3.0's logpush/jobs.d.ts). */
export const ATTACK_TRAFFIC_DATASETS = ['http_requests', 'firewall_events', 'network_analytics_logs'];
const UPLOAD_LIMITS: Record<string, [number, number]> = {
  max_upload_bytes: [5_000_000, 1_000_000_000],
  max_upload_records: [1_000, 1_000_000],
  max_upload_interval_seconds: [30, 300],
};

/** The dataset a job pushes: its `dataset` member, else the platform default. */
export function jobDataset(value: unknown): string {
  return isObj(value) && typeof value.dataset === 'string' ? value.dataset : DEFAULT_JOB_DATASET;
}

/**
 * The scopes a job may be created under: its dataset's (datasetScopes), narrowed to one when the job names a field the dataset
 * has in that scope's jobs only (jobScopeField). "Create Logpush Job" asks among these.
 */
export function jobScopes(value: unknown): readonly Scope[] {
  const by = jobScopeField(value);
  return by ? [by.scope] : datasetScopes(jobDataset(value));
}

/**
 * The first field of one scope's jobs only (firewall_events' ZoneName: account) that a job of a dataset of both scopes names, in
 * output_options.field_names, logpull_options' fields or its filter's keys, with that scope; undefined when it names none.
 */
export function jobScopeField(value: unknown): { field: string; scope: Scope } | undefined {
  const dataset = jobDataset(value);
  if (datasetScopes(dataset).length < 2 || !isObj(value)) return undefined;
  const only = new Map((datasetFields(dataset) ?? []).flatMap((f) => (f.scope ? [[f.name, f.scope] as const] : [])));
  if (only.size === 0) return undefined;
  const named: unknown[] = [];
  if (isObj(value.output_options) && Array.isArray(value.output_options.field_names)) named.push(...value.output_options.field_names);
  if (typeof value.logpull_options === 'string') {
    const lp = value.logpull_options;
    const fields = parseQuery(lp, lp.indexOf('?') + 1).find((p) => p.key === 'fields');
    if (fields) named.push(...fields.value.split(','));
  }
  if (typeof value.filter === 'string' && value.filter !== '') {
    try { named.push(...filterKeys(JSON.parse(value.filter))); } catch { /* not JSON: the check reports it; no field is named */ }
  }
  for (const n of named) {
    const scope = typeof n === 'string' ? only.get(n) : undefined;
    if (scope) return { field: n as string, scope };
  }
  return undefined;
}

export function checkJob(doc: ParsedDoc, ctx: RuleContext): Problem[] {
  const job = doc.value;
  if (!isObj(job)) return [];
  const out: Problem[] = [];
  const dataset = jobDataset(job);
  let fields: readonly FieldInfo[] | undefined;
  if (typeof job.dataset === 'string') {
    const at = doc.locate(['dataset']);
    const info = datasetInfo(dataset);
    if (!info) out.push(unknownDataset(ctx, dataset, at));
    else if (!info.hasFields) {
      out.push(ctx.report('logpush/no-field-catalogue', `No field list is known for the dataset "${dataset}"; field names in this job are not checked.`, at));
    }
  }
  let otherScopes: OtherScopeFields | undefined;
  if (datasetInfo(dataset)?.hasFields) {
    fields = datasetFields(dataset, ctx.options.logpushScope);
    const all = datasetFields(dataset);
    if (all && all !== fields) otherScopes = { dataset, all };
  }

  if (typeof job.name === 'string') out.push(...checkName(doc, ctx, job.name));
  if (job.kind === 'edge' && dataset !== 'http_requests') {
    out.push(ctx.report('logpush/edge-kind-dataset', `kind "edge" is available only for the http_requests dataset, not "${dataset}".`, doc.locate(['kind'])));
  }
  // IBM Cloud Logs takes smaller batches: its page sends 2 MB ("based on IBM's limits, which our system will enforce").
  const ibm = typeof job.destination_conf === 'string' && /^ibmcl:\/\//i.test(job.destination_conf);
  for (const [key, [min, max]] of Object.entries(UPLOAD_LIMITS)) {
    const v = job[key];
    if (typeof v === 'number' && v !== 0 && ((v < min && !(ibm && key === 'max_upload_bytes')) || v > max)) {
      out.push(ctx.report('logpush/upload-limit-range',
        `"${key}" is ${v}; use 0 (the default) or a value from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}.`, doc.locate([key])));
    }
  }
  if (job.filter_attack_traffic === true && !ATTACK_TRAFFIC_DATASETS.includes(dataset)) {
    out.push(ctx.report('logpush/dataset-only-option',
      `"filter_attack_traffic" applies only to the ${quoteList(ATTACK_TRAFFIC_DATASETS, 'and')} datasets, not "${dataset}".`,
      doc.locate(['filter_attack_traffic'], 'key')));
  }
  if (typeof job.frequency === 'string') {
    out.push(ctx.report('logpush/deprecated-option', `"frequency" is deprecated; use max_upload_* in its place.`, doc.locate(['frequency'], 'key'), { tags: ['deprecated'] }));
  }
  if (typeof job.logpull_options === 'string') {
    out.push(ctx.report('logpush/deprecated-option',
      isObj(job.output_options) ? '"logpull_options" is deprecated and "output_options" is set; the platform uses output_options.'
        : '"logpull_options" is deprecated; use "output_options".',
      doc.locate(['logpull_options'], 'key'), { tags: ['deprecated'] }));
    out.push(...checkLogpull(ctx, new EmbeddedString(doc, ['logpull_options'], job.logpull_options), dataset, fields, otherScopes));
  }
  if (isObj(job.output_options)) out.push(...checkOutputOptions(doc, ctx, job.output_options, dataset, fields, otherScopes));
  if (typeof job.destination_conf === 'string') {
    out.push(...checkDestination(ctx, new EmbeddedString(doc, ['destination_conf'], job.destination_conf)));
  }
  if (typeof job.filter === 'string' && job.filter !== '') {
    out.push(...checkEmbeddedFilter(doc, ctx, new EmbeddedString(doc, ['filter'], job.filter), dataset, fields, otherScopes));
  }
  return out;
}

export function unknownDataset(ctx: RuleContext, name: string, at: Span): Problem {
  const near = suggest(name, namesOf(DATASETS));
  return ctx.report('logpush/unknown-dataset',
    near.length ? `Unknown dataset "${name}"; did you mean ${quoteList(near)}?` : `Unknown dataset "${name}".`,
    at, { fixes: near.map((n, i) => ({ title: `Change to "${n}"`, preferred: i === 0 || undefined, edits: [{ ...at, newText: JSON.stringify(n) }] })) });
}

function checkName(doc: ParsedDoc, ctx: RuleContext, name: string): Problem[] {
  if (name.length > MAX_NAME_LENGTH) {
    return [ctx.report('logpush/invalid-job-name', `The job name is ${name.length} characters long; at most ${MAX_NAME_LENGTH} are allowed.`, doc.locate(['name']))];
  }
  if (NAME_RE.test(name)) return [];
  const bad = [...new Set([...name].filter((c) => !/[a-zA-Z0-9.-]/.test(c)))];
  const fixed = name.replace(/[^a-zA-Z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
  const at = doc.locate(['name']);
  return [ctx.report('logpush/invalid-job-name',
    `The job name "${name}" contains ${quoteList(bad, 'and')}; only letters, digits, "-" and "." are allowed.`,
    at, fixed ? { fixes: [{ title: `Change to "${fixed}"`, preferred: true, edits: [{ ...at, newText: JSON.stringify(fixed) }] }] } : undefined)];
}

/** A field list's entry: its name, where it is, whether it is written as a JSON string, and its index among the list's items. */
interface ListedField { name: string; at: () => Span; quoted: boolean; item: number }

/**
 * The problems of a field list (output_options.field_names, logpull_options' fields=): a name listed twice, a name the job's
 * dataset lacks. Each of the latter that is no likely typo (no preferred near name, which Fix all applies) also gets the removal of
 * every such name (`items`: the list's items, whose spans the removal takes with their commas): after "dataset" changed, the
 * starter's http_requests fields were all unknown with no way out but deleting them by hand (ui14). Not preferred: Fix all never
 * drops fields from a job's output (the dataset may be the mistake). The catalogue knows no dataset's default fields (the docs'
 * tables do not mark them; the API's fields/default does), so no fix writes them.
 */
function fieldListProblems(ctx: RuleContext, names: ListedField[], items: () => Span[], dataset: string, fields: readonly FieldInfo[] | undefined,
  otherScopes: OtherScopeFields | undefined, array?: () => Span): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  const lacking: { n: ListedField; problem: number }[] = [];
  for (const n of names) {
    if (seen.has(n.name)) out.push(ctx.report('logpush/duplicate-field', `The field "${n.name}" is listed twice.`, n.at(), { tags: ['unnecessary'] }));
    seen.add(n.name);
    if (!fields || fieldNamed(fields, n.name)) continue;
    const at = n.at();
    const p = otherScopeField(ctx, n.name, otherScopes, at) ?? unknownFieldProblem(ctx, n.name, fields, at, n.quoted);
    if (!p.fixes?.some((f) => f.preferred)) lacking.push({ n, problem: out.length });
    out.push(p);
  }
  if (lacking.length) {
    const distinct = [...new Set(lacking.map(({ n }) => n.name))];
    const spans = items();
    const all = lacking.length === spans.length ? ' (the list is then empty)' : '';
    // As otherScopeField's message says it: "account-level firewall_events jobs"
    const jobs = `${otherScopes && ctx.options.logpushScope ? `${ctx.options.logpushScope}-level ` : ''}${dataset} jobs`;
    const removal: Fix = {
      title: distinct.length === 1 ? `Remove "${distinct[0]}", which ${jobs} do not have${all}` : `Remove the ${distinct.length} fields that ${jobs} do not have${all}`,
      // Every item of a JSON array (`array`): written "[]", where the items' removal left the indented line between the brackets
      edits: all && array ? [{ ...array(), newText: '[]' }] : itemRemovals(spans.length, (i) => spans[i], new Set(lacking.map(({ n }) => n.item))),
    };
    for (const { problem } of lacking) out[problem] = { ...out[problem], fixes: [...(out[problem].fixes ?? []), removal] };
  }
  return out;
}

function checkLogpull(ctx: RuleContext, s: EmbeddedString, dataset: string, fields: readonly FieldInfo[] | undefined, otherScopes: OtherScopeFields | undefined): Problem[] {
  const q = s.value.indexOf('?');
  const params = parseQuery(s.value, q < 0 ? 0 : q + 1);
  const out: Problem[] = [];
  const raw = (p: Problem): Problem => s.problem(p);
  for (const p of params) {
    switch (p.key) {
      case 'fields': {
        const names: ListedField[] = [];
        let pos = p.valueSpan.offset;
        for (const part of p.value.split(',')) {
          const start = pos;
          if (part !== '') names.push({ name: part, at: () => ({ offset: start, length: part.length }), quoted: false, item: names.length });
          pos += part.length + 1;
        }
        out.push(...fieldListProblems(ctx, names, () => names.map((n) => n.at()), dataset, fields, otherScopes).map(raw));
        break;
      }
      case 'timestamps':
        if (!LOGPULL_TIMESTAMPS.includes(p.value)) out.push(raw(invalidValue(ctx, p, `timestamps must be ${quoteList(LOGPULL_TIMESTAMPS)}`, LOGPULL_TIMESTAMPS)));
        break;
      case 'sample': {
        const n = Number(p.value);
        if (p.value === '' || !Number.isFinite(n) || n <= 0 || n > 1) out.push(raw(invalidValue(ctx, p, 'sample must be a number above 0 and at most 1', [])));
        break;
      }
      case 'CVE-2021-44228':
        if (p.value !== 'true' && p.value !== 'false') out.push(raw(invalidValue(ctx, p, 'CVE-2021-44228 must be "true" or "false"', ['true', 'false'])));
        break;
      default: {
        if (LOGPULL_CALL_KEYS.includes(p.key)) break;
        const near = suggest(p.key, LOGPULL_KEYS, { max: 1 });
        out.push(raw(ctx.report('logpush/logpull-unknown-key',
          `Unknown logpull_options key "${p.key}"${near.length ? `; did you mean "${near[0]}"?` : `; known keys are ${quoteList(LOGPULL_KEYS, 'and')}.`}`,
          p.keySpan, { fixes: near.map((n) => ({ title: `Change to "${n}"`, preferred: true, edits: [{ ...p.keySpan, newText: n }] })) })));
      }
    }
  }
  return out;
}

function invalidValue(ctx: RuleContext, p: QueryParam, rule: string, choices: string[]): Problem {
  const at = p.value === '' ? { offset: p.keySpan.offset, length: p.keySpan.length + 1 } : p.valueSpan;
  return ctx.report('logpush/logpull-invalid-value', `The logpull_options value "${p.value}" is invalid: ${rule}.`, at,
    p.value === '' ? undefined : { fixes: choices.map((c) => ({ title: `Change to "${c}"`, edits: [{ ...p.valueSpan, newText: c }] })) });
}

const TEMPLATE_FIELD = /\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/g;

function checkOutputOptions(doc: ParsedDoc, ctx: RuleContext, oo: Obj, dataset: string, fields: readonly FieldInfo[] | undefined,
  otherScopes: OtherScopeFields | undefined): Problem[] {
  const out: Problem[] = [];
  const names = Array.isArray(oo.field_names) ? oo.field_names : undefined;
  if (names) {
    const item = (i: number) => doc.locate(['output_options', 'field_names', i]);
    const list = names.flatMap((n, i) => (typeof n === 'string' ? [{ name: n, at: () => item(i), quoted: true, item: i }] : []));
    out.push(...fieldListProblems(ctx, list, () => names.map((_, i) => item(i)), dataset, fields, otherScopes, () => doc.locate(['output_options', 'field_names'])));
  }
  if (typeof oo.record_template === 'string' && names) {
    const tpl = new EmbeddedString(doc, ['output_options', 'record_template'], oo.record_template);
    for (const m of oo.record_template.matchAll(TEMPLATE_FIELD)) {
      if (names.includes(m[1])) continue;
      const start = (m.index ?? 0) + m[0].indexOf(m[1]);
      out.push(tpl.problem(ctx.report('logpush/template-field-not-selected',
        `record_template uses the field "${m[1]}", which field_names does not list; the platform writes null for it.`, { offset: start, length: m[1].length })));
    }
  }
  if (typeof oo.record_template === 'string') {
    const bad = invalidTemplateAction(oo.record_template);
    if (bad) {
      const tpl = new EmbeddedString(doc, ['output_options', 'record_template'], oo.record_template);
      const shown = bad.text.length > 60 ? `${headOf(bad.text, 60)}…` : bad.text;
      out.push(tpl.problem(ctx.report('logpush/template-invalid', bad.closed
        ? `record_template may hold only {{ .Field }}, {{ "constant" }} and {{/* comments */}} actions, not ${shown} (no functions, conditionals, loops or sub-templates).`
        : `record_template has an unclosed action ${shown}; close it with "}}".`, { offset: bad.offset, length: bad.text.length })));
    }
  }
  if (oo.merge_subrequests === true && dataset !== 'http_requests') {
    out.push(ctx.report('logpush/dataset-only-option', `"merge_subrequests" applies only to the http_requests dataset, not "${dataset}".`,
      doc.locate(['output_options', 'merge_subrequests'], 'key')));
  }
  return out;
}

/** A record_template action: a field, a quoted or raw string constant, or a comment, with Go's trim markers ("{{- ", " -}}": the
 * dash and a space, tab or line break). */
const TEMPLATE_ACTION = /^\{\{(?:-\s)?\s*(?:\.[A-Za-z_][A-Za-z0-9_]*|"(?:[^"\\]|\\.)*"|`[^`]*`)\s*(?:\s-)?\}\}$|^\{\{(?:-\s)?\/\*[\s\S]*?\*\/(?:\s-)?\}\}$/;

/**
 * The first action of a record_template that log-output-options.mdx does not allow ("can only consist of" {{ .Field }},
 * {{ "constant text" }}, text and {{/* comments *\/}}: "without any standard functions (like conditionals, loops, sub-templates,
 * etc.)"), or an action without its "}}"; offsets in the template. A "}}" inside a quoted or raw string constant does not close.
 */
export function invalidTemplateAction(t: string): { offset: number; text: string; closed: boolean } | undefined {
  let i = t.indexOf('{{');
  while (i >= 0) {
    let j = i + 2;
    let end = -1;
    if (/^(?:-\s)?\/\*/.test(t.slice(j, j + 4))) {
      const c = t.indexOf('*/', j);
      end = c < 0 ? -1 : t.indexOf('}}', c + 2);
    } else {
      while (j < t.length) {
        const ch = t[j];
        if (ch === '"') { j++; while (j < t.length && t[j] !== '"') j += t[j] === '\\' ? 2 : 1; j++; continue; }
        if (ch === '`') { const c = t.indexOf('`', j + 1); j = c < 0 ? t.length : c + 1; continue; }
        if (ch === '}' && t[j + 1] === '}') { end = j; break; }
        j++;
      }
    }
    if (end < 0) return { offset: i, text: t.slice(i), closed: false };
    const action = t.slice(i, end + 2);
    if (!TEMPLATE_ACTION.test(action)) return { offset: i, text: action, closed: true };
    i = t.indexOf('{{', end + 2);
  }
  return undefined;
}

/** Query keys whose value is a credential. */
const SECRET_KEY = /^(secret-access-key|sig|api-key|apikey|ibm_api_key|credentials|token|access_token|password|key|header_.*(auth|key|token|secret|password|signature).*)$/i;
/** A placeholder rather than a real credential (<KEY>, ${KEY}, {{KEY}}, xxx). */
const PLACEHOLDER = /^(<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|x+|\*+|)$/i;

/** A whole query string written as a placeholder: <QUERY_STRING>, [QueryString], ${SAS}, {{SAS}}. */
const SAS_PLACEHOLDER = /^(<[^>]+>|\[[^\]]+\]|\$\{[^}]+\}|\{\{[^}]+\}\})$/;

const REQUIRED_PARAMS: Record<string, string[]> = {
  s3: ['region'],
  r2: ['account-id', 'access-key-id', 'secret-access-key'],
  datadog: ['header_DD-API-KEY'],
  splunk: ['channel', 'header_Authorization'],
  ibmcl: ['ibm_api_key'],
  // Every form on kinesis.mdx names the stream's region; bigquery.mdx's only form carries the service account's credentials.
  kinesis: ['region'],
  bq: ['credentials'],
};

function checkDestination(ctx: RuleContext, s: EmbeddedString): Problem[] {
  const v = s.value;
  const out: Problem[] = [];
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(v);
  if (!m) {
    return [s.problem(ctx.report('logpush/destination-scheme',
      // The value is not quoted: a destination may carry credentials, and messages reach logs.
      `The destination has no scheme; expected <scheme>://..., with scheme ${quoteList(DESTINATION_SCHEMES)}.`,
      { offset: 0, length: v.length }))];
  }
  const scheme = m[1];
  const schemeSpan = { offset: 0, length: scheme.length };
  if (!DESTINATION_SCHEMES.includes(scheme)) {
    const near = scheme.toLowerCase() === 'http' ? ['https'] : suggest(scheme, DESTINATION_SCHEMES, { max: 2 });
    return [s.problem(ctx.report('logpush/destination-scheme',
      `Unknown destination scheme "${scheme}"; use ${near.length ? quoteList(near) : quoteList(DESTINATION_SCHEMES)}.`, schemeSpan,
      { fixes: near.map((n, i) => ({ title: `Change to "${n}"`, preferred: i === 0 || undefined, edits: [{ ...schemeSpan, newText: n }] })) }))];
  }
  const rest = v.slice(m[0].length);
  const q = rest.indexOf('?');
  const address = q < 0 ? rest : rest.slice(0, q);
  const addressSpan = { offset: m[0].length, length: address.length };
  const params = q < 0 ? [] : parseQuery(v, m[0].length + q + 1);
  const report = (code: string, message: string, at: Span): void => { out.push(s.problem(ctx.report(code, message, at))); };
  const host = address.split('/')[0];
  if (host === '') report('logpush/destination-invalid', `The ${scheme} destination has no ${['r2', 's3', 'gs'].includes(scheme) ? 'bucket' : scheme === 'azure' ? 'blob container' : scheme === 'kinesis' ? 'stream' : 'host'}.`, addressSpan.length ? addressSpan : schemeSpan);
  for (const need of REQUIRED_PARAMS[scheme] ?? []) {
    if (!params.some((p) => p.key === need && p.value !== '')) {
      report('logpush/destination-missing-param', `The ${scheme} destination needs the parameter "${need}".`, { offset: 0, length: v.length });
    }
  }
  // The docs write the SAS as one placeholder (`?<QUERY_STRING>`, `?[QueryString]`): it stands for the whole query string.
  const sasPlaceholder = params.length === 1 && params[0].value === '' && SAS_PLACEHOLDER.test(params[0].key);
  if (scheme === 'azure' && !sasPlaceholder && !params.some((p) => p.key === 'sig')) {
    report('logpush/destination-missing-param', 'The azure destination needs a SAS query string (with "sig=").', { offset: 0, length: v.length });
  }
  const sumo = scheme === 'sumo' ? /\/receiver\/v1\/http\/([^/?]+)/.exec(address) : null;
  if (scheme === 'sumo' && !sumo) {
    report('logpush/destination-invalid', 'A sumo destination has the form sumo://<endpoint>/receiver/v1/http/<code>.', addressSpan);
  }
  // The HTTP source's code is its credential: whoever has the URL can send logs to the source.
  if (sumo && !PLACEHOLDER.test(sumo[1])) {
    report('logpush/secret-in-file', 'destination_conf holds the Sumo Logic collector code (whoever has it can send logs to the source); keep this file out of version control.',
      { offset: addressSpan.offset + sumo.index + sumo[0].length - sumo[1].length, length: sumo[1].length });
  }
  // header_* parameters become request headers and must be URL-encoded (http.mdx; splunk.mdx's token "Splunk%20…"), whatever the scheme.
  for (const p of params) {
    if (p.key.startsWith('header_') && /[\s"<>{}|\\^`]/.test(p.value) && !PLACEHOLDER.test(p.value)) {
      report('logpush/destination-invalid', `The header value of "${p.key}" must be URL-encoded.`, p.valueSpan);
    }
  }
  for (const p of params) {
    if (SECRET_KEY.test(p.key) && !PLACEHOLDER.test(p.value)) {
      report('logpush/secret-in-file', `destination_conf holds the credential "${p.key}"; keep this file out of version control.`, p.valueSpan);
    }
  }
  return out;
}

function checkEmbeddedFilter(doc: ParsedDoc, ctx: RuleContext, s: EmbeddedString, dataset: string, fields: readonly FieldInfo[] | undefined,
  otherScopes: OtherScopeFields | undefined): Problem[] {
  // The filter's problems depend on its text, the job's dataset and its field lists only: an edit elsewhere in the job takes them
  // from the previous version (ParsedDoc.reuse; issue 18), and only their move into this version's text is done again.
  const problems = doc.reuse(['filter', dataset, listId(fields), listId(otherScopes?.all), s.value],
    () => embeddedFilterProblems(ctx, s.value, fields, otherScopes));
  return problems.map((p) => s.problem(p));
}

/** A number for each field list (the catalogue's lists are made once): a key part that changes with the list. */
const LIST_IDS = new WeakMap<object, number>();
function listId(fields: readonly FieldInfo[] | undefined): string {
  if (!fields) return 'none';
  let id = LIST_IDS.get(fields);
  if (id === undefined) LIST_IDS.set(fields, (id = nextListId++));
  return String(id);
}
let nextListId = 0;

/** The problems of a job's filter string, in the string's own offsets. */
function embeddedFilterProblems(ctx: RuleContext, value: string, fields: readonly FieldInfo[] | undefined, otherScopes: OtherScopeFields | undefined): Problem[] {
  // Parsed as a document of its own, whose messages name it "the filter string" ("the document" would read as the job).
  const root = 'the filter string';
  const inner = parseDocument(value, { rootName: root });
  // A quote inside one of the filter's strings is written \" in the filter, and the job's text writes that \\\" (the fix does so).
  const syntax = inner.syntax.map((p) => (p.code === 'syntax/unescaped-quote' ? { ...p, message: p.message.replace(/\.$/, ', which a job\'s "filter" string writes \\\\\\".') } : p));
  const problems: Problem[] = [...syntax, ...inner.duplicateKeys()];
  if (inner.value !== undefined) {
    const validate = validatorFor('logpush-filter');
    if (!validate(inner.value)) problems.push(...ajvProblems(inner, validate.errors ?? [], SCHEMAS['logpush-filter'], root));
    problems.push(...checkFilter(inner, ctx, { fields, embedded: true, sent: value, otherScopes }));
  }
  return problems;
}
