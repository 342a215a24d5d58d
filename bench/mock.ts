// Section 5: the embedded mock gateway under load. The backend runs in a child process (bench/mockServer.ts); autocannon loads it
// from this process over loopback. Skipped, with the reason, when the mock backend is not there (yet).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { fmtMs, type Section } from './stats';
import { ROOT } from './size';

export interface MockFigure { what: string; rps: number; mean: number; p50: number; p97_5: number; p99: number; requests: number; non2xx: number; errors: number; detail: string }

/** autocannon percentiles are whole milliseconds. */
const whole = (ms: number): string => (ms < 1 ? '<1 ms' : `${ms} ms`);

const BACKEND = path.join(ROOT, 'mock/src/backend.ts');
const SKIPPED = (why: string): { section: Section } => ({
  section: { title: '5. Mock gateway', header: ['measurement', 'value'], rows: [], notes: [`skipped: ${why}`] },
});

function startChild(env: Record<string, string> = {}, script = path.join(__dirname, 'mockServer.ts')): Promise<{ child: ChildProcess; gatewayUrl: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr!.on('data', (b: Buffer) => { stderr += b.toString(); });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('the mock did not print its URL within 30 s')); }, 30_000);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the mock exited with code ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}`)); });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        const { gatewayUrl } = JSON.parse(line) as { gatewayUrl: string };
        resolve({ child, gatewayUrl });
      } catch {
        child.kill('SIGKILL');
        reject(new Error(`unexpected first line from the mock: ${line}`));
      }
    });
  });
}

async function rpc(url: string, method: string, params: unknown[]): Promise<{ status: number; body: { result?: unknown; error?: { message: string } } }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
  return { status: res.status, body: await res.json() as { result?: unknown; error?: { message: string } } };
}

async function load(what: string, url: string, body: string, connections: number, duration: number, detail: string): Promise<MockFigure> {
  const r = await autocannon({ url, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections, duration, timeout: 10 });
  return { what, rps: r.requests.average, mean: r.latency.average, p50: r.latency.p50, p97_5: r.latency.p97_5, p99: r.latency.p99, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors, detail };
}

/** user + system CPU seconds of a process so far, from /proc (Linux). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100 on Linux)
  } catch {
    return undefined;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}

export interface MockLifeFigure { what: string; ms?: number; cpuPercent?: number; reference?: number }

/**
 * Start-up (spawn → URL printed, beside a node process that prints a line and nothing else, in the same run) and CPU while idle:
 * traffic paused, and at the default rate, over `windowS` seconds each (issue 17's budget: start under a second, idle under 2 %).
 */
export async function runMockLife(windowS: number, runs: number): Promise<{ section: Section; figures: MockLifeFigure[] }> {
  const floorScript = path.join(__dirname, 'nodeFloor.ts');
  const time = async (env: Record<string, string>, script?: string): Promise<number> => {
    const t0 = performance.now();
    const { child } = await startChild(env, script);
    const ms = performance.now() - t0;
    await stopChild(child);
    return ms;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const mockMs: number[] = [];
  const floorMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    floorMs.push(await time({}, floorScript));
    mockMs.push(await time({ EDGEKIT_BENCH_TRAFFIC: 'paused' }));
  }
  const idle = async (env: Record<string, string>): Promise<number | undefined> => {
    const { child } = await startChild(env);
    try {
      // Settle first: the start's own work is not idle time.
      await new Promise((r) => setTimeout(r, 500));
      const a = cpuSeconds(child.pid!);
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, windowS * 1000));
      const b = cpuSeconds(child.pid!);
      const wall = (performance.now() - t0) / 1000;
      return a === undefined || b === undefined ? undefined : (100 * (b - a)) / wall;
    } finally {
      await stopChild(child);
    }
  };
  const paused = await idle({ EDGEKIT_BENCH_TRAFFIC: 'paused' });
  const running = await idle({});
  const figures: MockLifeFigure[] = [
    { what: 'start: spawn → URL printed (tsx, traffic paused), median', ms: median(mockMs), reference: median(floorMs) },
    { what: `CPU, traffic paused (${windowS} s)`, cpuPercent: paused },
    { what: `CPU, traffic at the default rate (${windowS} s)`, cpuPercent: running },
  ];
  const pct = (v?: number) => (v === undefined ? 'n/a (no /proc)' : `${v.toFixed(2)} %`);
  return {
    figures,
    section: {
      title: `5b. Mock start-up and idle CPU (${runs} starts, interleaved with a node floor)`,
      header: ['measurement', 'value', 'reference', 'ratio'],
      rows: figures.map((f) => f.ms !== undefined
        ? [f.what, fmtMs(f.ms), `node floor ${fmtMs(f.reference!)}`, `${(f.ms / f.reference!).toFixed(2)}×`]
        : [f.what, pct(f.cpuPercent), '', '']),
      notes: ['The floor is a node process started the same way (tsx) that prints one line: what any Node program pays before its first line of code.',
        'CPU from /proc/<pid>/stat (user + system) over the window, after a 0.5 s settle; 100 % = one core.'],
    },
  };
}

export async function runMock(durationS: number, log: (s: string) => void): Promise<{ section: Section; figures?: MockFigure[] }> {
  if (!existsSync(BACKEND)) return SKIPPED('mock/src/backend.ts does not exist yet.');
  if (!/export\s+(async\s+)?function\s+startMockBackend\b/.test(readFileSync(BACKEND, 'utf8'))) return SKIPPED('mock/src/backend.ts does not export startMockBackend yet.');
  let started: { child: ChildProcess; gatewayUrl: string };
  try {
    started = await startChild();
  } catch (err) {
    return SKIPPED(`the mock backend did not start: ${(err as Error).message}`);
  }
  const { child, gatewayUrl } = started;
  try {
    const head = await rpc(gatewayUrl, 'eth_blockNumber', []);
    if (head.status !== 200 || typeof head.body.result !== 'string') return SKIPPED(`eth_blockNumber answered HTTP ${head.status}: ${JSON.stringify(head.body).slice(0, 200)}`);
    const headN = Number.parseInt(head.body.result, 16);
    const range = { fromBlock: '0x' + (headN - 799).toString(16), toBlock: '0x' + headN.toString(16) };
    const traceAll = { ...range, after: 0, count: 200 };
    // An address no trace goes to: the gateway must walk all 800 blocks and finds nothing (the worst case of the range).
    const traceScan = { ...range, toAddress: ['0x' + '00'.repeat(19) + '01'], after: 0, count: 200 };
    const probeAll = await rpc(gatewayUrl, 'trace_filter', [traceAll]);
    const probeScan = await rpc(gatewayUrl, 'trace_filter', [traceScan]);
    const size = (p: typeof probeAll) => (Array.isArray(p.body.result) ? `${p.body.result.length} traces` : `HTTP ${p.status} ${p.body.error?.message ?? ''}`);
    const body = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 });
    const figures: MockFigure[] = [];
    figures.push(await load('eth_blockNumber, 10 connections', gatewayUrl, body('eth_blockNumber', []), 10, durationS, 'throughput'));
    log(`  mock eth_blockNumber: ${figures[0].rps.toFixed(0)} req/s`);
    figures.push(await load('trace_filter 800 blocks / count 200, 1 connection', gatewayUrl, body('trace_filter', [traceAll]), 1, durationS, size(probeAll)));
    figures.push(await load('trace_filter 800 blocks, no match (full scan), 1 connection', gatewayUrl, body('trace_filter', [traceScan]), 1, durationS, size(probeScan)));
    figures.push(await load('trace_filter 800 blocks / count 200, 10 connections', gatewayUrl, body('trace_filter', [traceAll]), 10, durationS, size(probeAll)));
    log(`  mock trace_filter: p50 ${figures[1].p50} ms, full scan p50 ${figures[2].p50} ms`);
    return {
      figures,
      section: {
        title: `5. Mock gateway (autocannon from the bench process, ${durationS} s each, 127.0.0.1)`,
        header: ['load', 'req/s', 'mean', 'p50', 'p97.5', 'p99', 'requests', 'non-2xx', 'result'],
        rows: figures.map((f) => [f.what, f.rps.toFixed(0), fmtMs(f.mean), whole(f.p50), whole(f.p97_5), whole(f.p99), String(f.requests), String(f.non2xx + f.errors), f.detail]),
        notes: ['The mock runs in its own process (bench/mockServer.ts -> startMockBackend); autocannon latencies have 1 ms resolution.'],
      },
    };
  } finally {
    await stopChild(child);
  }
}
