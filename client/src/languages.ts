// The language ids EdgeKit contributes (package.json "contributes.languages"), one per kind of document.
import type * as vscode from 'vscode';

export const LANGUAGE_IDS = ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'] as const;

export function isEdgeKitDocument(doc: vscode.TextDocument): boolean {
  return (LANGUAGE_IDS as readonly string[]).includes(doc.languageId);
}
