// The Logpush area: *.filter.json (a filter {"where": ...}) and *.logpush.json (a job whose `filter` is that JSON in a string).
import type { KindPlugin, ParsedDoc, Problem, Rule, RuleContext } from '../../types';
import { datasetFields, datasetInfo } from './catalogue';
import { HINT_MEMBERS, checkFilter } from './filter';
import { rewriteJson } from './convert';
import { checkJob, unknownDataset } from './job';
import { selectionRangesJobDoc } from './selection';
import { completeFilterDoc, completeJobDoc, filterDataset, ownsFilterValueAt, hoverFilterDoc, hoverJobDoc, lensesFilterDoc, lensesJobDoc } from './assist';

export { filterUsage, stripFilterHints, usageText, type FilterUsage } from './filter';
export { filterDataset } from './assist';

const filterRule: Rule = {
  id: 'logpush/filter',
  kinds: ['logpush-filter'],
  check(doc: ParsedDoc, ctx: RuleContext): Problem[] {
    const root = doc.value;
    if (root === null || typeof root !== 'object' || Array.isArray(root)) return [];
    const out: Problem[] = [];
    const hint = (root as Record<string, unknown>).$dataset;
    const dataset = filterDataset(root, ctx.options);
    // Located only when reported: locating builds the document's position tree, which a valid filter never needs.
    const at = () => (typeof hint === 'string' ? doc.locate(['$dataset']) : doc.locate(['where'], 'key'));
    const info = datasetInfo(dataset);
    const fromSetting = typeof hint === 'string' ? '' : ' (from the edgekit.logpush.dataset setting)';
    if (!info) {
      const p = unknownDataset(ctx, dataset, at());
      out.push(typeof hint === 'string' ? p : { ...p, message: p.message.replace(/^Unknown dataset "[^"]*"/, `Unknown dataset "${dataset}"${fromSetting}`), fixes: undefined });
    } else if (!info.hasFields) {
      out.push(ctx.report('logpush/no-field-catalogue', `No field list is known for the dataset "${dataset}"${fromSetting}; field names and types are not checked.`, at()));
    }
    out.push(...checkFilter(doc, ctx, { fields: info?.hasFields ? datasetFields(dataset) : undefined, embedded: false }));
    return out;
  },
};

const jobRule: Rule = { id: 'logpush/job', kinds: ['logpush-job'], check: checkJob };

export const logpushFilterPlugin: KindPlugin = {
  kind: 'logpush-filter',
  rules: [filterRule],
  complete: completeFilterDoc,
  ownsValuesAt: ownsFilterValueAt,
  hover: hoverFilterDoc,
  lenses: lensesFilterDoc,
};

export const logpushJobPlugin: KindPlugin = {
  kind: 'logpush-job',
  rules: [jobRule],
  complete: completeJobDoc,
  hover: hoverJobDoc,
  lenses: lensesJobDoc,
  selectionRanges: selectionRangesJobDoc,
};

/** A filter file's text as the value of a job's `filter` member: compact JSON, editor hints stripped, numbers as written (see
 * convert.ts). Throws on invalid JSON. */
export function filterToJobString(filterText: string): string {
  return rewriteJson(filterText.replace(/^\uFEFF/, ''), { indent: 0, omit: HINT_MEMBERS });
}

/**
 * A job's `filter` value as a filter file's text: pretty-printed JSON (two spaces), numbers as written. Accepts the decoded string
 * value or the quoted JSON string literal. An empty filter (no filter) gives "". With `dataset`, a filter object gets the
 * "$dataset" hint first (unless it has one), so the filter file is checked against the job's fields. Throws on invalid JSON.
 */
export function jobStringToFilter(jsonStringValue: string, dataset?: string): string {
  if (jsonStringValue.trim() === '') return '';
  let text = jsonStringValue;
  const value: unknown = JSON.parse(text);
  if (typeof value === 'string') text = value;
  if (text.trim() === '') return '';
  return rewriteJson(text, { indent: 2, prepend: dataset === undefined ? undefined : [['$dataset', dataset]] });
}
