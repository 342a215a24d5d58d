// Language features of gateway requests: completion (methods, param object members, block tags, request snippets), hover (methods,
// params, param object members, block tags) and the "Send" lenses. Positions come from the lazily built tree.
import { findNodeAtOffset, getNodePath, type Node as JsonNode } from 'jsonc-parser';
import { callMarkdown, decodeCall, knownCall } from './selectors';
import type { CompletionEntry, HoverInfo, InlayHintInfo, JsonPath, Lens, ParsedDoc, SignatureInfo, Span } from '../../types';
import {
  BLOCK_TAG_DESCRIPTIONS, BLOCK_TAGS, METHOD_BY_NAME, METHODS, OBJECT_KEYS, TYPE_LABELS, UNSUPPORTED_METHODS, UNSUPPORTED_WHAT, signature, signatureParts,
  type KeySpec, type MethodSpec, type ObjectType, type ParamSpec, type ValueType,
} from './catalogue';
import { requestsOf, type RequestRef } from './rules';
import { colonAfter, memberFollows, memberValue, objectAt, valueFollows } from '../../jsonTree';
import { quoteShort, snippetText } from '../../text';
import { tidyMessage } from '../../messages';
import { syntaxErrorsText } from '../../lines';

export const SEND_COMMAND = 'edgekit.gateway.send';
/** The client's command that goes to a request document's first syntax error (the "Cannot send" lens). */
export const SHOW_SYNTAX_ERROR_COMMAND = 'edgekit.gateway.showSyntaxError';

const OBJECT_TYPES: readonly ValueType[] = ['callObject', 'logFilter', 'traceFilter'];
const BLOCK_TYPES: readonly ValueType[] = ['block', 'blockForRange', 'blockOrHash'];

/** Markdown documentation of a method: description, params, result, limits. */
export function methodMarkdown(spec: MethodSpec): string {
  const lines = [`\`\`\`\n${signature(spec)}\n\`\`\``, spec.description];
  if (spec.params.length) {
    lines.push('**Params**', spec.params.map((x, i) => `${i}. \`${x.name}\`${x.required ? '' : ' (optional)'}: ${TYPE_LABELS[x.type]}. ${x.description}`).join('\n'));
  } else {
    lines.push('**Params**: none.');
  }
  lines.push(`**Result**: ${spec.result}`);
  if (spec.limits.length) lines.push(`**Gateway limits**: ${spec.limits.join(' ')}`);
  return lines.join('\n\n');
}

function paramMarkdown(spec: MethodSpec, i: number, p: ParamSpec): string {
  return `**${p.name}**${p.required ? '' : ' (optional)'}: ${TYPE_LABELS[p.type]}\n\n${p.description}\n\nParam ${i} of \`${spec.name}\`.`;
}

function keyMarkdown(name: string, k: KeySpec): string {
  return `**${name}**: ${TYPE_LABELS[k.type]}\n\n${k.description}`;
}

/** The request path and method of a location path ([..., 'params', i, ...] inside a request). */
function split(doc: ParsedDoc, path: JsonPath): { base: JsonPath; rest: JsonPath; spec?: MethodSpec } {
  const base = Array.isArray(doc.value) && typeof path[0] === 'number' ? path.slice(0, 1) : [];
  const rest = path.slice(base.length);
  let req: unknown = doc.value;
  for (const seg of base) req = Array.isArray(req) ? req[seg as number] : undefined;
  const method = req && typeof req === 'object' && !Array.isArray(req) ? (req as Record<string, unknown>).method : undefined;
  return { base, rest, spec: typeof method === 'string' ? METHOD_BY_NAME.get(method) : undefined };
}

/** The value type at a path below params (a param, or a member of a param object). */
function typeAt(spec: MethodSpec, rest: JsonPath): { type: ValueType; param?: ParamSpec; key?: KeySpec } | undefined {
  if (rest[0] !== 'params' || typeof rest[1] !== 'number') return undefined;
  const param = spec.params[rest[1]];
  if (!param) return undefined;
  if (rest.length === 2) return { type: param.type, param };
  if (rest.length === 3 && typeof rest[2] === 'string' && OBJECT_TYPES.includes(param.type)) {
    // Own members only: "constructor" or "__proto__" in a call object is no member of the catalogue.
    const keys = OBJECT_KEYS[param.type as ObjectType];
    const key = Object.hasOwn(keys, rest[2]) ? keys[rest[2]] : undefined;
    return key ? { type: key.type, key } : undefined;
  }
  return undefined;
}

// ---- completion ----

function stringSpan(doc: ParsedDoc, offset: number): Span | undefined {
  const root = doc.treeAround(offset);
  const node = root && findNodeAtOffset(root, offset, true);
  if (node && node.type === 'string' && offset >= node.offset && offset <= node.offset + node.length) return { offset: node.offset, length: node.length };
  return undefined;
}

function placeholder(type: ValueType, n: { i: number }): string {
  const tab = (text: string) => `\${${n.i++}:${snippetText(text)}}`;
  switch (type) {
    case 'quantity': case 'integerOrQuantity': case 'byte': return `"${tab('0x1')}"`;
    case 'address': case 'addressOrNull': case 'addressOrList': return `"${tab('0x0000000000000000000000000000000000000000')}"`;
    case 'hash32': return `"${tab('0x' + '0'.repeat(64))}"`;
    case 'bytes': case 'bytesMax32': case 'signedTransaction': return `"${tab('0x')}"`;
    case 'boolean': return tab('false');
    case 'block': case 'blockForRange': case 'blockOrHash': return `"${tab('latest')}"`;
    case 'percentiles': return `[${tab('25, 75')}]`;
    case 'callObject':
      return `{ "to": "${tab('0x0000000000000000000000000000000000000000')}", "input": "${tab('0x')}" }`;
    case 'logFilter':
      return `{ "fromBlock": "${tab('latest')}", "toBlock": "${tab('latest')}", "address": "${tab('0x0000000000000000000000000000000000000000')}" }`;
    case 'traceFilter':
      return `{ "fromBlock": "${tab('0x1')}", "toBlock": "${tab('0x2')}", "toAddress": ["${tab('0x0000000000000000000000000000000000000000')}"], "count": ${tab('100')} }`;
    default: return `[${tab('')}]`;
  }
}

/** A full request for a method, with its params as placeholders. */
export function requestSnippet(spec: MethodSpec, id = 1): string {
  const n = { i: 1 };
  const params = spec.params.filter((x) => x.required).map((x) => placeholder(x.type, n)).join(', ');
  return `{\n\t"jsonrpc": "2.0",\n\t"method": "${spec.name}",\n\t"params": [${params}],\n\t"id": \${${n.i}:${id}}\n}`;
}

/** The id for a request added to a batch: one above the largest integer id there (responses are matched by id), else 1. */
function nextId(value: unknown): number {
  let max = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const id: unknown = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > max && id < Number.MAX_SAFE_INTEGER) max = id;
    }
  }
  return max + 1;
}

function keyValueSnippet(k: KeySpec): string {
  if (k.type === 'integerOrQuantity') return `\${1:${k.example}}`;
  if (k.example.startsWith('[')) return '[$1]';
  return `"\${1:${snippetText(k.example)}}"`;
}

export function complete(doc: ParsedDoc, offset: number): CompletionEntry[] {
  const loc = doc.locationAt(offset);
  const path = loc.path;
  // A request snippet where a whole request can go: an empty document or an item position of a batch.
  if (!loc.isAtPropertyKey && (path.length === 0 || (path.length === 1 && typeof path[0] === 'number' && loc.previousNode?.type !== 'property'))) {
    if (path.length === 0 && doc.value !== undefined && doc.text.trim() !== '') return [];
    const comma = path.length === 1 && valueFollows(doc.text, offset) ? ',' : ''; // in front of another request of the batch
    const id = nextId(doc.value);
    return METHODS.map((spec, i) => ({
      label: `${spec.name} request`, kind: 'snippet', detail: signature(spec), documentation: methodMarkdown(spec),
      insertText: `${requestSnippet(spec, id)}${comma}`, snippet: true, sortText: `2${String(i).padStart(3, '0')}`, filterText: spec.name,
    }));
  }
  const { rest, spec } = split(doc, path);
  const replace = stringSpan(doc, offset);
  if (rest.length === 1 && rest[0] === 'method' && !loc.isAtPropertyKey) {
    return METHODS.map((m, i) => ({
      label: m.name, kind: 'method', detail: signature(m), documentation: methodMarkdown(m),
      insertText: JSON.stringify(m.name), replace, filterText: replace ? JSON.stringify(m.name) : m.name,
      sortText: `0${String(i).padStart(3, '0')}`,
    }));
  }
  if (!spec) return [];
  if (loc.isAtPropertyKey && rest.length === 3) {
    const holder = typeAt(spec, rest.slice(0, 2));
    if (!holder || !OBJECT_TYPES.includes(holder.type)) return [];
    const root = doc.treeAlong(path);
    const obj = root && objectAt(root, path.slice(0, -1), offset);
    const existing = new Set((obj?.children ?? []).map((p) => String(p.children?.[0]?.value)));
    const nameOnly = !!replace && colonAfter(doc.text, replace); // the key being renamed keeps its value
    const comma = !nameOnly && memberFollows(doc.text, replace ? replace.offset + replace.length : offset) ? ',' : '';
    return Object.entries(OBJECT_KEYS[holder.type as ObjectType]).filter(([name]) => !existing.has(name) || name === rest[2]).map(([name, k], i) => ({
      label: name, kind: 'property', detail: TYPE_LABELS[k.type], documentation: keyMarkdown(name, k),
      insertText: nameOnly ? `"${name}"` : `"${name}": ${keyValueSnippet(k)}${comma}`, snippet: !nameOnly, replace, filterText: `"${name}"`,
      sortText: `0${String(i).padStart(2, '0')}`,
    }));
  }
  if (!loc.isAtPropertyKey) {
    const at = typeAt(spec, rest);
    if (at?.type === 'boolean') {
      // The literal under the cursor (true, fals, "x") is replaced whole.
      const root = doc.treeAround(offset);
      const node = root && findNodeAtOffset(root, offset, true);
      const lit = node && node.type !== 'object' && node.type !== 'array' && node.type !== 'property' ? { offset: node.offset, length: node.length } : undefined;
      return ['true', 'false'].map((v, i) => ({
        label: v, kind: 'constant', detail: at.param?.name ?? 'boolean', documentation: at.param?.description, insertText: v, filterText: v,
        sortText: `0${i}`, ...(lit ? { replace: lit } : {}),
      }));
    }
    if (!at || !BLOCK_TYPES.includes(at.type)) return [];
    const tags = at.type === 'blockForRange' ? BLOCK_TAGS.filter((t) => t !== 'pending') : BLOCK_TAGS;
    return tags.map((t, i) => ({
      label: JSON.stringify(t), kind: 'enum', detail: 'block tag', documentation: BLOCK_TAG_DESCRIPTIONS[t],
      insertText: JSON.stringify(t), replace, filterText: JSON.stringify(t), sortText: `0${i}`,
    }));
  }
  return [];
}


// ---- hover ----

export function hover(doc: ParsedDoc, offset: number): HoverInfo | undefined {
  const root = doc.treeAround(offset);
  const node = root && findNodeAtOffset(root, offset);
  if (!node) return undefined;
  // Between tokens inside an object or array (whitespace, commas), as the schema hover: nothing (a bracket still answers).
  if (node.type === 'property') return undefined;
  if ((node.type === 'object' || node.type === 'array') && offset > node.offset + 1 && offset < node.offset + node.length - 1) return undefined;
  const isKey = node.parent?.type === 'property' && node.parent.children?.[0] === node;
  const path = getNodePath(node);
  const { rest, spec } = split(doc, path);
  const span = { offset: node.offset, length: node.length };
  if (rest.length === 1 && rest[0] === 'method' && !isKey && typeof node.value === 'string') {
    const name = node.value;
    const m = METHOD_BY_NAME.get(name);
    if (m) return { ...span, markdown: methodMarkdown(m) };
    if (UNSUPPORTED_METHODS.includes(name)) return { ...span, markdown: `\`${name}\`: ${UNSUPPORTED_WHAT[name]}.\n\nThe gateway does not support it: it refuses a request for it with HTTP 403.` };
    return undefined;
  }
  if (!spec) return undefined;
  const at = typeAt(spec, rest);
  if (!at) return undefined;
  if (at.key && typeof rest[2] === 'string') return { ...span, markdown: keyMarkdown(rest[2], at.key) + (isKey ? '' : tagNote(at.type, node.value) + callNote(rest[2], node.value)) };
  if (at.param && !isKey && typeof rest[1] === 'number') {
    return { ...span, markdown: paramMarkdown(spec, rest[1], at.param) + tagNote(at.type, node.value) };
  }
  return undefined;
}

// ---- signature help ----

/** Inside a request's params array (a param, or anywhere inside one): the method's signature with that param active. */
export function signatureHelp(doc: ParsedDoc, offset: number): SignatureInfo | undefined {
  // locationAt, not getLocation: in a large batch it scans the request under offset, not the text up to it.
  const loc = doc.locationAt(offset);
  if (loc.isAtPropertyKey && loc.path.length <= 2) return undefined;
  const path = loc.path;
  const { rest, spec } = split(doc, path);
  if (!spec || rest[0] !== 'params' || typeof rest[1] !== 'number' || spec.params.length === 0) return undefined;
  const { label, parameters } = signatureParts(spec);
  const documentation = [spec.description, `**Result**: ${spec.result}`, ...(spec.limits.length ? [`**Gateway limits**: ${spec.limits.join(' ')}`] : [])].join('\n\n');
  return { label, documentation, parameters: parameters.map((at, i) => ({ label: at, documentation: spec.params[i].description })),
    activeParameter: Math.min(rest[1], spec.params.length - 1) };
}

// ---- inlay hints ----

/** Value types whose hex strings are numbers (a block hash is no number: 66 characters). */
const NUMBER_TYPES: readonly ValueType[] = ['quantity', 'integerOrQuantity', ...BLOCK_TYPES];
const HEX_NUMBER = /^0x[0-9a-fA-F]{1,64}$/;

/** "0x1312d00" → "20,000,000"; undefined for what is not worth a hint (not a hex number, or under 10: the same digit). */
export function decimalOf(v: string): string | undefined {
  if (!HEX_NUMBER.test(v) || v.length === 66) return undefined;
  const n = BigInt(v);
  return n < 10n ? undefined : n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Positional params named (methods with two or more: which value is which is the question there), and hex numbers with their decimal
 * value (params and the members of a param object: block ranges, values, gas). Only the requests that touch range are visited; in a
 * large batch the others stay stubs.
 */
export function inlayHints(doc: ParsedDoc, range: Span): InlayHintInfo[] {
  const out: InlayHintInfo[] = [];
  const root = doc.treeAlong([]);
  if (!root) return out;
  const end = range.offset + range.length;
  const inRange = (n: JsonNode) => n.offset <= end && n.offset + n.length >= range.offset;
  const number = (node: JsonNode, type: ValueType | undefined) => {
    if (!type || !NUMBER_TYPES.includes(type) || node.type !== 'string' || !inRange(node)) return;
    const d = decimalOf(String(node.value));
    if (d) out.push({ offset: node.offset + node.length, label: `= ${d}`, kind: 'type', paddingLeft: true });
  };
  const items = root.type === 'array' ? root.children ?? [] : [root];
  for (let k = 0; k < items.length; k++) {
    if (!inRange(items[k]) || items[k].type !== 'object') continue;
    const item = root.type === 'array' ? doc.treeAround(items[k].offset + 1)?.children?.[k] : root;
    if (!item?.children) continue;
    const member = (name: string) => memberValue(item, name);
    const method = member('method');
    const spec = typeof method?.value === 'string' ? METHOD_BY_NAME.get(method.value) : undefined;
    const params = member('params');
    if (!spec || params?.type !== 'array') continue;
    (params.children ?? []).forEach((value, i) => {
      const p = spec.params[i];
      if (!p || !inRange(value)) return;
      if (spec.params.length >= 2) out.push({ offset: value.offset, label: `${p.name}:`, kind: 'parameter', paddingRight: true });
      number(value, p.type);
      if (value.type === 'object' && OBJECT_TYPES.includes(p.type)) {
        for (const prop of value.children ?? []) {
          const key = prop.children?.[0]?.value;
          const v = prop.children?.[1];
          if (typeof key !== 'string' || !v) continue;
          number(v, typeAt(spec, ['params', i, key])?.type);
          // A call's data with a known selector: the function it calls (its name only; the values are the hover's).
          const call = p.type === 'callObject' && CALL_DATA_KEYS.includes(key) && v.type === 'string' && inRange(v) ? knownCall(String(v.value)) : undefined;
          if (call) out.push({ offset: v.offset + v.length, label: call.fn.signature, kind: 'type', paddingLeft: true });
        }
      }
    });
  }
  return out.sort((a, b) => a.offset - b.offset);
}

/** The members of a call object that hold its call data. */
const CALL_DATA_KEYS = ['data', 'input'];

/** A call's data decoded (the function of a known selector and its arguments), for the hover of "data" or "input"; else ''. */
function callNote(key: string, value: unknown): string {
  const call = CALL_DATA_KEYS.includes(key) && typeof value === 'string' ? decodeCall(value) : undefined;
  return call ? `\n\n${callMarkdown(call)}` : '';
}

/** The description of a block tag written as a block value (a param or a filter's fromBlock/toBlock), else ''. */
function tagNote(type: ValueType, value: unknown): string {
  if (!BLOCK_TYPES.includes(type) || typeof value !== 'string' || !Object.hasOwn(BLOCK_TAG_DESCRIPTIONS, value)) return '';
  return `\n\n\`${value}\`: ${BLOCK_TAG_DESCRIPTIONS[value as keyof typeof BLOCK_TAG_DESCRIPTIONS]}`;
}

// ---- lenses ----

/** A method quoted on a lens as a diagnostic's message quotes it: one printable line, a long name cut (tidyMessage). */
const named = (m: string): string => tidyMessage(`"${m}"`);

/**
 * What Send can send of a gateway request document, as its lenses and the Send command say it: when the text does not parse (and
 * is not empty), the lens's sentence and the first syntax error; else the requests whose method the gateway refuses (HTTP 403), by batch index (null
 * for a single request), with the method, and the method as a button quotes it (cut after 40 characters, as messages cut a token).
 */
export interface SendInfo {
  cannotSend?: { title: string; offset: number; length: number; message: string };
  refused: { index: number | null; method: string; quoted: string }[];
}

/** A request whose method the gateway refuses (one it does not support, or a misspelt one: HTTP 403): that method. */
const refusedMethod = (r: RequestRef) => (typeof r.req.method === 'string' && !METHOD_BY_NAME.has(r.req.method) ? r.req.method : undefined);

export function sendInfo(doc: ParsedDoc): SendInfo {
  // An empty document says what goes in it through its own problem (with a fix that writes a first request), not as a syntax error.
  if (doc.syntax.length > 0 && doc.text.trim() === '') return { refused: [] };
  if (doc.syntax.length > 0) {
    const first = doc.syntax.reduce((a, b) => (b.offset < a.offset ? b : a));
    return { cannotSend: { title: `Cannot send: ${syntaxErrorsText(doc)}`, offset: first.offset, length: first.length, message: first.message }, refused: [] };
  }
  return { refused: requestsOf(doc.value).flatMap((r) => { const method = refusedMethod(r); return method === undefined ? [] : [{ index: r.index, method, quoted: quoteShort(method) }]; }) };
}

export function lenses(doc: ParsedDoc): Lens[] {
  // A syntax error: the gateway refuses the whole body, and one member is sent only from a document that parses. The count of
  // jsonc-parser's recovered value was wrong besides (a member lost in the error went uncounted), so the lens says where it is.
  // An empty document says what goes in it through its own problem, which writes a first request.
  if (doc.syntax.length > 0) {
    if (doc.text.trim() === '') return [];
    // A click goes to the error (the client's command; a client that runs none shows the sentence as text).
    return [{ ...doc.locate([]), title: sendInfo(doc).cannotSend!.title, command: SHOW_SYNTAX_ERROR_COMMAND, orText: true }];
  }
  const reqs = requestsOf(doc.value);
  if (reqs.length === 0) return [];
  const out: Lens[] = [];
  // A method the gateway refuses is said on the lens before anything is sent.
  if (Array.isArray(doc.value)) {
    const n = reqs.length;
    const names = reqs.map(refusedMethod).filter((m): m is string => m !== undefined);
    const distinct = [...new Set(names)];
    const which = names.length === 0 ? '' : `, ${names.length} refused: ${distinct.slice(0, 2).map(named).join(', ')}${distinct.length > 2 ? '…' : ''}`;
    out.push({ ...doc.locate([]), title: `Send batch (${n} request${n === 1 ? '' : 's'}${which})`, command: SEND_COMMAND, args: [{ index: null }] });
  }
  for (const r of reqs) {
    const m = refusedMethod(r);
    out.push({ ...doc.locate(r.base), title: m === undefined ? 'Send request' : `Send request (the gateway refuses ${named(m)})`, command: SEND_COMMAND, args: [{ index: r.index }] });
  }
  return out;
}

