// What commands get: the running pieces of the extension.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { log } from './log';
import type { DocumentStatus } from './statusBar';
import type { Backend } from './backend';
import type { Responses } from './views/responses';
import type { ZonesView } from './views/zones';
import type { Ui } from './ui';

export interface Ctx {
  extension: vscode.ExtensionContext;
  client: LanguageClient;
  log: typeof log;
  status: DocumentStatus;
  backend: Backend;
  responses: Responses;
  zones: ZonesView;
  /** Replaceable by tests. */
  ui: Ui;
}
