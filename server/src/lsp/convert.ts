// Core Problem (offsets) -> LSP Diagnostic (positions). Quick fixes travel in Diagnostic.data so code actions are stateless.
import type { Diagnostic, TextEdit } from 'vscode-languageserver';
import { DiagnosticSeverity, DiagnosticTag } from './library';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Edit, Fix, Problem, Severity, Span } from '../core';
import { SOURCE } from '../protocol';
import { coreModule, textStamp } from './context';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

/** What a diagnostic carries for its code actions: its fixes, and the document version and text (textStamp) their edits were made
 * for. */
export interface DiagnosticData { fixes: { title: string; preferred?: boolean; edits: TextEdit[] }[]; version?: number; text?: string }

export function range(doc: TextDocument, span: Span) {
  return { start: doc.positionAt(span.offset), end: doc.positionAt(span.offset + span.length) };
}

export function toTextEdit(doc: TextDocument, e: Edit): TextEdit {
  return { range: range(doc, e), newText: e.newText };
}

export function toDiagnostic(doc: TextDocument, p: Problem, opts: { relatedInformation: boolean; docsUri?: string }): Diagnostic {
  const d: Diagnostic = {
    range: range(doc, p), severity: SEVERITY[p.severity], source: SOURCE, code: p.code, message: p.message,
  };
  if (opts.docsUri) d.codeDescription = { href: `${opts.docsUri}#${coreModule().codes.anchor(p.code)}` };
  if (p.tags?.length) d.tags = p.tags.map((t) => (t === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
  if (opts.relatedInformation && p.related?.length) {
    d.relatedInformation = p.related.map((r) => ({ location: { uri: doc.uri, range: range(doc, r) }, message: r.message }));
  }
  if (p.fixes?.length) {
    const data: DiagnosticData = { fixes: p.fixes.map((f: Fix) => ({ title: f.title, preferred: f.preferred, edits: f.edits.map((e) => toTextEdit(doc, e)) })), version: doc.version, text: textStamp(doc) };
    d.data = data;
  }
  return d;
}
