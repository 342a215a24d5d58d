// Shared helpers of the Logpush unit tests.
import type { DocKind, Edit, Problem } from '../../../server/src/core/types';
import { validateText, type ValidateOptions } from '../../../server/src/core/validate';

export function check(text: string, kind: DocKind = 'logpush-filter', opts: ValidateOptions = {}): Problem[] {
  return validateText(text, kind, opts);
}

export function codes(text: string, kind: DocKind = 'logpush-filter', opts: ValidateOptions = {}): string[] {
  return check(text, kind, opts).map((p) => p.code);
}

/** The text with a fix's edits applied (edits do not overlap; applied from the end). */
export function applyEdits(text: string, edits: Edit[]): string {
  return [...edits].sort((a, b) => b.offset - a.offset).reduce((t, e) => t.slice(0, e.offset) + e.newText + t.slice(e.offset + e.length), text);
}

export function only(problems: Problem[], code: string): Problem {
  const found = problems.filter((p) => p.code === code);
  if (found.length !== 1) throw new Error(`expected one ${code}, got ${JSON.stringify(problems.map((p) => p.code))}`);
  return found[0];
}

export const cmp = (key: string, operator: string, value: unknown): { key: string; operator: string; value: unknown } => ({ key, operator, value });
export const filterText = (where: unknown, extra: Record<string, unknown> = {}): string => JSON.stringify({ ...extra, where }, null, 2);
export const jobText = (extra: Record<string, unknown>): string =>
  JSON.stringify({ name: 'example.com', dataset: 'http_requests', destination_conf: 's3://b/logs?region=us-east-1', ...extra }, null, 2);
