// The names \p{..} takes in Rust regex, read as regex-syntax reads them (unicode.rs: symbolic_name_normalize, ClassQuery::canonicalize):
// UTS #18 loose matching, so that \p{greek}, \p{Is_Greek}, \p{Letter}, \p{letter}, \pl, \p{Script=Greek}, \p{sc:Grek} and
// \p{gc!=Lu} are all valid. Each resolves to what JavaScript's own Unicode tables call it, from which regexClassSet.ts computes the set.
// The aliases are Unicode's PropertyAliases and PropertyValueAliases as ECMAScript takes them (the packages regexpu-core uses).
import PROPERTY_ALIASES from 'unicode-property-aliases-ecmascript';
import VALUE_ALIASES from 'unicode-property-value-aliases-ecmascript';

/** A name as regex-syntax compares it (symbolic_name_normalize): an "is" prefix dropped, spaces, "_", "-" and every character past
 * ASCII dropped, ASCII lower-cased. */
export function looseName(name: string): string {
  const from = name.length >= 2 && name.slice(0, 2).toLowerCase() === 'is' ? 2 : 0;
  let out = '';
  for (let k = from; k < name.length; k++) {
    const c = name[k];
    if (c === ' ' || c === '_' || c === '-' || c > '\x7f') continue;
    out += c >= 'A' && c <= 'Z' ? c.toLowerCase() : c;
  }
  return out;
}

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
    if (nonBinary.has(canonical) || !jsKnows(canonical)) continue;
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

/** The properties regex-syntax reads by value and JavaScript has no table for (unicode.rs canonical_prop, property_values), by loose name. */
const UNTABLED = new Map<string, string>([
  ['age', 'Age'],
  ['gcb', 'Grapheme_Cluster_Break'], ['graphemeclusterbreak', 'Grapheme_Cluster_Break'],
  ['sb', 'Sentence_Break'], ['sentencebreak', 'Sentence_Break'],
  ['wb', 'Word_Break'], ['wordbreak', 'Word_Break'],
]);

/**
 * How Rust regex reads a by-value name (name=value, name:value, name!=value) that jsProperty does not resolve: a property it reads
 * by value and EdgeKit has no table for (`untabled`), a binary property, which takes no value (`no-value`, regex-syntax's "Unicode
 * property value not found"), a value the general category, the script or the script extensions lack (`no-value` too), or a
 * property it does not read by value (`no-property`: "Unicode property not found"). Undefined when the name is not by value.
 */
export function byValueReading(name: string):
  | { kind: 'untabled'; property: string }
  | { kind: 'no-value'; property: string; value: string; binary: boolean }
  | { kind: 'no-property'; property: string }
  | undefined {
  const byValue = splitByValue(name);
  if (!byValue) return undefined;
  const t = (tables ??= build());
  const loose = looseName(byValue.property);
  const untabled = UNTABLED.get(loose);
  if (untabled) return { kind: 'untabled', property: untabled };
  const canonical = t.properties.get(loose);
  if (canonical === 'General_Category' || canonical === 'Script' || canonical === 'Script_Extensions') {
    return { kind: 'no-value', property: canonical, value: byValue.value, binary: false };
  }
  const binary = t.binary.get(loose);
  if (binary) return { kind: 'no-value', property: binary, value: byValue.value, binary: true };
  return { kind: 'no-property', property: byValue.property };
}
