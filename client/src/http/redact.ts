// Masks credentials in text bound for a log or a message. Pure (no vscode), unit-tested.

// A header's name, then `:` or `=` (a header line, a JSON or JS object: "Authorization": "…", authorization: '…').
const HEADER = (name: string) => `(["']?${name}["']?\\s*[:=]\\s*["']?`;
// Built once, not per call: redact() runs on every log line and every error shown.
const AUTHORIZATION = new RegExp(`${HEADER('authorization')}(?:bearer|basic|splunk)\\s+)[^\\s"',}]+`, 'gi');
const AUTH_KEY = new RegExp(`${HEADER('x-auth-(?:key|email)')})[^\\s"',}]+`, 'gi');

/** Masks anything that looks like a credential in a line before it is logged. */
export function redact(text: string): string {
  return text
    // SigV4 (the mock's S3 uploads): the access key id and the signature, wherever they appear
    .replace(/(\bCredential=)[^,\s"'&]+/g, '$1***')
    .replace(/(\bSignature=)[^,\s"'&]+/g, '$1***')
    .replace(AUTHORIZATION, '$1***')
    .replace(AUTH_KEY, '$1***')
    // a bearer token on its own (a token is longer than the words that may follow "Bearer" in prose)
    .replace(/(\bbearer\s+)(?!\*\*\*)[A-Za-z0-9._~+/=-]{8,}/gi, '$1***')
    // the query keys that carry credentials in a Logpush destination_conf (same list as core/rules/logpush/job.ts SECRET_KEY),
    // and those of a presigned S3 URL. Found from its "=", the key looked for behind it: tried from every "?header_", the key's scan
    // to its "=" made a line of them quadratic (rv34)
    .replace(/=(?<=[?&](?:secret-access-key|access-key-secret|access-key-id|sig|api-key|apikey|api_key|token|access_token|password|key|x-amz-signature|x-amz-credential|x-amz-security-token|header_[^=&\s"]*)=)[^&\s"]+/gi, '=***')
    // a Sumo Logic HTTP source's code (sumo://<endpoint>/receiver/v1/http/<code>): whoever has it can send logs to the source
    .replace(/(\/receiver\/v1\/http\/)(?![<*])[^/?\s"'&#]+/gi, '$1***')
    // user:password@ in URLs (the password may hold @: up to the last @ before the path). Found from its "://", the scheme looked
    // for behind it: tried from every word start (\b), the scheme's scan over a long "a.a.a…" or "a-a-a…" run made it quadratic (rv34)
    .replace(/:\/\/(?<=\b[a-z][a-z0-9+.-]*:\/\/)[^/\s"]*@/gi, '://***@')
    // the same in a near-URL whose "://" a typo broke (http//, https:/, https:///, https:\\, s3//, https:://), which a message quotes
    // as written: a scheme not inside a path or a word, then slashes or backslashes, then the user part up to its last @
    .replace(/((?<![\w./+-])[a-z][a-z0-9+.-]*(?::+[/\\]+|[/\\]{2,}))[^/\\\s"]*@/gi, '$1***@')
    // both slashes lost (https:user:pass@host): only a user part holding ":" (a password), so "mailto:me@example.com" and
    // "Contact:me@example.com" stay as written. The password stops at a second ":" (a scan to the line's end from every
    // "word:" made a long "a:a:a:…" line quadratic, seconds per 100 KB)
    .replace(/((?<![\w./+-])[a-z][a-z0-9+.-]*:)[^/\\\s"@:]+:[^/\\\s":]*@/gi, '$1***@');
}
