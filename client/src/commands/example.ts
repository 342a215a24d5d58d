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

export const exampleCommands = {
  'edgekit.openExample': (ctx: Ctx) => async () => {
    const uri = await freeUntitledUri('example.filter.json');
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    // Opened before (and perhaps being tried): shown as it is.
    const doc = open && open.getText() !== '' ? await vscode.window.showTextDocument(open, { preview: false }).then((e) => e.document)
      : await showUntitledText(uri, EXAMPLE_TEXT);
    if (doc.languageId !== 'logpush-filter') await vscode.languages.setTextDocumentLanguage(doc, 'logpush-filter');
    ctx.log.info(`Example with mistakes: ${uri.toString()}${open ? ' (shown again)' : ''}.`);
  },
};
