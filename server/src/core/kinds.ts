import type { DocKind } from './types';
import { DOC_KINDS } from './types';

/** File-name patterns claimed by each kind (also declared in package.json contributes.languages). */
export const KIND_PATTERNS: Record<DocKind, string[]> = {
  'logpush-filter': ['*.filter.json'],
  'logpush-job': ['*.logpush.json'],
  'jsonrpc-request': ['*.rpc.json', '*.jsonrpc.json'],
  'waf-ruleset': ['*.ruleset.json'],
};

export function isDocKind(s: unknown): s is DocKind {
  return typeof s === 'string' && (DOC_KINDS as readonly string[]).includes(s);
}

/** The kind of a file from its name (or undefined). */
export function detectKind(fileName: string): DocKind | undefined {
  const base = fileName.replace(/\\/g, '/').split('/').pop()!.toLowerCase();
  for (const kind of DOC_KINDS) {
    for (const pattern of KIND_PATTERNS[kind]) if (base.endsWith(pattern.slice(1)) && base.length > pattern.length - 1) return kind;
  }
  return undefined;
}

/** The kind a plain .json document declares through "$schema" (one of our schema ids or file names), if any. */
export function kindFromSchemaRef(text: string): DocKind | undefined {
  const m = /"\$schema"\s*:\s*"([^"]*)"/.exec(text.slice(0, 4096));
  if (!m) return undefined;
  for (const kind of DOC_KINDS) if (m[1].endsWith(`${kind}.schema.json`)) return kind;
  return undefined;
}
