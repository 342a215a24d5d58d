// Generates server/src/core/rules/ruleset/fields.generated.ts from the reference field catalogue
// (/work/shared/reference/rules_language_fields.tsv, or the path given as the first argument), the docs' own field list
// (data/rules-language/http_fields_docs.tsv, transcribed from cloudflare-docs src/content/fields/index.yaml), the fields the docs
// use outside that list (data/rules-language/http_fields_docs_pages.tsv) and the Network Firewall's
// (data/rules-language/network_firewall_fields.tsv). data/rules-language/SOURCE.md says where each file comes from. Run:
//   node --import tsx scripts/genRulesLanguageFields.ts [path/to/rules_language_fields.tsv]
// The output is committed; the core never reads the TSVs at run time.
//
// The reference TSV is the first source (its order, notes, .names/.values sub-fields and ip.geoip aliases). The docs rows then add
// the fields it lacks, and where a docs row gives another type for a field, the docs' type wins and the field's notes say so.
import * as fs from 'node:fs';
import * as path from 'node:path';

const src = process.argv[2] ?? '/work/shared/reference/rules_language_fields.tsv';
const out = path.resolve(__dirname, '../server/src/core/rules/ruleset/fields.generated.ts');

interface Row { name: string; type: string; notes: string }

/**
 * The stage a field is set at: `response` for the response's own fields (http.response.*, raw.http.response.*), which exist only
 * once the origin has answered, and for cf.response.* (the error response Cloudflare returns: index.yaml says they are "only
 * available in Response Header Transform Rules and Custom Errors", both response phases), so only response phases (http_response_*,
 * http_custom_errors, http_log_custom_fields) can read them; `request` for every other field (set when the request arrives,
 * readable in every phase). Source: the platform's fields reference (the http.response.* fields are listed as "response fields",
 * available in response phases).
 */
function stageOf(name: string): 'request' | 'response' {
  return /^((raw\.)?http\.response\.|cf\.response\.)/.test(name) ? 'response' : 'request';
}

/** The data_type of a field the docs name in their field lists but type nowhere (http_fields_docs_pages.tsv). */
const UNDOCUMENTED = '(undocumented)';

// The docs' type names onto the checker's (catalog.ts parseTy): "Number" is an integer in the rules language (no floats: the
// docs' index.yaml has no other numeric type), "IP address" is IP.
const TYPE_NAMES: Record<string, string> = { 'IP address': 'IP', 'IP Address': 'IP', Number: 'Integer' };

function normType(t: string): string {
  // A field the docs list as available without giving its type anywhere: the checker knows its name and checks no use of it
  if (t === UNDOCUMENTED) return 'Unknown';
  return t.replace(/IP [aA]ddress|Number/g, (m) => TYPE_NAMES[m]);
}

/** Whether the checker has this type: String, Integer, Boolean, IP, Bytes, Array<T>, Map<T> (catalog.ts parseTy). */
function checkerType(t: string): boolean {
  const m = /^(Array|Map)<(.*)>$/.exec(t);
  return m ? checkerType(m[2]) : ['String', 'Integer', 'Boolean', 'IP', 'Bytes', 'Unknown'].includes(t);
}

/** A field TSV (header name, data_type, plan/notes): its rows, types mapped onto the checker's; a type it lacks stops the run. */
function readTsv(file: string): Row[] {
  const found: Row[] = [];
  fs.readFileSync(file, 'utf8').split(/\r?\n/).slice(1).forEach((line, k) => {
    if (!line.trim()) return;
    const [name, type = '', notes = ''] = line.split('\t');
    const ty = normType(type.trim());
    if (type.trim() === 'Unknown') throw new Error(`${file}:${k + 2}: field "${name}": write ${UNDOCUMENTED} for a type the docs do not give`);
    if (!checkerType(ty)) throw new Error(`${file}:${k + 2}: field "${name}" has type "${type}", which the checker has no type for`);
    found.push({ name: name.trim(), type: ty, notes: notes.trim() });
  });
  return found;
}

const rows: Row[] = [];
for (const { name, type, notes } of readTsv(src)) {
  rows.push({ name, type, notes });
  // "Map<Array<T>>" fields whose notes mention .names/.values carry those sub-fields too.
  const m = /^Map<Array<(\w+)>>$/.exec(type);
  if (m && /\(\.names|\(also \.names/.test(notes)) {
    rows.push({ name: `${name}.names`, type: 'Array<String>', notes: `Names of ${name}.` });
    rows.push({ name: `${name}.values`, type: `Array<${m[1]}>`, notes: `Values of ${name}.` });
  }
  // "alias deprecated ip.geoip.x" / "alias ip.geoip.x": the old name is still accepted but deprecated.
  const alias = /alias (?:deprecated )?(ip\.geoip\.[a-z0-9_]+)/.exec(notes);
  if (alias) rows.push({ name: alias[1], type, notes: `deprecated alias of ${name}` });
}

// The docs' fields: index.yaml's list, then the fields the docs use outside it. A field the reference lacks is added (after the
// reference's); a type the docs give otherwise replaces the reference's, and the notes say so.
const byName = new Map(rows.map((r) => [r.name, r]));
const docsSources: [string, string][] = [
  [path.resolve(__dirname, '../data/rules-language/http_fields_docs.tsv'), "the docs' index.yaml"],
  [path.resolve(__dirname, '../data/rules-language/http_fields_docs_pages.tsv'), 'docs pages outside index.yaml'],
];
for (const [file, label] of docsSources) {
  for (const d of readTsv(file)) {
    const have = byName.get(d.name);
    if (!have) {
      const row = { ...d };
      rows.push(row);
      byName.set(d.name, row);
      console.log(`added ${d.name} (${d.type}) from ${label}`);
      continue;
    }
    // The checker reads "keys lowercased" in the notes as "this map's keys are lower-case" (catalog.ts lowerKeys): the docs say so
    // of http.response.headers too ("The keys convert to lowercase"), which the reference's notes do not
    if (d.notes.includes('keys lowercased') && !have.notes.includes('keys lowercased')) {
      have.notes = `${have.notes ? `${have.notes}; ` : ''}keys lowercased (per ${label})`;
    }
    if (have.type !== d.type) {
      console.log(`type of ${d.name}: ${d.type} per ${label} (reference: ${have.type})`);
      have.notes = `${have.notes ? `${have.notes}; ` : ''}type per ${label} (reference TSV: ${have.type})`;
      have.type = d.type;
    }
  }
}
// A deprecated alias has the type of the field it stands for, also when the docs changed that type.
for (const r of rows) {
  const of = /^deprecated alias of (\S+)$/.exec(r.notes);
  if (of) r.type = byName.get(of[1])!.type;
}

// The Network Firewall's own fields (phases magic_transit*), transcribed into data/rules-language/ (SOURCE.md says from where).
const networkSrc = path.resolve(__dirname, '../data/rules-language/network_firewall_fields.tsv');
const network: Row[] = readTsv(networkSrc);

const body = rows.map((r) => `  [${JSON.stringify(r.name)}, ${JSON.stringify(r.type)}, ${JSON.stringify(r.notes)}, ${JSON.stringify(stageOf(r.name))}],`).join('\n');
const networkBody = network.map((r) => `  [${JSON.stringify(r.name)}, ${JSON.stringify(r.type)}, ${JSON.stringify(r.notes)}, "request"],`).join('\n');
fs.writeFileSync(out, `// GENERATED by scripts/genRulesLanguageFields.ts from reference/rules_language_fields.tsv,
// data/rules-language/http_fields_docs.tsv, http_fields_docs_pages.tsv and network_firewall_fields.tsv; do not edit by hand.
// [name, type, notes, stage]. Types: String, Integer, Boolean, IP, Bytes, Array<T>, Map<T>. "Number" in the catalogue is Integer here;
// Unknown: a field the docs list as available but type nowhere ("(undocumented)" in the TSV), accepted and never type-checked.
// Stage: "response" fields (http.response.*, raw.http.response.*, cf.response.*) are readable in response phases only; "request" fields everywhere.
export const RULES_LANGUAGE_FIELD_ROWS: readonly (readonly [string, string, string, 'request' | 'response'])[] = [
${body}
];

/** The Network Firewall's fields: the only ones its phases (magic_transit*) read; packets, not HTTP requests. */
export const NETWORK_FIREWALL_FIELD_ROWS: readonly (readonly [string, string, string, 'request' | 'response'])[] = [
${networkBody}
];
`);
console.log(`wrote ${rows.length} fields and ${network.length} Network Firewall fields to ${path.relative(process.cwd(), out)}`);
