// Masks credentials in text bound for a log or a message. Pure (no vscode), unit-tested.

// A header's name, then `:` or `=` (a header line, a JSON or JS object: "Authorization": "…", authorization: '…').
const HEADER = (name: string) => `(["']?${name}["']?\\s*[:=]\\s*["']?`;
// Built once, not per call: redact() runs on every log line and every error shown.
const AUTHORIZATION = new RegExp(`${HEADER('authorization')}(?:bearer|basic|splunk)\\s+)[^\\s"',}]+`, 'gi');
const AUTH_KEY = new RegExp(`${HEADER('x-auth-(?:key|email)')})[^\\s"',}]+`, 'gi');

// the query keys that carry credentials in a Logpush destination_conf (same list as core/rules/logpush/job.ts SECRET_KEY), and those
// of a presigned S3 URL. Found from its "=", the key looked for behind it: tried from every "?header_", the key's scan to its "="
// made a line of them quadratic (rv34)
export const QUERY_KEY = /=(?<=[?&](?:secret-access-key|access-key-secret|access-key-id|sig|api-key|apikey|api_key|token|access_token|password|key|x-amz-signature|x-amz-credential|x-amz-security-token|header_[^=&\s"]*)=)[^&\s"]+/gi;
// user:password@ in URLs (the password may hold @: up to the last @ before the path). Found from its "://", the scheme looked for
// behind it: tried from every word start (\b), the scheme's scan over a long "a.a.a…" or "a-a-a…" run made it quadratic (rv34)
export const USERINFO = /:\/\/(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^/\s"]*@/gi;

/** redact()'s masks, [expression, replacement] in the order applied; exported for its test, whose reference puts the earlier
 * forms of QUERY_KEY and USERINFO in their place. */
export const MASKS: readonly (readonly [RegExp, string])[] = [
  // SigV4 (the mock's S3 uploads): the access key id and the signature, wherever they appear
  [/(\bCredential=)[^,\s"'&]+/g, '$1***'],
  [/(\bSignature=)[^,\s"'&]+/g, '$1***'],
  [AUTHORIZATION, '$1***'],
  [AUTH_KEY, '$1***'],
  // a bearer token on its own (a token is longer than the words that may follow "Bearer" in prose)
  [/(\bbearer\s+)(?!\*\*\*)[A-Za-z0-9._~+/=-]{8,}/gi, '$1***'],
  [QUERY_KEY, '=***'],
  // a Sumo Logic HTTP source's code (sumo://<endpoint>/receiver/v1/http/<code>): whoever has it can send logs to the source
  [/(\/receiver\/v1\/http\/)(?![<*])[^/?\s"'&#]+/gi, '$1***'],
  [USERINFO, '://***@'],
  // the same in a near-URL whose "://" a typo broke (http//, https:/, https:///, https:\\, s3//, https:://, https;//), which a message
  // quotes as written: a scheme not inside a path or a word, then slashes or backslashes (after one colon or more, a semicolon and
  // two, or none and two), then the user part up to its last @. Tried from the start of a run of scheme characters only
  [/((?<![\w./+-])[a-z][a-z0-9+.-]*(?::+[/\\]+|;[/\\]{2,}|[/\\]{2,}))[^/\\\s"]*@/gi, '$1***@'],
  // a space after the colon (http: //user:pass@host): only a user part holding ":" (a password), so "Note: //me@example.com" stays
  // as written; the password stops at a second ":" as below
  [/((?<![\w./+-])[a-z][a-z0-9+.-]*:[ \t]+[/\\]{2,})[^/\\\s"@:]+:[^/\\\s":]*@/gi, '$1***@'],
  // both slashes lost (https:user:pass@host): only a user part holding ":" (a password), so "mailto:me@example.com" and
  // "Contact:me@example.com" stay as written. The password stops at a second ":" (a scan to the line's end from every "word:" made
  // a long "a:a:a:…" line quadratic, seconds per 100 KB)
  [/((?<![\w./+-])[a-z][a-z0-9+.-]*:)[^/\\\s"@:]+:[^/\\\s":]*@/gi, '$1***@'],
];

/** Masks anything that looks like a credential in a line before it is logged. */
export function redact(text: string): string {
  let out = text;
  for (const [re, to] of MASKS) out = out.replace(re, to);
  return out;
}
