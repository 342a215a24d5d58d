// List routes as the platform answers them: page and per_page with a true result_info and an empty page past the end (where the
// official SDK's `for await` iterators stop), the route's filters (joined by `match=all`, the default, or `match=any`), `order`
// and `direction`; and the cursor lists (rulesets) with per_page and an opaque cursor. A malformed parameter is a 400 in the
// envelope that names it. Pure: items in, envelope out.
import type { ApiReply } from './envelope';
import { fail } from './envelope';

type Item = Record<string, unknown>;

export interface ListSpec<T extends Item> {
  /** per_page bounds and default as the API documents them; 'all' for a list the platform does not page (one page holding
   * everything, unless the caller asks for page or per_page). */
  perPage: { min: number; max: number; default: number } | 'all';
  /** The `order` values the route takes, each with the key it sorts by. */
  order?: Record<string, (item: T) => string | number>;
  /** The order when none is asked for (also what `direction` alone reverses); absent: the items' own order. */
  defaultOrder?: string;
  /** Query parameters that filter, each a test of one item against the parameter's value. */
  filters?: Record<string, (item: T, value: string) => boolean>;
}

/** Bounds of per_page where the platform does not page a list but the caller asks for pages anyway. */
const UNPAGED = { min: 1, max: 1000 };

const badParam = (name: string, why: string, value: string): ApiReply => fail(400, 1001, `"${name}" ${why}, not "${value}".`);

function wholeNumber(q: URLSearchParams, name: string, min: number, max: number): number | ApiReply | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max) {
    return badParam(name, `must be a whole number from ${min}${max >= 1e9 ? ' up' : ` to ${max}`}`, v);
  }
  return Number(v);
}

/** The API's text filter: exact, or "contains:x", "starts_with:x", "ends_with:x", "equal:x", "not_equal:x" (case-insensitive). */
export function textMatch(value: unknown, filter: string): boolean {
  const text = String(value ?? '');
  const m = /^(contains|starts_with|ends_with|equal|not_equal):(.*)$/.exec(filter);
  if (!m) return text === filter;
  const v = text.toLowerCase(), f = m[2].toLowerCase();
  switch (m[1]) {
    case 'contains': return v.includes(f);
    case 'starts_with': return v.startsWith(f);
    case 'ends_with': return v.endsWith(f);
    case 'not_equal': return v !== f;
    default: return v === f;
  }
}

/** A boolean query value ("true"/"false") against an item's boolean. */
export const boolMatch = (value: unknown, filter: string): boolean => String(value === true) === filter.toLowerCase();

/** The items a list route answers for its query (filtered, ordered, one page of them), or the 400 for a malformed parameter. */
export function listReply<T extends Item>(q: URLSearchParams, items: readonly T[], spec: ListSpec<T>): ApiReply {
  const bounds = spec.perPage === 'all' ? UNPAGED : spec.perPage;
  const page = wholeNumber(q, 'page', 1, 1e9);
  if (typeof page === 'object') return page;
  const perPageAsked = wholeNumber(q, 'per_page', bounds.min, bounds.max);
  if (typeof perPageAsked === 'object') return perPageAsked;
  const direction = q.get('direction');
  if (direction !== null && direction !== 'asc' && direction !== 'desc') return badParam('direction', 'must be asc or desc', direction);
  const match = q.get('match');
  if (match !== null && match !== 'all' && match !== 'any') return badParam('match', 'must be all or any', match);
  const order = q.get('order');
  const orders = Object.keys(spec.order ?? {});
  if (order !== null && !orders.includes(order)) {
    return orders.length ? badParam('order', `must be one of ${orders.join(', ')}`, order) : badParam('order', 'is not taken by this list (it cannot be ordered)', order);
  }

  // A parameter sent more than once (the SDK repeats array parameters) counts as its values joined by commas.
  const tests = Object.entries(spec.filters ?? {}).filter(([name]) => q.get(name) !== null).map(([name, t]) => (item: T) => t(item, q.getAll(name).join(',')));
  let out = tests.length === 0 ? [...items] : items.filter((item) => (match === 'any' ? tests.some((t) => t(item)) : tests.every((t) => t(item))));
  const by = order ?? spec.defaultOrder;
  if (by && spec.order?.[by]) {
    const key = spec.order[by];
    out = out.map((item, i) => ({ item, i, k: key(item) }))
      .sort((a, b) => (typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : String(a.k).localeCompare(String(b.k))) || a.i - b.i)
      .map((x) => x.item);
  }
  if (direction === 'desc') out.reverse();

  const perPage = perPageAsked ?? (spec.perPage === 'all' ? (page === undefined ? Math.max(out.length, 1) : UNPAGED.max) : spec.perPage.default);
  const p = page ?? 1;
  const result = out.slice((p - 1) * perPage, p * perPage);
  return {
    status: 200,
    body: {
      success: true, errors: [], messages: [], result,
      result_info: { page: p, per_page: perPage, count: result.length, total_count: out.length, total_pages: Math.ceil(out.length / perPage) },
    },
  };
}

const CURSOR = /^o([0-9a-z]{1,8})$/;

/** A cursor list (the rulesets): per_page items from the `cursor`'s offset; result_info.cursor names the next page while there is
 * one (the SDK follows it and stops when it is absent). */
export function cursorReply<T>(q: URLSearchParams, items: readonly T[], perPageBounds: { min: number; max: number; default: number }): ApiReply {
  const perPage = wholeNumber(q, 'per_page', perPageBounds.min, perPageBounds.max);
  if (typeof perPage === 'object') return perPage;
  const size = perPage ?? perPageBounds.default;
  const cursor = q.get('cursor');
  let from = 0;
  if (cursor !== null && cursor !== '') {
    const m = CURSOR.exec(cursor);
    if (!m) return badParam('cursor', 'is not a cursor this list gave', cursor);
    from = parseInt(m[1], 36);
  }
  const result = items.slice(from, from + size);
  const next = from + size < items.length ? `o${(from + size).toString(36)}` : undefined;
  return {
    status: 200,
    body: { success: true, errors: [], messages: [], result, result_info: { per_page: size, count: result.length, ...(next ? { cursor: next } : {}) } },
  };
}
