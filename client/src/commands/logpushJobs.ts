// Commands on the Logpush jobs a backend already has (the Zones view's job items and *.logpush.json documents): open a job's
// configuration as a document, update the job from a document, enable or disable it, delete it (modal: it cannot be undone).
// Creating a job is "Create Logpush Job" (logpush.ts).
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { createOnlyChanges, type Api, type ApiResult, type JobPlace } from '../http/api';
import { shownDestination } from '../ownershipProofs';
import { applyTextEdits, confirmOwnership, lastMemberValue, memberEdits, ownerWords, proveAt, refuseUnchallenged } from './ownership';
import { findLimit } from '../http/limit';
import { DocumentInfoRequest } from '../../../server/src/protocol';
import { UserError } from './run';
import { exclusive } from './inFlight';
import { apiFor, unwrap, whileWaiting } from './api';
import { jobDocument, pickJobPlace, refused, sendDespiteErrors, showWithNotes } from './logpush';
import { freeUntitledUri, jobDocumentName, showUntitledJson } from '../untitled';

/** A job as the Zones view's item carries it (JobItem: `job` and `place`). */
interface JobTarget { job: Record<string, unknown>; place: JobPlace }

/** Members of a job record that say how its deliveries went, not how it is configured: left out of an opened configuration. */
const STATUS_MEMBERS = ['last_complete', 'last_error', 'error_message'];

/**
 * Documents opened by "Open Logpush Job Configuration" (or sent or proved before), by URI: the backend (`from`, its Api.source: the base URL, or the embedded mock on any port), where their job lives and its id, so that an
 * update need not look for it, and the job as the backend last gave it (`seen`), to tell what changed there since. The place holds
 * while the document names the same job (its "id" unchanged).
 */
interface Opened { from: string; place: JobPlace; id: unknown; seen?: Record<string, unknown> }
const openedJobs = new Map<string, Opened>();

/** Remembers where the document's job lives, and tells the language server, which checks the document as a job of that scope. */
function remember(ctx: Ctx, uri: string, opened: Opened): void {
  openedJobs.set(uri, opened);
  ctx.jobScopes.set(uri, opened.place, opened.id);
}

/** What is known of the document's job on `api`'s backend: nothing when it was read from another (edgekit.api.baseUrl changed
 * since; zone ids and job ids are no backend's own), whose place and record would be taken for this one's. The embedded mock is
 * one backend on whatever port it started (Api.source): a restart keeps what its documents were read as. */
function knownJob(doc: vscode.TextDocument, id: unknown, api: Api): Opened | undefined {
  const known = openedJobs.get(doc.uri.toString());
  return known && known.id === id && known.from === api.source ? known : undefined;
}

function knownPlace(doc: vscode.TextDocument, id: unknown, api: Api): JobPlace | undefined {
  return knownJob(doc, id, api)?.place;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The members the backend changed since the document was read (`seen`) to a value the document does not hold: what sending the
 * document would set back (a job disabled in the view since it was opened, its document still saying "enabled": true).
 */
export function setBack(seen: Record<string, unknown>, now: Record<string, unknown>, doc: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(seen), ...Object.keys(now)])]
    .filter((k) => k !== 'id' && !STATUS_MEMBERS.includes(k) && k in doc && !same(seen[k], now[k]) && !same(doc[k], now[k]));
}

/** A job as the key of the commands running on it: one backend's, one owner's. */
function jobKey(api: Api, place: JobPlace, id: number): string {
  return `job ${api.source} ${JSON.stringify(place.owner)} ${id}`;
}

function jobLabel(job: Record<string, unknown>): string {
  return `Logpush job ${String(job.id)}${typeof job.name === 'string' && job.name ? ` "${job.name}"` : ''}`;
}

/** The job a view command was run on (the Zones view's item), or undefined when it was run on something else. */
function viewTarget(arg: unknown): (JobTarget & { id: number }) | undefined {
  const t = arg as Partial<JobTarget> | undefined;
  const id = t?.job?.id;
  return t?.job && t.place && typeof id === 'number' ? { job: t.job, place: t.place, id } : undefined;
}

/** The job a view command was run on; Open Logpush Job Configuration has nothing to guess from elsewhere. */
function jobTarget(arg: unknown): JobTarget & { id: number } {
  const t = viewTarget(arg);
  if (!t) throw new UserError('Run this on a Logpush job in the Zones view (EdgeKit in the activity bar): right-click the job.');
  return t;
}

/** The "id" of a job document, or the refusal that says it names no job (Update's words). */
function documentJobId(name: string, job: unknown): number {
  const id = (job as { id?: unknown } | null)?.id;
  if (typeof id !== 'number' || !Number.isInteger(id)) {
    // An "id" of another type ("5") is said as written: "has no job "id"" was untrue of it
    const has = id === undefined ? `${name} has no job "id"` : `The "id" of ${name} is ${JSON.stringify(id)}, not a job's id (an integer)`;
    throw new UserError(`${has}, so it names no job on the backend: "Create Logpush Job" creates one, and "Open Logpush Job Configuration" on a job in the Zones view opens an existing one to edit.`);
  }
  return id;
}

/**
 * Job `id` as the backend has it now at `place`. Not there (deleted elsewhere, the mock reset) is said so, with nothing sent:
 * there is nothing to `what` (a 404 said "Cannot get Logpush job 5 ... check the base URL and the zone id"); any other failure is
 * returned as it is.
 */
async function jobNow(api: Api, place: JobPlace, id: number, name: string, what: string): Promise<ApiResult<Record<string, unknown>>> {
  const now = await whileWaiting(`reading Logpush job ${id} of ${ownerWords(place)}`, () => api.logpushJob(place.owner, id));
  if (!now.ok && now.status === 404) {
    throw new UserError(`Logpush job ${id} is no longer in ${ownerWords(place)} (deleted, or the backend was reset, since ${name} was read): there is nothing to ${what}. ` +
      '"Create Logpush Job" creates it anew from the document once its "id" is removed.');
  }
  return now;
}

/** Where a job document's job `id` lives: known when it was opened, sent or proved here, else looked for (by its dataset's scope). */
async function documentJobPlace(ctx: Ctx, api: Api, doc: vscode.TextDocument, id: number): Promise<{ place: JobPlace; current?: Record<string, unknown> }> {
  const place = knownPlace(doc, id, api);
  if (place) return { place };
  const info = await ctx.server.request(DocumentInfoRequest.type, { uri: doc.uri.toString() });
  const scope = info.job?.scope;
  const found = await whileWaiting(`looking for Logpush job ${id}`, () => findJob(api, id, scope === 'zone' || scope === 'account' ? scope : undefined));
  return { place: found.place, current: found.job };
}

/**
 * The job Enable, Disable and Delete act on: the Zones view's item they were run on, else (the palette, the editor) the job the
 * job document names by its "id", as the backend has it now, with the document (`from`).
 */
async function jobOf(ctx: Ctx, arg: unknown, what: string): Promise<JobTarget & { id: number; api: Api; from?: { doc: vscode.TextDocument; name: string } }> {
  const t = viewTarget(arg);
  if (t) return { ...t, api: await apiFor(ctx) };
  const { doc, name, job } = await jobDocument(arg);
  const id = documentJobId(name, job);
  // The backend after the document: a document naming no job is refused without starting the mock or asking for credentials
  const api = await apiFor(ctx);
  const { place, current } = await documentJobPlace(ctx, api, doc, id);
  return { job: current ?? unwrap(await jobNow(api, place, id, name, what)), place, id, api, from: { doc, name } };
}

/**
 * Writes the job's state `on` into a job document's "enabled" (an edit the user sees and can undo), once Enable or Disable set it
 * or an Update kept it: a document left saying the other state would set it back at its next Update, unsaid (ui14). A document
 * without "enabled" is left so: it says nothing of the state, and the platform's update keeps a member it is not sent. Returns the
 * words for the command's message ("" when nothing was written) and whether the edit failed.
 */
async function writeEnabled(doc: vscode.TextDocument, name: string, on: boolean): Promise<{ words: string; failed: boolean }> {
  const value = lastMemberValue(doc.getText(), 'enabled');
  if (!value || value.value === on) return { words: '', failed: false };
  if (await applyTextEdits(doc, memberEdits(doc.getText(), 'enabled', on))) return { words: `; ${name} says "enabled": ${on} now`, failed: false };
  return { words: `, but ${name} could not be edited (is it read-only?) and still says "enabled": ${JSON.stringify(value.value)}`, failed: true };
}

/**
 * The state an Update from a job document would turn its job to: the document's Boolean "enabled" when the job (as the backend has
 * it now) is in the other state; undefined when the update leaves the state (the same value, none, or not a Boolean, which the
 * checker flags and the platform refuses).
 */
function stateTurn(doc: Record<string, unknown>, current: Record<string, unknown>): boolean | undefined {
  return typeof doc.enabled === 'boolean' && doc.enabled !== (current.enabled === true) ? doc.enabled : undefined;
}

/**
 * Where job `id` lives: the zones (or accounts, for an account dataset) of the backend are searched, a few at a time. `scope` is
 * the job's dataset's, when the document names a known dataset.
 */
async function findJob(api: Api, id: number, scope: 'zone' | 'account' | undefined): Promise<{ place: JobPlace; job: Record<string, unknown> }> {
  const places: JobPlace[] = [];
  // A list cut short (ApiOk.incomplete) is said when the job is not found: it may be in the owners not listed.
  const cut: string[] = [];
  if (scope !== 'account') {
    const zones = await api.listZones();
    places.push(...unwrap(zones).map((z) => ({ owner: { zone: z.id }, ownerName: z.name })));
    if (zones.ok && zones.incomplete) cut.push(zones.incomplete);
  }
  if (scope !== 'zone') {
    const accounts = await api.listAccounts();
    if (accounts.ok) places.push(...accounts.result.map((a) => ({ owner: { account: a.id }, ownerName: a.name })));
    else if (scope === 'account') unwrap(accounts);
    if (accounts.ok && accounts.incomplete) cut.push(accounts.incomplete);
  }
  // Stops at the owner that has it: each owner is one request (the platform's job lists are per zone and per account).
  // A job list that could not be read (a 429, a 403 on one zone, the network) is not a list without the job: said when not found.
  // A 429 ends the search (findLimit starts no call after it): every further request would be refused too, and each one counts
  // against the limit the user's dashboard and other tools share; a search of 2600 zones for a job that is nowhere sends 2600.
  const unread: string[] = [];
  let asked = 0;
  const hit = await findLimit(places, 4, async (p) => {
    asked++;
    const jobs = await api.logpushJobs(p.owner);
    if (!jobs.ok && jobs.status === 429) return { limited: jobs.error };
    if (!jobs.ok) unread.push(jobs.error);
    const job = jobs.ok ? jobs.result.find((j) => j.id === id) : undefined;
    return job ? { place: p, job } : undefined;
  });
  if (hit && 'limited' in hit) {
    throw new UserError(`The search for Logpush job ${id} stopped after asking ${asked} of ${places.length} owners for their jobs: the API's rate limit was reached. ` +
      `Try again in a few minutes. ${hit.limited}`);
  }
  if (unread.length) cut.push(`The job lists of ${unread.length} of ${places.length} owners could not be read (the job may be in one of them); the first: ${unread[0]}`);
  if (!hit) throw new UserError(`No Logpush job ${id} in the ${scope === 'account' ? 'accounts' : scope === 'zone' ? 'zones' : 'zones or accounts'} of ${api.baseUrl}; it may have been deleted. "Create Logpush Job" creates it anew.${cut.map((c) => ` ${c}`).join('')}`);
  return hit;
}

async function setEnabled(ctx: Ctx, arg: unknown, enabled: boolean): Promise<Record<string, unknown>> {
  const { job, place, id, api, from } = await jobOf(ctx, arg, enabled ? 'enable' : 'disable');
  return exclusive(jobKey(api, place, id), `${enabled ? 'Enabling' : 'Disabling'} ${jobLabel(job)} of ${ownerWords(place)}`, async () => {
    const updated = unwrap(await whileWaiting(`${enabled ? 'enabling' : 'disabling'} Logpush job ${id} of ${ownerWords(place)}`, () => api.updateLogpushJob(place.owner, id, { enabled })));
    // Run on a document, it says the new state; run on the view's item, no document is edited unseen (an Update from one asks).
    const written = from ? await writeEnabled(from.doc, from.name, enabled) : { words: '', failed: false };
    // A document read from the backend reads the state it now says: a turn elsewhere since (the view) is then one Update asks about.
    const known = from && !written.failed ? knownJob(from.doc, id, api) : undefined;
    if (from && known?.seen) remember(ctx, from.doc.uri.toString(), { ...known, seen: { ...known.seen, enabled } });
    const said = `${enabled ? 'Enabled' : 'Disabled'} ${jobLabel(job)} of ${ownerWords(place)}${written.words}.`;
    void (written.failed ? vscode.window.showWarningMessage(said) : vscode.window.showInformationMessage(said));
    ctx.zones.refresh({ owner: place.owner, source: api.source });
    return updated;
  });
}

/** Whether the job list of `place`'s owner reads, without job `id`: a 404 to its DELETE is then the job being gone. */
async function goneFrom(api: Api, place: JobPlace, id: number): Promise<boolean> {
  const jobs = await whileWaiting(`reading the Logpush jobs of ${ownerWords(place)}`, () => api.logpushJobs(place.owner));
  return jobs.ok && !jobs.result.some((j) => j.id === id);
}

export const logpushJobLifecycleCommands = {
  'edgekit.logpush.openJob': (ctx: Ctx) => async (arg?: unknown) => {
    const { place, id } = jobTarget(arg);
    const api = await apiFor(ctx);
    // Read again: the view's record can be older than the job.
    const job = unwrap(await whileWaiting(`reading Logpush job ${id} of ${ownerWords(place)}`, () => api.logpushJob(place.owner, id)));
    const uri = await freeUntitledUri(jobDocumentName(job.name, id));
    // Opened, not looked up among workspace.textDocuments: a tab restored from a hot-exit backup is not listed there until it is
    // shown, and opening its name gives the backup's text. A document with any text may hold the user's edits: never replaced.
    const open = await vscode.workspace.openTextDocument(uri);
    if (open.getText() !== '') {
      await vscode.window.showTextDocument(open, { preview: false });
      void vscode.window.showInformationMessage(`${jobLabel(job)} is already open; close it to read it again from the backend.`);
      const prev = openedJobs.get(open.uri.toString());
      remember(ctx, open.uri.toString(), { from: api.source, place, id, seen: prev?.id === id && prev.from === api.source && same(prev.place.owner, place.owner) ? prev.seen : undefined });
      return { uri: open.uri.toString(), job, reused: true };
    }
    const config = Object.fromEntries(Object.entries(job).filter(([k]) => !STATUS_MEMBERS.includes(k)));
    const doc = await showUntitledJson(uri, config, 'logpush-job');
    remember(ctx, doc.uri.toString(), { from: api.source, place, id, seen: job });
    return { uri: doc.uri.toString(), job, reused: false };
  },

  'edgekit.logpush.updateJob': (ctx: Ctx) => async (arg?: unknown) => {
    const { doc, name, job } = await jobDocument(arg);
    const id = documentJobId(name, job);
    if (!await sendDespiteErrors(ctx, doc.uri, 'the update', `Update job ${id} anyway?`, 'Update Anyway')) return undefined;
    const api = await apiFor(ctx);
    const found = await documentJobPlace(ctx, api, doc, id);
    const place = found.place;
    // One command at a time on the job (a second Update, or an Enable, while this one asks or sends: said, not run).
    return exclusive(jobKey(api, place, id), `Updating Logpush job ${id} of ${ownerWords(place)} from ${name}`, async () => {
      let current = found.current;
      if (!current) {
        // The job as the backend has it now; any failure but its absence is left to the update, which says it.
        const now = await jobNow(api, place, id, name, 'update');
        current = now.ok ? now.result : undefined;
      }
      const where = place;
      // The document was read from the backend: what changed there since, and the document would set back, is asked about first.
      const seen = knownJob(doc, id, api)?.seen;
      const values = job as Record<string, unknown>;
      const back = seen && current ? setBack(seen, current, values) : [];
      if (current && back.length) {
        const now = current; // (narrowed for the callback)
        const answer = await ctx.ui.ask(`${jobLabel(now)} of ${ownerWords(where)} changed on the backend since ${name} was read (${back.map((k) => `"${k}"`).join(', ')}). Send the document's values anyway?`,
          ['Send Anyway'], { modal: true, detail: back.map((k) => `${k}: ${JSON.stringify(now[k])} on the backend, ${JSON.stringify(values[k])} in the document.`).join('\n') });
        if (answer !== 'Send Anyway') return undefined;
      }
      // The job's state: a document not read from the backend here cannot tell whether its "enabled" is the user's edit or older than
      // a Disable or Enable (the view, the palette, the dashboard), so turning the job on or off is asked first. (Read, setBack asks
      // when the backend's state changed since, and a change in the document since is the user's.)
      const turn = !seen && current ? stateTurn(values, current) : undefined;
      let keepState = false;
      if (current && turn !== undefined) {
        const verb = turn ? 'Enable' : 'Disable';
        const state = turn ? 'disabled' : 'enabled';
        const keep = `Keep It ${turn ? 'Disabled' : 'Enabled'}`;
        const answer = await ctx.ui.ask(`${jobLabel(current)} of ${ownerWords(where)} is ${state} on the backend, and ${name} says "enabled": ${turn}. ${verb} it with this update?`,
          [`${verb} It`, keep], { modal: true, detail: `${name} was not read from the backend here, so whether its "enabled" is your edit or older than the job's state cannot be told. ` +
            `"${keep}" sends the rest and writes "enabled": ${!turn} into ${name}.` });
        if (answer === keep) keepState = true;
        else if (answer !== `${verb} It`) return undefined;
      }
      // What the update cannot change (dataset, kind; it does not send them): said before anything is sent, not dropped unsaid.
      const fixed = current ? createOnlyChanges(values, current) : [];
      if (current && fixed.length) {
        const members = fixed.map((f) => f.member);
        const them = members.length > 1 ? 'them' : 'it';
        const answer = await ctx.ui.ask(`${jobLabel(current)} of ${ownerWords(where)} cannot change ${members.map((m) => `"${m}"`).join(' or ')}: the platform sets ${them} when a job is created. ${name} changes ${them}; it takes a new job.`,
          ['Update the Rest'], { modal: true, detail: [
            ...fixed.map((f) => `${f.member}: ${JSON.stringify(f.backend)} on the backend, ${JSON.stringify(f.doc)} in the document.`),
            `For the new job: remove "id" from the document and run "Create Logpush Job"; then delete job ${id} if it should stop.`,
            `"Update the Rest" sends the other members and leaves the job's ${members.join(' and ')} as ${members.length > 1 ? 'they are' : 'it is'}.`,
          ].join('\n') });
        if (answer !== 'Update the Rest') return undefined;
      }
      // Its ownership challenge token, when EdgeKit proved it, still holds here (the zone or account, the destination, 7 days); moved
      // to a destination the platform challenges with no token, the platform refuses the update as it would a Create, which asks
      // first (cl14); the job's own destination asks for none.
      const docConf = values.destination_conf;
      const moved = typeof docConf === 'string' && current !== undefined && docConf.trim() !== String(current.destination_conf ?? '').trim();
      const challenged = await confirmOwnership(ctx, api, doc, name, job, where, 'update', moved);
      if (challenged === undefined) return undefined;
      // Kept: the job's own state is sent (left out, the platform's update keeps it too; sent, it holds whatever an update does with
      // a member left out).
      const sent = keepState && turn !== undefined ? { ...(challenged as Record<string, unknown>), enabled: !turn } : challenged;
      const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `EdgeKit: updating Logpush job ${id} of ${ownerWords(where)}` },
        () => api.updateLogpushJob(where.owner, id, sent));
      if (!r.ok) refused(ctx, api, r, `The update of Logpush job ${id} from ${name}`, `The update of job ${id} in ${name}`);
      const written = keepState ? await writeEnabled(doc, name, r.result.enabled === true) : { words: '', failed: false };
      const stateWords = keepState ? `, and kept it ${r.result.enabled === true ? 'enabled' : 'disabled'}${written.words}` : '';
      // The document read as the job now is, unless it still says the other state (its next update then asks again).
      remember(ctx, doc.uri.toString(), { from: api.source, place: where, id, seen: written.failed ? undefined : r.result });
      // Not asked about (the job could not be read first), and not sent: said now, from the job the update returned.
      const kept = current ? [] : createOnlyChanges(values, r.result);
      if (kept.length) {
        const them = kept.length > 1 ? 'them' : 'it';
        const members = kept.map((f) => `"${f.member}": it is still ${JSON.stringify(f.backend)} (${name} says ${JSON.stringify(f.doc)})`).join('; ');
        showWithNotes(ctx, 'warning', `Updated ${jobLabel(r.result)} of ${ownerWords(where)}, but not its ${members}; the platform sets ${them} when a job is created. ` +
          `For a new job: remove "id" from the document and run "Create Logpush Job"; then delete job ${id} if it should stop.`, r.messages);
      } else {
        showWithNotes(ctx, written.failed ? 'warning' : 'info', `Updated ${jobLabel(r.result)} of ${ownerWords(where)}${stateWords}.`, r.messages);
      }
      ctx.zones.refresh({ owner: where.owner, source: api.source });
      return r.result;
    });
  },

  /**
   * The destination ownership challenge of a job document: the backend writes a file holding a token into the destination
   * (POST …/logpush/ownership), you paste the token, the backend confirms it (…/ownership/validate), and it goes into the document as
   * "ownership_challenge", which creating the job (or changing its destination) then carries. `ownerArg` and `tokenArg` answer the
   * questions (tests, other commands).
   */
  'edgekit.logpush.proveOwnership': (ctx: Ctx) => async (arg?: unknown, ownerArg?: unknown, tokenArg?: unknown) => {
    const { doc, name, job } = await jobDocument(arg);
    const conf = (job as { destination_conf?: unknown } | null)?.destination_conf;
    if (typeof conf !== 'string' || !conf.trim()) throw new UserError(`${name} has no "destination_conf" to prove; write the destination first.`);
    refuseUnchallenged(name, conf);
    const api = await apiFor(ctx);
    const docId = (job as { id?: unknown } | null)?.id;
    const where = knownPlace(doc, docId, api)
      ?? await pickJobPlace(ctx, api, doc, ownerArg, { zone: 'The job goes to which zone? (the challenge is the zone\'s)', account: (d) => `The ${d} job goes to which account?`,
        either: (d) => `The ${d} job goes to which zone or account? (the challenge is its owner's)` });
    const proved = await proveAt(ctx, api, doc, name, conf, where, typeof tokenArg === 'string' ? tokenArg : undefined);
    remember(ctx, doc.uri.toString(), { from: api.source, place: where, id: docId, seen: knownJob(doc, docId, api)?.seen });
    return { ...proved, owner: where.owner };
  },

  'edgekit.logpush.enableJob': (ctx: Ctx) => (arg?: unknown) => setEnabled(ctx, arg, true),
  'edgekit.logpush.disableJob': (ctx: Ctx) => (arg?: unknown) => setEnabled(ctx, arg, false),

  'edgekit.logpush.deleteJob': (ctx: Ctx) => async (arg?: unknown) => {
    const { job, place, id, api } = await jobOf(ctx, arg, 'delete');
    return exclusive(jobKey(api, place, id), `Deleting ${jobLabel(job)} of ${ownerWords(place)}`, async () => {
      const destination = typeof job.destination_conf === 'string' ? shownDestination(job.destination_conf) : 'its destination';
      const answer = await ctx.ui.ask(`Delete ${jobLabel(job)} of ${ownerWords(place)}?`, ['Delete'],
        { modal: true, detail: `Its ${String(job.dataset)} logs stop being pushed to ${destination}. This cannot be undone.` });
      if (answer !== 'Delete') return undefined;
      const r = await whileWaiting(`deleting Logpush job ${id} of ${ownerWords(place)}`, () => api.deleteLogpushJob(place.owner, id));
      // Gone already (another window or client deleted it since the view or the document was read): what the user asked for, said
      // as such; its documents and the view are brought up to date as after a delete (docs/architecture.md, "Overlap leftovers (cc2)").
      // A 404 says that only when the owner's job list reads and lacks the job: a zone id the backend does not know, or an API path
      // that is wrong, is a 404 too, and the error stands (rv38).
      const already = !r.ok && r.status === 404 && await goneFrom(api, place, id);
      if (!already) unwrap(r);
      // The documents of this job only (the same id under the same owner): the other jobs' documents still know where they live.
      for (const [uri, o] of openedJobs) {
        if (o.id !== id || o.from !== api.source || !same(o.place.owner, place.owner)) continue;
        openedJobs.delete(uri);
        ctx.jobScopes.set(uri, undefined);
      }
      void vscode.window.showInformationMessage(already ? `${jobLabel(job)} of ${ownerWords(place)} was already deleted.` : `Deleted ${jobLabel(job)} of ${ownerWords(place)}.`);
      ctx.zones.refresh({ owner: place.owner, source: api.source });
      return already ? undefined : { id };
    });
  },
};
