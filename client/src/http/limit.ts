// Running many requests with a bound on how many are in flight at once (the Zones view reads one status per zone: 200 zones at once
// would flood the backend, and the platform's API allows 1200 requests per 5 minutes per user). No vscode.

/** The results of `fn` over `items`, in order, with at most `limit` calls in flight. Rejects with the first error; no call starts
 * after it. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i], i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const n = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}

/** The first defined result of `fn` over `items` (in the order the calls end), with at most `limit` calls in flight, and no call
 * started after it: a search of a job among 2600 zones that finds it in the tenth asks about a dozen, not every zone. */
export async function findLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R | undefined>): Promise<R | undefined> {
  let found: R | undefined;
  await mapLimit(items, limit, async (item) => {
    if (found !== undefined) return;
    const r = await fn(item);
    if (r !== undefined && found === undefined) found = r;
  });
  return found;
}
