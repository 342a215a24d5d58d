// Sections 2-4 over LSP: the bundled server as a child process on stdio. Edit latency (didChange + textDocument/diagnostic pull),
// completion and hover on the 0.8 MB batch, RSS with 100 open documents, and server start to first diagnostics.
import type { BenchDoc } from './docs';
import { Editor, memoryOf, openDoc, positionAt, pullDiagnostics, startServer, uriOf } from './lspClient';
import { fmtBytes, fmtMs, median, nowMs, percentile, sample, verdict, type Section } from './stats';

export interface LspBudget {
  warmupEdits: number;
  minEdits: number;
  maxEdits: number;
  /** Per document. */
  budgetMs: number;
  /** Hover / completion requests per measurement. */
  assistRuns: number;
  startRuns: number;
}

export interface EditFigure { doc: string; variant: string; p50: number; p95: number; p99: number; max: number; edits: number; problems: number }
export interface AssistFigure { what: string; p50: number; p95: number; p99: number; runs: number; items: number }

const pct = (s: number[]) => ({ p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99) });

async function timed(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = nowMs();
    await fn();
    out.push(nowMs() - t0);
  }
  return out;
}

export async function runEdits(serverJs: string, docs: BenchDoc[], b: LspBudget, log: (s: string) => void): Promise<{ section: Section; edits: EditFigure[]; assist: AssistFigure[] }> {
  const server = await startServer(serverJs);
  const edits: EditFigure[] = [];
  const assist: AssistFigure[] = [];
  try {
    const { conn } = server;
    for (const d of docs) {
      const uri = uriOf(d.fileName, edits.length + 1);
      await openDoc(conn, uri, d.kind, d.text);
      const first = await pullDiagnostics(conn, uri);
      const editor = new Editor(conn, uri, d.text, d.editOffset);
      const once = async () => {
        await editor.next();
        return pullDiagnostics(conn, uri);
      };
      const samples = await sample(once, { warmup: b.warmupEdits, minRuns: b.minEdits, maxRuns: b.maxEdits, budgetMs: b.budgetMs });
      const f: EditFigure = { doc: d.name, variant: d.variant, ...pct(samples), max: Math.max(...samples), edits: samples.length, problems: first.items?.length ?? 0 };
      edits.push(f);
      log(`  lsp edit ${d.name} ${d.variant}: p50 ${fmtMs(f.p50)} p95 ${fmtMs(f.p95)} p99 ${fmtMs(f.p99)} (${f.edits} edits)`);

      if (d.name.startsWith('batch') && d.variant === 'valid') {
        // Hover on a method name and completion inside a method string, 100 lines below the edit spot (the edit never moves them).
        const line = positionAt(d.text, d.editOffset).line + 100;
        let lineStart = 0;
        for (let i = 0; i < line; i++) lineStart = d.text.indexOf('\n', lineStart) + 1;
        const methodAt = d.text.indexOf('"method":"', lineStart) + '"method":"'.length;
        const hoverPos = positionAt(d.text, methodAt + 3);
        const completePos = positionAt(d.text, methodAt + 4);
        const td = { uri };
        let items = 0;
        const complete = async () => {
          const r = await conn.sendRequest('textDocument/completion', { textDocument: td, position: completePos }) as unknown[] | { items: unknown[] } | null;
          items = Array.isArray(r) ? r.length : r?.items.length ?? 0;
        };
        let hovered = 0;
        const hover = async () => {
          const r = await conn.sendRequest('textDocument/hover', { textDocument: td, position: hoverPos });
          hovered = r ? 1 : 0;
        };
        // Same version (the parse and tree are cached), then right after a one-character edit (the new version must be parsed again).
        await timed(3, complete);
        await timed(3, hover);
        const cSame = await timed(b.assistRuns, complete);
        const hSame = await timed(b.assistRuns, hover);
        const cEdit = await timed(b.assistRuns, async () => { await editor.next(); await complete(); });
        const hEdit = await timed(b.assistRuns, async () => { await editor.next(); await hover(); });
        assist.push(
          { what: 'completion, same version', ...pct(cSame), runs: cSame.length, items },
          { what: 'hover, same version', ...pct(hSame), runs: hSame.length, items: hovered },
          { what: 'completion right after an edit', ...pct(cEdit), runs: cEdit.length, items },
          { what: 'hover right after an edit', ...pct(hEdit), runs: hEdit.length, items: hovered },
        );
        log(`  lsp completion/hover on ${d.name}: ${assist.slice(-4).map((a) => `${a.what} p95 ${fmtMs(a.p95)}`).join(', ')}`);
      }
      await conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
  } finally {
    await server.stop();
  }
  const rows: string[][] = [];
  for (const f of edits) {
    let target = '';
    if (f.doc.startsWith('batch') && f.variant === 'valid') target = `p95 < 30 ms: ${verdict(f.p95 < 30)}`;
    if (f.doc.startsWith('filter') && f.variant === 'valid') target = `p99 < 5 ms: ${verdict(f.p99 < 5)}`;
    rows.push([`edit + pull: ${f.doc}`, f.variant, String(f.problems), fmtMs(f.p50), fmtMs(f.p95), fmtMs(f.p99), String(f.edits), target]);
  }
  for (const a of assist) {
    const gated = a.what.endsWith('after an edit');
    rows.push([`${a.what} (batch)`, 'valid', String(a.items), fmtMs(a.p50), fmtMs(a.p95), fmtMs(a.p99), String(a.runs), gated ? `p95 < 10 ms: ${verdict(a.p95 < 10)}` : 'info']);
  }
  return {
    edits,
    assist,
    section: {
      title: '2. End to end over LSP (stdio, one-character edits)',
      header: ['measurement', 'variant', 'problems/items', 'p50', 'p95', 'p99', 'runs', 'target'],
      rows,
      notes: [
        'edit + pull = didChange (insert or delete one space) followed by textDocument/diagnostic, timed until the report arrives.',
        'The completion/hover targets are judged on the "right after an edit" rows (didChange then the request), the case of a user typing;',
        '"same version" rows repeat the request on an unchanged document, where the server reuses its cached parse.',
      ],
    },
  };
}

export interface MemoryFigure { label: string; baselineRss: number; rss: number; peak: number; docs: number; textBytes: number; problems: number }

/** Open `count` documents (docs in turn) in a fresh server, pull diagnostics for each, then read the server's RSS. */
export async function runMemory(serverJs: string, label: string, docs: BenchDoc[], count: number): Promise<MemoryFigure | undefined> {
  const server = await startServer(serverJs);
  try {
    const baseline = memoryOf(server.pid);
    let textBytes = 0;
    let problems = 0;
    for (let i = 0; i < count; i++) {
      const d = docs[i % docs.length];
      const uri = uriOf(d.fileName, i + 1);
      await openDoc(server.conn, uri, d.kind, d.text);
      problems += (await pullDiagnostics(server.conn, uri)).items?.length ?? 0;
      textBytes += d.text.length;
    }
    await new Promise((r) => setTimeout(r, 200));
    const after = memoryOf(server.pid);
    if (!baseline || !after) return undefined;
    return { label, baselineRss: baseline.rss, rss: after.rss, peak: after.peak, docs: count, textBytes, problems };
  } finally {
    await server.stop();
  }
}

export function memorySection(figures: MemoryFigure[]): Section {
  if (figures.length === 0) {
    return { title: '3. Memory', header: ['measurement', 'value'], rows: [], notes: ['skipped: /proc/<pid>/status is not readable on this system.'] };
  }
  const rows: string[][] = [['RSS after initialize', fmtBytes(figures[0].baselineRss), '', '', '']];
  for (const f of figures) {
    rows.push([`RSS with ${f.docs} open documents: ${f.label}`, fmtBytes(f.rss), fmtBytes(f.textBytes), String(f.problems), `< 150 MB: ${verdict(f.rss < 150 * 1024 * 1024)} (peak ${fmtBytes(f.peak)})`]);
  }
  return {
    title: '3. Memory (server RSS from /proc/<pid>/status, after didOpen + a diagnostics pull for each document)',
    header: ['measurement', 'RSS', 'text opened', 'problems', 'target'],
    rows,
    notes: [
      'heavy = the 8 bench documents in turn (4 kinds x valid/100 errors; 24 copies of the 0.8 MB batch among them, 12 of each variant).',
      'typical = the same, but each batch has 500 requests (85 KB) instead of 5000.',
    ],
  };
}

export interface StartFigure { initializeMs: number; firstDiagnosticsMs: number; runs: number }

/** Spawn to the first diagnostic report of a 1 KB filter (initialize, initialized, didOpen, pull), median over fresh processes. */
export async function runStart(serverJs: string, filter: BenchDoc, runs: number): Promise<StartFigure> {
  const init: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = nowMs();
    const server = await startServer(serverJs);
    try {
      const uri = uriOf(filter.fileName);
      await openDoc(server.conn, uri, filter.kind, filter.text);
      await pullDiagnostics(server.conn, uri);
      first.push(nowMs() - t0);
      init.push(server.initializeMs);
    } finally {
      await server.stop();
    }
  }
  return { initializeMs: median(init), firstDiagnosticsMs: median(first), runs };
}
