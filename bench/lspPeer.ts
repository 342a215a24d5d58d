// Section 6 (issue 18): EdgeKit's language server against VS Code's JSON language server (vscode-json-language-server from
// vscode-langservers-extracted 4.10.0, with schemas/*.schema.json associated), end to end over LSP stdio, side by side in one run.
// The same client (bench/lspClient.ts), the same capabilities (pull diagnostics), the same settings (pushed once after initialized,
// answered to workspace/configuration), the same documents and URIs; EdgeKit gets its language ids, the peer `json`. Every timing
// is interleaved between the servers, so a noisy moment of this shared machine lands on all of them.
//
//   node --import tsx bench/run.ts --only peer [--fresh] [--quick] [--candidate other/server.js]     (npm run bench:peer)
//
// --candidate adds a second EdgeKit build (a prototype) as a third contender in the same interleaved run, so that a change's effect
// is measured against the current build and the peer at the same moment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DOC_KINDS, kinds, type DocKind } from '../server/src/core';
import { batchDoc, filterDoc, sizedDocs, wrongDocs, type BenchDoc } from './docs';
import { Editor, memoryOf, pullDiagnostics, startServer, uriOf, type ServerHandle } from './lspClient';
import { ROOT } from './size';
import { fmtBytes, fmtMs, fmtRatio, median, nowMs, percentile, verdict, type Section } from './stats';

export const PEER_SCRIPT = path.join(ROOT, 'node_modules/vscode-langservers-extracted/bin/vscode-json-language-server');
export const PEER_NAME = 'vscode-json-language-server (vscode-langservers-extracted 4.10.0)';

export interface PeerBudget {
  /** Warm-up opens per document and server (not counted). */
  warmup: number;
  /** Opens per document and server (each a fresh URI). */
  samples: number;
  /** Batch opens per server (the spread is max/min over these), after 2 warm-up opens. */
  batchRuns: number;
  /** Edits of the batch: each EdgeKit build's per round, and rounds (the peer edits once per round). */
  editsPerRound: number;
  editRounds: number;
  /** Fresh processes per server for the cold start. */
  startRuns: number;
}

export const PEER_BUDGET: PeerBudget = { warmup: 10, samples: 200, batchRuns: 7, editsPerRound: 5, editRounds: 30, startRuns: 9 };
export const PEER_BUDGET_QUICK: PeerBudget = { warmup: 3, samples: 40, batchRuns: 7, editsPerRound: 5, editRounds: 6, startRuns: 3 };

/** The goals of issue 18. */
export const GOALS = { openRatio: 0.5, openP99Ms: 3, batchSpeedup: 20, batchSpread: 1.5, editP95Ms: 5, rssMB: 100, startMs: 80 };

/** What the editor holds: EdgeKit's section (defaults) and the peer's, with our schemas associated by file pattern (file:// URLs). */
export function clientSettings(): Record<string, unknown> {
  return {
    edgekit: {},
    json: {
      validate: { enable: true },
      schemas: DOC_KINDS.map((kind) => ({
        fileMatch: kinds.patterns[kind],
        url: pathToFileURL(path.join(ROOT, 'schemas', `${kind}.schema.json`)).href,
      })),
    },
  };
}

export interface Contender {
  /** 'ours', 'candidate' or 'peer'. */
  key: string;
  name: string;
  script: string;
  languageId(kind: DocKind): string;
}

export const edgekit = (serverJs: string, key = 'ours', name = 'EdgeKit'): Contender => ({ key, name, script: serverJs, languageId: (k) => k });
export const PEER: Contender = { key: 'peer', name: 'peer', script: PEER_SCRIPT, languageId: () => 'json' };

interface Running { c: Contender; h: ServerHandle }

const start = async (c: Contender): Promise<Running> => ({ c, h: await startServer(c.script, { settings: clientSettings(), pushSettings: true }) });

interface Diag { range: { start: { line: number } }; message: string }

let seq = 0;

/** didOpen of a fresh URI + textDocument/diagnostic, timed until the report arrives; then didClose (not timed). */
async function openPull(r: Running, d: { kind: DocKind; fileName: string; text: string }, languageId = r.c.languageId(d.kind)): Promise<{ ms: number; items: Diag[] }> {
  const uri = uriOf(d.fileName, ++seq);
  const t0 = nowMs();
  await r.h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text: d.text } });
  const report = await pullDiagnostics(r.h.conn, uri);
  const ms = nowMs() - t0;
  await r.h.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  return { ms, items: (report.items ?? []) as Diag[] };
}

/** The servers in turn, the first one rotating from round to round, so that none always runs right after another's work. */
function rotation<T>(xs: T[], round: number): T[] {
  const k = round % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/** Every server must report a problem starting on each mistake's line of each wrong document; the section fails otherwise. */
async function verify(servers: Running[], log: (s: string) => void): Promise<string[]> {
  const failures: string[] = [];
  const notes: string[] = [];
  for (const w of wrongDocs()) {
    const seen: string[] = [];
    for (const r of servers) {
      const { items } = await openPull(r, w);
      const lines = new Set(items.map((i) => i.range.start.line));
      const missed = w.mistakes.filter((m) => !lines.has(m.line));
      for (const m of missed) failures.push(`${r.c.name} does not flag "${m.what}" (${w.fileName} line ${m.line + 1}); it reported: ${items.map((i) => `${i.range.start.line + 1}: ${i.message}`).join(' | ') || 'nothing'}`);
      seen.push(`${r.c.name} ${w.mistakes.length - missed.length}/${w.mistakes.length} (${items.length} problems)`);
    }
    notes.push(`${w.fileName}: ${seen.join(', ')}`);
  }
  if (failures.length) {
    for (const r of servers) if (r.h.logs.length) log(`  ${r.c.name} log:\n    ${r.h.logs.slice(-20).join('\n    ')}`);
    throw new Error(`the peer comparison is not valid: the servers do not flag the mistakes of the wrong documents:\n  ${failures.join('\n  ')}`);
  }
  log(`  wrong documents: ${notes.join('; ')}`);
  return notes;
}

export interface Stat { median: number; p99: number; max: number }
export interface OpenFigure {
  /** Judged against the goals (the sized documents); the others are shown for information. */
  gated: boolean;
  doc: string; kind: DocKind; bytes: number; samples: number;
  /** Per contender key. */
  by: Record<string, Stat>; problems: Record<string, number>;
}
export interface BatchFigure { doc: string; variant: string; bytes: number; by: Record<string, number[]>; problems: Record<string, number> }
export interface PeerEditFigure { doc: string; variant: string; by: Record<string, { p50: number; p95: number; n: number }> }
export interface PeerStartFigure { what: string; median: number; min: number; max: number; runs: number; firstDiagnostics?: number }
export interface PeerFigures {
  contenders: Contender[];
  open: OpenFigure[]; floor: { doc: string; median: number; p99: number }[]; batch: BatchFigure[]; edits: PeerEditFigure[];
  rss: Record<string, { init: number; after: number } | undefined>; start: PeerStartFigure[]; wrong: string[];
}

export const spreadOf = (xs: number[]): number => Math.max(...xs) / Math.min(...xs);
const stat = (xs: number[]): Stat => ({ median: median(xs), p99: percentile(xs, 99), max: Math.max(...xs) });
const byKey = <T>(servers: Running[], f: () => T): Record<string, T> => Object.fromEntries(servers.map((r) => [r.c.key, f()]));

async function measureOpens(servers: Running[], docs: BenchDoc[], gated: Set<BenchDoc>, b: PeerBudget, log: (s: string) => void): Promise<OpenFigure[]> {
  const out: OpenFigure[] = [];
  for (const d of docs) {
    const s = byKey(servers, () => [] as number[]);
    const problems = byKey(servers, () => 0);
    for (let i = 0; i < b.warmup + b.samples; i++) {
      for (const r of rotation(servers, i)) {
        const { ms, items } = await openPull(r, d);
        if (i >= b.warmup) s[r.c.key].push(ms);
        problems[r.c.key] = items.length;
      }
    }
    const by = Object.fromEntries(Object.entries(s).map(([k, xs]) => [k, stat(xs)]));
    out.push({ gated: gated.has(d), doc: d.name, kind: d.kind, bytes: d.text.length, samples: b.samples, by, problems });
    log(`  open ${d.name}: ${servers.map((r) => `${r.c.name} ${fmtMs(by[r.c.key].median)} (p99 ${fmtMs(by[r.c.key].p99)})`).join(', ')}`);
  }
  return out;
}

/**
 * What no server can avoid: EdgeKit answering a document it does not check (language id plaintext and a .txt name: an empty report,
 * no work). The name matters: a document named like one of ours (*.filter.json) is checked whatever its language id, as other
 * editors send "json" (lsp/context.ts kindOf); until issue 18's profile the floor kept the bench names and so was a full check.
 */
async function measureFloor(ours: Running, docs: BenchDoc[], b: PeerBudget): Promise<{ doc: string; median: number; p99: number }[]> {
  const out: { doc: string; median: number; p99: number }[] = [];
  for (const d of docs) {
    const xs: number[] = [];
    const runs = d.text.length > 100_000 ? b.batchRuns : b.samples;
    for (let i = 0; i < b.warmup + runs; i++) {
      const { ms, items } = await openPull(ours, { ...d, fileName: `${d.fileName}.txt` }, 'plaintext');
      if (items.length) throw new Error(`the floor document ${d.name} was checked (${items.length} problems)`);
      if (i >= b.warmup) xs.push(ms);
    }
    out.push({ doc: d.name, median: median(xs), p99: percentile(xs, 99) });
  }
  return out;
}

async function measureBatch(servers: Running[], docs: BenchDoc[], b: PeerBudget, log: (s: string) => void): Promise<BatchFigure[]> {
  const out: BatchFigure[] = [];
  for (const d of docs) {
    const s = byKey(servers, () => [] as number[]);
    const problems = byKey(servers, () => 0);
    for (let i = 0; i < 2 + b.batchRuns; i++) {
      for (const r of rotation(servers, i)) {
        const { ms, items } = await openPull(r, d);
        if (i >= 2) s[r.c.key].push(ms);
        problems[r.c.key] = items.length;
      }
    }
    out.push({ doc: d.name, variant: d.variant, bytes: d.text.length, by: s, problems });
    log(`  open ${d.name} ${d.variant}: ${servers.map((r) => `${r.c.name} ${s[r.c.key].map(fmtMs).join(', ')}`).join('; ')}`);
  }
  return out;
}

async function measureEdits(servers: Running[], docs: BenchDoc[], b: PeerBudget, log: (s: string) => void): Promise<PeerEditFigure[]> {
  const out: PeerEditFigure[] = [];
  for (const d of docs) {
    const editors = servers.map((r) => {
      const uri = uriOf(d.fileName, ++seq);
      return { r, uri, editor: new Editor(r.h.conn, uri, d.text, d.editOffset), samples: [] as number[] };
    });
    for (const e of editors) {
      await e.r.h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: e.uri, languageId: e.r.c.languageId(d.kind), version: 1, text: d.text } });
      await pullDiagnostics(e.r.h.conn, e.uri);
    }
    for (let round = -1; round < b.editRounds; round++) {
      for (const e of rotation(editors, round + 1)) {
        const n = e.r.c.key === 'peer' ? 1 : b.editsPerRound;
        for (let i = 0; i < n; i++) {
          const t0 = nowMs();
          await e.editor.next();
          await pullDiagnostics(e.r.h.conn, e.uri);
          if (round >= 0) e.samples.push(nowMs() - t0);
        }
      }
    }
    for (const e of editors) await e.r.h.conn.sendNotification('textDocument/didClose', { textDocument: { uri: e.uri } });
    const by = Object.fromEntries(editors.map((e) => [e.r.c.key, { p50: median(e.samples), p95: percentile(e.samples, 95), n: e.samples.length }]));
    out.push({ doc: d.name, variant: d.variant, by });
    log(`  edit ${d.name} ${d.variant}: ${servers.map((r) => `${r.c.name} p95 ${fmtMs(by[r.c.key].p95)} (${by[r.c.key].n})`).join(', ')}`);
  }
  return out;
}

/** RSS of a fresh server after initialize, and after didOpen + a pull of each of `count` documents (docs in turn, none closed). */
async function measureRss(c: Contender, docs: BenchDoc[], count: number): Promise<{ init: number; after: number } | undefined> {
  const r = await start(c);
  try {
    await new Promise((res) => setTimeout(res, 100));
    const init = memoryOf(r.h.pid);
    for (let i = 0; i < count; i++) {
      const d = docs[i % docs.length];
      const uri = uriOf(d.fileName, ++seq);
      await r.h.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: c.languageId(d.kind), version: 1, text: d.text } });
      await pullDiagnostics(r.h.conn, uri);
    }
    await new Promise((res) => setTimeout(res, 200));
    const after = memoryOf(r.h.pid);
    return init && after ? { init: init.rss, after: after.rss } : undefined;
  } finally {
    await r.h.stop();
  }
}

/** The least a Node LSP server can take to answer initialize: node itself, reading one message and writing one. */
const FLOOR_SERVER = `let buf = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  for (;;) {
    const end = buf.indexOf('\\r\\n\\r\\n');
    if (end < 0) return;
    const len = Number(/Content-Length: (\\d+)/i.exec(buf.subarray(0, end).toString())[1]);
    if (buf.length < end + 4 + len) return;
    const msg = JSON.parse(buf.subarray(end + 4, end + 4 + len).toString());
    buf = buf.subarray(end + 4 + len);
    if (msg.method === 'exit') process.exit(0);
    if (msg.id === undefined) continue;
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: msg.method === 'initialize' ? { capabilities: {} } : null });
    process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
  }
});
`;

/**
 * Spawn to the initialize reply, and spawn to the first diagnostics of a 1 KB filter (didOpen + pull right after initialized, what
 * an editor does when it starts the server for a document), medians over fresh processes, the contenders interleaved run by run.
 */
async function measureStart(contenders: { what: string; script: string; c?: Contender }[], doc: BenchDoc, runs: number): Promise<PeerStartFigure[]> {
  const s = contenders.map(() => [] as number[]);
  const first = contenders.map(() => [] as number[]);
  for (let i = 0; i < runs + 1; i++) {
    for (const [j, c] of contenders.entries()) {
      const t0 = nowMs();
      const h = await startServer(c.script, { settings: clientSettings(), pushSettings: true });
      if (c.c) await openPull({ c: c.c, h }, doc);
      const firstMs = nowMs() - t0;
      if (i > 0) { // the first round warms the file cache
        s[j].push(h.initializeMs);
        if (c.c) first[j].push(firstMs);
      }
      await h.stop();
    }
  }
  return contenders.map((c, j) => ({ what: c.what, median: median(s[j]), min: Math.min(...s[j]), max: Math.max(...s[j]), runs, firstDiagnostics: c.c ? median(first[j]) : undefined }));
}

export interface PeerOptions {
  /** A production (minified) build of the same server, for the cold start of what ships. */
  prodServerJs?: string;
  /** A second EdgeKit build (a prototype), measured as a third contender. */
  candidateJs?: string;
}

export async function runPeer(serverJs: string, b: PeerBudget, log: (s: string) => void, opts: PeerOptions = {}): Promise<{ section: Section; figures: PeerFigures }> {
  const sized = sizedDocs();
  const batches = [batchDoc('valid'), batchDoc('errors')];
  const contenders = [edgekit(serverJs), ...(opts.candidateJs ? [edgekit(opts.candidateJs, 'candidate', 'candidate')] : []), PEER];
  const servers: Running[] = [];
  let figures: PeerFigures;
  try {
    for (const c of contenders) servers.push(await start(c));
    const wrong = await verify(servers, log);
    const open = await measureOpens(servers, [...sized, filterDoc('errors')], new Set(sized), b, log);
    const floor = await measureFloor(servers[0], [sized.find((d) => d.name === 'filter-1KB')!, batches[0]], b);
    const batch = await measureBatch(servers, batches, b, log);
    const edits = await measureEdits(servers, batches, b, log);
    figures = { contenders, open, floor, batch, edits, rss: {}, start: [], wrong };
  } finally {
    for (const r of servers) await r.h.stop();
  }
  log('  memory and cold start');
  for (const c of contenders) figures.rss[c.key] = await measureRss(c, sized, 100);
  const dir = mkdtempSync(path.join(tmpdir(), 'edgekit-floor-'));
  try {
    const floorJs = path.join(dir, 'floor.js');
    writeFileSync(floorJs, FLOOR_SERVER);
    figures.start = await measureStart([
      ...contenders.map((c) => ({ what: c.name, script: c.script, c })),
      ...(opts.prodServerJs ? [{ what: 'EdgeKit, production bundle (minified)', script: opts.prodServerJs, c: edgekit(opts.prodServerJs) }] : []),
      { what: 'floor: node answering initialize, nothing loaded', script: floorJs },
    ], sized.find((d) => d.name === 'filter-1KB')!, b.startRuns);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { figures, section: peerSection(figures, b) };
}

export function peerSection(f: PeerFigures, b: PeerBudget): Section {
  const ours = f.contenders.filter((c) => c.key !== 'peer');
  const cell = (s: Stat | undefined) => (s ? `${fmtMs(s.median)} / ${fmtMs(s.p99)}` : '-');
  const runs = (xs: number[]) => `${fmtMs(median(xs))} (${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))}, spread ${fmtRatio(spreadOf(xs))})`;
  const rows: string[][] = [];
  for (const o of f.open) {
    const goal = (k: string) => `≤ ½ peer: ${verdict(o.by[k].median / o.by.peer.median <= GOALS.openRatio)}; p99 < ${GOALS.openP99Ms} ms: ${verdict(o.by[k].p99 < GOALS.openP99Ms)}`;
    rows.push([
      'open → diagnostics', o.gated ? o.doc : `${o.doc} with errors`, fmtBytes(o.bytes), f.contenders.map((c) => o.problems[c.key]).join('/'),
      ...ours.map((c) => cell(o.by[c.key])), cell(o.by.peer), ...ours.map((c) => fmtRatio(o.by.peer.median / o.by[c.key].median)),
      o.gated ? ours.map((c) => goal(c.key)).join(' | ') : 'info',
    ]);
  }
  for (const x of f.batch) {
    const m = (k: string) => median(x.by[k]);
    rows.push([
      `open → diagnostics, ${x.by.peer.length} runs`, `${x.doc} ${x.variant}`, fmtBytes(x.bytes), f.contenders.map((c) => x.problems[c.key]).join('/'),
      ...ours.map((c) => runs(x.by[c.key])), runs(x.by.peer), ...ours.map((c) => fmtRatio(m('peer') / m(c.key))),
      ours.map((c) => `≥ ${GOALS.batchSpeedup}×: ${verdict(m('peer') / m(c.key) >= GOALS.batchSpeedup)}; spread < ${GOALS.batchSpread}×: ${verdict(spreadOf(x.by[c.key]) < GOALS.batchSpread)}`).join(' | '),
    ]);
  }
  for (const e of f.edits) {
    const cellE = (k: string) => `p50 ${fmtMs(e.by[k].p50)}, p95 ${fmtMs(e.by[k].p95)} (${e.by[k].n})`;
    rows.push([
      'one-character edit → diagnostics', `${e.doc} ${e.variant}`, '', '', ...ours.map((c) => cellE(c.key)), cellE('peer'),
      ...ours.map((c) => fmtRatio(e.by.peer.p95 / e.by[c.key].p95)),
      ours.map((c) => `p95 < ${GOALS.editP95Ms} ms: ${verdict(e.by[c.key].p95 < GOALS.editP95Ms)}`).join(' | '),
    ]);
  }
  const rss = (k: string) => { const r = f.rss[k]; return r ? `${fmtBytes(r.init)} → ${fmtBytes(r.after)}` : 'n/a'; };
  rows.push([
    'RSS after initialize → after 100 documents', '12 sized documents in turn', '', '', ...ours.map((c) => rss(c.key)), rss('peer'),
    ...ours.map((c) => (f.rss[c.key] && f.rss.peer ? fmtRatio(f.rss.peer.after / f.rss[c.key]!.after) : '')),
    ours.map((c) => `< ${GOALS.rssMB} MB: ${verdict(f.rss[c.key] && f.rss[c.key]!.after < GOALS.rssMB * 2 ** 20)}`).join(' | '),
  ]);
  const startOf = (what: string) => f.start.find((s) => s.what === what);
  const startCell = (s: PeerStartFigure | undefined) => (s ? `${fmtMs(s.median)} (${fmtMs(s.min)}–${fmtMs(s.max)})${s.firstDiagnostics === undefined ? '' : `; first diagnostics ${fmtMs(s.firstDiagnostics)}`}` : '');
  const peerStart = startOf('peer');
  for (const s of f.start) {
    if (s.what === 'peer') continue;
    const isOurs = ours.some((c) => c.name === s.what);
    rows.push([
      'cold start: spawn → initialize reply', s.what, '', '',
      ...ours.map((c) => (c.name === s.what || (!isOurs && c.key === 'ours') ? startCell(s) : '')),
      isOurs ? startCell(peerStart) : '',
      ...ours.map((c) => (c.name === s.what && peerStart ? fmtRatio(peerStart.median / s.median) : '')),
      s.what.startsWith('floor') ? 'info' : `< ${GOALS.startMs} ms: ${verdict(s.median < GOALS.startMs)}`,
    ]);
  }
  return {
    title: `7. Against VS Code's JSON language server over LSP (stdio, interleaved, same client)`,
    header: [
      'measurement', 'document', 'size', `problems ${f.contenders.map((c) => c.name).join('/')}`,
      ...ours.map((c) => `${c.name} median / p99`), 'peer median / p99', ...ours.map((c) => `peer ÷ ${c.name}`), 'goal (issue 18)',
    ],
    rows,
    notes: [
      `peer = ${PEER_NAME}, run with node --stdio, schemas/*.schema.json associated through json.schemas (file:// URLs, fileMatch = the kinds' file patterns), ` +
      'pushed in workspace/didChangeConfiguration after initialized; EdgeKit gets the same settings object (its edgekit section answers workspace/configuration).',
      'Every server gets the same initialize capabilities (textDocument.diagnostic: pull diagnostics) from bench/lspClient.ts; language ids: EdgeKit its own, the peer json.',
      `open → diagnostics = didOpen of a fresh URI + textDocument/diagnostic, until the report arrives (then didClose); ${b.samples} samples per document and server ` +
      `after ${b.warmup} warm-up opens, the servers taking turns sample by sample (who goes first rotates). p99 is nearest-rank.`,
      `Checked first: on a wrong document of each kind (five mistakes its schema alone can see, one per line) every server reports a problem on every mistake's line: ${f.wrong.join('; ')}.`,
      'The 10 KB filter and job hold 74 and 125 operators: over the platform\'s 30-operator and 1000-byte filter limits, which EdgeKit reports (2 problems) and a schema cannot.',
      `Floor (EdgeKit answering a document it does not check, language id plaintext, named *.txt: the client, the pipe and the message parse only): ` +
      f.floor.map((x) => `${x.doc} ${fmtMs(x.median)} (p99 ${fmtMs(x.p99)})`).join(', ') + '.',
      `Batch: ${b.batchRuns} opens per server after 2 warm-up opens, taking turns; spread = max/min. Edits: a space inserted or deleted inside a request, then a pull; ` +
      `${b.editsPerRound} edits per EdgeKit build then 1 peer edit per round, ${b.editRounds} rounds after one warm-up round.`,
      'RSS from /proc/<pid>/status of a fresh server, 100 ms after initialized and 200 ms after the 100th pull (the 12 sized documents in turn, none closed).',
      `Cold start: ${b.startRuns} fresh processes per row, interleaved, after one warm-up round; the floor is a 20-line node script that answers initialize. ` +
      '"first diagnostics" = spawn to the diagnostics of a 1 KB filter opened right after initialized (schema compile and first-call costs included; no goal).',
    ],
  };
}
