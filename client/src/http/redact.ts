// Masks credentials in text bound for a log or a message. Pure (no vscode), unit-tested.

/** Masks anything that looks like a credential in a line before it is logged. */
export function redact(text: string): string {
  return text
    .replace(/(authorization:\s*bearer\s+)\S+/gi, '$1***')
    .replace(/(x-auth-(?:key|email):\s*)\S+/gi, '$1***')
    // the query keys that carry credentials in a Logpush destination_conf (same list as core/rules/logpush/job.ts SECRET_KEY)
    .replace(/([?&](?:secret-access-key|access-key-secret|access-key-id|sig|api-key|apikey|api_key|token|access_token|password|key|header_[^=&\s"]*)=)[^&\s"]+/gi, '$1***')
    // user:password@ in URLs
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s"@]+@/gi, '$1***@');
}
