// The fast suite in four processes (run two at a time, one per core) instead of one per test file: each shard requires a quarter
// of test/unit's *.test.ts files, so the TypeScript loader and the core are set up four times, not 70 (that set-up was half of the
// suite's wall time). Each file goes to the shard its path's hash names: a deal that nothing but the file's name decides, so that
// the four shards, which deal on their own as each starts, agree even while files change (dealt by size, a file edited between two
// shards' starts ran twice or not at all). Four shards let the runner even out the cores. `node --import tsx --test <file>` still
// runs any one test file alone.
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

/** FNV-1a of the path under test/unit, with '/' separators. */
function hashOf(file: string): number {
  const name = path.relative(UNIT, file).split(path.sep).join('/');
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The test files shard `index` of `count` runs, in name order. */
export function shardFiles(index: number, count: number): string[] {
  return testFiles(UNIT).filter((f) => hashOf(f) % count === index).sort();
}

export function runShard(index: number, count: number): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const f of shardFiles(index, count)) require(f);
}
