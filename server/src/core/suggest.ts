// "Did you mean": the one edit distance and the one nearest-name search of every area (Logpush fields and datasets, gateway methods
// and keys, rules-language fields and functions). Cheap on the paths that matter: an unknown field is compared with ~700 names, so
// candidates are lower-cased once per list, skipped on length first, and scored by a distance that works only in a band of width
// 2*limit+1 and stops as soon as a row is over the limit (a 1 MB key costs O(limit x length), never quadratic).

/** Case-sensitive optimal-string-alignment distance: insertions, deletions, substitutions and adjacent transpositions count 1. */
export function editDistance(a: string, b: string): number {
  return boundedDistance(a, b, Math.max(a.length, b.length));
}

// Three rolling rows, grown on demand and reused: no allocation per comparison.
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** editDistance(a, b) when it is at most limit, else limit + 1 (found without computing the rest). */
export function boundedDistance(a: string, b: string, limit: number): number {
  const m = a.length;
  const n = b.length;
  const over = limit + 1;
  if (Math.abs(m - n) > limit) return over;
  if (m === 0 || n === 0) return Math.max(m, n);
  if (rows[0].length < n + 2) rows = [new Int32Array(n + 66), new Int32Array(n + 66), new Int32Array(n + 66)];
  let [before, prev, cur] = rows;
  for (let j = 0; j <= n; j++) prev[j] = j <= limit ? j : over;
  if (n + 1 < prev.length) prev[n + 1] = over;
  for (let i = 1; i <= m; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(n, i + limit);
    // Cells just outside the band read as "over the limit", so that the next rows never read a stale value.
    cur[0] = i <= limit ? i : over;
    if (lo > 1) cur[lo - 1] = over;
    let rowMin = cur[0];
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j - 1] + (ai === bj ? 0 : 1);
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      if (j > 1 && ai === b.charCodeAt(j - 2) && aBefore === bj && before[j - 2] + 1 < v) v = before[j - 2] + 1;
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < n) cur[hi + 1] = over;
    if (rowMin > limit) return over;
    const t = before; before = prev; prev = cur; cur = t;
  }
  return Math.min(prev[n], over);
}

export interface SuggestOptions {
  /** At most this many names (default 3). */
  max?: number;
  /**
   * Dotted names (rules-language fields): a candidate whose last segment equals the name's ("host" in "http.hots" vs "http.host")
   * counts as within the limit whatever the length difference.
   */
  sameLastSegment?: boolean;
}

const lowered = new WeakMap<readonly string[], string[]>();

function lowerOf(candidates: readonly string[]): string[] {
  let l = lowered.get(candidates);
  if (!l) {
    l = candidates.map((c) => c.toLowerCase());
    lowered.set(candidates, l);
  }
  return l;
}

const lastSegment = (s: string): string => s.slice(s.lastIndexOf('.') + 1);

/**
 * The candidates nearest to name, case-insensitively, within a distance of about a third of its length (at least 2, and less than
 * the whole of a short name), nearest first and then alphabetically. Pass the same array for the same list: its lower-cased copy is kept (weakly) between calls.
 */
export function suggest(name: string, candidates: readonly string[], opts: SuggestOptions = {}): string[] {
  return scoredSuggestions(name, candidates, opts).map((x) => x.name);
}

/** A name suggest() offers and its case-insensitive edit distance from the misspelt one (capped at the limit for sameLastSegment). */
export interface Suggestion { name: string; distance: number }

/** suggest()'s names with the distances it ranked them by, for a caller that also weighs how near each one is. */
export function scoredSuggestions(name: string, candidates: readonly string[], opts: SuggestOptions = {}): Suggestion[] {
  const max = opts.max ?? 3;
  const limit = Math.max(2, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  const tail = opts.sameLastSegment ? lastSegment(name) : undefined;
  const low = lowerOf(candidates);
  const scored: Suggestion[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    const sameTail = tail !== undefined && lastSegment(c) === tail;
    // The distance is at least the difference in length.
    if (!sameTail && Math.abs(c.length - name.length) > limit) continue;
    let d = low[i] === lower ? 0 : boundedDistance(lower, low[i], sameTail ? Math.max(lower.length, c.length) : limit);
    if (sameTail) d = Math.min(d, limit);
    // A name rewritten whole is no near miss: "id" is 2 edits from "kind", as from any 2-letter word
    else if (d >= name.length) continue;
    if (d <= limit) scored.push({ name: c, distance: d });
  }
  return scored.sort((x, y) => x.distance - y.distance || x.name.localeCompare(y.name)).slice(0, max);
}

const names = new WeakMap<readonly { name: string }[], readonly string[]>();

/** The names of a catalogue list (fields, datasets), made once per list so that suggest() keeps its lower-cased copy too. */
export function namesOf(items: readonly { name: string }[]): readonly string[] {
  let n = names.get(items);
  if (!n) {
    n = items.map((i) => i.name);
    names.set(items, n);
  }
  return n;
}

const isUpper = (c: string): boolean => c >= 'A' && c <= 'Z';
const isLowerOrDigit = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

/** Whether a word of the name starts at k: after a separator, at a lower-to-upper step (QueryCategory), or at an acronym's end (HTTPVersion). */
function wordStartsAt(name: string, k: number): boolean {
  if (k <= 0 || k >= name.length) return true;
  const a = name[k - 1];
  const b = name[k];
  if (a === '_' || a === '.' || a === '-') return true;
  if (!isUpper(b)) return false;
  return isLowerOrDigit(a) || (isUpper(a) && k + 1 < name.length && isLowerOrDigit(name[k + 1]));
}

/**
 * suggest() for a catalogue's field names and, when no name is near, the names the given one is a whole word-aligned end or start
 * of ("CategoryIDs" of "QueryCategoryIDs", "Path" of "ClientRequestPath"): a qualifier left out is no typo, and edit distance
 * finds nothing for it. Those are shortest first, at most `max`, and `parts` says so: a guess, so no fix of them is preferred.
 */
export function fieldSuggestions(name: string, candidates: readonly string[], max = 3): { near: string[]; parts: boolean } {
  const near = suggest(name, candidates, { max });
  if (near.length || name.length < 4) return { near, parts: false };
  const lower = name.toLowerCase();
  const low = lowerOf(candidates);
  const found: string[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i];
    if (c.length <= name.length) continue;
    if ((low[i].endsWith(lower) && wordStartsAt(c, c.length - name.length)) || (low[i].startsWith(lower) && wordStartsAt(c, name.length))) found.push(c);
  }
  found.sort((x, y) => x.length - y.length || x.localeCompare(y));
  return { near: found.slice(0, max), parts: found.length > 0 };
}
