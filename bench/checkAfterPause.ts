// What a small document's check costs in the server, where it runs after the process has waited for a message, against the same
// check run back to back (issue 18, ninth look in docs/benchmarks.md). Section 1 times checks back to back, with the code and data
// they touch in the CPU's caches; in the language server every check follows a wait for the client (the pipe, the other process
// running), and the same check takes several times longer. Both are the shipped core bundle (dist/serverCore.js) on a fresh copy
// of the text each time; "after a pause" waits one timer turn (about 1 ms) before each check, the modes alternating in rounds.
//   node --import tsx bench/checkAfterPause.ts [documents=filter-1KB,job-1KB,ruleset-0.2KB,rpc-1KB] [checks per round=500]
import * as path from 'node:path';
import { loadCore } from './core';
import { sizedDocs } from './docs';
import { ROOT } from './size';
import { median } from './stats';

const names = (process.argv[2] ?? 'filter-1KB,job-1KB,ruleset-0.2KB,rpc-1KB').split(',');
const n = Number(process.argv[3] ?? 500);
const core = loadCore(path.join(ROOT, 'dist/serverCore.js')).getLanguageService();
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

function once(text: string, kind: Parameters<typeof core.validate>[1]): number {
  const fresh = (` ${text}`).slice(1); // a new string, as each message's JSON.parse gives the server
  const t0 = process.hrtime.bigint();
  core.validate(fresh, kind, { logpushDataset: 'http_requests' });
  return Number(process.hrtime.bigint() - t0) / 1e3;
}

async function main(): Promise<void> {
  process.stdout.write(`check of one document, µs (median of ${n} per round, 3 rounds; the shipped core bundle)\n\n`);
  process.stdout.write('| document | back to back | after a pause | ratio |\n|---|---|---|---|\n');
  for (const name of names) {
    const doc = sizedDocs().find((d) => d.name === name);
    if (!doc) throw new Error(`no sized document ${name}: ${sizedDocs().map((d) => d.name).join(', ')}`);
    for (let i = 0; i < 200; i++) once(doc.text, doc.kind);
    const warm: number[] = [];
    const cold: number[] = [];
    for (let round = 0; round < 3; round++) {
      const w: number[] = [];
      for (let i = 0; i < n; i++) w.push(once(doc.text, doc.kind));
      warm.push(median(w));
      const c: number[] = [];
      for (let i = 0; i < n; i++) { await pause(); c.push(once(doc.text, doc.kind)); }
      cold.push(median(c));
    }
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' / ');
    process.stdout.write(`| ${name} | ${fmt(warm)} | ${fmt(cold)} | ${(median(cold) / median(warm)).toFixed(1)}× |\n`);
  }
}

main().catch((err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exitCode = 1; });
