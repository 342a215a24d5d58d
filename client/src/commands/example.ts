// "EdgeKit: Open an Example with Mistakes": an untitled Logpush filter whose mistakes the checker flags, each with a quick fix to
// try: the walkthrough's first step, so that "Show Problems" has something to show in a workspace with no EdgeKit file yet.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { freeUntitledUri, showUntitledText } from '../untitled';

/** A filter with four kinds of mistake (a misspelt field, an operator its type does not take, "in" with one value, a trailing
 * comma); a unit test holds that each is flagged and has a quick fix. */
export const EXAMPLE_TEXT = `{
  "where": {
    "and": [
      { "key": "ClientCountyr", "operator": "eq", "value": "ca" },
      { "key": "BotScore", "operator": "startsWith", "value": "3" },
      { "key": "EdgeResponseStatus", "operator": "in", "value": 403 },
    ]
  }
}
`;

/** A gateway request to send, with no mistake: what Send Request offers in a workspace that has no *.rpc.json (the walkthrough's
 * "Send a gateway request" in any workspace). */
export const EXAMPLE_REQUEST_TEXT = `[
  { "jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 1 },
  { "jsonrpc": "2.0", "method": "eth_getBalance", "params": ["0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae", "latest"], "id": 2 }
]
`;

const EXAMPLES: Record<string, { name: string; language: string; text: string; what: string }> = {
  'logpush-filter': { name: 'example.filter.json', language: 'logpush-filter', text: EXAMPLE_TEXT, what: 'Example with mistakes' },
  'jsonrpc-request': { name: 'example.rpc.json', language: 'jsonrpc-request', text: EXAMPLE_REQUEST_TEXT, what: 'Example request' },
};

export const exampleCommands = {
  /** The filter with mistakes, or with "jsonrpc-request" a request to send. */
  'edgekit.openExample': (ctx: Ctx) => async (kind?: unknown) => {
    const example = EXAMPLES[typeof kind === 'string' && Object.hasOwn(EXAMPLES, kind) ? kind : 'logpush-filter'];
    const uri = await freeUntitledUri(example.name);
    // Opened before (and perhaps being tried): shown as it is. Opened, not looked up among workspace.textDocuments: a tab restored
    // from a hot-exit backup is not listed there until it is shown, and the example was written over its text.
    const open = await vscode.workspace.openTextDocument(uri);
    const again = open.getText() !== '';
    const doc = again ? await vscode.window.showTextDocument(open, { preview: false }).then((e) => e.document)
      : await showUntitledText(uri, example.text);
    if (doc.languageId !== example.language) await vscode.languages.setTextDocumentLanguage(doc, example.language);
    ctx.log.info(`${example.what}: ${uri.toString()}${again ? ' (shown again)' : ''}.`);
  },
};
