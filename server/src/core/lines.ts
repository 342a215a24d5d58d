// Offset <-> line/character for the CLI and golden files, and the line starts the language server's documents use (lsp/textDocument.ts).
export interface Position { line: number; character: number }

/**
 * The offset at which each line starts, [0, ...]: a line ends at "\n", "\r\n" or a lone "\r", as LSP and
 * vscode-languageserver-textdocument count them. It jumps from one break to the next with indexOf, which runs at memory speed,
 * instead of testing every character (issue 18: 0.2-1.3 ms against 2.7-7 ms for the 0.8 MB batch; docs/benchmarks.md).
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf >= 0 || cr >= 0) {
    if (cr < 0 || (lf >= 0 && lf < cr)) {
      starts.push(lf + 1);
      lf = text.indexOf('\n', lf + 1);
    } else if (lf === cr + 1) {
      starts.push(lf + 1);
      lf = text.indexOf('\n', lf + 1);
      cr = text.indexOf('\r', cr + 2);
    } else {
      starts.push(cr + 1);
      cr = text.indexOf('\r', cr + 1);
    }
  }
  return starts;
}

export class LineTable {
  private readonly starts: number[];
  constructor(text: string) {
    this.starts = lineStarts(text);
  }
  /** 0-based line and character (UTF-16 units), as LSP. */
  position(offset: number): Position {
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }
}

/** The CLI's one-line form, 1-based: `3:5-3:17 error logpush/unknown-field Unknown field "x".` */
export function formatProblemLine(table: LineTable, p: { offset: number; length: number; severity: string; code: string; message: string }): string {
  const s = table.position(p.offset);
  const e = table.position(p.offset + p.length);
  return `${s.line + 1}:${s.character + 1}-${e.line + 1}:${e.character + 1} ${p.severity} ${p.code} ${p.message}`;
}

/** A document's syntax problems as the lenses say them: "syntax error on line 3", or "2 syntax errors, the first on line 2";
 * undefined when it has none. */
export function syntaxErrorsText(doc: { readonly text: string; readonly syntax: readonly { offset: number }[] }): string | undefined {
  const n = doc.syntax.length;
  if (n === 0) return undefined;
  const first = doc.syntax.reduce((a, b) => (b.offset < a.offset ? b : a)).offset;
  const line = new LineTable(doc.text).position(first).line + 1;
  return n === 1 ? `syntax error on line ${line}` : `${n} syntax errors, the first on line ${line}`;
}
