// The fast suite in four processes (run two at a time, one per core) instead of one per test file: each shard requires a quarter
// of test/unit's *.test.ts files, so the TypeScript loader and the core are set up four times, not 70 (that set-up was half of the
// suite's wall time). The files are dealt by their size, largest first, in turn; four shards let the runner even out the cores. `node --import tsx --test <file>` still runs any
// one test file alone.
import * as fs from 'node:fs';
import * as path from 'node:path';

const UNIT = path.resolve(__dirname, '..');

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'shards' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}

export function runShard(index: number, count: number): void {
  const files = testFiles(UNIT).map((f) => ({ f, size: fs.statSync(f).size })).sort((a, b) => b.size - a.size || a.f.localeCompare(b.f));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  files.forEach(({ f }, i) => { if (i % count === index) require(f); });
}
