// Where the client knows a Logpush job document's job lives (opened from the Zones view, or created, updated or proved in a zone or
// an account), told to the language server (edgekit/setJobScope) so that it checks the document as a job of that scope: ZoneName, a
// field of account-level firewall_events jobs only, is an error in a zone's job. No vscode import: the commands tell it, the
// extension sends it and tells a restarted server again.
import type { JobPlace } from './http/api';
import type { JobScope, SetJobScopeParams } from '../../server/src/protocol';

export class JobScopes {
  private readonly known = new Map<string, JobScope>();

  constructor(private readonly send: (params: SetJobScopeParams) => void) {}

  /** The document's job lives at `place` (undefined: no longer known, its job deleted); a change of scope is told. */
  set(uri: string, place: JobPlace | undefined): void {
    const scope: JobScope | undefined = place ? ('account' in place.owner ? 'account' : 'zone') : undefined;
    if (this.known.get(uri) === scope) return;
    if (scope) this.known.set(uri, scope);
    else this.known.delete(uri);
    this.send({ uri, scope: scope ?? null });
  }

  /** Everything known, told again: a server that (re)started knows nothing. */
  resend(): void {
    for (const [uri, scope] of this.known) this.send({ uri, scope });
  }
}
