// Read-only documents of delivered Logpush batches (scheme edgekit-delivery): "Open Last Delivery" shows a batch's NDJSON lines as
// the mock delivered them, named after the object, without an untitled buffer that asks to be saved when it is closed.
import * as vscode from 'vscode';
import type { Delivery, MockControl } from '../http/mockControl';

export const DELIVERY_SCHEME = 'edgekit-delivery';

/** edgekit-delivery:/job 3/20261125T170038Z_20261125T170108Z_b88a35a7.ndjson?<delivery id> */
export function deliveryUri(d: Delivery): vscode.Uri {
  const base = (d.object.split('/').pop() ?? d.id).replace(/\.gz$/, '').replace(/\.log$/, '') + '.ndjson';
  return vscode.Uri.from({ scheme: DELIVERY_SCHEME, path: `/job ${d.job}/${base}`, query: d.id });
}

export class DeliveredBatches implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly registration: vscode.Disposable;
  /** Lines the command already fetched, read once by the document that opens next (a batch can be megabytes). */
  private readonly primed = new Map<string, string>();

  constructor(private readonly mock: () => Promise<MockControl>) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(DELIVERY_SCHEME, this);
  }

  prime(uri: vscode.Uri, lines: string): void {
    this.primed.set(uri.toString(), lines);
  }

  /** Drops lines primed for a document that was open already (VS Code did not ask for them). */
  release(uri: vscode.Uri): void {
    this.primed.delete(uri.toString());
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const primed = this.primed.get(uri.toString());
    if (primed !== undefined) {
      this.primed.delete(uri.toString());
      return primed;
    }
    const lines = await (await this.mock()).deliveryLines(uri.query);
    // The error is shown in place (the lines of an old batch the mock no longer keeps, a stopped mock).
    return lines.ok ? lines.result : `// ${lines.error}\n`;
  }

  dispose(): void {
    this.registration.dispose();
  }
}
