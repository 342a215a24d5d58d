#!/usr/bin/env node
// Turns the Logpush reference tables (datasets.tsv, <dataset>_fields.tsv) into a TypeScript module for the pure core. A dataset
// the shared reference has no table for takes data/logpush-fields/<dataset>_fields.tsv (transcribed from the platform's public
// docs; data/logpush-fields/SOURCE.md says from where and when); one it has a table for takes the rows of
// data/logpush-fields/supplement/<dataset>_fields.tsv as well (fields the table lacks, rows with more values).
// Usage: node scripts/gen-logpush-data.mjs [referenceDir]   (default: ../shared/reference, relative to the repo root); npm run catalogue
// Output: server/src/core/rules/logpush/catalogue.data.ts (committed; re-run when the reference changes).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const refDir = path.resolve(repo, process.argv[2] ?? '../shared/reference');
const outFile = path.join(repo, 'server/src/core/rules/logpush/catalogue.data.ts');

const ownDir = path.join(repo, 'data', 'logpush-fields');

function readTsv(file, dir = refDir) {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = lines.shift().split('\t');
  return lines.map((l) => {
    const cells = l.split('\t');
    return Object.fromEntries(header.map((h, i) => [h, (cells[i] ?? '').trim()]));
  });
}

/** The longest "a|b|c" run in a description: the values a string field takes. A full stop ends the list as it ends the sentence
 * ("login|logout.", "tcp|quic|udp. Use TransportProtocol."): a dot followed by a space or the end is no part of a value; one
 * inside a value ("TLSv1.2") is. */
function enumValues(description) {
  const runs = description.match(/[\w. -]+(?:\|[\w. -]+)+/g) ?? [];
  const best = runs.sort((a, b) => b.split('|').length - a.split('|').length)[0];
  return best ? best.replace(/\.(\s.*)?$/, '').split('|').map((v) => v.trim()).filter(Boolean) : undefined;
}

const datasets = readTsv('datasets.tsv').map((d) => ({
  name: d.dataset, scope: d.scope, ...fieldsSource(d),
}));

/** Where a dataset's fields come from: the shared reference's table, else this repository's transcription, else nowhere. */
function fieldsSource(d) {
  if (d.fields_file !== '-') return { fieldsFile: d.fields_file, fieldsDir: refDir };
  const own = `${d.dataset}_fields.tsv`;
  return fs.existsSync(path.join(ownDir, own)) ? { fieldsFile: own, fieldsDir: ownDir } : {};
}

const fields = {};
for (const d of datasets) {
  if (!d.fieldsFile) continue;
  fields[d.name] = readTsv(d.fieldsFile, d.fieldsDir).map(fieldInfo);
}

/** A dataset the reference's table does not list (catalogue.ts knows it by name, EXTRA_DATASETS) whose page this repository
 * transcribed: data/logpush-fields/<dataset>_fields.tsv gives it a list too (catalogue.ts marks it hasFields). */
for (const file of fs.readdirSync(ownDir).filter((f) => f.endsWith('_fields.tsv')).sort()) {
  const dataset = file.slice(0, -'_fields.tsv'.length);
  if (datasets.some((d) => d.name === dataset)) continue;
  fields[dataset] = readTsv(file, ownDir).map(fieldInfo);
}

/** Fields the shared reference's table of a dataset lacks or gives short of the platform's current page:
 * data/logpush-fields/supplement/<dataset>_fields.tsv (same columns). A row of a name the table has replaces that row (more
 * possible values); the others are added. The list stays in the reference's order, by name. */
const supplementDir = path.join(ownDir, 'supplement');
const supplemented = {};
if (fs.existsSync(supplementDir)) {
  for (const file of fs.readdirSync(supplementDir).filter((f) => f.endsWith('_fields.tsv')).sort()) {
    const dataset = file.slice(0, -'_fields.tsv'.length);
    const d = datasets.find((x) => x.name === dataset);
    if (!d || d.fieldsDir !== refDir) throw new Error(`supplement/${file}: "${dataset}" is no dataset of the shared reference's tables`);
    const rows = readTsv(file, supplementDir).map(fieldInfo);
    const byName = new Map(rows.map((f) => [f.name, f]));
    if (byName.size !== rows.length) throw new Error(`supplement/${file}: a field named twice`);
    const list = fields[dataset].map((f) => byName.get(f.name) ?? f);
    const replaced = list.filter((f) => rows.includes(f)).length;
    list.push(...rows.filter((f) => !list.includes(f)));
    fields[dataset] = list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    supplemented[dataset] = { added: rows.length - replaced, replaced };
  }
}

/** The fields a dataset has in jobs of one scope only: data/logpush-fields/<scope>/<dataset>_fields.tsv (a dataset the docs file
 * under both scopes whose pages differ; see SOURCE.md). Each carries its `scope`. */
const scopeFields = {};
for (const scope of ['zone', 'account']) {
  const dir = path.join(ownDir, scope);
  if (!fs.existsSync(dir)) continue;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('_fields.tsv')).sort()) {
    const dataset = file.slice(0, -'_fields.tsv'.length);
    // A dataset the table does not list whose two pages share no field (websocket_analytics) has only lists of one scope.
    if (!fields[dataset] && !datasets.some((d) => d.name === dataset)) fields[dataset] = [];
    if (!fields[dataset]) throw new Error(`${scope}/${file}: "${dataset}" is no dataset with a field list`);
    (scopeFields[dataset] ??= {})[scope] = readTsv(file, dir).map((f) => ({ ...fieldInfo(f), scope }));
  }
}

/** A row of a fields table as the catalogue's FieldInfo. */
function fieldInfo(f) {
  let description = f.description;
  let filterable = !/\[NOT filterable\]|not filterable\]/i.test(description);
  description = description.replace(/\s*\[(NOT filterable|[^\]]*: not filterable)\]\s*$/i, '').trim();
  if (f.type === 'object' || f.type === 'array[object]') filterable = false;
  const deprecated = /^\(deprecated\)/i.test(description);
  const values = f.type === 'string' || f.type === 'array[string]' ? enumValues(description) : undefined;
  return { name: f.name, type: f.type, description, filterable, ...(deprecated ? { deprecated } : {}), ...(values ? { values } : {}) };
}

const out = `// GENERATED by scripts/gen-logpush-data.mjs from the reference tables datasets.tsv and *_fields.tsv, and for the datasets they
// do not cover, or cover short of the current pages, from data/logpush-fields/ (the platform's public docs, cloudflare/cloudflare-docs
// src/content/docs/logs/, transcribed 2026-11-24 and 2026-11-27: see data/logpush-fields/SOURCE.md). Do not edit by hand.
import type { DatasetInfo, FieldInfo, Scope } from './catalogue';

export const DATASETS: readonly DatasetInfo[] = ${JSON.stringify(datasets.map(({ fieldsFile, fieldsDir, ...d }) => ({ ...d, hasFields: !!fieldsFile })), null, 2)};

export const FIELDS: Readonly<Record<string, readonly FieldInfo[]>> = ${JSON.stringify(fields, null, 2)};

/** Fields a dataset has in jobs of one scope only (data/logpush-fields/<scope>/), beside FIELDS' list. */
export const SCOPE_FIELDS: Readonly<Record<string, Readonly<Partial<Record<Scope, readonly FieldInfo[]>>>>> = ${JSON.stringify(scopeFields, null, 2)};
`;
fs.writeFileSync(outFile, out);
console.log(`wrote ${path.relative(repo, outFile)}: ${datasets.length} datasets of the table, ${Object.keys(fields).length} with fields, ${Object.values(fields).reduce((n, f) => n + f.length, 0)} fields, ${Object.values(scopeFields).flatMap((s) => Object.values(s)).reduce((n, f) => n + f.length, 0)} of one scope only; supplements: ${Object.entries(supplemented).map(([d, s]) => `${d} +${s.added} (${s.replaced} replaced)`).join(', ') || 'none'}`);
