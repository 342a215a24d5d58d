// "A JSON object" (not null, not an array) for the client's HTTP layer. The core has its own (server/src/core/json.ts): the
// extension imports no checking code (docs/architecture.md), and the activation bundle stays free of it.
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
