// The management API's envelope {success, errors, messages, result[, result_info]}, as every route of the mock answers it.
// Errors and messages are {code, message}; an error may carry the platform's error_chain (the causes of a 6003 "Invalid request
// headers", for instance) and source.pointer (where in the body it is).

/** `source.pointer`: where in the request body the error is, as a JSON Pointer (the platform's errors carry it). */
export interface EnvelopeMessage { code: number; message: string; error_chain?: EnvelopeMessage[]; source?: { pointer: string } }
export interface Envelope {
  success: boolean;
  errors: EnvelopeMessage[];
  messages: EnvelopeMessage[];
  result: unknown;
  result_info?: Record<string, number | string>;
}
export interface ApiReply { status: number; body: Envelope }

export function ok(result: unknown, messages: EnvelopeMessage[] = [], status = 200): ApiReply {
  return { status, body: { success: true, errors: [], messages, result } };
}

export function fail(status: number, code: number, message: string, more: EnvelopeMessage[] = []): ApiReply {
  return failMany(status, [{ code, message }, ...more]);
}

export function failMany(status: number, errors: EnvelopeMessage[]): ApiReply {
  return { status, body: { success: false, errors, messages: [], result: null } };
}

/** The platform's answer to a path no route has: HTTP 400, code 7000 (the path is named after its wording). */
export function noRoute(path: string): ApiReply {
  return fail(400, 7000, `No route for that URI ("${path}").`);
}
