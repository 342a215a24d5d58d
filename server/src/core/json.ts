// The one test for "a JSON object" (not null, not an array) that every part of the core uses.
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
