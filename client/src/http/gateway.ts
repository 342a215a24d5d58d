// Sending a JSON-RPC request body to the gateway and saying what came back, in words: the result, a JSON-RPC error, a batch's
// per-item errors, or the gateway refusing the method (HTTP 403). No vscode.
import type { HttpFail } from './request';
import { describeHttpError, describeRpcError, describeStatus, request, rpcError, sentence, toCurl } from './request';
import { isObj } from './json';
import { parseTree } from 'jsonc-parser';
import { QUANTITY_RESULT_METHODS } from '../../../server/src/protocol';

export interface RpcOk {
  ok: true;
  status: number;
  ms: number;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
  text: string;
  headers: Record<string, string>;
  /** describeRpcResponse(status, body, requestBody). */
  summary: string;
  /** True when the HTTP status is 2xx and no JSON-RPC error came back (in any batch item). */
  success: boolean;
  curl: string;
}

export type RpcResult = RpcOk | (HttpFail & { curl: string });

/** POST a request body (sent as is, so the user's exact text reaches the gateway) with Content-Type: application/json. */
export async function sendJsonRpc(url: string, body: string, opts: { timeoutMs: number; signal?: AbortSignal; embeddedMock?: boolean }): Promise<RpcResult> {
  const req = { method: 'POST', url, headers: { 'Content-Type': 'application/json' }, body, timeoutMs: opts.timeoutMs, signal: opts.signal, embeddedMock: opts.embeddedMock };
  const curl = toCurl(req, { redactSecrets: true });
  const res = await request(req);
  if (!res.ok) return { ...res, curl };
  return {
    ok: true, status: res.status, ms: res.ms, body: res.body, text: res.text, headers: res.headers, curl,
    summary: describeRpcResponse(res.status, res.body, body, res.headers),
    success: res.status >= 200 && res.status < 300 && !hasRpcError(res.body),
  };
}


function hasRpcError(body: unknown): boolean {
  return Array.isArray(body) ? body.some((b) => rpcError(b) !== undefined) : rpcError(body) !== undefined;
}

/**
 * The body without the editor hint "$schema" (a member of the request, or of each batch item), which the request schema allows so
 * that a plain .json file can name it; the gateway gets the JSON-RPC members only. The rest of the text is left as it was, and a body
 * without the member (or that is not JSON) comes back unchanged.
 */
export function withoutEditorHints(body: string): string {
  let text = body;
  // One member per pass, found again in the new text: duplicate "$schema" members, side by side, come out too.
  for (let cut = hintRange(text); cut; cut = hintRange(text)) text = text.slice(0, cut[0]) + text.slice(cut[1]);
  return text;
}

/** The characters to delete for the first "$schema" member (with its comma and the space up to the next member), if any. */
function hintRange(text: string): [number, number] | undefined {
  const root = parseTree(text);
  if (!root) return undefined;
  const objects = root.type === 'object' ? [root] : root.type === 'array' ? (root.children ?? []) : [];
  for (const obj of objects) {
    const props = obj.type === 'object' ? (obj.children ?? []) : [];
    const i = props.findIndex((p) => p.children?.[0]?.value === '$schema');
    if (i < 0) continue;
    const p = props[i];
    if (i + 1 < props.length) return [p.offset, props[i + 1].offset];
    if (i > 0) return [props[i - 1].offset + props[i - 1].length, p.offset + p.length];
    return [p.offset, p.offset + p.length];
  }
  return undefined;
}

/** The method names of a request body (single or batch), in order; empty when the body is not JSON. */
export function requestMethods(requestBody: string | undefined): string[] {
  if (!requestBody) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(requestBody);
  } catch {
    return [];
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  return items.flatMap((i) => (isObj(i) && typeof i.method === 'string' ? [i.method] : []));
}

/** A short JSON rendering for a summary line. */
export function preview(v: unknown, max = 80): string {
  const s = v === undefined ? 'undefined' : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** ", 20 items:" before the preview of an array result the preview cuts (trace_filter's traces, eth_getLogs' logs); "" otherwise. */
function counted(result: unknown): string {
  if (!Array.isArray(result) || JSON.stringify(result).length <= 80) return '';
  return `, ${result.length} item${result.length === 1 ? '' : 's'}:`;
}

function idText(r: Record<string, unknown>): string {
  return 'id' in r ? ` (id ${JSON.stringify(r.id)})` : '';
}

function describeItem(r: unknown): string {
  if (!isObj(r)) return `not a JSON-RPC response: ${preview(r)}`;
  const err = rpcError(r);
  if (err) return `${describeRpcError(err)}${idText(r)}`;
  if ('result' in r) return `result ${preview(r.result)}${idText(r)}`;
  return `neither "result" nor "error"${idText(r)}`;
}

/**
 * One or two sentences describing a gateway response. `requestBody` (optional) lets a 403 name the refused method.
 * 403: the gateway refuses the method. 2xx single: the result or the JSON-RPC error. 2xx batch: counts, then each failing item.
 * 204: a notification (no id) gets no response. Other statuses: describeHttpError.
 */
export function describeRpcResponse(status: number, body: unknown, requestBody?: string, headers?: Record<string, string>): string {
  if (status === 403) {
    const methods = requestMethods(requestBody);
    const which = methods.length === 1 ? `method "${methods[0]}"` : methods.length ? `one of the methods ${methods.map((m) => `"${m}"`).join(', ')}` : 'this method';
    const err = rpcError(body);
    return `HTTP 403: the gateway refuses ${which}; it is not supported there.${err ? ` ${sentence(`JSON-RPC ${describeRpcError(err)}`)}` : ''}`;
  }
  if (status === 204 || (status >= 200 && status < 300 && body === '')) {
    return `HTTP ${status}: no response body (a notification, a request without "id", gets no answer).`;
  }
  if (status < 200 || status > 299) return describeHttpError(status, body, headers);
  if (Array.isArray(body)) {
    const failing = body.filter((b) => !isObj(b) || rpcError(b) !== undefined || !('result' in b));
    const ok = body.length - failing.length;
    const head = `Batch of ${body.length}: ${ok} result${ok === 1 ? '' : 's'}, ${failing.length} error${failing.length === 1 ? '' : 's'}`;
    if (!failing.length) return `${head}.`;
    const shown = failing.slice(0, 5).map(describeItem).join('; ');
    return `${head}: ${shown}${failing.length > 5 ? `; and ${failing.length - 5} more` : ''}.`;
  }
  if (isObj(body)) {
    const err = rpcError(body);
    if (err) return `JSON-RPC ${describeRpcError(err)}${idText(body)}.`;
    if ('result' in body) {
      // A quantity in decimal too, as the request editor's hints show one ("0xfff" = 4,095).
      const methods = requestMethods(requestBody);
      const decimal = methods.length === 1 && QUANTITY_RESULT_METHODS.includes(methods[0]) && typeof body.result === 'string'
        && /^0x(0|[1-9a-f][0-9a-f]{0,63})$/i.test(body.result) ? ` = ${BigInt(body.result).toLocaleString('en')}` : '';
      return `OK: result${counted(body.result)} ${preview(body.result)}${decimal}${idText(body)}.`;
    }
    return `${describeStatus(status)}, but the body is not a JSON-RPC response (no "result" or "error").`;
  }
  if (typeof body === 'string') {
    const flat = body.replace(/\s+/g, ' ').trim();
    return `${describeStatus(status)}, but the body is not JSON: "${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}".`;
  }
  return `${describeStatus(status)}, but the body is not a JSON-RPC response: ${preview(body)}.`;
}
