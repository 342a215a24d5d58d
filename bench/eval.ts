// Section 6: what a filter matches, fast enough for real logs. The compiled Logpush filter evaluator on a 30-operator filter over
// parsed http_requests records (records per second; the target is 1 million), and the NDJSON path of `edgekit test-filter` (read,
// parse, evaluate) against JSON.parse of the same lines alone, both measured in this run.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mulberry32, type LogRecord } from '../server/src/core';
import type * as CoreApi from '../server/src/core';
import { loadCore } from './core';
import { readNdjson } from '../server/src/eval/ndjson';
import { fmtMs, fmtRatio, nowMs, verdict, type Section } from './stats';

export interface EvalFigure { recordsPerSecond: number; records: number; ndjsonMs: number; parseMs: number; lines: number }

/** Realistic-looking http_requests records (deterministic). */
function records(n: number): LogRecord[] {
  const rand = mulberry32(6);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  return Array.from({ length: n }, () => ({
    ClientCountry: pick(['us', 'ca', 'de', 'fr', 'br', 'in', 'jp']), EdgeResponseStatus: pick([200, 200, 200, 301, 304, 403, 404, 500]),
    ClientRequestHost: pick(['example.com', 'api.example.com', 'www.example.com']), ClientRequestPath: pick(['/', '/login', '/api/v1/users', '/static/app.js', '/admin']),
    ClientRequestMethod: pick(['GET', 'GET', 'POST', 'PUT']), BotScore: Math.floor(rand() * 99) + 1, ClientIP: `203.0.113.${Math.floor(rand() * 255)}`,
    EdgeResponseBytes: Math.floor(rand() * 1e5), ClientRequestUserAgent: pick(['Mozilla/5.0', 'curl/8.0', 'python-requests/2.31']),
  }));
}

/** 30 comparisons in nested and/or groups, every operator class among them. */
function filter30(): unknown {
  const cmp = (key: string, operator: string, value: unknown) => ({ key, operator, value });
  const group = (i: number) => ({ or: [
    { and: [cmp('ClientCountry', '!eq', `x${i}`), cmp('EdgeResponseStatus', 'geq', '100'), cmp('ClientRequestPath', '!startsWith', `/nope${i}`)] },
    { and: [cmp('BotScore', 'lt', '50'), cmp('ClientRequestHost', 'endsWith', '.com'), cmp('ClientRequestMethod', 'in', ['GET', 'POST'])] },
  ] });
  return { where: { and: [group(1), group(2), group(3), group(4), group(5)] } };
}

/** core: the core whose evaluator runs (the shipped bundle from run.ts, as in section 1). */
export async function runEval(log: (s: string) => void, quick: boolean, core: typeof CoreApi = loadCore()): Promise<{ section: Section; figure: EvalFigure }> {
  const compiled = core.compileFilter(filter30(), 'http_requests');
  if (!compiled.ok) throw new Error(compiled.error);
  const recs = records(quick ? 50_000 : 200_000);
  for (let i = 0; i < 20_000; i++) compiled.filter.test(recs[i % recs.length]); // warm-up
  let best = 0;
  for (let round = 0; round < 3; round++) {
    const t0 = nowMs();
    let hits = 0;
    for (const r of recs) if (compiled.filter.test(r)) hits++;
    const ms = nowMs() - t0;
    best = Math.max(best, recs.length / (ms / 1000));
    if (hits === 0) throw new Error('the bench filter matched nothing');
  }
  // The NDJSON path on a file of the same records, against JSON.parse of its lines alone.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'edgekit-bench-eval-'));
  const file = path.join(dir, 'logs.ndjson');
  const lines = recs.map((r) => JSON.stringify(r));
  fs.writeFileSync(file, lines.join('\n') + '\n');
  let ndjsonMs = Infinity, parseMs = Infinity;
  for (let round = 0; round < 3; round++) {
    let t0 = nowMs();
    let n = 0;
    for await (const item of readNdjson(file)) if ('record' in item && compiled.filter.test(item.record)) n++;
    ndjsonMs = Math.min(ndjsonMs, nowMs() - t0);
    t0 = nowMs();
    const text = fs.readFileSync(file, 'utf8');
    let m = 0;
    for (const l of text.split('\n')) if (l) { JSON.parse(l); m++; }
    parseMs = Math.min(parseMs, nowMs() - t0);
    if (n < 0 || m !== recs.length) throw new Error('line count mismatch');
  }
  fs.rmSync(dir, { recursive: true, force: true });
  log(`  filter evaluation: ${Math.round(best).toLocaleString('en')} records/s; NDJSON ${fmtMs(ndjsonMs)} vs JSON.parse ${fmtMs(parseMs)}`);
  const figure: EvalFigure = { recordsPerSecond: best, records: recs.length, ndjsonMs, parseMs, lines: recs.length };
  return {
    figure,
    section: {
      title: '6. Filter evaluation (edgekit test-filter)',
      header: ['measurement', 'value', 'reference (same run)', 'ratio', 'target'],
      rows: [
        ['30-operator filter over parsed records', `${Math.round(best).toLocaleString('en')} records/s`, '', '', `>= 1 000 000/s: ${verdict(best >= 1e6)}`],
        [`NDJSON file of ${recs.length.toLocaleString('en')} lines: read + parse + evaluate`, fmtMs(ndjsonMs), `JSON.parse of the lines ${fmtMs(parseMs)}`, fmtRatio(ndjsonMs / parseMs), `<= 3x: ${verdict(ndjsonMs / parseMs <= 3)}`],
      ],
      notes: ['Best of 3 rounds each; the filter has 30 comparisons in nested and/or groups (string, int and set operators).'],
    },
  };
}
