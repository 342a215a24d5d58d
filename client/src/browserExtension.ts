// The extension in a browser (vscode.dev, github.dev): the language server runs in a Web Worker (dist/browser/server.js), so every
// check, completion, hover, quick fix, outline and lens works. The commands and the Zones view need Node (the embedded mock, the
// file system, the backends' credentials) and stay hidden there: package.json shows them only where `edgekit.nodeHost` is set,
// which only the Node extension (extension.ts) does, or on VS Code desktop (`!isWeb`), which always runs the Node extension.
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';

/** The extension host's Worker (a web worker extension host has one; the project's TypeScript settings carry no DOM library). */
declare const Worker: new (url: string) => ConstructorParameters<typeof LanguageClient>[3];

const LANGUAGES = ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'];

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const options: LanguageClientOptions = {
    documentSelector: LANGUAGES.map((language) => ({ language })),
    synchronize: { configurationSection: 'edgekit' },
    // VS Code filters completions from the start of the edit range ("Client...), so filterText keeps its quotes, and shows a lens
    // with an empty command id as text (the server's informational lenses). The grammars colour the embedded languages.
    initializationOptions: { rangeFilter: true, textLenses: true, semanticTokens: false },
  };
  const worker = new Worker(vscode.Uri.joinPath(context.extensionUri, 'dist', 'browser', 'server.js').toString(true));
  client = new LanguageClient('edgekit', 'EdgeKit', options, worker);
  await client.start();
  context.subscriptions.push(client);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
