// `npm run bench`: EdgeKit's performance report (issue "Performance"). Prints one table per section, PASS/MISS next to each
// target, and ONE final line of JSON (the summary). A report, not a test: nothing here fails on a slow figure.
//
//   node --import tsx bench/run.ts [--quick] [--fresh] [--only core,lsp,memory,size,mock,eval,scaling,peer] [--markdown FILE]
//
// --quick     fewer runs and 1 s mock loads (a smoke run in well under a minute)
// --fresh     run the LSP sections on a server bundled from the current sources into a temporary folder (default: dist/server.js,
//             built with `node esbuild.mjs` when missing)
// --only      run only the named sections
// --markdown  also write the tables as markdown to FILE (for docs/benchmarks.md)
// --candidate section 6 (peer) also runs this second EdgeKit server bundle, interleaved with the others (A/B of a prototype)
import { execFileSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { batchDoc, benchDocs, filterDoc, jobDoc, rulesetDoc } from './docs';
import { loadCore, runCore, type CoreFigure } from './core';
import { memorySection, runEdits, runMemory, runStart, type AssistFigure, type EditFigure, type MemoryFigure, type StartFigure } from './lsp';
import { buildBundles, removeBundles, ROOT, sizeSection, type BuiltBundles, type SizeFigure } from './size';
import { runMock, runMockLife, type MockFigure } from './mock';
import { runEval } from './eval';
import { markdownTable, median, nowMs, table, type Budget, type Section } from './stats';
import { GROWTH_LIMIT, runScaling } from './scaling';
import type { LspBudget } from './lsp';
import { newestMtime } from './lspClient';
import { GOALS, PEER_BUDGET, PEER_BUDGET_QUICK, runPeer, spreadOf, type OpenFigure, type PeerFigures } from './lspPeer';

const SECTIONS = ['core', 'lsp', 'memory', 'size', 'mock', 'eval', 'scaling', 'peer'] as const;
type SectionName = (typeof SECTIONS)[number];

interface Args { quick: boolean; fresh: boolean; only: Set<SectionName>; markdown?: string; candidate?: string }

function parseArgs(argv: string[]): Args {
  const a: Args = { quick: false, fresh: false, only: new Set(SECTIONS) };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--quick') a.quick = true;
    else if (name === '--fresh') a.fresh = true;
    else if (name === '--markdown') a.markdown = value();
    else if (name === '--candidate') a.candidate = path.resolve(value() ?? '');
    else if (name === '--only') {
      const names = (value() ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const bad = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
      if (bad.length || names.length === 0) throw new Error(`--only takes a comma-separated list of ${SECTIONS.join(', ')}; got "${bad.join(',')}".`);
      a.only = new Set(names as SectionName[]);
    } else throw new Error(`Unknown option "${argv[i]}". Options: --quick, --fresh, --only <sections>, --markdown <file>, --candidate <server.js>.`);
  }
  return a;
}

const log = (s: string) => process.stderr.write(s + '\n');


interface Target { name: string; value: number; unit: string; limit: string; pass: boolean }

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const t0 = nowMs();
  const coreBudget: Budget = args.quick ? { warmup: 1, minRuns: 3, maxRuns: 30, budgetMs: 300 } : { warmup: 3, minRuns: 10, maxRuns: 300, budgetMs: 1500 };
  const lspBudget: LspBudget = args.quick
    ? { warmupEdits: 2, minEdits: 10, maxEdits: 200, budgetMs: 600, assistRuns: 10, startRuns: 2 }
    : { warmupEdits: 5, minEdits: 30, maxEdits: 600, budgetMs: 2500, assistRuns: 100, startRuns: 5 };
  const mockSeconds = args.quick ? 1 : 5;
  const sections: Section[] = [];
  const targets: Target[] = [];
  const summary: Record<string, unknown> = {
    bench: 'edgekit', date: new Date().toISOString(), node: process.version, platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length, cpu: os.cpus()[0]?.model.trim(), quick: args.quick,
  };
  const notes: string[] = [];
  const docs = benchDocs();

  // ---- the server under test
  let serverJs = path.join(ROOT, 'dist/server.js');
  let freshBuild: BuiltBundles | undefined;
  const needServer = args.only.has('lsp') || args.only.has('memory') || args.only.has('size') || args.only.has('peer');
  if (needServer && args.fresh) {
    freshBuild = await buildBundles(false);
    serverJs = freshBuild.server;
    notes.push('LSP sections ran on a server bundled from the current sources (--fresh), with esbuild.mjs\'s dev options.');
  } else if (needServer) {
    if (!existsSync(serverJs)) {
      log('dist/server.js is missing: building it with node esbuild.mjs');
      execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
    }
    if (newestMtime(path.join(ROOT, 'server/src')) > statSync(serverJs).mtimeMs) {
      notes.push('WARNING: dist/server.js is older than server/src; the LSP figures are for the old build (run `npm run build` or pass --fresh).');
    }
  }

  /** The core's bundle as it ships (this run's fresh build, else dist/serverCore.js), for the in-process sections. */
  const shippedCore = (): string | undefined => freshBuild?.serverCore ?? (existsSync(path.join(ROOT, 'dist/serverCore.js')) ? path.join(ROOT, 'dist/serverCore.js') : undefined);

  try {
    // ---- 1. core in process
    if (args.only.has('core')) {
      log('1. core in process');
      // The core as it ships (the run's fresh bundle, else dist/serverCore.js), as the LSP sections measure the server
      const bundled = shippedCore();
      if (bundled && !freshBuild && newestMtime(path.join(ROOT, 'server/src')) > statSync(bundled).mtimeMs) {
        notes.push('WARNING: dist/serverCore.js is older than server/src; section 1 measured the old build (run `npm run build` or pass --fresh).');
      }
      if (!bundled) notes.push('Section 1 ran on the core\'s sources through tsx (no bundle): expect it 1.4-2x slower than what ships.');
      const { section, figures } = await runCore(docs, coreBudget, log, loadCore(bundled));
      const which = freshBuild ? 'this run\'s fresh bundle' : path.relative(ROOT, bundled ?? '');
      section.notes.push(bundled ? `ours = the core's bundle as the server loads it (${which}), not its sources through tsx.` : 'ours = the core\'s sources through tsx.');
      sections.push(section);
      summary.core = Object.fromEntries(figures.map((f: CoreFigure) => [`${f.doc}:${f.variant}`, {
        bytes: f.bytes, oursMs: round(f.oursMs), jsonlsMs: round(f.jsonlsMs), jsonParseMs: round(f.parseMs),
        oursOverParse: round(f.oursMs / f.parseMs), jsonlsOverOurs: round(f.jsonlsMs / f.oursMs), problems: f.oursProblems, runs: f.runs,
        ...(f.floorMs === undefined ? {} : { floorMs: round(f.floorMs), jsonlsOverFloor: round(f.jsonlsMs / f.floorMs), ...(f.jsonlsEnvelopeMs === undefined ? {} : { jsonlsEnvelopeMs: round(f.jsonlsEnvelopeMs), jsonlsEnvelopeOverOurs: round(f.jsonlsEnvelopeMs / f.oursMs) }), ...(f.jsonlsDispatchMs === undefined ? {} : { jsonlsDispatchMs: round(f.jsonlsDispatchMs) }), ...(f.parseTreeMs === undefined ? {} : { parseTreeMs: round(f.parseTreeMs) }) }),
      }]));
      const batch = figures.find((f) => f.doc.startsWith('batch') && f.variant === 'valid')!;
      targets.push({ name: 'core: valid 0.8 MB batch, jsonls/ours', value: round(batch.jsonlsMs / batch.oursMs), unit: 'x', limit: '>= 10', pass: batch.jsonlsMs / batch.oursMs >= 10 });
      targets.push({ name: 'core: valid 0.8 MB batch, ours/JSON.parse', value: round(batch.oursMs / batch.parseMs), unit: 'x', limit: '<= 5', pass: batch.oursMs / batch.parseMs <= 5 });
    }

    // ---- 6. filter evaluation
    if (args.only.has('eval')) {
      log('6. filter evaluation');
      const { section, figure } = await runEval(log, args.quick, loadCore(shippedCore()));
      sections.push(section);
      summary.eval = { recordsPerSecond: Math.round(figure.recordsPerSecond), ndjsonMs: round(figure.ndjsonMs), parseMs: round(figure.parseMs) };
      targets.push({ name: 'eval: 30-operator filter, records/s', value: Math.round(figure.recordsPerSecond), unit: '/s', limit: '>= 1000000', pass: figure.recordsPerSecond >= 1e6 });
      targets.push({ name: 'eval: NDJSON path / JSON.parse', value: round(figure.ndjsonMs / figure.parseMs), unit: 'x', limit: '<= 3', pass: figure.ndjsonMs / figure.parseMs <= 3 });
    }

    // ---- 8. growth on hostile documents
    if (args.only.has('scaling')) {
      log('8. growth on hostile documents');
      const { snippetToText } = await import('../server/src/lsp/features');
      const { section, figures } = await runScaling(loadCore(shippedCore()), snippetToText, args.quick, log);
      sections.push(section);
      summary.scaling = Object.fromEntries(figures.map((f) => [f.name, { n: f.n, oursMs: f.oursMs.map(round), growth: round(f.growth), referenceGrowth: round(f.referenceGrowth) }]));
      const worst = figures.reduce((w, f) => (f.growth > w.growth ? f : w));
      targets.push({ name: `scaling: worst growth t(4n)/t(n) on hostile documents (${worst.name})`, value: round(worst.growth), unit: 'x', limit: `<= ${GROWTH_LIMIT}`, pass: worst.growth <= GROWTH_LIMIT });
    }

    // ---- 2. end to end over LSP
    if (args.only.has('lsp')) {
      log('2. end to end over LSP');
      const { section, edits, assist } = await runEdits(serverJs, docs, lspBudget, log);
      sections.push(section);
      summary.lsp = {
        edits: Object.fromEntries(edits.map((e: EditFigure) => [`${e.doc}:${e.variant}`, { p50: round(e.p50), p95: round(e.p95), p99: round(e.p99), edits: e.edits }])),
        assist: Object.fromEntries(assist.map((a: AssistFigure) => [a.what, { p50: round(a.p50), p95: round(a.p95), p99: round(a.p99), runs: a.runs }])),
      };
      const batch = edits.find((e) => e.doc.startsWith('batch') && e.variant === 'valid');
      const filter = edits.find((e) => e.doc.startsWith('filter') && e.variant === 'valid');
      if (batch) targets.push({ name: 'lsp: one-char edit in the valid batch, p95', value: round(batch.p95), unit: 'ms', limit: '< 30', pass: batch.p95 < 30 });
      if (filter) targets.push({ name: 'lsp: one-char edit in the 1 KB filter, p99', value: round(filter.p99), unit: 'ms', limit: '< 5', pass: filter.p99 < 5 });
      for (const a of assist.filter((x) => x.what.endsWith('after an edit'))) {
        targets.push({ name: `lsp: ${a.what} on the batch, p95`, value: round(a.p95), unit: 'ms', limit: '< 10', pass: a.p95 < 10 });
      }
    }

    // ---- 3. memory
    if (args.only.has('memory')) {
      log('3. memory');
      const heavy = await runMemory(serverJs, 'heavy', docs, 100);
      const typicalDocs = [filterDoc('valid'), filterDoc('errors'), jobDoc('valid'), jobDoc('errors'),
        batchDoc('valid', 500), batchDoc('errors', 500), rulesetDoc('valid'), rulesetDoc('errors')];
      const typical = await runMemory(serverJs, 'typical', typicalDocs, 100);
      const figs = [heavy, typical].filter((f): f is MemoryFigure => f !== undefined);
      sections.push(memorySection(figs));
      summary.memory = Object.fromEntries(figs.map((f) => [f.label, { rssMB: round(f.rss / 2 ** 20), peakMB: round(f.peak / 2 ** 20), baselineMB: round(f.baselineRss / 2 ** 20), textMB: round(f.textBytes / 2 ** 20) }]));
      for (const f of figs) targets.push({ name: `memory: RSS with 100 documents (${f.label})`, value: round(f.rss / 2 ** 20), unit: 'MB', limit: '< 150', pass: f.rss < 150 * 2 ** 20 });
    }

    // ---- 4. size and start
    if (args.only.has('size')) {
      log('4. size and start');
      const start: StartFigure = await runStart(serverJs, docs[0], lspBudget.startRuns);
      const prod = await buildBundles(true);
      let size: SizeFigure;
      try {
        const r = sizeSection(prod, start);
        sections.push(r.section);
        size = r.figure;
      } finally {
        removeBundles(prod);
      }
      summary.size = { dist: size.dist, vsix: size.vsix ?? null, prodClient: size.prodClient, prodCommands: size.prodCommands, prodLanguageClient: size.prodLanguageClient, prodServer: size.prodServer, startToInitializeMs: round(start.initializeMs), startToFirstDiagnosticsMs: round(start.firstDiagnosticsMs) };
      targets.push({ name: 'size: client bundle at activation (production)', value: round(size.prodClient / 1024), unit: 'KB', limit: '< 150', pass: size.prodClient < 150 * 1024 });
    }

    // ---- 5. mock gateway
    if (args.only.has('mock')) {
      log('5. mock gateway');
      const { section, figures } = await runMock(mockSeconds, log);
      sections.push(section);
      summary.mock = figures
        ? Object.fromEntries(figures.map((f: MockFigure) => [f.what, { rps: Math.round(f.rps), meanMs: round(f.mean), p50: f.p50, p99: f.p99, non2xx: f.non2xx + f.errors }]))
        : { skipped: section.notes[0] };
      const life = await runMockLife(args.quick ? 1 : 3, args.quick ? 3 : 7);
      sections.push(life.section);
      summary.mockLife = Object.fromEntries(life.figures.map((f) => [f.what, f.ms !== undefined ? { ms: round(f.ms), floorMs: round(f.reference!) } : { cpuPercent: f.cpuPercent === undefined ? null : round(f.cpuPercent) }]));
      const start = life.figures[0];
      targets.push({ name: 'mock: start, spawn → URL printed', value: round(start.ms!), unit: 'ms', limit: '< 1000', pass: start.ms! < 1000 });
      const idle = life.figures[1].cpuPercent;
      if (idle !== undefined) targets.push({ name: 'mock: CPU with traffic paused', value: round(idle), unit: '%', limit: '< 2', pass: idle < 2 });
    }

    // ---- 6. against VS Code's JSON language server over LSP (issue 18)
    if (args.only.has('peer')) {
      log('7. against VS Code\'s JSON language server over LSP');
      const prod = await buildBundles(true);
      try {
        const { section, figures: f } = await runPeer(serverJs, args.quick ? PEER_BUDGET_QUICK : PEER_BUDGET, log, { prodServerJs: prod.server, candidateJs: args.candidate });
        sections.push(section);
        summary.peer = peerSummary(f);
        for (const c of f.contenders.filter((x) => x.key !== 'peer')) {
          const tag = c.key === 'ours' ? '' : ` [${c.name}]`;
          const gated = f.open.filter((o) => o.gated);
          const ratio = (o: OpenFigure) => o.by[c.key].median / o.by.peer.median;
          const worstRatio = gated.reduce((w, o) => (ratio(o) > ratio(w) ? o : w));
          const worstP99 = gated.reduce((w, o) => (o.by[c.key].p99 > w.by[c.key].p99 ? o : w));
          targets.push({ name: `peer: open → diagnostics, worst EdgeKit/peer median (${worstRatio.doc})${tag}`, value: round(ratio(worstRatio)), unit: 'x', limit: `<= ${GOALS.openRatio}`, pass: ratio(worstRatio) <= GOALS.openRatio });
          targets.push({ name: `peer: open → diagnostics, worst EdgeKit p99 (${worstP99.doc})${tag}`, value: round(worstP99.by[c.key].p99), unit: 'ms', limit: `< ${GOALS.openP99Ms}`, pass: worstP99.by[c.key].p99 < GOALS.openP99Ms });
          for (const x of f.batch) {
            const speedup = median(x.by.peer) / median(x.by[c.key]);
            const spread = spreadOf(x.by[c.key]);
            targets.push({ name: `peer: batch ${x.variant} open, peer/EdgeKit${tag}`, value: round(speedup), unit: 'x', limit: `>= ${GOALS.batchSpeedup}`, pass: speedup >= GOALS.batchSpeedup });
            targets.push({ name: `peer: batch ${x.variant} open, EdgeKit spread over ${x.by[c.key].length} runs${tag}`, value: round(spread), unit: 'x', limit: `< ${GOALS.batchSpread}`, pass: spread < GOALS.batchSpread });
          }
          for (const e of f.edits) targets.push({ name: `peer: edit → diagnostics on the batch (${e.variant}), EdgeKit p95${tag}`, value: round(e.by[c.key].p95), unit: 'ms', limit: `< ${GOALS.editP95Ms}`, pass: e.by[c.key].p95 < GOALS.editP95Ms });
          const rss = f.rss[c.key];
          if (rss) targets.push({ name: `peer: EdgeKit RSS after 100 documents${tag}`, value: round(rss.after / 2 ** 20), unit: 'MB', limit: `< ${GOALS.rssMB}`, pass: rss.after < GOALS.rssMB * 2 ** 20 });
        }
        for (const s of f.start.filter((x) => x.what !== 'peer' && !x.what.startsWith('floor'))) {
          targets.push({ name: `peer: cold start, spawn → initialize reply (${s.what})`, value: round(s.median), unit: 'ms', limit: `< ${GOALS.startMs}`, pass: s.median < GOALS.startMs });
        }
      } finally {
        removeBundles(prod);
      }
    }
  } finally {
    if (freshBuild) removeBundles(freshBuild);
  }

  // ---- output: tables, targets, one JSON line
  const out: string[] = [];
  const md: string[] = [];
  for (const s of sections) {
    out.push('', `== ${s.title}`, s.rows.length ? table(s.header, s.rows) : '', ...s.notes.map((n) => `  ${n}`));
    md.push(`### ${s.title}`, '', ...(s.rows.length ? [markdownTable(s.header, s.rows), ''] : []), ...s.notes.map((n) => `- ${n}`), '');
  }
  const targetHeader = ['target', 'measured', 'limit', 'verdict'];
  const targetRows = targets.map((t) => [t.name, `${t.value} ${t.unit}`, `${t.limit} ${t.unit}`, t.pass ? 'PASS' : 'MISS']);
  out.push('', '== Targets', table(targetHeader, targetRows), ...notes.map((n) => `  ${n}`));
  md.push('### Targets', '', markdownTable(targetHeader, targetRows), '', ...notes.map((n) => `- ${n}`), '');
  const elapsed = (nowMs() - t0) / 1000;
  out.push('', `Finished in ${elapsed.toFixed(1)} s on ${summary.cpus} cores (${summary.cpu}), Node ${process.version}.`);
  process.stdout.write(out.join('\n') + '\n');
  if (args.markdown) writeFileSync(args.markdown, md.join('\n'));
  summary.targets = targets;
  summary.passed = targets.filter((t) => t.pass).length;
  summary.missed = targets.filter((t) => !t.pass).length;
  summary.seconds = round(elapsed);
  process.stdout.write(JSON.stringify(summary) + '\n');
}

/** Section 6's figures for the JSON summary line. */
function peerSummary(f: PeerFigures): Record<string, unknown> {
  const keys = f.contenders.map((c) => c.key);
  const each = <T>(g: (k: string) => T) => Object.fromEntries(keys.map((k) => [k, g(k)]));
  return {
    open: Object.fromEntries(f.open.map((o) => [o.doc + (o.gated ? '' : ':errors'), { bytes: o.bytes, problems: o.problems, ...each((k) => ({ ms: round(o.by[k].median), p99: round(o.by[k].p99) })) }])),
    floor: Object.fromEntries(f.floor.map((x) => [x.doc, { ms: round(x.median), p99: round(x.p99) }])),
    batch: Object.fromEntries(f.batch.map((x) => [x.variant, { problems: x.problems, ...each((k) => x.by[k].map(round)) }])),
    edits: Object.fromEntries(f.edits.map((e) => [e.variant, each((k) => ({ p50: round(e.by[k].p50), p95: round(e.by[k].p95) }))])),
    rssMB: each((k) => (f.rss[k] ? round(f.rss[k]!.after / 2 ** 20) : null)),
    startMs: Object.fromEntries(f.start.map((s) => [s.what, { initialize: round(s.median), ...(s.firstDiagnostics === undefined ? {} : { firstDiagnostics: round(s.firstDiagnostics) }) }])),
  };
}

function round(x: number): number {
  return Number.isFinite(x) ? Math.round(x * 100) / 100 : x;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
