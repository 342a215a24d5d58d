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
