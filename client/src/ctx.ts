// What commands get: the running pieces of the extension.
import type * as vscode from 'vscode';
import type { LanguageServer } from './languageServer';
import type { log } from './log';
import type { DocumentStatus } from './statusBar';
import type { Backend } from './backend';
import type { Responses } from './views/responses';
import type { ZonesView } from './views/zones';
import type { SecurityEventsView } from './views/securityEvents';
import type { DeliveredBatches } from './views/deliveries';
import type { Reports } from './views/reports';
import type { Ui } from './ui';
import type { JobScopes } from './jobScopes';
import type { RulesetZones } from './rulesetZones';

export interface Ctx {
  extension: vscode.ExtensionContext;
  /** The language server, started on first need. */
  server: LanguageServer;
  /** Where the job documents' jobs live, as the commands learnt it, told to the server. */
  jobScopes: JobScopes;
  /** The zone a ruleset document is the configuration of (a migration's review, a zone's configuration opened from the view). */
  rulesetZones: RulesetZones;
  log: typeof log;
  status: DocumentStatus;
  backend: Backend;
  responses: Responses;
  zones: ZonesView;
  securityEvents: SecurityEventsView;
  /** Read-only documents of delivered Logpush batches. */
  deliveries: DeliveredBatches;
  /** Read-only reports of Test Filter and Test Rules. */
  reports: Reports;
  /** Replaceable by tests. */
  ui: Ui;
}
