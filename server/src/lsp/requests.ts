// EdgeKit's custom requests (server/src/protocol.ts): document facts for the status bar and the migration's review, and the
// conversions the client offers as commands (filter <-> job string, Terraform export). The client carries no checking code.
import { RequestType } from './library';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParsedDoc, Problem } from '../core';
import {
  DocumentInfoRequest, FilterToJobStringRequest, JobStringToFilterRequest, ToTerraformRequest,
  type ConvertResult, type CustomRequest, type DocumentInfoResult,
} from '../protocol';
import { core, coreModule, docName, docPlace, kindOf, safe, tooLarge, type ServerContext } from './context';
import type { Diagnostics } from './diagnostics';

/** The typed jsonrpc request of one of protocol.ts's custom requests. */
function requestType<P, R>(r: CustomRequest<P, R>): RequestType<P, R, void> {
  return new RequestType<P, R, void>(r.method);
}

function counts(doc: TextDocument, all: Problem[], within?: { offset: number; length: number }): NonNullable<DocumentInfoResult['problems']> {
  const problems = within ? all.filter((p) => p.offset >= within.offset && p.offset + p.length <= within.offset + within.length) : all;
  const e = problems.find((p) => p.severity === 'error');
  return {
    errors: problems.filter((p) => p.severity === 'error').length,
    warnings: problems.filter((p) => p.severity === 'warning').length,
    firstError: e ? { line: doc.positionAt(e.offset).line, message: e.message, code: e.code } : undefined,
  };
}

/** The send facts of a gateway request, positions for offsets. */
function sendOf(doc: TextDocument, parsed: ParsedDoc): NonNullable<DocumentInfoResult['send']> {
  const { cannotSend, refused } = core().sendInfo(parsed);
  if (!cannotSend) return { refused };
  const at = doc.positionAt(cannotSend.offset);
  return { cannotSend: { title: cannotSend.title, line: at.line, character: at.character, message: cannotSend.message }, refused };
}

export function registerRequests(ctx: ServerContext, diagnostics: Diagnostics): void {
  const { connection, documents, parses, settings } = ctx;

  // The status bar asks for usage only (it counts the diagnostics it already holds); the migration's review asks for problems
  // too, which come from the last check of this version when there was one.
  connection.onRequest(requestType(DocumentInfoRequest.type), async (params): Promise<DocumentInfoResult> => {
    const doc = documents.get(params.uri);
    const kind = doc && kindOf(doc);
    if (!doc || !kind) return { kind: null };
    const s = await settings.get(doc.uri, doc.languageId);
    return safe<DocumentInfoResult>(ctx, 'Document info', doc.uri, { kind }, () => {
      const parsed = tooLarge(doc, s) ? undefined : parses.get(doc);
      const value = parsed?.value as Record<string, unknown> | undefined;
      const dataset = kind === 'logpush-job' && value && typeof value === 'object' ? String(value.dataset ?? 'http_requests') : undefined;
      // The dataset's scopes, or the one a field of that scope only (an account firewall_events job's ZoneName) leaves.
      const scopes = dataset === undefined ? [] : coreModule().catalogue.logpush.jobScopes(value);
      const by = dataset === undefined ? undefined : coreModule().catalogue.logpush.jobScopeField(value);
      return {
        kind,
        usage: parsed && core().filterUsage(kind, parsed),
        job: dataset === undefined ? undefined : { dataset, scope: scopes.length > 1 ? 'both' : scopes[0] ?? 'unknown', ...(by ? { scopeField: by.field } : {}) },
        problems: params.problems ? counts(doc, diagnostics.problemsOf(doc, kind, s), params.within) : undefined,
        send: kind === 'jsonrpc-request' && parsed ? sendOf(doc, parsed) : undefined,
      };
    });
  });

  connection.onRequest(requestType(FilterToJobStringRequest.type), (params): ConvertResult => {
    const doc = documents.get(params.uri);
    if (!doc) return { error: `${docPlace(params.uri)} is not open.` };
    try {
      return { text: core().filterToJobString(doc.getText()) };
    } catch (err) {
      return { error: `The filter in ${docName(doc.uri)} is not valid JSON (${(err as Error).message}); fix the syntax error first.` };
    }
  });

  connection.onRequest(requestType(JobStringToFilterRequest.type), (params): ConvertResult => {
    const doc = documents.get(params.uri);
    if (!doc) return { error: `${docPlace(params.uri)} is not open.` };
    const name = docName(doc.uri);
    const value = parses.get(doc).value as Record<string, unknown> | undefined;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: `${name} is not a Logpush job object.` };
    if (typeof value.filter !== 'string') return { error: `${name} has no "filter" string member.` };
    try {
      // The dataset the job pushes (its default when it names none), which its filter was checked against.
      const dataset = typeof value.dataset === 'string' ? value.dataset : 'http_requests';
      // Given as the literal, so that it is decoded exactly once: a filter string holding a JSON string (a filter serialized twice,
      // which the job check reports) opens as that string, not as the filter it wraps.
      return { text: core().jobStringToFilter(JSON.stringify(value.filter), dataset), dataset };
    } catch (err) {
      // Where in the document, as its diagnostic says it: JSON.parse's "position 399 (line 1 column 400)" counts inside the string
      const parsed = parses.get(doc);
      const filterAt = parsed.locate(['filter']);
      const p = core().validate(doc.getText(), 'logpush-job', { parsed })
        .find((x) => x.code.startsWith('syntax/') && x.offset >= filterAt.offset && x.offset <= filterAt.offset + filterAt.length);
      if (p) {
        const at = doc.positionAt(p.offset);
        return { error: `The "filter" string in ${name} is not valid JSON: ${p.message.replace(/\.$/, '')} (line ${at.line + 1}, column ${at.character + 1} of ${name}).` };
      }
      return { error: `The "filter" string in ${name} is not valid JSON (${(err as Error).message}).` };
    }
  });

  // A kind or phase the resource does not take is the user's to fix ({ error }), a custom ruleset's level the user's to say
  // ({ askScope }): answers, not server failures
  connection.onRequest(requestType(ToTerraformRequest.type), (params) => core().terraformAnswer(params));
}
