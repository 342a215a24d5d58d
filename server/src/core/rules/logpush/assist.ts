// Completion, hover and lenses for filters and jobs. Positions come from jsonc-parser (getLocation for where the cursor is in
// the JSON structure, findNodeAtOffset for the literal under it). Inside a job's `filter` string, the same features run on the
// decoded filter and their ranges and texts are mapped back through JsonStringMap.
import { findNodeAtOffset, getLocation, getNodePath, type Node as JsonNode } from 'jsonc-parser';
import type { CompletionEntry, CoreOptions, HoverInfo, JsonPath, Lens, ParsedDoc, Span } from '../../types';
import { isTooDeep, nodeAt, parseDocument } from '../../parse';
import { syntaxErrorsText } from '../../lines';
import {
  DATASETS, DEFAULT_JOB_DATASET, MAX_BYTES, MAX_OPERATORS, className, datasetFields, datasetInfo, datasetScopes, fieldInfo, operatorInfo,
  operatorsFor, starterFields,
  type FieldInfo, type OperatorInfo,
} from './catalogue';
import { filterUsage, usageText } from './filter';
import { jobDataset } from './job';
import { JsonStringMap, escapeJsonStringContent } from '../../jsonString';
import { isObj, valueAt } from '../../json';
import { colonAfter, memberFollows, objectAt, valueFollows } from '../../jsonTree';
import { SCHEMAS } from '../../schema/registry';


/** The dataset of a standalone filter: its "$dataset" hint, else the logpushDataset option. */
export function filterDataset(value: unknown, options: CoreOptions): string {
  return isObj(value) && typeof value.$dataset === 'string' ? value.$dataset : options.logpushDataset;
}

/** ['where'] or ['where', 'and'|'or', i, ...]: the path of a condition object. */
export function isConditionPath(path: JsonPath): boolean {
  if (path[0] !== 'where' || path.length % 2 === 0) return false;
  for (let i = 1; i < path.length; i += 2) {
    if ((path[i] !== 'and' && path[i] !== 'or') || typeof path[i + 1] !== 'number') return false;
  }
  return true;
}

/** The string/number/boolean literal under the cursor (to be replaced as a whole), if any. */
function literalAt(tree: JsonNode | undefined, offset: number): JsonNode | undefined {
  if (!tree) return undefined;
  const node = findNodeAtOffset(tree, offset, true);
  return node && (node.type === 'string' || node.type === 'number' || node.type === 'boolean' || node.type === 'null') ? node : undefined;
}

function span(node: JsonNode): Span { return { offset: node.offset, length: node.length }; }

// ---- markdown ----

export function fieldMarkdown(f: FieldInfo): string {
  const ops = f.filterable ? operatorsFor(f.type).map((o) => `\`${o.name}\``).join(', ') : 'not filterable';
  return [`**${f.name}** · \`${f.type}\`${f.deprecated ? ' · deprecated' : ''}${f.scope ? ` · ${f.scope}-level jobs only` : ''}`, '', f.description, '', `Operators: ${ops}`].join('\n');
}

export function operatorMarkdown(o: OperatorInfo): string {
  const value = o.set ? 'an array of values' : 'a single value (numbers may be written as strings)';
  return [`**${o.name}** · ${o.meaning}`, '', `Accepts ${o.accepts.map(className).join(', ')} fields; compares with ${value}.`].join('\n');
}

/** `sent`: the job's filter string, measured as it is; a filter file is measured compact, as it goes into a job. With a syntax
 * error nothing is counted, as on the lens (lensesFilterDoc): the hover said "Current: 0/30 operators" of the parser's recovery. */
function whereMarkdown(doc: ParsedDoc, sent?: string): string {
  const broken = syntaxErrorsText(doc);
  const current = !broken ? usageText(filterUsage(doc.value, sent)) : `not counted: ${sent === undefined ? broken : 'the filter string has a syntax error'}`;
  return ['**where** · the condition a log line must meet to be pushed', '',
    `Limits: ${MAX_OPERATORS} operators (one per comparison) and ${MAX_BYTES} bytes of ${sent === undefined ? 'compact JSON' : 'the string as sent'}.`, '',
    `Current: ${current}`].join('\n');
}

// ---- completion entries ----

function fieldEntries(fields: readonly FieldInfo[], onlyFilterable: boolean): CompletionEntry[] {
  return fields.filter((f) => !onlyFilterable || f.filterable).map((f) => ({
    label: f.name, kind: 'field', detail: f.scope ? `${f.type} · ${f.scope}-level jobs only` : f.type, documentation: fieldMarkdown(f), sortText: `${f.deprecated ? '1' : '0'}${f.name}`,
  }));
}

function operatorEntries(field: FieldInfo | undefined): CompletionEntry[] {
  const ops = field ? operatorsFor(field.type) : operatorsFor('string or int or bool or array[string]');
  return ops.map((o, i) => ({ label: o.name, kind: 'operator', detail: o.meaning, documentation: operatorMarkdown(o), sortText: String(i).padStart(2, '0') }));
}

function valueEntries(field: FieldInfo | undefined, operator: string | undefined): CompletionEntry[] {
  if (!field) return [];
  const set = operatorInfo(operator ?? '')?.set ?? false;
  if (field.type === 'bool') {
    return ['true', 'false'].map((v) => ({ label: v, kind: 'constant', detail: field.name, insertText: v }));
  }
  if (!field.values) return [];
  return field.values.map((v) => ({
    label: v, kind: 'enum', detail: field.name,
    insertText: set ? `[${JSON.stringify(v)}]` : JSON.stringify(v), filterText: JSON.stringify(v),
  }));
}

function conditionSnippets(compact: boolean): CompletionEntry[] {
  const cmp = '{"key": "$1", "operator": "${2:eq}", "value": "$3"}';
  const group = (op: string): string => compact ? `{"${op}": [${cmp}]}` : `{\n\t"${op}": [\n\t\t${cmp}\n\t]\n}`;
  return [
    { label: 'comparison', kind: 'snippet', detail: 'key · operator · value', insertText: cmp, snippet: true, sortText: 'z0' },
    { label: 'and group', kind: 'snippet', detail: 'all conditions must hold', insertText: group('and'), snippet: true, sortText: 'z1' },
    { label: 'or group', kind: 'snippet', detail: 'any condition may hold', insertText: group('or'), snippet: true, sortText: 'z2' },
  ];
}

// ---- filter features on a parsed filter document ----

/** Completions inside a filter document; `fields` undefined when the dataset has no catalogue. */
export function completeFilter(doc: ParsedDoc, offset: number, fields: readonly FieldInfo[] | undefined, compact = false): CompletionEntry[] {
  if (doc.text.trim() === '') {
    return [{ label: 'filter', kind: 'snippet', detail: '{"where": ...}', snippet: true,
      insertText: compact ? '{"where": {"key": "$1", "operator": "${2:eq}", "value": "$3"}}'
        : '{\n\t"where": {"key": "$1", "operator": "${2:eq}", "value": "$3"}\n}' }];
  }
  if (isTooDeep(doc)) return []; // an embedded filter past MAX_NESTING: getLocation would recurse through every level
  const loc = getLocation(doc.text, offset);
  const path = loc.path;
  const tree = doc.tree();
  const last = path[path.length - 1];
  const parent = path.slice(0, -1);
  if (!loc.isAtPropertyKey && typeof last === 'string' && isConditionPath(parent)) {
    const lit = literalAt(tree, offset);
    const withRange = (entries: CompletionEntry[]): CompletionEntry[] => entries.map((e) => ({
      ...e, insertText: e.insertText ?? JSON.stringify(e.label), filterText: e.filterText ?? JSON.stringify(e.label), ...(lit ? { replace: span(lit) } : {}),
    }));
    const cond = valueAt(doc.value, parent);
    const key = isObj(cond) && typeof cond.key === 'string' ? cond.key : undefined;
    const field = key !== undefined ? fields?.find((f) => f.name === key) : undefined;
    if (last === 'key') return fields ? withRange(fieldEntries(fields, true)) : [];
    if (last === 'operator') return withRange(operatorEntries(field));
    if (last === 'value') return withRange(valueEntries(field, isObj(cond) && typeof cond.operator === 'string' ? cond.operator : undefined));
    return [];
  }
  // Where a whole condition is expected: the value of "where", or an item of an and/or array.
  const itemExpected = !loc.isAtPropertyKey && (
    (path.length === 1 && path[0] === 'where')
    || (typeof last === 'number' && (path[path.length - 2] === 'and' || path[path.length - 2] === 'or') && isConditionPath(path.slice(0, -2))));
  if (itemExpected) {
    const node = tree && findNodeAtOffset(tree, offset, false);
    if (!node || node.type !== 'object' || node.offset === offset) {
      // In front of another item of the and/or array, the inserted condition needs the comma that separates them.
      const comma = typeof last === 'number' && valueFollows(doc.text, offset) ? ',' : '';
      return conditionSnippets(compact).map((e) => ({ ...e, insertText: `${e.insertText}${comma}` }));
    }
  }
  return [];
}

export function hoverFilter(doc: ParsedDoc, offset: number, fields: readonly FieldInfo[] | undefined, sent?: string): HoverInfo | undefined {
  const tree = doc.tree();
  if (!tree) return undefined;
  const node = findNodeAtOffset(tree, offset);
  if (!node) return undefined;
  const prop = node.parent?.type === 'property' ? node.parent : undefined;
  if (!prop) return undefined;
  const keyNode = prop.children![0];
  const name = String(keyNode.value);
  const isKey = node === keyNode;
  const objNode = prop.parent!;
  if (isKey && name === 'where' && objNode.parent === undefined) return { ...span(node), markdown: whereMarkdown(doc, sent) };
  if (isKey || node.type !== 'string') return undefined;
  const value = String(node.value);
  if (name === 'key') {
    const f = fields?.find((x) => x.name === value);
    return f ? { ...span(node), markdown: fieldMarkdown(f) } : undefined;
  }
  if (name === 'operator') {
    const o = operatorInfo(value);
    return o ? { ...span(node), markdown: operatorMarkdown(o) } : undefined;
  }
  if (name === '$dataset' && objNode.parent === undefined) {
    const d = datasetInfo(value);
    return d ? { ...span(node), markdown: datasetMarkdown(value) } : undefined;
  }
  return undefined;
}

/** "zone", "account", or "zone or account" for a dataset the platform takes under either (firewall_events). */
const scopeWords = (name: string): string => datasetScopes(name).join(' or ');

function datasetMarkdown(name: string): string {
  const d = datasetInfo(name);
  if (!d) return `Unknown dataset **${name}**`;
  const fields = datasetFields(name);
  const paths = datasetScopes(name).map((s) => `\`${s === 'account' ? '/accounts/{account_id}/logpush/jobs' : '/zones/{zone_id}/logpush/jobs'}\``);
  const where = paths.length ? `${scopeWords(name)} scope · ${paths.join(' or ')}` : 'scope not listed in the reference';
  return [`**${name}** · ${where}`, '', fields ? `${fields.length} fields (${fields.filter((f) => f.filterable).length} filterable).` : 'No field list is known for this dataset.'].join('\n');
}

function fieldsOf(dataset: string, scope?: CoreOptions['logpushScope']): readonly FieldInfo[] | undefined {
  return datasetInfo(dataset)?.hasFields ? datasetFields(dataset, scope) : undefined;
}

// ---- plugin entry points ----

export function completeFilterDoc(doc: ParsedDoc, offset: number, options: CoreOptions): CompletionEntry[] {
  const loc = getLocation(doc.text, offset);
  if (!loc.isAtPropertyKey && loc.path.length === 1 && loc.path[0] === '$dataset') return datasetEntries(doc, offset);
  return completeFilter(doc, offset, fieldsOf(filterDataset(doc.value, options)));
}

/** At a comparison's value (or an item of its array) whose key the dataset's catalogue knows: the values fitting the field are
 * the filter's own (true/false for a bool field, none for the others), not the schema's. */
export function ownsFilterValueAt(doc: ParsedDoc, offset: number, options: CoreOptions): boolean {
  if (isTooDeep(doc)) return false;
  const loc = getLocation(doc.text, offset);
  if (loc.isAtPropertyKey) return false;
  let path = loc.path;
  if (typeof path[path.length - 1] === 'number') path = path.slice(0, -1);
  if (path[path.length - 1] !== 'value' || !isConditionPath(path.slice(0, -1))) return false;
  const cond = valueAt(doc.value, path.slice(0, -1));
  const fields = fieldsOf(filterDataset(doc.value, options));
  return !!fields && isObj(cond) && typeof cond.key === 'string' && fields.some((f) => f.name === cond.key);
}

export function hoverFilterDoc(doc: ParsedDoc, offset: number, options: CoreOptions): HoverInfo | undefined {
  return hoverFilter(doc, offset, fieldsOf(filterDataset(doc.value, options)));
}

export function lensesFilterDoc(doc: ParsedDoc): Lens[] {
  if (!isObj(doc.value) || !('where' in doc.value)) return [];
  const at = doc.locate(['where'], 'key');
  // With a syntax error the value is the parser's recovery: its count ("0/30 operators" for an "and" that lost its "[") is of
  // nothing meant.
  const broken = syntaxErrorsText(doc);
  return [{ ...at, title: broken ? `Usage not counted: ${broken}` : usageText(filterUsage(doc.value)) }];
}

function datasetEntries(doc: ParsedDoc, offset: number): CompletionEntry[] {
  const lit = literalAt(doc.tree(), offset);
  return DATASETS.map((d) => ({
    label: d.name, kind: 'value', detail: scopeWords(d.name) ? `${scopeWords(d.name)} dataset${d.hasFields ? '' : ' (no field list)'}` : 'dataset (no field list)',
    documentation: datasetMarkdown(d.name), insertText: JSON.stringify(d.name), filterText: JSON.stringify(d.name), ...(lit ? { replace: span(lit) } : {}),
  }));
}

/** The job's `filter` string under the offset (cursor strictly inside the quotes), with its map. */
export function embeddedFilterAt(doc: ParsedDoc, offset: number): { map: JsonStringMap; inner: ParsedDoc; decoded: number } | undefined {
  const root = doc.tree();
  const node = root && nodeAt(root, ['filter']);
  if (!node || node.type !== 'string' || offset <= node.offset || offset >= node.offset + node.length) return undefined;
  const map = new JsonStringMap(doc.text, node.offset, node.length);
  return { map, inner: parseDocument(map.value), decoded: map.toDecoded(offset) };
}

type MemberSchema = { title?: string; description?: string };
const FILTER_SCHEMA = SCHEMAS['logpush-filter'] as {
  properties: Record<string, MemberSchema>; $defs: { condition: { properties: Record<string, MemberSchema> } };
};
/** The value each member name inserts after its colon (a snippet). */
const MEMBER_VALUE: Record<string, string> = { where: '{$1}', key: '"$1"', operator: '"${1:eq}"', value: '"$1"', and: '[$1]', or: '[$1]' };

/** Member names inside a job's filter string, where the schema-driven completion of a filter file does not reach: "where" at the
 * top (the editor hints $dataset and $schema do not belong in a job), a comparison's or group's members in a condition. */
function filterMemberEntries(inner: ParsedDoc, offset: number): CompletionEntry[] {
  if (isTooDeep(inner)) return [];
  const loc = getLocation(inner.text, offset);
  if (!loc.isAtPropertyKey) return [];
  const objPath = loc.path.slice(0, -1);
  const members = filterMembersAt(objPath);
  if (!members) return [];
  const tree = inner.tree();
  const obj = tree && objectAt(tree, objPath, offset);
  const existing = new Set((obj?.children ?? []).map((p) => p.children?.[0]?.value));
  const lit = literalAt(tree, offset);
  const nameOnly = !!lit && colonAfter(inner.text, span(lit)); // the key being renamed keeps its value
  const comma = !nameOnly && memberFollows(inner.text, lit ? lit.offset + lit.length : offset) ? ',' : '';
  return Object.entries(members).filter(([name]) => MEMBER_VALUE[name] && !existing.has(name)).map(([name, m]) => ({
    label: name, kind: 'property', detail: m.title, documentation: m.title && m.description ? `**${m.title}**\n\n${m.description}` : m.description,
    insertText: nameOnly ? `"${name}"` : `"${name}": ${MEMBER_VALUE[name]}${comma}`, snippet: !nameOnly, filterText: `"${name}"`, ...(lit ? { replace: span(lit) } : {}),
  }));
}

/** The filter schema's members of the object at objPath: "where" at the top, a condition's members in a condition. */
function filterMembersAt(objPath: JsonPath): Record<string, MemberSchema> | undefined {
  return objPath.length === 0 ? { where: FILTER_SCHEMA.properties.where } : isConditionPath(objPath) ? FILTER_SCHEMA.$defs.condition.properties : undefined;
}

/** Inside a job's filter string, the schema's description of a member (its name, or a literal value of it) that the filter's
 * own hover does not cover: what a filter file gets from the schema-driven hover. */
function filterMemberHover(inner: ParsedDoc, offset: number): HoverInfo | undefined {
  const tree = inner.tree();
  const node = tree && findNodeAtOffset(tree, offset);
  const prop = node?.parent?.type === 'property' ? node.parent : undefined;
  if (!node || !prop?.parent || node.type === 'object' || node.type === 'array') return undefined;
  const name = String(prop.children?.[0]?.value);
  const m = filterMembersAt(getNodePath(prop.parent))?.[name];
  if (!m || !MEMBER_VALUE[name]) return undefined;
  return { ...span(node), markdown: m.title && m.description ? `**${m.title}**\n\n${m.description}` : m.title ?? m.description ?? name };
}

/**
 * An empty job file: a job's skeleton (the members of the platform's examples; the placeholders as written check clean). Its dataset
 * is the edgekit.logpush.dataset setting's when that names a dataset (else http_requests), and its fields are that dataset's
 * (starterFields), so that the job as written names no field its dataset lacks.
 */
function jobSnippet(options: CoreOptions | undefined): CompletionEntry {
  const dataset = options && datasetInfo(options.logpushDataset) ? options.logpushDataset : DEFAULT_JOB_DATASET;
  const fields = starterFields(dataset, options?.logpushScope).map((f) => JSON.stringify(f)).join(', ');
  // A dataset without a catalogue: no field_names (the platform then writes all of its fields), rather than names not checked.
  const outputOptions = fields ? `\t\t"field_names": [\${3:${fields}}],\n\t\t"timestamp_format": "rfc3339"\n` : '\t\t"timestamp_format": "rfc3339"\n';
  return {
    label: 'Logpush job', kind: 'snippet', detail: `name · dataset (${dataset}) · output_options · destination_conf`, snippet: true,
    insertText: `{\n\t"name": "\${1:example.com}",\n\t"dataset": "\${2:${dataset}}",\n\t"enabled": true,\n\t"output_options": {\n${outputOptions}\t},\n`
      + '\t"destination_conf": "${4:s3://bucket/logs?region=us-east-1}"\n}',
  };
}

/** An empty field_names array of a job whose dataset has a catalogue: its starter fields (starterFields) as one entry. */
function fieldNamesStarter(doc: ParsedDoc, offset: number, dataset: string, options: CoreOptions | undefined): CompletionEntry[] {
  const tree = doc.tree();
  const list = tree && nodeAt(tree, ['output_options', 'field_names']);
  if (list?.type !== 'array' || list.children?.length) return [];
  const fields = starterFields(dataset, options?.logpushScope);
  if (!fields.length || offset <= list.offset || offset >= list.offset + list.length) return [];
  const text = fields.map((f) => JSON.stringify(f)).join(', ');
  return [{ label: `fields of ${dataset}`, kind: 'snippet', detail: fields.join(', '), insertText: text, filterText: text, sortText: '0' }];
}

export function completeJobDoc(doc: ParsedDoc, offset: number, options?: CoreOptions): CompletionEntry[] {
  if (doc.text.trim() === '') return [jobSnippet(options)];
  const dataset = jobDataset(doc.value);
  const fields = fieldsOf(dataset, options?.logpushScope);
  const emb = embeddedFilterAt(doc, offset);
  if (emb) {
    return [...completeFilter(emb.inner, emb.decoded, fields, true), ...filterMemberEntries(emb.inner, emb.decoded)].map((e) => ({
      ...e,
      insertText: escapeJsonStringContent(e.insertText ?? e.label),
      ...(e.filterText ? { filterText: escapeJsonStringContent(e.filterText) } : {}),
      ...(e.replace ? { replace: emb.map.spanToSource(e.replace) } : {}),
    }));
  }
  const loc = getLocation(doc.text, offset);
  if (loc.isAtPropertyKey) return [];
  if (loc.path.length === 1 && loc.path[0] === 'dataset') return datasetEntries(doc, offset);
  if (loc.matches(['output_options', 'field_names', '*']) && fields) {
    const lit = literalAt(doc.tree(), offset);
    return [...fieldNamesStarter(doc, offset, dataset, options),
      ...fieldEntries(fields, false).map((e) => ({ ...e, insertText: JSON.stringify(e.label), filterText: JSON.stringify(e.label), ...(lit ? { replace: span(lit) } : {}) }))];
  }
  return [];
}

export function hoverJobDoc(doc: ParsedDoc, offset: number, options?: CoreOptions): HoverInfo | undefined {
  const dataset = jobDataset(doc.value);
  const fields = fieldsOf(dataset, options?.logpushScope);
  const emb = embeddedFilterAt(doc, offset);
  if (emb) {
    const h = hoverFilter(emb.inner, emb.decoded, fields, emb.map.value) ?? filterMemberHover(emb.inner, emb.decoded);
    return h ? { ...emb.map.spanToSource(h), markdown: h.markdown } : undefined;
  }
  const tree = doc.tree();
  const node = tree && findNodeAtOffset(tree, offset);
  if (!node || node.parent?.type !== 'property' && node.parent?.type !== 'array') return undefined;
  const loc = getLocation(doc.text, offset);
  if (node.type === 'string' && node.parent?.type === 'property' && node.parent.children![0] === node && node.value === 'filter' && loc.path.length === 1) {
    const f = isObj(doc.value) ? doc.value.filter : undefined;
    const usage = typeof f === 'string' && f !== '' ? parsedUsage(f) : undefined;
    const broken = syntaxErrorsText(doc);
    return { ...span(node), markdown: ['**filter** · a filter document serialized into a string', '',
      `Limits: ${MAX_OPERATORS} operators and ${MAX_BYTES} bytes of the string as sent.`, '',
      broken ? `Current: not counted: ${broken}` : usage ? `Current: ${usage}` : f === '' || f === undefined || f === null ? 'No filter: every log line is pushed.' : 'The filter string is not valid JSON.'].join('\n') };
  }
  if (node.type === 'string' && loc.path.length === 1 && loc.path[0] === 'dataset' && !loc.isAtPropertyKey) {
    return datasetInfo(String(node.value)) ? { ...span(node), markdown: datasetMarkdown(String(node.value)) } : undefined;
  }
  if (node.type === 'string' && loc.matches(['output_options', 'field_names', '*'])) {
    const f = fieldInfo(dataset, String(node.value), options?.logpushScope);
    return f ? { ...span(node), markdown: fieldMarkdown(f) } : undefined;
  }
  return undefined;
}

function parsedUsage(filter: string): string | undefined {
  // parseDocument, not JSON.parse: a filter nested past MAX_NESTING must not reach filterUsage's recursion.
  const inner = parseDocument(filter);
  if (inner.syntax.length > 0) return undefined;
  try {
    return usageText(filterUsage(inner.value, filter));
  } catch {
    return undefined;
  }
}

export function lensesJobDoc(doc: ParsedDoc): Lens[] {
  const f = isObj(doc.value) ? doc.value.filter : undefined;
  if (typeof f !== 'string' && f !== null) return [];
  const at = doc.locate(['filter'], 'key');
  // With a syntax error in the job, the status bar shows no usage (usage.ts): the lens says why rather than a count of the value
  // the parser recovered
  const broken = syntaxErrorsText(doc);
  if (broken) return [{ ...at, title: `Usage not counted: ${broken}` }];
  if (f === '' || f === null) return [{ ...at, title: 'no filter' }];
  const usage = parsedUsage(f);
  return [{ ...at, title: usage ?? 'filter is not valid JSON' }];
}
