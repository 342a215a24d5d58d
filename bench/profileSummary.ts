// Summarise a .cpuprofile (from `node --cpu-prof`): self time per function and total (inclusive) time per function, top N.
import { readFileSync } from 'node:fs';

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profileSummary.ts <file.cpuprofile> [top]');
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (f: CallFrame) => {
  const where = f.url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '').replace(/^.*node_modules\//, 'nm:');
  return `${f.functionName || '(anonymous)'} ${where ? `${where}:${f.lineNumber + 1}` : ''}`.trim();
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let sum = 0;
prof.samples.forEach((id, i) => {
  const dt = (prof.timeDeltas[i] ?? 0) / 1000;
  sum += dt;
  const node = byId.get(id)!;
  self.set(label(node.callFrame), (self.get(label(node.callFrame)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const l = label(byId.get(n)!.callFrame);
    if (seen.has(l)) continue;
    seen.add(l);
    total.set(l, (total.get(l) ?? 0) + dt);
  }
});
const show = (title: string, m: Map<string, number>) => {
  process.stdout.write(`${title} (of ${sum.toFixed(0)} ms sampled)\n`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${v.toFixed(0).padStart(7)} ms ${(100 * v / sum).toFixed(1).padStart(5)}%  ${k}\n`);
};
show('Self time', self);
show('Total time', total);
