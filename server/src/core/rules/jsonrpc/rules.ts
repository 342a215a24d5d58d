// Semantic rules of gateway requests. They work on doc.value and locate only what they report.
import type { Edit, Fix, JsonPath, ParsedDoc, Problem, Rule, RuleContext, Span } from '../../types';
import { quoteList } from '../../messages';
import { METHOD_BY_NAME, UNSUPPORTED_INSTEAD, UNSUPPORTED_METHODS, UNSUPPORTED_WHY, type MethodSpec } from './catalogue';
import { callDataNotes, checkSpecParamsAndAddresses, nearMethods, rangeNotes, show, type ParamIssue } from './params';
import { inexactInteger, isObj, pastSafeInteger, valueAt } from '../../json';
import { nodeAt } from '../../parse';

export interface RequestRef {
  /** Path of the request object in the document: [] for a single request, [i] in a batch. */
  base: JsonPath;
  /** Batch index, or null for a single request. */
  index: number | null;
  req: Record<string, unknown>;
}


/** The request objects of a document (a single request, or the object items of a batch). */
export function requestsOf(value: unknown): RequestRef[] {
  if (isObj(value)) return [{ base: [], index: null, req: value }];
  if (!Array.isArray(value)) return [];
  const out: RequestRef[] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (isObj(item)) out.push({ base: [i], index: i, req: item });
  }
  return out;
}

/** An edit adding `"name": valueText` as a new first (or last) member of the object at path, in the object's own layout. */
export function insertMember(doc: ParsedDoc, path: JsonPath, name: string, valueText: string, where: 'first' | 'last'): Edit | undefined {
  const root = doc.treeAlong(path);
  const obj = root && nodeAt(root, path);
  if (!obj || obj.type !== 'object') return undefined;
  const member = `${JSON.stringify(name)}: ${valueText}`;
  const props = obj.children ?? [];
  if (props.length === 0) return { offset: obj.offset + 1, length: 0, newText: member };
  const anchor = where === 'first' ? props[0] : props[props.length - 1];
  const lineStart = doc.text.lastIndexOf('\n', anchor.offset - 1) + 1;
  const lead = doc.text.slice(lineStart, anchor.offset);
  // The anchor's own line break: a CRLF document must not get a lone LF (Fix all, lint --fix).
  const eol = lineStart >= 2 && doc.text[lineStart - 2] === '\r' ? '\r\n' : '\n';
  const sep = /^[ \t]*$/.test(lead) ? `${eol}${lead}` : ' ';
  return where === 'first'
    ? { offset: anchor.offset, length: 0, newText: `${member},${sep}` }
    : { offset: anchor.offset + anchor.length, length: 0, newText: `,${sep}${member}` };
}

function replaceFix(title: string, span: Span, newText: string): Fix {
  return { title, edits: [{ offset: span.offset, length: span.length, newText }], preferred: true };
}

/** "The request" or "Request 12", built only for a message. */
function whereOf(r: RequestRef): string {
  return r.index === null ? 'The request' : `Request ${r.index}`;
}

function envelope(doc: ParsedDoc, ctx: RuleContext, r: RequestRef, out: Problem[]): void {
  const { req, base } = r;
  // After a syntax error a member may be missing only because the parser lost it: report absences on clean documents only.
  const clean = doc.syntax.length === 0;
  if (req.jsonrpc === undefined && clean) {
    const edit = insertMember(doc, base, 'jsonrpc', '"2.0"', 'first');
    out.push(ctx.report('jsonrpc/missing-version', `${whereOf(r)} has no "jsonrpc" member; the gateway expects "jsonrpc": "2.0".`,
      doc.locate([...base, 'jsonrpc']), edit ? { fixes: [{ title: 'Add "jsonrpc": "2.0"', edits: [edit], preferred: true }] } : {}));
  } else if (req.jsonrpc !== undefined && req.jsonrpc !== '2.0') {
    // Any other value, a number such as 2.0 included: one problem with the fix, where the schema alone says "must be a string" and
    // "must be "2.0"" on the same span (schema problems on a span a rule reports are dropped).
    const span = doc.locate([...base, 'jsonrpc']);
    out.push(ctx.report('jsonrpc/wrong-version', `"jsonrpc" must be "2.0", not ${show(req.jsonrpc)}.`, span,
      { fixes: [replaceFix('Replace with "2.0"', span, '"2.0"')] }));
  }
  if (req.method === undefined && clean) {
    out.push(ctx.report('jsonrpc/missing-method', `${whereOf(r)} has no "method" member.`, doc.locate([...base, 'method'])));
  }
  if (req.id === undefined && clean) {
    out.push(ctx.report('jsonrpc/missing-id', `${whereOf(r)} has no "id", so it is a notification: the gateway does not answer it, and an error in its method or params goes unreported.`,
      doc.locate([...base, 'id'])));
  } else if (req.id === null) {
    out.push(ctx.report('jsonrpc/null-id', 'The id is null, which JSON-RPC allows but discourages: the response carries "id": null, as does an error about a request whose id could not be read; the gateway documents integer ids.',
      doc.locate([...base, 'id'])));
  } else if (pastSafeInteger(req.id)) {
    // JSON-RPC 2.0 allows any Number, but a reader that uses doubles (JSON.parse in a JavaScript server, proxy or client) reads
    // 12345678901234567891 as 12345678901234567000 and echoes or matches that (docs/architecture.md, "JSON numbers past 2^53").
    const span = doc.locate([...base, 'id']);
    const digits = inexactInteger(doc.text.slice(span.offset, span.offset + span.length), req.id);
    if (digits !== undefined) {
      out.push(ctx.report('jsonrpc/inexact-id', `The id ${digits} is past 2^53: a JSON reader that uses doubles (JavaScript's JSON.parse) reads it as a double and writes it back as ${String(req.id)}, so a response echoed by one does not carry this id; use an integer up to 9007199254740991, or a string.`,
        span, { fixes: [{ title: `Write the id as the string "${digits}"`, edits: [{ ...span, newText: `"${digits}"` }] }] }));
    }
  } else if (typeof req.id === 'string') {
    const span = doc.locate([...base, 'id']);
    const fixes = /^(0|[1-9][0-9]{0,14})$/.test(req.id) ? [replaceFix(`Replace with the integer ${req.id}`, span, req.id)] : undefined;
    out.push(ctx.report('jsonrpc/string-id', `The id ${show(req.id)} is a string; the gateway documents integer ids.`, span, fixes ? { fixes } : {}));
  }
}

function methodProblems(doc: ParsedDoc, ctx: RuleContext, r: RequestRef, out: Problem[]): void {
  const method = r.req.method;
  if (typeof method !== 'string') return;
  const span = doc.locate([...r.base, 'method']);
  if (UNSUPPORTED_METHODS.includes(method)) {
    // Not preferred: it asks another question (the logs now, not a filter to poll), so Fix all leaves it to the user.
    const instead = UNSUPPORTED_INSTEAD[method];
    out.push(ctx.report('jsonrpc/unsupported-method', `The gateway does not support "${method}"; it refuses the request with HTTP 403. ${UNSUPPORTED_WHY[method]}`, span,
      instead ? { fixes: [{ title: `Ask "${instead}" for the logs the filter matches now`, edits: [{ ...span, newText: JSON.stringify(instead) }] }] } : {}));
    return;
  }
  const near = nearMethods(method);
  // Spec, "What the service does" 1: every method outside the supported subset is refused with HTTP 403, not only the listed ones.
  const hint = near.length
    ? `; did you mean ${quoteList(near)}? The gateway refuses a method it does not support with HTTP 403.`
    : '; the gateway refuses a method it does not support with HTTP 403.';
  out.push(ctx.report('jsonrpc/unknown-method', `Unknown method "${method}"${hint}`, span,
    near.length ? { fixes: near.map((n, i) => ({ title: `Change to "${n}"`, edits: [{ offset: span.offset, length: span.length, newText: JSON.stringify(n) }], preferred: i === 0 })) } : {}));
}

/**
 * The issues found in a params object, per object, for an edited document (issue 18). They depend on the method and the params
 * value only, and a parsed document's values are never changed; an edit inside one request of a batch re-parses that request alone
 * and keeps the other requests' objects (parse/windowIndex.ts), so from the second edit on each edit checks the params of the edited
 * request only. A document just opened does not fill it: most are never edited, and 5000 entries cost a batch's open 10 to 20%.
 */
const PARAM_ISSUES = new WeakMap<object, { spec: MethodSpec; issues: ParamIssue[] | undefined }>();

/** The value issues and range notes of a supported method's params, or undefined when there are none. */
function paramIssues(spec: MethodSpec, params: unknown, edit: boolean): ParamIssue[] | undefined {
  if (!edit || params === null || typeof params !== 'object') return computeParamIssues(spec, params);
  const hit = PARAM_ISSUES.get(params);
  if (hit && hit.spec === spec) return hit.issues;
  const issues = computeParamIssues(spec, params);
  PARAM_ISSUES.set(params, { spec, issues });
  return issues;
}

function computeParamIssues(spec: MethodSpec, params: unknown): ParamIssue[] | undefined {
  const { issues: values, addresses } = checkSpecParamsAndAddresses(spec, params);
  const ranges = rangeNotes(spec.name, params);
  const calls = callDataNotes(spec, params);
  const some = calls.length === 0 ? ranges : ranges.length === 0 ? calls : [...ranges, ...calls];
  const notes = addresses.length === 0 ? some : [...some, ...addresses];
  if (values.length === 0) return notes.length === 0 ? undefined : notes;
  return notes.length === 0 ? values : [...values, ...notes];
}

function paramProblems(doc: ParsedDoc, ctx: RuleContext, r: RequestRef, issues: ParamIssue[], out: Problem[]): void {
  for (const issue of issues) {
    let span = doc.locate([...r.base, 'params', ...issue.path], issue.part ?? 'value');
    // Part of a string value: its characters are where they seem when the JSON string holds no escape (one more for the quote).
    if (issue.within && doc.text[span.offset] === '"' && !doc.text.slice(span.offset, span.offset + span.length).includes('\\')) {
      span = { offset: span.offset + 1 + issue.within[0], length: issue.within[1] - issue.within[0] };
    }
    const extra: Partial<Problem> = {};
    let message = issue.message;
    let replacement = issue.replacement;
    // A number JSON.parse rounded: the message quotes the document's digits, and a QUANTITY's fix is their exact hex.
    const value = issue.part === 'key' ? undefined : valueAt(r.req.params, issue.path);
    const digits = pastSafeInteger(value) ? inexactInteger(doc.text.slice(span.offset, span.offset + span.length), value) : undefined;
    if (digits !== undefined) {
      message = message.split(String(value)).join(digits);
      if (replacement === undefined && issue.code === 'jsonrpc/invalid-quantity' && !digits.startsWith('-')) replacement = `0x${BigInt(digits).toString(16)}`;
    }
    if (replacement !== undefined) {
      const text = JSON.stringify(replacement);
      const fix = replaceFix(issue.part === 'key' ? `Rename to ${text}` : `Replace with ${text}`, span, text);
      extra.fixes = [issue.choice ? { ...fix, preferred: false } : fix];
    } else if (issue.append && Array.isArray(r.req.params) && r.req.params.length > 0) {
      const values = issue.append.map((v) => JSON.stringify(v)).join(', ');
      const last = doc.locate([...r.base, 'params', r.req.params.length - 1]);
      extra.fixes = [{ title: `Add ${values}`, edits: [{ offset: last.offset + last.length, length: 0, newText: `, ${values}` }], preferred: false }];
    } else if (issue.wrapInArray) {
      extra.fixes = [{ title: 'Wrap in [ ]', edits: [{ offset: span.offset, length: 0, newText: '[' }, { offset: span.offset + span.length, length: 0, newText: ']' }], preferred: true }];
    }
    out.push(ctx.report(issue.code ?? 'jsonrpc/invalid-param', message, span, extra));
  }
}

function duplicateIds(doc: ParsedDoc, ctx: RuleContext, batch: unknown[], out: Problem[]): void {
  // Numbers and strings apart (1 and "1" are different ids); keys are quoted only for a message. Ids that only ever increase (the
  // usual 1, 2, 3...) cannot repeat: numbers then go through no map at all.
  let increasing = true;
  let last = -Infinity;
  let strings = false;
  for (let i = 0; i < batch.length; i++) {
    const item: unknown = batch[i];
    if (!isObj(item)) continue;
    const id = item.id;
    if (typeof id === 'number') {
      if (id <= last) { increasing = false; break; }
      last = id;
    } else if (typeof id === 'string') {
      strings = true;
    }
  }
  if (increasing && !strings) return;
  const firstNumber = new Map<number, number>();
  const firstString = new Map<string, number>();
  const firstBig = new Map<string, number>();
  for (let i = 0; i < batch.length; i++) {
    const item: unknown = batch[i];
    if (!isObj(item)) continue;
    const id = item.id;
    let prev: number | undefined;
    let key: string | undefined;
    if (pastSafeInteger(id)) {
      // Two ids JSON.parse reads as one double (12345678901234567891 and ...892) are two ids to a server that keeps the digits
      // (geth): compared, and quoted, by their text; jsonrpc/inexact-id tells the rest.
      if (increasing) continue;
      const span = doc.locate([i, 'id']);
      key = doc.text.slice(span.offset, span.offset + span.length);
      prev = firstBig.get(key);
      if (prev === undefined) { firstBig.set(key, i); continue; }
    } else if (typeof id === 'number') {
      if (increasing) continue;
      prev = firstNumber.get(id);
      if (prev === undefined) { firstNumber.set(id, i); continue; }
    } else if (typeof id === 'string') {
      prev = firstString.get(id);
      if (prev === undefined) { firstString.set(id, i); continue; }
    } else {
      continue;
    }
    key ??= JSON.stringify(id);
    const firstSpan = doc.locate([prev, 'id']);
    out.push(ctx.report('jsonrpc/duplicate-id', `The id ${key} is already used by request ${prev}; responses are matched by id.`,
      doc.locate([i, 'id']), { related: [{ ...firstSpan, message: `First use of the id ${key}.` }] }));
  }
}

export const requestRule: Rule = {
  id: 'jsonrpc/request',
  kinds: ['jsonrpc-request'],
  check(doc, ctx) {
    // The valid path of a 5000-request batch allocates nothing per request: a RequestRef is made only for a request with a problem.
    const out: Problem[] = [];
    const value = doc.value;
    if (isObj(value)) {
      checkRequest(doc, ctx, value, null, out);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (isObj(item)) checkRequest(doc, ctx, item, i, out);
      }
      duplicateIds(doc, ctx, value, out);
    }
    return out;
  },
};

/**
 * The requests of an edited document found to have no problem (PARAM_ISSUES's policy: an opened document does not fill it). A request
 * object is never changed and its verdict depends on nothing else (duplicate ids are checked on the batch), so from the second edit
 * on only the edited request and the ones with problems are looked at.
 */
const CLEAN = new WeakSet<object>();

function checkRequest(doc: ParsedDoc, ctx: RuleContext, req: Record<string, unknown>, index: number | null, out: Problem[]): void {
  const edit = doc.edit === true;
  if (edit && CLEAN.has(req)) return;
  const method = req.method;
  const spec = typeof method === 'string' ? METHOD_BY_NAME.get(method) : undefined;
  // The common case, a well-formed envelope of a supported method whose params are fine, reports nothing and builds nothing.
  const envelopeOk = req.jsonrpc === '2.0' && spec !== undefined && typeof req.id === 'number' && !pastSafeInteger(req.id);
  const issues = spec ? paramIssues(spec, req.params, edit) : undefined;
  if (envelopeOk && spec && issues === undefined) {
    if (edit) CLEAN.add(req);
    return;
  }
  const r: RequestRef = { base: index === null ? [] : [index], index, req };
  if (!envelopeOk) envelope(doc, ctx, r, out);
  if (spec) {
    if (issues) paramProblems(doc, ctx, r, issues, out);
  } else {
    methodProblems(doc, ctx, r, out);
  }
}
