// Offset <-> line/character for the CLI and golden files (the LSP layer uses TextDocument.positionAt, which agrees).
export interface Position { line: number; character: number }

export class LineTable {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      } else if (c === 10) this.starts.push(i + 1);
    }
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
