// The names \p{..} takes in Rust regex, read as regex-syntax reads them (unicode.rs: symbolic_name_normalize, ClassQuery::canonicalize):
// UTS #18 loose matching, so that \p{greek}, \p{Is_Greek}, \p{Letter}, \p{letter}, \pl, \p{Script=Greek}, \p{sc:Grek} and
// \p{gc!=Lu} are all valid. Each resolves to what JavaScript's own Unicode tables call it, from which regexClassSet.ts computes the set.
// The aliases are Unicode's PropertyAliases and PropertyValueAliases as ECMAScript takes them (the packages regexpu-core uses).
import PROPERTY_ALIASES from 'unicode-property-aliases-ecmascript';
import VALUE_ALIASES from 'unicode-property-value-aliases-ecmascript';

/** A name as regex-syntax compares it (symbolic_name_normalize): an "is" prefix dropped, spaces, "_", "-" and every character past
 * ASCII dropped, ASCII lower-cased; "isc" (ISO_Comment's alias) stays "isc", not the general category "c". */
export function looseName(name: string): string {
  const from = name.length >= 2 && name.slice(0, 2).toLowerCase() === 'is' ? 2 : 0;
  let out = '';
  for (let k = from; k < name.length; k++) {
    const c = name[k];
    if (c === ' ' || c === '_' || c === '-' || c > '\x7f') continue;
    out += c >= 'A' && c <= 'Z' ? c.toLowerCase() : c;
  }
  return from === 2 && out === 'c' ? 'isc' : out;
}

/**
 * What JavaScript's tables have and regex-syntax 0.8.11 (UCD 16, as 0.8.9, which wirefilter pins) refuses: the binary property
 * Changes_When_NFKC_Casefolded (not in property_bool.rs: "Unicode property not found"); the general category Surrogate and the
 * script Unknown, which its tables name and have no set for (general_category.rs, script.rs: "Unicode property value not found");
 * the scripts of Unicode 17 (Node 20's tables), which it does not name ("Unicode property not found").
 */
const RUST_LACKS = new Set(['Changes_When_NFKC_Casefolded', 'Beria_Erfe', 'Sidetic', 'Tai_Yo', 'Tolong_Siki']);
/** The values regex-syntax names and has no set for, by loose name: the property and value a message names. */
const NO_SET = new Map<string, { property: string; value: string }>([
  ['cs', { property: 'General_Category', value: 'Surrogate' }], ['surrogate', { property: 'General_Category', value: 'Surrogate' }],
  ['zzzz', { property: 'Script', value: 'Unknown' }], ['unknown', { property: 'Script', value: 'Unknown' }],
]);

/** A by-value name split as regex-syntax's parse_unicode_class splits it: at its first "!=", else its first ":", else its first "="
 * (\p{sc=a:b} is the property "sc=a"); undefined when it has none. */
function splitByValue(name: string): { property: string; op: string; value: string } | undefined {
  for (const op of ['!=', ':', '=']) {
    const k = name.indexOf(op);
    if (k >= 0) return { property: name.slice(0, k), op, value: name.slice(k + op.length) };
  }
  return undefined;
}

/** The JavaScript property expression (the text inside \p{..} of a /u regex) of each loose name of one kind. */
interface Tables { binary: Map<string, string>; gc: Map<string, string>; sc: Map<string, string>; properties: Map<string, string> }
let tables: Tables | undefined;

function jsKnows(expr: string): boolean {
  try {
    new RegExp(`\\p{${expr}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

function build(): Tables {
  const binary = new Map<string, string>();
  const gc = new Map<string, string>();
  const sc = new Map<string, string>();
  const values = (property: string, into: Map<string, string>, js: (canonical: string) => string) => {
    for (const [alias, canonical] of VALUE_ALIASES.get(property) ?? []) {
      if (RUST_LACKS.has(canonical) || NO_SET.has(looseName(canonical))) continue;
      for (const n of [alias, canonical]) if (!into.has(looseName(n)) && jsKnows(js(canonical))) into.set(looseName(n), js(canonical));
    }
  };
  values('General_Category', gc, (c) => `gc=${c}`);
  values('Script', sc, (c) => `sc=${c}`);
  // regex-syntax's own general categories beside Unicode's (canonical_gencat)
  gc.set('any', 'Any');
  gc.set('assigned', 'Assigned');
  gc.set('ascii', 'ASCII');
  // Every property's loose names, for the by-value forms (gc=, sc=, scx=, and those JavaScript has no table for)
  const properties = new Map<string, string>();
  for (const [alias, canonical] of PROPERTY_ALIASES) for (const n of [alias, canonical]) properties.set(looseName(n), canonical);
  const nonBinary = new Set(['General_Category', 'Script', 'Script_Extensions']);
  for (const [alias, canonical] of PROPERTY_ALIASES) {
    if (nonBinary.has(canonical) || RUST_LACKS.has(canonical) || !jsKnows(canonical)) continue;
    binary.set(looseName(alias), canonical);
    binary.set(looseName(canonical), canonical);
  }
  return { binary, gc, sc, properties };
}

/**
 * The JavaScript property expression for \p{name} as Rust regex reads name (without the \p and braces; "L" for \pL), or undefined
 * for a name Rust regex does not know (regex-syntax: "Unicode property not found") or one JavaScript's tables cannot give (a
 * by-value form of a property other than the general category, the script and the script extensions: \p{Age=3.0}).
 * `negated`: the name's own "!=" (\p{gc!=Lu}), to be applied with \P's.
 */
export function jsProperty(name: string): { expr: string; negated: boolean } | undefined {
  const t = (tables ??= build());
  const byValue = splitByValue(name);
  if (byValue) {
    const property = looseName(byValue.property);
    const value = looseName(byValue.value);
    const negated = byValue.op === '!=';
    const canonical = t.properties.get(property);
    const expr = canonical === 'General_Category' ? t.gc.get(value)
      : canonical === 'Script' ? t.sc.get(value)
      : canonical === 'Script_Extensions' ? t.sc.get(value)?.replace(/^sc=/, 'scx=')
      : undefined;
    return expr === undefined ? undefined : { expr, negated };
  }
  const n = looseName(name);
  // regex-syntax: "cf", "sc" and "lc" are the general categories (Format, Currency_Symbol, Cased_Letter), not the properties of
  // those abbreviations; otherwise a binary property first, then a general category, then a script
  const expr = (n !== 'cf' && n !== 'sc' && n !== 'lc' ? t.binary.get(n) : undefined) ?? t.gc.get(n) ?? t.sc.get(n);
  return expr === undefined ? undefined : { expr, negated: false };
}

/**
 * The binary properties regex-syntax 0.8.11 reads (unicode_tables/property_bool.rs) and JavaScript's RegExp has no table for, with
 * or without the v flag (Node 20), by their loose names (property_names.rs): its canonical name, then its short aliases. InCB, in
 * property_bool.rs too, is not here: canonical_prop reads "incb" as Indic_Conjunct_Break, which property_bool.rs lacks, so
 * regex-syntax refuses \p{InCB} ("Unicode property not found").
 */
const RUST_ONLY_BINARY = new Map<string, string>(
  ('Grapheme_Link grlink, Hyphen, IDS_Unary_Operator idsu, ID_Compat_Math_Continue, ID_Compat_Math_Start, Modifier_Combining_Mark mcm, ' +
    'Other_Alphabetic oalpha, Other_Default_Ignorable_Code_Point odi, Other_Grapheme_Extend ogrext, Other_ID_Continue oidc, ' +
    'Other_ID_Start oids, Other_Lowercase olower, Other_Math omath, Other_Uppercase oupper, Prepended_Concatenation_Mark pcm')
    .split(', ').flatMap((names) => { const [canonical, ...aliases] = names.split(' '); return [canonical, ...aliases].map((n) => [looseName(n), canonical] as [string, string]); }),
);

/** The properties regex-syntax reads by value and JavaScript has no table for (unicode.rs canonical_prop, property_values), by loose name. */
const UNTABLED = new Map<string, string>([
  ['age', 'Age'],
  ['gcb', 'Grapheme_Cluster_Break'], ['graphemeclusterbreak', 'Grapheme_Cluster_Break'],
  ['sb', 'Sentence_Break'], ['sentencebreak', 'Sentence_Break'],
  ['wb', 'Word_Break'], ['wordbreak', 'Word_Break'],
]);

/**
 * The values regex-syntax 0.8.11 takes of each of them: each canonical value, then its short aliases, from property_values.rs,
 * less those its sets lack (unicode.rs: `ages` has no Unassigned, the break tables no Other, E_Base, E_Base_GAZ, E_Modifier or
 * Glue_After_Zwj), which it refuses as an unknown value ("Unicode property value not found"). Word_Break's "ex" is
 * ExtendNumLet there, as in Unicode's PropertyValueAliases.
 */
const UNTABLED_VALUES: Record<string, string> = {
  Age: 'V1_1 1.1, V2_0 2.0, V2_1 2.1, V3_0 3.0, V3_1 3.1, V3_2 3.2, V4_0 4.0, V4_1 4.1, V5_0 5.0, V5_1 5.1, V5_2 5.2, V6_0 6.0, ' +
    'V6_1 6.1, V6_2 6.2, V6_3 6.3, V7_0 7.0, V8_0 8.0, V9_0 9.0, V10_0 10.0, V11_0 11.0, V12_0 12.0, V12_1 12.1, V13_0 13.0, ' +
    'V14_0 14.0, V15_0 15.0, V15_1 15.1, V16_0 16.0',
  Grapheme_Cluster_Break: 'Control cn, CR, Extend ex, L, LF, LV, LVT, Prepend pp, Regional_Indicator ri, SpacingMark sm, T, V, ZWJ',
  Sentence_Break: 'ATerm at, Close cl, CR, Extend ex, Format fo, OLetter le, LF, Lower lo, Numeric nu, SContinue sc, Sep se, Sp, ' +
    'STerm st, Upper up',
  Word_Break: 'ALetter le, CR, Double_Quote dq, ExtendNumLet ex, Extend, Format fo, Hebrew_Letter hl, Katakana ka, LF, MidNumLet mb, ' +
    'MidLetter ml, MidNum mn, Newline nl, Numeric nu, Regional_Indicator ri, Single_Quote sq, WSegSpace, ZWJ',
};
let untabledValues: Map<string, Set<string>> | undefined;
function untabledValueKnown(property: string, value: string): boolean {
  untabledValues ??= new Map(Object.entries(UNTABLED_VALUES).map(([p, list]) => [p, new Set(list.split(/,? /).map(looseName))]));
  return untabledValues.get(property)!.has(looseName(value));
}

/** The values of an untabled property as a message lists them: Age's versions, a break property's canonical values. */
export function untabledValueList(property: string): string {
  return property === 'Age' ? 'the Unicode versions 1.1 to 16.0 (V1_1 to V16_0)' : UNTABLED_VALUES[property].split(', ').map((v) => v.split(' ')[0]).join(', ');
}

/**
 * How Rust regex reads a name that jsProperty does not resolve: a binary property it has and JavaScript lacks (\p{Hyphen}), or a
 * property it reads by value and EdgeKit has no table for (\p{Age=3.0}) (`untabled`); of a by-value name (name=value, name:value,
 * name!=value), a binary property, which takes no value (`no-value`, regex-syntax's "Unicode property value not found"), a value
 * the general category, the script, the script extensions, Age or a break property lack (`no-value` too; `noSet` of a value regex-syntax
 * names and has no set for, Surrogate and Unknown, by value or not: \p{Cs}), or a property it does not read by value
 * (`no-property`: "Unicode property not found"). Undefined when it is none of these (a name Rust regex does not know).
 */
export function untabledReading(name: string):
  | { kind: 'untabled'; property: string; byValue: boolean }
  | { kind: 'no-value'; property: string; value: string; binary: boolean; noSet?: boolean }
  | { kind: 'no-property'; property: string }
  | undefined {
  const byValue = splitByValue(name);
  if (!byValue) {
    // regex-syntax's canonical_binary: a property's name before a general category's and a script's ("cf", "sc", "lc" aside)
    const n = looseName(name);
    const binary = n !== 'cf' && n !== 'sc' && n !== 'lc' ? RUST_ONLY_BINARY.get(n) : undefined;
    if (binary) return { kind: 'untabled', property: binary, byValue: false };
    const noSet = NO_SET.get(n);
    return noSet && { kind: 'no-value', property: noSet.property, value: name, binary: false, noSet: true };
  }
  const t = (tables ??= build());
  const loose = looseName(byValue.property);
  const untabled = UNTABLED.get(loose);
  if (untabled) {
    return untabledValueKnown(untabled, byValue.value) ? { kind: 'untabled', property: untabled, byValue: true }
      : { kind: 'no-value', property: untabled, value: byValue.value, binary: false };
  }
  const canonical = t.properties.get(loose);
  if (canonical === 'General_Category' || canonical === 'Script' || canonical === 'Script_Extensions') {
    const noSet = NO_SET.get(looseName(byValue.value))?.property === (canonical === 'General_Category' ? 'General_Category' : 'Script');
    return { kind: 'no-value', property: canonical, value: byValue.value, binary: false, noSet };
  }
  const binary = t.binary.get(loose);
  if (binary) return { kind: 'no-value', property: binary, value: byValue.value, binary: true };
  return { kind: 'no-property', property: byValue.property };
}
