// What commands get: the running pieces of the extension.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { log } from './log';
import type { DocumentStatus } from './statusBar';

export interface Ctx {
  extension: vscode.ExtensionContext;
  client: LanguageClient;
  log: typeof log;
  status: DocumentStatus;
}
