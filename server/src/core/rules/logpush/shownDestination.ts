// A destination_conf without its credentials, for messages: the extension's and the mock's. Pure, no imports.

/**
 * A Logpush destination_conf as messages show it, the client's ownership proofs keep it and the mock labels its deliveries:
 * without its query and fragment (credentials and options ride there: header_ values, keys, a SAS), without a user name and
 * password before its host (`https://user:pass@host/`, up to the last "@" before the path, as the URL parser reads it, so a
 * password holding an "@" goes whole), and a Sumo Logic one without its collector code (`sumo://<endpoint>/receiver/v1/http/<code>`:
 * the code is the HTTP source's credential). One function for the client and the mock (rv28: the mock's copy showed the code),
 * in a module of its own with no imports, which the extension may import (test/unit/imports.test.ts).
 */
export function shownDestination(conf: string): string {
  const d = conf.trim().replace(/[?#].*$/s, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/]*@/i, '$1');
  if (!/^sumo:\/\//i.test(d)) return d;
  const m = /^(sumo:\/\/[^/]*\/receiver\/v1\/http\/)[^/]/i.exec(d);
  return m ? `${m[1]}…` : d.replace(/^(sumo:\/\/[^/]*)\/.+$/is, '$1/…');
}
