// Two server builds on the batch as `npm run bench:peer` opens it (issue 18, third pass): each round starts a fresh server of each
// build in turn (the order alternating from round to round), opens every sized document 20 times (the bench's server has checked
// them before it opens the batch), then the valid batch 9 times and the batch with 100 errors 9 times (open → pull → close, as lspPeer.ts), and runs 200 one-character edits of the batch with errors. Per build it prints the
// median of opens 3 to 9 and their spread (max/min) per round, the edits' p50/p95, and the medians over the rounds. Beside the
// wall-clock time it reads the server's main thread's CPU time per open (/proc/<pid>/task/<pid>/schedstat, in ns), which moves
// less than the wall clock when other processes share the cores (in this VM it still moves with them). The two builds of a round run
// next to each other, so the median of the per-round ratios after ÷ before is the figure that survives a machine whose load drifts.
//   node --import tsx bench/batchSeries.ts <before/server.js> <after/server.js> [rounds=4]
import { readFileSync } from 'node:fs';
import { batchDoc, sizedDocs } from './docs';
import { Editor, pullDiagnostics, startServer, uriOf } from './lspClient';
import { clientSettings } from './lspPeer';
import { median, nowMs, percentile } from './stats';

const [before, after, roundsArg] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: batchSeries.ts <before/server.js> <after/server.js> [rounds]');
const rounds = Number(roundsArg ?? 4);
const docs = [batchDoc('valid'), batchDoc('errors')];
let seq = 0;

interface Round { valid: number[]; errors: number[]; edits: number[]; validCpu: number[]; errorsCpu: number[] }

/** ms the process's main thread has run on a CPU (Linux). */
function cpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

async function series(serverJs: string): Promise<Round> {
  const h = await startServer(serverJs, { settings: clientSettings(), pushSettings: true });
  const out: Round = { valid: [], errors: [], edits: [], validCpu: [], errorsCpu: [] };
  try {
    for (const d of sizedDocs()) {
      for (let i = 0; i < 20; i++) {
        const uri = uriOf(d.fileName, ++seq);
        await h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: d.kind, version: 1, text: d.text } });
        await pullDiagnostics(h.conn, uri);
        await h.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
      }
    }
    for (const d of docs) {
      for (let i = 0; i < 9; i++) {
        const uri = uriOf(d.fileName, ++seq);
        const c0 = cpuMs(h.pid);
        const t0 = nowMs();
        await h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: d.kind, version: 1, text: d.text } });
        await pullDiagnostics(h.conn, uri);
        if (i >= 2) {
          out[d.variant].push(nowMs() - t0);
          out[d.variant === 'valid' ? 'validCpu' : 'errorsCpu'].push(cpuMs(h.pid) - c0);
        }
        await h.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
      }
    }
    const d = docs[1];
    const uri = uriOf(d.fileName, ++seq);
    await h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: d.kind, version: 1, text: d.text } });
    await pullDiagnostics(h.conn, uri);
    const editor = new Editor(h.conn, uri, d.text, d.editOffset);
    for (let i = 0; i < 220; i++) {
      const t0 = nowMs();
      await editor.next();
      await pullDiagnostics(h.conn, uri);
      if (i >= 20) out.edits.push(nowMs() - t0);
    }
  } finally {
    await h.stop();
  }
  return out;
}

const spread = (xs: number[]) => Math.max(...xs) / Math.min(...xs);
const builds = [{ name: 'before', js: before }, { name: 'after', js: after }];
const all = new Map(builds.map((b) => [b.name, [] as Round[]]));

async function main(): Promise<void> {
  for (let r = 0; r < rounds; r++) {
    for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
      const x = await series(b.js);
      all.get(b.name)!.push(x);
      process.stdout.write(`round ${r + 1} ${b.name.padEnd(6)}: valid ${median(x.valid).toFixed(2)} ms (spread ${spread(x.valid).toFixed(2)}×) · ` +
        `errors ${median(x.errors).toFixed(2)} ms (spread ${spread(x.errors).toFixed(2)}×) · server CPU per open ${median(x.validCpu).toFixed(2)} / ${median(x.errorsCpu).toFixed(2)} ms · edits p50 ${median(x.edits).toFixed(2)} / p95 ${percentile(x.edits, 95).toFixed(2)} ms\n`);
    }
  }
  const [xb, xa] = [all.get('before')!, all.get('after')!];
  const ratio = (f: (x: Round) => number) => median(xa.map((a, i) => f(a) / f(xb[i]))).toFixed(2);
  process.stdout.write(`after ÷ before, median of the per-round ratios: valid ${ratio((x) => median(x.valid))} · errors ${ratio((x) => median(x.errors))} · ` +
    `errors spread ${ratio((x) => spread(x.errors))} · server CPU ${ratio((x) => median(x.validCpu))} / ${ratio((x) => median(x.errorsCpu))} · ` +
    `edits p50 ${ratio((x) => median(x.edits))} / p95 ${ratio((x) => percentile(x.edits, 95))}\n`);
  for (const b of builds) {
    const xs = all.get(b.name)!;
    const m = (f: (x: Round) => number) => median(xs.map(f)).toFixed(2);
    process.stdout.write(`${b.name.padEnd(6)} medians over ${xs.length} rounds: valid ${m((x) => median(x.valid))} (spread ${m((x) => spread(x.valid))}×) · ` +
      `errors ${m((x) => median(x.errors))} (spread ${m((x) => spread(x.errors))}×) · server CPU ${m((x) => median(x.validCpu))} / ${m((x) => median(x.errorsCpu))} · edits p50 ${m((x) => median(x.edits))} / p95 ${m((x) => percentile(x.edits, 95))}\n`);
  }
}

main().catch((err) => { process.stderr.write(`${(err as Error).stack ?? err}\n`); process.exitCode = 1; });
