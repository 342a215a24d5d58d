// The language ids EdgeKit contributes (package.json "contributes.languages"), one per kind of document.
import type * as vscode from 'vscode';

export const LANGUAGE_IDS = ['logpush-filter', 'logpush-job', 'jsonrpc-request', 'waf-ruleset'] as const;

/** The URI schemes the language server gets documents of (the client's document selector). */
export const SERVED_SCHEMES = ['file', 'untitled', 'vscode-remote'] as const;

export function isEdgeKitDocument(doc: vscode.TextDocument): boolean {
  return (LANGUAGE_IDS as readonly string[]).includes(doc.languageId);
}

/** An EdgeKit document the server is sent (not, say, the git: side of a diff). */
export function isServedDocument(doc: vscode.TextDocument): boolean {
  return isEdgeKitDocument(doc) && (SERVED_SCHEMES as readonly string[]).includes(doc.uri.scheme);
}
