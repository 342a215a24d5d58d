// The zone a ruleset document is the configuration of, where the client opened it as that: a migration's review (the untitled
// <zone>.ruleset.json, and the file it is saved as while the review follows it) and a zone's configuration opened from the Zones
// view. Test Rules sends it (edgekit/testRules `zone`) so that the generated sample's requests go to that zone, as Test Filter's go
// to a job's zone (JobScopes.zoneOf). Known while the document stays open; forgotten when it closes. No vscode import: the commands
// tell it, the extension hands it the close events.

/** What a close event gives: the document's URI, and whether it is closed now (a change of language closes and opens the same
 * document, which stays open: isClosed false, and the zone is kept). */
export interface ClosedDocument { uri: { toString(): string }; isClosed: boolean }

export class RulesetZones {
  private readonly known = new Map<string, string>();

  /** The document at `uri` is the configuration of the zone named `zone`. */
  set(uri: string, zone: string): void {
    this.known.set(uri, zone);
  }

  /** The name of the zone the document is the configuration of, when the client opened it as that and it has not closed since. */
  zoneOf(uri: string): string | undefined {
    return this.known.get(uri);
  }

  /** Forgets each document that closes; `onDidClose` is workspace.onDidCloseTextDocument. */
  forgetOnClose(onDidClose: (listener: (doc: ClosedDocument) => void) => { dispose(): unknown }): { dispose(): unknown } {
    return onDidClose((doc) => { if (doc.isClosed) this.known.delete(doc.uri.toString()); });
  }
}
