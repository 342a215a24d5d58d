// Core Problem (offsets) -> LSP Diagnostic (positions). A diagnostic carries no quick fixes: a code action request finds them in the
// problems the server kept for the text (DiagnosticsService.problemsOf), so a check never works out edits nobody asks for (lazy
// fixes, core/fix.ts) and the report stays the size of its diagnostics (a 10 KB job's was five times that with its fixes).
import type { Diagnostic, Position, TextEdit } from 'vscode-languageserver';
import { DiagnosticSeverity, DiagnosticTag } from './library';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Edit, Problem, Severity, Span } from '../core';
import { SOURCE } from '../protocol';
import { coreModule } from './context';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

export function range(doc: TextDocument, span: Span) {
  return { start: doc.positionAt(span.offset), end: doc.positionAt(span.offset + span.length) };
}

/** The offset of a position whose character counts the line's UTF-8 bytes (as Neovim 0.7-0.9 send a diagnostic back), or undefined
 * when that count ends inside a character or past the line. */
export function utf8ColumnOffset(doc: TextDocument, pos: Position): number | undefined {
  const lineStart = doc.offsetAt({ line: pos.line, character: 0 });
  const line = doc.getText({ start: { line: pos.line, character: 0 }, end: { line: pos.line + 1, character: 0 } });
  let bytes = 0;
  let i = 0;
  while (bytes < pos.character && i < line.length) {
    const c = line.codePointAt(i)!;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    i += c > 0xffff ? 2 : 1;
  }
  return bytes === pos.character ? lineStart + i : undefined;
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
  return d;
}
