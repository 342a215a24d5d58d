// Commands of the mock as a small live platform: its sample traffic (send some now, pause, rate, seed), the Security Events view
// (a zone's events and the old-against-new summary, also the migration's inspect step), and Logpush deliveries (open what a job
// delivered, deliver now). Traffic, the summary and deliveries are the embedded mock's; the events list is the platform's route.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { Config } from '../config';
import { createMockControl, mockOrigin, type Delivery, type MockControl, type SecuritySummary } from '../http/mockControl';
import { deliveryUri } from '../views/deliveries';
import { plural } from '../../../server/src/protocol';
import type { Zone } from '../http/api';
import { apiFor, pickZone, zoneHints } from './api';
import { UserError } from './run';
import { MultiStepInput, type Step } from '../multiStep';

/** The embedded mock's own routes; a UserError when the chosen backend is not the mock. */
export async function mockControlFor(ctx: Ctx, interactive = true): Promise<MockControl> {
  const ep = await ctx.backend.endpoints('api', interactive);
  if (!ep.embedded || !ep.apiToken) {
    throw new UserError('Sample traffic, the security events summary and Logpush deliveries are features of the embedded mock backend; '
      + '"edgekit.backend" is set to remote. On the platform, security events are in the dashboard (Security → Events) and Logpush delivers to your own destination.',
    [{ title: 'Use the Embedded Mock', command: 'workbench.action.openSettings', args: ['edgekit.backend'] }]);
  }
  return createMockControl({ url: mockOrigin(ep.apiBaseUrl), token: ep.apiToken, timeoutMs: Config.requestTimeoutMs() });
}

function mockResult<T>(r: { ok: true; result: T } | { ok: false; error: string }): T {
  if (r.ok) return r.result;
  throw new UserError(r.error);
}

/** The sources of the Security Events view: the API, and the mock's summary when the backend is the mock. */
export async function eventSources(ctx: Ctx): Promise<{ api: Awaited<ReturnType<typeof apiFor>>; mock?: MockControl }> {
  const api = await apiFor(ctx, false);
  const ep = await ctx.backend.endpoints('api', false);
  return { api, ...(ep.embedded && ep.apiToken ? { mock: createMockControl({ url: mockOrigin(ep.apiBaseUrl), token: ep.apiToken, timeoutMs: Config.requestTimeoutMs() }) } : {}) };
}

/** The migration's inspect step: shows the zone in the Security Events view and returns what it found, in brief (briefSummary). */
export async function inspectSecurityEvents(ctx: Ctx, zone: Zone): Promise<string[] | { error: string }> {
  await ctx.securityEvents.show(zone);
  const s = ctx.securityEvents.summary;
  if (s) return briefSummary(s);
  return { error: ctx.securityEvents.lastError ?? 'the backend gave no security events summary' };
}

/**
 * The summary for the migration's question in validation mode: one sentence with only the counts that are not zero (the view, shown
 * by the inspect step, lists every count in the summary's own sentences). What the new rules would block that the previous ones did
 * not (they only logged or let it through), what they would let through that the previous ones blocked (even if they log it), and
 * what both block. No request yet: none (the question says neither rule set has acted). Another state: the summary's sentences.
 */
export function briefSummary(s: SecuritySummary): string[] {
  if (s.state !== 'validation') return s.sentences;
  if (s.requests === 0) return [];
  const c = s.comparison;
  const more = c.newBlocksPreviousLogged + c.newBlocksPreviousPassed;
  const fewer = c.previousBlockedNowPass + c.previousBlockedNewLogs;
  const changes = [
    ...(more ? [`the new rules would block ${more} the previous ones did not`] : []),
    ...(fewer ? [`${more ? '' : 'the new rules would '}let through ${fewer} ${more ? 'they' : 'the previous ones'} blocked`] : []),
  ].join(', and ');
  const both = c.bothBlock ? (changes ? `; both block ${c.bothBlock}` : `both rule sets block the same ${c.bothBlock}`) : '';
  const said = changes || both ? `${changes}${both}` : 'neither rule set blocks any';
  return [`Of ${plural(s.requests, 'request')}, ${said} (every count is in the Security Events view).`];
}

const TRAFFIC_COUNTS = [100, 1000, 5000];

/** A Logpush job's id from a tree item ({ job: { id } }), a number, or a numeric string. */
function jobIdOf(arg: unknown): number | undefined {
  if (typeof arg === 'number') return arg;
  if (typeof arg === 'string' && /^\d+$/.test(arg)) return Number(arg);
  const id = (arg as { job?: { id?: unknown } } | undefined)?.job?.id;
  return typeof id === 'number' ? id : undefined;
}

/** The datasets whose lines the mock's traffic makes, so that its Logpush jobs deliver them (mock/src/feed.ts FEED_DATASETS, which
 * the client does not load until the mock runs; a unit test holds the two equal). */
export const MOCK_DELIVERED_DATASETS: readonly string[] = ['http_requests', 'firewall_events'];

/** No batch of these datasets delivered: said after a job was created too (Deliver Now may have delivered nothing because the job's
 * filter kept none of the traffic), so it does not tell to create one as if there were none. */
export function nothingDelivered(datasets: readonly string[]): string {
  const which = datasets.join(' or ');
  return `No Logpush job of the mock has delivered ${which} lines yet. Run "EdgeKit: Deliver Logpush Batches Now": it delivers ` +
    `what the enabled ${which} jobs kept of the mock's traffic, or says why it delivers nothing (no such job yet, or its filter kept none of the traffic).`;
}

/** The newest delivered batch of a job (or of any job), asking when there are several jobs and none was given. */
async function pickDelivery(mock: MockControl, arg: unknown): Promise<Delivery> {
  if (typeof arg === 'string' && !/^\d+$/.test(arg)) {
    const all = mockResult(await mock.deliveries());
    const d = all.find((x) => x.id === arg);
    if (!d) throw new UserError(`No Logpush delivery "${arg}" on the mock (it keeps the latest ones only).`);
    return d;
  }
  const job = jobIdOf(arg);
  const list = mockResult(await mock.deliveries(job)).filter((d) => d.status === 'delivered');
  if (!list.length) {
    throw new UserError(job === undefined
      ? nothingDelivered(MOCK_DELIVERED_DATASETS)
      : `Logpush job ${job} has delivered nothing yet; run "EdgeKit: Deliver Logpush Batches Now" (its dataset needs traffic first).`);
  }
  if (job !== undefined || list.length === 1) return list[0];
  const pick = await vscode.window.showQuickPick(list.map((d) => ({
    label: `job ${d.job} · ${d.dataset}`, description: `${d.records} lines · ${d.at}`, detail: d.object, delivery: d,
  })), { title: 'Open which delivered batch?' });
  if (!pick) throw new vscode.CancellationError();
  return pick.delivery;
}

/** The lines of a delivered batch as a file the language server can read: the local object when it is on disk, else a copy. */
export async function deliveredFile(ctx: Ctx, mock: MockControl, d: Delivery): Promise<string> {
  if (d.localPath) {
    try {
      await fs.access(d.localPath);
      return d.localPath;
    } catch { /* moved or removed: fall back to the mock's copy */ }
  }
  const lines = mockResult(await mock.deliveryLines(d.id));
  const dir = path.join(ctx.extension.globalStorageUri.fsPath, 'deliveries');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${d.id.replace(/[^\w.-]+/g, '_')}.ndjson`);
  await fs.writeFile(file, lines);
  return file;
}

export const trafficCommands = {
  'edgekit.securityEvents.show': (ctx: Ctx) => async (zoneArg?: unknown) => {
    const api = await apiFor(ctx);
    const zone = await pickZone(api, zoneArg, 'Show the security events of which zone?', undefined, zoneHints(ctx));
    await ctx.securityEvents.show(zone);
    return { summary: ctx.securityEvents.summary, events: ctx.securityEvents.events.length, error: ctx.securityEvents.lastError };
  },
  'edgekit.securityEvents.refresh': (ctx: Ctx) => () => ctx.securityEvents.refresh(),
  'edgekit.securityEvents.openEvent': (ctx: Ctx) => async (event?: unknown) => {
    if (!event || typeof event !== 'object') throw new UserError('Pick an event in the Security Events view.');
    // Read-only (edgekit-event:), one document per event: not an untitled buffer asking to be saved.
    const doc = await vscode.workspace.openTextDocument(ctx.securityEvents.eventDocument(event as Record<string, unknown>));
    await vscode.window.showTextDocument(doc, { preview: true });
    ctx.log.info(`Opened security event ${String((event as { RayID?: unknown }).RayID ?? '')}.`);
    return doc.uri.toString();
  },
  /** "Send Sample Traffic": `count` requests now, to one zone (the Security Events view's, or given) or to every zone. */
  'edgekit.mock.sendTraffic': (ctx: Ctx) => async (countArg?: unknown, zoneArg?: unknown) => {
    const mock = await mockControlFor(ctx);
    let count = typeof countArg === 'number' ? countArg : undefined;
    if (count === undefined) {
      const pick = await vscode.window.showQuickPick(TRAFFIC_COUNTS.map((n) => ({ label: `${n} requests`, n })), { title: 'Send how many requests of sample traffic (about a tenth hostile)?' });
      if (!pick) throw new vscode.CancellationError();
      count = pick.n;
    }
    const zone = typeof zoneArg === 'string' ? zoneArg : (zoneArg as { zone?: Zone } | undefined)?.zone?.id ?? ctx.securityEvents.zone?.id;
    const r = mockResult(await mock.step(count, zone));
    const where = zone ? ` to ${ctx.securityEvents.zone?.id === zone ? ctx.securityEvents.zone.name : zone}` : ` to each zone (${r.requests} in all)`;
    // What the traffic feeds, offered (the view shows the zone sent to without asking which).
    const next = [
      { title: 'Show Security Events', command: 'edgekit.securityEvents.show', args: zone ? [zone] : [] },
      { title: 'Deliver Logpush Batches Now', command: 'edgekit.logpush.deliverNow', args: [] },
    ];
    void Promise.resolve(vscode.window.showInformationMessage(`Sent ${zone ? r.requests : count} requests of sample traffic${where}; the rules acted on ${r.events} of them: `
      + 'the Security Events view lists what they did, and enabled Logpush jobs deliver the traffic\'s log lines.', ...next.map((n) => n.title))).then((pick) => {
      const chosen = next.find((n) => n.title === pick);
      if (chosen) void vscode.commands.executeCommand(chosen.command, ...chosen.args);
    });
    await ctx.securityEvents.refresh();
    return r;
  },
  /** Pause, resume, or set the rate or seed of the mock's continuous traffic. */
  'edgekit.mock.traffic': (ctx: Ctx) => async (change?: unknown) => {
    const mock = await mockControlFor(ctx);
    const now = mockResult(await mock.traffic());
    let patch = change && typeof change === 'object' ? change as Record<string, unknown> : undefined;
    if (!patch) patch = await askTrafficChange(now);
    const next = mockResult(await mock.setTraffic(patch));
    void vscode.window.showInformationMessage(`Mock traffic: ${next.paused ? 'paused' : `${next.rate} requests/s per zone`}, seed ${next.seed}.`);
    return next;
  },
  'edgekit.logpush.deliverNow': (ctx: Ctx) => async (jobArg?: unknown) => {
    const mock = await mockControlFor(ctx);
    const r = mockResult(await mock.flush(jobIdOf(jobArg)));
    // The mock says why it delivered nothing (no job collects traffic, the filters kept none, ...); an older one does not.
    const text = !r.delivered && !r.failed && r.why ? `Logpush: no batch delivered. ${r.why}`
      : `Logpush: ${plural(r.delivered, 'batch', 'batches')} delivered${r.failed ? `, ${r.failed} failed (see the job's error in the Zones view)` : ''}.`;
    if (r.failed) void vscode.window.showWarningMessage(text); else void vscode.window.showInformationMessage(text);
    ctx.zones.refresh();
    return r;
  },
  /** Opens the newest batch a job delivered (its NDJSON lines). */
  'edgekit.logpush.openDelivery': (ctx: Ctx) => async (arg?: unknown) => {
    const mock = await mockControlFor(ctx);
    const d = await pickDelivery(mock, arg);
    // Fetched here, so that a batch the mock no longer keeps is an error message, not a document saying so.
    const uri = deliveryUri(d);
    ctx.deliveries.prime(uri, mockResult(await mock.deliveryLines(d.id)));
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } finally {
      // Read by the provider unless the document was open already: then they would stay in memory for good.
      ctx.deliveries.release(uri);
    }
    if ((await vscode.languages.getLanguages()).includes('jsonl')) doc = await vscode.languages.setTextDocumentLanguage(doc, 'jsonl');
    await vscode.window.showTextDocument(doc, { preview: false });
    void vscode.window.setStatusBarMessage(`Logpush job ${d.job}: ${d.records} lines delivered to ${d.object} at ${d.at}`, 10_000);
    return { delivery: d, uri: doc.uri.toString() };
  },
};

/** The most requests per second per zone the mock takes (its MAX_RATE, mock/src/traffic/engine.ts: the extension may import the
 * mock only as types, so a unit test checks that the two agree). */
export const MOCK_MAX_RATE = 100;

/** Mock Traffic's questions: Pause or Resume (one step), or Set Rate…/Set Seed… and its number (two, counted "1/2", "2/2"; Back
 * returns to the pick with the choice kept). The change, or CancellationError when the flow ended unanswered (nothing changed). */
async function askTrafficChange(now: { paused: boolean; rate: number; seed: number }): Promise<Record<string, unknown>> {
  type Item = vscode.QuickPickItem & { patch?: Record<string, unknown>; number?: 'rate' | 'seed' };
  const items: Item[] = [
    now.paused ? { label: 'Resume', description: `${now.rate} requests/s per zone`, patch: { paused: false } } : { label: 'Pause', description: 'no timer runs while paused', patch: { paused: true } },
    { label: 'Set Rate…', description: `now ${now.rate} requests/s per zone`, number: 'rate' },
    { label: 'Set Seed…', description: `now ${now.seed}: the same seed replays the same traffic`, number: 'seed' },
  ];
  const state: { pick?: Item; text?: string } = {};
  const askNumber: Step<typeof state> = async (input) => {
    const rate = state.pick?.number === 'rate';
    state.text = await input.showInputBox({
      title: rate ? 'Requests per second per zone' : 'Traffic seed', totalSteps: 2, value: String(rate ? now.rate : now.seed),
      placeholder: rate ? 'Requests per second per zone, such as 2 or 0.5 (0 sends none)' : 'A whole number, such as 42',
      // The seed as the mock takes it (--traffic-seed): a whole number of 32 bits; a rate, a number from 0 to the mock's maximum.
      validate: (v) => (rate ? /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) <= MOCK_MAX_RATE ? undefined : `A number of requests per second from 0 to ${MOCK_MAX_RATE}.`
        : /^\d+$/.test(v.trim()) && Number(v) <= 0xffffffff ? undefined : 'A whole number from 0 to 4294967295.'),
    });
    return undefined;
  };
  const askWhat: Step<typeof state> = async (input) => {
    state.pick = await input.showQuickPick({ title: `Mock traffic: ${now.paused ? 'paused' : `${now.rate} requests/s per zone`}, seed ${now.seed}`,
      totalSteps: 2, items, active: state.pick });
    return state.pick.number ? askNumber : undefined;
  };
  if (!(await MultiStepInput.run(askWhat, state)) || !state.pick) throw new vscode.CancellationError();
  if (state.pick.patch) return state.pick.patch;
  return state.pick.number === 'rate' ? { rate: Number(state.text) } : { seed: Number(state.text) };
}

/** For "Test Filter on Logs" and "Test Rules": the newest delivered batch of the first of the datasets (in the order preferred) that
 * has one, as a file, or undefined when none has. */
export async function lastDeliveredFile(ctx: Ctx, datasets: readonly string[]): Promise<{ file: string; delivery: Delivery } | undefined> {
  const mock = await mockControlFor(ctx);
  // Newest first
  const delivered = mockResult(await mock.deliveries()).filter((d) => d.status === 'delivered');
  const newest = datasets.map((w) => delivered.find((d) => d.dataset === w)).find((d) => d !== undefined);
  if (!newest) return undefined;
  return { file: await deliveredFile(ctx, mock, newest), delivery: newest };
}
