// Timing, statistics and table helpers shared by the bench sections. Timings use process.hrtime.bigint (monotonic, ns).

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface Budget {
  warmup: number;
  minRuns: number;
  maxRuns: number;
  /** Stop adding runs once this much time was spent (after minRuns). */
  budgetMs: number;
}

/** Time fn repeatedly after warming up; returns the samples in ms (unsorted, in run order). */
export async function sample(fn: () => unknown, b: Budget): Promise<number[]> {
  for (let i = 0; i < b.warmup; i++) await fn();
  const samples: number[] = [];
  const start = nowMs();
  while (samples.length < b.maxRuns && (samples.length < b.minRuns || nowMs() - start < b.budgetMs)) {
    const t0 = nowMs();
    await fn();
    samples.push(nowMs() - t0);
  }
  return samples;
}

/** Nearest-rank percentile (p in 0..100) of samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (samples: readonly number[]): number => {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms < 0.1) return `${(ms * 1000).toFixed(0)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

export const fmtRatio = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 2 : 1)}×` : '-');

/** "PASS" or "MISS" for a measured figure against a target; "n/a" when the figure could not be measured. */
export function verdict(ok: boolean | undefined): string {
  return ok === undefined ? 'n/a' : ok ? 'PASS' : 'MISS';
}

/** A plain-text table with a header row, columns padded to width (numbers right-aligned). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[\d.,]+\s?(µs|ms|KB|MB|B|×|%)?$|^-$/.test(r[i] ?? '')));
  const line = (cells: string[]) => cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A markdown table of the same data (for docs/benchmarks.md). */
export function markdownTable(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${header.map(esc).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

export interface Section {
  title: string;
  header: string[];
  rows: string[][];
  /** Lines printed under the table (notes, skipped reasons). */
  notes: string[];
}
