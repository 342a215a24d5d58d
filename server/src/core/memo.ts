/**
 * `compute` with its results remembered per key, for at most `max` keys: past that the memory is dropped whole and fills again. It
 * keeps a cache bounded without an order to maintain, for the lookups a document repeats on every edit (a batch's addresses, a
 * ruleset's patterns). `keep(key)` says whether a key is remembered (a very long one is computed each time instead of kept).
 */
export function remembered<V>(max: number, compute: (key: string) => V, keep: (key: string) => boolean = () => true): (key: string) => V {
  const memory = new Map<string, V>();
  return (key) => {
    if (memory.has(key)) return memory.get(key) as V;
    const value = compute(key);
    if (keep(key)) {
      if (memory.size >= max) memory.clear();
      memory.set(key, value);
    }
    return value;
  };
}
