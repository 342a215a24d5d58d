// Where the client knows a Logpush job document's job lives (opened from the Zones view, or created, updated or proved in a zone or
// an account), told to the language server (edgekit/setJobScope) so that it checks the document as a job of that scope: ZoneName, a
// field of account-level firewall_events jobs only, is an error in a zone's job. No vscode import: the commands tell it, the
// extension sends it and tells a restarted server again.
import type { JobPlace } from './http/api';
import type { JobScope, SetJobScopeParams } from '../../server/src/protocol';
import { jobIdOf, MAX_ID_CHARS } from './jobText';

export class JobScopes {
  /** By URI: the scope, the "id" of the job the document named when it was told (undefined for a created job's template), and
   * whether the server holds it now (not while an edit makes the document name another job); the zone's name for a zone's job. */
  private readonly known = new Map<string, { scope: JobScope; id: unknown; told: boolean; zone?: string }>();

  constructor(private readonly send: (params: SetJobScopeParams) => void) {}

  /** The document's job (`id`) lives at `place` (undefined: no longer known, its job deleted); a change of scope is told. */
  set(uri: string, place: JobPlace | undefined, id?: unknown): void {
    const scope: JobScope | undefined = place ? ('account' in place.owner ? 'account' : 'zone') : undefined;
    const was = this.known.get(uri);
    if (scope) this.known.set(uri, { scope, id, told: true, ...(place && 'zone' in place.owner ? { zone: place.ownerName } : {}) });
    else this.known.delete(uri);
    // What the server holds now: the scope told, or none (never told, or forgotten while the document named another job).
    const held = was?.told ? was.scope : undefined;
    if (held === scope) return;
    this.send({ uri, scope: scope ?? null });
  }

  /**
   * The document's text changed: while it names another job than the one told (its "id" edited), the server forgets the scope, and
   * is told it again when the document names that job again (an undo), as the place the client remembers holds while the id does.
   */
  edited(uri: string, text: string | (() => string)): void {
    const k = this.known.get(uri);
    if (!k) return;
    const t = typeof text === 'string' ? text : text();
    if (t.length > MAX_ID_CHARS) return; // not read: what it was told holds
    const same = jobIdOf(t) === k.id;
    if (same === k.told) return;
    k.told = same;
    this.send({ uri, scope: same ? k.scope : null });
  }

  /** The name of the zone the document's job lives in, while the document names that job (an account's job has none). */
  zoneOf(uri: string): string | undefined {
    const k = this.known.get(uri);
    return k?.told ? k.zone : undefined;
  }

  /** Everything known, told again: a server that (re)started knows nothing. */
  resend(): void {
    for (const [uri, k] of this.known) if (k.told) this.send({ uri, scope: k.scope });
  }
}
